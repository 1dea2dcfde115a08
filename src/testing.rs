//! The conformance suite every game must pass (always compiled: a game written in another
//! crate tests itself with it, and no build of ours differs from another by a feature).
//!
//! [`conformance`] plays seeded random games of one configured game and checks, at every
//! node, the contract of [`Game`]: exact throw probabilities, well-formed action lists,
//! checked application that accepts exactly the legal actions and leaves the state
//! unchanged otherwise, notation and serde round trips, valid states, the throw cap, and
//! well-formed rankings. [`configurations`] lists a game under every rule option and
//! allowed seat count, so a game's test is one loop:
//!
//! ```
//! use stickdice::{testing, Issiren};
//! for game in testing::configurations::<Issiren>() {
//!     testing::conformance(&game, 3, 1);
//! }
//! ```
//!
//! Failures panic with a message naming the game, the seed and what broke: this module is
//! for tests. It also makes test positions: [`random_game_positions`] (every position of
//! seeded random games) and [`damaged_issiren_state`] (Issiren positions `validate` rejects).

use std::collections::HashSet;

use rand::{RngExt as _, SeedableRng};

use crate::dice::{Throw, MAX_STICKS};
use crate::game::{ActionList, ConfigError, Game, Node, Playouts};

/// Every position of `games` random games of `game` (throw and decision nodes, each game
/// from its initial state up to its end, which is left out), in order: the throws sampled
/// with `rng` and each action drawn uniformly from the legal ones.
pub fn random_game_positions<G: Game>(
    game: &G,
    games: usize,
    rng: &mut crate::Rng,
) -> Vec<G::State> {
    let mut positions = Vec::new();
    let mut legal = ActionList::new();
    for _ in 0..games {
        let mut state = game.initial_state();
        while !game.is_over(&state) {
            positions.push(state);
            match game.node(&state) {
                Node::Throw(_) => {
                    let t = game.sample_throw(rng);
                    game.apply_throw_unchecked(&mut state, t);
                }
                _ => {
                    game.legal_actions(&state, &mut legal);
                    let a = legal[rng.random_range(0..legal.len())];
                    game.apply_action_unchecked(&mut state, a);
                }
            }
        }
    }
    positions
}

/// A damaged Issiren position, of the kinds [`Game::validate`] rejects, for tests of code
/// that must treat any position alike: up to 12 pieces a side, some anywhere in `u8` (off
/// the circuit), some on one square, unmoved or not; bitboards that sometimes disagree with
/// the pieces; a turn of 0, 1 or 2; no throw pending, a throw of six sticks, or an
/// impossible one; and up to 39 throws left before `game`'s cap.
pub fn damaged_issiren_state(
    game: &crate::Issiren,
    rng: &mut crate::Rng,
) -> crate::games::issiren::State {
    use crate::games::issiren::{Piece, State};
    let mut sides: [Vec<Piece>; 2] = Default::default();
    for side in &mut sides {
        for _ in 0..rng.random_range(0..=12) {
            side.push(Piece {
                pos: match rng.random_range(0..8) {
                    0 => rng.random_range(0..=255),
                    1 => 5,
                    _ => rng.random_range(0..72),
                },
                unmoved: rng.random_range(0..4) == 0,
            });
        }
    }
    let position = crate::games::issiren::Position::new(&sides[0], &sides[1]);
    let mut state = State::from_position_unvalidated(&position).expect("at most 12 a side");
    if rng.random_range(0..4) == 0 {
        state.occupied[0] |= rng.random::<u64>() & ((1 << 48) - 1);
        state.occupied[1] |= rng.random::<u64>() & ((1 << 48) - 1);
    }
    state.turn = rng.random_range(0..3);
    state.pending = match rng.random_range(0..9) {
        0 => None,
        1 => Some(Throw::new(rng.random_range(7..=255))),
        g => Some(Throw::new(g - 2)),
    };
    state.throws = game.max_throws() - rng.random_range(0..40);
    state
}

/// The seats `G` allows: its `SEATS`, or for the list's `game-file` slot those of the
/// description selected for it.
fn seat_range<G: Game>() -> (usize, usize) {
    crate::GameKind::ALL
        .iter()
        .find(|k| k.name() == G::NAME)
        .map_or(G::SEATS, |k| k.seat_range())
}

/// Every configuration of `G` worth testing: each allowed seat count, each subset of its
/// yes/no rule options, and the throw cap at its default and at a small value (so capped
/// endings are exercised).
pub fn configurations<G: Game>() -> Vec<G> {
    let (min, max) = seat_range::<G>();
    let base = G::with_seats(min).expect("the fewest seats are allowed");
    let flags: Vec<&str> = G::option_specs()
        .iter()
        .filter(|o| o.type_name() == "bool" && base.clone().set_option(o.name, "true").is_ok())
        .map(|o| o.name)
        .collect();
    let mut out = Vec::new();
    // Seat counts the game refuses within its range (teams need an even count) are left
    // out.
    for seats in (min..=max).filter(|&n| G::with_seats(n).is_ok()) {
        for mask in 0..(1u32 << flags.len()) {
            for cap in [None, Some("40")] {
                let mut g = G::with_seats(seats).expect("seat count in range");
                for (i, f) in flags.iter().enumerate() {
                    let on = if mask & (1 << i) != 0 {
                        "true"
                    } else {
                        "false"
                    };
                    g.set_option(f, on).expect("flag option accepts true/false");
                }
                if let Some(cap) = cap {
                    g.set_option("max_throws", cap)
                        .expect("max_throws is an option of every game");
                }
                out.push(g);
            }
        }
    }
    out
}

fn max_throws<G: Game>(game: &G) -> u32 {
    game.options()
        .iter()
        .find(|(k, _)| *k == "max_throws")
        .and_then(|(_, v)| v.parse().ok())
        .expect("every game has a max_throws option")
}

/// Plays `games` seeded random games of `game` from its initial state and checks the
/// [`Game`] contract at every node.
///
/// # Panics
/// On the first broken rule of the contract, naming the game, seed and node.
pub fn conformance<G: Playouts>(game: &G, games: usize, seed: u64) {
    let ctx = format!("{} {:?}", G::NAME, game.options());
    check_static(game, &ctx);
    let cap = max_throws(game);
    let mut rng = crate::Rng::seed_from_u64(seed);
    let mut seen_actions: Vec<G::Action> = Vec::new();
    for g in 0..games {
        let mut state = game.initial_state();
        let mut nodes = 0u64;
        loop {
            nodes += 1;
            let here = format!("{ctx}, seed {seed}, game {g}, node {nodes}");
            check_state(game, &state, &mut seen_actions, &here);
            assert!(
                game.throws_made(&state) <= cap,
                "{here}: {} throws made, cap {cap}",
                game.throws_made(&state)
            );
            if nodes % 64 == 1 {
                check_play_throws(game, &state, &rng, &here);
            }
            match game.node(&state) {
                Node::Throw(_) => {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw(&mut state, t)
                        .unwrap_or_else(|e| panic!("{here}: throw {t} refused: {e}"));
                }
                Node::Decide(_) => {
                    let mut legal = ActionList::new();
                    game.legal_actions(&state, &mut legal);
                    let mut scratch = ActionList::new();
                    let mut draws = rng.clone();
                    let random =
                        game.random_action(&state, &mut scratch, |len| draws.random_range(0..len));
                    assert!(
                        legal.contains(&random),
                        "{here}: random_action gave {random}, not a legal action"
                    );
                    let a = legal[rng.random_range(0..legal.len())];
                    game.apply_action(&mut state, a)
                        .unwrap_or_else(|e| panic!("{here}: legal action {a} refused: {e}"));
                }
                Node::End => break,
            }
        }
    }
}

/// [`Playouts::play_throws`] makes exactly the throws of the step-by-step loop over
/// [`Game::node`] and [`Game::apply_throw_unchecked`], to the same node and state.
fn check_play_throws<G: Playouts>(game: &G, state: &G::State, rng: &crate::Rng, here: &str) {
    let (mut fast, mut slow) = (*state, *state);
    let (mut rng_fast, mut rng_slow) = (rng.clone(), rng.clone());
    let node = game.play_throws(&mut fast, || game.sample_throw(&mut rng_fast));
    let want = loop {
        match game.node(&slow) {
            Node::Throw(_) => {
                let t = game.sample_throw(&mut rng_slow);
                game.apply_throw_unchecked(&mut slow, t);
            }
            other => break other,
        }
    };
    assert_eq!(node, want, "{here}: play_throws stopped at another node");
    assert_eq!(fast, slow, "{here}: play_throws reached another state");
    assert_eq!(
        rng_fast, rng_slow,
        "{here}: play_throws made another number of throws"
    );
}

fn check_static<G: Game>(game: &G, ctx: &str) {
    let outcomes = game.throw_outcomes();
    let mut total = 0.0;
    let mut throws = HashSet::new();
    for o in outcomes {
        assert!(
            o.probability > 0.0,
            "{ctx}: throw {} has probability {}",
            o.throw,
            o.probability
        );
        assert!(
            throws.insert(o.throw),
            "{ctx}: throw {} listed twice",
            o.throw
        );
        assert_eq!(
            o.throw.to_string().parse::<Throw>().ok(),
            Some(o.throw),
            "{ctx}: throw notation"
        );
        total += o.probability;
    }
    assert_eq!(
        total, 1.0,
        "{ctx}: throw probabilities sum to {total}, not exactly 1"
    );
    assert!(
        game.seats() >= seat_range::<G>().0 && game.seats() <= seat_range::<G>().1,
        "{ctx}: seat count"
    );
    let reread = crate::config::build::<G, String>(
        game.seats(),
        &game
            .options()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>(),
    )
    .unwrap_or_else(|e| panic!("{ctx}: options do not read back: {e}"));
    assert_eq!(&reread, game, "{ctx}: options read back to another game");
    let table: Vec<&str> = G::option_specs().iter().map(|o| o.name).collect();
    let written: Vec<&str> = game.options().iter().map(|(k, _)| *k).collect();
    assert_eq!(
        written, table,
        "{ctx}: options() follows the options' table"
    );
    let fresh = G::with_seats(game.seats()).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    for ((k, v), spec) in fresh.options().iter().zip(G::option_specs()) {
        assert_eq!(
            *v,
            spec.default_value().to_string(),
            "{ctx}: option {k} starts at its table's default"
        );
    }
    let twice = [("max_throws", "40"), ("max_throws", "40")];
    let mut copy = game.clone();
    assert!(
        matches!(copy.set_options(&twice), Err(ConfigError::Repeated { .. })),
        "{ctx}: a repeated option accepted"
    );
    assert_eq!(&copy, game, "{ctx}: a refused repeat changed the game");
    let mut copy = game.clone();
    assert!(
        copy.set_option("no_such_option", "1").is_err(),
        "{ctx}: unknown option accepted"
    );
    assert!(
        copy.set_option("max_throws", "0").is_err(),
        "{ctx}: max_throws=0 accepted"
    );
    assert_eq!(&copy, game, "{ctx}: a refused option changed the game");
    assert!(
        G::with_seats(seat_range::<G>().1 + 1).is_err(),
        "{ctx}: too many seats accepted"
    );
    assert!(
        G::with_seats(seat_range::<G>().0 - 1).is_err(),
        "{ctx}: too few seats accepted"
    );
}

fn check_state<G: Game>(game: &G, state: &G::State, seen: &mut Vec<G::Action>, here: &str) {
    if let Err(e) = game.validate(state) {
        panic!("{here}: a reachable state fails validation: {e}\n{state:?}");
    }
    assert_eq!(
        game.state_key(state),
        game.state_key(&state.clone()),
        "{here}: state key"
    );
    #[cfg(feature = "serde")]
    {
        let json = crate::save_state::<G>(state);
        let back = crate::load_state(game, &json).unwrap_or_else(|e| panic!("{here}: {e}"));
        assert_eq!(&back, state, "{here}: serde round trip");
    }
    let mut legal = ActionList::new();
    game.legal_actions(state, &mut legal);
    let node = game.node(state);
    match node {
        Node::Decide(seat) => {
            assert!(
                seat < game.seats(),
                "{here}: deciding seat {seat} out of range"
            );
            assert!(!legal.is_empty(), "{here}: decision node without actions");
            assert!(
                legal.len() <= G::MAX_ACTIONS,
                "{here}: more than MAX_ACTIONS actions"
            );
            for (i, a) in legal.iter().enumerate() {
                assert!(!legal[..i].contains(a), "{here}: action {a} listed twice");
                let text = a.to_string();
                assert_eq!(
                    game.parse_action(&text).ok(),
                    Some(*a),
                    "{here}: notation `{text}`"
                );
                let mut s = *state;
                game.apply_action(&mut s, *a)
                    .unwrap_or_else(|e| panic!("{here}: listed action {a} refused: {e}"));
                if !seen.contains(a) {
                    seen.push(*a);
                }
            }
            for a in seen.iter().filter(|a| !legal.contains(a)) {
                let mut s = *state;
                assert!(
                    game.apply_action(&mut s, *a).is_err(),
                    "{here}: unlisted action {a} accepted"
                );
                assert_eq!(&s, state, "{here}: refused action {a} changed the state");
            }
            let mut s = *state;
            assert!(
                game.apply_throw(&mut s, Throw::new(0)).is_err(),
                "{here}: throw accepted at a decision"
            );
            assert_eq!(&s, state, "{here}: refused throw changed the state");
            assert!(
                game.ranking(state).is_none(),
                "{here}: ranking before the end"
            );
        }
        Node::Throw(seat) => {
            assert!(
                seat < game.seats(),
                "{here}: throwing seat {seat} out of range"
            );
            assert!(legal.is_empty(), "{here}: actions listed at a throw");
            let mut s = *state;
            let impossible = Throw::new(game.sticks().count() + 1);
            if impossible.marked() <= MAX_STICKS + 1 {
                assert!(
                    game.apply_throw(&mut s, impossible).is_err(),
                    "{here}: impossible throw accepted"
                );
            }
            for a in seen.iter() {
                assert!(
                    game.apply_action(&mut s, *a).is_err(),
                    "{here}: action {a} accepted at a throw"
                );
            }
            assert_eq!(&s, state, "{here}: refused input changed the state");
            assert!(
                game.ranking(state).is_none(),
                "{here}: ranking before the end"
            );
        }
        Node::End => {
            assert!(legal.is_empty(), "{here}: actions listed after the end");
            let ranking = game
                .ranking(state)
                .unwrap_or_else(|| panic!("{here}: ended without a ranking"));
            assert_eq!(ranking.seats(), game.seats(), "{here}: ranking size");
            let total: f64 = ranking.scores().iter().sum();
            assert!(
                (total - game.seats() as f64 / 2.0).abs() < 1e-9,
                "{here}: scores sum to {total}, not half the seats"
            );
            let mut s = *state;
            assert!(
                game.apply_throw(&mut s, Throw::new(0)).is_err(),
                "{here}: throw accepted after the end"
            );
            for a in seen.iter() {
                assert!(
                    game.apply_action(&mut s, *a).is_err(),
                    "{here}: action accepted after the end"
                );
            }
            assert_eq!(&s, state, "{here}: refused input changed an ended game");
        }
    }
}
