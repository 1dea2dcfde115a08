//! `stickdice compare`: the comparison workbench — Ludii's quality metrics and ours for
//! several configurations (games, rule options, seat counts), with 95% intervals, the
//! differences that are real, and charts (see `stickdice_evaluation::compare`).

use std::path::{Path, PathBuf};

use crate::cli::{check_count, MAX_THREADS};
use crate::error::CliError;
use clap::{ArgMatches, Args};
use stickdice_agents::files::{read_to_string_bounded, write_atomic, MAX_FILE_BYTES};
use stickdice_evaluation::compare::{self, Arg, Configuration, Settings};
use stickdice_evaluation::tournament::{lock_folder, FolderLock, LOCK_FILE};
use stickdice_evaluation::TournamentError;

/// Arguments of `stickdice compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// A game to compare; starts a group: the --option and --players after it belong to it
    /// (repeatable).
    #[arg(long, short = 'g')]
    game: Vec<String>,
    /// Every game of the family in its default reading, two players (a game that cannot
    /// take two: its fewest), in the order of `stickdice games`; compared before any --game.
    #[arg(long)]
    all: bool,
    /// A game description file to compare (TOML, docs/described/format.md); starts a group
    /// as --game does (repeatable).
    #[arg(long, value_name = "PATH")]
    game_file: Vec<String>,
    /// A rule option of the latest --game and the values to try, key=v1,v2 (repeatable;
    /// each list expands to the cross product).
    #[arg(long = "option", short = 'o', value_name = "KEY=V1,V2")]
    option: Vec<String>,
    /// The seat counts of the latest --game, e.g. 2,3 [default: the game's own].
    #[arg(long, short = 'p', value_name = "N,M")]
    players: Vec<String>,
    /// A TOML file listing the configurations ([[configuration]] tables with game,
    /// players and options), compared after any given by --game.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Games per configuration and agent.
    #[arg(long, short = 'n', default_value_t = 2000)]
    games: usize,
    /// A budget of throws per configuration and agent: self-play stops after the game that
    /// brings its throws to the budget (at least 100 games, at most --games), its luck games
    /// at a tenth of the budget (at least 20): long games get fewer games, not more time
    /// [default: none; with --all, 200000].
    #[arg(long, value_name = "THROWS")]
    throws: Option<u64>,
    /// A budget of throws per step of the skill trace: it stops after the rotation whose
    /// games bring its throws to the budget (at least 10 rotations, at most
    /// --trace-rotations) [default: none; with --all, 20000].
    #[arg(long, value_name = "THROWS")]
    trace_throws: Option<u64>,
    /// The agents of self-play, comma-separated specs (one row per agent).
    #[arg(long, short = 'a', default_value = "random")]
    agents: String,
    /// The skill trace's agents in order of growing strength, comma-separated, or `none`
    /// [default: mcts with random playouts at 4, 16 and 64 iterations].
    #[arg(long)]
    trace: Option<String>,
    /// Rotations per step of the skill trace (one game per seat on the same throws).
    #[arg(long, default_value_t = 100)]
    trace_rotations: usize,
    /// Games per row on which the board and state-evaluation figures are measured.
    #[arg(long, default_value_t = 300)]
    detailed: usize,
    /// Games per row whose luck is measured.
    #[arg(long, default_value_t = 200)]
    luck_games: usize,
    /// The metrics to give, comma-separated [default: all].
    #[arg(long, short = 'm')]
    metrics: Option<String>,
    /// Skip the exact solver.
    #[arg(long)]
    no_exact: bool,
    /// The family-wise error rate of the significance tests.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The seed: the same seed and settings give the same figures on any thread count.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core). The figures do not depend on it.
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// What to print: table, json, csv or markdown.
    #[arg(long, default_value = "table")]
    format: String,
    /// A folder to write every output into: comparison.json, .csv, .md, table.txt and one
    /// SVG chart per metric plus profiles.svg; with two configurations or more, the family
    /// tree too (family.svg, family.nwk, family-distances.csv, family-structure.svg, .nwk,
    /// .csv, family.json).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// The budget of throws of self-play with `--all` (when --throws is not given).
const ALL_THROWS: u64 = 200_000;
/// The budget of throws per step of the skill trace with `--all`.
const ALL_TRACE_THROWS: u64 = 20_000;

/// The most games per configuration and agent.
const MAX_GAMES: usize = 1_000_000;

/// The configurations of the command line's groups, in the order given (clap keeps each
/// option's values apart; their positions give the order).
fn groups(m: &ArgMatches) -> Vec<Arg> {
    let mut items: Vec<(usize, Arg)> = Vec::new();
    for (id, make) in [
        ("game", Arg::Game as fn(String) -> Arg),
        ("game_file", Arg::GameFile),
        ("option", Arg::Option),
        ("players", Arg::Players),
    ] {
        if let (Some(idx), Some(vals)) = (m.indices_of(id), m.get_many::<String>(id)) {
            for (i, v) in idx.zip(vals) {
                items.push((i, make(v.clone())));
            }
        }
    }
    items.sort_by_key(|(i, _)| *i);
    items.into_iter().map(|(_, a)| a).collect()
}

fn list(text: &str) -> Vec<String> {
    stickdice_evaluation::builder::split_agents(text)
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

pub(crate) fn run(args: &CompareArgs, matches: Option<&ArgMatches>) -> Result<(), CliError> {
    check_count("--games", Some(args.games), MAX_GAMES)?;
    check_count("--threads", args.threads, MAX_THREADS)?;
    check_count("--trace-rotations", Some(args.trace_rotations), MAX_GAMES)?;
    if !matches!(args.format.as_str(), "table" | "json" | "csv" | "markdown") {
        return Err(CliError::Invalid(format!(
            "--format takes table, json, csv or markdown, not `{}`",
            args.format
        )));
    }
    let mut configs: Vec<Configuration> = if args.all {
        compare::every_game()?
    } else {
        Vec::new()
    };
    if let Some(m) = matches {
        configs.extend(compare::parse_groups(&groups(m))?);
    }
    if let Some(path) = &args.file {
        // Bounded: `/dev/zero` or a pipe named by mistake is refused, not read for ever.
        let text = read_to_string_bounded(path, MAX_FILE_BYTES).map_err(|source| CliError::Io {
            action: "read",
            path: path.clone(),
            source,
        })?;
        configs.extend(compare::parse_toml(&text).map_err(|e| CliError::Context {
            context: path.display().to_string(),
            source: Box::new(e),
        })?);
    }
    let metrics = args.metrics.as_deref().map(list).unwrap_or_default();
    compare::check_metrics(&metrics)?;
    let trace = match args.trace.as_deref() {
        None => Settings::default().trace,
        Some("none") | Some("") => Vec::new(),
        Some(t) => list(t),
    };
    let settings = Settings {
        games: args.games,
        agents: list(&args.agents),
        detailed: args.detailed,
        trace,
        trace_rotations: args.trace_rotations,
        luck_games: args.luck_games,
        metrics,
        exact: !args.no_exact,
        alpha: args.alpha,
        seed: args.seed,
        throws: args.throws.or(args.all.then_some(ALL_THROWS)),
        trace_throws: args.trace_throws.or(args.all.then_some(ALL_TRACE_THROWS)),
    };
    // The output folder is created and locked before the work, so that a second
    // comparison into the same folder is refused at once, not after its minutes of work.
    let _lock = match &args.out {
        Some(dir) => Some(lock_out(dir)?),
        None => None,
    };
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t);
    }
    let pool = builder.build()?;
    // Progress in steps: each configuration's self-play and luck per agent and each step of
    // its skill trace (and its exact solution, where there is one); the library names each
    // step as it starts (configuration lines unindented, steps indented).
    let steps = planned_steps(&configs, &settings);
    let meter = crate::progress::Meter::new(steps, "steps");
    let started = std::time::Instant::now();
    let running = std::sync::Mutex::new((false, String::new()));
    let comparison = pool.install(|| {
        compare::compare_with_progress(&configs, &settings, &|line| {
            let mut r = running.lock().unwrap_or_else(|e| e.into_inner());
            if r.0 {
                meter.inc(1);
            }
            r.0 = line.starts_with("  ");
            if !r.0 {
                r.1 = line.to_string();
            }
            meter.set_message(&format!("{}: {}", r.1, line.trim()));
            meter.println(&format!(
                "[{:>6.1} s] {line}",
                started.elapsed().as_secs_f64()
            ));
        })
    });
    meter.finish();
    let comparison = comparison?;
    let json = serde_json::to_string_pretty(&comparison).map_err(|e| e.to_string())?;
    // The family tree (distances and clustering), when there is something to cluster.
    let family = (comparison.results.len() > 1)
        .then(|| stickdice_evaluation::family::Family::of(&comparison, stickdice_rl::offers))
        .transpose()
        .unwrap_or_else(|e| {
            eprintln!("no family tree: {e}");
            None
        });
    let markdown = match &family {
        Some(f) => format!("{}\n{}", comparison.to_markdown(), f.to_markdown()),
        None => comparison.to_markdown(),
    };
    match args.format.as_str() {
        "json" => outln!("{json}"),
        "csv" => print!("{}", comparison.to_csv()),
        "markdown" => print!("{markdown}"),
        _ => print!("{}", comparison.table()),
    }
    if let Some(dir) = &args.out {
        let charts = comparison.charts();
        let mut files: Vec<(String, String)> = vec![
            ("comparison.csv".to_string(), comparison.to_csv()),
            ("comparison.md".to_string(), markdown),
            ("table.txt".to_string(), comparison.table()),
        ];
        files.extend(charts.iter().cloned());
        if let Some(f) = &family {
            files.extend(f.files());
            files.push((
                "family.json".to_string(),
                serde_json::to_string_pretty(f).map_err(|e| e.to_string())?,
            ));
        }
        // comparison.json last: a folder holding it holds a whole comparison.
        files.push(("comparison.json".to_string(), json));
        write_outputs(dir, &files)?;
        eprintln!(
            "wrote comparison.json, .csv, .md, table.txt{} and {} SVG charts to {}",
            if family.is_some() {
                ", the family tree (family.svg, family.nwk, family-*.csv, family-structure.*, family.json)"
            } else {
                ""
            },
            charts.len(),
            dir.display()
        );
    }
    Ok(())
}

/// The steps a comparison will take, as its progress counts them: per configuration, the
/// exact solution where the solver takes the game, self-play and (with the luck metric)
/// luck per agent, and (with the skill trace) each step of the trace.
fn planned_steps(configs: &[Configuration], settings: &Settings) -> u64 {
    let wants = |m: &str| {
        settings.metrics.is_empty() || settings.metrics.iter().any(|x| x.eq_ignore_ascii_case(m))
    };
    let agents = settings.agents.len() as u64;
    let luck = if wants("LuckShare") && settings.luck_games > 0 {
        agents
    } else {
        0
    };
    let trace = if wants("SkillTrace") {
        settings.trace.len() as u64
    } else {
        0
    };
    configs
        .iter()
        .map(|c| {
            let exact = settings.exact
                && c.build().is_ok_and(|any| {
                    use stickdice_agents::solve::Exact as _;
                    stickdice::with_game!(&any, |g| g.solver_support().is_ok())
                });
            u64::from(exact) + agents + luck + trace
        })
        .sum::<u64>()
        .max(1)
}

/// Creates `--out` and takes its lock ([`stickdice_evaluation::tournament::lock_folder`],
/// as tournaments and training do): a second run on the same folder is refused.
fn lock_out(dir: &Path) -> Result<FolderLock, CliError> {
    std::fs::create_dir_all(dir).map_err(|source| CliError::Io {
        action: "create",
        path: dir.to_path_buf(),
        source,
    })?;
    let lock = lock_folder(dir).map_err(|e| match e {
        TournamentError::Busy { out } => format!(
            "{} is in use by another stickdice run (it holds the lock on {}); wait for it to finish, or use another --out folder",
            out.display(),
            out.join(LOCK_FILE).display()
        ),
        other => other.to_string(),
    })?;
    Ok(lock)
}

/// Every name a comparison may write into `--out`, besides the charts of the metrics.
const OUTPUT_NAMES: &[&str] = &[
    "comparison.json",
    "comparison.csv",
    "comparison.md",
    "table.txt",
    "profiles.svg",
    "family.svg",
    "family.nwk",
    "family-distances.csv",
    "family-structure.svg",
    "family-structure.nwk",
    "family-structure.csv",
    "family.json",
];

/// The list of the files a comparison wrote into `--out` (one name a line), written before
/// them and again after: the outputs of an earlier comparison that a new one removes are
/// those listed here, never a file of the same name that a comparison did not write.
const MANIFEST: &str = ".stickdice-compare-files";

/// Whether `name` is one a comparison may write ([`OUTPUT_NAMES`] or a metric's chart).
fn is_output_name(name: &str) -> bool {
    OUTPUT_NAMES.contains(&name)
        || name
            .strip_suffix(".svg")
            .is_some_and(|m| compare::METRICS.contains(&m))
}

/// The outputs an earlier comparison wrote into `dir`: the names its manifest lists (only
/// names a comparison writes). A folder without a manifest but with a `comparison.json`
/// that reads as a comparison holds one written before manifests were kept: then every
/// output name counts as its.
fn earlier_outputs(dir: &Path) -> Vec<String> {
    if let Ok(text) = read_to_string_bounded(&dir.join(MANIFEST), MAX_FILE_BYTES) {
        return text
            .lines()
            .filter(|n| is_output_name(n))
            .map(str::to_string)
            .collect();
    }
    let earlier = read_to_string_bounded(&dir.join("comparison.json"), MAX_FILE_BYTES)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .filter(|v| v.get("settings").is_some() && v.get("results").is_some());
    match earlier {
        Some(_) => OUTPUT_NAMES
            .iter()
            .map(|s| s.to_string())
            .chain(compare::METRICS.iter().map(|m| format!("{m}.svg")))
            .collect(),
        None => Vec::new(),
    }
}

/// Writes a comparison's `files` (`comparison.json` last) into `dir`, each whole or not at
/// all ([`stickdice_agents::files::write_atomic`]). First it removes `comparison.json`,
/// the outputs of an earlier comparison ([`MANIFEST`]) that this one does not write (a
/// family tree, the chart of a metric not asked for now), and the temporary files of a run
/// that was killed, so that a folder never mixes two comparisons, and a run stopped midway
/// (killed, a full disk) leaves no `comparison.json`: the folder does not look whole.
/// Files it did not write (a user's own `family.svg`) are left alone.
fn write_outputs(dir: &Path, files: &[(String, String)]) -> Result<(), CliError> {
    let write = |name: &str, text: &str| -> Result<(), CliError> {
        let p = dir.join(name);
        write_atomic(&p, text.as_bytes()).map_err(|source| CliError::Io {
            action: "write",
            path: p,
            source,
        })
    };
    let earlier = earlier_outputs(dir);
    // Listed before any is written: a run stopped midway leaves its files listed, and the
    // next one removes them.
    let mut listed: Vec<String> = earlier.clone();
    for (name, _) in files {
        if !listed.contains(name) {
            listed.push(name.clone());
        }
    }
    write(MANIFEST, &(listed.join("\n") + "\n"))?;
    let remove = |name: &str| -> Result<(), CliError> {
        let p = dir.join(name);
        match std::fs::remove_file(&p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(CliError::Io {
                action: "remove",
                path: p,
                source: e,
            }),
            _ => Ok(()),
        }
    };
    remove("comparison.json")?;
    for name in &listed {
        if !files.iter().any(|(n, _)| n == name) {
            remove(name)?;
        }
        remove(&format!("{name}.tmp"))?;
    }
    for (name, text) in files {
        write(name, text)?;
    }
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    write(MANIFEST, &(names.join("\n") + "\n"))
}
