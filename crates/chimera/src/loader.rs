//! Reading a user's variant definitions: the one loader that the command
//! line, the engine, the WASM session and the Python module share.
//!
//! A text is Chimera's TOML ([`VariantDef::from_toml`]) or Fairy-Stockfish's
//! variants.ini ([`crate::ini`]); [`Format`] says which, or leaves it to the
//! text ([`Format::Auto`]). [`definitions`] reads every variant of a text,
//! [`definition`] the one a caller names (or the only one), and [`compile`]
//! builds the tables of definitions read, so that an error of the compiler is
//! reported by the loader and not later, when a variant is first played.
//!
//! ```
//! use chimera::loader::{definition, Format};
//! let ini = "[tiny:chess]\nstartFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n";
//! let def = definition(ini, "my.ini", Format::Ini, None).unwrap();
//! assert_eq!(def.name, "tiny");
//! let e = definition(ini, "my.ini", Format::Ini, Some("huge")).unwrap_err();
//! assert!(e.to_string().contains("huge"), "{e}");
//! ```

use crate::variant::{BuildError, Variant, VariantDef, VariantError};
use std::fmt;

/// The format of a definition text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Chimera's TOML definition of one variant.
    Toml,
    /// Fairy-Stockfish's variants.ini format; a section names a variant.
    Ini,
    /// TOML if the text reads as a Chimera definition, variants.ini otherwise.
    Auto,
}

impl Format {
    /// Reads a format name: `"toml"` (or `"native"`), `"ini"` (or
    /// `"variants.ini"`), or `"auto"` (or nothing), in any case.
    pub fn parse(s: &str) -> Result<Format, LoadError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "toml" | "native" => Ok(Format::Toml),
            "ini" | "variants.ini" => Ok(Format::Ini),
            "" | "auto" => Ok(Format::Auto),
            other => {
                Err(LoadError::UnknownFormat(other.chars().take(40).collect::<String>().escape_default().to_string()))
            }
        }
    }

    /// The format a file's name gives: `.ini` is variants.ini, `.toml` is
    /// Chimera's, anything else is left to the text.
    pub fn of_path(path: &str) -> Format {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".ini") {
            Format::Ini
        } else if lower.ends_with(".toml") {
            Format::Toml
        } else {
            Format::Auto
        }
    }
}

/// Why a definition text could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A format name [`Format::parse`] does not know.
    UnknownFormat(String),
    /// The definition has an error (file, line and column in it).
    Definition(VariantError),
    /// With [`Format::Auto`]: the text reads neither way; both errors.
    Neither {
        /// The error reading it as Chimera's TOML.
        toml: Box<VariantError>,
        /// The error reading it as variants.ini.
        ini: Box<VariantError>,
    },
    /// A variants.ini text without any section.
    NoVariant,
    /// A variants.ini text with several sections, and none named: their names.
    SeveralVariants(Vec<String>),
    /// A TOML definition of another variant than the one asked for.
    OtherName {
        /// The name the text defines.
        defined: String,
        /// The name asked for.
        wanted: String,
    },
    /// A definition that reads but whose tables cannot be built.
    Build {
        /// The variant's name.
        name: String,
        /// The compiler's error.
        error: Box<BuildError>,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::UnknownFormat(s) => {
                write!(f, "unknown definition format '{s}': use \"toml\", \"ini\" or \"auto\"")
            }
            LoadError::Definition(e) => e.fmt(f),
            LoadError::Neither { toml, ini } => {
                write!(f, "the text is neither a Chimera definition ({toml}) nor a variants.ini one ({ini})")
            }
            LoadError::NoVariant => f.write_str("the variants.ini text defines no variant (no [section])"),
            LoadError::SeveralVariants(names) => {
                write!(f, "the variants.ini text defines several variants: name one ({})", names.join(", "))
            }
            LoadError::OtherName { defined, wanted } => {
                write!(f, "the definition is of '{defined}', not '{wanted}'")
            }
            LoadError::Build { name, error } => write!(f, "{name}: {error}"),
        }
    }
}

impl std::error::Error for LoadError {}

impl LoadError {
    /// Whether the text was refused for the size of a board only (see
    /// [`VariantError::is_too_large`]): `chimera-wide` may read it.
    pub fn is_too_large(&self) -> bool {
        match self {
            LoadError::Definition(e) => e.is_too_large(),
            LoadError::Neither { toml, ini } => toml.is_too_large() || ini.is_too_large(),
            _ => false,
        }
    }
}

impl From<VariantError> for LoadError {
    fn from(e: VariantError) -> LoadError {
        LoadError::Definition(e)
    }
}

/// Every variant a text defines: the one of a TOML definition, or each
/// section of a variants.ini text, in the file's order. `file` names the
/// text in errors.
pub fn definitions(text: &str, file: &str, format: Format) -> Result<Vec<VariantDef>, LoadError> {
    let ini = || -> Result<Vec<VariantDef>, VariantError> {
        let f = crate::ini::IniFile::parse(text, file)?;
        f.names().map(|n| f.variant(n)).collect()
    };
    match format {
        Format::Toml => Ok(vec![VariantDef::from_toml(text, file)?]),
        Format::Ini => Ok(ini()?),
        Format::Auto => match VariantDef::from_toml(text, file) {
            Ok(d) => Ok(vec![d]),
            Err(toml) => ini().map_err(|ini| LoadError::Neither { toml: Box::new(toml), ini: Box::new(ini) }),
        },
    }
}

/// The variant `name` of a text, or with no name its only variant (a TOML
/// definition always has one; a variants.ini text must then have exactly
/// one section). A TOML definition of another name is an error.
pub fn definition(text: &str, file: &str, format: Format, name: Option<&str>) -> Result<VariantDef, LoadError> {
    let name = name.map(str::trim).filter(|s| !s.is_empty());
    let ini = |name: Option<&str>| -> Result<VariantDef, LoadError> {
        match name {
            Some(n) => Ok(crate::ini::variant_from_ini(text, file, n)?),
            None => {
                let names = crate::ini::variant_names(text, file)?;
                match names.as_slice() {
                    [] => Err(LoadError::NoVariant),
                    [only] => Ok(crate::ini::variant_from_ini(text, file, only)?),
                    _ => Err(LoadError::SeveralVariants(names)),
                }
            }
        }
    };
    let toml = |def: VariantDef| match name {
        Some(n) if n != def.name => Err(LoadError::OtherName { defined: def.name, wanted: n.to_string() }),
        _ => Ok(def),
    };
    match format {
        Format::Toml => toml(VariantDef::from_toml(text, file)?),
        Format::Ini => ini(name),
        Format::Auto => match VariantDef::from_toml(text, file) {
            Ok(d) => toml(d),
            Err(toml_err) => ini(name).map_err(|e| match e {
                LoadError::Definition(ini) => LoadError::Neither { toml: Box::new(toml_err), ini: Box::new(ini) },
                other => other,
            }),
        },
    }
}

/// Builds the tables of each definition, so that a compiler error (a piece
/// whose moves cannot be built) is reported now, naming the variant.
pub fn compile(defs: &[VariantDef]) -> Result<Vec<Variant>, LoadError> {
    defs.iter()
        .map(|d| {
            Variant::new(d.clone()).map_err(|error| LoadError::Build { name: d.name.clone(), error: Box::new(error) })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOML: &str = "name = \"tiny\"\nfiles = 8\nranks = 8\nstart_fen = \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n[[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n";
    const INI: &str = "[one:chess]\ncastling = false\n\n[two:one]\ndoubleStep = false\n";

    #[test]
    fn formats_by_name_and_path() {
        assert_eq!(Format::parse(" TOML ").unwrap(), Format::Toml);
        assert_eq!(Format::parse("variants.ini").unwrap(), Format::Ini);
        assert_eq!(Format::parse("").unwrap(), Format::Auto);
        let e = Format::parse("yaml\u{1b}[2J").unwrap_err().to_string();
        assert!(e.contains("'yaml\\u{1b}[2j'") && !e.contains('\u{1b}'), "{e}");
        assert_eq!(Format::of_path("a/B.INI"), Format::Ini);
        assert_eq!(Format::of_path("x.toml"), Format::Toml);
        assert_eq!(Format::of_path("x.txt"), Format::Auto);
    }

    #[test]
    fn every_variant_of_a_text() {
        let names = |f| definitions(INI, "v.ini", f).unwrap().into_iter().map(|d| d.name).collect::<Vec<_>>();
        assert_eq!(names(Format::Ini), ["one", "two"]);
        assert_eq!(names(Format::Auto), ["one", "two"]);
        assert_eq!(definitions(TOML, "t.toml", Format::Auto).unwrap()[0].name, "tiny");
        assert!(matches!(definitions(INI, "v.ini", Format::Toml), Err(LoadError::Definition(_))));
        assert!(matches!(definitions("name = [", "x", Format::Auto), Err(LoadError::Neither { .. })));
    }

    #[test]
    fn the_variant_asked_for() {
        assert_eq!(definition(INI, "v.ini", Format::Ini, Some("two")).unwrap().name, "two");
        let e = definition(INI, "v.ini", Format::Auto, None).unwrap_err();
        assert_eq!(e, LoadError::SeveralVariants(vec!["one".into(), "two".into()]));
        assert!(e.to_string().contains("one, two"), "{e}");
        assert_eq!(definition("; nothing\n", "v.ini", Format::Ini, None).unwrap_err(), LoadError::NoVariant);
        assert!(definition(INI, "v.ini", Format::Ini, Some("three")).unwrap_err().to_string().contains("three"));
        assert_eq!(definition(TOML, "t.toml", Format::Toml, Some(" tiny ")).unwrap().name, "tiny");
        let e = definition(TOML, "t.toml", Format::Auto, Some("chess")).unwrap_err();
        assert_eq!(e, LoadError::OtherName { defined: "tiny".into(), wanted: "chess".into() });
    }

    #[test]
    fn compiling_reports_the_variant() {
        let defs = definitions(INI, "v.ini", Format::Ini).unwrap();
        assert_eq!(compile(&defs).unwrap().len(), 2);
        let bad = TOML.replace("betza = \"K\"", "betza = \"KcacacaW\"");
        let defs = definitions(&bad, "t.toml", Format::Toml).unwrap();
        let e = compile(&defs).unwrap_err();
        assert!(matches!(e, LoadError::Build { ref name, .. } if name == "tiny"), "{e}");
    }
}
