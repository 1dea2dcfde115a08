//! The inputs of the learned Sig (El Oued Capture) evaluation, from the side of the mover.
//!
//! Seat 1's circuit is seat 0's turned half a turn, and each piece keeps its position on
//! its owner's circuit, so a position reads the same from either seat's side: "own" pieces
//! are the mover's, "enemy" pieces the other seat's, each by its circuit position.
//!
//! | inputs | index | meaning |
//! |---|---|---|
//! | own moved piece at circuit position `p` | `p` (0..23) | one per occupied position |
//! | own unmoved piece at home position `p` | `24 + p` (24..29) | waits for a sig value |
//! | enemy pieces | `30 + …` (30..59) | the same for the other seat |
//! | own pieces left, `n` | `60 + n − 1` | one of six |
//! | enemy pieces left, `n` | `66 + n − 1` | one of six |
//! | what the mover owes | 72..109 | a lead throw (72), a sig of six's bonus throw (73), a sig of twelve's bonus throws, `l` left (`73 + l`), a regular sig (77), a plain value `v` (`77 + v`, `v` = 1..30), the sig value 7 (108) or 13 (109) |
//! | the turn goes on from a regular sig | 110 | |
//! | a plain value `v` lets the mover capture | `111 + v − 1` | `v` = 1..30 (its moved pieces) |
//! | the sig value 1, 7 or 13 lets the mover capture | 141, 142, 143 | (any of its pieces) |
//! | the same for the enemy | 144..176 | |
//!
//! and six dense inputs, exact from the game's chance node (the distribution of one lead
//! throw's move value, its bonus throws included): the chance that the mover captures with
//! its next move value (at a decision, 1 or 0 as the pending value captures or not), the
//! same for the enemy, and for each side the sum and the largest of its pieces' chances of
//! being landed on by the other side's next move value.

use stickdice::games::sig_el_oued_capture::{Pending, State, MAX_VALUE, PIECES};
use stickdice::{Seat, SigElOuedCapture};

use super::{Features, GameNet, LearnedGame, MAX_DENSE};
use crate::threats::sig_el_oued_capture::{capturing_values, chance_of, values_onto};

const ENEMY: usize = 30;
const OWN_COUNT: usize = 60;
const ENEMY_COUNT: usize = 66;
const PENDING: usize = 72;
const GOES_ON: usize = 110;
const OWN_VALUES: usize = 111;
const ENEMY_VALUES: usize = 144;

/// The chance that `attacker`'s next move value lands on each of the other side's pieces:
/// their sum and their largest.
#[inline]
fn exposure(s: &State, attacker: Seat) -> (f32, f32) {
    let mut d = s.positions(attacker ^ 1);
    let (mut sum, mut max) = (0.0f32, 0.0f32);
    while d != 0 {
        let q = d.trailing_zeros();
        d &= d - 1;
        let p = chance_of(values_onto(s, attacker, 1 << q)) as f32;
        sum += p;
        max = max.max(p);
    }
    (sum, max)
}

/// The inputs of `s` from the side of `mover` (0 or 1). Allocates nothing.
#[inline]
pub fn features(s: &State, mover: Seat) -> Features {
    let mover = mover & 1;
    let enemy = mover ^ 1;
    let mut f = Features::new();
    for (side, base) in [(mover, 0usize), (enemy, ENEMY)] {
        let at = s.positions(side);
        let unmoved = s.unmoved_positions(side);
        let mut m = at;
        while m != 0 {
            let p = m.trailing_zeros() as usize;
            m &= m - 1;
            let i = if unmoved & 1 << p != 0 { 24 + p } else { p };
            f.set(base + i);
        }
    }
    let (own, theirs) = (s.count(mover) as usize, s.count(enemy) as usize);
    if (1..=PIECES).contains(&own) {
        f.set(OWN_COUNT + own - 1);
    }
    if (1..=PIECES).contains(&theirs) {
        f.set(ENEMY_COUNT + theirs - 1);
    }
    let pending = s.pending();
    match pending {
        Pending::Lead => f.set(PENDING),
        Pending::SixBonus => f.set(PENDING + 1),
        Pending::TwelveBonus { left, .. } => f.set(PENDING + 1 + usize::from(left.clamp(1, 3))),
        Pending::Sig { .. } => f.set(PENDING + 5),
        Pending::Value { steps, sig: false } if (1..=MAX_VALUE).contains(&steps) => {
            f.set(PENDING + 5 + usize::from(steps));
        }
        Pending::Value {
            steps: 7,
            sig: true,
        } => f.set(PENDING + 36),
        Pending::Value { sig: true, .. } => f.set(PENDING + 37),
        Pending::Value { .. } => {}
    }
    if s.turn_goes_on() {
        f.set(GOES_ON);
    }
    let mine = capturing_values(s, mover);
    let theirs_values = capturing_values(s, enemy);
    for (values, base) in [(mine, OWN_VALUES), (theirs_values, ENEMY_VALUES)] {
        let mut plain = values.0 & ((1u32 << (MAX_VALUE + 1)) - 2);
        while plain != 0 {
            let v = plain.trailing_zeros() as usize;
            plain &= plain - 1;
            f.set(base + v - 1);
        }
        for (k, v) in [1u32, 7, 13].into_iter().enumerate() {
            if values.1 & 1 << v != 0 {
                f.set(base + 30 + k);
            }
        }
    }
    let my_chance = match pending {
        Pending::Sig { .. } => f32::from(u8::from(mine.1 & 1 << 1 != 0)),
        Pending::Value { steps, sig } => {
            let mask = if sig { mine.1 } else { mine.0 };
            f32::from(u8::from(steps <= MAX_VALUE && mask & 1 << steps != 0))
        }
        _ => chance_of(mine) as f32,
    };
    let (own_sum, own_max) = exposure(s, enemy);
    let (their_sum, their_max) = exposure(s, mover);
    let mut dense = [0.0f32; MAX_DENSE];
    dense[..6].copy_from_slice(&[
        my_chance,
        chance_of(theirs_values) as f32,
        own_sum,
        their_sum,
        own_max,
        their_max,
    ]);
    f.set_dense(dense);
    f
}

impl LearnedGame for SigElOuedCapture {
    const FEATURE_SET: u32 = 1;
    const SPARSE_INPUTS: usize = 177;
    const DENSE_INPUTS: usize = 6;

    #[inline]
    fn features(&self, s: &State, mover: Seat) -> Features {
        features(s, mover)
    }

    fn shipped() -> Option<&'static GameNet> {
        static NET: std::sync::OnceLock<GameNet> = std::sync::OnceLock::new();
        Some(super::shipped::<Self>(
            &NET,
            include_bytes!("../../../weights/sig-el-oued-capture.sdw"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stickdice::games::sig_el_oued_capture::{Piece, Position};
    use stickdice::{Game, Throw};

    #[test]
    fn the_start_reads_the_same_from_both_sides() {
        let game = SigElOuedCapture::with_seats(2).unwrap();
        let s = game.initial_state();
        let a = features(&s, 0);
        // Seat 1 to throw at the start: the same inputs.
        let mut pos = Position::from(s);
        pos.turn = 1;
        pos.throws = 3;
        pos.first_turn_over = [true, false];
        let b = features(&State::try_from(pos).unwrap(), 1);
        assert_eq!(a, b);
        // Twelve unmoved pieces, two counts of six, a lead throw due, and the sig values
        // 7 and 13 capture for both (the front piece reaches the enemy's front piece).
        let mut want: Vec<u16> = (24..30).chain(54..60).map(|i| i as u16).collect();
        want.extend([65, 71, 72]);
        let mut got = a.active().to_vec();
        got.retain(|&i| (i as usize) < OWN_VALUES);
        got.sort_unstable();
        assert_eq!(got, want);
        assert!(a.dense()[0] > 0.0 && a.dense()[0] == a.dense()[1]);
        // A plain 3: no capture for the mover at this decision.
        let mut s = s;
        game.apply_throw(&mut s, Throw::new(3)).unwrap();
        let c = features(&s, 0);
        assert!(c.active().contains(&(PENDING as u16 + 5 + 3)));
        assert_eq!(c.dense()[0], 0.0);
    }

    /// A piece one step short of an enemy piece is exposed to the plain values that reach
    /// it: the exposure is the chance of those values.
    #[test]
    fn exposure_is_the_chance_of_the_values_that_land() {
        // P1's moved piece at position 8, P2's at its own position 19 = seat 0's (1,4)?
        // Read the squares off the circuit instead of by hand.
        let p1 = [Piece::moved(8)];
        let p2 = [Piece::moved(14)];
        let s = State::try_from(Position::new(&p1, &p2)).unwrap();
        let (mine, _) = exposure(&s, 0);
        let (plain, sig) = capturing_values(&s, 0);
        assert_eq!(mine, chance_of((plain, sig)) as f32);
        assert!(mine > 0.0);
    }
}
