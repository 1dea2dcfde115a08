//! The greedy agent: the action whose resulting state evaluates best for the mover.
//!
//! For each legal action it applies the action to a copy of the state and reads the
//! mover's entry of [`Evaluate::evaluate`] on the result — whatever node comes next (the
//! opponent's throw, the mover's own extra throw, or the end, where the evaluation is
//! exactly the final score). Equal best values are broken uniformly at random by the
//! agent's seeded generator, so the same seed gives the same choices.
//!
//! * **Parameters:** `eval` (`greedy:eval=hand`): the evaluation, `learned` (Issiren's
//!   default), `hand` or a weights file (see [`crate::eval::EVAL_PARAM`]).
//! * **Cost:** one copy, one action application and one evaluation per legal action (at
//!   most a dozen), no allocation: microseconds per decision.
//! * **When to use it:** as a fast baseline that knows the game a little (it captures when
//!   it can and keeps pieces out of reach by the evaluation's lights), as the ε-greedy
//!   playout policy of MCTS, and as a sanity check: it should beat `random`.
//!   It looks no further than its own action; use `expectimax` to look ahead.
//!
//! ```
//! use stickdice::{Agent, Game, Issiren, Node, Throw};
//! use stickdice_agents::GreedyAgent;
//!
//! let game = Issiren::with_seats(2).unwrap();
//! let mut state = game.initial_state();
//! game.apply_throw(&mut state, Throw::new(4)).unwrap(); // four green sides: release a piece
//! let mut greedy = GreedyAgent::new(7);
//! let action = greedy.choose(&game, &state).unwrap();
//! assert!(game.check_action(&state, action).is_ok());
//! ```

use rand::SeedableRng;
use stickdice::{decision_actions, ActionList, Agent, AgentError, Game};

use crate::best::BestRated;
use crate::eval::{Evaluate, Evaluator};
use crate::params::{AgentInfo, Params, SpecError};

/// The greedy agent's spec entry.
pub const INFO: AgentInfo = AgentInfo {
    name: "greedy",
    summary:
        "the action whose resulting state evaluates best for the mover (one ply, ties at random)",
    params: &[crate::eval::EVAL_PARAM],
};

/// Picks the action whose resulting state has the best evaluation for the mover; ties are
/// broken uniformly by its seeded generator. See the [module docs](self).
#[derive(Debug)]
pub struct GreedyAgent<G: Game> {
    rng: stickdice::Rng,
    evaluator: Evaluator<G>,
    /// The `eval` parameter as given, for [`Agent::name`].
    eval_source: Option<String>,
}

impl<G: Game> Clone for GreedyAgent<G> {
    fn clone(&self) -> Self {
        GreedyAgent {
            rng: self.rng.clone(),
            evaluator: self.evaluator,
            eval_source: self.eval_source.clone(),
        }
    }
}

impl<G: Evaluate> GreedyAgent<G> {
    /// A greedy agent with the game's default evaluation, seeded with `seed` (the seed
    /// only breaks ties).
    pub fn new(seed: u64) -> Self {
        GreedyAgent {
            rng: stickdice::Rng::seed_from_u64(seed),
            evaluator: Evaluator::default(),
            eval_source: None,
        }
    }

    /// From a checked spec.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] for an `eval` the game does not have.
    pub fn from_params(params: &Params<'_>, seed: u64) -> Result<Self, SpecError> {
        let (eval_source, evaluator) = crate::eval::eval_param::<G>(params)?;
        Ok(GreedyAgent {
            rng: stickdice::Rng::seed_from_u64(seed),
            evaluator,
            eval_source,
        })
    }
}

impl<G: Game> GreedyAgent<G> {
    /// The same agent with another evaluation (`source` names it in [`Agent::name`]).
    pub fn with_evaluator(mut self, source: &str, evaluator: Evaluator<G>) -> Self {
        self.evaluator = evaluator;
        self.eval_source = Some(source.to_string());
        self
    }

    /// Each legal action with the mover's evaluation of the state it leads to, in the
    /// order of [`stickdice::Game::legal_actions`] (for analysis and tests).
    ///
    /// # Errors
    /// [`AgentError::GameOver`] or [`AgentError::ThrowDue`] when `state` is not a decision.
    pub fn values(game: &G, state: &G::State) -> Result<Vec<(G::Action, f64)>, AgentError>
    where
        G: Evaluate,
    {
        let mut legal = ActionList::new();
        let seat = decision_actions(game, state, &mut legal)?;
        Ok(legal
            .iter()
            .map(|&a| {
                let mut s = *state;
                game.apply_action_unchecked(&mut s, a);
                (a, game.evaluate(&s)[seat])
            })
            .collect())
    }
}

impl<G: Evaluate> Agent<G> for GreedyAgent<G> {
    fn name(&self) -> String {
        match &self.eval_source {
            Some(source) => format!("greedy:eval={source}"),
            None => "greedy".to_string(),
        }
    }

    fn choose(&mut self, game: &G, state: &G::State) -> Result<G::Action, AgentError> {
        let mut legal = ActionList::new();
        let seat = decision_actions(game, state, &mut legal)?;
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        // Ties broken uniformly in the order of the legal actions.
        let mut best = BestRated::new(legal[0]);
        for &a in &legal {
            let mut s = *state;
            game.apply_action_unchecked(&mut s, a);
            best.offer(a, self.evaluator.evaluate(game, &s)[seat], &mut self.rng);
        }
        Ok(best.item())
    }
}
