//! The incremental check test must give exactly the reference method's legal
//! moves: along random playouts in every built-in variant, and on every
//! position of the committed pyffish reference data.

use chimera::{builtin, moves::Move, position::Position};
use std::collections::BTreeSet;
use std::sync::Arc;

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn texts(pos: &Position, ms: &[Move]) -> BTreeSet<String> {
    ms.iter().map(|&m| pos.move_text(m)).collect()
}

fn compare(pos: &mut Position) {
    let again = Position::from_fen(pos.variant().clone(), &pos.fen()).unwrap();
    assert_eq!((again.fen(), again.hash()), (pos.fen(), pos.hash()), "FEN round trip");
    let fast = pos.legal_moves();
    let reference = pos.legal_moves_reference();
    let (a, b) = (texts(pos, &fast), texts(pos, &reference));
    assert_eq!(fast.len(), a.len(), "duplicate moves in {}", pos.fen());
    assert_eq!(a, b, "incremental vs reference in {}", pos.fen());
}

fn playouts(variant: &str, games: usize, plies: usize, seed: u64) -> usize {
    let v = Arc::new(builtin::variant(variant).unwrap());
    let mut rng = Rng(seed);
    let mut positions = 0;
    for _ in 0..games {
        let mut pos = Position::start(v.clone());
        for _ in 0..plies {
            compare(&mut pos);
            positions += 1;
            let mut ms = pos.legal_moves();
            if ms.is_empty() {
                break;
            }
            // passes end the game when answered by a pass: play them rarely
            if ms.len() > 1 && rng.below(20) != 0 {
                ms.retain(|m| m.kind() != chimera::moves::MoveKind::Pass);
            }
            // prefer captures half of the time, to reach sparse tactical positions
            let caps: Vec<Move> = ms.iter().copied().filter(|&m| !pos.piece_at(m.to()).is_empty()).collect();
            let m = if !caps.is_empty() && rng.below(2) == 0 {
                caps[rng.below(caps.len())]
            } else {
                ms[rng.below(ms.len())]
            };
            let before = pos.hash();
            let fen = pos.fen();
            let undo = pos.make(m);
            pos.unmake(m, &undo);
            assert_eq!((pos.hash(), pos.fen()), (before, fen), "make/unmake of {}", pos.move_text(m));
            pos.make(m);
        }
    }
    positions
}

#[test]
fn chess_playouts() {
    assert!(playouts("chess", 40, 150, 1) > 3000);
}

#[test]
fn xiangqi_playouts() {
    assert!(playouts("xiangqi", 40, 150, 2) > 3000);
}

#[test]
fn janggi_playouts() {
    assert!(playouts("janggi", 40, 150, 3) > 3000);
}

#[test]
fn capablanca_playouts() {
    assert!(playouts("capablanca", 30, 150, 4) > 2500);
}

#[test]
fn mightylion_playouts() {
    assert!(playouts("mightylion", 40, 150, 5) > 3000);
}

#[test]
fn werewolf_playouts() {
    // contagion (the capturer of a Werewolf turns into one) with castling, e.p. and promotion
    assert!(playouts("werewolf", 30, 150, 6) > 2500);
}

#[test]
fn cashewshogi_playouts() {
    // Lion, Lion Dog and Furious Fiend (two victims), promotion by capture,
    // also by a locust capture, passes, hook movers on 13x13
    assert!(playouts("cashewshogi", 4, 120, 7) > 400);
}

#[test]
fn macadamiashogi_playouts() {
    // Lion, Lion Dog, Teaching King (two victims), promotion by capture,
    // contagion of the Teaching King and the Buddhist Spirit, three royal
    // types, hook movers on 13x13
    assert!(playouts("macadamiashogi", 4, 120, 8) > 400);
}

#[test]
fn hand_variant_playouts() {
    // gating (seirawan, shouse), the setup phase and in-place promotion
    // (sittuyin), drops (shogi, crazyhouse): each FEN also reads back the same
    for (i, name) in ["seirawan", "shouse", "sittuyin", "shogi", "crazyhouse"].into_iter().enumerate() {
        assert!(playouts(name, 12, 120, 10 + i as u64) > 1000, "{name}");
    }
}

#[test]
fn rule_variant_playouts() {
    // first-move rights in the FEN (cambodian), check counting, initial moves by
    // region with the path e.p. field (berolina, pawnsideways), walls (omicron)
    for (i, name) in ["cambodian", "3check", "berolina", "pawnsideways", "omicron"].into_iter().enumerate() {
        // three-check games end after three checks: twice as many of them
        let games = if name == "3check" { 20 } else { 10 };
        assert!(playouts(name, games, 120, 20 + i as u64) > 800, "{name}");
    }
}

#[test]
fn reference_data_positions() {
    #[derive(serde::Deserialize)]
    struct Case {
        variant: String,
        fen: String,
    }
    for file in [
        "pyffish_chess.jsonl",
        "pyffish_xiangqi.jsonl",
        "pyffish_janggi.jsonl",
        "pyffish_capablanca.jsonl",
        "hachu_mightylion.jsonl",
        "hachu_werewolf.jsonl",
    ] {
        let path = format!("{}/../../tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: Case = serde_json::from_str(line).unwrap();
            let v = Arc::new(builtin::variant(&case.variant).unwrap());
            let mut pos = Position::from_fen(v, &case.fen).unwrap();
            compare(&mut pos);
        }
    }
}

/// Castling re-runs trajectories that reach the royal's castling destination
/// but not its square: in Shako the rook landing on g2 becomes the screen of
/// the black cannon on d2, which then hits the king on h2. The king's moves
/// were listed by pyffish 0.0.90 (`legal_moves("shako", fen, [])`): without
/// the cannon it may castle (`f2h2`), with it it may not.
#[test]
fn castling_onto_a_cannon_screen() {
    let v = Arc::new(builtin::variant("shako").unwrap());
    let cases = [
        ("5k4/10/10/10/10/10/10/10/3c1K2R1/10 w K - 0 1", "f2e1 f2e2 f2e3 f2f1 f2f3 f2g1 f2g2 f2g3"),
        ("5k4/10/10/10/10/10/10/10/5K2R1/10 w K - 0 1", "f2e1 f2e2 f2e3 f2f1 f2f3 f2g1 f2g2 f2g3 f2h2"),
    ];
    for (fen, king_moves) in cases {
        let mut pos = Position::from_fen(v.clone(), fen).unwrap();
        compare(&mut pos);
        let fast = texts(&pos, &pos.clone().legal_moves());
        let got: Vec<&str> = fast.iter().map(String::as_str).filter(|m| m.starts_with("f2")).collect();
        assert_eq!(got.join(" "), king_moves, "{fen}");
    }
}

/// Bikjang: with the Janggi generals facing each other on the open e-file,
/// a move must break the facing (or pass). The incremental test, with a
/// facing test per move, gives the reference method's moves in every
/// position of the tree to depth 2, and the perft counts of pyffish 0.0.90
/// (`legal_moves("janggi", fen, moves)` summed over the tree) to depth 4.
#[test]
fn bikjang_positions() {
    let v = Arc::new(builtin::variant("janggi").unwrap());
    let fen = "rnba1abnr/4k4/1c5c1/p1p3p1p/9/9/P1P3P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    let mut pos = Position::from_fen(v, fen).unwrap();
    compare(&mut pos);
    for m in pos.legal_moves() {
        let undo = pos.make(m);
        compare(&mut pos);
        pos.unmake(m, &undo);
    }
    let counts: Vec<u64> = (1..=4).map(|d| chimera::perft::perft(&mut pos, d)).collect();
    assert_eq!(counts, [7, 186, 5_860, 174_216]);
}

/// One check-data buffer reused across positions of two variants with
/// boards of different sizes (as a program that serves several variants
/// may reuse it) gives the same legal moves as a fresh buffer, along
/// alternating playouts on a 10×10 board (Grand Chess) and an 8×8 board
/// with locust captures (Mighty Lion Chess). Each computation clears what
/// the one before left (per-square lists, uncertain marks) below that
/// one's board size.
#[test]
fn a_reused_check_buffer_serves_boards_of_different_sizes() {
    use chimera::check::CheckInfo;
    use chimera::moves::MoveList;
    let mut positions: Vec<Position> =
        ["grand", "mightylion"].iter().map(|v| Position::start(Arc::new(builtin::variant(v).unwrap()))).collect();
    let mut rng = Rng(77);
    let (mut shared, mut scratch, mut out) = (CheckInfo::new(), MoveList::new(), MoveList::new());
    let mut compared = 0;
    for _ in 0..600 {
        for pos in positions.iter_mut() {
            pos.generate_legal(&mut scratch, &mut out, &mut shared);
            let with_shared: Vec<Move> = out.iter().collect();
            let fresh = pos.legal_moves();
            assert_eq!(texts(pos, &with_shared), texts(pos, &fresh), "reused buffer in {}", pos.fen());
            compared += 1;
            if fresh.is_empty() || pos.halfmove_clock() > 60 {
                *pos = Position::start(pos.variant().clone());
            } else {
                let m = fresh[rng.below(fresh.len())];
                pos.make(m);
            }
        }
    }
    assert_eq!(compared, 1200);
}
