//! Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and
//! Whitehouse 2012), with the throws still to come as the hidden information.
//!
//! # What it does
//!
//! Where [`mcts`](crate::mcts) keeps a chance node for every throw, ISMCTS keeps
//! **decision nodes only**: each iteration fixes a *determinization* — one possible
//! sequence of throws — and walks the tree within it.
//!
//! * A tree node is an *information set* of the seat deciding there: the actions from the
//!   root, the seat (an extra throw may keep the turn in one world and pass it in
//!   another), and — by default, `throws=public` — the throws made since the previous
//!   decision. In the stick-dice games nothing is hidden: a throw is public once made,
//!   and the decider knows it. With `throws=hidden` (the original open-loop variant) the
//!   throws are left out, so one node mixes every world in which the action sequence
//!   was possible: a decision after a throw of 1 and one after a throw of 6 share their
//!   statistics although the decider can tell them apart. With public throws every
//!   node is one position, the determinization hides nothing, and the search is UCT
//!   with the throws sampled, like MCTS.
//! * The actions legal at a node may differ between the worlds that reach it, so
//!   selection uses **availability counts**: UCB1 over the actions legal in this
//!   iteration's world, `mean + c·√(ln A / n)` where `A` counts the iterations in which
//!   the action was available; with `throws=public` every action of a node is always
//!   available and `A` is the node's visits.
//! * **The prior** (`prior=k`, default 10, as MCTS's): the first visit of a node adds
//!   every legal action at once, each with `k` virtual visits at [`Evaluate::evaluate`]
//!   of its result for the decider, which UCB1 counts in its mean and visits
//!   (`(value + k·prior)/(n + k)`, as [`mcts`](crate::mcts) selects); `prior=0` tries
//!   untried actions first, in a random order.
//! * each seat maximises its own score (a reward per seat), so any number of seats plays;
//! * a new action edge ends the walk, then a playout (greedy with probability 1 − ε, or
//!   random) plays on, and its rewards are backed up: the scores if the game ends, or,
//!   once the playout has made `cutoff` throws, [`Evaluate::evaluate`] of the state
//!   before the next throw (as in [`mcts`](crate::mcts)).
//! * `tablebase=` as MCTS's: a position below the root that the exact values cover ends
//!   the walk with them; a root whose every child they cover is played exactly, unsearched.
//!
//! The throws of an iteration are drawn lazily from the agent's generator as the walk and
//! the playout reach them. Since a throw is seen only once it happens, this is exactly the
//! same as drawing the iteration's whole throw sequence up front. The final action is the
//! root action with the most visits (ties: the higher mean, then the order of the legal
//! actions).
//!
//! # Parameters (`ismcts:key=value,…`)
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `iterations` | 10 000 if `millis` is not given | iterations per search |
//! | `millis` | – | wall-clock budget per search; with `iterations` too, whichever ends first |
//! | `c` | 0.2 | UCB1 exploration constant (rewards are scores and evaluations in `[0, 1]`) |
//! | `playout` | `greedy` | `greedy` (the [`Evaluate`] greedy move with probability 1 − ε), or `random` |
//! | `epsilon` | 0.1 | ε of greedy playouts |
//! | `cutoff` | 4 | throws a playout makes before it stops and is scored by [`Evaluate::evaluate`]; 0 plays to the end |
//! | `prior` | 10 | virtual visits at the evaluation of each action's result; 0: none |
//! | `tablebase` | `off` | as MCTS's: the Issiren endgame tablebase (see [`crate::solve::TABLEBASE_PARAM`]) |
//! | `throws` | `public` | `public`: the throws since the previous decision are part of a node; `hidden`: they are not (open loop) |
//!
//! Same seed, same choices with an `iterations` budget; `millis` depends on the machine.
//! For a game without an evaluation, [`IsmctsAgent::with_random_playouts`] takes
//! [`IsmctsConfig::without_evaluation`]: random playouts to the end, no prior
//! (`ismcts:playout=random,cutoff=0,prior=0`).
//!
//! With public throws and the prior (the defaults) it plays as strongly as MCTS at equal
//! iterations on Issiren; hidden throws and no prior are weaker (the book's performance
//! chapter *Agents' speed and tuning notes* has the matches). It does not beat MCTS: with
//! public throws it *is* MCTS's search with sampled throws instead of chance nodes holding
//! every throw, without subtree reuse; the information is the same, so there is nothing
//! hidden for it to exploit.
//!
//! # When to use it, and what it costs
//!
//! With `throws=hidden` it has a different bias from MCTS: open-loop statistics per action
//! sequence, learning which plans are good on average over the dice rather than per
//! throw, in a much smaller tree (no throw nodes), but statistics deeper than the first
//! throw mix very different positions; it is weaker. With the defaults it
//! plays as MCTS does at equal iterations. Cost per iteration: a walk (a legal-action
//! listing and an edge lookup per decision), the prior's evaluations at a node's first
//! visit, plus one playout. There is no tree reuse and no parallelism. The tree stops
//! growing at [`MAX_TREE_NODES`] edges.
//!
//! # Example
//!
//! ```
//! use stickdice::{Agent, Game, Issiren, Throw};
//! use stickdice_agents::ismcts::{IsmctsAgent, IsmctsConfig};
//!
//! let game = Issiren::with_seats(2).unwrap();
//! let mut state = game.initial_state();
//! let mut legal = stickdice::ActionList::new();
//! game.apply_throw(&mut state, Throw::new(4)).unwrap(); // one legal action
//! game.legal_actions(&state, &mut legal);
//! game.apply_action(&mut state, legal[0]).unwrap();
//! game.apply_throw(&mut state, Throw::new(4)).unwrap(); // a real choice
//! let config = IsmctsConfig { iterations: Some(300), ..IsmctsConfig::default() };
//! let mut agent = IsmctsAgent::new(config, 11).unwrap();
//! let action = agent.choose(&game, &state).unwrap();
//! game.check_action(&state, action).unwrap();
//! let analysis = agent.last_analysis();
//! assert_eq!(analysis.actions.iter().map(|a| a.visits).sum::<u64>(), 300);
//!
//! let mut boxed = stickdice_agents::build_str("ismcts:iterations=300,c=0.2", &game, 11).unwrap();
//! game.check_action(&state, boxed.choose(&game, &state).unwrap()).unwrap();
//! ```

use core::fmt;

use rand::{RngExt as _, SeedableRng};
use smallvec::SmallVec;
use stickdice::{
    decision_actions, ActionList, Agent, AgentError, Node as GameNode, Seat, Stop, MAX_ACTIONS,
};

use crate::best::FirstBest;
use crate::eval::Evaluate;
use crate::mcts::shared::{Budget, Rollout, Search};
use crate::mcts::{ActionStats, Analysis, Playout, DEFAULT_CUTOFF};
use crate::params::{AgentInfo, ParamInfo, Params, SpecError};
use crate::solve::{ExactValues, TablebaseChoice};
use std::sync::Arc;

pub use crate::mcts::MAX_TREE_NODES;

/// The default UCB1 exploration constant (MCTS's; measured with the prior, see the
/// [module docs](self)).
pub const DEFAULT_C: f64 = 0.2;

/// The default prior weight in virtual visits (MCTS's).
pub const DEFAULT_PRIOR: f64 = 10.0;

/// The ISMCTS agent's spec entry.
pub const INFO: AgentInfo = AgentInfo {
    name: "ismcts",
    summary: "single-observer information-set MCTS over the unseen throws (decision nodes only, availability counts, cut playouts scored by the evaluation)",
    params: &[
        ParamInfo {
            key: "iterations",
            default: "-",
            help: "iterations per search (a whole number >= 1); 10000 when millis is not given",
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
            key: "cutoff",
            default: "4",
            help: "throws a playout makes before it stops and scores the position with the evaluation; 0 plays to the end",
        },
        ParamInfo {
            key: "prior",
            default: "10",
            help: "weight of the evaluation as a prior, as in mcts: every action of a node is added at once, each with this many virtual visits at the evaluation of its result (needs an evaluation); 0: none, untried actions first",
        },
        crate::solve::TABLEBASE_PARAM,
        ParamInfo {
            key: "throws",
            default: "public",
            help: "public: a node below the root is the actions and the throws seen since the root (the throws are public once made, so the decider knows them); hidden: the actions only (the throws mixed, open-loop)",
        },
    ],
};

/// Everything an ISMCTS agent is set to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations per search (`None` with no `millis`:
    /// [`DEFAULT_ITERATIONS`](crate::mcts::DEFAULT_ITERATIONS)).
    pub iterations: Option<u64>,
    /// Milliseconds per search.
    pub millis: Option<u64>,
    /// The UCB1 exploration constant.
    pub c: f64,
    /// The playout policy.
    pub playout: Playout,
    /// Throws a playout makes before it stops and scores the position with
    /// [`Evaluate::evaluate`]; 0 plays to the end.
    pub cutoff: u32,
    /// Whether the throws made since the root are part of a node (`throws=public`, the
    /// default) or mixed (`throws=hidden`, open-loop).
    pub public_throws: bool,
    /// The prior's weight in virtual visits (0: no prior).
    pub prior: f64,
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            iterations: None,
            millis: None,
            c: DEFAULT_C,
            playout: Playout::DEFAULT,
            cutoff: DEFAULT_CUTOFF,
            public_throws: true,
            prior: DEFAULT_PRIOR,
        }
    }
}

impl IsmctsConfig {
    /// ISMCTS for a game without an evaluation (for
    /// [`IsmctsAgent::with_random_playouts`]): uniformly random playouts to the end; the
    /// other fields as the defaults.
    pub fn without_evaluation() -> Self {
        IsmctsConfig {
            playout: Playout::Random,
            cutoff: 0,
            prior: 0.0,
            ..IsmctsConfig::default()
        }
    }

    /// Reads a checked spec's parameters.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] for a value out of range.
    pub fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let search = Search::from_params("ismcts", params, DEFAULT_C, DEFAULT_PRIOR)?;
        let config = IsmctsConfig {
            public_throws: params.choice("throws", &["public", "hidden"])? != Some("hidden"),
            ..IsmctsConfig::default()
        }
        .with_search(search);
        config.check()?;
        Ok(config)
    }

    /// Checks every field.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] naming the first field out of range: a zero budget, `c`
    /// outside `[0, 100]`, ε outside `[0, 1]`, `cutoff` or `prior` out of range (as MCTS's).
    pub fn check(&self) -> Result<(), SpecError> {
        self.search().check("ismcts")
    }

    /// The canonical spec text.
    pub fn spec(&self) -> String {
        let mut s = format!("ismcts:{}", self.search().spec_text());
        if !self.public_throws {
            s += ",throws=hidden";
        }
        s
    }
}

crate::mcts::shared::search_settings!(IsmctsConfig);

const NONE: u32 = u32::MAX;

/// A decision node: the seat deciding, its action edges (a linked list), and the next
/// node hanging from the same parent edge (another seat to move after the same actions).
#[derive(Clone, Copy, Debug)]
struct InfoNode {
    seat: u8,
    /// The throws made between the parent's action and this decision ([`throw_key`]; 0
    /// with `throws=hidden`).
    throws: u32,
    first_edge: u32,
    next: u32,
}

/// `key` extended by one more throw (of `marked` sides up): distinct for distinct
/// sequences of up to ten throws, which is more than a turn makes between decisions in
/// practice (a longer sequence still gets a key, shared with others).
#[inline]
fn throw_key(key: u32, marked: u8) -> u32 {
    key.wrapping_mul(8).wrapping_add(u32::from(marked) + 1)
}

/// An action at a node with its statistics for the node's seat, the next edge of the
/// same node, and the first node below it.
#[derive(Clone, Copy, Debug)]
struct ActionEdge<A> {
    action: A,
    seat: u8,
    visits: u32,
    available: u32,
    value: f64,
    /// The evaluation of the action's result for `seat` (with a prior).
    prior: f32,
    next: u32,
    child: u32,
}

/// Single-observer ISMCTS (see the [module docs](self)).
pub struct IsmctsAgent<G: stickdice::Playouts> {
    config: IsmctsConfig,
    rng: stickdice::Rng,
    nodes: Vec<InfoNode>,
    edges: Vec<ActionEdge<G::Action>>,
    path: Vec<u32>,
    rollout: Rollout<G>,
    analysis: Analysis<G::Action>,
    /// Ends searches early when stopped ([`Agent::set_stop`]).
    stop: Option<Stop>,
    /// Exact values (the `tablebase` parameter): a position they cover below the root ends
    /// the walk, scored exactly.
    exact: Option<Arc<dyn ExactValues<G>>>,
    /// The `tablebase=` value for the name (`off` in a game with a tablebase, without it).
    exact_source: Option<String>,
}

impl<G: stickdice::Playouts> fmt::Debug for IsmctsAgent<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IsmctsAgent")
            .field("config", &self.config)
            .field("nodes", &self.nodes.len())
            .field("edges", &self.edges.len())
            .finish_non_exhaustive()
    }
}

impl<G: Evaluate> IsmctsAgent<G> {
    /// An agent with `config`, seeded with `seed`.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] if the configuration is out of range (see
    /// [`IsmctsConfig::check`]).
    pub fn new(config: IsmctsConfig, seed: u64) -> Result<Self, SpecError> {
        Self::build(config, seed, Rollout::new(config.playout, config.cutoff))
    }

    /// From a checked spec.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] for a value out of range.
    pub fn from_params(params: &Params<'_>, seed: u64) -> Result<Self, SpecError> {
        let config = IsmctsConfig::from_params(params)?;
        if !G::HAS_EVALUATION {
            // A game without an evaluation: random playouts to the end, no prior, unless
            // the spec asks for what needs one (then `with_random_playouts` says so).
            let mut search = config.search();
            search.plain_unless_given(params, &IsmctsConfig::without_evaluation().search());
            return Self::with_random_playouts(config.with_search(search), seed);
        }
        let mut agent = Self::new(config, seed)?;
        let choice = crate::solve::tablebase_param::<G>(params)?;
        agent.exact_source = choice.label().map(str::to_string);
        if let TablebaseChoice::Use((_, values)) = choice {
            agent.exact = Some(values);
        }
        Ok(agent)
    }
}

impl<G: stickdice::Playouts> IsmctsAgent<G> {
    /// An agent with random playouts for any game, also one without an [`Evaluate`]
    /// implementation.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] if the configuration is out of range;
    /// [`SpecError::Unsupported`] if it asks for greedy playouts (they need [`Evaluate`]:
    /// use [`IsmctsAgent::new`]).
    pub fn with_random_playouts(config: IsmctsConfig, seed: u64) -> Result<Self, SpecError>
    where
        G: stickdice::Playouts,
    {
        config.check()?;
        let rollout = config.search().random_rollout("ismcts")?;
        Self::build(config, seed, rollout)
    }

    fn build(config: IsmctsConfig, seed: u64, rollout: Rollout<G>) -> Result<Self, SpecError> {
        config.check()?;
        Ok(IsmctsAgent {
            config,
            rng: stickdice::Rng::seed_from_u64(seed),
            nodes: Vec::new(),
            edges: Vec::new(),
            path: Vec::new(),
            rollout,
            analysis: Analysis {
                seat: 0,
                iterations: 0,
                actions: Vec::new(),
            },
            stop: None,
            exact: None,
            exact_source: None,
        })
    }

    /// Uses exact values (a tablebase) for the positions they cover: a covered position
    /// below the root ends the walk with its exact values. `source` names them in
    /// [`Agent::name`].
    pub fn with_exact_values(mut self, source: &str, values: Arc<dyn ExactValues<G>>) -> Self {
        self.exact = Some(values);
        self.exact_source = Some(source.to_string());
        self
    }

    /// The configuration.
    pub fn config(&self) -> &IsmctsConfig {
        &self.config
    }

    /// Searches `state` within the budget and returns every legal action's statistics
    /// (also when there is only one legal action).
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

    /// The statistics of the last search; empty before any.
    pub fn last_analysis(&self) -> &Analysis<G::Action> {
        &self.analysis
    }

    /// The tree's size after the last search: (decision nodes, action edges).
    pub fn tree_size(&self) -> (usize, usize) {
        (self.nodes.len(), self.edges.len())
    }

    fn search(&mut self, game: &G, state: &G::State, seat: Seat, legal: &[G::Action]) {
        // A root whose every child the exact values cover is played exactly, unsearched
        // (as MCTS does: the throw there is public, so nothing is hidden).
        if let Some(exact) = self.exact.clone() {
            if self.analysis.fill_exact(&*exact, game, state, seat, legal) {
                return;
            }
        }
        let stop = self.stop.clone();
        let budget =
            Budget::new(self.config.iterations, self.config.millis).with_stop(stop.as_ref());
        self.nodes.clear();
        self.edges.clear();
        self.nodes.push(InfoNode {
            seat: seat as u8,
            throws: 0,
            first_edge: NONE,
            next: NONE,
        });
        let mut done = 0;
        while budget.more(done) {
            self.iterate(game, state);
            done += 1;
        }
        let a = &mut self.analysis;
        a.seat = seat;
        a.iterations = done;
        a.actions.clear();
        for &action in legal {
            let mut e = self.nodes[0].first_edge;
            let mut stats = ActionStats {
                action,
                visits: 0,
                mean: 0.0,
            };
            while e != NONE {
                let edge = &self.edges[e as usize];
                if edge.action == action {
                    stats.visits = u64::from(edge.visits);
                    stats.mean = edge.value / f64::from(edge.visits.max(1));
                    break;
                }
                e = edge.next;
            }
            a.actions.push(stats);
        }
    }

    /// The edge of `node` for `action`, or [`NONE`].
    #[inline]
    fn find_edge(&self, node: u32, action: G::Action) -> u32 {
        let mut e = self.nodes[node as usize].first_edge;
        while e != NONE {
            let edge = &self.edges[e as usize];
            if edge.action == action {
                return e;
            }
            e = edge.next;
        }
        NONE
    }

    /// The node under `edge` where `seat` decides after the throws `throws`
    /// ([`throw_key`]), created if missing; [`NONE`] when the tree is full.
    fn child_node(&mut self, edge: u32, seat: Seat, throws: u32) -> u32 {
        let mut n = self.edges[edge as usize].child;
        while n != NONE {
            let node = &self.nodes[n as usize];
            if node.seat as usize == seat && node.throws == throws {
                return n;
            }
            n = node.next;
        }
        if self.nodes.len() >= MAX_TREE_NODES {
            return NONE;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(InfoNode {
            seat: seat as u8,
            throws,
            first_edge: NONE,
            next: self.edges[edge as usize].child,
        });
        self.edges[edge as usize].child = id;
        id
    }

    /// One iteration in a fresh determinization (throws drawn as they come).
    fn iterate(&mut self, game: &G, root_state: &G::State) {
        let mut state = *root_state;
        let mut node = 0u32;
        let mut legal = ActionList::new();
        let mut found: SmallVec<[u32; MAX_ACTIONS]> = SmallVec::new();
        let mut untried = ActionList::new();
        self.path.clear();
        let rewards = 'walk: loop {
            // `state` is a decision of `node`'s seat.
            game.legal_actions(&state, &mut legal);
            found.clear();
            untried.clear();
            for &a in &legal {
                match self.find_edge(node, a) {
                    NONE => untried.push(a),
                    e => found.push(e),
                }
            }
            let prior = match self.rollout.evaluate {
                Some(evaluate) if self.config.prior > 0.0 => Some(evaluate),
                _ => None,
            };
            if let (Some(evaluate), false) = (prior, untried.is_empty()) {
                // With a prior, every untried action is added now, at its evaluation.
                if self.edges.len() + untried.len() > MAX_TREE_NODES {
                    break 'walk self.rollout.play(game, &mut state, &mut self.rng);
                }
                let seat = self.nodes[node as usize].seat;
                for &action in &untried {
                    let mut next = state;
                    game.apply_action_unchecked(&mut next, action);
                    let id = self.edges.len() as u32;
                    self.edges.push(ActionEdge {
                        action,
                        seat,
                        visits: 0,
                        available: 0,
                        value: 0.0,
                        prior: evaluate.evaluate(game, &next)[seat as usize] as f32,
                        next: self.nodes[node as usize].first_edge,
                        child: NONE,
                    });
                    self.nodes[node as usize].first_edge = id;
                    found.push(id);
                }
                untried.clear();
            }
            let mut expanding = !untried.is_empty();
            let chosen = if prior.is_some() {
                // UCB1 with `k` virtual visits at the prior (as MCTS's selection).
                let (c, k) = (self.config.c, self.config.prior);
                let mut best = FirstBest::new(found[0]);
                for &e in &found {
                    let edge = &mut self.edges[e as usize];
                    edge.available += 1;
                    let n = f64::from(edge.visits) + k;
                    let v = (edge.value + k * f64::from(edge.prior)) / n
                        + c * (f64::from(edge.available).ln() / n).sqrt();
                    best.offer(e, v);
                }
                let best = best.item();
                expanding = self.edges[best as usize].visits == 0;
                best
            } else if expanding {
                if self.edges.len() >= MAX_TREE_NODES {
                    break 'walk self.rollout.play(game, &mut state, &mut self.rng);
                }
                let action = untried[self.rng.random_range(0..untried.len())];
                let id = self.edges.len() as u32;
                let seat = self.nodes[node as usize].seat;
                self.edges.push(ActionEdge {
                    action,
                    seat,
                    visits: 0,
                    available: 1,
                    value: 0.0,
                    prior: 0.0,
                    next: self.nodes[node as usize].first_edge,
                    child: NONE,
                });
                self.nodes[node as usize].first_edge = id;
                for &e in &found {
                    self.edges[e as usize].available += 1;
                }
                id
            } else {
                let c = self.config.c;
                let mut best = FirstBest::new(found[0]);
                for &e in &found {
                    let edge = &mut self.edges[e as usize];
                    let n = f64::from(edge.visits);
                    let v = edge.value / n + c * (f64::from(edge.available).ln() / n).sqrt();
                    edge.available += 1;
                    best.offer(e, v);
                }
                best.item()
            };
            self.path.push(chosen);
            game.apply_action_unchecked(&mut state, self.edges[chosen as usize].action);
            if let Some(scores) = self.exact.as_ref().and_then(|x| x.scores(game, &state)) {
                break 'walk scores;
            }
            if expanding {
                break 'walk self.rollout.play(game, &mut state, &mut self.rng);
            }
            let mut throws = 0u32;
            loop {
                match game.node(&state) {
                    GameNode::Throw(_) => {
                        let t = game.sample_throw(&mut self.rng);
                        if self.config.public_throws {
                            throws = throw_key(throws, t.marked());
                        }
                        game.apply_throw_unchecked(&mut state, t);
                    }
                    GameNode::End => {
                        break 'walk game.scores(&state).expect("an ended game has scores")
                    }
                    GameNode::Decide(seat) => {
                        node = self.child_node(chosen, seat, throws);
                        if node == NONE {
                            break 'walk self.rollout.play(game, &mut state, &mut self.rng);
                        }
                        continue 'walk;
                    }
                }
            }
        };
        for &e in &self.path {
            let edge = &mut self.edges[e as usize];
            edge.visits += 1;
            edge.value += rewards[edge.seat as usize];
        }
    }
}

impl<G: stickdice::Playouts> Agent<G> for IsmctsAgent<G> {
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

    fn set_stop(&mut self, stop: Stop) {
        self.stop = Some(stop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search_tests::agent;
    use crate::testgame_mcts::{decision_positions, exact_values, play_actions, Race, PASS};
    use crate::{build_str, RandomAgent};
    use stickdice::Game;
    use stickdice::Throw;

    /// The open-loop variant without a prior (`throws=hidden,prior=0,c=0.7`), whose
    /// availability counts the tests below check.
    fn ismcts_hidden(iterations: u64, seed: u64) -> IsmctsAgent<Race> {
        IsmctsAgent::new(
            IsmctsConfig {
                iterations: Some(iterations),
                public_throws: false,
                prior: 0.0,
                c: 0.7,
                ..IsmctsConfig::default()
            },
            seed,
        )
        .unwrap()
    }

    /// With public throws a node is one position: its actions are legal at every visit,
    /// so (without a prior, actions added one per visit) the edge added k-th was available
    /// at every visit of the node since, and the nodes under an edge differ in seat or
    /// throws. With the prior, the root has every legal action after one iteration.
    #[test]
    fn public_throws_make_every_action_of_a_node_always_available() {
        let game = Race::new(2, 60);
        let mut s = game.position(&[0, 0, 4, 5], 0, 0);
        game.apply_throw(&mut s, Throw::new(2)).unwrap();
        let mut a = IsmctsAgent::new(
            IsmctsConfig {
                iterations: Some(3000),
                prior: 0.0,
                ..IsmctsConfig::default()
            },
            5,
        )
        .unwrap();
        a.analyze(&game, &s).unwrap();
        let mut inner = 0;
        for (i, node) in a.nodes.iter().enumerate() {
            let mut edges = Vec::new();
            let mut e = node.first_edge;
            while e != NONE {
                edges.push(a.edges[e as usize]);
                e = a.edges[e as usize].next;
            }
            edges.reverse();
            let reached: u32 = edges.iter().map(|e| e.visits).sum();
            for (k, edge) in edges.iter().enumerate() {
                // A node's last visit may have ended in a playout before its edge
                // was visited (a full tree ends nothing here: it is far from full).
                assert_eq!(edge.available, reached - k as u32, "node {i}");
            }
            if i > 0 && edges.len() >= 2 {
                inner += 1;
            }
        }
        assert!(inner >= 4, "{inner} inner nodes with a choice");
        for edge in &a.edges {
            let mut keys = Vec::new();
            let mut n = edge.child;
            while n != NONE {
                keys.push((a.nodes[n as usize].seat, a.nodes[n as usize].throws));
                n = a.nodes[n as usize].next;
            }
            let count = keys.len();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), count, "two nodes for one information set");
        }
        let mut legal = ActionList::new();
        game.legal_actions(&s, &mut legal);
        let mut b = IsmctsAgent::new(
            IsmctsConfig {
                iterations: Some(1),
                ..IsmctsConfig::default()
            },
            5,
        )
        .unwrap();
        b.analyze(&game, &s).unwrap();
        assert_eq!(b.edges.len(), legal.len());
    }

    fn ismcts(iterations: u64, seed: u64) -> IsmctsAgent<Race> {
        IsmctsAgent::new(
            IsmctsConfig {
                iterations: Some(iterations),
                ..IsmctsConfig::default()
            },
            seed,
        )
        .unwrap()
    }

    #[test]
    fn same_seed_same_games() {
        crate::search_tests::same_seed_same_games(
            &[
                "ismcts:iterations=60",
                "ismcts:iterations=30,playout=greedy,epsilon=0.2",
            ],
            1,
            6,
        );
    }

    #[test]
    fn different_seeds_play_differently_where_choices_exist() {
        crate::search_tests::different_seeds_play_differently(&["ismcts:iterations=4"]);
    }

    #[test]
    fn only_legal_actions_for_two_to_four_seats() {
        crate::search_tests::only_legal_actions_for_two_to_four_seats(
            &[
                "ismcts:iterations=25",
                "ismcts:iterations=10,playout=greedy",
            ],
            "ismcts:iterations=30",
            10,
        );
    }

    #[test]
    fn errors_single_actions_and_bad_specs() {
        let game = Race::new(2, 60);
        let mut a = ismcts(10, 1);
        let s = game.initial_state();
        assert_eq!(a.choose(&game, &s), Err(AgentError::ThrowDue { seat: 0 }));
        let mut end = game.position(&[0, 0, 4, 6], 1, 0);
        game.apply_throw(&mut end, Throw::new(2)).unwrap();
        game.apply_action(&mut end, 0).unwrap();
        assert_eq!(a.choose(&game, &end), Err(AgentError::GameOver));
        assert_eq!(a.analyze(&game, &end).unwrap_err(), AgentError::GameOver);
        let mut one = game.position(&[0, 0, 4, 6], 1, 0);
        game.apply_throw(&mut one, Throw::new(3)).unwrap();
        assert_eq!(a.choose(&game, &one), Ok(PASS));
        assert_eq!(a.tree_size(), (0, 0));
        // The settings shared with MCTS are refused alike for both:
        // mcts::tests::the_shared_settings_are_refused_alike_for_mcts_and_ismcts.
        for (spec, needle) in [
            (
                "ismcts:threads=2",
                "it takes: iterations, millis, c, playout, epsilon, cutoff",
            ),
            ("ismcts:throws=some", "public, hidden"),
        ] {
            let e = build_str(spec, &game, 1).err().expect(spec).to_string();
            assert!(e.contains(needle), "{spec}: {e}");
        }
        assert!(IsmctsAgent::<Race>::new(
            IsmctsConfig {
                iterations: Some(0),
                ..IsmctsConfig::default()
            },
            1
        )
        .is_err());
        let info = crate::spec::info("ismcts").unwrap();
        let keys: Vec<_> = info.params.iter().map(|p| (p.key, p.default)).collect();
        assert_eq!(
            keys,
            [
                ("iterations", "-"),
                ("millis", "-"),
                ("c", "0.2"),
                ("playout", "greedy"),
                ("epsilon", "0.1"),
                ("cutoff", "4"),
                ("prior", "10"),
                ("tablebase", "off"),
                ("throws", "public"),
            ]
        );
        let parse = |text: &str| {
            let spec: crate::AgentSpec = text.parse().unwrap();
            IsmctsConfig::from_params(&spec.checked_params().unwrap()).unwrap()
        };
        assert_eq!(parse("ismcts"), IsmctsConfig::default());
        assert_eq!(
            IsmctsConfig::default(),
            IsmctsConfig {
                iterations: None,
                millis: None,
                c: 0.2,
                playout: Playout::Greedy { epsilon: 0.1 },
                cutoff: 4,
                public_throws: true,
                prior: 10.0,
            }
        );
        let hidden = parse("ismcts:throws=hidden,prior=0");
        assert!(!hidden.public_throws);
        assert_eq!(parse(&hidden.spec()), hidden);
        let config = parse("ismcts:iterations=9,c=1,playout=random,cutoff=0,prior=0");
        assert_eq!(
            config.spec(),
            "ismcts:iterations=9,c=1,playout=random,cutoff=0,prior=0"
        );
        assert_eq!(parse(&config.spec()), config);
        // Without an evaluation: random playouts to the end only (what else is refused:
        // mcts::tests::the_shared_settings_are_refused_alike_for_mcts_and_ismcts).
        assert!(IsmctsAgent::<Race>::with_random_playouts(config, 1).is_ok());
        let plain = IsmctsConfig::without_evaluation();
        assert_eq!(
            (plain.playout, plain.cutoff, plain.prior),
            (Playout::Random, 0, 0.0)
        );
    }

    /// The statistics obey the algorithm's invariants: every root edge was available in
    /// every iteration since it was added, the root's visits add up to the iterations, and
    /// no edge is visited more often than it was available.
    #[test]
    fn visits_and_availability_counts_add_up() {
        let game = Race::new(3, 60);
        let s = decision_positions(&game, 1, 21)[0];
        let mut a = ismcts_hidden(700, 2);
        let analysis = a.analyze(&game, &s).unwrap().clone();
        assert_eq!(analysis.iterations, 700);
        assert_eq!(analysis.actions.iter().map(|x| x.visits).sum::<u64>(), 700);
        // Root edges are added in the first iterations (one per iteration), then always
        // available: edge k (0-based, in order of creation) was available 700 - k times.
        let mut root_edges = Vec::new();
        let mut e = a.nodes[0].first_edge;
        while e != NONE {
            root_edges.push(a.edges[e as usize]);
            e = a.edges[e as usize].next;
        }
        root_edges.reverse();
        for (k, edge) in root_edges.iter().enumerate() {
            assert_eq!(edge.available, 700 - k as u32);
        }
        for edge in &a.edges {
            assert!(edge.visits >= 1 && edge.visits <= edge.available);
            assert!(edge.value >= 0.0 && edge.value <= f64::from(edge.visits));
        }
        // Below the root, nodes are split by the seat to move.
        for n in &a.nodes {
            let mut e = n.first_edge;
            while e != NONE {
                assert_eq!(a.edges[e as usize].seat, n.seat);
                e = a.edges[e as usize].next;
            }
        }
    }

    /// Availability follows the sampled throws. Seat 0 (tokens on 0 and 0) threw a 2;
    /// seat 1 has tokens on 4 and 5 and throws next. By the rules, seat 1 then decides
    /// unless it throws a 0, and given that it decides (throws 1–4 with weights 4, 6, 4, 1
    /// out of 15): token 0 (4 → 5 or 6) can move on a 1 or 2 (10/15), token 1 (5 → 6)
    /// only on a 1 (4/15), and the pass is the only action on a 3 or 4 (5/15). The
    /// availability counts at seat 1's node, over the times the walk reached it (the sum of
    /// its edges' visits), must show those frequencies. After a throw of 0 seat 0 decides
    /// again: a node of its own under the same root edge.
    #[test]
    fn availability_follows_the_sampled_throws() {
        let game = Race::new(2, 60);
        let mut s = game.position(&[0, 0, 4, 5], 0, 0);
        game.apply_throw(&mut s, Throw::new(2)).unwrap();
        let mut a = ismcts_hidden(6000, 5);
        a.analyze(&game, &s).unwrap();
        let mut e = a.nodes[0].first_edge;
        let mut checked = 0;
        while e != NONE {
            let root_edge = a.edges[e as usize];
            let mut seats = Vec::new();
            let mut n = root_edge.child;
            while n != NONE {
                let node = a.nodes[n as usize];
                seats.push(node.seat);
                if node.seat == 1 {
                    let mut reached = 0u32;
                    let mut avail = [0u32; 3];
                    let mut f = node.first_edge;
                    while f != NONE {
                        let edge = a.edges[f as usize];
                        reached += edge.visits;
                        avail[edge.action as usize] = edge.available;
                        f = edge.next;
                    }
                    assert!(reached > 300, "{reached}");
                    for (action, expected) in [(0, 10.0 / 15.0), (1, 4.0 / 15.0), (2, 5.0 / 15.0)] {
                        let r = f64::from(reached);
                        let seen = f64::from(avail[action]) / r;
                        // Four binomial standard deviations, plus a few visits before the
                        // edge existed.
                        let tolerance = 4.0 * (expected * (1.0 - expected) / r).sqrt() + 5.0 / r;
                        assert!(
                            (seen - expected).abs() < tolerance,
                            "action {action}: available {seen} of the visits, expected {expected}"
                        );
                    }
                    checked += 1;
                }
                n = node.next;
            }
            seats.sort();
            assert_eq!(seats, [0, 1], "the nodes under a root edge");
            e = root_edge.next;
        }
        assert_eq!(checked, 2);
    }

    /// Where the exact values of the two moves differ by more than 0.4 (three throws from
    /// the cap, seat 0 with tokens on 0 and 1 throws a 3; token 0 captures seat 1's token
    /// on 3), ISMCTS picks the better one and estimates its value closely.
    #[test]
    fn the_search_prefers_the_exactly_much_better_move() {
        let game = Race::new(2, 30);
        let mut s = game.position(&[0, 1, 2, 3], 0, 27);
        game.apply_throw(&mut s, Throw::new(3)).unwrap();
        let exact: Vec<f64> = [0u8, 1]
            .iter()
            .map(|&x| {
                let mut n = s;
                game.apply_action(&mut n, x).unwrap();
                exact_values(&game, &n)[0]
            })
            .collect();
        assert!(exact[0] > exact[1] + 0.4, "{exact:?}");
        let mut a = ismcts(5000, 9);
        let analysis = a.analyze(&game, &s).unwrap();
        assert_eq!(analysis.best().unwrap().action, 0, "{analysis:?}");
        // Open-loop values below the root are not exactly max^n, hence the looser bound.
        assert!(
            (analysis.actions[0].mean - exact[0]).abs() < 0.1,
            "{analysis:?}"
        );
    }

    #[test]
    fn whole_games_are_reproducible() {
        let game = Race::new(3, 80);
        let run = || {
            let mut agents = vec![
                agent("ismcts:iterations=40", &game, 1),
                Box::new(RandomAgent::new(2)) as Box<dyn Agent<Race>>,
                agent("mcts:iterations=40", &game, 3),
            ];
            play_actions(&game, &mut agents, 12)
        };
        assert_eq!(run(), run());
    }
}
