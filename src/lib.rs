//! # stickdice
//!
//! The stick-dice board games of the Sahara — Sig wa Duqqan (Houmt al-Arbah), Sig (El
//! Oued) and Issiren — as rules objects with **explicit chance**: every throw of the
//! sticks is a chance node whose outcomes and exact probabilities can be listed, so
//! exact search is possible and a front end can feed in real throws.
//!
//! * [`Game`]: the interface every game implements (node kind, throw outcomes, legal
//!   actions, checked and fast application, ranking and scores).
//! * [`dice`]: the sticks shared by the games.
//! * [`games`]: the three games and their rule options.
//! * [`Agent`]: the interface of anything that chooses actions.
//! * [`AnyGame`] and [`with_game!`]: choosing a game at run time.
//! * [`play`]: allocation-free random playouts and a whole-game driver.
//!
//! A random game of Issiren, with only this crate as a dependency:
//!
//! ```
//! use stickdice::{Game, Issiren, SeedableRng};
//!
//! let game = Issiren::with_seats(2).unwrap();
//! let mut state = game.initial_state();
//! let mut rng = stickdice::Rng::seed_from_u64(7);
//! let ranking = stickdice::play::random_playout(&game, &mut state, &mut rng);
//! assert_eq!(ranking.seats(), 2);
//! ```
//!
//! The agents are in the crate `stickdice-agents`, tournaments and analysis in
//! `stickdice-evaluation`. The stickdice book (`docs/` in the repository; `mdbook build
//! docs`) explains everything: the complete rules of every game, with each rule option and
//! reading (chapter *The games*, `docs/games/`), the library (`docs/library.md`) and the
//! architecture (`docs/architecture.md`).
#![deny(missing_docs)]

pub mod agent;
pub mod board;
pub mod config;
pub mod described;
pub mod dice;
pub mod game;
pub mod games;
pub mod options;
pub mod play;
pub mod present;
pub mod seed;
pub mod testing;

pub use agent::{
    agent_fn, agent_for, decision_actions, ActionValue, Agent, AgentError, FnAgent, Stop,
};
pub use board::{Board, BoardGeometry};
pub use config::{AnyAgent, AnyGame, GameKind, Listed};
/// Every shipped description's type at the crate root (`stickdice::Kioz`), from the
/// registration list.
macro_rules! reexport_described {
    ([] $($variant:ident : $ty:path,)*) => {
        pub use described::games::{$($variant),*};
    };
}
for_each_described_game!(reexport_described);
pub use described::Described;
pub use dice::{Outcome, Sticks, Throw};
pub use game::{
    ActionList, ConfigError, Game, IllegalMove, InvalidState, Node, NotationError, Playouts,
    Problem, ProblemKind, Problems, Ranking, Seat, SeatValues, MAX_ACTIONS, MAX_SEATS,
};
pub use games::{
    HoumtTaourit, Issiren, SigElOued, SigElOuedCapture, SigWaDuqqan, SiryuRace, SiryuWar,
};
pub use present::Present;

/// The portable, seedable random number generator used wherever stickdice needs one
/// (PCG 64-bit MCG: the same stream on every platform and version). Seed it with
/// [`SeedableRng::seed_from_u64`] (re-exported here, so no `rand` dependency of your own
/// is needed):
///
/// ```
/// use stickdice::{Game, Issiren, SeedableRng};
/// let game = Issiren::with_seats(2).unwrap();
/// let mut dice = stickdice::Rng::seed_from_u64(7);
/// let throw = game.sample_throw(&mut dice);
/// assert!(game.throw_outcomes().iter().any(|o| o.throw == throw));
/// ```
pub type Rng = rand_pcg::Pcg64Mcg;

/// The `rand` crate at the version stickdice uses (for [`Rng`]'s traits and
/// distributions): `stickdice::rand::RngExt`, `stickdice::rand::SeedableRng`.
pub use rand;
pub use rand::SeedableRng;

/// Loads a state from JSON and validates it against the game.
///
/// # Errors
/// [`LoadStateError`]: malformed JSON or a field of the wrong shape, or every broken
/// invariant ([`Game::validate`]).
#[cfg(feature = "serde")]
pub fn load_state<G: Game>(game: &G, json: &str) -> Result<G::State, LoadStateError> {
    let state: G::State =
        serde_json::from_str(json).map_err(|source| LoadStateError::Malformed {
            game: G::NAME,
            source,
        })?;
    game.validate(&state).map_err(LoadStateError::Invalid)?;
    Ok(state)
}

/// A state that could not be loaded ([`load_state`], [`Game::load_state`]).
#[cfg(feature = "serde")]
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadStateError {
    /// The text is not JSON, or not the game's state form (the JSON error is the source).
    Malformed {
        /// The game's name ([`Game::NAME`]).
        game: &'static str,
        /// What the JSON reader found.
        source: serde_json::Error,
    },
    /// The state breaks the game's invariants.
    Invalid(InvalidState),
}

#[cfg(feature = "serde")]
impl core::fmt::Display for LoadStateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LoadStateError::Malformed { game, source } => {
                write!(f, "malformed {game} state: {source}")
            }
            LoadStateError::Invalid(e) => core::fmt::Display::fmt(e, f),
        }
    }
}

#[cfg(feature = "serde")]
impl std::error::Error for LoadStateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadStateError::Malformed { source, .. } => Some(source),
            // Shown as itself (its message is this error's), as `#[error(transparent)]` does.
            LoadStateError::Invalid(e) => e.source(),
        }
    }
}

/// Writes a state as JSON (the form [`load_state`] reads).
#[cfg(feature = "serde")]
pub fn save_state<G: Game>(state: &G::State) -> String {
    serde_json::to_string(state).expect("states serialize")
}

/// The Rust code blocks of the README and of the book (`docs/`), run as doctests of this
/// crate, whose dev-dependencies are the agents and the evaluation: every block compiles as
/// a user's program with the three crates as its dependencies, and runs unless marked
/// `no_run` (those are the example programs, which CI runs itself). `tests/readme.rs`
/// checks that every page with a Rust block is listed here.
#[cfg(doctest)]
mod docs_code_blocks {
    #[doc = include_str!("../README.md")]
    struct Readme;
    #[doc = include_str!("../docs/library.md")]
    struct Library;
    #[doc = include_str!("../docs/extending.md")]
    struct Extending;
    #[doc = include_str!("../docs/compare-family.md")]
    struct CompareFamily;
}
