//! Legal-move highlighting for GUIs: for one square, where its piece may go
//! and what kind of move each target is.

use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::square::Square;

/// The kinds of a highlighted target, as bit flags.
pub mod kind {
    /// A move to an empty square.
    pub const MOVE: u8 = 1;
    /// A capture on this square (the piece lands here).
    pub const CAPTURE: u8 = 2;
    /// A move that promotes on this square.
    pub const PROMOTION: u8 = 4;
    /// A piece on this square is captured on the way (a locust victim);
    /// choosing it leads to second-leg targets.
    pub const VICTIM: u8 = 8;
    /// The destination of a move that captured a locust victim on the way.
    pub const SECOND_LEG: u8 = 16;
    /// The king's destination when castling.
    pub const CASTLE: u8 = 32;
    /// Passing the turn (the piece stays on its square).
    pub const PASS: u8 = 64;
    /// An en-passant capture.
    pub const EN_PASSANT: u8 = 128;
}

/// One highlighted square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The square.
    pub square: Square,
    /// Bit flags from [`kind`].
    pub kinds: u8,
}

/// The names of the kinds set in `kinds`, for text output.
pub fn kind_names(kinds: u8) -> Vec<&'static str> {
    let names = [
        (kind::MOVE, "move"),
        (kind::CAPTURE, "capture"),
        (kind::PROMOTION, "promotion"),
        (kind::VICTIM, "victim"),
        (kind::SECOND_LEG, "second-leg"),
        (kind::CASTLE, "castle"),
        (kind::PASS, "pass"),
        (kind::EN_PASSANT, "en-passant"),
    ];
    names.iter().filter(|(k, _)| kinds & k != 0).map(|&(_, n)| n).collect()
}

fn add(out: &mut Vec<Target>, square: Square, kinds: u8) {
    match out.iter_mut().find(|t| t.square == square) {
        Some(t) => t.kinds |= kinds,
        None => out.push(Target { square, kinds }),
    }
}

impl Position {
    /// The legal moves of the piece on `from`.
    pub fn legal_moves_from(&mut self, from: Square) -> Vec<Move> {
        self.legal_moves().into_iter().filter(|m| m.kind() != MoveKind::Drop && m.from() == from).collect()
    }

    /// The squares the piece on `from` may reach by a legal move, each with its
    /// kinds. A locust victim's square is marked [`kind::VICTIM`]; the
    /// destinations of the moves through it are marked [`kind::SECOND_LEG`]
    /// (see [`Position::second_leg_targets`] for those of one victim).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, highlight::kind, position::Position};
    /// let mut p = Position::start(Arc::new(builtin::variant("chess").unwrap()));
    /// let e2 = p.geometry().parse_square("e2").unwrap();
    /// let t = p.legal_targets(e2);
    /// assert_eq!(t.len(), 2);
    /// assert!(t.iter().all(|t| t.kinds == kind::MOVE));
    /// ```
    pub fn legal_targets(&mut self, from: Square) -> Vec<Target> {
        let mut out = Vec::new();
        for m in self.legal_moves_from(from) {
            let to = m.to();
            // a swap (`u`) onto a piece takes nothing: a move
            let capture = !self.piece_at(to).is_empty() && to != from && !m.is_unload();
            match m.kind() {
                MoveKind::Locust => {
                    add(&mut out, m.extra(), kind::VICTIM);
                    if let Some(second) = m.second_victim(&self.geometry()) {
                        add(&mut out, second, kind::VICTIM);
                    }
                    add(&mut out, to, kind::SECOND_LEG | if capture { kind::CAPTURE } else { 0 });
                }
                MoveKind::Promotion => add(&mut out, to, kind::PROMOTION | if capture { kind::CAPTURE } else { 0 }),
                // Chess960 castling is entered as the king's move onto its rook
                MoveKind::Castle if self.chess960() => add(&mut out, m.extra(), kind::CASTLE),
                MoveKind::Castle => add(&mut out, to, kind::CASTLE),
                MoveKind::Pass => add(&mut out, to, kind::PASS),
                MoveKind::EnPassant => add(&mut out, to, kind::EN_PASSANT | kind::CAPTURE),
                _ => add(&mut out, to, if capture { kind::CAPTURE } else { kind::MOVE }),
            }
        }
        out
    }

    /// The destinations of the legal moves of the piece on `from` that capture
    /// the piece on `victim` on the way (the second leg after a chosen victim).
    pub fn second_leg_targets(&mut self, from: Square, victim: Square) -> Vec<Target> {
        let mut out = Vec::new();
        for m in self.legal_moves_from(from) {
            if m.kind() == MoveKind::Locust && m.extra() == victim {
                let capture = !self.piece_at(m.to()).is_empty() && m.to() != from;
                add(&mut out, m.to(), kind::SECOND_LEG | if capture { kind::CAPTURE } else { kind::MOVE });
            }
        }
        out
    }
}
