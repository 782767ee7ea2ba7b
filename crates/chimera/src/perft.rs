//! Perft: counting the leaves of the legal move tree, the standard test of a
//! move generator.

use crate::check::CheckInfo;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Reusable per-ply move buffers, so that perft allocates nothing per node.
pub struct PerftBuffers {
    pseudo: Vec<MoveList>,
    legal: Vec<MoveList>,
    info: CheckInfo,
    reference: bool,
}

impl PerftBuffers {
    /// Buffers for a search of up to `depth` plies.
    pub fn new(depth: usize) -> PerftBuffers {
        PerftBuffers {
            pseudo: (0..depth.max(1)).map(|_| MoveList::new()).collect(),
            legal: (0..depth.max(1)).map(|_| MoveList::new()).collect(),
            info: CheckInfo::new(),
            reference: false,
        }
    }

    /// Buffers for a perft that tests legality by the reference method
    /// (make the move, look for any capture of a royal piece).
    pub fn reference(depth: usize) -> PerftBuffers {
        PerftBuffers { reference: true, ..PerftBuffers::new(depth) }
    }
}

/// Counts the leaf nodes `depth` plies below `pos`. The last ply is counted,
/// not played ("bulk counting"), as Fairy-Stockfish does.
///
/// ```
/// use std::sync::Arc;
/// use chimera::{builtin, perft, position::Position};
/// let mut p = Position::start(Arc::new(builtin::variant("chess").unwrap()));
/// assert_eq!(perft::perft(&mut p, 3), 8902);
/// ```
pub fn perft(pos: &mut Position, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut bufs = PerftBuffers::new(depth);
    perft_with(pos, depth, &mut bufs, 0)
}

/// Perft with the reference legality test, the oracle for [`perft`].
pub fn perft_reference(pos: &mut Position, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut bufs = PerftBuffers::reference(depth);
    perft_with(pos, depth, &mut bufs, 0)
}

/// Counts with caller-owned buffers (as many plies as `depth`), starting at buffer `ply`.
pub fn perft_with(pos: &mut Position, depth: usize, bufs: &mut PerftBuffers, ply: usize) -> u64 {
    let reference = bufs.reference;
    perft_rec(pos, depth, &mut bufs.pseudo[ply..], &mut bufs.legal[ply..], &mut bufs.info, reference)
}

fn perft_rec(
    pos: &mut Position,
    depth: usize,
    pseudo: &mut [MoveList],
    legal: &mut [MoveList],
    info: &mut CheckInfo,
    reference: bool,
) -> u64 {
    let (p0, prest) = pseudo.split_first_mut().expect("perft buffers cover the depth");
    let (l0, lrest) = legal.split_first_mut().expect("perft buffers cover the depth");
    if depth == 1 && !reference {
        return pos.count_legal(p0, info) as u64;
    }
    if reference {
        pos.generate_legal_reference(p0, l0);
    } else {
        pos.generate_legal(p0, l0, info);
    }
    if depth == 1 {
        return l0.len() as u64;
    }
    let mut total = 0;
    for k in 0..l0.len() {
        let m = nth(l0, k);
        let undo = pos.make(m);
        total += perft_rec(pos, depth - 1, prest, lrest, info, reference);
        pos.unmake(m, &undo);
    }
    total
}

#[inline(always)]
fn nth(list: &MoveList, k: usize) -> Move {
    let c = list.captures();
    if k < c.len() {
        c[k]
    } else {
        list.quiets()[k - c.len()]
    }
}

/// Perft split by first move ("divide"): each legal move and its count.
pub fn divide(pos: &mut Position, depth: usize) -> Vec<(Move, u64)> {
    divide_with(pos, depth, PerftBuffers::new(depth.max(1)))
}

/// [`divide`] with the reference legality test.
pub fn divide_reference(pos: &mut Position, depth: usize) -> Vec<(Move, u64)> {
    divide_with(pos, depth, PerftBuffers::reference(depth.max(1)))
}

fn divide_with(pos: &mut Position, depth: usize, mut bufs: PerftBuffers) -> Vec<(Move, u64)> {
    let moves = if bufs.reference { pos.legal_moves_reference() } else { pos.legal_moves() };
    moves
        .into_iter()
        .map(|m| {
            let undo = pos.make(m);
            let n = if depth <= 1 { 1 } else { perft_with(pos, depth - 1, &mut bufs, 0) };
            pos.unmake(m, &undo);
            (m, n)
        })
        .collect()
}
