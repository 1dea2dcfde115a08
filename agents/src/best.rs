//! The best-valued of a list of children, in the two ways the agents choose one: the
//! greedy choice with its ties broken at random ([`BestRated`]: the greedy agent, greedy
//! playouts, Issiren's hand-set evaluation's own playout decisions), and the first of
//! the best ([`FirstBest`]: UCB1 selection in MCTS and ISMCTS, the solver's policy).
//!
//! Both are hot paths: the types are plain values on the stack, every method is
//! `#[inline(always)]`, and the comparisons are exactly the ones the loops they replace
//! made (so the same values choose the same child and draw the same numbers).

use rand::RngExt as _;

/// The best-valued of the items offered in turn, ties broken uniformly in the order
/// offered: the k-th item of the best value (k ≥ 2) replaces the choice with chance 1/k
/// (reservoir sampling, one draw `random_range(0..k)` per such tie), so each tied item is
/// chosen with equal chance. An item rated higher than all before is taken without a draw;
/// a NaN value is never taken. The item given to [`BestRated::new`] stands until one is
/// taken.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BestRated<T> {
    item: T,
    value: f64,
    ties: u32,
}

impl<T> BestRated<T> {
    /// Nothing offered yet; `first` (the list's first item) is the choice until one is
    /// taken.
    #[inline(always)]
    pub(crate) fn new(first: T) -> Self {
        BestRated {
            item: first,
            value: f64::NEG_INFINITY,
            ties: 0,
        }
    }

    /// Offers `item`, rated `value`: whether it is taken (better than every item before,
    /// or tied with the best and drawn).
    #[inline(always)]
    pub(crate) fn offer(&mut self, item: T, value: f64, rng: &mut stickdice::Rng) -> bool {
        if value > self.value {
            self.value = value;
            self.item = item;
            self.ties = 1;
            true
        } else if value == self.value {
            self.ties += 1;
            if rng.random_range(0..self.ties) == 0 {
                self.item = item;
                true
            } else {
                false
            }
        } else {
            false
        }
    }

    /// The choice.
    #[inline(always)]
    pub(crate) fn item(self) -> T {
        self.item
    }
}

/// The first of the best-valued items offered in turn: an item is taken only if rated
/// strictly higher than every item before (so ties keep the earliest, and a NaN value is
/// never taken). The item given to [`FirstBest::new`] stands until one is taken.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FirstBest<T> {
    item: T,
    value: f64,
}

impl<T> FirstBest<T> {
    /// Nothing offered yet; `first` is the choice until one is taken.
    #[inline(always)]
    pub(crate) fn new(first: T) -> Self {
        FirstBest {
            item: first,
            value: f64::NEG_INFINITY,
        }
    }

    /// Offers `item`, rated `value`: taken if `value` is above every value before.
    #[inline(always)]
    pub(crate) fn offer(&mut self, item: T, value: f64) {
        if value > self.value {
            self.value = value;
            self.item = item;
        }
    }

    /// The choice.
    #[inline(always)]
    pub(crate) fn item(self) -> T {
        self.item
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt as _, SeedableRng as _};

    use super::{BestRated, FirstBest};

    /// `BestRated` is the loop it replaced, written out: the same choice and the same
    /// generator state afterwards, on lists with many ties, NaNs and infinities.
    #[test]
    fn best_rated_is_the_reservoir_loop() {
        let mut rng = stickdice::Rng::seed_from_u64(7);
        let mut seen = [0u32; 4];
        for n in 1..2_000 {
            let len = 1 + n % 9;
            let values: Vec<f64> = (0..len)
                .map(|_| match rng.random_range(0..12) {
                    0 => f64::NAN,
                    1 => f64::NEG_INFINITY,
                    2 => f64::INFINITY,
                    k => f64::from(k % 3),
                })
                .collect();
            let (mut r1, mut r2) = (
                stickdice::Rng::seed_from_u64(n as u64),
                stickdice::Rng::seed_from_u64(n as u64),
            );
            let mut best = BestRated::new(0);
            let mut taken = Vec::new();
            for (i, &v) in values.iter().enumerate() {
                taken.push(best.offer(i, v, &mut r1));
            }
            // The loop as the greedy agent had it.
            let (mut want, mut best_value, mut ties) = (0, f64::NEG_INFINITY, 0u32);
            let mut want_taken = Vec::new();
            for (i, &v) in values.iter().enumerate() {
                let take = if v > best_value {
                    best_value = v;
                    ties = 1;
                    true
                } else if v == best_value {
                    ties += 1;
                    r2.random_range(0..ties) == 0
                } else {
                    false
                };
                if take {
                    want = i;
                }
                want_taken.push(take);
            }
            assert_eq!(best.item(), want, "{values:?}");
            assert_eq!(taken, want_taken, "{values:?}");
            assert_eq!(r1.random::<u64>(), r2.random::<u64>(), "{values:?}");
            seen[want.min(3)] += 1;
        }
        // Ties were broken in favour of later items too.
        assert!(seen.iter().all(|&k| k > 50), "{seen:?}");
    }

    /// Three tied items are each chosen about a third of the time (12 000 lists, fixed
    /// seed; each count within 5 standard deviations of 4 000, a chance below 10⁻⁵ of
    /// failing for a fair choice).
    #[test]
    fn best_rated_breaks_ties_uniformly() {
        let mut rng = stickdice::Rng::seed_from_u64(11);
        let mut counts = [0u32; 3];
        for _ in 0..12_000 {
            let mut best = BestRated::new(0);
            for (i, v) in [0.5, 0.25, 0.5, 0.5, 0.1].into_iter().enumerate() {
                best.offer(i, v, &mut rng);
            }
            counts[match best.item() {
                0 => 0,
                2 => 1,
                3 => 2,
                other => panic!("{other} is not among the best"),
            }] += 1;
        }
        // sd = sqrt(12000 · 1/3 · 2/3) ≈ 51.6
        assert!(
            counts.iter().all(|&c| c.abs_diff(4_000) < 258),
            "{counts:?}"
        );
    }

    /// `FirstBest` keeps the earliest of equal values, never takes a NaN, and keeps the
    /// first item when nothing beats minus infinity.
    #[test]
    fn first_best_keeps_the_earliest_of_the_best() {
        let pick = |values: &[f64]| {
            let mut best = FirstBest::new(usize::MAX);
            for (i, &v) in values.iter().enumerate() {
                best.offer(i, v);
            }
            best.item()
        };
        assert_eq!(pick(&[0.2, 0.7, 0.7, 0.1]), 1);
        assert_eq!(pick(&[f64::NAN, 0.3, f64::NAN, 0.3]), 1);
        assert_eq!(pick(&[f64::NEG_INFINITY, f64::NAN]), usize::MAX);
        assert_eq!(pick(&[]), usize::MAX);
        assert_eq!(pick(&[f64::NEG_INFINITY, 0.0]), 1);
    }
}
