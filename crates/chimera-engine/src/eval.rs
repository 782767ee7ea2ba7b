//! Evaluation for any variant, derived from the variant's data alone.
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
//!   on that square minus its average mobility, in centipawns per move.
//! - **Royal pieces** are drawn to the centre only as material comes off (a
//!   phase computed from the non-pawn material).
//! - **Pieces in hand** count their value plus a small bonus for the freedom of
//!   the drop.
//!
//! The evaluation is computed from the piece lists in O(pieces), with no
//! allocation.

use chimera::compile::{code_of, type_of, Cell, PieceCode, CAPTURE, EMPTY_CHILD, OCC_FOE, OCC_FRIEND, QUIET};
use chimera::position::Position;
use chimera::square::{Color, Square};
use chimera::variant::Variant;
use std::sync::Arc;

/// Centipawns per unit of a piece's random-board mobility, linear term.
const PER_MOVE: f64 = 52.0;
/// Quadratic term: strong pieces are worth more than the sum of their moves.
const PER_MOVE_SQ: f64 = 1.6;
/// Constant part of a non-royal piece's value.
const BASE: f64 = 45.0;
/// Centipawns per move of mobility above the piece's average (centralisation).
const CENTRE_PER_MOVE: f64 = 4.0;
/// Bonus of a piece in hand, in per mille of its value.
const HAND_BONUS_PERMILLE: i32 = 100;
/// Weight of a capture target against a quiet move in the mobility measure.
const CAPTURE_WEIGHT: f64 = 1.0;
/// Density of the random boards used to measure mobility.
const DENSITY: f64 = 0.3;
/// Number of random boards.
const SAMPLES: usize = 6;
/// A small bonus for the side to move.
const TEMPO: i32 = 12;
/// Centipawns per move of a piece's mobility in the position, above its
/// average on the random boards.
const MOBILITY_PER_MOVE: i32 = 3;
/// King safety: centipawns per friendly piece next to the royal piece (at the
/// start's material; it fades as material comes off).
const SHIELD: i32 = 8;
/// King safety: centipawns per enemy piece (not a pawn) within two steps of the royal piece.
const TROPISM: i32 = 12;
/// Mop-up: the material lead (centipawns) from which the stronger side is
/// drawn to drive the weaker royal piece to the edge.
const MOP_UP_LEAD: i32 = 250;
/// Mop-up: centipawns per step of the weaker royal piece away from the centre.
const MOP_UP_EDGE: i32 = 6;
/// Mop-up: centipawns per step the royal pieces come closer together.
const MOP_UP_NEAR: i32 = 4;

/// The evaluation tables of one variant.
#[derive(Clone, Debug)]
pub struct EvalTables {
    nsq: usize,
    /// Material value per piece code (both colours, positive).
    value: Vec<i32>,
    /// Per code and square: positional bonus (centralisation and promotion progress).
    pst: Vec<i32>,
    /// Per code and square: the royal piece's centralisation, scaled by the phase.
    royal_centre: Vec<i32>,
    /// Value of a piece in hand, per code.
    hand: Vec<i32>,
    /// Per code: counts toward the phase (non-royal, non-pawn material).
    phase_weight: Vec<i32>,
    /// Phase material of the start position (both sides).
    phase_total: i32,
    /// Number of piece types.
    ntypes: usize,
    /// Per code: the average mobility on the random boards, in moves, when
    /// the piece's mobility counts (`None` for royal pieces and pieces without moves).
    mob_avg: Vec<Option<i32>>,
    /// Per code: the piece blocks but can neither move nor be taken for
    /// mobility purposes (a wall: a type without any move).
    inert: Vec<bool>,
    /// Per code: the piece is royal.
    royal: Vec<bool>,
    /// Per square: file and rank.
    coords: Vec<(i32, i32)>,
    /// Board size minus one, in files and ranks.
    span: (i32, i32),
    /// Per square: the squares one step away in any direction.
    ring: Vec<Vec<Square>>,
    /// Per code: counts as an attacker near the enemy royal piece.
    attacker: Vec<bool>,
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

/// Walks the trajectory list `cells` of a piece standing on `sq` as the check
/// test does: an empty square continues with the next cell when it has an
/// empty child, an occupied one forks to `occ` when the cell allows it.
/// `occupant(to)` is 0 for an empty square, 1 for a friend (or anything that
/// cannot be taken), 2 for an enemy; `hit(to, capture)` is called for every
/// quiet move to an empty square and every capture (once per path).
#[inline(always)]
fn walk(cells: &[Cell], sq: Square, occupant: impl Fn(Square) -> PieceCode, mut hit: impl FnMut(Square, bool)) {
    let mut i = 0usize;
    while i < cells.len() {
        let c = &cells[i];
        // a move may come back to its own square (a Lion's turn in place)
        let occ = if c.to == sq { 0 } else { occupant(c.to) };
        match occ {
            0 => {
                if c.flags & QUIET != 0 && c.to != sq {
                    hit(c.to, false);
                }
                i = if c.flags & EMPTY_CHILD != 0 { i + 1 } else { c.next as usize };
            }
            2 => {
                if c.flags & CAPTURE != 0 {
                    hit(c.to, true);
                }
                i = if c.flags & OCC_FOE != 0 { c.occ as usize } else { c.next as usize };
            }
            _ => {
                i = if c.flags & OCC_FRIEND != 0 { c.occ as usize } else { c.next as usize };
            }
        }
    }
}

/// What a piece can reach from one square on a given board: (quiet moves,
/// captures), distinct squares. `board[s]`: 0 empty, 1 friend, 2 foe.
fn reach(v: &Variant, code: PieceCode, sq: Square, board: &[PieceCode]) -> (u32, u32) {
    let (cells, _) = v.tables.list(code, false, sq);
    // distinct destinations: several paths may lead to one square (Lion moves)
    let mut seen = [0u64; 4];
    let (mut quiet, mut capt) = (0, 0);
    walk(
        cells,
        sq,
        |to| board[to as usize],
        |to, capture| {
            let (w, b) = (to as usize >> 6, to & 63);
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
fn paths(v: &Variant, code: PieceCode, sq: Square, board: &[PieceCode]) -> u32 {
    let (cells, _) = v.tables.list(code, false, sq);
    let mut n = 0;
    walk(cells, sq, |to| board[to as usize], |_, _| n += 1);
    n
}

/// Mobility of a piece type per square: (on an empty board, on random boards,
/// paths on random boards). `None` on squares where the piece has no move
/// even on an empty board.
fn mobility(v: &Variant, t: usize) -> Vec<Option<(f64, f64, f64)>> {
    let g = v.geometry();
    let nsq = g.squares();
    let code = code_of(t, Color::White);
    let empty = vec![0 as PieceCode; nsq];
    let mut rng = Lcg(0x5eed_0000 + t as u64);
    let boards: Vec<Vec<PieceCode>> = (0..SAMPLES)
        .map(|_| {
            (0..nsq)
                .map(|_| {
                    if rng.chance(DENSITY) {
                        if rng.chance(0.5) {
                            1
                        } else {
                            2
                        }
                    } else {
                        0
                    }
                })
                .collect()
        })
        .collect();
    (0..nsq)
        .map(|s| {
            let sq = s as Square;
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

impl EvalTables {
    /// Derives the evaluation tables of a variant from its move tables.
    pub fn new(v: &Arc<Variant>) -> EvalTables {
        let g = v.geometry();
        let nsq = g.squares();
        let ntypes = v.def.pieces.len();
        let ncodes = 2 * ntypes + 2;
        let mobs: Vec<Vec<Option<(f64, f64, f64)>>> = (0..ntypes).map(|t| mobility(v, t)).collect();
        let avg = |t: usize, pick: fn(&(f64, f64, f64)) -> f64| -> f64 {
            let xs: Vec<f64> = mobs[t].iter().flatten().map(pick).collect();
            if xs.is_empty() {
                0.0
            } else {
                xs.iter().sum::<f64>() / xs.len() as f64
            }
        };
        let mut base_value = vec![0f64; ntypes];
        for (t, p) in v.def.pieces.iter().enumerate() {
            if p.royal {
                continue;
            }
            let m = avg(t, |x| x.1);
            // a value given in the definition overrides the derived one
            base_value[t] = p.value.map_or(BASE + PER_MOVE * m + PER_MOVE_SQ * m * m, f64::from);
        }
        let mut value = vec![0i32; ncodes];
        let mut pst = vec![0i32; ncodes * nsq];
        let mut royal_centre = vec![0i32; ncodes * nsq];
        let mut hand = vec![0i32; ncodes];
        let mut phase_weight = vec![0i32; ncodes];
        for (t, p) in v.def.pieces.iter().enumerate() {
            let avg_empty = avg(t, |x| x.0);
            for c in [Color::White, Color::Black] {
                let code = code_of(t, c) as usize;
                value[code] = base_value[t].round() as i32;
                hand[code] = value[code] + value[code] * HAND_BONUS_PERMILLE / 1000;
                if !p.royal && !p.pawn {
                    phase_weight[code] = value[code];
                }
                // the best promotion and its gain
                let promo = v.tables.promo.get(code).and_then(|x| x.as_ref());
                let gain = promo
                    .map(|pi| pi.choices.iter().map(|&pc| base_value[type_of(pc)]).fold(0.0, f64::max) - base_value[t])
                    .unwrap_or(0.0)
                    .max(0.0);
                for s in 0..nsq {
                    // tables are stored from White's side: read Black's mirrored
                    let ws = if c == Color::White { s } else { g.flip(s as Square) as usize };
                    let mut bonus = 0.0;
                    if let Some((me, _, _)) = mobs[t][ws] {
                        let centre = CENTRE_PER_MOVE * (me - avg_empty);
                        if p.royal {
                            royal_centre[code * nsq + s] = centre.round() as i32;
                        } else {
                            bonus += centre;
                        }
                    }
                    if let Some(pi) = promo {
                        // distance in ranks to the nearest zone square, for this colour
                        let r = g.rank_of(s as Square);
                        let d = (0..nsq)
                            .filter(|&z| pi.zone[z])
                            .map(|z| (g.rank_of(z as Square) - r).abs())
                            .min()
                            .unwrap_or(i32::MAX / 4) as f64;
                        bonus += gain / (4.0 + 4.0 * d * d);
                    }
                    pst[code * nsq + s] = bonus.round() as i32;
                }
            }
        }
        let mut mob_avg = vec![None; ncodes];
        let mut inert = vec![false; ncodes];
        let mut royal = vec![false; ncodes];
        for (t, p) in v.def.pieces.iter().enumerate() {
            let moves = mobs[t].iter().any(Option::is_some);
            for c in [Color::White, Color::Black] {
                let code = code_of(t, c) as usize;
                inert[code] = !moves;
                royal[code] = p.royal;
                // pawns are many and move little: their mobility is left out
                if moves && !p.royal && !p.pawn {
                    mob_avg[code] = Some(avg(t, |x| x.2).round() as i32);
                }
            }
        }
        let coords = (0..nsq).map(|s| (g.file_of(s as Square), g.rank_of(s as Square))).collect();
        let span = (g.width as i32 - 1, g.height as i32 - 1);
        let ring = (0..nsq)
            .map(|s| {
                let (f, r) = (g.file_of(s as Square), g.rank_of(s as Square));
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
        let attacker = (0..ncodes).map(|code| code >= 2 && phase_weight[code] > 0).collect();
        let mut tables = EvalTables {
            nsq,
            value,
            pst,
            royal_centre,
            hand,
            phase_weight,
            phase_total: 1,
            ntypes,
            mob_avg,
            inert,
            royal,
            coords,
            span,
            ring,
            attacker,
        };
        let start = Position::start(v.clone());
        tables.phase_total = tables.phase_material(&start).max(1);
        tables
    }

    fn phase_material(&self, pos: &Position) -> i32 {
        let mut m = 0;
        for c in [Color::White, Color::Black] {
            for &sq in pos.pieces(c) {
                m += self.phase_weight[pos.piece_at(sq) as usize];
            }
            for t in 0..self.ntypes {
                m += self.phase_weight[code_of(t, c) as usize] * pos.pocket(c, t) as i32;
            }
        }
        m
    }

    /// Whether `c` has a piece on the board that is neither royal nor a pawn
    /// (the null-move condition: without one, zugzwang is likely).
    pub fn has_pieces(&self, pos: &Position, c: Color) -> bool {
        pos.pieces(c).iter().any(|&sq| self.phase_weight[pos.piece_at(sq) as usize] > 0)
    }

    /// The material value of a piece code (0 for royal pieces).
    #[inline]
    pub fn value(&self, code: PieceCode) -> i32 {
        self.value[code as usize]
    }

    /// The derived value of a piece type, in centipawns.
    pub fn type_value(&self, t: usize) -> i32 {
        self.value[code_of(t, Color::White) as usize]
    }

    /// The number of moves the piece on `sq` has in the position: quiet moves
    /// to empty squares plus captures of enemy pieces, walked on the trajectory
    /// table as the check test walks it (a square reached by two paths counts twice).
    fn mobility(&self, pos: &Position, code: PieceCode, sq: Square) -> i32 {
        let (cells, _) = pos.variant().tables.list(code, false, sq);
        let mine = code & 1;
        let mut n = 0;
        walk(
            cells,
            sq,
            |to| {
                let p = pos.piece_at(to);
                if p == 0 {
                    0
                } else if p & 1 != mine && !self.inert[p as usize] {
                    2
                } else {
                    1
                }
            },
            |_, _| n += 1,
        );
        n
    }

    /// Mop-up: with a clear material lead and little material left, the
    /// stronger side gains by driving the weaker royal piece to the edge and
    /// bringing its own royal piece close (White's point of view).
    fn mop_up(&self, material: [i32; 2], royals: [Option<Square>; 2]) -> i32 {
        let lead = material[0] - material[1];
        let (strong, weak, sign) = if lead >= MOP_UP_LEAD {
            (0, 1, 1)
        } else if -lead >= MOP_UP_LEAD {
            (1, 0, -1)
        } else {
            return 0;
        };
        // only once the weaker side has little left
        if material[weak] * 4 > self.phase_total {
            return 0;
        }
        let (Some(ks), Some(kw)) = (royals[strong], royals[weak]) else {
            return 0;
        };
        let (fs, rs) = self.coords[ks as usize];
        let (fw, rw) = self.coords[kw as usize];
        // doubled distances from the centre, so that even boards have one
        let edge = (2 * fw - self.span.0).abs() + (2 * rw - self.span.1).abs();
        let near = self.span.0 + self.span.1 - (fs - fw).abs() - (rs - rw).abs();
        sign * (MOP_UP_EDGE * edge + MOP_UP_NEAR * near)
    }

    /// King safety at full material (White's point of view): friendly pieces
    /// next to each royal piece, enemy pieces (not pawns) within two steps of it.
    fn king_safety(&self, pos: &Position, royals: [Option<Square>; 2]) -> i32 {
        let mut s = 0;
        for (c, sign) in [(Color::White, 1i32), (Color::Black, -1i32)] {
            let Some(k) = royals[c.index()] else { continue };
            let mine = c.index() as PieceCode;
            let shield = self.ring[k as usize]
                .iter()
                .filter(|&&t| {
                    let p = pos.piece_at(t);
                    p != 0 && p & 1 == mine && !self.inert[p as usize]
                })
                .count() as i32;
            let (kf, kr) = self.coords[k as usize];
            let near = pos
                .pieces(c.flip())
                .iter()
                .filter(|&&t| {
                    let (f, r) = self.coords[t as usize];
                    self.attacker[pos.piece_at(t) as usize] && (f - kf).abs() <= 2 && (r - kr).abs() <= 2
                })
                .count() as i32;
            s += sign * (SHIELD * shield - TROPISM * near);
        }
        s
    }

    /// The static evaluation from the side to move's point of view, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let nsq = self.nsq;
        let mut score = 0i32;
        let mut royal = 0i32;
        let mut phase = 0i32;
        let mut material = [0i32; 2];
        let mut royals = [None; 2];
        for (c, sign) in [(Color::White, 1i32), (Color::Black, -1i32)] {
            let mut mob = 0;
            for &sq in pos.pieces(c) {
                let code = pos.piece_at(sq) as usize;
                let i = code * nsq + sq as usize;
                score += sign * (self.value[code] + self.pst[i]);
                royal += sign * self.royal_centre[i];
                phase += self.phase_weight[code];
                material[c.index()] += self.value[code];
                if self.royal[code] {
                    royals[c.index()] = Some(sq);
                } else if let Some(avg) = self.mob_avg[code] {
                    mob += self.mobility(pos, code as PieceCode, sq) - avg;
                }
            }
            score += sign * MOBILITY_PER_MOVE * mob;
            for t in 0..self.ntypes {
                let n = pos.pocket(c, t) as i32;
                if n != 0 {
                    let code = code_of(t, c) as usize;
                    score += sign * n * self.hand[code];
                    phase += n * self.phase_weight[code];
                }
            }
        }
        // royal pieces centralise as material comes off
        let opening = phase.min(self.phase_total);
        score += royal * (self.phase_total - opening) / self.phase_total;
        score += self.mop_up(material, royals);
        score += self.king_safety(pos, royals) * opening / self.phase_total;
        let s = if pos.side_to_move() == Color::White { score } else { -score };
        s + TEMPO
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera::builtin;

    fn tables(name: &str) -> (Arc<Variant>, EvalTables) {
        let v = Arc::new(builtin::variant(name).unwrap());
        let t = EvalTables::new(&v);
        (v, t)
    }

    fn val(v: &Variant, t: &EvalTables, letter: char) -> i32 {
        t.type_value(v.def.piece_by_letter(letter).unwrap())
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
        let t = EvalTables::new(&v);
        assert_ne!(derived, 350);
        assert_eq!(t.type_value(c), 350);
        // the others keep their derived values
        let r = v.def.piece_by_letter('r').unwrap();
        assert_eq!(t.type_value(r), tables("xiangqi").1.type_value(r));
    }

    #[test]
    fn start_positions_are_balanced() {
        for name in ["chess", "xiangqi", "shogi", "janggi", "capablanca", "mightylion", "makruk", "crazyhouse"] {
            let (v, t) = tables(name);
            let pos = Position::start(v);
            assert_eq!(t.evaluate(&pos), TEMPO, "{name}: the start position is symmetric");
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
            let t = EvalTables::new(&v);
            let pos = Position::from_fen(v.clone(), fen).unwrap();
            let m = Position::from_fen(v, &mirrored(&pos)).unwrap();
            assert_eq!(t.evaluate(&pos), t.evaluate(&m), "{name} {fen} vs {}", mirrored(&pos));
        }
    }

    #[test]
    fn material_and_advanced_pawns_count() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let t = EvalTables::new(&v);
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
            let royal = |c: Color| pos.pieces(c).iter().copied().find(|&s| t.royal[pos.piece_at(s) as usize]);
            t.king_safety(&pos, [royal(Color::White), royal(Color::Black)])
        };
        // White's king: f1 rook, f2 g2 h2 pawns around it, or only the rook
        let sheltered = safety("rnbqkbnr/pppppppp/8/8/8/8/5PPP/RNBQ1RK1 w kq - 0 1");
        let exposed = safety("rnbqkbnr/pppppppp/8/8/8/8/PPP5/RNBQ1RK1 w kq - 0 1");
        assert_eq!(sheltered - exposed, 3 * SHIELD);
        // an enemy knight two steps from the king counts against it, a pawn does not
        let knight_near = safety("rnbqkb1r/pppppppp/8/8/8/5n2/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let knight_far = safety("rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(knight_far - knight_near, TROPISM);
        let pawn_near = safety("rnbqkbnr/ppppppp1/8/8/8/5p2/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let pawn_far = safety("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(pawn_far - pawn_near, 0);
    }

    #[test]
    fn pieces_in_hand_are_valued() {
        let v = Arc::new(builtin::variant("shogi").unwrap());
        let t = EvalTables::new(&v);
        let start = Position::start(v.clone());
        let fen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[R] w - - 0 1";
        let with_rook = Position::from_fen(v, fen).unwrap();
        assert!(t.evaluate(&with_rook) > t.evaluate(&start) + 500);
    }
}
