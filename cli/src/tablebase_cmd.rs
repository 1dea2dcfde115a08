//! `stickdice tablebase`: where the Issiren endgame tablebase is cached, and building it
//! there once, so that expectimax and MCTS use it by default (`tablebase=auto`).

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
pub(crate) fn run(args: &TablebaseArgs) -> Result<(), String> {
    let path = tablebase::cache_path().map_err(|e| e.to_string())?;
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
        })
        .map_err(|e| e.to_string())?;
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
            "not built: {} (expectimax and mcts play without it; `stickdice tablebase --build` builds it)",
            path.display()
        );
        return Ok(());
    }
    match Tablebase::load(&path) {
        Ok(tb) => {
            outln!(
                "valid: {} ({:.1} MB; expectimax and mcts on issiren use it by default)",
                path.display(),
                tb.bytes() as f64 / 1e6
            );
            Ok(())
        }
        Err(e) => Err(format!(
            "{}: {e}; rebuild it with `stickdice tablebase --rebuild`",
            path.display()
        )),
    }
}

/// Says once on standard error that the Issiren searchers in `specs` play without the
/// tablebase because none is cached (they are labelled `tablebase=off`), and how to build
/// it; says nothing for other games, when it is cached, or when every spec sets it.
pub fn note_if_missing(game: &str, specs: &[String]) {
    if game != "issiren" || tablebase::cached() {
        return;
    }
    let auto = specs.iter().any(|s| {
        s.parse::<stickdice_agents::AgentSpec>().is_ok_and(|spec| {
            let takes = stickdice_agents::spec::info(spec.name()).is_some_and(|i| {
                i.params
                    .iter()
                    .any(|p| p.key == stickdice_agents::solve::TABLEBASE_PARAM.key)
            });
            let given = spec
                .params()
                .iter()
                .find(|(k, _)| k == "tablebase")
                .map(|(_, v)| v.as_str());
            takes && matches!(given, None | Some("auto"))
        })
    });
    if auto {
        let path =
            tablebase::cache_path().map_or_else(|e| e.to_string(), |p| p.display().to_string());
        eprintln!(
            "note: no Issiren endgame tablebase in the cache ({path}): the searchers play \
             without it (tablebase=off); `stickdice tablebase --build` builds it once (about 30 s)"
        );
    }
}
