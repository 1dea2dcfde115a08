//! The six sticks of Sig (El Oued), one reading for the two games that throw them: Sig (El
//! Oued) (`docs/games/sig-el-oued.md`) and Sig (El Oued Capture) (`docs/games/sig-el-oued-capture.md`, whose throws
//! and names are Sig (El Oued)'s). Here: which counts of polished sides are regular sigs, what
//! a bonus throw is worth, and which sums bonus throws without a regular sig can make. What
//! a throw does (a walk to Mecca, a move on the circuit) stays with each game.

/// Whether a count of polished sides is a regular sig (1 or 5).
#[inline(always)]
pub const fn is_regular_sig(k: u8) -> bool {
    k == 1 || k == 5
}

/// A bonus throw's value: its count, a regular sig counting 1.
#[inline]
pub(crate) const fn bonus_value(k: u8) -> u8 {
    if is_regular_sig(k) {
        1
    } else {
        k
    }
}

/// `BONUS_SUMS[n]`: the sums `n` bonus throws can make (bit `s`), none of them a regular
/// sig (each a count of 0, 2, 3, 4 or 6).
pub(crate) const BONUS_SUMS: [u32; 4] = {
    let vals = [0u32, 2, 3, 4, 6];
    let mut t = [1u32, 0, 0, 0];
    let mut n = 1;
    while n < 4 {
        let mut s = 0;
        while s < 32 {
            if t[n - 1] & (1 << s) != 0 {
                let mut i = 0;
                while i < 5 {
                    t[n] |= 1 << (s + vals[i]);
                    i += 1;
                }
            }
            s += 1;
        }
        n += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bonus_sums_are_the_sums_of_counts_that_are_not_regular_sigs() {
        assert_eq!(BONUS_SUMS[0], 1);
        assert_eq!(BONUS_SUMS[1], 1 | 1 << 2 | 1 << 3 | 1 << 4 | 1 << 6);
        // Two counts of {0, 2, 3, 4, 6}: 0, 2..=10 and 12 (not 1 nor 11).
        assert_eq!(BONUS_SUMS[2], ((1 << 13) - 1) & !(1 << 1) & !(1 << 11));
        // Three counts: 0..=18 but 1 and 17.
        assert_eq!(BONUS_SUMS[3], ((1 << 19) - 1) & !(1 << 1) & !(1 << 17));
        let sigs: Vec<u8> = (0..=6).filter(|&k| is_regular_sig(k)).collect();
        assert_eq!(sigs, [1, 5]);
        let values: Vec<u8> = (0..=6).map(bonus_value).collect();
        assert_eq!(values, [0, 1, 2, 3, 4, 1, 6]);
    }
}
