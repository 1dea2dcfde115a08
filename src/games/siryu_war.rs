//! Siryu (War) — the capture game of the Tabelbala oasis (Algeria), `docs/games/siryu-war.md`
//! section 8: twelve pieces a side, each unlocked by a sir in its owner's colour, run out of
//! their home row into an endless loop through the two middle rows, capturing by landing.
//!
//! # The rules as implemented
//!
//! * **Seats:** exactly two. P1 (seat 0) sits at the bottom (row 0, `1` in notation) and
//!   plays **white**; P2 (seat 1) sits at the top (row 3, `4` in notation) and plays
//!   **black**. P1 throws first.
//! * **Board:** 4 rows × 12 columns, at most one piece per square. Squares are written
//!   column letter + row number as P1 sees the board, as in Issiren: columns `a`..`l` (left
//!   to right as P1 sees them), rows `1`..`4`, so the spec's square (r, c) is column
//!   `a + c`, row `r + 1` (`a1` is (0,0), `l4` is (3,11)).
//! * **Circuit:** 36 positions per seat ([`circuit_square`]). Seat 0: positions 0–11 are
//!   its home row left to right (`a1` → `l1`), 12–23 the second row right to left
//!   (`l2` → `a2`), 24–35 the third row left to right (`a3` → `l3`). Seat 1's square is seat
//!   0's turned half a turn, (r, c) → (3 − r, 11 − c): its home row `l4` → `a4`, then `a3` →
//!   `l3`, then `l2` → `a2`. After position 35 comes position 12 again, so the two middle
//!   rows are one 24-square loop that both sides run the same way, and no value is ever too
//!   large. Seat 0 joins the loop at `l2`, seat 1 at `a3`. A square lies on one position of
//!   each circuit (the enemy's home row on none), so a piece's square gives its position;
//!   whether it is *locked* is a property of the piece.
//! * **Start:** each side's twelve pieces on its home row, all locked.
//! * **Throws:** six black/white sticks; the count `w` of white sides up, probability
//!   C(6, w)/64, gives the value ([`throw_value`], [`grants_extra_throw`]). All seven counts
//!   are distinct chance outcomes, though some share a value: `w` = 1 and `w` = 5 are the two
//!   colour sirs.
//!
//!   | w | 0 | 1 | 2 | 3 | 4 | 5 | 6 |
//!   |---|---|---|---|---|---|---|---|
//!   | probability | 1/64 | 6/64 | 15/64 | 20/64 | 15/64 | 6/64 | 1/64 |
//!   | value | 6 | 5 | 0 | 3 | 0 | 5 | 6 |
//!   | extra throw | no | yes | no | no | no | yes | no |
//!   | name | | sir, P2's colour (black) | | | | sir, P1's colour (white) | |
//!
//!   Values: 0 with probability 30/64, 3 with 20/64, 5 with 12/64, 6 with 2/64.
//! * **Moves:** after every throw the thrower decides ([`Node::Decide`]), even when there is
//!   a single action. One piece moves forward along its circuit by exactly the value:
//!   * a locked piece may move only on the sir in its owner's colour ([`colour_sir`]:
//!     `w` = 5 for P1, `w` = 1 for P2); it then moves 5 and is unlocked (one move). A piece
//!     unlocked onto a square of its own home row (from position 0–6 to 5–11) stays
//!     unlocked there;
//!   * an unlocked piece may move on any throw of value 3, 5 or 6, either sir included;
//!   * the destination must not hold one of the mover's own pieces (locked or not); squares
//!     passed over are ignored; landing on an enemy piece captures it (it leaves the game).
//!
//!   If no piece can move — always after a value of 0 — the only action is
//!   [`Action::Pass`]. Moving is compulsory otherwise.
//! * **Turns:** a sir of either colour (`w` = 1 or 5) gives an extra throw whether or not a
//!   piece moved (after a pass too); any other throw ends the turn.
//! * **End:** the side that captures all twelve enemy pieces wins, and the game ends at once
//!   (an extra throw still due is not made). At the throw cap (rule option `max_throws`,
//!   default 10 000) the game ends as a draw once the cap-th throw's decision has been made.
//!   No enemy ever enters a home row, so locked pieces cannot be captured.
//!
//! # Notation
//!
//! An action is the square of the piece to move (`h1`, `c3`, …) or `pass`, exactly as
//! [`Action`]'s `Display` prints it; parsing ignores case and surrounding spaces. Legal
//! actions are listed in the mover's **circuit order** (its home row from position 0, then
//! the loop from position 12 to 35): for P1 `a1` … `l1`, `l2` … `a2`, `a3` … `l3`; for P2
//! `l4` … `a4`, `a3` … `l3`, `l2` … `a2`. A pass is listed alone.
//!
//! # Readings chosen where `docs/games/siryu-war.md` is silent
//!
//! the readings (`docs/games/readings.md`) settles the colours (P1 white, its sir five white), unlocking (the
//! colour sir unlocks and moves 5 in one move), the other sir (it moves unlocked pieces
//! only; both sirs give an extra throw), the circuit (the home row once, then the middle
//! rows forever) and Issiren's conventions (own pieces block, landing captures, passing
//! does nothing, a 0 is a `pass`, the throw cap makes a draw). Beyond those, following
//! the readings' way of reading (Issiren's conventions, `docs/games/issiren.md`):
//!
//! * **A colour sir with both kinds of piece.** The player chooses between unlocking a
//!   locked piece and moving an unlocked one 5; nothing has priority (Issiren's release
//!   throw: "the player chooses between releasing an unmoved piece and stepping a moved
//!   one").
//! * **The other seat's sir** moves the thrower's unlocked pieces 5 and grants the thrower
//!   the extra throw; it never unlocks, and it does nothing for the seat whose colour it is.
//! * **Unlocking within the home row.** A locked piece whose move of 5 ends on its own home
//!   row (positions 0–6 → 5–11) must find that square free of its own pieces like any move;
//!   at the start only positions 7–11 can go (worked example 1).
//! * **A sir with nothing to move** is a `pass` that keeps the extra throw.
//! * **The twelfth capture on a sir** ends the game at once; the extra throw is not made.
//!   When the twelfth capture comes from the cap-th throw, the capture decides the game (a
//!   win, not a draw), as the conventions (`docs/games/conventions.md`) say.
//! * **The throw count** counts every throw, extra throws included; after a game ended by
//!   capture the turn stays with the capturing seat and no throw is pending.
//! * **Order of legal actions:** circuit order (see Notation), so the list is the set bits
//!   of a bitboard of the mover's positions and needs no sorting.
//!
//! # State
//!
//! [`State`] is plain `Copy` data, its fields private so every state is valid:
//! each side's pieces as a bitboard of positions on its own circuit (bit `p` is position
//! `p`, 0..35), each side's locked pieces as a sub-bitboard of its home row, whose turn it
//! is, the pending throw between a throw and its decision, and the throw count. Build
//! positions from a [`Position`] with `State::try_from` (which checks every invariant a
//! state has by itself; the throw cap is checked by [`Game::validate`]), read them with the
//! accessors.
//!
//! In JSON a state lists each side's pieces by square, locked and unlocked, in circuit
//! order: `{"locked": [["a1", …, "l1"], ["l4", …, "a4"]], "unlocked": [[], []], "turn": 0,
//! "pending": null, "throws": 0}` (`pending` is the number of white sides up of the throw
//! awaiting its move; `turn`, `pending` and `throws` may be left out, meaning 0, null and
//! 0). Reading a state checks it as `State::try_from` a [`Position`] does.

use core::fmt;
use core::str::FromStr;

use super::common::{invalid, notation_as_string};
use crate::board::{
    Arrow, Board, BoardGeometry, BoardMove, ChosenBy, PlacedPiece, SquareInfo, StickFaces, Track,
};
use crate::config::{check_seats, DEFAULT_MAX_THROWS};
use crate::dice::{Sticks, Throw};
use crate::game::{
    ActionList, ConfigError, Game, InvalidState, Node, NotationError, Playouts, ProblemKind,
    Ranking, Seat, MAX_ACTIONS,
};
use crate::present::Present;

/// Pieces per side at the start.
pub const PIECES: usize = 12;
/// Positions of a circuit: the home row (0..11) and the loop (12..35).
pub const CIRCUIT_LEN: u8 = 36;
/// The first position of the loop through the middle rows; position 35 leads back to it.
pub const LOOP_START: u8 = 12;
/// Rows of the board.
pub const ROWS: u8 = 4;
/// Columns of the board.
pub const COLS: u8 = 12;
/// The number of white sides up of each seat's colour sir: five white for P1 (white),
/// five black (one white) for P2 (black).
pub const COLOUR_SIR: [Throw; 2] = [Throw::new(5), Throw::new(1)];

/// Value by number of white sides up (index `w & 7`; entry 7 is unused).
const VALUE: [u8; 8] = [6, 5, 0, 3, 0, 5, 6, 0];
/// Whether the throw is a sir and grants an extra throw (index `w & 7`).
const EXTRA: [bool; 8] = [false, true, false, false, false, true, false, false];
/// The home row's positions.
const HOME: u64 = (1 << PIECES) - 1;
/// Home-row positions no unlocked piece can stand on: unlocking moves a piece 5 on.
const BEFORE_UNLOCK: u64 = (1 << 5) - 1;

/// `UNLOCKED_MOVE[w]`: all ones where a throw of `w` white sides moves unlocked pieces
/// (value 3, 5 or 6), else 0.
const UNLOCKED_MOVE: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut w = 0;
    while w < 8 {
        if VALUE[w] != 0 {
            t[w] = u64::MAX;
        }
        w += 1;
    }
    t
};

/// `LOCKED_MOVE[seat][w]`: all ones where `w` is `seat`'s colour sir, else 0.
const LOCKED_MOVE: [[u64; 8]; 2] = {
    let mut t = [[0u64; 8]; 2];
    t[0][5] = u64::MAX;
    t[1][1] = u64::MAX;
    t
};

/// The square index (`row * 12 + col`) of seat 0's circuit position `pos` (0..35).
const fn seat0_square(pos: usize) -> u8 {
    let p = (pos % CIRCUIT_LEN as usize) as u8;
    match p {
        0..=11 => p,       // home row, left to right
        12..=23 => 35 - p, // row 1, right to left: 12 -> l2 (23), 23 -> a2 (12)
        _ => p,            // row 2, left to right: 24 -> a3 (24), 35 -> l3 (35)
    }
}

/// No position: a square of the enemy's home row.
const OFF: u8 = u8::MAX;

/// `SQUARE_OF[seat][pos]`: the square index of position `pos` of `seat`'s circuit. Indexed
/// by `pos & 63`; entries past 35 repeat the circuit modulo 36 (never used by the rules).
static SQUARE_OF: [[u8; 64]; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut i = 0;
    while i < 64 {
        t[0][i] = seat0_square(i);
        // Half a turn: (r, c) -> (3 - r, 11 - c), index -> 47 - index.
        t[1][i] = 47 - seat0_square(i);
        i += 1;
    }
    t
};

/// `POS_OF[seat][square]`: the position of square index `square` on `seat`'s circuit, or
/// [`OFF`] on the enemy's home row. Indexed by `square & 63` (48..63 are [`OFF`]).
static POS_OF: [[u8; 64]; 2] = {
    let mut t = [[OFF; 64]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut p = 0;
        while p < CIRCUIT_LEN as usize {
            t[seat][SQUARE_OF[seat][p] as usize] = p as u8;
            p += 1;
        }
        seat += 1;
    }
    t
};

/// `ENEMY_BIT[pos]`: the bit, on the enemy's circuit, of the square at position `pos` of the
/// mover's circuit (0 on the mover's home row, where the enemy never is). The loops are the
/// same 24 squares half a loop apart: loop position `q` is the enemy's `q ± 12`. Indexed by
/// `pos & 63`.
static ENEMY_BIT: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut q = LOOP_START as usize;
    while q < CIRCUIT_LEN as usize {
        let e = if q < 24 { q + 12 } else { q - 12 };
        t[q] = 1 << e;
        q += 1;
    }
    t
};

/// Position `pos` (0..35) moved `steps` (0..6) forward: after 35 comes 12.
#[inline(always)]
const fn advance(pos: u8, steps: u8) -> u8 {
    let q = pos + steps;
    if q >= CIRCUIT_LEN {
        q - (CIRCUIT_LEN - LOOP_START)
    } else {
        q
    }
}

/// The positions from which a move of `v` (1..6) lands on one of `own`'s positions: `own`
/// shifted back by `v` along the circuit, the loop's first `v` positions also reached from
/// its last ones.
#[inline(always)]
const fn landing_on(own: u64, v: u32) -> u64 {
    let wrap = ((own >> LOOP_START) & ((1u64 << v) - 1)) << (CIRCUIT_LEN as u32 - v);
    (own >> v) | wrap
}

/// The positions of `seat`'s pieces that can move on a throw of `w` white sides (`w` < 8):
/// unlocked ones on a value of 3, 5 or 6, locked ones on the seat's colour sir, in each case
/// where the landing holds no own piece.
#[inline(always)]
fn movable(pieces: u64, locked: u64, seat: usize, w: usize) -> u64 {
    let candidates =
        (pieces & !locked & UNLOCKED_MOVE[w & 7]) | (locked & LOCKED_MOVE[seat & 1][w & 7]);
    candidates & !landing_on(pieces, u32::from(VALUE[w & 7]).max(1))
}

/// The square `seat`'s piece at circuit position `pos` (0..35) stands on, or `None` if the
/// seat is not 0 or 1 or the position is off the circuit.
///
/// ```
/// use stickdice::games::siryu_war::circuit_square;
/// assert_eq!(circuit_square(0, 0).unwrap().to_string(), "a1");
/// assert_eq!(circuit_square(0, 12).unwrap().to_string(), "l2");
/// assert_eq!(circuit_square(1, 12).unwrap().to_string(), "a3");
/// assert_eq!(circuit_square(0, 36), None);
/// ```
pub const fn circuit_square(seat: Seat, pos: u8) -> Option<Square> {
    if seat < 2 && pos < CIRCUIT_LEN {
        Some(Square(SQUARE_OF[seat][pos as usize]))
    } else {
        None
    }
}

/// The position of `square` on `seat`'s circuit, or `None` on the enemy's home row (or for
/// a seat other than 0 or 1).
///
/// ```
/// use stickdice::games::siryu_war::circuit_position;
/// assert_eq!(circuit_position(0, "l2".parse().unwrap()), Some(12));
/// assert_eq!(circuit_position(1, "l2".parse().unwrap()), Some(24));
/// assert_eq!(circuit_position(0, "a4".parse().unwrap()), None);
/// ```
pub const fn circuit_position(seat: Seat, square: Square) -> Option<u8> {
    if seat > 1 {
        return None;
    }
    let p = POS_OF[seat][(square.0 & 63) as usize];
    if p == OFF {
        None
    } else {
        Some(p)
    }
}

/// The position `pos` moved `steps` forward along a circuit (after 35 comes 12), or `None`
/// for a position off the circuit or more than 6 steps.
///
/// ```
/// use stickdice::games::siryu_war::advanced;
/// assert_eq!(advanced(34, 3), Some(13));
/// assert_eq!(advanced(7, 5), Some(12));
/// ```
pub const fn advanced(pos: u8, steps: u8) -> Option<u8> {
    if pos < CIRCUIT_LEN && steps <= 6 {
        Some(advance(pos, steps))
    } else {
        None
    }
}

/// The value of a throw (6, 5, 0, 3, 0, 5, 6 for 0..6 white sides), or `None` for a count
/// six sticks cannot show.
pub const fn throw_value(throw: Throw) -> Option<u8> {
    if throw.marked() <= 6 {
        Some(VALUE[throw.marked() as usize])
    } else {
        None
    }
}

/// Whether a throw is a sir and grants an extra throw (1 or 5 white sides up).
pub const fn grants_extra_throw(throw: Throw) -> bool {
    throw.marked() <= 6 && EXTRA[throw.marked() as usize]
}

/// `seat`'s colour sir, the only throw that unlocks its pieces (five white up for P1,
/// five black up — one white — for P2); `None` for a seat other than 0 or 1.
pub const fn colour_sir(seat: Seat) -> Option<Throw> {
    if seat < 2 {
        Some(COLOUR_SIR[seat])
    } else {
        None
    }
}

/// A square of the board, written column letter + row number as P1 sees it (`a1` .. `l4`):
/// the spec's (r, c) is column `a + c`, row `r + 1`. Its index is `row * 12 + col`. The
/// board is Issiren's 4×12 board with its notation, so the square is Issiren's.
pub use crate::games::issiren::Square;

const ACTION_EXPECTED: &str =
    "the square of the piece to move, from a1 to l4 (column letter a-l, row number 1-4, \
     as P1 sees the board), or `pass`";

/// A choice after a throw: move the piece standing on a square, or pass (only when no
/// piece can move). Notation: the square (`h1`) or `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "String", try_from = "String"))]
pub enum Action {
    /// Move the mover's piece on this square forward by the throw's value (unlocking it
    /// if it is locked and the throw is the mover's colour sir).
    Move(Square),
    /// No piece can move: the throw is spent without a move.
    Pass,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(sq) => sq.fmt(f),
            Action::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Action {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("pass") {
            return Ok(Action::Pass);
        }
        s.parse::<Square>()
            .map(Action::Move)
            .map_err(|_| NotationError {
                text: s.to_string(),
                expected: ACTION_EXPECTED,
            })
    }
}

// Action travels in JSON as its notation.
notation_as_string!(Action);

/// One piece: the square it stands on and whether it is still locked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its square.
    pub square: Square,
    /// Locked: still on its start square, waiting for its owner's colour sir.
    pub locked: bool,
}

impl Piece {
    /// A locked piece on `square` (a start square of its owner's home row).
    pub const fn locked(square: Square) -> Piece {
        Piece {
            square,
            locked: true,
        }
    }

    /// An unlocked piece on `square`.
    pub const fn unlocked(square: Square) -> Piece {
        Piece {
            square,
            locked: false,
        }
    }
}

/// What can be wrong with a Siryu (War) [`State`]: the problems `State::try_from` a
/// [`Position`] and [`Game::validate`] report (read back with [`InvalidState::kinds`]), each with the seat
/// (0-based: P1 is seat 0), square or value concerned. `Display` gives the sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// A seat has more than twelve pieces.
    TooManyPieces {
        /// The seat.
        seat: usize,
        /// Its pieces.
        count: usize,
    },
    /// A seat's piece on the enemy's home row, which is not on its circuit.
    OffCircuit {
        /// The seat.
        seat: usize,
        /// The square.
        square: Square,
    },
    /// A seat lists one square twice.
    ListedTwice {
        /// The seat.
        seat: usize,
        /// The square.
        square: Square,
    },
    /// Pieces of both seats on one square.
    Shared {
        /// The square.
        square: Square,
    },
    /// A locked piece off its owner's home row.
    LockedOffHomeRow {
        /// The seat.
        seat: usize,
        /// The square.
        square: Square,
    },
    /// An unlocked piece on home-row positions 0–4, which unlocking (a move of 5) never
    /// reaches.
    UnlockedBeforeReach {
        /// The seat.
        seat: usize,
        /// The square.
        square: Square,
    },
    /// Neither side has a piece.
    NoPieces,
    /// The turn is not seat 0 or 1.
    TurnOutOfRange {
        /// The turn given.
        turn: usize,
    },
    /// The pending throw shows more than six white sides.
    ImpossibleThrow {
        /// The white sides given.
        white: u8,
    },
    /// A throw is pending with no throw made.
    PendingWithoutThrows,
    /// A throw is pending in a game already won.
    PendingAfterEnd {
        /// The seat without pieces.
        loser: usize,
    },
    /// The seat without pieces is to move: the game ended on the other seat's capture of
    /// its last piece, and the turn stays with the capturing seat.
    LoserToMove {
        /// The seat without pieces.
        loser: usize,
    },
    /// The throw count is past the cap.
    PastCap {
        /// The throw count.
        throws: u32,
        /// The cap.
        cap: u32,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&match *self {
            Problem::TooManyPieces { seat, count } => {
                format!(
                    "P{} has {count} pieces; a side has at most {PIECES}",
                    seat + 1
                )
            }
            Problem::OffCircuit { seat, square } => format!(
                "P{}'s piece on {square} is on P{}'s home row, which is not on P{}'s circuit",
                seat + 1,
                2 - seat,
                seat + 1
            ),
            Problem::ListedTwice { seat, square } => format!(
                "P{} lists square {square} twice (a square holds one piece)",
                seat + 1
            ),
            Problem::Shared { square } => format!(
                "a piece of P1 and a piece of P2 on square {square} (a square holds one piece)"
            ),
            Problem::LockedOffHomeRow { seat, square } => format!(
                "P{}'s piece on {square} is locked but not on P{}'s home row (locked pieces \
                 stand where they started)",
                seat + 1,
                seat + 1
            ),
            Problem::UnlockedBeforeReach { seat, square } => format!(
                "P{}'s piece on {square} is unlocked but stands at circuit position {}, which \
                 no unlocked piece reaches (unlocking moves a piece 5, to position 5 or later)",
                seat + 1,
                POS_OF[seat & 1][square.0 as usize]
            ),
            Problem::NoPieces => {
                "neither side has a piece left; the game ends when the first side loses its last"
                    .to_string()
            }
            Problem::TurnOutOfRange { turn } => {
                format!("turn seat {turn} is out of range: Siryu (War) has seats 0 (P1) and 1 (P2)")
            }
            Problem::ImpossibleThrow { white } => {
                format!("the pending throw shows {white} white sides, impossible with six sticks")
            }
            Problem::PendingWithoutThrows => {
                "a throw is pending but the throw count is 0".to_string()
            }
            Problem::PendingAfterEnd { loser } => format!(
                "a throw is pending but P{} has no pieces left, so the game is over",
                loser + 1
            ),
            Problem::LoserToMove { loser } => format!(
                "P{} has no pieces left, yet it is P{}'s turn: the game ended on P{}'s capture \
                 of the last piece, and the turn stays with the capturing seat",
                loser + 1,
                loser + 1,
                2 - loser
            ),
            Problem::PastCap { throws, cap } => {
                format!("throw count {throws} is past the throw cap of {cap}")
            }
        })
    }
}

impl ProblemKind for Problem {}

/// A position of Siryu (War) and the bookkeeping of whose turn it is.
///
/// Every state is valid by construction: the fields are private, built from a [`Position`]
/// (`State::try_from`, which checks it; JSON is read through it) and changed by the rules.
/// [`Game::validate`] checks it again, with the game's throw cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "StateRepr", try_from = "StateRepr"))]
pub struct State {
    /// Bit `p`: `seat` has a piece at position `p` (0..35) of its own circuit.
    pieces: [u64; 2],
    /// Bit `p`: that piece is locked (only home-row positions 0..11).
    locked: [u64; 2],
    /// The seat to throw, or to decide while a throw is pending.
    turn: u8,
    /// The throw made and not yet acted on; `Some` exactly at a decision node.
    pending: Option<Throw>,
    /// Throws made so far in the game, extra throws included.
    throws: u32,
}

/// A Siryu (War) position written out: each side's pieces and whose turn it is, the way to
/// build a [`State`]: `State::try_from(position)` checks every rule that does not depend on
/// the game's options (the throw cap is [`Game::validate`]'s). JSON gives each side's
/// locked and unlocked squares instead (`{"locked": [[…], […]], "unlocked": [[…], […]],
/// "turn": 0, "pending": null, "throws": 0}`) and is checked the same way.
///
/// ```
/// use stickdice::games::siryu_war::{Piece, Position, SiryuWar, State};
/// use stickdice::{Game, Throw};
/// let sq = |s: &str| s.parse().unwrap();
/// // Worked example 3: P1 on k3 and d2, P2 on k2; P1 threw 3 white sides.
/// let s = State::try_from(Position {
///     pending: Some(Throw::new(3)),
///     throws: 1,
///     ..Position::new(
///         &[Piece::unlocked(sq("k3")), Piece::unlocked(sq("d2"))],
///         &[Piece::unlocked(sq("k2"))],
///     )
/// })
/// .unwrap();
/// assert_eq!(s.count(1), 1);
/// assert!(SiryuWar::default().validate(&s).is_ok());
/// assert_eq!(State::try_from(s.position()), Ok(s));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// Each side's pieces (P1's, then P2's; in any order).
    pub pieces: [Vec<Piece>; 2],
    /// The seat to throw or, with a throw pending, to decide (0 or 1).
    pub turn: Seat,
    /// The throw made and not yet acted on; `None`: a throw is due.
    pub pending: Option<Throw>,
    /// Throws made so far in the game, extra throws included.
    pub throws: u32,
}

impl Position {
    /// These pieces for P1 and P2, P1 to throw, no throw made.
    pub fn new(p1: &[Piece], p2: &[Piece]) -> Position {
        Position {
            pieces: [p1.to_vec(), p2.to_vec()],
            ..Position::default()
        }
    }
}

impl From<State> for Position {
    fn from(s: State) -> Position {
        s.position()
    }
}

impl TryFrom<Position> for State {
    type Error = InvalidState;

    /// The state of these parts.
    ///
    /// # Errors
    /// [`InvalidState`] listing every problem: more than 12 pieces a side, a piece on the
    /// enemy's home row, a square listed twice or held by both sides, a locked piece off
    /// its home row, an unlocked one on a home-row square no unlocking reaches (positions
    /// 0–4), no piece on either side, a turn other than 0 or 1, a pending throw of more
    /// than six white sides, before any throw or in a game already won. The throw cap is
    /// the game's and is checked by [`Game::validate`].
    fn try_from(p: Position) -> Result<State, InvalidState> {
        let mut problems = Vec::new();
        let mut s = State {
            pieces: [0; 2],
            locked: [0; 2],
            turn: p.turn.min(u8::MAX as usize) as u8,
            pending: p.pending,
            throws: p.throws,
        };
        for (seat, list) in p.pieces.iter().enumerate() {
            for p in list.iter() {
                let Some(pos) = circuit_position(seat, p.square) else {
                    problems.push(Problem::OffCircuit {
                        seat,
                        square: p.square,
                    });
                    continue;
                };
                let bit = 1u64 << pos;
                if s.pieces[seat] & bit != 0 {
                    problems.push(Problem::ListedTwice {
                        seat,
                        square: p.square,
                    });
                    continue;
                }
                s.pieces[seat] |= bit;
                if p.locked {
                    s.locked[seat] |= bit;
                }
            }
        }
        problems.extend(s.problems(None, p.turn));
        invalid(problems)?;
        Ok(s)
    }
}

impl State {
    /// The state's parts.
    pub fn position(&self) -> Position {
        Position {
            pieces: [self.pieces(0).collect(), self.pieces(1).collect()],
            turn: self.turn as Seat,
            pending: self.pending,
            throws: self.throws,
        }
    }

    /// Every broken invariant (the throw cap too, when given). `turn` is the turn as given
    /// (a `usize`, which the state's `u8` may not hold).
    fn problems(&self, cap: Option<u32>, turn: usize) -> Vec<Problem> {
        let mut problems = Vec::new();
        for (seat, table) in SQUARE_OF.iter().enumerate() {
            let count = self.pieces[seat].count_ones() as usize;
            if count > PIECES {
                problems.push(Problem::TooManyPieces { seat, count });
            }
            for pos in bits(self.locked[seat] & !HOME) {
                problems.push(Problem::LockedOffHomeRow {
                    seat,
                    square: Square(table[pos as usize]),
                });
            }
            for pos in bits(self.pieces[seat] & !self.locked[seat] & BEFORE_UNLOCK) {
                problems.push(Problem::UnlockedBeforeReach {
                    seat,
                    square: Square(table[pos as usize]),
                });
            }
        }
        for pos in bits(self.pieces[0] & !HOME) {
            if self.pieces[1] & ENEMY_BIT[pos as usize] != 0 {
                problems.push(Problem::Shared {
                    square: Square(SQUARE_OF[0][pos as usize]),
                });
            }
        }
        if self.pieces == [0, 0] {
            problems.push(Problem::NoPieces);
        }
        if turn > 1 {
            problems.push(Problem::TurnOutOfRange { turn });
        } else if self.pieces[turn] == 0 && self.pieces[turn ^ 1] != 0 {
            problems.push(Problem::LoserToMove { loser: turn });
        }
        if let Some(t) = self.pending {
            if t.marked() > 6 {
                problems.push(Problem::ImpossibleThrow { white: t.marked() });
            }
            if self.throws == 0 {
                problems.push(Problem::PendingWithoutThrows);
            }
            if let Some(loser) = (0..2).find(|&seat| self.pieces[seat] == 0) {
                problems.push(Problem::PendingAfterEnd { loser });
            }
        }
        if let Some(cap) = cap {
            if self.throws > cap {
                problems.push(Problem::PastCap {
                    throws: self.throws,
                    cap,
                });
            }
        }
        problems
    }

    /// The seat to throw, or to decide while a throw is pending.
    #[inline]
    pub fn turn(&self) -> Seat {
        self.turn as Seat
    }

    /// The throw made and not yet acted on (`Some` exactly at a decision node).
    #[inline]
    pub fn pending(&self) -> Option<Throw> {
        self.pending
    }

    /// Throws made so far, extra throws included.
    #[inline]
    pub fn throws(&self) -> u32 {
        self.throws
    }

    /// Bit `p` set: `seat` has a piece at position `p` of its own circuit (0 for a seat
    /// other than 0 or 1).
    #[inline]
    pub fn positions(&self, seat: Seat) -> u64 {
        self.pieces.get(seat).copied().unwrap_or(0)
    }

    /// Bit `p` set: `seat`'s piece at position `p` is locked (only home-row positions).
    #[inline]
    pub fn locked_positions(&self, seat: Seat) -> u64 {
        self.locked.get(seat).copied().unwrap_or(0)
    }

    /// How many pieces `seat` still has.
    #[inline]
    pub fn count(&self, seat: Seat) -> usize {
        self.positions(seat).count_ones() as usize
    }

    /// How many enemy pieces `seat` has captured.
    pub fn captured_by(&self, seat: Seat) -> usize {
        match seat {
            0 | 1 => PIECES.saturating_sub(self.count(1 - seat)),
            _ => 0,
        }
    }

    /// `seat`'s pieces in circuit order (position 0 first).
    pub fn pieces(&self, seat: Seat) -> impl Iterator<Item = Piece> + '_ {
        let locked = self.locked_positions(seat);
        bits(self.positions(seat)).map(move |pos| Piece {
            square: Square(SQUARE_OF[seat & 1][pos as usize]),
            locked: locked & (1 << pos) != 0,
        })
    }

    /// The piece on `square`, with its owner.
    pub fn piece_at(&self, square: Square) -> Option<(Seat, Piece)> {
        (0..2).find_map(|seat| {
            let pos = circuit_position(seat, square)?;
            (self.pieces[seat] & (1 << pos) != 0).then_some((
                seat,
                Piece {
                    square,
                    locked: self.locked[seat] & (1 << pos) != 0,
                },
            ))
        })
    }

    /// Bit `p` set: the mover's piece at position `p` can move on the pending throw. These
    /// are the moves [`Game::legal_actions`] lists, in its order, while the game goes on (no
    /// bit: the pass is the only action). 0 where no throw is pending.
    ///
    /// ```
    /// use stickdice::games::siryu_war::SiryuWar;
    /// use stickdice::{Game, Throw};
    /// let game = SiryuWar::default();
    /// let mut s = game.initial_state();
    /// game.apply_throw_unchecked(&mut s, Throw::new(5)); // P1's colour sir
    /// // Worked example 1: positions 7 to 11 (h1 to l1) can be unlocked.
    /// assert_eq!(s.movable_positions(), 0b1111_1000_0000);
    /// ```
    #[inline]
    pub fn movable_positions(&self) -> u64 {
        match self.pending {
            Some(t) => {
                let seat = (self.turn & 1) as usize;
                movable(
                    self.pieces[seat],
                    self.locked[seat],
                    seat,
                    t.marked() as usize,
                )
            }
            None => 0,
        }
    }

    /// Bit `w` set (`w` = 0..6): a throw of `w` white sides would let `seat` capture, had it
    /// to move now — one of its pieces that can move on that throw lands on an enemy piece.
    /// For evaluations (pieces in danger); 0 for a seat other than 0 or 1.
    ///
    /// ```
    /// use stickdice::games::siryu_war::{Piece, Position, State};
    /// let sq = |s: &str| s.parse().unwrap();
    /// // P1 on k3 (34) reaches P2's k2 (its 13) with a 3 only.
    /// let s = State::try_from(Position::new(&[Piece::unlocked(sq("k3"))], &[Piece::unlocked(sq("k2"))]))
    ///     .unwrap();
    /// assert_eq!(s.capturing_throws(0), 1 << 3);
    /// // P2's k2 (25) reaches k3 (its 34)? 9 steps: never.
    /// assert_eq!(s.capturing_throws(1), 0);
    /// ```
    pub fn capturing_throws(&self, seat: Seat) -> u8 {
        if seat > 1 {
            return 0;
        }
        // The enemy's loop pieces on the mover's circuit: half a loop on.
        let enemy_loop = (self.pieces[seat ^ 1] >> LOOP_START) & 0xFF_FFFF;
        let targets = (((enemy_loop >> 12) | (enemy_loop << 12)) & 0xFF_FFFF) << LOOP_START;
        let mut out = 0u8;
        for (w, &value) in VALUE.iter().enumerate().take(7) {
            let v = u32::from(value);
            if v != 0
                && movable(self.pieces[seat], self.locked[seat], seat, w) & landing_on(targets, v)
                    != 0
            {
                out |= 1 << w;
            }
        }
        out
    }

    /// Whether either side has lost its last piece.
    #[inline(always)]
    fn won(&self) -> bool {
        self.pieces[0] == 0 || self.pieces[1] == 0
    }
}

/// The set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = u8> {
    core::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let p = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        Some(p)
    })
}

/// The JSON form of a [`State`]: each side's locked and unlocked pieces by square.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct StateRepr {
    locked: [Vec<Square>; 2],
    unlocked: [Vec<Square>; 2],
    #[serde(default)]
    turn: usize,
    #[serde(default)]
    pending: Option<Throw>,
    #[serde(default)]
    throws: u32,
}

#[cfg(feature = "serde")]
impl From<State> for StateRepr {
    fn from(s: State) -> StateRepr {
        let of = |seat: Seat, locked: bool| -> Vec<Square> {
            s.pieces(seat)
                .filter(|p| p.locked == locked)
                .map(|p| p.square)
                .collect()
        };
        StateRepr {
            locked: [of(0, true), of(1, true)],
            unlocked: [of(0, false), of(1, false)],
            turn: s.turn as usize,
            pending: s.pending,
            throws: s.throws,
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<StateRepr> for State {
    type Error = InvalidState;
    fn try_from(r: StateRepr) -> Result<State, InvalidState> {
        let list = |seat: usize| -> Vec<Piece> {
            r.locked[seat]
                .iter()
                .map(|&sq| Piece::locked(sq))
                .chain(r.unlocked[seat].iter().map(|&sq| Piece::unlocked(sq)))
                .collect()
        };
        State::try_from(Position {
            pieces: [list(0), list(1)],
            turn: r.turn,
            pending: r.pending,
            throws: r.throws,
        })
    }
}

/// The start: each side's twelve locked pieces on its home row, P1 to throw.
const INITIAL_STATE: State = State {
    pieces: [HOME; 2],
    locked: [HOME; 2],
    turn: 0,
    pending: None,
    throws: 0,
};

/// Moves `seat`'s piece at position `pos` by the value of a throw of `w` white sides (it is
/// unlocked), capturing an enemy piece where it lands. Returns whether that was the enemy's
/// last piece (the game ends at once).
#[inline(always)]
fn move_piece(s: &mut State, seat: usize, pos: u8, w: usize) -> bool {
    let seat = seat & 1;
    let pos = pos % CIRCUIT_LEN;
    let to = advance(pos, VALUE[w & 7]);
    s.pieces[seat] = (s.pieces[seat] & !(1u64 << pos)) | (1u64 << to);
    s.locked[seat] &= !(1u64 << pos);
    // The enemy's piece on the landing square, if any, leaves the game.
    let enemy = seat ^ 1;
    s.pieces[enemy] &= !ENEMY_BIT[to as usize];
    s.pieces[enemy] == 0
}

/// Siryu (War) for two players, with its throw cap.
///
/// ```
/// use stickdice::games::SiryuWar;
/// use stickdice::{ActionList, Game, Node};
/// let game = SiryuWar::with_seats(2).unwrap();
/// assert!(SiryuWar::with_seats(3).is_err()); // two players only
/// let mut state = game.initial_state();
/// game.apply_throw(&mut state, "5".parse().unwrap()).unwrap(); // five white: P1's sir
/// assert_eq!(game.node(&state), Node::Decide(0));
/// let mut legal = ActionList::new();
/// game.legal_actions(&state, &mut legal);
/// assert_eq!(legal.len(), 5); // h1 to l1 can be unlocked
/// game.apply_action(&mut state, legal[0]).unwrap();
/// assert_eq!(game.node(&state), Node::Throw(0)); // a sir: P1 throws again
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SiryuWar {
    max_throws: u32,
}

impl Default for SiryuWar {
    /// The game with default rules (two players, throw cap 10 000).
    fn default() -> Self {
        SiryuWar {
            max_throws: DEFAULT_MAX_THROWS,
        }
    }
}

impl SiryuWar {
    /// Whether `seat` has a piece that can move on `throw` in `state`.
    pub fn can_move(&self, state: &State, seat: Seat, throw: Throw) -> bool {
        seat < 2
            && throw.marked() <= 6
            && movable(
                state.pieces[seat],
                state.locked[seat],
                seat,
                throw.marked() as usize,
            ) != 0
    }

    /// [`Game::apply_action_unchecked`] of the move of the mover's piece at circuit position
    /// `pos` (no search for it by square): the action `Move(`its square`)`. A position
    /// without a piece of the mover moves nothing but spends the throw.
    #[inline(always)]
    pub fn apply_move_at(&self, s: &mut State, pos: u8) {
        let Some(throw) = s.pending.take() else {
            return;
        };
        let seat = (s.turn & 1) as usize;
        let w = (throw.marked() & 7) as usize;
        if pos < CIRCUIT_LEN && s.pieces[seat] & (1 << pos) != 0 && move_piece(s, seat, pos, w) {
            return; // the 12th capture: the game ends at once
        }
        if !EXTRA[w] {
            s.turn = (seat ^ 1) as u8;
        }
    }
}

impl Game for SiryuWar {
    type State = State;
    type Action = Action;
    const NAME: &'static str = "siryu-war";
    const TITLE: &'static str = "Siryu (War)";
    const MAX_ACTIONS: usize = PIECES;
    const SEATS: (usize, usize) = (2, 2);

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        check_seats::<Self>(seats)?;
        Ok(SiryuWar::default())
    }

    crate::rule_options! {
        max_throws: max_throws() => crate::config::MAX_THROWS_HELP,
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
        if s.won() {
            Node::End
        } else if s.pending.is_some() {
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
        out.clear();
        if s.pending.is_none() || s.won() {
            return;
        }
        let seat = (s.turn & 1) as usize;
        let table = &SQUARE_OF[seat];
        let mut m = s.movable_positions();
        // Built in a plain array and handed over whole, as Issiren does.
        let mut buf = [Action::Move(Square(0)); MAX_ACTIONS];
        let mut n = 0;
        while m != 0 && n < MAX_ACTIONS {
            buf[n] = Action::Move(Square(table[m.trailing_zeros() as usize]));
            m &= m - 1;
            n += 1;
        }
        if n == 0 {
            buf[0] = Action::Pass;
            n = 1;
        }
        *out = ActionList::from_buf_and_len(buf, n);
    }

    #[inline]
    fn apply_throw_unchecked(&self, s: &mut State, throw: Throw) {
        s.pending = Some(throw);
        s.throws = s.throws.saturating_add(1);
    }

    #[inline]
    fn apply_action_unchecked(&self, s: &mut State, action: Action) {
        match action {
            Action::Move(sq) => {
                let pos = POS_OF[(s.turn & 1) as usize][(sq.0 & 63) as usize];
                self.apply_move_at(s, pos);
            }
            Action::Pass => self.apply_move_at(s, OFF),
        }
    }

    fn ranking(&self, s: &State) -> Option<Ranking> {
        if self.node(s) != Node::End {
            return None;
        }
        let keys = match (s.pieces[0], s.pieces[1]) {
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
        invalid(s.problems(Some(self.max_throws), s.turn as usize))
    }
}

impl Present for SiryuWar {
    fn render(&self, s: &State) -> String {
        let mut out = String::new();
        let header = "      a  b  c  d  e  f  g  h  i  j  k  l\n";
        out.push_str(header);
        for row in (0..ROWS).rev() {
            // P1 crosses rows 1 and 3 left to right and row 2 right to left; P2 crosses row 4
            // right to left, and the loop (rows 2 and 3) the same way as P1.
            let arrow = match row {
                0 | 2 => '>',
                _ => '<',
            };
            out.push_str(&format!("  {} {} ", row + 1, arrow));
            for col in 0..COLS {
                match s.piece_at(Square(row * COLS + col)) {
                    Some((seat, p)) => out.push_str(&format!(
                        "{}{} ",
                        seat + 1,
                        if p.locked { '*' } else { ' ' }
                    )),
                    None => out.push_str(".  "),
                }
            }
            out.push_str(&format!("{}", row + 1));
            match row {
                3 => out.push_str("   P2's home row (black)"),
                0 => out.push_str("   P1's home row (white)"),
                _ => out.push_str("   the loop"),
            }
            out.push('\n');
        }
        out.push_str(header);
        out.push_str(
            "1/2 = a piece of P1/P2;  * = locked (only its owner's colour sir unlocks it);  \
             < > = direction of travel; after l3 (P1) or a2 (P2) comes the loop again\n",
        );
        out.push_str(&format!(
            "Pieces left: P1 {}, P2 {}.  Throws made: {} of {}.\n",
            s.count(0),
            s.count(1),
            s.throws,
            self.max_throws
        ));
        match self.node(s) {
            Node::End => match (s.pieces[0], s.pieces[1]) {
                (a, 0) if a != 0 => {
                    out.push_str("Game over: P1 wins, having captured all 12 of P2's pieces.\n")
                }
                (0, b) if b != 0 => {
                    out.push_str("Game over: P2 wins, having captured all 12 of P1's pieces.\n")
                }
                _ => out.push_str("Game over at the throw cap: a draw.\n"),
            },
            Node::Throw(seat) => out.push_str(&format!("P{} to throw.\n", seat + 1)),
            Node::Decide(seat) => {
                let t = s.pending.unwrap_or(Throw::new(0));
                out.push_str(&format!(
                    "P{} to move: threw {}.\n",
                    seat + 1,
                    self.describe_throw(s, t)
                ));
            }
        }
        out
    }

    fn describe_throw(&self, s: &State, throw: Throw) -> String {
        let w = throw.marked();
        let Some(v) = throw_value(throw) else {
            return format!("{w} white sides up: impossible with six sticks");
        };
        let mut text = match w {
            0 => format!("no white side up (six black): moves {v}"),
            1 => format!("1 white side up (five black): sir in P2's colour (black), moves {v}"),
            5 => format!("5 white sides up (one black): sir in P1's colour (white), moves {v}"),
            2 | 4 => format!("{w} white sides up: 0"),
            _ => format!("{w} white sides up: moves {v}"),
        };
        let seat = (s.turn & 1) as usize;
        if throw == COLOUR_SIR[seat] {
            text.push_str(" (unlocks a locked piece of P");
            text.push_str(&format!("{})", seat + 1));
        }
        if grants_extra_throw(throw) {
            text.push_str(", throw again");
        }
        if !s.won() && !self.can_move(s, seat, throw) {
            text.push_str(&format!("; no piece of P{} can move: pass", seat + 1));
        }
        text
    }
}

/// The position of the `k`-th set bit of `m` (lowest first; `k` below the count).
#[inline(always)]
fn nth_bit(mut m: u64, k: usize) -> u8 {
    for _ in 0..k {
        m &= m.wrapping_sub(1);
    }
    m.trailing_zeros() as u8
}

/// The position of a uniformly random piece among `movable` (not 0), drawn as the default
/// [`Playouts::random_action`] draws from the legal list: no draw when there is one.
#[inline(always)]
fn random_position(movable: u64, index: impl FnOnce(usize) -> usize) -> u8 {
    let k = if movable & movable.wrapping_sub(1) == 0 {
        0
    } else {
        index(movable.count_ones() as usize)
    };
    nth_bit(movable, k)
}

/// `SEAT`'s turn in random play ([`Playouts::play_random_to_end`]): a throw (unless the
/// throw cap is reached) and its random decision, again while the throws are sirs. Returns
/// whether the turn passed (`false`: the game is over).
#[inline(always)]
fn random_turn<const SEAT: usize, R: rand::Rng + ?Sized>(
    s: &mut State,
    throws: &mut u32,
    max: u32,
    b: &mut crate::play::RandomBits,
    rng: &mut R,
) -> bool {
    loop {
        if *throws >= max {
            return false;
        }
        *throws += 1;
        let w = (b.throw(rng, Sticks::SIX).marked() & 7) as usize;
        let m = movable(s.pieces[SEAT], s.locked[SEAT], SEAT, w);
        if m != 0 {
            let pos = random_position(m, |len| b.index(rng, len));
            if move_piece(s, SEAT, pos, w) {
                return false; // the 12th capture: the game ends at once
            }
        }
        if !EXTRA[w] {
            return true;
        }
    }
}

impl Playouts for SiryuWar {
    /// The pieces that can move are a bitmask ([`State::movable_positions`]); the action is
    /// the one at the drawn index of the legal list, found in the mask (the same draws as
    /// the default).
    #[inline]
    fn random_action(
        &self,
        s: &State,
        _actions: &mut ActionList<Action>,
        index: impl FnMut(usize) -> usize,
    ) -> Action {
        if s.won() {
            return Action::Pass; // no decision: nothing to choose (never asked)
        }
        let m = s.movable_positions();
        if m == 0 {
            return Action::Pass;
        }
        let seat = (s.turn & 1) as usize;
        Action::Move(Square(SQUARE_OF[seat][random_position(m, index) as usize]))
    }

    /// [`Playouts::random_action`]'s piece, moved by its position (no search by square).
    #[inline]
    fn play_random_action(
        &self,
        s: &mut State,
        actions: &mut ActionList<Action>,
        index: impl FnMut(usize) -> usize,
    ) -> Action {
        self.play_legal_action(s, actions, index)
    }

    /// Each throw and its decision in one loop, one loop per seat (so each seat's tables
    /// are fixed): the throw (the same bits), the random piece of
    /// [`Playouts::play_random_action`] (the same draws), its move, until the turn passes,
    /// with the throw count held in a register and no pending throw stored. A decision
    /// already due is made by [`Playouts::play_random_action`] first.
    #[inline(never)]
    fn play_random_to_end<R: rand::Rng + ?Sized>(
        &self,
        s: &mut State,
        bits: &mut crate::play::RandomBits,
        rng: &mut R,
    ) {
        if s.won() {
            return; // an ended game
        }
        let mut b = *bits;
        if s.pending.is_some() {
            self.play_random_action(s, &mut ActionList::new(), |len| b.index(rng, len));
        }
        if !s.won() {
            let max = self.max_throws;
            let mut throws = s.throws;
            let mut seat = s.turn & 1;
            loop {
                if seat == 0 {
                    if !random_turn::<0, R>(s, &mut throws, max, &mut b, rng) {
                        break;
                    }
                    seat = 1;
                }
                if !random_turn::<1, R>(s, &mut throws, max, &mut b, rng) {
                    break;
                }
                seat = 0;
            }
            s.turn = seat;
            s.throws = throws;
        }
        *bits = b;
    }

    /// The legal moves are the set bits of [`State::movable_positions`] in list order: the
    /// chosen one is found in the mask and moved by its position.
    #[inline]
    fn play_legal_action(
        &self,
        s: &mut State,
        actions: &mut ActionList<Action>,
        mut index: impl FnMut(usize) -> usize,
    ) -> Action {
        let Some(throw) = s.pending else {
            // No decision is due: as the list would be, empty.
            self.legal_actions(s, actions);
            return actions[index(0)];
        };
        if s.won() {
            self.legal_actions(s, actions);
            return actions[index(0)];
        }
        let seat = (s.turn & 1) as usize;
        let w = (throw.marked() & 7) as usize;
        let m = movable(s.pieces[seat], s.locked[seat], seat, w);
        s.pending = None;
        let action = if m == 0 {
            Action::Pass
        } else {
            let pos = random_position(m, index);
            let from = Action::Move(Square(SQUARE_OF[seat][pos as usize]));
            if move_piece(s, seat, pos, w) {
                return from; // the 12th capture: the game ends at once
            }
            from
        };
        if !EXTRA[w] {
            s.turn = (seat ^ 1) as u8;
        }
        action
    }
}

impl Board for SiryuWar {
    /// The 4 × 12 grid as P1 sees it (row 1 at the bottom), both home rows named, each
    /// seat's circuit of 36 squares (its home row, then the loop). A circuit's last square
    /// leads back to its 13th (position 12, [`LOOP_START`]), not its first: its `loops_to`
    /// says so. Arrows show each row's direction, the steps out of the home rows and the
    /// loop's two ends.
    fn geometry(&self) -> BoardGeometry {
        let squares: Vec<SquareInfo> = (0..ROWS * COLS)
            .map(|i| {
                let sq = Square(i);
                let name = match sq.row() {
                    0 => Some("P1's home row"),
                    3 => Some("P2's home row"),
                    _ => None,
                };
                SquareInfo {
                    x: f64::from(sq.col()),
                    y: f64::from(3 - sq.row()),
                    label: sq.to_string(),
                    name,
                    special: false,
                }
            })
            .collect();
        let tracks = (0..2)
            .map(|seat| Track {
                seat: Some(seat),
                squares: (0..CIRCUIT_LEN)
                    .map(|p| usize::from(SQUARE_OF[seat][p as usize]))
                    .collect(),
                loops_to: Some(usize::from(LOOP_START)),
            })
            .collect();
        let arrow = |x1: f64, y1: f64, x2: f64, y2: f64| Arrow { x1, y1, x2, y2 };
        let arrows = vec![
            // Row 1 (P1's home row) and row 3 left to right, row 2 and row 4 right to left.
            arrow(0.4, 3.5, 11.6, 3.5),
            arrow(11.6, 2.5, 0.4, 2.5),
            arrow(0.4, 1.5, 11.6, 1.5),
            arrow(11.6, 0.5, 0.4, 0.5),
            // Out of the home rows: l1 up to l2 (P1), a4 down to a3 (P2).
            arrow(11.5, 3.4, 11.5, 2.6),
            arrow(0.5, 0.6, 0.5, 1.4),
            // The loop's ends: l3 down to l2 and a2 up to a3.
            arrow(11.8, 1.6, 11.8, 2.4),
            arrow(0.2, 2.4, 0.2, 1.6),
        ];
        BoardGeometry {
            width: 12.0,
            height: 4.0,
            squares,
            chosen_by: ChosenBy::Square,
            tracks,
            starts: vec![usize::from(SQUARE_OF[0][0]), usize::from(SQUARE_OF[1][0])],
            arrows,
            sticks: StickFaces {
                count: 6,
                marked: "white",
                unmarked: "black",
            },
            legend: "P1 (white) runs its home row left to right, P2 (black) its own right to \
                     left; then both go round the loop of the two middle rows forever (row 2 \
                     right to left, row 3 left to right as P1 sees them); a dashed piece is \
                     locked (only its owner's colour sir unlocks it: five white for P1, five \
                     black for P2)",
        }
    }

    fn pieces(&self, s: &State) -> Vec<PlacedPiece> {
        let mut out = Vec::new();
        for (seat, positions) in POS_OF.iter().enumerate() {
            for p in s.pieces(seat) {
                let pos = positions[p.square.0 as usize];
                out.push(PlacedPiece {
                    square: Some(usize::from(p.square.0)),
                    seat: Some(seat),
                    kind: "piece",
                    letter: "",
                    active: false,
                    status: if p.locked {
                        crate::board::PieceStatus::Locked
                    } else {
                        crate::board::PieceStatus::Plain
                    },
                    text: format!(
                        "P{}'s piece on {} (circuit position {pos}){}",
                        seat + 1,
                        p.square,
                        if p.locked { ", locked" } else { "" }
                    ),
                });
            }
        }
        out
    }

    fn moves(&self, s: &State) -> Vec<BoardMove> {
        let mut legal = ActionList::new();
        self.legal_actions(s, &mut legal);
        let seat = (s.turn & 1) as usize;
        let steps = s.pending.and_then(throw_value).unwrap_or(0);
        legal
            .iter()
            .map(|&a| {
                let (from, to) = match a {
                    Action::Move(sq) => {
                        let to = circuit_position(seat, sq)
                            .and_then(|p| advanced(p, steps))
                            .map(|p| usize::from(SQUARE_OF[seat][p as usize]));
                        (Some(usize::from(sq.0)), to)
                    }
                    Action::Pass => (None, None),
                };
                BoardMove {
                    action: a.to_string(),
                    from,
                    to,
                }
            })
            .collect()
    }

    fn describe_action(&self, s: &State, action: Action) -> String {
        let seat = (s.turn & 1) as usize;
        let mut after = *s;
        if self.apply_action(&mut after, action).is_err() {
            return format!("P{} cannot play {action} here", seat + 1);
        }
        match action {
            Action::Pass => format!("P{} passes: no piece can move", seat + 1),
            Action::Move(from) => {
                let steps = s.pending.and_then(throw_value).unwrap_or(0);
                let to = circuit_position(seat, from)
                    .and_then(|p| advanced(p, steps))
                    .and_then(|p| circuit_square(seat, p))
                    .map_or("?".to_string(), |t| t.to_string());
                let unlocks = s.piece_at(from).is_some_and(|(_, p)| p.locked);
                let mut text = if unlocks {
                    format!(
                        "P{} unlocks the piece on {from} and moves it to {to}",
                        seat + 1
                    )
                } else {
                    format!("P{} moves the piece on {from} to {to}", seat + 1)
                };
                let enemy = 1 - seat;
                if after.count(enemy) < s.count(enemy) {
                    text.push_str(&format!(
                        ", capturing P{}'s piece there ({} left)",
                        enemy + 1,
                        after.count(enemy)
                    ));
                }
                text
            }
        }
    }

    fn describe_change(&self, b: &State, a: &State) -> Vec<String> {
        (0..2)
            .filter(|&seat| a.count(seat) < b.count(seat))
            .map(|seat| {
                format!(
                    "P{} loses a piece ({} left){}",
                    seat + 1,
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
    use crate::play::RandomBits;
    use rand::SeedableRng as _;

    /// The defaults of [`Playouts`], written out on the rules alone: list the legal actions,
    /// pick by index (no draw when there is one), apply.
    fn default_decision<R: rand::Rng>(
        game: &SiryuWar,
        s: &mut State,
        bits: &mut RandomBits,
        rng: &mut R,
    ) -> Action {
        let mut legal = ActionList::new();
        game.legal_actions(s, &mut legal);
        let a = if legal.len() == 1 {
            legal[0]
        } else {
            legal[bits.index(rng, legal.len())]
        };
        game.apply_action_unchecked(s, a);
        a
    }

    /// Every hook is the default bit for bit: `play_random_to_end` reaches the same final
    /// state with the same bits and generator as the rules' path (node, the throw from the
    /// same bits, `apply_throw_unchecked`, the default decision), from the start of many
    /// random games and from positions along them (throws due and decisions due) to a throw
    /// cap a few throws on; `random_action`, `play_random_action` and `play_legal_action`
    /// make the same draws and give the same action and state as the default at every
    /// decision.
    #[test]
    fn playout_hooks_are_the_defaults_bit_for_bit() {
        let game = SiryuWar::default();
        let (mut starts, mut decisions, mut captures, mut unlocks) = (0, 0, 0, 0);
        for seed in 0..150 {
            let mut rng = crate::Rng::seed_from_u64(seed);
            let mut bits = RandomBits::new();
            let mut state = game.initial_state();
            let mut path = Vec::new();
            loop {
                path.push((state, bits, rng.clone()));
                match game.node(&state) {
                    Node::Throw(_) => {
                        let t = bits.throw(&mut rng, Sticks::SIX);
                        game.apply_throw_unchecked(&mut state, t);
                    }
                    Node::Decide(_) => {
                        // The three decision hooks against the default, from here.
                        for hook in 0..3 {
                            let (mut b, mut r) = (bits, rng.clone());
                            let mut fast = state;
                            let mut scratch = ActionList::new();
                            let got = match hook {
                                0 => {
                                    let a = game.random_action(&fast, &mut scratch, |len| {
                                        b.index(&mut r, len)
                                    });
                                    game.apply_action_unchecked(&mut fast, a);
                                    a
                                }
                                1 => game.play_random_action(&mut fast, &mut scratch, |len| {
                                    b.index(&mut r, len)
                                }),
                                _ => game.play_legal_action(&mut fast, &mut scratch, |len| {
                                    b.index(&mut r, len)
                                }),
                            };
                            let (mut b2, mut r2) = (bits, rng.clone());
                            let mut slow = state;
                            let want = default_decision(&game, &mut slow, &mut b2, &mut r2);
                            assert_eq!((got, fast, b, &r), (want, slow, b2, &r2), "hook {hook}");
                        }
                        let before = state;
                        let a = default_decision(&game, &mut state, &mut bits, &mut rng);
                        unlocks += u32::from(
                            a != Action::Pass
                                && before.locked_positions(before.turn())
                                    != state.locked_positions(before.turn()),
                        );
                        decisions += 1;
                    }
                    Node::End => break,
                }
            }
            captures += u32::from(state.won());
            for (k, (start, start_bits, start_rng)) in path.iter().enumerate() {
                let full = k == 0;
                if !full && k % 7 != 0 {
                    continue;
                }
                let cap = if full {
                    game.max_throws
                } else {
                    start.throws + 1 + (k as u32 % 13)
                };
                let capped = SiryuWar { max_throws: cap };
                let want = path[k..]
                    .iter()
                    .find(|(s, _, _)| s.won() || (s.pending.is_none() && s.throws >= cap))
                    .unwrap();
                let (mut s, mut b, mut r) = (*start, *start_bits, start_rng.clone());
                capped.play_random_to_end(&mut s, &mut b, &mut r);
                assert_eq!(
                    (&s, &b, &r),
                    (&want.0, &want.1, &want.2),
                    "seed {seed}, step {k}"
                );
                starts += 1;
            }
        }
        assert!(
            starts > 20_000 && decisions > 80_000 && captures == 150 && unlocks > 2000,
            "{starts} {decisions} {captures} {unlocks}"
        );
    }

    /// `capturing_throws` is what the legal moves of each throw do, at every position of
    /// 60 random games, for both seats.
    #[test]
    fn capturing_throws_are_the_legal_captures() {
        let game = SiryuWar::default();
        let mut rng = crate::Rng::seed_from_u64(77);
        let mut seen = 0;
        for s in crate::testing::random_game_positions(&game, 60, &mut rng) {
            if s.won() {
                continue;
            }
            for seat in 0..2 {
                let mut want = 0u8;
                for w in 0..7u8 {
                    let mut d = s;
                    d.turn = seat as u8;
                    d.pending = Some(Throw::new(w));
                    d.throws = d.throws.max(1);
                    let mut legal = ActionList::new();
                    game.legal_actions(&d, &mut legal);
                    for &a in &legal {
                        let mut after = d;
                        game.apply_action_unchecked(&mut after, a);
                        if after.count(seat ^ 1) < d.count(seat ^ 1) {
                            want |= 1 << w;
                        }
                    }
                }
                assert_eq!(s.capturing_throws(seat), want, "{s:?} seat {seat}");
                seen += u32::from(want != 0);
            }
        }
        assert!(seen > 5_000, "{seen}");
    }

    /// An ended game is left as it is by `play_random_to_end`.
    #[test]
    fn play_random_to_end_leaves_an_ended_game_alone() {
        let game = SiryuWar::default();
        let mut rng = crate::Rng::seed_from_u64(9);
        let won = State {
            pieces: [1 << 20, 0],
            locked: [0, 0],
            turn: 0,
            pending: None,
            throws: 12,
        };
        let mut s = won;
        let mut bits = RandomBits::new();
        game.play_random_to_end(&mut s, &mut bits, &mut rng);
        assert_eq!((s, bits), (won, RandomBits::new()));
    }

    #[test]
    fn the_move_tables_are_the_circuit() {
        for seat in 0..2 {
            for p in 0..CIRCUIT_LEN {
                let sq = SQUARE_OF[seat][p as usize];
                assert_eq!(POS_OF[seat][sq as usize], p);
                for v in 1..=6u8 {
                    // `landing_on` is the set of positions whose move of v lands on `own`.
                    let own = 1u64 << advance(p, v);
                    assert_ne!(
                        landing_on(own, u32::from(v)) & (1 << p),
                        0,
                        "{seat} {p} {v}"
                    );
                    assert_eq!(landing_on(own, u32::from(v)).count_ones(), {
                        let q = advance(p, v);
                        // Positions 12..12+v-1 are reached from the home row and the loop's end.
                        (0..CIRCUIT_LEN).filter(|&x| advance(x, v) == q).count() as u32
                    });
                }
            }
            // The enemy's home row has no position.
            let enemy_row = if seat == 0 { 3 } else { 0 };
            for c in 0..COLS {
                assert_eq!(POS_OF[seat][(enemy_row * COLS + c) as usize], OFF);
            }
        }
        // The enemy bit of a loop square is the same square on the enemy's circuit.
        for q in LOOP_START..CIRCUIT_LEN {
            let e = ENEMY_BIT[q as usize].trailing_zeros() as usize;
            assert_eq!(SQUARE_OF[1][e], SQUARE_OF[0][q as usize]);
        }
        assert!(ENEMY_BIT[..LOOP_START as usize].iter().all(|&b| b == 0));
    }
}
