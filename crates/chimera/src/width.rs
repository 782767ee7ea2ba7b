//! How wide squares and moves are in this build of the core: boards of at
//! most 255 squares (up to 16 files and 16 ranks), one-byte squares and
//! 32-bit moves.
//!
//! The same sources are compiled a second time, with two-byte squares and
//! 64-bit moves, as the `chimera-wide` crate for boards up to 36×36. Only
//! this module differs between the two; everything else reads its sizes
//! from here, so a small board pays nothing for the large ones.

/// A square index on a board of known width.
pub type Square = u8;

/// A marker for "no square".
pub const NO_SQUARE: Square = Square::MAX;

/// The widest board supported.
pub const MAX_FILES: u8 = 16;

/// The tallest board supported.
pub const MAX_RANKS: u8 = 16;

/// The most squares a board may have: 255, because the square index 255 is
/// [`NO_SQUARE`]. So 16×16 is one square too many; 16×15 and 15×16 fit.
pub const MAX_BOARD_SQUARES: usize = 255;

/// The integer a [`crate::moves::Move`] is packed into.
pub type MoveBits = u32;

/// Whether this is the wide build (`chimera-wide`).
pub const WIDE: bool = false;
