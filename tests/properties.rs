//! Property tests over random play (proptest chooses the configuration and the seed):
//! every position stays valid, pieces only disappear by capture or burial, and the final
//! ranking has ties only where the rules (docs/games/) allow them. For the described games,
//! the engine's promises: exact chance, legal actions at every decision, states that
//! survive JSON, notation that reads back, and an end within the throw cap.

use proptest::prelude::*;
use rand::SeedableRng;
use stickdice::games::sig_el_oued_capture::{Pending as CapturePending, SigElOuedCapture};
use stickdice::games::{houmt_taourit, sig_wa_duqqan, siryu_race, HoumtTaourit, SiryuRace};
use stickdice::{testing, ActionList, Game, Issiren, Node, SigElOued, SigWaDuqqan, SiryuWar};

/// Plays one random game, calling `step(before, after, was_throw)` after every event, and
/// returns the final state.
fn random_game<G: Game>(
    game: &G,
    seed: u64,
    mut step: impl FnMut(&G::State, &G::State, bool),
) -> G::State {
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let mut state = game.initial_state();
    let mut actions = ActionList::new();
    loop {
        let before = state;
        let was_throw = match game.node(&state) {
            Node::Throw(_) => {
                let t = game.sample_throw(&mut rng);
                game.apply_throw(&mut state, t).unwrap();
                true
            }
            Node::Decide(_) => {
                game.legal_actions(&state, &mut actions);
                let a = actions[rng.random_range(0..actions.len())];
                game.apply_action(&mut state, a).unwrap();
                false
            }
            Node::End => return state,
        };
        if let Err(e) = game.validate(&state) {
            panic!("invalid position after {:?}: {e}", before);
        }
        step(&before, &state, was_throw);
    }
}

fn pick<G: Game>(index: usize) -> G {
    let all = testing::configurations::<G>();
    all[index % all.len()].clone()
}

fn at_cap<G: Game>(game: &G, state: &G::State) -> bool {
    let cap: u32 = game
        .options()
        .iter()
        .find(|(k, _)| *k == "max_throws")
        .unwrap()
        .1
        .parse()
        .unwrap();
    game.throws_made(state) >= cap
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn sig_wa_duqqan_pieces_leave_only_by_burial_or_arrival(config in 0usize..1000, seed in any::<u64>()) {
        use sig_wa_duqqan::Piece;
        let game: SigWaDuqqan = pick(config);
        let n = game.seats();
        let end = random_game(&game, seed, |before, after, _| {
            for s in 0..n {
                match (before.pieces()[s], after.pieces()[s]) {
                    (Piece::Arrived(a), p) => assert_eq!(p, Piece::Arrived(a), "an arrived piece moved"),
                    (Piece::Buried(b), p) => assert_eq!(p, Piece::Buried(b), "a buried piece came back"),
                    (Piece::Racing(i), Piece::Buried(_)) => {
                        // Buried only by the Ghoula, which reaches idx 1..=14 only.
                        assert!((1..=14).contains(&i), "a piece buried from idx {i}");
                        assert!(after.ghoula().is_some(), "a burial without the Ghoula on the board");
                    }
                    (Piece::Racing(i), Piece::Racing(j)) if j < i => {
                        // Moving back happens only by being carried by the Ghoula.
                        assert!(i <= 14 && after.ghoula().is_some(), "moved back from {i} to {j}");
                    }
                    _ => {}
                }
            }
        });
        let ranking = game.ranking(&end).unwrap();
        for a in 0..n {
            for b in 0..n {
                if a != b && ranking.place(a) == ranking.place(b) {
                    // Ties: both buried by the same step, or both still racing at the cap.
                    let same_burial = matches!((end.pieces()[a], end.pieces()[b]),
                        (Piece::Buried(x), Piece::Buried(y)) if x == y);
                    let both_racing = end.pieces()[a].is_racing() && end.pieces()[b].is_racing();
                    prop_assert!(same_burial || (both_racing && at_cap(&game, &end)),
                        "seats {a} and {b} tie without cause: {:?}", end.pieces());
                }
            }
        }
    }

    #[test]
    fn issiren_pieces_leave_only_by_capture(seed in any::<u64>(), cap in prop_oneof![Just(10_000u32), 20u32..400]) {
        let mut game = Issiren::with_seats(2).unwrap();
        game.set_option("max_throws", &cap.to_string()).unwrap();
        let end = random_game(&game, seed, |before, after, was_throw| {
            if was_throw {
                assert_eq!(before.count(), after.count(), "a throw removed a piece");
            } else {
                let mover = before.pending().map(|_| before.turn() as usize).unwrap();
                assert_eq!(after.count()[mover], before.count()[mover], "the mover lost a piece");
                assert!(before.count()[1 - mover] - after.count()[1 - mover] <= 1, "more than one capture");
            }
            for seat in 0..2 {
                assert_eq!(after.occupied()[seat].count_ones(), after.count()[seat] as u32);
            }
        });
        let ranking = game.ranking(&end).unwrap();
        if ranking.place(0) == ranking.place(1) {
            prop_assert!(at_cap(&game, &end) && end.count()[0] > 0 && end.count()[1] > 0);
        } else {
            let loser = if ranking.place(0) > ranking.place(1) { 0 } else { 1 };
            prop_assert_eq!(end.count()[loser], 0);
        }
    }

    #[test]
    fn siryu_war_pieces_leave_only_by_capture_and_locked_pieces_only_unlock(seed in any::<u64>(), cap in prop_oneof![Just(10_000u32), 20u32..400]) {
        let mut game = SiryuWar::with_seats(2).unwrap();
        game.set_option("max_throws", &cap.to_string()).unwrap();
        let end = random_game(&game, seed, |before, after, was_throw| {
            if was_throw {
                for seat in 0..2 {
                    assert_eq!(before.positions(seat), after.positions(seat), "a throw moved a piece");
                    assert_eq!(before.locked_positions(seat), after.locked_positions(seat));
                }
                return;
            }
            let mover = before.turn();
            let enemy = 1 - mover;
            let w = before.pending().unwrap();
            assert_eq!(after.count(mover), before.count(mover), "the mover lost a piece");
            assert!(before.count(enemy) - after.count(enemy) <= 1, "more than one capture");
            // The enemy's locked pieces are out of reach, and its other pieces stay put.
            assert_eq!(after.locked_positions(enemy), before.locked_positions(enemy));
            assert_eq!(after.positions(enemy) & !before.positions(enemy), 0, "an enemy piece moved");
            // The mover's locked pieces only unlock, at most one, and only on its colour sir.
            let (lb, la) = (before.locked_positions(mover), after.locked_positions(mover));
            assert_eq!(la & !lb, 0, "a piece was locked again");
            assert!((lb & !la).count_ones() <= 1);
            if lb != la {
                assert_eq!(Some(w), stickdice::games::siryu_war::colour_sir(mover), "unlocked by another throw");
            }
            // At most one piece moved, and not on a 0.
            let moved = (before.positions(mover) & !after.positions(mover)).count_ones();
            assert!(moved <= 1);
            if stickdice::games::siryu_war::throw_value(w) == Some(0) {
                assert_eq!(moved, 0, "a piece moved on a 0");
            }
            // No piece ever stands on the enemy's home row.
            for p in after.pieces(mover) {
                assert_ne!(p.square.row(), if mover == 0 { 3 } else { 0 });
            }
        });
        let ranking = game.ranking(&end).unwrap();
        if ranking.place(0) == ranking.place(1) {
            prop_assert!(at_cap(&game, &end) && end.count(0) > 0 && end.count(1) > 0);
        } else {
            let loser = if ranking.place(0) > ranking.place(1) { 0 } else { 1 };
            prop_assert_eq!(end.count(loser), 0);
        }
    }

    #[test]
    fn sig_el_oued_pieces_go_home_only_by_being_passed(config in 0usize..1000, seed in any::<u64>()) {
        let game: SigElOued = pick(config);
        let n = game.seats();
        let end = random_game(&game, seed, |before, after, _| {
            let mover = before.turn() as usize;
            for s in 0..n {
                for p in 0..3 {
                    let (b, a) = (before.pieces()[s][p], after.pieces()[s][p]);
                    if b == 30 {
                        assert_eq!(a, 30, "a piece left Mecca");
                    } else if s == mover {
                        // The mover's pieces are kept in Mecca-first order; compare as sets.
                        let mut bs = before.pieces()[s];
                        let mut afs = after.pieces()[s];
                        bs.sort_unstable();
                        afs.sort_unstable();
                        for (x, y) in bs.iter().zip(afs.iter()) {
                            assert!(y >= x, "P{} moved back: {bs:?} -> {afs:?}", s + 1);
                        }
                    } else {
                        assert!(a == b || a == 0, "P{}'s piece moved on another's turn: {b} -> {a}", s + 1);
                        if a == 0 && b != 0 {
                            // Captured by passing: strictly between where the mover was and is.
                            let lo = before.pieces()[mover].iter().filter(|&&x| x < 30).min().copied().unwrap_or(0);
                            assert!(b > lo, "a piece at {b} captured by a mover starting at {lo}");
                        }
                    }
                }
            }
        });
        let ranking = game.ranking(&end).unwrap();
        for a in 0..n {
            for b in 0..n {
                if a != b && ranking.place(a) == ranking.place(b) {
                    // Ties only among seats still racing at the throw cap.
                    prop_assert!(end.finish_place()[a] == 0 && end.finish_place()[b] == 0 && at_cap(&game, &end));
                }
            }
        }
        let finished = (0..n).filter(|&s| end.finish_place()[s] > 0).count();
        prop_assert!(finished + 1 >= n || at_cap(&game, &end), "ended with {finished} of {n} finished");
    }

    #[test]
    fn houmt_taourit_pieces_leave_only_by_burial_or_arrival(config in 0usize..1000, seed in any::<u64>()) {
        use houmt_taourit::Piece;
        let game: HoumtTaourit = pick(config);
        let n = game.seats();
        let end = random_game(&game, seed, |before, after, _| {
            let thrower = before.turn();
            // The thrower is never buried by its own throw, and a throw moves back no
            // piece of the thrower's.
            assert!(!matches!(after.piece(thrower), Piece::Buried(_)), "the thrower was buried");
            for s in 0..n {
                match (before.piece(s), after.piece(s)) {
                    (Piece::Centre(a), p) => assert_eq!(p, Piece::Centre(a), "a piece left the centre"),
                    (Piece::Buried(b), p) => assert_eq!(p, Piece::Buried(b), "a buried piece came back"),
                    (Piece::Racing(i), Piece::Buried(_)) => {
                        // Buried only by the Ghoula, which reaches idx 1..=80 only.
                        assert!((1..=80).contains(&i), "a piece buried from idx {i}");
                        assert!(after.ghoula_has_moved());
                    }
                    (Piece::Racing(i), Piece::Racing(j)) if j < i => {
                        // Moving back happens only by being carried by the Ghoula, to its square.
                        assert!(i <= 80 && s != thrower && after.ghoula() == j, "moved back from {i} to {j}");
                    }
                    (Piece::Racing(0), Piece::Racing(j)) if j > 0 && s != thrower => {
                        // Set down after the Ghoula's first move.
                        assert!(!before.ghoula_has_moved() && after.ghoula() == j);
                    }
                    (Piece::Racing(i), Piece::Racing(j)) if j > i => assert_eq!(s, thrower, "moved on another's throw"),
                    _ => {}
                }
            }
            assert!(after.ghoula() <= 80);
        });
        let ranking = game.ranking(&end).unwrap();
        for a in 0..n {
            for b in 0..n {
                let (pa, pb) = (end.piece(a), end.piece(b));
                let group = |p: Piece| match p { Piece::Centre(_) => 0, Piece::Racing(_) => 1, Piece::Buried(_) => 2 };
                if group(pa) < group(pb) {
                    prop_assert!(ranking.place(a) < ranking.place(b));
                }
                if a != b && ranking.place(a) == ranking.place(b) {
                    let tie = match (pa, pb) {
                        (Piece::Centre(_), Piece::Centre(_)) => !game.rank_by_arrival(),
                        (Piece::Buried(x), Piece::Buried(y)) => x == y || !game.rank_by_arrival(),
                        (Piece::Racing(_), Piece::Racing(_)) => at_cap(&game, &end),
                        _ => false,
                    };
                    prop_assert!(tie, "seats {a} and {b} tie without cause: {:?}", end.pieces());
                }
            }
        }
        prop_assert!(end.racing() == 0 || at_cap(&game, &end));
    }

    #[test]
    fn siryu_race_pieces_go_back_only_to_their_start_by_being_sent_back(config in 0usize..1000, seed in any::<u64>()) {
        use siryu_race::{MECCA, STARTS};
        let game: SiryuRace = pick(config);
        let n = game.seats();
        let end = random_game(&game, seed, |before, after, was_throw| {
            if was_throw {
                for s in 0..n {
                    assert_eq!(before.pieces_of(s), after.pieces_of(s), "a throw moved a piece");
                }
                return;
            }
            let mover = before.turn();
            let mut moved = 0;
            for s in 0..n {
                #[allow(clippy::needless_range_loop)] // k indexes three parallel arrays
                for k in 0..3 {
                    let (b, a) = (before.pieces_of(s)[k], after.pieces_of(s)[k]);
                    if b == MECCA {
                        assert_eq!(a, MECCA, "a piece left Mecca");
                    } else if s == mover {
                        assert!(a >= b, "the mover's piece moved back");
                        if a > b || before.sirs_of(s)[k] != after.sirs_of(s)[k] {
                            moved += 1;
                            // A walk is at most 12 steps (the angel's six white), one step on the road.
                            assert!(a - b <= 12 && (b < 27 || a - b <= 1));
                        }
                    } else if a != b {
                        assert_eq!(a, STARTS[k], "P{}'s piece moved on another's decision", s + 1);
                        assert!(b != 12 && b < 25 || game.capture_on_landing(), "sent back from {b}");
                        assert_eq!(after.sirs_of(s)[k], 0);
                    }
                }
            }
            assert!(moved <= 1, "more than one piece moved");
        });
        let ranking = game.ranking(&end).unwrap();
        for a in 0..n {
            for b in 0..n {
                if a != b && ranking.place(a) == ranking.place(b) {
                    prop_assert!(end.place(a) == 0 && end.place(b) == 0 && at_cap(&game, &end));
                }
            }
        }
        prop_assert!(end.finished() + 1 >= n || at_cap(&game, &end));
    }

    #[test]
    fn sig_el_oued_capture_pieces_leave_only_by_capture(config in 0usize..1000, seed in any::<u64>(), cap in prop_oneof![Just(10_000u32), 20u32..300]) {
        let mut game: SigElOuedCapture = pick(config);
        game.set_option("max_throws", &cap.to_string()).unwrap();
        let end = random_game(&game, seed, |before, after, was_throw| {
            if was_throw {
                // A throw moves nothing, and keeps the seat.
                for seat in 0..2 {
                    assert_eq!(before.positions(seat), after.positions(seat), "a throw moved a piece");
                }
                assert_eq!(before.turn(), after.turn());
                assert_eq!(after.throws(), before.throws() + 1);
            } else {
                let mover = before.turn();
                let enemy = 1 - mover;
                assert_eq!(after.count(mover), before.count(mover), "the mover lost a piece");
                // A move captures at most one piece; free_all one per unmoved piece and one
                // more for the first piece's last move.
                let most = match before.pending() {
                    CapturePending::Value { sig: true, .. } => before.unmoved_count(mover) + 1,
                    _ => 1,
                };
                assert!(before.count(enemy) - after.count(enemy) <= most, "too many captures");
                for seat in 0..2 {
                    assert!(after.unmoved_count(seat) <= before.unmoved_count(seat), "a piece became unmoved");
                    assert_eq!(after.occupied(seat).count_ones(), after.count(seat) as u32);
                }
                assert_eq!(after.throws(), before.throws());
                // Only a regular sig keeps the turn (or the game's end).
                let again = matches!(before.pending(), CapturePending::Sig { .. });
                assert_eq!(after.turn() == mover, again || after.count(enemy) == 0, "whose turn it is");
            }
        });
        let ranking = game.ranking(&end).unwrap();
        if ranking.place(0) == ranking.place(1) {
            prop_assert!(at_cap(&game, &end) && end.count(0) > 0 && end.count(1) > 0);
        } else {
            let loser = if ranking.place(0) > ranking.place(1) { 0 } else { 1 };
            prop_assert_eq!(end.count(loser), 0);
        }
    }
}

/// Plays one random game of a described game, checking at every node: the throw
/// distribution sums to exactly 1, a decision has legal actions and each reads back from
/// its notation, applying never fails, the state survives JSON, and the game ends within
/// its throw cap.
fn described_promises<G>(game: &G, seed: u64) -> Result<(), TestCaseError>
where
    G: Game<State = stickdice::described::State, Action = stickdice::described::Action>,
{
    let outcomes = game.throw_outcomes();
    prop_assert!(outcomes.iter().all(|o| o.probability > 0.0));
    prop_assert_eq!(outcomes.iter().map(|o| o.probability).sum::<f64>(), 1.0);
    let cap = game.max_throws();
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let mut state = game.initial_state();
    let mut actions = ActionList::new();
    // A turn is a throw and at most a few decisions; far more events than that is a loop.
    for _ in 0..(cap as usize + 1) * 64 {
        let json = serde_json::to_string(&state).unwrap();
        let back: stickdice::described::State =
            serde_json::from_str(&json).map_err(|e| TestCaseError::fail(format!("{json}: {e}")))?;
        prop_assert_eq!(back, state, "{}", json);
        match game.node(&state) {
            Node::Throw(_) => {
                prop_assert!(game.throws_made(&state) < cap, "a throw past the cap");
                let t = game.sample_throw(&mut rng);
                game.apply_throw(&mut state, t)
                    .map_err(|e| TestCaseError::fail(format!("{t:?}: {e}")))?;
            }
            Node::Decide(_) => {
                game.legal_actions(&state, &mut actions);
                prop_assert!(
                    !actions.is_empty(),
                    "a decision without actions: {:?}",
                    state
                );
                for &a in &actions {
                    let text = a.to_string();
                    prop_assert_eq!(game.parse_action(&text).ok(), Some(a), "{}", text);
                }
                let a = actions[rng.random_range(0..actions.len())];
                game.apply_action(&mut state, a)
                    .map_err(|e| TestCaseError::fail(format!("{a}: {e}")))?;
            }
            Node::End => {
                prop_assert!(game.throws_made(&state) <= cap);
                prop_assert!(game.ranking(&state).is_some());
                return Ok(());
            }
        }
        if let Err(e) = game.validate(&state) {
            return Err(TestCaseError::fail(format!(
                "invalid position {state:?}: {e}"
            )));
        }
    }
    Err(TestCaseError::fail(format!("no end within {cap} throws")))
}

/// A described game's configuration: seats and yes/no options by `config`, each number
/// option at one of its values by `pick`, and the throw cap.
macro_rules! described_config {
    ($ty:ty, $config:expr, $pick:expr, $cap:expr) => {{
        let mut game: $ty = pick($config);
        let options = game.0.base().description().options.clone();
        for (i, (name, o)) in options.iter().enumerate() {
            if o.kind == stickdice::described::format::OptionKind::Int {
                let values: Vec<i64> = if o.values.is_empty() {
                    (o.min.unwrap()..=o.max.unwrap()).collect()
                } else {
                    o.values.clone()
                };
                let v = values[($pick >> (i * 4)) % values.len()];
                game.set_option(name, &v.to_string()).unwrap();
            }
        }
        game.set_option("max_throws", &$cap.to_string()).unwrap();
        game
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn described_games_keep_the_engines_promises(
        which in any::<usize>(),
        config in 0usize..1000,
        pick_values in any::<usize>(),
        cap in prop_oneof![Just(1_000u32), 1u32..300],
        seed in any::<u64>(),
    ) {
        // Every shipped description, one picked per case.
        type Case = fn(usize, usize, u32, u64) -> Result<(), TestCaseError>;
        macro_rules! cases {
            ([] $($variant:ident : $ty:path,)*) => {
                [$(
                    (|config, pick_values, cap, seed| {
                        described_promises(&described_config!($ty, config, pick_values, cap), seed)
                    }) as Case,
                )*]
            };
        }
        let cases = stickdice::for_each_described_game!(cases);
        cases[which % cases.len()](config, pick_values, cap, seed)?;
    }
}
