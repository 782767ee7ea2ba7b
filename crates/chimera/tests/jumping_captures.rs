//! Captures by jumping (`jump_capture`, `rank`: Tenjiku Shogi's jumping
//! generals), with expected moves derived by hand from the rule: beyond the
//! first piece on its line a jumping piece passes over any number of pieces
//! of either side ranked below it, and captures each enemy piece ranked
//! below it, until a piece of its own rank or higher.

use chimera::moves::MoveList;
use chimera::perft::{perft, perft_reference};
use chimera::position::Position;
use chimera::variant::Variant;
use std::sync::Arc;

/// A 9x9 board: King (rank 4), Great General (queen, jumps on all lines,
/// rank 3), Vice General (bishop, rank 2), Rook General (rook, rank 1), a
/// pawn and a knight (rank 0).
fn definition(king_rank: u8) -> String {
    format!(
        "name = \"jumpers\"\nfiles = 9\nranks = 9\nstart_fen = \"4k4/9/9/9/9/9/9/9/4K4 w - - 0 1\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\nrank = {king_rank}\n\n\
         [[piece]]\nname = \"great general\"\nletter = \"g\"\nbetza = \"Q\"\nrank = 3\njump_capture = \"Q\"\n\n\
         [[piece]]\nname = \"vice general\"\nletter = \"v\"\nbetza = \"B\"\nrank = 2\njump_capture = \"B\"\n\n\
         [[piece]]\nname = \"rook general\"\nletter = \"r\"\nbetza = \"R\"\nrank = 1\njump_capture = \"R\"\n\n\
         [[piece]]\nname = \"pawn\"\nletter = \"p\"\nbetza = \"fW\"\n\n\
         [[piece]]\nname = \"knight\"\nletter = \"n\"\nbetza = \"ffN\"\n"
    )
}

fn variant() -> Arc<Variant> {
    Arc::new(Variant::from_toml(&definition(4), "jumpers.toml").unwrap())
}

/// The legal moves from `from`, as text, sorted.
fn moves_from(pos: &mut Position, from: &str) -> Vec<String> {
    let mut out: Vec<String> =
        pos.legal_moves().iter().map(|&m| pos.move_text(m)).filter(|t| t.starts_with(from)).collect();
    out.sort();
    out
}

fn captures_from(pos: &mut Position, from: &str) -> Vec<String> {
    let mut list = MoveList::new();
    pos.generate_pseudo(&mut list);
    let mut out: Vec<String> =
        list.captures().iter().map(|&m| pos.move_text(m)).filter(|t| t.starts_with(from)).collect();
    out.sort();
    out
}

#[test]
fn a_general_jumps_lower_ranks_and_stops_at_its_own() {
    // the Great General on e1 looks up the e-file at a pawn (e3, captured
    // as its first piece), its own pawn (e4, jumped), a knight (e6: rank 0,
    // captured by a jump), the Black Great General (e7: rank 3, neither
    // jumped nor captured) and a pawn behind it (e8: out of reach)
    let mut pos = Position::from_fen(variant(), "8k/4p4/4g4/4n4/9/4P4/4p4/9/K3G4 w - - 0 1").unwrap();
    let file: Vec<String> = moves_from(&mut pos, "e1").into_iter().filter(|m| m.starts_with("e1e")).collect();
    assert_eq!(file, ["e1e2", "e1e3", "e1e6"]);
    // no quiet move beyond the first piece
    assert!(!moves_from(&mut pos, "e1").contains(&"e1e5".to_string()));
    // the other lines have no piece: 3 + 4 along the rank, 4 + 4 diagonally
    assert_eq!(moves_from(&mut pos, "e1").len(), 3 + 3 + 4 + 4 + 4);
}

#[test]
fn equal_ranks_and_royals_are_not_jumped() {
    // Rook General e1 (rank 1): the pawn e3 is its first piece; beyond it the
    // Black Vice General (e5, rank 2) stops it. Along rank 1 a Black Rook
    // General (c1, rank 1) is captured as the first piece but not jumped:
    // the knight on a1 stays out of reach. The White king i1 (rank 4) is
    // its first piece to the east.
    let mut pos = Position::from_fen(variant(), "4k4/9/9/9/4v4/9/4p4/9/n1r1R3K w - - 0 1").unwrap();
    assert_eq!(captures_from(&mut pos, "e1"), ["e1c1", "e1e3"]);
    // with a pawn in its place the knight is taken by a jump
    let mut pos = Position::from_fen(variant(), "4k4/9/9/9/4v4/9/4p4/9/n1p1R3K w - - 0 1").unwrap();
    assert_eq!(captures_from(&mut pos, "e1"), ["e1a1", "e1c1", "e1e3"]);
    // the Vice General (rank 2) jumps the pawn d2 and the Rook General c3
    // (both below it) and takes the knight b4; the king behind (a5) is never
    // a jump's victim
    let mut pos = Position::from_fen(variant(), "8K/9/9/9/k8/1n7/2r6/3p5/4V4 w - - 0 1").unwrap();
    assert_eq!(captures_from(&mut pos, "e1"), ["e1b4", "e1c3", "e1d2"]);
}

#[test]
fn a_jump_that_exposes_the_king_is_illegal() {
    // the White Rook General e2 is pinned on the e-file by the Black Great
    // General e9: its jump capture along rank 2 (over the pawn c2 onto the
    // knight a2) is pseudo-legal, not legal
    let mut pos = Position::from_fen(variant(), "4g3k/9/9/9/9/9/9/n1p1R4/4K4 w - - 0 1").unwrap();
    assert!(captures_from(&mut pos, "e2").contains(&"e2a2".to_string()));
    let legal = moves_from(&mut pos, "e2");
    assert!(!legal.contains(&"e2a2".to_string()) && !legal.contains(&"e2c2".to_string()), "{legal:?}");
    assert_eq!(legal, ["e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8", "e2e9"]);
    for d in 1..=3 {
        assert_eq!(perft(&mut pos, d), perft_reference(&mut pos, d), "depth {d}");
    }
}

#[test]
fn crowded_positions_agree_with_the_reference_method() {
    for fen in [
        "rvg1k1gvr/ppppppppp/9/4n4/9/4N4/9/PPPPPPPPP/RVG1K1GVR w - - 0 1",
        "4k4/2g1p1v2/3pnp3/1r2P4/2VpRp3/3G1n3/2pPpPp2/9/4K4 w - - 0 1",
    ] {
        let mut pos = Position::from_fen(variant(), fen).unwrap();
        for d in 1..=3 {
            assert_eq!(perft(&mut pos, d), perft_reference(&mut pos, d), "{fen} depth {d}");
        }
    }
}

#[test]
fn a_jumper_may_not_rank_with_a_royal() {
    let refused = |text: &str| match Variant::from_toml(text, "jumpers.toml") {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    };
    let e = refused(&definition(3));
    assert!(e.contains("great general") && e.contains("rank 3") && e.contains("below every royal"), "{e}");
    let bad = definition(4).replace("jump_capture = \"R\"", "jump_capture = \"N\"");
    let e = refused(&bad);
    assert!(e.contains("jump_capture must be \"R\", \"B\" or \"Q\""), "{e}");
}
