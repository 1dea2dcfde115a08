//! The arena: one game between agents built fresh from factories, with the sticks thrown
//! by the arena alone.
//!
//! * **Duplicate dice.** The throws come from [`SeededDice`]: the throw for seat `s` at its
//!   `t`-th throw depends only on `(game seed, s, t)`. Replaying a game seed with the
//!   seats rotated gives each seat the same throws whoever sits there.
//! * **Fresh, seeded agents.** Every game builds new agents; the agent in seat `s` is seeded
//!   with [`agent_seed`]`(game seed, s)`.
//! * **Failures lose.** An agent that panics (while being built, told of the new game,
//!   choosing or observing), returns an error, or answers with an illegal action loses the
//!   game: the game stops, that seat is ranked last alone and every other seat shares first
//!   place. The [`Failure`] says who and why. Panics are caught with
//!   [`std::panic::catch_unwind`]; the panic message still goes through the process's panic
//!   hook (by default printed to stderr), which can stay quiet when [`in_agent_call`].
//! * **Time.** The wall-clock time of each seat's `new_game` and `choose` calls is summed
//!   (the `observe_*` hooks are not timed: timing every hook would cost more than a random
//!   agent's whole decision).
//!
//! An agent that never returns is not caught: give agents budgets in iterations, not time,
//! for reproducible tournaments.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use stickdice::play::{Event, SeededDice};
use stickdice::{Agent, AgentError, Game, Node, Ranking, Seat};

/// Builds a fresh agent for a game from a seed. Factories are shared between threads.
pub type Factory<G> = Arc<dyn Fn(&G, u64) -> Box<dyn Agent<G>> + Send + Sync>;

/// A factory from a closure.
pub fn factory<G: Game>(
    f: impl Fn(&G, u64) -> Box<dyn Agent<G>> + Send + Sync + 'static,
) -> Factory<G> {
    Arc::new(f)
}

/// The path tag of agent seeds in [`stickdice::seed::derive`].
const AGENT_SEED: u64 = 0x0061_6765_6e74; // "agent"

/// The seed of the agent in `seat` in the game seeded `game_seed`.
pub fn agent_seed(game_seed: u64, seat: Seat) -> u64 {
    stickdice::seed::derive(game_seed, &[AGENT_SEED, seat as u64])
}

/// How an agent failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum FailureKind {
    /// It panicked.
    Panic,
    /// It chose an action that is not legal.
    IllegalAction,
    /// It returned an error.
    Error,
}

impl core::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            FailureKind::Panic => "panic",
            FailureKind::IllegalAction => "illegal action",
            FailureKind::Error => "error",
        })
    }
}

/// An agent's failure, which lost it the game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Failure {
    /// The seat whose agent failed.
    pub seat: Seat,
    /// How.
    pub kind: FailureKind,
    /// What happened, for people.
    pub message: String,
}

/// The ranking of a game lost by `seat`'s failure: that seat last, the others tied first.
pub fn forfeit_ranking(seats: usize, seat: Seat) -> Ranking {
    let keys: Vec<u32> = (0..seats).map(|s| u32::from(s == seat)).collect();
    Ranking::from_keys(&keys)
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult<G: Game> {
    /// Every throw and action, in order.
    pub events: Vec<Event<G::Action>>,
    /// The final ranking (a forfeit ranking if an agent failed).
    pub ranking: Ranking,
    /// The number of throws made.
    pub throws: u32,
    /// Time spent by each seat's agent.
    pub time: Vec<Duration>,
    /// The failure that ended the game, if any.
    pub failure: Option<Failure>,
    /// The state the game stopped in.
    pub last_state: G::State,
}

impl<G: Game> GameResult<G> {
    /// This game as a log's record, played from `game_seed` with `seating` (the entrant in
    /// each seat): game 0 of table 0, rotation 0, shift 0, which a tournament's record
    /// sets to its schedule's slot.
    pub fn record(&self, game_seed: u64, seating: Vec<usize>) -> crate::log::GameRecord {
        use crate::log::LoggedEvent;
        crate::log::GameRecord {
            index: 0,
            table: 0,
            rotation: 0,
            shift: 0,
            game_seed,
            agent_seeds: (0..seating.len())
                .map(|s| agent_seed(game_seed, s))
                .collect(),
            seating,
            events: self
                .events
                .iter()
                .map(|e| match e {
                    Event::Throw(_, t) => LoggedEvent::Throw(t.marked()),
                    Event::Action(_, a) => LoggedEvent::Action(a.to_string()),
                })
                .collect(),
            places: self.ranking.places().to_vec(),
            scores: (0..self.ranking.seats())
                .map(|s| self.ranking.score(s))
                .collect(),
            throws: self.throws,
            time_s: self.time.iter().map(|d| d.as_secs_f64()).collect(),
            failure: self.failure.clone(),
        }
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

thread_local! {
    static IN_AGENT: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Whether this thread is inside a call to an agent (or its factory) made by the arena,
/// where a panic is caught and recorded as the agent's failure. A program's panic hook
/// can use it to stay quiet about those panics.
pub fn in_agent_call() -> bool {
    IN_AGENT.with(|c| c.get())
}

/// Runs `f`, turning a panic into a [`Failure`] of `seat` that names `during`.
fn guarded<T>(seat: Seat, during: &str, f: impl FnOnce() -> T) -> Result<T, Failure> {
    IN_AGENT.with(|c| c.set(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    IN_AGENT.with(|c| c.set(false));
    r.map_err(|p| Failure {
        seat,
        kind: FailureKind::Panic,
        message: format!("panicked {during}: {}", panic_message(&*p)),
    })
}

/// Plays one game from the initial state. `seating[s]` builds the agent of seat `s`; the
/// sticks come from [`SeededDice`]`::new(game_seed)`.
///
/// ```
/// use stickdice::{Agent, Game, Issiren};
/// use stickdice_agents::RandomAgent;
/// use stickdice_evaluation::{arena, factory};
///
/// let game = Issiren::with_seats(2).unwrap();
/// let random = factory(|_: &Issiren, seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<Issiren>>);
/// let greedy = factory(|g: &Issiren, seed| stickdice_agents::build_str("greedy", g, seed).unwrap());
/// let a = arena::play(&game, &[&random, &greedy], 11);
/// // Seats swapped on the same seed: each seat meets the same throws (duplicate dice).
/// let b = arena::play(&game, &[&greedy, &random], 11);
/// assert!(a.failure.is_none() && b.failure.is_none());
/// println!("{} in {} throws; swapped: {}", a.ranking, a.throws, b.ranking);
/// ```
///
/// # Panics
/// If `seating` does not have one factory per seat.
pub fn play<G: Game>(game: &G, seating: &[&Factory<G>], game_seed: u64) -> GameResult<G> {
    let seats = game.seats();
    assert_eq!(seating.len(), seats, "one agent factory per seat");
    let mut state = game.initial_state();
    let mut events = Vec::new();
    let mut time = vec![Duration::ZERO; seats];
    let failure = run(game, seating, game_seed, &mut state, &mut events, &mut time).err();
    let ranking = match &failure {
        Some(f) => forfeit_ranking(seats, f.seat),
        None => game
            .ranking(&state)
            .expect("the game loop stops only at the end or on a failure"),
    };
    GameResult {
        events,
        ranking,
        throws: game.throws_made(&state),
        time,
        failure,
        last_state: state,
    }
}

fn run<G: Game>(
    game: &G,
    seating: &[&Factory<G>],
    game_seed: u64,
    state: &mut G::State,
    events: &mut Vec<Event<G::Action>>,
    time: &mut [Duration],
) -> Result<(), Failure> {
    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::with_capacity(seating.len());
    for (seat, make) in seating.iter().enumerate() {
        let start = Instant::now();
        agents.push(guarded(seat, "while being built", || {
            make(game, agent_seed(game_seed, seat))
        })?);
        time[seat] += start.elapsed();
    }
    for (seat, agent) in agents.iter_mut().enumerate() {
        let start = Instant::now();
        guarded(seat, "at the start of the game", || {
            agent.new_game(game, seat)
        })?;
        time[seat] += start.elapsed();
    }
    let mut dice = SeededDice::new(game_seed);
    let sticks = game.sticks();
    loop {
        match game.node(state) {
            Node::Throw(seat) => {
                let t = dice.throw(seat, sticks);
                let before = *state;
                game.apply_throw_unchecked(state, t);
                events.push(Event::Throw(seat, t));
                for (s, agent) in agents.iter_mut().enumerate() {
                    guarded(s, "observing a throw", || {
                        agent.observe_throw(game, &before, t)
                    })?;
                }
            }
            Node::Decide(seat) => {
                let start = Instant::now();
                let chosen = guarded(seat, "choosing an action", || {
                    agents[seat].choose(game, state)
                })?;
                time[seat] += start.elapsed();
                let a = chosen.map_err(|e: AgentError| Failure {
                    seat,
                    kind: FailureKind::Error,
                    message: e.to_string(),
                })?;
                game.check_action(state, a).map_err(|e| Failure {
                    seat,
                    kind: FailureKind::IllegalAction,
                    message: e.to_string(),
                })?;
                let before = *state;
                game.apply_action_unchecked(state, a);
                events.push(Event::Action(seat, a));
                for (s, agent) in agents.iter_mut().enumerate() {
                    guarded(s, "observing an action", || {
                        agent.observe_action(game, &before, a)
                    })?;
                }
            }
            Node::End => return Ok(()),
        }
    }
}
