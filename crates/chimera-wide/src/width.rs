//! How wide squares and moves are in this build of the core: boards up to
//! 36×36 (1,296 squares), two-byte squares and 64-bit moves.
//!
//! This crate compiles the sources of the `chimera` crate a second time; only
//! this module differs. `chimera` itself keeps one-byte squares and 32-bit
//! moves, so small boards pay nothing for the large ones.

/// A square index on a board of known width.
pub type Square = u16;

/// A marker for "no square".
pub const NO_SQUARE: Square = Square::MAX;

/// The widest board supported.
pub const MAX_FILES: u8 = 36;

/// The tallest board supported.
pub const MAX_RANKS: u8 = 36;

/// The most squares a board may have: 36 × 36.
pub const MAX_BOARD_SQUARES: usize = 36 * 36;

/// The integer a [`crate::moves::Move`] is packed into.
pub type MoveBits = u64;

/// Whether this is the wide build (`chimera-wide`).
pub const WIDE: bool = true;
