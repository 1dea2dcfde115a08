//! The inputs of the learned Siryu (War) evaluation, from the side of the mover.
//!
//! Seat 1's circuit is seat 0's turned half a turn, so a position reads the same from
//! either side by circuit positions; the throws are read in the mover's colours (`w`
//! white sides for seat 0, `6 − w` for seat 1: its own colour sir is always 5, the other
//! side's 1, and the values 6, 5, 0, 3, 0, 5, 6 and their chances are the same both ways).
//!
//! | inputs | index | meaning |
//! |---|---|---|
//! | own locked piece at home position `p` | `p` (0..11) | waits for a sir in its colour |
//! | own unlocked piece at circuit position `p` | `12 + p` (12..47) | |
//! | enemy pieces | `48 + …` (48..95) | the same for the other seat |
//! | own pieces left, `n` | `96 + n − 1` | one of twelve |
//! | enemy pieces left, `n` | `108 + n − 1` | one of twelve |
//! | throw pending with `w` sides of the mover's colour | `120 + w` | decision nodes only |
//! | a throw of `w` sides of the mover's colour lets it capture | `127 + w` | |
//! | a throw of `w` sides of the enemy's colour lets it capture | `134 + w` | |
//!
//! and six dense inputs, exact from the throw's distribution: the chance that the mover
//! captures with its throw (at a decision, 1 or 0 as the pending throw captures or not), the
//! same for the enemy's next throw, and for each side the sum and the largest of its
//! pieces' chances of being landed on by the other side's next throw.

use stickdice::games::siryu_war::{colour_sir, State, LOOP_START, PIECES};
use stickdice::{Seat, SiryuWar, Sticks};

use super::{Features, GameNet, LearnedGame, MAX_DENSE};

const ENEMY: usize = 48;
const OWN_COUNT: usize = 96;
const ENEMY_COUNT: usize = 108;
const PENDING: usize = 120;
const OWN_THROWS: usize = 127;
const ENEMY_THROWS: usize = 134;

/// A throw's value by white sides up.
const VALUE: [u32; 7] = [6, 5, 0, 3, 0, 5, 6];
const HOME: u64 = 0xFFF;
const LOOP: u64 = 0xFF_FFFF;

/// A throw's chance by white sides up.
fn chance(w: usize) -> f32 {
    Sticks::SIX.probability(w as u8) as f32
}

/// The chance of a throw among `throws` (bit `w`).
fn chance_of(throws: u8) -> f32 {
    (0..7)
        .filter(|w| throws & 1 << w != 0)
        .map(|w| Sticks::SIX.probability(w as u8) as f32)
        .sum()
}

/// `seat`'s throw mask in its own colours (seat 1's `w` white sides read as `6 − w`).
#[inline]
fn in_colours(seat: Seat, throws: u8) -> u8 {
    if seat & 1 == 0 {
        throws & 127
    } else {
        (0..7).fold(0, |m, w| m | ((throws >> w & 1) << (6 - w)))
    }
}

/// Positions of a circuit moved `v` steps on (the home row straight on, the loop round).
#[inline]
fn advanced(mask: u64, v: u32) -> u64 {
    let home = (mask & HOME) << v;
    let l = (mask >> LOOP_START) & LOOP;
    let l = ((l << v) | (l >> (24 - v))) & LOOP;
    home | l << LOOP_START
}

/// Loop positions of one seat's circuit as the other seat's (half a loop on).
#[inline]
fn other_circuit(mask: u64) -> u64 {
    let l = (mask >> LOOP_START) & LOOP;
    (((l >> 12) | (l << 12)) & LOOP) << LOOP_START
}

/// The chance that `attacker`'s next throw lets it land on each of the other side's pieces:
/// their sum and their largest.
#[inline]
fn exposure(s: &State, attacker: Seat) -> (f32, f32) {
    let pieces = s.positions(attacker);
    let locked = s.locked_positions(attacker);
    let targets = other_circuit(s.positions(attacker ^ 1));
    let sir = colour_sir(attacker).map_or(7, |t| t.marked() as usize);
    let mut at = [0.0f32; 36];
    for (w, &v) in VALUE.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let movers = (pieces & !locked) | if w == sir { locked } else { 0 };
        let mut hit = advanced(movers, v) & targets;
        while hit != 0 {
            let q = hit.trailing_zeros() as usize;
            hit &= hit - 1;
            at[q] += chance(w);
        }
    }
    at.iter()
        .fold((0.0, 0.0), |(sum, max), &p| (sum + p, f32::max(max, p)))
}

/// The inputs of `s` from the side of `mover` (0 or 1). Allocates nothing.
#[inline]
pub fn features(s: &State, mover: Seat) -> Features {
    let mover = mover & 1;
    let enemy = mover ^ 1;
    let mut f = Features::new();
    for (side, base) in [(mover, 0usize), (enemy, ENEMY)] {
        let locked = s.locked_positions(side);
        let mut m = s.positions(side);
        while m != 0 {
            let p = m.trailing_zeros() as usize;
            m &= m - 1;
            f.set(base + if locked & 1 << p != 0 { p } else { 12 + p });
        }
    }
    let (own, theirs) = (s.count(mover), s.count(enemy));
    if (1..=PIECES).contains(&own) {
        f.set(OWN_COUNT + own - 1);
    }
    if (1..=PIECES).contains(&theirs) {
        f.set(ENEMY_COUNT + theirs - 1);
    }
    let pending = s
        .pending()
        .map(|t| in_colours(mover, 1 << (t.marked() & 7)));
    if let Some(p) = pending {
        if p != 0 {
            f.set(PENDING + p.trailing_zeros() as usize);
        }
    }
    let mine = in_colours(mover, s.capturing_throws(mover));
    let theirs_throws = in_colours(enemy, s.capturing_throws(enemy));
    for (throws, base) in [(mine, OWN_THROWS), (theirs_throws, ENEMY_THROWS)] {
        for w in 0..7 {
            if throws & 1 << w != 0 {
                f.set(base + w);
            }
        }
    }
    let my_chance = match pending {
        Some(p) => f32::from(u8::from(mine & p != 0)),
        None => chance_of(mine),
    };
    let (own_sum, own_max) = exposure(s, enemy);
    let (their_sum, their_max) = exposure(s, mover);
    let mut dense = [0.0f32; MAX_DENSE];
    dense[..6].copy_from_slice(&[
        my_chance,
        chance_of(theirs_throws),
        own_sum,
        their_sum,
        own_max,
        their_max,
    ]);
    f.set_dense(dense);
    f
}

impl LearnedGame for SiryuWar {
    const FEATURE_SET: u32 = 1;
    const SPARSE_INPUTS: usize = 141;
    const DENSE_INPUTS: usize = 6;

    #[inline]
    fn features(&self, s: &State, mover: Seat) -> Features {
        features(s, mover)
    }

    fn shipped() -> Option<&'static GameNet> {
        static NET: std::sync::OnceLock<GameNet> = std::sync::OnceLock::new();
        Some(super::shipped::<Self>(
            &NET,
            include_bytes!("../../../weights/siryu-war.sdw"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use stickdice::games::siryu_war::{Piece, Position};
    use stickdice::{Game, Throw};

    /// The throws that let a side land on a piece are those `capturing_throws` names, and
    /// the moves the rules make: checked against the game on random positions.
    #[test]
    fn exposure_agrees_with_the_rules() {
        use rand::SeedableRng as _;
        let game = SiryuWar::with_seats(2).unwrap();
        let mut rng = stickdice::Rng::seed_from_u64(3);
        let positions = stickdice::testing::random_game_positions(&game, 10, &mut rng);
        for s in positions {
            for attacker in 0..2 {
                // The union of the throws hitting some piece has the chance of
                // capturing_throws.
                let pieces = s.positions(attacker);
                let locked = s.locked_positions(attacker);
                let targets = other_circuit(s.positions(attacker ^ 1));
                let sir = colour_sir(attacker).unwrap().marked() as usize;
                let mut throws = 0u8;
                for (w, &v) in VALUE.iter().enumerate() {
                    let movers = (pieces & !locked) | if w == sir { locked } else { 0 };
                    if v != 0 && advanced(movers, v) & targets != 0 {
                        throws |= 1 << w;
                    }
                }
                assert_eq!(throws, s.capturing_throws(attacker), "{s:?}");
                let (sum, max) = exposure(&s, attacker);
                assert!(sum >= max && max <= chance_of(throws) + 1e-6);
            }
        }
    }

    #[test]
    fn the_start_reads_the_same_from_both_sides_in_their_colours() {
        let game = SiryuWar::with_seats(2).unwrap();
        let s = game.initial_state();
        let a = features(&s, 0);
        let locked: Vec<Piece> = (0..12)
            .map(|c| Piece::locked(format!("{}4", (b'a' + c) as char).parse().unwrap()))
            .collect();
        let home: Vec<Piece> = (0..12)
            .map(|c| Piece::locked(format!("{}1", (b'a' + c) as char).parse().unwrap()))
            .collect();
        let b = features(
            &State::try_from(Position {
                turn: 1,
                ..Position::new(&home, &locked)
            })
            .unwrap(),
            1,
        );
        assert_eq!(a, b);
        assert_eq!(a.active().len(), 26);
        // Seat 0's colour sir and seat 1's: the same input, each in its own colours.
        let mut s0 = s;
        game.apply_throw(&mut s0, Throw::new(5)).unwrap();
        let s1 = State::try_from(Position {
            turn: 1,
            pending: Some(Throw::new(1)),
            throws: 1,
            ..Position::new(&home, &locked)
        })
        .unwrap();
        let (f0, f1) = (features(&s0, 0), features(&s1, 1));
        assert!(f0.active().contains(&(PENDING as u16 + 5)));
        assert!(f1.active().contains(&(PENDING as u16 + 5)));
    }
}
