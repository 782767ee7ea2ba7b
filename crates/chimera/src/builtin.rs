//! The built-in variants: definition files under `variants/`, embedded in the
//! library and read by the same parser as a user's files. Every `.toml` file
//! there is a built-in variant named after the file (see `build.rs`).

use crate::variant::{BuildError, Variant, VariantDef};

include!(concat!(env!("OUT_DIR"), "/builtin_files.rs"));

/// The names of the built-in variants.
pub fn names() -> Vec<&'static str> {
    FILES.iter().map(|f| f.0).collect()
}

/// The names of the built-in variants this build can hold: all of
/// [`names`] but those whose board is too large for it (Tenjiku Shogi's
/// 16×16 in `chimera`; `chimera-wide` holds every one). A program that can
/// hand a variant over to the wide build (the engine's protocols, the
/// command-line tool) lists [`names`]; one bound to this build (the WASM and
/// Python bindings) lists these.
///
/// ```
/// let here = chimera::builtin::playable_names();
/// assert!(here.contains(&"chess"));
/// assert!(here.iter().all(|n| chimera::builtin::names().contains(n)));
/// ```
pub fn playable_names() -> Vec<&'static str> {
    FILES.iter().map(|f| f.0).filter(|n| !definition(n).is_err_and(|e| e.is_too_large())).collect()
}

/// An error looking up a built-in variant.
#[derive(Debug)]
pub enum LookupError {
    /// No built-in variant has that name.
    Unknown(String),
    /// The embedded file failed to build (a bug, reported rather than hidden).
    Build(BuildError),
}

impl LookupError {
    /// Whether the built-in definition was refused for the size of its board
    /// (see [`crate::variant::VariantError::is_too_large`]): a variant
    /// of `chimera-wide`.
    pub fn is_too_large(&self) -> bool {
        matches!(self, LookupError::Build(BuildError::Definition(e)) if e.is_too_large())
    }
}

impl std::fmt::Display for LookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LookupError::Unknown(n) => {
                write!(f, "unknown variant '{n}'")?;
                let near = suggestions(n);
                if !near.is_empty() {
                    write!(
                        f,
                        " (did you mean {}?)",
                        near.iter().map(|s| format!("'{s}'")).collect::<Vec<_>>().join(" or ")
                    )?;
                }
                write!(f, "; known variants: {}", names().join(", "))
            }
            LookupError::Build(e) => e.fmt(f),
        }
    }
}

/// The built-in names closest to a name that is none of them (at most three,
/// nearest first): those within a small edit distance, ignoring case, and
/// those that start with it.
///
/// ```
/// assert_eq!(chimera::builtin::suggestions("chesss")[0], "chess");
/// assert_eq!(chimera::builtin::suggestions("janggy"), ["janggi"]);
/// assert!(chimera::builtin::suggestions("zzzzzzzz").is_empty());
/// ```
pub fn suggestions(name: &str) -> Vec<&'static str> {
    let n = name.to_ascii_lowercase();
    if n.is_empty() || n.len() > 64 {
        return Vec::new();
    }
    let limit = (n.len() / 3).clamp(1, 3);
    let mut near: Vec<(usize, &'static str)> = names()
        .into_iter()
        .filter_map(|c| {
            let d = edit_distance(&n, c);
            let prefix = n.len() >= 3 && c.starts_with(&n);
            (d <= limit || prefix).then_some((if prefix { 0 } else { d }, c))
        })
        .collect();
    near.sort();
    near.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Levenshtein distance between two short ASCII names.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb)).min(row[j] + 1).min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

impl std::error::Error for LookupError {}

/// Other names of built-in variants: HaChu's and XBoard's, where no
/// Fairy-Stockfish variant has that name.
pub const ALIASES: &[(&str, &str)] = &[
    ("chu", "chushogi"),
    ("wa-shogi", "washogi"),
    ("dai", "daishogi"),
    ("sho", "shoshogi"),
    ("cashew-shogi", "cashewshogi"),
    ("macadamia-shogi", "macadamiashogi"),
    ("tenjiku", "tenjikushogi"),
];

/// Builds a built-in variant by name (the exact name, else the name in any
/// case: `Xiangqi`, else an alias of [`ALIASES`]: `chu`).
///
/// ```
/// assert_eq!(chimera::builtin::variant("chu").unwrap().name(), "chushogi");
/// let v = chimera::builtin::variant("janggi").unwrap();
/// assert_eq!(chimera::builtin::variant("XiangQi").unwrap().name(), "xiangqi");
/// assert_eq!(v.geometry().width, 9);
/// assert!(chimera::builtin::variant("nonesuch").is_err());
/// ```
pub fn variant(name: &str) -> Result<Variant, LookupError> {
    Variant::new(definition(name)?).map_err(LookupError::Build)
}

/// The definition of a built-in variant, read but not compiled (cheap):
/// names are looked up as [`variant`] does. A variant whose board is too
/// large for this build (Tenjiku Shogi's 16×16 in `chimera`) fails here,
/// and builds in `chimera-wide`.
///
/// ```
/// assert_eq!(chimera::builtin::definition("chu").unwrap().geometry.width, 12);
/// assert!(chimera::builtin::definition("nonesuch").is_err());
/// ```
pub fn definition(name: &str) -> Result<VariantDef, LookupError> {
    let (_, file, text) = FILES
        .iter()
        .find(|f| f.0 == name)
        .or_else(|| FILES.iter().find(|f| f.0.eq_ignore_ascii_case(name)))
        .or_else(|| {
            let (_, real) = ALIASES.iter().find(|a| a.0.eq_ignore_ascii_case(name))?;
            FILES.iter().find(|f| f.0 == *real)
        })
        .ok_or_else(|| LookupError::Unknown(name.to_string()))?;
    VariantDef::from_toml(text, file).map_err(|e| LookupError::Build(BuildError::Definition(e)))
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
