//! Luck-adjusted results, statistically (release build: `cargo test --release -p
//! stickdice-evaluation --test integration luck_stats::`): raw and adjusted means agree, and the
//! adjusted interval is never wider where its variance is known.

use stickdice::{Agent, Game, Issiren, SigElOued, SigWaDuqqan};
use stickdice_agents::{GreedyAgent, RandomAgent};
use stickdice_evaluation::log::GameRecord;
use stickdice_evaluation::review::{LuckOptions, LuckReport, ReferenceOptions, Reviewable};
use stickdice_evaluation::{factory, Entrant, Format, Tournament};

fn random<G: Game>() -> Entrant<G> {
    Entrant {
        spec: "random".into(),
        factory: factory(|_: &G, seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<G>>),
    }
}

fn greedy<G: stickdice_agents::Evaluate>() -> Entrant<G> {
    Entrant {
        spec: "greedy".into(),
        factory: factory(|_: &G, seed| Box::new(GreedyAgent::new(seed)) as Box<dyn Agent<G>>),
    }
}

/// Greedy with the hand-set evaluation (`greedy:eval=hand`, the default before the learned
/// Issiren evaluation): against the learned default random play wins almost no Issiren game
/// (raw score 0.005 here), leaving no raw variance for the adjustment to reduce.
fn greedy_hand<G: stickdice_agents::Evaluate>() -> Entrant<G> {
    Entrant {
        spec: "greedy:eval=hand".into(),
        factory: factory(|_: &G, seed| {
            let hand = G::evaluator("hand").expect("every game has a hand-set evaluation");
            Box::new(GreedyAgent::new(seed).with_evaluator("hand", hand)) as Box<dyn Agent<G>>
        }),
    }
}

/// Plays the tournament in memory and measures every game's luck.
fn luck_report<G: Reviewable>(
    game: G,
    entrants: Vec<Entrant<G>>,
    games: usize,
    seed: u64,
    reference: &ReferenceOptions,
) -> LuckReport {
    let seats = game.seats();
    let options = LuckOptions::new(&game, reference).unwrap();
    let t = Tournament::new(game, entrants, Format::RoundRobin, games, seed, None).unwrap();
    let mut records: Vec<GameRecord> = t.play_in_memory();
    records.sort_by_key(|g| g.index);
    let lucks: Vec<Vec<f64>> = records.iter().map(|g| (options.luck)(g).unwrap()).collect();
    let refs: Vec<&GameRecord> = records.iter().collect();
    LuckReport::build(&options, t.labels(), seats, &refs, &lucks)
}

/// The two estimates of each agent's mean score agree: their difference (the mean luck)
/// lies within 4 of its standard errors of 0 (a false alarm with probability 6e-5 per
/// check under the null that the luck has mean 0, by the normal approximation), and the
/// two 95% intervals overlap.
fn check_agreement(r: &LuckReport, what: &str) {
    for s in &r.agents {
        let (raw, adj) = (&s.raw, &s.adjusted);
        let (rh, ah) = (raw.high.unwrap() - raw.value, adj.high.unwrap() - adj.value);
        assert!(
            raw.low.unwrap() <= adj.high.unwrap() && adj.low.unwrap() <= raw.high.unwrap(),
            "{what} {}: raw {raw:?}, adjusted {adj:?}",
            s.name
        );
        // The luck's standard error is at most the sum of the two standard errors.
        let se = (rh + ah) / 1.96;
        assert!(
            (raw.value - adj.value).abs() <= 4.0 * se,
            "{what} {}: mean luck {} against {se}",
            s.name,
            raw.value - adj.value
        );
    }
}

#[test]
fn raw_and_adjusted_means_agree() {
    let exact = ReferenceOptions::default();
    let r = luck_report(
        SigElOued::with_seats(2).unwrap(),
        vec![random(), greedy()],
        2000,
        11,
        &exact,
    );
    check_agreement(&r, "sig-el-oued");
    let r = luck_report(
        SigWaDuqqan::with_seats(3).unwrap(),
        vec![random(), random(), random()],
        600,
        12,
        &exact,
    );
    check_agreement(&r, "sig-wa-duqqan 3 players");
    let shallow = ReferenceOptions {
        depth: Some(1),
        ..ReferenceOptions::default()
    };
    let r = luck_report(
        Issiren::with_seats(2).unwrap(),
        vec![random(), greedy_hand()],
        200,
        13,
        &shallow,
    );
    check_agreement(&r, "issiren");
    // Random play is weak at Issiren, so most of the result is skill, and some of the
    // raw variance is still luck.
    for s in &r.agents {
        assert!(s.variance_reduction.unwrap() > 0.0, "{s:?}");
    }
}

/// Sig wa Duqqan has no decisions, so the adjusted score of a game is the seat's start
/// value: a seat's adjusted observations have known variance 0 and mean its exact start
/// value, while its raw ones vary (the seat wins or loses every game of a rotation, which
/// share their throws). The adjusted interval has width 0 up to the solver's rounding and
/// is never wider than the raw one, for every seed and seat count tried. (An agent's raw
/// score per rotation is already exactly 1/2 here, every agent having sat in every seat
/// on the same throws; its adjusted one is too, up to rounding.)
#[test]
fn adjusted_intervals_are_never_wider_where_the_variance_is_known() {
    for (seats, seed) in [(2, 1), (2, 2), (2, 3), (3, 4), (3, 5)] {
        let game = SigWaDuqqan::with_seats(seats).unwrap();
        let start = stickdice_agents::solve::solved(&game)
            .unwrap()
            .expected_scores(&game.initial_state())
            .unwrap();
        let r = luck_report(
            game,
            (0..seats).map(|_| random()).collect(),
            60,
            seed,
            &ReferenceOptions::default(),
        );
        let half =
            |i: &stickdice_evaluation::report::Interval| (i.high.unwrap() - i.low.unwrap()) / 2.0;
        for (s, seat) in r.seats.iter().zip(0..) {
            assert!(
                half(&s.adjusted) <= half(&s.raw),
                "{seats} seats, seed {seed}: {s:?}"
            );
            assert!(half(&s.adjusted) < 1e-9, "{s:?}");
            assert!(half(&s.raw) > 0.05, "{s:?}");
            assert!((s.adjusted.value - start[seat]).abs() < 1e-9, "{s:?}");
        }
        for s in &r.agents {
            assert!(half(&s.adjusted) < 1e-9, "{s:?}");
            assert!((s.adjusted.value - 0.5).abs() < 1e-9, "{s:?}");
            assert!((s.raw.value - 0.5).abs() < 1e-12, "{s:?}");
        }
    }
}
