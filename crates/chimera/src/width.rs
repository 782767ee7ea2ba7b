//! How wide squares and moves are in this build of the core: boards of at
//! most 255 squares (up to 16 files and 16 ranks), one-byte squares and
//! 32-bit moves.
//!
//! The same sources are compiled a second time, with two-byte squares and
//! 64-bit moves, as the `chimera-wide` crate for boards up to 36×36. Only
//! this module differs between the two; everything else reads its sizes
//! from here, so a small board pays nothing for the large ones.

/// The integer a [`crate::square::Square`] holds: one byte in this build.
pub type SquareBits = u8;

/// The widest board supported.
pub const MAX_FILES: u8 = 16;

/// The tallest board supported.
pub const MAX_RANKS: u8 = 16;

/// The most squares a board may have: 255, because the square index 255 is
/// [`crate::square::NO_SQUARE`]. So 16×16 is one square too many; 16×15 and 15×16 fit.
pub const MAX_BOARD_SQUARES: usize = 255;

/// A set of files, one bit per file (gating's open gates, first-move
/// rights): [`MAX_FILES`] bits.
pub type FileSet = u16;

/// The integer a [`crate::moves::Move`] is packed into.
pub type MoveBits = u32;

/// Whether this is the wide build (`chimera-wide`).
pub const WIDE: bool = false;

/// Whether the compiler lays a plain ride out as one ray cell that the
/// walkers step along at run time (see [`crate::compile::is_ray`]) rather
/// than one cell per square: on in the wide build, where boards are large,
/// off in the narrow one, whose walkers then compile as before.
pub const RAYS: bool = false;

/// The integer a [`crate::piece::Code`] holds: one byte in this build.
pub type CodeBits = u8;

/// The most piece types a variant may define: their codes, and the marker
/// codes above them, must fit a [`crate::piece::Code`].
pub const MAX_PIECE_TYPES: usize = 120;

/// The size of arrays indexed by a piece code: every code below it.
pub const MAX_CODES: usize = 256;

/// The most pieces one side may have on the board.
pub const MAX_PIECES: usize = 256;

/// An index into a side's piece list (below [`MAX_PIECES`]).
pub type PieceIndex = u8;

/// A set of piece types (below [`MAX_PIECE_TYPES`]), such as the types a
/// piece may not capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TypeSet(u128);

impl TypeSet {
    /// The empty set.
    pub const EMPTY: TypeSet = TypeSet(0);

    /// Adds type `t`.
    #[inline]
    pub fn insert(&mut self, t: usize) {
        self.0 |= 1u128 << t;
    }

    /// Whether type `t` is in the set.
    #[inline(always)]
    pub fn contains(&self, t: usize) -> bool {
        self.0 >> t & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
}
