//! Castling, a rule component: the castling rights a FEN's castling field
//! names and how they are written back, the castling moves, and their
//! legality from the incremental check test's attack table. Make, unmake
//! and the hash keep the rights in [`Position`] (`castling`, the rooks'
//! and kings' squares, and per square the rights a move there clears).

use crate::check::CheckInfo;
use crate::compile::code_of;
use crate::fen::{fen_err, FenError};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::Code;
use crate::position::Position;
use crate::square::{Color, Square, NO_SQUARE};
use crate::width::FileSet;

/// The squares a castling king passes on its way from `from` to `to`, in
/// that order, neither end included (none when the king stays, as it may
/// in Chess960).
pub(crate) fn castle_transit(from: Square, to: Square) -> impl Iterator<Item = Square> {
    let step: i32 = if to > from { 1 } else { -1 };
    let n = (to.index() as i32 - from.index() as i32).abs() - 1;
    (1..=n.max(0)).map(move |k| from.offset((k * step) as isize))
}

impl Position {
    /// Reads the castling rights of a FEN's castling field (`KQkq`, or
    /// Chess960 rook files; with gating, gate letters among them): finds the
    /// king and rook each right names, marks them unmoved, and opens the
    /// gates a right implies. The castling pieces are unmoved only if a
    /// right says so.
    pub(crate) fn read_castling_rights(&mut self, castling_field: &str, fen: &str) -> Result<(), FenError> {
        let Some(cast) = self.variant.def.rules.castling.clone() else {
            return Ok(());
        };
        let variant = self.variant.clone();
        let g = variant.geometry();
        for c in [Color::White, Color::Black] {
            // the castling pieces are virgin only if a right says so
            let king = code_of(cast.king, c);
            let is_rook = |code: Code| cast.rooks.iter().any(|&t| code_of(t, c) == code);
            for sq in g.all_squares() {
                if self.board[sq] == king || is_rook(self.board[sq]) {
                    self.set_virgin(sq, false);
                }
            }
        }
        if !castling_field.is_empty() {
            for ch in castling_field.chars() {
                // the side, and (Chess960) the file of the rook a letter names
                let (color, wing, rook_file) = match ch {
                    'K' => (Color::White, Some(0), None),
                    'Q' => (Color::White, Some(1), None),
                    'k' => (Color::Black, Some(0), None),
                    'q' => (Color::Black, Some(1), None),
                    _ if cast.chess960
                        && ch.is_ascii_alphabetic()
                        && ch.to_ascii_lowercase() < (b'a' + g.width) as char =>
                    {
                        let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
                        (color, None, Some((ch.to_ascii_lowercase() as u8 - b'a') as i32))
                    }
                    _ if variant.def.rules.gating => {
                        self.read_gate(ch).map_err(|m| fen_err(fen, "castling", m))?;
                        continue;
                    }
                    _ if cast.chess960 => {
                        return Err(fen_err(
                            fen,
                            "castling",
                            format!("'{ch}' is neither one of KQkq nor a file of this board"),
                        ))
                    }
                    _ => return Err(fen_err(fen, "castling", format!("'{ch}' is not one of KQkq"))),
                };
                let king = code_of(cast.king, color);
                let is_rook = |code: Code| cast.rooks.iter().any(|&t| code_of(t, color) == code);
                // a Chess960 right names only its rook: with several kings of
                // that side (fuzzed FENs) the king it belongs to, and so its
                // wing, could not be read back the way it was written
                if cast.chess960 && (0..g.squares()).filter(|&s| self.board[s] == king).count() > 1 {
                    return Err(fen_err(
                        fen,
                        "castling",
                        format!("right '{ch}' is ambiguous: Chess960 castling needs a single king of that side"),
                    ));
                }
                // the king the right belongs to: with several (a fuzzed FEN, or a
                // promotion to king), the first that can castle on that side,
                // a king two or more files from its castling square before
                // one beside it or on it
                let mut found = Err(fen_err(fen, "castling", format!("right '{ch}' but no king of that side")));
                let kings = g.all_squares().filter(|&s| self.board[s] == king);
                for (near_pass, ksq) in [false, true].into_iter().flat_map(|n| kings.clone().map(move |k| (n, k))) {
                    let rank = g.rank_of(ksq);
                    let kf = g.file_of(ksq);
                    let rook_at = |f: i32| g.square(f, rank).filter(|&s| is_rook(self.board[s]));
                    // a named rook decides the wing by its side of the king
                    let wing = match (wing, rook_file) {
                        (Some(w), _) => w,
                        (None, Some(f)) if f > kf => 0,
                        (None, Some(f)) if f < kf => 1,
                        _ => continue,
                    };
                    let dest = if wing == 0 { cast.kingside_file } else { cast.queenside_file } as i32;
                    if near_pass != (!cast.chess960 && (kf - dest).abs() < 2) {
                        continue;
                    }
                    let rsq = match rook_file {
                        Some(f) => rook_at(f),
                        None if wing == 0 => (kf + 1..g.width as i32).rev().find_map(rook_at),
                        None => (0..kf).find_map(rook_at),
                    };
                    match rsq {
                        Some(rsq) => {
                            found = Ok((ksq, rsq, color.index() * 2 + wing));
                            break;
                        }
                        None if found.is_err() => {
                            found = Err(fen_err(
                                fen,
                                "castling",
                                match rook_file {
                                    Some(_) => format!("right '{ch}' but no rook on that file beside a king"),
                                    None => format!("right '{ch}' but no rook on that side of the king"),
                                },
                            ))
                        }
                        None => {}
                    }
                }
                let (ksq, rsq, right) = found?;
                if self.castling & (1 << right) != 0 {
                    return Err(fen_err(fen, "castling", format!("'{ch}' is given twice")));
                }
                self.castling |= 1 << right;
                self.castle_rook[right] = rsq;
                self.castle_king[right] = ksq;
                self.castle_clear[ksq.index()] |= if color == Color::White { 3 } else { 12 };
                self.castle_clear[rsq] |= 1 << right;
                self.set_virgin(ksq, true);
                self.set_virgin(rsq, true);
                if variant.def.rules.gating {
                    // a castling right also opens the gates of the king and the rook
                    for s in [ksq, rsq] {
                        if g.rank_of(s) == self.gate_rank(color) {
                            self.gates[color.index()] |= (1 as FileSet) << g.file_of(s);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Writes `c`'s castling rights as a FEN's castling field does: `K`
    /// and `Q` (lower case for Black), or with Chess960 rules the rooks'
    /// files (Shredder-FEN), as Fairy-Stockfish writes them.
    pub(crate) fn write_castling_rights(&self, c: Color, chess960: bool, s: &mut String) {
        let g = self.geometry();
        for (bit, ch) in [(0, 'K'), (1, 'Q')] {
            let right = 2 * c.index() + bit;
            if self.castling & (1 << right) != 0 {
                // Chess960 names the rook's file (Shredder-FEN), as Fairy-Stockfish writes it
                let ch = if chess960 { (b'A' + g.file_of(self.castle_rook[right]) as u8) as char } else { ch };
                s.push(if c == Color::White { ch } else { ch.to_ascii_lowercase() });
            }
        }
    }

    /// Whether the variant castles by Chess960 rules (rights name their
    /// rooks; castling is written as the king's move onto its rook).
    #[inline]
    pub fn chess960(&self) -> bool {
        self.variant.def.rules.castling.as_ref().is_some_and(|c| c.chess960)
    }

    /// The castling rook's landing square for a castle with the king going
    /// `from` → `to` and the rook starting on `rook`: the square beside the
    /// king's, on the side the king came from (in Chess960 the king may not
    /// move at all, so the rook's side decides).
    #[inline]
    pub fn castle_rook_target(from: Square, to: Square, rook: Square) -> Square {
        if rook > from {
            to.offset(-1)
        } else {
            to.offset(1)
        }
    }

    /// The castling moves of the side to move whose squares between king
    /// and rook, and whose destinations, are empty (the attacked squares
    /// are the legality test's: [`Position::castle_legal_with`]).
    pub(crate) fn generate_castling(&self, list: &mut MoveList) {
        let Some(cast) = &self.variant().def.rules.castling else {
            return;
        };
        let us = self.side;
        let g = self.geometry();
        for side in 0..2 {
            let right = us.index() * 2 + side;
            if self.castling & (1 << right) == 0 {
                continue;
            }
            let rsq = self.castle_rook[right];
            // the king the right belongs to (a right is lost when its king
            // moves, so it is still there)
            let ksq = self.castle_king[right];
            if ksq == NO_SQUARE || self.board[ksq] != crate::compile::code_of(cast.king, us) {
                continue;
            }
            // the squares between king and rook must be empty in any case:
            // most positions fail here, before the destinations are computed
            let (a, b) = (ksq.min(rsq), ksq.max(rsq));
            if (a.index() + 1..b.index()).any(|s| !self.board[s].is_empty()) {
                continue;
            }
            let rank = g.rank_of(ksq);
            let kto = g.square(if side == 0 { cast.kingside_file } else { cast.queenside_file } as i32, rank).unwrap();
            let rto = Position::castle_rook_target(ksq, kto, rsq);
            let lo = ksq.min(kto).min(rsq).min(rto);
            let hi = ksq.max(kto).max(rsq).max(rto);
            if (lo.index()..=hi.index()).map(Square::new).all(|s| s == ksq || s == rsq || self.board[s].is_empty()) {
                list.push_quiet(Move::new(ksq, kto, rsq, MoveKind::Castle));
            }
        }
    }

    /// Castling by the attack table: the king may not castle out of check,
    /// through a square an enemy capture reaches, or into check.
    ///
    /// The table was computed with the king lifted, which is the board the
    /// reference test sees for a transit square (the king stands there, its
    /// own square is empty; a transit square holding the castling rook has
    /// the rook lifted and the king put there, so it stays occupied), and an
    /// attack on a square does not depend on what stands on it. After the
    /// move only the rook's squares (and the king's destination) changed, so
    /// the trajectories recorded there are re-run on the board after castling.
    /// A destination the table shows attacked may still be safe when the
    /// rook's new square blocks the attack: that case, and a locust that could
    /// start on the way, is left to the reference test.
    pub(crate) fn castle_legal_with(&mut self, m: Move, info: &CheckInfo) -> bool {
        let (from, to, rsq) = (m.from(), m.to(), m.extra());
        if from != info.royal {
            return self.is_legal_reference(m); // a castling king that is not royal
        }
        if info.in_check {
            return false;
        }
        if !info.in_zone(from) || !info.in_zone(to) {
            return self.is_legal_reference(m); // squares whose attacks were not all counted
        }
        for sq in castle_transit(from, to) {
            if !self.board[sq].is_empty() && sq != rsq {
                continue; // as the reference test: only empty squares and the rook's are tested
            }
            if info.uncertain[sq] {
                return self.is_legal_reference(m);
            }
            if info.attack[sq] > 0 {
                return false;
            }
        }
        if info.uncertain[to] || info.attack[to] > 0 {
            return self.is_legal_reference(m);
        }
        let rto = Position::castle_rook_target(from, to, rsq);
        let (king, rook) = (self.board[from], self.board[rsq]);
        let (old_to, old_rto) = (self.board[to], self.board[rto]);
        self.board[from] = Code::EMPTY;
        self.board[rsq] = Code::EMPTY;
        self.board[to] = king;
        self.board[rto] = rook;
        // (a square named twice is re-run twice: harmless, and rare)
        let illegal = self.rerun_lists_castling(info, &[rsq, rto, to]);
        self.board[rto] = old_rto;
        self.board[to] = old_to;
        self.board[rsq] = rook;
        self.board[from] = king;
        !illegal
    }
}
