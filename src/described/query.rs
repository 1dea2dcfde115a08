//! Read-only queries into a described game's compiled tables and states, for the parts of
//! stickdice that work from the description alone (the agents' generic evaluation, the
//! exact solver, the drawing of the board). Nothing here changes a game or a state.

use super::compile::NONE;
use super::format::{Occupancy, Rank, Supplement};
use super::state::{GONE, OFF, UNMOVED};
use super::{Described, Kind, State};
use crate::board::{BoardFeatures, BoardMove, HoldSquare};

/// Where a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Off the board, before the track's first position.
    Off,
    /// On the board: its track position (on its side's track) and its square.
    On {
        /// The track position (0 = the first).
        pos: u8,
        /// The square id (`row * columns + column`).
        square: u8,
    },
    /// Captured, or got out.
    Gone,
}

/// One row of a throw table: its probability, the value and whether it throws again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThrowRow {
    /// The exact probability of the row's count of marked sides.
    pub probability: f64,
    /// The value it moves.
    pub value: u8,
    /// Whether it gives another throw.
    pub again: bool,
}

impl Described {
    /// The number of sides that own pieces (the seats, or two teams).
    pub fn sides(&self) -> usize {
        self.compiled.sides
    }

    /// The side a seat plays (its team's, with teams).
    pub fn side_of(&self, seat: usize) -> usize {
        self.compiled.side_of(seat)
    }

    /// The pieces each side has; side `s` owns the pieces `s * n .. (s + 1) * n`.
    pub fn pieces_per_side(&self) -> usize {
        self.compiled.pieces_per_side
    }

    /// The number of positions of a track.
    pub fn track_len(&self) -> usize {
        self.compiled.track_len
    }

    /// How the game ranks its seats.
    pub fn rank(&self) -> Rank {
        self.compiled.rank
    }

    /// Whether landing on an enemy piece captures it.
    pub fn captures_by_landing(&self) -> bool {
        self.compiled.capture && self.compiled.occupancy != Occupancy::Shared
    }

    /// Whether a side's pieces stack and move whole.
    pub fn stacks(&self) -> bool {
        self.compiled.occupancy == Occupancy::Stacks
    }

    /// Where piece `k` is.
    pub fn place(&self, s: &State, k: usize) -> Place {
        match s.pos.get(k).copied().unwrap_or(GONE) {
            GONE => Place::Gone,
            OFF => Place::Off,
            pos => Place::On {
                pos,
                square: s.sq[k],
            },
        }
    }

    /// Whether piece `k` is still unmoved (locked until a release value).
    pub fn is_unmoved(&self, s: &State, k: usize) -> bool {
        s.flags.get(k).is_some_and(|f| f & UNMOVED != 0)
    }

    /// The special throws piece `k` has counted on its holding position.
    pub fn hold_count(&self, s: &State, k: usize) -> u8 {
        s.count.get(k).copied().unwrap_or(0)
    }

    /// The holding rule at a track position: the throws needed and the value counted.
    pub fn hold_at(&self, pos: u8) -> Option<(u8, u8)> {
        self.compiled
            .hold
            .get(pos as usize)
            .copied()
            .filter(|&(need, _)| need > 0)
    }

    /// The seats' throw table, one row per count of marked sides.
    pub fn throw_rows(&self) -> impl Iterator<Item = ThrowRow> + '_ {
        Self::rows(&self.compiled.table, self.compiled.sticks)
    }

    /// The chaser's throw table (for seats that drive it), if the game has a chaser.
    pub fn chaser_rows(&self) -> Option<impl Iterator<Item = ThrowRow> + '_> {
        self.compiled
            .chaser_table
            .as_ref()
            .map(|t| Self::rows(t, self.compiled.sticks))
    }

    fn rows(
        t: &super::compile::Table,
        sticks: crate::dice::Sticks,
    ) -> impl Iterator<Item = ThrowRow> + '_ {
        (0..=sticks.count()).map(move |k| ThrowRow {
            probability: sticks.probability(k),
            value: t.value[k as usize],
            again: t.again[k as usize],
        })
    }

    /// Whether a value releases an unmoved piece.
    pub fn releases(&self, value: u8) -> bool {
        self.compiled.has_release && value < 16 && self.compiled.release_values >> value & 1 == 1
    }

    /// How far a releasing move goes (0: the release only unlocks the piece).
    pub fn release_steps(&self) -> u8 {
        self.compiled.release_steps
    }

    /// The value that may be stored instead of moved, if any.
    pub fn store_value(&self) -> Option<u8> {
        self.compiled.store_value
    }

    /// The supplements a capturing move may take from a stock of `stock` stored values
    /// (lowest, highest); empty when `stock` is 0 or nothing is stored.
    pub fn supplements(&self, stock: u8) -> core::ops::RangeInclusive<u8> {
        if stock == 0 || self.compiled.store_value.is_none() {
            #[allow(clippy::reversed_empty_ranges)]
            return 1..=0;
        }
        match self.compiled.supplement {
            Supplement::Any => 1..=stock,
            Supplement::All => stock..=stock,
        }
    }

    /// Whether a side's piece on the square cannot be captured (a safe region).
    pub fn is_safe(&self, side: usize, square: u8) -> bool {
        self.compiled
            .safe
            .is_some_and(|r| self.compiled.regions[side][r as usize].has(square))
    }

    /// Calls `out` with each square where piece `k` (of `side`) may end a walk of `steps`
    /// steps in state `s`, by the rules (blocking, gates, forks, safe regions); its flags
    /// (or its stack's) are those the gates read.
    pub fn landings(&self, s: &State, side: usize, k: usize, steps: u8, mut out: impl FnMut(u8)) {
        let c = &*self.compiled;
        let Some(&from) = s.pos.get(k) else { return };
        if from == GONE || steps == 0 {
            return;
        }
        let flags = s.flags[k] & !UNMOVED;
        c.walk(s, side, from, steps, flags, &mut |d| {
            out(c.square_of[side][d.pos as usize]);
        });
    }

    /// The value of the throw the seat to move must now play, if one is pending.
    pub fn pending_value(&self, s: &State) -> Option<u8> {
        (s.pending != GONE).then(|| self.compiled.pending_value(s))
    }

    /// The throw the seat to move must now play (its count of marked sides), if one is
    /// pending.
    pub fn pending_throw(&self, s: &State) -> Option<crate::dice::Throw> {
        (s.pending != GONE).then(|| crate::dice::Throw::new(s.pending))
    }

    /// The place (1 = first) in which a seat got out, or 0 while it races.
    pub fn out_place(&self, s: &State, seat: usize) -> u8 {
        s.out_place.get(seat).copied().unwrap_or(0)
    }

    /// Whether a seat drives the chaser (the game has one and the seat has got out).
    pub fn drives_chaser(&self, s: &State, seat: usize) -> bool {
        self.compiled.chaser_table.is_some() && self.out_place(s, seat) != 0
    }

    /// The track position after the last one a move may reach (a limit), if any.
    pub fn limit(&self) -> Option<u8> {
        (self.compiled.limit != NONE).then_some(self.compiled.limit)
    }

    /// Whether the state is in the opening (seats throw in turn until the opening value).
    pub fn in_opening(&self, s: &State) -> bool {
        s.opening
    }
}

impl Described {
    /// What the board has beyond its squares and tracks, for drawing: whether pieces stack,
    /// the seats' teams, the holding squares (on every side's track), the squares off the
    /// grid (a road) and the chaser's piece kind.
    pub fn board_features(&self) -> BoardFeatures {
        let c = &*self.compiled;
        let drawn = self.drawn_squares();
        let at = |sq: u8| drawn.iter().position(|&q| q == sq);
        let mut holds: Vec<HoldSquare> = Vec::new();
        for side in 0..c.sides {
            for (pos, &(throws, value)) in c.hold.iter().enumerate() {
                let Some(square) = (throws > 0)
                    .then(|| c.square_of[side].get(pos).copied())
                    .flatten()
                    .and_then(at)
                else {
                    continue;
                };
                if !holds.iter().any(|h| h.square == square) {
                    holds.push(HoldSquare {
                        square,
                        throws,
                        value,
                    });
                }
            }
        }
        holds.sort_by_key(|h| h.square);
        // The grid's rows as the options set them; squares above them are the extras.
        let grid_rows = self
            .base
            .patched(&self.values)
            .map_or(c.rows, |d| usize::try_from(d.board.rows).unwrap_or(c.rows));
        let road = drawn
            .iter()
            .enumerate()
            .filter(|&(_, &sq)| usize::from(sq >> 5) >= grid_rows)
            .map(|(i, _)| i)
            .collect();
        BoardFeatures {
            stacks: self.stacks(),
            teams: if c.teams {
                (0..c.seats).map(|seat| c.side_of(seat)).collect()
            } else {
                Vec::new()
            },
            holds,
            road,
            chaser: c.chaser_table.is_some().then_some("chaser"),
        }
    }

    /// What a state holds that its pieces do not show, one line each: each side's stored
    /// values (where the game stores them) and the throws held to be spent.
    pub fn board_tallies(&self, s: &State) -> Vec<String> {
        let c = &*self.compiled;
        let mut out = Vec::new();
        if let Some(v) = c.store_value {
            for side in 0..c.sides {
                let n = s.stock[side.min(s.stock.len() - 1)];
                let who = if c.teams {
                    format!("Team {}", side + 1)
                } else {
                    format!("P{}", side + 1)
                };
                out.push(format!(
                    "{who}: {n} stored value{} of {v}",
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
        if s.spending {
            let held = s.held();
            if !held.is_empty() {
                let list: Vec<String> = held.iter().map(u8::to_string).collect();
                out.push(format!("Throws held to be spent: {}", list.join(", ")));
            }
        }
        out
    }

    /// For each legal action (in the order of the legal actions), the square of the piece
    /// it moves and the square that piece ends on: `to` is `from` for a piece that stays
    /// (an unlock, a throw counted on a holding square) and `None` for one that leaves the
    /// board; an entering piece comes from no square; the chaser's moves, storing and
    /// passing move no drawn piece.
    pub fn board_moves(&self, s: &State) -> Vec<BoardMove> {
        let c = &*self.compiled;
        let mut legal = crate::game::ActionList::new();
        self.legal_into_list(s, &mut legal);
        let side = c.side_of(s.turn as usize);
        let on = |st: &State, k: usize| st.pos[k] < OFF;
        legal
            .iter()
            .map(|&a| {
                let mut after = *s;
                let (from, to) = match a.kind {
                    Kind::Move | Kind::Branch | Kind::Held | Kind::Plus => {
                        self.apply_action_unchecked(&mut after, a);
                        let mine = || c.pieces(side).filter(|&k| on(s, k) && s.sq[k] == a.sq);
                        let to = match mine().find(|&k| after.pos[k] != s.pos[k]) {
                            Some(k) if on(&after, k) => self.drawn_index(after.sq[k]),
                            Some(_) => None,
                            None => self.drawn_index(a.sq),
                        };
                        (self.drawn_index(a.sq), to)
                    }
                    Kind::Unlock => (self.drawn_index(a.sq), self.drawn_index(a.sq)),
                    Kind::Enter => {
                        self.apply_action_unchecked(&mut after, a);
                        let entered = c.pieces(side).find(|&k| s.pos[k] == OFF && on(&after, k));
                        (None, entered.and_then(|k| self.drawn_index(after.sq[k])))
                    }
                    Kind::Store | Kind::Back | Kind::Forward | Kind::Drive | Kind::Pass => {
                        (None, None)
                    }
                };
                BoardMove {
                    action: a.to_string(),
                    from,
                    to,
                }
            })
            .collect()
    }
}

impl State {
    /// The state with its throw count set to `throws` (the only field that grows without
    /// bound; exact solvers key positions on the rest).
    pub fn with_throws(self, throws: u32) -> State {
        State { throws, ..self }
    }
}
