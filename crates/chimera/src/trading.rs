//! Chu Shogi's rules against trading Lions, as Mighty Lion Chess uses them.
//! They restrict captures *of* Lions, so they are a legality filter applied
//! on top of either legality method.

use crate::compile::Cell;
use crate::moves::{Move, MoveKind};
use crate::piece::Code;
use crate::position::Position;
use crate::square::{Square, NO_SQUARE};
use crate::walk::Visitor;

/// Finds a capture onto (or a locust capture of) one square.
struct SquareHit {
    sq: Square,
}

impl Visitor for SquareHit {
    #[inline(always)]
    fn quiet(&mut self, _pos: &Position, _code: Code, _from: Square, c: &Cell) -> bool {
        c.victim == self.sq && c.flags & crate::compile::SPECIAL == 0
    }
    #[inline(always)]
    fn capture(&mut self, _pos: &Position, _code: Code, _from: Square, c: &Cell) -> bool {
        c.to == self.sq || c.victim == self.sq
    }
    #[inline(always)]
    fn en_passant(&mut self, _pos: &Position, _from: Square, _c: &Cell) -> bool {
        false
    }
}

impl Position {
    /// True if a piece of the side to move can capture the piece on `sq`
    /// (pseudo-legally: pinned pieces count; royal pieces count if `royals`).
    pub fn square_attacked_by_side_to_move(&mut self, sq: Square, royals: bool) -> bool {
        let us = self.side;
        let mut hit = SquareHit { sq };
        let v = self.variant().clone();
        for i in 0..self.lists[us.index()].len {
            let psq = self.lists[us.index()].sq[i];
            if !royals && v.royal[self.board[psq]] {
                continue;
            }
            if psq != sq && self.walk_piece(psq, &mut hit) {
                return true;
            }
        }
        false
    }

    /// True if the Lion anti-trading rules forbid this pseudo-legal move.
    pub fn lion_rules_forbid(&mut self, m: Move) -> bool {
        let v = self.variant().clone();
        let Some(rules) = &v.def.rules.lion_trading else {
            return false;
        };
        let (from, to) = (m.from(), m.to());
        let victim = match m.kind() {
            MoveKind::Locust | MoveKind::EnPassant => m.extra(),
            _ => NO_SQUARE,
        };
        // a swap (`u`) takes nothing
        let at_to = if to != from && !m.is_unload() { self.board[to] } else { Code::EMPTY };
        let at_victim = if victim != NO_SQUARE { self.board[victim] } else { Code::EMPTY };
        let at_second = || self.second_victim_of(m).map_or(Code::EMPTY, |s| self.board[s]);
        let takes_lion = v.lion[at_to] || v.lion[at_victim] || v.lion[at_second()];
        if !takes_lion {
            return false;
        }
        let mover = self.board[from];
        if !v.lion[mover.index()] {
            // counterstrike: a non-Lion may not take a Lion right after a Lion was taken by a non-Lion
            return self.counterstrike;
        }
        // a Lion taking a Lion: restricted when the Lion is not adjacent and no bridge was taken
        if !v.lion[at_to] {
            return false; // the Lion was taken on the way, not on the destination: not restricted
        }
        let g = self.geometry();
        let adjacent = (g.file_of(from) - g.file_of(to)).abs() <= 1 && (g.rank_of(from) - g.rank_of(to)).abs() <= 1;
        let bridge = |code: Code| !code.is_empty() && v.bridge[code];
        if adjacent || bridge(at_victim) || bridge(at_second()) {
            return false;
        }
        // the capturing Lion must not be attacked afterwards
        let undo = self.make(m);
        let attacked = self.square_attacked_by_side_to_move(to, rules.king_protects);
        self.unmake(m, &undo);
        attacked
    }
}
