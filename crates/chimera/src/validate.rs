//! The checks a strict FEN reader makes on the position itself, beyond the
//! syntax: the numbers of royal pieces and royals attacking each other, in
//! the spirit of Fairy-Stockfish's `validate_fen`.
//!
//! The allowed numbers of royal pieces come from the variant's data:
//!
//! - a royal piece type that some piece may promote to (coregal's queen) can
//!   appear and (with several) disappear in play, so its number is free;
//! - any other royal type may appear on a side's board and in its hand
//!   together from once up to as often as in the start position, and not at
//!   all where the start position has none (horde's White);
//! - variants without royal pieces (extinction games, antichess,
//!   breakthrough) accept any number of the pieces they call kings.
//!
//! Two royals of such fixed-number types and of different sides that attack
//! each other (touching kings) are refused: no legal move leads there.

use crate::compile::{code_of, type_of, Cell, AUX_EP_CREATE, SPECIAL};
use crate::piece::Code;
use crate::position::{FenError, FenProblem, Position};
use crate::square::{Color, Square, NO_SQUARE};
use crate::variant::{RoyalRule, Variant};
use crate::walk::Visitor;
use std::sync::Arc;

/// Finds a capture of a piece on one of some squares (the enemy's kings).
struct Hits<'a>(&'a [Square]);

impl Visitor for Hits<'_> {
    fn quiet(&mut self, _pos: &Position, _code: Code, _from: Square, c: &Cell) -> bool {
        // a locust move that ends on an empty square still captures its victim
        c.victim != NO_SQUARE && !(c.flags & SPECIAL != 0 && c.aux & AUX_EP_CREATE != 0) && self.0.contains(&c.victim)
    }
    fn capture(&mut self, _pos: &Position, _code: Code, _from: Square, c: &Cell) -> bool {
        self.0.contains(&c.to) || (c.victim != NO_SQUARE && self.0.contains(&c.victim))
    }
    fn en_passant(&mut self, _pos: &Position, _from: Square, _c: &Cell) -> bool {
        false
    }
}

/// The side's name in messages.
fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// For each piece type, whether its number is fixed by the rules: a royal
/// type no piece promotes to.
pub(crate) fn counted_royals(v: &Variant) -> Vec<usize> {
    let pieces = &v.def.pieces;
    let promoted_to = |t: usize| {
        pieces.iter().any(|p| {
            p.promotion
                .as_ref()
                .is_some_and(|pr| pr.choices.contains(&t) || pr.choices_black.as_ref().is_some_and(|b| b.contains(&t)))
        })
    };
    (0..pieces.len()).filter(|&t| pieces[t].royal && !promoted_to(t)).collect()
}

impl Position {
    /// How many pieces of type `t` and colour `c` stand on the board or wait in the hand.
    fn board_and_hand(&self, t: usize, c: Color) -> u32 {
        self.count(code_of(t, c)) as u32 + self.pocket(c, t) as u32
    }

    /// The strict reader's checks of the position (see the module's notes).
    pub(crate) fn check_contents(&mut self, fen: &str) -> Result<(), FenError> {
        let v = self.variant().clone();
        let royals = counted_royals(&v);
        if !royals.is_empty() {
            // the start position, read without these checks
            let start = Position::from_fen_permissive(v.clone(), &v.def.start_fen).map_err(|e| {
                crate::fen::fen_problem(fen, "board", FenProblem::Geometry, format!("the start FEN: {e}"))
            })?;
            for &t in &royals {
                for c in [Color::White, Color::Black] {
                    let most = start.board_and_hand(t, c);
                    // Chu Shogi: a Crown Prince may stand in for the lost King
                    let least =
                        if v.def.rules.royals == RoyalRule::Last && self.royal_count(c) > 0 { 0 } else { most.min(1) };
                    let n = self.board_and_hand(t, c);
                    if n < least || n > most {
                        let name = &v.def.pieces[t].name;
                        let want = if least == most { format!("{most}") } else { format!("{least} to {most}") };
                        return Err(crate::fen::fen_problem(
                            fen,
                            "royal pieces",
                            FenProblem::RoyalCount,
                            format!("{} has {n} of the royal {name}, {} needs {want}", side_name(c), v.name()),
                        ));
                    }
                }
            }
        }
        if self.royals_attack_each_other(&royals) {
            return Err(crate::fen::fen_problem(
                fen,
                "royal pieces",
                FenProblem::TouchingRoyals,
                "royal pieces of both sides attack each other",
            ));
        }
        Ok(())
    }

    /// Whether a royal of each side attacks a royal of the other, among the
    /// royal types whose number is fixed (kings, not coregal's queens).
    fn royals_attack_each_other(&mut self, royals: &[usize]) -> bool {
        let kings = |pos: &Position, c: Color| -> Vec<Square> {
            pos.pieces(c).iter().copied().filter(|&sq| royals.contains(&type_of(pos.piece_at(sq)))).collect()
        };
        let squares = [kings(self, Color::White), kings(self, Color::Black)];
        let mut attacks = [false; 2];
        for c in [Color::White, Color::Black] {
            let targets = &squares[c.flip().index()];
            for &sq in &squares[c.index()] {
                if self.walk_piece(sq, &mut Hits(targets)) {
                    attacks[c.index()] = true;
                    break;
                }
            }
        }
        attacks[0] && attacks[1]
    }
}

/// The code Fairy-Stockfish's `validate_fen(fen, variant)` would give for
/// this FEN, from Chimera's strict reader: 1 for a valid FEN, 0 for an empty
/// one, a negative code for the first problem found (see
/// [`FenProblem::fsf_code`]). The two readers check different things in a
/// few places (see the notes in `tests/data/README.md`), so the codes agree
/// where both find the same problem.
///
/// ```
/// use std::sync::Arc;
/// use chimera::{builtin, validate::fsf_validation_code};
/// let v = Arc::new(builtin::variant("chess").unwrap());
/// assert_eq!(fsf_validation_code(&v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 1);
/// assert_eq!(fsf_validation_code(&v, "8/8/8/8/8/8/8/8 w - - 0 1"), -3);
/// assert_eq!(fsf_validation_code(&v, "4k3/8/8/8/8/8/8/4K3 x - - 0 1"), -6);
/// ```
pub fn fsf_validation_code(variant: &Arc<Variant>, fen: &str) -> i32 {
    match Position::from_fen(variant.clone(), fen) {
        Ok(_) => 1,
        Err(e) => e.problem.fsf_code(),
    }
}
