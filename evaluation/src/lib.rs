//! The stickdice arena, tournaments and statistics, reports, analysis and the front-end
//! protocol: the library behind the `stickdice` command (crate `stickdice-cli`), without
//! its command-line dependencies.
//!
//! * [`analysis`]: the figures of `stickdice analyze` (seat advantage, lengths, decisions,
//!   captures, the cap, the skill gap) and the game-length histogram.
//! * [`arena`]: one game between agents built fresh from factories, with duplicate dice;
//!   failures (panics, illegal actions, errors) lose the game.
//! * [`schedule`]: round-robin and gauntlet tables, seat rotations, game and agent seeds.
//! * [`tournament`]: parallel, reproducible, resumable tournaments with a JSON-lines log.
//! * [`log`]: the log's format.
//! * [`stats`]: confidence intervals, Bradley–Terry Elo, the SPRT.
//! * [`report`]: the report (JSON, Markdown, CSV, SVG).
//! * [`review`]: game review (the error of every decision, the luck of every throw) and
//!   luck-adjusted scores.
//! * [`protocol`]: the `stickdice serve` front-end protocol (docs/protocol.md).

pub mod analysis;
pub mod arena;
pub mod log;
pub mod protocol;
pub mod report;
pub mod review;
pub mod schedule;
pub mod stats;
pub mod tournament;

pub use arena::{factory, Factory, Failure, FailureKind};
pub use report::Report;
pub use schedule::{Format, Schedule};
pub use stats::Sprt;
pub use tournament::{Entrant, RunOptions, RunSummary, Tournament, TournamentError};

#[cfg(test)]
mod tests;
