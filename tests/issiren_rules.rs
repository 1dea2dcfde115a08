//! Scenario tests for Issiren (docs/games/issiren.md), one per clause, plus options, the
//! throw cap, validation, notation, rendering and seeded random playouts.
//!
//! Expected values are worked out by hand from the rules (square names written out from
//! the circuit table), never read back from the implementation.

use stickdice::games::issiren::{circuit_square, Action, Piece, Position, Square, State};
use stickdice::{ActionList, ConfigError, Game, IllegalMove, Issiren, Node, Present, Throw};

fn game() -> Issiren {
    Issiren::with_seats(2).unwrap()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn mv(name: &str) -> Action {
    Action::Move(sq(name))
}

/// The state of these pieces, P1 to throw, unchecked (as JSON is read): the tests of
/// `validate` give it positions the rules never reach.
fn state(p1: &[Piece], p2: &[Piece]) -> State {
    State::from_position_unvalidated(&Position::new(p1, p2)).unwrap()
}

/// `s` with `seat` to decide on a throw of `g` green sides, `throws` throws made.
fn deciding(s: State, seat: u8, g: u8, throws: u32) -> State {
    s.with_turn(seat)
        .with_pending(Some(Throw::new(g)))
        .with_throws(throws)
}

fn legal(g: &Issiren, s: &State) -> Vec<String> {
    let mut list = ActionList::new();
    g.legal_actions(s, &mut list);
    list.iter().map(|a| a.to_string()).collect()
}

fn moved(positions: &[u8]) -> Vec<Piece> {
    positions.iter().map(|&p| Piece::moved(p)).collect()
}

/// A P2 piece out of the way: P2 position 6 = seat-0 position 42 = g4.
fn bystanders() -> Vec<Piece> {
    moved(&[6])
}

/// Seat 0's circuit written out from the rules' table: six runs of 12 squares.
fn seat0_table() -> Vec<String> {
    let cols = "abcdefghijkl".as_bytes();
    // (row number in notation, right to left?)
    let runs = [
        (1, true),
        (2, false),
        (3, true),
        (4, false),
        (3, true),
        (2, false),
    ];
    let mut out = Vec::new();
    for (row, rtl) in runs {
        for k in 0..12 {
            let c = if rtl { 11 - k } else { k };
            out.push(format!("{}{}", cols[c] as char, row));
        }
    }
    out
}

// ---- players ------------------------------------------------------------------------

#[test]
fn players_exactly_two() {
    assert!(Issiren::with_seats(2).is_ok());
    for n in [0, 1, 3, 8] {
        let err = Issiren::with_seats(n).unwrap_err();
        assert!(
            matches!(err, ConfigError::Players { min: 2, max: 2, .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("exactly 2"), "{err}");
    }
    assert_eq!(game().seats(), 2);
}

// ---- circuit --------------------------------------------------------------------------

#[test]
fn circuit_seat_0_follows_the_table_out_through_the_opponents_home_row_and_back() {
    let table = seat0_table();
    for pos in 0..72u8 {
        assert_eq!(
            circuit_square(0, pos).unwrap().to_string(),
            table[pos as usize],
            "position {pos}"
        );
    }
    // A few by hand: the ends of each run.
    let hand = [
        (0, "l1"),
        (11, "a1"),
        (12, "a2"),
        (23, "l2"),
        (24, "l3"),
        (35, "a3"),
        (36, "a4"),
        (47, "l4"),
        (48, "l3"),
        (59, "a3"),
        (60, "a2"),
        (71, "l2"),
    ];
    for (pos, name) in hand {
        assert_eq!(circuit_square(0, pos), Some(sq(name)), "position {pos}");
    }
}

#[test]
fn circuit_seat_1_is_seat_0s_circuit_half_a_lap_on() {
    let table = seat0_table();
    for pos in 0..72u8 {
        let expected = &table[(pos as usize + 36) % 72];
        assert_eq!(&circuit_square(1, pos).unwrap().to_string(), expected);
    }
    let hand = [
        (0, "a4"),
        (11, "l4"),
        (12, "l3"),
        (23, "a3"),
        (24, "a2"),
        (36, "l1"),
        (47, "a1"),
        (48, "a2"),
        (59, "l2"),
        (60, "l3"),
        (71, "a3"),
    ];
    for (pos, name) in hand {
        assert_eq!(circuit_square(1, pos), Some(sq(name)), "position {pos}");
    }
    assert_eq!(circuit_square(0, 72), None);
    assert_eq!(circuit_square(2, 0), None);
}

#[test]
fn circuit_a_piece_keeps_its_position_so_one_square_leads_two_ways() {
    // i2 is P1's position 20 (outward) and 68 (on the way back).
    let g = game();
    for (pos, dest_pos, dest) in [(20u8, 25u8, "k3"), (68, 1, "k1")] {
        let s = deciding(state(&moved(&[pos]), &bystanders()), 0, 1, 1); // g=1: 5 steps
        assert_eq!(legal(&g, &s), ["i2"]);
        let mut after = s;
        g.apply_action(&mut after, mv("i2")).unwrap();
        let mut expected = state(&moved(&[dest_pos]), &bystanders());
        expected = expected.with_throws(1); // g=1 grants an extra throw: P1 again
        assert_eq!(after, expected);
        assert_eq!(after.piece_at(sq(dest)), Some((0, Piece::moved(dest_pos))));
    }
}

#[test]
fn circuit_return_half_and_loop_back_to_0_for_both_seats() {
    let g = game();
    // P1: b3 (58) + 6 = 64 = e2, on the way back.
    let s = deciding(state(&moved(&[58]), &bystanders()), 0, 6, 1);
    assert_eq!(legal(&g, &s), ["b3"]);
    let mut after = s;
    g.apply_action(&mut after, mv("b3")).unwrap();
    assert_eq!(after.pieces_of(0), &[Piece::moved(64)]);
    assert_eq!(after.piece_at(sq("e2")), Some((0, Piece::moved(64))));

    // P1: j2 (69) + 3 = 72 -> position 0 = l1, its own home row again.
    let s = deciding(state(&moved(&[69]), &bystanders()), 0, 3, 1);
    let mut after = s;
    g.apply_action(&mut after, mv("j2")).unwrap();
    let mut expected = state(&moved(&[0]), &bystanders());
    expected = expected.with_turn(1); // 3 green sides: no extra throw
    expected = expected.with_throws(1);
    assert_eq!(after, expected);
    assert_eq!(after.piece_at(sq("l1")), Some((0, Piece::moved(0))));

    // P2: b3 is P2's position 70 (seat-0 position 34); + 2 = 72 -> position 0 = a4.
    let s = deciding(state(&moved(&[20]), &moved(&[70])), 1, 2, 2);
    assert_eq!(legal(&g, &s), ["b3"]);
    let mut after = s;
    g.apply_action(&mut after, mv("b3")).unwrap();
    let mut expected = state(&moved(&[20]), &moved(&[0]));
    expected = expected.with_turn(0);
    expected = expected.with_throws(2);
    assert_eq!(after, expected);
    assert_eq!(after.piece_at(sq("a4")), Some((1, Piece::moved(0))));

    // P2 on its own way back: P2 position 50 = seat-0 position 14 = c2; + 4 (g=0) = 54 =
    // seat-0 position 18 = g2.
    let s = deciding(state(&moved(&[5]), &moved(&[50])), 1, 0, 2);
    let mut after = s;
    g.apply_action(&mut after, mv("c2")).unwrap();
    assert_eq!(after.piece_at(sq("g2")), Some((1, Piece::moved(54))));
    assert_eq!(g.node(&after), Node::Throw(1));
}

// ---- start ----------------------------------------------------------------------------

#[test]
fn start_twelve_unmoved_pieces_on_each_home_row() {
    let g = game();
    let s = g.initial_state();
    assert_eq!(g.validate(&s), Ok(()));
    assert_eq!(g.node(&s), Node::Throw(0));
    assert_eq!(s.count(), [12, 12]);
    assert_eq!(s.occupied(), [0xfff, 0xfff << 36]);
    for (col, c) in "abcdefghijkl".chars().enumerate() {
        // P1's position on column c is 11 - col; P2's is col.
        assert_eq!(
            s.piece_at(sq(&format!("{c}1"))),
            Some((0, Piece::start(11 - col as u8)))
        );
        assert_eq!(
            s.piece_at(sq(&format!("{c}4"))),
            Some((1, Piece::start(col as u8)))
        );
        assert_eq!(s.piece_at(sq(&format!("{c}2"))), None);
        assert_eq!(s.piece_at(sq(&format!("{c}3"))), None);
    }
    assert_eq!(g.throws_made(&s), 0);
}

// ---- throws ---------------------------------------------------------------------------

#[test]
fn throws_value_and_extra_throw_follow_the_table() {
    // g: (steps, extra throw) from the rules.
    let table = [
        (0u8, 4u8, true),
        (1, 5, true),
        (2, 2, false),
        (3, 3, false),
        (4, 1, true),
        (5, 5, false),
        (6, 6, true),
    ];
    let g = game();
    assert_eq!(g.sticks().count(), 6);
    let probs: Vec<f64> = g
        .throw_outcomes()
        .iter()
        .map(|o| o.probability * 64.0)
        .collect();
    assert_eq!(probs, [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0]);
    for (green, steps, extra) in table {
        // A lone moved P1 piece on a2 (position 12).
        let mut s = state(&moved(&[12]), &bystanders());
        g.apply_throw(&mut s, Throw::new(green)).unwrap();
        assert_eq!(g.node(&s), Node::Decide(0));
        assert_eq!(s.pending(), Some(Throw::new(green)));
        assert_eq!(g.throws_made(&s), 1);
        assert_eq!(legal(&g, &s), ["a2"]);
        g.apply_action(&mut s, mv("a2")).unwrap();
        assert_eq!(s.pieces_of(0), &[Piece::moved(12 + steps)], "g={green}");
        assert_eq!(s.pending(), None);
        let next = if extra { 0 } else { 1 };
        assert_eq!(g.node(&s), Node::Throw(next), "g={green}");
    }
}

#[test]
fn throws_the_pending_throw_is_in_the_state_between_throw_and_decision() {
    let g = game();
    let mut s = g.initial_state();
    g.apply_throw(&mut s, Throw::new(4)).unwrap();
    assert_eq!(s.pending(), Some(Throw::new(4)));
    assert_eq!(g.node(&s), Node::Decide(0));
    assert_eq!(g.validate(&s), Ok(()));
    // Throwing again before deciding is refused, and nothing changes.
    let before = s;
    assert_eq!(
        g.apply_throw(&mut s, Throw::new(2)),
        Err(IllegalMove::DecisionDue { seat: 0 })
    );
    assert_eq!(s, before);
}

// ---- moves ----------------------------------------------------------------------------

#[test]
fn moves_only_four_green_sides_release_an_unmoved_piece() {
    let g = game();
    for green in [0, 1, 2, 3, 5, 6] {
        let s = deciding(g.initial_state(), 0, green, 1);
        assert_eq!(legal(&g, &s), ["pass"], "g={green}");
    }
    // With 4 green sides only the front piece (a1, position 11) can step: the others
    // would land on their own neighbour.
    let s = deciding(g.initial_state(), 0, 4, 1);
    assert_eq!(legal(&g, &s), ["a1"]);
    let mut after = s;
    g.apply_action(&mut after, mv("a1")).unwrap();
    let mut p1: Vec<Piece> = (0..11).map(Piece::start).collect();
    p1.push(Piece::moved(12)); // now on a2, and moved
    let p2: Vec<Piece> = (0..12).map(Piece::start).collect();
    let mut expected = state(&p1, &p2);
    expected = expected.with_throws(1); // extra throw: still P1
    assert_eq!(after, expected);
    assert_eq!(after.piece_at(sq("a2")), Some((0, Piece::moved(12))));

    // P2's front piece is l4 (its position 11), stepping to l3.
    let s = deciding(g.initial_state(), 1, 4, 2);
    assert_eq!(legal(&g, &s), ["l4"]);
    let mut after = s;
    g.apply_action(&mut after, mv("l4")).unwrap();
    assert_eq!(after.piece_at(sq("l3")), Some((1, Piece::moved(12))));
}

#[test]
fn moves_a_throw_of_four_also_moves_a_moved_piece_one_step() {
    let g = game();
    // P1: unmoved on a1 (11), moved on i2 (20).
    let s = deciding(
        state(&[Piece::start(11), Piece::moved(20)], &bystanders()),
        0,
        4,
        1,
    );
    assert_eq!(legal(&g, &s), ["a1", "i2"]);
    let mut after = s;
    g.apply_action(&mut after, mv("i2")).unwrap();
    let mut expected = state(&[Piece::start(11), Piece::moved(21)], &bystanders());
    expected = expected.with_throws(1);
    assert_eq!(after, expected);
    assert_eq!(after.piece_at(sq("j2")), Some((0, Piece::moved(21))));
    // Other throws: only the moved piece.
    let s = deciding(
        state(&[Piece::start(11), Piece::moved(20)], &bystanders()),
        0,
        2,
        1,
    );
    assert_eq!(legal(&g, &s), ["i2"]);
}

#[test]
fn moves_the_destination_must_not_hold_an_own_piece() {
    let g = game();
    // P1 on i2 (20), l2 (23), j3 (26); a throw of 3 (g=3): 20 -> 23 and 23 -> 26 blocked.
    let s = deciding(state(&moved(&[20, 23, 26]), &bystanders()), 0, 3, 1);
    assert_eq!(legal(&g, &s), ["j3"]);
    let mut bad = s;
    let err = g.apply_action(&mut bad, mv("i2")).unwrap_err();
    assert!(matches!(err, IllegalMove::NotLegal { .. }), "{err:?}");
    assert!(err.to_string().contains("j3"), "{err}");
    assert_eq!(bad, s);
    // Unmoved pieces on f1..b1 (5..10) cannot move on 2; moved pieces on a1 (11, back
    // after a lap), a2 (12), b2 (13): a1 -> 13 is blocked, a2 -> 14 and b2 -> 15 are free.
    let mut p1: Vec<Piece> = (5..11).map(Piece::start).collect();
    p1.extend(moved(&[11, 12, 13]));
    let s = deciding(state(&p1, &bystanders()), 0, 2, 1);
    assert_eq!(legal(&g, &s), ["a2", "b2"]);
}

#[test]
fn moves_a_pass_is_the_only_action_when_no_piece_can_move() {
    let g = game();
    let s = deciding(g.initial_state(), 0, 3, 1);
    assert_eq!(legal(&g, &s), ["pass"]);
    let mut bad = s;
    assert!(g.apply_action(&mut bad, mv("a1")).is_err());
    assert_eq!(bad, s);
    // And a pass is refused when a piece can move.
    let s = deciding(g.initial_state(), 0, 4, 1);
    let mut bad = s;
    assert!(matches!(
        g.apply_action(&mut bad, Action::Pass),
        Err(IllegalMove::NotLegal { .. })
    ));
    assert_eq!(bad, s);
}

#[test]
fn moves_pieces_passed_over_neither_block_nor_are_captured() {
    let g = game();
    // P1 on a2 (12) and b2 (13); P2 on c2 (its position 50 = seat-0 position 14).
    // A throw of 3 takes a2 to d2 (15), over both.
    let s = deciding(state(&moved(&[12, 13]), &moved(&[50])), 0, 3, 1);
    assert_eq!(legal(&g, &s), ["a2", "b2"]);
    let mut after = s;
    g.apply_action(&mut after, mv("a2")).unwrap();
    let mut expected = state(&moved(&[13, 15]), &moved(&[50]));
    expected = expected.with_turn(1);
    expected = expected.with_throws(1);
    assert_eq!(after, expected);
    assert_eq!(after.piece_at(sq("c2")), Some((1, Piece::moved(50))));
}

#[test]
fn moves_landing_on_an_enemy_piece_captures_it() {
    let g = game();
    // P1 on a2 (12); P2 on c2 (50) and h4 (7); a throw of 2 lands on c2.
    let s = deciding(state(&moved(&[12]), &moved(&[50, 7])), 0, 2, 1);
    let mut after = s;
    g.apply_action(&mut after, mv("a2")).unwrap();
    let mut expected = state(&moved(&[14]), &moved(&[7]));
    expected = expected.with_turn(1);
    expected = expected.with_throws(1);
    assert_eq!(after, expected);
    assert_eq!(after.count(), [1, 1]);
    assert_eq!(after.captured_by(0), 11);
    assert_eq!(after.piece_at(sq("c2")), Some((0, Piece::moved(14))));
    assert_eq!(g.validate(&after), Ok(()));

    // An unmoved piece on its home row is captured like any other: P1 on c4 (38) with
    // 2 steps passes d4 and lands on e4 (40), P2's unmoved position 4.
    let p2: Vec<Piece> = (3..12).map(Piece::start).collect();
    let s = deciding(state(&moved(&[38]), &p2), 0, 2, 1);
    let mut after = s;
    g.apply_action(&mut after, mv("c4")).unwrap();
    let rest: Vec<Piece> = (3..12).filter(|&p| p != 4).map(Piece::start).collect();
    let mut expected = state(&moved(&[40]), &rest);
    expected = expected.with_turn(1);
    expected = expected.with_throws(1);
    assert_eq!(after, expected);
}

#[test]
fn moves_the_extra_throw_is_kept_after_a_pass() {
    let g = game();
    for (green, next) in [(0, 0), (1, 0), (6, 0), (2, 1), (3, 1), (5, 1)] {
        let mut s = deciding(g.initial_state(), 0, green, 1);
        g.apply_action(&mut s, Action::Pass).unwrap();
        assert_eq!(g.node(&s), Node::Throw(next), "g={green}");
        assert_eq!(s.pending(), None);
    }
}

#[test]
fn moves_legal_actions_are_listed_in_square_order() {
    let g = game();
    // P1 pieces on l1 (0, moved), a2 (12), l3 (24), a4 (36), given out of order.
    let s = deciding(state(&moved(&[36, 24, 0, 12]), &bystanders()), 0, 3, 1);
    assert_eq!(legal(&g, &s), ["l1", "a2", "l3", "a4"]);
}

#[test]
fn moves_equal_positions_reached_by_different_orders_are_equal_states() {
    let g = game();
    let start = state(&moved(&[12, 20]), &bystanders());
    let play = |first: &str, second: &str, d1: u8, d2: u8| {
        let mut s = start;
        g.apply_throw(&mut s, Throw::new(d1)).unwrap();
        g.apply_action(&mut s, mv(first)).unwrap();
        g.apply_throw(&mut s, Throw::new(d2)).unwrap();
        g.apply_action(&mut s, mv(second)).unwrap();
        s
    };
    // g=6 then g=0 (both extra throws): a2 (12) +6 -> 18 (g2), i2 (20) +4 -> 24 (l3); and
    // the other way round, i2 first.
    let a = play("a2", "i2", 6, 0);
    let b = play("i2", "a2", 0, 6);
    assert_eq!(a, b);
    assert_eq!(g.state_key(&a), g.state_key(&b));
    assert_eq!(a.pieces_of(0), &[Piece::moved(18), Piece::moved(24)]);
}

// ---- end ------------------------------------------------------------------------------

#[test]
fn end_the_game_ends_at_once_on_the_twelfth_capture() {
    let g = game();
    // P2's last piece on c2; P1 captures it on a throw of 2... use g=6 (extra throw)
    // from position 8 (d1) to 14 (c2): the extra throw is not made.
    let s = deciding(state(&moved(&[8, 30]), &moved(&[50])), 0, 6, 17);
    let mut after = s;
    g.apply_action(&mut after, mv("d1")).unwrap();
    assert_eq!(g.node(&after), Node::End);
    assert_eq!(after.count(), [2, 0]);
    assert_eq!(after.pending(), None);
    assert_eq!(g.throws_made(&after), 17);
    let r = g.ranking(&after).unwrap();
    assert_eq!(r.places(), &[0, 1]);
    assert_eq!(g.scores(&after).unwrap()[..2], [1.0, 0.0]);
    assert_eq!(g.validate(&after), Ok(()));
    let mut list = ActionList::new();
    g.legal_actions(&after, &mut list);
    assert!(list.is_empty());
    let mut end = after;
    assert_eq!(
        g.apply_throw(&mut end, Throw::new(3)),
        Err(IllegalMove::GameOver)
    );
    assert_eq!(end, after);
    assert!(g.render(&after).contains("P1 wins"));

    // P2 wins the same way.
    let s = deciding(state(&moved(&[14]), &moved(&[48])), 1, 2, 5);
    // P2 48 = seat-0 12 (a2) + 2 = 50 = seat-0 14 (c2).
    let mut after = s;
    g.apply_action(&mut after, mv("a2")).unwrap();
    assert_eq!(g.ranking(&after).unwrap().places(), &[1, 0]);
    assert!(g.render(&after).contains("P2 wins"));
}

#[test]
fn end_the_game_is_not_over_while_both_sides_have_pieces() {
    let g = game();
    let s = state(&moved(&[12]), &moved(&[30]));
    assert_eq!(g.node(&s), Node::Throw(0));
    assert_eq!(g.ranking(&s), None);
}

// ---- throw cap ------------------------------------------------------------------------

#[test]
fn throw_cap_draw_after_the_cap_th_throws_decision() {
    let mut g = game();
    g.set_option("max_throws", "3").unwrap();
    let mut s = g.initial_state();
    // Throw 1: 2 green (pass, P2's turn); throw 2: 3 green (pass, P1's turn);
    // throw 3: 6 green, an extra throw, but the cap comes first.
    for (k, (green, seat)) in [(2u8, 0), (3, 1), (6, 0)].into_iter().enumerate() {
        assert_eq!(g.node(&s), Node::Throw(seat));
        g.apply_throw(&mut s, Throw::new(green)).unwrap();
        assert_eq!(g.throws_made(&s), k as u32 + 1);
        assert_eq!(g.node(&s), Node::Decide(seat)); // the cap-th throw's decision is made
        assert_eq!(g.ranking(&s), None);
        g.apply_action(&mut s, Action::Pass).unwrap();
    }
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().places(), &[0, 0]);
    assert_eq!(g.scores(&s).unwrap()[..2], [0.5, 0.5]);
    assert!(g.render(&s).contains("draw"));
    assert_eq!(g.validate(&s), Ok(()));
}

#[test]
fn throw_cap_a_capture_on_the_cap_th_throw_still_wins() {
    let mut g = game();
    g.set_option("max_throws", "9").unwrap();
    let s = deciding(state(&moved(&[12]), &moved(&[50])), 0, 2, 9);
    let mut after = s;
    g.apply_action(&mut after, mv("a2")).unwrap();
    assert_eq!(g.ranking(&after).unwrap().places(), &[0, 1]);
}

#[test]
fn throw_cap_default_is_10000() {
    let g = game();
    let mut s = state(&moved(&[12]), &moved(&[30]));
    s = s.with_throws(9_999);
    assert_eq!(g.node(&s), Node::Throw(0));
    s = s.with_throws(10_000);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().places(), &[0, 0]);
}

// ---- options --------------------------------------------------------------------------

#[test]
fn options_max_throws_only() {
    let mut g = game();
    assert_eq!(
        Issiren::option_specs()
            .iter()
            .map(|o| o.name)
            .collect::<Vec<_>>(),
        &["max_throws"]
    );
    assert_eq!(g.options(), vec![("max_throws", "10000".to_string())]);
    g.set_option("max_throws", "250").unwrap();
    assert_eq!(g.options(), vec![("max_throws", "250".to_string())]);
    let before = g.clone();
    for bad in ["0", "-1", "abc", ""] {
        let err = g.set_option("max_throws", bad).unwrap_err();
        assert!(matches!(err, ConfigError::BadValue { .. }), "{err:?}");
        assert_eq!(g, before);
    }
    let err = g.set_option("exact_waiting_square", "true").unwrap_err();
    assert!(err.to_string().contains("max_throws"), "{err}");
    assert_eq!(g, before);
    let any = stickdice::AnyGame::new("issiren", None, &["max_throws=7"]).unwrap();
    assert_eq!(any.options(), vec![("max_throws", "7".to_string())]);
}

// ---- validation -----------------------------------------------------------------------

fn problems(g: &Issiren, s: &State) -> Vec<String> {
    g.validate(s).unwrap_err().messages()
}

#[test]
fn validate_reports_typed_problems_with_the_square_and_seat() {
    use stickdice::games::issiren::Problem;
    let g = game();
    let s: State = serde_json::from_str(
        r#"{"pieces": [[{"pos": 3}, {"pos": 3}], [{"pos": 80}]], "turn": 0, "pending": null, "throws": 0}"#,
    )
    .unwrap();
    let err = g.validate(&s).unwrap_err();
    let kinds: Vec<&Problem> = err.kinds::<Problem>().collect();
    let square: Square = "i1".parse().unwrap();
    assert_eq!(
        kinds,
        [
            &Problem::SharedSquare {
                seat: 0,
                square,
                pieces: 2
            },
            &Problem::OffCircuit {
                seat: 1,
                piece: 0,
                pos: 80
            },
        ]
    );
    assert_eq!(
        err.to_string(),
        "invalid state: two pieces of P1 on square i1 (a square holds one piece); \
         P2's piece 0 is at circuit position 80, off the 72-step circuit (positions 0 to 71)"
    );
    assert!(err.problems().iter().all(|p| p.as_other().is_none()));
}

/// A state's [`Position`] builds it back, and a position the rules never reach is refused
/// with each problem typed (the ones `validate` names), the throw cap aside.
#[test]
fn a_position_round_trips_and_each_bad_one_names_its_problem() {
    use stickdice::games::issiren::Problem;
    let g = game();
    let s = State::try_from(Position {
        turn: 1,
        pending: Some(Throw::new(5)),
        throws: 7,
        ..Position::new(&moved(&[71, 12]), &[Piece::start(3), Piece::moved(40)])
    })
    .unwrap();
    assert_eq!(g.validate(&s), Ok(()));
    assert_eq!(s.pieces_of(0), moved(&[12, 71]));
    assert_eq!(State::try_from(s.position()), Ok(s));
    assert_eq!(Position::from(s), s.position());
    let kinds = |p: Position| -> Vec<Problem> {
        State::try_from(p)
            .unwrap_err()
            .kinds::<Problem>()
            .copied()
            .collect()
    };
    let thirteen = moved(&(0..13).collect::<Vec<u8>>());
    assert_eq!(
        kinds(Position::new(&bystanders(), &thirteen)),
        [Problem::TooManyPieces { seat: 1, count: 13 }]
    );
    assert_eq!(
        kinds(Position::new(&moved(&[14, 14, 20]), &bystanders())),
        [Problem::SharedSquare {
            seat: 0,
            square: sq("c2"),
            pieces: 2
        }]
    );
    assert_eq!(
        kinds(Position::new(&moved(&[42]), &bystanders())),
        [Problem::BothSidesOnSquare { square: sq("g4") }]
    );
    assert_eq!(
        kinds(Position::new(&moved(&[72]), &bystanders())),
        [Problem::OffCircuit {
            seat: 0,
            piece: 0,
            pos: 72
        }]
    );
    assert_eq!(kinds(Position::new(&[], &[])), [Problem::NoPiecesLeft]);
    assert_eq!(
        kinds(Position {
            turn: 2,
            ..Position::new(&moved(&[20]), &bystanders())
        }),
        [Problem::TurnOutOfRange { turn: 2 }]
    );
    assert_eq!(
        kinds(Position {
            pending: Some(Throw::new(3)),
            ..Position::new(&moved(&[20]), &bystanders())
        }),
        [Problem::PendingBeforeAnyThrow]
    );
    // The throw cap is the game's: a position does not know it.
    let past_cap = Position {
        throws: g.max_throws() + 1,
        ..Position::new(&moved(&[20]), &bystanders())
    };
    let s = State::try_from(past_cap).unwrap();
    assert!(matches!(
        g.validate(&s).unwrap_err().kinds::<Problem>().next(),
        Some(Problem::PastThrowCap { .. })
    ));
}

#[test]
fn validate_accepts_hand_built_positions() {
    let g = game();
    let s = deciding(
        state(&moved(&[12, 71]), &[Piece::start(3), Piece::moved(40)]),
        1,
        5,
        44,
    );
    assert_eq!(g.validate(&s), Ok(()));
}

#[test]
fn a_thirteenth_piece_is_refused() {
    // A state with 13 pieces cannot be built (the fields are private; the module's unit
    // tests check that validate names it): a Position and JSON refuse it outright.
    let g = game();
    let json = format!(
        r#"{{"pieces": [[{}], []]}}"#,
        vec![r#"{"pos": 20}"#; 13].join(", ")
    );
    let err = g.load_state(&json).unwrap_err();
    assert!(err.to_string().contains("P1 has 13 pieces"), "{err}");
    let thirteen: Vec<Piece> = (0..13).map(Piece::moved).collect();
    let err = State::try_from(Position::new(&thirteen, &[])).unwrap_err();
    assert!(err.to_string().contains("P1 has 13 pieces"), "{err}");
    let err = State::try_from(Position::new(&[Piece::moved(5)], &thirteen)).unwrap_err();
    assert!(err.to_string().contains("P2 has 13 pieces"), "{err}");
}

#[test]
fn validate_rejects_two_pieces_of_one_seat_on_one_square() {
    let g = game();
    let s = state(&moved(&[14, 14, 20]), &bystanders());
    let p = problems(&g, &s);
    assert_eq!(
        p,
        ["two pieces of P1 on square c2 (a square holds one piece)"]
    );
    // P2's position 20 is seat-0 position 56, d3.
    let s = state(&[Piece::moved(5)], &moved(&[20, 20, 20]));
    let p = problems(&g, &s);
    assert_eq!(
        p,
        ["3 pieces of P2 on square d3 (a square holds one piece)"]
    );
    // Positions 20 and 68 are both i2.
    let s = state(&moved(&[20, 68]), &bystanders());
    let p = problems(&g, &s);
    assert!(
        p.iter()
            .any(|m| m.contains("two pieces of P1 on square i2")),
        "{p:?}"
    );
}

#[test]
fn validate_rejects_two_pieces_of_different_seats_on_one_square() {
    let g = game();
    // P1 position 14 and P2 position 50 are both c2.
    let s = state(&moved(&[14]), &moved(&[50]));
    let p = problems(&g, &s);
    assert_eq!(
        p,
        ["a piece of P1 and a piece of P2 on square c2 (a square holds one piece)"]
    );
}

#[test]
fn validate_rejects_a_position_off_the_circuit() {
    let g = game();
    let s = state(&moved(&[12]), &moved(&[72]));
    let p = problems(&g, &s);
    assert!(
        p.iter()
            .any(|m| m.contains("P2's piece 0 is at circuit position 72, off the 72-step circuit")),
        "{p:?}"
    );
    let s = state(&moved(&[12]), &moved(&[255]));
    assert!(problems(&g, &s).iter().any(|m| m.contains("position 255")));
}

#[test]
fn validate_rejects_an_unmoved_piece_off_its_home_row_start() {
    let g = game();
    let s = state(&[Piece::start(12)], &[Piece::start(47)]);
    let p = problems(&g, &s);
    assert_eq!(p.len(), 2, "{p:?}");
    assert!(
        p[0].contains(
            "P1's piece 0 is marked unmoved but stands at circuit position 12 (square a2)"
        ),
        "{p:?}"
    );
    assert!(
        p[1].contains(
            "P2's piece 0 is marked unmoved but stands at circuit position 47 (square a1)"
        ),
        "{p:?}"
    );
}

#[test]
fn validate_rejects_broken_bookkeeping() {
    let g = game();
    let good = state(&moved(&[12]), &bystanders());

    // (Bitboards, counts and piece order that disagree with the pieces cannot be built
    // outside the module any more; its unit tests check that validate names them.)
    let s = good.with_turn(2);
    assert!(problems(&g, &s)[0].contains("turn seat 2 is out of range"));

    let s = good.with_pending(Some(Throw::new(9))).with_throws(1);
    assert!(problems(&g, &s)[0].contains("impossible with six sticks"));

    let s = good.with_pending(Some(Throw::new(2)));
    assert!(problems(&g, &s)[0].contains("throw count is 0"));

    let s = good.with_throws(10_001);
    assert!(problems(&g, &s)[0].contains("past the throw cap"));

    let s = state(&moved(&[12]), &[])
        .with_pending(Some(Throw::new(2)))
        .with_throws(3);
    assert!(problems(&g, &s)[0].contains("P2 has no pieces left"));

    let s = state(&[], &[]);
    assert!(problems(&g, &s)[0].contains("neither side"));
}

#[test]
fn validate_lists_every_problem() {
    let g = game();
    let s = state(&[Piece::start(30), Piece::moved(14)], &moved(&[50])).with_turn(7);
    let p = problems(&g, &s);
    assert_eq!(p.len(), 3, "{p:?}");
}

// ---- JSON -----------------------------------------------------------------------------

#[test]
fn json_states_round_trip_and_bad_ones_are_rejected() {
    let g = game();
    let s = deciding(state(&moved(&[12, 61]), &[Piece::start(2)]), 1, 4, 8);
    let json = stickdice::save_state::<Issiren>(&s);
    assert_eq!(stickdice::load_state(&g, &json).unwrap(), s);

    let hand = r#"{"pieces": [[{"pos": 61}, {"pos": 12}], [{"pos": 2, "unmoved": true}]],
                   "turn": 1, "pending": 4, "throws": 8}"#;
    assert_eq!(stickdice::load_state(&g, hand).unwrap(), s);

    let thirteen = format!(
        r#"{{"pieces": [[{}], []]}}"#,
        (0..13)
            .map(|p| format!(r#"{{"pos": {p}}}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    let err = stickdice::load_state(&g, &thirteen).unwrap_err();
    assert!(err.to_string().contains("P1 has 13 pieces"), "{err}");

    let dup = r#"{"pieces": [[{"pos": 14}], [{"pos": 50}]]}"#;
    let err = stickdice::load_state(&g, dup).unwrap_err();
    assert!(err.to_string().contains("square c2"), "{err}");

    for junk in [
        "",
        "{}",
        r#"{"pieces": 3}"#,
        r#"{"pieces": [[{"pos": 300}], []]}"#,
        r#"{"pieces": [[], []], "colour": 1}"#,
    ] {
        assert!(stickdice::load_state(&g, junk).is_err(), "{junk}");
    }

    let a: Action = serde_json::from_str("\"c2\"").unwrap();
    assert_eq!(a, mv("c2"));
    assert_eq!(serde_json::to_string(&Action::Pass).unwrap(), "\"pass\"");
    assert!(serde_json::from_str::<Action>("\"z9\"").is_err());
}

// ---- notation -------------------------------------------------------------------------

#[test]
fn notation_round_trips_and_rejects_junk() {
    let g = game();
    let mut count = 0;
    for row in 0..4 {
        for col in 0..12 {
            let a = Action::Move(Square::new(row, col).unwrap());
            let text = a.to_string();
            assert_eq!(g.parse_action(&text), Ok(a));
            assert_eq!(g.parse_action(&text.to_uppercase()), Ok(a));
            count += 1;
        }
    }
    assert_eq!(count, 48);
    assert_eq!(mv("c1").to_string(), "c1");
    assert_eq!(Square::new(0, 2), Some(sq("c1")));
    assert_eq!(sq("l4").index(), 47);
    assert_eq!(g.parse_action("pass"), Ok(Action::Pass));
    assert_eq!(g.parse_action(" PASS "), Ok(Action::Pass));
    assert_eq!(Action::Pass.to_string(), "pass");
    for bad in ["", "a", "a0", "a5", "m1", "1a", "a10", "pas", "c1 d1", "é1"] {
        let err = g.parse_action(bad).unwrap_err();
        assert_eq!(err.text, bad);
        assert!(
            err.expected.contains("a1 to l4") && err.expected.contains("pass"),
            "{err}"
        );
    }
}

// ---- render and describe ----------------------------------------------------------------

#[test]
fn render_draws_the_board_with_home_rows_and_status() {
    let g = game();
    let s = g.initial_state();
    let text = g.render(&s);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0].trim(), "a  b  c  d  e  f  g  h  i  j  k  l");
    assert!(
        lines[1].starts_with("  4 > 2* 2*") && lines[1].contains("P2's home row"),
        "{text}"
    );
    assert!(lines[2].starts_with("  3 < .  ."), "{text}");
    assert!(
        lines[4].starts_with("  1 < 1* 1*") && lines[4].contains("P1's home row"),
        "{text}"
    );
    assert!(text.contains("P1 to throw"), "{text}");

    // A moved piece, one on the way back, and the pending throw.
    let s = deciding(
        state(
            &[Piece::start(11), Piece::moved(13), Piece::moved(60)],
            &moved(&[30]),
        ),
        0,
        4,
        3,
    );
    let text = g.render(&s);
    let row2 = text.lines().nth(3).unwrap();
    // a2 = P1 on the way back (60), b2 = P1 outward (13); g2 = P2 (30, outward).
    assert!(row2.starts_with("  2 > 1' 1  .  .  .  .  2  "), "{text}");
    assert!(
        text.contains("P1 to move: threw 4 green sides up: move 1"),
        "{text}"
    );
}

#[test]
fn describe_throw_in_the_games_words() {
    let g = game();
    let s = g.initial_state();
    assert_eq!(
        g.describe_throw(&s, Throw::new(0)),
        "no green side up (six white): move 4, throw again; no piece of P1 can move: pass"
    );
    assert_eq!(
        g.describe_throw(&s, Throw::new(4)),
        "4 green sides up: move 1 (the only throw that frees an unmoved piece), throw again"
    );
    let s = state(&moved(&[12]), &bystanders());
    assert_eq!(
        g.describe_throw(&s, Throw::new(3)),
        "3 green sides up: move 3"
    );
    assert_eq!(
        g.describe_throw(&s, Throw::new(6)),
        "6 green sides up: move 6, throw again"
    );
}

// ---- random play ----------------------------------------------------------------------

#[test]
fn random_playouts_stay_valid_and_rank_consistently() {
    use rand::{RngExt, SeedableRng};
    let mut g = game();
    g.set_option("max_throws", "3000").unwrap();
    let mut rng = stickdice::Rng::seed_from_u64(2024);
    let (mut wins, mut draws) = ([0u32; 2], 0u32);
    let mut list = ActionList::new();
    for _ in 0..2000 {
        let mut s = g.initial_state();
        loop {
            assert_eq!(g.validate(&s), Ok(()), "{s:?}");
            match g.node(&s) {
                Node::Throw(_) => {
                    let t = g.sample_throw(&mut rng);
                    g.apply_throw(&mut s, t).unwrap();
                }
                Node::Decide(_) => {
                    g.legal_actions(&s, &mut list);
                    assert!(!list.is_empty());
                    let mut sorted = list.clone();
                    sorted.sort();
                    sorted.dedup();
                    assert_eq!(sorted, list, "actions in square order, no duplicates");
                    let a = list[rng.random_range(0..list.len())];
                    g.apply_action(&mut s, a).unwrap();
                }
                Node::End => break,
            }
        }
        let r = g.ranking(&s).unwrap();
        match (s.count()[0], s.count()[1]) {
            (_, 0) => {
                assert_eq!(r.places(), &[0, 1]);
                wins[0] += 1;
            }
            (0, _) => {
                assert_eq!(r.places(), &[1, 0]);
                wins[1] += 1;
            }
            _ => {
                assert_eq!(s.throws(), 3000);
                assert_eq!(r.places(), &[0, 0]);
                draws += 1;
            }
        }
    }
    assert!(wins[0] > 0 && wins[1] > 0, "wins {wins:?}, draws {draws}");
}

/// This thread's time on a CPU so far, in seconds (Linux), if known: on a shared machine
/// it measures the work done, where wall time also counts waiting for a core.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Speed measurement (not an assertion): `cargo test --release --test integration issiren_rules:: --
/// --ignored --nocapture speed`.
#[test]
#[ignore]
fn speed_random_playouts() {
    use rand::SeedableRng;
    let g = game();
    let mut rng = stickdice::Rng::seed_from_u64(1);
    let games = 200_000;
    let cpu_start = thread_cpu_seconds();
    let start = std::time::Instant::now();
    let mut throws = 0u64;
    let mut decided = 0u64;
    for _ in 0..games {
        let mut s = g.initial_state();
        let r = stickdice::play::random_playout(&g, &mut s, &mut rng);
        throws += s.throws() as u64;
        decided += (r.places()[0] != r.places()[1]) as u64;
    }
    let wall = start.elapsed().as_secs_f64();
    println!(
        "{games} playouts, {throws} throws ({:.0} per game), {decided} decided by capture",
        throws as f64 / games as f64
    );
    println!(
        "wall {wall:.2}s: {:.1} M throws/s",
        throws as f64 / wall / 1e6
    );
    if let (Some(a), Some(b)) = (cpu_start, thread_cpu_seconds()) {
        println!(
            "cpu  {:.2}s: {:.1} M throws/s",
            b - a,
            throws as f64 / (b - a) / 1e6
        );
    }
}

// ---- the generic conformance suite ----------------------------------------------------

#[test]
fn conformance_on_every_configuration() {
    let configurations = stickdice::testing::configurations::<Issiren>();
    // Two players only; the cap at its default and at a small value.
    assert_eq!(configurations.len(), 2);
    for (i, game) in configurations.iter().enumerate() {
        assert_eq!(game.seats(), 2);
        stickdice::testing::conformance(game, 10, 77 + i as u64);
    }
}
