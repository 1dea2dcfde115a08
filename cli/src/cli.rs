//! Command-line pieces shared by the `stickdice` subcommands.

use crate::error::CliError;
use clap::Args;
use stickdice::{AnyGame, ConfigError};

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

/// Choosing a game: `--game NAME [--players N] [--option key=value]...`.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// The game: sig-wa-duqqan, sig-el-oued or issiren.
    #[arg(long, short = 'g', default_value = "issiren")]
    pub game: String,
    /// Number of players (default: the game's fewest).
    #[arg(long, short = 'p')]
    pub players: Option<usize>,
    /// A rule option, key=value (repeatable), e.g. --option max_throws=500.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl GameArgs {
    /// The configured game.
    ///
    /// # Errors
    /// An unknown game, a seat count it does not allow, or a bad option.
    pub fn build(&self) -> Result<AnyGame, ConfigError> {
        AnyGame::new(&self.game, self.players, &self.options)
    }
}
