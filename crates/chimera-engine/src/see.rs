//! Static exchange evaluation (SEE) for any variant: the material a capture
//! wins or loses once both sides have recaptured on its square as long as it
//! pays, each side capturing with its least valuable piece first.
//!
//! The attackers of a square are not computed from piece tables (which would
//! have to know hoppers, cannons, lame leapers and every other kind of move
//! a variant file can describe): each step of the exchange generates the
//! side to move's captures onto the square with the core's own generator
//! ([`Position::generate_captures_on`], which walks only the trajectories
//! that can end there) and plays the cheapest with `make`, so that a
//! cannon that gains a screen or a lame piece that is unblocked by the
//! exchange is seen exactly as the move generator sees it. The moves are pseudo-legal;
//! a capture that exposes a royal piece is answered by the capture of that
//! piece, whose value ([`ROYAL_VALUE`]) makes the exchange refuse it. Only
//! plain captures and capturing promotions onto the square count as
//! recaptures (an en-passant or locust capture of the piece on the square is
//! left out, which can only make the estimate less exact, never unsafe for
//! the search: SEE only orders and prunes). The exchange is at most
//! [`MAX_SEE_STEPS`] captures long.
//!
//! No allocation: the caller passes a move buffer.
//!
//! The capture search skips captures whose exchange loses material
//! ([`see_ge`] with a threshold of 0). Ordering and pruning by it everywhere,
//! with the other changes tested with it, did not win a test against the
//! search without them (docs/strength.md, "Search pruning and move ordering").

use crate::eval::EvalTables;
use chimera::moves::{Move, MoveKind, MoveList};
use chimera::piece::Code;
use chimera::position::Position;
use chimera::square::Square;

/// The value of a royal piece in an exchange: more than any material.
pub const ROYAL_VALUE: i32 = 20_000;
/// The most captures an exchange follows.
pub const MAX_SEE_STEPS: u32 = 12;

/// The exchange value of the piece with code `code`.
#[inline]
fn value(pos: &Position, ev: &EvalTables, code: Code) -> i32 {
    if code == Code::EMPTY {
        0
    } else if pos.variant().royal[code.index()] {
        ROYAL_VALUE
    } else {
        ev.value(code)
    }
}

/// What move `m` wins outright: its victims and its promotion gain.
#[inline]
fn immediate_gain(pos: &Position, ev: &EvalTables, m: Move) -> i32 {
    let mut g = 0;
    if m.from() != m.to() && m.kind() != MoveKind::Drop && m.kind() != MoveKind::Castle && !m.is_unload() {
        g += value(pos, ev, pos.piece_at(m.to()));
    }
    if matches!(m.kind(), MoveKind::EnPassant | MoveKind::Locust) {
        g += value(pos, ev, pos.piece_at(m.extra()));
    }
    if let Some(sq) = m.second_victim(&pos.geometry()) {
        g += value(pos, ev, pos.piece_at(sq));
    }
    if m.kind() == MoveKind::Promotion {
        g += ev.value(m.code()) - ev.value(pos.piece_at(m.from()));
    }
    g
}

/// The static exchange value of move `m` for the side that plays it, in
/// centipawns. `buf` is scratch space (its contents are overwritten).
pub fn see(pos: &mut Position, ev: &EvalTables, buf: &mut MoveList, m: Move) -> i32 {
    let gain = immediate_gain(pos, ev, m);
    if m.kind() == MoveKind::Drop || m.kind() == MoveKind::Pass || m.kind() == MoveKind::Castle {
        // the piece stands on `to` afterwards all the same: the exchange is on it
        if m.kind() != MoveKind::Drop {
            return gain;
        }
    }
    let sq = m.to();
    let undo = pos.make(m);
    let on_sq = pos.piece_at(sq);
    let reply = if on_sq == Code::EMPTY { 0 } else { exchange(pos, ev, buf, sq, value(pos, ev, on_sq), 1) };
    pos.unmake(m, &undo);
    gain - reply
}

/// Whether the exchange value of `m` is at least `threshold`. Cheap where
/// the answer follows from the first capture alone: a capture of a piece
/// worth at least its capturer meets a threshold of 0 whatever follows.
pub fn see_ge(pos: &mut Position, ev: &EvalTables, buf: &mut MoveList, m: Move, threshold: i32) -> bool {
    let gain = immediate_gain(pos, ev, m);
    if gain < threshold {
        return false; // even an unanswered capture falls short
    }
    let mover = if m.kind() == MoveKind::Drop { m.code() } else { pos.piece_at(m.from()) };
    let at_risk = if m.kind() == MoveKind::Promotion { m.code() } else { mover };
    if gain - value(pos, ev, at_risk) >= threshold {
        return true; // even losing the capturer keeps the threshold
    }
    see(pos, ev, buf, m) >= threshold
}

/// The best the side to move gains by starting (or not) an exchange on
/// `sq`, where a piece worth `target` stands; `step` captures are made.
fn exchange(pos: &mut Position, ev: &EvalTables, buf: &mut MoveList, sq: Square, target: i32, step: u32) -> i32 {
    if step >= MAX_SEE_STEPS {
        return 0;
    }
    pos.generate_captures_on(sq, buf);
    let mut best: Option<(Move, i32)> = None;
    for &c in buf.captures() {
        if c.to() != sq || c.from() == sq || !matches!(c.kind(), MoveKind::Normal | MoveKind::Promotion) {
            continue;
        }
        let v = value(pos, ev, pos.piece_at(c.from()));
        // the cheapest capturer; among its promotions the most valuable
        let better = match best {
            None => true,
            Some((b, bv)) => {
                v < bv || (v == bv && c.kind() == MoveKind::Promotion && promoted(ev, c) > promoted(ev, b))
            }
        };
        if better {
            best = Some((c, v));
        }
    }
    let Some((c, _)) = best else { return 0 };
    if target >= ROYAL_VALUE {
        return target; // the royal piece can be taken: the exchange is over
    }
    let promo = if c.kind() == MoveKind::Promotion { ev.value(c.code()) - ev.value(pos.piece_at(c.from())) } else { 0 };
    let undo = pos.make(c);
    let on_sq = pos.piece_at(sq);
    let reply = if on_sq == Code::EMPTY { 0 } else { exchange(pos, ev, buf, sq, value(pos, ev, on_sq), step + 1) };
    pos.unmake(c, &undo);
    (target + promo - reply).max(0)
}

#[inline]
fn promoted(ev: &EvalTables, m: Move) -> i32 {
    if m.kind() == MoveKind::Promotion {
        ev.value(m.code())
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera::builtin;
    use std::sync::Arc;

    fn see_of(variant: &str, fen: &str, mv: &str) -> i32 {
        let v = Arc::new(builtin::variant(variant).unwrap());
        let ev = EvalTables::new(&v);
        let mut pos = Position::from_fen(v, fen).unwrap();
        let m = pos.parse_move(mv).unwrap();
        let before = pos.fen();
        let mut buf = MoveList::new();
        let s = see(&mut pos, &ev, &mut buf, m);
        assert_eq!(pos.fen(), before, "the position is restored");
        s
    }

    fn val(variant: &str, letter: char) -> i32 {
        let v = Arc::new(builtin::variant(variant).unwrap());
        let ev = EvalTables::new(&v);
        let t = v.def.pieces.iter().position(|p| p.letter.eq_ignore_ascii_case(&letter)).unwrap();
        ev.type_value(t)
    }

    /// Chess: a pawn defended by a pawn, taken by the queen, loses the queen
    /// for the pawn; undefended, it wins the pawn. A knight takes a pawn
    /// defended by a bishop while a rook backs the knight up: after Nxe5 Black
    /// takes with the bishop only if the knight is worth more than the bishop
    /// (Re1xe5 follows). A king recaptures only an undefended piece.
    #[test]
    fn chess_exchanges() {
        let (p, n, b, q) = (val("chess", 'p'), val("chess", 'n'), val("chess", 'b'), val("chess", 'q'));
        assert_eq!(see_of("chess", "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), p - q);
        assert_eq!(see_of("chess", "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), p);
        // e5 pawn defended by the d6 bishop; Nf3xe5, Bxe5, Re1xe5
        assert_eq!(see_of("chess", "4k3/8/3b4/4p3/8/5N2/8/4RK2 w - - 0 1", "f3e5"), p - (n - b).max(0));
        // Qxd5 Kxd5: the queen for a pawn; with a rook on d2 (Rxd5, and the
        // queen behind it on d1 guards d5) the king does not take
        assert_eq!(see_of("chess", "8/8/4k3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), p - q);
        assert_eq!(see_of("chess", "8/8/4k3/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5"), p);
    }

    /// Xiangqi: a cannon captures only over a screen. The chariot on a5 takes
    /// the pawn on e5; the black cannon on e10 takes it back over the pawn
    /// on e7; a red cannon on e1 takes the cannon over the red pawn on e3.
    #[test]
    fn xiangqi_cannon_recaptures_over_a_screen() {
        let (r, c, p) = (val("xiangqi", 'r'), val("xiangqi", 'c'), val("xiangqi", 'p'));
        // black: king d10, cannon e10, pawn e7 (the screen), pawn e5; red: king f1, chariot a5.
        // a5e5 takes the pawn; the cannon on e10 takes the chariot over e7: p - r.
        assert_eq!(see_of("xiangqi", "3kc4/9/9/4p4/9/R3p4/9/9/9/5K3 w - - 0 1", "a5e5"), p - r);
        // without the screen the cannon cannot recapture: the chariot wins the pawn
        assert_eq!(see_of("xiangqi", "3kc4/9/9/9/9/R3p4/9/9/9/5K3 w - - 0 1", "a5e5"), p);
        // a red cannon on e1 behind a red pawn on e3 (its screen) takes back: p - r + c
        assert_eq!(see_of("xiangqi", "3kc4/9/9/4p4/9/R3p4/9/4P4/9/4CK3 w - - 0 1", "a5e5"), p - r + c);
    }
}
