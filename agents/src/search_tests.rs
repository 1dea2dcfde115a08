//! Checks MCTS's and ISMCTS's unit tests share, on the race of the test-support crate:
//! the same seed plays the same game, other seeds play otherwise, and every choice is
//! legal with two to four seats.

use stickdice::{Agent, Game};

use crate::build_str;
use crate::testgame_mcts::{decision_positions, play_actions, Race};

/// The agent `spec` builds for `game`, seeded with `seed`.
pub(crate) fn agent(spec: &str, game: &Race, seed: u64) -> Box<dyn Agent<Race>> {
    build_str(spec, game, seed).unwrap()
}

/// Each spec's agent, seeded alike, plays the same whole two-seat game twice against
/// `random` (in seat `seat`, the throws drawn from seed `dice`), a game of more than five
/// decisions.
pub(crate) fn same_seed_same_games(specs: &[&str], seat: usize, dice: u64) {
    let game = Race::new(2, 60);
    for spec in specs {
        let run = |seed| {
            let mut agents = vec![agent("random", &game, 99)];
            agents.insert(seat, agent(spec, &game, seed));
            play_actions(&game, &mut agents, dice)
        };
        let first = run(1);
        assert!(first.len() > 5, "{spec}: a game with few decisions");
        assert_eq!(first, run(1), "{spec}: same seed, different play");
    }
}

/// Each spec's agent chooses otherwise with seed 2 than with seed 1 at some of 30
/// decisions of the two-seat race.
pub(crate) fn different_seeds_play_differently(specs: &[&str]) {
    let game = Race::new(2, 60);
    let positions = decision_positions(&game, 30, 3);
    for spec in specs {
        let choices = |seed| {
            let mut a = agent(spec, &game, seed);
            positions
                .iter()
                .map(|s| a.choose(&game, s).unwrap())
                .collect::<Vec<_>>()
        };
        assert_ne!(choices(1), choices(2), "{spec}");
    }
}

/// With 2, 3 and 4 seats: each spec's agent chooses a legal action at 40 decisions (drawn
/// with seed `positions + seats`), and agents of `whole` in every seat play a whole game.
pub(crate) fn only_legal_actions_for_two_to_four_seats(
    specs: &[&str],
    whole: &str,
    positions: u64,
) {
    for seats in 2..=4 {
        let game = Race::new(seats, 60);
        for (k, s) in decision_positions(&game, 40, positions + seats as u64)
            .iter()
            .enumerate()
        {
            for spec in specs {
                let a = agent(spec, &game, k as u64).choose(&game, s).unwrap();
                game.check_action(s, a).unwrap();
            }
        }
        let mut agents: Vec<_> = (0..seats).map(|i| agent(whole, &game, i as u64)).collect();
        play_actions(&game, &mut agents, seats as u64);
    }
}
