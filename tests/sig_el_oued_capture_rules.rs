//! Scenario tests for Sig (El Oued Capture) (the book's chapter "Sig (El Oued Capture)", docs/games/sig-el-oued-capture.md): every worked example
//! as a named test, one test per clause, both rule options, the throw cap, validation,
//! notation and rendering.
//!
//! Expected values are worked out by hand from the rules chapter (squares written out from its
//! circuit table, (r, c) as column letter `a + c` and row number `r + 1`), never read back
//! from the implementation.

use stickdice::games::sig_el_oued_capture::{
    circuit_square, Action, Pending, Piece, Position, SigElOuedCapture, Square, State,
};
use stickdice::{ActionList, ConfigError, Game, IllegalMove, Node, Present, Ranking, Throw};

fn game() -> SigElOuedCapture {
    SigElOuedCapture::with_seats(2).unwrap()
}

fn game_with(options: &[(&str, &str)]) -> SigElOuedCapture {
    let mut g = game();
    for (k, v) in options {
        g.set_option(k, v).unwrap();
    }
    g
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn mv(name: &str) -> Action {
    Action::Move(sq(name))
}

fn state(p1: &[Piece], p2: &[Piece]) -> State {
    State::try_from(Position::new(p1, p2)).unwrap()
}

fn throws(g: &SigElOuedCapture, s: &mut State, counts: &[u8]) {
    for &k in counts {
        g.apply_throw(s, Throw::new(k))
            .unwrap_or_else(|e| panic!("throw {k}: {e}"));
    }
}

fn legal(g: &SigElOuedCapture, s: &State) -> Vec<String> {
    let mut list = ActionList::new();
    g.legal_actions(s, &mut list);
    list.iter().map(|a| a.to_string()).collect()
}

/// The squares of `seat`'s pieces, in square order, unmoved ones marked `*`.
fn squares_of(s: &State, seat: usize) -> Vec<String> {
    let mut out: Vec<(Square, String)> = s
        .pieces_of(seat)
        .map(|p| {
            let q = circuit_square(seat, p.pos).unwrap();
            (q, format!("{q}{}", if p.unmoved { "*" } else { "" }))
        })
        .collect();
    out.sort();
    out.into_iter().map(|(_, t)| t).collect()
}

fn positions_of(s: &State, seat: usize) -> Vec<u8> {
    s.pieces_of(seat).map(|p| p.pos).collect()
}

fn unmoved(positions: &[u8]) -> Vec<Piece> {
    positions.iter().map(|&p| Piece::start(p)).collect()
}

fn moved(positions: &[u8]) -> Vec<Piece> {
    positions.iter().map(|&p| Piece::moved(p)).collect()
}

/// `s` after the action written `action` (checked).
fn play(g: &SigElOuedCapture, s: &State, action: &str) -> State {
    let mut after = *s;
    let a = g.parse_action(action).unwrap();
    g.apply_action(&mut after, a)
        .unwrap_or_else(|e| panic!("{action}: {e}"));
    after
}

// ---- the circuit -----------------------------------------------------------------------

/// P1's circuit written out from the table: row 0 columns 0..5, row 1 columns 5..0, row 2
/// columns 0..5, row 1 columns 5..0; P2's is each square turned half a turn.
#[test]
fn circuits_follow_the_table() {
    let mut p1 = Vec::new();
    for (row, ltr) in [(1, true), (2, false), (3, true), (2, false)] {
        for k in 0..6u8 {
            let c = if ltr { k } else { 5 - k };
            p1.push(format!("{}{row}", (b'a' + c) as char));
        }
    }
    for pos in 0..24u8 {
        assert_eq!(
            circuit_square(0, pos).unwrap().to_string(),
            p1[pos as usize]
        );
        let q = circuit_square(0, pos).unwrap();
        let turned = Square::new(2 - q.row(), 5 - q.col()).unwrap();
        assert_eq!(circuit_square(1, pos), Some(turned));
    }
    assert_eq!(circuit_square(1, 0).unwrap().to_string(), "f3");
    assert_eq!(circuit_square(1, 5).unwrap().to_string(), "a3"); // P2's front piece
    assert_eq!(circuit_square(0, 24), None);
    assert_eq!(circuit_square(2, 0), None);
}

#[test]
fn the_start_has_six_unmoved_pieces_a_side_on_the_home_rows() {
    let g = game();
    let s = g.initial_state();
    assert_eq!(
        squares_of(&s, 0),
        ["a1*", "b1*", "c1*", "d1*", "e1*", "f1*"]
    );
    assert_eq!(
        squares_of(&s, 1),
        ["a3*", "b3*", "c3*", "d3*", "e3*", "f3*"]
    );
    assert_eq!(g.node(&s), Node::Throw(0));
    assert_eq!(s.pending(), Pending::Lead);
    assert_eq!(
        g.save_state(&s),
        r#"{"pieces":[[{"pos":0,"unmoved":true},{"pos":1,"unmoved":true},{"pos":2,"unmoved":true},{"pos":3,"unmoved":true},{"pos":4,"unmoved":true},{"pos":5,"unmoved":true}],[{"pos":0,"unmoved":true},{"pos":1,"unmoved":true},{"pos":2,"unmoved":true},{"pos":3,"unmoved":true},{"pos":4,"unmoved":true},{"pos":5,"unmoved":true}]],"turn":0,"pending":"lead","throws":0,"first_turn_over":[false,false],"turn_goes_on":false}"#
    );
}

#[test]
fn players_exactly_two() {
    assert!(SigElOuedCapture::with_seats(2).is_ok());
    for n in [0, 1, 3, 8] {
        let err = SigElOuedCapture::with_seats(n).unwrap_err();
        assert!(
            matches!(err, ConfigError::Players { min: 2, max: 2, .. }),
            "{err:?}"
        );
    }
}

#[test]
fn throw_probabilities_are_c6k_over_64() {
    let g = game();
    let want = [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0];
    let outcomes = g.throw_outcomes();
    assert_eq!(outcomes.len(), 7);
    for o in outcomes {
        assert_eq!(o.probability, want[o.throw.marked() as usize] / 64.0);
    }
}

// ---- worked examples -------------------------------------------------------------------

/// Example 1: k = 5 frees the front piece onto (1,5) = f2, position 6; then k = 3 moves only
/// that piece to (1,2) = c2; then it is P2's turn.
#[test]
fn example_1_a_sig_frees_the_front_piece_then_a_plain_3_moves_it() {
    let g = game();
    let mut s = g.initial_state();
    throws(&g, &mut s, &[5]);
    assert_eq!(g.node(&s), Node::Decide(0));
    assert_eq!(legal(&g, &s), ["f1"]); // every other piece would land on its neighbour
    s = play(&g, &s, "f1");
    assert_eq!(squares_of(&s, 0), ["a1*", "b1*", "c1*", "d1*", "e1*", "f2"]);
    assert!(positions_of(&s, 0).contains(&6));
    assert_eq!(g.node(&s), Node::Throw(0)); // the sig's lead throw
    assert!(s.turn_goes_on());
    throws(&g, &mut s, &[3]);
    assert_eq!(legal(&g, &s), ["f2"]); // only the moved piece can go on a plain value
    s = play(&g, &s, "f2");
    assert_eq!(squares_of(&s, 0), ["a1*", "b1*", "c1*", "d1*", "e1*", "c2"]);
    assert_eq!(g.node(&s), Node::Throw(1));
    assert!(!s.turn_goes_on());
    assert_eq!(s.throws(), 2);
}

/// Example 2: k = 6 then a bonus k = 1 is sig value 7, with seven actions; `free_all`
/// leaves P1 on (0,1)…(0,5) and (1,4); no extra throw follows.
#[test]
fn example_2_a_sig_of_six_and_a_sig_make_seven_with_seven_actions() {
    let g = game();
    let mut s = g.initial_state();
    throws(&g, &mut s, &[6]);
    assert_eq!(g.node(&s), Node::Throw(0)); // the bonus throw
    throws(&g, &mut s, &[1]);
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 7,
            sig: true
        }
    );
    assert_eq!(
        legal(&g, &s),
        ["a1", "b1", "c1", "d1", "e1", "f1", "free_all"]
    );
    let lands = [
        ("a1", "e2"),
        ("b1", "d2"),
        ("c1", "c2"),
        ("d1", "b2"),
        ("e1", "a2"),
        ("f1", "a3"),
    ];
    for (from, to) in lands {
        let after = play(&g, &s, from);
        assert!(squares_of(&after, 0).contains(&to.to_string()), "{from}");
        assert_eq!(g.node(&after), Node::Throw(1), "{from}: no extra throw");
        let captured = to == "a3";
        assert_eq!(after.count(1), if captured { 5 } else { 6 }, "{from}");
    }
    // (0,5) → (2,0) captures P2's front piece.
    let after = play(&g, &s, "f1");
    assert_eq!(squares_of(&after, 1), ["b3*", "c3*", "d3*", "e3*", "f3*"]);
    // free_all: all six freed one step each, the first piece takes the step left over.
    let after = play(&g, &s, "free_all");
    assert_eq!(squares_of(&after, 0), ["b1", "c1", "d1", "e1", "f1", "e2"]);
    assert_eq!(positions_of(&after, 0), [1, 2, 3, 4, 5, 7]);
    assert_eq!(after.unmoved_count(0), 0);
    assert_eq!(g.node(&after), Node::Throw(1));
}

/// Example 3: k = 0 then bonus 3, 4, 5 is V = 13. `free_all` shifts five pieces and takes
/// the first piece 5 → 6 → 13, capturing P2's piece on (2,1) = b3; P1 ends on positions
/// 1–5 and 13. The single move (0,5) → (1,5) reaches position 18.
#[test]
fn example_3_a_sig_of_twelve_with_a_sig_is_thirteen() {
    let g = game();
    let mut s = g.initial_state();
    throws(&g, &mut s, &[0, 3, 4]);
    assert_eq!(g.node(&s), Node::Throw(0)); // the third bonus throw
    throws(&g, &mut s, &[5]);
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 13,
            sig: true
        }
    );
    assert_eq!(s.throws(), 4);
    let after = play(&g, &s, "free_all");
    assert_eq!(positions_of(&after, 0), [1, 2, 3, 4, 5, 13]);
    assert_eq!(squares_of(&after, 0), ["b1", "c1", "d1", "e1", "f1", "b3"]);
    assert_eq!(squares_of(&after, 1), ["a3*", "c3*", "d3*", "e3*", "f3*"]);
    let after = play(&g, &s, "f1");
    assert!(positions_of(&after, 0).contains(&18));
    assert!(squares_of(&after, 0).contains(&"f2".to_string()));
}

/// Example 3, second variant: bonus 2, 3, 6 make a plain 23; no piece has moved, so the
/// only action is `pass`.
#[test]
fn example_3_with_bonus_2_3_6_is_a_plain_23_and_a_pass() {
    let g = game();
    let mut s = g.initial_state();
    throws(&g, &mut s, &[0, 2, 3, 6]);
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 23,
            sig: false
        }
    );
    assert_eq!(g.node(&s), Node::Decide(0)); // a decision even with one action
    assert_eq!(legal(&g, &s), ["pass"]);
    let after = play(&g, &s, "pass");
    assert_eq!(squares_of(&after, 0), squares_of(&s, 0));
    assert_eq!(g.node(&after), Node::Throw(1));
}

/// Example 4's position: P1 unmoved on (0,4) = e1, (0,5) = f1; moved on (1,5) = f2
/// (position 6) and (2,2) = c3 (position 14). P2 on (1,0) = a2, (2,1) = b3 (unmoved) and
/// (0,0) = a1.
fn example_4() -> State {
    // P2: a2 is P2's position 6, b3 its unmoved position 4, a1 its position 17.
    let p2 = [Piece::moved(6), Piece::start(4), Piece::moved(17)];
    let s = state(
        &[
            Piece::start(4),
            Piece::start(5),
            Piece::moved(6),
            Piece::moved(14),
        ],
        &p2,
    );
    assert_eq!(squares_of(&s, 0), ["e1*", "f1*", "f2", "c3"]);
    assert_eq!(squares_of(&s, 1), ["a1", "a2", "b3*"]);
    s
}

#[test]
fn example_4_free_all_is_illegal_when_the_first_piece_would_step_onto_an_own_piece() {
    let g = game();
    let mut s = example_4();
    throws(&g, &mut s, &[6, 5]);
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 7,
            sig: true
        }
    );
    assert_eq!(legal(&g, &s), ["e1", "f1", "f2", "c3"]);
    assert!(matches!(
        g.clone().apply_action(&mut s.clone(), Action::FreeAll),
        Err(IllegalMove::NotLegal { .. })
    ));
    // (0,4) → (1,0), capturing.
    let after = play(&g, &s, "e1");
    assert_eq!(squares_of(&after, 0), ["f1*", "a2", "f2", "c3"]);
    assert_eq!(squares_of(&after, 1), ["a1", "b3*"]);
    // (0,5) → (2,0).
    let after = play(&g, &s, "f1");
    assert_eq!(squares_of(&after, 0), ["e1*", "f2", "a3", "c3"]);
    assert_eq!(after.count(1), 3);
    // (1,5) → (2,1), capturing the unmoved piece.
    let after = play(&g, &s, "f2");
    assert_eq!(squares_of(&after, 0), ["e1*", "f1*", "b3", "c3"]);
    assert_eq!(squares_of(&after, 1), ["a1", "a2"]);
    // (2,2) → (1,2), position 21.
    let after = play(&g, &s, "c3");
    assert_eq!(squares_of(&after, 0), ["e1*", "f1*", "c2", "f2"]);
    assert!(positions_of(&after, 0).contains(&21));
}

#[test]
fn example_4_with_a_plain_3_only_the_moved_pieces_go() {
    let g = game();
    let mut s = example_4();
    throws(&g, &mut s, &[3]);
    assert_eq!(legal(&g, &s), ["f2", "c3"]);
    let after = play(&g, &s, "f2");
    assert_eq!(squares_of(&after, 0), ["e1*", "f1*", "c2", "c3"]);
    let after = play(&g, &s, "c3");
    assert_eq!(squares_of(&after, 0), ["e1*", "f1*", "f2", "f3"]);
}

// ---- throws and move values ------------------------------------------------------------

/// The distribution of the move value a lead throw starts, by enumerating every chance node
/// with its exact probability: (V, sig value, another lead throw) → probability.
fn lead_distribution(g: &SigElOuedCapture, first: u8) -> Vec<((u8, bool), f64)> {
    fn walk(
        g: &SigElOuedCapture,
        s: State,
        p: f64,
        out: &mut std::collections::BTreeMap<(u8, bool), f64>,
    ) {
        match g.node(&s) {
            Node::Throw(_) => {
                for o in g.throw_outcomes() {
                    let mut next = s;
                    g.apply_throw(&mut next, o.throw).unwrap();
                    walk(g, next, p * o.probability, out);
                }
            }
            Node::Decide(_) => {
                let key = match s.pending() {
                    Pending::Sig { .. } => (1, true),
                    Pending::Value { steps, sig } => (steps, sig),
                    other => panic!("{other:?}"),
                };
                *out.entry(key).or_default() += p;
            }
            Node::End => panic!("the game ended"),
        }
    }
    let mut s = g.initial_state();
    throws(g, &mut s, &[first]);
    let mut out = Default::default();
    walk(g, s, 1.0, &mut out);
    out.into_iter().collect()
}

/// A sig of twelve is worth 13 with probability 1 − (52/64)³ = 1899/4096, otherwise a plain
/// 12..30 (no 13, no 29).
#[test]
fn a_sig_of_twelve_is_thirteen_with_probability_1899_over_4096() {
    let g = game();
    let dist = lead_distribution(&g, 0);
    let total: f64 = dist.iter().map(|(_, p)| p).sum();
    assert_eq!(total, 1.0);
    let thirteen: f64 = dist
        .iter()
        .filter(|((_, sig), _)| *sig)
        .map(|(_, p)| p)
        .sum();
    assert_eq!(thirteen, 1899.0 / 4096.0);
    assert_eq!(1.0 - (52.0f64 / 64.0).powi(3), 1899.0 / 4096.0);
    for ((v, sig), _) in &dist {
        if *sig {
            assert_eq!(*v, 13);
        } else {
            assert!((12..=30).contains(v) && *v != 13 && *v != 29, "{v}");
        }
    }
    // The plain values: 12 + three counts of {0, 2, 3, 4, 6}.
    let plain: Vec<u8> = dist
        .iter()
        .filter(|((_, s), _)| !s)
        .map(|((v, _), _)| *v)
        .collect();
    let want: Vec<u8> = (12..=30).filter(|&v| v != 13 && v != 29).collect();
    assert_eq!(plain, want);
    // Three sixes: 30, with probability (1/64)³.
    assert_eq!(dist.last().unwrap(), &((30, false), 1.0 / 262144.0));
}

/// A sig of six is worth 6 (1/64), the sig value 7 (12/64), 8 (15/64), 9 (20/64), 10
/// (15/64) or 12 (1/64).
#[test]
fn a_sig_of_six_is_six_plus_its_bonus_throw_or_a_sig_value_7() {
    let g = game();
    let dist = lead_distribution(&g, 6);
    assert_eq!(
        dist,
        [
            ((6, false), 1.0 / 64.0),
            ((7, true), 12.0 / 64.0),
            ((8, false), 15.0 / 64.0),
            ((9, false), 20.0 / 64.0),
            ((10, false), 15.0 / 64.0),
            ((12, false), 1.0 / 64.0),
        ]
    );
}

/// The 13: a regular sig among the bonus throws ends them at once; no more are thrown.
#[test]
fn the_first_regular_sig_among_the_bonus_throws_makes_13_and_stops_them() {
    let g = game();
    for (bonus, made) in [
        (&[1u8][..], 2),
        (&[5][..], 2),
        (&[2, 5][..], 3),
        (&[6, 6, 1][..], 4),
    ] {
        let mut s = g.initial_state();
        throws(&g, &mut s, &[0]);
        throws(&g, &mut s, bonus);
        assert_eq!(
            s.pending(),
            Pending::Value {
                steps: 13,
                sig: true
            },
            "{bonus:?}"
        );
        assert_eq!(s.throws(), made);
        assert_eq!(g.node(&s), Node::Decide(0));
    }
    // Without one: three bonus throws, a plain total.
    let mut s = g.initial_state();
    throws(&g, &mut s, &[0, 6, 6, 6]);
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 30,
            sig: false
        }
    );
}

/// Bonus throws count as throws, belong to the same seat and grant nothing: after a sig of
/// six or twelve the turn ends.
#[test]
fn bonus_throws_never_grant_further_throws() {
    let g = game();
    for seq in [
        &[6u8, 2][..],
        &[6, 5],
        &[0, 1],
        &[0, 2, 2, 2],
        &[0, 4, 6, 0],
    ] {
        let mut s = g.initial_state();
        for (i, &k) in seq.iter().enumerate() {
            assert_eq!(g.node(&s), Node::Throw(0), "{seq:?} throw {i}");
            throws(&g, &mut s, &[k]);
        }
        assert_eq!(g.node(&s), Node::Decide(0));
        let first = legal(&g, &s)[0].clone();
        let after = play(&g, &s, &first);
        assert_eq!(g.node(&after), Node::Throw(1), "{seq:?}");
        assert_eq!(after.throws(), seq.len() as u32);
    }
}

/// Only sig values free: a sig of six with a plain bonus (6 + 3) cannot move an unmoved
/// piece, so from the start it is a pass.
#[test]
fn a_plain_total_of_a_sig_of_six_frees_nothing() {
    let g = game();
    let mut s = g.initial_state();
    throws(&g, &mut s, &[6, 3]);
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 9,
            sig: false
        }
    );
    assert_eq!(legal(&g, &s), ["pass"]);
    // A moved piece takes it.
    let mut s = state(&[Piece::start(0), Piece::moved(6)], &unmoved(&[0, 1]));
    throws(&g, &mut s, &[6, 3]);
    assert_eq!(legal(&g, &s), ["f2"]);
    assert_eq!(squares_of(&play(&g, &s, "f2"), 0), ["a1*", "d3"]); // 6 + 9 = 15
}

/// Sigs chain: the throw a regular sig grants is a full lead throw — another sig, a sig of
/// six or of twelve — and a turn goes on while sigs come.
#[test]
fn sigs_chain_into_full_lead_throws() {
    let g = game();
    let mut s = g.initial_state();
    throws(&g, &mut s, &[1]);
    s = play(&g, &s, "f1");
    throws(&g, &mut s, &[5]);
    assert_eq!(s.pending(), Pending::Sig { polished: 5 });
    s = play(&g, &s, "f2"); // the moved piece steps on: f2 → e2
    assert_eq!(g.node(&s), Node::Throw(0));
    throws(&g, &mut s, &[0]); // a sig of twelve after two sigs
    assert_eq!(s.pending(), Pending::TwelveBonus { left: 3, sum: 0 });
    throws(&g, &mut s, &[6, 6, 6]);
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 30,
            sig: false
        }
    );
    assert_eq!(legal(&g, &s), ["e2"]);
    s = play(&g, &s, "e2"); // position 7 + 30 = 37 = 13, b3: a capture
    assert_eq!(positions_of(&s, 0), [0, 1, 2, 3, 4, 13]);
    assert_eq!(s.count(1), 5);
    assert_eq!(g.node(&s), Node::Throw(1));
    assert_eq!(s.throws(), 6);
    // A regular sig then a sig of six: the sig of six ends the turn.
    let mut s = g.initial_state();
    throws(&g, &mut s, &[1]);
    s = play(&g, &s, "f1");
    throws(&g, &mut s, &[6, 3]);
    s = play(&g, &s, "f2");
    assert_eq!(g.node(&s), Node::Throw(1));
}

/// On average a turn has 16/13 lead throws: a lead throw grants another with probability
/// 12/64.
#[test]
fn a_turn_has_16_over_13_lead_throws_on_average() {
    let g = game();
    let again: f64 = g
        .throw_outcomes()
        .iter()
        .filter(|o| {
            let mut s = g.initial_state();
            g.apply_throw(&mut s, o.throw).unwrap();
            matches!(s.pending(), Pending::Sig { .. })
        })
        .map(|o| o.probability)
        .sum();
    assert_eq!(again, 12.0 / 64.0);
    assert_eq!(1.0 / (1.0 - again), 16.0 / 13.0);
}

// ---- moves -----------------------------------------------------------------------------

/// A plain value moves moved pieces only; a sig value may move any piece; the player chooses
/// between freeing and stepping a moved piece.
#[test]
fn unmoved_pieces_move_only_on_sig_values() {
    let g = game();
    let base = state(&[Piece::start(0), Piece::moved(8)], &unmoved(&[0]));
    for (seq, want) in [
        (&[2u8][..], &["d2"][..]),
        (&[1][..], &["a1", "d2"][..]),
        (&[6, 5][..], &["a1", "d2"][..]),
        (&[6, 6][..], &["d2"][..]),
    ] {
        let mut s = base;
        throws(&g, &mut s, seq);
        assert_eq!(legal(&g, &s), want, "{seq:?}");
    }
}

/// Own pieces block the destination; pieces passed over are ignored; landing captures.
#[test]
fn own_pieces_block_the_destination_and_passed_pieces_are_ignored() {
    let g = game();
    // P1 at positions 6 (f2) and 8 (d2); P2 at c2 = its position... on P1's position 9.
    let p2_on_c2 = {
        // The P2 position whose square is c2: c2 is index 8, P1's positions 9 and 21.
        (0..24u8)
            .find(|&p| circuit_square(1, p) == Some(sq("c2")))
            .unwrap()
    };
    let base = state(&moved(&[6, 8]), &moved(&[p2_on_c2]));
    let mut s = base;
    throws(&g, &mut s, &[2]);
    // f2 + 2 = d2 (own): blocked. d2 + 2 = b2, passing over c2's enemy: legal, no capture.
    assert_eq!(legal(&g, &s), ["d2"]);
    let after = play(&g, &s, "d2");
    assert_eq!(after.count(1), 1);
    assert_eq!(squares_of(&after, 0), ["b2", "f2"]);
    // f2 + 3 = c2: captures.
    let mut s = base;
    throws(&g, &mut s, &[3]);
    assert_eq!(legal(&g, &s), ["d2", "f2"]);
    let after = play(&g, &s, "f2");
    assert_eq!(after.count(1), 0);
}

/// The circuit loops: past position 23 comes position 0, the home row again, where a piece
/// is simply a moved piece.
#[test]
fn the_circuit_loops_back_through_the_home_row() {
    let g = game();
    let mut s = state(&moved(&[22]), &unmoved(&[0]));
    throws(&g, &mut s, &[4]);
    let after = play(&g, &s, "b2"); // position 22 = b2
    assert_eq!(positions_of(&after, 0), [2]);
    assert_eq!(squares_of(&after, 0), ["c1"]);
}

/// A plain 12 brings a piece of the central row to its own square at the other circuit
/// position (legal: no *other* own piece is there); a plain 24 brings a piece round to its
/// own square and changes nothing but whose turn it is.
#[test]
fn a_plain_12_or_24_may_end_on_the_pieces_own_square() {
    let g = game();
    let base = state(&[Piece::moved(6), Piece::moved(1)], &unmoved(&[0]));
    let mut s = base;
    throws(&g, &mut s, &[6, 6]); // a sig of six with a 6: plain 12
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 12,
            sig: false
        }
    );
    assert_eq!(legal(&g, &s), ["b1", "f2"]);
    let after = play(&g, &s, "f2");
    assert_eq!(positions_of(&after, 0), [1, 18]);
    assert_eq!(squares_of(&after, 0), ["b1", "f2"]);
    let after = play(&g, &s, "b1"); // 1 + 12 = 13: b3
    assert_eq!(squares_of(&after, 0), ["f2", "b3"]);

    let mut s = base;
    throws(&g, &mut s, &[0, 6, 6, 0]); // plain 12 + 12 = 24
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 24,
            sig: false
        }
    );
    assert_eq!(legal(&g, &s), ["b1", "f2"]);
    let after = play(&g, &s, "f2");
    assert_eq!(positions_of(&after, 0), positions_of(&base, 0));
    assert_eq!(g.node(&after), Node::Throw(1));
}

/// Any enemy piece can be captured by landing on it, unmoved pieces on their home row
/// included.
#[test]
fn unmoved_pieces_are_captured_by_landing() {
    let g = game();
    // P1's position 10 is b2; P2's unmoved pieces stand on f3 and e3 (its positions 0, 1).
    let mut s = state(&moved(&[10]), &unmoved(&[0, 1]));
    throws(&g, &mut s, &[6, 0]); // plain 6: 10 + 6 = 16, e3
    let after = play(&g, &s, "b2");
    assert_eq!(squares_of(&after, 0), ["e3"]);
    assert_eq!(squares_of(&after, 1), ["f3*"]);
}

/// Moving is compulsory: `pass` is legal only when nothing else is.
#[test]
fn pass_is_legal_only_when_nothing_can_move() {
    let g = game();
    let mut s = g.initial_state();
    throws(&g, &mut s, &[5]);
    let err = g
        .clone()
        .apply_action(&mut s.clone(), Action::Pass)
        .unwrap_err();
    assert!(matches!(err, IllegalMove::NotLegal { .. }), "{err}");
    let mut s = g.initial_state();
    throws(&g, &mut s, &[2]);
    assert_eq!(legal(&g, &s), ["pass"]);
    let err = g
        .clone()
        .apply_action(&mut s.clone(), mv("f1"))
        .unwrap_err();
    assert!(matches!(err, IllegalMove::NotLegal { .. }), "{err}");
}

/// After a regular sig the same seat makes another lead throw whether or not anything moved;
/// after any other value the turn passes, even after a pass.
#[test]
fn turns_pass_except_after_a_regular_sig() {
    let g = game();
    let mut s = g.initial_state();
    throws(&g, &mut s, &[4]);
    s = play(&g, &s, "pass");
    assert_eq!(g.node(&s), Node::Throw(1));
    assert!(s.first_turn_over(0) && !s.first_turn_over(1));
    throws(&g, &mut s, &[1]);
    s = play(&g, &s, "a3"); // P2's front piece (its position 5) steps to its position 6
    assert_eq!(squares_of(&s, 1), ["a2", "b3*", "c3*", "d3*", "e3*", "f3*"]);
    assert_eq!(g.node(&s), Node::Throw(1));
}

// ---- free_all --------------------------------------------------------------------------

#[test]
fn free_all_needs_a_sig_value_of_7_or_13_and_two_unmoved_pieces() {
    let g = game();
    // A regular sig (V = 1): never.
    let mut s = g.initial_state();
    throws(&g, &mut s, &[1]);
    assert!(!legal(&g, &s).contains(&"free_all".to_string()));
    // A plain value: never.
    let mut s = state(
        &[Piece::start(0), Piece::start(1), Piece::moved(8)],
        &unmoved(&[0]),
    );
    throws(&g, &mut s, &[6, 6]);
    assert!(!legal(&g, &s).contains(&"free_all".to_string()));
    // One unmoved piece: not offered (m ≥ 2).
    let mut s = state(&[Piece::start(0), Piece::moved(8)], &unmoved(&[0]));
    throws(&g, &mut s, &[6, 1]);
    assert_eq!(legal(&g, &s), ["a1", "d2"]);
    // Two: offered, 7 and 13 alike.
    for seq in [&[6u8, 1][..], &[0, 5]] {
        let mut s = state(
            &[Piece::start(0), Piece::start(1), Piece::moved(8)],
            &unmoved(&[0]),
        );
        throws(&g, &mut s, seq);
        assert!(legal(&g, &s).contains(&"free_all".to_string()), "{seq:?}");
    }
}

/// Each step of `free_all`, front first, and the first piece's last move obey the move
/// rules when made: the rear piece may step onto the square the front piece just left, and
/// an own piece on the last move's landing makes the whole action illegal.
#[test]
fn free_all_steps_front_first_and_is_illegal_if_the_last_move_lands_on_an_own_piece() {
    let g = game();
    // Five unmoved (positions 0..4) and a moved piece on position 7 (e2): the first piece
    // steps 4 → 5 and then goes 7 − 5 = 2 more, onto 7: an own piece.
    let p1 = [unmoved(&[0, 1, 2, 3, 4]), moved(&[7])].concat();
    let mut s = state(&p1, &unmoved(&[0]));
    throws(&g, &mut s, &[6, 5]);
    assert!(!legal(&g, &s).contains(&"free_all".to_string()));
    // With the moved piece on 8 instead, it is legal: 4 → 5 → 7.
    let p1 = [unmoved(&[0, 1, 2, 3, 4]), moved(&[8])].concat();
    let mut s = state(&p1, &unmoved(&[0]));
    throws(&g, &mut s, &[6, 5]);
    assert_eq!(legal(&g, &s).last().unwrap(), "free_all");
    let after = play(&g, &s, "free_all");
    assert_eq!(positions_of(&after, 0), [1, 2, 3, 4, 7, 8]);
    assert_eq!(after.unmoved_count(0), 0);
}

/// Enemy pieces landed on by a step of `free_all` are captured, as are those on the first
/// piece's landing; a gap in the home row is stepped into.
#[test]
fn free_all_captures_what_its_steps_land_on() {
    let g = game();
    // P1 unmoved at positions 3 and 5 (d1, f1); P2 on e1 (P1's position 4) and on the
    // first piece's landing: 5 → 6, then 13 − 2 = 11 more → 17 (f3).
    let e1 = (0..24u8)
        .find(|&p| circuit_square(1, p) == Some(sq("e1")))
        .unwrap();
    let f3 = (0..24u8)
        .find(|&p| circuit_square(1, p) == Some(sq("f3")))
        .unwrap();
    let b2 = (0..24u8)
        .find(|&p| circuit_square(1, p) == Some(sq("b2")))
        .unwrap();
    let mut s = state(&unmoved(&[3, 5]), &moved(&[e1, f3, b2]));
    throws(&g, &mut s, &[0, 1]);
    assert_eq!(legal(&g, &s), ["d1", "f1", "free_all"]);
    let after = play(&g, &s, "free_all");
    assert_eq!(positions_of(&after, 0), [4, 17]);
    assert_eq!(squares_of(&after, 1), ["b2"]);
    assert_eq!(g.node(&after), Node::Throw(1));
}

/// The seat that captures the last enemy piece wins as soon as the action is complete, also
/// when the capture is made by a step of `free_all` before its last move.
#[test]
fn free_all_capturing_the_last_piece_is_completed_then_the_game_ends() {
    let g = game();
    let e1 = (0..24u8)
        .find(|&p| circuit_square(1, p) == Some(sq("e1")))
        .unwrap();
    let mut s = state(&unmoved(&[3, 5]), &moved(&[e1]));
    throws(&g, &mut s, &[6, 1]);
    let after = play(&g, &s, "free_all");
    assert_eq!(positions_of(&after, 0), [4, 11]); // the first piece still took the rest
    assert_eq!(g.node(&after), Node::End);
    assert_eq!(g.ranking(&after), Some(Ranking::from_keys(&[0, 1])));
}

// ---- the end and the cap ---------------------------------------------------------------

/// The last capture ends the game at once: no further throw, even after a regular sig.
#[test]
fn the_last_capture_ends_the_game_with_no_further_throw() {
    let g = game();
    let on_e2 = (0..24u8)
        .find(|&p| circuit_square(1, p) == Some(sq("e2")))
        .unwrap();
    let mut s = state(&moved(&[6]), &moved(&[on_e2]));
    throws(&g, &mut s, &[1]); // a regular sig would grant another lead throw
    s = play(&g, &s, "f2");
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(s.count(1), 0);
    assert_eq!(s.turn(), 0);
    assert_eq!(s.throws(), 1);
    let r = g.ranking(&s).unwrap();
    assert!(r.is_sole_winner(0));
    assert!(g.apply_throw(&mut s, Throw::new(3)).is_err());
    // P2 wins the same way.
    let on_e2 = (0..24u8)
        .find(|&p| circuit_square(0, p) == Some(sq("e2")))
        .unwrap();
    let mut s = State::try_from(Position {
        pieces: [moved(&[on_e2]), moved(&[6])],
        turn: 1,
        throws: 9,
        first_turn_over: [true, false],
        ..Position::default()
    })
    .unwrap();
    // P2's position 6 is a2; + 4 = its position 10: e2.
    throws(&g, &mut s, &[4]);
    s = play(&g, &s, "a2");
    assert!(g.ranking(&s).unwrap().is_sole_winner(1));
}

/// At the cap the game is a draw once the cap-th throw's move is decided.
#[test]
fn the_throw_cap_is_a_draw_after_the_last_decision() {
    let g = game_with(&[("max_throws", "1")]);
    let mut s = g.initial_state();
    throws(&g, &mut s, &[5]);
    assert_eq!(g.node(&s), Node::Decide(0)); // the cap-th throw's move is still made
    s = play(&g, &s, "f1");
    assert_eq!(g.node(&s), Node::End); // the sig's lead throw is not made
    assert_eq!(g.ranking(&s), Some(Ranking::from_keys(&[0, 0])));
    assert!(g.render(&s).contains("draw"));
}

/// A sig of six or twelve whose bonus throws are cut off by the cap moves nothing; one whose
/// value completes within the cap is decided.
#[test]
fn bonus_throws_cut_off_by_the_cap_move_nothing() {
    for (cap, seq) in [(1, &[6u8][..]), (1, &[0]), (2, &[0, 2]), (3, &[0, 2, 3])] {
        let g = game_with(&[("max_throws", &cap.to_string())]);
        let mut s = g.initial_state();
        throws(&g, &mut s, seq);
        assert_eq!(g.node(&s), Node::End, "cap {cap} {seq:?}");
        assert_eq!(squares_of(&s, 0), squares_of(&g.initial_state(), 0));
        assert_eq!(g.ranking(&s), Some(Ranking::from_keys(&[0, 0])));
    }
    let g = game_with(&[("max_throws", "2")]);
    let mut s = g.initial_state();
    throws(&g, &mut s, &[0, 1]); // 13 completes on the cap-th throw
    assert_eq!(g.node(&s), Node::Decide(0));
    s = play(&g, &s, "free_all");
    assert_eq!(g.node(&s), Node::End);
}

/// A last capture made with the cap-th throw is a win, not a draw.
#[test]
fn a_last_capture_on_the_cap_th_throw_wins() {
    let g = game_with(&[("max_throws", "1")]);
    let on_e2 = (0..24u8)
        .find(|&p| circuit_square(1, p) == Some(sq("e2")))
        .unwrap();
    let mut s = state(&moved(&[6]), &moved(&[on_e2]));
    throws(&g, &mut s, &[5]);
    s = play(&g, &s, "f2");
    assert!(g.ranking(&s).unwrap().is_sole_winner(0));
}

// ---- rule options ----------------------------------------------------------------------

#[test]
fn options_are_read_checked_and_listed() {
    let mut g = game();
    assert_eq!(
        g.options(),
        [
            ("max_throws", "10000".to_string()),
            ("sig_of_twelve_first_turn_only", "false".to_string()),
            ("five_polished_moves_five", "false".to_string()),
        ]
    );
    assert!(g.set_option("five_polished_moves_five", "maybe").is_err());
    assert!(g.set_option("max_throws", "0").is_err());
    assert!(matches!(
        g.set_option("ghoula", "true"),
        Err(ConfigError::UnknownOption { .. })
    ));
    assert_eq!(g, game(), "a refused option changes nothing");
    g.set_option("sig_of_twelve_first_turn_only", "true")
        .unwrap();
    assert!(g.sig_of_twelve_first_turn_only());
    for spec in SigElOuedCapture::option_specs() {
        assert!(!spec.help.is_empty(), "{}", spec.name);
    }
}

/// `sig_of_twelve_first_turn_only`: six rough sides are a sig of twelve on every lead throw
/// of the seat's own first turn (chained ones included; P2's first turn is the game's
/// second), a plain 0 — `pass`, and the turn ends — afterwards. Bonus throws are not
/// affected.
#[test]
fn sig_of_twelve_first_turn_only() {
    let g = game_with(&[("sig_of_twelve_first_turn_only", "true")]);
    let mut s = g.initial_state();
    // P1's first turn: a sig, then (chained) six rough: a sig of twelve.
    throws(&g, &mut s, &[1]);
    s = play(&g, &s, "f1");
    throws(&g, &mut s, &[0]);
    assert_eq!(s.pending(), Pending::TwelveBonus { left: 3, sum: 0 });
    throws(&g, &mut s, &[0, 0, 2]); // bonus zeros are counts of 0, not affected
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 14,
            sig: false
        }
    );
    s = play(&g, &s, "f2");
    // P2's first turn: six rough is still a sig of twelve.
    assert_eq!(g.node(&s), Node::Throw(1));
    throws(&g, &mut s, &[0]);
    assert_eq!(s.pending(), Pending::TwelveBonus { left: 3, sum: 0 });
    throws(&g, &mut s, &[3, 3, 3]);
    s = play(&g, &s, "pass");
    // P1's second turn: a plain 0.
    throws(&g, &mut s, &[0]);
    assert_eq!(
        s.pending(),
        Pending::Value {
            steps: 0,
            sig: false
        }
    );
    assert_eq!(legal(&g, &s), ["pass"]);
    assert!(g
        .describe_throw(&g.initial_state(), Throw::new(0))
        .contains("sig of twelve"));
    s = play(&g, &s, "pass");
    assert_eq!(g.node(&s), Node::Throw(1));
    assert_eq!(s.throws(), 10);
    // Without the option six rough stays a sig of twelve.
    let plain = game();
    let mut t = s;
    throws(&plain, &mut t, &[0]);
    assert_eq!(t.pending(), Pending::TwelveBonus { left: 3, sum: 0 });
    // A plain 0 pending where six rough would be a sig of twelve is refused.
    let mut u = s;
    throws(&g, &mut u, &[0]);
    let err = plain.validate(&u).unwrap_err();
    assert!(err.to_string().contains("plain 0"), "{err}");
}

/// `five_polished_moves_five`: five polished sides are still a regular sig, but may move a
/// moved piece 5 instead; a piece with both moves offers `SQUARE/1` and `SQUARE/5`, any other
/// its square alone; the extra lead throw follows either way. One polished side is not
/// affected, and without the option five polished is a plain sig.
#[test]
fn five_polished_moves_five() {
    let g = game_with(&[("five_polished_moves_five", "true")]);
    // P1: unmoved a1 (position 0); moved f2 (position 6) and e2 (position 7).
    let base = state(
        &[Piece::start(0), Piece::moved(6), Piece::moved(7)],
        &unmoved(&[0]),
    );
    let mut s = base;
    throws(&g, &mut s, &[5]);
    // a1: 1 step only (unmoved). e2: both (7 → 8 d2, 7 → 12 a3). f2: 1 step lands on e2
    // (own), so only 5 steps (6 → 11 a2), named by its square.
    assert_eq!(legal(&g, &s), ["a1", "e2/1", "e2/5", "f2"]);
    let after = play(&g, &s, "f2");
    assert_eq!(positions_of(&after, 0), [0, 7, 11]);
    assert_eq!(g.node(&after), Node::Throw(0)); // the lead throw follows
    let after = play(&g, &s, "e2/5");
    assert_eq!(positions_of(&after, 0), [0, 6, 12]);
    assert_eq!(g.node(&after), Node::Throw(0));
    let after = play(&g, &s, "e2/1");
    assert_eq!(positions_of(&after, 0), [0, 6, 8]);
    assert!(g
        .parse_action("e2")
        .is_ok_and(|a| g.check_action(&s, a).is_err()));
    // One polished side: a sig value 1 only.
    let mut s = base;
    throws(&g, &mut s, &[1]);
    assert_eq!(legal(&g, &s), ["a1", "e2"]);
    // Without the option.
    let plain = game();
    let mut s = base;
    throws(&plain, &mut s, &[5]);
    assert_eq!(legal(&plain, &s), ["a1", "e2"]);
    assert!(plain
        .check_action(&s, Action::MoveSteps(sq("e2"), 5))
        .is_err());
}

// ---- notation, validation, rendering ---------------------------------------------------

#[test]
fn notation_reads_squares_free_all_pass_and_steps() {
    let g = game();
    for (text, want) in [
        ("a1", mv("a1")),
        (" F3 ", mv("f3")),
        ("free_all", Action::FreeAll),
        ("FREE_ALL", Action::FreeAll),
        ("pass", Action::Pass),
        ("c2/1", Action::MoveSteps(sq("c2"), 1)),
        ("c2/5", Action::MoveSteps(sq("c2"), 5)),
    ] {
        assert_eq!(g.parse_action(text), Ok(want), "{text}");
        assert_eq!(g.parse_action(&want.to_string()), Ok(want));
    }
    for bad in ["g1", "a4", "a0", "c2/3", "c2/", "free", "", "a1a"] {
        let err = g.parse_action(bad).unwrap_err();
        assert!(err.to_string().contains("a1 to f3"), "{bad}: {err}");
    }
}

/// The problems of a position are typed: each with its seat, square or value.
#[test]
fn a_bad_position_names_each_problem_typed() {
    use stickdice::games::sig_el_oued_capture::Problem;
    let kinds = |p: Position| -> Vec<Problem> {
        State::try_from(p)
            .unwrap_err()
            .kinds::<Problem>()
            .copied()
            .collect()
    };
    assert_eq!(
        kinds(Position::new(&moved(&[24]), &unmoved(&[0]))),
        [Problem::OffCircuit { seat: 0, pos: 24 }]
    );
    assert_eq!(
        kinds(Position::new(&moved(&[6, 18]), &unmoved(&[0]))),
        [Problem::Shared {
            square: "f2".parse::<Square>().unwrap(),
            same_seat: Some(0)
        }]
    );
    assert_eq!(
        kinds(Position::new(
            &moved(&[0, 1, 2, 3, 4, 5, 6]),
            &unmoved(&[0])
        )),
        [Problem::TooMany { seat: 0, n: 7 }]
    );
    assert_eq!(kinds(Position::new(&[], &[])), [Problem::NoPieces]);
    let s = state(&moved(&[3]), &moved(&[9]));
    assert_eq!(State::try_from(Position::from(s)), Ok(s));
}

#[test]
fn states_are_checked_when_built_or_read() {
    let problems = |p: Position| State::try_from(p).unwrap_err().messages();
    let p = problems(Position::new(&moved(&[24]), &unmoved(&[0])));
    assert!(p[0].contains("off the 24-step circuit"), "{p:?}");
    let p = problems(Position::new(&unmoved(&[6]), &unmoved(&[0])));
    assert!(p[0].contains("marked unmoved"), "{p:?}");
    // Positions 6 and 18 are the same square, f2.
    let p = problems(Position::new(&moved(&[6, 18]), &unmoved(&[0])));
    assert!(p[0].contains("two pieces of P1 on square f2"), "{p:?}");
    let p = problems(Position::new(&unmoved(&[5]), &moved(&[12])));
    assert!(p[0].contains("P1 and a piece of P2 on square f1"), "{p:?}");
    let p = problems(Position::new(
        &moved(&[0, 1, 2, 3, 4, 5, 6]),
        &unmoved(&[0]),
    ));
    assert!(p[0].contains("7 pieces"), "{p:?}");
    let p = problems(Position::new(&[], &[]));
    assert!(p[0].contains("neither side"), "{p:?}");
    let mut pos = Position::new(&moved(&[3]), &[]);
    pos.pending = Pending::Sig { polished: 1 };
    pos.throws = 5;
    pos.first_turn_over = [true, true];
    assert!(problems(pos)[0].contains("game is over"));
    for (pending, text) in [
        (Pending::TwelveBonus { left: 0, sum: 0 }, "1 to 3"),
        (
            Pending::TwelveBonus { left: 2, sum: 1 },
            "cannot add up to 1",
        ),
        (
            Pending::TwelveBonus { left: 1, sum: 11 },
            "cannot add up to 11",
        ),
        (Pending::Sig { polished: 3 }, "1 or 5"),
        (
            Pending::Value {
                steps: 8,
                sig: true,
            },
            "sig value of 8",
        ),
        (
            Pending::Value {
                steps: 29,
                sig: false,
            },
            "plain value of 29",
        ),
        (
            Pending::Value {
                steps: 1,
                sig: false,
            },
            "plain value of 1",
        ),
    ] {
        let mut pos = Position::new(&moved(&[3]), &moved(&[3]));
        pos.pending = pending;
        pos.throws = 5;
        pos.first_turn_over = [true, true];
        let p = problems(pos);
        assert!(p.iter().any(|t| t.contains(text)), "{pending:?}: {p:?}");
    }
    let mut pos = Position::new(&moved(&[3]), &moved(&[3]));
    pos.pending = Pending::SixBonus;
    assert!(problems(pos)[0].contains("0 were made"));
    let mut pos = Position::new(&moved(&[3]), &moved(&[3]));
    pos.turn = 1;
    pos.throws = 3;
    assert!(problems(pos)[0].contains("P1's first turn is not marked over"));
    let mut pos = Position::new(&moved(&[3]), &moved(&[3]));
    pos.turn = 2;
    assert!(problems(pos)[0].contains("out of range"));
    let mut pos = Position::new(&moved(&[3]), &moved(&[3]));
    pos.first_turn_over = [false, true];
    pos.throws = 3;
    assert!(problems(pos)[0].contains("P2's first turn is marked over"));
    // Every problem is named, not only the first.
    let p = problems(Position::new(&[Piece::moved(30), Piece::start(9)], &[]));
    assert_eq!(p.len(), 2, "{p:?}");
}

#[test]
fn loading_a_state_checks_it_and_the_game_checks_the_cap() {
    let g = game();
    let s = example_4();
    let json = g.save_state(&s);
    assert_eq!(g.load_state(&json).unwrap(), s);
    let err = g
        .load_state(r#"{"pieces":[[{"pos":30}],[{"pos":1}]]}"#)
        .unwrap_err();
    assert!(err.to_string().contains("off the 24-step circuit"), "{err}");
    assert!(g.load_state(r#"{"pieces":[[],[]],"ghoula":1}"#).is_err());
    let capped = game_with(&[("max_throws", "5")]);
    let mut t = s;
    throws(&g, &mut t, &[2]);
    for _ in 0..5 {
        let first = legal(&g, &t)[0].clone();
        t = play(&g, &t, &first);
        throws(&g, &mut t, &[2]);
    }
    assert_eq!(t.throws(), 6);
    let err = capped.validate(&t).unwrap_err();
    assert!(err.to_string().contains("past the throw cap of 5"), "{err}");
    assert!(g.validate(&t).is_ok());
    // A sig of twelve's bonus throws after the first turn, under the option: refused.
    let option = game_with(&[("sig_of_twelve_first_turn_only", "true")]);
    let mut u = State::try_from(Position {
        pieces: [moved(&[3]), moved(&[3])],
        throws: 4,
        first_turn_over: [true, true],
        ..Position::default()
    })
    .unwrap();
    throws(&g, &mut u, &[0]);
    assert!(option.validate(&u).is_err());
    assert!(g.validate(&u).is_ok());
}

#[test]
fn an_illegal_action_or_throw_leaves_the_state_as_it_was() {
    let g = game();
    let mut s = g.initial_state();
    assert!(matches!(
        g.apply_action(&mut s, Action::Pass),
        Err(IllegalMove::ThrowDue { seat: 0 })
    ));
    assert!(matches!(
        g.apply_throw(&mut s, Throw::new(7)),
        Err(IllegalMove::ImpossibleThrow { .. })
    ));
    assert_eq!(s, g.initial_state());
    throws(&g, &mut s, &[5]);
    let before = s;
    assert!(g.apply_action(&mut s, mv("a1")).is_err());
    assert!(matches!(
        g.apply_throw(&mut s, Throw::new(2)),
        Err(IllegalMove::DecisionDue { seat: 0 })
    ));
    assert_eq!(s, before);
}

#[test]
fn render_draws_the_board_and_describe_throw_names_the_throws() {
    let g = game();
    let s = example_4();
    let text = g.render(&s);
    assert!(
        text.contains("  3 1> 2< .  2* 1  .  .  .  3   P2's home row"),
        "{text}"
    );
    assert!(text.contains("  2 1< 2> 2  .  .  .  .  1  2\n"), "{text}");
    assert!(
        text.contains("  1 1> 2< 2  .  .  .  1* 1* 1   P1's home row"),
        "{text}"
    );
    assert!(text.contains("P1 to make a lead throw"), "{text}");
    let start = g.initial_state();
    assert!(g
        .describe_throw(&start, Throw::new(5))
        .contains("regular sig"));
    assert!(g
        .describe_throw(&start, Throw::new(6))
        .contains("sig of six"));
    assert!(g
        .describe_throw(&start, Throw::new(0))
        .contains("sig of twelve"));
    let d = g.describe_throw(&start, Throw::new(3));
    assert!(d.contains("plain 3") && d.contains("pass"), "{d}");
    let mut six = start;
    throws(&g, &mut six, &[6]);
    assert!(g
        .describe_throw(&six, Throw::new(1))
        .contains("sig value 7"));
    assert!(g.describe_throw(&six, Throw::new(4)).contains("plain 10"));
    let mut twelve = start;
    throws(&g, &mut twelve, &[0, 2]);
    assert!(g
        .describe_throw(&twelve, Throw::new(5))
        .contains("sig value 13"));
    assert!(g
        .describe_throw(&twelve, Throw::new(3))
        .contains("12 + 5 so far"));
    let five = game_with(&[("five_polished_moves_five", "true")]);
    assert!(five
        .describe_throw(&start, Throw::new(5))
        .contains("plain 5"));
}

/// Issue 39: a position where one seat has no pieces left and that seat is to move was
/// accepted; the game ends on the capture of the last piece with the turn kept by the
/// capturing seat (rule 5), so it cannot arise.
#[test]
fn the_seat_without_pieces_is_never_to_move() {
    let g = game();
    let ended = |turn: u8| {
        format!(
            r#"{{"pieces":[[],[{{"pos":10}}]],"turn":{turn},"pending":"lead","throws":40,"first_turn_over":[true,true],"turn_goes_on":false}}"#
        )
    };
    // Reached in play: P1 lost its last piece on P2's move, P2 keeps the turn.
    let s = g.load_state(&ended(1)).unwrap();
    assert_eq!(g.node(&s), Node::End);
    let e = g.load_state(&ended(0)).unwrap_err().to_string();
    assert!(
        e.contains("P1 has no pieces left, yet it is P1's turn"),
        "{e}"
    );
}
