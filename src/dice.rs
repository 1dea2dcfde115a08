//! Stick dice: `n` two-sided sticks thrown together.
//!
//! Every game here throws fair sticks with one *marked* side (white, polished or green,
//! depending on the game) and reads the throw as the **number of marked sides up**. That
//! count `k` has probability `C(n, k) / 2^n`, a dyadic fraction that is exact in an `f64`.
//! What a count is *worth* is a rule of each game, not of the sticks.
//!
//! Sampling is a helper on top of the exact distribution: throwing `n` fair sticks is the
//! same as counting the set bits among `n` uniformly random bits, which is what
//! [`Sticks::throw_from_bits`] does. No rules code ever touches a random number generator.

use core::fmt;
use core::str::FromStr;

/// The largest number of sticks any game here throws.
pub const MAX_STICKS: u8 = 8;

/// The largest number of distinct outcomes of one throw (`MAX_STICKS + 1`).
pub const MAX_THROW_OUTCOMES: usize = MAX_STICKS as usize + 1;

/// One throw of the sticks: the number of marked sides that landed up.
///
/// Its notation is that number in decimal (`"3"`); which counts a game accepts is the
/// game's business ([`crate::Game::check_throw`]).
///
/// ```
/// use stickdice::Throw;
/// let t: Throw = "3".parse().unwrap();
/// assert_eq!((t, t.marked(), t.to_string()), (Throw::new(3), 3, "3".to_string()));
/// assert!("three".parse::<Throw>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Throw(u8);

impl Throw {
    /// The throw in which `marked` sides landed up.
    #[inline]
    pub const fn new(marked: u8) -> Self {
        Throw(marked)
    }

    /// The number of marked sides up.
    #[inline]
    pub const fn marked(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A throw written in notation could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThrowNotationError {
    /// The text that was given.
    pub text: String,
}

impl fmt::Display for ThrowNotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a throw: write the number of marked sides up, 0 to {MAX_STICKS}",
            self.text
        )
    }
}

impl std::error::Error for ThrowNotationError {}

impl FromStr for Throw {
    type Err = ThrowNotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().parse::<u8>() {
            Ok(k) if k <= MAX_STICKS => Ok(Throw(k)),
            _ => Err(ThrowNotationError {
                text: s.to_string(),
            }),
        }
    }
}

/// One possible throw with its exact probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The throw.
    pub throw: Throw,
    /// Its probability, exact (a dyadic fraction).
    pub probability: f64,
}

/// A set of `n` fair two-sided sticks.
///
/// Each stick lands marked side up with probability ½, so a throw of `k` marked sides
/// has probability `C(n, k) / 2^n`, listed exactly by [`Sticks::outcomes`]:
///
/// ```
/// use stickdice::{Game, Issiren, Sticks};
/// let outcomes = Sticks::SIX.outcomes();
/// assert_eq!(outcomes.len(), 7);
/// assert_eq!(outcomes[3].probability, 20.0 / 64.0);
/// assert_eq!(outcomes.iter().map(|o| o.probability).sum::<f64>(), 1.0);
/// // A game's throws are those of its sticks.
/// let game = Issiren::with_seats(2).unwrap();
/// assert_eq!(game.sticks(), Sticks::SIX);
/// assert_eq!(game.throw_outcomes(), outcomes);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sticks {
    count: u8,
}

const fn binomial(n: u8, k: u8) -> u32 {
    let mut num: u32 = 1;
    let mut den: u32 = 1;
    let mut i = 0;
    while i < k {
        num *= (n - i) as u32;
        den *= (i + 1) as u32;
        i += 1;
    }
    num / den
}

const fn outcome_table<const N: usize>(n: u8) -> [Outcome; N] {
    let mut out = [Outcome {
        throw: Throw(0),
        probability: 0.0,
    }; N];
    let total = (1u32 << n) as f64;
    let mut k = 0;
    while k < N {
        out[k] = Outcome {
            throw: Throw(k as u8),
            probability: binomial(n, k as u8) as f64 / total,
        };
        k += 1;
    }
    out
}

/// `MARKED_SIDES[b]`: the number of set bits of `b`, for the up to six stick bits of a throw.
const MARKED_SIDES: [u8; 1 << MAX_STICKS] = {
    let mut t = [0u8; 1 << MAX_STICKS];
    let mut b = 0;
    while b < t.len() {
        t[b] = (b as u64).count_ones() as u8;
        b += 1;
    }
    t
};

static THREE_STICKS: [Outcome; 4] = outcome_table::<4>(3);
static FOUR_STICKS: [Outcome; 5] = outcome_table::<5>(4);
static SIX_STICKS: [Outcome; 7] = outcome_table::<7>(6);
static EIGHT_STICKS: [Outcome; 9] = outcome_table::<9>(8);

impl Sticks {
    /// Four sticks (Sig wa Duqqan).
    pub const FOUR: Sticks = Sticks { count: 4 };
    /// Six sticks (Sig (El Oued), Issiren).
    pub const SIX: Sticks = Sticks { count: 6 };
    /// Three sticks (Sijat El Taba).
    pub const THREE: Sticks = Sticks { count: 3 };
    /// Eight sticks (Sig (Western Sahara)).
    pub const EIGHT: Sticks = Sticks { count: 8 };

    /// The sticks of a count the games use (3, 4, 6 or 8), or `None`.
    pub const fn with_count(count: u8) -> Option<Sticks> {
        match count {
            3 | 4 | 6 | 8 => Some(Sticks { count }),
            _ => None,
        }
    }

    /// The number of sticks.
    #[inline]
    pub const fn count(self) -> u8 {
        self.count
    }

    /// The probability that exactly `marked` sides land up: `C(n, k) / 2^n`, exact.
    /// Zero for a count larger than the number of sticks.
    pub const fn probability(self, marked: u8) -> f64 {
        if marked > self.count {
            return 0.0;
        }
        binomial(self.count, marked) as f64 / (1u32 << self.count) as f64
    }

    /// Every throw with its exact probability, in order of the count (0 first).
    /// Every probability is positive and they sum to exactly 1.
    #[inline]
    pub fn outcomes(self) -> &'static [Outcome] {
        match self.count {
            3 => &THREE_STICKS,
            4 => &FOUR_STICKS,
            6 => &SIX_STICKS,
            _ => &EIGHT_STICKS,
        }
    }

    /// Whether `throw` is a possible throw of these sticks.
    #[inline]
    pub const fn can_show(self, throw: Throw) -> bool {
        throw.0 <= self.count
    }

    /// The throw given by uniformly random bits: the sticks are the low `n` bits, a set bit
    /// a marked side up. With uniform `bits` the result has exactly the distribution of
    /// [`Sticks::outcomes`].
    #[inline]
    pub const fn throw_from_bits(self, bits: u64) -> Throw {
        // A table lookup rather than `count_ones`: without a POPCNT instruction in the
        // target (the default x86-64 target has none) counting bits takes a dozen
        // instructions. `& 63` keeps the index in the table for any stick count.
        let sticks = (bits & ((1u64 << self.count) - 1)) as usize & (MARKED_SIDES.len() - 1);
        Throw(MARKED_SIDES[sticks])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_sticks_match_the_sig_wa_duqqan_table() {
        let p: Vec<f64> = Sticks::FOUR
            .outcomes()
            .iter()
            .map(|o| o.probability)
            .collect();
        assert_eq!(
            p,
            [1.0 / 16.0, 4.0 / 16.0, 6.0 / 16.0, 4.0 / 16.0, 1.0 / 16.0]
        );
    }

    #[test]
    fn six_sticks_are_binomial_over_64() {
        let p: Vec<f64> = Sticks::SIX
            .outcomes()
            .iter()
            .map(|o| o.probability * 64.0)
            .collect();
        assert_eq!(p, [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0]);
        assert_eq!(
            Sticks::SIX
                .outcomes()
                .iter()
                .map(|o| o.probability)
                .sum::<f64>(),
            1.0
        );
    }

    #[test]
    fn throwing_from_bits_enumerates_exactly_the_distribution() {
        for sticks in [Sticks::THREE, Sticks::FOUR, Sticks::SIX, Sticks::EIGHT] {
            let mut counts = [0u32; MAX_THROW_OUTCOMES];
            for bits in 0..(1u64 << sticks.count()) {
                counts[sticks.throw_from_bits(bits).marked() as usize] += 1;
            }
            for o in sticks.outcomes() {
                let p = counts[o.throw.marked() as usize] as f64 / (1u64 << sticks.count()) as f64;
                assert_eq!(p, o.probability);
            }
        }
    }

    #[test]
    fn throw_notation_round_trips_and_rejects_junk() {
        for k in 0..=MAX_STICKS {
            let t = Throw::new(k);
            assert_eq!(t.to_string().parse::<Throw>(), Ok(t));
        }
        assert!("9".parse::<Throw>().is_err());
        assert!("-1".parse::<Throw>().is_err());
        assert!("x".parse::<Throw>().is_err());
    }
}
