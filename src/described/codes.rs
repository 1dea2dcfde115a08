//! Read-only views of a described game, its states and actions, for code outside the engine
//! that derives its own layouts from a description (the action codes and observation
//! tensors of `stickdice-rl`).
//!
//! Squares are given as square codes (row × 32 + column, as [`Action::square`] reads
//! them); track positions as `u8`. Nothing here changes a game or a state.

use std::sync::Arc;

use super::compile::Compiled;
use super::format::{Occupancy, OptionKind};
use super::state::{GONE, OFF, UNMOVED};
use super::{option_values, Action, Base, Described, Kind, State};
use crate::config::DEFAULT_MAX_THROWS;

/// At most this many option combinations are listed by [`Described::variants`]; past it,
/// each option alone at each of its values (the others at their defaults).
const MAX_VARIANTS: usize = 512;

impl Described {
    /// Every game the description gives: each allowed seat count with every combination
    /// of its options' values (past 512 combinations, each option alone at each value),
    /// the throw cap at its default. A layout that must hold for every option value is
    /// the union over these.
    pub fn variants(base: &Arc<Base>) -> Vec<Described> {
        let d = base.description();
        let defaults = base.default_values();
        let choices: Vec<Vec<i64>> = d
            .options
            .values()
            .map(|o| match o.kind {
                OptionKind::Bool => vec![0, 1],
                OptionKind::Int => option_values(o),
            })
            .collect();
        let product = choices
            .iter()
            .try_fold(1usize, |n, c| n.checked_mul(c.len().max(1)));
        let mut combos: Vec<Vec<i64>> = Vec::new();
        match product {
            Some(n) if n <= MAX_VARIANTS => {
                combos.push(Vec::new());
                for c in &choices {
                    combos = combos
                        .into_iter()
                        .flat_map(|prefix| {
                            c.iter().map(move |&v| {
                                let mut p = prefix.clone();
                                p.push(v);
                                p
                            })
                        })
                        .collect();
                }
            }
            _ => {
                combos.push(defaults.clone());
                for (i, c) in choices.iter().enumerate() {
                    for &v in c {
                        let mut p = defaults.clone();
                        p[i] = v;
                        combos.push(p);
                    }
                }
            }
        }
        let mut out = Vec::new();
        for seats in d.seats.min..=d.seats.max {
            for values in &combos {
                if let Ok(compiled) = base.compile(seats, values) {
                    out.push(Described {
                        base: Arc::clone(base),
                        compiled: Arc::new(compiled),
                        values: values.clone(),
                        max_throws: DEFAULT_MAX_THROWS,
                    });
                }
            }
        }
        out
    }

    fn c(&self) -> &Compiled {
        &self.compiled
    }

    /// The side a seat plays.
    pub fn side_of_seat(&self, seat: usize) -> usize {
        self.c().side_of(seat)
    }

    /// The board's squares (the grid's and the extra ones), as square codes, ascending.
    pub fn board_squares(&self) -> Vec<u8> {
        self.c().board.iter().collect()
    }

    /// The square of a side's track position.
    pub fn square_at(&self, side: usize, position: u8) -> Option<u8> {
        self.c()
            .square_of
            .get(side)
            .and_then(|t| t.get(position as usize))
            .copied()
    }

    /// The names of the forks' branches, each once, in the order of the track.
    pub fn branch_names(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for side in &self.c().branches {
            for links in side {
                for l in links {
                    let len = l.name.iter().position(|&b| b == 0).unwrap_or(8);
                    let name = String::from_utf8_lossy(&l.name[..len]).into_owned();
                    if !name.is_empty() && !out.contains(&name) {
                        out.push(name);
                    }
                }
            }
        }
        out
    }

    /// The distinct non-zero values of the seats' throw table, ascending.
    pub fn throw_values(&self) -> &[u8] {
        &self.c().values
    }

    /// The value of a throw with `marked` marked sides up for the pieces (the seats'
    /// table), if the sticks allow it.
    pub fn value_of_marked(&self, marked: u8) -> Option<u8> {
        (marked <= self.c().sticks.count()).then(|| self.c().table.value[marked as usize])
    }

    /// Whether a seat throws all its throws first and then spends the held values.
    pub fn holds_values(&self) -> bool {
        self.c().all_first
    }

    /// Whether a release frees a locked piece without moving it (`unlock SQUARE`).
    pub fn unlocks(&self) -> bool {
        self.c().has_release && self.c().release_steps == 0
    }

    /// Whether pieces start unmoved (locked until released).
    pub fn starts_unmoved(&self) -> bool {
        self.c().start_unmoved
    }

    /// Whether some piece starts off the board and enters by a release (`enter`).
    pub fn enters(&self) -> bool {
        self.c().has_release && self.c().start.iter().flatten().any(|&p| p == OFF)
    }

    /// The squares where pieces start on the board, every side's, ascending, each once.
    pub fn start_squares(&self) -> Vec<u8> {
        let c = self.c();
        let mut out: Vec<u8> = Vec::new();
        for (side, starts) in c.start.iter().enumerate() {
            for &p in starts {
                if let Some(&sq) = c.square_of[side].get(p as usize) {
                    if !out.contains(&sq) {
                        out.push(sq);
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Whether there is a neutral chaser.
    pub fn has_chaser(&self) -> bool {
        self.c().chaser_table.is_some()
    }

    /// The chaser's square, if it is on the board.
    pub fn chaser_square(&self, s: &State) -> Option<u8> {
        s.chaser().and_then(|p| self.square_at(0, p))
    }

    /// How pieces share squares.
    pub fn occupancy(&self) -> Occupancy {
        self.c().occupancy
    }

    /// The names of the per-piece flags (bit `i` of [`State::piece_flags`] is flag `i`).
    pub fn flag_names(&self) -> &[String] {
        &self.c().flag_names
    }

    /// Whether some position holds a piece until it throws a value enough times.
    pub fn has_holds(&self) -> bool {
        self.c().hold.iter().any(|h| h.0 > 0)
    }

    /// The throws a piece on a side's track position needs to leave it (0: no hold).
    pub fn hold_throws(&self, position: u8) -> u8 {
        self.c().hold.get(position as usize).map_or(0, |h| h.0)
    }
}

impl State {
    /// The number of pieces of all sides (the state's layout).
    pub fn piece_count(&self) -> usize {
        usize::from(self.layout.0) * usize::from(self.layout.1)
    }

    /// The pieces on the board: bit `k` for piece `k` (side by side, side 0's first).
    #[inline]
    pub fn pieces_on_board(&self) -> u64 {
        self.on_board
    }

    /// The pieces still in the game, on the board or off it (not captured, not out): bit
    /// `k` for piece `k`.
    #[inline]
    pub fn pieces_in_game(&self) -> u64 {
        self.alive
    }

    /// The unmoved (locked) pieces: bit `k` for piece `k`.
    #[inline]
    pub fn pieces_unmoved(&self) -> u64 {
        self.unmoved
    }

    /// The square code of every piece, by piece number: meaningful for the pieces on the
    /// board ([`State::pieces_on_board`]) only.
    #[inline]
    pub fn piece_squares(&self) -> &[u8] {
        &self.sq
    }

    /// The square code of piece `k` (side by side, side 0's first), if it is on the board.
    #[inline]
    pub fn piece_square(&self, k: usize) -> Option<u8> {
        (self.pos.get(k).copied().unwrap_or(GONE) < OFF).then(|| self.sq[k])
    }

    /// The track position of piece `k`, if it is on the board.
    #[inline]
    pub fn piece_position(&self, k: usize) -> Option<u8> {
        self.pos.get(k).copied().filter(|&p| p < OFF)
    }

    /// Whether piece `k` is off the board, before the track.
    #[inline]
    pub fn piece_off(&self, k: usize) -> bool {
        self.pos.get(k) == Some(&OFF)
    }

    /// Whether piece `k` has left the game (captured, or got out).
    #[inline]
    pub fn piece_gone(&self, k: usize) -> bool {
        self.pos.get(k).is_none_or(|&p| p == GONE)
    }

    /// Whether piece `k` is unmoved (locked until released).
    #[inline]
    pub fn piece_unmoved(&self, k: usize) -> bool {
        self.flags.get(k).is_some_and(|f| f & UNMOVED != 0)
    }

    /// The description's named flags of piece `k` (bit `i`: flag `i`).
    #[inline]
    pub fn piece_flags(&self, k: usize) -> u8 {
        self.flags.get(k).map_or(0, |f| f & !UNMOVED)
    }

    /// The special throws piece `k` has counted on a holding position.
    #[inline]
    pub fn piece_hold_count(&self, k: usize) -> u8 {
        self.count.get(k).copied().unwrap_or(0)
    }

    /// The place in which the seat got out (1 first), 0 while it plays.
    #[inline]
    pub fn out_place(&self, seat: usize) -> u8 {
        self.out_place.get(seat).copied().unwrap_or(0)
    }

    /// The marked sides of the throw awaiting its move, if any.
    #[inline]
    pub fn pending_marked(&self) -> Option<u8> {
        (self.pending != GONE).then_some(self.pending)
    }

    /// How many held values `v` are still to spend.
    #[inline]
    pub fn held_count(&self, v: u8) -> u8 {
        self.held.get(v as usize).copied().unwrap_or(0)
    }

    /// Whether the seat is spending its held values.
    #[inline]
    pub fn is_spending(&self) -> bool {
        self.spending
    }

    /// Whether the game is still in its opening.
    #[inline]
    pub fn in_opening(&self) -> bool {
        self.opening
    }
}

impl Action {
    /// The square code (row × 32 + column) the action names, if it names one.
    #[inline]
    pub fn square_code(&self) -> Option<u8> {
        self.square().map(|_| self.sq)
    }

    /// The held value (`SQUARE/v`) or the stored values added (`SQUARE+j`); 0 otherwise.
    #[inline]
    pub fn arg(&self) -> u8 {
        match self.kind {
            Kind::Held | Kind::Plus => self.arg,
            _ => 0,
        }
    }

    /// The branch's name of a `SQUARE/branch` action, as bytes (0-padded to 8).
    #[inline]
    pub fn branch_bytes(&self) -> Option<[u8; 8]> {
        (self.kind == Kind::Branch).then_some(self.name)
    }
}

impl Described {
    /// Whether the game begins with an opening (seats throw in turn until a value).
    pub fn has_opening(&self) -> bool {
        self.c().opening.is_some()
    }

    /// The largest number of sticks any throw uses.
    pub fn stick_count(&self) -> u8 {
        self.c().sticks.count()
    }
}
