//! Training the learned Issiren evaluation: self-play TD(λ), and a supervised fit to the
//! endgame tablebase's exact values between games.
//!
//! # Self-play
//!
//! Game `i` of a run is played with throws from the seed `derive(seed, [i])`, both seats
//! choosing the action whose resulting state the current network rates best for them (the
//! exact score where the action ends the game; no exploration moves: the throws vary the
//! games). Every node of the game, throw and decision alike, is a step of TD(λ) on `V`, seat
//! 0's win probability (the network's output for the mover, or one minus it): with the
//! eligibility trace `e ← λ·e + ∇V(sₜ)` and the error `δ = V(sₜ₊₁) − V(sₜ)` (the final
//! score of seat 0 at the end), the weights move by `α·δ·e` after every step. The trace
//! is reset at the start of each game.
//!
//! # Tablebase fit
//!
//! After each game, with a tablebase, `tablebase_steps` positions are drawn (seed
//! `derive(seed, [i, 1])`) uniformly among the tablebase's positions, the mover drawn too,
//! and in one of four a throw made so that the position is a decision; each moves the
//! weights by `α·(q − p)·∇logit` (a step of cross-entropy towards the exact chance `q`).
//!
//! # Reproducibility
//!
//! Everything a run does follows from the seed and the settings, one thread, so the same
//! seed and settings give bit-identical weights. A checkpoint is the weights file itself
//! (it records the games trained): the trace is empty between games and every game's
//! randomness comes from its index, so a run resumed from a checkpoint ends with the same
//! weights as one that was never stopped.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use stickdice_agents::learned::train::{train, TrainConfig};
//! let config = TrainConfig { games: 2, hidden: 4, tablebase_steps: 0, ..TrainConfig::default() };
//! let net = train(&config, None, None, &AtomicBool::new(false), |_| {}, |_| Ok::<(), String>(())).unwrap();
//! assert_eq!(net.settings().games, 2);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use rand::{RngExt as _, SeedableRng as _};
use stickdice::{ActionList, Game, Issiren, Node};

use super::{
    features, sigmoid, Network, SettingError, TrainError, TrainSettings, INPUTS, MAX_HIDDEN,
    SPARSE_INPUTS,
};
use crate::solve::tablebase::{self, Tablebase};

/// The settings of a training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// Self-play games to train in all (a resumed run continues up to this many).
    pub games: u64,
    /// The seed everything follows from.
    pub seed: u64,
    /// The TD(λ) trace decay, in `[0, 1]`.
    pub lambda: f32,
    /// The learning rate, positive.
    pub alpha: f32,
    /// Hidden units, 1 to [`MAX_HIDDEN`].
    pub hidden: usize,
    /// Tablebase positions fitted after each game (0: none; ignored without a tablebase).
    pub tablebase_steps: u32,
    /// Games between checkpoints.
    pub checkpoint_every: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            games: 150_000,
            seed: 1,
            lambda: 0.7,
            alpha: 0.1,
            hidden: 64,
            tablebase_steps: 400,
            checkpoint_every: 1000,
        }
    }
}

impl TrainConfig {
    /// The settings recorded in the weights file (with no games trained yet).
    pub fn settings(&self, tablebase: bool) -> TrainSettings {
        TrainSettings {
            seed: self.seed,
            games: 0,
            lambda: self.lambda,
            alpha: self.alpha,
            tablebase_steps: if tablebase { self.tablebase_steps } else { 0 },
            tablebase: tablebase && self.tablebase_steps > 0,
        }
    }

    /// Checks the ranges.
    ///
    /// # Errors
    /// [`SettingError`] naming the setting out of range.
    pub fn check(&self) -> Result<(), SettingError> {
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(SettingError::value("lambda", "be in [0, 1]", self.lambda));
        }
        if !(self.alpha > 0.0 && self.alpha <= 10.0) {
            return Err(SettingError::value("alpha", "be in (0, 10]", self.alpha));
        }
        if !(1..=MAX_HIDDEN).contains(&self.hidden) {
            return Err(SettingError::value(
                "hidden",
                format!("be 1 to {MAX_HIDDEN}"),
                self.hidden,
            ));
        }
        if self.checkpoint_every == 0 {
            return Err(SettingError::bare(
                "checkpoints",
                "come every 1 game or more",
            ));
        }
        Ok(())
    }
}

/// Trains a network: from `resume` (a checkpoint, whose settings must match `config`) or
/// from fresh random weights, up to `config.games` games. `progress` is told the games done
/// after each; `checkpoint` is handed the network every `checkpoint_every` games, at the
/// end, and when `stop` is set (checked after every game; the run then ends early).
///
/// # Errors
/// A setting out of range, a checkpoint that does not match the settings, or the error of
/// `checkpoint`.
pub fn train<E: Into<Box<dyn std::error::Error + Send + Sync>>>(
    config: &TrainConfig,
    tablebase: Option<&Tablebase>,
    resume: Option<Network>,
    stop: &AtomicBool,
    mut progress: impl FnMut(u64),
    mut checkpoint: impl FnMut(&Network) -> Result<(), E>,
) -> Result<Network, TrainError> {
    config.check()?;
    let settings = config.settings(tablebase.is_some());
    let net = match resume {
        Some(net) => {
            let mut mine = *net.settings();
            mine.games = 0;
            if mine != settings || net.hidden() != config.hidden {
                return Err(TrainError::SettingsMismatch(format!(
                    "the checkpoint was trained with other settings ({:?}, {} hidden units) than these ({settings:?}, {} hidden units)",
                    net.settings(),
                    net.hidden(),
                    config.hidden
                )));
            }
            net
        }
        None => Network::random(
            config.hidden,
            stickdice::seed::derive(config.seed, &[u64::MAX]),
            settings,
        ),
    };
    let mut t = Trainer::new(net, config);
    let game = Issiren::with_seats(2).expect("issiren has two seats");
    let mut done = t.net.settings().games;
    while done < config.games {
        t.self_play(&game, stickdice::seed::derive(config.seed, &[done]));
        if let Some(tb) = tablebase {
            t.fit_tablebase(
                &game,
                tb,
                config.tablebase_steps,
                stickdice::seed::derive(config.seed, &[done, 1]),
            );
        }
        done += 1;
        t.net.settings_mut().games = done;
        progress(done);
        let stopping = stop.load(Ordering::SeqCst);
        if done.is_multiple_of(config.checkpoint_every) || done == config.games || stopping {
            checkpoint(&t.net).map_err(|e| TrainError::Checkpoint(e.into()))?;
        }
        if stopping {
            break;
        }
    }
    Ok(t.net)
}

struct Trainer {
    net: Network,
    lambda: f32,
    alpha: f32,
    trace: Vec<f32>,
    acc: [f32; MAX_HIDDEN],
    actions: ActionList<stickdice::games::issiren::Action>,
}

impl Trainer {
    fn new(net: Network, config: &TrainConfig) -> Trainer {
        let n = net.params().len();
        Trainer {
            net,
            lambda: config.lambda,
            alpha: config.alpha,
            trace: vec![0.0; n],
            acc: [0.0; MAX_HIDDEN],
            actions: ActionList::new(),
        }
    }

    /// One self-play game with TD(λ) updates after every step.
    fn self_play(&mut self, game: &Issiren, seed: u64) {
        let mut rng = stickdice::Rng::seed_from_u64(seed);
        let mut s = game.initial_state();
        self.trace.fill(0.0);
        let h = self.net.hidden();
        let mut previous: Option<f32> = None;
        loop {
            let node = game.node(&s);
            let mover = match node {
                Node::Throw(seat) | Node::Decide(seat) => seat,
                Node::End => {
                    let z = game.scores(&s).expect("an ended game has scores")[0] as f32;
                    if let Some(v) = previous {
                        self.step(z - v);
                    }
                    return;
                }
            };
            let f = features(&s, mover);
            let p = sigmoid(self.net.forward(&f, &mut self.acc));
            let (v0, sign) = if mover == 0 {
                (p, 1.0)
            } else {
                (1.0 - p, -1.0)
            };
            if let Some(v) = previous {
                self.step(v0 - v);
            }
            for e in &mut self.trace {
                *e *= self.lambda;
            }
            let w2 = self.output_weights();
            add_gradient(&mut self.trace, &w2, &self.acc, h, &f, sign * p * (1.0 - p));
            previous = Some(v0);
            match node {
                Node::Throw(_) => {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw_unchecked(&mut s, t);
                }
                Node::Decide(seat) => {
                    game.legal_actions(&s, &mut self.actions);
                    let mut best = self.actions[0];
                    let mut best_value = f64::NEG_INFINITY;
                    for &a in &self.actions {
                        let mut next = s;
                        game.apply_action_unchecked(&mut next, a);
                        let v = self.net.evaluate(game, &next)[seat];
                        if v > best_value {
                            best_value = v;
                            best = a;
                        }
                    }
                    game.apply_action_unchecked(&mut s, best);
                }
                Node::End => unreachable!("handled above"),
            }
        }
    }

    /// `w += α·δ·e`.
    fn step(&mut self, delta: f32) {
        let k = self.alpha * delta;
        if k == 0.0 {
            return;
        }
        for (w, e) in self.net.params_mut().iter_mut().zip(&self.trace) {
            *w += k * *e;
        }
    }

    /// `steps` supervised steps on random tablebase positions.
    fn fit_tablebase(&mut self, game: &Issiren, tb: &Tablebase, steps: u32, seed: u64) {
        let mut rng = stickdice::Rng::seed_from_u64(seed);
        let total: usize = tablebase::table_sizes().iter().sum();
        let h = self.net.hidden();
        let mut done = 0;
        while done < steps {
            let k = rng.random_range(0..total);
            let mover = rng.random_range(0..2usize);
            let Some(mut s) = tablebase::entry_position(k, mover) else {
                continue;
            };
            if rng.random_range(0..4u32) == 0 {
                let t = game.sample_throw(&mut rng);
                game.apply_throw_unchecked(&mut s, t);
            }
            let Some(q) = tb.win_probability(&s, mover) else {
                continue;
            };
            let f = features(&s, mover);
            let p = sigmoid(self.net.forward(&f, &mut self.acc));
            // A sparse step: the gradient touches the set inputs' rows, the biases and the
            // output layer only, so it is added straight to the weights.
            let scale = self.alpha * (q as f32 - p);
            let w2 = self.output_weights();
            add_gradient(self.net.params_mut(), &w2, &self.acc, h, &f, scale);
            done += 1;
        }
    }

    /// A copy of the output layer's weights.
    fn output_weights(&self) -> [f32; MAX_HIDDEN] {
        let h = self.net.hidden();
        let first = INPUTS * h;
        let mut w2 = [0.0; MAX_HIDDEN];
        w2[..h].copy_from_slice(&self.net.params()[first + h..first + 2 * h]);
        w2
    }
}

/// Adds `scale · ∇logit(f)` to `out` (a vector shaped like the parameters), with the
/// hidden units' inputs `acc` from the forward pass of `f` and the output weights `w2`.
pub(super) fn add_gradient(
    out: &mut [f32],
    w2: &[f32; MAX_HIDDEN],
    acc: &[f32; MAX_HIDDEN],
    h: usize,
    f: &super::Features,
    scale: f32,
) {
    let first = INPUTS * h;
    let (w1g, rest) = out.split_at_mut(first);
    let (b1g, rest) = rest.split_at_mut(h);
    let (w2g, b2g) = rest.split_at_mut(h);
    b2g[0] += scale;
    let mut back = [0.0f32; MAX_HIDDEN];
    for j in 0..h {
        w2g[j] += scale * acc[j].max(0.0);
        back[j] = if acc[j] > 0.0 { scale * w2[j] } else { 0.0 };
        b1g[j] += back[j];
    }
    for &i in f.active() {
        let at = i as usize * h;
        for (g, b) in w1g[at..at + h].iter_mut().zip(&back[..h]) {
            *g += *b;
        }
    }
    for (k, &x) in f.dense.iter().enumerate() {
        if x != 0.0 {
            let at = (SPARSE_INPUTS + k) * h;
            for (g, b) in w1g[at..at + h].iter_mut().zip(&back[..h]) {
                *g += x * *b;
            }
        }
    }
}
