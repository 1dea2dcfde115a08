//! Strength: over many Issiren games with seats swapped and fixed seeds, greedy beats
//! random and expectimax beats greedy by margins luck cannot explain.

use rand::SeedableRng;
use stickdice::play::play_game;
use stickdice::{Agent, Game, Issiren};
use stickdice_agents::build_str;

/// Plays `pairs` pairs of games (each start with seats swapped) of `a` against `b`, the
/// sticks thrown by a generator seeded per pair, and returns (a's wins, b's wins, draws).
fn duel(game: &Issiren, a: &str, b: &str, pairs: u64) -> (u32, u32, u32) {
    let (mut wa, mut wb, mut draws) = (0, 0, 0);
    for pair in 0..pairs {
        for swap in [false, true] {
            let mut agents: Vec<Box<dyn Agent<Issiren>>> = vec![
                build_str(a, game, 2 * pair).unwrap(),
                build_str(b, game, 2 * pair + 1).unwrap(),
            ];
            if swap {
                agents.swap(0, 1);
            }
            let mut dice = stickdice::Rng::seed_from_u64(1_000_000 + pair);
            let mut state = game.initial_state();
            let ranking = play_game(
                game,
                &mut state,
                &mut agents,
                |_, _| game.sample_throw(&mut dice),
                |_, _, _| {},
            )
            .unwrap();
            let a_seat = usize::from(swap);
            match (
                ranking.is_sole_winner(a_seat),
                ranking.is_sole_winner(1 - a_seat),
            ) {
                (true, _) => wa += 1,
                (_, true) => wb += 1,
                _ => draws += 1,
            }
        }
    }
    (wa, wb, draws)
}

/// The chance of at least `k` successes in `n` fair coin flips (the null hypothesis that
/// the two agents are equally strong, counting decisive games).
fn tail(n: u32, k: u32) -> f64 {
    let mut total = 0.0;
    for i in k..=n {
        let mut ln = 0.0;
        for j in 0..i {
            ln += ((n - j) as f64).ln() - ((j + 1) as f64).ln();
        }
        total += (ln - n as f64 * std::f64::consts::LN_2).exp();
    }
    total
}

/// Greedy against random, 400 games (200 starts, seats swapped). Margin: greedy must win
/// at least 260 of the decisive games; if the two were equally strong, that would happen
/// with probability about 1e-9 (checked below). Measured: 388 of 400.
#[test]
fn greedy_beats_random_at_issiren() {
    let g = Issiren::with_seats(2).unwrap();
    let (w, l, d) = duel(&g, "greedy", "random", 200);
    assert!(w >= 260, "greedy {w} wins, {l} losses, {d} draws");
    assert!(tail(w + l, 260) < 1e-8);
}

/// Expectimax (depth 2) against greedy, 400 games with seats swapped. Margin: at least 225
/// wins of the decisive games, which two equal agents reach with probability below 1%
/// (checked below). Measured: 241 of 400.
#[test]
fn expectimax_beats_greedy_at_issiren() {
    let g = Issiren::with_seats(2).unwrap();
    let (w, l, d) = duel(&g, "expectimax:depth=2", "greedy", 200);
    assert!(w >= 225, "expectimax {w} wins, {l} losses, {d} draws");
    assert!(tail(w + l, 225) < 0.01);
}
