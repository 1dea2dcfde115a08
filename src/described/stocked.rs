//! Random playouts in one loop of the plain descriptions ([`Plain::shape`]) that add a stock
//! of stored values, which may lengthen a capture, and may end when the sides can no longer
//! meet. The loop makes the same draws, actions and states as the rules' step-by-step path:
//! a throw of the stored value lists its actions (store, then unlock each locked piece) and
//! picks one by index; a throw to move draws pieces ([`Compiled::draw`]) or, where stored
//! values may lengthen a capture, counts the actions and draws one by index
//! (`Compiled::draw_counted`).
//! The track has one position a step, at most 64, so that the positions a side may end a
//! walk on, and those where it may capture, are each a mask kept as pieces move. The test
//! below compares the loop with the step-by-step path at every node.

use super::compile::Compiled;
use super::engine::{draw_among_counted, members};
use super::format::{Overshoot, Supplement};
use super::plain::{Plain, AGAIN_BIT, RELEASED, RELEASE_BIT};
use super::state::{State, GONE, UNMOVED};
use crate::play::RandomBits;

/// Per side and square: a set of positions of the side's track (bit `p` for position `p`).
type BySquare = Box<[[u64; 256]; 2]>;

/// The fixed settings of a stocked description's playouts, taken from [`Compiled`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stocked {
    plain: Plain,
    /// The value that is stored.
    store: u8,
    /// Whether a capture may be lengthened by any count of stored values (else by all of
    /// them at once).
    any: bool,
    /// Whether the game ends when every piece of side 0 stands on a higher row than every
    /// piece of side 1.
    separated_ends: bool,
    /// The track's positions.
    track: u64,
    /// Per side and position: the square.
    square: [[u8; 64]; 2],
    /// Per side and position: its square's row, counted in the row's byte ([`row_bit`]).
    row: [[u64; 64]; 2],
    /// Per side and position: the enemy's positions on its square (with one position a
    /// square, the lean copy's move finds a capture and updates the enemy's masks by it).
    cross: [[u64; 64]; 2],
    /// [`Plain::by_bits`] with [`STORED_BIT`] set where the throw's value is the stored one.
    by_bits: [u16; 64],
    /// Whether the description uses the stock without the mechanics that the loop's
    /// general copy tests for at every step: a capture lengthened by any count of stored
    /// values, no priority, releases only by the stored value and without a walk, no bars,
    /// both ends, one position a square, three sticks ([`LEAN_STICKS`]), no throw worth 0.
    /// A copy of the loop takes these as constants ([`Stocked::play_if_fits`]); Sijat El
    /// Taba's descriptions are such.
    lean: bool,
    /// The positions on each square.
    on: BySquare,
    /// The positions on each square where the side may capture an enemy piece.
    prey: BySquare,
    /// The positions on each square where the side may not land on an enemy piece.
    barred: BySquare,
    /// What the loop makes of the description's initial state (where most playouts
    /// start), built once; none where the loop does not fit that state.
    initial: Option<Box<Entered>>,
}

/// What [`Playout::enter`] makes of a state's pieces: the loop's tables and sets before
/// its first throw.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entered {
    board: [u8; 256],
    at: [[u8; 64]; 2],
    rows: [u64; 2],
    free: [u64; 2],
    prey: [u64; 2],
    barred: [u64; 2],
    mobile: [u64; 2],
    moved: [usize; 2],
    locked: [usize; 2],
}

impl Stocked {
    /// The settings of a description whose every mechanic this loop covers: the plain
    /// shape on a track of one position a step with no move past its end, and a stock.
    pub(crate) fn of(c: &Compiled) -> Option<Stocked> {
        let store = c.store_value?;
        let fits = Plain::shape(c)
            && c.linear
            && c.overshoot == Overshoot::Illegal
            && c.track_len <= 64
            && c.pieces_per_side <= 32;
        if !fits {
            return None;
        }
        let plain = Plain::settings(c);
        let mut square = [[0; 64]; 2];
        let mut row = [[0; 64]; 2];
        let mut cross = [[0; 64]; 2];
        let (mut on, mut prey, mut barred) = (
            Box::new([[0; 256]; 2]),
            Box::new([[0; 256]; 2]),
            Box::new([[0; 256]; 2]),
        );
        for side in 0..2 {
            for (p, &sq) in c.square_of[side].iter().enumerate() {
                square[side][p] = sq;
                row[side][p] = row_bit(sq);
                let sq = sq as usize;
                on[side][sq] |= 1 << p;
                if plain.enemy_bar[side].has(sq as u8) {
                    barred[side][sq] |= 1 << p;
                } else {
                    prey[side][sq] |= 1 << p;
                }
            }
        }
        for side in 0..2 {
            for (p, &sq) in c.square_of[side].iter().enumerate() {
                cross[side][p] = on[1 - side][sq as usize];
            }
        }
        let p = &plain;
        // A capture lengthened by any count of stored values, no priority, a release that
        // does not move and only by the stored value, no bars, both ends, each square on one
        // position of each side's track at most, three sticks and no throw worth 0.
        let lean = c.supplement == Supplement::Any
            && !p.priority
            && p.release_steps == 0
            && !p.bars
            && p.no_pieces_ends
            && c.end_separated
            && (0..2).all(|side| on[side].iter().all(|m: &u64| m.count_ones() <= 1))
            && p.by_marked
                .iter()
                .all(|&e| e >> RELEASE_BIT & 3 == 0 || u16::from(store) == e & 15)
            && u32::from(c.sticks.count()) == LEAN_STICKS
            && p.by_bits[..1 << LEAN_STICKS].iter().all(|&e| e & 15 != 0);
        let by_bits = plain
            .by_bits
            .map(|e| e | u16::from(e & 15 == u16::from(store)) << STORED_BIT);
        let mut stocked = Stocked {
            plain,
            by_bits,
            store,
            any: c.supplement == Supplement::Any,
            separated_ends: c.end_separated,
            track: u64::MAX >> (64 - c.track_len.max(1)),
            square,
            row,
            cross,
            lean,
            on,
            prey,
            barred,
            initial: None,
        };
        if stocked.fits(c, &c.initial_state) {
            let entered = if lean {
                stocked.entered::<true>(c, &c.initial_state)
            } else {
                stocked.entered::<false>(c, &c.initial_state)
            };
            stocked.initial = Some(Box::new(entered));
        }
        Some(stocked)
    }

    /// What the loop makes of the state's pieces before its first throw.
    fn entered<const LEAN: bool>(&self, c: &Compiled, s: &State) -> Entered {
        let (mut board, mut at) = ([0; 256], [[0; 64]; 2]);
        let mut p = Playout::new(self, s, &mut board, &mut at, RandomBits::new());
        p.enter_all::<LEAN>(self, c, s);
        let (rows, free, prey, barred, mobile, moved, locked) = (
            p.rows, p.free, p.prey, p.barred, p.mobile, p.moved, p.locked,
        );
        Entered {
            board,
            at,
            rows,
            free,
            prey,
            barred,
            mobile,
            moved,
            locked,
        }
    }

    /// Whether the loop can play on from the state: as [`Plain::fits`], with no unmoved
    /// piece off the board and, where separated sides end the game, sides not yet
    /// separated (or the game over).
    #[inline]
    pub(crate) fn fits(&self, c: &Compiled, s: &State) -> bool {
        self.plain.fits(c, s)
            && s.unmoved & !s.on_board == 0
            && (!self.separated_ends || s.ended || !c.separated(s))
    }

    /// Plays the state to the end as the step-by-step path does where the loop fits it
    /// ([`Stocked::fits`]): each throw `bits.throw(rng, sticks)`, each decision a
    /// uniformly random legal action drawn with `bits.index(rng, len)` as
    /// [`Compiled::draw`] draws it or, for the stored value, picked among the listed
    /// actions; whether it played. The initial state is recognised by one comparison and
    /// its pieces' tables copied, in place of the test of the state and the entry of
    /// each piece.
    #[inline]
    pub(crate) fn play_if_fits<R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
    ) -> bool {
        let entered = if *s == c.initial_state {
            match &self.initial {
                Some(e) => Some(&**e),
                None => return false,
            }
        } else if self.fits(c, s) {
            None
        } else {
            return false;
        };
        // The lean settings as constants: their own copy of the loop has none of the
        // tests of the other settings.
        if self.lean {
            self.play::<true, R>(c, s, bits, rng, max_throws, entered);
        } else {
            self.play::<false, R>(c, s, bits, rng, max_throws, entered);
        }
        true
    }

    /// [`Stocked::play_if_fits`] where `LEAN` says the settings are the lean ones
    /// ([`Stocked::lean`]), from the pieces' tables `entered` where they were built.
    #[inline(never)]
    fn play<const LEAN: bool, R: rand::Rng + ?Sized>(
        &self,
        c: &Compiled,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
        max_throws: u32,
        entered: Option<&Entered>,
    ) {
        // The squares' and positions' tables apart from the loop's other values, which the
        // compiler can then keep in registers (a table indexed by a variable keeps the whole
        // value it belongs to in memory).
        let (mut board, mut at) = match entered {
            Some(e) => (e.board, e.at),
            None => ([0; 256], [[0; 64]; 2]),
        };
        // The positions before the loop: a piece the loop moves walks forward, so the pieces
        // whose squares and counts the state is given at the end are those whose position
        // changed (none is kept for it at each move).
        let start = s.pos;
        let mut p = Playout::new(self, s, &mut board, &mut at, *bits);
        match entered {
            Some(e) => {
                (p.rows, p.free, p.prey, p.barred, p.mobile) =
                    (e.rows, e.free, e.prey, e.barred, e.mobile);
                (p.moved, p.locked) = (e.moved, e.locked);
            }
            None => p.enter_all::<LEAN>(self, c, s),
        }
        let mut turn = s.turn;
        if !p.ended && p.pending != GONE {
            let e = self.plain.by_marked[(p.pending & 15).min(8) as usize];
            let e = e | u16::from(e & 15 == u16::from(self.store)) << STORED_BIT;
            p.pending = GONE;
            let again = if turn == 0 {
                p.decide::<0, LEAN, R>(self, c, s, rng, e)
            } else {
                p.decide::<1, LEAN, R>(self, c, s, rng, e)
            };
            if !(again || p.ended) {
                turn = 1 - turn;
            }
        }
        // The throws left before the cap, counted down.
        let cap = max_throws.saturating_sub(s.throws);
        let mut left = cap;
        let sticks = if LEAN {
            LEAN_STICKS
        } else {
            u32::from(c.sticks.count())
        };
        // One loop over the throws of both seats (a loop per seat's turn made the compiler
        // move the loop's values between registers and the stack at every turn).
        while !p.ended && left > 0 {
            left -= 1;
            let e = self.by_bits[p.bits.take(rng, sticks) as usize & 63];
            let again = if turn == 0 {
                p.decide::<0, LEAN, R>(self, c, s, rng, e)
            } else {
                p.decide::<1, LEAN, R>(self, c, s, rng, e)
            };
            if p.ended {
                break;
            }
            turn ^= u8::from(!again);
        }
        for k in members(p.alive) {
            if s.pos[k] == start[k] {
                continue;
            }
            let side = (c.side_bits[1] >> k & 1) as usize;
            s.sq[k] = self.square[side][s.pos[k] as usize & 63];
            s.count[k] = 0;
        }
        for k in members(s.unmoved & !p.unmoved & p.alive) {
            s.flags[k] &= !UNMOVED;
        }
        (s.on_board, s.alive, s.unmoved) = (s.on_board & p.alive, p.alive, p.unmoved);
        c.set_occupancy(s);
        s.stock[..2].copy_from_slice(&p.stock);
        s.turn = turn;
        s.throws += cap - left;
        s.pending = p.pending;
        s.ended = p.ended;
        *bits = p.bits;
    }
}

/// The bit of a throw's entry ([`Stocked::by_bits`]) set where its value is the stored one.
const STORED_BIT: u16 = 7;

/// The sticks of the lean settings ([`Stocked::lean`]), a constant in their copy of the loop.
const LEAN_STICKS: u32 = 3;

/// A piece on the square, counted in its row's byte.
#[inline(always)]
fn row_bit(sq: u8) -> u64 {
    1 << ((sq >> 5) << 3)
}

/// Whether the lowest row of side 0's pieces is above the highest of side 1's, from their
/// counts per row (a byte a row).
#[inline(always)]
fn separated(rows: &[u64; 2]) -> bool {
    rows[0] != 0
        && rows[1] != 0
        && rows[0].trailing_zeros() >> 3 > (63 - rows[1].leading_zeros()) >> 3
}

/// What the loop keeps of the state and the settings between throws.
struct Playout<'a> {
    /// Per square: the piece on it, plus one (0: none); not kept by the lean copy.
    board: &'a mut [u8; 256],
    /// Per side and position of its track: the piece last there (current where the side
    /// has a piece on the position).
    at: &'a mut [[u8; 64]; 2],
    /// Per side: its pieces on the board per row, a byte a row.
    rows: [u64; 2],
    /// Per side: the positions of its track not on the squares of its pieces.
    free: [u64; 2],
    /// Per side: the positions of its track where it may capture an enemy piece, and
    /// where it may not land on one.
    prey: [u64; 2],
    barred: [u64; 2],
    /// Per side: the positions of its track on the squares of its moved pieces.
    mobile: [u64; 2],
    stock: [u8; 2],
    bits: RandomBits,
    pending: u8,
    ended: bool,
    alive: u64,
    unmoved: u64,
    /// Per side: the moved pieces on the board, and the unmoved ones.
    moved: [usize; 2],
    locked: [usize; 2],
}

/// The members of `set`, counted bit by bit where it has one at most (most pieces' actions).
#[inline(always)]
fn ones(set: u64) -> usize {
    if set & set.wrapping_sub(1) == 0 {
        usize::from(set != 0)
    } else {
        set.count_ones() as usize
    }
}

/// The member of `set` of rank `r` (0 the lowest).
#[inline(always)]
fn nth(mut set: u64, r: usize) -> usize {
    // The first ranks written out (most are small), no loop's counters to set up.
    if r > 0 {
        set &= set.wrapping_sub(1);
        if r > 1 {
            set &= set.wrapping_sub(1);
            for _ in 2..r {
                set &= set.wrapping_sub(1);
            }
        }
    }
    set.trailing_zeros() as usize
}

/// A drawn action: the piece, its walk's end (position, and square in the high byte) or
/// [`RELEASED`], and the stored values it spends.
type Drawn = (usize, u16, u8);

impl<'a> Playout<'a> {
    /// The loop's values for the state, with no piece entered yet.
    fn new(
        st: &Stocked,
        s: &State,
        board: &'a mut [u8; 256],
        at: &'a mut [[u8; 64]; 2],
        bits: RandomBits,
    ) -> Playout<'a> {
        Playout {
            board,
            at,
            rows: [0; 2],
            free: [st.track; 2],
            prey: [0; 2],
            barred: [0; 2],
            mobile: [0; 2],
            stock: [s.stock[0], s.stock[1]],
            bits,
            pending: s.pending,
            ended: s.ended,
            alive: s.alive,
            unmoved: s.unmoved,
            moved: [0; 2],
            locked: [0; 2],
        }
    }

    /// Enters the state's pieces: the tables, sets and counts of [`Entered`].
    #[inline(always)]
    fn enter_all<const LEAN: bool>(&mut self, st: &Stocked, c: &Compiled, s: &State) {
        let moved = |side: usize| (s.on_board & c.side_bits[side] & !s.unmoved).count_ones();
        let locked = |side: usize| (s.unmoved & s.alive & c.side_bits[side]).count_ones();
        self.moved = [moved(0) as usize, moved(1) as usize];
        self.locked = [locked(0) as usize, locked(1) as usize];
        // The lean copy's move finds pieces without the board.
        self.enter::<0, LEAN>(st, c, s);
        self.enter::<1, LEAN>(st, c, s);
    }

    /// Enters side `SIDE`'s pieces on the board of the state.
    #[inline(always)]
    fn enter<const SIDE: usize, const LEAN: bool>(
        &mut self,
        st: &Stocked,
        c: &Compiled,
        s: &State,
    ) {
        let enemy = 1 - SIDE;
        for k in members(s.on_board & c.side_bits[SIDE]) {
            let sq = s.sq[k] as usize;
            if !LEAN {
                self.board[sq] = k as u8 + 1;
            }
            self.at[SIDE][s.pos[k] as usize & 63] = k as u8;
            self.rows[SIDE] += row_bit(s.sq[k]);
            self.free[SIDE] &= !st.on[SIDE][sq];
            self.prey[enemy] |= st.prey[enemy][sq];
            self.barred[enemy] |= st.barred[enemy][sq];
            if s.unmoved >> k & 1 == 0 {
                self.mobile[SIDE] |= st.on[SIDE][sq];
            }
        }
    }

    /// Plays side `SIDE`'s decision on the throw of entry `e` ([`Plain::by_marked`]):
    /// whether the throw gives another.
    #[inline(always)]
    fn decide<const SIDE: usize, const LEAN: bool, R: rand::Rng + ?Sized>(
        &mut self,
        st: &Stocked,
        c: &Compiled,
        s: &mut State,
        rng: &mut R,
        e: u16,
    ) -> bool {
        let v = (e & 15) as u8;
        let releases = e >> (RELEASE_BIT + SIDE as u16) & 1 == 1;
        if e >> STORED_BIT & 1 == 1 {
            // Listed: store, then unlock each locked piece, lowest first.
            let n = 1 + if releases && (LEAN || st.plain.release_steps == 0) {
                self.locked[SIDE]
            } else {
                0
            };
            let i = if n == 1 { 0 } else { self.bits.index(rng, n) };
            if i == 0 {
                // Saturating, as a compare and an add.
                self.stock[SIDE] += u8::from(self.stock[SIDE] != u8::MAX);
            } else {
                let j = nth(self.unmoved & c.side_bits[SIDE], i - 1);
                self.unlock::<SIDE>(s, j);
            }
        } else if LEAN || v > 0 {
            if let Some((j, to, by)) = self.draw::<SIDE, LEAN, R>(st, c, s, rng, releases, v) {
                // With the lean settings a throw to move releases nothing.
                if !LEAN && to == RELEASED {
                    self.unlock::<SIDE>(s, j);
                } else {
                    self.move_to::<SIDE, LEAN>(st, c, s, j, to);
                    self.stock[SIDE] = self.stock[SIDE].saturating_sub(by);
                }
            }
        }
        e >> AGAIN_BIT & 1 == 1
    }

    /// The drawn action of a throw worth `v` (not the stored value) that releases a piece
    /// where `releases`.
    #[inline(always)]
    fn draw<const SIDE: usize, const LEAN: bool, R: rand::Rng + ?Sized>(
        &mut self,
        st: &Stocked,
        c: &Compiled,
        s: &State,
        rng: &mut R,
        releases: bool,
        v: u8,
    ) -> Option<Drawn> {
        let plain = &st.plain;
        let own = c.side_bits[SIDE];
        // Every unmoved piece is on the board (`Stocked::fits`).
        // With the lean settings only the stored value releases.
        let releases = !LEAN && releases;
        let release = if releases { self.unmoved & own } else { 0 };
        let locked = if releases { self.locked[SIDE] } else { 0 };
        // The loop moves no piece onto the board or off it, and the pieces it captures are no
        // longer alive.
        let moves = s.on_board & self.alive & own & !self.unmoved;
        // The positions the side may end a walk on, and a walk's end by its position.
        let barred = if LEAN { 0 } else { self.barred[SIDE] };
        let free = self.free[SIDE] & !barred;
        let square = &st.square[SIDE];
        // Closures of copies (`move`), so that none needs its captures kept in memory.
        // The lean copy's move needs no square.
        let end = move |f: usize| {
            if LEAN {
                f as u16
            } else {
                f as u16 | u16::from(square[f & 63]) << 8
            }
        };
        // Piece `j`'s walk of `steps`, if it may make it.
        let walk = move |j: usize, steps: u8| -> Option<Drawn> {
            let f = s.pos[j] as usize + steps as usize;
            (f < 64 && free >> f & 1 == 1).then(|| (j, end(f), 0))
        };
        let steps = if LEAN { 0 } else { plain.release_steps };
        let (any, priority) = (LEAN || st.any, !LEAN && plain.priority);
        let release_of = move |j: usize| {
            if steps == 0 {
                Some((j, RELEASED, 0))
            } else {
                walk(j, steps)
            }
        };
        let stock = self.stock[SIDE];
        let bits = &mut self.bits;
        // The same bits as `index`: far fewer actions than 2^16 (at most 32 pieces, each
        // with a walk and a capture by each count of stored values up to 63).
        let mut index = |len: usize| bits.short_index(rng, len as u32);
        if stock == 0 {
            let moved = self.moved[SIDE];
            return if priority {
                match draw_among_counted(release, locked, &mut index, release_of) {
                    Some(d) => Some(d),
                    None => draw_among_counted(moves, moved, &mut index, |j| walk(j, v)),
                }
            } else {
                draw_among_counted(release | moves, locked + moved, &mut index, |j| {
                    if release >> j & 1 == 1 {
                        release_of(j)
                    } else {
                        walk(j, v)
                    }
                })
            };
        }
        // As the engine's counted draw: the actions in the listing's order (the releases
        // that can act, then each moved piece's walk and its captures lengthened by stored
        // values), one drawn by a single index.
        let mut nr = 0;
        if releases {
            nr = if steps == 0 {
                locked
            } else {
                let mut n = 0;
                for j in members(release) {
                    n += usize::from(release_of(j).is_some());
                }
                n
            };
        }
        // Each moved piece's actions: its walk where bit 0 of `walks >> p` is set (`p` its
        // position), its capture lengthened by `n` stored values where bit `n` of its
        // `captures` is (bit 1: by all of them). The track's positions are below 64, so
        // the bits past its end are clear.
        let prey = self.prey[SIDE];
        let walks = free >> v;
        let (ahead, counts) = if any {
            // Bits 1 to the stock (the stock is not 0 here).
            let counts = (2u64 << stock.min(63)).wrapping_sub(2);
            (prey >> v, counts)
        } else {
            let t = v as usize + stock as usize;
            ((if t < 64 { prey >> t } else { 0 }) << 1, 2)
        };
        let captures = |p: u8| ahead >> p & counts;
        // Counted by position (the order does not change the count), from the positions
        // of the moved pieces, each named by the table of the piece on each position:
        // `walkers`, the moved pieces that may walk, and `hunters`, those with a capture
        // lengthened by stored values, as sets of pieces, for the find below.
        let (mut walkers, mut hunters) = (0u64, 0u64);
        let mut n = nr;
        if !(priority && nr > 0) {
            let mobile = self.mobile[SIDE];
            let at = &self.at[SIDE];
            let mut rest = mobile & walks;
            while rest != 0 {
                let p = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                walkers |= 1 << (at[p] & 63);
                n += 1;
            }
            // Only the pieces with an enemy piece they may capture within the stock's
            // reach ahead of their walk's end: `near`, the capturable positions spread
            // back over the stock's width (doubling the width, then the rest); where the
            // whole stock is spent, those one capture ahead.
            let near = if any {
                let width = usize::from(stock).min(63);
                let mut near = prey >> v >> 1;
                // Unrolled (the width is at most 63): no loop's counters to set up.
                let mut w = 1;
                if width >= 2 {
                    near |= near >> 1;
                    w = 2;
                    if width >= 4 {
                        near |= near >> 2;
                        w = 4;
                        if width >= 8 {
                            near |= near >> 4;
                            w = 8;
                            if width >= 16 {
                                near |= near >> 8;
                                w = 16;
                                if width >= 32 {
                                    near |= near >> 16;
                                    w = 32;
                                }
                            }
                        }
                    }
                }
                near | near >> (width - w)
            } else {
                ahead >> 1
            };
            let mut rest = mobile & near;
            while rest != 0 {
                let p = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                hunters |= 1 << (at[p] & 63);
                n += ones(ahead >> p & counts);
            }
        }
        let mut i = match n {
            0 => return None,
            1 => 0,
            n => index(n),
        };
        if i < nr {
            if steps == 0 {
                return Some((nth(release, i), RELEASED, 0));
            }
            for j in members(release) {
                if let Some(d) = release_of(j) {
                    if i == 0 {
                        return Some(d);
                    }
                    i -= 1;
                }
            }
            return None;
        }
        i -= nr;
        // The action of rank `i` among the moved pieces', in the listing's order (by piece,
        // each piece's walk before its captures).
        if hunters == 0 {
            let j = nth(walkers, i);
            return Some((j, end(s.pos[j] as usize + v as usize), 0));
        }
        for j in members(walkers | hunters) {
            let p = s.pos[j];
            if walkers >> j & 1 == 1 {
                if i == 0 {
                    return Some((j, end(p as usize + v as usize), 0));
                }
                i -= 1;
            }
            let caps = captures(p);
            let c = ones(caps);
            if i < c {
                let by = if any { nth(caps, i) as u8 } else { stock };
                return Some((j, end(p as usize + v as usize + by as usize), by));
            }
            i -= c;
        }
        None
    }

    /// Unlocks side `SIDE`'s piece `j` where it stands.
    #[inline(always)]
    fn unlock<const SIDE: usize>(&mut self, s: &mut State, j: usize) {
        self.mobile[SIDE] |= 1u64 << (s.pos[j] & 63);
        self.unmoved &= !(1u64 << j);
        self.locked[SIDE] -= 1;
        self.moved[SIDE] += 1;
    }

    /// Moves piece `j` of side `SIDE` to the walk's end `to` (position, and square in the
    /// high byte), capturing the enemy piece there, and tests the ends.
    #[inline(always)]
    fn move_to<const SIDE: usize, const LEAN: bool>(
        &mut self,
        st: &Stocked,
        c: &Compiled,
        s: &mut State,
        j: usize,
        to: u16,
    ) {
        if LEAN {
            self.move_lean::<SIDE>(st, c, s, j, to as usize & 63);
            return;
        }
        let sq = (to >> 8) as u8;
        if self.unmoved >> j & 1 == 1 {
            self.locked[SIDE] -= 1;
            self.moved[SIDE] += 1;
        }
        let (fp, tp) = (s.pos[j] as usize & 63, to as usize & 63);
        let (from, at) = (st.square[SIDE][fp] as usize, sq as usize);
        self.board[from] = 0;
        self.rows[SIDE] = self.rows[SIDE] - st.row[SIDE][fp] + st.row[SIDE][tp];
        // The sides can become separated only where a row loses its last piece of a side:
        // the row the piece leaves, or the captured piece's.
        let mut emptied = self.rows[SIDE] & st.row[SIDE][fp].wrapping_mul(0xff) == 0;
        self.free[SIDE] = self.free[SIDE] & !st.on[SIDE][at] | st.on[SIDE][from];
        self.mobile[SIDE] = self.mobile[SIDE] & !st.on[SIDE][from] | st.on[SIDE][at];
        let enemy = 1 - SIDE;
        self.prey[enemy] = self.prey[enemy] & !st.prey[enemy][from] | st.prey[enemy][at];
        if st.plain.bars {
            self.barred[enemy] =
                self.barred[enemy] & !st.barred[enemy][from] | st.barred[enemy][at];
        }
        let on = self.board[at];
        if on != 0 {
            // An enemy piece: the walk lands only on those it may capture.
            let e = (on - 1) as usize;
            if self.unmoved >> e & 1 == 1 {
                self.locked[enemy] -= 1;
            } else {
                self.moved[enemy] -= 1;
            }
            s.pos[e] = GONE;
            s.sq[e] = GONE;
            s.flags[e] = 0;
            s.count[e] = 0;
            let bit = !(1u64 << e);
            self.alive &= bit;
            self.unmoved &= bit;
            self.rows[enemy] -= row_bit(sq);
            self.free[enemy] |= st.on[enemy][at];
            self.mobile[enemy] &= !st.on[enemy][at];
            self.prey[SIDE] &= !st.prey[SIDE][at];
            s.captures[SIDE] = s.captures[SIDE].saturating_add(1);
            self.ended = st.plain.no_pieces_ends && self.alive & c.side_bits[enemy] == 0;
            emptied = true;
        }
        if emptied {
            self.ended |= st.separated_ends && separated(&self.rows);
        }
        self.board[at] = j as u8 + 1;
        self.at[SIDE][tp] = j as u8;
        s.pos[j] = to as u8;
        if !LEAN {
            self.unmoved &= !(1u64 << j);
        }
    }

    /// [`Playout::move_to`] with the lean settings ([`Stocked::lean`]): one position a
    /// square, so that the masks change by a bit of each track, and the enemy piece captured,
    /// if any, is found by the enemy's position on the square, without the board.
    #[inline(always)]
    fn move_lean<const SIDE: usize>(
        &mut self,
        st: &Stocked,
        c: &Compiled,
        s: &mut State,
        j: usize,
        tp: usize,
    ) {
        let fp = s.pos[j] as usize & 63;
        let (from_row, to_row) = (st.row[SIDE][fp], st.row[SIDE][tp]);
        self.rows[SIDE] = self.rows[SIDE] - from_row + to_row;
        // The sides can become separated only where a row loses its last piece of a side:
        // the row the piece leaves, or the captured piece's.
        let mut emptied = self.rows[SIDE] & from_row.wrapping_mul(0xff) == 0;
        // The piece leaves its position's bit for the free one, of its own track and, where
        // the squares are on it, of the enemy's (where the enemy may capture it).
        let both = 1u64 << fp | 1u64 << tp;
        self.free[SIDE] ^= both;
        self.mobile[SIDE] ^= both;
        let enemy = 1 - SIDE;
        let hit = st.cross[SIDE][tp];
        self.prey[enemy] ^= st.cross[SIDE][fp] | hit;
        if self.free[enemy] & hit != hit {
            // An enemy piece: the walk lands only on those it may capture.
            let e = self.at[enemy][hit.trailing_zeros() as usize & 63] as usize;
            if self.unmoved >> e & 1 == 1 {
                self.locked[enemy] -= 1;
            } else {
                self.moved[enemy] -= 1;
            }
            s.pos[e] = GONE;
            s.sq[e] = GONE;
            s.flags[e] = 0;
            s.count[e] = 0;
            let bit = !(1u64 << e);
            self.alive &= bit;
            self.unmoved &= bit;
            self.rows[enemy] -= to_row;
            self.free[enemy] |= hit;
            self.mobile[enemy] &= !hit;
            self.prey[SIDE] &= !(1u64 << tp);
            s.captures[SIDE] = s.captures[SIDE].saturating_add(1);
            self.ended = self.alive & c.side_bits[enemy] == 0;
            emptied = true;
        }
        if emptied {
            self.ended |= separated(&self.rows);
        }
        self.at[SIDE][tp] = j as u8;
        s.pos[j] = tp as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::super::games::{shipped, REFERENCE, SHIPPED};
    use super::super::loop_tests::compare_along;
    use super::super::Described;

    /// From every third node of random games of the game (some cut short by a throw cap,
    /// some from large stocks, whose captures walk further than the walks' tables), the
    /// loop leaves the state, the random bits and the generator exactly as the
    /// step-by-step path does; the number of starts compared.
    fn compare(name: &str, g: &Described) -> usize {
        let p = g.compiled.stocked_playouts.as_ref().unwrap();
        assert!(g.compiled.plain_playouts.is_none(), "{name}");
        let mut starts = 0;
        let runs = (1..=6).map(|seed| (seed, g.max_throws, 0));
        let cut = [(7, 40, 0), (8, g.max_throws, 20), (9, g.max_throws, 40)];
        for (seed, cap, stock) in runs.chain(cut) {
            let mut g = g.clone();
            g.max_throws = cap;
            let mut s = g.initial_state();
            s.stock[..2].copy_from_slice(&[stock, stock / 2]);
            starts += compare_along(
                &g,
                s,
                seed,
                name,
                |s| p.fits(&g.compiled, s),
                |s, bits, rng| assert!(p.play_if_fits(&g.compiled, s, bits, rng, cap)),
            );
        }
        starts
    }

    /// The loop plays as the step-by-step path every variant of every shipped and
    /// reference description that takes it; Sijat El Taba takes it in every variant (its
    /// rows, and a capture lengthened by any count or by all of the stored 1s), and so does
    /// the game at its default options from its start.
    #[test]
    fn the_stocked_loop_plays_as_the_step_by_step_path() {
        let mut stocked = Vec::new();
        let mut starts = 0;
        for &(name, file, text) in SHIPPED.iter().chain(REFERENCE) {
            let game = Described::from_text(file, text).unwrap();
            for (v, g) in Described::variants(&game.base).iter().enumerate() {
                if g.compiled.stocked_playouts.is_some() {
                    stocked.push((name, v));
                    starts += compare(&format!("{name} (variant {v})"), g);
                }
            }
        }
        assert_eq!(
            stocked
                .iter()
                .filter(|(n, _)| *n == "sijat-el-taba")
                .count(),
            4,
            "{stocked:?}"
        );
        let (file, text) = shipped("sijat-el-taba").unwrap();
        let g = Described::from_text(file, text).unwrap();
        let p = g.compiled.stocked_playouts.as_ref().unwrap();
        assert!(p.fits(&g.compiled, &g.initial_state()));
        // Its playouts from the start copy the pieces' tables built once.
        assert!(p.initial.is_some());
        assert!(starts > 2_000, "{starts}");
    }

    /// The mechanics the loop covers that Sijat El Taba does not use play as the
    /// step-by-step path too: a release by a value that moves, first where it can;
    /// squares where pieces are safe; no captures at all.
    #[test]
    fn the_stocked_loop_plays_other_mechanics_as_the_step_by_step_path() {
        let (file, text) = shipped("sijat-el-taba").unwrap();
        let release = "values = [1]\nsteps = 0\n";
        assert!(text.contains(release));
        let moves = "[moves]\ncapture = \"landing\"\n";
        let safe = "[regions]\nmiddle = { rows = [2] }\n[moves]\nsafe = \"middle\"\n";
        for (what, from, to) in [
            ("a release by a 2", release, "values = [2]\nsteps = 0\n"),
            (
                "a release first",
                release,
                "values = [2, 4]\nsteps = 0\npriority = true\n",
            ),
            ("safe squares", "[pieces]\n", &format!("{safe}[pieces]\n")),
            (
                "no capture",
                "[pieces]\n",
                &format!("{moves}[pieces]\n").replace("landing", "none"),
            ),
        ] {
            let text = text.replace(from, to);
            let g = Described::from_text(file, &text).unwrap();
            assert!(compare(what, &g) > 200, "{what}");
        }
    }
}
