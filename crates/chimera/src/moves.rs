//! Moves, packed into 32 bits, and the move buffer.

use crate::piece::{Code, CodeBits};
use crate::square::{Geometry, Square, SquareBits};
use crate::width::MoveBits;
use std::fmt;

/// The bits of one square in a [`Move`]: 8 in `chimera`, 16 in `chimera-wide`.
const SQ_BITS: u32 = SquareBits::BITS;

/// Where a move's kind starts: after the origin, the destination and the extra field.
const KIND_SHIFT: u32 = 3 * SQ_BITS;

/// The one bit, after the kind, that says a gated piece goes on the rook's
/// square (or starts a locust move's second-victim code).
const HIGH_SHIFT: u32 = KIND_SHIFT + 3;

/// Where a gating move's type (plus one) starts.
const GATE_SHIFT: u32 = HIGH_SHIFT + 1;

/// The kind of a move, which says how to read its `extra` byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveKind {
    /// A plain move or capture.
    Normal = 0,
    /// A move that promotes; `extra` is the new piece code.
    Promotion = 1,
    /// An en-passant capture; `extra` is the square of the captured piece.
    EnPassant = 2,
    /// Castling; `to` is the king's destination, `extra` the rook's square.
    Castle = 3,
    /// A move that creates an e.p. square; `extra` is that square.
    Double = 4,
    /// A multi-leg move that captures on its way; `extra` is the victim's
    /// square. A second victim, if any, is in bits 27–30 (see
    /// [`Move::second_victim`]); bit 31 says that the mover promotes (see
    /// [`Move::locust_promotes`]).
    Locust = 5,
    /// A pass; `from == to`.
    Pass = 6,
    /// A drop from the pocket; `extra` is the piece code.
    Drop = 7,
}

/// A move: origin, destination, an extra field and a kind, in one integer
/// (`u32` in `chimera`, `u64` in `chimera-wide`).
///
/// With one-byte squares, bits 0–7 hold the origin, 8–15 the destination,
/// 16–23 the extra field, 24–26 the kind. Gating (Seirawan chess) uses the
/// rest: bits 28–31 hold the gated piece type plus one (0: no gating), and
/// bit 27 says that the piece is gated on the castling rook's square rather
/// than on the origin. A locust move never gates; it uses bits 27–30 for a
/// second victim, written as its offset from the first (on a square next to
/// it: [`Move::locust2`]), and bit 31 for a promotion of the mover to its one
/// promoted type ([`Move::with_locust_promotion`]). With two-byte squares
/// every field is at twice the offset, the kind at bits 48–50.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub MoveBits);

/// The most piece types a gating variant may have: a gated type is stored in
/// four bits of a [`Move`].
pub const MAX_GATING_TYPES: usize = 15;

/// How far (in files and in ranks) a locust move's second victim may stand
/// from its first: the offset is stored in four bits of a [`Move`].
pub const MAX_SECOND_VICTIM_OFFSET: i32 = 1;

/// The bits of a locust move that hold its second victim's code.
const SECOND_VICTIM_BITS: MoveBits = 0xf << HIGH_SHIFT;

/// The bit that marks an unloading move ([`Move::unload`]): a plain move
/// (kind 0) with the gate's rook-square bit and no gate.
const UNLOAD_BIT: MoveBits = 1 << HIGH_SHIFT;

/// The bit of a locust move that says the mover promotes.
const LOCUST_PROMOTION_BIT: MoveBits = 1 << (GATE_SHIFT + 3);

/// The four-bit code of a second victim's offset from the first (1..=8), or
/// `None` when it is too far or the same square.
#[inline]
pub fn second_victim_code(dx: i32, dy: i32) -> Option<MoveBits> {
    let r = MAX_SECOND_VICTIM_OFFSET;
    if dx.abs() > r || dy.abs() > r || (dx, dy) == (0, 0) {
        return None;
    }
    let k = ((dy + r) * 3 + (dx + r)) as MoveBits; // 0..=8, 4 is (0, 0)
    Some(if k < 4 { k + 1 } else { k })
}

/// The offset (files, ranks) of a second-victim code made by [`second_victim_code`].
#[inline]
fn second_victim_offset(code: MoveBits) -> (i32, i32) {
    let k = if code <= 4 { code - 1 } else { code } as i32;
    (k % 3 - MAX_SECOND_VICTIM_OFFSET, k / 3 - MAX_SECOND_VICTIM_OFFSET)
}

impl Move {
    /// Packs a move whose extra field is a square: a castling rook, a locust
    /// victim, a double step's e.p. square, an e.p. victim.
    #[inline(always)]
    pub fn new(from: Square, to: Square, extra: Square, kind: MoveKind) -> Move {
        Move::pack(from, to, extra.bits() as MoveBits, kind)
    }
    /// Packs a move with nothing in its extra field: a plain move or a pass.
    #[inline(always)]
    pub fn plain(from: Square, to: Square, kind: MoveKind) -> Move {
        Move::pack(from, to, 0, kind)
    }
    /// Packs a move whose extra field is a piece code: the new piece of a
    /// promotion, the dropped piece of a drop.
    #[inline(always)]
    pub fn with_code(from: Square, to: Square, code: Code, kind: MoveKind) -> Move {
        Move::pack(from, to, code.bits() as MoveBits, kind)
    }
    #[inline(always)]
    fn pack(from: Square, to: Square, extra: MoveBits, kind: MoveKind) -> Move {
        Move(
            from.bits() as MoveBits
                | (to.bits() as MoveBits) << SQ_BITS
                | extra << (2 * SQ_BITS)
                | (kind as MoveBits) << KIND_SHIFT,
        )
    }
    /// The move's bits as a `u64`, in either build (a `u32` in chimera, a
    /// `u64` in chimera-wide).
    #[inline(always)]
    #[allow(clippy::unnecessary_cast)]
    pub fn bits(self) -> u64 {
        self.0 as u64
    }
    /// The origin square (for a drop: the destination too).
    #[inline(always)]
    pub fn from(self) -> Square {
        Square::from_bits(self.0 as SquareBits)
    }
    /// The destination square.
    #[inline(always)]
    pub fn to(self) -> Square {
        Square::from_bits((self.0 >> SQ_BITS) as SquareBits)
    }
    /// The extra field; its meaning depends on the kind: a square, or a
    /// piece code (see [`Move::code`]).
    #[inline(always)]
    pub fn extra(self) -> Square {
        Square::from_bits((self.0 >> (2 * SQ_BITS)) as SquareBits)
    }
    /// The extra field as a piece code: the new piece of a promotion, the
    /// dropped piece of a drop.
    #[inline(always)]
    pub fn code(self) -> Code {
        Code::from_bits((self.0 >> (2 * SQ_BITS)) as CodeBits)
    }
    /// The move as its text sees it: a double step's e.p. square is left
    /// out, so that a double step and a plain move between the same squares
    /// compare equal.
    #[inline]
    fn text_key(self) -> MoveBits {
        if self.kind() == MoveKind::Double {
            self.0 & !(((1 << (SQ_BITS + 3)) - 1) << (2 * SQ_BITS))
        } else {
            self.0
        }
    }
    /// The kind's three bits and every bit above them (the gate, the
    /// locust and unload marks): below 8 exactly when the move is of its
    /// kind and nothing more, so that `1 << kind_bits` tests the kind in a
    /// set of kinds.
    #[inline(always)]
    #[allow(clippy::unnecessary_cast)]
    pub fn kind_bits(self) -> u64 {
        (self.0 >> KIND_SHIFT) as u64
    }
    /// The kind.
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        match (self.0 >> KIND_SHIFT) & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            4 => MoveKind::Double,
            5 => MoveKind::Locust,
            6 => MoveKind::Pass,
            _ => MoveKind::Drop,
        }
    }
    /// The same move, followed by gating a piece of type `t` (below
    /// [`MAX_GATING_TYPES`]) from the hand onto the vacated origin, or, with
    /// `on_rook`, onto the castling rook's vacated square.
    #[inline]
    pub fn with_gate(self, t: usize, on_rook: bool) -> Move {
        debug_assert!(t < MAX_GATING_TYPES);
        Move(
            self.0 & ((1 << HIGH_SHIFT) - 1)
                | ((t as MoveBits + 1) << GATE_SHIFT)
                | (on_rook as MoveBits) << HIGH_SHIFT,
        )
    }
    /// The type of the piece gated by this move, if it gates one.
    #[inline(always)]
    pub fn gate(self) -> Option<usize> {
        // one comparison for the moves that gate nothing: this is asked of
        // every move the legality test sees
        if self.0 < 1 << GATE_SHIFT {
            None
        } else {
            self.gate_or_second_victim()
        }
    }
    /// [`Move::gate`] for a move with bits 28–31 set: a gating move, or a
    /// locust move with a second victim.
    #[cold]
    fn gate_or_second_victim(self) -> Option<usize> {
        if self.kind() == MoveKind::Locust {
            None
        } else {
            Some((self.0 >> GATE_SHIFT) as usize - 1)
        }
    }
    /// A locust move from `from` to `to` that captures on `first` and then on
    /// `second` on its way, on a board of geometry `g`; `None` when `second`
    /// is more than [`MAX_SECOND_VICTIM_OFFSET`] file or rank from `first`.
    ///
    /// ```
    /// use chimera::moves::Move;
    /// use chimera::square::Geometry;
    /// let g = Geometry::new(13, 13).unwrap();
    /// let sq = |s| g.parse_square(s).unwrap();
    /// let m = Move::locust2(sq("g6"), sq("g9"), sq("g7"), sq("g8"), &g).unwrap();
    /// assert_eq!((m.extra(), m.second_victim(&g)), (sq("g7"), Some(sq("g8"))));
    /// assert_eq!(m.gate(), None);
    /// assert!(Move::locust2(sq("g6"), sq("g9"), sq("g7"), sq("g9"), &g).is_none());
    /// ```
    pub fn locust2(from: Square, to: Square, first: Square, second: Square, g: &Geometry) -> Option<Move> {
        let dx = g.file_of(second) - g.file_of(first);
        let dy = g.rank_of(second) - g.rank_of(first);
        let code = second_victim_code(dx, dy)?;
        Some(Move(Move::new(from, to, first, MoveKind::Locust).0 | code << HIGH_SHIFT))
    }
    /// Whether this is a locust move with a second victim (bit tests only).
    #[inline(always)]
    pub fn has_second_victim(self) -> bool {
        // one test for nearly every move; the kind only for the rare rest
        self.0 & SECOND_VICTIM_BITS != 0 && self.is_locust_rare()
    }
    /// The same locust move with the mover promoting to its one promoted
    /// type (shogi style) on arrival.
    ///
    /// ```
    /// use chimera::moves::{Move, MoveKind};
    /// use chimera::square::Square;
    /// let (a, b, c) = (Square::new(10), Square::new(30), Square::new(20));
    /// let m = Move::new(a, b, c, MoveKind::Locust);
    /// assert!(!m.locust_promotes());
    /// let p = m.with_locust_promotion();
    /// assert!(p.locust_promotes() && !p.has_second_victim() && p.gate().is_none());
    /// assert_eq!((p.from(), p.to(), p.extra(), p.kind()), (a, b, c, MoveKind::Locust));
    /// ```
    #[inline]
    pub fn with_locust_promotion(self) -> Move {
        debug_assert_eq!(self.kind(), MoveKind::Locust);
        Move(self.0 | LOCUST_PROMOTION_BIT)
    }
    /// Whether this is a locust move whose mover promotes (see
    /// [`Move::with_locust_promotion`]).
    #[inline(always)]
    pub fn locust_promotes(self) -> bool {
        self.0 & LOCUST_PROMOTION_BIT != 0 && self.is_locust_rare()
    }
    #[cold]
    fn is_locust_rare(self) -> bool {
        self.kind() == MoveKind::Locust
    }
    /// The square of a locust move's second victim, if it has one (see
    /// [`Move::locust2`]).
    #[inline]
    pub fn second_victim(self, g: &Geometry) -> Option<Square> {
        let code = (self.0 & SECOND_VICTIM_BITS) >> HIGH_SHIFT;
        if code == 0 || self.kind() != MoveKind::Locust {
            return None;
        }
        let (dx, dy) = second_victim_offset(code);
        g.square(g.file_of(self.extra()) + dx, g.rank_of(self.extra()) + dy)
    }
    /// True if the gated piece goes onto the castling rook's square (see [`Move::with_gate`]).
    #[inline(always)]
    pub fn gates_on_rook(self) -> bool {
        self.0 >> HIGH_SHIFT & 1 != 0
            && self.0 >= 1 << GATE_SHIFT
            && (self.0 >> KIND_SHIFT) & 7 != MoveKind::Locust as MoveBits
    }
    /// A move of the piece on `from` onto the piece on `to` that puts that
    /// piece on `from` (XBetza's `u`, "unload": the swapper `udR` changes
    /// places with a friend, `ucR` with an enemy). Nothing is captured; its
    /// kind is [`MoveKind::Normal`], marked by the bit a gate uses for the
    /// rook's square (an unloading move never gates).
    ///
    /// ```
    /// use chimera::moves::{Move, MoveKind};
    /// use chimera::square::Square;
    /// let (d1, d4) = (Square::new(3), Square::new(27));
    /// let m = Move::unload(d1, d4);
    /// assert!(m.is_unload() && m.kind() == MoveKind::Normal && m.gate().is_none());
    /// assert!(!Move::plain(d1, d4, MoveKind::Normal).is_unload());
    /// ```
    #[inline]
    pub fn unload(from: Square, to: Square) -> Move {
        Move(Move::plain(from, to, MoveKind::Normal).0 | UNLOAD_BIT)
    }
    /// True for a move made by [`Move::unload`].
    #[inline(always)]
    pub fn is_unload(self) -> bool {
        self.0 >> KIND_SHIFT == UNLOAD_BIT >> KIND_SHIFT
    }
    /// The square a gating move puts its piece on, if it gates one.
    #[inline]
    pub fn gate_square(self) -> Option<Square> {
        self.gate().map(|_| if self.gates_on_rook() { self.extra() } else { self.from() })
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({:?}->{:?} {:?} {:?}", self.from(), self.to(), self.kind(), self.extra())?;
        if self.is_unload() {
            write!(f, " unload")?;
        }
        match self.gate() {
            Some(t) => write!(f, " gate {t}{})", if self.gates_on_rook() { " on rook" } else { "" }),
            None => write!(f, ")"),
        }
    }
}

/// The moves a new buffer holds before it first grows. No built-in variant
/// comes near it. A generator that fills a buffer starts again with one of
/// twice the size (a rare, cold path), so no move is ever lost, and the
/// buffer, being reused, keeps its new size.
pub const INITIAL_MOVES: usize = 4096;

/// A move buffer. Captures fill it from the front and non-captures from the
/// back, so a search sees captures first without sorting. It is allocated once
/// and reused: clearing it costs nothing.
///
/// A push into a full buffer is refused and recorded ([`MoveList::overflowed`]);
/// the generators then grow the buffer and generate again, so a push costs no
/// more than a bounds test.
pub struct MoveList {
    buf: Box<[Move]>,
    ncap: usize,
    qstart: usize,
    overflow: bool,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty buffer of [`INITIAL_MOVES`] moves.
    pub fn new() -> MoveList {
        MoveList {
            buf: vec![Move(0); INITIAL_MOVES].into_boxed_slice(),
            ncap: 0,
            qstart: INITIAL_MOVES,
            overflow: false,
        }
    }
    /// Empties the buffer.
    #[inline]
    pub fn clear(&mut self) {
        self.ncap = 0;
        self.qstart = self.buf.len();
        self.overflow = false;
    }
    /// Empties the buffer and makes room for at least `n` moves.
    #[inline]
    pub fn clear_with_room(&mut self, n: usize) {
        if self.buf.len() < n {
            self.grow_to(n);
        }
        self.clear();
    }
    /// Empties the buffer and doubles its size: for a generator that found
    /// it full.
    #[cold]
    #[inline(never)]
    pub(crate) fn clear_and_grow(&mut self) {
        self.grow_to(self.buf.len() * 2);
        self.clear();
    }
    #[cold]
    #[inline(never)]
    fn grow_to(&mut self, n: usize) {
        self.buf = vec![Move(0); n.max(INITIAL_MOVES)].into_boxed_slice();
        self.clear();
    }
    /// Adds a capture (at the front).
    #[inline(always)]
    pub fn push_capture(&mut self, m: Move) {
        if self.ncap < self.qstart {
            self.buf[self.ncap] = m;
            self.ncap += 1;
        } else {
            self.overflow = true;
        }
    }
    /// Adds a non-capture (at the back).
    #[inline(always)]
    pub fn push_quiet(&mut self, m: Move) {
        if self.ncap < self.qstart {
            self.qstart -= 1;
            self.buf[self.qstart] = m;
        } else {
            self.overflow = true;
        }
    }
    /// True if a push since the last clear found the buffer full (that move
    /// was not added). The generators of this crate never leave a buffer so:
    /// they grow it and start again.
    pub fn overflowed(&self) -> bool {
        self.overflow
    }
    /// The number of moves the buffer holds before it grows again.
    pub fn capacity(&self) -> usize {
        self.buf.len()
    }
    /// The captures.
    #[inline]
    pub fn captures(&self) -> &[Move] {
        &self.buf[..self.ncap]
    }
    /// The non-captures.
    #[inline]
    pub fn quiets(&self) -> &[Move] {
        &self.buf[self.qstart..]
    }
    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.ncap + (self.buf.len() - self.qstart)
    }
    /// True if there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// All moves, captures first.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.captures().iter().chain(self.quiets().iter()).copied()
    }
    /// The number of captures and of non-captures, to mark a point for
    /// [`MoveList::dedup_since`] (it stays valid when the buffer grows).
    #[inline]
    pub fn mark(&self) -> (usize, usize) {
        (self.ncap, self.buf.len() - self.qstart)
    }
    /// Keeps only the moves for which `keep` is true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut w = 0;
        for r in 0..self.ncap {
            if keep(self.buf[r]) {
                self.buf[w] = self.buf[r];
                w += 1;
            }
        }
        self.ncap = w;
        let end = self.buf.len();
        let mut w = end;
        for r in (self.qstart..end).rev() {
            if keep(self.buf[r]) {
                w -= 1;
                self.buf[w] = self.buf[r];
            }
        }
        self.qstart = w;
    }
    /// The `i`-th capture (in the order they were added).
    #[inline(always)]
    pub(crate) fn capture_at(&self, i: usize) -> Move {
        self.buf[i]
    }
    /// Removes the `i`-th capture; the last one takes its place.
    #[inline]
    pub(crate) fn remove_capture(&mut self, i: usize) {
        self.ncap -= 1;
        self.buf[i] = self.buf[self.ncap];
    }
    /// Puts `m` in place of the `i`-th capture.
    #[inline]
    pub(crate) fn replace_capture(&mut self, i: usize, m: Move) {
        self.buf[i] = m;
    }
    /// The `k`-th non-capture in the order they were added (they are stored
    /// from the back).
    #[inline(always)]
    pub(crate) fn quiet_at(&self, k: usize) -> Move {
        self.buf[self.buf.len() - 1 - k]
    }
    /// Removes duplicates among the moves added since `mark`. A plain move
    /// and a double step (which creates an e.p. square) between the same two
    /// squares are one move, written the same: the double step is kept, so a
    /// move that can be made as a double step is one.
    pub fn dedup_since(&mut self, mark: (usize, usize)) {
        let (c0, nq0) = mark;
        let q0 = self.buf.len() - nq0;
        let mut w = c0;
        for r in c0..self.ncap {
            let m = self.buf[r];
            if !self.buf[c0..w].contains(&m) {
                self.buf[w] = m;
                w += 1;
            }
        }
        self.ncap = w;
        // quiets occupy [qstart, q0)
        let mut w = q0;
        for r in (self.qstart..q0).rev() {
            let m = self.buf[r];
            match self.buf[w..q0].iter().position(|&k| k.text_key() == m.text_key()) {
                Some(i) => {
                    if m.kind() == MoveKind::Double {
                        self.buf[w + i] = m;
                    }
                }
                None => {
                    w -= 1;
                    self.buf[w] = m;
                }
            }
        }
        self.qstart = w;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(i: usize) -> Square {
        Square::new(i)
    }

    #[test]
    fn pack_and_unpack() {
        let m = Move::new(sq(12), sq(200), sq(77), MoveKind::Locust);
        assert_eq!((m.from(), m.to(), m.extra(), m.kind()), (sq(12), sq(200), sq(77), MoveKind::Locust));
        assert_eq!(m.gate(), None);
        let c = Move::new(sq(4), sq(6), sq(7), MoveKind::Castle);
        let g = c.with_gate(14, true);
        assert_eq!((g.from(), g.to(), g.extra(), g.kind()), (sq(4), sq(6), sq(7), MoveKind::Castle));
        assert_eq!((g.gate(), g.gates_on_rook(), g.gate_square()), (Some(14), true, Some(sq(7))));
        let g = c.with_gate(0, false);
        assert_eq!((g.gate(), g.gates_on_rook(), g.gate_square()), (Some(0), false, Some(sq(4))));
        assert_ne!(g, c);
    }

    #[test]
    fn wide_squares_pack_without_overlap() {
        // the largest square of the build in every field
        let n = crate::square::MAX_BOARD_SQUARES - 1;
        let (big, big1, big2) = (sq(n), sq(n - 1), sq(n - 2));
        let m = Move::new(big, big1, big2, MoveKind::Locust).with_locust_promotion();
        assert_eq!((m.from(), m.to(), m.extra(), m.kind()), (big, big1, big2, MoveKind::Locust));
        assert!(m.locust_promotes() && !m.has_second_victim() && m.gate().is_none());
        let g = Move::new(big, big1, big2, MoveKind::Castle).with_gate(MAX_GATING_TYPES - 1, true);
        assert_eq!((g.from(), g.to(), g.extra(), g.kind()), (big, big1, big2, MoveKind::Castle));
        assert_eq!((g.gate(), g.gates_on_rook()), (Some(MAX_GATING_TYPES - 1), true));
        let d = Move::with_code(big, big1, Code::new(7), MoveKind::Drop);
        assert_eq!((d.code(), d.extra()), (Code::new(7), sq(7)));
    }

    #[test]
    fn second_victims_round_trip_and_never_read_as_gating() {
        let g = Geometry::new(13, 13).unwrap();
        let first = g.square(6, 6).unwrap();
        let mut codes = Vec::new();
        for dy in -3..=3 {
            for dx in -3..=3 {
                let second = g.square(6 + dx, 6 + dy).unwrap();
                let m = Move::locust2(first, first, first, second, &g);
                if dx.abs() > 1 || dy.abs() > 1 || (dx, dy) == (0, 0) {
                    assert_eq!(m, None, "offset {dx},{dy}");
                    continue;
                }
                let m = m.unwrap();
                assert_eq!(m.second_victim(&g), Some(second), "offset {dx},{dy}");
                assert_eq!((m.kind(), m.extra(), m.gate(), m.gates_on_rook()), (MoveKind::Locust, first, None, false));
                assert!(!m.locust_promotes());
                // the promotion bit leaves the second victim as it is
                let p = m.with_locust_promotion();
                assert!(p.locust_promotes() && p.has_second_victim());
                assert_eq!((p.second_victim(&g), p.gate(), p.gates_on_rook()), (Some(second), None, false));
                codes.push(m.0 >> HIGH_SHIFT);
            }
        }
        codes.sort_unstable();
        assert_eq!(codes, (1..=8).collect::<Vec<MoveBits>>());
        // off the board: no second victim
        let corner = g.square(0, 0).unwrap();
        let m = Move::locust2(corner, corner, corner, g.square(1, 1).unwrap(), &g).unwrap();
        assert_eq!(m.second_victim(&g), Some(g.square(1, 1).unwrap()));
        assert_eq!(Move::new(Square::new(1), Square::new(2), Square::new(3), MoveKind::Locust).second_victim(&g), None);
    }

    #[test]
    fn captures_front_quiets_back_and_dedup() {
        let mut l = MoveList::new();
        l.push_quiet(Move::plain(Square::new(1), Square::new(2), MoveKind::Normal));
        let mark = l.mark();
        l.push_capture(Move::plain(Square::new(1), Square::new(3), MoveKind::Normal));
        l.push_capture(Move::plain(Square::new(1), Square::new(3), MoveKind::Normal));
        l.push_quiet(Move::plain(Square::new(1), Square::new(1), MoveKind::Pass));
        l.push_quiet(Move::plain(Square::new(1), Square::new(1), MoveKind::Pass));
        l.push_quiet(Move::plain(Square::new(1), Square::new(4), MoveKind::Normal));
        assert_eq!(l.len(), 6);
        l.dedup_since(mark);
        assert_eq!(l.len(), 4);
        assert_eq!(l.captures().len(), 1);
        assert_eq!(l.quiets().len(), 3);
        let before: Vec<Move> = l.iter().filter(|m| m.kind() != MoveKind::Pass).collect();
        l.retain(|m| m.kind() != MoveKind::Pass);
        assert_eq!(l.iter().collect::<Vec<_>>(), before);
        assert_eq!(l.len(), 3);
    }

    #[test]
    fn dedup_keeps_the_double_step_of_two_moves_with_one_text() {
        for double_first in [false, true] {
            let mut l = MoveList::new();
            let mark = l.mark();
            let plain = Move::plain(Square::new(5), Square::new(25), MoveKind::Normal);
            let double = Move::new(Square::new(5), Square::new(25), Square::new(15), MoveKind::Double);
            let (a, b) = if double_first { (double, plain) } else { (plain, double) };
            l.push_quiet(a);
            l.push_quiet(Move::plain(Square::new(5), Square::new(15), MoveKind::Normal));
            l.push_quiet(b);
            l.dedup_since(mark);
            let mut got: Vec<Move> = l.iter().collect();
            got.sort_by_key(|m| m.0);
            assert_eq!(got, vec![Move::plain(Square::new(5), Square::new(15), MoveKind::Normal), double]);
        }
    }

    #[test]
    fn a_full_buffer_refuses_and_records_then_grows_when_asked() {
        let mut l = MoveList::new();
        let mv = |i: usize| Move::plain(Square::new(i % 250), Square::new(i / 250), MoveKind::Normal);
        for i in 0..INITIAL_MOVES {
            if i % 2 == 0 {
                l.push_capture(mv(i));
            } else {
                l.push_quiet(mv(i));
            }
        }
        assert!(!l.overflowed());
        l.push_quiet(mv(INITIAL_MOVES));
        l.push_capture(mv(INITIAL_MOVES + 1));
        assert!(l.overflowed());
        assert_eq!(l.len(), INITIAL_MOVES);
        l.clear_and_grow();
        assert!(!l.overflowed() && l.is_empty());
        assert_eq!(l.capacity(), 2 * INITIAL_MOVES);
        for i in 0..INITIAL_MOVES + 2 {
            l.push_quiet(mv(i));
        }
        assert!(!l.overflowed());
        assert_eq!(
            (0..INITIAL_MOVES + 2).map(|k| l.quiet_at(k)).collect::<Vec<_>>(),
            (0..INITIAL_MOVES + 2).map(mv).collect::<Vec<_>>()
        );
        l.clear_with_room(10_000);
        assert!(l.capacity() >= 10_000 && l.is_empty());
        l.clear_with_room(5);
        assert!(l.capacity() >= 10_000, "a buffer never shrinks");
    }
}
