//! Invariant checks shared by the fuzz targets. Each check panics with a
//! message naming the position and what broke, which libFuzzer records as a
//! crash with the input that caused it.

use chimera::moves::MoveKind;
use chimera::position::Position;
use chimera::piece::Code;
use std::sync::Arc;

/// The built-in variant with index `i` (modulo their number, in the order
/// of `chimera::builtin::names`, which the seeds of scripts/fuzz-seeds.py
/// follow), each built once, when first asked for; `None` for a variant
/// whose board is too large for this build (Tenjiku Shogi's 16x16 belongs
/// to `chimera-wide`). Any other failure to build is a bug and panics.
pub fn builtin(i: usize) -> Option<Arc<chimera::variant::Variant>> {
    type Cell = std::sync::OnceLock<Option<Arc<chimera::variant::Variant>>>;
    static CELLS: std::sync::OnceLock<Vec<Cell>> = std::sync::OnceLock::new();
    let names = chimera::builtin::names();
    let cells = CELLS.get_or_init(|| names.iter().map(|_| Cell::new()).collect());
    let i = i % names.len();
    cells[i]
        .get_or_init(|| match chimera::builtin::variant(names[i]) {
            Ok(v) => Some(Arc::new(v)),
            Err(e) if e.is_too_large() => None,
            Err(e) => panic!("built-in variant {} does not build: {e}", names[i]),
        })
        .clone()
}

/// The board as piece codes, square by square.
pub fn board(pos: &Position) -> Vec<Code> {
    pos.geometry().all_squares().map(|s| pos.piece_at(s)).collect()
}

/// A FEN that parsed writes a FEN that parses to the same position, and that
/// FEN is a fixed point.
pub fn check_fen_round_trip(pos: &Position) {
    let fen = pos.fen();
    let again = Position::from_fen(pos.variant().clone(), &fen)
        .unwrap_or_else(|e| panic!("{}: own FEN does not parse: {e}", pos.variant().name()));
    if pos.variant().def.rules.gating && fen.replacen("  ", " - ", 1) == again.fen() {
        // documented (docs/reliability.md): Fairy-Stockfish's form leaves the
        // castling field empty when the only gates left are unusable, which
        // reads back as no gates; the board and side still round-trip
        assert_eq!(board(&again), board(pos), "board differs after the round trip of {fen}");
        assert_eq!(again.side_to_move(), pos.side_to_move(), "side differs after the round trip of {fen}");
        return;
    }
    assert_eq!(again.fen(), fen, "{}: FEN is not a fixed point", pos.variant().name());
    assert_eq!(board(&again), board(pos), "{}: board differs after the round trip of {fen}", pos.variant().name());
    assert_eq!(again.side_to_move(), pos.side_to_move(), "side differs after the round trip of {fen}");
    assert_eq!(again.hash(), pos.hash(), "{}: hash differs after the round trip of {fen}", pos.variant().name());
}

/// The position's own consistency: the incremental hash equals the hash from
/// scratch, and the piece lists agree with the board.
pub fn check_consistent(pos: &Position, what: &str) {
    assert_eq!(pos.hash(), pos.compute_hash(), "{what}: incremental hash differs from scratch in {}", pos.fen());
    assert!(pos.lists_consistent(), "{what}: piece lists inconsistent in {}", pos.fen());
}

/// Reading every legal move back generates all the moves for each one, and
/// each legality test can walk a whole list of a piece on a square (up to
/// 65,535 cells; Chu Shogi's longest are about 100): the work grows as
/// moves² × the longest list. Beyond this product only the first 4 moves
/// are read back (a fuzzed four-leg rider, 94 moves and lists of 3,470
/// cells, product 30.7 million, took 34 s for one input in the instrumented
/// build); the check that no two moves share a text still covers them all.
pub const READ_BACK_WORK: usize = 2_000_000;

/// Every legal move: squares on the board, its text reads back as the same
/// move (all of them, or the first 4 beyond [`READ_BACK_WORK`]; no two
/// moves have one text in any case), make keeps the position consistent and unmake restores it exactly. At most `limit`
/// moves are made.
pub fn check_moves(pos: &mut Position, limit: usize) {
    let n = pos.geometry().squares();
    let fen = pos.fen();
    let hash = pos.hash();
    let before = board(pos);
    let moves = pos.legal_moves();
    let longest = pos.variant().tables.lists.iter().map(|l| l.len as usize).max().unwrap_or(0);
    let read_back = if moves.len() * moves.len() * longest > READ_BACK_WORK { 4 } else { usize::MAX };
    let mut texts = std::collections::HashSet::new();
    for (i, &m) in moves.iter().enumerate() {
        assert!(m.to().index() < n, "move to an off-board square {:?} in {fen}", m.to());
        if m.kind() != MoveKind::Drop {
            assert!(m.from().index() < n, "move from an off-board square {:?} in {fen}", m.from());
        }
        let text = pos.move_text(m);
        assert!(texts.insert(text.clone()), "two legal moves are written {text} in {fen}");
        if i < read_back {
            let back =
                pos.parse_move(&text).unwrap_or_else(|e| panic!("legal move {text} does not parse back: {e}"));
            assert_eq!(back, m, "{text} parses back as {} in {fen}", pos.move_text(back));
        }
        if i >= limit {
            continue;
        }
        let undo = pos.make(m);
        check_consistent(pos, &format!("after {text} from {fen}"));
        if i < 4 {
            check_fen_round_trip(pos);
        }
        pos.unmake(m, &undo);
        assert_eq!(pos.hash(), hash, "unmake {text} does not restore the hash in {fen}");
        assert_eq!(board(pos), before, "unmake {text} does not restore the board in {fen}");
        assert_eq!(pos.fen(), fen, "unmake {text} does not restore the FEN");
    }
}

/// The incremental legality test gives the same moves as the reference
/// method (make the move, look for a capture of a royal).
pub fn check_against_reference(pos: &mut Position) {
    let mut fast: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
    let mut slow: Vec<String> = pos.legal_moves_reference().iter().map(|&m| pos.move_text(m)).collect();
    fast.sort();
    slow.sort();
    assert_eq!(fast, slow, "incremental vs reference legal moves in {}", pos.fen());
}

/// A small deterministic generator driven by the fuzzer's bytes.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    /// Reads from `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, at: 0 }
    }
    /// The next byte (0 once the input is used up).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        let v = (self.byte() as usize) << 8 | self.byte() as usize;
        v % n
    }
    /// The bytes not yet read.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.at.min(self.data.len())..]
    }
}
