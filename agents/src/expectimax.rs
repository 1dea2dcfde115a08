//! The expectimax agent: depth-limited search over decision and chance nodes with the exact
//! throw probabilities.
//!
//! # What it computes
//!
//! At a decision node the seat to move picks the action that is best for it; at a throw
//! node the value is the probability-weighted average over [`Game::throw_outcomes`]; at
//! the end of the game it is the final score; where the depth runs out it is the
//! evaluation ([`Evaluate`]). Extra throws need no special case: the search follows
//! [`Game::node`], so when the same seat throws or decides again it simply is that seat's
//! node again.
//!
//! * **Two seats** (zero-sum): the value is the score of seat 0 in `[0, 1]` (seat 1's is
//!   one minus it); seat 0 maximises, seat 1 minimises. A leaf's value is
//!   `(e₀ + 1 − e₁) / 2` for the evaluation `e`, which is `e₀` for evaluations that sum to
//!   one (all of this crate's do) and exactly the score at the end.
//! * **More seats, `mode=maxn`** (default): max^n — each node's value is a vector of every
//!   seat's expected score and the seat to move maximises its own entry (the first such
//!   action in the order of [`Game::legal_actions`] on ties).
//! * **More seats, `mode=paranoid`**: the mover at the root maximises its own score and
//!   every other seat is assumed to minimise it — a two-sided zero-sum search again.
//!
//! # Depth
//!
//! `depth` counts **decision nodes** along a line: depth 1 looks at each of the mover's
//! actions and evaluates the state each leads to (the greedy agent's view); depth 2 adds
//! the next throw and the decision after it, and so on. A throw that leads to no decision
//! (another throw, as in Sig (El Oued) and Sig wa Duqqan, where most throws need no choice)
//! counts as one as well, so the search always stops. Every decision node counts, even one
//! with a single action (a forced pass).
//!
//! # Pruning (two seats, or paranoid)
//!
//! `pruning=star1` is alpha-beta at decision nodes with Ballard's (1983) Star1 at chance
//! nodes: a throw's outcomes are searched with windows derived from the bounds `[0, 1]` of
//! the ones not yet searched, and the node is cut as soon as its value provably lies outside
//! the window. `pruning=star2` (default) adds Star2's probing phase (Ballard; Hauk, Buro and
//! Schaeffer 2005): before the full search, one action of each outcome's decision node is
//! searched, giving a lower bound for an outcome where the maximising seat moves next and
//! an upper bound where the minimising one does, which often proves a cut with a fraction
//! of the work. Both return exactly the value plain expectimax returns (the windows are
//! widened by a margin far above rounding error, and the final average is summed in the
//! same order as the plain search); they only visit fewer nodes. Outcomes are searched from
//! the most likely down. With max^n over more than two seats there is no safe pruning of
//! this kind, so `pruning` is ignored there.
//!
//! Details that make the pruning pay: at decisions with at least two decisions to go the
//! actions are tried best first by the evaluation of the state each leads to (after the
//! table's best action, if any); a probe tries that best action; outcomes that end the
//! game or leave a single action are searched outright during probing and kept; the probed
//! action's result is handed to the full search of its outcome instead of being searched
//! again; and probing is skipped where it cannot cut (a window reaching past `[0, 1]` on
//! the side the probe bounds) or rarely does (after a decision's first action, where the
//! window comes from above rather than from a sibling).
//!
//! # Budgets and iterative deepening
//!
//! * `depth=D` alone: a search to depth `D` (default 3 when no budget is given). With
//!   pruning it deepens 1, 2, …, `D` for the move ordering, which changes the work, not
//!   the value at depth `D`; plain and max^n searches go straight to `D`.
//! * `nodes=N`: iterative deepening (depth 1, 2, …, up to `depth` if given, else 64) until
//!   the nodes visited in all iterations exceed `N`; the deepest finished iteration decides.
//!   Reproducible: node counts do not depend on the clock.
//! * `millis=T`: the same with a time budget of `T` milliseconds — the one budget whose
//!   choices depend on the machine's speed.
//!
//! Depth 1 always finishes, whatever the budget. Deepening also stops once a search reached
//! the end of the game on every line (its value is then exact). Each iteration orders the
//! root's actions by the previous iteration's values, and (with `tt=true`) every decision
//! node tries first the best action the previous iteration found there.
//!
//! The transposition table (`tt=true`, default) maps (state, remaining depth) — keyed by
//! [`Game::state_key`] and checked against the stored state, so a key collision can never
//! return a wrong value — to a value or bound and the best action, in an ahash map of at
//! most 2^18 entries (cleared when full, and when a new game starts), holding only nodes
//! at least two decisions from the leaves. Values found in the
//! table are the ones the search would recompute, so the table changes node counts, never
//! values.
//!
//! Ties at the root between actions of exactly equal value are broken uniformly by the
//! agent's seeded generator, so the same seed gives the same choices and different seeds
//! can differ where several actions are equally good.
//!
//! # Parameters
//!
//! `depth`, `nodes`, `millis` (whole numbers ≥ 1), `mode=maxn|paranoid`,
//! `pruning=none|star1|star2`, `tt=true|false`. For example `expectimax:depth=4`,
//! `expectimax:nodes=200000`, `expectimax:millis=100,mode=paranoid`.
//!
//! `tablebase=build|FILE` (Issiren only): positions with at most two pieces a side are
//! leaves valued exactly from the endgame tablebase ([`crate::solve::tablebase`]), whatever
//! the depth left; `build` builds it in memory at first use (once per process), a file is
//! one written by `stickdice analyze --game issiren --write-tablebase FILE`.
//!
//! # Cost and when to use it
//!
//! The tree grows by (actions × throw outcomes) per decision: in Issiren up to 12 × 7 = 84,
//! though most positions have far fewer movable pieces; Star2 pruning visits a fraction of
//! plain expectimax's nodes, the smaller the deeper the search (the book's performance
//! chapter *Agents' speed and tuning notes* has the node counts and speeds,
//! `cargo bench -p stickdice-agents --bench expectimax`). Use it for strong, reproducible play under a node budget, for exact
//! analysis of endgames (with a depth that reaches the end, the value is the exact expected
//! score; [`Expectimax::analyse`] gives every action's value) and for Sig wa Duqqan win
//! probabilities ([`Expectimax::value`]). It allocates nothing per node beyond the table.
//!
//! ```
//! use stickdice::{Agent, Game, Issiren, Throw};
//! use stickdice_agents::{build_str, Expectimax};
//!
//! let game = Issiren::with_seats(2).unwrap();
//! let mut state = game.initial_state();
//! game.apply_throw(&mut state, Throw::new(4)).unwrap();
//!
//! // As a boxed agent from a spec…
//! let mut agent = build_str("expectimax:depth=2", &game, 1).unwrap();
//! let action = agent.choose(&game, &state).unwrap();
//! assert!(game.check_action(&state, action).is_ok());
//!
//! // …or directly, for analysis: the value of each action for the mover.
//! let mut search = Expectimax::<Issiren>::new(Default::default(), 1);
//! let result = search.search(&game, &state, 2).unwrap();
//! assert!((0.0..=1.0).contains(&result.value));
//! let per_action = search.analyse(&game, &state, 2).unwrap();
//! assert!(per_action.iter().any(|&(a, v)| a == result.best && v == result.value));
//! ```

use core::fmt;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{RngExt as _, SeedableRng};
use stickdice::{
    decision_actions, ActionList, Agent, AgentError, Game, Node, Seat, SeatValues, Stop, MAX_SEATS,
};

use crate::best::FirstBest;
use crate::eval::{Evaluate, Evaluator};
use crate::params::{AgentInfo, ParamInfo, Params, SpecError};
use crate::solve::ExactValues;

/// The expectimax agent's spec entry.
pub const INFO: AgentInfo = AgentInfo {
    name: "expectimax",
    summary: "depth-limited expectimax over throws and decisions (max^n or paranoid; Star1/Star2 pruning for two seats; iterative deepening under a node or time budget)",
    params: &[
        ParamInfo {
            key: "depth",
            default: "-",
            help: "search depth in decisions (a throw followed by no decision counts as one); 3 when no budget is given, else the deepest iteration allowed (up to 64)",
        },
        ParamInfo {
            key: "nodes",
            default: "-",
            help: "node budget for iterative deepening (reproducible)",
        },
        ParamInfo {
            key: "millis",
            default: "-",
            help: "time budget in milliseconds for iterative deepening (depends on the machine)",
        },
        ParamInfo {
            key: "mode",
            default: "maxn",
            help: "with more than two seats: maxn (each seat maximises its own score) or paranoid (every other seat minimises the mover's)",
        },
        ParamInfo {
            key: "pruning",
            default: "star2",
            help: "none, star1 or star2: exact alpha-beta pruning at decisions and throws (two seats or paranoid only)",
        },
        ParamInfo {
            key: "tt",
            default: "true",
            help: "transposition table (ahash, keyed by state and depth): true or false",
        },
        crate::solve::TABLEBASE_PARAM,
        crate::eval::EVAL_PARAM,
    ],
};

/// The depth searched when no depth and no budget is given.
pub const DEFAULT_DEPTH: u32 = 3;
/// The deepest iteration of iterative deepening.
pub const MAX_DEPTH: u32 = 64;
/// The most entries the transposition table holds before it is cleared.
pub const TT_MAX_ENTRIES: usize = 1 << 18;

/// The table keeps only nodes with at least this many decisions to go: below that a
/// subtree costs about as much to search again as to look up. (So a node one decision
/// from the leaves is never in the table, and its entry is never probed.)
const TT_MIN_DEPTH: u32 = 2;

/// Windows are widened by this much at throw nodes, so rounding can never turn a cut
/// into a wrong one (values are in `[0, 1]`; rounding errors are near 1e-16).
const EPS: f64 = 1e-9;
/// A cut proven by a sum of bounds must clear the window by this much.
const TINY: f64 = 1e-12;
/// The lowest and highest values.
const LO: f64 = 0.0;
const HI: f64 = 1.0;

/// How seats other than two are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mode {
    /// Max^n: every seat maximises its own expected score.
    MaxN,
    /// Paranoid: the root's mover maximises its score, every other seat minimises it.
    Paranoid,
}

/// The pruning used in two-sided (two-seat or paranoid) searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Pruning {
    /// Plain expectimax: every node is searched.
    None,
    /// Alpha-beta at decisions, Star1 at throws.
    Star1,
    /// Alpha-beta at decisions, Star2 (probing, then Star1) at throws.
    Star2,
}

/// The settings of an [`Expectimax`] search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpectimaxConfig {
    /// The search depth in decisions (see the module docs); `None`: [`DEFAULT_DEPTH`]
    /// without a budget, [`MAX_DEPTH`] with one.
    pub depth: Option<u32>,
    /// The node budget for iterative deepening.
    pub nodes: Option<u64>,
    /// The time budget for iterative deepening, in milliseconds.
    pub millis: Option<u64>,
    /// Max^n or paranoid (more than two seats).
    pub mode: Mode,
    /// Pruning in two-sided searches.
    pub pruning: Pruning,
    /// Whether to keep a transposition table.
    pub tt: bool,
}

impl Default for ExpectimaxConfig {
    /// Depth 3, max^n, Star2, with a transposition table.
    fn default() -> Self {
        ExpectimaxConfig {
            depth: None,
            nodes: None,
            millis: None,
            mode: Mode::MaxN,
            pruning: Pruning::Star2,
            tt: true,
        }
    }
}

impl ExpectimaxConfig {
    /// Reads a checked spec's parameters.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] for a zero or malformed budget or an unknown choice.
    pub fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let depth = params.positive("depth")?;
        if let Some(d) = depth {
            if d > u64::from(MAX_DEPTH) {
                return Err(SpecError::BadValue {
                    agent: INFO.name,
                    key: "depth",
                    value: d.to_string(),
                    expected: format!("a depth from 1 to {MAX_DEPTH}"),
                });
            }
        }
        let mode = match params.choice("mode", &["maxn", "paranoid"])? {
            Some("paranoid") => Mode::Paranoid,
            _ => Mode::MaxN,
        };
        let pruning = match params.choice("pruning", &["none", "star1", "star2"])? {
            Some("none") => Pruning::None,
            Some("star1") => Pruning::Star1,
            _ => Pruning::Star2,
        };
        Ok(ExpectimaxConfig {
            depth: depth.map(|d| d as u32),
            nodes: params.positive("nodes")?,
            millis: params.positive("millis")?,
            mode,
            pruning,
            tt: params.flag("tt")?.unwrap_or(true),
        })
    }

    fn has_budget(&self) -> bool {
        self.nodes.is_some() || self.millis.is_some()
    }
}

impl fmt::Display for ExpectimaxConfig {
    /// The spec that builds this configuration (defaults left out).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(m) = self.millis {
            parts.push(format!("millis={m}"));
        }
        if self.mode == Mode::Paranoid {
            parts.push("mode=paranoid".into());
        }
        match self.pruning {
            Pruning::None => parts.push("pruning=none".into()),
            Pruning::Star1 => parts.push("pruning=star1".into()),
            Pruning::Star2 => {}
        }
        if !self.tt {
            parts.push("tt=false".into());
        }
        f.write_str("expectimax")?;
        if !parts.is_empty() {
            write!(f, ":{}", parts.join(","))?;
        }
        Ok(())
    }
}

/// The outcome of a search from a decision node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult<A> {
    /// The action chosen: best for the mover (ties broken by the seeded generator).
    pub best: A,
    /// Its value for the mover: the expected score under the search's model.
    pub value: f64,
    /// Every seat's value. Two seats: `[v, 1 − v]`; max^n: the vector of the chosen action;
    /// paranoid with more seats: the mover's value, and the rest of the total score
    /// (`seats / 2 − v`) shared equally among the others, who are searched as one side.
    pub values: SeatValues,
    /// How many actions share the best value (1 when it is unique).
    pub ties: usize,
    /// The depth of the deepest finished search.
    pub depth: u32,
    /// Nodes visited by the whole search (all iterations; each decision, throw, leaf and
    /// end node counts once per visit).
    pub nodes: u64,
    /// Whether every line reached the end of the game, so `value` is exact rather than
    /// resting on evaluations.
    pub exact: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct ScalarEntry<S, A> {
    state: S,
    value: f64,
    bound: Bound,
    horizon: bool,
    best: Option<A>,
}

#[derive(Clone, Copy, Debug)]
struct VectorEntry<S> {
    state: S,
    values: SeatValues,
    horizon: bool,
}

type Table<E> = HashMap<(u64, u32), E, ahash::RandomState>;

fn table<E>() -> Table<E> {
    HashMap::with_hasher(ahash::RandomState::with_seeds(
        0x9e37_79b9_7f4a_7c15,
        0xbf58_476d_1ce4_e5b9,
        0x94d0_49bb_1331_11eb,
        0x2545_f491_4f6c_dd1d,
    ))
}

/// Which searches the scalar table's values belong to: two-seat (perspective 0) or
/// paranoid from one seat's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Perspective(Seat);

/// Depth-limited expectimax search and the agent built on it. See the
/// [module docs](self).
pub struct Expectimax<G: Game> {
    config: ExpectimaxConfig,
    rng: stickdice::Rng,
    scalar_tt: Table<ScalarEntry<G::State, G::Action>>,
    vector_tt: Table<VectorEntry<G::State>>,
    tt_owner: Option<(G, Perspective)>,
    // Per search:
    seats: usize,
    perspective: Seat,
    pruning: Pruning,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    /// Ends searches early when stopped ([`Agent::set_stop`]).
    stop: Option<Stop>,
    aborted: bool,
    horizon: bool,
    order: [usize; stickdice::dice::MAX_THROW_OUTCOMES],
    late: bool,
    reuse: Option<Reuse<G::State, G::Action>>,
    /// Exact values (the `tablebase` parameter): a covered position is a leaf with its
    /// exact value, whatever the depth left.
    exact: Option<(String, Arc<dyn ExactValues<G>>)>,
    /// Played without a tablebase in a game that has one: named `tablebase=off`.
    exact_off: bool,
    /// The evaluation at the leaves and for ordering.
    evaluator: Evaluator<G>,
    /// The `eval` parameter as given, for [`Agent::name`].
    eval_source: Option<String>,
}

impl<G: Game> fmt::Debug for Expectimax<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Expectimax")
            .field("config", &self.config)
            .field("tt_entries", &(self.scalar_tt.len() + self.vector_tt.len()))
            .finish_non_exhaustive()
    }
}

/// A Star2 probe's result, handed to the full search of the same outcome so the probed
/// action is not searched twice: `action` in `child` was worth `value` searched with the
/// window `(lo, hi)` (fail-soft), which contains the full search's window.
#[derive(Clone, Copy, Debug)]
struct Reuse<S, A> {
    child: S,
    action: A,
    value: f64,
    lo: f64,
    hi: f64,
    horizon: bool,
}

/// What a throw node's search knows of each outcome: its bounds, its exact value where it
/// was searched, and the probe to reuse.
struct Bounds<'a, S, A> {
    lo: &'a mut [f64; stickdice::dice::MAX_THROW_OUTCOMES],
    hi: &'a mut [f64; stickdice::dice::MAX_THROW_OUTCOMES],
    vals: &'a mut [f64; stickdice::dice::MAX_THROW_OUTCOMES],
    searched: &'a mut [bool; stickdice::dice::MAX_THROW_OUTCOMES],
    probes: &'a mut [Option<Reuse<S, A>>; stickdice::dice::MAX_THROW_OUTCOMES],
}

/// What a root search found, before ties are broken.
struct RootOutcome<A> {
    /// The root's actions with their values for the mover, in search order (a value is
    /// exact for the best actions, else possibly an upper bound).
    values: Vec<(A, f64)>,
    /// The best value for the mover.
    value: f64,
    /// The actions with the best value, each with every seat's value (under max^n, tied
    /// actions can differ for the other seats).
    ties: Vec<(A, SeatValues)>,
}

impl<G: Evaluate> Expectimax<G> {
    /// A search with these settings, its generator seeded with `seed` (used only to break
    /// ties at the root).
    pub fn new(config: ExpectimaxConfig, seed: u64) -> Self {
        Expectimax {
            config,
            rng: stickdice::Rng::seed_from_u64(seed),
            scalar_tt: table(),
            vector_tt: table(),
            tt_owner: None,
            seats: 2,
            perspective: 0,
            pruning: config.pruning,
            nodes: 0,
            limit: u64::MAX,
            deadline: None,
            stop: None,
            aborted: false,
            horizon: false,
            order: [0; stickdice::dice::MAX_THROW_OUTCOMES],
            late: true,
            reuse: None,
            exact: None,
            exact_off: false,
            evaluator: Evaluator::default(),
            eval_source: None,
        }
    }

    /// The same search with another evaluation (`source` names it in [`Agent::name`]).
    pub fn with_evaluator(mut self, source: &str, evaluator: Evaluator<G>) -> Self {
        self.evaluator = evaluator;
        self.eval_source = Some(source.to_string());
        self
    }

    /// Uses exact values (a tablebase) for the positions they cover: such a position is
    /// searched no further and valued exactly. `source` names them in [`Agent::name`].
    pub fn with_exact_values(mut self, source: &str, values: Arc<dyn ExactValues<G>>) -> Self {
        self.exact = Some((source.to_string(), values));
        self.exact_off = false;
        self
    }

    /// The exact scores of `state`, if a tablebase is in use and covers it.
    #[inline]
    fn exact_scores(&self, game: &G, state: &G::State) -> Option<SeatValues> {
        self.exact.as_ref()?.1.scores(game, state)
    }

    /// From a checked spec.
    ///
    /// # Errors
    /// See [`ExpectimaxConfig::from_params`].
    pub fn from_params(params: &Params<'_>, seed: u64) -> Result<Self, SpecError> {
        let mut agent = Self::new(ExpectimaxConfig::from_params(params)?, seed);
        let (eval_source, evaluator) = crate::eval::eval_param::<G>(params)?;
        agent.evaluator = evaluator;
        agent.eval_source = eval_source;
        Ok(match crate::solve::tablebase_param::<G>(params)? {
            crate::solve::TablebaseChoice::Use((source, values)) => {
                agent.with_exact_values(&source, values)
            }
            crate::solve::TablebaseChoice::Off => Expectimax {
                exact_off: true,
                ..agent
            },
            crate::solve::TablebaseChoice::NotApplicable => agent,
        })
    }

    /// The settings.
    pub fn config(&self) -> &ExpectimaxConfig {
        &self.config
    }

    /// Empties the transposition table.
    pub fn clear_table(&mut self) {
        self.scalar_tt.clear();
        self.vector_tt.clear();
    }

    /// Searches a decision node to exactly `depth` (no budget, no iterative deepening),
    /// with the configured mode, pruning and table, and chooses the best action.
    ///
    /// # Errors
    /// [`AgentError::GameOver`] or [`AgentError::ThrowDue`] when `state` is not a decision
    /// node; [`AgentError::Unsupported`] for a depth of 0.
    pub fn search(
        &mut self,
        game: &G,
        state: &G::State,
        depth: u32,
    ) -> Result<SearchResult<G::Action>, AgentError> {
        let mut legal = ActionList::new();
        let seat = decision_actions(game, state, &mut legal)?;
        check_depth(depth)?;
        self.begin(game, seat, None, None);
        let root = self
            .root(game, state, seat, &legal, depth, false)
            .expect("a search without a budget finishes");
        Ok(self.finish(root, depth))
    }

    /// Every legal action of a decision node with its exact value for the mover at
    /// `depth` (each action searched with a full window), in the order of
    /// [`Game::legal_actions`]. For analysis: costs more than [`Expectimax::search`].
    ///
    /// # Errors
    /// As [`Expectimax::search`].
    pub fn analyse(
        &mut self,
        game: &G,
        state: &G::State,
        depth: u32,
    ) -> Result<Vec<(G::Action, f64)>, AgentError> {
        let mut legal = ActionList::new();
        let seat = decision_actions(game, state, &mut legal)?;
        check_depth(depth)?;
        self.begin(game, seat, None, None);
        let mut root = self
            .root(game, state, seat, &legal, depth, true)
            .expect("a search without a budget finishes");
        root.values
            .sort_by_key(|(a, _)| legal.iter().position(|b| b == a));
        Ok(root.values)
    }

    /// Every seat's value of any state at `depth`: at the end the scores; at a throw or a
    /// decision the expected scores of the configured search (two seats: `[v, 1 − v]`;
    /// paranoid with more seats: as [`SearchResult::values`], from the point of view of
    /// the seat to move). With no decision left in the game (Sig wa Duqqan) and a depth
    /// that reaches the end, this is the exact expected score of every seat.
    ///
    /// # Errors
    /// [`AgentError::Unsupported`] for a depth of 0.
    pub fn value(
        &mut self,
        game: &G,
        state: &G::State,
        depth: u32,
    ) -> Result<SeatValues, AgentError> {
        check_depth(depth)?;
        let seat = game.node(state).seat().unwrap_or(0);
        self.begin(game, seat, None, None);
        Ok(if self.is_scalar() {
            let v = self.ab(game, state, depth, LO - EPS, HI + EPS);
            self.scalar_values(v)
        } else {
            self.maxn(game, state, depth)
        })
    }

    /// The budgeted search the agent plays with: iterative deepening under the configured
    /// node or time budget up to the configured depth, or one search to the configured
    /// depth (default [`DEFAULT_DEPTH`]) when there is no budget.
    ///
    /// # Errors
    /// As [`Expectimax::search`].
    pub fn think(
        &mut self,
        game: &G,
        state: &G::State,
    ) -> Result<SearchResult<G::Action>, AgentError> {
        let mut legal = ActionList::new();
        let seat = decision_actions(game, state, &mut legal)?;
        let budget = self.config.has_budget();
        let max_depth = self
            .config
            .depth
            .unwrap_or(if budget { MAX_DEPTH } else { DEFAULT_DEPTH });
        let deadline = self
            .config
            .millis
            .map(|m| Instant::now() + Duration::from_millis(m));
        self.begin(game, seat, None, None);
        // Plain max^n or plain expectimax gains nothing from deepening without a budget.
        let deepen = budget || (self.is_scalar() && self.pruning != Pruning::None);
        if !deepen {
            // Only a stop ends a search without a budget early.
            let root = self
                .root(game, state, seat, &legal, max_depth, false)
                .ok_or(AgentError::Stopped)?;
            return Ok(self.finish(root, max_depth));
        }
        let mut done: Option<(RootOutcome<G::Action>, u32)> = None;
        let mut order = legal.clone();
        for depth in 1..=max_depth {
            if depth == 2 {
                // Depth 1 always finishes; the budget binds from depth 2 on.
                self.limit = self.config.nodes.unwrap_or(u64::MAX);
                self.deadline = deadline;
                if self.over_budget() {
                    break;
                }
            }
            self.horizon = false;
            match self.root(game, state, seat, &order, depth, false) {
                None => break,
                Some(root) => {
                    // Next iteration: best first, then by this iteration's values.
                    let mut vals = root.values.clone();
                    vals.sort_by(|x, y| y.1.total_cmp(&x.1));
                    order.clear();
                    order.extend(vals.iter().map(|(a, _)| *a));
                    let exact = !self.horizon;
                    done = Some((root, depth));
                    if exact {
                        break;
                    }
                }
            }
        }
        // Depth 1 always finishes unless stopped.
        let (root, depth) = done.ok_or(AgentError::Stopped)?;
        Ok(self.finish(root, depth))
    }

    // ---- bookkeeping ------------------------------------------------------------------

    fn is_scalar(&self) -> bool {
        self.seats == 2 || self.config.mode == Mode::Paranoid
    }

    fn begin(&mut self, game: &G, seat: Seat, limit: Option<u64>, deadline: Option<Instant>) {
        self.seats = game.seats();
        self.perspective = if self.seats == 2 { 0 } else { seat };
        self.pruning = if self.is_scalar() {
            self.config.pruning
        } else {
            Pruning::None
        };
        self.nodes = 0;
        self.limit = limit.unwrap_or(u64::MAX);
        self.deadline = deadline;
        self.aborted = false;
        self.horizon = false;
        let owner = (
            game.clone(),
            Perspective(if self.is_scalar() {
                self.perspective
            } else {
                0
            }),
        );
        if self.tt_owner.as_ref() != Some(&owner) {
            self.clear_table();
            self.tt_owner = Some(owner);
        }
        // Throw outcomes from the most likely down (stable on ties).
        let outcomes = game.throw_outcomes();
        let mut idx: ActionList<usize> = (0..outcomes.len()).collect();
        idx.sort_by(|&a, &b| outcomes[b].probability.total_cmp(&outcomes[a].probability));
        self.order[..idx.len()].copy_from_slice(&idx);
    }

    fn over_budget(&mut self) -> bool {
        if self.nodes > self.limit {
            self.aborted = true;
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d {
                self.aborted = true;
            }
        }
        if self.stop.as_ref().is_some_and(Stop::is_stopped) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Counts a node; true when the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0 && (self.deadline.is_some() || self.stop.is_some()) {
            self.over_budget();
        }
        self.aborted
    }

    fn is_max(&self, seat: Seat) -> bool {
        seat == self.perspective
    }

    /// The value of a two-sided search from `evaluation` (or the final scores).
    #[inline]
    fn scalar_leaf(&self, e: &SeatValues) -> f64 {
        if self.seats == 2 {
            (e[0] + (1.0 - e[1])) * 0.5
        } else {
            e[self.perspective]
        }
    }

    fn scalar_values(&self, v: f64) -> SeatValues {
        let mut out = [0.0; MAX_SEATS];
        if self.seats == 2 {
            out[0] = v;
            out[1] = 1.0 - v;
        } else {
            let rest = (self.seats as f64 / 2.0 - v) / (self.seats - 1) as f64;
            for (s, o) in out.iter_mut().enumerate().take(self.seats) {
                *o = if s == self.perspective { v } else { rest };
            }
        }
        out
    }

    /// The mover's value from a scalar value.
    fn mover_value(&self, seat: Seat, v: f64) -> f64 {
        if self.seats == 2 && seat == 1 {
            1.0 - v
        } else {
            v
        }
    }

    fn finish(&mut self, root: RootOutcome<G::Action>, depth: u32) -> SearchResult<G::Action> {
        let (best, values) = if root.ties.len() == 1 {
            root.ties[0]
        } else {
            root.ties[self.rng.random_range(0..root.ties.len())]
        };
        SearchResult {
            best,
            value: root.value,
            values,
            ties: root.ties.len(),
            depth,
            nodes: self.nodes,
            exact: !self.horizon,
        }
    }

    // ---- the root ---------------------------------------------------------------------

    /// Searches the root's actions in `order` to `depth`; `None` if the budget ran out.
    /// With `full`, every action gets a full window (exact values for all).
    fn root(
        &mut self,
        game: &G,
        state: &G::State,
        seat: Seat,
        order: &[G::Action],
        depth: u32,
        full: bool,
    ) -> Option<RootOutcome<G::Action>> {
        let mut values = Vec::with_capacity(order.len());
        let mut ties: Vec<(G::Action, SeatValues)> = Vec::new();
        let mut best_mover = f64::NEG_INFINITY;
        if self.is_scalar() {
            let maximize = self.is_max(seat);
            let mut best = if maximize {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            for &a in order {
                let mut child = *state;
                game.apply_action_unchecked(&mut child, a);
                // The window keeps every action whose value could equal the best exact.
                let prune = self.pruning != Pruning::None && !full && best.is_finite();
                let (lo, hi) = match (prune, maximize) {
                    (false, _) => (LO - EPS, HI + EPS),
                    (true, true) => (best - TINY, HI + EPS),
                    (true, false) => (LO - EPS, best + TINY),
                };
                let v = self.ab(game, &child, depth - 1, lo, hi);
                if self.aborted {
                    return None;
                }
                values.push((a, self.mover_value(seat, v)));
                let better = if maximize { v > best } else { v < best };
                if better {
                    best = v;
                    ties.clear();
                    ties.push((a, self.scalar_values(v)));
                } else if v == best {
                    ties.push((a, self.scalar_values(v)));
                }
            }
            best_mover = self.mover_value(seat, best);
        } else {
            for &a in order {
                let mut child = *state;
                game.apply_action_unchecked(&mut child, a);
                let v = self.maxn(game, &child, depth - 1);
                if self.aborted {
                    return None;
                }
                values.push((a, v[seat]));
                if v[seat] > best_mover {
                    best_mover = v[seat];
                    ties.clear();
                    ties.push((a, v));
                } else if v[seat] == best_mover {
                    ties.push((a, v));
                }
            }
        }
        // Ties in the order of the legal actions, so the seeded choice does not depend on
        // the search order.
        let mut legal = ActionList::new();
        game.legal_actions(state, &mut legal);
        ties.sort_by_key(|(a, _)| legal.iter().position(|b| b == a));
        Some(RootOutcome {
            values,
            value: best_mover,
            ties,
        })
    }

    // ---- two-sided search (two seats, paranoid) ----------------------------------------

    /// The value of `state` for the maximising side with `d` decisions to go, fail-soft
    /// within the window `(alpha, beta)`: a result `≤ alpha` is an upper bound, `≥ beta` a
    /// lower bound, anything between is exact (and bit-for-bit what plain expectimax
    /// computes). Plain search ignores the window.
    fn ab(&mut self, game: &G, state: &G::State, d: u32, alpha: f64, beta: f64) -> f64 {
        // Most nodes have no probe to reuse: test before moving the (large) option out.
        let reuse = if self.reuse.is_some() {
            self.reuse.take().filter(|r| r.child == *state)
        } else {
            None
        };
        if self.tick() {
            return 0.5;
        }
        let node = game.node(state);
        match node {
            Node::End => return self.scalar_leaf(&self.evaluator.evaluate(game, state)),
            _ if self.exact.is_some() => {
                if let Some(x) = self.exact_scores(game, state) {
                    return self.scalar_leaf(&x);
                }
                if d == 0 {
                    self.horizon = true;
                    return self.scalar_leaf(&self.evaluator.evaluate(game, state));
                }
            }
            _ if d == 0 => {
                self.horizon = true;
                return self.scalar_leaf(&self.evaluator.evaluate(game, state));
            }
            _ => {}
        }
        let key = if self.config.tt && d >= TT_MIN_DEPTH {
            Some(game.state_key(state))
        } else {
            None
        };
        let mut hint = None;
        if let Some(k) = key {
            if let Some(e) = self.scalar_tt.get(&(k, d)) {
                if e.state == *state {
                    let usable = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.value >= beta,
                        Bound::Upper => e.value <= alpha,
                    };
                    if usable {
                        self.horizon |= e.horizon;
                        return e.value;
                    }
                    hint = e.best;
                }
            }
            if hint.is_none() && d > TT_MIN_DEPTH {
                if let Some(e) = self.scalar_tt.get(&(k, d - 1)) {
                    if e.state == *state {
                        hint = e.best;
                    }
                }
            }
        }
        let horizon_before = self.horizon;
        self.horizon = false;
        let (value, best) = match node {
            Node::Decide(seat) => self.ab_decide(game, state, seat, d, alpha, beta, hint, reuse),
            Node::Throw(_) => (self.ab_throw(game, state, d, alpha, beta), None),
            Node::End => unreachable!("handled above"),
        };
        let horizon = self.horizon;
        self.horizon |= horizon_before;
        if self.aborted {
            return 0.5;
        }
        if let Some(k) = key {
            let bound = if self.pruning == Pruning::None {
                Bound::Exact
            } else if value <= alpha {
                Bound::Upper
            } else if value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            if self.scalar_tt.len() >= TT_MAX_ENTRIES {
                self.scalar_tt.clear();
            }
            self.scalar_tt.insert(
                (k, d),
                ScalarEntry {
                    state: *state,
                    value,
                    bound,
                    horizon,
                    best,
                },
            );
        }
        value
    }

    #[allow(clippy::too_many_arguments)]
    fn ab_decide(
        &mut self,
        game: &G,
        state: &G::State,
        seat: Seat,
        d: u32,
        alpha: f64,
        beta: f64,
        hint: Option<G::Action>,
        reuse: Option<Reuse<G::State, G::Action>>,
    ) -> (f64, Option<G::Action>) {
        let mut legal = ActionList::new();
        game.legal_actions(state, &mut legal);
        let maximize = self.is_max(seat);
        let prune = self.pruning != Pruning::None;
        if prune && d >= 2 && legal.len() > 1 {
            self.order_by_evaluation(game, state, maximize, &mut legal);
        }
        // The probed action first (its value is known), else the table's best.
        let reuse = reuse.filter(|r| r.lo <= alpha && beta <= r.hi);
        if let Some(h) = reuse.map(|r| r.action).or(hint) {
            if let Some(i) = legal.iter().position(|&a| a == h) {
                legal[..=i].rotate_right(1);
            }
        }
        let (mut a, mut b) = (alpha, beta);
        let mut best = if maximize {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_move = legal[0];
        for (k, &act) in legal.iter().enumerate() {
            let mut child = *state;
            game.apply_action_unchecked(&mut child, act);
            let v = match reuse {
                Some(r) if k == 0 && r.action == act => {
                    self.horizon |= r.horizon;
                    r.value
                }
                _ => {
                    self.late = k > 0;
                    self.ab(game, &child, d - 1, a, b)
                }
            };
            if self.aborted {
                return (0.5, None);
            }
            if maximize {
                if v > best {
                    best = v;
                    best_move = act;
                }
                if prune {
                    if best > a {
                        a = best;
                    }
                    if best >= b {
                        break;
                    }
                }
            } else {
                if v < best {
                    best = v;
                    best_move = act;
                }
                if prune {
                    if best < b {
                        b = best;
                    }
                    if best <= a {
                        break;
                    }
                }
            }
        }
        (best, Some(best_move))
    }

    /// Sorts `legal` best first for the mover by the evaluation of the state each action
    /// leads to (stable, so equal actions keep the game's order). Used where a subtree
    /// is worth far more than one evaluation per action.
    fn order_by_evaluation(
        &self,
        game: &G,
        state: &G::State,
        maximize: bool,
        legal: &mut ActionList<G::Action>,
    ) {
        let mut keys = [0.0f64; stickdice::MAX_ACTIONS];
        let n = legal.len().min(stickdice::MAX_ACTIONS);
        for (k, &a) in keys.iter_mut().zip(legal.iter()) {
            let mut c = *state;
            game.apply_action_unchecked(&mut c, a);
            let v = self.scalar_leaf(&self.evaluator.evaluate(game, &c));
            *k = if maximize { -v } else { v };
        }
        // Insertion sort: at most a dozen actions, no allocation.
        for i in 1..n {
            let mut j = i;
            while j > 0 && keys[j - 1] > keys[j] {
                keys.swap(j - 1, j);
                legal.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// The depth a throw's outcome is searched with: a decision after it uses up the
    /// depth itself; anything else (another throw, the end) counts the throw as one.
    #[inline]
    fn child_depth(game: &G, child: &G::State, d: u32) -> u32 {
        match game.node(child) {
            Node::Decide(_) => d,
            _ => d - 1,
        }
    }

    fn ab_throw(&mut self, game: &G, state: &G::State, d: u32, alpha: f64, beta: f64) -> f64 {
        let outcomes = game.throw_outcomes();
        let n = outcomes.len();
        // Each outcome's child in a plain array (at most `MAX_THROW_OUTCOMES` outcomes):
        // pushing onto a `SmallVec` checks its length and capacity for every child.
        let mut children = [*state; stickdice::dice::MAX_THROW_OUTCOMES];
        for (c, o) in children.iter_mut().zip(outcomes) {
            game.apply_throw_unchecked(c, o.throw);
        }
        let children = &children[..n];
        if self.pruning == Pruning::None {
            let mut sum = 0.0;
            for (o, c) in outcomes.iter().zip(children) {
                let v = self.ab(game, c, Self::child_depth(game, c, d), alpha, beta);
                if self.aborted {
                    return 0.5;
                }
                sum += o.probability * v;
            }
            return sum;
        }
        let order = self.order;
        let mut lo = [LO; stickdice::dice::MAX_THROW_OUTCOMES];
        let mut hi = [HI; stickdice::dice::MAX_THROW_OUTCOMES];
        let p = |i: usize| outcomes[i].probability;

        // A probe of a maximising outcome can only prove a cut above `beta`, of a
        // minimising one only below `alpha`; at a node whose window reaches past the
        // bounds on that side it cannot help.
        let late = core::mem::replace(&mut self.late, true);
        let can_cut_high = beta <= HI;
        let can_cut_low = alpha >= LO;
        let mut vals = [0.0; stickdice::dice::MAX_THROW_OUTCOMES];
        let mut searched = [false; stickdice::dice::MAX_THROW_OUTCOMES];
        let mut probes: [Option<Reuse<G::State, G::Action>>; stickdice::dice::MAX_THROW_OUTCOMES] =
            [None; stickdice::dice::MAX_THROW_OUTCOMES];
        if self.pruning == Pruning::Star2 && late && (can_cut_high || can_cut_low) {
            let mut b = Bounds {
                lo: &mut lo,
                hi: &mut hi,
                vals: &mut vals,
                searched: &mut searched,
                probes: &mut probes,
            };
            let cuts = (can_cut_high, can_cut_low);
            if let Some(v) =
                self.probe_outcomes(game, outcomes, children, d, alpha, beta, cuts, &mut b)
            {
                return v;
            }
        }

        // Star1: each outcome with the window that would let it decide the node.
        let mut done: f64 = (0..n)
            .filter(|&j| searched[j])
            .map(|j| p(j) * vals[j])
            .sum();
        for &i in &order[..n] {
            if searched[i] {
                continue;
            }
            let mut rest_lo = 0.0;
            let mut rest_hi = 0.0;
            for j in 0..n {
                if j != i && !searched[j] {
                    rest_lo += p(j) * lo[j];
                    rest_hi += p(j) * hi[j];
                }
            }
            let wa = (alpha - done - rest_hi) / p(i) - EPS;
            let wb = (beta - done - rest_lo) / p(i) + EPS;
            let c = &children[i];
            self.reuse = probes[i];
            self.late = true;
            let v = self.ab(game, c, Self::child_depth(game, c, d), wa, wb);
            if self.aborted {
                return 0.5;
            }
            if v <= wa {
                return done + p(i) * v + rest_hi;
            }
            if v >= wb {
                return done + p(i) * v + rest_lo;
            }
            vals[i] = v;
            done += p(i) * v;
            searched[i] = true;
        }
        // Every outcome exact: the average summed in the plain search's order.
        let mut sum = 0.0;
        for (i, o) in outcomes.iter().enumerate() {
            sum += o.probability * vals[i];
        }
        sum
    }

    /// Star2's probing at a throw node: one action of each outcome's decision bounds that
    /// outcome (in `b`); an outcome that ends the game, or whose decision has a single
    /// action, is searched outright and kept. `Some` value once the bounds decide the node
    /// (or the search is aborted); `cuts` says whether a cut above `beta` and below
    /// `alpha` can be proved.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn probe_outcomes(
        &mut self,
        game: &G,
        outcomes: &[stickdice::Outcome],
        children: &[G::State],
        d: u32,
        alpha: f64,
        beta: f64,
        (can_cut_high, can_cut_low): (bool, bool),
        b: &mut Bounds<'_, G::State, G::Action>,
    ) -> Option<f64> {
        let n = children.len();
        let order = self.order;
        let p = |i: usize| outcomes[i].probability;
        let Bounds {
            lo,
            hi,
            vals,
            searched,
            probes,
        } = b;
        // Probing: one action of each outcome's decision bounds that outcome. An
        // outcome that ends the game, or whose decision has a single action, is
        // searched outright (the probe would be the whole search), and kept.
        let mut legal = ActionList::new();
        for &i in &order[..n] {
            let c = &children[i];
            let cd = Self::child_depth(game, c, d);
            let (maximize, whole) = match game.node(c) {
                Node::Throw(_) => continue,
                Node::End => (true, true),
                Node::Decide(seat) => {
                    game.legal_actions(c, &mut legal);
                    (self.is_max(seat), legal.len() == 1)
                }
            };
            if !whole && ((maximize && !can_cut_high) || (!maximize && !can_cut_low)) {
                continue;
            }
            let mut rest_lo = 0.0;
            let mut rest_hi = 0.0;
            for j in 0..n {
                if j != i {
                    rest_lo += p(j) * lo[j];
                    rest_hi += p(j) * hi[j];
                }
            }
            let wa = (alpha - rest_hi) / p(i) - EPS;
            let wb = (beta - rest_lo) / p(i) + EPS;
            if whole {
                let w = self.ab(game, c, cd, wa, wb);
                if self.aborted {
                    return Some(0.5);
                }
                if w <= wa {
                    hi[i] = w.clamp(LO, hi[i]);
                } else if w >= wb {
                    lo[i] = w.clamp(lo[i], HI);
                } else {
                    vals[i] = w;
                    lo[i] = w;
                    hi[i] = w;
                    searched[i] = true;
                }
            } else {
                let first = self.first_action(game, c, cd, maximize, &mut legal);
                let mut gc = *c;
                game.apply_action_unchecked(&mut gc, first);
                let outer = core::mem::replace(&mut self.horizon, false);
                self.late = false;
                let w = self.ab(game, &gc, cd - 1, wa, wb);
                if self.aborted {
                    return Some(0.5);
                }
                probes[i] = Some(Reuse {
                    child: *c,
                    action: first,
                    value: w,
                    lo: wa,
                    hi: wb,
                    horizon: self.horizon,
                });
                self.horizon |= outer;
                if maximize {
                    // The outcome is worth at least this action's value.
                    if w > wa && w > lo[i] {
                        lo[i] = w.min(HI);
                    }
                } else if w < wb && w < hi[i] {
                    hi[i] = w.max(LO);
                }
            }
            let sum_lo: f64 = (0..n).map(|j| p(j) * lo[j]).sum();
            if sum_lo >= beta + TINY {
                return Some(sum_lo);
            }
            let sum_hi: f64 = (0..n).map(|j| p(j) * hi[j]).sum();
            if sum_hi <= alpha - TINY {
                return Some(sum_hi);
            }
        }
        None
    }

    /// The action a probe tries: the best one the table knows, else (with a subtree
    /// below worth it) the best by evaluation, else the first legal one. `legal` holds the
    /// state's legal actions.
    fn first_action(
        &self,
        game: &G,
        state: &G::State,
        d: u32,
        maximize: bool,
        legal: &mut ActionList<G::Action>,
    ) -> G::Action {
        if self.config.tt && d >= TT_MIN_DEPTH {
            let k = game.state_key(state);
            for dd in [d, d - 1].into_iter().filter(|&dd| dd >= TT_MIN_DEPTH) {
                if let Some(e) = self.scalar_tt.get(&(k, dd)) {
                    if e.state == *state {
                        if let Some(b) = e.best {
                            return b;
                        }
                    }
                }
            }
        }
        if d >= 2 {
            self.order_by_evaluation(game, state, maximize, legal);
        }
        legal[0]
    }

    // ---- max^n ------------------------------------------------------------------------

    /// Every seat's expected score with `d` decisions to go, each seat maximising its own.
    fn maxn(&mut self, game: &G, state: &G::State, d: u32) -> SeatValues {
        if self.tick() {
            return [0.0; MAX_SEATS];
        }
        let node = game.node(state);
        match node {
            Node::End => return self.evaluator.evaluate(game, state),
            _ if self.exact.is_some() => {
                if let Some(x) = self.exact_scores(game, state) {
                    return x;
                }
                if d == 0 {
                    self.horizon = true;
                    return self.evaluator.evaluate(game, state);
                }
            }
            _ if d == 0 => {
                self.horizon = true;
                return self.evaluator.evaluate(game, state);
            }
            _ => {}
        }
        let key = if self.config.tt && d >= TT_MIN_DEPTH {
            Some(game.state_key(state))
        } else {
            None
        };
        if let Some(k) = key {
            if let Some(e) = self.vector_tt.get(&(k, d)) {
                if e.state == *state {
                    self.horizon |= e.horizon;
                    return e.values;
                }
            }
        }
        let horizon_before = self.horizon;
        self.horizon = false;
        let values = match node {
            Node::Decide(seat) => {
                let mut legal = ActionList::new();
                game.legal_actions(state, &mut legal);
                // The first of the mover's best children (ties keep the earliest).
                let mut best = FirstBest::new([f64::NEG_INFINITY; MAX_SEATS]);
                for &a in &legal {
                    let mut child = *state;
                    game.apply_action_unchecked(&mut child, a);
                    let v = self.maxn(game, &child, d - 1);
                    if self.aborted {
                        return [0.0; MAX_SEATS];
                    }
                    best.offer(v, v[seat]);
                }
                best.item()
            }
            Node::Throw(_) => {
                let mut sum = [0.0; MAX_SEATS];
                for o in game.throw_outcomes() {
                    let mut child = *state;
                    game.apply_throw_unchecked(&mut child, o.throw);
                    let v = self.maxn(game, &child, Self::child_depth(game, &child, d));
                    if self.aborted {
                        return [0.0; MAX_SEATS];
                    }
                    for (s, x) in sum.iter_mut().enumerate().take(self.seats) {
                        *x += o.probability * v[s];
                    }
                }
                sum
            }
            Node::End => unreachable!("handled above"),
        };
        let horizon = self.horizon;
        self.horizon |= horizon_before;
        if let Some(k) = key {
            if self.vector_tt.len() >= TT_MAX_ENTRIES {
                self.vector_tt.clear();
            }
            self.vector_tt.insert(
                (k, d),
                VectorEntry {
                    state: *state,
                    values,
                    horizon,
                },
            );
        }
        values
    }
}

fn check_depth(depth: u32) -> Result<(), AgentError> {
    if depth == 0 {
        Err(AgentError::Unsupported(
            "expectimax: the search depth must be at least 1".into(),
        ))
    } else {
        Ok(())
    }
}

impl<G: Evaluate> Agent<G> for Expectimax<G> {
    fn name(&self) -> String {
        let mut name = self.config.to_string();
        let tablebase = match &self.exact {
            Some((source, _)) => Some(source.as_str()),
            None if self.exact_off => Some("off"),
            None => None,
        };
        let extras = [
            tablebase.map(|source| format!("tablebase={source}")),
            self.eval_source
                .as_ref()
                .map(|source| format!("eval={source}")),
        ];
        for extra in extras.into_iter().flatten() {
            name.push(if name.contains(':') { ',' } else { ':' });
            name += &extra;
        }
        name
    }

    fn choose(&mut self, game: &G, state: &G::State) -> Result<G::Action, AgentError> {
        let mut legal = ActionList::new();
        decision_actions(game, state, &mut legal)?;
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        Ok(self.think(game, state)?.best)
    }

    fn new_game(&mut self, _game: &G, _seat: Seat) {
        self.clear_table();
    }

    fn set_stop(&mut self, stop: Stop) {
        self.stop = Some(stop);
    }
}
