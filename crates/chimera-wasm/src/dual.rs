//! The game logic over both cores: a [`Session`] or a [`Board`] plays a
//! variant the narrow core holds there ([`crate::narrow`], boards of at most
//! 255 squares and 120 piece types) and any other (Tenjiku Shogi, boards up
//! to 36x36, hundreds of piece types) on the wide one ([`crate::wide`]), as
//! the `chimera` binary and the Python module choose. Both cores give the
//! same moves on every board the narrow one holds; it is the faster one.
//!
//! Variants loaded with [`load_variant_config`] go to the narrow core unless
//! they are too large for it; a name loaded again replaces the earlier
//! variant in whichever core held it.

use crate::types::{
    Cell, EndInfo, GameResult, HandPiece, MoveDetail, PgnGame, PieceTypeInfo, SearchInfo, TargetInfo, VariantInfo,
};
use crate::{narrow, wide};
use std::cell::RefCell;
use std::collections::HashSet;

pub use narrow::session::Format;

thread_local! {
    /// The names of the variants loaded into the wide core.
    static WIDE: RefCell<HashSet<String>> = RefCell::new(HashSet::new());
    /// Every loaded variant's name, in the order first loaded.
    static ORDER: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Whether the narrow core plays the variant `name`: one it holds that was
/// not loaded into the wide core since.
fn narrow_holds(name: &str) -> bool {
    !WIDE.with(|w| w.borrow().contains(name.trim())) && narrow::board::holds(name)
}

/// Whether a definition text is beyond the narrow core's limits (the wide one may read it).
fn too_large_for_narrow(text: &str, format: Format) -> bool {
    narrow::lib::loader::definitions(text, "definition", format).is_err_and(|e| e.is_too_large())
}

/// The built-in variants, each with its name and description, in the order
/// of `chimera variants` (the wide core holds every one).
pub fn builtin_variants() -> Vec<VariantInfo> {
    wide::session::builtin_variants()
}

/// The TOML text of a built-in variant.
pub fn builtin_source(name: &str) -> Result<String, String> {
    wide::session::builtin_source(name)
}

/// The names of every variant: the built-in ones, then those loaded, separated by spaces.
pub fn variants() -> String {
    let names = builtin_variants().into_iter().map(|v| v.name).collect();
    ORDER.with(|o| crate::types::name_list(names, &o.borrow()))
}

/// The start FEN of a variant.
pub fn starting_fen(name: &str) -> Result<String, String> {
    if narrow_holds(name) {
        narrow::board::starting_fen(name)
    } else {
        wide::board::starting_fen(name)
    }
}

/// pyffish's validation code of `fen` in a variant.
pub fn validate_fen(fen: &str, name: &str, chess960: bool) -> Result<i32, String> {
    if narrow_holds(name) {
        narrow::board::validate_fen(fen, name, chess960)
    } else {
        wide::board::validate_fen(fen, name, chess960)
    }
}

/// Whether captured pieces go to the capturer's hand in a variant.
pub fn captures_to_hand(name: &str) -> Result<bool, String> {
    if narrow_holds(name) {
        narrow::board::captures_to_hand(name)
    } else {
        wide::board::captures_to_hand(name)
    }
}

/// Loads the variants of a Fairy-Stockfish variants.ini text: into the
/// narrow core, or, if they are beyond its limits, into the wide one. On an
/// error nothing is loaded.
pub fn load_variant_config(text: &str) -> Result<(), String> {
    let (names, into_wide) = match narrow::board::load_variant_config(text) {
        Ok(names) => (names, false),
        Err((_, true)) => (wide::board::load_variant_config(text).map_err(|(e, _)| e)?, true),
        Err((e, false)) => return Err(e),
    };
    for name in names {
        // the other core forgets an earlier variant of that name
        if into_wide {
            narrow::board::forget(&name);
            WIDE.with(|w| w.borrow_mut().insert(name.clone()));
        } else {
            wide::board::forget(&name);
            WIDE.with(|w| w.borrow_mut().remove(&name));
        }
        ORDER.with(|o| {
            let mut o = o.borrow_mut();
            if !o.contains(&name) {
                o.push(name);
            }
        });
    }
    Ok(())
}

/// Reads the first game of a PGN text, in the core that holds its variant.
pub fn read_game_pgn(text: &str) -> Result<PgnGame, String> {
    narrow::board::read_game_pgn(text).or_else(|e| wide::board::read_game_pgn(text).map_err(|_| e))
}

/// Calls the same method on the session or board of either core.
macro_rules! either {
    ($value:expr, $s:ident => $body:expr) => {
        match $value {
            Either::Narrow($s) => $body,
            Either::Wide($s) => $body,
        }
    };
}

/// A value of one core or of the other.
pub enum Either<N, W> {
    /// Of the narrow core.
    Narrow(N),
    /// Of the wide core.
    Wide(W),
}

/// A variant, a game in it, and the engine's table, on either core.
pub type Session = Either<narrow::session::Session, wide::session::Session>;

impl Session {
    /// A built-in variant at its start position (on the wide core if its
    /// board or types are beyond the narrow one's).
    pub fn builtin(name: &str) -> Result<Session, String> {
        if narrow::lib::builtin::definition(name.trim()).is_err_and(|e| e.is_too_large()) {
            wide::session::Session::builtin(name).map(Either::Wide)
        } else {
            narrow::session::Session::builtin(name).map(Either::Narrow)
        }
    }

    /// A user's definition at its start position (on the wide core if it is
    /// beyond the narrow one's limits).
    pub fn from_definition(text: &str, format: Format, section: Option<&str>) -> Result<Session, String> {
        match narrow::session::Session::from_definition(text, format, section) {
            Ok(s) => Ok(Either::Narrow(s)),
            Err(_) if too_large_for_narrow(text, format) => {
                let wide_format = match format {
                    Format::Toml => wide::session::Format::Toml,
                    Format::Ini => wide::session::Format::Ini,
                    Format::Auto => wide::session::Format::Auto,
                };
                // the wide core's error (if any) is about the definition itself
                wide::session::Session::from_definition(text, wide_format, section).map(Either::Wide)
            }
            Err(e) => Err(e),
        }
    }

    /// The variant's name.
    pub fn variant_name(&self) -> &str {
        either!(self, s => s.variant_name())
    }
    /// The variant's description.
    pub fn description(&self) -> &str {
        either!(self, s => s.description())
    }
    /// The number of files.
    pub fn width(&self) -> u8 {
        either!(self, s => s.width())
    }
    /// The number of ranks.
    pub fn height(&self) -> u8 {
        either!(self, s => s.height())
    }
    /// Whether the variant has hands.
    pub fn has_hands(&self) -> bool {
        either!(self, s => s.has_hands())
    }
    /// The position's FEN.
    pub fn fen(&self) -> String {
        either!(self, s => s.fen())
    }
    /// The FEN the game started from.
    pub fn start_fen(&self) -> &str {
        either!(self, s => s.start_fen())
    }
    /// Starts a new game from a FEN.
    pub fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        either!(self, s => s.set_fen(fen))
    }
    /// Starts a new game from the start position.
    pub fn reset(&mut self) {
        either!(self, s => s.reset())
    }
    /// `white` or `black`.
    pub fn side_to_move(&self) -> &'static str {
        either!(self, s => s.side_to_move())
    }
    /// Whether the side to move is in check.
    pub fn in_check(&mut self) -> bool {
        either!(self, s => s.in_check())
    }
    /// The moves played, in UCI notation.
    pub fn history(&self) -> &[String] {
        either!(self, s => s.history())
    }
    /// The legal moves in UCI notation.
    pub fn legal_moves(&mut self) -> Vec<String> {
        either!(self, s => s.legal_moves())
    }
    /// Every legal move with its details.
    pub fn move_details(&mut self) -> Vec<MoveDetail> {
        either!(self, s => s.move_details())
    }
    /// The highlighted targets of the piece on `square`.
    pub fn targets(&mut self, square: &str) -> Result<Vec<TargetInfo>, String> {
        either!(self, s => s.targets(square))
    }
    /// The second-leg targets after capturing on `victim`.
    pub fn second_leg_targets(&mut self, from: &str, victim: &str) -> Result<Vec<TargetInfo>, String> {
        either!(self, s => s.second_leg_targets(from, victim))
    }
    /// The squares `piece` may be dropped on.
    pub fn drop_targets(&mut self, piece: &str) -> Result<Vec<TargetInfo>, String> {
        either!(self, s => s.drop_targets(piece))
    }
    /// Plays a legal move.
    pub fn play(&mut self, uci: &str) -> Result<MoveDetail, String> {
        either!(self, s => s.play(uci))
    }
    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<String> {
        either!(self, s => s.undo())
    }
    /// How the game has ended, if it has.
    pub fn result(&mut self) -> Option<GameResult> {
        either!(self, s => s.result())
    }
    /// The moves played, in the variant's notation.
    pub fn san_history(&self) -> Vec<String> {
        either!(self, s => s.san_history())
    }
    /// A legal move in the variant's notation.
    pub fn san_move(&mut self, uci: &str) -> Result<String, String> {
        either!(self, s => s.san_move(uci))
    }
    /// Plays a move written in SAN.
    pub fn push_san(&mut self, san: &str) -> Result<MoveDetail, String> {
        either!(self, s => s.push_san(san))
    }
    /// The game as PGN.
    pub fn pgn(&mut self) -> String {
        either!(self, s => s.pgn())
    }
    /// Loads the first game of a PGN text, in the core that holds its variant.
    pub fn load_pgn(&mut self, text: &str) -> Result<(), String> {
        match self {
            Either::Narrow(s) => match s.load_pgn(text) {
                Ok(()) => Ok(()),
                Err(e) => {
                    // a variant the narrow core does not hold (its Variant tag)
                    let mut w = wide::session::Session::builtin("chess")?;
                    w.load_pgn(text).map_err(|_| e)?;
                    *self = Either::Wide(w);
                    Ok(())
                }
            },
            Either::Wide(s) => s.load_pgn(text),
        }
    }
    /// How the game has ended or may be ended by a claim.
    pub fn game_end(&mut self) -> Option<EndInfo> {
        either!(self, s => s.game_end())
    }
    /// The board's squares.
    pub fn board(&self) -> Vec<Cell> {
        either!(self, s => s.board())
    }
    /// The pieces in hand.
    pub fn hands(&self) -> Vec<HandPiece> {
        either!(self, s => s.hands())
    }
    /// The variant's piece types.
    pub fn piece_types(&self) -> Vec<PieceTypeInfo> {
        either!(self, s => s.piece_types())
    }
    /// A move diagram of one piece.
    pub fn piece_diagram(&self, piece: &str, square: Option<&str>) -> Result<Session, String> {
        match self {
            Either::Narrow(s) => s.piece_diagram(piece, square).map(Either::Narrow),
            Either::Wide(s) => s.piece_diagram(piece, square).map(Either::Wide),
        }
    }
    /// The engine's move.
    pub fn search(&mut self, movetime_ms: u32, depth: Option<u32>) -> Result<SearchInfo, String> {
        either!(self, s => s.search(movetime_ms, depth))
    }
}

/// A game with ffish.js's methods, on either core.
pub type Board = Either<narrow::board::Board, wide::board::Board>;

impl Board {
    /// A game of the variant `name` from `fen` (the start position if `None`).
    pub fn new(name: &str, fen: Option<&str>, chess960: bool) -> Result<Board, String> {
        if narrow_holds(name) {
            narrow::board::Board::new(name, fen, chess960).map(Either::Narrow)
        } else {
            wide::board::Board::new(name, fen, chess960).map(Either::Wide)
        }
    }
    /// Whether the game uses Chess960 castling.
    pub fn is_960(&self) -> bool {
        either!(self, b => b.is_960())
    }
    /// The legal moves in UCI notation, separated by spaces.
    pub fn legal_moves(&mut self) -> String {
        either!(self, b => b.legal_moves())
    }
    /// The legal moves in notation number `n`, separated by spaces.
    pub fn legal_moves_san(&mut self, n: usize) -> String {
        match self {
            Either::Narrow(b) => b.legal_moves_san(narrow::board::NOTATIONS[n]),
            Either::Wide(b) => b.legal_moves_san(wide::board::NOTATIONS[n]),
        }
    }
    /// The number of legal moves.
    pub fn number_legal_moves(&mut self) -> usize {
        either!(self, b => b.number_legal_moves())
    }
    /// Plays a legal move in UCI notation.
    pub fn push(&mut self, uci: &str) -> Result<(), String> {
        either!(self, b => b.push(uci))
    }
    /// Plays a move in notation number `n`.
    pub fn push_san(&mut self, san: &str, n: usize) -> Result<(), String> {
        match self {
            Either::Narrow(b) => b.push_san(san, narrow::board::NOTATIONS[n]),
            Either::Wide(b) => b.push_san(san, wide::board::NOTATIONS[n]),
        }
    }
    /// Plays moves in UCI notation, separated by spaces.
    pub fn push_moves(&mut self, moves: &str) -> Result<(), String> {
        either!(self, b => b.push_moves(moves))
    }
    /// Plays moves in notation number `n`, separated by spaces.
    pub fn push_san_moves(&mut self, moves: &str, n: usize) -> Result<(), String> {
        match self {
            Either::Narrow(b) => b.push_san_moves(moves, narrow::board::NOTATIONS[n]),
            Either::Wide(b) => b.push_san_moves(moves, wide::board::NOTATIONS[n]),
        }
    }
    /// A legal move in notation number `n`.
    pub fn san_move(&mut self, uci: &str, n: usize) -> Result<String, String> {
        match self {
            Either::Narrow(b) => b.san_move(uci, narrow::board::NOTATIONS[n]),
            Either::Wide(b) => b.san_move(uci, wide::board::NOTATIONS[n]),
        }
    }
    /// A line of moves in notation number `n`.
    pub fn variation_san(&mut self, moves: &str, n: usize, move_numbers: bool) -> Result<String, String> {
        match self {
            Either::Narrow(b) => b.variation_san(moves, narrow::board::NOTATIONS[n], move_numbers),
            Either::Wide(b) => b.variation_san(moves, wide::board::NOTATIONS[n], move_numbers),
        }
    }
    /// `true` if White is to move.
    pub fn turn(&self) -> bool {
        either!(self, b => b.turn())
    }
    /// How the game has ended (or may be ended by a claim, with `claim_draw`).
    pub fn end(&mut self, claim_draw: bool) -> Option<EndInfo> {
        either!(self, b => b.end(claim_draw).map(|e| EndInfo {
            result: e.result.as_str(),
            reason: e.reason.as_str().to_string(),
            claimable: e.claimable,
        }))
    }
    /// The result token.
    pub fn result(&mut self, claim_draw: bool) -> &'static str {
        either!(self, b => b.result(claim_draw))
    }
    /// Whether `white` (or Black) lacks the material to win.
    pub fn has_insufficient_material(&self, white: bool) -> bool {
        either!(self, b => b.has_insufficient_material(white))
    }
    /// Whether neither side can win.
    pub fn is_insufficient_material(&self) -> bool {
        either!(self, b => b.is_insufficient_material())
    }
    /// The moves played, in UCI notation, separated by spaces.
    pub fn move_stack(&self) -> String {
        either!(self, b => b.move_stack())
    }
    /// A side's pocket.
    pub fn pocket(&self, white: bool) -> String {
        either!(self, b => b.pocket(white))
    }
    /// The move number.
    pub fn fullmove_number(&self) -> u32 {
        either!(self, b => b.fullmove_number())
    }
    /// The half-move clock.
    pub fn halfmove_clock(&self) -> u32 {
        either!(self, b => b.halfmove_clock())
    }
    /// The plies played.
    pub fn game_ply(&self) -> u32 {
        either!(self, b => b.game_ply())
    }
    /// The variant's name.
    pub fn variant(&self) -> &str {
        either!(self, b => b.variant())
    }
    /// The board as text.
    pub fn to_text(&self) -> String {
        either!(self, b => b.to_text())
    }
    /// Perft to `depth`.
    pub fn perft(&mut self, depth: u32) -> Result<u64, String> {
        either!(self, b => b.perft(depth))
    }
    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<String> {
        either!(self, b => b.s.undo())
    }
    /// Starts a new game from the start position.
    pub fn reset(&mut self) {
        either!(self, b => b.s.reset())
    }
    /// The position's FEN.
    pub fn fen(&self) -> String {
        either!(self, b => b.s.fen())
    }
    /// Starts a new game from a FEN.
    pub fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        either!(self, b => b.s.set_fen(fen))
    }
    /// Whether the side to move is in check.
    pub fn in_check(&mut self) -> bool {
        either!(self, b => b.s.in_check())
    }
    /// The highlighted targets of the piece on `square`.
    pub fn targets(&mut self, square: &str) -> Result<Vec<TargetInfo>, String> {
        either!(self, b => b.s.targets(square))
    }
    /// The second-leg targets after capturing on `victim`.
    pub fn second_leg_targets(&mut self, from: &str, victim: &str) -> Result<Vec<TargetInfo>, String> {
        either!(self, b => b.s.second_leg_targets(from, victim))
    }
    /// Every legal move with its details.
    pub fn move_details(&mut self) -> Vec<MoveDetail> {
        either!(self, b => b.s.move_details())
    }
    /// The engine's move.
    pub fn search(&mut self, movetime_ms: u32, depth: Option<u32>) -> Result<SearchInfo, String> {
        either!(self, b => b.s.search(movetime_ms, depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A variants.ini board of 20x20 with a queen on b1 and the kings on
    /// t1 and a20: the queen reaches a1, c1..s1, b2..b20, a2 and c2..t19
    /// (56 squares), the king s1, s2 and t2.
    fn big_ini(name: &str, size: usize) -> String {
        let rows: Vec<String> = std::iter::once(format!("k{}", size - 1))
            .chain((0..size - 2).map(|_| size.to_string()))
            .chain(std::iter::once(format!("1Q{}K", size - 3)))
            .collect();
        format!(
            "[{name}:chess]\nmaxFile = {size}\nmaxRank = {size}\nstartFen = {} w - - 0 1\ncastling = false\ndoubleStep = false\n",
            rows.join("/")
        )
    }

    #[test]
    fn each_variant_is_played_by_the_core_that_holds_it() {
        let chess = Session::builtin("chess").unwrap();
        assert!(matches!(chess, Either::Narrow(_)));
        let mut tenjiku = Session::builtin("tenjikushogi").unwrap();
        assert!(matches!(tenjiku, Either::Wide(_)));
        assert_eq!((tenjiku.width(), tenjiku.height()), (16, 16));
        let moves = tenjiku.legal_moves();
        let fen = tenjiku.fen();
        let mut b = Board::new("tenjikushogi", Some(&fen), false).unwrap();
        assert_eq!(b.number_legal_moves(), moves.len());
        assert_eq!(b.perft(1).unwrap(), moves.len() as u64);
        assert!(variants().split(' ').any(|n| n == "tenjikushogi"));
        assert!(builtin_variants().iter().any(|v| v.name == "tenjikushogi"));
        assert_eq!(starting_fen("tenjikushogi").unwrap(), fen);
        assert_eq!(validate_fen(&fen, "tenjikushogi", false).unwrap(), 1);
        // a move played and taken back
        let first = moves[0].clone();
        tenjiku.play(&first).unwrap();
        assert_eq!(tenjiku.undo(), Some(first));
        assert_eq!(tenjiku.fen(), fen);
    }

    #[test]
    fn a_definition_too_large_for_the_narrow_core_goes_to_the_wide_one() {
        let ini = big_ini("big20wasm", 20);
        let mut s = Session::from_definition(&ini, Format::Ini, None).unwrap();
        assert!(matches!(s, Either::Wide(_)));
        assert_eq!(s.legal_moves().len(), 56 + 3);
        let t = s.targets("b1").unwrap();
        assert_eq!(t.len(), 56);
        // loaded by name: a Board of it, then the name loaded again small goes back
        load_variant_config(&ini).unwrap();
        let mut b = Board::new("big20wasm", None, false).unwrap();
        assert!(matches!(b, Either::Wide(_)));
        assert_eq!(b.number_legal_moves(), 56 + 3);
        assert!(variants().ends_with("big20wasm"));
        load_variant_config(&big_ini("big20wasm", 8)).unwrap();
        let mut b = Board::new("big20wasm", None, false).unwrap();
        assert!(matches!(b, Either::Narrow(_)));
        // on 8x8 (king on h1): a1, c1..g1, b2..b8, a2, c2..h7: 1 + 5 + 7 + 1 + 6 = 20; the king g1, g2, h2
        assert_eq!(b.number_legal_moves(), 20 + 3);
        assert_eq!(variants().matches("big20wasm").count(), 1);
        // an error in either core loads nothing
        assert!(load_variant_config("[broken:nonesuch]\n").is_err());
        assert!(Session::from_definition("[big40:chess]\nmaxFile = 40\n", Format::Ini, None).is_err());
    }
}
