//! `stickdice replay`: a game from a tournament log, move by move with the board.

use crate::error::CliError;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use stickdice::{with_game, Present, Throw};
use stickdice_evaluation::log::{self, GameRecord, LoggedEvent};
use stickdice_evaluation::schedule::Schedule;
use stickdice_evaluation::tournament::{labels, verify_game, verify_seating_by_play};

/// Arguments of `stickdice replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The tournament log (games.jsonl), or the output folder holding it.
    log: PathBuf,
    /// The game's index in the tournament (as in the log and the report).
    #[arg(long, short = 'i', value_name = "K", required_unless_present = "game")]
    index: Option<usize>,
    /// The old name of --index (every other `--game` names a game): refused with a hint.
    #[arg(long, short = 'g', hide = true, value_name = "K")]
    game: Option<String>,
    /// Only print the throws and actions, not the board after each.
    #[arg(long)]
    quiet: bool,
    /// The description file the log was played with, for a log of a game loaded with
    /// --game-file: refused unless it is the logged one (same digest). Without it, the
    /// text the log records is used.
    #[arg(long, value_name = "PATH")]
    game_file: Option<PathBuf>,
}

pub(crate) fn run(args: &ReplayArgs) -> Result<(), CliError> {
    let index = match (args.index, &args.game) {
        (Some(i), None) => i,
        (_, Some(old)) => {
            return Err(CliError::Invalid(format!(
                "replay chooses a game by its index: use --index {old} (--game names a game, such as issiren, in the other commands)"
            )))
        }
        (None, None) => unreachable!("clap requires --index"),
    };
    let path = if args.log.is_dir() {
        args.log.join(stickdice_evaluation::tournament::LOG_FILE)
    } else {
        args.log.clone()
    };
    let contents = log::read(&path)?.ok_or_else(|| format!("{} is empty", path.display()))?;
    let (line, record) = contents
        .games
        .iter()
        .find(|(_, g)| g.index == index)
        .ok_or_else(|| {
            let mut have: Vec<usize> = contents.games.iter().map(|(_, g)| g.index).collect();
            have.sort_unstable();
            format!(
                "{} holds no game {}; it holds {} games{}",
                path.display(),
                index,
                have.len(),
                match (have.first(), have.last()) {
                    (Some(a), Some(b)) => format!(", indices {a} to {b}"),
                    _ => String::new(),
                }
            )
        })?;
    let c = &contents.config;
    let given = crate::cli::load_game_file(args.game_file.as_deref())?;
    let any = c
        .game(given.as_ref())
        .map_err(|e| CliError::context(format!("{}: the log's game", path.display()), e))?;
    let names = labels(&c.agents);
    // Check the game as resuming does: a log that does not check is not replayed.
    let schedule = Schedule::new(
        c.format,
        c.agents.len(),
        c.players,
        c.games_per_table,
        c.seed,
    )
    .map_err(|e| CliError::context(format!("{}: the log's tournament", path.display()), e))?;
    with_game!(&any, |g| verify_game(g, &schedule, record).and_then(|()| {
        verify_seating_by_play(g, &c.agents, record).map(|_| ())
    }))
    .map_err(|e| CliError::context(format!("{} line {line}", path.display()), e))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let result = with_game!(&any, |g| replay(g, record, &names, args.quiet, &mut out));
    match result.and_then(|()| out.flush().map_err(Failed::Io)) {
        Ok(()) => Ok(()),
        // The reader went away (`| head`): not an error.
        Err(Failed::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(Failed::Io(e)) => Err(CliError::Invalid(format!("cannot write the replay: {e}"))),
        Err(Failed::Replay(e)) => Err(CliError::Invalid(format!(
            "{} line {line}: {e}",
            path.display()
        ))),
    }
}

/// Why a replay stopped.
enum Failed {
    /// Writing the output failed.
    Io(std::io::Error),
    /// The logged game does not replay.
    Replay(String),
}

impl From<std::io::Error> for Failed {
    fn from(e: std::io::Error) -> Self {
        Failed::Io(e)
    }
}

fn replay<G: Present>(
    game: &G,
    record: &GameRecord,
    names: &[String],
    quiet: bool,
    out: &mut impl Write,
) -> Result<(), Failed> {
    writeln!(
        out,
        "{} — game {} (table {}, rotation {}, seating shift {}), game seed {}",
        game.title(),
        record.index,
        record.table,
        record.rotation,
        record.shift,
        record.game_seed
    )?;
    for (seat, &a) in record.seating.iter().enumerate() {
        let name = names.get(a).map_or("?", |s| s.as_str());
        writeln!(
            out,
            "  P{}: {name} (agent seed {})",
            seat + 1,
            record.agent_seeds.get(seat).copied().unwrap_or_default()
        )?;
    }
    let mut state = game.initial_state();
    if !quiet {
        writeln!(out, "{}", game.render(&state))?;
    }
    for (i, e) in record.events.iter().enumerate() {
        let before = state;
        let at = |why: String| Failed::Replay(format!("event {}: {why}", i + 1));
        match e {
            LoggedEvent::Throw(t) => {
                let throw = Throw::new(*t);
                let seat = game.node(&state).seat().unwrap_or(0);
                game.apply_throw(&mut state, throw)
                    .map_err(|e| at(e.to_string()))?;
                writeln!(
                    out,
                    "throw {:>4}  P{}: {}",
                    game.throws_made(&state),
                    seat + 1,
                    game.describe_throw(&before, throw)
                )?;
            }
            LoggedEvent::Action(text) => {
                let seat = game.node(&state).seat().unwrap_or(0);
                let a = game.parse_action(text).map_err(|e| at(e.to_string()))?;
                game.apply_action(&mut state, a)
                    .map_err(|e| at(e.to_string()))?;
                writeln!(out, "            P{} plays {a}", seat + 1)?;
            }
        }
        if !quiet {
            writeln!(out, "{}", game.render(&state))?;
        }
    }
    if let Some(f) = &record.failure {
        writeln!(
            out,
            "P{} ({}) lost by {}: {}",
            f.seat + 1,
            record
                .seating
                .get(f.seat)
                .and_then(|&a| names.get(a))
                .map_or("?", |s| s.as_str()),
            f.kind,
            f.message
        )?;
    }
    writeln!(out, "after {} throws, places:", record.throws)?;
    for (seat, (&place, score)) in record.places.iter().zip(&record.scores).enumerate() {
        writeln!(
            out,
            "  P{}: place {}, score {score:.3}",
            seat + 1,
            place + 1
        )?;
    }
    Ok(())
}
