//! A whole game of Issiren driven through the library: the exact throw probabilities, an
//! agent from a spec and one from a closure, seeded sticks, and a state saved and loaded.
//! `cargo run --example first_game`.

use stickdice::{agent_for, ActionList, Agent, Game, Issiren, Node, Present, SeedableRng};
use stickdice_agents::build_str;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let game = Issiren::with_seats(2)?;
    for outcome in game.throw_outcomes() {
        println!(
            "throw {} with probability {}",
            outcome.throw, outcome.probability
        );
    }
    // Seat 1: a searching agent from its spec; seat 2: a closure playing the first legal action.
    let mut agents: Vec<Box<dyn Agent<Issiren>>> = vec![
        build_str("expectimax:depth=2", &game, 7)?,
        Box::new(agent_for(&game, "first", |g, s| {
            let mut legal = ActionList::new();
            g.legal_actions(s, &mut legal);
            legal[0]
        })),
    ];
    let mut sticks = stickdice::Rng::seed_from_u64(1);
    let mut state = game.initial_state();
    loop {
        match game.node(&state) {
            // A front end with real sticks would feed its throw in here instead.
            Node::Throw(_) => game.apply_throw(&mut state, game.sample_throw(&mut sticks))?,
            // Checked: an illegal action is an error and changes nothing.
            Node::Decide(seat) => {
                let action = agents[seat].choose(&game, &state)?;
                game.apply_action(&mut state, action)?
            }
            Node::End => break,
        }
        if game.throws_made(&state) == 20 {
            let saved = game.save_state(&state); // JSON
            assert_eq!(game.load_state(&saved)?, state);
        }
    }
    println!("{}", game.render(&state));
    println!(
        "{} after {} throws",
        game.ranking(&state).ok_or("not over")?,
        game.throws_made(&state)
    );
    Ok(())
}
