//! The engine's game end (`chimera result`) against pyffish, on games from
//! tests/data/pyffish_game_end/game_end.jsonl (made by
//! scripts/fsf_game_end.py; see tests/data/README.md): mate, stalemate,
//! variant endings, Janggi's two passes and bikjang with its point count,
//! and threefold repetition.

use chimera::builtin;
use chimera::square::Color;
use chimera_engine::eval::EvalTables;
use chimera_engine::game::Game;
use chimera_engine::rules::GameEnd;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A game's state: going on, or won by a side, or drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Going,
    White,
    Black,
    Draw,
}

/// pyffish's value for the side to move as a verdict.
fn from_value(value: i64, stm: Color) -> Verdict {
    match (value.signum(), stm) {
        (0, _) => Verdict::Draw,
        (1, Color::White) | (-1, Color::Black) => Verdict::White,
        _ => Verdict::Black,
    }
}

/// Repetition rules where Chimera and Fairy-Stockfish differ, for now:
/// - with drops (the shogi family, S-House), Fairy-Stockfish counts
///   repetitions across drops, where Chimera starts counting afresh after a
///   drop (the fourth occurrence of sennichite, `n_fold = 4`, and
///   Minishogi's loss for White, `repetition_winner`, agree);
/// - with first-move rights in the FEN (Cambodian, Kar Ouk),
///   Fairy-Stockfish counts positions that differ only in a lost right as
///   repetitions;
/// - Janggi without bikjang (janggimodern): Fairy-Stockfish has further
///   claimable ends there that Chimera does not model.
fn known_difference(v: &chimera::variant::Variant, want: Verdict, end: Option<GameEnd>, claimable: bool) -> bool {
    let r = &v.def.rules;
    (r.drops.is_some() && end.is_none() && want == Verdict::Draw)
        || (r.initial_rights.is_some() && end.is_none() && want == Verdict::Draw)
        || (!r.bikjang && r.pass != chimera::variant::PassRule::Never && end.is_none() && claimable)
}

#[test]
fn game_ends_match_pyffish() {
    let (n, known) = compare("pyffish_game_end", |name| builtin::variant(name).ok());
    assert!(known * 50 < n, "{known} known differences");
    assert!(n >= 1000, "only {n} cases");
}

/// Game ends of variants.ini variants (tests/data/user_variants.ini): a
/// child of the built-in janggi, and chess with passes and Janggi's point
/// count (`materialCounting = janggi`), whose double passes pyffish scores
/// by points.
#[test]
fn ini_game_ends_match_pyffish() {
    let root = format!("{}/../../tests/data", env!("CARGO_MANIFEST_DIR"));
    let ini = std::fs::read_to_string(format!("{root}/user_variants.ini")).unwrap();
    let (n, known) = compare("pyffish_game_end_ini", |name| {
        Some(
            chimera::variant::Variant::new(chimera::ini::variant_from_ini(&ini, "user_variants.ini", name).unwrap())
                .unwrap(),
        )
    });
    assert_eq!(known, 0);
    assert!(n >= 100, "only {n} cases");
}

/// Compares the engine's game ends with the file `game_end.jsonl` of a
/// folder of tests/data; returns the number of positions compared and of
/// known differences. Every other difference fails.
fn compare(folder: &str, find: impl Fn(&str) -> Option<chimera::variant::Variant>) -> (usize, usize) {
    let path = format!("{}/../../tests/data/{folder}/game_end.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut variants = HashMap::new();
    let mut failures = Vec::new();
    let mut seen: BTreeMap<(Verdict, Verdict), usize> = BTreeMap::new();
    let mut n = 0;
    let mut known = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let name = case["variant"].as_str().unwrap();
        let Some((variant, ev)) = variants
            .entry(name.to_string())
            .or_insert_with(|| {
                find(name).map(|v| {
                    let v = Arc::new(v);
                    let ev = Arc::new(EvalTables::new(&v));
                    (v, ev)
                })
            })
            .clone()
        else {
            continue;
        };
        let fen = case["fen"].as_str().unwrap();
        let moves: Vec<&str> = case["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let mut game = Game::from_fen(variant.clone(), ev, fen).unwrap_or_else(|e| panic!("{e}"));
        for m in &moves {
            if let Err(e) = game.play_text(m) {
                panic!("{name} {fen} {moves:?}: {e}");
            }
        }
        let stm = game.pos.side_to_move();
        let value = |key: &str| case[key][0].as_bool().unwrap().then(|| case[key][1].as_i64().unwrap());
        let claimable = case["result"].is_null() && value("immediate").is_none() && value("optional").is_some();
        let want = match (case["result"].as_i64(), value("immediate"), value("optional")) {
            (Some(r), _, _) | (None, Some(r), _) | (None, None, Some(r)) => from_value(r, stm),
            _ => Verdict::Going,
        };
        let dead = case["insufficient"][0].as_bool().unwrap() && case["insufficient"][1].as_bool().unwrap();
        let end = game.end();
        let ours = match end {
            None => Verdict::Going,
            Some(GameEnd::WhiteWins(_)) => Verdict::White,
            Some(GameEnd::BlackWins(_)) => Verdict::Black,
            Some(GameEnd::Draw(_)) => Verdict::Draw,
        };
        n += 1;
        *seen.entry((want, ours)).or_default() += 1;
        // a dead position is a draw at once here; pyffish leaves it to the players
        let dead_draw = dead && want == Verdict::Going && end == Some(GameEnd::Draw("insufficient material"));
        if ours != want && !dead_draw && known_difference(&variant, want, end, claimable) {
            known += 1;
        } else if ours != want && !dead_draw {
            failures.push(format!("{name} {fen} moves {}: pyffish {want:?}, ours {end:?}", moves.join(" ")));
        }
    }
    eprintln!("{n} positions, {known} known differences; (pyffish, ours): {seen:?}");
    assert!(failures.is_empty(), "{} of {n} differ:\n{}", failures.len(), failures.join("\n"));
    (n, known)
}
