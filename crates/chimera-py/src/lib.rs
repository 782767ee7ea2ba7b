//! Chimera for Python: the extension module `chimera`, built with PyO3 and
//! maturin (`pip install ./crates/chimera-py`).
//!
//! The module has pyffish's functions, with its names, arguments and return
//! values, so that a program written for pyffish can import `chimera`
//! instead: `variants`, `start_fen`, `legal_moves`, `get_fen`, `get_san`,
//! `get_san_moves`, `gives_check`, `is_capture`, `game_result`,
//! `is_immediate_game_end`, `is_optional_game_end`,
//! `has_insufficient_material`, `validate_fen`, `load_variant_config`,
//! `captures_to_hand`, `two_boards`, `version` and `info`, and the constants
//! `NOTATION_*`, `VALUE_MATE`, `VALUE_DRAW` and `FEN_OK`. Chimera adds
//! legal-move highlighting (`legal_targets`, `second_leg_targets`),
//! `perft` and the engine's move (`best_move`).
//!
//! Every function takes the position as pyffish does: a variant name, a FEN
//! and the moves played from it (UCI text), so that the game's history
//! counts for repetitions. Bad input raises `ValueError` with Chimera's
//! message; a panic in the core (a bug) is caught and raised as
//! `ValueError` too, never carried across the FFI boundary.
#![warn(missing_docs)]

use chimera::moves::{Move, MoveKind};
use chimera::perft::perft as count_nodes;
use chimera::position::Position;
use chimera::san::Notation;
use chimera::square::Color;
use chimera::variant::{StalemateResult, Variant, VariantDef};
use chimera::{builtin, highlight, outcome, validate};
use chimera_engine::eval::EvalTables;
use chimera_engine::game::Game;
use chimera_engine::search::{self, Limits, Shared};
use chimera_engine::tt::Tt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// pyffish's value of a won game (for the side to move; lost: the negation).
pub const VALUE_MATE: i32 = 32000;
/// pyffish's value of a drawn game.
pub const VALUE_DRAW: i32 = 0;
/// The engine's transposition table for `best_move`, in megabytes.
pub const HASH_MB: usize = 16;
/// The longest time limit `best_move` accepts, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 600_000;

/// pyffish's notation codes (`NOTATION_DEFAULT` = 0, ...), in order, with
/// the names of their Python constants.
const NOTATIONS: [(Notation, &str); 10] = [
    (Notation::Default, "NOTATION_DEFAULT"),
    (Notation::San, "NOTATION_SAN"),
    (Notation::Lan, "NOTATION_LAN"),
    (Notation::ShogiHosking, "NOTATION_SHOGI_HOSKING"),
    (Notation::ShogiHodges, "NOTATION_SHOGI_HODGES"),
    (Notation::ShogiHodgesNumber, "NOTATION_SHOGI_HODGES_NUMBER"),
    (Notation::Janggi, "NOTATION_JANGGI"),
    (Notation::XiangqiWxf, "NOTATION_XIANGQI_WXF"),
    (Notation::ThaiSan, "NOTATION_THAI_SAN"),
    (Notation::ThaiLan, "NOTATION_THAI_LAN"),
];

/// A compiled variant and its evaluation tables.
type Compiled = (Arc<Variant>, Arc<EvalTables>);

/// The variants loaded with `load_variant_config` and the compiled ones.
#[derive(Default)]
struct Registry {
    /// Loaded definitions, by name.
    user: HashMap<String, VariantDef>,
    /// Loaded names in the order they were first loaded.
    order: Vec<String>,
    /// Compiled variants by name and Chess960 flag.
    cache: HashMap<(String, bool), Compiled>,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

fn with_registry<T>(f: impl FnOnce(&mut Registry) -> T) -> T {
    // a panic while the lock was held leaves a registry that is still whole
    let mut guard = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Registry::default))
}

impl Registry {
    fn get(&mut self, name: &str, chess960: bool) -> Result<Compiled, String> {
        let key = (name.to_string(), chess960);
        if let Some(c) = self.cache.get(&key) {
            return Ok(c.clone());
        }
        let mut def = match self.user.get(name) {
            Some(d) => d.clone(),
            None => builtin::variant(name).map_err(|e| e.to_string())?.def.clone(),
        };
        if chess960 {
            if let Some(c) = def.rules.castling.as_mut() {
                c.chess960 = true;
            }
        }
        let v = Arc::new(Variant::new(def).map_err(|e| format!("{name}: {e}"))?);
        let ev = Arc::new(EvalTables::new(&v));
        self.cache.insert(key, (v.clone(), ev.clone()));
        Ok((v, ev))
    }
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Runs `f`, turning an error into `ValueError` and a panic into one too.
fn guard<T>(f: impl FnOnce() -> Result<T, String>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r.map_err(value_error),
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(value_error(format!("internal error in chimera (please report it): {msg}")))
        }
    }
}

fn variant(name: &str, chess960: bool) -> Result<Compiled, String> {
    with_registry(|r| r.get(name, chess960))
}

/// The game after `moves` from `fen` in `name`.
fn game(name: &str, fen: &str, moves: &[String], chess960: bool) -> Result<Game, String> {
    let (v, ev) = variant(name, chess960)?;
    let mut g = Game::from_fen(v, ev, fen.trim())?;
    for (i, m) in moves.iter().enumerate() {
        g.play_text(m.trim()).map_err(|e| format!("move {} of the list: {e}", i + 1))?;
    }
    Ok(g)
}

fn parse(pos: &mut Position, text: &str) -> Result<Move, String> {
    pos.parse_move(text.trim()).map_err(|e| format!("illegal move '{}': {}", e.text, e.message))
}

fn notation(code: i32, v: &Variant) -> Result<Notation, String> {
    let n = usize::try_from(code)
        .ok()
        .and_then(|i| NOTATIONS.get(i))
        .map(|&(n, _)| n)
        .ok_or_else(|| format!("unknown notation {code}: use 0 to {}", NOTATIONS.len() - 1))?;
    Ok(if n == Notation::Default { Notation::default_for(v) } else { n })
}

/// The game's ends split as pyffish's functions report them (the core's
/// [`outcome::pyffish_ends`]).
fn ends(g: &mut Game) -> outcome::PyffishEnds {
    outcome::pyffish_ends(&mut g.pos, &g.hist)
}

/// An end as `(True, value for the side to move)`, or `(False, 0)`.
fn reported(end: Option<outcome::GameEnd>, stm: Color) -> (bool, i32) {
    match end {
        Some(e) => (true, e.result.value_for(stm, VALUE_MATE)),
        None => (false, 0),
    }
}

fn result_value(r: StalemateResult) -> i32 {
    match r {
        StalemateResult::Draw => VALUE_DRAW,
        StalemateResult::Loss => -VALUE_MATE,
        StalemateResult::Win => VALUE_MATE,
    }
}

/// The names of the variants: Chimera's built-in ones, then those loaded
/// with `load_variant_config`.
#[pyfunction]
fn variants() -> Vec<String> {
    let mut names: Vec<String> = builtin::playable_names().into_iter().map(str::to_string).collect();
    with_registry(|r| {
        for n in &r.order {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    });
    names
}

/// The start position's FEN of `variant`.
#[pyfunction]
fn start_fen(variant: &str) -> PyResult<String> {
    guard(|| Ok(Position::start(self::variant(variant, false)?.0).fen()))
}

/// The legal moves after `moves` from `fen`, in UCI notation.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false))]
fn legal_moves(variant: &str, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<Vec<String>> {
    guard(|| {
        let mut g = game(variant, fen, &moves, chess960)?;
        let legal = g.legal_moves();
        Ok(legal.into_iter().map(|m| g.pos.move_text(m)).collect())
    })
}

/// The FEN after `moves` from `fen`. `sfen` (shogi's SFEN) is not
/// supported; `showPromoted` and `countStarted` are accepted for pyffish's
/// signature and have no effect.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false, sfen=false, show_promoted=false, count_started=0))]
fn get_fen(
    variant: &str,
    fen: &str,
    moves: Vec<String>,
    chess960: bool,
    sfen: bool,
    show_promoted: bool,
    count_started: i32,
) -> PyResult<String> {
    let _ = (show_promoted, count_started);
    guard(|| {
        if sfen {
            return Err("SFEN output is not supported".to_string());
        }
        Ok(game(variant, fen, &moves, chess960)?.pos.fen())
    })
}

/// `move` (UCI notation, legal at `fen`) in `notation` (a `NOTATION_*`
/// code; the default is the variant's own).
#[pyfunction]
#[pyo3(signature = (variant, fen, r#move, chess960=false, notation=0))]
fn get_san(variant: &str, fen: &str, r#move: &str, chess960: bool, notation: i32) -> PyResult<String> {
    guard(|| {
        let mut g = game(variant, fen, &[], chess960)?;
        let n = self::notation(notation, &g.variant)?;
        let m = parse(&mut g.pos, r#move)?;
        Ok(g.pos.san(m, n))
    })
}

/// `moves` (UCI notation, played from `fen`) in `notation`, one string per move.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false, notation=0))]
fn get_san_moves(variant: &str, fen: &str, moves: Vec<String>, chess960: bool, notation: i32) -> PyResult<Vec<String>> {
    guard(|| {
        let mut g = game(variant, fen, &[], chess960)?;
        let n = self::notation(notation, &g.variant)?;
        let mut out = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let m = parse(&mut g.pos, text).map_err(|e| format!("move {} of the list: {e}", i + 1))?;
            out.push(g.pos.san(m, n));
            g.play(m);
        }
        Ok(out)
    })
}

/// Whether the side to move is in check after `moves`.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false))]
fn gives_check(variant: &str, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<bool> {
    guard(|| Ok(game(variant, fen, &moves, chess960)?.pos.in_check()))
}

/// Whether `move`, after `moves`, captures (en passant and a Lion's
/// captures on the way included; castling onto one's rook is not one).
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, r#move, chess960=false))]
fn is_capture(variant: &str, fen: &str, moves: Vec<String>, r#move: &str, chess960: bool) -> PyResult<bool> {
    guard(|| {
        let mut g = game(variant, fen, &moves, chess960)?;
        let m = parse(&mut g.pos, r#move)?;
        Ok(match m.kind() {
            MoveKind::EnPassant | MoveKind::Locust => true,
            MoveKind::Drop | MoveKind::Castle | MoveKind::Pass => false,
            _ => m.from() != m.to() && g.pos.piece_at(m.to()) != 0,
        })
    })
}

/// The game's result for the side to move after `moves`: `VALUE_MATE`
/// (won), `-VALUE_MATE` (lost) or `VALUE_DRAW`, as pyffish gives it where
/// the side to move has no legal move or a variant's rule ended the game.
/// Elsewhere, as pyffish, the value a mate (in check) or a stalemate would
/// have.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false))]
fn game_result(variant: &str, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<i32> {
    guard(|| {
        let mut g = game(variant, fen, &moves, chess960)?;
        let e = ends(&mut g);
        match e.no_moves.or(e.immediate) {
            Some(end) => Ok(end.result.value_for(g.pos.side_to_move(), VALUE_MATE)),
            None => {
                let r = &g.variant.def.rules;
                Ok(result_value(if g.pos.in_check() { r.checkmate } else { r.stalemate }))
            }
        }
    })
}

/// Whether a variant's rule has ended the game after `moves` (flag,
/// extinction, checks given, two passes, bikjang), with the value for the
/// side to move: `(True, value)` or `(False, 0)`.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false))]
fn is_immediate_game_end(variant: &str, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<(bool, i32)> {
    guard(|| {
        let mut g = game(variant, fen, &moves, chess960)?;
        let e = ends(&mut g);
        Ok(reported(e.immediate, g.pos.side_to_move()))
    })
}

/// Whether a player may end the game after `moves` (repetition, the n-move
/// rule, a counting rule), with the value for the side to move:
/// `(True, value)` or `(False, 0)`. `count_started` is accepted for
/// pyffish's signature and has no effect.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false, count_started=0))]
fn is_optional_game_end(
    variant: &str,
    fen: &str,
    moves: Vec<String>,
    chess960: bool,
    count_started: i32,
) -> PyResult<(bool, i32)> {
    let _ = count_started;
    guard(|| {
        let mut g = game(variant, fen, &moves, chess960)?;
        let e = ends(&mut g);
        Ok(reported(e.optional, g.pos.side_to_move()))
    })
}

/// Whether White and Black lack the material to win: `(white, black)`.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false))]
fn has_insufficient_material(variant: &str, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<(bool, bool)> {
    guard(|| {
        let g = game(variant, fen, &moves, chess960)?;
        let [w, b] = g.pos.insufficient_material();
        Ok((w, b))
    })
}

/// pyffish's validation code of `fen`: 1 (`FEN_OK`) for a valid FEN, 0 for
/// an empty one, a negative code for the first fault found (-3 the number
/// of kings, -10 a bad piece letter, ...).
#[pyfunction]
#[pyo3(signature = (fen, variant, chess960=false))]
fn validate_fen(fen: &str, variant: &str, chess960: bool) -> PyResult<i32> {
    guard(|| {
        if fen.trim().is_empty() {
            return Ok(0);
        }
        Ok(validate::fsf_validation_code(&self::variant(variant, chess960)?.0, fen))
    })
}

/// Loads the variants of a Fairy-Stockfish variants.ini text; a section's
/// parent may be a built-in variant or an earlier section. A variant of the
/// same name loaded before is replaced. On an error nothing is loaded.
#[pyfunction]
fn load_variant_config(config: &str) -> PyResult<()> {
    guard(|| {
        use chimera::loader::{compile, definitions, Format};
        let defs = definitions(config, "variants.ini", Format::Ini).map_err(|e| e.to_string())?;
        // compile each one now, so that its error is the loader's
        compile(&defs).map_err(|e| e.to_string())?;
        with_registry(|r| {
            for d in defs {
                let name = d.name.clone();
                r.cache.retain(|(n, _), _| n != &name);
                if !r.order.contains(&name) {
                    r.order.push(name.clone());
                }
                r.user.insert(name, d);
            }
        });
        Ok(())
    })
}

/// Whether captured pieces go to the capturer's hand in `variant`.
#[pyfunction]
fn captures_to_hand(variant: &str) -> PyResult<bool> {
    guard(|| Ok(self::variant(variant, false)?.0.def.rules.drops.as_ref().is_some_and(|d| d.captures_to_hand)))
}

/// Whether `variant` is played on two boards (bughouse): never in Chimera.
#[pyfunction]
fn two_boards(variant: &str) -> PyResult<bool> {
    guard(|| self::variant(variant, false).map(|_| false))
}

/// Chimera's version as `(major, minor, patch)`.
#[pyfunction]
fn version() -> (u32, u32, u32) {
    let mut parts = env!("CARGO_PKG_VERSION").split('.').map(|p| p.parse().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

/// A line naming the library and its version.
#[pyfunction]
fn info() -> String {
    format!("Chimera {}", env!("CARGO_PKG_VERSION"))
}

fn square(pos: &Position, name: &str) -> Result<chimera::square::Square, String> {
    let g = pos.geometry();
    g.parse_square(name.trim())
        .ok_or_else(|| format!("'{}' is not a square of this {}x{} board", name.trim(), g.width, g.height))
}

fn targets(pos: &Position, t: Vec<highlight::Target>) -> Vec<(String, Vec<&'static str>)> {
    let g = pos.geometry();
    t.into_iter().map(|t| (g.square_name(t.square), highlight::kind_names(t.kinds))).collect()
}

/// The squares the piece on `square` may reach after `moves`, as
/// `(square, kinds)` pairs; kinds are `"move"`, `"capture"`, `"promotion"`,
/// `"victim"` (a piece a Lion captures on its way: see
/// `second_leg_targets`), `"second-leg"`, `"castle"`, `"pass"`,
/// `"en-passant"`. Empty for an empty square or a piece that cannot move.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, square, chess960=false))]
fn legal_targets(
    variant: &str,
    fen: &str,
    moves: Vec<String>,
    square: &str,
    chess960: bool,
) -> PyResult<Vec<(String, Vec<&'static str>)>> {
    guard(|| {
        let mut g = game(variant, fen, &moves, chess960)?;
        let sq = self::square(&g.pos, square)?;
        let t = g.pos.legal_targets(sq);
        Ok(targets(&g.pos, t))
    })
}

/// The second-leg destinations of the piece on `from` after it captures the
/// piece on `victim` on its way (a Lion's double move), as in `legal_targets`.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, from, victim, chess960=false))]
fn second_leg_targets(
    variant: &str,
    fen: &str,
    moves: Vec<String>,
    from: &str,
    victim: &str,
    chess960: bool,
) -> PyResult<Vec<(String, Vec<&'static str>)>> {
    guard(|| {
        let mut g = game(variant, fen, &moves, chess960)?;
        let (f, v) = (square(&g.pos, from)?, square(&g.pos, victim)?);
        let t = g.pos.second_leg_targets(f, v);
        Ok(targets(&g.pos, t))
    })
}

/// The number of move paths of `depth` plies after `moves` (perft). The
/// interpreter's lock is released while it counts.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, depth, chess960=false))]
fn perft(py: Python<'_>, variant: &str, fen: &str, moves: Vec<String>, depth: usize, chess960: bool) -> PyResult<u64> {
    let g = guard(|| game(variant, fen, &moves, chess960))?;
    let mut pos = g.pos;
    py.allow_threads(move || guard(|| Ok(count_nodes(&mut pos, depth))))
}

/// The engine's move after `moves`: it searches at most `movetime_ms`
/// milliseconds (1 to 600000) and, if given, at most `depth` plies, and
/// returns a dict with `best` (UCI), `pv` (list of UCI moves), `score`
/// (centipawns for the side to move; mates near ±31000), `depth` and
/// `nodes`. Raises `ValueError` when the game is over. The interpreter's
/// lock is released while it searches.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, movetime_ms=1000, depth=None, chess960=false))]
fn best_move(
    py: Python<'_>,
    variant: &str,
    fen: &str,
    moves: Vec<String>,
    movetime_ms: u64,
    depth: Option<i32>,
    chess960: bool,
) -> PyResult<PyObject> {
    let mut g = guard(|| {
        if movetime_ms == 0 || movetime_ms > MAX_MOVETIME_MS {
            return Err(format!("the time limit must be 1 to {MAX_MOVETIME_MS} ms, not {movetime_ms}"));
        }
        if let Some(d) = depth {
            if d < 1 || d > search::MAX_PLY as i32 {
                return Err(format!("the depth must be 1 to {}, not {d}", search::MAX_PLY));
            }
        }
        game(variant, fen, &moves, chess960)
    })?;
    let (best, pv, score, depth, nodes) = py.allow_threads(move || {
        guard(|| {
            if let Some(end) = g.end() {
                return Err(format!("the game is over ({end:?})"));
            }
            let shared = Arc::new(Shared::new(Arc::new(Tt::new(HASH_MB))));
            let hard = Duration::from_millis(movetime_ms);
            let limits = Limits { depth, soft: Some(hard / 2), hard: Some(hard), ..Default::default() };
            let mut last_pv: Vec<Move> = Vec::new();
            let r = search::search(&g.pos, &g.hist, &g.ev, &shared, limits, 1, &mut |rep| {
                last_pv = rep.pv.clone();
            });
            let best = r.best.ok_or("the engine found no move")?;
            // the principal variation as text, read along a copy of the position
            let mut pv = Vec::new();
            let mut p = g.pos.clone();
            for m in last_pv {
                if !p.legal_moves().contains(&m) {
                    break;
                }
                pv.push(p.move_text(m));
                p.make(m);
            }
            Ok((g.pos.move_text(best), pv, r.score, r.depth, r.nodes))
        })
    })?;
    let d = pyo3::types::PyDict::new(py);
    d.set_item("best", best)?;
    d.set_item("pv", pv)?;
    d.set_item("score", score)?;
    d.set_item("depth", depth)?;
    d.set_item("nodes", nodes)?;
    Ok(d.into_any().unbind())
}

/// The module `chimera`.
#[pymodule]
#[pyo3(name = "chimera")]
fn chimera_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(start_fen, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(get_fen, m)?)?;
    m.add_function(wrap_pyfunction!(get_san, m)?)?;
    m.add_function(wrap_pyfunction!(get_san_moves, m)?)?;
    m.add_function(wrap_pyfunction!(gives_check, m)?)?;
    m.add_function(wrap_pyfunction!(is_capture, m)?)?;
    m.add_function(wrap_pyfunction!(game_result, m)?)?;
    m.add_function(wrap_pyfunction!(is_immediate_game_end, m)?)?;
    m.add_function(wrap_pyfunction!(is_optional_game_end, m)?)?;
    m.add_function(wrap_pyfunction!(has_insufficient_material, m)?)?;
    m.add_function(wrap_pyfunction!(validate_fen, m)?)?;
    m.add_function(wrap_pyfunction!(load_variant_config, m)?)?;
    m.add_function(wrap_pyfunction!(captures_to_hand, m)?)?;
    m.add_function(wrap_pyfunction!(two_boards, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(info, m)?)?;
    m.add_function(wrap_pyfunction!(legal_targets, m)?)?;
    m.add_function(wrap_pyfunction!(second_leg_targets, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(best_move, m)?)?;
    for (i, (_, name)) in NOTATIONS.iter().enumerate() {
        m.add(*name, i as i32)?;
    }
    m.add("VALUE_MATE", VALUE_MATE)?;
    m.add("VALUE_DRAW", VALUE_DRAW)?;
    m.add("FEN_OK", 1)?;
    Ok(())
}
