//! The module's functions over one build of the core, without Python types:
//! compiled twice, over `chimera` (`narrow.rs`) and over `chimera-wide`
//! (`wide.rs`), which give it the names `lib` and `engine`. Each function
//! takes the position as pyffish does (a variant name, a FEN and the moves
//! played from it) and returns Chimera's message as its error.

use super::engine::eval::EvalTables;
use super::engine::game::Game;
use super::engine::search::{self, Limits, Shared};
use super::engine::tt::Tt;
use super::lib::moves::{Move, MoveKind};
use super::lib::perft::perft as count_nodes;
use super::lib::position::Position;
use super::lib::san::Notation;
use super::lib::square::Color;
use super::lib::variant::{StalemateResult, Variant, VariantDef};
use super::lib::{builtin, highlight, outcome, validate};
use crate::{HASH_MB, VALUE_DRAW, VALUE_MATE};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// pyffish's notation codes (`NOTATION_DEFAULT` = 0, ...), in the order of
/// [`crate::NOTATION_NAMES`].
const NOTATIONS: [Notation; 10] = [
    Notation::Default,
    Notation::San,
    Notation::Lan,
    Notation::ShogiHosking,
    Notation::ShogiHodges,
    Notation::ShogiHodgesNumber,
    Notation::Janggi,
    Notation::XiangqiWxf,
    Notation::ThaiSan,
    Notation::ThaiLan,
];

/// A compiled variant and its evaluation tables.
type Compiled = (Arc<Variant>, Arc<EvalTables>);

/// The variants loaded into this build with `load_variant_config`, and the
/// compiled ones.
#[derive(Default)]
struct Registry {
    /// Loaded definitions, by name.
    user: HashMap<String, VariantDef>,
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

// (each of these two is called on one of the builds only)
#[allow(dead_code)]
/// Whether this build holds `name`: a variant loaded into it, or a built-in
/// variant it can compile.
pub fn holds(name: &str) -> bool {
    with_registry(|r| r.user.contains_key(name)) || builtin::definition(name).is_ok()
}

#[allow(dead_code)]
/// The built-in variants this build plays.
pub fn builtin_names() -> Vec<String> {
    builtin::playable_names().into_iter().map(str::to_string).collect()
}

/// Forgets the variant `name` loaded into this build (another build holds it now).
pub fn forget(name: &str) {
    with_registry(|r| {
        r.user.remove(name);
        r.cache.retain(|(n, _), _| n != name);
    });
}

/// Loads the variants of a variants.ini text into this build; returns their
/// names, or the loader's error and whether the text needs a larger build.
pub fn load_variant_config(config: &str) -> Result<Vec<String>, (String, bool)> {
    use super::lib::loader::{compile, definitions, Format};
    let defs = definitions(config, "variants.ini", Format::Ini).map_err(|e| (e.to_string(), e.is_too_large()))?;
    // compile each one now, so that its error is the loader's
    compile(&defs).map_err(|e| (e.to_string(), false))?;
    Ok(with_registry(|r| {
        defs.into_iter()
            .map(|d| {
                let name = d.name.clone();
                r.cache.retain(|(n, _), _| n != &name);
                r.user.insert(name.clone(), d);
                name
            })
            .collect()
    }))
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
        .copied()
        .ok_or_else(|| format!("unknown notation {code}: use 0 to {}", NOTATIONS.len() - 1))?;
    Ok(if n == Notation::Default { Notation::default_for(v) } else { n })
}

/// The game's ends split as pyffish's functions report them (the core's
/// `outcome::pyffish_ends`).
fn ends(g: &mut Game) -> outcome::PyffishEnds {
    outcome::pyffish_ends(&mut g.pos, &g.hist)
}

/// An end as `(true, value for the side to move)`, or `(false, 0)`.
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

/// See `chimera.start_fen`.
pub fn start_fen(variant: &str) -> Result<String, String> {
    Ok(Position::start(self::variant(variant, false)?.0).fen())
}

/// See `chimera.legal_moves`.
pub fn legal_moves(variant: &str, fen: &str, moves: &[String], chess960: bool) -> Result<Vec<String>, String> {
    let mut g = game(variant, fen, moves, chess960)?;
    let legal = g.legal_moves();
    Ok(legal.into_iter().map(|m| g.pos.move_text(m)).collect())
}

/// See `chimera.get_fen`.
pub fn get_fen(variant: &str, fen: &str, moves: &[String], chess960: bool) -> Result<String, String> {
    Ok(game(variant, fen, moves, chess960)?.pos.fen())
}

/// See `chimera.get_san`.
pub fn get_san(variant: &str, fen: &str, text: &str, chess960: bool, notation: i32) -> Result<String, String> {
    let mut g = game(variant, fen, &[], chess960)?;
    let n = self::notation(notation, &g.variant)?;
    let m = parse(&mut g.pos, text)?;
    Ok(g.pos.san(m, n))
}

/// See `chimera.get_san_moves`.
pub fn get_san_moves(
    variant: &str,
    fen: &str,
    moves: &[String],
    chess960: bool,
    notation: i32,
) -> Result<Vec<String>, String> {
    let mut g = game(variant, fen, &[], chess960)?;
    let n = self::notation(notation, &g.variant)?;
    let mut out = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let m = parse(&mut g.pos, text).map_err(|e| format!("move {} of the list: {e}", i + 1))?;
        out.push(g.pos.san(m, n));
        g.play(m);
    }
    Ok(out)
}

/// See `chimera.gives_check`.
pub fn gives_check(variant: &str, fen: &str, moves: &[String], chess960: bool) -> Result<bool, String> {
    Ok(game(variant, fen, moves, chess960)?.pos.in_check())
}

/// See `chimera.is_capture`.
pub fn is_capture(variant: &str, fen: &str, moves: &[String], text: &str, chess960: bool) -> Result<bool, String> {
    let mut g = game(variant, fen, moves, chess960)?;
    let m = parse(&mut g.pos, text)?;
    Ok(match m.kind() {
        MoveKind::EnPassant | MoveKind::Locust => true,
        MoveKind::Drop | MoveKind::Castle | MoveKind::Pass => false,
        _ => m.from() != m.to() && !g.pos.piece_at(m.to()).is_empty(),
    })
}

/// See `chimera.game_result`.
pub fn game_result(variant: &str, fen: &str, moves: &[String], chess960: bool) -> Result<i32, String> {
    let mut g = game(variant, fen, moves, chess960)?;
    let e = ends(&mut g);
    match e.no_moves.or(e.immediate) {
        Some(end) => Ok(end.result.value_for(g.pos.side_to_move(), VALUE_MATE)),
        None => {
            let r = &g.variant.def.rules;
            Ok(result_value(if g.pos.in_check() { r.checkmate } else { r.stalemate }))
        }
    }
}

/// See `chimera.is_immediate_game_end`.
pub fn is_immediate_game_end(
    variant: &str,
    fen: &str,
    moves: &[String],
    chess960: bool,
) -> Result<(bool, i32), String> {
    let mut g = game(variant, fen, moves, chess960)?;
    let e = ends(&mut g);
    Ok(reported(e.immediate, g.pos.side_to_move()))
}

/// See `chimera.is_optional_game_end`.
pub fn is_optional_game_end(variant: &str, fen: &str, moves: &[String], chess960: bool) -> Result<(bool, i32), String> {
    let mut g = game(variant, fen, moves, chess960)?;
    let e = ends(&mut g);
    Ok(reported(e.optional, g.pos.side_to_move()))
}

/// See `chimera.has_insufficient_material`.
pub fn has_insufficient_material(
    variant: &str,
    fen: &str,
    moves: &[String],
    chess960: bool,
) -> Result<(bool, bool), String> {
    let g = game(variant, fen, moves, chess960)?;
    let [w, b] = g.pos.insufficient_material();
    Ok((w, b))
}

/// See `chimera.validate_fen`.
pub fn validate_fen(fen: &str, variant: &str, chess960: bool) -> Result<i32, String> {
    if fen.trim().is_empty() {
        return Ok(0);
    }
    Ok(validate::fsf_validation_code(&self::variant(variant, chess960)?.0, fen))
}

/// See `chimera.captures_to_hand`.
pub fn captures_to_hand(variant: &str) -> Result<bool, String> {
    Ok(self::variant(variant, false)?.0.def.rules.drops.as_ref().is_some_and(|d| d.captures_to_hand))
}

/// See `chimera.two_boards`: whether `variant` exists (it is never played
/// on two boards).
pub fn exists(variant: &str) -> Result<(), String> {
    self::variant(variant, false).map(|_| ())
}

fn square(pos: &Position, name: &str) -> Result<super::lib::square::Square, String> {
    let g = pos.geometry();
    g.parse_square(name.trim())
        .ok_or_else(|| format!("'{}' is not a square of this {}x{} board", name.trim(), g.width, g.height))
}

/// Highlighting targets as `(square, kinds)` pairs.
pub type Targets = Vec<(String, Vec<&'static str>)>;

fn targets(pos: &Position, t: Vec<highlight::Target>) -> Targets {
    let g = pos.geometry();
    t.into_iter().map(|t| (g.square_name(t.square), highlight::kind_names(t.kinds))).collect()
}

/// See `chimera.legal_targets`.
pub fn legal_targets(variant: &str, fen: &str, moves: &[String], at: &str, chess960: bool) -> Result<Targets, String> {
    let mut g = game(variant, fen, moves, chess960)?;
    let sq = self::square(&g.pos, at)?;
    let t = g.pos.legal_targets(sq);
    Ok(targets(&g.pos, t))
}

/// See `chimera.second_leg_targets`.
pub fn second_leg_targets(
    variant: &str,
    fen: &str,
    moves: &[String],
    from: &str,
    victim: &str,
    chess960: bool,
) -> Result<Targets, String> {
    let mut g = game(variant, fen, moves, chess960)?;
    let (f, v) = (square(&g.pos, from)?, square(&g.pos, victim)?);
    let t = g.pos.second_leg_targets(f, v);
    Ok(targets(&g.pos, t))
}

/// See `chimera.perft`.
pub fn perft(variant: &str, fen: &str, moves: &[String], depth: usize, chess960: bool) -> Result<u64, String> {
    let mut pos = game(variant, fen, moves, chess960)?.pos;
    Ok(count_nodes(&mut pos, depth))
}

/// The engine's answer: best move, principal variation (UCI), score,
/// depth and nodes.
pub type Searched = (String, Vec<String>, i32, i32, u64);

/// See `chimera.best_move` (the limits are checked by the caller).
pub fn best_move(
    variant: &str,
    fen: &str,
    moves: &[String],
    movetime_ms: u64,
    depth: Option<i32>,
    chess960: bool,
) -> Result<Searched, String> {
    if let Some(d) = depth {
        if d < 1 || d > search::MAX_PLY as i32 {
            return Err(format!("the depth must be 1 to {}, not {d}", search::MAX_PLY));
        }
    }
    let mut g = game(variant, fen, moves, chess960)?;
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
}
