//! The endgame network: the learned evaluation of positions with one or two pieces a side
//! (the tablebase's domain), fitted *supervised* to the tablebase's exact values.
//!
//! # The inputs
//!
//! A piece's *configuration* `c` is its circuit position (0..71) or, for an unmoved piece on
//! its home row, `72 + pos` (72..83), as in the tablebase. The *table* `t` is
//! `2·(own pieces − 1) + (enemy pieces − 1)` (1v1, 1v2, 2v1, 2v2). Read from the side of
//! the seat to throw (the *mover*):
//!
//! | inputs | index | meaning |
//! |---|---|---|
//! | own piece `c` with enemy piece `e` | `84·c + e` (0..7 055) | one per own–enemy pair: the pair's exact joint configuration |
//! | own piece `c` in table `t` | `7 056 + 84·t + c` | one per own piece |
//! | enemy piece `e` in table `t` | `7 392 + 84·t + e` | one per enemy piece |
//! | own pieces `c₁ < c₂` | `7 728 + pair(c₁, c₂)` (3 486) | with two own pieces |
//! | enemy pieces `e₁ < e₂` | `11 214 + pair(e₁, e₂)` | with two enemy pieces |
//! | the throw values `O` that let the mover capture and `E` that let the enemy capture | `14 700 + 64·O + E` | one, each a set of values 1..6 (bits) |
//!
//! so every pair of pieces on the board has its own input row: 18 796 inputs, at most
//! 4 + 2 + 2 + 1 + 1 + 1 = 11 rows summed. One hidden layer of ReLU units and a sigmoid output give the mover's chance
//! of winning at the throw node. At a decision node the value is, as in the tablebase, the
//! best action's: the network at the throw node each action leads to (1 or 0 where it ends
//! the game).
//!
//! # Training
//!
//! [`train_endgame`]: epochs over every entry of the tablebase (12.7 M, all four tables), in
//! an order shuffled per epoch from the seed, one step of stochastic gradient descent on the
//! cross-entropy towards the exact value per entry, the learning rate falling linearly from
//! `alpha` to `alpha / 20` over the run. One thread, so a seed gives bit-identical weights;
//! the weights file records the entries done, so a run resumed from a checkpoint ends as
//! one never stopped.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use stickdice_agents::learned::endgame::{train_endgame, EndgameConfig};
//! use stickdice_agents::solve::tablebase::{self, Tablebase};
//! // The 1v1 table only (built in well under a second); a few thousand entries.
//! let (tb, _) = Tablebase::build_partial(1, |_, _, _| {});
//! let config = EndgameConfig { hidden: 4, limit: 20_000, ..EndgameConfig::default() };
//! let net = train_endgame(&config, &tb, None, &AtomicBool::new(false), |_, _| {}, |_| Ok::<(), String>(()))
//!     .unwrap();
//! assert_eq!(net.settings().done, 20_000);
//! let s = tablebase::position(0, 100, 0).unwrap();
//! let p = net.win_probability(&s, 0);
//! assert!((0.0..=1.0).contains(&p));
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use rand::{RngExt as _, SeedableRng as _};
use stickdice::games::issiren::{State, CIRCUIT_LEN};
use stickdice::{ActionList, Game, Issiren};

use super::{sigmoid, SettingError, TrainError};
use crate::solve::tablebase::{self, Tablebase};
use crate::threats::issiren::attacks;

/// Piece configurations: 72 circuit positions, 12 unmoved home positions.
const CONFIGS: usize = 84;
/// Unordered pairs of distinct configurations.
const PAIRS: usize = CONFIGS * (CONFIGS - 1) / 2;
const PAIR: usize = 0;
const OWN_T: usize = CONFIGS * CONFIGS;
const ENEMY_T: usize = OWN_T + 4 * CONFIGS;
const OWN_PAIR: usize = ENEMY_T + 4 * CONFIGS;
const ENEMY_PAIR: usize = OWN_PAIR + PAIRS;
const HITS: usize = ENEMY_PAIR + PAIRS;
/// The endgame network's inputs (all binary).
pub const ENDGAME_INPUTS: usize = HITS + 64 * 64;
/// At most this many inputs are set.
const MAX_SET: usize = 11;
/// The most hidden units an endgame network may have.
pub const ENDGAME_MAX_HIDDEN: usize = 64;
/// The endgame inputs' layout version (in the weights file).
pub const ENDGAME_FEATURE_SET: u32 = 1;

/// The settings an endgame network was trained with, kept in its file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndgameSettings {
    /// The training seed.
    pub seed: u64,
    /// Epochs in the run (passes over the tablebase).
    pub epochs: u32,
    /// The starting learning rate.
    pub alpha: f32,
    /// Tablebase entries trained so far (across epochs, invalid entries included).
    pub done: u64,
}

/// The endgame network: see the [module docs](self).
#[derive(Clone, PartialEq)]
pub struct EndgameNet {
    pub(crate) hidden: usize,
    /// First layer `[ENDGAME_INPUTS][hidden]`, its biases, the output weights, the output bias.
    pub(crate) params: Vec<f32>,
    pub(crate) settings: EndgameSettings,
    /// Whether the weights are on the 16-bit grid.
    pub(crate) quantized: bool,
}

impl core::fmt::Debug for EndgameNet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EndgameNet")
            .field("hidden", &self.hidden)
            .field("params", &self.params.len())
            .field("settings", &self.settings)
            .finish()
    }
}

/// The parameter count of an endgame network with `hidden` units.
pub const fn endgame_param_count(hidden: usize) -> usize {
    ENDGAME_INPUTS * hidden + 2 * hidden + 1
}

/// Whether the endgame network evaluates `s`: one or two pieces a side.
#[inline]
pub fn covers(s: &State) -> bool {
    (1..=2).contains(&s.count()[0]) && (1..=2).contains(&s.count()[1])
}

#[inline]
fn config(pos: u8, unmoved: bool) -> usize {
    let pos = (pos % CIRCUIT_LEN) as usize;
    if unmoved && pos < 12 {
        72 + pos
    } else {
        pos
    }
}

/// The index of the unordered pair `{a, b}`, `a != b`, both below [`CONFIGS`].
#[inline]
fn pair_index(a: usize, b: usize) -> usize {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    // Pairs (lo, hi) with lo < hi, listed by lo then hi.
    lo * (2 * CONFIGS - lo - 1) / 2 + (hi - lo - 1)
}

/// The set inputs of a covered throw-node position from `mover`'s side.
#[inline]
fn endgame_features(s: &State, mover: usize) -> ([u16; MAX_SET], usize) {
    let mut out = [0u16; MAX_SET];
    let mut n = 0;
    let mut own = [0usize; 2];
    let mut enemy = [0usize; 2];
    let mine = s.pieces_of(mover & 1);
    let theirs = s.pieces_of((mover & 1) ^ 1);
    let a = mine.len().min(2);
    let b = theirs.len().min(2);
    for (k, p) in mine.iter().take(2).enumerate() {
        own[k] = config(p.pos, p.unmoved);
    }
    for (k, p) in theirs.iter().take(2).enumerate() {
        enemy[k] = config(p.pos, p.unmoved);
    }
    let t = 2 * (a.max(1) - 1) + (b.max(1) - 1);
    for &c in &own[..a] {
        for &e in &enemy[..b] {
            out[n] = (PAIR + CONFIGS * c + e) as u16;
            n += 1;
        }
        out[n] = (OWN_T + CONFIGS * t + c) as u16;
        n += 1;
    }
    for &e in &enemy[..b] {
        out[n] = (ENEMY_T + CONFIGS * t + e) as u16;
        n += 1;
    }
    if a == 2 && own[0] != own[1] {
        out[n] = (OWN_PAIR + pair_index(own[0], own[1])) as u16;
        n += 1;
    }
    if b == 2 && enemy[0] != enemy[1] {
        out[n] = (ENEMY_PAIR + pair_index(enemy[0], enemy[1])) as u16;
        n += 1;
    }
    let (own_values, _) = attacks(s, mover & 1);
    let (enemy_values, _) = attacks(s, (mover & 1) ^ 1);
    out[n] = (HITS + 64 * ((own_values >> 1) & 63) as usize + ((enemy_values >> 1) & 63) as usize)
        as u16;
    n += 1;
    (out, n)
}

/// A game to list legal actions with (they do not depend on the throw cap).
fn rules() -> &'static Issiren {
    static G: std::sync::OnceLock<Issiren> = std::sync::OnceLock::new();
    G.get_or_init(|| Issiren::with_seats(2).expect("issiren has two seats"))
}

impl EndgameNet {
    /// A network with `hidden` units (1 to [`ENDGAME_MAX_HIDDEN`]), small random weights
    /// from `seed`.
    ///
    /// # Panics
    /// If `hidden` is out of range.
    pub fn random(hidden: usize, seed: u64, settings: EndgameSettings) -> EndgameNet {
        assert!(
            (1..=ENDGAME_MAX_HIDDEN).contains(&hidden),
            "1 to {ENDGAME_MAX_HIDDEN} hidden units"
        );
        let mut rng = stickdice::Rng::seed_from_u64(seed);
        let mut params = vec![0.0f32; endgame_param_count(hidden)];
        let first = ENDGAME_INPUTS * hidden;
        for w in &mut params[..first] {
            *w = (rng.random::<f32>() - 0.5) * 0.2;
        }
        for b in &mut params[first..first + hidden] {
            *b = 0.1;
        }
        for w in &mut params[first + hidden..first + 2 * hidden] {
            *w = (rng.random::<f32>() - 0.5) * 0.2;
        }
        EndgameNet {
            hidden,
            params,
            settings,
            quantized: false,
        }
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The training settings stored with the weights.
    pub fn settings(&self) -> &EndgameSettings {
        &self.settings
    }

    /// The logit, leaving the hidden units' inputs in `acc[..hidden]`.
    #[inline]
    fn forward(&self, set: &[u16], acc: &mut [f32; ENDGAME_MAX_HIDDEN]) -> f32 {
        let h = self.hidden;
        let first = ENDGAME_INPUTS * h;
        let (w1, rest) = self.params.split_at(first);
        let (b1, rest) = rest.split_at(h);
        let (w2, b2) = rest.split_at(h);
        let acc = &mut acc[..h];
        acc.copy_from_slice(b1);
        for &i in set {
            let at = i as usize * h;
            if let Some(row) = w1.get(at..at + h) {
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += *w;
                }
            }
        }
        let mut z = b2[0];
        for (a, w) in acc.iter().zip(w2) {
            z += a.max(0.0) * *w;
        }
        z
    }

    /// The chance that `mover`, to throw, wins from the covered position `s`.
    #[inline]
    pub fn throw_value(&self, s: &State, mover: usize) -> f32 {
        let (set, n) = endgame_features(s, mover);
        let mut acc = [0.0f32; ENDGAME_MAX_HIDDEN];
        sigmoid(self.forward(&set[..n], &mut acc))
    }

    /// The network's value for `mover` of the state an action led to: 1 or 0 when the game
    /// has ended, the network at the throw node otherwise.
    #[inline]
    fn after(&self, child: &State, mover: usize) -> f32 {
        let (mine, theirs) = (child.count()[mover & 1], child.count()[(mover & 1) ^ 1]);
        if mine == 0 || theirs == 0 {
            return if mine > 0 { 1.0 } else { 0.0 };
        }
        let next = (child.turn() & 1) as usize;
        let v = self.throw_value(child, next);
        if next == mover & 1 {
            v
        } else {
            1.0 - v
        }
    }

    /// The value for `mover` of a covered decision node: the best action's, each action's
    /// value the network at the throw node it leads to. Allocates nothing.
    pub fn decision_value(&self, s: &State, mover: usize) -> f32 {
        let game = rules();
        let mut actions = ActionList::new();
        game.legal_actions(s, &mut actions);
        let mut best = 0.0f32;
        for &a in &actions {
            let mut child = *s;
            game.apply_action_unchecked(&mut child, a);
            best = best.max(self.after(&child, mover));
        }
        best
    }

    /// The chance that `mover` (to throw or to decide) wins from the covered position `s`.
    /// At a throw node: the exact expectation over the seven throws of the
    /// [`decision_value`](Self::decision_value) after each; at a decision node the
    /// decision value. Allocates nothing.
    pub fn win_probability(&self, s: &State, mover: usize) -> f32 {
        if s.pending().is_some() {
            return self.decision_value(s, mover);
        }
        let game = rules();
        let mut v = 0.0f32;
        for o in game.throw_outcomes() {
            let mut d = *s;
            game.apply_throw_unchecked(&mut d, o.throw);
            v += o.probability as f32 * self.decision_value(&d, mover);
        }
        v
    }

    /// Rounds the weights to the 16-bit grid the weights file stores them on (one scale
    /// for the first layer, one for the rest), so that the network is exactly the one
    /// saved and loaded again.
    pub fn quantize(&mut self) {
        let first = ENDGAME_INPUTS * self.hidden;
        let (a, b) = self.params.split_at_mut(first);
        for part in [a, b] {
            let scale = quant_scale(part);
            for w in part.iter_mut() {
                *w = f32::from((*w / scale).round() as i16) * scale;
            }
        }
        self.quantized = true;
    }

    /// Whether the weights are on the 16-bit grid (and so stored as 16-bit integers).
    pub fn quantized(&self) -> bool {
        self.quantized
    }

    /// Appends the endgame section of the weights file (see [`super`]'s docs).
    pub(crate) fn write(&self, b: &mut Vec<u8>) {
        b.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        b.extend_from_slice(&ENDGAME_FEATURE_SET.to_le_bytes());
        b.extend_from_slice(&(ENDGAME_INPUTS as u32).to_le_bytes());
        let s = &self.settings;
        b.extend_from_slice(&s.seed.to_le_bytes());
        b.extend_from_slice(&s.epochs.to_le_bytes());
        b.extend_from_slice(&s.alpha.to_le_bytes());
        b.extend_from_slice(&s.done.to_le_bytes());
        b.push(u8::from(self.quantized));
        b.extend_from_slice(&(self.params.len() as u32).to_le_bytes());
        if self.quantized {
            let first = ENDGAME_INPUTS * self.hidden;
            let (x, y) = self.params.split_at(first);
            for part in [x, y] {
                let scale = quant_scale(part);
                b.extend_from_slice(&scale.to_le_bytes());
                for w in part {
                    b.extend_from_slice(&((*w / scale).round() as i16).to_le_bytes());
                }
            }
        } else {
            for w in &self.params {
                b.extend_from_slice(&w.to_le_bytes());
            }
        }
    }

    /// Reads the endgame section written by [`write`](Self::write), given its hidden units.
    pub(crate) fn read(hidden: usize, r: &mut super::Reader<'_>) -> Result<EndgameNet, String> {
        if !(1..=ENDGAME_MAX_HIDDEN).contains(&hidden) {
            return Err(format!(
                "endgame network with {hidden} hidden units; this build takes 1 to {ENDGAME_MAX_HIDDEN}"
            ));
        }
        let e = |_| "truncated endgame section".to_string();
        let set = r.u32().map_err(e)?;
        if set != ENDGAME_FEATURE_SET {
            return Err(format!(
                "endgame feature set {set}, this build has feature set {ENDGAME_FEATURE_SET}"
            ));
        }
        let inputs = r.u32().map_err(e)? as usize;
        if inputs != ENDGAME_INPUTS {
            return Err(format!(
                "endgame network with {inputs} inputs; this build takes {ENDGAME_INPUTS}"
            ));
        }
        let settings = EndgameSettings {
            seed: r.u64().map_err(e)?,
            epochs: r.u32().map_err(e)?,
            alpha: f32::from_bits(r.u32().map_err(e)?),
            done: r.u64().map_err(e)?,
        };
        let quantized = match r.take(1).ok_or("truncated endgame section")?[0] {
            0 => false,
            1 => true,
            x => return Err(format!("endgame weights stored in unknown precision {x}")),
        };
        let count = r.u32().map_err(e)? as usize;
        if count != endgame_param_count(hidden) {
            return Err(format!(
                "{count} endgame parameters for {hidden} hidden units, expected {}",
                endgame_param_count(hidden)
            ));
        }
        let mut params = Vec::with_capacity(count);
        if quantized {
            let first = ENDGAME_INPUTS * hidden;
            for n in [first, count - first] {
                let scale = f32::from_bits(r.u32().map_err(e)?);
                if !(scale.is_finite() && scale > 0.0) {
                    return Err("an endgame weight scale is not a positive number".into());
                }
                let body = r
                    .take(2 * n)
                    .ok_or("truncated: fewer endgame parameters than announced")?;
                params.extend(
                    body.chunks_exact(2)
                        .map(|c| f32::from(i16::from_le_bytes([c[0], c[1]])) * scale),
                );
            }
        } else {
            let body = r
                .take(4 * count)
                .ok_or("truncated: fewer endgame parameters than announced")?;
            params.extend(
                body.chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            );
        }
        if params.iter().any(|w| !w.is_finite()) {
            return Err("an endgame weight is not a finite number".into());
        }
        Ok(EndgameNet {
            hidden,
            params,
            settings,
            quantized,
        })
    }
}

/// The step of the 16-bit grid for these weights: the largest magnitude over 32 767.
fn quant_scale(w: &[f32]) -> f32 {
    let m = w.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    if m > 0.0 {
        m / 32_767.0
    } else {
        1.0
    }
}

/// The settings of an endgame training run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndgameConfig {
    /// The seed.
    pub seed: u64,
    /// Passes over the tablebase.
    pub epochs: u32,
    /// The starting learning rate.
    pub alpha: f32,
    /// Hidden units, 1 to [`ENDGAME_MAX_HIDDEN`].
    pub hidden: usize,
    /// Tablebase entries between checkpoints.
    pub checkpoint_every: u64,
    /// Stop after this many entries in all (for tests; `u64::MAX`: the whole run).
    pub limit: u64,
}

impl Default for EndgameConfig {
    fn default() -> Self {
        EndgameConfig {
            seed: 1,
            epochs: 4,
            alpha: 0.05,
            hidden: 32,
            checkpoint_every: 1_000_000,
            limit: u64::MAX,
        }
    }
}

impl EndgameConfig {
    /// Checks the ranges.
    ///
    /// # Errors
    /// [`SettingError`] naming the setting out of range.
    pub fn check(&self) -> Result<(), SettingError> {
        if self.epochs == 0 {
            return Err(SettingError::bare("epochs", "be 1 or more"));
        }
        if !(self.alpha > 0.0 && self.alpha <= 10.0) {
            return Err(SettingError::value("alpha", "be in (0, 10]", self.alpha));
        }
        if !(1..=ENDGAME_MAX_HIDDEN).contains(&self.hidden) {
            return Err(SettingError::value(
                "hidden",
                format!("be 1 to {ENDGAME_MAX_HIDDEN}"),
                self.hidden,
            ));
        }
        if self.checkpoint_every == 0 {
            return Err(SettingError::bare(
                "checkpoints",
                "come every 1 entry or more",
            ));
        }
        Ok(())
    }

    fn settings(&self) -> EndgameSettings {
        EndgameSettings {
            seed: self.seed,
            epochs: self.epochs,
            alpha: self.alpha,
            done: 0,
        }
    }
}

/// The order of epoch `epoch`'s entries: a Fisher–Yates shuffle of `0..total` from the seed.
fn epoch_order(seed: u64, epoch: u64, total: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..total as u32).collect();
    let mut rng = stickdice::Rng::seed_from_u64(stickdice::seed::derive(seed, &[2, epoch]));
    for i in (1..total).rev() {
        let j = rng.random_range(0..=i);
        order.swap(i, j);
    }
    order
}

/// Trains an endgame network on `tb`: from `resume` (a checkpoint whose settings match) or
/// fresh weights, for `config.epochs` passes. `progress` is told the entries done and the
/// total; `checkpoint` gets the network every `checkpoint_every` entries, at the end and
/// when `stop` is set.
///
/// # Errors
/// A setting out of range, a checkpoint with other settings, or `checkpoint`'s error.
pub fn train_endgame<E: Into<Box<dyn std::error::Error + Send + Sync>>>(
    config: &EndgameConfig,
    tb: &Tablebase,
    resume: Option<EndgameNet>,
    stop: &AtomicBool,
    mut progress: impl FnMut(u64, u64),
    mut checkpoint: impl FnMut(&EndgameNet) -> Result<(), E>,
) -> Result<EndgameNet, TrainError> {
    config.check()?;
    let settings = config.settings();
    let mut net = match resume {
        Some(net) => {
            if net.quantized {
                return Err(TrainError::Finished);
            }
            let mut mine = net.settings;
            mine.done = 0;
            if mine != settings || net.hidden != config.hidden {
                return Err(TrainError::SettingsMismatch(format!(
                    "the endgame checkpoint was trained with other settings ({:?}, {} hidden units) than these ({settings:?}, {} hidden units)",
                    net.settings, net.hidden, config.hidden
                )));
            }
            net
        }
        None => EndgameNet::random(
            config.hidden,
            stickdice::seed::derive(config.seed, &[u64::MAX, 2]),
            settings,
        ),
    };
    let per_epoch: usize = tablebase::table_sizes().iter().sum();
    let total = u64::from(config.epochs) * per_epoch as u64;
    let end = total.min(config.limit);
    let h = net.hidden;
    let first = ENDGAME_INPUTS * h;
    let mut acc = [0.0f32; ENDGAME_MAX_HIDDEN];
    let mut order: Option<(u64, Vec<u32>)> = None;
    while net.settings.done < end {
        let done = net.settings.done;
        let epoch = done / per_epoch as u64;
        if order.as_ref().is_none_or(|(e, _)| *e != epoch) {
            order = Some((epoch, epoch_order(config.seed, epoch, per_epoch)));
        }
        let k = order
            .as_ref()
            .map_or(0, |(_, o)| o[(done % per_epoch as u64) as usize]) as usize;
        if let Some(s) = tablebase::entry_position(k, 0) {
            if let Some(q) = tb.win_probability(&s, 0) {
                let (set, n) = endgame_features(&s, 0);
                let z = net.forward(&set[..n], &mut acc);
                let p = sigmoid(z);
                let rate = config.alpha * (1.0 - 0.95 * (done as f64 / total as f64) as f32);
                let scale = rate * (q as f32 - p);
                let (w1, rest) = net.params.split_at_mut(first);
                let (b1, rest) = rest.split_at_mut(h);
                let (w2, b2) = rest.split_at_mut(h);
                b2[0] += scale;
                let mut back = [0.0f32; ENDGAME_MAX_HIDDEN];
                for j in 0..h {
                    back[j] = if acc[j] > 0.0 { scale * w2[j] } else { 0.0 };
                    w2[j] += scale * acc[j].max(0.0);
                    b1[j] += back[j];
                }
                for &i in &set[..n] {
                    let at = i as usize * h;
                    for (w, b) in w1[at..at + h].iter_mut().zip(&back[..h]) {
                        *w += *b;
                    }
                }
            }
        }
        net.settings.done = done + 1;
        let stopping = stop.load(Ordering::Relaxed);
        if (done + 1).is_multiple_of(config.checkpoint_every) {
            progress(done + 1, end);
        }
        if (done + 1).is_multiple_of(config.checkpoint_every) || done + 1 == end || stopping {
            checkpoint(&net).map_err(|e| TrainError::Checkpoint(e.into()))?;
        }
        if stopping {
            break;
        }
    }
    progress(net.settings.done, end);
    Ok(net)
}
