//! The exact solver on the described race games (issue 38): Es-Sîg with 2 players, solved
//! from its description alone (the engine's state, the throw count cleared).

use stickdice::{EsSig, Game, Node, SeedableRng, SigMzab};
use stickdice_agents::solve::{self, Exact, SolveError};

/// Es-Sîg, 2 players: 46 592 states (25 600 of them decisions), solved within the
/// solver's error bounds; the first seat ranks first with probability 0.505 951 406 7 and a
/// game lasts 171.024 964 2 throws on average (both seats out). Then 2 000 games played
/// with the solved policy, the sticks seeded, agree with both figures: each lies within
/// four standard errors of its mean (a fair check fails that way with probability below
/// 1e-4).
#[test]
fn es_sig_two_players_is_solved() {
    let game = EsSig::with_seats(2).unwrap();
    let sol = solve::solve(&game).unwrap();
    let st = sol.stats();
    assert_eq!((st.states, st.decision_nodes), (46_592, 25_600));
    assert!(st.error_bound < 1e-12 && st.throws_error_bound < 1e-9);
    let start = game.initial_state();
    let p0 = sol.first_probability(&start, 0).unwrap();
    let p1 = sol.first_probability(&start, 1).unwrap();
    let len = sol.expected_throws(&start).unwrap();
    assert!((p0 - 0.505_951_406_7).abs() < 1e-9, "{p0}");
    assert!((p0 + p1 - 1.0).abs() < 1e-9);
    assert!((len - 171.024_964_2).abs() < 1e-6, "{len}");

    let games = 2000;
    let mut rng = stickdice::Rng::seed_from_u64(3_800_001);
    let (mut wins0, mut sum, mut sum2) = (0.0, 0.0, 0.0);
    for _ in 0..games {
        let mut s = game.initial_state();
        loop {
            match game.node(&s) {
                Node::End => break,
                Node::Throw(_) => {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw(&mut s, t).unwrap();
                }
                Node::Decide(_) => {
                    let key = s.with_throws(0);
                    let a = sol.best_action(&key).expect("a solved decision");
                    game.apply_action(&mut s, a).unwrap();
                }
            }
        }
        let r = game.ranking(&s).unwrap();
        wins0 += r.score(0);
        let n = f64::from(game.throws_made(&s));
        sum += n;
        sum2 += n * n;
    }
    let g = f64::from(games);
    let (mean_p, mean_len) = (wins0 / g, sum / g);
    let sd_p = (p0 * (1.0 - p0) / g).sqrt();
    let sd_len = ((sum2 / g - mean_len * mean_len) / g).sqrt();
    assert!(
        (mean_p - p0).abs() < 4.0 * sd_p,
        "played {mean_p}, solved {p0}"
    );
    assert!(
        (mean_len - len).abs() < 4.0 * sd_len,
        "played {mean_len} ± {sd_len}, solved {len}"
    );
}

/// The solver refuses a capture game and a race with more seats than it accepts, saying so.
#[test]
fn capture_games_and_more_seats_are_refused() {
    let g = SigMzab::with_seats(2).unwrap();
    assert!(matches!(
        g.solver_support(),
        Err(SolveError::Unsupported(_))
    ));
    let g = EsSig::with_seats(3).unwrap();
    assert!(matches!(
        g.solver_support(),
        Err(SolveError::Unsupported(_))
    ));
    assert!(solve::solve(&g).is_err());
}
