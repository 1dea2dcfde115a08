//! Random playouts of the plainest descriptions in one loop: two sides, one piece a square,
//! plain tracks, releases, captures by landing, no chaser, holds, stock, opening or held
//! throws. The loop makes the same draws, actions and states as the rules' step-by-step
//! path ([`Compiled::throw`], [`Compiled::candidates`], [`Compiled::draw`] and applying the
//! drawn action), with every fixed setting of the description read once before the loop
//! instead of tested at every step; the test below compares the two at every node.

use super::compile::{Compiled, Mask, MAX_VALUE, NONE};
use super::engine::members;
use super::format::{Decide, Occupancy, Overshoot};
use super::state::{State, GONE, OFF, UNMOVED};
use crate::play::RandomBits;

/// The fixed settings a plain description's playouts read, taken from [`Compiled`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plain {
    /// Per number of marked sides (8 for more): the throw's value (bits 0 to 3), whether
    /// it gives another ([`AGAIN_BIT`]) and whether it releases a piece of side 0 or 1
    /// ([`RELEASE_BIT`] + side).
    pub(crate) by_marked: [u16; 9],
    /// [`Plain::by_marked`] by the throw's stick bits, as [`crate::Sticks::throw_from_bits`]
    /// reads them.
    pub(crate) by_bits: [u16; 64],
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
    /// At `side << 12 | position << 4 | steps`: the walk's destination position and, in
    /// the high byte, its square; `NONE` in the low byte where there is no destination
    /// (a fixed layout, so that the index needs no bounds test).
    to: Box<[u16; 8192]>,
}

/// The bit of a [`Plain::by_marked`] entry that gives another throw.
pub(crate) const AGAIN_BIT: u16 = 4;
/// The bit of a [`Plain::by_marked`] entry that releases a piece of side 0 (the next one
/// side 1's).
pub(crate) const RELEASE_BIT: u16 = 5;

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
        let marked_set =
            |f: &dyn Fn(usize) -> bool| (0..9).fold(0u16, |m, k| m | (f(k) as u16) << k);
        let releases: [u16; 2] = core::array::from_fn(|side| match &c.release_counts {
            Some(per_side) => per_side[side],
            None if c.has_release => marked_set(&|k| c.release_values >> c.table.value[k] & 1 == 1),
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
        let again = marked_set(&|k| c.table.again[k]);
        let by_marked: [u16; 9] = core::array::from_fn(|k| {
            u16::from(c.table.value[k])
                | (again >> k & 1) << AGAIN_BIT
                | (releases[0] >> k & 1) << RELEASE_BIT
                | (releases[1] >> k & 1) << (RELEASE_BIT + 1)
        });
        let by_bits = core::array::from_fn(|raw| {
            by_marked[(c.sticks.throw_from_bits(raw as u64).marked() & 15).min(8) as usize]
        });
        let mut to = Box::new([u16::from(NONE); 8192]);
        for side in 0..2 {
            for pos in 0..c.track_len.min(256) {
                for steps in 0..16u8 {
                    let i = c.step_index(side, pos as u8, steps);
                    let (q, sq) = (c.dest[i], c.dest_sq[i]);
                    if q != NONE {
                        to[side << 12 | pos << 4 | steps as usize] =
                            u16::from(q) | u16::from(sq) << 8;
                    }
                }
            }
        }
        Plain {
            by_marked,
            by_bits,
            release_steps: c.release_steps,
            priority: c.release_priority,
            bars: enemy_bar.iter().any(|m| !m.is_empty()),
            enemy_bar,
            no_pieces_ends: c.end_no_pieces,
            to,
        }
    }

    /// The table entry of side `SIDE`'s walk of `steps` from position `pos`, if it may make
    /// it on `board` (pieces by square, plus one) with `enemy` the enemy's pieces: a walk
    /// with an end, on no own piece and on no enemy piece it may not capture.
    #[inline(always)]
    fn walk<const SIDE: usize>(
        &self,
        board: &[u8; 256],
        enemy: u64,
        pos: u8,
        steps: u8,
    ) -> Option<u16> {
        let to = self.to[(SIDE << 12 | (pos as usize) << 4 | steps as usize) & 8191];
        if to & 0xff == u16::from(NONE) {
            return None;
        }
        let sq = (to >> 8) as u8;
        let on = board[sq as usize];
        if on != 0 && (enemy >> (on - 1) & 1 == 0 || (self.bars && self.enemy_bar[SIDE].has(sq))) {
            return None;
        }
        Some(to)
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
        let mut p = Playout::of(self, c, s);
        let mut b = *bits;
        let mut turn = s.turn;
        if !s.ended && s.pending != GONE {
            let e = self.by_marked[(s.pending & 15).min(8) as usize];
            let again = if turn == 0 {
                p.decide::<0, R>(self, c, s, e, &mut b, rng)
            } else {
                p.decide::<1, R>(self, c, s, e, &mut b, rng)
            };
            if !(again || p.ended) {
                turn = 1 - turn;
            }
            s.pending = GONE;
        }
        // The throws left before the cap, counted down.
        let cap = max_throws.saturating_sub(s.throws);
        let mut left = cap;
        let sticks = u32::from(c.sticks.count());
        // Each seat's turns with its side a constant, so that nothing of the side is
        // looked up at a throw.
        while !p.ended {
            let passed = if turn == 0 {
                p.turn::<0, R>(self, c, s, sticks, &mut left, &mut b, rng)
            } else {
                p.turn::<1, R>(self, c, s, sticks, &mut left, &mut b, rng)
            };
            if !passed {
                break;
            }
            turn = 1 - turn;
        }
        (s.on_board, s.alive, s.unmoved) = (p.on_board, p.alive, p.unmoved);
        c.set_occupancy(s);
        s.turn = turn;
        s.throws += cap - left;
        s.ended = p.ended;
        *bits = b;
    }
}

/// Whether the occupancy sets are the squares of the two sides' pieces on the board, one
/// piece a square: what the loop's board of pieces by square stands for, and rebuilds.
pub(crate) fn one_a_square(c: &Compiled, s: &State) -> bool {
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

/// Pieces in ascending order: a draw's `i`th candidate is one look, where a set of pieces
/// needs a selection by rank.
#[derive(Clone, Copy)]
struct Sorted {
    list: [u8; 64],
    n: usize,
}

impl Sorted {
    fn of(set: u64) -> Sorted {
        let mut s = Sorted {
            list: [0; 64],
            n: 0,
        };
        for k in members(set) {
            s.list[s.n] = k as u8;
            s.n += 1;
        }
        s
    }

    /// Adds piece `k` (not a member).
    #[inline]
    fn insert(&mut self, k: usize) {
        // Shifts the larger members up one place (a few bytes: no call to `memmove`).
        let mut at = self.n;
        while at > 0 && self.list[(at - 1) & 63] as usize > k {
            self.list[at & 63] = self.list[(at - 1) & 63];
            at -= 1;
        }
        self.list[at & 63] = k as u8;
        self.n += 1;
    }

    /// Removes piece `k` (a member).
    #[inline]
    fn remove(&mut self, k: usize) {
        let mut at = self.list[..self.n].partition_point(|&x| (x as usize) < k);
        while at + 1 < self.n {
            self.list[at & 63] = self.list[(at + 1) & 63];
            at += 1;
        }
        self.n -= 1;
    }

    /// [`super::engine::draw_among_counted`] over the members: the same draws, in the
    /// same order, and the same member taken. A refused member is dropped and the next
    /// draw's rank skips the dropped places below it.
    #[inline(always)]
    fn draw<T, R: rand::Rng + ?Sized>(
        &self,
        bits: &mut RandomBits,
        rng: &mut R,
        mut test: impl FnMut(usize) -> Option<T>,
    ) -> Option<T> {
        let mut left = self.n;
        if left == 0 {
            return None;
        }
        // The places of the refused members.
        let mut dropped = 0u64;
        loop {
            let i = if left == 1 {
                0
            } else {
                bits.short_index(rng, left as u32)
            };
            let mut at = i;
            let mut below = dropped;
            while below != 0 && below.trailing_zeros() as usize <= at {
                at += 1;
                below &= below - 1;
            }
            let k = self.list[at & 63] as usize & 63;
            if let Some(t) = test(k) {
                return Some(t);
            }
            dropped |= 1 << (at & 63);
            left -= 1;
            if left == 0 {
                return None;
            }
        }
    }
}

/// [`super::engine::draw_among_tested`] over `set`, where `test` refuses every member of
/// the release candidates left out of `set`: each member tested in ascending order, one index
/// drawn among those accepted (none where one is or none is), and the same member taken.
#[inline(always)]
fn draw_tested<T, R: rand::Rng + ?Sized>(
    set: u64,
    bits: &mut RandomBits,
    rng: &mut R,
    mut test: impl FnMut(usize) -> Option<T>,
) -> Option<T> {
    // The accepted members (a set, so that no action is kept through the loop).
    let (mut found, mut rest) = (0u64, set);
    while rest != 0 {
        let k = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if test(k).is_some() {
            found |= 1 << k;
        }
    }
    if found & found.wrapping_sub(1) != 0 {
        for _ in 0..bits.short_index(rng, found.count_ones()) {
            found &= found - 1;
        }
    } else if found == 0 {
        return None;
    }
    test(found.trailing_zeros() as usize)
}

/// What the loop keeps of the state between throws.
struct Playout {
    /// Per square: the piece on it, plus one (0: none).
    board: [u8; 256],
    on_board: u64,
    alive: u64,
    unmoved: u64,
    /// Per side: its moved pieces, its unmoved ones, and both (every piece of a plain
    /// state is on the board).
    moved: [Sorted; 2],
    locked: [Sorted; 2],
    all: [Sorted; 2],
    /// Per side: its unmoved pieces whose release may be made, or were, as far as its own
    /// unmoved pieces tell (the others end their release on one, which never moves, so
    /// that their release is refused), with those gone since (use it `& unmoved`).
    fronts: [u64; 2],
    /// Per piece: the unmoved pieces whose release ends on its square (fronts once it
    /// leaves the square).
    behind: [u64; 64],
    ended: bool,
}

/// A drawn release that unlocks its piece where it stands (no walk): the table entry of no
/// destination, which no drawn walk has (a walk without a destination is not drawn), so it
/// cannot be mistaken for one, whatever the board's squares and the track's positions.
pub(crate) const RELEASED: u16 = NONE as u16;

impl Playout {
    fn of(plain: &Plain, c: &Compiled, s: &State) -> Playout {
        // The pieces by square (piece + 1, 0 for none) instead of the occupancy sets: one
        // look tells own piece, enemy piece (and which, to capture) or none.
        let mut board = [0u8; 256];
        for k in members(s.on_board) {
            board[s.sq[k] as usize] = k as u8 + 1;
        }
        let (mut fronts, mut behind) = ([0u64; 2], [0u64; 64]);
        let locked = s.unmoved & s.alive;
        // Only a priority of releases draws among the fronts.
        let sides = if plain.priority { 2 } else { 0 };
        for (side, f) in fronts.iter_mut().enumerate().take(sides) {
            for j in members(locked & c.side_bits[side]) {
                let steps = plain.release_steps as usize;
                let to = plain.to[(side << 12 | (s.pos[j] as usize) << 4 | steps) & 8191];
                let on = board[(to >> 8) as usize] as usize;
                if steps == 0 {
                    *f |= 1 << j;
                } else if to & 0xff == u16::from(NONE) {
                    // No release ever.
                } else if on != 0 && (locked & c.side_bits[side]) >> (on - 1) & 1 == 1 {
                    behind[(on - 1) & 63] |= 1 << j;
                } else {
                    *f |= 1 << j;
                }
            }
        }
        let of_side = |side: usize, set: u64| Sorted::of(set & c.side_bits[side]);
        Playout {
            board,
            on_board: s.on_board,
            alive: s.alive,
            unmoved: s.unmoved,
            moved: core::array::from_fn(|side| of_side(side, s.on_board & !s.unmoved)),
            locked: core::array::from_fn(|side| of_side(side, s.unmoved & s.alive)),
            all: core::array::from_fn(|side| of_side(side, s.on_board)),
            fronts,
            behind,
            ended: s.ended,
        }
    }

    /// Plays side `SIDE`'s throws until it passes the turn (true), or the game ends or
    /// reaches the cap (false).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn turn<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        plain: &Plain,
        c: &Compiled,
        s: &mut State,
        sticks: u32,
        left: &mut u32,
        bits: &mut RandomBits,
        rng: &mut R,
    ) -> bool {
        loop {
            if *left == 0 {
                return false;
            }
            *left -= 1;
            let e = plain.by_bits[bits.take(rng, sticks) as usize & 63];
            let again = self.decide::<SIDE, R>(plain, c, s, e, bits, rng);
            if self.ended {
                return false;
            }
            if !again {
                return true;
            }
        }
    }

    /// Plays side `SIDE`'s decision on the throw of entry `e` ([`Plain::by_marked`]):
    /// whether the throw gives another.
    #[inline(always)]
    fn decide<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        plain: &Plain,
        c: &Compiled,
        s: &mut State,
        e: u16,
        bits: &mut RandomBits,
        rng: &mut R,
    ) -> bool {
        let v = (e & 15) as u8;
        if v > 0 {
            let releases = e >> (RELEASE_BIT + SIDE as u16) & 1 == 1;
            let (board, enemy) = (&self.board, c.side_bits[1 - SIDE]);
            // Piece `j`'s walk of `steps`: its table entry, if it may make it.
            let walk = |j: usize, steps: u8| {
                plain
                    .walk::<SIDE>(board, enemy, s.pos[j], steps)
                    .map(|to| (j, to))
            };
            let steps = plain.release_steps;
            let release_of = |j: usize| {
                if steps == 0 {
                    Some((j, RELEASED))
                } else {
                    walk(j, steps)
                }
            };
            let drawn = if !releases || self.locked[SIDE].n == 0 {
                self.moved[SIDE].draw(bits, rng, |j| walk(j, v))
            } else if plain.priority {
                match self.draw_release::<SIDE, R>(plain, c, s, bits, rng) {
                    Some(d) => Some(d),
                    None => self.moved[SIDE].draw(bits, rng, |j| walk(j, v)),
                }
            } else {
                let unmoved = self.unmoved;
                self.all[SIDE].draw(bits, rng, |j| {
                    if unmoved >> j & 1 == 1 {
                        release_of(j)
                    } else {
                        walk(j, v)
                    }
                })
            };
            match drawn {
                None => {}
                Some((j, RELEASED)) => self.unlock::<SIDE>(plain, s, j),
                Some((j, to)) => self.move_to::<SIDE>(plain, c, s, j, to),
            }
        }
        e >> AGAIN_BIT & 1 == 1
    }

    /// Side `SIDE`'s release under priority ([`draw_tested`] over its fronts): the piece and
    /// its walk's table entry ([`RELEASED`] where it unlocks the piece where it stands). Out
    /// of line: inlined, it changed the registers the loop's common path is given, in every
    /// plain game.
    #[inline(never)]
    fn draw_release<const SIDE: usize, R: rand::Rng + ?Sized>(
        &self,
        plain: &Plain,
        c: &Compiled,
        s: &State,
        bits: &mut RandomBits,
        rng: &mut R,
    ) -> Option<(usize, u16)> {
        let (board, enemy, steps) = (&self.board, c.side_bits[1 - SIDE], plain.release_steps);
        draw_tested(self.fronts[SIDE] & self.unmoved, bits, rng, |j| {
            if steps == 0 {
                return Some((j, RELEASED));
            }
            plain
                .walk::<SIDE>(board, enemy, s.pos[j], steps)
                .map(|to| (j, to))
        })
    }

    /// Marks piece `j` of side `SIDE` moved.
    #[inline(always)]
    fn unlock<const SIDE: usize>(&mut self, plain: &Plain, s: &mut State, j: usize) {
        s.flags[j] &= !UNMOVED;
        self.unmoved &= !(1u64 << j);
        self.locked[SIDE].remove(j);
        self.moved[SIDE].insert(j);
        if plain.priority {
            self.fronts[SIDE] |= self.behind[j & 63];
        }
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
            self.unlock::<SIDE>(plain, s, j);
        }
        self.board[s.sq[j] as usize] = 0;
        let on = self.board[sq as usize];
        if on != 0 {
            // An enemy piece: the walk lands only on those it may capture.
            let e = (on - 1) as usize;
            if self.unmoved >> e & 1 == 1 {
                self.locked[1 - SIDE].remove(e);
                if plain.priority {
                    self.fronts[1 - SIDE] |= self.behind[e & 63];
                }
            } else {
                self.moved[1 - SIDE].remove(e);
            }
            self.all[1 - SIDE].remove(e);
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
        s.count[j] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::loop_tests::compare_every_variant;

    /// From nodes all along random games of every plain variant of every shipped and
    /// reference description (and with a throw cap that cuts games short), the one loop
    /// leaves the state, the random bits and the generator exactly as the step-by-step path
    /// does; and the plainest games do take the loop.
    #[test]
    fn the_one_loop_plays_as_the_step_by_step_path() {
        let (taken, starts) = compare_every_variant(
            &[(1, None), (2, None), (3, Some(40))],
            |c| c.plain_playouts.as_ref(),
            |seed, _, _| seed,
            |p, c, s| p.fits(c, s),
            |p, c, s, bits, rng, cap| p.play_to_end(c, s, bits, rng, cap),
        );
        for name in [
            "sig-mzab",
            "sig-tozeur",
            "kioz",
            "issiren-described",
            "siryu-war-described",
        ] {
            assert!(
                taken.iter().any(|t| t.0 == name && t.1 == 0),
                "{name} does not take the one loop"
            );
        }
        assert!(starts > 10_000, "{starts}");
    }
}
