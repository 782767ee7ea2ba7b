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
