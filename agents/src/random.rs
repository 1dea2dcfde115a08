//! The random agent: uniform among the legal actions.

use rand::{RngExt as _, SeedableRng};
use stickdice::{decision_actions, ActionList, Agent, AgentError, Game};

use crate::params::{AgentInfo, Params, SpecError};

/// The random agent's spec entry.
pub const INFO: AgentInfo = AgentInfo {
    name: "random",
    summary: "uniform among the legal actions; the baseline every agent should beat",
    params: &[],
};

/// Chooses uniformly among the legal actions with its own seeded generator.
///
/// Cost: one legal-action listing per decision. Use it as a baseline and for playouts.
///
/// ```
/// use stickdice::{Agent, Game, SigElOued, SeedableRng};
/// use stickdice::play::{play_game, SeededDice};
/// use stickdice_agents::RandomAgent;
/// let game = SigElOued::with_seats(3).unwrap();
/// let mut agents: Vec<Box<dyn Agent<SigElOued>>> =
///     (0..3).map(|seat| Box::new(RandomAgent::new(seat)) as Box<dyn Agent<SigElOued>>).collect();
/// let mut dice = SeededDice::new(1);
/// let mut state = game.initial_state();
/// let ranking = play_game(&game, &mut state, &mut agents, |s, _| dice.throw(s, game.sticks()), |_, _, _| {})
///     .unwrap();
/// assert_eq!(ranking.seats(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: stickdice::Rng,
}

impl RandomAgent {
    /// A random agent seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: stickdice::Rng::seed_from_u64(seed),
        }
    }

    /// From a checked spec.
    ///
    /// # Errors
    /// None today (the agent takes no parameters); kept fallible like every agent's.
    pub fn from_params(_params: &Params<'_>, seed: u64) -> Result<Self, SpecError> {
        Ok(Self::new(seed))
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, game: &G, state: &G::State) -> Result<G::Action, AgentError> {
        let mut legal = ActionList::new();
        decision_actions(game, state, &mut legal)?;
        Ok(if legal.len() == 1 {
            legal[0]
        } else {
            legal[self.rng.random_range(0..legal.len())]
        })
    }
}
