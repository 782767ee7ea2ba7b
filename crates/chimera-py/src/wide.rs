//! The module's functions over `chimera-wide`: boards up to 36x36.

pub(crate) use wide_core as lib;
pub(crate) use wide_engine as engine;

#[path = "api.rs"]
pub(crate) mod api;
