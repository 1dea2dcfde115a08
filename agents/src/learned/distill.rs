//! Search-distilled training of the main network ("expert iteration"): the network is
//! fitted, supervised, to the value a shallow expectimax search gives with the network
//! itself at the leaves, round after round.
//!
//! # A round
//!
//! 1. **The teacher** is the network at the start of the round (with its endgame network,
//!    and the tablebase's exact values where they cover a position, if one is given).
//! 2. **Positions.** `games` self-play games are played (game `g` of round `r` with throws
//!    and exploration from the seed `derive(seed, [r, g])`), each decision made greedily by
//!    the teacher, or, with probability `explore`, uniformly at random. At every decision,
//!    each action's resulting state (the positions greedy compares) is a training position,
//!    and so is the decision node itself; positions the endgame network evaluates (one or
//!    two pieces a side) and ended ones are left out.
//! 3. **Targets.** Each resulting state's target is its value under
//!    [`Expectimax::value`](crate::Expectimax::value) to `depth` decisions (Star2, the
//!    teacher at the leaves; exact at the end of the game and, with the tablebase, where it
//!    covers), read as the win probability of the seat to move there; a decision node's is
//!    the best of its actions' targets for the seat deciding (its value one decision
//!    deeper).
//! 4. **Fit.** `epochs` passes over the positions, each in an order shuffled from the seed
//!    (`derive(seed, [r, u64::MAX, e])`), one step of stochastic gradient descent on the
//!    cross-entropy per position, the rate falling linearly from `alpha` to a tenth of it
//!    over the round; the student starts from the teacher's weights.
//!
//! The student becomes the next round's teacher. Everything follows from the seed and the
//! settings on one thread, so the same seed, settings and starting network give
//! bit-identical weights; a checkpoint is written after each round (the rounds done are
//! recorded in the weights file's distillation section), and a resumed run starts the next
//! round from it, ending with the same bytes as a run never stopped.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use stickdice_agents::learned::distill::{distill, DistillConfig};
//! use stickdice_agents::learned::{Network, TrainSettings};
//! let start = Network::random(4, 1, TrainSettings::default());
//! let config = DistillConfig { rounds: 1, games: 2, depth: 1, epochs: 1, ..DistillConfig::default() };
//! let net = distill(&config, start, None, &AtomicBool::new(false), |_| {}, |_| Ok::<(), String>(())).unwrap();
//! assert_eq!(net.distilled().unwrap().rounds_done, 1);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rand::{RngExt as _, SeedableRng as _};
use stickdice::games::issiren::State;
use stickdice::{ActionList, Game, Issiren, Node};

use super::td::{add_gradient, output_weights};
use super::train::layout;
use super::{endgame, features, sigmoid, Features, Network, SettingError, TrainError, MAX_HIDDEN};
use crate::eval::Evaluator;
use crate::expectimax::{Expectimax, ExpectimaxConfig};
use crate::solve::tablebase::Tablebase;

/// The most search depth a distillation run takes (a depth-3 target costs thousands of
/// nodes; deeper ones would take hours).
pub const MAX_DISTILL_DEPTH: u32 = 3;

/// The settings of a distillation run (recorded in the weights file it writes). The
/// default is the run that made the shipped main network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistillConfig {
    /// Rounds in all (a resumed run continues up to this many).
    pub rounds: u32,
    /// Self-play games per round.
    pub games: u64,
    /// The targets' search depth in decisions, 1 to [`MAX_DISTILL_DEPTH`].
    pub depth: u32,
    /// Passes over each round's positions.
    pub epochs: u32,
    /// The learning rate at the start of each round (falling to a tenth).
    pub alpha: f32,
    /// The chance of a uniformly random action in the self-play games, in `[0, 1)`.
    pub explore: f32,
    /// The seed everything follows from.
    pub seed: u64,
}

impl Default for DistillConfig {
    fn default() -> Self {
        DistillConfig {
            rounds: 10,
            games: 2000,
            depth: 2,
            epochs: 2,
            alpha: 0.01,
            explore: 0.1,
            seed: 1,
        }
    }
}

/// What the weights file records of a distillation run: its settings and the rounds done.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distilled {
    /// The run's settings.
    pub config: DistillConfig,
    /// Rounds finished.
    pub rounds_done: u32,
}

impl DistillConfig {
    /// Checks the ranges.
    ///
    /// # Errors
    /// [`SettingError`] naming the setting out of range.
    pub fn check(&self) -> Result<(), SettingError> {
        if self.rounds == 0 {
            return Err(SettingError::bare("rounds", "be 1 or more"));
        }
        if self.games == 0 {
            return Err(SettingError::bare("games per round", "be 1 or more"));
        }
        if !(1..=MAX_DISTILL_DEPTH).contains(&self.depth) {
            return Err(SettingError::value(
                "depth",
                format!("be 1 to {MAX_DISTILL_DEPTH}"),
                self.depth,
            ));
        }
        if self.epochs == 0 {
            return Err(SettingError::bare("epochs", "be 1 or more"));
        }
        if !(self.alpha > 0.0 && self.alpha <= 1.0) {
            return Err(SettingError::value("alpha", "be in (0, 1]", self.alpha));
        }
        if !(0.0..1.0).contains(&self.explore) {
            return Err(SettingError::value("explore", "be in [0, 1)", self.explore));
        }
        Ok(())
    }
}

/// What [`distill`] reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum DistillProgress {
    /// Round `round` (0-based) has played `games` of its games (targets included).
    Games {
        /// The round.
        round: u32,
        /// Games played in it.
        games: u64,
    },
    /// Round `round` has fitted `steps` of its `of` steps.
    Fit {
        /// The round.
        round: u32,
        /// Steps done.
        steps: u64,
        /// Steps in the round's fit.
        of: u64,
    },
    /// Round `round` is finished.
    Round {
        /// The round.
        round: u32,
        /// Positions it trained on.
        positions: u64,
        /// The mean cross-entropy of the targets under the teacher, before the fit.
        loss_before: f64,
        /// The same under the student, after the fit.
        loss_after: f64,
    },
}

/// Runs distillation rounds on `net` until `config.rounds` are done: a network without a
/// distillation record starts at round 0 (it is the first teacher); one with a record
/// (a checkpoint of this run, whose settings must match `config`) continues after its
/// last round (its run may have planned fewer rounds). `checkpoint` is handed the network after each round; when `stop` is set
/// the run ends at the next game or step, returning the last finished round's network
/// (the interrupted round is done again on resuming).
///
/// # Errors
/// A setting out of range, a checkpoint of other settings, or the error of `checkpoint`.
pub fn distill<E: Into<Box<dyn std::error::Error + Send + Sync>>>(
    config: &DistillConfig,
    net: Network,
    tablebase: Option<Arc<Tablebase>>,
    stop: &AtomicBool,
    mut progress: impl FnMut(DistillProgress),
    mut checkpoint: impl FnMut(&Network) -> Result<(), E>,
) -> Result<Network, TrainError> {
    config.check()?;
    let mut net = net;
    let mut round = match net.distilled() {
        None => 0,
        // More rounds than the checkpoint's run planned may be asked for.
        Some(d)
            if DistillConfig {
                rounds: config.rounds,
                ..d.config
            } == *config
                && d.rounds_done <= config.rounds =>
        {
            d.rounds_done
        }
        Some(d) => {
            return Err(TrainError::SettingsMismatch(format!(
                "the checkpoint was distilled with other settings ({:?}) than these ({config:?})",
                d.config
            )))
        }
    };
    let game = Issiren::with_seats(2).expect("issiren has two seats");
    while round < config.rounds {
        // The teacher lives as long as the process (an evaluator holds its network by
        // `'static` reference): one copy per round.
        let teacher: &'static Network = Box::leak(Box::new(net.clone()));
        let Some(data) = positions(
            &game,
            config,
            round,
            teacher,
            tablebase.clone(),
            stop,
            &mut progress,
        ) else {
            return Ok(net);
        };
        let mut student = net.clone();
        let loss_before = mean_loss(&student, &data);
        if !fit(&mut student, &data, config, round, stop, &mut progress) {
            return Ok(net);
        }
        let loss_after = mean_loss(&student, &data);
        round += 1;
        student.set_distilled(Some(Distilled {
            config: *config,
            rounds_done: round,
        }));
        net = student;
        progress(DistillProgress::Round {
            round: round - 1,
            positions: data.len() as u64,
            loss_before,
            loss_after,
        });
        checkpoint(&net).map_err(|e| TrainError::Checkpoint(e.into()))?;
    }
    Ok(net)
}

/// One training position: its inputs and the target win probability of its mover.
struct Position {
    f: Features,
    target: f32,
}

/// The round's positions and targets; `None` when stopped.
fn positions(
    game: &Issiren,
    config: &DistillConfig,
    round: u32,
    teacher: &'static Network,
    tablebase: Option<Arc<Tablebase>>,
    stop: &AtomicBool,
    progress: &mut impl FnMut(DistillProgress),
) -> Option<Vec<Position>> {
    let mut search: Expectimax<Issiren> = Expectimax::new(
        ExpectimaxConfig {
            depth: Some(config.depth),
            ..ExpectimaxConfig::default()
        },
        0,
    )
    .with_evaluator("distill", Evaluator::issiren_learned(teacher));
    if let Some(tb) = tablebase {
        search = search.with_exact_values("tablebase", tb);
    }
    let mut data = Vec::new();
    let mut legal = ActionList::new();
    let mut children: Vec<(State, f64)> = Vec::new();
    for g in 0..config.games {
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        let mut rng = stickdice::Rng::seed_from_u64(stickdice::seed::derive(
            config.seed,
            &[u64::from(round), g],
        ));
        let mut s = game.initial_state();
        search.clear_table();
        loop {
            match game.node(&s) {
                Node::End => break,
                Node::Throw(_) => {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw_unchecked(&mut s, t);
                }
                Node::Decide(seat) => {
                    game.legal_actions(&s, &mut legal);
                    children.clear();
                    let mut best = 0;
                    let mut best_value = f64::NEG_INFINITY;
                    for (i, &a) in legal.iter().enumerate() {
                        let mut next = s;
                        game.apply_action_unchecked(&mut next, a);
                        // The teacher's own choice (as greedy makes it).
                        let v = teacher.evaluate(game, &next)[seat];
                        if v > best_value {
                            best_value = v;
                            best = i;
                        }
                        if !children.iter().any(|(c, _)| *c == next) {
                            let value = search
                                .value(game, &next, config.depth)
                                .expect("a depth of 1 or more")[seat];
                            children.push((next, value));
                        }
                    }
                    let decision = children
                        .iter()
                        .map(|&(_, v)| v)
                        .fold(f64::NEG_INFINITY, f64::max);
                    if !endgame::covers(&s) {
                        data.push(Position {
                            f: features(&s, seat),
                            target: decision as f32,
                        });
                    }
                    for &(c, v) in &children {
                        if let Node::Throw(mover) | Node::Decide(mover) = game.node(&c) {
                            if !endgame::covers(&c) {
                                let v = if mover == seat { v } else { 1.0 - v };
                                data.push(Position {
                                    f: features(&c, mover),
                                    target: v as f32,
                                });
                            }
                        }
                    }
                    let pick = if legal.len() > 1 && rng.random::<f32>() < config.explore {
                        rng.random_range(0..legal.len())
                    } else {
                        best
                    };
                    game.apply_action_unchecked(&mut s, legal[pick]);
                }
            }
        }
        progress(DistillProgress::Games {
            round,
            games: g + 1,
        });
    }
    Some(data)
}

/// The mean cross-entropy of the targets under `net`.
fn mean_loss(net: &Network, data: &[Position]) -> f64 {
    let mut acc = [0.0f32; MAX_HIDDEN];
    let mut sum = 0.0f64;
    for d in data {
        let p = f64::from(sigmoid(net.forward(&d.f, &mut acc))).clamp(1e-7, 1.0 - 1e-7);
        let q = f64::from(d.target);
        sum -= q * p.ln() + (1.0 - q) * (1.0 - p).ln();
    }
    sum / data.len().max(1) as f64
}

/// The round's fit; `false` when stopped.
fn fit(
    net: &mut Network,
    data: &[Position],
    config: &DistillConfig,
    round: u32,
    stop: &AtomicBool,
    progress: &mut impl FnMut(DistillProgress),
) -> bool {
    let h = net.hidden();
    let n = data.len() as u64;
    let total = n * u64::from(config.epochs);
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    let mut acc = [0.0f32; MAX_HIDDEN];
    let mut step = 0u64;
    for epoch in 0..config.epochs {
        let mut rng = stickdice::Rng::seed_from_u64(stickdice::seed::derive(
            config.seed,
            &[u64::from(round), u64::MAX, u64::from(epoch)],
        ));
        // Fisher–Yates, from the end.
        for i in (1..order.len()).rev() {
            let j = rng.random_range(0..=i);
            order.swap(i, j);
        }
        for &k in &order {
            let d = &data[k as usize];
            let rate = config.alpha * (1.0 - 0.9 * step as f32 / total as f32);
            let p = sigmoid(net.forward(&d.f, &mut acc));
            let w2 = output_weights(net.params(), layout(h));
            let (active, dense) = (d.f.active(), &d.f.dense);
            let scale = rate * (d.target - p);
            add_gradient(net.params_mut(), layout(h), &w2, &acc, active, dense, scale);
            step += 1;
            if step.is_multiple_of(1 << 16) || step == total {
                if stop.load(Ordering::SeqCst) {
                    return false;
                }
                progress(DistillProgress::Fit {
                    round,
                    steps: step,
                    of: total,
                });
            }
        }
    }
    true
}

/// Writes the distillation record of a weights file: a byte, 0 for none, else 1 followed by
/// the rounds (u32), games per round (u64), depth and epochs (u32 each), α and the
/// exploration chance (f32 each), the seed (u64) and the rounds done (u32).
pub(crate) fn write(d: Option<&Distilled>, b: &mut Vec<u8>) {
    let Some(d) = d else {
        b.push(0);
        return;
    };
    let c = &d.config;
    b.push(1);
    b.extend_from_slice(&c.rounds.to_le_bytes());
    b.extend_from_slice(&c.games.to_le_bytes());
    b.extend_from_slice(&c.depth.to_le_bytes());
    b.extend_from_slice(&c.epochs.to_le_bytes());
    b.extend_from_slice(&c.alpha.to_le_bytes());
    b.extend_from_slice(&c.explore.to_le_bytes());
    b.extend_from_slice(&c.seed.to_le_bytes());
    b.extend_from_slice(&d.rounds_done.to_le_bytes());
}

/// Reads what [`write`] wrote, checking the ranges.
pub(crate) fn read(r: &mut super::Reader<'_>) -> Result<Option<Distilled>, String> {
    let bad = |e: super::WeightsError| match e {
        super::WeightsError::Format(why) => format!("distillation record: {why}"),
        e => e.to_string(),
    };
    match r.take(1) {
        None => return Err("distillation record: truncated".into()),
        Some([0]) => return Ok(None),
        Some([1]) => {}
        Some(&[x]) => return Err(format!("distillation record: marker {x}, not 0 or 1")),
        Some(_) => unreachable!("one byte taken"),
    }
    let config = DistillConfig {
        rounds: r.u32().map_err(bad)?,
        games: r.u64().map_err(bad)?,
        depth: r.u32().map_err(bad)?,
        epochs: r.u32().map_err(bad)?,
        alpha: f32::from_bits(r.u32().map_err(bad)?),
        explore: f32::from_bits(r.u32().map_err(bad)?),
        seed: r.u64().map_err(bad)?,
    };
    let rounds_done = r.u32().map_err(bad)?;
    config
        .check()
        .map_err(|why| format!("distillation record: {why}"))?;
    if rounds_done > config.rounds {
        return Err(format!(
            "distillation record: {rounds_done} rounds done of {}",
            config.rounds
        ));
    }
    Ok(Some(Distilled {
        config,
        rounds_done,
    }))
}
