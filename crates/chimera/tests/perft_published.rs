//! Published perft counts.
//!
//! Sources: the chessprogramming.org perft positions, and the counts in
//! Fairy-Stockfish's tests/perft.sh (commit c19b5f6), copied in below as facts
//! (Fairy-Stockfish counts a Janggi pass as a move). The deep set is marked
//! `#[ignore]` because it needs an optimised build; `scripts/test.sh` runs it
//! with `cargo test --release -- --include-ignored`.

use chimera::{builtin, perft, position::Position};
use std::sync::Arc;

fn check(variant: &str, fen: Option<&str>, expected: &[u64]) {
    let v = Arc::new(builtin::variant(variant).unwrap());
    let mut pos = match fen {
        Some(f) => Position::from_fen(v, f).unwrap(),
        None => Position::start(v),
    };
    for (i, &n) in expected.iter().enumerate() {
        let depth = i + 1;
        assert_eq!(perft::perft(&mut pos, depth), n, "{variant} {fen:?} depth {depth}");
    }
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
const XQ1: &str = "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1";
const XQ2: &str = "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1";
const JG1: &str = "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1";
const JG2: &str = "1Pbcka3/3nNn1c1/N2CaC3/1pB6/9/9/5P3/9/4K4/9 w - - 0 23";

// ---- quick set: runs in every `cargo test` ----

#[test]
fn chess_start_shallow() {
    check("chess", None, &[20, 400, 8_902, 197_281]);
}

#[test]
fn chess_positions_shallow() {
    check("chess", Some(KIWIPETE), &[48, 2_039, 97_862]);
    check("chess", Some(POS3), &[14, 191, 2_812, 43_238]);
    check("chess", Some(POS4), &[6, 264, 9_467]);
    check("chess", Some(POS5), &[44, 1_486, 62_379]);
    check("chess", Some(POS6), &[46, 2_079, 89_890]);
}

#[test]
fn xiangqi_shallow() {
    check("xiangqi", None, &[44, 1_920, 79_666]);
}

#[test]
fn janggi_shallow() {
    check("janggi", None, &[32, 1_024, 33_000]);
}

// ---- deep set: optimised builds only ----

#[test]
#[ignore = "deep perft: run optimised, see scripts/test.sh"]
fn deep_chess_start_6() {
    check("chess", None, &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324]);
}

#[test]
#[ignore = "deep perft: run optimised, see scripts/test.sh"]
fn deep_kiwipete_5() {
    check("chess", Some(KIWIPETE), &[48, 2_039, 97_862, 4_085_603, 193_690_690]);
}

#[test]
#[ignore = "deep perft: run optimised, see scripts/test.sh"]
fn deep_position3_6() {
    check("chess", Some(POS3), &[14, 191, 2_812, 43_238, 674_624, 11_030_083]);
}

#[test]
#[ignore = "deep perft: run optimised, see scripts/test.sh"]
fn deep_position4_5() {
    check("chess", Some(POS4), &[6, 264, 9_467, 422_333, 15_833_292]);
}

#[test]
#[ignore = "deep perft: run optimised, see scripts/test.sh"]
fn deep_position5_5() {
    check("chess", Some(POS5), &[44, 1_486, 62_379, 2_103_487, 89_941_194]);
}

#[test]
#[ignore = "deep perft: run optimised, see scripts/test.sh"]
fn deep_position6_5() {
    check("chess", Some(POS6), &[46, 2_079, 89_890, 3_894_594, 164_075_551]);
}

#[test]
#[ignore = "deep perft: run optimised, see scripts/test.sh"]
fn deep_xiangqi_5() {
    check("xiangqi", None, &[44, 1_920, 79_666, 3_290_240, 133_312_995]);
}

#[test]
#[ignore = "deep perft: run optimised, see scripts/test.sh"]
fn deep_xiangqi_positions_4() {
    let v = Arc::new(builtin::variant("xiangqi").unwrap());
    for (fen, n) in [(XQ1, 4_485_547), (XQ2, 92_741)] {
        let mut pos = Position::from_fen(v.clone(), fen).unwrap();
        assert_eq!(perft::perft(&mut pos, 4), n, "{fen}");
    }
}

#[test]
#[ignore = "deep perft: run optimised, see scripts/test.sh"]
fn deep_janggi_5() {
    check("janggi", None, &[32, 1_024, 33_000, 1_065_277, 35_243_995]);
}

#[test]
#[ignore = "deep perft: run optimised, see scripts/test.sh"]
fn deep_janggi_positions_4() {
    let v = Arc::new(builtin::variant("janggi").unwrap());
    for (fen, n) in [(JG1, 76_763), (JG2, 151_202)] {
        let mut pos = Position::from_fen(v.clone(), fen).unwrap();
        assert_eq!(perft::perft(&mut pos, 4), n, "{fen}");
    }
}

// ---- Chess960 (fischerandom): tests/data/chess960_perft.tsv ----

/// The Chess960 positions and their counts at depths 1-5.
fn chess960_cases() -> Vec<(String, Vec<u64>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/chess960_perft.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let cases: Vec<(String, Vec<u64>)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let counts = cols[..5].iter().map(|c| c.parse().unwrap()).collect();
            (cols[5].to_string(), counts)
        })
        .collect();
    assert_eq!(cases.len(), 11);
    cases
}

#[test]
fn chess960_shallow() {
    for (fen, counts) in chess960_cases() {
        check("fischerandom", Some(&fen), &counts[..3]);
    }
}

#[test]
#[ignore]
fn chess960_deep() {
    for (i, (fen, counts)) in chess960_cases().into_iter().enumerate() {
        let depth = if i < 3 { 5 } else { 4 };
        check("fischerandom", Some(&fen), &counts[..depth]);
    }
}
