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

use std::sync::atomic::AtomicBool;

use rand::{RngExt as _, SeedableRng as _};
use stickdice::games::issiren::State;
use stickdice::{Game, Issiren, Seat, SeatValues};

use super::td::{self, add_gradient, Layout, TdNet, Trainer};
use super::{
    features, sigmoid, Features, Network, SettingError, TrainError, TrainSettings, DENSE_INPUTS,
    MAX_HIDDEN, SPARSE_INPUTS,
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
    progress: impl FnMut(u64),
    checkpoint: impl FnMut(&Network) -> Result<(), E>,
) -> Result<Network, TrainError> {
    let net = td::start::<Issiren, _>(config, tablebase.is_some(), resume)?;
    let game = Issiren::with_seats(2).expect("issiren has two seats");
    let fit = |t: &mut Trainer<Issiren, Network>, done: u64| {
        if let Some(tb) = tablebase {
            fit_tablebase(
                t,
                &game,
                tb,
                config.tablebase_steps,
                stickdice::seed::derive(config.seed, &[done, 1]),
            );
        }
    };
    td::run(&game, config, net, stop, fit, progress, checkpoint)
}

/// Issiren's network for the shared TD(λ) loop: its inputs ([`features`]), with the
/// endgame network where the file has one.
impl TdNet<Issiren> for Network {
    type Features = Features;

    #[inline]
    fn features(_: &Issiren, s: &State, mover: Seat) -> Features {
        features(s, mover)
    }

    #[inline]
    fn inputs<'f>(&self, f: &'f Features) -> (&'f [u16], &'f [f32]) {
        (f.active(), &f.dense)
    }

    #[inline]
    fn forward(&self, f: &Features, acc: &mut [f32; MAX_HIDDEN]) -> f32 {
        Network::forward(self, f, acc)
    }

    #[inline]
    fn evaluate(&self, game: &Issiren, s: &State) -> SeatValues {
        Network::evaluate(self, game, s)
    }

    fn random(hidden: usize, seed: u64, settings: TrainSettings) -> Network {
        Network::random(hidden, seed, settings)
    }

    fn mismatch(&self, settings: &TrainSettings, hidden: usize) -> Option<String> {
        let mut mine = *self.settings();
        mine.games = 0;
        (mine != *settings || self.hidden() != hidden).then(|| {
            format!(
                "the checkpoint was trained with other settings ({:?}, {} hidden units) than these ({settings:?}, {hidden} hidden units)",
                self.settings(),
                self.hidden(),
            )
        })
    }

    #[inline]
    fn layout(&self) -> Layout {
        layout(self.hidden())
    }

    #[inline]
    fn params(&self) -> &[f32] {
        Network::params(self)
    }

    #[inline]
    fn params_mut(&mut self) -> &mut [f32] {
        Network::params_mut(self)
    }

    #[inline]
    fn settings(&self) -> &TrainSettings {
        Network::settings(self)
    }

    #[inline]
    fn settings_mut(&mut self) -> &mut TrainSettings {
        Network::settings_mut(self)
    }
}

/// The shape of an Issiren network of `hidden` units.
pub(super) fn layout(hidden: usize) -> Layout {
    Layout {
        sparse: SPARSE_INPUTS,
        dense: DENSE_INPUTS,
        hidden,
    }
}

/// `steps` supervised steps on random tablebase positions.
fn fit_tablebase(
    t: &mut Trainer<Issiren, Network>,
    game: &Issiren,
    tb: &Tablebase,
    steps: u32,
    seed: u64,
) {
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let total: usize = tablebase::table_sizes().iter().sum();
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
        let p = sigmoid(t.net.forward(&f, &mut t.acc));
        // A sparse step: the gradient touches the set inputs' rows, the biases and the
        // output layer only, so it is added straight to the weights.
        let scale = t.alpha * (q as f32 - p);
        let w2 = t.output_weights();
        let layout = layout(t.net.hidden());
        add_gradient(
            t.net.params_mut(),
            layout,
            &w2,
            &t.acc,
            f.active(),
            &f.dense,
            scale,
        );
        done += 1;
    }
}
