//! Property tests over random play (proptest chooses the configuration and the seed):
//! every position stays valid, pieces only disappear by capture or burial, and the final
//! ranking has ties only where the rules (docs/games/) allow them.

use proptest::prelude::*;
use rand::SeedableRng;
use stickdice::games::sig_wa_duqqan;
use stickdice::{testing, ActionList, Game, Issiren, Node, SigElOued, SigWaDuqqan};

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
                match (before.pieces[s], after.pieces[s]) {
                    (Piece::Arrived(a), p) => assert_eq!(p, Piece::Arrived(a), "an arrived piece moved"),
                    (Piece::Buried(b), p) => assert_eq!(p, Piece::Buried(b), "a buried piece came back"),
                    (Piece::Racing(i), Piece::Buried(_)) => {
                        // Buried only by the Ghoula, which reaches idx 1..=14 only.
                        assert!((1..=14).contains(&i), "a piece buried from idx {i}");
                        assert!(after.ghoula.is_some(), "a burial without the Ghoula on the board");
                    }
                    (Piece::Racing(i), Piece::Racing(j)) if j < i => {
                        // Moving back happens only by being carried by the Ghoula.
                        assert!(i <= 14 && after.ghoula.is_some(), "moved back from {i} to {j}");
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
                    let same_burial = matches!((end.pieces[a], end.pieces[b]),
                        (Piece::Buried(x), Piece::Buried(y)) if x == y);
                    let both_racing = end.pieces[a].is_racing() && end.pieces[b].is_racing();
                    prop_assert!(same_burial || (both_racing && at_cap(&game, &end)),
                        "seats {a} and {b} tie without cause: {:?}", end.pieces);
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
    fn sig_el_oued_pieces_go_home_only_by_being_passed(config in 0usize..1000, seed in any::<u64>()) {
        let game: SigElOued = pick(config);
        let n = game.seats();
        let end = random_game(&game, seed, |before, after, _| {
            let mover = before.turn as usize;
            for s in 0..n {
                for p in 0..3 {
                    let (b, a) = (before.pieces[s][p], after.pieces[s][p]);
                    if b == 30 {
                        assert_eq!(a, 30, "a piece left Mecca");
                    } else if s == mover {
                        // The mover's pieces are kept in Mecca-first order; compare as sets.
                        let mut bs = before.pieces[s];
                        let mut afs = after.pieces[s];
                        bs.sort_unstable();
                        afs.sort_unstable();
                        for (x, y) in bs.iter().zip(afs.iter()) {
                            assert!(y >= x, "P{} moved back: {bs:?} -> {afs:?}", s + 1);
                        }
                    } else {
                        assert!(a == b || a == 0, "P{}'s piece moved on another's turn: {b} -> {a}", s + 1);
                        if a == 0 && b != 0 {
                            // Captured by passing: strictly between where the mover was and is.
                            let lo = before.pieces[mover].iter().filter(|&&x| x < 30).min().copied().unwrap_or(0);
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
                    prop_assert!(end.finish_place[a] == 0 && end.finish_place[b] == 0 && at_cap(&game, &end));
                }
            }
        }
        let finished = (0..n).filter(|&s| end.finish_place[s] > 0).count();
        prop_assert!(finished + 1 >= n || at_cap(&game, &end), "ended with {finished} of {n} finished");
    }
}
