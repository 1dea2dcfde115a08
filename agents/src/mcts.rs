//! Monte Carlo tree search (UCT) with explicit chance nodes, a reward per seat, playouts
//! cut short and scored by the evaluation, a prior from the evaluation, subtree reuse and
//! optional root-parallel search.
//!
//! # What it does
//!
//! Each *iteration* walks down a search tree from the current state, adds one level to it,
//! plays on from there with a cheap *playout policy* for at most `cutoff` throws, and backs
//! the resulting rewards up the path it took. The tree holds three kinds of node, as the
//! game does:
//!
//! * at a **decision** node the seat to move picks the child with the highest UCB1 value
//!   `mean + c·√(ln N / n)`, where `mean` is that seat's own average reward through the
//!   child — every seat maximises its own score (max^n), so the agent plays any number
//!   of seats. With a `prior` of `k`, each child also counts `k` virtual visits at its
//!   prior — the mover's [`Evaluate::evaluate`] of the state the action leads to, the
//!   greedy agent's view — so `mean = (sum + k·prior) / (n + k)` and `n + k` replaces `n`
//!   in the exploration term; the search starts from the greedy move and leaves it only
//!   when the playouts say so. With no prior, children not yet tried are tried first, in a
//!   random order;
//! * at a **throw** (chance) node the throw is sampled with its exact probability (one
//!   uniformly random bit per stick) and the walk follows the child for that throw; all
//!   throws are children, so the tree's statistics average over the dice correctly;
//! * at the **end** the reward vector is [`Game::scores`].
//!
//! A new node's first visit is scored by a playout from it: ε-greedy or uniformly random
//! moves and sampled throws until the game ends — the reward is then the final scores — or
//! until it has made `cutoff` throws, when it stops before the next throw and the reward is
//! [`Evaluate::evaluate`] of that state (an estimate of every seat's score on the same
//! `[0, 1]` scale). A playout that starts at a decision finishes it before its first
//! throw. Visit counts and means are real ones: the prior's virtual visits take part in
//! the selection only. After the budget, the action chosen is the root child with the
//! **most visits** (ties: the higher mean, then the order of the legal actions).
//!
//! # Parameters (`mcts:key=value,…`)
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `iterations` | 10 000 if `millis` is not given | iterations per search (per tree) |
//! | `millis` | – | wall-clock budget per search; with `iterations` too, whichever ends first |
//! | `c` | 0.2 | UCB1 exploration constant (rewards are scores and evaluations in `[0, 1]`) |
//! | `playout` | `greedy` | `greedy`: the [`Evaluate`] greedy move with probability 1 − ε, else a random one; or `random` |
//! | `epsilon` | 0.1 | ε of greedy playouts (ignored by random playouts) |
//! | `cutoff` | 4 | throws a playout makes before it stops and is scored by [`Evaluate::evaluate`]; 0 plays to the end |
//! | `prior` | 10 | virtual visits at the evaluation for each new action; 0: none |
//! | `threads` | 1 | root parallelism: this many independent trees, searched in parallel (rayon), merged by visit counts |
//! | `reuse` | `true` | keep the subtree under the actual throws and actions for the next decision |
//! | `tablebase` | – | Issiren only: `build` or a file; a position below the root with at most two pieces a side is a leaf scored with its exact values from the endgame tablebase ([`crate::solve::tablebase`]) instead of a playout |
//!
//! Plain UCT — random playouts to the end, no prior, `c` = 1.4 — is
//! `mcts:playout=random,cutoff=0,prior=0,c=1.4` ([`MctsConfig::without_evaluation`]); it
//! is the only setting for a game without an [`Evaluate`] implementation
//! ([`MctsAgent::with_random_playouts`]). `c` must suit the rewards: with playouts to the
//! end a reward is a win or a loss and `c` ≈ 1.4 is right; a cut playout's evaluation
//! varies far less, and the default 0.2 is measured for it. (A small `c` with playouts to
//! the end lets one lucky early playout decide: it plays about as badly as random.)
//!
//! # Strength, and how the defaults were chosen
//!
//! Issiren games last about 150 throws, and most moves change the outcome by a few
//! percent, far less than the noise of a random game played to the end: plain UCT at 1000
//! iterations scored 0.23 against the one-ply greedy agent. Scoring the position with the
//! evaluation after a few throws removes most of that noise, greedy playouts keep those
//! throws realistic, and the prior starts each search from the greedy move. Measured with
//! `stickdice tournament --agents greedy,SPEC --games N` (release build, seed 1, Issiren,
//! two seats; score of SPEC, ±95%):
//!
//! | SPEC | N | score vs greedy |
//! |---|---|---|
//! | `mcts:iterations=1000,playout=random,cutoff=0,prior=0,c=1.4` (the old defaults) | 400 | 0.23 ± 0.04 |
//! | `mcts:iterations=3000,playout=random,cutoff=0,prior=0,c=1.4` | 400 | 0.31 ± 0.04 |
//! | `mcts:iterations=1000,cutoff=0,prior=0` (greedy playouts to the end, `c` = 0.2) | 400 | 0.32 ± 0.04 |
//! | `mcts:iterations=1000,playout=random` (random playouts cut after 4 throws, prior) | 400 | 0.54 ± 0.04 |
//! | `mcts:iterations=1000,prior=0` | 400 | 0.61 ± 0.04 |
//! | `mcts:iterations=300` | 400 | 0.58 ± 0.04 |
//! | `mcts:iterations=1000` | 400 | 0.65 ± 0.04 |
//! | `mcts:iterations=3000` | 400 | 0.68 ± 0.04 |
//! | `mcts` (10 000 iterations) | 200 | 0.71 ± 0.06 |
//! | `expectimax:nodes=20000`, for comparison | 400 | 0.61 ± 0.04 |
//!
//! In a sweep at 1000 iterations (200 to 1000 games each) cutoffs of 1 to 16 throws with
//! greedy playouts all scored 0.56–0.65 against greedy, with 4 and 8 the best and 4 half
//! the cost; `c` from 0.1 to 0.5 and `prior` from 5 to 30 were within the noise of each
//! other, and ε = 0.1 did as well as 0 and better than 0.3. The prior added about 0.04
//! (0.61 to 0.65 at 1000 iterations). Against `expectimax:nodes=20000` (same command,
//! `--agents expectimax:nodes=20000,SPEC`): `mcts:iterations=300` 0.45 ± 0.04,
//! `mcts:iterations=1000` 0.51 ± 0.04, `mcts:iterations=3000` 0.49 ± 0.04 (400 games
//! each), `mcts` 0.56 ± 0.06 (200 games), and the old defaults at 1000 iterations
//! 0.14 ± 0.03. Over 1000 games each with `--seed 2` and `--seed 3`,
//! `mcts:iterations=1000` scored 0.62 ± 0.03 and 0.63 ± 0.03 against greedy (0.65 at seed
//! 1 is on the lucky side). A release-only test (`tests/mcts_strength.rs`) checks that
//! `mcts:iterations=1000` beats greedy over 800 seat-swapped games.
//!
//! # Reproducibility
//!
//! The agent owns one [`stickdice::Rng`] per tree, tree `i` seeded with
//! [`stickdice::seed::derive`]`(seed, &[i])`. With
//! an `iterations` budget the choices depend only on the seed, the thread count and the
//! games played — never on timing or thread scheduling: trees never share state, and the
//! merge adds their root statistics in tree order. A `millis` budget is the documented
//! exception: how many iterations fit depends on the machine.
//!
//! # When to use it, and what it costs
//!
//! The strongest general agent here for games with real decisions (Issiren, the leftover
//! choice in Sig (El Oued)), and it gets better with more iterations. Each iteration costs
//! one walk down the tree, one evaluation per action of a decision it expands (with a
//! prior), and one playout. With the defaults a playout is at most four throws, each
//! decision in it one evaluation per legal action: one core runs about 650,000 iterations
//! per second from an Issiren middle-game position (1,000,000 from the opening, 2,300,000
//! in the endgame), 30–60 ms of search per game at 1000 iterations a decision. Plain UCT's
//! playouts run to the end of the game, so its cost is dominated by game length: a random
//! Issiren game from the start lasts a couple of hundred throws, and one core runs about
//! 93,000 iterations per second from the opening, 255,000 in the middle game and 750,000
//! in the endgame; greedy playouts to the end, 96,000 in the middle game (all measured by
//! the `mcts` bench, 2000 iterations a search, on a shared machine). Memory: the tree grows by at most one decision's or
//! one throw's children per iteration (a node is 24 bytes for Issiren) and stops growing
//! at [`MAX_TREE_NODES`] nodes (shared among the trees), after which iterations still run
//! from the leaves. The storage is kept between searches (no allocation per iteration
//! once it has grown).
//!
//! With `reuse=true` the agent follows the game through [`Agent::observe_throw`] and
//! [`Agent::observe_action`]: when its next decision comes, the part of the old tree under
//! the throws and actions that actually happened becomes the new root, with its
//! statistics. If it missed an event (it is not told of every one), it starts afresh.
//!
//! # Example
//!
//! ```
//! use stickdice::{Agent, Game, Issiren, Throw};
//! use stickdice_agents::mcts::{MctsAgent, MctsConfig};
//! use stickdice_agents::AgentSpec;
//!
//! let game = Issiren::with_seats(2).unwrap();
//! let mut state = game.initial_state();
//! // Four green sides (a 1, throw again) twice: the first time only the front piece can
//! // step off, the second time there is a choice.
//! let mut legal = stickdice::ActionList::new();
//! game.apply_throw(&mut state, Throw::new(4)).unwrap();
//! game.legal_actions(&state, &mut legal);
//! game.apply_action(&mut state, legal[0]).unwrap();
//! game.apply_throw(&mut state, Throw::new(4)).unwrap();
//! game.legal_actions(&state, &mut legal);
//! assert!(legal.len() > 1);
//!
//! // From a spec string, as the command line and the arena do (the defaults: greedy
//! // playouts cut after 4 throws, c = 0.2, a prior of 10 visits).
//! let spec: AgentSpec = "mcts:iterations=300".parse().unwrap();
//! let config = MctsConfig::from_params(&spec.checked_params().unwrap()).unwrap();
//! assert_eq!(config.iterations, Some(300));
//! assert_eq!(config.cutoff, 4);
//! let mut agent = MctsAgent::new(config, 7).unwrap();
//! let action = agent.choose(&game, &state).unwrap();
//! game.check_action(&state, action).unwrap();
//!
//! // The analysis behind the choice, for a front end: visits and mean score per action.
//! let analysis = agent.last_analysis();
//! assert_eq!(analysis.iterations, 300);
//! assert_eq!(analysis.best().unwrap().action, action);
//! for a in &analysis.actions {
//!     println!("{}: {} visits, mean score {:.3}", a.action, a.visits, a.mean);
//! }
//!
//! // Or as a boxed agent straight from the registry; here plain UCT (random playouts to
//! // the end, no prior), which needs no evaluation.
//! let mut boxed = stickdice_agents::build_str(
//!     "mcts:iterations=200,playout=random,cutoff=0,prior=0,c=1.4",
//!     &game,
//!     7,
//! )
//! .unwrap();
//! game.check_action(&state, boxed.choose(&game, &state).unwrap()).unwrap();
//!
//! // For a game without an evaluation: `with_random_playouts` and plain UCT.
//! let plain = MctsConfig { iterations: Some(200), ..MctsConfig::without_evaluation() };
//! let mut agent = MctsAgent::<Issiren>::with_random_playouts(plain, 7).unwrap();
//! game.check_action(&state, agent.choose(&game, &state).unwrap()).unwrap();
//! ```

use core::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{RngExt as _, SeedableRng};
use rayon::prelude::*;
use stickdice::{
    decision_actions, ActionList, Agent, AgentError, Game, Node as GameNode, Seat, SeatValues,
    Throw,
};

use crate::eval::Evaluate;
use crate::params::{AgentInfo, ParamInfo, Params, SpecError};
use crate::solve::ExactValues;

/// The MCTS agent's spec entry.
pub const INFO: AgentInfo = AgentInfo {
    name: "mcts",
    summary: "UCT Monte Carlo tree search with chance nodes, per-seat rewards, greedy playouts cut short and scored by the evaluation, an evaluation prior, subtree reuse and root parallelism",
    params: &[
        ParamInfo {
            key: "iterations",
            default: "-",
            help: "iterations per search and tree (a whole number >= 1); 10000 when millis is not given",
        },
        ParamInfo {
            key: "millis",
            default: "-",
            help: "time per search in milliseconds (>= 1); with iterations, whichever ends first",
        },
        ParamInfo {
            key: "c",
            default: "0.2",
            help: "UCB1 exploration constant, 0 to 100",
        },
        ParamInfo {
            key: "playout",
            default: "greedy",
            help: "playout policy: greedy (the evaluation's best move with probability 1-epsilon), or random",
        },
        ParamInfo {
            key: "epsilon",
            default: "0.1",
            help: "chance of a random move in greedy playouts, 0 to 1",
        },
        ParamInfo {
            key: "threads",
            default: "1",
            help: "independent trees searched in parallel and merged by visits, 1 to 64",
        },
        ParamInfo {
            key: "reuse",
            default: "true",
            help: "keep the subtree under the actual throws and actions for the next decision (true/false)",
        },
        crate::solve::TABLEBASE_PARAM,
        ParamInfo {
            key: "cutoff",
            default: "4",
            help: "throws a playout makes before it stops and scores the position with the evaluation; 0 plays to the end",
        },
        ParamInfo {
            key: "prior",
            default: "10",
            help: "virtual visits of the evaluation given to each new action (0: none, untried actions first)",
        },
    ],
};

/// The iterations per search when neither `iterations` nor `millis` is given.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// The most trees a root-parallel search may use.
pub const MAX_THREADS: usize = 64;

/// The most nodes a search holds, shared among its trees (each of `threads` trees holds at
/// most `MAX_TREE_NODES / threads`); past it a tree stops growing and iterations play out
/// from its leaves. 48 MiB for Issiren (24 bytes a node).
pub const MAX_TREE_NODES: usize = 1 << 21;

/// How playouts choose actions (throws are always sampled with their exact probabilities).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Playout {
    /// Uniformly among the legal actions.
    Random,
    /// The action whose result the game's [`Evaluate`] rates best for the mover (ties
    /// broken at random), except with probability `epsilon` a uniformly random one.
    Greedy {
        /// The probability of a random action, in `[0, 1]`.
        epsilon: f64,
    },
}

impl Playout {
    /// Greedy with the default ε, 0.1: the default policy of MCTS and ISMCTS.
    pub const DEFAULT: Playout = Playout::Greedy {
        epsilon: DEFAULT_EPSILON,
    };

    /// Reads `playout` and `epsilon` (default: greedy, ε = 0.1).
    pub(crate) fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let kind = params.choice("playout", &["random", "greedy"])?;
        let epsilon = params
            .number("epsilon", 0.0, 1.0)?
            .unwrap_or(DEFAULT_EPSILON);
        Ok(match kind {
            Some("random") => Playout::Random,
            _ => Playout::Greedy { epsilon },
        })
    }

    pub(crate) fn check(&self, agent: &'static str) -> Result<(), SpecError> {
        if let Playout::Greedy { epsilon } = *self {
            if !(0.0..=1.0).contains(&epsilon) {
                return Err(bad(agent, "epsilon", epsilon, "a number from 0 to 1"));
            }
        }
        Ok(())
    }

    fn spec_text(&self) -> String {
        match self {
            Playout::Random => "random".to_string(),
            Playout::Greedy { epsilon } => format!("greedy,epsilon={epsilon}"),
        }
    }
}

pub(crate) fn bad(
    agent: &'static str,
    key: &'static str,
    value: impl fmt::Display,
    expected: &str,
) -> SpecError {
    SpecError::BadValue {
        agent,
        key,
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

/// An evaluation function: [`Evaluate::evaluate`] of the game, as a plain function so
/// that searches can hold it without requiring [`Evaluate`] of every game.
pub(crate) type EvalFn<G> = fn(&G, &<G as Game>::State) -> SeatValues;

/// How a search plays out from a leaf: the policy, the cutoff, and the game's evaluation
/// (needed by greedy moves and cut playouts; `None` for a game without one).
pub(crate) struct Rollout<G: Game> {
    pub(crate) policy: Playout,
    pub(crate) cutoff: u32,
    pub(crate) evaluate: Option<EvalFn<G>>,
}

impl<G: Game> Clone for Rollout<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Rollout<G> {}

impl<G: Game> Rollout<G> {
    /// A rollout with the game's evaluation.
    pub(crate) fn new(policy: Playout, cutoff: u32) -> Self
    where
        G: Evaluate,
    {
        Rollout {
            policy,
            cutoff,
            evaluate: Some(<G as Evaluate>::evaluate),
        }
    }

    /// A rollout for a game without an evaluation: random playouts to the end only.
    ///
    /// # Errors
    /// [`SpecError::Unsupported`] if `policy` is greedy or `cutoff` is not 0.
    pub(crate) fn without_evaluation(
        agent: &'static str,
        policy: Playout,
        cutoff: u32,
    ) -> Result<Self, SpecError> {
        let why = if policy != Playout::Random {
            "greedy playouts need"
        } else if cutoff != 0 {
            "cut playouts (cutoff > 0) need"
        } else {
            return Ok(Rollout {
                policy,
                cutoff,
                evaluate: None,
            });
        };
        Err(SpecError::Unsupported {
            agent,
            why: format!(
                "{why} an evaluation of {}; use random playouts with cutoff=0",
                G::TITLE
            ),
        })
    }

    /// Plays `state` out and returns every seat's reward: the scores at the end, or the
    /// evaluation once `cutoff` throws have been made (before the next one).
    #[inline]
    pub(crate) fn play(
        &self,
        game: &G,
        state: &mut G::State,
        rng: &mut stickdice::Rng,
    ) -> SeatValues {
        match (self.policy, self.cutoff, self.evaluate) {
            (Playout::Random, 0, _) => stickdice::play::random_playout(game, state, rng).scores(),
            (policy, cutoff, Some(evaluate)) => {
                let epsilon = match policy {
                    Playout::Random => 1.0,
                    Playout::Greedy { epsilon } => epsilon,
                };
                playout(game, state, rng, epsilon, cutoff, evaluate)
            }
            (_, _, None) => unreachable!("checked by Rollout::without_evaluation"),
        }
    }
}

/// A playout with ε-greedy moves (ε = 1: uniformly random), cut after `cutoff` throws
/// (0: never).
fn playout<G: Game>(
    game: &G,
    state: &mut G::State,
    rng: &mut stickdice::Rng,
    epsilon: f64,
    cutoff: u32,
    evaluate: EvalFn<G>,
) -> SeatValues {
    let mut actions = ActionList::new();
    let mut throws = 0;
    loop {
        match game.node(state) {
            GameNode::Throw(_) => {
                if throws == cutoff && cutoff != 0 {
                    return evaluate(game, state);
                }
                throws += 1;
                let t = game.sample_throw(rng);
                game.apply_throw_unchecked(state, t);
            }
            GameNode::Decide(seat) => {
                game.legal_actions(state, &mut actions);
                let a = if actions.len() == 1 {
                    actions[0]
                } else if epsilon >= 1.0 || rng.random::<f64>() < epsilon {
                    actions[rng.random_range(0..actions.len())]
                } else {
                    greedy_action(game, state, seat, &actions, rng, evaluate)
                };
                game.apply_action_unchecked(state, a);
            }
            GameNode::End => return game.scores(state).expect("an ended game has scores"),
        }
    }
}

/// The action whose result `evaluate` rates best for `seat`; ties broken uniformly.
fn greedy_action<G: Game>(
    game: &G,
    state: &G::State,
    seat: Seat,
    actions: &[G::Action],
    rng: &mut stickdice::Rng,
    evaluate: EvalFn<G>,
) -> G::Action {
    let mut best = actions[0];
    let mut best_value = f64::NEG_INFINITY;
    let mut ties = 0u32;
    for &a in actions {
        let mut next = *state;
        game.apply_action_unchecked(&mut next, a);
        let v = evaluate(game, &next)[seat];
        if v > best_value {
            best_value = v;
            best = a;
            ties = 1;
        } else if v == best_value {
            ties += 1;
            if rng.random_range(0..ties) == 0 {
                best = a;
            }
        }
    }
    best
}

/// A search budget: iterations, time, or both (whichever ends first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Budget {
    pub(crate) iterations: Option<u64>,
    pub(crate) deadline: Option<Instant>,
}

impl Budget {
    pub(crate) fn new(iterations: Option<u64>, millis: Option<u64>) -> Self {
        Budget {
            iterations: match (iterations, millis) {
                (None, None) => Some(DEFAULT_ITERATIONS),
                (it, _) => it,
            },
            deadline: millis.map(|ms| Instant::now() + Duration::from_millis(ms)),
        }
    }

    /// Whether another iteration may start after `done` (at least one always runs).
    #[inline]
    pub(crate) fn more(&self, done: u64) -> bool {
        if done == 0 {
            return true;
        }
        if self.iterations.is_some_and(|max| done >= max) {
            return false;
        }
        // Reading the clock costs about as much as a short playout: look every 16.
        !(done % 16 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d))
    }
}

/// The default `cutoff` of MCTS and ISMCTS: four throws (measured on Issiren, see the
/// [module docs](self)).
pub const DEFAULT_CUTOFF: u32 = 4;

/// The default ε of greedy playouts.
pub const DEFAULT_EPSILON: f64 = 0.1;

/// The default exploration constant `c` of MCTS (measured with the default cut greedy
/// playouts, whose rewards are evaluations rather than wins and losses).
pub const DEFAULT_C: f64 = 0.2;

/// The default `prior` of MCTS: each new action starts with ten virtual visits at its
/// evaluation.
pub const DEFAULT_PRIOR: f64 = 10.0;

/// The largest `cutoff`.
pub const MAX_CUTOFF: u32 = 100_000;

/// The largest `prior`.
pub const MAX_PRIOR: f64 = 1e6;

/// Reads `cutoff`: a whole number from 0 to [`MAX_CUTOFF`].
pub(crate) fn cutoff_param(
    agent: &'static str,
    params: &Params<'_>,
) -> Result<Option<u32>, SpecError> {
    match params.given("cutoff") {
        None => Ok(None),
        Some(v) => match v.parse::<u32>() {
            Ok(n) if n <= MAX_CUTOFF => Ok(Some(n)),
            _ => Err(bad(
                agent,
                "cutoff",
                v,
                &format!("a whole number from 0 (play to the end) to {MAX_CUTOFF}"),
            )),
        },
    }
}

pub(crate) fn check_cutoff(agent: &'static str, cutoff: u32) -> Result<(), SpecError> {
    if cutoff > MAX_CUTOFF {
        return Err(bad(
            agent,
            "cutoff",
            cutoff,
            &format!("a whole number from 0 (play to the end) to {MAX_CUTOFF}"),
        ));
    }
    Ok(())
}

pub(crate) fn check_budget(
    agent: &'static str,
    iterations: Option<u64>,
    millis: Option<u64>,
) -> Result<(), SpecError> {
    if iterations == Some(0) {
        return Err(bad(agent, "iterations", 0, "a whole number of at least 1"));
    }
    if millis == Some(0) {
        return Err(bad(agent, "millis", 0, "a whole number of at least 1"));
    }
    Ok(())
}

/// One root action's statistics after a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionStats<A> {
    /// The action.
    pub action: A,
    /// Iterations that went through it (summed over trees).
    pub visits: u64,
    /// The deciding seat's mean score through it, in `[0, 1]` (0 when unvisited).
    pub mean: f64,
}

/// What a search found at the root: every legal action, in the order of
/// [`Game::legal_actions`], with its visits and mean value.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<A> {
    /// The seat deciding at the root.
    pub seat: Seat,
    /// Iterations run by this search (over all trees; statistics reused from earlier
    /// searches come on top).
    pub iterations: u64,
    /// One entry per legal action.
    pub actions: Vec<ActionStats<A>>,
}

impl<A> Analysis<A> {
    fn empty() -> Self {
        Analysis {
            seat: 0,
            iterations: 0,
            actions: Vec::new(),
        }
    }

    /// The statistics as [`stickdice::ActionValue`]s (for [`Agent::analysis`]): the mean
    /// as the value, with the visits. `None` before any search.
    pub fn action_values(&self) -> Option<Vec<stickdice::ActionValue<A>>>
    where
        A: Copy,
    {
        (!self.actions.is_empty()).then(|| {
            self.actions
                .iter()
                .map(|s| stickdice::ActionValue {
                    action: s.action,
                    value: s.mean,
                    visits: Some(s.visits),
                })
                .collect()
        })
    }

    /// The action the agent plays: the most visits, ties going to the higher mean, then to
    /// the earlier legal action. `None` only before any search.
    pub fn best(&self) -> Option<&ActionStats<A>> {
        let mut best: Option<&ActionStats<A>> = None;
        for s in &self.actions {
            if best.is_none_or(|b| s.visits > b.visits || (s.visits == b.visits && s.mean > b.mean))
            {
                best = Some(s);
            }
        }
        best
    }
}

/// Everything an MCTS agent is set to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per search and tree (`None` with no `millis`: [`DEFAULT_ITERATIONS`]).
    pub iterations: Option<u64>,
    /// Milliseconds per search.
    pub millis: Option<u64>,
    /// The UCB1 exploration constant.
    pub c: f64,
    /// The playout policy.
    pub playout: Playout,
    /// The number of independent trees (root parallelism).
    pub threads: usize,
    /// Whether to keep the subtree after the actual throws and actions.
    pub reuse: bool,
    /// Throws a playout makes before it stops and scores the position with
    /// [`Evaluate::evaluate`]; 0 plays to the end.
    pub cutoff: u32,
    /// Virtual visits of the evaluation given to each new action child (its mean starts as
    /// the evaluation of the state the action leads to, weighted as this many visits);
    /// 0: none, untried actions are tried first.
    pub prior: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: None,
            millis: None,
            c: DEFAULT_C,
            playout: Playout::DEFAULT,
            threads: 1,
            reuse: true,
            cutoff: DEFAULT_CUTOFF,
            prior: DEFAULT_PRIOR,
        }
    }
}

impl MctsConfig {
    /// Plain UCT for a game without an evaluation (for
    /// [`MctsAgent::with_random_playouts`]): uniformly random playouts to the end, no
    /// prior, and `c` = 1.4 (√2 for rewards in `[0, 1]`); the other fields as the
    /// defaults.
    pub fn without_evaluation() -> Self {
        MctsConfig {
            c: 1.4,
            playout: Playout::Random,
            cutoff: 0,
            prior: 0.0,
            ..MctsConfig::default()
        }
    }

    /// Reads a checked spec's parameters.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] for a value out of range.
    pub fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let threads = params.positive("threads")?.unwrap_or(1);
        if threads > MAX_THREADS as u64 {
            return Err(bad(
                "mcts",
                "threads",
                threads,
                &format!("a whole number from 1 to {MAX_THREADS}"),
            ));
        }
        let config = MctsConfig {
            iterations: params.positive("iterations")?,
            millis: params.positive("millis")?,
            c: params.number("c", 0.0, 100.0)?.unwrap_or(DEFAULT_C),
            playout: Playout::from_params(params)?,
            threads: threads as usize,
            reuse: params.flag("reuse")?.unwrap_or(true),
            cutoff: cutoff_param("mcts", params)?.unwrap_or(DEFAULT_CUTOFF),
            prior: params
                .number("prior", 0.0, MAX_PRIOR)?
                .unwrap_or(DEFAULT_PRIOR),
        };
        config.check()?;
        Ok(config)
    }

    /// Checks every field.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] naming the first field out of range: a zero budget, `c`
    /// outside `[0, 100]`, ε outside `[0, 1]`, or `threads` outside `1..=64`.
    pub fn check(&self) -> Result<(), SpecError> {
        check_budget("mcts", self.iterations, self.millis)?;
        if !(self.c.is_finite() && (0.0..=100.0).contains(&self.c)) {
            return Err(bad("mcts", "c", self.c, "a number from 0 to 100"));
        }
        self.playout.check("mcts")?;
        check_cutoff("mcts", self.cutoff)?;
        if !(self.prior.is_finite() && (0.0..=MAX_PRIOR).contains(&self.prior)) {
            return Err(bad(
                "mcts",
                "prior",
                self.prior,
                &format!("a number from 0 to {MAX_PRIOR}"),
            ));
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(bad(
                "mcts",
                "threads",
                self.threads,
                &format!("a whole number from 1 to {MAX_THREADS}"),
            ));
        }
        Ok(())
    }

    /// The canonical spec text.
    pub fn spec(&self) -> String {
        let mut s = String::from("mcts:");
        if let Some(i) = self.iterations {
            s += &format!("iterations={i},");
        }
        if let Some(m) = self.millis {
            s += &format!("millis={m},");
        }
        s += &format!(
            "c={},playout={},cutoff={}",
            self.c,
            self.playout.spec_text(),
            self.cutoff
        );
        s += &format!(",prior={}", self.prior);
        if self.threads != 1 {
            s += &format!(",threads={}", self.threads);
        }
        if !self.reuse {
            s += ",reuse=false";
        }
        s
    }
}

/// The edge into a tree node: what happened at its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge<A> {
    Root,
    Action(A),
    Throw(Throw),
}

/// A tree node in the arena. Its children are contiguous: `first_child..first_child +
/// children`. `value` sums the scores of `seat`, the seat that decided or threw at the
/// parent.
#[derive(Clone, Copy, Debug)]
struct TreeNode<A> {
    value: f64,
    visits: u32,
    /// The evaluation of the state after the action, for the deciding seat (0 without a
    /// prior).
    prior: f32,
    first_child: u32,
    children: u8,
    seat: u8,
    edge: Edge<A>,
}

impl<A> TreeNode<A> {
    fn new(edge: Edge<A>, seat: Seat) -> Self {
        TreeNode {
            value: 0.0,
            visits: 0,
            prior: 0.0,
            first_child: 0,
            children: 0,
            seat: seat as u8,
            edge,
        }
    }

    #[inline]
    fn child_range(&self) -> core::ops::Range<usize> {
        let f = self.first_child as usize;
        f..f + self.children as usize
    }
}

/// One search tree with its own generator; the arena is reused between searches.
struct Tree<G: Game> {
    nodes: Vec<TreeNode<G::Action>>,
    spare: Vec<TreeNode<G::Action>>,
    path: Vec<u32>,
    rng: stickdice::Rng,
    /// The node for `root_state` (0 after [`Tree::prepare`]).
    root: u32,
    /// The state the root stands for, while the tree is valid.
    root_state: Option<G::State>,
    /// The most nodes this tree may hold.
    cap: usize,
    /// Exact values (the `tablebase` parameter) for the positions they cover.
    exact: Option<Arc<dyn ExactValues<G>>>,
}

impl<G: Game> Tree<G> {
    fn new(seed: u64, cap: usize) -> Self {
        Tree {
            cap,
            nodes: Vec::new(),
            spare: Vec::new(),
            path: Vec::new(),
            rng: stickdice::Rng::seed_from_u64(seed),
            root: 0,
            root_state: None,
            exact: None,
        }
    }

    fn forget(&mut self) {
        self.nodes.clear();
        self.root = 0;
        self.root_state = None;
    }

    /// Makes node 0 the root for `state`: the kept subtree if `reuse` and the tree has
    /// followed the game to `state`, else a fresh root.
    fn prepare(&mut self, state: &G::State, reuse: bool) {
        if reuse && self.root_state.as_ref() == Some(state) {
            if self.root != 0 {
                self.compact();
            }
        } else {
            self.nodes.clear();
            self.nodes.push(TreeNode::new(Edge::Root, 0));
            self.root = 0;
            self.root_state = Some(*state);
        }
    }

    /// Copies the subtree under `root` to the front of the spare arena (breadth first, so
    /// children stay contiguous) and swaps arenas.
    fn compact(&mut self) {
        self.spare.clear();
        self.spare.push(self.nodes[self.root as usize]);
        let mut i = 0;
        while i < self.spare.len() {
            let range = self.spare[i].child_range();
            if !range.is_empty() {
                self.spare[i].first_child = self.spare.len() as u32;
                self.spare.extend_from_slice(&self.nodes[range]);
            }
            i += 1;
        }
        core::mem::swap(&mut self.nodes, &mut self.spare);
        self.root = 0;
    }

    /// Follows an actual event from `before`: the root moves to the child for `edge`, or
    /// the tree is dropped when it cannot follow.
    fn follow(&mut self, game: &G, before: &G::State, edge: Edge<G::Action>) {
        if self.root_state.as_ref() != Some(before) {
            self.forget();
            return;
        }
        let range = self.nodes[self.root as usize].child_range();
        match range.into_iter().find(|&i| self.nodes[i].edge == edge) {
            Some(child) => {
                let mut after = *before;
                match edge {
                    Edge::Action(a) => game.apply_action_unchecked(&mut after, a),
                    Edge::Throw(t) => game.apply_throw_unchecked(&mut after, t),
                    Edge::Root => unreachable!("no edge leads to the root"),
                }
                self.root = child as u32;
                self.root_state = Some(after);
            }
            None => self.forget(),
        }
    }

    /// Runs iterations from node 0 (which stands for `state`) within `budget`; returns how
    /// many ran.
    fn run(&mut self, game: &G, state: &G::State, how: &How<G>, budget: Budget) -> u64 {
        let mut done = 0;
        while budget.more(done) {
            self.iterate(game, state, how);
            done += 1;
        }
        done
    }

    /// The score of a new leaf: its exact values when a tablebase covers it, else a
    /// playout's.
    #[inline]
    fn leaf(&mut self, game: &G, state: &mut G::State, how: &How<G>) -> SeatValues {
        if let Some(x) = self.exact.as_ref().and_then(|e| e.scores(game, state)) {
            return x;
        }
        how.rollout.play(game, state, &mut self.rng)
    }

    /// One iteration: select down the tree, add one level, play out, back up.
    fn iterate(&mut self, game: &G, root_state: &G::State, how: &How<G>) {
        let mut state = *root_state;
        let mut idx = 0usize;
        let mut actions = ActionList::new();
        self.path.clear();
        self.path.push(0);
        let rewards = loop {
            if idx != 0 {
                if let Some(x) = self.exact.as_ref().and_then(|e| e.scores(game, &state)) {
                    break x;
                }
            }
            match game.node(&state) {
                GameNode::End => break game.scores(&state).expect("an ended game has scores"),
                GameNode::Throw(seat) => {
                    if self.nodes[idx].children == 0 && !self.expand_throws(game, idx, seat) {
                        break self.leaf(game, &mut state, how);
                    }
                    let t = game.sample_throw(&mut self.rng);
                    let range = self.nodes[idx].child_range();
                    idx = range
                        .into_iter()
                        .find(|&i| self.nodes[i].edge == Edge::Throw(t))
                        .expect("every throw has a child");
                    game.apply_throw_unchecked(&mut state, t);
                }
                GameNode::Decide(seat) => {
                    if self.nodes[idx].children == 0 {
                        game.legal_actions(&state, &mut actions);
                        if !self.expand_actions(game, &state, idx, seat, &mut actions, how) {
                            break self.leaf(game, &mut state, how);
                        }
                    }
                    idx = self.select(idx, how);
                    let Edge::Action(a) = self.nodes[idx].edge else {
                        unreachable!("a decision's children are actions")
                    };
                    game.apply_action_unchecked(&mut state, a);
                }
            }
            self.path.push(idx as u32);
            if self.nodes[idx].visits == 0 {
                break self.leaf(game, &mut state, how);
            }
        };
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.value += rewards[n.seat as usize];
        }
    }

    fn expand_throws(&mut self, game: &G, idx: usize, seat: Seat) -> bool {
        let outcomes = game.throw_outcomes();
        if self.nodes.len() + outcomes.len() > self.cap {
            return false;
        }
        self.nodes[idx].first_child = self.nodes.len() as u32;
        self.nodes[idx].children = outcomes.len() as u8;
        self.nodes.extend(
            outcomes
                .iter()
                .map(|o| TreeNode::new(Edge::Throw(o.throw), seat)),
        );
        true
    }

    /// Adds a child per action, in a random order (so that untried children, tried first
    /// to last, are tried in a random order), with its prior if the search uses one.
    fn expand_actions(
        &mut self,
        game: &G,
        state: &G::State,
        idx: usize,
        seat: Seat,
        actions: &mut ActionList<G::Action>,
        how: &How<G>,
    ) -> bool {
        if self.nodes.len() + actions.len() > self.cap || actions.len() > u8::MAX as usize {
            return false;
        }
        for i in (1..actions.len()).rev() {
            let j = self.rng.random_range(0..=i);
            actions.swap(i, j);
        }
        self.nodes[idx].first_child = self.nodes.len() as u32;
        self.nodes[idx].children = actions.len() as u8;
        match (how.prior > 0.0, how.rollout.evaluate) {
            (true, Some(evaluate)) => self.nodes.extend(actions.iter().map(|&a| {
                let mut next = *state;
                game.apply_action_unchecked(&mut next, a);
                let mut node = TreeNode::new(Edge::Action(a), seat);
                node.prior = evaluate(game, &next)[seat] as f32;
                node
            })),
            _ => self.nodes.extend(
                actions
                    .iter()
                    .map(|&a| TreeNode::new(Edge::Action(a), seat)),
            ),
        }
        true
    }

    /// UCB1 among the children of a decision node: without a prior, the first untried
    /// child if any; with a prior of weight `k`, every child's mean and visit count
    /// include `k` virtual visits at its prior.
    #[inline]
    fn select(&self, idx: usize, how: &How<G>) -> usize {
        let node = &self.nodes[idx];
        let ln_n = f64::from(node.visits.max(1)).ln();
        let (c, k) = (how.c, how.prior);
        let mut best = node.first_child as usize;
        let mut best_value = f64::NEG_INFINITY;
        for i in node.child_range() {
            let child = &self.nodes[i];
            let v = if k > 0.0 {
                let n = f64::from(child.visits) + k;
                (child.value + k * f64::from(child.prior)) / n + c * (ln_n / n).sqrt()
            } else {
                if child.visits == 0 {
                    return i;
                }
                let n = f64::from(child.visits);
                child.value / n + c * (ln_n / n).sqrt()
            };
            if v > best_value {
                best_value = v;
                best = i;
            }
        }
        best
    }

    /// The root child for `action`: (visits, value sum).
    fn root_stats(&self, action: G::Action) -> (u64, f64) {
        self.nodes[0]
            .child_range()
            .map(|i| &self.nodes[i])
            .find(|n| n.edge == Edge::Action(action))
            .map_or((0, 0.0), |n| (u64::from(n.visits), n.value))
    }
}

/// How a tree searches: the exploration constant, the prior's weight and the rollout.
struct How<G: Game> {
    c: f64,
    prior: f64,
    rollout: Rollout<G>,
}

/// UCT Monte Carlo tree search (see the [module docs](self)).
pub struct MctsAgent<G: Game> {
    config: MctsConfig,
    trees: Vec<Tree<G>>,
    rollout: Rollout<G>,
    analysis: Analysis<G::Action>,
    exact_source: Option<String>,
}

impl<G: Game> fmt::Debug for MctsAgent<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MctsAgent")
            .field("config", &self.config)
            .field(
                "tree_nodes",
                &self.trees.iter().map(|t| t.nodes.len()).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl<G: Evaluate> MctsAgent<G> {
    /// An agent with `config`, its trees seeded from `seed`.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] if the configuration is out of range (see
    /// [`MctsConfig::check`]).
    pub fn new(config: MctsConfig, seed: u64) -> Result<Self, SpecError> {
        Self::build(config, seed, Rollout::new(config.playout, config.cutoff))
    }

    /// From a checked spec.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] for a value out of range.
    pub fn from_params(params: &Params<'_>, seed: u64) -> Result<Self, SpecError> {
        let agent = Self::new(MctsConfig::from_params(params)?, seed)?;
        Ok(match crate::solve::tablebase_param::<G>(params)? {
            Some((source, values)) => agent.with_exact_values(&source, values),
            None => agent,
        })
    }
}

impl<G: Game> MctsAgent<G> {
    /// An agent with random playouts for any game, also one without an [`Evaluate`]
    /// implementation.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] if the configuration is out of range;
    /// [`SpecError::Unsupported`] if it asks for greedy playouts, a `cutoff` other than 0
    /// or a `prior` (they need [`Evaluate`]: use [`MctsAgent::new`]).
    pub fn with_random_playouts(config: MctsConfig, seed: u64) -> Result<Self, SpecError>
    where
        G: Game,
    {
        config.check()?;
        let rollout = Rollout::without_evaluation("mcts", config.playout, config.cutoff)?;
        if config.prior != 0.0 {
            return Err(SpecError::Unsupported {
                agent: "mcts",
                why: format!("a prior needs an evaluation of {}; use prior=0", G::TITLE),
            });
        }
        Self::build(config, seed, rollout)
    }

    fn build(config: MctsConfig, seed: u64, rollout: Rollout<G>) -> Result<Self, SpecError> {
        config.check()?;
        Ok(MctsAgent {
            config,
            trees: (0..config.threads)
                .map(|i| {
                    Tree::new(
                        stickdice::seed::derive(seed, &[i as u64]),
                        MAX_TREE_NODES / config.threads,
                    )
                })
                .collect(),
            rollout,
            analysis: Analysis::empty(),
            exact_source: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Uses exact values (a tablebase) for the positions they cover: a position below the
    /// root that they cover is a leaf scored exactly, with no playout. `source` names them
    /// in [`Agent::name`].
    pub fn with_exact_values(mut self, source: &str, values: Arc<dyn ExactValues<G>>) -> Self {
        for tree in &mut self.trees {
            tree.exact = Some(values.clone());
            tree.forget();
        }
        self.exact_source = Some(source.to_string());
        self
    }

    /// Searches `state` within the budget and returns every legal action's statistics
    /// (also when there is only one legal action, unlike [`Agent::choose`]).
    ///
    /// # Errors
    /// [`AgentError::GameOver`] or [`AgentError::ThrowDue`] if `state` is not a decision.
    pub fn analyze(
        &mut self,
        game: &G,
        state: &G::State,
    ) -> Result<&Analysis<G::Action>, AgentError> {
        let mut legal = ActionList::new();
        let seat = decision_actions(game, state, &mut legal)?;
        self.search(game, state, seat, &legal);
        Ok(&self.analysis)
    }

    /// The statistics of the last search ([`MctsAgent::analyze`] or a
    /// [`Agent::choose`] that searched); empty before any.
    pub fn last_analysis(&self) -> &Analysis<G::Action> {
        &self.analysis
    }

    /// The number of nodes in each tree now (for memory checks and tests).
    pub fn tree_sizes(&self) -> Vec<usize> {
        self.trees.iter().map(|t| t.nodes.len()).collect()
    }

    /// The visits at each tree's root carried over from earlier searches, before the next
    /// search of `state` (0 for a tree that will start afresh).
    pub fn reusable_visits(&self, state: &G::State) -> Vec<u64> {
        self.trees
            .iter()
            .map(|t| {
                if self.config.reuse && t.root_state.as_ref() == Some(state) {
                    u64::from(t.nodes[t.root as usize].visits)
                } else {
                    0
                }
            })
            .collect()
    }

    fn search(&mut self, game: &G, state: &G::State, seat: Seat, legal: &[G::Action]) {
        let budget = Budget::new(self.config.iterations, self.config.millis);
        let reuse = self.config.reuse;
        let how = How {
            c: self.config.c,
            prior: self.config.prior,
            rollout: self.rollout,
        };
        let run = |tree: &mut Tree<G>| {
            tree.prepare(state, reuse);
            tree.run(game, state, &how, budget)
        };
        let iterations = if self.trees.len() == 1 {
            run(&mut self.trees[0])
        } else {
            self.trees.par_iter_mut().map(run).sum()
        };
        let a = &mut self.analysis;
        a.seat = seat;
        a.iterations = iterations;
        a.actions.clear();
        for &action in legal {
            let (mut visits, mut value) = (0u64, 0.0f64);
            for tree in &self.trees {
                let (v, s) = tree.root_stats(action);
                visits += v;
                value += s;
            }
            a.actions.push(ActionStats {
                action,
                visits,
                mean: if visits == 0 {
                    0.0
                } else {
                    value / visits as f64
                },
            });
        }
    }
}

impl<G: Game> Agent<G> for MctsAgent<G> {
    fn name(&self) -> String {
        match &self.exact_source {
            Some(source) => format!("{},tablebase={source}", self.config.spec()),
            None => self.config.spec(),
        }
    }

    fn choose(&mut self, game: &G, state: &G::State) -> Result<G::Action, AgentError> {
        let mut legal = ActionList::new();
        let seat = decision_actions(game, state, &mut legal)?;
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        self.search(game, state, seat, &legal);
        Ok(self.analysis.best().expect("a decision has actions").action)
    }

    /// The statistics of the last search (a decision with one legal action is not
    /// searched and leaves them as they were).
    fn analysis(&self) -> Option<Vec<stickdice::ActionValue<G::Action>>> {
        self.analysis.action_values()
    }

    fn new_game(&mut self, _game: &G, _seat: Seat) {
        for t in &mut self.trees {
            t.forget();
        }
    }

    fn observe_throw(&mut self, game: &G, before: &G::State, throw: Throw) {
        if self.config.reuse {
            for t in &mut self.trees {
                t.follow(game, before, Edge::Throw(throw));
            }
        }
    }

    fn observe_action(&mut self, game: &G, before: &G::State, action: G::Action) {
        if self.config.reuse {
            for t in &mut self.trees {
                t.follow(game, before, Edge::Action(action));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgame_mcts::{decision_positions, exact_values, play_actions, Race, PASS};
    use crate::{build_str, RandomAgent};

    fn agent(spec: &str, game: &Race, seed: u64) -> Box<dyn Agent<Race>> {
        build_str(spec, game, seed).unwrap()
    }

    fn mcts(config: MctsConfig, seed: u64) -> MctsAgent<Race> {
        MctsAgent::new(config, seed).unwrap()
    }

    /// Plain UCT (random playouts to the end, no prior) with `n` iterations.
    fn iterations(n: u64) -> MctsConfig {
        MctsConfig {
            iterations: Some(n),
            ..MctsConfig::without_evaluation()
        }
    }

    /// Checks the tree's bookkeeping: every expanded node's children were visited once per
    /// visit of the node except possibly its first (a playout from the node itself).
    fn check_tree(tree: &Tree<Race>) {
        for n in &tree.nodes {
            if n.children > 0 {
                let sum: u32 = n.child_range().map(|i| tree.nodes[i].visits).sum();
                assert!(
                    sum == n.visits || sum + 1 == n.visits,
                    "children visited {sum} times under a node visited {}",
                    n.visits
                );
            }
            assert!(n.value >= 0.0 && n.value <= f64::from(n.visits));
        }
    }

    #[test]
    fn same_seed_same_games_with_one_and_two_threads() {
        let game = Race::new(2, 60);
        for spec in [
            "mcts:iterations=60",
            "mcts:iterations=40,threads=2",
            "mcts:iterations=30,threads=3,reuse=false",
            "mcts:iterations=30,playout=greedy,epsilon=0.3",
        ] {
            let run = |seed| {
                let mut agents = vec![agent(spec, &game, seed), agent("random", &game, 99)];
                play_actions(&game, &mut agents, 5)
            };
            let first = run(1);
            assert!(first.len() > 5, "{spec}: a game with few decisions");
            assert_eq!(first, run(1), "{spec}: same seed, different play");
        }
    }

    #[test]
    fn different_seeds_play_differently_where_choices_exist() {
        let game = Race::new(2, 60);
        let positions = decision_positions(&game, 30, 3);
        for spec in ["mcts:iterations=4", "mcts:iterations=8,threads=2"] {
            let choices = |seed| {
                let mut a = agent(spec, &game, seed);
                positions
                    .iter()
                    .map(|s| a.choose(&game, s).unwrap())
                    .collect::<Vec<_>>()
            };
            assert_ne!(choices(1), choices(2), "{spec}");
        }
    }

    #[test]
    fn only_legal_actions_for_two_to_four_seats() {
        for seats in 2..=4 {
            let game = Race::new(seats, 60);
            for (k, s) in decision_positions(&game, 40, seats as u64)
                .iter()
                .enumerate()
            {
                for spec in [
                    "mcts:iterations=25",
                    "mcts:iterations=10,threads=2,playout=greedy",
                ] {
                    let a = agent(spec, &game, k as u64).choose(&game, s).unwrap();
                    game.check_action(s, a).unwrap();
                }
            }
            // Whole games, with subtree reuse.
            let mut agents: Vec<_> = (0..seats)
                .map(|i| agent("mcts:iterations=30", &game, i as u64))
                .collect();
            play_actions(&game, &mut agents, seats as u64);
        }
    }

    #[test]
    fn a_single_legal_action_is_answered_without_search() {
        let game = Race::new(2, 60);
        // Seat 1 has tokens on 4 and home: a 3 can only pass.
        let mut s = game.position(&[0, 0, 4, 6], 1, 0);
        game.apply_throw(&mut s, Throw::new(3)).unwrap();
        let mut a = mcts(iterations(1000), 1);
        assert_eq!(a.choose(&game, &s), Ok(PASS));
        assert_eq!(a.last_analysis().iterations, 0);
        assert_eq!(a.tree_sizes(), vec![0]);
    }

    #[test]
    fn terminal_and_throw_states_are_errors_not_panics() {
        let game = Race::new(2, 60);
        let mut a = mcts(iterations(10), 1);
        let s = game.initial_state();
        assert_eq!(a.choose(&game, &s), Err(AgentError::ThrowDue { seat: 0 }));
        assert_eq!(
            a.analyze(&game, &s).unwrap_err(),
            AgentError::ThrowDue { seat: 0 }
        );
        let mut end = game.position(&[0, 0, 4, 6], 1, 0);
        game.apply_throw(&mut end, Throw::new(2)).unwrap();
        game.apply_action(&mut end, 0).unwrap();
        assert_eq!(a.choose(&game, &end), Err(AgentError::GameOver));
    }

    #[test]
    fn zero_budgets_and_bad_values_are_rejected_with_a_message() {
        let game = Race::new(2, 60);
        for (spec, needle) in [
            ("mcts:iterations=0", "iterations"),
            ("mcts:millis=0", "millis"),
            ("mcts:threads=0", "threads"),
            ("mcts:threads=65", "threads"),
            ("mcts:c=-1", "`c`"),
            ("mcts:c=nan", "`c`"),
            ("mcts:epsilon=1.5", "epsilon"),
            ("mcts:playout=smart", "random, greedy"),
            ("mcts:reuse=maybe", "true or false"),
            ("mcts:depth=3", "it takes: iterations, millis"),
            (
                "mcts:cutoff=-1",
                "a whole number from 0 (play to the end) to 100000",
            ),
            ("mcts:cutoff=4.5", "cutoff"),
            ("mcts:cutoff=100001", "cutoff"),
            ("mcts:prior=-1", "prior"),
            ("mcts:prior=inf", "prior"),
        ] {
            let e = build_str(spec, &game, 1).err().expect(spec).to_string();
            assert!(e.contains(needle), "{spec}: {e}");
        }
        for bad in [
            MctsConfig {
                iterations: Some(0),
                ..MctsConfig::default()
            },
            MctsConfig {
                millis: Some(0),
                ..MctsConfig::default()
            },
            MctsConfig {
                threads: 0,
                ..MctsConfig::default()
            },
            MctsConfig {
                c: f64::INFINITY,
                ..MctsConfig::default()
            },
            MctsConfig {
                playout: Playout::Greedy { epsilon: -0.1 },
                ..MctsConfig::default()
            },
        ] {
            assert!(MctsAgent::<Race>::new(bad, 1).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn random_playouts_need_no_evaluation_but_greedy_ones_do() {
        let game = Race::new(2, 60);
        let s = decision_positions(&game, 1, 1)[0];
        let mut a = MctsAgent::<Race>::with_random_playouts(iterations(50), 3).unwrap();
        game.check_action(&s, a.choose(&game, &s).unwrap()).unwrap();
        // Same seed, same search as through `new`.
        let mut b = mcts(iterations(50), 3);
        b.choose(&game, &s).unwrap();
        assert_eq!(a.last_analysis(), b.last_analysis());
        let greedy = MctsConfig {
            playout: Playout::Greedy { epsilon: 0.1 },
            ..iterations(50)
        };
        let e = MctsAgent::<Race>::with_random_playouts(greedy, 3).unwrap_err();
        assert!(
            matches!(e, SpecError::Unsupported { agent: "mcts", .. }),
            "{e}"
        );
        // So do cut playouts and a prior, and the defaults have both.
        for (config, needle) in [
            (MctsConfig::default(), "greedy playouts"),
            (
                MctsConfig {
                    cutoff: 3,
                    ..iterations(50)
                },
                "cut playouts",
            ),
            (
                MctsConfig {
                    prior: 1.0,
                    ..iterations(50)
                },
                "prior",
            ),
        ] {
            let e = MctsAgent::<Race>::with_random_playouts(config, 3).unwrap_err();
            assert!(
                matches!(e, SpecError::Unsupported { agent: "mcts", .. })
                    && e.to_string().contains(needle),
                "{e}"
            );
        }
    }

    /// A cut playout makes exactly `cutoff` throws (finishing a decision it starts at)
    /// and returns the evaluation of the state before the next throw; with cutoff 0, or
    /// when the game ends first, it returns the final scores.
    #[test]
    fn cut_playouts_stop_after_cutoff_throws_and_score_by_the_evaluation() {
        let game = Race::new(2, 200);
        let starts = decision_positions(&game, 20, 6);
        let mut rng = stickdice::Rng::seed_from_u64(1);
        let mut ended = 0;
        for policy in [Playout::Random, Playout::Greedy { epsilon: 0.3 }] {
            for cutoff in [1, 3, 10] {
                let rollout = Rollout::<Race>::new(policy, cutoff);
                for start in &starts {
                    // From the decision itself and from the throw after a move.
                    let mut legal = ActionList::new();
                    game.legal_actions(start, &mut legal);
                    let mut after = *start;
                    game.apply_action(&mut after, legal[0]).unwrap();
                    for from in [*start, after] {
                        let mut s = from;
                        let rewards = rollout.play(&game, &mut s, &mut rng);
                        let made = game.throws_made(&s) - game.throws_made(&from);
                        if game.node(&s) == GameNode::End {
                            ended += 1;
                            assert!(made <= cutoff);
                            assert_eq!(rewards, game.scores(&s).unwrap());
                        } else {
                            assert_eq!(made, cutoff, "{from:?} -> {s:?}");
                            assert!(matches!(game.node(&s), GameNode::Throw(_)));
                            assert_eq!(rewards, game.evaluate(&s));
                        }
                    }
                }
            }
            // Cutoff 0 plays to the end.
            let rollout = Rollout::<Race>::new(policy, 0);
            for start in &starts {
                let mut s = *start;
                let rewards = rollout.play(&game, &mut s, &mut rng);
                assert_eq!(game.node(&s), GameNode::End);
                assert_eq!(rewards, game.scores(&s).unwrap());
            }
        }
        assert!(ended > 0, "no playout ended the game within its cutoff");
    }

    /// With a prior, a decision's new children carry the mover's evaluation of the state
    /// each action leads to, and the first iteration follows the best of them (here the
    /// capture, exactly the greedy move) instead of an untried child at random.
    #[test]
    fn a_prior_starts_each_action_at_its_evaluation() {
        let game = Race::new(2, 60);
        // Seat 0 (tokens on 0 and 1) threw a 3: token 1 captures seat 1's token on 4
        // (seat 0 then has 8 to run, seat 1 has 10: it leads, evaluation 1); token 0 to 3
        // leaves seat 0 behind (8 to 6: evaluation 0).
        let mut s = game.position(&[0, 1, 2, 4], 0, 0);
        game.apply_throw(&mut s, Throw::new(3)).unwrap();
        for seed in 0..10 {
            let mut tree = Tree::<Race>::new(seed, 1000);
            tree.prepare(&s, false);
            let how = How {
                c: 0.2,
                prior: 10.0,
                rollout: Rollout::new(Playout::Random, 2),
            };
            tree.run(&game, &s, &how, Budget::new(Some(1), None));
            let kids: Vec<_> = tree.nodes[0].child_range().map(|i| tree.nodes[i]).collect();
            assert_eq!(kids.len(), 2);
            for k in &kids {
                let Edge::Action(a) = k.edge else { panic!() };
                assert_eq!(k.prior, [0.0, 1.0][a as usize], "{a}");
                assert_eq!(k.visits, u32::from(a == 1), "{a}");
            }
        }
        // Without a prior the untried children are tried in a random order.
        let mut firsts = [0; 2];
        for seed in 0..20 {
            let mut tree = Tree::<Race>::new(seed, 1000);
            tree.prepare(&s, false);
            let how = How {
                c: 0.2,
                prior: 0.0,
                rollout: Rollout::new(Playout::Random, 2),
            };
            tree.run(&game, &s, &how, Budget::new(Some(1), None));
            for i in tree.nodes[0].child_range() {
                let Edge::Action(a) = tree.nodes[i].edge else {
                    panic!()
                };
                firsts[a as usize] += tree.nodes[i].visits;
            }
        }
        assert!(firsts[0] > 0 && firsts[1] > 0, "{firsts:?}");
    }

    #[test]
    fn a_full_tree_stops_growing_but_the_search_goes_on() {
        let game = Race::new(2, 60);
        let s = decision_positions(&game, 1, 4)[0];
        let mut tree = Tree::<Race>::new(1, 40);
        tree.prepare(&s, false);
        let how = How {
            c: 1.4,
            prior: 0.0,
            rollout: Rollout::new(Playout::Random, 0),
        };
        let done = tree.run(&game, &s, &how, Budget::new(Some(3000), None));
        assert_eq!(done, 3000);
        assert!(
            tree.nodes.len() <= 40 && tree.nodes.len() > 30,
            "{}",
            tree.nodes.len()
        );
        assert_eq!(tree.nodes[0].visits, 3000);
        check_tree(&tree);
    }

    #[test]
    fn the_registry_lists_mcts_with_its_defaults() {
        let info = crate::spec::info("mcts").unwrap();
        let keys: Vec<_> = info.params.iter().map(|p| (p.key, p.default)).collect();
        assert_eq!(
            keys,
            [
                ("iterations", "-"),
                ("millis", "-"),
                ("c", "0.2"),
                ("playout", "greedy"),
                ("epsilon", "0.1"),
                ("threads", "1"),
                ("reuse", "true"),
                ("tablebase", "-"),
                ("cutoff", "4"),
                ("prior", "10"),
            ]
        );
        // The listed defaults are the ones used.
        let spec: crate::AgentSpec = "mcts".parse().unwrap();
        let config = MctsConfig::from_params(&spec.checked_params().unwrap()).unwrap();
        assert_eq!(config, MctsConfig::default());
        assert_eq!(
            config,
            MctsConfig {
                iterations: None,
                millis: None,
                c: 0.2,
                playout: Playout::Greedy { epsilon: 0.1 },
                threads: 1,
                reuse: true,
                cutoff: 4,
                prior: 10.0,
            }
        );
        let spec: crate::AgentSpec =
            "mcts:iterations=5,c=2,playout=greedy,epsilon=0.5,threads=2,reuse=off,cutoff=0,prior=2.5"
                .parse()
                .unwrap();
        let config = MctsConfig::from_params(&spec.checked_params().unwrap()).unwrap();
        assert_eq!(
            config,
            MctsConfig {
                iterations: Some(5),
                millis: None,
                c: 2.0,
                playout: Playout::Greedy { epsilon: 0.5 },
                threads: 2,
                reuse: false,
                cutoff: 0,
                prior: 2.5,
            }
        );
        assert_eq!(
            config.spec(),
            "mcts:iterations=5,c=2,playout=greedy,epsilon=0.5,cutoff=0,prior=2.5,threads=2,reuse=false"
        );
        // The canonical text reads back as the same configuration.
        let again: crate::AgentSpec = config.spec().parse().unwrap();
        assert_eq!(
            MctsConfig::from_params(&again.checked_params().unwrap()).unwrap(),
            config
        );
    }

    #[test]
    fn a_fresh_search_counts_every_iteration_at_the_root() {
        let game = Race::new(3, 60);
        let s = decision_positions(&game, 1, 8)[0];
        let mut a = mcts(iterations(500), 4);
        let analysis = a.analyze(&game, &s).unwrap().clone();
        assert_eq!(analysis.iterations, 500);
        assert_eq!(analysis.actions.iter().map(|x| x.visits).sum::<u64>(), 500);
        let mut legal = ActionList::new();
        game.legal_actions(&s, &mut legal);
        let listed: Vec<u8> = analysis.actions.iter().map(|x| x.action).collect();
        assert_eq!(&listed[..], &legal[..]);
        assert_eq!(a.trees[0].nodes[0].visits, 500);
        check_tree(&a.trees[0]);
    }

    #[test]
    fn threads_sum_their_trees_in_tree_order() {
        let game = Race::new(2, 60);
        let s = decision_positions(&game, 1, 9)[0];
        let mut a = mcts(
            MctsConfig {
                iterations: Some(100),
                threads: 3,
                ..MctsConfig::without_evaluation()
            },
            4,
        );
        let analysis = a.analyze(&game, &s).unwrap().clone();
        assert_eq!(analysis.iterations, 300);
        assert_eq!(analysis.actions.iter().map(|x| x.visits).sum::<u64>(), 300);
        // Each tree alone: the merged statistics are their sums.
        for (i, st) in analysis.actions.iter().enumerate() {
            let per_tree: u64 = a.trees.iter().map(|t| t.root_stats(st.action).0).sum();
            assert_eq!(per_tree, st.visits, "action {i}");
        }
        // Tree i is seeded independently: the trees differ.
        assert_ne!(
            a.trees[0].root_stats(analysis.actions[0].action),
            a.trees[1].root_stats(analysis.actions[0].action)
        );
    }

    /// A position whose exact max^n values were brute-forced (three throws left): seat 0
    /// threw a 3 with tokens on 0 and 1, seat 1's on 2 and 4. Moving token 1 onto 4
    /// captures; the exact values make it the better move by about 0.2.
    #[test]
    fn the_search_finds_the_exactly_best_move_and_its_value() {
        let game = Race::new(2, 30);
        for (tokens, throw) in [([0, 1, 2, 4], 3), ([0, 1, 2, 3], 3), ([0, 1, 0, 2], 1)] {
            let mut s = game.position(&tokens, 0, 27);
            game.apply_throw(&mut s, Throw::new(throw)).unwrap();
            let exact: Vec<f64> = [0u8, 1]
                .iter()
                .map(|&a| {
                    let mut next = s;
                    game.apply_action(&mut next, a).unwrap();
                    exact_values(&game, &next)[0]
                })
                .collect();
            let best = if exact[0] > exact[1] { 0 } else { 1 };
            assert!((exact[0] - exact[1]).abs() > 0.15, "{exact:?}");
            let mut a = mcts(iterations(20_000), 3);
            let analysis = a.analyze(&game, &s).unwrap();
            let chosen = analysis.best().unwrap();
            assert_eq!(
                chosen.action, best,
                "{tokens:?}: {analysis:?} vs exact {exact:?}"
            );
            assert!(
                (chosen.mean - exact[best as usize]).abs() < 0.03,
                "{tokens:?}: mean {} vs exact {}",
                chosen.mean,
                exact[best as usize]
            );
            check_tree(&a.trees[0]);
        }
    }

    #[test]
    fn the_subtree_after_the_actual_throw_and_action_is_reused() {
        let game = Race::new(2, 60);
        let mut a = mcts(iterations(2000), 5);
        let mut s = game.initial_state();
        game.apply_throw(&mut s, Throw::new(2)).unwrap();
        let action = a.choose(&game, &s).unwrap();
        // Tell the agent what happened: its action, the opponent's throw of 2 and action,
        // and its own next throw of 3.
        let mut before = s;
        a.observe_action(&game, &before, action);
        game.apply_action(&mut s, action).unwrap();
        for (throw, act) in [(Throw::new(2), Some(0u8)), (Throw::new(3), None)] {
            before = s;
            a.observe_throw(&game, &before, throw);
            game.apply_throw(&mut s, throw).unwrap();
            if let Some(act) = act {
                before = s;
                a.observe_action(&game, &before, act);
                game.apply_action(&mut s, act).unwrap();
            }
        }
        let carried = a.reusable_visits(&s)[0];
        assert!(carried > 0, "nothing to reuse");
        let choice = a.choose(&game, &s).unwrap();
        game.check_action(&s, choice).unwrap();
        // The new root keeps its old visits and adds the new search's.
        assert_eq!(u64::from(a.trees[0].nodes[0].visits), carried + 2000);
        assert!(
            a.last_analysis()
                .actions
                .iter()
                .map(|x| x.visits)
                .sum::<u64>()
                >= 2000
        );
        check_tree(&a.trees[0]);

        // Without reuse, or after an event the tree did not follow, it starts afresh.
        let mut fresh = mcts(
            MctsConfig {
                reuse: false,
                ..iterations(100)
            },
            5,
        );
        fresh.choose(&game, &s).unwrap();
        assert_eq!(fresh.reusable_visits(&s), vec![0]);
        let other = game.position(&[1, 0, 0, 0], 1, 3);
        a.observe_throw(&game, &other, Throw::new(1));
        assert_eq!(a.reusable_visits(&s), vec![0]);
    }

    /// The node reached from node 0 along `edges`.
    fn node_at(tree: &Tree<Race>, edges: &[Edge<u8>]) -> usize {
        let mut idx = 0;
        for e in edges {
            idx = tree.nodes[idx]
                .child_range()
                .find(|&i| tree.nodes[i].edge == *e)
                .unwrap_or_else(|| panic!("no child {e:?}"));
        }
        idx
    }

    /// The statistics of a node's children, in order: (edge, visits, value).
    fn children(tree: &Tree<Race>, idx: usize) -> Vec<(Edge<u8>, u32, f64)> {
        tree.nodes[idx]
            .child_range()
            .map(|i| {
                let n = &tree.nodes[i];
                (n.edge, n.visits, n.value)
            })
            .collect()
    }

    /// After the actual action, throw, action and throw, the new root is exactly the old
    /// tree's node for that line: same visits, same children with the same statistics (the
    /// throw children of a throw node have the same probabilities, so a wrong throw would
    /// show as different counts), and its subtree is carried over whole.
    #[test]
    fn reuse_keeps_exactly_the_subtree_of_the_actual_line() {
        let game = Race::new(2, 60);
        let mut s = game.position(&[1, 0, 3, 0], 0, 10);
        game.apply_throw(&mut s, Throw::new(2)).unwrap();
        let mut a = mcts(iterations(20_000), 5);
        let action = a.choose(&game, &s).unwrap();
        let old = &a.trees[0];
        // The line: our action, the opponent throws a 1 and moves token 1, we throw a 2.
        let line = [
            Edge::Action(action),
            Edge::Throw(Throw::new(1)),
            Edge::Action(1),
            Edge::Throw(Throw::new(2)),
        ];
        let idx = node_at(old, &line);
        let expected_children = children(old, idx);
        let expected_visits = old.nodes[idx].visits;
        // Its subtree's size, counted by walking it.
        let mut stack = vec![idx];
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            stack.extend(old.nodes[i].child_range());
        }
        assert!(
            expected_visits > 50 && expected_children.len() == 2,
            "{expected_visits}"
        );
        for e in line {
            let before = s;
            match e {
                Edge::Action(x) => {
                    a.observe_action(&game, &before, x);
                    game.apply_action(&mut s, x).unwrap();
                }
                Edge::Throw(t) => {
                    a.observe_throw(&game, &before, t);
                    game.apply_throw(&mut s, t).unwrap();
                }
                Edge::Root => unreachable!(),
            }
        }
        assert_eq!(a.reusable_visits(&s), vec![u64::from(expected_visits)]);
        // Prepare the tree as a search does, without running it.
        a.trees[0].prepare(&s, true);
        let new = &a.trees[0];
        assert_eq!(new.nodes[0].visits, expected_visits);
        assert_eq!(children(new, 0), expected_children);
        assert_eq!(new.nodes.len(), size);
        check_tree(new);
    }

    /// The move played is the most visited one, not the one with the best mean.
    #[test]
    fn the_choice_is_by_visits_then_mean_then_order() {
        let stats = |v: &[(u64, f64)]| Analysis {
            seat: 0,
            iterations: 0,
            actions: v
                .iter()
                .enumerate()
                .map(|(i, &(visits, mean))| ActionStats {
                    action: i as u8,
                    visits,
                    mean,
                })
                .collect(),
        };
        assert_eq!(
            stats(&[(10, 0.9), (30, 0.4), (20, 0.95)])
                .best()
                .unwrap()
                .action,
            1
        );
        assert_eq!(
            stats(&[(30, 0.4), (30, 0.6), (2, 1.0)])
                .best()
                .unwrap()
                .action,
            1
        );
        assert_eq!(stats(&[(30, 0.5), (30, 0.5)]).best().unwrap().action, 0);
        assert_eq!(stats(&[]).best(), None);
    }

    /// Three seats, three throws from the cap: the seat to move's mean for its most
    /// visited action converges to the exact max^n value (brute force), so every seat's
    /// reward is credited to the seat that decided, also across a 4 (an extra throw).
    /// (With three seats, max^n values depend on how a seat breaks its own ties, which
    /// the brute force does by the first action and MCTS by averaging: hence the
    /// tolerance.)
    #[test]
    fn three_seats_converge_to_the_exact_max_n_values() {
        let game = Race::new(3, 30);
        let mut checked = 0;
        for (tokens, to_move, throw) in [
            ([1u8, 0, 2, 3, 0, 4], 0usize, 4u8),
            ([0, 2, 1, 3, 4, 0], 1, 1),
            ([3, 0, 1, 2, 0, 5], 2, 2),
            ([2, 0, 4, 1, 0, 3], 0, 1),
        ] {
            let mut s = game.position(&tokens, to_move, 26);
            game.apply_throw(&mut s, Throw::new(throw)).unwrap();
            let mut legal = ActionList::new();
            game.legal_actions(&s, &mut legal);
            let exact: Vec<f64> = legal
                .iter()
                .map(|&x| {
                    let mut next = s;
                    game.apply_action(&mut next, x).unwrap();
                    exact_values(&game, &next)[to_move]
                })
                .collect();
            let best = (0..exact.len())
                .max_by(|&i, &j| exact[i].total_cmp(&exact[j]))
                .unwrap();
            let mut sorted = exact.clone();
            sorted.sort_by(|x, y| y.total_cmp(x));
            let clear = sorted.len() > 1 && sorted[0] - sorted[1] > 0.01;
            let mut a = mcts(
                MctsConfig {
                    c: 0.5,
                    ..iterations(100_000)
                },
                7,
            );
            let analysis = a.analyze(&game, &s).unwrap();
            let chosen = analysis.best().unwrap();
            if clear {
                assert_eq!(
                    chosen.action, legal[best],
                    "{tokens:?}: {analysis:?} vs {exact:?}"
                );
                checked += 1;
            }
            let i = legal.iter().position(|&x| x == chosen.action).unwrap();
            assert!(
                (chosen.mean - exact[i]).abs() < 0.015,
                "{tokens:?}: mean {} vs exact {exact:?}",
                chosen.mean
            );
        }
        assert!(checked >= 3, "too few positions with a clearly best action");
    }

    /// The memory figures in the docs: 24 bytes a node for Issiren, 48 MiB at the cap.
    #[test]
    fn a_node_is_24_bytes_for_issiren() {
        let size = core::mem::size_of::<TreeNode<<stickdice::Issiren as Game>::Action>>();
        assert_eq!(size, 24);
        assert_eq!(size * MAX_TREE_NODES, 48 << 20);
    }

    #[test]
    fn whole_games_with_reuse_and_threads_stay_reproducible() {
        let game = Race::new(3, 80);
        let run = || {
            let mut agents = vec![
                agent("mcts:iterations=50,threads=2", &game, 1),
                agent("mcts:iterations=50", &game, 2),
                Box::new(RandomAgent::new(3)) as Box<dyn Agent<Race>>,
            ];
            play_actions(&game, &mut agents, 11)
        };
        assert_eq!(run(), run());
    }
}
