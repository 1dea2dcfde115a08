//! Scenario tests for Sig wa Duqqan (Houmt al-Arbah), docs/games/sig-wa-duqqan.md.
//!
//! Every expected position here was worked out by hand from the rules, step by step (the
//! comments show the working), not read back from the implementation.

use rand::SeedableRng as _;
use stickdice::games::sig_wa_duqqan::{Piece, Position as DuqqanPosition, Problem, State};
use stickdice::{ActionList, ConfigError, Game, Node, Present, SigWaDuqqan, Throw};

use Piece::{Arrived, Buried, Racing};

/// No white side up: 6, extra throw.
const SIX: Throw = Throw::new(0);
/// One white side up: sig (1), extra throw.
const SIG: Throw = Throw::new(1);
/// Two white sides up: 0, no extra throw.
const ZERO: Throw = Throw::new(2);
/// Three white sides up: 3, no extra throw.
const THREE: Throw = Throw::new(3);
/// Four white sides up: 4, extra throw.
const FOUR: Throw = Throw::new(4);

fn game(seats: usize) -> SigWaDuqqan {
    SigWaDuqqan::with_seats(seats).unwrap()
}

fn game_with(seats: usize, options: &[(&str, &str)]) -> SigWaDuqqan {
    let mut g = game(seats);
    for (k, v) in options {
        g.set_option(k, v).unwrap();
    }
    g
}

/// A position with the given pieces (seats in order), no sig counts, the Ghoula where
/// given and `turn` to throw.
fn position(pieces: &[Piece], ghoula: Option<u8>, turn: u8) -> State {
    // Changed from the start with the unchecked builders: `validate`'s tests give it
    // positions the rules never reach (`State::try_from` a `Position` would refuse them).
    let mut s = State::try_from(DuqqanPosition::new(&[Racing(0), Racing(0)])).unwrap();
    for (seat, &piece) in pieces.iter().enumerate() {
        s = s.with_piece(seat, piece);
    }
    s.with_ghoula(ghoula).with_turn(turn)
}

/// Applies throws (checked), validating after each.
fn throw_all(g: &SigWaDuqqan, s: &mut State, throws: &[Throw]) {
    g.validate(s).unwrap();
    for &t in throws {
        g.apply_throw(s, t).unwrap();
        g.validate(s).unwrap();
    }
}

fn pieces(s: &State, n: usize) -> Vec<Piece> {
    s.pieces()[..n].to_vec()
}

// ---- throws -------------------------------------------------------------------------------

#[test]
fn throw_values_follow_the_table_and_six_sig_and_four_grant_an_extra_throw() {
    let g = game(2);
    // From idx 1: 0 white → 6 (idx 7), 1 → 1 (idx 2), 2 → 0 (idx 1), 3 → 3 (idx 4), 4 → 4 (5).
    let expected = [
        (SIX, 7, 0),
        (SIG, 2, 0),
        (ZERO, 1, 1),
        (THREE, 4, 1),
        (FOUR, 5, 0),
    ];
    for (t, to, next_turn) in expected {
        let mut s = position(&[Racing(1), Racing(0)], None, 0);
        throw_all(&g, &mut s, &[t]);
        assert_eq!(pieces(&s, 2), [Racing(to), Racing(0)], "throw {t}");
        assert_eq!(s.turn(), next_turn, "throw {t}");
        assert_eq!(s.throws(), 1);
        assert_eq!(g.node(&s), Node::Throw(next_turn as usize));
    }
}

#[test]
fn the_extra_throw_is_granted_whether_or_not_the_throw_moved_anything() {
    let g = game(2);
    let mut s = g.initial_state();
    // On the start only a sig moves: a 6 and a 4 move nothing but keep the turn.
    throw_all(&g, &mut s, &[SIX, FOUR]);
    assert_eq!(pieces(&s, 2), [Racing(0), Racing(0)]);
    assert_eq!(s.turn(), 0);
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(s.turn(), 1);
    assert_eq!(s.throws(), 3);
}

#[test]
fn sticks_are_four_with_the_binomial_distribution() {
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

// ---- what a throw does --------------------------------------------------------------------

#[test]
fn on_the_start_a_sig_moves_the_piece_to_idx_1_and_anything_else_does_nothing() {
    let g = game(2);
    for t in [SIX, ZERO, THREE, FOUR] {
        let mut s = g.initial_state();
        throw_all(&g, &mut s, &[t]);
        assert_eq!(s.pieces()[0], Racing(0), "throw {t}");
    }
    let mut s = g.initial_state();
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!(s.pieces()[0], Racing(1));
    assert_eq!(s.turn(), 0);
}

#[test]
fn on_idx_1_to_13_a_move_that_would_pass_the_waiting_square_stops_on_it() {
    let g = game(2);
    // 12 + 4 = 16 > 14 → 14; 10 + 4 = 14 exactly; 13 + 6 → 14; 11 + 3 = 14; 9 + 3 = 12.
    for (from, t, to) in [
        (12, FOUR, 14),
        (10, FOUR, 14),
        (13, SIX, 14),
        (11, THREE, 14),
        (9, THREE, 12),
    ] {
        let mut s = position(&[Racing(from), Racing(0)], Some(0), 0);
        throw_all(&g, &mut s, &[t]);
        assert_eq!(s.pieces()[0], Racing(to), "idx {from} + throw {t}");
        assert_eq!(s.sigs()[0], 0);
    }
    // A 0 moves nothing.
    let mut s = position(&[Racing(6), Racing(0)], Some(0), 0);
    throw_all(&g, &mut s, &[ZERO]);
    assert_eq!(s.pieces()[0], Racing(6));
}

#[test]
fn exact_waiting_square_on_a_move_that_would_pass_it_is_not_made() {
    let g = game_with(2, &[("exact_waiting_square", "true")]);
    assert!(g.exact_waiting_square());
    // Overshooting: 12 + 4, 13 + 6, 12 + 3: the piece stays (the extra throw still counts).
    for (from, t, turn_after) in [(12, FOUR, 0), (13, SIX, 0), (12, THREE, 1)] {
        let mut s = position(&[Racing(from), Racing(0)], Some(0), 0);
        throw_all(&g, &mut s, &[t]);
        assert_eq!(s.pieces()[0], Racing(from), "idx {from} + throw {t}");
        assert_eq!(s.turn(), turn_after);
    }
    // Exact: 10 + 4, 11 + 3, 13 + sig reach 14; short moves are unaffected.
    for (from, t, to) in [(10, FOUR, 14), (11, THREE, 14), (13, SIG, 14), (5, SIX, 11)] {
        let mut s = position(&[Racing(from), Racing(0)], Some(0), 0);
        throw_all(&g, &mut s, &[t]);
        assert_eq!(s.pieces()[0], Racing(to), "idx {from} + throw {t}");
    }
}

#[test]
fn exact_waiting_square_off_by_default_the_same_moves_stop_on_idx_14() {
    let g = game(2);
    assert!(!g.exact_waiting_square());
    for (from, t) in [(12, FOUR), (13, SIX), (12, THREE)] {
        let mut s = position(&[Racing(from), Racing(0)], Some(0), 0);
        throw_all(&g, &mut s, &[t]);
        assert_eq!(s.pieces()[0], Racing(14), "idx {from} + throw {t}");
    }
}

#[test]
fn on_the_waiting_square_the_seventh_sig_moves_the_piece_to_idx_15() {
    let g = game(2);
    let mut s = position(&[Racing(13), Racing(0)], Some(0), 0);
    // The sig that brings the piece onto idx 14 does not count.
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.pieces()[0], s.sigs()[0]), (Racing(14), 0));
    // Other throws add nothing (6 and 4 keep the turn).
    throw_all(&g, &mut s, &[SIX, FOUR]);
    assert_eq!((s.pieces()[0], s.sigs()[0]), (Racing(14), 0));
    for k in 1..=6 {
        throw_all(&g, &mut s, &[SIG]);
        assert_eq!((s.pieces()[0], s.sigs()[0]), (Racing(14), k));
    }
    // The 7th sig moves it on and the count resets.
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.pieces()[0], s.sigs()[0]), (Racing(15), 0));
    assert_eq!(s.turn(), 0);
    assert_eq!(s.throws(), 10);
}

#[test]
fn the_sig_count_is_kept_across_turns() {
    let g = game(2);
    let mut s = position(&[Racing(14), Racing(5)], Some(0), 0);
    s = s.with_sigs(0, 3);
    // P1 throws 3 (nothing, turn passes), P2 throws 0 (nothing), P1 throws a sig.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!((s.sigs()[0], s.turn()), (3, 1));
    throw_all(&g, &mut s, &[ZERO]);
    assert_eq!((s.sigs()[0], s.turn()), (3, 0));
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.pieces()[0], s.sigs()[0]), (Racing(14), 4));
}

#[test]
fn the_sig_count_resets_when_the_piece_is_dragged_off_the_waiting_square() {
    let g = game(2);
    let mut s = position(&[Racing(14), Arrived(1)], Some(13), 1);
    s = s.with_sigs(0, 5);
    // P2 (Ka'aba) sig: Ghoula on 13 has no piece → forward to 14. Extra throw.
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!(
        (s.ghoula(), s.pieces()[0], s.sigs()[0], s.turn()),
        (Some(14), Racing(14), 5, 1)
    );
    // P2 throws 3: 14 → 13 carrying P1 (count reset), 13 → 12, 12 → 11.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(
        (s.ghoula(), s.pieces()[0], s.sigs()[0], s.turn()),
        (Some(11), Racing(11), 0, 0)
    );
    // P1 escapes back onto idx 14 with a 3: its count starts again from 0.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!((s.pieces()[0], s.sigs()[0]), (Racing(14), 0));
    throw_all(&g, &mut s, &[SIG]); // P2: Ghoula 11 → 12
    throw_all(&g, &mut s, &[ZERO]); // P2: 0 counts 2: 12 → 13 → 14, turn to P1
    assert_eq!((s.ghoula(), s.turn()), (Some(14), 0));
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.pieces()[0], s.sigs()[0]), (Racing(14), 1));
}

#[test]
fn on_idx_15_to_18_a_sig_moves_the_piece_one_and_a_three_moves_the_ghoula_three() {
    let g = game(2);
    let mut s = position(&[Racing(16), Racing(10)], Some(1), 0);
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!(
        (s.pieces()[0], s.ghoula(), s.turn()),
        (Racing(17), Some(1), 0)
    );
    // 6 and 4 do nothing (extra throw), 0 does nothing (turn passes).
    throw_all(&g, &mut s, &[SIX, FOUR]);
    assert_eq!(
        (s.pieces()[0], s.ghoula(), s.turn()),
        (Racing(17), Some(1), 0)
    );
    // A 3 moves the Ghoula 3 steps (1 → 4) and not the piece.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(
        (s.pieces()[0], s.ghoula(), s.turn()),
        (Racing(17), Some(4), 1)
    );
    let mut s = position(&[Racing(15), Racing(10)], Some(1), 0);
    throw_all(&g, &mut s, &[ZERO]);
    assert_eq!(
        (s.pieces()[0], s.ghoula(), s.turn()),
        (Racing(15), Some(1), 1)
    );
}

#[test]
fn a_sig_on_idx_18_reaches_the_kaaba_and_the_seat_keeps_its_extra_throw() {
    let g = game(2);
    let mut s = position(&[Racing(18), Racing(5)], Some(0), 0);
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!(pieces(&s, 2), [Arrived(1), Racing(5)]);
    // With two players the winner is known, but the game goes on while P2 races.
    assert_eq!(g.node(&s), Node::Throw(0));
    assert_eq!(g.ranking(&s), None);
    // P1's extra throw now drives the Ghoula: 6 steps, 0 → 5, meeting P2 on idx 5 at the
    // 5th step; the 6th step drags P2 back to idx 4.
    throw_all(&g, &mut s, &[SIX]);
    assert_eq!((s.ghoula(), s.pieces()[1]), (Some(4), Racing(4)));
}

#[test]
fn on_the_kaaba_every_throw_moves_the_ghoula_by_its_value() {
    let g = game(2);
    // Ghoula on idx 3, P2 far ahead on idx 15 (out of reach).
    for (t, to, turn) in [(SIX, 9, 0), (SIG, 4, 0), (THREE, 6, 1), (FOUR, 7, 0)] {
        let mut s = position(&[Arrived(1), Racing(15)], Some(3), 0);
        throw_all(&g, &mut s, &[t]);
        assert_eq!((s.ghoula(), s.turn()), (Some(to), turn), "throw {t}");
    }
}

#[test]
fn a_zero_on_the_kaaba_moves_the_ghoula_two_and_grants_no_extra_throw() {
    let g = game(2);
    let mut s = position(&[Arrived(1), Racing(15)], Some(3), 0);
    throw_all(&g, &mut s, &[ZERO]);
    assert_eq!((s.ghoula(), s.turn()), (Some(5), 1));
}

// ---- the Ghoula ---------------------------------------------------------------------------

#[test]
fn the_ghoula_starts_off_the_board_and_its_first_step_puts_it_on_the_start() {
    let g = game(2);
    let s0 = g.initial_state();
    assert_eq!(s0.ghoula(), None);
    let mut s = position(&[Arrived(1), Racing(1)], None, 0);
    // Step 1: off the board → idx 0.
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.ghoula(), s.pieces()[1]), (Some(0), Racing(1)));
    // Step 2: idx 0 → idx 1, where P2 stands: stepping onto it does not drag it yet.
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.ghoula(), s.pieces()[1]), (Some(1), Racing(1)));
    // Step 3: it stands with P2 on idx 1: back onto idx 0, burying P2.
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.ghoula(), s.pieces()[1]), (Some(0), Buried(1)));
    assert_eq!(g.node(&s), Node::End);
}

#[test]
fn ghoula_steps_forward_onto_a_piece_then_drags_it_back_and_buries_it_on_the_start() {
    let g = game(3);
    let mut s = position(&[Arrived(1), Racing(3), Racing(0)], Some(1), 0);
    // P1 throws 3: 1 → 2, 2 → 3 (onto P2), then back to 2 carrying P2. Turn passes.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(
        (s.ghoula(), pieces(&s, 3)),
        (Some(2), vec![Arrived(1), Racing(2), Racing(0)])
    );
    assert_eq!(s.turn(), 1);
    // P2 throws 0 (does not escape), P3 throws 3 (stays on the start).
    throw_all(&g, &mut s, &[ZERO, THREE]);
    assert_eq!(
        (s.ghoula(), pieces(&s, 3)),
        (Some(2), vec![Arrived(1), Racing(2), Racing(0)])
    );
    assert_eq!(s.turn(), 0);
    // P1 throws 4: 2 → 1 carrying P2; 1 → 0 burying P2; then forward past P3 on the safe
    // start: 0 → 1, 1 → 2.
    throw_all(&g, &mut s, &[FOUR]);
    assert_eq!(
        (s.ghoula(), pieces(&s, 3)),
        (Some(2), vec![Arrived(1), Buried(1), Racing(0)])
    );
    assert_eq!(s.turn(), 0);
    // P1 throws 0 (counts 2: 2 → 3 → 4); the turn skips the eliminated P2.
    throw_all(&g, &mut s, &[ZERO]);
    assert_eq!((s.ghoula(), s.turn()), (Some(4), 2));
}

#[test]
fn a_carried_piece_is_not_held_and_escapes_on_its_owners_turn() {
    let g = game(2);
    let mut s = position(&[Arrived(1), Racing(5)], Some(4), 0);
    // P1 sig: 4 → 5 (onto P2). P1 3: 5 → 4, 4 → 3, 3 → 2, carrying P2 each time.
    throw_all(&g, &mut s, &[SIG, THREE]);
    assert_eq!(
        (s.ghoula(), s.pieces()[1], s.turn()),
        (Some(2), Racing(2), 1)
    );
    // P2 throws 4: escapes to idx 6 (extra throw), then 0: turn passes.
    throw_all(&g, &mut s, &[FOUR, ZERO]);
    assert_eq!(
        (s.ghoula(), s.pieces()[1], s.turn()),
        (Some(2), Racing(6), 0)
    );
    // P1 throws 3: the Ghoula walks forward 2 → 5 with nothing to carry.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!((s.ghoula(), s.pieces()[1]), (Some(5), Racing(6)));
}

#[test]
fn the_start_square_is_safe() {
    let g = game(2);
    let mut s = position(&[Arrived(1), Racing(0)], None, 0);
    // 4 steps: off → 0 (P2 there, never carried), 0 → 1, 1 → 2, 2 → 3.
    throw_all(&g, &mut s, &[FOUR]);
    assert_eq!((s.ghoula(), s.pieces()[1]), (Some(3), Racing(0)));
    // Standing on the start with a piece, the Ghoula steps forward.
    let mut s = position(&[Arrived(1), Racing(0)], Some(0), 0);
    throw_all(&g, &mut s, &[SIG]);
    assert_eq!((s.ghoula(), s.pieces()[1]), (Some(1), Racing(0)));
}

#[test]
fn a_piece_that_moves_onto_the_ghoulas_square_is_not_dragged_until_its_next_step() {
    let g = game(2);
    let mut s = position(&[Racing(5), Racing(16)], Some(8), 0);
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(
        (s.ghoula(), s.pieces()[0], s.turn()),
        (Some(8), Racing(8), 1)
    );
    // P2 on idx 16 throws 3: the Ghoula's next steps drag P1: 8 → 7 → 6 → 5.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!((s.ghoula(), s.pieces()[0]), (Some(5), Racing(5)));
}

#[test]
fn pieces_on_the_square_the_ghoula_is_carried_onto_are_picked_up_by_its_next_step() {
    let g = game(3);
    let mut s = position(&[Arrived(1), Racing(6), Racing(5)], Some(6), 0);
    // 6 → 5 carrying P2 (P3 already on 5); 5 → 4 carrying both; 4 → 3 carrying both.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(
        (s.ghoula(), pieces(&s, 3)),
        (Some(3), vec![Arrived(1), Racing(3), Racing(3)])
    );
}

#[test]
fn after_a_burial_the_remaining_steps_walk_the_ghoula_forward_and_may_drag_another_piece() {
    let g = game(4);
    let mut s = position(&[Arrived(1), Racing(1), Racing(2), Racing(0)], Some(1), 0);
    // 6 steps: 1 → 0 burying P2 (burial 1); 0 → 1; 1 → 2 (onto P3); 2 → 1 carrying P3;
    // 1 → 0 burying P3 (burial 2); 0 → 1. P4 on the start is safe.
    throw_all(&g, &mut s, &[SIX]);
    assert_eq!(
        (s.ghoula(), pieces(&s, 4)),
        (Some(1), vec![Arrived(1), Buried(1), Buried(2), Racing(0)])
    );
    assert_eq!(s.turn(), 0);
}

#[test]
fn pieces_on_idx_15_and_beyond_are_out_of_the_ghoulas_reach_and_it_never_passes_idx_14() {
    let g = game(3);
    // Ghoula on 12, nothing on 12..14; P3 on 15. 6 steps: 12 → 13 → 14, the rest lost.
    let mut s = position(&[Arrived(1), Racing(15), Racing(18)], Some(12), 0);
    throw_all(&g, &mut s, &[SIX]);
    assert_eq!(
        (s.ghoula(), pieces(&s, 3)),
        (Some(14), vec![Arrived(1), Racing(15), Racing(18)])
    );
    throw_all(&g, &mut s, &[FOUR]);
    assert_eq!(s.ghoula(), Some(14));
}

#[test]
fn the_ghoula_on_the_waiting_square_drags_the_pieces_there() {
    let g = game(3);
    let mut s = position(&[Arrived(1), Racing(14), Racing(14)], Some(12), 0);
    s = s.with_sigs(1, 2);
    s = s.with_sigs(2, 6);
    // 4 steps: 12 → 13, 13 → 14 (onto both), 14 → 13 carrying both, 13 → 12.
    throw_all(&g, &mut s, &[FOUR]);
    assert_eq!(
        (s.ghoula(), pieces(&s, 3), s.sigs()[1], s.sigs()[2]),
        (Some(12), vec![Arrived(1), Racing(12), Racing(12)], 0, 0)
    );
}

#[test]
fn a_three_on_idx_15_to_18_can_bury_a_piece() {
    let g = game(2);
    let mut s = position(&[Racing(17), Racing(2)], Some(2), 0);
    // 2 → 1 carrying P2; 1 → 0 burying it; 0 → 1.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(
        (s.ghoula(), pieces(&s, 2)),
        (Some(1), vec![Racing(17), Buried(1)])
    );
    // P1 is the only seat left: it takes every turn.
    assert_eq!(g.node(&s), Node::Throw(0));
}

// ---- turn order, end and ranking ----------------------------------------------------------

#[test]
fn turn_order_skips_eliminated_seats() {
    let g = game(4);
    let mut s = position(&[Racing(3), Buried(1), Buried(1), Racing(5)], Some(0), 0);
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(s.turn(), 3);
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(s.turn(), 0);
    let mut s = position(&[Buried(1), Racing(3), Racing(4), Racing(5)], Some(0), 3);
    throw_all(&g, &mut s, &[ZERO]);
    assert_eq!(s.turn(), 1);
}

#[test]
fn a_seat_on_the_kaaba_keeps_taking_turns_while_any_piece_races() {
    let g = game(3);
    let mut s = position(&[Racing(5), Arrived(1), Racing(4)], Some(0), 0);
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!(s.turn(), 1);
    // P2 on the Ka'aba throws 3: Ghoula 0 → 3. Turn to P3.
    throw_all(&g, &mut s, &[THREE]);
    assert_eq!((s.ghoula(), s.turn()), (Some(3), 2));
}

#[test]
fn arrivals_at_the_kaaba_rank_first_in_arrival_order() {
    let g = game(3);
    let mut s = position(&[Racing(18), Racing(18), Racing(18)], None, 1);
    // P2 sig → arrives 1st; extra throw 0 → Ghoula 2 steps (off → 0 → 1); turn P3.
    throw_all(&g, &mut s, &[SIG, ZERO]);
    assert_eq!(
        (pieces(&s, 3), s.ghoula(), s.turn()),
        (vec![Racing(18), Arrived(1), Racing(18)], Some(1), 2)
    );
    // P3 sig → 2nd; extra 3 → Ghoula 1 → 4; P1 sig → 3rd and the game ends.
    throw_all(&g, &mut s, &[SIG, THREE, SIG]);
    assert_eq!(pieces(&s, 3), [Arrived(3), Arrived(1), Arrived(2)]);
    assert_eq!(g.node(&s), Node::End);
    let r = g.ranking(&s).unwrap();
    assert_eq!(r.places(), &[2, 0, 1]);
    assert_eq!(r.to_string(), "P2 > P3 > P1");
    // No throw is accepted after the end.
    let before = s;
    assert!(g.apply_throw(&mut s, SIG).is_err());
    assert_eq!(s, before);
}

#[test]
fn burial_ranking_a_later_burial_ranks_above_an_earlier_one_and_the_same_step_ties() {
    let g = game(4);
    let mut s = position(&[Arrived(1), Racing(1), Racing(1), Racing(2)], Some(1), 0);
    // 6 steps: 1 → 0 burying P2 and P3 together (burial 1); 0 → 1; 1 → 2 (onto P4);
    // 2 → 1 carrying P4; 1 → 0 burying P4 (burial 2); 0 → 1.
    throw_all(&g, &mut s, &[SIX]);
    assert_eq!(pieces(&s, 4), [Arrived(1), Buried(1), Buried(1), Buried(2)]);
    assert_eq!(g.node(&s), Node::End);
    let r = g.ranking(&s).unwrap();
    assert_eq!(r.places(), &[0, 2, 2, 1]);
    assert_eq!(r.to_string(), "P1 > P4 > P2 = P3");
    assert_eq!(r.score(0), 1.0);
    assert_eq!(r.score(3), 2.0 / 3.0);
    assert_eq!(r.score(1), 0.5 / 3.0);
}

#[test]
fn burials_in_separate_moves_rank_the_later_one_higher() {
    let g = game(3);
    let mut s = position(&[Arrived(1), Racing(1), Racing(3)], Some(1), 0);
    // P1 sig: 1 → 0 burying P2 (burial 1). Extra throw 3: 0 → 1 → 2 → 3 (onto P3).
    throw_all(&g, &mut s, &[SIG, THREE]);
    assert_eq!(
        (s.ghoula(), pieces(&s, 3)),
        (Some(3), vec![Arrived(1), Buried(1), Racing(3)])
    );
    assert_eq!(s.turn(), 2);
    // P3 throws 0; P1 throws 3: 3 → 2 → 1 → 0 with P3, burying it (burial 2).
    throw_all(&g, &mut s, &[ZERO, THREE]);
    assert_eq!(pieces(&s, 3), [Arrived(1), Buried(1), Buried(2)]);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P1 > P3 > P2");
}

#[test]
fn the_game_ends_only_when_no_piece_races() {
    let g = game(2);
    let s = position(&[Arrived(1), Racing(0)], None, 0);
    assert_eq!(g.node(&s), Node::Throw(0));
    assert_eq!(g.ranking(&s), None);
    let s = position(&[Arrived(2), Arrived(1)], None, 0);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P2 > P1");
    let s = position(&[Arrived(1), Buried(1)], Some(0), 0);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P1 > P2");
}

// ---- throw cap ----------------------------------------------------------------------------

#[test]
fn throw_cap_ends_the_game_after_the_cap_th_throw_and_its_whole_move() {
    let g = game_with(2, &[("max_throws", "3")]);
    let mut s = g.initial_state();
    // Three extra-throw 6s: no bonus throw beyond the cap.
    throw_all(&g, &mut s, &[SIX, SIX]);
    assert_eq!(g.node(&s), Node::Throw(0));
    throw_all(&g, &mut s, &[SIX]);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.throws_made(&s), 3);
    assert_eq!(g.ranking(&s).unwrap().places(), &[0, 0]);
    assert!(g.apply_throw(&mut s, SIX).is_err());

    // The cap-th throw's Ghoula move is finished first (here: a burial).
    let g = game_with(3, &[("max_throws", "10")]);
    let mut s = position(&[Arrived(1), Racing(1), Racing(7)], Some(1), 0);
    s = s.with_throws(9);
    throw_all(&g, &mut s, &[FOUR]);
    // 1 → 0 burying P2; 0 → 1 → 2 → 3.
    assert_eq!(
        (s.ghoula(), pieces(&s, 3)),
        (Some(3), vec![Arrived(1), Buried(1), Racing(7)])
    );
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P1 > P3 > P2");
}

#[test]
fn throw_cap_ranking_ties_racing_seats_below_finishers_and_above_the_eliminated() {
    let g = game_with(5, &[("max_throws", "5")]);
    let mut s = position(
        &[Arrived(1), Racing(5), Buried(1), Racing(8), Racing(0)],
        Some(0),
        1,
    );
    s = s.with_throws(4);
    throw_all(&g, &mut s, &[SIG]); // P2 → 6, extra throw not made: the cap is reached
    assert_eq!(s.pieces()[1], Racing(6));
    assert_eq!(g.node(&s), Node::End);
    let r = g.ranking(&s).unwrap();
    assert_eq!(r.places(), &[0, 1, 4, 1, 1]);
    assert_eq!(r.to_string(), "P1 > P2 = P4 = P5 > P3");
    assert!(g.render(&s).contains("at the throw cap"));
}

#[test]
fn max_throws_default_is_ten_thousand() {
    let g = game(2);
    assert_eq!(g.max_throws(), 10_000);
    let mut s = position(&[Racing(3), Racing(4)], Some(0), 0);
    s = s.with_throws(9_999);
    assert_eq!(g.node(&s), Node::Throw(0));
    throw_all(&g, &mut s, &[ZERO]);
    assert_eq!(g.node(&s), Node::End);
}

// ---- options and seats --------------------------------------------------------------------

#[test]
fn options_are_listed_set_and_rejected_cleanly() {
    let mut g = game(2);
    assert_eq!(
        SigWaDuqqan::option_specs()
            .iter()
            .map(|o| o.name)
            .collect::<Vec<_>>(),
        &["max_throws", "exact_waiting_square"]
    );
    assert_eq!(
        g.options(),
        vec![
            ("max_throws", "10000".to_string()),
            ("exact_waiting_square", "false".to_string())
        ]
    );
    g.set_option("exact_waiting_square", "yes").unwrap();
    g.set_option("max_throws", "77").unwrap();
    assert_eq!(
        g.options(),
        vec![
            ("max_throws", "77".to_string()),
            ("exact_waiting_square", "true".to_string())
        ]
    );
    let before = g.clone();
    let err = g.set_option("exact_waiting_square", "maybe").unwrap_err();
    assert!(matches!(err, ConfigError::BadValue { .. }), "{err}");
    let err = g.set_option("max_throws", "0").unwrap_err();
    assert!(err.to_string().contains("max_throws"), "{err}");
    let err = g.set_option("ghoula_speed", "2").unwrap_err();
    assert!(err.to_string().contains("exact_waiting_square"), "{err}");
    assert_eq!(g, before);
    let any =
        stickdice::AnyGame::new("sig-wa-duqqan", Some(3), &["exact_waiting_square=true"]).unwrap();
    assert_eq!(any.seats(), 3);
}

#[test]
fn two_to_eight_players_are_allowed() {
    for n in 2..=8 {
        let g = game(n);
        assert_eq!(g.seats(), n);
        g.validate(&g.initial_state()).unwrap();
        assert_eq!(g.node(&g.initial_state()), Node::Throw(0));
    }
    for n in [0, 1, 9, 100] {
        let err = SigWaDuqqan::with_seats(n).unwrap_err();
        assert!(err.to_string().contains("2 to 8"), "{err}");
    }
}

// ---- notation (there are no actions) ------------------------------------------------------

#[test]
fn there_are_no_actions_and_any_notation_is_rejected() {
    let g = game(2);
    assert_eq!(SigWaDuqqan::MAX_ACTIONS, 0);
    for text in ["", "pass", "move", "1"] {
        let err = g.parse_action(text).unwrap_err();
        assert_eq!(err.text, text);
        assert!(err.expected.contains("no actions"), "{err}");
    }
    let mut out = ActionList::new();
    g.legal_actions(&g.initial_state(), &mut out);
    assert!(out.is_empty());
}

// ---- validate -----------------------------------------------------------------------------

fn problems(g: &SigWaDuqqan, s: &State) -> Vec<String> {
    g.validate(s).unwrap_err().messages()
}

fn assert_one_problem(g: &SigWaDuqqan, s: &State, needle: &str) {
    let p = problems(g, s);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].contains(needle), "{p:?} should mention {needle:?}");
}

#[test]
fn validate_rejects_a_racing_piece_off_the_track() {
    let g = game(2);
    let s = position(&[Racing(19), Racing(0)], None, 0);
    assert_one_problem(&g, &s, "idx 19");
    let s = position(&[Racing(0), Racing(200)], None, 0);
    assert_one_problem(&g, &s, "P2's racing piece is at idx 200");
}

#[test]
fn validate_rejects_bad_sig_counts() {
    let g = game(2);
    let mut s = position(&[Racing(14), Racing(0)], None, 0);
    s = s.with_sigs(0, 7);
    assert_one_problem(&g, &s, "sig count 7 is more than 6");
    let mut s = position(&[Racing(13), Racing(0)], None, 0);
    s = s.with_sigs(0, 2);
    assert_one_problem(&g, &s, "not on the waiting square");
}

#[test]
fn validate_rejects_inconsistent_arrival_order() {
    let g = game(3);
    let s = position(&[Arrived(1), Arrived(1), Racing(0)], None, 0);
    assert_one_problem(&g, &s, "both arrived as number 1");
    let s = position(&[Arrived(2), Racing(0), Racing(0)], None, 0);
    assert_one_problem(&g, &s, "only 1 piece(s) have arrived");
    let s = position(&[Arrived(0), Racing(0), Racing(0)], None, 0);
    assert_one_problem(&g, &s, "count from 1");
}

#[test]
fn validate_rejects_inconsistent_burials() {
    let g = game(3);
    let s = position(&[Racing(2), Buried(2), Racing(0)], Some(0), 0);
    assert_one_problem(&g, &s, "burial step 1");
    let s = position(&[Racing(2), Buried(0), Racing(0)], Some(0), 0);
    assert_one_problem(&g, &s, "burial step 0");
    let s = position(&[Racing(2), Buried(1), Racing(0)], None, 0);
    assert_one_problem(&g, &s, "never entered the board");
}

#[test]
fn validate_rejects_a_ghoula_past_the_waiting_square() {
    let g = game(2);
    let s = position(&[Racing(2), Racing(0)], Some(15), 0);
    assert_one_problem(&g, &s, "Ghoula is at idx 15");
}

#[test]
fn validate_rejects_a_bad_turn() {
    let g = game(2);
    let s = position(&[Racing(2), Racing(0)], None, 2);
    assert_one_problem(&g, &s, "only 2 seats");
    let s = position(&[Racing(2), Buried(1)], Some(0), 1);
    assert_one_problem(&g, &s, "P2 is buried");
}

#[test]
fn validate_rejects_throws_past_the_cap_and_used_unused_seats() {
    let g = game_with(2, &[("max_throws", "50")]);
    let mut s = position(&[Racing(2), Racing(0)], None, 0);
    s = s.with_throws(51);
    assert_one_problem(&g, &s, "throw cap of 50");
    s = s.with_throws(50);
    g.validate(&s).unwrap();
    let mut s = position(&[Racing(2), Racing(0), Racing(4)], None, 0);
    assert_one_problem(&g, &s, "P3 does not play");
    s = s.with_piece(2, Racing(0));
    s = s.with_sigs(5, 1);
    assert_one_problem(&g, &s, "P6 does not play");
}

#[test]
fn validate_lists_every_problem_at_once() {
    let g = game(3);
    let mut s = position(&[Racing(25), Arrived(3), Buried(2)], Some(16), 7);
    s = s.with_sigs(0, 9);
    s = s.with_throws(20_000);
    // racing off track; sig count > 6; sig count off the waiting square; arrival 3 of 1;
    // burial step 1 missing; Ghoula past 14; turn out of range; throws past the cap.
    let p = problems(&g, &s);
    assert_eq!(p.len(), 8, "{p:#?}");
}

#[test]
fn load_state_reads_saved_states_and_rejects_malformed_or_invalid_ones() {
    let g = game(3);
    let mut s = position(&[Arrived(1), Racing(14), Buried(1)], Some(9), 1);
    s = s.with_sigs(1, 4);
    s = s.with_throws(123);
    let json = stickdice::save_state::<SigWaDuqqan>(&s);
    assert_eq!(stickdice::load_state(&g, &json).unwrap(), s);
    let err = stickdice::load_state(&g, "{\"pieces\": 3}").unwrap_err();
    assert!(err.to_string().contains("malformed"), "{err}");
    let err =
        stickdice::load_state(&g, &json.replace("\"ghoula\":9", "\"ghoula\":17")).unwrap_err();
    assert!(err.to_string().contains("Ghoula is at idx 17"), "{err}");
    let err =
        stickdice::load_state(&g, &json.replace("\"ghoula\":9", "\"ghoula\":null")).unwrap_err();
    assert!(err.to_string().contains("never entered"), "{err}");
}

// ---- render and describe ------------------------------------------------------------------

#[test]
fn render_draws_the_grid_with_the_special_squares_pieces_and_the_ghoula() {
    let g = game(3);
    let text = g.render(&g.initial_state());
    let lines: Vec<&str> = text.lines().collect();
    let line_of = |needle: &str| lines.iter().position(|l| l.contains(needle)).unwrap();
    // Row 3 (with the start) is at the top, the bottom row with the waiting square and the
    // Ka'aba (leftmost, at the end of the extension) at the bottom.
    assert!(line_of("0 start") < line_of("14 wait"));
    let bottom = lines[line_of("14 wait")];
    assert!(bottom.starts_with("|19 Ka'aba|18"), "{bottom}");
    assert!(bottom.find("15").unwrap() < bottom.find("14 wait").unwrap());
    // All three pieces on the start; the Ghoula still off the board.
    let start_cells = lines[line_of("0 start") + 1];
    assert!(start_cells.contains("|123"), "{text}");
    assert!(text.contains("Ghoula off the board"), "{text}");
    assert!(text.contains("P1 to throw"), "{text}");

    let mut s = position(&[Arrived(1), Racing(14), Buried(1)], Some(5), 1);
    s = s.with_sigs(1, 3);
    let text = g.render(&s);
    assert!(!text.contains("Ghoula off the board"), "{text}");
    assert!(text.contains("Ghoula on idx 5"), "{text}");
    assert!(text.contains("|G        |"), "{text}");
    assert!(text.contains("|1        |"), "{text}"); // P1 on the Ka'aba
    assert!(text.contains("3 of 7 sigs"), "{text}");
    assert!(text.contains("P3 buried"), "{text}");
    assert!(text.contains("P1 on the Ka'aba (1st to arrive)"), "{text}");
}

#[test]
fn describe_throw_uses_the_games_words() {
    let g = game(2);
    let s = g.initial_state();
    assert_eq!(
        g.describe_throw(&s, SIG),
        "1 white side up: sig (1), throw again; P1 leaves the start for idx 1"
    );
    let s = position(&[Arrived(1), Racing(3)], Some(2), 0);
    assert_eq!(
        g.describe_throw(&s, ZERO),
        "2 white sides up: 0; on the Ka'aba a 0 counts 2: the Ghoula moves 2 steps"
    );
    let mut s = position(&[Racing(14), Racing(3)], Some(2), 0);
    s = s.with_sigs(0, 6);
    assert!(g.describe_throw(&s, SIG).contains("7th sig"));
    assert!(g.describe_throw(&s, Throw::new(6)).contains("impossible"));
}

// ---- random play --------------------------------------------------------------------------

#[test]
fn seeded_random_playouts_stay_valid_and_rank_consistently() {
    let mut rng = stickdice::Rng::seed_from_u64(0x5167_dacc);
    let mut games_played = 0;
    for seats in 2..=8 {
        for exact in [false, true] {
            for cap in [10_000u32, 60] {
                let g = game_with(
                    seats,
                    &[
                        ("exact_waiting_square", if exact { "true" } else { "false" }),
                        ("max_throws", &cap.to_string()),
                    ],
                );
                for _ in 0..72 {
                    let mut s = g.initial_state();
                    while let Node::Throw(seat) = g.node(&s) {
                        assert_eq!(seat, s.turn() as usize);
                        assert!(!matches!(s.pieces()[seat], Buried(_)));
                        let t = g.sample_throw(&mut rng);
                        g.apply_throw(&mut s, t).unwrap();
                        if let Err(e) = g.validate(&s) {
                            panic!("{e}\n{}", g.render(&s));
                        }
                    }
                    games_played += 1;
                    let r = g.ranking(&s).unwrap();
                    assert!(s.throws() <= cap);
                    let racing = (0..seats).filter(|&i| s.pieces()[i].is_racing()).count();
                    if s.throws() < cap {
                        assert_eq!(racing, 0);
                    }
                    // Independently check the ranking: place = number of seats strictly
                    // better under (arrived by order) < racing < buried (later first).
                    let class = |p: Piece| match p {
                        Arrived(k) => (0, i32::from(k)),
                        Racing(_) => (1, 0),
                        Buried(b) => (2, -i32::from(b)),
                    };
                    for a in 0..seats {
                        let better = (0..seats)
                            .filter(|&b| class(s.pieces()[b]) < class(s.pieces()[a]))
                            .count();
                        assert_eq!(r.place(a), better, "{r} {:?}", pieces(&s, seats));
                    }
                    // At least one seat was never buried.
                    assert!((0..seats).any(|i| !matches!(s.pieces()[i], Buried(_))));
                }
            }
        }
    }
    assert_eq!(games_played, 7 * 2 * 2 * 72);
}

/// Speed measurement (not a test of correctness): run with
/// `cargo test --release --test integration sig_wa_duqqan_rules:: -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_random_playout_speed() {
    for seats in [2, 4, 8] {
        let g = game(seats);
        let mut rng = stickdice::Rng::seed_from_u64(1);
        let start = std::time::Instant::now();
        let mut throws = 0u64;
        for _ in 0..200_000 {
            let mut s = g.initial_state();
            stickdice::play::random_playout(&g, &mut s, &mut rng);
            throws += u64::from(s.throws());
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{seats} seats: {throws} throws in {secs:.3}s = {:.1} M throws/s ({:.1} throws/game)",
            throws as f64 / secs / 1e6,
            throws as f64 / 200_000.0
        );
    }
}

// ---- the generic conformance suite --------------------------------------------------------

#[test]
fn conformance_suite_passes_on_every_configuration() {
    let configurations = stickdice::testing::configurations::<SigWaDuqqan>();
    // 7 seat counts x exact_waiting_square on/off x two throw caps.
    assert_eq!(configurations.len(), 7 * 2 * 2);
    for (i, g) in configurations.iter().enumerate() {
        stickdice::testing::conformance(g, 10, 7_000 + i as u64);
    }
}

/// A state's position (for its seat count) builds it back, and a bad one is refused with
/// each problem typed, the seat count and the list lengths included.
#[test]
fn a_position_round_trips_and_each_bad_one_names_its_problem() {
    let g = SigWaDuqqan::with_seats(3).unwrap();
    let p = DuqqanPosition {
        sigs: vec![0, 4, 0],
        ghoula: Some(5),
        turn: 1,
        throws: 20,
        ..DuqqanPosition::new(&[Arrived(1), Racing(14), Buried(1)])
    };
    let s = State::try_from(p.clone()).unwrap();
    assert_eq!(g.validate(&s), Ok(()));
    assert_eq!(s.position(3), p);
    assert_eq!(State::try_from(s.position(3)), Ok(s));
    let kinds = |p: DuqqanPosition| -> Vec<Problem> {
        State::try_from(p)
            .unwrap_err()
            .kinds::<Problem>()
            .copied()
            .collect()
    };
    assert_eq!(
        kinds(DuqqanPosition::new(&[Racing(0)])),
        [Problem::SeatCount { seats: 1 }]
    );
    assert_eq!(
        kinds(DuqqanPosition {
            sigs: vec![0],
            ..DuqqanPosition::new(&[Racing(0), Racing(0)])
        }),
        [Problem::SigsLength { sigs: 1, seats: 2 }]
    );
    assert_eq!(
        kinds(DuqqanPosition::new(&[Racing(25), Racing(0)])),
        [Problem::RacingPastTrack { seat: 0, idx: 25 }]
    );
    assert_eq!(
        kinds(DuqqanPosition {
            sigs: vec![2, 0],
            ..DuqqanPosition::new(&[Racing(3), Racing(0)])
        }),
        [Problem::SigsOffWaitingSquare { seat: 0, sigs: 2 }]
    );
    assert_eq!(
        kinds(DuqqanPosition {
            turn: 2,
            ..DuqqanPosition::new(&[Racing(3), Racing(0)])
        }),
        [Problem::TurnOutOfRange { turn: 2, seats: 2 }]
    );
}
