//! Agent specs: agents named by strings such as `random`, `expectimax:depth=3` or
//! `mcts:iterations=2000,c=1.4`, for the command line, the arena and front ends.
//!
//! A spec is a name, optionally followed by `:` and comma-separated `key=value`
//! parameters. [`agents`] lists every agent with its parameters and their defaults;
//! [`build`] turns a spec into a boxed agent for a game.

use stickdice::Agent;

use crate::eval::Evaluate;
pub use crate::params::{AgentInfo, AgentSpec, ParamInfo, Params, SpecError};

/// Finding the agent a spec names is the registry's job, so this method lives here.
impl AgentSpec {
    /// The parameters checked against the agent's declared ones: an unknown agent or
    /// parameter is an error.
    ///
    /// # Errors
    /// [`SpecError::UnknownAgent`], [`SpecError::UnknownParam`].
    pub fn checked_params(&self) -> Result<Params<'_>, SpecError> {
        let info = info(self.name()).ok_or_else(|| SpecError::UnknownAgent {
            name: self.name().to_string(),
            known: agents().iter().map(|a| a.name).collect(),
        })?;
        Params::new(info, self)
    }
}

/// Every agent, with its parameters and defaults.
///
/// ```
/// for agent in stickdice_agents::agents() {
///     println!("{}: {}", agent.name, agent.summary);
///     for p in agent.params {
///         println!("  {} (default {}): {}", p.key, p.default, p.help);
///     }
/// }
/// assert!(stickdice_agents::agents().iter().any(|a| a.name == "expectimax"));
/// ```
pub fn agents() -> &'static [AgentInfo] {
    AGENTS
}

/// The information of the agent named `name`.
pub fn info(name: &str) -> Option<&'static AgentInfo> {
    AGENTS.iter().find(|a| a.name == name)
}

static AGENTS: &[AgentInfo] = &[
    crate::random::INFO,
    crate::greedy::INFO,
    crate::expectimax::INFO,
    crate::mcts::INFO,
    crate::ismcts::INFO,
    crate::perfect::INFO,
];

/// Builds the agent a spec names, for `game`, with its random number generator seeded
/// from `seed`.
///
/// ```
/// use stickdice::{Agent, Game, SigElOued};
/// use stickdice_agents::AgentSpec;
/// let game = SigElOued::with_seats(2).unwrap();
/// let spec: AgentSpec = "expectimax:depth=2".parse().unwrap();
/// let agent: Box<dyn Agent<SigElOued>> = stickdice_agents::build(&spec, &game, 7).unwrap();
/// assert_eq!(agent.name(), "expectimax:depth=2");
/// // A spec a game cannot take is refused with the reason.
/// let issiren = stickdice::Issiren::with_seats(2).unwrap();
/// let err = stickdice_agents::build(&"perfect".parse().unwrap(), &issiren, 0).err().unwrap();
/// assert!(err.to_string().contains("cannot play here"));
/// ```
///
/// # Errors
/// A [`SpecError`] naming what is wrong and what is accepted.
pub fn build<G: Evaluate>(
    spec: &AgentSpec,
    game: &G,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, SpecError> {
    let params = spec.checked_params()?;
    let _ = game;
    match params.info().name {
        "random" => Ok(Box::new(crate::random::RandomAgent::from_params(
            &params, seed,
        )?)),
        "greedy" => Ok(Box::new(crate::greedy::GreedyAgent::from_params(
            &params, seed,
        )?)),
        "expectimax" => Ok(Box::new(crate::expectimax::Expectimax::<G>::from_params(
            &params, seed,
        )?)),
        "mcts" => Ok(Box::new(crate::mcts::MctsAgent::<G>::from_params(
            &params, seed,
        )?)),
        "ismcts" => Ok(Box::new(crate::ismcts::IsmctsAgent::<G>::from_params(
            &params, seed,
        )?)),
        "perfect" => crate::perfect::build(&params, game),
        other => unreachable!("agent {other} is listed but not built"),
    }
}

/// Parses and builds in one step.
///
/// ```
/// use stickdice::{Agent, Game, Issiren};
/// let game = Issiren::with_seats(2).unwrap();
/// let mut state = game.initial_state();
/// game.apply_throw(&mut state, "1".parse().unwrap()).unwrap();
/// let mut agent = stickdice_agents::build_str("mcts:iterations=200", &game, 1).unwrap();
/// let action = agent.choose(&game, &state).unwrap();
/// assert!(game.check_action(&state, action).is_ok());
/// let err = stickdice_agents::build_str("mcts:iterations=0", &game, 1).err().unwrap();
/// assert!(err.to_string().contains("iterations"));
/// ```
///
/// # Errors
/// As [`AgentSpec::from_str`](core::str::FromStr::from_str) and [`build`].
pub fn build_str<G: Evaluate>(
    text: &str,
    game: &G,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, SpecError> {
    build(&text.parse()?, game, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print_canonically() {
        let s: AgentSpec = " mcts:iterations=2000, c=1.4".parse().unwrap();
        assert_eq!(s.name(), "mcts");
        assert_eq!(s.to_string(), "mcts:iterations=2000,c=1.4");
        assert_eq!("random".parse::<AgentSpec>().unwrap().params(), &[]);
        for bad in [
            "",
            ":",
            "mcts:",
            "mcts:x",
            "mcts:x=",
            "mcts:=3",
            "a b",
            "mcts:x=1,x=2",
        ] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn unknown_agents_and_parameters_say_what_is_accepted() {
        let e = "wizard"
            .parse::<AgentSpec>()
            .unwrap()
            .checked_params()
            .unwrap_err();
        assert!(e.to_string().contains("random"), "{e}");
        let e = "random:depth=3"
            .parse::<AgentSpec>()
            .unwrap()
            .checked_params()
            .unwrap_err();
        assert!(e.to_string().contains("takes no parameters"), "{e}");
    }
}
