//! Evaluation for any variant, derived from the variant's data alone, with
//! weights that can be tuned per variant.
//!
//! No term knows a variant by name. Everything comes from the compiled move
//! tables of [`chimera::compile`]:
//!
//! - **Piece values.** Each piece type is placed on every square of a board
//!   filled at random to a fixed density (a few deterministic samples) and its
//!   trajectory table is walked: the average number of squares it reaches
//!   (quiet moves to empty squares plus captures of enemy pieces) is its
//!   *mobility*. Riders lose moves on a crowded board and leapers do not, which
//!   corrects the empty-board bias in favour of long-range pieces. The value is
//!   an affine-plus-quadratic function of that mobility, calibrated once so that
//!   orthodox pieces come out near their textbook values (P 1, N ≈ B ≈ 3.2,
//!   R ≈ 5, Q ≈ 9). Royal pieces have no material value. Squares where a piece
//!   has no move at all (outside its confinement zone, on the last rank) are
//!   left out of the average.
//! - **Promotion.** A piece that promotes gains a share of the difference
//!   between its best promotion and itself as it approaches the promotion zone
//!   (forward progress).
//! - **Centralisation / mobility.** A per-square table: the piece's mobility
//!   on that square minus its average mobility, in centipawns per move; and
//!   the moves it has in the position above its average on random boards.
//! - **Advancement.** Per type, a bonus growing with the rank (0 by default).
//! - **Royal pieces** are drawn to the centre only as material comes off (a
//!   phase computed from the non-pawn material).
//! - **Pieces in hand** count their value plus a small bonus for the freedom of
//!   the drop.
//! - **King safety** (scaled by the phase): friendly pieces next to the royal
//!   piece, enemy pieces within two steps of it, the moves of enemy pieces onto
//!   the squares next to it, and enemy pieces in hand that could be dropped
//!   next to it so that they attack it.
//! - **Pawn structure** for the pieces the variant marks as pawns: doubled,
//!   isolated and passed pawns (files and ranks of the board, "ahead" being
//!   the side's forward direction).
//! - **Threats**: per capture a non-royal piece has of an enemy piece worth
//!   more than itself (by the derived values, so that the count does not move
//!   with tuned values; 0 by default).
//! - **Pieces en prise**: the non-royal pieces attacked by an enemy piece
//!   worth less, or attacked and not defended (the walks report the friends
//!   they defend as well as the enemies they attack): a penalty per piece of
//!   the side to move en prise (it is about to lose one, unless it parries),
//!   and a bonus for it by the derived value of the most valuable piece of
//!   the other side en prise (0 by default).
//! - **Endgame** values: per type, what a piece on the board gains or loses
//!   as the non-pawn material comes off, and the passed pawns' extra bonus
//!   there (scaled by the same phase as the royal piece's centralisation; 0
//!   by default).
//! - **Mop-up** in won endings.
//!
//! The weight of every term is one entry of a parameter vector
//! ([`crate::params::Params`]): the defaults are derived as above, and a
//! built-in variant with a tuned weights file in use (`crate::params::builtin_weights`,
//! made by `chimera tune`, see [`crate::tune`]) uses its weights instead.
//!
//! The evaluation is computed from the piece lists in O(pieces), with no
//! allocation. [`EvalTables::features`] gives the terms of a position as a
//! vector, so that the evaluation is (up to rounding) its dot product with
//! the weights: what the tuner fits.

use crate::params::{self, Params, NSCALARS, PER_TYPE};
use chimera::compile::{code_of, type_of, Cell};
use chimera::piece::Code;
use chimera::position::Position;
use chimera::square::{Color, Square};
use chimera::variant::Variant;
use chimera::walk::Occupant;
use chimera::width::MAX_CODES;
use std::sync::Arc;

/// Centipawns per unit of a piece's random-board mobility, linear term.
const PER_MOVE: f64 = 52.0;
/// Quadratic term: strong pieces are worth more than the sum of their moves.
const PER_MOVE_SQ: f64 = 1.6;
/// Constant part of a non-royal piece's value.
const BASE: f64 = 45.0;
/// Default centipawns per move of mobility above the piece's average (centralisation).
const CENTRE_PER_MOVE: f64 = 4.0;
/// Default bonus of a piece in hand, in per mille of its value.
const HAND_BONUS_PERMILLE: i32 = 100;
/// Weight of a capture target against a quiet move in the mobility measure.
const CAPTURE_WEIGHT: f64 = 1.0;
/// Density of the random boards used to measure mobility.
const DENSITY: f64 = 0.3;
/// Number of random boards.
const SAMPLES: usize = 6;
/// Default centipawns per move of a piece's mobility in the position, above its
/// average on the random boards.
const MOBILITY_PER_MOVE: f64 = 3.0;
/// Mop-up: the material lead (centipawns) from which the stronger side is
/// drawn to drive the weaker royal piece to the edge.
const MOP_UP_LEAD: i32 = 250;
/// The widest board the pawn-structure terms handle (files).
const MAX_FILES: usize = 32;

/// The evaluation tables of one variant.
#[derive(Clone, Debug)]
pub struct EvalTables {
    nsq: usize,
    /// Material value per piece code (both colours, positive).
    value: Vec<i32>,
    /// Value of a piece in hand, per code.
    hand: Vec<i32>,
    /// The derived value per code (0 for royal pieces), whatever the
    /// weights: the mop-up's material condition, so that it does not move
    /// with tuned values.
    base_value: Vec<i32>,
    /// Per code: counts toward the phase (non-royal, non-pawn material, by the derived values).
    phase_weight: Vec<i32>,
    /// Phase material of the start position (both sides).
    phase_total: i32,
    /// Number of piece types.
    ntypes: usize,
    /// Per code: the average mobility on the random boards, in moves, when
    /// the piece's mobility counts (`None` for royal pieces, pawns and pieces without moves).
    mob_avg: Vec<Option<i32>>,
    /// Per code: the piece blocks but can neither move nor be taken for
    /// mobility purposes (a wall: a type without any move).
    inert: Vec<bool>,
    /// Per code: the piece is royal.
    royal: Vec<bool>,
    /// Per code: a pawn for the pawn-structure terms (the variant's pawns, not royal).
    pawn: Vec<bool>,
    /// Whether the pawn-structure terms apply (some pawn type, a board at most [`MAX_FILES`] wide).
    pawn_structure: bool,
    /// Per code and square: a passed pawn's bonus.
    passed: Vec<i32>,
    /// Per code and square: a passed pawn's extra bonus in the endgame
    /// (scaled by the phase).
    passed_end: Vec<i32>,
    /// Per square: file and rank.
    coords: Vec<(i32, i32)>,
    /// Board size minus one, in files and ranks.
    span: (i32, i32),
    /// Per square: the squares one step away in any direction.
    ring: Vec<Vec<Square>>,
    /// Per code: counts as an attacker near the enemy royal piece.
    attacker: Vec<bool>,
    /// Whether the variant has drops.
    drops: bool,
    /// Per code and square (only with drops): the directions (bits of
    /// [`dir_bit`]) of the neighbouring squares the piece attacks from there.
    adj_attack: Vec<u8>,
    /// Scalar weights used at run time.
    tempo: i32,
    shield: i32,
    tropism: i32,
    king_attack: i32,
    king_danger: i32,
    king_drop: i32,
    doubled: i32,
    isolated: i32,
    mop_edge: i32,
    mop_near: i32,
    threat: i32,
    en_prise_mover: i32,
    en_prise_other: i32,
    /// Per code and square: the centralisation measure (moves on an empty board
    /// minus the average), 0 where the piece has no move.
    raw_centre: Vec<f32>,
    /// Per code and square: the promotion-progress measure (centipawns at weight 1).
    raw_promo: Vec<f32>,
    /// Per code and square: progress from the side's first rank (0) to its last (1).
    prog: Vec<f32>,
    /// The weights the tables were built from.
    params: Params,
    /// Per piece code: the terms the evaluation's loop over the pieces reads,
    /// gathered in one place (indexed by the code, a byte, without a bounds test).
    terms: Box<[CodeTerms; MAX_CODES]>,
    /// Per code and square: the positional bonus (centralisation, promotion
    /// progress, advancement, the square weight) and the endgame bonus
    /// (scaled by the phase: the royal piece's centralisation, the endgame
    /// square weight), side by side.
    psq: Vec<[i32; 2]>,
    /// Per colour of the walking piece and piece code: what the code is to a
    /// mobility walk ([`EvalTables::occupant`]: 0 empty, 1 friend or wall, 2 enemy).
    walk_occ: Box<[[Occupant; MAX_CODES]; 2]>,
    /// Per square: the squares at most one step away, itself included (a bit set).
    zone1: Vec<SquareSet>,
    /// Per square: the squares at most two steps away (files and ranks), itself included.
    zone2: Vec<SquareSet>,
    /// Per code and square: the position's key of a pawn there
    /// (`Variant::z_piece`; 0 for the codes that are not pawns), whose XOR
    /// over the board is the pawn key of [`PieceSums`].
    pawn_zobrist: Vec<u64>,
}

/// The entries of a [`PawnCache`] (a power of two).
const PAWN_CACHE_SIZE: usize = 1 << 14;

/// One [`PawnCache`] entry: a pawn key and its pawn-structure terms.
#[derive(Clone, Copy, Debug, Default)]
struct PawnEntry {
    key: u64,
    structure: i32,
    passed_end: i32,
}

/// The pawn-structure terms of the pawn configurations a search met, by
/// pawn key (direct-mapped, one per search thread): the terms depend on
/// the pawns alone, and a search meets the same few configurations again
/// and again. An empty entry (key 0) holds the terms of no pawns at all,
/// which are 0, so it is right as it is.
pub struct PawnCache {
    entries: Vec<PawnEntry>,
}

impl Default for PawnCache {
    fn default() -> PawnCache {
        PawnCache { entries: vec![PawnEntry::default(); PAWN_CACHE_SIZE] }
    }
}

impl PawnCache {
    #[inline]
    fn get(&self, key: u64) -> Option<(i32, i32)> {
        let e = &self.entries[key as usize & (PAWN_CACHE_SIZE - 1)];
        (e.key == key).then_some((e.structure, e.passed_end))
    }

    #[inline]
    fn put(&mut self, key: u64, (structure, passed_end): (i32, i32)) {
        self.entries[key as usize & (PAWN_CACHE_SIZE - 1)] = PawnEntry { key, structure, passed_end };
    }
}

/// The 64-bit words of a [`SquareSet`]: enough for the largest board of
/// the build (4 in the narrow build, 21 for 36x36 in the wide one).
const SQUARE_WORDS: usize = chimera::square::MAX_SQUARES.div_ceil(64);

/// A set of squares of any board of the build.
type SquareSet = [u64; SQUARE_WORDS];

/// The empty [`SquareSet`], for a side without a royal piece.
const NO_SQUARES: SquareSet = [0; SQUARE_WORDS];

/// Whether `sq` is in the set.
#[inline(always)]
fn has(set: &SquareSet, sq: Square) -> bool {
    set[sq.index() >> 6] >> (sq.index() & 63) & 1 != 0
}

/// Adds `sq` to `set`.
#[inline(always)]
fn add(set: &mut SquareSet, sq: Square) {
    set[sq.index() >> 6] |= 1 << (sq.index() & 63);
}

/// Marks a capture of a walk when `on`: the square attacked, and (`more`)
/// a piece worth more than its taker there.
#[inline(always)]
fn mark_capture(on: bool, attacked: &mut SquareSet, lower: &mut SquareSet, to: Square, more: bool) {
    if on {
        add(attacked, to);
        if more {
            add(lower, to);
        }
    }
}

/// What the walks of one colour's pieces mark for the pieces-en-prise
/// count: the enemy pieces they can take, those of them worth more than
/// their taker, and the friends they defend.
#[derive(Clone, Copy)]
struct Marks {
    attacked: SquareSet,
    lower: SquareSet,
    defended: SquareSet,
}

impl Marks {
    const NONE: Marks = Marks { attacked: NO_SQUARES, lower: NO_SQUARES, defended: NO_SQUARES };
}

/// The pieces of one colour en prise, given the marks of its walks (`own`)
/// and of the enemy's (`foe`): the non-royal pieces the enemy can take that
/// are worth more than a taker or not defended. Their number, and the
/// largest of their `value`s (0 without any); `value` is negative for a
/// royal piece.
#[inline]
fn count_en_prise(pos: &Position, value: impl Fn(Code) -> i32, own: &Marks, foe: &Marks) -> (i32, i32) {
    let (mut n, mut most) = (0, 0);
    for (w, &bits) in foe.attacked.iter().enumerate() {
        let mut b = bits;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            if foe.lower[w] >> i & 1 != 0 || own.defended[w] >> i & 1 == 0 {
                let v = value(pos.piece_at(Square::new(w * 64 + i)));
                if v >= 0 {
                    n += 1;
                    most = most.max(v);
                }
            }
        }
    }
    (n, most)
}

/// What the evaluation reads of one piece code in its loop over the pieces.
#[derive(Clone, Copy, Debug, Default)]
struct CodeTerms {
    /// The material value.
    value: i32,
    /// The weight toward the phase.
    phase: i32,
    /// The extra value in the endgame (scaled by the phase).
    end: i32,
    /// The derived value (the mop-up's material).
    base: i32,
    /// The average mobility (meaningful with [`MOBILE`]).
    mob_avg: i32,
    /// Centipawns per move of mobility.
    mob_weight: i32,
    /// [`MOBILE`], [`ATTACKER`], [`PAWN`].
    flags: u8,
}

/// [`CodeTerms::flags`]: the piece's mobility counts.
const MOBILE: u8 = 1;
/// [`CodeTerms::flags`]: counts as an attacker near the enemy royal piece.
const ATTACKER: u8 = 2;
/// [`CodeTerms::flags`]: a pawn for the pawn-structure terms.
const PAWN: u8 = 4;
/// [`CodeTerms::flags`]: a royal piece.
const ROYAL: u8 = 8;

/// The sums over the pieces on the board that the evaluation adds up, from
/// White's point of view: material and square tables, the endgame terms
/// (before the phase scales them), the phase and each side's derived
/// material; and the pawn key (a hash of where the pawns are, for a
/// [`PawnCache`]). A search keeps them move by move ([`EvalTables::update_sums`],
/// over the move's [`chimera::footprint`]) and evaluates with
/// [`EvalTables::evaluate_with`], so that the evaluation does not add them
/// up again at every node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceSums {
    score: i32,
    endgame: i32,
    phase: i32,
    material: [i32; 2],
    pawn_key: u64,
}

/// The bit of the direction (df, dr), each in -1..=1, not both 0.
#[inline]
fn dir_bit(df: i32, dr: i32) -> u8 {
    let i = (df + 1) * 3 + (dr + 1);
    1u8 << if i > 4 { i - 1 } else { i }
}

/// A small deterministic generator for the random boards.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() % 10_000) as f64 / 10_000.0 < p
    }
}

/// The walk of [`chimera::walk::reach`] over a board of 0 (empty), 1
/// (friend or wall) and 2 (enemy) codes, as the sampled boards and the
/// drop-threat tables write them.
#[inline(always)]
fn walk(cells: &[Cell], sq: Square, occupant: impl Fn(Square) -> Code, hit: impl FnMut(Square, bool)) {
    chimera::walk::reach(cells, sq, |to| OCCUPANTS[occupant(to).index()], hit)
}

/// The [`Occupant`] of each board code of [`walk`].
const OCCUPANTS: [Occupant; 3] = [Occupant::Empty, Occupant::Friend, Occupant::Foe];

/// What a piece can reach from one square on a given board: (quiet moves,
/// captures), distinct squares. `board[s]`: 0 empty, 1 friend, 2 foe.
fn reach(v: &Variant, code: Code, sq: Square, board: &[Code]) -> (u32, u32) {
    let (cells, _) = v.tables.list(code, false, sq);
    // distinct destinations: several paths may lead to one square (Lion moves)
    let mut seen: SquareSet = NO_SQUARES;
    let (mut quiet, mut capt) = (0, 0);
    walk(
        cells,
        sq,
        |to| board[to.index()],
        |to, capture| {
            let (w, b) = (to.index() >> 6, to.index() & 63);
            if seen[w] >> b & 1 == 0 {
                seen[w] |= 1 << b;
                if capture {
                    capt += 1;
                } else {
                    quiet += 1;
                }
            }
        },
    );
    (quiet, capt)
}

/// The number of paths a piece has from one square on a given board (a
/// square reached by two paths counts twice): the measure the evaluation's
/// mobility term uses, as it is cheap to take in a real position.
fn paths(v: &Variant, code: Code, sq: Square, board: &[Code]) -> u32 {
    let (cells, _) = v.tables.list(code, false, sq);
    let mut n = 0;
    walk(cells, sq, |to| board[to.index()], |_, _| n += 1);
    n
}

/// Mobility of a piece type per square: (on an empty board, on random boards,
/// paths on random boards). `None` on squares where the piece has no move
/// even on an empty board.
fn mobility(v: &Variant, t: usize) -> Vec<Option<(f64, f64, f64)>> {
    let g = v.geometry();
    let nsq = g.squares();
    let code = code_of(t, Color::White);
    let empty: Vec<Code> = vec![Code::EMPTY; nsq];
    let mut rng = Lcg(0x5eed_0000 + t as u64);
    let boards: Vec<Vec<Code>> = (0..SAMPLES)
        .map(|_| {
            (0..nsq)
                .map(|_| {
                    if rng.chance(DENSITY) {
                        if rng.chance(0.5) {
                            Code::new(1)
                        } else {
                            Code::new(2)
                        }
                    } else {
                        Code::EMPTY
                    }
                })
                .collect()
        })
        .collect();
    (0..nsq)
        .map(|s| {
            let sq = Square::new(s);
            let (q, c) = reach(v, code, sq, &empty);
            if q + c == 0 {
                // a capture-only piece (rare) still counts via the random boards
                let (_, c2) = reach(v, code, sq, &boards[0]);
                if c2 == 0 {
                    return None;
                }
            }
            let (mut total, mut total_paths) = (0.0, 0.0);
            for b in &boards {
                let (q, c) = reach(v, code, sq, b);
                total += q as f64 + CAPTURE_WEIGHT * c as f64;
                total_paths += paths(v, code, sq, b) as f64;
            }
            Some(((q + c) as f64, total / SAMPLES as f64, total_paths / SAMPLES as f64))
        })
        .collect()
}

/// What the defaults and the tables are derived from: the mobility of every
/// piece type and its derived value.
struct Basis {
    /// Per type and square: see [`mobility`].
    mobs: Vec<Vec<Option<(f64, f64, f64)>>>,
    /// Per type: the derived value (or the definition's).
    base_value: Vec<f64>,
}

impl Basis {
    fn new(v: &Variant) -> Basis {
        let ntypes = v.def.pieces.len();
        let mobs: Vec<Vec<Option<(f64, f64, f64)>>> = (0..ntypes).map(|t| mobility(v, t)).collect();
        let mut b = Basis { mobs, base_value: vec![0.0; ntypes] };
        for (t, p) in v.def.pieces.iter().enumerate() {
            if p.royal {
                continue;
            }
            let m = b.avg(t, |x| x.1);
            // a value given in the definition overrides the derived one
            b.base_value[t] = p.value.map_or(BASE + PER_MOVE * m + PER_MOVE_SQ * m * m, f64::from);
        }
        b
    }

    fn avg(&self, t: usize, pick: fn(&(f64, f64, f64)) -> f64) -> f64 {
        let xs: Vec<f64> = self.mobs[t].iter().flatten().map(pick).collect();
        if xs.is_empty() {
            0.0
        } else {
            xs.iter().sum::<f64>() / xs.len() as f64
        }
    }

    /// The default weights.
    fn defaults(&self, v: &Variant) -> Params {
        let ntypes = v.def.pieces.len();
        let mut p = Params::zeros_for(v);
        for (i, s) in params::SCALARS.iter().enumerate() {
            p.w[i] = s.1;
        }
        for t in 0..ntypes {
            let value = self.base_value[t].round() as i32;
            p.w[Params::idx(t, params::VALUE)] = value as f64;
            p.w[Params::idx(t, params::HAND)] = (value + value * HAND_BONUS_PERMILLE / 1000) as f64;
            p.w[Params::idx(t, params::CENTRE)] = CENTRE_PER_MOVE;
            p.w[Params::idx(t, params::MOBILITY)] = MOBILITY_PER_MOVE;
        }
        p
    }
}

/// The counts of the king-safety terms for one royal piece.
struct KingCounts {
    shield: i32,
    near: i32,
    drops: i32,
}

impl EvalTables {
    /// Derives the evaluation tables of a variant from its move tables, with
    /// the variant's tuned weights when it is a built-in variant that has
    /// them, else the derived defaults.
    pub fn new(v: &Arc<Variant>) -> EvalTables {
        let basis = Basis::new(v);
        let mut p = basis.defaults(v);
        if let Some(text) = params::builtin_weights(&v.def.name) {
            // a file that does not fit the variant (a user's variant of the
            // same name) leaves the defaults
            let mut tuned = p.clone();
            if tuned.apply_text(v, text).is_ok() {
                p = tuned;
            }
        }
        EvalTables::build(v, &basis, p)
    }

    /// The tables with the derived default weights (no tuned file).
    pub fn untuned(v: &Arc<Variant>) -> EvalTables {
        let basis = Basis::new(v);
        let p = basis.defaults(v);
        EvalTables::build(v, &basis, p)
    }

    /// The tables with the given weights (`p` must have the variant's number of types).
    pub fn with_params(v: &Arc<Variant>, p: &Params) -> Result<EvalTables, String> {
        let fit = Params::zeros_for(v);
        if p.ntypes != fit.ntypes || p.nsq != fit.nsq || p.w.len() != fit.w.len() {
            return Err(format!(
                "the weights are for {} piece types on {} squares, the variant has {} on {}",
                p.ntypes, p.nsq, fit.ntypes, fit.nsq
            ));
        }
        let basis = Basis::new(v);
        Ok(EvalTables::build(v, &basis, p.clone()))
    }

    /// The derived default weights of a variant.
    pub fn default_params(v: &Variant) -> Params {
        Basis::new(v).defaults(v)
    }

    /// The weights these tables use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The tempo: what [`EvalTables::evaluate`] adds for the side to move,
    /// in centipawns.
    pub fn tempo(&self) -> i32 {
        self.tempo
    }

    fn build(v: &Arc<Variant>, b: &Basis, p: Params) -> EvalTables {
        let g = v.geometry();
        let nsq = g.squares();
        let ntypes = v.def.pieces.len();
        let ncodes = 2 * ntypes + 2;
        let height = g.height as i32;
        let mut value = vec![0i32; ncodes];
        let mut pst = vec![0i32; ncodes * nsq];
        let mut end_bonus = vec![0i32; ncodes * nsq];
        let mut hand = vec![0i32; ncodes];
        let mut base_value = vec![0i32; ncodes];
        let mut phase_weight = vec![0i32; ncodes];
        let mut raw_centre = vec![0f32; ncodes * nsq];
        let mut raw_promo = vec![0f32; ncodes * nsq];
        let mut prog = vec![0f32; ncodes * nsq];
        let mut passed = vec![0i32; ncodes * nsq];
        let mut passed_end = vec![0i32; ncodes * nsq];
        let mut end = vec![0i32; ncodes];
        let mut pawn = vec![false; ncodes];
        for (t, pt) in v.def.pieces.iter().enumerate() {
            let avg_empty = b.avg(t, |x| x.0);
            let w_centre = p.of(t, params::CENTRE);
            let w_advance = p.of(t, params::ADVANCE);
            for c in [Color::White, Color::Black] {
                let code = code_of(t, c).index();
                if !pt.royal {
                    value[code] = p.of(t, params::VALUE).round() as i32;
                    end[code] = p.of(t, params::END).round() as i32;
                    hand[code] = p.of(t, params::HAND).round() as i32;
                    base_value[code] = b.base_value[t].round() as i32;
                }
                if !pt.royal && !pt.pawn {
                    phase_weight[code] = b.base_value[t].round() as i32;
                }
                pawn[code] = v.pawn[code] && !pt.royal;
                // the best promotion and its gain
                let promo = v.tables.promo.get(code).and_then(|x| x.as_ref());
                let gain = promo
                    .map(|pi| {
                        pi.choices.iter().map(|&pc| b.base_value[type_of(pc)]).fold(0.0, f64::max) - b.base_value[t]
                    })
                    .unwrap_or(0.0)
                    .max(0.0);
                for s in 0..nsq {
                    let i = code * nsq + s;
                    // tables are stored from White's side: read Black's mirrored
                    let ws = if c == Color::White { s } else { g.flip(Square::new(s)).index() };
                    let r = g.rank_of(Square::new(ws));
                    let pr = if height > 1 { r as f64 / (height - 1) as f64 } else { 0.0 };
                    prog[i] = pr as f32;
                    if let Some((me, _, _)) = b.mobs[t][ws] {
                        raw_centre[i] = (me - avg_empty) as f32;
                    }
                    if let Some(pi) = promo {
                        // distance in ranks to the nearest zone square, for this colour
                        let r = g.rank_of(Square::new(s));
                        let d = (0..nsq)
                            .filter(|&z| pi.zone[z])
                            .map(|z| (g.rank_of(Square::new(z)) - r).abs())
                            .min()
                            .unwrap_or(i32::MAX / 4) as f64;
                        raw_promo[i] = (gain / (4.0 + 4.0 * d * d)) as f32;
                    }
                    let centre = w_centre * raw_centre[i] as f64;
                    let mut bonus = if pt.royal { 0.0 } else { centre };
                    bonus += p.w[params::PROMO] * raw_promo[i] as f64 + w_advance * pr;
                    bonus += p.w[p.square_idx(t, ws)];
                    pst[i] = bonus.round() as i32;
                    // scaled by the phase: the royal piece's centralisation
                    // and the endgame square bonus
                    let end = if pt.royal { centre } else { 0.0 };
                    end_bonus[i] = (end + p.w[p.square_end_idx(t, ws)]).round() as i32;
                    if pawn[code] {
                        passed[i] = (p.w[params::PASSED] + p.w[params::PASSED_RANK] * pr * pr).round() as i32;
                        passed_end[i] =
                            (p.w[params::PASSED_END] + p.w[params::PASSED_RANK_END] * pr * pr).round() as i32;
                    }
                }
            }
        }
        let mut mob_avg = vec![None; ncodes];
        let mut mob_weight = vec![0i32; ncodes];
        let mut inert = vec![false; ncodes];
        let mut royal = vec![false; ncodes];
        for (t, pt) in v.def.pieces.iter().enumerate() {
            let moves = b.mobs[t].iter().any(Option::is_some);
            for c in [Color::White, Color::Black] {
                let code = code_of(t, c).index();
                inert[code] = !moves;
                royal[code] = pt.royal;
                // pawns are many and move little: their mobility is left out
                if moves && !pt.royal && !pt.pawn {
                    mob_avg[code] = Some(b.avg(t, |x| x.2).round() as i32);
                    mob_weight[code] = p.of(t, params::MOBILITY).round() as i32;
                }
            }
        }
        let coords: Vec<(i32, i32)> =
            (0..nsq).map(|s| (g.file_of(Square::new(s)), g.rank_of(Square::new(s)))).collect();
        let span = (g.width as i32 - 1, g.height as i32 - 1);
        let ring: Vec<Vec<Square>> = (0..nsq)
            .map(|s| {
                let (f, r) = (g.file_of(Square::new(s)), g.rank_of(Square::new(s)));
                let mut n = Vec::new();
                for df in -1..=1 {
                    for dr in -1..=1 {
                        if let (false, Some(t)) = (df == 0 && dr == 0, g.square(f + df, r + dr)) {
                            n.push(t);
                        }
                    }
                }
                n
            })
            .collect();
        let attacker: Vec<bool> = (0..ncodes).map(|code| code >= 2 && phase_weight[code] > 0).collect();
        let drops = v.def.rules.drops.is_some();
        let mut adj_attack = Vec::new();
        if drops {
            adj_attack = vec![0u8; ncodes * nsq];
            for code in 2..ncodes {
                for s in 0..nsq {
                    let sq = Square::new(s);
                    let (sf, sr) = (g.file_of(sq), g.rank_of(sq));
                    let near = |to: Square| (g.file_of(to) - sf).abs() <= 1 && (g.rank_of(to) - sr).abs() <= 1;
                    let (cells, _) = v.tables.list(Code::new(code), false, sq);
                    let mut bits = 0u8;
                    // neighbours hold enemies, everything else is empty
                    walk(
                        cells,
                        sq,
                        |to| if to != sq && near(to) { Code::new(2) } else { Code::EMPTY },
                        |to, capture| {
                            if capture && to != sq && near(to) {
                                bits |= dir_bit(g.file_of(to) - sf, g.rank_of(to) - sr);
                            }
                        },
                    );
                    adj_attack[code * nsq + s] = bits;
                }
            }
        }
        let pawn_structure = pawn.iter().any(|&x| x) && (g.width as usize) <= MAX_FILES;
        // the position's own keys (`Variant::z_piece`), for the pawn codes only
        let pawn_zobrist: Vec<u64> = (0..ncodes * nsq).map(|i| if pawn[i / nsq] { v.z_piece[i] } else { 0 }).collect();
        let int = |i: usize| p.w[i].round() as i32;
        let mut terms = Box::new([CodeTerms::default(); MAX_CODES]);
        for code in 0..ncodes {
            let flag = |on: bool, f: u8| if on { f } else { 0 };
            terms[code] = CodeTerms {
                value: value[code],
                phase: phase_weight[code],
                end: end[code],
                base: base_value[code],
                mob_avg: mob_avg[code].unwrap_or(0),
                mob_weight: mob_weight[code],
                flags: flag(mob_avg[code].is_some(), MOBILE)
                    | flag(attacker[code], ATTACKER)
                    | flag(pawn[code], PAWN)
                    | flag(royal[code], ROYAL),
            };
        }
        let psq = pst.iter().zip(&end_bonus).map(|(&a, &b)| [a, b]).collect();
        let mut walk_occ = Box::new([[Occupant::Empty; MAX_CODES]; 2]);
        for (mine, row) in walk_occ.iter_mut().enumerate() {
            for (p, o) in row.iter_mut().enumerate().skip(1) {
                let wall = inert.get(p).copied().unwrap_or(false);
                *o = if p & 1 != mine && !wall { Occupant::Foe } else { Occupant::Friend };
            }
        }
        let zone = |reach: i32| -> Vec<SquareSet> {
            (0..nsq)
                .map(|s| {
                    let (f, r) = coords[s];
                    let mut set: SquareSet = NO_SQUARES;
                    for (t, &(tf, tr)) in coords.iter().enumerate() {
                        if (tf - f).abs() <= reach && (tr - r).abs() <= reach {
                            add(&mut set, Square::new(t));
                        }
                    }
                    set
                })
                .collect()
        };
        let (zone1, zone2) = (zone(1), zone(2));
        let mut tables = EvalTables {
            nsq,
            value,
            hand,
            base_value,
            phase_weight,
            phase_total: 1,
            ntypes,
            mob_avg,
            inert,
            royal,
            pawn,
            pawn_structure,
            passed,
            passed_end,
            coords,
            span,
            ring,
            attacker,
            drops,
            adj_attack,
            tempo: int(params::TEMPO),
            shield: int(params::SHIELD),
            tropism: int(params::TROPISM),
            king_attack: int(params::KING_ATTACK),
            king_danger: int(params::KING_DANGER),
            king_drop: int(params::KING_DROP),
            doubled: int(params::DOUBLED),
            isolated: int(params::ISOLATED),
            mop_edge: int(params::MOP_EDGE),
            mop_near: int(params::MOP_NEAR),
            threat: int(params::THREAT),
            en_prise_mover: int(params::EN_PRISE_MOVER),
            en_prise_other: int(params::EN_PRISE_OTHER),
            raw_centre,
            raw_promo,
            prog,
            params: p,
            terms,
            psq,
            walk_occ,
            zone1,
            zone2,
            pawn_zobrist,
        };
        let start = Position::start(v.clone());
        tables.phase_total = tables.phase_material(&start).max(1);
        tables
    }

    fn phase_material(&self, pos: &Position) -> i32 {
        let mut m = 0;
        for c in [Color::White, Color::Black] {
            for &sq in pos.pieces(c) {
                m += self.phase_weight[pos.piece_at(sq).index()];
            }
            for t in 0..self.ntypes {
                m += self.phase_weight[code_of(t, c).index()] * pos.pocket(c, t) as i32;
            }
        }
        m
    }

    /// The material in play (non-royal, non-pawn, on the board and in hand)
    /// in permille of the start position's: the game phase, for the time
    /// manager (above 1000 after promotions).
    pub fn material_permille(&self, pos: &Position) -> u32 {
        (self.phase_material(pos).max(0) as i64 * 1000 / self.phase_total.max(1) as i64).min(u32::MAX as i64) as u32
    }

    /// Whether `c` has a piece on the board that is neither royal nor a pawn
    /// (the null-move condition: without one, zugzwang is likely).
    pub fn has_pieces(&self, pos: &Position, c: Color) -> bool {
        pos.pieces(c).iter().any(|&sq| self.phase_weight[pos.piece_at(sq).index()] > 0)
    }

    /// The material value of a piece code (0 for royal pieces).
    #[inline]
    pub fn value(&self, code: Code) -> i32 {
        self.value[code.index()]
    }

    /// The value of a piece type, in centipawns.
    pub fn type_value(&self, t: usize) -> i32 {
        self.value[code_of(t, Color::White).index()]
    }

    /// The number of moves the piece on `sq` has in the position: quiet moves
    /// to empty squares plus captures of enemy pieces, walked on the trajectory
    /// table as the check test walks it (a square reached by two paths counts
    /// twice); and how many of them go to the enemy royal piece `ek` or a
    /// square next to it.
    #[inline]
    fn mobility(&self, pos: &Position, code: Code, sq: Square, ek: Option<Square>) -> (i32, i32) {
        let (cells, _) = pos.variant().tables.list(code, false, sq);
        let mine = code.color();
        let (kf, kr) = ek.map_or((i32::MIN / 2, i32::MIN / 2), |k| self.coords[k.index()]);
        let (mut n, mut hits) = (0, 0);
        chimera::walk::reach(
            cells,
            sq,
            |to| self.occupant(pos, mine, to),
            |to, _| {
                n += 1;
                let (f, r) = self.coords[to.index()];
                if (f - kf).abs() <= 1 && (r - kr).abs() <= 1 {
                    hits += 1;
                }
            },
        );
        (n, hits)
    }

    /// What stands on `to` for a walk of a piece of colour `mine`: a friend
    /// or an inert piece (a wall) counts as a friend.
    #[inline(always)]
    fn occupant(&self, pos: &Position, mine: Color, to: Square) -> Occupant {
        let p = pos.piece_at(to);
        if p.is_empty() {
            Occupant::Empty
        } else if p.color() != mine && !self.inert[p] {
            Occupant::Foe
        } else {
            Occupant::Friend
        }
    }

    /// The number of moves of the piece on `sq` (as [`EvalTables::mobility`]
    /// counts them, without the moves next to the royal piece).
    #[cfg(test)]
    fn moves(&self, pos: &Position, code: Code, sq: Square) -> i32 {
        let (cells, _) = pos.variant().tables.list(code, false, sq);
        let mine = code.color();
        let mut n = 0;
        chimera::walk::reach(cells, sq, |to| self.occupant(pos, mine, to), |_, _| n += 1);
        n
    }

    /// The threats of the piece on `sq`: its captures of enemy pieces worth
    /// more than itself by the derived values (0 for a royal piece).
    fn threats(&self, pos: &Position, code: Code, sq: Square) -> i32 {
        if self.royal[code.index()] || self.inert[code.index()] {
            return 0;
        }
        let (cells, _) = pos.variant().tables.list(code, false, sq);
        let mine = code.color();
        let own = self.base_value[code.index()];
        let mut n = 0;
        chimera::walk::reach(
            cells,
            sq,
            |to| self.occupant(pos, mine, to),
            |to, capture| n += (capture && self.base_value[pos.piece_at(to).index()] > own) as i32,
        );
        n
    }

    /// Per colour, the pieces en prise: their number and the largest derived
    /// value among them (the counts of [`params::EN_PRISE_MOVER`] and
    /// [`params::EN_PRISE_OTHER`]), walked piece by piece: the reference for
    /// the one-pass evaluation.
    fn en_prise(&self, pos: &Position) -> [(i32, i32); 2] {
        let mut marks = [Marks::NONE; 2];
        for (ci, mk) in marks.iter_mut().enumerate() {
            let mine = Color::from_index(ci);
            for &sq in pos.pieces(mine) {
                let code = pos.piece_at(sq);
                let (cells, _) = pos.variant().tables.list(code, false, sq);
                let own = if self.royal[code.index()] { i32::MAX } else { self.base_value[code.index()] };
                chimera::walk::reach_guarding(
                    cells,
                    sq,
                    |to| self.occupant(pos, mine, to),
                    |to, capture| {
                        if capture {
                            add(&mut mk.attacked, to);
                            if self.base_value[pos.piece_at(to).index()] > own {
                                add(&mut mk.lower, to);
                            }
                        }
                    },
                    |to| add(&mut mk.defended, to),
                );
            }
        }
        let value = |p: Code| if self.royal[p.index()] { -1 } else { self.base_value[p.index()] };
        [count_en_prise(pos, value, &marks[0], &marks[1]), count_en_prise(pos, value, &marks[1], &marks[0])]
    }

    /// Mop-up counts: with a clear material lead and little material left,
    /// the stronger side gains by driving the weaker royal piece to the edge
    /// and bringing its own royal piece close. (sign, edge, near), White's
    /// point of view; sign 0 when it does not apply.
    fn mop_up(&self, material: [i32; 2], royals: [Option<Square>; 2]) -> (i32, i32, i32) {
        let lead = material[0] - material[1];
        let (strong, weak, sign) = if lead >= MOP_UP_LEAD {
            (0, 1, 1)
        } else if -lead >= MOP_UP_LEAD {
            (1, 0, -1)
        } else {
            return (0, 0, 0);
        };
        // only once the weaker side has little left
        if material[weak] * 4 > self.phase_total {
            return (0, 0, 0);
        }
        let (Some(ks), Some(kw)) = (royals[strong], royals[weak]) else {
            return (0, 0, 0);
        };
        let (fs, rs) = self.coords[ks.index()];
        let (fw, rw) = self.coords[kw.index()];
        // doubled distances from the centre, so that even boards have one
        let edge = (2 * fw - self.span.0).abs() + (2 * rw - self.span.1).abs();
        let near = self.span.0 + self.span.1 - (fs - fw).abs() - (rs - rw).abs();
        (sign, edge, near)
    }

    /// The king-safety counts of `c`'s royal piece on `k`: friendly pieces
    /// next to it, enemy pieces (not pawns) within two steps, and enemy
    /// pieces in hand (at most two of a type) that could be dropped on an
    /// empty square next to it and attack it from there.
    fn king_counts(&self, pos: &Position, c: Color, k: Square) -> KingCounts {
        let mine = c;
        let ring = &self.ring[k.index()];
        let shield = ring
            .iter()
            .filter(|&&t| {
                let p = pos.piece_at(t);
                p.is_color(mine) && !self.inert[p]
            })
            .count() as i32;
        let (kf, kr) = self.coords[k.index()];
        let near = pos
            .pieces(c.flip())
            .iter()
            .filter(|&&t| {
                let (f, r) = self.coords[t.index()];
                self.attacker[pos.piece_at(t).index()] && (f - kf).abs() <= 2 && (r - kr).abs() <= 2
            })
            .count() as i32;
        let drops = if self.drops { self.drop_threats(pos, c, k) } else { 0 };
        KingCounts { shield, near, drops }
    }

    /// King safety at full material (White's point of view), given the
    /// moves of each side's pieces next to the other's royal piece.
    #[cfg(test)]
    fn king_safety(&self, pos: &Position, royals: [Option<Square>; 2], hits: [i32; 2]) -> i32 {
        let mut s = 0;
        for (c, sign) in [(Color::White, 1i32), (Color::Black, -1i32)] {
            let Some(k) = royals[c.index()] else { continue };
            let kc = self.king_counts(pos, c, k);
            let danger = hits[c.flip().index()] + kc.near + 2 * kc.drops;
            s += sign
                * (self.shield * kc.shield
                    - self.tropism * kc.near
                    - self.king_attack * hits[c.flip().index()]
                    - self.king_drop * kc.drops
                    - self.king_danger * danger * danger / 16);
        }
        s
    }

    /// The pawn-structure counts: per colour (doubled, isolated); `passed`
    /// sees every passed pawn (colour, index `code * squares + square`).
    fn pawns(&self, pos: &Position, mut passed: impl FnMut(Color, usize)) -> [(i32, i32); 2] {
        let mut out = [(0, 0); 2];
        if !self.pawn_structure {
            return out;
        }
        // per colour and file: pawns, lowest and highest rank
        let mut count = [[0u8; MAX_FILES]; 2];
        let mut lo = [[i32::MAX; MAX_FILES]; 2];
        let mut hi = [[i32::MIN; MAX_FILES]; 2];
        for c in [Color::White, Color::Black] {
            let ci = c.index();
            for &sq in pos.pieces(c) {
                if self.pawn[pos.piece_at(sq).index()] {
                    let (f, r) = self.coords[sq.index()];
                    let f = f as usize;
                    count[ci][f] += 1;
                    lo[ci][f] = lo[ci][f].min(r);
                    hi[ci][f] = hi[ci][f].max(r);
                }
            }
        }
        let files = (self.span.0 + 1) as usize;
        for c in [Color::White, Color::Black] {
            let ci = c.index();
            let them = 1 - ci;
            for f in 0..files {
                out[ci].0 += (count[ci][f] as i32 - 1).max(0);
                let left = f > 0 && count[ci][f - 1] > 0;
                let right = f + 1 < files && count[ci][f + 1] > 0;
                if !left && !right {
                    out[ci].1 += count[ci][f] as i32;
                }
            }
            for &sq in pos.pieces(c) {
                let code = pos.piece_at(sq).index();
                if !self.pawn[code] {
                    continue;
                }
                let (f, r) = self.coords[sq.index()];
                let f = f as usize;
                let lo_f = f.saturating_sub(1);
                let hi_f = (f + 1).min(files - 1);
                let free = (lo_f..=hi_f).all(|g| if ci == 0 { hi[them][g] <= r } else { lo[them][g] >= r });
                if free {
                    passed(c, code * self.nsq + sq.index());
                }
            }
        }
        out
    }

    /// The static evaluation from the side to move's point of view, in centipawns.
    ///
    /// The sums over the pieces ([`PieceSums`]: material, tables, phase)
    /// are added up first; then [`EvalTables::evaluate_with`] makes one
    /// pass over the pieces for the mobility (with the moves next to the
    /// enemy royal piece), the enemy pieces near each royal piece and the
    /// pawns per file, and the rest works on those counts. The value is the
    /// one of the term-by-term definition (`evaluate_by_terms`, kept as the
    /// tests' reference).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_with(pos, &self.piece_sums(pos))
    }

    /// The sums over the pieces of `pos` ([`PieceSums`]), added up.
    pub fn piece_sums(&self, pos: &Position) -> PieceSums {
        let mut sums = PieceSums::default();
        for c in [Color::White, Color::Black] {
            for &sq in pos.pieces(c) {
                self.update_sums(&mut sums, sq, Code::EMPTY, pos.piece_at(sq));
            }
        }
        sums
    }

    /// Updates `sums` for the occupant of `sq` changing from `old` to `new`
    /// (either may be [`Code::EMPTY`]).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position};
    /// use chimera_engine::eval::EvalTables;
    /// let v = Arc::new(builtin::variant("chess").unwrap());
    /// let ev = EvalTables::new(&v);
    /// let mut pos = Position::start(v);
    /// let mut sums = ev.piece_sums(&pos);
    /// let m = pos.parse_move("e2e4").unwrap();
    /// let fp = pos.footprint(m);
    /// let before: Vec<_> = fp.as_slice().iter().map(|&s| pos.piece_at(s)).collect();
    /// pos.make(m);
    /// for (&sq, &old) in fp.as_slice().iter().zip(&before) {
    ///     ev.update_sums(&mut sums, sq, old, pos.piece_at(sq));
    /// }
    /// assert_eq!(sums, ev.piece_sums(&pos));
    /// assert_eq!(ev.evaluate_with(&pos, &sums), ev.evaluate(&pos));
    /// ```
    #[inline]
    pub fn update_sums(&self, sums: &mut PieceSums, sq: Square, old: Code, new: Code) {
        for (code, sign) in [(old, -1i32), (new, 1)] {
            if code.is_empty() {
                continue;
            }
            let white = code.color() == Color::White;
            let side = if white { sign } else { -sign };
            let t = &self.terms[code.index()];
            let [pst, centre] = self.psq[code.index() * self.nsq + sq.index()];
            sums.score += side * (t.value + pst);
            sums.endgame += side * (centre + t.end);
            sums.phase += sign * t.phase;
            sums.material[(!white) as usize] += sign * t.base;
            sums.pawn_key ^= self.pawn_zobrist[code.index() * self.nsq + sq.index()];
        }
    }

    /// A cheap estimate of [`EvalTables::evaluate_with`] from the sums over
    /// the pieces, the hands and the mop-up alone (side to move's point of
    /// view): the terms the pieces' walks give (mobility, threats, king
    /// safety) and the pawn structure are left out.
    pub fn estimate_with(&self, pos: &Position, sums: &PieceSums) -> i32 {
        let mut score = sums.score;
        let mut phase = sums.phase;
        for (c, sign) in [(Color::White, 1i32), (Color::Black, -1)] {
            let (value, weight) = self.hand_terms(pos, c);
            score += sign * value;
            phase += weight;
        }
        let opening = phase.min(self.phase_total);
        score += sums.endgame * (self.phase_total - opening) / self.phase_total;
        let royals = [pos.royal_square(Color::White), pos.royal_square(Color::Black)];
        let (sign, edge, near_king) = self.mop_up(sums.material, royals);
        score += sign * (self.mop_edge * edge + self.mop_near * near_king);
        let s = if pos.side_to_move() == Color::White { score } else { -score };
        s + self.tempo
    }

    /// [`EvalTables::evaluate`] with the sums over the pieces given
    /// (`sums` must be [`EvalTables::piece_sums`] of `pos`).
    pub fn evaluate_with(&self, pos: &Position, sums: &PieceSums) -> i32 {
        self.evaluate_one_pass(pos, sums, None)
    }

    /// [`EvalTables::evaluate_with`], with the pawn-structure terms from
    /// (and into) a search's [`PawnCache`].
    ///
    /// ```
    /// use chimera::position::Position;
    /// use chimera_engine::eval::{EvalTables, PawnCache};
    /// use std::sync::Arc;
    ///
    /// let v = Arc::new(chimera::builtin::variant("chess").unwrap());
    /// let ev = EvalTables::new(&v);
    /// let pos = Position::start(v.clone());
    /// let sums = ev.piece_sums(&pos);
    /// let mut pawns = PawnCache::default();
    /// // the first time computed, the second time from the cache
    /// assert_eq!(ev.evaluate_cached(&pos, &sums, &mut pawns), ev.evaluate(&pos));
    /// assert_eq!(ev.evaluate_cached(&pos, &sums, &mut pawns), ev.evaluate(&pos));
    /// ```
    pub fn evaluate_cached(&self, pos: &Position, sums: &PieceSums, pawns: &mut PawnCache) -> i32 {
        self.evaluate_one_pass(pos, sums, Some(pawns))
    }

    /// The one-pass evaluation, instantiated by whether the walks mark
    /// attacks and defences (a pieces-en-prise weight is not 0).
    #[inline(always)]
    fn evaluate_one_pass(&self, pos: &Position, sums: &PieceSums, pawns: Option<&mut PawnCache>) -> i32 {
        if self.en_prise_mover != 0 || self.en_prise_other != 0 {
            self.evaluate_core::<true>(pos, sums, pawns)
        } else {
            self.evaluate_core::<false>(pos, sums, pawns)
        }
    }

    /// The one-pass evaluation; `MARKS` is whether the walks mark attacks
    /// and defences, a constant so that a variant without the
    /// pieces-en-prise terms walks as it did before them (no marks, no
    /// defence callback).
    #[inline(always)]
    fn evaluate_core<const MARKS: bool>(&self, pos: &Position, sums: &PieceSums, pawns: Option<&mut PawnCache>) -> i32 {
        // the pawn terms of this pawn configuration, when a cache has them
        let cached = match pawns.as_deref() {
            Some(c) if self.pawn_structure => c.get(sums.pawn_key),
            _ => None,
        };
        let count_pawns = self.pawn_structure && cached.is_none();
        let mut score = sums.score;
        // the terms scaled by the endgame's share: the royal pieces'
        // centralisation and the endgame values
        let mut endgame = sums.endgame;
        let mut phase = sums.phase;
        let material = sums.material;
        let royals = [pos.royal_square(Color::White), pos.royal_square(Color::Black)];
        let zone1 = royals.map(|k| k.map_or(&NO_SQUARES, |k| &self.zone1[k.index()]));
        let zone2 = royals.map(|k| k.map_or(&NO_SQUARES, |k| &self.zone2[k.index()]));
        let mut hits = [0i32; 2];
        // per colour: enemy attackers within two steps of its royal piece
        let mut near = [0i32; 2];
        // per colour and file: pawns, lowest and highest rank
        let mut count = [[0u8; MAX_FILES]; 2];
        let mut lo = [[i32::MAX; MAX_FILES]; 2];
        let mut hi = [[i32::MIN; MAX_FILES]; 2];
        let tables = &pos.variant().tables;
        let with_hits = self.king_attack != 0 || self.king_danger != 0;
        let with_threats = self.threat != 0;
        let mut marks = [Marks::NONE; 2];
        for (ci, sign) in [(0usize, 1i32), (1, -1)] {
            let c = Color::from_index(ci);
            let them = 1 - ci;
            let (mut mob, mut threats) = (0, 0);
            let occ = &self.walk_occ[ci];
            let mk = &mut marks[ci];
            for &sq in pos.pieces(c) {
                let code = pos.piece_at(sq);
                let t = &self.terms[code.index()];
                if t.flags & (MOBILE | ATTACKER | PAWN) == 0 && !MARKS {
                    continue;
                }
                if t.flags & MOBILE != 0 {
                    let (cells, _) = tables.list(code, false, sq);
                    let mut n = 0;
                    if with_hits || with_threats || MARKS {
                        let zone = zone1[them];
                        let (mut h, mut thr) = (0, 0);
                        chimera::walk::reach_guarding(
                            cells,
                            sq,
                            |to| occ[pos.piece_at(to).index()],
                            |to, capture| {
                                n += 1;
                                h += has(zone, to) as i32;
                                if capture {
                                    let more = self.terms[pos.piece_at(to).index()].base > t.base;
                                    thr += more as i32;
                                    mark_capture(MARKS, &mut mk.attacked, &mut mk.lower, to, more);
                                }
                            },
                            |to| {
                                if MARKS {
                                    add(&mut mk.defended, to)
                                }
                            },
                        );
                        hits[ci] += h;
                        threats += thr;
                    } else {
                        chimera::walk::reach(cells, sq, |to| occ[pos.piece_at(to).index()], |_, _| n += 1);
                    }
                    mob += t.mob_weight * (n - t.mob_avg);
                } else if (t.flags & PAWN != 0 && with_threats) || MARKS {
                    // the captures of a piece whose mobility does not count
                    // (a pawn, a royal piece): threats and marks
                    let (cells, _) = tables.list(code, false, sq);
                    let royal = t.flags & ROYAL != 0;
                    let mut thr = 0;
                    chimera::walk::reach_guarding(
                        cells,
                        sq,
                        |to| occ[pos.piece_at(to).index()],
                        |to, capture| {
                            if capture {
                                let more = !royal && self.terms[pos.piece_at(to).index()].base > t.base;
                                thr += more as i32;
                                mark_capture(MARKS, &mut mk.attacked, &mut mk.lower, to, more);
                            }
                        },
                        |to| {
                            if MARKS {
                                add(&mut mk.defended, to)
                            }
                        },
                    );
                    threats += thr;
                }
                if t.flags & ATTACKER != 0 && has(zone2[them], sq) {
                    near[them] += 1;
                }
                if t.flags & PAWN != 0 && count_pawns {
                    let (f, r) = self.coords[sq.index()];
                    let f = f as usize;
                    count[ci][f] += 1;
                    lo[ci][f] = lo[ci][f].min(r);
                    hi[ci][f] = hi[ci][f].max(r);
                }
            }
            score += sign * (mob + self.threat * threats);
            let (value, weight) = self.hand_terms(pos, c);
            score += sign * value;
            phase += weight;
        }
        let opening = phase.min(self.phase_total);
        if self.pawn_structure {
            let (structure, passed_end) = cached.unwrap_or_else(|| {
                let terms = self.pawn_terms(pos, &count, &lo, &hi);
                if let Some(c) = pawns {
                    c.put(sums.pawn_key, terms);
                }
                terms
            });
            score += structure;
            endgame += passed_end;
        }
        // royal pieces centralise and the endgame values grow as material comes off
        score += endgame * (self.phase_total - opening) / self.phase_total;
        let (sign, edge, near_king) = self.mop_up(material, royals);
        score += sign * (self.mop_edge * edge + self.mop_near * near_king);
        if opening != 0 {
            let mut safety = 0;
            for (ci, sign) in [(0usize, 1i32), (1, -1)] {
                let Some(k) = royals[ci] else { continue };
                let c = Color::from_index(ci);
                let occ_them = &self.walk_occ[1 - ci];
                // a friend next to the royal piece is an enemy to the other side's walks
                let shield = self.ring[k.index()]
                    .iter()
                    .filter(|&&t| occ_them[pos.piece_at(t).index()] == Occupant::Foe)
                    .count() as i32;
                let drops = if self.drops { self.drop_threats(pos, c, k) } else { 0 };
                let danger = hits[1 - ci] + near[ci] + 2 * drops;
                safety += sign
                    * (self.shield * shield
                        - self.tropism * near[ci]
                        - self.king_attack * hits[1 - ci]
                        - self.king_drop * drops
                        - self.king_danger * danger * danger / 16);
            }
            score += safety * opening / self.phase_total;
        }
        let s = if pos.side_to_move() == Color::White { score } else { -score };
        let mut en_prise = 0;
        if MARKS {
            let stm = pos.side_to_move().index();
            let value = |p: Code| {
                let t = &self.terms[p.index()];
                if t.flags & ROYAL != 0 {
                    -1
                } else {
                    t.base
                }
            };
            let (mover, _) = count_en_prise(pos, value, &marks[stm], &marks[1 - stm]);
            let (_, other) = count_en_prise(pos, value, &marks[1 - stm], &marks[stm]);
            en_prise = self.en_prise_other * other / 100 - self.en_prise_mover * mover;
        }
        s + self.tempo + en_prise
    }

    /// The value of `c`'s hand (White's or Black's own point of view) and its
    /// phase weight.
    #[inline]
    fn hand_terms(&self, pos: &Position, c: Color) -> (i32, i32) {
        let (mut value, mut weight) = (0, 0);
        for t in 0..self.ntypes {
            let n = pos.pocket(c, t) as i32;
            if n != 0 {
                let code = code_of(t, c).index();
                value += n * self.hand[code];
                weight += n * self.phase_weight[code];
            }
        }
        (value, weight)
    }

    /// The enemy pieces in hand (at most two of a type) that could be
    /// dropped on an empty square next to `c`'s royal piece on `k` and attack
    /// it from there (the drop count of [`EvalTables::king_counts`]).
    fn drop_threats(&self, pos: &Position, c: Color, k: Square) -> i32 {
        let ring = &self.ring[k.index()];
        let (kf, kr) = self.coords[k.index()];
        let them = c.flip();
        let mut drops = 0;
        for t in 0..self.ntypes {
            let n = pos.pocket(them, t) as i32;
            if n == 0 {
                continue;
            }
            let code = code_of(t, them).index();
            let can = ring.iter().any(|&s| {
                let (sf, sr) = self.coords[s.index()];
                pos.piece_at(s) == Code::EMPTY
                    && self.adj_attack[code * self.nsq + s.index()] & dir_bit(kf - sf, kr - sr) != 0
            });
            if can {
                drops += n.min(2);
            }
        }
        drops
    }

    /// The pawn-structure terms (White's point of view) from the pawns per
    /// colour and file (`count`, lowest and highest rank): doubled and
    /// isolated pawns, and passed pawns (the pawns are walked once more);
    /// then, apart, the passed pawns' endgame bonus (before the phase scales it).
    fn pawn_terms(
        &self,
        pos: &Position,
        count: &[[u8; MAX_FILES]; 2],
        lo: &[[i32; MAX_FILES]; 2],
        hi: &[[i32; MAX_FILES]; 2],
    ) -> (i32, i32) {
        let files = (self.span.0 + 1) as usize;
        let (mut s, mut end) = (0, 0);
        for (ci, sign) in [(0usize, 1i32), (1, -1)] {
            let them = 1 - ci;
            let (mut doubled, mut isolated) = (0, 0);
            for f in 0..files {
                doubled += (count[ci][f] as i32 - 1).max(0);
                let left = f > 0 && count[ci][f - 1] > 0;
                let right = f + 1 < files && count[ci][f + 1] > 0;
                if !left && !right {
                    isolated += count[ci][f] as i32;
                }
            }
            s -= sign * (self.doubled * doubled + self.isolated * isolated);
            for &sq in pos.pieces(Color::from_index(ci)) {
                let code = pos.piece_at(sq).index();
                if self.terms[code].flags & PAWN == 0 {
                    continue;
                }
                let (f, r) = self.coords[sq.index()];
                let f = f as usize;
                let lo_f = f.saturating_sub(1);
                let hi_f = (f + 1).min(files - 1);
                let free = (lo_f..=hi_f).all(|g| if ci == 0 { hi[them][g] <= r } else { lo[them][g] >= r });
                if free {
                    s += sign * self.passed[code * self.nsq + sq.index()];
                    end += sign * self.passed_end[code * self.nsq + sq.index()];
                }
            }
        }
        (s, end)
    }

    /// The evaluation computed term by term, as it is defined: the
    /// reference [`EvalTables::evaluate`] is tested against.
    #[cfg(test)]
    fn evaluate_by_terms(&self, pos: &Position) -> i32 {
        let nsq = self.nsq;
        let mut score = 0i32;
        // the terms scaled by the endgame's share: the royal pieces'
        // centralisation and the endgame values
        let mut endgame = 0i32;
        let mut phase = 0i32;
        let mut material = [0i32; 2];
        let royals = [pos.royal_square(Color::White), pos.royal_square(Color::Black)];
        let mut hits = [0i32; 2];
        for (c, sign) in [(Color::White, 1i32), (Color::Black, -1i32)] {
            let mut mob = 0;
            let ek = royals[c.flip().index()];
            for &sq in pos.pieces(c) {
                let code = pos.piece_at(sq).index();
                let i = code * nsq + sq.index();
                score += sign * (self.value[code] + self.psq[i][0]);
                endgame += sign * (self.psq[i][1] + self.terms[code].end);
                phase += self.phase_weight[code];
                material[c.index()] += self.base_value[code];
                if let Some(avg) = self.mob_avg[code] {
                    // the moves next to the royal piece are counted only when they weigh
                    let (n, h) = if self.king_attack != 0 || self.king_danger != 0 {
                        self.mobility(pos, Code::new(code), sq, ek)
                    } else {
                        (self.moves(pos, Code::new(code), sq), 0)
                    };
                    mob += self.terms[code].mob_weight * (n - avg);
                    hits[c.index()] += h;
                }
                if self.threat != 0 {
                    score += sign * self.threat * self.threats(pos, Code::new(code), sq);
                }
            }
            score += sign * mob;
            let (value, weight) = self.hand_terms(pos, c);
            score += sign * value;
            phase += weight;
        }
        let mut passed = 0;
        let structure = self.pawns(pos, |c, i| {
            let sign = if c == Color::White { 1 } else { -1 };
            passed += sign * self.passed[i];
            endgame += sign * self.passed_end[i];
        });
        score += passed;
        // royal pieces centralise and the endgame values grow as material comes off
        let opening = phase.min(self.phase_total);
        score += endgame * (self.phase_total - opening) / self.phase_total;
        let (sign, edge, near) = self.mop_up(material, royals);
        score += sign * (self.mop_edge * edge + self.mop_near * near);
        score += self.king_safety(pos, royals, hits) * opening / self.phase_total;
        score -= self.doubled * (structure[0].0 - structure[1].0) + self.isolated * (structure[0].1 - structure[1].1);
        let s = if pos.side_to_move() == Color::White { score } else { -score };
        let stm = pos.side_to_move().index();
        let en_prise = self.en_prise(pos);
        s + self.tempo + self.en_prise_other * en_prise[1 - stm].1 / 100 - self.en_prise_mover * en_prise[stm].0
    }

    /// The evaluation of `pos` term by term, as text for a person: one line
    /// per weight group that contributes (a scalar such as `tempo`, a piece
    /// type's `value.X`, `mobility.X`, ..., or its square weights
    /// `square.X`), largest first, each with its contribution in centipawns
    /// from White's side (feature × weight); then their sum and the
    /// evaluation the search uses, from the side to move's side. The sum
    /// and the evaluation differ only by the tables' rounding.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use chimera::{builtin, position::Position};
    /// use chimera_engine::eval::EvalTables;
    /// let v = Arc::new(builtin::variant("chess").unwrap());
    /// let ev = EvalTables::new(&v);
    /// let pos = Position::from_fen(v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    /// let text = ev.explain(&pos);
    /// assert!(text.lines().any(|l| l.starts_with("value.r")));
    /// assert!(text.lines().last().unwrap().starts_with("evaluation"));
    /// ```
    pub fn explain(&self, pos: &Position) -> String {
        let v = pos.variant();
        let names = Params::names(v);
        let f = self.features(pos);
        let squares = NSCALARS + PER_TYPE.len() * self.ntypes;
        // the square weights grouped per type, the rest one name each
        let mut groups: Vec<(String, f64)> = Vec::new();
        for (i, (x, w)) in f.iter().zip(&self.params.w).enumerate() {
            let c = x * w;
            if c == 0.0 {
                continue;
            }
            let name = if i >= squares {
                // (the endgame squares' block follows the squares')
                let block = (i - squares) / self.nsq;
                let tok = params::piece_token(v, block % self.ntypes);
                format!("{}.{tok}", if block < self.ntypes { "square" } else { "square_end" })
            } else {
                names[i].clone()
            };
            match groups.iter_mut().find(|g| g.0 == name) {
                Some(g) => g.1 += c,
                None => groups.push((name, c)),
            }
        }
        groups.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
        let width = groups.iter().map(|g| g.0.len()).max().unwrap_or(0).max(10);
        let mut out = String::new();
        let mut sum = 0.0;
        for (name, c) in &groups {
            sum += c;
            out.push_str(&format!("{name:<width$} {c:+9.1}\n"));
        }
        let stm = if pos.side_to_move() == Color::White { "White" } else { "Black" };
        out.push_str(&format!("{:<width$} {sum:+9.1} (White's side)\n", "sum"));
        out.push_str(&format!("{:<width$} {:+9} ({stm}, to move)\n", "evaluation", self.evaluate(pos)));
        out
    }

    /// The terms of the evaluation of `pos` as a vector, White's point of
    /// view, one entry per weight of [`Params`]: the evaluation from White's
    /// side is, up to the rounding of the tables, the dot product of this
    /// vector with the weights. (The phase and the mop-up's material
    /// condition use the derived values, whatever the weights.)
    pub fn features(&self, pos: &Position) -> Vec<f64> {
        let nsq = self.nsq;
        let mut f = vec![0.0f64; self.params.w.len()];
        let idx = Params::idx;
        let mut phase = 0i32;
        let mut material = [0i32; 2];
        let royals = [pos.royal_square(Color::White), pos.royal_square(Color::Black)];
        let mut hits = [0i32; 2];
        let mut royal_centre = vec![0.0f64; self.ntypes];
        // per type: pieces on the board (White's minus Black's), for the endgame values
        let mut on_board = vec![0.0f64; self.ntypes];
        // the endgame square weights' entries, scaled below
        let mut end_squares: Vec<(usize, f64)> = Vec::new();
        f[params::TEMPO] = if pos.side_to_move() == Color::White { 1.0 } else { -1.0 };
        for (c, sign) in [(Color::White, 1.0f64), (Color::Black, -1.0f64)] {
            let ek = royals[c.flip().index()];
            for &sq in pos.pieces(c) {
                let code = pos.piece_at(sq).index();
                let t = type_of(Code::new(code));
                let i = code * nsq + sq.index();
                phase += self.phase_weight[code];
                material[c.index()] += self.base_value[code];
                if self.royal[code] {
                    royal_centre[t] += sign * self.raw_centre[i] as f64;
                } else {
                    f[idx(t, params::VALUE)] += sign;
                    on_board[t] += sign;
                    f[idx(t, params::CENTRE)] += sign * self.raw_centre[i] as f64;
                }
                f[params::PROMO] += sign * self.raw_promo[i] as f64;
                let ws = if c == Color::White { sq } else { pos.geometry().flip(sq) };
                f[self.params.square_idx(t, ws.index())] += sign;
                end_squares.push((self.params.square_end_idx(t, ws.index()), sign));
                f[idx(t, params::ADVANCE)] += sign * self.prog[i] as f64;
                if let Some(avg) = self.mob_avg[code] {
                    let (n, h) = self.mobility(pos, Code::new(code), sq, ek);
                    f[idx(t, params::MOBILITY)] += sign * (n - avg) as f64;
                    hits[c.index()] += h;
                }
                f[params::THREAT] += sign * self.threats(pos, Code::new(code), sq) as f64;
            }
            for t in 0..self.ntypes {
                let n = pos.pocket(c, t) as i32;
                if n != 0 {
                    f[idx(t, params::HAND)] += sign * n as f64;
                    phase += n * self.phase_weight[code_of(t, c).index()];
                }
            }
        }
        let opening = phase.min(self.phase_total) as f64 / self.phase_total as f64;
        for (t, x) in royal_centre.iter().enumerate() {
            f[idx(t, params::CENTRE)] += x * (1.0 - opening);
        }
        for (t, x) in on_board.iter().enumerate() {
            f[idx(t, params::END)] += x * (1.0 - opening);
        }
        for (i, sign) in end_squares {
            f[i] += sign * (1.0 - opening);
        }
        let (sign, edge, near) = self.mop_up(material, royals);
        f[params::MOP_EDGE] += (sign * edge) as f64;
        f[params::MOP_NEAR] += (sign * near) as f64;
        for (c, sign) in [(Color::White, 1.0f64), (Color::Black, -1.0f64)] {
            let Some(k) = royals[c.index()] else { continue };
            let kc = self.king_counts(pos, c, k);
            let s = sign * opening;
            f[params::SHIELD] += s * kc.shield as f64;
            f[params::TROPISM] -= s * kc.near as f64;
            f[params::KING_ATTACK] -= s * hits[c.flip().index()] as f64;
            f[params::KING_DROP] -= s * kc.drops as f64;
            let danger = (hits[c.flip().index()] + kc.near + 2 * kc.drops) as f64;
            f[params::KING_DANGER] -= s * danger * danger / 16.0;
        }
        let mut passed = [0.0f64; 2];
        let mut passed_rank = [0.0f64; 2];
        let structure = self.pawns(pos, |c, i| {
            passed[c.index()] += 1.0;
            passed_rank[c.index()] += (self.prog[i] as f64).powi(2);
        });
        f[params::PASSED] += passed[0] - passed[1];
        f[params::PASSED_RANK] += passed_rank[0] - passed_rank[1];
        f[params::PASSED_END] += (passed[0] - passed[1]) * (1.0 - opening);
        f[params::PASSED_RANK_END] += (passed_rank[0] - passed_rank[1]) * (1.0 - opening);
        f[params::DOUBLED] -= (structure[0].0 - structure[1].0) as f64;
        f[params::ISOLATED] -= (structure[0].1 - structure[1].1) as f64;
        // the side to move's terms, from White's side
        let stm = pos.side_to_move().index();
        let en_prise = self.en_prise(pos);
        f[params::EN_PRISE_MOVER] = -f[params::TEMPO] * en_prise[stm].0 as f64;
        f[params::EN_PRISE_OTHER] = f[params::TEMPO] * en_prise[1 - stm].1 as f64 / 100.0;
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{
        DOUBLED, EN_PRISE_MOVER, EN_PRISE_OTHER, ISOLATED, KING_ATTACK, KING_DANGER, KING_DROP, PASSED, PASSED_END,
        PASSED_RANK, PASSED_RANK_END, THREAT,
    };
    use chimera::builtin;

    fn tables(name: &str) -> (Arc<Variant>, EvalTables) {
        let v = Arc::new(builtin::variant(name).unwrap());
        let t = EvalTables::untuned(&v);
        (v, t)
    }

    fn val(v: &Variant, t: &EvalTables, letter: char) -> i32 {
        t.type_value(v.def.piece_by_letter(letter).unwrap())
    }

    /// A legal move of `pos` picked by a xorshift step of `seed`; `None` when there is none.
    fn random_move(pos: &mut Position, seed: &mut u64) -> Option<chimera::moves::Move> {
        let list = pos.legal_moves();
        if list.is_empty() {
            return None;
        }
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        Some(list[*seed as usize % list.len()])
    }

    /// Along pseudo-random games of every built-in variant the build can
    /// load, the sums kept move by move over each move's footprint are the
    /// sums added up again, and so is the evaluation.
    #[test]
    fn sums_kept_move_by_move_are_the_sums_and_the_pawn_cache_holds() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut moves = 0;
        for name in builtin::names() {
            let Ok(v) = builtin::variant(name) else { continue };
            let v = Arc::new(v);
            let t = EvalTables::new(&v);
            // one pawn cache along both games: configurations met again come from it
            let mut pawns = PawnCache::default();
            for _game in 0..2 {
                let mut pos = Position::start(v.clone());
                let mut sums = t.piece_sums(&pos);
                for _ply in 0..60 {
                    let Some(m) = random_move(&mut pos, &mut seed) else { break };
                    let fp = pos.footprint(m);
                    let before: Vec<Code> = fp.as_slice().iter().map(|&s| pos.piece_at(s)).collect();
                    pos.make(m);
                    for (&sq, &old) in fp.as_slice().iter().zip(&before) {
                        t.update_sums(&mut sums, sq, old, pos.piece_at(sq));
                    }
                    assert_eq!(sums, t.piece_sums(&pos), "{name}: {}", pos.fen());
                    assert_eq!(t.evaluate_with(&pos, &sums), t.evaluate(&pos), "{name}: {}", pos.fen());
                    for _twice in 0..2 {
                        let e = t.evaluate_cached(&pos, &sums, &mut pawns);
                        assert_eq!(e, t.evaluate(&pos), "{name}: {}", pos.fen());
                    }
                    moves += 1;
                }
            }
        }
        assert!(moves > 1_000, "only {moves} moves played");
    }

    /// With every term that needs the pieces' walks or the pawn files set
    /// to 0, the lazy estimate is the evaluation, along pseudo-random games
    /// (hands, promotions, mop-up and the phase included).
    #[test]
    fn the_estimate_is_the_evaluation_without_the_walked_terms() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for name in ["chess", "crazyhouse", "shogi", "xiangqi", "janggi", "makruk", "capablanca"] {
            let v = Arc::new(builtin::variant(name).unwrap());
            let mut p = EvalTables::default_params(&v);
            if let Some(text) = params::builtin_weights(name) {
                p.apply_text(&v, text).unwrap();
            }
            for k in [
                params::SHIELD,
                params::TROPISM,
                KING_ATTACK,
                KING_DROP,
                KING_DANGER,
                DOUBLED,
                ISOLATED,
                PASSED,
                PASSED_RANK,
                PASSED_END,
                PASSED_RANK_END,
                THREAT,
                EN_PRISE_MOVER,
                EN_PRISE_OTHER,
            ] {
                p.w[k] = 0.0;
            }
            for t in 0..v.def.pieces.len() {
                p.w[Params::idx(t, params::MOBILITY)] = 0.0;
            }
            let t = EvalTables::with_params(&v, &p).unwrap();
            let full = EvalTables::new(&v);
            let mut differs = false;
            let mut pos = Position::start(v.clone());
            for _ply in 0..120 {
                let sums = t.piece_sums(&pos);
                assert_eq!(t.estimate_with(&pos, &sums), t.evaluate(&pos), "{name}: {}", pos.fen());
                differs |= full.estimate_with(&pos, &full.piece_sums(&pos)) != full.evaluate(&pos);
                checked += 1;
                let Some(m) = random_move(&mut pos, &mut seed) else { break };
                pos.make(m);
            }
            // with the weights in use, the walked terms count
            assert!(differs, "{name}: the estimate never differs from the evaluation");
        }
        assert!(checked > 500);
    }

    #[test]
    fn the_explanation_adds_up_to_the_evaluation() {
        // fitted weights (chess, with square weights in shogi) and derived ones
        for (name, fen) in [
            ("chess", "r1b1k2r/p3bpp1/1qp5/7p/4pB1P/P4P2/1P1Q2P1/R3KB1R w KQkq - 0 15"),
            ("shogi", "ln1g3nl/1r3kg2/p1sppp1pp/2p3p2/1p7/2P2S3/PPSPPPPPP/2G4R1/LN2KG1NL[BPbp] b - - 0 1"),
            ("capablanca", "r1abqkbcnr/pppppppppp/2n7/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq - 0 2"),
        ] {
            let v = Arc::new(builtin::variant(name).unwrap());
            let t = EvalTables::new(&v);
            let pos = Position::from_fen(v.clone(), fen).unwrap();
            let text = t.explain(&pos);
            let value = |l: &str| l.split_whitespace().nth(1).unwrap().parse::<f64>().unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let (terms, tail) = lines.split_at(lines.len() - 2);
            assert!(terms.len() >= 3, "{name}: {text}");
            // largest first, and the sum line is the terms' sum
            let values: Vec<f64> = terms.iter().map(|l| value(l)).collect();
            assert!(values.windows(2).all(|w| w[0].abs() >= w[1].abs()), "{name}: {text}");
            let sum = value(tail[0]);
            assert!((sum - values.iter().sum::<f64>()).abs() < 0.5, "{name}: {text}");
            // the sum is White's side of the evaluation, up to the tables' rounding
            let e = t.evaluate(&pos) as f64;
            assert_eq!(value(tail[1]), e);
            let white = if pos.side_to_move() == Color::White { e } else { -e };
            let pieces = (pos.pieces(Color::White).len() + pos.pieces(Color::Black).len()) as f64;
            assert!((white - sum).abs() <= 0.5 * pieces + 4.0, "{name}: {text}");
        }
    }

    #[test]
    fn chess_values_are_ordered() {
        let (v, t) = tables("chess");
        let (p, n, b, r, q, k) = (
            val(&v, &t, 'p'),
            val(&v, &t, 'n'),
            val(&v, &t, 'b'),
            val(&v, &t, 'r'),
            val(&v, &t, 'q'),
            val(&v, &t, 'k'),
        );
        assert!(p < n && n < r && r < q, "p {p} n {n} b {b} r {r} q {q}");
        assert!(b > p && b < r, "b {b}");
        assert_eq!(k, 0, "royal pieces have no material value");
        // roughly textbook proportions
        assert!((250..400).contains(&n), "knight {n}");
        assert!(q > 2 * n + 100, "queen {q} vs knight {n}");
    }

    #[test]
    fn xiangqi_chariot_beats_horse_and_cannon() {
        let (v, t) = tables("xiangqi");
        let (r, n, c, a, p) =
            (val(&v, &t, 'r'), val(&v, &t, 'n'), val(&v, &t, 'c'), val(&v, &t, 'a'), val(&v, &t, 'p'));
        assert!(r > n && r > c, "chariot {r} horse {n} cannon {c}");
        assert!(a < n && p < n, "advisor {a} soldier {p} horse {n}");
    }

    #[test]
    fn a_value_in_the_definition_overrides_the_derived_one() {
        let mut def = builtin::variant("xiangqi").unwrap().def.clone();
        let c = def.piece_by_letter('c').unwrap();
        let derived = tables("xiangqi").1.type_value(c);
        def.pieces[c].value = Some(350);
        let v = Arc::new(Variant::new(def).unwrap());
        let t = EvalTables::untuned(&v);
        assert_ne!(derived, 350);
        assert_eq!(t.type_value(c), 350);
        // the others keep their derived values
        let r = v.def.piece_by_letter('r').unwrap();
        assert_eq!(t.type_value(r), tables("xiangqi").1.type_value(r));
    }

    /// The one-pass evaluation gives the value of the term-by-term one, in
    /// every built-in variant, along games of pseudo-random legal moves
    /// (captures, promotions, drops and endings come up).
    #[test]
    fn the_one_pass_evaluation_is_the_term_by_term_one() {
        let mut checked = 0;
        for name in builtin::playable_names() {
            let v = Arc::new(builtin::variant(name).unwrap());
            let t = EvalTables::new(&v);
            // the weights that switch on the walks' optional counts, one at a time and together
            let mut others = Vec::new();
            for set in [
                &[(THREAT, 9.0)][..],
                &[(KING_ATTACK, 5.0)],
                &[(THREAT, 9.0), (KING_ATTACK, 5.0)],
                &[(KING_DANGER, 7.0)],
                &[(EN_PRISE_MOVER, 40.0)],
                &[(EN_PRISE_OTHER, 15.0)],
                &[(THREAT, 9.0), (EN_PRISE_MOVER, 40.0), (EN_PRISE_OTHER, 15.0), (KING_DANGER, 7.0)],
            ] {
                let mut p = EvalTables::default_params(&v);
                for &(i, x) in set {
                    p.w[i] = x;
                }
                others.push(EvalTables::with_params(&v, &p).unwrap());
            }
            // the endgame's values and passed-pawn bonuses, which the one
            // pass gathers apart from the terms they sit beside
            let mut p = EvalTables::default_params(&v);
            p.w[PASSED] = 15.0;
            p.w[PASSED_END] = 25.0;
            p.w[PASSED_RANK_END] = 70.0;
            for ty in 0..v.def.pieces.len() {
                p.w[Params::idx(ty, params::END)] = 13.0 * ty as f64 - 20.0;
            }
            others.push(EvalTables::with_params(&v, &p).unwrap());
            let mut rng = Lcg(0xe7a1 + name.len() as u64);
            for game in 0..3 {
                let mut pos = Position::start(v.clone());
                for ply in 0..(40 + 40 * game) {
                    assert_eq!(t.evaluate(&pos), t.evaluate_by_terms(&pos), "{name}: {}", pos.fen());
                    for o in &others {
                        assert_eq!(o.evaluate(&pos), o.evaluate_by_terms(&pos), "{name}: {}", pos.fen());
                    }
                    checked += 1;
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.ended_by_rule() {
                        break;
                    }
                    // captures first half of the time, so that material comes off
                    let caps: Vec<_> = moves.iter().copied().filter(|&m| pos.piece_at(m.to()) != Code::EMPTY).collect();
                    let pool = if !caps.is_empty() && (rng.next() + ply).is_multiple_of(2) { &caps } else { &moves };
                    let m = pool[rng.next() as usize % pool.len()];
                    pos.make(m);
                }
            }
        }
        assert!(checked > 1000, "{checked} positions");
    }

    #[test]
    fn start_positions_are_balanced() {
        for name in ["chess", "xiangqi", "shogi", "janggi", "capablanca", "mightylion", "makruk", "crazyhouse"] {
            let (v, t) = tables(name);
            let pos = Position::start(v);
            assert_eq!(t.evaluate(&pos), t.tempo, "{name}: the start position is symmetric");
        }
    }

    /// The position with colours swapped and the board mirrored evaluates the same
    /// for the side to move.
    fn mirrored(pos: &Position) -> String {
        let fen = pos.fen();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (board, pocket) = match fields[0].find('[') {
            Some(i) => (&fields[0][..i], &fields[0][i..]),
            None => (fields[0], ""),
        };
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect()
        };
        let ranks: Vec<String> = board.split('/').rev().map(swap).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        format!("{}{} {} - - 0 1", ranks.join("/"), swap(pocket), side)
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let cases = [
            ("chess", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4"),
            ("chess", "8/5k2/8/3P4/8/8/1K6/8 w - - 0 1"),
            ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"),
            ("crazyhouse", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pn] w - - 0 1"),
        ];
        for (name, fen) in cases {
            let v = Arc::new(builtin::variant(name).unwrap());
            let t = EvalTables::untuned(&v);
            let pos = Position::from_fen(v.clone(), fen).unwrap();
            let m = Position::from_fen(v, &mirrored(&pos)).unwrap();
            assert_eq!(t.evaluate(&pos), t.evaluate(&m), "{name} {fen} vs {}", mirrored(&pos));
        }
    }

    #[test]
    fn material_and_advanced_pawns_count() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let t = EvalTables::untuned(&v);
        let up_a_knight = Position::from_fen(v.clone(), "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1").unwrap();
        assert!(t.evaluate(&up_a_knight) > 200);
        let far = Position::from_fen(v.clone(), "4k3/8/8/8/8/8/P7/4K3 w - - 0 1").unwrap();
        let near = Position::from_fen(v, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(t.evaluate(&near) > t.evaluate(&far) + 50, "a pawn near promotion is worth more");
    }

    /// The evaluation of a FEN, read permissively (an endgame diagram may
    /// leave the side not to move in check).
    fn eval_of(v: &Arc<Variant>, t: &EvalTables, fen: &str) -> i32 {
        t.evaluate(&Position::from_fen_permissive(v.clone(), fen).unwrap())
    }

    #[test]
    fn a_piece_with_moves_beats_a_boxed_in_one() {
        let (v, t) = tables("makruk");
        // the same rook on the same square, free or walled in by its own pieces
        let free = eval_of(&v, &t, "4k3/8/8/8/8/8/8/R2K4 w - - 0 1");
        let boxed = eval_of(&v, &t, "4k3/8/8/8/8/8/PP6/RN1K4 w - - 0 1");
        let boxed_material = t.value(code_of(v.def.piece_by_letter('p').unwrap(), Color::White)) * 2
            + t.value(code_of(v.def.piece_by_letter('n').unwrap(), Color::White));
        assert!(free > boxed - boxed_material + 20, "free {free}, boxed {boxed}");
    }

    #[test]
    fn the_stronger_side_drives_the_bare_royal_to_the_edge() {
        let (v, t) = tables("chess");
        let centre = eval_of(&v, &t, "8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
        let corner = eval_of(&v, &t, "7k/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert!(corner > centre + 50, "corner {corner}, centre {centre}");
        // and brings its own royal piece close
        let far = eval_of(&v, &t, "7k/8/8/8/8/8/8/K6R w - - 0 1");
        let near = eval_of(&v, &t, "7k/8/5K2/8/8/8/8/7R w - - 0 1");
        assert!(near > far, "near {near}, far {far}");
        // not while material is level
        let level = eval_of(&v, &t, "7k/8/8/8/8/8/8/4K3 w - - 0 1");
        let level_centre = eval_of(&v, &t, "8/8/8/4k3/8/8/8/4K3 w - - 0 1");
        assert!(level < level_centre + 50, "bare royals: the centre is better for Black: {level} {level_centre}");
    }

    #[test]
    fn a_sheltered_royal_piece_is_safer() {
        let (v, t) = tables("chess");
        let safety = |fen: &str| {
            let pos = Position::from_fen(v.clone(), fen).unwrap();
            let royal = |c: Color| pos.pieces(c).iter().copied().find(|&s| t.royal[pos.piece_at(s).index()]);
            t.king_safety(&pos, [royal(Color::White), royal(Color::Black)], [0, 0])
        };
        // White's king: f1 rook, f2 g2 h2 pawns around it, or only the rook
        let sheltered = safety("rnbqkbnr/pppppppp/8/8/8/8/5PPP/RNBQ1RK1 w kq - 0 1");
        let exposed = safety("rnbqkbnr/pppppppp/8/8/8/8/PPP5/RNBQ1RK1 w kq - 0 1");
        assert_eq!(sheltered - exposed, 3 * t.shield);
        // an enemy knight two steps from the king counts against it, a pawn does not
        let knight_near = safety("rnbqkb1r/pppppppp/8/8/8/5n2/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let knight_far = safety("rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(knight_far - knight_near, t.tropism);
        let pawn_near = safety("rnbqkbnr/ppppppp1/8/8/8/5p2/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let pawn_far = safety("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(pawn_far - pawn_near, 0);
    }

    #[test]
    fn pieces_in_hand_are_valued() {
        let v = Arc::new(builtin::variant("shogi").unwrap());
        let t = EvalTables::untuned(&v);
        let start = Position::start(v.clone());
        let fen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[R] w - - 0 1";
        let with_rook = Position::from_fen(v, fen).unwrap();
        assert!(t.evaluate(&with_rook) > t.evaluate(&start) + 500);
    }

    /// The evaluation from White's side is the dot product of the features
    /// with the weights, up to the rounding of the tables (half a centipawn
    /// per piece and per phase-scaled term), for the default weights and for
    /// weights that switch every new term on.
    #[test]
    fn the_evaluation_is_the_features_dot_the_weights() {
        let cases = [
            ("chess", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
            ("chess", "6k1/pp3ppp/8/3P4/1P6/8/5PPP/6K1 b - - 0 1"),
            ("chess", "r4rk1/ppp2ppp/8/3q4/8/2N5/PPP2PPP/R2Q1RK1 w - - 0 1"),
            ("shogi", "lnsgk2nl/1r4gs1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/7R1/LN1GKGSNL[Bb] w - - 0 1"),
            ("shogi", "ln1g3nl/1r3kg2/p1sppp1pp/2p3p2/1p7/2P2S3/PPSPPPPPP/2G4R1/LN2KG1NL[BPbp] b - - 0 1"),
            ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"),
            ("crazyhouse", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pn] w - - 0 1"),
        ];
        for (name, fen) in cases {
            let v = Arc::new(builtin::variant(name).unwrap());
            let mut p = EvalTables::default_params(&v);
            for round in 0..2 {
                if round == 1 {
                    for (i, x) in [
                        (KING_ATTACK, 7.0),
                        (KING_DROP, 30.0),
                        (DOUBLED, 15.0),
                        (ISOLATED, 11.0),
                        (THREAT, 13.0),
                        (KING_DANGER, 9.0),
                        (EN_PRISE_MOVER, 45.0),
                        (EN_PRISE_OTHER, 20.0),
                    ] {
                        p.w[i] = x;
                    }
                    p.w[PASSED] = 20.0;
                    p.w[PASSED_RANK] = 90.0;
                    p.w[PASSED_END] = 35.0;
                    p.w[PASSED_RANK_END] = 60.0;
                    for t in 0..v.def.pieces.len() {
                        p.w[Params::idx(t, params::END)] = 17.0 * t as f64 - 30.0;
                        p.w[Params::idx(t, params::ADVANCE)] = 10.0 + t as f64;
                        p.w[Params::idx(t, params::CENTRE)] = 3.0 + t as f64 * 0.5;
                        for sq in 0..p.nsq {
                            let i = p.square_idx(t, sq);
                            p.w[i] = ((t * 7 + sq * 3) % 11) as f64 - 5.0;
                            let i = p.square_end_idx(t, sq);
                            p.w[i] = ((t * 5 + sq * 7) % 13) as f64 - 6.0;
                        }
                    }
                }
                let t = EvalTables::with_params(&v, &p).unwrap();
                let pos = Position::from_fen(v.clone(), fen).unwrap();
                let f = t.features(&pos);
                let dot: f64 = f.iter().zip(&p.w).map(|(a, b)| a * b).sum();
                let e = t.evaluate(&pos) as f64;
                let white = if pos.side_to_move() == Color::White { e } else { -e };
                let pieces = (pos.pieces(Color::White).len() + pos.pieces(Color::Black).len()) as f64;
                assert!(
                    (white - dot).abs() <= 0.5 * pieces + 4.0,
                    "{name} {fen} round {round}: eval {white}, dot {dot}"
                );
            }
        }
    }

    #[test]
    fn pawn_structure_counts() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let t = EvalTables::untuned(&v);
        // White pawns a2 a3 e4 h2, Black pawns c7 g3. Doubled: White's a-file
        // (one more than one). Isolated: all four White pawns (no White pawn on
        // b, d, f or g), both Black ones. Passed: a2 and a3 (no Black pawn on a
        // or b), e4 (none on d-f), c7 (no White pawn on b-d); h2 is stopped by
        // g3 (ahead of it on the next file) and g3 by h2.
        let pos = Position::from_fen(v, "4k3/2p5/8/8/4P3/P5p1/P6P/4K3 w - - 0 1").unwrap();
        let mut passed = Vec::new();
        let s = t.pawns(&pos, |c, i| passed.push((c, i % t.nsq)));
        // White: a-file has 2 pawns (1 doubled); isolated: a2, a3, e4, h2 (4).
        // Black: c7, g3 isolated (2), none doubled.
        assert_eq!(s, [(1, 4), (0, 2)]);
        let names: Vec<(Color, i32, i32)> = passed.iter().map(|&(c, sq)| (c, t.coords[sq].0, t.coords[sq].1)).collect();
        // passed: White a3 (a2 is behind a3 on its own file, not blocked by Black: also passed),
        // a2, e4; Black c7. h2 is stopped by g3, g3 by h2.
        assert_eq!(names.len(), 4, "{names:?}");
        assert!(names.contains(&(Color::White, 4, 3)) && names.contains(&(Color::Black, 2, 6)), "{names:?}");
        assert!(!names.iter().any(|&(_, f, _)| f == 6 || f == 7), "{names:?}");
    }

    /// The endgame weights count in full when no non-pawn material is left,
    /// not at all at the start, and in proportion in between.
    #[test]
    fn endgame_weights_grow_as_material_comes_off() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let base = EvalTables::default_params(&v);
        let pawn = v.def.piece_by_letter('p').unwrap();
        let mut p = base.clone();
        p.w[Params::idx(pawn, params::END)] = 50.0;
        p.w[PASSED_END] = 30.0;
        let (before, after) = (EvalTables::with_params(&v, &base).unwrap(), EvalTables::with_params(&v, &p).unwrap());
        let gain = |fen: &str| {
            let pos = Position::from_fen(v.clone(), fen).unwrap();
            after.evaluate(&pos) - before.evaluate(&pos)
        };
        // the start: no share of the endgame
        assert_eq!(gain("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 0);
        // kings and one White pawn, passed: the whole endgame value and bonus
        assert_eq!(gain("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), 50 + 30);
        // Black to move sees it from its side
        assert_eq!(gain("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"), -80);
        // the queens off and Black a pawn short (on a7, with no passed pawn
        // either side): the queens' share of the non-pawn material
        let q = v.def.piece_by_letter('q').unwrap();
        let share = 2.0 * before.base_value[code_of(q, Color::White).index()] as f64 / before.phase_total as f64;
        let g = gain("rnb1kbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1") as f64;
        assert!((g - 50.0 * share).abs() <= 1.0, "gain {g}, share {share}");
        assert!(share > 0.2 && share < 0.5, "{share}");
    }

    /// The king danger's count, derived by hand: a Black queen on g3
    /// against a White king on g1 behind pawns on f2, g2 and h2 has three
    /// moves next to the king (taking f2, g2 or h2) and stands within two
    /// steps of it: d = 3 + 1, d² / 16 = 1, scaled by the material left
    /// (the queen's share of the start's). Black's king has no attacker.
    #[test]
    fn king_danger_is_the_square_of_the_attack() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let t = EvalTables::untuned(&v);
        let pos = Position::from_fen(v.clone(), "k7/8/8/8/8/6q1/5PPP/6K1 w - - 0 1").unwrap();
        let f = t.features(&pos);
        let q = v.def.piece_by_letter('q').unwrap();
        let share = t.base_value[code_of(q, Color::Black).index()] as f64 / t.phase_total as f64;
        assert!((f[KING_DANGER] + share).abs() < 1e-9, "feature {}, share {share}", f[KING_DANGER]);
        // the queen a step further (g4): no longer near, one move next to the king (g2): d = 1, d² / 16 = 1/16
        let pos = Position::from_fen(v.clone(), "k7/8/8/8/6q1/8/5PPP/6K1 w - - 0 1").unwrap();
        let f = t.features(&pos);
        assert!((f[KING_DANGER] + share / 16.0).abs() < 1e-9, "feature {}, share {share}", f[KING_DANGER]);
    }

    #[test]
    fn a_piece_in_hand_that_can_drop_next_to_the_king_counts() {
        let v = Arc::new(builtin::variant("shogi").unwrap());
        let t = EvalTables::untuned(&v);
        // White's king on e1 (shogi's 5i) with an empty ring except d1 f1 golds;
        // Black holds a gold: dropped on e2 it attacks e1 (a gold steps back
        // straight: Black's gold moves down the board). A pawn in hand also
        // counts: dropped on e2 it attacks e1 (Black's pawn steps toward rank 1).
        let k = |fen: &str| {
            let pos = Position::from_fen_permissive(v.clone(), fen).unwrap();
            let sq = pos.royal_square(Color::White).unwrap();
            t.king_counts(&pos, Color::White, sq).drops
        };
        assert_eq!(k("4k4/9/9/9/9/9/9/9/3GKG3[g] w - - 0 1"), 1);
        assert_eq!(k("4k4/9/9/9/9/9/9/9/3GKG3[gg] w - - 0 1"), 2);
        assert_eq!(k("4k4/9/9/9/9/9/9/9/3GKG3[ggg] w - - 0 1"), 2, "at most two of a type");
        assert_eq!(k("4k4/9/9/9/9/9/9/9/3GKG3[gp] w - - 0 1"), 2);
        assert_eq!(k("4k4/9/9/9/9/9/9/9/3GKG3 w - - 0 1"), 0);
        // every square next to the king filled: nothing can be dropped there
        assert_eq!(k("4k4/9/9/9/9/9/9/3PPP3/3GKG3[gp] w - - 0 1"), 0);
        // a knight dropped next to the king never attacks it
        assert_eq!(k("4k4/9/9/9/9/9/9/9/3GKG3[n] w - - 0 1"), 0);
        // White's own pieces in hand do not count against it
        assert_eq!(k("4k4/9/9/9/9/9/9/9/3GKG3[G] w - - 0 1"), 0);
    }
    #[test]
    fn threats_are_captures_of_more_valuable_pieces() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let mut p = EvalTables::default_params(&v);
        p.w[THREAT] = 10.0;
        let t = EvalTables::with_params(&v, &p).unwrap();
        let threats = |fen: &str| t.features(&Position::from_fen(v.clone(), fen).unwrap())[THREAT];
        // no piece attacks anything
        assert_eq!(threats("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0.0);
        // a white knight on c3 attacks the black queen on d5 (a threat); the queen
        // attacks the knight (worth less: none); the king e1 next to nothing
        assert_eq!(threats("4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1"), 1.0);
        // a black pawn on d4 attacks the knights on c3 and e3: two threats for Black;
        // the knights attack nothing worth more (the pawn is worth less)
        assert_eq!(threats("4k3/8/8/8/3p4/2N1N3/8/4K3 b - - 0 1"), -2.0);
        // a rook on a1 against a rook on a8: equal values are no threat, and
        // captures of the royal piece are none either (rook h1 checks the king h8)
        assert_eq!(threats("r6k/8/8/8/8/8/8/R3K2R b - - 0 1"), 0.0);
        // the same threats in the evaluation: knight c3 on queen d5, 10 cp for
        // White, whoever moves
        let with = |fen: &str| t.evaluate(&Position::from_fen(v.clone(), fen).unwrap());
        let plain = EvalTables::with_params(&v, &EvalTables::default_params(&v)).unwrap();
        let without = |fen: &str| plain.evaluate(&Position::from_fen(v.clone(), fen).unwrap());
        let fen = "4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1";
        assert_eq!(with(fen) - without(fen), 10);
        let fen = "4k3/8/8/3q4/8/2N5/8/4K3 b - - 0 1";
        assert_eq!(with(fen) - without(fen), -10);
    }

    #[test]
    fn pieces_attacked_by_less_or_undefended_are_en_prise() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let mut p = EvalTables::default_params(&v);
        p.w[EN_PRISE_MOVER] = 50.0;
        p.w[EN_PRISE_OTHER] = 20.0;
        let t = EvalTables::with_params(&v, &p).unwrap();
        // the features: minus the side to move's pieces en prise, and the
        // derived value (in pawns) of the other side's most valuable one,
        // from White's side
        let counts = |fen: &str| {
            let f = t.features(&Position::from_fen(v.clone(), fen).unwrap());
            (f[EN_PRISE_MOVER], f[EN_PRISE_OTHER])
        };
        let worth = |letter: char| {
            let code = code_of(v.def.piece_by_letter(letter).unwrap(), Color::White);
            t.base_value[code.index()] as f64 / 100.0
        };
        let (knight, rook, queen) = (worth('n'), worth('r'), worth('q'));
        assert!(queen > 8.0 && rook > 4.0 && knight > 2.0, "{queen} {rook} {knight}");
        // nothing attacked
        assert_eq!(counts("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), (0.0, 0.0));
        // the knight c3 attacks the queen d5 (worth more: en prise, though
        // the pawn e6 defends it); the bishop a5 attacks the knight, which
        // nothing defends: en prise too. White to move: the knight is its
        // own, the queen the other side's
        let fen = "4k3/8/4p3/b2q4/8/2N5/8/4K3";
        assert_eq!(counts(&format!("{fen} w - - 0 1")), (-1.0, queen));
        // Black to move: the queen is its own, the knight the other's
        assert_eq!(counts(&format!("{fen} b - - 0 1")), (1.0, -knight));
        // a knight attacked by a queen (worth more) and defended by the pawn
        // b2 is not en prise; without the pawn it is
        assert_eq!(counts("4k3/8/8/q7/8/2N5/1P6/4K3 w - - 0 1"), (0.0, 0.0));
        assert_eq!(counts("4k3/8/8/q7/8/2N5/8/4K3 w - - 0 1"), (-1.0, 0.0));
        // rooks of equal value attack each other: the one its king defends
        // (b1 next to a1) is not en prise, the other is
        assert_eq!(counts("r3k3/8/8/8/8/8/8/RK6 w - - 0 1"), (0.0, rook));
        // a royal piece's capture is an attack, not one by a lesser piece: the
        // knight d7 next to the black king, defended by the pawn c6, is not
        // en prise; undefended it is (White's, Black to move: the other side's)
        assert_eq!(counts("4k3/3N4/2P5/8/8/8/8/4K3 b - - 0 1"), (0.0, 0.0));
        assert_eq!(counts("4k3/3N4/8/8/8/8/8/4K3 b - - 0 1"), (0.0, -knight));
        // of two pieces en prise (the knight c3 forks the rook b1 and the
        // queen d1), the more valuable one counts
        assert_eq!(counts("4k3/8/8/8/8/2n5/8/1R1QK3 b - - 0 1"), (0.0, -queen));
        // the evaluation adds the weights from the side to move's side
        let plain = EvalTables::with_params(&v, &EvalTables::default_params(&v)).unwrap();
        let diff = |fen: &str| {
            let pos = Position::from_fen(v.clone(), fen).unwrap();
            t.evaluate(&pos) - plain.evaluate(&pos)
        };
        let cp = |x: f64| (x * 100.0).round() as i32;
        assert_eq!(diff(&format!("{fen} w - - 0 1")), 20 * cp(queen) / 100 - 50);
        assert_eq!(diff(&format!("{fen} b - - 0 1")), 20 * cp(knight) / 100 - 50);
    }

    #[test]
    fn square_weights_are_read_from_white_s_side() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let mut p = EvalTables::default_params(&v);
        p.apply_text(&v, "square.n.f3 25\nsquare.k.g1 40\n").unwrap();
        let tuned = EvalTables::with_params(&v, &p).unwrap();
        let plain = EvalTables::with_params(&v, &EvalTables::default_params(&v)).unwrap();
        let diff = |fen: &str| {
            let pos = Position::from_fen(v.clone(), fen).unwrap();
            tuned.evaluate(&pos) - plain.evaluate(&pos)
        };
        // White's knight on f3 and Black's on f6 read the same weight
        assert_eq!(diff("4k3/8/8/8/8/5N2/8/4K3 w - - 0 1"), 25);
        assert_eq!(diff("4k3/8/5n2/8/8/8/8/4K3 w - - 0 1"), -25);
        assert_eq!(diff("4k3/8/8/8/8/8/5N2/4K3 w - - 0 1"), 0);
        // the royal piece too: a king on g1 (White) and on g8 (Black)
        assert_eq!(diff("4k3/8/8/8/8/8/8/6K1 w - - 0 1"), 40);
        assert_eq!(diff("6k1/8/8/8/8/8/8/6K1 w - - 0 1"), 0);
        assert_eq!(diff("6k1/8/8/8/8/8/8/6K1 b - - 0 1"), 0);
        assert_eq!(diff("6k1/8/8/8/8/8/8/4K3 b - - 0 1"), 40);
    }
}
