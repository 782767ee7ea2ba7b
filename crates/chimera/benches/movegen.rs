//! Micro-benchmarks of legal move generation (criterion).
//!
//! Run: `cargo bench -p chimera --bench movegen`. The figures are recorded in
//! BENCHMARKS.md.

use chimera::{builtin, check::CheckInfo, moves::MoveList, perft, position::Position};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::sync::Arc;

/// Middlegame positions with both Lions on the board (from the HaChu reference data),
/// and one middlegame position for each other variant.
const POSITIONS: &[(&str, &str, &str)] = &[
    ("mightylion", "middlegame", "r1bqkb1r/ppppppp1/8/3L4/2l2N2/3B3Q/PP1P2PP/R1B3KR b kq - 0 1"),
    ("chess", "kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("xiangqi", "middlegame", "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1"),
    ("janggi", "middlegame", "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1"),
];

fn legal_lists(c: &mut Criterion) {
    for &(variant, label, fen) in POSITIONS {
        let v = Arc::new(builtin::variant(variant).unwrap());
        let mut pos = Position::from_fen(v, fen).unwrap();
        let (mut scratch, mut out, mut info) = (MoveList::new(), MoveList::new(), CheckInfo::new());
        c.bench_function(&format!("legal moves {variant} {label} (incremental)"), |b| {
            b.iter(|| {
                pos.generate_legal(&mut scratch, &mut out, &mut info);
                black_box(out.len())
            })
        });
        c.bench_function(&format!("legal moves {variant} {label} (reference)"), |b| {
            b.iter(|| {
                pos.generate_legal_reference(&mut scratch, &mut out);
                black_box(out.len())
            })
        });
    }
}

fn perft_small(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for variant in ["chess", "xiangqi", "janggi", "capablanca", "mightylion"] {
        let v = Arc::new(builtin::variant(variant).unwrap());
        let mut pos = Position::start(v);
        group.bench_function(format!("{variant} start depth 3 (incremental)"), |b| {
            b.iter(|| black_box(perft::perft(&mut pos, 3)))
        });
        group.bench_function(format!("{variant} start depth 3 (reference)"), |b| {
            b.iter(|| black_box(perft::perft_reference(&mut pos, 3)))
        });
    }
    group.finish();
}

criterion_group!(benches, legal_lists, perft_small);
criterion_main!(benches);
