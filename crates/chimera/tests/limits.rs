//! The limits that keep Chimera safe on untrusted input (docs/reliability.md):
//! each is tested at the limit (accepted) and just beyond it (a typed error
//! that names the limit).

use chimera::position::Position;
use chimera::variant::{Variant, VariantDef};
use chimera::{betza, builtin, compile};
use std::sync::Arc;

/// A variant with a `w`×`h` board, two kings and the extra `[[piece]]`
/// sections given.
fn toml(w: usize, h: usize, start: &str, pieces: &str) -> String {
    format!(
        "name = \"limits\"\nfiles = {w}\nranks = {h}\nstart_fen = \"{start}\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n{pieces}"
    )
}

/// A FEN board of `w`×`h` with the white king on a1 and the black king on
/// the last square.
fn kings(w: usize, h: usize) -> String {
    let mut rows = vec![w.to_string(); h];
    rows[0] = if w > 1 { format!("{}k", w - 1) } else { "k".into() };
    rows[h - 1] = if w > 1 { format!("K{}", w - 1) } else { "K".into() };
    format!("{} w - - 0 1", rows.join("/"))
}

#[test]
fn board_size_limits() {
    assert_eq!((chimera::square::MAX_FILES, chimera::square::MAX_RANKS), (16, 16));
    assert_eq!(chimera::square::MAX_BOARD_SQUARES, 255);
    // the smallest board holds two kings only next to each other, which is check
    assert!(Variant::from_toml(&toml(2, 2, "1k/2 w - - 0 1", ""), "t.toml").is_ok());
    for (w, h) in [(16, 15), (15, 16), (3, 2), (16, 2), (2, 16)] {
        let v = Variant::from_toml(&toml(w, h, &kings(w, h), ""), "t.toml").unwrap();
        let mut pos = Position::start(Arc::new(v));
        // the kings in the corners: three moves each (where they do not touch)
        assert_eq!(pos.legal_moves().len(), if (w, h) == (3, 2) { 1 } else { 3 }, "{w}x{h}");
        let last = chimera::square::Square::new(w * h - 1);
        assert!(!pos.piece_at(last).is_empty(), "{w}x{h}: the corner square {last:?} holds the king");
    }
    // 16x16 has 256 squares: square 255 would be the "no square" marker
    for (w, h) in [(16, 16), (17, 15), (15, 17), (1, 8), (8, 1), (255, 255)] {
        let e = VariantDef::from_toml(&toml(w, h, "8/8 w - - 0 1", ""), "t.toml").unwrap_err().to_string();
        assert!(e.contains("is outside 2x2 to 16x16 or has more than 255 squares"), "{w}x{h}: {e}");
    }
    // a size too large for the file's number type is an error too, not a panic
    let e = VariantDef::from_toml(&toml(100000, 8, "8 w - - 0 1", ""), "t.toml").unwrap_err().to_string();
    assert!(e.contains("expected u8"), "{e}");
}

#[test]
fn piece_type_limits() {
    // 26 letters, each plain, promoted ('+') and crazyhouse-promoted ('~'):
    // the most types a file can name, below the hard cap of MAX_PIECE_TYPES
    let mut pieces = String::new();
    let mut n = 1; // the king
    for c in 'a'..='z' {
        for l in [c.to_string(), format!("+{c}"), format!("{c}~")] {
            if l == "k" {
                continue;
            }
            pieces.push_str(&format!("\n[[piece]]\nname = \"p{n}\"\nletter = \"{l}\"\nbetza = \"W\"\n"));
            n += 1;
        }
    }
    assert_eq!(n, 78);
    assert!(n <= chimera::MAX_PIECE_TYPES);
    let v = Variant::from_toml(&toml(16, 15, "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w - - 0 1", &pieces), "t")
        .unwrap();
    assert_eq!(v.def.pieces.len(), 78);
    let mut pos =
        Position::from_fen(Arc::new(v), "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/ABCDEFGHIJLMNOPK w - - 0 1")
            .unwrap();
    assert!(pos.legal_moves().len() > 10);
    // a 79th type needs a letter already in use
    let more = format!("{pieces}\n[[piece]]\nname = \"extra\"\nletter = \"a\"\nbetza = \"W\"\n");
    let e = VariantDef::from_toml(&toml(8, 8, &kings(8, 8), &more), "t").unwrap_err().to_string();
    assert!(e.contains("is used twice"), "{e}");
}

#[test]
fn one_type_more_than_the_build_takes_is_refused() {
    // two-letter IDs name enough types: (aa), (ab), ... and the king; one
    // more than MAX_PIECE_TYPES (120 here, 512 in chimera-wide) is an error
    // that says the build is too small (the CLI then tries chimera-wide)
    let letters = b"abcdefghijklmnopqrstuvwxyz";
    let id = |i: usize| format!("({}{})", letters[i / 26] as char, letters[i % 26] as char);
    let pieces = |n: usize| -> String {
        (0..n).map(|i| format!("\n[[piece]]\nname = \"p{i}\"\nletter = \"{}\"\nbetza = \"W\"\n", id(i))).collect()
    };
    let max = chimera::MAX_PIECE_TYPES;
    let fits = VariantDef::from_toml(&toml(8, 8, &kings(8, 8), &pieces(max - 1)), "t").unwrap();
    assert_eq!(fits.pieces.len(), max);
    assert_eq!(fits.pieces[max - 1].token(chimera::square::Color::White), id(max - 2).to_ascii_uppercase());
    let e = VariantDef::from_toml(&toml(8, 8, &kings(8, 8), &pieces(max)), "t").unwrap_err();
    assert!(e.is_too_large(), "{e}");
    assert!(e.to_string().contains(&format!("at most {max} piece types are supported")), "{e}");
    // walls are one type more: a full set with walls is too large as well
    let walls = format!("{}\n[rules]\nwalls = true\n", pieces(max - 1));
    let e = VariantDef::from_toml(&toml(8, 8, &kings(8, 8), &walls), "t").unwrap_err();
    assert!(e.is_too_large(), "{e}");
    assert!(e.to_string().contains("no room for the wall type"), "{e}");
    // an error in a definition is not one of the build's limits
    let e = VariantDef::from_toml(
        &toml(8, 8, &kings(8, 8), "\n[[piece]]\nname = \"x\"\nletter = \"x\"\nbetza = \"W?\"\n"),
        "t",
    )
    .unwrap_err();
    assert!(!e.is_too_large(), "{e}");
}

#[test]
fn xbetza_length_limit() {
    assert_eq!(betza::MAX_LEN, 256);
    let at = "fW".repeat(128);
    assert_eq!(at.len(), betza::MAX_LEN);
    assert!(betza::parse(&at).is_ok());
    let e = betza::parse(&format!("{at}W")).unwrap_err();
    assert!(e.message.contains("at most 256 characters, this one has 257"), "{e}");
    // a huge one fails at once, and its message does not repeat it
    let huge = "W".repeat(10_000_000);
    let e = betza::parse(&huge).unwrap_err().to_string();
    assert!(e.len() < 200, "{}", e.len());
    // in a variant file: an error naming the piece's XBetza, not a slow compile
    let piece = format!("\n[[piece]]\nname = \"x\"\nletter = \"x\"\nbetza = \"{}\"\n", "fW".repeat(200));
    let e = VariantDef::from_toml(&toml(8, 8, &kings(8, 8), &piece), "t").unwrap_err().to_string();
    assert!(e.contains("at most 256 characters"), "{e}");
}

#[test]
fn trajectory_node_limit() {
    let piece = |b: &str| format!("\n[[piece]]\nname = \"x\"\nletter = \"x\"\nbetza = \"{b}\"\n");
    // two riding legs on the largest board stay within the limit of one square
    let start = "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w - - 0 1";
    let v = Variant::from_toml(&toml(16, 15, start, &piece("aR")), "t").unwrap();
    // (a later leg without a direction turns only straight on or by 90° on
    // `R`; the unmoved piece shares the moved piece's lists)
    assert!(v.tables.cells.len() > 200_000, "{}", v.tables.cells.len());
    assert_eq!(Position::start(Arc::new(v)).legal_moves().len(), 3);
    // many legs: an error as soon as one square needs too many nodes (fast)
    let t = std::time::Instant::now();
    let e = Variant::from_toml(&toml(16, 15, start, &piece("aaaaaaaaaaaaaaaaaaaaaaaaQ")), "t").unwrap_err();
    let e = e.to_string();
    assert!(e.contains(&format!("more than {} trajectory nodes", compile::MAX_NODES_PER_SQUARE)), "{e}");
    assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
}

#[test]
fn compile_size_limit() {
    // each `aQ` piece (a queen move, then another) needs about 900,000
    // trajectory nodes on a 12x12 board (two colours, moved and unmoved, the
    // latter counted against the budget though their lists are shared): one
    // fits, a few exceed the budget of the whole variant, which bounds the
    // tables too
    let piece = |l: char| format!("\n[[piece]]\nname = \"{l}\"\nletter = \"{l}\"\nbetza = \"aQ\"\n");
    let start = "11k/12/12/12/12/12/12/12/12/12/12/K11 w - - 0 1";
    let one = Variant::from_toml(&toml(12, 12, start, &piece('x')), "t").unwrap();
    let per_piece = one.tables.cells.len();
    assert!(per_piece > compile::MIN_COMPILE_NODES / 8 && per_piece <= compile::MIN_COMPILE_NODES, "{per_piece}");
    let t = std::time::Instant::now();
    let many: String = "abcdefghij".chars().map(piece).collect();
    let e = Variant::from_toml(&toml(12, 12, start, &many), "t").unwrap_err().to_string();
    let budget = compile::compile_budget(11, 144);
    assert_eq!(budget, compile::MIN_COMPILE_NODES);
    assert!(e.contains(&format!("the variant needs more than {budget} trajectory nodes")), "{e}");
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
}

/// The budget grows with the piece types and the squares, between its
/// floor and its cap: a variant with many piece types may build more nodes
/// than a small one, and a small variant that needs far more than any real
/// one fails within the floor (`aaQfiaRR8` here; the fuzzed `aaBfiaRR8` on
/// 15x8, which fits now that its later legs do not turn back, used to take
/// four times as long, against the cap).
#[test]
fn compile_budget_scales_with_the_variant() {
    assert_eq!(compile::compile_budget(2, 64), compile::MIN_COMPILE_NODES);
    assert_eq!(compile::compile_budget(60, 200), 60 * 4 * 200 * compile::NODES_PER_PIECE_SQUARE);
    assert_eq!(compile::compile_budget(120, 255), compile::MAX_COMPILE_NODES);
    let start = "K14/15/15/15/15/15/15/14k w - - 0 1";
    let piece = |l: &str, b: &str| format!("\n[[piece]]\nname = \"{l}\"\nletter = \"{l}\"\nbetza = '{b}'\n");
    let e = Variant::from_toml(&toml(15, 8, start, &piece("x", "aaQfiaRR8")), "t").unwrap_err().to_string();
    let small = compile::compile_budget(2, 120);
    assert!(
        e.contains(&format!("more than {small} trajectory nodes (the budget of 2 piece types on 120 squares)")),
        "{e}"
    );
    // 50 piece types of about 50,000 nodes each on 16x15 (a queen and a
    // knight) fit: more than the floor, within the budget of 51 types
    let letters: Vec<String> = (b'a'..=b'z').filter(|&c| c != b'k').map(|c| (c as char).to_string()).collect();
    let types: Vec<String> = letters.iter().cloned().chain(letters.iter().map(|l| format!("{l}~"))).take(50).collect();
    let many: String = types.iter().map(|l| piece(l, "QN")).collect();
    let start16 = "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w - - 0 1";
    let v = Variant::from_toml(&toml(16, 15, start16, &many), "t").unwrap();
    let cells = v.tables.cells.len();
    // (the budget counts the unmoved pieces' lists, shared with the moved
    // pieces', a second time)
    assert!(2 * cells > compile::MIN_COMPILE_NODES, "{cells} cells: not beyond the floor");
    assert!(cells <= compile::compile_budget(51, 240), "{cells}");
}

#[test]
fn every_built_in_variant_is_far_below_the_compile_limit() {
    for name in builtin::playable_names() {
        let v = builtin::variant(name).unwrap();
        // cells (the unmoved pieces share the moved pieces' lists): Chu Shogi
        // (39 types on 12x12, with Lions, Falcons and Eagles) about 202,000;
        // Dai Shogi (55 types on 15x15, the same long-range pieces) about
        // 408,000; Macadamia Shogi (49 types on 13x13) about 527,000; Cashew
        // Shogi (44 types on 13x13) is the largest, about 651,000, most of them
        // the hook movers' trees (a sideways ride from every square of a ride:
        // RmasR, BmasB, WBmasB)
        let limit = match name {
            "cashewshogi" | "macadamiashogi" => compile::MAX_COMPILE_NODES / 6,
            "daishogi" => compile::MAX_COMPILE_NODES / 8,
            "chushogi" => compile::MAX_COMPILE_NODES / 16,
            _ => compile::MAX_COMPILE_NODES / 32,
        };
        assert!(v.tables.cells.len() < limit, "{name}: {}", v.tables.cells.len());
    }
}

#[test]
fn pocket_limit() {
    let v = Arc::new(builtin::variant("crazyhouse").unwrap());
    let max = chimera::variant::MAX_POCKET - 1;
    let at = format!("4k3/8/8/8/8/8/8/4K3[{}] w - - 0 1", "Q".repeat(max));
    let p = Position::from_fen(v.clone(), &at).unwrap();
    assert_eq!(p.pocket(chimera::square::Color::White, p.variant().def.piece_by_letter('q').unwrap()), 63);
    assert_eq!(Position::from_fen(v.clone(), &p.fen()).unwrap().hash(), p.hash());
    let beyond = format!("4k3/8/8/8/8/8/8/4K3[{}] w - - 0 1", "Q".repeat(max + 1));
    let e = Position::from_fen(v, &beyond).unwrap_err();
    assert!(e.message.contains("too many pieces in a pocket"), "{e}");
}

#[test]
fn move_counters_saturate_and_huge_ones_are_errors() {
    let v = Arc::new(builtin::variant("chess").unwrap());
    let mut p = Position::from_fen(v.clone(), "4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295").unwrap();
    let m = p.parse_move("e8d8").unwrap();
    p.make(m);
    assert_eq!(p.fen(), "3k4/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295");
    assert_eq!(p.hash(), p.compute_hash());
    let e = Position::from_fen(v.clone(), "4k3/8/8/8/8/8/8/4K3 b - - 4294967296 1").unwrap_err();
    assert_eq!(e.field, "half-move clock");
    let e = Position::from_fen(v, "4k3/8/8/8/8/8/8/4K3 b - - 0 99999999999999999999").unwrap_err();
    assert_eq!(e.field, "move number");
}

#[test]
fn deep_move_histories() {
    // 20,000 plies of knight moves, played one by one on one position
    let v = Arc::new(builtin::variant("chess").unwrap());
    let mut p = Position::start(v);
    for i in 0..20_000 {
        let t = ["g1f3", "g8f6", "f3g1", "f6g8"][i % 4];
        let m = p.parse_move(t).unwrap();
        p.make(m);
    }
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 20000 10001");
    assert_eq!(p.hash(), p.compute_hash());
}

#[test]
fn huge_fens_are_errors_with_short_messages() {
    let v = Arc::new(builtin::variant("chess").unwrap());
    for fen in [
        format!("{}8 w - - 0 1", "8/".repeat(1_000_000)),
        format!("{}/8/8/8/8/8/8/8 w - - 0 1", "1".repeat(1_000_000)),
        format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {}", "x ".repeat(1_000_000)),
        format!("4k3/8/8/8/8/8/8/4K3[{}] w - - 0 1", "Q".repeat(1_000_000)),
    ] {
        let e = Position::from_fen(v.clone(), &fen).unwrap_err();
        assert!(e.to_string().len() < 400, "{}", &e.to_string()[..400]);
    }
}

/// A position with more legal moves than a new move buffer holds (4,096)
/// loses none: the buffer grows. Checked against a count made here, square by
/// square: a leaper with 48 leaps (none can be blocked) and drops of 20 piece
/// types from the hand on every empty square.
#[test]
fn positions_with_more_moves_than_the_first_buffer_lose_none() {
    use chimera::moves::INITIAL_MOVES;
    let (w, h) = (16i32, 15i32);
    let leaps: Vec<(i32, i32)> = [(0, 1), (1, 1), (0, 2), (1, 2), (2, 2), (0, 3), (1, 3), (2, 3), (3, 3)]
        .iter()
        .flat_map(|&(a, b)| [(a, b), (b, a)].into_iter().flat_map(|(x, y)| [(x, y), (-x, y), (x, -y), (-x, -y)]))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(leaps.len(), 48);
    let in_hand = "abcdefghijlmnopqrstu";
    let on = |f: i32, r: i32| (0..w).contains(&f) && (0..h).contains(&r);
    // the black king on the last square; white leapers on the squares of the
    // lower ranks with both coordinates even that cannot reach it
    let bk = (w - 1, h - 1);
    let mut board = vec![vec!['.'; w as usize]; h as usize];
    board[0][0] = 'K';
    board[bk.1 as usize][bk.0 as usize] = 'k';
    for r in (0..h - 4).step_by(2) {
        for f in (0..w).step_by(2) {
            if board[r as usize][f as usize] == '.' && !leaps.iter().any(|&(x, y)| (f + x, r + y) == bk) {
                board[r as usize][f as usize] = 'X';
            }
        }
    }
    let empty_for_white = |f: i32, r: i32| on(f, r) && !matches!(board[r as usize][f as usize], 'K' | 'X');
    let mut expected = 0;
    for r in 0..h {
        for f in 0..w {
            let king_step = |&&(x, y): &&(i32, i32)| x.abs() <= 1 && y.abs() <= 1;
            expected += match board[r as usize][f as usize] {
                'X' => leaps.iter().filter(|&&(x, y)| empty_for_white(f + x, r + y)).count(),
                'K' => leaps.iter().filter(king_step).filter(|&&(x, y)| empty_for_white(f + x, r + y)).count(),
                '.' => in_hand.len(),
                _ => 0,
            };
        }
    }
    assert!(expected > INITIAL_MOVES, "{expected}");
    let fen_rows: Vec<String> = (0..h)
        .rev()
        .map(|r| {
            let mut s = String::new();
            let mut run = 0;
            for f in 0..w {
                match board[r as usize][f as usize] {
                    '.' => run += 1,
                    c => {
                        if run > 0 {
                            s += &run.to_string();
                            run = 0;
                        }
                        s.push(c);
                    }
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            s
        })
        .collect();
    let fen = format!("{}[{}] w - - 0 1", fen_rows.join("/"), in_hand.to_uppercase());
    let mut pieces = String::from("\n[rules.drops]\ncaptures_to_hand = true\n");
    pieces += "\n[[piece]]\nname = \"x\"\nletter = \"x\"\nbetza = \"WFDNAHCZG\"\n";
    for c in in_hand.chars() {
        pieces += &format!("\n[[piece]]\nname = \"{c}\"\nletter = \"{c}\"\nbetza = \"W\"\n");
    }
    let v = Arc::new(Variant::from_toml(&toml(w as usize, h as usize, &fen, &pieces), "big.toml").unwrap());
    let mut pos = Position::from_fen(v, &fen).unwrap();
    let mut moves = pos.legal_moves();
    assert_eq!(moves.len(), expected);
    assert_eq!(pos.legal_moves_reference().len(), expected);
    moves.sort_by_key(|m| m.0);
    moves.dedup();
    assert_eq!(moves.len(), expected);
    assert_eq!(chimera::perft::perft(&mut pos, 1), expected as u64);
}

/// A variants.ini board beyond this build's 16 files is marked as the
/// build's limit, so that the `chimera` binary and the Python package hand
/// it to the wide build; a size no build has is a plain error.
#[test]
fn a_variants_ini_board_beyond_16_files_is_too_large() {
    use chimera::loader::{definitions, Format};
    let e = definitions("[big20:chess]\nmaxFile = 20\n", "big.ini", Format::Ini).unwrap_err();
    assert!(e.is_too_large(), "{e}");
    assert!(e.to_string().contains("'20' is not a size from 2 to 16"), "{e}");
    let e = definitions("[tiny:chess]\nmaxFile = 1\n", "tiny.ini", Format::Ini).unwrap_err();
    assert!(!e.is_too_large(), "{e}");
}
