//! Game review speed: reviewing one logged Issiren game of about 300 throws between two
//! greedy agents with the reference at depth 1, 2 and 3 (the default) — every throw's
//! seven outcomes and every decision's actions valued by the search (goal at the default
//! depth: under 1 s); and the luck of a two-player Sig (El Oued) game with the solved
//! values.
//!
//! `cargo bench -p stickdice-evaluation --bench review`.

use criterion::{criterion_group, criterion_main, Criterion};
use stickdice::play::Event;
use stickdice::{Game, Issiren, SigElOued};
use stickdice_agents::GreedyAgent;
use stickdice_evaluation::arena;
use stickdice_evaluation::factory;
use stickdice_evaluation::log::LoggedEvent;
use stickdice_evaluation::review::{review, ReferenceOptions, Reviewable, BLUNDER};

/// The first seeded greedy-vs-greedy game whose length lies in `range`, as logged events.
fn greedy_game<G: stickdice_agents::Evaluate>(
    game: &G,
    range: std::ops::RangeInclusive<u32>,
) -> Vec<LoggedEvent> {
    let greedy =
        factory(|_: &G, seed| Box::new(GreedyAgent::new(seed)) as Box<dyn stickdice::Agent<G>>);
    for seed in 0.. {
        let r = arena::play(game, &[&greedy, &greedy], seed);
        if r.failure.is_none() && range.contains(&r.throws) {
            return r
                .events
                .iter()
                .map(|e| match e {
                    Event::Throw(_, t) => LoggedEvent::Throw(t.marked()),
                    Event::Action(_, a) => LoggedEvent::Action(a.to_string()),
                })
                .collect();
        }
    }
    unreachable!("some seed gives such a game")
}

fn bench(c: &mut Criterion) {
    let game = Issiren::with_seats(2).expect("two seats");
    let events = greedy_game(&game, 295..=305);
    let throws = events
        .iter()
        .filter(|e| matches!(e, LoggedEvent::Throw(_)))
        .count();
    let mut group = c.benchmark_group(format!("review issiren ({throws} throws)"));
    group.sample_size(10);
    for depth in [1, 2, 3] {
        group.bench_function(format!("depth {depth}"), |b| {
            b.iter(|| {
                // A fresh reference per review, as the command and the report build it.
                let options = ReferenceOptions {
                    depth: Some(depth),
                    ..ReferenceOptions::default()
                };
                let mut reference = game.reference(&options).expect("a reference");
                review(&game, reference.as_mut(), &events, None, BLUNDER).expect("it replays")
            })
        });
    }
    group.finish();

    let game = SigElOued::with_seats(2).expect("two seats");
    let events = greedy_game(&game, 150..=400);
    let mut reference = game
        .reference(&ReferenceOptions::default())
        .expect("solved");
    c.bench_function("review sig-el-oued (solved)", |b| {
        b.iter(|| review(&game, reference.as_mut(), &events, None, BLUNDER).expect("it replays"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
