//! Legal move sets and perft(2) against reference data generated with pyffish
//! (see tests/data/README.md for how each file was made).

use chimera::{builtin, perft, position::Position};
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(serde::Deserialize)]
struct Case {
    variant: String,
    fen: String,
    moves: Vec<String>,
    perft2: Option<u64>,
}

fn perft2_through_fen(pos: &mut Position) -> u64 {
    let mut total = 0;
    for m in pos.legal_moves() {
        let undo = pos.make(m);
        let mut child = Position::from_fen(pos.variant().clone(), &pos.fen()).unwrap();
        total += perft::perft(&mut child, 1);
        pos.unmake(m, &undo);
    }
    total
}

fn check_file(file: &str, min_cases: usize) {
    let path = format!("{}/../../tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut failures = Vec::new();
    let mut n = 0;
    let mut variants = std::collections::HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Case = serde_json::from_str(line).unwrap();
        let v = variants
            .entry(case.variant.clone())
            .or_insert_with(|| Arc::new(builtin::variant(&case.variant).unwrap()))
            .clone();
        let mut pos = Position::from_fen(v, &case.fen).unwrap_or_else(|e| panic!("{e}"));
        let ours: BTreeSet<String> = pos.legal_moves().into_iter().map(|m| pos.move_text(m)).collect();
        let theirs: BTreeSet<String> = case.moves.iter().cloned().collect();
        if ours != theirs {
            failures.push(format!(
                "{} {}\n  missing: {:?}\n  extra:   {:?}",
                case.variant,
                case.fen,
                theirs.difference(&ours).collect::<Vec<_>>(),
                ours.difference(&theirs).collect::<Vec<_>>()
            ));
        } else if let Some(p2) = case.perft2 {
            // pyffish_cases.py counts perft(2) through FENs, without move history,
            // so each child is rebuilt from its FEN here too
            let got = perft2_through_fen(&mut pos);
            if got != p2 {
                failures.push(format!("{} {}\n  perft(2) {} expected {}", case.variant, case.fen, got, p2));
            }
        }
        n += 1;
    }
    assert!(n >= min_cases, "{file}: only {n} cases");
    assert!(
        failures.is_empty(),
        "{} of {n} positions differ:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

#[test]
fn chess_matches_pyffish() {
    check_file("pyffish_chess.jsonl", 300);
}

#[test]
fn xiangqi_matches_pyffish() {
    check_file("pyffish_xiangqi.jsonl", 300);
}

#[test]
fn janggi_matches_pyffish() {
    check_file("pyffish_janggi.jsonl", 300);
}

#[test]
fn capablanca_matches_pyffish() {
    check_file("pyffish_capablanca.jsonl", 300);
}

#[test]
fn shoshogi_matches_pyffish() {
    // Sho Shogi: King and Crown Prince (the promoted Drunk Elephant), only the
    // last royal guarded; positions with two royals and with one
    check_file("pyffish_shoshogi.jsonl", 300);
}

#[test]
fn shoshogi_two_royals_match_pyffish() {
    // games from the start with both Drunk Elephants already Crown Princes
    // (scripts/pyffish_cases.py --start): most positions have two royals a side,
    // so a royal may be left attacked while the other one stands
    check_file("pyffish_shoshogi_princes.jsonl", 200);
}
