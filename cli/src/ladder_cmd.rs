//! `stickdice ladder`: agents at budgets calibrated to a few milliseconds per
//! decision on this machine, played with those fixed budgets and rated from random = 0
//! (see `stickdice_evaluation::ladder`).

use crate::error::CliError;
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::Mutex;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use stickdice::with_game;
use stickdice_agents::Evaluate;
use stickdice_evaluation::ladder::{self, LadderOptions, LadderProgress, LadderSpecs, Series};

use crate::cli::{check_count, GameArgs, MAX_THREADS};

/// Arguments of `stickdice ladder`.
#[derive(Args, Debug)]
pub struct LadderArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Target milliseconds per decision, ascending, comma-separated.
    #[arg(long, default_value = "2,5,20", value_delimiter = ',')]
    millis: Vec<f64>,
    /// Games per table (rounded up to whole seat rotations).
    #[arg(long, short = 'n', default_value_t = 100)]
    games: usize,
    /// The seed of the calibration positions and of every match.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    /// Worker threads for the matches (default: one per core); calibration runs on one.
    /// The results do not depend on it.
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// The output folder: specs.json, ladder.md, ladder.csv, ladder.json, ladder.svg and
    /// the matches' logs in matches/.
    #[arg(long, default_value = "ladder-out")]
    out: PathBuf,
    /// A series: an agent, LABEL=SPEC without its budget, rated at one budget per target
    /// (repeatable; replaces the default series: random, greedy,
    /// uct=mcts:playout=random,cutoff=0,prior=0,c=1.4, expectimax, mcts, ismcts). The
    /// first is the anchor (0 Elo); mcts and ismcts get `iterations`, expectimax `nodes`;
    /// other agents play as they are.
    #[arg(long = "series", value_name = "LABEL=SPEC")]
    series: Vec<String>,
    /// The old spelling of --series, still read (with a note).
    #[arg(
        long = "family",
        value_name = "LABEL=SPEC",
        hide = true,
        conflicts_with = "series"
    )]
    family: Vec<String>,
    /// The best agent, a spec without its budget, added to the series as `best`.
    #[arg(long, value_name = "SPEC")]
    best: Option<String>,
    /// Calibration positions (one decision from each of this many seeded games).
    #[arg(long, default_value_t = 24)]
    positions: usize,
    /// Play the calibrated specs of this file (a ladder's specs.json) instead of
    /// calibrating: the same games on any machine.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["series", "family", "best", "millis", "positions"])]
    specs: Option<PathBuf>,
    /// Continue the ladder in --out: its specs.json, and the matches' logs (give the same
    /// --games and --seed: other values are another ladder, and its logs are refused).
    #[arg(long, conflicts_with = "specs")]
    resume: bool,
    /// Only calibrate: write specs.json and print the budgets.
    #[arg(long)]
    calibrate_only: bool,
}

/// Runs the command.
pub(crate) fn run(args: &LadderArgs) -> Result<(), CliError> {
    check_count("--threads", args.threads, MAX_THREADS)?;
    check_count("--games", Some(args.games), 1_000_000)?;
    let any = args.game.build()?;
    with_game!(&any, |g| run_game(g, args))
}

fn run_game<G: Evaluate>(game: &G, args: &LadderArgs) -> Result<(), CliError> {
    let options = LadderOptions {
        millis: args.millis.clone(),
        positions: args.positions,
        games: args.games,
        seed: args.seed,
        threads: args.threads,
    };
    let specs_in_out = args.out.join(ladder::SPECS_FILE);
    let terminal = std::io::stderr().is_terminal();
    let bar = if terminal {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:24.cyan/blue} {pos}/{len} games  {elapsed} in this match",
        )
        .expect("a valid template"),
    );
    let last_line = Mutex::new(std::time::Instant::now());
    let progress = |p: LadderProgress| match p {
        LadderProgress::Timed { series, budget, ms } => bar.suspend(|| {
            eprintln!(
                "calibrate {series}{}: {ms:.4} ms per decision",
                budget.map_or(String::new(), |b| format!(" at {b}"))
            )
        }),
        LadderProgress::Match(k, n, what) => {
            bar.reset();
            bar.suspend(|| eprintln!("match {k}/{n}: {what}"));
        }
        LadderProgress::Games(done, total) => {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
            let mut last = last_line.lock().unwrap_or_else(|e| e.into_inner());
            if !terminal && (last.elapsed().as_secs() >= 10 || done == total) {
                *last = std::time::Instant::now();
                eprintln!("  {done}/{total} games");
            }
        }
        // A kind of progress added later: nothing to show for it yet.
        _ => {}
    };
    let specs: LadderSpecs = if let Some(path) = &args.specs {
        ladder::read_specs(path)?
    } else if args.resume {
        ladder::read_specs(&specs_in_out).map_err(|e| {
            format!("{e} (--resume continues a ladder whose specs.json is in --out)")
        })?
    } else {
        if specs_in_out.exists() {
            return Err(CliError::Invalid(format!(
                "{} holds a ladder already: --resume continues it, --specs {} replays its \
                 budgets elsewhere, or choose another --out",
                args.out.display(),
                specs_in_out.display()
            )));
        }
        if !args.family.is_empty() {
            eprintln!("note: --family is now --series (the old spelling still works)");
        }
        let given = if args.family.is_empty() {
            &args.series
        } else {
            &args.family
        };
        let mut series = if given.is_empty() {
            ladder::default_series()
        } else {
            given
                .iter()
                .map(|f| Series::parse(f))
                .collect::<Result<Vec<_>, _>>()?
        };
        if let Some(best) = &args.best {
            series.push(Series::new("best", best)?);
        }
        eprintln!(
            "calibrating {} series to {} ms per decision on {} positions (one thread)…",
            series.len(),
            args.millis
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            args.positions
        );
        let specs = ladder::calibrate(game, &series, &options, &progress)?;
        std::fs::create_dir_all(&args.out).map_err(|e| CliError::io("create", &args.out, e))?;
        let mut text = serde_json::to_string_pretty(&specs)?;
        text.push('\n');
        std::fs::write(&specs_in_out, text).map_err(|e| CliError::io("write", &specs_in_out, e))?;
        specs
    };
    if args.calibrate_only {
        for f in &specs.series {
            for l in &f.levels {
                outln!(
                    "{:<12} {:>9.3} ms  {}",
                    f.series.label,
                    l.measured_ms,
                    l.spec
                );
            }
        }
        outln!("wrote {}", specs_in_out.display());
        return Ok(());
    }
    let report = ladder::play(game, &specs, &options, &args.out, &progress)?;
    bar.finish_and_clear();
    outln!("{}", report.to_markdown().trim_end());
    outln!(
        "wrote {}: specs.json, ladder.md, ladder.csv, ladder.json, ladder.svg, matches/",
        args.out.display()
    );
    Ok(())
}
