//! The stickdice arena, tournaments and statistics, reports, analysis and the front-end
//! protocol: the library behind the `stickdice` command (crate `stickdice-cli`), without
//! its command-line dependencies. The stickdice book (`docs/` in the repository; `mdbook
//! build docs`) explains what every figure means: the chapters *Tournaments and statistics*
//! (`docs/tournaments.md`), *Analysis, review and luck* (`docs/analysis.md`) and *The
//! protocol* (`docs/protocol.md`).
//!
//! * [`analysis`]: the figures of `stickdice analyze` (seat advantage, lengths, decisions,
//!   captures, the cap, the skill gap) and the game-length histogram.
//! * [`compare`](mod@compare): the comparison workbench (`stickdice compare`): Ludii's
//!   quality metrics and ours across configurations, and which differences are real.
//! * [`family`]: distances between configurations (on normalised metrics, and on the
//!   rules' structure) and the family tree (average-linkage clustering, SVG dendrogram,
//!   Newick).
//! * [`builder`]: tournaments from code in one call ([`tournament()`], [`tournament_any`]):
//!   agents as specs, values or closures; in memory or with a resumable log.
//! * [`arena`]: one game between agents built fresh from factories, with duplicate dice;
//!   failures (panics, illegal actions, errors) lose the game.
//! * [`schedule`]: round-robin and gauntlet tables, seat rotations, game and agent seeds.
//! * [`tournament`](mod@tournament): parallel, reproducible, resumable tournaments with a
//!   JSON-lines log.
//! * [`log`]: the log's format.
//! * [`stats`]: confidence intervals, Bradley–Terry Elo, the SPRT.
//! * [`report`]: the report (JSON, Markdown, CSV, SVG).
//! * [`review`]: game review (the error of every decision, the luck of every throw) and
//!   luck-adjusted scores.
//! * [`protocol`]: the `stickdice serve` front-end protocol (`docs/protocol.md`).
//!
//! A tournament from code ([`builder`]), in memory:
//!
//! ```
//! use stickdice::{Game, SigElOued};
//!
//! let game = SigElOued::with_seats(2)?;
//! let summary = stickdice_evaluation::tournament(&game)
//!     .agents(["random", "greedy", "expectimax:depth=1"])
//!     .games(4)
//!     .seed(3)
//!     .run()?;
//! let report = summary.report.expect("finished");
//! for s in &report.standings {
//!     println!("{} {} {:.3}", s.rank, s.agent, s.score.value);
//! }
//! println!("{}", report.to_markdown());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod analysis;
pub mod arena;
pub mod builder;
mod chart;
pub mod compare;
pub mod family;
pub mod ladder;
pub mod log;
pub mod merge;
pub mod protocol;
pub mod report;
pub mod review;
pub mod schedule;
pub mod stats;
pub mod tournament;

pub use analysis::measures;
pub use arena::{factory, Factory, Failure, FailureKind};
pub use builder::{tournament, tournament_any, AnyTournamentBuilder, TournamentBuilder};
pub use report::Report;
pub use review::references;
pub use schedule::{Format, Schedule, Shard};
pub use stats::Sprt;
pub use tournament::{Entrant, RunOptions, RunSummary, Tournament, TournamentError};

#[cfg(test)]
mod tests;
