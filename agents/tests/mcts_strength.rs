//! MCTS and ISMCTS against the random agent, and MCTS against the greedy agent, on
//! Issiren, over many games with seats swapped and fixed seeds. Heavy: runs in release
//! builds (`cargo test --release -p stickdice-agents --test integration mcts_strength::`: about 25 s on
//! two cores, nearly all of it the games against greedy) and is ignored in debug builds.
//!
//! The statistic is the number of games the searcher wins outright out of `n` independent
//! games (the searcher alternates seats; both orders of a pair use the same dice seed).
//! Under the null hypothesis that it plays no better than its opponent, a win is at most as
//! likely as a loss, so each game is a win with probability at most ½ and the win count is
//! at most a Binomial(n, ½) (the tail probabilities are computed exactly below).
//!
//! * Against random: at least 75 wins out of 100 games at 250 iterations;
//!   P(X ≥ 75) = 2.8·10⁻⁷ under the null. Measured: 98 wins for MCTS and 96 for ISMCTS
//!   with their defaults (greedy playouts cut after four throws); 90 each with the old
//!   defaults (random playouts to the end).
//! * Against greedy, the one-ply agent that knows the evaluation and beats random in 97%
//!   of games: MCTS with its defaults at 1000 iterations must win at least 450 of 800
//!   games; P(X ≥ 450) = 2.3·10⁻⁴ under the null. Measured: 480 wins (0.60; 984 of the
//!   first 1600 games, 0.615) against greedy on the TD-trained network; 460 (0.575) since
//!   greedy's network is the search-distilled one (a stronger opponent). So the margin is
//!   now under one standard deviation of the win count above the threshold: a change that
//!   keeps MCTS's strength but changes its random stream may well fail here. (Plain UCT —
//!   `mcts:playout=random,cutoff=0,prior=0,c=1.4` — scores about 0.23 against greedy at
//!   1000 iterations; see the [`mcts`](stickdice_agents::mcts) docs.)

use rand::SeedableRng;
use rayon::prelude::*;
use stickdice::{Agent, Game, Issiren};
use stickdice_agents::{build_str, GreedyAgent, RandomAgent};

const GAMES: u64 = 100;
const REQUIRED_WINS: u64 = 75;
const ITERATIONS: u64 = 250;

const GREEDY_GAMES: u64 = 800;
const REQUIRED_WINS_OVER_GREEDY: u64 = 450;
const ITERATIONS_AGAINST_GREEDY: u64 = 1000;

/// P(X ≥ k) for X ~ Binomial(n, ½), exactly (in f64).
fn binomial_tail_half(n: u64, k: u64) -> f64 {
    let mut total = 0.0;
    let mut c = 1.0f64; // C(n, 0)
    for i in 0..=n {
        if i >= k {
            total += c;
        }
        c = c * (n - i) as f64 / (i + 1) as f64;
    }
    total / 2f64.powi(n as i32)
}

/// Game `g` (0-based) of a match: the searcher sits in seat `g % 2`, the dice come from
/// seed `g / 2`, the opponent is `opponent(g)`. Whether the searcher won outright.
fn searcher_wins(
    game: &Issiren,
    g: u64,
    searcher: Box<dyn Agent<Issiren>>,
    opponent: &dyn Fn(u64) -> Box<dyn Agent<Issiren>>,
) -> bool {
    let seat = (g % 2) as usize;
    let mut agents: Vec<Box<dyn Agent<Issiren>>> = vec![opponent(g), opponent(g)];
    agents[seat] = searcher;
    let mut rng = stickdice::Rng::seed_from_u64(stickdice::seed::derive(g / 2, &[0]));
    let mut state = game.initial_state();
    let ranking = stickdice::play::play_game(
        game,
        &mut state,
        &mut agents,
        stickdice::play::rng_throws(game.sticks(), &mut rng),
        |_, _, _| {},
    )
    .expect("both agents play legally");
    ranking.is_sole_winner(seat)
}

fn random_opponent(g: u64) -> Box<dyn Agent<Issiren>> {
    Box::new(RandomAgent::new(stickdice::seed::derive(g, &[1])))
}

fn greedy_opponent(g: u64) -> Box<dyn Agent<Issiren>> {
    Box::new(GreedyAgent::new(stickdice::seed::derive(g, &[1])))
}

/// The searcher's outright wins in `games` games against `opponent`.
fn wins_against(
    games: u64,
    make: impl Fn(u64) -> Box<dyn Agent<Issiren>> + Sync,
    opponent: fn(u64) -> Box<dyn Agent<Issiren>>,
) -> u64 {
    let game = Issiren::with_seats(2).unwrap();
    // Games are independent and each fully seeded, so playing them in parallel changes
    // nothing but the time.
    (0..games)
        .into_par_iter()
        .filter(|&g| searcher_wins(&game, g, make(g), &opponent))
        .count() as u64
}

fn wins(make: impl Fn(u64) -> Box<dyn Agent<Issiren>> + Sync) -> u64 {
    wins_against(GAMES, make, random_opponent)
}

#[test]
fn the_null_probability_is_what_the_docs_say() {
    let p = binomial_tail_half(GAMES, REQUIRED_WINS);
    assert!((2.7e-7..2.9e-7).contains(&p), "{p}");
    // Sanity of the computation: the whole distribution sums to 1; all heads is 2^-n.
    let p = binomial_tail_half(GREEDY_GAMES, REQUIRED_WINS_OVER_GREEDY);
    assert!((2.28e-4..2.30e-4).contains(&p), "{p}");
    assert!((binomial_tail_half(GAMES, 0) - 1.0).abs() < 1e-12);
    assert!((binomial_tail_half(10, 10) - 1.0 / 1024.0).abs() < 1e-15);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "heavy: run with --release")]
fn mcts_beats_random_on_issiren() {
    let won = wins(|g| {
        build_str(
            &format!("mcts:iterations={ITERATIONS}"),
            &Issiren::with_seats(2).unwrap(),
            g,
        )
        .unwrap()
    });
    eprintln!("MCTS won {won} of {GAMES} games against random");
    assert!(
        won >= REQUIRED_WINS,
        "MCTS won {won} of {GAMES} games against random (needed {REQUIRED_WINS}, which has \
         probability {:.1e} under the null)",
        binomial_tail_half(GAMES, REQUIRED_WINS)
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "heavy: run with --release")]
fn ismcts_beats_random_on_issiren() {
    let won = wins(|g| {
        build_str(
            &format!("ismcts:iterations={ITERATIONS}"),
            &Issiren::with_seats(2).unwrap(),
            g,
        )
        .unwrap()
    });
    eprintln!("ISMCTS won {won} of {GAMES} games against random");
    assert!(
        won >= REQUIRED_WINS,
        "ISMCTS won {won} of {GAMES} games against random (needed {REQUIRED_WINS}, which has \
         probability {:.1e} under the null)",
        binomial_tail_half(GAMES, REQUIRED_WINS)
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "heavy: run with --release")]
fn mcts_beats_greedy_on_issiren() {
    let won = wins_against(
        GREEDY_GAMES,
        |g| {
            build_str(
                &format!("mcts:iterations={ITERATIONS_AGAINST_GREEDY}"),
                &Issiren::with_seats(2).unwrap(),
                g,
            )
            .unwrap()
        },
        greedy_opponent,
    );
    eprintln!("MCTS won {won} of {GREEDY_GAMES} games against greedy");
    assert!(
        won >= REQUIRED_WINS_OVER_GREEDY,
        "MCTS won {won} of {GREEDY_GAMES} games against greedy (needed \
         {REQUIRED_WINS_OVER_GREEDY}, which has probability {:.1e} under the null)",
        binomial_tail_half(GREEDY_GAMES, REQUIRED_WINS_OVER_GREEDY)
    );
}
