//! How a game ends: from a position and the game's history, whether the
//! game is over, with what result and why.
//!
//! Two kinds of end are told apart, as pyffish (Fairy-Stockfish) tells
//! them apart:
//!
//! - **Immediate** ends, where the rules end the game at once: checkmate
//!   and stalemate (scored as the variant says), a forbidden mating drop,
//!   extinction, a flag reached, the checks of a check-counting variant
//!   given, a game ended by rule (two passes, bikjang twice) and, in the
//!   variants whose rules decide a repetition (the Shogi and Xiangqi
//!   families, where perpetual check loses, and Janggi, where the points
//!   decide), the repetition.
//! - **Claimable** ends, which a player may claim: a threefold repetition
//!   in the other variants, the n-move rule (50 moves without a capture, a
//!   pawn move, a promotion or a drop), a count that has run out
//!   (Makruk-style counting) and a dead position (insufficient material:
//!   neither side can ever mate).
//!
//! [`game_end`] gives the first end found (immediate ends first), as a game
//! that stops at any end plays it; [`immediate_end`] and [`claimable_end`]
//! give each kind alone. Every end has a [`Result`] (with armageddon's draw
//! odds applied) and a typed [`Reason`]; [`Reason::pyffish_class`] says
//! which of pyffish's functions reports it.
//!
//! The history is what a game keeps of its positions ([`HistEntry`]: the
//! hash, whether the side to move was in check, and the plies since the last
//! irreversible move), from the first position to the current one.
//! Repetitions are counted among the positions since the last irreversible
//! move, with the same side to move.
//!
//! A variant's own repetition rule is consulted in [`repetition_end`], one
//! arm of its `match` on [`RepetitionRule`] per rule.
//!
//! ```
//! use std::sync::Arc;
//! use chimera::{builtin, position::Position};
//! use chimera::outcome::{self, HistEntry, Reason, Result};
//! let mut p = Position::start(Arc::new(builtin::variant("chess").unwrap()));
//! let mut hist = vec![HistEntry::of(&mut p, 0)];
//! for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     let m = p.parse_move(m).unwrap();
//!     p.make(m);
//!     hist.push(HistEntry::of(&mut p, 0));
//! }
//! let end = outcome::game_end(&mut p, &hist).unwrap();
//! assert_eq!((end.result, end.reason, end.claimable), (Result::BlackWins, Reason::Checkmate, false));
//! ```

use crate::legal::Outcome;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::square::Color;
use crate::variant::{PassRule, StalemateResult, Variant};
use std::fmt;

/// One position of a game: what repetitions and the n-move rule need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistEntry {
    /// The position's hash.
    pub hash: u64,
    /// Whether the side to move was in check.
    pub in_check: bool,
    /// Plies since the last irreversible move (capture, promotion, drop, pawn move, castling).
    pub rev: u16,
}

impl HistEntry {
    /// The entry of position `pos`, `rev` plies after the last irreversible move.
    pub fn of(pos: &mut Position, rev: u16) -> HistEntry {
        HistEntry { hash: pos.hash(), in_check: pos.in_check(), rev }
    }
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
            let pawn_step = v.pawn[mover.index()]
                && !(v.pawn_reversible[mover.index()]
                    && v.tables
                        .list(mover, false, m.to())
                        .0
                        .iter()
                        .any(|c| c.to == m.from() && c.flags & crate::compile::QUIET != 0));
            (m.from() != m.to() && !m.is_unload() && !pos.piece_at(m.to()).is_empty()) || pawn_step
        }
        _ => true,
    }
}

/// Plays `m` (legal in `pos`) and appends the new position's entry to
/// `hist`, as a game keeps its history: the reversible-ply count goes on
/// from the last entry's, or starts at 0 after an irreversible move.
pub fn play_and_record(pos: &mut Position, m: Move, hist: &mut Vec<HistEntry>) -> crate::position::Undo {
    let irr = irreversible(pos, m);
    let undo = pos.make(m);
    let rev = if irr { 0 } else { hist.last().map_or(0, |e| e.rev).saturating_add(1) };
    hist.push(HistEntry::of(pos, rev));
    undo
}

/// A finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Result {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl Result {
    /// The PGN text: `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            Result::WhiteWins => "1-0",
            Result::BlackWins => "0-1",
            Result::Draw => "1/2-1/2",
        }
    }

    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Result::WhiteWins => Some(Color::White),
            Result::BlackWins => Some(Color::Black),
            Result::Draw => None,
        }
    }

    /// A win for `c`.
    pub fn win(c: Color) -> Result {
        if c == Color::White {
            Result::WhiteWins
        } else {
            Result::BlackWins
        }
    }

    /// The value for side `c` as pyffish gives it: `mate` for a win, `-mate`
    /// for a loss, 0 for a draw.
    pub fn value_for(self, c: Color, mate: i32) -> i32 {
        match self.winner() {
            None => 0,
            Some(w) if w == c => mate,
            Some(_) => -mate,
        }
    }
}

impl fmt::Display for Result {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move was mated by a drop the variant forbids to mate with
    /// (shogi's pawn): the side to move wins.
    DropMate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A side lost the pieces the extinction rule names.
    Extinction,
    /// A side brought a flag piece into its flag zone.
    FlagReached,
    /// A side gave the checks a check-counting variant asks for.
    ChecksGiven,
    /// Two passes in a row or bikjang twice in a row; a draw.
    EndedByRule,
    /// As [`Reason::EndedByRule`], decided by the point count (Janggi).
    EndedByRulePoints,
    /// A Makruk-style count ran out.
    Counting,
    /// The n-move rule (50 moves without a capture, pawn move, promotion or drop).
    NMoveRule,
    /// The n-move rule decided by the point count (Janggi): the side ahead
    /// on points wins, as Fairy-Stockfish scores it.
    NMoveRulePoints,
    /// A position appeared for the third time.
    Repetition,
    /// A repetition decided by the point count (Janggi).
    RepetitionPoints,
    /// A repetition in which one side gave check on every move: it loses.
    PerpetualCheck,
    /// The last move brought back an earlier position (with the same side
    /// to move) and was not made out of check: the side that made it loses
    /// (Chu Shogi, [`crate::chu_repetition`]).
    RepeatedByOpponent,
    /// Neither side can ever mate (a dead position).
    InsufficientMaterial,
}

/// Which of pyffish's game-end functions reports an end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PyffishClass {
    /// No legal move: only `game_result` tells (with `legal_moves` empty).
    NoMoves,
    /// `is_immediate_game_end`.
    Immediate,
    /// `is_optional_game_end`.
    Optional,
    /// Only `has_insufficient_material`: pyffish leaves dead positions to the players.
    Material,
}

impl Reason {
    /// A short text: `checkmate`, `stalemate`, `repetition`, `n-move rule`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::DropMate => "mate by a forbidden drop",
            Reason::Stalemate => "stalemate",
            Reason::Extinction => "extinction",
            Reason::FlagReached => "flag reached",
            Reason::ChecksGiven => "checks given",
            Reason::EndedByRule => "game ended by rule",
            Reason::EndedByRulePoints => "game ended by rule, point count",
            Reason::Counting => "counting rule",
            Reason::NMoveRule => "n-move rule",
            Reason::NMoveRulePoints => "n-move rule, point count",
            Reason::Repetition => "repetition",
            Reason::RepetitionPoints => "repetition, point count",
            Reason::PerpetualCheck => "perpetual check",
            Reason::RepeatedByOpponent => "repetition by the opponent",
            Reason::InsufficientMaterial => "insufficient material",
        }
    }

    /// Which of pyffish's functions reports this end. pyffish reports every
    /// repetition (perpetual check and sennichite included), the n-move rule
    /// and counting as optional ends, whatever the variant.
    pub fn pyffish_class(self) -> PyffishClass {
        match self {
            Reason::Checkmate | Reason::DropMate | Reason::Stalemate => PyffishClass::NoMoves,
            Reason::Extinction
            | Reason::FlagReached
            | Reason::ChecksGiven
            | Reason::EndedByRule
            | Reason::EndedByRulePoints
            | Reason::RepeatedByOpponent => PyffishClass::Immediate,
            Reason::Counting
            | Reason::NMoveRule
            | Reason::NMoveRulePoints
            | Reason::Repetition
            | Reason::RepetitionPoints
            | Reason::PerpetualCheck => PyffishClass::Optional,
            Reason::InsufficientMaterial => PyffishClass::Material,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a game has ended or may be ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// The result (armageddon's draw odds applied).
    pub result: Result,
    /// Why.
    pub reason: Reason,
    /// A player may claim this end; `false` when the rules end the game at once.
    pub claimable: bool,
}

/// How a variant scores a repetition that [`repetition_end`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// A threefold repetition is a draw a player may claim (chess).
    Claim,
    /// The rules decide a threefold repetition at once: a side that gave
    /// check on every move of the cycle loses, else it is a draw. For
    /// variants whose stalemate loses and that have drops or a piece
    /// confined to a zone (a palace): the Shogi and Xiangqi families, for
    /// which Fairy-Stockfish sets `perpetualCheckIllegal`. (Shatranj, whose
    /// stalemate also loses but which has neither, keeps the claimable draw,
    /// as Fairy-Stockfish and Fairy-Max score it.)
    PerpetualCheckLoses,
    /// The rules decide a threefold repetition at once by the point count
    /// (Janggi: every non-royal piece has a value); a draw on equal points.
    Points,
    /// Both: perpetual check loses, and the point count decides otherwise.
    PerpetualCheckThenPoints,
    /// Any repetition of a position ends the game at once: the side that
    /// repeated it loses unless it moved out of check (Chu Shogi,
    /// `[rules] repetition = "repeater_loses"`, [`crate::chu_repetition`]).
    RepeaterLoses,
}

impl RepetitionRule {
    /// The rule of variant `v`.
    pub fn of(v: &Variant) -> RepetitionRule {
        if v.def.rules.repetition == crate::variant::RepetitionRule::RepeaterLoses {
            return RepetitionRule::RepeaterLoses;
        }
        match (perpetual_check_loses(v), crate::counting::counts_points(&v.def)) {
            (false, false) => RepetitionRule::Claim,
            (true, false) => RepetitionRule::PerpetualCheckLoses,
            (false, true) => RepetitionRule::Points,
            (true, true) => RepetitionRule::PerpetualCheckThenPoints,
        }
    }
}

/// Whether a side that gives check on every move of a repetition cycle
/// loses in `v` (see [`RepetitionRule::PerpetualCheckLoses`]).
pub fn perpetual_check_loses(v: &Variant) -> bool {
    let r = &v.def.rules;
    r.stalemate == StalemateResult::Loss && (r.drops.is_some() || v.def.pieces.iter().any(|p| p.confine.is_some()))
}

/// The plies of the n-move rule in `v`: twice `[rules] n_move_rule` where
/// the variant gives it (none for 0); otherwise 100 (fifty moves) in variants
/// without drops and without a counting rule, none in the others.
pub fn n_move_plies(v: &Variant) -> Option<u16> {
    let r = &v.def.rules;
    match r.n_move_rule {
        Some(0) => None,
        Some(n) => Some(2 * n),
        None => (r.drops.is_none() && r.counting.is_none()).then_some(100),
    }
}

/// The first end found, immediate ends first, then claimable ones: the
/// game's end for a game that stops at any end. `hist` holds the game's
/// positions from the first to `pos` (at least `pos`'s own entry; with an
/// empty history only ends of the position itself are found).
pub fn game_end(pos: &mut Position, hist: &[HistEntry]) -> Option<GameEnd> {
    immediate_end(pos, hist).or_else(|| claimable_end(pos, hist))
}

/// An end the rules make at once, if any: checkmate, stalemate, a forbidden
/// mating drop, extinction, a flag, the checks given, a game ended by rule,
/// and a repetition where the variant's rules decide it.
pub fn immediate_end(pos: &mut Position, hist: &[HistEntry]) -> Option<GameEnd> {
    let end = |result, reason| GameEnd { result, reason, claimable: false };
    if let Some(o) = pos.outcome() {
        let stm = pos.side_to_move();
        let scored = |c: Color, r: StalemateResult| match r {
            StalemateResult::Draw => Result::Draw,
            StalemateResult::Loss => Result::win(c.flip()),
            StalemateResult::Win => Result::win(c),
        };
        let e = match o {
            Outcome::Checkmate(r) => end(scored(stm, r), Reason::Checkmate),
            Outcome::DropMate => end(Result::win(stm), Reason::DropMate),
            Outcome::Stalemate(r) => end(scored(stm, r), Reason::Stalemate),
            Outcome::Extinction(c, r) => end(scored(c, r), Reason::Extinction),
            Outcome::Flag(c) => end(Result::win(c), Reason::FlagReached),
            Outcome::ChecksGiven(c) => end(Result::win(c), Reason::ChecksGiven),
            Outcome::EndedByRule => match pos.point_count_winner() {
                Some(c) => end(Result::win(c), Reason::EndedByRulePoints),
                None => end(Result::Draw, Reason::EndedByRule),
            },
        };
        return Some(with_draw_odds(pos.variant(), e));
    }
    repetition_end(pos, hist).filter(|e| !e.claimable)
}

/// An end a player may claim, if any (and no immediate end comes first in
/// [`game_end`]): a dead position, a count run out, the n-move rule, and a
/// threefold repetition where the variant leaves it to the players.
pub fn claimable_end(pos: &mut Position, hist: &[HistEntry]) -> Option<GameEnd> {
    if dead_position(pos) {
        return Some(claimable_draw(pos.variant(), Reason::InsufficientMaterial));
    }
    count_end(pos, hist).or_else(|| repetition_end(pos, hist).filter(|e| e.claimable))
}

/// A claimable draw in `v` (armageddon's draw odds applied).
fn claimable_draw(v: &Variant, reason: Reason) -> GameEnd {
    with_draw_odds(v, GameEnd { result: Result::Draw, reason, claimable: true })
}

/// A count run out (Makruk-style counting) or the n-move rule reached, if
/// either: claimable draws, but for the n-move rule where the variant counts
/// points (Janggi), which the side ahead on points wins. The reversible
/// plies are `hist`'s last entry's, or the FEN's half-move clock without a
/// history.
fn count_end(pos: &Position, hist: &[HistEntry]) -> Option<GameEnd> {
    let v = pos.variant();
    if pos.counting().is_some_and(|(limit, counted)| counted > limit) {
        return Some(claimable_draw(v, Reason::Counting));
    }
    let rev = hist.last().map_or(pos.halfmove_clock().min(u16::MAX as u32) as u16, |e| e.rev);
    if n_move_plies(v).is_none_or(|k| rev < k) {
        return None;
    }
    // where every piece has points (Janggi), the side ahead wins; a draw on
    // equal points
    if crate::counting::counts_points(&v.def) {
        if let Some(c) = pos.point_count_winner() {
            return Some(GameEnd { result: Result::win(c), reason: Reason::NMoveRulePoints, claimable: true });
        }
    }
    Some(claimable_draw(v, Reason::NMoveRule))
}

/// The ends of a position as pyffish reports them, each function's answer
/// apart (see [`Reason::pyffish_class`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PyffishEnds {
    /// No legal move (checkmate, stalemate, a forbidden mating drop): what
    /// `game_result` gives.
    pub no_moves: Option<GameEnd>,
    /// What `is_immediate_game_end` reports.
    pub immediate: Option<GameEnd>,
    /// What `is_optional_game_end` reports: the n-move rule, a count run
    /// out, or a repetition (however the variant scores it). Not where the
    /// game has ended without a claim.
    pub optional: Option<GameEnd>,
}

/// The ends of the position after `hist` split as pyffish splits them:
/// `game_result`'s, `is_immediate_game_end`'s and `is_optional_game_end`'s.
/// A dead position is none of them (pyffish reports it only through
/// `has_insufficient_material`).
pub fn pyffish_ends(pos: &mut Position, hist: &[HistEntry]) -> PyffishEnds {
    let mut out = PyffishEnds::default();
    match immediate_end(pos, hist) {
        Some(e) if e.reason.pyffish_class() == PyffishClass::NoMoves => out.no_moves = Some(e),
        Some(e) if e.reason.pyffish_class() == PyffishClass::Immediate => out.immediate = Some(e),
        _ => out.optional = count_end(pos, hist).or_else(|| repetition_end(pos, hist)),
    }
    out
}

/// Whether neither side can ever mate (FIDE's dead position: king against
/// king, king and minor piece against king; see [`crate::material`]). A
/// side alone without mating material does not end the game: the other side
/// may still win. Not where a game may be ended by passing and the points
/// decide it (Janggi: two passes in a row give a bare general's side the
/// win on points, or not).
pub fn dead_position(pos: &Position) -> bool {
    if pos.variant().def.rules.pass != PassRule::Never && pos.point_count_winner().is_some() {
        return false;
    }
    pos.insufficient_material() == [true, true]
}

/// A threefold repetition of the current position (the last entry of
/// `hist`) among the positions since the last irreversible move, scored by
/// the variant's [`RepetitionRule`]; `None` if the position has not
/// appeared three times (`[rules] n_fold` times where the variant says so).
pub fn repetition_end(pos: &Position, hist: &[HistEntry]) -> Option<GameEnd> {
    let n = hist.len().checked_sub(1)?;
    let cur = hist[n];
    let v = pos.variant();
    if RepetitionRule::of(v) == RepetitionRule::RepeaterLoses {
        // the first repetition decides, in favour of the side to move
        let window = (cur.rev as usize).min(n);
        let hashes: Vec<u64> = hist[n - window..].iter().map(|h| h.hash).collect();
        let mover_was_in_check = n > 0 && hist[n - 1].in_check;
        return crate::chu_repetition::repeater_loses(&hashes, window, mover_was_in_check).then(|| {
            with_draw_odds(
                v,
                GameEnd {
                    result: Result::win(pos.side_to_move()),
                    reason: Reason::RepeatedByOpponent,
                    claimable: false,
                },
            )
        });
    }
    let lowest = n.saturating_sub(cur.rev as usize);
    let mut count = 0;
    let mut first = n;
    let mut i = n;
    while i >= lowest + 2 {
        i -= 2;
        if hist[i].hash == cur.hash {
            count += 1;
            first = i;
        }
    }
    if count + 1 < v.def.rules.n_fold as usize {
        return None;
    }
    let stm = pos.side_to_move();
    let decided = |result, reason| Some(with_draw_odds(v, GameEnd { result, reason, claimable: false }));
    // a repetition nothing else decides: a draw, or a win for the side the
    // variant gives it to (`[rules] repetition_winner`)
    let drawn = || match v.def.rules.repetition_winner {
        Some(c) => decided(Result::win(c), Reason::Repetition),
        None => decided(Result::Draw, Reason::Repetition),
    };
    // whether each side gave check on every one of its moves of the cycle
    let perpetual = || {
        let me = (first..=n).step_by(2).all(|j| hist[j].in_check);
        let them = (first + 1..n).step_by(2).all(|j| hist[j].in_check);
        match (me, them) {
            (true, false) => Some(stm),
            (false, true) => Some(stm.flip()),
            _ => None,
        }
    };
    let points = || match pos.point_count_winner() {
        Some(c) => decided(Result::win(c), Reason::RepetitionPoints),
        None => drawn(),
    };
    // One arm per repetition rule. A variant with a rule of its own (Chu
    // Shogi's, say) gets a `RepetitionRule` of its own in
    // `RepetitionRule::of` and is scored in its arm here.
    match RepetitionRule::of(v) {
        RepetitionRule::Claim if v.def.rules.repetition_winner.is_some() => drawn(),
        RepetitionRule::Claim => {
            Some(with_draw_odds(v, GameEnd { result: Result::Draw, reason: Reason::Repetition, claimable: true }))
        }
        RepetitionRule::PerpetualCheckLoses => match perpetual() {
            Some(winner) => decided(Result::win(winner), Reason::PerpetualCheck),
            None => drawn(),
        },
        RepetitionRule::Points => points(),
        RepetitionRule::PerpetualCheckThenPoints => match perpetual() {
            Some(winner) => decided(Result::win(winner), Reason::PerpetualCheck),
            None => points(),
        },
        // decided above, before the count of repetitions
        RepetitionRule::RepeaterLoses => None,
    }
}

/// Armageddon: a drawn game is won by the side with draw odds.
fn with_draw_odds(v: &Variant, mut e: GameEnd) -> GameEnd {
    if e.result == Result::Draw {
        if let Some(c) = v.def.rules.draw_odds {
            e.result = Result::win(c);
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;
    use std::sync::Arc;

    /// Plays `moves` from `fen` and keeps the history as a game does: the
    /// reversible-ply count is reset by any move that changes the
    /// half-move clock to 0 (a capture or pawn move in these tests).
    fn play(name: &str, fen: &str, moves: &[&str]) -> (Position, Vec<HistEntry>) {
        let mut p = Position::from_fen(Arc::new(builtin::variant(name).unwrap()), fen).unwrap();
        let rev = p.halfmove_clock() as u16;
        let mut hist = vec![HistEntry::of(&mut p, rev)];
        for m in moves {
            let m = p.parse_move(m).unwrap();
            p.make(m);
            let rev = if p.halfmove_clock() == 0 { 0 } else { hist.last().unwrap().rev + 1 };
            hist.push(HistEntry::of(&mut p, rev));
        }
        (p, hist)
    }

    const SHUFFLE: [&str; 8] = ["g1g2", "a8b8", "g2g1", "b8a8", "g1g2", "a8b8", "g2g1", "b8a8"];

    /// A rook shuffling back and forth repeats the start position a third
    /// time after eight plies: a claimable draw in chess, Black's win in
    /// armageddon (draw odds), and not yet after seven plies.
    #[test]
    fn threefold_repetition_is_claimable_in_chess() {
        let fen = "k7/8/8/8/8/8/8/6RK w - - 0 1";
        let (mut p, h) = play("chess", fen, &SHUFFLE[..7]);
        assert_eq!(game_end(&mut p, &h), None);
        let (mut p, h) = play("chess", fen, &SHUFFLE);
        let want = GameEnd { result: Result::Draw, reason: Reason::Repetition, claimable: true };
        assert_eq!(claimable_end(&mut p, &h), Some(want));
        assert_eq!(immediate_end(&mut p, &h), None);
        let (mut p, h) = play("armageddon", fen, &SHUFFLE);
        assert_eq!(game_end(&mut p, &h).map(|e| e.result), Some(Result::BlackWins));
    }

    /// In Xiangqi the rules decide a repetition at once. White's chariot
    /// checks the general along rank 10 and rank 9 in turn (a9-a10 checks
    /// the general on e10, a10-a9 checks it on e9) while the general steps
    /// e10-e9-e10: the start position is back after four plies and appears
    /// a third time after eight, every White move a check, so White, the
    /// checking side, loses.
    #[test]
    fn perpetual_check_loses_in_xiangqi() {
        let fen = "4k4/R8/9/9/9/9/9/9/9/5K3 w - - 0 1";
        let moves = ["a9a10", "e10e9", "a10a9", "e9e10", "a9a10", "e10e9", "a10a9", "e9e10"];
        let (mut p, h) = play("xiangqi", fen, &moves);
        let e = immediate_end(&mut p, &h);
        assert!(h.iter().skip(1).step_by(2).all(|e| e.in_check), "every White move checks");
        assert_eq!(e, Some(GameEnd { result: Result::BlackWins, reason: Reason::PerpetualCheck, claimable: false }));
        assert_eq!(claimable_end(&mut p, &h), None);
    }

    /// The n-move rule counts from the FEN's half-move clock; checkmate
    /// comes before it; king against king is dead at once.
    #[test]
    fn n_move_rule_and_dead_positions_are_claimable() {
        let (mut p, h) = play("chess", "k7/8/8/8/8/8/8/6RK w - - 99 80", &["g1g2"]);
        assert_eq!(game_end(&mut p, &h).map(|e| (e.reason, e.claimable)), Some((Reason::NMoveRule, true)));
        let (mut p, h) = play("chess", "k7/8/8/8/8/8/8/6RK w - - 98 80", &["g1g2"]);
        assert_eq!(game_end(&mut p, &h), None);
        let (mut p, h) = play("chess", "k7/8/1K6/8/8/8/8/6R1 w - - 99 80", &["g1g8"]);
        assert_eq!(game_end(&mut p, &h).map(|e| e.reason), Some(Reason::Checkmate));
        let (mut p, h) = play("chess", "k7/8/8/8/8/8/8/6K1 w - - 0 1", &[]);
        assert_eq!(claimable_end(&mut p, &h).map(|e| e.reason), Some(Reason::InsufficientMaterial));
        assert_eq!(Reason::InsufficientMaterial.pyffish_class(), PyffishClass::Material);
    }

    /// `[rules] n_move_rule`: none in the shogi family without drops (Sho and
    /// Chu Shogi, where the default would give 50 moves), a given count in
    /// moves where a file sets one; a count beyond 1000 is refused.
    #[test]
    fn the_n_move_rule_a_variant_gives() {
        assert_eq!(n_move_plies(&builtin::variant("chess").unwrap()), Some(100));
        assert_eq!(n_move_plies(&builtin::variant("shogi").unwrap()), None);
        for name in ["shoshogi", "chushogi", "washogi", "daishogi"] {
            assert_eq!(n_move_plies(&builtin::variant(name).unwrap()), None, "{name}");
        }
        let sho = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 150 1";
        let (mut p, h) = play("shoshogi", sho, &[]);
        assert_eq!(game_end(&mut p, &h), None);
        let file = |n: &str| {
            format!("name = \"t\"\nfiles = 8\nranks = 8\nstart_fen = \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n[rules]\nn_move_rule = {n}\n[[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n")
        };
        let v = Variant::from_toml(&file("30"), "t.toml").unwrap();
        assert_eq!(n_move_plies(&v), Some(60));
        let e = Variant::from_toml(&file("1001"), "t.toml").unwrap_err().to_string();
        assert!(e.contains("n_move_rule"), "{e}");
    }

    /// Janggi's n-move end goes to the side ahead on points (Han, Black,
    /// with its 1.5 points at equal material), as pyffish scores it; Janggi
    /// Casual's, whose pieces have no points, is a draw; Shatranj counts 70
    /// moves, Crazyhouse 50 despite its drops.
    #[test]
    fn n_move_ends_by_points_and_counts_per_variant() {
        let start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 100 1";
        let (mut p, h) = play("janggi", start, &[]);
        let e = game_end(&mut p, &h).unwrap();
        assert_eq!((e.result, e.reason, e.claimable), (Result::BlackWins, Reason::NMoveRulePoints, true));
        assert_eq!(e.reason.pyffish_class(), PyffishClass::Optional);
        // White a chariot up
        let (mut p, h) =
            play("janggi", "1nba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 100 1", &[]);
        assert_eq!(game_end(&mut p, &h).map(|e| e.result), Some(Result::WhiteWins));
        let (mut p, h) = play("janggicasual", start, &[]);
        assert_eq!(game_end(&mut p, &h).map(|e| (e.result, e.reason)), Some((Result::Draw, Reason::NMoveRule)));
        assert_eq!(n_move_plies(&builtin::variant("shatranj").unwrap()), Some(140));
        assert_eq!(n_move_plies(&builtin::variant("chaturanga").unwrap()), Some(140));
        assert_eq!(n_move_plies(&builtin::variant("crazyhouse").unwrap()), Some(100));
        assert_eq!(n_move_plies(&builtin::variant("asean").unwrap()), Some(100));
    }

    /// `[rules] n_fold`: Sho Shogi ends at the fourth occurrence (pyffish:
    /// nothing at the third), chess at the third; out of range is refused.
    /// `[rules] repetition_winner`: Minishogi's repetition is Black's win.
    #[test]
    fn repetitions_end_after_n_fold_occurrences() {
        let sho = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1";
        let opening = ["d1c2", "g9f8", "i1i2", "b7b6", "f1f2", "f9g8"];
        let cycle = ["e2d2", "e8f9", "d2e2", "f9e8"];
        let moves: Vec<&str> = opening.iter().chain(cycle.iter().cycle().take(8)).copied().collect();
        let (mut p, h) = play("shoshogi", sho, &moves);
        assert_eq!(game_end(&mut p, &h), None, "third occurrence");
        let moves: Vec<&str> = opening.iter().chain(cycle.iter().cycle().take(12)).copied().collect();
        let (mut p, h) = play("shoshogi", sho, &moves);
        assert_eq!(game_end(&mut p, &h).map(|e| (e.result, e.reason)), Some((Result::Draw, Reason::Repetition)));
        // Minishogi: the fourth occurrence, won by Black
        let mini = "rbsgk/4p/5/P4/KGSBR[-] w 0 1";
        let cycle = ["d1c2", "b5e2", "c2d1", "e2b5"];
        let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        let (mut p, h) = play("minishogi", mini, &moves);
        assert_eq!(game_end(&mut p, &h).map(|e| (e.result, e.reason)), Some((Result::BlackWins, Reason::Repetition)));
        let (mut p, h) = play("minishogi", mini, &moves[..8]);
        assert_eq!(game_end(&mut p, &h), None);
        let file = |n: &str| {
            format!("name = \"t\"\nfiles = 8\nranks = 8\nstart_fen = \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n[rules]\nn_fold = {n}\n[[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n")
        };
        assert_eq!(Variant::from_toml(&file("5"), "t.toml").unwrap().def.rules.n_fold, 5);
        for bad in ["1", "11"] {
            let e = Variant::from_toml(&file(bad), "t.toml").unwrap_err().to_string();
            assert!(e.contains("n_fold"), "{e}");
        }
    }

    /// The rules as the variant data gives them (see [`RepetitionRule`]).
    #[test]
    fn repetition_rules_of_the_variants() {
        for (name, rule) in [
            ("chess", RepetitionRule::Claim),
            ("shatranj", RepetitionRule::Claim),
            ("xiangqi", RepetitionRule::PerpetualCheckLoses),
            ("shogi", RepetitionRule::PerpetualCheckLoses),
            // the palace and a stalemate that loses: perpetual check loses; every piece has points
            ("janggi", RepetitionRule::PerpetualCheckThenPoints),
        ] {
            assert_eq!(RepetitionRule::of(&builtin::variant(name).unwrap()), rule, "{name}");
        }
    }
}
