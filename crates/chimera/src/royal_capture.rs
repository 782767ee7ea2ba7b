//! Finding a capture of a royal piece: the visitor that walks an opponent's
//! trajectories and stops at the first one that takes a royal piece of the
//! colour looked for, on its destination or as a locust victim on the way.
//! The reference legality test ([`crate::legal`]) and the incremental check
//! test ([`crate::check`]) both use it, so it is a module of its own.

use crate::compile::{Cell, AUX_EP_CREATE, AUX_VICTIM2, SPECIAL};
use crate::piece::Code;
use crate::position::Position;
use crate::square::{Color, Square, NO_SQUARE};
use crate::walk::Visitor;

/// Finds a capture of a royal piece of one colour.
pub(crate) struct RoyalHit {
    /// The colour bit (0 or 1) of the royal pieces looked for.
    pub(crate) target: Color,
}

impl RoyalHit {
    #[inline(always)]
    fn hits(&self, pos: &Position, sq: Square) -> bool {
        let code = pos.board[sq];
        code.is_color(self.target) && pos.variant().royal[code]
    }

    /// Whether the cell's second locust victim, if it has one, is a royal piece looked for.
    #[inline(always)]
    fn hits_second(&self, pos: &Position, c: &Cell) -> bool {
        c.flags & SPECIAL != 0 && c.aux & AUX_VICTIM2 != 0 && self.hits(pos, pos.variant().tables.second_victim(c))
    }
}

impl Visitor for RoyalHit {
    #[inline(always)]
    fn quiet(&mut self, pos: &Position, _code: Code, _from: Square, c: &Cell) -> bool {
        // a locust move that ends on an empty square still captures its victims
        c.victim != NO_SQUARE
            && !(c.flags & SPECIAL != 0 && c.aux & AUX_EP_CREATE != 0)
            && (self.hits(pos, c.victim) || self.hits_second(pos, c))
    }
    #[inline(always)]
    fn capture(&mut self, pos: &Position, _code: Code, _from: Square, c: &Cell) -> bool {
        self.hits(pos, c.to) || (c.victim != NO_SQUARE && (self.hits(pos, c.victim) || self.hits_second(pos, c)))
    }
    #[inline(always)]
    fn en_passant(&mut self, pos: &Position, _from: Square, _c: &Cell) -> bool {
        self.hits(pos, pos.ep_victim)
    }
}
