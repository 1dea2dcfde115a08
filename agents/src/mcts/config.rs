//! The agent's configuration: its spec entry, defaults and limits, the playout policy,
//! [`MctsConfig`], and [`Search`], the settings MCTS and ISMCTS share (read, checked and
//! written once for both).

use core::fmt;

use crate::params::{AgentInfo, ParamInfo, Params, SpecError};

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
            help: "playout policy: greedy (the evaluation's best move with probability 1-epsilon), or random; issiren with its learned evaluation and the described games default to random (their evaluations are costly per call)",
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
        crate::eval::EVAL_PARAM,
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
#[non_exhaustive]
pub enum Playout {
    /// Uniformly among the legal actions.
    Random,
    /// The action whose result the game's [`Evaluate`](crate::Evaluate) rates best for the mover (ties
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

/// The default `cutoff` of MCTS and ISMCTS: four throws (measured on Issiren, see the
/// [module docs](super)).
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

/// The settings MCTS ([`MctsConfig`]) and ISMCTS
/// ([`IsmctsConfig`](crate::ismcts::IsmctsConfig)) share: the budget, the exploration
/// constant, the playouts and the prior. Each agent's configuration keeps them as its own
/// public fields and reads, checks and writes them through here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Search {
    pub(crate) iterations: Option<u64>,
    pub(crate) millis: Option<u64>,
    pub(crate) c: f64,
    pub(crate) playout: Playout,
    pub(crate) cutoff: u32,
    pub(crate) prior: f64,
}

impl Search {
    /// Reads `iterations`, `millis`, `c`, `playout` and `epsilon`, `cutoff` and `prior` of
    /// `agent`'s checked spec (`c` and `prior` default to the agent's).
    pub(crate) fn from_params(
        agent: &'static str,
        params: &Params<'_>,
        default_c: f64,
        default_prior: f64,
    ) -> Result<Search, SpecError> {
        Ok(Search {
            iterations: params.positive("iterations")?,
            millis: params.positive("millis")?,
            c: params.number("c", 0.0, 100.0)?.unwrap_or(default_c),
            playout: Playout::from_params(params)?,
            cutoff: cutoff_param(agent, params)?.unwrap_or(DEFAULT_CUTOFF),
            prior: params
                .number("prior", 0.0, MAX_PRIOR)?
                .unwrap_or(default_prior),
        })
    }

    /// Checks every field, naming `agent`: a zero budget, `c` outside `[0, 100]`, ε outside
    /// `[0, 1]`, `cutoff` above [`MAX_CUTOFF`], `prior` outside `[0, MAX_PRIOR]`.
    pub(crate) fn check(&self, agent: &'static str) -> Result<(), SpecError> {
        check_budget(agent, self.iterations, self.millis)?;
        if !(self.c.is_finite() && (0.0..=100.0).contains(&self.c)) {
            return Err(bad(agent, "c", self.c, "a number from 0 to 100"));
        }
        self.playout.check(agent)?;
        check_cutoff(agent, self.cutoff)?;
        if !(self.prior.is_finite() && (0.0..=MAX_PRIOR).contains(&self.prior)) {
            return Err(bad(
                agent,
                "prior",
                self.prior,
                &format!("a number from 0 to {MAX_PRIOR}"),
            ));
        }
        Ok(())
    }

    /// The canonical spec text of these settings, after `agent:`:
    /// `[iterations=…,][millis=…,]c=…,playout=…,cutoff=…,prior=…`.
    pub(crate) fn spec_text(&self) -> String {
        let mut s = String::new();
        if let Some(i) = self.iterations {
            s += &format!("iterations={i},");
        }
        if let Some(m) = self.millis {
            s += &format!("millis={m},");
        }
        s += &format!(
            "c={},playout={},cutoff={},prior={}",
            self.c,
            self.playout.spec_text(),
            self.cutoff,
            self.prior
        );
        s
    }

    /// For a game without an evaluation: `plain`'s playouts, cutoff, prior and `c` where
    /// the spec does not give them (a spec that asks for what needs an evaluation is then
    /// refused by [`Search::random_rollout`]).
    pub(crate) fn plain_unless_given(&mut self, params: &Params<'_>, plain: &Search) {
        if params.given("playout").is_none() && params.given("epsilon").is_none() {
            self.playout = plain.playout;
        }
        if params.given("cutoff").is_none() {
            self.cutoff = plain.cutoff;
        }
        if params.given("prior").is_none() {
            self.prior = plain.prior;
        }
        if params.given("c").is_none() {
            self.c = plain.c;
        }
    }

    /// The playouts of a game without an evaluation, after checking every field: random
    /// to the end, and no prior.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] for a field out of range; [`SpecError::Unsupported`] for
    /// greedy or cut playouts or a prior (they need an evaluation).
    pub(crate) fn random_rollout<G: stickdice::Playouts>(
        &self,
        agent: &'static str,
    ) -> Result<super::playouts::Rollout<G>, SpecError> {
        self.check(agent)?;
        let rollout =
            super::playouts::Rollout::without_evaluation(agent, self.playout, self.cutoff)?;
        if self.prior != 0.0 {
            return Err(SpecError::Unsupported {
                agent,
                why: format!("a prior needs an evaluation of {}; use prior=0", G::TITLE),
            });
        }
        Ok(rollout)
    }
}

/// `search()` (the [`Search`] settings of a configuration) and `with_search()` (the
/// configuration with other ones) for a configuration struct with the fields of
/// [`Search`]: MCTS's and ISMCTS's.
macro_rules! search_settings {
    ($config:ident) => {
        impl $config {
            /// The settings MCTS and ISMCTS share.
            pub(crate) fn search(&self) -> $crate::mcts::shared::Search {
                $crate::mcts::shared::Search {
                    iterations: self.iterations,
                    millis: self.millis,
                    c: self.c,
                    playout: self.playout,
                    cutoff: self.cutoff,
                    prior: self.prior,
                }
            }

            /// The same configuration with `search`'s shared settings.
            pub(crate) fn with_search(self, search: $crate::mcts::shared::Search) -> Self {
                $config {
                    iterations: search.iterations,
                    millis: search.millis,
                    c: search.c,
                    playout: search.playout,
                    cutoff: search.cutoff,
                    prior: search.prior,
                    ..self
                }
            }
        }
    };
}
pub(crate) use search_settings;
search_settings!(MctsConfig);

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
    /// [`Evaluate::evaluate`](crate::Evaluate::evaluate); 0 plays to the end.
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
    /// [`MctsAgent::with_random_playouts`](super::MctsAgent::with_random_playouts)): uniformly random playouts to the end, no
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
        let search = Search::from_params("mcts", params, DEFAULT_C, DEFAULT_PRIOR)?;
        let config = MctsConfig {
            threads: threads as usize,
            reuse: params.flag("reuse")?.unwrap_or(true),
            ..MctsConfig::default()
        }
        .with_search(search);
        config.check()?;
        Ok(config)
    }

    /// Checks every field.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] naming the first field out of range: a zero budget, `c`
    /// outside `[0, 100]`, ε outside `[0, 1]`, or `threads` outside `1..=64`.
    pub fn check(&self) -> Result<(), SpecError> {
        self.search().check("mcts")?;
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
        let mut s = format!("mcts:{}", self.search().spec_text());
        if self.threads != 1 {
            s += &format!(",threads={}", self.threads);
        }
        if !self.reuse {
            s += ",reuse=false";
        }
        s
    }
}
