//! Promotion by the tables' promotion data ([`PromoInfo`]), a rule
//! component: where a move may promote (on arrival in the zone; shogi style
//! also from inside it; Chu Shogi's rule that a non-capture promotes only by
//! entering the zone), the promoting twins of locust moves, and Sittuyin's
//! promotions in place. The generator's filler lists the promotion choices
//! of ordinary moves with [`promotion_offered`].

use crate::compile::{Cell, PromoInfo};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::Code;
use crate::position::Position;
use crate::square::{Square, NO_SQUARE};
use crate::walk::Visitor;

/// Whether a move of a promoting piece from `from` to `to` may promote: on
/// arrival in the zone; shogi style also from inside it; Chu style a
/// non-capture only by entering the zone, a capture from or to it.
#[inline(always)]
pub(crate) fn promotion_offered(p: &PromoInfo, from: Square, to: Square, capture: bool) -> bool {
    let (into, out_of) = (p.zone[to], p.zone[from]);
    if p.chu && !capture {
        into && !out_of
    } else {
        into || (p.shogi && out_of)
    }
}

impl Position {
    /// Adds to the captures of `list` the promoting twin of each locust move
    /// by which its piece may promote (shogi style, to its one promoted
    /// type: the variant loader allows no other promotion for a piece with
    /// locust moves); where the promotion is compulsory the twin takes the
    /// plain move's place. Outside the walk, so that no other variant pays
    /// for it.
    #[cold]
    #[inline(never)]
    pub(crate) fn add_locust_promotions(&self, list: &mut MoveList) {
        let tables = &self.variant().tables;
        for i in 0..list.captures().len() {
            let m = list.capture_at(i);
            if m.kind() != MoveKind::Locust {
                continue;
            }
            if let Some(p) = &tables.promo[self.board[m.from()]] {
                if promotion_offered(p, m.from(), m.to(), true) {
                    if p.mandatory || p.stuck[m.to()] {
                        list.replace_capture(i, m.with_locust_promotion());
                    } else {
                        list.push_capture(m.with_locust_promotion());
                    }
                }
            }
        }
    }

    /// Sittuyin promotions: a piece with the in-place promotion style that
    /// stands in its zone, or is its side's only piece of its kind, may turn
    /// into a promotion choice where it stands or on an empty square the new
    /// piece could move to, provided the new piece attacks no enemy piece
    /// there. (That the move may not give check belongs to legality.)
    pub(crate) fn generate_in_place_promotions(&mut self, list: &mut MoveList) {
        let us = self.side;
        let variant = self.variant().clone();
        for i in 0..self.lists[us.index()].len {
            let from = self.lists[us.index()].sq[i];
            let code = self.board[from];
            let Some(p) = &variant.tables.promo[code] else { continue };
            if p.in_place_zone.is_empty() || !(p.in_place_zone[from] || self.count(code) == 1) {
                continue;
            }
            self.board[from] = Code::EMPTY;
            for (k, &choice) in p.choices.iter().enumerate() {
                if p.limits[k] != 255 && self.count(choice) >= p.limits[k] as u16 {
                    continue;
                }
                let mut targets = Targets { sq: [Square::new(0); crate::square::MAX_SQUARES], len: 1 };
                targets.sq[0] = from;
                let (cells, _) = variant.tables.list(choice, false, from);
                self.walk(cells, choice, from, &mut targets);
                for &to in &targets.sq[..targets.len] {
                    self.board[to] = choice;
                    let (cells, _) = variant.tables.list(choice, false, to);
                    let attacks = self.walk(cells, choice, to, &mut FoeAttacked);
                    self.board[to] = Code::EMPTY;
                    if !attacks {
                        list.push_quiet(Move::with_code(from, to, choice, MoveKind::Promotion));
                    }
                }
            }
            self.board[from] = code;
        }
    }
}

/// Collects the empty squares a piece may move to.
struct Targets {
    sq: [Square; crate::square::MAX_SQUARES],
    len: usize,
}

impl Visitor for Targets {
    fn quiet(&mut self, _: &Position, _: Code, _: Square, c: &Cell) -> bool {
        if c.victim == NO_SQUARE && !self.sq[..self.len].contains(&c.to) {
            self.sq[self.len] = c.to;
            self.len += 1;
        }
        false
    }
    fn capture(&mut self, _: &Position, _: Code, _: Square, _: &Cell) -> bool {
        false
    }
    fn en_passant(&mut self, _: &Position, _: Square, _: &Cell) -> bool {
        false
    }
}

/// Stops a walk at the first enemy piece the walker could capture.
struct FoeAttacked;

impl Visitor for FoeAttacked {
    fn quiet(&mut self, _: &Position, _: Code, _: Square, _: &Cell) -> bool {
        false
    }
    fn capture(&mut self, pos: &Position, code: Code, _: Square, c: &Cell) -> bool {
        pos.piece_at(c.to).color() != code.color()
    }
    fn en_passant(&mut self, _: &Position, _: Square, _: &Cell) -> bool {
        false
    }
}
