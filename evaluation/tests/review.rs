//! Game review and luck: telescoping on solved games, hand-worked positions of each game,
//! the perfect agent's errors, bad input.

use std::sync::Arc;

use stickdice::games::issiren::{self, Piece as IssirenPiece};
use stickdice::games::sig_el_oued::{self, Pending};
use stickdice::games::sig_wa_duqqan::{Piece, Position as DuqqanPosition, State as DuqqanState};
use stickdice::play::Event;
use stickdice::{ActionList, Agent, Game, Issiren, Node, SigElOued, SigWaDuqqan};
use stickdice_agents::{GreedyAgent, PerfectAgent, RandomAgent};
use stickdice_evaluation::arena::{self, GameResult};
use stickdice_evaluation::factory;
use stickdice_evaluation::log::LoggedEvent;
use stickdice_evaluation::review::{
    review, review_from, NotCovered, ReferenceOption, ReferenceOptions, Review, ReviewError,
    Reviewable, Solved, Step, Unsupported, BLUNDER,
};

fn logged<G: Game>(r: &GameResult<G>) -> Vec<LoggedEvent> {
    r.events
        .iter()
        .map(|e| match e {
            Event::Throw(_, t) => LoggedEvent::Throw(t.marked()),
            Event::Action(_, a) => LoggedEvent::Action(a.to_string()),
        })
        .collect()
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-9, "{what}: {a} against {b}");
}

/// start + luck − error + opponent effect + drift = final, per seat; drift 0 when solved.
fn check_telescoping(r: &Review, exact: bool) {
    for s in &r.summary {
        let sum = s.start + s.luck - s.total_error + s.opponent_effect + s.drift + s.forfeit;
        close(sum, s.final_score, "telescoping");
        if exact {
            close(s.drift, 0.0, "drift of solved values");
            close(
                s.start + s.luck - s.total_error + s.opponent_effect,
                s.final_score,
                "start + luck − error + opponent = final",
            );
        }
        close(s.adjusted, s.final_score - s.luck, "adjusted");
    }
    // Per-step luck sums to the seat's total; lucks of a throw sum to 0 over the seats
    // (values sum to seats/2 at every position).
    let mut luck = vec![0.0; r.seats];
    for step in &r.steps {
        if let Step::Throw { luck: l, .. } = step {
            for (t, x) in luck.iter_mut().zip(l) {
                *t += x;
            }
            close(l.iter().sum::<f64>(), 0.0, "lucks of one throw");
        }
    }
    for (s, l) in r.summary.iter().zip(&luck) {
        close(s.luck, *l, "total luck");
    }
}

fn random<G: Game>() -> stickdice_evaluation::Factory<G> {
    factory(|_: &G, seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<G>>)
}

#[test]
fn solved_games_telescope_exactly() {
    for seats in [2, 3] {
        let game = SigWaDuqqan::with_seats(seats).unwrap();
        let mut reference = game.reference(&ReferenceOptions::default()).unwrap();
        let r = random::<SigWaDuqqan>();
        let seating: Vec<_> = (0..seats).map(|_| &r).collect();
        for seed in 0..20 {
            let g = arena::play(&game, &seating, seed);
            let rev = review(&game, reference.as_mut(), &logged(&g), None, BLUNDER).unwrap();
            assert!(rev.exact);
            check_telescoping(&rev, true);
            // No decisions: the final score is the start value plus the luck, exactly.
            for s in &rev.summary {
                assert_eq!(s.decisions, 0);
                close(s.adjusted, s.start, "adjusted = start without decisions");
            }
        }
    }
    let game = SigElOued::with_seats(2).unwrap();
    let mut reference = game.reference(&ReferenceOptions::default()).unwrap();
    let greedy = factory(|_: &SigElOued, seed| {
        Box::new(GreedyAgent::new(seed)) as Box<dyn Agent<SigElOued>>
    });
    let random = random::<SigElOued>();
    let mut decisions = 0;
    for seed in 0..40 {
        let g = arena::play(&game, &[&random, &greedy], seed);
        let rev = review(&game, reference.as_mut(), &logged(&g), None, BLUNDER).unwrap();
        check_telescoping(&rev, true);
        // Two seats: the opponent effect is exactly the other seat's error.
        close(
            rev.summary[0].opponent_effect,
            rev.summary[1].total_error,
            "P1 gains P2's error",
        );
        close(
            rev.summary[1].opponent_effect,
            rev.summary[0].total_error,
            "P2 gains P1's error",
        );
        decisions += rev.summary.iter().map(|s| s.unforced).sum::<usize>();
    }
    assert!(decisions > 20, "the games had real decisions: {decisions}");
}

#[test]
fn the_perfect_agent_makes_no_errors() {
    let game = SigElOued::with_seats(2).unwrap();
    let mut reference = game.reference(&ReferenceOptions::default()).unwrap();
    let perfect = factory(|g: &SigElOued, _| {
        Box::new(PerfectAgent::new(g).unwrap()) as Box<dyn Agent<SigElOued>>
    });
    let random = random::<SigElOued>();
    let (mut perfect_decisions, mut random_errors) = (0, 0);
    for seed in 0..60 {
        let seating = if seed % 2 == 0 {
            [&perfect, &random]
        } else {
            [&random, &perfect]
        };
        let p = (seed % 2) as usize;
        let g = arena::play(&game, &seating, seed);
        let rev = review(&game, reference.as_mut(), &logged(&g), None, BLUNDER).unwrap();
        for step in &rev.steps {
            if let Step::Decision { seat, error, .. } = step {
                if *seat == p {
                    assert_eq!(*error, 0.0, "perfect's error, game {seed}");
                    perfect_decisions += 1;
                } else if *error > 0.0 {
                    random_errors += 1;
                }
            }
        }
        assert_eq!(rev.summary[p].total_error, 0.0);
        assert_eq!(rev.summary[p].blunders, 0);
    }
    assert!(perfect_decisions > 50, "{perfect_decisions}");
    assert!(random_errors > 5, "random play errs: {random_errors}");
}

fn duqqan(pieces: &[Piece], ghoula: Option<u8>, turn: u8) -> DuqqanState {
    DuqqanState::try_from(DuqqanPosition {
        ghoula,
        turn,
        ..DuqqanPosition::new(pieces)
    })
    .unwrap()
}

/// Plays `throws` from `start`, then seeded random throws (`seed`) until the game ends,
/// choosing the first legal action at any decision; the events.
fn events_from<G: Game>(game: &G, start: G::State, throws: &[u8], seed: u64) -> Vec<LoggedEvent> {
    use rand::SeedableRng as _;
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let mut state = start;
    let mut events = Vec::new();
    let mut legal = ActionList::new();
    let mut queue = throws.iter().copied();
    for _ in 0..10_000 {
        match game.node(&state) {
            Node::Throw(_) => {
                let t = queue
                    .next()
                    .unwrap_or_else(|| game.sample_throw(&mut rng).marked());
                game.apply_throw(&mut state, stickdice::Throw::new(t))
                    .unwrap();
                events.push(LoggedEvent::Throw(t));
            }
            Node::Decide(_) => {
                game.legal_actions(&state, &mut legal);
                game.apply_action(&mut state, legal[0]).unwrap();
                events.push(LoggedEvent::Action(legal[0].to_string()));
            }
            Node::End => return events,
        }
    }
    panic!("the game did not end")
}

/// Both pieces on idx 18, the Ghoula on idx 14 (see agents/tests/analysis_solver.rs: P1,
/// to throw, ranks first with 7/12). P1's throws: a sig (one marked side, 4/16) arrives
/// (P1's value 1), a 6 or a 4 (0 or 4 marked, 2/16) throws again (7/12), anything else
/// (10/16) passes the turn (P1's value 5/12, P2 now first to throw): 4/16 + 2/16·7/12 +
/// 10/16·5/12 = 7/12. So P1 throwing 2 marked sides has luck 5/12 − 7/12 = −1/6; P2 then
/// throwing a sig has luck 1 − 7/12 = 5/12 for P2 and −5/12 for P1, who then ranks second
/// whatever follows: P1's total luck −7/12 = final 0 − start 7/12.
#[test]
fn hand_worked_sig_wa_duqqan() {
    let game = SigWaDuqqan::with_seats(2).unwrap();
    let start = duqqan(&[Piece::Racing(18), Piece::Racing(18)], Some(14), 0);
    let solution = stickdice_agents::solve::solve_from(&game, &start).unwrap();
    let mut reference = Solved::from_solution(Arc::new(solution));
    let events = events_from(&game, start, &[2, 1], 1);
    let r = review_from(&game, &mut reference, start, &events, None, BLUNDER).unwrap();
    close(r.start[0], 7.0 / 12.0, "P1's start");
    let Step::Throw {
        luck,
        expected,
        outcomes,
        ..
    } = &r.steps[0]
    else {
        panic!("a throw first")
    };
    close(expected[0], 7.0 / 12.0, "expected before the first throw");
    close(luck[0], -1.0 / 6.0, "P1's luck of a 2");
    close(luck[1], 1.0 / 6.0, "P2's luck of P1's 2");
    close(outcomes[1].value[0], 1.0, "a sig arrives");
    close(outcomes[0].value[0], 7.0 / 12.0, "a 6 throws again");
    let Step::Throw { seat, luck, .. } = &r.steps[1] else {
        panic!("P2's throw")
    };
    assert_eq!(*seat, 1);
    close(luck[1], 5.0 / 12.0, "P2's luck of a sig");
    close(r.summary[0].luck, -7.0 / 12.0, "P1's total luck");
    close(r.summary[0].final_score, 0.0, "P1 second");
    check_telescoping(&r, true);
}

/// Both seats with father and djinn on Mecca, the mother on Medina (P1 first with 32/57,
/// see agents/tests/analysis_solver.rs): a throw of 2, 3 or 4 marked sides (50/64) ends
/// P1's turn, leaving P1 25/57: luck −7/57. P2 then throws a regular sig (1 marked) and
/// finishes: P1's luck 0 − 25/57. The adjusted score is the start value, 32/57.
#[test]
fn hand_worked_sig_el_oued() {
    let game = SigElOued::with_seats(2).unwrap();
    let mut start = game.initial_state();
    start = start.with_pieces_of(
        0,
        [sig_el_oued::MECCA, sig_el_oued::MECCA, sig_el_oued::MEDINA],
    );
    start = start.with_pieces_of(
        1,
        [sig_el_oued::MECCA, sig_el_oued::MECCA, sig_el_oued::MEDINA],
    );
    start = start.with_pending(Pending::FirstThrow);
    let solution = stickdice_agents::solve::solve_from(&game, &start).unwrap();
    let mut reference = Solved::from_solution(Arc::new(solution));
    let events = events_from(&game, start, &[3, 1], 1);
    let r = review_from(&game, &mut reference, start, &events, None, BLUNDER).unwrap();
    close(r.start[0], 32.0 / 57.0, "P1's start");
    let Step::Throw { luck, .. } = &r.steps[0] else {
        panic!("a throw first")
    };
    close(luck[0], -7.0 / 57.0, "P1's luck of a 3");
    close(r.summary[0].luck, -32.0 / 57.0, "P1's total luck");
    close(r.summary[0].adjusted, 32.0 / 57.0, "adjusted = start");
    close(r.summary[1].adjusted, 25.0 / 57.0, "P2 adjusted = start");
    check_telescoping(&r, true);
}

/// Issiren, P1 with two moved pieces and P2 with its last piece, a throw pending that
/// lets one of P1's pieces land on it: capturing the last piece wins (value exactly 1), so
/// that action is the best with error 0, and the other piece's move gives up exactly
/// 1 − its value.
#[test]
fn hand_worked_issiren() {
    let game = Issiren::with_seats(2).unwrap();
    // Find the square P1's piece on circuit position 10 reaches with a throw of value v,
    // and put P2's piece there.
    let t = stickdice::Throw::new(2);
    let v = issiren::throw_value(t).unwrap();
    let target = issiren::circuit_square(0, 10 + v).unwrap();
    let q = (0..issiren::CIRCUIT_LEN)
        .find(|&q| issiren::circuit_square(1, q) == Some(target))
        .unwrap();
    let mut start = issiren::State::try_from(issiren::Position::new(
        &[IssirenPiece::moved(10), IssirenPiece::moved(40)],
        &[IssirenPiece::moved(q)],
    ))
    .unwrap();
    game.validate(&start).unwrap();
    let mut reference = game.reference(&ReferenceOptions::default()).unwrap();
    // P1 throws t: the capture is one of two actions.
    let mut after = start;
    game.apply_throw(&mut after, t).unwrap();
    let mut legal = ActionList::new();
    game.legal_actions(&after, &mut legal);
    assert_eq!(legal.len(), 2, "{legal:?}");
    let capture = *legal
        .iter()
        .find(|&&a| {
            let mut s = after;
            game.apply_action(&mut s, a).unwrap();
            game.node(&s) == Node::End
        })
        .expect("one action captures");
    let other = *legal.iter().find(|&&a| a != capture).unwrap();
    // The review of the throw and the worse action, then play on randomly to the end.
    let mut s = after;
    game.apply_action(&mut s, other).unwrap();
    let mut rest = vec![
        LoggedEvent::Throw(t.marked()),
        LoggedEvent::Action(other.to_string()),
    ];
    rest.extend(events_from(&game, s, &[], 2));
    let r = review_from(&game, reference.as_mut(), start, &rest, None, BLUNDER).unwrap();
    assert!(!r.exact);
    let Step::Throw { value, .. } = &r.steps[0] else {
        panic!("a throw first")
    };
    close(
        value[0],
        1.0,
        "a throw that lets P1 capture the last piece is a win",
    );
    let Step::Decision {
        best,
        actions,
        error,
        forced,
        blunder,
        ..
    } = &r.steps[1]
    else {
        panic!("then P1's decision")
    };
    assert_eq!(*best, capture.to_string());
    assert!(!forced);
    let best_v = actions
        .iter()
        .find(|a| a.action == capture.to_string())
        .unwrap();
    let other_v = actions
        .iter()
        .find(|a| a.action == other.to_string())
        .unwrap();
    close(best_v.value, 1.0, "the capture wins");
    close(*error, 1.0 - other_v.value, "the error of not capturing");
    assert!(*error > 0.0);
    assert_eq!(*blunder, *error > BLUNDER);
    check_telescoping(&r, false);
    // The same game with the capture chosen: no error.
    start = start.with_throws(0);
    let win = [
        LoggedEvent::Throw(t.marked()),
        LoggedEvent::Action(capture.to_string()),
    ];
    let r = review_from(&game, reference.as_mut(), start, &win, None, BLUNDER).unwrap();
    assert_eq!(r.summary[0].total_error, 0.0);
    assert_eq!(r.final_scores, [1.0, 0.0]);
    check_telescoping(&r, false);
}

#[test]
fn issiren_reference_with_the_learned_evaluation() {
    let game = Issiren::with_seats(2).unwrap();
    let learned = ReferenceOptions {
        depth: Some(1),
        eval: Some("learned".into()),
        ..ReferenceOptions::default()
    };
    let hand = ReferenceOptions {
        depth: Some(1),
        ..ReferenceOptions::default()
    };
    let mut reference = game.reference(&learned).unwrap();
    let mut hand_reference = game.reference(&hand).unwrap();
    assert!(reference.describe().contains("learned evaluation"));
    assert!(hand_reference.describe().contains("heuristic evaluation"));
    let random = random::<Issiren>();
    let greedy =
        factory(|_: &Issiren, seed| Box::new(GreedyAgent::new(seed)) as Box<dyn Agent<Issiren>>);
    let (mut random_error, mut greedy_error, mut differ) = (0.0, 0.0, 0);
    for seed in 0..6 {
        let g = arena::play(&game, &[&random, &greedy], seed);
        let events = logged(&g);
        let rev = review(&game, reference.as_mut(), &events, None, BLUNDER).unwrap();
        let by_hand = review(&game, hand_reference.as_mut(), &events, None, BLUNDER).unwrap();
        check_telescoping(&rev, false);
        random_error += rev.summary[0].total_error;
        greedy_error += rev.summary[1].total_error;
        differ += (rev.summary[0].start != by_hand.summary[0].start) as u32;
    }
    // Its own leaves' judge: greedy on the learned evaluation errs far less than random.
    assert!(
        greedy_error < 0.25 * random_error,
        "greedy {greedy_error}, random {random_error}"
    );
    assert_eq!(
        differ, 6,
        "the learned reference's values are not the hand-set one's"
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    // A reference that cannot handle the game: each refusal typed, with the game's name.
    let game = SigWaDuqqan::with_seats(4).unwrap();
    let err = game.reference(&ReferenceOptions::default()).unwrap_err();
    assert!(
        matches!(
            err,
            ReviewError::Unsupported {
                game: "sig-wa-duqqan",
                reason: Unsupported::Solver(_)
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("2 to 3 players"), "{err}");
    let game = SigElOued::with_seats(3).unwrap();
    assert!(game.reference(&ReferenceOptions::default()).is_err());
    let sig_el_oued =
        |o: &ReferenceOptions| SigElOued::with_seats(2).unwrap().reference(o).unwrap_err();
    let issiren = |o: &ReferenceOptions| Issiren::with_seats(2).unwrap().reference(o).unwrap_err();
    let duqqan = |o: &ReferenceOptions| {
        SigWaDuqqan::with_seats(2)
            .unwrap()
            .reference(o)
            .unwrap_err()
    };
    let err = sig_el_oued(&ReferenceOptions {
        tablebase: Some("build".into()),
        ..ReferenceOptions::default()
    });
    assert_eq!(
        err,
        ReviewError::Unsupported {
            game: "sig-el-oued",
            reason: Unsupported::SolvedExactly {
                option: ReferenceOption::Tablebase
            }
        }
    );
    assert!(err.to_string().contains("issiren only"), "{err}");
    let err = sig_el_oued(&ReferenceOptions {
        depth: Some(2),
        ..ReferenceOptions::default()
    });
    assert_eq!(
        err,
        ReviewError::Unsupported {
            game: "sig-el-oued",
            reason: Unsupported::SolvedExactly {
                option: ReferenceOption::Depth
            }
        }
    );
    assert_eq!(
        err.to_string(),
        "no reference evaluator: sig-el-oued is solved exactly; a search depth is for the games \
         reviewed by a search"
    );
    let err = issiren(&ReferenceOptions {
        depth: Some(0),
        ..ReferenceOptions::default()
    });
    assert_eq!(
        err,
        ReviewError::Unsupported {
            game: "issiren",
            reason: Unsupported::DepthZero
        }
    );
    assert!(err.to_string().contains("at least 1"), "{err}");
    let max = stickdice_agents::expectimax::MAX_DEPTH;
    let err = issiren(&ReferenceOptions {
        depth: Some(max + 1),
        ..ReferenceOptions::default()
    });
    assert_eq!(
        err,
        ReviewError::Unsupported {
            game: "issiren",
            reason: Unsupported::DepthTooDeep {
                depth: max + 1,
                max
            }
        }
    );
    let err = duqqan(&ReferenceOptions {
        eval: Some("learned".into()),
        ..ReferenceOptions::default()
    });
    assert_eq!(
        err,
        ReviewError::Unsupported {
            game: "sig-wa-duqqan",
            reason: Unsupported::SolvedExactly {
                option: ReferenceOption::Eval
            }
        }
    );
    assert!(err.to_string().contains("reviewed by a search"), "{err}");
    let err = issiren(&ReferenceOptions {
        eval: Some("/nonexistent/weights.sdw".into()),
        ..ReferenceOptions::default()
    });
    assert!(
        matches!(
            &err,
            ReviewError::Unsupported {
                game: "issiren",
                reason: Unsupported::Evaluation { eval, .. }
            } if eval == "/nonexistent/weights.sdw"
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("/nonexistent/weights.sdw"),
        "{err}"
    );
    let err = issiren(&ReferenceOptions {
        tablebase: Some("/nonexistent/issiren.tb".into()),
        ..ReferenceOptions::default()
    });
    assert!(
        matches!(
            &err,
            ReviewError::Unsupported {
                game: "issiren",
                reason: Unsupported::Tablebase { source, .. }
            } if source == "/nonexistent/issiren.tb"
        ),
        "{err}"
    );
    // What a reference does not cover says so in the same words as before.
    let err = ReviewError::NotCovered {
        game: "sig-el-oued",
        reason: NotCovered::Unreachable,
    };
    assert_eq!(
        err.to_string(),
        "the reference has no value: the position is not reachable from the initial state of \
         the solved game"
    );
    // Damaged games.
    let game = SigElOued::with_seats(2).unwrap();
    let mut reference = game.reference(&ReferenceOptions::default()).unwrap();
    let r = random::<SigElOued>();
    let g = arena::play(&game, &[&r, &r], 3);
    let events = logged(&g);
    let cut = &events[..events.len() / 2];
    let err = review(&game, reference.as_mut(), cut, None, BLUNDER).unwrap_err();
    assert!(err.to_string().contains("has not ended"), "{err}");
    let mut bad = events.clone();
    bad[0] = LoggedEvent::Throw(9);
    let err = review(&game, reference.as_mut(), &bad, None, BLUNDER).unwrap_err();
    assert!(
        matches!(err, ReviewError::BadGame { event: Some(0), .. }),
        "{err}"
    );
    let mut bad = events.clone();
    bad.insert(0, LoggedEvent::Action("nonsense".into()));
    let err = review(&game, reference.as_mut(), &bad, None, BLUNDER).unwrap_err();
    assert!(err.to_string().contains("event 1"), "{err}");
}

/// Sig wa Duqqan (Houmt Taourit) with 2 seats: the solved values, no decisions, so every
/// game's adjusted score is its start value; with 3 seats a search, where the game has an
/// evaluation.
#[test]
fn houmt_taourit_is_reviewed_exactly() {
    use stickdice::games::HoumtTaourit;
    let game = HoumtTaourit::with_seats(2).unwrap();
    let mut reference = game.reference(&ReferenceOptions::default()).unwrap();
    assert!(reference.describe().starts_with("exact"));
    let r = random::<HoumtTaourit>();
    let mut luck = 0.0;
    for seed in 0..10 {
        let g = arena::play(&game, &[&r, &r], seed);
        let rev = review(&game, reference.as_mut(), &logged(&g), None, BLUNDER).unwrap();
        assert!(rev.exact);
        check_telescoping(&rev, true);
        // P1 alone on the centre 0.093126, both there (a tie) 0.824081: 0.093126 + 0.412040.
        let start = rev.summary[0].start;
        assert!((start - 0.505_167).abs() < 1e-6, "P1's start value {start}");
        for s in &rev.summary {
            assert_eq!(s.decisions, 0);
            close(s.adjusted, s.start, "adjusted = start without decisions");
            luck += s.luck.abs();
        }
    }
    assert!(luck > 0.0);
    let three = HoumtTaourit::with_seats(3).unwrap();
    match three.reference(&ReferenceOptions::default()) {
        Ok(reference) => assert!(reference.describe().starts_with("search")),
        Err(e) => assert!(e.to_string().contains("no evaluation"), "{e}"),
    }
    let err = game
        .reference(&ReferenceOptions {
            depth: Some(2),
            ..ReferenceOptions::default()
        })
        .unwrap_err();
    assert!(err.to_string().contains("solved exactly"), "{err}");
}

/// The capture games (and Siryu (Race) once it has an evaluation) are reviewed by the
/// searching reference: every step telescopes (drift included), a throw's lucks sum to 0
/// over the two seats, greedy's decisions are judged.
#[test]
fn the_new_games_are_reviewed_by_a_search() {
    use stickdice::games::{SigElOuedCapture, SiryuRace, SiryuWar};
    use stickdice_agents::Evaluate;

    fn reviewed<G: Reviewable + Evaluate>(seeds: u64) -> usize {
        let game = G::with_seats(2).unwrap();
        let options = ReferenceOptions {
            depth: Some(1),
            ..ReferenceOptions::default()
        };
        let mut reference = game.reference(&options).unwrap();
        assert!(reference.describe().starts_with("search"), "{}", G::NAME);
        let greedy = factory(|_: &G, seed| Box::new(GreedyAgent::new(seed)) as Box<dyn Agent<G>>);
        let random = random::<G>();
        let mut unforced = 0;
        for seed in 0..seeds {
            let g = arena::play(&game, &[&random, &greedy], seed);
            let rev = review(&game, reference.as_mut(), &logged(&g), None, BLUNDER).unwrap();
            assert!(!rev.exact);
            check_telescoping(&rev, false);
            unforced += rev.summary.iter().map(|s| s.unforced).sum::<usize>();
        }
        // A tablebase is Issiren's only.
        let err = game
            .reference(&ReferenceOptions {
                tablebase: Some("build".into()),
                ..ReferenceOptions::default()
            })
            .unwrap_err();
        assert!(
            matches!(
                err,
                ReviewError::Unsupported {
                    reason: Unsupported::Tablebase { .. } | Unsupported::NoEvaluation { .. },
                    ..
                }
            ),
            "{err}"
        );
        unforced
    }
    assert!(reviewed::<SigElOuedCapture>(2) > 0);
    assert!(reviewed::<SiryuWar>(2) > 0);
    if <SiryuRace as Evaluate>::HAS_EVALUATION {
        assert!(reviewed::<SiryuRace>(1) > 0);
    } else {
        let game = SiryuRace::with_seats(2).unwrap();
        let err = game.reference(&ReferenceOptions::default()).unwrap_err();
        assert!(err.to_string().contains("no evaluation"), "{err}");
    }
}

/// The described games are reviewed too: the capture games by the searching reference on
/// the generic evaluation (every step telescopes, greedy's decisions are judged), two-player
/// Es-Sîg exactly (solved); and analysis measures their turns and captures.
#[test]
fn the_described_games_are_reviewed_and_measured() {
    use stickdice::{EsSig, Kioz, SigMzab, SigTozeur, SigWesternSahara, SijatElTaba, Tab};
    use stickdice_agents::Evaluate;
    use stickdice_evaluation::analysis::{measure_game, Measure};

    fn reviewed<G: Reviewable + Evaluate + Measure>(seeds: u64) -> (usize, u32, u32, u32) {
        let game = G::with_seats(2).unwrap();
        let options = ReferenceOptions {
            depth: Some(1),
            ..ReferenceOptions::default()
        };
        let mut reference = game.reference(&options).unwrap();
        assert!(reference.describe().starts_with("search"), "{}", G::NAME);
        let greedy = factory(|_: &G, seed| Box::new(GreedyAgent::new(seed)) as Box<dyn Agent<G>>);
        let random = random::<G>();
        let (mut unforced, mut captures, mut turns, mut throws) = (0, 0, 0, 0);
        for seed in 0..seeds {
            let g = arena::play(&game, &[&random, &greedy], seed);
            let rev = review(&game, reference.as_mut(), &logged(&g), None, BLUNDER).unwrap();
            assert!(!rev.exact);
            check_telescoping(&rev, false);
            unforced += rev.summary.iter().map(|s| s.unforced).sum::<usize>();
            let m = measure_game(&game, &g);
            assert!(m.turns >= 1 && m.turns <= m.throws, "{}", G::NAME);
            captures += m.captures;
            turns += m.turns;
            throws += m.throws;
        }
        (unforced, captures, turns, throws)
    }
    for (name, (unforced, captures, turns, throws)) in [
        ("tab", reviewed::<Tab>(1)),
        ("sig-tozeur", reviewed::<SigTozeur>(1)),
        ("sijat-el-taba", reviewed::<SijatElTaba>(1)),
    ] {
        assert!(unforced > 0, "{name}: no decision judged");
        assert!(captures > 0, "{name}: no capture counted");
        // Tab and Sijat El Taba grant extra throws: fewer turns than throws.
        if name != "sig-tozeur" {
            assert!(turns < throws, "{name}: {turns} turns, {throws} throws");
        }
    }
    // The larger games: a reference is built (the search), without playing a whole game.
    for describe in [
        Kioz::with_seats(2)
            .unwrap()
            .reference(&ReferenceOptions::default())
            .map(|r| r.describe()),
        SigMzab::with_seats(2)
            .unwrap()
            .reference(&ReferenceOptions::default())
            .map(|r| r.describe()),
        SigWesternSahara::with_seats(2)
            .unwrap()
            .reference(&ReferenceOptions::default())
            .map(|r| r.describe()),
    ] {
        assert!(describe.unwrap().starts_with("search"));
    }
    // Two-player Es-Sîg is solved: its reference is exact; with three seats it is searched.
    let es = EsSig::with_seats(2).unwrap();
    let mut exact = es.reference(&ReferenceOptions::default()).unwrap();
    assert!(exact.is_exact());
    let random = random::<EsSig>();
    let g = arena::play(&es, &[&random, &random], 5);
    let rev = review(&es, exact.as_mut(), &logged(&g), None, BLUNDER).unwrap();
    assert!(rev.exact);
    check_telescoping(&rev, true);
    let m = measure_game(&es, &g);
    assert_eq!(m.captures, 0);
    assert!(m.turns >= 1 && m.turns <= m.throws);
    let three = EsSig::with_seats(3).unwrap();
    assert!(!three
        .reference(&ReferenceOptions::default())
        .unwrap()
        .is_exact());
}
