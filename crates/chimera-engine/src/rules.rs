//! The game rules the engine needs beyond move generation, derived from
//! the variant: repetition and perpetual check, the n-move rule, the score
//! of a finished game, and what the search may prune.
//!
//! How a game ends (mate, a variant's rule, repetition, the n-move rule, a
//! dead position) is decided in the core, [`chimera::outcome`]; the search
//! scores the same rules inside its tree:
//!
//! - **In the search** a single repetition inside the searched line counts;
//!   a repetition of a position played before the search started counts only
//!   if it makes the position appear a third time.
//! - **Perpetual check loses** and **repetitions go by points** where
//!   [`chimera::outcome::RepetitionRule`] says so.

use chimera::betza::Betza;
use chimera::square::Color;
use chimera::variant::{PassRule, PieceType, StalemateResult, Variant};

/// One position of a game or of the searched line (the core's).
pub use chimera::outcome::HistEntry;

/// The rules derived from a variant.
#[derive(Clone, Debug)]
pub struct GameRules {
    /// A side that gives check on every move of a repetition cycle loses.
    pub perpetual_check_loses: bool,
    /// The side a repetition not decided by perpetual check goes to
    /// (`[rules] repetition_winner`), if any; else it is scored as
    /// `repetition_by_points` says.
    pub repetition_winner: Option<chimera::square::Color>,
    /// The occurrences of a position before the root that make it a
    /// repetition end (`[rules] n_fold` less one: 2 in most variants).
    pub pre_root_repeats: u8,
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
    /// Bit mask of piece types whose mating drop loses (shogi's pawn).
    pub no_drop_mate: u128,
    /// Janggi's facing-royals rule.
    pub bikjang: bool,
    /// A repetition (not decided by perpetual check) goes to the side ahead
    /// on points ([`chimera::position::Position::point_count_winner`]) instead of being drawn.
    pub repetition_by_points: bool,
    /// Null-move pruning may be used: the variant has no compulsory
    /// captures and no stalemate win (such games live on zugzwang). Drop
    /// variants use it too: with pieces in hand a side almost always has a
    /// useful move, so a pass is rarely better than every move (tested in
    /// shogi, docs/strength.md, "Null-move pruning in drop variants").
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
            perpetual_check_loses: chimera::outcome::perpetual_check_loses(v),
            pre_root_repeats: r.n_fold.saturating_sub(1).max(1),
            repetition_winner: r.repetition_winner,
            n_move_plies: chimera::outcome::n_move_plies(v),
            has_rule_end: r.extinction.is_some()
                || r.royals == chimera::variant::RoyalRule::Last
                || r.flag.is_some()
                || r.pass != PassRule::Never
                || r.bikjang
                || r.checks.is_some(),
            stalemate: r.stalemate,
            checkmate: r.checkmate,
            draw_odds: r.draw_odds,
            no_drop_mate: drops.map_or(0, |d| d.no_drop_mate.iter().fold(0u128, |m, &t| m | 1u128 << t)),
            bikjang: r.bikjang,
            repetition_by_points: chimera::counting::counts_points(&v.def),
            null_move: !r.must_capture && r.stalemate != StalemateResult::Win,
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

/// Whether a move cannot be undone (the core's, [`chimera::outcome::irreversible`]).
pub use chimera::outcome::irreversible;

/// How a finished game ended, for the protocols that announce results.
/// The reason is [`chimera::outcome::Reason::as_str`]'s text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// White won.
    WhiteWins(&'static str),
    /// Black won.
    BlackWins(&'static str),
    /// Drawn.
    Draw(&'static str),
}

impl From<chimera::outcome::GameEnd> for GameEnd {
    fn from(e: chimera::outcome::GameEnd) -> GameEnd {
        let why = e.reason.as_str();
        match e.result {
            chimera::outcome::Result::WhiteWins => GameEnd::WhiteWins(why),
            chimera::outcome::Result::BlackWins => GameEnd::BlackWins(why),
            chimera::outcome::Result::Draw => GameEnd::Draw(why),
        }
    }
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
            ("crazyhouse", true),
            ("shogi", true),
            ("antichess", false),
            ("giveaway", false),
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
