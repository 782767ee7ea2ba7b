//! `chimera selfplay`: labelled positions for the tuner ([`crate::tune`])
//! from games the engine plays against itself at a fixed number of nodes a
//! move.
//!
//! Each game starts from a few random legal plies (seeded, so a run is
//! reproducible), then both sides search `nodes` nodes a move on one thread.
//! The game ends by the rules (mate, stalemate, the variant's own endings,
//! repetition, the n-move rule: [`chimera::outcome::game_end`]), at
//! `max_plies` (a draw), or by adjudication when the searched score has
//! stayed beyond [`ADJUDICATE`] centipawns for the same side for
//! [`ADJUDICATE_PLIES`] plies in a row. Quiet positions only are written:
//! not in check, and the move the search played is neither a capture nor a
//! promotion; the first `skip` plies after the random opening are left out.
//! Every written position is labelled with the game's result from White's
//! side, one line `FEN;RESULT` (RESULT `1`, `0.5` or `0`); a comment line
//! `# game N` comes before each game's positions, so that the tuner can
//! hold out whole games.

use crate::eval::EvalTables;
use crate::search::{self, is_tactical, GameMemory, Limits, Shared, MATE_BOUND};
use crate::tt::Tt;
use chimera::outcome::{self, HistEntry, Result as GameResult};
use chimera::position::Position;
use chimera::square::Color;
use chimera::variant::Variant;
use std::io::{self, Write};
use std::sync::Arc;

/// The score (centipawns, the side to move's) beyond which a game is adjudicated.
pub const ADJUDICATE: i32 = 1200;
/// The plies in a row the score must stay beyond [`ADJUDICATE`].
pub const ADJUDICATE_PLIES: usize = 8;

/// The settings of a self-play run.
#[derive(Clone, Debug)]
pub struct SelfplayOptions {
    /// Games to play.
    pub games: usize,
    /// Nodes a move.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub random_plies: usize,
    /// Plies after the random opening whose positions are not written.
    pub skip: usize,
    /// The seed of the random openings.
    pub seed: u64,
    /// Games reaching this many plies are drawn.
    pub max_plies: usize,
}

impl Default for SelfplayOptions {
    fn default() -> Self {
        SelfplayOptions { games: 100, nodes: 3000, random_plies: 8, skip: 4, seed: 1, max_plies: 300 }
    }
}

/// What a run produced.
#[derive(Clone, Debug, Default)]
pub struct SelfplayStats {
    /// Games finished.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// White wins, draws, Black wins.
    pub results: [usize; 3],
    /// Games decided by adjudication.
    pub adjudicated: usize,
}

/// Plays the games and writes the positions to `out`; `each` sees every
/// finished game (its number, result and plies).
pub fn selfplay(
    v: &Arc<Variant>,
    ev: &Arc<EvalTables>,
    o: &SelfplayOptions,
    out: &mut dyn Write,
    each: &mut dyn FnMut(usize, GameResult, usize),
) -> io::Result<SelfplayStats> {
    let mut stats = SelfplayStats::default();
    let tt = Arc::new(Tt::new(8));
    let mut seed = o.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut rnd = move |m: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % m
    };
    let mut game = 0;
    let mut attempts = 0;
    while game < o.games && attempts < o.games * 4 + 10 {
        attempts += 1;
        let mut pos = Position::start(v.clone());
        let mut hist = vec![HistEntry::of(&mut pos, 0)];
        let mut ok = true;
        for _ in 0..o.random_plies {
            if outcome::game_end(&mut pos, &hist).is_some() {
                ok = false;
                break;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            let m = moves[rnd(moves.len())];
            outcome::play_and_record(&mut pos, m, &mut hist);
        }
        if !ok {
            continue;
        }
        tt.clear();
        // the searches of one game carry their history and caches from move to move, as in a match
        let memory = Arc::new(GameMemory::default());
        let mut fens = Vec::new();
        let mut plies = 0;
        let mut streak = (0i32, 0usize);
        let result = loop {
            if let Some(end) = outcome::game_end(&mut pos, &hist) {
                break end.result;
            }
            if plies >= o.max_plies {
                break GameResult::Draw;
            }
            let shared = Arc::new(Shared::with_memory(tt.clone(), memory.clone()));
            let limits = Limits { nodes: Some(o.nodes), ..Limits::default() };
            let r = search::search(&pos, &hist, ev, &shared, limits, 1, &mut |_| {});
            let Some(best) = r.best else { break GameResult::Draw };
            let white = if pos.side_to_move() == Color::White { r.score } else { -r.score };
            let side = if white >= ADJUDICATE {
                1
            } else if white <= -ADJUDICATE {
                -1
            } else {
                0
            };
            streak = if side != 0 && side == streak.0 { (side, streak.1 + 1) } else { (side, 1) };
            if side != 0 && streak.1 >= ADJUDICATE_PLIES {
                stats.adjudicated += 1;
                break GameResult::win(if side > 0 { Color::White } else { Color::Black });
            }
            if plies >= o.skip && !pos.in_check() && !is_tactical(&pos, best) && r.score.abs() < MATE_BOUND {
                fens.push(pos.fen());
            }
            outcome::play_and_record(&mut pos, best, &mut hist);
            plies += 1;
        };
        let label = match result {
            GameResult::WhiteWins => "1",
            GameResult::BlackWins => "0",
            GameResult::Draw => "0.5",
        };
        // the tuner holds out whole games by these markers
        writeln!(out, "# game {}", game + 1)?;
        for f in &fens {
            writeln!(out, "{f};{label}")?;
        }
        stats.positions += fens.len();
        stats.results[match result {
            GameResult::WhiteWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        }] += 1;
        game += 1;
        stats.games = game;
        each(game, result, plies);
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera::builtin;

    #[test]
    fn selfplay_writes_quiet_labelled_positions() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let o = SelfplayOptions { games: 2, nodes: 200, max_plies: 40, ..Default::default() };
        let mut out = Vec::new();
        let stats = selfplay(&v, &ev, &o, &mut out, &mut |_, _, _| {}).unwrap();
        assert_eq!(stats.games, 2);
        let text = String::from_utf8(out).unwrap();
        // a marker line before each game's positions
        assert_eq!(text.lines().count(), stats.positions + 2);
        assert_eq!(text.lines().filter(|l| l.starts_with("# game ")).count(), 2);
        assert!(stats.positions > 20, "{}", stats.positions);
        let data = crate::tune::parse_data(&v, &text).unwrap();
        assert!(data.iter().any(|s| s.game == Some(0)) && data.iter().any(|s| s.game == Some(1)));
        for s in data {
            let mut pos = s.pos;
            assert!(!pos.in_check(), "{}", pos.fen());
            assert!([0.0, 0.5, 1.0].contains(&s.result));
        }
    }
}
