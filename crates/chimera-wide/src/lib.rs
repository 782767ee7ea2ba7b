//! Chimera for large boards: the sources of the `chimera` crate compiled a
//! second time with two-byte squares and 64-bit moves, for boards up to
//! 36×36 (Tenjiku, Dai Dai, Maka Dai Dai, Tai and Taikyoku Shogi).
//!
//! The API is the same as `chimera`'s; only [`width`] differs. `chimera`
//! keeps one-byte squares so that boards of at most 255 squares pay nothing
//! for the large ones. A program that serves every variant loads a
//! definition with `chimera` (`builtin::definition`, `loader::definition`:
//! cheap, nothing is compiled) and, when that refuses the board as too
//! large, with this crate, as the `chimera` binary does.
#![warn(missing_docs)]

#[path = "../../chimera/src/betza.rs"]
pub mod betza;
#[path = "../../chimera/src/bikjang.rs"]
pub(crate) mod bikjang;
#[path = "../../chimera/src/build_variant.rs"]
mod build_variant;
#[path = "../../chimera/src/builtin.rs"]
pub mod builtin;
#[path = "../../chimera/src/burning.rs"]
pub(crate) mod burning;
#[path = "../../chimera/src/castling.rs"]
pub(crate) mod castling;
#[path = "../../chimera/src/check.rs"]
pub mod check;
#[path = "../../chimera/src/check_counting.rs"]
pub mod check_counting;
#[path = "../../chimera/src/chu_repetition.rs"]
pub mod chu_repetition;
#[path = "../../chimera/src/compile.rs"]
pub mod compile;
#[path = "../../chimera/src/counting.rs"]
pub mod counting;
#[path = "../../chimera/src/definition.rs"]
pub mod definition;
#[path = "../../chimera/src/fen.rs"]
pub mod fen;
#[path = "../../chimera/src/footprint.rs"]
pub mod footprint;
#[path = "../../chimera/src/gating.rs"]
pub(crate) mod gating;
#[path = "../../chimera/src/highlight.rs"]
pub mod highlight;
#[path = "../../chimera/src/ini.rs"]
pub mod ini;
#[path = "../../chimera/src/legal.rs"]
pub mod legal;
#[path = "../../chimera/src/loader.rs"]
pub mod loader;
#[path = "../../chimera/src/material.rs"]
pub mod material;
#[path = "../../chimera/src/movegen.rs"]
pub mod movegen;
#[path = "../../chimera/src/moves.rs"]
pub mod moves;
#[path = "../../chimera/src/notation.rs"]
pub mod notation;
#[path = "../../chimera/src/outcome.rs"]
pub mod outcome;
#[path = "../../chimera/src/perft.rs"]
pub mod perft;
#[path = "../../chimera/src/pgn.rs"]
pub mod pgn;
#[path = "../../chimera/src/piece.rs"]
pub mod piece;
#[path = "../../chimera/src/position.rs"]
pub mod position;
#[path = "../../chimera/src/promotion.rs"]
pub(crate) mod promotion;
#[path = "../../chimera/src/royal_capture.rs"]
pub(crate) mod royal_capture;
#[path = "../../chimera/src/san.rs"]
pub mod san;
#[path = "../../chimera/src/square.rs"]
pub mod square;
#[path = "../../chimera/src/trading.rs"]
pub mod trading;
#[path = "../../chimera/src/validate.rs"]
pub mod validate;
#[path = "../../chimera/src/variant.rs"]
pub mod variant;
#[path = "../../chimera/src/walk.rs"]
pub mod walk;
pub mod width;

/// The most piece types a variant may define (120 in `chimera`, 512 in
/// `chimera-wide`).
pub use width::MAX_PIECE_TYPES;

#[cfg(test)]
mod tests {
    /// Every module of `chimera` is compiled here too.
    #[test]
    fn the_same_modules_as_chimera() {
        let narrow = include_str!("../../chimera/src/lib.rs");
        let wide = include_str!("lib.rs");
        for line in narrow.lines().filter(|l| l.contains("mod ") && l.ends_with(';')) {
            assert!(wide.lines().any(|l| l == line), "chimera-wide lacks `{line}`");
        }
        let limit = |s: &str| s.lines().find(|l| l.starts_with("pub use width::MAX_PIECE_TYPES")).map(str::to_string);
        assert_eq!(limit(narrow), limit(wide));
    }
}
