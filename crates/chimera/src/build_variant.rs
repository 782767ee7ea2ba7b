//! Building a playable variant from its definition: compile the tables
//! ([`crate::variant`]), then read the whole start FEN as a position
//! ([`crate::position`]), so that [`Position::start`] cannot fail. Here,
//! above both modules, so that the variant's data does not depend on the
//! position that holds it.

use crate::position::Position;
use crate::variant::{BuildError, Variant, VariantDef};
use std::sync::Arc;

impl Variant {
    /// Compiles a definition and checks its start position.
    ///
    /// ```
    /// use chimera::variant::{BuildError, Variant, VariantDef};
    /// let src = r#"
    /// name = "tiny"
    /// files = 4
    /// ranks = 4
    /// start_fen = "k3/4/4/3K w - - 0 1"
    /// [[piece]]
    /// name = "king"
    /// letter = "k"
    /// betza = "K"
    /// royal = true
    /// "#;
    /// assert!(Variant::new(VariantDef::from_toml(src, "tiny.toml").unwrap()).is_ok());
    /// // touching kings: a start position no game can have
    /// let bad = src.replace("k3/4/4/3K", "kK2/4/4/4");
    /// let e = Variant::new(VariantDef::from_toml(&bad, "tiny.toml").unwrap()).unwrap_err();
    /// assert!(matches!(e, BuildError::StartFen(_)), "{e}");
    /// ```
    pub fn new(def: VariantDef) -> Result<Variant, BuildError> {
        let v = Arc::new(Variant::compile(def)?);
        let fen = v.def.start_fen.clone();
        Position::from_fen(v.clone(), &fen).map_err(BuildError::StartFen)?;
        Ok(Arc::try_unwrap(v).expect("the probe position was dropped"))
    }
}
