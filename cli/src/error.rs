//! Why a command failed: [`CliError`], printed by `main` as `error: …` with exit status 2.

use std::path::{Path, PathBuf};

/// A failed command. Its message is the one printed after `error: `; the error it comes
/// from, where there is one, is its [`std::error::Error::source`] (or, for the library
/// errors shown as themselves, theirs).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum CliError {
    /// What the command was given cannot be used: an option out of range, options that
    /// do not go together, an empty or foreign log, a result that does not check out.
    #[error("{0}")]
    Invalid(String),
    /// A file or folder could not be read, written or created.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// What was being done: `write`, `create`, `read`, …
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A library error with what the command was doing: `{context}: {source}`.
    #[error("{context}: {source}")]
    Context {
        /// What was being done (a file and line, a game, an agent spec).
        context: String,
        /// The error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A game that cannot be configured (`--game`, `--players`, `--option`).
    #[error(transparent)]
    Config(#[from] stickdice::ConfigError),
    /// A description file that cannot be read (`--game-file`).
    #[error(transparent)]
    Description(#[from] stickdice::described::DescriptionError),
    /// A log's game that cannot be set up again (its description differs from the one
    /// given, say).
    #[error(transparent)]
    LoggedGame(#[from] stickdice_evaluation::log::LoggedGameError),
    /// An agent spec that cannot be read or built.
    #[error(transparent)]
    Spec(#[from] stickdice_agents::SpecError),
    /// A tournament that cannot be set up or run.
    #[error(transparent)]
    Tournament(#[from] stickdice_evaluation::TournamentError),
    /// A game that cannot be reviewed.
    #[error(transparent)]
    Review(#[from] stickdice_evaluation::review::ReviewError),
    /// A game that cannot be played to its end.
    #[error(transparent)]
    Play(#[from] stickdice::play::PlayError),
    /// A tournament log that cannot be read.
    #[error(transparent)]
    Log(#[from] stickdice_evaluation::log::LogError),
    /// Shard logs that cannot be merged.
    #[error(transparent)]
    Merge(#[from] stickdice_evaluation::merge::MergeError),
    /// A ladder that cannot be calibrated or played.
    #[error(transparent)]
    Ladder(#[from] stickdice_evaluation::ladder::LadderError),
    /// A ladder series that cannot be formed.
    #[error(transparent)]
    Series(#[from] stickdice_evaluation::ladder::SeriesError),
    /// A game or position the exact solver cannot handle.
    #[error(transparent)]
    Solve(#[from] stickdice_agents::solve::SolveError),
    /// The Issiren endgame tablebase cannot be found, built or loaded.
    #[error(transparent)]
    Tablebase(#[from] stickdice_agents::solve::tablebase::TablebaseError),
    /// An evaluation that cannot be built (`--eval`).
    #[error(transparent)]
    Evaluator(#[from] stickdice_agents::eval::EvaluatorError),
    /// A training setting out of range.
    #[error(transparent)]
    Setting(#[from] stickdice_agents::learned::SettingError),
    /// Training that failed.
    #[error(transparent)]
    Train(#[from] stickdice_agents::learned::TrainError),
    /// A comparison that cannot be set up or run (`stickdice compare`).
    #[error(transparent)]
    Compare(#[from] stickdice_evaluation::compare::CompareError),
    /// The worker threads could not be started.
    #[error(transparent)]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The web page's server that cannot start or stopped with an error.
    #[cfg(feature = "web")]
    #[error(transparent)]
    Web(#[from] stickdice_web::ServeError),
    /// JSON that cannot be written or read.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl CliError {
    /// A file or folder that could not be `action`ed (`cannot {action} {path}: {source}`).
    pub(crate) fn io(
        action: &'static str,
        path: impl AsRef<Path>,
        source: std::io::Error,
    ) -> CliError {
        CliError::Io {
            action,
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    /// A library error with what the command was doing (`{context}: {source}`).
    pub(crate) fn context(
        context: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> CliError {
        CliError::Context {
            context: context.into(),
            source: Box::new(source),
        }
    }

    /// The exit status: 2 for every failure (3, an SPRT not decided yet, is not a failure:
    /// `merge` returns it as a result).
    pub(crate) fn exit_code(&self) -> u8 {
        2
    }
}

impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::Invalid(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> CliError {
        CliError::Invalid(message.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn io_errors_keep_the_system_error_as_their_source() {
        let system = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied");
        let e = CliError::io("write", Path::new("out/report.json"), system);
        assert_eq!(e.to_string(), "cannot write out/report.json: denied");
        assert_eq!(
            e.source().map(ToString::to_string).as_deref(),
            Some("denied")
        );
        assert!(matches!(
            e,
            CliError::Io {
                action: "write",
                ..
            }
        ));
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn context_errors_name_what_was_being_done() {
        let cause = "x".parse::<u8>().unwrap_err();
        let e = CliError::context("games.jsonl line 3", cause.clone());
        assert_eq!(e.to_string(), format!("games.jsonl line 3: {cause}"));
        assert_eq!(e.source().map(ToString::to_string), Some(cause.to_string()));
    }

    #[test]
    fn library_errors_print_as_themselves_and_can_be_matched() {
        use stickdice::Game as _;
        let game = stickdice::Issiren::with_seats(2).unwrap();
        let spec_error = stickdice_agents::build_str("no-such-agent", &game, 0)
            .map(|_| ())
            .unwrap_err();
        let text = spec_error.to_string();
        let e = CliError::from(spec_error);
        assert!(matches!(e, CliError::Spec(_)));
        assert_eq!(e.to_string(), text);
        let e = CliError::from(
            stickdice::AnyGame::new("no-such-game", None, &[] as &[String]).unwrap_err(),
        );
        assert!(matches!(e, CliError::Config(_)), "{e}");
    }
}
