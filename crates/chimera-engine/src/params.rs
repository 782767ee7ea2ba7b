//! The evaluation's weights as a parameter vector, and the text format of a
//! weights file.
//!
//! A variant's weights are a few scalar terms ([`SCALARS`]) followed by one
//! block of [`PER_TYPE`] terms for each piece type of the variant (in the
//! order of the definition). Every weight has a default derived from the
//! variant's data ([`crate::eval::EvalTables`] computes them), equal to the
//! evaluation's behaviour before weights could be tuned; the new terms (king
//! attacks, drops near the king, pawn structure, advancement, threats, the
//! endgame's values and passed-pawn bonuses, king danger, pieces en prise)
//! default to 0.
//!
//! A weights file is text, one weight a line: `KEY VALUE`, `#` starts a
//! comment, blank lines are ignored. The keys are the names of
//! [`SCALARS`] (`tempo`, `shield`, ...) and, per piece type,
//! `value.X`, `hand.X`, `centre.X`, `mobility.X`, `advance.X`, `end.X` where X is the
//! piece as a FEN writes it for White in lowercase (`p`, `n`, `+p` for a
//! promoted shogi pawn, `q~` for a crazyhouse promoted queen), and
//! `square.X.SQ`, the bonus of the piece on square SQ as White sees it
//! (`square.n.f3`; a Black knight on f6 reads it), and `square_end.X.SQ`,
//! its extra bonus there in the endgame (scaled as `end.X` is). A key that is
//! not given keeps its default, so a file may set only some weights. An
//! unknown key, a key given twice, a value that is not a finite number or is
//! beyond ±100000 is an error naming the line ([`WeightsError`]).
//!
//! The built-in variants' tuned files are under `crates/chimera-engine/weights/`,
//! embedded in the binary ([`WEIGHT_FILES`]) and, when marked as used
//! there, applied when the variant's evaluation is built
//! ([`builtin_weights`]); a variant without one uses the defaults.

use chimera::square::Square;
use chimera::variant::Variant;
use std::collections::HashMap;
use std::fmt;

/// Index of the side-to-move bonus.
pub const TEMPO: usize = 0;
/// Index of the scale of the promotion-progress table (1 = the derived table).
pub const PROMO: usize = 1;
/// Index of the bonus per friendly piece next to the royal piece.
pub const SHIELD: usize = 2;
/// Index of the penalty per enemy piece (not a pawn) within two steps of the royal piece.
pub const TROPISM: usize = 3;
/// Index of the penalty per move of an enemy piece (not a pawn, not royal)
/// onto a square next to the royal piece or onto it.
pub const KING_ATTACK: usize = 4;
/// Index of the penalty per enemy piece in hand (at most two of a type) that
/// could be dropped next to the royal piece so that it attacks it.
pub const KING_DROP: usize = 5;
/// Index of the penalty per pawn more than one on a file.
pub const DOUBLED: usize = 6;
/// Index of the penalty per pawn without friendly pawns on the files beside it.
pub const ISOLATED: usize = 7;
/// Index of the bonus per passed pawn (no enemy pawn ahead on its file or the files beside it).
pub const PASSED: usize = 8;
/// Index of the bonus of a passed pawn at the last rank (scaled by the
/// square of its progress, from 0 on its first rank to 1 on the last).
pub const PASSED_RANK: usize = 9;
/// Index of the mop-up bonus per step of the weaker royal piece from the centre.
pub const MOP_EDGE: usize = 10;
/// Index of the mop-up bonus per step the royal pieces come closer.
pub const MOP_NEAR: usize = 11;
/// Index of the bonus per threat: a capture a non-royal piece has of an
/// enemy piece worth more than itself (by the derived values).
pub const THREAT: usize = 12;
/// Index of the endgame's extra bonus per passed pawn (scaled by the share
/// of the non-pawn material that has come off: 0 at the start, 1 when none is left).
pub const PASSED_END: usize = 13;
/// Index of the endgame's extra bonus of a passed pawn at the last rank
/// (scaled like [`PASSED_RANK`] and like [`PASSED_END`]).
pub const PASSED_RANK_END: usize = 14;
/// Index of the penalty of the danger around a royal piece, which grows
/// with the square of the attack: of `d = attacks + near + 2 drops` (the
/// counts of [`KING_ATTACK`], [`TROPISM`] and [`KING_DROP`]), `d² / 16`.
pub const KING_DANGER: usize = 15;
/// Index of the penalty per piece of the side to move that is *en prise*:
/// not royal, and attacked by an enemy piece worth less than itself (by the
/// derived values), or attacked and not defended.
pub const EN_PRISE_MOVER: usize = 16;
/// Index of the bonus (for the side to move) per 100 cp of the derived value
/// of the most valuable piece of the other side that is en prise (as
/// [`EN_PRISE_MOVER`] finds them).
pub const EN_PRISE_OTHER: usize = 17;

/// The scalar weights: name and what it weighs (the defaults depend on the variant only for per-type terms).
pub const SCALARS: [(&str, f64); 18] = [
    ("tempo", 12.0),
    ("promo", 1.0),
    ("shield", 8.0),
    ("tropism", 12.0),
    ("king_attack", 0.0),
    ("king_drop", 0.0),
    ("doubled", 0.0),
    ("isolated", 0.0),
    ("passed", 0.0),
    ("passed_rank", 0.0),
    ("mop_edge", 6.0),
    ("mop_near", 4.0),
    ("threat", 0.0),
    ("passed_end", 0.0),
    ("passed_rank_end", 0.0),
    ("king_danger", 0.0),
    ("en_prise_mover", 0.0),
    ("en_prise_other", 0.0),
];

/// The number of scalar weights.
pub const NSCALARS: usize = SCALARS.len();

/// Offset in a type's block: the material value on the board.
pub const VALUE: usize = 0;
/// Offset in a type's block: the value of one in hand.
pub const HAND: usize = 1;
/// Offset in a type's block: centipawns per move the piece has on its square
/// on an empty board above its average (for a royal piece: in the endgame).
pub const CENTRE: usize = 2;
/// Offset in a type's block: centipawns per move in the position above its
/// average on random boards.
pub const MOBILITY: usize = 3;
/// Offset in a type's block: the bonus on the last rank, growing linearly
/// from 0 on the first rank (its own side's).
pub const ADVANCE: usize = 4;
/// Offset in a type's block: the value a piece on the board gains (or
/// loses) in the endgame, scaled by the share of the non-pawn material that
/// has come off (0 at the start, 1 when none is left); 0 by default.
pub const END: usize = 5;
/// The names of a type's block.
pub const PER_TYPE: [&str; 6] = ["value", "hand", "centre", "mobility", "advance", "end"];

/// A parameter vector for one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// The number of piece types.
    pub ntypes: usize,
    /// The number of squares of the board.
    pub nsq: usize,
    /// The weights: [`SCALARS`], then per type [`PER_TYPE`], then per type
    /// one bonus per square (the square as White sees it: Black's pieces
    /// read the square mirrored), then per type one endgame bonus per
    /// square (scaled by the phase as [`END`] is); the square terms are 0
    /// by default.
    pub w: Vec<f64>,
}

impl Params {
    /// A vector of zeros for `ntypes` piece types on a board of `nsq` squares.
    pub fn zeros(ntypes: usize, nsq: usize) -> Params {
        Params { ntypes, nsq, w: vec![0.0; NSCALARS + (PER_TYPE.len() + 2 * nsq) * ntypes] }
    }

    /// A vector of zeros for the variant's piece types and board.
    pub fn zeros_for(v: &Variant) -> Params {
        Params::zeros(v.def.pieces.len(), v.geometry().squares())
    }

    /// The index of the square bonus of type `t` on square `sq` (White's view).
    #[inline]
    pub fn square_idx(&self, t: usize, sq: usize) -> usize {
        NSCALARS + PER_TYPE.len() * self.ntypes + t * self.nsq + sq
    }

    /// The index of the endgame square bonus of type `t` on square `sq`
    /// (White's view).
    #[inline]
    pub fn square_end_idx(&self, t: usize, sq: usize) -> usize {
        self.square_idx(self.ntypes, 0) + t * self.nsq + sq
    }

    /// The index of term `k` ([`VALUE`], ...) of piece type `t`.
    #[inline]
    pub fn idx(t: usize, k: usize) -> usize {
        NSCALARS + PER_TYPE.len() * t + k
    }

    /// The weight of term `k` of type `t`.
    #[inline]
    pub fn of(&self, t: usize, k: usize) -> f64 {
        self.w[Self::idx(t, k)]
    }

    /// The number of weights.
    pub fn len(&self) -> usize {
        self.w.len()
    }

    /// Whether there are no weights (never: the scalars are always there).
    pub fn is_empty(&self) -> bool {
        self.w.is_empty()
    }

    /// The key of every weight, in order, for the variant's piece types:
    /// the scalars, the per-type terms, then `square.X.SQ` per type and
    /// square, then `square_end.X.SQ`.
    pub fn names(v: &Variant) -> Vec<String> {
        let mut names: Vec<String> = SCALARS.iter().map(|s| s.0.to_string()).collect();
        let tokens: Vec<String> = (0..v.def.pieces.len()).map(|t| piece_token(v, t)).collect();
        for tok in &tokens {
            for k in PER_TYPE {
                names.push(format!("{k}.{tok}"));
            }
        }
        let g = v.geometry();
        for block in ["square", "square_end"] {
            for tok in &tokens {
                for s in 0..g.squares() {
                    names.push(format!("{block}.{tok}.{}", g.square_name(Square::new(s))));
                }
            }
        }
        names
    }

    /// Reads a weights file over `self` (the defaults): the weights it gives
    /// replace the defaults, the others stay.
    pub fn apply_text(&mut self, v: &Variant, text: &str) -> Result<(), WeightsError> {
        let names = Self::names(v);
        let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, k)| (k.as_str(), i)).collect();
        let mut seen = vec![false; names.len()];
        for (n, raw) in text.lines().enumerate() {
            let line_no = n + 1;
            let err = |message: String| WeightsError { line: line_no, message };
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut parts = line.split_whitespace();
            let (Some(key), Some(val), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(err(format!("expected `KEY VALUE`, found '{line}'")));
            };
            let Some(&i) = index.get(key) else {
                return Err(err(format!("unknown weight '{key}' for variant {}", v.def.name)));
            };
            let x: f64 = val.parse().map_err(|_| err(format!("'{val}' is not a number (weight {key})")))?;
            if !x.is_finite() || x.abs() > 100_000.0 {
                return Err(err(format!("weight {key} = {val} is out of range (at most 100000 in size)")));
            }
            if seen[i] {
                return Err(err(format!("weight '{key}' is given twice")));
            }
            seen[i] = true;
            self.w[i] = x;
        }
        Ok(())
    }

    /// The weights as a file: `header` lines as comments, then every weight.
    pub fn to_text(&self, v: &Variant, header: &[String]) -> String {
        let mut s = String::new();
        for h in header {
            s.push_str("# ");
            s.push_str(h);
            s.push('\n');
        }
        let squares = NSCALARS + PER_TYPE.len() * self.ntypes;
        for (i, (name, x)) in Self::names(v).iter().zip(&self.w).enumerate() {
            let r = (x * 10.0).round() / 10.0;
            // square bonuses are many and mostly 0: only the others are written
            if i >= squares && r == 0.0 {
                continue;
            }
            s.push_str(&format!("{name} {}\n", if r == 0.0 { 0.0 } else { r }));
        }
        s
    }
}

/// The token of piece type `t` in weight keys: its FEN form in lowercase,
/// or `tN` when two types would share one.
pub fn piece_token(v: &Variant, t: usize) -> String {
    let tok = |t: usize| {
        let p = &v.def.pieces[t];
        format!("{}{}{}", if p.promoted { "+" } else { "" }, p.letter, if p.tilde { "~" } else { "" })
    };
    let mine = tok(t);
    if (0..v.def.pieces.len()).filter(|&u| tok(u) == mine).count() > 1 {
        format!("t{t}")
    } else {
        mine
    }
}

/// A bad weights file: the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "weights line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for WeightsError {}

/// The weights files under `crates/chimera-engine/weights/`: variant name,
/// text, and whether the engine uses it. A file is used once a match against
/// the evaluation before it has shown it is stronger; until then it is kept
/// as data. The files here were fitted to Fairy-Stockfish's scores; chess,
/// xiangqi, shogi and janggi each won its matches and are used, makruk's is
/// not yet (docs/strength.md, "Weights fitted to Fairy-Stockfish's scores"
/// and, for xiangqi and janggi's refit, "Regularisation off").
pub const WEIGHT_FILES: &[(&str, &str, bool)] = &[
    ("chess", include_str!("../weights/chess.txt"), true),
    ("shogi", include_str!("../weights/shogi.txt"), true),
    ("xiangqi", include_str!("../weights/xiangqi.txt"), true),
    ("janggi", include_str!("../weights/janggi.txt"), true),
    ("makruk", include_str!("../weights/makruk.txt"), false),
];

/// The tuned weights file a built-in variant uses, by the variant's name, if it has one.
pub fn builtin_weights(name: &str) -> Option<&'static str> {
    WEIGHT_FILES.iter().find(|f| f.0 == name && f.2).map(|f| f.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera::builtin;

    #[test]
    fn names_are_unique_and_files_read_back() {
        for name in ["chess", "shogi", "crazyhouse", "xiangqi", "chushogi"] {
            let v = builtin::variant(name).unwrap();
            let names = Params::names(&v);
            let mut sorted = names.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), names.len(), "{name}: duplicate keys");
            let mut p = Params::zeros_for(&v);
            for (i, x) in p.w.iter_mut().enumerate() {
                *x = i as f64 * 1.5 - 7.0;
            }
            let text = p.to_text(&v, &["a header".into()]);
            let mut q = Params::zeros_for(&v);
            q.apply_text(&v, &text).unwrap();
            assert_eq!(p, q, "{name}");
        }
    }

    #[test]
    fn bad_files_are_errors_naming_the_line() {
        let v = builtin::variant("chess").unwrap();
        let mut p = Params::zeros_for(&v);
        let cases = [
            ("tempo 1\nbogus 3\n", 2, "unknown weight"),
            ("value.p\n", 1, "expected"),
            ("# c\n\nvalue.n abc\n", 3, "not a number"),
            ("value.n 1e300\n", 1, "out of range"),
            ("value.n NaN\n", 1, "out of range"),
            ("tempo 1\ntempo 2\n", 2, "twice"),
            ("tempo 1 2\n", 1, "expected"),
        ];
        for (text, line, what) in cases {
            let e = p.apply_text(&v, text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
        // a partial file sets only its keys
        let mut q = Params::zeros_for(&v);
        q.apply_text(&v, "value.q 950 # the queen\n").unwrap();
        assert_eq!(q.of(v.def.piece_by_letter('q').unwrap(), VALUE), 950.0);
        assert_eq!(q.w.iter().filter(|&&x| x != 0.0).count(), 1);
        // a square weight and an endgame square weight, by their keys
        let mut r = Params::zeros_for(&v);
        r.apply_text(&v, "square.k.g1 12\nsquare_end.k.e4 9\n").unwrap();
        let (k, g) = (v.def.piece_by_letter('k').unwrap(), v.geometry());
        let sq = |name: &str| (0..g.squares()).find(|&s| g.square_name(Square::new(s)) == name).unwrap();
        assert_eq!(r.w[r.square_idx(k, sq("g1"))], 12.0);
        assert_eq!(r.w[r.square_end_idx(k, sq("e4"))], 9.0);
        assert_eq!(r.w.iter().filter(|&&x| x != 0.0).count(), 2);
    }

    #[test]
    fn builtin_files_read_for_their_variants() {
        for &(name, text, _) in WEIGHT_FILES {
            let v = builtin::variant(name).unwrap();
            let mut p = Params::zeros_for(&v);
            p.apply_text(&v, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}
