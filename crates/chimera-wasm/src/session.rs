//! The game a page plays, in plain Rust: loading a variant, the position and
//! its history, highlighting, moves and the engine. Everything here returns
//! `Result<_, String>` on bad input and never panics on it; the bindings in
//! the crate root only convert these values to JavaScript ones, so that this
//! logic is tested natively.

use super::engine::eval::EvalTables;
use super::engine::game::Game;
use super::engine::rules::GameEnd;
use super::engine::search::{self, GameMemory, Limits, Shared};
use super::engine::tt::Tt;
use super::lib::builtin;
use super::lib::compile::{code_of, type_of};
use super::lib::highlight::kind_names;
use super::lib::moves::{Move, MoveKind};
use super::lib::pgn;
use super::lib::piece::Code;
use super::lib::position::{Position, Validation};
use super::lib::san::Notation;
use super::lib::square::{Color, Square};
use super::lib::variant::{Variant, VariantDef};
use crate::types::{
    Cell, EndInfo, GameResult, HandPiece, MoveDetail, PieceTypeInfo, SearchInfo, TargetInfo, VariantInfo,
};
use std::sync::Arc;
use std::time::Duration;

/// The size of the engine's transposition table, in megabytes. Small enough
/// for a browser tab, large enough for searches of a few seconds.
pub const HASH_MB: usize = 16;

/// The longest time limit a search accepts, in milliseconds (ten minutes).
pub const MAX_MOVETIME_MS: u32 = 600_000;

/// The format of a user's variant definition (the core loader's).
pub use super::lib::loader::Format;

/// The built-in variants this build can play (not those whose board needs
/// the wide build), in the order of `chimera variants`.
pub fn builtin_variants() -> Vec<VariantInfo> {
    builtin::playable_names()
        .into_iter()
        .map(|name| {
            let description = builtin::source(name)
                .and_then(|text| VariantDef::from_toml(text, name).ok())
                .map(|d| d.description)
                .unwrap_or_default();
            VariantInfo { name: name.to_string(), description }
        })
        .collect()
}

/// The TOML text of a built-in variant.
pub fn builtin_source(name: &str) -> Result<String, String> {
    builtin::source(name.trim())
        .map(str::to_string)
        .ok_or_else(|| format!("unknown variant '{}'; known variants: {}", name.trim(), builtin::names().join(", ")))
}

/// A variant, a game in it, and the engine's table.
pub struct Session {
    game: Game,
    start_fen: String,
    played: Vec<String>,
    tt: Option<Arc<Tt>>,
    /// What the engine's searches of this game learnt, for its next search.
    memory: Arc<GameMemory>,
}

fn color_name(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

/// The FEN token of a piece code: its letter in its side's case, with `+`
/// before a promoted type's letter, `~` after a crazyhouse promoted one and
/// a dressed id's mark after the letter (`L'`, `+L!`).
fn token(pos: &Position, code: Code) -> String {
    pos.token(code)
}

fn is_wall(v: &Variant, t: usize) -> bool {
    v.def.rules.walls && t + 1 == v.def.pieces.len()
}

impl Session {
    /// A variant at its start position.
    pub fn from_variant(v: Variant) -> Session {
        Session::with_variant(v)
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.game.pos
    }

    /// The current position, to generate moves in.
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.game.pos
    }

    /// The current position and the game's history, for [`super::lib::outcome`].
    pub fn position_and_history(&mut self) -> (&mut Position, &[super::lib::outcome::HistEntry]) {
        (&mut self.game.pos, &self.game.hist)
    }

    /// Plays a legal move given in UCI notation even after the game has
    /// ended by a rule a player may claim; returns its details.
    pub fn push_unchecked(&mut self, uci: &str) -> Result<MoveDetail, String> {
        let m =
            self.game.pos.parse_move(uci.trim()).map_err(|e| format!("illegal move '{}': {}", e.text, e.message))?;
        let d = self.detail(m);
        self.game.play(m);
        self.played.push(d.uci.clone());
        Ok(d)
    }

    fn with_variant(v: Variant) -> Session {
        let v = Arc::new(v);
        let ev = Arc::new(EvalTables::new(&v));
        let game = Game::new(v, ev);
        let start_fen = game.pos.fen();
        Session { game, start_fen, played: Vec::new(), tt: None, memory: Arc::default() }
    }

    /// A built-in variant by name, at its start position.
    pub fn builtin(name: &str) -> Result<Session, String> {
        let v = builtin::variant(name.trim()).map_err(|e| e.to_string())?;
        Ok(Session::with_variant(v))
    }

    /// A user's definition: Chimera's TOML, or a variants.ini text with the
    /// section to play (`section` may be left out when the text defines one
    /// variant only).
    pub fn from_definition(text: &str, format: Format, section: Option<&str>) -> Result<Session, String> {
        let def = super::lib::loader::definition(text, "definition", format, section).map_err(|e| e.to_string())?;
        let name = def.name.clone();
        let v = Variant::new(def).map_err(|e| format!("{name}: {e}"))?;
        Ok(Session::with_variant(v))
    }

    /// The variant's name.
    pub fn variant_name(&self) -> &str {
        self.game.variant.name()
    }

    /// The variant's description.
    pub fn description(&self) -> &str {
        &self.game.variant.def.description
    }

    /// The board's width (files).
    pub fn width(&self) -> u8 {
        self.game.pos.geometry().width
    }

    /// The board's height (ranks).
    pub fn height(&self) -> u8 {
        self.game.pos.geometry().height
    }

    /// Whether the variant has hands (drops or gating).
    pub fn has_hands(&self) -> bool {
        self.game.variant.def.rules.has_hand()
    }

    /// The current position's FEN.
    pub fn fen(&self) -> String {
        self.game.pos.fen()
    }

    /// The FEN the game started from.
    pub fn start_fen(&self) -> &str {
        &self.start_fen
    }

    /// Starts a new game from `fen`; on error the game is unchanged.
    pub fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        self.set_fen_with(fen, Validation::Strict)
    }

    /// [`Session::set_fen`] with a validation level: a move diagram's lone
    /// piece is a position no game has.
    fn set_fen_with(&mut self, fen: &str, level: Validation) -> Result<(), String> {
        let pos = Position::from_fen_with(self.game.variant.clone(), fen.trim(), level).map_err(|e| e.to_string())?;
        let g = Game::at(self.game.variant.clone(), self.game.ev.clone(), pos);
        self.start_fen = g.pos.fen();
        self.game = g;
        self.played.clear();
        Ok(())
    }

    /// Starts a new game from the variant's start position.
    pub fn reset(&mut self) {
        self.game = Game::new(self.game.variant.clone(), self.game.ev.clone());
        self.start_fen = self.game.pos.fen();
        self.played.clear();
        self.memory.clear();
    }

    /// The side to move: `white` or `black`.
    pub fn side_to_move(&self) -> &'static str {
        color_name(self.game.pos.side_to_move())
    }

    /// Whether the side to move is in check.
    pub fn in_check(&mut self) -> bool {
        self.game.pos.in_check()
    }

    /// The moves played since the start FEN, in UCI notation.
    pub fn history(&self) -> &[String] {
        &self.played
    }

    fn square(&self, name: &str) -> Result<Square, String> {
        let g = self.game.pos.geometry();
        g.parse_square(name.trim())
            .ok_or_else(|| format!("'{}' is not a square of this {}x{} board", name.trim(), g.width, g.height))
    }

    fn name_of(&self, sq: Square) -> String {
        self.game.pos.geometry().square_name(sq)
    }

    /// The legal moves in UCI notation.
    pub fn legal_moves(&mut self) -> Vec<String> {
        let moves = self.game.pos.legal_moves();
        moves.into_iter().map(|m| self.game.pos.move_text(m)).collect()
    }

    fn detail(&self, m: Move) -> MoveDetail {
        let pos = &self.game.pos;
        let v = pos.variant();
        let sq = |s: Square| self.name_of(s);
        let kind = m.kind();
        let (from, to) = (m.from(), m.to());
        let captured_on_to = kind != MoveKind::Drop && to != from && !pos.piece_at(to).is_empty();
        let mut d = MoveDetail {
            uci: pos.move_text(m),
            from: (kind != MoveKind::Drop).then(|| sq(from)),
            to: sq(to),
            kind: match kind {
                MoveKind::Normal => "normal",
                MoveKind::Promotion => "promotion",
                MoveKind::EnPassant => "en-passant",
                MoveKind::Castle => "castle",
                MoveKind::Double => "double",
                MoveKind::Locust => "locust",
                MoveKind::Pass => "pass",
                MoveKind::Drop => "drop",
            },
            capture: captured_on_to,
            victim: None,
            promotion: None,
            drop: None,
            gate: None,
            gate_square: None,
            rook: None,
            label: String::new(),
        };
        let mover = if kind == MoveKind::Drop { m.code() } else { pos.piece_at(from) };
        let mover_name = if !mover.is_empty() { v.def.pieces[type_of(mover)].name.clone() } else { String::new() };
        d.label = match kind {
            MoveKind::Promotion => {
                let t = &v.def.pieces[type_of(m.code())];
                d.promotion = Some(token(pos, m.code()));
                format!("promote to {}", t.name)
            }
            MoveKind::EnPassant => {
                d.capture = true;
                d.victim = Some(sq(m.extra()));
                "capture en passant".to_string()
            }
            MoveKind::Castle => {
                d.rook = Some(sq(m.extra()));
                "castle".to_string()
            }
            MoveKind::Locust => {
                d.capture = true;
                d.victim = Some(sq(m.extra()));
                let on = match m.second_victim(&pos.geometry()) {
                    Some(second) => format!("{} and {}", sq(m.extra()), sq(second)),
                    None => sq(m.extra()),
                };
                if to == from {
                    format!("capture on {on} and return")
                } else {
                    format!("capture on {on}, then go to {}", sq(to))
                }
            }
            MoveKind::Pass => "pass".to_string(),
            MoveKind::Drop => {
                d.drop = Some(token(pos, m.code()));
                format!("drop {mover_name}")
            }
            MoveKind::Normal | MoveKind::Double if from == to => "pass".to_string(),
            MoveKind::Normal | MoveKind::Double => {
                // a move that could promote but does not (shogi) reads as such
                let t = type_of(mover);
                if v.def.pieces[t].promotion.is_some() {
                    "stay unpromoted".to_string()
                } else {
                    format!("move {mover_name}")
                }
            }
        };
        if let Some(t) = m.gate() {
            let code = code_of(t, pos.side_to_move());
            d.gate = Some(token(pos, code));
            let gsq = m.gate_square().map(sq).unwrap_or_default();
            d.label = format!("{}, gate {} on {gsq}", d.label, v.def.pieces[t].name);
            d.gate_square = Some(gsq);
        }
        d
    }

    /// Every legal move with the details a board needs.
    pub fn move_details(&mut self) -> Vec<MoveDetail> {
        let moves = self.game.pos.legal_moves();
        moves.into_iter().map(|m| self.detail(m)).collect()
    }

    /// The squares the piece on `square` may reach, with their kinds (see
    /// [`super::lib::highlight`]). An empty list for an empty square or a piece
    /// that cannot move.
    pub fn targets(&mut self, square: &str) -> Result<Vec<TargetInfo>, String> {
        let sq = self.square(square)?;
        let t = self.game.pos.legal_targets(sq);
        Ok(t.into_iter().map(|t| TargetInfo { square: self.name_of(t.square), kinds: kind_names(t.kinds) }).collect())
    }

    /// The second-leg destinations of the piece on `from` after capturing the
    /// piece on `victim` on the way (a Lion's double move).
    pub fn second_leg_targets(&mut self, from: &str, victim: &str) -> Result<Vec<TargetInfo>, String> {
        let (f, v) = (self.square(from)?, self.square(victim)?);
        let t = self.game.pos.second_leg_targets(f, v);
        Ok(t.into_iter().map(|t| TargetInfo { square: self.name_of(t.square), kinds: kind_names(t.kinds) }).collect())
    }

    /// The squares the side to move may drop `piece` (a FEN letter, either
    /// case) on.
    pub fn drop_targets(&mut self, piece: &str) -> Result<Vec<TargetInfo>, String> {
        let p = piece.trim();
        let def = &self.game.variant.def;
        let letter = p.trim_start_matches('+').chars().next().ok_or("empty piece letter")?;
        if def.piece_by_letter(letter.to_ascii_lowercase()).is_none() {
            return Err(format!("'{p}' is no piece of {}", def.name));
        }
        let mut out: Vec<TargetInfo> = Vec::new();
        for m in self.game.pos.legal_moves() {
            if m.kind() == MoveKind::Drop && token(&self.game.pos, m.code()).eq_ignore_ascii_case(p) {
                let square = self.name_of(m.to());
                if !out.iter().any(|t| t.square == square) {
                    out.push(TargetInfo { square, kinds: vec!["drop"] });
                }
            }
        }
        Ok(out)
    }

    /// Plays a legal move given in UCI notation; returns its details.
    pub fn play(&mut self, uci: &str) -> Result<MoveDetail, String> {
        if let Some(r) = self.result() {
            return Err(format!("the game is over ({} {})", r.score, r.reason));
        }
        let m = self.game.pos.parse_move(uci).map_err(|e| format!("illegal move '{}': {}", e.text, e.message))?;
        let d = self.detail(m);
        self.game.play(m);
        self.played.push(d.uci.clone());
        Ok(d)
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<String> {
        if self.game.undo() {
            self.played.pop()
        } else {
            None
        }
    }

    /// How the game has ended, if it has: mate, stalemate, a variant's rule,
    /// repetition, perpetual check, the n-move rule or a dead position
    /// (`insufficient material`: neither side can mate).
    pub fn result(&mut self) -> Option<GameResult> {
        Some(match self.game.end()? {
            GameEnd::WhiteWins(why) => GameResult { winner: Some("white"), score: "1-0", reason: why.to_string() },
            GameEnd::BlackWins(why) => GameResult { winner: Some("black"), score: "0-1", reason: why.to_string() },
            GameEnd::Draw(why) => GameResult { winner: None, score: "1/2-1/2", reason: why.to_string() },
        })
    }

    /// The position the game started from (the start FEN's), found by taking
    /// the moves played back on a copy of the current position.
    fn start_position(&self) -> Position {
        let mut p = self.game.pos.clone();
        for (m, u) in self.game.played.iter().rev() {
            p.unmake(*m, u);
        }
        p
    }

    /// The moves played since the start FEN in the variant's notation (SAN
    /// for most variants; see [`Notation::default_for`]), as pyffish's
    /// `get_san_moves` writes them.
    pub fn san_history(&self) -> Vec<String> {
        let mut p = self.start_position();
        let mut out = Vec::with_capacity(self.game.played.len());
        for (m, _) in &self.game.played {
            out.push(p.san(*m, Notation::Default));
            p.make(*m);
        }
        out
    }

    /// A legal move given in UCI notation, written in the variant's notation.
    pub fn san_move(&mut self, uci: &str) -> Result<String, String> {
        let m =
            self.game.pos.parse_move(uci.trim()).map_err(|e| format!("illegal move '{}': {}", e.text, e.message))?;
        Ok(self.game.pos.san(m, Notation::Default))
    }

    /// Plays a move written in the variant's notation (or SAN, LAN or UCI
    /// text, as [`Position::parse_san`] reads them); returns its details.
    pub fn push_san(&mut self, san: &str) -> Result<MoveDetail, String> {
        if let Some(r) = self.result() {
            return Err(format!("the game is over ({} {})", r.score, r.reason));
        }
        let m = self.game.pos.parse_san(san, Notation::Default).map_err(|e| e.to_string())?;
        let uci = self.game.pos.move_text(m);
        self.play(&uci)
    }

    /// The game so far as PGN: the Seven Tag Roster, a `Variant` tag, `SetUp`
    /// and `FEN` tags when the game did not start from the variant's start
    /// position, the moves in the variant's notation and the result (`*`
    /// while the game goes on; the reason as a comment after the last move).
    pub fn pgn(&mut self) -> String {
        let mut record = pgn::Game::new(self.start_position());
        for (m, _) in &self.game.played {
            // every move was legal where it was played
            let _ = record.push(*m);
        }
        if let Some(end) = self.game_end() {
            record.result = match end.result {
                "1-0" => pgn::Outcome::WhiteWins,
                "0-1" => pgn::Outcome::BlackWins,
                _ => pgn::Outcome::Draw,
            };
            match record.line.moves.last_mut() {
                Some(m) => m.comments.push(end.reason),
                None => record.line.comments.push(end.reason),
            }
        }
        record.to_pgn()
    }

    /// Loads the first game of a PGN text: its variant (the `Variant` tag: a
    /// built-in variant by its Fairy-Stockfish, pychess or lichess name, or
    /// this game's own variant by its name; chess without a tag), its start
    /// position (the `FEN` tag) and its main line. On an error the game is
    /// unchanged.
    pub fn load_pgn(&mut self, text: &str) -> Result<(), String> {
        let current = self.game.variant.clone();
        let mut lookup = |tag: Option<&str>| -> Result<Arc<Variant>, String> {
            match tag {
                Some(t) if t.trim().eq_ignore_ascii_case(current.name()) => Ok(current.clone()),
                None if current.name() == "chess" => Ok(current.clone()),
                None => builtin::variant("chess").map(Arc::new).map_err(|e| e.to_string()),
                Some(t) => {
                    let name = pgn::variant_name(t).ok_or_else(|| format!("unknown variant '{}'", t.trim()))?;
                    if name == current.name() {
                        Ok(current.clone())
                    } else {
                        builtin::variant(name).map(Arc::new).map_err(|e| e.to_string())
                    }
                }
            }
        };
        let game = pgn::read_games_with(text, &mut lookup)
            .into_iter()
            .next()
            .ok_or("the PGN text holds no game")?
            .map_err(|e| e.to_string())?;
        let ev = if Arc::ptr_eq(&game.variant, &self.game.variant) {
            self.game.ev.clone()
        } else {
            Arc::new(EvalTables::new(&game.variant))
        };
        let mut g = Game::at(game.variant.clone(), ev, game.start.clone());
        let start_fen = g.pos.fen();
        let mut played = Vec::with_capacity(game.moves().len());
        for m in game.moves() {
            played.push(g.pos.move_text(m.mv));
            g.play(m.mv);
        }
        if !Arc::ptr_eq(&game.variant, &self.game.variant) {
            self.tt = None;
        }
        self.game = g;
        self.start_fen = start_fen;
        self.played = played;
        Ok(())
    }

    /// How the game has ended or may be ended: the result, the reason, and
    /// whether a player may claim it (repetition, the n-move rule, a dead
    /// position) rather than the rules ending the game at once. `None` while
    /// the game goes on.
    pub fn game_end(&mut self) -> Option<EndInfo> {
        let e = self.game.outcome()?;
        Some(EndInfo { result: e.result.as_str(), reason: e.reason.as_str().to_string(), claimable: e.claimable })
    }

    /// The board, rank by rank from White's first, file by file from the left.
    pub fn board(&self) -> Vec<Cell> {
        let pos = &self.game.pos;
        let g = pos.geometry();
        let v = pos.variant();
        let mut out = Vec::with_capacity(g.squares());
        for rank in 0..g.height {
            for file in 0..g.width {
                let Some(sq) = g.square(file as i32, rank as i32) else { continue };
                let code = pos.piece_at(sq);
                let mut cell =
                    Cell { square: g.square_name(sq), file, rank, piece: None, color: None, name: None, wall: false };
                if !code.is_empty() {
                    let t = type_of(code);
                    if is_wall(v, t) {
                        cell.wall = true;
                    } else {
                        cell.piece = Some(token(pos, code));
                        cell.color = Some(if code.color() == Color::White { "white" } else { "black" });
                        cell.name = Some(v.def.pieces[t].name.clone());
                    }
                }
                out.push(cell);
            }
        }
        out
    }

    /// The pieces in both hands (White's first), types with none left out.
    pub fn hands(&self) -> Vec<HandPiece> {
        let pos = &self.game.pos;
        let v = pos.variant();
        let mut out = Vec::new();
        if !v.def.rules.has_hand() {
            return out;
        }
        for c in [Color::White, Color::Black] {
            for (t, p) in v.def.pieces.iter().enumerate() {
                let n = pos.pocket(c, t);
                if n > 0 && !is_wall(v, t) {
                    let code = code_of(t, c);
                    out.push(HandPiece {
                        color: color_name(c),
                        piece: token(pos, code),
                        name: p.name.clone(),
                        count: n,
                    });
                }
            }
        }
        out
    }

    /// The variant's piece types (walls left out).
    pub fn piece_types(&self) -> Vec<PieceTypeInfo> {
        let pos = &self.game.pos;
        let v = pos.variant();
        (0..v.def.pieces.len())
            .filter(|&t| !is_wall(v, t))
            .map(|t| {
                let p = &v.def.pieces[t];
                PieceTypeInfo {
                    piece: token(pos, code_of(t, Color::White)),
                    name: p.name.clone(),
                    betza: p.betza.text.clone(),
                    royal: p.royal,
                }
            })
            .collect()
    }

    /// A move diagram, as the Interactive Diagram draws one: a game at a
    /// position with only `piece` (White's FEN token, `N` or `+P`) on the
    /// board, on `square` or, if none is given, on the square nearest the
    /// centre that the piece may stand on. Walls stay; hands are empty;
    /// White is to move. Its `targets` on that square are the piece's moves.
    pub fn piece_diagram(&self, piece: &str, square: Option<&str>) -> Result<Session, String> {
        let pos = &self.game.pos;
        let v = pos.variant();
        let g = pos.geometry();
        let want = piece.trim();
        let t = (0..v.def.pieces.len())
            .filter(|&t| !is_wall(v, t))
            .find(|&t| token(pos, code_of(t, Color::White)).eq_ignore_ascii_case(want))
            .ok_or_else(|| format!("'{want}' is no piece of {}", v.def.name))?;
        let code = code_of(t, Color::White);
        let free = |sq: Square| {
            let c = pos.piece_at(sq);
            let walled = !c.is_empty() && is_wall(v, type_of(c));
            let confined = v.def.pieces[t].confine.is_some_and(|z| !v.def.zones[z].contains(&g, Color::White, sq));
            !walled && !confined
        };
        let at = match square.map(str::trim).filter(|s| !s.is_empty()) {
            Some(name) => {
                let sq = self.square(name)?;
                if !free(sq) {
                    return Err(format!("the {} cannot stand on {name}", v.def.pieces[t].name));
                }
                sq
            }
            None => {
                // the free square nearest the centre (in half squares, to stay in integers)
                let (cx, cy) = (g.width as i32 - 1, g.height as i32 - 1);
                let mut best: Option<(i32, Square)> = None;
                for rank in 0..g.height as i32 {
                    for file in 0..g.width as i32 {
                        let Some(sq) = g.square(file, rank) else { continue };
                        let d = (2 * file - cx).pow(2) + (2 * rank - cy).pow(2);
                        if free(sq) && best.is_none_or(|(bd, _)| d < bd) {
                            best = Some((d, sq));
                        }
                    }
                }
                best.ok_or_else(|| format!("the {} has no square to stand on", v.def.pieces[t].name))?.1
            }
        };
        // the board field, from the top rank down
        let mut board = String::new();
        for rank in (0..g.height as i32).rev() {
            let mut empty = 0;
            for file in 0..g.width as i32 {
                let Some(sq) = g.square(file, rank) else { continue };
                let c = pos.piece_at(sq);
                let text = if sq == at {
                    Some(token(pos, code))
                } else if !c.is_empty() && is_wall(v, type_of(c)) {
                    Some("*".to_string())
                } else {
                    None
                };
                match text {
                    Some(text) => {
                        if empty > 0 {
                            board.push_str(&empty.to_string());
                            empty = 0;
                        }
                        board.push_str(&text);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
            if rank > 0 {
                board.push('/');
            }
        }
        if v.def.rules.has_hand() {
            board.push_str("[]");
        }
        // the other fields of the current FEN: White to move, no castling or e.p.
        let fen = pos.fen();
        let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
        fields[0] = board;
        if fields.len() > 1 {
            fields[1] = "w".to_string();
        }
        for f in fields.iter_mut().skip(2).take(2) {
            *f = "-".to_string();
        }
        let mut d = Session {
            game: self.game.clone(),
            start_fen: String::new(),
            played: Vec::new(),
            tt: None,
            memory: Arc::default(),
        };
        d.set_fen_with(&fields.join(" "), Validation::Permissive)
            .map_err(|e| format!("no diagram of the {}: {e}", v.def.pieces[t].name))?;
        Ok(d)
    }

    /// Searches the current position for at most `movetime_ms` milliseconds
    /// (and at most `depth` plies, if given) and returns the best move found.
    /// The game is not changed.
    pub fn search(&mut self, movetime_ms: u32, depth: Option<u32>) -> Result<SearchInfo, String> {
        if movetime_ms == 0 || movetime_ms > MAX_MOVETIME_MS {
            return Err(format!("the time limit must be 1 to {MAX_MOVETIME_MS} ms, not {movetime_ms}"));
        }
        if let Some(d) = depth {
            if d == 0 || d > search::MAX_PLY as u32 {
                return Err(format!("the depth must be 1 to {}, not {d}", search::MAX_PLY));
            }
        }
        if let Some(r) = self.result() {
            return Err(format!("the game is over ({} {})", r.score, r.reason));
        }
        let tt = self.tt.get_or_insert_with(|| Arc::new(Tt::new(HASH_MB))).clone();
        let shared = Arc::new(Shared::with_memory(tt, self.memory.clone()));
        let hard = Duration::from_millis(movetime_ms as u64);
        let limits =
            Limits { depth: depth.map(|d| d as i32), soft: Some(hard / 2), hard: Some(hard), ..Default::default() };
        let mut last: Option<search::Report> = None;
        let r = search::search(&self.game.pos, &self.game.hist, &self.game.ev, &shared, limits, 1, &mut |rep| {
            last = Some(rep.clone());
        });
        let best = r.best.ok_or("the engine found no move")?;
        // the principal variation, as text, read along a copy of the position
        let mut pv = Vec::new();
        if let Some(rep) = &last {
            let mut p = self.game.pos.clone();
            for &m in &rep.pv {
                if !p.legal_moves().contains(&m) {
                    break;
                }
                pv.push(p.move_text(m));
                p.make(m);
            }
        }
        Ok(SearchInfo {
            best: self.game.pos.move_text(best),
            pv,
            score: r.score,
            depth: r.depth,
            nodes: r.nodes,
            elapsed_ms: last.map_or(0.0, |rep| rep.elapsed.as_secs_f64() * 1000.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn squares(t: &[TargetInfo]) -> BTreeSet<String> {
        t.iter().map(|t| t.square.clone()).collect()
    }

    #[test]
    fn built_in_variants_are_listed_with_descriptions() {
        let v = builtin_variants();
        assert_eq!(v.len(), builtin::playable_names().len());
        // a 16x16 board: in the wide build only
        assert_eq!(v.iter().any(|v| v.name == "tenjikushogi"), super::super::lib::width::WIDE);
        let ml = v.iter().find(|v| v.name == "mightylion").expect("mightylion listed");
        assert_eq!(ml.description, "Mighty Lion Chess");
        assert!(v.iter().any(|v| v.name == "xiangqi"));
        assert!(builtin_source("chess").unwrap().contains("name = \"chess\""));
        assert!(builtin_source("nonesuch").unwrap_err().contains("nonesuch"));
    }

    #[test]
    fn unknown_variants_and_bad_input_are_errors_that_name_the_problem() {
        let e = Session::builtin("nonesuch").err().unwrap();
        assert!(e.contains("nonesuch"), "{e}");
        let mut s = Session::builtin("chess").unwrap();
        assert!(s.targets("z9").unwrap_err().contains("'z9' is not a square of this 8x8 board"));
        assert!(s.targets("").is_err());
        assert!(s.second_leg_targets("e2", "e99").is_err());
        let e = s.play("e2e5").unwrap_err();
        assert!(e.contains("e2e5") && e.contains("not a legal move"), "{e}");
        assert!(s.play("hello world").is_err());
        assert!(s.drop_targets("x").is_err());
        assert!(s.drop_targets("").is_err());
        let before = s.fen();
        assert!(s.set_fen("not a fen").is_err());
        assert!(s.set_fen("").is_err());
        assert_eq!(s.fen(), before, "a bad FEN leaves the game as it was");
        assert!(s.search(0, None).is_err());
        assert!(s.search(1000, Some(0)).is_err());
        assert!(Format::parse("yaml").is_err());
    }

    /// Dai Shogi's dressed ids reach the board as their FEN tokens, so that
    /// `X'` and `X` (different pieces) are told apart.
    #[test]
    fn dressed_ids_keep_their_marks_on_the_board() {
        let s = Session::builtin("daishogi").unwrap();
        let piece = |sq: &str| s.board().into_iter().find(|c| c.square == sq).and_then(|c| c.piece);
        assert_eq!(piece("b3").as_deref(), Some("X'"));
        assert_eq!(piece("i3").as_deref(), Some("X"));
        assert_eq!(piece("h3").as_deref(), Some("L!"));
        assert_eq!(piece("h13").as_deref(), Some("l!"));
    }

    #[test]
    fn legal_moves_and_targets_agree_with_the_core() {
        let mut s = Session::builtin("chess").unwrap();
        assert_eq!(s.legal_moves().len(), 20);
        let t = s.targets("e2").unwrap();
        assert_eq!(squares(&t), ["e3", "e4"].iter().map(|s| s.to_string()).collect());
        assert!(t.iter().all(|t| t.kinds == vec!["move"]));
        assert!(s.targets("e4").unwrap().is_empty(), "an empty square has no targets");
        assert!(s.targets("e7").unwrap().is_empty(), "Black's piece cannot move on White's turn");
        // every legal move's destination is a target of its origin
        let mut s = Session::builtin("xiangqi").unwrap();
        assert_eq!((s.width(), s.height(), s.board().len()), (9, 10, 90));
        for d in s.move_details() {
            let from = d.from.clone().unwrap();
            assert!(squares(&s.targets(&from).unwrap()).contains(&d.to), "{}", d.uci);
        }
    }

    #[test]
    fn the_lions_first_legs_lead_to_its_second_legs() {
        let mut s = Session::builtin("mightylion").unwrap();
        s.set_fen("4k3/8/8/3pp3/3L4/8/8/4K3 w - - 0 1").unwrap();
        let t = s.targets("d4").unwrap();
        let kinds = |sq: &str| t.iter().find(|t| t.square == sq).map(|t| t.kinds.clone()).unwrap_or_default();
        assert_eq!(kinds("e5"), vec!["capture", "victim", "second-leg"]);
        assert_eq!(kinds("d4"), vec!["second-leg", "pass"]);
        assert_eq!(kinds("b4"), vec!["move"]);
        let moves = s.legal_moves();
        for victim in ["d5", "e5"] {
            // the second legs are exactly the ends of the moves "d4V,V.." in the move list
            let prefix = format!("d4{victim},{victim}");
            let expected: BTreeSet<String> =
                moves.iter().filter_map(|m| m.strip_prefix(&prefix)).map(str::to_string).collect();
            assert!(expected.len() > 5, "{victim}: {expected:?}");
            assert_eq!(squares(&s.second_leg_targets("d4", victim).unwrap()), expected, "{victim}");
        }
        let d = s.move_details();
        let to_d6: Vec<&MoveDetail> = d.iter().filter(|d| d.to == "d6").collect();
        assert_eq!(to_d6.len(), 3, "{to_d6:?}");
        let double = d.iter().find(|d| d.uci == "d4e5,e5f6").unwrap();
        assert_eq!((double.kind, double.capture, double.victim.as_deref()), ("locust", true, Some("e5")));
        assert_eq!(double.label, "capture on e5, then go to f6");
        let played = s.play("d4e5,e5f6").unwrap();
        assert_eq!(played.uci, "d4e5,e5f6");
        assert!(s.fen().starts_with("4k3/8/5L2/3p4/8/8/8/4K3 b"), "{}", s.fen());
    }

    #[test]
    fn promotions_drops_and_hands_are_described() {
        let mut s = Session::builtin("chess").unwrap();
        s.set_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let t = s.targets("e7").unwrap();
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].kinds, vec!["promotion"]);
        let mut promos: Vec<String> =
            s.move_details().into_iter().filter(|d| d.kind == "promotion").filter_map(|d| d.promotion).collect();
        promos.sort();
        assert_eq!(promos, ["B", "N", "Q", "R"]);
        let q = s.move_details().into_iter().find(|d| d.uci == "e7e8q").unwrap();
        assert_eq!(q.label, "promote to queen");

        let mut z = Session::builtin("crazyhouse").unwrap();
        z.set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qn] w KQkq - 0 1").unwrap();
        let hands = z.hands();
        assert_eq!(hands.len(), 2, "{hands:?}");
        assert_eq!((hands[0].color, hands[0].piece.as_str(), hands[0].count), ("white", "Q", 1));
        assert_eq!((hands[1].color, hands[1].piece.as_str()), ("black", "n"));
        let drops = z.drop_targets("Q").unwrap();
        assert_eq!(drops.len(), 32, "the empty squares");
        let expected: BTreeSet<String> =
            z.legal_moves().iter().filter_map(|m| m.strip_prefix("Q@")).map(str::to_string).collect();
        assert_eq!(squares(&drops), expected);
        assert!(z.drop_targets("n").unwrap().is_empty(), "White holds no knight");
        let d = z.play("Q@e4").unwrap();
        assert_eq!((d.kind, d.drop.as_deref(), d.from), ("drop", Some("Q"), None));
        assert!(z.hands().iter().all(|h| h.color == "black"));
    }

    #[test]
    fn play_undo_history_and_results() {
        let mut s = Session::builtin("chess").unwrap();
        assert_eq!(s.result(), None);
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            s.play(m).unwrap();
        }
        assert_eq!(s.history(), ["f2f3", "e7e5", "g2g4", "d8h4"]);
        let r = s.result().unwrap();
        assert_eq!((r.winner, r.score, r.reason.as_str()), (Some("black"), "0-1", "checkmate"));
        assert!(s.in_check());
        assert!(s.play("e1f2").unwrap_err().contains("the game is over"));
        assert!(s.search(100, None).is_err());
        assert_eq!(s.undo().as_deref(), Some("d8h4"));
        assert_eq!(s.result(), None);
        assert_eq!(s.side_to_move(), "black");
        s.reset();
        assert!(s.history().is_empty());
        assert_eq!(s.undo(), None);
        // threefold repetition
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                s.play(m).unwrap();
            }
        }
        assert_eq!(s.result().map(|r| r.reason), Some("repetition".to_string()));
        // a new start FEN
        s.set_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(s.start_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let c = s.move_details().into_iter().find(|d| d.kind == "castle").unwrap();
        assert_eq!((c.uci.as_str(), c.rook.as_deref()), ("e1g1", Some("h1")));
        assert_eq!(s.targets("e1").unwrap().iter().find(|t| t.square == "g1").unwrap().kinds, vec!["castle"]);
    }

    #[test]
    fn san_and_pgn_round_trip() {
        let mut s = Session::builtin("chess").unwrap();
        assert_eq!(s.san_move("g1f3").unwrap(), "Nf3");
        assert!(s.san_move("g1g3").is_err());
        s.play("f2f3").unwrap();
        let d = s.push_san("e5").unwrap();
        assert_eq!(d.uci, "e7e5");
        s.push_san("g4").unwrap();
        assert!(s.push_san("Nf9").is_err());
        assert!(s.push_san("").is_err());
        s.push_san("Qh4").unwrap();
        assert_eq!(s.san_history(), ["f3", "e5", "g4", "Qh4#"]);
        let end = s.game_end().unwrap();
        assert_eq!((end.result, end.reason.as_str(), end.claimable), ("0-1", "checkmate", false));
        let text = s.pgn();
        assert!(text.contains("[Variant \"chess\"]") && text.contains("[Result \"0-1\"]"), "{text}");
        assert!(text.contains("1. f3 e5 2. g4 Qh4# {checkmate} 0-1"), "{text}");
        // read back into a game of another variant: the variant switches
        let mut x = Session::builtin("xiangqi").unwrap();
        x.load_pgn(&text).unwrap();
        assert_eq!(x.variant_name(), "chess");
        assert_eq!(x.history(), ["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(x.fen(), s.fen());
        // a FEN tag and a claimable end
        let mut k = Session::builtin("chess").unwrap();
        k.set_fen("k7/8/8/8/8/8/8/6RK w - - 0 1").unwrap();
        for m in ["Rg2", "Kb8", "Rg1", "Ka8", "Rg2", "Kb8", "Rg1", "Ka8"] {
            k.push_san(m).unwrap();
        }
        let end = k.game_end().unwrap();
        assert_eq!((end.result, end.reason.as_str(), end.claimable), ("1/2-1/2", "repetition", true));
        let text = k.pgn();
        assert!(text.contains("[FEN \"k7/8/8/8/8/8/8/6RK w - - 0 1\"]"), "{text}");
        let mut c = Session::builtin("shogi").unwrap();
        c.load_pgn(&text).unwrap();
        assert_eq!((c.variant_name(), c.start_fen()), ("chess", "k7/8/8/8/8/8/8/6RK w - - 0 1"));
        assert_eq!(c.san_history(), k.san_history());
        // errors leave the game as it was
        let before = c.fen();
        assert!(c.load_pgn("[Variant \"nonesuch\"]\n\n1. e4 *").is_err());
        assert!(c.load_pgn("1. e4 e4 *").unwrap_err().contains("e4"));
        assert!(c.load_pgn("").is_err());
        assert_eq!(c.fen(), before);
        // shogi writes its own notation
        let mut g = Session::builtin("shogi").unwrap();
        g.play("c3c4").unwrap();
        assert_eq!(g.san_history(), ["P-76"]);
        g.push_san("P-34").unwrap();
        assert_eq!(g.history(), ["c3c4", "g7g6"]);
    }

    #[test]
    fn dead_positions_and_fen_validation() {
        let mut s = Session::builtin("chess").unwrap();
        // the last pieces but the kings are exchanged: a dead position
        s.set_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
        assert_eq!(s.result(), None);
        s.play("d2d5").unwrap();
        assert_eq!(s.result(), None);
        s.play("e8e7").unwrap();
        s.play("d5d8").unwrap();
        s.play("e7d8").unwrap();
        let r = s.result().unwrap();
        assert_eq!((r.winner, r.score, r.reason.as_str()), (None, "1/2-1/2", "insufficient material"));
        // a knight can still mate with the help of a pawn
        s.set_fen("4k3/4p3/8/8/8/8/8/4KN2 w - - 0 1").unwrap();
        assert_eq!(s.result(), None);
        // a FEN without a white king is refused, naming the problem
        let e = s.set_fen("4k3/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
        assert!(e.contains("White has 0 of the royal king"), "{e}");
    }

    #[test]
    fn user_definitions_in_both_formats() {
        let toml = builtin::source("xiangqi").unwrap().replace("name = \"xiangqi\"", "name = \"myxiangqi\"");
        for f in [Format::Toml, Format::Auto] {
            let mut s = Session::from_definition(&toml, f, None).unwrap();
            assert_eq!(s.variant_name(), "myxiangqi");
            assert_eq!(s.legal_moves().len(), 44);
        }
        let ini = "[nightriders:chess]\nknight = -\ncustomPiece1 = n:NN\n\n[other:chess]\n";
        let mut s = Session::from_definition(ini, Format::Auto, Some("nightriders")).unwrap();
        assert_eq!(s.variant_name(), "nightriders");
        // a nightrider on b1 rides a3 and c3-d5-e7 (capturing the pawn)
        let want: BTreeSet<String> = ["a3", "c3", "d5", "e7"].iter().map(|s| s.to_string()).collect();
        assert_eq!(squares(&s.targets("b1").unwrap()), want);
        let e = Session::from_definition(ini, Format::Ini, None).err().unwrap();
        assert!(e.contains("nightriders") && e.contains("other"), "{e}");
        let single = "[nightriders:chess]\nknight = -\ncustomPiece1 = n:NN\n";
        assert_eq!(Session::from_definition(single, Format::Auto, None).unwrap().variant_name(), "nightriders");
        let e = Session::from_definition("this is nothing", Format::Auto, None).err().unwrap();
        assert!(e.contains("neither"), "{e}");
        assert!(Session::from_definition(ini, Format::Ini, Some("missing")).is_err());
        let bad = toml.replace("betza = \"", "betza = \"Q%");
        assert!(Session::from_definition(&bad, Format::Toml, None).is_err());
    }

    #[test]
    fn move_diagrams_show_a_lone_piece_s_moves() {
        let s = Session::builtin("chess").unwrap();
        let mut d = s.piece_diagram("N", None).unwrap();
        assert_eq!(d.fen(), "8/8/8/8/3N4/8/8/8 w - - 0 1");
        assert_eq!(d.targets("d4").unwrap().len(), 8);
        let mut d = s.piece_diagram("q", Some("a1")).unwrap();
        assert_eq!(d.targets("a1").unwrap().len(), 21);
        assert!(s.piece_diagram("x", None).err().unwrap().contains("'x' is no piece of chess"));
        assert!(s.piece_diagram("N", Some("k9")).is_err());
        // the Lion: 24 squares around it (its two-step area) and its pass
        let ml = Session::builtin("mightylion").unwrap();
        let mut d = ml.piece_diagram("L", None).unwrap();
        let t = d.targets("d4").unwrap();
        assert_eq!(t.len(), 25, "{t:?}");
        assert!(t.iter().any(|t| t.square == "d4" && t.kinds.contains(&"pass")));
        // Xiangqi's general stays in its palace: the nearest palace square to the centre
        let xq = Session::builtin("xiangqi").unwrap();
        let d = xq.piece_diagram("K", None).unwrap();
        assert_eq!(d.fen().split(' ').next(), Some("9/9/9/9/9/9/9/4K4/9/9"));
        assert!(xq.piece_diagram("K", Some("e5")).err().unwrap().contains("cannot stand on e5"));
        // hands stay empty, walls stay
        let sg = Session::builtin("shogi").unwrap();
        assert!(sg.piece_diagram("+R", None).unwrap().fen().contains("[]"), "shogi's dragon");
    }

    #[test]
    fn the_engine_finds_a_mate_and_leaves_the_game_alone() {
        let mut s = Session::builtin("chess").unwrap();
        s.set_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let r = s.search(2000, Some(4)).unwrap();
        assert_eq!(r.best, "a1a8");
        assert_eq!(r.pv.first().map(String::as_str), Some("a1a8"));
        assert!(r.score > search::MATE_BOUND, "{}", r.score);
        assert_eq!(s.fen(), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        // within a time limit, in a variant with Lions
        let mut m = Session::builtin("mightylion").unwrap();
        let t0 = web_time_now();
        let r = m.search(300, None).unwrap();
        assert!(t0.elapsed() < Duration::from_millis(1500), "{:?}", t0.elapsed());
        assert!(m.legal_moves().contains(&r.best), "{}", r.best);
    }

    fn web_time_now() -> std::time::Instant {
        std::time::Instant::now()
    }
}
