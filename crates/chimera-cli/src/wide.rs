//! The commands over `chimera-wide` and `chimera-engine-wide`: boards up to 36×36.

pub(crate) use wide_core as lib;
pub(crate) use wide_engine as engine;

#[path = "commands.rs"]
pub(crate) mod commands;
