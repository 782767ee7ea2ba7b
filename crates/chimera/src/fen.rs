//! Reading a FEN's text, the first of the three stages of reading a
//! position: parse, validate, build.
//!
//! - **Parse** ([`Setup::parse`], this module): the text is split into its
//!   fields and each is read into a typed value: the board and pockets as
//!   piece codes, the side to move, the letters of the castling field, the
//!   e.p. squares (or a counting rule's limit), the checks left, the two
//!   counters. This needs only the variant's definition (so a variant reads
//!   its own start position before its tables exist) and finds every
//!   syntax error.
//! - **Validate** ([`crate::validate`]): a strict reader refuses positions no
//!   game of the variant reaches (royal counts, royals attacking each other).
//! - **Build** ([`crate::position::Position::from_setup`]): the pieces are
//!   placed and the rights matched with the board (which king and rook a
//!   castling right names, whether a pawn can have passed an e.p. square).
//!
//! ```
//! use std::sync::Arc;
//! use chimera::{builtin, fen::{EnPassant, Setup, Validation}, position::Position};
//! let v = Arc::new(builtin::variant("chess").unwrap());
//! let fen = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3";
//! let setup = Setup::parse(&v.def, fen).unwrap();
//! assert_eq!(setup.castling, "KQkq");
//! assert_eq!(setup.en_passant, EnPassant::Square(v.geometry().parse_square("e3").unwrap()));
//! let pos = Position::from_setup(v, &setup, Validation::Strict).unwrap();
//! assert_eq!(pos.fen(), fen);
//! ```

use crate::compile::code_of;
use crate::definition::{VariantDef, MAX_POCKET};
use crate::piece::Code;
use crate::square::{Color, Square};
use std::fmt;

/// An error in a FEN, naming the field and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The FEN that was read.
    pub fen: String,
    /// The field: "board", "side to move", "castling", "en passant", "half-move clock", "move number".
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
    /// The kind of problem, in the categories of Fairy-Stockfish's FEN check.
    pub problem: FenProblem,
}

/// The kinds of problem a FEN can have, following the categories of
/// Fairy-Stockfish's `validate_fen` (see [`FenProblem::fsf_code`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenProblem {
    /// The FEN is empty.
    Empty,
    /// The board field does not fit the board (ranks, files, empty runs, too many pieces).
    Geometry,
    /// A letter that is no piece of the variant.
    PieceLetter,
    /// A promoted piece (`+X`) the variant cannot have.
    PromotedPiece,
    /// The pocket (pieces in hand).
    Pocket,
    /// The side to move.
    SideToMove,
    /// The castling (or gating, or first-move rights) field.
    Castling,
    /// The e.p. field.
    EnPassant,
    /// A side has a number of royal pieces the variant cannot reach.
    RoyalCount,
    /// Royal pieces of both sides attack each other (touching kings).
    TouchingRoyals,
    /// The half-move clock.
    HalfMoveClock,
    /// The move number.
    MoveNumber,
    /// Too many fields.
    FieldCount,
    /// The check-counting field (three-check).
    CheckCount,
    /// The counting-rule field (makruk).
    Counting,
    /// The side not to move is in check: no legal game reaches the
    /// position, and the side to move could capture a royal piece (after
    /// which no FEN of the variant could be read back).
    OpponentInCheck,
}

impl FenProblem {
    /// The code Fairy-Stockfish's `validate_fen` returns for this kind of
    /// problem (pyffish 0.0.90; 1 means a valid FEN, 0 an empty one).
    ///
    /// ```
    /// use chimera::position::FenProblem;
    /// assert_eq!(FenProblem::RoyalCount.fsf_code(), -3);
    /// ```
    pub fn fsf_code(self) -> i32 {
        match self {
            FenProblem::Empty => 0,
            FenProblem::MoveNumber => -1,
            FenProblem::HalfMoveClock => -2,
            FenProblem::RoyalCount => -3,
            FenProblem::EnPassant => -4,
            FenProblem::Castling => -5,
            FenProblem::SideToMove => -6,
            FenProblem::Pocket => -7,
            FenProblem::Geometry => -8,
            FenProblem::TouchingRoyals => -9,
            FenProblem::PieceLetter => -10,
            FenProblem::FieldCount => -11,
            FenProblem::PromotedPiece => -12,
            FenProblem::CheckCount => -13,
            FenProblem::Counting => -14,
            // pyffish 0.0.90 does not look for it: such a FEN is valid there
            // (and its legal moves capture the king)
            FenProblem::OpponentInCheck => 1,
        }
    }
}

/// How strictly the FEN reader checks a position's contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validation {
    /// Refuse positions no game of the variant can reach in the ways
    /// Fairy-Stockfish's `validate_fen` checks: a side with a number of royal
    /// pieces the variant cannot have, royals attacking each other.
    Strict,
    /// Accept any position the reader can represent (for analysis and
    /// composed problems); only the syntax and the limits are checked.
    Permissive,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // a huge FEN is shown by its start only, so that the message stays one readable line
        const SHOWN: usize = 120;
        match self.fen.char_indices().nth(SHOWN) {
            Some((cut, _)) => write!(
                f,
                "bad FEN \"{}...\" ({} bytes): {}: {}",
                &self.fen[..cut],
                self.fen.len(),
                self.field,
                self.message
            ),
            None => write!(f, "bad FEN \"{}\": {}: {}", self.fen, self.field, self.message),
        }
    }
}

impl std::error::Error for FenError {}

/// Reads the board field of a FEN (with an optional `[pocket]`) into piece codes per square.
pub fn parse_board_field(def: &VariantDef, fen: &str) -> Result<Vec<Code>, FenError> {
    let (board, _) = parse_board_and_pockets(def, fen)?;
    Ok(board)
}

pub(crate) fn fen_err(fen: &str, field: &'static str, message: impl Into<String>) -> FenError {
    let problem = match field {
        "side to move" => FenProblem::SideToMove,
        "castling" => FenProblem::Castling,
        "en passant" => FenProblem::EnPassant,
        "half-move clock" => FenProblem::HalfMoveClock,
        "move number" => FenProblem::MoveNumber,
        "checks" => FenProblem::CheckCount,
        "royal pieces" => FenProblem::RoyalCount,
        "pocket" => FenProblem::Pocket,
        _ => FenProblem::Geometry,
    };
    fen_problem(fen, field, problem, message)
}

/// A FEN error of a kind its field alone does not tell.
pub(crate) fn fen_problem(fen: &str, field: &'static str, problem: FenProblem, message: impl Into<String>) -> FenError {
    FenError { fen: fen.to_string(), field, message: message.into(), problem }
}

/// The pieces in hand: per side (White first) and piece type, how many.
pub type Pockets = [[u8; crate::width::MAX_PIECE_TYPES]; 2];

/// The e.p. field of a FEN, read but not yet matched with the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnPassant {
    /// `-`, or no field.
    None,
    /// One square: the square a double step passed.
    Square(Square),
    /// Squares run together: the passed square and the destination of a
    /// double step (`f3g4`, as Berolina writes it), the two passed squares
    /// of a triple step (`e3e4`), or the path of a three-step slide (`a3a4a5`).
    Squares(Vec<Square>),
    /// A counting rule's limit (Makruk), written where the e.p. square goes.
    CountLimit(u16),
}

/// A FEN read into typed fields: what [`Setup::parse`] finds in the text,
/// before the position is checked ([`crate::validate`]) and built
/// ([`crate::position::Position::from_setup`]). A program may also fill one
/// in itself; building checks that it fits the variant.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The text it was read from (errors name it; empty for a setup made in code).
    pub text: String,
    /// The piece code on each square (0: empty), in square order.
    pub board: Vec<Code>,
    /// The pieces in hand.
    pub pockets: Pockets,
    /// The side to move.
    pub side: Color,
    /// The castling field, empty for `-`: castling rights (`KQkq`, or
    /// Chess960 file letters), open gates (Seirawan) or first-move rights,
    /// as the variant's rules read them.
    pub castling: String,
    /// The e.p. field.
    pub en_passant: EnPassant,
    /// The checks White and Black still have to give (check counting), if the FEN says.
    pub checks_left: Option<[u8; 2]>,
    /// The half-move clock (with a count running: the plies counted).
    pub halfmove: u32,
    /// The move number (at least 1).
    pub fullmove: u32,
}

impl Setup {
    /// Reads the fields of a FEN of the variant `def`, checking the syntax
    /// of each (piece ids, ranks and files, pockets, the side to move, the
    /// e.p. squares, the counters) and nothing the board decides.
    pub fn parse(def: &VariantDef, fen: &str) -> Result<Setup, FenError> {
        let g = def.geometry;
        let (board, pockets) = parse_board_and_pockets(def, fen)?;
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        if def.rules.gating
            && fields.len() >= 2
            && fen.trim_start().splitn(3, ' ').nth(2).is_some_and(|rest| rest.starts_with(' '))
        {
            // an empty castling field ("b  - 0 16"), as Fairy-Stockfish writes
            // it for unusable gates only
            fields.insert(2, "-");
        }
        let side = match fields.get(1).copied() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(s) => return Err(fen_err(fen, "side to move", format!("expected 'w' or 'b', not '{s}'"))),
        };
        // Fairy-Stockfish writes shogi start positions as "... w 0 1", without
        // the castling and e.p. fields: read them as the two counters
        if fields.len() == 4 && fields[2].bytes().all(|b| b.is_ascii_digit()) {
            fields = vec![fields[0], fields[1], "-", "-", fields[2], fields[3]];
        }
        let castling = match fields.get(2).copied() {
            None | Some("-") => String::new(),
            Some(f) => f.to_string(),
        };
        let en_passant = match fields.get(3).copied() {
            None | Some("-") => EnPassant::None,
            Some(s) if def.rules.counting.is_some() && s.bytes().all(|b| b.is_ascii_digit()) => {
                EnPassant::CountLimit(s.parse().map_err(|_| {
                    fen_problem(fen, "en passant", FenProblem::Counting, format!("count limit '{s}' is too large"))
                })?)
            }
            Some(s) if s.len() > 3 && g.parse_square(s).is_none() => {
                let mut squares = Vec::new();
                let mut rest = s;
                while !rest.is_empty() {
                    let (sq, r) = g
                        .parse_square_prefix(rest)
                        .ok_or_else(|| fen_err(fen, "en passant", format!("'{s}' is not a list of squares")))?;
                    squares.push(sq);
                    rest = r;
                }
                EnPassant::Squares(squares)
            }
            Some(s) => EnPassant::Square(g.parse_square(s).ok_or_else(|| {
                // where the field holds the count limit, it is that which is wrong
                let problem = if def.rules.counting.is_some() { FenProblem::Counting } else { FenProblem::EnPassant };
                fen_problem(fen, "en passant", problem, format!("'{s}' is not a square"))
            })?),
        };
        // check counting: "3+3", the checks White and Black still have to give
        let mut checks_left = None;
        if let (Some(max), Some((w, b))) = (def.rules.checks, fields.get(4).and_then(|f| f.split_once('+'))) {
            let f = fields[4];
            let n = |t: &str| {
                t.parse::<u8>().ok().filter(|&n| n <= max).ok_or_else(|| {
                    fen_err(fen, "checks", format!("'{f}' is not the checks left for White and Black, each 0 to {max}"))
                })
            };
            checks_left = Some([n(w)?, n(b)?]);
            fields.remove(4);
        }
        let mut setup = Setup {
            text: fen.to_string(),
            board,
            pockets,
            side,
            castling,
            en_passant,
            checks_left,
            halfmove: 0,
            fullmove: 1,
        };
        if let Some(s) = fields.get(4) {
            setup.halfmove =
                s.parse().map_err(|_| fen_err(fen, "half-move clock", format!("'{s}' is not a number")))?;
        }
        if let Some(s) = fields.get(5) {
            let n: u32 = s.parse().map_err(|_| fen_err(fen, "move number", format!("'{s}' is not a number")))?;
            setup.fullmove = n.max(1);
        }
        if fields.len() > 6 {
            let extra = fields[6..].join(" ");
            let shown = match extra.char_indices().nth(40) {
                Some((cut, _)) => format!("{}...", &extra[..cut]),
                None => extra,
            };
            return Err(fen_problem(
                fen,
                "move number",
                FenProblem::FieldCount,
                format!("unexpected text '{shown}' after the FEN"),
            ));
        }
        Ok(setup)
    }

    /// Checks that a setup fits the variant `def` (a setup made in code may
    /// not): the board's size, every piece code, the pockets, the e.p.
    /// squares, and fields the
    /// variant's rules do not have (a castling field where nothing castles,
    /// gates or has first-move rights; a count limit; checks left).
    pub(crate) fn check_fits(&self, def: &VariantDef) -> Result<(), FenError> {
        let fen = self.text.as_str();
        let squares = def.geometry.squares();
        if self.board.len() != squares {
            return Err(fen_err(
                fen,
                "board",
                format!("the setup has {} squares, {} has {squares}", self.board.len(), def.name),
            ));
        }
        let codes = 2 + 2 * def.pieces.len();
        if let Some(&code) = self.board.iter().find(|&&c| (!c.is_empty() && c.index() < 2) || c.index() >= codes) {
            return Err(fen_problem(
                fen,
                "board",
                FenProblem::PieceLetter,
                format!("piece code {} is not a piece of {}", code.index(), def.name),
            ));
        }
        let rules = &def.rules;
        let has_field = rules.castling.is_some() || rules.gating || rules.initial_rights.is_some();
        if !has_field && !self.castling.is_empty() {
            // Fairy-Stockfish writes '-' for variants without castling; accept nothing else
            return Err(fen_err(fen, "castling", format!("{} has no castling, expected '-'", def.name)));
        }
        let ep_squares: &[Square] = match &self.en_passant {
            EnPassant::Square(sq) => std::slice::from_ref(sq),
            EnPassant::Squares(v) => v,
            _ => &[],
        };
        if let Some(sq) = ep_squares.iter().find(|&&sq| sq.index() >= squares) {
            return Err(fen_err(
                fen,
                "en passant",
                format!("square {} is not on the {}x{} board", sq.index(), def.geometry.width, def.geometry.height),
            ));
        }
        if matches!(self.en_passant, EnPassant::CountLimit(_)) && rules.counting.is_none() {
            return Err(fen_problem(
                fen,
                "en passant",
                FenProblem::Counting,
                format!("{} has no counting rule", def.name),
            ));
        }
        if let Some(left) = self.checks_left {
            if left.iter().any(|&n| n > rules.checks.unwrap_or(0)) {
                return Err(fen_err(fen, "checks", format!("{} does not count {left:?} checks", def.name)));
            }
        }
        let beyond = self.pockets.iter().any(|p| p[def.pieces.len()..].iter().any(|&n| n > 0));
        if beyond || self.pockets.iter().flatten().any(|&n| n as usize >= MAX_POCKET) {
            return Err(fen_problem(fen, "board", FenProblem::Pocket, "the pockets do not fit the variant"));
        }
        Ok(())
    }
}

pub(crate) fn parse_board_and_pockets(def: &VariantDef, fen: &str) -> Result<(Vec<Code>, Pockets), FenError> {
    let g = def.geometry;
    let field = fen
        .split_whitespace()
        .next()
        .ok_or_else(|| fen_problem(fen, "board", FenProblem::Empty, "the FEN is empty"))?;
    let mut pockets = [[0u8; crate::width::MAX_PIECE_TYPES]; 2];
    let (placement, pocket) = match field.find('[') {
        Some(i) => {
            if !field.ends_with(']') {
                return Err(fen_err(fen, "board", "a pocket '[' is not closed by ']'"));
            }
            (&field[..i], Some(&field[i + 1..field.len() - 1]))
        }
        None => (field, None),
    };
    let mut board: Vec<Code> = vec![Code::EMPTY; g.squares()];
    let rows: Vec<&str> = placement.split('/').collect();
    // a pocket may also be written as an extra rank after the last one
    let hand = def.rules.has_hand();
    let (rows, extra_pocket) = if hand && rows.len() == g.height as usize + 1 && pocket.is_none() {
        (&rows[..g.height as usize], Some(rows[g.height as usize]))
    } else {
        (&rows[..], None)
    };
    if rows.len() != g.height as usize {
        return Err(fen_err(fen, "board", format!("{} ranks, but the board has {}", rows.len(), g.height)));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = g.height as i32 - 1 - i as i32;
        let mut file = 0i32;
        let b = row.as_bytes();
        let mut k = 0;
        while k < b.len() {
            let c = b[k];
            if c.is_ascii_digit() {
                let s = k;
                while k < b.len() && b[k].is_ascii_digit() {
                    k += 1;
                }
                let n: i32 = match row[s..k].parse() {
                    Ok(n) if n <= g.width as i32 => n,
                    _ => {
                        return Err(fen_err(
                            fen,
                            "board",
                            format!(
                                "rank {}: an empty run of {} is longer than the board",
                                rank + 1,
                                if k - s > 6 { format!("{} digits", k - s) } else { row[s..k].to_string() }
                            ),
                        ))
                    }
                };
                if n == 0 {
                    return Err(fen_err(fen, "board", format!("rank {}: an empty run of 0", rank + 1)));
                }
                file += n;
                if file > g.width as i32 {
                    return Err(fen_err(fen, "board", format!("rank {} has more than {} files", rank + 1, g.width)));
                }
                continue;
            }
            if c == b'~' || crate::definition::DRESS_MARKS.contains(&c) {
                return Err(fen_err(fen, "board", format!("'{}' must follow a piece letter", c as char)));
            }
            let (c, mark) = if c == b'+' {
                k += 1;
                match b.get(k) {
                    Some(&n) if n.is_ascii_alphabetic() || n == b'(' => (n, b'+'),
                    _ => return Err(fen_err(fen, "board", "'+' must be followed by a piece letter")),
                }
            } else if b.get(k + 1) == Some(&b'~') {
                k += 1;
                (c, b'~')
            } else {
                (c, 0)
            };
            let (c, dress) = if c == b'(' {
                // a two-letter piece ID, `(FD)`, `+(fd)`
                let Some((c, d)) = crate::definition::two_letter_id(&b[k..]) else {
                    return Err(fen_err(
                        fen,
                        "board",
                        format!("rank {}: '(' must start a two-letter piece ID such as (FD) or (fd)", rank + 1),
                    ));
                };
                k += 3;
                (c, d)
            } else {
                // a dress mark after the letter (`L'`, `+L!`: HaChu's large shogis)
                match b.get(k + 1) {
                    Some(&d) if mark != b'~' && crate::definition::DRESS_MARKS.contains(&d) => {
                        k += 1;
                        (c, d)
                    }
                    _ => (c, 0),
                }
            };
            let t = def.piece_by_dressed_fen_token(c as char, mark, dress).ok_or_else(|| {
                let shown = crate::definition::token_text(c as char, mark, dress);
                let problem = if mark == b'+' && def.piece_by_dressed_token(c as char, 0, dress).is_some() {
                    FenProblem::PromotedPiece
                } else {
                    FenProblem::PieceLetter
                };
                fen_problem(fen, "board", problem, format!("'{shown}' is not a piece of {}", def.name))
            })?;
            if file >= g.width as i32 {
                return Err(fen_err(fen, "board", format!("rank {} has more than {} files", rank + 1, g.width)));
            }
            let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
            board[g.square(file, rank).unwrap().index()] = code_of(t, color);
            file += 1;
            k += 1;
        }
        if file != g.width as i32 {
            return Err(fen_err(
                fen,
                "board",
                format!("rank {} has {} files, the board has {}", rank + 1, file, g.width),
            ));
        }
    }
    for p in pocket.into_iter().chain(extra_pocket) {
        let bytes = p.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'-' {
                i += 1;
                continue;
            }
            // a letter with an optional dress mark (`L'`) or a two-letter ID
            // (`(FD)`); any other character is read alone, and named below
            let (c, dress) = match crate::definition::piece_token(&bytes[i..]) {
                Some((c, 0, dress, n)) => {
                    i += n;
                    (c as char, dress)
                }
                _ => {
                    let c = p[i..].chars().next().unwrap_or('?');
                    i += c.len_utf8();
                    (c, 0)
                }
            };
            if !hand {
                // it could not be written back, nor dropped
                return Err(fen_problem(
                    fen,
                    "board",
                    FenProblem::PieceLetter,
                    format!("pocket: {} has no pieces in hand", def.name),
                ));
            }
            let t = def.piece_by_dressed_fen_token(c, 0, dress).ok_or_else(|| {
                let shown = crate::definition::token_text(c, 0, dress);
                fen_problem(
                    fen,
                    "board",
                    FenProblem::Pocket,
                    format!("pocket: '{shown}' is not a piece of {}", def.name),
                )
            })?;
            if def.pieces[t].royal && !def.rules.drops.as_ref().is_some_and(|d| d.must_drop) {
                // only a setup phase of drops (Sittuyin) places royals from the hand
                return Err(fen_problem(
                    fen,
                    "board",
                    FenProblem::RoyalCount,
                    format!("pocket: '{c}' is a royal piece, which {} does not take from the hand", def.name),
                ));
            }
            let side = if c.is_ascii_uppercase() { 0 } else { 1 };
            if pockets[side][t] as usize >= MAX_POCKET - 1 {
                return Err(fen_problem(fen, "board", FenProblem::Pocket, "too many pieces in a pocket"));
            }
            pockets[side][t] += 1;
        }
    }
    Ok((board, pockets))
}
