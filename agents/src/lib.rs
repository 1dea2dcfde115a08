//! Agents for the stickdice games.
//!
//! Every agent implements [`stickdice::Agent`] and is built from a spec string
//! ([`spec::build`]), so the arena and front ends hold `Box<dyn Agent<G>>`.

pub mod eval;
pub mod expectimax;
pub mod greedy;
pub mod random;
pub mod spec;
#[doc(hidden)]
pub mod testgame;

pub use eval::Evaluate;
pub use expectimax::{Expectimax, ExpectimaxConfig, Mode, Pruning, SearchResult};
pub use greedy::GreedyAgent;
pub use random::RandomAgent;
pub use spec::{agents, build, build_str, AgentInfo, AgentSpec, ParamInfo, Params, SpecError};
