//! Burning (Tenjiku Shogi's Fire Demon). Active burning
//! ([`crate::variant::PieceType::burns`]): after each move of a burning piece
//! every enemy piece on the eight squares around its destination is removed,
//! royals included. Passive burning
//! ([`crate::variant::PieceType::burns_passively`]): a piece that ends its
//! move on one of the eight squares around an enemy passive burner is removed
//! after that move (after the active burning of the same move, so a burner
//! that moves next to an enemy one burns it and survives). [`Position::make`]
//! burns and records the pieces for [`Position::unmake`]; the reference
//! legality test counts a royal next to any square an enemy active burner can
//! move to as attacked, and refuses a move that burns its side's last royal
//! (the incremental test leaves such variants to it).

use crate::compile::Cell;
use crate::piece::Code;
use crate::position::Position;
use crate::square::{Color, Square, NO_SQUARE};
use crate::walk::Visitor;

impl Position {
    /// Removes the enemy pieces (of the side that just moved) around `to`;
    /// returns how many, and the hash change.
    pub(crate) fn burn_around(&mut self, to: Square) -> (u8, u64) {
        let g = self.geometry();
        let (f, r) = (g.file_of(to), g.rank_of(to));
        let them = self.side.flip();
        let nsq = g.squares();
        let (mut n, mut h) = (0u8, 0u64);
        for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            let Some(sq) = g.square(f + dx, r + dy) else { continue };
            let code = self.board[sq];
            if code.is_color(them) {
                self.burnt.push((sq, code, self.index[sq]));
                self.remove(sq);
                h ^= self.variant().z_piece[code.index() * nsq + sq.index()];
                n += 1;
            }
        }
        (n, h)
    }

    /// Removes the piece of the side to move that stands on `to` if an enemy
    /// passive burner stands next to it; returns how many (0 or 1), and the
    /// hash change.
    pub(crate) fn burn_arrival(&mut self, to: Square) -> (u8, u64) {
        let g = self.geometry();
        let code = self.board[to];
        if !code.is_color(self.side) {
            return (0, 0);
        }
        let them = self.side.flip();
        let (f, r) = (g.file_of(to), g.rank_of(to));
        let burnt = (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                (dx, dy) != (0, 0)
                    && g.square(f + dx, r + dy).is_some_and(|s| {
                        let c = self.board[s];
                        c.is_color(them) && self.variant().burns_passively[c.index()]
                    })
            })
        });
        if !burnt {
            return (0, 0);
        }
        self.burnt.push((to, code, self.index[to]));
        self.remove(to);
        (1, self.variant().z_piece[code.index() * g.squares() + to.index()])
    }

    /// Whether a burning piece of `c`'s opponent can move next to a royal
    /// piece of `c` (and burn it).
    #[cold]
    pub(crate) fn burn_threatens(&mut self, c: Color) -> bool {
        let them = c.flip().index();
        let mut hit = BurnHit { target: c };
        // by index, as the walk borrows the position (it leaves the list as it was)
        for i in 0..self.lists[them].len {
            let sq = self.lists[them].sq[i];
            if self.variant().burns[self.board[sq]] && self.walk_piece(sq, &mut hit) {
                return true;
            }
        }
        false
    }
}

/// Finds a destination next to a royal piece of one colour.
struct BurnHit {
    /// The colour bit (0 or 1) of the royal pieces looked for.
    target: Color,
}

impl BurnHit {
    fn next_to_royal(&self, pos: &Position, to: Square) -> bool {
        let g = pos.geometry();
        let (f, r) = (g.file_of(to), g.rank_of(to));
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                (dx, dy) != (0, 0)
                    && g.square(f + dx, r + dy).is_some_and(|s| {
                        let code = pos.board[s];
                        code.is_color(self.target) && pos.variant().royal[code]
                    })
            })
        })
    }
}

impl Visitor for BurnHit {
    fn quiet(&mut self, pos: &Position, _code: Code, from: Square, c: &Cell) -> bool {
        c.to != from && self.next_to_royal(pos, c.to)
    }
    fn capture(&mut self, pos: &Position, _code: Code, _from: Square, c: &Cell) -> bool {
        self.next_to_royal(pos, c.to)
    }
    fn en_passant(&mut self, pos: &Position, _from: Square, c: &Cell) -> bool {
        c.victim != NO_SQUARE && self.next_to_royal(pos, c.to)
    }
}
