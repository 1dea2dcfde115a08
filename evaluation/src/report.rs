//! The tournament report: built from the logged games alone, so a resumed run, a run on
//! any number of threads and an uninterrupted run give byte-identical files. (Timings are
//! measurements, not results: they stay in the log and the terminal summary.)
//!
//! Written as `report.json` (everything), `report.md` (tables for people),
//! `standings.csv` (one row per agent) and `ratings.svg` (Elo with 95% error bars).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::arena::FailureKind;
use crate::chart;
use crate::log::{GameRecord, TournamentConfig};
use crate::review::LuckReport;
use crate::schedule::Schedule;
use crate::stats::{
    fit_elo_paired, score_interval, Comparison, Distribution, Estimate, Sprt, SprtDecision,
};

/// Virtual drawn comparisons between every two agents that met, in the Elo fit (as
/// BayesElo's default prior): keeps the ratings finite when an agent wins every game.
pub const ELO_PRIOR: f64 = 2.0;

/// A value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// The lower end (`None` when it cannot be computed).
    pub low: Option<f64>,
    /// The upper end.
    pub high: Option<f64>,
}

impl Interval {
    fn new(value: f64, half_width: Option<f64>) -> Interval {
        Interval {
            value,
            low: half_width.map(|h| value - h),
            high: half_width.map(|h| value + h),
        }
    }

    /// The estimate's mean and 95% interval.
    pub fn from_estimate(e: &Estimate) -> Interval {
        Interval::new(e.mean, e.half_width)
    }

    /// The mean of scores in `[0, 1]` with its interval ([`score_interval`]).
    fn of_scores(xs: &[f64]) -> Interval {
        let value = Estimate::of(xs).mean;
        let range = score_interval(xs);
        Interval {
            value,
            low: range.map(|r| r.0),
            high: range.map(|r| r.1),
        }
    }

    /// `[low, high]` with `digits` decimals, or `-`.
    pub fn range(&self, digits: usize) -> String {
        fmt_range(self, digits)
    }

    fn half_width(&self) -> Option<f64> {
        self.high.map(|h| h - self.value)
    }
}

/// One agent's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// Its place in the standings (1 is best), by Elo, then mean score.
    pub rank: usize,
    /// The agent's label (its spec; `#2`… added when listed twice).
    pub agent: String,
    /// Its index in the tournament's agent list.
    pub index: usize,
    /// Games played.
    pub games: usize,
    /// Mean score per game (1 beat everyone, 0 beat no one) with its 95% interval over
    /// rotations.
    pub score: Interval,
    /// Elo rating relative to the field's mean, with its 95% interval.
    pub elo: Option<Interval>,
    /// Games lost by a failure (panic, illegal action, error).
    pub failures: usize,
}

/// One agent's record against another.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairwise {
    /// Games in which both sat.
    pub games: usize,
    /// The row agent's mean score against the column agent: 1 when it ranked above, ½ on a
    /// tie, 0 below, averaged over those games.
    pub score: f64,
}

/// A seat's results.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatResult {
    /// The seat (0 is P1, who throws first).
    pub seat: usize,
    /// The mean score of whoever sat there, with its 95% interval over rotations. Every
    /// agent sits in every seat equally often, so 0.5 means no seat advantage.
    pub score: Interval,
}

/// The SPRT's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtReport {
    /// The test.
    pub test: Sprt,
    /// The log-likelihood ratio at the end.
    pub llr: f64,
    /// The lower bound (accept H0 at or below).
    pub lower: f64,
    /// The upper bound (accept H1 at or above).
    pub upper: f64,
    /// The decision.
    pub decision: SprtDecision,
    /// Rotations (observations) used.
    pub rotations: usize,
    /// Whether the observations were luck-adjusted scores (`--luck-adjusted`).
    #[serde(default)]
    pub luck_adjusted: bool,
}

/// A game lost by a failure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailureLine {
    /// The game index.
    pub game: usize,
    /// The seat.
    pub seat: usize,
    /// The agent's label.
    pub agent: String,
    /// How it failed.
    pub kind: FailureKind,
    /// Why.
    pub message: String,
}

/// The whole report.
///
/// Every figure of a tournament, in JSON ([`Report::to_json`]), Markdown, CSV and SVG; a
/// run returns it in [`RunSummary::report`](crate::RunSummary::report).
///
/// ```
/// use stickdice::{Game, Issiren};
/// let game = Issiren::with_seats(2).unwrap();
/// let summary = stickdice_evaluation::tournament(&game)
///     .agents(["random", "greedy"])
///     .games(6)
///     .run()
///     .unwrap();
/// let report = summary.report.unwrap();
/// assert_eq!(report.standings[0].agent, "greedy");
/// assert!(report.to_markdown().contains("greedy"));
/// assert!(report.to_svg().starts_with("<svg") || report.to_svg().starts_with("<?xml"));
/// assert!(report.to_json().contains("\"standings\""));
/// ```
///
/// `Report` implements serde's `Deserialize`: `serde_json::from_str(&report.to_json())`
/// reads it back, equal to the original.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The tournament.
    pub tournament: TournamentConfig,
    /// The agents' labels, in the tournament's order.
    pub agents: Vec<String>,
    /// Games counted in this report.
    pub games: usize,
    /// Games the schedule holds (more than `games` when an SPRT stopped early).
    pub games_scheduled: usize,
    /// The standings, best first.
    pub standings: Vec<Standing>,
    /// `pairwise[a][b]`: agent `a`'s record against agent `b` (`None` if they never met).
    pub pairwise: Vec<Vec<Option<Pairwise>>>,
    /// Each seat's mean score.
    pub seats: Vec<SeatResult>,
    /// The first-seat advantage from the Elo fit, in Elo points, with its 95% interval: the
    /// bonus of the earlier seat in each pair of seats.
    pub first_seat_elo: Option<Interval>,
    /// Why the Elo ratings are missing, if they are.
    pub elo_error: Option<String>,
    /// Game length in throws.
    pub length: Option<Distribution>,
    /// The SPRT, if one was run.
    pub sprt: Option<SprtReport>,
    /// Games lost by failures.
    pub failures: Vec<FailureLine>,
    /// How the numbers were computed.
    pub methods: Vec<String>,
    /// Luck-adjusted scores, when asked for ([`Report::add_luck`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck: Option<LuckReport>,
    /// No game counted had a decision to make (every throw played itself, as in Sig wa
    /// Duqqan): the agents cannot differ, and their order in the standings means nothing.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub no_decisions: bool,
}

/// An agent's label as the user gave it, for the terminal: without the `tablebase=off` a
/// searcher's label carries in a game that has a tablebase (it is the default, whatever the
/// cache holds; the log and the report files keep it, so that they rebuild the same agent).
///
/// ```
/// use stickdice_evaluation::report::display_name;
/// assert_eq!(display_name("mcts:iterations=1000,tablebase=off"), "mcts:iterations=1000");
/// assert_eq!(display_name("expectimax:tablebase=off"), "expectimax");
/// assert_eq!(display_name("mcts:tablebase=cache"), "mcts:tablebase=cache");
/// assert_eq!(display_name("mcts:tablebase=off#2"), "mcts#2");
/// assert_eq!(display_name("greedy#2"), "greedy#2");
/// ```
pub fn display_name(label: &str) -> std::borrow::Cow<'_, str> {
    const OFF: &str = "tablebase=off";
    // A repeated agent's label ends in `#2`, `#3`… (see `tournament::labels`).
    let (spec, suffix) = match label.rfind('#') {
        Some(i) => label.split_at(i),
        None => (label, ""),
    };
    let Some((name, params)) = spec.split_once(':') else {
        return label.into();
    };
    if !params.split(',').any(|p| p == OFF) {
        return label.into();
    }
    let kept: Vec<&str> = params.split(',').filter(|p| *p != OFF).collect();
    if kept.is_empty() {
        format!("{name}{suffix}").into()
    } else {
        format!("{name}:{}{suffix}", kept.join(",")).into()
    }
}

/// The first agent's mean score in each complete rotation of `records` (sorted by index),
/// in order: the observations of the SPRT.
pub fn sprt_observations(records: &[&GameRecord], seats: usize) -> Vec<f64> {
    records
        .chunks(seats)
        .filter(|c| c.len() == seats)
        .map(|c| {
            c.iter()
                .map(|g| {
                    let s = g.seating.iter().position(|&a| a == 0).unwrap_or(0);
                    g.scores[s]
                })
                .sum::<f64>()
                / seats as f64
        })
        .collect()
}

/// The score of seat `i` against seat `j` from places.
fn pair_score(places: &[u8], i: usize, j: usize) -> f64 {
    match places[i].cmp(&places[j]) {
        core::cmp::Ordering::Less => 1.0,
        core::cmp::Ordering::Equal => 0.5,
        core::cmp::Ordering::Greater => 0.0,
    }
}

/// What the report counts of the games, rotation by rotation.
struct Tally {
    /// Per agent, its mean score in each rotation it played.
    agent_units: Vec<Vec<f64>>,
    /// Per seat, its mean score in each whole rotation.
    seat_units: Vec<Vec<f64>>,
    agent_games: Vec<usize>,
    failures_by_agent: Vec<usize>,
    pair_games: Vec<Vec<usize>>,
    pair_points: Vec<Vec<f64>>,
    /// Every pair of seats of every game, for the Elo fit.
    comparisons: Vec<Comparison>,
    /// The rotation of each comparison.
    units: Vec<usize>,
    failures: Vec<FailureLine>,
}

impl Tally {
    /// Counts the games (whole rotations of `n` seats) of the agents `labels`.
    fn of(labels: &[String], n: usize, games: &[&GameRecord]) -> Tally {
        let k = labels.len();
        // Per-rotation units: a unit is the n games of one table's rotation.
        let mut agent_units: Vec<Vec<f64>> = vec![Vec::new(); k];
        let mut seat_units: Vec<Vec<f64>> = vec![Vec::new(); n];
        let mut agent_games = vec![0usize; k];
        let mut failures_by_agent = vec![0usize; k];
        let mut pair_games = vec![vec![0usize; k]; k];
        let mut pair_points = vec![vec![0.0f64; k]; k];
        let mut comparisons = Vec::new();
        let mut units = Vec::new();
        let mut failures = Vec::new();
        let weight = if n > 1 { 1.0 / (n - 1) as f64 } else { 1.0 };
        for (u, unit) in games.chunks(n).enumerate() {
            let mut agent_sum = vec![0.0; k];
            let mut agent_count = vec![0usize; k];
            let mut seat_sum = vec![0.0; n];
            for g in unit {
                for (s, &a) in g.seating.iter().enumerate() {
                    agent_sum[a] += g.scores[s];
                    agent_count[a] += 1;
                    seat_sum[s] += g.scores[s];
                    agent_games[a] += 1;
                }
                for i in 0..n {
                    for j in i + 1..n {
                        let (a, b) = (g.seating[i], g.seating[j]);
                        let sc = pair_score(&g.places, i, j);
                        pair_games[a][b] += 1;
                        pair_games[b][a] += 1;
                        pair_points[a][b] += sc;
                        pair_points[b][a] += 1.0 - sc;
                        comparisons.push(Comparison {
                            first: a,
                            second: b,
                            score: sc,
                            weight,
                        });
                        units.push(u);
                    }
                }
                if let Some(f) = &g.failure {
                    let a = g.seating[f.seat];
                    failures_by_agent[a] += 1;
                    failures.push(FailureLine {
                        game: g.index,
                        seat: f.seat,
                        agent: labels[a].clone(),
                        kind: f.kind,
                        message: f.message.clone(),
                    });
                }
            }
            for a in 0..k {
                if agent_count[a] > 0 {
                    agent_units[a].push(agent_sum[a] / agent_count[a] as f64);
                }
            }
            if unit.len() == n {
                for s in 0..n {
                    seat_units[s].push(seat_sum[s] / n as f64);
                }
            }
        }
        Tally {
            agent_units,
            seat_units,
            agent_games,
            failures_by_agent,
            pair_games,
            pair_points,
            comparisons,
            units,
            failures,
        }
    }
}

/// The method notes of a report (with the SPRT's, if it has one).
fn methods(sprt: bool) -> Vec<String> {
    let mut methods = vec![
        "Score: a seat's score is the fraction of the other seats it ranks above, ties counting half (win 1, draw 0.5, loss 0 with two players). A failing agent (panic, illegal action, error) ranks last alone; the others share first place.".to_string(),
        "Score intervals: 95% Wilson score intervals over rotations (one observation per table rotation: the agent's mean score over the rotation's games, which share their throws), with the effective sample size n·m(1−m)/s² (n when the scores do not vary, as in a perfect record); they stay within [0, 1].".to_string(),
        format!("Elo: Bradley–Terry (logistic) maximum likelihood on every pair of seats in every game, ties half, with a first-seat term for the earlier seat of each pair; each pair of seats weighs 1/(players−1), so a game weighs players/2; {ELO_PRIOR} virtual draws between every two agents that met (half with each seated first). Ratings are relative to the field's mean. 95% intervals: ±1.96·√variance, the variance cluster-robust over rotations (the sandwich I⁻¹(Σ g_u g_uᵀ)I⁻¹ with g_u the gradient from rotation u's comparisons, which share their throws), never below the Wald variance from the inverse observed Fisher information."),
        "Game length: throws per game; median of an even count is the mean of the middle two; p90 by nearest rank.".to_string(),
    ];
    if sprt {
        methods.push("SPRT: generalised SPRT, normal approximation (fishtest's LLR_logistic) on the first agent's mean score per rotation: LLR = n(s1−s0)(2x̄−s0−s1)/(2v), v the variance (divisor n, floored at 0.01), s_i = 1/(1+10^(−elo_i/400)); bounds ln(β/(1−α)) and ln((1−β)/α).".to_string());
    }
    methods
}

impl Report {
    /// Builds the report from the games counted (sorted by index, whole rotations).
    pub fn build(
        config: &TournamentConfig,
        labels: &[String],
        schedule: &Schedule,
        games: &[&GameRecord],
        sprt: Option<SprtReport>,
    ) -> Report {
        let k = labels.len();
        let n = schedule.seats();
        let tally = Tally::of(labels, n, games);
        let (elo, elo_error) = match fit_elo_paired(k, &tally.comparisons, &tally.units, ELO_PRIOR)
        {
            Ok(fit) => (Some(fit), None),
            Err(e) => (None, Some(e.to_string())),
        };
        let mut standings: Vec<Standing> = (0..k)
            .map(|a| Standing {
                rank: 0,
                agent: labels[a].clone(),
                index: a,
                games: tally.agent_games[a],
                score: Interval::of_scores(&tally.agent_units[a]),
                elo: elo
                    .as_ref()
                    .map(|f| Interval::new(f.ratings[a], f.half_widths[a])),
                failures: tally.failures_by_agent[a],
            })
            .collect();
        standings.sort_by(|x, y| {
            let ex = x.elo.map_or(0.0, |e| e.value);
            let ey = y.elo.map_or(0.0, |e| e.value);
            ey.total_cmp(&ex)
                .then(y.score.value.total_cmp(&x.score.value))
                .then(x.index.cmp(&y.index))
        });
        for (i, s) in standings.iter_mut().enumerate() {
            s.rank = i + 1;
        }
        let pairwise = (0..k)
            .map(|a| {
                (0..k)
                    .map(|b| {
                        (a != b && tally.pair_games[a][b] > 0).then(|| Pairwise {
                            games: tally.pair_games[a][b],
                            score: tally.pair_points[a][b] / tally.pair_games[a][b] as f64,
                        })
                    })
                    .collect()
            })
            .collect();
        let seats = (0..n)
            .map(|s| SeatResult {
                seat: s,
                score: Interval::of_scores(&tally.seat_units[s]),
            })
            .collect();
        let lengths: Vec<u32> = games.iter().map(|g| g.throws).collect();
        let methods = methods(sprt.is_some());
        Report {
            tournament: config.clone(),
            agents: labels.to_vec(),
            games: games.len(),
            games_scheduled: schedule.len(),
            standings,
            pairwise,
            seats,
            first_seat_elo: elo
                .as_ref()
                .map(|f| Interval::new(f.first_seat, f.first_seat_half_width)),
            elo_error,
            length: Distribution::of(&lengths),
            sprt,
            failures: tally.failures,
            methods,
            luck: None,
            // (A tournament keeps of each game's events only its first action, if any.)
            no_decisions: !games.is_empty()
                && games.iter().all(|g| {
                    g.events
                        .iter()
                        .all(|e| matches!(e, crate::log::LoggedEvent::Throw(_)))
                }),
        }
    }

    /// What to tell a reader of the standings when no game had a decision to make (see
    /// [`Report::no_decisions`]).
    pub fn no_decisions_note(&self) -> Option<String> {
        self.no_decisions.then(|| {
            format!(
                "no game had a decision to make ({}: every throw plays itself), so the agents cannot differ: their scores come from the dice alone, and their order is only the order they were given in",
                self.tournament.game
            )
        })
    }

    /// Adds the luck-adjusted scores (see [`crate::review`]) and their method notes.
    pub fn add_luck(&mut self, luck: LuckReport) {
        self.methods.extend(luck.methods());
        if self.sprt.as_ref().is_some_and(|s| s.luck_adjusted) {
            self.methods.push("SPRT on luck-adjusted scores (--luck-adjusted): its observations are the first agent's mean luck-adjusted score per rotation, with the same LLR.".to_string());
        }
        self.luck = Some(luck);
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("reports serialize");
        s.push('\n');
        s
    }

    /// The standings as a plain-text table (for the terminal), the agents named as they
    /// were given ([`display_name`]).
    pub fn standings_table(&self) -> String {
        let width = self
            .standings
            .iter()
            .map(|s| display_name(&s.agent).chars().count())
            .max()
            .unwrap_or(5)
            .max(5);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>6}  {:>21}  {:>16}  {:>8}",
            "rank", "agent", "games", "score [95%]", "Elo ±95%", "failures"
        );
        for s in &self.standings {
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {:>6}  {:>21}  {:>16}  {:>8}",
                s.rank,
                display_name(&s.agent),
                s.games,
                fmt_value_range(&s.score, 3),
                s.elo.as_ref().map_or("-".to_string(), |e| fmt_pm(e, 1)),
                s.failures
            );
        }
        if let Some(note) = self.no_decisions_note() {
            let _ = writeln!(out, "note: {note}");
        }
        out
    }

    /// The report as Markdown.
    pub fn to_markdown(&self) -> String {
        let mut o = String::new();
        self.markdown_standings(&mut o);
        self.markdown_pairwise(&mut o);
        self.markdown_seats(&mut o);
        self.markdown_length(&mut o);
        self.markdown_sprt(&mut o);
        self.markdown_failures(&mut o);
        if let Some(l) = &self.luck {
            o.push_str(&l.to_markdown());
        }
        let _ = writeln!(o, "\n## Methods\n");
        for m in &self.methods {
            let _ = writeln!(o, "* {m}");
        }
        o
    }

    /// The heading (game, format, options, games counted) and the standings.
    fn markdown_standings(&self, o: &mut String) {
        let c = &self.tournament;
        let _ = writeln!(o, "# Tournament report: {}\n", c.game);
        let _ = writeln!(
            o,
            "{} players; {}; {} games per table; seed {}; rule options: {}.\n",
            c.players,
            c.format,
            c.games_per_table,
            c.seed,
            if c.options.is_empty() {
                "none".to_string()
            } else {
                format!("`{}`", c.options.join(" "))
            }
        );
        let _ = writeln!(
            o,
            "Games counted: {} of {} scheduled.\n",
            self.games, self.games_scheduled
        );
        let _ = writeln!(o, "## Standings\n");
        let _ = writeln!(
            o,
            "| rank | agent | games | score | 95% interval | Elo | 95% interval | failures |"
        );
        let _ = writeln!(o, "|---:|---|---:|---:|---|---:|---|---:|");
        for s in &self.standings {
            let (elo, elo_ci) = match &s.elo {
                Some(e) => (format!("{:.1}", e.value), fmt_range(e, 1)),
                None => ("-".into(), "-".into()),
            };
            let _ = writeln!(
                o,
                "| {} | `{}` | {} | {:.3} | {} | {} | {} | {} |",
                s.rank,
                s.agent,
                s.games,
                s.score.value,
                fmt_range(&s.score, 3),
                elo,
                elo_ci,
                s.failures
            );
        }
        if let Some(note) = self.no_decisions_note() {
            let _ = writeln!(o, "\nNote: {note}.");
        }
        if let Some(e) = &self.elo_error {
            let _ = writeln!(o, "\nNo Elo ratings: {e}.");
        }
    }

    /// The pairwise scores: each agent's against each other, by rank.
    fn markdown_pairwise(&self, o: &mut String) {
        let _ = writeln!(o, "\n## Pairwise scores\n");
        let _ = writeln!(
            o,
            "The row agent's mean score against the column agent (games in brackets); agents by rank.\n"
        );
        let _ = write!(o, "| |");
        for s in &self.standings {
            let _ = write!(o, " {} |", s.rank);
        }
        let _ = write!(o, "\n|---|");
        for _ in &self.agents {
            let _ = write!(o, "---:|");
        }
        let _ = writeln!(o);
        for row_agent in &self.standings {
            let a = row_agent.index;
            let _ = write!(o, "| {} `{}` |", row_agent.rank, self.agents[a]);
            for col_agent in &self.standings {
                match &self.pairwise[a][col_agent.index] {
                    Some(p) => {
                        let _ = write!(o, " {:.3} ({}) |", p.score, p.games);
                    }
                    None => {
                        let _ = write!(o, " - |");
                    }
                }
            }
            let _ = writeln!(o);
        }
    }

    /// Each seat's mean score and the first-seat advantage.
    fn markdown_seats(&self, o: &mut String) {
        let _ = writeln!(o, "\n## Seats\n");
        let _ = writeln!(o, "| seat | mean score | 95% interval |");
        let _ = writeln!(o, "|---|---:|---|");
        for s in &self.seats {
            let _ = writeln!(
                o,
                "| P{} | {:.3} | {} |",
                s.seat + 1,
                s.score.value,
                fmt_range(&s.score, 3)
            );
        }
        if let Some(h) = &self.first_seat_elo {
            let _ = writeln!(
                o,
                "\nFirst-seat advantage (Elo fit): {:.1} Elo, 95% interval {}.",
                h.value,
                fmt_range(h, 1)
            );
        }
    }

    /// The game lengths in throws.
    fn markdown_length(&self, o: &mut String) {
        if let Some(d) = &self.length {
            let _ = writeln!(o, "\n## Game length (throws)\n");
            let _ = writeln!(o, "| games | min | mean | median | p90 | max |");
            let _ = writeln!(o, "|---:|---:|---:|---:|---:|---:|");
            let _ = writeln!(
                o,
                "| {} | {} | {:.1} | {} | {} | {} |",
                d.n, d.min, d.mean, d.median, d.p90, d.max
            );
        }
    }

    /// The SPRT's hypotheses and decision.
    fn markdown_sprt(&self, o: &mut String) {
        if let Some(s) = &self.sprt {
            let _ = writeln!(o, "\n## SPRT\n");
            let _ = writeln!(
                o,
                "H0: elo = {}, H1: elo = {} (for `{}` against `{}`), alpha = {}, beta = {}.\n",
                s.test.elo0,
                s.test.elo1,
                self.agents[0],
                self.agents.get(1).map_or("", |x| x.as_str()),
                s.test.alpha,
                s.test.beta
            );
            let _ = writeln!(
                o,
                "LLR = {:.4} after {} rotations{} (bounds {:.4}, {:.4}): **{}**.",
                s.llr,
                s.rotations,
                if s.luck_adjusted {
                    ", on luck-adjusted scores"
                } else {
                    ""
                },
                s.lower,
                s.upper,
                match s.decision {
                    SprtDecision::AcceptH1 => "H1 accepted",
                    SprtDecision::AcceptH0 => "H0 accepted",
                    SprtDecision::Continue => "undecided (the game limit was reached)",
                }
            );
        }
    }

    /// The agents' failures, a line each.
    fn markdown_failures(&self, o: &mut String) {
        if !self.failures.is_empty() {
            let _ = writeln!(o, "\n## Failures\n");
            let _ = writeln!(o, "| game | seat | agent | kind | reason |");
            let _ = writeln!(o, "|---:|---|---|---|---|");
            for f in &self.failures {
                let _ = writeln!(
                    o,
                    "| {} | P{} | `{}` | {} | {} |",
                    f.game,
                    f.seat + 1,
                    f.agent,
                    f.kind,
                    f.message.replace('|', "\\|").replace('\n', " ")
                );
            }
        }
    }

    /// The standings as CSV (RFC 4180 quoting: agent specs contain commas).
    pub fn to_csv(&self) -> String {
        let mut o = String::from(
            "rank,agent,games,score,score_low,score_high,elo,elo_low,elo_high,failures\n",
        );
        let num = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.6}"));
        if self.luck.is_some() {
            // Luck-adjusted columns, only in reports that have them.
            o.pop();
            o.push_str(",adjusted,adjusted_low,adjusted_high,variance_reduction\n");
        }
        for s in &self.standings {
            let _ = write!(
                o,
                "{},\"{}\",{},{:.6},{},{},{},{},{},{}",
                s.rank,
                s.agent.replace('"', "\"\""),
                s.games,
                s.score.value,
                num(s.score.low),
                num(s.score.high),
                num(s.elo.map(|e| e.value)),
                num(s.elo.and_then(|e| e.low)),
                num(s.elo.and_then(|e| e.high)),
                s.failures
            );
            if let Some(l) = self.luck.as_ref().and_then(|l| l.agents.get(s.index)) {
                let _ = write!(
                    o,
                    ",{:.6},{},{},{}",
                    l.adjusted.value,
                    num(l.adjusted.low),
                    num(l.adjusted.high),
                    num(l.variance_reduction)
                );
            }
            o.push('\n');
        }
        o
    }

    /// The Elo ratings as an SVG chart: one row per agent, best first, a dot at the rating
    /// and a bar over its 95% interval.
    pub fn to_svg(&self) -> String {
        let rows: Vec<(&str, Interval)> = self
            .standings
            .iter()
            .filter_map(|s| s.elo.map(|e| (s.agent.as_str(), e)))
            .collect();
        // About 7.5 px per character of 12 px sans-serif, plus a margin on each side.
        let label_w = 20.0
            + 7.5
                * rows
                    .iter()
                    .map(|(n, _)| n.chars().count())
                    .max()
                    .unwrap_or(4) as f64;
        let plot_w = 420.0;
        let (top, row_h) = (40.0, 28.0);
        let width = label_w + plot_w + 30.0;
        let height = top + row_h * rows.len().max(1) as f64 + 40.0;
        let lo = rows
            .iter()
            .map(|(_, e)| e.low.unwrap_or(e.value))
            .fold(0.0f64, f64::min);
        let hi = rows
            .iter()
            .map(|(_, e)| e.high.unwrap_or(e.value))
            .fold(0.0f64, f64::max);
        let step = chart::nice_step((hi - lo).max(1.0) / 6.0);
        let lo = (lo / step).floor() * step;
        let hi = ((hi / step).ceil() * step).max(lo + step);
        let x = |v: f64| label_w + (v - lo) / (hi - lo) * plot_w;
        let mut o = String::new();
        chart::begin(&mut o, width, height);
        let _ = writeln!(
            o,
            r#"<text x="{:.1}" y="20" font-size="14">Elo ratings with 95% intervals — {}</text>"#,
            label_w,
            chart::escape(&self.tournament.game)
        );
        let axis_y = top + row_h * rows.len().max(1) as f64;
        let mut t = lo;
        while t <= hi + step / 2.0 {
            let _ = writeln!(
                o,
                r##"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="#{3}"/>"##,
                x(t),
                top - 8.0,
                axis_y,
                if t.abs() < step / 2.0 { "888" } else { "ddd" }
            );
            let _ = writeln!(
                o,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                x(t),
                axis_y + 16.0,
                fmt_tick(t)
            );
            t += step;
        }
        let _ = writeln!(
            o,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">Elo (relative to the field's mean)</text>"#,
            label_w + plot_w / 2.0,
            axis_y + 34.0
        );
        for (i, (name, e)) in rows.iter().enumerate() {
            let y = top + row_h * (i as f64 + 0.5);
            let _ = writeln!(
                o,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                label_w - 8.0,
                y + 4.0,
                chart::escape(name)
            );
            if let (Some(l), Some(h)) = (e.low, e.high) {
                let _ = writeln!(
                    o,
                    r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#1f5f9f" stroke-width="2"/>"##,
                    x(l),
                    x(h)
                );
                for end in [l, h] {
                    let _ = writeln!(
                        o,
                        r##"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="#1f5f9f" stroke-width="2"/>"##,
                        x(end),
                        y - 6.0,
                        y + 6.0
                    );
                }
            }
            let _ = writeln!(
                o,
                r##"<circle cx="{:.1}" cy="{y:.1}" r="4.5" fill="#c0392b"><title>{}: {:.1}{}</title></circle>"##,
                x(e.value),
                chart::escape(name),
                e.value,
                e.half_width()
                    .map_or(String::new(), |h| format!(" ± {h:.1}"))
            );
        }
        chart::end(&mut o);
        o
    }
}

/// `value [low, high]`, or the value alone without an interval.
fn fmt_value_range(i: &Interval, digits: usize) -> String {
    match (i.low, i.high) {
        (Some(l), Some(h)) => format!("{:.digits$} [{l:.digits$}, {h:.digits$}]", i.value),
        _ => format!("{:.digits$}", i.value),
    }
}

fn fmt_pm(i: &Interval, digits: usize) -> String {
    match i.half_width() {
        Some(h) => format!("{:.digits$} ± {:.digits$}", i.value, h),
        None => format!("{:.digits$}", i.value),
    }
}

fn fmt_range(i: &Interval, digits: usize) -> String {
    match (i.low, i.high) {
        (Some(l), Some(h)) => format!("[{l:.digits$}, {h:.digits$}]"),
        _ => "-".to_string(),
    }
}

fn fmt_tick(t: f64) -> String {
    let r = t.round();
    if (t - r).abs() < 1e-9 {
        format!("{}", r as i64)
    } else {
        format!("{t:.1}")
    }
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks() {
        assert_eq!(fmt_tick(-40.0), "-40");
    }
}
