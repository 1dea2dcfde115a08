//! Tests of the arena and tournaments on the toy race game, with agents of known strength.

use std::path::{Path, PathBuf};

use stickdice::play::Event;
use stickdice::{agent_fn, ActionList, Agent, Game};
use stickdice_agents::RandomAgent;

use crate::arena::{self, factory, Factory, FailureKind};
use crate::log::{self, LogError};
use crate::merge;
use crate::schedule::{Format, Shard};
use crate::stats::{Sprt, SprtDecision};
use crate::tournament::{
    Entrant, RunOptions, Tournament, TournamentError, LOCK_FILE, LOG_FILE, REPORT_FILES,
};
use crate::tournament::{Progress, ProgressFn};
use std::sync::{Arc, Mutex};
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

/// `run` against `other` under `sprt`: a round robin of up to 2000 rotations, seed 4.
fn sprt_duel(other: Entrant<Race>, sprt: Sprt) -> Tournament<Race> {
    Tournament::new(
        race(2),
        vec![entrant("run", runner()), other],
        Format::RoundRobin,
        2000,
        4,
        Some(sprt),
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
    let make = || sprt_duel(entrant("walk", walker()), sprt);
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
    assert!(
        !dir.path().join(LOCK_FILE).exists(),
        "the lock file goes with the lock"
    );
    let s = three_way(4, 1).run(dir.path(), &opts(1)).unwrap();
    assert_eq!(s.played, 12);
    // The finished run let the folder go and left no lock file.
    assert!(!dir.path().join(LOCK_FILE).exists());
    drop(crate::tournament::lock_folder(dir.path()).unwrap());
}

#[test]
fn a_lock_file_removed_by_a_finishing_run_is_not_locked_by_the_next() {
    let dir = TempDir::new("lock-race");
    let path = dir.path().join(LOCK_FILE);
    // A run about to lock has opened the file; the holder finishes (removes it, unlocks).
    let held = crate::tournament::lock_folder(dir.path()).unwrap();
    let stale = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    drop(held);
    stale.try_lock().unwrap();
    // The file it locked is gone: a new run locks a new file, and is not refused.
    let next = crate::tournament::lock_folder(dir.path()).unwrap();
    assert!(path.exists());
    assert!(matches!(
        crate::tournament::lock_folder(dir.path()),
        Err(TournamentError::Busy { .. })
    ));
    drop(next);
    assert!(!path.exists());
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
    t.verify(&g).unwrap();
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
    assert!(
        e.to_string().contains("does not fit where the events stop"),
        "{e}"
    );
    // Negative or endless times.
    for time in [-0.5, f64::NAN, f64::INFINITY] {
        let mut bad = g.clone();
        bad.time_s[1] = time;
        let e = t.verify(&bad).unwrap_err();
        assert!(e.to_string().contains("is not a time"), "{e}");
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

// ---- Shards and merging -------------------------------------------------------------

fn shard_opts(i: usize, k: usize) -> RunOptions {
    RunOptions {
        shard: Some(Shard::new(i, k).unwrap()),
        ..opts(2)
    }
}

/// Plays every shard of `k` of tournament `make()` into folders under `root`.
fn play_shards(make: &dyn Fn() -> Tournament<Race>, root: &Path, k: usize) -> Vec<PathBuf> {
    (0..k)
        .map(|i| {
            let dir = root.join(format!("shard{i}"));
            let last = Arc::new(Mutex::new(None));
            let seen = last.clone();
            let progress: ProgressFn = Arc::new(move |p: Progress| *seen.lock().unwrap() = Some(p));
            let s = make()
                .run(
                    &dir,
                    &RunOptions {
                        progress: Some(progress),
                        ..shard_opts(i, k)
                    },
                )
                .unwrap();
            assert!(s.report.is_none(), "a shard writes no report");
            // Progress counts the shard's own games.
            let p = last.lock().unwrap().unwrap();
            assert_eq!((p.done, p.total), (s.played, s.played));
            dir
        })
        .collect()
}

fn merge_error(t: &Tournament<Race>, out: &Path, dirs: &[PathBuf]) -> String {
    let e = merge::merge(t, out, dirs).unwrap_err();
    e.to_string()
}

#[test]
fn merged_shards_give_the_one_machine_report_whatever_their_number_and_order() {
    // Three agents at two seats (3 tables) and, separately, three seats: round-robin.
    let makers: [Box<dyn Fn() -> Tournament<Race>>; 2] = [
        Box::new(|| three_way(10, 77)),
        Box::new(|| {
            Tournament::new(
                race(3),
                vec![
                    entrant("run", runner()),
                    entrant("walk", walker()),
                    entrant("random", random()),
                    entrant("random", random()),
                ],
                Format::Gauntlet,
                7,
                5,
                None,
            )
            .unwrap()
        }),
    ];
    for make in &makers {
        let whole = TempDir::new("merge-whole");
        make().run(whole.path(), &opts(2)).unwrap();
        let expected = report_files(whole.path());
        for k in 1..=4 {
            let root = TempDir::new(&format!("merge-{k}"));
            let dirs = play_shards(make.as_ref(), root.path(), k);
            let n = make().schedule().seats();
            // Each shard holds exactly its rotations.
            for (i, d) in dirs.iter().enumerate() {
                let c = log::read(&d.join(LOG_FILE)).unwrap().unwrap();
                assert_eq!(c.shard, Some(Shard::new(i, k).unwrap()));
                assert!(c.games.iter().all(|(_, g)| Shard::new(i, k).unwrap().holds(
                    g.index,
                    n,
                    make().schedule().tables().len()
                )));
            }
            let mut orders = vec![dirs.clone()];
            let mut rev = dirs.clone();
            rev.reverse();
            orders.push(rev);
            let mut rot = dirs.clone();
            rot.rotate_left(k / 2);
            orders.push(rot);
            for (o, order) in orders.iter().enumerate() {
                let out = root.path().join(format!("merged{o}"));
                let s = merge::merge(&make(), &out, order).unwrap();
                assert_eq!(s.games, make().schedule().len());
                assert_eq!(report_files(&out), expected, "{k} shards, order {o}");
            }
        }
        // A whole tournament's log merges as the single shard 0/1.
        let root = TempDir::new("merge-whole-log");
        let out = root.path().join("merged");
        merge::merge(&make(), &out, &[whole.path().to_path_buf()]).unwrap();
        assert_eq!(report_files(&out), expected);
    }
}

#[test]
fn a_killed_shard_resumes_and_merges_to_the_same_report() {
    let whole = TempDir::new("shard-kill-whole");
    three_way(10, 3).run(whole.path(), &opts(2)).unwrap();
    let root = TempDir::new("shard-kill");
    let dirs = play_shards(&|| three_way(10, 3), root.path(), 3);
    // Shard 1 again, killed after 4 games with a torn last line, like kill -9.
    let d1 = &dirs[1];
    std::fs::remove_dir_all(d1).unwrap();
    three_way(10, 3)
        .run(
            d1,
            &RunOptions {
                stop_after: Some(4),
                ..shard_opts(1, 3)
            },
        )
        .unwrap();
    let log1 = d1.join(LOG_FILE);
    let mut text = std::fs::read_to_string(&log1).unwrap();
    text.push_str("{\"type\":\"game\",\"index\":");
    std::fs::write(&log1, &text).unwrap();
    // Merging now names the missing games of shard 1/3 and the torn line; writes nothing.
    let out = root.path().join("merged");
    let m = merge_error(&three_way(10, 3), &out, &dirs);
    assert!(m.contains("shard 1/3: games"), "{m}");
    assert!(m.contains("line 6 was cut off"), "{m}");
    assert!(!out.exists());
    let s = three_way(10, 3).run(d1, &shard_opts(1, 3)).unwrap();
    assert_eq!((s.resumed, s.played), (4, 6));
    assert!(
        s.notices.iter().any(|n| n.contains("cut off")),
        "{:?}",
        s.notices
    );
    merge::merge(&three_way(10, 3), &out, &dirs).unwrap();
    assert_eq!(report_files(&out), report_files(whole.path()));
    // A shard's log is not resumed as another shard, nor as the whole tournament.
    for other in [Some(Shard::new(2, 3).unwrap()), None] {
        let e = three_way(10, 3)
            .run(
                d1,
                &RunOptions {
                    shard: other,
                    ..opts(2)
                },
            )
            .unwrap_err();
        assert!(matches!(e, TournamentError::ForeignLog { .. }), "{e}");
        assert!(e.to_string().contains("shard: "), "{e}");
    }
}

#[test]
fn missing_games_are_listed_exactly_by_shard() {
    let root = TempDir::new("merge-missing");
    let dirs = play_shards(&|| three_way(4, 1), root.path(), 4);
    let out = root.path().join("merged");
    // 3 tables × 2 rotations = 6 units of 2 games; shard 1/4 holds rotation 0 of table 1
    // (games 2-3) and rotation 1 of table 0 (games 6-7): (table + rotation) mod 4 = 1.
    let m = merge_error(
        &three_way(4, 1),
        &out,
        &[dirs[0].clone(), dirs[2].clone(), dirs[3].clone()],
    );
    assert!(m.starts_with("4 games are in none of the shards"), "{m}");
    assert!(m.contains("shard 1/4: games 2-3, 6-7"), "{m}");
    assert!(m.contains("shards not given: 1/4"), "{m}");
    assert!(!out.exists());
    match merge::merge(&three_way(4, 1), &out, &dirs[..1]).unwrap_err() {
        merge::MergeError::Missing {
            by_shard, absent, ..
        } => {
            let listed: Vec<(String, Vec<usize>)> = by_shard
                .iter()
                .map(|(s, g)| (s.to_string(), g.clone()))
                .collect();
            assert_eq!(
                listed,
                [
                    ("1/4".to_string(), vec![2, 3, 6, 7]),
                    ("2/4".to_string(), vec![4, 5, 8, 9]),
                    ("3/4".to_string(), vec![10, 11]),
                ]
            );
            assert_eq!(absent.len(), 3);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_shards_are_named_with_their_line_and_nothing_is_overwritten() {
    let root = TempDir::new("merge-bad");
    let dirs = play_shards(&|| three_way(4, 1), root.path(), 2);
    let out = root.path().join("merged");
    std::fs::create_dir_all(&out).unwrap();
    // A report already in the output folder stays as it was after every failed merge.
    std::fs::write(out.join("report.md"), "an older report\n").unwrap();
    let t = three_way(4, 1);
    let copy = |name: &str, edit: &dyn Fn(String) -> String| -> PathBuf {
        let d = root.path().join(name);
        std::fs::create_dir_all(&d).unwrap();
        let text = std::fs::read_to_string(dirs[1].join(LOG_FILE)).unwrap();
        std::fs::write(d.join(LOG_FILE), edit(text)).unwrap();
        d
    };
    let log_of = |d: &PathBuf| d.join(LOG_FILE).display().to_string();
    // The same shard twice.
    let twin = copy("twin", &|t| t);
    let m = merge_error(&t, &out, &[dirs[0].clone(), dirs[1].clone(), twin.clone()]);
    assert!(
        m.starts_with(&format!("{} line 1: shard 1/2 again", log_of(&twin))),
        "{m}"
    );
    // Overlapping games: a game of shard 0/2 copied into shard 1/2's log.
    let first_game = std::fs::read_to_string(dirs[0].join(LOG_FILE))
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let overlap = copy("overlap", &|t| format!("{t}{first_game}\n"));
    let m = merge_error(&t, &out, &[dirs[0].clone(), overlap.clone()]);
    assert!(
        m.starts_with(&format!("{} line 8:", log_of(&overlap))),
        "{m}"
    );
    assert!(m.contains("does not belong to shard 1/2"), "{m}");
    // Another tournament (another seed), and another program version.
    let foreign = copy("foreign", &|t| t.replacen("\"seed\":1,", "\"seed\":2,", 1));
    let m = merge_error(&t, &out, &[dirs[0].clone(), foreign.clone()]);
    assert!(
        m.starts_with(&format!(
            "{} line 1: the log of another tournament",
            log_of(&foreign)
        )),
        "{m}"
    );
    assert!(m.contains("seed: 1 vs 2"), "{m}");
    let old = copy("old", &|t| {
        t.replacen(
            &format!("\"program\":\"{}\"", log::PROGRAM_VERSION),
            "\"program\":\"0.0.1\"",
            1,
        )
    });
    let m = merge_error(&t, &out, &[dirs[0].clone(), old.clone()]);
    assert!(
        m.starts_with(&format!(
            "{} line 1: written by program version 0.0.1",
            log_of(&old)
        )),
        "{m}"
    );
    // Another split of the same tournament.
    let split = copy("split", &|t| t.replacen("\"count\":2", "\"count\":3", 1));
    let m = merge_error(&t, &out, &[dirs[0].clone(), split.clone()]);
    assert!(
        m.contains("all shards must split the tournament the same way"),
        "{m}"
    );
    // A damaged line, and a tampered throw that no longer replays.
    let damaged = copy("damaged", &|t| {
        let mut lines: Vec<String> = t.lines().map(String::from).collect();
        lines[3] = "{\"type\":\"game\",\"index\":tw".into();
        lines.join("\n") + "\n"
    });
    let m = merge_error(&t, &out, &[dirs[0].clone(), damaged.clone()]);
    assert!(
        m.starts_with(&format!(
            "{} line 4: not a tournament log line",
            log_of(&damaged)
        )),
        "{m}"
    );
    let tampered = copy("tampered", &|t| {
        let mut lines: Vec<String> = t.lines().map(String::from).collect();
        let at = lines[2].find("\"throws\":").unwrap() + "\"throws\":".len();
        lines[2].insert(at, '9');
        lines.join("\n") + "\n"
    });
    let m = merge_error(&t, &out, &[dirs[0].clone(), tampered.clone()]);
    assert!(
        m.starts_with(&format!("{} line 3: game ", log_of(&tampered))),
        "{m}"
    );
    assert!(m.contains("throws logged"), "{m}");
    // An empty folder, an empty log, a folder that is not there, no folders at all.
    let empty = root.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let m = merge_error(&t, &out, &[dirs[0].clone(), empty.clone()]);
    assert!(
        m.starts_with(&format!("{}: holds no tournament log", empty.display())),
        "{m}"
    );
    let blank = copy("blank", &|_| String::new());
    let m = merge_error(&t, &out, std::slice::from_ref(&blank));
    assert!(m.contains("the log is empty"), "{m}");
    let m = merge_error(&t, &out, &[root.path().join("nowhere")]);
    assert!(m.contains("no such folder"), "{m}");
    assert!(merge_error(&t, &out, &[]).contains("at least one shard folder"));
    assert_eq!(
        merge::merge(&t, &out, &[]).unwrap_err(),
        merge::MergeError::NoShards
    );
    // The output folder may not be a shard, nor hold a log.
    let m = merge_error(&t, &dirs[1], &dirs);
    assert!(m.contains("is the shard folder"), "{m}");
    assert_eq!(
        merge::merge(&t, &dirs[1], &dirs).unwrap_err(),
        merge::MergeError::OutputIsShard {
            out: dirs[1].clone(),
            shard: dirs[1].clone()
        }
    );
    let m = merge_error(&t, &twin, &dirs);
    assert!(m.contains("holds a tournament log"), "{m}");
    assert_eq!(
        merge::merge(&t, &twin, &dirs).unwrap_err(),
        merge::MergeError::OutputHoldsLog { out: twin.clone() }
    );
    assert_eq!(
        std::fs::read_to_string(out.join("report.md")).unwrap(),
        "an older report\n"
    );
    for f in REPORT_FILES.iter().filter(|&&f| f != "report.md") {
        assert!(!out.join(f).exists(), "{f}");
    }
    // The shard folder holds its log and nothing more (the finished run removed its lock
    // file).
    let mut names: Vec<String> = std::fs::read_dir(&dirs[1])
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, [LOG_FILE]);
    // And with every shard right, the report is written.
    merge::merge(&t, &out, &dirs).unwrap();
    assert_ne!(
        std::fs::read_to_string(out.join("report.md")).unwrap(),
        "an older report\n"
    );
}

#[test]
fn an_sprt_played_in_batches_of_rotations_over_shards_decides_as_one_machine() {
    let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
    let make = || sprt_duel(entrant("random", random()), sprt);
    let whole = TempDir::new("sprt-shards-whole");
    let r = make().run(whole.path(), &opts(2)).unwrap().report.unwrap();
    let decided_at = r.sprt.as_ref().unwrap().rotations;
    // Batches of 2 rotations: undecided after the first, decided inside the second.
    assert_eq!(decided_at, 3);
    let root = TempDir::new("sprt-shards");
    let dirs: Vec<PathBuf> = (0..3)
        .map(|i| root.path().join(format!("shard{i}")))
        .collect();
    let out = root.path().join("merged");
    let batch = 2;
    let mut bound = 0;
    loop {
        bound += batch;
        for (i, d) in dirs.iter().enumerate() {
            make()
                .run(
                    d,
                    &RunOptions {
                        until_rotation: Some(bound),
                        ..shard_opts(i, 3)
                    },
                )
                .unwrap();
        }
        let s = merge::merge(&make(), &out, &dirs).unwrap();
        let test = s.sprt.clone().unwrap();
        if bound < decided_at {
            // Undecided at the merged count: no report yet, the test over all the batch.
            assert_eq!(
                test.decision,
                SprtDecision::Continue,
                "after {bound} rotations"
            );
            assert_eq!((test.rotations, s.complete_units), (bound, bound));
            assert!(s.report.is_none() && s.missing.is_empty());
            assert!(!out.exists());
        } else {
            assert_eq!(test.rotations, decided_at);
            assert_eq!(s.report.unwrap(), r);
            // The batch's last rotation was played but is not counted.
            assert!(
                s.notices[0].starts_with("2 games played past the SPRT decision"),
                "{:?}",
                s.notices
            );
            break;
        }
    }
    assert_eq!(report_files(&out), report_files(whole.path()));
    // A bound past the schedule's end plays the shard's whole share.
    let s = make()
        .run(
            &dirs[0],
            &RunOptions {
                until_rotation: Some(usize::MAX),
                ..shard_opts(0, 3)
            },
        )
        .unwrap();
    assert_eq!(s.resumed + s.played, 2 * 1000_usize.div_ceil(3));
    // A bound on rotations is for shards only.
    let e = make()
        .run(
            &root.path().join("x"),
            &RunOptions {
                until_rotation: Some(2),
                ..opts(1)
            },
        )
        .unwrap_err();
    assert!(e.to_string().contains("for shards"), "{e}");
    assert!(matches!(e, TournamentError::RotationsWithoutShard), "{e:?}");
}

/// The JSON of a report reads back into the same report (the form `report.json` holds).
#[test]
fn a_report_reads_back_from_its_json() {
    let game = stickdice::Issiren::with_seats(2).unwrap();
    let summary = crate::tournament(&game)
        .agents(["random", "greedy"])
        .games(6)
        .run()
        .unwrap();
    let report = summary.report.unwrap();
    let back: crate::Report = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(back, report);
}
