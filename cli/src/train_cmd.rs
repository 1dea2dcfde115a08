//! `stickdice train`: trains the learned Issiren evaluation (self-play TD(λ) and the
//! tablebase fit, `stickdice_agents::learned::train`), with a progress bar, atomic
//! checkpoints, `--resume` and Ctrl-C stopping at a checkpoint.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use stickdice_agents::learned::train::{train, TrainConfig};
use stickdice_agents::learned::Network;

/// The weights file a run writes in its folder.
pub const WEIGHTS_FILE: &str = "issiren.sdw";

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The game (only `issiren` has a learned evaluation).
    #[arg(long, default_value = "issiren")]
    pub game: String,
    /// The folder for the weights (`issiren.sdw`, also the checkpoint).
    #[arg(long)]
    pub out: PathBuf,
    /// Self-play games in all (a resumed run continues up to this many).
    #[arg(long, default_value_t = 150_000)]
    pub games: u64,
    /// The seed everything follows from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// TD(λ) trace decay, 0 to 1.
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Learning rate.
    #[arg(long, default_value_t = 0.1)]
    pub alpha: f32,
    /// Hidden units (1 to 64).
    #[arg(long, default_value_t = 64)]
    pub hidden: usize,
    /// The endgame tablebase to fit after each game: `build` or a file written by
    /// `stickdice analyze --game issiren --write-tablebase FILE`; none without it.
    #[arg(long)]
    pub tablebase: Option<String>,
    /// Tablebase positions fitted after each game.
    #[arg(long, default_value_t = 400)]
    pub tablebase_steps: u32,
    /// Games between checkpoints.
    #[arg(long, default_value_t = 1000)]
    pub checkpoint_every: u64,
    /// Continue from the checkpoint in --out (same settings).
    #[arg(long)]
    pub resume: bool,
}

pub fn run(args: &TrainArgs) -> Result<(), String> {
    if args.game != "issiren" {
        return Err(format!(
            "`{}` has no learned evaluation: only issiren is trained (the race games keep their hand-set evaluations)",
            args.game
        ));
    }
    let config = TrainConfig {
        games: args.games,
        seed: args.seed,
        lambda: args.lambda,
        alpha: args.alpha,
        hidden: args.hidden,
        tablebase_steps: args.tablebase_steps,
        checkpoint_every: args.checkpoint_every,
    };
    config.check()?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let path = args.out.join(WEIGHTS_FILE);
    let resume = if args.resume {
        match Network::load(&path) {
            Ok(net) => Some(net),
            Err(stickdice_agents::learned::WeightsError::Io(e))
                if e.kind() == std::io::ErrorKind::NotFound =>
            {
                return Err(format!(
                    "--resume: no checkpoint {} (start without --resume)",
                    path.display()
                ))
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
    } else {
        if path.exists() {
            return Err(format!(
                "{} exists: continue it with --resume, or choose another --out",
                path.display()
            ));
        }
        None
    };
    let tablebase = match &args.tablebase {
        Some(source) => {
            eprintln!("loading the tablebase ({source})…");
            Some(stickdice_agents::solve::tablebase::shared(source)?)
        }
        None => None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second Ctrl-C ends at once.
        ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        })
        .map_err(|e| format!("cannot catch Ctrl-C: {e}"))?;
    }
    let start_games = resume.as_ref().map_or(0, |n| n.settings().games);
    let terminal = std::io::stderr().is_terminal();
    let bar = if terminal {
        ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:24.cyan/blue} {pos}/{len} games  {per_sec}  {elapsed} elapsed, {eta} left",
        )
        .expect("a valid template"),
    );
    bar.set_position(start_games);
    bar.reset_eta();
    let started = Instant::now();
    let mut last_line = Instant::now();
    let net = train(
        &config,
        tablebase.as_deref(),
        resume,
        &stop,
        |done| {
            bar.set_position(done);
            if !terminal && (last_line.elapsed().as_secs() >= 10 || done == args.games) {
                last_line = Instant::now();
                eprintln!(
                    "{done}/{} games, {:.0} s",
                    args.games,
                    started.elapsed().as_secs_f64()
                );
            }
        },
        |net| {
            net.save(&path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        },
    )?;
    bar.finish_and_clear();
    let done = net.settings().games;
    if done < args.games {
        outln!(
            "stopped after {done} of {} games; checkpoint {} (continue with --resume)",
            args.games,
            path.display()
        );
    } else {
        outln!(
            "trained {} games ({} this run) in {:.1} s: {}",
            done,
            done - start_games,
            started.elapsed().as_secs_f64(),
            path.display()
        );
    }
    Ok(())
}
