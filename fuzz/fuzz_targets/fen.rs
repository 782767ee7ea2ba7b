//! The FEN parser of every built-in variant: the first byte chooses the
//! variant, the rest is the FEN. A FEN that parses must round-trip (the FEN
//! written reads back to the same board, side and hash, and is a fixed
//! point), and its legal moves must make and unmake cleanly.
#![no_main]

use chimera::position::Position;
use chimera_fuzz::*;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let Some(v) = builtin(first as usize) else { return };
    let text = String::from_utf8_lossy(rest);
    let Ok(mut pos) = Position::from_fen(v.clone(), &text) else { return };
    check_consistent(&pos, "after parsing");
    check_fen_round_trip(&pos);
    check_moves(&mut pos, 24);
});
