//! The XBetza parser and compiler: bytes 0 and 1 choose the board (2..16
//! files and ranks), the rest is the XBetza text of a piece `x` in a variant
//! with two kings. The parser must not panic; a piece that compiles must have
//! only on-board squares in its tables, and its moves, placed on a few
//! squares, must make and unmake cleanly and agree with the reference
//! legality test.
#![no_main]

use chimera::position::Position;
use chimera::square::NO_SQUARE;
use chimera::variant::Variant;
use chimera_fuzz::*;
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

/// A FEN board with the white king on a1, the black king on the top-right
/// corner, and white `X` / black `x` on the squares given (square index
/// `rank * w + file`).
fn board(w: usize, h: usize, white_x: usize, black_x: usize) -> String {
    let mut cells = vec!['.'; w * h];
    cells[0] = 'K';
    cells[w * h - 1] = 'k';
    if cells[white_x] == '.' {
        cells[white_x] = 'X';
    }
    if cells[black_x] == '.' {
        cells[black_x] = 'x';
    }
    let mut rows = Vec::new();
    for r in (0..h).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for f in 0..w {
            match cells[r * w + f] {
                '.' => empty += 1,
                c => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        rows.push(s);
    }
    rows.join("/")
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let w = 2 + b.byte() as usize % 15;
    let h = 2 + b.byte() as usize % 15;
    let text = String::from_utf8_lossy(b.rest()).to_string();
    let _ = chimera::betza::parse(&text);
    if text.contains(['\'', '\n', '\r']) || text.chars().any(|c| c.is_control()) {
        return; // cannot be written in a TOML literal string
    }
    let n = w * h;
    let start = board(w, h, n / 2, n / 2 + w.min(n - n / 2 - 1));
    let toml = format!(
        "name = \"fuzz\"\nfiles = {w}\nranks = {h}\nstart_fen = \"{start} w - - 0 1\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"x\"\nletter = \"x\"\nbetza = '{text}'\n"
    );
    let Ok(v) = Variant::from_toml(&toml, "fuzz.toml") else { return };
    for c in &v.tables.cells {
        assert!(c.to.index() < n, "cell to {:?} off a {w}x{h} board for '{text}'", c.to);
        assert!(c.victim == NO_SQUARE || c.victim.index() < n, "victim {:?} off the board for '{text}'", c.victim);
    }
    let v = Arc::new(v);
    let mut pos = Position::start(v.clone());
    check_consistent(&pos, "start");
    check_moves(&mut pos, 64);
    check_against_reference(&mut pos);
    // the piece on a few other squares, including the edges
    for sq in [1, w - 1, n - w, n - 2, (h / 2) * w, b.below(n)] {
        let fen = format!("{} w - - 0 1", board(w, h, sq, n - 1 - sq));
        if let Ok(mut p) = Position::from_fen(v.clone(), &fen) {
            check_moves(&mut p, 64);
            check_against_reference(&mut p);
        }
    }
});
