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
