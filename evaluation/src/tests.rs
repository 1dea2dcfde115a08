//! Tests of the arena and tournaments on the toy race game, with agents of known strength.

use std::path::{Path, PathBuf};

use stickdice::play::Event;
use stickdice::{agent_fn, ActionList, Agent, Game};
use stickdice_agents::RandomAgent;

use crate::arena::{self, factory, Factory, FailureKind};
use crate::log::{self, LogError};
use crate::schedule::Format;
use crate::stats::{Sprt, SprtDecision};
use crate::tournament::{Entrant, RunOptions, Tournament, TournamentError, LOG_FILE, REPORT_FILES};
use stickdice_testkit::toy::{Race, RaceAction, RaceState};

fn runner() -> Factory<Race> {
    factory(|_: &Race, _| {
        Box::new(agent_fn("run", |_: &Race, _: &RaceState| RaceAction::Run)) as Box<dyn Agent<Race>>
    })
}

/// Walks whenever walking is legal (a weak but legal agent).
fn walker() -> Factory<Race> {
    factory(|_: &Race, _| {
        Box::new(agent_fn("walk", |g: &Race, s: &RaceState| {
            let mut l = ActionList::new();
            g.legal_actions(s, &mut l);
            *l.last().expect("a decision has actions")
        })) as Box<dyn Agent<Race>>
    })
}

fn random() -> Factory<Race> {
    factory(|_: &Race, seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<Race>>)
}

fn entrant(spec: &str, f: Factory<Race>) -> Entrant<Race> {
    Entrant {
        spec: spec.into(),
        factory: f,
    }
}

fn race(seats: usize) -> Race {
    Race::with_seats(seats).unwrap()
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!(
            "stickdice-eval-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn report_files(dir: &Path) -> Vec<String> {
    REPORT_FILES
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
        .collect()
}

fn three_way(games: usize, seed: u64) -> Tournament<Race> {
    Tournament::new(
        race(2),
        vec![
            entrant("run", runner()),
            entrant("walk", walker()),
            entrant("random", random()),
        ],
        Format::RoundRobin,
        games,
        seed,
        None,
    )
    .unwrap()
}

fn opts(threads: usize) -> RunOptions {
    RunOptions {
        threads: Some(threads),
        ..RunOptions::default()
    }
}

#[test]
fn duplicate_dice_give_each_seat_the_same_throws_across_a_rotation() {
    // Three seats, three different agents: the games of a rotation diverge, but seat s's
    // t-th throw is the same in all three.
    let game = race(3);
    let fs = [runner(), walker(), random()];
    let seed = 0xfeed;
    let mut per_game: Vec<Vec<Vec<u8>>> = Vec::new();
    for shift in 0..3 {
        let seating: Vec<&Factory<Race>> = (0..3).map(|s| &fs[(s + shift) % 3]).collect();
        let r = arena::play(&game, &seating, seed);
        let mut throws = vec![Vec::new(); 3];
        for e in &r.events {
            if let Event::Throw(s, t) = e {
                throws[*s].push(t.marked());
            }
        }
        per_game.push(throws);
    }
    let events_differ = per_game.windows(2).any(|w| w[0] != w[1]);
    assert!(
        events_differ,
        "the rotation's games should differ in length"
    );
    for seat in 0..3 {
        for (g, other) in per_game.iter().enumerate().skip(1) {
            let (a, b) = (&per_game[0][seat], &other[seat]);
            let n = a.len().min(b.len());
            assert!(n > 3);
            assert_eq!(a[..n], b[..n], "seat {seat}, games 0 and {g}");
        }
    }
    // A different seed gives other throws.
    let seating: Vec<&Factory<Race>> = fs.iter().collect();
    let other = arena::play(&game, &seating, seed + 1);
    let first: Vec<_> = other.events.iter().take(12).collect();
    let r = arena::play(&game, &seating, seed);
    assert_ne!(first, r.events.iter().take(12).collect::<Vec<_>>());
}

#[test]
fn the_better_agent_rates_higher() {
    let dir = TempDir::new("strength");
    let t = three_way(40, 5);
    let s = t.run(dir.path(), &opts(2)).unwrap();
    let rep = s.report.unwrap();
    assert_eq!(rep.games, 3 * 40);
    let order: Vec<&str> = rep.standings.iter().map(|x| x.agent.as_str()).collect();
    assert_eq!(order[0], "run", "{}", rep.standings_table());
    assert_eq!(order[2], "walk", "{}", rep.standings_table());
    let run = &rep.standings[0];
    assert!(run.score.value > 0.6 && run.elo.unwrap().value > 0.0);
    // Each agent played 80 games; the pairwise table is antisymmetric.
    assert!(rep.standings.iter().all(|x| x.games == 80));
    let p01 = rep.pairwise[0][1].unwrap();
    let p10 = rep.pairwise[1][0].unwrap();
    assert_eq!(p01.games, 40);
    assert!((p01.score + p10.score - 1.0).abs() < 1e-12);
    assert!(rep.pairwise[0][0].is_none());
    assert_eq!(rep.seats.len(), 2);
    let len = rep.length.unwrap();
    assert!(len.min >= 3 && len.median >= len.min as f64);
}

#[test]
fn reports_are_identical_with_one_and_several_threads() {
    let one = TempDir::new("threads1");
    let three = TempDir::new("threads3");
    three_way(30, 11).run(one.path(), &opts(1)).unwrap();
    three_way(30, 11).run(three.path(), &opts(3)).unwrap();
    assert_eq!(report_files(one.path()), report_files(three.path()));
}

#[test]
fn an_interrupted_tournament_resumes_to_the_same_report() {
    let whole = TempDir::new("whole");
    let parts = TempDir::new("parts");
    three_way(24, 3).run(whole.path(), &opts(2)).unwrap();
    // Stop after 10 games, then again after 20 more, then finish.
    let t = three_way(24, 3);
    let s = t
        .run(
            parts.path(),
            &RunOptions {
                stop_after: Some(10),
                ..opts(2)
            },
        )
        .unwrap();
    assert!(s.report.is_none());
    assert_eq!(s.played, 10);
    assert!(!parts.path().join("report.json").exists());
    let s = t
        .run(
            parts.path(),
            &RunOptions {
                stop_after: Some(20),
                ..opts(1)
            },
        )
        .unwrap();
    assert_eq!((s.resumed, s.played), (10, 20));
    // Simulate a kill in the middle of writing a line.
    let log = parts.path().join(LOG_FILE);
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str("{\"type\":\"game\",\"index\":4");
    std::fs::write(&log, text).unwrap();
    let s = t.run(parts.path(), &opts(3)).unwrap();
    assert_eq!((s.resumed, s.played), (30, 72 - 30));
    assert_eq!(s.notices.len(), 1, "{:?}", s.notices);
    assert!(s.notices[0].contains("line 32"), "{:?}", s.notices);
    assert_eq!(report_files(whole.path()), report_files(parts.path()));
    // No game lost, none twice.
    let contents = log::read(&log).unwrap().unwrap();
    let mut idx: Vec<usize> = contents.games.iter().map(|(_, g)| g.index).collect();
    idx.sort_unstable();
    assert_eq!(idx, (0..72).collect::<Vec<_>>());
    assert!(contents.torn_tail.is_none());
    // Running a finished tournament again plays nothing and writes the same report.
    let s = t.run(parts.path(), &opts(2)).unwrap();
    assert_eq!((s.resumed, s.played), (72, 0));
    assert_eq!(report_files(whole.path()), report_files(parts.path()));
}

#[test]
fn a_log_of_another_tournament_is_refused_unless_restarting() {
    let dir = TempDir::new("foreign");
    three_way(4, 1).run(dir.path(), &opts(2)).unwrap();
    let e = three_way(4, 2).run(dir.path(), &opts(2)).unwrap_err();
    assert!(matches!(e, TournamentError::ForeignLog { .. }), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("seed: 2 vs 1") && msg.contains("--restart"),
        "{msg}"
    );
    let s = three_way(4, 2)
        .run(
            dir.path(),
            &RunOptions {
                restart: true,
                ..opts(2)
            },
        )
        .unwrap();
    assert_eq!((s.resumed, s.played), (0, 12));
}

#[test]
fn corrupt_and_tampered_lines_are_reported_with_their_line_number() {
    let dir = TempDir::new("corrupt");
    let t = three_way(4, 1);
    t.run(dir.path(), &opts(2)).unwrap();
    let log = dir.path().join(LOG_FILE);
    let original = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<String> = original.lines().map(String::from).collect();

    // Line 3 is not JSON.
    let mut bad = lines.clone();
    bad[2] = "{not json".into();
    std::fs::write(&log, bad.join("\n") + "\n").unwrap();
    match t.run(dir.path(), &opts(1)).unwrap_err() {
        TournamentError::Log(LogError::BadLine { line, .. }) => assert_eq!(line, 3),
        e => panic!("{e}"),
    }

    // Line 5 has a throw that is not its seed's: tampered or from another program.
    let mut g: serde_json::Value = serde_json::from_str(&lines[4]).unwrap();
    let first = g["events"][0].as_u64().unwrap();
    g["events"][0] = serde_json::json!((first + 1) % 5);
    lines[4] = g.to_string();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let e = t.run(dir.path(), &opts(1)).unwrap_err();
    let msg = e.to_string();
    assert!(
        matches!(&e, TournamentError::Log(LogError::BadLine { line: 5, .. })),
        "{msg}"
    );
    assert!(
        msg.contains("line 5") && msg.contains("duplicate-dice"),
        "{msg}"
    );

    // A game logged twice.
    let mut twice: Vec<String> = original.lines().map(String::from).collect();
    twice.push(twice[1].clone());
    std::fs::write(&log, twice.join("\n") + "\n").unwrap();
    let msg = t.run(dir.path(), &opts(1)).unwrap_err().to_string();
    assert!(
        msg.contains("line 14") && msg.contains("logged twice"),
        "{msg}"
    );
}

#[test]
fn a_panicking_agent_loses_its_games_and_the_tournament_goes_on() {
    let panicky = factory(|_: &Race, _| {
        let mut calls = 0;
        Box::new(agent_fn("panicky", move |_: &Race, _: &RaceState| {
            calls += 1;
            if calls == 3 {
                panic!("the third decision is too much");
            }
            RaceAction::Run
        })) as Box<dyn Agent<Race>>
    });
    let builder_panics =
        factory(|_: &Race, _| -> Box<dyn Agent<Race>> { panic!("cannot even be built") });
    let dir = TempDir::new("panic");
    let t = Tournament::new(
        race(2),
        vec![
            entrant("run", runner()),
            entrant("panicky", panicky),
            entrant("unbuildable", builder_panics),
        ],
        Format::RoundRobin,
        4,
        9,
        None,
    )
    .unwrap();
    let rep = t.run(dir.path(), &opts(2)).unwrap().report.unwrap();
    let by = |name: &str| rep.standings.iter().find(|s| s.agent == name).unwrap();
    assert_eq!(by("panicky").failures, 4); // loses every game it plays against "run"... and
    assert_eq!(by("unbuildable").failures, 8); // ...the unbuildable one loses all 8 of its
    assert_eq!(by("run").score.value, 1.0);
    assert_eq!(by("run").failures, 0);
    // Against each other: the unbuildable agent fails first (it is built before play).
    assert_eq!(rep.pairwise[1][2].unwrap().score, 1.0);
    assert!(rep
        .failures
        .iter()
        .any(|f| f.kind == FailureKind::Panic && f.message.contains("too much")));
    assert!(rep
        .failures
        .iter()
        .any(|f| f.agent == "unbuildable" && f.message.contains("while being built")));
    // The log records why.
    let contents = log::read(&dir.path().join(LOG_FILE)).unwrap().unwrap();
    let logged = contents
        .games
        .iter()
        .filter_map(|(_, g)| g.failure.as_ref())
        .filter(|f| f.message.contains("the third decision is too much"))
        .count();
    assert_eq!(logged, 4);
}

#[test]
fn an_illegal_action_loses_the_game() {
    let always_walk = factory(|_: &Race, _| {
        Box::new(agent_fn("always-walk", |_: &Race, _: &RaceState| {
            RaceAction::Walk
        })) as Box<dyn Agent<Race>>
    });
    let game = race(2);
    let fs = [always_walk, runner()];
    // Find a seed whose throws give the walker a 0 (illegal to walk on) early.
    let r = (0..50)
        .map(|seed| arena::play(&game, &[&fs[0], &fs[1]], seed))
        .find(|r| r.failure.is_some())
        .expect("some game has a throw of 0 for seat 0");
    let f = r.failure.unwrap();
    assert_eq!((f.seat, f.kind), (0, FailureKind::IllegalAction));
    assert!(
        f.message.contains("`walk` is not a legal action"),
        "{}",
        f.message
    );
    assert_eq!(r.ranking.places(), &[1, 0]);
    // The game stopped right after seat 0's throw of 0.
    assert!(matches!(
        r.events.last(),
        Some(Event::Throw(0, t)) if t.marked() == 0
    ));
}

#[test]
fn an_agent_error_loses_the_game() {
    struct Refuses;
    impl Agent<Race> for Refuses {
        fn name(&self) -> String {
            "refuses".into()
        }
        fn choose(&mut self, _: &Race, _: &RaceState) -> Result<RaceAction, stickdice::AgentError> {
            Err(stickdice::AgentError::Unsupported("not today".into()))
        }
    }
    let refuses = factory(|_: &Race, _| Box::new(Refuses) as Box<dyn Agent<Race>>);
    let r = arena::play(&race(2), &[&runner(), &refuses], 1);
    let f = r.failure.unwrap();
    assert_eq!(
        (f.seat, f.kind, f.message.as_str()),
        (1, FailureKind::Error, "not today")
    );
    assert_eq!(r.ranking.places(), &[0, 1]);
}

#[test]
fn sprt_stops_when_decided_and_agrees_across_threads_and_resumes() {
    let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
    let make = || {
        Tournament::new(
            race(2),
            vec![entrant("run", runner()), entrant("walk", walker())],
            Format::RoundRobin,
            2000,
            4,
            Some(sprt),
        )
        .unwrap()
    };
    let a = TempDir::new("sprt1");
    let b = TempDir::new("sprt2");
    let c = TempDir::new("sprt3");
    let ra = make().run(a.path(), &opts(1)).unwrap().report.unwrap();
    let rb = make().run(b.path(), &opts(3)).unwrap().report.unwrap();
    let s = ra.sprt.clone().unwrap();
    assert_eq!(s.decision, SprtDecision::AcceptH1);
    assert!(s.llr >= s.upper);
    assert!(ra.games < ra.games_scheduled && ra.games == 2 * s.rotations);
    // The LLR is the formula's on the counted rotations, recomputed here from the log.
    let contents = log::read(&a.path().join(LOG_FILE)).unwrap().unwrap();
    let mut games: Vec<_> = contents.games.iter().map(|(_, g)| g).collect();
    games.sort_by_key(|g| g.index);
    let xs: Vec<f64> = games[..ra.games]
        .chunks(2)
        .map(|p| {
            p.iter()
                .map(|g| g.scores[g.seating.iter().position(|&x| x == 0).unwrap()])
                .sum::<f64>()
                / 2.0
        })
        .collect();
    let (s0, s1) = (0.5, 1.0 / (1.0 + 10f64.powf(-50.0 / 400.0)));
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).max(0.01);
    let llr = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
    assert!((llr - s.llr).abs() < 1e-9, "{llr} vs {}", s.llr);
    assert_eq!(report_files(a.path()), report_files(b.path()));
    // Interrupted part-way, then resumed: the same decision and report.
    make()
        .run(
            c.path(),
            &RunOptions {
                stop_after: Some(5),
                ..opts(2)
            },
        )
        .unwrap();
    make().run(c.path(), &opts(2)).unwrap();
    assert_eq!(report_files(a.path()), report_files(c.path()));
    assert_eq!(rb, ra);
}

#[test]
fn sprt_needs_two_agents_and_failures_are_explained() {
    let e = Tournament::new(
        race(2),
        vec![
            entrant("run", runner()),
            entrant("walk", walker()),
            entrant("random", random()),
        ],
        Format::RoundRobin,
        10,
        1,
        Some(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap()),
    )
    .unwrap_err();
    assert!(e.to_string().contains("exactly two agents"), "{e}");
    let e = Tournament::new(
        race(3),
        vec![entrant("run", runner()), entrant("walk", walker())],
        Format::RoundRobin,
        10,
        1,
        None,
    )
    .unwrap_err();
    assert!(e.to_string().contains("at least 3 agents"), "{e}");
}

#[test]
fn multi_seat_tables_rate_and_report() {
    let dir = TempDir::new("fourseat");
    let t = Tournament::new(
        race(3),
        vec![
            entrant("run", runner()),
            entrant("walk", walker()),
            entrant("random", random()),
            entrant("random", random()),
        ],
        Format::RoundRobin,
        6,
        2,
        None,
    )
    .unwrap();
    assert_eq!(t.labels(), &["run", "walk", "random", "random#2"]);
    let rep = t.run(dir.path(), &opts(2)).unwrap().report.unwrap();
    // C(4,3) = 4 tables × 6 games; each agent sits at 3 tables.
    assert_eq!(rep.games, 24);
    assert!(rep.standings.iter().all(|s| s.games == 18));
    assert_eq!(rep.standings[0].agent, "run");
    let csv = std::fs::read_to_string(dir.path().join("standings.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5);
    assert!(csv.lines().nth(1).unwrap().starts_with("1,\"run\",18,"));
    let svg = std::fs::read_to_string(dir.path().join("ratings.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.matches("<circle").count() == 4);
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(md.contains("| P3 |") && md.contains("random#2"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap())
            .unwrap();
    assert_eq!(json["games"], 24);
}

#[test]
fn a_failed_log_write_stops_the_run_and_leaves_the_log_resumable() {
    // The disk "fills" in the middle of a line: the run stops with an error saying so, the
    // torn fragment is cut off, and a later run resumes to the uninterrupted report.
    let whole = TempDir::new("full-whole");
    let parts = TempDir::new("full-parts");
    three_way(24, 5).run(whole.path(), &opts(2)).unwrap();
    let t = three_way(24, 5);
    let log = parts.path().join(LOG_FILE);
    // A capacity that ends inside some game line: the header plus a few games.
    for capacity in [3_000u64, 6_543] {
        let e = t
            .run(
                parts.path(),
                &RunOptions {
                    log_capacity: Some(capacity),
                    ..opts(2)
                },
            )
            .unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("No space left on device (simulated)")
                && msg.contains("cut back to its last whole line")
                && !msg.contains("fix or remove the line"),
            "{msg}"
        );
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.len() as u64 <= capacity, "{} bytes", text.len());
        assert!(text.ends_with('\n'), "the log ends with a whole line");
        let contents = log::read(&log).unwrap().unwrap();
        assert!(contents.torn_tail.is_none());
        assert!(!parts.path().join("report.json").exists());
    }
    // The space is back: the same tournament resumes and finishes, losing no game.
    let s = t.run(parts.path(), &opts(2)).unwrap();
    assert!(s.resumed > 0 && s.notices.is_empty(), "{s:?}");
    assert_eq!(s.resumed + s.played, 72);
    assert_eq!(report_files(whole.path()), report_files(parts.path()));
}

#[test]
fn a_second_run_on_the_same_folder_is_refused() {
    let dir = TempDir::new("busy");
    // Another run holds the folder (a second handle on the lock file, as another process
    // would have).
    let held = crate::tournament::lock_folder(dir.path()).unwrap();
    let e = three_way(4, 1).run(dir.path(), &opts(1)).unwrap_err();
    assert!(matches!(e, TournamentError::Busy { .. }), "{e}");
    assert!(e.to_string().contains("in use by another"), "{e}");
    assert!(!dir.path().join(LOG_FILE).exists(), "nothing written");
    drop(held);
    let s = three_way(4, 1).run(dir.path(), &opts(1)).unwrap();
    assert_eq!(s.played, 12);
    // The finished run let the folder go.
    drop(crate::tournament::lock_folder(dir.path()).unwrap());
}

#[test]
fn an_output_folder_that_is_a_file_is_refused_clearly() {
    let dir = TempDir::new("outfile");
    let file = dir.path().join("x");
    std::fs::write(&file, "").unwrap();
    let e = three_way(4, 1).run(&file, &opts(1)).unwrap_err();
    assert!(e.to_string().contains("is a file"), "{e}");
}

#[test]
fn every_field_of_a_logged_game_is_checked() {
    let dir = TempDir::new("fields");
    let t = three_way(4, 1);
    t.run(dir.path(), &opts(1)).unwrap();
    let contents = log::read(&dir.path().join(LOG_FILE)).unwrap().unwrap();
    let (_, g) = contents.games[0].clone();
    assert_eq!(t.verify(&g), Ok(()));
    // A failure added by hand to a game that ended normally.
    let mut bad = g.clone();
    bad.failure = Some(crate::arena::Failure {
        seat: 0,
        kind: FailureKind::Error,
        message: "made up".into(),
    });
    bad.places = crate::arena::forfeit_ranking(2, 0).places().to_vec();
    bad.scores = vec![0.0, 1.0];
    let e = t.verify(&bad).unwrap_err();
    assert!(e.contains("does not fit where the events stop"), "{e}");
    // Negative or endless times.
    for time in [-0.5, f64::NAN, f64::INFINITY] {
        let mut bad = g.clone();
        bad.time_s[1] = time;
        let e = t.verify(&bad).unwrap_err();
        assert!(e.contains("is not a time"), "{e}");
    }
}

#[test]
fn a_report_file_that_cannot_be_replaced_leaves_no_temporary_file() {
    let dir = TempDir::new("tmpfile");
    // A folder where report.json goes: the rename onto it fails.
    std::fs::create_dir_all(dir.path().join("report.json").join("x")).unwrap();
    let e = three_way(4, 1).run(dir.path(), &opts(1)).unwrap_err();
    assert!(e.to_string().contains("report.json"), "{e}");
    assert!(!dir.path().join(".report.json.tmp").exists());
}
