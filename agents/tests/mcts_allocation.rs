//! MCTS and ISMCTS allocate nothing per iteration once their arenas have grown: a search
//! no bigger than an earlier one makes no heap allocation at all. Counted by a global
//! allocator that tallies this thread's allocations.

use rand::{RngExt as _, SeedableRng};
use stickdice::{ActionList, Game, Issiren, Node};
use stickdice_agents::ismcts::{IsmctsAgent, IsmctsConfig};
use stickdice_agents::mcts::{MctsAgent, MctsConfig};

use stickdice_testkit::counting::allocations;

/// A decision with several actions some way into a random game.
fn middle_game(game: &Issiren) -> <Issiren as Game>::State {
    let mut rng = stickdice::Rng::seed_from_u64(3);
    let mut state = game.initial_state();
    let mut legal = ActionList::new();
    let mut decisions = 0;
    loop {
        match game.node(&state) {
            Node::Throw(_) => {
                let t = game.sample_throw(&mut rng);
                game.apply_throw_unchecked(&mut state, t);
            }
            Node::Decide(_) => {
                game.legal_actions(&state, &mut legal);
                if legal.len() >= 3 && decisions >= 40 {
                    return state;
                }
                decisions += 1;
                let a = legal[rng.random_range(0..legal.len())];
                game.apply_action_unchecked(&mut state, a);
            }
            Node::End => panic!("the game ended before a middle-game choice"),
        }
    }
}

/// Allocations made by `f`.
fn count(f: impl FnOnce()) -> u64 {
    let before = allocations();
    f();
    allocations() - before
}

/// Checks one MCTS and one ISMCTS agent.
fn check(game: &Issiren, mut mcts: MctsAgent<Issiren>, mut ismcts: IsmctsAgent<Issiren>) {
    let state = middle_game(game);
    // A first search grows the arenas by doubling: a few dozen allocations for 1000
    // iterations, not one per iteration.
    let first = count(|| {
        mcts.analyze(game, &state).unwrap();
    });
    assert!(first <= 40, "MCTS: {first} allocations in a first search");
    let first = count(|| {
        ismcts.analyze(game, &state).unwrap();
    });
    assert!(first <= 40, "ISMCTS: {first} allocations in a first search");
    // Later searches of the same size reuse the storage (at most a last doubling when
    // the tree happens to outgrow the first one).
    for _ in 0..3 {
        let again = count(|| {
            mcts.analyze(game, &state).unwrap();
        });
        assert!(again <= 2, "MCTS: {again} allocations in a warm search");
        let again = count(|| {
            ismcts.analyze(game, &state).unwrap();
        });
        assert!(again <= 2, "ISMCTS: {again} allocations in a warm search");
    }
}

#[test]
fn searches_allocate_only_to_grow_their_arenas() {
    let game = Issiren::with_seats(2).unwrap();
    // Plain: random playouts to the end.
    let mcts = MctsAgent::with_random_playouts(
        MctsConfig {
            iterations: Some(1000),
            reuse: false,
            ..MctsConfig::without_evaluation()
        },
        1,
    )
    .unwrap();
    let ismcts = IsmctsAgent::with_random_playouts(
        IsmctsConfig {
            iterations: Some(1000),
            ..IsmctsConfig::without_evaluation()
        },
        1,
    )
    .unwrap();
    check(&game, mcts, ismcts);
    // The defaults: greedy playouts cut and scored by the evaluation, MCTS's prior.
    let mcts = MctsAgent::new(
        MctsConfig {
            iterations: Some(1000),
            reuse: false,
            ..MctsConfig::default()
        },
        1,
    )
    .unwrap();
    let ismcts = IsmctsAgent::new(
        IsmctsConfig {
            iterations: Some(1000),
            ..IsmctsConfig::default()
        },
        1,
    )
    .unwrap();
    check(&game, mcts, ismcts);
}
