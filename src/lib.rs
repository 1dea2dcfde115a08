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
//! ```
//! use stickdice::{Game, Issiren, Node, ActionList};
//! use rand::SeedableRng;
//!
//! let game = Issiren::with_seats(2).unwrap();
//! let mut state = game.initial_state();
//! let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
//! let ranking = stickdice::play::random_playout(&game, &mut state, &mut rng);
//! assert_eq!(ranking.seats(), 2);
//! ```

pub mod agent;
pub mod board;
pub mod config;
pub mod dice;
pub mod game;
pub mod games;
pub mod play;
pub mod seed;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use agent::{
    agent_fn, agent_for, decision_actions, ActionValue, Agent, AgentError, FnAgent, Stop,
};
pub use board::{Board, BoardGeometry};
pub use config::{AnyAgent, AnyGame, GameKind, Listed};
pub use dice::{Outcome, Sticks, Throw};
pub use game::{
    ActionList, ConfigError, Game, IllegalMove, InvalidState, Node, NotationError, Playouts,
    Ranking, Seat, SeatValues, MAX_ACTIONS, MAX_SEATS,
};
pub use games::{Issiren, SigElOued, SigElOuedCapture, SigWaDuqqan};

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
/// A message naming what is wrong: malformed JSON, a field of the wrong shape, or every
/// broken invariant ([`Game::validate`]).
#[cfg(feature = "serde")]
pub fn load_state<G: Game>(game: &G, json: &str) -> Result<G::State, String> {
    let state: G::State =
        serde_json::from_str(json).map_err(|e| format!("malformed {} state: {e}", G::NAME))?;
    game.validate(&state).map_err(|e| e.to_string())?;
    Ok(state)
}

/// Writes a state as JSON (the form [`load_state`] reads).
#[cfg(feature = "serde")]
pub fn save_state<G: Game>(state: &G::State) -> String {
    serde_json::to_string(state).expect("states serialize")
}
