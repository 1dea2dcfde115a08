//! `stickdice check-game`: validates a description file and plays random games with it.

use std::path::PathBuf;

use clap::Args;
use stickdice::described::Described;

use crate::error::CliError;

/// Arguments of `stickdice check-game`.
#[derive(Args, Debug)]
pub struct CheckGameArgs {
    /// The description file (TOML, `format = 1`; docs/described/format.md).
    file: PathBuf,
    /// How many random games to play (0: only validate).
    #[arg(long, default_value_t = 500)]
    games: usize,
    /// The seed of the random games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The seat count (default: the description's fewest).
    #[arg(long, short = 'p')]
    players: Option<usize>,
    /// A rule option, `key=value` (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    options: Vec<String>,
}

pub(crate) fn run(args: &CheckGameArgs) -> Result<(), CliError> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| CliError::Invalid(format!("cannot read {}: {e}", args.file.display())))?;
    let file = args.file.display().to_string();
    let mut game =
        Described::from_text(&file, &text).map_err(|e| CliError::Invalid(e.to_string()))?;
    if let Some(p) = args.players {
        game = game
            .with_seat_count(p)
            .map_err(|e| CliError::Invalid(e.to_string()))?;
    }
    let pairs = args
        .options
        .iter()
        .map(|o| stickdice::config::parse_option(o))
        .collect::<Result<Vec<_>, _>>()?;
    let name = game.name().to_string();
    game.set_options(&name, &pairs)?;
    outln!(
        "{file}: valid: {} ({}), {} seats; options: {}",
        game.name(),
        game.title(),
        game.seats(),
        game.option_values()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    outln!("content digest: sha256:{}", game.digest());
    if args.games == 0 {
        return Ok(());
    }
    let r = game.check_by_random_play(args.games, args.seed);
    outln!(
        "{} random games (seed {}): median {} throws, 90% within {}, longest {}",
        args.games,
        args.seed,
        r.quantile(0.5),
        r.quantile(0.9),
        r.lengths.last().copied().unwrap_or(0)
    );
    outln!(
        "reached the throw cap ({}): {} ({:.1}%)",
        game.max_throws(),
        r.capped,
        100.0 * r.capped as f64 / args.games as f64
    );
    outln!(
        "draws: {} ({:.1}%)",
        r.draws,
        100.0 * r.draws as f64 / args.games as f64
    );
    for (end, n) in &r.ends {
        outln!(
            "  ended by {end}: {n} ({:.1}%)",
            100.0 * *n as f64 / args.games as f64
        );
    }
    Ok(())
}
