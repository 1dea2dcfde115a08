//! Scenario tests for Siryu (War) (`docs/games/siryu-war.md`): every worked example is a
//! named test, every clause has one, plus the throw cap, validation, JSON, notation,
//! rendering and seeded random games.
//!
//! Expected values are worked out by hand from `docs/games/siryu-war.md` (square names written out
//! from the circuit table, (r, c) as column letter `a + c` and row number `r + 1`), never
//! read back from the implementation.

use stickdice::games::siryu_war::{
    self, circuit_position, circuit_square, colour_sir, grants_extra_throw, throw_value, Action,
    Piece, Position, Square, State, COLOUR_SIR,
};
use stickdice::{
    ActionList, ConfigError, Game, IllegalMove, Node, Playouts, Present, SiryuWar, Throw,
};

fn game() -> SiryuWar {
    SiryuWar::with_seats(2).unwrap()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// The spec's square (r, c).
fn rc(r: u8, c: u8) -> Square {
    Square::new(r, c).unwrap()
}

fn mv(name: &str) -> Action {
    Action::Move(sq(name))
}

fn unlocked(names: &[&str]) -> Vec<Piece> {
    names.iter().map(|n| Piece::unlocked(sq(n))).collect()
}

fn locked(names: &[&str]) -> Vec<Piece> {
    names.iter().map(|n| Piece::locked(sq(n))).collect()
}

/// The state of these pieces, `turn` to throw or decide (checked).
fn position(
    pieces: [&[Piece]; 2],
    turn: usize,
    pending: Option<Throw>,
    throws: u32,
) -> Result<State, stickdice::InvalidState> {
    State::try_from(Position {
        pieces: [pieces[0].to_vec(), pieces[1].to_vec()],
        turn,
        pending,
        throws,
    })
}

/// A position with `seat` to decide on a throw of `w` white sides, one throw made.
fn deciding(p1: &[Piece], p2: &[Piece], seat: usize, w: u8) -> State {
    position([p1, p2], seat, Some(Throw::new(w)), 1).unwrap()
}

/// A position with `seat` to throw.
fn throwing(p1: &[Piece], p2: &[Piece], seat: usize, throws: u32) -> State {
    position([p1, p2], seat, None, throws).unwrap()
}

fn legal(g: &SiryuWar, s: &State) -> Vec<String> {
    let mut list = ActionList::new();
    g.legal_actions(s, &mut list);
    list.iter().map(|a| a.to_string()).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn strings(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn squares_of(s: &State, seat: usize) -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> = s
        .pieces(seat)
        .map(|p| (p.square.to_string(), p.locked))
        .collect();
    v.sort();
    v
}

/// The circuit table of `docs/games/siryu-war.md`, one seat's column: (row, columns in order) for
/// positions 0–11, 12–23, 24–35.
fn table(seat: usize) -> Vec<Square> {
    let runs: [(u8, bool); 3] = if seat == 0 {
        [(0, true), (1, false), (2, true)] // (row, left to right?)
    } else {
        [(3, false), (2, true), (1, false)]
    };
    let mut out = Vec::new();
    for (row, ltr) in runs {
        for k in 0..12 {
            out.push(rc(row, if ltr { k } else { 11 - k }));
        }
    }
    out
}

// ---- players, board, circuit -----------------------------------------------------------

#[test]
fn players_exactly_two() {
    assert!(SiryuWar::with_seats(2).is_ok());
    for n in [0, 1, 3, 8] {
        let err = SiryuWar::with_seats(n).unwrap_err();
        assert!(
            matches!(err, ConfigError::Players { min: 2, max: 2, .. }),
            "{err:?}"
        );
    }
    assert_eq!(game().seats(), 2);
}

#[test]
fn circuit_seat_0_follows_the_table() {
    let want = table(0);
    assert_eq!(want[0], sq("a1"));
    assert_eq!(want[11], sq("l1"));
    assert_eq!(want[12], sq("l2"));
    assert_eq!(want[23], sq("a2"));
    assert_eq!(want[24], sq("a3"));
    assert_eq!(want[35], sq("l3"));
    for (p, &square) in want.iter().enumerate() {
        assert_eq!(circuit_square(0, p as u8), Some(square), "position {p}");
        assert_eq!(
            circuit_position(0, square),
            Some(p as u8),
            "square {square}"
        );
    }
    assert_eq!(circuit_square(0, 36), None);
}

#[test]
fn circuit_seat_1_follows_the_table_and_is_seat_0_turned_half_a_turn() {
    let want = table(1);
    assert_eq!(
        (want[0], want[11], want[12], want[23], want[24], want[35]),
        (sq("l4"), sq("a4"), sq("a3"), sq("l3"), sq("l2"), sq("a2"))
    );
    for p in 0..36u8 {
        let s1 = circuit_square(1, p).unwrap();
        assert_eq!(s1, want[p as usize], "position {p}");
        assert_eq!(circuit_position(1, s1), Some(p));
        // (r, c) -> (3 - r, 11 - c).
        let s0 = circuit_square(0, p).unwrap();
        assert_eq!(
            (s1.row(), s1.col()),
            (3 - s0.row(), 11 - s0.col()),
            "position {p}"
        );
    }
    assert_eq!(circuit_square(2, 0), None);
}

#[test]
fn circuit_home_rows_are_on_one_circuit_each_and_the_loop_on_both() {
    for c in 0..12 {
        assert_eq!(circuit_position(0, rc(0, c)), Some(c));
        assert_eq!(circuit_position(1, rc(0, c)), None, "P2 never enters row 1");
        assert_eq!(circuit_position(1, rc(3, c)), Some(11 - c));
        assert_eq!(circuit_position(0, rc(3, c)), None, "P1 never enters row 4");
        for r in 1..3 {
            let (p0, p1) = (
                circuit_position(0, rc(r, c)).unwrap(),
                circuit_position(1, rc(r, c)).unwrap(),
            );
            assert!(p0 >= 12 && p1 >= 12, "the middle rows are the loop");
            // Half a loop apart.
            assert_eq!((p0 - 12 + 12) % 24, p1 - 12, "{}", rc(r, c));
        }
    }
}

/// After position 35 comes position 12, for both seats; the loop is one 24-square loop
/// both sides run the same way, joined at l2 (P1) and a3 (P2).
#[test]
fn circuit_loops_from_35_back_to_12_and_both_seats_run_the_loop_the_same_way() {
    let g = game();
    // P1 on l3 (35) moves 3: l2 (12), k2 (13), j2 (14).
    let s = deciding(&unlocked(&["l3"]), &unlocked(&["a2"]), 0, 3);
    let mut after = s;
    g.apply_action(&mut after, mv("l3")).unwrap();
    assert_eq!(squares_of(&after, 0), [("j2".to_string(), false)]);
    // P2 on a2 (its 35) moves 6: a3 (12), b3, c3, d3, e3, f3 (17).
    let s = deciding(&unlocked(&["l3"]), &unlocked(&["a2"]), 1, 6);
    let mut after = s;
    g.apply_action(&mut after, mv("a2")).unwrap();
    assert_eq!(squares_of(&after, 1), [("f3".to_string(), false)]);
    // The loop's successor of each middle-row square is the same for both seats.
    for p in 12..36u8 {
        let next = if p == 35 { 12 } else { p + 1 };
        let here = circuit_square(0, p).unwrap();
        let q = circuit_position(1, here).unwrap();
        let q_next = if q == 35 { 12 } else { q + 1 };
        assert_eq!(circuit_square(0, next), circuit_square(1, q_next), "{here}");
    }
    // The loop is entered at l2 (P1) and a3 (P2).
    assert_eq!(circuit_square(0, 12), Some(sq("l2")));
    assert_eq!(circuit_square(1, 12), Some(sq("a3")));
}

#[test]
fn start_twelve_locked_pieces_on_each_home_row() {
    let g = game();
    let s = g.initial_state();
    for seat in 0..2 {
        let pieces: Vec<Piece> = s.pieces(seat).collect();
        assert_eq!(pieces.len(), 12);
        assert!(pieces.iter().all(|p| p.locked));
        let row = if seat == 0 { 0 } else { 3 };
        assert!(pieces.iter().all(|p| p.square.row() == row));
    }
    assert_eq!((s.turn(), s.pending(), s.throws()), (0, None, 0));
    assert_eq!(g.node(&s), Node::Throw(0));
    assert!(g.validate(&s).is_ok());
}

// ---- throws ----------------------------------------------------------------------------

#[test]
fn throws_seven_outcomes_with_probability_c6w_over_64() {
    let g = game();
    let outcomes = g.throw_outcomes();
    let want = [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0];
    assert_eq!(outcomes.len(), 7, "w = 1 and w = 5 are distinct outcomes");
    for (w, o) in outcomes.iter().enumerate() {
        assert_eq!(o.throw, Throw::new(w as u8));
        assert_eq!(o.probability, want[w] / 64.0, "w = {w}");
    }
    assert_eq!(g.max_throw_outcomes(), 7);
}

#[test]
fn throws_values_extra_throws_and_colour_sirs_follow_the_table() {
    let values = [6, 5, 0, 3, 0, 5, 6];
    let extra = [false, true, false, false, false, true, false];
    for w in 0..=6u8 {
        let t = Throw::new(w);
        assert_eq!(throw_value(t), Some(values[w as usize]), "w = {w}");
        assert_eq!(grants_extra_throw(t), extra[w as usize], "w = {w}");
    }
    assert_eq!(throw_value(Throw::new(7)), None);
    assert!(!grants_extra_throw(Throw::new(7)));
    // P1 (white) unlocks on five white, P2 (black) on five black = one white.
    assert_eq!(colour_sir(0), Some(Throw::new(5)));
    assert_eq!(colour_sir(1), Some(Throw::new(1)));
    assert_eq!(colour_sir(2), None);
    assert_eq!(COLOUR_SIR, [Throw::new(5), Throw::new(1)]);
}

/// Values: 0 with probability 30/64, 3 with 20/64, 5 with 12/64, 6 with 2/64; a turn has
/// 16/13 throws on average (a sir, 12/64, keeps it).
#[test]
fn throws_the_value_distribution_is_30_20_12_2_over_64() {
    let mut by_value = [0.0f64; 7];
    let mut sir = 0.0;
    for o in game().throw_outcomes() {
        by_value[throw_value(o.throw).unwrap() as usize] += o.probability;
        if grants_extra_throw(o.throw) {
            sir += o.probability;
        }
    }
    assert_eq!(by_value[0], 30.0 / 64.0);
    assert_eq!(by_value[3], 20.0 / 64.0);
    assert_eq!(by_value[5], 12.0 / 64.0);
    assert_eq!(by_value[6], 2.0 / 64.0);
    assert_eq!(by_value[1] + by_value[2] + by_value[4], 0.0);
    assert_eq!(sir, 12.0 / 64.0);
    // Geometric: 1 / (1 - 12/64) = 64/52 = 16/13 throws a turn.
    assert_eq!(1.0 / (1.0 - sir), 16.0 / 13.0);
}

#[test]
fn throws_the_pending_throw_is_in_the_state_between_throw_and_decision() {
    let g = game();
    let mut s = g.initial_state();
    g.apply_throw(&mut s, Throw::new(3)).unwrap();
    assert_eq!((s.pending(), s.throws()), (Some(Throw::new(3)), 1));
    assert_eq!(g.node(&s), Node::Decide(0));
    assert_eq!(
        g.apply_throw(&mut s.clone(), Throw::new(3)),
        Err(IllegalMove::DecisionDue { seat: 0 })
    );
    let mut t = g.initial_state();
    assert!(matches!(
        g.apply_throw(&mut t, Throw::new(7)),
        Err(IllegalMove::ImpossibleThrow { .. })
    ));
    assert_eq!(t, g.initial_state());
}

// ---- worked examples -------------------------------------------------------------------

/// Worked example 1: at the start P1 throws five white, its colour sir: five actions,
/// (0,7) → (1,11) … (0,11) → (1,7); (0,0)…(0,6) would land on their own. P1 throws again.
#[test]
fn worked_example_1_p1s_colour_sir_at_the_start() {
    let g = game();
    let mut s = g.initial_state();
    g.apply_throw(&mut s, Throw::new(5)).unwrap();
    let from = [rc(0, 7), rc(0, 8), rc(0, 9), rc(0, 10), rc(0, 11)];
    let to = [rc(1, 11), rc(1, 10), rc(1, 9), rc(1, 8), rc(1, 7)];
    assert_eq!(
        sorted(legal(&g, &s)),
        sorted(from.iter().map(|f| f.to_string()).collect())
    );
    for c in 0..7 {
        assert!(
            g.check_action(&s, Action::Move(rc(0, c))).is_err(),
            "(0,{c}) would land on its own"
        );
    }
    for (f, t) in from.iter().zip(to) {
        let mut after = s;
        g.apply_action(&mut after, Action::Move(*f)).unwrap();
        assert_eq!(
            after.piece_at(t),
            Some((0, Piece::unlocked(t))),
            "{f} -> {t}"
        );
        assert_eq!(after.piece_at(*f), None);
        assert_eq!(after.count(0), 12);
        assert_eq!(g.node(&after), Node::Throw(0), "P1 throws again");
    }
}

/// Worked example 2: at the start P1 throws five black (w = 1), P2's colour sir: P1 has no
/// unlocked piece, so it passes, and throws again. For P2 the same throw at the start
/// offers (3,4) → (2,0), (3,3) → (2,1), (3,2) → (2,2), (3,1) → (2,3), (3,0) → (2,4).
#[test]
fn worked_example_2_the_other_seats_sir_at_the_start() {
    let g = game();
    let mut s = g.initial_state();
    g.apply_throw(&mut s, Throw::new(1)).unwrap();
    assert_eq!(legal(&g, &s), ["pass"]);
    g.apply_action(&mut s, Action::Pass).unwrap();
    assert_eq!(g.node(&s), Node::Throw(0), "P1 throws again");
    assert_eq!(s.pieces(0).filter(|p| p.locked).count(), 12);

    let start = g.initial_state();
    let p2_start: Vec<Piece> = start.pieces(1).collect();
    let p1_start: Vec<Piece> = start.pieces(0).collect();
    let s = deciding(&p1_start, &p2_start, 1, 1);
    let from = [rc(3, 4), rc(3, 3), rc(3, 2), rc(3, 1), rc(3, 0)];
    let to = [rc(2, 0), rc(2, 1), rc(2, 2), rc(2, 3), rc(2, 4)];
    assert_eq!(
        sorted(legal(&g, &s)),
        sorted(from.iter().map(|f| f.to_string()).collect())
    );
    for (f, t) in from.iter().zip(to) {
        let mut after = s;
        g.apply_action(&mut after, Action::Move(*f)).unwrap();
        assert_eq!(
            after.piece_at(t),
            Some((1, Piece::unlocked(t))),
            "{f} -> {t}"
        );
        assert_eq!(g.node(&after), Node::Throw(1), "a sir: P2 throws again");
    }
}

/// Worked example 3: P1 on (2,10) and (1,3), P2 on (1,10). With w = 3 P1 moves either
/// (2,10) → (2,11) → (1,11) → (1,10), capturing, or (1,3) → (1,0); then it is P2's turn.
/// With w = 0 or 6 (value 6) the choices are (2,10) → (1,7) or (1,3) → (2,2).
#[test]
fn worked_example_3_the_loop_and_a_capture() {
    let g = game();
    let p1 = [Piece::unlocked(rc(2, 10)), Piece::unlocked(rc(1, 3))];
    let p2 = [Piece::unlocked(rc(1, 10))];
    // Position checks: (2,10) is P1's 34, (1,3) its 20, (1,10) P2's 25.
    assert_eq!(circuit_position(0, rc(2, 10)), Some(34));
    assert_eq!(circuit_position(0, rc(1, 3)), Some(20));
    let s = deciding(&p1, &p2, 0, 3);
    assert_eq!(
        sorted(legal(&g, &s)),
        sorted(vec![rc(2, 10).to_string(), rc(1, 3).to_string()])
    );
    let mut capture = s;
    g.apply_action(&mut capture, Action::Move(rc(2, 10)))
        .unwrap();
    assert_eq!(
        capture.piece_at(rc(1, 10)),
        Some((0, Piece::unlocked(rc(1, 10))))
    );
    assert_eq!(capture.count(1), 0, "P2's piece is captured");
    // P2 had one piece: that capture ends the game. With a second P2 piece it is P2's turn.
    let p2_two = [Piece::unlocked(rc(1, 10)), Piece::unlocked(rc(2, 5))];
    let s2 = deciding(&p1, &p2_two, 0, 3);
    for (from, to) in [(rc(2, 10), rc(1, 10)), (rc(1, 3), rc(1, 0))] {
        let mut after = s2;
        g.apply_action(&mut after, Action::Move(from)).unwrap();
        assert_eq!(after.piece_at(to).map(|(seat, _)| seat), Some(0));
        assert_eq!(g.node(&after), Node::Throw(1), "then it is P2's turn");
    }
    for w in [0, 6] {
        let s = deciding(&p1, &p2_two, 0, w);
        assert_eq!(
            sorted(legal(&g, &s)),
            sorted(vec![rc(2, 10).to_string(), rc(1, 3).to_string()])
        );
        for (from, to) in [(rc(2, 10), rc(1, 7)), (rc(1, 3), rc(2, 2))] {
            let mut after = s;
            g.apply_action(&mut after, Action::Move(from)).unwrap();
            assert_eq!(
                after.piece_at(to),
                Some((0, Piece::unlocked(to))),
                "w = {w}: {from} -> {to}"
            );
            assert_eq!(after.count(1), 2);
            assert_eq!(g.node(&after), Node::Throw(1), "no extra throw on a 6");
        }
    }
}

// ---- moves -----------------------------------------------------------------------------

#[test]
fn moves_a_locked_piece_moves_only_on_its_owners_colour_sir() {
    let g = game();
    let p1 = locked(&["h1"]);
    let p2 = locked(&["e4"]);
    for w in 0..=6u8 {
        let s = deciding(&p1, &p2, 0, w);
        let want = if w == 5 { vec!["h1"] } else { vec!["pass"] };
        assert_eq!(legal(&g, &s), want, "P1, w = {w}");
        let s = deciding(&p1, &p2, 1, w);
        let want = if w == 1 { vec!["e4"] } else { vec!["pass"] };
        assert_eq!(legal(&g, &s), want, "P2, w = {w}");
    }
}

#[test]
fn moves_unlocking_and_moving_are_one_move_of_5() {
    let g = game();
    // P1's locked h1 (position 7) on five white: to l2 (12), unlocked.
    let s = deciding(&locked(&["h1"]), &locked(&["e4"]), 0, 5);
    let mut after = s;
    g.apply_action(&mut after, mv("h1")).unwrap();
    assert_eq!(squares_of(&after, 0), [("l2".to_string(), false)]);
    // P2's locked e4 (position 7) on five black: to a3 (12), unlocked.
    let s = deciding(&locked(&["h1"]), &locked(&["e4"]), 1, 1);
    let mut after = s;
    g.apply_action(&mut after, mv("e4")).unwrap();
    assert_eq!(squares_of(&after, 1), [("a3".to_string(), false)]);
}

#[test]
fn moves_an_unlocked_piece_moves_on_values_3_5_and_6_either_sir_included() {
    let g = game();
    // P1 unlocked on c2 (position 21); P2 out of the way on its home row.
    let p1 = unlocked(&["c2"]);
    let p2 = locked(&["a4"]);
    let to = ["d3", "c3", "", "a3", "", "c3", "d3"];
    for w in 0..=6u8 {
        let s = deciding(&p1, &p2, 0, w);
        if to[w as usize].is_empty() {
            assert_eq!(legal(&g, &s), ["pass"], "w = {w}");
            continue;
        }
        assert_eq!(legal(&g, &s), ["c2"], "w = {w}");
        let mut after = s;
        g.apply_action(&mut after, mv("c2")).unwrap();
        assert_eq!(
            squares_of(&after, 0),
            [(to[w as usize].to_string(), false)],
            "w = {w}"
        );
    }
    // The same for P2, on its colour sir and P1's.
    let p2 = unlocked(&["c3"]); // P2's position 14
    let p1 = locked(&["a1"]);
    for (w, want) in [(1, "h3"), (5, "h3"), (3, "f3"), (0, "i3"), (6, "i3")] {
        let s = deciding(&p1, &p2, 1, w);
        assert_eq!(legal(&g, &s), ["c3"], "w = {w}");
        let mut after = s;
        g.apply_action(&mut after, mv("c3")).unwrap();
        assert_eq!(
            squares_of(&after, 1),
            [(want.to_string(), false)],
            "w = {w}"
        );
    }
}

#[test]
fn moves_the_colour_sir_offers_unlocking_and_moving_an_unlocked_piece() {
    let g = game();
    let p1 = [locked(&["k1", "l1"]), unlocked(&["e3"])].concat();
    let s = deciding(&p1, &locked(&["a4"]), 0, 5);
    // Circuit order: k1 (10), l1 (11), e3 (28).
    assert_eq!(legal(&g, &s), ["k1", "l1", "e3"]);
    // The other sir moves the unlocked piece only.
    let s = deciding(&p1, &locked(&["a4"]), 0, 1);
    assert_eq!(legal(&g, &s), ["e3"]);
}

/// A piece unlocked onto its own home row (position 0–6 to 5–11) stays unlocked there and
/// then moves on 3, 5 and 6.
#[test]
fn moves_a_piece_unlocked_onto_its_home_row_stays_unlocked() {
    let g = game();
    let p1 = locked(&["b1"]); // position 1 -> 6 (g1)
    let s = deciding(&p1, &locked(&["a4"]), 0, 5);
    let mut after = s;
    g.apply_action(&mut after, mv("b1")).unwrap();
    assert_eq!(squares_of(&after, 0), [("g1".to_string(), false)]);
    assert_eq!(g.node(&after), Node::Throw(0));
    g.apply_throw(&mut after, Throw::new(3)).unwrap();
    assert_eq!(legal(&g, &after), ["g1"], "unlocked: it moves on a 3");
    g.apply_action(&mut after, mv("g1")).unwrap();
    assert_eq!(squares_of(&after, 0), [("j1".to_string(), false)]);
    // P2: l4 (position 0) unlocks to g4 (position 5).
    let s = deciding(&locked(&["a1"]), &locked(&["l4"]), 1, 1);
    let mut after = s;
    g.apply_action(&mut after, mv("l4")).unwrap();
    assert_eq!(squares_of(&after, 1), [("g4".to_string(), false)]);
    // In JSON too it is unlocked.
    let json = g.save_state(&after);
    assert!(json.contains(r#""unlocked":[[],["g4"]]"#), "{json}");
}

#[test]
fn moves_the_destination_must_not_hold_an_own_piece_locked_or_not() {
    let g = game();
    // k2 (13) + 3 = h2 (16), held by P1; b1 unlocked-to g1 is blocked by a locked g1.
    let p1 = [unlocked(&["k2", "h2"]), locked(&["b1", "g1"])].concat();
    let s = deciding(&p1, &locked(&["a4"]), 0, 3);
    assert_eq!(legal(&g, &s), ["h2"]);
    assert!(g.check_action(&s, mv("k2")).is_err());
    let s = deciding(&p1, &locked(&["a4"]), 0, 5);
    // b1 (1) -> g1 (6): own, blocked; g1 (6) -> l1 (11): free; k2 (13) -> f2 (18): free;
    // h2 (16) -> c2 (21): free.
    assert_eq!(legal(&g, &s), ["g1", "k2", "h2"]);
    // Across the loop's join: l3 (35) + 5 = h2 (16), held by P1.
    let s = deciding(&unlocked(&["l3", "h2"]), &locked(&["a4"]), 0, 5);
    assert_eq!(legal(&g, &s), ["h2"]);
}

#[test]
fn moves_pieces_passed_over_neither_block_nor_are_captured() {
    let g = game();
    // P1 on a3 (24) moves 6 to g3 (30), over P1's c3 and P2's e3.
    let s = deciding(
        &unlocked(&["a3", "c3"]),
        &[unlocked(&["e3"]), locked(&["a4"])].concat(),
        0,
        6,
    );
    let mut after = s;
    g.apply_action(&mut after, mv("a3")).unwrap();
    assert_eq!(after.piece_at(sq("g3")).map(|(seat, _)| seat), Some(0));
    assert_eq!(after.piece_at(sq("e3")).map(|(seat, _)| seat), Some(1));
    assert_eq!(after.count(1), 2);
}

#[test]
fn moves_landing_on_an_enemy_piece_captures_it() {
    let g = game();
    // P2 on d3 (its 15) moves 3 to g3 (its 18), where P1 stands.
    let p1 = [unlocked(&["g3"]), locked(&["a1"])].concat();
    let p2 = unlocked(&["d3", "f2"]);
    let s = deciding(&p1, &p2, 1, 3);
    let mut after = s;
    g.apply_action(&mut after, mv("d3")).unwrap();
    assert_eq!(
        after.piece_at(sq("g3")),
        Some((1, Piece::unlocked(sq("g3"))))
    );
    assert_eq!(after.count(0), 1);
    assert_eq!(after.captured_by(1), 11);
    assert_eq!(g.node(&after), Node::Throw(0));
    // An unlocking move captures too: P1's h1 (7) on five white to l2 (12), held by P2.
    let s = deciding(
        &locked(&["h1", "a1"]),
        &[unlocked(&["l2"]), locked(&["a4"])].concat(),
        0,
        5,
    );
    let mut after = s;
    g.apply_action(&mut after, mv("h1")).unwrap();
    assert_eq!(
        after.piece_at(sq("l2")),
        Some((0, Piece::unlocked(sq("l2"))))
    );
    assert_eq!(after.count(1), 1);
    assert_eq!(g.node(&after), Node::Throw(0), "the sir's extra throw");
}

/// A value of 0 (w = 2 or 4) moves nothing: `pass` is the only action, and the turn ends.
#[test]
fn moves_pass_after_a_zero_and_the_turn_ends() {
    let g = game();
    let p1 = [unlocked(&["c2", "f3"]), locked(&["a1"])].concat();
    for w in [2, 4] {
        let s = deciding(&p1, &locked(&["a4"]), 0, w);
        assert_eq!(legal(&g, &s), ["pass"], "w = {w}");
        assert!(g.check_action(&s, mv("c2")).is_err());
        let mut after = s;
        g.apply_action(&mut after, Action::Pass).unwrap();
        assert_eq!(g.node(&after), Node::Throw(1), "w = {w}");
        assert_eq!(squares_of(&after, 0), squares_of(&s, 0));
    }
    // Pass is refused when a piece can move.
    let s = deciding(&p1, &locked(&["a4"]), 0, 3);
    assert!(g.check_action(&s, Action::Pass).is_err());
}

/// A decision node follows every throw, even with a single action (a forced move or a
/// pass).
#[test]
fn moves_a_decision_follows_every_throw_even_with_one_action() {
    let g = game();
    for w in 0..=6 {
        let mut s = g.initial_state();
        g.apply_throw(&mut s, Throw::new(w)).unwrap();
        assert_eq!(g.node(&s), Node::Decide(0), "w = {w}");
        assert!(!legal(&g, &s).is_empty());
    }
    let mut s = throwing(&unlocked(&["c2"]), &locked(&["a4"]), 0, 0);
    g.apply_throw(&mut s, Throw::new(3)).unwrap();
    assert_eq!(
        (g.node(&s), legal(&g, &s)),
        (Node::Decide(0), strings(&["c2"]))
    );
}

/// Legal actions are listed in the mover's circuit order.
#[test]
fn moves_legal_actions_are_listed_in_circuit_order() {
    let g = game();
    let p1 = [unlocked(&["a3", "a2", "l2", "i1"]), locked(&["b1"])].concat();
    let s = deciding(&p1, &locked(&["a4"]), 0, 3);
    // Positions: i1 8, l2 12, a2 23, a3 24.
    assert_eq!(legal(&g, &s), ["i1", "l2", "a2", "a3"]);
    let p2 = unlocked(&["l2", "a2", "l3", "a3", "g4"]);
    let s = deciding(&locked(&["a1"]), &p2, 1, 3);
    // P2's positions: g4 5, a3 12, l3 23, l2 24, a2 35.
    assert_eq!(legal(&g, &s), ["g4", "a3", "l3", "l2", "a2"]);
}

// ---- turns -----------------------------------------------------------------------------

#[test]
fn turns_either_sir_gives_an_extra_throw_whether_or_not_a_piece_moved() {
    let g = game();
    let p1 = [unlocked(&["c2"]), locked(&["a1"])].concat();
    let p2 = [unlocked(&["c3"]), locked(&["a4"])].concat();
    for seat in 0..2 {
        for w in [1, 5] {
            // A piece moves.
            let s = deciding(&p1, &p2, seat, w);
            let a = g.parse_action(&legal(&g, &s)[0]).unwrap();
            assert_ne!(a, Action::Pass);
            let mut after = s;
            g.apply_action(&mut after, a).unwrap();
            assert_eq!(g.node(&after), Node::Throw(seat), "seat {seat}, w = {w}");
        }
    }
    // Nothing can move on a sir: a pass, and the extra throw still comes.
    let s = deciding(&locked(&["a1"]), &locked(&["a4"]), 0, 1);
    assert_eq!(legal(&g, &s), ["pass"]);
    let mut after = s;
    g.apply_action(&mut after, Action::Pass).unwrap();
    assert_eq!(g.node(&after), Node::Throw(0));
}

#[test]
fn turns_any_other_throw_ends_the_turn() {
    let g = game();
    let p1 = [unlocked(&["c2"]), locked(&["a1"])].concat();
    for w in [0, 2, 3, 4, 6] {
        let s = deciding(&p1, &locked(&["a4"]), 0, w);
        let a = g.parse_action(&legal(&g, &s)[0]).unwrap();
        let mut after = s;
        g.apply_action(&mut after, a).unwrap();
        assert_eq!(g.node(&after), Node::Throw(1), "w = {w}");
    }
}

// ---- end -------------------------------------------------------------------------------

/// The twelfth capture wins and ends the game at once: no extra throw, even on a sir.
#[test]
fn end_the_twelfth_capture_wins_at_once_with_no_further_throw() {
    let g = game();
    // P1's c2 (21) on five black (value 5, a sir) lands on c3 (26): P2's last piece.
    let s = deciding(&unlocked(&["c2"]), &unlocked(&["c3"]), 0, 1);
    let mut after = s;
    g.apply_action(&mut after, mv("c2")).unwrap();
    assert_eq!(after.count(1), 0);
    assert_eq!(g.node(&after), Node::End, "no extra throw");
    assert_eq!((after.turn(), after.pending()), (0, None));
    let ranking = g.ranking(&after).unwrap();
    assert!(ranking.is_sole_winner(0));
    assert_eq!(ranking.to_string(), "P1 > P2");
    assert!(g.apply_throw(&mut after, Throw::new(3)).is_err());
    // P2 wins the same way: its j3 (21) + 5 = its 26, j2.
    let s = deciding(&unlocked(&["j2"]), &unlocked(&["j3"]), 1, 5);
    let mut after = s;
    g.apply_action(&mut after, mv("j3")).unwrap();
    assert_eq!(g.node(&after), Node::End);
    assert_eq!(g.ranking(&after).unwrap().to_string(), "P2 > P1");
}

#[test]
fn end_locked_pieces_are_out_of_reach_and_the_game_goes_on() {
    let g = game();
    // P1 has only locked pieces: nothing reaches them, the game is not over.
    let s = throwing(&locked(&["a1", "b1"]), &unlocked(&["c3"]), 1, 10);
    assert_eq!(g.node(&s), Node::Throw(1));
    assert!(g.ranking(&s).is_none());
    // On its colour sir P1 must unlock one (moving is compulsory): its front piece can go.
    let s = deciding(&locked(&["a1", "b1"]), &unlocked(&["c3"]), 0, 5);
    assert_eq!(legal(&g, &s), ["a1", "b1"]);
    assert!(g.check_action(&s, Action::Pass).is_err());
}

// ---- throw cap -------------------------------------------------------------------------

fn capped(cap: u32) -> SiryuWar {
    let mut g = game();
    g.set_option("max_throws", &cap.to_string()).unwrap();
    g
}

#[test]
fn throw_cap_draw_after_the_cap_th_throws_decision() {
    let g = capped(5);
    let p1 = [unlocked(&["c2"]), locked(&["a1"])].concat();
    let p2 = [unlocked(&["c3"]), locked(&["a4"])].concat();
    // The 5th throw, a sir: its decision is made, then the game ends (no extra throw).
    let s = position([&p1, &p2], 0, Some(Throw::new(5)), 5).unwrap();
    assert_eq!(g.node(&s), Node::Decide(0));
    let mut after = s;
    g.apply_action(&mut after, mv("c2")).unwrap();
    assert_eq!(g.node(&after), Node::End);
    let r = g.ranking(&after).unwrap();
    assert_eq!((r.score(0), r.score(1)), (0.5, 0.5));
    assert_eq!(r.to_string(), "P1 = P2");
    assert!(g.apply_throw(&mut after, Throw::new(3)).is_err());
    // Below the cap the game goes on.
    let s = position([&p1, &p2], 1, None, 4).unwrap();
    assert_eq!(g.node(&s), Node::Throw(1));
}

#[test]
fn throw_cap_the_twelfth_capture_on_the_cap_th_throw_still_wins() {
    let g = capped(7);
    let s = position(
        [&unlocked(&["c2"]), &unlocked(&["c3"])],
        0,
        Some(Throw::new(1)),
        7,
    )
    .unwrap();
    let mut after = s;
    g.apply_action(&mut after, mv("c2")).unwrap();
    assert_eq!(g.ranking(&after).unwrap().to_string(), "P1 > P2");
}

#[test]
fn throw_cap_default_is_10000_and_the_only_option() {
    let g = game();
    assert_eq!(g.max_throws(), 10_000);
    assert_eq!(g.options(), vec![("max_throws", "10000".to_string())]);
    assert_eq!(
        SiryuWar::option_specs()
            .iter()
            .map(|o| o.name)
            .collect::<Vec<_>>(),
        ["max_throws"]
    );
    let mut h = g.clone();
    assert!(h.set_option("max_throws", "0").is_err());
    assert!(h.set_option("six_black_moves_six", "true").is_err());
    assert_eq!(h, g);
    h.set_option("max_throws", "40").unwrap();
    assert_eq!(h.max_throws(), 40);
    assert!(SiryuWar::option_specs()
        .iter()
        .any(|o| o.name == "max_throws" && !o.help.is_empty()));
}

// ---- validation, JSON, notation ----------------------------------------------------------

fn problems(err: stickdice::InvalidState) -> String {
    err.messages().join(" | ")
}

#[test]
fn validate_accepts_hand_built_positions_and_checks_the_cap() {
    let g = capped(20);
    let s = position(
        [&unlocked(&["c2", "g1"]), &locked(&["a4"])],
        1,
        Some(Throw::new(4)),
        20,
    )
    .unwrap();
    assert!(g.validate(&s).is_ok());
    let s = position([&unlocked(&["c2"]), &locked(&["a4"])], 1, None, 21).unwrap();
    let e = problems(g.validate(&s).unwrap_err());
    assert!(
        e.contains("throw count 21 is past the throw cap of 20"),
        "{e}"
    );
}

/// A state's [`Position`] builds it back (through JSON too), and a bad one is refused with
/// each problem typed.
#[test]
fn a_position_round_trips_and_each_bad_one_names_its_problem() {
    use stickdice::games::siryu_war::Problem;
    let s = deciding(&unlocked(&["k3", "d2"]), &locked(&["a4", "b4"]), 0, 3);
    assert_eq!(State::try_from(s.position()), Ok(s));
    assert_eq!(Position::from(s), s.position());
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<State>(&json).unwrap(), s);
    let kinds = |p1: &[Piece], p2: &[Piece], turn: usize| -> Vec<Problem> {
        State::try_from(Position {
            turn,
            ..Position::new(p1, p2)
        })
        .unwrap_err()
        .kinds::<Problem>()
        .copied()
        .collect()
    };
    assert_eq!(
        kinds(&unlocked(&["c4", "c2"]), &locked(&["a4"]), 0),
        [Problem::OffCircuit {
            seat: 0,
            square: sq("c4")
        }]
    );
    assert_eq!(
        kinds(&unlocked(&["c2", "c2"]), &locked(&["a4"]), 0),
        [Problem::ListedTwice {
            seat: 0,
            square: sq("c2")
        }]
    );
    assert_eq!(
        kinds(&unlocked(&["c2"]), &unlocked(&["c2"]), 0),
        [Problem::Shared { square: sq("c2") }]
    );
    assert_eq!(
        kinds(&locked(&["a1"]), &locked(&["a4"]), 2),
        [Problem::TurnOutOfRange { turn: 2 }]
    );
}

#[test]
fn validate_rejects_every_broken_invariant_and_lists_them_all() {
    let thirteen: Vec<Piece> = (0..12)
        .map(|c| Piece::locked(rc(0, c)))
        .chain([Piece::unlocked(sq("a2"))])
        .collect();
    let e = problems(position([&thirteen, &locked(&["a4"])], 0, None, 0).unwrap_err());
    assert!(e.contains("P1 has 13 pieces; a side has at most 12"), "{e}");

    let e = problems(position([&unlocked(&["c4"]), &locked(&["a4"])], 0, None, 0).unwrap_err());
    assert!(e.contains("P1's piece on c4 is on P2's home row"), "{e}");

    let e =
        problems(position([&unlocked(&["c2", "c2"]), &locked(&["a4"])], 0, None, 0).unwrap_err());
    assert!(e.contains("P1 lists square c2 twice"), "{e}");

    let e = problems(position([&unlocked(&["c2"]), &unlocked(&["c2"])], 0, None, 0).unwrap_err());
    assert!(
        e.contains("a piece of P1 and a piece of P2 on square c2"),
        "{e}"
    );

    let e = problems(position([&locked(&["c3"]), &locked(&["a4"])], 0, None, 0).unwrap_err());
    assert!(
        e.contains("P1's piece on c3 is locked but not on P1's home row"),
        "{e}"
    );

    // An unlocked piece on a1..e1 (positions 0–4): unlocking moves 5.
    let e = problems(position([&unlocked(&["e1"]), &locked(&["a4"])], 0, None, 0).unwrap_err());
    assert!(
        e.contains("P1's piece on e1 is unlocked but stands at circuit position 4"),
        "{e}"
    );
    assert!(position([&unlocked(&["f1"]), &locked(&["a4"])], 0, None, 0).is_ok());
    // P2's positions 0–4 are l4..h4.
    let e = problems(position([&locked(&["a1"]), &unlocked(&["h4"])], 0, None, 0).unwrap_err());
    assert!(e.contains("P2's piece on h4 is unlocked"), "{e}");
    assert!(position([&locked(&["a1"]), &unlocked(&["g4"])], 0, None, 0).is_ok());

    let e = problems(position([&[], &[]], 0, None, 0).unwrap_err());
    assert!(e.contains("neither side has a piece left"), "{e}");

    let e = problems(position([&locked(&["a1"]), &locked(&["a4"])], 2, None, 0).unwrap_err());
    assert!(e.contains("turn seat 2 is out of range"), "{e}");

    let e = problems(
        position(
            [&locked(&["a1"]), &locked(&["a4"])],
            0,
            Some(Throw::new(7)),
            3,
        )
        .unwrap_err(),
    );
    assert!(e.contains("the pending throw shows 7 white sides"), "{e}");

    let e = problems(
        position(
            [&locked(&["a1"]), &locked(&["a4"])],
            0,
            Some(Throw::new(3)),
            0,
        )
        .unwrap_err(),
    );
    assert!(
        e.contains("a throw is pending but the throw count is 0"),
        "{e}"
    );

    let e = problems(position([&locked(&["a1"]), &[]], 0, Some(Throw::new(3)), 4).unwrap_err());
    assert!(
        e.contains("P2 has no pieces left, so the game is over"),
        "{e}"
    );

    // Every problem at once.
    let err = position(
        [&unlocked(&["c4", "b1"]), &unlocked(&["c2"])],
        5,
        Some(Throw::new(9)),
        0,
    )
    .unwrap_err();
    assert_eq!(err.problems().len(), 5, "{:?}", err.problems());
    // Typed: the kinds read back.
    assert!(err
        .kinds::<siryu_war::Problem>()
        .any(|p| *p == siryu_war::Problem::TurnOutOfRange { turn: 5 }));
}

#[test]
fn json_states_round_trip_and_bad_ones_are_rejected() {
    let g = game();
    let start = g.initial_state();
    let json = g.save_state(&start);
    assert_eq!(
        json,
        r#"{"locked":[["a1","b1","c1","d1","e1","f1","g1","h1","i1","j1","k1","l1"],["l4","k4","j4","i4","h4","g4","f4","e4","d4","c4","b4","a4"]],"unlocked":[[],[]],"turn":0,"pending":null,"throws":0}"#
    );
    assert_eq!(g.load_state(&json).unwrap(), start);
    let s = position(
        [
            &unlocked(&["k3", "d2"]),
            &[unlocked(&["k2"]), locked(&["b4"])].concat(),
        ],
        0,
        Some(Throw::new(3)),
        17,
    )
    .unwrap();
    assert_eq!(g.load_state(&g.save_state(&s)).unwrap(), s);
    // Defaults and any order.
    let short = r#"{"locked":[["b1","a1"],[]],"unlocked":[[],["c3"]]}"#;
    let read = g.load_state(short).unwrap();
    assert_eq!(read.count(0), 2);
    assert_eq!((read.turn(), read.pending(), read.throws()), (0, None, 0));
    // Broken ones: every problem named, never a panic.
    for (bad, needle) in [
        (
            r#"{"locked":[["c3"],[]],"unlocked":[[],["a3"]]}"#,
            "locked but not",
        ),
        (
            r#"{"locked":[[],[]],"unlocked":[["c4"],["a3"]]}"#,
            "P2's home row",
        ),
        (
            r#"{"locked":[[],[]],"unlocked":[["c2"],["c2"]]}"#,
            "square c2",
        ),
        (
            r#"{"locked":[["a1"],["a4"]],"unlocked":[[],[]],"turn":9}"#,
            "turn seat 9",
        ),
        (
            r#"{"locked":[["a1"],["a4"]],"unlocked":[[],[]],"oops":1}"#,
            "unknown field",
        ),
        (r#"{"locked":[["z9"],["a4"]],"unlocked":[[],[]]}"#, "z9"),
        (r#"{"locked":[["a1"],["a4"]]}"#, "unlocked"),
        (
            r#"{"locked":[["a1"],["a4"]],"unlocked":[[],[]],"throws":10001}"#,
            "past the throw cap",
        ),
    ] {
        let e = g.load_state(bad).unwrap_err().to_string();
        assert!(e.contains(needle), "{bad}: {e}");
    }
}

#[test]
fn notation_round_trips_and_rejects_junk() {
    let g = game();
    for r in 0..4 {
        for c in 0..12 {
            let a = Action::Move(rc(r, c));
            assert_eq!(g.parse_action(&a.to_string()), Ok(a));
        }
    }
    assert_eq!(g.parse_action(" PASS "), Ok(Action::Pass));
    assert_eq!(g.parse_action("H1"), Ok(mv("h1")));
    assert_eq!(rc(0, 7).to_string(), "h1");
    assert_eq!(rc(1, 11).to_string(), "l2");
    for junk in ["", "m1", "a5", "a0", "h", "h11", "pas", "1h"] {
        let e = g.parse_action(junk).unwrap_err();
        assert!(e.to_string().contains("or `pass`"), "{junk}: {e}");
    }
}

#[test]
fn render_draws_the_board_with_home_rows_and_locked_pieces() {
    let g = game();
    let mut s = g.initial_state();
    let text = g.render(&s);
    assert!(
        text.contains("  4 < 2* 2* 2* 2* 2* 2* 2* 2* 2* 2* 2* 2* 4   P2's home row"),
        "{text}"
    );
    assert!(
        text.contains("  1 > 1* 1* 1* 1* 1* 1* 1* 1* 1* 1* 1* 1* 1   P1's home row"),
        "{text}"
    );
    assert!(text.contains("P1 to throw."), "{text}");
    g.apply_throw(&mut s, Throw::new(5)).unwrap();
    g.apply_action(&mut s, mv("h1")).unwrap();
    let text = g.render(&s);
    assert!(
        text.contains("  2 < .  .  .  .  .  .  .  .  .  .  .  1  2"),
        "{text}"
    );
    assert!(text.contains("Throws made: 1 of 10000."), "{text}");
    g.apply_throw(&mut s, Throw::new(2)).unwrap();
    assert!(g
        .render(&s)
        .contains("P1 to move: threw 2 white sides up: 0; no piece of P1 can move: pass."));
}

#[test]
fn describe_throw_in_the_games_words() {
    let g = game();
    let s = g.initial_state();
    let d = |w: u8| g.describe_throw(&s, Throw::new(w));
    assert_eq!(
        d(5),
        "5 white sides up (one black): sir in P1's colour (white), moves 5 (unlocks a locked \
         piece of P1), throw again"
    );
    assert_eq!(
        d(1),
        "1 white side up (five black): sir in P2's colour (black), moves 5, throw again; no \
         piece of P1 can move: pass"
    );
    assert_eq!(
        d(3),
        "3 white sides up: moves 3; no piece of P1 can move: pass"
    );
    assert_eq!(
        d(0),
        "no white side up (six black): moves 6; no piece of P1 can move: pass"
    );
    assert_eq!(
        d(6),
        "6 white sides up: moves 6; no piece of P1 can move: pass"
    );
    assert_eq!(d(4), "4 white sides up: 0; no piece of P1 can move: pass");
    assert_eq!(d(7), "7 white sides up: impossible with six sticks");
    let p2 = position([&locked(&["a1"]), &locked(&["a4"])], 1, None, 3).unwrap();
    assert!(g
        .describe_throw(&p2, Throw::new(1))
        .contains("(unlocks a locked piece of P2), throw again"));
}

/// Seeded random games (uniform decisions) all end by a capture long before the default
/// cap, with lengths like the spec's sizing run (median 590 throws, 90% within 740).
#[test]
fn random_games_end_by_capture_with_the_specs_lengths() {
    use stickdice::play::random_playout;
    use stickdice::SeedableRng as _;
    let g = game();
    let mut rng = stickdice::Rng::seed_from_u64(811);
    let mut lengths = Vec::new();
    for _ in 0..400 {
        let mut s = g.initial_state();
        let r = random_playout(&g, &mut s, &mut rng);
        assert!(r.is_sole_winner(0) || r.is_sole_winner(1));
        lengths.push(s.throws());
    }
    lengths.sort_unstable();
    let median = lengths[200];
    let p90 = lengths[360];
    assert!((500..=680).contains(&median), "median {median}");
    assert!((620..=860).contains(&p90), "90th percentile {p90}");
    assert!(lengths[399] < 2000, "longest {}", lengths[399]);
}

#[test]
fn playouts_hooks_agree_with_the_rules_on_a_few_games() {
    // The hooks' own bit-for-bit tests are in the module; here only that a game runs to its
    // end through them from a position in the middle.
    use stickdice::play::RandomBits;
    use stickdice::SeedableRng as _;
    let g = game();
    let mut rng = stickdice::Rng::seed_from_u64(3);
    let mut s = position(
        [&unlocked(&["c2", "f3"]), &unlocked(&["h3", "b2"])],
        0,
        None,
        0,
    )
    .unwrap();
    g.play_random_to_end(&mut s, &mut RandomBits::new(), &mut rng);
    assert_eq!(g.node(&s), Node::End);
}

/// Issue 39: a position where one seat has no pieces left and that seat is to move was
/// accepted; the game ends on the capture of the last piece with the turn kept by the
/// capturing seat, so it cannot arise.
#[test]
fn the_seat_without_pieces_is_never_to_move() {
    let g = game();
    let ended = |turn: u8| {
        format!(
            r#"{{"unlocked":[["b3"],[]],"locked":[["b1"],[]],"turn":{turn},"pending":null,"throws":520}}"#
        )
    };
    let s = g.load_state(&ended(0)).unwrap();
    assert_eq!(g.node(&s), Node::End);
    let e = g.load_state(&ended(1)).unwrap_err().to_string();
    assert!(
        e.contains("P2 has no pieces left, yet it is P2's turn"),
        "{e}"
    );
}
