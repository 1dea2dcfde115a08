//! The learned Issiren evaluation: a small network trained by self-play TD(λ) and fitted to
//! the endgame tablebase, then fitted to the values of shallow searches with itself at the
//! leaves ([`distill`]), giving the win probability of the side to move.
//!
//! # The network
//!
//! The inputs ([`features()`]) are read from the side of the seat to throw or to decide:
//! one binary input per occupied circuit position (moved and unmoved pieces, own and enemy),
//! the piece counts one-hot, the pending throw at a decision node, the throw values that
//! capture for either side, piece-to-piece distances when both sides have at most three
//! pieces, and four dense inputs (capture chances and pieces under attack); 359 in all.
//! One hidden layer of `hidden` ReLU units (64 in the shipped weights) feeds one output, a
//! sigmoid: the mover's chance of winning (a draw at the throw cap counting half). The
//! first layer is accumulated over the set inputs only, in `f32`, on the stack: inference
//! allocates nothing.
//!
//! With one or two pieces a side (the tablebase's domain) a second network, the
//! [`endgame`] network fitted to the tablebase's exact values, takes over when the file has
//! one: at a throw node the exact expectation over the seven throws of the best action's
//! value after each (the endgame network at the throw node each action leads to), at a
//! decision node that best action's value.
//!
//! As an [`Evaluate`](crate::Evaluate) it returns `[p, 1 − p]` for the mover and the other
//! seat, in `[0, 1]`, summing to 1, and exactly the scores at an ended state.
//!
//! # The weights file
//!
//! Little-endian throughout: the magic `SDWEIGHT`, the format version (u32, 3; version 1
//! files, without the endgame section, and version 2 files, without the distillation
//! record, still load), the game name (u8 length + bytes,
//! `issiren`), the feature set (u32, 1), the shape (inputs, hidden, u32 each), the training
//! settings (seed u64, games trained u64, λ f32, α f32, tablebase steps per game u32,
//! tablebase used u8), the parameter count (u32) and the parameters (f32: first layer by
//! input, its biases, the output weights, the output bias); then (version 2) the endgame
//! section: its hidden units (u32, 0 for none and nothing more), its feature set and
//! inputs (u32 each), its training settings (seed u64, epochs u32, α f32, entries trained
//! u64), the precision (u8: 0 for f32 weights, 1 for 16-bit integers with a scale), the
//! parameter count (u32) and the parameters (f32; or, in 16 bits, the first layer's scale
//! f32 and its weights i16, then the rest's scale and weights); then (version 3) the
//! record of the search-distillation rounds run on the main network ([`distill`]: a byte,
//! 0 for none, else 1 and the run's settings and rounds done); then an FNV-1a 64-bit
//! checksum of everything before it. [`Network::from_bytes`] checks each part and names
//! what is wrong. The shipped weights are embedded in the binary
//! ([`shipped`]); `eval=FILE` loads another file once per process ([`shared`]).
//!
//! ```
//! use stickdice::{Game, Issiren};
//! use stickdice_agents::learned;
//! let game = Issiren::with_seats(2).unwrap();
//! let net = learned::shipped();
//! let v = net.evaluate(&game, &game.initial_state());
//! assert!((v[0] + v[1] - 1.0).abs() < 1e-6 && v[0] > 0.3 && v[0] < 0.7);
//! // The file round-trips exactly.
//! let again = learned::Network::from_bytes(&net.to_bytes()).unwrap();
//! assert_eq!(&again, net);
//! ```

pub mod calibration;
pub mod distill;
pub mod endgame;
pub mod features;
pub mod games;
mod td;
pub mod train;

use core::fmt;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use rand::{RngExt as _, SeedableRng as _};
use stickdice::games::issiren::State;
use stickdice::{Game, Issiren, Node, Seat, SeatValues, MAX_SEATS};

pub use distill::Distilled;
pub use endgame::EndgameNet;
pub use features::{features, Features, DENSE_INPUTS, INPUTS, MAX_ACTIVE, SPARSE_INPUTS};

/// The most hidden units a network may have (the accumulator is a stack array this long).
pub const MAX_HIDDEN: usize = 64;

/// Half of [`MAX_HIDDEN`]: the full-width forward pass sums this many hidden units at a time.
const HALF: usize = MAX_HIDDEN / 2;

const MAGIC: &[u8; 8] = b"SDWEIGHT";
const VERSION: u32 = 3;
const FEATURE_SET: u32 = 1;
const GAME: &str = "issiren";

/// The settings a network was trained with, kept in its file so that a run can be checked
/// and resumed. The default: seed 1, nothing trained, λ 0.7, α 0.1, no tablebase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainSettings {
    /// The training seed.
    pub seed: u64,
    /// Self-play games trained so far.
    pub games: u64,
    /// The TD(λ) trace decay.
    pub lambda: f32,
    /// The learning rate.
    pub alpha: f32,
    /// Supervised steps on tablebase positions after each game.
    pub tablebase_steps: u32,
    /// Whether the tablebase was used.
    pub tablebase: bool,
}

/// A weights file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    /// The file could not be read or written.
    #[error("cannot read the weights file: {0}")]
    Io(#[source] std::io::Error),
    /// The bytes are not a weights file this build reads, or are damaged.
    #[error("not a valid stickdice weights file: {0}")]
    Format(String),
}

/// A weights file named by path that cannot be used ([`shared`]): the path, then why.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct WeightsFileError {
    /// The path as given.
    pub path: String,
    /// Why.
    pub source: WeightsError,
}

/// A training setting out of range (the `check` of [`train::TrainConfig`],
/// [`endgame::EndgameConfig`], [`distill::DistillConfig`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{setting} must {requirement}{}", value.as_ref().map(|v| format!(", not {v}")).unwrap_or_default())]
pub struct SettingError {
    /// The setting, as the message names it (`alpha`, `games per round`…).
    pub setting: &'static str,
    /// What it must be (`be in (0, 1]`, `be 1 or more`, `come every 1 game or more`).
    pub requirement: String,
    /// The value given, where the message shows it.
    pub value: Option<String>,
}

impl SettingError {
    /// A setting out of range, its value shown.
    pub(crate) fn value(
        setting: &'static str,
        requirement: impl Into<String>,
        value: impl fmt::Display,
    ) -> SettingError {
        SettingError {
            setting,
            requirement: requirement.into(),
            value: Some(value.to_string()),
        }
    }

    /// A setting out of range, its value not shown.
    pub(crate) fn bare(setting: &'static str, requirement: impl Into<String>) -> SettingError {
        SettingError {
            setting,
            requirement: requirement.into(),
            value: None,
        }
    }
}

/// Why a training run ([`train::train`], [`endgame::train_endgame`],
/// [`distill::distill`]) stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrainError {
    /// A setting is out of range.
    #[error(transparent)]
    Setting(#[from] SettingError),
    /// The checkpoint to resume from was made with other settings (the message names both).
    #[error("{0}")]
    SettingsMismatch(String),
    /// The endgame network to resume from is a finished one (weights rounded to 16 bits).
    #[error("the endgame network's weights are rounded to 16 bits (a finished, shipped network): a run resumes only from its own checkpoint")]
    Finished,
    /// The checkpoint callback failed (its error is shown as is).
    #[error(transparent)]
    Checkpoint(Box<dyn std::error::Error + Send + Sync>),
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            seed: 1,
            games: 0,
            lambda: 0.7,
            alpha: 0.1,
            tablebase_steps: 0,
            tablebase: false,
        }
    }
}

/// The network: see the [module docs](self).
#[derive(Clone, PartialEq)]
pub struct Network {
    hidden: usize,
    /// First layer `[INPUTS][hidden]`, then its biases, the output weights, the output bias.
    params: Vec<f32>,
    settings: TrainSettings,
    /// The endgame network for one or two pieces a side, if the file has one.
    endgame: Option<EndgameNet>,
    /// The search-distillation rounds run on the main network, if any.
    distilled: Option<Distilled>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.hidden)
            .field("params", &self.params.len())
            .field("settings", &self.settings)
            .field("endgame", &self.endgame)
            .field("distilled", &self.distilled)
            .finish()
    }
}

/// The parameter count of a network with `hidden` units.
pub const fn param_count(hidden: usize) -> usize {
    INPUTS * hidden + 2 * hidden + 1
}

impl Network {
    /// A network with `hidden` units (1 to [`MAX_HIDDEN`]), its weights drawn small and at
    /// random from `seed`, with these settings.
    ///
    /// # Panics
    /// If `hidden` is 0 or above [`MAX_HIDDEN`].
    pub fn random(hidden: usize, seed: u64, settings: TrainSettings) -> Network {
        assert!(
            (1..=MAX_HIDDEN).contains(&hidden),
            "1 to {MAX_HIDDEN} hidden units"
        );
        Network {
            hidden,
            params: random_params(INPUTS, hidden, seed),
            settings,
            endgame: None,
            distilled: None,
        }
    }

    /// The record of the search-distillation rounds run on the main network
    /// ([`distill`]), if any.
    pub fn distilled(&self) -> Option<&Distilled> {
        self.distilled.as_ref()
    }

    pub(crate) fn set_distilled(&mut self, d: Option<Distilled>) {
        self.distilled = d;
    }

    /// The same network without its distillation record (to start a new run from it).
    pub fn without_distilled(mut self) -> Network {
        self.distilled = None;
        self
    }

    /// The endgame network, if there is one.
    pub fn endgame(&self) -> Option<&EndgameNet> {
        self.endgame.as_ref()
    }

    /// The same network with `endgame` as its endgame network (`None`: without one).
    pub fn with_endgame(mut self, endgame: Option<EndgameNet>) -> Network {
        self.endgame = endgame;
        self
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The training settings stored with the weights.
    pub fn settings(&self) -> &TrainSettings {
        &self.settings
    }

    pub(crate) fn settings_mut(&mut self) -> &mut TrainSettings {
        &mut self.settings
    }

    pub(crate) fn params(&self) -> &[f32] {
        &self.params
    }

    pub(crate) fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    /// The output's logit for `f`, leaving the hidden units' inputs (before the ReLU) in
    /// `acc[..hidden]`.
    #[inline]
    pub(crate) fn forward(&self, f: &Features, acc: &mut [f32; MAX_HIDDEN]) -> f32 {
        if self.hidden == MAX_HIDDEN {
            self.forward_full(f, acc)
        } else {
            self.forward_any(f, acc)
        }
    }

    /// [`forward`](Self::forward) for any number of hidden units.
    #[inline]
    fn forward_any(&self, f: &Features, acc: &mut [f32; MAX_HIDDEN]) -> f32 {
        let layout = train::layout(self.hidden);
        forward(&self.params, layout, f.active(), &f.dense, acc)
    }

    /// [`forward`](Self::forward) for a network of [`MAX_HIDDEN`] hidden units (the shipped
    /// one), the same sums in the same order for each hidden unit (so bit for bit the same
    /// results as [`forward_any`](Self::forward_any)), with the row length known to the
    /// compiler: half the hidden units at a time, their sums held in eight four-lane
    /// registers over all the active inputs instead of loaded and stored for each.
    #[inline]
    fn forward_full(&self, f: &Features, acc: &mut [f32; MAX_HIDDEN]) -> f32 {
        const H: usize = MAX_HIDDEN;
        let (w1, rest) = self.params.split_at(INPUTS * H);
        let (halves, _) = w1.as_chunks::<HALF>();
        let (b1, rest) = rest.split_at(H);
        let (w2, b2) = rest.split_at(H);
        let mut a: [f32; H] = b1.try_into().expect("a bias per hidden unit");
        sum_inputs(&mut a, halves, f);
        *acc = a;
        // The products four lanes at a time, then summed in order.
        let mut t = [0.0f32; H];
        for ((t, a), w) in t.iter_mut().zip(&a).zip(w2) {
            *t = a.max(0.0) * *w;
        }
        let mut z = b2[0];
        for t in t {
            z += t;
        }
        z
    }

    /// The chance that `mover` (the seat to throw or to decide) wins from `s`, for a state
    /// that has not ended. Allocates nothing.
    #[inline]
    pub fn win_probability(&self, s: &State, mover: usize) -> f32 {
        if let Some(eg) = &self.endgame {
            if endgame::covers(s) {
                return eg.win_probability(s, mover);
            }
        }
        let mut acc = [0.0f32; MAX_HIDDEN];
        sigmoid(self.forward(&features(s, mover), &mut acc))
    }

    /// Each seat's estimated score: at an ended state exactly the scores, elsewhere
    /// `[p, 1 − p]` with `p` the chance that the seat to move wins. Allocates nothing.
    #[inline]
    pub fn evaluate(&self, game: &Issiren, s: &State) -> SeatValues {
        seat_values(game, s, |mover| self.win_probability(s, mover))
    }

    /// The weights file's bytes (see the [module docs](self)).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = write_head(
            GAME,
            FEATURE_SET,
            INPUTS,
            self.hidden,
            &self.settings,
            &self.params,
        );
        match &self.endgame {
            Some(eg) => eg.write(&mut b),
            None => b.extend_from_slice(&0u32.to_le_bytes()),
        }
        distill::write(self.distilled.as_ref(), &mut b);
        seal(b)
    }

    /// Reads a weights file's bytes, checking the magic, version, game, feature set, shape,
    /// parameter count, that every weight is finite, and the checksum.
    ///
    /// # Errors
    /// [`WeightsError::Format`] naming the first thing wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, WeightsError> {
        let bad = |why: String| WeightsError::Format(why);
        let mut r = Reader { bytes, at: 0 };
        r.magic()?;
        let version = r.u32()?;
        if !(1..=VERSION).contains(&version) {
            return Err(bad(format!(
                "format version {version}, this build reads versions 1 to {VERSION}"
            )));
        }
        r.game(GAME)?;
        let set = r.u32()?;
        if set != FEATURE_SET {
            return Err(bad(format!(
                "feature set {set}, this build has feature set {FEATURE_SET}"
            )));
        }
        let inputs = r.u32()? as usize;
        let hidden = r.u32()? as usize;
        if inputs != INPUTS || !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(bad(format!(
                "shape {inputs} inputs × {hidden} hidden units; this build takes {INPUTS} inputs and 1 to {MAX_HIDDEN} hidden units"
            )));
        }
        let settings = r.settings()?;
        let body = r.params(param_count(hidden), hidden)?;
        // Version 2: the endgame section (its hidden units, 0 for none).
        let endgame = if version >= 2 {
            match r.u32()? as usize {
                0 => None,
                h => Some(EndgameNet::read(h, &mut r).map_err(bad)?),
            }
        } else {
            None
        };
        // Version 3: the distillation record.
        let distilled = if version >= 3 {
            distill::read(&mut r).map_err(bad)?
        } else {
            None
        };
        r.checksum()?;
        let params = weights(body)?;
        Ok(Network {
            hidden,
            params,
            settings,
            endgame,
            distilled,
        })
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// [`WeightsError::Io`] when it cannot be read, [`WeightsError::Format`] when it is not
    /// a valid weights file.
    pub fn load(path: &Path) -> Result<Network, WeightsError> {
        Network::from_bytes(&read(path)?)
    }

    /// Writes the weights file atomically: to `PATH.tmp`, synced, then renamed over `path`
    /// (`PATH.tmp` removed when that fails).
    ///
    /// # Errors
    /// The I/O error.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        crate::files::write_atomic(path, &self.to_bytes())
    }
}

pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    pub(crate) fn u32(&mut self) -> Result<u32, WeightsError> {
        let b = self
            .take(4)
            .ok_or_else(|| WeightsError::Format("truncated".into()))?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn u64(&mut self) -> Result<u64, WeightsError> {
        let lo = u64::from(self.u32()?);
        let hi = u64::from(self.u32()?);
        Ok(lo | hi << 32)
    }
    fn byte(&mut self) -> Result<u8, WeightsError> {
        Ok(self
            .take(1)
            .ok_or_else(|| WeightsError::Format("truncated".into()))?[0])
    }
    /// The magic `SDWEIGHT`.
    fn magic(&mut self) -> Result<(), WeightsError> {
        let bad = |why: &str| WeightsError::Format(why.into());
        if self
            .take(8)
            .ok_or_else(|| bad("too short for the header"))?
            != MAGIC
        {
            return Err(bad("wrong magic (not a weights file)"));
        }
        Ok(())
    }
    /// The game's name, which must be `want`.
    fn game(&mut self, want: &str) -> Result<(), WeightsError> {
        let len = self.byte()? as usize;
        let game = self
            .take(len)
            .ok_or_else(|| WeightsError::Format("truncated".into()))?;
        if game != want.as_bytes() {
            return Err(WeightsError::Format(format!(
                "weights for the game `{}`, not {want}",
                String::from_utf8_lossy(game)
            )));
        }
        Ok(())
    }
    /// The training settings.
    fn settings(&mut self) -> Result<TrainSettings, WeightsError> {
        Ok(TrainSettings {
            seed: self.u64()?,
            games: self.u64()?,
            lambda: f32::from_bits(self.u32()?),
            alpha: f32::from_bits(self.u32()?),
            tablebase_steps: self.u32()?,
            tablebase: self.byte()? != 0,
        })
    }
    /// The parameter count, which must be `want` (for `hidden` units), and the parameters'
    /// bytes.
    fn params(&mut self, want: usize, hidden: usize) -> Result<&'a [u8], WeightsError> {
        let count = self.u32()? as usize;
        if count != want {
            return Err(WeightsError::Format(format!(
                "{count} parameters for {hidden} hidden units, expected {want}"
            )));
        }
        self.take(4 * count).ok_or_else(|| {
            WeightsError::Format(format!("truncated: fewer than {count} parameters"))
        })
    }
    /// The checksum of everything before it, which must end the bytes.
    fn checksum(&mut self) -> Result<(), WeightsError> {
        let end = self.at;
        let sum = self.u64()?;
        if self.at != self.bytes.len() {
            return Err(WeightsError::Format(format!(
                "{} bytes after the checksum",
                self.bytes.len() - self.at
            )));
        }
        if fnv1a(&self.bytes[..end]) != sum {
            return Err(WeightsError::Format(
                "checksum mismatch (the file is damaged)".into(),
            ));
        }
        Ok(())
    }
}

/// The parameters in `body` (little-endian `f32`s), every one finite.
fn weights(body: &[u8]) -> Result<Vec<f32>, WeightsError> {
    let params: Vec<f32> = body
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if params.iter().any(|w| !w.is_finite()) {
        return Err(WeightsError::Format(
            "a weight is not a finite number".into(),
        ));
    }
    Ok(params)
}

/// A weights file's bytes up to its parameters (the part every network's file has): the
/// magic, the version, the game, the feature set, the shape, the training settings, the
/// parameter count and the parameters.
fn write_head(
    game: &str,
    feature_set: u32,
    inputs: usize,
    hidden: usize,
    s: &TrainSettings,
    params: &[f32],
) -> Vec<u8> {
    let mut b = Vec::with_capacity(64 + 4 * params.len());
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.push(game.len() as u8);
    b.extend_from_slice(game.as_bytes());
    b.extend_from_slice(&feature_set.to_le_bytes());
    b.extend_from_slice(&(inputs as u32).to_le_bytes());
    b.extend_from_slice(&(hidden as u32).to_le_bytes());
    b.extend_from_slice(&s.seed.to_le_bytes());
    b.extend_from_slice(&s.games.to_le_bytes());
    b.extend_from_slice(&s.lambda.to_le_bytes());
    b.extend_from_slice(&s.alpha.to_le_bytes());
    b.extend_from_slice(&s.tablebase_steps.to_le_bytes());
    b.push(u8::from(s.tablebase));
    b.extend_from_slice(&(params.len() as u32).to_le_bytes());
    for w in params {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b
}

/// `b` with its checksum appended: a whole weights file.
fn seal(mut b: Vec<u8>) -> Vec<u8> {
    let sum = fnv1a(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b
}

/// A weights file's bytes (at most [`crate::files::MAX_FILE_BYTES`]).
fn read(path: &Path) -> Result<Vec<u8>, WeightsError> {
    crate::files::read_bounded(path, crate::files::MAX_FILE_BYTES).map_err(WeightsError::Io)
}

/// A network's parameters for `inputs` inputs and `hidden` units, drawn small and at
/// random from `seed`: the first layer and the output weights uniform in ±0.1, the hidden
/// biases 0.1 (slightly positive, so that every unit starts alive), the output bias 0.
fn random_params(inputs: usize, hidden: usize, seed: u64) -> Vec<f32> {
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let mut params = vec![0.0f32; inputs * hidden + 2 * hidden + 1];
    let first = inputs * hidden;
    for w in &mut params[..first] {
        *w = (rng.random::<f32>() - 0.5) * 0.2;
    }
    for b in &mut params[first..first + hidden] {
        *b = 0.1;
    }
    for w in &mut params[first + hidden..first + 2 * hidden] {
        *w = (rng.random::<f32>() - 0.5) * 0.2;
    }
    params
}

/// The output's logit of the one-hidden-layer network `params` (shaped by `layout`) for
/// the set binary inputs `active` and the dense ones `dense`, leaving the hidden units'
/// inputs (before the ReLU) in `acc[..hidden]`. Allocates nothing.
#[inline]
fn forward(
    params: &[f32],
    layout: td::Layout,
    active: &[u16],
    dense: &[f32],
    acc: &mut [f32; MAX_HIDDEN],
) -> f32 {
    let h = layout.hidden;
    let first = (layout.sparse + layout.dense) * h;
    let (w1, rest) = params.split_at(first);
    let (b1, rest) = rest.split_at(h);
    let (w2, b2) = rest.split_at(h);
    let acc = &mut acc[..h];
    acc.copy_from_slice(b1);
    for &i in active {
        let at = i as usize * h;
        if let Some(row) = w1.get(at..at + h) {
            for (a, w) in acc.iter_mut().zip(row) {
                *a += *w;
            }
        }
    }
    for (k, &x) in dense.iter().enumerate() {
        if x != 0.0 {
            let at = (layout.sparse + k) * h;
            for (a, w) in acc.iter_mut().zip(&w1[at..at + h]) {
                *a += x * *w;
            }
        }
    }
    let mut z = b2[0];
    for (a, w) in acc.iter().zip(w2) {
        z += a.max(0.0) * *w;
    }
    z
}

/// Each seat's estimated score at `s` in a two-seat game: at an ended state exactly the
/// scores, elsewhere `[p, 1 − p]` for the mover and the other seat, `p = win(mover)` the
/// chance that the seat to move wins. Allocates nothing.
#[inline]
fn seat_values<G: Game>(game: &G, s: &G::State, win: impl FnOnce(Seat) -> f32) -> SeatValues {
    let mover = match game.node(s) {
        Node::Throw(seat) | Node::Decide(seat) => seat,
        Node::End => return game.scores(s).expect("an ended game has scores"),
    };
    let p = f64::from(win(mover));
    let mut out = [0.0; MAX_SEATS];
    out[mover & 1] = p;
    out[(mover & 1) ^ 1] = 1.0 - p;
    out
}

/// The network in the file `path`, loaded by `load` once per process (at the first call
/// with its `key`) and kept in `cache` for its lifetime, so that agents can hold it by
/// reference like the shipped ones.
fn load_once<K: PartialEq, T: 'static>(
    cache: &'static OnceLock<Mutex<Vec<(K, &'static T)>>>,
    key: K,
    path: &str,
    load: impl FnOnce(&Path) -> Result<T, WeightsError>,
) -> Result<&'static T, WeightsFileError> {
    let mut cache = cache
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, net)) = cache.iter().find(|(k, _)| *k == key) {
        return Ok(net);
    }
    let net = load(Path::new(path)).map_err(|source| WeightsFileError {
        path: path.to_string(),
        source,
    })?;
    let net: &'static T = Box::leak(Box::new(net));
    cache.push((key, net));
    Ok(net)
}

/// FNV-1a, 64-bit.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Adds to `a` (the biases) the rows of `f`'s active inputs, then its dense inputs times
/// their rows, for each hidden unit in that order, half the hidden units at a time (so that
/// their sums stay in registers). `halves` are the first layer's rows split in two.
#[inline(always)]
fn sum_inputs(a: &mut [f32; MAX_HIDDEN], halves: &[[f32; HALF]], f: &Features) {
    for (half, out) in a.as_chunks_mut::<HALF>().0.iter_mut().enumerate() {
        let mut v = *out;
        for &i in f.active() {
            if let Some(row) = halves.get(2 * i as usize + half) {
                for (v, w) in v.iter_mut().zip(row) {
                    *v += *w;
                }
            }
        }
        for (k, &x) in f.dense.iter().enumerate() {
            if x != 0.0 {
                for (v, w) in v.iter_mut().zip(&halves[2 * (SPARSE_INPUTS + k) + half]) {
                    *v += x * *w;
                }
            }
        }
        *out = v;
    }
}

/// The logistic function.
#[inline]
pub(crate) fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// The shipped weights (`agents/weights/issiren.sdw`, embedded in the binary), parsed once.
pub fn shipped() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| {
        Network::from_bytes(include_bytes!("../../weights/issiren.sdw"))
            .expect("the shipped weights are valid (tested)")
    })
}

/// The weights in `path`, loaded once per process and kept for its lifetime (so that
/// agents can hold them by reference like the shipped ones).
///
/// # Errors
/// [`WeightsFileError`], naming the file and what is wrong with it.
pub fn shared(path: &str) -> Result<&'static Network, WeightsFileError> {
    static CACHE: OnceLock<Mutex<Vec<(String, &'static Network)>>> = OnceLock::new();
    load_once(&CACHE, path.to_string(), path, Network::load)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stickdice::ActionList;

    /// The full-width forward pass gives bit for bit what the general one gives (the same
    /// sums in the same order), on the shipped network and a random one, over the positions
    /// of random games.
    #[test]
    fn the_full_width_forward_pass_is_bit_identical() {
        let random = Network::random(
            MAX_HIDDEN,
            3,
            TrainSettings {
                seed: 3,
                games: 0,
                lambda: 0.7,
                alpha: 0.1,
                tablebase_steps: 0,
                tablebase: false,
            },
        );
        let game = Issiren::with_seats(2).unwrap();
        let mut rng = stickdice::Rng::seed_from_u64(7);
        let mut legal = ActionList::new();
        let mut checked = 0;
        for _ in 0..20 {
            let mut s = game.initial_state();
            while let Node::Throw(mover) | Node::Decide(mover) = game.node(&s) {
                let f = features(&s, mover);
                for net in [shipped(), &random] {
                    assert_eq!(net.hidden(), MAX_HIDDEN);
                    let (mut a, mut b) = ([0.0; MAX_HIDDEN], [0.0; MAX_HIDDEN]);
                    let za = net.forward(&f, &mut a);
                    let zb = net.forward_any(&f, &mut b);
                    assert_eq!(za.to_bits(), zb.to_bits());
                    assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
                }
                checked += 1;
                match game.node(&s) {
                    Node::Throw(_) => {
                        let t = game.sample_throw(&mut rng);
                        game.apply_throw_unchecked(&mut s, t);
                    }
                    _ => {
                        game.legal_actions(&s, &mut legal);
                        let a = legal[rng.random_range(0..legal.len())];
                        game.apply_action_unchecked(&mut s, a);
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked} positions");
    }
}
