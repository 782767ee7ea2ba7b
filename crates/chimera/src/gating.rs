//! Gating (Seirawan chess), a rule component: a side's open gates on its
//! first rank, read from and written to a FEN's castling field, closed by
//! the moves that touch them, hashed while they can be used, and the gating
//! moves (any move that leaves a square with an open gate may put a piece
//! from the hand there). The gated piece rides in the move
//! ([`Move::with_gate`]); make places it.

use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::square::{Color, Square};
use crate::width::FileSet;

impl Position {
    /// The hash keys of a set of gates, `[white files, black files]`.
    pub(crate) fn gate_keys(&self, gates: [FileSet; 2]) -> u64 {
        let v = &self.variant;
        let mut h = 0;
        for (c, &bits) in gates.iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                h ^= v.z_gate[c][b.trailing_zeros() as usize];
                b &= b - 1;
            }
        }
        h
    }

    /// The rank of `c`'s gates: its first rank.
    #[inline]
    pub(crate) fn gate_rank(&self, c: Color) -> i32 {
        if c == Color::White {
            0
        } else {
            self.geometry().height as i32 - 1
        }
    }

    /// True if `c` has an open gate on `sq`.
    #[inline]
    pub fn has_gate(&self, c: Color, sq: Square) -> bool {
        let g = self.geometry();
        g.rank_of(sq) == self.gate_rank(c) && self.gates[c.index()] >> g.file_of(sq) & 1 != 0
    }

    /// Whether `c`'s gates can still be used: with Seirawan's rules they close
    /// for good once the hand is empty, unless captures refill it.
    pub(crate) fn gates_usable(&self, c: Color) -> bool {
        let v = &self.variant.def.rules;
        v.drops.as_ref().is_some_and(|d| d.captures_to_hand)
            || self.pockets[c.index()][..self.variant.def.pieces.len()].iter().any(|&n| n > 0)
    }

    /// Reads one gate letter of the castling field: a file letter, upper case
    /// for White. A gate is opened only on a square with a piece of its side.
    pub(crate) fn read_gate(&mut self, ch: char) -> Result<(), String> {
        let (c, sq) =
            self.first_rank_letter(ch).ok_or_else(|| format!("'{ch}' is neither a castling right nor a gate file"))?;
        let code = self.board[sq];
        if code.is_color(c) {
            self.gates[c.index()] |= (1 as FileSet) << self.geometry().file_of(sq);
        }
        Ok(())
    }

    /// A file letter of the castling field: the side (upper case for White)
    /// and the square of that file on the side's first rank.
    pub(crate) fn first_rank_letter(&self, ch: char) -> Option<(Color, Square)> {
        let g = self.geometry();
        let c = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
        let file = (ch.to_ascii_lowercase() as i32) - ('a' as i32);
        (ch.is_ascii_alphabetic() && file < g.width as i32).then(|| (c, g.square(file, self.gate_rank(c)).unwrap()))
    }

    /// Writes `c`'s open gates as file letters, leaving out those that its
    /// castling rights already imply (the king's and the rooks' files), as
    /// Fairy-Stockfish does; nothing once the gates can no longer be used.
    pub(crate) fn write_gates(&self, c: Color, s: &mut String) {
        if self.gates[c.index()] == 0 || !self.gates_usable(c) {
            return;
        }
        let g = self.geometry();
        let mut implied: FileSet = 0;
        for side in 0..2 {
            let right = 2 * c.index() + side;
            if self.castling & (1 << right) != 0 {
                implied |= (1 as FileSet) << g.file_of(self.castle_rook[right]);
                if let Some(cast) = &self.variant.def.rules.castling {
                    let king = crate::compile::code_of(cast.king, c);
                    for f in 0..g.width as i32 {
                        let sq = g.square(f, self.gate_rank(c)).unwrap();
                        if self.board[sq] == king && self.is_virgin(sq) {
                            implied |= (1 as FileSet) << f;
                        }
                    }
                }
            }
        }
        for f in 0..g.width as u32 {
            if self.gates[c.index()] >> f & 1 != 0 && implied >> f & 1 == 0 {
                let ch = (b'a' + f as u8) as char;
                s.push(if c == Color::White { ch.to_ascii_uppercase() } else { ch });
            }
        }
    }

    /// The hash of the gates that can still be used: gates of a side whose
    /// hand is empty for good are kept (Fairy-Stockfish's FENs depend on them)
    /// but change nothing, so they are not hashed.
    pub(crate) fn gate_hash(&self) -> u64 {
        let mut gates = self.gates;
        for c in [Color::White, Color::Black] {
            if !self.gates_usable(c) {
                gates[c.index()] = 0;
            }
        }
        self.gate_keys(gates)
    }

    /// Closes the gates a move touches and, with Seirawan's rules, all of the
    /// mover's gates once its hand is empty.
    pub(crate) fn update_gates(&mut self, m: Move) {
        let us = self.side;
        let them = us.flip();
        let g = self.geometry();
        let close = |pos: &mut Position, c: Color, sq: Square| {
            if g.rank_of(sq) == pos.gate_rank(c) {
                pos.gates[c.index()] &= !((1 as FileSet) << g.file_of(sq));
            }
        };
        if m.kind() != MoveKind::Drop {
            close(self, us, m.from());
        }
        if m.kind() == MoveKind::Castle {
            close(self, us, m.extra());
        }
        close(self, them, m.to());
        if matches!(m.kind(), MoveKind::EnPassant | MoveKind::Locust) {
            // a victim taken away from the destination loses its gate too
            close(self, them, m.extra());
        }
        if let Some(vs) = self.second_victim_of(m) {
            close(self, them, vs);
        }
        if !self.gates_usable(us) {
            self.gates[us.index()] = 0;
        }
    }

    /// Adds, for every move that leaves a square with an open gate, the same
    /// move followed by gating each type in the hand onto the vacated square
    /// (for castling, onto the king's or the rook's square).
    pub(crate) fn generate_gating(&self, list: &mut MoveList) {
        let us = self.side;
        let ntypes = self.variant().def.pieces.len().min(crate::moves::MAX_GATING_TYPES);
        let hand = &self.pockets[us.index()];
        if hand[..ntypes].iter().all(|&n| n == 0) {
            return;
        }
        let (ncap, nquiet) = list.mark();
        for i in 0..ncap + nquiet {
            let capture = i < ncap;
            let m = if capture { list.capture_at(i) } else { list.quiet_at(i - ncap) };
            let kind = m.kind();
            if !matches!(kind, MoveKind::Normal | MoveKind::Double | MoveKind::Castle) {
                continue;
            }
            let mut gate_on = |on_rook: bool, sq: Square| {
                if !self.has_gate(us, sq) {
                    return;
                }
                if kind == MoveKind::Castle
                    && (sq == m.to() || sq == Position::castle_rook_target(m.from(), m.to(), m.extra()))
                {
                    return; // the king or the rook lands on the gate
                }
                for t in (0..ntypes).filter(|&t| hand[t] > 0 && self.drop_zone_allows(t, us, sq)) {
                    let gm = m.with_gate(t, on_rook);
                    if capture {
                        list.push_capture(gm);
                    } else {
                        list.push_quiet(gm);
                    }
                }
            };
            gate_on(false, m.from());
            if kind == MoveKind::Castle {
                gate_on(true, m.extra());
            }
        }
    }
}
