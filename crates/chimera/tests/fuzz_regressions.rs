//! Regression tests for the findings of the cargo-fuzz targets under fuzz/
//! (see docs/reliability.md). Each test holds the input that failed, made
//! readable, and checks the invariant the target found broken.

use chimera::position::Position;
use chimera::variant::Variant;
use chimera::{builtin, square::NO_SQUARE};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The variant the betza target builds: a `w`×`h` board, two kings and a
/// piece `x` with the given XBetza.
fn betza_variant(w: usize, h: usize, betza: &str, start: &str) -> Arc<Variant> {
    let toml = format!(
        "name = \"fuzz\"\nfiles = {w}\nranks = {h}\nstart_fen = \"{start}\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"x\"\nletter = \"x\"\nbetza = '{betza}'\n"
    );
    Arc::new(Variant::from_toml(&toml, "fuzz.toml").unwrap())
}

fn texts(pos: &Position, moves: &[chimera::moves::Move]) -> BTreeSet<String> {
    moves.iter().map(|&m| pos.move_text(m)).collect()
}

/// Fuzz finding (betza target): a piece whose multi-leg move can come back to
/// its own square counted as attacking that square, so a royal capturing it
/// there seemed to move into check; the incremental legality test then
/// disagreed with the reference method. The inputs, one per XBetza found.
#[test]
fn a_piece_never_attacks_its_own_square() {
    let cases = [
        (8, 8, "KaK", "7k/8/8/8/8/8/8/Kx6 w - - 0 1", "a1b1"),
        (5, 7, "DmaKbbaK", "4k/5/5/5/5/5/Kx3 w - - 0 1", "a1b1"),
        (8, 10, "aQ", "7k/8/8/8/8/8/8/8/8/Kx6 w - - 0 1", "a1b1"),
        (12, 12, "aR7paR7paR", "11k/12/12/12/12/12/12/12/12/12/12/Kx10 w - - 0 1", "a1b1"),
        (5, 5, "mabKabK", "4k/5/5/5/Kx3 w - - 0 1", "a1b1"),
        (13, 2, "NRR7paR", "x11k/K12 w - - 0 1", "a1a2"),
        (3, 2, "faceFiR", "x1k/K2 w - - 0 1", "a1a2"),
        (2, 9, "AiAaR", "1k/2/2/2/2/2/2/2/Kx w - - 0 1", "a1b1"),
        // found on 8x8, where it now needs more trajectory nodes than a
        // variant of two piece types may build (see below)
        (7, 7, "fDJJDJafaaRfR", "6k/7/7/7/7/7/Kx5 w - - 0 1", "a1b1"),
        (9, 3, "afaaR", "8k/9/Kx7 w - - 0 1", "a1b1"),
        (10, 3, "mNaR", "9k/10/Kx8 w - - 0 1", "a1b1"),
    ];
    for (w, h, betza, fen, capture) in cases {
        let v = betza_variant(w, h, betza, fen);
        let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
        let fast = pos.legal_moves();
        let fast = texts(&pos, &fast);
        let reference = pos.legal_moves_reference();
        let reference = texts(&pos, &reference);
        assert_eq!(fast, reference, "{betza} in {fen}");
        assert!(fast.contains(capture), "{betza} in {fen}: the king's capture {capture} is legal: {fast:?}");
        // every square a cell (or a ray's cell) reaches is on the board
        for c in chimera::compile::plain_cells(&v.tables.cells) {
            assert!(c.to.index() < w * h && (c.victim == NO_SQUARE || c.victim.index() < w * h));
        }
    }
    let toml = |fen: &str| {
        format!(
            "name = \"fuzz\"\nfiles = 8\nranks = 8\nstart_fen = \"{fen}\"\n\n\
             [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
             [[piece]]\nname = \"x\"\nletter = \"x\"\nbetza = 'fDJJDJafaaQfR'\n"
        )
    };
    // (with `afaaR` it now fits: later legs without a direction turn only
    // straight on or by 90° on `R`, where they take seven turns on `Q`)
    let r = Variant::from_toml(&toml("7k/8/8/8/8/8/8/Kx6 w - - 0 1"), "fuzz.toml");
    if chimera::width::RAYS {
        // a build that lays each piece's rides out as rays as soon as the
        // piece is built counts the laid-out tables against the budget: the
        // piece fits, and its moves agree with the reference method
        let mut pos = Position::start(Arc::new(r.unwrap()));
        let fast = pos.legal_moves();
        let reference = pos.legal_moves_reference();
        let fast = texts(&pos, &fast);
        assert_eq!(fast, texts(&pos, &reference));
        assert!(fast.contains("a1b1"), "{fast:?}");
    } else {
        let e = r.unwrap_err().to_string();
        assert!(e.contains("trajectory nodes (the budget of 2 piece types on 64 squares)"), "{e}");
    }
}

/// Fuzz finding (fen target): a castling right with the king next to its
/// castling square made the castling move and the king's plain step share
/// one text (`f1g1`), so the text of a legal move read back as another move.
/// Such a castle is now written as the king's move onto its rook (`f1h1`),
/// and a king on its castling square castles as `c1c1`, as Fairy-Stockfish
/// writes them (`c1a1` where a pass is `c1c1`); the FEN and every move's
/// text read back as themselves.
#[test]
fn castling_with_the_king_beside_its_castling_square_is_written_onto_the_rook() {
    // a FEN reads back as itself, after every legal move too, and no two
    // legal moves share a text, each of which reads back as its move
    let check = |v: &Arc<Variant>, fen: &str| -> BTreeSet<String> {
        let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pos.fen(), fen);
        let moves = pos.legal_moves();
        let all = texts(&pos, &moves);
        assert_eq!(all.len(), moves.len(), "{fen}: two moves share a text: {all:?}");
        for m in moves {
            let t = pos.move_text(m);
            assert_eq!(pos.parse_move(&t).unwrap(), m, "{fen}: {t}");
            let undo = pos.make(m);
            let after = pos.fen();
            let again = Position::from_fen_permissive(v.clone(), &after).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!((again.fen(), again.hash()), (after.clone(), pos.hash()), "{fen}: {t}");
            pos.unmake(m, &undo);
        }
        all
    };
    let v = Arc::new(builtin::variant("pawnsideways").unwrap());
    check(&v, "r1bqkB2/2pppp1r/8/Pp5p/1n6/7N/N1PPPPPP/3QBK1R w Kq - 1 13");
    let chess = Arc::new(builtin::variant("chess").unwrap());
    for (fen, castle, plain, after) in [
        // king f1, castling square g1: the castle goes onto the rook
        ("4k3/8/8/8/8/8/8/5K1R w K - 0 1", "f1h1", Some("f1g1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"),
        // king d1, castling square c1
        ("4k3/8/8/8/8/8/8/R2K4 w Q - 0 1", "d1a1", Some("d1c1"), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"),
        // king b1 castles rightwards onto c1
        ("4k3/8/8/8/8/8/8/RK6 w Q - 0 1", "b1a1", Some("b1c1"), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"),
        // king c1 on its castling square: only the rook moves
        ("4k3/8/8/8/8/8/8/R1K5 w Q - 0 1", "c1c1", None, "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", Some("e1f1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"),
        ("4k3/8/8/8/8/8/8/3K3R w K - 0 1", "d1g1", Some("d1e1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"),
    ] {
        let all = check(&chess, fen);
        assert!(all.contains(castle), "{fen}: {all:?}");
        assert!(plain.is_none_or(|p| all.contains(p)), "{fen}: {all:?}");
        let mut pos = Position::from_fen_permissive(chess.clone(), fen).unwrap();
        let m = pos.parse_move(castle).unwrap();
        assert_eq!(m.kind(), chimera::moves::MoveKind::Castle, "{fen}: {castle}");
        pos.make(m);
        assert_eq!(pos.fen(), after, "{fen}: {castle}");
    }
    // where a pass is written like a castle that leaves the king in place
    // (Fairy-Stockfish lists both as c1c1), the castle is written onto the
    // rook (c1a1) and c1c1 is the pass
    let janggi_like = chimera::ini::variant_from_ini("[x:chess]\npass = true\n", "a.ini", "x").unwrap();
    let v = Arc::new(Variant::new(janggi_like).unwrap());
    let fen = "4k3/8/8/8/8/8/8/R1K5 w Q - 0 1";
    let all = check(&v, fen);
    assert!(all.contains("c1a1") && all.contains("c1c1"), "{all:?}");
    let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
    let m = pos.parse_move("c1a1").unwrap();
    assert_eq!(m.kind(), chimera::moves::MoveKind::Castle);
    pos.make(m);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
    let m = pos.parse_move("c1c1").unwrap();
    assert_ne!(m.kind(), chimera::moves::MoveKind::Castle);
    pos.make(m);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/R1K5 b Q - 1 1");
    check(&v, "4k3/8/8/8/8/8/8/R2K4 w Q - 0 1");
}

/// Fuzz finding (fen target): a pocket in a variant without hands (written
/// `[N]` or as an extra rank) was read and hashed but never written back, so
/// the FEN round trip changed the hash. It is now an error.
#[test]
fn pockets_in_variants_without_hands_are_refused() {
    for (variant, fen) in [
        ("nightrider", "r1bqk1nr/ppppppbp/6p1/8/1P6/NP6/P2PPPPP/R1BQKBNR[N] w KQkq - 1 5"),
        ("cambodian", "r1ssmnnr/8/8/pppppppp/8/8/PPPPPPPP/8/Rnk w - - 0 1"),
        ("xiangqi", "r1bk2bnr/4a4/9/9/P1P1P1R1P/7C1/9/RNBAKABNP/7C1/9/RNBAKABNP w - - 0 1"),
        ("clobber", "PpPpP/pPpPp/PpPpP/PpPpP/pPpPp/PpPP1/p b - - 0 1"),
    ] {
        let v = Arc::new(builtin::variant(variant).unwrap());
        let e = Position::from_fen_permissive(v, fen).expect_err(fen);
        assert_eq!(e.field, "board", "{e}");
    }
    let chess = Arc::new(builtin::variant("chess").unwrap());
    let e = Position::from_fen_permissive(chess.clone(), "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1").expect_err("no hand");
    assert!(e.message.contains("has no pieces in hand"), "{e}");
    // an empty pocket stays accepted, and variants with hands keep theirs
    assert!(Position::from_fen_permissive(chess, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1").is_ok());
    let zh = Arc::new(builtin::variant("crazyhouse").unwrap());
    let p = Position::from_fen_permissive(zh.clone(), "4k3/8/8/8/8/8/8/4K3[Qn] w - - 0 1").unwrap();
    assert_eq!(Position::from_fen_permissive(zh, &p.fen()).unwrap().hash(), p.hash());
}

/// Fuzz finding (fen target): a king in a Seirawan pocket could be gated in,
/// giving a second king and a FEN that no longer read back. A royal piece in
/// a pocket is now an error.
#[test]
fn royal_pieces_in_a_pocket_are_refused() {
    let v = Arc::new(builtin::variant("seirawan").unwrap());
    let e =
        Position::from_fen_permissive(v.clone(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhK] w KQBCDF - 0 1")
            .expect_err("king in hand");
    assert!(e.message.contains("royal"), "{e}");
    assert!(Position::from_fen_permissive(
        v,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1"
    )
    .is_ok());
    let zh = Arc::new(builtin::variant("crazyhouse").unwrap());
    assert!(Position::from_fen_permissive(zh, "4k3/8/8/8/8/8/8/4K3[k] w - - 0 1").is_err());
}

/// Fuzz finding (betza target): a capture ending on a square the same path
/// had passed while it was empty (`aabK`: step, step, step back and capture)
/// can never happen, but the check test counted it as an attack, so the king
/// could not step next to such a piece.
#[test]
fn a_path_never_captures_on_a_square_it_passed_empty() {
    let cases = [
        (6, 6, "aabK", "5k/6/6/6/6/Kx4 w - - 0 1", "a1a2"),
        (12, 11, "cbDcDbaRD", "11k/12/12/12/12/12/12/12/12/12/Kx10 w - - 0 1", "a1b2"),
        (9, 6, "abK7F", "x7k/9/9/9/9/K8 w - - 0 1", "a1a2"),
        (5, 3, "aB", "2x1k/5/K4 w - - 0 1", ""),
        (5, 7, "DmbKaabK", "4k/5/5/5/5/5/Kx3 w - - 0 1", "a1b2"),
        (11, 8, "aacbK", "10k/11/11/11/11/11/11/Kx9 w - - 0 1", "a1a2"),
        (8, 2, "cKmabK0", "6xk/K7 w - - 0 1", "a1b2"),
        (4, 7, "abR", "x2k/4/4/4/4/4/K3 w - - 0 1", "a1a2"),
        (8, 12, "eKvmfJaabK", "7k/8/8/8/8/8/8/8/8/8/8/Kx6 w - - 0 1", "a1b2"),
        (16, 10, "fiJ7mKaabK", "15k/16/16/16/16/16/16/16/16/Kx14 w - - 0 1", "a1a2"),
    ];
    for (w, h, betza, fen, step) in cases {
        let v = betza_variant(w, h, betza, fen);
        let mut pos = Position::from_fen_permissive(v, fen).unwrap();
        let fast = pos.legal_moves();
        let fast = texts(&pos, &fast);
        let reference = pos.legal_moves_reference();
        let reference = texts(&pos, &reference);
        assert_eq!(fast, reference, "{betza} in {fen}");
        assert!(step.is_empty() || fast.contains(step), "{betza} in {fen}: {step} is legal: {fast:?}");
    }
}

/// Fuzz finding (betza target): a piece whose double step goes backwards
/// (`bmnD` in `cmWbeffifmnD`) made an e.p. square that the FEN named alone,
/// and the reader, looking for the victim beyond it in the forward
/// direction, dropped it: the FEN was not a fixed point. Such an e.p. field
/// is now written with both squares, as for Path-style pieces.
#[test]
fn e_p_squares_of_backward_double_steps_survive_the_fen() {
    let start = "7k/8/x7/X7/8/8/8/K7 w - - 0 1";
    let v = betza_variant(8, 8, "cmWbeffifmnD", start);
    let mut pos = Position::from_fen_permissive(v.clone(), start).unwrap();
    let m = pos.parse_move("a5a3").unwrap();
    pos.make(m);
    let fen = pos.fen();
    let again = Position::from_fen_permissive(v, &fen).unwrap();
    assert_eq!(again.fen(), fen);
    assert_eq!(again.hash(), pos.hash(), "{fen}");
    assert!(fen.contains(" a3a4 ") || fen.contains(" a4a3 "), "{fen}");
}

/// Fuzz finding (betza target, a timeout): three riding legs on a 12x11 board
/// made the compiler build tens of millions of nodes; it now stops at the
/// variant's node budget (`compile::compile_budget`) with an error, quickly.
#[test]
fn many_riding_legs_fail_fast() {
    let start = "11k/12/12/12/12/12/12/12/12/12/K10X w - - 0 1";
    let t = std::time::Instant::now();
    let toml = format!(
        "name = \"fuzz\"\nfiles = 12\nranks = 11\nstart_fen = \"{start}\"\n\n\
         [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
         [[piece]]\nname = \"x\"\nletter = \"x\"\nbetza = 'sdRdNcaaRR'\n"
    );
    let e = Variant::from_toml(&toml, "fuzz.toml").unwrap_err().to_string();
    if chimera::width::RAYS {
        // the laid-out tables (rides as rays) fit the budget, and the
        // nodes built on the way stay below `compile::MAX_COMPILE_WORK`:
        // the definition compiles, and the start position, where the piece
        // gives check, is refused
        assert!(e.contains("is in check"), "{e}");
    } else {
        assert!(e.contains("trajectory nodes"), "{e}");
    }
    assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
}

/// Fuzz finding (variant_file target): a variants.ini region naming a square
/// beyond the board (`a8` on a 6-rank board) overflowed the rank arithmetic
/// that mirrors zones (a panic with debug assertions). It is now an error
/// naming the option and the square.
#[test]
fn ini_regions_beyond_the_board_are_errors() {
    for region in ["a8", "h1", "a0"] {
        let ini = format!(
            "[tiny:chess]\nmaxRank = 6\nmaxFile = 6\ncastling = false\ndoubleStep = false\n\
             startFen = rnbkqr/pppppp/6/6/PPPPPP/RNBKQR w - - 0 1\npromotionRegionBlack = a1 {region}\n"
        );
        let e = chimera::ini::variant_from_ini(&ini, "t.ini", "tiny").unwrap_err().to_string();
        assert!(e.contains(&format!("square '{region}' is not on the board")), "{region}: {e}");
    }
    let ini = "[tiny:chess]\nmaxRank = 6\nmaxFile = 6\ncastling = false\ndoubleStep = false\n\
               startFen = rnbkqr/pppppp/6/6/PPPPPP/RNBKQR w - - 0 1\npromotionRegionBlack = a1 f1\n";
    assert!(chimera::ini::variant_from_ini(ini, "t.ini", "tiny").is_ok());
}

/// Fuzz finding (fen target): a FEN in which the side not to move is in
/// check let the side to move capture a royal piece; in minishogi the king
/// then went to the hand, and the FEN written no longer read back. In the
/// variants where captures go to the hand such a FEN is refused now.
#[test]
fn fens_with_the_side_not_to_move_in_check_are_refused_where_captures_go_to_the_hand() {
    let v = Arc::new(builtin::variant("minishogi").unwrap());
    let e =
        Position::from_fen_permissive(v.clone(), "1SB2/3kg/5/P2B1/1KR2[PRRg] w - - 0 1").expect_err("black in check");
    assert_eq!(e.field, "side to move");
    assert!(e.message.contains("the side not to move (b) is in check"), "{e}");
    assert!(Position::from_fen_permissive(v, "1SB2/3kg/5/P2B1/1KR2[PRRg] b - - 0 1").is_ok());
    let zh = Arc::new(builtin::variant("crazyhouse").unwrap());
    assert!(Position::from_fen_permissive(zh.clone(), "4k3/8/8/8/8/8/8/4K2R[] w - - 0 1").is_ok());
    assert!(Position::from_fen_permissive(zh, "4k2R/8/8/8/8/8/8/4K3[] w - - 0 1").is_err());
    // elsewhere a captured king leaves a position that still reads back
    let chess = Arc::new(builtin::variant("chess").unwrap());
    let mut p = Position::from_fen_permissive(chess.clone(), "4k2R/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let m = p.parse_move("h8e8").unwrap();
    p.make(m);
    assert_eq!(Position::from_fen_permissive(chess, &p.fen()).unwrap().hash(), p.hash());
}

/// Fuzz finding (fen target): with two kings of one colour (a fuzzed
/// Seirawan FEN), a castling right was given to the first king on the board;
/// once that king stood next to its castling square the FEN written after a
/// move no longer read back. The right now goes to the first king that can
/// castle on that side.
#[test]
fn castling_rights_go_to_a_king_that_can_castle() {
    let round_trip_after_every_move = |variant: &str, fen: &str| {
        let v = Arc::new(builtin::variant(variant).unwrap());
        let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
        for m in pos.legal_moves() {
            let undo = pos.make(m);
            let after = pos.fen();
            let again = Position::from_fen_permissive(v.clone(), &after).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(again.fen(), after);
            assert_eq!(again.hash(), pos.hash(), "{after}");
            pos.unmake(m, &undo);
        }
    };
    round_trip_after_every_move(
        "seirawan",
        "rnbqkbnr/pppppppp/8/8/8/8/PKRPRPPP/RnBQKBNR[HEhBe] w CQBCDFGkqbcabg - 0 1",
    );
    round_trip_after_every_move(
        "seirawan",
        "1Enkrbnr/8/8/8/8/PK1HpRpR/BNBKQrPP/RN1BKBeR[eeeeeeeeeEeeeeeBppp] w CQBCDF - 0 1",
    );
    // the king on b1 is next to c1: the right goes to the king on e1, so the
    // FEN keeps it (a king beside its castling square comes after the others)
    let chess = Arc::new(builtin::variant("chess").unwrap());
    let pos = Position::from_fen_permissive(chess.clone(), "4k3/8/8/8/8/8/8/RK2K3 w Q - 0 1").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/RK2K3 w Q - 0 1");
    round_trip_after_every_move("chess", "4k3/8/8/8/8/8/8/RK2K3 w Q - 0 1");
    round_trip_after_every_move("chess", "4k3/8/8/8/8/8/8/RK6 w Q - 0 1");
}

/// Fuzz finding (fen target): in a gating variant, a FEN of only a board
/// field followed by several spaces panicked (the reader inserted the empty
/// castling field Fairy-Stockfish writes at a position the field list did not
/// have). It reads as the board alone now.
#[test]
fn a_gating_fen_of_a_board_and_spaces_does_not_panic() {
    let v = Arc::new(builtin::variant("seirawan").unwrap());
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe]   ",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe]  ",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w  - 0 1",
    ] {
        let p = Position::from_fen_permissive(v.clone(), fen).unwrap();
        assert_eq!(p.side_to_move(), chimera::square::Color::White, "{fen:?}");
    }
}

/// Fuzz finding (betza target, found by the CI smoke run): a piece with a
/// plain non-jumping two-step (`nD`) and an initial one (`ifmnD`, which
/// creates e.p. rights) had two legal moves a6a8 with one text, a plain move
/// and a double step; the move text did not read back as the move. Along one
/// path the generator keeps one move, the double step (the de-duplication of
/// fix 18; fix 16 did it at compile time for one path only); a leaper's
/// D beside the initial double step is checked too.
#[test]
fn a_plain_step_and_an_initial_double_step_to_one_square_are_one_move() {
    let fen = "13k/14/14/14/X13/13x/14/14/14/K13 w - - 0 1";
    // along one path (nD and ifmnD), and beside a leaper's D
    for betza in ["mWfceFifmnDnD", "DifmnD", "ifmnDmD"] {
        let v = betza_variant(14, 10, betza, fen);
        let mut pos = Position::from_fen_permissive(v, fen).unwrap();
        let moves = pos.legal_moves();
        let a8: Vec<_> = moves.iter().filter(|&&m| pos.move_text(m) == "a6a8").collect();
        assert_eq!(a8.len(), 1, "{betza}: {:?}", moves.iter().map(|&m| pos.move_text(m)).collect::<Vec<_>>());
        if betza == "mWfceFifmnDnD" {
            // along one path the one move is the double step: it creates e.p. rights
            assert_eq!(a8[0].kind(), chimera::moves::MoveKind::Double, "{betza}");
        }
        for &m in &moves {
            let text = pos.move_text(m);
            assert_eq!(pos.parse_move(&text).unwrap(), m, "{betza}: {text}");
        }
        let reference = pos.legal_moves_reference();
        assert_eq!(texts(&pos, &moves), texts(&pos, &reference), "{betza}");
        // the plain two-step still goes backwards and sideways
        let all = texts(&pos, &moves);
        for t in ["a6a4", "a6c6"] {
            assert!(all.contains(t), "{betza}: {t} in {all:?}");
        }
    }
}

/// Fuzz finding (betza target, found by the CI smoke run of a fresh clone): a
/// piece with a plain leap `D` and a lame initial two-step (`immnD`, which
/// creates e.p. rights once some piece of the variant captures e.p., here its
/// own `eF`) had two moves f2h2 with one text when the passed square was
/// empty: the plain leap and the double step sat on different paths, so the
/// compile-time merge of one path did not see them. The generator now keeps
/// one of them, the double step; with the passed square occupied the leap
/// is still there.
#[test]
fn a_leap_and_a_lame_double_step_to_one_square_are_one_move() {
    use chimera::moves::MoveKind;
    let fen = "5x3k/5X4/K9 w - - 0 1";
    for betza in ["DmecebFimmnD", "DeFimnD", "DWeFimnD"] {
        let v = betza_variant(10, 3, betza, fen);
        let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
        let moves = pos.legal_moves();
        let all: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
        for t in ["f2h2", "f2d2"] {
            let same: Vec<_> = moves.iter().filter(|&&m| pos.move_text(m) == t).collect();
            assert_eq!(same.len(), 1, "{betza}: {t} in {all:?}");
            assert_eq!(same[0].kind(), MoveKind::Double, "{betza}: {t}");
        }
        for &m in &moves {
            let text = pos.move_text(m);
            assert_eq!(pos.parse_move(&text).unwrap(), m, "{betza}: {text}");
        }
        let reference = pos.legal_moves_reference();
        assert_eq!(texts(&pos, &moves), texts(&pos, &reference), "{betza}");
        // a piece on the passed square blocks the double step, not the leap
        let blocked = "5x3k/4xXx3/K9 w - - 0 1";
        let mut pos = Position::from_fen_permissive(v, blocked).unwrap();
        let moves = pos.legal_moves();
        for t in ["f2h2", "f2d2"] {
            let same: Vec<_> = moves.iter().filter(|&&m| pos.move_text(m) == t).collect();
            assert_eq!(same.len(), 1, "{betza}: {t} with the path blocked");
            assert_eq!(same[0].kind(), MoveKind::Normal, "{betza}: {t} with the path blocked");
        }
    }
}

/// Fuzz finding (variant_file target, re-run on the final code): an error
/// whose span ended inside a multi-byte character (a U+FFFD from invalid
/// UTF-8) panicked while the reader computed its line and column. The input
/// as the target gives it to the reader: byte 0 chooses the TOML reader.
#[test]
fn an_error_span_inside_a_multibyte_character_does_not_panic() {
    let bytes = include_bytes!("fuzz_inputs/variant_file_char_boundary.bin");
    let text = String::from_utf8_lossy(&bytes[1..]).to_string();
    let r = chimera::variant::VariantDef::from_toml(&text, "fuzz.toml");
    let e = r.expect_err("the input is not a valid variant");
    assert!(e.line >= 1, "{e:?}");
}

/// A FEN read and written again is a fixed point, with the same hash.
fn assert_fen_fixed_point(variant: &str, fen: &str) -> Position {
    let v = Arc::new(builtin::variant(variant).unwrap());
    let pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
    let written = pos.fen();
    let again = Position::from_fen_permissive(v, &written).unwrap_or_else(|e| panic!("{written}: {e}"));
    assert_eq!(again.fen(), written, "{variant}: {fen} is written as {written}, which is read back differently");
    assert_eq!(again.hash(), pos.hash(), "{variant}: hash after the round trip of {fen}");
    pos
}

/// Fuzz finding 15 (fen target): an e.p. field in the two-square (Path) form
/// naming a piece that no piece of the side to move can take e.p. (`f2f3`
/// with a Hawk on f2 in S-House) was kept by the reader, then written as one
/// square, which the reader drops: not a fixed point. The Path form is now
/// read under the rule that makes and keeps e.p. squares: kept if the victim
/// makes Path-form e.p. squares (Berolina's pawns), else only if a piece of
/// the side to move could take it.
#[test]
fn path_form_e_p_fields_are_kept_only_where_a_move_keeps_them() {
    // S-House: the Hawk on f2 is no pawn and nothing takes it e.p.
    for field in ["f2f3", "f3f2", "f2f3c8", "f3f2a1"] {
        let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPHPP/RNBQKBNR[Ee] b - {field} 0 1");
        let pos = assert_fen_fixed_point("shouse", &fen);
        assert!(pos.fen().contains(" - 0 1"), "{field}: {}", pos.fen());
    }
    // S-House: a pawn double step that a black pawn can take e.p. is kept, in
    // either form, and written as one square
    for field in ["f3", "f3f4", "f4f3"] {
        let fen = format!("rnbqkbnr/pppp1ppp/8/8/4pP2/8/PPPPP1PP/RNBQKBNR[Ee] b - {field} 0 1");
        let pos = assert_fen_fixed_point("shouse", &fen);
        assert!(pos.fen().contains(" f3 0 1"), "{field}: {}", pos.fen());
    }
    // Berolina: the pawn's e.p. square is kept in the Path form whether or not
    // it can be taken (as a move keeps it)
    let v = Arc::new(builtin::variant("berolina").unwrap());
    let mut pos = Position::start(v);
    let m = pos.parse_move("e2c4").unwrap();
    pos.make(m);
    let after = pos.fen();
    assert!(after.contains(" d3c4 ") || after.contains(" c4d3 "), "{after}");
    assert_fen_fixed_point("berolina", &after);
}

/// Fuzz finding 19 (fen target, the run on commit c5741bb): with two
/// kings of one colour (Seirawan FENs), the reader gives each castling right
/// to the first king that may castle on that side, but the generator castled
/// with the first unmoved king in its piece list: here the king on b1, next
/// to the queenside castling square c1, so "castling" b1c1 was generated,
/// whose text reads back as nothing legal. The generator now castles with
/// the king the right belongs to. The five inputs found, as FENs.
#[test]
fn castling_uses_the_king_the_right_belongs_to() {
    let v = Arc::new(builtin::variant("seirawan").unwrap());
    let fens = [
        "rBKnqrnr/1BKnqrnr/1Pppqpkp/8/8/8/8/pKRBBKNR[HEhe] w KQDcdfg - 1 1",
        "kn1rBbnR/ppppPRqr/8/8/8/8/PPPPRrPP/BNRKKBNR[HEhNNNNNNNNNNNE] w KQDccf",
        "kn1rBbrN/qppppprP/8/8/8/8/PPPRBrPP/NNRKKBBR[HEhNNNNBNNNNNE] w KQD",
        "rnbPPPnp/ppprpppp/8/8/8/8/PPpNPKPP/KR1NRNKP[H-He] w AQKddddddGCDecdf",
    ];
    for fen in fens {
        let Ok(mut pos) = Position::from_fen_permissive(v.clone(), fen) else { continue };
        let moves = pos.legal_moves();
        for &m in &moves {
            let text = pos.move_text(m);
            let back = pos.parse_move(&text).unwrap_or_else(|e| panic!("{fen}: {text}: {e}"));
            assert_eq!(back, m, "{fen}: {text}");
        }
        let reference = pos.legal_moves_reference();
        assert_eq!(texts(&pos, &moves), texts(&pos, &reference), "{fen}");
    }
    let mut pos = Position::from_fen_permissive(v.clone(), fens[0]).unwrap();
    let moves = pos.legal_moves();
    let all = texts(&pos, &moves);
    assert!(!all.contains("b1c1"), "{all:?}");
    // the right's own king still castles: the queenside right of the king on
    // f1 (b1 is too close to c1), once the squares between are empty
    let open = "4k3/8/8/8/8/8/8/1KR2K1R[EHeh] w KQ - 0 1";
    let mut pos = Position::from_fen_permissive(v, open).unwrap();
    let moves = pos.legal_moves();
    let all = texts(&pos, &moves);
    assert!(all.contains("f1c1") && !all.contains("b1c1"), "{all:?}");
}

/// Fuzz finding 20 (fen target, the run on commit c5741bb): an e.p.
/// field naming a square behind which stands a piece of the side to move
/// (`a6` with Black to move and Black's second king on a7, in chessgi) was
/// kept, so the pawn on b7 took its own king "en passant" into its hand,
/// and the FEN written after that move did not read back (a royal piece in a
/// pocket). The one-square form now needs the opponent's piece behind the
/// square, as the two-square form already did.
#[test]
fn e_p_fields_need_the_opponents_piece_behind_the_square() {
    let v = Arc::new(builtin::variant("chessgi").unwrap());
    let fen = "rnbqkbnr/kppppppp/8/8/R7/8/P1PPPPPP/BRNBKQnR b KQk a6 0 1";
    let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
    assert!(pos.fen().contains(" KQk - "), "{}", pos.fen());
    let moves = pos.legal_moves();
    assert_eq!(texts(&pos, &moves), ["b8a6".to_string()].into_iter().collect());
    // a real e.p. square still stands: White's double step a2a4 beside the
    // pawn on b4
    let v = Arc::new(builtin::variant("chess").unwrap());
    let pos = Position::from_fen_permissive(v, "4k3/8/8/8/Pp6/8/8/4K3 b - a3 0 1").unwrap();
    assert!(pos.fen().contains(" a3 "), "{}", pos.fen());
}

/// Fuzz finding 22 (fen target): an S-House FEN whose White hand held 63
/// knights, the most a pocket counts, while the board held more knights to
/// capture: taking one overflowed the pocket (it stayed at 63, so the knight
/// was lost and unmake gave one back that was never there; the hash check
/// of make caught it). A FEN is now refused when more pieces than a pocket
/// holds could come into one pocket (both hands, the board, demoted or
/// promoted), and the message names the kind.
#[test]
fn pockets_that_captures_could_overflow_are_refused() {
    let bytes = include_bytes!("fuzz_inputs/fen_full_pocket.bin");
    // byte 0 chose the variant in the fuzz target; the rest is the FEN
    let fen = std::str::from_utf8(&bytes[1..]).unwrap();
    let v = Arc::new(builtin::variant("shouse").unwrap());
    let e = Position::from_fen_permissive(v, fen).unwrap_err().to_string();
    assert!(e.contains("could end in one hand as 'N'") && e.contains("(63)"), "{e}");
    // crazyhouse: 16 pawns on the board, and pawns in hand up to the limit;
    // every pawn may also become a queen, rook, bishop or knight
    let v = Arc::new(builtin::variant("crazyhouse").unwrap());
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let fen = |pawns: usize| format!("{board}[{}] w KQkq - 0 1", "P".repeat(pawns));
    let mut p = Position::from_fen_permissive(v.clone(), &fen(47)).unwrap();
    // drops, captures and unmake keep the counts (make checks the hash in debug builds)
    for m in p.legal_moves() {
        let before = p.fen();
        let undo = p.make(m);
        p.unmake(m, &undo);
        assert_eq!(p.fen(), before);
    }
    let e = Position::from_fen_permissive(v, &fen(48)).unwrap_err().to_string();
    assert!(e.contains("64 pieces could end in one hand as 'P'"), "{e}");
}

/// Fuzz finding 23 (fen target): an S-House FEN whose two-square e.p. field
/// `a1b6` named a knight on a1 as the victim of a "double step" through b6.
/// The reader kept it (a black pawn could capture on b6), `a7b6` then took
/// the knight on a1 en passant, and White's gate on a1 stayed open on the
/// emptied square, so the FEN written after the move did not read back.
/// Now a two-square field must name a double step the victim's piece has
/// (passing the one square, ending on the other), and any victim taken
/// away from the destination (e.p. or locust) closes its gate.
#[test]
fn e_p_fields_must_name_a_double_step_of_the_victim() {
    let bytes = include_bytes!("fuzz_inputs/fen_distant_ep_victim.bin");
    // byte 0 chose the variant; a newline in the FEN separates fields
    let fen = String::from_utf8_lossy(&bytes[1..]).replace('\n', " ");
    let v = Arc::new(builtin::variant("shouse").unwrap());
    let mut p = Position::from_fen_permissive(v.clone(), &fen).unwrap();
    assert_eq!(p.fen(), "rbbkqnnr/pppkpbpr/8/8/P7/8/PPPP1PPP/NRBQKbNR[] b KA - 0 9");
    assert!(p.parse_move("a7b6").is_err());
    // a real double step's two-square field is still read (Berolina's form)
    let b = Arc::new(builtin::variant("berolina").unwrap());
    let real = Position::from_fen_permissive(b, "rnbqkbnr/pppppppp/8/8/6P1/8/PPPP1PPP/RNBQKBNR b KQkq f3g4 0 1");
    assert!(real.is_ok_and(|p| p.fen().contains(" f3g4 ")), "Berolina's field is kept");
}

/// The second half of finding 23: a locust capture of a piece on the
/// opponent's gate rank closes that gate (a Lion added to Seirawan chess
/// takes the knight on g8 and returns).
#[test]
fn a_locust_victim_on_its_gate_square_closes_the_gate() {
    let src = builtin::source("seirawan").unwrap().to_string()
        + "\n[[piece]]\nname = \"lion\"\nletter = \"l\"\nbetza = \"KNADcaKcabKmabK\"\n";
    let def = chimera::variant::VariantDef::from_toml(&src, "seirawan-lion.toml").unwrap();
    let v = Arc::new(Variant::new(def).unwrap());
    let mut p = Position::from_fen_permissive(v, "4k1n1/5L2/8/8/8/8/8/4K3[HEhe] w g - 0 1").unwrap();
    let m = p.parse_move("f7g8,g8f7").unwrap();
    p.make(m);
    let fen = p.fen();
    assert!(!fen.contains(" g "), "the g-gate closed with its knight: {fen}");
    // the FEN written reads back to itself
    let again = Position::from_fen_permissive(p.variant().clone(), &fen).unwrap();
    assert_eq!(again.fen(), fen);
}

/// Fuzz finding 24 (fen target, Chess960): with several kings of one colour
/// (fuzzed Capablanca Random FENs), a rook's file can lie on one king's
/// h-side and on another's a-side. The writer names each right by its rook's
/// file only, so the reader could not tell which king (and so which wing) a
/// right belonged to: first `HBhc` was refused as "given twice" (4 inputs),
/// then, after a first fix that tried the next king, `KRKR1BKr2 w Bj` read
/// back with the right on the other wing (hash differs; 2 inputs). Chess960
/// castling rights now need a single king of their side.
#[test]
fn chess960_rights_need_a_single_king() {
    let v = Arc::new(builtin::variant("caparandom").unwrap());
    for fen in [
        "nkrbqkbrn1/pppAPpp1pp/10/10/P6p2/10/qPQ1PPQPPP/CRBQKnNRKq w HBhc - 1 2",
        "b3Rkb1cr/1p1p2pp1p/1p1np1n2p/2p7/6P3/5Q1PpP/C2PP2P1P/KRKR1BKr2 w Bj - 0 1",
        "b3rkb1cr/1p1p2pp1p/1p1npp2n1/2p7/6P3/5Q1C2/pPPPP2P1P/NKRBRP2K1 w Cje - 0 1",
    ] {
        let e = Position::from_fen_permissive(v.clone(), fen).unwrap_err().to_string();
        assert!(e.contains("ambiguous") && e.contains("single king"), "{fen}: {e}");
        // without the rights the position reads and round-trips
        let fields: Vec<&str> = fen.split(' ').collect();
        let plain = format!("{} {} - - 0 1", fields[0], fields[1]);
        assert_fen_fixed_point("caparandom", &plain);
    }
    // one king: every right reads back as written
    let p = assert_fen_fixed_point("caparandom", "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w JAja - 0 1");
    assert!(p.fen().contains(" JAja "), "{}", p.fen());
}

/// Fuzz finding 25 (fen target, after the strict FEN reader): a 5check FEN
/// in which Black, not to move, stood in check (`Qc5` on the king's
/// diagonal) was read; White's legal `c5f8` captured the king, and the FEN
/// written after it had no black king, which the strict reader refuses. A
/// strict read now refuses a FEN whose side not to move is in check (pyffish
/// 0.0.90 calls it valid, and captures the king too); a permissive one reads
/// it, and the position after the king's capture reads back permissively.
#[test]
fn strict_fens_with_the_side_not_to_move_in_check_are_refused() {
    use chimera::position::FenProblem;
    let fen = "5k2/p4p1p/2q3p1/2Q1P3/8/7N/P4P1P/2R1NK1R w - - 4+4 0 22";
    let v = Arc::new(builtin::variant("5check").unwrap());
    let e = Position::from_fen(v.clone(), fen).expect_err("black is in check with White to move");
    assert_eq!(e.problem, FenProblem::OpponentInCheck);
    assert!(e.to_string().contains("the side not to move (b) is in check"), "{e}");
    assert_eq!(chimera::validate::fsf_validation_code(&v, fen), 1, "pyffish does not look for it");
    let mut p = Position::from_fen_permissive(v.clone(), fen).unwrap();
    let m = p.parse_move("c5f8").unwrap();
    p.make(m);
    assert_eq!(Position::from_fen_permissive(v.clone(), &p.fen()).unwrap().hash(), p.hash());
    // with Black to move the same board is an ordinary check
    assert!(Position::from_fen(v, "5k2/p4p1p/2q3p1/2Q1P3/8/7N/P4P1P/2R1NK1R b - - 4+4 0 22").is_ok());
}

/// Fuzz finding 26 (betza target, `dedddN` on 10×12): `d` lets a piece
/// capture a friend, and it captured its own king; the FEN after the move had
/// no white king, which the strict reader refuses (and the game would go on
/// without one). A friend-capturing move may not take a royal piece; other
/// friends it still takes.
#[test]
fn a_piece_never_captures_its_own_royal() {
    let start = "7k/8/8/8/8/1X6/3X4/K7 w - - 0 1";
    let v = betza_variant(8, 8, "dN", start);
    let mut pos = Position::from_fen(v.clone(), start).unwrap();
    let moves = pos.legal_moves();
    let t = texts(&pos, &moves);
    assert!(!t.contains("b3a1"), "{t:?}");
    assert!(t.contains("b3d2"), "{t:?}");
    let m = pos.parse_move("b3d2").unwrap();
    pos.make(m);
    let again = Position::from_fen(v, &pos.fen()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.hash(), pos.hash());
    // the input's piece
    let start = "9k/10/10/10/10/10/10/10/10/1X8/10/K9 w - - 0 1";
    let v = betza_variant(10, 12, "dedddN", start);
    let mut pos = Position::from_fen(v, start).unwrap();
    let moves = pos.legal_moves();
    let t = texts(&pos, &moves);
    // (it only captures friends, and e.p.: with the king out of reach, no move)
    assert!(!t.iter().any(|m| m.starts_with("b3")), "{t:?}");
}

/// A lame initial leap passes squares that become e.p. squares: a straight
/// triple step (`ifmnH`) two, a lame oblique leap (`ifmnN`) only the one on
/// its path (written with the destination, `e3f4`, as its victim is not
/// behind it). The FEN after the step reads back as the same position, and
/// every move's text there as its move.
#[test]
fn lame_initial_leaps_make_e_p_squares_on_their_path_only() {
    for (betza, fen, step, ep) in [
        ("fmWfceFifmnH", "4k3/8/8/3x4/3x4/8/4X3/4K3 w - - 0 1", "e2e5", "e3e4"),
        // x on c3 attacks d2, which a straight line through e3 and f4 would pass
        ("fmWfceFifmnN", "4k3/8/8/8/3x4/2x5/4X3/4K3 w - - 0 1", "e2f4", "e3f4"),
    ] {
        let v = betza_variant(8, 8, betza, fen);
        let mut pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
        let m = pos.parse_move(step).unwrap_or_else(|e| panic!("{betza}: {e}"));
        pos.make(m);
        let after = pos.fen();
        assert_eq!(after.split(' ').nth(3), Some(ep), "{betza}: {after}");
        let mut again = Position::from_fen_permissive(v.clone(), &after).unwrap();
        assert_eq!((again.fen(), again.hash()), (after.clone(), pos.hash()), "{betza}");
        let moves = again.legal_moves();
        assert_eq!(texts(&again, &moves).len(), moves.len(), "{after}");
        for m in moves {
            let t = again.move_text(m);
            assert_eq!(again.parse_move(&t).unwrap(), m, "{after}: {t}");
        }
    }
}

/// Fuzz finding 27 (betza target, `pafmcpavK` on 10×11): a piece that hops
/// over a square and comes back to capture on it (the Lion Dog's pattern)
/// attacks a square only once a piece stands there, so a king stepping next
/// to it, onto its screen, walked into its capture: the incremental test
/// (an attack map taken before the step) let a1b2 through, the reference
/// method did not, and the position after it had the side not to move in
/// check. A royal's move in such a variant is tested by playing it.
#[test]
fn a_royal_may_not_become_the_screen_of_its_own_capture() {
    let start = "8Xk/10/10/10/10/10/10/10/10/10/Kx8 w - - 0 1";
    let v = betza_variant(10, 11, "pafmcpavK", start);
    assert!(v.tables.captures_own_screen);
    let mut pos = Position::from_fen(v.clone(), start).unwrap();
    let (fast, reference) = (pos.legal_moves(), pos.legal_moves_reference());
    let (fast, reference) = (texts(&pos, &fast), texts(&pos, &reference));
    assert_eq!(fast, reference);
    assert!(!fast.contains("a1b2"), "{fast:?}");
    // the capture it would meet: with a piece on b2, x takes it by b3 and back
    let v = betza_variant(10, 11, "pafmcpavK", "9k/10/10/10/10/10/10/10/10/1X8/Kx8 b - - 0 1");
    let mut pos = Position::start(v);
    let moves = pos.legal_moves();
    assert!(texts(&pos, &moves).contains("b1b2"), "{:?}", texts(&pos, &moves));
    // an ordinary variant has no such path
    assert!(!chimera::builtin::variant("chess").unwrap().tables.captures_own_screen);
}

/// Fuzz finding 28 (variant_file target, Sittuyin from
/// tests/data/user_variants.ini with a black pawn put on e4): in the set-up
/// phase, with no king on the board yet, the incremental test took every
/// move as legal, and White could drop its king on f3, where the pawn
/// attacks it (the reference method refused it); the FEN after it had the
/// side not to move in check. A drop of a royal piece is tested by playing it.
#[test]
fn a_royal_is_never_dropped_where_it_is_attacked() {
    let ini = "[burmese]\npawn = p\nknight = n\nrook = r\nfersAlfil = f\nsilver = s\nking = k\n\
               startFen = 8/8/4pppp/pppp4/4pPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1\n\
               doubleStep = false\ncastling = false\npieceDrops = true\ncapturesToHand = false\nmustDrop = true\n\
               dropRegionWhite = *1 *2 *3\ndropRegionBlack = *6 *7 *8\nsittuyinRookDrop = true\n";
    let def = chimera::ini::variant_from_ini(ini, "fuzz.ini", "burmese").unwrap();
    let mut pos = Position::start(Arc::new(Variant::new(def).unwrap()));
    let (fast, reference) = (pos.legal_moves(), pos.legal_moves_reference());
    let (fast, reference) = (texts(&pos, &fast), texts(&pos, &reference));
    assert_eq!(fast, reference);
    // the pawn on e4 attacks f3 (and d3, where a pawn stands), not e3
    assert!(!fast.contains("K@f3") && fast.contains("K@e3"), "{fast:?}");
}
