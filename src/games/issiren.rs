//! Issiren (Ishighän) — the capture game of the Kel Ajjer Tuareg (Illizi, Algeria),
//! The rules: the book's chapter `docs/games/issiren.md`.
//!
//! # The rules as implemented
//!
//! * **Seats:** exactly two. P1 (seat 0) sits at the bottom, row 1 in notation; P2 (seat 1)
//!   at the top, row 4. P1 throws first.
//! * **Board:** 4 rows × 12 columns, at most one piece per square. Squares are written
//!   column letter + row number as P1 sees the board: columns `a`..`l` (left to right),
//!   rows `1`..`4` (P1's home row is `1`, P2's is `4`), so `a1` is P1's front-left corner.
//! * **Circuit:** each piece walks its owner's 72-step circuit, which loops forever:
//!   right to left along its home row, left to right along the next row, right to left
//!   along the third, left to right along the opponent's home row, then back down: right
//!   to left along the third row, left to right along the second, and round again along its
//!   home row. Seat 0's positions map to squares as the rules tabulate them; seat 1's
//!   position `p` is seat 0's position `(p + 36) mod 72`. [`circuit_square`] is that map.
//!   Both sides therefore run the *same* loop half a lap apart, and every row is crossed in
//!   one direction only, whoever moves (row 1 and row 3 right to left as P1 sees them,
//!   rows 2 and 4 left to right). Rows 2 and 3 are crossed twice per lap (once outward,
//!   once on the way back), so each piece keeps its own circuit position ([`Piece::pos`]).
//! * **Start:** each side's twelve pieces stand on its home row at positions 0–11, all
//!   *unmoved*.
//! * **Throws:** six green/white sticks; the count `g` of green sides up gives the move:
//!
//!   | g | 0 | 1 | 2 | 3 | 4 | 5 | 6 |
//!   |---|---|---|---|---|---|---|---|
//!   | move | 4 | 5 | 2 | 3 | 1 | 5 | 6 |
//!   | extra throw | yes | yes | no | no | yes | no | yes |
//!
//!   ([`throw_value`], [`grants_extra_throw`]).
//! * **Moves:** after every throw the thrower decides ([`Node::Decide`]): one piece moves
//!   forward along its circuit by exactly the value. An unmoved piece may move only on a
//!   throw of four green sides (its one step makes it a moved piece); a moved piece may
//!   move on any throw, four green sides included. The destination must not hold one of
//!   the mover's own pieces; squares passed over are ignored (they neither block nor
//!   capture); landing on an enemy piece captures it (it leaves the game). If no piece can
//!   move, the only action is [`Action::Pass`]. Moving is compulsory otherwise.
//! * **Turns:** a throw that grants an extra throw keeps the turn whether or not a piece
//!   moved (also after a pass); otherwise the other side throws next.
//! * **End:** the side that captures all twelve enemy pieces wins at once (an extra throw
//!   still due is not made). At the throw cap (rule option `max_throws`, default 10 000)
//!   the game ends as a draw once the cap-th throw's decision has been made.
//!
//! # Notation
//!
//! An action is the square of the piece to move (`a1`, `l4`, …) or `pass`, exactly as
//! [`Action`]'s `Display` prints it; parsing ignores case and surrounding spaces.
//! Legal actions are listed in square order (`a1`, `b1`, …, `l1`, `a2`, …), a pass alone.
//!
//! # Readings chosen where the rules leave room
//!
//! * A throw of four green sides is a move of one step for *any* piece; the player chooses
//!   between releasing an unmoved piece and stepping a moved one. The release step itself
//!   must obey the own-piece rule, so at the start only the front piece of the home row
//!   (position 11: `a1` for P1, `l4` for P2) can be released.
//! * Any enemy piece can be captured by landing on it, unmoved pieces on their home row
//!   included, and a piece can land anywhere on its circuit, its own home row included
//!   (after a lap a piece is simply a moved piece on its home row).
//! * The throw count counts every throw, extra throws included. When the 12th capture
//!   comes from the cap-th throw, the capture decides the game (a win, not a draw).
//! * When the game ends on a capture, the turn stays with the capturing seat and no throw
//!   is pending.
//!
//! # State
//!
//! [`State`] is plain `Copy` data: each side's pieces (circuit position and unmoved
//! flag), listed in square order so equal positions are equal states, the live count, an
//! occupancy bitboard per side (bit `row * 12 + col`), whose turn it is, the pending throw
//! between a throw and its decision, and the throw count. Its fields are private (the count
//! and the bitboards are derived from the pieces): build one from a [`Position`] (each
//! side's pieces and whose turn it is) with `State::try_from`, which checks it, or from
//! JSON, which [`Game::load_state`] checks with [`Game::validate`]. In JSON a state is written without the derived parts:
//! `{"pieces": [[{"pos": 11, "unmoved": true}, …], […]], "turn": 0, "pending": null,
//! "throws": 0}` (`pending` is the number of green sides of the throw awaiting its move).

use core::fmt;
use core::str::FromStr;

use super::common::{notation_as_string, parse_grid_square, write_grid_square};
use crate::config::{check_seats, DEFAULT_MAX_THROWS};
use crate::dice::{Sticks, Throw};
use crate::game::{
    ActionList, ConfigError, Game, InvalidState, Node, NotationError, Playouts, ProblemKind,
    Problems, Ranking, Seat, MAX_ACTIONS,
};
use crate::present::Present;

/// Pieces per side at the start.
pub const PIECES: usize = 12;
/// Steps in one lap of a circuit.
pub const CIRCUIT_LEN: u8 = 72;
/// Rows of the board.
pub const ROWS: u8 = 4;
/// Columns of the board.
pub const COLS: u8 = 12;
/// The number of green sides up that releases an unmoved piece.
pub const RELEASE_THROW: Throw = Throw::new(4);

/// How many random pieces [`Playouts::random_action`] draws before it lists the pieces that
/// can move.
const RANDOM_PIECE_TRIES: usize = 1;

/// Move value by number of green sides up (index `g & 7`; entry 7 is unused).
const VALUE: [u8; 8] = [4, 5, 2, 3, 1, 5, 6, 0];
/// Whether the throw grants an extra throw (index `g & 7`).
const EXTRA: [bool; 8] = [true, true, false, false, true, false, true, false];

/// The square index (`row * 12 + col`) of seat 0's circuit position `pos mod 72`.
const fn seat0_square(pos: usize) -> u8 {
    let p = pos % CIRCUIT_LEN as usize;
    let k = (p % 12) as u8;
    match p / 12 {
        0 => 11 - k,      // home row, right to left
        1 => 12 + k,      // row 1, left to right
        2 => 24 + 11 - k, // row 2, right to left
        3 => 36 + k,      // opponent's home row, left to right
        4 => 24 + 11 - k, // row 2 again, right to left
        _ => 12 + k,      // row 1 again, left to right
    }
}

/// `SQUARE_OF[seat][pos]`: the square index of `pos mod 72` on `seat`'s circuit. Indexed by
/// any `u8`, so no lookup can go out of bounds.
static SQUARE_OF: [[u8; 256]; 2] = {
    let mut t = [[0u8; 256]; 2];
    let mut i = 0;
    while i < 256 {
        t[0][i] = seat0_square(i);
        t[1][i] = seat0_square(i % CIRCUIT_LEN as usize + 36);
        i += 1;
    }
    t
};

/// Position `pos` moved `steps` forward, wrapping round the circuit (for `pos` < 72).
#[inline(always)]
const fn advance(pos: u8, steps: u8) -> u8 {
    let q = pos as u16 + steps as u16;
    if q >= CIRCUIT_LEN as u16 {
        (q - CIRCUIT_LEN as u16) as u8
    } else {
        q as u8
    }
}

/// `NEXT[g][pos]`: [`advance`] of `pos` by the value of a throw of `g` green sides, in one
/// lookup, for any `u8` position and `g & 7`.
static NEXT: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut g = 0;
    while g < 8 {
        let mut pos = 0;
        while pos < 256 {
            t[g][pos] = advance(pos as u8, VALUE[g]);
            pos += 1;
        }
        g += 1;
    }
    t
};

/// `LANDING[seat][g][pos]`: the square index a piece of `seat` at circuit position `pos`
/// lands on with a throw of `g` green sides (`SQUARE_OF` after [`advance`] by `VALUE[g]`,
/// in one lookup). Indexed by any `u8` position and `g & 7`.
static LANDING: [[[u8; 256]; 8]; 2] = {
    let mut t = [[[0u8; 256]; 8]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut g = 0;
        while g < 8 {
            let mut pos = 0;
            while pos < 256 {
                t[seat][g][pos] = SQUARE_OF[seat][advance(pos as u8, VALUE[g]) as usize];
                pos += 1;
            }
            g += 1;
        }
        seat += 1;
    }
    t
};

/// The square a piece of `seat` stands on at circuit position `pos` (0..71), or `None` if
/// the seat is not 0 or 1 or the position is off the circuit.
///
/// ```
/// use stickdice::games::issiren::circuit_square;
/// assert_eq!(circuit_square(0, 0).unwrap().to_string(), "l1");
/// assert_eq!(circuit_square(0, 36).unwrap().to_string(), "a4");
/// assert_eq!(circuit_square(1, 0).unwrap().to_string(), "a4");
/// assert_eq!(circuit_square(0, 72), None);
/// ```
pub const fn circuit_square(seat: Seat, pos: u8) -> Option<Square> {
    if seat < 2 && pos < CIRCUIT_LEN {
        Some(Square(SQUARE_OF[seat][pos as usize]))
    } else {
        None
    }
}

/// How many steps a throw moves, or `None` for a count six sticks cannot show.
pub const fn throw_value(throw: Throw) -> Option<u8> {
    if throw.marked() <= 6 {
        Some(VALUE[throw.marked() as usize])
    } else {
        None
    }
}

/// Whether a throw grants an extra throw (0, 1, 4 or 6 green sides up).
pub fn grants_extra_throw(throw: Throw) -> bool {
    throw.marked() <= 6 && EXTRA[throw.marked() as usize]
}

/// A square of the board, written column letter + row number as P1 sees it (`a1` .. `l4`).
/// Its index is `row * 12 + col`, the bit in the occupancy bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "String", try_from = "String"))]
pub struct Square(pub(crate) u8);

impl Square {
    /// The square on `row` (0..3, 0 = P1's home row) and `col` (0..11, 0 = `a`), if on the
    /// board.
    pub const fn new(row: u8, col: u8) -> Option<Square> {
        if row < ROWS && col < COLS {
            Some(Square(row * COLS + col))
        } else {
            None
        }
    }

    /// The square with index `row * 12 + col` (0..47), if on the board.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < ROWS * COLS {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The index, `row * 12 + col` (0..47).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The row, 0 (P1's home row, `1` in notation) to 3 (P2's home row, `4`).
    pub const fn row(self) -> u8 {
        self.0 / COLS
    }

    /// The column, 0 (`a`) to 11 (`l`).
    pub const fn col(self) -> u8 {
        self.0 % COLS
    }

    /// The square's bit in an occupancy bitboard.
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_grid_square(f, self.row(), self.col())
    }
}

const SQUARE_EXPECTED: &str =
    "a square from a1 to l4 (column letter a-l, row number 1-4, as P1 sees the board)";
const ACTION_EXPECTED: &str =
    "the square of the piece to move, from a1 to l4 (column letter a-l, row number 1-4, \
     as P1 sees the board), or `pass`";

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

/// A choice after a throw: move the piece standing on a square, or pass (only when no
/// piece can move). Notation: the square (`c1`) or `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "String", try_from = "String"))]
pub enum Action {
    /// Move the mover's piece on this square forward by the throw's value.
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

/// One piece on the board: where it is on its owner's circuit and whether it has moved yet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Piece {
    /// Circuit position, 0..71, on its owner's circuit (see [`circuit_square`]).
    pub pos: u8,
    /// Still on its start square, never moved: it can move only on a throw of four green
    /// sides. Only positions 0..11 (the home row) can hold an unmoved piece.
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

    /// An unmoved piece on its start square, circuit position `pos` (0..11).
    pub const fn start(pos: u8) -> Piece {
        Piece { pos, unmoved: true }
    }
}

/// A move of the mover's piece as [`State::planned_move`] reads it: what
/// [`Game::apply_action_unchecked`] would change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedMove {
    /// The moving piece's index in the mover's list.
    pub piece: usize,
    /// Its circuit position after the move (it is then a moved piece).
    pub to_pos: u8,
    /// The bit of the square it leaves.
    pub from_bit: u64,
    /// The bit of the square it lands on.
    pub to_bit: u64,
    /// The index in the enemy's list of the piece it captures, if any.
    pub captured: Option<usize>,
    /// Whether the throw grants the mover another throw (else the turn passes).
    pub extra: bool,
}

/// The moves of a decision, planned ([`State::planned_moves`]): an iterator over the
/// mover's pieces that can move on the pending throw, in list order.
#[derive(Clone, Debug)]
pub struct PlannedMoves<'a> {
    state: &'a State,
    movable: u16,
    seat: usize,
    g: usize,
}

impl PlannedMoves<'_> {
    /// How many moves are left (the number of legal moves before any is taken).
    #[inline]
    pub fn remaining(&self) -> usize {
        self.movable.count_ones() as usize
    }

    /// Whether at most one move is left (no count needed).
    #[inline]
    pub fn at_most_one(&self) -> bool {
        self.movable & self.movable.wrapping_sub(1) == 0
    }
}

impl Iterator for PlannedMoves<'_> {
    type Item = PlannedMove;

    #[inline]
    fn next(&mut self) -> Option<PlannedMove> {
        if self.movable == 0 {
            return None;
        }
        let piece = self.movable.trailing_zeros() as usize;
        self.movable &= self.movable - 1;
        Some(plan(self.state, self.seat, self.g, piece))
    }

    #[inline]
    fn nth(&mut self, n: usize) -> Option<PlannedMove> {
        for _ in 0..n {
            self.movable &= self.movable.wrapping_sub(1);
        }
        self.next()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining(), Some(self.remaining()))
    }
}

impl ExactSizeIterator for PlannedMoves<'_> {}

/// The move of `seat`'s piece at index `piece` (one of its pieces) with a throw of `g`
/// green sides, read as [`move_piece`] makes it ([`State::planned_move`]).
#[inline(always)]
fn plan(s: &State, seat: usize, g: usize, piece: usize) -> PlannedMove {
    let seat = seat & 1;
    let table = &SQUARE_OF[seat];
    let pos = s.pieces[seat][piece % PIECES].pos as usize;
    let from_sq = table[pos];
    let to_pos = NEXT[g & 7][pos];
    let to = table[to_pos as usize];
    let to_bit = 1u64 << (to & 63);
    let enemy = seat ^ 1;
    // As `remove_at` finds the captured piece: after every enemy piece on a lower square
    // (counted only where there is one: the count is a dozen instructions without a POPCNT
    // instruction).
    let captured = if s.occupied[enemy] & to_bit != 0 {
        let j = (s.occupied[enemy] & (to_bit - 1)).count_ones() as usize;
        (j < (s.count[enemy] as usize).min(PIECES)).then_some(j)
    } else {
        None
    };
    PlannedMove {
        piece,
        to_pos,
        from_bit: 1u64 << (from_sq & 63),
        to_bit,
        captured,
        extra: EXTRA[g & 7],
    }
}

/// A position of Issiren and the bookkeeping of whose turn it is.
///
/// Invariants (checked by [`Game::validate`]): each side has at most 12 pieces; the first
/// `count[seat]` entries of `pieces[seat]` are that side's pieces, listed in square order,
/// and the rest are blank (`Piece::default()`); positions are on the circuit; unmoved pieces
/// stand on their home row (positions 0..11); no two pieces share a square; the occupancy
/// bitboards match the pieces.
///
/// The fields are private (visible in this crate only, for `stickdice::testing`'s damaged
/// states), so the derived parts (the order of the pieces, the counts and
/// the bitboards) always agree with the pieces: a state comes from
/// [`Game::initial_state`], from play, from a [`Position`] (`State::try_from`, which puts
/// the pieces in order, fills in the rest and checks the position), or from JSON (read
/// the same way; [`Game::load_state`] then checks it). [`State::with_turn`],
/// [`State::with_pending`] and [`State::with_throws`] change a state without checking it:
/// [`Game::validate`] checks a state that comes from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "Position", try_from = "Unvalidated"))]
pub struct State {
    /// Each side's pieces still in the game (first `count[seat]` entries, in square order).
    pub(crate) pieces: [[Piece; PIECES]; 2],
    /// How many pieces each side still has on the board.
    pub(crate) count: [u8; 2],
    /// Occupancy bitboards: bit `row * 12 + col` is set where the side has a piece.
    pub(crate) occupied: [u64; 2],
    /// The seat to throw, or to decide while a throw is pending.
    pub(crate) turn: u8,
    /// The throw made and not yet acted on (its number of green sides up); `Some` exactly
    /// at a decision node.
    pub(crate) pending: Option<Throw>,
    /// Throws made so far in the game, extra throws included.
    pub(crate) throws: u32,
}

/// An Issiren position written out: each side's pieces and whose turn it is. It is the JSON
/// form of [`State`] and the way to build one: `State::try_from(position)` puts the pieces
/// in square order, fills in the rest and checks every rule that does not depend on the
/// game's options (the throw cap is [`Game::validate`]'s).
///
/// ```
/// use stickdice::games::issiren::{Issiren, Piece, Position, State};
/// use stickdice::{Game, Throw};
/// let game = Issiren::with_seats(2).unwrap();
/// let s = State::try_from(Position {
///     turn: 1,
///     pending: Some(Throw::new(4)),
///     throws: 9,
///     ..Position::new(&[Piece::moved(30), Piece::moved(12)], &[Piece::start(3)])
/// })
/// .unwrap();
/// assert_eq!(s.pieces_of(0), [Piece::moved(12), Piece::moved(30)]);
/// assert_eq!((s.count(), s.turn(), s.throws()), ([2, 1], 1, 9));
/// assert_eq!(game.validate(&s), Ok(()));
/// assert_eq!(State::try_from(s.position()), Ok(s));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Position {
    /// Each side's pieces (P1's, then P2's; at most 12 a side, in any order).
    pub pieces: [Vec<Piece>; 2],
    /// The seat to throw, or to decide while a throw is pending (0 or 1).
    #[cfg_attr(feature = "serde", serde(default))]
    pub turn: u8,
    /// The throw made and not yet acted on (its number of green sides up); `None`: a throw
    /// is due.
    #[cfg_attr(feature = "serde", serde(default))]
    pub pending: Option<Throw>,
    /// Throws made so far in the game, extra throws included.
    #[cfg_attr(feature = "serde", serde(default))]
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

    /// Builds the state and checks every invariant that does not depend on the game's
    /// options (each problem named, as [`Game::validate`] names it).
    fn try_from(p: Position) -> Result<State, InvalidState> {
        let s = State::from_position_unvalidated(&p)?;
        let mut problems = Problems::new();
        s.rule_problems(&mut problems);
        problems.finish()?;
        Ok(s)
    }
}

impl State {
    /// The state's parts (its JSON form).
    pub fn position(&self) -> Position {
        Position {
            pieces: [self.pieces_of(0).to_vec(), self.pieces_of(1).to_vec()],
            turn: self.turn,
            pending: self.pending,
            throws: self.throws,
        }
    }

    /// The state of these parts, its derived parts filled in, checked only for what it
    /// cannot hold (more than 12 pieces a side). JSON is read this way, so that
    /// [`crate::load_state`] reports the position's problems as [`Game::validate`] finds
    /// them; the solvers' tables build their states this way too. Not for general use:
    /// `State::try_from(position)` checks the rules.
    #[doc(hidden)]
    pub fn from_position_unvalidated(p: &Position) -> Result<State, InvalidState> {
        let [p1, p2] = &p.pieces;
        let mut problems = Problems::new();
        for (seat, list) in [p1, p2].iter().enumerate() {
            if list.len() > PIECES {
                problems.push(Problem::TooManyPieces {
                    seat,
                    count: list.len(),
                });
            }
        }
        problems.finish()?;
        let mut s = State {
            pieces: [[Piece::default(); PIECES]; 2],
            count: [p1.len() as u8, p2.len() as u8],
            occupied: [0; 2],
            turn: p.turn,
            pending: p.pending,
            throws: p.throws,
        };
        s.pieces[0][..p1.len()].copy_from_slice(p1);
        s.pieces[1][..p2.len()].copy_from_slice(p2);
        s.normalize();
        Ok(s)
    }

    /// Every broken invariant that does not depend on the game's options, in the order
    /// [`Game::validate`] reports them.
    fn rule_problems(&self, problems: &mut Problems) {
        let s = self;
        if s.turn > 1 {
            problems.push(Problem::TurnOutOfRange { turn: s.turn });
        }
        let mut found = [0u64; 2];
        for seat in 0..2 {
            let count = s.count[seat] as usize;
            if count > PIECES {
                problems.push(Problem::TooManyPieces { seat, count });
            }
            let n = count.min(PIECES);
            let table = &SQUARE_OF[seat];
            let mut on_square = [0u8; 48];
            let mut all_on_circuit = true;
            for (piece, p) in s.pieces[seat][..n].iter().enumerate() {
                if p.pos >= CIRCUIT_LEN {
                    all_on_circuit = false;
                    problems.push(Problem::OffCircuit {
                        seat,
                        piece,
                        pos: p.pos,
                    });
                    continue;
                }
                let sq = Square(table[p.pos as usize]);
                if p.unmoved && p.pos >= PIECES as u8 {
                    problems.push(Problem::UnmovedOffHomeRow {
                        seat,
                        piece,
                        pos: p.pos,
                        square: sq,
                    });
                }
                on_square[sq.0 as usize] += 1;
                found[seat] |= sq.bit();
            }
            for (idx, &k) in on_square.iter().enumerate() {
                if k > 1 {
                    problems.push(Problem::SharedSquare {
                        seat,
                        square: Square(idx as u8),
                        pieces: k,
                    });
                }
            }
            if let Some(p) = s.pieces[seat][n..]
                .iter()
                .position(|p| *p != Piece::default())
            {
                problems.push(Problem::EntryNotBlank {
                    seat,
                    entry: n + p,
                    count: n,
                });
            }
            if all_on_circuit {
                let list = &s.pieces[seat][..n];
                let key = |p: &Piece| (table[p.pos as usize], p.pos, p.unmoved);
                if list.windows(2).any(|w| key(&w[0]) > key(&w[1])) {
                    problems.push(Problem::NotInSquareOrder { seat });
                }
                if s.occupied[seat] != found[seat] {
                    problems.push(Problem::OccupancyMismatch {
                        seat,
                        occupied: s.occupied[seat],
                        pieces: found[seat],
                    });
                }
            }
        }
        let shared = found[0] & found[1];
        for idx in 0..48u8 {
            if shared & (1u64 << idx) != 0 {
                problems.push(Problem::BothSidesOnSquare {
                    square: Square(idx),
                });
            }
        }
        if s.count[0] == 0 && s.count[1] == 0 {
            problems.push(Problem::NoPiecesLeft);
        }
        if let Some(t) = s.pending {
            if t.marked() > 6 {
                problems.push(Problem::ImpossiblePendingThrow { marked: t.marked() });
            }
            if s.throws == 0 {
                problems.push(Problem::PendingBeforeAnyThrow);
            }
            if let Some(loser) = (0..2).find(|&seat| s.count[seat] == 0) {
                problems.push(Problem::PendingAfterEnd { loser });
            }
        }
    }

    /// This state with `turn` as the seat to throw (or to decide, with a throw pending).
    #[must_use]
    pub fn with_turn(mut self, turn: u8) -> State {
        self.turn = turn;
        self
    }

    /// This state with `pending` as the throw awaiting its move (`None`: a throw is due).
    #[must_use]
    pub fn with_pending(mut self, pending: Option<Throw>) -> State {
        self.pending = pending;
        self
    }

    /// This state with `throws` throws made so far.
    #[must_use]
    pub fn with_throws(mut self, throws: u32) -> State {
        self.throws = throws;
        self
    }

    /// Each side's piece list: the first [`State::count`] entries of a side are its pieces,
    /// in square order ([`State::pieces_of`]), the rest blank.
    #[inline]
    pub fn pieces(&self) -> &[[Piece; PIECES]; 2] {
        &self.pieces
    }

    /// How many pieces each side still has.
    #[inline]
    pub fn count(&self) -> [u8; 2] {
        // Read byte by byte, not as one copy of the array: the copy is a 16-bit load, and
        // range checks on its halves (Issiren's hand-set playouts test each count for
        // 1..=12) are folded into tests of the 16-bit word, so the compiler loses the
        // bound that lets it drop `pieces_of`'s `min(PIECES)` and the checks after it.
        [self.count[0], self.count[1]]
    }

    /// The occupancy bitboards: bit `row * 12 + col` ([`Square::bit`]) is set where the
    /// side has a piece.
    #[inline]
    pub fn occupied(&self) -> [u64; 2] {
        self.occupied
    }

    /// The seat to throw, or to decide while a throw is pending.
    #[inline]
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The throw made and not yet acted on (its number of green sides up); `Some` exactly
    /// at a decision node.
    #[inline]
    pub fn pending(&self) -> Option<Throw> {
        self.pending
    }

    /// Throws made so far in the game, extra throws included.
    #[inline]
    pub fn throws(&self) -> u32 {
        self.throws
    }

    /// Restores the derived parts after the pieces were set: sorts each side's pieces into
    /// square order, blanks the unused entries and recomputes the bitboards.
    fn normalize(&mut self) {
        for (seat, table) in SQUARE_OF.iter().enumerate() {
            let n = (self.count[seat] as usize).min(PIECES);
            let list = &mut self.pieces[seat];
            list[..n].sort_unstable_by_key(|p| (table[p.pos as usize], p.pos, p.unmoved));
            for p in &mut list[n..] {
                *p = Piece::default();
            }
            self.occupied[seat] = list[..n]
                .iter()
                .filter(|p| p.pos < CIRCUIT_LEN)
                .fold(0, |m, p| m | 1u64 << table[p.pos as usize]);
        }
    }

    /// The pieces `seat` still has, in square order (empty for a seat other than 0 or 1).
    #[inline]
    pub fn pieces_of(&self, seat: Seat) -> &[Piece] {
        match self.pieces.get(seat) {
            Some(list) => &list[..(self.count[seat] as usize).min(PIECES)],
            None => &[],
        }
    }

    /// The piece on `square`, with its owner.
    pub fn piece_at(&self, square: Square) -> Option<(Seat, Piece)> {
        (0..2).find_map(|seat| {
            self.pieces_of(seat)
                .iter()
                .find(|p| p.pos < CIRCUIT_LEN && SQUARE_OF[seat][p.pos as usize] == square.0)
                .map(|&p| (seat, p))
        })
    }

    /// How many enemy pieces `seat` has captured.
    pub fn captured_by(&self, seat: Seat) -> u8 {
        match seat {
            0 | 1 => (PIECES as u8).saturating_sub(self.count[1 - seat]),
            _ => 0,
        }
    }

    /// The move [`Game::apply_action_unchecked`] makes of the mover's piece on `from` with
    /// the pending throw, read without making it (for an evaluation that rates every move
    /// of a decision from one position). `None` where no throw is pending, the turn is not
    /// seat 0 or 1, or the mover has no piece on `from` (the action would move nothing).
    ///
    /// ```
    /// use stickdice::games::issiren::{circuit_square, Issiren};
    /// use stickdice::{Game, Throw};
    /// let game = Issiren::with_seats(2).unwrap();
    /// let mut s = game.initial_state();
    /// game.apply_throw_unchecked(&mut s, Throw::new(4)); // four green sides: a release
    /// // P1's piece at the start of its circuit (the last of its home row, in square order).
    /// let m = s.planned_move(circuit_square(0, 0).unwrap()).unwrap();
    /// assert_eq!((m.piece, m.to_pos, m.captured, m.extra), (11, 1, None, true));
    /// ```
    #[inline]
    pub fn planned_move(&self, from: Square) -> Option<PlannedMove> {
        if self.pending.is_none() || self.turn > 1 {
            return None;
        }
        let seat = self.turn as usize;
        let n = (self.count[seat] as usize).min(PIECES);
        let table = &SQUARE_OF[seat];
        let piece = self.pieces[seat][..n]
            .iter()
            .position(|p| table[p.pos as usize] == from.0)?;
        self.planned_move_of(piece)
    }

    /// [`State::planned_move`] of the mover's piece at index `piece` of its list (no search
    /// for it by square). `None` also where there is no such piece.
    #[inline]
    pub fn planned_move_of(&self, piece: usize) -> Option<PlannedMove> {
        let throw = self.pending?;
        if self.turn > 1 {
            return None;
        }
        let seat = self.turn as usize;
        if piece >= (self.count[seat] as usize).min(PIECES) {
            return None;
        }
        Some(plan(self, seat, (throw.marked() & 7) as usize, piece))
    }

    /// The moves of the pending throw, as [`State::planned_move`] reads them, in the order
    /// of [`Game::legal_actions`]: one for each of the mover's pieces that can move
    /// ([`State::movable_pieces`]; none where the pass is the only action). Empty where no
    /// throw is pending or the turn is not seat 0 or 1.
    ///
    /// ```
    /// use stickdice::games::issiren::Issiren;
    /// use stickdice::{Game, Throw};
    /// let game = Issiren::with_seats(2).unwrap();
    /// let mut s = game.initial_state();
    /// game.apply_throw_unchecked(&mut s, Throw::new(4)); // a release
    /// let moves: Vec<_> = s.planned_moves().collect();
    /// assert_eq!(moves, [s.planned_move_of(0).unwrap()]);
    /// assert_eq!((moves[0].to_pos, moves[0].captured, moves[0].extra), (12, None, true));
    /// ```
    #[inline]
    pub fn planned_moves(&self) -> PlannedMoves<'_> {
        let (movable, seat, g) = match self.pending {
            Some(throw) if self.turn <= 1 => {
                let (seat, g) = (self.turn as usize, (throw.marked() & 7) as usize);
                (movable_pieces(self, seat, g), seat, g)
            }
            _ => (0, 0, 0),
        };
        PlannedMoves {
            state: self,
            movable,
            seat,
            g,
        }
    }

    /// Bit `i` set: the mover's piece at index `i` of its list can move on the pending
    /// throw. These are the moves [`Game::legal_actions`] lists, in its order, while the
    /// game goes on (no bit: the pass is the only action). 0 where no throw is pending or
    /// the turn is not seat 0 or 1.
    ///
    /// ```
    /// use stickdice::games::issiren::Issiren;
    /// use stickdice::{Game, Throw};
    /// let game = Issiren::with_seats(2).unwrap();
    /// let mut s = game.initial_state();
    /// game.apply_throw_unchecked(&mut s, Throw::new(4)); // a release
    /// // Only the last piece of the home row (the first in square order) can move: the
    /// // others would land on a piece of their own.
    /// assert_eq!(s.movable_pieces(), 1 << 0);
    /// ```
    #[inline]
    pub fn movable_pieces(&self) -> u16 {
        match self.pending {
            Some(throw) if self.turn <= 1 => {
                movable_pieces(self, self.turn as usize, (throw.marked() & 7) as usize)
            }
            _ => 0,
        }
    }

    /// Removes the piece of `seat` standing on square index `sq` (keeping square order).
    #[inline]
    fn remove_at(&mut self, seat: usize, sq: u8) {
        let n = (self.count[seat] as usize).min(PIECES);
        let bit = 1u64 << (sq & 63);
        // Square order, one piece to a square: it is the one after every piece of `seat`
        // on a lower square.
        let j = (self.occupied[seat] & (bit - 1)).count_ones() as usize;
        if self.occupied[seat] & bit != 0 && j < n {
            let list = &mut self.pieces[seat];
            // A few pieces to shift: swapped along in place (a `copy_within` calls
            // `memmove`), which leaves the blank on the last piece's entry.
            list[j] = Piece::default();
            let mut k = j;
            while k + 1 < n {
                list.swap(k, k + 1);
                k += 1;
            }
            self.count[seat] -= 1;
            self.occupied[seat] &= !bit;
        }
    }
}

/// What can be wrong with an Issiren [`State`]: the problems [`Game::validate`] (and
/// `State::try_from` a [`Position`]) report, each with the seat, piece, square or value concerned.
/// Seats are 0-based (P1 is seat 0); a piece is its index in its side's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The turn is neither seat 0 nor seat 1.
    TurnOutOfRange {
        /// The seat given.
        turn: u8,
    },
    /// A side is given more than 12 pieces.
    TooManyPieces {
        /// The side.
        seat: Seat,
        /// Its number of pieces.
        count: usize,
    },
    /// A piece's circuit position is not on the 72-step circuit.
    OffCircuit {
        /// The side.
        seat: Seat,
        /// The piece's index in its side's list.
        piece: usize,
        /// Its circuit position.
        pos: u8,
    },
    /// A piece marked unmoved stands off its home row.
    UnmovedOffHomeRow {
        /// The side.
        seat: Seat,
        /// The piece's index in its side's list.
        piece: usize,
        /// Its circuit position.
        pos: u8,
        /// The square it stands on.
        square: Square,
    },
    /// Several pieces of one side stand on one square.
    SharedSquare {
        /// The side.
        seat: Seat,
        /// The square.
        square: Square,
        /// How many of its pieces stand there.
        pieces: u8,
    },
    /// A piece of each side stands on one square.
    BothSidesOnSquare {
        /// The square.
        square: Square,
    },
    /// An entry past a side's pieces is not blank (`Piece::default()`).
    EntryNotBlank {
        /// The side.
        seat: Seat,
        /// The entry's index.
        entry: usize,
        /// The side's number of pieces.
        count: usize,
    },
    /// A side's pieces are not listed in square order.
    NotInSquareOrder {
        /// The side.
        seat: Seat,
    },
    /// A side's occupancy bitboard does not match its pieces.
    OccupancyMismatch {
        /// The side.
        seat: Seat,
        /// The bitboard.
        occupied: u64,
        /// The squares its pieces stand on.
        pieces: u64,
    },
    /// Neither side has a piece left.
    NoPiecesLeft,
    /// The pending throw shows more green sides than there are sticks.
    ImpossiblePendingThrow {
        /// Its green sides.
        marked: u8,
    },
    /// A throw is pending though no throw has been made.
    PendingBeforeAnyThrow,
    /// A throw is pending though a side has lost its last piece (the game is over).
    PendingAfterEnd {
        /// The side without pieces.
        loser: Seat,
    },
    /// More throws have been made than the throw cap allows.
    PastThrowCap {
        /// The throw count.
        throws: u32,
        /// The cap.
        cap: u32,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::TurnOutOfRange { turn } => write!(
                f,
                "turn seat {turn} is out of range: Issiren has seats 0 (P1) and 1 (P2)"
            ),
            Problem::TooManyPieces { seat, count } => write!(
                f,
                "P{} has {count} pieces; a side has at most {PIECES}",
                seat + 1
            ),
            Problem::OffCircuit { seat, piece, pos } => write!(
                f,
                "P{}'s piece {piece} is at circuit position {pos}, off the 72-step circuit \
                 (positions 0 to 71)",
                seat + 1
            ),
            Problem::UnmovedOffHomeRow {
                seat,
                piece,
                pos,
                square,
            } => write!(
                f,
                "P{}'s piece {piece} is marked unmoved but stands at circuit position {pos} \
                 (square {square}), not on a start square of its home row (positions 0 to 11)",
                seat + 1
            ),
            Problem::SharedSquare {
                seat,
                square,
                pieces,
            } => {
                if pieces == 2 {
                    f.write_str("two")?;
                } else {
                    write!(f, "{pieces}")?;
                }
                write!(
                    f,
                    " pieces of P{} on square {square} (a square holds one piece)",
                    seat + 1
                )
            }
            Problem::BothSidesOnSquare { square } => write!(
                f,
                "a piece of P1 and a piece of P2 on square {square} (a square holds one piece)"
            ),
            Problem::EntryNotBlank { seat, entry, count } => write!(
                f,
                "P{who}'s piece entry {entry} is not blank, though P{who} has only {count} pieces",
                who = seat + 1
            ),
            Problem::NotInSquareOrder { seat } => write!(
                f,
                "P{}'s pieces are not listed in square order (State::normalize sorts them)",
                seat + 1
            ),
            Problem::OccupancyMismatch {
                seat,
                occupied,
                pieces,
            } => write!(
                f,
                "P{}'s occupancy bitboard {occupied:#x} does not match its pieces, which stand \
                 on {pieces:#x} (State::normalize recomputes it)",
                seat + 1
            ),
            Problem::NoPiecesLeft => f.write_str(
                "neither side has a piece left; the game ends when the first side loses its last",
            ),
            Problem::ImpossiblePendingThrow { marked } => write!(
                f,
                "the pending throw shows {marked} green sides, impossible with six sticks"
            ),
            Problem::PendingBeforeAnyThrow => {
                f.write_str("a throw is pending but the throw count is 0")
            }
            Problem::PendingAfterEnd { loser } => write!(
                f,
                "a throw is pending but P{} has no pieces left, so the game is over",
                loser + 1
            ),
            Problem::PastThrowCap { throws, cap } => {
                write!(f, "throw count {throws} is past the throw cap of {cap}")
            }
        }
    }
}

impl ProblemKind for Problem {}

/// The JSON form read as it is written, the position checked by [`Game::validate`] when
/// loaded ([`crate::load_state`]) rather than on reading.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(transparent)]
struct Unvalidated(Position);

#[cfg(feature = "serde")]
impl TryFrom<Unvalidated> for State {
    type Error = InvalidState;
    fn try_from(p: Unvalidated) -> Result<State, InvalidState> {
        State::from_position_unvalidated(&p.0)
    }
}

/// The start: each side's twelve unmoved pieces on its home row, circuit positions 0..11,
/// listed in square order (P1's from position 11, on `a1`; P2's from position 0, on
/// `a4`), built at compile time.
const INITIAL_STATE: State = {
    let mut pieces = [[Piece::start(0); PIECES]; 2];
    let mut occupied = [0u64; 2];
    let mut i = 0;
    while i < PIECES {
        pieces[0][i] = Piece::start((PIECES - 1 - i) as u8);
        pieces[1][i] = Piece::start(i as u8);
        occupied[0] |= 1 << SQUARE_OF[0][i];
        occupied[1] |= 1 << SQUARE_OF[1][i];
        i += 1;
    }
    State {
        pieces,
        count: [PIECES as u8; 2],
        occupied,
        turn: 0,
        pending: None,
        throws: 0,
    }
};

/// Issiren for two players, with its throw cap.
///
/// ```
/// use stickdice::{ActionList, Game, Issiren, Node, Present};
/// let game = Issiren::with_seats(2).unwrap();
/// assert!(Issiren::with_seats(3).is_err()); // two players only
/// let mut state = game.initial_state();
/// // Throws are fed in by count; a decision lists the legal moves in notation.
/// game.apply_throw(&mut state, "1".parse().unwrap()).unwrap();
/// if let Node::Decide(_) = game.node(&state) {
///     let mut legal = ActionList::new();
///     game.legal_actions(&state, &mut legal);
///     let text = legal[0].to_string();
///     assert_eq!(game.parse_action(&text), Ok(legal[0]));
///     game.apply_action(&mut state, legal[0]).unwrap();
/// }
/// println!("{}", game.render(&state));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Issiren {
    seats: u8,
    max_throws: u32,
}

impl Issiren {
    /// The throw cap (rule option `max_throws`).
    pub fn max_throws(&self) -> u32 {
        self.max_throws
    }

    /// Whether `seat` has a piece that can move on `throw` in `state`.
    pub fn can_move(&self, state: &State, seat: Seat, throw: Throw) -> bool {
        if seat > 1 || throw.marked() > 6 {
            return false;
        }
        let g = throw.marked() as usize;
        let table = &SQUARE_OF[seat];
        let own = state.occupied[seat];
        state.pieces_of(seat).iter().any(|p| {
            (!p.unmoved || g == 4) && own & (1u64 << table[advance(p.pos, VALUE[g]) as usize]) == 0
        })
    }

    /// [`Game::apply_action_unchecked`] of the move of the mover's piece at index `piece`
    /// of its list (no search for it by square): the action
    /// `Move(`the square of that piece`)`. A piece index past the mover's pieces moves
    /// nothing, as a move from an empty square does.
    ///
    /// ```
    /// use stickdice::games::issiren::{circuit_square, Action, Issiren};
    /// use stickdice::{Game, Throw};
    /// let game = Issiren::with_seats(2).unwrap();
    /// let mut s = game.initial_state();
    /// game.apply_throw_unchecked(&mut s, Throw::new(4)); // a release
    /// let mut by_square = s;
    /// game.apply_action_unchecked(&mut by_square, Action::Move(circuit_square(0, 11).unwrap()));
    /// game.apply_move_of_piece(&mut s, 0); // the same piece, by its index
    /// assert_eq!(s, by_square);
    /// ```
    #[inline(always)]
    pub fn apply_move_of_piece(&self, s: &mut State, piece: usize) {
        let Some(throw) = s.pending.take() else {
            return;
        };
        let seat = (s.turn & 1) as usize;
        let g = (throw.marked() & 7) as usize;
        if piece < (s.count[seat] as usize).min(PIECES) && move_piece(s, seat, piece, g) {
            return; // the 12th capture: the game ends at once
        }
        if !EXTRA[g] {
            s.turn = (seat ^ 1) as u8;
        }
    }

    fn game_over_by_capture(s: &State) -> bool {
        s.count[0] == 0 || s.count[1] == 0
    }
}

/// The index (in `seat`'s list) of a uniformly random piece of the mover that can move on
/// the pending throw, or `None` when none can (or no throw is pending): a random piece is
/// drawn and kept if it can move (given that it can move, it is uniform among the pieces
/// that can); otherwise the pieces that can move are listed in a bitmask and one of them
/// drawn.
#[inline(always)]
fn random_piece(s: &State, index: impl FnMut(usize) -> usize) -> Option<usize> {
    let throw = s.pending?;
    random_piece_on(
        s,
        (s.turn & 1) as usize,
        (throw.marked() & 7) as usize,
        index,
    )
}

/// [`random_piece`] for `seat` and a throw of `g` green sides (`g` < 8), pending or not.
#[inline(always)]
fn random_piece_on(
    s: &State,
    seat: usize,
    g: usize,
    mut index: impl FnMut(usize) -> usize,
) -> Option<usize> {
    let release = g == 4;
    let landing = &LANDING[seat][g];
    let own = s.occupied[seat];
    let pieces = s.pieces_of(seat);
    // 1 when an unmoved piece cannot move: one byte test per piece for both conditions of
    // the throw.
    let held = u8::from(!release);
    let can_move =
        |p: &Piece| u8::from(p.unmoved) & held == 0 && own & (1u64 << landing[p.pos as usize]) == 0;
    let n = pieces.len();
    if n > 1 {
        for _ in 0..RANDOM_PIECE_TRIES {
            let i = index(n);
            if can_move(&pieces[i]) {
                return Some(i);
            }
        }
    } else if let [lone] = pieces {
        // A lone piece's landing square never holds a piece of its own (a move of 1 to 6
        // steps never comes back to its square), so only an unmoved one can be refused.
        return (!lone.unmoved || release).then_some(0);
    }
    let mut movable = 0u16;
    let mut m = 0;
    for (i, p) in pieces.iter().enumerate() {
        if can_move(p) {
            movable |= 1 << i;
            m += 1;
        }
    }
    if m == 0 {
        return None;
    }
    let k = if m == 1 { 0 } else { index(m) };
    for _ in 0..k {
        movable &= movable - 1;
    }
    Some(movable.trailing_zeros() as usize)
}

/// Bit `i`: `seat`'s piece at index `i` of its list can move on a throw of `g` green sides
/// (the order of [`Game::legal_actions`]' moves).
#[inline(always)]
fn movable_pieces(s: &State, seat: usize, g: usize) -> u16 {
    let landing = &LANDING[seat][g];
    let own = s.occupied[seat];
    // 1 when an unmoved piece cannot move, as in `random_piece_on`.
    let held = u8::from(g != 4);
    let mut movable = 0u16;
    for (i, p) in s.pieces_of(seat).iter().enumerate() {
        if u8::from(p.unmoved) & held == 0 && own & (1u64 << landing[p.pos as usize]) == 0 {
            movable |= 1 << i;
        }
    }
    movable
}

/// Moves `seat`'s piece at index `i` of its list by the value of a throw of `g` green
/// sides, capturing an enemy piece where it lands and keeping the list in square order.
/// Returns whether that was the enemy's last piece (the game ends at once).
#[inline(always)]
fn move_piece(s: &mut State, seat: usize, i: usize, g: usize) -> bool {
    let n = (s.count[seat] as usize).min(PIECES);
    let table = &SQUARE_OF[seat];
    let mut i = i;
    let from = table[s.pieces[seat][i].pos as usize];
    let pos = NEXT[g & 7][s.pieces[seat][i].pos as usize];
    let to = table[pos as usize];
    let enemy = seat ^ 1;
    if s.occupied[enemy] & (1u64 << to) != 0 {
        s.remove_at(enemy, to);
    }
    s.occupied[seat] = (s.occupied[seat] & !(1u64 << (from & 63))) | (1u64 << to);
    let list = &mut s.pieces[seat];
    list[i] = Piece::moved(pos);
    // Keep square order: bubble the moved piece to its place, up the list if it moved to
    // a higher square, else down.
    if to > from {
        while i + 1 < n && table[list[i + 1].pos as usize] < to {
            list.swap(i, i + 1);
            i += 1;
        }
    } else {
        while i > 0 && table[list[i - 1].pos as usize] > to {
            list.swap(i, i - 1);
            i -= 1;
        }
    }
    s.count[enemy] == 0
}

/// `SEAT`'s turn in random play ([`Playouts::play_random_to_end`]): a throw (unless the
/// throw cap is reached) and its random decision, again while the throws grant extra
/// throws. Returns whether the turn passed (`false`: the game is over).
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
        let g = (b.throw(rng, Sticks::SIX).marked() & 7) as usize;
        if let Some(i) = random_piece_on(s, SEAT, g, |len| b.index(rng, len)) {
            if move_piece(s, SEAT, i, g) {
                return false; // the 12th capture: the game ends at once
            }
        }
        if !EXTRA[g] {
            return true;
        }
    }
}

impl Game for Issiren {
    type State = State;
    type Action = Action;
    const NAME: &'static str = "issiren";
    const TITLE: &'static str = "Issiren (Ishighän)";
    const MAX_ACTIONS: usize = PIECES;
    const SEATS: (usize, usize) = (2, 2);

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        check_seats::<Self>(seats)?;
        Ok(Issiren {
            seats: seats as u8,
            max_throws: DEFAULT_MAX_THROWS,
        })
    }

    crate::rule_options! {
        max_throws: max_throws() => crate::config::MAX_THROWS_HELP,
    }

    fn seats(&self) -> usize {
        self.seats as usize
    }

    #[inline]
    fn initial_state(&self) -> State {
        INITIAL_STATE
    }

    #[inline]
    fn node(&self, s: &State) -> Node {
        if Self::game_over_by_capture(s) {
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
        let Some(throw) = s.pending else {
            out.clear();
            return;
        };
        if Self::game_over_by_capture(s) {
            out.clear();
            return;
        }
        let seat = (s.turn & 1) as usize;
        let g = (throw.marked() & 7) as usize;
        let release = g == 4;
        let table = &SQUARE_OF[seat];
        let landing = &LANDING[seat][g];
        let own = s.occupied[seat];
        // The list is built in a plain array and handed over whole: pushing onto the
        // `SmallVec` checks its length and capacity for every action. Filled with moves
        // (every byte defined, so it is cleared a word at a time), not passes.
        let mut buf = [Action::Move(Square(0)); MAX_ACTIONS];
        let mut n = 0;
        for p in s.pieces_of(seat) {
            if p.unmoved && !release {
                continue;
            }
            let to = landing[p.pos as usize];
            if own & (1u64 << to) == 0 {
                buf[n] = Action::Move(Square(table[p.pos as usize]));
                n += 1;
            }
        }
        if n == 0 {
            // No piece can move: the only action is the pass.
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
        let Some(throw) = s.pending.take() else {
            return;
        };
        let seat = (s.turn & 1) as usize;
        let g = (throw.marked() & 7) as usize;
        if let Action::Move(from) = action {
            let n = (s.count[seat] as usize).min(PIECES);
            let table = &SQUARE_OF[seat];
            if let Some(i) = s.pieces[seat][..n]
                .iter()
                .position(|p| table[p.pos as usize] == from.0)
            {
                if move_piece(s, seat, i, g) {
                    return; // the 12th capture: the game ends at once
                }
            }
        }
        if !EXTRA[g] {
            s.turn = (seat ^ 1) as u8;
        }
    }

    fn ranking(&self, s: &State) -> Option<Ranking> {
        if self.node(s) != Node::End {
            return None;
        }
        let keys = match (s.count[0], s.count[1]) {
            (a, 0) if a > 0 => [0, 1],
            (0, b) if b > 0 => [1, 0],
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
        let mut problems = Problems::new();
        s.rule_problems(&mut problems);
        if s.throws > self.max_throws {
            problems.push(Problem::PastThrowCap {
                throws: s.throws,
                cap: self.max_throws,
            });
        }
        problems.finish()
    }
}

impl Present for Issiren {
    fn render(&self, s: &State) -> String {
        let mut out = String::new();
        let header = "      a  b  c  d  e  f  g  h  i  j  k  l\n";
        out.push_str(header);
        for row in (0..ROWS).rev() {
            // Everyone crosses row 1 and row 3 right to left, rows 2 and 4 left to right.
            let arrow = if row % 2 == 0 { '<' } else { '>' };
            out.push_str(&format!("  {} {} ", row + 1, arrow));
            for col in 0..COLS {
                let sq = Square(row * COLS + col);
                match s.piece_at(sq) {
                    Some((seat, p)) => {
                        let mark = if p.unmoved {
                            '*'
                        } else if p.pos >= 48 {
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
                3 => out.push_str("   P2's home row"),
                0 => out.push_str("   P1's home row"),
                _ => {}
            }
            out.push('\n');
        }
        out.push_str(header);
        out.push_str(
            "1/2 = a piece of P1/P2;  * = unmoved (only 4 green sides free it);  \
             ' = on the way back (second crossing of rows 2-3);  < > = direction of travel\n",
        );
        out.push_str(&format!(
            "Pieces left: P1 {}, P2 {}.  Throws made: {} of {}.\n",
            s.count[0], s.count[1], s.throws, self.max_throws
        ));
        match self.node(s) {
            Node::End => match self.ranking(s).map(|r| r.places()[0]) {
                Some(0) if s.count[1] == 0 => {
                    out.push_str("Game over: P1 wins, having captured all 12 of P2's pieces.\n")
                }
                Some(1) => {
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
        let g = throw.marked();
        let Some(v) = throw_value(throw) else {
            return format!("{g} green sides up: impossible with six sticks");
        };
        let mut text = match g {
            0 => format!("no green side up (six white): move {v}"),
            1 => format!("1 green side up (five white): move {v}"),
            4 => format!("4 green sides up: move {v} (the only throw that frees an unmoved piece)"),
            _ => format!("{g} green sides up: move {v}"),
        };
        if grants_extra_throw(throw) {
            text.push_str(", throw again");
        }
        let seat = (s.turn & 1) as usize;
        if !Self::game_over_by_capture(s) && !self.can_move(s, seat, throw) {
            text.push_str(&format!("; no piece of P{} can move: pass", seat + 1));
        }
        text
    }
}

impl Playouts for Issiren {
    /// A random piece is drawn and kept if it can move (given that it can move, it is
    /// uniform among the pieces that can); otherwise the pieces that can move are listed
    /// in a bitmask and one of them drawn. No action list is built.
    #[inline]
    fn random_action(
        &self,
        s: &State,
        _actions: &mut ActionList<Action>,
        index: impl FnMut(usize) -> usize,
    ) -> Action {
        let seat = (s.turn & 1) as usize;
        match random_piece(s, index) {
            Some(i) => Action::Move(Square(SQUARE_OF[seat][s.pieces[seat][i].pos as usize])),
            None => Action::Pass,
        }
    }

    /// [`Playouts::random_action`]'s piece, moved by its index (no search for it by square).
    #[inline]
    fn play_random_action(
        &self,
        s: &mut State,
        _actions: &mut ActionList<Action>,
        index: impl FnMut(usize) -> usize,
    ) -> Action {
        let Some(throw) = s.pending else {
            return Action::Pass;
        };
        let seat = (s.turn & 1) as usize;
        let piece = random_piece(s, index);
        s.pending = None;
        let g = (throw.marked() & 7) as usize;
        let action = match piece {
            Some(i) => {
                let from = Square(SQUARE_OF[seat][s.pieces[seat][i].pos as usize]);
                if move_piece(s, seat, i, g) {
                    return Action::Move(from); // the 12th capture: the game ends at once
                }
                Action::Move(from)
            }
            None => Action::Pass,
        };
        if !EXTRA[g] {
            s.turn = (seat ^ 1) as u8;
        }
        action
    }

    /// Each throw and its decision in one loop, one loop per seat (so each seat's tables
    /// and pieces are at fixed places): the throw (the same bits), the random piece of
    /// [`Playouts::play_random_action`] (the same draws), its move, until the turn passes,
    /// with the throw count held in a register and no pending throw stored. A decision
    /// already due is made by [`Playouts::play_random_action`] first; a position with a turn
    /// other than 0 or 1 (which [`Game::validate`] rejects) is played step by step. Kept
    /// out of line: a whole game's loop, which would crowd the searches that can call it.
    #[inline(never)]
    fn play_random_to_end<R: rand::Rng + ?Sized>(
        &self,
        s: &mut State,
        bits: &mut crate::play::RandomBits,
        rng: &mut R,
    ) {
        if s.turn > 1 {
            crate::play::random_to_end_step_by_step(self, s, bits, rng);
            return;
        }
        if Self::game_over_by_capture(s) {
            return; // an ended game, a throw pending or not
        }
        let mut b = *bits;
        if s.pending.is_some() {
            self.play_random_action(s, &mut ActionList::new(), |len| b.index(rng, len));
        }
        if !Self::game_over_by_capture(s) {
            let max = self.max_throws;
            let mut throws = s.throws;
            let mut seat = s.turn;
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

    /// The legal actions are the pieces that can move, in list order (or the pass): the
    /// chosen one is found in a bitmask of them and moved by its index.
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
        if Self::game_over_by_capture(s) {
            self.legal_actions(s, actions);
            return actions[index(0)];
        }
        let seat = (s.turn & 1) as usize;
        let g = (throw.marked() & 7) as usize;
        let mut movable = movable_pieces(s, seat, g);
        let m = movable.count_ones() as usize;
        s.pending = None;
        let action = if m == 0 {
            Action::Pass
        } else {
            let k = if m == 1 { 0 } else { index(m) };
            for _ in 0..k {
                movable &= movable - 1;
            }
            let i = movable.trailing_zeros() as usize;
            let from = Square(SQUARE_OF[seat][s.pieces[seat][i].pos as usize]);
            if move_piece(s, seat, i, g) {
                return Action::Move(from); // the 12th capture: the game ends at once
            }
            Action::Move(from)
        };
        if !EXTRA[g] {
            s.turn = (seat ^ 1) as u8;
        }
        action
    }
}

// ---- The drawing ---------------------------------------------------------------------

use crate::board::{
    circuit_piece, home_rows_grid, Arrow, Board, BoardGeometry, BoardMove, ChosenBy, PlacedPiece,
    StickFaces, Track,
};

/// The geometry index of an Issiren square: its own index (`row * 12 + col`).
fn issiren_index(sq: Square) -> usize {
    sq.index() as usize
}

impl Board for Issiren {
    fn geometry(&self) -> BoardGeometry {
        let squares = home_rows_grid(ROWS * COLS, ROWS, |i| {
            let sq = Square::from_index(i).expect("on the board");
            (sq.row(), sq.col(), sq.to_string())
        });
        let tracks: Vec<Track> = (0..2)
            .map(|seat| Track {
                seat: Some(seat),
                squares: (0..CIRCUIT_LEN)
                    .filter_map(|p| circuit_square(seat, p).map(issiren_index))
                    .collect(),
                loops_to: Some(0),
            })
            .collect();
        // Every row is crossed in one direction by both seats: one arrow per row.
        let arrows = (0..ROWS)
            .map(|row| {
                let y = (3 - row) as f64 + 0.5;
                let (x1, x2) = if row % 2 == 0 {
                    (11.6, 0.4)
                } else {
                    (0.4, 11.6)
                };
                Arrow {
                    x1,
                    y1: y,
                    x2,
                    y2: y,
                }
            })
            .collect();
        let starts = (0..2)
            .map(|seat| circuit_square(seat, 0).map_or(0, issiren_index))
            .collect();
        BoardGeometry {
            width: 12.0,
            height: 4.0,
            squares,
            chosen_by: ChosenBy::Square,
            tracks,
            starts,
            arrows,
            sticks: StickFaces {
                count: 6,
                marked: "green",
                unmarked: "white",
            },
            legend: "each seat runs its twelve pieces round the circuit (out along rows 2 and \
                     3, through the other home row, back); a dashed piece is unmoved (only a \
                     throw of 4 green sides frees it); a piece marked ' is on its way back",
        }
    }

    fn pieces(&self, s: &State) -> Vec<PlacedPiece> {
        let mut out = Vec::new();
        for seat in 0..2 {
            for p in s.pieces_of(seat) {
                let Some(sq) = circuit_square(seat, p.pos) else {
                    continue;
                };
                let returning = (p.pos >= 48).then_some(", on its way back");
                out.push(circuit_piece(
                    issiren_index(sq),
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
        let seat = (s.turn() & 1) as usize;
        let steps = s.pending().and_then(throw_value).unwrap_or(0);
        legal
            .iter()
            .map(|&a| {
                let (from, to) = match a {
                    Action::Move(sq) => {
                        let to = s
                            .pieces_of(seat)
                            .iter()
                            .find(|p| circuit_square(seat, p.pos) == Some(sq))
                            .and_then(|p| circuit_square(seat, (p.pos + steps) % CIRCUIT_LEN));
                        (Some(issiren_index(sq)), to.map(issiren_index))
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

    fn describe_action(&self, s: &State, action: Self::Action) -> String {
        let seat = (s.turn() & 1) as usize;
        let mut after = *s;
        if self.apply_action(&mut after, action).is_err() {
            return format!("P{} cannot play {action} here", seat + 1);
        }
        match action {
            Action::Pass => format!("P{} passes: no piece can move", seat + 1),
            Action::Move(from) => {
                let to = self
                    .moves(s)
                    .into_iter()
                    .find(|m| m.action == action.to_string())
                    .and_then(|m| m.to)
                    .and_then(|i| Square::from_index(i as u8));
                let to = to.map_or("?".to_string(), |t| t.to_string());
                let mut text = format!("P{} moves the piece on {from} to {to}", seat + 1);
                if after.count()[1 - seat] < s.count()[1 - seat] {
                    text.push_str(&format!(
                        ", capturing P{}'s piece there ({} left)",
                        2 - seat,
                        after.count()[1 - seat]
                    ));
                }
                text
            }
        }
    }

    fn describe_change(&self, b: &State, a: &State) -> Vec<String> {
        (0..2)
            .filter(|&seat| a.count()[seat] < b.count()[seat])
            .map(|seat| {
                format!(
                    "P{} loses a piece ({} left){}",
                    seat + 1,
                    a.count()[seat],
                    if a.count()[seat] == 0 {
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

    fn problems(s: &State) -> Vec<String> {
        Issiren::with_seats(2)
            .unwrap()
            .validate(s)
            .unwrap_err()
            .messages()
    }

    /// The derived parts cannot be set from outside the module; validate still names them
    /// when they disagree (for states built here, or by a future bug).
    #[test]
    fn validate_names_derived_parts_that_disagree_with_the_pieces() {
        let good = State::try_from(Position::new(&[Piece::moved(12)], &[Piece::moved(6)])).unwrap();

        let mut s = good;
        s.count[0] = 13;
        assert!(problems(&s).iter().any(|m| m.contains("P1 has 13 pieces")));

        let mut s = good;
        s.occupied[0] |= 1 << 40;
        assert!(problems(&s)[0].contains("P1's occupancy bitboard"));

        let mut s = good;
        s.pieces[0][5] = Piece::moved(3);
        assert!(problems(&s)[0].contains("P1's piece entry 5 is not blank"));

        let mut s = good;
        s.count[0] = 2;
        s.pieces[0][1] = Piece::moved(0); // l1 listed after a2
        s.occupied[0] |= 1 << 11;
        assert!(problems(&s)[0].contains("not listed in square order"));
        s.normalize();
        assert_eq!(Issiren::with_seats(2).unwrap().validate(&s), Ok(()));
    }

    /// `play_legal_action` (the chosen piece found in a bitmask and moved by its index)
    /// makes the same draws, chooses the same action and reaches the same state as listing
    /// the legal actions, indexing them and `apply_action_unchecked`, at every decision of
    /// many random games.
    #[test]
    fn play_legal_action_is_the_indexed_legal_action_applied() {
        use rand::{RngExt as _, SeedableRng as _};
        let game = Issiren::with_seats(2).unwrap();
        let mut rng = crate::Rng::seed_from_u64(16);
        let (mut decisions, mut passes) = (0, 0);
        for _ in 0..300 {
            let mut state = game.initial_state();
            while !game.is_over(&state) {
                if let Node::Throw(_) = game.node(&state) {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw_unchecked(&mut state, t);
                    continue;
                }
                let (mut a, mut b) = (rng.clone(), rng.clone());
                let mut fused = state;
                let mut scratch = ActionList::new();
                let got =
                    game.play_legal_action(&mut fused, &mut scratch, |len| a.random_range(0..len));
                let mut legal = ActionList::new();
                game.legal_actions(&state, &mut legal);
                let want = if legal.len() == 1 {
                    legal[0]
                } else {
                    legal[b.random_range(0..legal.len())]
                };
                let mut plain = state;
                game.apply_action_unchecked(&mut plain, want);
                assert_eq!((got, fused), (want, plain));
                assert_eq!(a, b, "the same draws");
                decisions += 1;
                passes += (got == Action::Pass) as u32;
                state = fused;
                rng = a;
            }
        }
        assert!(decisions > 50_000 && passes > 100, "{decisions} {passes}");
    }

    /// `play_random_action` (the drawn piece moved by its index) makes the same draws,
    /// chooses the same action and reaches the same state as `random_action` followed by
    /// `apply_action_unchecked`, at every decision of many random games (captures, the
    /// last capture, passes and releases included) and at throw nodes (nothing to do).
    #[test]
    fn play_random_action_is_random_action_then_apply() {
        use rand::{RngExt as _, SeedableRng as _};
        let game = Issiren::with_seats(2).unwrap();
        let mut rng = crate::Rng::seed_from_u64(15);
        let (mut decisions, mut passes, mut ends) = (0, 0, 0);
        for _ in 0..300 {
            let mut state = game.initial_state();
            loop {
                let (mut a, mut b) = (rng.clone(), rng.clone());
                let mut fused = state;
                let mut scratch = ActionList::new();
                let got =
                    game.play_random_action(&mut fused, &mut scratch, |len| a.random_range(0..len));
                let want = game.random_action(&state, &mut scratch, |len| b.random_range(0..len));
                let mut plain = state;
                game.apply_action_unchecked(&mut plain, want);
                assert_eq!((got, fused), (want, plain));
                assert_eq!(a, b, "the same draws");
                match game.node(&state) {
                    Node::Throw(_) => {
                        let t = game.sample_throw(&mut rng);
                        game.apply_throw_unchecked(&mut state, t);
                    }
                    Node::Decide(_) => {
                        decisions += 1;
                        passes += (got == Action::Pass) as u32;
                        state = fused;
                        rng = a;
                    }
                    Node::End => {
                        ends += Issiren::game_over_by_capture(&state) as u32;
                        break;
                    }
                }
            }
        }
        assert!(
            decisions > 50_000 && passes > 100 && ends > 100,
            "{decisions} {passes} {ends}"
        );
    }

    /// The rules' own reading of a random decision, from the legal actions alone: a
    /// random piece of the mover (when it has two or more) kept if moving it is legal,
    /// else a random legal action (no draw when there is one).
    fn random_decision_by_the_rules<R: rand::Rng>(
        game: &Issiren,
        s: &State,
        bits: &mut crate::play::RandomBits,
        rng: &mut R,
    ) -> Action {
        let mut legal = ActionList::new();
        game.legal_actions(s, &mut legal);
        let seat = s.turn as usize;
        let pieces = s.pieces_of(seat);
        if pieces.len() > 1 {
            let p = pieces[bits.index(rng, pieces.len())];
            let a = Action::Move(circuit_square(seat, p.pos).unwrap());
            if legal.contains(&a) {
                return a;
            }
        }
        if legal.len() == 1 {
            legal[0]
        } else {
            legal[bits.index(rng, legal.len())]
        }
    }

    /// `play_random_to_end` (each throw and its decision in one loop) makes the same draws
    /// and reaches the same states as the rules' path (`node`, the throw from the same
    /// bits, `apply_throw_unchecked`, the random decision read from `legal_actions`,
    /// `apply_action_unchecked`): from the start to the end of many random games, and from
    /// positions along them (throws due and decisions due) to a throw cap a few throws on,
    /// so the state after every step is compared.
    #[test]
    fn play_random_to_end_is_the_rules_path() {
        use crate::play::RandomBits;
        use rand::SeedableRng as _;
        let game = Issiren::with_seats(2).unwrap();
        let (mut starts, mut captures, mut releases) = (0, 0, 0);
        for seed in 0..200 {
            // The rules' path, every node's state, bits and generator kept.
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
                        let a = random_decision_by_the_rules(&game, &state, &mut bits, &mut rng);
                        releases +=
                            (a != Action::Pass && state.pending == Some(RELEASE_THROW)) as u32;
                        game.apply_action_unchecked(&mut state, a);
                    }
                    Node::End => break,
                }
            }
            captures += Issiren::game_over_by_capture(&state) as u32;
            // From each of many positions of the path, to a cap a few throws on (or the
            // path's end): the first position of the path where the capped game ends.
            for (k, (start, start_bits, start_rng)) in path.iter().enumerate() {
                let full = k == 0;
                if !full && k % 5 != 0 {
                    continue;
                }
                let cap = if full {
                    game.max_throws
                } else {
                    start.throws + 1 + (k as u32 % 11)
                };
                let capped = Issiren {
                    seats: 2,
                    max_throws: cap,
                };
                let want = path[k..]
                    .iter()
                    .find(|(s, _, _)| {
                        Issiren::game_over_by_capture(s) || (s.pending.is_none() && s.throws >= cap)
                    })
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
            starts > 15_000 && captures > 100 && releases > 1000,
            "{starts} {captures} {releases}"
        );
    }

    /// Positions [`Game::validate`] rejects (a throw pending in an ended game, a turn
    /// other than 0 or 1) are played by `play_random_to_end` as the step-by-step default
    /// plays them.
    #[test]
    fn play_random_to_end_plays_rejected_positions_as_the_default() {
        use crate::play::{random_to_end_step_by_step, RandomBits};
        use rand::SeedableRng as _;
        let game = Issiren::with_seats(2).unwrap();
        let mut rng = crate::Rng::seed_from_u64(7);
        let mut start = game.initial_state();
        game.apply_throw_unchecked(&mut start, RELEASE_THROW);
        let mut ended = start;
        ended.count[1] = 0;
        let mut bad_turns = [start, game.initial_state()];
        bad_turns[0].turn = 2;
        bad_turns[1].turn = 3;
        for (i, position) in [ended, bad_turns[0], bad_turns[1]].into_iter().enumerate() {
            let (mut a, mut b) = (position, position);
            let (mut bits_a, mut bits_b) = (RandomBits::new(), RandomBits::new());
            let (mut rng_a, mut rng_b) = (rng.clone(), rng.clone());
            game.play_random_to_end(&mut a, &mut bits_a, &mut rng_a);
            random_to_end_step_by_step(&game, &mut b, &mut bits_b, &mut rng_b);
            assert_eq!((a, bits_a, &rng_a), (b, bits_b, &rng_b), "position {i}");
            rng = rng_a;
        }
        assert_eq!(
            {
                let mut s = ended;
                game.play_random_to_end(&mut s, &mut RandomBits::new(), &mut rng);
                s
            },
            ended,
            "an ended game is left as it is"
        );
    }

    /// A lone piece is never blocked by a piece of its own: no move of 1 to 6 steps ends on
    /// the square it left (which `random_piece_on` relies on).
    #[test]
    fn no_move_ends_on_its_own_square() {
        for (seat, squares) in SQUARE_OF.iter().enumerate() {
            for (g, landing) in LANDING[seat][..=6].iter().enumerate() {
                for pos in 0..CIRCUIT_LEN as usize {
                    assert_ne!(squares[pos], landing[pos], "{seat} {g} {pos}");
                }
            }
        }
    }

    #[test]
    fn random_actions_are_uniform_over_the_legal_ones() {
        use rand::{RngExt as _, SeedableRng as _};
        let game = Issiren::with_seats(2).unwrap();
        // Decisions of one seeded random game with 2 to 12 legal actions, some pieces
        // unable to move (so the random piece is sometimes refused).
        let mut rng = crate::Rng::seed_from_u64(11);
        let mut state = game.initial_state();
        let mut legal = ActionList::new();
        let mut checked = 0;
        let mut chi_total = 0.0;
        let mut dof_total = 0usize;
        while !game.is_over(&state) && checked < 40 {
            match game.node(&state) {
                Node::Throw(_) => {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw_unchecked(&mut state, t);
                }
                _ => {
                    game.legal_actions(&state, &mut legal);
                    let refused = state.count[(state.turn & 1) as usize] as usize > legal.len();
                    if legal.len() >= 2 && refused {
                        checked += 1;
                        let draws = 2000 * legal.len();
                        let mut counts = vec![0u32; legal.len()];
                        let mut scratch = ActionList::new();
                        for _ in 0..draws {
                            let a = game.random_action(&state, &mut scratch, |len| {
                                rng.random_range(0..len)
                            });
                            counts[legal.iter().position(|&b| b == a).unwrap()] += 1;
                        }
                        let expected = draws as f64 / legal.len() as f64;
                        chi_total += counts
                            .iter()
                            .map(|&c| (c as f64 - expected).powi(2) / expected)
                            .sum::<f64>();
                        dof_total += legal.len() - 1;
                    }
                    let a = legal[rng.random_range(0..legal.len())];
                    game.apply_action_unchecked(&mut state, a);
                }
            }
        }
        assert!(
            checked >= 20,
            "only {checked} decisions with refused pieces"
        );
        // The summed chi-square has `dof_total` degrees of freedom (about 80) under
        // uniform draws; mean dof, sd sqrt(2 dof). A bound of dof + 6 sd is exceeded with
        // probability below 1e-6 by uniform draws; a bias of a few percent towards any
        // action exceeds it by far.
        let bound = dof_total as f64 + 6.0 * (2.0 * dof_total as f64).sqrt();
        assert!(
            chi_total < bound,
            "chi-square {chi_total:.1} over {dof_total} degrees of freedom"
        );
    }

    #[test]
    fn the_move_tables_are_advance_and_the_circuit() {
        for g in 0..8 {
            for pos in 0..=255u8 {
                let next = advance(pos, VALUE[g]);
                assert_eq!(NEXT[g][pos as usize], next, "g {g}, pos {pos}");
                for seat in 0..2 {
                    assert_eq!(
                        LANDING[seat][g][pos as usize],
                        SQUARE_OF[seat][next as usize]
                    );
                }
            }
        }
    }

    /// Every move keeps the pieces in square order (the moved piece bubbles up the list
    /// only when it moved to a higher square, down only when to a lower one).
    #[test]
    fn moves_keep_square_order() {
        use rand::{RngExt as _, SeedableRng as _};
        let game = Issiren::with_seats(2).unwrap();
        let mut rng = crate::Rng::seed_from_u64(21);
        let mut legal = ActionList::new();
        let mut moves = 0;
        for _ in 0..100 {
            let mut state = game.initial_state();
            while game.node(&state) != Node::End {
                if let Node::Throw(_) = game.node(&state) {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw_unchecked(&mut state, t);
                    continue;
                }
                game.legal_actions(&state, &mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                game.apply_action_unchecked(&mut state, a);
                let mut sorted = state;
                sorted.normalize();
                assert_eq!(state, sorted);
                moves += 1;
            }
        }
        assert!(moves > 10_000, "{moves}");
    }

    /// `planned_moves` lists the legal moves in `legal_actions`' order, each as
    /// `planned_move` reads it, `movable_pieces` has their pieces' bits, and
    /// `apply_move_of_piece` is `apply_action_unchecked` of the piece's square: at every
    /// position of 200 random games, and at 20 000 damaged ones
    /// ([`crate::testing::damaged_issiren_state`]) as far as the moves are one to a square.
    #[test]
    fn planned_moves_are_the_legal_moves() {
        use rand::SeedableRng as _;
        let game = Issiren::with_seats(2).unwrap();
        let mut rng = crate::Rng::seed_from_u64(1601);
        let mut legal = ActionList::new();
        let mut checked = 0;
        let mut check = |s: &State, legal: &mut ActionList<Action>, valid: bool| {
            game.legal_actions(s, legal);
            let moves: Vec<PlannedMove> = s.planned_moves().collect();
            assert_eq!(s.planned_moves().len(), moves.len());
            assert_eq!(s.planned_moves().at_most_one(), moves.len() <= 1);
            let bits = moves.iter().fold(0u16, |b, m| b | 1 << m.piece);
            assert_eq!(s.movable_pieces(), bits, "{s:?}");
            if s.pending.is_none() || s.turn > 1 {
                assert!(moves.is_empty() && s.planned_move_of(0).is_none());
                return;
            }
            if Issiren::game_over_by_capture(s) {
                return; // no decision: the list is empty, the moves are the pieces'
            }
            let listed: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|&a| a != Action::Pass)
                .collect();
            let seat = s.turn as usize;
            let squares: Vec<Action> = moves
                .iter()
                .map(|m| {
                    Action::Move(Square(
                        SQUARE_OF[seat][s.pieces[seat][m.piece].pos as usize],
                    ))
                })
                .collect();
            assert_eq!(listed, squares, "{s:?}");
            assert_eq!(legal[0] == Action::Pass, moves.is_empty());
            for (m, &a) in moves.iter().zip(&squares) {
                assert_eq!(s.planned_move_of(m.piece), Some(*m));
                let Action::Move(from) = a else {
                    unreachable!()
                };
                // The move by square moves the first piece on it: the same one where the
                // pieces are one to a square.
                let first = s
                    .pieces_of(seat)
                    .iter()
                    .position(|p| SQUARE_OF[seat][p.pos as usize] == from.0);
                if valid || first == Some(m.piece) {
                    assert_eq!(s.planned_move(from), Some(*m));
                    let (mut by_index, mut by_square) = (*s, *s);
                    game.apply_move_of_piece(&mut by_index, m.piece);
                    game.apply_action_unchecked(&mut by_square, a);
                    assert_eq!(by_index, by_square, "{s:?} {a:?}");
                    // The plan is the move made: the piece moved to its landing, the squares
                    // left and taken, the capture, whose turn it is.
                    let after = by_square;
                    assert!(after.pieces_of(seat).contains(&Piece::moved(m.to_pos)));
                    assert_eq!(after.occupied[seat] & m.to_bit, m.to_bit, "{s:?} {a:?}");
                    assert_eq!(
                        after.occupied[seat] & m.from_bit == 0,
                        m.from_bit != m.to_bit,
                        "{s:?} {a:?}"
                    );
                    let enemy = seat ^ 1;
                    assert_eq!(m.captured.is_some(), after.count[enemy] < s.count[enemy]);
                    if after.count[enemy] > 0 {
                        assert_eq!(after.turn == s.turn, m.extra, "{s:?} {a:?}");
                    }
                    checked += 1;
                }
            }
        };
        for state in crate::testing::random_game_positions(&game, 200, &mut rng) {
            check(&state, &mut legal, true);
        }
        for _ in 0..20_000 {
            let state = crate::testing::damaged_issiren_state(&game, &mut rng);
            check(&state, &mut legal, false);
        }
        assert!(checked > 50_000, "{checked}");
    }

    #[test]
    fn the_initial_state_is_the_normalized_start() {
        let start: [Piece; PIECES] = core::array::from_fn(|i| Piece::start(i as u8));
        let mut want = State {
            pieces: [start; 2],
            count: [PIECES as u8; 2],
            occupied: [0; 2],
            turn: 0,
            pending: None,
            throws: 0,
        };
        want.normalize();
        assert_eq!(INITIAL_STATE, want);
    }
}
