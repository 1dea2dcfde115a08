//! The rules engine over compiled tables: legal actions, moves, ends and rankings.

use super::action::{Action, Kind};
use super::compile::{Compiled, Link, Mask, MAX_VALUE, NONE};
use super::format::{Decide, Occupancy, Overshoot, Rank, Supplement};
use super::state::{State, GONE, OFF, UNMOVED};
use crate::game::{Ranking, MAX_SEATS};

/// The most legal actions any described game can list (a buffer of this size never
/// spills).
pub(crate) const BUFFER: usize = 192;

/// Where a walk ends.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dest {
    pub pos: u8,
    pub set_flags: u8,
    /// The branch's name when the walk chose among open branches.
    pub branch: Option<[u8; 8]>,
}

/// A sink for generated actions.
pub(crate) trait Sink {
    fn push(&mut self, a: Action);
    fn len(&self) -> usize;
}

pub(crate) struct Buf<const N: usize = BUFFER> {
    pub items: [Action; N],
    pub n: usize,
}

impl<const N: usize> Buf<N> {
    pub const fn new() -> Buf<N> {
        // The filler is all zero bytes (`Move` is the first kind), which the compiler
        // clears with a memset; no filler is ever read.
        Buf {
            items: [Action::at(Kind::Move, 0, 0); N],
            n: 0,
        }
    }
}

thread_local! {
    /// A full buffer kept per thread, so that listing the legal actions does not clear a
    /// new one each time.
    static SCRATCH: core::cell::RefCell<Buf> = const { core::cell::RefCell::new(Buf::new()) };
}

/// Calls `f` with an empty full-size buffer: the thread's own, or a new one where that is
/// in use already (or the thread is ending).
#[inline]
pub(crate) fn with_scratch<R>(mut f: impl FnMut(&mut Buf) -> R) -> R {
    let kept = SCRATCH.try_with(|cell| {
        cell.try_borrow_mut().ok().map(|mut buf| {
            buf.n = 0;
            f(&mut buf)
        })
    });
    match kept {
        Ok(Some(r)) => r,
        _ => f(&mut Buf::new()),
    }
}

impl<const N: usize> Sink for Buf<N> {
    #[inline(always)]
    fn push(&mut self, a: Action) {
        if self.n < N {
            self.items[self.n] = a;
        }
        self.n += 1;
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.n
    }
}

/// Counts actions and keeps the first.
pub(crate) struct First {
    pub first: Action,
    pub n: usize,
}

impl Sink for First {
    #[inline(always)]
    fn push(&mut self, a: Action) {
        if self.n == 0 {
            self.first = a;
        }
        self.n += 1;
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.n
    }
}

/// The members of a set of pieces, lowest first.
#[inline(always)]
pub(crate) fn members(mut set: u64) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let k = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(k)
    })
}

/// The pieces of a decision that may act ([`Compiled::candidates`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidates {
    /// The unmoved pieces that a release may free (one for all those off the board).
    pub release: u64,
    /// The moved pieces on the board.
    pub moves: u64,
    /// The throw's value.
    pub v: u8,
    pub side: usize,
    /// The most actions one candidate may have: 1 where each has one at most; more where
    /// stored values may lengthen a capture.
    pub most: usize,
    /// The candidates that may have more than one action (the others have one at most).
    pub wide: u64,
}

/// A drawn action, and the piece it moves and where, when applying it is that move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Drawn {
    pub action: Action,
    pub moved: Option<(usize, Dest)>,
}

/// Draws members of `set` uniformly, dropping each that `test` refuses, until one is
/// accepted: every accepted member is equally likely to be the one (the draws put the set
/// in a uniformly random order, and the first accepted is taken). No draw is made for a
/// last member.
#[inline(always)]
pub(crate) fn draw_among<T>(
    set: u64,
    index: &mut impl FnMut(usize) -> usize,
    test: impl FnMut(usize) -> Option<T>,
) -> Option<T> {
    draw_among_counted(set, set.count_ones() as usize, index, test)
}

/// [`draw_among`] with `n` the number of members of `set`, where the caller keeps it.
#[inline(always)]
pub(crate) fn draw_among_counted<T>(
    mut set: u64,
    mut n: usize,
    index: &mut impl FnMut(usize) -> usize,
    mut test: impl FnMut(usize) -> Option<T>,
) -> Option<T> {
    debug_assert_eq!(n, set.count_ones() as usize);
    if n == 0 {
        return None;
    }
    loop {
        let i = if n == 1 { 0 } else { index(n).min(n - 1) };
        // Low ranks are found quicker by skipping the bits below.
        let k = if i < 8 {
            let mut rest = set;
            for _ in 0..i {
                rest &= rest - 1;
            }
            rest.trailing_zeros() as usize
        } else {
            select(set, byte_counts(set), i as u64) as usize
        };
        if let Some(d) = test(k) {
            return Some(d);
        }
        set &= !(1u64 << k);
        n -= 1;
        if n == 0 {
            return None;
        }
    }
}

/// Draws one of the members of `set` that `test` accepts, uniformly: every member is
/// tested, in ascending order, and one index is drawn among those accepted (none where
/// one is, nor where none is: then `None`). The draw of a release under priority, where
/// most candidates usually cannot act (pieces nose to tail on their first row), so that a
/// rejection draw ([`draw_among`]) would refuse many before finding one.
#[inline(always)]
pub(crate) fn draw_among_tested<T>(
    set: u64,
    index: &mut impl FnMut(usize) -> usize,
    mut test: impl FnMut(usize) -> Option<T>,
) -> Option<T> {
    let (mut accepted, mut n) = (0u64, 0usize);
    for k in members(set) {
        if test(k).is_some() {
            accepted |= 1 << k;
            n += 1;
        }
    }
    if n == 0 {
        return None;
    }
    let i = if n == 1 { 0 } else { index(n).min(n - 1) };
    for _ in 0..i {
        accepted &= accepted - 1;
    }
    test(accepted.trailing_zeros() as usize)
}

/// Per byte `j` of `x`: the set bits of bytes 0 to `j` (so the top byte is them all).
/// A count without the `popcnt` instruction, which the default x86-64 target lacks.
#[inline(always)]
fn byte_counts(x: u64) -> u64 {
    let mut s = x - ((x >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    s.wrapping_mul(0x0101_0101_0101_0101)
}

/// The position of the set bit of rank `r` (0 the lowest) of `x`, with `sums` its
/// [`byte_counts`] and `r` below its count: the broadword selection of Vigna, "Broadword
/// implementation of rank/select queries" (2008), in a constant number of steps where
/// skipping the bits one at a time takes `r`.
#[inline(always)]
fn select(x: u64, sums: u64, r: u64) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte whose running count is at most `r`: the bytes before the
    // one that holds the bit (the counts are at most 64, so no byte borrows).
    let before = (((r * ONES) | HIGH) - sums) & HIGH;
    let place = ((before >> 7).wrapping_mul(ONES) >> 53) & !7;
    let below = ((sums << 8) >> place) & 0xff;
    let byte = (x >> place) & 0xff;
    place as u32 + u32::from(SELECT_IN_BYTE[(byte | (r - below) << 8) as usize])
}

/// At `byte | rank << 8`: the position of the set bit of that rank in the byte.
static SELECT_IN_BYTE: [u8; 2048] = {
    let mut t = [0u8; 2048];
    let mut byte = 0;
    while byte < 256 {
        let (mut rank, mut bit) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                t[byte | rank << 8] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    t
};

/// The members of a set of pieces, highest first.
#[inline(always)]
fn members_rev(mut set: u64) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let k = 63 - set.leading_zeros() as usize;
        set &= !(1 << k);
        Some(k)
    })
}

impl Compiled {
    #[inline(always)]
    pub(crate) fn side_of(&self, seat: usize) -> usize {
        if self.teams {
            seat & 1
        } else {
            seat
        }
    }

    /// The index of (side, position, steps) in the plain walks' tables (`steps` at most
    /// `MAX_VALUE`).
    #[inline(always)]
    pub(crate) fn step_index(&self, side: usize, pos: u8, steps: u8) -> usize {
        ((side * self.track_len + pos as usize) << 4) | (steps as usize & 15)
    }

    #[inline(always)]
    pub(crate) fn pieces(&self, side: usize) -> core::ops::Range<usize> {
        side * self.pieces_per_side..(side + 1) * self.pieces_per_side
    }

    /// The side's pieces on the board.
    #[inline(always)]
    pub(crate) fn on_board(&self, s: &State, side: usize) -> u64 {
        s.on_board & self.side_bits[side]
    }

    pub(crate) fn initial(&self) -> State {
        let mut s = State::EMPTY;
        for side in 0..self.sides {
            for (i, &p) in self.start[side].iter().enumerate() {
                let k = side * self.pieces_per_side + i;
                s.pos[k] = p;
                if p == OFF {
                    s.sq[k] = GONE;
                } else {
                    let sq = self.square_of[side][p as usize];
                    s.sq[k] = sq;
                    if self.occupancy != Occupancy::Shared {
                        s.occ[side].set(sq);
                    }
                }
                if self.start_unmoved {
                    s.flags[k] = UNMOVED;
                }
                s.sync(k);
            }
        }
        s.opening = self.opening.is_some();
        if let Some(st) = &self.steering {
            s.chaser = st.start;
        }
        s
    }

    /// Whether the seat drives the chaser (it has got out and a chaser exists).
    #[inline(always)]
    fn drives(&self, s: &State, seat: usize) -> bool {
        self.chaser_table.is_some() && s.out_place[seat] != 0
    }

    /// The value of the pending throw for the seat to move.
    #[inline(always)]
    pub(crate) fn pending_value(&self, s: &State) -> u8 {
        let k = (s.pending & 15) as usize;
        if self.drives(s, s.turn as usize) {
            self.chaser_table.as_ref().map_or(0, |t| t.value[k.min(8)])
        } else {
            self.table.value[k.min(8)]
        }
    }

    // ---- gates and walks ----------------------------------------------------------

    fn gate_open(
        &self,
        s: &State,
        side: usize,
        gate: &super::compile::Gate,
        moving_flags: u8,
    ) -> bool {
        if gate.without_flags & moving_flags != 0 {
            return false;
        }
        if let Some(r) = gate.enemy_in {
            let m = &self.regions[side][r as usize];
            let enemies = s.on_board & !self.side_bits[side];
            let found = members(enemies).any(|k| m.has(s.sq[k]));
            if !found {
                return false;
            }
        }
        if let Some(r) = gate.own_one_square_in {
            let m = &self.regions[side][r as usize];
            let mut one = GONE;
            for k in members(self.on_board(s, side)) {
                if m.has(s.sq[k]) {
                    if one == GONE {
                        one = s.sq[k];
                    } else if one != s.sq[k] {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether the square may be passed over by the side's moving pieces.
    #[inline(always)]
    fn passable(&self, s: &State, side: usize, sq: u8) -> bool {
        self.pass_own || self.occupancy == Occupancy::Shared || !s.occ[side].has(sq)
    }

    /// Whether the side may end a move on the square.
    #[inline(always)]
    fn landable(&self, s: &State, side: usize, sq: u8) -> bool {
        match self.occupancy {
            Occupancy::Shared => true,
            occ => {
                if s.occ[side].has(sq) && occ == Occupancy::Single {
                    return false;
                }
                let enemy = 1 - side;
                if s.occ[enemy].has(sq) {
                    if !self.capture {
                        return false;
                    }
                    if let Some(r) = self.safe {
                        if self.regions[enemy][r as usize].has(sq) {
                            return false;
                        }
                    }
                }
                true
            }
        }
    }

    /// Whether an enemy piece stands on the square (for the side).
    #[inline(always)]
    fn enemy_on(&self, s: &State, side: usize, sq: u8) -> bool {
        self.occupancy != Occupancy::Shared && s.occ[1 - side].has(sq)
    }

    /// Whether the simple walk at table index `i` is legal: no own piece on the way where
    /// own pieces block, and a square the side may end on.
    #[inline(always)]
    fn simple_lands(&self, s: &State, side: usize, i: usize) -> bool {
        if !self.pass_own && self.occupancy != Occupancy::Shared && self.path[i].meets(&s.occ[side])
        {
            return false;
        }
        self.landable(s, side, self.dest_sq[i])
    }

    /// Whether the walk of `steps` from on-board position `from` is simple (see
    /// [`Compiled::walk`]).
    #[inline(always)]
    fn is_simple(&self, side: usize, from: u8, steps: u8) -> bool {
        let wrap = self.plain && self.pass_own && self.limit == NONE;
        (wrap || steps as usize <= MAX_VALUE)
            && self.simple_walk[self.step_index(side, from, steps)]
    }

    /// Walks `steps` steps from `from` (or from off the board) for the side, calling `out`
    /// with each legal destination (two at most where a fork offers two open branches).
    pub(crate) fn walk(
        &self,
        s: &State,
        side: usize,
        from: u8,
        steps: u8,
        moving_flags: u8,
        out: &mut impl FnMut(Dest),
    ) {
        if steps == 0 {
            return;
        }
        if from != OFF {
            // The tables hold walks of up to MAX_VALUE steps; longer ones (a value lengthened
            // by stored throws) take the long way.
            if steps as usize <= MAX_VALUE {
                let i = self.step_index(side, from, steps);
                if self.simple_walk[i] {
                    if self.simple_lands(s, side, i) {
                        out(Dest {
                            pos: self.dest[i],
                            set_flags: 0,
                            branch: None,
                        });
                    }
                    return;
                }
                if self.plain && self.limit == NONE && self.overshoot == Overshoot::Illegal {
                    return;
                }
            }
        }
        let mut cur = from;
        let mut left = steps;
        if from == OFF {
            cur = 0;
            left -= 1;
            if left > 0 && !self.passable(s, side, self.square_of[side][0]) {
                return;
            }
        }
        self.walk_on(s, side, cur, left, moving_flags, 0, None, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn walk_on(
        &self,
        s: &State,
        side: usize,
        mut cur: u8,
        mut left: u8,
        moving_flags: u8,
        mut flags: u8,
        branch: Option<[u8; 8]>,
        out: &mut impl FnMut(Dest),
    ) {
        while left > 0 {
            let p = cur as usize;
            if cur == self.limit
                || (self.branches[side][p].is_empty() && self.next[side][p].to == NONE)
            {
                match self.overshoot {
                    Overshoot::Stop => break,
                    Overshoot::Illegal => return,
                }
            }
            let branches = &self.branches[side][p];
            if !branches.is_empty() {
                let open: [Option<&Link>; 4] = {
                    let mut o = [None; 4];
                    let mut n = 0;
                    for l in branches.iter() {
                        if n < 4 && self.gate_open(s, side, &l.gate, moving_flags | flags) {
                            o[n] = Some(l);
                            n += 1;
                        }
                    }
                    o
                };
                let count = open.iter().filter(|l| l.is_some()).count();
                for l in open.iter().flatten() {
                    let name = if count > 1 { Some(l.name) } else { branch };
                    self.step_then(s, side, l, left, moving_flags, flags, name, out);
                }
                return;
            }
            let l = &self.next[side][p];
            if l.to == NONE {
                return;
            }
            if !self.gate_open(s, side, &l.gate, moving_flags | flags) {
                return;
            }
            flags |= l.set_flags;
            cur = l.to;
            left -= 1;
            if left > 0 && !self.passable(s, side, self.square_of[side][cur as usize]) {
                return;
            }
        }
        let sq = self.square_of[side][cur as usize];
        if self.landable(s, side, sq) {
            out(Dest {
                pos: cur,
                set_flags: flags,
                branch,
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn step_then(
        &self,
        s: &State,
        side: usize,
        l: &Link,
        left: u8,
        moving_flags: u8,
        flags: u8,
        branch: Option<[u8; 8]>,
        out: &mut impl FnMut(Dest),
    ) {
        let cur = l.to;
        let flags = flags | l.set_flags;
        let left = left - 1;
        if left > 0 && !self.passable(s, side, self.square_of[side][cur as usize]) {
            return;
        }
        self.walk_on(s, side, cur, left, moving_flags, flags, branch, out);
    }

    // ---- legal actions -----------------------------------------------------------

    /// The OR of the flags of the side's pieces on the square (a stack's flags).
    fn stack_flags(&self, s: &State, side: usize, sq: u8) -> u8 {
        let mut f = 0;
        for k in members(self.on_board(s, side)) {
            if s.sq[k] == sq {
                f |= s.flags[k];
            }
        }
        f & !UNMOVED
    }

    /// Whether piece `k` is the first of its stack (the one that names it).
    #[inline(always)]
    fn leads_stack(&self, s: &State, side: usize, k: usize) -> bool {
        if self.occupancy != Occupancy::Stacks {
            return true;
        }
        let sq = s.sq[k];
        let below = self.on_board(s, side) & ((1u64 << k) - 1);
        !members(below).any(|j| s.sq[j] == sq)
    }

    /// The actions for the side's pieces with value `v` in each-throw turns.
    pub(crate) fn actions(&self, s: &State, out: &mut impl Sink) {
        let seat = s.turn as usize;
        let v = self.pending_value(s);
        if self.drives(s, seat) {
            if self.steering.is_some() && v > 0 {
                out.push(Action::simple(Kind::Drive));
                return;
            }
            if v == 0 || s.chaser == GONE {
                out.push(Action::PASS);
            } else {
                out.push(Action::simple(Kind::Back));
                if (s.chaser as usize) + 1 < self.track_len {
                    out.push(Action::simple(Kind::Forward));
                }
            }
            return;
        }
        let side = self.side_of(seat);
        if Some(v) == self.store_value {
            out.push(Action::simple(Kind::Store));
            if self.release_steps == 0 && self.releases(s, side, v) {
                for k in members(self.on_board(s, side) & s.unmoved) {
                    out.push(Action::at(Kind::Unlock, s.sq[k], 0));
                }
            }
            return;
        }
        if v > 0 {
            let releases = self.releases(s, side, v);
            let start = out.len();
            if releases {
                self.release_actions(s, side, v, out);
            }
            if !(releases && self.release_priority && out.len() > start) {
                self.move_actions(s, side, v, out);
            }
        }
        if out.len() == 0 {
            out.push(Action::PASS);
        }
    }

    /// Whether the pending throw, worth `v`, releases the side's pieces: by its value, or
    /// by its count where the release is by count per side.
    #[inline(always)]
    fn releases(&self, s: &State, side: usize, v: u8) -> bool {
        match &self.release_counts {
            None => self.release_values >> v & 1 == 1,
            Some(per_side) => per_side[side] >> (s.pending & 15) & 1 == 1,
        }
    }

    fn release_actions(&self, s: &State, side: usize, _v: u8, out: &mut impl Sink) {
        let mut entered = false;
        for k in members(s.unmoved & s.alive & self.side_bits[side]) {
            if self.release_steps == 0 {
                out.push(Action::at(Kind::Unlock, s.sq[k], 0));
                continue;
            }
            if s.pos[k] == OFF {
                if entered {
                    continue;
                }
                let mut ok = false;
                self.walk(s, side, OFF, self.release_steps, 0, &mut |_| ok = true);
                if ok {
                    entered = true;
                    out.push(Action::simple(Kind::Enter));
                }
                continue;
            }
            let mut ok = false;
            self.walk(s, side, s.pos[k], self.release_steps, 0, &mut |_| ok = true);
            if ok {
                out.push(Action::at(Kind::Move, s.sq[k], 0));
            }
        }
    }

    /// The squares the side may not end a move on ([`Compiled::landable`] as a set).
    fn no_landing(&self, s: &State, side: usize) -> Mask {
        let mut m = Mask::default();
        if self.occupancy == Occupancy::Shared {
            return m;
        }
        if self.occupancy == Occupancy::Single {
            m = s.occ[side];
        }
        let enemy = s.occ[1 - side];
        let barred = if !self.capture {
            enemy
        } else if let Some(r) = self.safe {
            enemy.and(&self.regions[1 - side][r as usize])
        } else {
            Mask::default()
        };
        m.or(&barred)
    }

    /// [`Compiled::move_actions`] where every walk is plain: no gates, forks, flags, limit,
    /// holds or stacks. Lists the same actions in the same order.
    fn plain_move_actions(&self, s: &State, side: usize, v: u8, out: &mut impl Sink) {
        let stock = s.stock[side];
        let block = !self.pass_own && self.occupancy != Occupancy::Shared;
        let barred = self.no_landing(s, side);
        let own = s.occ[side];
        let base = self.step_index(side, 0, v);
        for k in members(self.on_board(s, side) & !s.unmoved) {
            let (p, f, sq) = (s.pos[k], s.flags[k], s.sq[k]);
            let i = base + ((p as usize) << 4);
            let q = self.dest[i];
            if q != NONE {
                let blocked = block && self.path[i].meets(&own);
                if !(blocked || barred.has(self.dest_sq[i])) {
                    out.push(Action::at(Kind::Move, sq, 0));
                }
            } else if self.overshoot != Overshoot::Illegal {
                self.walk(s, side, p, v, f, &mut |_| {
                    out.push(Action::at(Kind::Move, sq, 0))
                });
            }
            if stock > 0 && self.store_value.is_some() {
                self.plus_actions(s, side, p, sq, f, v, stock, &mut |a| out.push(a));
            }
        }
    }

    /// The captures lengthened by stored values of the piece on `sq` at position `p`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn plus_actions(
        &self,
        s: &State,
        side: usize,
        p: u8,
        sq: u8,
        flags: u8,
        v: u8,
        stock: u8,
        out: &mut impl FnMut(Action),
    ) {
        let (lo, hi) = match self.supplement {
            Supplement::Any => (1, stock),
            Supplement::All => (stock, stock),
        };
        for j in lo..=hi {
            if v.saturating_add(j) as usize >= self.track_len {
                break;
            }
            if self.plus_lands(s, side, p, flags, v, j) {
                out(Action::at(Kind::Plus, sq, j));
            }
        }
    }

    /// Whether the piece at position `p` may capture with `v` lengthened by `j` stored
    /// values ([`Compiled::plus_actions`]' test: a walk that ends on an enemy without
    /// choosing a branch ends on one square at most).
    #[inline(always)]
    fn plus_lands(&self, s: &State, side: usize, p: u8, flags: u8, v: u8, j: u8) -> bool {
        let total = v.saturating_add(j);
        if total as usize >= self.track_len {
            return false;
        }
        if self.linear {
            // The walk can only end on `p + total` (or on the last position when it
            // stops there): no enemy there, no capture, and no need to walk.
            let last = self.track_len - 1;
            let to = match (p as usize + total as usize, self.overshoot) {
                (t, _) if t <= last => t,
                (_, Overshoot::Stop) => last,
                _ => return false,
            };
            if !self.enemy_on(s, side, self.square_of[side][to]) {
                return false;
            }
        }
        let mut found = false;
        self.walk(s, side, p, total, flags, &mut |d| {
            found |=
                d.branch.is_none() && self.enemy_on(s, side, self.square_of[side][d.pos as usize]);
        });
        found
    }

    fn move_actions(&self, s: &State, side: usize, v: u8, out: &mut impl Sink) {
        if self.plain && self.limit == NONE && !self.any_hold && self.occupancy != Occupancy::Stacks
        {
            self.plain_move_actions(s, side, v, out);
            return;
        }
        let stock = s.stock[side];
        for k in members(self.on_board(s, side) & !s.unmoved) {
            let p = s.pos[k];
            let sq = s.sq[k];
            let (need, counted) = self.hold[p as usize];
            if need > 0 {
                if counted == v {
                    out.push(Action::at(Kind::Move, sq, 0));
                } else if self.driving_values != 0 && self.drives_from(p, v) {
                    out.push(Action::simple(Kind::Drive));
                }
                continue;
            }
            if !self.leads_stack(s, side, k) {
                continue;
            }
            // A simple walk reads no flags: a stack's are gathered only for the others.
            let plus = stock > 0 && self.store_value.is_some();
            let flags = if self.occupancy != Occupancy::Stacks {
                s.flags[k]
            } else if plus || !self.is_simple(side, p, v) {
                self.stack_flags(s, side, sq)
            } else {
                0
            };
            self.walk(s, side, p, v, flags, &mut |d| {
                out.push(match d.branch {
                    Some(name) => Action {
                        kind: Kind::Branch,
                        sq,
                        arg: 0,
                        name,
                    },
                    None => Action::at(Kind::Move, sq, 0),
                })
            });
            if plus {
                self.plus_actions(s, side, p, sq, flags, v, stock, &mut |a| out.push(a));
            }
        }
    }

    /// The actions when spending held values (all-first turns).
    pub(crate) fn spend_actions(&self, s: &State, out: &mut impl Sink) {
        let side = self.side_of(s.turn as usize);
        let mut held = [0u8; MAX_VALUE + 1];
        let mut n = 0;
        for v in 1..s.held.len() {
            if s.held[v] != 0 {
                held[n] = v as u8;
                n += 1;
            }
        }
        let held = &held[..n];
        for k in members(self.on_board(s, side)) {
            let p = s.pos[k];
            let sq = s.sq[k];
            for &v in held {
                self.walk(s, side, p, v, s.flags[k], &mut |_| {
                    out.push(Action::at(Kind::Held, sq, v))
                });
            }
        }
        if out.len() == 0 {
            out.push(Action::PASS);
        }
    }

    /// Every legal action at a decision.
    pub(crate) fn legal(&self, s: &State, out: &mut impl Sink) {
        if s.ended {
            return;
        }
        if s.spending {
            self.spend_actions(s, out);
        } else if s.pending != GONE {
            self.actions(s, out);
        }
    }

    // ---- random decisions ------------------------------------------------------------

    /// The candidates of a decision, each piece with its own actions (a release, a move,
    /// captures lengthened by stored values), the legal actions being exactly the
    /// candidates' actions: a uniformly random legal action is then found by drawing
    /// candidates without looking at the others ([`Compiled::draw`]). `None` where the
    /// decision is not of that shape: held values to spend, the chaser to drive, a stored
    /// value to store, stacks, forks, a stock to spend on walks that are not plain.
    #[inline(always)]
    pub(crate) fn candidates(&self, s: &State) -> Option<Candidates> {
        if s.spending || s.pending == GONE || self.forks || self.occupancy == Occupancy::Stacks {
            return None;
        }
        let seat = s.turn as usize;
        if self.drives(s, seat) {
            return None;
        }
        let v = self.pending_value(s);
        let side = self.side_of(seat);
        if Some(v) == self.store_value {
            return None;
        }
        if v == 0 {
            return Some(Candidates {
                release: 0,
                moves: 0,
                v,
                side,
                most: 1,
                wide: 0,
            });
        }
        let release = if self.releases(s, side, v) {
            let r = s.unmoved & s.alive & self.side_bits[side];
            if self.release_steps == 0 {
                r
            } else {
                // Every piece off the board enters the same way: the listing names one
                // entry, so the lowest stands for them all.
                let off = r & !s.on_board;
                (r & s.on_board) | (off & off.wrapping_neg())
            }
        } else {
            0
        };
        let moves = self.on_board(s, side) & !s.unmoved;
        // Each moved piece's captures lengthened by stored values: one per count of them
        // (any count), or one (all of them).
        let plus = match (s.stock[side], self.store_value, self.supplement) {
            (0, _, _) | (_, None, _) => 0,
            (_, _, _) if !self.plain_walks() => return None,
            (stock, Some(_), Supplement::Any) => stock as usize,
            (_, Some(_), Supplement::All) => 1,
        };
        Some(Candidates {
            release,
            moves,
            v,
            side,
            most: 1 + plus,
            wide: if plus > 0 { moves } else { 0 },
        })
    }

    /// Whether every move is a plain walk ([`Compiled::plain_move_actions`]).
    #[inline(always)]
    fn plain_walks(&self) -> bool {
        self.plain && self.limit == NONE && !self.any_hold && self.occupancy != Occupancy::Stacks
    }

    /// A uniformly random legal action among the candidates (as likely as each entry of the
    /// listed actions), or `None` when none can act (the action is then a pass).
    #[inline]
    pub(crate) fn draw(
        &self,
        s: &State,
        c: &Candidates,
        index: &mut impl FnMut(usize) -> usize,
    ) -> Option<Drawn> {
        if c.most != 1 {
            return self.draw_counted(s, c, index);
        }
        if self.release_priority {
            if let Some(d) = draw_among_tested(c.release, index, |k| self.release_of(s, c.side, k))
            {
                return Some(d);
            }
            return draw_among(c.moves, index, |k| self.move_of(s, c.side, k, c.v));
        }
        draw_among(c.release | c.moves, index, |k| self.candidate(s, c, k))
    }

    /// [`Compiled::draw`] where a candidate may have more than one action (a stock of
    /// stored values to spend): the candidates' actions counted in the listing's order (the
    /// releases that can act, then each moved piece's move and its captures lengthened by
    /// stored values), and one drawn by a single index (none where there is only one), as
    /// [`Described::random_action_within`] picks one of the listed actions.
    ///
    /// [`Described::random_action_within`]: super::Described::random_action_within
    fn draw_counted(
        &self,
        s: &State,
        c: &Candidates,
        index: &mut impl FnMut(usize) -> usize,
    ) -> Option<Drawn> {
        let mut n = 0usize;
        self.each_listed(s, c, &mut |_| {
            n += 1;
            true
        });
        let mut i = match n {
            0 => return None,
            1 => 0,
            n => index(n).min(n - 1),
        };
        let mut out = None;
        self.each_listed(s, c, &mut |d| {
            if i == 0 {
                out = Some(d);
                return false;
            }
            i -= 1;
            true
        });
        out
    }

    /// Candidate `k`'s action, if it can act: its release where it is a release candidate,
    /// else its move.
    #[inline(always)]
    fn candidate(&self, s: &State, c: &Candidates, k: usize) -> Option<Drawn> {
        if c.release >> k & 1 == 1 {
            self.release_of(s, c.side, k)
        } else {
            self.move_of(s, c.side, k, c.v)
        }
    }

    /// Candidate `k`'s action in slot `j` (below `c.most`), if it has one there. The slots
    /// name each of its actions once: a release, or a plain move, in slot 0; the capture
    /// lengthened by `j` stored values (all of them, for slot 1, where a capture spends
    /// them all) in slot `j`.
    fn slot(&self, s: &State, c: &Candidates, k: usize, j: usize) -> Option<Drawn> {
        if c.release >> k & 1 == 1 {
            return if j == 0 {
                self.release_of(s, c.side, k)
            } else {
                None
            };
        }
        if j == 0 {
            return self.move_of(s, c.side, k, c.v);
        }
        // As the listing's plain walks' captures ([`Compiled::plain_move_actions`]).
        let stock = s.stock[c.side];
        let by = match self.supplement {
            Supplement::Any => j as u8,
            Supplement::All if j == 1 => stock,
            Supplement::All => return None,
        };
        let lands =
            j <= stock as usize && self.plus_lands(s, c.side, s.pos[k], s.flags[k], c.v, by);
        lands.then(|| Drawn {
            action: Action::at(Kind::Plus, s.sq[k], by),
            moved: None,
        })
    }

    /// Calls `f` with each candidate's action, in the listing's order (the releases alone
    /// where they come first and one can act), until `f` returns false; a pass where none
    /// can act.
    #[inline(always)]
    fn each_drawable(&self, s: &State, c: &Candidates, mut f: impl FnMut(Drawn) -> bool) {
        let (go_on, any) = self.each_listed(s, c, &mut f);
        if go_on && !any {
            f(Drawn {
                action: Action::PASS,
                moved: None,
            });
        }
    }

    /// Calls `f` with each candidate's action in the listing's order (the releases, then
    /// the moves, and the releases alone where they come first and one can act), until `f`
    /// returns false: whether to go on, and whether any candidate could act.
    #[inline(always)]
    fn each_listed(
        &self,
        s: &State,
        c: &Candidates,
        f: &mut impl FnMut(Drawn) -> bool,
    ) -> (bool, bool) {
        // Each set's actions: whether to go on, and whether any candidate could act.
        let mut each = |set: u64| {
            let mut found = false;
            for k in members(set) {
                if c.most != 1 {
                    match self.each_slot(s, c, k, &mut *f) {
                        (true, any) => found |= any,
                        done => return done,
                    }
                    continue;
                }
                // One action a candidate at most (most decisions): no slots to walk.
                if let Some(d) = self.candidate(s, c, k) {
                    found = true;
                    if !f(d) {
                        return (false, true);
                    }
                }
            }
            (true, found)
        };
        match each(c.release) {
            (true, true) if self.release_priority => (true, true),
            (true, released) => {
                let (go_on, moved) = each(c.moves);
                (go_on, released || moved)
            }
            done => done,
        }
    }

    /// Calls `f` with each of candidate `k`'s actions in its slots, until `f` returns false:
    /// whether to go on, and whether it has any ([`Compiled::each_listed`] where a
    /// candidate may have more than one action).
    #[inline(never)]
    fn each_slot(
        &self,
        s: &State,
        c: &Candidates,
        k: usize,
        f: &mut dyn FnMut(Drawn) -> bool,
    ) -> (bool, bool) {
        let mut found = false;
        let most = if c.wide >> k & 1 == 1 { c.most } else { 1 };
        for j in 0..most {
            if let Some(d) = self.slot(s, c, k, j) {
                found = true;
                if !f(d) {
                    return (false, true);
                }
            }
        }
        (true, found)
    }

    /// The release action of unmoved piece `k`, if it can be released ([`Compiled::release_actions`]
    /// for one piece).
    #[inline]
    fn release_of(&self, s: &State, side: usize, k: usize) -> Option<Drawn> {
        let action = if self.release_steps == 0 {
            Action::at(Kind::Unlock, s.sq[k], 0)
        } else {
            let mut ok = false;
            self.walk(s, side, s.pos[k], self.release_steps, 0, &mut |_| ok = true);
            if !ok {
                return None;
            }
            if s.pos[k] == OFF {
                Action::simple(Kind::Enter)
            } else {
                Action::at(Kind::Move, s.sq[k], 0)
            }
        };
        Some(Drawn {
            action,
            moved: None,
        })
    }

    /// The move of moved piece `k` on the board with value `v`, if it has one
    /// ([`Compiled::move_actions`] for one piece, where there are no stacks, forks or stock).
    #[inline]
    fn move_of(&self, s: &State, side: usize, k: usize, v: u8) -> Option<Drawn> {
        let (p, sq) = (s.pos[k], s.sq[k]);
        let action = Action::at(Kind::Move, sq, 0);
        if self.any_hold {
            let (need, counted) = self.hold[p as usize];
            if need > 0 {
                return if counted == v {
                    Some(Drawn {
                        action,
                        moved: None,
                    })
                } else if self.driving_values != 0 && self.drives_from(p, v) {
                    Some(Drawn {
                        action: Action::simple(Kind::Drive),
                        moved: None,
                    })
                } else {
                    None
                };
            }
        }
        // A move names its piece by its square, and applying it moves the first piece
        // there: where pieces share squares that may be another piece.
        let known = self.occupancy != Occupancy::Shared
            || !members(self.on_board(s, side) & ((1u64 << k) - 1)).any(|j| s.sq[j] == sq);
        let found = |d: Dest| Drawn {
            action,
            moved: known.then_some((k, d)),
        };
        if self.plain && self.limit == NONE && !self.any_hold {
            // As the listing's plain walks ([`Compiled::plain_move_actions`]).
            let i = self.step_index(side, p, v);
            let q = self.dest[i];
            if q != NONE {
                let block = !self.pass_own && self.occupancy != Occupancy::Shared;
                if (block && self.path[i].meets(&s.occ[side]))
                    || !self.landable(s, side, self.dest_sq[i])
                {
                    return None;
                }
                return Some(found(Dest {
                    pos: q,
                    set_flags: 0,
                    branch: None,
                }));
            }
            if self.overshoot == Overshoot::Illegal {
                return None;
            }
        }
        let mut out = None;
        self.walk(s, side, p, v, s.flags[k], &mut |d| {
            if out.is_none() {
                out = Some(d);
            }
        });
        out.map(found)
    }

    /// Applies a drawn move of piece `k` to its destination: what applying its action does
    /// (without looking for the piece and walking again).
    #[inline]
    pub(crate) fn apply_move(&self, s: &mut State, side: usize, k: usize, d: Dest) {
        let k_throw = (s.pending & 15) as usize;
        s.pending = GONE;
        let again = self.table.again[k_throw.min(8)];
        self.move_to(s, side, k, d);
        self.finish_decision(s, again);
        self.shared_occupancy(s);
    }

    /// Applies a drawn action: its move directly where it is one, else the action.
    #[inline]
    pub(crate) fn apply_drawn(&self, s: &mut State, side: usize, d: Drawn) {
        match d.moved {
            Some((k, dest)) => self.apply_move(s, side, k, dest),
            None => self.apply(s, d.action),
        }
    }

    /// The only legal action of a decision of [`Compiled::candidates`]' shape, a pass where
    /// none can act, or `None` where two or more can.
    fn only_drawable(&self, s: &State, c: &Candidates) -> Option<Drawn> {
        let (mut one, mut n) = (None, 0);
        self.each_drawable(s, c, |d| {
            one = Some(d);
            n += 1;
            n < 2
        });
        one.filter(|_| n == 1)
    }

    // ---- applying ------------------------------------------------------------------

    fn piece_on(&self, s: &State, side: usize, sq: u8) -> Option<usize> {
        members(self.on_board(s, side)).find(|&k| s.sq[k] == sq)
    }

    /// Moves the side's piece (or stack) `k` to the destination, capturing.
    fn move_to(&self, s: &mut State, side: usize, k: usize, d: Dest) {
        let from_sq = s.sq[k];
        let to_sq = self.square_of[side][d.pos as usize];
        let stacks = self.occupancy == Occupancy::Stacks;
        if self.occupancy != Occupancy::Shared {
            s.occ[side].clear(from_sq);
            // Capture.
            if self.capture && s.occ[1 - side].has(to_sq) {
                for e in members(self.on_board(s, 1 - side)) {
                    if s.sq[e] == to_sq {
                        s.pos[e] = GONE;
                        s.sq[e] = GONE;
                        s.flags[e] = 0;
                        s.count[e] = 0;
                        s.sync(e);
                        s.captures[side] = s.captures[side].saturating_add(1);
                    }
                }
                s.occ[1 - side].clear(to_sq);
            }
            s.occ[side].set(to_sq);
        }
        let from_pos = s.pos[k];
        let moved = |j: usize, s: &mut State| {
            s.pos[j] = d.pos;
            s.sq[j] = to_sq;
            s.flags[j] = (s.flags[j] & !UNMOVED) | d.set_flags;
            s.count[j] = 0;
            s.sync(j);
        };
        if stacks && from_pos < OFF {
            for j in members(self.on_board(s, side)) {
                if s.sq[j] == from_sq && s.pos[j] == from_pos {
                    moved(j, s);
                }
            }
        } else {
            moved(k, s);
        }
    }

    /// The first destination of a walk that matches the action, if any.
    fn find_dest(&self, s: &State, side: usize, k: usize, steps: u8, a: &Action) -> Option<Dest> {
        let flags = if self.occupancy == Occupancy::Stacks
            && !(s.pos[k] < OFF && steps > 0 && self.is_simple(side, s.pos[k], steps))
        {
            self.stack_flags(s, side, s.sq[k])
        } else {
            s.flags[k]
        };
        let mut found = None;
        self.walk(s, side, s.pos[k], steps, flags, &mut |d| {
            if found.is_none() {
                let ok = match a.kind {
                    Kind::Branch => d.branch == Some(a.name),
                    _ => d.branch.is_none(),
                };
                if ok {
                    found = Some(d);
                }
            }
        });
        found
    }

    /// Applies a legal action (the caller has checked it).
    pub(crate) fn apply(&self, s: &mut State, a: Action) {
        self.apply_inner(s, a);
        self.shared_occupancy(s);
    }

    /// Where pieces share squares, sets the occupancy of sides 0 and 1 from their pieces.
    #[inline(always)]
    fn shared_occupancy(&self, s: &mut State) {
        if self.occupancy == Occupancy::Shared {
            // Occupancy of sides 0 and 1 is kept in every game, so that a state read from
            // JSON (which knows no occupancy rule) compares equal.
            self.set_occupancy(s);
        }
    }

    /// Sets the occupancy of sides 0 and 1 from their pieces' squares (what the one-loop
    /// playouts, which keep pieces by square or position instead, write back at the end).
    pub(crate) fn set_occupancy(&self, s: &mut State) {
        s.occ = Default::default();
        for side in 0..self.sides.min(2) {
            for k in members(self.on_board(s, side)) {
                s.occ[side].set(s.sq[k]);
            }
        }
    }

    fn apply_inner(&self, s: &mut State, a: Action) {
        let seat = s.turn as usize;
        if s.spending {
            let side = self.side_of(seat);
            match a.kind {
                Kind::Held => {
                    if let Some(k) = self.piece_on(s, side, a.sq) {
                        if let Some(d) = self.find_dest(s, side, k, a.arg, &a) {
                            self.move_to(s, side, k, d);
                        }
                    }
                    let v = (a.arg as usize).min(s.held.len() - 1);
                    s.held[v] = s.held[v].saturating_sub(1);
                    self.check_end(s);
                    if s.ended {
                        s.held = [0; 16];
                        s.spending = false;
                    } else if s.held.iter().all(|&n| n == 0) {
                        s.spending = false;
                        self.next_turn(s);
                    }
                }
                _ => {
                    s.held = [0; 16];
                    s.spending = false;
                    self.next_turn(s);
                }
            }
            return;
        }
        let k_throw = (s.pending & 15) as usize;
        s.pending = GONE;
        let driving = self.drives(s, seat);
        let again = if driving {
            self.chaser_table
                .as_ref()
                .is_some_and(|t| t.again[k_throw.min(8)])
        } else {
            self.table.again[k_throw.min(8)]
        };
        let v = if driving {
            self.chaser_table
                .as_ref()
                .map_or(0, |t| t.value[k_throw.min(8)])
        } else {
            self.table.value[k_throw.min(8)]
        };
        let side = self.side_of(seat);
        match a.kind {
            Kind::Move | Kind::Branch => {
                if let Some(k) = self.piece_on(s, side, a.sq) {
                    let p = s.pos[k] as usize;
                    if s.flags[k] & UNMOVED != 0 {
                        if let Some(d) = self.find_dest(s, side, k, self.release_steps, &a) {
                            self.move_to(s, side, k, d);
                        }
                    } else if self.hold[p].0 > 0 {
                        self.hold_step(s, side, seat, k);
                    } else if let Some(d) = self.find_dest(s, side, k, v, &a) {
                        self.move_to(s, side, k, d);
                    }
                }
            }
            Kind::Plus => {
                if let Some(k) = self.piece_on(s, side, a.sq) {
                    if let Some(d) = self.find_dest(s, side, k, v.saturating_add(a.arg), &a) {
                        self.move_to(s, side, k, d);
                        s.stock[side] = s.stock[side].saturating_sub(a.arg);
                    }
                }
            }
            Kind::Unlock => {
                if let Some(k) = self.piece_on(s, side, a.sq) {
                    s.flags[k] &= !UNMOVED;
                    s.sync(k);
                }
            }
            Kind::Store => s.stock[side] = s.stock[side].saturating_add(1),
            Kind::Enter => {
                if let Some(k) = members(s.alive & !s.on_board & self.side_bits[side]).next() {
                    let pos = self.release_steps - 1;
                    let mut d = None;
                    self.walk(s, side, OFF, self.release_steps, 0, &mut |x| d = Some(x));
                    let d = d.unwrap_or(Dest {
                        pos,
                        set_flags: 0,
                        branch: None,
                    });
                    s.pos[k] = d.pos;
                    s.sq[k] = self.square_of[side][d.pos as usize];
                    s.flags[k] &= !UNMOVED;
                    s.count[k] = 0;
                    s.sync(k);
                    if self.occupancy != Occupancy::Shared {
                        s.occ[side].set(s.sq[k]);
                    }
                }
            }
            Kind::Back | Kind::Forward => self.move_chaser(s, v, a.kind == Kind::Back),
            Kind::Drive => self.steer(s, v),
            Kind::Held | Kind::Pass => {}
        }
        self.finish_decision(s, again);
    }

    /// After a decision's action: the end tests, then the next seat's turn unless the throw
    /// gives another.
    #[inline(always)]
    fn finish_decision(&self, s: &mut State, again: bool) {
        self.check_end(s);
        if s.ended {
            return;
        }
        if !again {
            self.next_turn(s);
        }
    }

    fn hold_step(&self, s: &mut State, side: usize, seat: usize, k: usize) {
        let p = s.pos[k] as usize;
        let need = self.hold[p].0;
        s.count[k] = s.count[k].saturating_add(1);
        if s.count[k] < need {
            return;
        }
        s.count[k] = 0;
        let l = self.next[side][p];
        if l.to == NONE {
            // Off the end: the piece is out.
            if self.occupancy != Occupancy::Shared {
                s.occ[side].clear(s.sq[k]);
            }
            s.pos[k] = GONE;
            s.sq[k] = GONE;
            s.flags[k] = 0;
            s.sync(k);
            if s.out_place[seat] == 0 && s.alive & self.side_bits[side] == 0 {
                s.outs += 1;
                s.out_place[seat] = s.outs;
                if self.chaser_table.is_some() && s.chaser == GONE && self.steering.is_none() {
                    s.chaser = self.chaser_appears;
                }
            }
        } else {
            let d = Dest {
                pos: l.to,
                set_flags: l.set_flags,
                branch: None,
            };
            if self.landable(s, side, self.square_of[side][l.to as usize]) {
                self.move_to(s, side, k, d);
            }
        }
    }

    fn move_chaser(&self, s: &mut State, v: u8, back: bool) {
        let last = (self.track_len - 1) as u8;
        for _ in 0..v {
            let g = s.chaser;
            let carried = |s: &State, k: usize| s.pos[k] == g;
            if back && g == 0 {
                for k in 0..self.sides * self.pieces_per_side {
                    if carried(s, k) {
                        s.pos[k] = OFF;
                        s.sq[k] = GONE;
                        s.count[k] = 0;
                        s.flags[k] |= UNMOVED;
                        s.sync(k);
                    }
                }
                return;
            }
            if !back && g == last {
                return;
            }
            let to = if back { g - 1 } else { g + 1 };
            for k in 0..self.sides * self.pieces_per_side {
                if carried(s, k) {
                    s.pos[k] = to;
                    s.sq[k] = self.square_of[0][to as usize];
                    s.count[k] = 0;
                }
            }
            s.chaser = to;
        }
    }

    pub(crate) fn next_turn(&self, s: &mut State) {
        let n = self.seats;
        let mut t = s.turn as usize;
        for _ in 0..n {
            t = (t + 1) % n;
            if (s.out_place[t] == 0 || self.chaser_table.is_some()) && s.burials[t] == 0 {
                break;
            }
        }
        s.turn = t as u8;
    }

    /// Applies a throw (the caller has checked it).
    pub(crate) fn throw(&self, s: &mut State, marked: u8, cap: u32) {
        s.throws = s.throws.saturating_add(1);
        let k = (marked as usize).min(8);
        if s.opening {
            let v = self.table.value[k];
            if let Some((begin, moves)) = self.opening {
                if v == begin {
                    s.opening = false;
                    if moves {
                        s.pending = marked;
                    }
                    return;
                }
            }
            self.next_turn(s);
            return;
        }
        if self.all_first {
            let v = self.table.value[k] as usize;
            s.held[v.min(15)] = s.held[v.min(15)].saturating_add(1);
            if !self.table.again[k] || s.throws >= cap {
                s.spending = true;
            }
            return;
        }
        s.pending = marked;
        if self.decide == Decide::Choices {
            if let Some(c) = self.candidates(s) {
                if let Some(d) = self.only_drawable(s, &c) {
                    self.apply_drawn(s, c.side, d);
                }
                return;
            }
            self.play_only_listed(s);
        }
    }

    /// Where the pending throw leaves one choice (moving the chaser aside), makes it.
    fn play_only_listed(&self, s: &mut State) {
        let mut one = First {
            first: Action::PASS,
            n: 0,
        };
        self.actions(s, &mut one);
        if one.n == 1 && !matches!(one.first.kind, Kind::Back | Kind::Forward) {
            self.apply(s, one.first);
        }
    }

    // ---- ends ----------------------------------------------------------------------

    fn alive(&self, s: &State, side: usize) -> usize {
        (s.alive & self.side_bits[side]).count_ones() as usize
    }

    /// Whether the side has no piece left (on the board or off it).
    #[inline(always)]
    fn none_left(&self, s: &State, side: usize) -> bool {
        s.alive & self.side_bits[side] == 0
    }

    pub(crate) fn check_end(&self, s: &mut State) {
        if self.end_no_pieces && (0..self.sides).any(|side| self.none_left(s, side)) {
            s.ended = true;
            return;
        }
        if let Some(r) = self.end_all_in {
            let all = (0..self.sides).all(|side| {
                let m = &self.regions[side][r as usize];
                s.alive & !s.on_board & self.side_bits[side] == 0
                    && members(self.on_board(s, side)).all(|k| m.has(s.sq[k]))
            });
            if all {
                s.ended = true;
                return;
            }
        }
        if self.end_separated && self.separated(s) {
            s.ended = true;
            return;
        }
        if self.end_all_out && (s.outs + s.buried) as usize == self.seats {
            s.ended = true;
            return;
        }
        if self.end_frozen && self.frozen(s) {
            s.ended = true;
        }
    }

    /// Which end condition holds (the first, in the order they are tested), if any.
    pub(crate) fn end_reason(&self, s: &State) -> Option<&'static str> {
        if self.end_no_pieces && (0..self.sides).any(|side| self.alive(s, side) == 0) {
            return Some("a side has no pieces");
        }
        if let Some(r) = self.end_all_in {
            if (0..self.sides).all(|side| {
                let m = &self.regions[side][r as usize];
                s.alive & !s.on_board & self.side_bits[side] == 0
                    && members(self.on_board(s, side)).all(|k| m.has(s.sq[k]))
            }) {
                return Some("every piece in its region");
            }
        }
        if self.end_separated && self.separated(s) {
            return Some("no capture possible any more");
        }
        if self.end_all_out && (s.outs + s.buried) as usize == self.seats {
            return Some("every seat got out");
        }
        if self.end_frozen && self.frozen(s) {
            return Some("frozen");
        }
        None
    }

    /// Whether every piece of side 0 on the board stands on a higher row than every piece
    /// of side 1 (and each side has one there).
    pub(crate) fn separated(&self, s: &State) -> bool {
        if self.occupancy != Occupancy::Shared && self.chaser_table.is_none() {
            // The side's squares are its pieces' squares (kept on every move; only a
            // chaser carries pieces without them): the first and last square give the rows.
            return match (s.occ[0].first(), s.occ[1].last()) {
                (Some(lo), Some(hi)) => lo >> 5 > hi >> 5,
                _ => false,
            };
        }
        let lowest0 = members(self.on_board(s, 0)).map(|k| s.sq[k] >> 5).min();
        let highest1 = members(self.on_board(s, 1)).map(|k| s.sq[k] >> 5).max();
        matches!((lowest0, highest1), (Some(lo), Some(hi)) if lo > hi)
    }

    fn frozen(&self, s: &State) -> bool {
        for side in 0..self.sides {
            // From the last piece: pieces keep their order along the track where own pieces
            // block, so the first that can move is usually found at once.
            for k in members_rev(self.on_board(s, side)) {
                for &v in &self.values {
                    let mut any = false;
                    self.walk(s, side, s.pos[k], v, s.flags[k], &mut |_| any = true);
                    if any {
                        return false;
                    }
                }
            }
        }
        true
    }

    pub(crate) fn ranking(&self, s: &State) -> Ranking {
        let n = self.seats;
        let mut keys = [0u32; MAX_SEATS];
        match self.rank {
            Rank::LastStanding => {
                let mut alive = [false; MAX_SEATS];
                for (side, a) in alive.iter_mut().enumerate().take(self.sides) {
                    *a = self.alive(s, side) > 0;
                }
                let standing = alive.iter().filter(|&&a| a).count();
                for (seat, key) in keys.iter_mut().enumerate().take(n) {
                    *key = if standing == 1 && !alive[self.side_of(seat)] {
                        1
                    } else {
                        0
                    };
                }
            }
            Rank::PiecesLeft if self.sides == 2 => {
                // Each side's pieces counted once, not once a seat (a count of bits is a
                // dozen instructions, the build having no `popcnt`).
                let left = [self.alive(s, 0) as u32, self.alive(s, 1) as u32];
                for (seat, key) in keys.iter_mut().enumerate().take(n) {
                    *key = (MAX_SEATS * 64) as u32 - left[self.side_of(seat) & 1];
                }
            }
            Rank::PiecesLeft => {
                for (seat, key) in keys.iter_mut().enumerate().take(n) {
                    *key = (MAX_SEATS * 64 - self.alive(s, self.side_of(seat))) as u32;
                }
            }
            Rank::Captures => {
                for (seat, key) in keys.iter_mut().enumerate().take(n) {
                    *key = 1000 - u32::from(s.captures[self.side_of(seat)]);
                }
            }
            Rank::Arrival | Rank::Out => {
                let by_order = self.rank == Rank::Arrival;
                for (seat, key) in keys.iter_mut().enumerate().take(n) {
                    let (p, b) = (s.out_place[seat], s.burials[seat]);
                    *key = match (p, b) {
                        (0, 0) => 100,
                        (0, b) if by_order => 1000 - u32::from(b),
                        (0, _) => 1000,
                        (p, _) if by_order => u32::from(p),
                        _ => 1,
                    };
                }
            }
        }
        Ranking::from_keys(&keys[..n])
    }
}

#[cfg(test)]
impl Compiled {
    /// Every candidate's drawable action ([`Compiled::draw`]'s outcomes), in candidate order,
    /// with a pass where none can act.
    fn drawable(&self, s: &State, c: &Candidates) -> Vec<Drawn> {
        let mut out = Vec::new();
        self.each_drawable(s, c, |d| {
            out.push(d);
            true
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::described::games::{shipped, REFERENCE, SHIPPED};
    use crate::described::Described;
    use crate::game::Node;
    use std::collections::BTreeMap;

    /// The exact outcome of [`draw_among`] over `set` accepting the members of `accept`: the
    /// probability of each accepted member and of none, over every sequence of draws (a
    /// draw among candidates always ends, so no sequence is cut short).
    fn exact_draw(set: u64, accept: u64) -> (BTreeMap<usize, f64>, f64) {
        let (found, none, past) = exact_outcomes(usize::MAX, |index, _| {
            draw_among(set, &mut |n| index(n), |k| {
                (accept >> k & 1 == 1).then_some(k)
            })
        });
        assert_eq!(past, 0.0);
        (found, none)
    }

    /// Calls `f` with each of the sets made of the first 1 to all of `spots`, and each
    /// subset of it (the members that can act).
    fn each_set_and_subset(spots: &[usize], mut f: impl FnMut(u64, u64)) {
        for n in 1..=spots.len() {
            let set: u64 = spots[..n].iter().map(|&k| 1u64 << k).sum();
            for pick in 0u64..(1 << n) {
                let accept: u64 = spots[..n]
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| pick >> i & 1 == 1)
                    .map(|(_, &k)| 1u64 << k)
                    .sum();
                f(set, accept);
            }
        }
    }

    /// That a draw over `set` accepting `accept` found each accepted member with the same
    /// probability and none with probability 0, or none for sure where none is accepted.
    fn assert_uniform(set: u64, accept: u64, found: BTreeMap<usize, f64>, none: f64) {
        let legal = accept.count_ones();
        if legal == 0 {
            assert!(found.is_empty() && (none - 1.0).abs() < 1e-12);
            return;
        }
        assert!(none.abs() < 1e-12, "{set:b} {accept:b}: none {none}");
        assert_eq!(found.len() as u32, legal, "{set:b} {accept:b}");
        for (k, p) in found {
            assert_eq!(accept >> k & 1, 1);
            assert!((p - 1.0 / f64::from(legal)).abs() < 1e-12, "{k}: {p}");
        }
    }

    #[test]
    fn drawing_candidates_gives_each_that_can_act_the_same_chance() {
        each_set_and_subset(&[1, 3, 4, 8, 13, 40, 63], |set, accept| {
            let (found, none) = exact_draw(set, accept);
            assert_uniform(set, accept, found, none);
        });
    }

    /// A release under priority ([`draw_among_tested`]) gives each member that can act
    /// the same chance, exactly (over every sequence of draws), with one draw at most and
    /// none where fewer than two can act.
    #[test]
    fn drawing_the_tested_members_gives_each_that_can_act_the_same_chance() {
        each_set_and_subset(&[0, 2, 5, 9, 21, 40, 63], |set, accept| {
            let most = core::cell::Cell::new(0);
            let (found, none, past) = exact_outcomes(usize::MAX, |index, _| {
                let mut draws = 0;
                let d = draw_among_tested(
                    set,
                    &mut |n| {
                        draws += 1;
                        index(n)
                    },
                    |k| (accept >> k & 1 == 1).then_some(k),
                );
                most.set(most.get().max(draws));
                d
            });
            assert_eq!(past, 0.0);
            let legal = accept.count_ones();
            assert_eq!(most.get(), usize::from(legal > 1), "{set:b} {accept:b}");
            assert_uniform(set, accept, found, none);
        });
    }

    /// The exact outcome of `run` (a draw with the index function it is given, told
    /// whether it is past `depth` draws): the probability of each outcome, of none, and of
    /// going on past `depth` draws (those after are not followed: `run` is to end quickly).
    fn exact_outcomes(
        depth: usize,
        run: impl Fn(&mut dyn FnMut(usize) -> usize, &dyn Fn() -> bool) -> Option<usize>,
    ) -> (BTreeMap<usize, f64>, f64, f64) {
        let (mut found, mut none, mut past) = (BTreeMap::new(), 0.0, 0.0);
        let mut prefix: Vec<usize> = Vec::new();
        loop {
            let lens = core::cell::RefCell::new(Vec::new());
            let over = core::cell::Cell::new(false);
            let got = run(
                &mut |n| {
                    let mut lens = lens.borrow_mut();
                    if lens.len() == depth {
                        over.set(true);
                        return 0;
                    }
                    let c = prefix.get(lens.len()).copied().unwrap_or(0);
                    lens.push(n);
                    c
                },
                &|| over.get(),
            );
            let lens = lens.into_inner();
            let p: f64 = lens.iter().map(|&n| 1.0 / n as f64).product();
            match got {
                _ if over.get() => past += p,
                Some(o) => *found.entry(o).or_insert(0.0) += p,
                None => none += p,
            }
            let mut next: Vec<usize> = (0..lens.len())
                .map(|i| prefix.get(i).copied().unwrap_or(0))
                .collect();
            loop {
                match next.pop() {
                    None => return (found, none, past),
                    Some(c) if c + 1 < lens[next.len()] => {
                        next.push(c + 1);
                        break;
                    }
                    Some(_) => {}
                }
            }
            prefix = next;
        }
    }

    /// Sijat El Taba in each of its variants (its rows, and a capture lengthened by any
    /// count or by all of the stored 1s).
    fn sijat_variants() -> Vec<Described> {
        let (file, text) = shipped("sijat-el-taba").unwrap();
        let g = Described::from_text(file, text).unwrap();
        Described::variants(&g.base)
    }

    /// A decision of `g` with a stock of stored values, reached by random play from a fixed
    /// seed: the first whose listed actions hold at least `plus` captures lengthened by
    /// stored values, and another action.
    fn with_stock(g: &Described, plus: usize) -> State {
        use rand::SeedableRng as _;
        let mut rng = crate::Rng::seed_from_u64(37);
        let mut bits = crate::play::RandomBits::new();
        for _ in 0..10_000 {
            let mut s = g.initial_state();
            loop {
                match g.node(&s) {
                    Node::End => break,
                    Node::Throw(_) => {
                        g.apply_throw_unchecked(&mut s, bits.throw(&mut rng, g.sticks()))
                    }
                    Node::Decide(_) => {
                        let list = g.legal_actions(&s);
                        let lengthened = list.iter().filter(|a| a.kind == Kind::Plus).count();
                        if lengthened >= plus && list.len() > plus {
                            return s;
                        }
                        g.play_drawn_within::<BUFFER>(&mut s, |len| bits.index(&mut rng, len));
                    }
                }
            }
        }
        panic!("no decision with {plus} lengthened captures");
    }

    /// Where stored values may lengthen captures, the draw takes the listed action of the
    /// index it draws (one index over them all), so that each listed action is exactly as
    /// likely: over every index the draw could get, each listed action comes once. Checked
    /// at decisions of random games of Sijat El Taba with a stock, in each way of spending.
    #[test]
    fn the_counted_draw_takes_each_listed_action_once() {
        use rand::SeedableRng as _;
        let mut checked = 0;
        for g in sijat_variants() {
            let c = &*g.compiled;
            let mut rng = crate::Rng::seed_from_u64(6);
            let mut bits = crate::play::RandomBits::new();
            let mut s = g.initial_state();
            for _ in 0..200_000 {
                match g.node(&s) {
                    Node::End => s = g.initial_state(),
                    Node::Throw(_) => {
                        g.apply_throw_unchecked(&mut s, bits.throw(&mut rng, g.sticks()))
                    }
                    Node::Decide(_) => {
                        if let Some(cands) = c.candidates(&s).filter(|c| c.most != 1) {
                            let list = g.legal_actions(&s);
                            let (found, none, past) = exact_outcomes(usize::MAX, |index, _| {
                                let a = g.draw_action_within::<BUFFER>(&s, &mut *index);
                                list.iter().position(|&b| b == a)
                            });
                            assert!(none == 0.0 && past == 0.0, "{s:?}");
                            let each = 1.0 / list.len() as f64;
                            assert_eq!(found.len(), list.len(), "{s:?}: {list:?}");
                            for (i, p) in found {
                                assert!((p - each).abs() < 1e-12, "{}: {p}", list[i]);
                            }
                            // And the one index is the listing's: the action of index `i`
                            // is the listed action `i`.
                            for (i, &a) in list.iter().enumerate() {
                                let d = c.draw(&s, &cands, &mut |n| {
                                    assert_eq!(n, list.len());
                                    i
                                });
                                assert_eq!(d.map_or(Action::PASS, |d| d.action), a, "{s:?}");
                            }
                            checked += 1;
                        }
                        g.play_drawn_within::<BUFFER>(&mut s, |len| bits.index(&mut rng, len));
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Drawn with the random bits of a fixed seed many times, at a decision of Sijat El
    /// Taba where the stock lengthens several captures, each listed action comes about
    /// equally often: Pearson's chi-square of the counts against equal chances stays below
    /// the bound that a uniform draw exceeds with probability about one in a million.
    #[test]
    fn the_counted_draw_is_uniform_over_the_listed_actions() {
        use rand::SeedableRng as _;
        let g = sijat_variants().swap_remove(0);
        assert_eq!(g.compiled.supplement, Supplement::Any);
        let s = with_stock(&g, 3);
        let list = g.legal_actions(&s);
        let k = list.len();
        assert!(k >= 5 && s.stock[s.turn as usize] >= 3, "{list:?}");
        let mut rng = crate::Rng::seed_from_u64(2026);
        let mut bits = crate::play::RandomBits::new();
        let draws = 200_000;
        let mut counts = vec![0u32; k];
        for _ in 0..draws {
            let a = g.random_action(&s, |n| bits.index(&mut rng, n));
            counts[list.iter().position(|&b| b == a).unwrap()] += 1;
        }
        let e = draws as f64 / k as f64;
        let chi2: f64 = counts.iter().map(|&o| (o as f64 - e).powi(2) / e).sum();
        // The chi-square quantile of probability 1 - 1e-6 for k - 1 degrees of freedom
        // (Wilson-Hilferty, z = 4.753).
        let df = (k - 1) as f64;
        let z = 4.753;
        let bound = df * (1.0 - 2.0 / (9.0 * df) + z * (2.0 / (9.0 * df)).sqrt()).powi(3);
        assert!(
            chi2 < bound,
            "chi-square {chi2} over {bound}: {counts:?} for {list:?}"
        );
    }

    /// The ranking by pieces left of two sides counts each side's pieces once, as counting
    /// every seat's side does: Sig (Western Sahara) in every variant (2 and 4 seats, 20 to
    /// 25 pieces a side), random sets of pieces in the game.
    #[test]
    fn pieces_left_ranks_by_each_sides_count() {
        let (file, text) = shipped("sig-western-sahara").unwrap();
        let game = Described::from_text(file, text).unwrap();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut shapes = Vec::new();
        for g in Described::variants(&game.base) {
            let c = &g.compiled;
            let seats = g.seats();
            assert_eq!((c.rank, c.sides), (Rank::PiecesLeft, 2));
            shapes.push((seats, c.pieces_per_side));
            let mut s = g.initial_state();
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s.alive = x & (c.side_bits[0] | c.side_bits[1]);
                let keys: Vec<u32> = (0..seats)
                    .map(|seat| 1000 - (s.alive & c.side_bits[c.side_of(seat)]).count_ones())
                    .collect();
                assert_eq!(
                    c.ranking(&s),
                    Ranking::from_keys(&keys),
                    "{seats} seats, {} pieces a side, {:#x}",
                    c.pieces_per_side,
                    s.alive
                );
            }
        }
        for shape in [(2, 20), (2, 25), (4, 20), (4, 25)] {
            assert!(shapes.contains(&shape), "{shape:?} in {shapes:?}");
        }
    }

    /// The broadword selection finds every set bit by its rank, as skipping the lower ones
    /// does, in sets of every size and shape.
    #[test]
    fn select_finds_each_set_bit_by_its_rank() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut sets = vec![
            u64::MAX,
            1,
            1 << 63,
            0x8000_0000_0000_0001,
            0xff00,
            0xffff_ffff,
        ];
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse and dense sets alike.
            sets.push(x & (x >> 3) & (x >> 11));
            sets.push(x);
            sets.push(x | (x << 5));
        }
        for set in sets {
            let sums = byte_counts(set);
            assert_eq!(sums >> 56, u64::from(set.count_ones()), "{set:#x}");
            for (r, k) in members(set).enumerate() {
                assert_eq!(
                    select(set, sums, r as u64) as usize,
                    k,
                    "{set:#x}, rank {r}"
                );
            }
        }
    }

    /// At every decision of random games of every shipped and reference description (every
    /// seat count and option combination): where the engine draws pieces instead of listing
    /// the actions, the candidates that can act give the listed actions exactly (the same
    /// multiset), and each drawn move made directly leaves the state its action does.
    #[test]
    fn drawn_actions_are_the_listed_actions_and_play_as_they_do() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let (mut all_drawn, mut moved, mut choices) = (0, 0, 0);
        for &(name, file, text) in SHIPPED.iter().chain(REFERENCE) {
            let game = Described::from_text(file, text).unwrap();
            let (mut drawn, mut listed, mut slots, mut stored) = (0usize, 0usize, 0usize, 0usize);
            for (v, g) in Described::variants(&game.base).iter().enumerate() {
                let c = &*g.compiled;
                for _ in 0..if v == 0 { 8 } else { 1 } {
                    let mut s = g.initial_state();
                    for _ in 0..3000 {
                        match g.node(&s) {
                            Node::End => break,
                            Node::Throw(_) => {
                                let t =
                                    crate::Throw::new(next(c.sticks.count() as usize + 1) as u8);
                                let mut listed = s;
                                g.apply_throw_unchecked(&mut s, t);
                                if c.decide == Decide::Choices && !listed.opening && !c.all_first {
                                    // The only choice found by listing, as before drawing.
                                    listed.throws += 1;
                                    listed.pending = t.marked();
                                    c.play_only_listed(&mut listed);
                                    assert_eq!(s, listed, "{name}: throw {t}");
                                    choices += 1;
                                }
                            }
                            Node::Decide(_) => {
                                let list = g.legal_actions(&s);
                                if let Some(cands) = c.candidates(&s) {
                                    drawn += 1;
                                    slots += usize::from(cands.most > 1);
                                    let ds = c.drawable(&s, &cands);
                                    let mut a: Vec<String> =
                                        ds.iter().map(|d| d.action.to_string()).collect();
                                    let mut b: Vec<String> =
                                        list.iter().map(|a| a.to_string()).collect();
                                    a.sort();
                                    b.sort();
                                    assert_eq!(a, b, "{name}: {s:?}");
                                    for &d in &ds {
                                        let (mut fast, mut slow) = (s, s);
                                        c.apply_drawn(&mut fast, cands.side, d);
                                        g.apply_action_unchecked(&mut slow, d.action);
                                        assert_eq!(fast, slow, "{name}: {}", d.action);
                                        moved += usize::from(d.moved.is_some());
                                    }
                                } else {
                                    listed += 1;
                                    stored += usize::from(
                                        !s.spending && Some(c.pending_value(&s)) == c.store_value,
                                    );
                                }
                                let a = list[next(list.len())];
                                g.apply_action_unchecked(&mut s, a);
                            }
                        }
                    }
                }
            }
            eprintln!("{name}: {drawn} decisions drawn ({slots} by count), {listed} listed");
            if name == "sijat-el-taba" {
                // Only a 1 to store (or unlock with) is listed; captures lengthened by
                // stored 1s are drawn by one counted index.
                assert_eq!(listed, stored, "{name}");
                assert!(
                    slots > 100 && drawn > 500,
                    "{name}: {slots} by count of {drawn}"
                );
            } else {
                assert_eq!(slots, 0, "{name}");
            }
            all_drawn += drawn;
        }
        assert!(all_drawn > 10_000, "{all_drawn} decisions drawn");
        assert!(moved > 10_000, "{moved} moves made directly");
        assert!(choices > 1_000, "{choices} throws with one choice or more");
    }
}
