//! Move text in Fairy-Stockfish's UCI notation: `e2e4`, `e7e8q`, `P@e5`,
//! the Janggi pass `e2e2`, multi-leg moves `d4e5,e5f6` (with two victims on
//! the way, as XBoard and HaChu write them: `g6g7,g7g8,g8g9`), and Seirawan gating
//! `b1c3h` (castling with gating on the rook's square: `h1e1h`). A piece
//! with a dressed id (docs/variant-format.md, "Piece ids") is named with its
//! mark: `L'@e5`, `e7e8l!`.

use crate::moves::{Move, MoveKind};
use crate::piece::Code;
use crate::position::Position;
use std::fmt;

/// An error reading a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The text that was read.
    pub text: String,
    /// The position it was read in, as a FEN.
    pub fen: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move '{}' in {}: {}", self.text, self.fen, self.message)
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// Writes a move in UCI notation.
    pub fn move_text(&self, m: Move) -> String {
        let g = self.geometry();
        let mut s = String::with_capacity(8);
        match m.kind() {
            MoveKind::Drop => {
                // White's letter, whoever drops (P@e5), with its dress (L'@e5)
                self.push_letter(m.code(), true, &mut s);
                s.push('@');
                g.write_square(m.to(), &mut s);
            }
            MoveKind::Locust => {
                // one leg to each victim, then one to the destination:
                // d4e5,e5f6 or, with two victims, g6g7,g7g8,g8g9
                let mut at = m.from();
                for victim in std::iter::once(m.extra()).chain(m.second_victim(&g)) {
                    g.write_square(at, &mut s);
                    g.write_square(victim, &mut s);
                    s.push(',');
                    at = victim;
                }
                g.write_square(at, &mut s);
                g.write_square(m.to(), &mut s);
                if m.locust_promotes() {
                    s.push('+'); // d4e5,e5f6+
                }
            }
            MoveKind::Castle if self.castle_written_onto_rook(m) => {
                // Chess960, or a king beside its castling square (whose step
                // there is a plain move): the king's move onto its own rook (e1h1)
                g.write_square(m.from(), &mut s);
                g.write_square(m.extra(), &mut s);
            }
            _ if m.gates_on_rook() => {
                // gating on the castling rook's square: rook square, king square, piece
                g.write_square(m.extra(), &mut s);
                g.write_square(m.from(), &mut s);
            }
            kind => {
                g.write_square(m.from(), &mut s);
                g.write_square(m.to(), &mut s);
                if kind == MoveKind::Promotion {
                    let t = crate::compile::type_of(m.code());
                    if self.variant().def.pieces[t].promoted {
                        s.push('+'); // shogi style: h2c2+
                    } else {
                        self.push_letter(m.code(), false, &mut s);
                    }
                }
            }
        }
        if let Some(t) = m.gate() {
            let p = &self.variant().def.pieces[t];
            crate::definition::push_token(&mut s, p.letter.to_ascii_lowercase(), 0, p.dress);
        }
        s
    }

    /// The letter of a piece code in move text, in one case, with its dress
    /// mark (`L'`) or as its two-letter ID (`(FD)`), but without `+` or `~`.
    fn push_letter(&self, code: Code, upper: bool, s: &mut String) {
        let p = &self.variant().def.pieces[crate::compile::type_of(code)];
        let letter = if upper { p.letter.to_ascii_uppercase() } else { p.letter.to_ascii_lowercase() };
        crate::definition::push_token(s, letter, 0, p.dress);
    }

    /// True if castle `m` is written as the king's move onto its rook, as
    /// Fairy-Stockfish writes it: in Chess960, and where the king goes one
    /// file only (a plain king step would read the same). A king that castles
    /// from its castling square without moving is written `c1c1`, as
    /// Fairy-Stockfish writes it, except in variants with a pass, where
    /// `c1c1` is the pass (Fairy-Stockfish lists both as `c1c1`): there it is
    /// written onto the rook (`c1a1`). A castle that gates on the rook's
    /// square is written from the rook instead.
    #[inline]
    fn castle_written_onto_rook(&self, m: Move) -> bool {
        let g = self.geometry();
        let stays = m.from() == m.to();
        let passes = self.variant().def.rules.pass != crate::variant::PassRule::Never;
        !m.gates_on_rook()
            && (self.chess960() || (g.file_of(m.from()) - g.file_of(m.to())).abs() == 1 || (stays && passes))
    }

    /// Reads a move in UCI notation and checks that it is legal here.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position};
    /// let mut p = Position::start(Arc::new(builtin::variant("chess").unwrap()));
    /// let m = p.parse_move("e2e4").unwrap();
    /// assert_eq!(p.move_text(m), "e2e4");
    /// assert!(p.parse_move("e2e5").is_err());
    /// ```
    pub fn parse_move(&mut self, text: &str) -> Result<Move, MoveError> {
        let err = |pos: &Position, message: String| MoveError { text: text.to_string(), fen: pos.fen(), message };
        let t = text.trim();
        if t.is_empty() {
            return Err(err(self, "empty move".into()));
        }
        if !t.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(b, b'@' | b',' | b'+' | b'=' | b'(' | b')')
                || crate::variant::DRESS_MARKS.contains(&b)
        }) {
            return Err(err(self, "a move is written like e2e4, e7e8q, P@e5, L'@e5 or d4e5,e5f6".into()));
        }
        // check the squares named exist, for a clearer message than "illegal"
        let g = self.geometry();
        for part in t.split(',') {
            let body = part.split_once('@').map(|(_, b)| b).unwrap_or(part);
            let mut rest = body;
            let mut n = 0;
            while !rest.is_empty() && n < 2 {
                match g.parse_square_prefix(rest) {
                    Some((_, r)) => {
                        rest = r;
                        n += 1;
                    }
                    None => break,
                }
            }
            if n == 0 || (!part.contains('@') && n < 2) {
                return Err(err(self, format!("'{part}' does not name squares of this board")));
            }
        }
        let moves = self.legal_moves();
        if let Some(&m) = moves.iter().find(|&&m| self.move_text(m) == t) {
            return Ok(m);
        }
        let lower = t.to_ascii_lowercase();
        if let Some(&m) = moves.iter().find(|&&m| self.move_text(m).to_ascii_lowercase() == lower) {
            return Ok(m);
        }
        // the one pass of a position may be written on any piece that can pass
        if let Some(&pass) = moves.iter().find(|m| m.kind() == MoveKind::Pass) {
            if let Some((sq, rest)) = g.parse_square_prefix(&lower) {
                if g.parse_square_prefix(rest).is_some_and(|(to, tail)| to == sq && tail.is_empty())
                    && self.passers().contains(&sq)
                {
                    return Ok(pass);
                }
            }
        }
        Err(err(self, "not a legal move in this position".into()))
    }
}
