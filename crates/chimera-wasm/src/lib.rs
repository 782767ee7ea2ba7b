//! Chimera in the browser: a WebAssembly package built with wasm-bindgen.
//!
//! One class, [`ChimeraGame`], holds a variant and a game in it: FEN in and
//! out, the legal moves in Fairy-Stockfish's UCI notation, legal-move
//! highlighting (including the Lion's two-leg moves), moves, undo, the
//! game's result and the engine. [`listVariants`] names the built-in
//! variants. Every method that can fail throws a JavaScript `Error` whose
//! message names the problem; bad input never panics. The logic lives in
//! [`session`] (plain Rust, tested natively); this file only converts values
//! to JavaScript.
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

pub mod session;

use js_sys::{Array, Object, Reflect};
use session::{Format, Session};
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

fn strings<S: AsRef<str>>(v: &[S]) -> JsValue {
    v.iter().map(|s| JsValue::from_str(s.as_ref())).collect::<Array>().into()
}

fn array<T>(v: &[T], f: impl Fn(&T) -> JsValue) -> JsValue {
    v.iter().map(f).collect::<Array>().into()
}

fn target_js(t: &session::TargetInfo) -> JsValue {
    object(&[("square", t.square.as_str().into()), ("kinds", strings(&t.kinds))])
}

fn move_js(d: &session::MoveDetail) -> JsValue {
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
    array(&session::builtin_variants(), |v| {
        object(&[("name", v.name.as_str().into()), ("description", v.description.as_str().into())])
    })
}

/// The definition text (Chimera's TOML format) of a built-in variant, to
/// start a variant of one's own from. Throws for an unknown name.
#[wasm_bindgen(js_name = builtinSource)]
pub fn builtin_source(name: &str) -> Result<String, JsError> {
    session::builtin_source(name).map_err(err)
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
        let f = Format::parse(format.as_deref().unwrap_or("auto")).map_err(err)?;
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
        let r = self.s.search(movetime_ms, depth).map_err(err)?;
        Ok(object(&[
            ("best", r.best.as_str().into()),
            ("pv", strings(&r.pv)),
            ("score", r.score.into()),
            ("depth", r.depth.into()),
            ("nodes", (r.nodes as f64).into()),
            ("elapsedMs", r.elapsed_ms.into()),
        ]))
    }
}
