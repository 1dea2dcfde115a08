//! `stickdice calibration`: Brier scores and reliability plots of Issiren's learned and
//! hand-set evaluations (`stickdice_agents::learned::calibration`), on tablebase positions
//! and on held-out self-play positions; writes calibration.json, calibration.md and
//! calibration.svg.

use crate::error::CliError;
use std::path::PathBuf;

use clap::Args;
use stickdice::Issiren;
use stickdice_agents::learned::calibration::{
    reliability, self_play_samples_with_progress, svg, tablebase_samples, Reliability,
};
use stickdice_agents::{Evaluate as _, Evaluator};

#[derive(Args, Debug)]
pub struct CalibrationArgs {
    /// The game (only `issiren` has a learned evaluation).
    #[arg(long, default_value = "issiren")]
    pub game: String,
    /// The output folder.
    #[arg(long)]
    pub out: PathBuf,
    /// The learned evaluation to compare with the hand-set one: `learned` (the shipped
    /// weights) or a weights file.
    #[arg(long, default_value = "learned")]
    pub eval: String,
    /// The endgame tablebase: `build` or a file; without it the tablebase part is left out.
    #[arg(long)]
    pub tablebase: Option<String>,
    /// Tablebase positions.
    #[arg(long, default_value_t = 20_000)]
    pub positions: usize,
    /// Held-out self-play games (each gives about one position in eight of its throws).
    #[arg(long, default_value_t = 2_000)]
    pub games: usize,
    /// The seed of the positions and games (training uses seed 1 by default; keep this
    /// one different).
    #[arg(long, default_value_t = 9_001)]
    pub seed: u64,
    /// Reliability bins.
    #[arg(long, default_value_t = 10)]
    pub bins: usize,
}

/// The most held-out self-play games (`--games`): their positions are all held in memory.
const MAX_GAMES: usize = 100_000;

/// The most tablebase positions (`--positions`).
const MAX_POSITIONS: usize = 1_000_000;

fn json_of(r: &Reliability) -> serde_json::Value {
    serde_json::json!({
        "brier": r.brier,
        "samples": r.samples,
        "bins": r.bins.iter().map(|b| serde_json::json!({
            "lo": b.lo, "hi": b.hi, "count": b.count,
            "mean_predicted": b.mean_predicted, "mean_observed": b.mean_observed,
        })).collect::<Vec<_>>(),
    })
}

pub(crate) fn run(args: &CalibrationArgs) -> Result<(), CliError> {
    if args.game != "issiren" {
        return Err(CliError::Invalid(format!(
            "`{}` has no learned evaluation to calibrate: only issiren",
            args.game
        )));
    }
    if !(1..=100).contains(&args.bins) {
        return Err("--bins must be 1 to 100".into());
    }
    crate::cli::check_count("--games", Some(args.games), MAX_GAMES)?;
    crate::cli::check_count("--positions", Some(args.positions), MAX_POSITIONS)?;
    let learned = Issiren::evaluator(&args.eval)?;
    let evaluations = [learned, Evaluator::issiren_hand()];
    let names = [format!("learned ({})", args.eval), "hand".to_string()];
    std::fs::create_dir_all(&args.out).map_err(|e| CliError::io("create", &args.out, e))?;
    let mut parts: Vec<(String, String, Vec<Reliability>)> = Vec::new();
    if let Some(source) = &args.tablebase {
        let tb = if source == "build" {
            eprintln!("building the tablebase…");
            std::sync::Arc::new(crate::tablebase_cmd::with_build_progress(|progress| {
                stickdice_agents::solve::tablebase::Tablebase::build_with_progress(progress).0
            }))
        } else {
            eprintln!("loading the tablebase ({source})…");
            stickdice_agents::solve::tablebase::shared(source)?
        };
        let samples = tablebase_samples(&tb, &evaluations, args.positions, args.seed);
        parts.push((
            "tablebase".into(),
            format!("(a) {} tablebase positions vs exact", args.positions),
            samples.iter().map(|s| reliability(s, args.bins)).collect(),
        ));
    }
    eprintln!("playing {} held-out self-play games…", args.games);
    let meter = crate::progress::Meter::new(args.games as u64, "games");
    meter.set_message("self-play");
    let samples = self_play_samples_with_progress(&evaluations, args.games, args.seed, |done| {
        meter.set_done(done as u64)
    });
    meter.finish();
    parts.push((
        "self_play".into(),
        format!("(b) {} held-out self-play games vs outcome", args.games),
        samples.iter().map(|s| reliability(s, args.bins)).collect(),
    ));
    let mut json = serde_json::Map::new();
    json.insert("seed".into(), args.seed.into());
    json.insert("eval".into(), args.eval.clone().into());
    let mut md = String::from(
        "# Calibration of the Issiren evaluations\n\n\
         Brier score: the mean squared difference between the evaluation's win probability for \
         the side to move and the truth — on tablebase positions the exact probability (no \
         sampled outcome), on self-play positions the game's outcome (1, ½, 0).\n\n\
         | positions | evaluation | samples | Brier |\n|---|---|---|---|\n",
    );
    for (key, title, rs) in &parts {
        let mut part = serde_json::Map::new();
        part.insert("title".into(), title.clone().into());
        for (name, r) in names.iter().zip(rs) {
            part.insert(name.clone(), json_of(r));
            md += &format!("| {title} | {name} | {} | {:.5} |\n", r.samples, r.brier);
        }
        json.insert(key.clone(), part.into());
    }
    let panels: Vec<(&str, Vec<(&str, &Reliability)>)> = parts
        .iter()
        .map(|(_, title, rs)| {
            (
                title.as_str(),
                names.iter().map(String::as_str).zip(rs.iter()).collect(),
            )
        })
        .collect();
    md += "\n![reliability](calibration.svg)\n";
    let write = |name: &str, text: String| {
        let path = args.out.join(name);
        std::fs::write(&path, text).map_err(|e| CliError::io("write", &path, e))
    };
    write(
        "calibration.json",
        serde_json::to_string_pretty(&serde_json::Value::Object(json))
            .expect("JSON of numbers and strings")
            + "\n",
    )?;
    write("calibration.md", md.clone())?;
    write("calibration.svg", svg(&panels))?;
    for line in md.lines().filter(|l| l.starts_with("| (")) {
        outln!("{line}");
    }
    outln!(
        "wrote {}: calibration.json, calibration.md, calibration.svg",
        args.out.display()
    );
    Ok(())
}
