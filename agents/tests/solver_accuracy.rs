//! The exact figures are accurate to their stated error bound: checked against an
//! independent forward computation (the distribution of the game pushed forward throw by
//! throw) and against figures computed independently (issue 16).

use std::collections::HashMap;

use stickdice::{Game, Node, SigElOued, SigWaDuqqan};
use stickdice_agents::solve::{self, Exact};

/// The expected number of throws to the end, `Σ_k P(the game lasts more than k throws)`,
/// pushing the distribution over states forward one throw at a time (decisions taken by
/// `decide`), until less than 1e-17 of the probability is left.
fn forward_expected_throws<G: Exact>(
    game: &G,
    mut decide: impl FnMut(&G::State) -> G::Action,
) -> f64
where
    G::State: std::hash::Hash + Eq,
{
    let mut start = game.initial_state();
    G::strip_throw_count(&mut start);
    let mut now: HashMap<G::State, f64> = HashMap::from([(start, 1.0)]);
    let mut expected = 0.0;
    let outcomes = game.throw_outcomes();
    for _ in 0..1_000_000 {
        // Settle decisions (they take no throw) until every state waits for a throw.
        let mut settled: HashMap<G::State, f64> = HashMap::new();
        let mut work: Vec<(G::State, f64)> = now.drain().collect();
        while let Some((s, p)) = work.pop() {
            match game.node(&s) {
                Node::End => {}
                Node::Throw(_) => *settled.entry(s).or_insert(0.0) += p,
                Node::Decide(_) => {
                    let mut c = s;
                    game.apply_action(&mut c, decide(&s)).unwrap();
                    G::strip_throw_count(&mut c);
                    work.push((c, p));
                }
            }
        }
        let alive: f64 = settled.values().sum();
        if alive < 1e-17 {
            return expected;
        }
        // One more throw is made with probability `alive`.
        expected += alive;
        for (s, p) in settled {
            for o in outcomes {
                let mut c = s;
                game.apply_throw_unchecked(&mut c, o.throw);
                G::strip_throw_count(&mut c);
                *now.entry(c).or_insert(0.0) += p * o.probability;
            }
        }
    }
    panic!("the game did not end");
}

#[test]
fn sig_wa_duqqan_expected_throws_agree_with_a_forward_computation() {
    let game = SigWaDuqqan::with_seats(2).unwrap();
    let sol = solve::solve(&game).unwrap();
    let st = sol.stats();
    let exact = sol.expected_throws(&game.initial_state()).unwrap();
    eprintln!("{st:?}\nexpected throws {exact:.14}");
    // Accurate to 1e-12: probabilities absolutely, throws relatively (as the tolerance).
    assert!(st.throws_error_bound <= 1e-12 * exact, "{st:?}");
    assert!(st.error_bound <= 1e-12, "{st:?}");
    let forward = forward_expected_throws(&game, |_| unreachable!("no decisions"));
    eprintln!("forward {forward:.14}");
    // The forward sum stops at 1e-17 of probability left (its truncation, about 1e-17
    // times the expected throws, is far below 1e-13); both sums round, by a few units of 1e-14 over thousands of steps.
    assert!(
        (exact - forward).abs() <= st.throws_error_bound + 1e-12,
        "solver {exact:.14}, forward {forward:.14}"
    );
    // The independently computed figure quoted in issue 16 (11 decimals).
    assert!((exact - 132.969_591_807_25).abs() <= 1e-11, "{exact:.14}");
}

#[test]
fn sig_el_oued_optimal_expected_throws_agree_with_an_independent_figure() {
    let game = SigElOued::with_seats(2).unwrap();
    let sol = solve::solve(&game).unwrap();
    let st = sol.stats();
    let exact = sol.expected_throws(&game.initial_state()).unwrap();
    eprintln!("{st:?}\nexpected throws {exact:.14}");
    assert!(st.throws_error_bound <= 1e-12 * exact, "{st:?}");
    assert!(st.error_bound <= 1e-12, "{st:?}");
    // Issue 16's independent figure for solved play (11 decimals).
    assert!((exact - 208.448_282_615_74).abs() <= 1e-11, "{exact:.14}");
}
