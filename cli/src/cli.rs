//! Command-line pieces shared by the `stickdice` subcommands.

use crate::error::CliError;
use clap::Args;
use stickdice::{AnyGame, GameKind};

/// The most worker threads a command starts (`--threads`).
pub use stickdice_evaluation::tournament::MAX_THREADS;

/// Checks a count option against its limits: at least 1, at most `max`.
///
/// # Errors
/// A message naming the option and the limit.
pub(crate) fn check_count(option: &str, value: Option<usize>, max: usize) -> Result<(), CliError> {
    match value {
        Some(0) => Err(CliError::Invalid(format!("{option} must be at least 1"))),
        Some(n) if n > max => Err(CliError::Invalid(format!(
            "{option} {n} is more than the limit of {max}"
        ))),
        _ => Ok(()),
    }
}

/// Choosing a game: `--game NAME` or `--game-file PATH`, `[--players N] [--option
/// key=value]...`.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// The game (its name as `stickdice games` lists it; the help names them all, from the
    /// game list: see [`with_game_lists`]).
    #[arg(long, short = 'g', default_value = "issiren")]
    pub game: String,
    /// A game description file (TOML, docs/described/format.md) to play instead of a game
    /// of the list.
    #[arg(long, value_name = "PATH", conflicts_with = "game")]
    pub game_file: Option<std::path::PathBuf>,
    /// Number of players (default: the game's own, its fewest unless its rules say otherwise).
    #[arg(long, short = 'p')]
    pub players: Option<usize>,
    /// A rule option, key=value (repeatable), e.g. --option max_throws=500.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

/// The games of the list by name, for help texts: `a, b, … or z`.
pub(crate) fn game_names() -> String {
    let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => (*last).to_string(),
        None => String::new(),
    }
}

/// The command line with the help texts that name games generated from the game list:
/// every subcommand's `--game`, and `analyze --agents`'s defaults per game. So a game added
/// to the list appears in `--help` with no edit here.
pub(crate) fn with_game_lists(mut cmd: clap::Command) -> clap::Command {
    let game_help = format!("The game: {}", game_names());
    let names: Vec<String> = cmd
        .get_subcommands()
        .filter(|c| c.get_arguments().any(|a| a.get_id() == "game"))
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        let help = game_help.clone();
        cmd = cmd.mut_subcommand(name, |c| c.mut_arg("game", |a| a.help(help)));
    }
    let agents_help = crate::analyze_cmd::agents_help();
    cmd.mut_subcommand("analyze", |c| c.mut_arg("agents", |a| a.help(agents_help)))
}

impl GameArgs {
    /// The configured game.
    ///
    /// # Errors
    /// An unknown game, a description file that does not read, a seat count the game does
    /// not allow, or a bad option.
    pub fn build(&self) -> Result<AnyGame, CliError> {
        match &self.game_file {
            Some(path) => Ok(stickdice::described::file::any_game(
                stickdice::described::file::load(path)?,
                self.players,
                &self.options,
            )?),
            None => Ok(AnyGame::new(&self.game, self.players, &self.options)?),
        }
    }
}

/// A description file given to check a log against (`--game-file` of replay, review and
/// merge), read.
///
/// # Errors
/// A file that does not read as a description.
pub(crate) fn load_game_file(
    path: Option<&std::path::Path>,
) -> Result<Option<std::sync::Arc<stickdice::described::Base>>, CliError> {
    Ok(match path {
        Some(p) => Some(stickdice::described::file::load(p)?),
        None => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    #[test]
    fn help_texts_name_every_game_of_the_list() {
        let mut cmd = with_game_lists(crate::Cli::command());
        cmd.build();
        for sub in ["play", "tournament", "analyze"] {
            let help = cmd
                .find_subcommand_mut(sub)
                .unwrap()
                .render_long_help()
                .to_string();
            // The `--game` help, and for analyze the defaults of `--agents`, per game.
            for kind in GameKind::ALL {
                let n = help.matches(kind.name()).count();
                let want = if sub == "analyze" { 2 } else { 1 };
                assert!(n >= want, "{sub} --help names {} {n} times", kind.name());
            }
        }
        let analyze = cmd
            .find_subcommand_mut("analyze")
            .unwrap()
            .render_long_help()
            .to_string();
        let flat = analyze.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("issiren greedy,expectimax:depth=2"), "{flat}");
        assert!(
            flat.contains("sig-el-oued perfect,greedy with 2 players, greedy with more"),
            "{flat}"
        );
        assert!(flat.contains("sig-wa-duqqan none"), "{flat}");
    }
}
