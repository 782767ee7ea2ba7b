//! The built-in variants: definition files under `variants/`, embedded in the
//! library and read by the same parser as a user's files. Every `.toml` file
//! there is a built-in variant named after the file (see `build.rs`).

use crate::variant::{BuildError, Variant};

include!(concat!(env!("OUT_DIR"), "/builtin_files.rs"));

/// The names of the built-in variants.
pub fn names() -> Vec<&'static str> {
    FILES.iter().map(|f| f.0).collect()
}

/// An error looking up a built-in variant.
#[derive(Debug)]
pub enum LookupError {
    /// No built-in variant has that name.
    Unknown(String),
    /// The embedded file failed to build (a bug, reported rather than hidden).
    Build(BuildError),
}

impl std::fmt::Display for LookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LookupError::Unknown(n) => write!(f, "unknown variant '{n}'; known variants: {}", names().join(", ")),
            LookupError::Build(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LookupError {}

/// Builds a built-in variant by name.
///
/// ```
/// let v = chimera::builtin::variant("janggi").unwrap();
/// assert_eq!(v.geometry().width, 9);
/// assert!(chimera::builtin::variant("nonesuch").is_err());
/// ```
pub fn variant(name: &str) -> Result<Variant, LookupError> {
    let (_, file, text) = FILES.iter().find(|f| f.0 == name).ok_or_else(|| LookupError::Unknown(name.to_string()))?;
    Variant::from_toml(text, file).map_err(LookupError::Build)
}

/// The definition text of a built-in variant (its file under `variants/`),
/// for users who want to start a variant of their own from it.
///
/// ```
/// assert!(chimera::builtin::source("chess").unwrap().contains("name = \"chess\""));
/// assert!(chimera::builtin::source("nonesuch").is_none());
/// ```
pub fn source(name: &str) -> Option<&'static str> {
    FILES.iter().find(|f| f.0 == name).map(|f| f.2)
}
