//! Behaviours pinned because mutation testing (cargo-mutants, issue 16) found that no test
//! noticed when they changed: the text boards of Sig (El Oued) and Sig wa Duqqan (border
//! lines, `|` separators, the Ghoula's marker), the ordinal in "finished 1st", the end
//! message when the last racer finishes on the capping throw, `Issiren::can_move`,
//! `Square::from_index`, the default of `cairo_always_three`, and `validate` of a pending
//! leftover with the turn out of range.

use stickdice::games::issiren::Square;
use stickdice::games::sig_el_oued::{self, Pending};
use stickdice::games::sig_wa_duqqan::Piece;
use stickdice::play::SeededDice;
use stickdice::{ActionList, Game, Issiren, Node, Present, SigElOued, SigWaDuqqan, Throw};

/// The boards exactly as drawn today (a change to the drawing must change these too).
#[test]
fn text_boards_are_drawn_exactly() {
    let g = SigElOued::with_seats(2).unwrap();
    assert_eq!(g.render(&g.initial_state()), EL_OUED_START);
    let d = SigWaDuqqan::with_seats(2).unwrap();
    assert_eq!(d.render(&d.initial_state()), DUQQAN_START);
    let mut s = d.initial_state();
    s = s.with_piece(0, Piece::Racing(9));
    s = s.with_piece(1, Piece::Racing(3));
    s = s.with_ghoula(Some(5));
    assert_eq!(d.render(&s), DUQQAN_GHOULA);
}

const EL_OUED_START: &str = r#"                                                        +-------------+
                                                        | 30* Mecca   |
                                                        |             |
                                                        +-------------+
                                                        | 29* Medina  |
                                                        |             |
                                                        +-------------+
                                                        | 28* Cairo   |
                                                        |             |
                                                        +-------------+
                                                        | 27*         |
                                                        |             |
                                                        +-------------+
                                                        | 26*         |
                                                        |             |
                                                        +-------------+
                                                        | 25*         |
                                                        |             |
+-------------+-------------+-------------+-------------+-------------+
| 20          | 21          | 22          | 23          | 24          |
|             |             |             |             |             |
+-------------+-------------+-------------+-------------+-------------+
| 19          | 18          | 17          | 16          | 15          |
|             |             |             |             |             |
+-------------+-------------+-------------+-------------+-------------+
| 10          | 11          | 12* Minaret | 13          | 14          |
|             |             |             |             |             |
+-------------+-------------+-------------+-------------+-------------+
| 9           | 8           | 7           | 6           | 5           |
|             |             |             |             |             |
+-------------+-------------+-------------+-------------+-------------+
| 0 start     | 1           | 2           | 3           | 4           |
| 1FDM 2FDM   |             |             |             |             |
+-------------+-------------+-------------+-------------+-------------+
* sig square: a step into or out of it needs a sig. Pieces: seat number, then F father, D djinn, M mother.
P1: father on the start, djinn on the start, mother on the start
P2: father on the start, djinn on the start, mother on the start
Throws made: 0 of at most 10000. P1 to throw: the first throw of the turn.
"#;

const DUQQAN_START: &str = r#"                                        +---------+---------+---------+---------+
                                        |0 start  |1        |2        |3        |
              Ghoula off the board: G ->|12       |         |         |         |
                                        +---------+---------+---------+---------+
                                        |7        |6        |5        |4        |
                                        |         |         |         |         |
                                        +---------+---------+---------+---------+
                                        |8        |9        |10       |11       |
                                        |         |         |         |         |
+---------+---------+---------+---------+---------+---------+---------+---------+
|19 Ka'aba|18       |17       |16       |15       |14 wait  |13       |12       |
|         |         |         |         |         |         |         |         |
+---------+---------+---------+---------+---------+---------+---------+---------+
start = idx 0; wait = waiting square (idx 14, 7 sigs to move on); Ka'aba = goal (idx 19)
digits = pieces by seat (1 = P1); G = the Ghoula
P1 to throw (throw 1 of at most 10000). Ghoula off the board, just before idx 0.
P1 on the start; P2 on the start
"#;

const DUQQAN_GHOULA: &str = r#"                                        +---------+---------+---------+---------+
                                        |0 start  |1        |2        |3        |
                                        |         |         |         |2        |
                                        +---------+---------+---------+---------+
                                        |7        |6        |5        |4        |
                                        |         |         |G        |         |
                                        +---------+---------+---------+---------+
                                        |8        |9        |10       |11       |
                                        |         |1        |         |         |
+---------+---------+---------+---------+---------+---------+---------+---------+
|19 Ka'aba|18       |17       |16       |15       |14 wait  |13       |12       |
|         |         |         |         |         |         |         |         |
+---------+---------+---------+---------+---------+---------+---------+---------+
start = idx 0; wait = waiting square (idx 14, 7 sigs to move on); Ka'aba = goal (idx 19)
digits = pieces by seat (1 = P1); G = the Ghoula
P1 to throw (throw 1 of at most 10000). Ghoula on idx 5.
P1 on idx 9; P2 on idx 3
"#;

/// Plays `game` from its start with the duplicate dice of `seed`, always taking the first
/// legal action; returns the final state.
fn play_first_actions<G: Game>(game: &G, seed: u64) -> G::State {
    let mut s = game.initial_state();
    let mut dice = SeededDice::new(seed);
    let mut legal = ActionList::new();
    loop {
        match game.node(&s) {
            Node::Throw(seat) => {
                let t = dice.throw(seat, game.sticks());
                game.apply_throw(&mut s, t).unwrap();
            }
            Node::Decide(_) => {
                legal.clear();
                game.legal_actions(&s, &mut legal);
                game.apply_action(&mut s, legal[0]).unwrap();
            }
            Node::End => return s,
        }
    }
}

#[test]
fn finishing_places_read_1st_2nd() {
    let g = SigElOued::with_seats(3).unwrap();
    let end = play_first_actions(&g, 4);
    assert_eq!(end.finished(), 2);
    let board = g.render(&end);
    assert!(board.contains("finished 1st"), "{board}");
    assert!(board.contains("finished 2nd"), "{board}");
    assert!(!board.contains("1th") && !board.contains("2th"), "{board}");
}

#[test]
fn a_race_ending_on_the_capping_throw_is_not_reported_as_stopped_by_the_cap() {
    // The game as it ends by the rules, then the same game with the cap at exactly its
    // length: the last racer finishes on the capping throw, and that is a normal end.
    let mut g = SigElOued::with_seats(2).unwrap();
    let end = play_first_actions(&g, 9);
    let length = g.throws_made(&end);
    g.set_option("max_throws", &length.to_string()).unwrap();
    let capped = play_first_actions(&g, 9);
    assert_eq!(capped, end);
    let board = g.render(&capped);
    assert!(board.contains("Game over: "), "{board}");
    assert!(!board.contains("throw cap"), "{board}");
    // One throw fewer: now the cap stops it.
    g.set_option("max_throws", &(length - 1).to_string())
        .unwrap();
    let board = g.render(&play_first_actions(&g, 9));
    assert!(board.contains("Game over at the throw cap"), "{board}");
}

#[test]
fn issiren_can_move_only_with_a_piece_that_moves() {
    let g = Issiren::with_seats(2).unwrap();
    let s = g.initial_state();
    // At the start every piece is unmoved: only 4 green sides (move 1) frees one.
    for marked in 0..=6u8 {
        assert_eq!(
            g.can_move(&s, 0, Throw::new(marked)),
            marked == 4,
            "{marked}"
        );
        assert_eq!(
            g.can_move(&s, 1, Throw::new(marked)),
            marked == 4,
            "{marked}"
        );
    }
    // The note it feeds.
    assert!(g
        .describe_throw(&s, Throw::new(2))
        .contains("no piece of P1 can move: pass"));
    assert!(!g.describe_throw(&s, Throw::new(4)).contains("pass"));
}

#[test]
fn squares_come_from_their_index_and_only_those() {
    for i in 0..48u8 {
        assert_eq!(Square::from_index(i).map(Square::index), Some(i));
    }
    for i in [48u8, 49, 100, 255] {
        assert_eq!(Square::from_index(i), None);
    }
}

#[test]
fn cairo_always_three_is_off_by_default() {
    let mut g = SigElOued::with_seats(2).unwrap();
    assert!(!g.cairo_always_three());
    g.set_option("cairo_always_three", "true").unwrap();
    assert!(g.cairo_always_three());
}

#[test]
fn a_leftover_pending_with_the_turn_out_of_range_is_refused_without_a_panic() {
    for seats in [2usize, 8] {
        let g = SigElOued::with_seats(seats).unwrap();
        let mut s: sig_el_oued::State = g.initial_state();
        s = s.with_throws(1);
        s = s.with_pending(Pending::Leftover { rest: 2 });
        s = s.with_turn(seats as u8);
        let e = g.validate(&s).unwrap_err();
        assert!(
            e.messages().iter().any(|p| p.contains("out of range")),
            "{:?}",
            e.messages()
        );
        // The leftover check is not made for a seat that does not exist.
        assert!(
            !e.messages()
                .iter()
                .any(|p| p.contains("a leftover is offered to")),
            "{:?}",
            e.messages()
        );
    }
}
