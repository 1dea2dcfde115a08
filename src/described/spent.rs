//! Random playouts in one loop of descriptions whose turns throw first and then spend the
//! held values: two sides (seats alone or in alternating teams), one piece a square on one
//! straight track a side, own pieces not passed, captures by landing (but on the enemy's
//! safe squares), and the ends when a side has no pieces, when every piece stands in its
//! region, and when no piece can move. The loop makes the same draws, actions and states
//! as the rules' step-by-step path ([`Compiled::throw`] for each throw, and each spending
//! decision's actions listed as [`Compiled::spend_actions`] lists them, one drawn with
//! `bits.index(rng, len)`): it counts the listed actions without listing them and finds the
//! drawn one by its rank. The test below compares the two at every node.

use super::compile::{Compiled, MAX_VALUE, NONE};
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

/// The fixed settings the playouts read, taken from [`Compiled`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Spent {
    /// Per throw's stick bits, as [`crate::Sticks::throw_from_bits`] reads them: its value
    /// (bits 0 to 3) and whether it gives another ([`AGAIN`]).
    by_bits: [u8; 256],
    /// The track's length (positions 0 to `len - 1`, one after the other).
    len: u8,
    seats: usize,
    teams: bool,
    /// Per side and track position: the square, with [`BAR`] and [`IN`].
    at: Box<[[u16; 256]; 2]>,
    /// Per side: one past the last position with [`BAR`] (0 where there is none): a piece
    /// at or past it lands on no barred square.
    bar_end: [u8; 2],
    /// Per square: bit `side` where the square has [`BAR`] for the side.
    barred: [u8; 256],
    /// The description's distinct values (bit v), which the frozen end tries.
    values: u16,
    no_pieces_ends: bool,
    all_in_ends: bool,
    frozen_ends: bool,
}

impl Spent {
    /// The settings of a description whose every mechanic this loop covers.
    pub(crate) fn of(c: &Compiled) -> Option<Spent> {
        let n = c.sticks.count() as usize;
        let len = c.track_len;
        // Each seat's next seat is of the other side (seats alone, or teams alternating).
        let alternating = (0..c.seats).all(|t| c.side_of((t + 1) % c.seats) == 1 - c.side_of(t));
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
                .all(|&v| (1..=MAX_VALUE as u8).contains(&v))
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
        let mut at = Box::new([[u16::from(NONE); 256]; 2]);
        let mut bar_end = [0u8; 2];
        let mut barred_sq = [0u8; 256];
        for side in 0..2 {
            let enemy = 1 - side;
            for p in 0..len {
                let sq = c.square_of[side][p];
                let barred =
                    !c.capture || c.safe.is_some_and(|r| c.regions[enemy][r as usize].has(sq));
                let inside = c
                    .end_all_in
                    .is_some_and(|r| c.regions[side][r as usize].has(sq));
                at[side][p] =
                    u16::from(sq) | if barred { BAR } else { 0 } | if inside { IN } else { 0 };
                if barred {
                    bar_end[side] = p as u8 + 1;
                    barred_sq[sq as usize] |= 1 << side;
                }
            }
        }
        Some(Spent {
            by_bits,
            len: len as u8,
            seats: c.seats,
            teams: c.teams,
            at,
            bar_end,
            barred: barred_sq,
            values: c.values.iter().fold(0, |m, &v| m | 1 << v),
            no_pieces_ends: c.end_no_pieces,
            all_in_ends: c.end_all_in.is_some(),
            frozen_ends: c.end_frozen,
        })
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
            && (s.turn as usize) < self.seats
            && s.out_place == [0; MAX_SEATS]
            && s.burials == [0; MAX_SEATS]
            && s.alive & !s.on_board == 0
            && in_order
            && one_a_square(c, s)
    }

    /// The side of a seat.
    #[inline(always)]
    fn side_of(&self, seat: usize) -> usize {
        if self.teams {
            seat & 1
        } else {
            seat
        }
    }

    /// Plays the state to the end as the step-by-step path does: each throw
    /// `bits.throw(rng, sticks)`, each spending decision a uniformly random action among
    /// those [`Compiled::spend_actions`] lists, drawn with `bits.index(rng, len)`.
    #[inline(never)]
    pub(crate) fn play_to_end<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        if s.ended {
            return;
        }
        let mut g = Playout::of(self, c, s);
        let mut b = *bits;
        let mut turn = s.turn as usize;
        let mut throws = s.throws;
        let mut spending = s.spending;
        let sticks = u32::from(c.sticks.count());
        loop {
            if !spending {
                if throws >= max_throws {
                    break;
                }
                // The turn's throws, each value held, until one gives no other (or the cap).
                loop {
                    let e = self.by_bits[b.take(rng, sticks) as usize & 255];
                    throws = throws.saturating_add(1);
                    let v = (e & 15) as usize;
                    g.held[v] = g.held[v].saturating_add(1);
                    g.hold(v);
                    if e & AGAIN == 0 || throws >= max_throws {
                        break;
                    }
                }
            }
            spending = false;
            let over = if self.side_of(turn) == 0 {
                g.spend::<0, R>(self, s, &mut b, rng)
            } else {
                g.spend::<1, R>(self, s, &mut b, rng)
            };
            if over {
                g.ended = true;
                break;
            }
            turn += 1;
            if turn == self.seats {
                turn = 0;
            }
        }
        (s.on_board, s.alive, s.unmoved) = (g.on_board, g.alive, g.unmoved);
        c.set_occupancy(s);
        s.held = g.held;
        s.spending = false;
        s.turn = turn as u8;
        s.throws = throws;
        s.ended = g.ended;
        *bits = b;
    }
}

/// One side's pieces on the board in track order (their numbers' order too).
#[derive(Clone, Copy)]
struct Line {
    /// The positions, and the track's length after the last (so that each piece's next
    /// one, or the end, is the entry after it).
    pos: [u8; 65],
    piece: [u8; 64],
    n: usize,
    /// The ranks of the pieces with room before the next (bit r): the only ones that can
    /// move, no value being 0.
    open: u64,
}

impl Line {
    /// Removes the piece at rank `r` (the one before it then has room).
    #[inline]
    fn remove(&mut self, r: usize) {
        let mut at = r;
        while at < self.n {
            self.pos[at] = self.pos[at + 1];
            self.piece[at & 63] = self.piece[(at + 1) & 63];
            at += 1;
        }
        self.n -= 1;
        let below = (1u64 << (r & 63)) - 1;
        self.open = (self.open & below) | (self.open >> 1 & !below);
        if r > 0 {
            self.open |= 1 << ((r - 1) & 63);
        }
    }

    /// Moves the piece at rank `r` to position `q` (ahead, before the next): the one
    /// before it then has room.
    #[inline(always)]
    fn advance(&mut self, r: usize, q: u8) {
        let r = r & 63;
        self.pos[r] = q;
        if r > 0 {
            self.open |= 1 << (r - 1);
        }
        if self.pos[r + 1] > q + 1 {
            self.open |= 1 << r;
        } else {
            self.open &= !(1 << r);
        }
    }
}

/// What the loop keeps of the state between decisions.
struct Playout {
    /// Per square: the piece on it, plus one (0: none).
    board: [u8; 256],
    line: [Line; 2],
    /// Per side: its pieces outside the region of the end when all are in (0 where there
    /// is no such end).
    outside: [u32; 2],
    on_board: u64,
    alive: u64,
    unmoved: u64,
    /// The held values' counts.
    held: [u8; MAX_VALUE + 1],
    /// The values held (bit v).
    mask: u16,
    /// In the four bits from `4 l`: how many of the values held are at most `l`.
    upto: u64,
    /// Per side: the enemy pieces on squares with [`BAR`] for it (while there are none, no
    /// landing of the side is barred).
    threats: [u32; 2],
    /// A side and a rank whose piece could move when last looked at: the frozen end's
    /// test tries it first.
    witness: (usize, usize),
    ended: bool,
}

/// One in each four bits of [`Playout::upto`].
const NIBBLES: u64 = 0x1111_1111_1111_1111;

/// The values (bits) of `mask` of at most `l` steps.
#[inline(always)]
fn at_most(mask: u16, l: usize) -> u16 {
    mask & ((2u32 << l.min(15)) - 1) as u16
}

impl Playout {
    fn of(spent: &Spent, c: &Compiled, s: &State) -> Playout {
        let mut board = [0u8; 256];
        let mut line = [Line {
            pos: [0; 65],
            piece: [0; 64],
            n: 0,
            open: 0,
        }; 2];
        let mut outside = [0; 2];
        let mut threats = [0; 2];
        for (side, l) in line.iter_mut().enumerate() {
            for k in members(s.on_board & c.side_bits[side]) {
                let p = s.pos[k];
                board[s.sq[k] as usize] = k as u8 + 1;
                if spent.barred[s.sq[k] as usize] >> (1 - side) & 1 == 1 {
                    threats[1 - side] += 1;
                }
                l.pos[l.n] = p;
                l.piece[l.n] = k as u8;
                l.n += 1;
                if spent.all_in_ends && spent.at[side][p as usize] & IN == 0 {
                    outside[side] += 1;
                }
            }
            l.pos[l.n] = spent.len;
            for r in 0..l.n {
                if l.pos[r + 1] > l.pos[r] + 1 {
                    l.open |= 1 << r;
                }
            }
        }
        let mut g = Playout {
            board,
            line,
            outside,
            on_board: s.on_board,
            alive: s.alive,
            unmoved: s.unmoved,
            held: s.held,
            mask: 0,
            upto: 0,
            threats,
            witness: (0, 0),
            ended: s.ended,
        };
        for v in 1..=MAX_VALUE {
            if g.held[v] != 0 {
                g.hold(v);
            }
        }
        g
    }

    /// Marks value `v` held (it may be already).
    #[inline(always)]
    fn hold(&mut self, v: usize) {
        if self.mask >> v & 1 == 0 {
            self.mask |= 1 << v;
            self.upto += NIBBLES << (4 * v);
        }
    }

    /// Spends one held value `v`.
    #[inline(always)]
    fn spend_one(&mut self, v: usize) {
        self.held[v] = self.held[v].saturating_sub(1);
        if self.held[v] == 0 {
            self.mask &= !(1 << v);
            self.upto -= NIBBLES << (4 * v);
        }
    }

    /// Forgets every held value.
    #[inline(always)]
    fn drop_held(&mut self) {
        self.held = [0; MAX_VALUE + 1];
        self.mask = 0;
        self.upto = 0;
    }

    /// The values (bits) of `allowed` that the piece at position `p` of side `SIDE` may
    /// spend without landing on an enemy piece on a barred square.
    #[inline(always)]
    fn unbarred(&self, spent: &Spent, side: usize, p: usize, allowed: u16) -> u16 {
        let mut out = allowed;
        let mut rest = allowed;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let a = spent.at[side][(p + v) & 255];
            if a & BAR != 0 && self.board[(a & 0xff) as usize] != 0 {
                out &= !(1 << v);
            }
        }
        out
    }

    /// Plays side `SIDE`'s spending decisions until the held values are spent or none can
    /// be (false), or the game ends (true). Every held value is dropped after.
    #[inline(always)]
    fn spend<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        spent: &Spent,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
    ) -> bool {
        // Each rank's count of actions.
        let mut counts = [0u8; 64];
        loop {
            if self.mask == 0 {
                // Nothing held: the listing is a pass (it cannot be reached from a turn's
                // throws, which always hold a value).
                self.drop_held();
                return false;
            }
            let line = &self.line[SIDE];
            let bar_end = if self.threats[SIDE] == 0 {
                0
            } else {
                spent.bar_end[SIDE] as usize
            };
            let mut total = 0usize;
            let mut rest = line.open;
            while rest != 0 {
                let r = rest.trailing_zeros() as usize & 63;
                rest &= rest - 1;
                let p = line.pos[r] as usize;
                let l = (line.pos[r + 1] as usize).saturating_sub(p + 1);
                let mut k = (self.upto >> (4 * l.min(15)) & 15) as u8;
                if k != 0 && p < bar_end {
                    k = self
                        .unbarred(spent, SIDE, p, at_most(self.mask, l))
                        .count_ones() as u8;
                }
                counts[r] = k;
                total += k as usize;
            }
            if total == 0 {
                self.drop_held();
                return false;
            }
            let mut i = if total == 1 {
                0
            } else {
                bits.short_index(rng, total.min(BUFFER) as u32)
            };
            let mut rest = line.open;
            let r = loop {
                let r = rest.trailing_zeros() as usize & 63;
                let k = counts[r] as usize;
                if i < k {
                    break r;
                }
                i -= k;
                rest &= rest - 1;
            };
            let p = line.pos[r] as usize;
            let l = (line.pos[r + 1] as usize).saturating_sub(p + 1);
            let mut allowed = at_most(self.mask, l);
            if p < bar_end {
                allowed = self.unbarred(spent, SIDE, p, allowed);
            }
            for _ in 0..i {
                allowed &= allowed.wrapping_sub(1);
            }
            let v = allowed.trailing_zeros() as usize & 15;
            self.move_piece::<SIDE>(spent, s, r, p, p + v);
            self.spend_one(v);
            if self.over(spent) {
                self.drop_held();
                return true;
            }
            if self.mask == 0 {
                return false;
            }
        }
    }

    /// Moves side `SIDE`'s piece of rank `r` from position `p` to position `q`, capturing
    /// the enemy piece there.
    #[inline(always)]
    fn move_piece<const SIDE: usize>(
        &mut self,
        spent: &Spent,
        s: &mut State,
        r: usize,
        p: usize,
        q: usize,
    ) {
        let (from, to) = (spent.at[SIDE][p & 255], spent.at[SIDE][q & 255]);
        let k = self.line[SIDE].piece[r & 63] as usize & 63;
        let sq = (to & 0xff) as usize;
        self.board[(from & 0xff) as usize] = 0;
        let on = self.board[sq];
        if on != 0 {
            // An enemy piece (no walk ends on an own one).
            let e = (on - 1) as usize & 63;
            let enemy = &mut self.line[1 - SIDE];
            let ep = s.pos[e];
            let mut er = 0;
            while er + 1 < enemy.n && enemy.pos[er & 63] != ep {
                er += 1;
            }
            enemy.remove(er);
            if spent.all_in_ends && spent.at[1 - SIDE][ep as usize] & IN == 0 {
                self.outside[1 - SIDE] -= 1;
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
        }
        self.board[sq] = k as u8 + 1;
        // The piece's threat to the enemy's landings (a captured piece stood on a square
        // without one).
        let enemy_bars = |sq: usize| u32::from(spent.barred[sq & 255] >> (1 - SIDE) & 1);
        self.threats[1 - SIDE] =
            self.threats[1 - SIDE] - enemy_bars((from & 0xff) as usize) + enemy_bars(sq);
        if spent.all_in_ends {
            let (was, is) = (from & IN != 0, to & IN != 0);
            if was && !is {
                self.outside[SIDE] += 1;
            } else if is && !was {
                self.outside[SIDE] -= 1;
            }
        }
        self.line[SIDE].advance(r, q as u8);
        s.pos[k] = q as u8;
        s.sq[k] = sq as u8;
        s.flags[k] &= !UNMOVED;
        s.count[k] = 0;
        self.unmoved &= !(1u64 << k);
    }

    /// Whether the game is over after a move ([`Compiled::check_end`]).
    #[inline(always)]
    fn over(&mut self, spent: &Spent) -> bool {
        (spent.no_pieces_ends && (self.line[0].n == 0 || self.line[1].n == 0))
            || (spent.all_in_ends && self.outside == [0, 0])
            || (spent.frozen_ends && self.frozen(spent))
    }

    /// Whether no piece of either side can move with any of the description's values:
    /// the piece that could when last looked at is tried first.
    fn frozen(&mut self, spent: &Spent) -> bool {
        let (side, r) = self.witness;
        if self.can_move(spent, side, r) {
            return false;
        }
        for side in 0..2 {
            let mut rest = self.line[side].open;
            while rest != 0 {
                let r = rest.trailing_zeros() as usize & 63;
                rest &= rest - 1;
                if self.can_move(spent, side, r) {
                    self.witness = (side, r);
                    return false;
                }
            }
        }
        true
    }

    /// Whether the piece of rank `r` of the side (if there is one) can move with any of
    /// the description's values.
    #[inline(always)]
    fn can_move(&self, spent: &Spent, side: usize, r: usize) -> bool {
        let (side, line) = (side & 1, &self.line[side & 1]);
        if r >= line.n {
            return false;
        }
        let p = line.pos[r & 63] as usize;
        let l = (line.pos[(r & 63) + 1] as usize).saturating_sub(p + 1);
        let mut allowed = at_most(spent.values, l);
        if allowed != 0 && self.threats[side] != 0 && p < spent.bar_end[side] as usize {
            allowed = self.unbarred(spent, side, p, allowed);
        }
        allowed != 0
    }
}

#[cfg(test)]
mod tests {
    use super::super::loop_tests::{compare_along, compare_every_variant};
    use super::super::state::GONE;
    use super::super::Described;

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

    /// A move that leaves no piece able to move ends the game (the frozen end) in the loop
    /// as in the step-by-step path: side 1's only action (a 4 held) closes its block of
    /// pieces in its last row, where side 0's last piece, behind it, may land on none of
    /// them (the row is side 1's safe one) and has nowhere else to go.
    #[test]
    fn the_spending_loop_ends_the_game_when_no_piece_can_move() {
        let game = Described::from_text(
            "sig-western-sahara.toml",
            super::super::games::SHIPPED
                .iter()
                .find(|g| g.0 == "sig-western-sahara")
                .unwrap()
                .2,
        )
        .unwrap();
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
