//! Heuristic evaluation of positions, one implementation per game, shared by the greedy
//! agent, expectimax's leaves and MCTS's greedy playouts.
//!
//! Every evaluation here is built the same way, so that it is on the scale of the final
//! scores ([`stickdice::Ranking::score`]) and exactly equal to them once the game is over:
//!
//! 1. each seat gets a [`SeatStanding`]: already finished (in some order), already out (in
//!    some order), or still racing with a *strength* in `[0, 1]` computed from the game's
//!    features (progress along the track, pieces home, captured or buried, threats);
//! 2. [`pairwise_scores`] turns the standings into, for each pair of seats, the chance
//!    that one ranks above the other (certain when the order is already settled, and
//!    `½ + ½·(strength difference)` between two racing seats), and each seat's estimate is
//!    the average of its chances against the others, ties counting half as in the score.
//!
//! So every estimate lies in `[0, 1]`, the estimates of all seats sum to `seats / 2` as the
//! scores do (with two seats: to 1), and a seat that has already beaten another is credited
//! with that for certain.

use stickdice::{Game, SeatValues, MAX_SEATS};

/// A heuristic estimate of each seat's final score.
pub trait Evaluate: Game {
    /// Each seat's estimated score in `[0, 1]` (the same scale as [`stickdice::Ranking::score`]):
    /// at an ended state exactly the scores; elsewhere an estimate from progress, pieces home
    /// or captured, and threats. Entries past the seat count are 0. Values are bounded by
    /// `[0, 1]`, so searches may prune with those bounds.
    fn evaluate(&self, state: &Self::State) -> SeatValues;
}

/// Where a seat stands, for [`pairwise_scores`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SeatStanding {
    /// Finished (reached the goal); a lower number finished earlier, equal numbers tie.
    Finished(u32),
    /// Out of the race (buried, eliminated); a higher number went out later, which ranks
    /// higher, equal numbers tie.
    Out(u32),
    /// Still racing, with a strength in `[0, 1]` (clamped): the game's estimate of how well
    /// the seat is doing.
    Racing(f64),
}

impl SeatStanding {
    /// The chance that a seat standing as `self` ends above one standing as `other`, ties
    /// counting half. Finished seats rank above racing ones, racing ones above those out.
    pub fn beats(self, other: SeatStanding) -> f64 {
        use SeatStanding::*;
        let order = |a: u32, b: u32| match a.cmp(&b) {
            core::cmp::Ordering::Less => 1.0,
            core::cmp::Ordering::Equal => 0.5,
            core::cmp::Ordering::Greater => 0.0,
        };
        match (self, other) {
            (Finished(a), Finished(b)) => order(a, b),
            (Finished(_), _) => 1.0,
            (_, Finished(_)) => 0.0,
            (Out(a), Out(b)) => order(b, a),
            (Out(_), _) => 0.0,
            (_, Out(_)) => 1.0,
            (Racing(x), Racing(y)) => {
                (0.5 + 0.5 * (x.clamp(0.0, 1.0) - y.clamp(0.0, 1.0))).clamp(0.0, 1.0)
            }
        }
    }
}

/// Each seat's estimated score from the seats' standings: the average over the other seats
/// of [`SeatStanding::beats`]. In `[0, 1]`, summing to `seats / 2`; with one seat, 1.
/// Entries past `standings.len()` are 0.
///
/// # Panics
/// If `standings` is empty or longer than [`MAX_SEATS`].
pub fn pairwise_scores(standings: &[SeatStanding]) -> SeatValues {
    let n = standings.len();
    assert!((1..=MAX_SEATS).contains(&n), "1 to {MAX_SEATS} seats");
    let mut out = [0.0; MAX_SEATS];
    if n == 1 {
        out[0] = 1.0;
        return out;
    }
    for i in 0..n {
        for j in (i + 1)..n {
            let p = standings[i].beats(standings[j]);
            out[i] += p;
            out[j] += 1.0 - p;
        }
    }
    let scale = 1.0 / (n - 1) as f64;
    for v in out.iter_mut().take(n) {
        *v *= scale;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use SeatStanding::*;

    #[test]
    fn settled_orders_are_certain_and_racing_seats_share_by_strength() {
        // P1 finished first, P2 racing strong, P3 racing weak, P4 buried.
        let v = pairwise_scores(&[Finished(0), Racing(0.8), Racing(0.2), Out(0)]);
        // P1 beats all three: 1. P2: 0 + (0.5 + 0.3) + 1 = 1.8 over 3. P3: 0 + 0.2 + 1.
        assert_eq!(v[0], 1.0);
        assert!((v[1] - 1.8 / 3.0).abs() < 1e-15);
        assert!((v[2] - 1.2 / 3.0).abs() < 1e-15);
        assert_eq!(v[3], 0.0);
        assert!((v.iter().sum::<f64>() - 2.0).abs() < 1e-12);
        // Two seats sum to 1; later burial ranks above earlier.
        let v = pairwise_scores(&[Out(3), Out(1)]);
        assert_eq!((v[0], v[1]), (1.0, 0.0));
        let v = pairwise_scores(&[Racing(0.25), Racing(0.75)]);
        assert_eq!((v[0], v[1]), (0.25, 0.75));
    }
}
