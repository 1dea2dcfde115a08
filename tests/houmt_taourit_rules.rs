//! Scenario tests for Sig wa Duqqan (Houmt Taourit), docs/games/sig-wa-duqqan-taourit.md.
//!
//! Every expected position here was worked out by hand from the rules, step by step
//! (the comments show the working), not read back from the implementation. The worked
//! examples of that chapter are the tests named `example_1_…` to `example_6_…`.

use stickdice::games::houmt_taourit::{Piece, Position, State};
use stickdice::games::HoumtTaourit;
use stickdice::{ConfigError, Game, Node, Present, Throw};

use Piece::{Buried, Centre, Racing};

/// No white side up: 6, extra throw.
const SIX: Throw = Throw::new(0);
/// One white side up: sig (1), extra throw.
const SIG: Throw = Throw::new(1);
/// Two white sides up: 0, no extra throw (6 steps of the Ghoula on the centre).
const ZERO: Throw = Throw::new(2);
/// Three white sides up: 3, no extra throw.
const THREE: Throw = Throw::new(3);
/// Four white sides up: 4, extra throw.
const FOUR: Throw = Throw::new(4);

fn game(seats: usize) -> HoumtTaourit {
    HoumtTaourit::with_seats(seats).unwrap()
}

fn game_with(seats: usize, options: &[(&str, &str)]) -> HoumtTaourit {
    let mut g = game(seats);
    for (k, v) in options {
        g.set_option(k, v).unwrap();
    }
    g
}

/// A position with these pieces (seats in order), no sig counts, the Ghoula on `ghoula`
/// (moved already unless it is `None`: then on the start, never moved) and `turn` to throw.
fn position(pieces: &[Piece], ghoula: Option<u8>, turn: u8) -> State {
    State::from_position(Position {
        pieces: pieces.to_vec(),
        sigs: vec![],
        ghoula: ghoula.unwrap_or(0),
        ghoula_moved: ghoula.is_some(),
        turn,
        throws: 0,
    })
    .unwrap()
}

fn with_sigs(s: State, seat: usize, sigs: u8) -> State {
    let mut p = s.position();
    p.sigs[seat] = sigs;
    State::from_position(p).unwrap()
}

/// Applies throws (checked), validating after each.
fn throw_all(g: &HoumtTaourit, s: &mut State, throws: &[Throw]) {
    g.validate(s).unwrap();
    for &t in throws {
        g.apply_throw(s, t).unwrap();
        g.validate(s).unwrap();
    }
}

// ---- worked examples ----------------------------------------------------------------------

#[test]
fn example_1_a_six_from_the_start_and_a_zero_ends_the_turn() {
    let g = game(2);
    let mut s = g.initial_state();
    // w = 0: value 6, no sig needed to leave the start: 0 -> 6, extra throw.
    throw_all(&g, &mut s, &[SIX]);
    assert_eq!(s.pieces(), [Racing(6), Racing(0)]);
    assert_eq!(g.node(&s), Node::Throw(0));
    // w = 2: 0, nothing; no extra throw: P2's turn.
    throw_all(&g, &mut s, &[ZERO]);
    assert_eq!(s.pieces(), [Racing(6), Racing(0)]);
    assert_eq!(g.node(&s), Node::Throw(1));
    assert_eq!(s.throws(), 2);
}

#[test]
fn example_2_overshooting_stops_on_the_waiting_square_or_with_the_option_stays() {
    let g = game(2);
    let mut s = position(&[Racing(78), Racing(0)], None, 0);
    throw_all(&g, &mut s, &[FOUR]);
    // 78 + 4 = 82 passes idx 80: stops there, count 0, and throws again.
    assert_eq!(s.piece(0), Racing(80));
    assert_eq!(s.sigs(0), 0);
    assert_eq!(g.node(&s), Node::Throw(0));

    let g = game_with(2, &[("exact_waiting_square", "true")]);
    let mut s = position(&[Racing(78), Racing(0)], None, 0);
    throw_all(&g, &mut s, &[FOUR]);
    assert_eq!(s.piece(0), Racing(78));
    assert_eq!(
        g.node(&s),
        Node::Throw(0),
        "the 4 still grants its extra throw"
    );
}

#[test]
fn example_3_the_ghoulas_first_move_lifts_the_piece_on_the_start_then_drags_and_buries_it() {
    let g = game(2);
    let mut s = position(&[Racing(81), Racing(0)], None, 0);
    // P1 throws a 3 on idx 81: the Ghoula's first move. P2 is lifted, the Ghoula walks
    // 0 -> 1 -> 2 -> 3, P2 is set down on idx 3. No extra throw.
    throw_all(&g, &mut s, &[THREE]);
    assert!(s.ghoula_has_moved());
    assert_eq!(s.ghoula(), 3);
    assert_eq!(s.pieces(), [Racing(81), Racing(3)]);
    assert_eq!(g.node(&s), Node::Throw(1));
    // P2 throws w = 2 (nothing); P1 throws another 3: the Ghoula drags P2 3 -> 2 -> 1 -> 0,
    // and P2 is buried.
    throw_all(&g, &mut s, &[ZERO, THREE]);
    assert_eq!(s.pieces(), [Racing(81), Buried(1)]);
    assert_eq!(s.ghoula(), 0);
    // P2 is out: P1 takes every turn.
    assert_eq!(g.node(&s), Node::Throw(0));
}

#[test]
fn example_4_the_ghoula_walks_onto_a_piece_and_drags_it_back() {
    let g = game(2);
    let mut s = position(&[Centre(1), Racing(42)], Some(40), 0);
    // Value 4: 40 -> 41 -> 42 (forward, alone), then on 42 with P2: back 42 -> 41 -> 40
    // carrying P2. A 4 grants an extra throw.
    throw_all(&g, &mut s, &[FOUR]);
    assert_eq!(s.ghoula(), 40);
    assert_eq!(s.piece(1), Racing(40));
    assert_eq!(g.node(&s), Node::Throw(0));
}

#[test]
fn example_5_a_burial_and_the_steps_left_walk_the_ghoula_forward() {
    let g = game(2);
    let mut s = position(&[Centre(1), Racing(2)], Some(2), 0);
    // Value 3: back to idx 1 carrying P2, back to idx 0 burying P2, forward to idx 1.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(s.piece(1), Buried(1));
    assert_eq!(s.ghoula(), 1);
    // No piece races: the game is over; P1 wins.
    assert_eq!(g.node(&s), Node::End);
    let r = g.ranking(&s).unwrap();
    assert_eq!(r.to_string(), "P1 > P2");
}

#[test]
fn example_6_a_zero_on_the_centre_counts_six_and_drags_a_waiting_piece_losing_its_sigs() {
    let g = game(2);
    let s = position(&[Centre(1), Racing(80)], Some(78), 0);
    let mut s = with_sigs(s, 1, 5);
    // 6 steps: 78 -> 79 -> 80, then back 79, 78, 77, 76 carrying P2, whose count is now 0.
    throw_all(&g, &mut s, &[ZERO]);
    assert_eq!(s.ghoula(), 76);
    assert_eq!(s.piece(1), Racing(76));
    assert_eq!(s.sigs(1), 0);
    // No extra throw: P2's turn.
    assert_eq!(g.node(&s), Node::Throw(1));
}

// ---- throws -------------------------------------------------------------------------------

#[test]
fn throw_values_follow_the_table_and_six_sig_and_four_grant_an_extra_throw() {
    let g = game(2);
    // From idx 10: w = 0, 1, 2, 3, 4 -> 6, 1, 0, 3, 4.
    for (t, to, next) in [
        (SIX, 16, 0),
        (SIG, 11, 0),
        (ZERO, 10, 1),
        (THREE, 13, 1),
        (FOUR, 14, 0),
    ] {
        let mut s = position(&[Racing(10), Racing(0)], None, 0);
        throw_all(&g, &mut s, &[t]);
        assert_eq!(s.pieces(), [Racing(to), Racing(0)], "throw {t}");
        assert_eq!(g.node(&s), Node::Throw(next), "throw {t}");
    }
}

#[test]
fn sticks_are_four_with_the_binomial_distribution_and_a_fifth_white_side_is_refused() {
    let g = game(2);
    let p: Vec<f64> = g
        .throw_outcomes()
        .iter()
        .map(|o| o.probability * 16.0)
        .collect();
    assert_eq!(p, [1.0, 4.0, 6.0, 4.0, 1.0]);
    let mut s = g.initial_state();
    assert!(g.apply_throw(&mut s, Throw::new(5)).is_err());
    assert_eq!(s, g.initial_state());
}

#[test]
fn the_extra_throw_is_granted_whether_or_not_the_throw_moved_anything() {
    let g = game(2);
    // On idx 80 a 6 and a 4 move nothing but keep the turn.
    let mut s = position(&[Racing(80), Racing(0)], None, 0);
    throw_all(&g, &mut s, &[SIX, FOUR]);
    assert_eq!(s.piece(0), Racing(80));
    assert_eq!(g.node(&s), Node::Throw(0));
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(g.node(&s), Node::Throw(1));
    assert_eq!(s.throws(), 3);
}

// ---- what a throw does ----------------------------------------------------------------------

#[test]
fn no_sig_is_needed_to_leave_the_start_and_a_zero_does_nothing() {
    let g = game(2);
    for (t, to) in [(SIX, 6), (SIG, 1), (ZERO, 0), (THREE, 3), (FOUR, 4)] {
        let mut s = g.initial_state();
        throw_all(&g, &mut s, &[t]);
        assert_eq!(s.piece(0), Racing(to), "throw {t}");
    }
}

#[test]
fn a_move_landing_exactly_on_the_waiting_square_is_made_under_both_readings() {
    for exact in ["false", "true"] {
        let g = game_with(2, &[("exact_waiting_square", exact)]);
        let mut s = position(&[Racing(74), Racing(0)], None, 0);
        throw_all(&g, &mut s, &[SIX]);
        assert_eq!(s.piece(0), Racing(80), "exact {exact}");
        assert_eq!(s.sigs(0), 0, "the throw that brought it does not count");
    }
}

#[test]
fn overshooting_from_any_square_short_of_it_stops_on_idx_80_unless_the_option_is_set() {
    let g = game(2);
    let ge = game_with(2, &[("exact_waiting_square", "true")]);
    // From idx 79 a sig lands exactly; a 3, 4 or 6 overshoots.
    for t in [THREE, FOUR, SIX] {
        let mut s = position(&[Racing(79), Racing(0)], None, 0);
        throw_all(&g, &mut s, &[t]);
        assert_eq!(s.piece(0), Racing(80), "throw {t}");
        let mut s = position(&[Racing(79), Racing(0)], None, 0);
        throw_all(&ge, &mut s, &[t]);
        assert_eq!(s.piece(0), Racing(79), "throw {t}, exact");
    }
    let mut s = position(&[Racing(79), Racing(0)], None, 0);
    throw_all(&ge, &mut s, &[SIG]);
    assert_eq!(s.piece(0), Racing(80));
}

#[test]
fn on_the_waiting_square_the_seventh_sig_moves_the_piece_on_and_the_count_is_kept_across_turns() {
    let g = game(2);
    let mut s = position(&[Racing(80), Racing(5)], None, 0);
    // Three sigs (each an extra throw), then a 3 (only sigs count; no Ghoula move).
    throw_all(&g, &mut s, &[SIG, SIG, SIG, THREE]);
    assert_eq!((s.piece(0), s.sigs(0)), (Racing(80), 3));
    assert_eq!(s.ghoula(), 0);
    assert!(!s.ghoula_has_moved());
    // P2 throws a 0; P1 three more sigs: count 6; the 7th moves it to idx 81 with count 0.
    throw_all(&g, &mut s, &[ZERO, SIG, SIG, SIG]);
    assert_eq!((s.piece(0), s.sigs(0)), (Racing(80), 6));
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.piece(0), s.sigs(0)), (Racing(81), 0));
    assert_eq!(g.node(&s), Node::Throw(0));
}

#[test]
fn past_the_waiting_square_a_sig_steps_a_three_drives_the_ghoula_and_the_rest_do_nothing() {
    let g = game(2);
    for from in 81..=83u8 {
        let mut s = position(&[Racing(from), Racing(10)], Some(0), 0);
        throw_all(&g, &mut s, &[SIG]);
        assert_eq!(s.piece(0), Racing(from + 1));
    }
    let mut s = position(&[Racing(84), Racing(10)], Some(0), 0);
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!(s.piece(0), Centre(1));
    // The sig's extra throw is taken from the centre.
    assert_eq!(g.node(&s), Node::Throw(0));
    for t in [SIX, ZERO, FOUR] {
        let mut s = position(&[Racing(82), Racing(10)], Some(5), 0);
        throw_all(&g, &mut s, &[t]);
        assert_eq!((s.piece(0), s.ghoula()), (Racing(82), 5), "throw {t}");
    }
    let mut s = position(&[Racing(82), Racing(10)], Some(5), 0);
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!((s.piece(0), s.ghoula()), (Racing(82), 8));
    assert_eq!(g.node(&s), Node::Throw(1));
}

#[test]
fn on_the_centre_every_throw_drives_the_ghoula_by_its_value_a_zero_counting_six() {
    let g = game(2);
    for (t, steps, extra) in [
        (SIX, 6, true),
        (SIG, 1, true),
        (ZERO, 6, false),
        (THREE, 3, false),
        (FOUR, 4, true),
    ] {
        let mut s = position(&[Centre(1), Racing(60)], Some(10), 0);
        throw_all(&g, &mut s, &[t]);
        assert_eq!(s.ghoula(), 10 + steps, "throw {t}");
        assert_eq!(
            g.node(&s),
            Node::Throw(if extra { 0 } else { 1 }),
            "throw {t}"
        );
    }
}

// ---- the Ghoula ---------------------------------------------------------------------------

#[test]
fn the_ghoula_never_goes_past_idx_80_and_the_rest_of_its_move_is_lost() {
    let g = game(2);
    let mut s = position(&[Centre(1), Racing(81)], Some(78), 0);
    throw_all(&g, &mut s, &[SIX]);
    assert_eq!(s.ghoula(), 80);
    assert_eq!(
        s.piece(1),
        Racing(81),
        "pieces on idx 81 and beyond are out of its reach"
    );
    throw_all(&g, &mut s, &[FOUR]);
    assert_eq!(s.ghoula(), 80);
}

#[test]
fn a_piece_that_moves_onto_the_ghoulas_square_is_dragged_by_its_next_step() {
    let g = game(2);
    // P2 throws a 4 from idx 6 onto the Ghoula's idx 10; nothing happens yet.
    let mut s = position(&[Centre(1), Racing(6)], Some(10), 1);
    throw_all(&g, &mut s, &[FOUR, ZERO]);
    assert_eq!((s.piece(1), s.ghoula()), (Racing(10), 10));
    // P1 throws a sig: one step, back to idx 9 with P2.
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.piece(1), s.ghoula()), (Racing(9), 9));
}

#[test]
fn pieces_on_a_square_the_ghoula_is_carried_onto_are_picked_up_by_its_next_step() {
    let g = game(3);
    let mut s = position(&[Centre(1), Racing(5), Racing(4)], Some(5), 0);
    // 3 steps: 5 -> 4 with P2 (P3 stands there), 4 -> 3 with both, 3 -> 2 with both.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(s.pieces(), [Centre(1), Racing(2), Racing(2)]);
    assert_eq!(s.ghoula(), 2);
}

#[test]
fn a_carried_piece_is_not_held_and_escapes_on_its_owners_turn() {
    let g = game(2);
    let mut s = position(&[Centre(1), Racing(20)], Some(20), 0);
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!((s.piece(1), s.ghoula()), (Racing(17), 17));
    assert_eq!(g.node(&s), Node::Throw(1));
    throw_all(&g, &mut s, &[FOUR]);
    assert_eq!((s.piece(1), s.ghoula()), (Racing(21), 17));
}

#[test]
fn pieces_on_the_start_are_never_dragged_after_the_first_move() {
    let g = game(3);
    let mut s = position(&[Centre(1), Racing(0), Racing(1)], Some(1), 0);
    // 1 -> 0 burying P3; then forward from idx 0 (P2 stays on the start) to idx 1, 2.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(s.pieces(), [Centre(1), Racing(0), Buried(1)]);
    assert_eq!(s.ghoula(), 2);
}

#[test]
fn pieces_buried_by_one_step_share_a_burial_number_and_later_burials_get_the_next() {
    let g = game(4);
    let mut s = position(&[Centre(1), Racing(1), Racing(1), Racing(3)], Some(1), 0);
    // Step 1: 1 -> 0 burying P2 and P3 (burial 1); steps 2, 3: forward to idx 2.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(s.pieces(), [Centre(1), Buried(1), Buried(1), Racing(3)]);
    assert_eq!(s.ghoula(), 2);
    // P4 (P2 and P3 skipped) throws a 0; P1 throws a 6: 2 -> 3, then back 3 -> 2 -> 1 -> 0
    // carrying P4 and burying it (burial 2), then forward 0 -> 1 -> 2.
    assert_eq!(g.node(&s), Node::Throw(3));
    throw_all(&g, &mut s, &[ZERO]);
    assert_eq!(g.node(&s), Node::Throw(0), "the buried seats are skipped");
    throw_all(&g, &mut s, &[SIX]);
    assert_eq!(s.pieces(), [Centre(1), Buried(1), Buried(1), Buried(2)]);
    assert_eq!(s.ghoula(), 2);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P1 > P2 = P3 = P4");
    let ga = game_with(4, &[("rank_by_arrival", "true")]);
    assert_eq!(ga.ranking(&s).unwrap().to_string(), "P1 > P4 > P2 = P3");
}

#[test]
fn the_first_move_sets_lifted_pieces_down_even_where_it_ends_on_the_start() {
    let g = game(3);
    // P1 on the centre, P2 on idx 2, P3 on the start, the Ghoula never moved. A 4:
    // P3 is lifted; 0 -> 1 -> 2, then back 2 -> 1 with P2, 1 -> 0 burying P2. The move ends
    // on idx 0 and P3 is set down there, unharmed.
    let mut s = position(&[Centre(1), Racing(2), Racing(0)], None, 0);
    throw_all(&g, &mut s, &[FOUR]);
    assert_eq!(s.pieces(), [Centre(1), Buried(1), Racing(0)]);
    assert_eq!(s.ghoula(), 0);
    assert!(s.ghoula_has_moved());
    // Its next move walks forward from the start without P3.
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.piece(2), s.ghoula()), (Racing(0), 1));
}

#[test]
fn lifted_pieces_are_dragged_by_the_ghoulas_next_step_if_still_on_its_square() {
    let g = game(3);
    let mut s = position(&[Racing(83), Racing(0), Racing(0)], None, 0);
    // First move: P2 and P3 lifted, 0 -> 3, set down on idx 3.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(s.pieces(), [Racing(83), Racing(3), Racing(3)]);
    // P2 escapes with a 4 (then a 0); P3 throws a 0; P1 throws a 3: back 3 -> 0 with P3,
    // burying it.
    throw_all(&g, &mut s, &[FOUR, ZERO, ZERO, THREE]);
    assert_eq!(s.pieces(), [Racing(83), Racing(7), Buried(1)]);
    assert_eq!(s.ghoula(), 0);
}

#[test]
fn the_ghoula_does_not_move_while_every_thrower_races_short_of_idx_81() {
    let g = game(2);
    let mut s = g.initial_state();
    throw_all(&g, &mut s, &[THREE, THREE, SIX, ZERO, FOUR, THREE]);
    assert!(!s.ghoula_has_moved());
    assert_eq!(s.ghoula(), 0);
}

// ---- turn order, end and ranking ----------------------------------------------------------

#[test]
fn a_seat_on_the_centre_keeps_taking_turns_while_a_piece_races() {
    let g = game(3);
    let mut s = position(&[Centre(1), Racing(30), Racing(20)], Some(0), 2);
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(g.node(&s), Node::Throw(0));
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(s.ghoula(), 3);
    assert_eq!(g.node(&s), Node::Throw(1));
}

#[test]
fn two_players_who_both_reach_the_centre_draw_and_the_option_ranks_by_arrival() {
    let s = position(&[Centre(1), Racing(84)], Some(0), 1);
    let g = game(2);
    let mut a = s;
    throw_all(&g, &mut a, &[SIG]);
    assert_eq!(a.pieces(), [Centre(1), Centre(2)]);
    assert_eq!(g.node(&a), Node::End);
    let r = g.ranking(&a).unwrap();
    assert_eq!((r.score(0), r.score(1)), (0.5, 0.5));
    let ga = game_with(2, &[("rank_by_arrival", "true")]);
    let mut b = s;
    throw_all(&ga, &mut b, &[SIG]);
    assert_eq!(ga.ranking(&b).unwrap().to_string(), "P1 > P2");
}

#[test]
fn at_the_throw_cap_seats_still_racing_tie_between_the_centre_and_the_buried() {
    let g = game_with(4, &[("max_throws", "1")]);
    let mut s = position(&[Centre(1), Racing(30), Buried(1), Racing(40)], Some(0), 0);
    // The cap-th throw is a 6 with an extra throw: the Ghoula walks 0 -> 6, and the game
    // ends anyway.
    throw_all(&g, &mut s, &[SIX]);
    assert_eq!(s.ghoula(), 6);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P1 > P2 = P4 > P3");
    let mut more = s;
    assert!(g.apply_throw(&mut more, SIG).is_err());
    assert_eq!(more, s);
}

#[test]
fn a_game_that_ends_on_the_cap_th_throw_ends_naturally() {
    let g = game_with(2, &[("max_throws", "1"), ("rank_by_arrival", "true")]);
    let mut s = position(&[Racing(84), Centre(1)], Some(0), 0);
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!(s.racing(), 0);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P2 > P1");
}

// ---- options, states, notation ------------------------------------------------------------

#[test]
fn options_read_and_refuse_as_documented() {
    let mut g = game(2);
    assert_eq!(
        g.options(),
        [
            ("max_throws", "10000".to_string()),
            ("exact_waiting_square", "false".to_string()),
            ("rank_by_arrival", "false".to_string()),
        ]
    );
    assert!(matches!(
        g.set_option("rank_by_arrival", "perhaps"),
        Err(ConfigError::BadValue { .. })
    ));
    assert!(matches!(
        g.set_option("sig_to_start", "true"),
        Err(ConfigError::UnknownOption { .. })
    ));
    assert_eq!(g, game(2));
    assert!(HoumtTaourit::with_seats(1).is_err());
    assert!(HoumtTaourit::with_seats(9).is_err());
    assert!(g.parse_action("pass").is_err());
}

#[test]
fn states_are_checked_when_built_and_when_read_from_json() {
    let bad = Position {
        pieces: vec![Racing(85), Centre(2), Buried(2)],
        sigs: vec![0, 3, 0],
        ghoula: 81,
        ghoula_moved: false,
        turn: 2,
        throws: 0,
    };
    let e = State::from_position(bad).unwrap_err();
    let text = e.to_string();
    for want in [
        "idx 85",
        "arrived as number 2, but only 1",
        "sig count of 3",
        "no piece was buried at burial step 1",
        "never goes past idx 80",
        "not made its first move",
        "never moved",
        "P3 is buried",
    ] {
        assert!(text.contains(want), "{want} in {text}");
    }
    let g = game(2);
    let json = g.save_state(&g.initial_state());
    assert_eq!(
        json,
        r#"{"pieces":[{"Racing":0},{"Racing":0}],"sigs":[0,0],"ghoula":0,"ghoula_moved":false,"turn":0,"throws":0}"#
    );
    assert_eq!(g.load_state(&json).unwrap(), g.initial_state());
    assert!(g
        .load_state(r#"{"pieces":[{"Racing":0},{"Racing":0}],"ghoula":90}"#)
        .unwrap_err()
        .to_string()
        .contains("never goes past idx 80"));
    // A three-seat state is not a state of a two-seat game; a state past the cap neither.
    let three = game(3).initial_state();
    assert!(g
        .validate(&three)
        .unwrap_err()
        .to_string()
        .contains("3 seats"));
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
}

#[test]
fn throws_are_described_in_the_games_words() {
    let g = game(2);
    let s = position(&[Racing(78), Racing(0)], None, 0);
    assert_eq!(
        g.describe_throw(&s, FOUR),
        "4 white sides up: 4, throw again; P1 stops on the waiting square (idx 80)"
    );
    let s = position(&[Centre(1), Racing(0)], None, 0);
    assert!(g
        .describe_throw(&s, ZERO)
        .contains("a 0 counts 6: the Ghoula moves 6 steps"));
    assert!(g.describe_throw(&s, ZERO).contains("its first move"));
    let text = g.render(&g.initial_state());
    assert!(text.contains("P1 to throw"));
    assert!(text.contains("P1 on the start; P2 on the start"));
}

#[test]
fn the_spiral_is_drawn_as_the_table_gives_it() {
    use stickdice::games::houmt_taourit::square_point;
    // The table's runs, end points included.
    for (idx, point) in [
        (0, (-6, -7)),
        (13, (-6, 6)),
        (14, (-5, 6)),
        (25, (6, 6)),
        (26, (6, 5)),
        (35, (6, -4)),
        (36, (5, -4)),
        (45, (-4, -4)),
        (46, (-4, -3)),
        (53, (-4, 4)),
        (54, (-3, 4)),
        (61, (4, 4)),
        (62, (4, 3)),
        (67, (4, -2)),
        (68, (3, -2)),
        (73, (-2, -2)),
        (74, (-2, -1)),
        (77, (-2, 2)),
        (78, (-1, 2)),
        (80, (1, 2)),
        (81, (2, 2)),
        (82, (2, 1)),
        (83, (2, 0)),
        (84, (1, 0)),
        (85, (0, 0)),
    ] {
        assert_eq!(square_point(idx), Some(point), "idx {idx}");
    }
    assert_eq!(square_point(86), None);
    // Neighbouring squares are 1 apart; no two squares share a point.
    let points: Vec<(i8, i8)> = (0..86).map(|i| square_point(i).unwrap()).collect();
    for w in points.windows(2) {
        assert_eq!((w[0].0 - w[1].0).abs() + (w[0].1 - w[1].1).abs(), 1);
    }
    for (i, p) in points.iter().enumerate() {
        assert!(!points[..i].contains(p));
    }
}

/// Issue 39: a position where the Ghoula has moved though no piece is on idx 81 or beyond
/// was accepted; only a piece there (or on the centre) drives the Ghoula, and no piece
/// ever comes back from there, so it cannot arise.
#[test]
fn the_ghoula_has_moved_only_if_a_piece_got_through() {
    let g = game(2);
    let at = |pieces: &str, ghoula: u8| {
        format!(
            r#"{{"pieces":[{pieces}],"ghoula":{ghoula},"ghoula_moved":true,"turn":0,"throws":60}}"#
        )
    };
    for pieces in [
        r#"{"Racing":81},{"Racing":12}"#,
        r#"{"Centre":1},{"Racing":12}"#,
    ] {
        assert!(g.load_state(&at(pieces, 5)).is_ok(), "{pieces}");
    }
    for pieces in [
        r#"{"Racing":80},{"Racing":12}"#,
        r#"{"Racing":0},{"Racing":0}"#,
    ] {
        let e = g.load_state(&at(pieces, 5)).unwrap_err().to_string();
        assert!(
            e.contains("no piece is on idx 81 or beyond"),
            "{pieces}: {e}"
        );
    }
    // The Ghoula back on the start after a burial is still a moved Ghoula.
    let e = State::from_position(Position {
        pieces: vec![Racing(40), Buried(1)],
        ghoula: 0,
        ghoula_moved: true,
        ..Position::start(2)
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("no piece is on idx 81 or beyond"), "{e}");
}
