//! Chimera in the browser: a WebAssembly package built with wasm-bindgen.
//!
//! One class, [`ChimeraGame`], holds a variant and a game in it: FEN in and
//! out, the legal moves in Fairy-Stockfish's UCI notation, legal-move
//! highlighting (including the Lion's two-leg moves), moves, undo, the
//! game's result and the engine. [`listVariants`] names the built-in
//! variants. Every method that can fail throws a JavaScript `Error` whose
//! message names the problem; bad input never panics. The logic lives in
//! `session.rs` and `board.rs` (plain Rust, tested natively), compiled once
//! over each build of the core ([`narrow`], [`wide`]); [`dual`] plays each
//! variant on the core that holds it (Tenjiku Shogi and boards beyond 255
//! squares on the wide one). This file only converts values to JavaScript.
//!
//! ```js
//! import init, { ChimeraGame, listVariants } from "./pkg/chimera_wasm.js";
//! await init();
//! const g = ChimeraGame.fromBuiltin("mightylion");
//! g.targets("b1");            // [{ square: "a3", kinds: ["move"] }, ...]
//! g.play("e2e4");
//! const { best } = g.think(1000);  // the engine's move within a second
//! ```
#![warn(missing_docs)]
// board.rs and session.rs are compiled once per build of the core, on purpose
#![allow(clippy::duplicate_mod)]

pub mod dual;
pub mod narrow;
pub mod types;
pub mod wide;

use dual::{Format, Session};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A built-in variant. */
export interface VariantInfo {
  /** The name to load it by (`ChimeraGame.fromBuiltin(name)`). */
  name: string;
  /** A one-line description. */
  description: string;
}

/** The kinds of a highlighted target. */
export type TargetKind =
  | "move" | "capture" | "promotion" | "victim" | "second-leg"
  | "castle" | "pass" | "en-passant" | "drop";

/** One highlighted square. */
export interface Target {
  /** The square's name, e.g. "e4". */
  square: string;
  /**
   * How the piece may use it. "victim": a piece captured on the way (a
   * locust move's first leg; call `secondLegTargets(from, square)` for the
   * second legs). "second-leg": the destination of such a move.
   */
  kinds: TargetKind[];
}

/** A legal move with what a board needs to show and choose it. */
export interface MoveDetail {
  /** Fairy-Stockfish UCI notation: "e2e4", "e7e8q", "P@e5", "d4e5,e5f6", "h2c2+". */
  uci: string;
  /** The origin square; null for a drop. */
  from: string | null;
  /** The destination square. */
  to: string;
  kind: "normal" | "promotion" | "en-passant" | "castle" | "double" | "locust" | "pass" | "drop";
  /** Whether it captures. */
  capture: boolean;
  /** The square of a piece captured on the way (locust) or en passant. */
  victim: string | null;
  /** The piece promoted to, as a FEN token ("Q", "+P"). */
  promotion: string | null;
  /** The piece dropped, as a FEN token. */
  drop: string | null;
  /** The piece gated in (Seirawan), as a FEN token, and its square. */
  gate: string | null;
  gateSquare: string | null;
  /** The castling rook's square. */
  rook: string | null;
  /** A short description to choose between moves sharing their squares. */
  label: string;
}

/** One square of the board. */
export interface Cell {
  square: string;
  /** 0 = the leftmost file from White's side. */
  file: number;
  /** 0 = White's first rank. */
  rank: number;
  /** The piece as a FEN token ("P", "k", "+p", "Q~"), or null. */
  piece: string | null;
  color: "white" | "black" | null;
  /** The piece type's name, e.g. "knight". */
  name: string | null;
  /** A wall: no piece may enter. */
  wall: boolean;
}

/** Pieces of one type in a hand. */
export interface HandPiece {
  color: "white" | "black";
  /** FEN token in the owner's case. */
  piece: string;
  name: string;
  count: number;
}

/** A piece type of the variant. */
export interface PieceType {
  /** White's FEN token. */
  piece: string;
  name: string;
  /** Its moves in XBetza. */
  betza: string;
  royal: boolean;
}

/** How a game ended. */
export interface GameResult {
  /** null for a draw. */
  winner: "white" | "black" | null;
  score: "1-0" | "0-1" | "1/2-1/2";
  /** "checkmate", "stalemate", "repetition", "perpetual check", ... */
  reason: string;
}

/** How a game has ended, or may be ended by a claim. */
export interface GameEnd {
  result: "1-0" | "0-1" | "1/2-1/2";
  /** "checkmate", "stalemate", "repetition", "n-move rule", ... */
  reason: string;
  /**
   * true: a player may claim it (repetition, the n-move rule, a dead
   * position); false: the rules end the game at once.
   */
  claimable: boolean;
}

/** What the engine found. */
export interface SearchInfo {
  /** The best move, UCI notation. */
  best: string;
  /** The principal variation, UCI notation. */
  pv: string[];
  /** Centipawns from the side to move's view; mates are near ±31000. */
  score: number;
  depth: number;
  nodes: number;
  /** Milliseconds used. */
  elapsedMs: number;
}
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(s: &str);
}

/// Installs a panic hook that reports a panic (a bug: bad input returns
/// errors) on the browser's console. wasm-bindgen runs it when the module
/// is instantiated.
#[wasm_bindgen(start)]
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error(&format!("chimera-wasm panicked (a bug, please report it): {info}"));
    }));
}

fn err(e: String) -> JsError {
    JsError::new(&e)
}

fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in fields {
        // setting a property of a fresh plain object cannot fail
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

fn opt_str(s: &Option<String>) -> JsValue {
    s.as_deref().map_or(JsValue::NULL, JsValue::from_str)
}

/// A search's result as the `SearchInfo` object of the TypeScript types.
fn search_info(r: types::SearchInfo) -> JsValue {
    object(&[
        ("best", r.best.as_str().into()),
        ("pv", strings(&r.pv)),
        ("score", r.score.into()),
        ("depth", r.depth.into()),
        ("nodes", (r.nodes as f64).into()),
        ("elapsedMs", r.elapsed_ms.into()),
    ])
}

fn strings<S: AsRef<str>>(v: &[S]) -> JsValue {
    v.iter().map(|s| JsValue::from_str(s.as_ref())).collect::<Array>().into()
}

fn array<T>(v: &[T], f: impl Fn(&T) -> JsValue) -> JsValue {
    v.iter().map(f).collect::<Array>().into()
}

fn target_js(t: &types::TargetInfo) -> JsValue {
    object(&[("square", t.square.as_str().into()), ("kinds", strings(&t.kinds))])
}

fn move_js(d: &types::MoveDetail) -> JsValue {
    object(&[
        ("uci", d.uci.as_str().into()),
        ("from", opt_str(&d.from)),
        ("to", d.to.as_str().into()),
        ("kind", d.kind.into()),
        ("capture", d.capture.into()),
        ("victim", opt_str(&d.victim)),
        ("promotion", opt_str(&d.promotion)),
        ("drop", opt_str(&d.drop)),
        ("gate", opt_str(&d.gate)),
        ("gateSquare", opt_str(&d.gate_square)),
        ("rook", opt_str(&d.rook)),
        ("label", d.label.as_str().into()),
    ])
}

/// The built-in variants, each with its name and description.
#[wasm_bindgen(js_name = listVariants, unchecked_return_type = "VariantInfo[]")]
pub fn list_variants() -> JsValue {
    array(&dual::builtin_variants(), |v| {
        object(&[("name", v.name.as_str().into()), ("description", v.description.as_str().into())])
    })
}

/// The definition text (Chimera's TOML format) of a built-in variant, to
/// start a variant of one's own from. Throws for an unknown name.
#[wasm_bindgen(js_name = builtinSource)]
pub fn builtin_source(name: &str) -> Result<String, JsError> {
    dual::builtin_source(name).map_err(err)
}

/// A variant and a game in it.
#[wasm_bindgen]
pub struct ChimeraGame {
    s: Session,
}

#[wasm_bindgen]
impl ChimeraGame {
    /// A built-in variant (see `listVariants`) at its start position.
    /// Throws if no built-in variant has that name.
    #[wasm_bindgen(js_name = fromBuiltin)]
    pub fn from_builtin(name: &str) -> Result<ChimeraGame, JsError> {
        Session::builtin(name).map(|s| ChimeraGame { s }).map_err(err)
    }

    /// A user's variant definition at its start position. `format` is
    /// "toml" (Chimera's format, docs/variant-format.md), "ini"
    /// (Fairy-Stockfish's variants.ini) or "auto" (the default: TOML if it
    /// reads as such, variants.ini otherwise). `section` names the
    /// variants.ini section to play; it may be left out when the text
    /// defines one variant. Throws with the definition's first error.
    #[wasm_bindgen(js_name = fromDefinition)]
    pub fn from_definition(
        text: &str,
        format: Option<String>,
        section: Option<String>,
    ) -> Result<ChimeraGame, JsError> {
        let f = Format::parse(format.as_deref().unwrap_or("auto")).map_err(|e| err(e.to_string()))?;
        Session::from_definition(text, f, section.as_deref()).map(|s| ChimeraGame { s }).map_err(err)
    }

    /// The variant's name.
    #[wasm_bindgen(getter, js_name = variantName)]
    pub fn variant_name(&self) -> String {
        self.s.variant_name().to_string()
    }

    /// The variant's one-line description.
    #[wasm_bindgen(getter)]
    pub fn description(&self) -> String {
        self.s.description().to_string()
    }

    /// The number of files.
    #[wasm_bindgen(getter)]
    pub fn width(&self) -> u8 {
        self.s.width()
    }

    /// The number of ranks.
    #[wasm_bindgen(getter)]
    pub fn height(&self) -> u8 {
        self.s.height()
    }

    /// Whether the variant has hands (drops or Seirawan gating).
    #[wasm_bindgen(getter, js_name = hasHands)]
    pub fn has_hands(&self) -> bool {
        self.s.has_hands()
    }

    /// The current position as a FEN.
    pub fn fen(&self) -> String {
        self.s.fen()
    }

    /// The FEN the game started from (the start position or the last `setFen`).
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.s.start_fen().to_string()
    }

    /// Starts a new game from a FEN. Throws on a bad FEN, leaving the game as it was.
    #[wasm_bindgen(js_name = setFen)]
    pub fn set_fen(&mut self, fen: &str) -> Result<(), JsError> {
        self.s.set_fen(fen).map_err(err)
    }

    /// Starts a new game from the variant's start position.
    pub fn reset(&mut self) {
        self.s.reset()
    }

    /// The side to move.
    #[wasm_bindgen(js_name = sideToMove, unchecked_return_type = "\"white\" | \"black\"")]
    pub fn side_to_move(&self) -> String {
        self.s.side_to_move().to_string()
    }

    /// Whether the side to move is in check.
    #[wasm_bindgen(js_name = inCheck)]
    pub fn in_check(&mut self) -> bool {
        self.s.in_check()
    }

    /// The moves played since the start FEN, in UCI notation.
    pub fn history(&self) -> Vec<String> {
        self.s.history().to_vec()
    }

    /// The legal moves in Fairy-Stockfish's UCI notation (as `chimera moves` prints them).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&mut self) -> Vec<String> {
        self.s.legal_moves()
    }

    /// Every legal move with its squares, kind, promotion, drop, gating and a label.
    #[wasm_bindgen(js_name = moveDetails, unchecked_return_type = "MoveDetail[]")]
    pub fn move_details(&mut self) -> JsValue {
        array(&self.s.move_details(), move_js)
    }

    /// The squares the piece on `square` may reach, each with its kinds. A
    /// Lion's first-leg victims are marked "victim"; see `secondLegTargets`.
    /// Throws if `square` is not on the board.
    #[wasm_bindgen(unchecked_return_type = "Target[]")]
    pub fn targets(&mut self, square: &str) -> Result<JsValue, JsError> {
        self.s.targets(square).map(|t| array(&t, target_js)).map_err(err)
    }

    /// The second-leg destinations of the piece on `from` after capturing the
    /// piece on `victim` on its way (a Lion's double move; `from` itself when
    /// it captures and returns). Throws on a square not on the board.
    #[wasm_bindgen(js_name = secondLegTargets, unchecked_return_type = "Target[]")]
    pub fn second_leg_targets(&mut self, from: &str, victim: &str) -> Result<JsValue, JsError> {
        self.s.second_leg_targets(from, victim).map(|t| array(&t, target_js)).map_err(err)
    }

    /// The squares the side to move may drop `piece` (a FEN letter) on.
    /// Throws if the variant has no such piece.
    #[wasm_bindgen(js_name = dropTargets, unchecked_return_type = "Target[]")]
    pub fn drop_targets(&mut self, piece: &str) -> Result<JsValue, JsError> {
        self.s.drop_targets(piece).map(|t| array(&t, target_js)).map_err(err)
    }

    /// Plays a legal move in UCI notation and returns its details. Throws
    /// (naming the move and why) if it is not legal or the game is over.
    #[wasm_bindgen(unchecked_return_type = "MoveDetail")]
    pub fn play(&mut self, uci: &str) -> Result<JsValue, JsError> {
        self.s.play(uci).map(|d| move_js(&d)).map_err(err)
    }

    /// Takes back the last move and returns it, or `undefined` at the start.
    pub fn undo(&mut self) -> Option<String> {
        self.s.undo()
    }

    /// How the game has ended, or `null` while it goes on: checkmate,
    /// stalemate, a variant's rule, repetition, perpetual check, n-move rule.
    #[wasm_bindgen(unchecked_return_type = "GameResult | null")]
    pub fn result(&mut self) -> JsValue {
        match self.s.result() {
            None => JsValue::NULL,
            Some(r) => object(&[
                ("winner", r.winner.map_or(JsValue::NULL, JsValue::from_str)),
                ("score", r.score.into()),
                ("reason", r.reason.as_str().into()),
            ]),
        }
    }

    /// The moves played since the start (or the last `setFen`), in the
    /// variant's notation (SAN for most variants).
    #[wasm_bindgen(js_name = sanHistory)]
    pub fn san_history(&self) -> Vec<String> {
        self.s.san_history()
    }

    /// A legal move given in UCI notation, in the variant's notation
    /// (`"Nf3"`). Throws if the move is not legal.
    #[wasm_bindgen(js_name = sanMove)]
    pub fn san_move(&mut self, uci: &str) -> Result<String, JsError> {
        self.s.san_move(uci).map_err(err)
    }

    /// Plays a move written in SAN (or the variant's notation, LAN or UCI)
    /// and returns its details. Throws if it names no legal move, names
    /// several, or the game is over.
    #[wasm_bindgen(js_name = pushSan, unchecked_return_type = "MoveDetail")]
    pub fn push_san(&mut self, san: &str) -> Result<JsValue, JsError> {
        self.s.push_san(san).map(|d| move_js(&d)).map_err(err)
    }

    /// The game so far as PGN text, with `Variant`, `FEN` (when not the
    /// start position) and `Result` tags.
    pub fn pgn(&mut self) -> String {
        self.s.pgn()
    }

    /// Loads the first game of a PGN text: its variant (the `Variant` tag),
    /// its start position (`FEN`) and its moves. Throws with the first error
    /// (naming the line and the move), leaving the game as it was.
    #[wasm_bindgen(js_name = loadPgn)]
    pub fn load_pgn(&mut self, text: &str) -> Result<(), JsError> {
        self.s.load_pgn(text).map_err(err)
    }

    /// How the game has ended or may be ended by a claim, or `null` while it
    /// goes on.
    #[wasm_bindgen(js_name = gameEnd, unchecked_return_type = "GameEnd | null")]
    pub fn game_end(&mut self) -> JsValue {
        match self.s.game_end() {
            None => JsValue::NULL,
            Some(e) => object(&[
                ("result", e.result.into()),
                ("reason", e.reason.as_str().into()),
                ("claimable", e.claimable.into()),
            ]),
        }
    }

    /// The board, rank by rank from White's first, file by file from the left.
    #[wasm_bindgen(unchecked_return_type = "Cell[]")]
    pub fn board(&self) -> JsValue {
        array(&self.s.board(), |c| {
            object(&[
                ("square", c.square.as_str().into()),
                ("file", c.file.into()),
                ("rank", c.rank.into()),
                ("piece", opt_str(&c.piece)),
                ("color", c.color.map_or(JsValue::NULL, JsValue::from_str)),
                ("name", opt_str(&c.name)),
                ("wall", c.wall.into()),
            ])
        })
    }

    /// The pieces in hand, White's first (empty for variants without hands).
    #[wasm_bindgen(unchecked_return_type = "HandPiece[]")]
    pub fn hands(&self) -> JsValue {
        array(&self.s.hands(), |h| {
            object(&[
                ("color", h.color.into()),
                ("piece", h.piece.as_str().into()),
                ("name", h.name.as_str().into()),
                ("count", h.count.into()),
            ])
        })
    }

    /// The variant's piece types.
    #[wasm_bindgen(js_name = pieceTypes, unchecked_return_type = "PieceType[]")]
    pub fn piece_types(&self) -> JsValue {
        array(&self.s.piece_types(), |p| {
            object(&[
                ("piece", p.piece.as_str().into()),
                ("name", p.name.as_str().into()),
                ("betza", p.betza.as_str().into()),
                ("royal", p.royal.into()),
            ])
        })
    }

    /// A move diagram, as the Interactive Diagram draws one: a new game with
    /// only `piece` (White's FEN token, as in `pieceTypes`) on the board, on
    /// `square` or else on the square nearest the centre it may stand on;
    /// White to move. Call `targets` on its square for the piece's moves.
    /// Throws for an unknown piece or a square it may not stand on.
    #[wasm_bindgen(js_name = pieceDiagram)]
    pub fn piece_diagram(&self, piece: &str, square: Option<String>) -> Result<ChimeraGame, JsError> {
        self.s.piece_diagram(piece, square.as_deref()).map(|s| ChimeraGame { s }).map_err(err)
    }

    /// Asks the engine for a move: searches at most `movetimeMs`
    /// milliseconds (1 to 600000) and, if given, at most `depth` plies. The
    /// game is not changed (play the move with `play`). This blocks the
    /// thread it runs on: run it in a Web Worker to keep a page responsive.
    /// Throws on a bad limit or when the game is over.
    #[wasm_bindgen(unchecked_return_type = "SearchInfo")]
    pub fn think(
        &mut self,
        #[wasm_bindgen(js_name = movetimeMs)] movetime_ms: u32,
        depth: Option<u32>,
    ) -> Result<JsValue, JsError> {
        Ok(search_info(self.s.search(movetime_ms, depth).map_err(err)?))
    }
}

// ---- the ffish.js-style API ----------------------------------------------

/// The notations, numbered as ffish.js and pyffish number them.
#[wasm_bindgen]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// The variant's own notation (SAN for most, numeric Hodges for shogi).
    DEFAULT = 0,
    /// Short algebraic notation: `Nf3`.
    SAN = 1,
    /// Long algebraic notation: `Ng1-f3`.
    LAN = 2,
    /// Hosking's shogi notation: `P76`.
    SHOGI_HOSKING = 3,
    /// Hodges' shogi notation: `P-7f`.
    SHOGI_HODGES = 4,
    /// Hodges' notation with numeric ranks: `P-76`.
    SHOGI_HODGES_NUMBER = 5,
    /// Janggi's numeric squares: `R01-91`.
    JANGGI = 6,
    /// The World Xiangqi Federation's notation: `H8+7`.
    XIANGQI_WXF = 7,
    /// SAN with Thai piece names and squares.
    THAI_SAN = 8,
    /// LAN with Thai piece names and squares.
    THAI_LAN = 9,
}

/// The number of a notation (an index of either core's `board::NOTATIONS`).
fn notation_of(n: Option<Notation>) -> usize {
    n.map_or(0, |n| n as usize)
}

fn end_js(e: Option<types::EndInfo>) -> JsValue {
    match e {
        None => JsValue::NULL,
        Some(e) => object(&[
            ("result", e.result.into()),
            ("reason", e.reason.as_str().into()),
            ("claimable", e.claimable.into()),
        ]),
    }
}

/// The names of every variant (built-in ones, then those loaded by
/// `loadVariantConfig`), separated by spaces, as ffish.js gives them.
#[wasm_bindgen]
pub fn variants() -> String {
    dual::variants()
}

/// The start FEN of a variant. Throws for an unknown variant.
#[wasm_bindgen(js_name = startingFen)]
pub fn starting_fen(variant: &str) -> Result<String, JsError> {
    dual::starting_fen(variant).map_err(err)
}

/// pyffish's and ffish.js's validation code of a FEN: 1 for a valid FEN, 0
/// for an empty one, a negative code naming the first fault (-3: the number
/// of kings, -10: a bad piece letter, ...). Throws for an unknown variant.
#[wasm_bindgen(js_name = validateFen)]
pub fn validate_fen(fen: &str, variant: Option<String>, is960: Option<bool>) -> Result<i32, JsError> {
    dual::validate_fen(fen, variant.as_deref().unwrap_or("chess"), is960.unwrap_or(false)).map_err(err)
}

/// Loads the variants of a Fairy-Stockfish variants.ini text (a section's
/// parent may be a built-in variant or an earlier section). Throws with
/// the first error; then nothing is loaded.
#[wasm_bindgen(js_name = loadVariantConfig)]
pub fn load_variant_config(text: &str) -> Result<(), JsError> {
    dual::load_variant_config(text).map_err(err)
}

/// Whether captured pieces go to the capturer's hand. Throws for an unknown variant.
#[wasm_bindgen(js_name = capturesToHand)]
pub fn captures_to_hand(variant: &str) -> Result<bool, JsError> {
    dual::captures_to_hand(variant).map_err(err)
}

/// A line naming the library and its version.
#[wasm_bindgen]
pub fn info() -> String {
    format!("Chimera {} (WebAssembly)", env!("CARGO_PKG_VERSION"))
}

/// The library's version, `"major.minor.patch"`.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Reads the first game of a PGN text. Throws with the first error (naming
/// the line and the token).
#[wasm_bindgen(js_name = readGamePGN)]
pub fn read_game_pgn(pgn: &str) -> Result<PgnGame, JsError> {
    dual::read_game_pgn(pgn).map(|g| PgnGame { g }).map_err(err)
}

/// A game read from PGN.
#[wasm_bindgen]
pub struct PgnGame {
    g: types::PgnGame,
}

#[wasm_bindgen]
impl PgnGame {
    /// The value of a tag (`"White"`), or `""` if the game has none.
    pub fn headers(&self, key: &str) -> String {
        self.g.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default()
    }

    /// The tags' names in order, separated by spaces.
    #[wasm_bindgen(js_name = headerKeys)]
    pub fn header_keys(&self) -> String {
        self.g.tags.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join(" ")
    }

    /// The main line in UCI notation, separated by spaces.
    #[wasm_bindgen(js_name = mainlineMoves)]
    pub fn mainline_moves(&self) -> String {
        self.g.moves.join(" ")
    }

    /// The main line as the text wrote it, in the variant's notation.
    #[wasm_bindgen(js_name = mainlineSan)]
    pub fn mainline_san(&self) -> Vec<String> {
        self.g.san.clone()
    }

    /// The variant's name.
    pub fn variant(&self) -> String {
        self.g.variant.clone()
    }

    /// The start FEN.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.g.start_fen.clone()
    }

    /// The result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result(&self) -> String {
        self.g.result.clone()
    }
}

/// A game with ffish.js's methods (and Chimera's highlighting, engine and
/// perft). Methods that fail throw an `Error` naming the problem.
#[wasm_bindgen]
pub struct Board {
    b: dual::Board,
}

#[wasm_bindgen]
impl Board {
    /// A game of `variant` (default chess; built-in or loaded by
    /// `loadVariantConfig`) from `fen` or its start position, with Chess960
    /// castling if `is960`. Throws for an unknown variant or a bad FEN.
    #[wasm_bindgen(constructor)]
    pub fn new(variant: Option<String>, fen: Option<String>, is960: Option<bool>) -> Result<Board, JsError> {
        dual::Board::new(variant.as_deref().unwrap_or("chess"), fen.as_deref(), is960.unwrap_or(false))
            .map(|b| Board { b })
            .map_err(err)
    }

    /// The legal moves in UCI notation, separated by spaces.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&mut self) -> String {
        self.b.legal_moves()
    }

    /// The legal moves in the variant's notation (or `notation`), separated by spaces.
    #[wasm_bindgen(js_name = legalMovesSan)]
    pub fn legal_moves_san(&mut self, notation: Option<Notation>) -> String {
        self.b.legal_moves_san(notation_of(notation))
    }

    /// The number of legal moves.
    #[wasm_bindgen(js_name = numberLegalMoves)]
    pub fn number_legal_moves(&mut self) -> u32 {
        self.b.number_legal_moves() as u32
    }

    /// Plays a move in UCI notation. Throws if it is not legal.
    pub fn push(&mut self, uci: &str) -> Result<(), JsError> {
        self.b.push(uci).map_err(err)
    }

    /// Plays a move in SAN or the variant's notation (or `notation`). Throws
    /// if it names no legal move or several.
    #[wasm_bindgen(js_name = pushSan)]
    pub fn push_san(&mut self, san: &str, notation: Option<Notation>) -> Result<(), JsError> {
        self.b.push_san(san, notation_of(notation)).map_err(err)
    }

    /// Plays moves in UCI notation separated by spaces. Throws at the first
    /// illegal one, leaving the game as it was.
    #[wasm_bindgen(js_name = pushMoves)]
    pub fn push_moves(&mut self, moves: &str) -> Result<(), JsError> {
        self.b.push_moves(moves).map_err(err)
    }

    /// Plays moves in SAN (or `notation`) separated by spaces. Throws at the
    /// first illegal one, leaving the game as it was.
    #[wasm_bindgen(js_name = pushSanMoves)]
    pub fn push_san_moves(&mut self, moves: &str, notation: Option<Notation>) -> Result<(), JsError> {
        self.b.push_san_moves(moves, notation_of(notation)).map_err(err)
    }

    /// Takes back the last move and returns it (UCI), or `undefined` at the start.
    pub fn pop(&mut self) -> Option<String> {
        self.b.undo()
    }

    /// Back to the variant's start position.
    pub fn reset(&mut self) {
        self.b.reset()
    }

    /// Whether the game uses Chess960 castling.
    #[wasm_bindgen(js_name = is960)]
    pub fn is_960(&self) -> bool {
        self.b.is_960()
    }

    /// The current position's FEN.
    pub fn fen(&self) -> String {
        self.b.fen()
    }

    /// A new game from a FEN. Throws on a bad FEN, leaving the game as it was.
    #[wasm_bindgen(js_name = setFen)]
    pub fn set_fen(&mut self, fen: &str) -> Result<(), JsError> {
        self.b.set_fen(fen).map_err(err)
    }

    /// A legal move (UCI) in the variant's notation (or `notation`). Throws
    /// if it is not legal.
    #[wasm_bindgen(js_name = sanMove)]
    pub fn san_move(&mut self, uci: &str, notation: Option<Notation>) -> Result<String, JsError> {
        self.b.san_move(uci, notation_of(notation)).map_err(err)
    }

    /// Moves (UCI, separated by spaces) played from here, in the variant's
    /// notation (or `notation`), with move numbers unless `moveNumbers` is
    /// false. Throws at an illegal move.
    #[wasm_bindgen(js_name = variationSan)]
    pub fn variation_san(
        &mut self,
        moves: &str,
        notation: Option<Notation>,
        #[wasm_bindgen(js_name = moveNumbers)] move_numbers: Option<bool>,
    ) -> Result<String, JsError> {
        self.b.variation_san(moves, notation_of(notation), move_numbers.unwrap_or(true)).map_err(err)
    }

    /// true when White is to move.
    pub fn turn(&self) -> bool {
        self.b.turn()
    }

    /// Whether the side to move is in check.
    #[wasm_bindgen(js_name = isCheck)]
    pub fn is_check(&mut self) -> bool {
        self.b.in_check()
    }

    /// Whether the game is over: ended by the rules, or (with `claimDraw`)
    /// by a claimable rule (repetition, the n-move rule, a dead position).
    #[wasm_bindgen(js_name = isGameOver)]
    pub fn is_game_over(&mut self, #[wasm_bindgen(js_name = claimDraw)] claim_draw: Option<bool>) -> bool {
        self.b.end(claim_draw.unwrap_or(false)).is_some()
    }

    /// How the game is over, with the reason (as `isGameOver`), or `null`.
    #[wasm_bindgen(js_name = gameEnd, unchecked_return_type = "GameEnd | null")]
    pub fn game_end(&mut self, #[wasm_bindgen(js_name = claimDraw)] claim_draw: Option<bool>) -> JsValue {
        end_js(self.b.end(claim_draw.unwrap_or(false)))
    }

    /// The result: "1-0", "0-1", "1/2-1/2", or "*" while the game goes on
    /// (claimable ends count with `claimDraw`).
    #[wasm_bindgen(unchecked_return_type = "\"1-0\" | \"0-1\" | \"1/2-1/2\" | \"*\"")]
    pub fn result(&mut self, #[wasm_bindgen(js_name = claimDraw)] claim_draw: Option<bool>) -> String {
        self.b.result(claim_draw.unwrap_or(false)).to_string()
    }

    /// Whether White (`turn` true) or Black lacks the material to mate.
    #[wasm_bindgen(js_name = hasInsufficientMaterial)]
    pub fn has_insufficient_material(&self, turn: bool) -> bool {
        self.b.has_insufficient_material(turn)
    }

    /// Whether neither side can mate.
    #[wasm_bindgen(js_name = isInsufficientMaterial)]
    pub fn is_insufficient_material(&self) -> bool {
        self.b.is_insufficient_material()
    }

    /// The moves played (UCI), separated by spaces.
    #[wasm_bindgen(js_name = moveStack)]
    pub fn move_stack(&self) -> String {
        self.b.move_stack()
    }

    /// The pieces in White's (`turn` true) or Black's hand, a lower-case
    /// letter per piece.
    pub fn pocket(&self, turn: bool) -> String {
        self.b.pocket(turn)
    }

    /// The FEN's move number.
    #[wasm_bindgen(js_name = fullmoveNumber)]
    pub fn fullmove_number(&self) -> u32 {
        self.b.fullmove_number()
    }

    /// Plies since the last capture or pawn move.
    #[wasm_bindgen(js_name = halfmoveClock)]
    pub fn halfmove_clock(&self) -> u32 {
        self.b.halfmove_clock()
    }

    /// Plies since move 1 (from the FEN's move number).
    #[wasm_bindgen(js_name = gamePly)]
    pub fn game_ply(&self) -> u32 {
        self.b.game_ply()
    }

    /// The variant's name.
    pub fn variant(&self) -> String {
        self.b.variant().to_string()
    }

    /// The board as text, a line per rank from the top.
    #[wasm_bindgen(js_name = toString)]
    pub fn to_text(&self) -> String {
        self.b.to_text()
    }

    /// The squares the piece on `square` may reach, with their kinds (see
    /// `ChimeraGame.targets`). Throws if `square` is not on the board.
    #[wasm_bindgen(unchecked_return_type = "Target[]")]
    pub fn targets(&mut self, square: &str) -> Result<JsValue, JsError> {
        self.b.targets(square).map(|t| array(&t, target_js)).map_err(err)
    }

    /// A Lion's second legs after capturing on `victim` (see `ChimeraGame.secondLegTargets`).
    #[wasm_bindgen(js_name = secondLegTargets, unchecked_return_type = "Target[]")]
    pub fn second_leg_targets(&mut self, from: &str, victim: &str) -> Result<JsValue, JsError> {
        self.b.second_leg_targets(from, victim).map(|t| array(&t, target_js)).map_err(err)
    }

    /// Every legal move with its squares and kind.
    #[wasm_bindgen(js_name = moveDetails, unchecked_return_type = "MoveDetail[]")]
    pub fn move_details(&mut self) -> JsValue {
        array(&self.b.move_details(), move_js)
    }

    /// The engine's move within `movetimeMs` milliseconds (and `depth`
    /// plies). Throws on a bad limit or when the game is over.
    #[wasm_bindgen(js_name = bestMove, unchecked_return_type = "SearchInfo")]
    pub fn best_move(
        &mut self,
        #[wasm_bindgen(js_name = movetimeMs)] movetime_ms: u32,
        depth: Option<u32>,
    ) -> Result<JsValue, JsError> {
        Ok(search_info(self.b.search(movetime_ms, depth).map_err(err)?))
    }

    /// The number of leaf positions `depth` plies deep (1 to 8). Throws on
    /// another depth.
    pub fn perft(&mut self, depth: u32) -> Result<f64, JsError> {
        self.b.perft(depth).map(|n| n as f64).map_err(err)
    }
}
