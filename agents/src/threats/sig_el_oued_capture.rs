//! Sig (El Oued Capture)'s capturing values: the move values with which a side lands on
//! an enemy piece ([`capturing_values`], [`values_onto`]) and the chance that one lead
//! throw gives one of them ([`chance_of`]).

use stickdice::games::sig_el_oued_capture::{
    circuit_square, positions_on, State, CIRCUIT_LEN, MAX_VALUE,
};

/// The chance of each move value one lead throw starts (its bonus throws included, the
/// lead throws a regular sig grants not), in units of 64⁻⁴: `(plain, sig)` by value.
const VALUE_CHANCES: ([u64; 32], [u64; 32]) = {
    let c = [1u64, 6, 15, 20, 15, 6, 1];
    let mut plain = [0u64; 32];
    let mut sig = [0u64; 32];
    let unit = 64 * 64 * 64; // the rest of 64⁻⁴ after the lead throw's 64⁻¹
    plain[2] += c[2] * unit;
    plain[3] += c[3] * unit;
    plain[4] += c[4] * unit;
    sig[1] += (c[1] + c[5]) * unit;
    // A sig of six: one bonus throw.
    let mut b = 0;
    while b <= 6 {
        let p = c[6] * c[b] * 64 * 64;
        if b == 1 || b == 5 {
            sig[7] += p;
        } else {
            plain[6 + b] += p;
        }
        b += 1;
    }
    // A sig of twelve: up to three bonus throws, 13 at the first regular sig.
    let mut b1 = 0;
    while b1 <= 6 {
        let p1 = c[0] * c[b1];
        if b1 == 1 || b1 == 5 {
            sig[13] += p1 * 64 * 64;
        } else {
            let mut b2 = 0;
            while b2 <= 6 {
                let p2 = p1 * c[b2];
                if b2 == 1 || b2 == 5 {
                    sig[13] += p2 * 64;
                } else {
                    let mut b3 = 0;
                    while b3 <= 6 {
                        let p3 = p2 * c[b3];
                        if b3 == 1 || b3 == 5 {
                            sig[13] += p3;
                        } else {
                            plain[12 + b1 + b2 + b3] += p3;
                        }
                        b3 += 1;
                    }
                }
                b2 += 1;
            }
        }
        b1 += 1;
    }
    (plain, sig)
};

/// `x` (24 bits) turned `p` positions back: bit `d` is bit `(p + d) mod 24` of `x`.
#[inline(always)]
fn back(x: u32, p: u32) -> u32 {
    let p = p % CIRCUIT_LEN as u32;
    ((x >> p) | (x << (24 - p))) & 0xff_ffff
}

/// The move values with which `attacker` can capture a piece of the other side, from
/// its moved pieces (any value) and from all its pieces (sig values only): bit `v` of
/// `(plain, sig)`. A landing square with an enemy piece never holds an own one, so
/// every such move is legal.
#[inline]
pub(crate) fn capturing_values(s: &State, attacker: usize) -> (u32, u32) {
    values_onto(s, attacker, s.positions(attacker ^ 1))
}

/// The move values with which `attacker` lands on one of the other side's pieces at
/// the positions `defended` (bits of the other side's circuit), as
/// [`capturing_values`] (which takes all its pieces).
#[inline]
pub(crate) fn values_onto(s: &State, attacker: usize, defended: u32) -> (u32, u32) {
    let defender = attacker ^ 1;
    let mut targets = 0u32;
    let mut d = defended;
    while d != 0 {
        let q = d.trailing_zeros() as u8;
        d &= d - 1;
        if let Some(sq) = circuit_square(defender, q) {
            targets |= positions_on(attacker, sq);
        }
    }
    let unmoved = s.unmoved_positions(attacker);
    let (mut plain, mut sig) = (0u32, 0u32);
    let mut a = s.positions(attacker);
    while a != 0 {
        let p = a.trailing_zeros();
        a &= a - 1;
        let near = back(targets, p);
        // Distances 1..23, and 25..30 for the near ones (a value never exceeds 30).
        let values = (near & !1) | (near & 0x7f) << 24;
        let values = values & ((1u32 << (MAX_VALUE + 1)) - 1);
        sig |= values;
        if unmoved & 1 << p == 0 {
            plain |= values;
        }
    }
    (plain, sig)
}

/// The chance that a move value of one lead throw captures, given the capturing values.
#[inline]
pub(crate) fn chance_of((plain, sig): (u32, u32)) -> f64 {
    let (pc, sc) = &VALUE_CHANCES;
    let mut total = 0u64;
    let mut m = plain;
    while m != 0 {
        let v = m.trailing_zeros() as usize;
        m &= m - 1;
        total += pc[v];
    }
    for v in [1usize, 7, 13] {
        if sig & 1 << v != 0 {
            total += sc[v];
        }
    }
    total as f64 / (1u64 << 24) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use stickdice::{Game as _, SigElOuedCapture};

    /// The value chances sum to one, the sig of twelve's 13 is 1899/4096 of its 1/64,
    /// and the capturing values are those found by trying every value.
    #[test]
    fn the_value_chances_and_capturing_values_follow_the_rules() {
        let (plain, sig) = VALUE_CHANCES;
        let total: u64 = plain.iter().chain(sig.iter()).sum();
        assert_eq!(total, 1 << 24);
        assert_eq!(sig[13], 1899 * 64); // 2^24 / 64 * 1899 / 4096
        use rand::SeedableRng as _;
        let game = SigElOuedCapture::with_seats(2).unwrap();
        let mut rng = stickdice::Rng::seed_from_u64(9);
        let positions = stickdice::testing::random_game_positions(&game, 40, &mut rng);
        for s in positions {
            for attacker in 0..2 {
                let (plain, sig) = capturing_values(&s, attacker);
                let mut want = (0u32, 0u32);
                for p in s.pieces_of(attacker) {
                    for v in 1..=MAX_VALUE {
                        let to = circuit_square(attacker, (p.pos + v) % CIRCUIT_LEN);
                        if to.is_some_and(|q| {
                            s.piece_at(q).is_some_and(|(owner, _)| owner != attacker)
                        }) {
                            want.1 |= 1 << v;
                            if !p.unmoved {
                                want.0 |= 1 << v;
                            }
                        }
                    }
                }
                assert_eq!((plain, sig), want, "{s:?} {attacker}");
            }
        }
    }
}
