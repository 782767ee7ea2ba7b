//! The position: a mailbox, piece lists, pockets, the state that FENs carry,
//! an incremental Zobrist hash, and make/unmake.

use crate::compile::{code_of, type_of};
use crate::fen::{fen_err, fen_problem, EnPassant, Pockets};
pub use crate::fen::{parse_board_field, FenError, FenProblem, Setup, Validation};
use crate::moves::{Move, MoveKind};
use crate::piece::Code;
use crate::square::{Color, Geometry, Square, MAX_SQUARES, NO_SQUARE};
use crate::variant::{Variant, MAX_POCKET};
use crate::width::{FileSet, PieceIndex, MAX_CODES};
use std::fmt;
use std::sync::Arc;

/// The 64-bit words of the set of unmoved squares.
const VIRGIN_WORDS: usize = MAX_SQUARES.div_ceil(64);

pub use crate::width::MAX_PIECES;

/// The pieces of one side, as a list of squares.
#[derive(Clone)]
pub struct PieceList {
    /// The squares, in no particular order.
    pub sq: [Square; MAX_PIECES],
    /// How many.
    pub len: usize,
}

impl PieceList {
    /// The occupied squares.
    #[inline]
    pub fn squares(&self) -> &[Square] {
        &self.sq[..self.len]
    }
}

/// What make() changed, so that unmake() can restore it exactly.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    mover: Code,
    captured: Code,
    extra_captured: Code,
    second_captured: Code,
    castling: u8,
    ep: Square,
    ep_victim: Square,
    ep2: Square,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    virgin: [u64; VIRGIN_WORDS],
    pass_run: u8,
    prev_facing: bool,
    counterstrike: bool,
    last_move: Option<Move>,
    counting_limit: u16,
    counting_ply: u16,
    gates: [FileSet; 2],
    checks_left: [u8; 2],
    /// The pieces the move burnt ([`crate::variant::PieceType::burns`]):
    /// the last ones of [`Position::burnt`].
    burned: u8,
    /// The places in their side's piece list of `captured`,
    /// `extra_captured` and `second_captured`, where unmake puts them back.
    captured_at: PieceIndex,
    extra_at: PieceIndex,
    second_at: PieceIndex,
}

/// What [`Position::make_null`] changed, for [`Position::unmake_null`].
#[derive(Clone, Copy, Debug)]
pub struct NullUndo {
    ep: Square,
    ep_victim: Square,
    ep2: Square,
    hash: u64,
    last_move: Option<Move>,
    counterstrike: bool,
    prev_facing: bool,
}

/// A position of some variant.
#[derive(Clone)]
pub struct Position {
    pub(crate) variant: Arc<Variant>,
    pub(crate) board: [Code; MAX_SQUARES],
    /// Per occupied square: the index of its piece's move list
    /// ([`crate::compile::Tables::list_index`] of the code, whether it has
    /// moved, and the square), kept by every lasting board or "not moved
    /// yet" change, so that the generator and the check pass read it in one
    /// load. Meaningless on empty squares, and during the temporary board
    /// changes of the legality tests (which restore the board).
    pub(crate) list_at: [u32; MAX_SQUARES],
    pub(crate) index: [PieceIndex; MAX_SQUARES],
    pub(crate) lists: [PieceList; 2],
    pub(crate) virgin: [u64; VIRGIN_WORDS],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    pub(crate) castle_rook: [Square; 4],
    /// The square of the king each castling right belongs to (with two kings
    /// of one colour, the one the FEN reader gave it).
    pub(crate) castle_king: [Square; 4],
    pub(crate) castle_clear: [u8; MAX_SQUARES],
    pub(crate) ep: Square,
    pub(crate) ep_victim: Square,
    /// A second e.p. square of the same move, [`NO_SQUARE`] if none: a
    /// triple step passes two squares, each of which may be taken e.p.
    pub(crate) ep2: Square,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    pub(crate) pockets: Pockets,
    /// How many pieces of each code are on the board.
    pub(crate) counts: [u16; MAX_CODES],
    /// How many passes in a row ended with the last move.
    pub(crate) pass_run: u8,
    /// The royals faced each other in the position before the last move (bikjang).
    pub(crate) prev_facing: bool,
    /// The last move was a capture of a Lion by a non-Lion (Lion anti-trading rules).
    pub(crate) counterstrike: bool,
    /// The move that led here, if it was played on this position object.
    pub(crate) last_move: Option<Move>,
    /// Makruk counting: the limit in plies (0: not counting).
    pub(crate) counting_limit: u16,
    /// Makruk counting: the plies counted so far.
    pub(crate) counting_ply: u16,
    /// Gating: per side, the files of its first rank whose gate is open.
    pub(crate) gates: [FileSet; 2],
    /// Check counting: per side, the checks it still has to give to win.
    pub(crate) checks_left: [u8; 2],
    /// The pieces burnt by the moves made on this position object (with
    /// their places in the piece list), with
    /// their squares, for unmake (empty unless a piece burns).
    pub(crate) burnt: Vec<(Square, Code, PieceIndex)>,
}

/// The types that a move's captures put into the mover's hand (unpromoted),
/// when the variant sends captured pieces to the hand.
fn captured_to_hand(v: &Variant, undo: &Undo) -> [Option<usize>; 3] {
    let to_hand = v.def.rules.drops.as_ref().is_some_and(|d| d.captures_to_hand);
    [undo.captured, undo.extra_captured, undo.second_captured].map(|cap| {
        (to_hand && !cap.is_empty()).then(|| {
            let t = type_of(cap);
            v.def.pieces[t].demotes_to.unwrap_or(t)
        })
    })
}

impl Position {
    /// The start position of a variant.
    pub fn start(variant: Arc<Variant>) -> Position {
        let fen = variant.def.start_fen.clone();
        // the start FEN was checked when the variant was built
        Position::from_fen(variant, &fen).expect("start FEN checked at build")
    }

    /// Reads a FEN. Accepts ranks of 10 and more files, multi-digit empty runs,
    /// and pockets written as `[...]` or as an extra rank.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position};
    /// let v = Arc::new(builtin::variant("xiangqi").unwrap());
    /// let p = Position::from_fen(v.clone(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
    /// assert_eq!(p.fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    /// assert!(Position::from_fen(v, "rnbakabnr/9/1c5c1 w - - 0 1").is_err());
    /// ```
    ///
    /// The position must be one the variant can have ([`Validation::Strict`]):
    /// a chess FEN without a white king is refused, with an error naming the
    /// problem. [`Position::from_fen_permissive`] accepts it.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::{FenProblem, Position}};
    /// let v = Arc::new(builtin::variant("chess").unwrap());
    /// let e = Position::from_fen(v.clone(), "4k3/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
    /// assert_eq!(e.problem, FenProblem::RoyalCount);
    /// assert!(Position::from_fen_permissive(v, "4k3/8/8/8/8/8/8/8 w - - 0 1").is_ok());
    /// ```
    pub fn from_fen(variant: Arc<Variant>, fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(variant, fen, Validation::Strict)
    }

    /// Reads a FEN without checking that the variant can reach the position
    /// ([`Validation::Permissive`]): any number of royal pieces, royals that
    /// attack each other. The syntax and the reader's limits are still checked.
    pub fn from_fen_permissive(variant: Arc<Variant>, fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(variant, fen, Validation::Permissive)
    }

    /// Reads a FEN with the given validation level, in the three stages of
    /// [`crate::fen`]: the syntax of every field ([`Setup::parse`]), then
    /// (if `level` is strict) the position's contents, then the rights
    /// matched with the board ([`Position::from_setup`]).
    pub fn from_fen_with(variant: Arc<Variant>, fen: &str, level: Validation) -> Result<Position, FenError> {
        let setup = Setup::parse(&variant.def, fen)?;
        Position::from_setup(variant, &setup, level)
    }

    /// Builds the position a [`Setup`] describes (the last stage of reading a
    /// FEN, see [`crate::fen`]): places the pieces, checks the contents if
    /// `level` is strict ([`crate::validate`]), and matches the castling,
    /// gating and first-move rights and the e.p. squares with the board. A
    /// setup made in code is first checked to fit the variant.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, fen::{Setup, Validation}, position::Position};
    /// let v = Arc::new(builtin::variant("chess").unwrap());
    /// let mut setup = Setup::parse(&v.def, &v.def.start_fen).unwrap();
    /// setup.castling = "Kk".into();
    /// setup.fullmove = 12;
    /// let pos = Position::from_setup(v, &setup, Validation::Strict).unwrap();
    /// assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kk - 0 12");
    /// ```
    pub fn from_setup(variant: Arc<Variant>, setup: &Setup, level: Validation) -> Result<Position, FenError> {
        setup.check_fits(&variant.def)?;
        let g = variant.geometry();
        let fen = setup.text.as_str();
        let mut pos = Position {
            variant: variant.clone(),
            board: [Code::EMPTY; MAX_SQUARES],
            list_at: [0; MAX_SQUARES],
            index: [0; MAX_SQUARES],
            lists: [
                PieceList { sq: [Square::new(0); MAX_PIECES], len: 0 },
                PieceList { sq: [Square::new(0); MAX_PIECES], len: 0 },
            ],
            virgin: [0; VIRGIN_WORDS],
            side: Color::White,
            castling: 0,
            castle_rook: [NO_SQUARE; 4],
            castle_king: [NO_SQUARE; 4],
            castle_clear: [0; MAX_SQUARES],
            ep: NO_SQUARE,
            ep_victim: NO_SQUARE,
            ep2: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            pockets: setup.pockets,
            counts: [0; MAX_CODES],
            pass_run: 0,
            prev_facing: false,
            counterstrike: false,
            last_move: None,
            counting_limit: 0,
            counting_ply: 0,
            gates: [0; 2],
            checks_left: setup.checks_left.unwrap_or([variant.def.rules.checks.unwrap_or(0); 2]),
            burnt: Vec::new(),
        };
        for (sq, &code) in setup.board.iter().enumerate() {
            if !code.is_empty() {
                let c = code.color().index();
                if pos.lists[c].len >= MAX_PIECES {
                    return Err(fen_err(fen, "board", "too many pieces"));
                }
                pos.put(Square::new(sq), code);
                if variant.start_board[sq] == code {
                    pos.set_virgin(Square::new(sq), true);
                }
            }
        }
        pos.side = setup.side;
        if level == Validation::Strict {
            pos.check_contents(fen)?;
        }
        // castling (empty for '-')
        let castling_field = setup.castling.as_str();
        if variant.def.rules.castling.is_some() {
            pos.read_castling_rights(castling_field, fen)?;
        } else if variant.def.rules.gating {
            for ch in castling_field.chars() {
                pos.read_gate(ch).map_err(|m| fen_err(fen, "castling", m))?;
            }
        } else if variant.def.rules.initial_rights.is_some() {
            // first-move rights by file: only the pieces named keep their initial moves
            for sq in g.all_squares() {
                let code = pos.board[sq];
                if !code.is_empty() && pos.has_initial_moves(code) {
                    pos.set_virgin(sq, false);
                }
            }
            for ch in castling_field.chars().filter(|&c| c != '-') {
                let (c, sq) = pos
                    .first_rank_letter(ch)
                    .ok_or_else(|| fen_err(fen, "castling", format!("'{ch}' is not a file of this board")))?;
                let code = pos.board[sq];
                if code.is_color(c) && pos.has_initial_moves(code) {
                    pos.set_virgin(sq, true);
                }
            }
        }
        // (Setup::check_fits refused the field in a variant without any of these)
        // en passant, or (with counting rules) the count limit
        match &setup.en_passant {
            EnPassant::None => {}
            &EnPassant::CountLimit(n) => pos.counting_limit = n,
            EnPassant::Squares(squares) => {
                // the passed square and the destination, run together ("f3g4")
                let squares = squares.as_slice();
                let them = pos.side.flip();
                let occupied_by = |sq: Square, c: Color| {
                    let code = pos.board[sq];
                    code.is_color(c)
                };
                let victim = squares.iter().copied().find(|&sq| occupied_by(sq, them));
                let passed = squares.iter().copied().find(|&sq| pos.board[sq].is_empty());
                // kept under the rule a double step keeps it by: always for a
                // piece whose e.p. squares are written this way (Berolina's
                // pawns), otherwise only if the side to move could take it
                // and only if a double step of the victim's piece can pass
                // that square and end on the victim's
                if let (Some(v), Some(_)) = (victim, passed) {
                    let path_field =
                        variant.def.pieces[type_of(pos.board[v])].ep_field == crate::variant::EpField::Path;
                    // a path of three (`a3a4a5`: a three-step slide) names two passed squares
                    let empty: Vec<Square> =
                        squares.iter().copied().filter(|&sq| pos.board[sq].is_empty()).take(2).collect();
                    for p in empty {
                        if (path_field || pos.ep_capturable(pos.side, p, v)) && pos.could_double_step(p, v) {
                            if pos.ep == NO_SQUARE {
                                pos.ep = p;
                                pos.ep_victim = v;
                            } else if pos.ep != p {
                                pos.ep2 = p;
                            }
                        }
                    }
                } else if let (&[a, b], None) = (squares, victim) {
                    // two passed squares of a triple step (`e3e4`): the victim
                    // stands just beyond the farther one
                    let dir_up = pos.side == Color::Black;
                    let far = if (g.rank_of(a) > g.rank_of(b)) == dir_up { a } else { b };
                    if let Some(v) = pos.ep_victim_beyond(far).filter(|&v| occupied_by(v, them)) {
                        let always =
                            variant.def.pieces[type_of(pos.board[v])].ep_field != crate::variant::EpField::Attacked;
                        for p in [a, b] {
                            let keep = pos.board[p].is_empty()
                                && (always || pos.ep_capturable(pos.side, p, v))
                                && pos.could_double_step(p, v);
                            if keep && pos.ep == NO_SQUARE {
                                pos.ep = p;
                                pos.ep_victim = v;
                            } else if keep && pos.ep != p {
                                pos.ep2 = p;
                            }
                        }
                    }
                }
            }
            &EnPassant::Square(sq) => {
                let victim = pos.ep_victim_beyond(sq);
                match victim {
                    // the victim must be the opponent's: a square behind which
                    // stands a piece of the side to move names no double step
                    Some(vs)
                        if pos.board[sq].is_empty()
                            && !pos.board[vs].is_empty()
                            && pos.board[vs].color() == pos.side.flip()
                            && ((g.rank_of(sq) - g.rank_of(vs)).abs() == 1 || pos.could_double_step(sq, vs))
                            && (pos.ep_capturable(pos.side, sq, vs)
                                || (variant.def.pieces[type_of(pos.board[vs])].ep_field
                                    == crate::variant::EpField::Always
                                    && pos.could_double_step(sq, vs))) =>
                    {
                        pos.ep = sq;
                        pos.ep_victim = vs;
                    }
                    // Like Fairy-Stockfish, ignore an e.p. square that no pawn can have passed.
                    _ => {}
                }
            }
        }
        pos.halfmove = setup.halfmove;
        pos.fullmove = setup.fullmove.max(1);
        if pos.counting_limit > 0 && pos.halfmove > 0 {
            // with a count running, the half-move field holds the counted plies
            pos.counting_ply = pos.halfmove.min(u16::MAX as u32) as u16;
            pos.halfmove = 0;
        }
        pos.hash = pos.compute_hash();
        let to_hand = variant.def.rules.drops.as_ref().is_some_and(|d| d.captures_to_hand);
        if to_hand {
            // a pocket counts up to MAX_POCKET - 1 pieces: every piece that
            // could come into one pocket (from both hands and the board,
            // demoted, or after promoting) must fit in it
            let pieces = &variant.def.pieces;
            let hand_type = |t: usize| pieces[t].demotes_to.unwrap_or(t);
            let mut could = vec![0usize; pieces.len()];
            let mut count = |t: usize, n: usize| {
                if n == 0 || pieces[t].royal {
                    return;
                }
                let mut kinds = vec![hand_type(t)];
                if let Some(pr) = &pieces[t].promotion {
                    kinds.extend(pr.choices.iter().chain(pr.choices_black.iter().flatten()).map(|&p| hand_type(p)));
                }
                kinds.sort_unstable();
                kinds.dedup();
                for k in kinds {
                    could[k] += n;
                }
            };
            for sq in 0..g.squares() {
                if !pos.board[sq].is_empty() {
                    count(type_of(pos.board[sq]), 1);
                }
            }
            for t in 0..pieces.len() {
                count(t, pos.pockets[0][t] as usize + pos.pockets[1][t] as usize);
            }
            for (t, &n) in could.iter().enumerate() {
                if n > MAX_POCKET - 1 {
                    return Err(fen_problem(
                        fen,
                        "board",
                        FenProblem::Pocket,
                        format!(
                            "{n} pieces could end in one hand as '{}' (board and hands), more than a hand holds ({})",
                            pieces[t].letter.to_ascii_uppercase(),
                            MAX_POCKET - 1
                        ),
                    ));
                }
            }
        }
        if (to_hand || level == Validation::Strict) && pos.royal_attacked(pos.side.flip()) {
            // no legal game reaches it, and the side to move could capture a
            // royal piece: into its hand, which no FEN can then write, or off
            // the board, leaving a side with fewer royals than the variant
            // allows (fuzz finding 25); checked last, so that a FEN with
            // another fault gets that fault's code
            return Err(fen_problem(
                fen,
                "side to move",
                FenProblem::OpponentInCheck,
                format!("the side not to move ({}) is in check", pos.side.flip()),
            ));
        }
        Ok(pos)
    }

    /// Whether the piece on `victim` has a double step (a move that creates
    /// e.p. rights, initial or not, from any square) that passes `passed` and
    /// ends on `victim`: a two-square e.p. field must name such a move.
    fn could_double_step(&self, passed: Square, victim: Square) -> bool {
        let code = self.board[victim];
        let tables = &self.variant.tables;
        (0..self.geometry().squares()).any(|origin| {
            [true, false].into_iter().any(|virgin| {
                tables.list(code, virgin, Square::new(origin)).0.iter().any(|c| {
                    c.flags & crate::compile::SPECIAL != 0
                        && c.aux & crate::compile::AUX_EP_CREATE != 0
                        && c.to == victim
                        && (c.victim == passed
                            || (2 * c.victim.index() as i32 - victim.index() as i32 == passed.index() as i32
                                && passed != Square::new(origin)))
                })
            })
        })
    }

    /// Whether a FEN reader given only the e.p. square `ep` finds the victim on
    /// `victim`: one rank beyond it on the same file, in the direction of the
    /// side that made the double step.
    fn ep_victim_where_read(&self, ep: Square, victim: Square) -> bool {
        self.ep_victim_beyond(ep) == Some(victim)
    }

    /// The square a FEN reader takes for the victim of the e.p. square `ep`:
    /// one rank beyond it on the same file, in the direction of the side that
    /// made the step, or (after a triple step) two ranks beyond an empty one.
    fn ep_victim_beyond(&self, ep: Square) -> Option<Square> {
        let g = self.geometry();
        let dir = if self.side == Color::White { -1 } else { 1 };
        let next = g.square(g.file_of(ep), g.rank_of(ep) + dir)?;
        if !self.board[next].is_empty() {
            return Some(next);
        }
        g.square(g.file_of(ep), g.rank_of(ep) + 2 * dir)
    }

    /// Writes the position as a FEN, in the form Fairy-Stockfish's `get_fen` uses.
    pub fn fen(&self) -> String {
        let g = self.geometry();
        let mut s = String::new();
        for rank in (0..g.height as i32).rev() {
            let mut empty = 0;
            for file in 0..g.width as i32 {
                let code = self.board[g.square(file, rank).unwrap().index()];
                if code.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push_str(&self.token(code));
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        if self.variant.def.rules.has_hand() {
            // White's hand, then Black's, each in reverse order of definition
            s.push('[');
            for c in [Color::White, Color::Black] {
                for t in (0..self.variant.def.pieces.len()).rev() {
                    for _ in 0..self.pockets[c.index()][t] {
                        s.push_str(&self.token(code_of(t, c)));
                    }
                }
            }
            s.push(']');
        }
        s.push(' ');
        s.push_str(&self.side.to_string());
        s.push(' ');
        let before = s.len();
        let chess960 = self.chess960();
        for c in [Color::White, Color::Black] {
            self.write_castling_rights(c, chess960, &mut s);
            self.write_gates(c, &mut s);
            if self.variant.def.rules.initial_rights.is_some() {
                for f in 0..g.width as i32 {
                    let sq = g.square(f, self.gate_rank(c)).unwrap();
                    if self.has_initial_right(c, sq) {
                        let ch = (b'a' + f as u8) as char;
                        s.push(if c == Color::White { ch.to_ascii_uppercase() } else { ch });
                    }
                }
            }
        }
        // Fairy-Stockfish writes '-' only when there are no gates at all, even
        // unusable ones (of a side whose hand is empty): then the field is empty
        if s.len() == before && self.gates == [0, 0] {
            s.push('-');
        }
        s.push(' ');
        // like Fairy-Stockfish, the e.p. square is kept (and named) only if a
        // piece of the side to move attacks it (pseudo-legally: a pinned pawn counts)
        if self.counting_limit > 0 {
            s.push_str(&self.counting_limit.to_string());
        } else if self.ep2 != NO_SQUARE {
            // two passed squares of a triple step, as Fairy-Stockfish writes them
            // (`e3e4`); after a Betza-defined piece's initial slide, its whole
            // path with the piece's square (`a3a4a5`)
            let path =
                self.variant.def.pieces[type_of(self.board[self.ep_victim])].ep_field == crate::variant::EpField::Path;
            let mut sqs = [self.ep, self.ep2, if path { self.ep_victim } else { NO_SQUARE }];
            sqs.sort_unstable();
            for sq in sqs.into_iter().filter(|&q| q != NO_SQUARE) {
                g.write_square(sq, &mut s);
            }
        } else if self.ep != NO_SQUARE
            && (self.variant.def.pieces[type_of(self.board[self.ep_victim])].ep_field == crate::variant::EpField::Path
                || !self.ep_victim_where_read(self.ep, self.ep_victim))
        {
            // also when one square would not tell the reader where the victim is
            // (a piece that stepped backwards or diagonally over the square)
            g.write_square(self.ep.min(self.ep_victim), &mut s);
            g.write_square(self.ep.max(self.ep_victim), &mut s);
        } else if self.ep != NO_SQUARE {
            g.write_square(self.ep, &mut s);
        } else {
            s.push('-');
        }
        if self.variant.def.rules.checks.is_some() {
            self.write_checks_left(&mut s);
        }
        let clock = if self.counting_limit > 0 { self.counting_ply as u32 } else { self.halfmove };
        s.push_str(&format!(" {} {}", clock, self.fullmove));
        s
    }

    /// The FEN token of a piece code: its letter with its marks (`+P`, `Q~`,
    /// `l'`, `+L!`).
    pub fn token(&self, code: Code) -> String {
        let color = code.color();
        self.variant.def.pieces[type_of(code)].token(color)
    }

    /// The FEN letter of a piece code.
    pub fn letter(&self, code: Code) -> char {
        let l = self.variant.def.pieces[type_of(code)].letter;
        if code.bits() & 1 == 0 {
            l.to_ascii_uppercase()
        } else {
            l
        }
    }

    /// The variant.
    #[inline]
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The board's geometry.
    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.variant.def.geometry
    }

    /// The half-move clock: plies since the last capture or irreversible
    /// pawn move, as the FEN counts it.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece code on a square (0 for empty).
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Code {
        self.board[sq]
    }

    /// The Zobrist hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// True if the last move was a capture of a Lion by a non-Lion, so that a
    /// non-Lion may not capture a Lion now (the counterstrike rule). A position
    /// read from a FEN has no such restriction.
    pub fn counterstrike(&self) -> bool {
        self.counterstrike
    }

    /// The squares of one side's pieces.
    #[inline]
    pub fn pieces(&self, c: Color) -> &[Square] {
        self.lists[c.index()].squares()
    }

    /// How many pieces with this code are on the board.
    #[inline]
    pub fn count(&self, code: Code) -> u16 {
        self.counts[code]
    }

    /// The number of pieces of type `t` in `c`'s pocket.
    pub fn pocket(&self, c: Color, t: usize) -> u8 {
        self.pockets[c.index()][t]
    }

    /// Whether the piece on `sq` has not moved yet.
    #[inline(always)]
    pub fn is_virgin(&self, sq: Square) -> bool {
        self.virgin[sq.index() >> 6] >> (sq.index() & 63) & 1 != 0
    }

    #[inline(always)]
    pub(crate) fn set_virgin(&mut self, sq: Square, on: bool) {
        let (w, b) = (sq.index() >> 6, sq.index() & 63);
        if on {
            self.virgin[w] |= 1 << b;
        } else {
            self.virgin[w] &= !(1 << b);
        }
        self.refresh_list_at(sq);
    }

    /// Recomputes [`Position::list_at`] for `sq` from its occupant and
    /// whether that has moved (nothing for an empty square).
    #[inline(always)]
    fn refresh_list_at(&mut self, sq: Square) {
        let code = self.board[sq];
        if !code.is_empty() {
            self.list_at[sq] = self.variant.tables.list_index(code, self.is_virgin(sq), sq) as u32;
        }
    }

    /// The index of the move list of the piece on the occupied square `sq`:
    /// [`crate::compile::Tables::list_index`] of its code, whether it has
    /// moved, and the square.
    #[inline(always)]
    pub(crate) fn list_index_at(&self, sq: Square) -> usize {
        let idx = self.list_at[sq] as usize;
        debug_assert_eq!(idx, self.variant.tables.list_index(self.board[sq], self.is_virgin(sq), sq));
        idx
    }

    /// Restores the "not moved yet" bits (unmaking a move) and the list
    /// indices of the squares whose bit changes.
    #[inline(always)]
    fn restore_virgin(&mut self, virgin: [u64; VIRGIN_WORDS]) {
        for (w, &bits) in virgin.iter().enumerate() {
            let mut changed = self.virgin[w] ^ bits;
            self.virgin[w] = bits;
            while changed != 0 {
                let b = changed.trailing_zeros() as usize;
                changed &= changed - 1;
                let sq = w * 64 + b;
                if sq < MAX_SQUARES {
                    self.refresh_list_at(Square::new(sq));
                }
            }
        }
    }

    /// Computes the hash from scratch.
    pub fn compute_hash(&self) -> u64 {
        let v = &self.variant;
        let nsq = self.geometry().squares();
        let mut h = 0;
        for sq in 0..nsq {
            let code = self.board[sq];
            if !code.is_empty() {
                h ^= v.z_piece[code.index() * nsq + sq];
            }
        }
        if self.side == Color::Black {
            h ^= v.z_side;
        }
        for bit in 0..4 {
            if self.castling & (1 << bit) != 0 {
                h ^= v.z_castle[bit];
            }
        }
        if self.ep != NO_SQUARE {
            h ^= v.z_ep[self.ep];
        }
        if self.ep2 != NO_SQUARE {
            h ^= v.z_ep[self.ep2];
        }
        h ^= self.gate_hash();
        if v.def.rules.initial_rights.is_some() {
            h ^= self.rights_hash();
        }
        if v.def.rules.checks.is_some() {
            h ^= self.checks_left_hash();
        }
        for c in 0..2 {
            for t in 0..v.def.pieces.len() {
                let n = self.pockets[c][t] as usize;
                if n > 0 {
                    h ^= v.z_pocket[(code_of(t, Color::from_index(c))).index() * MAX_POCKET + n];
                }
            }
        }
        h
    }

    #[inline(always)]
    fn zkey(&self, code: Code, sq: Square) -> u64 {
        let nsq = self.variant.def.geometry.squares();
        self.variant.z_piece[code.index() * nsq + sq.index()]
    }

    /// Changes the count of type `t` in `c`'s hand by `delta`; returns the hash change.
    fn pocket_change(&mut self, c: Color, t: usize, delta: i32) -> u64 {
        let v = &self.variant;
        let code = code_of(t, c).index();
        let old = self.pockets[c.index()][t] as usize;
        let new = (old as i32 + delta).clamp(0, MAX_POCKET as i32 - 1) as usize;
        self.pockets[c.index()][t] = new as u8;
        let key = |n: usize| if n > 0 { v.z_pocket[code * MAX_POCKET + n] } else { 0 };
        key(old) ^ key(new)
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, code: Code) {
        let c = code.color().index();
        self.counts[code] += 1;
        self.board[sq] = code;
        self.refresh_list_at(sq);
        let l = &mut self.lists[c];
        l.sq[l.len] = sq;
        self.index[sq] = l.len as PieceIndex;
        l.len += 1;
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square) -> Code {
        let code = self.board[sq];
        let c = code.color().index();
        self.counts[code] -= 1;
        self.board[sq] = Code::EMPTY;
        let l = &mut self.lists[c];
        let i = self.index[sq] as usize;
        l.len -= 1;
        let last = l.sq[l.len];
        l.sq[i] = last;
        self.index[last] = i as PieceIndex;
        code
    }

    /// Puts `code` back on `sq` at place `i` of its side's list, the place
    /// it had before [`Position::remove`] took it off; the piece `remove`
    /// moved into that place goes back to the end. Undone in the reverse
    /// order of the removals, this gives the lists their order again, so
    /// that a position made and unmade generates its moves in the same order.
    #[inline(always)]
    pub(crate) fn put_back(&mut self, sq: Square, code: Code, i: PieceIndex) {
        let c = code.color().index();
        self.counts[code] += 1;
        self.board[sq] = code;
        self.refresh_list_at(sq);
        let l = &mut self.lists[c];
        let i = i as usize;
        if i < l.len {
            let moved = l.sq[i];
            l.sq[l.len] = moved;
            self.index[moved] = l.len as PieceIndex;
        }
        l.sq[i] = sq;
        self.index[sq] = i as PieceIndex;
        l.len += 1;
    }

    /// The pieces on `from` and `to` change places (an unloading move,
    /// [`Move::unload`], and its unmaking); returns the change of the hash.
    #[cold]
    #[inline(never)]
    fn swap(&mut self, from: Square, to: Square) -> u64 {
        let (mover, other) = (self.board[from], self.board[to]);
        let (i, k) = (self.index[from], self.index[to]);
        self.board[from] = other;
        self.board[to] = mover;
        self.lists[mover.color().index()].sq[i as usize] = to;
        self.lists[other.color().index()].sq[k as usize] = from;
        self.index[to] = i;
        self.index[from] = k;
        self.refresh_list_at(from);
        self.refresh_list_at(to);
        self.zkey(other, to) ^ self.zkey(other, from) ^ self.zkey(mover, from) ^ self.zkey(mover, to)
    }

    #[inline(always)]
    pub(crate) fn shift(&mut self, from: Square, to: Square) {
        let code = self.board[from];
        let c = code.color().index();
        self.board[from] = Code::EMPTY;
        self.board[to] = code;
        self.refresh_list_at(to);
        let i = self.index[from];
        self.lists[c].sq[i as usize] = to;
        self.index[to] = i;
    }

    /// Two pieces of one side move at once, `a` to `a_to` and `b` to `b_to`,
    /// each keeping its place in the piece list (castling: the squares may
    /// overlap, as in Chess960, where the king may land on its rook's square).
    #[inline]
    fn relocate_pair(&mut self, a: Square, a_to: Square, b: Square, b_to: Square) {
        let (pa, pb) = (self.board[a], self.board[b]);
        let (ia, ib) = (self.index[a], self.index[b]);
        self.board[a] = Code::EMPTY;
        self.board[b] = Code::EMPTY;
        self.board[a_to] = pa;
        self.board[b_to] = pb;
        let l = &mut self.lists[pa.color().index()];
        l.sq[ia as usize] = a_to;
        l.sq[ib as usize] = b_to;
        self.index[a_to] = ia;
        self.index[b_to] = ib;
        self.refresh_list_at(a_to);
        self.refresh_list_at(b_to);
    }

    /// True if pieces of this code have initial (`i`) moves.
    pub(crate) fn has_initial_moves(&self, code: Code) -> bool {
        self.variant.def.pieces[type_of(code)].betza.units.iter().any(|u| u.initial)
    }

    /// With first-move rights in the FEN: `c` has a piece with its right on `sq`.
    fn has_initial_right(&self, c: Color, sq: Square) -> bool {
        let code = self.board[sq];
        code.is_color(c) && self.is_virgin(sq) && self.has_initial_moves(code)
    }

    /// The hash of the first-move rights (first-rank files per side).
    fn rights_hash(&self) -> u64 {
        let g = self.geometry();
        let mut rights: [FileSet; 2] = [0; 2];
        for c in [Color::White, Color::Black] {
            for f in 0..g.width as i32 {
                if self.has_initial_right(c, g.square(f, self.gate_rank(c)).unwrap()) {
                    rights[c.index()] |= (1 as FileSet) << f;
                }
            }
        }
        self.gate_keys(rights)
    }

    /// Cambodian: a piece of type `t` that moved to `to` and would attack the
    /// enemy royal there on an empty board takes away the royal's first-move right.
    fn attack_ends_royal_right(&mut self, t: usize, to: Square) {
        let mover = self.board[to];
        if mover.is_empty() || type_of(mover) != t {
            return;
        }
        let them = mover.color().flip();
        let Some(royal) = self.royal_square(them) else { return };
        if !self.is_virgin(royal) {
            return;
        }
        // as in Fairy-Stockfish, the attack is counted on an empty board: any
        // square of the piece's trajectories, blocked or not
        let v = &*self.variant;
        let hits = crate::compile::plain_cells(v.tables.list(mover, false, to).0)
            .any(|c| c.to == royal && c.flags & crate::compile::CAPTURE != 0);
        if hits {
            self.set_virgin(royal, false);
        }
    }

    /// Contagion ([`crate::variant::Contagion`]): after a move to `to` that
    /// took a contagious piece, the piece there turns into one of the mover's
    /// colour, unless it is immune or of that type already. Returns the
    /// change of the hash.
    #[cold]
    fn turn_by_contagion(&mut self, to: Square, undo: &Undo) -> u64 {
        let v = &self.variant;
        let now = self.board[to];
        let Some(victim) = [undo.captured, undo.extra_captured, undo.second_captured]
            .into_iter()
            .find(|&c| !c.is_empty() && v.contagious[c.index()])
        else {
            return 0;
        };
        let new = code_of(type_of(victim), self.side);
        if v.contagion_immune[now] || now == new {
            return 0;
        }
        self.board[to] = new;
        self.refresh_list_at(to);
        self.counts[now] -= 1;
        self.counts[new] += 1;
        self.zkey(now, to) ^ self.zkey(new, to)
    }

    /// The square of a locust move's second victim, if it has one; one
    /// comparison for every other move ([`Move::has_second_victim`]).
    #[inline(always)]
    pub(crate) fn second_victim_of(&self, m: Move) -> Option<Square> {
        if m.has_second_victim() {
            m.second_victim(&self.geometry())
        } else {
            None
        }
    }

    /// The code a piece `mover` becomes by a promoting locust move: its one
    /// promoted type ([`Move::with_locust_promotion`]).
    #[cold]
    fn locust_promotion(&self, mover: Code) -> Code {
        self.variant().tables.promo[mover.index()].as_ref().map_or(mover, |p| p.choices[0])
    }

    /// Plays a move. The move must come from this position's generator.
    pub fn make(&mut self, m: Move) -> Undo {
        let v = self.variant.clone();
        let v = &*v;
        let undo = Undo {
            mover: self.board[m.from()],
            captured: Code::EMPTY,
            extra_captured: Code::EMPTY,
            second_captured: Code::EMPTY,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            ep2: self.ep2,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            virgin: self.virgin,
            pass_run: self.pass_run,
            prev_facing: self.prev_facing,
            counterstrike: self.counterstrike,
            last_move: self.last_move,
            counting_limit: self.counting_limit,
            counting_ply: self.counting_ply,
            gates: self.gates,
            checks_left: self.checks_left,
            burned: 0,
            captured_at: 0,
            extra_at: 0,
            second_at: 0,
        };
        self.last_move = Some(m);
        let gate_hash_before = if v.def.rules.gating {
            self.gate_hash()
        } else if v.def.rules.initial_rights.is_some() {
            self.rights_hash()
        } else {
            0
        };
        if self.counting_limit > 0 {
            self.counting_ply = self.counting_ply.saturating_add(1);
        }
        let mut undo = undo;
        if v.def.rules.bikjang {
            self.note_facing();
        }
        self.pass_run = if m.kind() == MoveKind::Pass { self.pass_run.saturating_add(1) } else { 0 };
        let (from, to) = (m.from(), m.to());
        let mut h = self.hash ^ v.z_side;
        if self.ep != NO_SQUARE {
            h ^= v.z_ep[self.ep];
            if self.ep2 != NO_SQUARE {
                h ^= v.z_ep[self.ep2];
                self.ep2 = NO_SQUARE;
            }
        }
        self.ep = NO_SQUARE;
        self.ep_victim = NO_SQUARE;
        let mover = self.board[from];
        // like Fairy-Stockfish, only an irreversible pawn move resets the
        // n-move count: one the pawn could not take back (not a sideways step)
        let mut reset = v.pawn[mover.index()]
            && !(v.pawn_reversible[mover.index()]
                && m.kind() != MoveKind::Drop
                && v.tables
                    .list(mover, false, to)
                    .0
                    .iter()
                    .any(|c| c.to == from && c.flags & crate::compile::QUIET != 0));
        // a pass leaves every right as it was, as in Fairy-Stockfish
        let passes = m.kind() == MoveKind::Pass;
        let mut touched = if passes { 0 } else { self.castle_clear[from] | self.castle_clear[to] };
        match m.kind() {
            MoveKind::Pass => {}
            MoveKind::Castle => {
                let rsq = m.extra();
                let rto = Self::castle_rook_target(from, to, rsq);
                let (rook, king) = (self.board[rsq], self.board[from]);
                h ^= self.zkey(rook, rsq) ^ self.zkey(king, from) ^ self.zkey(rook, rto) ^ self.zkey(king, to);
                self.relocate_pair(from, to, rsq, rto);
                touched |= self.castle_clear[rsq];
                self.set_virgin(rsq, false);
            }
            MoveKind::Drop => {
                let code = m.code();
                h ^= self.pocket_change(self.side, type_of(code), -1);
                self.put(to, code);
                h ^= self.zkey(code, to);
                reset = true; // a drop cannot be undone: it resets the n-move clock
            }
            kind => {
                // a contagious piece taken (Werewolf Chess): the mover turns, below
                let mut turned = false;
                if kind == MoveKind::EnPassant || kind == MoveKind::Locust {
                    let vs = m.extra();
                    undo.extra_at = self.index[vs];
                    let victim = self.remove(vs);
                    h ^= self.zkey(victim, vs);
                    undo.extra_captured = victim;
                    turned = v.contagious[victim];
                    touched |= self.castle_clear[vs];
                    self.set_virgin(vs, false);
                    reset = true;
                    if let Some(vs) = self.second_victim_of(m) {
                        undo.second_at = self.index[vs];
                        let victim = self.remove(vs);
                        h ^= self.zkey(victim, vs);
                        undo.second_captured = victim;
                        turned |= v.contagious[victim];
                        touched |= self.castle_clear[vs];
                        self.set_virgin(vs, false);
                    }
                }
                if m.is_unload() {
                    h ^= self.swap(from, to);
                } else if from != to {
                    let cap = self.board[to];
                    if !cap.is_empty() {
                        undo.captured_at = self.index[to];
                        self.remove(to);
                        h ^= self.zkey(cap, to);
                        undo.captured = cap;
                        reset = true;
                        turned |= v.contagious[cap];
                    }
                    self.shift(from, to);
                    h ^= self.zkey(mover, from) ^ self.zkey(mover, to);
                }
                if kind == MoveKind::Promotion || m.locust_promotes() {
                    reset = true;
                    let new = if kind == MoveKind::Promotion { m.code() } else { self.locust_promotion(mover) };
                    self.board[to] = new;
                    self.refresh_list_at(to);
                    self.counts[mover.index()] -= 1;
                    self.counts[new] += 1;
                    h ^= self.zkey(mover, to) ^ self.zkey(new, to);
                } else if kind == MoveKind::Double {
                    // like Fairy-Stockfish, keep an e.p. square only if the
                    // opponent can capture there (pseudo-legally), so that equal
                    // positions have equal hashes and FENs; a triple step passes
                    // a second square, just before the one the move names
                    let always = v.def.pieces[type_of(mover)].ep_field != crate::variant::EpField::Attacked;
                    let passed = m.extra();
                    // (only on a straight line of three equal steps: a lame
                    // oblique leap passes one square)
                    let before = 2 * passed.index() as i32 - to.index() as i32;
                    let straight_triple =
                        before != from.index() as i32 && 2 * before - passed.index() as i32 == from.index() as i32;
                    let second = if straight_triple { Square::new(before as usize) } else { NO_SQUARE };
                    for sq in [passed, second] {
                        if sq != NO_SQUARE && (always || self.ep_capturable(self.side.flip(), sq, to)) {
                            if self.ep == NO_SQUARE {
                                self.ep = sq;
                            } else {
                                self.ep2 = sq;
                            }
                            self.ep_victim = to;
                            h ^= v.z_ep[sq];
                        }
                    }
                }
                if turned {
                    h ^= self.turn_by_contagion(to, &undo);
                }
            }
        }
        for t in captured_to_hand(v, &undo).into_iter().flatten() {
            h ^= self.pocket_change(self.side, t, 1);
        }
        if !passes {
            self.set_virgin(from, false);
            self.set_virgin(to, false);
        }
        if let (Some(t), Some(gsq)) = (m.gate(), m.gate_square()) {
            let code = code_of(t, self.side);
            h ^= self.pocket_change(self.side, t, -1);
            self.put(gsq, code);
            h ^= self.zkey(code, gsq);
        }
        if v.def.rules.gating {
            self.update_gates(m);
            h ^= gate_hash_before ^ self.gate_hash();
        }
        if let Some(rights) = &v.def.rules.initial_rights {
            if let Some(t) = rights.lost_to_attack_by {
                self.attack_ends_royal_right(t, to);
            }
            h ^= gate_hash_before ^ self.rights_hash();
        }
        let took = !undo.captured.is_empty() || !undo.extra_captured.is_empty() || !undo.second_captured.is_empty();
        self.counterstrike = took
            && !v.lion[mover.index()]
            && (v.lion[undo.captured] || v.lion[undo.extra_captured] || v.lion[undo.second_captured]);
        if touched & self.castling != 0 {
            for bit in 0..4 {
                if touched & self.castling & (1 << bit) != 0 {
                    h ^= v.z_castle[bit];
                }
            }
            self.castling &= !touched;
        }
        // the piece that moved burns, not the one it promotes to (HaChu's rule: a
        // Water Buffalo that promotes to a Fire Demon burns from the next move)
        if v.burners && m.kind() != MoveKind::Drop {
            if v.burns[mover.index()] {
                let (n, dh) = self.burn_around(to);
                undo.burned = n;
                h ^= dh;
                reset |= n > 0;
            }
            if m.kind() != MoveKind::Pass {
                let (n, dh) = self.burn_arrival(to);
                undo.burned += n;
                h ^= dh;
                reset |= n > 0;
            }
        }
        self.halfmove = if reset { 0 } else { self.halfmove.saturating_add(1) };
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        if v.def.rules.checks.is_some() {
            h ^= self.count_check();
        }
        self.hash = h;
        if v.def.rules.counting.is_some() {
            self.update_counting([undo.captured, undo.extra_captured], m.kind() == MoveKind::Promotion);
        }
        debug_assert_eq!(self.hash, self.compute_hash(), "hash after {m:?}");
        undo
    }

    /// Passes the turn without a move (a "null move", for an engine's search):
    /// the side to move changes and the e.p. square goes. It is not a legal
    /// move of any variant; take it back with [`Position::unmake_null`].
    pub fn make_null(&mut self) -> NullUndo {
        let undo = NullUndo {
            ep: self.ep,
            ep_victim: self.ep_victim,
            ep2: self.ep2,
            hash: self.hash,
            last_move: self.last_move,
            counterstrike: self.counterstrike,
            prev_facing: self.prev_facing,
        };
        let v = &self.variant;
        let mut h = self.hash ^ v.z_side;
        if self.ep != NO_SQUARE {
            h ^= v.z_ep[self.ep];
            if self.ep2 != NO_SQUARE {
                h ^= v.z_ep[self.ep2];
                self.ep2 = NO_SQUARE;
            }
        }
        self.ep = NO_SQUARE;
        self.ep_victim = NO_SQUARE;
        self.last_move = None;
        self.counterstrike = false;
        self.side = self.side.flip();
        self.hash = h;
        undo
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self, undo: &NullUndo) {
        self.side = self.side.flip();
        self.ep = undo.ep;
        self.ep_victim = undo.ep_victim;
        self.ep2 = undo.ep2;
        self.hash = undo.hash;
        self.last_move = undo.last_move;
        self.counterstrike = undo.counterstrike;
        self.prev_facing = undo.prev_facing;
    }

    /// Makruk-style counting: `(limit, counted)` in plies while a count runs
    /// (the count is a draw claim once `counted` exceeds `limit`), or `None`.
    pub fn counting(&self) -> Option<(u16, u16)> {
        (self.counting_limit > 0).then_some((self.counting_limit, self.counting_ply))
    }

    /// The move that led to this position, if it was played on this object
    /// (not known for a position read from a FEN).
    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// Takes back a move played with [`Position::make`], restoring everything exactly.
    pub fn unmake(&mut self, m: Move, undo: &Undo) {
        self.side = self.side.flip();
        self.fullmove = undo.fullmove;
        let (from, to) = (m.from(), m.to());
        if let (Some(t), Some(gsq)) = (m.gate(), m.gate_square()) {
            self.remove(gsq);
            self.pockets[self.side.index()][t] += 1;
        }
        // the pieces burnt last went last: back first, in their places
        for _ in 0..undo.burned {
            if let Some((sq, code, at)) = self.burnt.pop() {
                self.put_back(sq, code, at);
            }
        }
        match m.kind() {
            MoveKind::Pass => {}
            MoveKind::Castle => {
                let rsq = m.extra();
                let rto = Self::castle_rook_target(from, to, rsq);
                self.relocate_pair(to, from, rto, rsq);
            }
            MoveKind::Drop => {
                self.remove(to);
                self.pockets[self.side.index()][type_of(m.code())] += 1;
            }
            _ => {
                // a promotion, or a mover turned by contagion
                let now = self.board[to];
                if now != undo.mover {
                    self.counts[now] -= 1;
                    self.counts[undo.mover.index()] += 1;
                    self.board[to] = undo.mover;
                    self.refresh_list_at(to);
                }
                if m.is_unload() {
                    self.swap(to, from);
                } else if from != to {
                    self.shift(to, from);
                    if !undo.captured.is_empty() {
                        self.put_back(to, undo.captured, undo.captured_at);
                    }
                }
                if !undo.second_captured.is_empty() {
                    if let Some(vs) = self.second_victim_of(m) {
                        self.put_back(vs, undo.second_captured, undo.second_at);
                    }
                }
                if !undo.extra_captured.is_empty() {
                    self.put_back(m.extra(), undo.extra_captured, undo.extra_at);
                }
            }
        }
        for t in captured_to_hand(&self.variant, undo).into_iter().flatten() {
            self.pockets[self.side.index()][t] -= 1;
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.ep_victim = undo.ep_victim;
        self.ep2 = undo.ep2;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        self.restore_virgin(undo.virgin);
        self.pass_run = undo.pass_run;
        self.prev_facing = undo.prev_facing;
        self.counterstrike = undo.counterstrike;
        self.last_move = undo.last_move;
        self.counting_limit = undo.counting_limit;
        self.counting_ply = undo.counting_ply;
        self.gates = undo.gates;
        self.checks_left = undo.checks_left;
        debug_assert!(self.lists_consistent());
    }

    /// Checks that the piece lists, the index and the board agree (for debug assertions and tests).
    pub fn lists_consistent(&self) -> bool {
        let nsq = self.geometry().squares();
        let mut count = [0usize; 2];
        for sq in 0..nsq {
            let code = self.board[sq];
            if !code.is_empty() {
                let c = code.color().index();
                count[c] += 1;
                let i = self.index[sq] as usize;
                if i >= self.lists[c].len || self.lists[c].sq[i].index() != sq {
                    return false;
                }
            }
        }
        count[0] == self.lists[0].len && count[1] == self.lists[1].len
    }

    /// The board as text, rank by rank, with coordinates; promoted pieces are
    /// written `+B` and a crazyhouse's promoted pawns `Q~`, as in the FEN.
    /// Then the side to move and, where pieces can be held, the hands.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position};
    /// let v = Arc::new(builtin::variant("shogi").unwrap());
    /// let fen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1+B5R1/LNSGKGSNL[Pp] b - - 0 1";
    /// let text = Position::from_fen(v, fen).unwrap().board_text();
    /// assert!(text.contains(" +B ") && text.contains("to move: Black"), "{text}");
    /// assert!(text.contains("in hand: White P, Black p"), "{text}");
    /// ```
    pub fn board_text(&self) -> String {
        let g = self.geometry();
        let def = &self.variant.def;
        let cell = |code: Code| -> String {
            if code.is_empty() {
                return ".".into();
            }
            self.token(code)
        };
        let w = def.pieces.iter().map(|p| p.token(Color::White).len()).max().unwrap_or(1);
        let mut s = String::new();
        for rank in (0..g.height as i32).rev() {
            s.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..g.width as i32 {
                let code = self.board[g.square(file, rank).unwrap().index()];
                s.push_str(&format!(" {:>w$}", cell(code)));
            }
            s.push('\n');
        }
        s.push_str("   ");
        for file in 0..g.width {
            s.push_str(&format!(" {:>w$}", (b'a' + file) as char));
        }
        s.push('\n');
        let side = if self.side == Color::White { "White" } else { "Black" };
        s.push_str(&format!("to move: {side}\n"));
        let holds = def.rules.drops.is_some() || def.rules.gating || self.pockets.iter().flatten().any(|&n| n > 0);
        if holds {
            let hand = |c: Color| -> String {
                let mut h = String::new();
                for t in 0..def.pieces.len() {
                    let l = self.token(code_of(t, c));
                    for _ in 0..self.pocket(c, t) {
                        h.push_str(&l);
                    }
                }
                if h.is_empty() {
                    h.push('-');
                }
                h
            };
            s.push_str(&format!("in hand: White {}, Black {}\n", hand(Color::White), hand(Color::Black)));
        }
        s
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}
