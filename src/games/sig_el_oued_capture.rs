//! Sig (El Oued Capture) — the children's capture game of El Oued, Algeria
//! (the book's chapter "Sig (El Oued Capture)", docs/games/sig-el-oued-capture.md; Bellin 1964: 59–60, Ludii id 1578).
//!
//! Six pieces a side, each freed by a sig, run a looping circuit through both home rows of a
//! 3 × 6 board and capture by landing. The throws and their names are those of Sig (El Oued)
//! ([`crate::games::sig_el_oued`]); the board conventions are Issiren's
//! ([`crate::games::issiren`]).
//!
//! # The rules as implemented
//!
//! * **Seats:** exactly two. P1 (seat 0) sits at the bottom, P2 (seat 1) at the top. P1
//!   throws first.
//! * **Board:** 3 rows × 6 columns, at most one piece per square. Squares are written column
//!   letter + row number as P1 sees the board: columns `a`..`f` left to right, rows `1`..`3`
//!   (row `1` is P1's home row, `2` the central row, `3` P2's home row). The rules chapter's
//!   (r, c) is column letter `a + c`, row number `r + 1`: (0,5) is `f1`, (2,0) is `a3`.
//! * **Circuit:** each piece walks its owner's 24-step circuit, which loops forever. P1's
//!   positions 0–5 are its home row left to right (`a1`..`f1`), 6–11 the central row right
//!   to left (`f2`..`a2`), 12–17 P2's home row left to right (`a3`..`f3`), 18–23 the central
//!   row right to left again (`f2`..`a2`), then position 0 again. P2's square for a position
//!   is P1's turned half a turn, (r, c) → (2 − r, 5 − c) ([`circuit_square`]). The central
//!   row is crossed twice per lap, so each piece keeps its circuit position ([`Piece::pos`]).
//! * **Start:** six unmoved pieces a side on its home row, positions 0–5.
//! * **Throws:** six polished/rough sticks; the count `k` of polished sides up has
//!   probability C(6,k)/64. A *lead throw* is the first throw of a turn or one granted by a
//!   regular sig; a *bonus throw* is one thrown for a sig of six or twelve. A lead throw and
//!   its bonus throws make one *move value* V, a **sig value** when it contains a regular sig
//!   (1, 7 or 13), else **plain**:
//!
//!   | lead `k` | name | V | then |
//!   |---|---|---|---|
//!   | 0 | sig of twelve | up to three bonus throws: sig value 13 as soon as one is a regular sig (no more are thrown), else plain 12 + their three counts | turn ends |
//!   | 1, 5 | regular sig | sig value 1 | another lead throw |
//!   | 2, 3, 4 | | plain `k` | turn ends |
//!   | 6 | sig of six | one bonus throw: sig value 7 if it is a regular sig, else plain 6 + its count | turn ends |
//!
//!   Bonus throws are throw nodes of the same seat ([`Pending::SixBonus`],
//!   [`Pending::TwelveBonus`]), count as throws and never grant throws.
//! * **Decisions:** once V is complete the seat decides ([`Node::Decide`]), even when a
//!   single action is legal ([`Pending::Sig`], [`Pending::Value`]):
//!   * **move** (the piece's square): the piece goes exactly V steps forward along its
//!     circuit. It must be a moved piece unless V is a sig value. The destination must not
//!     hold another own piece; squares passed over are ignored; an enemy piece on the
//!     destination is captured (it leaves the game), unmoved pieces included. The piece is
//!     now moved. A plain 24 brings a piece round to its own square and a plain 12 brings a
//!     piece of the central row to its own square at its other circuit position: both are
//!     legal (no *other* own piece is there).
//!   * **`free_all`**: only for a sig value 7 or 13 with m ≥ 2 unmoved pieces. Every unmoved
//!     piece steps 1, one after another, from the one furthest along its circuit to the
//!     least far; the piece that stepped first then goes the remaining V − m steps. Each step
//!     and that last move obey the move rules when made: if any would land on an own piece,
//!     `free_all` is not legal; enemy pieces landed on are captured. All m pieces are then
//!     moved.
//!   * **`pass`**: only when neither a move nor `free_all` is legal.
//! * **Turns:** after the action, a regular-sig lead throw gives another lead throw (whether
//!   or not anything moved); after any other lead throw, the other seat's turn begins.
//! * **End:** the seat that captures the last enemy piece wins; the action is completed and
//!   the game ends at once, with no further throw. **Throw cap** (`max_throws`, default
//!   10 000): after the cap-th throw its move is still decided, then the game ends where the
//!   next throw (lead or bonus) would be due, as a draw. A sig of six or twelve whose bonus
//!   throws are cut off by the cap moves nothing: its value never completes. A game whose
//!   last capture comes from the cap-th throw is a win.
//! * **Option `sig_of_twelve_first_turn_only`** (default false): six rough sides make a sig
//!   of twelve only on the lead throws of the seat's own first turn of the game (all of them,
//!   chained ones included; P2's first turn is the game's second turn). Later they are a
//!   plain 0 ([`Pending::Value`] with 0 steps): the only action is `pass`, and the turn ends.
//!   Bonus throws are not affected.
//! * **Option `five_polished_moves_five`** (default false): a lead throw of five polished
//!   sides is still a regular sig (sig value 1, another lead throw follows either way), but
//!   the seat may instead use it as a plain 5 for a moved piece. A piece with both moves
//!   legal offers two actions, `SQUARE/1` and `SQUARE/5`; every other piece is named by its
//!   square alone, meaning the one move it has.
//!
//! # Notation
//!
//! An action is the square of the piece to move (`a1`, `f3`, …), `free_all`, `pass`, or,
//! under `five_polished_moves_five`, `SQUARE/1` or `SQUARE/5` — exactly as [`Action`]'s
//! `Display` prints it; parsing ignores case and surrounding spaces. Legal actions are listed
//! in square order (`a1`, `b1`, …, `f1`, `a2`, …, `f3`; a piece's `/1` before its `/5`), then
//! `free_all`; a `pass` alone.
//!
//! # Readings chosen where the rules chapter is silent
//!
//! Besides those of its section 9 (directions seen from each seat; the circuit loops; a
//! regular sig is worth 1; the pooled value of a sig of six or twelve; the 13; only sig
//! values free; sigs chain; free a piece or step a moved one; any piece may take V;
//! `free_all` front first; Issiren's occupied-square conventions; the cap is a draw):
//!
//! 1. A **plain 0** (six rough under `sig_of_twelve_first_turn_only` after the seat's first
//!    turn) moves nothing at all: the only action is `pass`, even though a 0-step "move"
//!    would end on the piece's own square as a plain 24 does. This is the option's text
//!    ("the only action is `pass`").
//! 2. A seat's **first turn** is over when the turn passes to the other seat; a turn that
//!    ends the game (the last capture, the cap) never passes. The state keeps this per seat
//!    ([`State::first_turn_over`]) whatever the option, so states do not depend on it.
//! 3. Under `five_polished_moves_five`, an **unmoved** piece has only its 1-step move (a
//!    plain 5 moves moved pieces only); `free_all` is never offered on a regular sig (its V
//!    is 1). The unchecked action `SQUARE` for a piece with both moves makes the 1-step move.
//! 4. A **capture during `free_all`** of the enemy's last piece ends the game once the whole
//!    `free_all` is completed ("the action is completed"); legality is decided by the own
//!    pieces alone, which captures never change.
//! 5. When the game ends on a capture, the turn stays with the capturing seat and a lead
//!    throw is shown as pending ([`Pending::Lead`]); it is never made.
//! 6. Bonus throws are always made, even when no piece could move on any value they can
//!    complete: they are thrown and count toward the cap (as in Sig (El Oued)).
//!
//! # State
//!
//! [`State`] is plain `Copy` data with private fields: each side's pieces as a bitmask of
//! circuit positions plus a bitmask of the unmoved ones (occupancy bitboards, bit
//! `row * 6 + col`, are derived from them: [`State::occupied`]), whose turn it is, what is
//! pending ([`Pending`]), the throw count, which seats' first turns are over, and whether
//! the turn goes on from a regular sig. Equal positions are equal states. Build one
//! from a [`Position`] (`State::try_from`, which checks every invariant that does not depend
//! on the rule options; [`Game::validate`] adds the throw cap and the options) and read it
//! with the accessors. In JSON a state is its [`Position`]:
//! `{"pieces": [[{"pos": 0, "unmoved": true}, …], […]], "turn": 0, "pending": "lead",
//! "throws": 0, "first_turn_over": [false, false], "turn_goes_on": false}`, pieces in
//! circuit-position order (any
//! order is read). `pending` is `"lead"`, `"six_bonus"`, `{"twelve_bonus": {"left": 2,
//! "sum": 3}}`, `{"sig": {"polished": 5}}` or `{"value": {"steps": 9, "sig": false}}`.
//! Reading a state checks it (`try_from`), so a malformed one is refused with every problem
//! named.

use core::fmt;
use core::str::FromStr;

use super::common::{notation_as_string, parse_grid_square, write_grid_square};
pub use super::sig_throws::is_regular_sig;
use super::sig_throws::BONUS_SUMS;
use crate::config::{check_seats, DEFAULT_MAX_THROWS};
use crate::dice::{Sticks, Throw};
use crate::game::{
    ActionList, ConfigError, Game, InvalidState, Node, NotationError, Playouts, ProblemKind,
    Problems, Ranking, Seat, MAX_ACTIONS,
};
use crate::present::Present;

/// Pieces per side at the start.
pub const PIECES: usize = 6;
/// Steps in one lap of a circuit.
pub const CIRCUIT_LEN: u8 = 24;
/// Rows of the board.
pub const ROWS: u8 = 3;
/// Columns of the board.
pub const COLS: u8 = 6;
/// The largest move value: a sig of twelve with three sixes, 12 + 18.
pub const MAX_VALUE: u8 = 30;

/// The square index (`row * 6 + col`) of P1's circuit position `pos mod 24`.
const fn seat0_square(pos: usize) -> u8 {
    let p = (pos % CIRCUIT_LEN as usize) as u8;
    match p / 6 {
        0 => p,             // home row, left to right
        1 => 6 + (11 - p),  // central row, right to left
        2 => 12 + (p - 12), // P2's home row, left to right
        _ => 6 + (23 - p),  // central row again, right to left
    }
}

/// `SQUARE_OF[seat][i]`: the square index of position `i mod 24` on `seat`'s circuit, for any
/// `i` below 64 (a position plus a move value), so a landing square is one lookup.
static SQUARE_OF: [[u8; 64]; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut i = 0;
    while i < 64 {
        t[0][i] = seat0_square(i);
        t[1][i] = 17 - seat0_square(i); // turned half a turn
        i += 1;
    }
    t
};

/// `WRAP[i]`: `i mod 24`, for any `i` below 64.
static WRAP: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i % CIRCUIT_LEN as usize) as u8;
        i += 1;
    }
    t
};

/// `FIRST_POS[seat][sq]`: the first circuit position of `seat` on square `sq` (on the central
/// row the other one is 12 more).
static FIRST_POS: [[u8; 18]; 2] = {
    let mut t = [[0u8; 18]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut p = 24;
        while p > 0 {
            p -= 1;
            t[seat][SQUARE_OF[seat][p] as usize] = p as u8;
        }
        seat += 1;
    }
    t
};

/// The central row's positions: 6..11 on the way out, 18..23 on the way back.
const CENTRAL: u32 = 0x3f << 6 | 0x3f << 18;
/// All 24 positions.
const LAP: u32 = (1 << 24) - 1;

/// The positions that share a square with the positions of `at` (on the central row, 12
/// apart), with them: a piece at a position of the result stands on a square of `at`'s.
#[inline(always)]
const fn with_twins(at: u32) -> u32 {
    at | (at & 0x3f << 6) << 12 | (at & 0x3f << 18) >> 12
}

/// `at` (24 bits) turned `v` (0..=30) positions back: bit `p` of the result is bit
/// `(p + v) mod 24` of `at`.
#[inline(always)]
const fn back(at: u32, v: u8) -> u32 {
    let v = WRAP[v as usize & 63] as u32;
    ((at >> v) | (at << (24 - v))) & LAP
}

/// `ENEMY_ON[seat][q]`: the enemy's positions on the square of `seat`'s position `q` (any
/// `q` below 64), as a bitmask: landing at `q` captures the enemy piece at one of them.
static ENEMY_ON: [[u32; 64]; 2] = {
    let mut t = [[0u32; 64]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut q = 0;
        while q < 64 {
            let mut r = 0;
            while r < 24 {
                if SQUARE_OF[1 - seat][r] == SQUARE_OF[seat][q] {
                    t[seat][q] |= 1 << r;
                }
                r += 1;
            }
            q += 1;
        }
        seat += 1;
    }
    t
};

/// `SQUARES[seat][byte][b]`: the squares (bit `row * 6 + col`) of `seat`'s positions
/// `8 * byte + i` for the bits `i` of `b`: a side's occupancy is three lookups.
static SQUARES: [[[u32; 256]; 3]; 2] = {
    let mut t = [[[0u32; 256]; 3]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut byte = 0;
        while byte < 3 {
            let mut b = 0;
            while b < 256 {
                let mut i = 0;
                while i < 8 {
                    if b & (1 << i) != 0 {
                        t[seat][byte][b] |= 1 << SQUARE_OF[seat][8 * byte + i];
                    }
                    i += 1;
                }
                b += 1;
            }
            byte += 1;
        }
        seat += 1;
    }
    t
};

/// The plain move values a throw sequence can make (bit `v`): 0 (under
/// `sig_of_twelve_first_turn_only`), 2, 3, 4, 6 + a bonus count, 12 + three bonus counts.
const PLAIN_VALUES: u32 = 1 | 1 << 2 | 1 << 3 | 1 << 4 | BONUS_SUMS[1] << 6 | BONUS_SUMS[3] << 12;

/// The square a piece of `seat` stands on at circuit position `pos` (0..23), or `None` if
/// the seat is not 0 or 1 or the position is off the circuit.
///
/// ```
/// use stickdice::games::sig_el_oued_capture::circuit_square;
/// assert_eq!(circuit_square(0, 0).unwrap().to_string(), "a1");
/// assert_eq!(circuit_square(0, 6).unwrap().to_string(), "f2");
/// assert_eq!(circuit_square(0, 18).unwrap().to_string(), "f2");
/// assert_eq!(circuit_square(1, 5).unwrap().to_string(), "a3");
/// assert_eq!(circuit_square(0, 24), None);
/// ```
pub const fn circuit_square(seat: Seat, pos: u8) -> Option<Square> {
    if seat < 2 && pos < CIRCUIT_LEN {
        Some(Square(SQUARE_OF[seat][pos as usize]))
    } else {
        None
    }
}

/// `seat`'s circuit positions on `square` as a bitmask (one on a home row, two on the
/// central row); 0 for a seat other than 0 or 1.
///
/// ```
/// use stickdice::games::sig_el_oued_capture::{positions_on, Square};
/// assert_eq!(positions_on(0, Square::new(1, 5).unwrap()), 1 << 6 | 1 << 18); // f2
/// assert_eq!(positions_on(1, Square::new(2, 0).unwrap()), 1 << 5); // a3
/// ```
pub const fn positions_on(seat: Seat, square: Square) -> u32 {
    if seat > 1 {
        return 0;
    }
    let first = FIRST_POS[seat][square.0 as usize % 18];
    if square.0 / COLS == 1 {
        1 << first | 1 << (first + 12)
    } else {
        1 << first
    }
}

/// A square of the board, written column letter + row number as P1 sees it (`a1` .. `f3`).
/// Its index is `row * 6 + col`, the bit in the occupancy bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "String", try_from = "String"))]
pub struct Square(u8);

impl Square {
    /// The square on `row` (0..2, 0 = P1's home row) and `col` (0..5, 0 = `a`), if on the
    /// board.
    pub const fn new(row: u8, col: u8) -> Option<Square> {
        if row < ROWS && col < COLS {
            Some(Square(row * COLS + col))
        } else {
            None
        }
    }

    /// The square with index `row * 6 + col` (0..17), if on the board.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < ROWS * COLS {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The index, `row * 6 + col` (0..17).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The row, 0 (P1's home row, `1` in notation) to 2 (P2's home row, `3`).
    pub const fn row(self) -> u8 {
        self.0 / COLS
    }

    /// The column, 0 (`a`) to 5 (`f`).
    pub const fn col(self) -> u8 {
        self.0 % COLS
    }

    /// The square's bit in an occupancy bitboard.
    pub const fn bit(self) -> u32 {
        1u32 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_grid_square(f, self.row(), self.col())
    }
}

const SQUARE_EXPECTED: &str =
    "a square from a1 to f3 (column letter a-f, row number 1-3, as P1 sees the board)";
const ACTION_EXPECTED: &str = "the square of the piece to move, from a1 to f3 (column letter \
     a-f, row number 1-3, as P1 sees the board), optionally with `/1` or `/5` (a five \
     polished sides used as 1 or 5 steps), or `free_all`, or `pass`";

impl FromStr for Square {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_grid_square(s, ROWS, COLS)
            .and_then(|(row, col)| Square::new(row, col))
            .ok_or_else(|| NotationError {
                text: s.to_string(),
                expected: SQUARE_EXPECTED,
            })
    }
}

// Square travels in JSON as its notation.
notation_as_string!(Square);

/// A choice once a move value is complete. Notation: the square (`c1`), `c1/1` or `c1/5`,
/// `free_all`, `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "String", try_from = "String"))]
pub enum Action {
    /// Move the mover's piece on this square by the move value (its one legal move).
    Move(Square),
    /// Under `five_polished_moves_five`, for a piece that can go both ways on five polished
    /// sides: move it 1 step (the sig) or 5 steps (a plain 5).
    MoveSteps(Square, u8),
    /// Free every unmoved piece one step, front first; the first then takes the rest of V.
    FreeAll,
    /// Nothing can move: the value is spent without a move.
    Pass,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(sq) => sq.fmt(f),
            Action::MoveSteps(sq, n) => write!(f, "{sq}/{n}"),
            Action::FreeAll => f.write_str("free_all"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Action {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || NotationError {
            text: s.to_string(),
            expected: ACTION_EXPECTED,
        };
        let t = s.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Action::Pass);
        }
        if t.eq_ignore_ascii_case("free_all") {
            return Ok(Action::FreeAll);
        }
        match t.split_once('/') {
            Some((sq, n)) => {
                let sq = sq.parse::<Square>().map_err(|_| err())?;
                match n.trim() {
                    "1" => Ok(Action::MoveSteps(sq, 1)),
                    "5" => Ok(Action::MoveSteps(sq, 5)),
                    _ => Err(err()),
                }
            }
            None => t.parse::<Square>().map(Action::Move).map_err(|_| err()),
        }
    }
}

// Action travels in JSON as its notation.
notation_as_string!(Action);

/// One piece: where it is on its owner's circuit and whether it has moved yet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Piece {
    /// Circuit position, 0..23, on its owner's circuit (see [`circuit_square`]).
    pub pos: u8,
    /// Never moved: it can move only on a sig value. Only positions 0..5 (the home row) can
    /// hold an unmoved piece.
    #[cfg_attr(feature = "serde", serde(default))]
    pub unmoved: bool,
}

impl Piece {
    /// A piece that has moved, at circuit position `pos`.
    pub const fn moved(pos: u8) -> Piece {
        Piece {
            pos,
            unmoved: false,
        }
    }

    /// An unmoved piece on its start square, circuit position `pos` (0..5).
    pub const fn start(pos: u8) -> Piece {
        Piece { pos, unmoved: true }
    }
}

/// What the seat to play owes next: a lead throw, a bonus throw, or the decision on a
/// completed move value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Pending {
    /// A lead throw is due (the first of a turn, or one granted by a regular sig).
    #[default]
    Lead,
    /// A sig of six was thrown: its bonus throw is due.
    SixBonus,
    /// A sig of twelve was thrown: `left` (1..=3) of its bonus throws are still due, and those
    /// made so far (none a regular sig) add up to `sum`.
    TwelveBonus {
        /// Bonus throws still due, 1 to 3.
        left: u8,
        /// Their counts so far.
        sum: u8,
    },
    /// A regular sig lead throw (`polished` = 1 or 5) awaits its action: sig value 1, then
    /// another lead throw.
    Sig {
        /// Its number of polished sides up, 1 or 5.
        polished: u8,
    },
    /// A move value from a plain lead throw or a sig of six or twelve awaits its action; the
    /// turn ends after it.
    Value {
        /// V, in steps.
        steps: u8,
        /// Whether it is a sig value (7 or 13), which may move unmoved pieces.
        sig: bool,
    },
}

impl Pending {
    /// Whether a decision is due (a completed move value).
    #[inline]
    pub const fn is_decision(self) -> bool {
        matches!(self, Pending::Sig { .. } | Pending::Value { .. })
    }
}

/// A position of Sig (El Oued Capture) and the bookkeeping of whose turn it is. Private
/// fields: build one from a [`Position`] (checked) and read it with the accessors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "Position", try_from = "Position"))]
pub struct State {
    /// Bit `p`: the side has a piece at circuit position `p` (0..23).
    at: [u32; 2],
    /// Bit `p` (`p` < 6): the piece at position `p` is unmoved (a subset of `at`).
    unmoved: [u8; 2],
    /// The seat to throw or decide.
    turn: u8,
    /// What it owes.
    pending: Pending,
    /// Throws made so far, bonus throws included.
    throws: u32,
    /// Bit `s`: seat `s`'s first turn is over.
    opened: u8,
    /// The turn goes on from a regular sig: the seat's lead throws so far this turn include
    /// one that granted another.
    goes_on: bool,
}

/// A state written out: the JSON form of [`State`], and the way to build one
/// (`State::try_from(position)`, which checks it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Position {
    /// Each side's pieces (any order; written in circuit-position order).
    pub pieces: [Vec<Piece>; 2],
    /// The seat to throw or decide (0 or 1).
    #[cfg_attr(feature = "serde", serde(default))]
    pub turn: u8,
    /// What that seat owes next.
    #[cfg_attr(feature = "serde", serde(default))]
    pub pending: Pending,
    /// Throws made so far in the game, bonus throws included.
    #[cfg_attr(feature = "serde", serde(default))]
    pub throws: u32,
    /// For each seat, whether its first turn of the game is over.
    #[cfg_attr(feature = "serde", serde(default))]
    pub first_turn_over: [bool; 2],
    /// Whether the turn goes on from a regular sig (a lead throw of this turn granted
    /// another), so the next lead throw is not the first of a turn.
    #[cfg_attr(feature = "serde", serde(default))]
    pub turn_goes_on: bool,
}

impl Position {
    /// These pieces for P1 and P2, P1 to make a lead throw, no throw made.
    pub fn new(p1: &[Piece], p2: &[Piece]) -> Position {
        Position {
            pieces: [p1.to_vec(), p2.to_vec()],
            ..Position::default()
        }
    }
}

/// What can be wrong with a Sig (El Oued Capture) [`State`]: the problems `State::try_from`
/// a [`Position`] and [`Game::validate`] report (read back with [`InvalidState::kinds`]),
/// each with the seat (0-based: P1 is seat 0), square or value concerned. `Display` gives
/// the sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The turn is neither seat 0 nor seat 1.
    Turn(u8),
    /// A side is given more than 6 pieces.
    TooMany {
        /// The side.
        seat: usize,
        /// Its number of pieces.
        n: usize,
    },
    /// A piece's circuit position is not on the 24-step circuit.
    OffCircuit {
        /// The side.
        seat: usize,
        /// The piece's circuit position.
        pos: u8,
    },
    /// A piece marked unmoved stands off its home row.
    UnmovedOffHome {
        /// The side.
        seat: usize,
        /// The piece's circuit position.
        pos: u8,
    },
    /// Two pieces on one square.
    Shared {
        /// The square.
        square: Square,
        /// The side of both pieces, or `None` for a piece of each side.
        same_seat: Option<usize>,
    },
    /// Neither side has a piece.
    NoPieces,
    /// Something other than a lead throw is pending after the game ended.
    PendingAfterEnd {
        /// The side without pieces.
        loser: usize,
        /// What is pending.
        pending: Pending,
    },
    /// The side without pieces is to move.
    LoserToMove(usize),
    /// Something is pending that needs more throws than were made.
    PendingWithoutThrow {
        /// What is pending.
        pending: Pending,
        /// The throws it needs.
        needed: u32,
        /// The throws made.
        throws: u32,
    },
    /// A sig of twelve with other than 1 to 3 bonus throws left.
    TwelveLeft(u8),
    /// A sig of twelve's bonus throws with a sum they cannot make.
    TwelveSum {
        /// The bonus throws made.
        made: u8,
        /// Their sum.
        sum: u8,
    },
    /// A regular sig pending with other than 1 or 5 polished sides.
    SigPolished(u8),
    /// A sig value other than 7 or 13 pending.
    SigValue(u8),
    /// A plain value pending that no throws make.
    PlainValue(u8),
    /// P2's first turn is marked over but P1's is not.
    FirstTurns,
    /// It is P2's turn before P1's first turn is over.
    TurnBeforeOpening,
    /// No throw has been made, yet it is not P1's first turn.
    NoThrowButTurn,
    /// The turn goes on from a regular sig, but no throw has been made.
    GoesOnWithoutThrow,
    /// More throws have been made than the throw cap allows.
    PastCap {
        /// The throw count.
        throws: u32,
        /// The cap.
        cap: u32,
    },
    /// A plain 0 is pending where six rough sides make a sig of twelve.
    PlainZero,
    /// A sig of twelve's bonus throws are pending after the seat's first turn, where
    /// `sig_of_twelve_first_turn_only` makes six rough sides a plain 0.
    TwelveAfterFirstTurn,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&problem_text(*self))
    }
}

impl ProblemKind for Problem {}

/// The text of a problem: the one place where problem sentences are made.
fn problem_text(p: Problem) -> String {
    match p {
        Problem::Turn(t) => format!(
            "turn seat {t} is out of range: Sig (El Oued Capture) has seats 0 (P1) and 1 (P2)"
        ),
        Problem::TooMany { seat, n } => {
            format!("P{} has {n} pieces; a side has at most {PIECES}", seat + 1)
        }
        Problem::OffCircuit { seat, pos } => format!(
            "P{}'s piece at circuit position {pos} is off the 24-step circuit (positions 0 to 23)",
            seat + 1
        ),
        Problem::UnmovedOffHome { seat, pos } => format!(
            "P{}'s piece at circuit position {pos} is marked unmoved but is not on a start \
             square of its home row (positions 0 to 5)",
            seat + 1
        ),
        Problem::Shared { square, same_seat } => match same_seat {
            Some(seat) => format!(
                "two pieces of P{} on square {square} (a square holds one piece)",
                seat + 1
            ),
            None => format!(
                "a piece of P1 and a piece of P2 on square {square} (a square holds one piece)"
            ),
        },
        Problem::NoPieces => {
            "neither side has a piece left; the game ends when the first side loses its last"
                .to_string()
        }
        Problem::PendingAfterEnd { loser, pending } => format!(
            "P{} has no pieces left, so the game is over, but {pending:?} is pending (an ended \
             game shows a lead throw, never made)",
            loser + 1
        ),
        Problem::LoserToMove(loser) => format!(
            "P{} has no pieces left, yet it is P{}'s turn: the game ended on P{}'s capture of \
             the last piece, and the turn stays with the capturing seat",
            loser + 1,
            loser + 1,
            2 - loser
        ),
        Problem::PendingWithoutThrow {
            pending,
            needed,
            throws,
        } => {
            format!("{pending:?} is pending after {needed} or more throws, but {throws} were made")
        }
        Problem::TwelveLeft(left) => {
            format!("a sig of twelve has {left} bonus throws left; it has 1 to 3")
        }
        Problem::TwelveSum { made, sum } => format!(
            "a sig of twelve's {made} bonus throws cannot add up to {sum} without a regular sig"
        ),
        Problem::SigPolished(k) => {
            format!("a regular sig of {k} polished sides is pending; a regular sig has 1 or 5")
        }
        Problem::SigValue(v) => {
            format!("a sig value of {v} is pending; sig values after a bonus throw are 7 and 13")
        }
        Problem::PlainValue(v) => format!("a plain value of {v} is pending, which no throws make"),
        Problem::FirstTurns => {
            "P2's first turn is marked over but P1's is not (P1 plays the first turn)".to_string()
        }
        Problem::TurnBeforeOpening => {
            "it is P2's turn but P1's first turn is not marked over".to_string()
        }
        Problem::NoThrowButTurn => {
            "no throw has been made, yet it is not P1's first turn".to_string()
        }
        Problem::GoesOnWithoutThrow => {
            "the turn is marked as going on from a regular sig, but no throw has been made"
                .to_string()
        }
        Problem::PastCap { throws, cap } => {
            format!("throw count {throws} is past the throw cap of {cap}")
        }
        Problem::PlainZero => "a plain 0 is pending, which only six rough sides make under \
             sig_of_twelve_first_turn_only after the seat's first turn"
            .to_string(),
        Problem::TwelveAfterFirstTurn => "a sig of twelve's bonus throws are pending after the \
             seat's first turn, where sig_of_twelve_first_turn_only makes six rough a plain 0"
            .to_string(),
    }
}

/// Every invariant that does not depend on the rule options, checked.
fn position_problems(p: &Position) -> Vec<Problem> {
    let mut problems = Vec::new();
    if p.turn > 1 {
        problems.push(Problem::Turn(p.turn));
    }
    let mut found = [0u32; 2];
    for (seat, list) in p.pieces.iter().enumerate() {
        if list.len() > PIECES {
            problems.push(Problem::TooMany {
                seat,
                n: list.len(),
            });
        }
        for piece in list {
            if piece.pos >= CIRCUIT_LEN {
                problems.push(Problem::OffCircuit {
                    seat,
                    pos: piece.pos,
                });
                continue;
            }
            if piece.unmoved && piece.pos >= PIECES as u8 {
                problems.push(Problem::UnmovedOffHome {
                    seat,
                    pos: piece.pos,
                });
            }
            let sq = SQUARE_OF[seat][piece.pos as usize];
            if found[seat] & (1 << sq) != 0 {
                problems.push(Problem::Shared {
                    square: Square(sq),
                    same_seat: Some(seat),
                });
            }
            found[seat] |= 1 << sq;
        }
    }
    let shared = found[0] & found[1];
    for sq in 0..ROWS * COLS {
        if shared & (1 << sq) != 0 {
            problems.push(Problem::Shared {
                square: Square(sq),
                same_seat: None,
            });
        }
    }
    if p.pieces[0].is_empty() && p.pieces[1].is_empty() {
        problems.push(Problem::NoPieces);
    } else if let Some(loser) = (0..2).find(|&s| p.pieces[s].is_empty()) {
        if p.pending != Pending::Lead {
            problems.push(Problem::PendingAfterEnd {
                loser,
                pending: p.pending,
            });
        }
        if usize::from(p.turn) == loser {
            problems.push(Problem::LoserToMove(loser));
        }
    }
    let needed = match p.pending {
        Pending::Lead => 0,
        Pending::TwelveBonus { left, .. } => 4u32.saturating_sub(left as u32),
        _ => 1,
    };
    if p.throws < needed {
        problems.push(Problem::PendingWithoutThrow {
            pending: p.pending,
            needed,
            throws: p.throws,
        });
    }
    match p.pending {
        Pending::TwelveBonus { left, sum } => {
            if !(1..=3).contains(&left) {
                problems.push(Problem::TwelveLeft(left));
            } else if sum >= 32 || BONUS_SUMS[3 - left as usize] & (1 << sum) == 0 {
                problems.push(Problem::TwelveSum {
                    made: 3 - left,
                    sum,
                });
            }
        }
        Pending::Sig { polished } if !is_regular_sig(polished) => {
            problems.push(Problem::SigPolished(polished))
        }
        Pending::Value { steps, sig: true } if steps != 7 && steps != 13 => {
            problems.push(Problem::SigValue(steps))
        }
        Pending::Value { steps, sig: false }
            if steps > MAX_VALUE || PLAIN_VALUES & (1 << steps) == 0 =>
        {
            problems.push(Problem::PlainValue(steps))
        }
        _ => {}
    }
    if p.first_turn_over[1] && !p.first_turn_over[0] {
        problems.push(Problem::FirstTurns);
    }
    if p.turn == 1 && !p.first_turn_over[0] {
        problems.push(Problem::TurnBeforeOpening);
    }
    if p.throws == 0 && (p.turn != 0 || p.first_turn_over[0]) {
        problems.push(Problem::NoThrowButTurn);
    }
    if p.throws == 0 && p.turn_goes_on {
        problems.push(Problem::GoesOnWithoutThrow);
    }
    problems
}

fn invalid(problems: Vec<Problem>) -> Result<(), InvalidState> {
    let mut found = Problems::new();
    for p in problems {
        found.push(p);
    }
    found.finish()
}

impl TryFrom<Position> for State {
    type Error = InvalidState;

    /// Checks every invariant that does not depend on the rule options (each problem named),
    /// then builds the state.
    fn try_from(p: Position) -> Result<State, InvalidState> {
        invalid(position_problems(&p))?;
        let mut s = State {
            at: [0; 2],
            unmoved: [0; 2],
            turn: p.turn,
            pending: p.pending,
            throws: p.throws,
            opened: p.first_turn_over[0] as u8 | (p.first_turn_over[1] as u8) << 1,
            goes_on: p.turn_goes_on,
        };
        for (seat, list) in p.pieces.iter().enumerate() {
            for piece in list {
                s.at[seat] |= 1 << piece.pos;
                if piece.unmoved {
                    s.unmoved[seat] |= 1 << piece.pos;
                }
            }
        }
        Ok(s)
    }
}

impl From<State> for Position {
    fn from(s: State) -> Position {
        Position {
            pieces: [s.pieces_of(0).collect(), s.pieces_of(1).collect()],
            turn: s.turn,
            pending: s.pending,
            throws: s.throws,
            first_turn_over: [s.first_turn_over(0), s.first_turn_over(1)],
            turn_goes_on: s.goes_on,
        }
    }
}

impl State {
    /// `seat`'s pieces in circuit-position order (none for a seat other than 0 or 1).
    pub fn pieces_of(&self, seat: Seat) -> impl Iterator<Item = Piece> + '_ {
        let (at, unmoved) = if seat < 2 {
            (self.at[seat], self.unmoved[seat])
        } else {
            (0, 0)
        };
        (0..CIRCUIT_LEN)
            .filter(move |p| at & (1 << p) != 0)
            .map(move |p| Piece {
                pos: p,
                unmoved: p < 8 && unmoved & (1 << p) != 0,
            })
    }

    /// How many pieces `seat` still has.
    #[inline]
    pub fn count(&self, seat: Seat) -> u8 {
        if seat < 2 {
            self.at[seat].count_ones() as u8
        } else {
            0
        }
    }

    /// How many of `seat`'s pieces are unmoved.
    #[inline]
    pub fn unmoved_count(&self, seat: Seat) -> u8 {
        if seat < 2 {
            self.unmoved[seat].count_ones() as u8
        } else {
            0
        }
    }

    /// `seat`'s occupancy bitboard: bit `row * 6 + col` where it has a piece.
    #[inline]
    pub fn occupied(&self, seat: Seat) -> u32 {
        if seat < 2 {
            let at = self.at[seat];
            let t = &SQUARES[seat];
            t[0][(at & 0xff) as usize]
                | t[1][(at >> 8 & 0xff) as usize]
                | t[2][(at >> 16 & 0xff) as usize]
        } else {
            0
        }
    }

    /// `seat`'s circuit positions: bit `p` where it has a piece at position `p`.
    #[inline]
    pub fn positions(&self, seat: Seat) -> u32 {
        if seat < 2 {
            self.at[seat]
        } else {
            0
        }
    }

    /// The seat to throw or decide (after the last capture, the capturing seat).
    #[inline]
    pub fn turn(&self) -> Seat {
        self.turn as Seat
    }

    /// What that seat owes next.
    #[inline]
    pub fn pending(&self) -> Pending {
        self.pending
    }

    /// Throws made so far, bonus throws included.
    #[inline]
    pub fn throws(&self) -> u32 {
        self.throws
    }

    /// Whether `seat`'s first turn of the game is over.
    #[inline]
    pub fn first_turn_over(&self, seat: Seat) -> bool {
        seat < 2 && self.opened & (1 << seat) != 0
    }

    /// `seat`'s unmoved pieces' circuit positions: bit `p` where its piece at `p` is
    /// unmoved (only positions 0..5 can be).
    #[inline]
    pub fn unmoved_positions(&self, seat: Seat) -> u32 {
        if seat < 2 {
            self.unmoved[seat] as u32
        } else {
            0
        }
    }

    /// Whether the turn goes on from a regular sig: a lead throw of this turn granted
    /// another, so the lead throw due (or made) is not the turn's first.
    #[inline]
    pub fn turn_goes_on(&self) -> bool {
        self.goes_on
    }

    /// The piece on `square`, with its owner.
    pub fn piece_at(&self, square: Square) -> Option<(Seat, Piece)> {
        let seat = (0..2).find(|&s| self.occupied(s) & square.bit() != 0)?;
        let pos = self.pos_on(seat, square.0);
        Some((
            seat,
            Piece {
                pos,
                unmoved: pos < 8 && self.unmoved[seat] & (1 << pos) != 0,
            },
        ))
    }

    /// How many enemy pieces `seat` has captured.
    pub fn captured_by(&self, seat: Seat) -> u8 {
        match seat {
            0 | 1 => (PIECES as u8).saturating_sub(self.count(1 - seat)),
            _ => 0,
        }
    }

    /// The position of `seat`'s piece on square index `sq` (which must hold one).
    #[inline(always)]
    fn pos_on(&self, seat: usize, sq: u8) -> u8 {
        let p = FIRST_POS[seat & 1][(sq as usize) % 18];
        if self.at[seat & 1] & (1 << p) != 0 {
            p
        } else {
            p + 12
        }
    }

    /// Whether a side has lost its last piece.
    #[inline(always)]
    fn captured_all(&self) -> bool {
        self.at[0] == 0 || self.at[1] == 0
    }

    /// Moves `seat`'s piece at position `from` to position `to` (both < 24), capturing an
    /// enemy piece on the landing square. The piece is now moved.
    #[inline(always)]
    fn move_piece(&mut self, seat: usize, from: u8, to: u8) {
        let seat = seat & 1;
        let enemy = seat ^ 1;
        let taken = self.at[enemy] & ENEMY_ON[seat][to as usize & 63];
        self.at[enemy] &= !taken;
        self.unmoved[enemy] &= !(taken as u8);
        self.at[seat] = (self.at[seat] & !(1 << (from & 31))) | 1 << (to & 31);
        self.unmoved[seat] &= !(1u32 << (from & 31)) as u8;
    }

    /// Whether `seat`'s piece at position `from` may go `steps` forward: its landing square
    /// holds no *other* own piece.
    #[inline(always)]
    fn can_go(&self, seat: usize, from: u8, steps: u8) -> bool {
        let others = self.at[seat & 1] & !(1 << (from & 31));
        with_twins(others) & 1 << WRAP[(from + steps) as usize & 63] == 0
    }

    /// Bit `p`: `seat`'s piece at position `p` may go `v` (1..=30) steps, its landing square
    /// holding no other own piece (whether it may move at all, being unmoved, is not asked).
    #[inline(always)]
    fn can_go_mask(&self, seat: usize, v: u8) -> u32 {
        let at = self.at[seat & 1];
        let mut blocked = back(with_twins(at), v) & at;
        // Where a piece lands on its own square, only it is there.
        if v == 12 {
            blocked &= !CENTRAL;
        } else if v == 24 {
            blocked = 0;
        }
        at & !blocked
    }

    /// Whether `free_all` is legal for `seat` with value `v`: at least two unmoved pieces,
    /// and no step (nor the first piece's last move) lands on an own piece.
    #[inline]
    fn free_all_ok(&self, seat: usize, v: u8) -> bool {
        let seat = seat & 1;
        let mut u = self.unmoved[seat];
        let m = u.count_ones() as u8;
        if m < 2 {
            return false;
        }
        let mut at = self.at[seat];
        let first = 7 - u.leading_zeros() as u8;
        while u != 0 {
            let p = 7 - u.leading_zeros() as u8;
            u &= !(1 << p);
            at &= !(1 << p);
            if with_twins(at) & 1 << (p + 1) != 0 {
                return false;
            }
            at |= 1 << (p + 1);
        }
        at &= !(1 << (first + 1));
        with_twins(at) & 1 << WRAP[(first + 1 + v.saturating_sub(m)) as usize & 63] == 0
    }

    /// Makes `free_all` for `seat` with value `v` (legal).
    #[inline]
    fn free_all(&mut self, seat: usize, v: u8) {
        let seat = seat & 1;
        let mut u = self.unmoved[seat];
        let m = u.count_ones() as u8;
        if u == 0 {
            return;
        }
        let first = 7 - u.leading_zeros() as u8;
        while u != 0 {
            let p = 7 - u.leading_zeros() as u8;
            u &= !(1 << p);
            self.move_piece(seat, p, p + 1);
        }
        let to = WRAP[(first + 1 + v.saturating_sub(m)) as usize & 63];
        self.move_piece(seat, first + 1, to);
    }
}

/// The start: six unmoved pieces a side at positions 0..5, P1 to make a lead throw.
const INITIAL_STATE: State = {
    State {
        at: [0x3f; 2],
        unmoved: [0x3f; 2],
        turn: 0,
        pending: Pending::Lead,
        throws: 0,
        opened: 0,
        goes_on: false,
    }
};

/// Sig (El Oued Capture) for two players, with its rule options.
///
/// Options: `max_throws` (the throw cap, default 10 000), `sig_of_twelve_first_turn_only`
/// and `five_polished_moves_five` (both default false; see the module docs).
///
/// ```
/// use stickdice::games::SigElOuedCapture;
/// use stickdice::{ActionList, Game, Node, Throw};
/// let game = SigElOuedCapture::with_seats(2).unwrap();
/// assert!(SigElOuedCapture::with_seats(3).is_err()); // two players only
/// let mut state = game.initial_state();
/// game.apply_throw(&mut state, Throw::new(5)).unwrap(); // a regular sig
/// assert_eq!(game.node(&state), Node::Decide(0));
/// let mut legal = ActionList::new();
/// game.legal_actions(&state, &mut legal);
/// assert_eq!(legal.iter().map(|a| a.to_string()).collect::<Vec<_>>(), ["f1"]);
/// game.apply_action(&mut state, legal[0]).unwrap();
/// assert_eq!(game.node(&state), Node::Throw(0)); // the sig's lead throw
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SigElOuedCapture {
    max_throws: u32,
    sig_of_twelve_first_turn_only: bool,
    five_polished_moves_five: bool,
}

impl SigElOuedCapture {
    /// The throw cap (rule option `max_throws`).
    pub fn max_throws(&self) -> u32 {
        self.max_throws
    }

    /// Rule option `sig_of_twelve_first_turn_only`.
    pub fn sig_of_twelve_first_turn_only(&self) -> bool {
        self.sig_of_twelve_first_turn_only
    }

    /// Rule option `five_polished_moves_five`.
    pub fn five_polished_moves_five(&self) -> bool {
        self.five_polished_moves_five
    }

    /// The move value awaiting its action: (V, sig value, five polished usable as a plain
    /// 5), or `None` where no decision is due.
    #[inline(always)]
    fn value(&self, s: &State) -> Option<(u8, bool, bool)> {
        match s.pending {
            Pending::Sig { polished } => {
                Some((1, true, polished == 5 && self.five_polished_moves_five))
            }
            Pending::Value { steps, sig } => Some((steps, sig, false)),
            _ => None,
        }
    }

    /// Ends the action: another lead throw after a regular sig, else the other seat's turn
    /// (nothing after the last capture).
    #[inline(always)]
    fn after_action(&self, s: &mut State, again: bool) {
        s.pending = Pending::Lead;
        s.goes_on = again;
        if s.captured_all() || again {
            return;
        }
        s.opened |= 1 << (s.turn & 1);
        s.turn ^= 1;
    }

    /// Whether a throw of six rough sides is a sig of twelve for the seat to throw.
    #[inline(always)]
    fn twelve_is_sig(&self, s: &State) -> bool {
        !self.sig_of_twelve_first_turn_only || s.opened & (1 << (s.turn & 1)) == 0
    }

    /// The square an action moves a piece from and the square that piece ends on, read
    /// without making it: a move's piece and landing; for `free_all`, the first piece's
    /// start square and where it ends. `None` for `pass`, where no decision is due, or where
    /// the mover has no piece on the action's square.
    ///
    /// ```
    /// use stickdice::games::sig_el_oued_capture::{Action, SigElOuedCapture};
    /// use stickdice::{Game, Throw};
    /// let game = SigElOuedCapture::with_seats(2).unwrap();
    /// let mut s = game.initial_state();
    /// game.apply_throw(&mut s, Throw::new(6)).unwrap(); // a sig of six
    /// game.apply_throw(&mut s, Throw::new(1)).unwrap(); // a regular sig: sig value 7
    /// let (from, to) = game.action_squares(&s, Action::FreeAll).unwrap();
    /// assert_eq!((from.to_string(), to.to_string()), ("f1".to_string(), "e2".to_string()));
    /// ```
    pub fn action_squares(&self, s: &State, action: Action) -> Option<(Square, Square)> {
        let (v, _, five) = self.value(s)?;
        let seat = (s.turn & 1) as usize;
        match action {
            Action::Move(sq) | Action::MoveSteps(sq, _) if s.occupied(seat) & sq.bit() != 0 => {
                let p = s.pos_on(seat, sq.0);
                let steps = self.steps_of(s, seat, p, action, v, five);
                Some((sq, Square(SQUARE_OF[seat][(p + steps) as usize & 63])))
            }
            Action::FreeAll if s.unmoved[seat] != 0 => {
                let u = s.unmoved[seat];
                let first = 7 - u.leading_zeros() as u8;
                let m = u.count_ones() as u8;
                let end = first + 1 + v.saturating_sub(m);
                Some((
                    Square(SQUARE_OF[seat][first as usize]),
                    Square(SQUARE_OF[seat][end as usize & 63]),
                ))
            }
            _ => None,
        }
    }

    /// How many steps `action` moves `seat`'s piece at position `p` with value `v`: the
    /// value, or under `five_polished_moves_five` the steps named (`SQUARE/1`, `SQUARE/5`)
    /// or the piece's one move (1 step if legal, else 5).
    #[inline(always)]
    fn steps_of(&self, s: &State, seat: usize, p: u8, action: Action, v: u8, five: bool) -> u8 {
        match action {
            Action::MoveSteps(_, n) if five && (n == 1 || n == 5) => n,
            _ if five && !(p < 8 && s.unmoved[seat] & (1 << p) != 0) && !s.can_go(seat, p, v) => 5,
            _ => v,
        }
    }

    /// The legal actions of `s` (a decision), written into `buf`; returns how many.
    #[inline(always)]
    fn list_actions(&self, s: &State, buf: &mut [Action; MAX_ACTIONS]) -> usize {
        let Some((v, sig, five)) = self.value(s) else {
            return 0;
        };
        let seat = (s.turn & 1) as usize;
        let mut n = 0;
        if v > 0 {
            let mut own = s.occupied(seat);
            while own != 0 {
                let sq = own.trailing_zeros() as u8;
                own &= own - 1;
                let p = s.pos_on(seat, sq);
                let unmoved = p < 8 && s.unmoved[seat] & (1 << p) != 0;
                if unmoved && !sig {
                    continue;
                }
                let one = s.can_go(seat, p, v);
                if five && !unmoved {
                    let five_ok = s.can_go(seat, p, 5);
                    if one && five_ok {
                        buf[n] = Action::MoveSteps(Square(sq), 1);
                        buf[n + 1] = Action::MoveSteps(Square(sq), 5);
                        n += 2;
                        continue;
                    }
                    if one || five_ok {
                        buf[n] = Action::Move(Square(sq));
                        n += 1;
                    }
                    continue;
                }
                if one {
                    buf[n] = Action::Move(Square(sq));
                    n += 1;
                }
            }
            if sig && v > 1 && s.free_all_ok(seat, v) {
                buf[n] = Action::FreeAll;
                n += 1;
            }
        }
        if n == 0 {
            buf[0] = Action::Pass;
            n = 1;
        }
        n
    }
}

fn polished(k: u8) -> String {
    match k {
        0 => "no polished side up (six rough)".to_string(),
        1 => "1 polished side up (five rough)".to_string(),
        6 => "6 polished sides up (no rough side)".to_string(),
        _ => format!("{k} polished sides up"),
    }
}

impl Game for SigElOuedCapture {
    type State = State;
    type Action = Action;
    const NAME: &'static str = "sig-el-oued-capture";
    const TITLE: &'static str = "Sig (El Oued Capture)";
    const MAX_ACTIONS: usize = 2 * PIECES;
    const SEATS: (usize, usize) = (2, 2);

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        check_seats::<Self>(seats)?;
        Ok(SigElOuedCapture {
            max_throws: DEFAULT_MAX_THROWS,
            sig_of_twelve_first_turn_only: false,
            five_polished_moves_five: false,
        })
    }

    crate::rule_options! {
        max_throws: max_throws() => crate::config::MAX_THROWS_HELP,
        sig_of_twelve_first_turn_only: flag(false) =>
            "six rough sides are a sig of twelve only on the lead throws of the seat's own \
                first turn, a plain 0 (pass) afterwards",
        five_polished_moves_five: flag(false) =>
            "a lead throw of five polished sides, still a regular sig, may instead move a \
                moved piece 5 steps",
    }

    fn seats(&self) -> usize {
        2
    }

    fn max_throws(&self) -> u32 {
        self.max_throws
    }

    #[inline]
    fn initial_state(&self) -> State {
        INITIAL_STATE
    }

    #[inline]
    fn node(&self, s: &State) -> Node {
        if s.captured_all() {
            Node::End
        } else if s.pending.is_decision() {
            Node::Decide(s.turn as Seat)
        } else if s.throws >= self.max_throws {
            Node::End
        } else {
            Node::Throw(s.turn as Seat)
        }
    }

    #[inline]
    fn sticks(&self) -> Sticks {
        Sticks::SIX
    }

    #[inline]
    fn legal_actions(&self, s: &State, out: &mut ActionList<Action>) {
        if s.captured_all() {
            out.clear();
            return;
        }
        let mut buf = [Action::Pass; MAX_ACTIONS];
        let n = self.list_actions(s, &mut buf);
        *out = ActionList::from_buf_and_len(buf, n);
    }

    #[inline]
    fn apply_throw_unchecked(&self, s: &mut State, throw: Throw) {
        let k = throw.marked();
        s.pending = match s.pending {
            Pending::Lead => match k {
                0 if self.twelve_is_sig(s) => Pending::TwelveBonus { left: 3, sum: 0 },
                0 => Pending::Value {
                    steps: 0,
                    sig: false,
                },
                1 | 5 => Pending::Sig { polished: k },
                6 => Pending::SixBonus,
                _ => Pending::Value {
                    steps: k.min(6),
                    sig: false,
                },
            },
            Pending::SixBonus if is_regular_sig(k) => Pending::Value {
                steps: 7,
                sig: true,
            },
            Pending::SixBonus => Pending::Value {
                steps: 6 + k.min(6),
                sig: false,
            },
            Pending::TwelveBonus { .. } if is_regular_sig(k) => Pending::Value {
                steps: 13,
                sig: true,
            },
            Pending::TwelveBonus { left, sum } if left <= 1 => Pending::Value {
                steps: (12 + sum + k.min(6)).min(MAX_VALUE),
                sig: false,
            },
            Pending::TwelveBonus { left, sum } => Pending::TwelveBonus {
                left: left - 1,
                sum: (sum + k.min(6)).min(18),
            },
            // Not a throw node: nothing to apply.
            Pending::Sig { .. } | Pending::Value { .. } => return,
        };
        s.throws = s.throws.saturating_add(1);
    }

    #[inline]
    fn apply_action_unchecked(&self, s: &mut State, action: Action) {
        let Some((v, _, five)) = self.value(s) else {
            return;
        };
        let seat = (s.turn & 1) as usize;
        match action {
            Action::Move(sq) | Action::MoveSteps(sq, _) if s.occupied(seat) & sq.bit() != 0 => {
                let p = s.pos_on(seat, sq.0);
                let steps = self.steps_of(s, seat, p, action, v, five);
                s.move_piece(seat, p, WRAP[(p + steps) as usize & 63]);
            }
            Action::FreeAll => s.free_all(seat, v),
            _ => {}
        }
        self.after_action(s, matches!(s.pending, Pending::Sig { .. }));
    }

    fn ranking(&self, s: &State) -> Option<Ranking> {
        if self.node(s) != Node::End {
            return None;
        }
        let keys = match (s.at[0], s.at[1]) {
            (a, 0) if a != 0 => [0, 1],
            (0, b) if b != 0 => [1, 0],
            _ => [0, 0], // the throw cap: a draw
        };
        Some(Ranking::from_keys(&keys))
    }

    fn throws_made(&self, s: &State) -> u32 {
        s.throws
    }

    fn parse_action(&self, text: &str) -> Result<Action, NotationError> {
        text.parse()
    }

    fn validate(&self, s: &State) -> Result<(), InvalidState> {
        let mut problems = position_problems(&Position::from(*s));
        if s.throws > self.max_throws {
            problems.push(Problem::PastCap {
                throws: s.throws,
                cap: self.max_throws,
            });
        }
        if s.pending
            == (Pending::Value {
                steps: 0,
                sig: false,
            })
            && self.twelve_is_sig(s)
        {
            problems.push(Problem::PlainZero);
        }
        if matches!(s.pending, Pending::TwelveBonus { .. }) && !self.twelve_is_sig(s) {
            problems.push(Problem::TwelveAfterFirstTurn);
        }
        invalid(problems)
    }
}

impl Present for SigElOuedCapture {
    fn render(&self, s: &State) -> String {
        let mut out = String::new();
        let header = "          a  b  c  d  e  f\n";
        out.push_str(header);
        for row in (0..ROWS).rev() {
            // P1 crosses rows 1 and 3 left to right and row 2 right to left; P2 the reverse.
            let arrows = if row == 1 { "1< 2>" } else { "1> 2<" };
            out.push_str(&format!("  {} {arrows} ", row + 1));
            for col in 0..COLS {
                match s.piece_at(Square(row * COLS + col)) {
                    Some((seat, p)) => {
                        let mark = if p.unmoved {
                            '*'
                        } else if p.pos >= 18 {
                            '\''
                        } else {
                            ' '
                        };
                        out.push_str(&format!("{}{} ", seat + 1, mark));
                    }
                    None => out.push_str(".  "),
                }
            }
            out.push_str(&format!("{}", row + 1));
            match row {
                2 => out.push_str("   P2's home row"),
                0 => out.push_str("   P1's home row"),
                _ => {}
            }
            out.push('\n');
        }
        out.push_str(header);
        out.push_str(
            "1/2 = a piece of P1/P2;  * = unmoved (only a sig value frees it);  ' = on the \
             central row the second time in its lap;  1> 2< = P1's and P2's direction of travel\n",
        );
        out.push_str(&format!(
            "Pieces left: P1 {}, P2 {}.  Throws made: {} of {}.\n",
            s.count(0),
            s.count(1),
            s.throws,
            self.max_throws
        ));
        let p = s.turn as usize + 1;
        match self.node(s) {
            Node::End => {
                match self.ranking(s).map(|r| r.places()[0]) {
                    Some(0) if s.at[1] == 0 => out
                        .push_str("Game over: P1 wins, having captured all six of P2's pieces.\n"),
                    Some(1) => out
                        .push_str("Game over: P2 wins, having captured all six of P1's pieces.\n"),
                    _ => out.push_str("Game over at the throw cap: a draw.\n"),
                }
            }
            Node::Throw(_) => out.push_str(&match s.pending {
                Pending::SixBonus => format!("P{p} to make the sig of six's bonus throw.\n"),
                Pending::TwelveBonus { left, sum } => format!(
                    "P{p} to make the sig of twelve's bonus throw {} of 3 (12 + {sum} so far; a \
                     regular sig makes it 13).\n",
                    4 - left.min(3)
                ),
                _ => format!("P{p} to make a lead throw.\n"),
            }),
            Node::Decide(_) => {
                let what = match s.pending {
                    Pending::Sig { polished: 5 } if self.five_polished_moves_five => {
                        "a regular sig (sig value 1, or a plain 5 for a moved piece), then \
                         another lead throw"
                            .to_string()
                    }
                    Pending::Sig { .. } => {
                        "a regular sig (sig value 1), then another lead throw".to_string()
                    }
                    Pending::Value { steps, sig: true } => format!("sig value {steps}"),
                    Pending::Value { steps, .. } => format!("plain {steps}"),
                    _ => String::new(),
                };
                out.push_str(&format!("P{p} to move: {what}.\n"));
            }
        }
        out
    }

    fn describe_throw(&self, s: &State, throw: Throw) -> String {
        let k = throw.marked();
        if k > 6 {
            return format!("{k} polished sides up: impossible with six sticks");
        }
        let up = polished(k);
        let mut text = match s.pending {
            Pending::Lead => match k {
                0 if self.twelve_is_sig(s) => format!(
                    "{up}: a sig of twelve, up to three bonus throws (13 as soon as one is a \
                     regular sig, else 12 + their counts)"
                ),
                0 => format!(
                    "{up}: a plain 0 (a sig of twelve only in the seat's first turn); the turn ends"
                ),
                5 if self.five_polished_moves_five => format!(
                    "{up}: a regular sig, sig value 1 (or a plain 5 for a moved piece), then \
                     another lead throw"
                ),
                1 | 5 => format!("{up}: a regular sig, sig value 1, then another lead throw"),
                6 => format!("{up}: a sig of six, one bonus throw"),
                _ => format!("{up}: plain {k}; the turn ends"),
            },
            Pending::SixBonus if is_regular_sig(k) => {
                format!("sig of six's bonus throw, {up}: a regular sig, sig value 7")
            }
            Pending::SixBonus => format!("sig of six's bonus throw, {up}: plain {}", 6 + k),
            Pending::TwelveBonus { left, .. } if is_regular_sig(k) => format!(
                "sig of twelve's bonus throw {} of 3, {up}: a regular sig, sig value 13",
                4 - left.min(3)
            ),
            Pending::TwelveBonus { left, sum } if left <= 1 => format!(
                "sig of twelve's bonus throw 3 of 3, {up}: plain {}",
                12 + sum as u32 + k as u32
            ),
            Pending::TwelveBonus { left, sum } => format!(
                "sig of twelve's bonus throw {} of 3, {up}: 12 + {} so far",
                4 - left.min(3),
                sum as u32 + k as u32
            ),
            Pending::Sig { .. } | Pending::Value { .. } => {
                return format!(
                    "{up}: no throw is due; P{} must choose an action",
                    s.turn as usize + 1
                )
            }
        };
        let mut after = *s;
        if self.apply_throw(&mut after, throw).is_ok() && after.pending.is_decision() {
            let mut buf = [Action::Pass; MAX_ACTIONS];
            let n = self.list_actions(&after, &mut buf);
            if n == 1 && buf[0] == Action::Pass {
                text.push_str(&format!(
                    "; nothing of P{} can move: pass",
                    after.turn as usize + 1
                ));
            }
        }
        text
    }
}

/// The slot of a random decision's `free_all` (see [`SigElOuedCapture::slots`]).
const FREE_ALL_SLOT: u32 = 24;
/// The first slot of the 5-step moves under `five_polished_moves_five`.
const FIVE_SLOTS: u32 = 32;

impl SigElOuedCapture {
    /// The legal actions of the decision on value `v` (`sig`: a sig value; `five`: five
    /// polished usable as a plain 5) as *slots*, for random choices without a list: bit `p`
    /// (0..23) the move of `seat`'s piece at position `p` by `v`, bit 24 `free_all`, and bit
    /// 32 + `p` the 5-step move of a moved piece at `p`. One slot per legal action, so a
    /// uniform slot is a uniform action; none where the pass is the only action.
    #[inline(always)]
    fn slots(s: &State, seat: usize, v: u8, sig: bool, five: bool) -> u64 {
        if v == 0 {
            return 0;
        }
        let seat = seat & 1;
        let unmoved = s.unmoved[seat] as u32;
        let mut moves = s.can_go_mask(seat, v);
        if !sig {
            moves &= !unmoved;
        }
        let mut slots = moves as u64;
        if sig && v > 1 && unmoved & (unmoved - 1) != 0 && s.free_all_ok(seat, v) {
            slots |= 1 << FREE_ALL_SLOT;
        }
        if five {
            slots |= ((s.can_go_mask(seat, 5) & !unmoved) as u64) << FIVE_SLOTS;
        }
        slots
    }

    /// A uniformly random slot of `slots` (`index(len)` drawn only when there are two or
    /// more), or `None` when there is none.
    #[inline(always)]
    fn random_slot(slots: u64, mut index: impl FnMut(usize) -> usize) -> Option<u32> {
        if slots == 0 {
            return None;
        }
        let mut left = slots;
        // Most decisions have a single action: no count then (a count is a dozen
        // instructions without a POPCNT instruction).
        if slots & (slots - 1) != 0 {
            for _ in 0..index(slots.count_ones() as usize) {
                left &= left - 1;
            }
        }
        Some(left.trailing_zeros())
    }

    /// The action of `slot` among `slots`.
    #[inline(always)]
    fn slot_action(seat: usize, slots: u64, slot: Option<u32>) -> Action {
        let Some(slot) = slot else {
            return Action::Pass;
        };
        let table = &SQUARE_OF[seat & 1];
        if slot == FREE_ALL_SLOT {
            Action::FreeAll
        } else if slot >= FIVE_SLOTS {
            let p = slot - FIVE_SLOTS;
            let sq = Square(table[p as usize & 63]);
            if slots & 1 << p != 0 {
                Action::MoveSteps(sq, 5)
            } else {
                Action::Move(sq)
            }
        } else {
            let sq = Square(table[slot as usize & 63]);
            if slots & 1 << (slot + FIVE_SLOTS) != 0 {
                Action::MoveSteps(sq, 1)
            } else {
                Action::Move(sq)
            }
        }
    }

    /// Makes the action of `slot` for `seat` with value `v`, then ends the action (another
    /// lead throw after a regular sig, else the other seat's turn, nothing after the last
    /// capture).
    #[inline(always)]
    fn play_slot(&self, s: &mut State, seat: usize, v: u8, slot: Option<u32>) {
        let again = matches!(s.pending, Pending::Sig { .. });
        self.play_slot_then(s, seat, v, slot, again);
    }

    /// [`SigElOuedCapture::play_slot`], told whether another lead throw follows (`again`,
    /// after a regular sig).
    #[inline(always)]
    fn play_slot_then(&self, s: &mut State, seat: usize, v: u8, slot: Option<u32>, again: bool) {
        match slot {
            Some(FREE_ALL_SLOT) => s.free_all(seat, v),
            Some(slot) if slot >= FIVE_SLOTS => {
                let p = (slot - FIVE_SLOTS) as u8;
                s.move_piece(seat, p, WRAP[(p + 5) as usize & 63]);
            }
            Some(p) => {
                let p = p as u8;
                s.move_piece(seat, p, WRAP[(p + v) as usize & 63]);
            }
            None => {}
        }
        self.after_action(s, again);
    }
}

impl Playouts for SigElOuedCapture {
    /// The legal actions are counted in a bitmask of *slots* (one per legal action: the
    /// pieces that can move, by circuit position, then `free_all`, then under
    /// `five_polished_moves_five` the 5-step moves) and a uniform one is drawn: every legal
    /// action equally likely, no list built. The order differs from
    /// [`Game::legal_actions`]' (square order), the distribution does not.
    #[inline]
    fn random_action(
        &self,
        s: &State,
        _actions: &mut ActionList<Action>,
        index: impl FnMut(usize) -> usize,
    ) -> Action {
        let Some((v, sig, five)) = self.value(s) else {
            return Action::Pass;
        };
        let seat = (s.turn & 1) as usize;
        let slots = Self::slots(s, seat, v, sig, five);
        Self::slot_action(seat, slots, Self::random_slot(slots, index))
    }

    /// The throws and random decisions in one loop, with the same draws and states as the
    /// step-by-step default ([`Playouts::play_throws`] and
    /// [`Playouts::play_random_action`]): a lead throw of 1 to 5 polished sides goes
    /// straight to its decision, without storing it as pending; other throws go through
    /// [`Game::apply_throw_unchecked`]. A decision already due is made first. Kept out of
    /// line: a whole game's loop, which would crowd the searches that can call it.
    #[inline(never)]
    fn play_random_to_end<R: rand::Rng + ?Sized>(
        &self,
        s: &mut State,
        bits: &mut crate::play::RandomBits,
        rng: &mut R,
    ) {
        let mut b = *bits;
        let max = self.max_throws;
        let five_option = self.five_polished_moves_five;
        'game: while !s.captured_all() {
            let (v, sig, five) = match s.pending {
                Pending::Lead => {
                    // Lead throws of 1 to 5 polished sides and their decisions, on a copy
                    // the compiler keeps in registers; a sig of six or twelve leaves it.
                    let mut t = *s;
                    let exit = loop {
                        if t.captured_all() || t.throws >= max {
                            break None;
                        }
                        let k = b.throw(rng, Sticks::SIX).marked();
                        let (v, sig, five) = match k {
                            2..=4 => (k, false, false),
                            1 | 5 => (1, true, k == 5 && five_option),
                            _ => break Some(k),
                        };
                        t.throws += 1;
                        let seat = (t.turn & 1) as usize;
                        let slots = Self::slots(&t, seat, v, sig, five);
                        let slot = Self::random_slot(slots, |len| b.index(rng, len));
                        self.play_slot_then(&mut t, seat, v, slot, sig);
                    };
                    *s = t;
                    match exit {
                        Some(k) => {
                            self.apply_throw_unchecked(s, Throw::new(k));
                            continue 'game;
                        }
                        None => break 'game,
                    }
                }
                Pending::Sig { .. } | Pending::Value { .. } => match self.value(s) {
                    Some(value) => value,
                    None => break,
                },
                Pending::SixBonus | Pending::TwelveBonus { .. } => {
                    if s.throws >= max {
                        break;
                    }
                    let k = b.throw(rng, Sticks::SIX);
                    self.apply_throw_unchecked(s, k);
                    continue 'game;
                }
            };
            let seat = (s.turn & 1) as usize;
            let slots = Self::slots(s, seat, v, sig, five);
            let slot = Self::random_slot(slots, |len| b.index(rng, len));
            self.play_slot(s, seat, v, slot);
        }
        *bits = b;
    }

    /// [`Playouts::random_action`]'s slot, made without looking for its piece again.
    #[inline]
    fn play_random_action(
        &self,
        s: &mut State,
        _actions: &mut ActionList<Action>,
        index: impl FnMut(usize) -> usize,
    ) -> Action {
        let Some((v, sig, five)) = self.value(s) else {
            return Action::Pass;
        };
        if s.captured_all() {
            return Action::Pass; // an ended game: nothing to decide
        }
        let seat = (s.turn & 1) as usize;
        let slots = Self::slots(s, seat, v, sig, five);
        let slot = Self::random_slot(slots, index);
        let action = Self::slot_action(seat, slots, slot);
        self.play_slot(s, seat, v, slot);
        action
    }
}

// ---- The drawing ---------------------------------------------------------------------

use crate::board::{
    circuit_piece, home_rows_grid, Arrow, Board, BoardGeometry, BoardMove, ChosenBy, PlacedPiece,
    StickFaces, Track,
};

impl Board for SigElOuedCapture {
    fn geometry(&self) -> BoardGeometry {
        let squares = home_rows_grid(ROWS * COLS, ROWS, |i| {
            let sq = Square::from_index(i).expect("on the board");
            (sq.row(), sq.col(), sq.to_string())
        });
        let tracks: Vec<Track> = (0..2)
            .map(|seat| Track {
                seat: Some(seat),
                squares: (0..CIRCUIT_LEN)
                    .filter_map(|p| circuit_square(seat, p).map(|q| q.index() as usize))
                    .collect(),
                loops_to: Some(0),
            })
            .collect();
        // The two sides cross every row in opposite directions: P1's arrow in the lower half
        // of each row, P2's in the upper half.
        let mut arrows = Vec::new();
        for row in 0..ROWS {
            let y = (2 - row) as f64;
            // P1 goes left to right on the home rows, right to left on the central row.
            let p1_right = row != 1;
            for (seat_y, right) in [(y + 0.8, p1_right), (y + 0.2, !p1_right)] {
                let (x1, x2) = if right { (0.4, 5.6) } else { (5.6, 0.4) };
                arrows.push(Arrow {
                    x1,
                    y1: seat_y,
                    x2,
                    y2: seat_y,
                });
            }
        }
        let starts = (0..2)
            .map(|seat| circuit_square(seat, 0).map_or(0, |q| q.index() as usize))
            .collect();
        BoardGeometry {
            width: 6.0,
            height: 3.0,
            squares,
            chosen_by: ChosenBy::Square,
            tracks,
            starts,
            arrows,
            sticks: StickFaces {
                count: 6,
                marked: "polished",
                unmarked: "rough",
            },
            legend: "each seat runs its six pieces round a 24-step circuit: its home row, the \
                     central row, the other home row, the central row again (P1's direction is \
                     the lower arrow of each row, P2's the upper); a dashed piece is unmoved \
                     (only a sig value frees it); a piece marked ' crosses the central row the \
                     second time in its lap",
        }
    }

    fn pieces(&self, s: &State) -> Vec<PlacedPiece> {
        let mut out = Vec::new();
        for seat in 0..2 {
            for p in s.pieces_of(seat) {
                let Some(sq) = circuit_square(seat, p.pos) else {
                    continue;
                };
                let returning = (p.pos >= 18).then_some(", on the central row the second time");
                out.push(circuit_piece(
                    sq.index() as usize,
                    &sq,
                    seat,
                    p.pos,
                    p.unmoved,
                    returning,
                ));
            }
        }
        out
    }

    fn moves(&self, s: &State) -> Vec<BoardMove> {
        let mut legal = ActionList::new();
        self.legal_actions(s, &mut legal);
        legal
            .iter()
            .map(|&a| {
                let squares = self.action_squares(s, a);
                BoardMove {
                    action: a.to_string(),
                    from: squares.map(|(f, _)| f.index() as usize),
                    to: squares.map(|(_, t)| t.index() as usize),
                }
            })
            .collect()
    }

    fn describe_action(&self, s: &State, action: Self::Action) -> String {
        let seat = s.turn();
        let p = seat + 1;
        let mut after = *s;
        if self.apply_action(&mut after, action).is_err() {
            return format!("P{p} cannot play {action} here");
        }
        let taken = s.count(1 - seat) - after.count(1 - seat);
        let mut text = match (action, self.action_squares(s, action)) {
            (Action::Pass, _) | (_, None) => format!("P{p} passes: nothing can move"),
            (Action::FreeAll, Some((_, to))) => format!(
                "P{p} frees all {} unmoved pieces one step each, and the first goes on to {to}",
                s.unmoved_count(seat)
            ),
            (_, Some((from, to))) => format!("P{p} moves the piece on {from} to {to}"),
        };
        if taken > 0 {
            text.push_str(&format!(
                ", capturing {} of P{}'s pieces ({} left)",
                taken,
                2 - seat,
                after.count(1 - seat)
            ));
        }
        if matches!(s.pending(), Pending::Sig { .. }) && taken < s.count(1 - seat) {
            text.push_str("; the sig gives another lead throw");
        }
        text
    }

    fn describe_change(&self, b: &State, a: &State) -> Vec<String> {
        (0..2)
            .filter(|&seat| a.count(seat) < b.count(seat))
            .map(|seat| {
                format!(
                    "P{} loses {} ({} left){}",
                    seat + 1,
                    match b.count(seat) - a.count(seat) {
                        1 => "a piece".to_string(),
                        n => format!("{n} pieces"),
                    },
                    a.count(seat),
                    if a.count(seat) == 0 {
                        format!(": P{} wins", 2 - seat)
                    } else {
                        String::new()
                    }
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every configuration, with caps that cut games short.
    fn games() -> Vec<SigElOuedCapture> {
        let mut out = Vec::new();
        for mut g in crate::testing::configurations::<SigElOuedCapture>() {
            out.push(g.clone());
            g.max_throws = 25;
            out.push(g);
        }
        out
    }

    /// `can_go_mask` is `can_go` piece by piece, for every value, at every position of
    /// random games.
    #[test]
    fn can_go_mask_is_can_go_for_each_piece() {
        use rand::SeedableRng as _;
        let mut rng = crate::Rng::seed_from_u64(3);
        let mut checked = 0;
        for s in crate::testing::random_game_positions(&game(), 100, &mut rng) {
            for seat in 0..2 {
                for v in 1..=MAX_VALUE {
                    let want = s
                        .pieces_of(seat)
                        .filter(|p| s.can_go(seat, p.pos, v))
                        .fold(0u32, |m, p| m | 1 << p.pos);
                    assert_eq!(s.can_go_mask(seat, v), want, "{s:?} {seat} {v}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    fn game() -> SigElOuedCapture {
        SigElOuedCapture::with_seats(2).unwrap()
    }

    /// The slots are the legal actions: one slot per legal action, each the action
    /// `legal_actions` lists, at every decision of random games of every configuration.
    #[test]
    fn the_slots_are_the_legal_actions() {
        use rand::SeedableRng as _;
        let mut rng = crate::Rng::seed_from_u64(4);
        let (mut decisions, mut free_alls, mut fives) = (0, 0, 0);
        for g in games() {
            for s in crate::testing::random_game_positions(&g, 60, &mut rng) {
                let Some((v, sig, five)) = g.value(&s) else {
                    continue;
                };
                let seat = s.turn as usize;
                let slots = SigElOuedCapture::slots(&s, seat, v, sig, five);
                let mut from_slots: Vec<Action> = (0..64)
                    .filter(|i| slots & 1 << i != 0)
                    .map(|i| SigElOuedCapture::slot_action(seat, slots, Some(i)))
                    .collect();
                if from_slots.is_empty() {
                    from_slots.push(Action::Pass);
                }
                let mut legal = ActionList::new();
                g.legal_actions(&s, &mut legal);
                let mut listed: Vec<Action> = legal.to_vec();
                from_slots.sort();
                listed.sort();
                assert_eq!(from_slots, listed, "{s:?}");
                decisions += 1;
                free_alls += listed.contains(&Action::FreeAll) as u32;
                fives += listed.iter().any(|a| matches!(a, Action::MoveSteps(..))) as u32;
            }
        }
        assert!(
            decisions > 20_000 && free_alls > 20 && fives > 100,
            "{decisions} {free_alls} {fives}"
        );
    }

    /// `play_random_action` makes the same draws, chooses the same action and reaches the
    /// same state as `random_action` then `apply_action_unchecked`, at every decision of
    /// random games of every configuration.
    #[test]
    fn play_random_action_is_random_action_then_apply() {
        use rand::{RngExt as _, SeedableRng as _};
        let mut rng = crate::Rng::seed_from_u64(5);
        let mut decisions = 0;
        for g in games() {
            for _ in 0..40 {
                let mut state = g.initial_state();
                loop {
                    match g.node(&state) {
                        Node::Throw(_) => {
                            let t = g.sample_throw(&mut rng);
                            g.apply_throw_unchecked(&mut state, t);
                        }
                        Node::Decide(_) => {
                            let (mut a, mut b) = (rng.clone(), rng.clone());
                            let mut fused = state;
                            let mut scratch = ActionList::new();
                            let got = g.play_random_action(&mut fused, &mut scratch, |len| {
                                a.random_range(0..len)
                            });
                            let want =
                                g.random_action(&state, &mut scratch, |len| b.random_range(0..len));
                            let mut plain = state;
                            g.apply_action(&mut plain, want).unwrap();
                            assert_eq!((got, fused), (want, plain));
                            assert_eq!(a, b, "the same draws");
                            state = fused;
                            rng = a;
                            decisions += 1;
                        }
                        Node::End => break,
                    }
                }
            }
        }
        assert!(decisions > 20_000, "{decisions}");
    }

    /// `play_random_to_end` makes the same draws and reaches the same state as the
    /// step-by-step default, from the start and from every position of random games (throws
    /// due, bonus throws due, decisions due), under every configuration and small caps.
    #[test]
    fn play_random_to_end_is_the_step_by_step_default() {
        use crate::play::{random_to_end_step_by_step, RandomBits};
        use rand::SeedableRng as _;
        let mut rng = crate::Rng::seed_from_u64(6);
        let mut starts = 0;
        for g in games() {
            for s in crate::testing::random_game_positions(&g, 30, &mut rng) {
                let (mut fast, mut slow) = (s, s);
                let (mut bits_fast, mut bits_slow) = (RandomBits::new(), RandomBits::new());
                let (mut rng_fast, mut rng_slow) = (rng.clone(), rng.clone());
                g.play_random_to_end(&mut fast, &mut bits_fast, &mut rng_fast);
                random_to_end_step_by_step(&g, &mut slow, &mut bits_slow, &mut rng_slow);
                assert_eq!(
                    (fast, bits_fast, &rng_fast),
                    (slow, bits_slow, &rng_slow),
                    "{s:?}"
                );
                assert!(g.is_over(&fast));
                rng = rng_fast;
                starts += 1;
            }
        }
        assert!(starts > 20_000, "{starts}");
    }

    #[test]
    fn the_circuit_tables_agree() {
        for seat in 0..2 {
            let mut seen = [0u8; 18];
            for p in 0..24u8 {
                let sq = SQUARE_OF[seat][p as usize];
                seen[sq as usize] += 1;
                let first = FIRST_POS[seat][sq as usize];
                assert!(first == p || first + 12 == p, "{seat} {p}");
                assert_eq!(SQUARE_OF[seat][p as usize + 24], sq);
                assert_eq!(SQUARE_OF[1 - seat][p as usize], 17 - sq);
            }
            // Home rows once per lap, the central row twice.
            for (sq, &n) in seen.iter().enumerate() {
                assert_eq!(n, if sq / 6 == 1 { 2 } else { 1 }, "{seat} {sq}");
            }
        }
    }

    #[test]
    fn the_value_sets_are_the_bonus_sums() {
        assert_eq!(PLAIN_VALUES & 0x7f, 1 | 1 << 2 | 1 << 3 | 1 << 4 | 1 << 6);
        assert_eq!(
            [INITIAL_STATE.occupied(0), INITIAL_STATE.occupied(1)],
            [0x3f, 0x3f << 12]
        );
    }
}
