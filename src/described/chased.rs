//! Random playouts of chased races in one loop: one piece a seat on a shared track (no
//! capture), pieces released onto it, holding positions, a steered chaser that the seats
//! who got out drive back or forward with its own throws, and the end when every seat is
//! out. The loop makes the same draws, actions and states as the rules' step-by-step path
//! ([`Compiled::throw`], the only action of a seat's choice made at once, and the chaser's
//! direction listed and drawn with `bits.index(rng, 2)` as
//! [`Described::play_drawn_within`](super::Described::play_drawn_within) draws it), with
//! every walk read from tables built once; the test below compares the two at every node.

use super::compile::{Compiled, MAX_PIECES, MAX_VALUE, NONE};
use super::format::{Decide, Occupancy};
use super::state::{State, GONE, OFF, UNMOVED};
use crate::game::MAX_SEATS;
use crate::play::RandomBits;

/// A table entry with no move.
const NO: u16 = NONE as u16;
/// A table entry of a move that counts a throw of a holding position (its low byte is
/// [`OFF`], which no walk ends on, as the next two's).
const HOLD: u16 = OFF as u16;
/// The table entry of an unmoved piece (off the board): its release, where the throw
/// releases it.
const RELEASE: u16 = 1 << 8 | OFF as u16;
/// The table entry of a seat that got out (its piece gone): it drives the chaser.
const DRIVE: u16 = 2 << 8 | OFF as u16;

/// The fixed settings a chased race's playouts read, taken from [`Compiled`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Chased {
    seats: usize,
    /// The track's last position.
    last: u8,
    /// Per throw's stick bits (at most 6 read): its marked sides' low 4 bits, the index of
    /// the tables by throw.
    marked: [u8; 64],
    /// Bit `m`: the throw of `m` marked sides gives another (a racing seat's, a driver's).
    again: u16,
    chaser_again: u16,
    /// Per seat, bit `m`: the throw of `m` marked sides releases its unmoved piece (never
    /// a throw of no value).
    releases: [u16; MAX_SEATS],
    /// Where the chaser appears when the first seat gets out.
    appears: u8,
    /// Per (position, pending throw), at `position << 4 | throw` (the same for every seat,
    /// the track being shared): the move's end (position, and its square in the high
    /// byte), [`HOLD`] where it counts a throw of a holding position, [`NO`] where there is
    /// none (a throw of no value, no move); the row of [`OFF`] is [`RELEASE`]'s, the row
    /// of [`GONE`] [`DRIVE`]'s, and every other row past the track's end has none.
    moves: Box<[u16; 256 << 4]>,
    /// Per seat: its next.
    next: [u8; MAX_SEATS],
    /// Per seat: the end of the release's walk from off the board.
    enter: [u16; MAX_SEATS],
    /// Per position: the throws a piece held there needs (0: not a holding position).
    need: [u8; 256],
    /// Per position: where a held piece goes when its throws are made (position and
    /// square), [`NO`] where it gets out.
    after_hold: [u16; 256],
    /// Per position: its square, where the chaser carries pieces.
    square: [u8; 256],
    /// The high bit of each seat's byte (see [`seat_bytes`]).
    seat_bytes: u64,
    /// Per (chaser's position, pending throw), at `position << 4 | throw`: the chaser's
    /// move going back (the low half) and going forward (the high half, [`BACK_ONLY`]
    /// from the last position), each its end, and the positions `from..to` of the pieces
    /// it carries, as `end | from << 8 | to << 16`, and [`PAST_FIRST`] where it goes past
    /// the first position; or [`STAYS`] where it does not move (a throw of no value for
    /// it, or no chaser).
    chase: Box<[u64; 256 << 4]>,
}

/// The [`Chased::chase`] entry of a chaser that does not move.
const STAYS: u64 = u64::MAX;
/// The forward half of a [`Chased::chase`] entry where the chaser can only go back.
const BACK_ONLY: u32 = u32::MAX;
/// The bit of a chaser's move past the first position: it ends there and the pieces it
/// carries go off the board.
const PAST_FIRST: u32 = 1 << 24;

impl Chased {
    /// The settings of a description whose every mechanic this loop covers.
    pub(crate) fn of(c: &Compiled) -> Option<Chased> {
        let chaser = c.chaser_table.as_ref()?;
        let fits = c.steering.is_none()
            && c.driving_values == 0
            && !c.teams
            && c.pieces_per_side == 1
            && c.sides == c.seats
            && (1..=MAX_SEATS).contains(&c.seats)
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
            // Positions below 128, as the chaser's drive reads them ([`standing`]).
            && (1..=128).contains(&c.track_len)
            && c.hold.len() == c.track_len
            && c.square_of[0].len() == c.track_len
            // Pieces start off the board: an unmoved piece is one off the board.
            && c.start.iter().flatten().all(|&p| p == OFF);
        if !fits {
            return None;
        }
        let (seats, len) = (c.seats, c.track_len);
        // The engine reads a pending throw's low 4 bits, and more than 8 as 8.
        let by_throw =
            |f: &dyn Fn(usize) -> bool| (0..16).fold(0u16, |m, k| m | (f(k.min(8)) as u16) << k);
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
        let tables = |side: usize| {
            // Whole tables (positions as bytes index them without a bounds check).
            let mut moves = Box::new([NO; 256 << 4]);
            let mut after_hold = [NO; 256];
            for p in 0..len {
                let (need, counted) = c.hold[p];
                for v in 1..=MAX_VALUE as u8 {
                    moves[p << 4 | v as usize] = match need {
                        0 => walk(side, p as u8, v),
                        _ if counted == v => HOLD,
                        _ => NO,
                    };
                }
                let to = c.next[side][p].to;
                if to != NONE {
                    after_hold[p] = entry(side, to);
                }
            }
            (moves, after_hold)
        };
        // One table for all seats: the track is shared, so every seat's are the same.
        let shared = tables(0);
        if (1..seats).any(|side| tables(side) != shared) {
            return None;
        }
        let (by_value, after_hold) = shared;
        // A throw of no value does nothing: no move, no release.
        let valued = by_throw(&|k| c.table.value[k] != 0);
        let mut moves = Box::new([NO; 256 << 4]);
        for p in 0..len {
            for k in 0..16 {
                if valued >> k & 1 == 1 {
                    moves[p << 4 | k] = by_value[p << 4 | c.table.value[k.min(8)] as usize];
                }
            }
        }
        for k in 0..16 {
            moves[(OFF as usize) << 4 | k] = RELEASE;
            moves[(GONE as usize) << 4 | k] = DRIVE;
        }
        let releases = core::array::from_fn(|side| {
            valued
                & match &c.release_counts {
                    // By count, the engine reads the throw's low 4 bits as they are.
                    Some(per_side) => per_side.get(side).copied().unwrap_or(0),
                    None => by_throw(&|k| c.release_values >> c.table.value[k] & 1 == 1),
                }
        });
        let last = (len - 1) as u8;
        let mut chase = Box::new([STAYS; 256 << 4]);
        let step =
            |end: u8, from: u8, to: u8| u32::from(end) | u32::from(from) << 8 | u32::from(to) << 16;
        for g in 0..=last {
            for k in 0..16 {
                // The engine reads a pending throw's low 4 bits, and more than 8 as 8.
                let v = chaser.value[k.min(8)];
                if v != 0 {
                    // Back, it carries the pieces above its end up to its position; past
                    // the first position, those from it to its position.
                    let back = match g.checked_sub(v) {
                        Some(end) => step(end, end + 1, g + 1),
                        None => step(0, 0, g + 1) | PAST_FIRST,
                    };
                    // Forward, those from its position up to before its end.
                    let forward = if g == last {
                        BACK_ONLY
                    } else {
                        let end = g.saturating_add(v).min(last);
                        step(end, g, end)
                    };
                    chase[usize::from(g) << 4 | k] = u64::from(back) | u64::from(forward) << 32;
                }
            }
        }
        Some(Chased {
            seats,
            last,
            // A throw reads the description's sticks, as `RandomBits::throw` does.
            marked: core::array::from_fn(|bits| {
                c.sticks.throw_from_bits(bits as u64).marked() & 15
            }),
            again: by_throw(&|k| c.table.again[k]),
            chaser_again: by_throw(&|k| chaser.again[k]),
            releases,
            appears: c.chaser_appears,
            moves,
            next: core::array::from_fn(|seat| if seat + 1 < seats { seat as u8 + 1 } else { 0 }),
            enter: core::array::from_fn(|side| {
                if side < seats {
                    walk(side, OFF, c.release_steps)
                } else {
                    NO
                }
            }),
            need: core::array::from_fn(|p| c.hold.get(p).map_or(0, |&(need, _)| need)),
            after_hold,
            square: core::array::from_fn(|p| c.square_of[0].get(p).copied().unwrap_or(GONE)),
            seat_bytes: HIGH >> (8 * (MAX_SEATS - seats)),
            chase,
        })
    }

    /// Whether the loop can play on from the state: a seat's turn, no seat buried,
    /// nothing spent or opened, the chaser and every piece on the board on the track, no
    /// piece beyond the seats', the piece sets and the occupancy as the pieces give them,
    /// the unmoved pieces those off the board, the seats out those whose piece is gone,
    /// and the game ended where every seat is out.
    #[inline]
    pub(crate) fn fits(&self, c: &Compiled, s: &State) -> bool {
        let on_track = |p: u8| p <= self.last;
        let seats = c.side_bits[self.seats - 1] | (c.side_bits[self.seats - 1] - 1);
        let mut occ = [super::compile::Mask::default(); 2];
        let mut sets = (0, 0, 0);
        for k in 0..self.seats {
            let (p, bit) = (s.pos[k], 1u64 << k);
            if p < OFF {
                if !on_track(p) {
                    return false;
                }
                sets.0 |= bit;
                if let Some(o) = occ.get_mut(k) {
                    o.set(s.sq[k]);
                }
            }
            if p != GONE {
                sets.1 |= bit;
            }
            if s.flags[k] & UNMOVED != 0 {
                sets.2 |= bit;
            }
            if (s.out_place[k] != 0) != (p == GONE) {
                return false;
            }
        }
        (s.turn as usize) < self.seats
            && !s.spending
            && !s.opening
            && s.buried == 0
            && s.burials == [0; MAX_SEATS]
            && (s.ended || usize::from(s.outs) != self.seats)
            && (s.chaser == GONE || on_track(s.chaser))
            && (s.on_board | s.alive | s.unmoved) & !seats == 0
            && (s.on_board, s.alive, s.unmoved) == sets
            && s.unmoved == s.alive & !s.on_board
            && occ == s.occ
    }

    /// Plays the state to the end as the step-by-step path does: each throw
    /// `bits.throw(rng, sticks)`, a driver's choice of the chaser's direction
    /// `bits.index(rng, 2)`.
    #[inline]
    pub(crate) fn play_to_end<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        // The stick count a constant where it is the usual four.
        match c.sticks.count() {
            4 => self.play_with::<4, R>(c, s, bits, rng, max_throws),
            _ => self.play_with::<0, R>(c, s, bits, rng, max_throws),
        }
    }

    /// [`Chased::play_to_end`] with `STICKS` sticks, or the description's count where
    /// `STICKS` is 0.
    #[inline(never)]
    pub(crate) fn play_with<const STICKS: u32, R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        let sticks = if STICKS == 0 {
            u32::from(c.sticks.count())
        } else {
            STICKS
        };
        let mut p = Playout {
            bits: *bits,
            turn: s.turn as usize,
        };
        let mut ended = s.ended;
        let pending = s.pending;
        if pending != GONE && !ended {
            s.pending = GONE;
            ended = p.play(self, s, rng, usize::from(pending & 15));
        }
        // The throws left before the cap, counted down.
        let budget = max_throws.saturating_sub(s.throws);
        let mut left = budget;
        if !ended {
            while left != 0 {
                left -= 1;
                let k = self.marked[p.bits.take(rng, sticks) as usize & 63];
                if p.play(self, s, rng, usize::from(k)) {
                    ended = true;
                    break;
                }
            }
        }
        s.throws += budget - left;
        // The piece sets from the pieces' positions and flags, which the loop keeps alone.
        for k in 0..self.seats.min(MAX_SEATS) {
            s.sync(k);
        }
        c.set_occupancy(s);
        s.turn = p.turn as u8;
        s.ended = ended;
        *bits = p.bits;
    }
}

/// What the loop keeps of the state between throws apart from the state (whose piece
/// sets it leaves alone until the end).
struct Playout {
    bits: RandomBits,
    turn: usize,
}

impl Playout {
    /// Plays the throw `k` (its marked sides' low 4 bits) of the seat to move, and passes
    /// the turn on unless the throw gives another or ends the game; whether it ends it.
    #[inline(always)]
    fn play<R: rand::Rng + ?Sized>(
        &mut self,
        ch: &Chased,
        s: &mut State,
        rng: &mut R,
        k: usize,
    ) -> bool {
        // At most 8 seats: the mask tells the compiler, which then checks no index.
        let seat = self.turn & (MAX_SEATS - 1);
        // One piece a seat: piece `seat`. Its row tells its action: its move, a throw
        // counted on a holding position, its release (unmoved), the chaser's drive (out).
        let p = s.pos[seat] as usize;
        let to = ch.moves[p << 4 | k];
        let again = if (to as u8) < OFF {
            set_down(s, seat, to);
            ch.again
        } else {
            match to {
                HOLD => {
                    if self.hold_step(ch, s, seat, p) {
                        return true;
                    }
                    ch.again
                }
                RELEASE => {
                    self.release(ch, s, seat, k);
                    ch.again
                }
                DRIVE => {
                    self.drive(ch, s, rng, k);
                    ch.chaser_again
                }
                _ => ch.again,
            }
        };
        if again >> k & 1 == 0 {
            self.turn = usize::from(ch.next[seat]);
        }
        false
    }

    /// The release of the seat's unmoved piece (off the board), where the throw `k`
    /// releases it.
    #[inline(always)]
    fn release(&mut self, ch: &Chased, s: &mut State, seat: usize, k: usize) {
        let j = seat;
        if ch.releases[seat] >> k & 1 == 0 {
            return;
        }
        let to = ch.enter[seat];
        if to != NO {
            s.flags[j] &= !UNMOVED;
            set_down(s, j, to);
        }
    }

    /// A throw counted by the seat's piece, held on position `p`: on when its throws are
    /// made, out past the track's end; whether the game ends.
    #[inline(always)]
    fn hold_step(&mut self, ch: &Chased, s: &mut State, seat: usize, p: usize) -> bool {
        let j = seat;
        let count = s.count[j].saturating_add(1);
        if count < ch.need[p] {
            s.count[j] = count;
            return false;
        }
        let to = ch.after_hold[p];
        if to != NO {
            set_down(s, j, to);
            return false;
        }
        self.get_out(ch, s, seat)
    }

    /// The seat's piece gets out past the track's end: the seat drives the chaser from
    /// now on; whether every seat is out.
    #[inline(always)]
    fn get_out(&mut self, ch: &Chased, s: &mut State, seat: usize) -> bool {
        let j = seat;
        s.count[j] = 0;
        s.pos[j] = GONE;
        s.sq[j] = GONE;
        s.flags[j] = 0;
        if s.out_place[seat] == 0 {
            s.outs += 1;
            s.out_place[seat] = s.outs;
            if s.chaser == GONE {
                s.chaser = ch.appears;
            }
        }
        usize::from(s.outs) == ch.seats
    }

    /// The throw of a seat that got out (`k` its pending value's index): it moves the
    /// chaser by the chaser's value, back or forward as drawn (back alone from the last
    /// position), carrying the pieces it meets.
    #[inline(always)]
    fn drive<R: rand::Rng + ?Sized>(&mut self, ch: &Chased, s: &mut State, rng: &mut R, k: usize) {
        let ends = ch.chase[usize::from(s.chaser) << 4 | (k & 15)];
        if ends == STAYS {
            return;
        }
        let forward = (ends >> 32) as u32;
        let back = forward == BACK_ONLY || self.bits.short_index(rng, 2).min(1) == 0;
        let step = if back { ends as u32 } else { forward };
        let (to, from, before) = (step as u8, (step >> 8) as u8, (step >> 16) as u8);
        // Step by step the chaser carries the pieces on its way to its end; pieces off
        // the board (at or above OFF) are beyond every position it passes. A position
        // `t` below 128 is at least `a` where `t + AT_LEAST[a]` has its high bit set.
        let pos = seat_bytes(&s.pos);
        let low = pos & !HIGH;
        let on_track = !pos & ch.seat_bytes;
        let mut carried =
            (low + AT_LEAST[usize::from(from)]) & !(low + AT_LEAST[usize::from(before)]) & on_track;
        s.chaser = to;
        if carried == 0 {
            return;
        }
        if step & PAST_FIRST != 0 {
            // Past the first position: the pieces it carries go off the board, unmoved
            // again.
            while carried != 0 {
                let j = (carried.trailing_zeros() / 8) as usize & (MAX_SEATS - 1);
                carried &= carried - 1;
                s.pos[j] = OFF;
                s.sq[j] = GONE;
                s.count[j] = 0;
                s.flags[j] |= UNMOVED;
            }
            return;
        }
        let sq = ch.square[usize::from(to)];
        while carried != 0 {
            let j = (carried.trailing_zeros() / 8) as usize & (MAX_SEATS - 1);
            carried &= carried - 1;
            s.pos[j] = to;
            s.sq[j] = sq;
            s.count[j] = 0;
        }
    }
}

/// A byte of ones.
const ONES: u64 = u64::from_le_bytes([1; 8]);
/// The high bit of every byte.
const HIGH: u64 = ONES << 7;
// A seat's byte in a word.
const _: () = assert!(MAX_SEATS <= 8);

/// The first [`MAX_SEATS`] bytes (the seats' pieces) of a per-piece array, as one word
/// (piece `j` in byte `j`).
#[inline(always)]
fn seat_bytes(bytes: &[u8; MAX_PIECES]) -> u64 {
    let mut word = [0; 8];
    word[..MAX_SEATS].copy_from_slice(&bytes[..MAX_SEATS]);
    u64::from_le_bytes(word)
}

/// Per position `a` below 128: the byte `0x80 - a` in every byte, which added to a byte
/// `t` below 128 sets its high bit where `t` is at least `a`, and carries into no other
/// byte; 0 from 128 on (no byte below 128 is at least 128).
static AT_LEAST: [u64; 256] = {
    let mut t = [0; 256];
    let mut a = 0;
    while a < 128 {
        t[a] = (0x80 - a as u64) * ONES;
        a += 1;
    }
    t
};

/// Sets piece `j` down on `to` (position, and square in the high byte).
#[inline(always)]
fn set_down(s: &mut State, j: usize, to: u16) {
    s.pos[j] = to as u8;
    s.sq[j] = (to >> 8) as u8;
    s.count[j] = 0;
}

#[cfg(test)]
mod tests {
    use super::super::games::SHIPPED;
    use super::super::loop_tests::{compare_along, compare_every_variant};
    use super::super::Described;

    /// From nodes all along random games of every variant and seat count of every shipped
    /// and reference description that the loop takes (and with a throw cap that cuts games
    /// short, with the stick count read from the description rather than a constant), the
    /// one loop leaves the state, the random bits and the generator exactly as the
    /// step-by-step path does; and Es-Sîg at its default options takes the loop for 2
    /// and 4 seats.
    #[test]
    fn the_chased_loop_plays_as_the_step_by_step_path() {
        let (taken, starts) = compare_every_variant(
            &[(1, None), (2, Some(40))],
            |c| c.chased_playouts.as_ref(),
            |seed, _, g| seed + 10 * g.seats() as u64,
            |p, c, s| p.fits(c, s),
            |p, c, s, bits, rng, cap| {
                // The capped games take the loop with the stick count read from the
                // description.
                if cap == 40 {
                    p.play_with::<0, _>(c, s, bits, rng, cap);
                } else {
                    p.play_to_end(c, s, bits, rng, cap);
                }
            },
        );
        for n in [2, 4] {
            assert!(
                taken.iter().any(|(name, _, g)| *name == "es-sig"
                    && g.seats() == n
                    && g.values == g.base.default_values()),
                "es-sig with {n} seats does not take the chased loop"
            );
        }
        assert!(starts > 10_000, "{starts}");
    }

    /// A piece partly through its throws on a holding position keeps its count when the
    /// chaser ends its move there (only the pieces it carries start counting again): from
    /// states where a seat that got out drives the chaser from one of its values away
    /// onto such a piece, the loop plays as the step-by-step path, and some of those
    /// drives do end on the piece. Random games alone seldom reach this.
    #[test]
    fn a_held_piece_where_the_chaser_ends_keeps_its_count() {
        use super::super::state::{GONE, UNMOVED};
        use crate::game::Node;
        use crate::play::RandomBits;
        use rand::SeedableRng;
        let &(_, file, text) = SHIPPED.iter().find(|g| g.0 == "es-sig").unwrap();
        let game = Described::from_text(file, text).unwrap();
        let defaults = game.base.default_values();
        let g = Described::variants(&game.base)
            .into_iter()
            .find(|g| g.values == defaults && g.seats() == 2)
            .unwrap();
        let p = g.compiled.chased_playouts.as_ref().unwrap();
        let (mut starts, mut kept) = (0, 0);
        for h in (0..=p.last).filter(|&h| p.need[h as usize] > 1) {
            let table = g.compiled.chaser_table.as_ref().unwrap();
            let values = table.value.iter().filter(|&&v| v > 0);
            let chasers = values.flat_map(|&v| [h.checked_add(v), h.checked_sub(v)]);
            for chaser in chasers.flatten().filter(|&c| c <= p.last) {
                // Seat 0 got out and drives; seat 1's piece on the holding position `h`
                // needs one throw more (the chaser carries it away at its next move, so
                // only a count one short of the hold's shows at the piece's next throw).
                let held = p.need[h as usize] - 1;
                let mut s = g.initial_state();
                (s.pos[0], s.sq[0], s.flags[0]) = (GONE, GONE, 0);
                (s.out_place[0], s.outs) = (1, 1);
                (s.pos[1], s.sq[1], s.count[1]) = (h, p.square[h as usize], held);
                s.flags[1] &= !UNMOVED;
                (s.on_board, s.alive, s.unmoved) = (0b10, 0b10, 0);
                (s.chaser, s.turn) = (chaser, 0);
                g.compiled.set_occupancy(&mut s);
                assert_eq!(g.problems(&s), Vec::<String>::new(), "{s:?}");
                for seed in 0..12 {
                    // Whether the driver's first throw ends the chaser on the piece.
                    let (mut after, mut bits) = (s, RandomBits::new());
                    let mut rng = crate::Rng::seed_from_u64(seed);
                    if let Node::Throw(_) = g.node(&after) {
                        g.apply_throw_unchecked(&mut after, bits.throw(&mut rng, g.sticks()));
                    }
                    if let Node::Decide(_) = g.node(&after) {
                        g.play_drawn_within::<{ Described::BUFFER }>(&mut after, |len| {
                            bits.index(&mut rng, len)
                        });
                    }
                    if after.chaser == h && after.pos[1] == h && after.count[1] == held {
                        kept += 1;
                    }
                    starts += compare_along(
                        &g,
                        s,
                        seed,
                        &format!("es-sig, chaser {chaser}, held on {h}"),
                        |s| p.fits(&g.compiled, s),
                        |s, bits, rng| p.play_to_end(&g.compiled, s, bits, rng, g.max_throws),
                    );
                }
            }
        }
        assert!(kept > 0 && starts > 100, "{kept} {starts}");
    }
}
