//! Chu Shogi's promotion rule and its two royal pieces (King and Crown
//! Prince). Every move list below is HaChu 0.21's for the same FEN
//! (`scripts/hachu_oracle.py --variant chu --king-safety FEN`).

use chimera::legal::Outcome;
use chimera::variant::StalemateResult;
use chimera::{builtin, perft, position::Position, square::Color};
use std::sync::Arc;

fn position(fen: &str) -> Position {
    Position::from_fen(Arc::new(builtin::variant("chushogi").unwrap()), fen).unwrap()
}

/// The legal moves, sorted, after checking the fast method against the reference one.
fn legal(pos: &mut Position) -> Vec<String> {
    let mut fast: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
    let mut reference: Vec<String> = pos.legal_moves_reference().iter().map(|&m| pos.move_text(m)).collect();
    fast.sort();
    reference.sort();
    assert_eq!(fast, reference, "incremental vs reference");
    fast
}

fn moves(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

#[test]
fn promotion_on_entry_and_by_captures_in_the_zone() {
    // P e8 enters the zone (may promote), P g9 steps inside it (may not),
    // P i9 captures inside it (may), S c9 leaves it by a capture (may) or by
    // a quiet move (may not); P k11 steps to the last rank without capturing
    // (no promotion: it stays there, dead, as HaChu allows), P j11 captures
    // on the last rank (must promote)
    let mut pos = position("k8l2/9PP1/8p3/2S3P1P3/3gP7/12/12/12/12/12/12/K11 w 0 1");
    assert_eq!(
        legal(&mut pos),
        moves("a1a2 a1b1 a1b2 c9b10 c9b8 c9c10 c9d10 c9d8 c9d8+ e8e9 e8e9+ g9g10 i9i10 i9i10+ j11j12+ k11k12")
    );
}

#[test]
fn with_two_royals_check_does_not_matter() {
    // the Crown Prince may be left attacked while the King is on the board
    let fen = "11k/12/5r4n1/12/12/12/12/5+E6/12/2G9/12/K11 w 0 1";
    let mut pos = position(fen);
    assert!(!pos.in_check());
    assert_eq!(
        legal(&mut pos),
        moves("a1a2 a1b1 a1b2 c3b3 c3b4 c3c2 c3c4 c3d3 c3d4 f5e4 f5e5 f5e6 f5f4 f5f6 f5g4 f5g5 f5g6")
    );
    // without the King, the Prince is the last royal: in check, it must move away
    let mut pos = position("11k/12/5r4n1/12/12/12/12/5+E6/12/2G9/12/12 w 0 1");
    assert!(pos.in_check());
    assert_eq!(legal(&mut pos), moves("f5e4 f5e5 f5e6 f5g4 f5g5 f5g6"));
}

#[test]
fn a_side_without_royals_has_lost() {
    // the Lion takes King and Crown Prince in one move
    let mut pos = position("12/12/12/12/12/12/4k+e6/4N7/12/12/12/K11 w 0 1");
    let all = legal(&mut pos);
    assert_eq!(all.len(), 44);
    assert!(all.iter().any(|m| m == "e5e6,e6f6"));
    assert_eq!(pos.outcome(), None);
    let m = pos.parse_move("e5e6,e6f6").unwrap();
    pos.make(m);
    assert_eq!(pos.royal_count(Color::Black), 0);
    assert!(pos.ended_by_rule());
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.outcome(), Some(Outcome::Extinction(Color::Black, StalemateResult::Loss)));
    // taking one of them only leaves the other to be protected
    let mut pos = position("12/12/12/12/12/12/4k+e6/4N7/12/12/12/K11 w 0 1");
    let m = pos.parse_move("e5e6").unwrap();
    pos.make(m);
    assert_eq!(pos.royal_count(Color::Black), 1);
    assert_eq!(pos.outcome(), None);
    assert!(!pos.ended_by_rule());
}

#[test]
fn the_start_position() {
    let mut pos = position(builtin::variant("chushogi").unwrap().def.start_fen.as_str());
    assert_eq!(legal(&mut pos).len(), 36);
    assert_eq!(perft::perft(&mut pos, 3), 48_315);
    assert_eq!(perft::perft_reference(&mut pos, 2), 1_296);
}

#[test]
fn fast_and_reference_perft_agree_with_two_royals() {
    // a middle game from the HaChu data with King and Crown Prince on both sides
    // (line 103 of tests/data/hachu_chu_royals.jsonl: 64 moves, two-leg Lion moves among them)
    let fen = "4g+ekgscfl/4sxot3a/5qnd1rvm/p4p2p1pp/1p1N3pip2/2p9/12/1P6I3/P4PPPPPPP/M+b4DQHRVM/AC1T1OXTDBFA/LF2GK+EGSC1L w 0 1";
    let mut pos = position(fen);
    assert_eq!(legal(&mut pos).len(), 64);
    assert_eq!(perft::perft(&mut pos, 3), perft::perft_reference(&mut pos, 3));
}

/// A middle game from the HaChu data (line 25 of tests/data/hachu_chu.jsonl:
/// 85 moves, HaChu's list; White has a Lion and a Soaring Eagle, which can
/// both pass, and one pass is listed). Deeper counts are Chimera's own
/// (fast = reference method), kept as a regression check; BENCHMARKS.md
/// times the same position.
#[test]
fn middlegame_perft() {
    let fen = "lf2gekgsc1l/ac+Rts1o2bfa/3hdq1t2vm/mp1x1ppp2p1/4p4p1p/6N5/12/3I3P1P2/PP2PPP3PP/MV1GD2+r+dRVM/A1BH1OXT2FA/LFCS1KEGSC1L w 0 1";
    let mut pos = position(fen);
    let list = legal(&mut pos);
    assert_eq!(list.len(), 85);
    assert_eq!(list.iter().filter(|m| !m.contains(',') && m[..m.len() / 2] == m[m.len() / 2..]).count(), 1);
    let two = perft::perft(&mut pos, 2);
    assert_eq!(two, perft::perft_reference(&mut pos, 2));
    assert_eq!(two, MIDDLEGAME_PERFT_2);
    let three = perft::perft(&mut pos, 3);
    assert_eq!(three, perft::perft_reference(&mut pos, 3));
    assert_eq!(three, MIDDLEGAME_PERFT_3);
}

/// A Lion's pass is a move like any other: two passes in a row do not end
/// the game (that rule belongs to variants where passing is a rule, Janggi),
/// and after them the Lion can still pass (a repetition, which the game-end
/// code judges, not the move generator).
#[test]
fn two_lion_passes_end_nothing() {
    let mut pos = position("11k/12/12/12/12/12/12/4n7/12/4N7/12/K11 w 0 1");
    for text in ["e3e3", "e5e5"] {
        let m = pos.parse_move(text).unwrap();
        pos.make(m);
    }
    assert!(!pos.ended_by_rule());
    assert_eq!(pos.outcome(), None);
    assert!(legal(&mut pos).contains(&"e3e3".to_string()));
}

/// Chimera's perft 2 and 3 of the position of [`middlegame_perft`].
const MIDDLEGAME_PERFT_2: u64 = 8_734;
const MIDDLEGAME_PERFT_3: u64 = 744_720;
