//! Random playouts in one loop of descriptions whose turns throw first and then spend the
//! held values: two sides (seats alone or in alternating teams), one piece a square on one
//! straight track a side, own pieces not passed, captures by landing (but on the enemy's
//! safe squares), and the ends when a side has no pieces, when every piece stands in its
//! region, and when no piece can move. The loop makes the same draws, actions and states
//! as the rules' step-by-step path ([`Compiled::throw`] for each throw, and each spending
//! decision's actions listed as [`Compiled::spend_actions`] lists them, one drawn with
//! `bits.index(rng, len)`): it counts the listed actions without listing them and finds the
//! drawn one by its rank. The test below compares the two at every node.

use super::compile::{Compiled, MAX_PIECES, MAX_VALUE, NONE};
use super::engine::{members, BUFFER};
use super::format::{Occupancy, Overshoot};
use super::plain::one_a_square;
use super::state::{State, GONE, OFF, UNMOVED};
use crate::game::MAX_SEATS;
use crate::play::RandomBits;

/// The bit of a [`Spent::by_bits`] entry that gives another throw (the value is in bits 0
/// to 3).
const AGAIN: u8 = 16;
/// The bit of a [`Spent::at`] entry of a square where an enemy piece may not be landed
/// on (the square in bits 0 to 7).
const BAR: u16 = 1 << 8;
/// The bit of a [`Spent::at`] entry of a square in the region every piece must reach for
/// the game to end.
const IN: u16 = 1 << 9;
/// The bit of a [`Spent::at`] entry of a square where a piece of the side is one the enemy
/// may not land on.
const THREAT: u16 = 1 << 10;
/// The longest value the loop takes (held values are kept in one byte each of a word).
const LONGEST: usize = 8;
/// What [`Playout::spend`] returns when the game ended (no value is 16).
const ENDED: usize = 16;
/// The most pieces a side may have (a decision's count is summed in one byte).
const MOST_PIECES: usize = 31;

/// The fixed settings the playouts read, taken from [`Compiled`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Spent {
    /// Per throw's stick bits, as [`crate::Sticks::throw_from_bits`] reads them: its value
    /// (bits 0 to 3) and whether it gives another ([`AGAIN`]).
    by_bits: [u8; 256],
    /// The track's length (positions 0 to `len - 1`, one after the other).
    len: u8,
    seats: usize,
    /// Per side and track position: the square, with [`BAR`], [`IN`] and [`THREAT`] (in
    /// the settings, not behind a pointer: a move reads it at the settings' address).
    at: [[u16; 256]; 2],
    /// Per side and track position: the enemy's track position of the same square (in
    /// the settings, as [`Spent::at`]).
    enemy_pos: [[u8; 256]; 2],
    /// Per side: one past the last position with [`BAR`] (0 where there is none): a piece
    /// at or past it lands on no barred square. At most 64 less [`LONGEST`], so that the
    /// barred landings of a piece before it are a window of a word.
    bar_end: [u8; 2],
    /// The pieces of each side (side `s` has the pieces from `s` times it).
    pieces: usize,
    /// The description's distinct values (bit v), which the frozen end tries.
    values: u16,
    /// The smallest of them.
    min_value: u8,
    /// [`ROOM_FOR`], in the settings: a move reads it at the settings' address, which is
    /// in a register, instead of forming the constant table's address (a `lea`) at each
    /// use.
    room_for: [u64; 256],
    no_pieces_ends: bool,
    all_in_ends: bool,
    frozen_ends: bool,
    /// What the loop keeps of the description's initial state, built once (most playouts
    /// start there); none where the loop does not fit that state.
    initial: Option<Box<Start>>,
}

impl Spent {
    /// The settings of a description whose every mechanic this loop covers.
    pub(crate) fn of(c: &Compiled) -> Option<Spent> {
        let n = c.sticks.count() as usize;
        let len = c.track_len;
        // Seat 0 is of side 0 and each seat's next of the other (seats alone, or teams
        // alternating), so that a seat's side is its parity.
        let alternating = c.side_of(0) == 0
            && (0..c.seats).all(|t| c.side_of((t + 1) % c.seats) == 1 - c.side_of(t));
        let fits = c.all_first
            && c.sides == 2
            && alternating
            && c.seats <= MAX_SEATS
            && c.occupancy == Occupancy::Single
            && c.chaser_table.is_none()
            && c.steering.is_none()
            && c.driving_values == 0
            && !c.any_hold
            && c.opening.is_none()
            && c.store_value.is_none()
            && !c.has_release
            && !c.start_unmoved
            && c.plain
            && c.linear
            && c.limit == NONE
            && !c.forks
            && c.overshoot == Overshoot::Illegal
            && !c.pass_own
            && !c.end_separated
            && !c.end_all_out
            && (1..OFF as usize).contains(&len)
            && n <= 8
            && c.table.value[..=n]
                .iter()
                .all(|&v| (1..=LONGEST as u8).contains(&v))
            && c.values.iter().all(|&v| (1..=LONGEST as u8).contains(&v))
            && c.pieces_per_side <= MOST_PIECES
            // A decision lists at most a piece a held value: no more than the buffer the
            // step-by-step path lists them in, so the draw's length needs no cap.
            && c.pieces_per_side * c.values.len() <= BUFFER
            && c.start.iter().all(|st| {
                st.iter().all(|&p| (p as usize) < len) && st.windows(2).all(|w| w[0] < w[1])
            });
        if !fits {
            return None;
        }
        let by_bits = core::array::from_fn(|raw| {
            let k = (c.sticks.throw_from_bits(raw as u64).marked() as usize).min(8);
            c.table.value[k] | if c.table.again[k] { AGAIN } else { 0 }
        });
        let mut at = [[u16::from(NONE); 256]; 2];
        let mut enemy_pos = [[0u8; 256]; 2];
        let mut bar_end = [0u8; 2];
        let barred = |side: usize, sq: u8| {
            !c.capture
                || c.safe
                    .is_some_and(|r| c.regions[1 - side][r as usize].has(sq))
        };
        for side in 0..2 {
            for p in 0..len {
                let sq = c.square_of[side][p];
                let inside = c
                    .end_all_in
                    .is_some_and(|r| c.regions[side][r as usize].has(sq));
                at[side][p] = u16::from(sq)
                    | if barred(side, sq) { BAR } else { 0 }
                    | if inside { IN } else { 0 }
                    | if barred(1 - side, sq) { THREAT } else { 0 };
                if barred(side, sq) {
                    bar_end[side] = p as u8 + 1;
                }
                enemy_pos[side][p] = c.square_of[1 - side][..len]
                    .iter()
                    .position(|&e| e == sq)
                    .unwrap_or(0) as u8;
            }
        }
        if bar_end.iter().any(|&e| e as usize + LONGEST > 64) {
            return None;
        }
        let mut spent = Spent {
            by_bits,
            len: len as u8,
            seats: c.seats,
            at,
            enemy_pos,
            bar_end,
            pieces: c.pieces_per_side,
            values: c.values.iter().fold(0, |m, &v| m | 1 << v),
            min_value: c.values.iter().copied().min().unwrap_or(u8::MAX),
            room_for: ROOM_FOR,
            no_pieces_ends: c.end_no_pieces,
            all_in_ends: c.end_all_in.is_some(),
            frozen_ends: c.end_frozen,
            initial: None,
        };
        if spent.fits(c, &c.initial_state) {
            spent.initial = Some(Box::new(Start::of(&spent, c, &c.initial_state)));
        }
        Some(spent)
    }

    /// Whether the loop can play on from the state: no throw pending, no opening, no seat
    /// out or buried, every piece on the board, one a square, each side's pieces standing
    /// along its track in the order of their numbers (as play keeps them: none passes
    /// another), and each at its position's square.
    pub(crate) fn fits(&self, c: &Compiled, s: &State) -> bool {
        let in_order = (0..2).all(|side| {
            let mut last = None;
            members(s.on_board & c.side_bits[side]).all(|k| {
                let p = s.pos[k];
                let ok = (p as usize) < self.len as usize
                    && last.is_none_or(|q| q < p)
                    && s.sq[k] == (self.at[side][p as usize] & 0xff) as u8;
                last = Some(p);
                ok
            })
        });
        s.pending == GONE
            && !s.opening
            && s.held[0] == 0
            && (1..=LONGEST).all(|v| s.held[v] == 0 || self.values >> v & 1 != 0)
            && s.held[LONGEST + 1..].iter().all(|&h| h == 0)
            && (s.turn as usize) < self.seats
            && s.out_place == [0; MAX_SEATS]
            && s.burials == [0; MAX_SEATS]
            && s.alive & !s.on_board == 0
            && in_order
            && one_a_square(c, s)
    }

    /// Plays the state to the end as the step-by-step path does where the loop fits it
    /// ([`Spent::fits`]): each throw `bits.throw(rng, sticks)`, each spending decision a
    /// uniformly random action among those [`Compiled::spend_actions`] lists, drawn with
    /// `bits.index(rng, len)`; whether it played. The initial state (where most playouts
    /// start) is recognised by one comparison, and its loop state copied.
    pub(crate) fn play_if_fits<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) -> bool {
        let built;
        let g = if *s == c.initial_state {
            match &self.initial {
                Some(g) => &**g,
                None => return false,
            }
        } else if self.fits(c, s) {
            built = Start::of(self, c, s);
            &built
        } else {
            return false;
        };
        if c.sticks.count() == 8 {
            self.play_from::<R, 8>(g, c, s, bits, rng, max_throws);
        } else {
            self.play_from::<R, 0>(g, c, s, bits, rng, max_throws);
        }
        true
    }

    /// [`Spent::play_if_fits`] for a state the loop fits.
    #[cfg(test)]
    pub(crate) fn play_to_end<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        assert!(self.play_if_fits(c, s, bits, rng, max_throws));
    }

    /// Plays the state to the end from its loop state `g`, with `STICKS` sticks (0: as
    /// many as the description has; the usual 8 known when the loop is compiled, so that
    /// a throw's bits are taken with constants).
    #[inline(never)]
    fn play_from<R: rand::Rng + ?Sized, const STICKS: u32>(
        &self,
        g: &Start,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        if s.ended {
            return;
        }
        // What the loop keeps in memory, a local of this frame copied from the one built
        // (read at fixed places of the frame, no pointer to keep), held by reference; the
        // values kept in registers a local of their own.
        let mut tables = g.t.clone();
        let t = &mut tables;
        t.captures = [s.captures[0], s.captures[1]];
        let mut p = g.p;
        p.bits = *bits;
        // The throws left before the cap, counted down.
        let cap = max_throws.saturating_sub(s.throws);
        t.left = cap;
        let first = s.turn as usize;
        // The turns ended since: the seat to play is `first` plus these, and (seat 0 being
        // of side 0 and the sides alternating) its side is that seat's parity.
        let mut turns = 0usize;
        let sticks = if STICKS == 0 {
            u32::from(c.sticks.count())
        } else {
            STICKS
        };
        let mut stop = false;
        if s.spending {
            // A turn whose spending has begun ends first (on a copy of the values, out
            // of line).
            let mut copy = p;
            stop = if first & 1 == 0 {
                copy.spend_begun::<0, R>(t, self, rng)
            } else {
                copy.spend_begun::<1, R>(t, self, rng)
            };
            p = copy;
            turns += usize::from(!stop);
        }
        if !stop && (first + turns) & 1 == 0 && p.mask != 0 {
            // A first seat of side 0 whose throws had begun (values held) plays its turn
            // out of line, so that the loop's turns begin with none held.
            let mut copy = p;
            stop = copy.turn_apart::<0, R>(t, self, rng, sticks);
            p = copy;
            turns += usize::from(!stop);
        }
        if !stop {
            // Two turns a round, side 0's and then side 1's, so that neither tests its
            // side (a first seat of side 1 plays its turn before, out of line), and the
            // turns are counted by the round.
            if (first + turns) & 1 == 1 {
                let mut copy = p;
                stop = copy.turn_apart::<1, R>(t, self, rng, sticks);
                p = copy;
                turns += usize::from(!stop);
            }
            if !stop {
                loop {
                    if p.turn::<0, R, false>(t, self, rng, sticks) {
                        break;
                    }
                    if p.turn::<1, R, false>(t, self, rng, sticks) {
                        turns += 1;
                        break;
                    }
                    turns += 2;
                }
            }
        }
        let turn = (first + turns) % self.seats;
        t.write_back(self, s, g.clean);
        s.held = t.held;
        s.spending = false;
        s.turn = turn as u8;
        s.throws += cap - t.left;
        s.captures[..2].copy_from_slice(&t.captures);
        s.ended = p.ended;
        *bits = p.bits;
    }
}

/// Per gap `l` (any byte, so that a gap indexes it without a bound's test or a cut at
/// [`LONGEST`]): a one in byte `v` mod 8 for each value `v` up to `l` (and up to
/// [`LONGEST`]), so that a sum of these over a side's pieces counts, in that byte, the
/// pieces with room for `v` steps. Byte `v` mod 8 rather than `v - 1`: the shift that
/// reads it is `8 * v`, which the shift instruction takes mod 64, with no subtraction.
const ROOM_FOR: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut l = 1;
    while l < 256 {
        t[l] = t[l - 1];
        if l <= LONGEST {
            t[l] += 1u64 << (8 * (l % 8));
        }
        l += 1;
    }
    t
};

/// Per set of held values (bit `v - 1` for value `v`): the bytes of [`Line::room_for`]
/// of those values (byte `v` mod 8).
const BYTES: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let mut b = 0;
        while b < 8 {
            if m >> b & 1 == 1 {
                t[m] |= 0xff << (8 * ((b + 1) % 8));
            }
            b += 1;
        }
        m += 1;
    }
    t
};

/// Per set of held values (bit `v - 1` for value `v`): in byte `l`, how many of them are
/// at most `l` (read when a drawn action is found by its rank, at a piece's gap).
static UPTO: [[u8; 256]; 256] = {
    let mut t = [[0u8; 256]; 256];
    let mut m = 0;
    while m < 256 {
        let mut b = 0;
        while b < 8 {
            if m >> b & 1 == 1 {
                // Value b + 1 counts for every l from b + 1 on.
                let mut l = b + 1;
                while l < 256 {
                    t[m][l] += 1;
                    l += 1;
                }
            }
            b += 1;
        }
        m += 1;
    }
    t
};

/// Per byte: its set bits (the build has no `popcnt` instruction).
const ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 1;
    while b < 256 {
        t[b] = t[b >> 1] + (b & 1) as u8;
        b += 1;
    }
    t
};

/// Per byte: its bits spread to the bytes of a word (bit i set: byte i all ones).
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b] |= 0xff << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

// A captured piece's position and square are set by ORing all ones into them.
const _: () = assert!(GONE == u8::MAX);

/// Changes the `i`th eight bytes of `a` by `f`, as one word.
#[inline(always)]
fn eight(a: &mut [u8; MAX_PIECES], i: usize, f: impl FnOnce(u64) -> u64) {
    let w = &mut a.as_chunks_mut::<8>().0[i & 7];
    *w = f(u64::from_ne_bytes(*w)).to_ne_bytes();
}

/// A held count that went past 255, back to 255.
#[cold]
#[inline(never)]
fn saturate(count: &mut u8) {
    *count = u8::MAX;
}

/// The number of values (bits 1 to 8) in `set`.
#[inline(always)]
fn ones(set: u16) -> usize {
    ONES[(set >> 1) as usize & 255] as usize
}

/// The positions 1 to [`LONGEST`] before those of `blocked`.
#[inline(always)]
fn near(blocked: u64) -> u64 {
    let mut x = blocked;
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x >> 1
}

/// The last (highest) member of a set that has one.
#[inline(always)]
fn last(set: u64) -> usize {
    (63 - set.leading_zeros() as usize) & 63
}

/// One side's sets and counts of its pieces, in their slots (a piece's number less the
/// side's first), whose tables are in [`Tables`]: as none passes another, the slots' order
/// is the track's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Line {
    /// The slots of the pieces with room (bit r): the only ones that can move, no value
    /// being 0.
    open: u64,
    /// In byte `v` mod 8: how many pieces have room for `v` steps (the sum of [`ROOM_FOR`]
    /// over the rooms), so that a decision's count is read, not summed over the pieces.
    room_for: u64,
    /// The positions of the pieces (bit p), those before 64 only: enough to find the
    /// pieces that can land on a barred position (all before 64 less [`LONGEST`]).
    low: u64,
}

/// The position `p` as a bit of [`Line::low`] (none from 64 on).
#[inline(always)]
fn low_bit(p: u8) -> u64 {
    u64::from(p < 64) << (p & 63)
}

/// What the loop keeps in memory, a local of its own (read at a fixed place of the loop's
/// frame): the tables indexed by a variable (a square, a slot, a value) and the sides'
/// sets and counts, which a move or a decision reads or changes once or twice each.
/// Apart from the few values read at every throw ([`Playout`]): a table indexed by a
/// variable keeps the whole value it belongs to in memory, so that apart, those can be
/// kept in registers.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tables {
    /// Per square: the piece on it, by its slot plus 64 times its side, plus one (0:
    /// none), so that a move writes it without the piece's number.
    board: [u8; 256],
    /// Per side and slot: the piece's position; entry 64 the track's length (the "next"
    /// of the last piece).
    pos: [[u8; 65]; 2],
    /// Per side and slot: the piece's room, the empty positions before the next piece or
    /// the track's end, so that a move changes it without finding the next piece (the
    /// tables read at it have an entry for every byte).
    gap: [[u8; 64]; 2],
    /// Per side and slot: the slot of the piece behind it (64: none), so that a move finds
    /// the piece whose room it adds to in one read (it changes only at a capture).
    behind: [[u8; 64]; 2],
    /// Per side: the slots of the pieces on the board (changed only at a capture).
    present: [u64; 2],
    /// Per side: its pieces outside the region of the end when all are in (0 where there
    /// is no such end).
    outside: [u32; 2],
    /// The pieces captured since the loop began (those moved are those whose position
    /// changed: no move leaves a piece where it was).
    captured: u64,
    /// The held values' counts.
    held: [u8; MAX_VALUE + 1],
    /// Per slot of the side deciding: the held values it may not spend for a barred
    /// landing (read only at the slots a decision marks).
    cut: [u16; 64],
    /// Per side: the state's count of captures.
    captures: [u8; 2],
    /// The throws left before the cap (in memory: a register would be kept through the
    /// spending only to be stored and loaded again around it).
    left: u32,
    /// Whether a move ended the game by the ends other than the frozen one (set by the
    /// rare moves that can, a capture or a move from or to a square with [`THREAT`] or
    /// [`IN`], and read once a move: kept in memory, the other moves leave it alone).
    over: bool,
    /// Per side: its sets and counts.
    line: [Line; 2],
    /// Per side: the positions of its track (bit p) where it may not land, an enemy piece
    /// standing on a square with [`BAR`] (while there are none, no landing is barred).
    blocked: [u64; 2],
    /// Per side: the positions from which a value (of at most [`LONGEST`]) could land on
    /// a position of [`Tables::blocked`], so that a decision whose pieces stand on none
    /// of them (most) looks no further for barred landings.
    near: [u64; 2],
}

/// What the loop keeps in registers: the values read at every throw. The rest is in
/// [`Tables`]; the pieces' positions, squares and flags are written back to the state once,
/// at the end ([`Tables::write_back`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Playout {
    /// The values held (bit v).
    mask: u16,
    ended: bool,
    bits: RandomBits,
}

/// The loop's tables and values built from a state ([`Start::of`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Start {
    t: Tables,
    p: Playout,
    /// Whether the state's pieces on the board have no flag and no hold count, and none is
    /// in its set of unmoved pieces (as in every initial state the loop fits): a move then
    /// leaves the flags, counts and that set as they are, and [`Tables::write_back`] skips
    /// their upkeep.
    clean: bool,
}

/// The value of rank `i` among those of `mask` a piece with room `gap` may spend, less
/// those in `cut`.
#[inline(always)]
fn value_at(mask: u16, gap: u8, cut: u16, i: usize) -> usize {
    let mut allowed = at_most(mask, gap) & !cut;
    // The first ranks written out (most are small), no loop's counter to set up.
    if i > 0 {
        allowed &= allowed.wrapping_sub(1);
        if i > 1 {
            allowed &= allowed.wrapping_sub(1);
            for _ in 2..i {
                allowed &= allowed.wrapping_sub(1);
            }
        }
    }
    allowed.trailing_zeros() as usize & 15
}

/// The values (bits) of `mask` of at most `l` steps.
#[inline(always)]
fn at_most(mask: u16, l: u8) -> u16 {
    mask & AT_MOST[l as usize]
}

/// Per number of steps `l`: the values (bits) of at most `l` steps.
const AT_MOST: [u16; 256] = {
    let mut t = [u16::MAX; 256];
    let mut l = 0;
    while l < 15 {
        t[l] = (2u16 << l) - 1;
        l += 1;
    }
    t
};

impl Start {
    fn of(spent: &Spent, c: &Compiled, s: &State) -> Start {
        let mut t = Tables {
            board: [0; 256],
            pos: [[0; 65]; 2],
            gap: [[0; 64]; 2],
            behind: [[64; 64]; 2],
            present: [0; 2],
            outside: [0; 2],
            captured: 0,
            held: s.held,
            cut: [0; 64],
            captures: [0; 2],
            left: 0,
            over: false,
            blocked: [0; 2],
            near: [0; 2],
            line: [Line {
                open: 0,
                room_for: 0,
                low: 0,
            }; 2],
        };
        let mut line = [Line {
            open: 0,
            room_for: 0,
            low: 0,
        }; 2];
        for (side, l) in line.iter_mut().enumerate() {
            for k in members(s.on_board & c.side_bits[side]) {
                let (p, r) = (s.pos[k], (k - side * spent.pieces) & 63);
                let a = spent.at[side][p as usize];
                t.board[s.sq[k] as usize] = ((side << 6) | r) as u8 + 1;
                if a & THREAT != 0 {
                    t.blocked[1 - side] |= 1 << (spent.enemy_pos[side][p as usize] & 63);
                }
                t.pos[side][r] = p;
                t.present[side] |= 1 << r;
                l.low |= low_bit(p);
                if spent.all_in_ends && a & IN == 0 {
                    t.outside[side] += 1;
                }
            }
            t.pos[side][64] = spent.len;
            let mut behind = 64;
            for r in members(t.present[side]) {
                let next = (t.present[side] & (!1u64 << r)).trailing_zeros() as usize;
                let g = t.pos[side][next.min(64)]
                    .wrapping_sub(t.pos[side][r])
                    .wrapping_sub(1);
                t.gap[side][r] = g;
                l.room_for += ROOM_FOR[g as usize];
                l.open |= u64::from(g != 0) << r;
                t.behind[side][r] = behind;
                behind = r as u8;
            }
        }
        t.near = [near(t.blocked[0]), near(t.blocked[1])];
        t.line = line;
        let mut mask = 0u16;
        for v in 1..=LONGEST {
            if s.held[v] != 0 {
                mask |= 1 << v;
            }
        }
        let on_board = s.on_board & (c.side_bits[0] | c.side_bits[1]);
        let clean = s.unmoved & on_board == 0
            && members(on_board).all(|k| s.flags[k] == 0 && s.count[k] == 0);
        Start {
            clean,
            t,
            p: Playout {
                mask,
                ended: s.ended,
                bits: RandomBits::new(),
            },
        }
    }
}

impl Tables {
    /// The values (bits, of those at most [`LONGEST`]) that would take a piece of the side
    /// at position `p` before its `bar_end` onto an enemy piece on a barred square.
    #[inline(always)]
    fn barred(&self, side: usize, p: u8) -> u16 {
        (self.blocked[side & 1] >> (p & 63)) as u16
    }

    /// Writes the pieces' positions, squares, flags and sets, and the sides' occupancy
    /// (as [`Compiled::set_occupancy`] sets it), into the state; `clean` as
    /// [`Start::clean`] (the moved pieces' flags and counts are then left as they are,
    /// being nothing to clear).
    fn write_back(&self, spent: &Spent, s: &mut State, clean: bool) {
        s.occ = Default::default();
        if clean {
            self.write_pieces::<true>(spent, s);
        } else {
            self.write_pieces::<false>(spent, s);
        }
        // The captured pieces eight at a time (most of a side's are captured by the end):
        // their positions and squares to GONE (all ones), and where not clean their flags
        // and counts to 0.
        let mut gone = self.captured;
        let mut i = 0;
        while gone != 0 {
            let m = SPREAD[(gone & 255) as usize];
            eight(&mut s.pos, i, |w| w | m);
            eight(&mut s.sq, i, |w| w | m);
            if !clean {
                eight(&mut s.flags, i, |w| w & !m);
                eight(&mut s.count, i, |w| w & !m);
            }
            gone >>= 8;
            i += 1;
        }
        s.on_board &= !self.captured;
        s.alive &= !self.captured;
    }

    /// [`Tables::write_back`]'s pieces on the board: each one's position, square and
    /// occupancy bit, and where not `CLEAN` the upkeep of those moved (those whose position
    /// changed: no move leaves a piece where it was).
    #[inline(always)]
    fn write_pieces<const CLEAN: bool>(&self, spent: &Spent, s: &mut State) {
        let mut moved = 0u64;
        for side in 0..2 {
            let first = side * spent.pieces;
            for r in members(self.present[side]) {
                let (k, p) = ((first + r) & 63, self.pos[side][r]);
                if !CLEAN && s.pos[k] != p {
                    moved |= 1 << k;
                    s.flags[k] &= !UNMOVED;
                    s.count[k] = 0;
                }
                let sq = (spent.at[side][p as usize] & 0xff) as u8;
                s.pos[k] = p;
                s.sq[k] = sq;
                s.occ[side].set(sq);
            }
        }
        if !CLEAN {
            s.unmoved &= !(moved | self.captured);
        }
    }

    /// Removes side `SIDE`'s piece in slot `r`, whose side's values are `line` (the one
    /// before it then has room).
    #[inline]
    fn remove<const SIDE: usize>(&mut self, line: &mut Line, r: usize) {
        let r = r & 63;
        let freed = core::mem::replace(&mut self.gap[SIDE][r], 0);
        let mut room_for = line.room_for.wrapping_sub(ROOM_FOR[freed as usize]);
        line.open &= !(1 << r);
        let present = self.present[SIDE] & !(1 << r);
        self.present[SIDE] = present;
        line.low &= !low_bit(self.pos[SIDE][r]);
        let b = self.behind[SIDE][r];
        let next = (present & (!1u64 << r)).trailing_zeros() as usize;
        if next < 64 {
            self.behind[SIDE][next] = b;
        }
        if b < 64 {
            // The piece behind gains the square left and the captured one's room: it
            // has room.
            let b = b as usize & 63;
            let old = self.gap[SIDE][b];
            let g = old.wrapping_add(freed).wrapping_add(1);
            self.gap[SIDE][b] = g;
            room_for = room_for
                .wrapping_add(ROOM_FOR[g as usize])
                .wrapping_sub(ROOM_FOR[old as usize]);
            line.open |= 1 << b;
        }
        line.room_for = room_for;
    }

    /// Captures the piece of side `SIDE`'s enemy whose board entry is `on` (its slot plus
    /// 64 times its side, plus one); whether that ends the game (no enemy piece left, or
    /// every piece in). In line: the loop's values being in
    /// memory, a call would only move the registers' values to the stack and back.
    #[inline(always)]
    fn capture<const SIDE: usize>(&mut self, spent: &Spent, on: u8) -> bool {
        let mut enemy = self.line[1 - SIDE];
        let r = on.wrapping_sub(1) as usize & 63;
        let e = ((1 - SIDE) * spent.pieces + r) & 63;
        let ep = self.pos[1 - SIDE][r];
        if SIDE == 0 {
            self.remove::<1>(&mut enemy, r);
        } else {
            self.remove::<0>(&mut enemy, r);
        }
        let gone = self.present[1 - SIDE] == 0;
        if spent.all_in_ends && spent.at[1 - SIDE][ep as usize] & IN == 0 {
            self.outside[1 - SIDE] -= 1;
        }
        self.captured |= 1 << e;
        self.captures[SIDE] = self.captures[SIDE].saturating_add(1);
        let over = (spent.no_pieces_ends && gone) || (spent.all_in_ends && self.outside == [0, 0]);
        self.line[1 - SIDE] = enemy;
        over
    }

    /// The move's effects on the enemy's barred landings and
    /// on the count of pieces outside the region of the end (only from or to a square with
    /// [`THREAT`] or [`IN`], a fifth of the moves; in line, as [`Tables::capture`]);
    /// whether that ends the game.
    #[inline(always)]
    fn regions<const SIDE: usize>(
        &mut self,
        spent: &Spent,
        from: u16,
        to: u16,
        p: usize,
        q: usize,
    ) -> bool {
        let mut over = false;
        // The piece's bar on the enemy's landings (a captured piece stood on a square
        // without one).
        if from & THREAT != 0 {
            self.blocked[1 - SIDE] &= !(1 << (spent.enemy_pos[SIDE][p & 255] & 63));
        }
        if to & THREAT != 0 {
            self.blocked[1 - SIDE] |= 1 << (spent.enemy_pos[SIDE][q & 255] & 63);
        }
        self.near[1 - SIDE] = near(self.blocked[1 - SIDE]);
        if spent.all_in_ends {
            let (was, is) = (from & IN != 0, to & IN != 0);
            if was && !is {
                self.outside[SIDE] += 1;
            } else if is && !was {
                self.outside[SIDE] -= 1;
                over = self.outside == [0, 0];
            }
        }
        over
    }

    /// Whether no piece of either side can move with any of the description's values
    /// ([`Compiled::check_end`]'s frozen end): first the quick look at each side's last
    /// piece with room, which settles nearly every case.
    #[inline(always)]
    fn frozen(&self, spent: &Spent) -> bool {
        !(self.moves_at_top(spent, 0) || self.moves_at_top(spent, 1)) && self.frozen_by_all(spent)
    }

    /// Whether the side's last piece with room (the farthest along) can move with the
    /// smallest value: it has room for it and lands on no barred square (it stands past
    /// the last, or no enemy piece stands on one). False says nothing.
    #[inline(always)]
    fn moves_at_top(&self, spent: &Spent, side: usize) -> bool {
        let side = side & 1;
        let open = self.line[side].open;
        if open == 0 {
            return false;
        }
        let r = last(open);
        self.gap[side][r] >= spent.min_value
            && (self.blocked[side] == 0 || self.pos[side][r] >= spent.bar_end[side])
    }

    /// The frozen end's test, every piece with room tried.
    #[cold]
    #[inline(never)]
    fn frozen_by_all(&self, spent: &Spent) -> bool {
        for side in 0..2 {
            for r in members(self.line[side].open) {
                if self.can_move(spent, side, r) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the piece in slot `r` of the side can move with any of the description's
    /// values.
    #[inline(always)]
    fn can_move(&self, spent: &Spent, side: usize, r: usize) -> bool {
        let (side, r) = (side & 1, r & 63);
        let at = self.pos[side][r];
        let mut allowed = at_most(spent.values, self.gap[side][r]);
        if at < spent.bar_end[side] {
            allowed &= !self.barred(side, at);
        }
        allowed != 0
    }
}

impl Playout {
    /// The held values barred for the piece in slot `r` (none where `cut_slots` has no `r`).
    #[inline(always)]
    fn cut_at(t: &Tables, cut_slots: u64, r: usize) -> u16 {
        if cut_slots >> r & 1 != 0 {
            t.cut[r & 63]
        } else {
            0
        }
    }

    /// Forgets every held value.
    #[inline(always)]
    fn drop_held(&mut self, t: &mut Tables) {
        t.held = [0; MAX_VALUE + 1];
        self.mask = 0;
    }

    /// Moves side `SIDE`'s piece in slot `r` from position `p` to position `q`, `v` ahead
    /// (before the next): the one before it then has more room; the piece's room after.
    /// The position and the value are passed, not read or worked out again: the board's
    /// stores before it keep the compiler from reusing the position's load.
    #[inline(always)]
    fn advance<const SIDE: usize>(
        t: &mut Tables,
        r: usize,
        p: u8,
        q: u8,
        v: u8,
        bar_end: u8,
        room: &[u64; 256],
    ) -> u8 {
        let r = r & 63;
        let line = &mut t.line[SIDE];
        if p < bar_end {
            // Only the positions before `bar_end` are read (a piece past them never comes
            // back); the new position's bit shifts out of the word when it is 64 or more.
            line.low ^= (1 | 1 << (v & 63)) << p;
        }
        t.pos[SIDE][r] = q;
        let old = t.gap[SIDE][r];
        let g = old.wrapping_sub(v);
        t.gap[SIDE][r] = g;
        let mut room_for = line
            .room_for
            .wrapping_add(room[g as usize])
            .wrapping_sub(room[old as usize]);
        // It had room: it keeps it unless the move closed it.
        if g == 0 {
            line.open &= !(1 << r);
        }
        let b = t.behind[SIDE][r] as usize;
        if b < 64 {
            let old = t.gap[SIDE][b];
            let g = old.wrapping_add(v);
            t.gap[SIDE][b] = g;
            room_for = room_for
                .wrapping_add(room[g as usize])
                .wrapping_sub(room[old as usize]);
            // It has room: the square just left.
            line.open |= 1 << b;
        }
        line.room_for = room_for;
        g
    }

    /// Plays a turn of side `SIDE`'s seat: its throws, each value held, until one gives no
    /// other, and then its spending. Whether the loop stops: the throws reached
    /// `max_throws` before the turn (the turn not played) or the game ended. Values may
    /// be held before the turn only where `HELD` (in the loop's turns, none are).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn turn<const SIDE: usize, R: rand::Rng + ?Sized, const HELD: bool>(
        &mut self,
        t: &mut Tables,
        spent: &Spent,
        rng: &mut R,
        sticks: u32,
    ) -> bool {
        // The throw taken off the throws left, the cap's test the borrow of that
        // subtraction (none left: set back to 0, the turn not played).
        let (left, none) = t.left.overflowing_sub(1);
        t.left = left;
        if none {
            t.left = 0;
            return true;
        }
        // The values held before the turn (none but in a state whose throws had begun).
        let mask = if HELD { self.mask } else { 0 };
        let e = spent.by_bits[self.bits.take(rng, sticks) as usize & 255];
        // One throw, one value (two turns in three): spent without being held; and so is
        // the last value of a turn that held more, held once when the others are spent.
        let one = if e & AGAIN == 0 && mask == 0 {
            (e & 15) as usize
        } else {
            match self.throws_and_spend::<SIDE, R>(t, spent, rng, sticks, mask, e) {
                0 => return false,
                ENDED => {
                    self.ended = true;
                    return true;
                }
                one => one,
            }
        };
        if self.spend_one::<SIDE, R>(t, spent, rng, one) {
            self.ended = true;
            return true;
        }
        false
    }

    /// The rest of a turn that holds more than one value (or one held before it): its
    /// throws, from the first, `e`, and its spending by [`Playout::spend`], with what that
    /// returns.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn throws_and_spend<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        t: &mut Tables,
        spent: &Spent,
        rng: &mut R,
        sticks: u32,
        mut mask: u16,
        mut e: u8,
    ) -> usize {
        loop {
            let v = (e & 15) as usize;
            t.held[v] = t.held[v].wrapping_add(1);
            if t.held[v] == 0 {
                // Kept at 255, as the step-by-step path keeps it (out of line: it takes 255
                // throws of one value in a turn).
                saturate(&mut t.held[v]);
            }
            mask |= 1 << v;
            if e & AGAIN == 0 {
                break;
            }
            let (left, none) = t.left.overflowing_sub(1);
            t.left = left;
            if none {
                t.left = 0;
                break;
            }
            e = spent.by_bits[self.bits.take(rng, sticks) as usize & 255];
        }
        self.spend::<SIDE, R>(t, spent, rng, mask)
    }

    /// [`Playout::turn`] out of line, for the first turn when its seat is of side 1 or
    /// holds values (once or twice at most); called on a copy of the loop's values, so
    /// that theirs are not taken by reference.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn turn_apart<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        t: &mut Tables,
        spent: &Spent,
        rng: &mut R,
        sticks: u32,
    ) -> bool {
        self.turn::<SIDE, R, true>(t, spent, rng, sticks)
    }

    /// The spending of a turn that had begun when the loop was called (out of the loop's
    /// way: it is taken once at most, on a copy of the loop's values); whether the game
    /// ended. With nothing held, the listing is a pass, which ends the turn.
    #[cold]
    #[inline(never)]
    fn spend_begun<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        t: &mut Tables,
        spent: &Spent,
        rng: &mut R,
    ) -> bool {
        if self.mask == 0 {
            return false;
        }
        let mut over = self.spend::<SIDE, R>(t, spent, rng, self.mask);
        if over != 0 && over != ENDED {
            over = if self.spend_one::<SIDE, R>(t, spent, rng, over) {
                ENDED
            } else {
                0
            };
        }
        self.ended |= over == ENDED;
        over == ENDED
    }

    /// Plays side `SIDE`'s spending decisions until the held values are spent or none can
    /// be (0), or the game ends ([`ENDED`]), or one value is left, held once (that value,
    /// dropped from the held ones: its decision is [`Playout::spend_one`]'s). Every held
    /// value is dropped after. Some value is held (a turn's throws hold one;
    /// [`Playout::spend_begun`] passes an empty turn). The values held are `mask`
    /// ([`Playout::mask`] is 0 after).
    #[inline(always)]
    fn spend<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        t: &mut Tables,
        spent: &Spent,
        rng: &mut R,
        mut mask: u16,
    ) -> usize {
        loop {
            let line = t.line[SIDE];
            // The actions: for each value held, the pieces with room for it (a sum of
            // bytes, each at most the side's pieces) ...
            let mut total = ((line.room_for & BYTES[(mask >> 1) as usize & 255])
                .wrapping_mul(0x0101_0101_0101_0101)
                >> 56) as usize;
            // ... less those landing on an enemy piece on a barred square: only from the
            // positions a held value takes onto one (found for all pieces at once, from
            // the set of their positions), and only while an enemy piece stands on one.
            let mut cut_slots = 0u64;
            let blocked = t.blocked[SIDE];
            if line.low & t.near[SIDE] != 0 {
                // Some value is held: the first taken before the loop.
                let mut values = mask;
                let mut reach = blocked >> (values.trailing_zeros() & 15);
                values &= values.wrapping_sub(1);
                while values != 0 {
                    reach |= blocked >> (values.trailing_zeros() & 15);
                    values &= values - 1;
                }
                let mut rest = line.low & reach;
                while rest != 0 {
                    let p = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                    let k = t.board[(spent.at[SIDE][p as usize] & 0xff) as usize];
                    let r = (k as usize).wrapping_sub(1) & 63;
                    let cut = at_most(mask, t.gap[SIDE][r]) & t.barred(SIDE, p);
                    if cut != 0 {
                        cut_slots |= 1 << r;
                        t.cut[r] = cut;
                        total -= ones(cut);
                    }
                }
            }
            if total == 0 {
                self.drop_held(t);
                return 0;
            }
            let mut i = if total == 1 {
                0
            } else {
                // The generator's draw out of line (the same bits): inlined, its state and
                // constants would take registers through the decision (the throw's draw,
                // in line, counts fewer).
                self.bits.short_index_drawn_apart(rng, total as u32)
            };
            // The drawn action, by its rank in the listing (piece by piece, each piece's
            // values in increasing order); per room, how many of the held values fit.
            let upto = &UPTO[(mask >> 1) as usize & 255];
            let gap = &t.gap[SIDE];
            let mut rest = line.open;
            let (r, v) = if cut_slots == 0 && 2 * i >= total {
                // From the last piece down, the nearer end to the rank.
                let mut j = total - 1 - i;
                loop {
                    let r = last(rest);
                    let k = upto[gap[r] as usize] as usize;
                    if j < k {
                        break (r, value_at(mask, gap[r], 0, k - 1 - j));
                    }
                    j -= k;
                    rest &= !(1 << r);
                }
            } else if cut_slots == 0 {
                loop {
                    let r = rest.trailing_zeros() as usize & 63;
                    let k = upto[gap[r] as usize] as usize;
                    if i < k {
                        break (r, value_at(mask, gap[r], 0, i));
                    }
                    i -= k;
                    rest &= rest - 1;
                }
            } else if 2 * i >= total {
                // The same from the last piece down, the barred values left out.
                let mut j = total - 1 - i;
                loop {
                    let r = last(rest);
                    let mut k = upto[gap[r] as usize] as usize;
                    if cut_slots >> r & 1 != 0 {
                        k -= ones(t.cut[r]);
                    }
                    if j < k {
                        break (
                            r,
                            value_at(mask, gap[r], Self::cut_at(t, cut_slots, r), k - 1 - j),
                        );
                    }
                    j -= k;
                    rest &= !(1 << r);
                }
            } else {
                loop {
                    let r = rest.trailing_zeros() as usize & 63;
                    let mut k = upto[gap[r] as usize] as usize;
                    if cut_slots >> r & 1 != 0 {
                        k -= ones(t.cut[r]);
                    }
                    if i < k {
                        break (r, value_at(mask, gap[r], Self::cut_at(t, cut_slots, r), i));
                    }
                    i -= k;
                    rest &= rest - 1;
                }
            };
            t.held[v] = t.held[v].wrapping_sub(1);
            if t.held[v] == 0 {
                mask &= !(1 << v);
            }
            if self.play_move::<SIDE>(t, spent, r, v) {
                self.drop_held(t);
                return ENDED;
            }
            if mask & mask.wrapping_sub(1) == 0 {
                let w = mask.trailing_zeros() as usize & 15;
                if mask == 0 {
                    self.mask = 0;
                    return 0;
                }
                if t.held[w] == 1 {
                    t.held[w] = 0;
                    self.mask = 0;
                    return w;
                }
            }
        }
    }

    /// Plays side `SIDE`'s one spending decision of a turn that holds the one value `v`
    /// alone (none held before it): as [`Playout::spend`] with `mask` the value alone, but
    /// the value not counted among the held ones (their counts stay 0), a piece's actions
    /// one or none (its room at least `v`, its landing not barred); whether the game ended.
    #[inline(always)]
    fn spend_one<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        t: &mut Tables,
        spent: &Spent,
        rng: &mut R,
        v: usize,
    ) -> bool {
        let line = t.line[SIDE];
        // The pieces with room for the value, less those it takes onto an enemy piece on a
        // barred square (where one stands near).
        let mut total = (line.room_for >> ((8 * v) & 63)) as usize & 255;
        let mut rest = line.open;
        if line.low & t.near[SIDE] != 0 {
            let mut from = line.low & (t.blocked[SIDE] >> (v & 63));
            while from != 0 {
                let p = from.trailing_zeros() as u8;
                from &= from - 1;
                let k = t.board[(spent.at[SIDE][p as usize] & 0xff) as usize];
                let r = (k as usize).wrapping_sub(1) & 63;
                if t.gap[SIDE][r] as usize >= v {
                    rest &= !(1 << r);
                    total -= 1;
                }
            }
        }
        if total == 0 {
            return false;
        }
        let i = if total == 1 {
            0
        } else {
            self.bits.short_index_drawn_apart(rng, total as u32)
        };
        // The drawn piece, by its rank among those with room for the value.
        let gap = &t.gap[SIDE];
        let r = if 2 * i >= total {
            let mut j = total - 1 - i;
            loop {
                let r = last(rest);
                if gap[r] as usize >= v {
                    if j == 0 {
                        break r;
                    }
                    j -= 1;
                }
                rest &= !(1 << r);
            }
        } else {
            let mut i = i;
            loop {
                let r = rest.trailing_zeros() as usize & 63;
                if gap[r] as usize >= v {
                    if i == 0 {
                        break r;
                    }
                    i -= 1;
                }
                rest &= rest - 1;
            }
        };
        self.play_move::<SIDE>(t, spent, r, v)
    }

    /// Moves side `SIDE`'s piece in slot `r` by `v` ([`Playout::move_piece`]); whether
    /// that ends the game, the frozen end included.
    #[inline(always)]
    fn play_move<const SIDE: usize>(
        &mut self,
        t: &mut Tables,
        spent: &Spent,
        r: usize,
        v: usize,
    ) -> bool {
        let p = t.pos[SIDE][r] as usize;
        let g = self.move_piece::<SIDE>(t, spent, r, p, p + v, v);
        // The flag tested first, as one compare with memory (not loaded to a register to
        // be tested on both paths of the frozen end's test).
        if t.over {
            return true;
        }
        // The mover that can step on with the smallest value settles the frozen end at
        // once (most moves); the others take the quick look at each side's last piece
        // with room.
        let steps_on =
            g >= spent.min_value && (p + v >= spent.bar_end[SIDE] as usize || t.blocked[SIDE] == 0);
        spent.frozen_ends && !steps_on && t.frozen(spent)
    }

    /// Moves side `SIDE`'s piece in slot `r` from position `p` to position `q`, `v` ahead,
    /// capturing the enemy piece there; the piece's room after. Where that ends the game by the ends
    /// other than the frozen one ([`Compiled::check_end`]), [`Tables::over`] is set.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn move_piece<const SIDE: usize>(
        &mut self,
        t: &mut Tables,
        spent: &Spent,
        r: usize,
        p: usize,
        q: usize,
        v: usize,
    ) -> u8 {
        let (from, to) = (spent.at[SIDE][p & 255], spent.at[SIDE][q & 255]);
        let sq = (to & 0xff) as usize;
        t.board[(from & 0xff) as usize] = 0;
        let on = t.board[sq];
        if on != 0 && t.capture::<SIDE>(spent, on) {
            // An enemy piece (no walk ends on an own one), and the last or the last out.
            t.over = true;
        }
        t.board[sq] = ((SIDE << 6) | (r & 63)) as u8 + 1;
        if (from | to) & (THREAT | IN) != 0 && t.regions::<SIDE>(spent, from, to, p, q) {
            t.over = true;
        }
        Self::advance::<SIDE>(
            t,
            r,
            p as u8,
            q as u8,
            v as u8,
            spent.bar_end[SIDE],
            &spent.room_for,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::loop_tests::{compare_along, compare_every_variant};
    use super::super::state::{State, GONE};
    use super::super::Described;
    use crate::play::RandomBits;

    /// From nodes all along random games of every variant (seat count and option) of every
    /// shipped and reference description that the loop takes (and with a throw cap that
    /// cuts games short), the one loop leaves the state, the random bits and the generator
    /// exactly as the step-by-step path does; and Sig (Western Sahara) takes it with two
    /// and four seats and every number of columns.
    #[test]
    fn the_spending_loop_plays_as_the_step_by_step_path() {
        let (taken, starts) = compare_every_variant(
            &[(1, None), (2, Some(40))],
            |c| c.spent_playouts.as_ref(),
            |seed, v, _| seed + v as u64,
            |p, c, s| p.fits(c, s),
            |p, c, s, bits, rng, cap| p.play_to_end(c, s, bits, rng, cap),
        );
        for seats in [2, 4] {
            for cols in 20..=25 {
                assert!(
                    taken
                        .iter()
                        .any(|(name, _, g)| *name == "sig-western-sahara"
                            && g.seats() == seats
                            && g.compiled.cols == cols),
                    "{seats} seats, {cols} columns"
                );
            }
        }
        assert!(starts > 3_000, "{starts}");
    }

    /// Sig (Western Sahara), as shipped.
    fn western_sahara() -> Described {
        let (file, text) = super::super::games::shipped("sig-western-sahara").unwrap();
        Described::from_text(file, text).unwrap()
    }

    /// Where the pieces on the board have flags and hold counts (none of the loop's
    /// descriptions sets them, but a state given may have them), the loop plays as from
    /// the state without them and then keeps them as a move does: a moved piece loses
    /// its unmoved flag (and its place in the set of unmoved pieces) and its count, a
    /// captured one all its flags and its count, the others keep theirs.
    #[test]
    fn the_spending_loop_keeps_flags_and_counts_as_moves_do() {
        let game = western_sahara();
        for seats in [2, 4] {
            let g = game.with_seat_count(seats).unwrap();
            let c = &g.compiled;
            let p = c.spent_playouts.as_ref().unwrap();
            let start = g.initial_state();
            let mut dirty = start;
            for k in super::members(start.on_board) {
                dirty.flags[k] = super::UNMOVED | 1;
                dirty.count[k] = 3;
            }
            dirty.unmoved = start.on_board;
            // Throw caps that stop games early, so that some pieces are still unmoved.
            let (mut kept, mut gone) = (0, 0);
            for (seed, cap) in (1..30).map(|seed| (seed, [10, 40, g.max_throws][seed as usize % 3]))
            {
                let play = |mut s: State| {
                    let mut rng = <crate::Rng as rand::SeedableRng>::seed_from_u64(seed);
                    p.play_to_end(c, &mut s, &mut RandomBits::new(), &mut rng, cap);
                    s
                };
                let (clean, end) = (play(start), play(dirty));
                let mut expected = clean;
                for k in super::members(start.on_board) {
                    let (moved, captured) = (clean.pos[k] != start.pos[k], clean.pos[k] == GONE);
                    expected.flags[k] = match (captured, moved) {
                        (true, _) => 0,
                        (false, true) => 1,
                        (false, false) => super::UNMOVED | 1,
                    };
                    expected.count[k] = if moved { 0 } else { 3 };
                    if !moved {
                        expected.unmoved |= 1 << k;
                    }
                    kept += usize::from(!moved);
                    gone += usize::from(captured);
                }
                assert_eq!(end, expected, "{seats} seats, seed {seed}, cap {cap}");
            }
            assert!(kept > 100 && gone > 100, "{kept} kept, {gone} captured");
        }
    }

    /// A move that leaves no piece able to move ends the game (the frozen end) in the loop
    /// as in the step-by-step path: side 1's only action (a 4 held) closes its block of
    /// pieces in its last row, where side 0's last piece, behind it, may land on none of
    /// them (the row is side 1's safe one) and has nowhere else to go.
    #[test]
    fn the_spending_loop_ends_the_game_when_no_piece_can_move() {
        let game = western_sahara();
        for seats in [2, 4] {
            let g = game.with_seat_count(seats).unwrap();
            let c = &g.compiled;
            let p = c.spent_playouts.as_ref().unwrap();
            let mut s = g.initial_state();
            for k in 0..2 * c.pieces_per_side {
                s.pos[k] = GONE;
            }
            // Side 0's piece in column 11 of the first row; side 1's in columns 8 and 13
            // to 19 of the same row, its last.
            let first = c.pieces_per_side;
            s.pos[0] = 11;
            s.pos[first] = 68;
            for (i, q) in (73..80).enumerate() {
                s.pos[first + 1 + i] = q;
            }
            for k in 0..2 * c.pieces_per_side {
                let side = usize::from(k >= first);
                s.sq[k] = c.square_of[side]
                    .get(s.pos[k] as usize)
                    .copied()
                    .unwrap_or(GONE);
            }
            s.derive_sets();
            c.set_occupancy(&mut s);
            s.turn = 1;
            s.spending = true;
            s.held[4] = 1;
            assert!(g.legal_actions(&s).len() == 1, "{:?}", g.legal_actions(&s));
            let mut end = s;
            g.play_random_to_end_step_by_step(
                &mut end,
                &mut crate::play::RandomBits::new(),
                &mut <crate::Rng as rand::SeedableRng>::seed_from_u64(1),
            );
            assert_eq!(c.end_reason(&end), Some("frozen"));
            assert_eq!(end.throws, 0);
            for seed in 1..4 {
                compare_along(
                    &g,
                    s,
                    seed,
                    "the frozen end",
                    |s| p.fits(c, s),
                    |s, bits, rng| p.play_to_end(c, s, bits, rng, g.max_throws),
                );
            }
        }
    }
}
