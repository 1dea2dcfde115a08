//! The perfect agent: plays the exactly solved policy of the race games.
//!
//! At its first use for a game configuration the game is solved ([`crate::solve::solved`],
//! once per process and shared by every perfect agent of that configuration); every
//! decision is then a table lookup. In Sig (El Oued) the one decision, the leftover choice
//! at Mecca, is answered with the action that maximises the agent's own chance of ranking
//! first. Sig wa Duqqan and Sig wa Duqqan (Houmt Taourit) have no decisions, so the agent is
//! never asked. Games or seat counts
//! the solver does not handle (Issiren, large tables) are refused with an error that says
//! so when the agent is built.
//!
//! A position that is not reachable from the game's initial state (one loaded from a file,
//! say) is solved on its own the first time it is met.

use std::any::Any;
use std::sync::Arc;

use stickdice::{decision_actions, ActionList, Agent, AgentError, Game};

use crate::params::{AgentInfo, Params, SpecError};
use crate::solve::{self, Exact, Solution};

/// The perfect agent's spec entry.
pub const INFO: AgentInfo = AgentInfo {
    name: "perfect",
    summary: "plays the exactly solved policy (sig-wa-duqqan up to 3 players, sig-wa-duqqan-houmt-taourit \
              and sig-el-oued for 2); solves the game once per process",
    params: &[],
};

/// Plays the solved policy.
///
/// ```
/// use stickdice::{Agent, Game, SigElOued};
/// use stickdice_agents::PerfectAgent;
/// let game = SigElOued::with_seats(2).unwrap(); // solved once per process
/// let agent = PerfectAgent::new(&game).unwrap();
/// assert_eq!(Agent::<SigElOued>::name(&agent), "perfect");
/// assert!(PerfectAgent::new(&SigElOued::with_seats(3).unwrap()).is_err()); // too large
/// ```
pub struct PerfectAgent<G: Exact> {
    solution: Arc<Solution<G>>,
    /// The solution of the last position met that the main solution does not hold.
    local: Option<Solution<G>>,
}

impl<G: Exact> core::fmt::Debug for PerfectAgent<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PerfectAgent")
            .field("states", &self.solution.stats().states)
            .finish()
    }
}

impl<G: Exact> PerfectAgent<G> {
    /// The perfect agent for `game`, solving it if this process has not yet.
    ///
    /// # Errors
    /// [`SpecError::Unsupported`] when the game or seat count cannot be solved.
    pub fn new(game: &G) -> Result<Self, SpecError> {
        let solution = solve::solved(game).map_err(|e| SpecError::Unsupported {
            agent: INFO.name,
            why: e.to_string(),
        })?;
        Ok(PerfectAgent {
            solution,
            local: None,
        })
    }

    /// From a checked spec.
    ///
    /// # Errors
    /// As [`PerfectAgent::new`].
    pub fn from_params(_params: &Params<'_>, game: &G) -> Result<Self, SpecError> {
        Self::new(game)
    }

    /// The solution the agent plays.
    pub fn solution(&self) -> &Arc<Solution<G>> {
        &self.solution
    }
}

impl<G: Exact> Agent<G> for PerfectAgent<G> {
    fn name(&self) -> String {
        INFO.name.to_string()
    }

    fn choose(&mut self, game: &G, state: &G::State) -> Result<G::Action, AgentError> {
        let mut legal = ActionList::new();
        decision_actions(game, state, &mut legal)?;
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        if let Some(a) = self.solution.best_action(state) {
            return Ok(a);
        }
        if let Some(a) = self.local.as_ref().and_then(|s| s.best_action(state)) {
            return Ok(a);
        }
        let local = solve::solve_from(game, state)
            .map_err(|e| AgentError::Unsupported(format!("perfect: {e}")))?;
        let a = local.best_action(state).ok_or_else(|| {
            AgentError::Unsupported("perfect: the position could not be solved".to_string())
        })?;
        self.local = Some(local);
        Ok(a)
    }
}

/// Builds the perfect agent for any game type: the game is matched at run time against the
/// games the solver knows ([`Exact`]), so [`crate::spec::build`] needs no extra bound.
///
/// # Errors
/// [`SpecError::Unsupported`] when the game or seat count cannot be solved.
pub fn build<G: Game>(params: &Params<'_>, game: &G) -> Result<Box<dyn Agent<G>>, SpecError> {
    fn as_game<E: Exact, G: Game>(
        params: &Params<'_>,
        game: &G,
    ) -> Option<Result<Box<dyn Agent<G>>, SpecError>> {
        let exact = (game as &dyn Any).downcast_ref::<E>()?;
        Some(PerfectAgent::from_params(params, exact).map(|agent| {
            let boxed: Box<dyn Agent<E>> = Box::new(agent);
            *(Box::new(boxed) as Box<dyn Any>)
                .downcast::<Box<dyn Agent<G>>>()
                .expect("E and G are the same type")
        }))
    }
    /// Tries every game of the list ([`stickdice::for_each_game!`]); a game the solver
    /// does not handle is refused by its [`Exact::solver_support`].
    macro_rules! try_games {
        ([] $($variant:ident : $ty:path,)*) => {
            None$(.or_else(|| as_game::<$ty, G>(params, game)))*
        };
    }
    stickdice::for_each_game!(try_games).unwrap_or_else(|| {
        Err(SpecError::Unsupported {
            agent: INFO.name,
            why: format!("the exact solver does not know the game {}", G::NAME),
        })
    })
}
