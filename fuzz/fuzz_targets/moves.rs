//! Move-text parsing: byte 0 chooses the variant, byte 1 the number of
//! random legal moves played from the start (0..31, chosen by the next
//! bytes), the rest is move text read in that position, in the core notation
//! and in every protocol's notation. A text that parses must name a legal
//! move and read back from that move's own text; every legal move's text, in
//! every notation, must read back as the same move.
#![no_main]

use chimera::position::Position;
use chimera_engine::notation::{move_in, move_out, Style};
use chimera_fuzz::*;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let Some(v) = builtin(b.byte() as usize) else { return };
    let mut pos = Position::start(v.clone());
    let plies = b.byte() % 32;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[b.below(moves.len())];
        pos.make(m);
    }
    check_consistent(&pos, "after the random moves");
    let text = String::from_utf8_lossy(b.rest()).to_string();
    let legal = pos.legal_moves();
    if let Ok(m) = pos.parse_move(&text) {
        assert!(legal.contains(&m), "'{text}' parsed as a move that is not legal in {}", pos.fen());
        let own = pos.move_text(m);
        assert!(own.eq_ignore_ascii_case(text.trim()), "'{text}' parsed as {own} in {}", pos.fen());
    }
    for style in [Style::Uci, Style::Xboard, Style::Ucci, Style::Usi] {
        if let Ok(m) = move_in(&mut pos, &text, style) {
            assert!(legal.contains(&m), "{style:?} '{text}' parsed as an illegal move in {}", pos.fen());
        }
    }
    for &m in &legal {
        for style in [Style::Uci, Style::Xboard, Style::Ucci, Style::Usi] {
            let t = move_out(&pos, m, style);
            if style == Style::Usi && pos.geometry().height > 26 {
                continue;
            }
            match move_in(&mut pos, &t, style) {
                Ok(back) => assert_eq!(back, m, "{style:?} {t} reads back as {} in {}", pos.move_text(back), pos.fen()),
                Err(e) => panic!("{style:?} {t} (core {}) does not read back in {}: {e}", pos.move_text(m), pos.fen()),
            }
        }
    }
});
