//! MCTS and ISMCTS play whole games of every game, seat count and throw cap legally,
//! reproducibly, with subtree reuse and root parallelism (small budgets, so this is quick
//! in a debug build).

use rand::SeedableRng;
use stickdice::{Agent, AnyGame, GameKind};
use stickdice_agents::ismcts::{IsmctsAgent, IsmctsConfig};
use stickdice_agents::mcts::{MctsAgent, MctsConfig};
use stickdice_agents::RandomAgent;

/// Plays one game with searchers and a random agent in turn round the table; returns the
/// actions chosen, in order. Panics (via `play_game`'s error) on any illegal action.
fn play<G: stickdice::Playouts>(game: &G, seed: u64) -> Vec<String> {
    let mut agents: Vec<Box<dyn Agent<G>>> = (0..game.seats())
        .map(|seat| -> Box<dyn Agent<G>> {
            let s = seed * 10 + seat as u64;
            match seat % 3 {
                0 => Box::new(
                    MctsAgent::with_random_playouts(
                        MctsConfig {
                            iterations: Some(12),
                            threads: 1 + seat % 2,
                            ..MctsConfig::without_evaluation()
                        },
                        s,
                    )
                    .unwrap(),
                ),
                1 => Box::new(
                    IsmctsAgent::with_random_playouts(
                        IsmctsConfig {
                            iterations: Some(12),
                            ..IsmctsConfig::without_evaluation()
                        },
                        s,
                    )
                    .unwrap(),
                ),
                _ => Box::new(RandomAgent::new(s)),
            }
        })
        .collect();
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let mut state = game.initial_state();
    let mut actions = Vec::new();
    stickdice::play::play_game(
        game,
        &mut state,
        &mut agents,
        stickdice::play::rng_throws(game.sticks(), &mut rng),
        |e, _, _| {
            if let stickdice::play::Event::Action(seat, a) = e {
                actions.push(format!("P{}:{a}", seat + 1));
            }
        },
    )
    .unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
    actions
}

#[test]
fn searchers_play_every_game_legally_and_reproducibly() {
    // The list's `game-file` slot plays the selected description: Sig (Tozeur)'s text here.
    stickdice::described::file::select(
        stickdice::described::file::parse(
            "sig-tozeur.toml",
            stickdice::described::games::SigTozeur::TEXT,
        )
        .unwrap(),
    );
    for &kind in GameKind::ALL {
        let (min, max) = kind.seat_range();
        // Defaults, a small throw cap, and each yes/no rule option turned on.
        let mut variants = vec![vec![], vec!["max_throws=60".to_string()]];
        for o in kind.option_names().iter().filter(|o| **o != "max_throws") {
            let on = vec![format!("{o}=true")];
            if AnyGame::new(kind.name(), None, &on).is_ok() {
                variants.push(on);
            }
        }
        for seats in min..=max {
            for options in &variants {
                // A seat count inside the range that the game refuses (Sig (Western
                // Sahara) takes 2 or 4) is skipped.
                let Ok(any) = AnyGame::new(kind.name(), Some(seats), options) else {
                    assert!(AnyGame::new(kind.name(), Some(seats), &[] as &[String]).is_err());
                    continue;
                };
                stickdice::with_game!(&any, |g| {
                    let first = play(g, seats as u64);
                    assert_eq!(
                        first,
                        play(g, seats as u64),
                        "{kind} with {seats} seats, {options:?}: same seeds, different play"
                    );
                });
            }
        }
    }
}
