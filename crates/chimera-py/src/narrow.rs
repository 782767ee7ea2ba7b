//! The module's functions over `chimera`: boards of at most 255 squares.

pub(crate) use chimera as lib;
pub(crate) use chimera_engine as engine;

#[path = "api.rs"]
pub(crate) mod api;
