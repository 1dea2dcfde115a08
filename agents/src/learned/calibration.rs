//! Calibration of Issiren evaluations as win probabilities: Brier scores and reliability
//! bins on (a) tablebase positions, against the exact probability, and (b) positions of
//! held-out self-play games, against the game's outcome; and the reliability plot as SVG.
//!
//! * **Tablebase positions** are drawn uniformly among the tablebase's positions (the
//!   mover drawn too) at throw nodes. The Brier score there is the mean squared difference
//!   between the evaluation's win probability for the mover and the *exact* one (no
//!   sampled outcome: the noise-free part of the Brier score).
//! * **Self-play positions** come from games of `greedy` (the learned evaluation) against
//!   itself with throws from a seed given by the caller (use one not used in training):
//!   every throw node of a game is taken with chance 1/8; the label is the mover's final
//!   score (1, ½ for a draw at the cap, 0), the Brier score the mean squared difference.
//!
//! Both evaluations are scored on the same positions.
//!
//! ```
//! use stickdice_agents::learned::calibration::{reliability, Sample};
//! let samples = [Sample { predicted: 0.2, observed: 0.0 }, Sample { predicted: 0.8, observed: 1.0 }];
//! let r = reliability(&samples, 10);
//! assert!((r.brier - 0.04).abs() < 1e-12);
//! ```

use rand::{RngExt as _, SeedableRng as _};
use stickdice::games::issiren::State;
use stickdice::{ActionList, Game, Issiren, Node};

use crate::eval::Evaluator;
use crate::solve::tablebase::{self, Tablebase};

/// One prediction and what it is compared with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The evaluation's win probability for the mover.
    pub predicted: f64,
    /// The truth: the exact probability, or the outcome.
    pub observed: f64,
}

/// One bin of a reliability diagram.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bin {
    /// The bin's range of predictions, `[lo, hi)` (the last bin includes 1).
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// Predictions in the bin.
    pub count: usize,
    /// Their mean.
    pub mean_predicted: f64,
    /// The mean of what they are compared with.
    pub mean_observed: f64,
}

/// The Brier score and the reliability bins of a set of samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Reliability {
    /// Mean squared difference between prediction and truth.
    pub brier: f64,
    /// Samples.
    pub samples: usize,
    /// Equal-width bins of the predictions (empty ones included, with count 0).
    pub bins: Vec<Bin>,
}

/// Brier score and `bins` equal-width reliability bins.
pub fn reliability(samples: &[Sample], bins: usize) -> Reliability {
    let bins = bins.max(1);
    let mut out: Vec<Bin> = (0..bins)
        .map(|i| Bin {
            lo: i as f64 / bins as f64,
            hi: (i + 1) as f64 / bins as f64,
            count: 0,
            mean_predicted: 0.0,
            mean_observed: 0.0,
        })
        .collect();
    let mut sq = 0.0;
    for s in samples {
        sq += (s.predicted - s.observed).powi(2);
        let i = ((s.predicted * bins as f64) as usize).min(bins - 1);
        out[i].count += 1;
        out[i].mean_predicted += s.predicted;
        out[i].mean_observed += s.observed;
    }
    for b in &mut out {
        if b.count > 0 {
            b.mean_predicted /= b.count as f64;
            b.mean_observed /= b.count as f64;
        }
    }
    Reliability {
        brier: if samples.is_empty() {
            0.0
        } else {
            sq / samples.len() as f64
        },
        samples: samples.len(),
        bins: out,
    }
}

/// `n` tablebase positions at throw nodes (seeded), each evaluation's prediction for the
/// mover against the exact probability: one list of samples per evaluation.
pub fn tablebase_samples(
    tb: &Tablebase,
    evaluations: &[Evaluator<Issiren>],
    n: usize,
    seed: u64,
) -> Vec<Vec<Sample>> {
    let game = Issiren::with_seats(2).expect("issiren has two seats");
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let total: usize = tablebase::table_sizes().iter().sum();
    let mut out = vec![Vec::with_capacity(n); evaluations.len()];
    let mut taken = 0;
    while taken < n {
        let k = rng.random_range(0..total);
        let mover = rng.random_range(0..2usize);
        let Some(s) = tablebase::entry_position(k, mover) else {
            continue;
        };
        let Some(q) = tb.win_probability(&s, mover) else {
            continue;
        };
        for (list, e) in out.iter_mut().zip(evaluations) {
            list.push(Sample {
                predicted: e.evaluate(&game, &s)[mover],
                observed: q,
            });
        }
        taken += 1;
    }
    out
}

/// Positions of `games` self-play games of greedy with the shipped learned evaluation
/// (throws and tie-breaks from `seed`), every throw node taken with chance 1/8, each
/// evaluation's prediction for the mover against the mover's final score.
pub fn self_play_samples(
    evaluations: &[Evaluator<Issiren>],
    games: usize,
    seed: u64,
) -> Vec<Vec<Sample>> {
    self_play_samples_with_progress(evaluations, games, seed, |_| {})
}

/// [`self_play_samples`], calling `progress(games played)` after each game.
pub fn self_play_samples_with_progress(
    evaluations: &[Evaluator<Issiren>],
    games: usize,
    seed: u64,
    mut progress: impl FnMut(usize),
) -> Vec<Vec<Sample>> {
    let game = Issiren::with_seats(2).expect("issiren has two seats");
    let player = Evaluator::issiren_learned(super::shipped());
    let mut out = vec![Vec::new(); evaluations.len()];
    let mut actions = ActionList::new();
    for g in 0..games {
        let mut rng = stickdice::Rng::seed_from_u64(stickdice::seed::derive(seed, &[g as u64]));
        let mut s = game.initial_state();
        let mut taken: Vec<(State, usize)> = Vec::new();
        let scores = loop {
            match game.node(&s) {
                Node::End => break game.scores(&s).expect("an ended game has scores"),
                Node::Throw(seat) => {
                    if rng.random_range(0..8u32) == 0 {
                        taken.push((s, seat));
                    }
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw_unchecked(&mut s, t);
                }
                Node::Decide(seat) => {
                    game.legal_actions(&s, &mut actions);
                    let mut best = actions[0];
                    let mut best_value = f64::NEG_INFINITY;
                    for &a in &actions {
                        let mut next = s;
                        game.apply_action_unchecked(&mut next, a);
                        let v = player.evaluate(&game, &next)[seat];
                        if v > best_value {
                            best_value = v;
                            best = a;
                        }
                    }
                    game.apply_action_unchecked(&mut s, best);
                }
            }
        };
        for (state, mover) in taken {
            for (list, e) in out.iter_mut().zip(evaluations) {
                list.push(Sample {
                    predicted: e.evaluate(&game, &state)[mover],
                    observed: scores[mover],
                });
            }
        }
        progress(g + 1);
    }
    out
}

/// A reliability plot: one panel per `(title, series)`, each series `(name, reliability)`
/// drawn as its non-empty bins (mean prediction against mean truth) joined by a line, with
/// the diagonal of perfect calibration.
pub fn svg(panels: &[(&str, Vec<(&str, &Reliability)>)]) -> String {
    const COLORS: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
    let (w, h, pad) = (360.0, 360.0, 50.0);
    let width = panels.len() as f64 * (w + pad) + pad;
    let height = h + 2.0 * pad + 30.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    for (k, (title, series)) in panels.iter().enumerate() {
        let x0 = pad + k as f64 * (w + pad);
        let y0 = pad;
        let px = |p: f64| x0 + p * w;
        let py = |p: f64| y0 + (1.0 - p) * h;
        s += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
            x0 + w / 2.0,
            y0 - 20.0,
            xml(title)
        );
        s += &format!(
            "<rect x=\"{x0}\" y=\"{y0}\" width=\"{w}\" height=\"{h}\" fill=\"none\" stroke=\"#888\"/>\n"
        );
        for i in 0..=10 {
            let p = i as f64 / 10.0;
            s += &format!(
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\">{p:.1}</text>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"10\">{p:.1}</text>\n",
                px(p),
                y0 + h + 14.0,
                x0 - 4.0,
                py(p) + 3.0
            );
        }
        s += &format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#aaa\" stroke-dasharray=\"4 3\"/>\n",
            px(0.0),
            py(0.0),
            px(1.0),
            py(1.0)
        );
        s += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">predicted win probability (mover)</text>\n",
            x0 + w / 2.0,
            y0 + h + 32.0
        );
        s += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 {} {})\">observed</text>\n",
            x0 - 34.0,
            y0 + h / 2.0,
            x0 - 34.0,
            y0 + h / 2.0
        );
        for (j, (name, r)) in series.iter().enumerate() {
            let color = COLORS[j % COLORS.len()];
            let points: Vec<String> = r
                .bins
                .iter()
                .filter(|b| b.count > 0)
                .map(|b| format!("{:.2},{:.2}", px(b.mean_predicted), py(b.mean_observed)))
                .collect();
            s += &format!(
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"/>\n",
                points.join(" ")
            );
            for p in &points {
                let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
                s += &format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"3\" fill=\"{color}\"/>\n");
            }
            s += &format!(
                "<text x=\"{}\" y=\"{}\" fill=\"{color}\">{} (Brier {:.4}, n = {})</text>\n",
                x0 + 8.0,
                y0 + 16.0 + 16.0 * j as f64,
                xml(name),
                r.brier,
                r.samples
            );
        }
    }
    s += "</svg>\n";
    s
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_and_brier_add_up() {
        let samples: Vec<Sample> = (0..100)
            .map(|i| Sample {
                predicted: i as f64 / 100.0,
                observed: if i % 2 == 0 { 1.0 } else { 0.0 },
            })
            .collect();
        let r = reliability(&samples, 10);
        assert_eq!(r.bins.iter().map(|b| b.count).sum::<usize>(), 100);
        assert!(r.bins.iter().all(|b| b.count == 10));
        assert!((r.bins[0].mean_observed - 0.5).abs() < 1e-12);
        let brier: f64 = samples
            .iter()
            .map(|s| (s.predicted - s.observed).powi(2))
            .sum::<f64>()
            / 100.0;
        assert!((r.brier - brier).abs() < 1e-12);
        let svg = svg(&[("t", vec![("a", &r)])]);
        assert!(svg.starts_with("<svg") && svg.contains("polyline"));
    }
}
