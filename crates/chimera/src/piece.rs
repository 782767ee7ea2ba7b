//! Piece codes: what a square of the board holds.
//!
//! A [`Code`] is 0 for an empty square, and `2 + 2 * t + c` for a piece of
//! type `t` (its index in the variant's piece list) and colour `c`, so the
//! colour is the low bit and the type the rest. Per-code arrays, slices and
//! vectors are indexed by a code directly (`royal[code]`).

use std::fmt;

use crate::square::Color;
pub use crate::width::CodeBits;

/// A piece code: [`Code::EMPTY`], or a piece of one type and colour, held in
/// [`CodeBits`] (one byte in `chimera`, two in `chimera-wide`).
///
/// ```
/// use chimera::piece::Code;
/// use chimera::square::Color;
/// let black_knight = Code::of(1, Color::Black);
/// assert_eq!(black_knight.index(), 5);
/// assert_eq!((black_knight.piece_type(), black_knight.color()), (1, Color::Black));
/// assert!(!black_knight.is_empty() && Code::EMPTY.is_empty());
/// let mut values = [0; 8];
/// values[black_knight] = 3;
/// assert_eq!(values[5], 3);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Code(CodeBits);

impl Code {
    /// An empty square.
    pub const EMPTY: Code = Code(0);

    /// The code with value `index`; it must fit [`CodeBits`].
    #[inline(always)]
    pub const fn new(index: usize) -> Code {
        debug_assert!(index <= CodeBits::MAX as usize);
        Code(index as CodeBits)
    }

    /// The code held in `bits`.
    #[inline(always)]
    pub const fn from_bits(bits: CodeBits) -> Code {
        Code(bits)
    }

    /// The code of a piece of type `piece_type` and colour `color`.
    #[inline(always)]
    pub const fn of(piece_type: usize, color: Color) -> Code {
        Code::new(2 + 2 * piece_type + color as usize)
    }

    /// The value `2 + 2 * type + colour` (0 for an empty square), to index
    /// per-code tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The value as held: [`CodeBits`].
    #[inline(always)]
    pub const fn bits(self) -> CodeBits {
        self.0
    }

    /// Whether this is an empty square.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The piece type of a piece (not of [`Code::EMPTY`]).
    #[inline(always)]
    pub const fn piece_type(self) -> usize {
        (self.0 as usize >> 1) - 1
    }

    /// The colour of a piece (of [`Code::EMPTY`]: White).
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Whether this is a piece of colour `color` (never for an empty square).
    #[inline(always)]
    pub const fn is_color(self, color: Color) -> bool {
        self.0 != 0 && (self.0 & 1) as usize == color as usize
    }

    /// The same type in the other colour.
    #[inline(always)]
    pub const fn flip(self) -> Code {
        Code(self.0 ^ 1)
    }
}

impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            f.write_str("EMPTY")
        } else {
            write!(f, "#{}", self.0)
        }
    }
}

crate::square::typed_index!(Code);
