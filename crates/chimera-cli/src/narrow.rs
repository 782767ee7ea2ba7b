//! The commands over `chimera` and `chimera-engine`: boards of at most 255 squares.

pub(crate) use chimera as lib;
pub(crate) use chimera_engine as engine;

#[path = "commands.rs"]
pub(crate) mod commands;
