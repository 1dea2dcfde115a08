//! The statistics of a tournament: means with 95% confidence intervals, the game-length
//! distribution, Bradley–Terry Elo ratings with a first-seat term, and the sequential
//! probability ratio test (SPRT).
//!
//! Everything here is plain arithmetic on numbers, independent of games and agents, so each
//! formula can be checked against values worked out by hand.
//!
//! # Units of observation
//! With duplicate dice the games of one rotation (the same game seed, seats rotated) share
//! their throws, so they are not independent: the luck cancels between them. Confidence
//! intervals of scores are therefore computed over **rotations**, one observation per
//! rotation (its mean), which is both honest and narrower than treating games as
//! independent.
//!
//! # Elo
//! See [`fit_elo`]: a Bradley–Terry (logistic) model fitted by maximum likelihood with
//! Newton's method, 95% Wald intervals from the observed Fisher information.
//!
//! # SPRT
//! See [`Sprt`]: the generalised SPRT with the normal approximation used by fishtest, on
//! per-rotation scores.

use serde::{Deserialize, Serialize};

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo points per natural-logarithm unit of odds: `400 / ln 10`. An Elo difference `d`
/// gives the expected score `1 / (1 + 10^(-d/400))`.
pub const ELO_PER_NAT: f64 = 400.0 / core::f64::consts::LN_10;

/// The expected score of a player `elo` points stronger than its opponent.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A mean with its 95% confidence interval.
///
/// ```
/// use stickdice_evaluation::stats::Estimate;
/// let e = Estimate::of(&[1.0, 0.0, 1.0, 1.0]);
/// assert_eq!((e.n, e.mean), (4, 0.75));
/// assert!(e.half_width.unwrap() > 0.0);
/// assert_eq!(Estimate::of(&[0.5]).half_width, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The number of observations.
    pub n: usize,
    /// The mean (0 when there are none).
    pub mean: f64,
    /// The half-width of the 95% interval: `mean ± half_width`. `None` with fewer than two
    /// observations.
    pub half_width: Option<f64>,
}

impl Estimate {
    /// The mean of `xs` with a normal-approximation 95% interval,
    /// `mean ± 1.96 · s / √n`, where `s` is the sample standard deviation (divisor `n − 1`).
    pub fn of(xs: &[f64]) -> Estimate {
        let n = xs.len();
        if n == 0 {
            return Estimate {
                n,
                mean: 0.0,
                half_width: None,
            };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        let half_width = (n >= 2).then(|| {
            let ss: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
            Z95 * (ss / (n - 1) as f64).sqrt() / (n as f64).sqrt()
        });
        Estimate {
            n,
            mean,
            half_width,
        }
    }
}

/// A 95% interval for the mean of scores in `[0, 1]` (one per rotation) that stays in
/// `[0, 1]` and is honest for small samples and perfect records: the Wilson score interval,
/// with the sample size replaced by the effective sample size `n · m(1 − m) / s²` (Kish's
/// design effect: `s²` is the sample variance, so scores that vary less than a win-or-loss
/// record give a narrower interval, as the normal interval would) — and by `n` itself when
/// the scores do not vary (`s² = 0`, for example a perfect record), where nothing better is
/// known than a win-or-loss record. `None` without observations.
pub fn score_interval(xs: &[f64]) -> Option<(f64, f64)> {
    let n = xs.len();
    if n == 0 {
        return None;
    }
    let m = (xs.iter().sum::<f64>() / n as f64).clamp(0.0, 1.0);
    let bernoulli = m * (1.0 - m);
    let var = if n >= 2 {
        xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let n_eff = if var > 0.0 && bernoulli > 0.0 {
        n as f64 * bernoulli / var
    } else {
        n as f64
    };
    Some(wilson(m, n_eff))
}

/// The Wilson score interval (95%) for a proportion `p` observed over `n` trials.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A distribution of whole numbers (game lengths in throws) summarised.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Distribution {
    /// The number of values.
    pub n: usize,
    /// The smallest.
    pub min: u32,
    /// The mean.
    pub mean: f64,
    /// The median: the middle value, or the mean of the two middle values when `n` is even.
    pub median: f64,
    /// The 90th percentile by the nearest-rank method: the `⌈0.9 n⌉`-th smallest value.
    pub p90: u32,
    /// The largest.
    pub max: u32,
}

impl Distribution {
    /// Summarises `values` (`None` when empty).
    pub fn of(values: &[u32]) -> Option<Distribution> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_unstable();
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2] as f64
        } else {
            (v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0
        };
        let rank = (9 * n).div_ceil(10).max(1);
        Some(Distribution {
            n,
            min: v[0],
            mean: v.iter().map(|&x| x as f64).sum::<f64>() / n as f64,
            median,
            p90: v[rank - 1],
            max: v[n - 1],
        })
    }
}

/// One pairwise comparison for the Elo fit: agent `first` (in the earlier seat, which gets
/// the first-seat term) met agent `second`, and `first` scored `score` (1 win, ½ tie,
/// 0 loss), counting with weight `weight`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// The agent in the earlier seat.
    pub first: usize,
    /// The agent in the later seat.
    pub second: usize,
    /// The earlier seat's score against the later one.
    pub score: f64,
    /// How much the comparison counts (1 for a two-player game).
    pub weight: f64,
}

/// Elo ratings fitted to comparisons.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloFit {
    /// Each agent's rating, Elo points, relative to the mean of all agents (they sum to 0).
    pub ratings: Vec<f64>,
    /// The half-width of each rating's 95% interval (`None` if the information matrix is
    /// singular).
    pub half_widths: Vec<Option<f64>>,
    /// The first-seat advantage in Elo points: the bonus of the earlier seat in a pair.
    pub first_seat: f64,
    /// The half-width of its 95% interval.
    pub first_seat_half_width: Option<f64>,
    /// Newton iterations used.
    pub iterations: usize,
    /// The half-width of the 95% interval of each agent's rating *minus agent 0's* (0 for
    /// agent 0; `None` if singular): the intervals of a ladder anchored at agent 0.
    #[serde(default)]
    pub anchored_half_widths: Vec<Option<f64>>,
}

/// Why ratings could not be fitted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EloError {
    /// Fewer than two agents.
    TooFewAgents,
    /// The likelihood has no finite maximum (for example an agent won every comparison and
    /// there is no prior), or some agents never met the others.
    NoMaximum,
}

impl core::fmt::Display for EloError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EloError::TooFewAgents => write!(f, "Elo ratings need at least two agents"),
            EloError::NoMaximum => write!(
                f,
                "the Elo likelihood has no finite maximum (an agent won or lost every game, or agents never met)"
            ),
        }
    }
}

impl std::error::Error for EloError {}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `ln σ(x)`, stable for large `|x|`.
fn ln_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// Aggregated data: `games[a][b]` is the weight of comparisons with `a` first and `b`
/// second, `points[a][b]` `a`'s weighted score in them.
struct Table {
    k: usize,
    games: Vec<f64>,
    points: Vec<f64>,
}

impl Table {
    fn at(&self, a: usize, b: usize) -> (f64, f64) {
        (self.games[a * self.k + b], self.points[a * self.k + b])
    }
}

/// The log-likelihood and, for the parameters `θ = (r_1 … r_{k−1}, h)` (with `r_0 = 0`),
/// its gradient and the observed information (minus the Hessian), in natural units.
fn likelihood(
    t: &Table,
    prior: f64,
    r: &[f64],
    h: f64,
    want_derivatives: bool,
) -> (f64, Vec<f64>, Vec<f64>) {
    let k = t.k;
    let p = k; // k − 1 ratings + h
    let mut ll = 0.0;
    let mut grad = vec![0.0; if want_derivatives { p } else { 0 }];
    let mut info = vec![0.0; if want_derivatives { p * p } else { 0 }];
    // Parameter index of agent a's rating (agent 0 is fixed), and of h.
    let idx = |a: usize| if a == 0 { None } else { Some(a - 1) };
    let hi = k - 1;
    let mut term = |a: usize, b: usize, n: f64, s: f64, with_h: bool| {
        if n == 0.0 {
            return;
        }
        let x = r[a] - r[b] + if with_h { h } else { 0.0 };
        ll += s * ln_sigmoid(x) + (n - s) * ln_sigmoid(-x);
        if !want_derivatives {
            return;
        }
        let q = sigmoid(x);
        let g = s - n * q; // dℓ/dx
        let w = n * q * (1.0 - q); // −d²ℓ/dx²
                                   // dx/dθ: +1 for a, −1 for b, +1 for h.
        let mut d: [(usize, f64); 3] = [(usize::MAX, 0.0); 3];
        let mut m = 0;
        if let Some(i) = idx(a) {
            d[m] = (i, 1.0);
            m += 1;
        }
        if let Some(i) = idx(b) {
            d[m] = (i, -1.0);
            m += 1;
        }
        if with_h {
            d[m] = (hi, 1.0);
            m += 1;
        }
        for &(i, di) in &d[..m] {
            grad[i] += g * di;
            for &(j, dj) in &d[..m] {
                info[i * p + j] += w * di * dj;
            }
        }
    };
    for a in 0..k {
        for b in 0..k {
            let (n, s) = t.at(a, b);
            term(a, b, n, s, true);
        }
    }
    if prior > 0.0 {
        // Virtual draws between every two agents that met, half with each in the first
        // seat: they keep ratings and the first-seat term finite.
        for a in 0..k {
            for b in 0..k {
                if a != b && (t.at(a, b).0 > 0.0 || t.at(b, a).0 > 0.0) {
                    let n = prior / 2.0;
                    term(a, b, n, n / 2.0, true);
                }
            }
        }
    }
    (ll, grad, info)
}

/// Solves `m x = v` for a small dense symmetric positive-definite `m` (Gaussian elimination
/// with partial pivoting). `None` if `m` is singular.
fn solve(m: &[f64], v: &[f64]) -> Option<Vec<f64>> {
    let n = v.len();
    let mut a = m.to_vec();
    let mut b = v.to_vec();
    for col in 0..n {
        let piv =
            (col..n).max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs()))?;
        let scale = (0..n)
            .map(|j| a[col * n + j].abs())
            .fold(0.0, f64::max)
            .max(1e-300);
        if a[piv * n + col].abs() <= 1e-12 * scale.max(1.0) {
            return None;
        }
        if piv != col {
            for j in 0..n {
                a.swap(piv * n + j, col * n + j);
            }
            b.swap(piv, col);
        }
        for i in col + 1..n {
            let f = a[i * n + col] / a[col * n + col];
            for j in col..n {
                a[i * n + j] -= f * a[col * n + j];
            }
            b[i] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| a[i * n + j] * x[j]).sum();
        x[i] = (b[i] - s) / a[i * n + i];
    }
    Some(x)
}

/// Fits Bradley–Terry Elo ratings with a first-seat term to pairwise comparisons of `k`
/// agents.
///
/// **Model.** In a comparison with agent `a` in the earlier seat and `b` in the later one,
/// `P(a ranks above b) = σ(r_a − r_b + h)` with `σ` the logistic function; ties count half a
/// win and half a loss. Ratings `r` and the first-seat term `h` are in natural units here
/// and reported in Elo (× 400 / ln 10); ratings are shifted to average 0.
///
/// **Fit.** Maximum likelihood by Newton's method with step halving, from all ratings 0.
/// `prior` adds that many virtual drawn comparisons between every two agents that met (half
/// with each agent first), as BayesElo does, so that an agent that won every game still
/// gets a finite rating; 0 gives the plain maximum-likelihood estimate.
///
/// **Intervals.** 95% Wald intervals `± 1.96 · √var`, with the covariance the inverse of
/// the observed Fisher information at the maximum (agent 0's rating held at 0), carried
/// over to the mean-zero ratings. They treat comparisons as independent; see
/// [`fit_elo_paired`] for comparisons that come in dependent groups.
///
/// # Errors
/// [`EloError`] with fewer than two agents or when the likelihood has no finite maximum.
pub fn fit_elo(k: usize, comparisons: &[Comparison], prior: f64) -> Result<EloFit, EloError> {
    fit(k, comparisons, None, prior)
}

/// As [`fit_elo`], for comparisons that come in groups whose results are not independent:
/// `units[i]` is the group (the rotation) of `comparisons[i]`. With duplicate dice the
/// games of a rotation share their throws, so when they come out alike (the first seat
/// wins every game of the rotation) they are one piece of evidence, not several.
///
/// **Intervals** use the cluster-robust (sandwich) covariance `I⁻¹ (Σ_u g_u g_uᵀ) I⁻¹`,
/// where `g_u` is the gradient of the log-likelihood from the comparisons of group `u` at
/// the maximum and `I` the observed information — but never narrower than the Wald
/// interval of [`fit_elo`] (a few groups make the sandwich noisy).
///
/// # Errors
/// As [`fit_elo`].
///
/// # Panics
/// If `units` and `comparisons` differ in length.
pub fn fit_elo_paired(
    k: usize,
    comparisons: &[Comparison],
    units: &[usize],
    prior: f64,
) -> Result<EloFit, EloError> {
    assert_eq!(units.len(), comparisons.len(), "one unit per comparison");
    fit(k, comparisons, Some(units), prior)
}

fn fit(
    k: usize,
    comparisons: &[Comparison],
    units: Option<&[usize]>,
    prior: f64,
) -> Result<EloFit, EloError> {
    if k < 2 {
        return Err(EloError::TooFewAgents);
    }
    let mut t = Table {
        k,
        games: vec![0.0; k * k],
        points: vec![0.0; k * k],
    };
    for c in comparisons {
        t.games[c.first * k + c.second] += c.weight;
        t.points[c.first * k + c.second] += c.weight * c.score;
    }
    let (r, h, info, iterations) = maximise(&t, prior)?;
    // Covariance of θ = (r_1 … r_{k−1}, h); ratings relative to their mean are
    // c = A θ with c_i = r_i − mean(r), r_0 = 0.
    let p = k;
    let mut cov = model_covariance(&info, p);
    if let (Some(units), Some(c)) = (units, cov.as_mut()) {
        widen_by_sandwich(c, comparisons, units, &r, h);
    }
    let mean = r.iter().sum::<f64>() / k as f64;
    let ratings: Vec<f64> = r.iter().map(|x| (x - mean) * ELO_PER_NAT).collect();
    // r_i − r_0 = θ_{i−1}: its variance is a diagonal entry.
    let anchored_half_widths = (0..k)
        .map(|i| match (&cov, i) {
            (_, 0) => Some(0.0),
            (Some(c), i) => {
                let v = c[(i - 1) * p + (i - 1)];
                (v >= 0.0).then(|| Z95 * v.sqrt() * ELO_PER_NAT)
            }
            (None, _) => None,
        })
        .collect();
    let (half_widths, first_seat_half_width) = match cov {
        None => (vec![None; k], None),
        Some(c) => {
            // Row i of A over the k − 1 rating parameters: δ_{i,a} − 1/k (a = 1 … k−1).
            let row = |i: usize| -> Vec<f64> {
                (1..k)
                    .map(|a| if a == i { 1.0 } else { 0.0 } - 1.0 / k as f64)
                    .collect()
            };
            let hw = (0..k)
                .map(|i| {
                    let w = row(i);
                    let mut v = 0.0;
                    for (x, wx) in w.iter().enumerate() {
                        for (y, wy) in w.iter().enumerate() {
                            v += wx * wy * c[x * p + y];
                        }
                    }
                    (v >= 0.0).then(|| Z95 * v.sqrt() * ELO_PER_NAT)
                })
                .collect();
            let vh = c[(p - 1) * p + (p - 1)];
            (hw, (vh >= 0.0).then(|| Z95 * vh.sqrt() * ELO_PER_NAT))
        }
    };
    Ok(EloFit {
        ratings,
        half_widths,
        first_seat: h * ELO_PER_NAT,
        first_seat_half_width,
        iterations,
        anchored_half_widths,
    })
}

/// The ratings `r` (`r_0 = 0`) and first-seat advantage `h` of greatest posterior
/// likelihood (Newton's method with step halving), with the information matrix there and the
/// iterations taken.
fn maximise(t: &Table, prior: f64) -> Result<(Vec<f64>, f64, Vec<f64>, usize), EloError> {
    let k = t.k;
    let mut r = vec![0.0; k];
    let mut h = 0.0;
    let mut iterations = 0;
    let (mut ll, mut grad, mut info) = likelihood(t, prior, &r, h, true);
    loop {
        iterations += 1;
        if iterations > 200 {
            return Err(EloError::NoMaximum);
        }
        let step = solve(&info, &grad).ok_or(EloError::NoMaximum)?;
        let mut scale = 1.0;
        let (mut nr, mut nh);
        loop {
            nr = r.clone();
            for a in 1..k {
                nr[a] += scale * step[a - 1];
            }
            nh = h + scale * step[k - 1];
            let (nll, _, _) = likelihood(t, prior, &nr, nh, false);
            if nll >= ll - 1e-12 * ll.abs().max(1.0) || scale < 1e-6 {
                break;
            }
            scale /= 2.0;
        }
        let moved = step.iter().map(|s| (s * scale).abs()).fold(0.0, f64::max);
        r = nr;
        h = nh;
        (ll, grad, info) = likelihood(t, prior, &r, h, true);
        if r.iter()
            .chain([&h])
            .any(|x| !x.is_finite() || x.abs() > 50.0)
        {
            // σ(50) = 1 − 2·10⁻²²: the estimate runs off to infinity.
            return Err(EloError::NoMaximum);
        }
        if moved < 1e-10 {
            break;
        }
    }
    Ok((r, h, info, iterations))
}

/// The model covariance of θ = (r_1 … r_{k−1}, h): the inverse of the information matrix
/// (`None` if it is singular).
fn model_covariance(info: &[f64], p: usize) -> Option<Vec<f64>> {
    let mut cov: Option<Vec<f64>> = Some(vec![0.0; p * p]);
    for j in 0..p {
        let mut e = vec![0.0; p];
        e[j] = 1.0;
        match (solve(info, &e), cov.as_mut()) {
            (Some(col), Some(c)) => {
                for i in 0..p {
                    c[i * p + j] = col[i];
                }
            }
            _ => cov = None,
        }
    }
    cov
}

/// Widens the covariance `c` to the sandwich estimate where it is the wider: the spread of
/// the units' gradients, through the model covariance (cluster-robust over the units).
fn widen_by_sandwich(
    c: &mut [f64],
    comparisons: &[Comparison],
    units: &[usize],
    r: &[f64],
    h: f64,
) {
    let p = r.len();
    // The sandwich: the spread of the groups' gradients, through the model covariance.
    let mut by_unit: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
    for (cmp, &u) in comparisons.iter().zip(units) {
        let x = r[cmp.first] - r[cmp.second] + h;
        let g = cmp.weight * (cmp.score - sigmoid(x));
        let v = by_unit.entry(u).or_insert_with(|| vec![0.0; p]);
        if cmp.first > 0 {
            v[cmp.first - 1] += g;
        }
        if cmp.second > 0 {
            v[cmp.second - 1] -= g;
        }
        v[p - 1] += g;
    }
    let mut meat = vec![0.0; p * p];
    for g in by_unit.values() {
        for i in 0..p {
            for j in 0..p {
                meat[i * p + j] += g[i] * g[j];
            }
        }
    }
    // c · meat · c.
    let mut cm = vec![0.0; p * p];
    for i in 0..p {
        for j in 0..p {
            cm[i * p + j] = (0..p).map(|l| c[i * p + l] * meat[l * p + j]).sum();
        }
    }
    let mut sandwich = vec![0.0; p * p];
    for i in 0..p {
        for j in 0..p {
            sandwich[i * p + j] = (0..p).map(|l| cm[i * p + l] * c[l * p + j]).sum();
        }
    }
    // Never narrower than the model: take the sandwich where it is the wider.
    let wider = (0..p).all(|i| sandwich[i * p + i] >= c[i * p + i]);
    if wider {
        c.copy_from_slice(&sandwich);
    } else {
        // Per parameter: scale rows and columns so each variance is the larger one.
        let scale: Vec<f64> = (0..p)
            .map(|i| {
                let (s, m) = (sandwich[i * p + i], c[i * p + i]);
                if s > m && m > 0.0 {
                    (s / m).sqrt()
                } else {
                    1.0
                }
            })
            .collect();
        for i in 0..p {
            for j in 0..p {
                c[i * p + j] *= scale[i] * scale[j];
            }
        }
    }
}

/// The sequential probability ratio test of `H0: elo = elo0` against `H1: elo = elo1` for
/// the first of two agents, with error rates `alpha` (accepting H1 when H0 holds) and
/// `beta` (accepting H0 when H1 holds).
///
/// **Formula** (the generalised SPRT with the normal approximation, as fishtest's
/// `LLR_logistic`): with `n` observations `x_i` (the first agent's mean score in each
/// rotation), their mean `x̄` and variance `v = Σ(x_i − x̄)²/n`, and the expected scores
/// `s_j = 1/(1 + 10^(−elo_j/400))`,
///
/// `LLR = n · (s1 − s0) · (2x̄ − s0 − s1) / (2v)`.
///
/// The test accepts H1 once `LLR ≥ ln((1 − β)/α)` and H0 once `LLR ≤ ln(β/(1 − α))`.
/// For two-player games a rotation is a pair of games with the seats swapped, so this is
/// fishtest's pentanomial test. The variance is floored at [`Sprt::VARIANCE_FLOOR`] so that a
/// short run of identical results (sample variance 0) cannot decide the test at once.
///
/// ```
/// use stickdice_evaluation::stats::{Sprt, SprtDecision};
/// let test = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
/// let (lower, upper) = test.bounds();
/// assert!(lower < 0.0 && upper > 0.0);
/// // Each observation is the first agent's mean score over one rotation.
/// let wins = vec![1.0; 60];
/// assert_eq!(test.decide(test.llr(&wins)), SprtDecision::AcceptH1);
/// assert_eq!(test.decide(test.llr(&wins[..2])), SprtDecision::Continue);
/// assert!(Sprt::new(20.0, 0.0, 0.05, 0.05).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis.
    pub elo0: f64,
    /// The Elo difference of the alternative.
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtDecision {
    /// H1 accepted: the first agent is at least `elo1` stronger.
    AcceptH1,
    /// H0 accepted: the first agent is at most `elo0` stronger.
    AcceptH0,
    /// Not decided yet.
    Continue,
}

/// SPRT parameters that cannot be used ([`Sprt::new`]).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SprtError {
    /// `elo0 ≥ elo1`, or one is not finite.
    #[error("SPRT needs elo0 < elo1 (finite), got elo0={elo0}, elo1={elo1}")]
    Hypotheses {
        /// The null hypothesis' Elo difference.
        elo0: f64,
        /// The alternative's.
        elo1: f64,
    },
    /// An error rate not strictly between 0 and ½.
    #[error("SPRT {name} must be between 0 and 0.5, got {value}")]
    ErrorRate {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The rate given.
        value: f64,
    },
}

impl Sprt {
    /// The least variance used in the LLR (see the type's docs).
    pub const VARIANCE_FLOOR: f64 = 0.01;

    /// Checks the parameters.
    ///
    /// # Errors
    /// [`SprtError`] when `elo0 ≥ elo1`, a value is not finite, or an error rate is not
    /// strictly between 0 and ½.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(SprtError::Hypotheses { elo0, elo1 });
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(SprtError::ErrorRate { name, value });
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower and upper LLR bounds, `ln(β/(1−α))` and `ln((1−β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the observations (0 with none).
    pub fn llr(&self, xs: &[f64]) -> f64 {
        let n = xs.len();
        if n == 0 {
            return 0.0;
        }
        let nf = n as f64;
        let mean = xs.iter().sum::<f64>() / nf;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / nf;
        let var = var.max(Self::VARIANCE_FLOOR);
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        nf * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision for an LLR.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// The anchored intervals are those of each rating minus agent 0's: with two agents,
    /// twice the half-width of a rating about the mean (which is half the difference).
    #[test]
    fn anchored_intervals_are_those_of_the_difference() {
        let comparisons: Vec<Comparison> = (0..200)
            .map(|i| Comparison {
                first: i % 2,
                second: 1 - i % 2,
                score: if i % 3 == 0 { 1.0 } else { 0.0 },
                weight: 1.0,
            })
            .collect();
        let fit = fit_elo(2, &comparisons, 2.0).unwrap();
        assert_eq!(fit.anchored_half_widths[0], Some(0.0));
        let (a, m) = (
            fit.anchored_half_widths[1].unwrap(),
            fit.half_widths[1].unwrap(),
        );
        assert!((a - 2.0 * m).abs() < 1e-9 * a, "{a} vs {m}");
    }

    #[test]
    fn mean_and_interval_by_hand() {
        // 1, 0, 1, 1: mean 0.75; s² = (3·0.0625 + 0.5625)/3 = 0.25; s = 0.5;
        // half-width = 1.959964 · 0.5 / 2 = 0.489991.
        let e = Estimate::of(&[1.0, 0.0, 1.0, 1.0]);
        assert_eq!(e.n, 4);
        assert!(close(e.mean, 0.75, 1e-15));
        assert!(close(e.half_width.unwrap(), 0.489_991, 1e-6));
        assert_eq!(Estimate::of(&[0.5]).half_width, None);
        assert_eq!(Estimate::of(&[]).mean, 0.0);
    }

    #[test]
    fn score_intervals_stay_in_bounds_and_widen_for_small_and_perfect_samples() {
        // Four rotations of a perfect record: not "1.000 ± 0.000", and within [0, 1].
        let (lo, hi) = score_interval(&[1.0; 4]).unwrap();
        assert_eq!(hi, 1.0);
        // Wilson with n = 4, p = 1: 4 / (4 + 1.96²) = 0.5101.
        assert!(close(lo, 4.0 / (4.0 + Z95 * Z95), 1e-12), "{lo}");
        let (lo, hi) = score_interval(&[0.0; 4]).unwrap();
        assert!(lo == 0.0 && close(hi, 1.0 - 4.0 / (4.0 + Z95 * Z95), 1e-12));
        // The issue's case: 4 games, the normal interval was [-0.24, 1.24].
        let xs = [1.0, 0.0, 1.0, 0.0];
        let (lo, hi) = score_interval(&xs).unwrap();
        assert!(
            (0.0..0.5).contains(&lo) && (0.5..=1.0).contains(&hi),
            "{lo} {hi}"
        );
        // By hand: m = 0.5, s² = 1/3, n_eff = 4 · 0.25 · 3 = 3.
        let (wl, wh) = wilson(0.5, 3.0);
        assert_eq!((lo, hi), (wl, wh));
        // Many rotations: close to the normal interval.
        let xs: Vec<f64> = (0..4000).map(|i| [0.25, 0.5, 0.75, 1.0][i % 4]).collect();
        let e = Estimate::of(&xs);
        let (lo, hi) = score_interval(&xs).unwrap();
        let h = e.half_width.unwrap();
        assert!(
            close(lo, e.mean - h, 2e-4) && close(hi, e.mean + h, 2e-4),
            "{lo} {hi} {e:?}"
        );
        assert_eq!(score_interval(&[]), None);
    }

    #[test]
    fn first_seat_elo_counts_a_rotation_of_alike_games_once() {
        // Two agents, 100 rotations of two games (seats swapped). In 70 rotations the first
        // seat wins both games, in 30 the second seat wins both: the games of a rotation
        // come out the same, so there are 100 pieces of evidence, not 200.
        let mut comparisons = Vec::new();
        let mut units = Vec::new();
        for u in 0..100 {
            let score = if u < 70 { 1.0 } else { 0.0 };
            for (first, second) in [(0, 1), (1, 0)] {
                comparisons.push(Comparison {
                    first,
                    second,
                    score,
                    weight: 1.0,
                });
                units.push(u);
            }
        }
        let plain = fit_elo(2, &comparisons, 0.0).unwrap();
        let paired = fit_elo_paired(2, &comparisons, &units, 0.0).unwrap();
        assert_eq!(plain.first_seat, paired.first_seat);
        let ratio = paired.first_seat_half_width.unwrap() / plain.first_seat_half_width.unwrap();
        assert!(close(ratio, 2f64.sqrt(), 1e-6), "{ratio}");
        // Independent-looking rotations (one game each way, results mixed) are not widened
        // below the Wald interval.
        let units: Vec<usize> = (0..comparisons.len()).collect();
        let single = fit_elo_paired(2, &comparisons, &units, 0.0).unwrap();
        assert!(single.first_seat_half_width >= plain.first_seat_half_width);
    }

    #[test]
    fn length_distribution_by_hand() {
        // Sorted: 3 5 7 9 11 20 30 40 50 100; median (11+20)/2; p90 = 9th value = 50.
        let d = Distribution::of(&[20, 3, 100, 5, 50, 7, 40, 9, 30, 11]).unwrap();
        assert_eq!((d.n, d.min, d.max), (10, 3, 100));
        assert_eq!(d.median, 15.5);
        assert_eq!(d.p90, 50);
        assert!(close(d.mean, 27.5, 1e-12));
        // Odd count: median is the middle; p90 of 3 values is the ⌈2.7⌉ = 3rd.
        let d = Distribution::of(&[4, 1, 2]).unwrap();
        assert_eq!((d.median, d.p90), (2.0, 4));
        assert!(Distribution::of(&[]).is_none());
    }

    fn games(
        first: usize,
        second: usize,
        wins: usize,
        draws: usize,
        losses: usize,
    ) -> Vec<Comparison> {
        let mut v = Vec::new();
        for (n, s) in [(wins, 1.0), (draws, 0.5), (losses, 0.0)] {
            for _ in 0..n {
                v.push(Comparison {
                    first,
                    second,
                    score: s,
                    weight: 1.0,
                });
            }
        }
        v
    }

    #[test]
    fn two_agent_elo_and_intervals_by_hand() {
        // A (0) first: 30 wins 10 losses of 40 → f1 = 0.75.
        // B (1) first: A scores 18 of 40 (16 wins, 4 draws, 20 losses) → f2 = 0.45.
        // With two free parameters the fit is exact: d + h = logit(0.75) = ln 3,
        // d − h = logit(0.45) = ln(9/11). So d = (ln 3 + ln(9/11))/2, h = (ln 3 − ln(9/11))/2.
        // Elo: d = 0.448 971 nats → 77.994 Elo between A and B, ratings ±38.997;
        // h = 0.649 641 nats → 112.854 Elo.
        // Information: I1 = 40·0.75·0.25 = 7.5, I2 = 40·0.45·0.55 = 9.9;
        // var(d) = var(h) = (1/I1 + 1/I2)/4 = 0.058586; each rating is ±d/2,
        // var = 0.0146465; half-width = 1.959964·√0.0146465·173.7178 = 41.2058 Elo;
        // h: 1.959964·√0.058586·173.7178 = 82.4117 Elo.
        let mut c = games(0, 1, 30, 0, 10);
        c.extend(games(1, 0, 20, 4, 16)); // B first: B's 20 wins are A's losses
        let fit = fit_elo(2, &c, 0.0).unwrap();
        assert!(close(fit.ratings[0], 38.9971, 1e-3), "{fit:?}");
        assert!(close(fit.ratings[1], -38.9971, 1e-3), "{fit:?}");
        assert!(close(fit.first_seat, 112.8543, 1e-3), "{fit:?}");
        assert!(close(fit.half_widths[0].unwrap(), 41.2058, 1e-3), "{fit:?}");
        assert!(close(fit.half_widths[1].unwrap(), 41.2058, 1e-3), "{fit:?}");
        assert!(
            close(fit.first_seat_half_width.unwrap(), 82.4117, 1e-3),
            "{fit:?}"
        );
    }

    #[test]
    fn three_agent_fit_meets_the_likelihood_equations() {
        // At the maximum, each agent's expected score equals its actual score, and the
        // earlier seats' expected score equals theirs (computed here independently).
        let mut c = games(0, 1, 7, 1, 2);
        c.extend(games(1, 0, 4, 2, 4));
        c.extend(games(0, 2, 9, 0, 1));
        c.extend(games(2, 0, 2, 0, 8));
        c.extend(games(1, 2, 6, 2, 2));
        c.extend(games(2, 1, 3, 1, 6));
        let fit = fit_elo(3, &c, 0.0).unwrap();
        let r: Vec<f64> = fit.ratings.iter().map(|x| x / ELO_PER_NAT).collect();
        let h = fit.first_seat / ELO_PER_NAT;
        let mut actual = [0.0; 3];
        let mut expected = [0.0; 3];
        let (mut first_actual, mut first_expected) = (0.0, 0.0);
        for x in &c {
            let p = 1.0 / (1.0 + (-(r[x.first] - r[x.second] + h)).exp());
            actual[x.first] += x.score;
            actual[x.second] += 1.0 - x.score;
            expected[x.first] += p;
            expected[x.second] += 1.0 - p;
            first_actual += x.score;
            first_expected += p;
        }
        for a in 0..3 {
            assert!(
                close(actual[a], expected[a], 1e-8),
                "{a}: {actual:?} {expected:?}"
            );
        }
        assert!(close(first_actual, first_expected, 1e-8));
        assert!(close(fit.ratings.iter().sum::<f64>(), 0.0, 1e-9));
        // Agent 0 did best, agent 2 worst.
        assert!(fit.ratings[0] > fit.ratings[1] && fit.ratings[1] > fit.ratings[2]);
    }

    #[test]
    fn a_clean_sweep_needs_the_prior() {
        let c = [games(0, 1, 5, 0, 0), games(1, 0, 0, 0, 5)].concat();
        assert_eq!(fit_elo(2, &c, 0.0), Err(EloError::NoMaximum));
        // With 2 virtual draws (one with each agent first) the fit is finite: A scores
        // 10 + 1 of 12 comparisons, and by symmetry h = 0, so σ(d) = 11/12, d = ln 11 nats.
        let fit = fit_elo(2, &c, 2.0).unwrap();
        assert!(close(
            fit.ratings[0] - fit.ratings[1],
            11f64.ln() * ELO_PER_NAT,
            1e-6
        ));
        assert!(close(fit.first_seat, 0.0, 1e-6));
        assert_eq!(fit_elo(1, &c, 2.0), Err(EloError::TooFewAgents));
    }

    #[test]
    fn sprt_llr_by_hand() {
        // elo0 = 0, elo1 = 50: s0 = 0.5, s1 = 1/(1 + 10^(−0.125)) = 0.571 463 117.
        // Scores 1, .5, .5, 0, 1, .5, 1, .5: n = 8, mean = 0.625,
        // var = (3·0.140625 + 4·0.015625 + 0.390625)/8 = 0.109375.
        // LLR = 8 · 0.071463117 · (1.25 − 1.071463117) / 0.21875 = 0.466 608.
        let s = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        let xs = [1.0, 0.5, 0.5, 0.0, 1.0, 0.5, 1.0, 0.5];
        assert!(close(s.llr(&xs), 0.466_608, 1e-5), "{}", s.llr(&xs));
        // Bounds: ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = 2.944439.
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        assert_eq!(s.decide(0.47), SprtDecision::Continue);
        assert_eq!(s.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(s.decide(-3.0), SprtDecision::AcceptH0);
        // Identical results: the variance floor 0.01 applies. 20 draws at 0.5:
        // LLR = 20 · 0.071463 · (1 − 1.071463)/0.02 = −5.106 977.
        let draws = [0.5; 20];
        assert!(close(s.llr(&draws), -5.106_977, 1e-5), "{}", s.llr(&draws));
        assert_eq!(s.llr(&[]), 0.0);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.6).is_err());
    }
}
