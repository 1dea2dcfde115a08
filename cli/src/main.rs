//! `stickdice`: play, compare and analyse agents on the stick-dice games of the Sahara.
//! Every subcommand is described in the stickdice book (`docs/` in the repository; `mdbook
//! build docs`), starting with its chapter *Getting started* (`docs/getting-started.md`).

use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

/// `println!` for the commands' output: when the reader has gone away (`stickdice agents |
/// head -1`) the program ends quietly instead of panicking; another write error ends it
/// with a message.
macro_rules! outln {
    () => {
        $crate::print_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::print_line(format_args!($($arg)*))
    };
}

/// Writes one line to standard output (see `outln!`).
fn print_line(args: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out
        .write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
    {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(2);
    }
}

mod analyze_cmd;
mod calibration_cmd;
mod check_game_cmd;
mod cli;
mod compare_cmd;
#[cfg(test)]
mod doc_commands;
mod error;
mod ladder_cmd;
mod merge_cmd;
mod play_cmd;
mod progress;
mod replay_cmd;
mod review_cmd;
mod serve_cmd;
mod tablebase_cmd;
mod tournament_cmd;
mod train_cmd;
mod web_cmd;

#[derive(Parser, Debug)]
#[command(
    name = "stickdice",
    version = env!("STICKDICE_VERSION"),
    about = "Play, compare and analyse agents on the stick-dice games of the Sahara"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play one game between agents, printing every throw, action and the board.
    Play(play_cmd::PlayArgs),
    /// List the games with their seat counts and rule options.
    Games,
    /// List the agents with their parameters and defaults.
    Agents,
    /// Play a tournament between agents (round-robin or gauntlet, optionally an SPRT),
    /// with a log and reports in the output folder; resumes an interrupted one.
    Tournament(tournament_cmd::TournamentArgs),
    /// Merge the shard logs of a tournament played with --shard into its report (the same
    /// report as one machine's); lists the missing games if some are. Exit status 3: an
    /// SPRT not decided yet (play the next batch).
    Merge(merge_cmd::MergeArgs),
    /// Replay a game from a tournament log, move by move with the board.
    Replay(replay_cmd::ReplayArgs),
    /// Review logged games: the value of every legal action, each decision's error, each
    /// throw's luck, per-seat totals and luck-adjusted scores, against a fixed reference.
    Review(review_cmd::ReviewArgs),
    /// Analyse a game under its rule options: seat advantage (exact where solvable),
    /// game lengths, decisions, captures, the throw cap and the skill gap, with an SVG
    /// histogram of game lengths; Issiren's endgame tablebase.
    Analyze(analyze_cmd::AnalyzeArgs),
    /// Compare configurations (games, rule options, seat counts): Ludii's quality metrics
    /// and ours (exact where solved, luck's share, a skill trace) with 95% intervals, which
    /// differences are real, as a table, JSON, CSV, Markdown and SVG charts.
    Compare(compare_cmd::CompareArgs),
    /// Train the learned Issiren evaluation by self-play TD(λ) and on the endgame
    /// tablebase, with checkpoints (--resume continues; Ctrl-C stops at a checkpoint).
    Train(train_cmd::TrainArgs),
    /// Calibration of Issiren's learned and hand-set evaluations as win probabilities:
    /// Brier scores and a reliability plot (SVG) on tablebase and held-out self-play
    /// positions.
    Calibration(calibration_cmd::CalibrationArgs),
    /// The ladder: agents at budgets calibrated to milliseconds per decision on
    /// this machine (2, 5, 20 ms), played with those fixed budgets and rated from random =
    /// 0 Elo with 95% intervals; a table and a chart.
    Ladder(ladder_cmd::LadderArgs),
    /// Check a game description file (TOML, docs/described/format.md): validate it, then
    /// play random games and report their lengths, the throw cap's share and the ends.
    CheckGame(check_game_cmd::CheckGameArgs),
    /// Where the Issiren endgame tablebase is cached, and whether it is there; with
    /// --build, build it there once (expectimax and mcts use it when given
    /// tablebase=cache; by default they play without it, whatever the cache holds).
    Tablebase(tablebase_cmd::TablebaseArgs),
    /// Serve the front-end protocol: JSON requests on stdin, one JSON response per line on
    /// stdout (docs/protocol.md).
    Serve(serve_cmd::ServeArgs),
    /// Serve the page to watch, replay and play the games on drawn boards in a browser
    /// (http://127.0.0.1:8080/ by default; loopback only unless --bind says otherwise).
    Web(web_cmd::WebArgs),
}

fn main() -> ExitCode {
    // The help texts that name games come from the game list (cli::with_game_lists).
    let matches = cli::with_game_lists(Cli::command()).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        Command::Play(args) => play_cmd::run(&args),
        Command::Serve(args) => serve_cmd::run(&args),
        Command::Web(args) => web_cmd::run(&args),
        Command::Games => {
            list_games();
            Ok(())
        }
        Command::Agents => {
            list_agents();
            Ok(())
        }
        Command::Tournament(args) => tournament_cmd::run(&args),
        Command::Merge(args) => match merge_cmd::run(&args) {
            Ok(false) => return ExitCode::from(3),
            other => other.map(|_| ()),
        },
        Command::Replay(args) => replay_cmd::run(&args),
        Command::Review(args) => review_cmd::run(&args),
        Command::Analyze(args) => analyze_cmd::run(&args),
        Command::Compare(args) => compare_cmd::run(&args, matches.subcommand_matches("compare")),
        Command::Train(args) => train_cmd::run(&args),
        Command::Calibration(args) => calibration_cmd::run(&args),
        Command::Tablebase(args) => tablebase_cmd::run(&args),
        Command::Ladder(args) => ladder_cmd::run(&args),
        Command::CheckGame(args) => check_game_cmd::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn list_games() {
    outln!("{}", games_table(&game_rows()).trim_end_matches('\n'));
}

/// Every game of the list with its rule options, from each game's table of options.
fn game_rows() -> Vec<GameRow> {
    stickdice::GameKind::ALL
        .iter()
        .map(|&kind| {
            let (min, max) = kind.seat_range();
            let seats = if min == max {
                format!("{min} players")
            } else {
                format!("{min}-{max} players")
            };
            GameRow {
                name: kind.name().to_string(),
                title: kind.title().to_string(),
                seats,
                options: kind
                    .option_specs()
                    .iter()
                    .map(|o| OptionRow {
                        setting: format!("{}={}", o.name, o.default_value()),
                        help: format!("{} ({})", o.help, o.allowed()),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// A game of `stickdice games`.
struct GameRow {
    name: String,
    title: String,
    seats: String,
    options: Vec<OptionRow>,
}

/// A rule option of `stickdice games`, from the game's table of options.
struct OptionRow {
    /// `name=default`.
    setting: String,
    /// What it means, and the values it takes.
    help: String,
}

/// The games as `stickdice games` prints them: the names in a column as wide as the longest
/// (counted in characters, so a title or name with letters such as î lines up too), each
/// title with its seat count, and below it each rule option at its default
/// (`name=default`), with its help and the values it takes.
fn games_table(rows: &[GameRow]) -> String {
    use std::fmt::Write as _;
    let width = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut o = String::new();
    for r in rows {
        let _ = writeln!(o, "{:<width$}  {} ({})", r.name, r.title, r.seats);
        let setting = r
            .options
            .iter()
            .map(|x| x.setting.chars().count())
            .max()
            .unwrap_or(0);
        for x in &r.options {
            let pad = setting - x.setting.chars().count();
            let _ = writeln!(o, "{:<width$}  {}{:pad$}  {}", "", x.setting, "", x.help);
        }
    }
    o
}

fn list_agents() {
    for a in stickdice_agents::agents() {
        outln!("{:<11} {}", a.name, a.summary);
        for p in a.params {
            outln!("    {:<10} default {:<8} {}", p.key, p.default, p.help);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{game_rows, games_table, Cli, GameRow, OptionRow};
    use clap::CommandFactory as _;

    /// The help agrees with `stickdice agents`: the searchers' tablebase is `off` unless
    /// asked for, whatever the cache holds.
    #[test]
    fn the_help_says_the_tablebase_is_used_only_when_asked_for() {
        let help = Cli::command().render_help().to_string();
        let line = help.lines().find(|l| l.contains("tablebase")).unwrap();
        assert!(!help.contains("by default when"), "{help}");
        assert!(help.contains("tablebase=cache"), "{line}\n{help}");
        let agents = stickdice_agents::agents();
        let mcts = agents.iter().find(|a| a.name == "mcts").unwrap();
        let param = mcts.params.iter().find(|p| p.key == "tablebase").unwrap();
        assert_eq!(param.default, "off");
    }

    /// The column where each line's text after the name starts, in characters.
    fn columns(table: &str) -> Vec<usize> {
        table
            .lines()
            .map(|l| {
                let chars: Vec<char> = l.chars().collect();
                let name_end = chars.iter().position(|c| *c == ' ').unwrap();
                name_end + chars[name_end..].iter().position(|c| *c != ' ').unwrap()
            })
            .collect()
    }

    /// `stickdice games` lists each rule option with its default, its help and the values
    /// it takes (not only its name), the described games' help from their files.
    #[test]
    fn the_games_list_each_option_with_its_default_and_help() {
        let table = games_table(&game_rows());
        let flat = table.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(
                "max_throws=10000 the throw cap: the game ends after this many throws (extra \
                 throws included), the seats still playing tied (a whole number from 1 to \
                 4294967295)"
            ),
            "{table}"
        );
        assert!(
            flat.contains(
                "cairo_always_three=false entering Cairo costs 3 points from every budget, so \
                 a regular sig never enters it (true or false)"
            ),
            "{table}"
        );
        assert!(
            flat.contains("columns=7 the number of columns, and of pieces a side: 7, 9, 11, 13 or 15 (one of 7, 9, 11, 13, 15)"),
            "{table}"
        );
        for kind in stickdice::GameKind::ALL {
            for o in kind.option_specs() {
                assert!(flat.contains(o.help), "{kind} {}: {table}", o.name);
            }
        }
    }

    #[test]
    fn the_games_line_up_whatever_their_names() {
        let row = |name: &str, title: &str| GameRow {
            name: name.into(),
            title: title.into(),
            seats: "2-4 players".into(),
            options: vec![OptionRow {
                setting: "target=12".into(),
                help: "the square to reach (a whole number from 1 to 50)".into(),
            }],
        };
        let rows = [
            row("issiren", "Issiren (Ishighän)"),
            row("sig-wa-duqqan-taourit", "Sig wa Duqqan (Houmt Taourit)"),
            row("sîg-western-sahara", "Es-Sîg (Western Sahara)"),
            row("a-name-longer-than-any-game-has-had", "Sig"),
        ];
        let table = games_table(&rows);
        let cols = columns(&table);
        assert_eq!(cols.len(), 8, "{table}");
        assert!(cols.iter().all(|&c| c == cols[0]), "{cols:?}\n{table}");
        assert!(
            table.contains("Es-Sîg (Western Sahara) (2-4 players)"),
            "{table}"
        );
    }
}
