//! Move text against pyffish: for every position of tests/data/san/*.jsonl
//! (made by scripts/pyffish_san.py), Chimera must write every legal move
//! exactly as pyffish does in every recorded notation, reading pyffish's text
//! back must give the same move, and `Notation::Default` must be the notation
//! pyffish's NOTATION_DEFAULT is. Variants Chimera has not built in are
//! counted and named, not checked.
//!
//! The one exception, checked rather than skipped: where pyffish writes the
//! same text for two legal moves of a position, no reader can tell which was
//! meant, so reading that text must fail as ambiguous and name every move
//! with that text. It happens in WXF, which names a move by piece, file,
//! direction and either the ranks moved (along a file) or the destination
//! file (otherwise): the Manchu banner moves both as a chariot and as a
//! horse, so i7i9 (two ranks forward) and i7h9 (a horse move to file 2) are
//! both `M1+2`. Each such text is counted and printed.

use chimera::{
    builtin,
    position::Position,
    san::{Notation, SanErrorKind},
};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

#[derive(serde::Deserialize)]
struct Header {
    variant: String,
    default: String,
    notations: Vec<String>,
}

#[derive(serde::Deserialize)]
struct Case {
    fen: String,
    moves: BTreeMap<String, BTreeMap<String, String>>,
}

/// Failures by variant and notation: how many, and the first few.
#[derive(Default)]
struct Failures(BTreeMap<(String, String), (usize, Vec<String>)>);

impl Failures {
    fn push(&mut self, key: (&str, &str), text: String) {
        let e = self.0.entry((key.0.to_string(), key.1.to_string())).or_default();
        e.0 += 1;
        if e.1.len() < 3 {
            e.1.push(text);
        }
    }
}

#[derive(Default)]
struct Tally {
    positions: usize,
    moves: usize,
    written: usize,
    read: usize,
    /// Moves whose pyffish text is also another move's (read as ambiguous).
    shared: usize,
}

#[test]
fn move_text_matches_pyffish() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/san");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.retain(|p| p.extension().is_some_and(|e| e == "jsonl"));
    paths.sort();
    assert!(paths.len() >= 90, "expected the reference files under {}", dir.display());
    let mut tallies: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut failures = Failures::default();
    let mut missing: Vec<String> = Vec::new();
    let mut shared: BTreeSet<String> = BTreeSet::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        let header: Header = serde_json::from_str(lines.next().unwrap()).unwrap();
        let v = match builtin::variant(&header.variant) {
            Ok(v) => Arc::new(v),
            Err(_) => {
                missing.push(header.variant.clone());
                continue;
            }
        };
        let default = Notation::default_for(&v);
        if default.name() != header.default {
            failures
                .push((&header.variant, "default"), format!("default notation {default}, pyffish {}", header.default));
        }
        for line in lines {
            let case: Case = serde_json::from_str(line).unwrap();
            let mut pos = Position::from_fen(v.clone(), &case.fen).unwrap();
            for name in &header.notations {
                let n = Notation::from_name(name).unwrap();
                let t = tallies.entry((header.variant.clone(), name.clone())).or_default();
                t.positions += 1;
                let ours: BTreeMap<String, (chimera::moves::Move, String)> =
                    pos.san_all(n).into_iter().map(|(m, s)| (pos.move_text(m), (m, s))).collect();
                // the moves pyffish writes with each text
                let mut by_text: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
                for (uci, texts) in &case.moves {
                    by_text.entry(texts[name].as_str()).or_default().insert(uci.as_str());
                }
                for (uci, texts) in &case.moves {
                    t.moves += 1;
                    let theirs = &texts[name];
                    let Some((m, mine)) = ours.get(uci) else {
                        failures.push((&header.variant, name), format!("{uci} not legal in {}", case.fen));
                        continue;
                    };
                    if mine == theirs {
                        t.written += 1;
                    } else {
                        failures.push(
                            (&header.variant, name),
                            format!("{uci} written '{mine}', pyffish '{theirs}' in {}", case.fen),
                        );
                    }
                    let got = pos.parse_san(theirs, n);
                    let same_text = &by_text[theirs.as_str()];
                    if same_text.len() > 1 {
                        // pyffish's text names several moves: it must be found ambiguous
                        t.shared += 1;
                        shared.insert(format!("{} {name} '{theirs}': {:?} in {}", header.variant, same_text, case.fen));
                        let named =
                            |c: &Vec<String>| same_text.iter().all(|u| c.iter().any(|s| s.contains(&format!("({u})"))));
                        match &got {
                            Err(e) if matches!(&e.kind, SanErrorKind::Ambiguous(c) if named(c)) => {}
                            _ => failures.push(
                                (&header.variant, name),
                                format!("'{theirs}' names {same_text:?}, read as {got:?}"),
                            ),
                        }
                        continue;
                    }
                    match got {
                        Ok(back) if back == *m => t.read += 1,
                        got => {
                            let got = got.map(|b| pos.move_text(b)).map_err(|e| e.to_string());
                            failures.push(
                                (&header.variant, name),
                                format!("pyffish's '{theirs}' for {uci} read as {got:?}"),
                            );
                        }
                    }
                }
            }
        }
    }
    let mut report = String::new();
    let mut totals: BTreeMap<String, Tally> = BTreeMap::new();
    for ((variant, name), t) in &tallies {
        report.push_str(&format!(
            "{variant:20} {name:20} {:3} positions {:5} moves {:5} written alike {:5} read back {:3} shared\n",
            t.positions, t.moves, t.written, t.read, t.shared
        ));
        let s = totals.entry(name.clone()).or_default();
        s.positions += t.positions;
        s.moves += t.moves;
        s.written += t.written;
        s.read += t.read;
        s.shared += t.shared;
    }
    for (name, t) in &totals {
        report.push_str(&format!(
            "TOTAL {name:20} {:4} positions {:6} moves {:6} written alike {:6} read back {:3} shared\n",
            t.positions, t.moves, t.written, t.read, t.shared
        ));
    }
    report.push_str("texts pyffish writes for several moves (read as ambiguous):\n");
    for s in &shared {
        report.push_str(&format!("    {s}\n"));
    }
    report.push_str(&format!("not built in, not checked: {}\n", missing.join(" ")));
    println!("{report}");
    let mut text = String::new();
    let mut total = 0;
    for ((variant, name), (n, examples)) in &failures.0 {
        total += n;
        text.push_str(&format!("{variant} {name}: {n} failures, such as\n"));
        for e in examples {
            text.push_str(&format!("    {e}\n"));
        }
    }
    assert!(failures.0.is_empty(), "{report}\n{total} failures:\n{text}");
}

/// Mighty Lion (no pyffish reference: HaChu's positions of
/// tests/data/hachu_mightylion.jsonl): in SAN and LAN every legal move,
/// Lion moves that capture on their way included, gets a text of its own,
/// and reading it gives the move back.
#[test]
fn mighty_lion_moves_read_back() {
    let v = Arc::new(builtin::variant("mightylion").unwrap());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/hachu_mightylion.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let (mut moves, mut two_legs) = (0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let fen = case["fen"].as_str().unwrap();
        let mut pos = Position::from_fen(v.clone(), fen).unwrap();
        for n in [Notation::San, Notation::Lan] {
            let all = pos.san_all(n);
            let texts: BTreeSet<&String> = all.iter().map(|(_, s)| s).collect();
            assert_eq!(texts.len(), all.len(), "two moves with one text in {fen}: {all:?}");
            for (m, s) in &all {
                moves += 1;
                if m.kind() == chimera::moves::MoveKind::Locust {
                    two_legs += 1;
                }
                let back = pos.parse_san(s, n);
                assert_eq!(back.as_ref().ok(), Some(m), "{s} in {fen}: {back:?}");
            }
        }
    }
    assert!(moves > 20_000 && two_legs > 100, "{moves} moves, {two_legs} with two legs");
}
