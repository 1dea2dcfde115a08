//! The state of a described game: fixed-size `Copy` data, no heap.

use super::compile::{Mask, MAX_PIECES, MAX_VALUE};
use crate::game::MAX_SEATS;

/// A piece that has left the board: captured, or got out.
pub(crate) const GONE: u8 = u8::MAX;
/// A piece off the board, before the track's first position.
pub(crate) use super::compile::OFF;

/// The flag bit of an unmoved (locked) piece.
pub(crate) const UNMOVED: u8 = 0x80;

/// A position of a described game.
///
/// Pieces are numbered side by side (side 0's first); each has a track position (or is
/// off the board or gone), flags (unmoved, and the description's named flags) and a hold
/// count. Occupancy is kept per side as a set of squares for O(1) lookups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) pos: [u8; MAX_PIECES],
    pub(crate) sq: [u8; MAX_PIECES],
    pub(crate) flags: [u8; MAX_PIECES],
    pub(crate) count: [u8; MAX_PIECES],
    pub(crate) occ: [Mask; 2],
    pub(crate) stock: [u8; MAX_SEATS],
    pub(crate) captures: [u8; MAX_SEATS],
    pub(crate) out_place: [u8; MAX_SEATS],
    pub(crate) outs: u8,
    pub(crate) chaser: u8,
    pub(crate) held: [u8; MAX_VALUE + 1],
    pub(crate) pending: u8,
    pub(crate) spending: bool,
    pub(crate) opening: bool,
    pub(crate) ended: bool,
    pub(crate) turn: u8,
    pub(crate) throws: u32,
    /// The number of sides and of pieces per side (checked against the game).
    pub(crate) layout: (u8, u8),
    /// Per seat: the burial step that buried it (0: not buried), by a self-steering chaser.
    pub(crate) burials: [u8; MAX_SEATS],
    /// The number of buried seats.
    pub(crate) buried: u8,
    /// Whether a self-steering chaser has made its first move.
    pub(crate) chaser_moved: bool,
    /// The pieces on the board (bit k: `pos[k]` is a track position), derived from `pos`.
    pub(crate) on_board: u64,
    /// The pieces still in the game (on the board or off it), derived from `pos`.
    pub(crate) alive: u64,
    /// The unmoved pieces (bit k: `flags[k]` has [`UNMOVED`]), derived from `flags`.
    pub(crate) unmoved: u64,
}

impl State {
    pub(crate) const EMPTY: State = State {
        pos: [GONE; MAX_PIECES],
        sq: [GONE; MAX_PIECES],
        flags: [0; MAX_PIECES],
        count: [0; MAX_PIECES],
        occ: [Mask([0; 4]); 2],
        stock: [0; MAX_SEATS],
        captures: [0; MAX_SEATS],
        out_place: [0; MAX_SEATS],
        outs: 0,
        chaser: GONE,
        held: [0; MAX_VALUE + 1],
        pending: GONE,
        spending: false,
        opening: false,
        ended: false,
        turn: 0,
        throws: 0,
        layout: (0, 0),
        burials: [0; MAX_SEATS],
        buried: 0,
        chaser_moved: false,
        on_board: 0,
        alive: 0,
        unmoved: 0,
    };

    /// Sets piece `k`'s bits in the piece sets from its position and flags.
    #[inline(always)]
    pub(crate) fn sync(&mut self, k: usize) {
        let bit = 1u64 << k;
        let (p, f) = (self.pos[k], self.flags[k]);
        let set = |m: &mut u64, on: bool| *m = (*m & !bit) | if on { bit } else { 0 };
        set(&mut self.on_board, p < OFF);
        set(&mut self.alive, p != GONE);
        set(&mut self.unmoved, f & UNMOVED != 0);
    }

    /// Derives every piece set from the pieces' positions and flags.
    pub(crate) fn derive_sets(&mut self) {
        for k in 0..MAX_PIECES {
            self.sync(k);
        }
    }

    /// Whether the piece sets are those the pieces' positions and flags give.
    pub(crate) fn sets_agree(&self) -> bool {
        let mut s = *self;
        s.derive_sets();
        (s.on_board, s.alive, s.unmoved) == (self.on_board, self.alive, self.unmoved)
    }

    /// The seat to throw or decide next.
    pub fn turn(&self) -> usize {
        self.turn as usize
    }

    /// The throws made so far.
    pub fn throws(&self) -> u32 {
        self.throws
    }

    /// The pieces a side has captured.
    pub fn captures(&self, side: usize) -> u32 {
        self.captures.get(side).copied().unwrap_or(0).into()
    }

    /// A side's stock of stored values.
    pub fn stock(&self, side: usize) -> u32 {
        self.stock.get(side).copied().unwrap_or(0).into()
    }

    /// The chaser's track position, if it is on the board.
    pub fn chaser(&self) -> Option<u8> {
        (self.chaser != GONE).then_some(self.chaser)
    }

    /// The burial step that buried the seat's pieces (1 for the first chaser step of the
    /// game that buried any), or 0 if the seat is not buried.
    pub fn burial(&self, seat: usize) -> u8 {
        self.burials.get(seat).copied().unwrap_or(0)
    }

    /// Whether a self-steering chaser has made its first move.
    pub fn chaser_has_moved(&self) -> bool {
        self.chaser_moved
    }

    /// The held values still to spend, ascending, with repeats.
    pub fn held(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (v, &n) in self.held.iter().enumerate() {
            out.extend(std::iter::repeat_n(v as u8, n as usize));
        }
        out
    }
}
