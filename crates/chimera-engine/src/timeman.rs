//! Time management: how long one move may think, from the clock the
//! protocol sends.
//!
//! A clock gives a [`Budget`] of two times, both counted from the arrival of
//! the protocol's `go`:
//!
//! - the *soft* time, after which the search starts no new iteration. The
//!   search scales it while it runs ([`soft_scale`]): up when the best move
//!   changed in the last iteration or the score fell, down when the best
//!   move has stayed the same for several iterations;
//! - the *hard* time, at which the search is aborted wherever it is.
//!
//! Under a clock the budget is a share of the time the side has for the
//! moves still to come: the time left and the increments those moves bring,
//! divided by the number of moves expected ([`moves_left`], from the game's
//! ply and the material still in play, or the moves to the next time control
//! when the protocol says it). Neither time ever exceeds a safe fraction of
//! the time left ([`HARD_FRACTION`], [`LAST_MOVE_FRACTION`] before a time
//! control), and the Move Overhead is kept back from every figure, so that
//! the clock is never emptied by one move and a fast game at 5 s + 0.05 s
//! keeps most of its base time well past the opening.
//!
//! Fixed time per move (UCI `movetime`, XBoard `st`) gives the same soft and
//! hard time, without scaling. USI's byoyomi adds its period, which does not
//! carry over from move to move, to the hard time (and half of it to the
//! soft time); once the main time is spent the byoyomi alone is the budget.
//!
//! Everything here is a pure function of its arguments, for the tests.

use std::time::Duration;

/// The expected number of moves left at the start of a game.
pub const MOVES_LEFT_MAX: u32 = 60;
/// The least number of moves a game is expected to go on for.
pub const MOVES_LEFT_MIN: u32 = 25;
/// The hard time is at most this share of the time left (in percent) while
/// more than one move is to be played before the next time control or in
/// sudden death.
pub const HARD_FRACTION: u32 = 25;
/// The hard time is at most this share (percent) of the time left for the
/// last move before a time control.
pub const LAST_MOVE_FRACTION: u32 = 75;
/// The soft time, in percent of the per-move share, before scaling: the
/// iteration that starts just before it runs on past it, so the time a move
/// takes is on average above its soft time. At 40% the clock still held
/// 73% of its base at move 40 and 63% at the end of a 72-move game
/// (3 s + 0.03 s); at 70% it held 51-60% at move 40 and games of 90 to 126
/// moves ended with 0.6-1.0 s left, and the engine won its test against the
/// 40% one (docs/strength.md, "Time use").
pub const SOFT_PERCENT: u32 = 70;
/// The hard time is at most this many times the per-move share.
pub const HARD_SHARES: u32 = 4;

/// The clock of the side to move, as the protocols send it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left (the main time, under byoyomi).
    pub time: Duration,
    /// Increment per move.
    pub inc: Duration,
    /// Moves to the next time control, if any (1: this move is the last).
    pub movestogo: Option<u32>,
    /// USI's byoyomi: the time each move has once the main time is spent.
    pub byoyomi: Duration,
}

/// The time limits of one move, from the arrival of `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Start no new iteration after this (before [`soft_scale`]).
    pub soft: Duration,
    /// Abort the search at this time.
    pub hard: Duration,
    /// Whether the search may scale `soft` by the stability of its best move
    /// (false for a fixed time per move).
    pub adaptive: bool,
}

impl Budget {
    /// A fixed time per move (UCI `movetime`, XBoard `st`): the whole of it
    /// less the overhead, at least 1 ms.
    pub fn fixed(per_move: Duration, overhead: Duration) -> Budget {
        let t = per_move.saturating_sub(overhead).max(MIN_TIME);
        Budget { soft: t, hard: t, adaptive: false }
    }

    /// The soft time scaled by `scale` (a factor from [`soft_scale`], in
    /// percent), never past the hard time. A fixed budget does not scale.
    pub fn scaled_soft(&self, scale: u32) -> Duration {
        if !self.adaptive {
            return self.soft;
        }
        (self.soft.saturating_mul(scale) / 100).min(self.hard).max(MIN_TIME)
    }
}

/// The least time either limit is given: the search always gets to try.
const MIN_TIME: Duration = Duration::from_millis(1);

/// The number of moves the side to move expects still to play, from the
/// game's ply (half-moves played) and the material in play, in permille of
/// the start position's (non-royal, non-pawn material on the board and in
/// hand; above 1000 after promotions). A game just started expects
/// [`MOVES_LEFT_MAX`]; as the material goes and the moves pile up it expects
/// fewer, never fewer than [`MOVES_LEFT_MIN`]. In drop variants material
/// stays in play, and only the ply shortens the horizon.
pub fn moves_left(ply: u32, material_permille: u32) -> u32 {
    let span = MOVES_LEFT_MAX - MOVES_LEFT_MIN;
    let by_material = MOVES_LEFT_MIN + span * material_permille.min(1000) / 1000;
    let by_ply = MOVES_LEFT_MAX.saturating_sub(ply / 2 / 3);
    by_material.min(by_ply).clamp(MOVES_LEFT_MIN, MOVES_LEFT_MAX)
}

/// The budget of one move under `clock`, with `overhead` kept back for each
/// move still to come and `expected` moves left in the game (from
/// [`moves_left`]; the moves to go of the clock, when fewer, take its place).
pub fn budget(clock: &Clock, overhead: Duration, expected: u32) -> Budget {
    let left = clock.time.saturating_sub(overhead);
    let mtg = match clock.movestogo {
        Some(m) => m.clamp(1, expected.max(1)),
        None => expected.max(1),
    };
    // the time for the moves to go: what is left, plus the increments of the
    // moves after this one, less the overhead each of them costs
    let future = mtg - 1;
    let pool = left.saturating_add(clock.inc.saturating_mul(future)).saturating_sub(overhead.saturating_mul(future));
    let share = pool / mtg;
    let fraction = if mtg == 1 { LAST_MOVE_FRACTION } else { HARD_FRACTION };
    let cap = left.saturating_mul(fraction) / 100;
    let mut hard = share.saturating_mul(HARD_SHARES).min(cap);
    let mut soft = (share.saturating_mul(SOFT_PERCENT) / 100).min(hard);
    if !clock.byoyomi.is_zero() {
        // the byoyomi is there for every move whatever the main time does:
        // the hard time may run into all of it, the soft time into half
        let b = clock.byoyomi.saturating_sub(overhead);
        if clock.time.is_zero() {
            soft = Duration::ZERO;
            hard = Duration::ZERO;
        }
        soft = soft.saturating_add(b / 2);
        hard = hard.saturating_add(b);
    }
    Budget { soft: soft.max(MIN_TIME), hard: hard.max(MIN_TIME).max(soft.max(MIN_TIME)), adaptive: true }
}

/// The factor (in percent) the soft time is scaled by after an iteration:
/// `stable` is the number of iterations in a row that ended with the same
/// best move as the one before (0: the best move just changed), `drop` how
/// far the score fell from the previous iteration, in centipawns (0 or less:
/// it did not fall). A new best move or a falling score calls for more time,
/// a best move stable over many iterations for less.
pub fn soft_scale(stable: u32, drop: i32) -> u32 {
    let base: u32 = match stable {
        0 => 160,
        1 => 125,
        2 => 100,
        3 => 85,
        _ => 70,
    };
    // up to half as much again for a fall of 100 centipawns or more
    let fall = drop.clamp(0, 100) as u32;
    base * (200 + fall) / 200
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(time: u64, inc: u64, movestogo: Option<u32>) -> Clock {
        Clock { time: ms(time), inc: ms(inc), movestogo, byoyomi: Duration::ZERO }
    }

    #[test]
    fn moves_left_follows_the_ply_and_the_material() {
        // the start: 60; no material and a long game: the floor of 25
        assert_eq!(moves_left(0, 1000), 60);
        assert_eq!(moves_left(400, 0), 25);
        // half the material: 25 + 35 * 500 / 1000 = 25 + 17 = 42
        assert_eq!(moves_left(0, 500), 42);
        // move 30 (ply 60) with all the material: 60 - 60 / 2 / 3 = 50
        assert_eq!(moves_left(60, 1000), 50);
        // promotions do not make it longer than the start
        assert_eq!(moves_left(0, 1800), 60);
        // a drop variant keeps its material: at move 90, 60 - 30 = 30; at
        // move 150 the floor
        assert_eq!(moves_left(180, 1000), 30);
        assert_eq!(moves_left(300, 1000), 25);
    }

    #[test]
    fn sudden_death_with_increment_at_five_seconds() {
        // 5 s + 0.05 s, 30 ms overhead, 60 moves expected: the pool is
        // 4970 + 59 * (50 - 30) = 6150 ms, the share 6150 / 60 = 102.5 ms;
        // soft 70% of it = 71.75 ms, hard 4 shares = 410 ms (under 25% of 4970)
        let b = budget(&clock(5000, 50, None), ms(30), 60);
        assert_eq!(b.soft, Duration::from_micros(71_750));
        assert_eq!(b.hard, ms(410));
        assert!(b.adaptive);
        // with 400 ms left and 40 moves expected the hard time is capped at
        // a quarter of 370 ms (pool 370 + 39 * 20 = 1150, share 28.75 ms,
        // 4 shares 115 ms: the cap of 92.5 ms is less)
        let b = budget(&clock(400, 50, None), ms(30), 40);
        assert_eq!(b.hard, Duration::from_micros(92_500));
        assert_eq!(b.soft, Duration::from_micros(20_125));
    }

    #[test]
    fn sudden_death_without_increment_spends_a_fiftieth() {
        // 60 s, no increment, 50 ms overhead, 50 moves expected: pool =
        // 59950 - 49 * 50 = 57500, share 1150 ms; hard 4600 ms; soft 805 ms
        let b = budget(&clock(60_000, 0, None), ms(50), 50);
        assert_eq!(b.hard, ms(4600));
        assert_eq!(b.soft, ms(805));
    }

    #[test]
    fn moves_to_go_divides_the_time_and_the_last_move_may_take_most() {
        // XBoard `level 40 5 0` at the start: 300 s for 40 moves (fewer than
        // the 50 expected): pool 299970 - 39 * 30 = 298800, share 7470 ms
        let b = budget(&clock(300_000, 0, Some(40)), ms(30), 50);
        assert_eq!(b.hard, ms(29_880));
        // the last move before the control: all of 10 s less overhead is the
        // share, capped at 75% of 9970 ms = 7477.5 ms
        let b = budget(&clock(10_000, 0, Some(1)), ms(30), 50);
        assert_eq!(b.hard, Duration::from_micros(7_477_500));
        // and the soft time 70% of the share: 6979 ms
        assert_eq!(b.soft, ms(6979));
        // more moves to go than expected: the expectation rules
        let a = budget(&clock(60_000, 0, Some(80)), ms(0), 30);
        let c = budget(&clock(60_000, 0, Some(30)), ms(0), 30);
        assert_eq!(a, c);
    }

    #[test]
    fn never_more_than_a_safe_fraction() {
        for time in [1u64, 10, 100, 1000, 5000, 60_000, 3_600_000] {
            for inc in [0u64, 10, 100, 1000, 10_000] {
                for mtg in [None, Some(2), Some(10), Some(40)] {
                    for expected in [20u32, 35, 50] {
                        let b = budget(&clock(time, inc, mtg), ms(30), expected);
                        let left = ms(time).saturating_sub(ms(30));
                        assert!(b.soft <= b.hard, "{time} {inc} {mtg:?}");
                        // the 1 ms floor aside, a quarter of what is left
                        assert!(b.hard <= (left / 4).max(ms(1)), "{time} {inc} {mtg:?}: {b:?}");
                    }
                }
            }
        }
        // huge clocks saturate instead of overflowing
        let b = budget(
            &Clock { time: Duration::MAX, inc: Duration::MAX, movestogo: None, byoyomi: Duration::MAX },
            ms(30),
            50,
        );
        assert!(b.soft <= b.hard);
    }

    #[test]
    fn fixed_time_per_move() {
        // `movetime 1000` / `st 1` with 30 ms overhead: 970 ms, both limits
        let b = Budget::fixed(ms(1000), ms(30));
        assert_eq!((b.soft, b.hard, b.adaptive), (ms(970), ms(970), false));
        assert_eq!(b.scaled_soft(200), ms(970));
        // less than the overhead: 1 ms
        assert_eq!(Budget::fixed(ms(10), ms(30)).hard, ms(1));
    }

    #[test]
    fn byoyomi() {
        // main time spent, 10 s byoyomi, 100 ms overhead: hard 9.9 s, soft half
        let c = Clock { time: ms(0), inc: ms(0), movestogo: None, byoyomi: ms(10_000) };
        let b = budget(&c, ms(100), 50);
        assert_eq!((b.soft, b.hard), (ms(4950), ms(9900)));
        // with 60 s of main time the byoyomi adds to the clock's budget
        // (pool 59900 - 49 * 100 = 55000, share 1100, hard 4400 ms, soft 770 ms)
        let c = Clock { time: ms(60_000), ..c };
        let b = budget(&c, ms(100), 50);
        assert_eq!((b.soft, b.hard), (ms(770 + 4950), ms(4400 + 9900)));
    }

    #[test]
    fn scaling_follows_the_best_move_and_the_score() {
        // a new best move: 160%; stable for 4 iterations: 70%
        assert_eq!(soft_scale(0, 0), 160);
        assert_eq!(soft_scale(4, 0), 70);
        assert_eq!(soft_scale(9, -50), 70);
        // a fall of 50 cp with a stable move: 100 * 250 / 200 = 125
        assert_eq!(soft_scale(2, 50), 125);
        // the fall counts up to 100 cp: 160 * 300 / 200 = 240
        assert_eq!(soft_scale(0, 500), 240);
        let b = budget(&clock(5000, 50, None), ms(30), 50);
        assert!(b.scaled_soft(70) < b.soft && b.scaled_soft(160) > b.soft);
        // never past the hard time
        assert_eq!(b.scaled_soft(100_000), b.hard);
    }
}
