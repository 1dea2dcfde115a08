//! The worked examples of the described games' chapters (docs/games/), one named test each, played by the
//! shipped descriptions (`src/described/games/*.toml`), and a test per clause the examples
//! leave untested.

use stickdice::described::{Described, State};
use stickdice::{
    EsSig, Game, Kioz, Node, SigMzab, SigTozeur, SigWesternSahara, SijatElTaba, Tab, Throw,
};

/// A piece for [`place`]: its square, an explicit track position where the square lies
/// on the track twice, and whether it is unmoved.
#[derive(Clone, Copy)]
struct P(&'static str, Option<u8>, bool);

fn moved(sq: &'static str) -> P {
    P(sq, None, false)
}
fn unmoved(sq: &'static str) -> P {
    P(sq, None, true)
}
fn at(sq: &'static str, pos: u8) -> P {
    P(sq, Some(pos), false)
}

fn square_rc(sq: &str) -> (u8, u8) {
    let b = sq.as_bytes();
    (b[1] - b'1', b[0] - b'a')
}

/// A state of `g` with the sides' pieces as given (the rest gone), captures consistent.
fn place(g: &Described, sides: &[&[P]], extra: &str) -> State {
    let pps = g.initial_state_json_pieces();
    let mut lists = Vec::new();
    for (side, pieces) in sides.iter().enumerate() {
        let track = g.track(side);
        let mut items: Vec<String> = pieces
            .iter()
            .map(|p| {
                if p.0 == "off" {
                    return r#"{"at": "off", "unmoved": true}"#.to_string();
                }
                let pos = p.1.unwrap_or_else(|| {
                    track
                        .iter()
                        .position(|&rc| rc == square_rc(p.0))
                        .unwrap_or_else(|| panic!("{} is not on side {side}'s track", p.0))
                        as u8
                });
                format!(r#"{{"at": "{}", "pos": {pos}, "unmoved": {}}}"#, p.0, p.2)
            })
            .collect();
        while items.len() < pps {
            items.push(r#"{"at": "gone"}"#.to_string());
        }
        lists.push(format!("[{}]", items.join(", ")));
    }
    let json = format!(r#"{{"pieces": [{}]{extra}}}"#, lists.join(", "));
    serde_json::from_str::<State>(&json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// Captures consistent with two sides' piece counts: `"captures": [a, b]`.
fn captures(g: &Described, a_left: usize, b_left: usize) -> String {
    let pps = g.initial_state_json_pieces();
    format!(r#", "captures": [{}, {}]"#, pps - b_left, pps - a_left)
}

fn legal<G: Game>(g: &G, s: &G::State) -> Vec<String> {
    let mut out = stickdice::ActionList::new();
    g.legal_actions(s, &mut out);
    let mut v: Vec<String> = out.iter().map(|a| a.to_string()).collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn throw<G: Game>(g: &G, s: &mut G::State, k: u8) {
    g.apply_throw(s, Throw::new(k)).unwrap();
}

fn act<G: Game>(g: &G, s: &mut G::State, a: &str) {
    let a = g.parse_action(a).unwrap();
    g.apply_action(s, a).unwrap();
    g.validate(s).unwrap();
}

fn checked<G: Game<State = State>>(g: &G, s: State) -> State {
    g.validate(&s).unwrap_or_else(|e| panic!("{e}"));
    s
}

fn piece_at<G: Game<State = State>>(g: &G, s: &State, sq: &str) -> Option<usize> {
    let json: serde_json::Value = serde_json::from_str(&g.save_state(s)).unwrap();
    json["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .position(|side| side.as_array().unwrap().iter().any(|p| p["at"] == sq))
}

fn count_at<G: Game<State = State>>(g: &G, s: &State, sq: &str) -> usize {
    let json: serde_json::Value = serde_json::from_str(&g.save_state(s)).unwrap();
    json["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|side| side.as_array().unwrap().iter())
        .filter(|p| p["at"] == sq)
        .count()
}

trait Pieces {
    fn initial_state_json_pieces(&self) -> usize;
}

impl Pieces for Described {
    fn initial_state_json_pieces(&self) -> usize {
        let json: serde_json::Value =
            serde_json::from_str(&serde_json::to_string(&self.initial_state()).unwrap()).unwrap();
        json["pieces"][0].as_array().unwrap().len()
    }
}

// ---- §10 Sig (Mzab) ----------------------------------------------------------------------

fn mzab() -> SigMzab {
    SigMzab::with_seats(2).unwrap()
}

#[test]
fn mzab_example_1_a_one_releases_the_front_piece() {
    let g = mzab();
    let mut s = g.initial_state();
    throw(&g, &mut s, 3);
    assert_eq!(legal(&g, &s), ["t1"]);
    act(&g, &mut s, "t1");
    assert_eq!(piece_at(&g, &s, "t2"), Some(0));
    assert_eq!(g.node(&s), Node::Throw(1));
}

#[test]
fn mzab_example_2_a_six_releases_one_step_only() {
    let g = mzab();
    let mut s = g.initial_state();
    throw(&g, &mut s, 0);
    assert_eq!(legal(&g, &s), ["t1"]);
    act(&g, &mut s, "t1");
    assert_eq!(piece_at(&g, &s, "t2"), Some(0));
    assert_eq!(piece_at(&g, &s, "t1"), None);
}

#[test]
fn mzab_example_3_release_or_move() {
    let g = mzab();
    let home: Vec<P> = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1", "k1", "l1", "m1", "n1", "o1",
        "p1", "q1", "r1", "s1",
    ]
    .into_iter()
    .map(unmoved)
    .collect();
    let mut a = home.clone();
    a.push(moved("t2"));
    let b: Vec<P> = [
        "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "i4", "j4", "k4", "l4", "m4", "n4", "o4",
        "p4", "q4", "r4", "s4", "t4",
    ]
    .into_iter()
    .map(unmoved)
    .collect();
    let s0 = checked(&g, place(&g.0, &[&a, &b], ""));
    let mut s = s0;
    throw(&g, &mut s, 4);
    assert_eq!(legal(&g, &s), ["t2"]);
    act(&g, &mut s, "t2");
    assert_eq!(piece_at(&g, &s, "p2"), Some(0));
    let mut s = s0;
    throw(&g, &mut s, 3);
    assert_eq!(legal(&g, &s), sorted(&["s1", "t2"]));
}

#[test]
fn mzab_example_4_landing_captures_moved_or_not() {
    let g = mzab();
    for fresh in [true, false] {
        let b = [P("s4", None, fresh)];
        let s = checked(
            &g,
            place(&g.0, &[&[at("r3", 57)], &b], &captures(&g.0, 1, 1)),
        );
        let mut s = s;
        throw(&g, &mut s, 4);
        assert_eq!(legal(&g, &s), ["r3"]);
        act(&g, &mut s, "r3");
        assert_eq!(piece_at(&g, &s, "s4"), Some(0));
        assert_eq!(s.captures(0), 20);
        assert_eq!(g.node(&s), Node::End, "the last enemy piece is captured");
        assert!(g.ranking(&s).unwrap().is_sole_winner(0));
    }
}

#[test]
fn mzab_example_5_the_circuit_turns_back_and_loops() {
    let g = mzab();
    let extra = captures(&g.0, 2, 1);
    let mut s = checked(
        &g,
        place(
            &g.0,
            &[&[at("b4", 78), at("a2", 119)], &[unmoved("t4")]],
            &extra,
        ),
    );
    throw(&g, &mut s, 4);
    act(&g, &mut s, "b4");
    assert_eq!(piece_at(&g, &s, "c3"), Some(0));
    let json: serde_json::Value = serde_json::from_str(&g.save_state(&s)).unwrap();
    assert!(json["pieces"][0]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["at"] == "c3" && p["pos"] == 82));
    throw(&g, &mut s, 0); // P2: value 6 releases t4? t4 is P2's position 0: one step
    let first = legal(&g, &s)[0].clone();
    act(&g, &mut s, &first);
    throw(&g, &mut s, 3);
    assert!(legal(&g, &s).contains(&"a2".to_string()));
    act(&g, &mut s, "a2");
    let json: serde_json::Value = serde_json::from_str(&g.save_state(&s)).unwrap();
    assert!(json["pieces"][0]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["at"] == "a1" && p["pos"] == 0));
}

#[test]
fn mzab_clause_a_zero_is_a_pass_and_the_cap_draws() {
    let mut g = mzab();
    let mut s = g.initial_state();
    throw(&g, &mut s, 1);
    assert_eq!(legal(&g, &s), ["pass"]);
    g.set_option("max_throws", "1").unwrap();
    let mut s = g.initial_state();
    throw(&g, &mut s, 1);
    act(&g, &mut s, "pass");
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P1 = P2");
}

#[test]
fn mzab_clause_track_ends_stops_at_the_enemy_row_and_draws_when_all_are_there() {
    let mut g = mzab();
    g.set_option("columns", "5").unwrap();
    g.set_option("track_ends", "true").unwrap();
    // P1 on b4 (position 18 of 20) cannot move 4 past a4.
    let extra = captures(&g.0, 2, 1);
    let mut s = checked(
        &g,
        place(&g.0, &[&[moved("b4"), moved("c3")], &[moved("d3")]], &extra),
    );
    throw(&g, &mut s, 4);
    assert_eq!(legal(&g, &s), ["c3"]);
    // Every piece on its far row: the game is over, a draw.
    let s = place(
        &g.0,
        &[&[moved("a4"), moved("b4")], &[moved("e1")]],
        &format!("{extra}, \"ended\": true"),
    );
    g.validate(&s).unwrap();
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P1 = P2");
}

// ---- §11 Sig (Tozeur) --------------------------------------------------------------------

#[test]
fn tozeur_example_1_only_a_one_releases() {
    let g = SigTozeur::with_seats(2).unwrap();
    let mut s = g.initial_state();
    throw(&g, &mut s, 1);
    assert_eq!(legal(&g, &s), ["m1"]);
    act(&g, &mut s, "m1");
    assert_eq!(piece_at(&g, &s, "m2"), Some(0));
    let mut s = g.initial_state();
    throw(&g, &mut s, 3);
    assert_eq!(legal(&g, &s), ["pass"]);
}

#[test]
fn tozeur_example_2_the_value_is_the_count() {
    let g = SigTozeur::with_seats(2).unwrap();
    let extra = captures(&g.0, 2, 1);
    let mut s = checked(
        &g,
        place(
            &g.0,
            &[&[moved("m2"), moved("e3")], &[unmoved("a4")]],
            &extra,
        ),
    );
    throw(&g, &mut s, 5);
    assert_eq!(legal(&g, &s), sorted(&["m2", "e3"]));
    let mut t = s;
    act(&g, &mut t, "m2");
    assert_eq!(piece_at(&g, &t, "h2"), Some(0));
    act(&g, &mut s, "e3");
    assert_eq!(piece_at(&g, &s, "j3"), Some(0));
}

#[test]
fn tozeur_option_mzab_throws_uses_the_mzab_table() {
    let mut g = SigTozeur::with_seats(2).unwrap();
    g.set_option("mzab_throws", "true").unwrap();
    let mut s = g.initial_state();
    throw(&g, &mut s, 0); // value 6 releases one step
    assert_eq!(legal(&g, &s), ["m1"]);
    let mut s = g.initial_state();
    throw(&g, &mut s, 1); // value 0
    assert_eq!(legal(&g, &s), ["pass"]);
}

// ---- §12 Kioz ----------------------------------------------------------------------------

fn kioz() -> Kioz {
    Kioz::with_seats(2).unwrap()
}

#[test]
fn kioz_example_1_a_tab_frees_the_front_piece_and_throws_again() {
    let g = kioz();
    let mut s = g.initial_state();
    throw(&g, &mut s, 1);
    assert_eq!(legal(&g, &s), ["v1"]);
    act(&g, &mut s, "v1");
    assert_eq!(g.node(&s), Node::Throw(0));
    throw(&g, &mut s, 3);
    assert_eq!(legal(&g, &s), ["v2"]);
    act(&g, &mut s, "v2");
    assert_eq!(piece_at(&g, &s, "t2"), Some(0));
    assert_eq!(g.node(&s), Node::Throw(1));
}

#[test]
fn kioz_example_2_tab_priority() {
    let g = kioz();
    let mut a: Vec<P> = (0..21u8)
        .map(|c| {
            unmoved(Box::leak(
                format!("{}1", (b'a' + c) as char).into_boxed_str(),
            ))
        })
        .collect();
    a.push(moved("f3"));
    let b: Vec<P> = (0..22u8)
        .map(|c| {
            unmoved(Box::leak(
                format!("{}4", (b'a' + c) as char).into_boxed_str(),
            ))
        })
        .collect();
    let mut s = checked(&g, place(&g.0, &[&a, &b], ""));
    throw(&g, &mut s, 1);
    assert_eq!(legal(&g, &s), ["u1"]);
    act(&g, &mut s, "u1");
    throw(&g, &mut s, 1);
    assert_eq!(legal(&g, &s), ["t1"]);
}

#[test]
fn kioz_example_3_the_loop_and_a_capture() {
    let g = kioz();
    let extra = captures(&g.0, 1, 1);
    let mut s = checked(&g, place(&g.0, &[&[moved("u3")], &[moved("t2")]], &extra));
    throw(&g, &mut s, 0);
    assert_eq!(legal(&g, &s), ["u3"]);
    act(&g, &mut s, "u3");
    assert_eq!(piece_at(&g, &s, "t2"), Some(0));
    assert_eq!(g.node(&s), Node::End, "P2's last piece is captured");
    // With another P2 piece left, P1 throws again after the 4.
    let extra = captures(&g.0, 1, 2);
    let mut s = checked(
        &g,
        place(
            &g.0,
            &[&[moved("u3")], &[moved("t2"), unmoved("a4")]],
            &extra,
        ),
    );
    throw(&g, &mut s, 0);
    act(&g, &mut s, "u3");
    assert_eq!(g.node(&s), Node::Throw(0));
}

#[test]
fn kioz_clause_a_tab_moves_a_moved_piece_when_no_unmoved_piece_can() {
    let g = kioz();
    let extra = captures(&g.0, 2, 1);
    // The unmoved piece on v1 is blocked by... nothing: it can step to v2 unless own piece is there.
    let mut s = checked(
        &g,
        place(
            &g.0,
            &[&[unmoved("v1"), moved("v2")], &[unmoved("a4")]],
            &extra,
        ),
    );
    throw(&g, &mut s, 1);
    assert_eq!(
        legal(&g, &s),
        ["v2"],
        "v1 is blocked by v2, so the tab moves v2"
    );
}

/// A tab under priority releases each unmoved piece that can step on with the same chance,
/// never one blocked by its own piece, nor a moved piece. 24 000 seeded draws among four
/// pieces that can be released: each count's expectation is 6 000, and the chi-square
/// statistic of the four counts (3 degrees of freedom) exceeds 16.27 with probability 0.001
/// where the draws are uniform.
#[test]
fn kioz_a_tab_releases_each_piece_that_can_step_on_alike() {
    use stickdice::rand::RngExt as _;
    use stickdice::{Playouts, SeedableRng};
    let g = kioz();
    let extra = captures(&g.0, 6, 1);
    let mut s = checked(
        &g,
        place(
            &g.0,
            &[
                &[
                    unmoved("a1"),
                    unmoved("c1"),
                    unmoved("e1"),
                    unmoved("i1"),
                    unmoved("j1"),
                    moved("f3"),
                ],
                &[unmoved("a4")],
            ],
            &extra,
        ),
    );
    throw(&g, &mut s, 1);
    let can = ["a1", "c1", "e1", "j1"];
    assert_eq!(legal(&g, &s), can, "i1 is blocked by j1; f3 waits");
    let mut rng = stickdice::Rng::seed_from_u64(37);
    let mut actions = stickdice::ActionList::new();
    let draws = 24_000;
    let mut counts = [0usize; 4];
    for _ in 0..draws {
        let a = g.random_action(&s, &mut actions, |len| rng.random_range(0..len));
        let at = can.iter().position(|&c| c == a.to_string());
        counts[at.unwrap_or_else(|| panic!("{a} drawn"))] += 1;
    }
    let expected = draws as f64 / 4.0;
    let chi2: f64 = counts
        .iter()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 16.27, "{counts:?}: chi-square {chi2}");
}

// ---- §13 Tab -----------------------------------------------------------------------------

fn tab() -> Tab {
    Tab::with_seats(2).unwrap()
}

#[test]
fn tab_example_1_the_opening_and_the_first_move() {
    let g = tab();
    let mut s = g.initial_state();
    throw(&g, &mut s, 2);
    assert_eq!(g.node(&s), Node::Throw(1));
    throw(&g, &mut s, 3);
    assert_eq!(g.node(&s), Node::Throw(0));
    throw(&g, &mut s, 1);
    assert_eq!(g.node(&s), Node::Decide(0));
    assert_eq!(
        legal(&g, &s),
        sorted(&["a1", "b1", "c1", "d1", "e1", "f1", "g1"])
    );
    let mut t = s;
    act(&g, &mut t, "a1");
    assert_eq!(count_at(&g, &t, "b1"), 2, "two pieces on one square");
    act(&g, &mut s, "g1");
    assert_eq!(piece_at(&g, &s, "g2"), Some(0));
    assert_eq!(g.node(&s), Node::Throw(0), "the tab throws again");
}

#[test]
fn tab_example_2_stacks_join() {
    let g = tab();
    let extra = captures(&g.0, 3, 1);
    let mut s = checked(
        &g,
        place(
            &g.0,
            &[&[moved("d1"), moved("d1"), moved("g1")], &[moved("a4")]],
            &extra,
        ),
    );
    throw(&g, &mut s, 3);
    assert!(legal(&g, &s).contains(&"d1".to_string()));
    act(&g, &mut s, "d1");
    assert_eq!(count_at(&g, &s, "g1"), 3);
}

#[test]
fn tab_example_3_the_fork() {
    let g = tab();
    let extra = captures(&g.0, 1, 1);
    let s0 = checked(&g, place(&g.0, &[&[moved("f3")], &[moved("e4")]], &extra));
    let mut s = s0;
    throw(&g, &mut s, 4);
    assert_eq!(legal(&g, &s), sorted(&["f3/round", "f3/in"]));
    let mut t = s;
    act(&g, &mut t, "f3/round");
    assert_eq!(piece_at(&g, &t, "e2"), Some(0));
    act(&g, &mut s, "f3/in");
    assert_eq!(piece_at(&g, &s, "e4"), Some(0));
    assert_eq!(s.captures(0), 7);
    // No enemy piece in row 4: only round, written plainly.
    let mut s = checked(&g, place(&g.0, &[&[moved("f3")], &[moved("a3")]], &extra));
    throw(&g, &mut s, 4);
    assert_eq!(legal(&g, &s), ["f3"]);
    act(&g, &mut s, "f3");
    assert_eq!(piece_at(&g, &s, "e2"), Some(0));
}

#[test]
fn tab_example_4_the_out_gate_and_never_again() {
    let g = tab();
    let extra = captures(&g.0, 3, 2);
    let mut s = checked(
        &g,
        place(
            &g.0,
            &[
                &[moved("b4"), moved("c1"), moved("e1")],
                &[moved("d2"), moved("g4")],
            ],
            &extra,
        ),
    );
    throw(&g, &mut s, 3);
    assert!(
        !legal(&g, &s).contains(&"b4".to_string()),
        "two groups at home"
    );
    let mut s = checked(
        &g,
        place(
            &g.0,
            &[
                &[moved("b4"), moved("e1"), moved("e1")],
                &[moved("d2"), moved("g4")],
            ],
            &extra,
        ),
    );
    throw(&g, &mut s, 3);
    assert!(legal(&g, &s).contains(&"b4".to_string()));
    act(&g, &mut s, "b4");
    assert_eq!(piece_at(&g, &s, "b3"), Some(0));
    // The flagged piece never enters row 4 again: at the fork only `round` is open.
    throw(&g, &mut s, 2);
    let first = legal(&g, &s)[0].clone();
    act(&g, &mut s, &first);
    // P1 to move: bring the flagged piece from b3 to the fork's reach.
    let json = g.save_state(&s);
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let flagged = v["pieces"][0]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["at"] == "b3")
        .cloned()
        .unwrap();
    assert_eq!(
        flagged["flags"], 1,
        "the piece carries the left-the-fourth-row flag"
    );
    for p in v["pieces"][0].as_array_mut().unwrap() {
        if p["at"] == "b3" {
            p["at"] = "f3".into();
            p["pos"] = 19.into();
        }
    }
    let s: State = serde_json::from_value(v).unwrap();
    let mut s = checked(&g, s);
    throw(&g, &mut s, 4);
    assert!(legal(&g, &s).contains(&"f3".to_string()));
    assert!(!legal(&g, &s).iter().any(|a| a.starts_with("f3/")));
}

#[test]
fn tab_example_5_a_stack_is_captured_whole() {
    let g = tab();
    let extra = captures(&g.0, 1, 4);
    let mut s = checked(
        &g,
        place(
            &g.0,
            &[
                &[moved("f2")],
                &[moved("c2"), moved("c2"), moved("c2"), moved("a4")],
            ],
            &extra,
        ),
    );
    throw(&g, &mut s, 3);
    act(&g, &mut s, "f2");
    assert_eq!(count_at(&g, &s, "c2"), 1);
    assert_eq!(piece_at(&g, &s, "c2"), Some(0));
    assert_eq!(s.captures(0), 6, "three before, three now");
}

#[test]
fn tab_option_starting_tab_only_starts() {
    let mut g = tab();
    g.set_option("starting_tab_only_starts", "true").unwrap();
    let mut s = g.initial_state();
    throw(&g, &mut s, 1);
    assert_eq!(g.node(&s), Node::Throw(0), "the beginner throws again");
}

// ---- §14 Sijat El Taba -------------------------------------------------------------------

fn sijat() -> SijatElTaba {
    SijatElTaba::with_seats(2).unwrap()
}

#[test]
fn sijat_example_1_unlock_then_move() {
    let g = sijat();
    let mut s = g.initial_state();
    throw(&g, &mut s, 1);
    assert_eq!(
        legal(&g, &s),
        sorted(&[
            "store",
            "unlock a1",
            "unlock b1",
            "unlock c1",
            "unlock h1",
            "unlock i1",
            "unlock j1"
        ])
    );
    act(&g, &mut s, "unlock c1");
    assert_eq!(g.node(&s), Node::Throw(0));
    throw(&g, &mut s, 2);
    assert_eq!(legal(&g, &s), ["c1"]);
    act(&g, &mut s, "c1");
    assert_eq!(piece_at(&g, &s, "e1"), Some(0));
    assert_eq!(g.node(&s), Node::Throw(1), "a 2 ends the turn");
}

#[test]
fn sijat_example_2_stored_ones_lengthen_a_capture() {
    let g = sijat();
    let extra = format!(r#"{}, "stock": [2]"#, captures(&g.0, 1, 2));
    let mut s = checked(
        &g,
        place(&g.0, &[&[moved("h2")], &[moved("c2"), moved("a6")]], &extra),
    );
    throw(&g, &mut s, 3);
    assert_eq!(legal(&g, &s), sorted(&["h2", "h2+1"]));
    let mut t = s;
    act(&g, &mut t, "h2");
    assert_eq!(piece_at(&g, &t, "d2"), Some(0));
    act(&g, &mut s, "h2+1");
    assert_eq!(piece_at(&g, &s, "c2"), Some(0));
    assert_eq!(s.stock(0), 1);
    assert_eq!(g.node(&s), Node::Throw(0));
}

#[test]
fn sijat_example_3_separation_ends_the_game_and_captures_decide() {
    let g = sijat();
    let extra = captures(&g.0, 2, 3);
    let s = place(
        &g.0,
        &[
            &[moved("a5"), moved("b6")],
            &[moved("c4"), moved("d1"), moved("e2")],
        ],
        &extra,
    );
    assert!(
        g.validate(&s).is_err(),
        "the end holds: the state must say so"
    );
    let s = checked(
        &g,
        place(
            &g.0,
            &[
                &[moved("a5"), moved("b6")],
                &[moved("c4"), moved("d1"), moved("e2")],
            ],
            &format!("{extra}, \"ended\": true"),
        ),
    );
    assert_eq!(g.node(&s), Node::End);
    // P1 captured 3, P2 captured 4: P2 wins.
    assert!(g.ranking(&s).unwrap().is_sole_winner(1));
}

#[test]
fn sijat_option_supplement_uses_all() {
    let mut g = sijat();
    g.set_option("supplement_uses_all", "true").unwrap();
    let extra = format!(r#"{}, "stock": [2]"#, captures(&g.0, 1, 2));
    let mut s = checked(
        &g,
        place(&g.0, &[&[moved("h2")], &[moved("b2"), moved("c2")]], &extra),
    );
    throw(&g, &mut s, 3);
    assert_eq!(legal(&g, &s), sorted(&["h2", "h2+2"]));
}

// ---- §15 Es-Sîg --------------------------------------------------------------------------

fn es_sig() -> EsSig {
    EsSig::with_seats(2).unwrap()
}

fn es_state(g: &EsSig, a: P, b: P, extra: &str) -> State {
    checked(g, place(&g.0, &[&[a], &[b]], extra))
}

#[test]
fn es_sig_example_1_a_sig_enters() {
    let g = es_sig();
    let mut s = g.initial_state();
    throw(&g, &mut s, 2);
    assert_eq!(g.node(&s), Node::Throw(1), "nothing to decide");
    throw(&g, &mut s, 3);
    throw(&g, &mut s, 1);
    assert_eq!(piece_at(&g, &s, "g1"), Some(0));
}

#[test]
fn es_sig_example_2_the_first_hold() {
    let g = es_sig();
    let mut s = es_state(&g, moved("g4"), P("off", None, true), "");
    throw(&g, &mut s, 3);
    assert_eq!(piece_at(&g, &s, "g7"), Some(0));
    for _ in 0..4 {
        throw(&g, &mut s, 2); // P2: 0
        throw(&g, &mut s, 1);
        assert_eq!(piece_at(&g, &s, "g7"), Some(0));
    }
    throw(&g, &mut s, 2);
    throw(&g, &mut s, 1);
    assert_eq!(piece_at(&g, &s, "f7"), Some(0));
}

#[test]
fn es_sig_example_3_the_final_squares() {
    let g = es_sig();
    let mut s = es_state(&g, moved("a3"), P("off", None, true), "");
    throw(&g, &mut s, 0);
    assert_eq!(piece_at(&g, &s, "a6"), Some(0));
    let mut exact = es_sig();
    exact.set_option("exact_final", "true").unwrap();
    let mut t = es_state(&exact, moved("a3"), P("off", None, true), "");
    throw(&exact, &mut t, 0);
    assert_eq!(piece_at(&exact, &t, "a3"), Some(0));
    for sq in ["a7", "a8"] {
        throw(&g, &mut s, 2);
        throw(&g, &mut s, 1);
        assert_eq!(piece_at(&g, &s, sq), Some(0));
    }
    throw(&g, &mut s, 2);
    throw(&g, &mut s, 1);
    assert_eq!(
        s.chaser(),
        Some(49),
        "P1 is out; the Ghula appears on the last square"
    );
}

#[test]
fn es_sig_example_4_the_ghula_carries() {
    let g = es_sig();
    let mut v: serde_json::Value =
        serde_json::from_str(&g.save_state(&es_state(&g, P("off", None, true), moved("a6"), "")))
            .unwrap();
    v["pieces"][0][0] = serde_json::json!({"at": "gone"});
    v["out"] = serde_json::json!([1]);
    v["chaser"] = 49.into();
    let mut s = checked(&g, serde_json::from_value(v).unwrap());
    throw(&g, &mut s, 2);
    assert_eq!(legal(&g, &s), ["back"]);
    act(&g, &mut s, "back");
    assert_eq!(piece_at(&g, &s, "a3"), Some(1), "carried to idx 44");
    assert_eq!(s.chaser(), Some(44));
    throw(&g, &mut s, 1);
    assert_eq!(
        piece_at(&g, &s, "a4"),
        Some(1),
        "a sîg moves it out of the Ghula's square"
    );
}

#[test]
fn es_sig_example_5_dragged_to_the_start() {
    let g = es_sig();
    let mut v: serde_json::Value =
        serde_json::from_str(&g.save_state(&es_state(&g, P("off", None, true), moved("g2"), "")))
            .unwrap();
    v["pieces"][0][0] = serde_json::json!({"at": "gone"});
    v["out"] = serde_json::json!([1]);
    v["chaser"] = 1.into();
    let mut s = checked(&g, serde_json::from_value(v).unwrap());
    throw(&g, &mut s, 1);
    assert_eq!(legal(&g, &s), sorted(&["back", "forward"]));
    act(&g, &mut s, "back");
    assert_eq!(s.chaser(), Some(0));
    let json: serde_json::Value = serde_json::from_str(&g.save_state(&s)).unwrap();
    assert_eq!(json["pieces"][1][0]["at"], "off");
}

#[test]
fn es_sig_example_6_carried_off_a_hold_loses_the_count() {
    let g = es_sig();
    let mut v: serde_json::Value =
        serde_json::from_str(&g.save_state(&es_state(&g, P("off", None, true), moved("d4"), "")))
            .unwrap();
    v["pieces"][0][0] = serde_json::json!({"at": "gone"});
    v["pieces"][1][0]["count"] = 7.into();
    v["out"] = serde_json::json!([1]);
    v["chaser"] = 24.into();
    v["turn"] = 1.into();
    let mut s = checked(&g, serde_json::from_value(v).unwrap());
    throw(&g, &mut s, 1);
    let json: serde_json::Value = serde_json::from_str(&g.save_state(&s)).unwrap();
    assert_eq!(json["pieces"][1][0]["count"], 8);
    throw(&g, &mut s, 4);
    act(&g, &mut s, "back");
    let json: serde_json::Value = serde_json::from_str(&g.save_state(&s)).unwrap();
    assert_eq!(json["pieces"][1][0]["pos"], 20);
    assert!(json["pieces"][1][0].get("count").is_none());
}

#[test]
fn es_sig_clause_arrival_order_ranks_and_the_game_runs_until_all_are_out() {
    let g = es_sig();
    let mut v: serde_json::Value =
        serde_json::from_str(&g.save_state(&es_state(&g, P("off", None, true), moved("a8"), "")))
            .unwrap();
    v["pieces"][0][0] = serde_json::json!({"at": "gone"});
    v["out"] = serde_json::json!([1]);
    v["chaser"] = 10.into();
    v["turn"] = 1.into();
    let mut s = checked(&g, serde_json::from_value(v).unwrap());
    throw(&g, &mut s, 1);
    assert_eq!(g.node(&s), Node::End);
    assert_eq!(g.ranking(&s).unwrap().to_string(), "P1 > P2");
}

// ---- §16 Sig (Western Sahara) ------------------------------------------------------------

fn ws(seats: usize) -> SigWesternSahara {
    SigWesternSahara::with_seats(seats).unwrap()
}

#[test]
fn western_sahara_example_1_a_five_moves_the_front_piece() {
    let g = ws(4);
    let mut s = g.initial_state();
    throw(&g, &mut s, 3);
    assert_eq!(legal(&g, &s), ["t1/5"]);
    act(&g, &mut s, "t1/5");
    assert_eq!(piece_at(&g, &s, "p2"), Some(0));
    assert_eq!(g.node(&s), Node::Throw(1));
}

#[test]
fn western_sahara_example_2_throws_first_then_spend() {
    let g = ws(4);
    let mut s = g.initial_state();
    throw(&g, &mut s, 1);
    throw(&g, &mut s, 4);
    throw(&g, &mut s, 6);
    assert_eq!(legal(&g, &s), sorted(&["t1/1", "t1/4", "t1/6"]));
    act(&g, &mut s, "t1/6");
    assert_eq!(piece_at(&g, &s, "o2"), Some(0));
    assert_eq!(legal(&g, &s), sorted(&["s1/1", "s1/4", "o2/1", "o2/4"]));
    act(&g, &mut s, "o2/4");
    act(&g, &mut s, "k2/1");
    assert_eq!(piece_at(&g, &s, "j2"), Some(0));
    assert_eq!(
        g.node(&s),
        Node::Throw(1),
        "all values spent: the turn passes"
    );
}

#[test]
fn western_sahara_example_3_capture_on_the_enemy_row_and_safety() {
    let g = ws(2);
    let extra = format!(
        r#"{}, "held": [4], "spending": true, "throws": 1"#,
        captures(&g.0, 1, 2)
    );
    let mut s = checked(
        &g,
        place(&g.0, &[&[moved("s3")], &[moved("r4"), moved("a4")]], &extra),
    );
    assert_eq!(legal(&g, &s), ["s3/4"]);
    act(&g, &mut s, "s3/4");
    assert_eq!(piece_at(&g, &s, "r4"), Some(0));
}

#[test]
fn western_sahara_example_4_a_safe_piece_cannot_be_taken() {
    let g = ws(2);
    let extra = format!(
        r#"{}, "held": [4, 5], "spending": true, "turn": 1, "throws": 2"#,
        captures(&g.0, 2, 1)
    );
    let s = checked(
        &g,
        place(&g.0, &[&[moved("k4"), moved("a2")], &[moved("o4")]], &extra),
    );
    assert_eq!(legal(&g, &s), ["o4/5"]);
    let mut s = s;
    act(&g, &mut s, "o4/5");
    assert_eq!(piece_at(&g, &s, "j4"), Some(1));
}

#[test]
fn western_sahara_clause_no_passing_own_pieces() {
    let g = ws(2);
    let mut s = g.initial_state();
    throw(&g, &mut s, 2); // 6, stop
    assert_eq!(
        legal(&g, &s),
        ["t1/6"],
        "every other piece would pass its neighbour"
    );
}

#[test]
fn western_sahara_clause_partners_rank_together() {
    let g = ws(4);
    let extra = captures(&g.0, 2, 1);
    let s = checked(
        &g,
        place(
            &g.0,
            &[&[moved("a4"), moved("b4")], &[moved("a1")]],
            &format!("{extra}, \"ended\": true"),
        ),
    );
    let r = g.ranking(&s).unwrap();
    assert_eq!(r.to_string(), "P1 = P3 > P2 = P4");
    assert!((r.score(0) - 5.0 / 6.0).abs() < 1e-12);
}

#[test]
fn western_sahara_three_seats_are_refused() {
    assert!(SigWesternSahara::with_seats(3).is_err());
}

/// FNV-1a over bytes: a digest that does not depend on the standard library's hasher.
struct Fnv(u64);

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
    }
}

/// Digests of `games` games of `g` played from a fixed seed: every state (as saved), every
/// list of legal actions (in the listed order), every ranking; and of `playouts` random
/// playouts (the allocation-free path) from the same seed: each final state and ranking.
/// Any change of the rules engine changes the first; the second changes also with the
/// way a random playout draws its actions.
fn digest<G>(g: &G, games: usize, playouts: usize) -> [u64; 2]
where
    G: stickdice::Playouts<State = State, Action = stickdice::described::Action>,
{
    use stickdice::SeedableRng;
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let sticks = g.sticks().count() as usize;
    let mut list = stickdice::ActionList::new();
    for _ in 0..games {
        let mut s = g.initial_state();
        loop {
            h.add(g.save_state(&s).as_bytes());
            match g.node(&s) {
                Node::Throw(_) => {
                    g.apply_throw_unchecked(&mut s, Throw::new(next(sticks + 1) as u8))
                }
                Node::Decide(_) => {
                    g.legal_actions(&s, &mut list);
                    for a in list.iter() {
                        h.add(a.to_string().as_bytes());
                    }
                    let a = list[next(list.len())];
                    g.apply_action_unchecked(&mut s, a);
                }
                Node::End => break,
            }
        }
        h.add(format!("{:?}", g.ranking(&s)).as_bytes());
    }
    let mut rng = stickdice::Rng::seed_from_u64(7);
    let mut p = Fnv(0xcbf2_9ce4_8422_2325);
    for _ in 0..playouts {
        let mut s = g.initial_state();
        let r = stickdice::play::random_playout(g, &mut s, &mut rng);
        p.add(g.save_state(&s).as_bytes());
        p.add(format!("{r:?}").as_bytes());
    }
    [h.0, p.0]
}

fn configured<G: Game>(seats: usize, options: &[(&str, &str)]) -> G {
    let mut g = G::with_seats(seats).unwrap();
    for (k, v) in options {
        g.set_option(k, v).unwrap();
    }
    g
}

/// The engine's behaviour, pinned: digests of random games of every shipped description
/// (and of its options), computed before the engine was made faster, and of random
/// playouts. A change to the rules engine that changes any state, legal action list or
/// ranking fails here.
#[test]
fn random_games_of_every_description_are_unchanged() {
    let found = [
        ("sig-mzab", digest(&configured::<SigMzab>(2, &[]), 6, 20)),
        (
            "sig-mzab columns=7 track_ends",
            digest(
                &configured::<SigMzab>(2, &[("columns", "7"), ("track_ends", "true")]),
                6,
                20,
            ),
        ),
        (
            "sig-tozeur",
            digest(&configured::<SigTozeur>(2, &[]), 6, 20),
        ),
        (
            "sig-tozeur mzab_throws track_ends",
            digest(
                &configured::<SigTozeur>(2, &[("mzab_throws", "true"), ("track_ends", "true")]),
                6,
                20,
            ),
        ),
        ("kioz", digest(&configured::<Kioz>(2, &[]), 6, 20)),
        ("tab", digest(&configured::<Tab>(2, &[]), 6, 20)),
        (
            "tab columns=11 starting_tab_only_starts",
            digest(
                &configured::<Tab>(
                    2,
                    &[("columns", "11"), ("starting_tab_only_starts", "true")],
                ),
                6,
                20,
            ),
        ),
        (
            "sijat-el-taba",
            digest(&configured::<SijatElTaba>(2, &[]), 6, 20),
        ),
        (
            "sijat-el-taba rows=4 supplement_uses_all",
            digest(
                &configured::<SijatElTaba>(2, &[("rows", "4"), ("supplement_uses_all", "true")]),
                6,
                20,
            ),
        ),
        ("es-sig 2", digest(&configured::<EsSig>(2, &[]), 6, 20)),
        ("es-sig 5", digest(&configured::<EsSig>(5, &[]), 6, 20)),
        (
            "es-sig 3 options",
            digest(
                &configured::<EsSig>(
                    3,
                    &[
                        ("exact_final", "true"),
                        ("extra_throws", "true"),
                        ("ghula_from_start", "true"),
                    ],
                ),
                6,
                20,
            ),
        ),
        (
            "sig-western-sahara 2",
            digest(&configured::<SigWesternSahara>(2, &[]), 4, 10),
        ),
        (
            "sig-western-sahara 4",
            digest(&configured::<SigWesternSahara>(4, &[]), 4, 10),
        ),
    ];
    // The games' digests are those of the engine before random playouts drew pieces
    // (checked against it); the playouts' are those of the drawing playouts.
    let expected: [[u64; 2]; 14] = [
        [0xec93912cee339181, 0x5acc7bfa488a8b97],
        [0x89923db584a35c8f, 0xf7c59aad538926ab],
        [0x0849a869da6cb455, 0xacd43fbaef25a15b],
        [0x8b4fb5bee17ca546, 0xa53478f539e513a9],
        [0xa45d4f44ece6418c, 0x9a5a603da966a55d],
        [0x80aba9c1c866902d, 0x08929b5a65f2e765],
        [0x43317d23c4255ac4, 0xf71f1e970349f865],
        [0x62ace9c0c1baacdc, 0x1841232728aa7e8a],
        [0xd1aa702ef5ca9735, 0x54e48c2e4cf89ef9],
        [0x6a697b27a316f036, 0x28a9bf9f904ab47e],
        [0x014a681372bd8d60, 0x7874ddb3a5e094b5],
        [0xbc5b4111654e8bb1, 0x819d310f08cd21b3],
        [0x9af1cafd76b24957, 0x8d81eb78888c8c27],
        [0x422704042bc2d711, 0x123255115b13db56],
    ];

    let mut changed = Vec::new();
    for ((name, d), e) in found.iter().zip(expected) {
        if *d != e {
            changed.push(format!(
                "{name}: [{:#018x}, {:#018x}], expected [{:#018x}, {:#018x}]",
                d[0], d[1], e[0], e[1]
            ));
        }
    }
    assert!(
        changed.is_empty(),
        "digests changed:\n{}",
        changed.join("\n")
    );
}

// ---- Lockstep with the hand-written games ---------------------------------------------------
//
// A reference description (`src/described/reference/`) and its hand-written module are
// driven from the same seed through the same throws and actions. At every node both must
// agree on the node (whose throw or decision, or the end), the chance outcomes with their
// exact probabilities, the legal actions (by notation), the state (canonically: each
// side's pieces by track position with their unmoved/locked flag, whose turn, the pending
// throw, the throw count) and, at the end, the ranking. Every throw outcome and every
// legal action of each node is also applied to copies of both states and the results
// compared, so each node checks all its successors, not just the one played.

mod lockstep {
    use stickdice::described::games::reference;
    use stickdice::described::query::Place;
    use stickdice::described::{Described, State};
    use stickdice::games::{HoumtTaourit, SigWaDuqqan};
    use stickdice::rand::RngExt;
    use stickdice::{ActionList, Game, Issiren, Node, SeedableRng, SiryuWar, Throw};

    /// A state in a form both games share.
    #[derive(Debug, Default, PartialEq, Eq)]
    pub struct Canon {
        /// Per side: its pieces on the board as (track position, unmoved), sorted.
        pub pieces: Vec<Vec<(u8, bool)>>,
        pub turn: usize,
        pub pending: Option<u8>,
        pub throws: u32,
        /// Per side: the hold counts that are not 0, as (track position, count), sorted.
        pub counts: Vec<Vec<(u8, u8)>>,
        /// Per seat: its place among the seats that got out (0: not out), trailing 0s cut.
        pub out: Vec<u8>,
        /// Per seat: the burial step that buried it (0: not buried), trailing 0s cut.
        pub buried: Vec<u8>,
        /// The chaser's track position, and whether it has made its first move.
        pub chaser: Option<u8>,
        pub chaser_moved: bool,
    }

    /// `v` without its trailing zeros.
    fn trim(mut v: Vec<u8>) -> Vec<u8> {
        while v.last() == Some(&0) {
            v.pop();
        }
        v
    }

    pub fn described(name: &str) -> Described {
        let (file, text) = reference(name).unwrap_or_else(|| panic!("no reference {name}"));
        Described::from_text(file, text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn canon_described(d: &Described, s: &State) -> Canon {
        let n = d.pieces_per_side();
        let pieces = (0..d.sides())
            .map(|side| {
                let mut v: Vec<(u8, bool)> = (side * n..(side + 1) * n)
                    .filter_map(|k| match d.place(s, k) {
                        Place::On { pos, .. } => Some((pos, d.is_unmoved(s, k))),
                        Place::Off => Some((u8::MAX, d.is_unmoved(s, k))),
                        Place::Gone => None,
                    })
                    .collect();
                v.sort_unstable();
                v
            })
            .collect();
        let counts = (0..d.sides())
            .map(|side| {
                let mut v: Vec<(u8, u8)> = (side * n..(side + 1) * n)
                    .filter_map(|k| match d.place(s, k) {
                        Place::On { pos, .. } if d.hold_count(s, k) > 0 => {
                            Some((pos, d.hold_count(s, k)))
                        }
                        _ => None,
                    })
                    .collect();
                v.sort_unstable();
                v
            })
            .collect();
        Canon {
            pieces,
            turn: s.turn(),
            pending: d.pending_throw(s).map(Throw::marked),
            throws: s.throws(),
            counts,
            out: trim((0..d.seats()).map(|seat| d.out_place(s, seat)).collect()),
            buried: trim((0..d.seats()).map(|seat| s.burial(seat)).collect()),
            chaser: s.chaser(),
            chaser_moved: s.chaser_has_moved(),
        }
    }

    /// A hand-written game and how to read its states canonically.
    pub trait Hand: Game {
        fn canon(&self, s: &Self::State) -> Canon;
    }

    impl Hand for Issiren {
        fn canon(&self, s: &Self::State) -> Canon {
            let pieces = (0..2)
                .map(|seat| {
                    let mut v: Vec<(u8, bool)> = s
                        .pieces_of(seat)
                        .iter()
                        .map(|p| (p.pos, p.unmoved))
                        .collect();
                    v.sort_unstable();
                    v
                })
                .collect();
            Canon {
                pieces,
                turn: s.turn() as usize,
                pending: s.pending().map(Throw::marked),
                throws: s.throws(),
                counts: vec![Vec::new(); 2],
                ..Canon::default()
            }
        }
    }

    impl Hand for SiryuWar {
        fn canon(&self, s: &Self::State) -> Canon {
            let pieces = (0..2)
                .map(|seat| {
                    let (all, locked) = (s.positions(seat), s.locked_positions(seat));
                    (0..64u8)
                        .filter(|&p| all >> p & 1 == 1)
                        .map(|p| (p, locked >> p & 1 == 1))
                        .collect()
                })
                .collect();
            Canon {
                pieces,
                turn: s.turn(),
                pending: s.pending().map(Throw::marked),
                throws: s.throws(),
                counts: vec![Vec::new(); 2],
                ..Canon::default()
            }
        }
    }

    impl Hand for HoumtTaourit {
        fn canon(&self, s: &Self::State) -> Canon {
            use stickdice::games::houmt_taourit::Piece;
            let n = s.seats();
            let (mut pieces, mut counts) = (vec![Vec::new(); n], vec![Vec::new(); n]);
            let (mut out, mut buried) = (vec![0; n], vec![0; n]);
            for (seat, piece) in s.pieces().iter().enumerate() {
                match *piece {
                    Piece::Racing(i) => {
                        pieces[seat].push((i, false));
                        if s.sigs(seat) > 0 {
                            counts[seat].push((i, s.sigs(seat)));
                        }
                    }
                    Piece::Centre(k) => out[seat] = k,
                    Piece::Buried(b) => buried[seat] = b,
                }
            }
            Canon {
                pieces,
                turn: s.turn(),
                pending: None,
                throws: s.throws(),
                counts,
                out: trim(out),
                buried: trim(buried),
                chaser: Some(s.ghoula()),
                chaser_moved: s.ghoula_has_moved(),
            }
        }
    }

    impl Hand for SigWaDuqqan {
        fn canon(&self, s: &Self::State) -> Canon {
            use stickdice::games::sig_wa_duqqan::Piece;
            let n = self.seats();
            let (mut pieces, mut counts) = (vec![Vec::new(); n], vec![Vec::new(); n]);
            let (mut out, mut buried) = (vec![0; n], vec![0; n]);
            for (seat, piece) in s.pieces()[..n].iter().enumerate() {
                match *piece {
                    // Only a sig takes a piece off the start: there it has not moved.
                    Piece::Racing(i) => {
                        pieces[seat].push((i, i == 0));
                        if s.sigs()[seat] > 0 {
                            counts[seat].push((i, s.sigs()[seat]));
                        }
                    }
                    Piece::Arrived(k) => out[seat] = k,
                    Piece::Buried(b) => buried[seat] = b,
                }
            }
            Canon {
                pieces,
                turn: s.turn() as usize,
                pending: None,
                throws: s.throws(),
                counts,
                out: trim(out),
                buried: trim(buried),
                chaser: s.ghoula(),
                // The Ghoula starts off the board: its first step puts it on the start.
                chaser_moved: s.ghoula().is_some(),
            }
        }
    }

    fn legal_h<H: Game>(h: &H, s: &H::State) -> Vec<String> {
        let mut out = ActionList::new();
        h.legal_actions(s, &mut out);
        let mut v: Vec<String> = out.iter().map(|a| a.to_string()).collect();
        v.sort();
        v
    }

    fn legal_d(d: &Described, s: &State) -> Vec<String> {
        let mut v: Vec<String> = d.legal_actions(s).iter().map(|a| a.to_string()).collect();
        v.sort();
        v
    }

    /// Both states agree (node, state, and at the end the ranking); panics naming the
    /// game, the node and the difference otherwise.
    fn agree<H: Hand>(h: &H, hs: &H::State, d: &Described, ds: &State, at: &str) {
        let (nh, nd) = (h.node(hs), d.node(ds));
        assert_eq!(nh, nd, "{at}: node differs");
        let (mut ch, mut cd) = (h.canon(hs), canon_described(d, ds));
        if nh == Node::End {
            // Whose turn it would be after the end means nothing: Houmt Taourit's module
            // advances it as after any throw, the engine leaves it.
            (ch.turn, cd.turn) = (0, 0);
        }
        assert_eq!(ch, cd, "{at}: state differs");
        if nh == Node::End {
            let (rh, rd) = (h.ranking(hs).unwrap(), d.ranking(ds).unwrap());
            assert_eq!(rh.places(), rd.places(), "{at}: ranking differs");
        }
    }

    /// Plays `games` games of both in lockstep from `seed`; every `cap_every`-th game
    /// (if not 0) with a random throw cap of 1 to 400 set in both. Returns the number of
    /// nodes compared (successors included).
    pub fn run<H: Hand>(h0: &H, d0: &Described, games: usize, seed: u64, cap_every: usize) -> u64 {
        let mut rng = stickdice::Rng::seed_from_u64(seed);
        let mut nodes = 0u64;
        for game in 0..games {
            let (mut h, mut d) = (h0.clone(), d0.clone());
            if cap_every != 0 && game % cap_every == cap_every - 1 {
                let cap = rng.random_range(1..=400u32).to_string();
                h.set_option("max_throws", &cap).unwrap();
                d.set_options("lockstep", &[("max_throws", &cap)]).unwrap();
            }
            let (mut hs, mut ds) = (h.initial_state(), d.initial_state());
            let mut step = 0usize;
            loop {
                let at = format!("{} game {game} step {step}", d.name());
                agree(&h, &hs, &d, &ds, &at);
                nodes += 1;
                match h.node(&hs) {
                    Node::End => break,
                    Node::Throw(_) => {
                        let (oh, od) = (h.throw_outcomes(), d.sticks().outcomes());
                        let pairs = |o: &[stickdice::Outcome]| -> Vec<(u8, u64)> {
                            o.iter()
                                .map(|o| (o.throw.marked(), o.probability.to_bits()))
                                .collect()
                        };
                        assert_eq!(pairs(oh), pairs(od), "{at}: chance outcomes differ");
                        for o in oh {
                            let (mut h2, mut d2) = (hs, ds);
                            h.apply_throw(&mut h2, o.throw).unwrap();
                            d.apply_throw_unchecked(&mut d2, o.throw);
                            let at2 = format!("{at} throw {}", o.throw.marked());
                            agree(&h, &h2, &d, &d2, &at2);
                            nodes += 1;
                        }
                        let t = h.sample_throw(&mut rng);
                        h.apply_throw(&mut hs, t).unwrap();
                        d.apply_throw_unchecked(&mut ds, t);
                    }
                    Node::Decide(_) => {
                        let (lh, ld) = (legal_h(&h, &hs), legal_d(&d, &ds));
                        assert_eq!(lh, ld, "{at}: legal actions differ");
                        for a in &lh {
                            let (mut h2, mut d2) = (hs, ds);
                            h.apply_action(&mut h2, h.parse_action(a).unwrap()).unwrap();
                            d.apply_action_unchecked(&mut d2, d.parse_action(a).unwrap());
                            agree(&h, &h2, &d, &d2, &format!("{at} action {a}"));
                            nodes += 1;
                        }
                        let a = &lh[rng.random_range(0..lh.len())];
                        h.apply_action(&mut hs, h.parse_action(a).unwrap()).unwrap();
                        d.apply_action_unchecked(&mut ds, d.parse_action(a).unwrap());
                    }
                }
                step += 1;
            }
        }
        nodes
    }

    pub fn games() -> usize {
        std::env::var("LOCKSTEP_GAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2000)
    }

    pub fn issiren() -> (Issiren, Described) {
        (
            Issiren::with_seats(2).unwrap(),
            described("issiren-described"),
        )
    }

    pub fn siryu_war() -> (SiryuWar, Described) {
        (
            SiryuWar::with_seats(2).unwrap(),
            described("siryu-war-described"),
        )
    }

    /// Sig wa Duqqan (Houmt al-Arbah) for `seats` seats, with the rule options given (set
    /// in both).
    pub fn houmt_al_arbah(seats: usize, options: &[(&str, &str)]) -> (SigWaDuqqan, Described) {
        with_options(
            SigWaDuqqan::with_seats(seats).unwrap(),
            "sig-wa-duqqan-described",
            seats,
            options,
        )
    }

    /// Sig wa Duqqan (Houmt Taourit) for `seats` seats, with the rule options given (set
    /// in both).
    pub fn houmt_taourit(seats: usize, options: &[(&str, &str)]) -> (HoumtTaourit, Described) {
        with_options(
            HoumtTaourit::with_seats(seats).unwrap(),
            "sig-wa-duqqan-houmt-taourit-described",
            seats,
            options,
        )
    }

    /// A module and its reference description `name` for `seats` seats, the rule options
    /// given set in both.
    fn with_options<H: Game>(
        mut h: H,
        name: &str,
        seats: usize,
        options: &[(&str, &str)],
    ) -> (H, Described) {
        let mut d = described(name).with_seat_count(seats).unwrap();
        for (k, v) in options {
            h.set_option(k, v).unwrap();
        }
        d.set_options("lockstep", options).unwrap();
        (h, d)
    }
}

#[test]
fn lockstep_issiren_plays_as_its_module() {
    let (h, d) = lockstep::issiren();
    lockstep::run(&h, &d, 200, 37, 10);
}

#[test]
fn lockstep_siryu_war_plays_as_its_module() {
    let (h, d) = lockstep::siryu_war();
    lockstep::run(&h, &d, 200, 37, 10);
}

#[test]
fn lockstep_houmt_taourit_plays_as_its_module() {
    let (h, d) = lockstep::houmt_taourit(2, &[]);
    lockstep::run(&h, &d, 200, 37, 10);
    let (h, d) = lockstep::houmt_taourit(4, &[]);
    lockstep::run(&h, &d, 100, 38, 10);
}

#[test]
fn lockstep_houmt_al_arbah_plays_as_its_module() {
    let (h, d) = lockstep::houmt_al_arbah(2, &[]);
    lockstep::run(&h, &d, 200, 41, 10);
    let (h, d) = lockstep::houmt_al_arbah(5, &[("exact_waiting_square", "true")]);
    lockstep::run(&h, &d, 60, 42, 10);
}

/// The module's rule options are the description's, and play alike.
#[test]
fn lockstep_houmt_taourit_options_play_as_its_module() {
    let options = [
        ("exact_waiting_square", "true"),
        ("rank_by_arrival", "true"),
    ];
    let (h, d) = lockstep::houmt_taourit(3, &options);
    lockstep::run(&h, &d, 40, 39, 10);
}

/// The book's figures (docs/described/lockstep.md): 2 000 games each, or `LOCKSTEP_GAMES`.
#[test]
#[ignore = "the long lockstep run; cargo test --release --test integration described_rules::lockstep -- --ignored --nocapture"]
fn lockstep_long_run() {
    let n = lockstep::games();
    let (h, d) = lockstep::issiren();
    println!(
        "issiren: {n} games, {} nodes agree",
        lockstep::run(&h, &d, n, 2026, 10)
    );
    let (h, d) = lockstep::siryu_war();
    println!(
        "siryu-war: {n} games, {} nodes agree",
        lockstep::run(&h, &d, n, 2026, 10)
    );
    for seats in 2..=4 {
        let (h, d) = lockstep::houmt_taourit(seats, &[]);
        println!(
            "sig-wa-duqqan-houmt-taourit, {seats} seats: {n} games, {} nodes agree",
            lockstep::run(&h, &d, n, 2026, 10)
        );
    }
    let options = [
        ("exact_waiting_square", "true"),
        ("rank_by_arrival", "true"),
    ];
    let (h, d) = lockstep::houmt_taourit(3, &options);
    println!(
        "sig-wa-duqqan-houmt-taourit, 3 seats, both options: {n} games, {} nodes agree",
        lockstep::run(&h, &d, n, 2026, 10)
    );
    for seats in [2, 4, 8] {
        let (h, d) = lockstep::houmt_al_arbah(seats, &[]);
        println!(
            "sig-wa-duqqan, {seats} seats: {n} games, {} nodes agree",
            lockstep::run(&h, &d, n, 2026, 10)
        );
    }
    let (h, d) = lockstep::houmt_al_arbah(3, &[("exact_waiting_square", "true")]);
    println!(
        "sig-wa-duqqan, 3 seats, exact_waiting_square: {n} games, {} nodes agree",
        lockstep::run(&h, &d, n, 2026, 10)
    );
}

/// The lockstep comparison catches a changed rule: a description with one throw's extra
/// throw moved, the colours' sirs swapped, Houmt Taourit's Ghoula driven by 4s, reaching one
/// square less far or carrying only from position 2, or Houmt al-Arbah's driven by nothing
/// from a 0, a 4 leaving the start, six sigs on the waiting square or the Ghoula starting on
/// the board, does not play as its module.
#[test]
fn lockstep_catches_a_changed_rule() {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let (file, text) = stickdice::described::games::reference("issiren-described").unwrap();
    let text = text.replace(
        "again_counts = [0, 1, 4, 6]",
        "again_counts = [0, 1, 4, 5, 6]",
    );
    let d = Described::from_text(file, &text).unwrap();
    let h = stickdice::Issiren::with_seats(2).unwrap();
    assert!(catch_unwind(AssertUnwindSafe(|| lockstep::run(&h, &d, 20, 37, 0))).is_err());
    let (file, text) = stickdice::described::games::reference("siryu-war-described").unwrap();
    let text = text.replace("counts_by_side = [[5], [1]]", "counts_by_side = [[1], [5]]");
    let d = Described::from_text(file, &text).unwrap();
    let h = stickdice::SiryuWar::with_seats(2).unwrap();
    assert!(catch_unwind(AssertUnwindSafe(|| lockstep::run(&h, &d, 20, 37, 0))).is_err());
    let (file, text) =
        stickdice::described::games::reference("sig-wa-duqqan-houmt-taourit-described").unwrap();
    let h = stickdice::games::HoumtTaourit::with_seats(2).unwrap();
    for (from, to) in [
        ("driving_values = [3]", "driving_values = [4]"),
        ("reach = 80", "reach = 79"),
        ("carries_from = 1", "carries_from = 2"),
    ] {
        let d = Described::from_text(file, &text.replace(from, to)).unwrap();
        assert!(
            catch_unwind(AssertUnwindSafe(|| lockstep::run(&h, &d, 20, 37, 0))).is_err(),
            "{to}"
        );
    }
    let (file, text) = stickdice::described::games::reference("sig-wa-duqqan-described").unwrap();
    let h = stickdice::games::SigWaDuqqan::with_seats(2).unwrap();
    for (from, to) in [
        // A 0 thrown from the Ka'aba driving the Ghoula 0 steps instead of 2.
        ("values = [6, 1, 2, 3, 4]", "values = [6, 1, 0, 3, 4]"),
        // A 4 taking a piece off the start as a sig does.
        ("values = [1]\nsteps = 1", "values = [1, 4]\nsteps = 1"),
        ("throws = 7", "throws = 6"),
        ("start = \"off\"", "start = 0"),
    ] {
        assert!(text.contains(from), "{from}");
        let d = Described::from_text(file, &text.replace(from, to)).unwrap();
        assert!(
            catch_unwind(AssertUnwindSafe(|| lockstep::run(&h, &d, 20, 37, 0))).is_err(),
            "{to}"
        );
    }
}
