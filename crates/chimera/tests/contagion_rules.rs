//! Contagion (`[rules.contagion]`, H.G. Muller's Werewolf Chess and Macadamia
//! Shogi): a piece that captures a contagious piece turns into one of its own
//! colour; royal and immune pieces do not. Expected boards are derived by hand from the rule.

use chimera::{builtin, position::Position, variant::Variant};
use std::sync::Arc;

fn werewolf() -> Arc<Variant> {
    Arc::new(builtin::variant("werewolf").unwrap())
}

/// Plays `mv` on `fen`; checks that unmake restores FEN and hash, and that the
/// hash after the move is the one a FEN reader computes. Returns the FEN after.
fn after(v: &Arc<Variant>, fen: &str, mv: &str) -> String {
    let mut pos = Position::from_fen(v.clone(), fen).unwrap();
    let m = pos.parse_move(mv).unwrap();
    let (before, hash) = (pos.fen(), pos.hash());
    let undo = pos.make(m);
    let fen_after = pos.fen();
    let again = Position::from_fen(v.clone(), &fen_after).unwrap();
    assert_eq!(again.hash(), pos.hash(), "hash after {mv} on {fen}");
    pos.unmake(m, &undo);
    assert_eq!((pos.fen(), pos.hash()), (before, hash), "unmake of {mv} on {fen}");
    fen_after
}

fn board(fen: &str) -> &str {
    fen.split(' ').next().unwrap()
}

fn moves_from(v: &Arc<Variant>, fen: &str, from: &str) -> Vec<String> {
    let mut pos = Position::from_fen(v.clone(), fen).unwrap();
    let mut ms: Vec<String> =
        pos.legal_moves().iter().map(|&m| pos.move_text(m)).filter(|t| t.starts_with(from)).collect();
    ms.sort();
    ms
}

#[test]
fn a_piece_that_takes_a_werewolf_becomes_one() {
    let v = werewolf();
    let fen = "w1w4k/1P6/8/3w4/8/2N5/8/K7 w - - 0 1";
    // the Knight takes the Werewolf on d5 and is a White Werewolf there
    assert_eq!(board(&after(&v, fen, "c3d5")), "w1w4k/1P6/8/3W4/8/8/8/K7");
    // the new Werewolf moves as one: three squares along the rank, which a Knight cannot
    let next = after(&v, fen, "c3d5").replace(" b ", " w ");
    assert!(moves_from(&v, &next, "d5").contains(&"d5g5".to_string()));
}

#[test]
fn a_pawn_that_takes_a_werewolf_on_the_last_rank_has_no_promotion_choice() {
    let v = werewolf();
    let fen = "w1w4k/1P6/8/3w4/8/2N5/8/K7 w - - 0 1";
    // capturing on a8 or c8 turns the Pawn into a Werewolf, whatever it would have become;
    // the step to b8 promotes as usual (to a Rook, Bishop or Knight)
    assert_eq!(moves_from(&v, fen, "b7"), ["b7a8", "b7b8b", "b7b8n", "b7b8r", "b7c8"]);
    assert_eq!(board(&after(&v, fen, "b7a8")), "W1w4k/8/8/3w4/8/2N5/8/K7");
    assert_eq!(board(&after(&v, fen, "b7b8n")), "wNw4k/8/8/3w4/8/2N5/8/K7");
}

#[test]
fn kings_and_werewolves_take_werewolves_without_turning() {
    let v = werewolf();
    // the King is immune: the Werewolf is gone
    assert_eq!(board(&after(&v, "4k3/8/8/8/8/8/3w4/4K3 w - - 0 1", "e1d2")), "4k3/8/8/8/8/8/3K4/8");
    // a Werewolf taking a Werewolf stays what it is
    assert_eq!(board(&after(&v, "4k3/8/8/8/3w4/8/3W4/4K3 w - - 0 1", "d2d4")), "4k3/8/8/8/3W4/8/8/4K3");
    // over a Knight it takes on the way, onto a Werewolf: both are gone, the mover stays a Werewolf
    let fen = "4k3/8/8/8/3w4/3n4/3W4/4K3 w - - 0 1";
    assert!(moves_from(&v, fen, "d2").contains(&"d2d3,d3d4".to_string()));
    assert_eq!(board(&after(&v, fen, "d2d3,d3d4")), "4k3/8/8/8/3W4/8/8/4K3");
}

#[test]
fn a_contagious_victim_taken_on_the_way_turns_the_mover() {
    // a user variant: the Bishop may also jump a diagonal neighbour and take it
    // (cafF, like a checker), and the Rook is immune
    let src = std::fs::read_to_string(format!("{}/../../variants/werewolf.toml", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .replace("name = \"werewolf\"", "name = \"checkerwolf\"")
        .replace("betza = \"B\"", "betza = \"BcafF\"")
        .replace("pieces = \"w\"", "pieces = \"w\"\nimmune = \"r\"");
    let v = Arc::new(Variant::from_toml(&src, "checkerwolf.toml").unwrap());
    let fen = "4k3/8/8/8/8/2w5/1B6/4K3 w - - 0 1";
    // taking the Werewolf on the way to d4: a White Werewolf lands on d4
    assert_eq!(board(&after(&v, fen, "b2c3,c3d4")), "4k3/8/8/8/3W4/8/8/4K3");
    // taking it by moving onto it: the same
    assert_eq!(board(&after(&v, fen, "b2c3")), "4k3/8/8/8/8/2W5/8/4K3");
    // the immune Rook takes it and stays a Rook
    assert_eq!(board(&after(&v, "4k3/8/8/8/8/2w5/8/2R1K3 w - - 0 1", "c1c3")), "4k3/8/8/8/8/2R5/8/4K3");
}

#[test]
fn macadamia_spirits_turn_their_takers_but_not_each_other_nor_royals() {
    // Macadamia Shogi: two contagious types, +i' (Teaching King) and +j'
    // (Buddhist Spirit), immune to each other; the King is royal
    let v = Arc::new(builtin::variant("macadamiashogi").unwrap());
    let fen = "6k6/13/13/13/13/13/13/13/3+i'3+i'5/3G3+J'5/13/13/6K6 w 0 1";
    // the Gold (which may promote by capturing) takes the Teaching King: it
    // turns into one, so its capture has no promotion twin
    assert_eq!(moves_from(&v, fen, "d4"), ["d4c4", "d4c5", "d4d3", "d4d5", "d4e4", "d4e5"]);
    let turned = after(&v, fen, "d4d5");
    assert_eq!(board(&turned), "6k6/13/13/13/13/13/13/13/3+I'3+i'5/7+J'5/13/13/6K6");
    // and now moves as a Teaching King, a Queen's slide among its moves
    assert!(moves_from(&v, &turned.replace(" b ", " w "), "d5").contains(&"d5d12".to_string()));
    // the Buddhist Spirit takes the Teaching King and stays a Buddhist Spirit
    assert_eq!(board(&after(&v, fen, "h4h5")), "6k6/13/13/13/13/13/13/13/3+i'3+J'5/3G9/13/13/6K6");
    // the King takes it and stays a King, or promotes to the Emperor
    let fen = "6k6/13/13/13/13/13/13/13/13/13/13/6+i'6/6K6 w 0 1";
    assert_eq!(board(&after(&v, fen, "g1g2")), "6k6/13/13/13/13/13/13/13/13/13/13/6K6/13");
    assert_eq!(board(&after(&v, fen, "g1g2+")), "6k6/13/13/13/13/13/13/13/13/13/13/6+K6/13");
}

#[test]
fn contagion_errors_name_the_problem() {
    let base = std::fs::read_to_string(format!("{}/../../variants/werewolf.toml", env!("CARGO_MANIFEST_DIR"))).unwrap();
    for (from, to, want) in [
        ("pieces = \"w\"", "pieces = \"\"", "contagion needs at least one piece"),
        ("pieces = \"w\"", "pieces = \"z\"", "\"z\" is not the letter of a piece"),
        ("pieces = \"w\"", "pieces = \"w\"\nimmune = \"q\"", "\"q\" is not the letter of a piece"),
        ("pieces = \"w\"", "pieces = \"w\"\nspread = true", "unknown field `spread`"),
    ] {
        let src = base.replace(from, to);
        let err = Variant::from_toml(&src, "bad.toml").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains(want), "{to}: {err}");
    }
}
