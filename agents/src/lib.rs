//! Agents for the stickdice games.
//!
//! Every agent implements [`stickdice::Agent`] and is built from a spec string
//! ([`spec::build`]), so the arena and front ends hold `Box<dyn Agent<G>>`.

pub mod eval;
pub mod ismcts;
pub mod mcts;
pub mod random;
pub mod spec;
#[cfg(test)]
mod testgame_mcts;

pub use eval::Evaluate;
pub use ismcts::{IsmctsAgent, IsmctsConfig};
pub use mcts::{ActionStats, Analysis, MctsAgent, MctsConfig, Playout};
pub use random::RandomAgent;
pub use spec::{agents, build, build_str, AgentInfo, AgentSpec, ParamInfo, Params, SpecError};
