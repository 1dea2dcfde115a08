//! MCTS search speed on Issiren: iterations per second with the default settings (greedy
//! playouts cut after four throws, a prior) and with plain UCT (random playouts to the
//! end) from an opening, a middle-game and an endgame position (one tree, one core).
//!
//! `cargo bench -p stickdice-agents --bench mcts`. The target on one core: at least
//! 100,000 iterations per second with random playouts from the middle game. Also measured
//! from the middle game, for comparison: random playouts cut after four throws, greedy
//! (ε = 0.1) playouts to the end, and ISMCTS with its defaults and with random playouts.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{RngExt as _, SeedableRng};
use stickdice::{ActionList, Game, Issiren, Node};
use stickdice_agents::ismcts::{IsmctsAgent, IsmctsConfig};
use stickdice_agents::mcts::{MctsAgent, MctsConfig, Playout};

const ITERATIONS: u64 = 2_000;

/// The decision states (with at least two legal actions) of one random game.
fn random_game_decisions(game: &Issiren, seed: u64) -> Vec<<Issiren as Game>::State> {
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let mut state = game.initial_state();
    let mut legal = ActionList::new();
    let mut out = Vec::new();
    loop {
        match game.node(&state) {
            Node::Throw(_) => {
                let t = game.sample_throw(&mut rng);
                game.apply_throw_unchecked(&mut state, t);
            }
            Node::Decide(_) => {
                game.legal_actions(&state, &mut legal);
                if legal.len() >= 2 {
                    out.push(state);
                }
                let a = legal[rng.random_range(0..legal.len())];
                game.apply_action_unchecked(&mut state, a);
            }
            Node::End => return out,
        }
    }
}

/// Opening (the first real choice), middle game (half way through a random game's
/// choices) and endgame (nine tenths of the way).
fn positions(game: &Issiren) -> [(&'static str, <Issiren as Game>::State); 3] {
    let decisions = random_game_decisions(game, 2024);
    let at = |f: f64| decisions[((decisions.len() - 1) as f64 * f) as usize];
    [
        ("opening", decisions[0]),
        ("middle", at(0.5)),
        ("endgame", at(0.9)),
    ]
}

fn mcts(c: &mut Criterion) {
    let game = Issiren::with_seats(2).expect("two seats");
    let mut group = c.benchmark_group("mcts-issiren");
    group.throughput(Throughput::Elements(ITERATIONS));
    for (label, state) in positions(&game) {
        // The defaults: greedy playouts cut after four throws, a prior of ten visits.
        let config = MctsConfig {
            iterations: Some(ITERATIONS),
            reuse: false,
            ..MctsConfig::default()
        };
        let mut agent = MctsAgent::new(config, 1).expect("valid config");
        group.bench_function(format!("default/{label}"), |b| {
            b.iter(|| agent.analyze(&game, &state).expect("a decision").iterations)
        });
        // The same with the hand-set evaluation (`eval=hand`, the default before the
        // learned one).
        let mut agent = MctsAgent::new(config, 1)
            .expect("valid config")
            .with_evaluator("hand", stickdice_agents::Evaluator::issiren_hand());
        group.bench_function(format!("default-eval-hand/{label}"), |b| {
            b.iter(|| agent.analyze(&game, &state).expect("a decision").iterations)
        });
        // Plain UCT: random playouts to the end.
        let config = MctsConfig {
            iterations: Some(ITERATIONS),
            reuse: false,
            ..MctsConfig::without_evaluation()
        };
        let mut agent = MctsAgent::with_random_playouts(config, 1).expect("valid config");
        group.bench_function(format!("random-playouts/{label}"), |b| {
            b.iter(|| agent.analyze(&game, &state).expect("a decision").iterations)
        });
    }
    let (_, middle) = positions(&game)[1];
    let variants = [
        (
            "random-cutoff-4/middle",
            MctsConfig {
                playout: Playout::Random,
                ..MctsConfig::default()
            },
        ),
        (
            "greedy-playouts-to-the-end/middle",
            MctsConfig {
                cutoff: 0,
                prior: 0.0,
                ..MctsConfig::default()
            },
        ),
    ];
    for (label, config) in variants {
        let config = MctsConfig {
            iterations: Some(ITERATIONS),
            reuse: false,
            ..config
        };
        let mut agent = MctsAgent::new(config, 1).expect("valid config");
        group.bench_function(label, |b| {
            b.iter(|| {
                agent
                    .analyze(&game, &middle)
                    .expect("a decision")
                    .iterations
            })
        });
    }
    for (label, config) in [
        ("ismcts-default/middle", IsmctsConfig::default()),
        (
            "ismcts-random-playouts/middle",
            IsmctsConfig::without_evaluation(),
        ),
    ] {
        let config = IsmctsConfig {
            iterations: Some(ITERATIONS),
            ..config
        };
        let mut agent = IsmctsAgent::new(config, 1).expect("valid config");
        group.bench_function(label, |b| {
            b.iter(|| {
                agent
                    .analyze(&game, &middle)
                    .expect("a decision")
                    .iterations
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = mcts
}
criterion_main!(benches);
