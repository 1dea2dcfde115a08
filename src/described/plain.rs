//! Random playouts of the plainest descriptions in one loop: two sides, one piece a square,
//! plain tracks, releases, captures by landing, no chaser, holds, stock, opening or held
//! throws. The loop makes the same draws, actions and states as the rules' step-by-step
//! path ([`Compiled::throw`], [`Compiled::candidates`], [`Compiled::draw`] and applying the
//! drawn action), with every fixed setting of the description read once before the loop
//! instead of tested at every step; the test below compares the two at every node.

use super::compile::{Compiled, Mask, MAX_VALUE, NONE};
use super::engine::{draw_among_counted, members};
use super::format::{Decide, Occupancy, Overshoot};
use super::state::{State, GONE, OFF, UNMOVED};
use crate::play::RandomBits;

/// The fixed settings a plain description's playouts read, taken from [`Compiled`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plain {
    pub(crate) value: [u8; 9],
    /// Bit `m`: the throw of `m` marked sides gives another.
    pub(crate) again: u16,
    /// Per side, bit `m`: the throw of `m` marked sides releases an unmoved piece.
    pub(crate) releases: [u16; 2],
    /// The steps a release moves (0: it unlocks the piece where it stands).
    pub(crate) release_steps: u8,
    pub(crate) priority: bool,
    /// Per side: the squares of enemy pieces it may not land on (every square where it
    /// cannot capture, the enemy's safe squares where it can).
    pub(crate) enemy_bar: [Mask; 2],
    /// Whether any enemy square is barred.
    pub(crate) bars: bool,
    /// Whether a side with no pieces left ends the game (the only end there is).
    pub(crate) no_pieces_ends: bool,
    /// Per (side, position, steps), at [`Compiled::step_index`]: the walk's destination
    /// position and, in the high byte, its square; `NONE` in the low byte where there is
    /// no destination.
    pub(crate) to: Vec<u16>,
}

impl Plain {
    /// The plain settings of a description whose every mechanic this loop covers.
    pub(crate) fn of(c: &Compiled) -> Option<Plain> {
        (Plain::shape(c) && c.store_value.is_none() && !c.end_separated).then(|| Plain::settings(c))
    }

    /// Whether every mechanic of the description but a stock of stored values and the end
    /// when the sides are separated (which [`Plain::of`] also refuses) is one this loop
    /// covers.
    pub(crate) fn shape(c: &Compiled) -> bool {
        let every_walk_plain = c.plain && c.limit == NONE && !c.forks;
        // A walk off the end of the track: no move (or a track with no end).
        let no_overshoot = c.overshoot == Overshoot::Illegal
            || c.dest
                .iter()
                .enumerate()
                .all(|(i, &q)| i & 15 == 0 || q != NONE);
        c.seats == 2
            && c.sides == 2
            && !c.teams
            && c.occupancy == Occupancy::Single
            && c.chaser_table.is_none()
            && c.steering.is_none()
            && c.driving_values == 0
            && !c.any_hold
            && !c.all_first
            && c.opening.is_none()
            && c.decide == Decide::Always
            && every_walk_plain
            && no_overshoot
            && c.pass_own
            && !c.end_all_out
            && c.end_all_in.is_none()
            && !c.end_frozen
            && (c.release_steps as usize) <= MAX_VALUE
            && c.start.iter().flatten().all(|&p| p != OFF)
    }

    /// The settings of a description of [`Plain::shape`].
    pub(crate) fn settings(c: &Compiled) -> Plain {
        let by_marked =
            |f: &dyn Fn(usize) -> bool| (0..9).fold(0u16, |m, k| m | (f(k) as u16) << k);
        let releases = core::array::from_fn(|side| match &c.release_counts {
            Some(per_side) => per_side[side],
            None if c.has_release => by_marked(&|k| c.release_values >> c.table.value[k] & 1 == 1),
            None => 0,
        });
        let enemy_bar = core::array::from_fn(|side| {
            let enemy = 1 - side;
            if !c.capture {
                Mask([u64::MAX; 4])
            } else if let Some(r) = c.safe {
                c.regions[enemy][r as usize]
            } else {
                Mask::default()
            }
        });
        Plain {
            value: c.table.value,
            again: by_marked(&|k| c.table.again[k]),
            releases,
            release_steps: c.release_steps,
            priority: c.release_priority,
            bars: enemy_bar.iter().any(|m| !m.is_empty()),
            enemy_bar,
            no_pieces_ends: c.end_no_pieces,
            to: c
                .dest
                .iter()
                .zip(&c.dest_sq)
                .map(|(&q, &sq)| {
                    if q == NONE {
                        NONE.into()
                    } else {
                        u16::from(q) | u16::from(sq) << 8
                    }
                })
                .collect(),
        }
    }

    /// Whether the loop can play on from the state: no piece off the board (only the
    /// start could put one there, and a plain description starts none there), no seat
    /// beyond the two, nothing held, one piece a square, and each side standing (or the
    /// game over).
    #[inline]
    pub(crate) fn fits(&self, c: &Compiled, s: &State) -> bool {
        // Only a capture can leave a side with no pieces, and the loop tests that there.
        let both_standing = s.alive & c.side_bits[0] != 0 && s.alive & c.side_bits[1] != 0;
        (both_standing || !self.no_pieces_ends || s.ended)
            && s.turn < 2
            && s.alive & !s.on_board == 0
            && !s.spending
            && !s.opening
            && s.out_place[..2] == [0, 0]
            && s.burials[..2] == [0, 0]
            && one_a_square(c, s)
    }

    /// Plays the state to the end as the step-by-step path does: each throw
    /// `bits.throw(rng, sticks)`, each decision a uniformly random legal action drawn
    /// with `bits.index(rng, len)` as [`Compiled::draw`] draws it.
    #[inline(never)]
    pub(crate) fn play_to_end<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        // The pieces by square (piece + 1, 0 for none) instead of the occupancy sets: one
        // look tells own piece, enemy piece (and which, to capture) or none.
        let mut board = [0u8; 256];
        for k in members(s.on_board) {
            board[s.sq[k] as usize] = k as u8 + 1;
        }
        let mut p = Playout {
            board,
            bits: *bits,
            throws: s.throws,
            pending: s.pending,
            ended: s.ended,
            on_board: s.on_board,
            alive: s.alive,
            unmoved: s.unmoved,
            moved: core::array::from_fn(|side| {
                (s.on_board & c.side_bits[side] & !s.unmoved).count_ones() as usize
            }),
            locked: core::array::from_fn(|side| {
                (s.unmoved & s.alive & c.side_bits[side]).count_ones() as usize
            }),
            stride: c.track_len << 4,
            max_throws,
        };
        let mut turn = s.turn;
        // Each seat's turns with its side a constant, so that nothing of the side is
        // looked up at a throw.
        loop {
            let next = if turn == 0 {
                p.step::<0, R>(self, c, s, rng)
            } else {
                p.step::<1, R>(self, c, s, rng)
            };
            match next {
                Some(t) => turn = t,
                None => break,
            }
        }
        (s.on_board, s.alive, s.unmoved) = (p.on_board, p.alive, p.unmoved);
        s.occ = Default::default();
        for side in 0..2 {
            for k in members(s.on_board & c.side_bits[side]) {
                s.occ[side].set(s.sq[k]);
            }
        }
        s.turn = turn;
        s.throws = p.throws;
        s.pending = p.pending;
        s.ended = p.ended;
        *bits = p.bits;
    }
}

/// Whether the occupancy sets are the squares of the two sides' pieces on the board, one
/// piece a square: what the loop's board of pieces by square stands for, and rebuilds.
fn one_a_square(c: &Compiled, s: &State) -> bool {
    let mut occ = [Mask::default(); 2];
    for (side, o) in occ.iter_mut().enumerate() {
        for k in members(s.on_board & c.side_bits[side]) {
            if o.has(s.sq[k]) {
                return false;
            }
            o.set(s.sq[k]);
        }
    }
    occ == s.occ && !occ[0].meets(&occ[1]) && s.on_board & !(c.side_bits[0] | c.side_bits[1]) == 0
}

/// What the loop keeps of the state and the settings between throws.
struct Playout {
    /// Per square: the piece on it, plus one (0: none).
    board: [u8; 256],
    bits: RandomBits,
    throws: u32,
    pending: u8,
    ended: bool,
    on_board: u64,
    alive: u64,
    unmoved: u64,
    /// Per side: the moved pieces on the board, and the unmoved ones (counted as they
    /// change, not at each draw).
    moved: [usize; 2],
    locked: [usize; 2],
    /// The entries of the walks' tables per side.
    stride: usize,
    max_throws: u32,
}

/// A drawn release that unlocks its piece where it stands (no walk): the table entry of no
/// destination, which no drawn walk has (a walk without a destination is not drawn), so it
/// cannot be mistaken for one, whatever the board's squares and the track's positions.
pub(crate) const RELEASED: u16 = NONE as u16;

impl Playout {
    /// Plays the throw of side `SIDE` (and its decision): the next seat to throw, or
    /// `None` at the end.
    #[inline(always)]
    fn step<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        plain: &Plain,
        c: &Compiled,
        s: &mut State,
        rng: &mut R,
    ) -> Option<u8> {
        if self.ended {
            return None;
        }
        let m = if self.pending != GONE {
            self.pending
        } else {
            if self.throws >= self.max_throws {
                return None;
            }
            self.throws = self.throws.saturating_add(1);
            self.bits.throw(rng, c.sticks).marked()
        };
        self.pending = GONE;
        let k = (m & 15).min(8) as usize;
        let v = plain.value[k];
        if v > 0 {
            let own = c.side_bits[SIDE];
            // Every unmoved piece is on the board (`Plain::fits`).
            let releases = plain.releases[SIDE] >> k & 1 == 1;
            let release = if releases { self.unmoved & own } else { 0 };
            let locked = if releases { self.locked[SIDE] } else { 0 };
            let moves = self.on_board & own & !self.unmoved;
            let base = SIDE * self.stride;
            let (board, enemy) = (&self.board, c.side_bits[1 - SIDE]);
            // Piece `j`'s walk of `steps`: its table entry, if it may make it.
            let walk = |j: usize, steps: u8| -> Option<(usize, u16)> {
                let to = plain.to[base + ((s.pos[j] as usize) << 4) + steps as usize];
                if to & 0xff == u16::from(NONE) {
                    return None;
                }
                let sq = (to >> 8) as u8;
                let on = board[sq as usize];
                if on != 0
                    && (enemy >> (on - 1) & 1 == 0 || (plain.bars && plain.enemy_bar[SIDE].has(sq)))
                {
                    return None;
                }
                Some((j, to))
            };
            let steps = plain.release_steps;
            let release_of = |j: usize| {
                if steps == 0 {
                    Some((j, RELEASED))
                } else {
                    walk(j, steps)
                }
            };
            let bits = &mut self.bits;
            let mut index = |len| bits.index(rng, len);
            let moved = self.moved[SIDE];
            let drawn = if plain.priority {
                draw_among_counted(release, locked, &mut index, release_of)
                    .or_else(|| draw_among_counted(moves, moved, &mut index, |j| walk(j, v)))
            } else {
                draw_among_counted(release | moves, locked + moved, &mut index, |j| {
                    if release >> j & 1 == 1 {
                        release_of(j)
                    } else {
                        walk(j, v)
                    }
                })
            };
            match drawn {
                None => {}
                Some((j, RELEASED)) => {
                    s.flags[j] &= !UNMOVED;
                    self.unmoved &= !(1u64 << j);
                    self.locked[SIDE] -= 1;
                    self.moved[SIDE] += 1;
                }
                Some((j, to)) => self.move_to::<SIDE>(plain, c, s, j, to),
            }
        }
        let again = plain.again >> k & 1 == 1;
        Some(if again || self.ended {
            SIDE as u8
        } else {
            1 - SIDE as u8
        })
    }

    /// Moves piece `j` of side `SIDE` to the walk's end `to` (position, and square in the
    /// high byte), capturing the enemy piece there.
    #[inline(always)]
    fn move_to<const SIDE: usize>(
        &mut self,
        plain: &Plain,
        c: &Compiled,
        s: &mut State,
        j: usize,
        to: u16,
    ) {
        let sq = (to >> 8) as u8;
        if self.unmoved >> j & 1 == 1 {
            self.locked[SIDE] -= 1;
            self.moved[SIDE] += 1;
        }
        self.board[s.sq[j] as usize] = 0;
        let on = self.board[sq as usize];
        if on != 0 {
            // An enemy piece: the walk lands only on those it may capture.
            let e = (on - 1) as usize;
            if self.unmoved >> e & 1 == 1 {
                self.locked[1 - SIDE] -= 1;
            } else {
                self.moved[1 - SIDE] -= 1;
            }
            s.pos[e] = GONE;
            s.sq[e] = GONE;
            s.flags[e] = 0;
            s.count[e] = 0;
            let bit = !(1u64 << e);
            self.on_board &= bit;
            self.alive &= bit;
            self.unmoved &= bit;
            s.captures[SIDE] = s.captures[SIDE].saturating_add(1);
            self.ended = plain.no_pieces_ends && self.alive & c.side_bits[1 - SIDE] == 0;
        }
        self.board[sq as usize] = j as u8 + 1;
        s.pos[j] = to as u8;
        s.sq[j] = sq;
        s.flags[j] &= !UNMOVED;
        s.count[j] = 0;
        self.unmoved &= !(1u64 << j);
    }
}

#[cfg(test)]
mod tests {
    use super::super::games::{REFERENCE, SHIPPED};
    use super::super::Described;
    use crate::game::Node;
    use crate::play::RandomBits;
    use rand::{Rng as _, SeedableRng as _};

    /// From nodes all along random games of every plain variant of every shipped and
    /// reference description (and with a throw cap that cuts games short), the one loop
    /// leaves the state, the random bits and the generator exactly as the step-by-step path
    /// does; and the plainest games do take the loop.
    #[test]
    fn the_one_loop_plays_as_the_step_by_step_path() {
        let mut plain = Vec::new();
        let mut starts = 0;
        for &(name, file, text) in SHIPPED.iter().chain(REFERENCE) {
            let game = Described::from_text(file, text).unwrap();
            for (v, g) in Described::variants(&game.base).iter().enumerate() {
                let Some(p) = &g.compiled.plain_playouts else {
                    continue;
                };
                if v == 0 {
                    plain.push(name);
                }
                for (seed, cap) in [(1, g.max_throws), (2, g.max_throws), (3, 40)] {
                    let mut g = g.clone();
                    g.max_throws = cap;
                    let mut rng = crate::Rng::seed_from_u64(seed);
                    let mut bits = RandomBits::new();
                    let mut s = g.initial_state();
                    for step in 0.. {
                        if step % 3 == 0 {
                            assert!(p.fits(&g.compiled, &s), "{name}: {s:?}");
                            let (mut fast, mut fast_bits, mut fast_rng) = (s, bits, rng.clone());
                            p.play_to_end(
                                &g.compiled,
                                &mut fast,
                                &mut fast_bits,
                                &mut fast_rng,
                                cap,
                            );
                            let (mut slow, mut slow_bits, mut slow_rng) = (s, bits, rng.clone());
                            g.play_random_to_end_step_by_step(
                                &mut slow,
                                &mut slow_bits,
                                &mut slow_rng,
                            );
                            assert_eq!(
                                fast, slow,
                                "{name} (variant {v}, seed {seed}, step {step})"
                            );
                            assert_eq!(fast_bits, slow_bits, "{name}");
                            assert_eq!(fast_rng.next_u64(), slow_rng.next_u64(), "{name}");
                            starts += 1;
                        }
                        match g.node(&s) {
                            Node::Throw(_) => {
                                g.apply_throw_unchecked(&mut s, bits.throw(&mut rng, g.sticks()))
                            }
                            Node::Decide(_) => {
                                g.play_drawn_within::<{ Described::BUFFER }>(&mut s, |len| {
                                    bits.index(&mut rng, len)
                                });
                            }
                            Node::End => break,
                        }
                    }
                }
            }
        }
        for name in [
            "sig-mzab",
            "sig-tozeur",
            "kioz",
            "issiren-described",
            "siryu-war-described",
        ] {
            assert!(
                plain.contains(&name),
                "{name} does not take the one loop: {plain:?}"
            );
        }
        assert!(starts > 10_000, "{starts}");
    }
}
