//! The Lion anti-trading rules of Mighty Lion Chess. Every expectation below
//! was checked against HaChu 0.21; `scripts/hachu_oracle.py --moves ... FEN`
//! gives the same move lists, history included.

use chimera::{builtin, position::Position};
use std::sync::Arc;

fn legal(fen: &str, history: &[&str]) -> Vec<String> {
    let v = Arc::new(builtin::variant("mightylion").unwrap());
    let mut pos = Position::from_fen(v, fen).unwrap();
    for text in history {
        let m = pos.parse_move(text).unwrap();
        pos.make(m);
    }
    let fast: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
    let mut reference: Vec<String> = pos.legal_moves_reference().iter().map(|&m| pos.move_text(m)).collect();
    let mut sorted = fast.clone();
    sorted.sort();
    reference.sort();
    assert_eq!(sorted, reference, "incremental vs reference in {fen} after {history:?}");
    fast
}

fn has(moves: &[String], m: &str) -> bool {
    moves.iter().any(|x| x == m)
}

#[test]
fn adjacent_lion_may_always_be_taken() {
    let ms = legal("4k3/8/3r4/3l4/3L4/8/8/4K3 w - - 0 1", &[]);
    assert!(has(&ms, "d4d5"));
    assert!(has(&ms, "d4d5,d5d4"));
    assert!(has(&ms, "d4d5,d5c6"));
}

#[test]
fn distant_unprotected_lion_may_be_taken() {
    assert!(has(&legal("4k3/8/8/3l4/8/3L4/8/4K3 w - - 0 1", &[]), "d3d5"));
}

#[test]
fn distant_lion_protected_by_a_pawn_may_not_be_taken() {
    assert!(!has(&legal("4k3/8/4p3/3l4/8/3L4/8/4K3 w - - 0 1", &[]), "d3d5"));
}

#[test]
fn a_pinned_protector_still_protects() {
    assert!(!has(&legal("8/k1n4R/8/3l4/8/3L4/8/4K3 w - - 0 1", &[]), "d3d5"));
}

#[test]
fn protection_by_the_king_counts_as_in_hachu() {
    assert!(!has(&legal("8/8/4k3/3l4/8/3L4/8/4K3 w - - 0 1", &[]), "d3d5"));
}

#[test]
fn x_ray_protection_through_the_lions_origin_counts() {
    assert!(!has(&legal("4k3/8/8/3l4/8/3L4/7K/3r4 w - - 0 1", &[]), "d3d5"));
}

#[test]
fn a_non_pawn_bridge_lifts_the_restriction() {
    let ms = legal("4k3/8/4p3/3l4/3n4/3L4/8/4K3 w - - 0 1", &[]);
    assert!(has(&ms, "d3d4,d4d5"));
    assert!(!has(&ms, "d3d5"));
}

#[test]
fn a_pawn_is_no_bridge() {
    let ms = legal("4k3/8/4p3/3l4/3p4/3L4/8/4K3 w - - 0 1", &[]);
    assert!(!has(&ms, "d3d4,d4d5"));
    assert!(has(&ms, "d3d4,d4d3"));
}

#[test]
fn counterstrike_is_forbidden_for_one_move() {
    // the bishop takes the Lion; the rook may not take the other Lion at once
    let ms = legal("4k1r1/8/8/5l2/6L1/3B4/8/4K3 w - - 0 1", &["d3f5"]);
    assert!(!has(&ms, "g8g4"));
    // from the FEN alone there is no history, so no restriction
    assert!(has(&legal("4k1r1/8/8/5B2/6L1/8/8/4K3 b - - 0 1", &[]), "g8g4"));
    // one move later the ban is over
    assert!(has(&legal("4k1r1/8/8/5l2/6L1/3B4/8/4K3 w - - 0 1", &["d3f5", "e8d8", "e1d2"]), "g8g4"));
}

#[test]
fn no_counterstrike_after_a_lion_takes_a_lion() {
    assert!(has(&legal("4k3/8/3r4/3l4/3L4/8/8/4K3 w - - 0 1", &["d4d5"]), "d6d5"));
}
