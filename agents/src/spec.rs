//! Agent specs: agents named by strings such as `random`, `expectimax:depth=3` or
//! `mcts:iterations=2000,c=1.4`, for the command line, the arena and front ends.
//!
//! A spec is a name, optionally followed by `:` and comma-separated `key=value`
//! parameters. [`agents`] lists every agent with its parameters and their defaults;
//! [`build`] turns a spec into a boxed agent for a game. The kinds of agent are in a
//! registry ([`AgentKind`]): the built-in ones, and any a crate adds with [`register`].

use std::sync::{OnceLock, RwLock};

use stickdice::{Agent, AnyAgent, AnyGame};

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

/// A kind of agent that spec strings name: its [`AgentInfo`] (name, parameters with
/// defaults and help) and a constructor for every game of the list. The built-in agents
/// are kinds too; a crate that depends on `stickdice-agents` adds its own with
/// [`register`], and from then on spec strings naming it work wherever specs are read in
/// that process: [`build`], the tournament builder, the ladder, review, the protocol
/// server.
///
/// ```
/// use stickdice::{agent_for, with_game, ActionList, Agent, AnyAgent, AnyGame, Game, Issiren};
/// use stickdice_agents::{AgentKind, AgentInfo, Params, SpecError};
///
/// /// Always the first legal action.
/// struct First;
///
/// static FIRST: AgentInfo = AgentInfo {
///     name: "first",
///     summary: "the first legal action",
///     params: &[],
/// };
///
/// impl AgentKind for First {
///     fn info(&self) -> &'static AgentInfo {
///         &FIRST
///     }
///     fn build(&self, _: &Params<'_>, game: &AnyGame, _seed: u64) -> Result<AnyAgent, SpecError> {
///         Ok(with_game!(game, |g| {
///             let agent = agent_for(g, "first", |game, state| {
///                 let mut legal = ActionList::new();
///                 game.legal_actions(state, &mut legal);
///                 legal[0]
///             });
///             AnyAgent::from(Box::new(agent) as Box<dyn Agent<_>>)
///         }))
///     }
/// }
///
/// stickdice_agents::register(&First).unwrap();
/// let game = Issiren::with_seats(2).unwrap();
/// let agent = stickdice_agents::build_str("first", &game, 1).unwrap();
/// assert_eq!(agent.name(), "first");
/// assert!(stickdice_agents::agents().iter().any(|a| a.name == "first"));
/// ```
pub trait AgentKind: Send + Sync + 'static {
    /// The kind's name, summary and parameters.
    fn info(&self) -> &'static AgentInfo;

    /// The agent for `game` with the spec's checked parameters (see [`Params`]), its
    /// random number generator seeded from `seed`.
    ///
    /// # Errors
    /// A [`SpecError`] naming what is wrong (a value out of range, a game it cannot play).
    fn build(&self, params: &Params<'_>, game: &AnyGame, seed: u64) -> Result<AnyAgent, SpecError>;
}

/// A built-in kind of agent: the generic constructors of this crate.
struct Builtin(&'static AgentInfo);

impl AgentKind for Builtin {
    fn info(&self) -> &'static AgentInfo {
        self.0
    }

    fn build(&self, params: &Params<'_>, game: &AnyGame, seed: u64) -> Result<AnyAgent, SpecError> {
        stickdice::with_game!(game, |g| build_builtin(params, g, seed).map(AnyAgent::from))
    }
}

static RANDOM: Builtin = Builtin(&crate::random::INFO);
static GREEDY: Builtin = Builtin(&crate::greedy::INFO);
static EXPECTIMAX: Builtin = Builtin(&crate::expectimax::INFO);
static MCTS: Builtin = Builtin(&crate::mcts::INFO);
static ISMCTS: Builtin = Builtin(&crate::ismcts::INFO);
static PERFECT: Builtin = Builtin(&crate::perfect::INFO);

/// The registry: the built-in kinds first, then those registered, in order.
fn registry() -> &'static RwLock<Vec<&'static dyn AgentKind>> {
    static REGISTRY: OnceLock<RwLock<Vec<&'static dyn AgentKind>>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        RwLock::new(vec![
            &RANDOM,
            &GREEDY,
            &EXPECTIMAX,
            &MCTS,
            &ISMCTS,
            &PERFECT,
        ])
    })
}

fn kinds() -> Vec<&'static dyn AgentKind> {
    registry()
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

/// Adds a kind of agent to the registry of this process, so that spec strings naming it
/// work everywhere specs are read. Registering the same kind (the same name with the
/// same [`AgentInfo`]) again does nothing.
///
/// # Errors
/// [`SpecError::Duplicate`] when another kind already has the name.
pub fn register(kind: &'static dyn AgentKind) -> Result<(), SpecError> {
    let mut list = registry()
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let info = kind.info();
    if let Some(existing) = list.iter().find(|f| f.info().name == info.name) {
        if core::ptr::eq(existing.info(), info) {
            return Ok(());
        }
        return Err(SpecError::Duplicate { name: info.name });
    }
    list.push(kind);
    Ok(())
}

/// Every kind of agent, built-in and registered, with its parameters and defaults.
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
pub fn agents() -> Vec<&'static AgentInfo> {
    kinds().iter().map(|f| f.info()).collect()
}

/// The information of the agent named `name`.
pub fn info(name: &str) -> Option<&'static AgentInfo> {
    kind(name).map(|f| f.info())
}

fn kind(name: &str) -> Option<&'static dyn AgentKind> {
    kinds().into_iter().find(|f| f.info().name == name)
}

fn is_builtin(name: &str) -> bool {
    [&RANDOM, &GREEDY, &EXPECTIMAX, &MCTS, &ISMCTS, &PERFECT]
        .iter()
        .any(|b| b.0.name == name)
}

/// Builds the agent a spec names, for `game`, with its random number generator seeded
/// from `seed`. A built-in agent is built directly for `G` (static dispatch, any game); a
/// registered kind through [`AnyGame`] (the games of the list).
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
    let name = params.info().name;
    if is_builtin(name) {
        return build_builtin(&params, game, seed);
    }
    let kind = kind(name).ok_or_else(|| SpecError::UnknownAgent {
        name: name.to_string(),
        known: agents().iter().map(|a| a.name).collect(),
    })?;
    let any = game.to_any_game().ok_or_else(|| SpecError::Unsupported {
        agent: kind.info().name,
        why: format!(
            "{} is not one of the library's games, and registered agents are built for those",
            G::NAME
        ),
    })?;
    let agent = kind.build(&params, &any, seed)?;
    G::agent_of(agent).map_err(|other| SpecError::Unsupported {
        agent: kind.info().name,
        why: format!("it built {other:?}, not an agent of {}", G::NAME),
    })
}

/// The built-in agents, generic over the game.
fn build_builtin<G: Evaluate>(
    params: &Params<'_>,
    game: &G,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, SpecError> {
    match params.info().name {
        "random" => Ok(Box::new(crate::random::RandomAgent::from_params(
            params, seed,
        )?)),
        "greedy" => Ok(Box::new(crate::greedy::GreedyAgent::from_params(
            params, seed,
        )?)),
        "expectimax" => Ok(Box::new(crate::expectimax::Expectimax::<G>::from_params(
            params, seed,
        )?)),
        "mcts" => Ok(Box::new(crate::mcts::MctsAgent::<G>::from_params(
            params, seed,
        )?)),
        "ismcts" => Ok(Box::new(crate::ismcts::IsmctsAgent::<G>::from_params(
            params, seed,
        )?)),
        "perfect" => crate::perfect::build(params, game),
        other => unreachable!("agent {other} is built in but not built"),
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

    /// A second kind under a taken name is refused, naming the name; the same kind again
    /// is accepted and changes nothing.
    #[test]
    fn a_taken_name_is_refused_and_the_same_kind_again_accepted() {
        static OTHER: AgentInfo = AgentInfo {
            name: "random",
            summary: "another agent named random",
            params: &[],
        };
        static IMPOSTOR: Builtin = Builtin(&OTHER);
        let before = agents().len();
        let e = register(&IMPOSTOR).unwrap_err();
        assert_eq!(
            e.to_string(),
            "an agent named `random` is registered already"
        );
        assert!(register(&RANDOM).is_ok());
        assert_eq!(agents().len(), before);
        assert_eq!(info("random").unwrap().summary, crate::random::INFO.summary);
    }
}
