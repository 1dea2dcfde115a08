//! The exact solver against the arena (core + agents + evaluation): solved probabilities
//! agree with Monte Carlo frequencies of games played in the arena within 4 standard
//! errors, and the perfect agent never scores below its exact value against any agent
//! (within the sampling error).

use stickdice::games::HoumtTaourit;
use stickdice::{Agent, Game, SigElOued, SigWaDuqqan};
use stickdice_agents::solve::{self, Exact, Solution};
use stickdice_agents::Evaluate;
use stickdice_evaluation::arena::{self, Factory};
use stickdice_evaluation::factory;

fn spec_factory<G: Evaluate>(spec: &str) -> Factory<G> {
    let spec: stickdice_agents::AgentSpec = spec.parse().unwrap();
    factory(move |g: &G, seed| stickdice_agents::build(&spec, g, seed).unwrap())
}

/// Plays `games` games in the arena (every seat `agent`, game seeds 0..games) and checks
/// every outcome class's frequency and the mean number of throws against the solution.
fn monte_carlo<G: Exact + Evaluate>(game: &G, solution: &Solution<G>, agent: &str, games: u64) {
    let f = spec_factory::<G>(agent);
    let seating: Vec<&Factory<G>> = vec![&f; game.seats()];
    let classes = solution.classes();
    let mut counts = vec![0u64; classes.len()];
    let mut throws = Vec::with_capacity(games as usize);
    for seed in 0..games {
        let r = arena::play(game, &seating, seed);
        assert!(r.failure.is_none(), "{:?}", r.failure);
        let c = classes
            .iter()
            .position(|c| {
                c.ranking() == r.ranking
                    && (0..game.seats()).all(|s| c.success(s) == game.success(&r.last_state, s))
            })
            .unwrap_or_else(|| panic!("game {seed} ended in an unsolved class: {:?}", r.ranking));
        counts[c] += 1;
        throws.push(f64::from(r.throws));
    }
    let s0 = game.initial_state();
    let exact = solution.distribution(&s0).unwrap();
    let n = games as f64;
    for ((c, &k), &p) in classes.iter().zip(&counts).zip(&exact) {
        let freq = k as f64 / n;
        let se = (p * (1.0 - p) / n).sqrt().max(1.0 / n);
        assert!(
            (freq - p).abs() <= 4.0 * se,
            "{}: {c}: simulated {freq:.4} ({k} of {games}), exact {p:.4}, 4 SE = {:.4}",
            G::NAME,
            4.0 * se
        );
    }
    let mean = throws.iter().sum::<f64>() / n;
    let var = throws.iter().map(|t| (t - mean) * (t - mean)).sum::<f64>() / (n - 1.0);
    let se = (var / n).sqrt();
    let e = solution.expected_throws(&s0).unwrap();
    assert!(
        (mean - e).abs() <= 4.0 * se,
        "{}: mean throws {mean:.2}, exact {e:.2}, 4 SE = {:.2}",
        G::NAME,
        4.0 * se
    );
}

#[test]
fn sig_wa_duqqan_two_players_matches_the_arena() {
    for exact in ["false", "true"] {
        let mut game = SigWaDuqqan::with_seats(2).unwrap();
        game.set_option("exact_waiting_square", exact).unwrap();
        let solution = solve::solve(&game).unwrap();
        monte_carlo(&game, &solution, "random", 6000);
    }
}

#[test]
fn sig_wa_duqqan_three_players_matches_the_arena() {
    if cfg!(debug_assertions) {
        // About a minute unoptimised (400 000 states); the release run covers it.
        return;
    }
    let game = SigWaDuqqan::with_seats(3).unwrap();
    let solution = solve::solve(&game).unwrap();
    assert_eq!(solution.stats().states, 401_991);
    monte_carlo(&game, &solution, "random", 6000);
}

/// Sig wa Duqqan (Houmt Taourit), two players, under both waiting-square rules: 95 632
/// reachable states each (throw count left out); `perfect` plays it (no decisions, so it
/// is the random process itself).
#[test]
fn houmt_taourit_two_players_matches_the_arena() {
    for (exact, agent) in [("false", "perfect"), ("true", "random")] {
        let mut game = HoumtTaourit::with_seats(2).unwrap();
        game.set_option("exact_waiting_square", exact).unwrap();
        let solution = solve::solved(&game).unwrap();
        assert_eq!(solution.stats().states, 95_632);
        assert_eq!(solution.classes().len(), 3, "{:?}", solution.classes());
        monte_carlo(&game, &solution, agent, 4000);
    }
}

#[test]
fn sig_el_oued_two_players_matches_the_arena_under_perfect_play() {
    for cairo in ["false", "true"] {
        let mut game = SigElOued::with_seats(2).unwrap();
        game.set_option("cairo_always_three", cairo).unwrap();
        let solution = solve::solved(&game).unwrap();
        monte_carlo(&game, &solution, "perfect", 3000);
    }
}

/// The perfect agent, rotated through both seats on the same throws, against each other
/// agent: its mean score minus the exact value of its seat (its chance of winning if the
/// opponent played perfectly too) is at least −4 standard errors. Its exact value is the
/// zero-sum optimum, so no opponent can push it lower in expectation.
#[test]
fn the_perfect_agent_never_loses_expected_value() {
    let game = SigElOued::with_seats(2).unwrap();
    let solution = solve::solved(&game).unwrap();
    let s0 = game.initial_state();
    let value = [
        solution.first_probability(&s0, 0).unwrap(),
        solution.first_probability(&s0, 1).unwrap(),
    ];
    let perfect = spec_factory::<SigElOued>("perfect");
    let rotations: u64 = if cfg!(debug_assertions) { 300 } else { 1500 };
    let opponents: &[&str] = if cfg!(debug_assertions) {
        &["random", "greedy", "expectimax:depth=2"]
    } else {
        &[
            "random",
            "greedy",
            "expectimax:depth=3",
            "mcts:iterations=300",
        ]
    };
    // Always use the leftover, always decline it: simple fixed policies.
    let always = |name: &'static str, pick: usize| -> Factory<SigElOued> {
        factory(move |_: &SigElOued, _| {
            Box::new(stickdice::agent_fn(name, move |g: &SigElOued, s| {
                let mut l = stickdice::ActionList::new();
                g.legal_actions(s, &mut l);
                l[pick.min(l.len() - 1)]
            })) as Box<dyn Agent<SigElOued>>
        })
    };
    let mut others: Vec<(String, Factory<SigElOued>)> = opponents
        .iter()
        .map(|s| (s.to_string(), spec_factory::<SigElOued>(s)))
        .collect();
    others.push(("always the first action".into(), always("first", 0)));
    others.push(("always the last action".into(), always("last", 1)));
    for (name, other) in &others {
        let mut diffs = Vec::new();
        for r in 0..rotations {
            let seed = 1_000_000 + r;
            let mut d = 0.0;
            for (seat, exact) in value.iter().enumerate() {
                let seating: Vec<&Factory<SigElOued>> = if seat == 0 {
                    vec![&perfect, other]
                } else {
                    vec![other, &perfect]
                };
                let result = arena::play(&game, &seating, seed);
                assert!(result.failure.is_none(), "{:?}", result.failure);
                d += result.ranking.score(seat) - exact;
            }
            diffs.push(d / 2.0);
        }
        let n = diffs.len() as f64;
        let mean = diffs.iter().sum::<f64>() / n;
        let sd = (diffs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)).sqrt();
        let se = sd / n.sqrt();
        assert!(
            mean >= -4.0 * se,
            "perfect against {name}: score − exact value = {mean:.4}, 4 SE = {:.4}",
            4.0 * se
        );
    }
}
