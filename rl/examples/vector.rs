//! The batched environment from Rust: 256 games of Issiren, the learner (here a policy
//! that takes the first legal square, else a random legal code) as P1 against `greedy`
//! as P2, for 200 000 steps; prints the learner's mean score over the finished games.
//!
//! `cargo run --release -p stickdice-rl --example vector`

use stickdice::AnyGame;
use stickdice_rl::{Buffers, VectorEnv};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game = AnyGame::new("issiren", None, &["max_throws=1000"])?;
    let mut env = VectorEnv::new(&game, 256, &[None, Some("greedy")])?;
    let mut buf = Buffers::new(&env);
    env.reset(1, buf.out())?;
    let (na, seats) = (env.num_actions(), env.seats());
    let mut actions = vec![0i64; env.len()];
    let (mut finished, mut score) = (0u64, 0.0f64);
    for step in 0..200_000 / env.len() {
        for (i, a) in actions.iter_mut().enumerate() {
            let mask = &buf.masks[i * na..][..na];
            let legal: Vec<usize> = (0..na).filter(|&c| mask[c]).collect();
            *a = match legal.len() {
                0 => 0,
                _ if (step + i) % 2 == 0 => legal[0] as i64,
                k => legal[(step * 7 + i) % k] as i64,
            };
        }
        env.step(&actions, buf.out())?;
        for i in 0..env.len() {
            if buf.terminated[i] || buf.truncated[i] {
                finished += 1;
                score += f64::from(buf.rewards[i * seats]);
            }
        }
    }
    println!(
        "{finished} games finished; the learner's mean score against greedy: {:.3}",
        score / finished.max(1) as f64
    );
    println!("observation layout: {}", env.observation_doc());
    Ok(())
}
