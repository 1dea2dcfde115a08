//! The MCTS agent: root-parallel searches over its trees, subtree reuse between moves.

use core::fmt;
use std::sync::Arc;

use rayon::prelude::*;
use stickdice::{decision_actions, ActionList, Agent, AgentError, Seat, Stop, Throw};

use super::analysis::{ActionStats, Analysis};
use super::budget::Budget;
use super::config::{MctsConfig, MAX_TREE_NODES};
use super::playouts::Rollout;
use super::tree::{Edge, How, Tree};
use crate::eval::Evaluate;
use crate::params::{Params, SpecError};
use crate::solve::{ExactValues, TablebaseChoice};

/// UCT Monte Carlo tree search (see the [module docs](super)).
pub struct MctsAgent<G: stickdice::Playouts> {
    config: MctsConfig,
    pub(super) trees: Vec<Tree<G>>,
    rollout: Rollout<G>,
    analysis: Analysis<G::Action>,
    exact_source: Option<String>,
    /// The `eval` parameter as given, for [`Agent::name`].
    eval_source: Option<String>,
    /// Ends searches early when stopped ([`Agent::set_stop`]).
    stop: Option<Stop>,
}

impl<G: stickdice::Playouts> fmt::Debug for MctsAgent<G> {
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
        let mut config = MctsConfig::from_params(params)?;
        if !G::HAS_EVALUATION && params.given("eval").is_none() {
            // A game without an evaluation: random playouts to the end, no prior, unless
            // the spec asks for what needs one (then `with_random_playouts` says so).
            let mut search = config.search();
            search.plain_unless_given(params, &MctsConfig::without_evaluation().search());
            return Self::with_random_playouts(config.with_search(search), seed);
        }
        let (eval_source, evaluator) = crate::eval::eval_param::<G>(params)?;
        // A learned evaluation costs more per call than a hand-set one: its default
        // playouts are random moves (still cut after `cutoff` throws and scored by it), which
        // run faster than greedy playouts with the hand-set evaluation and play stronger.
        if G::RANDOM_PLAYOUTS_BY_DEFAULT
            && eval_source.as_deref() != Some("hand")
            && params.given("playout").is_none()
            && params.given("epsilon").is_none()
        {
            config.playout = super::config::Playout::Random;
        }
        let mut agent = Self::new(config, seed)?;
        agent.rollout = agent.rollout.with_evaluator(evaluator);
        agent.eval_source = eval_source;
        Ok(match crate::solve::tablebase_param::<G>(params)? {
            TablebaseChoice::Use((source, values)) => agent.with_exact_values(&source, values),
            TablebaseChoice::Off => agent.named_without_exact_values(),
            TablebaseChoice::NotApplicable => agent,
        })
    }
}

impl<G: stickdice::Playouts> MctsAgent<G> {
    /// An agent with random playouts for any game, also one without an [`Evaluate`]
    /// implementation.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] if the configuration is out of range;
    /// [`SpecError::Unsupported`] if it asks for greedy playouts, a `cutoff` other than 0
    /// or a `prior` (they need [`Evaluate`]: use [`MctsAgent::new`]).
    pub fn with_random_playouts(config: MctsConfig, seed: u64) -> Result<Self, SpecError>
    where
        G: stickdice::Playouts,
    {
        config.check()?;
        let rollout = config.search().random_rollout("mcts")?;
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
            eval_source: None,
            stop: None,
        })
    }

    /// The same agent with another evaluation for its playouts, cutoffs and prior
    /// (`source` names it in [`Agent::name`], as the `eval` parameter does).
    pub fn with_evaluator(mut self, source: &str, evaluator: crate::Evaluator<G>) -> Self {
        self.rollout = self.rollout.with_evaluator(evaluator);
        self.eval_source = Some(source.to_string());
        self
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

    /// Names the agent `…,tablebase=off` (a game with a tablebase, played without it), so
    /// that its name says the table was not used.
    pub fn named_without_exact_values(mut self) -> Self {
        for tree in &mut self.trees {
            tree.exact = None;
            tree.forget();
        }
        self.exact_source = Some("off".to_string());
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
        // A root whose every child the exact values cover is played exactly, unsearched.
        if let Some(exact) = self.trees.first().and_then(|t| t.exact.clone()) {
            if self.analysis.fill_exact(&*exact, game, state, seat, legal) {
                return;
            }
        }
        let stop = self.stop.clone();
        let budget =
            Budget::new(self.config.iterations, self.config.millis).with_stop(stop.as_ref());
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

impl<G: stickdice::Playouts> Agent<G> for MctsAgent<G> {
    fn name(&self) -> String {
        let mut name = self.config.spec();
        if let Some(source) = &self.exact_source {
            name += &format!(",tablebase={source}");
        }
        if let Some(source) = &self.eval_source {
            name += &format!(",eval={source}");
        }
        name
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
