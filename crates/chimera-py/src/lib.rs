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
//!
//! The functions are compiled twice (`api.rs`, over `chimera` and over
//! `chimera-wide`): a variant the narrow core holds is played there, any
//! other (Tenjiku Shogi, boards up to 36x36, hundreds of piece types) by the
//! wide core, as the `chimera` binary chooses.
#![warn(missing_docs)]
// api.rs is compiled once per build of the core, on purpose
#![allow(clippy::duplicate_mod)]

mod narrow;
mod wide;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// pyffish's value of a won game (for the side to move; lost: the negation).
pub const VALUE_MATE: i32 = 32000;
/// pyffish's value of a drawn game.
pub const VALUE_DRAW: i32 = 0;
/// The engine's transposition table for `best_move`, in megabytes.
pub const HASH_MB: usize = 16;
/// The longest time limit `best_move` accepts, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 600_000;

/// The names of pyffish's notation constants, in the order of their codes
/// (`NOTATION_DEFAULT` = 0, ...).
const NOTATION_NAMES: [&str; 10] = [
    "NOTATION_DEFAULT",
    "NOTATION_SAN",
    "NOTATION_LAN",
    "NOTATION_SHOGI_HOSKING",
    "NOTATION_SHOGI_HODGES",
    "NOTATION_SHOGI_HODGES_NUMBER",
    "NOTATION_JANGGI",
    "NOTATION_XIANGQI_WXF",
    "NOTATION_THAI_SAN",
    "NOTATION_THAI_LAN",
];

/// The variants loaded with `load_variant_config`: their names in the
/// order they were first loaded, and those the wide core holds.
#[derive(Default)]
struct Loaded {
    order: Vec<String>,
    wide: HashSet<String>,
}

static LOADED: Mutex<Option<Loaded>> = Mutex::new(None);

fn with_loaded<T>(f: impl FnOnce(&mut Loaded) -> T) -> T {
    let mut guard = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Loaded::default))
}

/// Whether `name` is played by the narrow core: a variant it holds that was
/// not loaded into the wide one since.
fn narrow_holds(name: &str) -> bool {
    !with_loaded(|l| l.wide.contains(name)) && narrow::api::holds(name)
}

/// Calls `api::$f(args)` of the core that plays `$variant`.
macro_rules! dispatch {
    ($variant:expr, $f:ident($($arg:expr),*)) => {
        if narrow_holds($variant) { narrow::api::$f($($arg),*) } else { wide::api::$f($($arg),*) }
    };
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

/// The names of the variants: Chimera's built-in ones, then those loaded
/// with `load_variant_config`.
#[pyfunction]
fn variants() -> Vec<String> {
    let mut names = wide::api::builtin_names();
    with_loaded(|l| {
        for n in &l.order {
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
    guard(|| dispatch!(variant, start_fen(variant)))
}

/// The legal moves after `moves` from `fen`, in UCI notation.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false))]
fn legal_moves(variant: &str, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<Vec<String>> {
    guard(|| dispatch!(variant, legal_moves(variant, fen, &moves, chess960)))
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
        dispatch!(variant, get_fen(variant, fen, &moves, chess960))
    })
}

/// `move` (UCI notation, legal at `fen`) in `notation` (a `NOTATION_*`
/// code; the default is the variant's own).
#[pyfunction]
#[pyo3(signature = (variant, fen, r#move, chess960=false, notation=0))]
fn get_san(variant: &str, fen: &str, r#move: &str, chess960: bool, notation: i32) -> PyResult<String> {
    guard(|| dispatch!(variant, get_san(variant, fen, r#move, chess960, notation)))
}

/// `moves` (UCI notation, played from `fen`) in `notation`, one string per move.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false, notation=0))]
fn get_san_moves(variant: &str, fen: &str, moves: Vec<String>, chess960: bool, notation: i32) -> PyResult<Vec<String>> {
    guard(|| dispatch!(variant, get_san_moves(variant, fen, &moves, chess960, notation)))
}

/// Whether the side to move is in check after `moves`.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false))]
fn gives_check(variant: &str, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<bool> {
    guard(|| dispatch!(variant, gives_check(variant, fen, &moves, chess960)))
}

/// Whether `move`, after `moves`, captures (en passant and a Lion's
/// captures on the way included; castling onto one's rook is not one).
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, r#move, chess960=false))]
fn is_capture(variant: &str, fen: &str, moves: Vec<String>, r#move: &str, chess960: bool) -> PyResult<bool> {
    guard(|| dispatch!(variant, is_capture(variant, fen, &moves, r#move, chess960)))
}

/// The game's result for the side to move after `moves`: `VALUE_MATE`
/// (won), `-VALUE_MATE` (lost) or `VALUE_DRAW`, as pyffish gives it where
/// the side to move has no legal move or a variant's rule ended the game.
/// Elsewhere, as pyffish, the value a mate (in check) or a stalemate would
/// have.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false))]
fn game_result(variant: &str, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<i32> {
    guard(|| dispatch!(variant, game_result(variant, fen, &moves, chess960)))
}

/// Whether a variant's rule has ended the game after `moves` (flag,
/// extinction, checks given, two passes, bikjang), with the value for the
/// side to move: `(True, value)` or `(False, 0)`.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false))]
fn is_immediate_game_end(variant: &str, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<(bool, i32)> {
    guard(|| dispatch!(variant, is_immediate_game_end(variant, fen, &moves, chess960)))
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
    guard(|| dispatch!(variant, is_optional_game_end(variant, fen, &moves, chess960)))
}

/// Whether White and Black lack the material to win: `(white, black)`.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, chess960=false))]
fn has_insufficient_material(variant: &str, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<(bool, bool)> {
    guard(|| dispatch!(variant, has_insufficient_material(variant, fen, &moves, chess960)))
}

/// pyffish's validation code of `fen`: 1 (`FEN_OK`) for a valid FEN, 0 for
/// an empty one, a negative code for the first fault found (-3 the number
/// of kings, -10 a bad piece letter, ...).
#[pyfunction]
#[pyo3(signature = (fen, variant, chess960=false))]
fn validate_fen(fen: &str, variant: &str, chess960: bool) -> PyResult<i32> {
    guard(|| dispatch!(variant, validate_fen(fen, variant, chess960)))
}

/// Loads the variants of a Fairy-Stockfish variants.ini text; a section's
/// parent may be a built-in variant or an earlier section. A variant of the
/// same name loaded before is replaced. On an error nothing is loaded. A
/// text with a variant too large for the narrow core (a board of more than
/// 255 squares, more than 120 piece types) is loaded into the wide one.
#[pyfunction]
fn load_variant_config(config: &str) -> PyResult<()> {
    guard(|| {
        let (names, wide) = match narrow::api::load_variant_config(config) {
            Ok(names) => (names, false),
            Err((_, true)) => (wide::api::load_variant_config(config).map_err(|(e, _)| e)?, true),
            Err((e, false)) => return Err(e),
        };
        with_loaded(|l| {
            for name in names {
                // the other core forgets an earlier variant of that name
                if wide {
                    narrow::api::forget(&name);
                    l.wide.insert(name.clone());
                } else {
                    wide::api::forget(&name);
                    l.wide.remove(&name);
                }
                if !l.order.contains(&name) {
                    l.order.push(name);
                }
            }
        });
        Ok(())
    })
}

/// Whether captured pieces go to the capturer's hand in `variant`.
#[pyfunction]
fn captures_to_hand(variant: &str) -> PyResult<bool> {
    guard(|| dispatch!(variant, captures_to_hand(variant)))
}

/// Whether `variant` is played on two boards (bughouse): never in Chimera.
#[pyfunction]
fn two_boards(variant: &str) -> PyResult<bool> {
    guard(|| dispatch!(variant, exists(variant)).map(|_| false))
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
    guard(|| dispatch!(variant, legal_targets(variant, fen, &moves, square, chess960)))
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
    guard(|| dispatch!(variant, second_leg_targets(variant, fen, &moves, from, victim, chess960)))
}

/// The number of move paths of `depth` plies after `moves` (perft). The
/// interpreter's lock is released while it counts.
#[pyfunction]
#[pyo3(signature = (variant, fen, moves, depth, chess960=false))]
fn perft(py: Python<'_>, variant: &str, fen: &str, moves: Vec<String>, depth: usize, chess960: bool) -> PyResult<u64> {
    py.allow_threads(move || guard(|| dispatch!(variant, perft(variant, fen, &moves, depth, chess960))))
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
    if movetime_ms == 0 || movetime_ms > MAX_MOVETIME_MS {
        return Err(value_error(format!("the time limit must be 1 to {MAX_MOVETIME_MS} ms, not {movetime_ms}")));
    }
    let (best, pv, score, depth, nodes) = py.allow_threads(move || {
        guard(|| dispatch!(variant, best_move(variant, fen, &moves, movetime_ms, depth, chess960)))
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
    for (i, name) in NOTATION_NAMES.iter().enumerate() {
        m.add(*name, i as i32)?;
    }
    m.add("VALUE_MATE", VALUE_MATE)?;
    m.add("VALUE_DRAW", VALUE_DRAW)?;
    m.add("FEN_OK", 1)?;
    Ok(())
}
