//! A move's footprint: the squares whose occupant [`Position::make`] may
//! change. An engine that keeps sums over the pieces (material, square
//! tables) reads the occupants of these squares before and after the move
//! and updates its sums from the difference, instead of walking every
//! piece again; a GUI can animate exactly these squares.
//!
//! The footprint is a superset: a square in it may keep its occupant (a
//! burner's neighbour with no enemy piece on it), but a square outside it
//! never changes. Each square is listed once.

use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::square::Square;

/// The most squares a footprint holds: the mover's two squares, a castling
/// rook's two, a locust move's two victims, a gated piece's square, and the
/// eight neighbours of a burning piece's destination.
pub const MAX_FOOTPRINT: usize = 16;

/// The squares a move may change, each once ([`Position::footprint`]).
#[derive(Clone, Copy, Debug)]
pub struct Footprint {
    squares: [Square; MAX_FOOTPRINT],
    len: u8,
}

impl Footprint {
    /// An empty footprint.
    #[inline]
    fn new() -> Footprint {
        Footprint { squares: [Square::new(0); MAX_FOOTPRINT], len: 0 }
    }

    /// Adds `sq` unless it is there already.
    #[inline]
    fn add(&mut self, sq: Square) {
        if !self.as_slice().contains(&sq) {
            self.squares[self.len as usize] = sq;
            self.len += 1;
        }
    }

    /// The squares.
    #[inline]
    pub fn as_slice(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }
}

impl Position {
    /// The squares whose occupant [`Position::make`]`(m)` may change, for a
    /// move `m` of this position's generator (see [`crate::footprint`]).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position};
    /// let v = Arc::new(builtin::variant("chess").unwrap());
    /// let mut pos = Position::from_fen(v, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    /// let castle = pos.parse_move("e1g1").unwrap();
    /// let g = pos.geometry();
    /// let mut squares: Vec<String> = pos.footprint(castle).as_slice().iter().map(|&s| g.square_name(s)).collect();
    /// squares.sort();
    /// assert_eq!(squares, ["e1", "f1", "g1", "h1"]);
    /// ```
    pub fn footprint(&self, m: Move) -> Footprint {
        let mut fp = Footprint::new();
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            // (a burning piece that passes still burns around its square)
            MoveKind::Pass => fp.add(to),
            MoveKind::Castle => {
                let rook = m.extra();
                for sq in [from, to, rook, Position::castle_rook_target(from, to, rook)] {
                    fp.add(sq);
                }
            }
            MoveKind::Drop => fp.add(to),
            kind => {
                fp.add(from);
                fp.add(to);
                if kind == MoveKind::EnPassant || kind == MoveKind::Locust {
                    fp.add(m.extra());
                    if let Some(sq) = self.second_victim_of(m) {
                        fp.add(sq);
                    }
                }
            }
        }
        if let Some(sq) = m.gate_square() {
            fp.add(sq);
        }
        if self.variant().burners && m.kind() != MoveKind::Drop {
            let g = self.geometry();
            let (f, r) = (g.file_of(to), g.rank_of(to));
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if let Some(sq) = g.square(f + dx, r + dy) {
                        fp.add(sq);
                    }
                }
            }
        }
        fp
    }
}

#[cfg(test)]
mod tests {
    use crate::builtin;
    use crate::position::Position;
    use crate::square::Square;
    use std::sync::Arc;

    /// Along pseudo-random games of every built-in variant, every legal
    /// move changes only squares of its footprint, and lists each once.
    #[test]
    fn a_move_changes_only_its_footprint() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for name in builtin::names() {
            // (a board too large for this build is the wide build's to test)
            let Ok(v) = builtin::variant(name) else { continue };
            let v = Arc::new(v);
            for _game in 0..2 {
                let mut pos = Position::start(v.clone());
                for _ply in 0..40 {
                    let list = pos.legal_moves();
                    if list.is_empty() {
                        break;
                    }
                    let nsq = pos.geometry().squares();
                    for &m in &list {
                        let fp = pos.footprint(m);
                        let s = fp.as_slice();
                        for (i, a) in s.iter().enumerate() {
                            assert!(!s[i + 1..].contains(a), "{name}: {m:?} lists {a:?} twice");
                        }
                        let before: Vec<_> = (0..nsq).map(|i| pos.piece_at(Square::new(i))).collect();
                        let undo = pos.make(m);
                        for (i, &old) in before.iter().enumerate() {
                            let sq = Square::new(i);
                            if pos.piece_at(sq) != old {
                                assert!(s.contains(&sq), "{name} {}: {m:?} changes {sq:?} outside {s:?}", pos.fen());
                            }
                        }
                        pos.unmake(m, &undo);
                        checked += 1;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = list[seed as usize % list.len()];
                    pos.make(m);
                }
            }
        }
        assert!(checked > 10_000, "only {checked} moves checked");
    }
}
