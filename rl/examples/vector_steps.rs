//! A fixed number of batched steps, for instruction counts and profiles (callgrind,
//! perf): `vector_steps GAME OPPONENT N STEPS [threads|serial] [mask|codes]`, OPPONENT
//! `self` for self-play or an agent spec for P2 (the learner P1). With `mask` (the
//! default) the learner takes the `(k mod legal)`-th legal code of each game's mask; with
//! `codes` the step also writes the opt-in legal codes and counts, and the learner takes
//! the `(k mod count)`-th of them. Prints the steps made and the finished games.
//!
//! `valgrind --tool=callgrind target/release/examples/vector_steps issiren self 1024 100 serial`

use stickdice::AnyGame;
use stickdice_rl::{Buffers, VectorEnv};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    let game = AnyGame::new(&arg(1, "issiren"), None, &[] as &[&str])?;
    let opponent = arg(2, "self");
    let n: usize = arg(3, "1024").parse()?;
    let steps: usize = arg(4, "100").parse()?;
    let seats: Vec<Option<&str>> = (0..game.seats())
        .map(|s| (s > 0 && opponent != "self").then_some(opponent.as_str()))
        .collect();
    let mut env = VectorEnv::new(&game, n, &seats)?;
    env.set_parallel(arg(5, "threads") != "serial");
    let codes = arg(6, "mask") == "codes";
    let width = env.max_actions();
    let mut buf = Buffers::new(&env);
    if codes {
        buf = buf.with_legal_codes(width);
    }
    env.reset(1, buf.out())?;
    let na = env.num_actions();
    let mut actions = vec![0i64; n];
    let mut finished = 0u64;
    for k in 0..steps {
        if let (Some(codes), Some(counts)) = (&buf.legal_codes, &buf.legal_counts) {
            for (i, (a, &count)) in actions.iter_mut().zip(counts).enumerate() {
                *a = codes[i * width + (k + i) % count.max(1) as usize];
            }
            env.step(&actions, buf.out())?;
            finished += buf.players.iter().filter(|&&p| p < 0).count() as u64;
            continue;
        }
        for (i, a) in actions.iter_mut().enumerate() {
            let mask = &buf.masks[i * na..][..na];
            let legal = mask.iter().filter(|&&m| m).count();
            *a = match legal {
                0 => 0,
                l => mask
                    .iter()
                    .enumerate()
                    .filter(|(_, &m)| m)
                    .nth((k + i) % l)
                    .map_or(0, |(c, _)| c as i64),
            };
        }
        env.step(&actions, buf.out())?;
        finished += buf.players.iter().filter(|&&p| p < 0).count() as u64;
    }
    println!("{} steps, {finished} games finished", n * steps);
    Ok(())
}
