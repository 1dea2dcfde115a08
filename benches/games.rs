//! Random play speed of each game: throws per second and playouts per second.
//!
//! `cargo bench --bench games`; the book's performance chapters have the figures.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::SeedableRng;
use stickdice::play::random_playout;
use stickdice::AnyGame;

const PLAYOUTS: u64 = 200;

fn bench_game<G: stickdice::Playouts>(c: &mut Criterion, game: &G, label: &str) {
    // Count the throws of the fixed batch once, so criterion can report throws/s.
    let mut rng = stickdice::Rng::seed_from_u64(1);
    let mut throws = 0u64;
    for _ in 0..PLAYOUTS {
        let mut s = game.initial_state();
        random_playout(game, &mut s, &mut rng);
        throws += game.throws_made(&s) as u64;
    }
    let mut group = c.benchmark_group(format!("random-play/{label}"));
    group.throughput(Throughput::Elements(throws));
    group.bench_function("throws", |b| {
        b.iter_batched(
            || stickdice::Rng::seed_from_u64(1),
            |mut rng| {
                let mut total = 0u64;
                for _ in 0..PLAYOUTS {
                    let mut s = game.initial_state();
                    random_playout(game, &mut s, &mut rng);
                    total += game.throws_made(&s) as u64;
                }
                assert_eq!(total, throws, "the batch replays the same games");
                total
            },
            BatchSize::SmallInput,
        )
    });
    group.throughput(Throughput::Elements(PLAYOUTS));
    group.bench_function("playouts", |b| {
        let mut rng = stickdice::Rng::seed_from_u64(2);
        b.iter(|| {
            for _ in 0..PLAYOUTS {
                let mut s = game.initial_state();
                std::hint::black_box(random_playout(game, &mut s, &mut rng));
            }
        })
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    for (name, players) in [
        ("sig-wa-duqqan", 2),
        ("sig-wa-duqqan", 4),
        ("sig-el-oued", 2),
        ("sig-el-oued", 4),
        ("issiren", 2),
        ("sig-mzab", 2),
        ("sig-tozeur", 2),
        ("kioz", 2),
        ("tab", 2),
        ("sijat-el-taba", 2),
        ("es-sig", 2),
        ("es-sig", 4),
        ("sig-western-sahara", 2),
    ] {
        let any = AnyGame::new::<&str>(name, Some(players), &[]).expect("default game");
        let label = format!("{name}-{players}p");
        stickdice::with_game!(&any, |g| bench_game(c, g, &label));
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = games
}
criterion_main!(benches);
