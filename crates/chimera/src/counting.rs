//! The counting rules of makruk and its relatives (Fairy-Stockfish's model).
//!
//! When one side is left with few pieces and no pawns remain, the other side
//! must mate within a limit of moves that depends on the material. The count
//! never removes a legal move (reaching the limit is a draw claim), but it is
//! part of the position's FEN, so the position keeps it: the limit, and the
//! number of plies counted so far.

use crate::compile::{code_of, type_of};
use crate::piece::Code;
use crate::position::Position;
use crate::square::Color;
use crate::variant::{CountingStyle, VariantDef};

impl Position {
    /// Whether a pawn of either side is on the board (it stops at the first
    /// one found: the count is read after every move).
    fn has_pawns(&self) -> bool {
        let v = self.variant();
        (0..v.def.pieces.len()).any(|t| {
            v.def.pieces[t].pawn && self.count(code_of(t, Color::White)) + self.count(code_of(t, Color::Black)) > 0
        })
    }

    fn count_all(&self, c: Color) -> u32 {
        self.pieces(c).len() as u32
    }

    /// The count limit (in moves) for `side` counting, 0 if it may not count.
    fn count_limit(&self, side: Color) -> u32 {
        let v = self.variant();
        let Some(rule) = &v.def.rules.counting else { return 0 };
        let other = side.flip();
        let n = |t: usize| self.count(code_of(t, other)) as u32;
        // pieces' honour: the limit by the strongest pieces the other side has:
        // two rooks, a rook, two khons, two knights, a khon, anything else
        let pieces_honour = |limits: [u32; 6]| {
            let (r, k, n) = (n(rule.rook), n(rule.khon), n(rule.knight));
            let i = if r > 1 {
                0
            } else if r == 1 {
                1
            } else if k > 1 {
                2
            } else if n > 1 {
                3
            } else if k == 1 {
                4
            } else {
                5
            };
            limits[i]
        };
        match rule.style {
            CountingStyle::Makruk => {
                if self.has_pawns() || self.count_all(other) == 1 {
                    0
                } else if self.count_all(side) > 1 {
                    64 // board's honour
                } else {
                    pieces_honour([8, 16, 22, 32, 44, 64])
                }
            }
            CountingStyle::Cambodian => {
                if self.count_all(side) > 3 || self.count_all(other) == 1 {
                    0
                } else if self.count_all(side) > 1 {
                    63 // board's honour
                } else if self.has_pawns() {
                    0
                } else {
                    pieces_honour([7, 15, 21, 31, 43, 63])
                }
            }
            CountingStyle::Asean => {
                if self.has_pawns() || self.count_all(side) > 1 {
                    0
                } else if n(rule.rook) > 0 {
                    16
                } else if n(rule.khon) > 0 {
                    44
                } else if n(rule.knight) > 0 {
                    64
                } else {
                    0
                }
            }
        }
    }

    /// Updates the count after a move; `captured` are the codes taken (0 for
    /// none), `promotion` whether the move promoted. The side to move has
    /// already been switched.
    pub(crate) fn update_counting(&mut self, captured: [Code; 2], promotion: bool) {
        let Some(style) = self.variant().def.rules.counting.as_ref().map(|r| r.style) else { return };
        if style != CountingStyle::Cambodian && self.has_pawns() {
            // under these rules no side may count while a pawn is left
            // (count_limit is 0), and a count once started is kept
            return;
        }
        let stm = self.side;
        let mover = stm.flip();
        let pieces = &self.variant().def.pieces;
        let took_pawn = captured.iter().any(|&c| !c.is_empty() && pieces[type_of(c)].pawn);
        let took = captured.iter().any(|&c| !c.is_empty());
        if style != CountingStyle::Asean
            && took_pawn
            && self.count_all(mover) == 1
            && !self.has_pawns()
            && self.count_limit(mover) > 0
        {
            self.counting_limit = 2 * self.count_limit(mover) as u16;
            self.counting_ply = (2 * (self.count_all(Color::White) + self.count_all(Color::Black)) - 1) as u16;
        }
        if (self.counting_limit == 0 || ((took || promotion) && self.count_all(stm) == 1)) && self.count_limit(stm) > 0
        {
            self.counting_limit = 2 * self.count_limit(stm) as u16;
            self.counting_ply = if style == CountingStyle::Asean || self.count_all(stm) > 1 {
                0
            } else {
                (2 * (self.count_all(Color::White) + self.count_all(Color::Black))) as u16
            };
        }
    }
}

/// The points the second player (Black; Janggi's Han) receives in a point
/// count, in the units of the piece values (centipawns): one and a half
/// points of 100, so that a count is never tied.
pub const SECOND_PLAYER_POINTS: i64 = 150;

/// Whether a variant counts points when a game ends by rule or by
/// repetition (see [`Position::point_count_winner`]): every non-royal piece
/// type has points or a value in the definition.
pub fn counts_points(def: &VariantDef) -> bool {
    def.pieces.iter().all(|p| p.royal || p.points.is_some() || p.value.is_some())
}

impl Position {
    /// The point count that decides a Janggi game ended by rule (two passes
    /// in a row, bikjang) or by repetition: each side scores the values its
    /// definition gives its pieces on the board and in hand (Janggi: chariot
    /// 13, cannon 7, horse 5, elephant and guard 3, soldier 2, written as
    /// centipawns; a piece's `points` replace its value here), Black adds
    /// [`SECOND_PLAYER_POINTS`], and the higher score wins. `None` when some
    /// non-royal piece type has neither points nor a value in the
    /// definition: such a variant does not count points, and a game ended
    /// by rule is drawn.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position, square::Color};
    /// let v = Arc::new(builtin::variant("janggi").unwrap());
    /// // kings only: Han's one and a half points win
    /// let p = Position::from_fen(v.clone(), "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1").unwrap();
    /// assert_eq!(p.point_count_winner(), Some(Color::Black));
    /// // a chariot (13) against five soldiers (10 + 1.5)
    /// let p = Position::from_fen(v, "4k4/9/9/p1p1p1p1p/9/9/9/9/4K4/R8 w - - 0 1").unwrap();
    /// assert_eq!(p.point_count_winner(), Some(Color::White));
    /// ```
    pub fn point_count_winner(&self) -> Option<Color> {
        let def = &self.variant().def;
        if !counts_points(def) {
            return None;
        }
        let pieces = &def.pieces;
        let points = |p: &crate::variant::PieceType| p.points.or(p.value);
        let mut score = [0i64; 2];
        for c in [Color::White, Color::Black] {
            for &sq in self.pieces(c) {
                score[c.index()] += points(&pieces[type_of(self.piece_at(sq))]).unwrap_or(0) as i64;
            }
            for (t, p) in pieces.iter().enumerate() {
                score[c.index()] += self.pocket(c, t) as i64 * points(p).unwrap_or(0) as i64;
            }
        }
        score[1] += SECOND_PLAYER_POINTS;
        Some(if score[0] > score[1] { Color::White } else { Color::Black })
    }
}
