//! The page's game logic over `chimera`: boards of at most 255 squares and
//! 120 piece types.

pub(crate) use chimera as lib;
pub(crate) use chimera_engine as engine;

#[path = "board.rs"]
pub mod board;
#[path = "session.rs"]
pub mod session;
