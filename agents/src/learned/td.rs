//! The self-play TD(λ) training loop shared by the learned evaluations: Issiren's
//! ([`super::train`]) and the capture games' of the family ([`super::games`]).
//!
//! Both networks have one hidden layer of ReLU units over binary inputs (the set ones
//! listed) followed by a few dense ones, and one sigmoid output; what differs is the game,
//! its inputs and its forward pass ([`TdNet`]). The loop, the trace, the weight steps and
//! the gradient are written once here, so the two trainers do the same sums in the same
//! order (their weights are bit for bit what they were when each had its own copy).

use std::sync::atomic::{AtomicBool, Ordering};

use rand::SeedableRng as _;
use stickdice::{ActionList, Game, Node, Seat, SeatValues};

use super::train::TrainConfig;
use super::{sigmoid, TrainError, TrainSettings, MAX_HIDDEN};

/// The shape of a network's parameters: first layer `[sparse + dense][hidden]`, then its
/// biases, the output weights, the output bias.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// Binary inputs (the first rows of the first layer).
    pub(crate) sparse: usize,
    /// Real-valued inputs (the rows after them).
    pub(crate) dense: usize,
    /// Hidden units.
    pub(crate) hidden: usize,
}

impl Layout {
    /// Where the first layer's biases start.
    #[inline]
    fn first(self) -> usize {
        (self.sparse + self.dense) * self.hidden
    }
}

/// A network that self-play TD(λ) trains for the game `G`.
pub(crate) trait TdNet<G: Game>: Sized {
    /// A position's inputs.
    type Features;
    /// The position's inputs from the side of `mover`.
    fn features(game: &G, s: &G::State, mover: Seat) -> Self::Features;
    /// The set binary inputs and the dense inputs of `f` (as many as the network has).
    fn inputs<'f>(&self, f: &'f Self::Features) -> (&'f [u16], &'f [f32]);
    /// The output's logit for `f`, leaving the hidden units' inputs in `acc[..hidden]`.
    fn forward(&self, f: &Self::Features, acc: &mut [f32; MAX_HIDDEN]) -> f32;
    /// Each seat's estimated score at `s` (exactly the scores at an ended state).
    fn evaluate(&self, game: &G, s: &G::State) -> SeatValues;
    /// A fresh network of `hidden` units, its weights drawn from `seed`.
    fn random(hidden: usize, seed: u64, settings: TrainSettings) -> Self;
    /// Why this network cannot continue a run with `settings` and `hidden` units, if it
    /// cannot (the games trained aside).
    fn mismatch(&self, settings: &TrainSettings, hidden: usize) -> Option<String>;
    /// The parameters' shape.
    fn layout(&self) -> Layout;
    /// The parameters.
    fn params(&self) -> &[f32];
    /// The parameters, to change.
    fn params_mut(&mut self) -> &mut [f32];
    /// The training settings.
    fn settings(&self) -> &TrainSettings;
    /// The training settings, to record the games trained.
    fn settings_mut(&mut self) -> &mut TrainSettings;
}

/// `resume` when its settings match `config`'s (`tablebase`: whether a tablebase is
/// fitted), else fresh random weights: the network a run starts from.
///
/// # Errors
/// A setting out of range, or a checkpoint that does not match the settings.
pub(crate) fn start<G: Game, N: TdNet<G>>(
    config: &TrainConfig,
    tablebase: bool,
    resume: Option<N>,
) -> Result<N, TrainError> {
    config.check()?;
    let settings = config.settings(tablebase);
    match resume {
        Some(net) => match net.mismatch(&settings, config.hidden) {
            Some(why) => Err(TrainError::SettingsMismatch(why)),
            None => Ok(net),
        },
        None => Ok(N::random(
            config.hidden,
            stickdice::seed::derive(config.seed, &[u64::MAX]),
            settings,
        )),
    }
}

/// The self-play games of a run, from `net`'s games trained up to `config.games`: game
/// `i` from the seed `derive(seed, [i])`, then `after_game(trainer, i)`; `progress` told
/// the games done after each; `checkpoint` handed the network every `checkpoint_every`
/// games, at the end, and when `stop` is set (checked after every game; the run then ends
/// early).
///
/// # Errors
/// The error of `checkpoint`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<G, N, E>(
    game: &G,
    config: &TrainConfig,
    net: N,
    stop: &AtomicBool,
    mut after_game: impl FnMut(&mut Trainer<G, N>, u64),
    mut progress: impl FnMut(u64),
    mut checkpoint: impl FnMut(&N) -> Result<(), E>,
) -> Result<N, TrainError>
where
    G: Game,
    N: TdNet<G>,
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let mut t = Trainer::new(net, config);
    let mut done = t.net.settings().games;
    while done < config.games {
        t.self_play(game, stickdice::seed::derive(config.seed, &[done]));
        after_game(&mut t, done);
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

/// A network being trained, with its TD(λ) trace and scratch space.
pub(crate) struct Trainer<G: Game, N> {
    pub(crate) net: N,
    lambda: f32,
    pub(crate) alpha: f32,
    trace: Vec<f32>,
    pub(crate) acc: [f32; MAX_HIDDEN],
    actions: ActionList<G::Action>,
}

impl<G: Game, N: TdNet<G>> Trainer<G, N> {
    fn new(net: N, config: &TrainConfig) -> Self {
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
    fn self_play(&mut self, game: &G, seed: u64) {
        let mut rng = stickdice::Rng::seed_from_u64(seed);
        let mut s = game.initial_state();
        self.trace.fill(0.0);
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
            let f = N::features(game, &s, mover);
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
            let (active, dense) = self.net.inputs(&f);
            let layout = self.net.layout();
            let scale = sign * p * (1.0 - p);
            add_gradient(
                &mut self.trace,
                layout,
                &w2,
                &self.acc,
                active,
                dense,
                scale,
            );
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

    /// A copy of the output layer's weights.
    pub(crate) fn output_weights(&self) -> [f32; MAX_HIDDEN] {
        output_weights(self.net.params(), self.net.layout())
    }
}

/// A copy of the output layer's weights of `params`, shaped by `layout`.
pub(crate) fn output_weights(params: &[f32], layout: Layout) -> [f32; MAX_HIDDEN] {
    let (h, first) = (layout.hidden, layout.first());
    let mut w2 = [0.0; MAX_HIDDEN];
    w2[..h].copy_from_slice(&params[first + h..first + 2 * h]);
    w2
}

/// Adds `scale · ∇logit` to `out` (a vector shaped by `layout`), for the inputs `active`
/// (the set binary ones) and `dense`, with the hidden units' inputs `acc` from their
/// forward pass and the output weights `w2`.
pub(crate) fn add_gradient(
    out: &mut [f32],
    layout: Layout,
    w2: &[f32; MAX_HIDDEN],
    acc: &[f32; MAX_HIDDEN],
    active: &[u16],
    dense: &[f32],
    scale: f32,
) {
    let h = layout.hidden;
    let (w1g, rest) = out.split_at_mut(layout.first());
    let (b1g, rest) = rest.split_at_mut(h);
    let (w2g, b2g) = rest.split_at_mut(h);
    b2g[0] += scale;
    let mut back = [0.0f32; MAX_HIDDEN];
    for j in 0..h {
        w2g[j] += scale * acc[j].max(0.0);
        back[j] = if acc[j] > 0.0 { scale * w2[j] } else { 0.0 };
        b1g[j] += back[j];
    }
    for &i in active {
        let at = i as usize * h;
        for (g, b) in w1g[at..at + h].iter_mut().zip(&back[..h]) {
            *g += *b;
        }
    }
    for (k, &x) in dense.iter().enumerate() {
        if x != 0.0 {
            let at = (layout.sparse + k) * h;
            for (g, b) in w1g[at..at + h].iter_mut().zip(&back[..h]) {
                *g += x * *b;
            }
        }
    }
}
