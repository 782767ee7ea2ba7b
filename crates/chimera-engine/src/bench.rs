//! `chimera bench`: a fixed set of positions across variants, each searched
//! to a fixed depth with one thread and a fresh table, so the node count is
//! the same on every run and machine (a signature of the search), and the
//! speed is comparable between builds.

use crate::eval::EvalTables;
use crate::search::{self, Limits, Shared};
use crate::tt::Tt;
use chimera::builtin;
use chimera::position::Position;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The default depth.
pub const DEFAULT_DEPTH: i32 = 8;

/// The positions: variant, FEN (`None`: the start position), moves played first.
pub const POSITIONS: &[(&str, Option<&str>, &str)] = &[
    ("chess", None, ""),
    ("chess", Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"), ""),
    ("chess", Some("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"), ""),
    ("chess", Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"), ""),
    ("xiangqi", None, ""),
    ("xiangqi", None, "h3e3 h10g8 h1g3 i10h10"),
    ("janggi", None, ""),
    ("shogi", None, ""),
    ("shogi", None, "c3c4 c7c6 h2d2 g7g6"),
    ("capablanca", None, ""),
    ("mightylion", None, ""),
    (
        "crazyhouse",
        Some("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[] w KQkq - 4 4"),
        "f3g5 d7d5 e4d5 f6d5 g5f7",
    ),
    ("makruk", None, ""),
    ("grand", None, ""),
];

/// One searched position.
pub struct BenchLine {
    /// The variant.
    pub variant: &'static str,
    /// The FEN searched.
    pub fen: String,
    /// Nodes.
    pub nodes: u64,
    /// The best move found.
    pub best: String,
}

/// Runs the benchmark; `each` sees every position as it finishes.
pub fn run(depth: i32, each: &mut dyn FnMut(&BenchLine)) -> Result<(u64, Duration), String> {
    let mut total = 0;
    let mut time = Duration::ZERO;
    let tt = Arc::new(Tt::new(16));
    for &(name, fen, moves) in POSITIONS {
        let v = Arc::new(builtin::variant(name).map_err(|e| e.to_string())?);
        let ev = Arc::new(EvalTables::new(&v));
        let mut pos = match fen {
            Some(f) => Position::from_fen(v, f).map_err(|e| e.to_string())?,
            None => Position::start(v),
        };
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).map_err(|e| format!("bench {name}: {e}"))?;
            pos.make(mv);
        }
        tt.clear();
        let shared = Arc::new(Shared::new(tt.clone()));
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let t0 = Instant::now();
        let r = search::search(&pos, &[], &ev, &shared, limits, 1, &mut |_| {});
        time += t0.elapsed();
        total += r.nodes;
        each(&BenchLine {
            variant: name,
            fen: pos.fen(),
            nodes: r.nodes,
            best: r.best.map(|m| pos.move_text(m)).unwrap_or_else(|| "(none)".into()),
        });
    }
    Ok((total, time))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_is_deterministic() {
        let mut a = Vec::new();
        let (n1, _) = run(3, &mut |l| a.push(l.nodes)).unwrap();
        let mut b = Vec::new();
        let (n2, _) = run(3, &mut |l| b.push(l.nodes)).unwrap();
        assert_eq!(a, b);
        assert_eq!(n1, n2);
        assert!(a.iter().all(|&n| n > 0));
    }
}
