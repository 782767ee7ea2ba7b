//! Gating and first-move rights on boards of more than 16 files, whose open
//! gates and rights no longer fit 16 bits (`width::FileSet`): moves counted
//! by hand, FEN round trips, the hash after a gate closes, and the limit of
//! 26 files (one letter per file in the FEN's castling field). Run against
//! `chimera-wide`, whose library is also called `chimera`.

use chimera::position::Position;
use chimera::variant::Variant;
use std::sync::Arc;

/// A gating variant on `files` x 8 without castling: king, rook, and a hawk
/// (`BN`) that comes from the hand through an open gate.
fn gating(files: usize, start: &str) -> Result<Variant, String> {
    let toml = format!(
        "name = \"widegate\"\nfiles = {files}\nranks = 8\nstart_fen = \"{start}\"\n\n\
         [rules]\ngating = true\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"rook\"\nletter = \"r\"\nbetza = \"R\"\n\n\
         [[piece]]\nname = \"hawk\"\nletter = \"h\"\nbetza = \"BN\"\n"
    );
    Variant::from_toml(&toml, "widegate.toml").map_err(|e| e.to_string())
}

#[test]
fn a_gate_on_the_twentieth_file() {
    // White: king a1, rook t1 with its gate open (`T`), a hawk in hand;
    // Black: king s8. The rook has s1..b1 (18) and t2..t8 (7), each also
    // with the hawk gated onto t1; the king has a2, b1 and b2
    let start = "18k1/20/20/20/20/20/20/K18R[H] w T - 0 1";
    let v = Arc::new(gating(20, start).unwrap());
    let mut pos = Position::from_fen(v.clone(), start).unwrap();
    assert_eq!(pos.fen(), start);
    let moves = pos.legal_moves();
    let texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
    assert_eq!(moves.len(), 2 * (18 + 7) + 3, "{texts:?}");
    assert!(texts.contains(&"t1t5h".to_string()) && texts.contains(&"t1b1h".to_string()), "{texts:?}");
    assert!(!texts.iter().any(|t| t.starts_with("a1") && t.ends_with('h')), "{texts:?}");
    // gating closes the gate and empties the hand; a plain rook move
    // closes the gate as well
    let gate = moves[texts.iter().position(|t| t == "t1t5h").unwrap()];
    let undo = pos.make(gate);
    assert_eq!(pos.fen(), "18k1/20/20/19R/20/20/20/K18H[] b - - 1 1");
    pos.unmake(gate, &undo);
    assert_eq!(pos.fen(), start);
    let plain = moves[texts.iter().position(|t| t == "t1t5").unwrap()];
    let undo = pos.make(plain);
    let after = pos.fen();
    assert!(after.contains(" b - "), "{after}");
    // the hash follows the FEN: read back, the position hashes the same
    let again = Position::from_fen(v.clone(), &after).unwrap();
    assert_eq!(again.hash(), pos.hash());
    pos.unmake(plain, &undo);
    assert_eq!(pos.hash(), Position::from_fen(v, start).unwrap().hash());
}

#[test]
fn gates_on_files_beyond_the_sixteenth_hash_apart() {
    // the same board with the gate open on t or closed: two positions
    let open = "18k1/20/20/20/20/20/20/K18R[H] w T - 0 1";
    let closed = "18k1/20/20/20/20/20/20/K18R[H] w - - 0 1";
    let v = Arc::new(gating(20, open).unwrap());
    let a = Position::from_fen(v.clone(), open).unwrap();
    let b = Position::from_fen(v, closed).unwrap();
    assert_ne!(a.hash(), b.hash());
    assert_eq!(b.fen(), closed);
}

#[test]
fn more_files_than_letters_is_refused() {
    let start = "25k1/27/27/27/27/27/27/K25R[H] w - - 0 1";
    let e = gating(27, start).unwrap_err();
    assert!(e.contains("at most 26 files"), "{e}");
}

/// First-move rights by file (Cambodian's `DEde`) on a 20-file board: a
/// met (`FimfD`) on the t-file keeps its double step only while the FEN
/// names its file.
#[test]
fn a_first_move_right_on_the_twentieth_file() {
    let start = "k19/20/20/20/20/20/20/K18M w T - 0 1";
    let toml = format!(
        "name = \"widerights\"\nfiles = 20\nranks = 8\nstart_fen = \"{start}\"\n\n\
         [rules.initial_rights]\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"met\"\nletter = \"m\"\nbetza = \"FimfD\"\n"
    );
    let v = Arc::new(Variant::from_toml(&toml, "widerights.toml").unwrap());
    // with the right: s2 (its ferz step; u2 is off the board) and t3; the king a2, b1, b2
    let mut pos = Position::from_fen(v.clone(), start).unwrap();
    assert_eq!(pos.fen(), start);
    assert_eq!(pos.legal_moves().len(), 2 + 3);
    // without it: only s2
    let without = "k19/20/20/20/20/20/20/K18M w - - 0 1";
    let mut pos2 = Position::from_fen(v, without).unwrap();
    assert_eq!(pos2.fen(), without);
    assert_eq!(pos2.legal_moves().len(), 1 + 3);
    assert_ne!(pos.hash(), pos2.hash());
}

/// A variants.ini board of more than 16 files and ranks (Fairy-Stockfish's
/// format, read by the same loader): the narrow build marks it as beyond
/// its limit, the wide one reads it. A queen on b1 of an empty 20x20 board
/// has a1, c1..s1 (the king stands on t1), b2..b20, a2 and c2..t19: 56
/// squares; the king s1, s2 and t2.
#[test]
fn a_variants_ini_board_of_20x20() {
    use chimera::loader::{compile, definitions, Format};
    let start = format!("k19/{}/1Q17K w - - 0 1", vec!["20"; 18].join("/"));
    let ini = format!(
        "[big20:chess]\nmaxFile = 20\nmaxRank = 20\nstartFen = {start}\ncastling = false\ndoubleStep = false\n"
    );
    let defs = definitions(&ini, "big.ini", Format::Ini).unwrap();
    let v = Arc::new(compile(&defs).unwrap().remove(0));
    let mut pos = Position::start(v);
    assert_eq!(pos.fen(), start);
    assert_eq!(pos.legal_moves().len(), 56 + 3);
    let e = definitions("[big40:chess]\nmaxFile = 40\n", "big.ini", Format::Ini).unwrap_err();
    assert!(e.to_string().contains("'40' is not a size from 2 to 36"), "{e}");
}
