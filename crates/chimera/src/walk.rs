//! The one walker over the compiled trajectory tables, shared by move
//! generation, the check test, the legality test's royal-capture search and
//! every other reader of a piece's moves.
//!
//! The walker reads cells from the flat table of the piece's (code, virginity,
//! square) list. On an empty square it may stop (a non-capture) and continues
//! with the next cell; on an occupied square it may capture and continues at
//! the occupied fork, if the cell has one. Everything variant-specific was
//! decided when the tables were compiled. What the walk finds goes to a
//! `Visitor`: the move buffer's filler, or a search for one capture.

use crate::compile::{
    box_overlap, is_ray, ray_len, ray_square, type_of, Cell, Reach, Tables, AUX_NO_CAPTURE, AUX_NO_FRIEND_ROYAL,
    AUX_NO_HOP, AUX_TAME, CAPTURE, EMPTY_BOX, EMPTY_CHILD, EP, FRIEND, OCC_FOE, OCC_FRIEND, QUIET, SPECIAL,
};
use crate::piece::Code;
use crate::position::Position;
use crate::square::{Color, Square, NO_SQUARE};

/// Receives what a walk finds. Implemented by the move buffer filler and by
/// the royal-capture detector; both are static types, so calls are inlined.
pub(crate) trait Visitor {
    /// A move ending on an empty square (`cell.to`); `victim` is a locust victim or NO_SQUARE.
    /// Returns true to stop the walk.
    fn quiet(&mut self, pos: &Position, code: Code, from: Square, cell: &Cell) -> bool;
    /// A move capturing the piece on `cell.to` (an enemy, or a friend for `d`).
    fn capture(&mut self, pos: &Position, code: Code, from: Square, cell: &Cell) -> bool;
    /// An en-passant capture onto `cell.to`.
    fn en_passant(&mut self, pos: &Position, from: Square, cell: &Cell) -> bool;
}

impl Position {
    /// Walks one list of cells for the piece `code` on `from`. Returns true if the visitor stopped it.
    #[inline(always)]
    pub(crate) fn walk<V: Visitor>(&self, cells: &[Cell], code: Code, from: Square, v: &mut V) -> bool {
        self.walk_range(cells, 0, cells.len(), code, from, v)
    }

    /// Walks the cells from `start` until the walk leaves `start..end` (one subtree, or the whole list).
    #[inline(always)]
    pub(crate) fn walk_range<V: Visitor>(
        &self,
        cells: &[Cell],
        start: usize,
        end: usize,
        code: Code,
        from: Square,
        v: &mut V,
    ) -> bool {
        self.walk_within::<V, false>(cells, &[], EMPTY_BOX, start, end, code, from, v)
    }

    /// [`Position::walk_range`]; with `PRUNE`, a subtree whose reach box
    /// (`reach`, parallel to `cells`) misses the box `zone` is not walked:
    /// the walk visits only the cells that can end in `zone`, and the
    /// captures there are the ones the whole walk would find.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn walk_within<V: Visitor, const PRUNE: bool>(
        &self,
        cells: &[Cell],
        reach: &[Reach],
        zone: Reach,
        start: usize,
        end: usize,
        code: Code,
        from: Square,
        v: &mut V,
    ) -> bool {
        let us = code.bits() & 1;
        let board = &self.board;
        let n = end;
        let mut i = start;
        while i < n {
            let c = &cells[i];
            if PRUNE && !box_overlap(reach[i], zone) {
                i = c.next as usize;
                continue;
            }
            let occ = board[c.to];
            if occ.is_empty() {
                if c.flags & QUIET != 0 && v.quiet(self, code, from, c) {
                    return true;
                }
                if c.flags & EP != 0 && (c.to == self.ep || c.to == self.ep2) && v.en_passant(self, from, c) {
                    return true;
                }
                // a ray cell's first square is read as a leaf's (it has no
                // occupied fork); on an empty one the ray goes on
                i = if c.flags & EMPTY_CHILD != 0 {
                    i + 1
                } else {
                    if is_ray(c) && self.walk_ray(c, code, from, v) {
                        return true;
                    }
                    c.next as usize
                };
            } else {
                let foe = (occ.bits() & 1) != us;
                let (may_take, fork) = if foe {
                    (c.flags & CAPTURE != 0, c.flags & OCC_FOE != 0)
                } else {
                    // a friend may be captured (`d`), never a royal one (fuzz finding 26)
                    (c.flags & FRIEND != 0 && !self.variant().royal[occ.index()], c.flags & OCC_FRIEND != 0)
                };
                let (may_take, fork) =
                    if c.flags & SPECIAL != 0 { self.special(code, c, occ, may_take, fork) } else { (may_take, fork) };
                if may_take && v.capture(self, code, from, c) {
                    return true;
                }
                i = if fork { c.occ as usize } else { c.next as usize };
            }
        }
        false
    }

    /// Walks the piece on `sq` toward `zone`: nothing when the reach box of
    /// its list misses the zone, else [`Position::walk_within`] over its
    /// list, with the piece lifted from the board while it walks when the list
    /// asks for it. Returns `None` if the piece was skipped, else whether the
    /// visitor stopped the walk and whether the list may give one move twice
    /// (the caller's `dedup`).
    #[inline(always)]
    pub(crate) fn walk_piece_within<V: Visitor>(
        &mut self,
        tables: &Tables,
        sq: Square,
        zone: Reach,
        v: &mut V,
    ) -> Option<(bool, bool)> {
        let idx = self.list_index_at(sq);
        if !box_overlap(tables.list_box[idx], zone) {
            return None;
        }
        let code = self.board[sq];
        let l = tables.lists[idx];
        let range = l.start as usize..l.start as usize + l.len as usize;
        let (cells, reach) = (&tables.cells[range.clone()], &tables.reach[range]);
        if l.lift {
            self.board[sq] = Code::EMPTY;
        }
        let found = self.walk_within::<_, true>(cells, reach, zone, 0, cells.len(), code, sq, v);
        if l.lift {
            self.board[sq] = code;
        }
        Some((found, l.dedup))
    }

    /// Walks a [`crate::compile::Tables::countable`] list of the piece
    /// `code` on `from` and counts its moves instead of visiting them: the
    /// captures and the non-captures, returned in that order. It meets the
    /// squares [`Position::walk`] meets, and in such a list each cell that
    /// walk would visit is one move. An e.p. capture goes to `v`.
    #[inline(always)]
    pub(crate) fn count_plain<V: Visitor>(
        &self,
        cells: &[Cell],
        code: Code,
        from: Square,
        v: &mut V,
    ) -> (usize, usize) {
        let us = code.bits() & 1;
        let board = &self.board;
        let (mut captures, mut quiets) = (0usize, 0usize);
        // the e.p. flag of a cell matters only while there is an e.p. square
        let ep_flag = if self.ep == NO_SQUARE && self.ep2 == NO_SQUARE { 0 } else { EP };
        let mut i = 0usize;
        while i < cells.len() {
            let c = &cells[i];
            let occ = board[c.to];
            if occ.is_empty() {
                quiets += (c.flags & QUIET != 0) as usize;
                if c.flags & ep_flag != 0 && (c.to == self.ep || c.to == self.ep2) {
                    v.en_passant(self, from, c);
                }
                i = if c.flags & EMPTY_CHILD != 0 {
                    i + 1
                } else {
                    if is_ray(c) {
                        let (k, q) = self.count_ray(c, code);
                        captures += k;
                        quiets += q;
                    }
                    c.next as usize
                };
            } else {
                let foe = (occ.bits() & 1) != us;
                captures += (foe && c.flags & CAPTURE != 0) as usize;
                let fork = c.flags & if foe { OCC_FOE } else { OCC_FRIEND } != 0;
                i = if fork { c.occ as usize } else { c.next as usize };
            }
        }
        (captures, quiets)
    }

    /// [`Position::count_plain`] for a ray cell from its second square on.
    #[inline(always)]
    fn count_ray(&self, c: &Cell, code: Code) -> (usize, usize) {
        let us = code.bits() & 1;
        let len = ray_len(c);
        for k in 1..len {
            let occ = self.board[ray_square(c, k).to];
            if !occ.is_empty() {
                let capture = (occ.bits() & 1) != us && c.flags & CAPTURE != 0;
                let quiets = if c.flags & QUIET != 0 { k - 1 } else { 0 };
                return (capture as usize, quiets);
            }
        }
        (0, if c.flags & QUIET != 0 { len - 1 } else { 0 })
    }

    /// Walks a ray cell ([`is_ray`]) on from its second square: quiet moves
    /// while the squares are empty, then a capture on the first occupied one.
    #[inline(always)]
    fn walk_ray<V: Visitor>(&self, c: &Cell, code: Code, from: Square, v: &mut V) -> bool {
        let us = code.bits() & 1;
        for k in 1..ray_len(c) {
            let cell = ray_square(c, k);
            let occ = self.board[cell.to];
            if occ.is_empty() {
                if c.flags & QUIET != 0 && v.quiet(self, code, from, &cell) {
                    return true;
                }
            } else {
                let may_take = if (occ.bits() & 1) != us {
                    c.flags & CAPTURE != 0
                } else {
                    c.flags & FRIEND != 0 && !self.variant().royal[occ.index()]
                };
                return may_take && v.capture(self, code, from, &cell);
            }
        }
        false
    }

    #[cold]
    pub(crate) fn special(&self, code: Code, c: &Cell, occ: Code, may_take: bool, fork: bool) -> (bool, bool) {
        let t = &self.variant().tables;
        let victim = type_of(occ);
        let may_take = may_take && !(c.aux & AUX_NO_CAPTURE != 0 && t.no_capture[code].contains(victim));
        let fork = fork && !(c.aux & AUX_NO_HOP != 0 && t.no_hop[code].contains(victim));
        let royal = self.variant().royal[occ.index()];
        // a tame piece (`t`) captures no royal; a capture of a friend on the way (`d`) spares a royal one
        let may_take = may_take && !(c.aux & AUX_TAME != 0 && royal);
        let fork = fork && !(c.aux & AUX_NO_FRIEND_ROYAL != 0 && royal && (occ.bits() ^ code.bits()) & 1 == 0);
        (may_take, fork)
    }

    /// Walks every list of one piece, lifting it off its square when a path may come back to it.
    #[inline(always)]
    pub(crate) fn walk_piece<V: Visitor>(&mut self, sq: Square, v: &mut V) -> bool {
        let code = self.board[sq];
        let variant = self.variant().clone();
        let (cells, l) = variant.tables.list(code, self.is_virgin(sq), sq);
        if l.lift {
            self.board[sq] = Code::EMPTY;
            let r = self.walk(cells, code, sq, v);
            self.board[sq] = code;
            r
        } else {
            self.walk(cells, code, sq, v)
        }
    }

    /// True if a piece of `c` could capture en passant on `ep` (the victim
    /// standing on `victim`), ignoring whether that leaves its royal attacked.
    pub(crate) fn ep_capturable(&mut self, c: Color, ep: Square, victim: Square) -> bool {
        struct EpFound;
        impl Visitor for EpFound {
            fn quiet(&mut self, _: &Position, _: Code, _: Square, _: &Cell) -> bool {
                false
            }
            fn capture(&mut self, _: &Position, _: Code, _: Square, _: &Cell) -> bool {
                false
            }
            fn en_passant(&mut self, _: &Position, _: Square, _: &Cell) -> bool {
                true
            }
        }
        let idx = c.index() * self.geometry().squares() + ep.index();
        if self.variant.ep_sources[idx].is_empty() {
            return false;
        }
        let (old_ep, old_victim) = (self.ep, self.ep_victim);
        self.ep = ep;
        self.ep_victim = victim;
        let mut found = false;
        for k in 0..self.variant.ep_sources[idx].len() {
            let s = self.variant.ep_sources[idx][k];
            let code = self.board[s];
            if code.is_empty() || code.color() != c {
                continue;
            }
            let lift = self.variant.tables.list(code, self.is_virgin(s), s).1.lift;
            found = if lift {
                self.walk_piece(s, &mut EpFound)
            } else {
                // no Arc clone here: this runs on every double step
                let variant = &*self.variant;
                let (cells, _) = variant.tables.list(code, self.is_virgin(s), s);
                self.walk(cells, code, s, &mut EpFound)
            };
            if found {
                break;
            }
        }
        self.ep = old_ep;
        self.ep_victim = old_victim;
        found
    }
}

/// What stands on a square, as [`reach`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Occupant {
    /// An empty square.
    Empty = 0,
    /// A friend, or any piece the walking piece may not take.
    Friend = 1,
    /// An enemy the walking piece may take.
    Foe = 2,
}

/// Walks the trajectory list `cells` of a piece standing on `from` over a
/// board that `occupant` describes, and calls `hit(to, capture)` for every
/// non-capture to an empty square and every capture, once per path (a
/// square that two paths reach is hit twice). The walk follows the cells as
/// the generator does: an empty square goes on with the next cell where the
/// cell has an empty child, an occupied one forks to the cell's `occ` subtree
/// where the cell allows it. The piece's own square counts as empty (a Lion
/// turning in place), and a move back to it is not reported. The rules the
/// generator adds to special cells (hopping limits, tame captures, e.p.) are
/// not applied: this is the walk an evaluation uses to count mobility and
/// attacks, on boards of its own making as well as real ones.
///
/// ```
/// use chimera::{builtin, compile::code_of, square::Color, walk::{reach, Occupant}};
/// let v = builtin::variant("chess").unwrap();
/// let g = v.geometry();
/// let rook = code_of(v.def.piece_by_letter('r').unwrap(), Color::White);
/// let a1 = g.square(0, 0).unwrap();
/// let (cells, _) = v.tables.list(rook, false, a1);
/// // an enemy on a3, everything else empty: a2, a3 (a capture) and b1..h1
/// let a3 = g.square(0, 2).unwrap();
/// let (mut quiet, mut captures) = (0, 0);
/// reach(cells, a1, |sq| if sq == a3 { Occupant::Foe } else { Occupant::Empty }, |_, capture| {
///     if capture { captures += 1 } else { quiet += 1 }
/// });
/// assert_eq!((quiet, captures), (8, 1));
/// ```
#[inline(always)]
pub fn reach(cells: &[Cell], from: Square, occupant: impl Fn(Square) -> Occupant, hit: impl FnMut(Square, bool)) {
    reach_guarding(cells, from, occupant, hit, |_| {});
}

/// [`reach`], and besides `guard(sq)` for every friend the walk meets on a
/// square where it could capture (a piece it defends: were the friend an
/// enemy, the walk would report a capture there), once per path.
///
/// ```
/// use chimera::{builtin, compile::code_of, square::Color, walk::{reach_guarding, Occupant}};
/// let v = builtin::variant("chess").unwrap();
/// let g = v.geometry();
/// let rook = code_of(v.def.piece_by_letter('r').unwrap(), Color::White);
/// let a1 = g.square(0, 0).unwrap();
/// let (cells, _) = v.tables.list(rook, false, a1);
/// // a friend on a3 and one on c1: both guarded, nothing beyond them reached
/// let (a3, c1) = (g.square(0, 2).unwrap(), g.square(2, 0).unwrap());
/// let (mut moves, mut guarded) = (0, Vec::new());
/// reach_guarding(
///     cells,
///     a1,
///     |sq| if sq == a3 || sq == c1 { Occupant::Friend } else { Occupant::Empty },
///     |_, _| moves += 1,
///     |sq| guarded.push(sq),
/// );
/// assert_eq!(moves, 2); // a2, b1
/// guarded.sort();
/// assert_eq!(guarded, vec![c1, a3]);
/// ```
#[inline(always)]
pub fn reach_guarding(
    cells: &[Cell],
    from: Square,
    occupant: impl Fn(Square) -> Occupant,
    mut hit: impl FnMut(Square, bool),
    mut guard: impl FnMut(Square),
) {
    let mut i = 0usize;
    while i < cells.len() {
        let c = &cells[i];
        let occ = if c.to == from { Occupant::Empty } else { occupant(c.to) };
        match occ {
            Occupant::Empty => {
                if c.flags & QUIET != 0 && c.to != from {
                    hit(c.to, false);
                }
                i = if c.flags & EMPTY_CHILD != 0 { i + 1 } else { c.next as usize };
                if is_ray(c) {
                    // the rest of the ray (which never passes the origin)
                    for k in 1..ray_len(c) {
                        let cell = ray_square(c, k);
                        match occupant(cell.to) {
                            Occupant::Empty => {
                                if c.flags & QUIET != 0 {
                                    hit(cell.to, false);
                                }
                            }
                            Occupant::Foe => {
                                if c.flags & CAPTURE != 0 {
                                    hit(cell.to, true);
                                }
                                break;
                            }
                            Occupant::Friend => {
                                if c.flags & CAPTURE != 0 {
                                    guard(cell.to);
                                }
                                break;
                            }
                        }
                    }
                }
            }
            Occupant::Foe => {
                if c.flags & CAPTURE != 0 {
                    hit(c.to, true);
                }
                i = if c.flags & OCC_FOE != 0 { c.occ as usize } else { c.next as usize };
            }
            Occupant::Friend => {
                if c.flags & CAPTURE != 0 {
                    guard(c.to);
                }
                i = if c.flags & OCC_FRIEND != 0 { c.occ as usize } else { c.next as usize };
            }
        }
    }
}
