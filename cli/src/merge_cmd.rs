//! `stickdice merge OUT SHARD_DIR...`: the report of a tournament played in shards
//! (`stickdice tournament --shard I/K`), after checking every shard (see
//! `stickdice_evaluation::merge`).

use crate::error::CliError;
use std::path::PathBuf;

use clap::Args;
use stickdice::with_game;
use stickdice_agents::{AgentSpec, Evaluate};
use stickdice_evaluation::builder::spec_entrant;
use stickdice_evaluation::log::TournamentConfig;
use stickdice_evaluation::merge;
use stickdice_evaluation::review::{LuckOptions, Reviewable};
use stickdice_evaluation::stats::SprtDecision;
use stickdice_evaluation::tournament::REPORT_FILES;
use stickdice_evaluation::Tournament;

/// Arguments of `stickdice merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The folder for the report files (report.json, report.md, standings.csv,
    /// ratings.svg); not one of the shards. Written only when every check passes.
    out: PathBuf,
    /// The shards' output folders, each holding a games.jsonl, in any order.
    #[arg(required = true, value_name = "SHARD_DIR")]
    shards: Vec<PathBuf>,
    /// Luck-adjusted scores, as `stickdice tournament --luck` on one machine: each counted
    /// game's luck is measured here from the shards' logged games (the shards themselves
    /// play without --luck).
    #[command(flatten)]
    luck: crate::review_cmd::LuckArgs,
    /// Worker threads for measuring luck (default: one per core); the report does not
    /// depend on it.
    #[arg(long, short = 't', value_name = "N")]
    threads: Option<usize>,
    /// The description file the shards were played with, for shards of a game loaded with
    /// --game-file: refused unless it is the logged one (same digest). Without it, the
    /// text the logs record is used.
    #[arg(long, value_name = "PATH")]
    game_file: Option<PathBuf>,
}

/// Merges; `Ok(false)` when an SPRT is not decided yet at the merged count.
pub(crate) fn run(args: &MergeArgs) -> Result<bool, CliError> {
    crate::cli::check_count("--threads", args.threads, crate::cli::MAX_THREADS)?;
    let config = merge::read_config(&args.shards)?;
    let bad_header = |e: Box<dyn std::error::Error + Send + Sync>| CliError::Context {
        context: format!(
            "{}: the tournament in its header cannot be set up here",
            args.shards[0].join("games.jsonl").display()
        ),
        source: e,
    };
    let given = crate::cli::load_game_file(args.game_file.as_deref())?;
    let any = config
        .game(given.as_ref())
        .map_err(|e| bad_header(e.into()))?;
    let specs: Vec<AgentSpec> = config
        .agents
        .iter()
        .map(|s| s.parse::<AgentSpec>().map_err(|e| bad_header(e.into())))
        .collect::<Result<_, _>>()?;
    with_game!(&any, |g| merge_game(g, &config, &specs, args))
}

fn merge_game<G: Evaluate + Reviewable>(
    game: &G,
    config: &TournamentConfig,
    specs: &[AgentSpec],
    args: &MergeArgs,
) -> Result<bool, CliError> {
    let entrants = specs
        .iter()
        .map(|s| spec_entrant(s, game))
        .collect::<Result<Vec<_>, _>>()?;
    let t = Tournament::new(
        game.clone(),
        entrants,
        config.format,
        config.games_per_table,
        config.seed,
        config.sprt,
    )?;
    let differences = t.config().differences(config);
    if !differences.is_empty() {
        return Err(CliError::Invalid(format!(
            "{}: the tournament in its header does not rebuild the same ({})",
            args.shards[0].display(),
            differences.join("; ")
        )));
    }
    let luck = match args.luck.requested()? {
        Some((reference, adjusted)) => {
            let mut l = LuckOptions::new(game, &reference)
                .map_err(|e| CliError::context("luck-adjusted scores", e))?;
            l.sprt = adjusted;
            Some(l)
        }
        None => None,
    };
    // The luck of every game is measured before the report: a meter for it.
    let meter = crate::progress::LateMeter::default();
    let options = merge::MergeOptions {
        luck_progress: luck.is_some().then(|| {
            std::sync::Arc::new(meter.callback("games", "luck"))
                as stickdice_evaluation::tournament::ProgressFn
        }),
        luck,
        threads: args.threads,
    };
    let summary = merge::merge_with(&t, &args.out, &args.shards, &options);
    meter.finish();
    let summary = summary?;
    for n in &summary.notices {
        eprintln!("note: {n}");
    }
    println!(
        "{} shard folders, {} games, all checked and replayed",
        args.shards.len(),
        summary.games
    );
    if let Some(r) = &summary.report {
        println!("{}", r.standings_table());
    }
    if let Some(s) = &summary.sprt {
        println!(
            "SPRT: LLR {:.3} after {} rotations ({} games; bounds {:.3}, {:.3}): {}",
            s.llr,
            s.rotations,
            s.rotations * t.schedule().seats(),
            s.lower,
            s.upper,
            match s.decision {
                SprtDecision::AcceptH1 => "H1 accepted",
                SprtDecision::AcceptH0 => "H0 accepted",
                SprtDecision::Continue if summary.report.is_some() =>
                    "undecided at the end of the schedule",
                SprtDecision::Continue => "undecided",
            }
        );
    }
    match &summary.report {
        Some(_) => {
            println!("wrote {}: {}", args.out.display(), REPORT_FILES.join(", "));
            Ok(true)
        }
        None => {
            if !summary.missing.is_empty() {
                println!(
                    "games missing before the last one logged: {}",
                    merge::ranges(&summary.missing)
                );
            }
            println!(
                "no report written: the first {} rotations are complete and undecided; run every shard with a higher --until-rotation (the next batch), then merge again",
                summary.complete_units
            );
            Ok(false)
        }
    }
}
