//! The learned evaluations of the capture games of the family, Sig (El Oued Capture) and
//! Siryu (War), and of the described games: Issiren's design ([`crate::learned`]) on each
//! hand-written game's own inputs, and on one generic feature set, read off the
//! description, for every described game ([`described`]).
//!
//! # The network
//!
//! Each game has its feature set ([`capture`], [`war`]), written from its rules and read
//! from the side of the seat to throw or to decide (the *mover*): one binary input per
//! occupied circuit position (unmoved or locked pieces apart), the piece counts one-hot,
//! the pending throw or move value, the throw values that capture for either side, and a
//! few dense inputs — the exact chances, from the game's chance node, that either side
//! captures with its next throw, and each side's pieces under threat weighted by those
//! chances. One hidden layer of `hidden` ReLU units (32 in the shipped weights) feeds one
//! output, a sigmoid: the mover's chance of winning (a draw at the throw cap counting
//! half). The first layer is accumulated over the set inputs only, on the stack:
//! inference allocates nothing.
//!
//! As an [`Evaluate`] it returns `[p, 1 − p]` for the mover and the other seat, and exactly
//! the scores at an ended state.
//!
//! # Training
//!
//! [`train`]: self-play TD(λ) as for Issiren ([`crate::learned::train`]): game `i` of a
//! run is played with throws from `derive(seed, [i])`, both seats choosing the action whose
//! resulting state the current network rates best (the exact score where the action ends
//! the game), and every node is a TD(λ) step on seat 0's win probability. One thread, so
//! the same seed and settings give bit-identical weights, and a run resumed from a
//! checkpoint ends where an unbroken one does.
//!
//! # The weights file
//!
//! Issiren's format ([`crate::learned`], version 3), with the game's name (`G::NAME`) and
//! its feature set and input count, no endgame network (hidden units 0) and no
//! distillation record (byte 0). A file of another game, or of another feature set or
//! shape, is refused with a message naming what differs. The shipped weights are embedded
//! in the binary ([`LearnedGame::shipped`]; the described games ship none); `eval=FILE`
//! loads another file once per process ([`shared`]).
//!
//! ```
//! use stickdice::{Game, SigElOuedCapture};
//! use stickdice_agents::learned::games::{LearnedGame, GameNet};
//! let game = SigElOuedCapture::with_seats(2).unwrap();
//! let net = SigElOuedCapture::shipped().expect("Sig (El Oued Capture) ships weights");
//! let v = net.evaluate(&game, &game.initial_state());
//! assert!((v[0] + v[1] - 1.0).abs() < 1e-6 && v[0] > 0.2 && v[0] < 0.8);
//! // The file round-trips exactly, and is refused as Issiren's.
//! let again = GameNet::from_bytes::<SigElOuedCapture>(&net.to_bytes()).unwrap();
//! assert_eq!(&again, net);
//! assert!(stickdice_agents::learned::Network::from_bytes(&net.to_bytes()).is_err());
//! ```

pub mod capture;
pub mod described;
pub mod war;

use core::fmt;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, OnceLock};

use stickdice::{Seat, SeatValues};

use super::td::{self, Layout, TdNet};
use super::train::TrainConfig;
use super::{sigmoid, Reader, TrainError, TrainSettings, WeightsError, WeightsFileError};
use crate::Evaluate;

/// The most hidden units a network may have (the accumulator is a stack array this long).
pub const MAX_HIDDEN: usize = super::MAX_HIDDEN;
/// The most binary inputs a position of any of these games sets.
pub const MAX_ACTIVE: usize = 96;
/// The most real-valued inputs a game has.
pub const MAX_DENSE: usize = 8;

/// The format version these files are written in (Issiren's latest).
const VERSION: u32 = super::VERSION;

/// A game of the family with a learned evaluation: its inputs and its shipped weights.
pub trait LearnedGame: Evaluate + Sized {
    /// The feature set's number, kept in the weights file.
    const FEATURE_SET: u32;
    /// Binary inputs.
    const SPARSE_INPUTS: usize;
    /// Real-valued inputs (at most [`MAX_DENSE`]).
    const DENSE_INPUTS: usize;
    /// The position's inputs from the side of `mover`. Allocates nothing.
    fn features(&self, s: &Self::State, mover: Seat) -> Features;
    /// The shipped weights, embedded in the binary, parsed once; `None` for a game that
    /// ships none.
    fn shipped() -> Option<&'static GameNet>;
    /// Whether a learned evaluation reads this configuration (the described games' reads two
    /// seats on two sides); where not, [`GameNet::evaluate`] gives the hand-set evaluation.
    fn learned_applies(&self) -> bool {
        true
    }
    /// All inputs.
    fn inputs() -> usize {
        Self::SPARSE_INPUTS + Self::DENSE_INPUTS
    }
}

/// A position's inputs: the indices of the binary inputs that are set, and the dense ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    active: [u16; MAX_ACTIVE],
    n: usize,
    dense: [f32; MAX_DENSE],
}

impl Features {
    /// No input set.
    #[inline]
    pub(crate) fn new() -> Features {
        Features {
            active: [0; MAX_ACTIVE],
            n: 0,
            dense: [0.0; MAX_DENSE],
        }
    }

    /// Sets binary input `i`.
    #[inline(always)]
    pub(crate) fn set(&mut self, i: usize) {
        debug_assert!(self.n < MAX_ACTIVE);
        if let Some(slot) = self.active.get_mut(self.n) {
            *slot = i as u16;
            self.n += 1;
        }
    }

    /// The binary inputs that are set.
    pub fn active(&self) -> &[u16] {
        &self.active[..self.n]
    }

    /// The dense inputs (those past the game's count are 0).
    pub fn dense(&self) -> &[f32; MAX_DENSE] {
        &self.dense
    }

    /// Sets the dense inputs.
    #[inline]
    pub(crate) fn set_dense(&mut self, dense: [f32; MAX_DENSE]) {
        self.dense = dense;
    }
}

/// A learned evaluation of one game of the family: see the [module docs](self).
#[derive(Clone, PartialEq)]
pub struct GameNet {
    game: String,
    feature_set: u32,
    sparse: usize,
    dense: usize,
    hidden: usize,
    /// First layer `[inputs][hidden]`, then its biases, the output weights, the output bias.
    params: Vec<f32>,
    settings: TrainSettings,
}

impl fmt::Debug for GameNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameNet")
            .field("game", &self.game)
            .field("inputs", &(self.sparse + self.dense))
            .field("hidden", &self.hidden)
            .field("settings", &self.settings)
            .finish()
    }
}

/// The parameter count of a network with `inputs` inputs and `hidden` units.
pub const fn param_count(inputs: usize, hidden: usize) -> usize {
    inputs * hidden + 2 * hidden + 1
}

impl GameNet {
    /// A network for `G` with `hidden` units (1 to [`MAX_HIDDEN`]), its weights drawn small
    /// and at random from `seed`, with these settings.
    ///
    /// # Panics
    /// If `hidden` is 0 or above [`MAX_HIDDEN`].
    pub fn random<G: LearnedGame>(hidden: usize, seed: u64, settings: TrainSettings) -> GameNet {
        assert!(
            (1..=MAX_HIDDEN).contains(&hidden),
            "1 to {MAX_HIDDEN} hidden units"
        );
        let params = super::random_params(G::inputs(), hidden, seed);
        GameNet::of::<G>(hidden, params, settings)
    }

    /// A network of `G` with these parameters.
    fn of<G: LearnedGame>(hidden: usize, params: Vec<f32>, settings: TrainSettings) -> GameNet {
        GameNet {
            game: G::NAME.to_string(),
            feature_set: G::FEATURE_SET,
            sparse: G::SPARSE_INPUTS,
            dense: G::DENSE_INPUTS,
            hidden,
            params,
            settings,
        }
    }

    /// The game's name (as `--game` spells it).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The training settings stored with the weights.
    pub fn settings(&self) -> &TrainSettings {
        &self.settings
    }

    /// The output's logit for `f`, leaving the hidden units' inputs (before the ReLU) in
    /// `acc[..hidden]`.
    #[inline]
    pub(crate) fn forward(&self, f: &Features, acc: &mut [f32; MAX_HIDDEN]) -> f32 {
        let dense = &f.dense[..self.dense];
        super::forward(&self.params, self.layout(), f.active(), dense, acc)
    }

    /// The parameters' shape.
    #[inline]
    fn layout(&self) -> Layout {
        Layout {
            sparse: self.sparse,
            dense: self.dense,
            hidden: self.hidden,
        }
    }

    /// The chance that `mover` wins from `s`, a state that has not ended. Allocates nothing.
    #[inline]
    pub fn win_probability<G: LearnedGame>(&self, game: &G, s: &G::State, mover: Seat) -> f32 {
        let mut acc = [0.0f32; MAX_HIDDEN];
        sigmoid(self.forward(&game.features(s, mover), &mut acc))
    }

    /// Each seat's estimated score: at an ended state exactly the scores, elsewhere
    /// `[p, 1 − p]` with `p` the chance that the seat to move wins (the hand-set evaluation
    /// where the learned one does not apply, [`LearnedGame::learned_applies`]). Allocates
    /// nothing.
    #[inline]
    pub fn evaluate<G: LearnedGame>(&self, game: &G, s: &G::State) -> SeatValues {
        if !game.learned_applies() {
            return game.evaluate(s);
        }
        super::seat_values(game, s, |mover| self.win_probability(game, s, mover))
    }

    /// The weights file's bytes (see the [module docs](self)).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = super::write_head(
            &self.game,
            self.feature_set,
            self.sparse + self.dense,
            self.hidden,
            &self.settings,
            &self.params,
        );
        // No endgame network, no distillation record.
        b.extend_from_slice(&0u32.to_le_bytes());
        b.push(0);
        super::seal(b)
    }

    /// Reads a weights file's bytes for `G`, checking the magic, version, game, feature
    /// set, shape, parameter count, that every weight is finite, and the checksum.
    ///
    /// # Errors
    /// [`WeightsError::Format`] naming the first thing wrong.
    pub fn from_bytes<G: LearnedGame>(bytes: &[u8]) -> Result<GameNet, WeightsError> {
        let bad = |why: String| WeightsError::Format(why);
        let mut r = Reader { bytes, at: 0 };
        r.magic()?;
        let version = r.u32()?;
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}, this build reads version {VERSION} for {}",
                G::NAME
            )));
        }
        r.game(G::NAME)?;
        let set = r.u32()?;
        if set != G::FEATURE_SET {
            return Err(bad(format!(
                "feature set {set}, this build has feature set {} for {}",
                G::FEATURE_SET,
                G::NAME
            )));
        }
        let inputs = r.u32()? as usize;
        let hidden = r.u32()? as usize;
        if inputs != G::inputs() || !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(bad(format!(
                "shape {inputs} inputs × {hidden} hidden units; this build takes {} inputs and 1 to {MAX_HIDDEN} hidden units for {}",
                G::inputs(),
                G::NAME
            )));
        }
        let settings = r.settings()?;
        let body = r.params(param_count(inputs, hidden), hidden)?;
        if r.u32()? != 0 {
            return Err(bad(format!("{} has no endgame network", G::NAME)));
        }
        if r.byte()? != 0 {
            return Err(bad(format!("{} has no distillation record", G::NAME)));
        }
        r.checksum()?;
        let params = super::weights(body)?;
        Ok(GameNet::of::<G>(hidden, params, settings))
    }

    /// Reads a weights file for `G`.
    ///
    /// # Errors
    /// [`WeightsError::Io`] when it cannot be read, [`WeightsError::Format`] when it is not
    /// a valid weights file of `G`.
    pub fn load<G: LearnedGame>(path: &Path) -> Result<GameNet, WeightsError> {
        GameNet::from_bytes::<G>(&super::read(path)?)
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

/// The shipped weights of `G` (for [`LearnedGame::shipped`]): `bytes`, embedded in the
/// binary, parsed once into the game's own `cell`.
pub(crate) fn shipped<G: LearnedGame>(
    cell: &'static OnceLock<GameNet>,
    bytes: &[u8],
) -> &'static GameNet {
    cell.get_or_init(|| {
        GameNet::from_bytes::<G>(bytes).expect("the shipped weights are valid (tested)")
    })
}

/// The weights of `G` in `path`, loaded once per process and kept for its lifetime (so
/// that agents can hold them by reference like the shipped ones).
///
/// # Errors
/// [`WeightsFileError`], naming the file and what is wrong with it.
pub fn shared<G: LearnedGame>(path: &str) -> Result<&'static GameNet, WeightsFileError> {
    type Cache = Mutex<Vec<((&'static str, String), &'static GameNet)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    super::load_once(
        &CACHE,
        (G::NAME, path.to_string()),
        path,
        GameNet::load::<G>,
    )
}

/// Trains a network for `game`: from `resume` (a checkpoint, whose settings must match
/// `config`) or from fresh random weights, up to `config.games` self-play games (see the
/// [module docs](self)). `progress` is told the games done after each; `checkpoint` is
/// handed the network every `checkpoint_every` games, at the end, and when `stop` is set.
/// The tablebase steps of `config` are not used (these games have no tablebase).
///
/// # Errors
/// A setting out of range, a checkpoint that does not match the settings or is another
/// game's, or the error of `checkpoint`.
pub fn train<G: LearnedGame, E: Into<Box<dyn std::error::Error + Send + Sync>>>(
    game: &G,
    config: &TrainConfig,
    resume: Option<GameNet>,
    stop: &AtomicBool,
    progress: impl FnMut(u64),
    checkpoint: impl FnMut(&GameNet) -> Result<(), E>,
) -> Result<GameNet, TrainError> {
    let net = td::start::<G, _>(config, false, resume)?;
    td::run(game, config, net, stop, |_, _| {}, progress, checkpoint)
}

/// A capture game's network for the shared TD(λ) loop: the game's own inputs.
impl<G: LearnedGame> TdNet<G> for GameNet {
    type Features = Features;

    #[inline]
    fn features(game: &G, s: &G::State, mover: Seat) -> Features {
        game.features(s, mover)
    }

    #[inline]
    fn inputs<'f>(&self, f: &'f Features) -> (&'f [u16], &'f [f32]) {
        (f.active(), &f.dense[..self.dense])
    }

    #[inline]
    fn forward(&self, f: &Features, acc: &mut [f32; MAX_HIDDEN]) -> f32 {
        GameNet::forward(self, f, acc)
    }

    #[inline]
    fn evaluate(&self, game: &G, s: &G::State) -> SeatValues {
        GameNet::evaluate(self, game, s)
    }

    fn random(hidden: usize, seed: u64, settings: TrainSettings) -> GameNet {
        GameNet::random::<G>(hidden, seed, settings)
    }

    fn mismatch(&self, settings: &TrainSettings, hidden: usize) -> Option<String> {
        let mut mine = self.settings;
        mine.games = 0;
        (self.game != G::NAME || mine != *settings || self.hidden != hidden).then(|| {
            format!(
                "the checkpoint was trained for {} with other settings ({:?}, {} hidden units) than these ({}, {settings:?}, {hidden} hidden units)",
                self.game,
                self.settings,
                self.hidden,
                G::NAME,
            )
        })
    }

    #[inline]
    fn layout(&self) -> Layout {
        GameNet::layout(self)
    }

    #[inline]
    fn params(&self) -> &[f32] {
        &self.params
    }

    #[inline]
    fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    #[inline]
    fn settings(&self) -> &TrainSettings {
        &self.settings
    }

    #[inline]
    fn settings_mut(&mut self) -> &mut TrainSettings {
        &mut self.settings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng as _;
    use stickdice::{Game, Node, SigElOuedCapture, SiryuWar};

    fn settings() -> TrainSettings {
        TrainSettings::default()
    }

    /// Every input index a game's features set is below its sparse count, no two are the
    /// same, at most [`MAX_ACTIVE`] are set, and the dense ones are finite, over the
    /// positions of random games.
    fn features_are_in_range<G: LearnedGame>(game: &G) {
        let mut rng = stickdice::Rng::seed_from_u64(5);
        let positions = stickdice::testing::random_game_positions(game, 30, &mut rng);
        assert!(positions.len() > 500, "{} positions", positions.len());
        for s in positions {
            let mover = match game.node(&s) {
                Node::Throw(m) | Node::Decide(m) => m,
                Node::End => continue,
            };
            let f = game.features(&s, mover);
            assert!(f.n <= MAX_ACTIVE);
            let mut seen = f.active().to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), f.n, "an input set twice: {:?}", f.active());
            assert!(f.active().iter().all(|&i| (i as usize) < G::SPARSE_INPUTS));
            assert!(f
                .dense
                .iter()
                .all(|x| x.is_finite() && (-0.01..=12.01).contains(x)));
            assert!(f.dense[G::DENSE_INPUTS..].iter().all(|&x| x == 0.0));
        }
    }

    #[test]
    fn the_features_are_in_range() {
        features_are_in_range(&SigElOuedCapture::with_seats(2).unwrap());
        features_are_in_range(&SiryuWar::with_seats(2).unwrap());
    }

    /// A file round-trips bit for bit, and is refused for the other game, damaged,
    /// truncated or with trailing bytes.
    #[test]
    fn the_weights_file_round_trips_and_refuses_other_games() {
        let net = GameNet::random::<SiryuWar>(8, 3, settings());
        let bytes = net.to_bytes();
        assert_eq!(GameNet::from_bytes::<SiryuWar>(&bytes).unwrap(), net);
        let err = GameNet::from_bytes::<SigElOuedCapture>(&bytes).unwrap_err();
        assert!(
            err.to_string().contains("weights for the game `siryu-war`"),
            "{err}"
        );
        let err = crate::learned::Network::from_bytes(&bytes).unwrap_err();
        assert!(err.to_string().contains("not issiren"), "{err}");
        let mut damaged = bytes.clone();
        damaged[100] ^= 1;
        assert!(GameNet::from_bytes::<SiryuWar>(&damaged)
            .unwrap_err()
            .to_string()
            .contains("checksum"));
        assert!(GameNet::from_bytes::<SiryuWar>(&bytes[..bytes.len() - 3]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(GameNet::from_bytes::<SiryuWar>(&longer).is_err());
        let issiren = crate::learned::shipped().to_bytes();
        assert!(GameNet::from_bytes::<SiryuWar>(&issiren)
            .unwrap_err()
            .to_string()
            .contains("`issiren`"));
    }

    /// The same seed and settings give bit-identical weights, and a run stopped and resumed
    /// from its checkpoint ends with the same weights as one never stopped.
    #[test]
    fn training_is_deterministic_and_resumes_exactly() {
        let game = SigElOuedCapture::with_seats(2).unwrap();
        let config = TrainConfig {
            games: 6,
            hidden: 4,
            checkpoint_every: 3,
            ..TrainConfig::default()
        };
        let never = AtomicBool::new(false);
        let run = |c: &TrainConfig, resume| {
            train(&game, c, resume, &never, |_| {}, |_| Ok::<(), String>(())).unwrap()
        };
        let a = run(&config, None);
        let b = run(&config, None);
        assert_eq!(a.to_bytes(), b.to_bytes());
        assert_eq!(a.settings().games, 6);
        assert_ne!(
            a.params,
            GameNet::random::<SigElOuedCapture>(4, 0, settings()).params
        );
        let half = run(&TrainConfig { games: 3, ..config }, None);
        let resumed = run(&config, Some(half));
        assert_eq!(resumed.to_bytes(), a.to_bytes());
        // Another game's checkpoint is refused.
        let war = GameNet::random::<SiryuWar>(4, 1, config.settings(false));
        let err = train(
            &game,
            &config,
            Some(war),
            &never,
            |_| {},
            |_| Ok::<(), String>(()),
        )
        .unwrap_err();
        assert!(err.to_string().contains("siryu-war"), "{err}");
    }
}
