//! Tournament speed: games per second of a random-vs-random tournament on each game (the
//! whole run: playing, the JSON-lines log, the report), on 1 and on 2 threads, and the
//! speed-up from 1 to 2 threads (goal: at least 1.8x).
//!
//! `cargo bench -p stickdice-evaluation --bench arena`. After criterion's groups, a
//! summary line per game gives the best-of-5 games/s on 1 and 2 threads and their ratio.

use std::path::PathBuf;
use std::time::Instant;

use criterion::{criterion_group, Criterion, Throughput};
use stickdice::{with_game, Agent, AnyGame, Game};
use stickdice_agents::RandomAgent;
use stickdice_evaluation::{factory, Entrant, Format, RunOptions, Tournament};

/// Games per tournament in criterion's groups (one table of random agents).
const GAMES: usize = 2000;
/// Games per tournament in the speed-up summary: long enough that the fixed costs of a
/// run (threads, files, the report) do not hide the speed-up of playing.
const SUMMARY_GAMES: usize = 20_000;

const GAMES_LIST: [(&str, usize); 4] = [
    ("sig-wa-duqqan", 2),
    ("sig-wa-duqqan", 4),
    ("sig-el-oued", 2),
    ("issiren", 2),
];

fn random_tournament<G: Game>(game: &G, games: usize) -> Tournament<G> {
    let seats = game.seats();
    let entrants = (0..seats.max(2))
        .map(|_| Entrant {
            spec: "random".into(),
            factory: factory(|_: &G, seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<G>>),
        })
        .collect();
    Tournament::new(game.clone(), entrants, Format::RoundRobin, games, 1, None)
        .expect("a valid tournament")
}

fn out_dir(label: &str) -> PathBuf {
    std::env::temp_dir().join(format!("stickdice-bench-{label}-{}", std::process::id()))
}

fn run<G: Game>(t: &Tournament<G>, label: &str, threads: usize) {
    let s = t
        .run(
            &out_dir(label),
            &RunOptions {
                threads: Some(threads),
                restart: true,
                ..RunOptions::default()
            },
        )
        .expect("the tournament runs");
    assert_eq!(s.played, t.schedule().len());
}

fn bench_game<G: Game>(c: &mut Criterion, game: &G, label: &str) {
    let t = random_tournament(game, GAMES);
    let mut group = c.benchmark_group(format!("tournament/{label}"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(t.schedule().len() as u64));
    for threads in [1, 2] {
        group.bench_function(format!("threads-{threads}"), |b| {
            b.iter(|| run(&t, label, threads))
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(out_dir(label));
}

fn tournaments(c: &mut Criterion) {
    for (name, players) in GAMES_LIST {
        let any = AnyGame::new::<&str>(name, Some(players), &[]).expect("a game");
        let label = format!("{name}-{players}p");
        with_game!(&any, |g| bench_game(c, g, &label));
    }
}

fn games_per_second<G: Game>(t: &Tournament<G>, label: &str, threads: usize) -> f64 {
    let start = Instant::now();
    run(t, label, threads);
    t.schedule().len() as f64 / start.elapsed().as_secs_f64()
}

fn speedup_summary() {
    println!(
        "\ngames/s, best of 5 runs of {SUMMARY_GAMES} random-vs-random games (log and report included):"
    );
    for (name, players) in GAMES_LIST {
        let any = AnyGame::new::<&str>(name, Some(players), &[]).expect("a game");
        let label = format!("{name}-{players}p");
        // Interleaved, best of 5 each: the machine may be shared.
        let (one, two) = with_game!(&any, |g| {
            let t = random_tournament(g, SUMMARY_GAMES);
            let (mut one, mut two) = (0.0f64, 0.0f64);
            for _ in 0..5 {
                one = one.max(games_per_second(&t, &label, 1));
                two = two.max(games_per_second(&t, &label, 2));
            }
            (one, two)
        });
        println!(
            "  {label:<18} 1 thread {one:>9.0}   2 threads {two:>9.0}   speed-up {:.2}x",
            two / one
        );
        let _ = std::fs::remove_dir_all(out_dir(&label));
    }
}

criterion_group!(benches, tournaments);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    speedup_summary();
}
