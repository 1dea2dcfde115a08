//! Runs one search on an Issiren middle-game position (the one `agents/benches/mcts.rs`
//! uses) and prints its size, so that `scripts/instructions.sh` can count instructions per
//! MCTS iteration and per expectimax node with callgrind.
//!
//! `cargo run --release --example search -- mcts 2000` (the `mcts` spec's default: the
//! learned evaluation, random playouts cut after 4 throws; that many iterations; prints the
//! iterations), `-- mcts-greedy 2000` (`MctsConfig::default()`: greedy playouts on the
//! learned evaluation) or `-- expectimax 3` (the default expectimax to that depth; prints
//! the nodes visited); `mcts-hand` and `expectimax-hand` are `mcts-greedy` and
//! `expectimax` with the hand-set evaluation (`eval=hand`), as the issue measured them.

use rand::{RngExt as _, SeedableRng};
use stickdice::{ActionList, Game, Issiren, Node};
use stickdice_agents::mcts::{MctsAgent, MctsConfig, Playout};
use stickdice_agents::{Evaluator, Expectimax, ExpectimaxConfig};

/// Half way through the decisions (with two or more actions) of the random game seeded
/// 2024, as the MCTS bench's middle game.
fn middle_game(game: &Issiren) -> <Issiren as Game>::State {
    let mut rng = stickdice::Rng::seed_from_u64(2024);
    let mut state = game.initial_state();
    let mut legal = ActionList::new();
    let mut decisions = Vec::new();
    loop {
        match game.node(&state) {
            Node::Throw(_) => {
                let t = game.sample_throw(&mut rng);
                game.apply_throw_unchecked(&mut state, t);
            }
            Node::Decide(_) => {
                game.legal_actions(&state, &mut legal);
                if legal.len() >= 2 {
                    decisions.push(state);
                }
                let a = legal[rng.random_range(0..legal.len())];
                game.apply_action_unchecked(&mut state, a);
            }
            Node::End => break,
        }
    }
    decisions[(decisions.len() - 1) / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [search, size] = args.as_slice() else {
        return Err(
            "usage: search mcts|mcts-greedy|mcts-hand ITERATIONS | search expectimax|expectimax-hand DEPTH"
                .into(),
        );
    };
    let size: u64 = size.parse()?;
    let game = Issiren::with_seats(2)?;
    let state = middle_game(&game);
    match search.as_str() {
        "mcts" | "mcts-greedy" | "mcts-hand" => {
            let mut config = MctsConfig {
                iterations: Some(size),
                reuse: false,
                ..MctsConfig::default()
            };
            if search == "mcts" {
                // What `mcts` from a spec plays in Issiren with the learned evaluation.
                config.playout = Playout::Random;
            }
            let mut agent = MctsAgent::new(config, 1)?;
            if search == "mcts-hand" {
                agent = agent.with_evaluator("hand", Evaluator::issiren_hand());
            }
            let a = agent.analyze(&game, &state)?;
            // The result on stderr, to compare searches before and after a change.
            eprintln!("{a:?}");
            println!("{}", a.iterations);
        }
        "expectimax" | "expectimax-hand" => {
            let mut x = Expectimax::<Issiren>::new(ExpectimaxConfig::default(), 0);
            if search == "expectimax-hand" {
                x = x.with_evaluator("hand", Evaluator::issiren_hand());
            }
            let r = x.search(&game, &state, size as u32)?;
            eprintln!("{r:?}");
            println!("{}", r.nodes);
        }
        other => return Err(format!("unknown search `{other}`: mcts or expectimax").into()),
    }
    Ok(())
}
