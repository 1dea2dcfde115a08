//! Random playouts of the plainest descriptions in one loop: two sides, one piece a square,
//! plain tracks, releases, captures by landing, no chaser, holds, stock, opening or held
//! throws. The loop makes the same draws, actions and states as the rules' step-by-step
//! path ([`Compiled::throw`], [`Compiled::candidates`], [`Compiled::draw`] and applying the
//! drawn action), with every fixed setting of the description read once before the loop
//! instead of tested at every step; the test below compares the two at every node.

use super::compile::{Compiled, Mask, MAX_PIECES, MAX_VALUE, NONE};
use super::engine::draw_among;
use super::format::{Decide, Occupancy, Overshoot};
use super::state::{State, GONE, UNMOVED};
use crate::play::RandomBits;

/// The fixed settings a plain description's playouts read, taken from [`Compiled`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plain {
    value: [u8; 9],
    /// Bit `m`: the throw of `m` marked sides gives another.
    again: u16,
    /// Per side, bit `m`: the throw of `m` marked sides releases an unmoved piece.
    releases: [u16; 2],
    /// The steps a release moves (0: it unlocks the piece where it stands).
    release_steps: u8,
    priority: bool,
    /// Whether own pieces block the squares a walk passes over.
    block: bool,
    /// Per side: the squares of enemy pieces it may not land on (every square where it
    /// cannot capture, the enemy's safe squares where it can).
    enemy_bar: [Mask; 2],
    capture: bool,
    /// Whether a side with no pieces left ends the game (the only end there is).
    no_pieces_ends: bool,
    /// The words of occupancy the board needs (1, 2 or 4 of 64 squares).
    words: usize,
}

impl Plain {
    /// The plain settings of a description whose every mechanic this loop covers.
    pub(crate) fn of(c: &Compiled) -> Option<Plain> {
        let every_walk_plain = c.plain && c.limit == NONE && !c.forks;
        // A walk off the end of the track: no move (or a track with no end).
        let no_overshoot = c.overshoot == Overshoot::Illegal
            || c.dest
                .iter()
                .enumerate()
                .all(|(i, &q)| i & 15 == 0 || q != NONE);
        let fits = c.seats == 2
            && c.sides == 2
            && !c.teams
            && c.occupancy == Occupancy::Single
            && c.chaser_table.is_none()
            && c.steering.is_none()
            && c.driving_values == 0
            && c.store_value.is_none()
            && !c.any_hold
            && !c.all_first
            && c.opening.is_none()
            && c.decide == Decide::Always
            && every_walk_plain
            && no_overshoot
            && !c.end_all_out
            && c.end_all_in.is_none()
            && !c.end_separated
            && !c.end_frozen
            && (c.release_steps as usize) <= MAX_VALUE;
        if !fits {
            return None;
        }
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
        Some(Plain {
            value: c.table.value,
            again: by_marked(&|k| c.table.again[k]),
            releases,
            release_steps: c.release_steps,
            priority: c.release_priority,
            block: !c.pass_own,
            enemy_bar,
            capture: c.capture,
            no_pieces_ends: c.end_no_pieces,
            words: match c.board.last().map_or(0, |sq| sq as usize + 1) {
                0..=64 => 1,
                65..=128 => 2,
                _ => 4,
            },
        })
    }

    /// Whether the loop can play on from the state: no piece off the board (only the
    /// start could put one there, and a plain description starts none there), no seat
    /// beyond the two, nothing held, and each side standing (or the game over).
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
    }

    /// Plays the state to the end as the step-by-step path does: each throw
    /// `bits.throw(rng, sticks)`, each decision a uniformly random legal action drawn
    /// with `bits.index(rng, len)` as [`Compiled::draw`] draws it.
    pub(crate) fn play_to_end<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        // The occupancy in as few words as the board needs.
        match self.words {
            1 => self.run::<1, R>(c, s, bits, rng, max_throws),
            2 => self.run::<2, R>(c, s, bits, rng, max_throws),
            _ => self.run::<4, R>(c, s, bits, rng, max_throws),
        }
    }

    #[inline(never)]
    fn run<const W: usize, R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        let sticks = c.sticks;
        let (dest, dest_sq, path) = (&c.dest[..], &c.dest_sq[..], &c.path[..]);
        let words = |m: &Mask| -> [u64; W] { core::array::from_fn(|w| m.0[w]) };
        let bar = [words(&self.enemy_bar[0]), words(&self.enemy_bar[1])];
        let mut occ = [words(&s.occ[0]), words(&s.occ[1])];
        let mut b = *bits;
        let mut turn = s.turn as usize;
        let mut throws = s.throws;
        let mut pending = s.pending;
        let mut ended = s.ended;
        let (mut on_board, mut alive, mut unmoved) = (s.on_board, s.alive, s.unmoved);
        let stride = c.track_len << 4;
        while !ended {
            let m = if pending != GONE {
                pending
            } else {
                if throws >= max_throws {
                    break;
                }
                throws = throws.saturating_add(1);
                b.throw(rng, sticks).marked()
            };
            pending = GONE;
            let k = (m & 15).min(8) as usize;
            let v = self.value[k];
            let side = turn;
            if v > 0 {
                let own_bits = c.side_bits[side];
                let release = if self.releases[side] >> k & 1 == 1 {
                    unmoved & alive & own_bits
                } else {
                    0
                };
                let moves = on_board & own_bits & !unmoved;
                let at = Walks {
                    base: side * stride,
                    dest,
                    dest_sq,
                    path,
                    block: self.block,
                    own: &occ[side],
                    enemy: &occ[1 - side],
                    bar: &bar[side],
                };
                let steps = self.release_steps;
                let mut index = |len| b.index(rng, len);
                let drawn = if self.priority {
                    draw_among(release, &mut index, |j| at.release(&s.pos, j, steps))
                        .or_else(|| draw_among(moves, &mut index, |j| at.walk(&s.pos, j, v)))
                } else {
                    draw_among(release | moves, &mut index, |j| {
                        if release >> j & 1 == 1 {
                            at.release(&s.pos, j, steps)
                        } else {
                            at.walk(&s.pos, j, v)
                        }
                    })
                };
                match drawn {
                    None => {}
                    Some((j, RELEASED)) => {
                        s.flags[j] &= !UNMOVED;
                        unmoved &= !(1u64 << j);
                    }
                    Some((j, i)) => {
                        let to_sq = dest_sq[i];
                        let enemy = 1 - side;
                        let (from, to) = (s.sq[j], to_sq);
                        occ[side][(from >> 6) as usize % W] &= !(1u64 << (from & 63));
                        if self.capture && has(&occ[enemy], to) {
                            let mut set = on_board & c.side_bits[enemy];
                            while set != 0 {
                                let e = set.trailing_zeros() as usize;
                                set &= set - 1;
                                if s.sq[e] == to {
                                    s.pos[e] = GONE;
                                    s.sq[e] = GONE;
                                    s.flags[e] = 0;
                                    s.count[e] = 0;
                                    let bit = !(1u64 << e);
                                    on_board &= bit;
                                    alive &= bit;
                                    unmoved &= bit;
                                    s.captures[side] = s.captures[side].saturating_add(1);
                                }
                            }
                            occ[enemy][(to >> 6) as usize % W] &= !(1u64 << (to & 63));
                            ended = self.no_pieces_ends && alive & c.side_bits[enemy] == 0;
                        }
                        occ[side][(to >> 6) as usize % W] |= 1u64 << (to & 63);
                        s.pos[j] = dest[i];
                        s.sq[j] = to;
                        s.flags[j] &= !UNMOVED;
                        s.count[j] = 0;
                        unmoved &= !(1u64 << j);
                    }
                }
            }
            if !ended && self.again >> k & 1 == 0 {
                turn ^= 1;
            }
        }
        for (side, o) in occ.iter().enumerate() {
            s.occ[side].0[..W].copy_from_slice(o);
        }
        (s.on_board, s.alive, s.unmoved) = (on_board, alive, unmoved);
        s.turn = turn as u8;
        s.throws = throws;
        s.pending = pending;
        s.ended = ended;
        *bits = b;
    }
}

/// Whether square `sq` is in the set of `W` words.
#[inline(always)]
fn has<const W: usize>(m: &[u64; W], sq: u8) -> bool {
    m[(sq >> 6) as usize % W] >> (sq & 63) & 1 == 1
}

/// A drawn release that unlocks its piece where it stands (no walk).
const RELEASED: usize = usize::MAX;

/// The walks of one side at one decision.
struct Walks<'a, const W: usize> {
    /// The side's first index in the walks' tables.
    base: usize,
    dest: &'a [u8],
    dest_sq: &'a [u8],
    path: &'a [Mask],
    block: bool,
    own: &'a [u64; W],
    enemy: &'a [u64; W],
    /// The enemy's squares the side may not land on.
    bar: &'a [u64; W],
}

impl<const W: usize> Walks<'_, W> {
    /// Piece `j` and the table index of its walk of `steps`, if it may make it.
    #[inline(always)]
    fn walk(&self, pos: &[u8; MAX_PIECES], j: usize, steps: u8) -> Option<(usize, usize)> {
        let i = self.base + ((pos[j] as usize) << 4) + steps as usize;
        if self.dest[i] == NONE {
            return None;
        }
        if self.block {
            let over = &self.path[i].0;
            let met = over[..W]
                .iter()
                .zip(self.own)
                .fold(0, |m, (o, w)| m | (o & w));
            if met != 0 {
                return None;
            }
        }
        let sq = self.dest_sq[i];
        let barred = has(self.own, sq) || (has(self.enemy, sq) && has(self.bar, sq));
        (!barred).then_some((j, i))
    }

    /// Piece `j`'s release: a walk of `steps`, or [`RELEASED`] where `steps` is 0.
    #[inline(always)]
    fn release(&self, pos: &[u8; MAX_PIECES], j: usize, steps: u8) -> Option<(usize, usize)> {
        if steps == 0 {
            Some((j, RELEASED))
        } else {
            self.walk(pos, j, steps)
        }
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
