//! Mighty Lion Chess legal move sets against HaChu (see tests/data/README.md
//! for how the data were made; scripts/hachu_cases.py and hachu_oracle.py).

use chimera::{builtin, position::Position};
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(serde::Deserialize)]
struct Case {
    fen: String,
    moves: Vec<String>,
}

#[test]
fn mightylion_matches_hachu() {
    let path = format!("{}/../../tests/data/hachu_mightylion.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let v = Arc::new(builtin::variant("mightylion").unwrap());
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Case = serde_json::from_str(line).unwrap();
        let mut pos = Position::from_fen(v.clone(), &case.fen).unwrap();
        let fast = pos.legal_moves();
        let ours: BTreeSet<String> = fast.iter().map(|&m| pos.move_text(m)).collect();
        assert_eq!(ours.len(), fast.len(), "duplicates in {}", case.fen);
        let reference: BTreeSet<String> = pos.legal_moves_reference().iter().map(|&m| pos.move_text(m)).collect();
        assert_eq!(ours, reference, "incremental vs reference in {}", case.fen);
        let theirs: BTreeSet<String> = case.moves.iter().cloned().collect();
        if ours != theirs {
            failures.push(format!(
                "{}\n  missing: {:?}\n  extra:   {:?}",
                case.fen,
                theirs.difference(&ours).collect::<Vec<_>>(),
                ours.difference(&theirs).collect::<Vec<_>>()
            ));
        }
        n += 1;
    }
    assert!(n >= 200, "only {n} positions");
    assert!(failures.is_empty(), "{} of {n} differ:\n{}", failures.len(), failures[..failures.len().min(8)].join("\n"));
}

/// The moves as a set, every pass (a piece moving onto its own square) written
/// `pass`: HaChu lists one null move per position, Chimera one per passing piece.
fn with_one_pass(moves: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    moves
        .into_iter()
        .map(|m| {
            let digits = m.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
            let split = m[digits..].find(|c: char| c.is_ascii_alphabetic()).map_or(m.len(), |i| i + digits);
            if !m.contains(',') && m[..split] == m[split..] {
                "pass".to_string()
            } else {
                m
            }
        })
        .collect()
}

/// Chu Shogi against HaChu: every position of a file, by the fast and the
/// reference method; returns the number of positions.
fn chushogi_file_matches_hachu(file: &str) -> usize {
    let path = format!("{}/../../tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let v = Arc::new(builtin::variant("chushogi").unwrap());
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Case = serde_json::from_str(line).unwrap();
        let mut pos = Position::from_fen(v.clone(), &case.fen).unwrap();
        let fast = pos.legal_moves();
        let texts: Vec<String> = fast.iter().map(|&m| pos.move_text(m)).collect();
        let ours: BTreeSet<String> = texts.iter().cloned().collect();
        assert_eq!(ours.len(), fast.len(), "duplicates in {}", case.fen);
        let reference: BTreeSet<String> = pos.legal_moves_reference().iter().map(|&m| pos.move_text(m)).collect();
        assert_eq!(ours, reference, "incremental vs reference in {}", case.fen);
        let ours = with_one_pass(texts);
        let theirs = with_one_pass(case.moves.iter().cloned());
        if ours != theirs {
            failures.push(format!(
                "{}\n  missing: {:?}\n  extra:   {:?}",
                case.fen,
                theirs.difference(&ours).collect::<Vec<_>>(),
                ours.difference(&theirs).collect::<Vec<_>>()
            ));
        }
        n += 1;
    }
    assert!(failures.is_empty(), "{} of {n} differ:\n{}", failures.len(), failures[..failures.len().min(8)].join("\n"));
    n
}

#[test]
fn chushogi_matches_hachu() {
    let n = chushogi_file_matches_hachu("hachu_chu.jsonl");
    assert!(n >= 200, "only {n} positions");
}

#[test]
fn chushogi_with_crown_princes_matches_hachu() {
    let n = chushogi_file_matches_hachu("hachu_chu_royals.jsonl");
    assert!(n >= 200, "only {n} positions");
}

#[test]
fn a_pass_is_one_move_for_the_comparison() {
    let set = with_one_pass(["e5e5", "h5h5", "e5e6,e6e5", "a10a10", "a1a10"].map(String::from));
    assert_eq!(set, ["pass", "e5e6,e6e5", "a1a10"].map(String::from).into_iter().collect());
}
