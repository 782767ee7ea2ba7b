//! The game rules the engine needs beyond move generation: repetition, the
//! n-move rule, perpetual check, and the score of a finished game.
//!
//! The variant data does not (yet) say how repetitions are scored, so the
//! engine derives it from rules the data does carry:
//!
//! - **Perpetual check loses** for the checking side in variants whose
//!   stalemate is a loss for the stalemated side and that have drops or a
//!   piece confined to a zone (a palace): the Shogi and Xiangqi families, for
//!   which Fairy-Stockfish sets `perpetualCheckIllegal`. Shatranj, whose
//!   stalemate also loses but which has neither, keeps a repetition a draw,
//!   as Fairy-Stockfish and Fairy-Max score it; so does every other variant.
//! - **The n-move rule** (50 moves without a capture, pawn move, promotion or
//!   drop) applies to variants without drops.
//! - **A repetition that perpetual check does not decide** is a draw, but in
//!   variants that count points (Janggi: every non-royal piece has a value,
//!   [`Position::point_count_winner`]) the side ahead on points wins, in the
//!   game and in the search alike.
//! - **In the search** a single repetition inside the searched line counts;
//!   a repetition of a position played before the search started counts only
//!   if it makes the position appear a third time.

use chimera::betza::Betza;
use chimera::moves::{Move, MoveKind};
use chimera::position::Position;
use chimera::square::Color;
use chimera::variant::{PassRule, PieceType, StalemateResult, Variant};

/// One position of a game or of the searched line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistEntry {
    /// The position's hash.
    pub hash: u64,
    /// Whether the side to move was in check.
    pub in_check: bool,
    /// Plies since the last irreversible move (capture, promotion, drop, pawn move, castling).
    pub rev: u16,
}

/// The rules derived from a variant.
#[derive(Clone, Debug)]
pub struct GameRules {
    /// A side that gives check on every move of a repetition cycle loses.
    pub perpetual_check_loses: bool,
    /// The game is drawn after this many reversible plies.
    pub n_move_plies: Option<u16>,
    /// The variant can end by a rule other than mate (extinction, flag, passes, bikjang).
    pub has_rule_end: bool,
    /// What a stalemate is worth to the stalemated side.
    pub stalemate: StalemateResult,
    /// What a checkmate is worth to the mated side (a loss but in misère games).
    pub checkmate: StalemateResult,
    /// The side that wins every drawn game (armageddon's draw odds).
    pub draw_odds: Option<Color>,
    /// The piece types whose mating drop loses (shogi's pawn).
    pub no_drop_mate: chimera::compile::TypeSet,
    /// Janggi's facing-royals rule.
    pub bikjang: bool,
    /// A repetition (not decided by perpetual check) goes to the side ahead
    /// on points ([`Position::point_count_winner`]) instead of being drawn.
    pub repetition_by_points: bool,
    /// Null-move pruning may be used: the variant has no drops (with pieces
    /// in hand a tempo is worth too much), no compulsory captures and no
    /// stalemate win (such games live on zugzwang).
    pub null_move: bool,
    /// A quiescence search over captures ends: the variant has moves that
    /// capture nothing (or drops). Where every move captures (Clobber),
    /// captures are not tactical exceptions but the whole game, a capture
    /// search would be the rest of the game, and the search stands pat at
    /// its leaves instead.
    pub quiescence: bool,
}

impl GameRules {
    /// The rules of a variant.
    pub fn new(v: &Variant) -> GameRules {
        let r = &v.def.rules;
        let drops = r.drops.as_ref();
        GameRules {
            perpetual_check_loses: r.stalemate == StalemateResult::Loss
                && (drops.is_some() || v.def.pieces.iter().any(|p| p.confine.is_some())),
            n_move_plies: if drops.is_none() && r.counting.is_none() { Some(100) } else { None },
            has_rule_end: r.extinction.is_some()
                || r.royals == chimera::variant::RoyalRule::Last
                || r.flag.is_some()
                || r.pass != PassRule::Never
                || r.bikjang
                || r.checks.is_some(),
            stalemate: r.stalemate,
            checkmate: r.checkmate,
            draw_odds: r.draw_odds,
            no_drop_mate: drops.map_or(chimera::compile::TypeSet::EMPTY, |d| {
                let mut s = chimera::compile::TypeSet::EMPTY;
                d.no_drop_mate.iter().for_each(|&t| s.insert(t));
                s
            }),
            bikjang: r.bikjang,
            repetition_by_points: chimera::counting::counts_points(&v.def),
            null_move: drops.is_none() && !r.must_capture && r.stalemate != StalemateResult::Win,
            quiescence: drops.is_some() || r.pass != PassRule::Never || v.def.pieces.iter().any(may_move_quietly),
        }
    }
}

/// Whether some move of a piece type may end without capturing. Moves whose
/// last leg may only capture (`c`, `d`, `e`) are captures; every other move
/// (an `m` or unmarked last leg, a hop) counts as one that may be quiet, so
/// that the answer errs towards keeping the quiescence search.
fn may_move_quietly(p: &PieceType) -> bool {
    let quiet = |b: &Betza| {
        b.units.iter().any(|u| {
            u.legs.last().is_none_or(|l| {
                let m = l.modality;
                m.moves || m.hop || m.grasshop || !(m.captures || m.friend || m.en_passant)
            })
        })
    };
    quiet(&p.betza) || p.zone_moves.iter().any(|z| quiet(&z.betza))
}

/// Whether a move (legal in `pos`, not yet played) cannot be undone by later
/// moves, so that no earlier position can repeat across it.
#[inline]
pub fn irreversible(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::Normal | MoveKind::Pass | MoveKind::Double => {
            let v = pos.variant();
            let mover = pos.piece_at(m.from());
            // a pawn's step it can take back (sideways) is reversible
            let pawn_step = v.pawn[mover as usize]
                && !(v.pawn_reversible[mover as usize]
                    && v.tables
                        .list(mover, false, m.to())
                        .0
                        .iter()
                        .any(|c| c.to == m.from() && c.flags & chimera::compile::QUIET != 0));
            (m.from() != m.to() && pos.piece_at(m.to()) != 0) || pawn_step
        }
        _ => true,
    }
}

/// The result of a game that ended by rule (two passes in a row, bikjang):
/// the point count decides where the variant counts points (Janggi:
/// [`Position::point_count_winner`]), otherwise it is a draw.
pub fn rule_end(pos: &Position) -> GameEnd {
    match pos.point_count_winner() {
        Some(Color::White) => GameEnd::WhiteWins("game ended by rule, point count"),
        Some(Color::Black) => GameEnd::BlackWins("game ended by rule, point count"),
        None => GameEnd::Draw("game ended by rule"),
    }
}

/// The result of a threefold repetition that no perpetual-check rule
/// decides: the point count where the variant counts points (Janggi), a
/// draw otherwise.
pub fn repetition_end(pos: &Position) -> GameEnd {
    match pos.point_count_winner() {
        Some(Color::White) => GameEnd::WhiteWins("repetition, point count"),
        Some(Color::Black) => GameEnd::BlackWins("repetition, point count"),
        None => GameEnd::Draw("repetition"),
    }
}

/// A draw when neither side can ever mate (FIDE's dead position: king
/// against king, king and minor piece against king; see
/// [`chimera::material`]). A side alone without mating material does not
/// end the game: the other side may still win.
///
/// Not where a game may be ended by passing and the points decide it
/// (Janggi: two passes in a row give a bare general's side the win on
/// points, or not).
pub fn dead_position(pos: &Position) -> Option<GameEnd> {
    if pos.variant().def.rules.pass != PassRule::Never && pos.point_count_winner().is_some() {
        return None;
    }
    (pos.insufficient_material() == [true, true]).then_some(GameEnd::Draw("insufficient material"))
}

/// How a finished game ended, for the protocols that announce results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// White won.
    WhiteWins(&'static str),
    /// Black won.
    BlackWins(&'static str),
    /// Drawn.
    Draw(&'static str),
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera::builtin;

    #[test]
    fn repetitions_count_points_only_where_every_piece_has_a_value() {
        for (name, points) in [("janggi", true), ("janggimodern", true), ("chess", false), ("xiangqi", false)] {
            assert_eq!(GameRules::new(&builtin::variant(name).unwrap()).repetition_by_points, points, "{name}");
        }
    }

    #[test]
    fn null_move_only_where_it_is_sound() {
        for (name, ok) in [
            ("chess", true),
            ("xiangqi", true),
            ("mightylion", true),
            ("janggi", true),
            ("crazyhouse", false),
            ("shogi", false),
            ("antichess", false),
        ] {
            assert_eq!(GameRules::new(&builtin::variant(name).unwrap()).null_move, ok, "{name}");
        }
    }

    #[test]
    fn quiescence_except_where_every_move_captures() {
        for (name, q) in [
            ("chess", true),
            ("xiangqi", true),
            ("crazyhouse", true),
            ("antichess", true),
            ("mightylion", true),
            ("clobber", false),
            ("clobber10", false),
        ] {
            assert_eq!(GameRules::new(&builtin::variant(name).unwrap()).quiescence, q, "{name}");
        }
    }

    #[test]
    fn perpetual_check_loses_in_the_xiangqi_and_shogi_families_only() {
        for (name, loses) in [
            ("xiangqi", true),
            ("minixiangqi", true),
            ("shogi", true),
            ("minishogi", true),
            ("shatranj", false),
            ("chess", false),
            ("makruk", false),
        ] {
            assert_eq!(GameRules::new(&builtin::variant(name).unwrap()).perpetual_check_loses, loses, "{name}");
        }
    }
}
