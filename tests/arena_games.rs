//! The arena and tournaments on the real games (core + agents + evaluation): duplicate
//! dice, reproducibility across thread counts and interruptions, and agents that fail.

use std::path::{Path, PathBuf};

use stickdice::play::{Event, SeededDice};
use stickdice::{with_game, ActionList, Agent, AnyGame, Game};
use stickdice_agents::RandomAgent;
use stickdice_evaluation::arena::{self, Factory};
use stickdice_evaluation::log;
use stickdice_evaluation::tournament::{LOG_FILE, REPORT_FILES};
use stickdice_evaluation::{factory, Entrant, FailureKind, Format, RunOptions, Tournament};

fn random<G: Game>() -> Factory<G> {
    factory(|_: &G, seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<G>>)
}

/// Always the first legal action: deterministic, and different from random.
fn first_legal<G: Game>() -> Factory<G> {
    factory(|_: &G, _| {
        Box::new(stickdice::agent_fn("first", |g: &G, s: &G::State| {
            let mut l = ActionList::new();
            g.legal_actions(s, &mut l);
            l[0]
        })) as Box<dyn Agent<G>>
    })
}

/// Always the last legal action.
fn last_legal<G: Game>() -> Factory<G> {
    factory(|_: &G, _| {
        Box::new(stickdice::agent_fn("last", |g: &G, s: &G::State| {
            let mut l = ActionList::new();
            g.legal_actions(s, &mut l);
            l[l.len() - 1]
        })) as Box<dyn Agent<G>>
    })
}

fn entrants<G: Game>(seats: usize) -> Vec<Entrant<G>> {
    let mut v = vec![
        Entrant {
            spec: "random".into(),
            factory: random::<G>(),
        },
        Entrant {
            spec: "first".into(),
            factory: first_legal::<G>(),
        },
        Entrant {
            spec: "last".into(),
            factory: last_legal::<G>(),
        },
    ];
    while v.len() < seats {
        v.push(Entrant {
            spec: "random".into(),
            factory: random::<G>(),
        });
    }
    v
}

fn configurations() -> Vec<AnyGame> {
    vec![
        AnyGame::new::<&str>("sig-wa-duqqan", Some(4), &[]).unwrap(),
        AnyGame::new::<&str>("sig-el-oued", Some(3), &[]).unwrap(),
        AnyGame::new::<&str>("sig-el-oued", Some(2), &["cairo_always_three=true"]).unwrap(),
        AnyGame::new::<&str>("issiren", None, &[]).unwrap(),
    ]
}

struct Temp(PathBuf);

impl Temp {
    fn new(name: &str) -> Temp {
        let p = std::env::temp_dir().join(format!("stickdice-arena-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        Temp(p)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn reports(dir: &Path) -> Vec<String> {
    REPORT_FILES
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
        .collect()
}

/// Each seat meets the same throws in every game of a rotation, and those throws are the
/// duplicate dice of the game seed: seat s's t-th throw comes from (seed, s, t).
fn duplicate_dice<G: Game>(game: &G) {
    let n = game.seats();
    let pool: Vec<Factory<G>> = (0..n)
        .map(|i| match i % 3 {
            0 => first_legal::<G>(),
            1 => last_legal::<G>(),
            _ => random::<G>(),
        })
        .collect();
    let mut rotations_that_differ = 0;
    for seed in 0u64..10 {
        let mut per_game: Vec<Vec<Vec<u8>>> = Vec::new();
        let mut traces = Vec::new();
        for shift in 0..n {
            let seating: Vec<&Factory<G>> = (0..n).map(|s| &pool[(s + shift) % n]).collect();
            let r = arena::play(game, &seating, seed);
            assert!(r.failure.is_none(), "{:?}", r.failure);
            let mut throws = vec![Vec::new(); n];
            for e in &r.events {
                if let Event::Throw(s, t) = e {
                    throws[*s].push(t.marked());
                }
            }
            traces.push(format!("{:?}", r.events));
            per_game.push(throws);
        }
        for seat in 0..n {
            // Independently: the seat's throws straight from the duplicate dice.
            let longest = per_game.iter().map(|g| g[seat].len()).max().unwrap();
            let mut dice = SeededDice::new(seed);
            let expected: Vec<u8> = (0..longest)
                .map(|_| dice.throw(seat, game.sticks()).marked())
                .collect();
            for g in &per_game {
                assert_eq!(
                    g[seat][..],
                    expected[..g[seat].len()],
                    "{} seat {seat}",
                    G::NAME
                );
            }
        }
        if traces.iter().any(|t| *t != traces[0]) {
            rotations_that_differ += 1;
        }
    }
    // Where agents decide, the games of a rotation differ, so the equal throws are the
    // dice's doing, not identical games. (Sig wa Duqqan has no decisions.)
    if G::NAME != "sig-wa-duqqan" {
        assert!(rotations_that_differ > 0, "{}", G::NAME);
    }
}

#[test]
fn every_seat_meets_the_same_throws_across_a_rotation() {
    for any in configurations() {
        with_game!(&any, |g| duplicate_dice(g));
    }
}

fn threads_agree<G: Game>(game: &G) {
    let make = || {
        Tournament::new(
            game.clone(),
            entrants::<G>(game.seats()),
            Format::RoundRobin,
            8,
            21,
            None,
        )
        .unwrap()
    };
    let one = Temp::new(&format!("one-{}-{}", G::NAME, game.seats()));
    let two = Temp::new(&format!("two-{}-{}", G::NAME, game.seats()));
    let r1 = make()
        .run(
            &one.0,
            &RunOptions {
                threads: Some(1),
                ..RunOptions::default()
            },
        )
        .unwrap();
    let r2 = make()
        .run(
            &two.0,
            &RunOptions {
                threads: Some(2),
                ..RunOptions::default()
            },
        )
        .unwrap();
    assert_eq!(r1.report, r2.report);
    assert_eq!(reports(&one.0), reports(&two.0), "{}", G::NAME);
    let rep = r1.report.unwrap();
    assert_eq!(rep.failures.len(), 0);
    // Every agent played every seat equally often.
    let contents = log::read(&one.0.join(LOG_FILE)).unwrap().unwrap();
    let k = rep.agents.len();
    let mut seats = vec![vec![0; game.seats()]; k];
    for (_, g) in &contents.games {
        for (s, &a) in g.seating.iter().enumerate() {
            seats[a][s] += 1;
        }
    }
    for row in &seats {
        assert!(row.iter().all(|&c| c == row[0]), "{seats:?}");
    }
}

#[test]
fn reports_are_identical_with_one_and_two_threads_on_every_game() {
    for any in configurations() {
        with_game!(&any, |g| threads_agree(g));
    }
}

#[test]
fn an_interrupted_issiren_tournament_resumes_to_the_same_report() {
    let game = stickdice::Issiren::with_seats(2).unwrap();
    let make =
        || Tournament::new(game.clone(), entrants(2), Format::Gauntlet, 10, 5, None).unwrap();
    let whole = Temp::new("issiren-whole");
    let parts = Temp::new("issiren-parts");
    make().run(&whole.0, &RunOptions::default()).unwrap();
    let s = make()
        .run(
            &parts.0,
            &RunOptions {
                stop_after: Some(7),
                ..RunOptions::default()
            },
        )
        .unwrap();
    assert!(s.report.is_none() && s.played == 7);
    let s = make().run(&parts.0, &RunOptions::default()).unwrap();
    assert_eq!((s.resumed, s.played), (7, 13));
    assert_eq!(reports(&whole.0), reports(&parts.0));
}

#[test]
fn panics_and_illegal_actions_lose_issiren_games_and_are_logged() {
    let game = stickdice::Issiren::with_seats(2).unwrap();
    type G = stickdice::Issiren;
    let panicky = factory(|_: &G, _| {
        let mut n = 0;
        Box::new(stickdice::agent_fn(
            "panicky",
            move |g: &G, s: &<G as Game>::State| {
                n += 1;
                assert!(n < 5, "agent gave up at decision {n}");
                let mut l = ActionList::new();
                g.legal_actions(s, &mut l);
                l[0]
            },
        )) as Box<dyn Agent<G>>
    });
    // Plays the first action it was ever offered, forever: soon an illegal action.
    let stale = factory(|_: &G, _| {
        let mut first = None;
        Box::new(stickdice::agent_fn(
            "stale",
            move |g: &G, s: &<G as Game>::State| {
                *first.get_or_insert_with(|| {
                    let mut l = ActionList::new();
                    g.legal_actions(s, &mut l);
                    l[0]
                })
            },
        )) as Box<dyn Agent<G>>
    });
    let t = Tournament::new(
        game,
        vec![
            Entrant {
                spec: "random".into(),
                factory: random::<G>(),
            },
            Entrant {
                spec: "panicky".into(),
                factory: panicky,
            },
            Entrant {
                spec: "stale".into(),
                factory: stale,
            },
        ],
        Format::Gauntlet,
        6,
        3,
        None,
    )
    .unwrap();
    let dir = Temp::new("failures");
    let rep = t
        .run(&dir.0, &RunOptions::default())
        .unwrap()
        .report
        .unwrap();
    let by = |name: &str| rep.standings.iter().find(|s| s.agent == name).unwrap();
    assert_eq!(by("panicky").failures, 6);
    assert_eq!(by("random").failures, 0);
    assert_eq!(by("random").score.value, 1.0, "{}", rep.standings_table());
    assert!(by("stale").failures > 0);
    assert!(rep.failures.iter().any(|f| f.agent == "stale"
        && f.kind == FailureKind::IllegalAction
        && f.message.contains("not a legal action")));
    assert!(rep.failures.iter().any(|f| f.agent == "panicky"
        && f.kind == FailureKind::Panic
        && f.message.contains("gave up at decision 5")));
    // The log says why, game by game.
    let contents = log::read(&dir.0.join(LOG_FILE)).unwrap().unwrap();
    let logged = contents
        .games
        .iter()
        .filter(|(_, g)| g.failure.is_some())
        .count();
    assert_eq!(logged, rep.failures.len());
}

fn from_specs<G: stickdice_agents::Evaluate>(game: &G, specs: &[&str]) -> Vec<Entrant<G>> {
    specs
        .iter()
        .map(|text| {
            let spec: stickdice_agents::AgentSpec = text.parse().unwrap();
            stickdice_agents::build(&spec, game, 0).unwrap();
            Entrant {
                spec: spec.to_string(),
                factory: factory(move |g: &G, seed| {
                    stickdice_agents::build(&spec, g, seed).unwrap()
                }),
            }
        })
        .collect()
}

#[test]
fn greedy_beats_random_at_issiren_and_the_sprt_sees_it() {
    let game = stickdice::Issiren::with_seats(2).unwrap();
    let dir = Temp::new("specs");
    let t = Tournament::new(
        game.clone(),
        from_specs(&game, &["random", "greedy"]),
        Format::RoundRobin,
        20,
        1,
        None,
    )
    .unwrap();
    let rep = t
        .run(&dir.0, &RunOptions::default())
        .unwrap()
        .report
        .unwrap();
    assert_eq!(
        rep.standings[0].agent,
        "greedy",
        "{}",
        rep.standings_table()
    );
    assert!(
        rep.standings[0].score.value > 0.6,
        "{}",
        rep.standings_table()
    );
    let elo = rep.standings[0].elo.unwrap();
    assert!(elo.low.unwrap() > 0.0, "{}", rep.standings_table());

    // The SPRT, greedy first: H1 (greedy at least 50 Elo stronger) is accepted well before
    // the cap, and the counted games are whole rotations.
    let sprt = stickdice_evaluation::Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
    let t = Tournament::new(
        game.clone(),
        from_specs(&game, &["greedy", "random"]),
        Format::RoundRobin,
        1000,
        2,
        Some(sprt),
    )
    .unwrap();
    let dir = Temp::new("specs-sprt");
    let rep = t
        .run(&dir.0, &RunOptions::default())
        .unwrap()
        .report
        .unwrap();
    let s = rep.sprt.unwrap();
    assert_eq!(
        s.decision,
        stickdice_evaluation::stats::SprtDecision::AcceptH1
    );
    assert!(rep.games < 1000 && rep.games % 2 == 0 && rep.games == 2 * s.rotations);
}
