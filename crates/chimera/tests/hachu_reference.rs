//! Mighty Lion Chess, Werewolf Chess, Chu, Wa and Dai Shogi legal move sets against HaChu (see tests/data/README.md
//! for how the data were made; scripts/hachu_cases.py and hachu_oracle.py).

use chimera::{builtin, position::Position};
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(serde::Deserialize)]
struct Case {
    fen: String,
    moves: Vec<String>,
}

/// A chess-like variant against HaChu: every position of a file, by the
/// fast and the reference method. `departures`: positions (FEN) where HaChu
/// leaves out moves, with the moves Chimera lists beyond HaChu's there (each
/// checked by hand); everywhere else the sets are identical. Returns the
/// number of positions.
fn chess_file_matches_hachu(variant: &str, file: &str, departures: &[(&str, &[&str])]) -> usize {
    let path = format!("{}/../../tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let v = Arc::new(builtin::variant(variant).unwrap());
    let mut failures = Vec::new();
    let mut n = 0;
    let mut departed = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Case = serde_json::from_str(line).unwrap();
        let mut pos = Position::from_fen(v.clone(), &case.fen).unwrap();
        let fast = pos.legal_moves();
        let ours: BTreeSet<String> = fast.iter().map(|&m| pos.move_text(m)).collect();
        assert_eq!(ours.len(), fast.len(), "duplicates in {}", case.fen);
        let reference: BTreeSet<String> = pos.legal_moves_reference().iter().map(|&m| pos.move_text(m)).collect();
        assert_eq!(ours, reference, "incremental vs reference in {}", case.fen);
        let mut theirs: BTreeSet<String> = case.moves.iter().cloned().collect();
        if let Some((_, extra)) = departures.iter().find(|(fen, _)| *fen == case.fen) {
            departed += 1;
            for m in *extra {
                assert!(theirs.insert(m.to_string()), "{m} is in HaChu's list of {}", case.fen);
            }
        }
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
    assert_eq!(departed, departures.len(), "some listed departures are not in {file}");
    assert!(failures.is_empty(), "{} of {n} differ:\n{}", failures.len(), failures[..failures.len().min(8)].join("\n"));
    n
}

#[test]
fn mightylion_matches_hachu() {
    let n = chess_file_matches_hachu("mightylion", "hachu_mightylion.jsonl", &[]);
    assert!(n >= 200, "only {n} positions");
}

/// Werewolf Chess: 623 positions, identical except where HaChu's root search
/// leaves out legal moves while the opponent has a Werewolf (see
/// scripts/hachu_oracle.py). Each departure was checked by hand: no enemy
/// piece attacks the squares the King goes to, and the moving pieces are not
/// pinned.
#[test]
fn werewolf_matches_hachu() {
    let departures: &[(&str, &[&str])] = &[
        // the Werewolf on h4 reaches h1-h3, g3-e1 and f4 (over the King), not f1 or g2
        ("5br1/4p1p1/8/8/6kw/8/8/6KR w - - 0 1", &["g1f1", "g1g2"]),
        // nothing of White's lines up with the Black King on f7 through h1
        ("7B/5k1P/8/6R1/8/5K2/1W6/1r5n b - - 0 1", &["h1f2", "h1g3"]),
        // the Werewolf on c1 reaches c4 at most, the Knight e7, f8, h8
        ("2k5/8/6N1/8/2r5/4K3/8/2W5 b - - 0 1", &["c8b7", "c8b8", "c8c7", "c8d7", "c8d8"]),
        // the Knight on f2 shields nothing: the Bishop on f3 stands between it and the King
        ("WR6/7P/8/5k2/8/5b2/5n2/4K3 b - - 0 1", &["f2d1", "f2d3", "f2e4", "f2g4", "f2h1", "f2h3"]),
    ];
    let n = chess_file_matches_hachu("werewolf", "hachu_werewolf.jsonl", departures);
    assert!(n >= 600, "only {n} positions");
}

/// True for a pass, a piece moving onto its own square (`e5e5`, `a10a10`),
/// written without a second leg.
fn is_pass(m: &str) -> bool {
    let digits = m.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
    let split = m[digits..].find(|c: char| c.is_ascii_alphabetic()).map_or(m.len(), |i| i + digits);
    !m.contains(',') && m[..split] == m[split..]
}

/// HaChu's moves with its pass (one null move per position, written on the
/// square of whichever passer HaChu found last) replaced by Chimera's text of
/// the same pass: Chimera must read HaChu's text as its own one pass, so a
/// pass on a piece that cannot pass, or a second pass, stays a difference.
fn hachu_set(pos: &mut Position, moves: &[String]) -> BTreeSet<String> {
    moves
        .iter()
        .map(|m| match pos.parse_move(m) {
            Ok(ours) if is_pass(m) => pos.move_text(ours),
            _ => m.clone(),
        })
        .collect()
}

/// A shogi variant against HaChu: every position of a file, by the fast and
/// the reference method; returns the number of positions.
fn shogi_file_matches_hachu(variant: &str, file: &str) -> usize {
    let path = format!("{}/../../tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let v = Arc::new(builtin::variant(variant).unwrap());
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
        assert!(texts.iter().filter(|m| is_pass(m)).count() <= 1, "two passes in {}", case.fen);
        let theirs = hachu_set(&mut pos, &case.moves);
        assert_eq!(theirs.len(), case.moves.len(), "HaChu's list has two passes in {}", case.fen);
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
    let n = shogi_file_matches_hachu("chushogi", "hachu_chu.jsonl");
    assert!(n >= 200, "only {n} positions");
}

#[test]
fn chushogi_with_crown_princes_matches_hachu() {
    let n = shogi_file_matches_hachu("chushogi", "hachu_chu_royals.jsonl");
    assert!(n >= 200, "only {n} positions");
}

#[test]
fn washogi_matches_hachu() {
    let n = shogi_file_matches_hachu("washogi", "hachu_washogi.jsonl");
    assert!(n >= 200, "only {n} positions");
}

#[test]
fn daishogi_matches_hachu() {
    // Dai Shogi on 15x15, in HaChu's ids: the Lion is `L!`, the Go-Between
    // `P'` and four more of Dai's pieces have dressed ids in these FENs
    let n = shogi_file_matches_hachu("daishogi", "hachu_dai.jsonl");
    assert!(n >= 200, "only {n} positions");
}

#[test]
fn passes_are_recognised() {
    let passes: Vec<bool> = ["e5e5", "a10a10", "e5e6,e6e5", "a1a10", "a10a1"].iter().map(|m| is_pass(m)).collect();
    assert_eq!(passes, [true, true, false, false, false]);
}

/// Two Lions and a Horned Falcon that can pass (`e5e5`, `h5h5`, `c3c3`): one
/// pass, written on the lowest square (c3 < e5 < h5 in rank-major order),
/// and HaChu's way of writing it on any of them is read as that pass; a pass
/// written on a piece that cannot pass (the King on a1) is refused.
#[test]
fn one_pass_per_position() {
    let v = Arc::new(builtin::variant("chushogi").unwrap());
    let fen = "11k/12/12/12/12/12/12/4N2N4/12/2+H9/12/K11 w 0 1";
    let mut pos = Position::from_fen(v, fen).unwrap();
    let moves: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
    let passes: Vec<&String> = moves.iter().filter(|m| is_pass(m)).collect();
    assert_eq!(passes, ["c3c3"]);
    for text in ["e5e5", "h5h5", "c3c3"] {
        let m = pos.parse_move(text).unwrap();
        assert_eq!(pos.move_text(m), "c3c3", "{text}");
    }
    assert!(pos.parse_move("a1a1").is_err());
}
