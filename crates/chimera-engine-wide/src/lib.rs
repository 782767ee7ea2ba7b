//! The Chimera engine for large boards: the sources of `chimera-engine`
//! compiled a second time against `chimera-wide` (two-byte squares, boards up
//! to 36×36). The API is `chimera-engine`'s; a program that serves every
//! variant runs this engine when a variant's board is too large for the
//! other.
#![warn(missing_docs)]

#[path = "../../chimera-engine/src/bench.rs"]
pub mod bench;
#[path = "../../chimera-engine/src/eval.rs"]
pub mod eval;
#[path = "../../chimera-engine/src/files.rs"]
pub mod files;
#[path = "../../chimera-engine/src/game.rs"]
pub mod game;
#[path = "../../chimera-engine/src/notation.rs"]
pub mod notation;
#[path = "../../chimera-engine/src/numbers.rs"]
pub mod numbers;
#[path = "../../chimera-engine/src/params.rs"]
pub mod params;
#[path = "../../chimera-engine/src/protocol.rs"]
pub mod protocol;
#[path = "../../chimera-engine/src/rules.rs"]
pub mod rules;
#[path = "../../chimera-engine/src/search.rs"]
pub mod search;
#[path = "../../chimera-engine/src/see.rs"]
pub mod see;
#[path = "../../chimera-engine/src/selfplay.rs"]
pub mod selfplay;
#[path = "../../chimera-engine/src/timeman.rs"]
pub mod timeman;
#[path = "../../chimera-engine/src/tt.rs"]
pub mod tt;
#[path = "../../chimera-engine/src/tune.rs"]
pub mod tune;
#[path = "../../chimera-engine/src/uci.rs"]
pub mod uci;
#[path = "../../chimera-engine/src/xboard.rs"]
pub mod xboard;

#[cfg(test)]
mod same_modules {
    /// Every module of `chimera-engine` is compiled here too.
    #[test]
    fn the_same_modules_as_chimera_engine() {
        let narrow = include_str!("../../chimera-engine/src/lib.rs");
        let wide = include_str!("lib.rs");
        for line in narrow.lines().filter(|l| l.starts_with("pub mod ")) {
            assert!(wide.lines().any(|l| l == line), "chimera-engine-wide lacks `{line}`");
        }
    }
}
