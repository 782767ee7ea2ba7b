//! The core services a search uses: null moves, capture generation, the last
//! move, piece values from a definition.

use chimera::builtin;
use chimera::moves::MoveList;
use chimera::position::Position;
use chimera::square::Color;
use std::collections::BTreeSet;
use std::sync::Arc;

const POSITIONS: &[(&str, &str)] = &[
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    ("chess", "8/1P4k1/8/8/8/8/6K1/1r6 w - - 0 1"),
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    ("xiangqi", "2bakab2/9/4c4/p1p3p1p/4p4/2P3P2/P3P3P/4C4/4A4/2BAK1B2 w - - 0 1"),
    ("shogi", "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[] w - - 0 2"),
    ("mightylion", "rnbqkbnr/pppppppp/8/3L4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("crazyhouse", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 0 3"),
];

#[test]
fn capture_generation_is_the_capture_part_of_the_pseudo_legal_moves() {
    for &(variant, fen) in POSITIONS {
        let v = Arc::new(builtin::variant(variant).unwrap());
        let mut pos = Position::from_fen(v, fen).unwrap();
        let mut all = MoveList::new();
        let mut caps = MoveList::new();
        pos.generate_pseudo(&mut all);
        pos.generate_captures(&mut caps);
        let want: BTreeSet<chimera::width::MoveBits> = all.captures().iter().map(|m| m.0).collect();
        let got: BTreeSet<chimera::width::MoveBits> = caps.iter().map(|m| m.0).collect();
        assert_eq!(got, want, "{variant} {fen}");
        assert!(caps.quiets().is_empty());
    }
}

#[test]
fn null_move_round_trip_and_hash() {
    for &(variant, fen) in POSITIONS {
        let v = Arc::new(builtin::variant(variant).unwrap());
        let mut pos = Position::from_fen(v, fen).unwrap();
        let (hash, text) = (pos.hash(), pos.fen());
        let side = pos.side_to_move();
        let undo = pos.make_null();
        assert_eq!(pos.side_to_move(), side.flip());
        assert_eq!(pos.hash(), pos.compute_hash(), "{fen}");
        assert_ne!(pos.hash(), hash);
        // the opponent can move after a null move
        assert!(!pos.legal_moves().is_empty());
        pos.unmake_null(&undo);
        assert_eq!((pos.hash(), pos.fen()), (hash, text));
    }
}

#[test]
fn last_move_is_remembered_and_restored() {
    let v = Arc::new(builtin::variant("chess").unwrap());
    let mut pos = Position::start(v);
    assert_eq!(pos.last_move(), None);
    let m = pos.parse_move("e2e4").unwrap();
    let undo = pos.make(m);
    assert_eq!(pos.last_move(), Some(m));
    pos.unmake(m, &undo);
    assert_eq!(pos.last_move(), None);
}

#[test]
fn piece_values_in_a_definition() {
    let src = builtin::source("chess").unwrap().replace("betza = \"N\"", "betza = \"N\"\nvalue = 325");
    let v = chimera::variant::VariantDef::from_toml(&src, "x.toml").unwrap();
    let knight = v.pieces.iter().find(|p| p.letter == 'n').unwrap();
    assert_eq!(knight.value, Some(325));
    assert!(v.pieces.iter().filter(|p| p.letter != 'n').all(|p| p.value.is_none()));
    let bad = src.replace("value = 325", "value = -5");
    let e = chimera::variant::VariantDef::from_toml(&bad, "x.toml").unwrap_err();
    assert!(e.message.contains("value"), "{e}");
}

/// A small deterministic generator for the playouts below.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Positions from random games of every built-in variant this build holds
/// (three games of up to 40 plies each, captures preferred half of the
/// time so that exchanges and checks happen); `f` sees each position.
fn random_positions(seed: u64, mut f: impl FnMut(&str, &mut Position)) {
    let mut rng = Lcg(seed);
    let mut caps = MoveList::new();
    for name in builtin::playable_names() {
        let v = Arc::new(builtin::variant(name).unwrap());
        for _game in 0..3 {
            let mut pos = Position::start(v.clone());
            for _ply in 0..40 {
                f(name, &mut pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.generate_captures(&mut caps);
                let taking: Vec<_> = moves.iter().copied().filter(|m| caps.iter().any(|c| c == *m)).collect();
                let m = if !taking.is_empty() && rng.below(2) == 0 {
                    taking[rng.below(taking.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                pos.make(m);
            }
        }
    }
}

/// The captures onto one square are those of the whole capture list that
/// end there, in the same order, on every square of random positions.
#[test]
fn captures_onto_a_square_are_the_capture_list_s_own() {
    let (mut all, mut on) = (MoveList::new(), MoveList::new());
    let mut checked = 0usize;
    random_positions(17, |name, pos| {
        pos.generate_captures(&mut all);
        for s in 0..pos.geometry().squares() {
            let sq = chimera::square::Square::new(s);
            pos.generate_captures_on(sq, &mut on);
            let want: Vec<_> = all.iter().filter(|m| m.to() == sq).collect();
            let got: Vec<_> = on.iter().collect();
            assert_eq!(got, want, "{name} {} on square {s}", pos.fen());
            checked += got.len();
        }
    });
    assert!(checked > 1000, "only {checked} captures met");
}

/// `in_check`, which walks only what can reach a royal piece, agrees with
/// the reference `royal_attacked` for the side to move, in check and out.
#[test]
fn the_pruned_check_test_is_the_reference_s() {
    let (mut checks, mut positions) = (0usize, 0usize);
    random_positions(5, |name, pos| {
        let side = pos.side_to_move();
        let want = pos.royal_attacked(side);
        assert_eq!(pos.in_check(), want, "{name} {}", pos.fen());
        checks += want as usize;
        positions += 1;
    });
    assert!(checks > 50, "only {checks} checks in {positions} positions");
}

/// Making and unmaking any pseudo-legal move gives the piece lists back in
/// their order, not only their contents, so that the moves of a position
/// are generated in the same order however often moves were tried from it
/// (a search's exchange evaluations make and unmake captures).
#[test]
fn make_and_unmake_keep_the_order_of_the_piece_lists() {
    let mut list = MoveList::new();
    let mut moves_tried = 0usize;
    random_positions(23, |name, pos| {
        let before = (pos.pieces(Color::White).to_vec(), pos.pieces(Color::Black).to_vec(), pos.fen());
        pos.generate_pseudo(&mut list);
        for m in list.iter().collect::<Vec<_>>() {
            let undo = pos.make(m);
            pos.unmake(m, &undo);
            let after = (pos.pieces(Color::White).to_vec(), pos.pieces(Color::Black).to_vec(), pos.fen());
            assert_eq!(after, before, "{name}: {}", pos.move_text(m));
            moves_tried += 1;
        }
    });
    assert!(moves_tried > 10_000, "only {moves_tried} moves");
}
