//! A whole game of Issiren driven through the library: the program throws the sticks
//! itself (as a front end with real sticks would feed them in) and asks an agent for each
//! decision. `cargo run --example first_game`.

use rand::SeedableRng;
use stickdice::{Game, Issiren, Node};
use stickdice_agents::build_str;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game = Issiren::with_seats(2)?;
    let mut state = game.initial_state();
    let mut agents = [
        build_str("expectimax:depth=2", &game, 7)?,
        build_str("greedy", &game, 8)?,
    ];
    let mut sticks = stickdice::Rng::seed_from_u64(1);
    loop {
        match game.node(&state) {
            Node::Throw(_) => {
                // The outcomes and their exact probabilities are listed; here we sample one.
                let throw = game.sample_throw(&mut sticks);
                game.apply_throw(&mut state, throw)?;
            }
            Node::Decide(seat) => {
                let action = agents[seat].choose(&game, &state)?;
                // Checked: an illegal action is an error and changes nothing.
                game.apply_action(&mut state, action)?;
            }
            Node::End => break,
        }
    }
    println!("{}", game.render(&state));
    println!(
        "{} after {} throws",
        game.ranking(&state).expect("ended"),
        game.throws_made(&state)
    );
    Ok(())
}
