//! Piece-by-piece destination tests.
//!
//! Each test sets up a position with the two royal pieces out of the way, the
//! piece under test and a few blockers or screens, and compares the legal moves
//! starting on the piece's square with a hard-coded list.
//!
//! Where a list says "pyffish", it was produced by running
//! `pyffish.legal_moves(variant, fen, [])` (pyffish 0.0.90) on the same FEN and
//! keeping the moves from the square under test; for custom pieces that
//! Fairy-Stockfish also understands, the piece was loaded with
//! `pyffish.load_variant_config` as a `customPiece` of a `[t:chess]` variant.
//! Where a list says "by hand", it was reasoned from the XBetza definition and
//! the rules in the brief (Fairy-Stockfish has no `a` legs, no Lion, etc.).

use chimera::builtin;
use chimera::position::Position;
use chimera::variant::{BuildError, Variant};
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

/// A shipped variant, built once per test process (building is the slow part in debug).
fn shipped(name: &str) -> Arc<Variant> {
    static CHESS: OnceLock<Arc<Variant>> = OnceLock::new();
    static XIANGQI: OnceLock<Arc<Variant>> = OnceLock::new();
    static JANGGI: OnceLock<Arc<Variant>> = OnceLock::new();
    let cell = match name {
        "chess" => &CHESS,
        "xiangqi" => &XIANGQI,
        "janggi" => &JANGGI,
        _ => panic!("no cache for {name}"),
    };
    cell.get_or_init(|| Arc::new(builtin::variant(name).unwrap_or_else(|e| panic!("{name}: {e:?}")))).clone()
}

/// Whether the move text `m` starts on square `from` (so `a1` does not match `a10…`).
fn starts_at(m: &str, from: &str) -> bool {
    m.starts_with(from) && !m[from.len()..].chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// All legal moves, as text, in generation order (duplicates kept). The FEN
/// is read permissively: some positions here leave the side not to move in
/// check, to show a piece's reach (as pyffish lists it, king capture and all).
fn all_moves(v: &Arc<Variant>, fen: &str) -> Vec<String> {
    let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    let ms = pos.legal_moves();
    ms.iter().map(|&m| pos.move_text(m)).collect()
}

/// The sorted legal moves from `from`; fails if a move is listed twice.
fn moves_from(v: &Arc<Variant>, fen: &str, from: &str) -> Vec<String> {
    let all = all_moves(v, fen);
    let mut out: Vec<String> = all.into_iter().filter(|m| starts_at(m, from)).collect();
    out.sort();
    let set: BTreeSet<&String> = out.iter().collect();
    assert_eq!(set.len(), out.len(), "{} {fen}: a move from {from} is listed twice: {out:?}", v.name());
    out
}

#[track_caller]
fn check(v: &Arc<Variant>, fen: &str, from: &str, expected: &[&str]) {
    let got = moves_from(v, fen, from);
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(got, want, "{} {fen}: moves from {from}", v.name());
}

#[track_caller]
fn check_all(v: &Arc<Variant>, fen: &str, expected: &[&str]) {
    let mut got = all_moves(v, fen);
    got.sort();
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(got, want, "{} {fen}: all moves", v.name());
}

// ---------------------------------------------------------------- chess

#[test]
fn chess_pawn() {
    let v = shipped("chess");
    // pyffish: single and double step from the start rank
    check(&v, "4k3/8/8/8/8/8/4P3/K7 w - - 0 1", "e2", &["e2e3", "e2e4"]);
    // pyffish: double step blocked on e4, everything blocked on e3
    check(&v, "4k3/8/8/8/4p3/8/4P3/K7 w - - 0 1", "e2", &["e2e3"]);
    check(&v, "4k3/8/8/8/8/4n3/4P3/K7 w - - 0 1", "e2", &[]);
    // pyffish: captures an enemy on d3, not its own pawn on f3
    check(&v, "4k3/8/8/8/8/3n1P2/4P3/K7 w - - 0 1", "e2", &["e2d3", "e2e3", "e2e4"]);
    // pyffish: Black's pawn goes down the board
    check(&v, "7k/4p3/8/8/8/8/8/K7 b - - 0 1", "e7", &["e7e5", "e7e6"]);
    // pyffish: a pawn off its start rank has no double step
    check(&v, "7k/8/8/8/4P3/8/8/K7 w - - 0 1", "e4", &["e4e5"]);
}

#[test]
fn chess_en_passant() {
    let v = shipped("chess");
    // pyffish: with and without the e.p. square in the FEN
    check(&v, "7k/8/8/3pP3/8/8/8/K7 w - d6 0 2", "e5", &["e5d6", "e5e6"]);
    check(&v, "7k/8/8/3pP3/8/8/8/K7 w - - 0 2", "e5", &["e5e6"]);
    check(&v, "7k/8/8/8/3Pp3/8/8/K7 b - d3 0 1", "e4", &["e4d3", "e4e3"]);
    // by hand: the double step creates the e.p. right for the reply
    let mut pos = Position::from_fen(v.clone(), "7k/8/8/8/3p4/8/4P3/K7 w - - 0 1").unwrap();
    let m = pos.parse_move("e2e4").unwrap();
    pos.make(m);
    let replies: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_text(m))
        .filter(|t| starts_at(t, "d4"))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(replies, ["d4d3", "d4e3"]);
}

#[test]
fn chess_promotion() {
    let v = shipped("chess");
    // pyffish: four choices on each of the three squares (b8 empty, a8/c8 enemies)
    check(
        &v,
        "n1r4k/1P6/8/8/8/8/8/K7 w - - 0 1",
        "b7",
        &["b7a8b", "b7a8n", "b7a8q", "b7a8r", "b7b8b", "b7b8n", "b7b8q", "b7b8r", "b7c8b", "b7c8n", "b7c8q", "b7c8r"],
    );
}

#[test]
fn chess_knight() {
    let v = shipped("chess");
    // pyffish: enemy on c6 captured, own pawn on e5 not in the way
    check(
        &v,
        "7k/8/2p5/4P3/3N4/8/8/K7 w - - 0 1",
        "d4",
        &["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"],
    );
    // pyffish: the corner (b3 is free, a1's own king is elsewhere)
    check(&v, "7k/8/8/8/8/8/8/N6K w - - 0 1", "a1", &["a1b3", "a1c2"]);
}

#[test]
fn chess_sliders() {
    let v = shipped("chess");
    // pyffish: bishop, enemy on b6 and f2, own pawn on d6 (not on a diagonal)
    check(
        &v,
        "7k/8/1p1P4/8/3B4/8/5p2/K7 w - - 0 1",
        "d4",
        &["d4b2", "d4b6", "d4c3", "d4c5", "d4e3", "d4e5", "d4f2", "d4f6", "d4g7", "d4h8"],
    );
    // pyffish: rook, enemy on d6, own pawn on b4
    check(
        &v,
        "7k/8/3p4/8/1P1R4/8/8/K7 w - - 0 1",
        "d4",
        &["d4c4", "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4e4", "d4f4", "d4g4", "d4h4"],
    );
    // pyffish: queen
    check(
        &v,
        "7k/8/1p1p4/8/1P1Q1P2/8/5p2/K7 w - - 0 1",
        "d4",
        &[
            "d4b2", "d4b6", "d4c3", "d4c4", "d4c5", "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4e3", "d4e4", "d4e5",
            "d4f2", "d4f6", "d4g7", "d4h8",
        ],
    );
}

#[test]
fn chess_king() {
    let v = shipped("chess");
    // pyffish
    check(&v, "7k/8/8/8/3K4/8/8/8 w - - 0 1", "d4", &["d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5"]);
    // pyffish: the rook on c5 covers the c-file and the 5th rank (it may be captured)
    check(&v, "7k/8/8/2r5/3K4/8/8/8 w - - 0 1", "d4", &["d4c5", "d4d3", "d4e3", "d4e4"]);
    // pyffish: two bare kings
    check_all(&v, "k7/8/8/8/8/8/8/K7 w - - 0 1", &["a1a2", "a1b1", "a1b2"]);
}

#[test]
fn chess_castling() {
    let v = shipped("chess");
    // pyffish: both sides, both colours
    check(&v, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1", &["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"]);
    check(&v, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8", &["e8c8", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8", "e8g8"]);
    // pyffish: a knight on b1 (only passed by the rook) and on g1 block
    check(&v, "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1", "e1", &["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
    check(&v, "r3k2r/8/8/8/8/8/8/R2QKB1R w KQkq - 0 1", "e1", &["e1d2", "e1e2", "e1f2"]);
    // pyffish: b1 attacked does not stop O-O-O; g1 attacked stops O-O
    check(&v, "1r2k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1", &["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
    // pyffish: the king may not pass through an attacked square (d1, f1)
    check(&v, "2r1kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1", &["e1d1", "e1d2", "e1e2"]);
    // pyffish: without the right, no O-O-O
    check(&v, "4k3/8/8/8/8/8/8/R3K2R w K - 0 1", "e1", &["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"]);
    // pyffish: no castling out of check
    check(&v, "4k3/8/8/8/4r3/8/8/R3K2R w KQ - 0 1", "e1", &["e1d1", "e1d2", "e1f1", "e1f2"]);
}

// ---------------------------------------------------------------- xiangqi

#[test]
fn xiangqi_general_and_advisor() {
    let v = shipped("xiangqi");
    // pyffish: palace centre; f2 would face the black general on the open f-file
    check(&v, "5k3/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "e2", &["e2d2", "e2e1", "e2e3"]);
    // pyffish: palace corner, c1 is outside
    check(&v, "5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d1", &["d1d2", "d1e1"]);
    // pyffish: e1 would face the general on e10
    check(&v, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d1", &["d1d2"]);
    // pyffish: Black's general in its own palace
    check(&v, "5k3/9/9/9/9/9/9/9/9/3K5 b - - 0 1", "f10", &["f10e10", "f10f9"]);
    // pyffish: advisor in the centre (d1 holds its own general)
    check(&v, "5k3/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1", "e2", &["e2d3", "e2f1", "e2f3"]);
    // pyffish: advisor on e1, its F steps stay in the palace
    check(&v, "5k3/9/9/9/9/9/9/9/9/3KA4 w - - 0 1", "e1", &["e1d2", "e1f2"]);
    // pyffish: an advisor outside the palace has no move
    check(&v, "5k3/9/9/9/9/9/9/9/9/A2K5 w - - 0 1", "a1", &[]);
}

#[test]
fn xiangqi_elephant() {
    let v = shipped("xiangqi");
    // pyffish: free, then blocked at the eye d2
    check(&v, "5k3/9/9/9/9/9/9/9/9/2BK5 w - - 0 1", "c1", &["c1a3", "c1e3"]);
    check(&v, "5k3/9/9/9/9/9/9/9/3p5/2BK5 w - - 0 1", "c1", &[]);
    // pyffish: on the river bank it may not cross (a7, e7); the eye d4 blocks e3
    check(&v, "5k3/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "c5", &["c5a3", "c5e3"]);
    check(&v, "5k3/9/9/9/9/2B6/3P5/9/9/3K5 w - - 0 1", "c5", &["c5a3"]);
    check(&v, "5k3/9/9/9/9/9/9/9/9/3K2B2 w - - 0 1", "g1", &["g1e3", "g1i3"]);
}

#[test]
fn xiangqi_horse() {
    let v = shipped("xiangqi");
    // pyffish: the leg e6 (an enemy) blocks d7 and f7
    check(&v, "5k3/9/9/9/4p4/4N4/9/9/9/3K5 w - - 0 1", "e5", &["e5c4", "e5c6", "e5d3", "e5f3", "e5g4", "e5g6"]);
    // pyffish: f4 is no leg of any move from e5
    check(
        &v,
        "5k3/9/9/9/9/4N4/5P3/9/9/3K5 w - - 0 1",
        "e5",
        &["e5c4", "e5c6", "e5d3", "e5d7", "e5f3", "e5f7", "e5g4", "e5g6"],
    );
    check(&v, "5k3/9/9/9/9/9/9/9/9/N2K5 w - - 0 1", "a1", &["a1b3", "a1c2"]);
}

#[test]
fn xiangqi_chariot_and_cannon() {
    let v = shipped("xiangqi");
    // pyffish: chariot, enemy e6, own chariot b5 and pawn h5
    check(
        &v,
        "5k3/9/9/9/4p4/1R2R2P1/9/9/9/3K5 w - - 0 1",
        "e5",
        &["e5c5", "e5d5", "e5e1", "e5e2", "e5e3", "e5e4", "e5e6", "e5f5", "e5g5"],
    );
    // pyffish: cannon on b4 moves like a rook and captures only over a screen:
    // b8 over b6, h4 over f4; b2 and f4 themselves are not captured, nothing past b2
    check(
        &v,
        "5k3/9/1p7/9/1P7/9/1C3p1n1/9/1r7/3K5 w - - 0 1",
        "b4",
        &["b4a4", "b4b3", "b4b5", "b4b8", "b4c4", "b4d4", "b4e4", "b4h4"],
    );
}

#[test]
fn xiangqi_soldier() {
    let v = shipped("xiangqi");
    // pyffish: before the river (e4, e5) forward only; after it also sideways
    check(&v, "5k3/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1", "e4", &["e4e5"]);
    check(&v, "5k3/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1", "e5", &["e5e6"]);
    check(&v, "5k3/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1", "e6", &["e6d6", "e6e7", "e6f6"]);
    // pyffish: on the last rank only sideways
    check(&v, "P4k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "a10", &["a10b10"]);
    // pyffish: Black's soldier on e6 has not crossed yet
    check(&v, "5k3/9/9/9/4p4/9/9/9/9/3K5 b - - 0 1", "e6", &["e6e5"]);
}

#[test]
fn xiangqi_flying_general() {
    let v = shipped("xiangqi");
    // pyffish: the chariot between the generals is pinned to the e-file
    check_all(
        &v,
        "4k4/9/9/9/9/4R4/9/9/9/4K4 w - - 0 1",
        &["e1d1", "e1e2", "e1f1", "e5e10", "e5e2", "e5e3", "e5e4", "e5e6", "e5e7", "e5e8", "e5e9"],
    );
    // pyffish: d1 would face the general on d10
    check(&v, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e1", &["e1e2", "e1f1"]);
}

// ---------------------------------------------------------------- janggi

#[test]
fn janggi_general_and_guard() {
    let v = shipped("janggi");
    // pyffish: palace centre has all 8 directions, plus the pass e2e2
    let centre = ["e2d1", "e2d2", "e2d3", "e2e1", "e2e2", "e2e3", "e2f1", "e2f2", "e2f3"];
    check(&v, "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "e2", &centre);
    check(&v, "5k3/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "e2", &centre);
    // pyffish: d2 is no diagonal point
    check(&v, "5k3/9/9/9/9/9/9/9/3K5/9 w - - 0 1", "d2", &["d2d1", "d2d2", "d2d3", "d2e2"]);
    // pyffish: the corner d1 has the diagonal towards e2 only
    check(&v, "5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d1", &["d1d1", "d1d2", "d1e1", "d1e2"]);
    // pyffish: guard in the centre (d1 holds the general)
    check(&v, "5k3/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1", "e2", &["e2d2", "e2d3", "e2e1", "e2e3", "e2f1", "e2f2", "e2f3"]);
    // pyffish: guard on d2 (no diagonal) and on d3 (diagonal corner)
    check(&v, "5k3/9/9/9/9/9/9/9/3A5/4K4 w - - 0 1", "d2", &["d2d1", "d2d3", "d2e2"]);
    check(&v, "5k3/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1", "d3", &["d3d2", "d3e2", "d3e3"]);
}

#[test]
fn janggi_pass_and_bikjang() {
    let v = shipped("janggi");
    // pyffish: the pass is written as the general moving to its own square
    check_all(&v, "5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", &["d1d1", "d1d2", "d1e1", "d1e2"]);
    check_all(&v, "5k3/9/9/9/9/9/9/9/9/3K5 b - - 0 1", &["f10e10", "f10e9", "f10f10", "f10f9"]);
    // pyffish: no pass in check (chariot on d5); a chariot on f3 gives check along
    // the palace diagonal f3-e2-d1 and covers e2
    check_all(&v, "5k3/9/9/9/9/3r5/9/9/9/3K5 w - - 0 1", &["d1e1", "d1e2"]);
    check_all(&v, "5k3/9/9/9/9/9/9/5r3/9/3K5 w - - 0 1", &["d1d2", "d1e1"]);
    // pyffish: facing generals (bikjang) must be broken or answered by a pass
    check_all(&v, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", &["e1d1", "e1e1", "e1f1"]);
}

#[test]
fn janggi_elephant() {
    let v = shipped("janggi");
    // pyffish: all eight (2,3)/(3,2) targets
    check(
        &v,
        "5k3/9/9/9/9/4B4/9/9/9/3K5 w - - 0 1",
        "e5",
        &["e5b3", "e5b7", "e5c2", "e5c8", "e5g2", "e5g8", "e5h3", "e5h7"],
    );
    // pyffish: first blocking square e6 stops c8 and g8
    check(&v, "5k3/9/9/9/4P4/4B4/9/9/9/3K5 w - - 0 1", "e5", &["e5b3", "e5b7", "e5c2", "e5g2", "e5h3", "e5h7"]);
    // pyffish: second blocking square f7 (own or enemy) stops g8 only
    for fen in ["5k3/9/9/5P3/9/4B4/9/9/9/3K5 w - - 0 1", "5k3/9/9/5p3/9/4B4/9/9/9/3K5 w - - 0 1"] {
        check(&v, fen, "e5", &["e5b3", "e5b7", "e5c2", "e5c8", "e5g2", "e5h3", "e5h7"]);
    }
}

#[test]
fn janggi_horse() {
    let v = shipped("janggi");
    // pyffish
    check(&v, "5k3/9/9/9/4p4/4N4/9/9/9/3K5 w - - 0 1", "e5", &["e5c4", "e5c6", "e5d3", "e5f3", "e5g4", "e5g6"]);
}

#[test]
fn janggi_chariot() {
    let v = shipped("janggi");
    // pyffish: from the corner d1 the diagonal slides d1-e2-f3 and stops at the palace edge (no g4)
    let corner = [
        "d1a1", "d1b1", "d1c1", "d1d10", "d1d2", "d1d3", "d1d4", "d1d5", "d1d6", "d1d7", "d1d8", "d1d9", "d1e1",
        "d1e2", "d1f3",
    ];
    check(&v, "4k4/9/9/9/9/9/9/9/9/3R1K3 w - - 0 1", "d1", &corner);
    // pyffish: an enemy on f3 is captured at the end of the diagonal
    check(&v, "4k4/9/9/9/9/9/9/5p3/9/3R1K3 w - - 0 1", "d1", &corner);
    // pyffish: from the centre, the four diagonals (d1 holds the general)
    check(
        &v,
        "5k3/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1",
        "e2",
        &[
            "e2a2", "e2b2", "e2c2", "e2d2", "e2d3", "e2e1", "e2e10", "e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8",
            "e2e9", "e2f1", "e2f2", "e2f3", "e2g2", "e2h2", "e2i2",
        ],
    );
    // pyffish: e3 is no diagonal point
    check(
        &v,
        "5k3/9/9/9/9/9/9/4R4/9/3K5 w - - 0 1",
        "e3",
        &[
            "e3a3", "e3b3", "e3c3", "e3d3", "e3e1", "e3e10", "e3e2", "e3e4", "e3e5", "e3e6", "e3e7", "e3e8", "e3e9",
            "e3f3", "e3g3", "e3h3", "e3i3",
        ],
    );
    // pyffish: the enemy palace's diagonals too (d8-e9-f10)
    check(
        &v,
        "4k4/9/3R5/9/9/9/9/9/9/3K5 w - - 0 1",
        "d8",
        &[
            "d8a8", "d8b8", "d8c8", "d8d10", "d8d2", "d8d3", "d8d4", "d8d5", "d8d6", "d8d7", "d8d9", "d8e8", "d8e9",
            "d8f10", "d8f8", "d8g8", "d8h8", "d8i8",
        ],
    );
}

#[test]
fn janggi_cannon() {
    let v = shipped("janggi");
    // pyffish: must hop to move or capture: b7 and b8 over b6, b1 over b2, g4 and h4 over f4
    check(&v, "5k3/9/1p7/9/1P7/9/1C3p1n1/9/1r7/3K5 w - - 0 1", "b4", &["b4b1", "b4b7", "b4b8", "b4g4", "b4h4"]);
    // pyffish: may not hop over a cannon (f4)
    check(&v, "5k3/9/1n7/9/1p7/9/1C3c1n1/9/1r7/3K5 w - - 0 1", "b4", &["b4b1", "b4b7", "b4b8"]);
    // pyffish: may not capture a cannon (b8)
    check(&v, "5k3/9/1c7/9/1p7/9/1C7/9/9/3K5 w - - 0 1", "b4", &["b4b7"]);
    // pyffish: palace diagonal d1-(e2)-f3, and along the first rank over its own general
    check(&v, "4k4/9/9/9/9/9/9/9/4P4/3C1K3 w - - 0 1", "d1", &["d1f3", "d1g1", "d1h1", "d1i1"]);
    check(&v, "4k4/9/9/9/9/9/9/5n3/4P4/3C1K3 w - - 0 1", "d1", &["d1f3", "d1g1", "d1h1", "d1i1"]);
    // pyffish: not capturing a cannon on f3, not hopping over a cannon on e2
    check(&v, "4k4/9/9/9/9/9/9/5c3/4P4/3C1K3 w - - 0 1", "d1", &["d1g1", "d1h1", "d1i1"]);
    check(&v, "4k4/9/9/9/9/9/9/9/4c4/3C1K3 w - - 0 1", "d1", &["d1g1", "d1h1", "d1i1"]);
}

#[test]
fn janggi_soldier() {
    let v = shipped("janggi");
    // pyffish: forward and sideways anywhere
    check(&v, "5k3/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1", "e5", &["e5d5", "e5e6", "e5f5"]);
    // pyffish: forward diagonal only on the enemy palace's diagonal points
    check(&v, "5k3/9/3P5/9/9/9/9/9/9/3K5 w - - 0 1", "d8", &["d8c8", "d8d9", "d8e8", "d8e9"]);
    check(&v, "5k3/9/5P3/9/9/9/9/9/9/3K5 w - - 0 1", "f8", &["f8e8", "f8e9", "f8f9", "f8g8"]);
    check(&v, "5k3/9/4P4/9/9/9/9/9/9/3K5 w - - 0 1", "e8", &["e8d8", "e8e9", "e8f8"]);
    check(&v, "9/4P4/4k4/9/9/9/9/9/9/3K5 w - - 0 1", "e9", &["e9d10", "e9d9", "e9e10", "e9f10", "e9f9"]);
    // pyffish: Black's soldiers, mirrored
    check(&v, "5k3/9/9/9/4p4/9/9/9/9/3K5 b - - 0 1", "e6", &["e6d6", "e6e5", "e6f6"]);
    check(&v, "5k3/9/9/9/9/9/9/3p5/9/3K5 b - - 0 1", "d3", &["d3c3", "d3d2", "d3e2", "d3e3"]);
}

// ---------------------------------------------------------------- custom pieces

/// A variant with a royal king `k`, the piece `x` under test and a blocker `p`
/// (a plain Wazir), on a `files`×`ranks` board.
fn custom_toml(files: u8, ranks: u8, start_fen: &str, betza: &str) -> String {
    format!(
        r#"name = "test"
files = {files}
ranks = {ranks}
start_fen = "{start_fen}"

[[piece]]
name = "king"
letter = "k"
betza = "K"
royal = true

[[piece]]
name = "blocker"
letter = "p"
betza = "W"

[[piece]]
name = "xpiece"
letter = "x"
betza = "{betza}"
"#
    )
}

const EMPTY8: &str = "7k/8/8/8/8/8/8/K7 w - - 0 1";

fn custom(betza: &str) -> Arc<Variant> {
    custom_with_start(betza, EMPTY8)
}

/// Built custom variants, by (betza, start FEN).
type CustomCache = Mutex<HashMap<(String, String), Arc<Variant>>>;

/// A custom variant, built once per test process for each (betza, start) pair.
fn custom_with_start(betza: &str, start_fen: &str) -> Arc<Variant> {
    static CACHE: OnceLock<CustomCache> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry((betza.to_string(), start_fen.to_string()))
        .or_insert_with(|| {
            let src = custom_toml(8, 8, start_fen, betza);
            Arc::new(Variant::from_toml(&src, "test.toml").unwrap_or_else(|e| panic!("{betza}: {e}")))
        })
        .clone()
}

#[test]
fn mao_afs_w() {
    // by hand (and equal to pyffish's Xiangqi horse nN with the same blockers):
    // a W step to an empty square, then one diagonal step outward
    let v = custom("afsW");
    check(&v, "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"]);
    // each orthogonal neighbour blocks the two targets beyond it
    check(&v, "7k/8/8/3p4/3X4/8/8/K7 w - - 0 1", "d4", &["d4b3", "d4b5", "d4c2", "d4e2", "d4f3", "d4f5"]);
    check(&v, "7k/8/8/8/3XP3/8/8/K7 w - - 0 1", "d4", &["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6"]);
    // a diagonal neighbour blocks nothing; the targets may be captured
    check(
        &v,
        "7k/8/2p5/4p3/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"],
    );
}

#[test]
fn moa_afs_f() {
    // by hand: a diagonal step to an empty square, then one orthogonal step outward
    let v = custom("afsF");
    check(&v, "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"]);
    // e5 blocks e6 and f5; an orthogonal neighbour blocks nothing
    check(&v, "7k/8/8/3pp3/3X4/8/8/K7 w - - 0 1", "d4", &["d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4f3"]);
}

const LION_DIRECT: [&str; 24] = [
    "d4b2", "d4b3", "d4b4", "d4b5", "d4b6", "d4c2", "d4c3", "d4c4", "d4c5", "d4c6", "d4d2", "d4d3", "d4d5", "d4d6",
    "d4e2", "d4e3", "d4e4", "d4e5", "d4e6", "d4f2", "d4f3", "d4f4", "d4f5", "d4f6",
];

fn lion_expectations() -> Vec<(&'static str, Vec<&'static str>)> {
    // by hand, HaChu semantics (brief §3)
    let mut empty: Vec<&str> = LION_DIRECT.to_vec();
    empty.push("d4d4"); // the pass: out to an empty square and back
    let mut one = empty.clone();
    // enemy on e5: hit and run to each neighbour of e5, and igui (back to d4)
    one.extend([
        "d4e5,e5d4",
        "d4e5,e5d5",
        "d4e5,e5d6",
        "d4e5,e5e6",
        "d4e5,e5f6",
        "d4e5,e5f5",
        "d4e5,e5f4",
        "d4e5,e5e4",
    ]);
    // enemies on e5 and f6: the same moves, d4e5,e5f6 now a double capture
    let two = one.clone();
    // a friend on e5: no locust move, e5 not a target
    let friend: Vec<&str> = empty.iter().copied().filter(|m| *m != "d4e5").collect();
    vec![
        ("7k/8/8/8/3X4/8/8/K7 w - - 0 1", empty),
        ("7k/8/8/4p3/3X4/8/8/K7 w - - 0 1", one),
        ("7k/8/5p2/4p3/3X4/8/8/K7 w - - 0 1", two),
        ("7k/8/8/4P3/3X4/8/8/K7 w - - 0 1", friend),
    ]
}

#[test]
fn lion_diagram_form() {
    // `caK` no longer turns back (XBoard's reading), so the igui is written
    // out: `cabK`
    let v = custom("KNADcaKcabKmabK");
    for (fen, want) in lion_expectations() {
        check(&v, fen, "d4", &want);
    }
}

#[test]
fn lion_brief_form_same_moves_no_duplicates() {
    // `mcabK` also makes each igui, already made by `caK`: it must be listed once
    let v = custom("KNADcaKmcabK");
    for (fen, want) in lion_expectations() {
        check(&v, fen, "d4", &want);
        // moves_from already rejects duplicates; check the full list as well
        let all = all_moves(&v, fen);
        let set: BTreeSet<&String> = all.iter().collect();
        assert_eq!(set.len(), all.len(), "{fen}: duplicates in {all:?}");
    }
}

#[test]
fn lion_surrounded_by_friends_has_no_pass() {
    // by hand: with no empty neighbour there is no step out and back, and
    // friends are neither captured nor used for locust moves
    for betza in ["KNADcaKcabKmabK", "KNADcaKmcabK"] {
        let v = custom(betza);
        let outer: Vec<&str> = LION_DIRECT
            .iter()
            .copied()
            .filter(|m| {
                let b = m.as_bytes();
                (b[2] as i32 - b'd' as i32).abs() == 2 || (b[3] as i32 - b'4' as i32).abs() == 2
            })
            .collect();
        assert_eq!(outer.len(), 16);
        check(&v, "7k/8/8/2PPP3/2PXP3/2PPP3/8/K7 w - - 0 1", "d4", &outer);
    }
}

#[test]
fn lion_black_mirrors_white() {
    // by hand: the Lion is symmetric, so Black's moves are White's with the ranks mirrored
    let mirror_sq = |sq: &str| format!("{}{}", &sq[..1], 9 - sq[1..].parse::<u8>().unwrap());
    let mirror_move =
        |m: &str| m.split(',').map(|leg| mirror_sq(&leg[..2]) + &mirror_sq(&leg[2..])).collect::<Vec<_>>().join(",");
    let v = custom("KNADcaKcabKmabK");
    for (fen, want) in lion_expectations() {
        let board: Vec<&str> = fen.split(' ').next().unwrap().split('/').collect();
        let flipped: Vec<String> = board.iter().rev().map(|r| r.chars().map(swap_case).collect()).collect();
        let black_fen = format!("{} b - - 0 1", flipped.join("/"));
        let want: Vec<String> = want.iter().map(|m| mirror_move(m)).collect();
        let want: Vec<&str> = want.iter().map(String::as_str).collect();
        check(&v, &black_fen, "d5", &want);
    }
}

fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

#[test]
fn lion_double_capture_removes_both() {
    let v = custom("KNADcaKcabKmabK");
    let mut pos = Position::from_fen(v, "7k/8/5p2/4p3/3X4/8/8/K7 w - - 0 1").unwrap();
    let m = pos.parse_move("d4e5,e5f6").unwrap();
    pos.make(m);
    assert_eq!(pos.fen().split(' ').next().unwrap(), "7k/8/5X2/8/8/8/8/K7");
}

#[test]
fn nightrider_nn() {
    // pyffish (customPiece NN)
    let v = custom("NN");
    check(
        &v,
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4b3", "d4b5", "d4b8", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5", "d4f8", "d4h2", "d4h6"],
    );
    // pyffish: enemy on f5 captured (no h6), own piece on e6 stops the (1,2) ride
    check(
        &v,
        "7k/8/4P3/5p2/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4b3", "d4b5", "d4b8", "d4c2", "d4c6", "d4e2", "d4f3", "d4f5", "d4h2"],
    );
}

#[test]
fn grasshopper_gq() {
    // pyffish (customPiece gQ), checked by hand: lands just beyond the first
    // piece on each line, over friend or foe; nothing without a screen
    let v = custom("gQ");
    check(&v, "7k/8/3p1P2/8/1p1X4/2P5/8/K7 w - - 0 1", "d4", &["d4a4", "d4b2", "d4d7", "d4g7"]);
    check(&v, "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &[]);
    // by hand: captures an enemy on the landing square, not a friend
    check(&v, "7k/3p2P1/3p1P2/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4d7"]);
}

#[test]
fn grasshopper_on_a_non_final_leg() {
    // by hand: `g` on a non-final leg ends on an occupied square (friend or foe), like `p`,
    // and switches the next leg between leaper and rider, so `gafR` is `gR` (these lists
    // are the ones of `grasshopper_gq` restricted to rook lines); both compiled and
    // generated nothing before
    let r = custom("gafR");
    check(&r, "7k/8/3p1P2/8/1p1X4/2P5/8/K7 w - - 0 1", "d4", &["d4a4", "d4d7"]);
    check(&r, "7k/3p2P1/3p1P2/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4d7"]);
    check(&r, "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &[]);
    // `gafW`: hop over a neighbour, then ride straight on as a rook
    let w = custom("gafW");
    check(&w, "7k/3p4/8/3P4/3Xp3/8/8/K7 w - - 0 1", "d4", &["d4d6", "d4d7", "d4f4", "d4g4", "d4h4"]);
    check(&w, "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &[]);
    // its ride gives check: the black king may not step onto d7
    check(&w, "3k4/8/8/3P4/3X4/8/8/K7 b - - 0 1", "d8", &["d8c7", "d8c8", "d8e7", "d8e8"]);
}

#[test]
fn grasshopper_before_a_limited_leg_is_refused() {
    // by hand: the range `g` would switch a limited leg to is not defined
    let src = custom_toml(8, 8, EMPTY8, "gafR3");
    let Err(err) = Variant::from_toml(&src, "test.toml") else { panic!("gafR3 must be refused") };
    assert!(err.to_string().contains("'g'"), "{err}");
}

#[test]
fn limited_range_w3() {
    // pyffish (customPiece W3)
    let v = custom("W3");
    check(
        &v,
        "7k/8/8/3p4/3X4/8/3P4/K7 w - - 0 1",
        "d4",
        &["d4a4", "d4b4", "d4c4", "d4d3", "d4d5", "d4e4", "d4f4", "d4g4"],
    );
    check(
        &v,
        "7k/8/8/8/3X4/8/8/K7 w - - 0 1",
        "d4",
        &["d4a4", "d4b4", "d4c4", "d4d1", "d4d2", "d4d3", "d4d5", "d4d6", "d4d7", "d4e4", "d4f4", "d4g4"],
    );
}

#[test]
fn initial_only_moves() {
    // by hand: `WiN` has the knight moves only while it stands unmoved on its start square
    let start = "7k/8/8/8/3X4/8/8/K7 w - - 0 1";
    let v = custom_with_start("WiN", start);
    let w_and_n = ["d4b3", "d4b5", "d4c2", "d4c6", "d4c4", "d4d3", "d4d5", "d4e2", "d4e4", "d4e6", "d4f3", "d4f5"];
    check(&v, start, "d4", &w_and_n);
    // the same piece elsewhere has not its start square: W only
    check(&v, "7k/8/8/8/4X3/8/8/K7 w - - 0 1", "e4", &["e4d4", "e4e3", "e4e5", "e4f4"]);
    // out and back: no longer virgin
    let mut pos = Position::from_fen(v.clone(), start).unwrap();
    for mv in ["d4d5", "h8g8", "d5d4", "g8h8"] {
        let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{e}"));
        pos.make(m);
    }
    let now: BTreeSet<String> =
        pos.legal_moves().iter().map(|&m| pos.move_text(m)).filter(|t| starts_at(t, "d4")).collect();
    let want: BTreeSet<String> = ["d4c4", "d4d3", "d4d5", "d4e4"].iter().map(|s| s.to_string()).collect();
    assert_eq!(now, want);
}

#[test]
fn initial_bracket_group() {
    // by hand: `Wi[W-F]` steps as a wazir, and while unmoved on its start
    // square also as a Xiangqi horse (a wazir step to an empty square, then a
    // ferz step 45° outward); a piece on d5 blocks c6 and e6
    let start = "7k/8/8/3P4/3X4/8/8/K7 w - - 0 1";
    let v = custom_with_start("Wi[W-F]", start);
    let horse = ["d4b3", "d4b5", "d4c2", "d4e2", "d4f3", "d4f5"];
    let mut want = vec!["d4c4", "d4d3", "d4e4"];
    want.extend(horse);
    check(&v, start, "d4", &want);
    // elsewhere it has not its start square: W only
    check(&v, "7k/8/8/4P3/4X3/8/8/K7 w - - 0 1", "e4", &["e4d4", "e4e3", "e4f4"]);
}

#[test]
fn direction_selections_on_oblique_atoms() {
    // pyffish (customPiece with each betza); for Black, forward is down the board
    let cases: [(&str, &[&str], &[&str]); 4] = [
        ("fsN", &["d4b5", "d4f5"], &["d4b3", "d4f3"]),
        ("ffN", &["d4c6", "d4e6"], &["d4c2", "d4e2"]),
        ("fN", &["d4c6", "d4e6"], &["d4c2", "d4e2"]),
        ("bsN", &["d4b3", "d4f3"], &["d4b5", "d4f5"]),
    ];
    for (betza, white, black) in cases {
        let v = custom(betza);
        check(&v, "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", white);
        check(&v, "7k/8/8/8/3x4/8/8/K7 b - - 0 1", "d4", black);
    }
    // pyffish: the single directions frN (the upper one of the right pair) and rfN
    // (the right one of the forward pair), for White
    check(&custom("frN"), "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4f5"]);
    check(&custom("rfN"), "7k/8/8/8/3X4/8/8/K7 w - - 0 1", "d4", &["d4e6"]);
}

#[test]
fn chiral_directions_for_black_are_rotated() {
    // pyffish: Black's moves are White's turned by 180 degrees, so Black's "right"
    // is the board's left: frN from d4 goes to b3 (not f3), rfN to c2 (not e2).
    // XBoard's MovesFromString does the same ("invert black moves": the direction
    // set is rotated by 4 of its 8 directions, i.e. v -> -v).
    check(&custom("frN"), "7k/8/8/8/3x4/8/8/K7 b - - 0 1", "d4", &["d4b3"]);
    check(&custom("rfN"), "7k/8/8/8/3x4/8/8/K7 b - - 0 1", "d4", &["d4c2"]);
    // pyffish: the same for a first leg on an orthogonal atom: rW is Black's right, a3-wards
    check(&custom("rW"), "7k/8/8/8/3x4/8/8/K7 b - - 0 1", "d4", &["d4c4"]);
}

// ---------------------------------------------------------------- errors

#[track_caller]
fn compile_error(betza: &str, token: &str) {
    let src = custom_toml(8, 8, EMPTY8, betza);
    match Variant::from_toml(&src, "test.toml") {
        Err(BuildError::Compile(e)) => {
            assert_eq!(e.piece, "xpiece", "{betza}: {e}");
            assert_eq!(e.token, token, "{betza}: {e}");
            assert!(!e.message.is_empty());
        }
        Err(other) => panic!("{betza}: expected a compile error, got {other}"),
        Ok(_) => panic!("{betza}: expected a compile error, it compiled"),
    }
}

#[test]
fn unsupported_modifiers_are_compile_errors() {
    compile_error("WuN", "uN");
    compile_error("xR", "xR");
    compile_error("KkN", "kN");
    compile_error("zN", "zN");
}

#[test]
fn rejected_combinations_are_compile_errors() {
    compile_error("nR", "nR");
    compile_error("KnB", "nB");
    compile_error("qK", "qK");
    compile_error("cacacaW", "cacacaW");
}

#[test]
fn syntax_error_points_at_file_line_column() {
    let src = custom_toml(8, 8, EMPTY8, "fX");
    let line = src.lines().position(|l| l.contains("\"fX\"")).expect("betza line") + 1;
    let column = src.lines().nth(line - 1).unwrap().find('X').unwrap() + 1;
    match Variant::from_toml(&src, "test.toml") {
        Err(BuildError::Definition(e)) => {
            assert_eq!(e.file, "test.toml");
            assert_eq!(e.line, line, "{e}");
            assert_eq!(e.column, column, "{e}");
        }
        Err(other) => panic!("expected a definition error, got {other}"),
        Ok(_) => panic!("'fX' compiled"),
    }
}
