//! The tournament builder: the same games as a tournament made by hand, in memory and with
//! the log; resuming after a cancel; agents as specs, values, closures and factories; the
//! settings; errors named before any game.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use stickdice::{ActionList, Agent, AnyGame, Game, SigWaDuqqan};
use stickdice_agents::{build_str, RandomAgent};
use stickdice_evaluation::builder::spec_entrant;
use stickdice_evaluation::{
    tournament, tournament_any, Format, RunOptions, Tournament, TournamentError,
};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stickdice-builder-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn game() -> SigWaDuqqan {
    SigWaDuqqan::with_seats(2).unwrap()
}

#[test]
fn the_builder_plays_the_games_of_a_tournament_made_by_hand() {
    let g = game();
    let by_hand = Tournament::new(
        &g,
        ["random", "greedy"]
            .iter()
            .map(|s| spec_entrant(&s.parse().unwrap(), &g).unwrap())
            .collect(),
        Format::RoundRobin,
        10,
        9,
        None,
    )
    .unwrap();
    let dir = temp_dir("by-hand");
    let expected = by_hand.run(&dir, &RunOptions::default()).unwrap();
    let expected = expected.report.unwrap();

    let built = tournament(&g)
        .agents(["random", "greedy"])
        .games(10)
        .seed(9)
        .threads(2)
        .run()
        .unwrap();
    assert_eq!(built.report.as_ref().unwrap().to_json(), expected.to_json());
    assert_eq!(built.played, 10);
    assert_eq!(built.labels, ["random", "greedy"]);
    // In memory on one thread: the same report.
    let one = stickdice_evaluation::TournamentBuilder::new(g.clone())
        .agent_list("random,greedy")
        .games(10)
        .seed(9)
        .threads(1)
        .run()
        .unwrap();
    assert_eq!(one.report.unwrap().to_json(), expected.to_json());
    // The figures the command prints.
    let figures = built.figures();
    assert!(figures.contains("rank  agent"), "{figures}");
    assert!(figures.contains("10 games played in"), "{figures}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_cancelled_run_resumes_from_its_log_to_the_same_report() {
    let g = game();
    let whole = tournament(&g)
        .agents(["random", "greedy"])
        .games(40)
        .seed(4)
        .run()
        .unwrap()
        .report
        .unwrap();

    let dir = temp_dir("cancel");
    let cancel = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(AtomicUsize::new(0));
    let first = tournament(&g)
        .agents(["random", "greedy"])
        .games(40)
        .seed(4)
        .threads(2)
        .out(&dir)
        .cancel(cancel.clone())
        .progress({
            let (cancel, seen) = (cancel.clone(), seen.clone());
            move |p| {
                seen.store(p.done, Ordering::SeqCst);
                if p.done >= 10 {
                    cancel.store(true, Ordering::SeqCst);
                }
            }
        })
        .run()
        .unwrap();
    assert!(first.report.is_none(), "a cancelled run has no report");
    assert!(first.played >= 10 && first.played < 40, "{}", first.played);

    let second = tournament(&g)
        .agents(["random", "greedy"])
        .games(40)
        .seed(4)
        .out(&dir)
        .run()
        .unwrap();
    assert_eq!(second.resumed, first.played);
    assert_eq!(second.resumed + second.played, 40);
    assert_eq!(second.report.unwrap().to_json(), whole.to_json());
    for f in [
        "games.jsonl",
        "report.json",
        "report.md",
        "standings.csv",
        "ratings.svg",
    ] {
        assert!(dir.join(f).exists(), "{f}");
    }

    // Another tournament in the same folder is refused, unless restarted.
    let other = tournament(&g)
        .agents(["random", "greedy"])
        .games(40)
        .seed(5)
        .out(&dir);
    assert!(matches!(
        other.run(),
        Err(TournamentError::ForeignLog { .. })
    ));
    let restarted = tournament(&g)
        .agents(["random", "greedy"])
        .games(4)
        .seed(5)
        .out(&dir)
        .restart(true)
        .run()
        .unwrap();
    assert_eq!((restarted.resumed, restarted.played), (0, 4));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn agents_can_be_specs_values_closures_and_factories() {
    let g = game();
    let summary = tournament(&g)
        .agent("greedy")
        .agent_value(RandomAgent::new(3))
        .agent_fn("last-legal", |g, s| {
            let mut legal = ActionList::new();
            g.legal_actions(s, &mut legal);
            *legal.last().expect("a decision has actions")
        })
        .factory("seeded-random", |_, seed| Box::new(RandomAgent::new(seed)))
        .games(2)
        .format(Format::Gauntlet)
        .run()
        .unwrap();
    let report = summary.report.unwrap();
    let random_name = Agent::<SigWaDuqqan>::name(&RandomAgent::new(3));
    assert_eq!(
        summary.labels,
        [
            "greedy",
            random_name.as_str(),
            "last-legal",
            "seeded-random"
        ]
    );
    // A gauntlet: the first agent against each of the three others.
    assert_eq!(report.games, 6);
    assert!(report.failures.is_empty());
}

#[test]
fn rule_options_players_and_the_sprt_reach_the_tournament() {
    let g = game();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let s = tournament(&g)
        .agents(["random", "random", "greedy"])
        .players(3)
        .option("max_throws", "5")
        .games(3)
        .on_start({
            let lines = lines.clone();
            move |line| lines.lock().unwrap().push(line.to_string())
        })
        .run()
        .unwrap();
    let report = s.report.unwrap();
    assert_eq!(report.games, 3, "one table of three seats, one rotation");
    let length = report.length.expect("game lengths");
    assert!(length.p90 <= 5, "the throw cap of 5 holds: {length:?}");
    let lines = lines.lock().unwrap();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("Sig wa Duqqan"), "{}", lines[0]);
    assert!(
        lines[0].contains("3 players") && lines[0].ends_with("output in memory"),
        "{}",
        lines[0]
    );

    let sprt = tournament(&g)
        .agents(["greedy", "random"])
        .sprt(-10.0, 10.0, 0.05, 0.05)
        .games(2000)
        .run()
        .unwrap();
    assert!(sprt.report.unwrap().sprt.is_some());
}

#[test]
fn the_any_game_builder_runs_the_game_it_holds() {
    let any = AnyGame::new("issiren", None, &["max_throws=300"]).unwrap();
    let a = tournament_any(&any)
        .agent_list("random,mcts:iterations=20,c=1.4")
        .games(2)
        .seed(11)
        .run()
        .unwrap();
    let g = stickdice::Issiren::with_seats(2).unwrap();
    let b = tournament(&g)
        .option("max_throws", "300")
        .agents(["random", "mcts:iterations=20,c=1.4"])
        .games(2)
        .seed(11)
        .run()
        .unwrap();
    assert_eq!(a.report.unwrap().to_json(), b.report.unwrap().to_json());
}

#[test]
fn bad_settings_are_named_before_any_game() {
    let g = game();
    let played = Arc::new(AtomicUsize::new(0));
    let run = |b: stickdice_evaluation::TournamentBuilder<SigWaDuqqan>| {
        let played = played.clone();
        b.progress(move |p| {
            played.fetch_max(p.done, Ordering::SeqCst);
        })
        .run()
        .map(|_| ())
        .unwrap_err()
        .to_string()
    };
    let e = run(tournament(&g).agents(["random", "bogus"]));
    assert!(e.to_string().contains("unknown agent `bogus`"), "{e}");
    let e = run(tournament(&g).agents(["random", "mcts:iterations=0"]));
    assert!(e.to_string().contains("iterations"), "{e}");
    let e = run(tournament(&g)
        .agents(["random", "greedy"])
        .option("colour", "red"));
    assert!(e.to_string().contains("colour"), "{e}");
    let e = run(tournament(&g).agents(["random", "greedy"]).players(9));
    assert!(e.contains('9'), "{e}");
    let e = run(tournament(&g).agents(["random", "greedy"]).threads(0));
    assert!(e.to_string().contains("threads"), "{e}");
    let e = run(tournament(&g)
        .agents(["random", "greedy"])
        .sprt(5.0, 1.0, 0.05, 0.05));
    assert!(e.to_string().contains("elo0 < elo1"), "{e}");
    let e = run(tournament(&g)
        .agents(["random", "greedy", "random"])
        .sprt(0.0, 5.0, 0.05, 0.05));
    assert!(e.to_string().contains("exactly two"), "{e}");
    let e = run(tournament(&g).agent("random"));
    assert!(!e.is_empty());
    assert_eq!(played.load(Ordering::SeqCst), 0, "no game was played");
    // An agent that cannot play the game is refused too.
    let any = AnyGame::new("issiren", None, &[] as &[&str]).unwrap();
    let e = tournament_any(&any)
        .agents(["random", "perfect"])
        .run()
        .map(|_| ())
        .unwrap_err();
    assert!(matches!(e, TournamentError::Agent(_)), "{e}");
    // A spec that builds for the game is accepted by the same check.
    assert!(build_str("perfect", &g, 0).is_ok());
}

#[test]
fn a_game_without_decisions_says_its_agents_cannot_differ() {
    // Sig wa Duqqan: every throw plays itself, so random and greedy score 0.500 each and
    // their ranks are only their order.
    let run = tournament(&game())
        .agents(["random", "greedy"])
        .games(4)
        .seed(3)
        .run()
        .unwrap();
    let report = run.report.as_ref().unwrap();
    assert!(report.no_decisions);
    assert!(report.to_json().contains("\"no_decisions\": true"));
    for text in [run.figures(), report.to_markdown()] {
        assert!(text.contains("agents cannot differ"), "{text}");
    }
    // A game with decisions says nothing of the kind.
    let issiren = stickdice::Issiren::with_seats(2).unwrap();
    let run = tournament(&issiren)
        .agents(["random", "greedy"])
        .games(2)
        .seed(3)
        .run()
        .unwrap();
    let report = run.report.as_ref().unwrap();
    assert!(!report.no_decisions);
    assert!(!report.to_json().contains("no_decisions"));
    assert!(!run.figures().contains("cannot differ"));
}

#[test]
fn another_tournament_in_the_folder_is_refused_in_the_users_words() {
    // The README's examples in order: a tournament, then one of other agents, then an SPRT,
    // each in the default folder.
    let g = stickdice::Issiren::with_seats(2).unwrap();
    let dir = temp_dir("foreign-words");
    tournament(&g)
        .agents(["random", "greedy", "mcts:iterations=5"])
        .games(2)
        .seed(1)
        .out(&dir)
        .run()
        .unwrap();
    let other = |agents: &[&str], sprt: bool| {
        let mut b = tournament(&g)
            .agents(agents.iter().copied())
            .games(2)
            .seed(1)
            .out(&dir);
        if sprt {
            b = b.sprt(0.0, 30.0, 0.05, 0.05);
        }
        b.run().unwrap_err().to_string()
    };
    let m = other(&["random", "greedy"], false);
    assert!(
        m.contains("agents: random, greedy vs random, greedy, mcts:iterations=5,tablebase=off"),
        "{m}"
    );
    // What to do, with a folder that is free.
    let free = dir.with_file_name(format!("{}-2", dir.file_name().unwrap().to_string_lossy()));
    assert!(m.contains(&format!("--out {}", free.display())), "{m}");
    assert!(m.contains("add --restart"), "{m}");
    // No hint about the tablebase when the agents differ otherwise.
    assert!(!m.contains("To resume"), "{m}");
    let m = other(&["mcts:iterations=5", "greedy"], true);
    assert!(
        m.contains("SPRT: --elo0 0 --elo1 30 --alpha 0.05 --beta 0.05 vs none"),
        "{m}"
    );
    assert!(!m.contains("Some(") && !m.contains("Sprt {"), "{m}");
    std::fs::remove_dir_all(&dir).unwrap();
}
