//! `stickdice tournament`: agents against each other on one game, with a progress bar, a
//! standings table, and a log and report files in the output folder.

use crate::error::CliError;
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use stickdice_evaluation::builder::{default_agents, split_agents};
use stickdice_evaluation::tournament::{Progress, LOG_FILE, REPORT_FILES};
use stickdice_evaluation::{tournament_any, Format, Shard};

use crate::cli::{check_count, GameArgs, MAX_THREADS};
use stickdice_evaluation::schedule::MAX_GAMES_PER_TABLE;

/// Arguments of `stickdice tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The agents, as comma-separated specs: random,greedy,mcts:iterations=1000. A piece
    /// with `=` but no `:` continues the previous spec's parameters
    /// (mcts:iterations=500,c=1.4). Default: random, greedy, expectimax:nodes=6000,
    /// mcts:iterations=1000 (those available).
    #[arg(long, short = 'a')]
    agents: Option<String>,
    /// Games per table (each pair of agents in a two-player game), rounded up to whole
    /// seat rotations [default: 200]. With --sprt, the most games before giving up
    /// [default: 20000].
    #[arg(long, short = 'n')]
    games: Option<usize>,
    /// round-robin (every table of different agents) or gauntlet (the first agent against
    /// the others).
    #[arg(long, default_value = "round-robin")]
    format: Format,
    /// Worker threads (default: one per core). The results do not depend on it.
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// The tournament seed: the same seed and settings play the same games.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    /// The output folder: games.jsonl, report.json, report.md, standings.csv, ratings.svg.
    /// A log already there from the same tournament is resumed.
    #[arg(long, default_value = "tournament-out")]
    out: PathBuf,
    /// Delete a log already in the output folder and start over.
    #[arg(long, alias = "force")]
    restart: bool,
    /// Run a sequential probability ratio test between exactly two agents, stopping when
    /// it decides (H0: the first agent is --elo0 Elo stronger; H1: --elo1).
    #[arg(long)]
    sprt: bool,
    /// SPRT: Elo difference of H0.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    elo0: f64,
    /// SPRT: Elo difference of H1.
    #[arg(long, default_value_t = 20.0, allow_negative_numbers = true)]
    elo1: f64,
    /// SPRT: false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// SPRT: false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Play only shard I of K (0-based, e.g. 2/4): the table-rotations whose number is I
    /// modulo K, into a shard log in --out, without a report; `stickdice merge` makes the
    /// report from all K shards. Resumes like a whole tournament.
    #[arg(long, value_name = "I/K")]
    shard: Option<Shard>,
    /// With --shard: play only the rotations below R (a batch of an SPRT on a cluster: run
    /// the shards with R = B, 2B, ... and merge after each batch).
    #[arg(long, value_name = "R", requires = "shard")]
    until_rotation: Option<usize>,
    #[command(flatten)]
    luck: crate::review_cmd::LuckArgs,
}

use crate::progress::{progress_every, seconds, ESTIMATE_AFTER};

/// The speed of this run, for the estimate and the plain progress lines.
struct Pace {
    start: std::time::Instant,
    /// Games done when this run started (found in the log).
    resumed: Option<usize>,
    estimated: bool,
    last_line: std::time::Instant,
}

impl Pace {
    fn new() -> Pace {
        let now = std::time::Instant::now();
        Pace {
            start: now,
            resumed: None,
            estimated: false,
            last_line: now,
        }
    }

    /// The line to print now, if any: the estimate once, a few seconds in (or at the end of
    /// a short run it would not matter for), then without a terminal a progress line every
    /// few seconds.
    fn update(&mut self, p: Progress, terminal: bool) -> Option<String> {
        let resumed = *self.resumed.get_or_insert(p.done);
        let played = p.done - resumed;
        let elapsed = self.start.elapsed();
        if played == 0 || p.done >= p.total {
            return None;
        }
        let rate = played as f64 / elapsed.as_secs_f64().max(1e-9);
        let left = (p.total - p.done) as f64 / rate;
        if !self.estimated && elapsed >= ESTIMATE_AFTER {
            self.estimated = true;
            self.last_line = std::time::Instant::now();
            return Some(format!(
                "estimate: about {} in all, {} left ({:.1} games/s over the first {played} games)",
                seconds(elapsed.as_secs_f64() + left),
                seconds(left),
                rate
            ));
        }
        if !terminal && self.estimated && self.last_line.elapsed() >= progress_every() {
            self.last_line = std::time::Instant::now();
            return Some(format!(
                "progress: {}/{} games, {:.1} games/s, {} elapsed, about {} left",
                p.done,
                p.total,
                rate,
                seconds(elapsed.as_secs_f64()),
                seconds(left)
            ));
        }
        None
    }
}

pub(crate) fn run(args: &TournamentArgs) -> Result<(), CliError> {
    check_count("--threads", args.threads, MAX_THREADS)?;
    check_count("--games", args.games, MAX_GAMES_PER_TABLE)?;
    let any = args.game.build()?;
    let specs = match &args.agents {
        Some(text) => split_agents(text),
        None => default_agents(),
    };
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:24.cyan/blue} {pos}/{len} games  {rate}  {elapsed} elapsed, {eta} left",
        )
        .expect("a valid template")
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} games/s", state.per_sec());
            },
        ),
    );
    // Agent panics are caught, recorded in the log and the report, and cost the agent the
    // game: do not print each one over the progress bar.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !stickdice_evaluation::arena::in_agent_call() {
            hook(info);
        }
    }));
    let first = AtomicBool::new(true);
    let terminal = std::io::stderr().is_terminal();
    let pace = std::sync::Mutex::new(Pace::new());
    let mut builder = tournament_any(&any)
        .agents(&specs)
        .format(args.format)
        .seed(args.seed)
        .out(&args.out)
        .restart(args.restart)
        .on_start(|line| eprintln!("{line}"))
        .progress({
            let bar = bar.clone();
            move |p: Progress| {
                if first.swap(false, Ordering::SeqCst) {
                    bar.set_length(p.total as u64);
                    bar.set_position(p.done as u64);
                    // Games found in the log do not count towards the speed.
                    bar.reset_eta();
                } else {
                    bar.set_position(p.done as u64);
                }
                let line = pace
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .update(p, terminal);
                if let Some(line) = line {
                    bar.suspend(|| eprintln!("{line}"));
                }
            }
        });
    if let Some(n) = args.games {
        builder = builder.games(n);
    }
    if let Some(t) = args.threads {
        builder = builder.threads(t);
    }
    if args.sprt {
        builder = builder.sprt(args.elo0, args.elo1, args.alpha, args.beta);
    }
    if let Some(shard) = args.shard {
        builder = builder.shard(shard);
    }
    if let Some(r) = args.until_rotation {
        builder = builder.until_rotation(r);
    }
    let luck_meter = crate::progress::LateMeter::default();
    if let Some((reference, adjusted)) = args.luck.requested()? {
        if args.shard.is_some() {
            return Err(
                "--luck with --shard: a shard writes no report; play the shards without it and give --luck (or --luck-adjusted) to `stickdice merge`".into(),
            );
        }
        builder = builder
            .luck(reference, adjusted)
            .luck_progress(luck_meter.callback("games", "luck of the games in the log"));
    }
    let summary = builder.run();
    luck_meter.finish();
    bar.finish_and_clear();
    let summary = summary?;
    for n in &summary.notices {
        eprintln!("note: {n}");
    }
    if let Some(shard) = args.shard {
        println!(
            "shard {shard}: {} games played{}, in {:.1} s; wrote {}; make the report with `stickdice merge OUT SHARD_DIR...`",
            summary.played,
            if summary.resumed > 0 {
                format!(" ({} more from the log)", summary.resumed)
            } else {
                String::new()
            },
            summary.elapsed.as_secs_f64(),
            args.out.join(LOG_FILE).display()
        );
        return Ok(());
    }
    let report = summary
        .report
        .as_ref()
        .ok_or("the tournament stopped before it finished")?;
    if !report.failures.is_empty() {
        eprintln!(
            "note: {} games were lost by an agent's failure (panic, illegal action or error); report.md lists them",
            report.failures.len()
        );
    }
    outln!("{}", summary.figures().trim_end_matches('\n'));
    outln!(
        "wrote {}: {LOG_FILE}, {}",
        args.out.display(),
        REPORT_FILES.join(", ")
    );
    Ok(())
}
