//! Chimera: a chess-variant move generator.
//!
//! A variant is data (see [`variant`]): a board, zones, piece types with moves
//! in XBetza notation ([`betza`]), a start position and rules. The compiler
//! ([`compile`]) turns each piece's moves into flat trajectory tables per
//! square; one general walker ([`movegen`]) then generates moves for any
//! variant. [`legal`] decides legality, [`perft`] counts move trees.
//!
//! ```
//! use std::sync::Arc;
//! use chimera::{builtin, position::Position, perft};
//! let v = Arc::new(builtin::variant("xiangqi").unwrap());
//! let mut pos = Position::start(v);
//! assert_eq!(perft::perft(&mut pos, 2), 1920);
//! ```
#![warn(missing_docs)]

pub mod betza;
pub(crate) mod bikjang;
mod build_variant;
pub mod builtin;
pub(crate) mod burning;
pub(crate) mod castling;
pub mod check;
pub mod check_counting;
pub mod chu_repetition;
pub mod compile;
pub mod counting;
pub mod definition;
pub mod fen;
pub mod footprint;
pub(crate) mod gating;
pub mod highlight;
pub mod ini;
pub mod legal;
pub mod loader;
pub mod material;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod pgn;
pub mod piece;
pub mod position;
pub(crate) mod promotion;
pub(crate) mod royal_capture;
pub mod san;
pub mod square;
pub mod trading;
pub mod validate;
pub mod variant;
pub mod walk;
pub mod width;

/// The most piece types a variant may define (120 in `chimera`, 512 in
/// `chimera-wide`).
pub use width::MAX_PIECE_TYPES;
