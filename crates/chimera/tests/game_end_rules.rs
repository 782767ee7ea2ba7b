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

#[test]
fn a_flag_piece_in_its_zone_wins() {
    // pyffish: White's king reached e4 with its move: no legal moves for Black
    let mut p = pos("kingofthehill", "4k3/8/8/8/4K3/8/8/8 b - - 0 1");
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Flag(Color::White)));
    // the same king with White to move has not won yet
    assert_eq!(pos("kingofthehill", "4k3/8/8/8/4K3/8/8/8 w - - 0 1").legal_moves().len(), 8);
    // breakthrough: a piece on the far rank wins
    let mut p = pos("breakthrough", "P7/8/8/8/8/8/8/7p b - - 0 1");
    assert_eq!(p.outcome(), Some(Outcome::Flag(Color::White)));
}

#[test]
fn game_end_options_of_variants_ini_files() {
    // the same rules written in Fairy-Stockfish's format; move counts from pyffish
    // after load_variant_config of the same text
    let ini = "[kothtest:chess]\nflagPiece = k\nflagRegion = d4 e4 d5 e5\n\
               [baretest:chess]\nextinctionValue = loss\nextinctionPieceTypes = *\nextinctionPieceCount = 1\n\
               extinctionOpponentPieceCount = 2\nextinctionClaim = true\n\
               [mustcap:chess]\nmustCapture = true\n";
    let count = |name: &str, fen: &str| {
        let def = chimera::ini::variant_from_ini(ini, "end.ini", name).unwrap();
        let v = Arc::new(chimera::variant::Variant::new(def).unwrap());
        Position::from_fen(v, fen).unwrap().legal_moves().len()
    };
    assert_eq!(count("kothtest", "4k3/8/8/8/4K3/8/8/8 b - - 0 1"), 0);
    assert_eq!(count("kothtest", "4k3/8/8/8/4K3/8/8/8 w - - 0 1"), 8);
    assert_eq!(count("baretest", "4k3/8/8/8/8/8/3R4/4K3 w - - 0 1"), 0);
    assert_eq!(count("baretest", "4k3/8/8/8/8/8/3R4/4K3 b - - 0 1"), 3);
    assert_eq!(count("mustcap", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"), 1);
}

#[test]
fn three_checks_win() {
    // pyffish: after Qxf7+ White has one check fewer to give (2+3)
    let mut p = pos("3check", "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 3+3 0 3");
    let m = p.parse_move("f3f7").unwrap();
    p.make(m);
    assert_eq!(p.fen(), "rnbqkbnr/ppp2Qpp/8/3pp3/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 0 3");
    assert_eq!(p.checks_left(Color::White), 2);
    assert_eq!(p.outcome(), None);
    // pyffish: with no checks left to give, White has won and Black has no moves
    let mut p = pos("3check", "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5Q2/PPPP1PPP/RNB1KBNR b KQkq - 0+3 0 3");
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(Outcome::ChecksGiven(Color::White)));
    // a quiet move does not count, and the count is part of the hash
    let a = pos("3check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1");
    let b = pos("3check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3 0 1");
    assert_ne!(a.hash(), b.hash());
    assert!(Position::from_fen(a.variant().clone(), "8/8/8/8/8/8/8/K6k w - - 4+3 0 1").is_err());
}

/// Armageddon: Black has draw odds, so a stalemate (a draw in chess) is a
/// win for Black whoever is stalemated; a mate is still a mate. The expected
/// values are pyffish 0.0.90's `game_result` for these positions.
#[test]
fn armageddon_draws_are_black_wins() {
    let v = Arc::new(builtin::variant("armageddon").unwrap());
    // Black stalemated: +32000 for the side to move (Black wins)
    let mut p = Position::from_fen(v.clone(), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Stalemate(StalemateResult::Win)));
    // White stalemated: -32000 for the side to move (Black wins)
    let mut p = Position::from_fen(v.clone(), "7K/5q2/6k1/8/8/8/8/8 w - - 0 1").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Stalemate(StalemateResult::Loss)));
    let mut p = Position::from_fen(v, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Checkmate(StalemateResult::Loss)));
}
