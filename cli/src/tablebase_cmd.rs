//! `stickdice tablebase`: where the Issiren endgame tablebase is cached, and building it
//! there once, for the searchers asked to use it (`tablebase=cache`; the default is `off`,
//! whatever the cache holds).

use crate::error::CliError;
use crate::progress::Meter;

use clap::Args;
use stickdice_agents::solve::tablebase::{self, CacheBuild, Tablebase, TOLERANCE};

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

/// The tables of each layer group (1v1; 1v2 and 2v1; 2v2), by their entries: a sweep's
/// work is about proportional to them.
const GROUP_ENTRIES: [f64; 3] = [84.0 * 84.0, 2.0 * 84.0 * 3486.0, 3486.0 * 3486.0];

/// The share of a tablebase build done (0 to 1) after a sweep of layer group `group` left
/// `residual`: the groups before it done, and of this one the digits of convergence
/// gained, from 1 down to the tolerance (the residual falls about geometrically, so this
/// grows about linearly with the sweeps).
fn build_done(group: usize, residual: f64) -> f64 {
    let group = group.min(2);
    let total: f64 = GROUP_ENTRIES.iter().sum();
    let before: f64 = GROUP_ENTRIES[..group].iter().sum();
    let converged = if residual.is_nan() {
        0.0
    } else if residual <= TOLERANCE {
        1.0
    } else {
        (residual.min(1.0).log10() / TOLERANCE.log10()).clamp(0.0, 1.0)
    };
    (before + GROUP_ENTRIES[group] * converged) / total
}

/// Runs `build` with a progress meter (in thousandths of the work) for its
/// `progress(layer group, sweep, residual)` callback.
pub(crate) fn with_build_progress<T>(
    build: impl FnOnce(&mut dyn FnMut(usize, usize, f64)) -> T,
) -> T {
    let meter = Meter::new(1000, "‰");
    meter.set_message("waiting for the cache lock");
    let mut progress = |group: usize, sweep: usize, residual: f64| {
        meter.set_message(&format!(
            "tables {}: sweep {sweep}, residual {residual:.0e}",
            ["1v1", "1v2+2v1", "2v2"][group.min(2)]
        ));
        meter.set_done((build_done(group, residual) * 1000.0).floor() as u64);
    };
    let out = build(&mut progress);
    meter.finish();
    out
}

/// Runs the command.
pub(crate) fn run(args: &TablebaseArgs) -> Result<(), CliError> {
    let path = tablebase::cache_path()?;
    if args.path {
        outln!("{}", path.display());
        return Ok(());
    }
    if args.build || args.rebuild {
        eprintln!("building the Issiren tablebase into {}…", path.display());
        let done = with_build_progress(|progress| tablebase::build_cached(args.rebuild, progress))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_done_grows_with_each_group_and_each_digit_of_convergence() {
        assert_eq!(build_done(0, 1.0), 0.0);
        assert_eq!(build_done(2, TOLERANCE), 1.0);
        let mut last = 0.0;
        for group in 0..3 {
            for digits in 0..=11 {
                let done = build_done(group, 10f64.powi(-digits));
                assert!(done >= last, "group {group}, 1e-{digits}: {done} < {last}");
                last = done;
            }
        }
        // The 2v2 tables are most of the work: half converged is about half of it.
        let half = build_done(2, 10f64.powf(TOLERANCE.log10() / 2.0));
        assert!((0.45..0.55).contains(&half), "{half}");
        assert_eq!(build_done(1, f64::NAN), build_done(0, TOLERANCE));
    }
}
