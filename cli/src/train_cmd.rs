//! `stickdice train`: trains the learned Issiren evaluation (self-play TD(λ) and the
//! tablebase fit, `stickdice_agents::learned::train`) and those of the capture games of the
//! family, Sig (El Oued Capture) and Siryu (War) (self-play TD(λ),
//! `stickdice_agents::learned::games`), with a progress bar, atomic checkpoints,
//! `--resume` and Ctrl-C stopping at a checkpoint.

use crate::error::CliError;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use stickdice::Game as _;
use stickdice_agents::learned::distill::{distill, DistillConfig, DistillProgress};
use stickdice_agents::learned::endgame::{train_endgame, EndgameConfig};
use stickdice_agents::learned::games::{self, GameNet, LearnedGame};
use stickdice_agents::learned::train::{train, TrainConfig};
use stickdice_agents::learned::{Network, TrainError, WeightsError};
use stickdice_agents::solve::tablebase::Tablebase;

/// The weights file an Issiren run writes in its folder (a capture game's run writes
/// `GAME.sdw`).
pub const WEIGHTS_FILE: &str = "issiren.sdw";

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The game: `issiren`, `sig-el-oued-capture`, `siryu-war` or any shipped description
    /// (`sig-mzab`, `kioz`, `tab`, …: generic features, two seats).
    #[arg(long, default_value = "issiren")]
    pub game: String,
    /// The folder for the weights (`GAME.sdw`, e.g. `issiren.sdw`, also the checkpoint).
    #[arg(long)]
    pub out: PathBuf,
    /// Self-play games in all (a resumed run continues up to this many) [default: 150 000;
    /// with --distill, games per round: 2000; capture games: 20 000].
    #[arg(long)]
    pub games: Option<u64>,
    /// The seed everything follows from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// TD(λ) trace decay, 0 to 1.
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Learning rate [default: 0.1; with --endgame 0.15, falling to a twentieth].
    #[arg(long)]
    pub alpha: Option<f32>,
    /// Hidden units, 1 to 64 [default: 64; with --endgame 32; capture games: 32].
    #[arg(long)]
    pub hidden: Option<usize>,
    /// The endgame tablebase to fit after each game: `build` or a file written by
    /// `stickdice analyze --game issiren --write-tablebase FILE`; none without it.
    #[arg(long)]
    pub tablebase: Option<String>,
    /// Tablebase positions fitted after each game.
    #[arg(long, default_value_t = 400)]
    pub tablebase_steps: u32,
    /// Games between checkpoints [default: 1000; with --endgame, tablebase entries:
    /// 2 000 000].
    #[arg(long)]
    pub checkpoint_every: Option<u64>,
    /// Train the endgame network (one or two pieces a side) supervised on the tablebase
    /// (--tablebase, required) instead of self-play; the weights file gets the main
    /// network of --main with this endgame network attached.
    #[arg(long)]
    pub endgame: bool,
    /// With --endgame: passes over the tablebase [default: 20]; with --distill: passes over
    /// each round's positions [default: 2].
    #[arg(long)]
    pub epochs: Option<u32>,
    /// With --endgame: stop (with a checkpoint) after this many tablebase entries in all;
    /// --resume continues.
    #[arg(long)]
    pub stop_after: Option<u64>,
    /// With --endgame: the weights file whose main network the endgame network joins; with
    /// --distill: the network the first round starts from (its endgame network is kept, a
    /// distillation record it has is replaced)
    /// [default: the shipped weights].
    #[arg(long)]
    pub main: Option<PathBuf>,
    /// Train the main network on search-distilled targets: rounds of self-play positions
    /// valued by a shallow expectimax search with the network at the leaves, fitted
    /// supervised (`stickdice_agents::learned::distill`). --games counts games per round
    /// [default: 2000]; --tablebase gives exact values inside the searches.
    #[arg(long)]
    pub distill: bool,
    /// With --distill: rounds in all (a resumed run continues up to this many) [default: 10].
    #[arg(long)]
    pub rounds: Option<u32>,
    /// With --distill: the targets' search depth in decisions, 1 to 3 [default: 2].
    #[arg(long)]
    pub depth: Option<u32>,
    /// With --distill: the chance of a random action in the self-play games [default: 0.1].
    #[arg(long)]
    pub explore: Option<f32>,
    /// Continue from the checkpoint in --out (same settings).
    #[arg(long)]
    pub resume: bool,
}

pub(crate) fn run(args: &TrainArgs) -> Result<(), CliError> {
    match args.game.as_str() {
        "issiren" => {}
        "sig-el-oued-capture" => {
            let game = stickdice::SigElOuedCapture::with_seats(2).expect("two seats");
            return run_learned_game(args, &game);
        }
        "siryu-war" => {
            let game = stickdice::SiryuWar::with_seats(2).expect("two seats");
            return run_learned_game(args, &game);
        }
        name => {
            // A shipped description: the generic features, two seats.
            macro_rules! described {
                ([] $($variant:ident : $ty:path,)*) => {$(
                    if name == <$ty as stickdice::Game>::NAME {
                        let game = <$ty as stickdice::Game>::with_seats(2)
                            .map_err(|e| CliError::Invalid(format!("{name}: {e}")))?;
                        return run_learned_game(args, &game);
                    }
                )*};
            }
            stickdice::for_each_described_game!(described);
            let described: Vec<&str> = stickdice::described::games::SHIPPED
                .iter()
                .map(|(n, _, _)| *n)
                .collect();
            return Err(CliError::Invalid(format!(
                "`{name}` has no learned evaluation: issiren, sig-el-oued-capture, siryu-war and the described games ({}) are trained (the hand-written race games keep their hand-set evaluations)",
                described.join(", ")
            )));
        }
    }
    if args.endgame && args.distill {
        return Err("--endgame and --distill are different runs: choose one".into());
    }
    if !args.distill && (args.rounds.is_some() || args.depth.is_some() || args.explore.is_some()) {
        return Err("--rounds, --depth and --explore are for --distill runs".into());
    }
    if args.endgame {
        return run_endgame(args);
    }
    if args.distill {
        return run_distill(args);
    }
    if args.main.is_some() || args.stop_after.is_some() {
        return Err("--main and --stop-after are for --endgame runs".into());
    }
    if args.epochs.is_some() {
        return Err("--epochs is for --endgame and --distill runs".into());
    }
    let config = self_play_config(args, 150_000, 64, args.tablebase_steps)?;
    self_play(
        args,
        WEIGHTS_FILE,
        &config,
        Network::load,
        |tablebase, resume, stop, progress, checkpoint| {
            train(&config, tablebase, resume, stop, progress, checkpoint)
        },
    )
}

/// The settings of a self-play run: `--games` (default `games`), `--seed`, `--lambda`,
/// `--alpha` (default 0.1), `--hidden` (default `hidden`), `tablebase_steps` and
/// `--checkpoint-every` (default 1000), checked.
fn self_play_config(
    args: &TrainArgs,
    games: u64,
    hidden: usize,
    tablebase_steps: u32,
) -> Result<TrainConfig, CliError> {
    let config = TrainConfig {
        games: args.games.unwrap_or(games),
        seed: args.seed,
        lambda: args.lambda,
        alpha: args.alpha.unwrap_or(0.1),
        hidden: args.hidden.unwrap_or(hidden),
        tablebase_steps,
        checkpoint_every: args.checkpoint_every.unwrap_or(1000),
    };
    config.check()?;
    Ok(config)
}

/// A network a self-play run writes: Issiren's or a capture game's.
trait Weights {
    /// Self-play games trained.
    fn games(&self) -> u64;
    /// Writes the weights file atomically.
    fn save(&self, path: &Path) -> std::io::Result<()>;
}

impl Weights for Network {
    fn games(&self) -> u64 {
        self.settings().games
    }
    fn save(&self, path: &Path) -> std::io::Result<()> {
        Network::save(self, path)
    }
}

impl Weights for GameNet {
    fn games(&self) -> u64 {
        self.settings().games
    }
    fn save(&self, path: &Path) -> std::io::Result<()> {
        GameNet::save(self, path)
    }
}

/// A self-play TD(λ) run of `config` into `--out`/`file` (Issiren's or a capture game's):
/// the folder locked, the checkpoint `load`ed for `--resume`, the tablebase of
/// `--tablebase` loaded, Ctrl-C caught, then `train(tablebase, resume, stop, progress,
/// checkpoint)` with a progress bar and a checkpoint written each time it is handed one,
/// and the outcome told.
fn self_play<N: Weights>(
    args: &TrainArgs,
    file: &str,
    config: &TrainConfig,
    load: impl FnOnce(&Path) -> Result<N, WeightsError>,
    train: impl FnOnce(
        Option<&Tablebase>,
        Option<N>,
        &AtomicBool,
        &mut dyn FnMut(u64),
        &mut dyn FnMut(&N) -> Result<(), CliError>,
    ) -> Result<N, TrainError>,
) -> Result<(), CliError> {
    let games = config.games;
    let (path, _lock) = prepare_out(args, file)?;
    let resume = if args.resume {
        Some(load_checkpoint(&path, load)?)
    } else {
        None
    };
    let tablebase = optional_tablebase(args)?;
    let stop = stop_flag()?;
    let start_games = resume.as_ref().map_or(0, N::games);
    let mut progress = Progress::new(
        games,
        start_games,
        "{bar:24.cyan/blue} {pos}/{len} games  {per_sec}  {elapsed} elapsed, {eta} left",
    );
    let net = train(
        tablebase.as_deref(),
        resume,
        &stop,
        &mut |done| {
            progress.bar.set_position(done);
            progress.line(done == games, |s| format!("{done}/{games} games, {s:.0} s"));
        },
        &mut |net| save(net, &path),
    )?;
    progress.bar.finish_and_clear();
    let done = net.games();
    if done < games {
        outln!(
            "stopped after {done} of {games} games; checkpoint {} (continue with --resume)",
            path.display()
        );
    } else {
        outln!(
            "trained {} games ({} this run) in {:.1} s: {}",
            done,
            done - start_games,
            progress.started.elapsed().as_secs_f64(),
            path.display()
        );
    }
    Ok(())
}

/// Creates `--out`, takes its lock (held until the returned file is dropped, as
/// tournaments lock theirs: a second run on the same folder is refused), removes a
/// temporary weights file a failed run left there, and names the weights file in it;
/// refuses an existing file without `--resume`.
fn prepare_out(
    args: &TrainArgs,
    file: &str,
) -> Result<(PathBuf, stickdice_evaluation::tournament::FolderLock), CliError> {
    std::fs::create_dir_all(&args.out).map_err(|e| CliError::io("create", &args.out, e))?;
    let lock = stickdice_evaluation::tournament::lock_folder(&args.out).map_err(|e| match e {
        stickdice_evaluation::TournamentError::Busy { out } => format!(
            "{} is in use by another stickdice run (it holds the lock on {}); wait for it to finish, or use another --out folder",
            out.display(),
            out.join(stickdice_evaluation::tournament::LOCK_FILE).display()
        ),
        other => other.to_string(),
    })?;
    let path = args.out.join(file);
    let mut tmp = path.clone().into_os_string();
    tmp.push(".tmp");
    match std::fs::remove_file(&tmp) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(CliError::Invalid(format!(
                "cannot remove {}, left by a failed run: {e}",
                PathBuf::from(tmp).display()
            )))
        }
        _ => {}
    }
    if !args.resume && path.exists() {
        return Err(CliError::Invalid(format!(
            "{} exists: continue it with --resume, or choose another --out",
            path.display()
        )));
    }
    Ok((path, lock))
}

/// The flag Ctrl-C sets (a second Ctrl-C ends at once).
fn stop_flag() -> Result<Arc<AtomicBool>, CliError> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .map_err(|e| CliError::context("cannot catch Ctrl-C", e))?;
    Ok(stop)
}

/// `--endgame`: the supervised fit of the endgame network to the tablebase.
fn run_endgame(args: &TrainArgs) -> Result<(), CliError> {
    if args.games.is_some() {
        return Err("--games is for self-play and --distill runs".into());
    }
    let config = EndgameConfig {
        seed: args.seed,
        epochs: args.epochs.unwrap_or(20),
        alpha: args.alpha.unwrap_or(0.15),
        hidden: args.hidden.unwrap_or(32),
        checkpoint_every: args.checkpoint_every.unwrap_or(2_000_000),
        limit: args.stop_after.unwrap_or(u64::MAX),
    };
    config.check()?;
    let Some(source) = &args.tablebase else {
        return Err("--endgame trains on the tablebase: give --tablebase FILE (or build)".into());
    };
    let (path, _lock) = prepare_out(args, WEIGHTS_FILE)?;
    let (main, resume) = if args.resume {
        if args.main.is_some() {
            return Err(
                "--resume continues the checkpoint's own main network: leave out --main".into(),
            );
        }
        let net = load_checkpoint(&path, Network::load)?;
        let Some(eg) = net.endgame().cloned() else {
            return Err(CliError::Invalid(format!(
                "--resume: {} has no endgame network",
                path.display()
            )));
        };
        (net.with_endgame(None), Some(eg))
    } else {
        (starting_network(args)?.with_endgame(None), None)
    };
    eprintln!("loading the tablebase ({source})…");
    let tb = stickdice_agents::solve::tablebase::shared(source)?;
    let stop = stop_flag()?;
    let per_epoch: u64 = stickdice_agents::solve::tablebase::table_sizes()
        .iter()
        .sum::<usize>() as u64;
    let total = per_epoch * u64::from(config.epochs);
    let start_done = resume.as_ref().map_or(0, |n| n.settings().done);
    let mut progress = Progress::new(
        total,
        start_done,
        "{bar:24.cyan/blue} {pos}/{len} tablebase entries  {per_sec}  {elapsed} elapsed, {eta} left",
    );
    let eg = train_endgame(
        &config,
        &tb,
        resume,
        &stop,
        |done, end| {
            progress.bar.set_position(done);
            progress.line(done == end, |s| {
                format!(
                    "{done}/{end} tablebase entries (epoch {} of {}), {s:.0} s",
                    (done / per_epoch + 1).min(u64::from(config.epochs)),
                    config.epochs,
                )
            });
        },
        |eg| save(&main.clone().with_endgame(Some(eg.clone())), &path),
    )?;
    progress.bar.finish_and_clear();
    let started = progress.started;
    let done = eg.settings().done;
    if done < total {
        outln!(
            "stopped after {done} of {total} tablebase entries; checkpoint {} (continue with --resume)",
            path.display()
        );
        return Ok(());
    }
    // The finished network, rounded to the 16-bit weights the file then stores.
    let mut eg = eg;
    eg.quantize();
    save(&main.with_endgame(Some(eg)), &path)?;
    outln!(
        "trained the endgame network: {} epochs over the tablebase ({} entries this run) in {:.1} s: {}",
        config.epochs,
        done - start_done,
        started.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(())
}

/// A run's progress on stderr: a bar on a terminal, else a plain line every 10 s.
struct Progress {
    bar: ProgressBar,
    terminal: bool,
    started: Instant,
    last_line: Instant,
}

impl Progress {
    /// A bar of `len` steps with `done` of them done before this run.
    fn new(len: u64, done: u64, template: &str) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = if terminal {
            ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
        bar.set_position(done);
        bar.reset_eta();
        let now = Instant::now();
        Progress {
            bar,
            terminal,
            started: now,
            last_line: now,
        }
    }

    /// Off a terminal, prints `line(seconds elapsed)` when 10 s have passed since the last
    /// line, or when `last` (the run's final step).
    fn line(&mut self, last: bool, line: impl FnOnce(f64) -> String) {
        if !self.terminal && (last || self.last_line.elapsed().as_secs() >= 10) {
            self.last_line = Instant::now();
            eprintln!("{}", line(self.started.elapsed().as_secs_f64()));
        }
    }
}

/// Writes a checkpoint or the finished network.
fn save(net: &impl Weights, path: &Path) -> Result<(), CliError> {
    net.save(path).map_err(|e| CliError::io("write", path, e))
}

/// The network a new `--endgame` or `--distill` run starts from: `--main`, else the
/// shipped weights.
fn starting_network(args: &TrainArgs) -> Result<Network, CliError> {
    match &args.main {
        Some(p) => Network::load(p).map_err(|e| CliError::context(p.display().to_string(), e)),
        None => Ok(stickdice_agents::learned::shipped().clone()),
    }
}

/// The tablebase of `--tablebase`, loaded (or built) once, if given.
fn optional_tablebase(args: &TrainArgs) -> Result<Option<Arc<Tablebase>>, CliError> {
    match &args.tablebase {
        Some(source) => {
            eprintln!("loading the tablebase ({source})…");
            Ok(Some(stickdice_agents::solve::tablebase::shared(source)?))
        }
        None => Ok(None),
    }
}

/// Loads `--out`'s checkpoint for `--resume` with `load`.
fn load_checkpoint<N>(
    path: &Path,
    load: impl FnOnce(&Path) -> Result<N, WeightsError>,
) -> Result<N, CliError> {
    load(path).map_err(|e| match e {
        WeightsError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
            CliError::Invalid(format!(
                "--resume: no checkpoint {} (start without --resume)",
                path.display()
            ))
        }
        e => CliError::context(path.display().to_string(), e),
    })
}

/// `--distill`: rounds of search-distilled targets for the main network.
fn run_distill(args: &TrainArgs) -> Result<(), CliError> {
    if args.stop_after.is_some() {
        return Err("--stop-after is for --endgame runs (stop a --distill run with Ctrl-C)".into());
    }
    if args.hidden.is_some() {
        return Err(
            "--distill keeps the shape of the network it starts from: leave out --hidden".into(),
        );
    }
    let config = DistillConfig {
        rounds: args.rounds.unwrap_or(10),
        games: args.games.unwrap_or(2000),
        depth: args.depth.unwrap_or(2),
        epochs: args.epochs.unwrap_or(2),
        alpha: args.alpha.unwrap_or(0.01),
        explore: args.explore.unwrap_or(0.1),
        seed: args.seed,
    };
    config.check()?;
    let (path, _lock) = prepare_out(args, WEIGHTS_FILE)?;
    let start = if args.resume {
        if args.main.is_some() {
            return Err("--resume continues the checkpoint's own network: leave out --main".into());
        }
        let net = load_checkpoint(&path, Network::load)?;
        if net.distilled().is_none() {
            return Err(CliError::Invalid(format!(
                "--resume: {} is not a --distill checkpoint",
                path.display()
            )));
        }
        net
    } else {
        // A new run: a distillation record of --main is replaced by this run's.
        starting_network(args)?.without_distilled()
    };
    let tablebase = optional_tablebase(args)?;
    let stop = stop_flag()?;
    let start_rounds = start.distilled().map_or(0, |d| d.rounds_done);
    let total = u64::from(config.rounds) * config.games;
    let mut progress = Progress::new(
        total,
        u64::from(start_rounds) * config.games,
        "{bar:24.cyan/blue} {pos}/{len} games  {msg}  {elapsed} elapsed, {eta} left",
    );
    let started = progress.started;
    let net = distill(
        &config,
        start,
        tablebase,
        &stop,
        |p| match p {
            DistillProgress::Games { round, games } => {
                progress
                    .bar
                    .set_position(u64::from(round) * config.games + games);
                progress.bar.set_message(format!(
                    "round {} of {}: positions",
                    round + 1,
                    config.rounds
                ));
                progress.line(false, |s| {
                    format!(
                        "round {} of {}: {games}/{} games, {s:.0} s",
                        round + 1,
                        config.rounds,
                        config.games,
                    )
                });
            }
            DistillProgress::Fit { round, steps, of } => {
                progress.bar.set_message(format!(
                    "round {} of {}: fit {steps}/{of}",
                    round + 1,
                    config.rounds
                ));
                progress.line(false, |s| {
                    format!(
                        "round {} of {}: fitted {steps}/{of} steps, {s:.0} s",
                        round + 1,
                        config.rounds,
                    )
                });
            }
            DistillProgress::Round {
                round,
                positions,
                loss_before,
                loss_after,
            } => {
                progress.bar.suspend(|| {
                    eprintln!(
                        "round {} of {}: {positions} positions, cross-entropy {loss_before:.5} -> {loss_after:.5}, {:.0} s",
                        round + 1,
                        config.rounds,
                        started.elapsed().as_secs_f64()
                    )
                });
            }
            // A kind of progress added later: nothing to show for it yet.
            _ => {}
        },
        |net| save(net, &path),
    )?;
    progress.bar.finish_and_clear();
    let done = net.distilled().map_or(0, |d| d.rounds_done);
    if done < config.rounds {
        outln!(
            "stopped after {done} of {} rounds; checkpoint {} (continue with --resume)",
            config.rounds,
            path.display()
        );
    } else {
        outln!(
            "distilled {} rounds ({} this run) in {:.1} s: {}",
            done,
            done - start_rounds,
            started.elapsed().as_secs_f64(),
            path.display()
        );
    }
    Ok(())
}

/// A capture game of the family (`sig-el-oued-capture`, `siryu-war`): self-play TD(λ) of
/// its learned evaluation (`stickdice_agents::learned::games::train`) into `GAME.sdw`.
fn run_learned_game<G: LearnedGame>(args: &TrainArgs, game: &G) -> Result<(), CliError> {
    if args.endgame || args.distill || args.tablebase.is_some() {
        return Err(CliError::Invalid(format!(
            "{} is trained by self-play only: --endgame, --distill and --tablebase are Issiren's",
            G::NAME
        )));
    }
    if args.main.is_some()
        || args.stop_after.is_some()
        || args.epochs.is_some()
        || args.rounds.is_some()
        || args.depth.is_some()
        || args.explore.is_some()
    {
        return Err(
            "--main, --stop-after, --epochs, --rounds, --depth and --explore are for Issiren's --endgame and --distill runs"
                .into(),
        );
    }
    let config = self_play_config(args, 20_000, 32, 0)?;
    self_play(
        args,
        &format!("{}.sdw", G::NAME),
        &config,
        GameNet::load::<G>,
        // No tablebase: --tablebase is refused above.
        |_, resume, stop, progress, checkpoint| {
            games::train(game, &config, resume, stop, progress, checkpoint)
        },
    )
}
