//! Plays `count` random playouts of one game from a fixed seed and prints the number of
//! throws made, so that `scripts/instructions.sh` can divide callgrind's instruction counts
//! by it. `cargo run --release --example playouts -- issiren 2 1000`. A reference
//! description (`issiren-described`, `siryu-war-described`: games a hand-written module
//! plays, written in the description format) is played by the description engine.

use rand::SeedableRng;
use stickdice::described::{games::REFERENCE, Described};
use stickdice::play::{random_playout, RandomBits};
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

/// The same playouts for a description that is not a registered game, as `random_playout`
/// plays them.
fn run_described(game: &Described, count: u64) -> u64 {
    let mut rng = stickdice::Rng::seed_from_u64(1);
    let mut throws = 0u64;
    for _ in 0..count {
        let mut s = game.initial_state();
        game.play_random_to_end(&mut s, &mut RandomBits::new(), &mut rng);
        std::hint::black_box(game.ranking(&s));
        throws += u64::from(s.throws());
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
    if let Some(&(_, file, text)) = REFERENCE.iter().find(|(n, _, _)| n == name) {
        let game = Described::from_text(file, text)?.with_seat_count(players)?;
        println!("{}", run_described(&game, count));
        return Ok(());
    }
    let any = AnyGame::new::<&str>(name, Some(players), &[])?;
    let throws = stickdice::with_game!(&any, |g| run(g, count));
    println!("{throws}");
    Ok(())
}
