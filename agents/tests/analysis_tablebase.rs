//! The Issiren endgame tablebase against independent computations: the generic exact
//! solver run on the game's own rules (a different program: breadth-first enumeration
//! through the `Game` trait, no symmetry, no index arithmetic), and a depth-limited
//! expectimax search written here, whose bounds must contain every table value.
//!
//! The full table (2v2) takes about half a minute to build in a release build; the tests
//! here build the 1v1 table (and the 1v2/2v1 tables in release builds), and one ignored
//! test checks the full table: `cargo test --release -p stickdice-agents --test
//! analysis_tablebase -- --ignored`.

use std::collections::HashMap;

use stickdice::games::issiren::{Piece, Position, State};
use stickdice::{ActionList, Game, Issiren, Node};
use stickdice_agents::solve::{self, tablebase::Tablebase};

fn game() -> Issiren {
    Issiren::with_seats(2).unwrap()
}

fn position(p1: &[Piece], p2: &[Piece], turn: u8) -> State {
    let s = State::try_from(Position {
        turn,
        ..Position::new(p1, p2)
    })
    .unwrap();
    game().validate(&s).unwrap();
    s
}

/// The 1v1, 1v2 and 2v1 tables, built once per test binary (about 2 s in a release build).
fn small_tablebase() -> &'static Tablebase {
    static TB: std::sync::OnceLock<Tablebase> = std::sync::OnceLock::new();
    TB.get_or_init(|| Tablebase::build_partial(2, |_, _, _| {}).0)
}

/// The expectimax value of P1's chance of winning, searched `depth` throws deep, with the
/// positions still running at the horizon valued `leaf` (0 gives a lower bound, 1 an
/// upper bound). Memoised on (state, depth).
fn bounded(
    g: &Issiren,
    s: &State,
    depth: u32,
    leaf: f64,
    memo: &mut HashMap<(State, u32), f64>,
) -> f64 {
    match g.node(s) {
        Node::End => {
            if s.count()[0] > 0 {
                1.0
            } else {
                0.0
            }
        }
        _ if depth == 0 && s.pending().is_none() => leaf,
        node => {
            let key = s.with_throws(0);
            if let Some(&v) = memo.get(&(key, depth)) {
                return v;
            }
            let v = match node {
                Node::Throw(_) => g
                    .throw_outcomes()
                    .iter()
                    .map(|o| {
                        let mut c = *s;
                        g.apply_throw_unchecked(&mut c, o.throw);
                        o.probability * bounded(g, &c, depth - 1, leaf, memo)
                    })
                    .sum(),
                Node::Decide(seat) => {
                    let mut actions = ActionList::new();
                    g.legal_actions(s, &mut actions);
                    let values = actions.iter().map(|&a| {
                        let mut c = *s;
                        g.apply_action_unchecked(&mut c, a);
                        bounded(g, &c, depth, leaf, memo)
                    });
                    if seat == 0 {
                        values.fold(f64::NEG_INFINITY, f64::max)
                    } else {
                        values.fold(f64::INFINITY, f64::min)
                    }
                }
                Node::End => unreachable!(),
            };
            memo.insert((key, depth), v);
            v
        }
    }
}

fn uncapped() -> Issiren {
    let mut g = game();
    g.set_option("max_throws", &u32::MAX.to_string()).unwrap();
    g
}

/// The generic solver's values of every position reachable from a 1v1 start (with the
/// throw count dropped, that is every 1v1 position with its pending throw), solved by value
/// iteration over the reachable graph to the end of the game.
fn generic_1v1() -> &'static solve::Solution<Issiren> {
    static SOL: std::sync::OnceLock<solve::Solution<Issiren>> = std::sync::OnceLock::new();
    SOL.get_or_init(|| {
        let start = position(&[Piece::start(3)], &[Piece::moved(40)], 1);
        solve::solve_from(&game(), &start).unwrap()
    })
}

/// Values and best actions against the generic solver.
#[test]
fn one_against_one_matches_the_generic_solver() {
    let tb = small_tablebase();
    let sol = generic_1v1();
    let mut checked = 0;
    let mut decisions = 0;
    for s in sol.states() {
        let exact = sol.first_probability(s, 0).unwrap();
        let table = tb.win_probability(s, 0).expect("1v1 is covered");
        assert!(
            (exact - table).abs() < 1e-9,
            "{s:?}: solver {exact}, tablebase {table}"
        );
        if s.pending().is_some() {
            decisions += 1;
            let by_table = tb.best_action(s).unwrap();
            let values = sol.action_values(s).unwrap();
            let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
            let chosen = values.iter().find(|v| v.0 == by_table).unwrap().1;
            assert!(
                (best - chosen).abs() < 1e-9,
                "{s:?}: the table's action {by_table} is worth {chosen} to P{}, the best {best}",
                s.turn() + 1
            );
        }
        checked += 1;
    }
    assert!(
        checked > 50_000 && decisions > 10_000,
        "{checked} {decisions}"
    );
}

/// The board is symmetric under the half turn that swaps the seats: a position and its
/// mirror (each side's pieces, at the same circuit positions, given to the other seat, and
/// the other seat to throw) have the same value for the side to throw. The table relies on
/// it; the generic solver, which knows nothing of it, confirms it on every 1v1 position.
#[test]
fn the_half_turn_symmetry_holds_in_the_generic_solver() {
    let sol = generic_1v1();
    let mut checked = 0;
    for s in sol.states() {
        if s.pending().is_some() {
            continue;
        }
        let m = State::try_from(Position {
            turn: 1 - s.turn(),
            ..Position::new(s.pieces_of(1), s.pieces_of(0))
        })
        .unwrap();
        let mover = s.turn() as usize;
        let a = sol.first_probability(s, mover).unwrap();
        // From this start only P1 can have an unmoved piece, so such mirrors are not
        // reachable; every other one is.
        let Some(b) = sol.first_probability(&m, 1 - mover) else {
            assert!(s.pieces_of(0)[0].unmoved, "{m:?} should be reachable");
            continue;
        };
        assert!((a - b).abs() < 1e-10, "{s:?}: {a} vs mirror {b}");
        checked += 1;
    }
    assert!(checked > 10_000);
}

/// Every table value lies between the lower and upper bounds of an exhaustive expectimax
/// search a few throws deep (an independent search: it values every unfinished line at 0
/// for the lower bound and 1 for the upper).
#[test]
fn table_values_lie_within_expectimax_bounds() {
    let tb = small_tablebase();
    let g = uncapped();
    let mut positions = vec![
        position(&[Piece::moved(5)], &[Piece::moved(42)], 0),
        position(&[Piece::moved(5)], &[Piece::moved(44)], 1),
        position(&[Piece::moved(5)], &[Piece::moved(30)], 0),
        position(&[Piece::moved(60)], &[Piece::moved(30)], 1),
        position(&[Piece::start(11)], &[Piece::moved(10)], 0),
        position(&[Piece::moved(47)], &[Piece::moved(0)], 0),
    ];
    {
        positions.push(position(
            &[Piece::moved(14)],
            &[Piece::moved(53), Piece::moved(51)],
            0,
        ));
        positions.push(position(
            &[Piece::moved(14), Piece::start(2)],
            &[Piece::moved(40)],
            1,
        ));
    }
    let depth = if cfg!(debug_assertions) { 4 } else { 6 };
    let mut narrow = 0;
    for s in &positions {
        let mut memo = HashMap::new();
        let lo = bounded(&g, s, depth, 0.0, &mut memo);
        memo.clear();
        let hi = bounded(&g, s, depth, 1.0, &mut memo);
        let v = tb.win_probability(s, 0).expect("covered");
        assert!(
            lo - 1e-9 <= v && v <= hi + 1e-9,
            "{s:?}: table {v} outside [{lo}, {hi}]"
        );
        if hi - lo < 0.9 {
            narrow += 1;
        }
    }
    assert!(narrow > 0, "the bounds say something");
}

/// P1's piece at its position 5 (square g1) and P2's last piece one step ahead of it, on
/// f1: seat 1's position q is seat 0's q + 36, and seat 0's position 6 is f1, so q = 42.
/// A throw of 4 green sides (value 1, probability 15/64) lets P1 capture it and win; no
/// other value reaches it. So after that throw the one action is worth exactly 1, and the
/// throw node is worth at least 15/64.
#[test]
fn decision_values_and_terminal_positions() {
    let tb = small_tablebase();
    let g = uncapped();
    let s = position(&[Piece::moved(5)], &[Piece::moved(42)], 0);
    assert_eq!(
        s.pieces_of(1)[0].pos,
        42,
        "P2's piece stands where P1 moves with a 1"
    );
    let mut after = s;
    g.apply_throw_unchecked(&mut after, stickdice::Throw::new(4));
    let values = tb.action_values(&after).unwrap();
    assert_eq!(values.len(), 1);
    assert_eq!(values[0].1, 1.0, "capturing the last piece wins");
    let mut c = after;
    g.apply_action_unchecked(&mut c, values[0].0);
    assert_eq!(g.node(&c), Node::End);
    assert_eq!(tb.win_probability(&after, 0), Some(1.0));
    assert!(tb.win_probability(&s, 0).unwrap() >= 15.0 / 64.0);
    // Terminal positions are covered with their certain value.
    assert_eq!(tb.win_probability(&c, 0), Some(1.0));
    assert_eq!(tb.win_probability(&c, 1), Some(0.0));
    // Three pieces a side are not covered.
    let big = position(
        &[Piece::moved(1), Piece::moved(2), Piece::moved(3)],
        &[Piece::moved(40)],
        0,
    );
    assert!(!tb.covers(&big));
    assert_eq!(tb.win_probability(&big, 0), None);
}

#[test]
fn files_round_trip_and_damage_is_reported() {
    let (tb, stats) = Tablebase::build_partial(1, |_, _, _| {});
    assert_eq!(stats.entries, 84 * 84);
    let dir = std::env::temp_dir().join(format!("stickdice-tb-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("issiren-1v1.tb");
    tb.save(&path).unwrap();
    let back = Tablebase::load(&path).unwrap();
    let s = position(&[Piece::moved(5)], &[Piece::moved(30)], 0);
    assert_eq!(back.win_probability(&s, 0), tb.win_probability(&s, 0));
    assert!(!back.covers(&position(
        &[Piece::moved(5)],
        &[Piece::moved(30), Piece::moved(31)],
        0
    )));

    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let e = Tablebase::load(&path).unwrap_err().to_string();
    assert!(e.contains("checksum"), "{e}");
    std::fs::write(&path, &bytes[..n - 9]).unwrap();
    let e = Tablebase::load(&path).unwrap_err().to_string();
    assert!(e.contains("truncated"), "{e}");
    std::fs::write(
        &path,
        b"hello world, not a tablebase at all, really not one",
    )
    .unwrap();
    let e = Tablebase::load(&path).unwrap_err().to_string();
    assert!(e.contains("magic"), "{e}");
    let e = Tablebase::load(&dir.join("missing.tb"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot read"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The full table, in a release build (about half a minute): every group converges, the
/// sizes are as documented, and values agree with the bounds of a search.
#[test]
#[ignore = "builds the full tablebase: run with --release -- --ignored"]
fn the_full_tablebase() {
    let (tb, stats) = Tablebase::build();
    assert_eq!(stats.entries, 12_744_900);
    assert_eq!(tb.bytes(), 4 * 12_744_900);
    for r in stats.residual {
        assert!(r <= solve::tablebase::TOLERANCE);
    }
    let g = uncapped();
    for s in [
        position(
            &[Piece::moved(10), Piece::moved(50)],
            &[Piece::moved(20), Piece::start(3)],
            0,
        ),
        position(
            &[Piece::moved(33), Piece::moved(34)],
            &[Piece::moved(2), Piece::moved(9)],
            1,
        ),
    ] {
        let mut memo = HashMap::new();
        let lo = bounded(&g, &s, 5, 0.0, &mut memo);
        memo.clear();
        let hi = bounded(&g, &s, 5, 1.0, &mut memo);
        let v = tb.win_probability(&s, 0).unwrap();
        assert!(lo - 1e-9 <= v && v <= hi + 1e-9, "{v} outside [{lo}, {hi}]");
    }
}

/// The `tablebase` parameter of expectimax and MCTS: covered positions are valued exactly,
/// so even a depth-1 expectimax chooses an action the table rates best, and every MCTS
/// root action's mean is its exact value (each iteration ends at the covered child).
#[test]
fn searching_agents_use_the_tablebase_parameter() {
    let dir = std::env::temp_dir().join(format!("stickdice-tb-param-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("issiren-small.tb");
    let tb = small_tablebase();
    tb.save(&path).unwrap();
    let g = game();
    let p = path.display().to_string();
    let mut expectimax =
        stickdice_agents::build_str(&format!("expectimax:depth=1,tablebase={p}"), &g, 1).unwrap();
    assert!(
        expectimax.name().ends_with(&format!("tablebase={p}")),
        "{}",
        expectimax.name()
    );
    let spec: stickdice_agents::AgentSpec = format!("mcts:iterations=300,tablebase={p}")
        .parse()
        .unwrap();
    let mut mcts =
        stickdice_agents::MctsAgent::<Issiren>::from_params(&spec.checked_params().unwrap(), 1)
            .unwrap();
    assert!(
        stickdice::Agent::<Issiren>::name(&mcts).ends_with(&format!("tablebase={p}")),
        "{}",
        stickdice::Agent::<Issiren>::name(&mcts)
    );
    // P1 has two pieces, P2 one: after most throws P1 chooses which piece to move.
    let mut checked = 0;
    for (a, b, theirs) in [
        (3u8, 9u8, 40u8),
        (10, 14, 20),
        (30, 31, 33),
        (50, 70, 57),
        (65, 66, 1),
    ] {
        for throw in 0..=6u8 {
            let mut s = position(
                &[Piece::moved(a), Piece::moved(b)],
                &[Piece::moved(theirs)],
                0,
            );
            g.apply_throw(&mut s, stickdice::Throw::new(throw)).unwrap();
            let values = tb.action_values(&s).unwrap();
            if values.len() < 2 {
                continue;
            }
            let best = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
            let a = expectimax.choose(&g, &s).unwrap();
            let v = values.iter().find(|x| x.0 == a).unwrap().1;
            assert!(
                v >= best - 1e-9,
                "expectimax: {a} worth {v}, best {best} in {s:?}"
            );
            let analysis = mcts.analyze(&g, &s).unwrap();
            for (stats, (a, v)) in analysis.actions.iter().zip(&values) {
                assert_eq!(stats.action, *a);
                if stats.visits > 0 {
                    assert!(
                        (stats.mean - v).abs() < 1e-9,
                        "mcts: {a} mean {} exact {v}",
                        stats.mean
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} choices checked");
    // Another game has no tablebase; a missing file is named.
    let duqqan = stickdice::SigWaDuqqan::with_seats(2).unwrap();
    let Err(e) = stickdice_agents::build_str("expectimax:tablebase=build", &duqqan, 1) else {
        panic!("sig-wa-duqqan has no tablebase");
    };
    assert!(e.to_string().contains("no endgame tablebase"), "{e}");
    let Err(e) = stickdice_agents::build_str("mcts:tablebase=/nonexistent/tb", &g, 1) else {
        panic!("a missing file is an error");
    };
    assert!(e.to_string().contains("/nonexistent/tb"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_endless_file_is_refused_not_read_forever() {
    let path = std::path::Path::new("/dev/zero");
    if !path.exists() {
        return; // not a Unix system
    }
    // A device is not opened at all since issue 39 (only regular files are read).
    let e = Tablebase::load(path).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
}
