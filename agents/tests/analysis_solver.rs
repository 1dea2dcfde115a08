//! The exact solver on positions small enough to solve by hand, and its errors.
//!
//! Every expected value below is worked out in the comments from the rules (`docs/games/`), independently
//! of the solver.

use stickdice::games::sig_el_oued::{self, Pending};
use stickdice::games::sig_wa_duqqan::{Piece, Position as DuqqanPosition, State as DuqqanState};
use stickdice::{Game, SigElOued, SigWaDuqqan};
use stickdice_agents::solve::{self, SolveError};

fn duqqan(pieces: &[Piece], ghoula: Option<u8>, turn: u8) -> DuqqanState {
    DuqqanState::try_from(DuqqanPosition {
        ghoula,
        turn,
        ..DuqqanPosition::new(pieces)
    })
    .unwrap()
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-9, "{what}: solver {a}, by hand {b}");
}

/// Both pieces on idx 18, the Ghoula on idx 14 (it cannot go further, so it never matters).
///
/// A seat's turn: a sig (4/16) reaches the Ka'aba; a 0 or 3 (10/16) ends the turn; a 6 or
/// 4 (2/16) throws again. So a turn reaches the Ka'aba with p = 4/14 = 2/7, and
/// P(P1 first) = p / (1 − (1−p)²) = (2/7) / (24/49) = 7/12. The second piece always
/// arrives too (the Ghoula cannot reach idx 18).
///
/// Throws: a turn lasts 16/14 = 8/7 throws on average (each throw ends it with 14/16).
/// Once one seat is on the Ka'aba, its turns last 16/10 = 1.6 throws; from the racing
/// seat's turn, B = 8/7 + (5/7)(1.6 + B), so B = 8. Right after the arrival the arrived
/// seat keeps its turn (the sig's extra throw): A = 1.6 + B = 9.6. From the start,
/// E = 8/7 + (2/7)·A + (5/7)·E, so E = (8 + 19.2) / 2 = 13.6.
#[test]
fn duqqan_race_from_idx_18_is_solved_as_by_hand() {
    let game = SigWaDuqqan::with_seats(2).unwrap();
    let start = duqqan(&[Piece::Racing(18), Piece::Racing(18)], Some(14), 0);
    let sol = solve::solve_from(&game, &start).unwrap();
    close(
        sol.first_probability(&start, 0).unwrap(),
        7.0 / 12.0,
        "P(P1 first)",
    );
    close(
        sol.first_probability(&start, 1).unwrap(),
        5.0 / 12.0,
        "P(P2 first)",
    );
    close(
        sol.success_probability(&start, 1).unwrap(),
        1.0,
        "P(P2 arrives)",
    );
    close(
        sol.expected_throws(&start).unwrap(),
        13.6,
        "expected throws",
    );
    let scores = sol.expected_scores(&start).unwrap();
    close(scores[0], 7.0 / 12.0, "P1's expected score");
    // Every outcome has both pieces on the Ka'aba.
    let d = sol.distribution(&start).unwrap();
    for (c, p) in sol.classes().iter().zip(&d) {
        if *p > 0.0 {
            assert_eq!(c.success(0), Some(true), "{c}");
            assert_eq!(c.success(1), Some(true), "{c}");
        }
    }
    // With P2 to throw, the roles swap.
    let swapped = duqqan(&[Piece::Racing(18), Piece::Racing(18)], Some(14), 1);
    close(
        sol.first_probability(&swapped, 1).unwrap(),
        7.0 / 12.0,
        "P(P2 first) when P2 throws first",
    );
}

/// P1 on the Ka'aba, P2 on idx 1, the Ghoula on the start, P1 to throw. Every throw of P1
/// moves the Ghoula: 2 or more steps (6, 0 counting 2, 3, 4: 12/16) step it onto idx 1 and
/// then drag P2 onto idx 0, burying it; a sig (4/16) steps it onto idx 1 only, and the
/// sig's extra throw (any value, at least 1 step) then buries P2. So P2 is buried with
/// certainty, after 1 + 4/16 = 1.25 throws on average.
#[test]
fn duqqan_certain_burial_is_solved_as_by_hand() {
    let game = SigWaDuqqan::with_seats(2).unwrap();
    let start = duqqan(&[Piece::Arrived(1), Piece::Racing(1)], Some(0), 0);
    let sol = solve::solve_from(&game, &start).unwrap();
    close(
        sol.first_probability(&start, 0).unwrap(),
        1.0,
        "P(P1 first)",
    );
    close(
        sol.success_probability(&start, 1).unwrap(),
        0.0,
        "P(P2 arrives)",
    );
    close(
        sol.expected_throws(&start).unwrap(),
        1.25,
        "expected throws",
    );
    let d = sol.distribution(&start).unwrap();
    let buried: f64 = sol
        .classes()
        .iter()
        .zip(&d)
        .filter(|(c, _)| c.success(1) == Some(false))
        .map(|(_, p)| p)
        .sum();
    close(buried, 1.0, "P(P2 buried)");
}

/// Both seats have the father and the djinn on Mecca and the mother on Medina (idx 29, a
/// sig square). Leaving it needs a sig budget: a regular sig (k = 1 or 5, 12/64) moves its
/// point onto Mecca at once; a sig of six (1/64) or of twelve (1/64) does after its bonus
/// throws. Anything else (50/64) ends the turn. So a turn finishes with q = 14/64 and
/// P(P1 first) = q / (1 − (1−q)²) = 224/399 = 32/57.
///
/// Throws in a turn: the first throw, plus one bonus throw after a sig of six, plus after a
/// sig of twelve its bonus throws until a regular sig or three of them:
/// 1 + 52/64 + (52/64)². By Wald's identity the game lasts E[turn] / q throws.
#[test]
fn el_oued_mothers_on_medina_are_solved_as_by_hand() {
    let game = SigElOued::with_seats(2).unwrap();
    let mothers = [sig_el_oued::MECCA, sig_el_oued::MECCA, sig_el_oued::MEDINA];
    let start = sig_el_oued::State::try_from(sig_el_oued::Position {
        pending: Pending::FirstThrow,
        ..sig_el_oued::Position::new(&[mothers, mothers])
    })
    .unwrap();
    game.validate(&start).unwrap();
    let sol = solve::solve_from(&game, &start).unwrap();
    close(
        sol.first_probability(&start, 0).unwrap(),
        32.0 / 57.0,
        "P(P1 first)",
    );
    let r = 52.0 / 64.0;
    let turn = 1.0 + (1.0 / 64.0) * 1.0 + (1.0 / 64.0) * (1.0 + r + r * r);
    close(
        sol.expected_throws(&start).unwrap(),
        turn / (14.0 / 64.0),
        "expected throws",
    );
}

/// The whole two-player games: every probability distribution sums to 1, the throw cap
/// is lifted, and the outcome classes are the ones the rules allow.
#[test]
fn two_player_races_solve_completely() {
    for exact in ["false", "true"] {
        let mut game = SigWaDuqqan::with_seats(2).unwrap();
        game.set_option("exact_waiting_square", exact).unwrap();
        game.set_option("max_throws", "40").unwrap();
        let sol = solve::solve(&game).unwrap();
        let st = sol.stats();
        assert!(st.missing_mass < 1e-9, "{st:?}");
        assert!(st.residual <= solve::TOLERANCE, "{st:?}");
        assert_eq!(st.decision_nodes, 0);
        // Two players: a seat is never buried by its own throw, so both cannot be buried,
        // and arrivals never tie: four classes (who wins × whether the loser arrives).
        assert_eq!(sol.classes().len(), 4, "{:?}", sol.classes());
        let s0 = game.initial_state();
        let p0 = sol.first_probability(&s0, 0).unwrap();
        let p1 = sol.first_probability(&s0, 1).unwrap();
        close(p0 + p1, 1.0, "win probabilities");
        assert!(
            sol.expected_throws(&s0).unwrap() > 40.0,
            "the cap is lifted"
        );
    }
    for cairo in ["false", "true"] {
        let mut game = SigElOued::with_seats(2).unwrap();
        game.set_option("cairo_always_three", cairo).unwrap();
        let sol = solve::solve(&game).unwrap();
        let st = sol.stats();
        assert!(st.missing_mass < 1e-9, "{st:?}");
        assert!(st.decision_nodes > 0, "the leftover choice is a decision");
        assert_eq!(sol.classes().len(), 2);
        let s0 = game.initial_state();
        close(
            sol.first_probability(&s0, 0).unwrap() + sol.first_probability(&s0, 1).unwrap(),
            1.0,
            "win probabilities",
        );
    }
}

/// At every decision node the solved action is the one with the highest chance for the
/// decider, and the node's value is that action's.
#[test]
fn el_oued_decisions_maximise_the_deciders_chance() {
    let game = SigElOued::with_seats(2).unwrap();
    let sol = solve::solve(&game).unwrap();
    let mut checked = 0;
    let mut differ = 0;
    for s in sol.states() {
        let stickdice::Node::Decide(seat) = sol.game().node(s) else {
            continue;
        };
        let values = sol.action_values(s).unwrap();
        let best = sol.best_action(s).unwrap();
        let top = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        let chosen = values.iter().find(|v| v.0 == best).unwrap().1;
        assert_eq!(chosen, top, "{s:?}");
        close(sol.first_probability(s, seat).unwrap(), top, "node value");
        if values.len() > 1 && (values[0].1 - values[1].1).abs() > 1e-9 {
            differ += 1;
        }
        checked += 1;
    }
    assert!(checked > 1000, "{checked} decision nodes");
    assert!(differ > 0, "the leftover choice matters somewhere");
}

#[test]
fn unsolvable_games_say_why() {
    let issiren = stickdice::Issiren::with_seats(2).unwrap();
    let e = solve::solve(&issiren).unwrap_err();
    assert!(matches!(e, SolveError::Unsupported(_)));
    assert!(e.to_string().contains("tablebase"), "{e}");
    let big = SigWaDuqqan::with_seats(5).unwrap();
    let e = solve::solve(&big).unwrap_err().to_string();
    assert!(e.contains("2 to 3 players, not 5"), "{e}");
    let e = solve::solve(&SigElOued::with_seats(3).unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("not 3"), "{e}");
    // A game already over cannot be solved from.
    let game = SigWaDuqqan::with_seats(2).unwrap();
    let over = duqqan(&[Piece::Arrived(1), Piece::Arrived(2)], Some(3), 0);
    let e = solve::solve_from(&game, &over).unwrap_err();
    assert_eq!(e, SolveError::GameOver);
    assert!(e.to_string().contains("already over"), "{e}");
    // An invalid position is refused, with the game's own description of the problem.
    let bad =
        duqqan(&[Piece::Racing(0), Piece::Racing(0)], None, 0).with_piece(0, Piece::Racing(25));
    let e = solve::solve_from(&game, &bad).unwrap_err();
    let SolveError::InvalidStart(invalid) = &e else {
        panic!("{e}");
    };
    assert_eq!(
        invalid
            .kinds::<stickdice::games::sig_wa_duqqan::Problem>()
            .collect::<Vec<_>>(),
        [&stickdice::games::sig_wa_duqqan::Problem::RacingPastTrack { seat: 0, idx: 25 }]
    );
    // Too many states for the limit.
    let e = solve::solve_with(
        &game,
        &game.initial_state(),
        solve::SolveOptions {
            max_states: 100,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(e, SolveError::TooManyStates { limit: 100 });
}

/// The perfect agent: built from its spec for the games it can solve, refused elsewhere.
#[test]
fn the_perfect_agent_is_refused_where_nothing_is_solved() {
    let spec: stickdice_agents::AgentSpec = "perfect".parse().unwrap();
    let params = spec.checked_params().unwrap();
    let issiren = stickdice::Issiren::with_seats(2).unwrap();
    let Err(e) = stickdice_agents::perfect::build(&params, &issiren) else {
        panic!("issiren is not solvable");
    };
    assert!(e.to_string().contains("perfect"), "{e}");
    assert!(e.to_string().contains("tablebase"), "{e}");
    let four = SigWaDuqqan::with_seats(4).unwrap();
    let Err(e) = stickdice_agents::perfect::build(&params, &four) else {
        panic!("four seats are not solvable");
    };
    assert!(e.to_string().contains("not 4"), "{e}");
    assert!(stickdice_agents::perfect::build(&params, &SigElOued::with_seats(2).unwrap()).is_ok());
}

/// Siryu (Race)'s size, derived rather than guessed: one seat's reachable configurations
/// (its father, angel and mother with their sir counts), found by walking every sir and six
/// white from the start with the game's own moves (the other seat's pieces on their own
/// starts, where passing leaves them). The angel, moving two ordinary steps per sir and
/// twelve per six white, stops only on odd squares of the grid's columns before the
/// Minaret, on the Minaret, on odd squares after it and on the corner: 26 places (with its
/// sir counts) against the father's 37 and the mother's 35. The solver refuses the game and
/// says why (module docs of `stickdice_agents::solve`).
#[test]
fn siryu_race_configurations_of_one_seat() {
    use std::collections::HashSet;
    use stickdice::games::siryu_race::{Action, Position, State, MECCA, STARTS};
    use stickdice::games::SiryuRace;
    use stickdice::Throw;

    for six_black_moves_six in ["false", "true"] {
        let mut game = SiryuRace::with_seats(2).unwrap();
        game.set_option("six_black_moves_six", six_black_moves_six)
            .unwrap();
        type Config = ([u8; 3], [u8; 3]);
        let start: Config = (STARTS, [0; 3]);
        let mut seen: HashSet<Config> = HashSet::from([start]);
        let mut queue = vec![start];
        let mut per_piece: [HashSet<(u8, u8)>; 3] = Default::default();
        while let Some((pieces, sirs)) = queue.pop() {
            for k in 0..3 {
                per_piece[k].insert((pieces[k], sirs[k]));
            }
            if pieces == [MECCA; 3] {
                continue; // finished: the seat moves no more
            }
            for w in [0u8, 1, 5, 6] {
                let p = Position {
                    pieces: vec![pieces, STARTS],
                    sirs: vec![sirs, [0; 3]],
                    owed: 1,
                    pending: Some(Throw::new(w)),
                    throws: 1,
                    ..Position::start(2)
                };
                let s = State::from_position(p).unwrap();
                for a in [Action::Father, Action::Angel, Action::Mother] {
                    let mut t = s;
                    if game.apply_action(&mut t, a).is_err() {
                        continue;
                    }
                    assert_eq!(t.pieces_of(1), STARTS, "the other seat is never sent back");
                    let c = (t.pieces_of(0), t.sirs_of(0));
                    if seen.insert(c) {
                        queue.push(c);
                    }
                }
            }
        }
        let places: Vec<usize> = per_piece.iter().map(HashSet::len).collect();
        assert_eq!(places, [37, 26, 35], "father, angel, mother");
        assert_eq!(seen.len(), 37 * 26 * 35, "the pieces move independently");
    }
    let e = solve::solve(&stickdice::games::SiryuRace::with_seats(2).unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("2 267 203 122") && e.contains("no exact solver"),
        "{e}"
    );
    assert_eq!(2 * (37 * 26 * 35 - 1usize).pow(2), 2_267_203_122);
}
