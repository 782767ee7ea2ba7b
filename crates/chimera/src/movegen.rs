//! Pseudo-legal move generation: the walker of [`crate::walk`] over every
//! piece of the side to move, into the move buffer, and the moves outside
//! the tables (castling, drops, gating, jump captures, passes).

use crate::check::CheckInfo;
use crate::compile::{type_of, Cell, AUX_EP_CREATE, AUX_NO_STAY, AUX_VICTIM2, SPECIAL};
use crate::moves::{Move, MoveKind, MoveList};
use crate::piece::Code;
use crate::position::Position;
use crate::promotion::promotion_offered;
use crate::square::{Color, Square, NO_SQUARE};
use crate::variant::PassRule;
use crate::walk::Visitor;

impl Position {
    /// Generates every pseudo-legal move of the side to move: moves that obey the
    /// pieces' rules, without regard to whether they leave a royal piece attacked.
    /// Castling is generated only when the squares between are empty; its
    /// attacked-square conditions belong to the legality test.
    pub fn generate_pseudo(&mut self, list: &mut MoveList) {
        list.clear();
        // moves with two victims need a closer look at their cells: a filler
        // of their own, so that no other variant's walk pays for them
        let two = self.variant().tables.two_victims();
        loop {
            if two {
                self.generate_pseudo_once(&mut Filler::<true> { list, pass_from: NO_SQUARE });
            } else {
                self.generate_pseudo_once(&mut Filler::<false> { list, pass_from: NO_SQUARE });
            }
            if !list.overflowed() {
                break;
            }
            list.clear_and_grow();
        }
    }

    /// Perft's last ply: the plain moves (no promotion, no locust victim, no
    /// special cell, no gating) whose legality [`CheckInfo::plain_legal`]
    /// decides from `info` (computed for this position) are counted, not
    /// listed; `list` receives every other pseudo-legal move, for the full
    /// test. Returns the legal captures and non-captures so counted.
    pub(crate) fn generate_counting(&mut self, list: &mut MoveList, info: &CheckInfo) -> (usize, usize) {
        let gating = self.variant().def.rules.gating;
        if self.variant().tables.two_victims() {
            // (its filler lists moves with one victim): everything is listed
            self.generate_pseudo(list);
            return (0, 0);
        }
        list.clear();
        loop {
            let mut c = Counter {
                inner: Filler { list, pass_from: NO_SQUARE },
                info,
                direct: false,
                promotes: false,
                gating,
                n: [0, 0],
                whole_pieces: !gating && info.counts_whole_pieces(),
            };
            self.generate_pseudo_once(&mut c);
            let n = c.n;
            if !list.overflowed() {
                return (n[0], n[1]);
            }
            list.clear_and_grow();
        }
    }

    /// One pass of [`Position::generate_pseudo`] into an empty buffer.
    #[inline(always)]
    fn generate_pseudo_once<F: ListFiller>(&mut self, filler: &mut F) {
        let us = self.side;
        let variant = self.variant().clone();
        self.walk_side(&variant, filler);
        let piece_pass = filler.pass_from();
        let list = filler.list();
        if variant.after_walk {
            self.after_walk(list, false);
        }
        self.generate_castling(list);
        if variant.def.rules.gating && self.gates[us.index()] != 0 {
            self.generate_gating(list);
        }
        if variant.def.rules.drops.is_some() {
            self.generate_drops(list);
        }
        if variant.tables.in_place_promotion {
            self.generate_in_place_promotions(list);
        }
        // one pass per position: the positions after the passes of several
        // pieces are the same; a rule pass is written on the royal square,
        // a piece's pass (a Lion's step out and back) on the lowest square
        // of a piece that can pass
        let royal_pass = if variant.def.rules.pass == PassRule::Always { self.royal_square(us) } else { None };
        if let Some(k) = royal_pass.or((piece_pass != NO_SQUARE).then_some(piece_pass)) {
            list.push_quiet(Move::plain(k, k, MoveKind::Pass));
        }
    }

    /// The squares of the pieces of the side to move that can pass (step
    /// out and come back), lowest first. [`Position::generate_pseudo`] lists
    /// one pass only, written on the first of them; a pass written on any of
    /// them is read as that pass.
    pub(crate) fn passers(&mut self) -> Vec<Square> {
        let variant = self.variant().clone();
        let mut list = MoveList::new();
        let mut finder =
            PassFinder { inner: Filler::<false> { list: &mut list, pass_from: NO_SQUARE }, found: Vec::new() };
        self.walk_side(&variant, &mut finder);
        finder.found.sort_unstable();
        finder.found.dedup();
        finder.found
    }

    /// Generates the pseudo-legal captures of the side to move (including
    /// e.p., locust captures and capturing promotions), for a quiescence
    /// search. Drops, castling, passes and non-capturing moves are left out.
    pub fn generate_captures(&mut self, list: &mut MoveList) {
        list.clear();
        let variant = self.variant().clone();
        loop {
            if variant.tables.two_victims() {
                self.walk_side(&variant, &mut CaptureFiller { inner: Filler::<true> { list, pass_from: NO_SQUARE } });
            } else {
                self.walk_side(&variant, &mut CaptureFiller { inner: Filler::<false> { list, pass_from: NO_SQUARE } });
            }
            if variant.after_walk {
                self.after_walk(list, true);
            }
            if !list.overflowed() {
                break;
            }
            list.clear_and_grow();
        }
    }

    /// The captures [`Position::generate_captures`] lists that end on `sq`,
    /// in the same order, without walking the trajectories that cannot end
    /// there (each subtree's reach box, [`crate::compile::Tables::reach`],
    /// is tested first): the recaptures of a static exchange. Variants
    /// with moves of two victims or moves outside the tables (jump
    /// captures, promoting locust moves, unloading) generate every capture
    /// and keep those on `sq`.
    ///
    /// ```
    /// use chimera::{builtin, moves::MoveList, position::Position};
    /// use std::sync::Arc;
    /// let v = Arc::new(builtin::variant("chess").unwrap());
    /// let mut pos = Position::from_fen(v, "4k3/8/2n5/3p4/4P3/2N5/8/3QK3 w - - 0 1").unwrap();
    /// let d5 = pos.geometry().parse_square("d5").unwrap();
    /// let mut list = MoveList::new();
    /// pos.generate_captures_on(d5, &mut list);
    /// let mut moves: Vec<String> = list.iter().map(|m| pos.move_text(m)).collect();
    /// moves.sort();
    /// assert_eq!(moves, ["c3d5", "d1d5", "e4d5"]);
    /// ```
    pub fn generate_captures_on(&mut self, sq: Square, list: &mut MoveList) {
        let variant = self.variant().clone();
        if variant.after_walk || variant.tables.two_victims() {
            self.generate_captures(list);
            list.retain(|m| m.to() == sq);
            return;
        }
        let g = self.geometry();
        let (f, r) = (g.file_of(sq) as u8, g.rank_of(sq) as u8);
        let zone = [f, f, r, r];
        let us = self.side;
        list.clear();
        loop {
            let mut filler =
                OnSquare { inner: CaptureFiller { inner: Filler::<false> { list, pass_from: NO_SQUARE } }, sq };
            for i in 0..self.lists[us.index()].len {
                let psq = self.lists[us.index()].sq[i];
                let mark = filler.list().mark();
                if let Some((_, true)) = self.walk_piece_within(&variant.tables, psq, zone, &mut filler) {
                    filler.list().dedup_since(mark);
                }
            }
            if !list.overflowed() {
                break;
            }
            list.clear_and_grow();
        }
    }

    /// Adds the captures by jumping ([`crate::variant::PieceType::jump_capture`],
    /// Tenjiku Shogi's generals): along each of its lines, beyond the first
    /// piece (which its own moves capture), a jumping piece passes over any
    /// number of pieces of either side ranked below it and captures each
    /// enemy piece ranked below it, until a piece of its rank or higher, or
    /// the edge. Promotions as for any capture. The variant loader has every
    /// royal outrank every jumper, so these captures never reach a royal and
    /// the check test needs not follow them. Outside the walk, so that no
    /// other variant pays for it.
    #[cold]
    #[inline(never)]
    fn add_jump_captures(&self, list: &mut MoveList) {
        let variant = self.variant().clone();
        let g = self.geometry();
        let us = self.side;
        for &from in self.pieces(us) {
            let code = self.board[from];
            let Some(lines) = variant.jump_lines[code] else { continue };
            let rank = variant.jump_rank[code];
            for &(dx, dy) in lines.steps() {
                let (mut f, mut r) = (g.file_of(from) + dx, g.rank_of(from) + dy);
                let mut first = true;
                while let Some(sq) = g.square(f, r) {
                    let occ = self.board[sq];
                    if !occ.is_empty() {
                        let lower = variant.jump_rank[occ.index()] < rank;
                        if !first && lower && occ.color() != us {
                            let mark = list.captures().len();
                            Filler::<false> { list: &mut *list, pass_from: NO_SQUARE }.push(self, code, from, sq, true);
                            // a move the piece's own moves made already is not listed twice
                            let mut i = mark;
                            while i < list.captures().len() {
                                let m = list.capture_at(i);
                                if list.captures()[..mark].contains(&m) {
                                    list.remove_capture(i);
                                } else {
                                    i += 1;
                                }
                            }
                        }
                        if !lower {
                            break;
                        }
                        first = false;
                    }
                    f += dx;
                    r += dy;
                }
            }
        }
    }

    /// The moves the tables do not give as they are, added to or changed in
    /// the walk's list by the rules of [`crate::variant::Variant::after_walk`]:
    /// captures by jumping, promoting locust moves, unloading moves (removed
    /// from a list of `captures_only`).
    #[cold]
    #[inline(never)]
    fn after_walk(&self, list: &mut MoveList, captures_only: bool) {
        let variant = self.variant();
        if variant.jumpers {
            self.add_jump_captures(list);
        }
        if variant.locust_promotion {
            self.add_locust_promotions(list);
        }
        if variant.unloaders {
            self.convert_unloads(list, captures_only);
        }
    }

    /// Turns the captures the walk listed for unloading cells (`u`: the
    /// pieces of [`crate::variant::Variant::unloads_foes`] taking an enemy,
    /// of [`crate::variant::Variant::unloads_friends`] taking a friend; the
    /// compiler lets such a piece capture that side only by unloading) into
    /// swaps ([`Move::unload`]), listed with the non-captures, or with
    /// `drop_them` (a list of captures only) removes them. Outside the walk,
    /// so that no other variant pays for it.
    #[cold]
    #[inline(never)]
    fn convert_unloads(&self, list: &mut MoveList, drop_them: bool) {
        let v = self.variant();
        let mut i = 0;
        while i < list.captures().len() {
            let m = list.capture_at(i);
            let (mover, target) = (self.board[m.from()], self.board[m.to()]);
            let foe = mover.color() != target.color();
            let unloads = m.kind() == MoveKind::Normal
                && m.from() != m.to()
                && !target.is_empty()
                && if foe { v.unloads_foes[mover.index()] } else { v.unloads_friends[mover.index()] };
            if unloads {
                list.remove_capture(i);
                if !drop_them {
                    list.push_quiet(Move::unload(m.from(), m.to()));
                }
            } else {
                i += 1;
            }
        }
    }

    /// Walks every piece of the side to move into a move-buffer filler,
    /// lifting a piece whose paths come back to its square and removing the
    /// duplicates of a piece whose paths meet.
    #[inline(always)]
    fn walk_side<F: ListFiller>(&mut self, variant: &crate::variant::Variant, filler: &mut F) {
        let us = self.side;
        for i in 0..self.lists[us.index()].len {
            let sq = self.lists[us.index()].sq[i];
            let code = self.board[sq];
            let idx = self.list_index_at(sq);
            let l = variant.tables.lists[idx];
            let cells = &variant.tables.cells[l.start as usize..l.start as usize + l.len as usize];
            filler.begin_piece(variant, idx, l.dedup);
            if filler.count_piece(self, variant, idx, code, sq, cells) {
                continue;
            }
            if l.lift || l.dedup {
                let mark = filler.list().mark();
                self.walk_piece(sq, filler);
                if l.dedup {
                    filler.list().dedup_since(mark);
                }
            } else {
                self.walk(cells, code, sq, filler);
            }
        }
    }

    /// The square of a royal piece of `c`, if it has one.
    pub fn royal_square(&self, c: Color) -> Option<Square> {
        let royal = &self.variant().royal;
        self.pieces(c).iter().copied().find(|&s| royal[self.board[s]])
    }

    /// Drops from the hand of the side to move onto empty squares, within the
    /// variant's drop rules (no doubled pawns, no drops where a piece is stuck).
    fn generate_drops(&self, list: &mut MoveList) {
        let Some(rules) = &self.variant().def.rules.drops else { return };
        let us = self.side;
        let g = self.geometry();
        let tables = &self.variant().tables;
        for t in 0..self.variant().def.pieces.len() {
            if self.pockets[us.index()][t] == 0 {
                continue;
            }
            let code = crate::compile::code_of(t, us);
            let mut blocked_files = 0u64;
            if rules.no_doubled.contains(&t) {
                let mut on_file = [0u8; crate::square::MAX_FILES as usize];
                for &sq in self.pieces(us) {
                    if self.board[sq] == code {
                        let f = g.file_of(sq) as usize;
                        on_file[f] += 1;
                        if on_file[f] >= rules.no_doubled_count {
                            blocked_files |= 1 << f;
                        }
                    }
                }
            }
            for sq in g.all_squares() {
                if !self.board[sq].is_empty() || blocked_files >> g.file_of(sq) & 1 != 0 {
                    continue;
                }
                if !self.drop_zone_allows(t, us, sq) {
                    continue;
                }
                if rules.no_dead_drops && tables.list(code, false, sq).1.len == 0 {
                    continue;
                }
                if !tables.dead.is_empty() && tables.dead[code][sq] {
                    continue;
                }
                list.push_quiet(Move::with_code(sq, sq, code, MoveKind::Drop));
            }
        }
    }

    /// Whether the variant's drop zones let `c` put a piece of type `t` on
    /// `sq` (from the hand: by a drop, or by gating). A confined piece is
    /// put only inside its zone, as Fairy-Stockfish drops and gates a piece
    /// only inside its mobility region.
    #[inline]
    pub(crate) fn drop_zone_allows(&self, t: usize, c: Color, sq: Square) -> bool {
        let def = &self.variant().def;
        let g = def.geometry;
        let piece = &def.pieces[t];
        if piece.no_drop_zone.is_some_and(|z| def.zones[z].contains(&g, c, sq)) {
            return false;
        }
        let zone = def.rules.drops.as_ref().and_then(|d| d.zone);
        [zone, piece.drop_zone, piece.confine].into_iter().flatten().all(|z| def.zones[z].contains(&g, c, sq))
    }
}

/// A visitor that fills a move buffer.
trait ListFiller: Visitor {
    /// The buffer it fills.
    fn list(&mut self) -> &mut MoveList;
    /// The lowest square of a piece found passing (NO_SQUARE: none).
    fn pass_from(&self) -> Square;
    /// Called before the walk of each piece: its list's index, and whether its moves are deduplicated.
    #[inline(always)]
    fn begin_piece(&mut self, _variant: &crate::variant::Variant, _list: usize, _dedup: bool) {}
    /// Called after [`ListFiller::begin_piece`]: takes in the moves of the
    /// piece `code` on `from` (list `list`, cells `cells`) by counting them,
    /// and returns true, or returns false and leaves the piece to the walk.
    #[inline(always)]
    fn count_piece(
        &mut self,
        _pos: &Position,
        _variant: &crate::variant::Variant,
        _list: usize,
        _code: Code,
        _from: Square,
        _cells: &[Cell],
    ) -> bool {
        false
    }
}

impl<const TWO: bool> ListFiller for Filler<'_, TWO> {
    #[inline(always)]
    fn list(&mut self) -> &mut MoveList {
        self.list
    }
    #[inline(always)]
    fn pass_from(&self) -> Square {
        self.pass_from
    }
}

impl<const TWO: bool> ListFiller for CaptureFiller<'_, TWO> {
    #[inline(always)]
    fn list(&mut self) -> &mut MoveList {
        self.inner.list
    }
    #[inline(always)]
    fn pass_from(&self) -> Square {
        self.inner.pass_from
    }
}

/// A [`Filler`] for perft's last ply ([`Position::generate_counting`]).
struct Counter<'a> {
    inner: Filler<'a, false>,
    info: &'a CheckInfo,
    /// The current piece's plain moves may be counted: no deduplication, and
    /// it cannot promote, or (`promotes`) only where a promotion is offered.
    direct: bool,
    /// The current piece may promote by some move from its square: a move that may promote is listed.
    promotes: bool,
    /// The variant has gating, which adds moves after the list's: nothing is counted.
    gating: bool,
    /// The legal captures and non-captures counted.
    n: [usize; 2],
    /// Every plain move of a piece that no recorded trajectory passes is
    /// legal: out of check, the quick test applies to plain moves and
    /// double steps of both kinds, no enemy walk forks on an occupant, and
    /// no gating adds moves.
    whole_pieces: bool,
}

impl Counter<'_> {
    /// Whether the plain move (or capture) of the piece `code` that `c`
    /// ends is counted here rather than listed: a move of a piece counted
    /// directly, no locust victim, no pass, no special capture, legal by the
    /// quick test, and no promotion offered.
    #[inline(always)]
    fn counts(&self, pos: &Position, code: Code, from: Square, c: &Cell, capture: bool) -> bool {
        self.direct
            && !(capture && c.flags & SPECIAL != 0)
            && c.victim == NO_SQUARE
            && c.to != from
            && self.info.plain_legal(from, c.to, capture)
            && !(self.promotes && Counter::may_promote(pos, code, from, c.to, capture))
    }

    /// Whether the piece `code` may promote by this move (then it is listed).
    #[inline(always)]
    fn may_promote(pos: &Position, code: Code, from: Square, to: Square, capture: bool) -> bool {
        pos.variant().tables.promo[code].as_ref().is_some_and(|p| promotion_offered(p, from, to, capture))
    }
}

impl Visitor for Counter<'_> {
    #[inline(always)]
    fn quiet(&mut self, pos: &Position, code: Code, from: Square, c: &Cell) -> bool {
        if self.counts(pos, code, from, c, false) {
            self.n[1] += 1;
            return false;
        }
        self.inner.quiet(pos, code, from, c)
    }
    #[inline(always)]
    fn capture(&mut self, pos: &Position, code: Code, from: Square, c: &Cell) -> bool {
        if self.counts(pos, code, from, c, true) {
            self.n[0] += 1;
            return false;
        }
        self.inner.capture(pos, code, from, c)
    }
    #[inline(always)]
    fn en_passant(&mut self, pos: &Position, from: Square, c: &Cell) -> bool {
        self.inner.en_passant(pos, from, c)
    }
}

impl ListFiller for Counter<'_> {
    #[inline(always)]
    fn list(&mut self) -> &mut MoveList {
        self.inner.list
    }
    #[inline(always)]
    fn pass_from(&self) -> Square {
        self.inner.pass_from
    }
    #[inline(always)]
    fn begin_piece(&mut self, variant: &crate::variant::Variant, list: usize, dedup: bool) {
        self.direct = !dedup && !self.gating;
        self.promotes = variant.tables.may_promote[list];
    }
    /// A piece whose list is [`crate::compile::Tables::countable`] and that
    /// no recorded trajectory passes (it is not pinned, and no move of it
    /// can block or unblock anything: without forks, its destinations
    /// change no walk) has only legal moves: they are counted as the walk
    /// meets them, without the per-move tests. So has a piece whose square
    /// some walks pass, when they stay off the royal with the square empty
    /// and no walk of the variant forks ([`CheckInfo::leaves_safely`]).
    #[inline(always)]
    fn count_piece(
        &mut self,
        pos: &Position,
        variant: &crate::variant::Variant,
        list: usize,
        code: Code,
        from: Square,
        cells: &[Cell],
    ) -> bool {
        if !(self.whole_pieces
            && variant.tables.countable[list]
            && (self.info.piece_free(from) || self.info.leaves_safely(from)))
        {
            return false;
        }
        let (captures, quiets) = pos.count_plain(cells, code, from, &mut self.inner);
        self.n[0] += captures;
        self.n[1] += quiets;
        true
    }
}

/// A [`Filler`] that records every piece that can pass.
struct PassFinder<'a> {
    inner: Filler<'a, false>,
    found: Vec<Square>,
}

impl Visitor for PassFinder<'_> {
    #[inline(always)]
    fn quiet(&mut self, _: &Position, _: Code, from: Square, c: &Cell) -> bool {
        if c.to == from && c.victim == NO_SQUARE {
            self.found.push(from);
        }
        false
    }
    #[inline(always)]
    fn capture(&mut self, _: &Position, _: Code, _: Square, _: &Cell) -> bool {
        false
    }
    #[inline(always)]
    fn en_passant(&mut self, _: &Position, _: Square, _: &Cell) -> bool {
        false
    }
}

impl ListFiller for PassFinder<'_> {
    #[inline(always)]
    fn list(&mut self) -> &mut MoveList {
        self.inner.list
    }
    #[inline(always)]
    fn pass_from(&self) -> Square {
        self.inner.pass_from
    }
}

/// A [`Filler`] that keeps captures only.
struct CaptureFiller<'a, const TWO: bool> {
    inner: Filler<'a, TWO>,
}

impl<const TWO: bool> Visitor for CaptureFiller<'_, TWO> {
    #[inline(always)]
    fn quiet(&mut self, pos: &Position, code: Code, from: Square, c: &Cell) -> bool {
        // a quiet arrival that captures a locust victim on the way is a capture
        if c.victim != NO_SQUARE && !(c.flags & SPECIAL != 0 && c.aux & AUX_EP_CREATE != 0) {
            self.inner.quiet(pos, code, from, c);
        }
        false
    }
    #[inline(always)]
    fn capture(&mut self, pos: &Position, code: Code, from: Square, c: &Cell) -> bool {
        self.inner.capture(pos, code, from, c)
    }
    #[inline(always)]
    fn en_passant(&mut self, pos: &Position, from: Square, c: &Cell) -> bool {
        self.inner.en_passant(pos, from, c)
    }
}

/// A [`CaptureFiller`] that keeps the moves ending on one square.
struct OnSquare<'a, const TWO: bool> {
    inner: CaptureFiller<'a, TWO>,
    sq: Square,
}

impl<const TWO: bool> Visitor for OnSquare<'_, TWO> {
    #[inline(always)]
    fn quiet(&mut self, pos: &Position, code: Code, from: Square, c: &Cell) -> bool {
        c.to == self.sq && self.inner.quiet(pos, code, from, c)
    }
    #[inline(always)]
    fn capture(&mut self, pos: &Position, code: Code, from: Square, c: &Cell) -> bool {
        c.to == self.sq && self.inner.capture(pos, code, from, c)
    }
    #[inline(always)]
    fn en_passant(&mut self, pos: &Position, from: Square, c: &Cell) -> bool {
        c.to == self.sq && self.inner.en_passant(pos, from, c)
    }
}

impl<const TWO: bool> ListFiller for OnSquare<'_, TWO> {
    #[inline(always)]
    fn list(&mut self) -> &mut MoveList {
        self.inner.inner.list
    }
    #[inline(always)]
    fn pass_from(&self) -> Square {
        NO_SQUARE
    }
}

/// The locust move of a cell whose path captured on its way: one victim, or
/// two ([`AUX_VICTIM2`]; the compiler keeps the second near enough the
/// first for [`Move::locust2`]).
#[inline(never)]
fn locust_move(pos: &Position, from: Square, c: &Cell) -> Move {
    let one = Move::new(from, c.to, c.victim, MoveKind::Locust);
    if c.flags & SPECIAL != 0 && c.aux & AUX_VICTIM2 != 0 {
        let second = pos.variant().tables.second_victim(c);
        Move::locust2(from, c.to, c.victim, second, &pos.geometry()).unwrap_or(one)
    } else {
        one
    }
}

/// Fills a move buffer; `TWO`: the variant has moves with two victims on
/// the way ([`AUX_VICTIM2`]).
struct Filler<'a, const TWO: bool> {
    list: &'a mut MoveList,
    /// The lowest square of a piece found passing (NO_SQUARE: none); the
    /// pass itself is added once, after the walk.
    pass_from: Square,
}

impl<const TWO: bool> Filler<'_, TWO> {
    /// Whether the piece `code` capturing on `to` turns into the contagious
    /// piece there ([`crate::variant::Contagion`]): then it offers no
    /// promotion, since it turns whatever it would have become.
    #[inline(always)]
    fn turns(pos: &Position, code: Code, to: Square, capture: bool) -> bool {
        let v = pos.variant();
        let victim = pos.board[to];
        capture && v.contagious[victim] && !v.contagion_immune[code] && type_of(victim) != type_of(code)
    }

    #[inline(always)]
    fn push(&mut self, pos: &Position, code: Code, from: Square, to: Square, capture: bool) {
        let promo = &pos.variant().tables.promo[code];
        if let Some(p) = promo {
            if promotion_offered(p, from, to, capture) && !Self::turns(pos, code, to, capture) {
                for (k, &choice) in p.choices.iter().enumerate() {
                    if p.limits[k] != 255 && pos.count(choice) >= p.limits[k] as u16 {
                        continue;
                    }
                    let m = Move::with_code(from, to, choice, MoveKind::Promotion);
                    if capture {
                        self.list.push_capture(m)
                    } else {
                        self.list.push_quiet(m)
                    }
                }
                if p.mandatory || p.stuck[to] {
                    return;
                }
            }
        }
        if from == to {
            self.pass_from = self.pass_from.min(from);
            return;
        }
        let m = Move::plain(from, to, MoveKind::Normal);
        if capture {
            self.list.push_capture(m)
        } else {
            self.list.push_quiet(m)
        }
    }
}

impl<const TWO: bool> Visitor for Filler<'_, TWO> {
    #[inline(always)]
    fn quiet(&mut self, pos: &Position, code: Code, from: Square, c: &Cell) -> bool {
        if c.victim != NO_SQUARE {
            if c.flags & SPECIAL != 0 && c.aux & AUX_EP_CREATE != 0 {
                // a double step into the promotion zone (torpedo) promotes and creates no e.p. square
                if pos.variant().tables.promo[code].as_ref().is_some_and(|p| p.zone[c.to]) {
                    self.push(pos, code, from, c.to, false);
                } else {
                    self.list.push_quiet(Move::new(from, c.to, c.victim, MoveKind::Double));
                }
            } else {
                self.list.push_capture(if TWO {
                    locust_move(pos, from, c)
                } else {
                    Move::new(from, c.to, c.victim, MoveKind::Locust)
                });
            }
        } else {
            self.push(pos, code, from, c.to, false);
        }
        false
    }

    #[inline(always)]
    fn capture(&mut self, pos: &Position, code: Code, from: Square, c: &Cell) -> bool {
        if c.flags & SPECIAL != 0 && c.aux & AUX_NO_STAY != 0 {
            return false;
        }
        if c.victim != NO_SQUARE {
            self.list.push_capture(if TWO {
                locust_move(pos, from, c)
            } else {
                Move::new(from, c.to, c.victim, MoveKind::Locust)
            });
        } else {
            self.push(pos, code, from, c.to, true);
        }
        false
    }

    #[inline(always)]
    fn en_passant(&mut self, pos: &Position, from: Square, c: &Cell) -> bool {
        self.list.push_capture(Move::new(from, c.to, pos.ep_victim, MoveKind::EnPassant));
        false
    }
}
