//! Expectimax against independent brute force, Star1/Star2 against plain search, budgets,
//! seeds and errors — on the Dash test race (exact values are cheap there).

use crate::common;

use common::*;
use stickdice::{ActionList, Agent, AgentError, Game, Node, Throw};
use stickdice_agents::{build_str, Evaluate, Expectimax, ExpectimaxConfig, Mode, Pruning};
use stickdice_testkit::dash::{Dash, DashMove, DashState};

fn config(pruning: Pruning, tt: bool) -> ExpectimaxConfig {
    ExpectimaxConfig {
        pruning,
        tt,
        ..ExpectimaxConfig::default()
    }
}

const ALL: [(Pruning, bool); 6] = [
    (Pruning::None, false),
    (Pruning::Star1, false),
    (Pruning::Star2, false),
    (Pruning::None, true),
    (Pruning::Star1, true),
    (Pruning::Star2, true),
];

/// Dash positions a few throws from the cap, so whole games fit in a brute force.
fn endgames(seats: usize, count: usize, left: u32) -> Vec<(Dash, DashState)> {
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < count {
        seed += 1;
        let cap = 6 + (seed % 7) as u32;
        let g = Dash::new(seats, 4, cap);
        if let Some(s) = random_decision(&g, seed, cap - left, 2) {
            out.push((g, s));
        }
    }
    out
}

#[test]
fn two_seat_values_equal_brute_force_to_the_end_of_the_game() {
    for (g, s) in endgames(2, 40, 4) {
        let want = brute_two_sided(&g, &s, 0);
        let mover = s.turn as usize;
        let want_mover = if mover == 0 { want } else { 1.0 - want };
        for (pruning, tt) in ALL {
            let mut x = Expectimax::<Dash>::new(config(pruning, tt), 1);
            let r = x.search(&g, &s, 30).unwrap();
            assert!(r.exact, "{pruning:?}: the search should reach every end");
            assert!(
                (r.value - want_mover).abs() < 1e-12,
                "{pruning:?} tt={tt}: {} vs brute force {want_mover} at {s:?}",
                r.value
            );
            let v = x.value(&g, &s, 30).unwrap();
            assert!((v[0] - want).abs() < 1e-12 && (v[1] - (1.0 - want)).abs() < 1e-12);
        }
    }
}

#[test]
fn a_hand_built_position_has_the_value_worked_out_by_hand() {
    // Two seats, goal 4, one throw left (cap 1). P1 to decide with 3 to move: piece 0 on
    // square 1 reaches the goal (4) but the other piece (on 0) keeps P1 from winning; the
    // game then ends at the cap in a draw whatever P1 does -> value 0.5 for P1.
    let g = Dash::new(2, 4, 1);
    let mut s = g.initial_state();
    s.pos[0] = [1, 0];
    s.throws = 1;
    s.pending = 3;
    let r = Expectimax::<Dash>::new(ExpectimaxConfig::default(), 0)
        .search(&g, &s, 5)
        .unwrap();
    assert_eq!(r.value, 0.5);
    assert_eq!(r.ties, 2);
    assert!(r.exact);
    // With P1's other piece already home, moving piece 0 home (1 + 3 = 4) wins: value 1,
    // and it is the only legal action.
    let mut s2 = s;
    s2.pos[0] = [1, 4];
    let r = Expectimax::<Dash>::new(ExpectimaxConfig::default(), 0)
        .search(&g, &s2, 5)
        .unwrap();
    assert_eq!((r.value, r.best, r.ties), (1.0, DashMove(0), 1));
    // Two throws left, P2 to throw next after a P1 move that does not win. P1 (piece on
    // 3 and 0, value 1) can only reach 4 with piece 0: no win. Then P2 throws once with
    // pieces on [3, 4]: a throw of 1..4 moves piece 0 home and wins (15/16), a 0 draws.
    let g = Dash::new(2, 4, 2);
    let mut s3 = g.initial_state();
    s3.pos[0] = [3, 0];
    s3.pos[1] = [3, 4];
    s3.throws = 1;
    s3.pending = 1;
    let a = Expectimax::<Dash>::new(ExpectimaxConfig::default(), 0)
        .analyse(&g, &s3, 5)
        .unwrap();
    // p0: 3 -> 4 (P2's piece on 3 is captured? no: the goal square captures nothing), P2
    // wins with 15/16: P1 scores 1/32. p1: 0 -> 1, then P2 the same: 1/32 as well.
    assert_eq!(
        a,
        vec![(DashMove(0), 0.5 / 16.0), (DashMove(1), 0.5 / 16.0)]
    );
}

#[test]
fn many_seats_match_brute_force_max_n_and_paranoid() {
    for seats in [3, 4] {
        for (g, s) in endgames(seats, 15, 3) {
            let want = brute_maxn(&g, &s);
            let mut x = Expectimax::<Dash>::new(config(Pruning::Star2, true), 1);
            let v = x.value(&g, &s, 30).unwrap();
            for i in 0..seats {
                assert!((v[i] - want[i]).abs() < 1e-12, "max^n {v:?} vs {want:?}");
            }
            let mover = s.turn as usize;
            let r = x.search(&g, &s, 30).unwrap();
            assert!((r.value - want[mover]).abs() < 1e-12);
            let want_p = brute_two_sided(&g, &s, mover);
            for (pruning, tt) in ALL {
                let mut p = Expectimax::<Dash>::new(
                    ExpectimaxConfig {
                        mode: Mode::Paranoid,
                        ..config(pruning, tt)
                    },
                    1,
                );
                let r = p.search(&g, &s, 30).unwrap();
                assert!(
                    (r.value - want_p).abs() < 1e-12,
                    "paranoid {pruning:?}: {} vs {want_p}",
                    r.value
                );
            }
        }
    }
}

#[test]
fn depth_limited_values_follow_the_documented_depth_rule() {
    let g = Dash::new(2, 6, 200);
    for seed in 0..30 {
        let Some(s) = random_decision(&g, seed, 2, 2) else {
            continue;
        };
        for depth in 1..=3 {
            let want = brute_depth_two_seats(&g, &s, depth);
            let mover = s.turn as usize;
            let want = if mover == 0 { want } else { 1.0 - want };
            let r = Expectimax::<Dash>::new(config(Pruning::None, false), 0)
                .search(&g, &s, depth)
                .unwrap();
            assert!((r.value - want).abs() < 1e-12, "depth {depth}");
        }
    }
}

/// Star1 and Star2 against plain expectimax on many random Dash positions: the same
/// values, bit for bit, for the best action and for every action (analysis), at two and
/// three seats (paranoid). Star1 never visits more nodes than plain search (it searches
/// a subset of the same tree). Dash, with two actions per decision and smooth
/// evaluations, gives Star2's probes little to cut; the node savings are asserted on
/// Issiren (tests/games.rs).
#[test]
fn star1_and_star2_return_plain_values_on_random_positions() {
    let mut totals = [0u64; 3];
    let mut positions = 0;
    for seats in [2usize, 3] {
        let mode = if seats == 2 {
            Mode::MaxN
        } else {
            Mode::Paranoid
        };
        for seed in 0..150u64 {
            let g = Dash::new(seats, 8, 400);
            let Some(s) = random_decision(&g, seed, (seed % 20) as u32, 2) else {
                continue;
            };
            positions += 1;
            for depth in [2, 4] {
                let mut values = Vec::new();
                let mut nodes = [0u64; 3];
                for (k, pruning) in [Pruning::None, Pruning::Star1, Pruning::Star2]
                    .into_iter()
                    .enumerate()
                {
                    for tt in [false, true] {
                        let mut x = Expectimax::<Dash>::new(
                            ExpectimaxConfig {
                                mode,
                                ..config(pruning, tt)
                            },
                            0,
                        );
                        let r = x.search(&g, &s, depth).unwrap();
                        let all = x.analyse(&g, &s, depth).unwrap();
                        values.push((r.value, r.ties, all));
                        if !tt {
                            nodes[k] = r.nodes;
                        }
                    }
                }
                for (k, v) in values.iter().enumerate() {
                    assert_eq!(
                        &values[0], v,
                        "variant {k} differs, seed {seed} depth {depth}"
                    );
                }
                assert!(nodes[1] <= nodes[0], "star1 visited more nodes than plain");
                for k in 0..3 {
                    totals[k] += nodes[k];
                }
            }
        }
    }
    assert!(positions > 200);
    assert!(totals[1] < totals[0], "star1 {totals:?}");
}

#[test]
fn depth_one_agrees_with_greedy() {
    let g = Dash::new(2, 6, 200);
    for seed in 0..40 {
        let Some(s) = random_decision(&g, seed, 0, 2) else {
            continue;
        };
        let greedy = stickdice_agents::GreedyAgent::values(&g, &s).unwrap();
        let best = greedy.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let r = Expectimax::<Dash>::new(config(Pruning::Star2, true), 0)
            .search(&g, &s, 1)
            .unwrap();
        // Two seats: the search's (e0 + 1 - e1)/2 equals the greedy evaluation up to
        // rounding, since Dash's evaluation sums to one.
        assert!((r.value - best).abs() < 1e-12);
    }
}

#[test]
fn budgets_deepen_reproducibly_and_stop() {
    let g = Dash::new(2, 8, 400);
    let s = random_decision(&g, 3, 10, 2).unwrap();
    let mut shallow = build_str("expectimax:nodes=2000", &g, 9).unwrap();
    let a = shallow.choose(&g, &s).unwrap();
    assert!(g.check_action(&s, a).is_ok());
    let mut x = Expectimax::<Dash>::new(
        ExpectimaxConfig {
            nodes: Some(50_000),
            ..ExpectimaxConfig::default()
        },
        4,
    );
    let r1 = x.think(&g, &s).unwrap();
    let r2 = Expectimax::<Dash>::new(*x.config(), 4)
        .think(&g, &s)
        .unwrap();
    assert_eq!(r1, r2, "the same seed and node budget give the same search");
    assert!(r1.depth >= 2);
    // The budget binds: the finished iteration's nodes plus the aborted one's stay
    // within the budget plus what one more node costs.
    assert!(r1.nodes <= 50_001, "{}", r1.nodes);
    // The deepest finished iteration equals a fixed-depth search to that depth.
    let fixed = Expectimax::<Dash>::new(ExpectimaxConfig::default(), 4)
        .search(&g, &s, r1.depth)
        .unwrap();
    assert_eq!(fixed.value, r1.value);
    // A time budget finishes too.
    let mut t = build_str("expectimax:millis=20", &g, 1).unwrap();
    assert!(g.check_action(&s, t.choose(&g, &s).unwrap()).is_ok());
    // Close to the end, deepening stops as soon as the value is exact.
    let (g, s) = endgames(2, 1, 3).pop().unwrap();
    let r = Expectimax::<Dash>::new(
        ExpectimaxConfig {
            nodes: Some(u64::MAX / 2),
            ..ExpectimaxConfig::default()
        },
        0,
    )
    .think(&g, &s)
    .unwrap();
    assert!(r.exact && r.depth < 64);
}

#[test]
fn same_seed_same_choices_and_seeds_break_ties_differently() {
    // A position with two equally good actions: both pieces on the same square.
    let g = Dash::new(2, 6, 200);
    let mut s = g.initial_state();
    s.pending = 2;
    for spec in [
        "greedy",
        "expectimax:depth=2",
        "expectimax:depth=2,pruning=none",
    ] {
        let picks = |seed| {
            let mut a = build_str(spec, &g, seed).unwrap();
            (0..20)
                .map(|_| a.choose(&g, &s).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(1), picks(1), "{spec}");
        let p = picks(1);
        assert!(
            p.contains(&DashMove(0)) && p.contains(&DashMove(1)),
            "{spec}: {p:?}"
        );
        assert_ne!(picks(1), picks(2), "{spec}");
    }
}

#[test]
fn bad_specs_and_bad_states_are_errors() {
    let g = Dash::new(2, 6, 200);
    for bad in [
        "expectimax:depth=0",
        "expectimax:nodes=0",
        "expectimax:millis=0",
        "expectimax:depth=65",
        "expectimax:depth=-1",
        "expectimax:mode=greedy",
        "expectimax:pruning=star3",
        "expectimax:tt=maybe",
        "expectimax:iterations=5",
        "greedy:depth=1",
    ] {
        let err = build_str(bad, &g, 0)
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"));
        assert!(!err.to_string().is_empty());
    }
    let e = build_str("expectimax:depth=0", &g, 0).err().unwrap();
    assert!(e.to_string().contains("at least 1"), "{e}");
    let e = build_str("expectimax:pruning=star3", &g, 0).err().unwrap();
    assert!(e.to_string().contains("star2"), "{e}");
    let e = build_str("expectimax:iterations=5", &g, 0).err().unwrap();
    assert!(e.to_string().contains("nodes"), "{e}");

    let throw_due = g.initial_state();
    let mut over = g.initial_state();
    over.over = true;
    for spec in ["greedy", "expectimax", "expectimax:nodes=100,pruning=none"] {
        let mut a = build_str(spec, &g, 0).unwrap();
        assert_eq!(
            a.choose(&g, &throw_due),
            Err(AgentError::ThrowDue { seat: 0 }),
            "{spec}"
        );
        assert_eq!(a.choose(&g, &over), Err(AgentError::GameOver), "{spec}");
    }
    let mut x = Expectimax::<Dash>::new(ExpectimaxConfig::default(), 0);
    assert!(x.search(&g, &throw_due, 2).is_err());
    assert!(x.analyse(&g, &over, 2).is_err());
    let mut s = throw_due;
    g.apply_throw(&mut s, Throw::new(2)).unwrap();
    assert!(matches!(
        x.search(&g, &s, 0),
        Err(AgentError::Unsupported(_))
    ));
    // A throw node has a value, though, and an ended game its scores.
    assert!(x.value(&g, &throw_due, 2).is_ok());
    assert_eq!(x.value(&g, &over, 2).unwrap(), g.evaluate(&over));
}

#[test]
fn a_single_legal_action_is_answered_without_search() {
    let g = Dash::new(2, 6, 200);
    let mut s = g.initial_state();
    s.pos[0] = [6, 1];
    s.pending = 3;
    let mut legal = ActionList::new();
    g.legal_actions(&s, &mut legal);
    assert_eq!(legal.len(), 1);
    let mut a = build_str("expectimax:depth=64", &g, 0).unwrap();
    assert_eq!(a.choose(&g, &s), Ok(DashMove(1)));
    assert!(matches!(g.node(&s), Node::Decide(0)));
}

#[test]
fn the_registry_lists_greedy_and_expectimax_with_defaults() {
    let names: Vec<_> = stickdice_agents::agents().iter().map(|a| a.name).collect();
    assert!(
        names.contains(&"greedy") && names.contains(&"expectimax"),
        "{names:?}"
    );
    let x = stickdice_agents::spec::info("expectimax").unwrap();
    let keys: Vec<_> = x.params.iter().map(|p| (p.key, p.default)).collect();
    assert_eq!(
        keys,
        [
            ("depth", "-"),
            ("nodes", "-"),
            ("millis", "-"),
            ("mode", "maxn"),
            ("pruning", "star2"),
            ("tt", "true"),
            ("tablebase", "off"),
            ("eval", "learned")
        ]
    );
    assert!(x.params.iter().all(|p| !p.help.is_empty()));
    let g = Dash::new(2, 6, 200);
    let a = build_str("expectimax:depth=4,pruning=star1,tt=false", &g, 0).unwrap();
    assert_eq!(a.name(), "expectimax:depth=4,pruning=star1,tt=false");
    assert_eq!(build_str("greedy", &g, 0).unwrap().name(), "greedy");
}

/// The table is kept from one search to the next (and across iterations); what it holds
/// never changes a value: a long-lived search gives the fresh search's values.
#[test]
fn a_table_kept_across_searches_changes_no_value() {
    let g = Dash::new(2, 8, 400);
    let positions: Vec<DashState> = (0..40)
        .filter_map(|seed| random_decision(&g, seed, 5, 2))
        .collect();
    let mut kept = Expectimax::<Dash>::new(ExpectimaxConfig::default(), 0);
    for round in 0..2 {
        for (i, s) in positions.iter().enumerate() {
            let depth = 2 + (i as u32 + round) % 3;
            let fresh = Expectimax::<Dash>::new(config(Pruning::None, false), 0)
                .search(&g, s, depth)
                .unwrap();
            let r = kept.search(&g, s, depth).unwrap();
            assert_eq!(
                (r.value, r.ties),
                (fresh.value, fresh.ties),
                "round {round}, {i}"
            );
        }
    }
}
