//! The ladder: agents at budgets calibrated to a few milliseconds per decision on
//! the machine it runs on, played against each other with fixed budgets and rated on one
//! Elo scale anchored at `random` = 0.
//!
//! # What it does
//!
//! 1. **Calibrates** ([`calibrate`]): for each series with a budget (an `iterations` or
//!    `nodes` parameter: MCTS, ISMCTS, expectimax) and each target time (default 2, 5 and
//!    20 ms), it finds the budget whose **median time per decision** over a fixed, seeded
//!    set of positions ([`calibration_positions`]: one real decision from each of
//!    `positions` greedy-vs-greedy games on seeded dice) is about the target, on one
//!    thread. The search is a few rounds of proportional steps (time is close to linear
//!    in the budget: `b ← b · target / measured`), budgets rounded to two significant
//!    digits, clamped to `[`[`MIN_BUDGET`]`, `[`MAX_BUDGET`]`]`, and made non-decreasing
//!    with the target ([`calibrate_budgets`], deterministic given the measured times).
//!    Every timing builds a fresh agent per position and times its `choose` alone.
//! 2. **Fixes the budgets** in [`LadderSpecs`] (written as `specs.json`): rerunning with
//!    those specs plays exactly the same games on any machine; only calibration depends
//!    on the machine.
//! 3. **Plays** through the [`TournamentBuilder`](crate::TournamentBuilder) (seats rotated,
//!    duplicate dice, resumable logs in `matches/`), on a schedule far smaller than a
//!    round robin ([`schedule`]): every entrant against `random` and `greedy` (the
//!    anchors), every two series at the same time level, and every two levels of a
//!    series.
//! 4. **Rates** all games at once ([`LadderReport`]): the paired Bradley–Terry fit of
//!    [`crate::stats::fit_elo_paired`] (cluster-robust over rotations), ratings minus
//!    random's, with the 95% interval of that difference.
//!
//! ```no_run
//! use stickdice::{Game, Issiren};
//! use stickdice_evaluation::ladder::{self, Series, LadderOptions};
//!
//! let game = Issiren::with_seats(2)?;
//! let series = ladder::default_series();
//! let options = LadderOptions { millis: vec![2.0, 5.0, 20.0], ..LadderOptions::default() };
//! let specs = ladder::calibrate(&game, &series, &options, &|_| {})?;
//! let report = ladder::play(&game, &specs, &options, std::path::Path::new("ladder-out"), &|_| {})?;
//! println!("{}", report.to_markdown());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt::Write as _;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use stickdice::play::{play_game, Event, SeededDice};
use stickdice::{ActionList, Agent};
use stickdice_agents::{AgentSpec, Evaluate};

use crate::chart;
use crate::report::ELO_PRIOR;
use crate::schedule::Format;
use crate::stats::{fit_elo_paired, Comparison};

/// The smallest budget calibration gives.
pub const MIN_BUDGET: u64 = 10;
/// The largest budget calibration gives.
pub const MAX_BUDGET: u64 = 10_000_000;
/// The budget the first measurement of a series is made at.
pub const START_BUDGET: u64 = 200;
/// Proportional steps per target at most.
pub const ROUNDS: usize = 4;

/// The parameter that sets an agent's budget, by agent name: `iterations` for an agent
/// that takes it (MCTS, ISMCTS), else `nodes` (expectimax); `None` for agents with
/// neither. Registered agents ([`stickdice_agents::register`]) are calibrated by the
/// same rule.
pub fn budget_key(agent: &str) -> Option<&'static str> {
    let params = stickdice_agents::info(agent)?.params;
    ["iterations", "nodes"]
        .into_iter()
        .find(|key| params.iter().any(|p| p.key == *key))
}

/// A series: an agent, by a label and its spec without the budget, which the ladder
/// rates at a series of budgets (one per time level).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Its label in the tables and the chart.
    pub label: String,
    /// Its spec, without the budget parameter.
    pub spec: String,
}

/// A ladder series that cannot be used ([`Series::new`]).
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SeriesError {
    /// The spec does not parse or check.
    #[error("{label}: {source}")]
    Spec {
        /// The series' label.
        label: String,
        /// Why.
        source: stickdice_agents::SpecError,
    },
    /// The spec sets the budget the ladder sets.
    #[error("{label}: `{spec}` sets `{key}`; the ladder sets the budget itself (give the spec without it)")]
    SetsBudget {
        /// The series' label.
        label: String,
        /// The spec.
        spec: String,
        /// The budget parameter it sets.
        key: String,
    },
    /// The label is empty or holds a path separator or a line break.
    #[error("`{label}` is not a series label")]
    BadLabel {
        /// The label.
        label: String,
    },
}

/// Why [`time_per_decision`] could not time a spec.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TimingError {
    /// The spec cannot be built for the game.
    #[error(transparent)]
    Build(stickdice_agents::SpecError),
    /// A calibration position is not a decision.
    #[error("a calibration position is not a decision")]
    NotADecision,
    /// The agent's search failed.
    #[error("{spec}: {source}")]
    Search {
        /// The spec.
        spec: String,
        /// Why.
        source: stickdice::AgentError,
    },
    /// No positions were given.
    #[error("no calibration positions")]
    NoPositions,
}

impl Series {
    /// A series from `label` and a spec text.
    ///
    /// # Errors
    /// A spec that does not parse or check, or one that sets its own budget (`iterations`,
    /// `nodes` or `millis`: the ladder sets the budget).
    pub fn new(label: &str, spec: &str) -> Result<Series, SeriesError> {
        let bad_spec = |source| SeriesError::Spec {
            label: label.to_string(),
            source,
        };
        let parsed: AgentSpec = spec.parse().map_err(bad_spec)?;
        parsed.checked_params().map_err(bad_spec)?;
        for (k, _) in parsed.params() {
            if ["iterations", "nodes", "millis", "depth"].contains(&k.as_str()) {
                return Err(SeriesError::SetsBudget {
                    label: label.to_string(),
                    spec: spec.to_string(),
                    key: k.to_string(),
                });
            }
        }
        if label.is_empty() || label.contains(['/', '\\', '\n']) {
            return Err(SeriesError::BadLabel {
                label: label.to_string(),
            });
        }
        Ok(Series {
            label: label.to_string(),
            spec: parsed.to_string(),
        })
    }

    /// Parses `label=spec` or a bare spec (labelled by itself).
    ///
    /// # Errors
    /// As [`Series::new`].
    pub fn parse(text: &str) -> Result<Series, SeriesError> {
        match text.split_once('=') {
            Some((label, spec)) if !label.contains(':') && !label.contains(',') => {
                Series::new(label.trim(), spec.trim())
            }
            _ => Series::new(text.trim(), text.trim()),
        }
    }

    /// The parameter the ladder sets, if the series has a budget.
    pub fn budget_key(&self) -> Option<&'static str> {
        budget_key(self.spec.split(':').next().unwrap_or(""))
    }

    /// The spec at `budget` (the spec itself for a series without one).
    pub fn spec_at(&self, budget: Option<u64>) -> String {
        match (self.budget_key(), budget) {
            (Some(key), Some(b)) => {
                let spec: AgentSpec = self.spec.parse().expect("checked in Series::new");
                spec.with_param(key, &b.to_string()).to_string()
            }
            _ => self.spec.clone(),
        }
    }
}

/// The ladder's series when none are given: `random` (the anchor, 0 Elo), `greedy`,
/// plain UCT (`mcts:playout=random,cutoff=0,prior=0,c=1.4`), `expectimax`, `mcts` and
/// `ismcts` with their defaults. The best agent is added with `--best`.
pub fn default_series() -> Vec<Series> {
    [
        ("random", "random"),
        ("greedy", "greedy"),
        ("uct", "mcts:playout=random,cutoff=0,prior=0,c=1.4"),
        ("expectimax", "expectimax"),
        ("mcts", "mcts"),
        ("ismcts", "ismcts"),
    ]
    .iter()
    .map(|(l, s)| Series::new(l, s).expect("the default series are valid"))
    .collect()
}

/// How to calibrate and play.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderOptions {
    /// Target milliseconds per decision, ascending.
    pub millis: Vec<f64>,
    /// Calibration positions.
    pub positions: usize,
    /// Games per table (rounded up to whole seat rotations).
    pub games: usize,
    /// The seed of the positions and of every match.
    pub seed: u64,
    /// Worker threads for the matches (each agent searches on one thread).
    pub threads: Option<usize>,
}

impl Default for LadderOptions {
    fn default() -> Self {
        LadderOptions {
            millis: vec![2.0, 5.0, 20.0],
            positions: 24,
            games: 100,
            seed: 1,
            threads: None,
        }
    }
}

/// One calibrated level of a series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Level {
    /// The target milliseconds per decision (`None` for a series without a budget).
    pub target_ms: Option<f64>,
    /// The budget chosen.
    pub budget: Option<u64>,
    /// The median milliseconds per decision measured at that budget.
    pub measured_ms: f64,
    /// The spec played (the tablebase resolved, as the logs name it).
    pub spec: String,
}

/// A series with its calibrated levels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesSpecs {
    /// The series (`family` in `specs.json`, the key it had before).
    #[serde(rename = "family")]
    pub series: Series,
    /// One level per target (one level for a series without a budget).
    pub levels: Vec<Level>,
}

/// A calibrated ladder: what to play. Written as `specs.json`; with it the ladder replays
/// the same games on any machine (`stickdice ladder --specs FILE`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderSpecs {
    /// The game (`Game::NAME`).
    pub game: String,
    /// The target milliseconds per decision.
    pub millis: Vec<f64>,
    /// Calibration positions and their seed.
    pub positions: usize,
    /// The seed of the positions.
    pub seed: u64,
    /// The series, the first one the anchor (rated 0) (`families` in `specs.json`, the key
    /// it had before).
    #[serde(rename = "families")]
    pub series: Vec<SeriesSpecs>,
    /// How the budgets were found.
    pub method: String,
}

impl LadderSpecs {
    /// Every entrant: (series index, level index, spec), in series order.
    pub fn entrants(&self) -> Vec<(usize, usize, String)> {
        let mut out = Vec::new();
        for (f, fam) in self.series.iter().enumerate() {
            for (l, level) in fam.levels.iter().enumerate() {
                out.push((f, l, level.spec.clone()));
            }
        }
        out
    }
}

/// What [`calibrate`] and [`play`] report as they go.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum LadderProgress {
    /// A budget was timed.
    Timed {
        /// The series.
        series: String,
        /// The budget.
        budget: Option<u64>,
        /// The median milliseconds per decision.
        ms: f64,
    },
    /// A match begins: its number (from 1), the matches in all, and its description.
    Match(usize, usize, String),
    /// Games done in the current match, of its total.
    Games(usize, usize),
}

/// The progress callback of [`calibrate`] and [`play`].
pub type Progress<'a> = dyn Fn(LadderProgress) + Sync + 'a;

/// Why the ladder could not run.
#[derive(Debug)]
#[non_exhaustive]
pub enum LadderError {
    /// Fewer than two series.
    TooFewSeries,
    /// Two series have the same label.
    SameLabel {
        /// The label.
        label: String,
    },
    /// `--millis` is not ascending times above 0 and at most 60000.
    Millis,
    /// `--positions` is not 1 to 10000.
    Positions,
    /// `--games` is 0.
    Games,
    /// The game gave no calibration positions (it has no real decisions).
    NoPositions,
    /// A series' spec that cannot be parsed or built for the game.
    Spec {
        /// The series, when the spec was parsed (its label then names it).
        series: Option<String>,
        /// What is wrong with it.
        source: stickdice_agents::SpecError,
    },
    /// A spec could not be timed.
    Timing(TimingError),
    /// The specs are for another game.
    WrongGame {
        /// The specs' game.
        specs: String,
        /// The game asked for.
        game: &'static str,
    },
    /// A file or folder could not be created, written or read.
    Io {
        /// What was done: `create`, `write` or `read`.
        action: IoAction,
        /// The file or folder.
        path: std::path::PathBuf,
        /// The error.
        message: String,
    },
    /// A specs file that is not ladder specs.
    NotSpecs {
        /// The file.
        path: std::path::PathBuf,
        /// What the JSON reader found.
        message: String,
    },
    /// A specs file with fewer than two series, or a series without a level.
    SpecsTooFew {
        /// The file.
        path: std::path::PathBuf,
    },
    /// A match's log cannot be read.
    Log(crate::log::LogError),
    /// A match's log holds no games.
    EmptyLog {
        /// The match's folder.
        dir: std::path::PathBuf,
    },
    /// A match's folder holds a match of other agents.
    MatchAgents {
        /// The match's folder.
        dir: std::path::PathBuf,
        /// The agents of its log.
        found: Vec<String>,
        /// The ladder's agents for the match.
        expected: Vec<String>,
    },
    /// The Elo fit of the results failed.
    Elo(crate::stats::EloError),
    /// A match failed.
    Tournament(crate::TournamentError),
}

/// What [`LadderError::Io`] was doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IoAction {
    /// Creating the output folder.
    Create,
    /// Writing a file.
    Write,
    /// Reading a file.
    Read,
}

impl core::fmt::Display for LadderError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LadderError::TooFewSeries => f.write_str("the ladder needs at least two series"),
            LadderError::SameLabel { .. } => f.write_str("two series have the same label"),
            LadderError::Millis => f.write_str(
                "--millis takes ascending times in milliseconds, each above 0 and at most 60000",
            ),
            LadderError::Positions => f.write_str("--positions takes 1 to 10000"),
            LadderError::Games => f.write_str("--games must be at least 1"),
            LadderError::NoPositions => {
                f.write_str("the game gave no calibration positions (no real decisions)")
            }
            LadderError::Spec {
                series: Some(series),
                source,
            } => write!(f, "{series}: {source}"),
            LadderError::Spec {
                series: None,
                source,
            } => write!(f, "{source}"),
            LadderError::Timing(e) => write!(f, "{e}"),
            LadderError::WrongGame { specs, game } => {
                write!(f, "the specs are for {specs}, not {game}")
            }
            LadderError::Io {
                action,
                path,
                message,
            } => match action {
                IoAction::Create => write!(f, "{}: {message}", path.display()),
                IoAction::Write => write!(f, "cannot write {}: {message}", path.display()),
                IoAction::Read => write!(f, "cannot read {}: {message}", path.display()),
            },
            LadderError::NotSpecs { path, message } => {
                write!(f, "{}: not ladder specs: {message}", path.display())
            }
            LadderError::SpecsTooFew { path } => write!(
                f,
                "{}: the specs need at least two series, each with a level",
                path.display()
            ),
            LadderError::Log(e) => write!(f, "{e}"),
            LadderError::EmptyLog { dir } => {
                write!(f, "{}: the match log is empty", dir.display())
            }
            LadderError::MatchAgents {
                dir,
                found,
                expected,
            } => write!(
                f,
                "{}: the match's agents are {}, not the ladder's {}",
                dir.display(),
                found.join(", "),
                expected.join(", ")
            ),
            LadderError::Elo(e) => write!(f, "the Elo fit failed: {e}"),
            LadderError::Tournament(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LadderError {}

/// A [`LadderError::Io`].
fn io(action: IoAction, path: &Path, e: impl ToString) -> LadderError {
    LadderError::Io {
        action,
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Rounds to two significant digits (1234 → 1200, 56 → 56).
pub fn round_budget(b: f64) -> u64 {
    if !b.is_finite() || b <= 1.0 {
        return 1;
    }
    let digits = b.log10().floor() as i32;
    let unit = 10f64.powi((digits - 1).max(0));
    ((b / unit).round() * unit) as u64
}

/// The budget for each target time (ascending milliseconds), from `measure(budget)` (the
/// median milliseconds per decision at that budget): proportional steps from
/// [`START_BUDGET`] (then from the previous target's budget), at most [`ROUNDS`] per
/// target, each budget rounded ([`round_budget`]) and clamped to
/// `[`[`MIN_BUDGET`]`, `[`MAX_BUDGET`]`]`; the budgets never decrease with the target.
/// Each budget is measured once (the results are remembered), so the answer depends only
/// on the measured times. Returns (budget, measured ms) per target.
///
/// ```
/// use stickdice_evaluation::ladder::calibrate_budgets;
/// // An agent that takes 0.004 ms per iteration.
/// let found = calibrate_budgets(&[2.0, 5.0, 20.0], |b| b as f64 * 0.004);
/// assert_eq!(found.iter().map(|f| f.0).collect::<Vec<_>>(), [500, 1300, 5000]);
/// ```
pub fn calibrate_budgets(targets: &[f64], mut measure: impl FnMut(u64) -> f64) -> Vec<(u64, f64)> {
    let mut seen: BTreeMap<u64, f64> = BTreeMap::new();
    let mut timed = |b: u64, seen: &mut BTreeMap<u64, f64>| -> f64 {
        *seen.entry(b).or_insert_with(|| measure(b))
    };
    let clamp = |b: f64| round_budget(b).clamp(MIN_BUDGET, MAX_BUDGET);
    let mut out: Vec<(u64, f64)> = Vec::new();
    for (i, &target) in targets.iter().enumerate() {
        let mut b = match out.last() {
            Some(&(prev, _)) => clamp(prev as f64 * target / targets[i - 1].max(1e-9)),
            None => START_BUDGET,
        };
        for _ in 0..ROUNDS {
            let t = timed(b, &mut seen);
            let next = if t > 0.0 && t.is_finite() {
                clamp(b as f64 * target / t)
            } else if t.is_finite() {
                clamp(b as f64 * 100.0) // too fast to measure
            } else {
                MIN_BUDGET // failed: stop here
            };
            if next == b {
                break;
            }
            b = next;
        }
        if let Some(&(prev, _)) = out.last() {
            b = b.max(prev);
        }
        let t = timed(b, &mut seen);
        out.push((b, t));
    }
    out
}

/// The calibration positions: from each of `count` greedy-vs-greedy games on seeded dice
/// (game `i` seeded by `seed` and `i`), one decision with at least two legal actions,
/// chosen uniformly by a seeded draw. The same count and seed give the same positions.
pub fn calibration_positions<G: Evaluate>(game: &G, count: usize, seed: u64) -> Vec<G::State> {
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let game_seed = stickdice::seed::derive(seed, &[0x6c61_6464, i as u64]);
        let mut agents: Vec<Box<dyn Agent<G>>> = (0..game.seats())
            .map(|s| {
                stickdice_agents::build_str("greedy", game, game_seed ^ s as u64)
                    .expect("greedy plays every game")
            })
            .collect();
        let mut dice = SeededDice::new(game_seed);
        let mut state = game.initial_state();
        let mut decisions = Vec::new();
        let mut legal = ActionList::new();
        let played = play_game(
            game,
            &mut state,
            &mut agents,
            |seat, _| dice.throw(seat, game.sticks()),
            |event, before, _| {
                if let Event::Action(..) = event {
                    game.legal_actions(before, &mut legal);
                    if legal.len() >= 2 {
                        decisions.push(*before);
                    }
                }
            },
        );
        if played.is_ok() && !decisions.is_empty() {
            let pick = stickdice::seed::derive(game_seed, &[1]) % decisions.len() as u64;
            out.push(decisions[pick as usize]);
        }
    }
    out
}

/// The median milliseconds per decision of `spec` over `positions`: a fresh agent for
/// each position (built before the clock starts), one `choose` timed.
///
/// # Errors
/// A spec that cannot be built or a search that fails.
pub fn time_per_decision<G: Evaluate>(
    game: &G,
    spec: &str,
    positions: &[G::State],
) -> Result<f64, TimingError> {
    let mut times = Vec::with_capacity(positions.len());
    for (i, state) in positions.iter().enumerate() {
        let mut agent =
            stickdice_agents::build_str(spec, game, i as u64).map_err(TimingError::Build)?;
        let seat = match game.node(state) {
            stickdice::Node::Decide(s) => s,
            _ => return Err(TimingError::NotADecision),
        };
        agent.new_game(game, seat);
        let t0 = Instant::now();
        agent
            .choose(game, state)
            .map_err(|source| TimingError::Search {
                spec: spec.to_string(),
                source,
            })?;
        times.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    if times.is_empty() {
        return Err(TimingError::NoPositions);
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    Ok(if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    })
}

/// The method note of a calibration.
fn method_note(options: &LadderOptions) -> String {
    format!(
        "Budgets: for each target, the iterations or nodes whose median time per decision, over {} \
         positions (one real decision from each of that many greedy-vs-greedy games on dice \
         seeded by {}), is about the target on one thread: proportional steps from {START_BUDGET} \
         (at most {ROUNDS} per target), rounded to two significant digits, clamped to \
         [{MIN_BUDGET}, {MAX_BUDGET}], non-decreasing with the target; a fresh agent per position, \
         its choose alone timed.",
        options.positions, options.seed
    )
}

/// Calibrates every series on this machine (see the [module docs](self)).
///
/// # Errors
/// [`LadderError`]: fewer than two series or two with one label
/// ([`LadderError::TooFewSeries`], [`LadderError::SameLabel`]), bad targets
/// ([`LadderError::Millis`], [`LadderError::Positions`], [`LadderError::Games`]), a spec
/// that cannot be built ([`LadderError::Spec`]) or timed ([`LadderError::Timing`]).
pub fn calibrate<G: Evaluate>(
    game: &G,
    series: &[Series],
    options: &LadderOptions,
    progress: &Progress<'_>,
) -> Result<LadderSpecs, LadderError> {
    check_options(series, options)?;
    let positions = calibration_positions(game, options.positions, options.seed);
    if positions.is_empty() {
        return Err(LadderError::NoPositions);
    }
    let mut out = Vec::new();
    for fam in series {
        let resolve = |b: Option<u64>| -> Result<String, LadderError> {
            let spec: AgentSpec = fam.spec_at(b).parse().map_err(|source| LadderError::Spec {
                series: None,
                source,
            })?;
            stickdice_agents::solve::resolve_spec::<G>(&spec)
                .map(|s| s.to_string())
                .map_err(|source| LadderError::Spec {
                    series: Some(fam.label.clone()),
                    source,
                })
        };
        let mut failure = None;
        let levels = if fam.budget_key().is_some() {
            let found = calibrate_budgets(&options.millis, |b| {
                let spec = match resolve(Some(b)) {
                    Ok(s) => s,
                    Err(e) => {
                        failure.get_or_insert(e);
                        return f64::INFINITY;
                    }
                };
                match time_per_decision(game, &spec, &positions) {
                    Ok(ms) => {
                        progress(LadderProgress::Timed {
                            series: fam.label.clone(),
                            budget: Some(b),
                            ms,
                        });
                        ms
                    }
                    Err(e) => {
                        failure.get_or_insert(LadderError::Timing(e));
                        f64::INFINITY
                    }
                }
            });
            if let Some(e) = failure {
                return Err(e);
            }
            found
                .iter()
                .zip(&options.millis)
                .map(|(&(b, ms), &target)| {
                    Ok(Level {
                        target_ms: Some(target),
                        budget: Some(b),
                        measured_ms: ms,
                        spec: resolve(Some(b))?,
                    })
                })
                .collect::<Result<Vec<_>, LadderError>>()?
        } else {
            let spec = resolve(None)?;
            let ms = time_per_decision(game, &spec, &positions).map_err(LadderError::Timing)?;
            progress(LadderProgress::Timed {
                series: fam.label.clone(),
                budget: None,
                ms,
            });
            vec![Level {
                target_ms: None,
                budget: None,
                measured_ms: ms,
                spec,
            }]
        };
        out.push(SeriesSpecs {
            series: fam.clone(),
            levels,
        });
    }
    Ok(LadderSpecs {
        game: game.name().to_string(),
        millis: options.millis.clone(),
        positions: options.positions,
        seed: options.seed,
        series: out,
        method: method_note(options),
    })
}

fn check_options(series: &[Series], options: &LadderOptions) -> Result<(), LadderError> {
    if series.len() < 2 {
        return Err(LadderError::TooFewSeries);
    }
    let mut labels: Vec<&str> = series.iter().map(|f| f.label.as_str()).collect();
    labels.sort_unstable();
    if let Some(w) = labels.windows(2).find(|w| w[0] == w[1]) {
        return Err(LadderError::SameLabel {
            label: w[0].to_string(),
        });
    }
    if options.millis.is_empty()
        || options
            .millis
            .iter()
            .any(|m| !m.is_finite() || *m <= 0.0 || *m > 60_000.0)
        || options.millis.windows(2).any(|w| w[0] >= w[1])
    {
        return Err(LadderError::Millis);
    }
    if options.positions == 0 || options.positions > 10_000 {
        return Err(LadderError::Positions);
    }
    if options.games == 0 {
        return Err(LadderError::Games);
    }
    Ok(())
}

/// One match of the schedule: a tournament between some entrants.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// Its folder name under `matches/`.
    pub name: String,
    /// Its entrants (indices into [`LadderSpecs::entrants`]).
    pub entrants: Vec<usize>,
    /// Round-robin among them, or a gauntlet of the first against the rest.
    pub format: Format,
}

/// The schedule (the default six series at three levels are 14 entrants, 91 tables in a
/// round robin; this is 47, with a best agent 66 of 136, and every
/// table it has answers a question the ladder asks):
///
/// * a gauntlet of the first series (the anchor, `random`) against every other series'
///   first level (a strong agent scores close to 1 against random, which says little, so
///   the others are tied to the anchor through these, `greedy` and their own series);
/// * a gauntlet of the second series' first level (`greedy`, a yardstick the strong
///   agents do not beat every game) against every entrant with a budget;
/// * per time level, a round robin of the series at that level (equal time);
/// * per series, a round robin of its levels (strength against time).
///
/// The Elo fit joins them all through the shared entrants.
pub fn schedule(specs: &LadderSpecs) -> Vec<Match> {
    let entrants = specs.entrants();
    let index = |f: usize, l: usize| entrants.iter().position(|e| e.0 == f && e.1 == l);
    let budgeted: Vec<usize> = (0..entrants.len())
        .filter(|&i| {
            specs.series[entrants[i].0].levels[entrants[i].1]
                .budget
                .is_some()
        })
        .collect();
    let mut out = Vec::new();
    let anchor = index(0, 0).expect("the first series has a level");
    // Each other series' first (cheapest) level: the rest reach the anchor through them.
    let firsts: Vec<usize> = (1..specs.series.len())
        .filter_map(|f| index(f, 0))
        .collect();
    out.push(Match {
        name: "anchor".into(),
        entrants: std::iter::once(anchor).chain(firsts).collect(),
        format: Format::Gauntlet,
    });
    if let Some(second) = index(1, 0).filter(|i| !budgeted.contains(i)) {
        let rest: Vec<usize> = budgeted.iter().copied().filter(|&i| i != second).collect();
        if !rest.is_empty() {
            out.push(Match {
                name: "yardstick".into(),
                entrants: std::iter::once(second).chain(rest).collect(),
                format: Format::Gauntlet,
            });
        }
    }
    for l in 0..specs.millis.len() {
        let at: Vec<usize> = budgeted
            .iter()
            .copied()
            .filter(|&i| entrants[i].1 == l)
            .collect();
        if at.len() >= 2 {
            out.push(Match {
                name: format!("level-{}ms", fmt_ms(specs.millis[l])),
                entrants: at,
                format: Format::RoundRobin,
            });
        }
    }
    for (f, fam) in specs.series.iter().enumerate() {
        if fam.levels.len() >= 2 && fam.levels.iter().all(|l| l.budget.is_some()) {
            out.push(Match {
                name: format!("family-{}", fam.series.label),
                entrants: (0..fam.levels.len()).filter_map(|l| index(f, l)).collect(),
                format: Format::RoundRobin,
            });
        }
    }
    out
}

/// A measured time in milliseconds with about three significant digits.
fn fmt_time(ms: f64) -> String {
    if ms >= 10.0 {
        format!("{ms:.1}")
    } else if ms >= 0.1 {
        format!("{ms:.3}")
    } else {
        format!("{ms:.2e}")
    }
}

fn fmt_ms(ms: f64) -> String {
    if ms.fract() == 0.0 {
        format!("{ms:.0}")
    } else {
        format!("{ms}")
    }
}

/// Plays the schedule with the calibrated specs into `out` (`matches/NAME/`, each a
/// resumable tournament log), then rates every game at once and writes `ladder.md`,
/// `ladder.csv`, `ladder.json`, `ladder.svg` and `specs.json` there.
///
/// # Errors
/// [`LadderError`]: a spec the game refuses, a log of another ladder in the way, a file
/// that cannot be written.
pub fn play<G: Evaluate>(
    game: &G,
    specs: &LadderSpecs,
    options: &LadderOptions,
    out: &Path,
    progress: &Progress<'_>,
) -> Result<LadderReport, LadderError> {
    if specs.game != game.name() {
        return Err(LadderError::WrongGame {
            specs: specs.game.clone(),
            game: game.name(),
        });
    }
    if options.games == 0 {
        return Err(LadderError::Games);
    }
    std::fs::create_dir_all(out).map_err(|e| io(IoAction::Create, out, e))?;
    write(&out.join(SPECS_FILE), &to_json(specs))?;
    let entrants = specs.entrants();
    let labels: Vec<String> = entrants.iter().map(|e| e.2.clone()).collect();
    let matches = schedule(specs);
    let mut units: Vec<Unit> = Vec::new();
    for (m, mt) in matches.iter().enumerate() {
        let dir = out.join("matches").join(&mt.name);
        let agents: Vec<&str> = mt.entrants.iter().map(|&i| labels[i].as_str()).collect();
        progress(LadderProgress::Match(
            m + 1,
            matches.len(),
            format!("{} ({}): {}", mt.name, mt.format, agents.join(" | ")),
        ));
        let seed = stickdice::seed::derive(options.seed, &[0x6d61_7463, m as u64]);
        let mut builder = crate::tournament(game)
            .agents(&agents)
            .format(mt.format)
            .games(options.games)
            .seed(seed)
            .out(&dir);
        if let Some(t) = options.threads {
            builder = builder.threads(t);
        }
        let summary = run_reporting(builder, progress)?;
        // Labels in the log are the resolved specs; map them to the ladder's entrants.
        let log = crate::log::read(&dir.join(crate::tournament::LOG_FILE))
            .map_err(LadderError::Log)?
            .ok_or_else(|| LadderError::EmptyLog { dir: dir.clone() })?;
        // The match's entrants in the order given, so the log's agent `a` is the ladder's
        // entrant `mt.entrants[a]` (two levels of a series calibrated to the same budget
        // play as `SPEC` and `SPEC#2`).
        let given: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
        let expected = crate::tournament::labels(&given);
        if summary.labels != expected {
            return Err(LadderError::MatchAgents {
                dir,
                found: summary.labels,
                expected,
            });
        }
        let map: Vec<usize> = mt.entrants.clone();
        let mut by_rotation: BTreeMap<(usize, usize), Vec<crate::log::GameRecord>> =
            BTreeMap::new();
        for (_, g) in log.games {
            by_rotation
                .entry((g.table, g.rotation))
                .or_default()
                .push(g);
        }
        for games in by_rotation.into_values() {
            units.push(Unit {
                games: games
                    .into_iter()
                    .map(|g| {
                        let seating: Vec<usize> = g.seating.iter().map(|&a| map[a]).collect();
                        (seating, g.places, g.time_s)
                    })
                    .collect(),
            });
        }
    }
    let report = LadderReport::build(specs, &units, options.games)?;
    write(&out.join("ladder.json"), &to_json(&report))?;
    write(&out.join("ladder.md"), &report.to_markdown())?;
    write(&out.join("ladder.csv"), &report.to_csv())?;
    write(&out.join("ladder.svg"), &report.to_svg())?;
    Ok(report)
}

/// Runs one match, forwarding its progress as it comes (from the builder's worker
/// threads, through a channel, to a scoped thread that calls `progress`).
fn run_reporting<G: Evaluate>(
    builder: crate::TournamentBuilder<G>,
    progress: &Progress<'_>,
) -> Result<crate::RunSummary, LadderError> {
    let (tx, rx) = std::sync::mpsc::channel::<(usize, usize)>();
    let tx = std::sync::Mutex::new(tx);
    let builder = builder.progress(move |p: crate::tournament::Progress| {
        let _ = tx
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send((p.done, p.total));
    });
    std::thread::scope(|s| {
        s.spawn(move || {
            for (done, total) in rx {
                progress(LadderProgress::Games(done, total));
            }
        });
        // The sender goes with the builder when `run` returns: the forwarder then ends.
        builder.run().map_err(LadderError::Tournament)
    })
}

/// The games of one rotation: each game's seating (ladder entrants), places and times.
struct Unit {
    games: Vec<(Vec<usize>, Vec<u8>, Vec<f64>)>,
}

/// The file the calibrated specs are written to.
pub const SPECS_FILE: &str = "specs.json";

fn to_json<T: Serialize>(x: &T) -> String {
    let mut s = serde_json::to_string_pretty(x).expect("the ladder's types serialize");
    s.push('\n');
    s
}

fn write(path: &Path, text: &str) -> Result<(), LadderError> {
    std::fs::write(path, text).map_err(|e| io(IoAction::Write, path, e))
}

/// Reads specs written by [`play`] (`specs.json`).
///
/// # Errors
/// A file that cannot be read or is not ladder specs.
pub fn read_specs(path: &Path) -> Result<LadderSpecs, LadderError> {
    let text = stickdice_agents::files::read_to_string_bounded(
        path,
        stickdice_agents::files::MAX_FILE_BYTES,
    )
    .map_err(|e| io(IoAction::Read, path, e))?;
    let specs: LadderSpecs = serde_json::from_str(&text).map_err(|e| LadderError::NotSpecs {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    if specs.series.len() < 2 || specs.series.iter().any(|f| f.levels.is_empty()) {
        return Err(LadderError::SpecsTooFew {
            path: path.to_path_buf(),
        });
    }
    Ok(specs)
}

/// One row of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderRow {
    /// The series' label (`family` in `ladder.json` and `ladder.csv`, the name it had
    /// before).
    #[serde(rename = "family")]
    pub series: String,
    /// The target milliseconds per decision (`None` without a budget).
    pub target_ms: Option<f64>,
    /// The measured median milliseconds per decision (calibration).
    pub measured_ms: f64,
    /// The budget.
    pub budget: Option<u64>,
    /// The spec played.
    pub spec: String,
    /// Games played.
    pub games: usize,
    /// Mean score over its games.
    pub score: f64,
    /// Elo relative to the anchor.
    pub elo: f64,
    /// The 95% interval of the Elo relative to the anchor.
    pub low: Option<f64>,
    /// See `low`.
    pub high: Option<f64>,
    /// Mean seconds of thinking per game in the ladder's games.
    pub seconds_per_game: f64,
}

/// The ladder's ratings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderReport {
    /// The game.
    pub game: String,
    /// Games per table.
    pub games_per_table: usize,
    /// Games in all.
    pub games: usize,
    /// The rows, in series and level order.
    pub rows: Vec<LadderRow>,
    /// The first-seat advantage, Elo.
    pub first_seat_elo: f64,
    /// How the figures were made.
    pub methods: Vec<String>,
}

impl LadderReport {
    fn build(
        specs: &LadderSpecs,
        units: &[Unit],
        games_per_table: usize,
    ) -> Result<LadderReport, LadderError> {
        let entrants = specs.entrants();
        let k = entrants.len();
        let mut comparisons = Vec::new();
        let mut unit_of = Vec::new();
        let mut points = vec![0.0f64; k];
        let mut counted = vec![0usize; k];
        let mut seconds = vec![0.0f64; k];
        let mut games = 0;
        for (u, unit) in units.iter().enumerate() {
            for (seating, places, times) in &unit.games {
                games += 1;
                let n = seating.len();
                let weight = if n > 1 { 1.0 / (n - 1) as f64 } else { 1.0 };
                for i in 0..n {
                    counted[seating[i]] += 1;
                    seconds[seating[i]] += times.get(i).copied().unwrap_or(0.0);
                    for j in 0..n {
                        if i == j {
                            continue;
                        }
                        let sc = match places[i].cmp(&places[j]) {
                            core::cmp::Ordering::Less => 1.0,
                            core::cmp::Ordering::Equal => 0.5,
                            core::cmp::Ordering::Greater => 0.0,
                        };
                        points[seating[i]] += sc * weight;
                        if j > i {
                            comparisons.push(Comparison {
                                first: seating[i],
                                second: seating[j],
                                score: sc,
                                weight,
                            });
                            unit_of.push(u);
                        }
                    }
                }
            }
        }
        let fit = fit_elo_paired(k, &comparisons, &unit_of, ELO_PRIOR).map_err(LadderError::Elo)?;
        let rows = entrants
            .iter()
            .enumerate()
            .map(|(i, &(f, l, ref spec))| {
                let level = &specs.series[f].levels[l];
                let elo = fit.ratings[i] - fit.ratings[0];
                let hw = fit.anchored_half_widths.get(i).copied().flatten();
                LadderRow {
                    series: specs.series[f].series.label.clone(),
                    target_ms: level.target_ms,
                    measured_ms: level.measured_ms,
                    budget: level.budget,
                    spec: spec.clone(),
                    games: counted[i],
                    score: if counted[i] == 0 {
                        0.0
                    } else {
                        points[i] / counted[i] as f64
                    },
                    elo,
                    low: hw.map(|h| elo - h),
                    high: hw.map(|h| elo + h),
                    seconds_per_game: if counted[i] == 0 {
                        0.0
                    } else {
                        seconds[i] / counted[i] as f64
                    },
                }
            })
            .collect();
        let mut methods = vec![specs.method.clone()];
        methods.push(format!(
            "Schedule: a gauntlet of {} against every other series' first level, one of {} against every \
             entrant with a budget, a round robin of the series at each time level and one \
             of each series' levels; {games_per_table} games per table, seats rotated on \
             duplicate dice.",
            specs.series[0].series.label,
            specs
                .series
                .get(1)
                .map_or("-", |f| f.series.label.as_str())
        ));
        methods.push(format!(
            "Elo: one Bradley–Terry fit of every game of every match (crate::stats::fit_elo_paired, \
             first-seat term, {ELO_PRIOR} virtual draws per pair that met), ratings minus {}'s; \
             95% intervals of that difference, cluster-robust over rotations.",
            specs.series[0].series.label
        ));
        Ok(LadderReport {
            game: specs.game.clone(),
            games_per_table,
            games,
            rows,
            first_seat_elo: fit.first_seat,
            methods,
        })
    }

    /// The table in Markdown.
    pub fn to_markdown(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "# Ladder: {}\n", self.game);
        let _ = writeln!(
            o,
            "{} games, {} per table; Elo relative to {} with 95% intervals.\n",
            self.games,
            self.games_per_table,
            self.rows.first().map_or("-", |r| r.series.as_str())
        );
        let _ = writeln!(
            o,
            "| series | target ms | measured ms | budget | Elo | 95% interval | games | score | spec |"
        );
        let _ = writeln!(o, "|---|---:|---:|---:|---:|---|---:|---:|---|");
        for r in &self.rows {
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {:+.0} | {} | {} | {:.3} | `{}` |",
                r.series,
                r.target_ms.map_or("–".to_string(), fmt_ms),
                fmt_time(r.measured_ms),
                r.budget.map_or("–".to_string(), |b| b.to_string()),
                r.elo,
                match (r.low, r.high) {
                    (Some(l), Some(h)) if (h - l).abs() < 1e-9 => "anchor".to_string(),
                    (Some(l), Some(h)) => format!("[{l:+.0}, {h:+.0}]"),
                    _ => "–".to_string(),
                },
                r.games,
                r.score,
                r.spec
            );
        }
        let _ = writeln!(
            o,
            "\nFirst-seat advantage: {:+.0} Elo.\n",
            self.first_seat_elo
        );
        for m in &self.methods {
            let _ = writeln!(o, "* {m}");
        }
        o
    }

    /// The table as CSV.
    pub fn to_csv(&self) -> String {
        let mut o = String::from(
            "family,target_ms,measured_ms,budget,elo,elo_low,elo_high,games,score,seconds_per_game,spec\n",
        );
        let opt = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.1}"));
        for r in &self.rows {
            let _ = writeln!(
                o,
                "{},{},{:.4},{},{:.1},{},{},{},{:.4},{:.4},\"{}\"",
                r.series,
                r.target_ms.map_or(String::new(), fmt_ms),
                r.measured_ms,
                r.budget.map_or(String::new(), |b| b.to_string()),
                r.elo,
                opt(r.low),
                opt(r.high),
                r.games,
                r.score,
                r.seconds_per_game,
                r.spec.replace('"', "\"\"")
            );
        }
        o
    }

    /// The chart: Elo against measured milliseconds per decision (log scale), one line
    /// per series with its 95% intervals as error bars; series without a budget are
    /// single points.
    pub fn to_svg(&self) -> String {
        let (w, h) = (720.0, 440.0);
        let (left, right, top, bottom) = (70.0, 150.0, 40.0, 50.0);
        let xs: Vec<f64> = self.rows.iter().map(|r| r.measured_ms.max(1e-4)).collect();
        let (mut x0, mut x1) = (
            xs.iter()
                .copied()
                .fold(f64::INFINITY, f64::min)
                .log10()
                .floor(),
            xs.iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max)
                .log10()
                .ceil(),
        );
        if x1 <= x0 {
            x1 = x0 + 1.0;
        }
        if !x0.is_finite() {
            (x0, x1) = (-2.0, 2.0);
        }
        let lo = self
            .rows
            .iter()
            .map(|r| r.low.unwrap_or(r.elo))
            .fold(0.0f64, f64::min);
        let hi = self
            .rows
            .iter()
            .map(|r| r.high.unwrap_or(r.elo))
            .fold(0.0f64, f64::max);
        let step = chart::nice_step(((hi - lo).max(50.0)) / 6.0);
        let (y0, y1) = ((lo / step).floor() * step, (hi / step).ceil() * step);
        let y1 = if y1 <= y0 { y0 + step } else { y1 };
        let px = |ms: f64| left + (ms.max(1e-4).log10() - x0) / (x1 - x0) * (w - left - right);
        let py = |e: f64| top + (y1 - e) / (y1 - y0) * (h - top - bottom);
        let mut o = String::new();
        chart::begin(&mut o, w, h);
        let _ = writeln!(
            o,
            r#"<text x="{left}" y="22" font-size="14">Ladder ({}): Elo relative to {} against time per decision, 95% intervals</text>"#,
            chart::escape(&self.game),
            chart::escape(self.rows.first().map_or("-", |r| r.series.as_str()))
        );
        let mut e = y0;
        while e <= y1 + step / 2.0 {
            let y = py(e);
            let _ = writeln!(
                o,
                r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#{}"/><text x="{:.1}" y="{:.1}" text-anchor="end">{e:.0}</text>"##,
                w - right,
                if e.abs() < step / 2.0 {
                    "888"
                } else {
                    "e4e4e4"
                },
                left - 6.0,
                y + 4.0
            );
            e += step;
        }
        let mut d = x0;
        while d <= x1 + 0.5 {
            let x = px(10f64.powf(d));
            let _ = writeln!(
                o,
                r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{:.1}" stroke="#e4e4e4"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
                h - bottom,
                h - bottom + 16.0,
                fmt_ms(10f64.powf(d))
            );
            d += 1.0;
        }
        let _ = writeln!(
            o,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">milliseconds per decision (median, calibration; log scale)</text>"#,
            (left + w - right) / 2.0,
            h - 12.0
        );
        const COLOURS: [&str; 8] = [
            "777777", "1f77b4", "ff7f0e", "2ca02c", "d62728", "9467bd", "8c564b", "e377c2",
        ];
        let mut series: Vec<&str> = Vec::new();
        for r in &self.rows {
            if !series.contains(&r.series.as_str()) {
                series.push(&r.series);
            }
        }
        for (fi, fam) in series.iter().enumerate() {
            let colour = COLOURS[fi % COLOURS.len()];
            let rows: Vec<&LadderRow> = self.rows.iter().filter(|r| r.series == *fam).collect();
            let points: Vec<String> = rows
                .iter()
                .map(|r| format!("{:.1},{:.1}", px(r.measured_ms), py(r.elo)))
                .collect();
            if points.len() > 1 {
                let _ = writeln!(
                    o,
                    r##"<polyline points="{}" fill="none" stroke="#{colour}" stroke-width="2"/>"##,
                    points.join(" ")
                );
            }
            for r in &rows {
                let x = px(r.measured_ms);
                if let (Some(l), Some(hh)) = (r.low, r.high) {
                    let _ = writeln!(
                        o,
                        r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#{colour}"/>"##,
                        py(l),
                        py(hh)
                    );
                }
                let _ = writeln!(
                    o,
                    r##"<circle cx="{x:.1}" cy="{:.1}" r="4" fill="#{colour}"><title>{}: {:+.0} Elo at {:.3} ms</title></circle>"##,
                    py(r.elo),
                    chart::escape(&r.spec),
                    r.elo,
                    r.measured_ms
                );
            }
            let ly = top + 10.0 + 18.0 * fi as f64;
            let _ = writeln!(
                o,
                r##"<rect x="{:.1}" y="{:.1}" width="12" height="12" fill="#{colour}"/><text x="{:.1}" y="{:.1}">{}</text>"##,
                w - right + 14.0,
                ly - 10.0,
                w - right + 32.0,
                ly,
                chart::escape(fam)
            );
        }
        chart::end(&mut o);
        o
    }
}

/// Where [`play`] writes for `out`: the folders of the matches.
pub fn match_dirs(out: &Path, specs: &LadderSpecs) -> Vec<PathBuf> {
    schedule(specs)
        .into_iter()
        .map(|m| out.join("matches").join(m.name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each bad setting is its own variant (with the message the command line shows).
    #[test]
    fn bad_settings_are_refused_with_their_own_variant() {
        let fam = |label: &str| Series::new(label, "mcts").unwrap();
        let ok = LadderOptions::default();
        assert!(matches!(
            check_options(&[fam("a")], &ok),
            Err(LadderError::TooFewSeries)
        ));
        let e = check_options(&[fam("a"), fam("a")], &ok).unwrap_err();
        assert!(
            matches!(&e, LadderError::SameLabel { label } if label == "a"),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "two series have the same label");
        let two = [fam("a"), fam("b")];
        let with = |f: fn(&mut LadderOptions)| {
            let mut o = LadderOptions::default();
            f(&mut o);
            check_options(&two, &o)
        };
        assert!(matches!(
            with(|o| o.millis = vec![5.0, 2.0]),
            Err(LadderError::Millis)
        ));
        assert!(matches!(
            with(|o| o.positions = 0),
            Err(LadderError::Positions)
        ));
        let e = with(|o| o.games = 0).unwrap_err();
        assert!(matches!(e, LadderError::Games));
        assert_eq!(e.to_string(), "--games must be at least 1");
        assert!(with(|_| ()).is_ok());
    }

    #[test]
    fn budgets_follow_a_linear_cost_and_are_monotone() {
        let found = calibrate_budgets(&[2.0, 5.0, 20.0], |b| b as f64 * 0.01);
        let budgets: Vec<u64> = found.iter().map(|f| f.0).collect();
        assert_eq!(budgets, [200, 500, 2000]);
        // A cost that is not linear still gives non-decreasing budgets near the targets.
        let found = calibrate_budgets(&[2.0, 5.0, 20.0], |b| (b as f64).sqrt() * 0.1);
        assert!(found.windows(2).all(|w| w[0].0 <= w[1].0), "{found:?}");
        for (f, target) in found.iter().zip([2.0, 5.0, 20.0]) {
            assert!((f.1 / target - 1.0).abs() < 0.3, "{found:?}");
        }
    }

    #[test]
    fn budgets_are_clamped() {
        // Too slow even at the least budget, and too fast even at the most.
        let slow = calibrate_budgets(&[1.0, 2.0], |_| 1e6);
        assert!(slow.iter().all(|f| f.0 == MIN_BUDGET), "{slow:?}");
        let fast = calibrate_budgets(&[1.0, 2.0], |_| 0.0);
        assert!(fast.iter().all(|f| f.0 == MAX_BUDGET), "{fast:?}");
    }

    #[test]
    fn noisy_times_never_make_budgets_fall() {
        // The larger target measured as faster: the budget keeps the previous one.
        let mut calls = 0;
        let found = calibrate_budgets(&[2.0, 5.0], |b| {
            calls += 1;
            if b <= 200 {
                0.01 * b as f64
            } else {
                0.1 * b as f64
            }
        });
        assert_eq!(found[0].0, 200);
        assert!(found[1].0 >= found[0].0, "{found:?}");
        assert!(calls <= 2 * (ROUNDS + 1));
    }

    #[test]
    fn calibration_is_deterministic_given_the_times() {
        let times = |b: u64| 0.003 * b as f64 + 0.05 * ((b % 7) as f64);
        assert_eq!(
            calibrate_budgets(&[2.0, 5.0, 20.0], times),
            calibrate_budgets(&[2.0, 5.0, 20.0], times)
        );
    }

    #[test]
    fn budgets_are_rounded_to_two_digits() {
        assert_eq!(round_budget(1234.0), 1200);
        assert_eq!(round_budget(56.4), 56);
        assert_eq!(round_budget(7.0), 7);
        assert_eq!(round_budget(0.2), 1);
        assert_eq!(round_budget(f64::INFINITY), 1);
    }

    #[test]
    fn families_refuse_their_own_budget() {
        assert!(Series::parse("mcts:iterations=5").is_err());
        assert!(Series::parse("x=expectimax:depth=2").is_err());
        let f = Series::parse("uct=mcts:playout=random,cutoff=0").unwrap();
        assert_eq!(f.label, "uct");
        assert_eq!(
            f.spec_at(Some(300)),
            "mcts:playout=random,cutoff=0,iterations=300"
        );
        let g = Series::parse("greedy").unwrap();
        assert_eq!(
            (g.label.as_str(), g.spec_at(Some(5))),
            ("greedy", "greedy".into())
        );
        assert!(Series::parse("nosuch").is_err());
    }

    #[test]
    fn the_schedule_has_anchors_levels_and_families() {
        let level = |b: Option<u64>| Level {
            target_ms: b.map(|_| 1.0),
            budget: b,
            measured_ms: 1.0,
            spec: String::new(),
        };
        let fam = |label: &str, levels: Vec<Level>| SeriesSpecs {
            series: Series::new(label, label).unwrap(),
            levels,
        };
        let specs = LadderSpecs {
            game: "issiren".into(),
            millis: vec![1.0, 2.0],
            positions: 1,
            seed: 1,
            series: vec![
                fam("random", vec![level(None)]),
                fam("greedy", vec![level(None)]),
                fam("mcts", vec![level(Some(1)), level(Some(2))]),
                fam("ismcts", vec![level(Some(1)), level(Some(2))]),
            ],
            method: String::new(),
        };
        let m = schedule(&specs);
        let names: Vec<&str> = m.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "anchor",
                "yardstick",
                "level-1ms",
                "level-2ms",
                "family-mcts",
                "family-ismcts"
            ]
        );
        assert_eq!(m[0].entrants, [0, 1, 2, 4]);
        assert_eq!(m[1].entrants, [1, 2, 3, 4, 5]);
        assert_eq!(m[2].entrants, [2, 4]);
        assert_eq!(m[5].entrants, [4, 5]);
    }
}
