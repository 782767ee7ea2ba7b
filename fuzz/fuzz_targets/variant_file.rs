//! Both variant-file readers: the first byte chooses the reader (even:
//! Chimera's TOML format, odd: Fairy-Stockfish's variants.ini), the rest is
//! the file. A variant that builds must give a start position whose FEN
//! round-trips and whose moves make and unmake cleanly.
#![no_main]

use chimera::position::Position;
use chimera::variant::{Variant, VariantDef};
use chimera_fuzz::*;
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fn exercise(def: VariantDef) {
    let Ok(v) = Variant::new(def) else { return };
    let mut pos = Position::start(Arc::new(v));
    check_consistent(&pos, "start");
    check_fen_round_trip(&pos);
    check_moves(&mut pos, 16);
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    if first % 2 == 0 {
        if let Ok(def) = VariantDef::from_toml(&text, "fuzz.toml") {
            exercise(def);
        }
    } else if let Ok(names) = chimera::ini::variant_names(&text, "fuzz.ini") {
        for name in names.iter().take(4) {
            if let Ok(def) = chimera::ini::variant_from_ini(&text, "fuzz.ini", name) {
                exercise(def);
            }
        }
    }
});
