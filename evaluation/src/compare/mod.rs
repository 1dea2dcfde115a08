//! The comparison workbench (`stickdice compare`): the quality metrics of game research —
//! those of Ludii's Evaluation module that apply to a stick-dice game, and those only an
//! exact solver and a luck analysis give — for a list of configurations (a game, its rule
//! options, its seat count), with 95% intervals, and which differences between
//! configurations are real.
//!
//! * [`Configuration`], [`parse_groups`], [`parse_toml`]: what to compare.
//! * [`Settings`]: the agents, game counts, seed.
//! * [`compare`]: plays and measures; [`Comparison`] holds every figure, the
//!   significance tests, and writes the outputs ([`Comparison::table`],
//!   [`Comparison::to_csv`], [`Comparison::to_markdown`], [`Comparison::columns`],
//!   [`Comparison::charts`]).
//!
//! The book's chapter *Comparing games and readings* (`docs/compare.md`) defines every
//! metric, cites the Ludii file it follows and says where and why ours departs.
//!
//! # Determinism
//!
//! Every game's seed is derived from [`Settings::seed`] and the game's index (the same
//! throws for every configuration and agent: duplicate dice), every aggregation is in
//! index order and the bootstrap draws from a seeded generator, so the same seed gives the
//! same figures on any number of threads.

mod config;
mod measure;
mod output;
mod significance;
#[cfg(test)]
mod tests;

use std::time::Instant;

use rand::{RngExt as _, SeedableRng as _};
use rayon::prelude::*;
use serde::Serialize;
use stickdice::{with_game, Board, Stop};
use stickdice_agents::solve::{self, Exact};
use stickdice_agents::{AgentSpec, Evaluate};

pub use config::{
    every_game, parse_groups, parse_toml, Arg, CompareError, Configuration, MAX_CONFIGURATIONS,
};
pub use significance::{holm, normal_two_sided_p, Difference};

use crate::analysis::Measure;
use crate::arena::{self, Factory};
use crate::review::{self, ReferenceOptions, Reviewable};
use crate::stats::Estimate;
use measure::{Trial, Values};

/// Every metric, in the order of the outputs. The first group follows Ludii's Evaluation
/// module (`Evaluation/src/metrics/single/…`); the last group is ours.
pub const METRICS: &[&str] = &[
    // outcome
    "Balance",
    "Completion",
    "Drawishness",
    "Timeouts",
    "AdvantageP1",
    "OutcomeUniformity",
    // duration
    "DurationActions",
    "DurationMoves",
    "DurationTurns",
    "DurationTurnsStdDev",
    "DurationTurnsNotTimeouts",
    // decisions
    "BranchingFactor",
    "DecisionFactor",
    "DecisionMoves",
    // state evaluation
    "Drama",
    "LeadChange",
    "Stability",
    "ClarityNarrowness",
    "ClarityVariance",
    "DecisivenessMoves",
    "DecisivenessThreshold",
    // board
    "MoveDistance",
    "PieceNumber",
    "ScoreDifference",
    "BoardCoverage",
    // complexity
    "StateSpaceComplexity",
    "GameTreeComplexity",
    "GameTreeComplexityChance",
    // skill
    "SkillTrace",
    // ours
    "ExactAdvantageP1",
    "ExactDurationThrows",
    "DurationThrows",
    "LuckShare",
];

/// The range a metric's value lies in, `(low, high)`: [0, 1] for the shares, scores and
/// balances, not negative for durations and counts, unbounded otherwise. Intervals are
/// clipped to it ([`Metric::interval`]).
///
/// ```
/// use stickdice_evaluation::compare::metric_range;
/// assert_eq!(metric_range("Balance"), (0.0, 1.0));
/// assert_eq!(metric_range("DurationTurns"), (0.0, f64::INFINITY));
/// ```
pub fn metric_range(name: &str) -> (f64, f64) {
    match name {
        "Balance" | "Completion" | "Drawishness" | "Timeouts" | "AdvantageP1"
        | "ExactAdvantageP1" | "BoardCoverage" => (0.0, 1.0),
        "DurationActions"
        | "DurationMoves"
        | "DurationTurns"
        | "DurationTurnsStdDev"
        | "DurationTurnsNotTimeouts"
        | "DurationThrows"
        | "ExactDurationThrows"
        | "BranchingFactor"
        | "DecisionFactor"
        | "DecisionMoves"
        | "PieceNumber"
        | "MoveDistance" => (0.0, f64::INFINITY),
        _ => (f64::NEG_INFINITY, f64::INFINITY),
    }
}

/// How to compare.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    /// Games per configuration and agent (every seat played by the agent).
    pub games: usize,
    /// The agents of self-play, as specs (`random`, `mcts:iterations=100`); one row of
    /// figures per configuration and agent.
    pub agents: Vec<String>,
    /// The figures that need the board or a state evaluation are measured on the first
    /// `detailed` games of each row (they replay every position).
    pub detailed: usize,
    /// The agents of the skill trace, in order of growing strength (each plays the one
    /// before it; the first plays `random`). Empty: no skill trace.
    pub trace: Vec<String>,
    /// Rotations per step of the skill trace (one game per seat on the same throws).
    pub trace_rotations: usize,
    /// Games of each row whose luck is measured (the review machinery's reference).
    pub luck_games: usize,
    /// The metrics to give (all of [`METRICS`] when empty).
    pub metrics: Vec<String>,
    /// Use the exact solver where the game is solvable.
    pub exact: bool,
    /// The family-wise error rate of the significance tests (Holm–Bonferroni over the
    /// metrics of each pair of configurations).
    pub alpha: f64,
    /// The root seed.
    pub seed: u64,
    /// A budget of throws per configuration and agent, so that long games get fewer games
    /// rather than more time: self-play stops after the first game that brings its throws
    /// to the budget (at least [`MIN_BUDGET_GAMES`] games, at most `games`; the detailed and
    /// luck games are the first of those, the luck games only up to the game that brings
    /// their throws to a tenth of the budget, at least [`MIN_BUDGET_LUCK_GAMES`]: luck is
    /// reviewed throw by throw). The games kept are a prefix in index order, so
    /// the figures still do not depend on the thread count; each row's `games` and each
    /// figure's `n` say how many games it rests on. `None`: `games` games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throws: Option<u64>,
    /// The same for each step of the skill trace: it stops after the first rotation whose
    /// games bring the step's throws (those of the games, not of the agents' searches) to
    /// the budget (at least [`MIN_BUDGET_ROTATIONS`] rotations, at most `trace_rotations`).
    /// `None`: `trace_rotations` rotations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_throws: Option<u64>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            games: 2000,
            agents: vec!["random".to_string()],
            detailed: 300,
            trace: DEFAULT_TRACE.iter().map(|s| s.to_string()).collect(),
            trace_rotations: 100,
            luck_games: 200,
            metrics: Vec::new(),
            exact: true,
            alpha: 0.05,
            seed: 1,
            throws: None,
            trace_throws: None,
        }
    }
}

/// The default skill trace: MCTS with random playouts to the end and no evaluation prior
/// (so every game plays it the same way, evaluation or not) at growing iteration budgets.
pub const DEFAULT_TRACE: &[&str] = &[
    "mcts:iterations=4,playout=random,cutoff=0,prior=0",
    "mcts:iterations=16,playout=random,cutoff=0,prior=0",
    "mcts:iterations=64,playout=random,cutoff=0,prior=0",
];

/// The search depth of Issiren's luck reference (the review machinery's default, 3, takes
/// half a second a game).
const LUCK_DEPTH: u32 = 1;

/// One figure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Metric {
    /// Its name (one of [`METRICS`]).
    pub name: &'static str,
    /// Its value (`None` where it does not apply; `note` says why).
    pub value: Option<f64>,
    /// The half-width of its 95% interval (`None` for exact values and figures without
    /// one).
    pub ci95: Option<f64>,
    /// The 95% interval, `value ± ci95` clipped to the metric's range ([`metric_range`]: a
    /// share or a balance lies in [0, 1], a duration is not negative); `None` without
    /// `ci95`.
    pub interval: Option<[f64; 2]>,
    /// The number of games (or positions) behind it.
    pub n: usize,
    /// Whether the value is exact (solved), not estimated.
    pub exact: bool,
    /// What it was computed from (the agent's games, the evaluation used, the solver).
    pub source: String,
    /// Why there is no value, or a caveat.
    pub note: Option<String>,
}

impl Metric {
    fn estimate(name: &'static str, xs: &[f64], source: &str) -> Metric {
        if xs.is_empty() {
            return Metric::missing(name, "no game where it applies");
        }
        let e = Estimate::of(xs);
        Metric {
            name,
            value: Some(e.mean),
            ci95: e.half_width,
            interval: None,
            n: e.n,
            exact: false,
            source: source.to_string(),
            note: None,
        }
    }

    fn missing(name: &'static str, why: &str) -> Metric {
        Metric {
            name,
            value: None,
            ci95: None,
            interval: None,
            n: 0,
            exact: false,
            source: String::new(),
            note: Some(why.to_string()),
        }
    }

    fn exact(name: &'static str, value: f64, source: &str) -> Metric {
        Metric {
            name,
            value: Some(value),
            ci95: None,
            interval: None,
            n: 0,
            exact: true,
            source: source.to_string(),
            note: None,
        }
    }

    /// `self` with its [`Metric::interval`]: `value ± ci95` clipped to the range of the
    /// metric.
    fn with_interval(mut self) -> Metric {
        self.interval = match (self.value, self.ci95) {
            (Some(v), Some(h)) => {
                let (lo, hi) = metric_range(self.name);
                Some([(v - h).max(lo), (v + h).min(hi)])
            }
            _ => None,
        };
        self
    }

    /// The standard error behind the interval (0 for exact values).
    pub fn se(&self) -> Option<f64> {
        if self.exact {
            return Some(0.0);
        }
        self.ci95.map(|h| h / crate::stats::Z95)
    }
}

/// The figures of one configuration under one agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The configuration's label.
    pub label: String,
    /// The agent in every seat.
    pub agent: String,
    /// The self-play games its figures rest on ([`Settings::games`], or fewer within a
    /// budget of throws, [`Settings::throws`]).
    pub games: usize,
    /// The figures, in the order of [`METRICS`] (those asked for).
    pub metrics: Vec<Metric>,
}

impl Row {
    /// The figure named `name`.
    pub fn get(&self, name: &str) -> Option<&Metric> {
        self.metrics.iter().find(|m| m.name == name)
    }
}

/// One step of the skill trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SkillStep {
    /// The stronger agent.
    pub agent: String,
    /// The agent it plays (the step before).
    pub against: String,
    /// The stronger agent's mean score.
    pub score: f64,
    /// The half-width of its 95% interval.
    pub ci95: Option<f64>,
    /// Games played.
    pub games: usize,
    /// The stronger agent's score in each rotation (for the bootstrap).
    #[serde(skip)]
    rotations: Vec<f64>,
}

/// Where a configuration's time went (seconds of wall time).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Timing {
    /// Solving exactly.
    pub exact: f64,
    /// Playing and measuring the self-play games.
    pub play: f64,
    /// Measuring luck.
    pub luck: f64,
    /// The skill trace.
    pub trace: f64,
}

/// One configuration's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigurationResult {
    /// The configuration.
    pub configuration: Configuration,
    /// Its label.
    pub label: String,
    /// The game's title.
    pub title: String,
    /// Every rule option's value (set or default).
    pub options: Vec<(String, String)>,
    /// One row per agent of [`Settings::agents`].
    pub rows: Vec<Row>,
    /// The skill trace's steps.
    pub skill_trace: Vec<SkillStep>,
    /// Where the time went (not part of what the seed determines).
    pub seconds: Timing,
}

/// A comparison: every configuration's figures and the significant differences.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The settings.
    pub settings: Settings,
    /// The metrics given, in order.
    pub metrics: Vec<&'static str>,
    /// Each configuration's results, in the order given.
    pub results: Vec<ConfigurationResult>,
    /// Each configuration after the first against the first (the baseline), per agent and
    /// metric.
    pub differences: Vec<Difference>,
}

/// Checks metric names, saying which one is unknown and the closest known one.
///
/// # Errors
/// [`CompareError::UnknownMetric`]; [`CompareError::Settings`] for a metric named twice.
pub fn check_metrics<S: AsRef<str>>(names: &[S]) -> Result<Vec<&'static str>, CompareError> {
    if names.is_empty() {
        return Ok(METRICS.to_vec());
    }
    let metrics: Vec<&'static str> = names
        .iter()
        .map(|n| {
            let n = n.as_ref().trim();
            METRICS
                .iter()
                .find(|m| m.eq_ignore_ascii_case(n))
                .copied()
                .ok_or_else(|| CompareError::UnknownMetric {
                    name: n.to_string(),
                    near: stickdice::config::did_you_mean(n, METRICS.iter().copied()),
                })
        })
        .collect::<Result<_, _>>()?;
    for (i, m) in metrics.iter().enumerate() {
        if metrics[..i].contains(m) {
            return Err(CompareError::Settings(format!(
                "metric {m} is asked for twice: name each once"
            )));
        }
    }
    Ok(metrics)
}

/// The most games per configuration and agent, and the most rotations per step of the
/// skill trace.
pub const MAX_GAMES: usize = 1_000_000;

/// The fewest self-play games a configuration and agent plays under a budget of throws
/// ([`Settings::throws`]), however long its games.
pub const MIN_BUDGET_GAMES: usize = 100;

/// The fewest luck games a configuration and agent measures under a budget of throws
/// ([`Settings::throws`]).
pub const MIN_BUDGET_LUCK_GAMES: usize = 20;

/// Under a budget of throws, the luck games stop after the game that brings their throws to
/// this fraction (1/10) of the budget.
const LUCK_SHARE_OF_BUDGET: u64 = 10;

/// The fewest rotations a step of the skill trace plays under a budget of throws
/// ([`Settings::trace_throws`]), however long its games.
pub const MIN_BUDGET_ROTATIONS: usize = 10;

/// Path tags of the seeds.
const PLAY: u64 = 0x706c6179; // "play"
const TRACE: u64 = 0x74726163; // "trac"
const BOOT: u64 = 0x626f6f74; // "boot"

/// Compares `configs` under `settings`: plays every configuration with every agent,
/// measures, and tests each configuration against the first.
///
/// ```
/// use stickdice_evaluation::compare::{compare, Configuration, Settings};
/// let configs = [
///     Configuration::new("sig-wa-duqqan", Some(2), &[] as &[&str]).unwrap(),
///     Configuration::new("sig-el-oued", Some(2), &[] as &[&str]).unwrap(),
/// ];
/// let settings = Settings { games: 40, detailed: 10, trace: vec![], luck_games: 10, ..Settings::default() };
/// let c = compare(&configs, &settings).unwrap();
/// let row = &c.results[0].rows[0];
/// // Sig wa Duqqan is solved: its seat advantage is exact.
/// assert!(row.get("ExactAdvantageP1").unwrap().exact);
/// println!("{}", c.table());
/// ```
///
/// # Errors
/// [`CompareError`] for no configuration, a bad setting, an unknown metric or an agent
/// that cannot play a game; a configuration, agent or metric given twice; more than
/// [`MAX_CONFIGURATIONS`] configurations, or more than [`MAX_GAMES`] games or rotations.
pub fn compare(configs: &[Configuration], settings: &Settings) -> Result<Comparison, CompareError> {
    compare_with_progress(configs, settings, &|_| {})
}

/// As [`compare`], calling `progress` with a line of what is being done.
///
/// # Errors
/// As [`compare`].
pub fn compare_with_progress(
    configs: &[Configuration],
    settings: &Settings,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Comparison, CompareError> {
    compare_inner(configs, settings, progress, None)
}

/// As [`compare_with_progress`], stopping early once `stop` is stopped (asked to, or past
/// its deadline): every searching agent is handed `stop`, no game starts after it, and the
/// comparison answers [`CompareError::Stopped`] instead of figures from unfinished games.
/// A front end bounds a comparison's time this way (the web page's `/api/compare`). A
/// comparison that is not stopped gives the same figures as [`compare`].
///
/// # Errors
/// As [`compare`], and [`CompareError::Stopped`].
pub fn compare_until(
    configs: &[Configuration],
    settings: &Settings,
    progress: &(dyn Fn(&str) + Sync),
    stop: &Stop,
) -> Result<Comparison, CompareError> {
    compare_inner(configs, settings, progress, Some(stop))
}

fn compare_inner(
    configs: &[Configuration],
    settings: &Settings,
    progress: &(dyn Fn(&str) + Sync),
    stop: Option<&Stop>,
) -> Result<Comparison, CompareError> {
    if configs.is_empty() {
        return Err(CompareError::Settings(
            "nothing to compare: give at least one --game (or a --file)".to_string(),
        ));
    }
    if settings.games < 2 {
        return Err(CompareError::Settings(format!(
            "--games {} is too few: intervals need at least 2 games",
            settings.games
        )));
    }
    if settings.games > MAX_GAMES || settings.trace_rotations > MAX_GAMES {
        return Err(CompareError::Settings(format!(
            "{} {} is more than the limit of {MAX_GAMES}",
            if settings.games > MAX_GAMES {
                "--games"
            } else {
                "--trace-rotations"
            },
            settings.games.max(settings.trace_rotations)
        )));
    }
    if configs.len() > MAX_CONFIGURATIONS {
        return Err(CompareError::Settings(format!(
            "{} configurations are more than the limit of {MAX_CONFIGURATIONS}: compare fewer at once",
            configs.len()
        )));
    }
    for (flag, budget) in [
        ("--throws", settings.throws),
        ("--trace-throws", settings.trace_throws),
    ] {
        if budget == Some(0) {
            return Err(CompareError::Settings(format!(
                "a budget of 0 throws plays nothing: give a positive {flag}"
            )));
        }
    }
    if settings.agents.is_empty() {
        return Err(CompareError::Settings(
            "no agent: give at least one with --agents".to_string(),
        ));
    }
    // A configuration given twice plays the same games again and its figures would be
    // told apart by nothing (the same label); the same for an agent.
    let mut seen: Vec<String> = Vec::new();
    for (i, c) in configs.iter().enumerate() {
        // Every option with its value as the game reads it (defaults included).
        let key = format!("{} {} {:?}", c.game, c.players, c.build()?.options());
        if let Some(j) = seen.iter().position(|k| *k == key) {
            return Err(CompareError::Settings(format!(
                "configuration {} ({c}) is configuration {} ({}) again: give each once",
                i + 1,
                j + 1,
                configs[j]
            )));
        }
        seen.push(key);
    }
    if !(settings.alpha > 0.0 && settings.alpha < 1.0) {
        return Err(CompareError::Settings(format!(
            "alpha {} is not between 0 and 1",
            settings.alpha
        )));
    }
    let metrics = check_metrics(&settings.metrics)?;
    let specs = |list: &[String]| -> Result<Vec<AgentSpec>, CompareError> {
        list.iter()
            .map(|s| {
                s.parse::<AgentSpec>()
                    .map_err(|e| CompareError::Agent(e.to_string()))
            })
            .collect()
    };
    let agents = specs(&settings.agents)?;
    let trace = specs(&settings.trace)?;
    // The same agent: the same name and parameters, in any order.
    let same = |a: &AgentSpec, b: &AgentSpec| {
        let mut pa = a.params().to_vec();
        let mut pb = b.params().to_vec();
        pa.sort();
        pb.sort();
        a.name() == b.name() && pa == pb
    };
    for (i, a) in agents.iter().enumerate() {
        if agents[..i].iter().any(|b| same(a, b)) {
            return Err(CompareError::Settings(format!(
                "agent `{a}` is given twice: give each once"
            )));
        }
    }
    let mut results = Vec::new();
    for c in configs {
        let any = c.build()?;
        progress(&format!("{c}"));
        let r = with_game!(&any, |g| run(
            g, c, &agents, &trace, &metrics, settings, progress, stop
        ))?;
        results.push(r);
    }
    let differences =
        significance::differences(&results, &settings.agents, &metrics, settings.alpha);
    Ok(Comparison {
        settings: settings.clone(),
        metrics,
        results,
        differences,
    })
}

fn factory_of<G: Evaluate>(
    spec: &AgentSpec,
    game: &G,
    stop: Option<&Stop>,
) -> Result<Factory<G>, CompareError> {
    let f = crate::builder::spec_factory(spec, game)
        .map_err(|e| CompareError::Agent(format!("{spec} cannot play {}: {e}", G::TITLE)))?;
    Ok(match stop {
        None => f,
        Some(stop) => {
            let stop = stop.clone();
            arena::factory(move |g: &G, seed| {
                let mut agent = f(g, seed);
                agent.set_stop(stop.clone());
                agent
            })
        }
    })
}

/// Whether `stop` asks to stop.
fn stopped(stop: Option<&Stop>) -> bool {
    stop.is_some_and(Stop::is_stopped)
}

#[allow(clippy::too_many_arguments)]
fn run<G>(
    game: &G,
    config: &Configuration,
    agents: &[AgentSpec],
    trace: &[AgentSpec],
    metrics: &[&'static str],
    settings: &Settings,
    progress: &(dyn Fn(&str) + Sync),
    stop: Option<&Stop>,
) -> Result<ConfigurationResult, CompareError>
where
    G: Measure + Board + Exact + Evaluate + Reviewable,
{
    let mut timing = Timing::default();
    let seats = game.seats();
    let factories: Vec<Factory<G>> = agents
        .iter()
        .map(|s| factory_of(s, game, stop))
        .collect::<Result<_, _>>()?;
    let trace_factories: Vec<Factory<G>> = trace
        .iter()
        .map(|s| factory_of(s, game, stop))
        .collect::<Result<_, _>>()?;
    let random = factory_of(&"random".parse().expect("a valid spec"), game, stop)?;

    // Exact, where solvable.
    let t0 = Instant::now();
    let solution = if settings.exact && game.solver_support().is_ok() {
        progress("  solving exactly");
        solve::solved(game).ok()
    } else {
        None
    };
    timing.exact = t0.elapsed().as_secs_f64();
    if stopped(stop) {
        return Err(CompareError::Stopped);
    }
    let values = match &solution {
        Some(s) => Values::Exact(s.clone()),
        None if G::HAS_EVALUATION => Values::Heuristic,
        None => Values::None,
    };
    let wants = |m: &str| metrics.contains(&m);
    let luck_wanted = wants("LuckShare") && settings.luck_games > 0;

    let mut rows = Vec::new();
    for (ai, (spec, f)) in agents.iter().zip(&factories).enumerate() {
        let t0 = Instant::now();
        progress(&format!("  self-play: {spec}"));
        let seating: Vec<&Factory<G>> = vec![f; seats];
        let detailed = settings.detailed;
        let played = within_budget(
            settings.games,
            settings.throws.map(|b| (b, MIN_BUDGET_GAMES)),
            stop,
            |i| {
                let seed = stickdice::seed::derive(settings.seed, &[PLAY, i as u64]);
                let result = arena::play(game, &seating, seed);
                let t = measure::trial(game, &result, (i < detailed).then_some(&values));
                let keep = luck_wanted && i < settings.luck_games;
                (t, keep.then_some(result))
            },
            |(t, _)| u64::from(t.throws),
        );
        timing.play += t0.elapsed().as_secs_f64();
        let Some(played) = played else {
            return Err(CompareError::Stopped);
        };
        let (trials, kept): (Vec<Trial>, Vec<_>) = played.into_iter().unzip();
        let t0 = Instant::now();
        let luck = if luck_wanted {
            progress(&format!("  luck: {spec}"));
            let kept = luck_games(kept, settings.throws);
            Some(luck_share(game, &kept, settings.seed ^ ai as u64, stop))
        } else {
            None
        };
        if stopped(stop) {
            return Err(CompareError::Stopped);
        }
        timing.luck += t0.elapsed().as_secs_f64();
        let source = format!("{} games, {spec} in every seat", trials.len());
        let mut ms = figures(
            game,
            &trials,
            &values,
            solution.as_deref(),
            &source,
            settings,
            ai,
        );
        if let Some(l) = luck {
            ms.push(l);
        }
        rows.push(Row {
            label: config.label(),
            agent: spec.to_string(),
            games: trials.len(),
            metrics: ms,
        });
    }

    // The skill trace.
    let t0 = Instant::now();
    let mut steps = Vec::new();
    if wants("SkillTrace") {
        steps = skill_trace_steps(
            game,
            trace,
            &trace_factories,
            &random,
            settings,
            progress,
            stop,
        )?;
    }
    timing.trace = t0.elapsed().as_secs_f64();
    let skill = skill_trace_metric(&steps, settings.seed);

    for row in &mut rows {
        row.metrics.push(skill.clone());
        row.metrics = in_order(&row.metrics, metrics);
    }
    Ok(ConfigurationResult {
        configuration: config.clone(),
        label: config.label(),
        title: game.title().to_string(),
        options: game
            .options()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        rows,
        skill_trace: steps,
        seconds: timing,
    })
}

/// The self-play games kept for the luck share (`None`: not kept), within a tenth of the
/// throw budget, if there is one (luck is reviewed throw by throw), and at least
/// [`MIN_BUDGET_LUCK_GAMES`].
fn luck_games<G: stickdice::Game>(
    kept: Vec<Option<arena::GameResult<G>>>,
    budget: Option<u64>,
) -> Vec<arena::GameResult<G>> {
    let mut kept: Vec<arena::GameResult<G>> = kept.into_iter().flatten().collect();
    if let Some(budget) = budget {
        // Within a tenth of the budget: luck is reviewed throw by throw.
        let mut total = 0u64;
        let n = kept
            .iter()
            .position(|r| {
                total += u64::from(r.throws);
                total >= budget / LUCK_SHARE_OF_BUDGET
            })
            .map_or(kept.len(), |i| i + 1)
            .max(MIN_BUDGET_LUCK_GAMES);
        kept.truncate(n);
    }
    kept
}

/// The figures asked for, in the order of `metrics`, each with its interval.
fn in_order(figures: &[Metric], metrics: &[&'static str]) -> Vec<Metric> {
    let mut ordered = Vec::new();
    for m in metrics {
        if let Some(x) = figures.iter().find(|x| x.name == *m) {
            ordered.push(x.clone().with_interval());
        }
    }
    ordered
}

/// The skill trace: each agent of `trace` against the one before it (the first against
/// random), rotated through the seats on the same throws.
fn skill_trace_steps<G: Evaluate>(
    game: &G,
    trace: &[AgentSpec],
    trace_factories: &[Factory<G>],
    random: &Factory<G>,
    settings: &Settings,
    progress: &(dyn Fn(&str) + Sync),
    stop: Option<&Stop>,
) -> Result<Vec<SkillStep>, CompareError> {
    let seats = game.seats();
    let mut steps = Vec::new();
    let mut weaker: (&Factory<G>, String) = (random, "random".to_string());
    for (k, (spec, f)) in trace.iter().zip(trace_factories).enumerate() {
        progress(&format!("  skill trace: {spec}"));
        let rotations = settings.trace_rotations.max(2);
        // One rotation: the stronger agent in each seat in turn, on the same throws;
        // its mean score and its throws.
        let rotation = |r: usize| -> (f64, u64) {
            let seed = stickdice::seed::derive(settings.seed, &[TRACE, k as u64, r as u64]);
            let mut total = 0.0;
            let mut throws = 0u64;
            for seat in 0..seats {
                let mut seating: Vec<&Factory<G>> = vec![weaker.0; seats];
                seating[seat] = f;
                let result = arena::play(game, &seating, seed);
                total += result.ranking.score(seat);
                throws += u64::from(result.throws);
            }
            (total / seats as f64, throws)
        };
        let played = within_budget(
            rotations,
            settings.trace_throws.map(|b| (b, MIN_BUDGET_ROTATIONS)),
            stop,
            rotation,
            |&(_, throws)| throws,
        );
        let Some(played) = played else {
            return Err(CompareError::Stopped);
        };
        let per_rotation: Vec<f64> = played.iter().map(|&(score, _)| score).collect();
        let e = Estimate::of(&per_rotation);
        steps.push(SkillStep {
            agent: spec.to_string(),
            against: weaker.1.clone(),
            score: e.mean,
            ci95: e.half_width,
            games: per_rotation.len() * seats,
            rotations: per_rotation.clone(),
        });
        weaker = (f, spec.to_string());
    }
    Ok(steps)
}

/// Plays items `0..max` (`play(i)`, in parallel chunks) and keeps them in index order: all
/// of them, or with `budget = Some((throws, min))` those up to the first whose running total
/// of `cost` reaches `throws`, at least `min`. What is kept depends only on the items, not
/// on the chunks or threads. `None` once `stop` is stopped.
fn within_budget<T: Send>(
    max: usize,
    budget: Option<(u64, usize)>,
    stop: Option<&Stop>,
    play: impl Fn(usize) -> T + Sync,
    cost: impl Fn(&T) -> u64,
) -> Option<Vec<T>> {
    let chunk = match budget {
        None => max.max(1),
        Some(_) => (8 * rayon::current_num_threads()).max(32),
    };
    let enough = |n: usize, total: u64| budget.is_some_and(|(b, min)| n >= min && total >= b);
    let mut kept = Vec::new();
    let mut total = 0u64;
    let mut start = 0;
    while start < max && !enough(kept.len(), total) {
        let end = (start + chunk).min(max);
        let batch: Vec<Option<T>> = (start..end)
            .into_par_iter()
            .map(|i| (!stopped(stop)).then(|| play(i)))
            .collect();
        if stopped(stop) {
            return None;
        }
        for item in batch.into_iter().flatten() {
            if enough(kept.len(), total) {
                break;
            }
            total += cost(&item);
            kept.push(item);
        }
        start = end;
    }
    Some(kept)
}

/// Ludii's SkillTrace summary (`designer/SkillTrace.java`) of the steps' results `r_j` on
/// the utility scale (`2·score − 1`): the least-squares line through `(j, r_j)` predicted
/// at `x = m + 1` (`m` steps) and clamped to `[0, 1]`, `y`; the area `A = Σ max(r_j, 0)`;
/// `y + (1 − y)·A/m`.
pub fn skill_trace_summary(r: &[f64]) -> Option<f64> {
    let m = r.len();
    if m == 0 {
        return None;
    }
    let mf = m as f64;
    let xbar = (mf - 1.0) / 2.0;
    let ybar = r.iter().sum::<f64>() / mf;
    let sxx: f64 = (0..m).map(|j| (j as f64 - xbar).powi(2)).sum();
    let sxy: f64 = r
        .iter()
        .enumerate()
        .map(|(j, y)| (j as f64 - xbar) * (y - ybar))
        .sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    let y = (ybar + slope * (mf + 1.0 - xbar)).clamp(0.0, 1.0);
    let area: f64 = r.iter().map(|x| x.max(0.0)).sum();
    Some(y + (1.0 - y) * area / mf)
}

/// SkillTrace from the steps, with a bootstrap interval (rotations resampled within each
/// step).
fn skill_trace_metric(steps: &[SkillStep], seed: u64) -> Metric {
    if steps.is_empty() {
        return Metric::missing("SkillTrace", "no skill trace (--trace none)");
    }
    let r: Vec<f64> = steps.iter().map(|s| 2.0 * s.score - 1.0).collect();
    let value = skill_trace_summary(&r);
    let mut rng = stickdice::Rng::seed_from_u64(stickdice::seed::derive(seed, &[BOOT, TRACE]));
    let mut xs = Vec::new();
    for _ in 0..200 {
        let rb: Vec<f64> = steps
            .iter()
            .map(|s| {
                let n = s.rotations.len();
                let total: f64 = (0..n).map(|_| s.rotations[rng.random_range(0..n)]).sum();
                2.0 * total / n as f64 - 1.0
            })
            .collect();
        xs.extend(skill_trace_summary(&rb));
    }
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    let sd = (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64).sqrt();
    let chain: Vec<String> = std::iter::once(steps[0].against.clone())
        .chain(steps.iter().map(|s| s.agent.clone()))
        .collect();
    Metric {
        name: "SkillTrace",
        value,
        ci95: Some(crate::stats::Z95 * sd),
        interval: None,
        n: steps.iter().map(|s| s.games).sum(),
        exact: false,
        source: format!(
            "trace {}, each step against the one before",
            chain.join(" → ")
        ),
        note: None,
    }
}

/// The bootstrap's half-width of the 95% interval of `stat` over `n` games (200
/// resamples from a seeded generator, normal interval from the resamples' spread).
fn bootstrap(n: usize, seed: u64, stat: impl Fn(&[usize]) -> Option<f64>) -> Option<f64> {
    const RESAMPLES: usize = 200;
    if n < 2 {
        return None;
    }
    let mut rng = stickdice::Rng::seed_from_u64(stickdice::seed::derive(seed, &[BOOT]));
    let mut idx = vec![0usize; n];
    let mut xs = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        for i in idx.iter_mut() {
            *i = rng.random_range(0..n);
        }
        if let Some(v) = stat(&idx) {
            xs.push(v);
        }
    }
    if xs.len() < 2 {
        return None;
    }
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64;
    Some(crate::stats::Z95 * var.sqrt())
}

/// A figure that is a function of the games (not a mean of one number per game), with a
/// bootstrap interval.
fn aggregate(
    name: &'static str,
    n: usize,
    seed: u64,
    source: &str,
    stat: impl Fn(&[usize]) -> Option<f64>,
) -> Metric {
    let all: Vec<usize> = (0..n).collect();
    match stat(&all) {
        None => Metric::missing(name, "no game where it applies"),
        Some(v) => Metric {
            name,
            value: Some(v),
            ci95: bootstrap(
                n,
                stickdice::seed::derive(seed, &[name.len() as u64, u64::from(name.as_bytes()[0])]),
                &stat,
            ),
            interval: None,
            n,
            exact: false,
            source: source.to_string(),
            note: None,
        },
    }
}

/// Each seat's mean partial win (score) over the games `idx`.
fn mean_scores(trials: &[Trial], idx: &[usize], seats: usize) -> Vec<f64> {
    let mut total = vec![0.0; seats];
    for &i in idx {
        for (t, s) in total.iter_mut().zip(&trials[i].scores) {
            *t += s;
        }
    }
    total.iter().map(|w| w / idx.len() as f64).collect()
}

/// One figure of a game's detail.
type DetailFigure = fn(&measure::Detail) -> Option<f64>;

/// Every figure of one agent's trials: the outcomes' (balance, duration, branching…), the
/// detail's (board and state evaluation) and the state space's.
fn figures<G>(
    game: &G,
    trials: &[Trial],
    values: &Values<G>,
    solution: Option<&solve::Solution<G>>,
    source: &str,
    settings: &Settings,
    agent_index: usize,
) -> Vec<Metric>
where
    G: Measure + Board + Exact + Evaluate,
{
    let seed = stickdice::seed::derive(settings.seed, &[agent_index as u64]);
    let mut out = outcome_figures(trials, game.seats(), seed, source);
    let no_decisions = trials.iter().all(|t| t.decisions == 0);
    for m in &mut out {
        if m.value.is_none() && matches!(m.name, "BranchingFactor" | "DecisionFactor") {
            m.note = Some("no decision in any game: a pure chance process".to_string());
        }
    }
    // Detail: board and state evaluation.
    let details: Vec<&measure::Detail> = trials.iter().filter_map(|t| t.detail.as_ref()).collect();
    let dsource = format!(
        "the first {} games, values: {}",
        details.len(),
        values.describe()
    );
    out.extend(detail_figures::<G>(
        &details,
        values,
        no_decisions,
        &dsource,
    ));
    out.extend(state_space_figures(
        game, solution, &details, &dsource, settings,
    ));
    out
}

/// The figures of the games' outcomes and lengths, from every trial.
fn outcome_figures(trials: &[Trial], seats: usize, seed: u64, source: &str) -> Vec<Metric> {
    let n = trials.len();
    let col =
        |f: &dyn Fn(&Trial) -> Option<f64>| -> Vec<f64> { trials.iter().filter_map(f).collect() };
    let share = |f: &dyn Fn(&Trial) -> bool| col(&|t| Some(f64::from(u8::from(f(t)))));
    vec![
        aggregate("Balance", n, seed, source, |idx| {
            let r = mean_scores(trials, idx, seats);
            let max = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let min = r.iter().copied().fold(f64::INFINITY, f64::min);
            Some(1.0 - (max - min))
        }),
        Metric::estimate("Completion", &share(&|t| t.sole_winner().is_some()), source),
        Metric::estimate(
            "Drawishness",
            &share(&|t| t.winners.len() > 1 && !t.capped && !t.failed),
            source,
        ),
        Metric::estimate("Timeouts", &share(&|t| t.capped), source),
        Metric::estimate("AdvantageP1", &col(&|t| Some(t.scores[0])), source),
        aggregate("OutcomeUniformity", n, seed, source, |idx| {
            // Ludii's utilities are in [−1, 1]: 2·score − 1; the sample variance
            // (`OutcomeUniformity.java` reads `Stats.varn()`, which divides by n − 1).
            let mut total = 0.0;
            for s in 0..seats {
                let us: Vec<f64> = idx
                    .iter()
                    .map(|&i| 2.0 * trials[i].scores[s] - 1.0)
                    .collect();
                total += measure::sample_variance(&us);
            }
            Some(1.0 - total / seats as f64)
        }),
        Metric::estimate(
            "DurationActions",
            &col(&|t| Some(f64::from(t.throws + t.decisions))),
            source,
        ),
        Metric::estimate(
            "DurationMoves",
            &col(&|t| Some(f64::from(t.decisions))),
            source,
        ),
        Metric::estimate("DurationTurns", &col(&|t| Some(f64::from(t.turns))), source),
        aggregate("DurationTurnsStdDev", n, seed, source, |idx| {
            Some(
                measure::population_variance(
                    &idx.iter()
                        .map(|&i| f64::from(trials[i].turns))
                        .collect::<Vec<_>>(),
                )
                .sqrt(),
            )
        }),
        Metric::estimate(
            "DurationTurnsNotTimeouts",
            &col(&|t| (!t.capped).then_some(f64::from(t.turns))),
            source,
        ),
        Metric::estimate("BranchingFactor", &col(&|t| t.branching), source),
        Metric::estimate("DecisionFactor", &col(&|t| t.decision_factor), source),
        Metric::estimate("DecisionMoves", &col(&|t| Some(t.decision_moves)), source),
        Metric::estimate("GameTreeComplexity", &col(&|t| Some(t.tree_log10)), source),
        Metric::estimate(
            "GameTreeComplexityChance",
            &col(&|t| Some(t.tree_chance_log10)),
            source,
        ),
        Metric::estimate(
            "DurationThrows",
            &col(&|t| Some(f64::from(t.throws))),
            source,
        ),
        Metric::missing(
            "ScoreDifference",
            "the stick-dice games keep no score: a game ends with a ranking",
        ),
    ]
}

/// The figures of the detailed games: the board's, and those of the state evaluation (at
/// decision nodes, so missing for a pure chance process or a game without values).
fn detail_figures<G: Exact + Evaluate>(
    details: &[&measure::Detail],
    values: &Values<G>,
    no_decisions: bool,
    dsource: &str,
) -> Vec<Metric> {
    let dcol = |f: &dyn Fn(&measure::Detail) -> Option<f64>| -> Vec<f64> {
        details.iter().filter_map(|d| f(d)).collect()
    };
    let mut out = Vec::new();
    out.push(Metric::estimate(
        "PieceNumber",
        &dcol(&|d| Some(d.pieces)),
        dsource,
    ));
    out.push(Metric::estimate(
        "BoardCoverage",
        &dcol(&|d| Some(d.coverage)),
        dsource,
    ));
    out.push(Metric::estimate(
        "MoveDistance",
        &dcol(&|d| d.move_distance),
        dsource,
    ));
    let evaluated: [(&'static str, DetailFigure); 7] = [
        ("Drama", |d| d.drama),
        ("LeadChange", |d| d.lead_change),
        ("Stability", |d| d.stability),
        ("ClarityNarrowness", |d| d.clarity_narrowness),
        ("ClarityVariance", |d| d.clarity_variance),
        ("DecisivenessMoves", |d| d.decisiveness_moves),
        ("DecisivenessThreshold", |d| d.decisiveness_threshold),
    ];
    for (name, f) in evaluated {
        let m = if no_decisions {
            Metric::missing(
                name,
                "no decision in any game: a pure chance process (evaluated at decision nodes)",
            )
        } else if values.available() {
            Metric::estimate(name, &dcol(&f), dsource)
        } else {
            Metric::missing(
                name,
                &format!("{} has no state evaluation and is not solved", G::TITLE),
            )
        };
        out.push(m);
    }
    out
}

/// The figures of the state space: exact from the solver's solution, else a lower bound
/// from the positions the detailed games met.
fn state_space_figures<G: Exact>(
    game: &G,
    solution: Option<&solve::Solution<G>>,
    details: &[&measure::Detail],
    dsource: &str,
    settings: &Settings,
) -> Vec<Metric> {
    let mut out = Vec::new();
    match solution {
        Some(sol) => {
            let states = sol.stats().states as f64;
            out.push(Metric::exact(
                "StateSpaceComplexity",
                states.max(1.0).log10(),
                "exact: log10 of the positions reachable (throw count ignored), from the solver",
            ));
            let s0 = game.initial_state();
            if let Some(v) = sol.expected_scores(&s0) {
                out.push(Metric::exact(
                    "ExactAdvantageP1",
                    v[0],
                    "exact: P1's expected score under solved play, throw cap lifted",
                ));
            }
            if let Some(t) = sol.expected_throws(&s0) {
                out.push(Metric::exact(
                    "ExactDurationThrows",
                    t,
                    "exact: expected throws under solved play, throw cap lifted",
                ));
            }
        }
        None => {
            let mut keys: Vec<u64> = details
                .iter()
                .flat_map(|d| d.keys.iter().copied())
                .collect();
            keys.sort_unstable();
            keys.dedup();
            out.push(Metric {
                name: "StateSpaceComplexity",
                value: (!keys.is_empty()).then(|| (keys.len() as f64).log10()),
                ci95: None,
                interval: None,
                n: details.len(),
                exact: false,
                source: dsource.to_string(),
                note: Some(
                    "a lower bound: log10 of the distinct positions met in the games".to_string(),
                ),
            });
            let why = if settings.exact {
                format!("{} is not solved for this configuration", G::TITLE)
            } else {
                "the solver is off".to_string()
            };
            out.push(Metric::missing("ExactAdvantageP1", &why));
            out.push(Metric::missing("ExactDurationThrows", &why));
        }
    }
    out
}

/// LuckShare: the share of the variance of a seat's score that its luck explains,
/// `1 − Var(score − luck) / Var(score)`, averaged over the seats; luck from the review
/// machinery's reference (exact where solved).
fn luck_share<G: Reviewable>(
    game: &G,
    games: &[arena::GameResult<G>],
    seed: u64,
    stop: Option<&Stop>,
) -> Metric {
    let options = ReferenceOptions {
        depth: Some(LUCK_DEPTH),
        ..ReferenceOptions::default()
    };
    let reference = game
        .reference(&options)
        .or_else(|_| game.reference(&ReferenceOptions::default()));
    let described = match &reference {
        Ok(r) => r.describe(),
        Err(e) => return Metric::missing("LuckShare", &e.to_string()),
    };
    let exact_ref = reference.as_ref().is_ok_and(|r| r.is_exact());
    let opts = if exact_ref {
        ReferenceOptions::default()
    } else {
        options
    };
    let seats = game.seats();
    let measured: Vec<Option<(Vec<f64>, Vec<f64>)>> = games
        .par_iter()
        .map(|r| {
            if r.failure.is_some() || stopped(stop) {
                return None;
            }
            let mut reference = game.reference(&opts).ok()?;
            let events: Vec<crate::log::LoggedEvent> = r
                .events
                .iter()
                .map(|e| match *e {
                    stickdice::play::Event::Throw(_, t) => {
                        crate::log::LoggedEvent::Throw(t.marked())
                    }
                    stickdice::play::Event::Action(_, a) => {
                        crate::log::LoggedEvent::Action(a.to_string())
                    }
                })
                .collect();
            let rv =
                review::review(game, reference.as_mut(), &events, None, review::BLUNDER).ok()?;
            Some((
                rv.final_scores.clone(),
                rv.summary.iter().map(|s| s.luck).collect(),
            ))
        })
        .collect();
    let pairs: Vec<(Vec<f64>, Vec<f64>)> = measured.into_iter().flatten().collect();
    let n = pairs.len();
    let stat = |idx: &[usize]| -> Option<f64> {
        let mut shares = Vec::new();
        for s in 0..seats {
            let score: Vec<f64> = idx.iter().map(|&i| pairs[i].0[s]).collect();
            let rest: Vec<f64> = idx.iter().map(|&i| pairs[i].0[s] - pairs[i].1[s]).collect();
            let v = measure::population_variance(&score);
            if v > 0.0 {
                shares.push(1.0 - measure::population_variance(&rest) / v);
            }
        }
        (!shares.is_empty()).then(|| shares.iter().sum::<f64>() / shares.len() as f64)
    };
    let mut m = aggregate(
        "LuckShare",
        n,
        seed,
        &format!("{n} games; reference: {described}"),
        stat,
    );
    if m.value.is_none() {
        m.note = Some("no game could be reviewed, or the scores do not vary".to_string());
    }
    m
}
