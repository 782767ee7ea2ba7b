//! The page's game logic over `chimera-wide`: boards up to 36x36 and
//! hundreds of piece types (Tenjiku Shogi, a variants.ini board of 20x20).

pub(crate) use wide_core as lib;
pub(crate) use wide_engine as engine;

#[path = "board.rs"]
pub mod board;
#[path = "session.rs"]
pub mod session;
