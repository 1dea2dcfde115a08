//! Plays `count` random playouts of one game from a fixed seed and prints the number of
//! throws made, so that `scripts/instructions.sh` can divide callgrind's instruction counts
//! by it. `cargo run --release --example playouts -- issiren 2 1000`.

use rand::SeedableRng;
use stickdice::play::random_playout;
use stickdice::AnyGame;

fn run<G: stickdice::Playouts>(game: &G, count: u64) -> u64 {
    let mut rng = stickdice::Rng::seed_from_u64(1);
    let mut throws = 0u64;
    for _ in 0..count {
        let mut s = game.initial_state();
        std::hint::black_box(random_playout(game, &mut s, &mut rng));
        throws += game.throws_made(&s) as u64;
    }
    throws
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, players, count] = args.as_slice() else {
        return Err("usage: playouts GAME PLAYERS COUNT".into());
    };
    let players: usize = players.parse()?;
    let count: u64 = count.parse()?;
    let any = AnyGame::new::<&str>(name, Some(players), &[])?;
    let throws = stickdice::with_game!(&any, |g| run(g, count));
    println!("{throws}");
    Ok(())
}
