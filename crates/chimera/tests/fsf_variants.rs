//! Agreement with pyffish on Fairy-Stockfish's variants: for every variant
//! that Chimera has built in and that has data under tests/data/fsf/ (made by
//! scripts/fsf_playouts.py, and by scripts/fsf_history_cases.py for positions
//! given with the moves that led to them), the start FEN, perft 1-3 from the
//! start, the legal move sets along random games, the FEN after each played
//! move (in the form pyffish's get_fen writes) and the winner of each game
//! that ended must all be identical.

use chimera::{builtin, perft, position::Position};
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(serde::Deserialize)]
struct Header {
    variant: String,
    start_fen: String,
    perft: std::collections::BTreeMap<String, u64>,
}

#[derive(serde::Deserialize)]
struct Case {
    fen: String,
    /// Moves played from `fen` before the legal moves are compared, so that
    /// the position remembers which pieces have moved (rebuilt from `fen`
    /// alone, every piece on a square of the start position counts as unmoved).
    #[serde(default)]
    history: Vec<String>,
    moves: Vec<String>,
    played: Option<String>,
    fen_after: Option<String>,
    /// On a game's last line: pyffish's game value for the side to move.
    #[serde(default)]
    result: Option<i64>,
}

/// The sign of a finished game's value for the side to move, as pyffish
/// gives it (1 win, -1 loss, 0 draw), from Chimera's outcome; `None` for
/// outcomes that the engine scores (Janggi's material count) or no outcome.
fn outcome_sign(pos: &mut Position) -> Option<i64> {
    use chimera::legal::Outcome;
    use chimera::variant::StalemateResult;
    let stm = pos.side_to_move();
    let of = |r: StalemateResult| match r {
        StalemateResult::Win => 1,
        StalemateResult::Loss => -1,
        StalemateResult::Draw => 0,
    };
    Some(match pos.outcome()? {
        Outcome::Checkmate(r) | Outcome::Stalemate(r) => of(r),
        Outcome::DropMate => 1,
        Outcome::Extinction(c, r) => of(r) * if c == stm { 1 } else { -1 },
        Outcome::Flag(c) | Outcome::ChecksGiven(c) => {
            if c == stm {
                1
            } else {
                -1
            }
        }
        Outcome::EndedByRule => return None,
    })
}

/// Perft as fsf_playouts.py counts it: each child rebuilt from its FEN, so
/// without move history (Janggi's double-pass rule, for one, never applies).
fn perft_through_fen(pos: &mut Position, depth: usize) -> u64 {
    if depth <= 1 {
        return perft::perft(pos, depth);
    }
    let mut total = 0;
    for m in pos.legal_moves() {
        let undo = pos.make(m);
        let mut child = Position::from_fen(pos.variant().clone(), &pos.fen()).unwrap();
        total += perft_through_fen(&mut child, depth - 1);
        pos.unmake(m, &undo);
    }
    total
}

/// Checks one data file against the variant `find` gives for its name;
/// returns the number of positions, or the failures (None: no such variant).
fn check(
    path: &std::path::Path,
    find: impl Fn(&str) -> Option<Arc<chimera::variant::Variant>>,
) -> Option<Result<usize, Vec<String>>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Header = serde_json::from_str(lines.next()?).unwrap();
    let v = find(&header.variant)?;
    let name = &header.variant;
    let mut failures = Vec::new();
    let start = Position::start(v.clone());
    // Fairy-Stockfish's start_fen may use a shorter form (shogi: "[-] w 0 1"): compare positions
    let theirs_start = Position::from_fen(v.clone(), &header.start_fen);
    match theirs_start {
        Ok(p) if p.fen() == start.fen() => {}
        Ok(p) => failures.push(format!("{name}: start position {} vs {}", start.fen(), p.fen())),
        Err(e) => failures.push(format!("{name}: start FEN: {e}")),
    }
    for (depth, &n) in &header.perft {
        let d: usize = depth.parse().unwrap();
        let mut pos = Position::start(v.clone());
        let got = perft_through_fen(&mut pos, d);
        if got != n {
            failures.push(format!("{name}: perft({d}) = {got}, pyffish {n}"));
        }
    }
    let mut count = 0;
    for line in lines {
        let case: Case = serde_json::from_str(line).unwrap();
        count += 1;
        let mut pos = match Position::from_fen(v.clone(), &case.fen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let mut replayed = true;
        for played in &case.history {
            match pos.parse_move(played) {
                Ok(m) => {
                    pos.make(m);
                }
                Err(e) => {
                    failures.push(format!("{name}: {} moves {}: {played}: {e}", case.fen, case.history.join(" ")));
                    replayed = false;
                    break;
                }
            }
        }
        if !replayed {
            continue;
        }
        // the position as pyffish names it, with the moves before it
        let here = if case.history.is_empty() {
            case.fen.clone()
        } else {
            format!("{} moves {}", case.fen, case.history.join(" "))
        };
        let ours: BTreeSet<String> = pos.legal_moves().iter().map(|&m| pos.move_text(m)).collect();
        let theirs: BTreeSet<String> = case.moves.iter().cloned().collect();
        if ours != theirs {
            failures.push(format!(
                "{name}: {here}\n  missing: {:?}\n  extra:   {:?}",
                theirs.difference(&ours).collect::<Vec<_>>(),
                ours.difference(&theirs).collect::<Vec<_>>()
            ));
            continue;
        }
        if let Some(r) = case.result {
            // the game is over: Chimera must see it over, with the same winner
            match outcome_sign(&mut pos) {
                Some(sign) if sign == r.signum() => {}
                None if pos.outcome().is_some() => {}
                got => failures.push(format!("{name}: {here} ended with {r} for the side to move, Chimera: {got:?}")),
            }
        }
        if let (Some(played), Some(after)) = (&case.played, &case.fen_after) {
            let m = pos.parse_move(played).unwrap();
            pos.make(m);
            if pos.fen() != *after {
                failures.push(format!("{name}: {here} {played}\n  ours:    {}\n  pyffish: {after}", pos.fen()));
            }
        }
    }
    Some(if failures.is_empty() { Ok(count) } else { Err(failures) })
}

#[test]
fn builtin_variants_match_pyffish() {
    let dir = format!("{}/../../tests/data/fsf", env!("CARGO_MANIFEST_DIR"));
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    let mut checked = Vec::new();
    let mut all_failures = Vec::new();
    for path in entries.iter().filter(|p| p.extension().is_some_and(|e| e == "jsonl")) {
        // a built-in file that fails to build is a failure, not a skip
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        if builtin::names().contains(&stem.as_str()) {
            if let Err(e) = builtin::variant(&stem) {
                all_failures.push(format!("{stem}: does not build: {e}"));
                continue;
            }
        }
        match check(path, |name| builtin::variant(name).ok().map(Arc::new)) {
            None => {}
            Some(Ok(n)) => checked.push((path.file_stem().unwrap().to_string_lossy().to_string(), n)),
            Some(Err(f)) => all_failures.extend(f),
        }
    }
    eprintln!("variants checked against pyffish: {checked:?}");
    assert!(
        all_failures.is_empty(),
        "{} failures:\n{}",
        all_failures.len(),
        all_failures[..all_failures.len().min(12)].join("\n")
    );
    // every built-in variant that Fairy-Stockfish knows must have been checked
    // (the list of variants that must match, plus the pilots)
    for name in [
        "chess",
        "xiangqi",
        "janggi",
        "capablanca",
        "shogi",
        "crazyhouse",
        "makruk",
        "grand",
        "seirawan",
        "sittuyin",
        "shatranj",
        "courier",
        "minishogi",
        "gothic",
        "shako",
        "janus",
    ] {
        assert!(
            checked.iter().any(|(n, c)| n == name && *c >= 200),
            "{name} not checked with 200 positions: {checked:?}"
        );
    }
}

#[test]
fn user_defined_ini_variants_match_pyffish() {
    let root = format!("{}/../../tests/data", env!("CARGO_MANIFEST_DIR"));
    let ini = std::fs::read_to_string(format!("{root}/user_variants.ini")).unwrap();
    let find = |name: &str| {
        let def = chimera::ini::variant_from_ini(&ini, "user_variants.ini", name).unwrap();
        Some(Arc::new(chimera::variant::Variant::new(def).unwrap()))
    };
    let mut checked = 0;
    for name in [
        "nightriders",
        "cannons",
        "leapers",
        "smallhoppers",
        "gatekeepers",
        "halfdrops",
        "burmese",
        "longpawns",
        "silverpawns",
        "nodoubles",
        "makrukinitial",
        "shogipromo",
        "stuckers",
        "slidepawns",
        "lazypawns",
        "sidepromos",
        "nodropchecks",
        "nochecks",
        "fenced",
        "riverless",
        "queenrooks",
        "janggiswap",
        "nearcastle",
        "kingfcastle",
        "fencedhouse",
        "fencedgates",
        "eptypes",
        "triplepawns",
        "fencedrooks",
        "gatecastle",
        "slide3pawns",
    ] {
        let path = std::path::PathBuf::from(format!("{root}/fsf_user/{name}.jsonl"));
        match check(&path, find).unwrap() {
            Ok(n) => checked += n,
            Err(f) => panic!("{} failures:\n{}", f.len(), f[..f.len().min(8)].join("\n")),
        }
    }
    assert!(checked >= 6000, "{checked}");
}

#[test]
fn fairy_stockfish_parents_match_their_builtin_variants() {
    // every built-in variant a variants.ini section may name as its parent
    // must match pyffish's data for that variant, as an empty child section
    let root = format!("{}/../../tests/data/fsf", env!("CARGO_MANIFEST_DIR"));
    let names = chimera::ini::variant_names(chimera::ini::PARENTS, "parents.ini").unwrap();
    assert!(names.len() >= 8, "{names:?}");
    let mut failures = Vec::new();
    for name in &names {
        let ini = format!("[child:{name}]\n");
        let def = chimera::ini::variant_from_ini(&ini, "child.ini", "child").unwrap();
        let v = Arc::new(chimera::variant::Variant::new(def).unwrap());
        let path = std::path::PathBuf::from(format!("{root}/{name}.jsonl"));
        match check(&path, |_| Some(v.clone())).unwrap_or_else(|| panic!("no data for {name}")) {
            Ok(n) => assert!(n >= 200, "{name}: {n}"),
            Err(f) => failures.extend(f),
        }
        // positions given with the moves that led to them, where there are some
        let history = std::path::PathBuf::from(format!("{root}/{name}_history.jsonl"));
        if history.exists() {
            if let Some(Err(f)) = check(&history, |_| Some(v.clone())) {
                failures.extend(f);
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(10)].join("\n"));
}
