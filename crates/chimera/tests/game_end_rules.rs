//! Rules that end the game and so remove every legal move, as in
//! Fairy-Stockfish: the bare-king rule (extinction), compulsory captures.
//! Expectations checked with pyffish 0.0.90.

use chimera::{builtin, legal::Outcome, position::Position, square::Color, variant::StalemateResult};
use std::sync::Arc;

fn pos(variant: &str, fen: &str) -> Position {
    Position::from_fen(Arc::new(builtin::variant(variant).unwrap()), fen).unwrap()
}

#[test]
fn shatranj_bare_king_loses_but_may_bare_back() {
    // Black has a bare king and White is to move: the game is over
    let mut p = pos("shatranj", "4k3/8/8/8/8/8/3R4/4K3 w - - 0 1");
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Extinction(Color::Black, StalemateResult::Loss)));
    // with Black to move the claim waits: Black might bare White's king in turn
    let mut p = pos("shatranj", "4k3/8/8/8/8/8/3R4/4K3 b - - 0 1");
    assert_eq!(p.legal_moves().len(), 3);
    assert_eq!(p.outcome(), None);
    // courier (12x8) has the same rule
    assert!(pos("courier", "5k6/12/12/12/12/12/3R8/5K6 w - - 0 1").legal_moves().is_empty());
}
