//! Squares and board geometry.
//!
//! A square is a plain index `rank * width + file`, so every board up to
//! [`MAX_FILES`] × [`MAX_RANKS`] fits in a [`Square`] (one byte in `chimera`,
//! two in `chimera-wide`; see [`crate::width`]). Off-board steps never appear
//! in the compiled tables, so the generator needs no edge guards.
//!
//! Files are named `a` to `z`; on a board of more than 26 files the 27th to
//! 36th are `aa` to `aj`.

use std::fmt;

pub use crate::width::{SquareBits, MAX_BOARD_SQUARES, MAX_FILES, MAX_RANKS};

/// A square of a board: the index `rank * width + file`, held in
/// [`SquareBits`] (one byte in `chimera`, two in `chimera-wide`).
///
/// Per-square arrays, slices and vectors are indexed by a square directly
/// (`board[sq]`); [`Square::index`] gives the plain index for arithmetic.
/// A square means nothing without its board's [`Geometry`], which names it
/// and finds its file and rank.
///
/// ```
/// use chimera::square::{Geometry, Square};
/// let g = Geometry::new(8, 8).unwrap();
/// let e4 = g.parse_square("e4").unwrap();
/// assert_eq!(e4, Square::new(28));
/// let mut board = [0u8; 64];
/// board[e4] = 1;
/// assert_eq!(board[28], 1);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Square(SquareBits);

/// The marker for "no square" ([`Square::NONE`]).
pub const NO_SQUARE: Square = Square::NONE;

impl Square {
    /// The marker for "no square": the largest value of [`SquareBits`],
    /// which no board uses.
    pub const NONE: Square = Square(SquareBits::MAX);

    /// The square with index `index`; the index must fit [`SquareBits`].
    #[inline(always)]
    pub const fn new(index: usize) -> Square {
        debug_assert!(index <= SquareBits::MAX as usize);
        Square(index as SquareBits)
    }

    /// The square held in `bits` (as packed in a move or a table).
    #[inline(always)]
    pub const fn from_bits(bits: SquareBits) -> Square {
        Square(bits)
    }

    /// The plain index `rank * width + file`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The index as held: [`SquareBits`].
    #[inline(always)]
    pub const fn bits(self) -> SquareBits {
        self.0
    }

    /// Whether this is [`Square::NONE`].
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == SquareBits::MAX
    }

    /// The square `step` indices away (a ray's next square); the caller
    /// knows that it is on the board.
    #[inline(always)]
    pub const fn offset(self, step: isize) -> Square {
        Square::new((self.0 as isize + step) as usize)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            f.write_str("NO_SQUARE")
        } else {
            write!(f, "#{}", self.0)
        }
    }
}

/// Lets a typed index (a newtype with an `index()` method) index slices and
/// vectors directly: `board[sq]` for `board[sq.index()]`.
macro_rules! typed_index {
    ($t:ty) => {
        impl<T> std::ops::Index<$t> for [T] {
            type Output = T;
            #[inline(always)]
            fn index(&self, i: $t) -> &T {
                &self[i.index()]
            }
        }

        impl<T> std::ops::IndexMut<$t> for [T] {
            #[inline(always)]
            fn index_mut(&mut self, i: $t) -> &mut T {
                &mut self[i.index()]
            }
        }

        impl<T> std::ops::Index<$t> for Vec<T> {
            type Output = T;
            #[inline(always)]
            fn index(&self, i: $t) -> &T {
                &self[i.index()]
            }
        }

        impl<T> std::ops::IndexMut<$t> for Vec<T> {
            #[inline(always)]
            fn index_mut(&mut self, i: $t) -> &mut T {
                &mut self[i.index()]
            }
        }
    };
}
pub(crate) use typed_index;

typed_index!(Square);

/// The size of per-square arrays: [`MAX_FILES`] × [`MAX_RANKS`].
pub const MAX_SQUARES: usize = MAX_FILES as usize * MAX_RANKS as usize;

/// The dimensions of a board, and conversions between squares and coordinates.
///
/// ```
/// use chimera::square::Geometry;
/// let g = Geometry::new(9, 10).unwrap();
/// let sq = g.parse_square("e10").unwrap();
/// assert_eq!(g.square_name(sq), "e10");
/// assert_eq!(g.file_of(sq), 4);
/// assert_eq!(g.rank_of(sq), 9);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Number of files (columns).
    pub width: u8,
    /// Number of ranks (rows).
    pub height: u8,
}

impl Geometry {
    /// A board of `width` files and `height` ranks; `None` outside
    /// 2..=[`MAX_FILES`], 2..=[`MAX_RANKS`] or beyond [`MAX_BOARD_SQUARES`] squares.
    pub fn new(width: u8, height: u8) -> Option<Geometry> {
        if (2..=MAX_FILES).contains(&width)
            && (2..=MAX_RANKS).contains(&height)
            && width as usize * height as usize <= MAX_BOARD_SQUARES
        {
            Some(Geometry { width, height })
        } else {
            None
        }
    }

    /// The number of squares.
    #[inline]
    pub fn squares(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Every square of the board, from a1 upwards file by file.
    #[inline]
    pub fn all_squares(&self) -> std::iter::Map<std::ops::Range<usize>, fn(usize) -> Square> {
        (0..self.squares()).map(Square::new as fn(usize) -> Square)
    }

    /// The square at `file`, `rank` (both from 0), if on the board.
    #[inline]
    pub fn square(&self, file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && rank >= 0 && file < self.width as i32 && rank < self.height as i32 {
            Some(Square::new((rank * self.width as i32 + file) as usize))
        } else {
            None
        }
    }

    /// The file of a square, from 0.
    #[inline]
    pub fn file_of(&self, sq: Square) -> i32 {
        sq.index() as i32 % self.width as i32
    }

    /// The rank of a square, from 0.
    #[inline]
    pub fn rank_of(&self, sq: Square) -> i32 {
        sq.index() as i32 / self.width as i32
    }

    /// The square seen from the other side: the rank is mirrored.
    #[inline]
    pub fn flip(&self, sq: Square) -> Square {
        let (f, r) = (self.file_of(sq), self.rank_of(sq));
        Square::new((((self.height as i32 - 1 - r) * self.width as i32) + f) as usize)
    }

    /// The algebraic name of a square: a file letter and a rank number from 1 (`e4`, `a10`).
    pub fn square_name(&self, sq: Square) -> String {
        let mut s = String::with_capacity(3);
        self.write_square(sq, &mut s);
        s
    }

    /// Appends the algebraic name of a square to `out`.
    pub fn write_square(&self, sq: Square, out: &mut String) {
        let f = self.file_of(sq) as u8;
        if f >= 26 {
            out.push('a');
            out.push((b'a' + (f - 26)) as char);
        } else {
            out.push((b'a' + f) as char);
        }
        let r = self.rank_of(sq) + 1;
        if r >= 10 {
            out.push((b'0' + (r / 10) as u8) as char);
        }
        out.push((b'0' + (r % 10) as u8) as char);
    }

    /// Parses an algebraic square name such as `e4` or `i10`.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        let (sq, rest) = self.parse_square_prefix(s)?;
        if rest.is_empty() {
            Some(sq)
        } else {
            None
        }
    }

    /// Parses a square name at the start of `s`, returning it and the rest of the text.
    /// The rank is read greedily, but only as far as it stays on the board, so that
    /// `a1a2` on a 10-rank board reads `a1` and leaves `a2`.
    pub fn parse_square_prefix<'a>(&self, s: &'a str) -> Option<(Square, &'a str)> {
        let b = s.as_bytes();
        if b.is_empty() || !b[0].is_ascii_lowercase() {
            return None;
        }
        let mut file = (b[0] - b'a') as i32;
        let mut i = 1;
        // files 27 to 36 of a board wider than 26 files: `aa` to `aj`
        if self.width > 26 && b[0] == b'a' && b.len() > 1 && b[1].is_ascii_lowercase() {
            file = 26 + (b[1] - b'a') as i32;
            i = 2;
        }
        let start = i;
        let mut rank = 0i32;
        while i < b.len() && b[i].is_ascii_digit() {
            let next = rank * 10 + (b[i] - b'0') as i32;
            if i > start && (next > self.height as i32 || rank == 0) {
                break;
            }
            rank = next;
            i += 1;
        }
        if i == start || rank < 1 {
            return None;
        }
        let sq = self.square(file, rank - 1)?;
        Some((sq, &s[i..]))
    }
}

/// A side: White moves first and has rank 1 at its edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player.
    White = 0,
    /// The second player.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour with the given index (0 or 1).
    #[inline]
    pub fn from_index(i: usize) -> Color {
        if i & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "w",
            Color::Black => "b",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_tall_boards() {
        let g = Geometry::new(12, 12).unwrap();
        for sq in g.all_squares() {
            assert_eq!(g.parse_square(&g.square_name(sq)), Some(sq));
        }
        assert_eq!(g.parse_square("m1"), None);
        assert_eq!(g.parse_square("a13"), None);
        assert_eq!(g.parse_square("a0"), None);
    }

    #[test]
    fn prefix_parsing_splits_move_text() {
        let g = Geometry::new(9, 10).unwrap();
        let (a, rest) = g.parse_square_prefix("a1a10").unwrap();
        assert_eq!(g.square_name(a), "a1");
        assert_eq!(g.parse_square(rest).map(|s| g.square_name(s)), Some("a10".into()));
        let (b, rest) = g.parse_square_prefix("a10a9").unwrap();
        assert_eq!(g.square_name(b), "a10");
        assert_eq!(rest, "a9");
    }

    #[test]
    fn geometry_limits() {
        assert!(Geometry::new(1, 8).is_none());
        assert!(Geometry::new(MAX_FILES + 1, 8).is_none());
        assert!(Geometry::new(8, MAX_RANKS + 1).is_none());
        assert!(Geometry::new(16, 15).is_some());
        assert!(Geometry::new(15, 16).is_some());
        if crate::width::WIDE {
            assert!(Geometry::new(36, 36).is_some());
        } else {
            // square 255 would be NO_SQUARE
            assert!(Geometry::new(16, 16).is_none());
        }
    }

    #[test]
    fn names_round_trip_on_the_widest_board() {
        // all files, and as many ranks as fit: 16x15 in chimera, 36x36 in chimera-wide
        let ranks = (MAX_BOARD_SQUARES / MAX_FILES as usize).min(MAX_RANKS as usize) as u8;
        if let Some(g) = Geometry::new(MAX_FILES, ranks) {
            for sq in g.all_squares() {
                assert_eq!(g.parse_square(&g.square_name(sq)), Some(sq), "{}", g.square_name(sq));
            }
            if g.width > 26 {
                assert_eq!(g.square_name(g.square(26, 0).unwrap()), "aa1");
                assert_eq!(g.square_name(g.square(g.width as i32 - 1, 9).unwrap()), "aj10");
                assert_eq!(g.parse_square_prefix("aj10a9"), Some((g.square(35, 9).unwrap(), "a9")));
            }
        }
    }
}
