//! Steps per second of the batched environment from Rust, for N = 1, 64, 1024 and 4096,
//! with observations and masks written: Issiren in self-play and against `greedy`, a legal
//! action per game chosen from its mask, and again with the opt-in legal codes written and
//! the action chosen from them (`-codes`); and every other game a learner has decisions in,
//! 2-player self-play with the legal codes (`vector/NAME-codes`).
//!
//! `cargo bench -p stickdice-rl --bench vector` (one step of N games is N steps; criterion
//! reports them as elements per second). Results: the book's *Performance: the batched
//! environment* (docs/performance/vector.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use stickdice::AnyGame;
use stickdice_rl::{Buffers, VectorEnv, VectorError};

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

/// One group: `N` games of `game` for each batch size, the actions chosen from the mask
/// or (`codes`) from the legal codes.
fn group(c: &mut Criterion, game: &AnyGame, label: &str, opponents: &[Option<&str>], codes: bool) {
    let mut group = c.benchmark_group(format!("vector/{label}"));
    group.sample_size(10);
    for n in [1usize, 64, 1024, 4096] {
        let mut env = VectorEnv::new(game, n, opponents).unwrap();
        let (na, width) = (env.num_actions(), env.max_actions());
        let mut buf = Buffers::new(&env);
        if codes {
            buf = buf.with_legal_codes(width);
        }
        env.reset(1, buf.out()).unwrap();
        let mut actions = vec![0i64; n];
        let mut k = 0;
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("n={n}"), |b| {
            b.iter(|| {
                k += 1;
                if codes {
                    choose_from_codes(&buf, width, k, &mut actions);
                } else {
                    choose(&buf, na, k, &mut actions);
                }
                env.step(&actions, buf.out()).unwrap();
            })
        });
    }
    group.finish();
}

fn bench(c: &mut Criterion) {
    let issiren = AnyGame::new("issiren", Some(2), &[] as &[&str]).unwrap();
    group(c, &issiren, "issiren-codes", &[None, None], true);
    group(c, &issiren, "issiren", &[None, None], false);
    group(
        c,
        &issiren,
        "issiren-vs-greedy-codes",
        &[None, Some("greedy")],
        true,
    );
    group(
        c,
        &issiren,
        "issiren-vs-greedy",
        &[None, Some("greedy")],
        false,
    );
    // Every other game of the list that a learner has decisions in: 2-player self-play,
    // the actions from the legal codes.
    for kind in stickdice_rl::encodings() {
        if kind.name() == "issiren" {
            continue;
        }
        let game = AnyGame::new(kind.name(), Some(2), &[] as &[&str]).unwrap();
        match VectorEnv::new(&game, 1, &[None, None]) {
            Err(VectorError::NoDecisions { .. }) => continue,
            env => drop(env.unwrap()),
        }
        group(
            c,
            &game,
            &format!("{}-codes", kind.name()),
            &[None, None],
            true,
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
