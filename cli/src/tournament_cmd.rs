//! `stickdice tournament`: agents against each other on one game, with a progress bar, a
//! standings table, and a log and report files in the output folder.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::cli::GameArgs;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use stickdice::with_game;
use stickdice_agents::{AgentSpec, Evaluate};
use stickdice_evaluation::review::{LuckOptions, Reviewable};
use stickdice_evaluation::tournament::{Progress, ProgressFn, LOG_FILE, REPORT_FILES};
use stickdice_evaluation::{factory, Entrant, Format, RunOptions, Sprt, Tournament};

/// The agents of the default tournament, strongest last; those not built into this
/// program are left out.
const DEFAULT_AGENTS: [&str; 4] = [
    "random",
    "greedy",
    "expectimax:nodes=20000",
    "mcts:iterations=1000",
];

/// Arguments of `stickdice tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The agents, as comma-separated specs: random,greedy,mcts:iterations=1000. A piece
    /// with `=` but no `:` continues the previous spec's parameters
    /// (mcts:iterations=500,c=1.4). Default: random, greedy, expectimax:nodes=20000,
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
    /// Add luck-adjusted scores to the report (each game's score minus the seat's luck
    /// against a fixed reference: see `stickdice review`), measured from the logged games.
    #[arg(long)]
    luck: bool,
    /// As --luck, and run the SPRT on the luck-adjusted scores.
    #[arg(long)]
    luck_adjusted: bool,
    #[command(flatten)]
    reference: crate::review_cmd::ReferenceArgs,
}

/// Splits a comma-separated agent list, keeping `key=value` pieces with their spec.
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

/// The default agent list: those of [`DEFAULT_AGENTS`] this program has, at least two.
fn default_agents() -> Vec<String> {
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

pub fn run(args: &TournamentArgs) -> Result<(), String> {
    let any = args.game.build().map_err(|e| e.to_string())?;
    let specs = match &args.agents {
        Some(text) => split_agents(text),
        None => default_agents(),
    };
    let specs: Vec<AgentSpec> = specs
        .iter()
        .map(|s| s.parse::<AgentSpec>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let sprt = if args.sprt {
        Some(Sprt::new(args.elo0, args.elo1, args.alpha, args.beta)?)
    } else {
        None
    };
    if args.threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    with_game!(&any, |g| run_game(g, &specs, sprt, args))
}

fn run_game<G: Evaluate + Reviewable>(
    game: &G,
    specs: &[AgentSpec],
    sprt: Option<Sprt>,
    args: &TournamentArgs,
) -> Result<(), String> {
    let luck = if args.luck || args.luck_adjusted {
        let mut l = LuckOptions::new(game, &args.reference.options())
            .map_err(|e| format!("--luck: {e}"))?;
        l.sprt = args.luck_adjusted;
        Some(l)
    } else {
        if args.reference.reference_depth.is_some() || args.reference.reference_tablebase.is_some()
        {
            return Err(
                "--reference-depth and --reference-tablebase go with --luck or --luck-adjusted"
                    .into(),
            );
        }
        None
    };
    let mut entrants = Vec::with_capacity(specs.len());
    for spec in specs {
        // Build once now, so a bad spec is reported before any game is played.
        stickdice_agents::build(spec, game, 0).map_err(|e| e.to_string())?;
        let s = spec.clone();
        entrants.push(Entrant {
            spec: spec.to_string(),
            factory: factory(move |g: &G, seed| {
                stickdice_agents::build(&s, g, seed)
                    .unwrap_or_else(|e| panic!("agent `{s}` could not be built: {e}"))
            }),
        });
    }
    let t = Tournament::new(
        game.clone(),
        entrants,
        args.format,
        args.games
            .unwrap_or(if sprt.is_some() { 20_000 } else { 200 }),
        args.seed,
        sprt,
    )
    .map_err(|e| e.to_string())?;
    let total = t.schedule().len();
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    eprintln!(
        "{}: {} players; {} agents ({}); {}; {} games per table, {} games{}; seed {}; {} thread{}; output {}",
        G::TITLE,
        game.seats(),
        t.labels().len(),
        t.labels().join(", "),
        args.format,
        t.schedule().games_per_table(),
        total,
        if sprt.is_some() { " at most (SPRT)" } else { "" },
        args.seed,
        threads,
        if threads == 1 { "" } else { "s" },
        args.out.display()
    );
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr())
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
    let first = Arc::new(AtomicBool::new(true));
    let progress: ProgressFn = {
        let bar = bar.clone();
        Arc::new(move |p: Progress| {
            bar.set_position(p.done as u64);
            if first.swap(false, Ordering::SeqCst) {
                // Games found in the log do not count towards the speed.
                bar.reset_eta();
            }
        })
    };
    let summary = t
        .run(
            &args.out,
            &RunOptions {
                threads: args.threads,
                restart: args.restart,
                stop_after: None,
                progress: Some(progress),
                luck,
            },
        )
        .map_err(|e| e.to_string());
    bar.finish_and_clear();
    let summary = summary?;
    for n in &summary.notices {
        eprintln!("note: {n}");
    }
    if let Some(r) = &summary.report {
        if !r.failures.is_empty() {
            eprintln!(
                "note: {} games were lost by an agent's failure (panic, illegal action or error); report.md lists them",
                r.failures.len()
            );
        }
    }
    let report = summary
        .report
        .as_ref()
        .ok_or("the tournament stopped before it finished")?;
    println!("{}", report.standings_table());
    if let Some(h) = &report.first_seat_elo {
        println!(
            "first-seat advantage: {:.1} Elo{}",
            h.value,
            match (h.low, h.high) {
                (Some(l), Some(u)) => format!(" [{l:.1}, {u:.1}]"),
                _ => String::new(),
            }
        );
    }
    if let Some(d) = &report.length {
        println!(
            "game length: mean {:.1}, median {}, p90 {} throws",
            d.mean, d.median, d.p90
        );
    }
    if let Some(s) = &report.sprt {
        println!(
            "SPRT: LLR {:.3} after {} games (bounds {:.3}, {:.3}): {}",
            s.llr,
            report.games,
            s.lower,
            s.upper,
            match s.decision {
                stickdice_evaluation::stats::SprtDecision::AcceptH1 => "H1 accepted",
                stickdice_evaluation::stats::SprtDecision::AcceptH0 => "H0 accepted",
                stickdice_evaluation::stats::SprtDecision::Continue => "undecided",
            }
        );
    }
    if let Some(l) = &report.luck {
        println!("luck-adjusted scores (reference: {}):", l.reference);
        for s in &l.agents {
            println!(
                "  {:<24} {:.3} {}  adjusted {:.3} {}  variance {}  width ratio {}",
                s.name,
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
    if let Some((time, games)) = summary.luck_cost {
        let play: f64 = report
            .standings
            .iter()
            .map(|s| summary.seconds_per_game.get(s.index).unwrap_or(&0.0) * s.games as f64)
            .sum();
        println!(
            "luck measured for {games} games in {:.2} s of CPU ({:.1} ms a game; the agents' own time in the counted games: {:.1} s)",
            time.as_secs_f64(),
            if games > 0 { 1000.0 * time.as_secs_f64() / games as f64 } else { 0.0 },
            play
        );
    }
    println!("agent time per game (milliseconds, from the log):");
    for (label, secs) in t.labels().iter().zip(&summary.seconds_per_game) {
        println!("  {label:<24} {:.3}", secs * 1000.0);
    }
    let secs = summary.elapsed.as_secs_f64();
    println!(
        "{} games played{} in {:.1} s ({:.1} games/s)",
        summary.played,
        if summary.resumed > 0 {
            format!(" ({} more from the log)", summary.resumed)
        } else {
            String::new()
        },
        secs,
        if secs > 0.0 {
            summary.played as f64 / secs
        } else {
            0.0
        }
    );
    println!(
        "wrote {}: {LOG_FILE}, {}",
        args.out.display(),
        REPORT_FILES.join(", ")
    );
    Ok(())
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
