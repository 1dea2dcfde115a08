//! Agents for the stickdice games.
//!
//! Every agent implements [`stickdice::Agent`] and is built from a spec string
//! ([`spec::build`]), so the arena and front ends hold `Box<dyn Agent<G>>`.

pub mod eval;
pub mod perfect;
pub mod random;
pub mod solve;
pub mod spec;

pub use eval::Evaluate;
pub use perfect::PerfectAgent;
pub use random::RandomAgent;
pub use spec::{agents, build, build_str, AgentInfo, AgentSpec, ParamInfo, Params, SpecError};
