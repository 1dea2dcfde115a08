//! Scenario tests for Siryu (Race), docs/games/siryu-race.md.
//!
//! Every expected position here was worked out by hand from the rules, step by step
//! (the comments show the working), not read back from the implementation. The worked
//! examples of that chapter are the tests named `example_1_…` to `example_6_…`.

use stickdice::games::siryu_race::{Action, Position, State};
use stickdice::games::SiryuRace;
use stickdice::{ActionList, ConfigError, Game, Node, Present, Throw};

/// Six black (no white side up): 0, three extra throws.
const SIX_BLACK: Throw = Throw::new(0);
/// One white side up: a sir, one extra throw.
const SIR: Throw = Throw::new(1);
/// Five white sides up: a sir too.
const SIR5: Throw = Throw::new(5);
/// Two, three, four white sides up: 0, no extra throw.
const ZERO: Throw = Throw::new(3);
/// Six white: 6 points of ordinary steps, one extra throw.
const SIX_WHITE: Throw = Throw::new(6);

fn game(seats: usize) -> SiryuRace {
    SiryuRace::with_seats(seats).unwrap()
}

fn game_with(seats: usize, options: &[(&str, &str)]) -> SiryuRace {
    let mut g = game(seats);
    for (k, v) in options {
        g.set_option(k, v).unwrap();
    }
    g
}

/// A position with these pieces (father, angel, mother of each seat), `turn` to throw,
/// owing one throw.
fn position(pieces: &[[u8; 3]], turn: u8) -> State {
    State::from_position(Position {
        pieces: pieces.to_vec(),
        turn,
        ..Position::start(pieces.len())
    })
    .unwrap()
}

fn legal(g: &SiryuRace, s: &State) -> Vec<String> {
    let mut out = ActionList::new();
    g.legal_actions(s, &mut out);
    out.iter().map(|a| a.to_string()).collect()
}

/// Throws `t` (checked) and returns the legal actions.
fn throw(g: &SiryuRace, s: &mut State, t: Throw) -> Vec<String> {
    g.apply_throw(s, t).unwrap();
    g.validate(s).unwrap();
    assert_eq!(
        g.node(s),
        Node::Decide(s.turn()),
        "a decision after every throw"
    );
    legal(g, s)
}

/// Applies the action in notation (checked).
fn play(g: &SiryuRace, s: &mut State, action: &str) {
    let a = g.parse_action(action).unwrap();
    g.apply_action(s, a).unwrap();
    g.validate(s).unwrap();
}

/// Throws `t` and plays `action`.
fn throw_play(g: &SiryuRace, s: &mut State, t: Throw, action: &str) {
    throw(g, s, t);
    play(g, s, action);
}

// ---- worked examples ----------------------------------------------------------------------

#[test]
fn example_1_a_sir_at_the_start_offers_all_three_pieces_and_an_extra_throw() {
    let g = game(2);
    let s0 = g.initial_state();
    let mut s = s0;
    assert_eq!(throw(&g, &mut s, SIR5), ["father", "angel", "mother"]);
    let at_decision = s;
    // Father 0 -> 1.
    play(&g, &mut s, "father");
    assert_eq!(s.pieces_of(0), [1, 1, 2]);
    assert_eq!(g.node(&s), Node::Throw(0), "the sir's extra throw");
    // Angel 1 -> 3 (two ordinary steps at ½ point), passing idx 2, where P2's mother is on
    // her own start: she stays.
    let mut s = at_decision;
    play(&g, &mut s, "angel");
    assert_eq!(s.pieces_of(0), [0, 3, 2]);
    assert_eq!(s.pieces_of(1), [0, 1, 2]);
    assert_eq!(g.node(&s), Node::Throw(0));
    // Mother 2 -> 3.
    let mut s = at_decision;
    play(&g, &mut s, "mother");
    assert_eq!(s.pieces_of(0), [0, 1, 3]);
}

#[test]
fn example_2_an_angel_passing_a_father_sends_him_back() {
    let g = game(2);
    let mut s = position(&[[0, 3, 2], [4, 1, 2]], 0);
    throw_play(&g, &mut s, SIR, "angel");
    assert_eq!(s.pieces_of(0), [0, 5, 2]);
    assert_eq!(
        s.pieces_of(1),
        [0, 1, 2],
        "P2's father passed on idx 4 goes back to idx 0"
    );
}

#[test]
fn example_3_six_white_stops_short_of_the_minaret_and_sends_back_what_it_passes() {
    let g = game(2);
    let start = position(&[[9, 1, 2], [10, 1, 2]], 0);
    let mut s = start;
    assert_eq!(throw(&g, &mut s, SIX_WHITE), ["father", "angel", "mother"]);
    let at_decision = s;
    // The father 9 -> 11 passing idx 10; the other 4 points are lost at the Minaret.
    play(&g, &mut s, "father");
    assert_eq!(s.pieces_of(0), [11, 1, 2]);
    assert_eq!(s.pieces_of(1), [0, 1, 2]);
    let after_father = s;
    // The angel 1 -> 11 also passes and sends back P2's father.
    let mut a = at_decision;
    play(&g, &mut a, "angel");
    assert_eq!((a.pieces_of(0), a.pieces_of(1)), ([9, 11, 2], [0, 1, 2]));
    // The mother 2 -> 8 passes idx 3..7 only.
    let mut m = at_decision;
    play(&g, &mut m, "mother");
    assert_eq!((m.pieces_of(0), m.pieces_of(1)), ([9, 1, 8], [10, 1, 2]));
    // The extra throw is a sir: the father goes 11 -> 12, into the Minaret.
    let mut s = after_father;
    assert_eq!(g.node(&s), Node::Throw(0));
    throw_play(&g, &mut s, SIR, "father");
    assert_eq!(s.pieces_of(0), [12, 1, 2]);
    // A later sir takes him out to idx 13; six white cannot.
    let mut six = s;
    assert!(!throw(&g, &mut six, SIX_WHITE).contains(&"father".to_string()));
    throw_play(&g, &mut s, SIR, "father");
    assert_eq!(s.pieces_of(0), [13, 1, 2]);
}

#[test]
fn example_4_the_angels_sir_from_idx_23_stops_on_the_corner() {
    let g = game(2);
    let mut s = position(&[[0, 23, 2], [0, 1, 2]], 0);
    throw_play(&g, &mut s, SIR, "angel");
    assert_eq!(
        s.pieces_of(0)[1],
        24,
        "½ point lost before the road's sir step"
    );
    throw_play(&g, &mut s, SIR, "angel");
    assert_eq!(s.pieces_of(0)[1], 25);
    let mut s = position(&[[0, 23, 2], [0, 1, 2]], 0);
    throw_play(&g, &mut s, SIX_WHITE, "angel");
    assert_eq!(s.pieces_of(0)[1], 24);
}

#[test]
fn example_5_three_sirs_in_any_turns_move_a_road_piece_onto_cairo() {
    let g = game(2);
    let mut s = position(&[[0, 1, 27], [0, 1, 2]], 0);
    // First sir: count 1; then P1's extra throw is a 0 (pass) and P2 plays a turn.
    throw_play(&g, &mut s, SIR, "mother");
    assert_eq!((s.pieces_of(0)[2], s.sirs_of(0)[2]), (27, 1));
    throw_play(&g, &mut s, ZERO, "pass");
    throw_play(&g, &mut s, ZERO, "pass");
    assert_eq!(s.turn(), 0);
    throw_play(&g, &mut s, SIR5, "mother");
    assert_eq!((s.pieces_of(0)[2], s.sirs_of(0)[2]), (27, 2));
    throw_play(&g, &mut s, SIR, "mother");
    assert_eq!((s.pieces_of(0)[2], s.sirs_of(0)[2]), (28, 0));
}

#[test]
fn example_6_six_black_is_a_pass_owing_three_throws_and_a_sir_keeps_three_owed() {
    let g = game(2);
    let mut s = g.initial_state();
    assert_eq!(s.owed(), 1);
    assert_eq!(throw(&g, &mut s, SIX_BLACK), ["pass"]);
    play(&g, &mut s, "pass");
    assert_eq!((s.turn(), s.owed()), (0, 3));
    assert_eq!(throw(&g, &mut s, SIR), ["father", "angel", "mother"]);
    assert_eq!(s.owed(), 3);
}

// ---- throws and turns ---------------------------------------------------------------------

#[test]
fn sticks_are_six_with_the_binomial_distribution() {
    let g = game(2);
    let p: Vec<f64> = g
        .throw_outcomes()
        .iter()
        .map(|o| o.probability * 64.0)
        .collect();
    assert_eq!(p, [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0]);
    let mut s = g.initial_state();
    assert!(g.apply_throw(&mut s, Throw::new(7)).is_err());
    assert_eq!(s, g.initial_state());
}

#[test]
fn extra_throws_follow_the_table_and_add_up() {
    let g = game(2);
    for (w, extra) in [(0, 3), (1, 1), (2, 0), (3, 0), (4, 0), (5, 1), (6, 1)] {
        let mut s = g.initial_state();
        throw(&g, &mut s, Throw::new(w));
        assert_eq!(s.owed(), extra, "w = {w}");
    }
    // Six black, six black: 1 - 1 + 3 = 3, then 3 - 1 + 3 = 5; five zeros later the turn
    // passes.
    let mut s = g.initial_state();
    throw_play(&g, &mut s, SIX_BLACK, "pass");
    throw_play(&g, &mut s, SIX_BLACK, "pass");
    assert_eq!(s.owed(), 5);
    for _ in 0..4 {
        throw_play(&g, &mut s, ZERO, "pass");
        assert_eq!(s.turn(), 0);
    }
    throw_play(&g, &mut s, ZERO, "pass");
    assert_eq!((s.turn(), s.owed()), (1, 1));
    assert_eq!(s.throws(), 7);
}

#[test]
fn every_zero_is_a_decision_with_a_single_pass_and_pass_is_refused_when_a_piece_can_move() {
    let g = game(2);
    for w in [2, 3, 4] {
        let mut s = g.initial_state();
        assert_eq!(throw(&g, &mut s, Throw::new(w)), ["pass"]);
        assert!(g.apply_action(&mut s.clone(), Action::Father).is_err());
    }
    let mut s = g.initial_state();
    throw(&g, &mut s, SIR);
    let before = s;
    assert!(g.apply_action(&mut s, Action::Pass).is_err());
    assert_eq!(s, before);
}

#[test]
fn six_black_moves_six_under_the_option_with_its_three_extra_throws() {
    let g = game_with(2, &[("six_black_moves_six", "true")]);
    let mut s = position(&[[9, 1, 2], [0, 1, 2]], 0);
    assert_eq!(throw(&g, &mut s, SIX_BLACK), ["father", "angel", "mother"]);
    assert_eq!(s.owed(), 3);
    play(&g, &mut s, "father");
    assert_eq!(
        s.pieces_of(0)[0],
        11,
        "ordinary steps only: stops short of the Minaret"
    );
    // A road piece cannot use it.
    let mut s = position(&[[27, 26, 24], [0, 1, 2]], 0);
    assert_eq!(throw(&g, &mut s, SIX_BLACK), ["pass"]);
}

#[test]
fn turn_order_skips_finished_seats() {
    let g = game(3);
    let s = State::from_position(Position {
        pieces: vec![[0, 1, 2], [30, 30, 30], [0, 1, 2]],
        places: vec![0, 1, 0],
        ..Position::start(3)
    })
    .unwrap();
    let mut s = s;
    throw_play(&g, &mut s, ZERO, "pass");
    assert_eq!(s.turn(), 2);
    throw_play(&g, &mut s, ZERO, "pass");
    assert_eq!(s.turn(), 0);
}

// ---- using a throw ------------------------------------------------------------------------

#[test]
fn a_sir_moves_the_father_or_mother_one_step_of_either_kind() {
    let g = game(2);
    for (from, to) in [
        (5, 6),
        (10, 11),
        (11, 12),
        (12, 13),
        (24, 25),
        (25, 26),
        (26, 27),
    ] {
        let mut s = position(&[[from, 1, 2], [0, 1, 2]], 0);
        throw_play(&g, &mut s, SIR, "father");
        assert_eq!(s.pieces_of(0)[0], to, "father from {from}");
        let mut s = position(&[[0, 1, from.max(2)], [0, 1, 2]], 0);
        throw_play(&g, &mut s, SIR, "mother");
        assert_eq!(s.pieces_of(0)[2], to.max(3), "mother from {from}");
    }
}

#[test]
fn a_sir_moves_the_angel_one_sir_step_or_up_to_two_ordinary_steps() {
    let g = game(2);
    for (from, to) in [
        (1, 3),
        (9, 11),  // 9 -> 10 -> 11 (½ + ½)
        (10, 11), // 10 -> 11 (½), then the Minaret's sir step costs 1: stop
        (11, 12),
        (12, 13), // out of the Minaret: a sir step, the whole point
        (13, 15),
        (22, 24),
        (24, 25),
        (25, 26), // on the road the angel moves like the others
        (26, 27),
    ] {
        let mut s = position(&[[0, from, 2], [0, 1, 2]], 0);
        throw_play(&g, &mut s, SIR, "angel");
        assert_eq!(s.pieces_of(0)[1], to, "angel from {from}");
    }
}

#[test]
fn six_white_pays_ordinary_steps_only_doubled_for_the_angel() {
    let g = game(2);
    for (piece, from, to) in [
        ("father", 0, 6),
        ("father", 20, 24),
        ("father", 13, 19),
        ("angel", 1, 11),
        ("angel", 13, 24),
        ("mother", 2, 8),
        ("mother", 8, 11),
    ] {
        let k = ["father", "angel", "mother"]
            .iter()
            .position(|&p| p == piece)
            .unwrap();
        let mut pieces = [0, 1, 2];
        pieces[k] = from;
        let mut s = position(&[pieces, [0, 1, 2]], 0);
        throw_play(&g, &mut s, SIX_WHITE, piece);
        assert_eq!(s.pieces_of(0)[k], to, "{piece} from {from}");
    }
    // A piece before a sir step, on the road or on Mecca cannot use it.
    for from in [11, 12, 24, 25, 26, 27, 28, 29, 30] {
        let mut s = position(&[[from, 1, 2], [0, 1, 2]], 0);
        assert!(
            !throw(&g, &mut s, SIX_WHITE).contains(&"father".to_string()),
            "father on {from}"
        );
    }
}

#[test]
fn pieces_on_mecca_cannot_use_a_throw_and_nothing_overshoots_it() {
    let g = game(2);
    let s = State::from_position(Position {
        pieces: vec![[30, 29, 30], [0, 1, 2]],
        sirs: vec![[0, 2, 0], [0; 3]],
        ..Position::start(2)
    })
    .unwrap();
    let mut s = s;
    assert_eq!(throw(&g, &mut s, SIR), ["angel"]);
    play(&g, &mut s, "angel");
    assert_eq!(s.pieces_of(0), [30, 30, 30]);
}

#[test]
fn sir_counts_are_per_piece_and_kept_across_turns() {
    let g = game(2);
    let mut s = position(&[[27, 28, 2], [0, 1, 2]], 0);
    throw_play(&g, &mut s, SIR, "father");
    throw_play(&g, &mut s, SIR, "angel");
    throw_play(&g, &mut s, SIR, "angel");
    assert_eq!(s.sirs_of(0), [1, 2, 0]);
    throw_play(&g, &mut s, ZERO, "pass");
    throw_play(&g, &mut s, ZERO, "pass");
    assert_eq!(s.sirs_of(0), [1, 2, 0]);
    throw_play(&g, &mut s, SIR, "angel");
    assert_eq!((s.pieces_of(0), s.sirs_of(0)), ([27, 29, 2], [1, 0, 0]));
}

// ---- sending back -------------------------------------------------------------------------

#[test]
fn landing_on_or_starting_from_an_opponents_square_does_nothing_by_default() {
    let g = game(2);
    let mut s = position(&[[5, 1, 2], [6, 1, 2]], 0);
    throw_play(&g, &mut s, SIR, "father");
    assert_eq!((s.pieces_of(0), s.pieces_of(1)), ([6, 1, 2], [6, 1, 2]));
    throw_play(&g, &mut s, SIX_WHITE, "father");
    assert_eq!((s.pieces_of(0), s.pieces_of(1)), ([11, 1, 2], [6, 1, 2]));
}

#[test]
fn own_pieces_are_never_sent_back_and_every_opponent_piece_passed_is() {
    let g = game(3);
    let mut s = position(&[[0, 1, 5], [3, 4, 2], [0, 6, 7]], 0);
    // P1's mother 5 -> 11 passes idx 6..10: P3's angel (6) and mother (7) go home.
    // P1's father walks 0 -> 6 passing P2's father (3) and angel (4) and P1's own mother (5).
    throw_play(&g, &mut s, SIX_WHITE, "father");
    assert_eq!(s.pieces_of(0), [6, 1, 5]);
    assert_eq!(s.pieces_of(1), [0, 1, 2]);
    assert_eq!(
        s.pieces_of(2),
        [0, 6, 7],
        "landing on P3's angel does nothing"
    );
    throw_play(&g, &mut s, SIX_WHITE, "mother");
    assert_eq!(s.pieces_of(0), [6, 1, 11]);
    assert_eq!(s.pieces_of(2), [0, 1, 2]);
}

#[test]
fn a_father_passed_on_the_angels_or_mothers_start_goes_back_to_idx_0() {
    let g = game(2);
    let mut s = position(&[[0, 1, 2], [2, 1, 2]], 0);
    // The angel 1 -> 3 passes idx 2: P2's father goes back to idx 0, P2's mother (on her own
    // start) stays.
    throw_play(&g, &mut s, SIR, "angel");
    assert_eq!(s.pieces_of(1), [0, 1, 2]);
}

#[test]
fn capture_on_landing_sends_back_the_pieces_where_a_walk_stops() {
    let g = game_with(2, &[("capture_on_landing", "true")]);
    let mut s = position(&[[5, 1, 2], [6, 1, 2]], 0);
    throw_play(&g, &mut s, SIR, "father");
    assert_eq!((s.pieces_of(0), s.pieces_of(1)), ([6, 1, 2], [0, 1, 2]));
    // Not a piece on its own start: P1's father lands on idx 1, where P2's angel starts.
    let mut s = position(&[[0, 1, 2], [0, 1, 2]], 0);
    throw_play(&g, &mut s, SIR, "father");
    assert_eq!((s.pieces_of(0), s.pieces_of(1)), ([1, 1, 2], [0, 1, 2]));
    // On the road, with the sir count lost.
    let s = State::from_position(Position {
        pieces: vec![[26, 1, 2], [27, 1, 2]],
        sirs: vec![[0; 3], [2, 0, 0]],
        ..Position::start(2)
    })
    .unwrap();
    let mut s = s;
    throw_play(&g, &mut s, SIR, "father");
    assert_eq!((s.pieces_of(1), s.sirs_of(1)), ([0, 1, 2], [0, 0, 0]));
}

#[test]
fn under_capture_on_landing_a_counting_sir_is_no_walk_the_third_is_and_mecca_is_safe() {
    let g = game_with(2, &[("capture_on_landing", "true")]);
    let mut s = position(&[[27, 1, 2], [27, 1, 2]], 0);
    throw_play(&g, &mut s, SIR, "father");
    assert_eq!((s.pieces_of(1), s.sirs_of(0)), ([27, 1, 2], [1, 0, 0]));
    // The third sir's step onto Cairo, where P2's father stands, sends him back.
    let s = State::from_position(Position {
        pieces: vec![[27, 1, 2], [28, 1, 2]],
        sirs: vec![[2, 0, 0], [1, 0, 0]],
        ..Position::start(2)
    })
    .unwrap();
    let mut s = s;
    throw_play(&g, &mut s, SIR, "father");
    assert_eq!((s.pieces_of(0), s.pieces_of(1)), ([28, 1, 2], [0, 1, 2]));
    assert_eq!(s.sirs_of(1), [0, 0, 0]);
    // Onto Mecca: nothing is sent back.
    let s = State::from_position(Position {
        pieces: vec![[29, 1, 2], [30, 1, 2]],
        sirs: vec![[2, 0, 0], [0, 0, 0]],
        ..Position::start(2)
    })
    .unwrap();
    let mut s = s;
    throw_play(&g, &mut s, SIR, "father");
    assert_eq!((s.pieces_of(0), s.pieces_of(1)), ([30, 1, 2], [30, 1, 2]));
}

// ---- end and ranking ----------------------------------------------------------------------

#[test]
fn with_two_players_the_first_to_finish_wins_and_owed_throws_are_not_made() {
    let g = game(2);
    let s = State::from_position(Position {
        pieces: vec![[30, 30, 29], [20, 20, 20]],
        sirs: vec![[0, 0, 2], [0; 3]],
        ..Position::start(2)
    })
    .unwrap();
    let mut s = s;
    throw_play(&g, &mut s, SIR, "mother");
    assert_eq!(s.place(0), 1);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P1 > P2");
}

#[test]
fn a_finisher_leaves_the_turn_order_at_once_and_the_game_goes_on_until_one_races() {
    let g = game(3);
    let s = State::from_position(Position {
        pieces: vec![[30, 30, 29], [20, 20, 20], [30, 30, 29]],
        sirs: vec![[0, 0, 2], [0; 3], [0, 0, 2]],
        ..Position::start(3)
    })
    .unwrap();
    let mut s = s;
    throw_play(&g, &mut s, SIR, "mother");
    assert_eq!(s.place(0), 1);
    // The sir's extra throw is not made: P2 throws, owing one.
    assert_eq!(g.node(&s), Node::Throw(1));
    assert_eq!(s.owed(), 1);
    throw_play(&g, &mut s, ZERO, "pass");
    assert_eq!(g.node(&s), Node::Throw(2));
    throw_play(&g, &mut s, SIR5, "mother");
    assert_eq!(s.place(2), 2);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P1 > P3 > P2");
}

#[test]
fn at_the_throw_cap_the_last_decision_is_made_and_the_seats_racing_tie_below_finishers() {
    let g = game_with(3, &[("max_throws", "1")]);
    let s = State::from_position(Position {
        pieces: vec![[0, 1, 2], [30, 30, 30], [5, 1, 2]],
        places: vec![0, 1, 0],
        ..Position::start(3)
    })
    .unwrap();
    let mut s = s;
    throw(&g, &mut s, SIR);
    assert_eq!(
        g.node(&s),
        Node::Decide(0),
        "the cap-th throw's decision is made"
    );
    play(&g, &mut s, "father");
    assert_eq!(s.pieces_of(0), [1, 1, 2]);
    assert_eq!(g.node(&s), Node::End, "its extra throw is not");
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P2 > P1 = P3");
}

// ---- options, states, notation ------------------------------------------------------------

#[test]
fn options_read_and_refuse_as_documented() {
    let mut g = game(2);
    assert_eq!(
        g.options(),
        [
            ("max_throws", "10000".to_string()),
            ("six_black_moves_six", "false".to_string()),
            ("capture_on_landing", "false".to_string()),
        ]
    );
    assert!(matches!(
        g.set_option("capture_on_landing", "sometimes"),
        Err(ConfigError::BadValue { .. })
    ));
    assert!(matches!(
        g.set_option("cairo_always_three", "true"),
        Err(ConfigError::UnknownOption { .. })
    ));
    assert_eq!(g, game(2));
    assert!(SiryuRace::with_seats(1).is_err());
    assert!(SiryuRace::with_seats(9).is_err());
}

#[test]
fn actions_are_written_by_the_pieces_names() {
    let g = game(2);
    for (text, a) in [
        ("father", Action::Father),
        (" Angel ", Action::Angel),
        ("MOTHER", Action::Mother),
        ("pass", Action::Pass),
        ("m", Action::Mother),
    ] {
        assert_eq!(g.parse_action(text), Ok(a));
    }
    assert_eq!(Action::Angel.to_string(), "angel");
    assert!(g
        .parse_action("djinn")
        .unwrap_err()
        .to_string()
        .contains("`angel`"));
}

#[test]
fn states_are_checked_when_built_and_when_read_from_json() {
    let bad = Position {
        pieces: vec![[31, 0, 2], [30, 30, 30], [5, 1, 9]],
        sirs: vec![[0, 0, 0], [0, 0, 0], [0, 0, 3]],
        places: vec![2, 0, 0],
        turn: 5,
        owed: 0,
        pending: Some(Throw::new(7)),
        throws: 0,
    };
    let text = State::from_position(bad).unwrap_err().to_string();
    for want in [
        "P1's father is at idx 31",
        "P1's angel is at idx 0, behind its start",
        "P3's mother's sir count 3",
        "sir count of 3 on idx 9",
        "all of P2's pieces are on Mecca but it has no finishing place",
        "P1 has finishing place 2 but not all its pieces",
        "only 1 seat(s) have finished",
        "only 3 seats",
        "7 white sides up",
        "no throw has been made",
    ] {
        assert!(text.contains(want), "{want} in {text}");
    }
    let g = game(2);
    let json = g.save_state(&g.initial_state());
    assert_eq!(
        json,
        r#"{"pieces":[[0,1,2],[0,1,2]],"sirs":[[0,0,0],[0,0,0]],"places":[0,0],"turn":0,"owed":1,"pending":null,"throws":0}"#
    );
    assert_eq!(g.load_state(&json).unwrap(), g.initial_state());
    assert_eq!(
        g.load_state(r#"{"pieces":[[0,1,2],[0,1,2]]}"#).unwrap(),
        g.initial_state()
    );
    assert!(g
        .load_state(r#"{"pieces":[[0,1,2],[0,1,2]],"owed":0}"#)
        .unwrap_err()
        .to_string()
        .contains("owes none"));
    assert!(g
        .load_state(r#"{"pieces":[[0,1,2],[0,1,2]],"owed":9,"throws":2}"#)
        .unwrap_err()
        .to_string()
        .contains("more than one plus two per throw"));
    let capped = game_with(2, &[("max_throws", "5")]);
    let s = State::from_position(Position {
        throws: 6,
        ..Position::start(2)
    })
    .unwrap();
    assert!(capped
        .validate(&s)
        .unwrap_err()
        .to_string()
        .contains("throw cap of 5"));
    assert!(g.validate(&game(3).initial_state()).is_err());
}

#[test]
fn throws_and_the_board_are_described_in_the_games_words() {
    let g = game(2);
    let s = position(&[[11, 1, 2], [0, 1, 2]], 0);
    assert_eq!(
        g.describe_throw(&s, SIX_WHITE),
        "six white: 6 points of ordinary steps, throw again; P1 can use it with: angel, mother"
    );
    assert_eq!(
        g.describe_throw(&s, ZERO),
        "3 white sides up: 0; P1 cannot use it and passes"
    );
    let text = g.render(&g.initial_state());
    assert!(text.contains("P1 to throw (owes 1; throw 1 of at most 10000)."));
    assert!(text.contains("P2: father on idx 0, angel on idx 1, mother on idx 2"));
    assert!(text.contains("30 Mecca"));
}

#[test]
fn the_track_is_drawn_down_and_up_the_columns_with_the_road_below_the_middle() {
    use stickdice::games::siryu_race::{square_cell, step_kind, Step};
    let cells: Vec<(i8, i8)> = (0..31).map(|i| square_cell(i).unwrap()).collect();
    assert_eq!(cells[0], (4, 0));
    assert_eq!(cells[1], (3, 0));
    assert_eq!(cells[2], (2, 0));
    assert_eq!(cells[4], (0, 0));
    assert_eq!(cells[5], (0, 1));
    assert_eq!(cells[10], (4, 2));
    assert_eq!(cells[12], (2, 2));
    assert_eq!(cells[20], (4, 4));
    assert_eq!(cells[24], (0, 4));
    assert_eq!(cells[25], (-1, 2));
    assert_eq!(cells[30], (-6, 2));
    for (i, c) in cells.iter().enumerate() {
        assert!(!cells[..i].contains(c));
    }
    let sir: Vec<u8> = (0..30)
        .filter(|&i| step_kind(i) == Some(Step::Sir))
        .collect();
    assert_eq!(sir, [11, 12, 24, 25, 26]);
    let three: Vec<u8> = (0..30)
        .filter(|&i| step_kind(i) == Some(Step::ThreeSir))
        .collect();
    assert_eq!(three, [27, 28, 29]);
    assert_eq!(step_kind(30), None);
}
