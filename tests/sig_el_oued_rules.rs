//! Scenario tests for Sig (El Oued), one per clause of its rules (docs/games/sig-el-oued.md),
//! plus options, the throw cap, validation, notation, rendering, random playouts and the
//! conformance suite. Expected values are worked out by hand from the rules (see each
//! test's comments).

use rand::SeedableRng;
use stickdice::games::sig_el_oued::{
    is_sig_square, square_cell, Action, Pending, Position, Problem, State, CAIRO, DJINN, FATHER,
    MECCA, MEDINA, MINARET, MOTHER, START,
};
use stickdice::{ActionList, Game, Node, Present, SigElOued, Throw};

const M: u8 = MECCA;

fn game(seats: usize) -> SigElOued {
    SigElOued::with_seats(seats).unwrap()
}

fn game_with(seats: usize, options: &[(&str, &str)]) -> SigElOued {
    let mut g = game(seats);
    for (k, v) in options {
        g.set_option(k, v).unwrap();
    }
    g
}

/// A state with the given pieces (seat by seat), P1 to throw first, no throws made.
fn position(pieces: &[[u8; 3]]) -> State {
    let mut s = State::default();
    for (seat, p) in pieces.iter().enumerate() {
        s = s.with_pieces_of(seat, *p);
    }
    s
}

/// Applies throws (counts of polished sides up), checking each one is accepted and every
/// state on the way is valid.
fn throws(g: &SigElOued, s: &mut State, ks: &[u8]) {
    for &k in ks {
        g.apply_throw(s, Throw::new(k))
            .unwrap_or_else(|e| panic!("throw {k} refused: {e}\n{}", g.render(s)));
        g.validate(s)
            .unwrap_or_else(|e| panic!("after throw {k}: {e}\n{}", g.render(s)));
    }
}

fn act(g: &SigElOued, s: &mut State, a: Action) {
    g.apply_action(s, a).unwrap();
    g.validate(s).unwrap();
}

// ---- board and throws ---------------------------------------------------------------------

#[test]
fn track_has_31_squares_with_sig_squares_minaret_and_the_tower() {
    let sig: Vec<u8> = (0..=MECCA).filter(|&i| is_sig_square(i)).collect();
    assert_eq!(sig, vec![12, 25, 26, 27, 28, 29, 30]);
    assert_eq!(MINARET, 12);
    assert_eq!((CAIRO, MEDINA, MECCA), (28, 29, 30));
    // Boustrophedon from the bottom-left corner, then up the tower above column 4.
    assert_eq!(square_cell(0), Some((0, 0)));
    assert_eq!(square_cell(4), Some((0, 4)));
    assert_eq!(square_cell(5), Some((1, 4)));
    assert_eq!(square_cell(9), Some((1, 0)));
    assert_eq!(square_cell(12), Some((2, 2)));
    assert_eq!(square_cell(15), Some((3, 4)));
    assert_eq!(square_cell(24), Some((4, 4)));
    assert_eq!(square_cell(25), Some((5, 4)));
    assert_eq!(square_cell(30), Some((10, 4)));
    assert_eq!(square_cell(31), None);
}

#[test]
fn six_sticks_give_binomial_probabilities_over_64() {
    let g = game(2);
    let p: Vec<f64> = g
        .throw_outcomes()
        .iter()
        .map(|o| o.probability * 64.0)
        .collect();
    assert_eq!(p, vec![1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0]);
}

#[test]
fn all_pieces_start_on_the_start_and_seat_0_throws_first() {
    let g = game(3);
    let s = g.initial_state();
    assert_eq!(&s.pieces()[..3], &[[0, 0, 0]; 3]);
    assert_eq!(s.pending(), Pending::FirstThrow);
    assert_eq!(g.node(&s), Node::Throw(0));
    assert_eq!(s.active_piece(0), Some(FATHER));
}

// ---- first throws -------------------------------------------------------------------------

#[test]
fn plain_throw_of_two_three_or_four_moves_that_many_points_and_ends_the_turn() {
    let g = game(2);
    for k in [2u8, 3, 4] {
        let mut s = position(&[[1, 0, 0], [0, 0, 0]]);
        throws(&g, &mut s, &[k]);
        assert_eq!(s.pieces()[0], [1 + k, 0, 0], "plain {k}");
        assert_eq!(s.turn(), 1);
        assert_eq!(s.pending(), Pending::FirstThrow);
        assert_eq!(s.throws(), 1);
    }
}

#[test]
fn regular_sig_moves_one_point_then_a_bonus_throw_is_a_plain_budget() {
    let g = game(2);
    for k in [1u8, 5] {
        let mut s = position(&[[3, 0, 0], [0, 0, 0]]);
        throws(&g, &mut s, &[k]);
        // The sig's point is moved at once; the bonus throw is due from the same seat.
        assert_eq!(s.pieces()[0], [4, 0, 0]);
        assert_eq!(s.pending(), Pending::SigBonus);
        assert_eq!(g.node(&s), Node::Throw(0));
        throws(&g, &mut s, &[3]);
        assert_eq!(s.pieces()[0], [7, 0, 0]);
        assert_eq!(
            (s.turn(), s.pending(), s.throws()),
            (1, Pending::FirstThrow, 2)
        );
    }
    // A regular sig as the bonus throw is worth 1, and grants no further throw.
    let mut s = position(&[[3, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[5, 5]);
    assert_eq!(s.pieces()[0], [5, 0, 0]);
    assert_eq!((s.turn(), s.pending()), (1, Pending::FirstThrow));
    // Bonus throws of 0 and 6 are worth 0 and 6.
    let mut s = position(&[[3, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[1, 0]);
    assert_eq!(s.pieces()[0], [4, 0, 0]);
    let mut s = position(&[[3, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[1, 6]);
    assert_eq!(s.pieces()[0], [10, 0, 0]);
}

#[test]
fn regular_sig_bonus_throw_is_plain_so_it_stops_before_a_sig_square() {
    let g = game(2);
    // Father on 11: the sig's point enters the Minaret; the bonus 4 is plain and cannot
    // leave it.
    let mut s = position(&[[11, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[5, 4]);
    assert_eq!(s.pieces()[0], [12, 0, 0]);
    assert_eq!((s.turn(), s.throws()), (1, 2));
}

#[test]
fn sig_of_six_followed_by_a_regular_sig_is_worth_seven() {
    let g = game(2);
    for bonus in [1u8, 5] {
        // 13 + 7 ordinary steps = 20 (12 would have made it 24 through 6 + 5 + …).
        let mut s = position(&[[13, 0, 0], [0, 0, 0]]);
        throws(&g, &mut s, &[6]);
        assert_eq!(s.pending(), Pending::SixBonus);
        assert_eq!(
            s.pieces()[0],
            [13, 0, 0],
            "nothing moves before the bonus throw"
        );
        throws(&g, &mut s, &[bonus]);
        assert_eq!(s.pieces()[0], [20, 0, 0]);
        assert_eq!(
            (s.turn(), s.pending(), s.throws()),
            (1, Pending::FirstThrow, 2)
        );
    }
    // Otherwise 6 + the count of polished sides: 6 + 4 = 10, 6 + 0 = 6, 6 + 6 = 12.
    // (6 + 6 = 12 points: 13 -> 24 costs 11, the sig step 24 -> 25 the last one.)
    for (bonus, to) in [(4u8, 23u8), (0, 19), (6, 25)] {
        let mut s = position(&[[13, 0, 0], [0, 0, 0]]);
        throws(&g, &mut s, &[6, bonus]);
        assert_eq!(s.pieces()[0], [to, 0, 0], "six then {bonus}");
    }
}

#[test]
fn sig_of_twelve_adds_three_bonus_throws_to_twelve() {
    let g = game(2);
    // 12 + 2 + 3 + 4 = 21 points from idx 1: 1 -> 11 costs 10, -> 12 (Minaret) 1,
    // -> 13 1, then 9 ordinary steps: idx 22.
    let mut s = position(&[[1, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[0]);
    assert_eq!(s.pending(), Pending::TwelveBonus { left: 3, sum: 0 });
    throws(&g, &mut s, &[2]);
    assert_eq!(s.pending(), Pending::TwelveBonus { left: 2, sum: 2 });
    throws(&g, &mut s, &[3]);
    assert_eq!(s.pending(), Pending::TwelveBonus { left: 1, sum: 5 });
    assert_eq!(s.pieces()[0], [1, 0, 0]);
    throws(&g, &mut s, &[4]);
    assert_eq!(s.pieces()[0], [22, 0, 0]);
    assert_eq!(
        (s.turn(), s.pending(), s.throws()),
        (1, Pending::FirstThrow, 4)
    );
    // Three bonus throws of 0: 12 points, 1 -> 13.
    let mut s = position(&[[1, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[0, 0, 0, 0]);
    assert_eq!(s.pieces()[0], [13, 0, 0]);
}

#[test]
fn sig_of_twelve_with_a_regular_sig_among_its_bonus_throws_is_thirteen_at_once() {
    let g = game(2);
    // 13 points from idx 1: 1 -> 11 (10), -> 12 (11), -> 13 (12), -> 14 (13).
    for ks in [&[0u8, 5][..], &[0, 2, 1], &[0, 6, 6, 5], &[0, 0, 0, 1]] {
        let mut s = position(&[[1, 0, 0], [0, 0, 0]]);
        throws(&g, &mut s, ks);
        assert_eq!(s.pieces()[0], [14, 0, 0], "throws {ks:?}");
        // No further bonus throws: the turn has passed.
        assert_eq!(
            (s.turn(), s.pending()),
            (1, Pending::FirstThrow),
            "throws {ks:?}"
        );
        assert_eq!(s.throws() as usize, ks.len());
    }
}

// ---- moving -------------------------------------------------------------------------------

#[test]
fn leaving_the_start_needs_the_regular_sig_and_a_sig_of_six_or_twelve_cannot() {
    let g = game(2);
    // Regular sig: one step off the start, then the plain bonus.
    let mut s = g.initial_state();
    throws(&g, &mut s, &[5]);
    assert_eq!(s.pieces()[0], [1, 0, 0]);
    throws(&g, &mut s, &[3]);
    assert_eq!(s.pieces()[0], [4, 0, 0]);
    // Plain throws, a sig of six and a sig of twelve leave it on the start; their bonus
    // throws are still made and counted.
    for ks in [
        &[2u8][..],
        &[3],
        &[4],
        &[6, 4],
        &[6, 5],
        &[0, 2, 3, 4],
        &[0, 5],
    ] {
        let mut s = g.initial_state();
        throws(&g, &mut s, ks);
        assert_eq!(s.pieces()[0], [0, 0, 0], "throws {ks:?}");
        assert_eq!(
            (s.turn(), s.throws() as usize),
            (1, ks.len()),
            "throws {ks:?}"
        );
    }
    // The djinn leaves the start with the regular sig too, for a full point (a sig step).
    let mut s = position(&[[M, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[1]);
    assert_eq!(s.pieces()[0], [M, 1, 0]);
    let mut s = position(&[[M, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 6]);
    assert_eq!(s.pieces()[0], [M, 0, 0]);
}

#[test]
fn plain_budget_stops_before_a_step_that_needs_a_sig_and_the_rest_is_lost() {
    let g = game(2);
    // Into the Minaret.
    let mut s = position(&[[10, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[4]);
    assert_eq!(s.pieces()[0], [11, 0, 0]);
    // Out of the Minaret: no step at all.
    let mut s = position(&[[12, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[2]);
    assert_eq!(s.pieces()[0], [12, 0, 0]);
    // Into the tower.
    let mut s = position(&[[22, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[4]);
    assert_eq!(s.pieces()[0], [24, 0, 0]);
    // Inside the tower nothing plain moves.
    let mut s = position(&[[26, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[3]);
    assert_eq!(s.pieces()[0], [26, 0, 0]);
    assert_eq!((s.turn(), s.throws()), (1, 1));
}

#[test]
fn sig_budget_may_cross_sig_squares_at_one_point_a_step() {
    let g = game(2);
    // Father on 10 with a sig of six + 2 = 8 points: 10 -> 11 (1), -> 12 (1), -> 13 (1),
    // then 5 ordinary steps: 18.
    let mut s = position(&[[10, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 2]);
    assert_eq!(s.pieces()[0], [18, 0, 0]);
    // The regular sig's point pays a sig step: 24 -> 25.
    let mut s = position(&[[24, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[5, 0]);
    assert_eq!(s.pieces()[0], [25, 0, 0]);
}

#[test]
fn djinn_moves_double_on_ordinary_squares_and_single_where_a_sig_is_needed() {
    let g = game(2);
    // Plain 3 = 6 half-point steps: 2 -> 8.
    let mut s = position(&[[M, 2, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[3]);
    assert_eq!(s.pieces()[0], [M, 8, 0]);
    // Plain 4 from 8: 8 -> 11 costs 1½, the Minaret needs a sig: stop at 11.
    throws(&g, &mut s, &[2, 4]);
    assert_eq!(s.pieces()[0], [M, 11, 0]);
    // A regular sig from 10: 10 -> 11 costs ½, 11 -> 12 needs a sig and costs a full
    // point, only ½ is left: stop at 11. Then the plain bonus cannot enter the Minaret.
    let mut s = position(&[[M, 10, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[5]);
    assert_eq!(s.pieces()[0], [M, 11, 0]);
    assert_eq!(s.pending(), Pending::SigBonus);
    throws(&g, &mut s, &[4]);
    assert_eq!(s.pieces()[0], [M, 11, 0]);
    // A regular sig from 5: two ordinary half-point steps, 5 -> 7.
    let mut s = position(&[[M, 5, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[1]);
    assert_eq!(s.pieces()[0], [M, 7, 0]);
    // Sig of six + 2 = 8 points from 10: 10 -> 11 ½, -> 12 1, -> 13 1 (5½ left),
    // then 11 half-point steps: exactly idx 24. (The father would reach 18.)
    let mut s = position(&[[M, 10, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 2]);
    assert_eq!(s.pieces()[0], [M, 24, 0]);
    // The mother moves like the father.
    let mut s = position(&[[M, M, 2], [0, 0, 0]]);
    throws(&g, &mut s, &[3]);
    assert_eq!(s.pieces()[0], [M, M, 5]);
}

#[test]
fn cairo_costs_three_points_from_a_sig_of_six_or_twelve() {
    let g = game(2);
    // Six + 0 = 6 points from 24: 25, 26, 27 cost 3; Cairo 3 more: stop on Cairo with 0.
    // (At 1 point Cairo would have let it reach Mecca.)
    let mut s = position(&[[24, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 0]);
    assert_eq!(s.pieces()[0], [CAIRO, 0, 0]);
    assert_eq!((s.turn(), s.pending()), (1, Pending::FirstThrow));
    // Six + 0 = 6 points from 25: 26, 27 (2), Cairo (3): 1 point left, Medina costs 1.
    let mut s = position(&[[25, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 0]);
    assert_eq!(s.pieces()[0], [MEDINA, 0, 0]);
    // A sig of twelve's 13 from 20: 24 (4), 25, 26, 27 (7), Cairo (10), Medina (11),
    // Mecca (12): 1 point left.
    let mut s = position(&[[20, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[0, 5]);
    assert_eq!(s.pieces()[0], [M, 0, 0]);
    assert_eq!(s.pending(), Pending::Leftover { rest: 2 });
    // The djinn pays the full 3 too: six + 0 from 26: 27 (1), Cairo (4), Medina (5),
    // Mecca (6), nothing left.
    let mut s = position(&[[M, 26, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 0]);
    assert_eq!(s.pieces()[0], [M, M, 0]);
    assert_eq!((s.turn(), s.pending()), (1, Pending::FirstThrow));
}

#[test]
fn cairo_costs_one_point_from_a_regular_sig_by_default() {
    let g = game(2);
    let mut s = position(&[[27, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[5]);
    assert_eq!(s.pieces()[0], [CAIRO, 0, 0]);
}

#[test]
fn option_cairo_always_three_keeps_a_regular_sig_out_of_cairo() {
    let g = game_with(2, &[("cairo_always_three", "true")]);
    let mut s = position(&[[27, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[5]);
    assert_eq!(s.pieces()[0], [27, 0, 0]);
    assert_eq!(s.pending(), Pending::SigBonus);
    // Sigs of six and twelve pay 3 as before.
    let mut s = position(&[[24, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 0]);
    assert_eq!(s.pieces()[0], [CAIRO, 0, 0]);
    // Switched off again, the default holds.
    let g = game_with(
        2,
        &[("cairo_always_three", "true"), ("cairo_always_three", "no")],
    );
    let mut s = position(&[[27, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[1]);
    assert_eq!(s.pieces()[0], [CAIRO, 0, 0]);
}

#[test]
fn a_step_costing_more_than_what_is_left_stops_the_piece_and_the_rest_is_lost() {
    let g = game(2);
    // Father on 22, six + 2 = 8 points: 23, 24 (2), 25, 26, 27 (5), Cairo (8): exactly.
    let mut s = position(&[[22, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 2]);
    assert_eq!(s.pieces()[0], [CAIRO, 0, 0]);
    // Six + 0 = 6 from 22: 23, 24, 25, 26, 27 cost 5; 1 point cannot pay Cairo.
    let mut s = position(&[[22, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 0]);
    assert_eq!(s.pieces()[0], [27, 0, 0]);
    assert_eq!((s.turn(), s.pending()), (1, Pending::FirstThrow));
}

// ---- capture --------------------------------------------------------------------------------

#[test]
fn capture_by_passing_sends_opponents_strictly_between_back_to_the_start() {
    let g = game(3);
    // P1 2 -> 5 passes 3 and 4: P3's father (3) and P2's djinn (4) go home.
    let mut s = position(&[[2, 0, 0], [M, 4, 0], [3, 0, 0]]);
    throws(&g, &mut s, &[3]);
    assert_eq!(s.pieces()[0], [5, 0, 0]);
    assert_eq!(s.pieces()[1], [M, 0, 0]);
    assert_eq!(s.pieces()[2], [0, 0, 0]);
    assert_eq!(s.turn(), 1);
}

#[test]
fn capture_by_passing_spares_a_piece_on_the_stop_square_and_on_the_start_square() {
    let g = game(3);
    // P2 on the stop square (5), P3 on the start square of the move (2): both stay, and
    // pieces share squares.
    let mut s = position(&[[2, 0, 0], [5, 0, 0], [2, 0, 0]]);
    throws(&g, &mut s, &[3]);
    assert_eq!(s.pieces()[0], [5, 0, 0]);
    assert_eq!(s.pieces()[1], [5, 0, 0]);
    assert_eq!(s.pieces()[2], [2, 0, 0]);
    // A one-step move passes nobody.
    let g = game(2);
    let mut s = position(&[[4, 0, 0], [5, 0, 0]]);
    throws(&g, &mut s, &[1]);
    assert_eq!(s.pieces(), position(&[[5, 0, 0], [5, 0, 0]]).pieces());
    // A piece blocked before a sig square passes nobody it did not pass.
    let mut s = position(&[[10, 0, 0], [13, 0, 0]]);
    throws(&g, &mut s, &[4]);
    assert_eq!(s.pieces()[1], [13, 0, 0]);
}

#[test]
fn capture_by_passing_works_for_every_budget_and_the_djinn() {
    let g = game(2);
    // The djinn's regular sig from 5 (5 -> 7) passes 6.
    let mut s = position(&[[M, 5, 0], [6, 0, 0]]);
    throws(&g, &mut s, &[5]);
    assert_eq!(s.pieces()[1], [0, 0, 0]);
    // A sig of six through the tower passes pieces on sig squares too (24 -> Cairo).
    let mut s = position(&[[24, 0, 0], [M, 26, 0]]);
    throws(&g, &mut s, &[6, 0]);
    assert_eq!(s.pieces()[0], [CAIRO, 0, 0]);
    assert_eq!(s.pieces()[1], [M, 0, 0]);
}

// ---- leftover at Mecca ----------------------------------------------------------------------

#[test]
fn leftover_at_mecca_is_a_choice_and_use_walks_the_next_piece_off_the_start() {
    let g = game(2);
    // Six + 3 = 9 points from 24: 25, 26, 27 (3), Cairo (6), Medina (7), Mecca (8): 1 left.
    let mut s = position(&[[24, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 3]);
    assert_eq!(s.pieces()[0], [M, 0, 0]);
    assert_eq!(s.pending(), Pending::Leftover { rest: 2 });
    assert_eq!(g.node(&s), Node::Decide(0));
    let mut legal = ActionList::new();
    g.legal_actions(&s, &mut legal);
    assert_eq!(legal.as_slice(), &[Action::Use, Action::Decline]);
    // A throw is not accepted now.
    assert!(g.apply_throw(&mut s.clone(), Throw::new(3)).is_err());
    let decision = s;
    // Use: the djinn leaves the start for the 1 point.
    act(&g, &mut s, Action::Use);
    assert_eq!(s.pieces()[0], [M, 1, 0]);
    assert_eq!(
        (s.turn(), s.pending(), s.throws()),
        (1, Pending::FirstThrow, 2)
    );
    // Decline: the rest is lost.
    let mut s = decision;
    act(&g, &mut s, Action::Decline);
    assert_eq!(s.pieces()[0], [M, 0, 0]);
    assert_eq!(
        (s.turn(), s.pending(), s.throws()),
        (1, Pending::FirstThrow, 2)
    );
}

#[test]
fn leftover_under_one_point_is_lost_without_a_choice() {
    let g = game(2);
    // Djinn on 23, six + 3 = 9 points: 24 (½), 25, 26, 27 (3½), Cairo (6½), Medina (7½),
    // Mecca (8½): ½ left, less than the next piece's first step.
    let mut s = position(&[[M, 23, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 3]);
    assert_eq!(s.pieces()[0], [M, M, 0]);
    assert_eq!((s.turn(), s.pending()), (1, Pending::FirstThrow));
    assert_eq!(g.node(&s), Node::Throw(1));
    // Father arriving with exactly 0 left: no choice either (six + 0 from 26).
    let mut s = position(&[[26, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 0]);
    assert_eq!(s.pieces()[0], [M, 0, 0]);
    assert_eq!((s.turn(), s.pending()), (1, Pending::FirstThrow));
}

#[test]
fn leftover_of_the_djinn_can_be_odd_half_points() {
    let g = game(2);
    // Djinn on 22, six + 4 = 10 points: 23, 24 (1), 25–27 (4), Cairo (7), Medina (8),
    // Mecca (9): 1 point left, offered; the mother steps off the start for it.
    let mut s = position(&[[M, 22, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 4]);
    assert_eq!(s.pending(), Pending::Leftover { rest: 2 });
    // Djinn on 21, six + 4 = 10: 22, 23, 24 (1½) … Mecca (9½): ½ left, lost.
    let mut s = position(&[[M, 21, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 4]);
    assert_eq!(s.pieces()[0], [M, M, 0]);
    assert_eq!(s.pending(), Pending::FirstThrow);
    // Djinn on 22, twelve 2, 0, 0 = 14: Mecca at 9, 5 points left.
    let mut s = position(&[[M, 22, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[0, 2, 0, 0]);
    assert_eq!(s.pending(), Pending::Leftover { rest: 10 });
    // Use: mother 0 -> 1 (1), then 4 ordinary steps: idx 5.
    act(&g, &mut s, Action::Use);
    assert_eq!(s.pieces()[0], [M, M, 5]);
}

#[test]
fn leftover_captures_of_the_arriving_piece_happen_before_the_choice() {
    let g = game(2);
    // P1's father passes P2's father on 26 on the way to Mecca.
    let mut s = position(&[[24, 0, 0], [26, 0, 0]]);
    throws(&g, &mut s, &[6, 3]);
    assert_eq!(g.node(&s), Node::Decide(0));
    assert_eq!(s.pieces()[1], [0, 0, 0]);
}

#[test]
fn leftover_walk_captures_only_within_its_own_walk_from_the_start() {
    let g = game(2);
    // Father 24 -> Mecca with 1 point; the djinn walks 0 -> 1: P2 on 5 is not passed by
    // either walk.
    let mut s = position(&[[24, 0, 0], [5, 0, 0]]);
    throws(&g, &mut s, &[6, 3]);
    act(&g, &mut s, Action::Use);
    assert_eq!(s.pieces()[0], [M, 1, 0]);
    assert_eq!(s.pieces()[1], [5, 0, 0]);
    // Father 27 with twelve 6, 0, 0 = 18: Cairo (3), Medina, Mecca (5): 13 left. Djinn:
    // 0 -> 1 (1), 1 -> 11 (5), Minaret, 13 (2): 5 left, 10 half steps: idx 23. It passes
    // P2's djinn on 2 (captured) but not P2's djinn on 23 (its stop square).
    let mut s = position(&[[27, 0, 0], [M, 2, 0]]);
    throws(&g, &mut s, &[0, 6, 0, 0]);
    assert_eq!(s.pending(), Pending::Leftover { rest: 26 });
    act(&g, &mut s, Action::Use);
    assert_eq!(s.pieces()[0], [M, 23, 0]);
    assert_eq!(s.pieces()[1], [M, 0, 0]);
    let mut s = position(&[[27, 0, 0], [M, 23, 0]]);
    throws(&g, &mut s, &[0, 6, 0, 0]);
    act(&g, &mut s, Action::Use);
    assert_eq!(s.pieces()[1], [M, 23, 0]);
}

#[test]
fn leftover_walks_chain_when_the_next_piece_also_reaches_mecca_with_points_left() {
    let g = game(2);
    // Father on 27, twelve 6, 6, 6 = 30 points: Cairo (3), Medina, Mecca (5): 25 left.
    let mut s = position(&[[27, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[0, 6, 6, 6]);
    assert_eq!(s.pending(), Pending::Leftover { rest: 50 });
    // Djinn: 0 -> 1 (1), -> 11 (5), -> 12, -> 13 (2), -> 24 (5½), 25–27 (3), Cairo (3),
    // Medina, Mecca (2): 21½ spent, 3½ left: the next choice.
    act(&g, &mut s, Action::Use);
    assert_eq!(s.pieces()[0], [M, M, 0]);
    assert_eq!(s.pending(), Pending::Leftover { rest: 7 });
    assert_eq!(g.node(&s), Node::Decide(0));
    // Mother: 0 -> 1 (1), -> 2, -> 3 (2): ½ left, lost.
    act(&g, &mut s, Action::Use);
    assert_eq!(s.pieces()[0], [M, M, 3]);
    assert_eq!(
        (s.turn(), s.pending(), s.throws()),
        (1, Pending::FirstThrow, 4)
    );
}

#[test]
fn leftover_of_a_regular_sig_bonus_never_arises_because_plain_budgets_cannot_enter_mecca() {
    let g = game(2);
    // Regular sig from Medina: Mecca with nothing left, the bonus throw is still made
    // (the djinn cannot leave the start with it).
    let mut s = position(&[[MEDINA, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[5]);
    assert_eq!(s.pieces()[0], [M, 0, 0]);
    assert_eq!(s.pending(), Pending::SigBonus);
    throws(&g, &mut s, &[4]);
    assert_eq!(s.pieces()[0], [M, 0, 0]);
    assert_eq!((s.turn(), s.throws()), (1, 2));
}

// ---- finishing and ranking ------------------------------------------------------------------

#[test]
fn finishing_with_all_three_on_mecca_leaves_the_turn_order_and_the_rest_is_lost() {
    let g = game(3);
    // P1's mother on 24, six + 6 = 12 points: Mecca after 8, 4 points lost.
    let mut s = position(&[[M, M, 24], [5, 0, 0], [7, 0, 0]]);
    throws(&g, &mut s, &[6, 6]);
    assert_eq!(s.pieces()[0], [M, M, M]);
    assert_eq!((s.finish_place()[0], s.finished()), (1, 1));
    assert_eq!(g.node(&s), Node::Throw(1));
    // P2 and P3 now alternate: P1 is skipped.
    throws(&g, &mut s, &[2]);
    assert_eq!(s.turn(), 2);
    throws(&g, &mut s, &[2]);
    assert_eq!(s.turn(), 1);
    assert_eq!(g.ranking(&s), None);
}

#[test]
fn finishing_on_a_regular_sig_makes_no_bonus_throw_and_the_game_ends_with_one_racer() {
    let g = game(3);
    // P2 finished first; P3's regular sig brings its mother from Medina to Mecca: P3 is
    // second, the bonus throw is not made, and P1 (the last racer) is last.
    let mut s = position(&[[4, 0, 0], [M, M, M], [M, M, MEDINA]]);
    s = s.with_finish_place(1, 1);
    s = s.with_turn(2);
    s = s.with_throws(50);
    g.validate(&s).unwrap();
    throws(&g, &mut s, &[5]);
    assert_eq!(s.finish_place()[2], 2);
    assert_eq!(s.pending(), Pending::FirstThrow);
    assert_eq!(s.throws(), 51);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(s.turn(), 0, "the turn rests with the last racer");
    let r = g.ranking(&s).unwrap();
    assert_eq!(r.places(), &[2, 0, 1]);
    assert_eq!(r.to_string(), "P2 > P3 > P1");
}

#[test]
fn finishing_first_wins_a_two_player_game() {
    let g = game(2);
    let mut s = position(&[[3, 0, 0], [M, M, 24]]);
    s = s.with_turn(1);
    s = s.with_throws(9);
    throws(&g, &mut s, &[0, 6, 6, 6]);
    assert_eq!(s.pieces()[1], [M, M, M]);
    assert_eq!(g.node(&s), Node::End);
    let r = g.ranking(&s).unwrap();
    assert!(r.is_sole_winner(1));
    assert_eq!(g.scores(&s).unwrap()[..2], [0.0, 1.0]);
    assert!(g.apply_throw(&mut s, Throw::new(2)).is_err());
}

#[test]
fn finishing_through_chained_leftovers_in_one_turn() {
    let g = game(2);
    // Father on Medina, twelve 6, 6, 6 = 30: Mecca (1), 29 left. The djinn's walk to
    // Mecca costs 21½ (see the chain test): 7½ left. Mother: 0 -> 1 (1), then 6 steps
    // (6): idx 7, ½ lost.
    let mut s = position(&[[MEDINA, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[0, 6, 6, 6]);
    assert_eq!(s.pending(), Pending::Leftover { rest: 58 });
    act(&g, &mut s, Action::Use);
    assert_eq!(s.pieces()[0], [M, M, 0]);
    assert_eq!(s.pending(), Pending::Leftover { rest: 15 });
    act(&g, &mut s, Action::Use);
    assert_eq!(s.pieces()[0], [M, M, 7]);
    assert_eq!(g.node(&s), Node::Throw(1));
}

#[test]
fn mother_reaching_mecca_finishes_the_seat_and_its_rest_is_lost_without_a_choice() {
    let g = game(2);
    // Mother on Medina, six + 0 = 6 points: Mecca for 1, 5 left but no piece to take them.
    let mut s = position(&[[M, M, MEDINA], [4, 0, 0]]);
    throws(&g, &mut s, &[6, 0]);
    assert_eq!(s.pieces()[0], [M, M, M]);
    assert_eq!((s.finish_place()[0], s.finished()), (1, 1));
    assert_eq!(g.node(&s), Node::End);
    assert!(g.ranking(&s).unwrap().is_sole_winner(0));
}

// ---- the throw cap ----------------------------------------------------------------------------

#[test]
fn throw_cap_ends_the_game_and_ties_the_racers() {
    let g = game_with(2, &[("max_throws", "3")]);
    let mut s = position(&[[2, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[2, 2, 3]);
    assert_eq!(s.throws(), 3);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().places(), &[0, 0]);
    assert!(g.apply_throw(&mut s, Throw::new(2)).is_err());
    assert_eq!(g.throws_made(&s), 3);
}

#[test]
fn throw_cap_makes_no_bonus_throw_so_a_cut_off_sig_of_six_or_twelve_moves_nothing() {
    // Sig of six as the cap-th throw.
    let g = game_with(2, &[("max_throws", "1")]);
    let mut s = position(&[[5, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6]);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(s.pieces()[0], [5, 0, 0]);
    assert_eq!(s.pending(), Pending::SixBonus);
    // Sig of twelve cut off after two of its bonus throws.
    let g = game_with(2, &[("max_throws", "3")]);
    let mut s = position(&[[5, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[0, 2, 3]);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(s.pieces()[0], [5, 0, 0]);
}

#[test]
fn throw_cap_still_finishes_the_cap_th_throws_move_and_decision() {
    // A regular sig as the cap-th throw moves its point; its bonus throw is not made.
    let g = game_with(2, &[("max_throws", "1")]);
    let mut s = position(&[[5, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[5]);
    assert_eq!(s.pieces()[0], [6, 0, 0]);
    assert_eq!(g.node(&s), Node::End);
    // A sig of twelve completed by a regular sig on the cap-th throw moves its 13.
    let g = game_with(2, &[("max_throws", "2")]);
    let mut s = position(&[[1, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[0, 5]);
    assert_eq!(s.pieces()[0], [14, 0, 0]);
    assert_eq!(g.node(&s), Node::End);
    // The leftover choice the cap-th throw calls for is still made, then the game ends.
    let mut s = position(&[[24, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 3]);
    assert_eq!(g.node(&s), Node::Decide(0));
    assert_eq!(g.ranking(&s), None);
    act(&g, &mut s, Action::Use);
    assert_eq!(s.pieces()[0], [M, 1, 0]);
    assert_eq!(g.node(&s), Node::End);
}

#[test]
fn throw_cap_ranks_finishers_above_the_tied_racers() {
    let g = game_with(4, &[("max_throws", "20")]);
    let mut s = position(&[[4, 0, 0], [M, M, M], [9, 0, 0], [M, M, M]]);
    s = s.with_finish_place(1, 2);
    s = s.with_finish_place(3, 1);
    s = s.with_throws(19);
    g.validate(&s).unwrap();
    throws(&g, &mut s, &[2]);
    assert_eq!(g.node(&s), Node::End);
    let r = g.ranking(&s).unwrap();
    assert_eq!(r.places(), &[2, 1, 2, 0]);
    assert_eq!(r.to_string(), "P4 > P2 > P1 = P3");
}

#[test]
fn throw_cap_option_is_read_and_checked() {
    let mut g = game(2);
    assert_eq!(g.max_throws(), 10_000);
    g.set_option("max_throws", "7").unwrap();
    assert_eq!(g.max_throws(), 7);
    for bad in ["0", "-1", "x", ""] {
        assert!(g.set_option("max_throws", bad).is_err(), "{bad}");
    }
    assert_eq!(g.max_throws(), 7);
}

// ---- options and seats ----------------------------------------------------------------------

#[test]
fn options_are_listed_set_and_refused_with_a_clear_error() {
    let mut g = game(2);
    assert_eq!(
        g.options(),
        vec![
            ("max_throws", "10000".to_string()),
            ("cairo_always_three", "false".to_string())
        ]
    );
    assert_eq!(
        SigElOued::option_specs()
            .iter()
            .map(|o| o.name)
            .collect::<Vec<_>>(),
        &["max_throws", "cairo_always_three"]
    );
    g.set_option("cairo_always_three", "yes").unwrap();
    assert!(g.cairo_always_three());
    let before = g.clone();
    let err = g.set_option("cairo_always_three", "maybe").unwrap_err();
    assert!(err.to_string().contains("cairo_always_three"), "{err}");
    let err = g.set_option("colour", "red").unwrap_err();
    assert!(err.to_string().contains("cairo_always_three"), "{err}");
    assert!(err.to_string().contains("max_throws"), "{err}");
    assert_eq!(g, before);
}

#[test]
fn seats_two_to_eight_are_allowed() {
    for n in 2..=8 {
        assert_eq!(game(n).seats(), n);
    }
    for n in [0, 1, 9, 20] {
        let err = SigElOued::with_seats(n).unwrap_err();
        assert!(err.to_string().contains("2 to 8"), "{err}");
    }
}

// ---- validation -----------------------------------------------------------------------------

fn problems(g: &SigElOued, s: &State) -> Vec<String> {
    g.validate(s)
        .expect_err("the state should be refused")
        .messages()
}

fn assert_refused(g: &SigElOued, s: &State, needle: &str) {
    let p = problems(g, s);
    assert!(
        p.iter().any(|x| x.contains(needle)),
        "expected a problem mentioning `{needle}`, got {p:?}"
    );
}

#[test]
fn validate_accepts_hand_built_legal_positions() {
    let g = game(3);
    let mut s = position(&[[M, 13, 0], [5, 0, 0], [5, 0, 0]]);
    s = s.with_turn(2);
    s = s.with_throws(4);
    g.validate(&s).unwrap();
    s = s.with_pending(Pending::TwelveBonus { left: 1, sum: 7 });
    g.validate(&s).unwrap();
    s = s.with_pending(Pending::Leftover { rest: 3 });
    assert!(g.validate(&s).is_err(), "P3's next piece is not waiting");
    s = s.with_pieces_of(2, [M, 0, 0]);
    g.validate(&s).unwrap();
}

#[test]
fn validate_refuses_pieces_off_the_track() {
    let g = game(2);
    let s = position(&[[31, 0, 0], [0, 0, 0]]);
    assert_refused(&g, &s, "P1's father is at idx 31, off the 31-square track");
}

#[test]
fn validate_refuses_pieces_out_of_their_order() {
    let g = game(2);
    assert_refused(
        &g,
        &position(&[[5, M, 0], [0, 0, 0]]),
        "P1's djinn is on Mecca but the father is not",
    );
    assert_refused(
        &g,
        &position(&[[0, 0, 0], [4, 0, 7]]),
        "P2's mother is on idx 7 while the father is still racing",
    );
}

#[test]
fn validate_refuses_inconsistent_finishing() {
    let g = game(3);
    let s = position(&[[M, M, M], [0, 0, 0], [0, 0, 0]]);
    assert_refused(
        &g,
        &s,
        "P1 has all three pieces on Mecca but no finishing place",
    );
    let mut s = position(&[[M, M, 4], [0, 0, 0], [0, 0, 0]]);
    s = s.with_finish_place(0, 1);
    assert_refused(
        &g,
        &s,
        "P1 has finishing place 1 but not all its pieces are on Mecca",
    );
    // The finished count is counted from the places: JSON that disagrees is refused.
    let s = position(&[[M, M, M], [0, 0, 0], [0, 0, 0]]).with_finish_place(0, 1);
    assert_eq!(s.finished(), 1);
    let json = stickdice::save_state::<SigElOued>(&s);
    assert!(json.contains("\"finished\":1"), "{json}");
    let err =
        stickdice::load_state(&g, &json.replace("\"finished\":1", "\"finished\":0")).unwrap_err();
    assert!(
        err.to_string()
            .contains("the finished count is 0 but 1 seats have a finishing place"),
        "{err}"
    );
    let mut s = position(&[[M, M, M], [M, M, M], [0, 0, 0]]);
    s = s.with_finish_place(0, 1);
    s = s.with_finish_place(1, 1);
    s = s.with_turn(2);
    assert_refused(&g, &s, "finishing places [1, 1] are not 1 to 2");
    let mut s = position(&[[M, M, M], [M, M, M], [M, M, M]]);
    s = s
        .with_finish_place(0, 1)
        .with_finish_place(1, 2)
        .with_finish_place(2, 3);
    assert_refused(&g, &s, "all 3 seats have finished");
}

#[test]
fn validate_refuses_a_bad_turn() {
    let g = game(2);
    let mut s = g.initial_state();
    s = s.with_turn(2);
    assert_refused(&g, &s, "the turn is P3's, out of range for 2 seats");
    let g = game(3);
    let mut s = position(&[[M, M, M], [0, 0, 0], [0, 0, 0]]);
    s = s.with_finish_place(0, 1);
    s = s.with_turn(0);
    assert_refused(&g, &s, "the turn is P1's, but P1 has finished");
}

#[test]
fn validate_refuses_seats_past_the_seat_count() {
    let g = game(2);
    let s = position(&[[0, 0, 0], [0, 0, 0], [3, 0, 0]]);
    assert_refused(&g, &s, "P3 has pieces off the start or a finishing place");
}

#[test]
fn validate_refuses_bad_pending_bookkeeping() {
    let g = game_with(2, &[("max_throws", "100")]);
    let mut s = g.initial_state();
    s = s.with_throws(101);
    assert_refused(&g, &s, "101 throws have been made, past the cap of 100");
    let mut s = g.initial_state();
    s = s.with_pending(Pending::SixBonus);
    assert_refused(&g, &s, "pending but no throw has been made");
    let mut s = g.initial_state();
    s = s.with_throws(5);
    for (left, sum, needle) in [
        (0, 0, "has 0 bonus throws left"),
        (4, 0, "has 4 bonus throws left"),
        (3, 2, "cannot add up to 2"),
        (2, 1, "cannot add up to 1"),
        (2, 5, "cannot add up to 5"),
        (1, 11, "cannot add up to 11"),
        (1, 200, "cannot add up to 200"),
    ] {
        s = s.with_pending(Pending::TwelveBonus { left, sum });
        assert_refused(&g, &s, needle);
    }
    for (left, sum) in [(3, 0), (2, 6), (1, 5), (1, 12), (1, 0)] {
        s = s.with_pending(Pending::TwelveBonus { left, sum });
        g.validate(&s).unwrap();
    }
    let mut s = position(&[[M, 0, 0], [0, 0, 0]]);
    s = s.with_throws(5);
    for rest in [0, 1, 59] {
        s = s.with_pending(Pending::Leftover { rest });
        assert_refused(&g, &s, "half-points is offered");
    }
    s = s.with_pending(Pending::Leftover { rest: 2 });
    s = s.with_pieces_of(0, [4, 0, 0]);
    assert_refused(&g, &s, "whose next piece is not waiting on the start");
    // A pending bonus after the game has ended by finishing.
    let mut s = position(&[[M, M, M], [0, 0, 0]]);
    s = s.with_finish_place(0, 1);
    s = s.with_turn(1);
    s = s.with_throws(5);
    g.validate(&s).unwrap();
    s = s.with_pending(Pending::SigBonus);
    assert_refused(&g, &s, "the game is over");
}

#[test]
fn validate_lists_every_problem_at_once() {
    let g = game(2);
    let mut s = position(&[[40, M, 0], [0, 0, 0]]);
    s = s.with_turn(5);
    let p = problems(&g, &s);
    assert!(p.len() >= 3, "{p:?}");
}

#[test]
fn load_state_round_trips_and_rejects_malformed_or_invalid_states() {
    let g = game(2);
    let mut s = position(&[[24, 0, 0], [26, 0, 0]]);
    throws(&g, &mut s, &[6, 3]);
    let json = stickdice::save_state::<SigElOued>(&s);
    assert_eq!(stickdice::load_state(&g, &json).unwrap(), s);
    let err = stickdice::load_state(&g, "{\"pieces\": 3}").unwrap_err();
    assert!(
        err.to_string().contains("malformed sig-el-oued state"),
        "{err}"
    );
    let mut bad = s;
    let p = bad.pieces()[0];
    bad = bad.with_pieces_of(0, [77, p[1], p[2]]);
    let err = stickdice::load_state(&g, &stickdice::save_state::<SigElOued>(&bad)).unwrap_err();
    assert!(err.to_string().contains("idx 77"), "{err}");
}

// ---- notation, checked application, rendering -----------------------------------------------

#[test]
fn actions_have_notation_use_and_decline_that_round_trips() {
    let g = game(2);
    for a in [Action::Use, Action::Decline] {
        assert_eq!(g.parse_action(&a.to_string()), Ok(a));
    }
    assert_eq!(Action::Use.to_string(), "use");
    assert_eq!(Action::Decline.to_string(), "decline");
    assert_eq!(g.parse_action(" Use "), Ok(Action::Use));
    for bad in ["", "pass", "used", "3"] {
        let err = g.parse_action(bad).unwrap_err();
        assert!(err.expected.contains("use"), "{err}");
        assert!(err.to_string().contains("decline"), "{err}");
    }
}

#[test]
fn checked_application_refuses_actions_at_throws_and_impossible_throws_unchanged() {
    let g = game(2);
    let mut s = g.initial_state();
    let before = s;
    assert!(g.apply_action(&mut s, Action::Use).is_err());
    assert!(g.apply_throw(&mut s, Throw::new(7)).is_err());
    assert_eq!(s, before);
    let mut legal = ActionList::new();
    legal.push(Action::Decline);
    g.legal_actions(&s, &mut legal);
    assert!(legal.is_empty());
}

#[test]
fn render_draws_the_grid_and_tower_with_labelled_squares_pieces_and_status() {
    let g = game(2);
    let mut s = position(&[[M, 13, 0], [5, 0, 0]]);
    s = s.with_throws(3);
    let text = g.render(&s);
    for label in [
        "0 start",
        "12* Minaret",
        "28* Cairo",
        "29* Medina",
        "30* Mecca",
        "24",
    ] {
        assert!(text.contains(label), "missing `{label}` in\n{text}");
    }
    assert!(text.contains("1F"), "{text}");
    assert!(text.contains("1D"), "{text}");
    assert!(text.contains("1M 2DM"), "{text}");
    assert!(text.contains("P1 to throw"), "{text}");
    // The tower stands above the grid's right column: Mecca is drawn first, indented
    // past the start column, and the start is on the bottom row.
    let lines: Vec<&str> = text.lines().collect();
    let mecca = lines.iter().position(|l| l.contains("Mecca")).unwrap();
    let start = lines.iter().position(|l| l.contains("0 start")).unwrap();
    let corner = lines.iter().position(|l| l.contains("| 24")).unwrap();
    assert!(mecca < corner && corner < start, "{text}");
    assert!(lines[mecca].starts_with(' '), "{text}");
    assert_eq!(
        lines[mecca].find("Mecca").map(|c| c > 20),
        Some(true),
        "{text}"
    );
    // Pending bonus throws and the leftover choice are shown.
    s = s.with_pending(Pending::TwelveBonus { left: 2, sum: 4 });
    let text = g.render(&s);
    assert!(
        text.contains("sig of twelve's bonus throw 2 of 3"),
        "{text}"
    );
    let mut s = position(&[[24, 0, 0], [0, 0, 0]]);
    throws(&g, &mut s, &[6, 3]);
    let text = g.render(&s);
    assert!(
        text.contains("`use` the 1 point left at Mecca to walk the djinn"),
        "{text}"
    );
}

#[test]
fn describe_throw_speaks_the_games_words() {
    let g = game(2);
    let s = g.initial_state();
    assert!(g.describe_throw(&s, Throw::new(5)).contains("regular sig"));
    assert!(g.describe_throw(&s, Throw::new(6)).contains("sig of six"));
    assert!(g
        .describe_throw(&s, Throw::new(0))
        .contains("sig of twelve"));
    assert!(g
        .describe_throw(&s, Throw::new(3))
        .contains("plain budget of 3 points"));
    let mut s = s;
    s = s.with_throws(1);
    s = s.with_pending(Pending::SixBonus);
    assert!(g
        .describe_throw(&s, Throw::new(1))
        .contains("a sig budget of 7 points"));
    s = s.with_pending(Pending::TwelveBonus { left: 1, sum: 5 });
    assert!(g
        .describe_throw(&s, Throw::new(4))
        .contains("a sig budget of 21 points"));
    assert!(g
        .describe_throw(&s, Throw::new(5))
        .contains("a sig budget of 13 points"));
}

// ---- whole games ----------------------------------------------------------------------------

/// Plays seeded random games, validating every state and checking the final ranking
/// against the finishing places kept in the state.
#[test]
fn random_playouts_stay_valid_and_rank_consistently() {
    let mut rng = stickdice::Rng::seed_from_u64(2024);
    let mut ended_by_cap = 0;
    let mut decisions = 0u64;
    for game_no in 0..2000 {
        let seats = 2 + game_no % 4;
        let mut g = game(seats);
        if game_no % 3 == 0 {
            g.set_option("cairo_always_three", "true").unwrap();
        }
        if game_no % 5 == 0 {
            g.set_option("max_throws", "60").unwrap();
        }
        let mut s = g.initial_state();
        let mut list = ActionList::new();
        loop {
            g.validate(&s)
                .unwrap_or_else(|e| panic!("game {game_no}: {e}\n{}", g.render(&s)));
            match g.node(&s) {
                Node::Throw(_) => {
                    let t = g.sample_throw(&mut rng);
                    g.apply_throw(&mut s, t).unwrap();
                }
                Node::Decide(_) => {
                    decisions += 1;
                    g.legal_actions(&s, &mut list);
                    let a = list[(rand::Rng::next_u64(&mut rng) % 2) as usize];
                    g.apply_action(&mut s, a).unwrap();
                }
                Node::End => break,
            }
        }
        let r = g.ranking(&s).unwrap();
        let finished = s.finish_place()[..seats]
            .iter()
            .filter(|&&p| p != 0)
            .count();
        if s.throws() >= g.max_throws() && finished + 1 < seats {
            ended_by_cap += 1;
            for seat in 0..seats {
                let want = if s.finish_place()[seat] == 0 {
                    finished
                } else {
                    s.finish_place()[seat] as usize - 1
                };
                assert_eq!(r.place(seat), want, "game {game_no}");
            }
        } else {
            assert_eq!(finished, seats - 1, "game {game_no}");
            let mut places: Vec<usize> = (0..seats).map(|x| r.place(x)).collect();
            places.sort_unstable();
            assert_eq!(places, (0..seats).collect::<Vec<_>>(), "no ties: {r}");
            for seat in 0..seats {
                if s.finish_place()[seat] != 0 {
                    assert_eq!(s.pieces()[seat], [M, M, M]);
                    assert_eq!(r.place(seat), s.finish_place()[seat] as usize - 1);
                } else {
                    assert_eq!(r.place(seat), seats - 1);
                }
            }
        }
    }
    assert!(ended_by_cap > 0, "some games hit the small cap");
    assert!(decisions > 0, "some leftover choices were met");
}

#[test]
fn conformance_suite_passes_for_every_configuration() {
    for g in stickdice::testing::configurations::<SigElOued>() {
        stickdice::testing::conformance(&g, 3, 11);
    }
}

/// Throughput of random play: `cargo test --release --test integration sig_el_oued_rules:: -- --ignored
/// --nocapture throughput`.
#[test]
#[ignore]
fn throughput_of_random_playouts() {
    let mut rng = stickdice::Rng::seed_from_u64(1);
    for seats in [2usize, 4, 8] {
        let g = game(seats);
        let start = std::time::Instant::now();
        let mut total = 0u64;
        let games = 200_000;
        for _ in 0..games {
            let mut s = g.initial_state();
            stickdice::play::random_playout(&g, &mut s, &mut rng);
            total += s.throws() as u64;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{seats} seats: {games} playouts, {:.1} throws/game, {:.1} M throws/s",
            total as f64 / games as f64,
            total as f64 / secs / 1e6
        );
    }
}

#[test]
fn unused_constants_are_consistent() {
    assert_eq!((FATHER, DJINN, MOTHER), (0, 1, 2));
    assert_eq!(START, 0);
}

#[test]
fn render_wraps_a_crowded_start_three_seats_to_a_line() {
    let g = game(8);
    let text = g.render(&g.initial_state());
    assert!(text.contains("| 1FDM 2FDM 3FDM |"), "{text}");
    assert!(text.contains("| 4FDM 5FDM 6FDM |"), "{text}");
    assert!(text.contains("| 7FDM 8FDM "), "{text}");
    assert!(text.contains("P8: father on the start"), "{text}");
}

/// A state's [`Position`] (for its seat count) builds it back, and a bad one is refused
/// with each problem typed, the seat count and the list lengths included.
#[test]
fn a_position_round_trips_and_each_bad_one_names_its_problem() {
    let g = game(3);
    let p = Position {
        finish_place: vec![1, 0, 0],
        turn: 2,
        pending: Pending::Leftover { rest: 3 },
        throws: 12,
        ..Position::new(&[[MECCA; 3], [MECCA, 7, START], [MECCA, START, START]])
    };
    let s = State::try_from(p.clone()).unwrap();
    assert_eq!(g.validate(&s), Ok(()));
    assert_eq!(s.finished(), 1);
    assert_eq!(s.position(3), p);
    assert_eq!(State::try_from(s.position(3)), Ok(s));
    let kinds = |p: Position| -> Vec<Problem> {
        State::try_from(p)
            .unwrap_err()
            .kinds::<Problem>()
            .cloned()
            .collect()
    };
    assert_eq!(
        kinds(Position::new(&[[START; 3]])),
        [Problem::SeatCount { seats: 1 }]
    );
    assert_eq!(
        kinds(Position::new(&[[START; 3]; 9])),
        [Problem::SeatCount { seats: 9 }]
    );
    assert_eq!(
        kinds(Position {
            finish_place: vec![0; 3],
            ..Position::new(&[[START; 3]; 2])
        }),
        [Problem::PlacesLength {
            places: 3,
            seats: 2
        }]
    );
    assert_eq!(
        kinds(Position::new(&[[40, START, START], [START; 3]])),
        [Problem::OffTrack {
            seat: 0,
            piece: FATHER,
            idx: 40
        }]
    );
    assert_eq!(
        kinds(Position::new(&[[MECCA; 3], [START; 3], [START; 3]])),
        [Problem::HomeWithoutPlace { seat: 0 }]
    );
    assert_eq!(
        kinds(Position {
            turn: 2,
            ..Position::new(&[[START; 3]; 2])
        }),
        [Problem::TurnOutOfRange { turn: 2, seats: 2 }]
    );
}
