//! Burning (`burns = true`: Tenjiku Shogi's Fire Demon), with the expected
//! positions and moves derived by hand: after each move of a burning piece
//! every enemy piece next to its destination is removed; a royal next to a
//! square an enemy burner can move to is attacked.

use chimera::perft::{perft, perft_reference};
use chimera::position::Position;
use chimera::variant::Variant;
use std::sync::Arc;

/// A 9x9 board: King, Fire Demon (HaChu's moves: vertical and diagonal
/// slides), Gold and Pawn.
fn variant() -> Arc<Variant> {
    let toml = "name = \"burners\"\nfiles = 9\nranks = 9\nstart_fen = \"4k4/9/9/9/9/9/9/9/4K4 w - - 0 1\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"fire demon\"\nletter = \"f\"\nbetza = \"BvR\"\nburns = true\n\n\
         [[piece]]\nname = \"gold\"\nletter = \"g\"\nbetza = \"WfF\"\n\n\
         [[piece]]\nname = \"pawn\"\nletter = \"p\"\nbetza = \"fW\"\n";
    Arc::new(Variant::from_toml(toml, "burners.toml").unwrap())
}

#[test]
fn a_fire_demon_burns_the_enemies_around_its_destination() {
    // the White Fire Demon d1 goes to d5: the Black pawn e4 and the Black
    // gold e5 burn, the White pawn d6 and the Black pawn a5 stay (and the
    // half-move clock starts again, as after a capture)
    let fen = "8k/9/9/3P5/p3g4/4p4/9/9/K2F5 w - - 0 1";
    let mut pos = Position::from_fen(variant(), fen).unwrap();
    let m = pos.parse_move("d1d5").unwrap();
    let undo = pos.make(m);
    assert_eq!(pos.fen(), "8k/9/9/3P5/p2F5/9/9/9/K8 b - - 0 1");
    // the hash equals a fresh reading of the position
    let again = Position::from_fen(variant(), &pos.fen()).unwrap();
    assert_eq!(pos.hash(), again.hash());
    pos.unmake(m, &undo);
    assert_eq!(pos.fen(), fen);
    // a move of another piece burns nothing
    let m = pos.parse_move("a1b1").unwrap();
    let undo = pos.make(m);
    assert_eq!(pos.fen(), "8k/9/9/3P5/p3g4/4p4/9/9/1K1F5 b - - 1 1");
    pos.unmake(m, &undo);
    assert_eq!(pos.fen(), fen);
}

#[test]
fn a_king_may_not_stand_next_to_where_a_fire_demon_can_go() {
    // the Black Fire Demon c9 reaches c1-c8 and the diagonals b8-a7, d8-i3:
    // of the White king's squares a2 is next to none of them; b1 and b2
    // touch c1 and c2
    let mut pos = Position::from_fen(variant(), "2f5k/9/9/9/9/9/9/9/K8 w - - 0 1").unwrap();
    assert!(!pos.in_check());
    let moves: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
    assert_eq!(moves, ["a1a2"]);
    // next to a square it can reach, the king is in check: White's king on
    // b1, the Fire Demon can go to c1 or c2
    let pos = Position::from_fen(variant(), "2f5k/9/9/9/9/9/9/9/1K7 w - - 0 1").unwrap();
    assert!(pos.clone().in_check());
    // and a position where the side not to move could be burnt is refused
    assert!(Position::from_fen(variant(), "2f5k/9/9/9/9/9/9/9/1K7 b - - 0 1").is_err());
}

#[test]
fn perft_makes_and_unmakes_burns_consistently() {
    // (make checks the hash against a fresh one and unmake the piece lists,
    // with debug assertions on)
    let mut pos = Position::from_fen(variant(), "3fk4/1pgpgp3/9/9/4p4/9/2PGP4/9/3FK4 w - - 0 1").unwrap();
    for d in 1..=3 {
        assert_eq!(perft(&mut pos, d), perft_reference(&mut pos, d), "depth {d}");
    }
    assert_eq!(pos.fen(), "3fk4/1pgpgp3/9/9/4p4/9/2PGP4/9/3FK4 w - - 0 1");
}

#[test]
fn burning_with_drops_is_refused() {
    let toml = "name = \"b\"\nfiles = 5\nranks = 5\nstart_fen = \"2k2/5/5/5/2K2 w - - 0 1\"\n\n\
         [rules.drops]\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"fire demon\"\nletter = \"f\"\nbetza = \"BvR\"\nburns = true\n";
    match Variant::from_toml(toml, "b.toml") {
        Ok(_) => panic!("accepted"),
        Err(e) => assert!(e.to_string().contains("burning pieces cannot be combined with drops"), "{e}"),
    }
}

#[test]
fn a_piece_promoting_to_a_burner_burns_from_its_next_move() {
    // a Water Buffalo (w) promotes to a Fire Demon (+w) in the far three
    // ranks: the promoting move e5e7+ burns nothing (the Black pawns d8 and
    // f7 stay); after the Black king's a8a7 the Fire Demon's move e7e6 burns
    // the Black neighbours of e6 (the pawn f7 and the gold d5), not the White
    // pawn f5 nor the pawn d8
    let toml = "name = \"buffalo\"\nfiles = 9\nranks = 9\nstart_fen = \"4k4/9/9/9/9/9/9/9/4K4 w - - 0 1\"\n\n\
         [zones]\nfar = \"a7-i9\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"water buffalo\"\nletter = \"w\"\nbetza = \"BsRvR2\"\n\
         promotion = { zone = \"far\", to = \"+w\" }\n\n\
         [[piece]]\nname = \"fire demon\"\nletter = \"+w\"\nbetza = \"BvR\"\nburns = true\n\n\
         [[piece]]\nname = \"gold\"\nletter = \"g\"\nbetza = \"WfF\"\n\n\
         [[piece]]\nname = \"pawn\"\nletter = \"p\"\nbetza = \"fW\"\n";
    let v = Arc::new(Variant::from_toml(toml, "buffalo.toml").unwrap());
    let fen = "9/k2p5/5p3/9/3gWP3/9/9/9/8K w - - 0 1";
    let mut pos = Position::from_fen(v.clone(), fen).unwrap();
    let m = pos.parse_move("e5e7+").unwrap();
    pos.make(m);
    assert_eq!(pos.fen(), "9/k2p5/4+Wp3/9/3g1P3/9/9/9/8K b - - 0 1");
    let m = pos.parse_move("a8a7").unwrap();
    pos.make(m);
    let m = pos.parse_move("e7e6").unwrap();
    pos.make(m);
    assert_eq!(pos.fen(), "9/3p5/k8/4+W4/5P3/9/9/9/8K b - - 0 2");
}

/// A 9x9 board with passive burning: King, Demon (burns actively and
/// passively, HaChu's vertical and diagonal slides), Ember (burns passively
/// only, steps forward), Rook and Pawn.
fn passive_variant() -> Arc<Variant> {
    let toml = "name = \"passive\"\nfiles = 9\nranks = 9\nstart_fen = \"3+kk4/9/9/9/9/9/9/9/3+KK4 w - - 0 1\"\n\n\
         [rules]\nroyals = \"last\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"prince\"\nletter = \"+k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"demon\"\nletter = \"d\"\nbetza = \"BvR\"\nburns = true\nburns_passively = true\n\n\
         [[piece]]\nname = \"ember\"\nletter = \"e\"\nbetza = \"fW\"\nburns_passively = true\n\n\
         [[piece]]\nname = \"rook\"\nletter = \"r\"\nbetza = \"R\"\n\n\
         [[piece]]\nname = \"pawn\"\nletter = \"p\"\nbetza = \"fW\"\n";
    Arc::new(Variant::from_toml(toml, "passive.toml").unwrap())
}

#[test]
fn a_piece_that_ends_its_move_next_to_an_enemy_passive_burner_burns() {
    // the White rook a6 goes to d6, next to the Black demon e7: it is
    // removed after its move (and the half-move clock starts again)
    let fen = "8k/9/4d4/R8/9/9/9/9/K8 w - - 3 1";
    let mut pos = Position::from_fen(passive_variant(), fen).unwrap();
    let m = pos.parse_move("a6d6").unwrap();
    let undo = pos.make(m);
    assert_eq!(pos.fen(), "8k/9/4d4/9/9/9/9/9/K8 b - - 0 1");
    let again = Position::from_fen(passive_variant(), &pos.fen()).unwrap();
    assert_eq!(pos.hash(), again.hash());
    pos.unmake(m, &undo);
    assert_eq!(pos.fen(), fen);
    // one square short of it the rook stays: a6c6
    let m = pos.parse_move("a6c6").unwrap();
    pos.make(m);
    assert_eq!(pos.fen(), "8k/9/4d4/2R6/9/9/9/9/K8 b - - 4 1");
}

#[test]
fn capturing_the_passive_burner_is_safe_and_a_burner_burns_one_first() {
    // the rook a7 takes the demon e7: no enemy burner is next to e7 then
    let mut pos = Position::from_fen(passive_variant(), "8k/9/R3d4/9/9/9/9/9/K8 w - - 0 1").unwrap();
    let m = pos.parse_move("a7e7").unwrap();
    pos.make(m);
    assert_eq!(pos.fen(), "8k/9/4R4/9/9/9/9/9/K8 b - - 0 1");
    // a White demon c5 going to d6 burns the Black demon e7 (active burning
    // comes first) and so is not burnt by it
    let mut pos = Position::from_fen(passive_variant(), "8k/9/4d4/9/2D6/9/9/9/K8 w - - 0 1").unwrap();
    let m = pos.parse_move("c5d6").unwrap();
    pos.make(m);
    assert_eq!(pos.fen(), "8k/9/9/3D5/9/9/9/9/K8 b - - 0 1");
}

#[test]
fn a_last_royal_may_not_step_next_to_an_enemy_passive_burner() {
    // the Black ember e7 attacks only e6; the White king c5 may go to d5
    // or c6, but not to d6, where it would burn
    let fen = "8k/9/4e4/9/2K6/9/9/9/9 w - - 0 1";
    let mut pos = Position::from_fen(passive_variant(), fen).unwrap();
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
    moves.sort();
    assert_eq!(moves, ["c5b4", "c5b5", "c5b6", "c5c4", "c5c6", "c5d4", "c5d5"]);
    // with a Crown Prince as well the King is not the last royal: d6 is
    // allowed, and the King burns there
    let fen = "8k/9/4e4/9/2K6/9/9/9/+K8 w - - 0 1";
    let mut pos = Position::from_fen(passive_variant(), fen).unwrap();
    let m = pos.parse_move("c5d6").unwrap();
    assert!(pos.legal_moves().contains(&m));
    pos.make(m);
    assert_eq!(pos.fen(), "8k/9/4e4/9/9/9/9/9/+K8 b - - 0 1");
}

#[test]
fn perft_makes_and_unmakes_passive_burns_consistently() {
    let fen = "3dk4/1pepep3/9/9/4p4/9/2PEP4/9/3DK4 w - - 0 1";
    let mut pos = Position::from_fen(passive_variant(), fen).unwrap();
    for d in 1..=3 {
        assert_eq!(perft(&mut pos, d), perft_reference(&mut pos, d), "depth {d}");
    }
    assert_eq!(pos.fen(), fen);
}
