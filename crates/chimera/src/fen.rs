//! Reading a FEN's text: the errors a FEN can have, and the board field
//! (with its pocket) read into piece codes. [`crate::position::Position::from_fen`]
//! reads the other fields, checks the position ([`crate::validate`]) and
//! builds it; this part needs only the variant's definition, so that a
//! variant can read its own start position before its tables exist.

use crate::compile::code_of;
use crate::definition::{VariantDef, MAX_POCKET};
use crate::square::Color;
use crate::width::Code;
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

pub(crate) type Pockets = [[u8; crate::width::MAX_PIECE_TYPES]; 2];

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
    let mut board: Vec<Code> = vec![0; g.squares()];
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
            board[g.square(file, rank).unwrap() as usize] = code_of(t, color);
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
