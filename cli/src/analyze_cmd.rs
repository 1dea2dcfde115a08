//! `stickdice analyze`: how fair, how long and how much skill — exact where the solver
//! can, by simulation with 95% intervals everywhere (see `stickdice_evaluation::analysis`
//! for what each figure means).

use crate::error::CliError;
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use crate::cli::{check_count, GameArgs, MAX_THREADS};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::{RngExt as _, SeedableRng as _};
use rayon::prelude::*;
use serde::Serialize;
use stickdice::{with_game, ActionList, AnyGame, Game, GameKind, Issiren, Node};
use stickdice_agents::solve::tablebase::{self, Tablebase};
use stickdice_agents::solve::{self, Exact};
use stickdice_agents::{AgentSpec, Evaluate};
use stickdice_evaluation::analysis::{
    length_histogram_svg, measure_game, Agreement, ExactSummary, Measure, SelfPlay, Skill,
};
use stickdice_evaluation::arena::{self, Factory};

use stickdice_evaluation::builder::split_agents;

/// Arguments of `stickdice analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Self-play games (every seat played by --baseline) for the seat advantage, lengths,
    /// decisions, captures and the throw cap.
    #[arg(long, short = 'n', default_value_t = 2000)]
    games: usize,
    /// Agents whose skill gap against random play is measured, comma-separated specs
    /// (mcts:iterations=500,c=1.4 keeps its parameters). The help gives each game's
    /// default, from the game list ([`agents_help`]).
    #[arg(long, short = 'a')]
    agents: Option<String>,
    /// Rotations per agent for the skill gap (each rotation is one game per seat on the
    /// same throws, the agent in a different seat each time) [default: 100 for issiren,
    /// 1000 for the other games].
    #[arg(long)]
    rotations: Option<usize>,
    /// The agent in every seat of self-play.
    #[arg(long, default_value = "random")]
    baseline: String,
    /// The seed: the same seed and settings give the same figures, on any number of
    /// threads.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core). The figures do not depend on it.
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// Print the figures as JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// Write an SVG histogram of game lengths, to FILE [default when no FILE is given:
    /// analyze-GAME-Np-lengths.svg]. Without --svg no file is written.
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    svg: Option<Option<PathBuf>>,
    /// Write no SVG (the default; kept for scripts that give it).
    #[arg(long, hide = true, conflicts_with = "svg")]
    no_svg: bool,
    /// Skip the exact solution even where the game is solvable.
    #[arg(long)]
    no_exact: bool,
    /// issiren: the endgame tablebase to compare the agents' choices with: `build` (build
    /// it in memory, about 30 s) or a file written by --write-tablebase.
    #[arg(long)]
    tablebase: Option<String>,
    /// issiren: build the endgame tablebase and write it to this file (51 MB).
    #[arg(long, value_name = "FILE")]
    write_tablebase: Option<PathBuf>,
    /// issiren: positions (one or two pieces a side, a real choice to make) on which each
    /// agent's choice is compared with the tablebase.
    #[arg(long, default_value_t = 200)]
    positions: usize,
}

/// The most self-play games (`--games`).
const MAX_GAMES: usize = 1_000_000;
/// The most rotations per agent (`--rotations`).
const MAX_ROTATIONS: usize = 1_000_000;
/// The most tablebase positions (`--positions`).
const MAX_POSITIONS: usize = 100_000;

/// Seed path tags.
const SELF_PLAY: u64 = 0x73656c66; // "self"
const SKILL: u64 = 0x736b696c; // "skil"
const AGREE: u64 = 0x61677265; // "agre"

/// Everything `analyze` found.
#[derive(Debug, Serialize)]
struct Report {
    game: &'static str,
    title: &'static str,
    players: usize,
    options: Vec<(&'static str, String)>,
    seed: u64,
    exact: Option<ExactSummary>,
    /// Why there is no exact solution.
    exact_unavailable: Option<String>,
    self_play: SelfPlay,
    skill: Vec<Skill>,
    strongest: Option<String>,
    tablebase: Option<TablebaseReport>,
    svg: Option<String>,
    /// The SVG to write, and where (not part of the JSON).
    #[serde(skip)]
    svg_file: Option<(PathBuf, String)>,
    /// Whether the game can capture, and bury, at all (the tables leave out a figure that
    /// is 0 by the rules).
    #[serde(skip)]
    counts: (bool, bool),
}

#[derive(Debug, Serialize)]
struct TablebaseReport {
    source: String,
    entries: usize,
    bytes: usize,
    build: Option<BuildReport>,
    agreement: Vec<Agreement>,
}

#[derive(Debug, Serialize)]
struct BuildReport {
    seconds: f64,
    positions: usize,
    sweeps: [usize; 3],
    residual: [f64; 3],
    file: Option<String>,
}

pub(crate) fn run(args: &AnalyzeArgs) -> Result<(), CliError> {
    let any = args.game.build()?;
    // Limits, so that no count allocates or runs without bound.
    check_count("--games", Some(args.games), MAX_GAMES)?;
    check_count("--rotations", args.rotations, MAX_ROTATIONS)?;
    check_count("--threads", args.threads, MAX_THREADS)?;
    if args.positions > MAX_POSITIONS {
        return Err(CliError::Invalid(format!(
            "--positions {} is more than the limit of {MAX_POSITIONS}",
            args.positions
        )));
    }
    if (args.tablebase.is_some() || args.write_tablebase.is_some())
        && any.kind() != stickdice::GameKind::Issiren
    {
        return Err(CliError::Invalid(format!(
            "--tablebase and --write-tablebase are for issiren; {} has no endgame tablebase",
            any.kind()
        )));
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t);
    }
    let pool = builder.build()?;
    // Output files are checked before the work, so a bad path fails at once.
    let seats = with_game!(&any, |g| g.seats());
    let svg_path = svg_path(args, any.name(), seats);
    for path in svg_path.iter().chain(&args.write_tablebase) {
        check_writable(path)?;
    }
    let report = pool.install(|| with_game!(&any, |g| analyze(g, args)))?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report);
    }
    // The figures are out; now the file.
    if let Some((path, text)) = &report.svg_file {
        std::fs::write(path, text).map_err(|e| CliError::io("write", path, e))?;
    }
    Ok(())
}

/// Where to write the histogram of game lengths: only when `--svg` is given, to its file
/// or, given alone, to `analyze-GAME-Np-lengths.svg`.
fn svg_path(args: &AnalyzeArgs, game: &str, seats: usize) -> Option<PathBuf> {
    match &args.svg {
        None => None,
        Some(None) => Some(PathBuf::from(format!(
            "analyze-{game}-{seats}p-lengths.svg"
        ))),
        Some(Some(p)) => Some(p.clone()),
    }
}

/// Checks that `path` can be written (creating it, or opening it without changing it), so
/// that a bad output path is refused before minutes of work rather than after.
fn check_writable(path: &std::path::Path) -> Result<(), CliError> {
    if path.is_dir() {
        return Err(CliError::Invalid(format!(
            "cannot write {}: it is a folder",
            path.display()
        )));
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| CliError::io("write", path, e))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

fn parse_specs(text: &str) -> Result<Vec<AgentSpec>, CliError> {
    split_agents(text)
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| Ok(s.parse::<AgentSpec>()?))
        .collect()
}

/// `--agents`'s help: what it does and each game's default (from [`default_agents`], for
/// every game of the list, by seat count where it differs).
pub(crate) fn agents_help() -> String {
    let defaults: Vec<String> = GameKind::ALL
        .iter()
        .map(|&kind| {
            let (min, max) = kind.seat_range();
            let at = |seats: usize| {
                AnyGame::new::<&str>(kind.name(), Some(seats), &[])
                    .map(|any| with_game!(&any, |g| default_agents(g)))
                    .unwrap_or("")
            };
            let named = |agents: &str| {
                if agents.is_empty() {
                    "none".to_string()
                } else {
                    agents.to_string()
                }
            };
            let (few, more) = (at(min), at((min + 1).min(max)));
            if few == more {
                format!("{} {}", kind.name(), named(few))
            } else {
                format!(
                    "{} {} with {min} players, {} with more",
                    kind.name(),
                    named(few),
                    named(more)
                )
            }
        })
        .collect();
    format!(
        "Agents whose skill gap against random play is measured, comma-separated specs \
         (mcts:iterations=500,c=1.4 keeps its parameters). Default: {} (none where a game \
         has no decisions or no default)",
        defaults.join("; ")
    )
}

fn default_agents<G: Game>(game: &G) -> &'static str {
    match G::NAME {
        "sig-el-oued" if game.seats() == 2 => "perfect,greedy",
        "sig-el-oued" => "greedy",
        "issiren" => "greedy,expectimax:depth=2",
        _ => "",
    }
}

/// A factory that builds `spec` (checked once beforehand).
fn spec_factory<G: Evaluate>(game: &G, spec: &AgentSpec) -> Result<Factory<G>, CliError> {
    // The error names the agent itself.
    Ok(stickdice_evaluation::builder::spec_factory(spec, game)?)
}

fn progress_bar(total: u64) -> ProgressBar {
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:>22} {bar:30.cyan/blue} {pos}/{len}  {elapsed} elapsed, {eta} left",
        )
        .expect("a valid template"),
    );
    bar
}

fn analyze<G: Evaluate + Exact + Measure + Tablebased>(
    game: &G,
    args: &AnalyzeArgs,
) -> Result<Report, CliError> {
    let seats = game.seats();
    let baseline: AgentSpec = args.baseline.parse()?;
    let baseline_factory = spec_factory(game, &baseline)?;
    let random_factory = spec_factory(game, &"random".parse().expect("a valid spec"))?;
    let agent_text = args
        .agents
        .clone()
        .unwrap_or_else(|| default_agents(game).to_string());
    let specs = parse_specs(&agent_text)?;
    let factories: Vec<Factory<G>> = specs
        .iter()
        .map(|s| spec_factory(game, s))
        .collect::<Result<_, _>>()?;

    // Exact, where solvable.
    let (exact, exact_unavailable) = exact_summary(game, args)?;

    // Tablebase (Issiren).
    let (mut tb_report, tb) = tablebase_source(args)?;

    let rotations = args
        .rotations
        .unwrap_or(if G::NAME == "issiren" { 100 } else { 1000 });
    let agreement_jobs = if tb.is_some() {
        args.positions * specs.len()
    } else {
        0
    };
    let total = args.games + specs.len() * rotations * seats + agreement_jobs;
    let bar = crate::progress::Meter::new(total as u64, "games");

    // Self-play.
    bar.set_message("self-play");
    let seating: Vec<&Factory<G>> = vec![&baseline_factory; seats];
    let measures: Vec<_> = (0..args.games)
        .into_par_iter()
        .map(|i| {
            let seed = stickdice::seed::derive(args.seed, &[SELF_PLAY, i as u64]);
            let result = arena::play(game, &seating, seed);
            bar.inc(1);
            measure_game(game, &result)
        })
        .collect();
    let self_play = SelfPlay::of(&baseline.to_string(), seats, &measures);
    let lengths: Vec<u32> = measures.iter().map(|m| m.throws).collect();

    // Skill gap.
    let skill = skill_gap(
        game,
        args,
        &specs,
        &factories,
        &random_factory,
        rotations,
        &bar,
    );
    let strongest = skill
        .iter()
        .max_by(|a, b| a.score.mean.total_cmp(&b.score.mean))
        .map(|s| s.agent.clone());

    // Tablebase agreement.
    if let (Some(tb), Some(report)) = (&tb, &mut tb_report) {
        for (ai, spec) in specs.iter().enumerate() {
            bar.set_message(&format!("tablebase: {spec}"));
            let outcomes: Vec<(f64, f64)> = (0..args.positions)
                .into_par_iter()
                .map(|i| {
                    let seed = stickdice::seed::derive(args.seed, &[AGREE, i as u64]);
                    let r = G::agreement(
                        game,
                        tb,
                        spec,
                        seed,
                        stickdice::seed::derive(seed, &[ai as u64]),
                    );
                    bar.inc(1);
                    r
                })
                .collect::<Result<_, _>>()?;
            report
                .agreement
                .push(Agreement::of(&spec.to_string(), &outcomes));
        }
    }
    bar.finish();

    let mut svg_text = None;
    let svg = if let Some(path) = svg_path(args, game.name(), seats) {
        let title = format!(
            "{} — {} players, {} self-play games ({})",
            game.title(),
            seats,
            args.games,
            baseline
        );
        // Written after the figures are printed (see `run`).
        svg_text = Some((path.clone(), length_histogram_svg(&title, &lengths)));
        Some(path.display().to_string())
    } else {
        None
    };

    Ok(Report {
        game: game.name(),
        title: game.title(),
        players: seats,
        options: game.options(),
        seed: args.seed,
        exact,
        exact_unavailable,
        self_play,
        skill,
        strongest,
        tablebase: tb_report,
        svg,
        svg_file: svg_text,
        counts: (game.counts_captures(), G::BURIALS),
    })
}

/// The exact solution's summary, or why there is none (`--no-exact`, or a game or
/// configuration the solver does not cover).
fn exact_summary<G: Exact>(
    game: &G,
    args: &AnalyzeArgs,
) -> Result<(Option<ExactSummary>, Option<String>), CliError> {
    let seats = game.seats();
    Ok(if args.no_exact {
        (None, Some("skipped (--no-exact)".to_string()))
    } else {
        match game.solver_support() {
            Err(e) => (None, Some(e.to_string())),
            Ok(()) => {
                if !args.json {
                    eprintln!("solving {} for {seats} players exactly…", game.title());
                }
                let solution = solve::solved(game)?;
                (Some(ExactSummary::of(&solution)), None)
            }
        }
    })
}

/// The tablebase the analysis checks agreement with, and its report: built and written
/// (`--write-tablebase`), read or built in memory (`--tablebase`), or none.
fn tablebase_source(
    args: &AnalyzeArgs,
) -> Result<(Option<TablebaseReport>, Option<Arc<Tablebase>>), CliError> {
    let mut tb_report = None;
    let mut tb: Option<Arc<Tablebase>> = None;
    if let Some(path) = &args.write_tablebase {
        let bar = progress_bar(3);
        bar.set_message("building tablebase");
        let (built, stats) = Tablebase::build_with_progress(|group, sweep, residual| {
            bar.set_position(group as u64);
            bar.set_message(format!(
                "tables {}: sweep {sweep}, {residual:.0e}",
                ["1v1", "1v2+2v1", "2v2"][group]
            ));
        });
        bar.finish_and_clear();
        built
            .save(path)
            .map_err(|e| CliError::io("write", path, e))?;
        tb_report = Some(TablebaseReport {
            source: path.display().to_string(),
            entries: stats.entries,
            bytes: built.bytes(),
            build: Some(BuildReport {
                seconds: stats.time.as_secs_f64(),
                positions: stats.positions,
                sweeps: stats.sweeps,
                residual: stats.residual,
                file: Some(path.display().to_string()),
            }),
            agreement: Vec::new(),
        });
        tb = Some(Arc::new(built));
    } else if let Some(source) = &args.tablebase {
        let t0 = Instant::now();
        if source == "build" && !args.json {
            eprintln!("building the Issiren tablebase in memory…");
        }
        let loaded = tablebase::shared(source)?;
        let build = (source == "build").then(|| BuildReport {
            seconds: t0.elapsed().as_secs_f64(),
            positions: 0,
            sweeps: [0; 3],
            residual: [0.0; 3],
            file: None,
        });
        tb_report = Some(TablebaseReport {
            source: source.clone(),
            entries: tablebase::table_sizes().iter().sum(),
            bytes: loaded.bytes(),
            build,
            agreement: Vec::new(),
        });
        tb = Some(loaded);
    }
    Ok((tb_report, tb))
}

/// The skill gap: each agent's score seated among random agents, every seat in turn, over
/// `rotations` rotations.
fn skill_gap<G: stickdice::Game>(
    game: &G,
    args: &AnalyzeArgs,
    specs: &[AgentSpec],
    factories: &[Factory<G>],
    random_factory: &Factory<G>,
    rotations: usize,
    bar: &crate::progress::Meter,
) -> Vec<Skill> {
    let seats = game.seats();
    let mut skill = Vec::new();
    for (ai, (spec, f)) in specs.iter().zip(factories).enumerate() {
        bar.set_message(&format!("skill: {spec}"));
        let scores: Vec<f64> = (0..rotations * seats)
            .into_par_iter()
            .map(|k| {
                let (rotation, seat) = (k / seats, k % seats);
                let seed = stickdice::seed::derive(args.seed, &[SKILL, ai as u64, rotation as u64]);
                let mut seating: Vec<&Factory<G>> = vec![random_factory; seats];
                seating[seat] = f;
                let result = arena::play(game, &seating, seed);
                bar.inc(1);
                result.ranking.score(seat)
            })
            .collect();
        let per_rotation: Vec<f64> = scores
            .chunks(seats)
            .map(|c| c.iter().sum::<f64>() / seats as f64)
            .collect();
        skill.push(Skill::of(&spec.to_string(), seats, &per_rotation));
    }
    skill
}

/// The tablebase agreement check, for the games that have a tablebase.
trait Tablebased: Game {
    /// One random covered decision position with a real choice (from `position_seed`),
    /// the agent `spec` (seeded with `agent_seed`) choosing there: (value of its choice,
    /// best value) for the mover. Games without a tablebase answer with an error.
    fn agreement(
        game: &Self,
        tb: &Tablebase,
        spec: &AgentSpec,
        position_seed: u64,
        agent_seed: u64,
    ) -> Result<(f64, f64), CliError> {
        let _ = (game, tb, spec, position_seed, agent_seed);
        Err(CliError::Invalid(format!(
            "{} has no endgame tablebase",
            Self::NAME
        )))
    }
}

/// The default (no tablebase) for the games without one: every game of the list but
/// Issiren, the described games included (the games with a tablebase are
/// `stickdice_agents::tablebases()`).
macro_rules! no_tablebase {
    ($($ty:ty),* $(,)?) => {
        $(impl Tablebased for $ty {})*
    };
}
no_tablebase!(
    stickdice::SigWaDuqqan,
    stickdice::SigElOued,
    stickdice::SigElOuedCapture,
    stickdice::games::SiryuRace,
    stickdice::games::HoumtTaourit,
    stickdice::SiryuWar,
    stickdice::described::games::FileGame,
);
// Every shipped description: none has a tablebase.
macro_rules! no_tablebase_described {
    ([] $($variant:ident : $ty:path,)*) => {
        no_tablebase!($($ty),*);
    };
}
stickdice::for_each_described_game!(no_tablebase_described);

impl Tablebased for Issiren {
    fn agreement(
        game: &Self,
        tb: &Tablebase,
        spec: &AgentSpec,
        position_seed: u64,
        agent_seed: u64,
    ) -> Result<(f64, f64), CliError> {
        let mut rng = stickdice::Rng::seed_from_u64(position_seed);
        let sizes = tablebase::table_sizes();
        // The mover has two pieces: tables 2v1 and 2v2, uniformly over their entries.
        let span = sizes[2] + sizes[3];
        let mut legal = ActionList::new();
        let state = loop {
            let k = rng.random_range(0..span);
            let (table, index) = if k < sizes[2] {
                (2, k)
            } else {
                (3, k - sizes[2])
            };
            let mover = rng.random_range(0..2usize);
            let Some(mut s) = tablebase::position(table, index, mover) else {
                continue;
            };
            let t = game.sample_throw(&mut rng);
            game.apply_throw_unchecked(&mut s, t);
            if game.node(&s) != Node::Decide(mover) {
                continue;
            }
            game.legal_actions(&s, &mut legal);
            if legal.len() > 1 {
                break s;
            }
        };
        let values = tb
            .action_values(&state)
            .ok_or("the tablebase does not cover its own positions")?;
        let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        let mut agent = stickdice_agents::build(spec, game, agent_seed)?;
        agent.new_game(game, state.turn() as usize);
        let a = agent
            .choose(game, &state)
            .map_err(|e| CliError::context(spec.to_string(), e))?;
        let v = values
            .iter()
            .find(|x| x.0 == a)
            .ok_or_else(|| format!("{spec} chose the illegal action {a}"))?
            .1;
        Ok((v, best))
    }
}

fn seat_row(label: &str, values: &[String]) {
    print!("  {label:<28}");
    for v in values {
        print!(" {v:>18}");
    }
    outln!();
}

fn print_report(r: &Report) {
    print_heading(r);
    print_seat_advantage(r);
    print_game_length(r);
    print_decisions(r);
    print_skill_gap(r);
    print_tablebase(r);
    if let Some(svg) = &r.svg {
        outln!();
        outln!("histogram of game lengths: {svg}");
    }
}

/// The game, its options, the seed and the self-play games.
fn print_heading(r: &Report) {
    let opts: Vec<String> = r.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    outln!("{} — {} players; {}", r.title, r.players, opts.join(" "));
    outln!(
        "seed {}; {} self-play games with {} in every seat",
        r.seed,
        r.self_play.games,
        r.self_play.agent
    );
    outln!();
}

/// Each seat's chances, exact and simulated, and the exact outcomes from the start.
fn print_seat_advantage(r: &Report) {
    let seats: Vec<String> = (1..=r.players).map(|s| format!("P{s}")).collect();
    outln!("Seat advantage");
    seat_row("", &seats);
    if let Some(e) = &r.exact {
        seat_row(
            "exact P(rank first)",
            &e.first
                .iter()
                .map(|p| format!("{p:.6}"))
                .collect::<Vec<_>>(),
        );
        seat_row(
            "exact expected score",
            &e.score
                .iter()
                .map(|p| format!("{p:.6}"))
                .collect::<Vec<_>>(),
        );
        if let Some(s) = &e.success {
            seat_row(
                "exact P(reach the Ka'aba)",
                &s.iter().map(|p| format!("{p:.6}")).collect::<Vec<_>>(),
            );
        }
    }
    let sp = &r.self_play;
    seat_row(
        "simulated P(rank first)",
        &sp.first.iter().map(|f| f.show(3)).collect::<Vec<_>>(),
    );
    seat_row(
        "simulated mean score",
        &sp.score.iter().map(|f| f.show(3)).collect::<Vec<_>>(),
    );
    match (&r.exact, &r.exact_unavailable) {
        (Some(e), _) => outln!(
            "  (exact: solved play with the throw cap lifted; {} states, {} decision nodes, \
             solved in {:.2} s; error bounds {:.0e} (probabilities), {:.0e} throws)",
            e.states,
            e.decision_nodes,
            e.seconds,
            e.error_bound,
            e.throws_error_bound
        ),
        (None, Some(why)) => outln!("  (no exact figures: {why})"),
        _ => {}
    }
    if let Some(e) = &r.exact {
        outln!();
        outln!("Outcomes (exact, from the start)");
        for (name, p) in &e.outcomes {
            outln!("  {name:<60} {p:.6}");
        }
    }
}

/// Game lengths in throws and turns (and the exact expected throws).
fn print_game_length(r: &Report) {
    let sp = &r.self_play;
    outln!();
    outln!("Game length                        mean            median   90th pct   max");
    outln!(
        "  {:<28} {:>16} {:>9} {:>10} {:>6}",
        "throws",
        sp.throws.mean.show(1),
        sp.throws.median,
        sp.throws.p90,
        sp.throws.max
    );
    outln!(
        "  {:<28} {:>16} {:>9} {:>10} {:>6}",
        "turns",
        sp.turns.mean.show(1),
        sp.turns.median,
        sp.turns.p90,
        sp.turns.max
    );
    if let Some(e) = &r.exact {
        // The simulated figures are for the self-play baseline; the exact mean is for solved
        // play, which differs where the game has decisions.
        let play = if e.decision_nodes > 0 {
            "solved play"
        } else {
            "any play"
        };
        outln!(
            "  exact expected throws ({play}, no cap): {:.2}",
            e.expected_throws
        );
    }
}

/// Decision nodes, choices, captures, burials, capped games and failures.
fn print_decisions(r: &Report) {
    let sp = &r.self_play;
    outln!();
    outln!("Decisions");
    outln!(
        "  {:<28} {}",
        "decision nodes per game",
        sp.decisions_per_game.show(1)
    );
    match (sp.choice_share, sp.mean_choices) {
        (Some(share), Some(mean)) => outln!(
            "  {:<28} {:.1}% of decision nodes, {:.2} actions there on average",
            "with more than one action",
            100.0 * share,
            mean
        ),
        (Some(_), None) => outln!("  {:<28} none", "with more than one action"),
        _ => outln!("  (the game has no decisions: every throw plays itself)"),
    }
    outln!();
    if r.counts.0 {
        outln!("  {:<28} {}", "captures per game", sp.captures.show(2));
    }
    if r.counts.1 {
        outln!("  {:<28} {}", "burials per game", sp.burials.show(2));
    }
    outln!("  {:<28} {}", "games ending at the cap", sp.capped.show(4));
    if sp.failures > 0 {
        outln!("  {:<28} {}", "games an agent failed", sp.failures);
    }
}

/// The score of each listed agent against random play.
fn print_skill_gap(r: &Report) {
    if !r.skill.is_empty() {
        outln!();
        outln!("Skill gap: score against random play (the agent rotated through the seats)");
        for s in &r.skill {
            outln!(
                "  {:<28} {:>16}  gap {:+.3}  ({} games)",
                s.agent,
                s.score.show(3),
                s.gap,
                s.games
            );
        }
        if let Some(best) = &r.strongest {
            let gap = r
                .skill
                .iter()
                .find(|s| &s.agent == best)
                .map_or(0.0, |s| s.gap);
            outln!("  strongest listed: {best} ({gap:+.3} over random)");
        }
    }
}

/// Issiren's endgame tablebase: its size, its build and each agent's agreement with it.
fn print_tablebase(r: &Report) {
    if let Some(t) = &r.tablebase {
        outln!();
        outln!(
            "Issiren endgame tablebase ({}): {} values, {:.1} MB",
            t.source,
            t.entries,
            t.bytes as f64 / 1e6
        );
        if let Some(b) = &t.build {
            if b.positions > 0 {
                outln!(
                    "  built in {:.1} s: {} positions, sweeps {:?} (1v1, 1v2+2v1, 2v2), residual {:.0e}",
                    b.seconds,
                    b.positions,
                    b.sweeps,
                    b.residual.iter().fold(0.0f64, |a, &x| a.max(x))
                );
            } else {
                outln!("  built in {:.1} s", b.seconds);
            }
        }
        for a in &t.agreement {
            outln!(
                "  {:<28} agrees {:>14} of {} positions; gives up {} win probability",
                a.agent,
                a.agree.show(3),
                a.positions,
                a.loss.show(4)
            );
        }
    }
}
