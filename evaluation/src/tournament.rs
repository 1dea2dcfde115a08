//! Tournaments: a schedule of games between agents, played in parallel, logged as they
//! finish, resumable after a kill, and summarised in a report.
//!
//! **Reproducibility.** Each game depends only on its index (its seating and seeds come
//! from the [`Schedule`]), games are collected by index, never by finishing order, and the
//! report is computed from the logged games alone. So the report is the same whatever the
//! number of threads, and a tournament killed and restarted with the same settings ends
//! with the same report as an uninterrupted run.
//!
//! **Resuming.** [`Tournament::run`] reads the log in the output folder, checks every game
//! line against the schedule (index, seating, seeds) and replays its throws and actions
//! through the rules (the throws must be the duplicate dice of its seed, the actions legal,
//! the ranking the logged one), then plays only the games missing. A log of a different
//! tournament is refused unless [`RunOptions::restart`] is set; a line that is not a valid
//! game of this tournament is reported with its line number. A last line cut off by the kill
//! is reported in [`RunSummary::notices`] and its game played again.
//!
//! **SPRT.** With an SPRT the games are played in batches of rotations in index order; the
//! test is evaluated after each complete rotation, in order, and the report counts the
//! games up to the first rotation where it decides. Games of the batch past that point are
//! in the log but not in the report (how many depends on the thread count; the report does
//! not).
//!
//! **Shards.** With [`RunOptions::shard`] a run plays only its shard's share of the
//! schedule (whole table-rotations dealt round-robin, see [`Shard`]), optionally only the
//! rotations below [`RunOptions::until_rotation`], into a log whose header names the shard;
//! it resumes like a whole tournament and writes no report: [`crate::merge`] checks the
//! shards' logs and writes the report of the whole, byte-identical to a one-machine run.
//! A shard does not evaluate the SPRT (it holds only some of the rotations): a sharded
//! SPRT is played in batches of rotations, merged and tested between batches.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use stickdice::play::SeededDice;
use stickdice::{Game, Node, Ranking};

use crate::arena::{self, forfeit_ranking, Factory, FailureKind};
use crate::log::{self, GameRecord, LogError, LogLine, LogWriter, LoggedEvent, TournamentConfig};
use crate::report::{display_name, sprt_observations, Report, SprtReport};
use crate::review::{LuckOptions, LuckReport};
use crate::schedule::{Format, Schedule, Shard};
use crate::stats::{Sprt, SprtDecision};

/// The log's file name in the output folder.
pub const LOG_FILE: &str = "games.jsonl";
/// The most worker threads a tournament starts ([`RunOptions::threads`]).
pub const MAX_THREADS: usize = 256;

/// The lock file in the output folder: a run holds an exclusive lock on it, so a second
/// run on the same folder is refused instead of interleaving its games with the first's;
/// the run removes it when it ends ([`FolderLock`]).
pub const LOCK_FILE: &str = ".stickdice.lock";
/// The report files written in the output folder.
pub const REPORT_FILES: [&str; 4] = ["report.json", "report.md", "standings.csv", "ratings.svg"];

/// An agent entered in a tournament.
#[derive(Clone)]
pub struct Entrant<G: Game> {
    /// Its spec (or another name that identifies it in the log's header).
    pub spec: String,
    /// Builds it for each game.
    pub factory: Factory<G>,
}

impl<G: Game> core::fmt::Debug for Entrant<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Entrant").field("spec", &self.spec).finish()
    }
}

/// Why a tournament could not run.
#[derive(Debug)]
#[non_exhaustive]
pub enum TournamentError {
    /// An SPRT is asked for with other than two agents.
    SprtAgents {
        /// The number of agents.
        agents: usize,
    },
    /// A shard is asked for without an output folder to play it into.
    ShardWithoutFolder,
    /// A bound on the rotations played is asked for without a shard.
    RotationsWithoutShard,
    /// A worker thread count of 0 (from [`TournamentBuilder::threads`](crate::TournamentBuilder::threads)).
    NoThreads,
    /// A worker thread count out of range (1 to [`MAX_THREADS`]).
    Threads {
        /// The count asked for.
        threads: usize,
    },
    /// The worker threads could not be started.
    ThreadPool {
        /// What the system said.
        message: String,
    },
    /// The output folder is a file.
    OutputIsFile {
        /// The path given.
        out: PathBuf,
    },
    /// The luck-adjusted scores cannot be measured (no reference play for the game).
    LuckSetup(crate::review::ReviewError),
    /// A game's luck could not be measured.
    Luck {
        /// The game's index.
        game: usize,
        /// Why.
        source: crate::review::ReviewError,
    },
    /// A game's luck was needed before it was measured.
    LuckNotMeasured {
        /// The game's index.
        game: usize,
    },
    /// The agents, seats and games cannot be scheduled.
    Schedule(crate::schedule::ScheduleError),
    /// The SPRT's parameters cannot be used.
    Sprt(crate::stats::SprtError),
    /// The game refuses a rule option or the seat count.
    Game(stickdice::ConfigError),
    /// An agent spec that cannot be parsed or built for the game.
    Agent(stickdice_agents::SpecError),
    /// The output folder holds the log of a different tournament.
    ForeignLog {
        /// The log.
        path: PathBuf,
        /// How its tournament differs, each as `name: this run's vs the log's`.
        differences: Vec<String>,
        /// The agents as the log names them, when they differ from this run's only in the
        /// searchers' `tablebase` parameter (giving them so resumes the log).
        logged_agents: Option<String>,
    },
    /// The log cannot be read or written, or a line is invalid.
    Log(LogError),
    /// Another run holds the output folder.
    Busy {
        /// The output folder.
        out: PathBuf,
    },
    /// A report file cannot be written.
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl core::fmt::Display for TournamentError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            TournamentError::SprtAgents { agents } => {
                write!(f, "the SPRT compares exactly two agents, got {agents}")
            }
            TournamentError::ShardWithoutFolder => {
                f.write_str("a shard is played into an output folder, for the merge")
            }
            TournamentError::RotationsWithoutShard => {
                f.write_str("a bound on the rotations played is for shards (--shard I/K)")
            }
            TournamentError::NoThreads => f.write_str("threads must be at least 1"),
            TournamentError::Threads { threads } => {
                write!(f, "{threads} worker threads: use 1 to {MAX_THREADS}")
            }
            TournamentError::ThreadPool { message } => {
                write!(f, "cannot start worker threads: {message}")
            }
            TournamentError::OutputIsFile { out } => write!(
                f,
                "the output folder {} is a file; name a folder (it is created if missing)",
                out.display()
            ),
            TournamentError::LuckSetup(e) => write!(f, "luck-adjusted scores: {e}"),
            TournamentError::Luck { game, source } => {
                write!(f, "the luck of game {game}: {source}")
            }
            TournamentError::LuckNotMeasured { game } => {
                write!(f, "the luck of game {game} was not measured")
            }
            TournamentError::Schedule(e) => write!(f, "{e}"),
            TournamentError::Sprt(e) => write!(f, "{e}"),
            TournamentError::Game(e) => write!(f, "{e}"),
            TournamentError::Agent(e) => write!(f, "{e}"),
            TournamentError::ForeignLog {
                path,
                differences,
                logged_agents,
            } => {
                let out = path.parent().unwrap_or(Path::new("."));
                write!(
                    f,
                    "{} holds the games of a different tournament (this run vs the log: {}). ",
                    path.display(),
                    differences.join("; ")
                )?;
                if let Some(agents) = logged_agents {
                    write!(
                        f,
                        "To resume the log, give the agents as it names them: --agents {agents}. "
                    )?;
                }
                write!(
                    f,
                    "To keep it, give this tournament a folder of its own, e.g. --out {}; to delete it and start over, add --restart",
                    free_folder(out).display()
                )
            }
            TournamentError::Log(e @ LogError::BadLine { .. }) => write!(
                f,
                "{e} (fix or remove the line, or use --restart to start over)"
            ),
            TournamentError::Log(e @ LogError::Io { .. }) => write!(f, "{e}"),
            TournamentError::Busy { out } => write!(
                f,
                "{} is in use by another stickdice tournament (it holds the lock on {}); wait for it to finish, or use another --out folder",
                out.display(),
                out.join(LOCK_FILE).display()
            ),
            TournamentError::Io { path, message } => write!(f, "{}: {message}", path.display()),
        }
    }
}

impl std::error::Error for TournamentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // The variants that show another error's message as their own forward its source
        // (as `#[error(transparent)]` does).
        match self {
            TournamentError::Schedule(e) => e.source(),
            TournamentError::Sprt(e) => e.source(),
            TournamentError::Game(e) => e.source(),
            TournamentError::Agent(e) => e.source(),
            TournamentError::Log(e) => Some(e),
            _ => None,
        }
    }
}

impl From<LogError> for TournamentError {
    fn from(e: LogError) -> Self {
        TournamentError::Log(e)
    }
}

/// The first of `out-2`, `out-3`, … that does not exist (a folder to suggest for another
/// tournament), or `out-2` if all up to 99 do.
fn free_folder(out: &Path) -> PathBuf {
    let name = out.file_name().map_or_else(
        || "tournament-out".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    (2..100)
        .map(|k| out.with_file_name(format!("{name}-{k}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| out.with_file_name(format!("{name}-2")))
}

/// Drops a game's events, which the report does not need (long tournaments stay small in
/// memory), all but its first action: the report says whether any game had a decision.
pub(crate) fn slim(g: &mut GameRecord) {
    let first_action = g
        .events
        .iter()
        .find(|e| matches!(e, LoggedEvent::Action(_)))
        .cloned();
    g.events = first_action.into_iter().collect();
}

/// Agent specs without their `tablebase` parameter.
fn without_tablebase(agents: &[String]) -> Vec<String> {
    agents
        .iter()
        .map(|a| {
            let (name, params) = a.split_once(':').unwrap_or((a, ""));
            let kept: Vec<&str> = params
                .split(',')
                .filter(|p| !p.is_empty() && !p.starts_with("tablebase="))
                .collect();
            if kept.is_empty() {
                name.to_string()
            } else {
                format!("{name}:{}", kept.join(","))
            }
        })
        .collect()
}

/// Progress, passed to [`RunOptions::progress`] after each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Games finished, including those found in the log (for a shard: of its games).
    pub done: usize,
    /// Games the schedule holds (for a shard: the shard's games, below the rotation bound).
    pub total: usize,
}

/// A progress callback.
pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// How to run a tournament (nothing here changes the results).
#[derive(Clone, Default)]
pub struct RunOptions {
    /// Worker threads (`None`: rayon's default, one per core).
    pub threads: Option<usize>,
    /// Delete an existing log in the output folder and start over.
    pub restart: bool,
    /// Stop after playing this many new games, without a report, as if killed (for tests).
    pub stop_after: Option<usize>,
    /// Called after each game.
    pub progress: Option<ProgressFn>,
    /// With [`RunOptions::luck`], called after measuring each game found in the log (its
    /// luck is measured before any game is played; `total`: the games to measure).
    pub luck_progress: Option<ProgressFn>,
    /// Set it (from any thread, e.g. a Ctrl-C handler) to stop the run: no new game
    /// starts, the games being played finish (and are logged), and the run returns
    /// without a report, as if killed; running again with the same log resumes.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Play only this shard's games, into a shard log, without a report (see
    /// [`crate::merge`]).
    pub shard: Option<Shard>,
    /// With [`RunOptions::shard`]: play only the games of rotations below this one (a batch
    /// of a sharded SPRT; a later run with a higher bound resumes the log).
    pub until_rotation: Option<usize>,
    /// Luck-adjusted scores in the report: every counted game's luck is measured from its
    /// logged events (played now or found in the log). With [`LuckOptions::sprt`] the SPRT
    /// runs on the adjusted scores, which changes where it stops.
    pub luck: Option<LuckOptions>,
    /// Make log writes fail as on a full disk once the log would exceed this many bytes
    /// (for tests of the failure path).
    pub log_capacity: Option<u64>,
}

impl core::fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RunOptions")
            .field("threads", &self.threads)
            .field("restart", &self.restart)
            .field("stop_after", &self.stop_after)
            .field("cancel", &self.cancel)
            .field("shard", &self.shard)
            .field("until_rotation", &self.until_rotation)
            .field("luck", &self.luck)
            .field("log_capacity", &self.log_capacity)
            .finish()
    }
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// The report (`None` when stopped by [`RunOptions::stop_after`] or
    /// [`RunOptions::cancel`], and for a shard).
    pub report: Option<Report>,
    /// The agents' labels, in entry order (the order of [`RunSummary::seconds_per_game`]).
    pub labels: Vec<String>,
    /// Games found in the log and reused.
    pub resumed: usize,
    /// Games played by this run.
    pub played: usize,
    /// Wall-clock time of this run's games.
    pub elapsed: Duration,
    /// Things the user should know (a torn last line dropped, games past an SPRT decision).
    pub notices: Vec<String>,
    /// Each agent's mean time per game in the games counted, seconds.
    pub seconds_per_game: Vec<f64>,
    /// With [`RunOptions::luck`]: the time spent measuring luck, summed over threads, and
    /// the number of games measured.
    pub luck_cost: Option<(Duration, usize)>,
}

impl RunSummary {
    /// The figures `stickdice tournament` prints: the standings table, the first-seat
    /// advantage, game lengths, the SPRT's verdict, each agent's time per game, and the
    /// games played and their speed. Empty when the run stopped before its report.
    pub fn figures(&self) -> String {
        use core::fmt::Write as _;
        let Some(report) = &self.report else {
            return String::new();
        };
        let mut o = String::new();
        let _ = writeln!(o, "{}", report.standings_table());
        if let Some(h) = &report.first_seat_elo {
            let _ = writeln!(
                o,
                "first-seat advantage: {:.1} Elo{}",
                h.value,
                match (h.low, h.high) {
                    (Some(l), Some(u)) => format!(" [{l:.1}, {u:.1}]"),
                    _ => String::new(),
                }
            );
        }
        if let Some(d) = &report.length {
            let _ = writeln!(
                o,
                "game length: mean {:.1}, median {}, p90 {} throws",
                d.mean, d.median, d.p90
            );
        }
        if let Some(s) = &report.sprt {
            let _ = writeln!(
                o,
                "SPRT: LLR {:.3} after {} games (bounds {:.3}, {:.3}): {}",
                s.llr,
                report.games,
                s.lower,
                s.upper,
                match s.decision {
                    SprtDecision::AcceptH1 => "H1 accepted",
                    SprtDecision::AcceptH0 => "H0 accepted",
                    SprtDecision::Continue => "undecided",
                }
            );
        }
        if let Some(l) = &report.luck {
            let _ = writeln!(o, "luck-adjusted scores (reference: {}):", l.reference);
            let width = l
                .agents
                .iter()
                .map(|s| display_name(&s.name).chars().count())
                .max()
                .unwrap_or(0);
            for s in &l.agents {
                let _ = writeln!(
                    o,
                    "  {:<width$}  {:.3} {}  adjusted {:.3} {}  variance {}  width ratio {}",
                    display_name(&s.name),
                    s.raw.value,
                    s.raw.range(3),
                    s.adjusted.value,
                    s.adjusted.range(3),
                    s.variance_reduction
                        .map_or("-".to_string(), |v| format!("−{:.1}%", 100.0 * v)),
                    s.width_ratio.map_or("-".to_string(), |v| format!("{v:.3}"))
                );
            }
        }
        if let Some((time, games)) = self.luck_cost {
            let agents: f64 = report
                .standings
                .iter()
                .map(|s| self.seconds_per_game.get(s.index).unwrap_or(&0.0) * s.games as f64)
                .sum();
            let _ = writeln!(
                o,
                "luck measured for {games} games in {:.2} s of CPU ({:.1} ms a game; the agents' own time in the counted games: {:.1} s)",
                time.as_secs_f64(),
                if games > 0 {
                    1000.0 * time.as_secs_f64() / games as f64
                } else {
                    0.0
                },
                agents
            );
        }
        let _ = writeln!(o, "agent time per game (milliseconds, from the log):");
        // Rust pads by characters, so the column holds for names of any length and script.
        let shown: Vec<_> = self.labels.iter().map(|l| display_name(l)).collect();
        let width = shown.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        for (label, secs) in shown.iter().zip(&self.seconds_per_game) {
            let _ = writeln!(o, "  {label:<width$}  {:>9.3}", secs * 1000.0);
        }
        let secs = self.elapsed.as_secs_f64();
        let _ = writeln!(
            o,
            "{} games played{} in {:.1} s ({:.1} games/s)",
            self.played,
            if self.resumed > 0 {
                format!(" ({} more from the log)", self.resumed)
            } else {
                String::new()
            },
            secs,
            if secs > 0.0 {
                self.played as f64 / secs
            } else {
                0.0
            }
        );
        o
    }
}

/// A tournament: a game, agents and a schedule.
#[derive(Debug)]
pub struct Tournament<G: Game> {
    game: G,
    entrants: Vec<Entrant<G>>,
    labels: Vec<String>,
    schedule: Schedule,
    config: TournamentConfig,
}

/// Labels for agents: the specs, with `#2`, `#3`… added to repeats.
pub fn labels(specs: &[String]) -> Vec<String> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    specs
        .iter()
        .map(|s| {
            let c = seen.entry(s.as_str()).or_insert(0);
            *c += 1;
            if *c == 1 {
                s.clone()
            } else {
                format!("{s}#{c}")
            }
        })
        .collect()
}

impl<G: Game> Tournament<G> {
    /// A tournament of `entrants` at `game`, with at least `games_per_table` games per
    /// table (rounded up to whole rotations), seeded by `seed`.
    /// (The [`crate::builder`] makes the entrants from specs, values or closures.)
    ///
    /// ```
    /// use stickdice::{Agent, Game, Issiren};
    /// use stickdice_agents::RandomAgent;
    /// use stickdice_evaluation::{factory, Entrant, Format, RunOptions, Tournament};
    ///
    /// let game = Issiren::with_seats(2).unwrap();
    /// let entrants = vec![
    ///     Entrant {
    ///         spec: "random".into(),
    ///         factory: factory(|_: &Issiren, seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<Issiren>>),
    ///     },
    ///     Entrant {
    ///         spec: "greedy".into(),
    ///         factory: factory(|g: &Issiren, seed| stickdice_agents::build_str("greedy", g, seed).unwrap()),
    ///     },
    /// ];
    /// let t = Tournament::new(&game, entrants, Format::RoundRobin, 4, 1, None).unwrap();
    /// assert_eq!(t.schedule().len(), 4);
    /// let summary = t.run_in_memory(&RunOptions::default()).unwrap();
    /// assert_eq!(summary.report.unwrap().games, 4);
    /// ```
    ///
    /// # Errors
    /// [`TournamentError::Schedule`] when the schedule is impossible (too few agents),
    /// [`TournamentError::SprtAgents`] when an SPRT is asked for with other than two agents.
    pub fn new(
        game: impl Borrow<G>,
        entrants: Vec<Entrant<G>>,
        format: Format,
        games_per_table: usize,
        seed: u64,
        sprt: Option<Sprt>,
    ) -> Result<Tournament<G>, TournamentError> {
        let game = game.borrow().clone();
        if sprt.is_some() && entrants.len() != 2 {
            return Err(TournamentError::SprtAgents {
                agents: entrants.len(),
            });
        }
        let schedule = Schedule::new(format, entrants.len(), game.seats(), games_per_table, seed)
            .map_err(TournamentError::Schedule)?;
        let specs: Vec<String> = entrants.iter().map(|e| e.spec.clone()).collect();
        let config = TournamentConfig {
            game: game.name().to_string(),
            players: game.seats(),
            options: game
                .options()
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect(),
            agents: specs.clone(),
            format,
            games_per_table: schedule.games_per_table(),
            seed,
            sprt,
            description: crate::log::LoggedDescription::of_game(&game),
        };
        Ok(Tournament {
            game,
            labels: labels(&specs),
            entrants,
            schedule,
            config,
        })
    }

    /// What identifies the tournament (the log's header).
    pub fn config(&self) -> &TournamentConfig {
        &self.config
    }

    /// The schedule.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The agents' labels.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// One line on the tournament, as `stickdice tournament` prints it first: the game,
    /// the agents, the format, the games, the seed, and the given thread count and output
    /// folder (`None`: in memory).
    pub fn description(&self, threads: usize, out: Option<&Path>) -> String {
        let sprt = self.config.sprt.is_some();
        format!(
            "{}: {} players; {} agents ({}); {}; {} games per table, {} games{}; seed {}; {} thread{}; output {}",
            self.game.title(),
            self.game.seats(),
            self.labels.len(),
            self.labels.join(", "),
            self.config.format,
            self.schedule.games_per_table(),
            self.schedule.len(),
            if sprt { " at most (SPRT)" } else { "" },
            self.config.seed,
            threads,
            if threads == 1 { "" } else { "s" },
            out.map_or_else(|| "in memory".to_string(), |p| p.display().to_string())
        )
    }

    /// Plays game `index` of the schedule.
    ///
    /// # Panics
    /// If `index` is not scheduled.
    pub fn play_game(&self, index: usize) -> GameRecord {
        let slot = self.schedule.slot(index);
        let factories: Vec<&Factory<G>> = slot
            .seating
            .iter()
            .map(|&a| &self.entrants[a].factory)
            .collect();
        let r = arena::play(&self.game, &factories, slot.game_seed);
        GameRecord {
            index,
            table: slot.table,
            rotation: slot.rotation,
            shift: slot.shift,
            ..r.record(slot.game_seed, slot.seating)
        }
    }

    /// Checks a logged game against the schedule and replays it through the rules
    /// ([`verify_game`]).
    ///
    /// # Errors
    /// [`VerifyError`] naming the first disagreement.
    pub fn verify(&self, g: &GameRecord) -> Result<(), VerifyError> {
        verify_game(&self.game, &self.schedule, g)
    }

    /// Runs (or resumes) the tournament with its log and report files in `out`.
    ///
    /// # Errors
    /// A [`TournamentError`]: a foreign or invalid log, or a file that cannot be written.
    pub fn run(&self, out: &Path, options: &RunOptions) -> Result<RunSummary, TournamentError> {
        self.run_in(Some(out), options)
    }

    /// Runs the tournament in memory: the same games, SPRT and report as [`Tournament::run`],
    /// without a log or files ([`RunOptions::restart`] is ignored).
    ///
    /// # Errors
    /// [`TournamentError::Threads`] or [`TournamentError::ThreadPool`] if the worker
    /// threads cannot be started.
    pub fn run_in_memory(&self, options: &RunOptions) -> Result<RunSummary, TournamentError> {
        self.run_in(None, options)
    }

    fn run_in(
        &self,
        out: Option<&Path>,
        options: &RunOptions,
    ) -> Result<RunSummary, TournamentError> {
        check_run_options(out, options)?;
        let mut notices = Vec::new();
        let mut done: BTreeMap<usize, GameRecord> = BTreeMap::new();
        // The output folder stays locked until the run ends.
        let _lock = match out {
            Some(out) => Some(open_output(out)?),
            None => None,
        };
        let mut to_measure: Vec<GameRecord> = Vec::new();
        let writer = match out {
            Some(out) => {
                let mut w =
                    self.open_log(out, options, &mut done, &mut notices, &mut to_measure)?;
                w.simulate_capacity(options.log_capacity);
                Some(w)
            }
            None => None,
        };
        let resumed = done.len();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads.unwrap_or(0))
            .build()
            .map_err(|e| TournamentError::ThreadPool {
                message: e.to_string(),
            })?;
        let total = self.schedule.len();
        let n = self.schedule.seats();
        let tables = self.schedule.tables().len();
        let share = self.shard_share(options);
        let (progress_done, progress_total) = match &share {
            Some(games) => (
                games.iter().filter(|i| done.contains_key(i)).count(),
                games.len(),
            ),
            None => (done.len(), total),
        };
        let luck = LuckState::default();
        if let Some(l) = &options.luck {
            // The logged games' luck, before any game is played.
            pool.install(|| luck.measure_logged(l, to_measure, options.luck_progress.as_ref()));
        }
        let state = RunState {
            luck: options.luck.as_ref().map(|l| (l, &luck)),
            pending: Mutex::new(String::new()),
            logging: writer.is_some(),
            writer: Mutex::new(writer),
            done_count: AtomicUsize::new(progress_done),
            failed: AtomicBool::new(false),
            failure: Mutex::new(None),
            played: AtomicUsize::new(0),
            budget: options.stop_after,
            cancel: options.cancel.clone(),
            progress: options.progress.clone(),
            total: progress_total,
        };
        let start = Instant::now();
        if let Some(p) = &state.progress {
            p(Progress {
                done: progress_done,
                total: progress_total,
            });
        }
        if let (Some(sh), Some(games)) = (options.shard, &share) {
            if self.config.sprt.is_some() && options.until_rotation.is_none() {
                notices.push(format!(
                    "shard {sh} plays its whole share of the {total} games scheduled: a shard does not stop on the SPRT; play it in batches of rotations (--until-rotation) and merge between them"
                ));
            }
            let below = games.last().map_or(0, |&i| i + 1);
            pool.install(|| self.play_all(0..below, &done, &|i| sh.holds(i, n, tables), &state))?;
            let played = state.played.load(Ordering::SeqCst);
            return Ok(self.unreported(resumed, played, start.elapsed(), notices));
        }
        let adjust_luck = options
            .luck
            .as_ref()
            .is_some_and(|l| l.sprt)
            .then_some(&luck);
        let (counted, sprt_result) = self.play_counted(&pool, &mut done, &state, adjust_luck)?;
        let played = state.played.load(Ordering::SeqCst);
        let elapsed = start.elapsed();
        let complete = counted > 0 && (0..counted).all(|i| done.contains_key(&i));
        if !complete {
            return Ok(self.unreported(resumed, played, elapsed, notices));
        }
        if done.len() > counted {
            notices.push(format!(
                "{} games played past the SPRT decision are {} but not counted",
                done.len() - counted,
                if out.is_some() {
                    "in the log"
                } else {
                    "played"
                }
            ));
        }
        let records: Vec<&GameRecord> = (0..counted).map(|i| &done[&i]).collect();
        let mut report = Report::build(
            &self.config,
            &self.labels,
            &self.schedule,
            &records,
            sprt_result,
        );
        if let Some(l) = &options.luck {
            let lucks = luck.of(&records)?;
            report.add_luck(LuckReport::build(l, &self.labels, n, &records, &lucks));
        }
        if let Some(out) = out {
            self.write_report(out, &report)?;
        }
        Ok(RunSummary {
            report: Some(report),
            labels: self.labels.clone(),
            resumed,
            played,
            elapsed,
            notices,
            seconds_per_game: seconds_per_game(self.labels.len(), &records),
            luck_cost: options.luck.as_ref().map(|_| luck.cost()),
        })
    }

    /// A shard's games (below the rotation bound), for a shard's run; `None` for a whole
    /// run.
    fn shard_share(&self, options: &RunOptions) -> Option<Vec<usize>> {
        let total = self.schedule.len();
        let n = self.schedule.seats();
        let tables = self.schedule.tables().len();
        options.shard.map(|sh| {
            let below = options.until_rotation.map_or(total, |r| {
                let r = r.min(self.schedule.rotations());
                self.schedule
                    .games_in_units(r * self.schedule.tables().len())
            });
            (0..total.min(below))
                .filter(|&i| sh.holds(i, n, tables))
                .collect()
        })
    }

    /// Plays the games that count, into `done`: every game, or with an SPRT batches of
    /// rotations until it decides (its decision comes back with the count of games it
    /// read), or until the run's budget ends it (then nothing counts). With `adjust_luck`
    /// the SPRT reads luck-adjusted scores.
    fn play_counted(
        &self,
        pool: &rayon::ThreadPool,
        done: &mut BTreeMap<usize, GameRecord>,
        state: &RunState<'_>,
        adjust_luck: Option<&LuckState>,
    ) -> Result<(usize, Option<SprtReport>), TournamentError> {
        let total = self.schedule.len();
        let n = self.schedule.seats();
        let Some(test) = self.config.sprt else {
            let new = pool.install(|| self.play_all(0..total, done, &|_| true, state))?;
            done.extend(new.into_iter().map(|g| (g.index, g)));
            return Ok((total, None));
        };
        let units = total / n;
        let batch = pool.current_num_threads().max(1) * 8;
        loop {
            let (prefix, decided) = match adjust_luck {
                Some(luck) => self.sprt_status_with(test, done, Some(&|r| luck.adjusted(r)))?,
                None => self.sprt_status(test, done),
            };
            if decided.decision != SprtDecision::Continue || decided.rotations == units {
                let u = decided.rotations;
                return Ok((u * n, Some(decided)));
            }
            if state.out_of_budget() {
                return Ok((0, None));
            }
            let range = prefix * n..((prefix + batch) * n).min(total);
            let new = pool.install(|| self.play_all(range, done, &|_| true, state))?;
            done.extend(new.into_iter().map(|g| (g.index, g)));
        }
    }

    /// A run's summary without a report (a shard's, or a run the SPRT or the budget left
    /// unfinished).
    fn unreported(
        &self,
        resumed: usize,
        played: usize,
        elapsed: std::time::Duration,
        notices: Vec<String>,
    ) -> RunSummary {
        RunSummary {
            report: None,
            labels: self.labels.clone(),
            resumed,
            played,
            elapsed,
            notices,
            seconds_per_game: Vec::new(),
            luck_cost: None,
        }
    }

    /// Opens the log in `out` (created, restarted, or read back: the games found go into
    /// `done`) for appending.
    fn open_log(
        &self,
        out: &Path,
        options: &RunOptions,
        done: &mut BTreeMap<usize, GameRecord>,
        notices: &mut Vec<String>,
        to_measure: &mut Vec<GameRecord>,
    ) -> Result<LogWriter, TournamentError> {
        let io = |path: &Path, e: std::io::Error| TournamentError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
        let log_path = out.join(LOG_FILE);
        if options.restart {
            for f in std::iter::once(LOG_FILE).chain(REPORT_FILES) {
                let p = out.join(f);
                if p.exists() {
                    std::fs::remove_file(&p).map_err(|e| io(&p, e))?;
                }
            }
        }
        let existing = if log_path.exists() {
            log::read(&log_path)?
        } else {
            None
        };
        let seats = self.schedule.seats();
        let writer = match existing {
            None => LogWriter::create_shard(&log_path, &self.config, options.shard)?,
            Some(contents) => {
                let mut differences = self.config.differences(&contents.config);
                let name = |s: Option<Shard>| s.map_or("none".to_string(), |s| s.to_string());
                if contents.shard != options.shard {
                    differences.push(format!(
                        "shard: {} vs {}",
                        name(options.shard),
                        name(contents.shard)
                    ));
                }
                if options.shard.is_some()
                    && contents.program.as_deref() != Some(log::PROGRAM_VERSION)
                {
                    differences.push(format!(
                        "program version: {} vs {}",
                        log::PROGRAM_VERSION,
                        contents.program.as_deref().unwrap_or("unknown")
                    ));
                }
                if !differences.is_empty() {
                    let logged_agents = (differences.len() == 1
                        && differences[0].starts_with("agents:")
                        && without_tablebase(&self.config.agents)
                            == without_tablebase(&contents.config.agents))
                    .then(|| contents.config.agents.join(","));
                    return Err(TournamentError::ForeignLog {
                        path: log_path,
                        differences,
                        logged_agents,
                    });
                }
                for (line, g) in contents.games {
                    let bad = |message: String| {
                        TournamentError::Log(LogError::BadLine {
                            path: log_path.clone(),
                            line,
                            message,
                        })
                    };
                    self.verify(&g).map_err(|e| bad(e.to_string()))?;
                    if let Some(sh) = contents.shard {
                        if !sh.holds(g.index, seats, self.schedule.tables().len()) {
                            return Err(bad(format!(
                                "game {} does not belong to shard {sh}",
                                g.index
                            )));
                        }
                    }
                    if done.contains_key(&g.index) {
                        return Err(bad(format!("game {} is logged twice", g.index)));
                    }
                    if options.luck.is_some() {
                        to_measure.push(g.clone());
                    }
                    let mut g = g;
                    slim(&mut g);
                    done.insert(g.index, g);
                }
                if let Some((line, _)) = contents.torn_tail {
                    notices.push(format!(
                        "{} line {line} was cut off (the run was stopped while writing it); it is dropped and its game played again",
                        log_path.display()
                    ));
                }
                LogWriter::append(&log_path, contents.torn_tail.map(|(_, at)| at))?
            }
        };
        Ok(writer)
    }

    /// The SPRT over the complete prefix of rotations of `done` (by index): the number of
    /// complete rotations, and the test at the first rotation where it decides, or at the
    /// last complete one (`Continue`, unless that is the schedule's end). A run stops, and
    /// a merge reports, when the decision is not `Continue` or every rotation is counted.
    pub fn sprt_status(
        &self,
        test: Sprt,
        done: &BTreeMap<usize, GameRecord>,
    ) -> (usize, SprtReport) {
        match self.sprt_status_with::<core::convert::Infallible>(test, done, None) {
            Ok(status) => status,
            Err(never) => match never {},
        }
    }

    /// As [`Tournament::sprt_status`], with the observations taken from `adjust`ed games
    /// when it is given (the luck-adjusted scores); the report then says so.
    #[allow(clippy::type_complexity)]
    pub(crate) fn sprt_status_with<E>(
        &self,
        test: Sprt,
        done: &BTreeMap<usize, GameRecord>,
        adjust: Option<&dyn Fn(&[&GameRecord]) -> Result<Vec<GameRecord>, E>>,
    ) -> Result<(usize, SprtReport), E> {
        let n = self.schedule.seats();
        let units = self.schedule.len() / n;
        let mut prefix = 0;
        while prefix < units && (0..n).all(|j| done.contains_key(&(prefix * n + j))) {
            prefix += 1;
        }
        let records: Vec<&GameRecord> = (0..prefix * n).map(|i| &done[&i]).collect();
        let xs = match adjust {
            Some(adjust) => sprt_observations(&adjust(&records)?.iter().collect::<Vec<_>>(), n),
            None => sprt_observations(&records, n),
        };
        let mut at = (0, test.llr(&[]));
        for u in 1..=xs.len() {
            let llr = test.llr(&xs[..u]);
            at = (u, llr);
            if test.decide(llr) != SprtDecision::Continue {
                break;
            }
        }
        let (lower, upper) = test.bounds();
        let (u, llr) = at;
        Ok((
            prefix,
            SprtReport {
                test,
                llr,
                lower,
                upper,
                decision: test.decide(llr),
                rotations: u,
                luck_adjusted: adjust.is_some(),
            },
        ))
    }

    /// Plays the games `indices` in parallel, logging each as it finishes; returns them
    /// (in index order).
    /// Plays the games of `range` not in `done` in parallel, logging each as it finishes;
    /// returns them (in index order). Nothing is allocated for games not played.
    fn play_all(
        &self,
        range: std::ops::Range<usize>,
        done: &BTreeMap<usize, GameRecord>,
        keep: &(dyn Fn(usize) -> bool + Sync),
        st: &RunState<'_>,
    ) -> Result<Vec<GameRecord>, TournamentError> {
        let results: Vec<Result<GameRecord, LogError>> = range
            .into_par_iter()
            .with_max_len(1)
            .filter(|&i| keep(i) && !done.contains_key(&i))
            .filter_map(|i| {
                if st.failed.load(Ordering::SeqCst) || !st.take_ticket() {
                    return None;
                }
                let mut g = self.play_game(i);
                if g.failure.is_some() && st.cancelled() {
                    // The cancel may be what failed it (a Python agent interrupted by
                    // Ctrl-C): such a game is neither logged nor counted, and a resumed run
                    // plays it again from its seed.
                    st.played.fetch_sub(1, Ordering::SeqCst);
                    return None;
                }
                let logged = if st.logging {
                    let line = LogLine::Game(g);
                    let text = log::encode(&line);
                    let LogLine::Game(game) = line else {
                        unreachable!("a game line")
                    };
                    g = game;
                    st.log(&text)
                } else {
                    Ok(())
                };
                if let Some((l, luck)) = st.luck {
                    luck.measure(l, &g);
                }
                if let Err(e) = &logged {
                    // Stop: no game is played that could not be logged. The first failure
                    // is the one reported.
                    let mut first = lock(&st.failure);
                    if first.is_none() {
                        *first = Some(e.clone());
                    }
                    st.failed.store(true, Ordering::SeqCst);
                }
                // The report needs no events: keep long tournaments small in memory.
                slim(&mut g);
                let done = st.done_count.fetch_add(1, Ordering::SeqCst) + 1;
                if let Some(p) = &st.progress {
                    p(Progress {
                        done,
                        total: st.total,
                    });
                }
                Some(logged.map(|()| g))
            })
            .collect();
        if let Some(e) = lock(&st.failure).take() {
            return Err(e.into());
        }
        results
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map_err(TournamentError::from)
    }

    /// Plays the whole schedule in memory, without a log, on the current rayon pool
    /// (benchmarks, quick experiments). The SPRT is not applied.
    pub fn play_in_memory(&self) -> Vec<GameRecord> {
        (0..self.schedule.len())
            .into_par_iter()
            .with_max_len(1)
            .map(|i| self.play_game(i))
            .collect()
    }

    pub(crate) fn write_report(&self, out: &Path, report: &Report) -> Result<(), TournamentError> {
        let files = [
            ("report.json", report.to_json()),
            ("report.md", report.to_markdown()),
            ("standings.csv", report.to_csv()),
            ("ratings.svg", report.to_svg()),
        ];
        for (name, text) in files {
            let path = out.join(name);
            let tmp = out.join(format!(".{name}.tmp"));
            std::fs::write(&tmp, text)
                .and_then(|()| std::fs::rename(&tmp, &path))
                .map_err(|e| {
                    let _ = std::fs::remove_file(&tmp);
                    TournamentError::Io {
                        path,
                        message: e.to_string(),
                    }
                })?;
        }
        Ok(())
    }
}

struct RunState<'a> {
    /// Where to measure luck, if asked.
    luck: Option<(&'a LuckOptions, &'a LuckState)>,
    /// Encoded lines not yet written.
    pending: Mutex<String>,
    /// Whether games are logged (`writer` is `None` in memory).
    logging: bool,
    writer: Mutex<Option<LogWriter>>,
    /// Set when a log write failed: no more games are started.
    failed: AtomicBool,
    /// The first failed write.
    failure: Mutex<Option<LogError>>,
    done_count: AtomicUsize,
    played: AtomicUsize,
    budget: Option<usize>,
    cancel: Option<Arc<AtomicBool>>,
    progress: Option<ProgressFn>,
    total: usize,
}

/// The luck of the games measured so far, by index.
#[derive(Default)]
struct LuckState {
    lucks: Mutex<BTreeMap<usize, Result<Vec<f64>, crate::review::ReviewError>>>,
    nanos: std::sync::atomic::AtomicU64,
}

impl LuckState {
    /// Measures the luck of the logged games (read back when a run resumes), before any
    /// game is played, reporting each measured to `progress`.
    fn measure_logged(
        &self,
        options: &LuckOptions,
        logged: Vec<GameRecord>,
        progress: Option<&ProgressFn>,
    ) {
        let measured = AtomicUsize::new(0);
        let total = logged.len();
        logged.par_iter().for_each(|g| {
            self.measure(options, g);
            let done = measured.fetch_add(1, Ordering::SeqCst) + 1;
            if let Some(p) = progress {
                p(Progress { done, total });
            }
        });
    }

    /// Measures a game's luck (it must still hold its events).
    fn measure(&self, options: &LuckOptions, g: &GameRecord) {
        let start = Instant::now();
        let l = (options.luck)(g);
        self.nanos
            .fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
        lock(&self.lucks).insert(g.index, l);
    }

    /// The luck of each of `records`.
    fn of(&self, records: &[&GameRecord]) -> Result<Vec<Vec<f64>>, TournamentError> {
        let lucks = lock(&self.lucks);
        records
            .iter()
            .map(|g| match lucks.get(&g.index) {
                Some(Ok(l)) => Ok(l.clone()),
                Some(Err(e)) => Err(TournamentError::Luck {
                    game: g.index,
                    source: e.clone(),
                }),
                None => Err(TournamentError::LuckNotMeasured { game: g.index }),
            })
            .collect()
    }

    /// Copies of `records` with their scores luck-adjusted.
    fn adjusted(&self, records: &[&GameRecord]) -> Result<Vec<GameRecord>, TournamentError> {
        let lucks = self.of(records)?;
        Ok(records
            .iter()
            .zip(lucks)
            .map(|(g, l)| luck_adjusted(g, &l))
            .collect())
    }

    /// Time spent measuring (summed over threads) and games measured.
    fn cost(&self) -> (Duration, usize) {
        (
            Duration::from_nanos(self.nanos.load(Ordering::Relaxed)),
            lock(&self.lucks).len(),
        )
    }
}

/// A copy of `g` with each seat's luck subtracted from its score (an observation of the
/// SPRT on luck-adjusted scores).
pub(crate) fn luck_adjusted(g: &GameRecord, luck: &[f64]) -> GameRecord {
    GameRecord {
        scores: g.scores.iter().zip(luck).map(|(s, l)| s - l).collect(),
        ..g.clone()
    }
}

impl RunState<'_> {
    /// Logs a finished game's line. The thread that holds the file writes every pending
    /// line in one go; a thread that finds the file busy leaves its line to the holder,
    /// which looks for pending lines again after letting the file go. So no thread waits
    /// for another's write, and every line is written as soon as the file is free.
    fn log(&self, text: &str) -> Result<(), LogError> {
        lock(&self.pending).push_str(text);
        loop {
            let mut file = match self.writer.try_lock() {
                Ok(f) => f,
                Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => return Ok(()),
            };
            let batch = std::mem::take(&mut *lock(&self.pending));
            if let (false, Some(file)) = (batch.is_empty(), file.as_mut()) {
                file.write_encoded(&batch)?;
            }
            drop(file);
            if lock(&self.pending).is_empty() {
                return Ok(());
            }
        }
    }

    /// Claims the right to play one more game (false once the stop-after budget is spent
    /// or the run is cancelled).
    fn take_ticket(&self) -> bool {
        if self.cancelled() {
            return false;
        }
        self.played
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| match self.budget {
                Some(b) if n >= b => None,
                _ => Some(n + 1),
            })
            .is_ok()
    }

    fn out_of_budget(&self) -> bool {
        self.cancelled()
            || self
                .budget
                .is_some_and(|b| self.played.load(Ordering::SeqCst) >= b)
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::SeqCst))
    }
}

/// The exclusive lock on an output folder ([`lock_folder`]): while it lives, no other
/// stickdice run (this process or another) can use the folder. Dropped, it removes the lock
/// file, while still holding the lock, so a finished run leaves nothing behind; a run killed
/// outright leaves an unlocked file that the next run takes over.
#[derive(Debug)]
pub struct FolderLock {
    file: std::fs::File,
    path: PathBuf,
}

impl FolderLock {
    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed before the lock is let go: a run that opened the file meanwhile and then
        // gets the lock sees that the path no longer names its file and starts over
        // ([`lock_folder`]), so two runs never hold "the" lock at once.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Whether `path` still names the open file `file` (not removed or replaced since it was
/// opened). Where that cannot be told (no inode numbers), whether `path` exists.
fn names_the_file(path: &Path, file: &std::fs::File) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        match (std::fs::metadata(path), file.metadata()) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

/// Refuses run options that do not go together: a shard without an output folder, a bound
/// on the rotations without a shard, a thread count out of range.
fn check_run_options(out: Option<&Path>, options: &RunOptions) -> Result<(), TournamentError> {
    if options.shard.is_some() && out.is_none() {
        return Err(TournamentError::ShardWithoutFolder);
    }
    if options.until_rotation.is_some() && options.shard.is_none() {
        return Err(TournamentError::RotationsWithoutShard);
    }
    if let Some(t) = options.threads.filter(|&t| t == 0 || t > MAX_THREADS) {
        return Err(TournamentError::Threads { threads: t });
    }
    Ok(())
}

/// Creates the output folder if missing and locks it (a file there is refused).
fn open_output(out: &Path) -> Result<FolderLock, TournamentError> {
    if out.exists() && !out.is_dir() {
        return Err(TournamentError::OutputIsFile {
            out: out.to_path_buf(),
        });
    }
    std::fs::create_dir_all(out).map_err(|e| TournamentError::Io {
        path: out.to_path_buf(),
        message: e.to_string(),
    })?;
    lock_folder(out)
}

/// Each entrant's mean seconds of thinking per game, over `records`.
fn seconds_per_game(entrants: usize, records: &[&GameRecord]) -> Vec<f64> {
    let mut time = vec![0.0; entrants];
    let mut games = vec![0usize; entrants];
    for g in records {
        for (s, &a) in g.seating.iter().enumerate() {
            time[a] += g.time_s[s];
            games[a] += 1;
        }
    }
    time.iter()
        .zip(&games)
        .map(|(t, &n)| if n == 0 { 0.0 } else { t / n as f64 })
        .collect()
}

/// Takes the exclusive lock on the output folder `out` (its [`LOCK_FILE`]), held until the
/// returned guard is dropped, which removes the lock file ([`FolderLock`]).
///
/// # Errors
/// [`TournamentError::Busy`] when another run (this process or another) holds it;
/// [`TournamentError::Io`] when the lock file cannot be opened.
pub fn lock_folder(out: &Path) -> Result<FolderLock, TournamentError> {
    let path = out.join(LOCK_FILE);
    // A few rounds: each one that fails to a removed file follows a run that just ended.
    for _ in 0..16 {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| TournamentError::Io {
                path: path.clone(),
                message: e.to_string(),
            })?;
        match file.try_lock() {
            Ok(()) if names_the_file(&path, &file) => return Ok(FolderLock { file, path }),
            // The holder removed the file as it finished: lock the next one.
            Ok(()) => continue,
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(TournamentError::Busy {
                    out: out.to_path_buf(),
                })
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(TournamentError::Io {
                    path,
                    message: format!("cannot lock the output folder: {e}"),
                })
            }
        }
    }
    Err(TournamentError::Busy {
        out: out.to_path_buf(),
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Checks a logged game against the schedule (index, table, rotation, seating, seeds) and
/// replays it through the rules: the throws must be the duplicate dice of its seed, the
/// actions legal, the ranking, scores and throw count the replayed ones, a failure must fit
/// where the events stop, and the times must be finite and not negative.
///
/// # Errors
/// [`VerifyError`] naming the game, the event if any, and the first disagreement.
pub fn verify_game<G: Game>(
    game: &G,
    schedule: &Schedule,
    g: &GameRecord,
) -> Result<(), VerifyError> {
    let game_seed = check_slot(game, schedule, g)?;
    let state = replay_events(game, g, game_seed)?;
    let fail = |message: String| game_error(g, message);
    if let Some((s, t)) = g
        .time_s
        .iter()
        .enumerate()
        .find(|(_, t)| !t.is_finite() || **t < 0.0)
    {
        return Err(fail(format!(
            "game {}: seat {s}'s time {t} s is not a time (finite, at least 0)",
            g.index
        )));
    }
    let ranking = logged_ranking(game, g, &state)?;
    if ranking.places() != g.places.as_slice() {
        return Err(fail(format!(
            "game {}: the logged places {:?} are not the game's {:?}",
            g.index,
            g.places,
            ranking.places()
        )));
    }
    for (s, &x) in g.scores.iter().enumerate() {
        if x != ranking.score(s) {
            return Err(fail(format!(
                "game {}: seat {s}'s logged score {x} is wrong",
                g.index
            )));
        }
    }
    if game.throws_made(&state) != g.throws {
        return Err(fail(format!(
            "game {}: {} throws logged, {} replayed",
            g.index,
            g.throws,
            game.throws_made(&state)
        )));
    }
    Ok(())
}

/// A disagreement of the logged game `g` as a whole (at no event).
fn game_error(g: &GameRecord, message: String) -> VerifyError {
    VerifyError {
        game: g.index,
        event: None,
        message,
        source: None,
    }
}

/// Checks the game's place in the schedule (index, table, rotation, seating, seeds) and its
/// per-seat lists; gives its seed.
fn check_slot<G: Game>(game: &G, schedule: &Schedule, g: &GameRecord) -> Result<u64, VerifyError> {
    let fail = |message: String| game_error(g, message);
    if g.index >= schedule.len() {
        return Err(fail(format!(
            "game {} is not in this tournament's schedule of {} games",
            g.index,
            schedule.len()
        )));
    }
    let slot = schedule.slot(g.index);
    let seats = game.seats();
    if (g.table, g.rotation, g.shift) != (slot.table, slot.rotation, slot.shift)
        || g.seating != slot.seating
        || g.game_seed != slot.game_seed
    {
        return Err(fail(format!(
                "game {} has table {}, rotation {}, seating {:?}, seed {}, but the schedule says table {}, rotation {}, seating {:?}, seed {}",
                g.index, g.table, g.rotation, g.seating, g.game_seed, slot.table, slot.rotation, slot.seating, slot.game_seed
            )));
    }
    let seeds: Vec<u64> = (0..seats)
        .map(|s| arena::agent_seed(slot.game_seed, s))
        .collect();
    if g.agent_seeds != seeds {
        return Err(fail(format!(
            "game {}: agent seeds differ from the schedule's",
            g.index
        )));
    }
    if g.places.len() != seats || g.scores.len() != seats || g.time_s.len() != seats {
        return Err(fail(format!(
            "game {}: places, scores and times need one entry per seat ({seats})",
            g.index
        )));
    }
    Ok(slot.game_seed)
}

/// Replays the logged events through the rules from the initial state: the throws must be
/// the duplicate dice of `game_seed`, the actions legal. Gives the state they reach.
fn replay_events<G: Game>(
    game: &G,
    g: &GameRecord,
    game_seed: u64,
) -> Result<G::State, VerifyError> {
    let mut state = game.initial_state();
    let mut dice = SeededDice::new(game_seed);
    let sticks = game.sticks();
    for (i, e) in g.events.iter().enumerate() {
        let at = |what: String| VerifyError {
            game: g.index,
            event: Some(i),
            message: format!("game {}, event {}: {what}", g.index, i + 1),
            source: None,
        };
        let because = |err: Box<dyn std::error::Error + Send + Sync>| VerifyError {
            source: Some(err),
            ..at(String::new())
        };
        match (game.node(&state), e) {
            (Node::Throw(seat), LoggedEvent::Throw(t)) => {
                let due = dice.throw(seat, sticks);
                if due.marked() != *t {
                    return Err(at(format!(
                        "throw {t} is not the duplicate-dice throw {due} of the game's seed"
                    )));
                }
                game.apply_throw_unchecked(&mut state, due);
            }
            (Node::Decide(_), LoggedEvent::Action(text)) => {
                let a = game.parse_action(text).map_err(|err| VerifyError {
                    message: at(err.to_string()).message,
                    ..because(Box::new(err))
                })?;
                game.apply_action(&mut state, a)
                    .map_err(|err| VerifyError {
                        message: at(err.to_string()).message,
                        ..because(Box::new(err))
                    })?;
            }
            (node, _) => {
                return Err(at(format!(
                    "{e:?} does not fit the game's next node {node:?}"
                )))
            }
        }
    }
    Ok(state)
}

/// The ranking the logged game must have: the forfeit of a logged failure, which must fit
/// where the events stop, or the rules' ranking where they end the game.
fn logged_ranking<G: Game>(
    game: &G,
    g: &GameRecord,
    state: &G::State,
) -> Result<Ranking, VerifyError> {
    let fail = |message: String| game_error(g, message);
    let seats = game.seats();
    Ok(match &g.failure {
        Some(f) => {
            if f.seat >= seats {
                return Err(fail(format!(
                    "game {}: failure of seat {} out of range",
                    g.index, f.seat
                )));
            }
            // Where the events stop must be where such a failure happens.
            let node = game.node(state);
            let fits = match f.kind {
                FailureKind::Error | FailureKind::IllegalAction => node == Node::Decide(f.seat),
                FailureKind::Panic => {
                    let m = f.message.as_str();
                    if m.starts_with("panicked choosing an action") {
                        node == Node::Decide(f.seat)
                    } else if m.starts_with("panicked while being built")
                        || m.starts_with("panicked at the start of the game")
                    {
                        g.events.is_empty()
                    } else if m.starts_with("panicked observing a throw") {
                        matches!(g.events.last(), Some(LoggedEvent::Throw(_)))
                    } else if m.starts_with("panicked observing an action") {
                        matches!(g.events.last(), Some(LoggedEvent::Action(_)))
                    } else {
                        false
                    }
                }
            };
            if !fits {
                return Err(fail(format!(
                        "game {}: the logged failure ({} of seat {}: {}) does not fit where the events stop ({node:?})",
                        g.index, f.kind, f.seat, f.message
                    )));
            }
            forfeit_ranking(seats, f.seat)
        }
        None => game.ranking(state).ok_or_else(|| {
            fail(format!(
                "game {}: the logged events stop before the end of the game",
                g.index
            ))
        })?,
    })
}

/// Checks a logged game's seating against the agents' seeded play: the agents the log's
/// header names (`specs`), built and seated as the record says, play the game again from
/// its seed and must make the logged actions. A log whose header has the agents' names
/// swapped passes [`verify_game`] (the seating indexes the header's list) but not this.
///
/// Returns whether the check could be made: not when the seated agents are one and the
/// same spec (a swap changes nothing), when one has a time budget (`millis`: its play
/// depends on the machine) or cannot be built here (a file it names is gone, say).
///
/// # Errors
/// [`VerifyError`] at the first event where the agents' play and the log part.
pub fn verify_seating_by_play<G: stickdice_agents::Evaluate>(
    game: &G,
    specs: &[String],
    g: &GameRecord,
) -> Result<bool, VerifyError> {
    let Some(seated) = g
        .seating
        .iter()
        .map(|&a| specs.get(a))
        .collect::<Option<Vec<&String>>>()
    else {
        return Ok(false);
    };
    if seated.len() != game.seats() || seated.iter().all(|s| *s == seated[0]) {
        return Ok(false);
    }
    let mut factories = Vec::new();
    for spec in &seated {
        let Ok(parsed) = spec.parse::<stickdice_agents::AgentSpec>() else {
            return Ok(false);
        };
        if parsed.params().iter().any(|(k, _)| k == "millis") {
            return Ok(false);
        }
        match crate::builder::spec_factory(&parsed, game) {
            Ok(f) => factories.push(f),
            Err(_) => return Ok(false),
        }
    }
    let seating: Vec<&Factory<G>> = factories.iter().collect();
    let played = arena::play(game, &seating, g.game_seed).record(g.game_seed, g.seating.clone());
    let Some(i) = (0..played.events.len().max(g.events.len()))
        .find(|&i| played.events.get(i) != g.events.get(i))
    else {
        return Ok(true);
    };
    let show = |e: Option<&LoggedEvent>| match e {
        Some(LoggedEvent::Action(a)) => format!("`{a}`"),
        Some(LoggedEvent::Throw(t)) => format!("the throw {t}"),
        None => "the end of the game".to_string(),
    };
    Err(VerifyError {
        game: g.index,
        event: Some(i),
        message: format!(
            "game {}, event {}: the agents the log's header names, seated as logged ({}), play {} here, the log {}: these are not the agents that played the game (are the header's names swapped?)",
            g.index,
            i + 1,
            seated
                .iter()
                .enumerate()
                .map(|(s, a)| format!("P{} {a}", s + 1))
                .collect::<Vec<_>>()
                .join(", "),
            show(played.events.get(i)),
            show(g.events.get(i)),
        ),
        source: None,
    })
}

/// A logged game that does not agree with its schedule or the rules ([`verify_game`]): the
/// game, the event if the disagreement is at one, and the message naming it; the rules'
/// error ([`stickdice::NotationError`], [`stickdice::IllegalMove`]) as the source where
/// one was raised.
#[derive(Debug)]
#[non_exhaustive]
pub struct VerifyError {
    /// The game's index in the schedule.
    pub game: usize,
    /// The 0-based event at which the replay disagrees, if at one.
    pub event: Option<usize>,
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl core::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}
