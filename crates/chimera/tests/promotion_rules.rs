//! Promotion rules beyond chess: Grand Chess's promotion to captured pieces
//! only, shogi's optional and forced promotion, crazyhouse's promoted pieces.
//! Expected lists come from pyffish 0.0.90 on the same positions.

use chimera::{builtin, position::Position};
use std::sync::Arc;

fn moves_from(variant: &str, fen: &str, from: &str) -> Vec<String> {
    let v = Arc::new(builtin::variant(variant).unwrap());
    // read permissively: some positions leave the side not to move in check
    let mut pos = Position::from_fen_permissive(v, fen).unwrap();
    let mut ms: Vec<String> =
        pos.legal_moves().iter().map(|&m| pos.move_text(m)).filter(|t| t.starts_with(from)).collect();
    ms.sort();
    ms
}

#[test]
fn grand_promotes_only_to_captured_pieces() {
    // one white rook was captured: the only promotion choice is a rook
    let fen = "r8k/1nbq1cabn1/pppppppp1P/10/10/10/10/PPPPPPPPP1/1NBQKCABN1/9R w - - 0 1";
    assert_eq!(moves_from("grand", fen, "j8"), ["j8i9", "j8i9r", "j8j9", "j8j9r"]);
    // on the ninth rank promotion is optional, on the tenth it is forced
    let fen = "r8k/1nbq1cabn1/ppppppppP1/10/10/10/10/PPPPPPPP2/1NBQKCABN1/9R w - - 0 1";
    assert_eq!(moves_from("grand", fen, "i8"), ["i8h9", "i8h9r"]);
}

#[test]
fn shogi_promotion_is_optional_in_the_zone_and_forced_where_stuck() {
    // pyffish: the pawn on c6 (White, moving up) may promote on c7 or not; on the last rank it must
    let fen = "4k4/9/2P6/9/9/9/9/9/4K4[] w - - 0 1";
    assert_eq!(moves_from("shogi", fen, "c7"), ["c7c8", "c7c8+"]);
    let fen = "4k4/2P6/9/9/9/9/9/9/4K4[] w - - 0 1";
    assert_eq!(moves_from("shogi", fen, "c8"), ["c8c9+"]);
}

#[test]
fn captured_promoted_pieces_return_unpromoted() {
    // pyffish: a captured crazyhouse Q~ goes to the hand as a pawn, a shogi +B as a bishop
    let after = |variant: &str, fen: &str, mv: &str| {
        let v = Arc::new(builtin::variant(variant).unwrap());
        // read permissively: some positions leave the side not to move in check
        let mut pos = Position::from_fen_permissive(v, fen).unwrap();
        let m = pos.parse_move(mv).unwrap();
        pos.make(m);
        pos.fen()
    };
    // (the kings stand off the rook's rank: a FEN with the side not to move in
    // check is refused where captures go to the hand)
    assert_eq!(after("crazyhouse", "4k3/8/8/8/8/8/6K1/Q~2r4[] b - - 0 1", "d1a1"), "4k3/8/8/8/8/8/6K1/r7[p] w - - 0 2");
    assert_eq!(after("shogi", "4k4/9/9/9/9/9/9/4K4/+B1r6[] b - - 0 1", "c1a1"), "4k4/9/9/9/9/9/9/4K4/r8[b] w - - 0 2");
}

#[test]
fn pawn_drop_mate_is_listed_and_loses() {
    use chimera::legal::Outcome;
    // pyffish lists the mating drop P@a8 (81 moves) and scores it as a loss for the dropper
    let v = Arc::new(builtin::variant("shogi").unwrap());
    let mut pos = Position::from_fen(v, "kl7/9/1G7/9/9/9/9/9/4K4[P] w - - 0 1").unwrap();
    assert_eq!(pos.legal_moves().len(), 81);
    let m = pos.parse_move("P@a8").unwrap();
    pos.make(m);
    assert_eq!(pos.outcome(), Some(Outcome::DropMate));
}

#[test]
fn promotion_choices_may_differ_per_side() {
    // pyffish: in chigorin White promotes to c, r or n, Black to q, r or b
    let fen = "4k3/P7/8/8/8/8/p7/4K3 w - - 0 1";
    assert_eq!(moves_from("chigorin", fen, "a7"), ["a7a8c", "a7a8n", "a7a8r"]);
    let fen = "4k3/P7/8/8/8/8/p7/4K3 b - - 0 1";
    assert_eq!(moves_from("chigorin", fen, "a2"), ["a2a1b", "a2a1q", "a2a1r"]);
}

/// A 5x5 variant whose checker `x` steps to an empty square (`mW`) or jumps
/// over an enemy next to it onto the empty square beyond, taking it (the
/// locust move `cafmW`), and promotes shogi-style to a king-stepping `+x`
/// in the far two ranks.
const CHECKERS: &str = r#"
name = "locustpromo"
files = 5
ranks = 5
start_fen = "4k/5/2p2/2X2/K4 w - - 0 1"

[zones]
camp = "a4-e5"

[[piece]]
name = "king"
letter = "k"
betza = "K"
royal = true

[[piece]]
name = "pawn"
letter = "p"
betza = "fW"

[[piece]]
name = "checker"
letter = "x"
betza = "mWcafmW"
promotion = { zone = "camp", to = "+x", style = "shogi" }

[[piece]]
name = "crowned checker"
letter = "+x"
betza = "K"
"#;

#[test]
fn a_locust_capture_into_the_zone_may_promote() {
    use chimera::variant::Variant;
    let v = Arc::new(Variant::from_toml(CHECKERS, "locustpromo").unwrap());
    let mut pos = Position::from_fen(v.clone(), "4k/5/2p2/2X2/K4 w - - 0 1").unwrap();
    let mut ms: Vec<String> =
        pos.legal_moves().iter().map(|&m| pos.move_text(m)).filter(|t| t.starts_with("c2")).collect();
    ms.sort();
    // steps to b2, d2, c1 stay outside the zone; the jump over c3 lands on c4, in it
    assert_eq!(ms, ["c2b2", "c2c1", "c2c3,c3c4", "c2c3,c3c4+", "c2d2"]);
    let before = pos.fen();
    let m = pos.parse_move("c2c3,c3c4+").unwrap();
    assert!(m.locust_promotes());
    assert_eq!(pos.move_text(m), "c2c3,c3c4+");
    let undo = pos.make(m);
    // the pawn is gone, the checker crowned; the crowned checker steps as a king
    assert_eq!(pos.fen(), "4k/2+X2/5/5/K4 b - - 0 1");
    pos.unmake(m, &undo);
    assert_eq!(pos.fen(), before);
    let plain = pos.parse_move("c2c3,c3c4").unwrap();
    assert!(!plain.locust_promotes());
    pos.make(plain);
    assert_eq!(pos.fen(), "4k/2X2/5/5/K4 b - - 0 1");
    // a crowned hash equals the hash of the same position read from its FEN
    let mut crowned = Position::from_fen(v.clone(), "4k/2+X2/5/5/K4 b - - 0 1").unwrap();
    let mut again = Position::from_fen(v, &before).unwrap();
    again.make(m);
    assert_eq!(again.hash(), crowned.hash());
    assert_eq!(crowned.legal_moves().len(), again.legal_moves().len());
}

#[test]
fn a_compulsory_locust_promotion_replaces_the_plain_move() {
    use chimera::variant::Variant;
    let src = CHECKERS.replace(r#"style = "shogi""#, r#"style = "shogi", mandatory = true"#);
    let v = Arc::new(Variant::from_toml(&src, "locustpromo").unwrap());
    let mut pos = Position::from_fen(v, "4k/5/2p2/2X2/K4 w - - 0 1").unwrap();
    let mut ms: Vec<String> =
        pos.legal_moves().iter().map(|&m| pos.move_text(m)).filter(|t| t.starts_with("c2")).collect();
    ms.sort();
    assert_eq!(ms, ["c2b2", "c2c1", "c2c3,c3c4+", "c2d2"]);
}

#[test]
fn a_locust_piece_may_promote_only_shogi_style_to_one_type() {
    use chimera::variant::Variant;
    // chess style (the default): the move would need room for a choice
    let chess_style = CHECKERS.replace(r#", style = "shogi""#, "");
    let err = Variant::from_toml(&chess_style, "t").unwrap_err().to_string();
    assert!(err.contains("checker") && err.contains("only shogi style"), "{err}");
    assert!(Variant::from_toml(&CHECKERS.replace("shogi", "chu"), "t").is_ok());
}
