//! Chess960 castling (`fischerandom`, `caparandom`): rights that name their
//! rooks, castling written as the king's move onto its rook, and the
//! positions where the king stands on its castling square already or passes
//! its own rook. Every expected answer below is pyffish 0.0.90's
//! (`legal_moves` and `get_fen` for variant `fischerandom`), asked on
//! 2026-11-30; the random games are in tests/data/fsf/fischerandom.jsonl and
//! caparandom.jsonl.

use chimera::{builtin, position::Position};
use std::collections::BTreeSet;
use std::sync::Arc;

fn pos(variant: &str, fen: &str) -> Position {
    Position::from_fen(Arc::new(builtin::variant(variant).unwrap()), fen).unwrap()
}

/// The legal moves (as text) of the piece on `from`.
fn moves_from(p: &mut Position, from: &str) -> BTreeSet<String> {
    p.legal_moves().into_iter().map(|m| p.move_text(m)).filter(|t| t.starts_with(from)).collect()
}

fn set(texts: &[&str]) -> BTreeSet<String> {
    texts.iter().map(|s| s.to_string()).collect()
}

/// The FEN after playing `text`.
fn after(p: &mut Position, text: &str) -> String {
    let m = p.parse_move(text).unwrap();
    let undo = p.make(m);
    let fen = p.fen();
    p.unmake(m, &undo);
    fen
}

#[test]
fn rights_are_read_as_kqkq_or_files_and_written_as_files() {
    let mut p = pos("fischerandom", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(after(&mut p, "e2e4"), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1");
    let x_fen = pos("fischerandom", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    let shredder = pos("fischerandom", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(x_fen.fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(x_fen.hash(), shredder.hash());
    // K is the outermost rook; a file letter may name the inner one
    let mut outer = pos("fischerandom", "4k3/8/8/8/8/8/8/1R2KR1R w K - 0 1");
    assert_eq!(after(&mut outer, "b1b2"), "4k3/8/8/8/8/8/1R6/4KR1R b H - 1 1");
    assert_eq!(moves_from(&mut outer, "e1"), set(&["e1d1", "e1d2", "e1e2", "e1f2"]));
    let mut inner = pos("fischerandom", "4k3/8/8/8/8/8/8/1R2KR1R w F - 0 1");
    assert_eq!(after(&mut inner, "b1b2"), "4k3/8/8/8/8/8/1R6/4KR1R b F - 1 1");
    assert_eq!(moves_from(&mut inner, "e1"), set(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]));
}

#[test]
fn castling_is_the_kings_move_onto_its_rook() {
    let mut p = pos("fischerandom", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(moves_from(&mut p, "e1"), set(&["e1a1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1h1"]));
    assert_eq!(after(&mut p, "e1a1"), "4k3/8/8/8/8/8/8/2KR3R b - - 1 1");
    // the orthodox text of castling is not a move here
    assert!(p.parse_move("e1g1").is_err());
}

#[test]
fn the_king_may_already_stand_on_its_castling_square() {
    let mut p = pos("fischerandom", "1k6/8/8/8/8/8/8/6KR w H - 0 1");
    assert_eq!(moves_from(&mut p, "g1"), set(&["g1f1", "g1f2", "g1g2", "g1h1", "g1h2"]));
    assert_eq!(after(&mut p, "g1h1"), "1k6/8/8/8/8/8/8/5RK1 b - - 1 1");
    // only the rook moves: the same for the queen side
    let mut q = pos("fischerandom", "4k3/8/8/8/8/8/8/1RK5 w B - 0 1");
    assert_eq!(moves_from(&mut q, "c1"), set(&["c1b1", "c1b2", "c1c2", "c1d1", "c1d2"]));
    assert_eq!(after(&mut q, "c1b1"), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}

#[test]
fn the_king_may_pass_its_rook_but_not_an_attacked_square() {
    // the king goes b1-g1 over its rook's square c1
    let mut free = pos("fischerandom", "4k3/8/8/8/8/8/8/1KR5 w C - 0 1");
    assert!(moves_from(&mut free, "b1").contains("b1c1"));
    assert_eq!(after(&mut free, "b1c1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // with a black rook on the c-file the rook's square is attacked: no castling
    let mut attacked = pos("fischerandom", "2r1k3/8/8/8/8/8/8/1KR5 w C - 0 1");
    assert_eq!(moves_from(&mut attacked, "b1"), set(&["b1a1", "b1a2", "b1b2"]));
}

#[test]
fn the_rook_leaving_may_not_uncover_the_king() {
    // the rook on b1 shields the king on c1 from the queen on a1: castling
    // would move it to d1 and leave the king in check
    let mut p = pos("fischerandom", "4k3/8/8/8/8/8/8/qRK5 w B - 0 1");
    assert_eq!(moves_from(&mut p, "c1"), set(&["c1c2", "c1d1", "c1d2"]));
}

#[test]
fn capablanca_random_castles_to_the_c_and_i_files() {
    let mut p = pos("caparandom", "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1");
    let castles: BTreeSet<String> = p
        .legal_moves()
        .into_iter()
        .filter(|&m| m.kind() == chimera::moves::MoveKind::Castle)
        .map(|m| p.move_text(m))
        .collect();
    assert_eq!(castles, set(&["f1a1", "f1j1"]));
    assert_eq!(after(&mut p, "f1j1"), "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RK1 b ja - 1 1");
}

#[test]
fn bad_rights_are_errors_that_name_the_letter() {
    let v = Arc::new(builtin::variant("fischerandom").unwrap());
    for (fen, needle) in [
        ("4k3/8/8/8/8/8/8/R3K2R w G - 0 1", "'G'"),
        ("4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", "twice"),
        ("4k3/8/8/8/8/8/8/R3K2R w X - 0 1", "'X'"),
        ("4k3/8/8/8/8/8/8/4K3 w A - 0 1", "'A'"),
    ] {
        let e = Position::from_fen(v.clone(), fen).unwrap_err().to_string();
        assert!(e.contains(needle), "{fen}: {e}");
    }
    // orthodox chess keeps refusing file letters
    let chess = Arc::new(builtin::variant("chess").unwrap());
    assert!(Position::from_fen(chess, "4k3/8/8/8/8/8/8/R3K2R w HA - 0 1").is_err());
}

#[test]
fn a_variants_ini_section_may_ask_for_chess960() {
    let ini = "[my960:chess]\nchess960 = true\n";
    let def = chimera::ini::variant_from_ini(ini, "test.ini", "my960").unwrap();
    let v = Arc::new(chimera::variant::Variant::new(def).unwrap());
    let mut p = Position::from_fen(v, "1k6/8/8/8/8/8/8/6KR w H - 0 1").unwrap();
    assert_eq!(after(&mut p, "g1h1"), "1k6/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn chess960_and_gating_are_refused_together() {
    let src = builtin::source("seirawan").unwrap().replace("[rules.castling]", "[rules.castling]\nchess960 = true");
    let def = chimera::variant::VariantDef::from_toml(&src, "seirawan960.toml").unwrap();
    let e = chimera::variant::Variant::new(def).unwrap_err().to_string();
    assert!(e.contains("chess960") && e.contains("gating"), "{e}");
}
