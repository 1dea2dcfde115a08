//! Property: every agent of this crate answers every decision of every game, rule option
//! and seat count with a legal action, keeps doing so over the following decisions of the
//! same game, and answers a throw or an ended game with an error.

use crate::common;

use common::random_node;
use proptest::prelude::*;
use stickdice::testing::configurations;
use stickdice::{AgentError, Game, Issiren, Node, SigElOued, SigWaDuqqan};
use stickdice_agents::{build_str, Evaluate};

const SPECS: &[&str] = &[
    "random",
    "greedy",
    "expectimax:depth=1",
    "expectimax:depth=2",
    "expectimax:nodes=400",
    "expectimax:depth=2,mode=paranoid",
    "expectimax:depth=2,pruning=star1,tt=false",
    "expectimax:nodes=300,pruning=none",
    "mcts:iterations=60",
    "mcts:iterations=40,playout=greedy,threads=2,reuse=false",
    "ismcts:iterations=60",
    "ismcts:iterations=40,playout=greedy",
];

fn check<G: Evaluate>(
    config: usize,
    spec: usize,
    seed: u64,
    steps: usize,
) -> Result<(), TestCaseError> {
    let configs = configurations::<G>();
    let game = &configs[config % configs.len()];
    let spec = SPECS[spec % SPECS.len()];
    let mut agent = build_str(spec, game, seed).unwrap();
    let mut state = match random_node(game, seed, steps) {
        Some(s) => s,
        None => return Ok(()),
    };
    let mut rng = <stickdice::Rng as rand::SeedableRng>::seed_from_u64(seed ^ 0x5eed);
    agent.new_game(game, 0);
    for _ in 0..30 {
        match game.node(&state) {
            Node::End => {
                prop_assert_eq!(agent.choose(game, &state), Err(AgentError::GameOver));
                break;
            }
            Node::Throw(seat) => {
                prop_assert_eq!(
                    agent.choose(game, &state),
                    Err(AgentError::ThrowDue { seat })
                );
                let t = game.sample_throw(&mut rng);
                agent.observe_throw(game, &state, t);
                game.apply_throw(&mut state, t).unwrap();
            }
            Node::Decide(_) => {
                let a = agent.choose(game, &state).unwrap();
                prop_assert!(
                    game.check_action(&state, a).is_ok(),
                    "{} chose illegal {} in {} {:?}",
                    spec,
                    a,
                    G::NAME,
                    game.options()
                );
                agent.observe_action(game, &state, a);
                game.apply_action(&mut state, a).unwrap();
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn agents_play_legally_in_issiren(c in 0usize..64, a in 0usize..64, seed in any::<u64>(), steps in 0usize..600) {
        check::<Issiren>(c, a, seed, steps)?;
    }

    #[test]
    fn agents_play_legally_in_sig_el_oued(c in 0usize..256, a in 0usize..64, seed in any::<u64>(), steps in 0usize..600) {
        check::<SigElOued>(c, a, seed, steps)?;
    }

    #[test]
    fn agents_play_legally_in_sig_wa_duqqan(c in 0usize..256, a in 0usize..64, seed in any::<u64>(), steps in 0usize..600) {
        check::<SigWaDuqqan>(c, a, seed, steps)?;
    }
}

/// The decisions of Sig (El Oued) are rare in random play; make sure the property saw
/// some, for every seat count.
#[test]
fn el_oued_leftover_decisions_are_answered_legally() {
    for game in configurations::<SigElOued>() {
        let mut found = 0;
        for seed in 0..400u64 {
            let Some(s) = common::random_decision(&game, seed, 0, 2) else {
                continue;
            };
            found += 1;
            for spec in SPECS {
                let mut agent = build_str(spec, &game, seed).unwrap();
                let a = agent.choose(&game, &s).unwrap();
                assert!(game.check_action(&s, a).is_ok());
            }
            if found == 3 {
                break;
            }
        }
        assert!(found > 0 || game.max_throws() < 100, "no decision found");
    }
}
