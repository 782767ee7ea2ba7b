//! The ffish.js-style API in plain Rust: module functions (variants, start
//! FENs, FEN validation with pyffish's codes, variants.ini loading, PGN
//! reading) and [`Board`], a game with ffish.js's method set. The bindings
//! in the crate root convert these values to JavaScript ones.
//!
//! Where ffish.js returns a list as one string of words separated by spaces
//! (`legalMoves`, `moveStack`, `variants`, `mainlineMoves`), so does this
//! API. Unlike ffish.js, a bad FEN or an illegal move is an error (thrown in
//! JavaScript), not a `false`.

use super::lib::outcome::{self, GameEnd};
use super::lib::pgn;
use super::lib::position::Position;
use super::lib::san::Notation;
use super::lib::square::Color;
use super::lib::variant::{Variant, VariantDef};
use super::lib::{builtin, validate};
use super::session::Session;
use crate::types::PgnGame;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The notations by pyffish's and ffish.js's numbers (`NOTATION_DEFAULT` = 0 ...).
pub const NOTATIONS: [Notation; 10] = [
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

/// The notation of a number (0 to 9, as [`NOTATIONS`]); `None` is the default.
pub fn notation(code: Option<u32>) -> Result<Notation, String> {
    let code = code.unwrap_or(0);
    NOTATIONS
        .get(code as usize)
        .copied()
        .ok_or_else(|| format!("unknown notation {code}: use 0 to {}", NOTATIONS.len() - 1))
}

thread_local! {
    /// Variants loaded by [`load_variant_config`], by name, in load order.
    static USER: RefCell<BTreeMap<String, VariantDef>> = const { RefCell::new(BTreeMap::new()) };
    static ORDER: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// A variant by name: one loaded by [`load_variant_config`], else a built-in one.
pub fn variant(name: &str, chess960: bool) -> Result<Variant, String> {
    let name = name.trim();
    let mut def = match USER.with(|u| u.borrow().get(name).cloned()) {
        Some(d) => d,
        None => builtin::variant(name).map_err(|e| e.to_string())?.def,
    };
    if chess960 {
        if let Some(c) = def.rules.castling.as_mut() {
            c.chess960 = true;
        }
    }
    Variant::new(def).map_err(|e| format!("{name}: {e}"))
}

/// The names of every variant: built-in ones, then loaded ones, separated by spaces.
pub fn variants() -> String {
    let names = builtin::playable_names().iter().map(|s| s.to_string()).collect();
    ORDER.with(|o| crate::types::name_list(names, &o.borrow()))
}

/// The start FEN of a variant.
pub fn starting_fen(name: &str) -> Result<String, String> {
    Ok(Position::start(Arc::new(variant(name, false)?)).fen())
}

/// pyffish's validation code of `fen` in a variant: 1 for a valid FEN, 0
/// for an empty one, a negative code for the first fault found.
pub fn validate_fen(fen: &str, name: &str, chess960: bool) -> Result<i32, String> {
    if fen.trim().is_empty() {
        return Ok(0);
    }
    Ok(validate::fsf_validation_code(&Arc::new(variant(name, chess960)?), fen))
}

/// Whether this build plays the variant `name`: one loaded into it by
/// [`load_variant_config`], or a built-in one its board and types fit.
pub fn holds(name: &str) -> bool {
    let name = name.trim();
    USER.with(|u| u.borrow().contains_key(name)) || builtin::definition(name).is_ok()
}

/// Forgets the variant `name` loaded into this build (the other build holds it now).
pub fn forget(name: &str) {
    USER.with(|u| u.borrow_mut().remove(name));
    ORDER.with(|o| o.borrow_mut().retain(|n| n != name));
}

/// Loads the variants of a Fairy-Stockfish variants.ini text (each one
/// compiled, so that its errors are reported here); a variant of the same
/// name loaded before is replaced. Returns the names loaded; on an error
/// nothing is loaded, and the error says whether the text needs a larger
/// build (a board or a set of types beyond this one's limits).
pub fn load_variant_config(text: &str) -> Result<Vec<String>, (String, bool)> {
    use super::lib::loader::{compile, definitions, Format};
    let defs = definitions(text, "variants.ini", Format::Ini).map_err(|e| (e.to_string(), e.is_too_large()))?;
    compile(&defs).map_err(|e| (e.to_string(), false))?;
    let names = defs.iter().map(|d| d.name.clone()).collect();
    for d in defs {
        ORDER.with(|o| {
            let mut o = o.borrow_mut();
            if !o.contains(&d.name) {
                o.push(d.name.clone());
            }
        });
        USER.with(|u| u.borrow_mut().insert(d.name.clone(), d));
    }
    Ok(names)
}

/// Whether captured pieces go to the capturer's hand in a variant.
pub fn captures_to_hand(name: &str) -> Result<bool, String> {
    Ok(variant(name, false)?.def.rules.drops.as_ref().is_some_and(|d| d.captures_to_hand))
}

/// Reads the first game of a PGN text (variants by their `Variant` tag:
/// built-in ones and those loaded by [`load_variant_config`]).
pub fn read_game_pgn(text: &str) -> Result<PgnGame, String> {
    let mut lookup = |tag: Option<&str>| -> Result<Arc<Variant>, String> {
        let name = match tag {
            None => "chess".to_string(),
            Some(t) => {
                let t = t.trim();
                if USER.with(|u| u.borrow().contains_key(t)) {
                    t.to_string()
                } else {
                    pgn::variant_name(t).ok_or_else(|| format!("unknown variant '{t}'"))?.to_string()
                }
            }
        };
        variant(&name, false).map(Arc::new)
    };
    let g = pgn::read_games_with(text, &mut lookup)
        .into_iter()
        .next()
        .ok_or("the PGN text holds no game")?
        .map_err(|e| e.to_string())?;
    Ok(PgnGame {
        tags: g.tags.clone(),
        moves: g.uci_moves(),
        san: g.moves().iter().map(|m| m.san.clone()).collect(),
        variant: g.variant.name().to_string(),
        start_fen: g.start.fen(),
        result: g.result.as_str().to_string(),
    })
}

/// A game with ffish.js's methods.
pub struct Board {
    /// The game (also what `ChimeraGame` wraps).
    pub s: Session,
    chess960: bool,
}

impl Board {
    /// A game of variant `name` (built-in or loaded) from `fen`, or from its
    /// start position.
    pub fn new(name: &str, fen: Option<&str>, chess960: bool) -> Result<Board, String> {
        let mut s = Session::from_variant(variant(name, chess960)?);
        if let Some(f) = fen.map(str::trim).filter(|f| !f.is_empty()) {
            s.set_fen(f)?;
        }
        Ok(Board { s, chess960 })
    }

    /// Whether the game uses Chess960 castling.
    pub fn is_960(&self) -> bool {
        self.chess960
    }

    /// The legal moves in UCI notation, separated by spaces.
    pub fn legal_moves(&mut self) -> String {
        self.s.legal_moves().join(" ")
    }

    /// The legal moves in notation `n`, separated by spaces.
    pub fn legal_moves_san(&mut self, n: Notation) -> String {
        let all = self.s.position().san_all(n);
        all.into_iter().map(|(_, s)| s).collect::<Vec<_>>().join(" ")
    }

    /// The number of legal moves.
    pub fn number_legal_moves(&mut self) -> usize {
        self.s.position_mut().legal_moves().len()
    }

    /// Plays a legal move in UCI notation (also once the game is over by a
    /// claimable rule, as ffish.js lets one play on).
    pub fn push(&mut self, uci: &str) -> Result<(), String> {
        self.s.push_unchecked(uci).map(|_| ())
    }

    /// Plays a move in notation `n` (or SAN, LAN, UCI).
    pub fn push_san(&mut self, san: &str, n: Notation) -> Result<(), String> {
        let m = self.s.position_mut().parse_san(san, n).map_err(|e| e.to_string())?;
        let uci = self.s.position().move_text(m);
        self.push(&uci)
    }

    /// Plays moves in UCI notation separated by spaces; on an error the
    /// game is left as it was.
    pub fn push_moves(&mut self, moves: &str) -> Result<(), String> {
        let n = self.s.history().len();
        for (i, m) in moves.split_whitespace().enumerate() {
            if let Err(e) = self.push(m) {
                self.undo_to(n);
                return Err(format!("move {} of the list: {e}", i + 1));
            }
        }
        Ok(())
    }

    /// Plays moves in notation `n` separated by spaces (move numbers
    /// skipped); on an error the game is left as it was.
    pub fn push_san_moves(&mut self, moves: &str, n: Notation) -> Result<(), String> {
        let ms = self.s.position().parse_san_line(moves, n).map_err(|e| e.to_string())?;
        // parse_san_line read them one after the other: each is legal in turn
        let mut p = self.s.position().clone();
        let mut ucis = Vec::with_capacity(ms.len());
        for m in ms {
            ucis.push(p.move_text(m));
            p.make(m);
        }
        self.push_moves(&ucis.join(" "))
    }

    fn undo_to(&mut self, n: usize) {
        while self.s.history().len() > n {
            self.s.undo();
        }
    }

    /// A legal move in UCI notation, in notation `n`.
    pub fn san_move(&mut self, uci: &str, n: Notation) -> Result<String, String> {
        let m = self
            .s
            .position_mut()
            .parse_move(uci.trim())
            .map_err(|e| format!("illegal move '{}': {}", e.text, e.message))?;
        Ok(self.s.position().san(m, n))
    }

    /// Moves in UCI notation, played from here, in notation `n`, with move
    /// numbers (`1. e4 e5 2. Nf3`, `1...e5` when Black begins) or without.
    pub fn variation_san(&mut self, moves: &str, n: Notation, move_numbers: bool) -> Result<String, String> {
        let list: Vec<&str> = moves.split_whitespace().collect();
        let line = self.s.position().san_line(&list, n).map_err(|e| e.to_string())?;
        if !move_numbers || line.is_empty() {
            return Ok(line);
        }
        let mut number = self.fullmove_number();
        let mut white = self.turn();
        let mut out = Vec::new();
        for (i, san) in line.split(' ').enumerate() {
            if white {
                out.push(format!("{number}. {san}"));
            } else if i == 0 {
                out.push(format!("{number}...{san}"));
            } else {
                out.push(san.to_string());
            }
            if !white {
                number += 1;
            }
            white = !white;
        }
        Ok(out.join(" "))
    }

    /// Whether White is to move.
    pub fn turn(&self) -> bool {
        self.s.position().side_to_move() == Color::White
    }

    /// The FEN's move number.
    pub fn fullmove_number(&self) -> u32 {
        self.s.fen().split_whitespace().last().and_then(|f| f.parse().ok()).unwrap_or(1)
    }

    /// Plies since the last capture or pawn move (the FEN's clock).
    pub fn halfmove_clock(&self) -> u32 {
        self.s.position().halfmove_clock()
    }

    /// Plies since the game's first move 1 (as the FEN's move number counts).
    pub fn game_ply(&self) -> u32 {
        2 * (self.fullmove_number().max(1) - 1) + u32::from(!self.turn())
    }

    /// How the game has ended, or may be ended (claimable ends only with
    /// `claim_draw`).
    pub fn end(&mut self, claim_draw: bool) -> Option<GameEnd> {
        let (pos, hist) = self.s.position_and_history();
        outcome::game_end(pos, hist).filter(|e| claim_draw || !e.claimable)
    }

    /// The result: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub fn result(&mut self, claim_draw: bool) -> &'static str {
        self.end(claim_draw).map_or("*", |e| e.result.as_str())
    }

    /// Whether side `white` (or Black) lacks the material to mate.
    pub fn has_insufficient_material(&self, white: bool) -> bool {
        self.s.position().insufficient_material()[usize::from(!white)]
    }

    /// Whether neither side can mate.
    pub fn is_insufficient_material(&self) -> bool {
        self.s.position().insufficient_material() == [true, true]
    }

    /// The moves played, UCI, separated by spaces.
    pub fn move_stack(&self) -> String {
        self.s.history().join(" ")
    }

    /// The pieces in a side's hand as lower-case letters, one per piece
    /// (`"ppn"`), as ffish.js writes them.
    pub fn pocket(&self, white: bool) -> String {
        let color = if white { "white" } else { "black" };
        let mut out = String::new();
        for h in self.s.hands().into_iter().filter(|h| h.color == color) {
            for _ in 0..h.count {
                out.push_str(&h.piece.to_lowercase());
            }
        }
        out
    }

    /// The board as text: one line per rank from the top, a piece's FEN
    /// letter or `.` per square, separated by spaces.
    pub fn to_text(&self) -> String {
        let (w, h) = (self.s.width() as usize, self.s.height() as usize);
        let cells = self.s.board();
        let mut rows = Vec::with_capacity(h);
        for rank in (0..h).rev() {
            let row: Vec<String> = (0..w)
                .map(|file| {
                    let c = &cells[rank * w + file];
                    if c.wall {
                        "*".to_string()
                    } else {
                        c.piece.clone().unwrap_or_else(|| ".".to_string())
                    }
                })
                .collect();
            rows.push(row.join(" "));
        }
        rows.join("\n")
    }

    /// The number of leaf positions `depth` plies deep (1 to
    /// [`MAX_PERFT_DEPTH`]).
    pub fn perft(&mut self, depth: u32) -> Result<u64, String> {
        if depth == 0 || depth > MAX_PERFT_DEPTH {
            return Err(format!("the depth must be 1 to {MAX_PERFT_DEPTH}, not {depth}"));
        }
        Ok(super::lib::perft::perft(self.s.position_mut(), depth as usize))
    }

    /// The variant's name.
    pub fn variant(&self) -> &str {
        self.s.variant_name()
    }
}

/// The deepest perft [`Board::perft`] runs.
pub const MAX_PERFT_DEPTH: u32 = 8;

#[cfg(test)]
mod tests {
    use super::*;

    fn board(name: &str) -> Board {
        Board::new(name, None, false).unwrap()
    }

    #[test]
    fn module_functions() {
        assert!(variants().split(' ').any(|v| v == "xiangqi"));
        assert_eq!(starting_fen("chess").unwrap(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(starting_fen("nonesuch").is_err());
        assert_eq!(validate_fen("", "chess", false).unwrap(), 0);
        assert_eq!(
            validate_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "chess", false).unwrap(),
            1
        );
        assert!(validate_fen("8/8/8/8/8/8/8/8 w - - 0 1", "chess", false).unwrap() < 0);
        assert!(captures_to_hand("crazyhouse").unwrap() && !captures_to_hand("chess").unwrap());
        load_variant_config("[nightriders:chess]\nknight = -\ncustomPiece1 = n:NN\n").unwrap();
        assert!(variants().ends_with("nightriders"));
        let mut b = Board::new("nightriders", None, false).unwrap();
        // 16 pawn moves; the nightrider on b1 rides a3 and c3-d5-e7 (capturing), the one on g1 h3 and f3-e5-d7
        assert_eq!(b.number_legal_moves(), 24);
        assert!(load_variant_config("[broken:nonesuch]\n").is_err());
        let g = read_game_pgn("[Variant \"xiangqi\"]\n\n1. Che3 Hg8 *").unwrap();
        assert_eq!((g.variant.as_str(), g.moves.join(" ")), ("xiangqi", "h3e3 h10g8".to_string()));
        assert!(read_game_pgn("1. e5 *").is_err());
    }

    #[test]
    fn board_methods() {
        let mut b = board("chess");
        assert_eq!(b.number_legal_moves(), 20);
        b.push_moves("e2e4 e7e5").unwrap();
        assert!(b.push_moves("g1f3 e5e4 a1a1").is_err());
        assert_eq!(b.move_stack(), "e2e4 e7e5", "a failed list leaves the game as it was");
        b.push_san("Nf3", Notation::Default).unwrap();
        assert_eq!(b.variation_san("b8c6 f1b5", Notation::Default, true).unwrap(), "2...Nc6 3. Bb5");
        assert_eq!(b.variation_san("b8c6 f1b5", Notation::Lan, false).unwrap(), "Nb8-c6 Bf1-b5");
        assert_eq!((b.fullmove_number(), b.game_ply(), b.halfmove_clock(), b.turn()), (2, 3, 1, false));
        b.s.undo();
        b.s.undo();
        b.s.undo();
        b.push_san_moves("f3 e5 g4 Qh4#", Notation::San).unwrap();
        assert_eq!(b.result(false), "0-1");
        assert_eq!(b.end(false).map(|e| e.reason), Some(outcome::Reason::Checkmate));
        assert!(b.push("e1f2").is_err());
        let mut k = Board::new("chess", Some("k7/8/8/8/8/8/8/6RK w - - 0 1"), false).unwrap();
        k.push_moves("g1g2 a8b8 g2g1 b8a8 g1g2 a8b8 g2g1 b8a8").unwrap();
        assert_eq!((k.result(false), k.result(true)), ("*", "1/2-1/2"));
        k.push("g1g2").unwrap();
        assert_eq!(k.to_text().lines().next(), Some("k . . . . . . ."));
        let mut z = Board::new("crazyhouse", Some("4k3/8/8/8/8/8/8/4K3[PPn] w - - 0 1"), false).unwrap();
        assert_eq!((z.pocket(true), z.pocket(false)), ("pp".to_string(), "n".to_string()));
        assert_eq!(z.perft(1).unwrap(), z.number_legal_moves() as u64);
        assert!(z.perft(0).is_err());
        assert!(Board::new("chess", Some("not a fen"), false).is_err());
        assert!(board("chess").san_move("e2e5", Notation::Default).is_err());
    }
}
