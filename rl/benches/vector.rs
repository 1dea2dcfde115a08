//! Steps per second of the batched environment from Rust: N games of Issiren and of Sig
//! (El Oued Capture), self-play and against `greedy`, for N = 1, 64, 1024 and 4096, with
//! observations and masks written and a legal action chosen per game from its mask; and
//! self-play Issiren with the opt-in legal codes written too (`issiren-codes`), the
//! action chosen from them.
//!
//! `cargo bench -p stickdice-rl --bench vector` (one step of N games is N steps; criterion
//! reports them as elements per second). Results: the book's *Performance: the batched
//! environment* (docs/performance/vector.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use stickdice::AnyGame;
use stickdice_rl::{Buffers, VectorEnv};

/// The `(k mod legal)`-th legal code of every game: varied, and cheap next to a step.
fn choose(buf: &Buffers, num_actions: usize, k: usize, actions: &mut [i64]) {
    for (i, a) in actions.iter_mut().enumerate() {
        let mask = &buf.masks[i * num_actions..][..num_actions];
        let legal = mask.iter().filter(|&&m| m).count();
        *a = if legal == 0 {
            0
        } else {
            mask.iter()
                .enumerate()
                .filter(|(_, &m)| m)
                .nth((k + i) % legal)
                .map_or(0, |(c, _)| c as i64)
        };
    }
}

/// The `(k mod count)`-th of every game's legal codes (−1 where the game has ended).
fn choose_from_codes(buf: &Buffers, width: usize, k: usize, actions: &mut [i64]) {
    let (Some(codes), Some(counts)) = (&buf.legal_codes, &buf.legal_counts) else {
        unreachable!("the buffers have the legal codes")
    };
    for (i, (a, &count)) in actions.iter_mut().zip(counts).enumerate() {
        *a = codes[i * width + (k + i) % count.max(1) as usize];
    }
}

fn bench(c: &mut Criterion) {
    {
        let game = AnyGame::new("issiren", Some(2), &[] as &[&str]).unwrap();
        let mut group = c.benchmark_group("vector/issiren-codes");
        group.sample_size(10);
        for n in [1usize, 64, 1024, 4096] {
            let mut env = VectorEnv::new(&game, n, &[None, None]).unwrap();
            let width = env.max_actions();
            let mut buf = Buffers::new(&env).with_legal_codes(width);
            env.reset(1, buf.out()).unwrap();
            let mut actions = vec![0i64; n];
            let mut k = 0;
            group.throughput(Throughput::Elements(n as u64));
            group.bench_function(format!("n={n}"), |b| {
                b.iter(|| {
                    k += 1;
                    choose_from_codes(&buf, width, k, &mut actions);
                    env.step(&actions, buf.out()).unwrap();
                })
            });
        }
        group.finish();
    }
    for (name, label, opponents) in [
        ("issiren", "issiren", [None, None]),
        ("issiren", "issiren-vs-greedy", [None, Some("greedy")]),
        ("sig-el-oued-capture", "sig-el-oued-capture", [None, None]),
    ] {
        let game = AnyGame::new(name, Some(2), &[] as &[&str]).unwrap();
        let mut group = c.benchmark_group(format!("vector/{label}"));
        group.sample_size(10);
        for n in [1usize, 64, 1024, 4096] {
            let mut env = VectorEnv::new(&game, n, &opponents).unwrap();
            let mut buf = Buffers::new(&env);
            env.reset(1, buf.out()).unwrap();
            let mut actions = vec![0i64; n];
            let na = env.num_actions();
            let mut k = 0;
            group.throughput(Throughput::Elements(n as u64));
            group.bench_function(format!("n={n}"), |b| {
                b.iter(|| {
                    k += 1;
                    choose(&buf, na, k, &mut actions);
                    env.step(&actions, buf.out()).unwrap();
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
