//! `stickdice review`: the error of every decision and the luck of every throw of logged
//! games, against a fixed reference (see `stickdice_evaluation::review`).

use crate::error::CliError;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use stickdice::with_game;
use stickdice_evaluation::log::{self, GameRecord};
use stickdice_evaluation::report::display_name;
use stickdice_evaluation::review::{
    review_record, ReferenceOptions, Review, Reviewable, Step, BLUNDER,
};
use stickdice_evaluation::schedule::Schedule;
use stickdice_evaluation::tournament::{labels, verify_game, verify_seating_by_play};

/// The reference evaluator's settings (the defaults are the stated reference).
#[derive(Args, Clone, Debug, Default)]
pub struct ReferenceArgs {
    /// The games reviewed by a search (issiren, sig-el-oued-capture, siryu-war,
    /// siryu-race): the reference search's depth in decisions [default: 3; 2 for
    /// siryu-race]. The solved race games use their exact values and take no depth.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=i64::from(stickdice_agents::expectimax::MAX_DEPTH)))]
    pub reference_depth: Option<u32>,
    /// issiren: exact values from the endgame tablebase wherever a position with at most
    /// two pieces a side is reached: `build` (about 30 s) or a file written by `stickdice
    /// analyze --write-tablebase`.
    #[arg(long, value_name = "SOURCE")]
    pub reference_tablebase: Option<String>,
    /// The games reviewed by a search: the evaluation at the reference search's leaves,
    /// as the agents' `eval`
    /// parameter: `hand` (the default, so figures compare with earlier ones), `learned`
    /// (the shipped weights: a stronger judge of strong agents) or a weights file.
    #[arg(long, value_name = "EVAL")]
    pub reference_eval: Option<String>,
}

impl ReferenceArgs {
    /// The options of the library's reference.
    pub fn options(&self) -> ReferenceOptions {
        ReferenceOptions {
            depth: self.reference_depth,
            tablebase: self.reference_tablebase.clone(),
            eval: self.reference_eval.clone(),
        }
    }
}

/// Luck-adjusted scores in a report (`tournament` and `merge`): `--luck`, `--luck-adjusted`
/// and the reference's options.
#[derive(Args, Debug)]
pub struct LuckArgs {
    /// Add luck-adjusted scores to the report (each game's score minus the seat's luck
    /// against a fixed reference: see `stickdice review`), measured from the logged games.
    #[arg(long)]
    pub luck: bool,
    /// As --luck, and run the SPRT on the luck-adjusted scores.
    #[arg(long)]
    pub luck_adjusted: bool,
    #[command(flatten)]
    pub reference: ReferenceArgs,
}

impl LuckArgs {
    /// The reference's options and whether the SPRT runs on adjusted scores, when luck is
    /// asked for; an error for reference options without `--luck`.
    pub(crate) fn requested(&self) -> Result<Option<(ReferenceOptions, bool)>, CliError> {
        if self.luck || self.luck_adjusted {
            Ok(Some((self.reference.options(), self.luck_adjusted)))
        } else if self.reference.reference_depth.is_some()
            || self.reference.reference_tablebase.is_some()
            || self.reference.reference_eval.is_some()
        {
            Err(
                "--reference-depth, --reference-tablebase and --reference-eval go with --luck or --luck-adjusted"
                    .into(),
            )
        } else {
            Ok(None)
        }
    }
}

/// Arguments of `stickdice review`.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The tournament log (games.jsonl), or the output folder holding it.
    log: PathBuf,
    /// Review only this game (its index, as in the log and the report); without it every
    /// game of the log, one summary line per game.
    #[arg(long, value_name = "K")]
    index: Option<usize>,
    /// Print JSON (one review, or a list of reviews) instead of tables.
    #[arg(long)]
    json: bool,
    /// The error above which an unforced decision is a blunder, in expected score.
    #[arg(long, default_value_t = BLUNDER)]
    blunder: f64,
    #[command(flatten)]
    reference: ReferenceArgs,
    /// Worker threads for a whole log (default: one per core). The figures do not depend
    /// on it.
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// The description file the log was played with, for a log of a game loaded with
    /// --game-file: refused unless it is the logged one (same digest). Without it, the
    /// text the log records is used.
    #[arg(long, value_name = "PATH")]
    game_file: Option<PathBuf>,
}

pub(crate) fn run(args: &ReviewArgs) -> Result<(), CliError> {
    if !(args.blunder.is_finite() && args.blunder >= 0.0) {
        return Err(CliError::Invalid(format!(
            "--blunder must be a non-negative number, not {}",
            args.blunder
        )));
    }
    if args.threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    let path = if args.log.is_dir() {
        args.log.join(stickdice_evaluation::tournament::LOG_FILE)
    } else {
        args.log.clone()
    };
    let contents = log::read(&path)?.ok_or_else(|| format!("{} is empty", path.display()))?;
    let c = &contents.config;
    let given = crate::cli::load_game_file(args.game_file.as_deref())?;
    let any = c
        .game(given.as_ref())
        .map_err(|e| CliError::context(format!("{}: the log's game", path.display()), e))?;
    // The agents as they were given (without the default `tablebase=off`).
    let names: Vec<String> = labels(&c.agents)
        .iter()
        .map(|l| display_name(l).into_owned())
        .collect();
    let games: Vec<&(usize, GameRecord)> = match args.index {
        Some(k) => vec![contents
            .games
            .iter()
            .find(|(_, g)| g.index == k)
            .ok_or_else(|| {
                let mut have: Vec<usize> = contents.games.iter().map(|(_, g)| g.index).collect();
                have.sort_unstable();
                format!(
                    "{} holds no game {k}; it holds {} games{}",
                    path.display(),
                    have.len(),
                    match (have.first(), have.last()) {
                        (Some(a), Some(b)) => format!(", indices {a} to {b}"),
                        _ => String::new(),
                    }
                )
            })?],
        // In the order of their indices (the log holds them in the order they finished).
        None => {
            let mut all: Vec<&(usize, GameRecord)> = contents.games.iter().collect();
            all.sort_by_key(|(_, g)| g.index);
            all
        }
    };
    if games.is_empty() {
        return Err(CliError::Invalid(format!(
            "{} holds no games",
            path.display()
        )));
    }
    // Check each game as replay and resuming do (seating, throw count, result against the
    // schedule and the replayed events): a log that does not check is not reviewed.
    let schedule = Schedule::new(
        c.format,
        c.agents.len(),
        c.players,
        c.games_per_table,
        c.seed,
    )
    .map_err(|e| CliError::context(format!("{}: the log's tournament", path.display()), e))?;
    for (line, record) in &games {
        with_game!(&any, |g| verify_game(g, &schedule, record))
            .map_err(|e| CliError::context(format!("{} line {line}", path.display()), e))?;
    }
    // The header's agents against their seeded play, on the first game where two different
    // agents sit (a header with the names swapped credits every game to the wrong agent).
    if let Some((line, record)) = games.iter().find(|(_, g)| {
        g.seating
            .iter()
            .any(|&a| c.agents.get(a) != g.seating.first().and_then(|&b| c.agents.get(b)))
    }) {
        with_game!(&any, |g| verify_seating_by_play(g, &c.agents, record))
            .map_err(|e| CliError::context(format!("{} line {line}", path.display()), e))?;
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t);
    }
    let pool = builder.build()?;
    // A whole tournament's log takes minutes: show how far it is.
    let meter = (games.len() > 1).then(|| crate::progress::Meter::new(games.len() as u64, "games"));
    let reviews: Result<Vec<Review>, CliError> = pool.install(|| {
        with_game!(&any, |g| review_all(
            g,
            &games,
            args,
            &path.display().to_string(),
            meter.as_ref()
        ))
    });
    if let Some(m) = meter {
        m.finish();
    }
    let reviews = reviews?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if args.json {
        let text = if args.index.is_some() {
            serde_json::to_string_pretty(&reviews[0])
        } else {
            serde_json::to_string_pretty(&reviews)
        }?;
        writeln!(out, "{text}")
    } else if args.index.is_some() {
        write_game(&mut out, &reviews[0], games[0].1.seating.as_slice(), &names)
    } else {
        write_summary(&mut out, &reviews, &games, &names)
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Invalid(format!("cannot write the review: {e}"))),
    }
}

fn review_all<G: Reviewable>(
    game: &G,
    games: &[&(usize, GameRecord)],
    args: &ReviewArgs,
    path: &str,
    meter: Option<&crate::progress::Meter>,
) -> Result<Vec<Review>, CliError> {
    let options = args.reference.options();
    // Build it once now, so a reference that cannot handle the game is one clear error.
    game.reference(&options)
        .map_err(|e| CliError::context(format!("cannot review {} games", G::NAME), e))?;
    games
        .par_iter()
        .with_max_len(1)
        .map(|(line, record)| {
            let mut reference = game.reference(&options)?;
            let review =
                review_record(game, reference.as_mut(), record, args.blunder).map_err(|e| {
                    CliError::context(format!("{path} line {line} (game {})", record.index), e)
                });
            if let Some(m) = meter {
                m.inc(1);
            }
            review
        })
        .collect()
}

fn name_of<'a>(names: &'a [String], seating: &[usize], seat: usize) -> &'a str {
    seating
        .get(seat)
        .and_then(|&a| names.get(a))
        .map_or("?", |s| s.as_str())
}

fn signed(x: f64) -> String {
    format!("{x:+.4}")
}

fn write_game(
    out: &mut impl Write,
    r: &Review,
    seating: &[usize],
    names: &[String],
) -> std::io::Result<()> {
    writeln!(
        out,
        "{} game {} reviewed; reference: {}",
        r.game,
        r.index.map_or("-".to_string(), |i| i.to_string()),
        r.reference
    )?;
    for s in 0..r.seats {
        writeln!(out, "  P{}: {}", s + 1, name_of(names, seating, s))?;
    }
    writeln!(
        out,
        "values are expected scores (1 = beat every other seat); luck is the thrower's; blunder: error > {}",
        r.blunder_threshold
    )?;
    writeln!(
        out,
        "{:>6}  {:<4} {:<34} {:>9} {:>9}  note",
        "event", "seat", "throw / action", "luck", "error"
    )?;
    for step in &r.steps {
        match step {
            Step::Throw {
                event,
                seat,
                describe,
                luck,
                value,
                ..
            } => writeln!(
                out,
                "{:>6}  P{:<3} {:<34} {:>9} {:>9}  value {:.3}",
                event + 1,
                seat + 1,
                truncate(describe, 34),
                signed(luck[*seat]),
                "",
                value[*seat]
            )?,
            Step::Decision {
                event,
                seat,
                chosen,
                best,
                error,
                forced,
                blunder,
                actions,
                ..
            } => {
                let note = if *forced {
                    "forced".to_string()
                } else {
                    let mut n = format!("{} actions", actions.len());
                    if chosen != best {
                        n.push_str(&format!(", best {best}"));
                    }
                    if *blunder {
                        n.push_str(", BLUNDER");
                    }
                    n
                };
                writeln!(
                    out,
                    "{:>6}  P{:<3} {:<34} {:>9} {:>9}  {note}",
                    event + 1,
                    seat + 1,
                    truncate(&format!("plays {chosen}"), 34),
                    "",
                    format!("{error:.4}"),
                )?;
            }
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:<4} {:<24} {:>7} {:>7} {:>9} {:>9} {:>9} {:>8} {:>9} {:>7} {:>9}",
        "seat",
        "agent",
        "start",
        "final",
        "luck",
        "error",
        "mean err",
        "blunders",
        "opponent",
        "drift",
        "adjusted"
    )?;
    for s in &r.summary {
        writeln!(
            out,
            "P{:<3} {:<24} {:>7.3} {:>7.3} {:>9} {:>9.4} {:>9} {:>8} {:>9} {:>7} {:>9.3}",
            s.seat + 1,
            truncate(name_of(names, seating, s.seat), 24),
            s.start,
            s.final_score,
            signed(s.luck),
            s.total_error,
            s.mean_error.map_or("-".to_string(), |m| format!("{m:.4}")),
            format!("{}/{}", s.blunders, s.unforced),
            signed(s.opponent_effect),
            format!("{:+.3}", s.drift + s.forfeit),
            s.adjusted
        )?;
    }
    writeln!(
        out,
        "start + luck − error + opponent + drift = final; adjusted = final − luck"
    )?;
    adjusted_note(out, r.summary.iter().map(|s| s.adjusted))
}

/// What an adjusted score outside [0, 1] means, written when there is one.
fn adjusted_note(
    out: &mut impl Write,
    adjusted: impl IntoIterator<Item = f64>,
) -> std::io::Result<()> {
    if adjusted.into_iter().any(|a| !(0.0..=1.0).contains(&a)) {
        writeln!(
            out,
            "An adjusted score outside [0, 1] is no score a game can give: it is the score minus \
             the luck, so a seat that won against bad luck (negative luck) is above 1, and one \
             that lost despite good luck is below 0. It says how the seat played, on the \
             scale of scores, with the dice taken out."
        )?;
    }
    Ok(())
}

/// Every game of the log on one line per seat, then each agent's totals.
fn write_summary(
    out: &mut impl Write,
    reviews: &[Review],
    games: &[&(usize, GameRecord)],
    names: &[String],
) -> std::io::Result<()> {
    let Some(first) = reviews.first() else {
        return Ok(());
    };
    writeln!(
        out,
        "{} games reviewed; reference: {}",
        reviews.len(),
        first.reference
    )?;
    writeln!(
        out,
        "{:>6}  {:<4} {:<24} {:>7} {:>9} {:>9} {:>8} {:>9}",
        "game", "seat", "agent", "final", "luck", "error", "blunders", "adjusted"
    )?;
    #[derive(Default, Serialize)]
    struct Totals {
        games: usize,
        luck: f64,
        error: f64,
        unforced: usize,
        blunders: usize,
        score: f64,
        adjusted: f64,
    }
    let mut totals: Vec<Totals> = (0..names.len()).map(|_| Totals::default()).collect();
    for (r, (_, g)) in reviews.iter().zip(games) {
        for s in &r.summary {
            writeln!(
                out,
                "{:>6}  P{:<3} {:<24} {:>7.3} {:>9} {:>9.4} {:>8} {:>9.3}",
                g.index,
                s.seat + 1,
                truncate(name_of(names, &g.seating, s.seat), 24),
                s.final_score,
                signed(s.luck),
                s.total_error,
                format!("{}/{}", s.blunders, s.unforced),
                s.adjusted
            )?;
            if let Some(t) = g.seating.get(s.seat).and_then(|&a| totals.get_mut(a)) {
                t.games += 1;
                t.luck += s.luck;
                t.error += s.total_error;
                t.unforced += s.unforced;
                t.blunders += s.blunders;
                t.score += s.final_score;
                t.adjusted += s.adjusted;
            }
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:<24} {:>6} {:>10} {:>10} {:>13} {:>9} {:>10} {:>10}",
        "agent",
        "games",
        "mean score",
        "mean luck",
        "mean error",
        "blunders",
        "unforced",
        "adjusted"
    )?;
    for (a, t) in totals.iter().enumerate() {
        if t.games == 0 {
            continue;
        }
        let per = |x: f64| x / t.games as f64;
        writeln!(
            out,
            "{:<24} {:>6} {:>10.3} {:>10} {:>13} {:>9} {:>10} {:>10.3}",
            truncate(&names[a], 24),
            t.games,
            per(t.score),
            signed(per(t.luck)),
            if t.unforced > 0 {
                format!("{:.4}", t.error / t.unforced as f64)
            } else {
                "-".to_string()
            },
            t.blunders,
            t.unforced,
            per(t.adjusted)
        )?;
    }
    let games_adjusted = reviews
        .iter()
        .flat_map(|r| r.summary.iter().map(|s| s.adjusted));
    let agents_adjusted = totals
        .iter()
        .filter(|t| t.games > 0)
        .map(|t| t.adjusted / t.games as f64);
    adjusted_note(out, games_adjusted.chain(agents_adjusted))
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}
