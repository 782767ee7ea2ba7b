//! `chimera tune`: fits a variant's evaluation weights to labelled positions
//! by the Texel method.
//!
//! The data are lines `FEN;RESULT`, RESULT the game's result from White's
//! side (`1`, `0.5`, `0`, or `1-0`, `1/2-1/2`, `0-1`; a fraction in [0, 1]
//! is read as a probability); `#` starts a comment line. [`crate::selfplay`]
//! makes such files from self-play games.
//!
//! The method: the evaluation `e` of a position (White's side, centipawns)
//! predicts White's score as `sigmoid(e) = 1 / (1 + 10^(-K e / 400))`. First
//! `K` is fitted to the starting weights (the one-dimensional minimum of the
//! mean squared error, by golden-section search); then, with `K` fixed, the
//! weights are moved by gradient descent (Adam, full batch) on the mean
//! squared error of `sigmoid(e)` against the results. The evaluation is, up
//! to rounding, linear in the weights ([`EvalTables::features`]), so the
//! gradient is exact for that linear model; the errors printed before and
//! after are those of the real evaluation with the starting and the fitted
//! weights (rounded to 0.1 as the weights file stores them). One position in
//! ten (every tenth line; see below for whole games) is held out and its
//! error reported apart, as a check against overfitting; it does not take
//! part in the fit. The mop-up weights are not tuned ([`FROZEN`]).
//!
//! Positions of one game are alike, so a held-out position whose
//! neighbours in its game were fitted says little about overfitting. When
//! the data marks its games (a comment line `# game N` before each game's
//! positions, as [`crate::selfplay`] writes them), every tenth game is held
//! out whole instead.
//!
//! The tempo written is not the fitted one but the one at which the
//! static evaluation agrees on average with the evaluation after the side
//! to move's best quiet move ([`consistent_tempo`]), unless
//! [`TuneOptions::fitted_tempo`] asks for the fitted one.

use crate::eval::EvalTables;
use crate::params::{self, Params};
use crate::search::is_tactical;
use chimera::position::Position;
use chimera::square::Color;
use chimera::variant::Variant;
use std::sync::Arc;

/// Weights the tuner leaves as they are: the mop-up's, which guide the
/// search toward a mate in won endings rather than predict results.
pub const FROZEN: [usize; 2] = [params::MOP_EDGE, params::MOP_NEAR];

/// One labelled position.
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// White's score in the game it comes from, in [0, 1].
    pub result: f64,
    /// The game it comes from (counted from 0 in the data), when the data
    /// marks its games with `# game` comment lines.
    pub game: Option<usize>,
}

/// Whether a data line is the comment that starts a game's positions
/// (`# game`, then nothing or a space and anything).
fn is_game_marker(line: &str) -> bool {
    line.strip_prefix('#')
        .and_then(|rest| rest.trim_start().strip_prefix("game"))
        .is_some_and(|tail| tail.is_empty() || tail.starts_with(char::is_whitespace))
}

/// Reads a data file's text (see the module documentation). An error names
/// the line.
pub fn parse_data(v: &Arc<Variant>, text: &str) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    let mut game = None::<usize>;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if is_game_marker(line) {
            game = Some(game.map_or(0, |g| g + 1));
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |m: String| format!("data line {}: {m}", n + 1);
        let (fen, res) = line.rsplit_once(';').ok_or_else(|| err("expected `FEN;RESULT`".into()))?;
        let result = match res.trim() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            r => r
                .parse::<f64>()
                .ok()
                .filter(|x| (0.0..=1.0).contains(x))
                .ok_or_else(|| err(format!("'{r}' is not a result (1, 0.5, 0, 1-0, 1/2-1/2, 0-1)")))?,
        };
        let pos = Position::from_fen(v.clone(), fen.trim()).map_err(|e| err(e.to_string()))?;
        out.push(Sample { pos, result, game });
    }
    if out.is_empty() {
        return Err("the data has no positions".into());
    }
    Ok(out)
}

/// White's expected score for an evaluation `e` (centipawns, White's side).
#[inline]
pub fn sigmoid(e: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// The evaluation of a position from White's side.
pub fn white_eval(ev: &EvalTables, pos: &Position) -> f64 {
    let e = ev.evaluate(pos) as f64;
    if pos.side_to_move() == Color::White {
        e
    } else {
        -e
    }
}

/// How much the best move that neither captures nor promotes raises the
/// evaluation of the side to move of `pos`, in centipawns, the tempo left
/// out: the child's evaluation (negated, so from the mover's side) less
/// the position's, plus twice `ev`'s tempo (once for the position, once
/// for the child). `None` in check or without such a move.
///
/// A search stands pat on the static evaluation, which counts the tempo
/// for the side to move; one ply later the same side gets the evaluation
/// of its best move, where the tempo counts for the other side. The two
/// agree on average when the tempo is half the mean of this gain
/// ([`consistent_tempo`]).
pub fn quiet_gain(ev: &EvalTables, pos: &mut Position) -> Option<f64> {
    if pos.in_check() {
        return None;
    }
    let here = ev.evaluate(pos);
    let mut best = None::<i32>;
    for m in pos.legal_moves() {
        if is_tactical(pos, m) {
            continue;
        }
        let undo = pos.make(m);
        let e = -ev.evaluate(pos);
        pos.unmake(m, &undo);
        best = Some(best.map_or(e, |b| b.max(e)));
    }
    best.map(|b| (b - here + 2 * ev.tempo()) as f64)
}

/// The tempo at which the static evaluation of `ev`'s weights agrees on
/// average with the evaluation after the best quiet move
/// ([`quiet_gain`]): half the mean gain over `positions`, rounded to 0.1,
/// with the number of positions that had a gain. `None` when none had.
///
/// A tempo fitted to game results or to a deeper engine's scores holds
/// what the side to move gains from threats the evaluation does not see.
/// In a search that value is paid out twice over: a capture that ends the
/// exchange one ply later hands the tempo to the other side, which makes
/// it look worse by twice the tempo than it is.
pub fn consistent_tempo<'a>(
    ev: &EvalTables,
    positions: impl IntoIterator<Item = &'a Position>,
) -> Option<(f64, usize)> {
    let (mut sum, mut n) = (0.0, 0usize);
    for p in positions {
        let mut pos = p.clone();
        if let Some(g) = quiet_gain(ev, &mut pos) {
            sum += g;
            n += 1;
        }
    }
    (n > 0).then(|| (((sum / n as f64 / 2.0) * 10.0).round() / 10.0, n))
}

/// The mean squared error of `sigmoid(e)` against the results, for
/// evaluations `evals` and results `results`.
pub fn error_of(evals: &[f64], results: &[f64], k: f64) -> f64 {
    let n = evals.len().max(1) as f64;
    evals.iter().zip(results).map(|(&e, &r)| (sigmoid(e, k) - r).powi(2)).sum::<f64>() / n
}

/// The `K` minimising [`error_of`], by golden-section search over [0.05, 10]
/// on a log scale.
pub fn fit_k(evals: &[f64], results: &[f64]) -> f64 {
    let f = |lk: f64| error_of(evals, results, lk.exp());
    let (mut a, mut b) = (0.05f64.ln(), 10f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// The tuner's settings.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Gradient steps.
    pub iterations: usize,
    /// A fixed `K` instead of the fitted one.
    pub k: Option<f64>,
    /// The base step of Adam, in centipawns (scaled per weight by its size).
    pub rate: f64,
    /// Ridge penalty toward the starting weights: `reg` times the sum of
    /// `((w - w0) / max(|w0|, 20))^2` is added to the error, so that weights of
    /// rare terms (a promoted piece seen in a few positions) stay near their defaults.
    pub reg: f64,
    /// Whether the piece-square weights are fitted too (else they keep
    /// their starting values).
    pub squares: bool,
    /// Keep the fitted tempo. Otherwise (the default) the tempo of the
    /// weights written is the one-ply consistent one of the fitted weights
    /// ([`consistent_tempo`] over the data's positions).
    pub fitted_tempo: bool,
    /// Fit only the weights whose keys match one of these patterns (a key,
    /// or a prefix ending in `*`: `en_prise_*`, `value.*`); the others keep
    /// their starting values, the tempo too unless a pattern names it.
    /// `None` fits every weight ([`TuneOptions::squares`] and [`FROZEN`]
    /// still apply).
    pub only: Option<Vec<String>>,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions { iterations: 1000, k: None, rate: 1.0, reg: 1e-4, squares: false, fitted_tempo: false, only: None }
    }
}

/// Which weights of variant `v` the patterns of [`TuneOptions::only`] name:
/// a mask over [`Params::names`]. A pattern that names no weight is an error.
pub fn only_mask(v: &Variant, patterns: &[String]) -> Result<Vec<bool>, String> {
    let names = Params::names(v);
    let mut mask = vec![false; names.len()];
    for p in patterns {
        let matches = |n: &str| match p.strip_suffix('*') {
            Some(prefix) => n.starts_with(prefix),
            None => n == p,
        };
        let mut any = false;
        for (m, n) in mask.iter_mut().zip(&names) {
            if matches(n) {
                *m = true;
                any = true;
            }
        }
        if !any {
            return Err(format!("--only: '{p}' names no weight of variant {}", v.def.name));
        }
    }
    Ok(mask)
}

/// What a tuning run found.
#[derive(Clone, Debug)]
pub struct TuneOutcome {
    /// The scaling constant used.
    pub k: f64,
    /// The real evaluation's error with the starting weights: fitted part, held-out part.
    pub before: (f64, f64),
    /// The same with the fitted weights.
    pub after: (f64, f64),
    /// The linear model's error on the fitted part, before and after.
    pub model: (f64, f64),
    /// The fitted weights, rounded to 0.1.
    pub params: Params,
    /// Positions fitted and held out.
    pub counts: (usize, usize),
    /// The tempo the fit found, and the consistent tempo that replaced it
    /// with the number of positions it was measured on (`None` with
    /// [`TuneOptions::fitted_tempo`], or when no position had a quiet move).
    pub tempo: (f64, Option<(f64, usize)>),
}

/// Whether `data` marks its games ([`Sample::game`] of the first sample:
/// a file marks all its games or none), ten or more of them, so that
/// holding out every tenth game leaves some out.
pub fn games_marked(data: &[Sample]) -> bool {
    data.first().is_some_and(|s| s.game.is_some()) && data.iter().filter_map(|s| s.game).max() >= Some(9)
}

/// The positions fitted and those held out: every tenth game when the data
/// marks its games ([`games_marked`]), otherwise every tenth position.
pub fn split_held_out(data: &[Sample]) -> (Vec<&Sample>, Vec<&Sample>) {
    let by_game = games_marked(data);
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for (i, s) in data.iter().enumerate() {
        let n = if by_game { s.game.unwrap_or(0) } else { i };
        if n % 10 == 9 {
            held.push(s);
        } else {
            fit.push(s);
        }
    }
    (fit, held)
}

/// Tunes the weights of variant `v`, from `start`, on `data`; `progress`
/// sees (iteration, model error) now and then.
pub fn tune(
    v: &Arc<Variant>,
    data: &[Sample],
    start: &Params,
    o: &TuneOptions,
    progress: &mut dyn FnMut(usize, f64),
) -> Result<TuneOutcome, String> {
    let ev0 = EvalTables::with_params(v, start)?;
    let only = match &o.only {
        Some(patterns) => Some(only_mask(v, patterns)?),
        None => None,
    };
    let (fit, held) = split_held_out(data);
    if fit.is_empty() {
        return Err("no positions to fit".into());
    }
    let real = |ev: &EvalTables, set: &[&Sample], k: f64| {
        let e: Vec<f64> = set.iter().map(|s| white_eval(ev, &s.pos)).collect();
        let r: Vec<f64> = set.iter().map(|s| s.result).collect();
        error_of(&e, &r, k)
    };
    let results: Vec<f64> = fit.iter().map(|s| s.result).collect();
    let evals0: Vec<f64> = fit.iter().map(|s| white_eval(&ev0, &s.pos)).collect();
    let k = o.k.unwrap_or_else(|| fit_k(&evals0, &results));
    let before = (error_of(&evals0, &results, k), real(&ev0, &held, k));
    // the features, once (row-major)
    let np = start.w.len();
    let mut x = Vec::with_capacity(fit.len() * np);
    for s in &fit {
        x.extend(ev0.features(&s.pos).into_iter().map(|f| f as f32));
    }
    let n = fit.len();
    let model_error = |w: &[f64], grad: Option<&mut Vec<f64>>| -> f64 {
        let c = k * std::f64::consts::LN_10 / 400.0;
        let mut err = 0.0;
        let mut g = vec![0.0f64; np];
        for j in 0..n {
            let row = &x[j * np..(j + 1) * np];
            let e: f64 = row.iter().zip(w).map(|(&f, &w)| f as f64 * w).sum();
            let s = sigmoid(e, k);
            let d = s - results[j];
            err += d * d;
            let coef = 2.0 * d * s * (1.0 - s) * c;
            for (gi, &f) in g.iter_mut().zip(row) {
                *gi += coef * f as f64;
            }
        }
        if let Some(out) = grad {
            for (o, gi) in out.iter_mut().zip(&g) {
                *o = gi / n as f64;
            }
        }
        err / n as f64
    };
    // per-weight step: proportional to the weight's size (a scale such as
    // `promo` moves in hundredths, a piece value in centipawns)
    let step: Vec<f64> = (0..np)
        .map(|i| {
            if FROZEN.contains(&i)
                || (!o.squares && i >= start.square_idx(0, 0))
                || only.as_ref().is_some_and(|m| !m[i])
            {
                0.0
            } else if i == params::PROMO {
                0.01 * o.rate
            } else {
                o.rate * (0.5 + 0.01 * start.w[i].abs())
            }
        })
        .collect();
    let mut w = start.w.clone();
    let model_before = model_error(&w, None);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12f64);
    let mut m = vec![0.0f64; np];
    let mut vv = vec![0.0f64; np];
    let mut grad = vec![0.0f64; np];
    for it in 1..=o.iterations {
        let e = model_error(&w, Some(&mut grad));
        for i in 0..np {
            let sc = start.w[i].abs().max(20.0);
            grad[i] += 2.0 * o.reg * (w[i] - start.w[i]) / (sc * sc);
        }
        if it == 1 || it % 100 == 0 {
            progress(it, e);
        }
        for i in 0..np {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            vv[i] = b2 * vv[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = vv[i] / (1.0 - b2.powi(it as i32));
            if vh > 0.0 {
                w[i] -= step[i] * mh / (vh.sqrt() + eps);
            }
        }
    }
    for x in w.iter_mut() {
        *x = (*x * 10.0).round() / 10.0;
    }
    let model_after = model_error(&w, None);
    let mut tuned = Params { w, ..start.clone() };
    let fitted = tuned.w[params::TEMPO];
    let mut consistent = None;
    let tempo_fitted = only.as_ref().is_none_or(|m| m[params::TEMPO]);
    if !o.fitted_tempo && tempo_fitted {
        let ev = EvalTables::with_params(v, &tuned)?;
        consistent = consistent_tempo(&ev, data.iter().map(|s| &s.pos));
        if let Some((t, _)) = consistent {
            tuned.w[params::TEMPO] = t;
        }
    }
    let ev1 = EvalTables::with_params(v, &tuned)?;
    let after = (real(&ev1, &fit, k), real(&ev1, &held, k));
    Ok(TuneOutcome {
        k,
        before,
        after,
        model: (model_before, model_after),
        params: tuned,
        counts: (fit.len(), held.len()),
        tempo: (fitted, consistent),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimera::builtin;

    /// Positions from random games (deterministic), quiet or not.
    fn random_positions(v: &Arc<Variant>, n: usize) -> Vec<Position> {
        let mut out = Vec::new();
        let mut seed = 7u64;
        let mut rnd = |m: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % m
        };
        while out.len() < n {
            let mut pos = Position::start(v.clone());
            for _ in 0..40 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rnd(moves.len())]);
                out.push(pos.clone());
            }
        }
        out.truncate(n);
        out
    }

    /// `n` random positions labelled by the linear model with weights
    /// `truth` over the features of `ev`, as win chances at K = 1.
    fn labelled_by(v: &Arc<Variant>, ev: &EvalTables, truth: &Params, n: usize) -> Vec<Sample> {
        random_positions(v, n)
            .into_iter()
            .map(|pos| {
                let f = ev.features(&pos);
                let e: f64 = f.iter().zip(&truth.w).map(|(a, b)| a * b).sum();
                Sample { pos, result: sigmoid(e, 1.0), game: None }
            })
            .collect()
    }

    /// Options for labels made by the linear model at K = 1: `iterations`
    /// steps, no ridge penalty, the fitted tempo kept.
    fn exact_fit(iterations: usize) -> TuneOptions {
        TuneOptions { iterations, k: Some(1.0), rate: 2.0, reg: 0.0, fitted_tempo: true, ..TuneOptions::default() }
    }

    /// Chess, its derived default weights, the true weights of labels
    /// ([`labelled_by`]: the knight worth 120 more, the pawn's term
    /// `pawn_term` moved by `delta`, a tempo of 40), `count` positions so
    /// labelled, and the knight's type.
    fn chess_labels(pawn_term: usize, delta: f64, count: usize) -> (Arc<Variant>, Params, Params, Vec<Sample>, usize) {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let start = EvalTables::default_params(&v);
        let ev = EvalTables::with_params(&v, &start).unwrap();
        let n = v.def.piece_by_letter('n').unwrap();
        let p = v.def.piece_by_letter('p').unwrap();
        let mut truth = start.clone();
        truth.w[Params::idx(n, params::VALUE)] += 120.0;
        truth.w[Params::idx(p, pawn_term)] += delta;
        truth.w[params::TEMPO] = 40.0;
        let data = labelled_by(&v, &ev, &truth, count);
        (v, start, truth, data, n)
    }

    /// Labels made by a known evaluation (the linear model with weights
    /// `truth`, as probabilities at K = 1): the tuner, started from the
    /// defaults, must bring the error close to 0 and the changed weights
    /// close to their true values.
    #[test]
    fn the_tuner_finds_a_known_optimum() {
        let (v, start, truth, data, n) = chess_labels(params::VALUE, -30.0, 400);
        let o = exact_fit(600);
        let out = tune(&v, &data, &start, &o, &mut |_, _| {}).unwrap();
        assert!(out.model.0 > 1e-3, "the start is not already optimal: {:?}", out.model);
        assert!(out.model.1 < out.model.0 / 20.0, "model error {:?}", out.model);
        assert!(out.after.0 < out.before.0 / 5.0, "real error {:?} -> {:?}", out.before, out.after);
        assert!(out.after.1 < out.before.1, "held-out error {:?} -> {:?}", out.before, out.after);
        let got = out.params.of(n, params::VALUE);
        let want = truth.of(n, params::VALUE);
        assert!((got - want).abs() < 25.0, "knight {got}, true {want}");
        assert!((out.params.w[params::TEMPO] - 40.0).abs() < 10.0, "tempo {}", out.params.w[params::TEMPO]);
    }

    /// Labels from a model whose only change is a square weight (a knight
    /// on f3 or, for Black, f6, worth 80 more): the square weights move only
    /// (and the endgame square weights) move only with `squares`, and
    /// fitting them finds that one.
    #[test]
    fn square_weights_are_fitted_only_when_asked() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let start = EvalTables::default_params(&v);
        let ev = EvalTables::with_params(&v, &start).unwrap();
        let mut truth = start.clone();
        let n = v.def.piece_by_letter('n').unwrap();
        let f3 = v.geometry().square(5, 2).unwrap().index();
        let at = truth.square_idx(n, f3);
        truth.w[at] = 80.0;
        let data = labelled_by(&v, &ev, &truth, 400);
        let first = start.square_idx(0, 0);
        let mut o = exact_fit(400);
        let without = tune(&v, &data, &start, &o, &mut |_, _| {}).unwrap();
        assert!(without.params.w[first..].iter().all(|&x| x == 0.0), "square weights moved");
        o.squares = true;
        let with = tune(&v, &data, &start, &o, &mut |_, _| {}).unwrap();
        assert!(with.model.1 < without.model.1, "{:?} against {:?}", with.model, without.model);
        // (among the square weights; the endgame square weights, fitted too, share their signal)
        let squares = &with.params.w[first..start.square_end_idx(0, 0)];
        let (best, _) = squares.iter().enumerate().max_by(|a, b| a.1.partial_cmp(b.1).unwrap()).unwrap();
        assert_eq!(first + best, at, "the largest square weight is not the knight's on f3");
    }

    /// With `only`, the weights not named keep their starting values (the
    /// tempo too), and the named ones move toward the labels' values; a
    /// pattern naming nothing is an error.
    #[test]
    fn only_the_named_weights_are_fitted() {
        let (v, start, _, data, n) = chess_labels(params::MOBILITY, 30.0, 300);
        let o =
            TuneOptions { fitted_tempo: false, only: Some(vec!["value.*".into(), "threat".into()]), ..exact_fit(400) };
        let out = tune(&v, &data, &start, &o, &mut |_, _| {}).unwrap();
        let names = Params::names(&v);
        for (i, name) in names.iter().enumerate() {
            if !name.starts_with("value.") && name != "threat" {
                assert_eq!(out.params.w[i], (start.w[i] * 10.0).round() / 10.0, "{name} moved");
            }
        }
        assert_eq!(out.tempo.1, None, "the tempo is not named: no consistent tempo replaces it");
        let (got, was) = (out.params.of(n, params::VALUE), start.of(n, params::VALUE));
        assert!(got > was + 40.0, "the knight's value should move toward the labels': {was} -> {got}");
        assert!(out.model.1 < out.model.0, "{:?}", out.model);
        let bad = TuneOptions { only: Some(vec!["valu".into()]), ..o };
        let e = tune(&v, &data, &start, &bad, &mut |_, _| {}).unwrap_err();
        assert!(e.contains("'valu' names no weight"), "{e}");
        assert_eq!(only_mask(&v, &["en_prise_*".into()]).unwrap().iter().filter(|&&m| m).count(), 2);
    }

    /// The consistent tempo does not depend on the tempo the weights hold,
    /// and with it the static evaluation equals on average the evaluation
    /// after the best quiet move (worked out here without the tempo
    /// arithmetic of `quiet_gain`), up to the rounding of the tempo to whole
    /// centipawns.
    #[test]
    fn the_consistent_tempo_makes_one_ply_agree() {
        for name in ["chess", "shogi", "xiangqi"] {
            let v = Arc::new(builtin::variant(name).unwrap());
            let positions = random_positions(&v, 150);
            let mut p = EvalTables::default_params(&v);
            p.w[params::TEMPO] = 0.0;
            let (t0, n0) = consistent_tempo(&EvalTables::with_params(&v, &p).unwrap(), &positions).unwrap();
            p.w[params::TEMPO] = 100.0;
            let (t1, n1) = consistent_tempo(&EvalTables::with_params(&v, &p).unwrap(), &positions).unwrap();
            assert_eq!((t0, n0), (t1, n1), "{name}");
            assert!(t0 > 0.0, "{name}: the best quiet move gains nothing ({t0})");
            p.w[params::TEMPO] = t0;
            let ev = EvalTables::with_params(&v, &p).unwrap();
            let (mut sum, mut n) = (0i64, 0i64);
            for start in &positions {
                let mut pos = start.clone();
                if pos.in_check() {
                    continue;
                }
                let here = ev.evaluate(&pos);
                let mut best = None;
                for m in pos.legal_moves() {
                    if is_tactical(&pos, m) {
                        continue;
                    }
                    let undo = pos.make(m);
                    let e = -ev.evaluate(&pos);
                    pos.unmake(m, &undo);
                    best = best.max(Some(e));
                }
                if let Some(b) = best {
                    sum += (b - here) as i64;
                    n += 1;
                }
            }
            assert_eq!(n as usize, n0, "{name}");
            let gap = sum as f64 / n as f64;
            assert!(
                gap.abs() <= 1.0,
                "{name}: tempo {t0}, the best quiet move's evaluation differs by {gap} on average"
            );
        }
    }

    /// By default the tuner writes the consistent tempo of the fitted
    /// weights, not the fitted one.
    #[test]
    fn the_tuner_writes_the_consistent_tempo() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let start = EvalTables::default_params(&v);
        let ev = EvalTables::with_params(&v, &start).unwrap();
        let mut truth = start.clone();
        truth.w[params::TEMPO] = 90.0;
        let data = labelled_by(&v, &ev, &truth, 200);
        let o = TuneOptions { iterations: 300, k: Some(1.0), rate: 2.0, reg: 0.0, ..TuneOptions::default() };
        let out = tune(&v, &data, &start, &o, &mut |_, _| {}).unwrap();
        let (fitted, Some((t, n))) = out.tempo else { panic!("no consistent tempo: {:?}", out.tempo) };
        assert!(fitted > 60.0, "the fit should find the labels' tempo: {fitted}");
        assert_eq!(out.params.w[params::TEMPO], t);
        let again = consistent_tempo(&EvalTables::with_params(&v, &out.params).unwrap(), data.iter().map(|s| &s.pos));
        assert_eq!(again, Some((t, n)));
    }

    #[test]
    fn k_is_fitted_to_the_data() {
        // results drawn from K = 0.8 exactly: the fit finds it
        let evals: Vec<f64> = (-50..50).map(|i| i as f64 * 20.0).collect();
        let results: Vec<f64> = evals.iter().map(|&e| sigmoid(e, 0.8)).collect();
        let k = fit_k(&evals, &results);
        assert!((k - 0.8).abs() < 1e-3, "{k}");
    }

    #[test]
    fn whole_games_are_held_out_when_the_data_marks_them() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        // twenty games of 3, 1, 3, 1, ... positions
        let mut text = String::from("# labels: a comment, not a game\n");
        for g in 0..20 {
            text.push_str(&format!("# game {}\n", g + 1));
            for _ in 0..(if g % 2 == 0 { 3 } else { 1 }) {
                text.push_str(&format!("{start};0.5\n"));
            }
        }
        let data = parse_data(&v, &text).unwrap();
        assert_eq!(data.len(), 40);
        assert!(games_marked(&data));
        let (fit, held) = split_held_out(&data);
        // games 10 and 20 (indices 9 and 19), one position each, held out whole
        assert_eq!((fit.len(), held.len()), (38, 2));
        assert!(held.iter().all(|s| matches!(s.game, Some(9) | Some(19))));
        assert!(fit.iter().all(|s| !matches!(s.game, Some(9) | Some(19))));
        // fewer than ten games: every tenth position
        let few: String = text.lines().take(16).map(|l| format!("{l}\n")).collect();
        let data = parse_data(&v, &few).unwrap();
        assert_eq!(data.len(), 10);
        assert!(!games_marked(&data));
        assert_eq!(split_held_out(&data).1.len(), 1);
        // a comment that only starts with the word is not a marker
        let data = parse_data(&v, &format!("# games below\n{start};1\n# gameplay\n{start};0\n")).unwrap();
        assert!(data.iter().all(|s| s.game.is_none()));
        // without markers: every tenth position
        let plain: String = text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
        let data = parse_data(&v, &plain).unwrap();
        assert!(!games_marked(&data));
        let (fit, held) = split_held_out(&data);
        assert_eq!((fit.len(), held.len()), (36, 4));
    }

    #[test]
    fn bad_data_lines_are_errors() {
        let v = Arc::new(builtin::variant("chess").unwrap());
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(parse_data(&v, &format!("# c\n{start};1-0\n{start};0.5\n")).unwrap().len(), 2);
        for (text, what) in [
            (format!("{start}\n"), "line 1: expected"),
            (format!("\n{start};2\n"), "line 2: '2' is not a result"),
            ("xx;1\n".to_string(), "line 1:"),
            (String::new(), "no positions"),
        ] {
            let e = parse_data(&v, &text).err().unwrap();
            assert!(e.contains(what), "{text:?}: {e}");
        }
    }
}
