//! The inputs of the learned Issiren evaluation, from the side of the seat to throw or to
//! decide (the *mover*).
//!
//! The board is symmetric under the half turn that swaps the seats (seat 1's circuit is
//! seat 0's turned by half a lap), and each piece's position is kept on its owner's
//! circuit, so a position reads the same from either seat's side: "own" pieces are the
//! mover's, "enemy" pieces the other seat's, each by its circuit position.
//!
//! | inputs | index | meaning |
//! |---|---|---|
//! | own moved piece at circuit position `p` | `p` (0..71) | one per occupied position |
//! | own unmoved piece at home position `p` | `72 + p` (72..83) | waits for a throw of four green sides |
//! | enemy pieces | `84 + …` (84..167) | the same for the other seat |
//! | own pieces left, `n` | `168 + n − 1` | one of twelve |
//! | enemy pieces left, `n` | `180 + n − 1` | one of twelve |
//! | throw pending with `g` green sides | `192 + g` | decision nodes only |
//! | a throw moving `v` lets the mover capture | `199 + v − 1` | `v` = 1..6 |
//! | a throw moving `v` lets the enemy capture | `205 + v − 1` | `v` = 1..6 |
//! | endgame: an own piece `k` steps short of an enemy piece's square | `211 + k − 1` | `k` = 1..72, one per pair, both sides at most three pieces |
//! | endgame: an enemy piece `k` steps short of an own piece's square | `283 + k − 1` | the same the other way |
//!
//! and four dense inputs (hand knowledge, cheap from bitboards): the chance that the mover
//! can capture with a throw (over the throw values its pieces hit), the same for the enemy,
//! and the number of enemy and own pieces under attack (quartered).

use stickdice::games::issiren::{circuit_square, State, CIRCUIT_LEN};

use crate::threats::issiren::{attacks, chance_of};

/// Binary inputs.
pub const SPARSE_INPUTS: usize = 355;
/// Real-valued inputs.
pub const DENSE_INPUTS: usize = 4;
/// All inputs.
pub const INPUTS: usize = SPARSE_INPUTS + DENSE_INPUTS;
/// At most this many binary inputs are set: 24 pieces, two counts, one pending throw,
/// twelve capturing values, eighteen endgame pairs.
pub const MAX_ACTIVE: usize = 64;

const ENEMY: usize = 84;
const OWN_COUNT: usize = 168;
const ENEMY_COUNT: usize = 180;
const PENDING: usize = 192;
const OWN_HITS: usize = 199;
const ENEMY_HITS: usize = 205;
const OWN_CHASE: usize = 211;
const ENEMY_CHASE: usize = 283;
/// Pieces a side may have for the endgame pair inputs.
const ENDGAME_PIECES: u8 = 3;

/// `STEPS[seat][pos][square]`: the fewest steps (1..=72) from circuit position `pos` of
/// `seat` to a position on `square` (every square is on every circuit).
static STEPS: [[[u8; 48]; 72]; 2] = {
    let mut t = [[[0u8; 48]; 72]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut pos = 0;
        while pos < 72 {
            let mut k = 72;
            while k >= 1 {
                let to = ((pos + k) % 72) as u8;
                if let Some(sq) = circuit_square(seat, to) {
                    t[seat][pos][sq.index() as usize] = k as u8;
                }
                k -= 1;
            }
            pos += 1;
        }
        seat += 1;
    }
    t
};

/// `PIECE_INPUT[unmoved][pos]`: a piece's input (before the side's offset), its position
/// read mod 72, an unmoved one on the home row (positions 0..11) at `72 + pos`.
static PIECE_INPUT: [[u8; 256]; 2] = {
    let mut t = [[0u8; 256]; 2];
    let mut pos = 0;
    while pos < 256 {
        let p = pos % CIRCUIT_LEN as usize;
        t[0][pos] = p as u8;
        t[1][pos] = if p < 12 { 72 + p as u8 } else { p as u8 };
        pos += 1;
    }
    t
};

/// A position's inputs: the indices of the binary inputs that are set, and the dense ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    pub(crate) active: [u16; MAX_ACTIVE],
    pub(crate) n: usize,
    pub(crate) dense: [f32; DENSE_INPUTS],
}

impl Features {
    /// The binary inputs that are set.
    pub fn active(&self) -> &[u16] {
        &self.active[..self.n]
    }

    /// The dense inputs.
    pub fn dense(&self) -> &[f32; DENSE_INPUTS] {
        &self.dense
    }
}

/// The inputs of `s` from the side of `mover` (0 or 1). Allocates nothing.
#[inline]
pub fn features(s: &State, mover: usize) -> Features {
    let mover = mover & 1;
    let mut f = Features {
        active: [0; MAX_ACTIVE],
        n: 0,
        dense: [0.0; DENSE_INPUTS],
    };
    for (side, base) in [(mover, 0u16), (mover ^ 1, ENEMY as u16)] {
        for p in s.pieces_of(side) {
            f.active[f.n] = base + u16::from(PIECE_INPUT[usize::from(p.unmoved)][p.pos as usize]);
            f.n += 1;
        }
    }
    for (side, base) in [(mover, OWN_COUNT), (mover ^ 1, ENEMY_COUNT)] {
        let c = s.count()[side] as usize;
        if (1..=12).contains(&c) {
            f.active[f.n] = (base + c - 1) as u16;
            f.n += 1;
        }
    }
    if let Some(g) = s.pending() {
        if g.marked() <= 6 {
            f.active[f.n] = (PENDING + g.marked() as usize) as u16;
            f.n += 1;
        }
    }
    if s.count()[mover] <= ENDGAME_PIECES && s.count()[mover ^ 1] <= ENDGAME_PIECES {
        for (from, to, base) in [
            (mover, mover ^ 1, OWN_CHASE),
            (mover ^ 1, mover, ENEMY_CHASE),
        ] {
            let steps = &STEPS[from];
            for a in s.pieces_of(from) {
                let row = &steps[(a.pos % CIRCUIT_LEN) as usize];
                for b in s.pieces_of(to) {
                    if let Some(sq) = circuit_square(to, b.pos % CIRCUIT_LEN) {
                        let k = row[sq.index() as usize] as usize;
                        if (1..=72).contains(&k) && f.n < MAX_ACTIVE {
                            f.active[f.n] = (base + k - 1) as u16;
                            f.n += 1;
                        }
                    }
                }
            }
        }
    }
    let (own_values, own_hits) = attacks(s, mover);
    let (enemy_values, enemy_hits) = attacks(s, mover ^ 1);
    for v in 1..=6 {
        if own_values & (1 << v) != 0 {
            f.active[f.n] = (OWN_HITS + v - 1) as u16;
            f.n += 1;
        }
        if enemy_values & (1 << v) != 0 {
            f.active[f.n] = (ENEMY_HITS + v - 1) as u16;
            f.n += 1;
        }
    }
    f.dense = [
        chance_of(own_values) as f32,
        chance_of(enemy_values) as f32,
        own_hits.count_ones() as f32 * 0.25,
        enemy_hits.count_ones() as f32 * 0.25,
    ];
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use stickdice::{Game, Issiren, Throw};

    /// The piece table gives each piece the input the formula does: its position mod 72, an
    /// unmoved piece on the home row at `72 + pos`.
    #[test]
    fn the_piece_table_is_the_formula() {
        for pos in 0..=255u8 {
            for unmoved in [false, true] {
                let p = (pos % CIRCUIT_LEN) as usize;
                let want = if unmoved && p < 12 { 72 + p } else { p };
                assert_eq!(
                    PIECE_INPUT[usize::from(unmoved)][pos as usize] as usize,
                    want
                );
            }
        }
    }

    #[test]
    fn the_start_reads_the_same_from_both_sides() {
        let game = Issiren::with_seats(2).unwrap();
        let s = game.initial_state();
        let a = features(&s, 0);
        let mut s = s.with_turn(1);
        let b = features(&s, 1);
        // The same inputs (listed in each side's square order).
        let sorted = |f: &Features| {
            let mut v = f.active().to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&a), sorted(&b));
        assert_eq!(a.dense(), b.dense());
        // 24 unmoved pieces, two counts of twelve.
        assert_eq!(a.active().len(), 26);
        assert!(a.active().iter().all(|&i| (i as usize) < SPARSE_INPUTS));
        game.apply_throw(&mut s, Throw::new(4)).unwrap();
        let c = features(&s, 1);
        assert_eq!(c.active().len(), 27);
        assert_eq!(*c.active().last().unwrap() as usize, PENDING + 4);
    }
}
