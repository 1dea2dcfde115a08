//! Expectimax and greedy on the three real games: values against brute force and hand
//! computation, Star1/Star2 against plain search on Issiren, evaluation bounds.

use crate::common;

use common::*;
use stickdice::games::issiren::{self, Piece as IPiece};
use stickdice::games::sig_el_oued::{self, Pending, MECCA};
use stickdice::games::sig_wa_duqqan::{self, Piece as DPiece};
use stickdice::{ActionList, Game, Issiren, Node, SigElOued, SigWaDuqqan, Throw};

/// The Issiren state of these pieces, P1 to throw (checked).
fn issiren_state(p1: &[IPiece], p2: &[IPiece]) -> issiren::State {
    issiren::State::try_from(issiren::Position::new(p1, p2)).unwrap()
}
use stickdice_agents::{Evaluate, Expectimax, ExpectimaxConfig, GreedyAgent, Pruning};

fn capped<G: Game>(seats: usize, cap: u32) -> G {
    let mut g = G::with_seats(seats).unwrap();
    g.set_option("max_throws", &cap.to_string()).unwrap();
    g
}

fn config(pruning: Pruning, tt: bool) -> ExpectimaxConfig {
    ExpectimaxConfig {
        pruning,
        tt,
        ..ExpectimaxConfig::default()
    }
}

const VARIANTS: [(Pruning, bool); 4] = [
    (Pruning::None, false),
    (Pruning::Star1, false),
    (Pruning::Star2, false),
    (Pruning::Star2, true),
];

// ---- Issiren --------------------------------------------------------------------------

/// P1 (seat 0) has a moved piece at its circuit position 20; P2 (seat 1) has one piece,
/// at P2's position 59, which is P1's position 59 + 36 - 72 = 23: three steps ahead of P1's
/// piece. One throw is left (cap 1). A throw worth 3 (three green sides: 20/64) captures
/// P2's last piece and wins; every other throw must move the piece elsewhere, and the
/// game ends at the cap in a draw. P1's value: 20/64 + 44/64 / 2 = 0.65625.
#[test]
fn issiren_one_throw_from_the_cap_by_hand() {
    let g: Issiren = capped(2, 1);
    let s = issiren_state(&[IPiece::moved(20)], &[IPiece::moved(59)]);
    assert_eq!(g.validate(&s), Ok(()));
    for (pruning, tt) in VARIANTS {
        let v = Expectimax::<Issiren>::new(config(pruning, tt), 0)
            .value(&g, &s, 4)
            .unwrap();
        assert_eq!((v[0], v[1]), (0.65625, 0.34375), "{pruning:?}");
    }
    // Thrown a 3: the capture is the best action, worth a win.
    let mut s3 = s;
    g.apply_throw(&mut s3, Throw::new(3)).unwrap();
    let r = Expectimax::<Issiren>::new(ExpectimaxConfig::default(), 0)
        .search(&g, &s3, 2)
        .unwrap();
    assert_eq!((r.value, r.exact), (1.0, true));
    let mut greedy = GreedyAgent::new(0);
    let a = stickdice::Agent::choose(&mut greedy, &g, &s3).unwrap();
    let mut after = s3;
    g.apply_action(&mut after, a).unwrap();
    assert_eq!(g.scores(&after).map(|x| x[0]), Some(1.0));
}

/// Small Issiren endgames a few throws from the cap, against brute force to the end.
#[test]
fn issiren_endgames_equal_brute_force() {
    let layouts: [(&[u8], &[u8]); 5] = [
        (&[20, 30], &[59, 5]),
        (&[0, 14], &[40, 51]),
        (&[3, 9, 60], &[10, 47]),
        (&[33], &[1, 2]),
        (&[70, 71], &[32, 33]),
    ];
    let mut checked = 0;
    for (i, (p1, p2)) in layouts.iter().enumerate() {
        for cap in [2u32, 3] {
            let g: Issiren = capped(2, cap);
            let p1: Vec<_> = p1.iter().map(|&p| IPiece::moved(p)).collect();
            let p2: Vec<_> = p2.iter().map(|&p| IPiece::moved(p)).collect();
            let s = issiren_state(&p1, &p2).with_turn((i % 2) as u8);
            assert_eq!(g.validate(&s), Ok(()));
            let want = brute_two_sided(&g, &s, 0);
            for throw in 0..=6 {
                let mut d = s;
                g.apply_throw(&mut d, Throw::new(throw)).unwrap();
                let want_d = brute_two_sided(&g, &d, 0);
                let mover = d.turn() as usize;
                for (pruning, tt) in VARIANTS {
                    let mut x = Expectimax::<Issiren>::new(config(pruning, tt), 0);
                    let v = x.value(&g, &s, 12).unwrap();
                    assert!(
                        (v[0] - want).abs() < 1e-12,
                        "{pruning:?}: {} vs {want}",
                        v[0]
                    );
                    let r = x.search(&g, &d, 12).unwrap();
                    let want_mover = if mover == 0 { want_d } else { 1.0 - want_d };
                    assert!(r.exact);
                    assert!((r.value - want_mover).abs() < 1e-12, "{pruning:?}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 5 * 2 * 7 * VARIANTS.len());
}

/// Random Issiren positions from the opening, middle game and endgame: Star1 and Star2
/// return plain expectimax's values bit for bit (best value, ties, and every root action's
/// value) and visit fewer nodes in total; Star1 never visits more than plain.
#[test]
fn issiren_star1_and_star2_equal_plain_with_fewer_nodes() {
    let g = Issiren::with_seats(2).unwrap();
    let mut totals = [0u64; 3];
    let mut positions = 0;
    for seed in 0..36u64 {
        let min_throws = [0, 40, 120, 250][seed as usize % 4];
        let Some(s) = random_decision(&g, seed, min_throws, 2) else {
            eprintln!("seed {seed}: the game ended before {min_throws} throws");
            continue;
        };
        positions += 1;
        let depth = if seed % 3 == 0 { 3 } else { 2 };
        let mut values = Vec::new();
        let mut nodes = [0u64; 3];
        for (k, pruning) in [Pruning::None, Pruning::Star1, Pruning::Star2]
            .into_iter()
            .enumerate()
        {
            let mut x = Expectimax::<Issiren>::new(config(pruning, false), 0);
            let r = x.search(&g, &s, depth).unwrap();
            nodes[k] = r.nodes;
            let all = if depth == 2 {
                x.analyse(&g, &s, depth).unwrap()
            } else {
                Vec::new()
            };
            values.push((r.value, r.ties, all));
        }
        assert_eq!(values[0], values[1], "star1, seed {seed}");
        assert_eq!(values[0], values[2], "star2, seed {seed}");
        assert!(nodes[1] <= nodes[0], "seed {seed}: star1 {nodes:?}");
        for k in 0..3 {
            totals[k] += nodes[k];
        }
    }
    assert!(positions >= 30);
    assert!(totals[1] < totals[0], "{totals:?}");
    assert!(totals[2] < totals[0], "{totals:?}");
}

/// Every root action's exact value from analysis equals a brute-force-free check: the
/// value of the state after the action searched one decision shallower.
#[test]
fn issiren_analysis_matches_child_values() {
    let g = Issiren::with_seats(2).unwrap();
    let s = random_decision(&g, 5, 100, 3).unwrap();
    let mover = s.turn() as usize;
    let mut x = Expectimax::<Issiren>::new(config(Pruning::Star2, true), 0);
    let all = x.analyse(&g, &s, 2).unwrap();
    let mut legal = ActionList::new();
    g.legal_actions(&s, &mut legal);
    assert_eq!(all.iter().map(|x| x.0).collect::<Vec<_>>(), legal.to_vec());
    for (a, v) in all {
        let mut c = s;
        g.apply_action(&mut c, a).unwrap();
        let plain = Expectimax::<Issiren>::new(config(Pruning::None, false), 0)
            .value(&g, &c, 1)
            .unwrap();
        assert_eq!(v, plain[mover], "{a}");
    }
}

// ---- Sig wa Duqqan --------------------------------------------------------------------

/// Both pieces on idx 18, one throw left, P1 to throw: a sig (4/16) carries P1 onto the
/// Ka'aba and P1 ranks first; otherwise the cap ends the game with both racing, tied.
/// P1: 4/16 + 12/16 / 2 = 0.625.
#[test]
fn sig_wa_duqqan_one_throw_from_the_cap_by_hand() {
    let g: SigWaDuqqan = capped(2, 1);
    let mut s = g.initial_state();
    s = s.with_piece(0, DPiece::Racing(18));
    s = s.with_piece(1, DPiece::Racing(18));
    assert_eq!(g.validate(&s), Ok(()));
    let v = Expectimax::<SigWaDuqqan>::new(ExpectimaxConfig::default(), 0)
        .value(&g, &s, 3)
        .unwrap();
    assert_eq!((v[0], v[1]), (0.625, 0.375));
}

/// Sig wa Duqqan positions a few throws from the cap, two to four seats: the value is the
/// exact expected score of every seat (the game has no decisions).
#[test]
fn sig_wa_duqqan_values_equal_brute_force() {
    for seats in 2..=4 {
        for seed in 0..12u64 {
            let steps = 10 + 7 * seed as usize;
            let big: SigWaDuqqan = capped(seats, 10_000);
            let Some(s) = random_node(&big, seed, steps) else {
                continue;
            };
            if g_over(&big, &s) {
                continue;
            }
            let g: SigWaDuqqan = capped(seats, big.throws_made(&s) + 4);
            let want = brute_maxn(&g, &s);
            let v = Expectimax::<SigWaDuqqan>::new(ExpectimaxConfig::default(), 0)
                .value(&g, &s, 10)
                .unwrap();
            for i in 0..seats {
                assert!(
                    (v[i] - want[i]).abs() < 1e-12,
                    "seat {i}: {v:?} vs {want:?}"
                );
            }
        }
    }
}

fn g_over<G: Game>(g: &G, s: &G::State) -> bool {
    g.node(s) == Node::End
}

// ---- Sig (El Oued) --------------------------------------------------------------------

/// The leftover choice at Mecca, a few throws from the cap: expectimax's choice and value
/// equal brute force to the end, for two and three seats.
#[test]
fn sig_el_oued_leftover_choices_equal_brute_force() {
    for seats in [2usize, 3] {
        for (rest, cap) in [(2u8, 2u32), (4, 2), (9, 3), (13, 2)] {
            let g: SigElOued = capped(seats, 3 + cap);
            let mut s = g.initial_state();
            s = s.with_throws(3);
            s = s.with_pieces_of(0, [MECCA, 0, 0]);
            s = s.with_pieces_of(1, [20, 0, 0]);
            if seats == 3 {
                s = s.with_pieces_of(2, [MECCA, 26, 0]);
            }
            s = s.with_pending(Pending::Leftover { rest });
            assert_eq!(g.validate(&s), Ok(()), "rest {rest}");
            let mut legal = ActionList::<sig_el_oued::Action>::new();
            g.legal_actions(&s, &mut legal);
            assert_eq!(legal.len(), 2);
            let want_maxn = brute_maxn(&g, &s);
            let want_two = brute_two_sided(&g, &s, 0);
            for (pruning, tt) in VARIANTS {
                let r = Expectimax::<SigElOued>::new(config(pruning, tt), 0)
                    .search(&g, &s, 12)
                    .unwrap();
                assert!(r.exact);
                let want = if seats == 2 { want_two } else { want_maxn[0] };
                assert!((r.value - want).abs() < 1e-12, "{seats} seats, rest {rest}");
            }
        }
    }
}

// ---- evaluations ----------------------------------------------------------------------

/// On random states of every game and seat count, every evaluation is in [0, 1], sums to
/// seats / 2 like the scores, and equals the scores at the end.
#[test]
fn evaluations_are_bounded_and_exact_at_the_end() {
    fn check<G: Evaluate>(seats: usize) {
        let g = G::with_seats(seats).unwrap();
        for seed in 0..40u64 {
            for steps in [0usize, 5, 40, 200, 2000, 100_000] {
                let s = match random_node(&g, seed, steps) {
                    Some(s) => s,
                    None => {
                        // Play this seed to its end instead.
                        let mut s = g.initial_state();
                        let mut rng = <stickdice::Rng as rand::SeedableRng>::seed_from_u64(seed);
                        stickdice::play::random_playout(&g, &mut s, &mut rng);
                        s
                    }
                };
                let e = g.evaluate(&s);
                for (i, &v) in e.iter().enumerate() {
                    if i < seats {
                        assert!((0.0..=1.0).contains(&v), "{}: {v}", G::NAME);
                    } else {
                        assert_eq!(v, 0.0);
                    }
                }
                let total: f64 = e.iter().sum();
                assert!((total - seats as f64 / 2.0).abs() < 1e-9, "{}", G::NAME);
                if let Some(scores) = g.scores(&s) {
                    assert_eq!(e, scores, "{}", G::NAME);
                }
            }
        }
    }
    check::<Issiren>(2);
    for seats in [2, 3, 5, 8] {
        check::<SigWaDuqqan>(seats);
        check::<SigElOued>(seats);
    }
}

/// The evaluations read the game the right way round: more material is better in
/// Issiren, a piece nearer the Ka'aba or Mecca is better in the races, and a piece the
/// Ghoula is dragging is worse off than the same piece free.
#[test]
fn evaluations_prefer_the_better_position() {
    let g = Issiren::with_seats(2).unwrap();
    let even = issiren_state(&[IPiece::moved(20)], &[IPiece::moved(10)]);
    let ahead = issiren_state(
        &[IPiece::moved(20), IPiece::moved(40)],
        &[IPiece::moved(10)],
    );
    assert!(g.evaluate(&ahead)[0] > g.evaluate(&even)[0]);
    // P2 to throw with P1's piece three steps in front of P2's (a likely capture) is worse
    // for P1 than the same material out of reach.
    // P2's piece at its position 5 is P1's position 41: P1's piece at 0 is not in reach…
    let safe = issiren_state(
        &[IPiece::moved(20), IPiece::moved(0)],
        &[IPiece::moved(59), IPiece::moved(5)],
    )
    .with_turn(1);
    // …but P1's piece at 44 is three steps ahead of P2's piece at P1-position 41.
    let hit = issiren_state(
        &[IPiece::moved(20), IPiece::moved(44)],
        &[IPiece::moved(59), IPiece::moved(5)],
    )
    .with_turn(1);
    assert!(g.evaluate(&hit)[0] < g.evaluate(&safe)[0]);

    let g = SigWaDuqqan::with_seats(2).unwrap();
    let mut s = g.initial_state();
    s = s.with_piece(0, DPiece::Racing(16));
    s = s.with_piece(1, DPiece::Racing(10));
    assert!(g.evaluate(&s)[0] > 0.5);
    let mut dragged = s;
    dragged = dragged.with_piece(0, DPiece::Racing(5));
    dragged = dragged.with_piece(1, DPiece::Racing(5));
    let mut free = dragged;
    dragged = dragged.with_ghoula(Some(5));
    free = free.with_ghoula(Some(0));
    dragged = dragged.with_piece(1, DPiece::Racing(8));
    free = free.with_piece(1, DPiece::Racing(8));
    assert!(g.evaluate(&dragged)[0] < g.evaluate(&free)[0]);
    let _ = sig_wa_duqqan::KAABA;

    let g = SigElOued::with_seats(2).unwrap();
    let mut s = g.initial_state();
    s = s.with_pieces_of(0, [MECCA, 5, 0]);
    s = s.with_pieces_of(1, [20, 0, 0]);
    assert!(g.evaluate(&s)[0] > 0.5);
}

/// Greedy's choice evaluates (for the mover) as well as the best action does, computed
/// here by applying every action and evaluating the result directly; its ties are broken
/// among exactly the best actions.
#[test]
fn greedy_picks_an_action_with_the_best_evaluation() {
    fn check<G: Evaluate>(seats: usize, min_throws: u32) {
        let g = G::with_seats(seats).unwrap();
        let mut seen = 0;
        for seed in 0..200u64 {
            let Some(s) = random_decision(&g, seed, min_throws, 2) else {
                continue;
            };
            seen += 1;
            let Node::Decide(mover) = g.node(&s) else {
                unreachable!()
            };
            let mut legal = ActionList::new();
            g.legal_actions(&s, &mut legal);
            let value = |a| {
                let mut c = s;
                g.apply_action(&mut c, a).unwrap();
                g.evaluate(&c)[mover]
            };
            let best = legal
                .iter()
                .map(|&a| value(a))
                .fold(f64::NEG_INFINITY, f64::max);
            let mut agent = GreedyAgent::new(seed);
            for _ in 0..4 {
                let a = stickdice::Agent::choose(&mut agent, &g, &s).unwrap();
                assert_eq!(value(a), best, "{} seed {seed}", G::NAME);
            }
            if seen == 25 {
                break;
            }
        }
        assert!(seen > 0, "{}: no decision found", G::NAME);
    }
    check::<Issiren>(2, 0);
    check::<Issiren>(2, 150);
    check::<SigElOued>(2, 0);
    check::<SigElOued>(4, 0);
}
