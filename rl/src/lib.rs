//! Reinforcement learning on stickdice games.
//!
//! * [`encoding`]: the action codes and observation tensors of every game with the
//!   `encode` capability ([`Encoded`]); the Python package, OpenSpiel and PettingZoo use
//!   the same ones.
//! * [`described`]: the same for every game the description engine plays, derived from
//!   its description.
//! * [`vector`]: a batched environment ([`VectorEnv`], generic [`Batch`]) that steps N
//!   games of one configuration in one call, resolves the throws inside from per-game
//!   seeded dice, plays opponent agents in Rust, resets finished games and writes
//!   observations, legal-action masks, players, rewards, terminations and truncations
//!   into buffers the caller owns, allocating nothing per step.
//!
//! ```
//! use stickdice::AnyGame;
//! use stickdice_rl::{Buffers, VectorEnv};
//!
//! let game = AnyGame::new("issiren", None, &[] as &[&str]).unwrap();
//! // 8 games; the learner plays seat P1, `greedy` plays P2 (in Rust).
//! let mut env = VectorEnv::new(&game, 8, &[None, Some("greedy")]).unwrap();
//! let mut buf = Buffers::new(&env);
//! env.reset(7, buf.out()).unwrap();
//! let mut actions = vec![0i64; env.len()];
//! for _ in 0..100 {
//!     // The first legal action of every game (a real learner samples its policy).
//!     for (i, a) in actions.iter_mut().enumerate() {
//!         let mask = &buf.masks[i * env.num_actions()..][..env.num_actions()];
//!         *a = mask.iter().position(|&legal| legal).unwrap_or(0) as i64;
//!     }
//!     env.step(&actions, buf.out()).unwrap();
//! }
//! assert!(buf.players.iter().all(|&p| p == 0 || p == -1));
//! ```

#![deny(missing_docs)]

pub mod described;
pub mod encoding;
pub mod vector;

pub use encoding::Encoded;
pub use vector::{
    game_seed, log_seed, log_text, opponent_seed, Batch, Buffers, Out, VectorEnv, VectorError,
    Vectorize, LEARNER_LABEL,
};
