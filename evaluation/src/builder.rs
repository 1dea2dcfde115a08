//! Tournaments from code in one call: [`tournament`] (a concrete game) or
//! [`tournament_any`] (a game chosen at run time), then settings, then `.run()`.
//!
//! Agents are given as spec strings (`"mcts:iterations=500"`), as agent values (cloned
//! fresh for every game), as closures, or as factories; the settings are those of
//! `stickdice tournament`: games per table, seed, threads, format, an SPRT, rule options
//! and the seat count, and with `.out(dir)` the log and report files (resumable, or
//! `.restart(true)`). Without `.out` the tournament is played in memory: the same games
//! and the same report. The command line runs its tournaments through this builder, so
//! a tournament from code and one from the command line with the same settings play the
//! same games and report the same figures.
//!
//! ```
//! use stickdice::{ActionList, Game, Issiren};
//!
//! let game = Issiren::with_seats(2)?;
//! let summary = stickdice_evaluation::tournament(&game)
//!     .agent("random")
//!     .agent("greedy")
//!     .agent_fn("first-legal", |g, s| {
//!         let mut legal = ActionList::new();
//!         g.legal_actions(s, &mut legal);
//!         legal[0]
//!     })
//!     .games(4)
//!     .seed(7)
//!     .threads(1)
//!     .run()?;
//! let report = summary.report.as_ref().expect("a finished tournament has a report");
//! assert_eq!(report.games, 12); // three tables of two agents, four games each
//! println!("{}", summary.figures());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A game chosen at run time takes spec strings only (the agents must fit every game):
//!
//! ```
//! use stickdice::AnyGame;
//!
//! let game = AnyGame::new("sig-wa-duqqan", Some(3), &["max_throws=2000"])?;
//! let summary = stickdice_evaluation::tournament_any(&game)
//!     .agent_list("random,greedy,mcts:iterations=50,c=1.4")
//!     .games(3)
//!     .run()?;
//! assert!(summary.report.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Borrow;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use stickdice::{with_game, Agent, AnyGame, ConfigError, Game};
use stickdice_agents::{AgentSpec, Evaluate, SpecError};

use crate::arena::{factory, Factory};
use crate::review::{LuckOptions, ReferenceOptions, ReviewError, Reviewable};
use crate::schedule::Format;
use crate::stats::Sprt;
use crate::tournament::{Entrant, Progress, RunOptions, RunSummary, Tournament, TournamentError};

/// The agents of the default tournament (`stickdice tournament` without `--agents`; the
/// book's performance overview has its time with [`DEFAULT_GAMES`] games).
pub const DEFAULT_AGENTS: [&str; 4] = [
    "random",
    "greedy",
    "expectimax:nodes=6000",
    "mcts:iterations=1000",
];

/// Games per table when none is set.
pub const DEFAULT_GAMES: usize = 200;

/// With an SPRT, the most games before giving up when none is set.
pub const DEFAULT_SPRT_GAMES: usize = 20_000;

/// The default tournament seed.
pub const DEFAULT_SEED: u64 = 1;

/// The default agent list: those of [`DEFAULT_AGENTS`] that are built in, at least two.
pub fn default_agents() -> Vec<String> {
    let mut v: Vec<String> = DEFAULT_AGENTS
        .iter()
        .filter(|s| {
            let name = s.split(':').next().unwrap_or("");
            stickdice_agents::agents().iter().any(|a| a.name == name)
        })
        .map(|s| s.to_string())
        .collect();
    while v.len() < 2 {
        v.push("random".to_string());
    }
    v
}

/// Splits a comma-separated agent list, keeping `key=value` pieces with their spec: a
/// piece with `=` but no `:` continues the previous spec's parameters.
///
/// ```
/// use stickdice_evaluation::builder::split_agents;
/// assert_eq!(
///     split_agents("random, mcts:iterations=300,c=1.4,greedy"),
///     ["random", "mcts:iterations=300,c=1.4", "greedy"]
/// );
/// ```
pub fn split_agents(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in text.split(',') {
        let p = piece.trim();
        match out.last_mut() {
            Some(last) if p.contains('=') && !p.contains(':') && last.contains(':') => {
                last.push(',');
                last.push_str(p);
            }
            _ => out.push(p.to_string()),
        }
    }
    out
}

/// A factory building the agent `spec` names for every game (with the game's agent
/// seed). The agent is built once now, for `game`, so a spec the game cannot take is an
/// error here rather than a lost game later.
///
/// # Errors
/// The [`SpecError`] of building it.
pub fn spec_factory<G: Evaluate>(spec: &AgentSpec, game: &G) -> Result<Factory<G>, SpecError> {
    stickdice_agents::build(spec, game, 0)?;
    let s = spec.clone();
    Ok(factory(move |g: &G, seed| {
        stickdice_agents::build(&s, g, seed)
            .unwrap_or_else(|e| panic!("agent `{s}` could not be built: {e}"))
    }))
}

/// An [`Entrant`] for the agent `spec` names, labelled by the spec with its `tablebase`
/// parameter resolved ([`stickdice_agents::solve::resolve_spec`]: an Issiren searcher
/// given no value is labelled `…,tablebase=off`, the default, whatever the cache holds),
/// so the log says whether the table was used and rebuilds the same agents (see
/// [`spec_factory`]).
///
/// # Errors
/// As [`spec_factory`].
pub fn spec_entrant<G: Evaluate>(spec: &AgentSpec, game: &G) -> Result<Entrant<G>, SpecError> {
    let spec = stickdice_agents::solve::resolve_spec::<G>(spec)?;
    Ok(Entrant {
        spec: spec.to_string(),
        factory: spec_factory(&spec, game)?,
    })
}

/// A called-once hook given the tournament's one-line description before any game.
type StartFn = Box<dyn FnOnce(&str) + Send>;

/// The settings both builders share.
#[derive(Default)]
struct Settings {
    players: Option<usize>,
    options: Vec<String>,
    format: Option<Format>,
    games: Option<usize>,
    seed: Option<u64>,
    threads: Option<usize>,
    sprt: Option<Sprt>,
    out: Option<PathBuf>,
    restart: bool,
    progress: Option<crate::tournament::ProgressFn>,
    luck_progress: Option<crate::tournament::ProgressFn>,
    cancel: Option<Arc<AtomicBool>>,
    shard: Option<crate::Shard>,
    until_rotation: Option<usize>,
    on_start: Option<StartFn>,
    /// The first bad setting met (reported by `run`).
    error: Option<TournamentError>,
}

impl Settings {
    fn fail(&mut self, e: TournamentError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }
}

/// The setters both builders have (they only record; `run` checks).
macro_rules! settings_setters {
    () => {
        /// The number of players (default: the game's own). The game's rule options are
        /// kept.
        pub fn players(mut self, players: usize) -> Self {
            self.settings.players = Some(players);
            self
        }

        /// A rule option, as `stickdice tournament --option key=value`.
        pub fn option(mut self, key: &str, value: &str) -> Self {
            self.settings.options.push(format!("{key}={value}"));
            self
        }

        /// Rule options written `key=value`.
        pub fn options<S: AsRef<str>>(mut self, options: impl IntoIterator<Item = S>) -> Self {
            self.settings
                .options
                .extend(options.into_iter().map(|o| o.as_ref().to_string()));
            self
        }

        /// Round-robin (the default: every table of different agents) or gauntlet (the
        /// first agent against each other).
        pub fn format(mut self, format: Format) -> Self {
            self.settings.format = Some(format);
            self
        }

        /// Games per table, rounded up to whole seat rotations (default
        /// [`DEFAULT_GAMES`]; with an SPRT the most games, default [`DEFAULT_SPRT_GAMES`]).
        pub fn games(mut self, games: usize) -> Self {
            self.settings.games = Some(games);
            self
        }

        /// The tournament seed (default [`DEFAULT_SEED`]): the same seed and settings play
        /// the same games.
        pub fn seed(mut self, seed: u64) -> Self {
            self.settings.seed = Some(seed);
            self
        }

        /// Worker threads (default: one per core). The results do not depend on it.
        pub fn threads(mut self, threads: usize) -> Self {
            if threads == 0 {
                self.settings.fail(TournamentError::NoThreads);
            }
            self.settings.threads = Some(threads);
            self
        }

        /// A sequential probability ratio test between exactly two agents, stopping when
        /// it decides (H0: the first agent is `elo0` Elo stronger; H1: `elo1`; false
        /// positive rate `alpha`, false negative rate `beta`). `stickdice tournament
        /// --sprt` takes 0, 20, 0.05, 0.05 by default.
        pub fn sprt(mut self, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Self {
            match Sprt::new(elo0, elo1, alpha, beta) {
                Ok(test) => self.settings.sprt = Some(test),
                Err(e) => self.settings.fail(TournamentError::Sprt(e)),
            }
            self
        }

        /// An SPRT already made (see [`Self::sprt`]).
        pub fn sprt_test(mut self, test: Sprt) -> Self {
            self.settings.sprt = Some(test);
            self
        }

        /// Plays with the log and report files in `dir` (`games.jsonl`, `report.json`,
        /// `report.md`, `standings.csv`, `ratings.svg`); a log already there from the same
        /// tournament is resumed. Without it the tournament is played in memory.
        pub fn out(mut self, dir: impl AsRef<Path>) -> Self {
            self.settings.out = Some(dir.as_ref().to_path_buf());
            self
        }

        /// Deletes a log already in the output folder and starts over.
        pub fn restart(mut self, restart: bool) -> Self {
            self.settings.restart = restart;
            self
        }

        /// Called after each game (and once at the start, with the games found in the
        /// log), from worker threads.
        pub fn progress(mut self, f: impl Fn(Progress) + Send + Sync + 'static) -> Self {
            self.settings.progress = Some(Arc::new(f));
            self
        }

        /// With luck-adjusted scores, called after measuring the luck of each game found in
        /// the log (before any game is played), from worker threads.
        pub fn luck_progress(mut self, f: impl Fn(Progress) + Send + Sync + 'static) -> Self {
            self.settings.luck_progress = Some(Arc::new(f));
            self
        }

        /// A flag to stop the run from another thread (e.g. on Ctrl-C): once set, no new
        /// game starts, and `run` returns without a report (see
        /// [`RunOptions::cancel`](crate::RunOptions::cancel)).
        pub fn cancel(mut self, flag: Arc<AtomicBool>) -> Self {
            self.settings.cancel = Some(flag);
            self
        }

        /// Plays only one shard of the tournament, into a shard log in the
        /// [`out`](Self::out) folder and without a report; [`crate::merge`] makes the
        /// report from all the shards (see [`RunOptions::shard`](crate::RunOptions::shard)).
        pub fn shard(mut self, shard: crate::Shard) -> Self {
            self.settings.shard = Some(shard);
            self
        }

        /// With [`Self::shard`]: plays only the rotations below `rotation` (a batch of an
        /// SPRT played over shards).
        pub fn until_rotation(mut self, rotation: usize) -> Self {
            self.settings.until_rotation = Some(rotation);
            self
        }

        /// Called once, before any game, with the tournament's one-line description (the
        /// line `stickdice tournament` prints first).
        pub fn on_start(mut self, f: impl FnOnce(&str) + Send + 'static) -> Self {
            self.settings.on_start = Some(Box::new(f));
            self
        }
    };
}

/// Where an agent of a [`TournamentBuilder`] comes from.
enum Entry<G: Game> {
    /// A spec, built and checked against the final game by `check` when run.
    Spec {
        spec: AgentSpec,
        check: fn(&AgentSpec, &G) -> Result<Entrant<G>, SpecError>,
    },
    /// An entrant given whole.
    Given(Entrant<G>),
}

/// A tournament on a concrete game, built from code (see the [module docs](self)).
pub struct TournamentBuilder<G: Game> {
    game: G,
    agents: Vec<Entry<G>>,
    settings: Settings,
    /// Builds the luck-adjusted results' options for the final game ([`Self::luck`]).
    luck: Option<LuckFactory<G>>,
}

/// Builds [`LuckOptions`] for the configured game.
type LuckFactory<G> = Box<dyn FnOnce(&G) -> Result<LuckOptions, ReviewError> + Send>;

impl<G: Game> core::fmt::Debug for TournamentBuilder<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TournamentBuilder")
            .field("game", &self.game)
            .field("agents", &self.agents.len())
            .finish_non_exhaustive()
    }
}

/// A tournament on (a copy of) `game`: add agents and settings, then
/// [`TournamentBuilder::run`]. See the [module docs](self). ([`TournamentBuilder::new`]
/// takes the game by value.)
pub fn tournament<G: Game>(game: &G) -> TournamentBuilder<G> {
    TournamentBuilder::new(game.clone())
}

impl<G: Game> TournamentBuilder<G> {
    /// A tournament on `game` with no agents yet and the default settings.
    pub fn new(game: G) -> Self {
        TournamentBuilder {
            game,
            agents: Vec::new(),
            settings: Settings::default(),
            luck: None,
        }
    }

    /// An entrant: a label for the log and the report, and a factory.
    pub fn entrant(mut self, entrant: Entrant<G>) -> Self {
        self.agents.push(Entry::Given(entrant));
        self
    }

    /// An agent built fresh for every game by `make(game, agent_seed)`.
    pub fn factory(
        self,
        label: impl Into<String>,
        make: impl Fn(&G, u64) -> Box<dyn Agent<G>> + Send + Sync + 'static,
    ) -> Self {
        self.entrant(Entrant {
            spec: label.into(),
            factory: factory(make),
        })
    }

    /// An agent value, labelled by its [`Agent::name`]; every game gets a fresh clone
    /// (so an agent that draws random numbers replays the same stream each game: give a
    /// [`Self::factory`] to seed it per game).
    pub fn agent_value<A: Agent<G> + Clone + Sync + 'static>(self, agent: A) -> Self {
        let label = agent.name();
        self.factory(label, move |_: &G, _| Box::new(agent.clone()))
    }

    /// An agent from a closure `|game, state| action`, called at its decisions (its
    /// argument types are inferred from the game).
    pub fn agent_fn<F>(self, label: impl Into<String>, f: F) -> Self
    where
        F: Fn(&G, &G::State) -> G::Action + Clone + Send + Sync + 'static,
    {
        let label = label.into();
        let name = label.clone();
        self.factory(label, move |_: &G, _| {
            Box::new(stickdice::agent_fn(name.clone(), f.clone()))
        })
    }

    settings_setters!();

    /// The tournament these settings describe, with the options to run it: the game
    /// configured, every agent built once (a bad spec is an error here, before any game).
    ///
    /// # Errors
    /// The first bad setting: a rule option or seat count the game refuses
    /// ([`TournamentError::Game`]), an agent spec that cannot be built
    /// ([`TournamentError::Agent`]), an impossible schedule or SPRT
    /// ([`TournamentError::Schedule`], [`TournamentError::SprtAgents`]), no worker threads
    /// ([`TournamentError::NoThreads`]), no reference play for luck-adjusted scores
    /// ([`TournamentError::LuckSetup`]).
    pub fn build(self) -> Result<(Tournament<G>, RunOptions), TournamentError> {
        let (t, options, _, _) = self.prepare()?;
        Ok((t, options))
    }

    #[allow(clippy::type_complexity)]
    fn prepare(
        self,
    ) -> Result<(Tournament<G>, RunOptions, Option<PathBuf>, Option<StartFn>), TournamentError>
    {
        let TournamentBuilder {
            game,
            agents,
            settings: mut s,
            luck,
        } = self;
        if let Some(e) = s.error.take() {
            return Err(e);
        }
        let game = configure(game, s.players, &s.options).map_err(TournamentError::Game)?;
        let mut entrants = Vec::with_capacity(agents.len());
        for entry in agents {
            entrants.push(match entry {
                Entry::Given(e) => e,
                Entry::Spec { spec, check } => {
                    check(&spec, &game).map_err(TournamentError::Agent)?
                }
            });
        }
        let sprt = s.sprt;
        let games = s.games.unwrap_or(if sprt.is_some() {
            DEFAULT_SPRT_GAMES
        } else {
            DEFAULT_GAMES
        });
        let t = Tournament::new(
            game,
            entrants,
            s.format.unwrap_or(Format::RoundRobin),
            games,
            s.seed.unwrap_or(DEFAULT_SEED),
            sprt,
        )?;
        let luck = match luck {
            Some(f) => Some(f(t.game()).map_err(TournamentError::LuckSetup)?),
            None => None,
        };
        let options = RunOptions {
            threads: s.threads,
            restart: s.restart,
            stop_after: None,
            progress: s.progress,
            luck_progress: s.luck_progress,
            cancel: s.cancel,
            shard: s.shard,
            until_rotation: s.until_rotation,
            luck,
            log_capacity: None,
        };
        Ok((t, options, s.out, s.on_start))
    }

    /// Plays the tournament (with its log in the [`out`](Self::out) folder, resuming one
    /// there, or in memory) and returns what it did, with the [`Report`](crate::Report).
    ///
    /// # Errors
    /// As [`Self::build`], and [`Tournament::run`]'s errors of the log and its files.
    pub fn run(self) -> Result<RunSummary, TournamentError> {
        let (t, options, out, on_start) = self.prepare()?;
        if let Some(f) = on_start {
            let threads = options.threads.unwrap_or_else(rayon::current_num_threads);
            f(&t.description(threads, out.as_deref()));
        }
        match &out {
            Some(dir) => t.run(dir, &options),
            None => t.run_in_memory(&options),
        }
    }
}

impl<G: Reviewable> TournamentBuilder<G> {
    /// Adds luck-adjusted scores to the report (see [`crate::review`]), with the game's
    /// reference for `reference`; with `sprt` the SPRT runs on them.
    pub fn luck(mut self, reference: ReferenceOptions, sprt: bool) -> Self {
        self.luck = Some(Box::new(move |game: &G| {
            let mut l = LuckOptions::new(game, &reference)?;
            l.sprt = sprt;
            Ok(l)
        }));
        self
    }
}

impl<G: Evaluate> TournamentBuilder<G> {
    /// An agent by its spec string, e.g. `"mcts:iterations=500,c=1.4"` (see
    /// [`stickdice_agents::agents`]), labelled by the spec.
    pub fn agent(mut self, spec: &str) -> Self {
        match spec.parse::<AgentSpec>() {
            Ok(spec) => self.agents.push(Entry::Spec {
                spec,
                check: spec_entrant::<G>,
            }),
            Err(e) => self.settings.fail(TournamentError::Agent(e)),
        }
        self
    }

    /// Agents by their spec strings.
    pub fn agents<S: AsRef<str>>(self, specs: impl IntoIterator<Item = S>) -> Self {
        specs.into_iter().fold(self, |b, s| b.agent(s.as_ref()))
    }

    /// Agents as `stickdice tournament --agents` takes them: comma-separated specs, a
    /// piece with `=` but no `:` continuing the previous spec ([`split_agents`]).
    pub fn agent_list(self, text: &str) -> Self {
        self.agents(split_agents(text))
    }
}

/// The game with the seat count (keeping its options) and the options applied.
fn configure<G: Game>(
    game: G,
    players: Option<usize>,
    options: &[String],
) -> Result<G, ConfigError> {
    let mut game = match players {
        Some(n) if n != game.seats() => {
            let mut g = G::with_seats(n)?;
            for (k, v) in game.options() {
                g.set_option(k, &v)?;
            }
            g
        }
        _ => game,
    };
    for text in options {
        let (k, v) = stickdice::config::parse_option(text)?;
        game.set_option(k, v)?;
    }
    Ok(game)
}

/// A tournament on a game chosen at run time ([`AnyGame`]), with agents as spec strings
/// (see the [module docs](self)).
pub struct AnyTournamentBuilder {
    game: AnyGame,
    specs: Vec<String>,
    settings: Settings,
    luck: Option<(ReferenceOptions, bool)>,
}

impl core::fmt::Debug for AnyTournamentBuilder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AnyTournamentBuilder")
            .field("game", &self.game)
            .field("specs", &self.specs)
            .finish_non_exhaustive()
    }
}

/// A tournament on the game an [`AnyGame`] holds (by reference or value).
pub fn tournament_any(game: impl Borrow<AnyGame>) -> AnyTournamentBuilder {
    AnyTournamentBuilder {
        game: game.borrow().clone(),
        specs: Vec::new(),
        settings: Settings::default(),
        luck: None,
    }
}

impl AnyTournamentBuilder {
    /// An agent by its spec string.
    pub fn agent(mut self, spec: &str) -> Self {
        self.specs.push(spec.to_string());
        self
    }

    /// Agents by their spec strings.
    pub fn agents<S: AsRef<str>>(mut self, specs: impl IntoIterator<Item = S>) -> Self {
        self.specs
            .extend(specs.into_iter().map(|s| s.as_ref().to_string()));
        self
    }

    /// Agents as `stickdice tournament --agents` takes them ([`split_agents`]).
    pub fn agent_list(self, text: &str) -> Self {
        self.agents(split_agents(text))
    }

    settings_setters!();

    /// Adds luck-adjusted scores: [`TournamentBuilder::luck`].
    pub fn luck(mut self, reference: ReferenceOptions, sprt: bool) -> Self {
        self.luck = Some((reference, sprt));
        self
    }

    /// Plays the tournament: [`TournamentBuilder::run`] on the concrete game.
    ///
    /// # Errors
    /// As [`TournamentBuilder::run`].
    pub fn run(self) -> Result<RunSummary, TournamentError> {
        let AnyTournamentBuilder {
            game,
            specs,
            settings,
            luck,
        } = self;
        with_game!(&game, |g| {
            let b = TournamentBuilder {
                game: g.clone(),
                agents: Vec::new(),
                settings,
                luck: None,
            }
            .agents(&specs);
            match luck {
                Some((reference, sprt)) => b.luck(reference, sprt),
                None => b,
            }
            .run()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_lists_keep_parameters_with_their_spec() {
        assert_eq!(
            split_agents("random, mcts:iterations=300,c=1.4,greedy,expectimax:depth=2"),
            [
                "random",
                "mcts:iterations=300,c=1.4",
                "greedy",
                "expectimax:depth=2"
            ]
        );
        assert_eq!(split_agents("random"), ["random"]);
        // A stray key=value with no spec before it stays a (bad) spec of its own.
        assert_eq!(split_agents("x=1,random"), ["x=1", "random"]);
    }
}
