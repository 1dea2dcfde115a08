//! The agent interface: anything that chooses an action for the seat to move.
//!
//! [`Agent`] is object-safe, so an arena or a front end holds `Box<dyn Agent<G>>` without
//! knowing concrete agents. Agents own their seeded random number generator; the arena
//! alone throws the sticks and tells agents what happened through the `observe_*` hooks.
//! A closure becomes an agent with [`agent_fn`].

use core::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::game::{ActionList, Game, Node, Seat};
use crate::Throw;

/// Why an agent gave no action.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentError {
    /// The game is over: there is nothing to choose.
    GameOver,
    /// A throw is due, not a decision.
    ThrowDue {
        /// The seat that must throw.
        seat: Seat,
    },
    /// The agent cannot play this game or position (for example a solver for a seat
    /// count it cannot solve).
    Unsupported(String),
    /// The search was stopped (see [`Stop`]) before it had any action to give.
    Stopped,
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::GameOver => write!(f, "the game is over: there is no action to choose"),
            AgentError::ThrowDue { seat } => write!(
                f,
                "a throw by P{} is due, not a decision: throw the sticks first",
                seat + 1
            ),
            AgentError::Unsupported(why) => write!(f, "{why}"),
            AgentError::Stopped => write!(f, "the search was stopped before it chose an action"),
        }
    }
}

impl std::error::Error for AgentError {}

/// What a searching agent found about one legal action at its last decision (see
/// [`Agent::analysis`]), for front ends and analysis tools.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionValue<A> {
    /// The action.
    pub action: A,
    /// The agent's estimate of the deciding seat's final score after this action, on the
    /// scale of [`crate::Ranking::score`] (0 to 1).
    pub value: f64,
    /// How often the search visited the action (simulations for MCTS), for agents that
    /// count visits.
    pub visits: Option<u64>,
}

/// A request to stop a running search early: a flag shared by the agent and whoever may
/// stop it (a front end's `cancel`), and an optional deadline (a time limit). Clones share
/// the flag.
///
/// Searching agents look at it every few iterations or nodes (an atomic load, and the clock
/// when there is a deadline) and, once it is stopped, return the best action found so far
/// or [`AgentError::Stopped`]; an action from a stopped search depends on timing.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
}

impl Stop {
    /// A stop that nobody has asked for yet, without a deadline.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// The same flag, also stopping at `deadline`.
    pub fn with_deadline(&self, deadline: Instant) -> Stop {
        Stop {
            flag: Arc::clone(&self.flag),
            deadline: Some(deadline),
        }
    }

    /// Asks every holder of the flag to stop.
    pub fn stop(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether [`Stop::stop`] was called (the deadline aside).
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Whether the deadline has passed (the flag aside).
    pub fn is_past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the search must stop: the flag is set or the deadline has passed.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.is_cancelled() || self.is_past_deadline()
    }
}

/// Something that chooses actions.
pub trait Agent<G: Game>: Send {
    /// A short name for reports (usually the spec it was built from).
    fn name(&self) -> String;

    /// The action for the seat to decide in `state`.
    ///
    /// # Errors
    /// [`AgentError::GameOver`] or [`AgentError::ThrowDue`] when `state` is not a decision
    /// node; an agent may also refuse a game it cannot play.
    fn choose(&mut self, game: &G, state: &G::State) -> Result<G::Action, AgentError>;

    /// A new game starts, with this agent in `seat`.
    fn new_game(&mut self, _game: &G, _seat: Seat) {}

    /// `throw` was thrown in `before` (any seat's throw).
    fn observe_throw(&mut self, _game: &G, _before: &G::State, _throw: crate::Throw) {}

    /// `action` was chosen in `before` (any seat's action, this agent's own included).
    fn observe_action(&mut self, _game: &G, _before: &G::State, _action: G::Action) {}

    /// The agent's analysis of its last [`Agent::choose`]: a value (and visit count) per
    /// legal action it evaluated. `None` for agents that do not analyse (the default) and
    /// before the first decision. Called only on request, so it may allocate.
    fn analysis(&self) -> Option<Vec<ActionValue<G::Action>>> {
        None
    }

    /// Hands the agent a [`Stop`] to look at during its searches from now on. Agents whose
    /// choices are quick ignore it (the default); searching agents (MCTS, ISMCTS,
    /// expectimax) stop soon after it is stopped.
    fn set_stop(&mut self, _stop: Stop) {}
}

impl<G: Game> Agent<G> for Box<dyn Agent<G>> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn choose(&mut self, game: &G, state: &G::State) -> Result<G::Action, AgentError> {
        (**self).choose(game, state)
    }
    fn new_game(&mut self, game: &G, seat: Seat) {
        (**self).new_game(game, seat)
    }
    fn observe_throw(&mut self, game: &G, before: &G::State, throw: Throw) {
        (**self).observe_throw(game, before, throw)
    }
    fn observe_action(&mut self, game: &G, before: &G::State, action: G::Action) {
        (**self).observe_action(game, before, action)
    }
    fn analysis(&self) -> Option<Vec<ActionValue<G::Action>>> {
        (**self).analysis()
    }
    fn set_stop(&mut self, stop: Stop) {
        (**self).set_stop(stop)
    }
}

/// The checks every agent makes first: the state must be a decision node. Returns the
/// legal actions (so an agent can answer at once when there is only one).
///
/// # Errors
/// [`AgentError::GameOver`] or [`AgentError::ThrowDue`].
pub fn decision_actions<G: Game>(
    game: &G,
    state: &G::State,
    out: &mut ActionList<G::Action>,
) -> Result<Seat, AgentError> {
    match game.node(state) {
        Node::End => Err(AgentError::GameOver),
        Node::Throw(seat) => Err(AgentError::ThrowDue { seat }),
        Node::Decide(seat) => {
            game.legal_actions(state, out);
            Ok(seat)
        }
    }
}

/// An agent made from a closure `|game, state| action`. The closure is only called at
/// decision nodes.
pub struct FnAgent<F> {
    name: String,
    f: F,
}

impl<F> fmt::Debug for FnAgent<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FnAgent").field("name", &self.name).finish()
    }
}

/// Makes an agent from a closure, for front ends and tests.
///
/// ```
/// use stickdice::{agent_fn, Agent, Game, Issiren, ActionList};
/// let game = Issiren::with_seats(2).unwrap();
/// // Always the first legal action.
/// let mut first = agent_fn("first", |g: &Issiren, s: &<Issiren as Game>::State| {
///     let mut list = ActionList::new();
///     g.legal_actions(s, &mut list);
///     list[0]
/// });
/// # let _ = &mut first;
/// ```
pub fn agent_fn<G, F>(name: impl Into<String>, f: F) -> FnAgent<F>
where
    G: Game,
    F: FnMut(&G, &G::State) -> G::Action + Send,
{
    FnAgent {
        name: name.into(),
        f,
    }
}

/// Makes an agent from a closure for `game`'s type, so the closure's argument types are
/// inferred: [`agent_fn`] with the game named by a value instead of annotations.
///
/// ```
/// use stickdice::{agent_for, Agent, Game, Issiren, ActionList};
/// let game = Issiren::with_seats(2).unwrap();
/// // Always the last legal action.
/// let mut last = agent_for(&game, "last", |g, s| {
///     let mut list = ActionList::new();
///     g.legal_actions(s, &mut list);
///     *list.last().unwrap()
/// });
/// let mut state = game.initial_state();
/// game.apply_throw(&mut state, "4".parse().unwrap()).unwrap();
/// let action = last.choose(&game, &state).unwrap();
/// assert!(game.check_action(&state, action).is_ok());
/// ```
pub fn agent_for<G, F>(game: &G, name: impl Into<String>, f: F) -> FnAgent<F>
where
    G: Game,
    F: FnMut(&G, &G::State) -> G::Action + Send,
{
    let _ = game;
    agent_fn(name, f)
}

impl<G, F> Agent<G> for FnAgent<F>
where
    G: Game,
    F: FnMut(&G, &G::State) -> G::Action + Send,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &G, state: &G::State) -> Result<G::Action, AgentError> {
        let mut legal = ActionList::new();
        decision_actions(game, state, &mut legal)?;
        Ok((self.f)(game, state))
    }
}
