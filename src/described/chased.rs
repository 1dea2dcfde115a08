//! Random playouts of chased races in one loop: one piece a seat on a shared track (no
//! capture), pieces released onto it, holding positions, a steered chaser that the seats
//! who got out drive back or forward with its own throws, and the end when every seat is
//! out. The loop makes the same draws, actions and states as the rules' step-by-step path
//! ([`Compiled::throw`], the only action of a seat's choice made at once, and the chaser's
//! direction listed and drawn with `bits.index(rng, 2)` as
//! [`Described::play_drawn_within`](super::Described::play_drawn_within) draws it), with
//! every walk read from tables built once; the test below compares the two at every node.

use super::compile::{Compiled, MAX_VALUE, NONE};
use super::engine::members;
use super::format::{Decide, Occupancy};
use super::state::{State, GONE, OFF, UNMOVED};
use crate::game::MAX_SEATS;
use crate::play::RandomBits;

/// A table entry with no move.
const NO: u16 = NONE as u16;
/// A table entry of a move that counts a throw of a holding position (its low byte is
/// [`OFF`], which no walk ends on).
const HOLD: u16 = OFF as u16;

/// The fixed settings a chased race's playouts read, taken from [`Compiled`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Chased {
    seats: usize,
    /// The track's positions.
    len: usize,
    /// Per marked sides: the seats' values, and the chaser's.
    value: [u8; 9],
    chaser_value: [u8; 9],
    /// Bit `m`: the throw of `m` marked sides gives another (a racing seat's, a driver's).
    again: u16,
    chaser_again: u16,
    /// Per seat, bit `m`: the throw of `m` marked sides releases its unmoved piece.
    releases: [u16; MAX_SEATS],
    /// Where the chaser appears when the first seat gets out.
    appears: u8,
    /// Per (seat, position, value), at `(seat * len + position) << 4 | value`: the move's
    /// end (position, and its square in the high byte), [`HOLD`] where it counts a throw
    /// of a holding position, [`NO`] where there is no move.
    moves: Vec<u16>,
    /// Per (seat, position): the end of the release's walk from it (position and square).
    released: Vec<u16>,
    /// Per seat: the end of the release's walk from off the board.
    enter: [u16; MAX_SEATS],
    /// Per position: the throws a piece held there needs (0: not a holding position).
    need: Vec<u8>,
    /// Per (seat, position): where a held piece goes when its throws are made (position
    /// and square), [`NO`] where it gets out.
    after_hold: Vec<u16>,
    /// Per position: its square, where the chaser carries pieces.
    square: Vec<u8>,
}

impl Chased {
    /// The settings of a description whose every mechanic this loop covers.
    pub(crate) fn of(c: &Compiled) -> Option<Chased> {
        let chaser = c.chaser_table.as_ref()?;
        let fits = c.steering.is_none()
            && c.driving_values == 0
            && !c.teams
            && c.pieces_per_side == 1
            && c.sides == c.seats
            && c.seats <= MAX_SEATS
            && c.occupancy == Occupancy::Shared
            && c.plain
            && !c.forks
            && c.decide == Decide::Choices
            && c.store_value.is_none()
            && !c.all_first
            && c.opening.is_none()
            && c.end_all_out
            && !c.end_no_pieces
            && c.end_all_in.is_none()
            && !c.end_separated
            && !c.end_frozen
            && (1..=MAX_VALUE).contains(&(c.release_steps as usize))
            && c.track_len < OFF as usize
            && c.hold.len() == c.track_len;
        if !fits {
            return None;
        }
        let (seats, len) = (c.seats, c.track_len);
        let by_marked =
            |f: &dyn Fn(usize) -> bool| (0..9).fold(0u16, |m, k| m | (f(k) as u16) << k);
        let entry =
            |side: usize, pos: u8| u16::from(pos) | u16::from(c.square_of[side][pos as usize]) << 8;
        // The end of a walk: with shared squares and plain links nothing on the board
        // changes where a walk ends, so it is read from an empty board.
        let walk = |side: usize, from: u8, steps: u8| {
            let mut end = NO;
            c.walk(&State::EMPTY, side, from, steps, 0, &mut |d| {
                if end == NO {
                    end = entry(side, d.pos);
                }
            });
            end
        };
        let mut moves = vec![NO; seats * len << 4];
        let mut released = vec![NO; seats * len];
        let mut after_hold = vec![NO; seats * len];
        for side in 0..seats {
            for p in 0..len {
                let at = side * len + p;
                let (need, counted) = c.hold[p];
                for v in 1..=MAX_VALUE as u8 {
                    moves[at << 4 | v as usize] = match need {
                        0 => walk(side, p as u8, v),
                        _ if counted == v => HOLD,
                        _ => NO,
                    };
                }
                released[at] = walk(side, p as u8, c.release_steps);
                let to = c.next[side][p].to;
                if to != NONE {
                    after_hold[at] = entry(side, to);
                }
            }
        }
        let releases = core::array::from_fn(|side| match &c.release_counts {
            Some(per_side) => per_side.get(side).copied().unwrap_or(0),
            None => by_marked(&|k| c.release_values >> c.table.value[k] & 1 == 1),
        });
        Some(Chased {
            seats,
            len,
            value: c.table.value,
            chaser_value: chaser.value,
            again: by_marked(&|k| c.table.again[k]),
            chaser_again: by_marked(&|k| chaser.again[k]),
            releases,
            appears: c.chaser_appears,
            moves,
            released,
            enter: core::array::from_fn(|side| {
                if side < seats {
                    walk(side, OFF, c.release_steps)
                } else {
                    NO
                }
            }),
            need: c.hold.iter().map(|&(need, _)| need).collect(),
            after_hold,
            square: c.square_of[0].clone(),
        })
    }

    /// Whether the loop can play on from the state: a seat's turn, no seat buried,
    /// nothing spent or opened, a pending throw (if any) of at most 8 marked sides, the
    /// chaser and every piece on the board on the track, the piece sets and the occupancy
    /// as the pieces give them, and the game ended where every seat is out.
    #[inline]
    pub(crate) fn fits(&self, c: &Compiled, s: &State) -> bool {
        let on_track = |p: u8| (p as usize) < self.len;
        let mut occ = [super::compile::Mask::default(); 2];
        for (side, o) in occ.iter_mut().enumerate() {
            for k in members(s.on_board & c.side_bits[side]) {
                o.set(s.sq[k]);
            }
        }
        (s.turn as usize) < self.seats
            && !s.spending
            && !s.opening
            && (s.pending == GONE || s.pending <= 8)
            && s.buried == 0
            && s.burials == [0; MAX_SEATS]
            && (s.ended || usize::from(s.outs) != self.seats)
            && (s.chaser == GONE || on_track(s.chaser))
            && s.alive & !c.side_bits[..self.seats].iter().fold(0, |m, b| m | b) == 0
            && members(s.on_board).all(|k| on_track(s.pos[k]))
            && s.sets_agree()
            && occ == s.occ
    }

    /// Plays the state to the end as the step-by-step path does: each throw
    /// `bits.throw(rng, sticks)`, a driver's choice of the chaser's direction
    /// `bits.index(rng, 2)`.
    #[inline(never)]
    pub(crate) fn play_to_end<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        // Per position: the pieces on it (bit k for piece k), for the chaser to carry.
        let mut at = [0u8; 256];
        for k in members(s.on_board) {
            at[s.pos[k] as usize] |= 1 << k;
        }
        let mut p = Playout {
            at,
            bits: *bits,
            on_board: s.on_board,
            alive: s.alive,
            unmoved: s.unmoved,
            chaser: s.chaser,
            outs: s.outs,
            ended: s.ended,
        };
        let mut turn = s.turn as usize;
        let mut pending = s.pending;
        let mut throws = s.throws;
        while !p.ended {
            let m = if pending != GONE {
                core::mem::replace(&mut pending, GONE)
            } else {
                if throws >= max_throws {
                    break;
                }
                throws = throws.saturating_add(1);
                p.bits.throw(rng, c.sticks).marked()
            };
            let k = (m & 15).min(8) as usize;
            let again = if s.out_place[turn] != 0 {
                p.drive(self, s, rng, k);
                self.chaser_again >> k & 1 == 1
            } else {
                p.race(self, s, turn, k);
                self.again >> k & 1 == 1
            };
            if !p.ended && !again {
                turn = if turn + 1 == self.seats { 0 } else { turn + 1 };
            }
        }
        (s.on_board, s.alive, s.unmoved) = (p.on_board, p.alive, p.unmoved);
        s.occ = Default::default();
        for side in 0..2.min(self.seats) {
            for k in members(s.on_board & c.side_bits[side]) {
                s.occ[side].set(s.sq[k]);
            }
        }
        s.turn = turn as u8;
        s.pending = pending;
        s.throws = throws;
        s.chaser = p.chaser;
        s.outs = p.outs;
        s.ended = p.ended;
        *bits = p.bits;
    }
}

/// What the loop keeps of the state between throws.
struct Playout {
    at: [u8; 256],
    bits: RandomBits,
    on_board: u64,
    alive: u64,
    unmoved: u64,
    chaser: u8,
    outs: u8,
    ended: bool,
}

impl Playout {
    /// The throw of `k` marked sides of a racing seat: its piece's only action (its
    /// release, its move, a throw counted on a holding position) or none.
    #[inline(always)]
    fn race(&mut self, ch: &Chased, s: &mut State, seat: usize, k: usize) {
        let v = ch.value[k];
        if v == 0 {
            return;
        }
        // One piece a seat: piece `seat`.
        let j = seat;
        let bit = 1u64 << j;
        if self.unmoved & self.alive & bit != 0 {
            if ch.releases[seat] >> k & 1 == 1 {
                let to = if s.pos[j] == OFF {
                    ch.enter[seat]
                } else {
                    ch.released[seat * ch.len + s.pos[j] as usize]
                };
                if to != NO {
                    self.place(s, j, to);
                }
            }
        } else if self.on_board & bit != 0 {
            let p = s.pos[j] as usize;
            let at = seat * ch.len + p;
            match ch.moves[at << 4 | v as usize] {
                NO => {}
                HOLD => self.hold_step(ch, s, seat, j, p, at),
                to => self.place(s, j, to),
            }
        }
    }

    /// Moves piece `j` to `to` (position, and square in the high byte).
    #[inline(always)]
    fn place(&mut self, s: &mut State, j: usize, to: u16) {
        let bit = 1u64 << j;
        if self.on_board & bit != 0 {
            self.at[s.pos[j] as usize] &= !(1 << j);
        }
        let pos = to as u8;
        self.at[pos as usize] |= 1 << j;
        s.pos[j] = pos;
        s.sq[j] = (to >> 8) as u8;
        s.flags[j] &= !UNMOVED;
        s.count[j] = 0;
        self.on_board |= bit;
        self.alive |= bit;
        self.unmoved &= !bit;
    }

    /// A throw counted by piece `j` of the seat, held on position `p` (`at` its index in
    /// the seat's tables): on when its throws are made, out past the track's end.
    #[inline(always)]
    fn hold_step(
        &mut self,
        ch: &Chased,
        s: &mut State,
        seat: usize,
        j: usize,
        p: usize,
        at: usize,
    ) {
        s.count[j] = s.count[j].saturating_add(1);
        if s.count[j] < ch.need[p] {
            return;
        }
        s.count[j] = 0;
        let to = ch.after_hold[at];
        if to != NO {
            self.place(s, j, to);
            return;
        }
        let bit = 1u64 << j;
        self.at[p] &= !(1 << j);
        s.pos[j] = GONE;
        s.sq[j] = GONE;
        s.flags[j] = 0;
        self.on_board &= !bit;
        self.alive &= !bit;
        self.unmoved &= !bit;
        if s.out_place[seat] == 0 {
            self.outs += 1;
            s.out_place[seat] = self.outs;
            if self.chaser == GONE {
                self.chaser = ch.appears;
            }
        }
        self.ended = usize::from(self.outs) == ch.seats;
    }

    /// The throw of `k` marked sides of a seat that got out: it moves the chaser by the
    /// chaser's value, back or forward as drawn (back alone from the last position).
    #[inline(always)]
    fn drive<R: rand::Rng + ?Sized>(&mut self, ch: &Chased, s: &mut State, rng: &mut R, k: usize) {
        let v = ch.chaser_value[k];
        let g = self.chaser;
        if v == 0 || g == GONE {
            return;
        }
        let last = (ch.len - 1) as u8;
        let back = g == last || self.bits.index(rng, 2).min(1) == 0;
        let mut g = g;
        for _ in 0..v {
            let carried = self.at[g as usize];
            if back && g == 0 {
                // Carried back off the board: unmoved again.
                for j in members(carried.into()) {
                    s.pos[j] = OFF;
                    s.sq[j] = GONE;
                    s.count[j] = 0;
                    s.flags[j] |= UNMOVED;
                }
                self.at[0] = 0;
                self.on_board &= !u64::from(carried);
                self.unmoved |= u64::from(carried);
                break;
            }
            if !back && g == last {
                break;
            }
            let to = if back { g - 1 } else { g + 1 };
            if carried != 0 {
                let sq = ch.square[to as usize];
                for j in members(carried.into()) {
                    s.pos[j] = to;
                    s.sq[j] = sq;
                    s.count[j] = 0;
                }
                self.at[g as usize] = 0;
                self.at[to as usize] |= carried;
            }
            g = to;
        }
        self.chaser = g;
    }
}

#[cfg(test)]
mod tests {
    use super::super::games::{REFERENCE, SHIPPED};
    use super::super::Described;
    use crate::game::Node;
    use crate::play::RandomBits;
    use rand::{Rng as _, SeedableRng as _};

    /// From nodes all along random games of every variant and seat count of every shipped
    /// and reference description that the loop takes (and with a throw cap that cuts games
    /// short), the one loop leaves the state, the random bits and the generator exactly as
    /// the step-by-step path does; and Es-Sîg at its default options takes the loop for 2
    /// and 4 seats.
    #[test]
    fn the_chased_loop_plays_as_the_step_by_step_path() {
        let mut taken = Vec::new();
        let mut starts = 0;
        for &(name, file, text) in SHIPPED.iter().chain(REFERENCE) {
            let game = Described::from_text(file, text).unwrap();
            let defaults = game.base.default_values();
            for (v, g) in Described::variants(&game.base).iter().enumerate() {
                let Some(p) = &g.compiled.chased_playouts else {
                    continue;
                };
                let n = g.seats();
                if g.values == defaults {
                    taken.push((name, n));
                }
                {
                    for (seed, cap) in [(1, g.max_throws), (2, 40)] {
                        let mut g = g.clone();
                        g.max_throws = cap;
                        let mut rng = crate::Rng::seed_from_u64(seed + 10 * n as u64);
                        let mut bits = RandomBits::new();
                        let mut s = g.initial_state();
                        for step in 0.. {
                            if step % 3 == 0 {
                                assert!(p.fits(&g.compiled, &s), "{name}: {s:?}");
                                let (mut fast, mut fast_bits, mut fast_rng) =
                                    (s, bits, rng.clone());
                                p.play_to_end(
                                    &g.compiled,
                                    &mut fast,
                                    &mut fast_bits,
                                    &mut fast_rng,
                                    cap,
                                );
                                let (mut slow, mut slow_bits, mut slow_rng) =
                                    (s, bits, rng.clone());
                                g.play_random_to_end_step_by_step(
                                    &mut slow,
                                    &mut slow_bits,
                                    &mut slow_rng,
                                );
                                let at = format!(
                                    "{name} (variant {v}, {n} seats, seed {seed}, step {step})"
                                );
                                assert_eq!(fast, slow, "{at}");
                                assert_eq!(fast_bits, slow_bits, "{at}");
                                assert_eq!(fast_rng.next_u64(), slow_rng.next_u64(), "{at}");
                                starts += 1;
                            }
                            match g.node(&s) {
                                Node::Throw(_) => g.apply_throw_unchecked(
                                    &mut s,
                                    bits.throw(&mut rng, g.sticks()),
                                ),
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
        }
        for n in [2, 4] {
            assert!(
                taken.contains(&("es-sig", n)),
                "es-sig with {n} seats does not take the chased loop: {taken:?}"
            );
        }
        assert!(starts > 10_000, "{starts}");
    }
}
