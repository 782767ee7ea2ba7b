//! How wide squares and moves are in this build of the core: boards up to
//! 36×36 (1,296 squares), two-byte squares and 64-bit moves.
//!
//! This crate compiles the sources of the `chimera` crate a second time; only
//! this module differs. `chimera` itself keeps one-byte squares and 32-bit
//! moves, so small boards pay nothing for the large ones.

/// The integer a [`crate::square::Square`] holds: two bytes in this build.
pub type SquareBits = u16;

/// The widest board supported.
pub const MAX_FILES: u8 = 36;

/// The tallest board supported.
pub const MAX_RANKS: u8 = 36;

/// The most squares a board may have: 36 × 36.
pub const MAX_BOARD_SQUARES: usize = 36 * 36;

/// A set of files, one bit per file (gating's open gates, first-move
/// rights): at least [`MAX_FILES`] bits.
pub type FileSet = u64;

/// The integer a [`crate::moves::Move`] is packed into.
pub type MoveBits = u64;

/// Whether this is the wide build (`chimera-wide`).
pub const WIDE: bool = true;

/// Whether the compiler lays a plain ride out as one ray cell that the
/// walkers step along at run time (see [`crate::compile::is_ray`]) rather
/// than one cell per square: on in the wide build, where boards are large,
/// off in the narrow one, whose walkers then compile as before.
pub const RAYS: bool = true;

/// The integer a [`crate::piece::Code`] holds: two bytes in this build.
pub type CodeBits = u16;

/// The most piece types a variant may define (Taikyoku Shogi has about 300,
/// promoted forms included).
pub const MAX_PIECE_TYPES: usize = 512;

/// The size of arrays indexed by a piece code: every code below it.
pub const MAX_CODES: usize = 2 * MAX_PIECE_TYPES + 8;

/// The most pieces one side may have on the board (Taikyoku Shogi starts
/// with 402).
pub const MAX_PIECES: usize = 640;

/// An index into a side's piece list (below [`MAX_PIECES`]).
pub type PieceIndex = u16;

const TYPE_WORDS: usize = MAX_PIECE_TYPES.div_ceil(64);

/// A set of piece types (below [`MAX_PIECE_TYPES`]), such as the types a
/// piece may not capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeSet([u64; TYPE_WORDS]);

impl Default for TypeSet {
    fn default() -> TypeSet {
        TypeSet::EMPTY
    }
}

impl TypeSet {
    /// The empty set.
    pub const EMPTY: TypeSet = TypeSet([0; TYPE_WORDS]);

    /// Adds type `t`.
    #[inline]
    pub fn insert(&mut self, t: usize) {
        self.0[t / 64] |= 1u64 << (t % 64);
    }

    /// Whether type `t` is in the set.
    #[inline(always)]
    pub fn contains(&self, t: usize) -> bool {
        self.0[t / 64] >> (t % 64) & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}
