//! Makruk's counting rules, which Fairy-Stockfish writes into the FEN (the
//! count limit in place of the e.p. field, the counted plies in place of the
//! half-move clock). Expected FENs from pyffish 0.0.90's get_fen.

use chimera::{builtin, position::Position};
use std::sync::Arc;

fn play(variant: &str, fen: &str, moves: &[&str]) -> String {
    let mut pos = Position::from_fen(Arc::new(builtin::variant(variant).unwrap()), fen).unwrap();
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.make(mv);
    }
    pos.fen()
}

#[test]
fn counting_starts_when_the_last_pawn_falls() {
    let fen = "4k3/8/8/8/8/3p4/3R4/4K3 w - - 0 1";
    assert_eq!(play("makruk", fen, &["d2d3"]), "4k3/8/8/8/8/3R4/8/4K3 b - 32 6 1");
    assert_eq!(play("makruk", fen, &["d2d3", "e8e7"]), "8/4k3/8/8/8/3R4/8/4K3 w - 32 7 2");
    assert_eq!(play("asean", fen, &["d2d3"]), "4k3/8/8/8/8/3R4/8/4K3 b - 32 0 1");
    assert_eq!(play("asean", fen, &["d2d3", "e8e7"]), "8/4k3/8/8/8/3R4/8/4K3 w - 32 1 2");
    // a FEN with a running count reads back
    assert_eq!(play("makruk", "8/4k3/8/8/8/3R4/8/4K3 w - 32 7 2", &["d3d4"]), "8/4k3/8/8/3R4/8/8/4K3 b - 32 8 2");
}

#[test]
fn the_running_count_is_public() {
    use std::sync::Arc;
    let v = Arc::new(chimera::builtin::variant("makruk").unwrap());
    let p = chimera::position::Position::from_fen(v.clone(), "8/8/4k3/8/8/3K4/8/R7 w - 16 5 40").unwrap();
    assert_eq!(p.counting(), Some((16, 5)));
    let p = chimera::position::Position::start(v);
    assert_eq!(p.counting(), None);
}
