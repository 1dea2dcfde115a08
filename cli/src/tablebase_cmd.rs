//! `stickdice tablebase`: where the Issiren endgame tablebase is cached, and building it
//! there once, for the searchers asked to use it (`tablebase=cache`; the default is `off`,
//! whatever the cache holds).

use crate::error::CliError;
use std::io::IsTerminal as _;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use stickdice_agents::solve::tablebase::{self, CacheBuild, Tablebase};

/// `stickdice tablebase [--build | --rebuild] [--path]`.
#[derive(Args, Debug)]
pub struct TablebaseArgs {
    /// Build the tablebase into the cache directory unless a valid one is there (about 30 s
    /// and 200 MB in a release build; the file is 51 MB). Two processes building at once:
    /// the second waits for the first one's file.
    #[arg(long)]
    pub build: bool,
    /// Build it anew even if a valid one is there.
    #[arg(long, conflicts_with = "build")]
    pub rebuild: bool,
    /// Print only the file's path (whether or not it exists).
    #[arg(long, conflicts_with_all = ["build", "rebuild"])]
    pub path: bool,
}

/// Runs the command.
pub(crate) fn run(args: &TablebaseArgs) -> Result<(), CliError> {
    let path = tablebase::cache_path()?;
    if args.path {
        outln!("{}", path.display());
        return Ok(());
    }
    if args.build || args.rebuild {
        let bar = if std::io::stderr().is_terminal() {
            ProgressBar::with_draw_target(Some(3), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{msg:>28} {bar:30.cyan/blue} {pos}/{len}  {elapsed}")
                .expect("a valid template"),
        );
        bar.set_message("waiting for the cache lock");
        eprintln!("building the Issiren tablebase into {}…", path.display());
        let done = tablebase::build_cached(args.rebuild, |group, sweep, residual| {
            bar.set_position(group as u64);
            bar.set_message(format!(
                "tables {}: sweep {sweep}, {residual:.0e}",
                ["1v1", "1v2+2v1", "2v2"][group]
            ));
        })?;
        bar.finish_and_clear();
        match done {
            CacheBuild::Present(p) => outln!("already built: {}", p.display()),
            CacheBuild::Built(p, stats) => outln!(
                "built {} positions in {:.1} s: {}",
                stats.positions,
                stats.time.as_secs_f64(),
                p.display()
            ),
        }
        return Ok(());
    }
    if !path.exists() {
        outln!(
            "not built: {} (`stickdice tablebase --build` builds it; expectimax, mcts and ismcts use it with tablebase=cache)",
            path.display()
        );
        return Ok(());
    }
    match Tablebase::load(&path) {
        Ok(tb) => {
            outln!(
                "valid: {} ({:.1} MB; expectimax, mcts and ismcts on issiren use it with tablebase=cache)",
                path.display(),
                tb.bytes() as f64 / 1e6
            );
            Ok(())
        }
        Err(e) => Err(CliError::Invalid(format!(
            "{}: {e}; rebuild it with `stickdice tablebase --rebuild`",
            path.display()
        ))),
    }
}
