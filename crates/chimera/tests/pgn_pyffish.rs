//! Chimera's PGN reader against PGN files written with pyffish's SAN
//! (`tests/data/pgn`, made by `scripts/pyffish_pgn.py`): every game must
//! read, end in the position pyffish gives (the `FinalFEN` tag), write its
//! moves in the same text pyffish wrote them, and read back from Chimera's
//! own PGN to the same moves and tags.

use chimera::pgn;

#[test]
fn pyffish_pgn_files_read_to_pyffish_final_fens() {
    let dir = format!("{}/../../tests/data/pgn", env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 12, "{} PGN files", paths.len());
    let (mut games, mut moves, mut failures) = (0, 0, Vec::new());
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        for (i, g) in pgn::read_games_each(&text).into_iter().enumerate() {
            let g = match g {
                Ok(g) => g,
                Err(e) => {
                    failures.push(format!("{name}: {e}"));
                    continue;
                }
            };
            games += 1;
            moves += g.moves().len();
            let want = g.tag("FinalFEN").expect("FinalFEN tag");
            let got = g.final_position().fen();
            if got != want {
                failures.push(format!("{name} game {}: final FEN\n  ours:    {got}\n  pyffish: {want}", i + 1));
            }
            // Chimera writes each move as pyffish did
            let mut pos = g.start.clone();
            for (k, m) in g.moves().iter().enumerate() {
                let ours = pos.san(m.mv, chimera::san::Notation::Default);
                if ours != m.san {
                    failures.push(format!("{name} game {} ply {}: ours {ours}, pyffish {}", i + 1, k + 1, m.san));
                }
                pos.make(m.mv);
            }
            // and reads its own PGN back to the same game
            let again = pgn::read_games(&g.to_pgn()).map(|mut v| v.remove(0));
            match again {
                Ok(h) if h.uci_moves() == g.uci_moves() && h.tags == g.tags => {}
                Ok(_) => failures.push(format!("{name} game {}: round trip differs", i + 1)),
                Err(e) => failures.push(format!("{name} game {}: round trip: {e}", i + 1)),
            }
        }
    }
    eprintln!("{} files, {games} games, {moves} moves read", paths.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(15)].join("\n"));
}

/// Damaged copies of the reference files (characters deleted, doubled or
/// replaced by PGN's delimiters) read to games or errors, never a panic, and
/// every error names a game and a line.
#[test]
fn damaged_pgn_never_panics() {
    let dir = format!("{}/../../tests/data/pgn", env!("CARGO_MANIFEST_DIR"));
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let specials = ['{', '}', '(', ')', '[', ']', '"', ';', '$', '!', '?', '%', '\n', '*', '.', '1', '@', '+', 'x'];
    let (mut read, mut errors) = (0, 0);
    for v in ["chess", "shogi", "xiangqi", "seirawan", "makruk"] {
        let text = std::fs::read_to_string(format!("{dir}/{v}.pgn")).unwrap();
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..40 {
            let mut c = chars.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() as usize) % c.len();
                match next() % 3 {
                    0 => {
                        c.remove(at);
                    }
                    1 => c.insert(at, c[at]),
                    _ => c[at] = specials[(next() as usize) % specials.len()],
                }
            }
            let damaged: String = c.into_iter().collect();
            for g in pgn::read_games_each(&damaged) {
                match g {
                    Ok(_) => read += 1,
                    Err(e) => {
                        errors += 1;
                        assert!(e.game > 0 && e.line > 0, "{e}");
                    }
                }
            }
        }
    }
    eprintln!("damaged files: {read} games read, {errors} errors");
    assert!(read > 0 && errors > 0);
}
