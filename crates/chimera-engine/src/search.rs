//! The search: iterative deepening, principal-variation alpha-beta with a
//! shared transposition table, quiescence on captures, check extension,
//! null-move pruning, late-move reductions, killers and history, and Lazy SMP
//! threads.
//!
//! Every thread owns a [`Searcher`]: a clone of the position, its move buffers
//! and its tables, all allocated before the search starts, so the search
//! itself allocates nothing per node. The threads share the transposition
//! table, a stop flag and a node counter ([`Shared`]).
//!
//! Null-move pruning (with a verification search at high depth) runs in
//! variants without compulsory captures or a stalemate win, when the
//! side to move has a piece that is neither royal nor a pawn; reverse
//! futility pruning and late-move pruning work near the leaves.
//!
//! Repetitions are scored by the variant's rule: a draw, perpetual check
//! losing (Xiangqi and Shogi families), the point count (Janggi), or Chu
//! Shogi's rule that the side that repeats a position loses (unless it moved
//! out of check).

use crate::eval::{EvalTables, PawnCache, PieceSums};
use crate::rules::{irreversible, GameRules, HistEntry};
use crate::see;
use crate::timeman::{self, Budget};
use crate::tt::{Tt, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER};
use chimera::check::CheckInfo;
use chimera::compile::type_of;
use chimera::footprint::MAX_FOOTPRINT;
use chimera::moves::{Move, MoveKind, MoveList};
use chimera::piece::Code;
use chimera::position::Position;
use chimera::square::Color;
use chimera::variant::StalemateResult;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use web_time::Instant;

/// The deepest line the search follows.
pub const MAX_PLY: usize = 100;
/// A bound above every score.
pub const INF: i32 = 32000;
/// The score of giving mate now.
pub const MATE: i32 = 31000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// Lazy evaluation: a capture-search node whose estimate (material and
/// tables, [`EvalTables::estimate_with`]) is this far above beta stands pat
/// without the full evaluation.
const LAZY_MARGIN: i32 = 200;
/// The bound the history scores of [`Searcher::reward_quiet`] approach
/// (a bonus `32 b` with a decay of `h b / 512` settles at `32 * 512`).
const HISTORY_MAX: i32 = 32 * 512;
/// A history score at or above which a quiet move is reduced one ply less
/// (and at or below whose negative one ply more): a quarter of the bound.
const HISTORY_GOOD: i32 = HISTORY_MAX / 4;
/// The score of a game won by a rule other than mate (perpetual check, a
/// repetition decided by points).
pub const RULE_WIN: i32 = 20000;
/// The most nodes one quiescence search (the capture search below one leaf
/// of the main search) may visit; past it, its nodes stand pat. Real capture
/// sequences end long before this (in chess a capture search rarely visits
/// a hundred nodes); the bound is for variants where captures do not run
/// out, so that a depth-limited search always ends.
pub const QSEARCH_NODE_BUDGET: u64 = 1 << 12;
/// The capture-search nodes of one leaf are also at most this many divided
/// by the number of root moves (but at least [`QSEARCH_MIN_BUDGET`]), so
/// that depth 1 visits about this many nodes at most, however many moves
/// the root has: on a big board full of long-range pieces the capture
/// searches below a thousand root moves took millions of nodes.
pub const QSEARCH_ROOT_BUDGET: u64 = 1 << 17;
/// The least capture-search budget of one leaf.
pub const QSEARCH_MIN_BUDGET: u64 = 64;

/// The capture-search budget of one leaf when the root has `root_moves` moves.
pub fn qsearch_budget(root_moves: usize) -> u64 {
    (QSEARCH_ROOT_BUDGET / root_moves.max(1) as u64).clamp(QSEARCH_MIN_BUDGET, QSEARCH_NODE_BUDGET)
}

/// What limits a search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration.
    pub depth: Option<i32>,
    /// Stop after about this many nodes (exactly, with one thread).
    pub nodes: Option<u64>,
    /// Do not start a new iteration after this time (scaled by the best
    /// move's stability when `adaptive` is set).
    pub soft: Option<Duration>,
    /// Whether `soft` is scaled after each iteration by
    /// [`timeman::soft_scale`]: longer when the best move changed or the
    /// score fell, shorter when the best move has been stable (a clock's
    /// budget, not a fixed time per move).
    pub adaptive: bool,
    /// Stop at this time.
    pub hard: Option<Duration>,
    /// The number of principal variations to search and report (MultiPV; 0 counts as 1).
    pub multipv: usize,
    /// Search only these root moves (UCI `searchmoves`, XBoard `include`); empty: all.
    pub root_moves: Vec<Move>,
    /// Never play these root moves (XBoard `exclude`, UCCI `banmoves`).
    pub excluded: Vec<Move>,
    /// When the clock started: the arrival of the protocol's `go`, so that
    /// setting up the search threads counts. `None`: when the search starts.
    pub start: Option<Instant>,
}

impl Limits {
    /// The limits of a time budget.
    pub fn with_budget(self, b: Budget) -> Limits {
        Limits { soft: Some(b.soft), hard: Some(b.hard), adaptive: b.adaptive, ..self }
    }

    /// Whether a root move may be searched under `root_moves` and `excluded`.
    pub fn allows(&self, m: Move) -> bool {
        (self.root_moves.is_empty() || self.root_moves.contains(&m)) && !self.excluded.contains(&m)
    }
}

/// What the threads share.
pub struct Shared {
    /// The transposition table.
    pub tt: Arc<Tt>,
    /// Set to stop every thread.
    pub stop: AtomicBool,
    /// Nodes searched by all threads (updated in batches).
    pub nodes: AtomicU64,
    /// Set when the user stops the search (as opposed to the search ending).
    released: AtomicBool,
    /// Set while the engine ponders (UCI `go ponder`): the time limits wait
    /// for `ponderhit`, and the result is held back until then or `stop`.
    pondering: AtomicBool,
    /// Set when the search's result is to be thrown away (XBoard `force`
    /// while thinking).
    abandoned: AtomicBool,
    /// What the main thread learnt, for the game's next search.
    memory: Arc<GameMemory>,
}

/// What the main search thread learnt that still holds for the next search
/// of the same game: the quiet moves' history, the evaluation cache and the
/// pawn-structure cache. Kept only while the evaluation's tables are the
/// same ones (the same variant and weights).
struct SearchMemory {
    ev: Arc<EvalTables>,
    history: Vec<i32>,
    eval_cache: Vec<[u64; 2]>,
    pawns: PawnCache,
}

/// The search memory one game carries from move to move (see
/// [`Shared::with_memory`]); empty until a search ends, emptied by
/// [`GameMemory::clear`] at a new game.
#[derive(Default)]
pub struct GameMemory(Mutex<Option<SearchMemory>>);

impl GameMemory {
    /// Forgets what the searches learnt.
    pub fn clear(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The memory for a search with `ev`, if there is one for those tables.
    fn take(&self, ev: &Arc<EvalTables>) -> Option<SearchMemory> {
        let m = self.0.lock().unwrap_or_else(|e| e.into_inner()).take()?;
        Arc::ptr_eq(&m.ev, ev).then_some(m)
    }

    fn put(&self, m: SearchMemory) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(m);
    }
}

impl Shared {
    /// Shared state around a table; nothing is learnt for a next search.
    pub fn new(tt: Arc<Tt>) -> Shared {
        Shared::with_memory(tt, Arc::new(GameMemory::default()))
    }

    /// Shared state around a table, with the game's search memory: the
    /// search starts from what the last one with the same evaluation tables
    /// learnt (its history of quiet moves and its evaluation caches) and
    /// leaves what it learns there.
    pub fn with_memory(tt: Arc<Tt>, memory: Arc<GameMemory>) -> Shared {
        Shared {
            memory,
            tt,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            released: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            abandoned: AtomicBool::new(false),
        }
    }

    /// Stops the search and marks its result as not wanted.
    pub fn abandon(&self) {
        self.abandoned.store(true, Ordering::Relaxed);
        self.release();
    }

    /// Whether the search's result is not wanted.
    pub fn abandoned(&self) -> bool {
        self.abandoned.load(Ordering::Relaxed)
    }

    /// Marks the search as pondering (before it starts) or not (`ponderhit`):
    /// from then on its time limits apply, counted from the start of the search.
    pub fn set_pondering(&self, on: bool) {
        self.pondering.store(on, Ordering::Relaxed);
    }

    /// Whether the engine is pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Stops the search at the user's request.
    pub fn release(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.released.store(true, Ordering::Relaxed);
    }

    /// Whether the user has stopped the search.
    pub fn released(&self) -> bool {
        self.released.load(Ordering::Relaxed)
    }
}

/// One iteration's report.
#[derive(Clone, Debug)]
pub struct Report {
    /// The depth completed.
    pub depth: i32,
    /// Which principal variation this is (1 for the best; MultiPV).
    pub multipv: usize,
    /// The deepest ply reached.
    pub seldepth: usize,
    /// The score, from the side to move's view.
    pub score: i32,
    /// Nodes so far (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Permille of the table used.
    pub hashfull: u32,
}

impl Report {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// A score as a protocol shows it: centipawns, or moves to mate (negative
/// when the side to move is mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves.
    Mate(i32),
}

impl Score {
    /// Classifies an internal score.
    pub fn of(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play (`None` when there is no legal move).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: i32,
    /// The last depth completed.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

/// The number of entries of a searcher's evaluation cache (a power of two).
const EVAL_CACHE_SIZE: usize = 1 << 16;

/// One entry of the evaluation cache: a position's key, its static
/// evaluation and whether the side to move is in check there. Stored as two
/// words (key; score in the low half and check code above it) so that the
/// cache is allocated zeroed: its pages are only touched once used, and a
/// helper thread costs no megabyte of writes before it starts searching.
#[derive(Clone, Copy)]
struct EvalEntry([u64; 2]);

impl EvalEntry {
    #[inline(always)]
    fn new(key: u64, score: i32, check: u8) -> EvalEntry {
        EvalEntry([key, score as u32 as u64 | (check as u64) << 32])
    }
    #[inline(always)]
    fn key(self) -> u64 {
        self.0[0]
    }
    #[inline(always)]
    fn score(self) -> i32 {
        self.0[1] as u32 as i32
    }
    /// [`CHECK_UNKNOWN`], [`CHECK_NO`] or [`CHECK_YES`]; 0: the entry is empty.
    #[inline(always)]
    fn check(self) -> u8 {
        (self.0[1] >> 32) as u8
    }
}

/// [`EvalEntry::check`]: the evaluation is known, the check status is not.
const CHECK_UNKNOWN: u8 = 1;
/// [`EvalEntry::check`]: the side to move is not in check.
const CHECK_NO: u8 = 2;
/// [`EvalEntry::check`]: the side to move is in check.
const CHECK_YES: u8 = 3;

/// The [`EvalEntry::check`] value of a check status.
#[inline]
fn check_code(in_check: Option<bool>) -> u8 {
    match in_check {
        None => CHECK_UNKNOWN,
        Some(false) => CHECK_NO,
        Some(true) => CHECK_YES,
    }
}

/// Per-ply data, allocated once.
struct Frame {
    moves: Vec<(Move, i32)>,
    killers: [Move; 2],
    /// The move that led to this node.
    last: Option<Move>,
}

/// One search thread.
pub struct Searcher {
    pos: Position,
    ev: Arc<EvalTables>,
    rules: GameRules,
    shared: Arc<Shared>,
    scratch: MoveList,
    legal: MoveList,
    info: CheckInfo,
    frames: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The game's positions before the root that repetitions can reach
    /// (those since the last irreversible move), shared by all threads.
    base: Arc<[HistEntry]>,
    /// The root and the searched line; position `i` of the game is
    /// `base[i]` below `base.len()`, `hist[i - base.len()]` from there.
    hist: Vec<HistEntry>,
    history: Vec<i32>,
    /// Chu Shogi's rule: a repetition loses for the side that made it.
    repeater_loses: bool,
    /// Per colour: the codes of its royal pieces (the side to move's royal
    /// pieces are counted from the position's piece counts).
    royal_codes: [Vec<Code>; 2],
    nsq: usize,
    lmr: Vec<[u8; 64]>,
    /// Static evaluations by position key (direct-mapped, [`EVAL_CACHE_SIZE`]
    /// entries): the evaluation depends only on what the key covers (the
    /// board, the hands, the side to move), so a position met again (a
    /// transposition, the same capture sequence in another order) is not
    /// evaluated again.
    eval_cache: Vec<[u64; 2]>,
    /// The evaluation's sums over the pieces ([`PieceSums`]) of the root and
    /// of each position of the searched line, kept move by move: entry
    /// `sum_top` is the current position's.
    sums: Vec<PieceSums>,
    /// The current position's entry in `sums`.
    sum_top: usize,
    /// The pawn-structure terms of the pawn configurations met.
    pawns: PawnCache,
    nodes: u64,
    unreported: u64,
    /// The node count at which the current quiescence search stands pat.
    qsearch_end: u64,
    /// The capture-search budget of one leaf ([`qsearch_budget`]).
    qsearch_budget: u64,
    /// A root move of the current iteration has been searched to the end.
    root_done: bool,
    seldepth: usize,
    main: bool,
    limits: Limits,
    start: Instant,
    stopped: bool,
    /// Node limits may interrupt the search (false until the first root
    /// move of depth 1 is searched, so that a tiny node limit still gives a
    /// searched move). A `stop` and the hard time limit interrupt it at any
    /// time: if no root move of depth 1 is done by then (Clobber, where
    /// every move captures) the first legal move is played.
    interruptible: bool,
    /// Root moves not to search in this pass: the user's exclusions and the
    /// earlier principal variations of this iteration (MultiPV).
    root_skip: Vec<Move>,
    /// Whether the root is restricted (`root_skip` or `limits.root_moves`).
    root_restricted: bool,
}

const NONE: Move = Move(0);

impl Searcher {
    /// A searcher for `pos`. `history` is the game up to `pos` as far as
    /// repetitions reach (shared, not copied); `start` is when the clock started.
    pub fn new(
        pos: Position,
        history: &SearchHistory,
        ev: Arc<EvalTables>,
        shared: Arc<Shared>,
        main: bool,
        limits: Limits,
        start: Instant,
    ) -> Searcher {
        let rules = GameRules::new(pos.variant());
        let nsq = pos.geometry().squares();
        let ncodes = 2 * pos.variant().def.pieces.len() + 2;
        let repeater_loses =
            chimera::outcome::RepetitionRule::of(pos.variant()) == chimera::outcome::RepetitionRule::RepeaterLoses;
        let royal = &pos.variant().royal;
        let royal_codes = [Color::White, Color::Black].map(|c| {
            (2..ncodes)
                .map(Code::new)
                .filter(|&code| code.color() == c && royal.get(code.index()) == Some(&true))
                .collect()
        });
        let mut h = Vec::with_capacity(MAX_PLY + 3);
        h.push(history.root);
        let sums = vec![ev.piece_sums(&pos); MAX_PLY + 2];
        let kept = if main { shared.memory.take(&ev).filter(|m| m.history.len() == ncodes * nsq) } else { None };
        let (quiet_history, eval_cache, pawns) = match kept {
            Some(m) => (m.history, m.eval_cache, m.pawns),
            None => (vec![0; ncodes * nsq], vec![[0; 2]; EVAL_CACHE_SIZE], PawnCache::default()),
        };
        let lmr = (0..=MAX_PLY)
            .map(|d| {
                let mut row = [0u8; 64];
                for (i, r) in row.iter_mut().enumerate() {
                    if d > 0 && i > 0 {
                        *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.2) as u8;
                    }
                }
                row
            })
            .collect();
        Searcher {
            pos,
            ev,
            rules,
            shared,
            scratch: MoveList::new(),
            legal: MoveList::new(),
            info: CheckInfo::new(),
            frames: (0..=MAX_PLY + 1)
                .map(|_| Frame { moves: Vec::with_capacity(256), killers: [NONE; 2], last: None })
                .collect(),
            pv: vec![[NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            base: history.before.clone(),
            hist: h,
            history: quiet_history,
            repeater_loses,
            royal_codes,
            nsq,
            lmr,
            eval_cache,
            sums,
            pawns,
            sum_top: 0,
            nodes: 0,
            unreported: 0,
            qsearch_end: 0,
            qsearch_budget: QSEARCH_NODE_BUDGET,
            root_done: false,
            seldepth: 0,
            main,
            limits,
            start,
            stopped: false,
            interruptible: false,
            root_skip: Vec::new(),
            root_restricted: false,
        }
    }

    /// Leaves the history and the evaluation caches in the game's memory
    /// for its next search.
    fn keep_memory(self) {
        let Searcher { ev, history, eval_cache, pawns, shared, .. } = self;
        shared.memory.put(SearchMemory { ev, history, eval_cache, pawns });
    }

    /// The static evaluation of the current position, from the cache when
    /// the position's key is there; `in_check` (when known) is recorded with it.
    #[inline]
    fn evaluate(&mut self, in_check: Option<bool>) -> i32 {
        let (key, slot, e) = self.eval_slot();
        if e.check() != 0 && e.key() == key {
            if in_check.is_some() {
                self.eval_cache[slot] = EvalEntry::new(key, e.score(), check_code(in_check)).0;
            }
            return e.score();
        }
        let sums = &self.sums[self.sum_top];
        debug_assert_eq!(*sums, self.ev.piece_sums(&self.pos), "the sums kept move by move");
        let score = self.ev.evaluate_cached(&self.pos, sums, &mut self.pawns);
        debug_assert_eq!(score, self.ev.evaluate_with(&self.pos, sums), "the pawn terms cached");
        self.eval_cache[slot] = EvalEntry::new(key, score, check_code(in_check)).0;
        score
    }

    /// The current position's key, its slot in the evaluation cache and
    /// the entry there (which may hold another position).
    #[inline(always)]
    fn eval_slot(&self) -> (u64, usize, EvalEntry) {
        let key = self.pos.hash();
        let slot = key as usize & (EVAL_CACHE_SIZE - 1);
        (key, slot, EvalEntry(self.eval_cache[slot]))
    }

    /// Whether the static evaluation of the current position is cached.
    #[inline]
    fn eval_known(&self) -> bool {
        let (key, _, e) = self.eval_slot();
        e.check() != 0 && e.key() == key
    }

    /// The cached static evaluation of the current position and whether
    /// the side to move is in check there, when both are known.
    #[inline]
    fn cached_eval(&self) -> Option<(i32, bool)> {
        let (key, _, e) = self.eval_slot();
        (e.key() == key && e.check() >= CHECK_NO).then_some((e.score(), e.check() == CHECK_YES))
    }

    /// Whether a root move is left out of the current pass.
    #[inline]
    fn skipped_at_root(&self, m: Move) -> bool {
        self.root_skip.contains(&m) || !(self.limits.root_moves.is_empty() || self.limits.root_moves.contains(&m))
    }

    /// Nodes searched by this thread.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Counts a node; checks the limits. Returns true if the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        self.unreported += 1;
        if let Some(n) = self.limits.nodes {
            if self.main
                && (self.interruptible || self.root_done)
                && self.shared.nodes.load(Ordering::Relaxed) + self.unreported >= n
            {
                self.stopped = true;
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        // at every node: where move generation is slow, a thousand nodes
        // can take a long time
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.unreported >= 1024 {
            self.shared.nodes.fetch_add(self.unreported, Ordering::Relaxed);
            self.unreported = 0;
        }
        // the clock every 256 nodes (reading it costs far less than a node)
        if self.main && self.nodes & 255 == 0 {
            if let (Some(h), false) = (self.limits.hard, self.shared.pondering()) {
                if self.start.elapsed() >= h {
                    self.stopped = true;
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.stopped
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
    }

    /// Whether the side to move is in check, without the check data: the
    /// core's own test (walks from the royal pieces' box), which
    /// [`Searcher::stm_in_check`] also falls back on; a side without a
    /// royal piece is never in check.
    fn in_check_by_walks(&mut self) -> bool {
        let us = self.pos.side_to_move();
        self.royal_codes[us.index()].iter().any(|&c| self.pos.count(c) != 0) && self.pos.in_check()
    }

    /// Whether the side to move is in check, after a generation that ran
    /// the check test. The check data answers for a single royal piece,
    /// unless the royals face each other (bikjang) or the variant burns
    /// (the check data then leaves the royal's safety to the core's check
    /// test, and its own flag says nothing).
    fn stm_in_check(&mut self) -> bool {
        let us = self.pos.side_to_move();
        let n: u32 = self.royal_codes[us.index()].iter().map(|&c| self.pos.count(c) as u32).sum();
        match n {
            0 => false,
            1 if !(self.pos.variant().burners || self.rules.bikjang && self.pos.royals_face(us)) => {
                self.info.in_check()
            }
            _ => self.pos.in_check(),
        }
    }

    /// The score of a game that ended by a rule (extinction, flag, passes, bikjang), if it has.
    fn rule_end(&mut self, ply: usize) -> Option<i32> {
        if !self.rules.has_rule_end || !self.pos.ended_by_rule() {
            return None;
        }
        let us = self.pos.side_to_move();
        let draw = self.draw(ply);
        let decided = |r: StalemateResult| match r {
            StalemateResult::Draw => draw,
            StalemateResult::Loss => -MATE + ply as i32,
            StalemateResult::Win => MATE - ply as i32,
        };
        if let Some(c) = self.pos.extinct_side() {
            let r = self.pos.variant().def.rules.extinction.as_ref().map_or(StalemateResult::Loss, |e| e.result);
            let s = decided(r);
            return Some(if c == us { s } else { -s });
        }
        if self.pos.flag_reached() {
            return Some(-MATE + ply as i32);
        }
        // check counting: the side that has given its checks has won
        if let Some(c) = self.pos.checks_given() {
            return Some(if c == us { MATE - ply as i32 } else { -MATE + ply as i32 });
        }
        // two passes in a row or bikjang: the point count decides (Janggi), else a draw
        Some(match self.pos.point_count_winner() {
            Some(c) if c == us => MATE - ply as i32,
            Some(_) => -MATE + ply as i32,
            None => draw,
        })
    }

    /// The score when the side to move has no legal move.
    fn no_moves(&self, in_check: bool, ply: usize) -> i32 {
        if in_check {
            let banned_drop = self.frames[ply]
                .last
                .is_some_and(|m| m.kind() == MoveKind::Drop && self.rules.no_drop_mate >> type_of(m.code()) & 1 != 0);
            if banned_drop {
                return MATE - ply as i32;
            }
        }
        match if in_check { self.rules.checkmate } else { self.rules.stalemate } {
            StalemateResult::Draw => self.draw(ply),
            StalemateResult::Loss => -MATE + ply as i32,
            StalemateResult::Win => MATE - ply as i32,
        }
    }

    /// The score of a drawn game for the side to move: 0, or under draw odds
    /// (armageddon) a win by rule for the side that has them.
    #[inline]
    fn draw(&self, ply: usize) -> i32 {
        match self.rules.draw_odds {
            None => 0,
            Some(c) if c == self.pos.side_to_move() => RULE_WIN - ply as i32,
            Some(_) => -RULE_WIN + ply as i32,
        }
    }

    /// A draw or rule result by repetition or the n-move rule, if any.
    fn repetition(&mut self, ply: usize) -> Option<i32> {
        if self.pos.counting().is_some_and(|(limit, counted)| counted > limit) {
            return Some(self.draw(ply)); // the count has run out: a draw
        }
        let root_index = self.base.len();
        let n = root_index + self.hist.len() - 1;
        let cur = self.hist[self.hist.len() - 1];
        if let Some(k) = self.rules.n_move_plies {
            if cur.rev >= k {
                // by points where the variant counts them (Janggi), as a repetition is
                return Some(self.repetition_score(ply));
            }
        }
        let lowest = n.saturating_sub(cur.rev as usize);
        if self.repeater_loses {
            return self.repeater_loses_score(n, lowest, cur.hash, ply);
        }
        let mut i = n;
        let mut seen = 0u8;
        let mut found = None;
        while i >= lowest + 2 {
            i -= 2;
            if self.entry(i).hash == cur.hash {
                if i >= root_index {
                    found = Some(i);
                    break;
                }
                seen += 1;
                if seen >= self.rules.pre_root_repeats {
                    found = Some(i);
                    break;
                }
            }
        }
        let i = found?;
        if !self.rules.perpetual_check_loses {
            return Some(self.repeated_score(ply));
        }
        let me_checked = self.pos.in_check() && (i..n).step_by(2).all(|j| self.entry(j).in_check);
        let they_checked = (i + 1..n).step_by(2).all(|j| self.entry(j).in_check);
        Some(match (me_checked, they_checked) {
            (true, false) => RULE_WIN - ply as i32,
            (false, true) => -RULE_WIN + ply as i32,
            _ => self.repeated_score(ply),
        })
    }

    /// The score of a repetition that perpetual check does not decide: a
    /// win by rule for the variant's `repetition_winner` if it names one
    /// (Minishogi: Black), else [`Self::repetition_score`].
    fn repeated_score(&self, ply: usize) -> i32 {
        match self.rules.repetition_winner {
            Some(c) if c == self.pos.side_to_move() => RULE_WIN - ply as i32,
            Some(_) => -RULE_WIN + ply as i32,
            None => self.repetition_score(ply),
        }
    }

    /// Chu Shogi's repetition rule ([`chimera::chu_repetition`]), as the
    /// game's end applies it: the first return of a position with the same
    /// side to move (`cur`, position `n` of the game; positions from
    /// `lowest` on are reversible) ends the game, lost for the side that
    /// made the move, unless that side was in check before it. A repetition
    /// out of check is not an end; the search scores it as a draw (the
    /// cycle brings nothing).
    fn repeater_loses_score(&self, n: usize, lowest: usize, cur: u64, ply: usize) -> Option<i32> {
        let mut i = n;
        while i >= lowest + 2 {
            i -= 2;
            if self.entry(i).hash == cur {
                let mover_was_in_check = self.entry(n - 1).in_check;
                return Some(if mover_was_in_check { self.draw(ply) } else { RULE_WIN - ply as i32 });
            }
        }
        None
    }

    /// The score of a repetition that perpetual check does not decide, and
    /// of the n-move rule's end, as the game's end scores them
    /// ([`chimera::outcome::repetition_end`]): a draw, or where the variant
    /// counts points (Janggi) a win by rule for the side ahead. The count is taken only here, at the rare repetition node.
    fn repetition_score(&self, ply: usize) -> i32 {
        if !self.rules.repetition_by_points {
            return self.draw(ply);
        }
        match self.pos.point_count_winner() {
            Some(c) if c == self.pos.side_to_move() => RULE_WIN - ply as i32,
            Some(_) => -RULE_WIN + ply as i32,
            None => self.draw(ply),
        }
    }

    /// Position `i` of the game (see [`Searcher::hist`]).
    #[inline]
    fn entry(&self, i: usize) -> HistEntry {
        match i.checked_sub(self.base.len()) {
            Some(j) => self.hist[j],
            None => self.base[i],
        }
    }

    /// Orders the moves of `frames[ply]`: the table move, captures by MVV/LVA,
    /// promotions, killers, then quiet moves by history.
    fn fill_moves(&mut self, ply: usize, tt_move: Option<Move>, captures_only: bool) {
        let mut moves = std::mem::take(&mut self.frames[ply].moves);
        moves.clear();
        let killers = self.frames[ply].killers;
        for &m in self.legal.captures() {
            let victim = self.captured_value(m);
            let attacker = self.ev.value(self.pos.piece_at(m.from()));
            let mut s = 1_000_000 + victim * 16 - attacker / 8;
            if m.kind() == MoveKind::Promotion {
                s += self.ev.value(m.code());
            }
            moves.push((m, s));
        }
        for &m in self.legal.quiets() {
            let s = if m.kind() == MoveKind::Promotion {
                900_000 + self.ev.value(m.code())
            } else if m.kind() == MoveKind::Locust {
                // a capture on the way to an empty square (the Lion's hit and run)
                let attacker = self.ev.value(self.pos.piece_at(m.from()));
                1_000_000 + self.captured_value(m) * 16 - attacker / 8
            } else if captures_only {
                continue;
            } else if m == killers[0] {
                800_000
            } else if m == killers[1] {
                799_000
            } else {
                self.history[self.hist_index(m)]
            };
            moves.push((m, s));
        }
        if let Some(t) = tt_move {
            if let Some(e) = moves.iter_mut().find(|e| e.0 == t) {
                e.1 = 2_000_000;
            }
        }
        self.frames[ply].moves = moves;
    }

    #[inline]
    fn captured_value(&self, m: Move) -> i32 {
        let mut v = if m.from() != m.to() && !m.is_unload() { self.ev.value(self.pos.piece_at(m.to())) } else { 0 };
        if matches!(m.kind(), MoveKind::EnPassant | MoveKind::Locust) {
            v += self.ev.value(self.pos.piece_at(m.extra()));
        }
        if let Some(sq) = m.second_victim(&self.pos.geometry()) {
            v += self.ev.value(self.pos.piece_at(sq));
        }
        v
    }

    /// A capture or a promotion ([`is_tactical`]).
    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        is_tactical(&self.pos, m)
    }

    #[inline]
    fn hist_index(&self, m: Move) -> usize {
        let code = if m.kind() == MoveKind::Drop { m.code() } else { self.pos.piece_at(m.from()) };
        code.index() * self.nsq + m.to().index()
    }

    /// Picks the best-scored remaining move at or after `i` and swaps it to `i`.
    #[inline]
    fn pick(moves: &mut [(Move, i32)], i: usize) -> (Move, i32) {
        // the first of the best: the best score so far is kept at hand
        let (mut b, mut best) = (i, moves[i].1);
        for (j, e) in moves.iter().enumerate().skip(i + 1) {
            if e.1 > best {
                (b, best) = (j, e.1);
            }
        }
        moves.swap(i, b);
        moves[i]
    }

    fn play(&mut self, m: Move, ply: usize, record: bool) -> chimera::position::Undo {
        let irr = record && irreversible(&self.pos, m);
        // the evaluation's sums, from the squares the move changes
        let footprint = self.pos.footprint(m);
        let mut before = [Code::EMPTY; MAX_FOOTPRINT];
        for (old, &sq) in before.iter_mut().zip(footprint.as_slice()) {
            *old = self.pos.piece_at(sq);
        }
        let undo = self.pos.make(m);
        // the child's evaluation-cache slot, loaded while the sums are updated
        crate::tt::prefetch(self.eval_cache.as_ptr().wrapping_add(self.pos.hash() as usize & (EVAL_CACHE_SIZE - 1)));
        let mut sums = self.sums[self.sum_top];
        for (&old, &sq) in before.iter().zip(footprint.as_slice()) {
            let new = self.pos.piece_at(sq);
            if new != old {
                self.ev.update_sums(&mut sums, sq, old, new);
            }
        }
        self.sum_top += 1;
        self.sums[self.sum_top] = sums;
        self.frames[ply + 1].last = Some(m);
        if record {
            let prev = self.hist.last().map_or(0, |e| e.rev);
            self.hist.push(HistEntry {
                hash: self.pos.hash(),
                in_check: false,
                rev: if irr { 0 } else { prev.saturating_add(1) },
            });
        }
        undo
    }

    fn take_back(&mut self, m: Move, undo: &chimera::position::Undo, record: bool) {
        self.pos.unmake(m, undo);
        self.sum_top -= 1;
        if record {
            self.hist.pop();
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let next = self.pv_len[ply + 1].max(ply + 1);
        for j in ply + 1..next {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = next;
    }

    /// Principal-variation alpha-beta.
    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            self.qsearch_end = self.nodes + self.qsearch_budget;
            return self.qsearch(alpha, beta, ply, 0);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 {
            if let Some(s) = self.rule_end(ply) {
                return s;
            }
            if let Some(s) = self.repetition(ply) {
                return s;
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate(None);
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let hash = self.pos.hash();
        let tt = self.shared.tt.probe(hash);
        let mut tt_move = None;
        if let Some(e) = tt {
            tt_move = e.mv;
            if !pv_node && e.depth >= depth {
                let s = score_from_tt(e.score, ply);
                let cut = match e.bound {
                    BOUND_EXACT => true,
                    BOUND_LOWER => s >= beta,
                    BOUND_UPPER => s <= alpha,
                    _ => false,
                };
                if cut {
                    return s;
                }
            }
        }
        // whether the side is in check, before any move is generated: the
        // pruning below may end the node without them. A position whose
        // evaluation is cached has its check status there too, and its
        // check data waits until the moves are generated.
        let (in_check, mut have_info) = match self.cached_eval() {
            Some((_, checked)) => (checked, false),
            None => {
                self.pos.compute_check_info(&mut self.info);
                (self.stm_in_check(), true)
            }
        };
        if let Some(e) = self.hist.last_mut() {
            e.in_check = in_check;
        }
        if in_check {
            depth += 1;
        }
        let static_eval = if in_check { -INF } else { self.evaluate(Some(false)) };
        // reverse futility pruning (static null move)
        if !pv_node && !in_check && depth <= 3 && beta.abs() < MATE_BOUND && static_eval - 110 * depth >= beta {
            return static_eval;
        }
        // null-move pruning: give the opponent a free move; if a reduced
        // search still fails high, this node would too
        if !pv_node
            && !in_check
            && null_ok
            && self.rules.null_move
            && depth >= 3
            && ply > 0
            && static_eval >= beta
            && beta.abs() < MATE_BOUND
            && self.ev.has_pieces(&self.pos, self.pos.side_to_move())
        {
            let r = 3 + depth / 6 + ((static_eval - beta) / 200).min(2);
            let undo = self.pos.make_null();
            self.frames[ply + 1].last = None;
            self.hist.push(HistEntry { hash: self.pos.hash(), in_check: false, rev: 0 });
            let score = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
            self.hist.pop();
            self.pos.unmake_null(&undo);
            if self.stopped {
                return 0;
            }
            if score >= beta {
                let score = if score >= MATE_BOUND { beta } else { score };
                if depth < 10 {
                    return score;
                }
                // verification at high depth (zugzwang): the same reduced depth without null moves
                let v = self.search(beta - 1, beta, depth - 1 - r, ply, false, false);
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return score;
                }
            }
            // the check data of this ply was overwritten by the searches above
            have_info = false;
        }
        if !have_info {
            self.pos.compute_check_info(&mut self.info);
            debug_assert_eq!(in_check, self.stm_in_check(), "the check status cached with the evaluation");
        }
        self.pos.generate_legal_with_info(&mut self.scratch, &mut self.legal, &self.info);
        if self.legal.is_empty() {
            return self.no_moves(in_check, ply);
        }
        self.fill_moves(ply, tt_move, false);
        let n = self.frames[ply].moves.len();
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0usize;
        let old_alpha = alpha;
        for i in 0..n {
            let (m, _) = Self::pick(&mut self.frames[ply].moves, i);
            if ply == 0 && self.root_restricted && self.skipped_at_root(m) {
                continue;
            }
            let quiet = !self.is_tactical(m);
            if !pv_node
                && !in_check
                && quiet
                && depth <= 3
                && searched >= 3 + 4 * (depth * depth) as usize
                && best > -MATE_BOUND
            {
                // late-move pruning: the moves are ordered captures and
                // promotions first, so every move after this quiet one is
                // quiet and pruned too (`searched` and `best` stay as they are)
                debug_assert!(self.frames[ply].moves[i..].iter().all(|&(q, _)| !self.is_tactical(q)));
                break;
            }
            // the history of a quiet move, read before the move is made (a
            // killer counts as good history)
            let hist = if quiet && (m == self.frames[ply].killers[0] || m == self.frames[ply].killers[1]) {
                HISTORY_GOOD
            } else if quiet {
                self.history[self.hist_index(m)]
            } else {
                0
            };
            let undo = self.play(m, ply, true);
            if depth > 1 {
                // the child probes the table first thing
                self.shared.tt.prefetch(self.pos.hash());
            }
            let mut score;
            if searched == 0 {
                score = -self.search(-beta, -alpha, depth - 1, ply + 1, pv_node, true);
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && searched >= 2 {
                    r = self.lmr[(depth as usize).min(MAX_PLY)][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if hist >= HISTORY_GOOD {
                        r -= 1;
                    } else if hist <= -HISTORY_GOOD {
                        r += 1;
                    }
                    r = r.clamp(0, depth - 2);
                }
                score = -self.search(-alpha - 1, -alpha, depth - 1 - r, ply + 1, false, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, depth - 1, ply + 1, false, true);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.search(-beta, -alpha, depth - 1, ply + 1, true, true);
                }
            }
            self.take_back(m, &undo, true);
            if self.stopped {
                return 0;
            }
            if ply == 0 {
                self.root_done = true;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(ply, m, depth, i);
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // every root move is excluded (otherwise the first move is never pruned)
            return static_eval;
        }
        if ply == 0 && self.root_restricted {
            // a restricted root's result is not the position's: keep it out of the table
            return best;
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else if alpha > old_alpha {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        self.shared.tt.store(hash, best_move, score_to_tt(best, ply), depth, bound);
        best
    }

    /// Killers and history after a quiet move caused a cut-off; the quiet moves
    /// tried before it are penalised.
    fn reward_quiet(&mut self, ply: usize, m: Move, depth: i32, index: usize) {
        let k = &mut self.frames[ply].killers;
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let bonus = (depth * depth).min(400);
        let idx = self.hist_index(m);
        let h = &mut self.history[idx];
        *h += 32 * bonus - *h * bonus / 512;
        for j in 0..index {
            let (q, _) = self.frames[ply].moves[j];
            if q != m && !self.is_tactical(q) {
                let idx = self.hist_index(q);
                let h = &mut self.history[idx];
                *h -= 32 * bonus + *h * bonus / 512;
            }
        }
    }

    /// Quiescence: captures and promotions; all evasions when in check (a few
    /// plies deep). Stands pat once it has used its budget ([`qsearch_budget`]),
    /// and at once (unless in check) in variants where every move captures.
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(s) = self.rule_end(ply) {
            return s;
        }
        if ply >= MAX_PLY - 1 || self.nodes >= self.qsearch_end {
            return self.evaluate(None);
        }
        let us = self.pos.side_to_move();
        let facing = self.rules.bikjang && self.pos.royals_face(us);
        let must_capture = self.pos.variant().def.rules.must_capture;
        let in_check;
        let mut stand_pat = None;
        if facing || must_capture {
            self.pos.generate_legal(&mut self.scratch, &mut self.legal, &mut self.info);
            in_check = self.stm_in_check();
        } else {
            // a position met before, whose check status is known: it stands
            // pat at once when it would below (without the check data)
            if let Some((stand, checked)) = self.cached_eval() {
                if (!checked || qdepth >= 3) && (stand >= beta || !self.rules.quiescence) {
                    return stand;
                }
            }
            // lazy evaluation: far above beta by the material and the
            // tables alone, and not in check, it stands pat without the
            // pieces' walks and without the check data
            if !self.eval_known() {
                let estimate = self.ev.estimate_with(&self.pos, &self.sums[self.sum_top]);
                if estimate - LAZY_MARGIN >= beta && !self.in_check_by_walks() {
                    return estimate;
                }
            }
            self.pos.compute_check_info(&mut self.info);
            in_check = self.stm_in_check();
            // the lazy test above asked the same question without the check data
            debug_assert_eq!(in_check, self.in_check_by_walks());
            if in_check && qdepth < 3 {
                // all evasions
                self.pos.generate_pseudo(&mut self.scratch);
            } else {
                // stand pat before generating anything; then captures only
                // (quiet promotions are left to the main search)
                let stand = self.evaluate(Some(in_check));
                if stand >= beta {
                    return stand;
                }
                if !self.rules.quiescence {
                    // every move captures: no capture is a tactical exception
                    return stand;
                }
                stand_pat = Some(stand);
                self.pos.generate_captures(&mut self.scratch);
            }
            self.legal.clear_with_room(self.scratch.len());
            for &m in self.scratch.captures() {
                if self.pos.is_legal_with(m, &self.info) {
                    self.legal.push_capture(m);
                }
            }
            for &m in self.scratch.quiets().iter().rev() {
                if self.pos.is_legal_with(m, &self.info) {
                    self.legal.push_quiet(m);
                }
            }
        }
        let evasions = in_check && qdepth < 3;
        let mut best;
        if evasions {
            if self.legal.is_empty() {
                return self.no_moves(true, ply);
            }
            best = -INF;
        } else {
            let stand = stand_pat.unwrap_or_else(|| self.evaluate(Some(in_check)));
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        self.fill_moves(ply, None, !evasions);
        let n = self.frames[ply].moves.len();
        for i in 0..n {
            let (m, s) = Self::pick(&mut self.frames[ply].moves, i);
            if !evasions && s >= 1_000_000 && m.kind() != MoveKind::Promotion {
                // delta pruning: even winning the victim cannot reach alpha
                let gain = self.captured_value(m);
                if best + gain + 200 < alpha {
                    continue;
                }
                // a capture that loses material in the exchange is not worth a
                // node; the exchange is only worked out when the capturer is
                // worth more than its victim (otherwise it cannot lose)
                if m.kind() == MoveKind::Normal
                    && m.from() != m.to()
                    && self.ev.value(self.pos.piece_at(m.from())) > gain
                    && !see::see_ge(&mut self.pos, &self.ev, &mut self.scratch, m, 0)
                {
                    continue;
                }
            }
            let undo = self.play(m, ply, false);
            let score = -self.qsearch(-beta, -alpha, ply + 1, qdepth + 1);
            self.take_back(m, &undo, false);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Iterative deepening. The main thread reports each completed iteration
    /// through `report`; helpers (Lazy SMP) search the same tree with an offset
    /// start depth and only fill the shared table.
    pub fn think(&mut self, thread: usize, report: &mut dyn FnMut(&Report)) -> SearchResult {
        let mut result = SearchResult::default();
        // the legal root moves, for a fallback move and the number of lines
        self.pos.generate_legal(&mut self.scratch, &mut self.legal, &mut self.info);
        let allowed: Vec<Move> = self.legal.iter().filter(|&m| self.limits.allows(m)).collect();
        let Some(&first) = allowed.first() else {
            // nothing may be played (no legal move, or all excluded)
            self.flush_nodes();
            return result;
        };
        result.best = Some(first);
        self.qsearch_budget = qsearch_budget(allowed.len());
        let lines = self.limits.multipv.max(1).min(allowed.len());
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as i32 - 2).clamp(1, MAX_PLY as i32 - 2);
        let mut prev = vec![0; lines];
        // the time manager's view: iterations in a row with the same best
        // move, and the score before the last iteration
        let mut stable = 0u32;
        let mut last_best = None;
        let mut last_score = None::<i32>;
        let mut depth = 1 + (thread % 2) as i32;
        'deepen: while depth <= max_depth {
            self.root_skip.clear();
            self.root_skip.extend_from_slice(&self.limits.excluded);
            for (k, prev_k) in prev.iter_mut().enumerate() {
                self.root_restricted = !self.root_skip.is_empty() || !self.limits.root_moves.is_empty();
                self.seldepth = 0;
                self.root_done = false;
                let score = self.aspiration(depth, *prev_k);
                if self.stopped {
                    // an interrupted iteration's result is not used, but for
                    // a first one: there the best root move searched so far
                    // (if any) replaces the fallback, the first legal move
                    if result.depth == 0 && k == 0 && self.pv_len[0] > 0 {
                        result.best = Some(self.pv[0][0]);
                        result.ponder = (self.pv_len[0] > 1).then(|| self.pv[0][1]);
                    }
                    break 'deepen;
                }
                if self.pv_len[0] == 0 {
                    break; // no root move left for this line
                }
                let line_best = self.pv[0][0];
                if k == 0 {
                    result.best = Some(line_best);
                    result.ponder = (self.pv_len[0] > 1).then(|| self.pv[0][1]);
                    result.score = score;
                    result.depth = depth;
                }
                *prev_k = score;
                self.root_skip.push(line_best);
                if self.main {
                    self.flush_nodes();
                    let r = Report {
                        depth,
                        multipv: k + 1,
                        seldepth: self.seldepth.max(depth as usize),
                        score,
                        nodes: self.shared.nodes.load(Ordering::Relaxed),
                        elapsed: self.start.elapsed(),
                        pv: self.pv[0][..self.pv_len[0]].to_vec(),
                        hashfull: self.shared.tt.hashfull(),
                    };
                    report(&r);
                }
                if self.stopped {
                    break 'deepen;
                }
            }
            self.interruptible = true;
            let score = result.score;
            if self.main {
                if last_best == result.best {
                    stable += 1;
                } else {
                    stable = 0;
                }
                let drop = last_score.map_or(0, |s| s - score);
                (last_best, last_score) = (result.best, Some(score));
                if let (Some(soft), false) = (self.limits.soft, self.shared.pondering()) {
                    let soft = match (self.limits.adaptive, self.limits.hard) {
                        (true, Some(hard)) => {
                            Budget { soft, hard, adaptive: true }.scaled_soft(timeman::soft_scale(stable, drop))
                        }
                        _ => soft,
                    };
                    if self.start.elapsed() >= soft {
                        break;
                    }
                }
                if score.abs() >= MATE_BOUND && depth >= 2 * (MATE - score.abs()) + 4 && self.limits.depth.is_none() {
                    // a mate is proven well inside the horizon
                    if self.limits.soft.is_some() || self.limits.nodes.is_some() {
                        break;
                    }
                }
            } else if self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
            depth += 1;
        }
        self.flush_nodes();
        result.nodes = self.shared.nodes.load(Ordering::Relaxed);
        result
    }

    /// One root search of an iteration in an aspiration window around `prev`,
    /// widened until the score falls inside it.
    fn aspiration(&mut self, depth: i32, prev: i32) -> i32 {
        let mut window = 35;
        let (mut alpha, mut beta) = if depth >= 4 { (prev - window, prev + window) } else { (-INF, INF) };
        loop {
            let s = self.search(alpha, beta, depth, 0, true, true);
            if self.stopped {
                return s;
            }
            if s <= alpha {
                alpha = (s - window).max(-INF);
                beta = (alpha + beta) / 2 + window;
                beta = beta.min(INF);
            } else if s >= beta {
                beta = (s + window).min(INF);
            } else {
                return s;
            }
            window *= 2;
            if window > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }
}

/// Whether `m` captures or promotes in `pos`: the moves the capture
/// search plays and the quiet-move heuristics leave out.
#[inline]
pub(crate) fn is_tactical(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::Promotion | MoveKind::EnPassant | MoveKind::Locust => true,
        MoveKind::Drop | MoveKind::Castle | MoveKind::Pass => false,
        _ => m.from() != m.to() && !m.is_unload() && pos.piece_at(m.to()) != Code::EMPTY,
    }
}

#[inline]
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// What the search needs of the game before its root: the root's entry and
/// the positions a repetition can reach, those since the last irreversible
/// move. Built once per search and shared by its threads, so that a long
/// game is not copied once per thread.
#[derive(Clone, Debug)]
pub struct SearchHistory {
    /// The positions before the root, oldest first.
    pub before: Arc<[HistEntry]>,
    /// The root position.
    pub root: HistEntry,
}

impl SearchHistory {
    /// From a game's history `hist`, ending with `pos` (if it does not, the
    /// search starts afresh at `pos`).
    pub fn new(pos: &Position, hist: &[HistEntry]) -> SearchHistory {
        let tail = relevant_history(hist);
        match tail.split_last() {
            Some((&root, before)) if root.hash == pos.hash() => SearchHistory { before: before.into(), root },
            _ => {
                let mut p = pos.clone();
                let root = HistEntry { hash: pos.hash(), in_check: p.in_check(), rev: 0 };
                SearchHistory { before: Arc::from(Vec::new()), root }
            }
        }
    }
}

/// The end of a game's history that repetitions and the n-move rule can
/// reach: the positions since the last irreversible move, the last one included.
pub fn relevant_history(hist: &[HistEntry]) -> &[HistEntry] {
    let keep = hist.last().map_or(0, |e| e.rev as usize + 1).min(hist.len());
    &hist[hist.len() - keep..]
}

/// Runs a search with `threads` threads (Lazy SMP) and returns the main
/// thread's result. `report` receives the main thread's iterations.
pub fn search(
    pos: &Position,
    hist: &[HistEntry],
    ev: &Arc<EvalTables>,
    shared: &Arc<Shared>,
    limits: Limits,
    threads: usize,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    let start = limits.start.unwrap_or_else(Instant::now);
    shared.tt.new_search();
    shared.nodes.store(0, Ordering::Relaxed);
    let history = SearchHistory::new(pos, hist);
    let threads = threads.max(1);
    // the main thread's searcher first: its clock runs from `start` whatever
    // the helpers cost to set up
    let mut main = Searcher::new(pos.clone(), &history, ev.clone(), shared.clone(), true, limits, start);
    if threads == 1 {
        // No thread at all: the only form that runs where threads do not
        // exist (WebAssembly in a browser).
        let r = main.think(0, report);
        shared.stop.store(true, Ordering::Relaxed);
        main.keep_memory();
        return SearchResult { nodes: shared.nodes.load(Ordering::Relaxed), ..r };
    }
    // the helpers start searching once all are there: running helpers
    // would take the processor from the thread that starts the others
    let gate = (std::sync::Mutex::new(false), std::sync::Condvar::new());
    let r = std::thread::scope(|scope| {
        let main_limits = &main.limits;
        let helper_limits = Limits {
            root_moves: main_limits.root_moves.clone(),
            excluded: main_limits.excluded.clone(),
            ..Limits::default()
        };
        let mut helpers = Vec::with_capacity(threads - 1);
        for id in 1..threads {
            // the helpers' searchers are built here, one after the other:
            // built on their own threads they were all set up at once while
            // the main thread searched, and its first iteration took seconds
            // (256 threads on 2 busy cores; most likely its page faults
            // waited behind the helpers' allocations)
            let mut s =
                Searcher::new(pos.clone(), &history, ev.clone(), shared.clone(), false, helper_limits.clone(), start);
            let gate = &gate;
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut open = gate.0.lock().unwrap_or_else(|e| e.into_inner());
                while !*open {
                    open = gate.1.wait(open).unwrap_or_else(|e| e.into_inner());
                }
                drop(open);
                s.think(id, &mut |_| {});
            });
            match spawned {
                Ok(h) => helpers.push(h),
                Err(_) => break, // the system has no more threads: search with those there are
            }
        }
        *gate.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        gate.1.notify_all();
        let r = main.think(0, report);
        shared.stop.store(true, Ordering::Relaxed);
        for h in helpers {
            let _ = h.join();
        }
        SearchResult { nodes: shared.nodes.load(Ordering::Relaxed), ..r }
    });
    main.keep_memory();
    r
}

/// The colour of the side to move, as a sign: 1 for White, -1 for Black.
pub fn side_sign(pos: &Position) -> i32 {
    if pos.side_to_move() == Color::White {
        1
    } else {
        -1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera::builtin;
    use chimera::variant::{Variant, VariantDef};

    fn best(variant: &str, fen: &str, depth: i32) -> (String, Score) {
        let v = Arc::new(builtin::variant(variant).unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let pos = Position::from_fen(v, fen).unwrap();
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(4))));
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        let r = search(&pos, &[], &ev, &shared, limits, 1, &mut |_| {});
        (pos.move_text(r.best.unwrap()), Score::of(r.score))
    }

    #[test]
    fn a_game_s_searches_keep_what_they_learnt_for_the_same_tables() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let pos = Position::from_fen(v.clone(), &v.def.start_fen).unwrap();
        let tt = Arc::new(Tt::new(4));
        let memory = Arc::new(GameMemory::default());
        let go = |ev: &Arc<EvalTables>, threads: usize| {
            let shared = Arc::new(Shared::with_memory(tt.clone(), memory.clone()));
            let limits = Limits { depth: Some(6), ..Limits::default() };
            search(&pos, &[], ev, &shared, limits, threads, &mut |_| {});
        };
        // a search without the game's memory leaves nothing in it
        let shared = Arc::new(Shared::new(tt.clone()));
        search(&pos, &[], &ev, &shared, Limits { depth: Some(3), ..Limits::default() }, 1, &mut |_| {});
        assert!(memory.0.lock().unwrap().is_none());
        for threads in [1, 2] {
            go(&ev, threads);
            let kept = memory.0.lock().unwrap();
            let m = kept.as_ref().expect("the main thread leaves its memory");
            assert!(m.history.iter().any(|&h| h != 0), "quiet moves cut off and left a history");
            assert!(m.eval_cache.iter().any(|e| e[0] != 0), "evaluations were cached");
        }
        // the next search starts from it: the history is the one left
        let before = memory.0.lock().unwrap().as_ref().unwrap().history.clone();
        let taken = memory.take(&ev).expect("same tables");
        assert_eq!(taken.history, before);
        memory.put(taken);
        // other tables (another variant or other weights) do not take it
        let other = Arc::new(EvalTables::new(&v));
        assert!(memory.take(&other).is_none());
        go(&ev, 1);
        memory.clear();
        assert!(memory.0.lock().unwrap().is_none());
    }

    /// Searches `pos` to `depth` with a 60-second hard limit; returns the
    /// depth completed and the nodes searched.
    fn depth_search(pos: &Position, depth: i32) -> (i32, u64) {
        let ev = Arc::new(EvalTables::new(pos.variant()));
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(4))));
        let limits = Limits { depth: Some(depth), hard: Some(Duration::from_secs(60)), ..Limits::default() };
        let r = search(pos, &[], &ev, &shared, limits, 1, &mut |_| {});
        (r.depth, r.nodes)
    }

    /// The largest board of the build (16x15 narrow, 36x36 wide): the
    /// evaluation's square sets (the zones around the royal pieces) cover
    /// every square, so a search there runs and returns a legal move. Black's
    /// king stands on the last square, whose zone bits lie beyond the first
    /// 256.
    #[test]
    fn the_largest_board_of_the_build_is_searched() {
        use chimera::square::{MAX_BOARD_SQUARES, MAX_FILES, MAX_RANKS};
        let files = MAX_FILES as usize;
        let ranks = (MAX_BOARD_SQUARES / files).min(MAX_RANKS as usize);
        let row = |cells: &str| {
            let rest = files - cells.len();
            if rest == 0 {
                cells.to_string()
            } else {
                format!("{cells}{rest}")
            }
        };
        let mut rows = vec![format!("{}k", files - 1), row("rnq")];
        rows.extend((0..ranks - 4).map(|_| files.to_string()));
        rows.push(row("PPPP"));
        rows.push(row("KNQR"));
        let src = format!(
            "name = \"largest\"\nfiles = {files}\nranks = {ranks}\nstart_fen = \"{} w - - 0 1\"\n\
             [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\
             [[piece]]\nname = \"queen\"\nletter = \"q\"\nbetza = \"Q\"\n\
             [[piece]]\nname = \"rook\"\nletter = \"r\"\nbetza = \"R\"\n\
             [[piece]]\nname = \"knight\"\nletter = \"n\"\nbetza = \"N\"\n\
             [[piece]]\nname = \"pawn\"\nletter = \"p\"\nbetza = \"fmWfcF\"\n",
            rows.join("/")
        );
        let v = Arc::new(Variant::new(VariantDef::from_toml(&src, "largest.toml").unwrap()).unwrap());
        assert_eq!(v.geometry().squares(), files * ranks);
        let mut pos = Position::start(v);
        let ev = Arc::new(EvalTables::new(pos.variant()));
        // every piece's terms are read, Black's king zone at the board's far end
        let score = ev.evaluate(&pos);
        assert!(score.abs() < 30_000, "{score}");
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(4))));
        let limits = Limits { depth: Some(2), hard: Some(Duration::from_secs(60)), ..Limits::default() };
        let r = search(&pos, &[], &ev, &shared, limits, 1, &mut |_| {});
        let best = r.best.expect("a best move");
        assert!(pos.legal_moves().contains(&best), "{}", pos.move_text(best));
    }

    /// Finding 21 of docs/reliability.md: in Clobber every move captures, and
    /// a capture search below depth 1 was the rest of the game (a depth-only
    /// search never ended). There the search now stands pat at its leaves.
    #[test]
    fn depth_searches_end_where_every_move_captures() {
        for name in ["clobber", "clobber10"] {
            let v = Arc::new(builtin::variant(name).unwrap());
            let pos = Position::start(v);
            let (depth, nodes) = depth_search(&pos, 3);
            assert_eq!(depth, 3, "{name}");
            // depth 3 is a few hundred nodes per root move, not a game tree
            assert!(nodes < 200 * pos.clone().legal_moves().len() as u64, "{name}: {nodes} nodes");
        }
    }

    /// The quiescence budget: a variant where captures do not run out but
    /// some piece has quiet moves (so the capture search is kept) still ends
    /// depth 1 within about [`QSEARCH_NODE_BUDGET`] nodes per root move.
    #[test]
    fn a_capture_search_stands_pat_after_its_node_budget() {
        let src = "name = \"clobberwalker\"\nfiles = 5\nranks = 6\n\
                   start_fen = \"WpPpP/pPpPp/PpPpP/pPpPp/PpPpP/pPpPw w 0 1\"\n\
                   [rules]\nstalemate = \"loss\"\n\
                   [[piece]]\nname = \"stone\"\nletter = \"p\"\nbetza = \"cW\"\n\
                   [[piece]]\nname = \"walker\"\nletter = \"w\"\nbetza = \"W\"\n";
        let v = Arc::new(Variant::new(VariantDef::from_toml(src, "test").unwrap()).unwrap());
        assert!(GameRules::new(&v).quiescence);
        let pos = Position::start(v);
        let roots = pos.clone().legal_moves().len() as u64;
        let (depth, nodes) = depth_search(&pos, 1);
        assert_eq!(depth, 1);
        assert!(nodes <= roots * (QSEARCH_NODE_BUDGET + 64), "{nodes} nodes for {roots} root moves");
    }

    /// 62 amazons (queen + knight) on 16x15: about a thousand root moves,
    /// and capture sequences that do not end. Depth 1 visited 1.7 million
    /// nodes, and a node limit could not interrupt it; now depth 1 stays
    /// near [`QSEARCH_ROOT_BUDGET`] nodes and `nodes 100` ends after the
    /// first root move.
    #[test]
    fn depth_one_and_node_limits_are_bounded_on_a_board_of_amazons() {
        let src = include_str!("../../../tests/data/amazonswarm.toml");
        let v = Arc::new(Variant::new(VariantDef::from_toml(src, "test").unwrap()).unwrap());
        let pos = Position::start(v);
        let (depth, nodes) = depth_search(&pos, 1);
        assert_eq!(depth, 1);
        assert!(nodes < 400_000, "depth 1: {nodes} nodes");
        let ev = Arc::new(EvalTables::new(pos.variant()));
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(4))));
        let limits = Limits { nodes: Some(100), ..Limits::default() };
        let r = search(&pos, &[], &ev, &shared, limits, 1, &mut |_| {});
        assert!(r.nodes < 20_000, "nodes 100: {} nodes", r.nodes);
        assert!(r.best.is_some());
    }

    /// The search keeps only the positions a repetition can reach, shared
    /// by its threads: a long game is not copied per thread.
    #[test]
    fn the_search_history_is_the_part_since_the_last_irreversible_move() {
        let e = |hash, rev| HistEntry { hash, in_check: false, rev };
        let hist: Vec<HistEntry> = (0..1000).map(|i| e(i, 0)).chain((1..=6).map(|i| e(2000 + i, i as u16))).collect();
        assert_eq!(relevant_history(&hist), &hist[999..]);
        assert!(relevant_history(&[]).is_empty());
        let v = Arc::new(builtin::variant("chess").unwrap());
        let mut pos = Position::start(v.clone());
        let mut hist = vec![e(pos.hash(), 0)];
        for _ in 0..250 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                let mv = pos.parse_move(m).unwrap();
                pos.make(mv);
                let rev = hist.last().unwrap().rev + 1;
                hist.push(e(pos.hash(), rev));
            }
        }
        // knight moves only: every position since the start counts
        let h = SearchHistory::new(&pos, &hist);
        assert_eq!((h.before.len(), h.root), (1000, hist[1000]));
        let mv = pos.parse_move("e2e4").unwrap();
        pos.make(mv);
        hist.push(e(pos.hash(), 0));
        let h = SearchHistory::new(&pos, &hist);
        assert_eq!(h.before.len(), 0);
        // a history that does not end with the position: the search starts afresh
        let other = Position::start(v);
        let h = SearchHistory::new(&other, &hist);
        assert_eq!((h.before.len(), h.root.hash, h.root.rev), (0, other.hash(), 0));
    }

    #[test]
    fn chess_mate_in_one_and_two() {
        assert_eq!(best("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 4), ("a1a8".into(), Score::Mate(1)));
        let (m, s) = best("chess", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 5);
        assert_eq!((m.as_str(), s), ("d5f6", Score::Mate(2)));
    }

    /// In misère chess the mated side wins: the back-rank mate in one that
    /// orthodox chess plays (`chess_mate_in_one_and_two`) is avoided.
    #[test]
    fn misere_avoids_giving_mate() {
        let (m, s) = best("misere", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3);
        assert_ne!(m, "a1a8");
        assert!(!matches!(s, Score::Mate(n) if n > 0), "{m} {s:?}");
    }

    #[test]
    fn three_check_third_check_wins() {
        // White has one check left to give: any check wins at once (Qxf7+ or Bb5+...)
        let fen = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 1+3 0 3";
        let (m, s) = best("3check", fen, 3);
        assert_eq!(s, Score::Mate(1), "{m}");
        let v = Arc::new(builtin::variant("3check").unwrap());
        let mut p = Position::from_fen(v, fen).unwrap();
        let mv = p.parse_move(&m).unwrap();
        p.make(mv);
        assert_eq!(p.checks_given(), Some(Color::White), "{m}");
    }

    #[test]
    fn xiangqi_mate_in_one() {
        let (m, s) = best("xiangqi", "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1", 3);
        assert_eq!(s, Score::Mate(1), "{m}");
        assert!(m == "a1d1" || m == "b9b10" || m == "a1a10", "{m}");
    }

    /// A variant with a burning piece (Tenjiku Shogi's Fire Demon), where
    /// the check data leaves the royal's safety to the reference test: the
    /// search still knows when a side is in check. Mate in one at depth 1,
    /// which the capture search finds only by seeing that Black, in check,
    /// cannot stand pat: g7h8, the gold guarded by the pawn on h7.
    #[test]
    fn check_is_seen_in_a_variant_with_burning() {
        let toml = "name = \"burners\"\nfiles = 9\nranks = 9\nstart_fen = \"4k4/9/9/9/9/9/9/9/4K4 w - - 0 1\"\n\n\
             [[piece]]\nname = \"king\"\nletter = \"k\"\nbetza = \"K\"\nroyal = true\n\n\
             [[piece]]\nname = \"fire demon\"\nletter = \"f\"\nbetza = \"BvR\"\nburns = true\n\n\
             [[piece]]\nname = \"gold\"\nletter = \"g\"\nbetza = \"WfF\"\n\n\
             [[piece]]\nname = \"pawn\"\nletter = \"p\"\nbetza = \"fW\"\n";
        let v = Arc::new(Variant::from_toml(toml, "burners.toml").unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let pos = Position::from_fen(v, "8k/9/6GP1/9/9/9/9/9/K8 w - - 0 1").unwrap();
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(4))));
        let limits = Limits { depth: Some(1), ..Limits::default() };
        let r = search(&pos, &[], &ev, &shared, limits, 1, &mut |_| {});
        assert_eq!((pos.move_text(r.best.unwrap()), Score::of(r.score)), ("g7h8".into(), Score::Mate(1)));
    }

    #[test]
    fn shogi_mate_by_a_drop() {
        assert_eq!(best("shogi", "4k4/9/4P4/9/9/9/9/9/4K4[G] w - - 0 1", 3), ("G@e8".into(), Score::Mate(1)));
    }

    #[test]
    fn shogi_pawn_drop_mate_is_avoided() {
        // P@e8 would mate, but a mating pawn drop loses: the gold drop mates instead
        let fen = "3lkl3/3s1s3/4P4/9/9/9/9/9/4K4[PG] w - - 0 1";
        assert_eq!(best("shogi", fen, 3), ("G@e8".into(), Score::Mate(1)));
        // with only the pawn in hand, the drop is not played
        let (m, _) = best("shogi", "3lkl3/3s1s3/4P4/9/9/9/9/9/4K4[P] w - - 0 1", 3);
        assert_ne!(m, "P@e8");
    }

    #[test]
    fn stalemate_has_no_move() {
        // Black to move is stalemated
        let (v, ev) = {
            let v = Arc::new(builtin::variant("chess").unwrap());
            let ev = Arc::new(EvalTables::new(&v));
            (v, ev)
        };
        let pos = Position::from_fen(v.clone(), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(1))));
        let r = search(&pos, &[], &ev, &shared, Limits { depth: Some(2), ..Limits::default() }, 1, &mut |_| {});
        assert!(r.best.is_none());
    }

    #[test]
    fn node_limit_is_exact_with_one_thread() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let pos = Position::start(v);
        let run = || {
            let shared = Arc::new(Shared::new(Arc::new(Tt::new(1))));
            search(&pos, &[], &ev, &shared, Limits { nodes: Some(5000), ..Limits::default() }, 1, &mut |_| {})
        };
        let (a, b) = (run(), run());
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.best, b.best);
        assert!(a.nodes >= 5000 && a.nodes < 5000 + 200, "{}", a.nodes);
    }

    #[test]
    fn threads_find_the_same_mate() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let pos = Position::from_fen(v, "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1").unwrap();
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(4))));
        let r = search(&pos, &[], &ev, &shared, Limits { depth: Some(5), ..Limits::default() }, 3, &mut |_| {});
        assert_eq!(Score::of(r.score), Score::Mate(2));
    }

    #[test]
    fn repetition_in_the_search_is_a_draw() {
        // White is a rook down but can check forever with the queen
        let v = Arc::new(builtin::variant("chess").unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let pos = Position::from_fen(v, "5rk1/5p1p/8/8/8/qr6/3Q1PPP/6K1 w - - 0 1").unwrap();
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(4))));
        let r = search(&pos, &[], &ev, &shared, Limits { depth: Some(7), ..Limits::default() }, 1, &mut |_| {});
        assert_eq!(r.score, 0, "perpetual check draws: {}", pos.move_text(r.best.unwrap()));
    }

    /// Plays `moves` from `fen` and searches the position reached, with the
    /// game's history, to `depth`: the best move and the score.
    fn best_after(variant: &str, fen: &str, moves: &[&str], depth: i32) -> (String, i32) {
        let v = Arc::new(builtin::variant(variant).unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let mut pos = Position::from_fen(v, fen).unwrap();
        let mut hist = vec![HistEntry { hash: pos.hash(), in_check: pos.in_check(), rev: 0 }];
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            let rev = if irreversible(&pos, mv) { 0 } else { hist.last().unwrap().rev + 1 };
            pos.make(mv);
            hist.push(HistEntry { hash: pos.hash(), in_check: pos.in_check(), rev });
        }
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(4))));
        let r = search(&pos, &hist, &ev, &shared, Limits { depth: Some(depth), ..Limits::default() }, 1, &mut |_| {});
        (pos.move_text(r.best.unwrap()), r.score)
    }

    /// In Janggi a repetition goes to the side ahead on points, as the game's
    /// end scores it: with material level, Han (Black) is ahead by its one
    /// and a half points and repeats; a chariot and horse against a chariot,
    /// Han is behind and does not.
    #[test]
    fn janggi_repetition_goes_to_the_side_ahead_on_points() {
        // the chariots go back and forth: a9a10 makes the start appear a third time
        let moves = ["i1i2", "a10a9", "i2i1", "a9a10", "i1i2", "a10a9", "i2i1"];
        let (m, s) = best_after("janggi", "r8/5k3/9/9/9/9/9/9/4K4/8R w - - 0 1", &moves, 4);
        assert_eq!((m.as_str(), s), ("a9a10", RULE_WIN - 1), "Han repeats and wins on points");
        let (m, s) = best_after("janggi", "r8/5k3/9/9/9/9/9/9/4K4/7NR w - - 0 1", &moves, 4);
        assert_ne!(m, "a9a10", "Han, behind on points, does not repeat ({s})");
        assert!(s > -RULE_WIN / 2, "{m} {s}");
        // in chess a repetition stays a draw: the side behind repeats
        let moves = ["h1h2", "a8a7", "h2h1", "a7a8", "h1h2", "a8a7", "h2h1"];
        let (m, s) = best_after("chess", "r3k3/8/8/8/8/8/8/3NK2R w - - 0 1", &moves, 4);
        assert_eq!((m.as_str(), s), ("a7a8", 0), "a draw for the side behind");
    }

    /// Chu Shogi: the first return of a position with the same side to move
    /// loses for the side that brought it back (unless it moved out of
    /// check). White's gold went a1-a2 and back, Black's l12-l11; Black's
    /// l11l12 would bring back the start with White to move, so it loses
    /// at once, although it appeared only once before (a chess-style search
    /// looks for a third occurrence and scores the move by material).
    #[test]
    fn chu_shogi_repetition_loses_for_the_repeater() {
        let v = Arc::new(builtin::variant("chushogi").unwrap());
        let ev = Arc::new(EvalTables::new(&v));
        let fen = "5k5g/12/12/12/12/12/12/12/12/12/12/G4K6 w - - 0 1";
        let mut pos = Position::from_fen(v, fen).unwrap();
        let mut hist = vec![HistEntry { hash: pos.hash(), in_check: false, rev: 0 }];
        for m in ["a1a2", "l12l11", "a2a1"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make(mv);
            let rev = hist.last().unwrap().rev + 1;
            hist.push(HistEntry { hash: pos.hash(), in_check: false, rev });
        }
        let repeat = pos.parse_move("l11l12").unwrap();
        let run = |limits: Limits| {
            let shared = Arc::new(Shared::new(Arc::new(Tt::new(4))));
            search(&pos, &hist, &ev, &shared, limits, 1, &mut |_| {})
        };
        let only = run(Limits { depth: Some(3), root_moves: vec![repeat], ..Limits::default() });
        assert_eq!(only.score, -RULE_WIN + 1, "the repeating move loses");
        let free = run(Limits { depth: Some(3), ..Limits::default() });
        assert_ne!(free.best, Some(repeat));
        assert!(free.score > -RULE_WIN / 2, "{}", free.score);
    }

    #[test]
    fn perpetual_check_loses_in_xiangqi() {
        // the same kind of checks lose for the checker in Xiangqi: the search
        // must not count on them
        let v = Arc::new(builtin::variant("xiangqi").unwrap());
        assert!(GameRules::new(&v).perpetual_check_loses);
        assert!(!GameRules::new(&builtin::variant("chess").unwrap()).perpetual_check_loses);
        let ev = Arc::new(EvalTables::new(&v));
        // Red is far behind and could check forever along the ranks with its chariot
        let pos = Position::from_fen(v, "4k4/9/9/9/9/9/9/6nn1/6cc1/R2K5 w - - 0 1").unwrap();
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(4))));
        let r = search(&pos, &[], &ev, &shared, Limits { depth: Some(7), ..Limits::default() }, 1, &mut |_| {});
        assert!(r.score < -300, "perpetual check is no way out: {}", r.score);
    }
}
