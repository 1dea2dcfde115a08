//! The inputs of a described game's learned evaluation: generic, read off the description
//! alone (one feature set for every game registered from a description file), from the side
//! of the mover, for two seats on two sides.
//!
//! | inputs | index | meaning |
//! |---|---|---|
//! | own pieces left, `n` | `n` (0..24, more count as 24) | on the board or waiting to enter |
//! | enemy pieces left | 25..49 | the same for the other side |
//! | own locked pieces, `n` | `50 + n` (50..74) | waiting to enter, or unmoved until a release value |
//! | enemy locked pieces | 75..99 | |
//! | what the mover owes | 100..116 | a throw (100), or the pending value `v` (`101 + v`, more than 15 counts as 15) |
//! | own pieces in a stretch of the track | 117..124 | the track cut into eight stretches, one input per stretch holding a piece |
//! | enemy pieces in a stretch | 125..132 | |
//! | own stored throws, `n` | `133 + n` (133..136, more than 3 count as 3) | |
//! | enemy stored throws | 137..140 | |
//!
//! and seven dense inputs: the generic hand-set evaluation's value for the mover
//! ([`crate::described_eval`]), each side's material over its pieces, each side's pieces
//! expected to be lost to the other's next throw over its pieces (exact for the throw
//! table), and each side's mean progress along its track.
//!
//! A learned evaluation reads two seats: with more seats (or teams) the hand-set one is
//! used ([`LearnedGame::learned_applies`]).

use stickdice::described::format::Rank;
use stickdice::described::query::Place;
use stickdice::described::State;
use stickdice::Seat;

use super::{Features, GameNet, LearnedGame, MAX_DENSE};
use crate::described_eval::{self, AsDescribed};

const ENEMY_LEFT: usize = 25;
const OWN_LOCKED: usize = 50;
const ENEMY_LOCKED: usize = 75;
const PENDING: usize = 100;
const OWN_STRETCH: usize = 117;
const ENEMY_STRETCH: usize = 125;
const OWN_STOCK: usize = 133;
const ENEMY_STOCK: usize = 137;
/// The binary inputs.
pub const SPARSE_INPUTS: usize = 141;
/// The real-valued inputs.
pub const DENSE_INPUTS: usize = 7;
/// The most pieces a count input tells apart.
const MOST: usize = 24;

/// The inputs of `s` from the side of `mover`, a game of two seats on two sides. Allocates
/// nothing.
pub fn features<G: AsDescribed>(game: &G, s: &State, mover: Seat) -> Features {
    let d = game.described();
    let n = d.pieces_per_side();
    let len = d.track_len().max(2);
    let own = d.side_of(mover).min(1);
    let mut f = Features::new();
    let mut progress = [0.0f64; 2];
    for (side, left_at, locked_at, stretch_at) in [
        (own, 0, OWN_LOCKED, OWN_STRETCH),
        (1 - own, ENEMY_LEFT, ENEMY_LOCKED, ENEMY_STRETCH),
    ] {
        let (mut left, mut locked, mut stretches) = (0usize, 0usize, 0u8);
        for k in side * n..(side + 1) * n {
            match d.place(s, k) {
                Place::Gone => {}
                Place::Off => {
                    left += 1;
                    locked += 1;
                }
                Place::On { pos, .. } => {
                    left += 1;
                    if d.is_unmoved(s, k) {
                        locked += 1;
                    }
                    let p = usize::from(pos).min(len - 1);
                    stretches |= 1 << (p * 8 / len);
                    progress[usize::from(side != own)] += p as f64 / (len - 1) as f64;
                }
            }
        }
        f.set(left_at + left.min(MOST));
        f.set(locked_at + locked.min(MOST));
        for z in 0..8 {
            if stretches & 1 << z != 0 {
                f.set(stretch_at + z);
            }
        }
    }
    f.set(match d.pending_value(s) {
        None => PENDING,
        Some(v) => PENDING + 1 + usize::from(v.min(15)),
    });
    f.set(OWN_STOCK + (s.stock(own) as usize).min(3));
    f.set(ENEMY_STOCK + (s.stock(1 - own) as usize).min(3));
    let parts = described_eval::parts(d, s, mover);
    let value = match d.rank() {
        Rank::Arrival => described_eval::race(d, s, mover),
        _ => described_eval::capture_of(d, &parts),
    };
    let per = n.max(1) as f64;
    let mut dense = [0.0f32; MAX_DENSE];
    for (x, v) in dense.iter_mut().zip([
        value[mover],
        parts.material[own] / per,
        parts.material[1 - own] / per,
        parts.loss[own] / per,
        parts.loss[1 - own] / per,
        progress[0] / per,
        progress[1] / per,
    ]) {
        *x = v as f32;
    }
    f.set_dense(dense);
    f
}

impl<G: AsDescribed> LearnedGame for G {
    const FEATURE_SET: u32 = 100;
    const SPARSE_INPUTS: usize = SPARSE_INPUTS;
    const DENSE_INPUTS: usize = DENSE_INPUTS;

    #[inline]
    fn features(&self, s: &State, mover: Seat) -> Features {
        features(self, s, mover)
    }

    /// None ship: `stickdice train --game NAME` writes weights, `eval=FILE` reads them.
    fn shipped() -> Option<&'static GameNet> {
        None
    }

    fn learned_applies(&self) -> bool {
        let d = self.described();
        d.seats() == 2 && d.sides() == 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng as _;
    use stickdice::described::games::{Kioz, SigTozeur, Tab};
    use stickdice::{Game, Node};

    /// Over random games: every input index is in range and set once, the dense inputs are
    /// finite and in [0, 12], and the start reads the same from either seat.
    fn in_range<G: AsDescribed + Game<State = State>>(game: &G) {
        let mut rng = stickdice::Rng::seed_from_u64(3);
        let positions = stickdice::testing::random_game_positions(game, 4, &mut rng);
        assert!(positions.len() > 100, "{} positions", positions.len());
        for s in positions {
            let mover = match game.node(&s) {
                Node::Throw(m) | Node::Decide(m) => m,
                Node::End => continue,
            };
            let f = features(game, &s, mover);
            let mut seen = f.active().to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), f.active().len(), "{:?}", f.active());
            assert!(f.active().iter().all(|&i| (i as usize) < SPARSE_INPUTS));
            assert!(f.dense()[..DENSE_INPUTS]
                .iter()
                .all(|x| x.is_finite() && (0.0..=12.0).contains(x)));
            assert!(f.dense()[DENSE_INPUTS..].iter().all(|&x| x == 0.0));
        }
        let s = game.initial_state();
        let (a, b) = (features(game, &s, 0), features(game, &s, 1));
        assert_eq!(a.active(), b.active());
        assert_eq!(a.dense()[1..3], b.dense()[1..3]);
    }

    #[test]
    fn the_features_are_in_range() {
        in_range(&SigTozeur::with_seats(2).unwrap());
        in_range(&Kioz::with_seats(2).unwrap());
        in_range(&Tab::with_seats(2).unwrap());
    }

    /// A network trained a few games writes and reads back as the game's, is refused as
    /// another described game's, and none ships.
    #[test]
    fn a_trained_network_round_trips_per_game() {
        let game = Kioz::with_seats(2).unwrap();
        let config = crate::learned::train::TrainConfig {
            games: 2,
            hidden: 4,
            ..crate::learned::train::TrainConfig::default()
        };
        let never = std::sync::atomic::AtomicBool::new(false);
        let net = super::super::train(
            &game,
            &config,
            None,
            &never,
            |_| {},
            |_| Ok::<(), String>(()),
        )
        .unwrap();
        let bytes = net.to_bytes();
        assert_eq!(GameNet::from_bytes::<Kioz>(&bytes).unwrap(), net);
        let err = GameNet::from_bytes::<Tab>(&bytes).unwrap_err();
        assert!(err.to_string().contains("`kioz`"), "{err}");
        assert!(Kioz::shipped().is_none());
        let v = net.evaluate(&game, &game.initial_state());
        assert!((v[0] + v[1] - 1.0).abs() < 1e-6);
    }
}
