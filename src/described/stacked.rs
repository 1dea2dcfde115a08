//! Random playouts of stacking descriptions in one loop: two sides whose pieces that meet
//! stack, move whole and are captured whole; tracks that fork into gated branches and set
//! flags; an opening throw; captures by landing and the end when a side has no pieces. The
//! loop makes the same draws, actions and states as the rules' step-by-step path
//! ([`Compiled::throw`], then every legal action listed and one drawn with
//! `bits.index(rng, len)` where there are two or more, as
//! [`Described::play_drawn_within`](super::Described::play_drawn_within) draws it): the
//! actions are counted in the listed order without being listed, every walk's ends and the
//! gates on its way read from a table built once; the test below compares the two at every
//! node.

use super::compile::{Compiled, Gate, NONE};
use super::engine::members;
use super::format::{Decide, Occupancy, Overshoot};
use super::state::{State, GONE, OFF, UNMOVED};
use crate::play::RandomBits;

/// The most squares the loop's sets of squares hold.
const SQUARES: usize = 64;
/// The most regions a gate may name.
const REGIONS: usize = 8;
/// No region: a gate without that condition.
const NO_REGION: u8 = u8::MAX;
/// The bit of a [`Stacked::by_marked`] entry that gives another throw.
const AGAIN: u8 = 1 << 4;
/// The bit of a [`Stacked::by_marked`] entry whose value begins the game.
const BEGINS: u8 = 1 << 5;
/// The bit of a [`Row::counts`] entry whose walk meets a gate.
const GATED: u32 = 1 << 31;

/// One way a walk may end, and the gates on its way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct End {
    /// The square it ends on (the loop's number of the square).
    to: u8,
    /// The flags it sets on the moving pieces.
    set_flags: u8,
    /// The flags the moving stack must lack.
    without: u8,
    /// The region where an enemy piece must stand ([`NO_REGION`]: none).
    enemy_in: u8,
    /// The region where the mover's pieces must all stand on one square, if any there
    /// ([`NO_REGION`]: none).
    own_one: u8,
}

impl End {
    fn gated(&self) -> bool {
        self.without != 0 || self.enemy_in != NO_REGION || self.own_one != NO_REGION
    }
}

/// The ends of a walk of some steps from a square, in the order the rules list them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Walk {
    /// The number of ends (0 to 2).
    n: u8,
    /// Whether a gate on the way to any end must be tested.
    gated: bool,
    ends: [End; 2],
}

/// What a decision of one side on one value reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    /// Per square (256 entries, so that a byte indexes it): the two actions of the walk's
    /// ends as listed (the square's index into [`Row::ends`] for each end, in bits 0 to
    /// 15), the number of its ends (bits 16 to 23), and [`GATED`] where a gate on the way
    /// must be tested.
    counts: [u32; 256],
    /// At `square << 1 | end`: the ends of the walk from the square (an action of a
    /// decision is listed as that index, so the drawn one reads its end in one step).
    ends: [End; 2 * SQUARES],
}

/// The fixed settings a stacking description's playouts read, taken from [`Compiled`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stacked {
    /// Per number of marked sides (8 for more): the throw's value (bits 0 to 3), whether
    /// it gives another ([`AGAIN`]) and whether it is the opening's value ([`BEGINS`]).
    by_marked: [u8; 9],
    /// [`Stacked::by_marked`] by the throw's stick bits.
    by_bits: [u8; 64],
    /// Whether the opening's throw moves.
    opening_moves: bool,
    /// Whether the description has an opening throw.
    has_opening: bool,
    /// Whether a side with no pieces left ends the game (the only end there is).
    no_pieces_ends: bool,
    /// Per square code: the loop's number of the square ([`NONE`] where no track goes).
    id: [u8; 256],
    /// Per number of a square: its code.
    code: [u8; SQUARES],
    /// Per side and number of a square: the side's track position there.
    pos_at: [[u8; SQUARES]; 2],
    /// Per side: the squares of each region, by number.
    regions: [[u64; REGIONS]; 2],
    /// Per side and steps: the walks' counts and ends.
    rows: Box<[[Row; 16]; 2]>,
    /// Whether the loop can play on from the description's initial state.
    initial_fits: bool,
    /// What the loop keeps of the initial state, built once (most playouts start there).
    initial: Box<Playout>,
}

/// The conditions of the gates met so far on a walk.
#[derive(Clone, Copy)]
struct Need {
    without: u8,
    enemy_in: u8,
    own_one: u8,
}

impl Stacked {
    /// The settings of a description whose every mechanic this loop covers.
    pub(crate) fn of(c: &Compiled) -> Option<Stacked> {
        let shape = c.seats == 2
            && c.sides == 2
            && !c.teams
            && c.occupancy == Occupancy::Stacks
            && c.capture
            && c.safe.is_none()
            && c.pass_own
            && c.chaser_table.is_none()
            && c.steering.is_none()
            && c.driving_values == 0
            && !c.any_hold
            && !c.all_first
            && c.decide == Decide::Always
            && c.store_value.is_none()
            && !c.has_release
            && c.release_counts.is_none()
            && c.release_values == 0
            && !c.start_unmoved
            && !c.end_all_out
            && c.end_all_in.is_none()
            && !c.end_separated
            && !c.end_frozen
            && c.pieces_per_side * 2 <= 64
            && c.start.iter().flatten().all(|&p| p != OFF);
        if !shape {
            return None;
        }
        // The squares, numbered: every square of a track once on it.
        let mut id = [NONE; 256];
        let mut code = [NONE; SQUARES];
        let mut n = 0;
        let mut pos_at = [[NONE; SQUARES]; 2];
        for (side, at) in pos_at.iter_mut().enumerate() {
            for (p, &sq) in c.square_of[side].iter().enumerate() {
                if id[sq as usize] == NONE {
                    if n == SQUARES {
                        return None;
                    }
                    id[sq as usize] = n as u8;
                    code[n] = sq;
                    n += 1;
                }
                let q = id[sq as usize] as usize;
                if at[q] != NONE || p >= NONE as usize {
                    return None;
                }
                at[q] = p as u8;
            }
        }
        let mut regions = [[0u64; REGIONS]; 2];
        for (side, r) in regions.iter_mut().enumerate() {
            for (m, set) in c.regions[side].iter().zip(r.iter_mut()) {
                for (q, &sq) in code[..n].iter().enumerate() {
                    if m.has(sq) {
                        *set |= 1 << q;
                    }
                }
            }
        }
        let mut walks = vec![Walk::default(); 2048].into_boxed_slice();
        for side in 0..2 {
            for p in 0..c.track_len {
                let from = id[c.square_of[side][p] as usize] as usize;
                // Only the table's values are walked (a longer walk could pass a fork
                // twice).
                for &steps in &c.values {
                    let mut ends = Vec::new();
                    let none = Need {
                        without: 0,
                        enemy_in: NO_REGION,
                        own_one: NO_REGION,
                    };
                    walk(c, side, p as u8, steps, 0, none, &mut ends)?;
                    if ends.len() > 2 {
                        return None;
                    }
                    let w = &mut walks[side << 10 | from << 4 | (steps as usize & 15)];
                    w.n = ends.len() as u8;
                    for (slot, &(pos, set_flags, need)) in w.ends.iter_mut().zip(&ends) {
                        *slot = End {
                            to: id[c.square_of[side][pos as usize] as usize],
                            set_flags,
                            without: need.without,
                            enemy_in: need.enemy_in,
                            own_one: need.own_one,
                        };
                    }
                    w.gated = w.ends[..ends.len()].iter().any(End::gated);
                }
            }
        }
        let empty = Row {
            counts: [0; 256],
            ends: [End::default(); 2 * SQUARES],
        };
        let mut rows: Box<[[Row; 16]; 2]> =
            vec![[empty; 16]; 2].into_boxed_slice().try_into().ok()?;
        for (side, by_steps) in rows.iter_mut().enumerate() {
            for (steps, row) in by_steps.iter_mut().enumerate() {
                for q in 0..SQUARES {
                    let w = &walks[side << 10 | q << 4 | steps];
                    row.ends[2 * q] = w.ends[0];
                    row.ends[2 * q + 1] = w.ends[1];
                    let pair = ((2 * q) | ((2 * q + 1) << 8)) as u32;
                    row.counts[q] = pair | u32::from(w.n) << 16 | if w.gated { GATED } else { 0 };
                }
            }
        }
        let begin = c.opening.map(|(v, _)| v);
        let by_marked: [u8; 9] = core::array::from_fn(|k| {
            let v = c.table.value[k];
            v | if c.table.again[k] { AGAIN } else { 0 } | if Some(v) == begin { BEGINS } else { 0 }
        });
        let by_bits = core::array::from_fn(|raw| {
            by_marked[(c.sticks.throw_from_bits(raw as u64).marked() & 15).min(8) as usize]
        });
        let mut st = Stacked {
            by_marked,
            by_bits,
            opening_moves: c.opening.is_some_and(|(_, moves)| moves),
            has_opening: c.opening.is_some(),
            no_pieces_ends: c.end_no_pieces,
            id,
            code,
            pos_at,
            regions,
            rows,
            initial_fits: false,
            initial: Box::new(Playout::empty(c.initial_state.on_board, false)),
        };
        st.initial_fits = st.fits_built(c, &c.initial_state);
        st.initial = Box::new(Playout::of(&st, c, &c.initial_state));
        Some(st)
    }

    /// Whether the loop can play on from the state: two seats, nothing held or spent, no
    /// piece off the board or unmoved, no hold counted, each piece on its side's track at
    /// the square of its position, the occupancy sets those squares with no square of
    /// both sides, and each side standing (or the game over).
    #[cfg(test)]
    pub(crate) fn fits(&self, c: &Compiled, s: &State) -> bool {
        if *s == c.initial_state {
            return self.initial_fits;
        }
        self.fits_built(c, s)
    }

    /// [`Stacked::fits`], from the state's pieces.
    fn fits_built(&self, c: &Compiled, s: &State) -> bool {
        let both_standing = s.alive & c.side_bits[0] != 0 && s.alive & c.side_bits[1] != 0;
        if !((both_standing || !self.no_pieces_ends || s.ended)
            && s.turn < 2
            && s.alive & !s.on_board == 0
            && s.on_board & !(c.side_bits[0] | c.side_bits[1]) == 0
            && s.unmoved == 0
            && !s.spending
            && (!s.opening || self.has_opening)
            && s.out_place[..2] == [0, 0]
            && s.burials[..2] == [0, 0]
            && s.count == [0; 64])
        {
            return false;
        }
        let mut occ = [super::compile::Mask::default(); 2];
        for (side, o) in occ.iter_mut().enumerate() {
            for k in members(s.on_board & c.side_bits[side]) {
                let p = s.pos[k] as usize;
                if p >= c.track_len || c.square_of[side][p] != s.sq[k] || s.flags[k] & UNMOVED != 0
                {
                    return false;
                }
                o.set(s.sq[k]);
            }
        }
        occ == s.occ && !occ[0].meets(&occ[1])
    }

    /// [`Stacked::play_to_end`] where the loop fits the state ([`Stacked::fits`]),
    /// comparing the state with the initial one once; whether it played.
    pub(crate) fn play_if_fits<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) -> bool {
        let initial = *s == c.initial_state;
        if !(if initial {
            self.initial_fits
        } else {
            self.fits_built(c, s)
        }) {
            return false;
        }
        self.play_from(c, s, initial, bits, rng, max_throws);
        true
    }

    /// Plays the state to the end as the step-by-step path does: each throw
    /// `bits.throw(rng, sticks)`, each decision with two or more legal actions one drawn
    /// with `bits.index(rng, len)` in the order the rules list them.
    #[cfg(test)]
    pub(crate) fn play_to_end<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        self.play_from(c, s, *s == c.initial_state, bits, rng, max_throws);
    }

    /// [`Stacked::play_to_end`], told whether the state is the initial one.
    #[inline(never)]
    fn play_from<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        initial: bool,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) {
        let mut p = if initial {
            (*self.initial).clone()
        } else {
            Playout::of(self, c, s)
        };
        let mut b = *bits;
        let mut turn = s.turn;
        if !s.ended && s.pending != GONE {
            let e = self.by_marked[(s.pending & 15).min(8) as usize];
            if turn == 0 {
                p.decide::<0, R>(self, c, s, e, &mut b, rng);
            } else {
                p.decide::<1, R>(self, c, s, e, &mut b, rng);
            }
            if !(e & AGAIN != 0 || p.ended) {
                turn = 1 - turn;
            }
            s.pending = GONE;
        }
        // The throws left before the cap, counted down.
        let cap = max_throws.saturating_sub(s.throws);
        let mut left = cap;
        let sticks = u32::from(c.sticks.count());
        // The opening: throws pass the turn until one has the opening's value.
        while p.opening && !p.ended && left > 0 {
            left -= 1;
            let e = self.by_bits[b.take_drawn_apart(rng, sticks) as usize & 63];
            if e & BEGINS == 0 {
                turn = 1 - turn;
                continue;
            }
            p.opening = false;
            if self.opening_moves {
                if turn == 0 {
                    p.decide::<0, R>(self, c, s, e, &mut b, rng);
                } else {
                    p.decide::<1, R>(self, c, s, e, &mut b, rng);
                }
                if !(e & AGAIN != 0 || p.ended) {
                    turn = 1 - turn;
                }
            }
        }
        // Each seat's turns with its side a constant, one after the other, until one ends
        // the game or reaches the cap (then the turn stays with it).
        if !p.ended && !p.opening {
            turn = 'turns: {
                if turn == 1 && !p.turn::<1, R>(self, c, s, sticks, &mut left, &mut b, rng) {
                    break 'turns 1;
                }
                loop {
                    if !p.turn::<0, R>(self, c, s, sticks, &mut left, &mut b, rng) {
                        break 'turns 0;
                    }
                    if !p.turn::<1, R>(self, c, s, sticks, &mut left, &mut b, rng) {
                        break 'turns 1;
                    }
                }
            };
        }
        for (side, pos_at) in self.pos_at.iter().enumerate() {
            for q in members(p.occ[side]) {
                for j in members(p.stack[q & 63]) {
                    s.pos[j] = pos_at[q & 63];
                    s.sq[j] = self.code[q & 63];
                }
            }
        }
        (s.on_board, s.alive) = (p.on_board, p.on_board);
        c.set_occupancy(s);
        s.opening = p.opening;
        s.turn = turn;
        s.throws += cap - left;
        s.ended = p.ended;
        *bits = b;
    }
}

/// Adds a gate's conditions to those of the walk so far: `None` where the description is
/// beyond the loop (two regions of one kind on one walk), `Some(None)` where the gate is
/// closed whatever the state (it bars a flag the walk has set).
fn add_gate(need: Need, gate: &Gate, flags: u8) -> Option<Option<Need>> {
    if gate.without_flags & flags != 0 {
        return Some(None);
    }
    let join = |have: u8, add: Option<u8>| match add {
        None => Some(have),
        Some(r) if (r as usize) < REGIONS && (have == NO_REGION || have == r) => Some(r),
        Some(_) => None,
    };
    Some(Some(Need {
        without: need.without | gate.without_flags,
        enemy_in: join(need.enemy_in, gate.enemy_in)?,
        own_one: join(need.own_one, gate.own_one_square_in)?,
    }))
}

/// The ends of a walk of `left` steps from position `cur` of the side, as
/// [`Compiled::walk`] finds them in the order it finds them (every landing is legal: a
/// side lands on its own stacks and captures every enemy stack), each with the flags the
/// walk sets and the gates on its way; `None` where the description is beyond the loop.
fn walk(
    c: &Compiled,
    side: usize,
    mut cur: u8,
    mut left: u8,
    mut flags: u8,
    mut need: Need,
    out: &mut Vec<(u8, u8, Need)>,
) -> Option<()> {
    while left > 0 {
        let p = cur as usize;
        let branches = &c.branches[side][p];
        if cur == c.limit || (branches.is_empty() && c.next[side][p].to == NONE) {
            match c.overshoot {
                Overshoot::Stop => break,
                Overshoot::Illegal => return Some(()),
            }
        }
        if !branches.is_empty() {
            // The rules take the first four open branches: more could differ.
            if branches.len() > 4 {
                return None;
            }
            for l in branches {
                if let Some(need) = add_gate(need, &l.gate, flags)? {
                    walk(c, side, l.to, left - 1, flags | l.set_flags, need, out)?;
                }
            }
            return Some(());
        }
        let l = &c.next[side][p];
        match add_gate(need, &l.gate, flags)? {
            Some(n) => need = n,
            None => return Some(()),
        }
        flags |= l.set_flags;
        cur = l.to;
        left -= 1;
    }
    out.push((cur, flags, need));
    Some(())
}

/// What the loop keeps of the state between throws.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Playout {
    /// Per square (by number): the pieces on it, of either side.
    stack: [u64; SQUARES],
    /// Per square: the flags of its pieces together.
    flags: [u8; SQUARES],
    /// Per piece that leads a stack (the lowest of its pieces): the stack's square.
    at: [u8; 64],
    /// Per side: the squares of its stacks.
    occ: [u64; 2],
    /// Per side: the pieces that lead a stack.
    leaders: [u64; 2],
    /// The pieces on the board (every piece left is).
    on_board: u64,
    /// The legal actions of a decision: the moving stack's square times two, plus one for
    /// the walk's second end (its index into [`Row::ends`]); 257 bytes, so that a byte
    /// indexes it and a walk's two actions are written as one `u16` at any place.
    listed: [u8; 257],
    opening: bool,
    ended: bool,
}

impl Playout {
    fn empty(on_board: u64, opening: bool) -> Playout {
        Playout {
            stack: [0; SQUARES],
            flags: [0; SQUARES],
            at: [0; 64],
            occ: [0; 2],
            leaders: [0; 2],
            on_board,
            listed: [0; 257],
            opening,
            ended: false,
        }
    }

    fn of(st: &Stacked, c: &Compiled, s: &State) -> Playout {
        let mut p = Playout::empty(s.on_board, s.opening);
        p.ended = s.ended;
        for side in 0..2 {
            for k in members(s.on_board & c.side_bits[side]) {
                let q = st.id[s.sq[k] as usize] as usize & 63;
                if p.stack[q] == 0 {
                    // Pieces ascending: the first on a square leads its stack.
                    p.leaders[side] |= 1 << k;
                    p.at[k] = q as u8;
                }
                p.stack[q] |= 1 << k;
                p.flags[q] |= s.flags[k];
                p.occ[side] |= 1 << q;
            }
        }
        p
    }

    /// Plays side `SIDE`'s throws until it passes the turn (true), or the game ends or
    /// reaches the cap (false).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn turn<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        st: &Stacked,
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
            let e = st.by_bits[bits.take_drawn_apart(rng, sticks) as usize & 63];
            if self.decide::<SIDE, R>(st, c, s, e, bits, rng) {
                return false;
            }
            if e & AGAIN == 0 {
                return true;
            }
        }
    }

    /// Whether the gates on the way to end `o` of a walk of the stack on square `from`
    /// are open.
    #[inline(always)]
    fn open<const SIDE: usize>(&self, st: &Stacked, from: usize, o: &End) -> bool {
        let regions = &st.regions[SIDE];
        let enemy_there = || self.occ[1 - SIDE] & regions[o.enemy_in as usize & (REGIONS - 1)] != 0;
        let own = self.occ[SIDE] & regions[o.own_one as usize & (REGIONS - 1)];
        o.without & self.flags[from & 63] == 0
            && (o.enemy_in == NO_REGION || enemy_there())
            && (o.own_one == NO_REGION || own & own.wrapping_sub(1) == 0)
    }

    /// Plays side `SIDE`'s decision on the throw of entry `e` ([`Stacked::by_marked`]):
    /// the legal actions counted in the rules' order (stacks by their leading piece, each
    /// walk's ends in order), one drawn where there are two or more, and made; whether
    /// the game has ended.
    #[inline(always)]
    fn decide<const SIDE: usize, R: rand::Rng + ?Sized>(
        &mut self,
        st: &Stacked,
        c: &Compiled,
        s: &mut State,
        e: u8,
        bits: &mut RandomBits,
        rng: &mut R,
    ) -> bool {
        let v = (e & 15) as usize;
        if v == 0 {
            return false;
        }
        let row = &st.rows[SIDE][v];
        // At most 64 actions (two a stack): a byte counts them.
        let mut n = 0u8;
        for k in members(self.leaders[SIDE]) {
            let from = self.at[k & 63];
            let m = row.counts[from as usize];
            if m & GATED == 0 {
                // Every end open: both actions written at once, the ends counted.
                let i = n as usize;
                self.listed[i..i + 2].copy_from_slice(&(m as u16).to_le_bytes());
                n = n.wrapping_add((m >> 16) as u8);
            } else {
                n = self.list_gated::<SIDE>(st, &row.ends, from as usize & 63, m, n);
            }
        }
        let a = match n {
            0 => return false,
            1 => self.listed[0],
            _ => self.listed[bits.short_index_drawn_apart(rng, u32::from(n)) & 255],
        } as usize
            & 127;
        self.move_stack::<SIDE>(st, c, s, a >> 1, &row.ends[a])
    }

    /// Lists the open ends of the gated walk from square `from` (its [`Row::counts`]
    /// entry `m`) after the `n` actions listed so far; the count after them. Out of the
    /// decision's loop, which few stacks take, so that the loop keeps its values in
    /// registers.
    #[cold]
    #[inline(never)]
    fn list_gated<const SIDE: usize>(
        &mut self,
        st: &Stacked,
        ends: &[End; 2 * SQUARES],
        from: usize,
        m: u32,
        mut n: u8,
    ) -> u8 {
        for j in 0..(m >> 16 & 3).min(2) as usize {
            let a = (2 * from + j) & 127;
            if self.open::<SIDE>(st, from, &ends[a]) {
                self.listed[n as usize] = a as u8;
                n = n.wrapping_add(1);
            }
        }
        n
    }

    /// Moves the stack on square `from` to the walk's end `o`, capturing the enemy stack
    /// where it lands or joining its own; whether the game has ended (only a capture ends
    /// it).
    #[inline(always)]
    fn move_stack<const SIDE: usize>(
        &mut self,
        st: &Stacked,
        c: &Compiled,
        s: &mut State,
        from: usize,
        o: &End,
    ) -> bool {
        let (to, set) = (o.to as usize & 63, o.set_flags);
        let moving = self.stack[from];
        // The stack's leader is its lowest piece (all of the side to move).
        let k = moving.trailing_zeros() as usize & 63;
        let flags = self.flags[from] | set;
        self.stack[from] = 0;
        self.flags[from] = 0;
        self.occ[SIDE] &= !(1 << from);
        if set != 0 {
            for j in members(moving) {
                s.flags[j] |= set;
            }
        }
        let there = self.stack[to];
        if self.occ[1 - SIDE] >> to & 1 == 1 {
            for e in members(there) {
                s.pos[e] = GONE;
                s.sq[e] = GONE;
                s.flags[e] = 0;
                s.captures[SIDE] = s.captures[SIDE].saturating_add(1);
            }
            self.on_board &= !there;
            self.leaders[1 - SIDE] &= !there;
            self.occ[1 - SIDE] &= !(1 << to);
            self.stack[to] = moving;
            self.flags[to] = flags;
            self.at[k] = to as u8;
            self.occ[SIDE] |= 1 << to;
            self.ended = st.no_pieces_ends && self.on_board & c.side_bits[1 - SIDE] == 0;
            return self.ended;
        } else if there != 0 {
            let all = there | moving;
            let lead = all.trailing_zeros() as usize;
            self.leaders[SIDE] = (self.leaders[SIDE] & !all) | 1 << lead;
            self.stack[to] = all;
            self.flags[to] |= flags;
            self.at[lead & 63] = to as u8;
        } else {
            self.stack[to] = moving;
            self.flags[to] = flags;
            self.at[k] = to as u8;
        }
        self.occ[SIDE] |= 1 << to;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::loop_tests::compare_every_variant;

    /// From nodes all along random games of every stacking variant of every shipped and
    /// reference description (and with a throw cap that cuts games short), the one loop
    /// leaves the state, the random bits and the generator exactly as the step-by-step path
    /// does; and every variant of Tab takes the loop.
    #[test]
    fn the_one_loop_plays_as_the_step_by_step_path() {
        let (taken, starts) = compare_every_variant(
            &[(1, None), (2, None), (3, Some(40))],
            |c| c.stacked_playouts.as_ref(),
            |seed, _, _| seed,
            |p, c, s| p.fits(c, s),
            |p, c, s, bits, rng, cap| p.play_to_end(c, s, bits, rng, cap),
        );
        assert_eq!(taken.iter().filter(|t| t.0 == "tab").count(), 10);
        assert!(starts > 1_000, "{starts}");
    }
}
