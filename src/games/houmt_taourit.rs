//! Sig wa Duqqan (Houmt Taourit), Djerba, Tunisia: the spiral version of Sig wa Duqqan.
//! Each player races one piece 86 spaces into the centre of a square spiral, threatened by
//! the Ghoula, a neutral piece driven by the players who got through (the rules: the
//! book's chapter `docs/games/sig-wa-duqqan-taourit.md`; Akkari-Weriemmi 1990: 315–318,
//! Ludii id 809).
//!
//! # The rules as implemented
//!
//! * **Players:** 2 to 8 (default 2), one piece each. Seat 0 throws first.
//! * **Track:** 86 squares, idx 0..=85, shared by all: the start (idx 0, in the outer
//!   ring), the *waiting square* (idx 80, the sixth space from the end), idx 81..=84 and
//!   the **centre** (idx 85), the goal. Any number of pieces share a square.
//! * **Throws:** four sticks; the number of white sides up `w` gives the value
//!   (`w` = 0, 1, 2, 3, 4 → 6, 1 "sig", 0, 3, 4; probabilities 1, 4, 6, 4, 1 in 16). A 6, a
//!   sig and a 4 grant an extra throw, whether or not the throw moved anything.
//! * **What a throw does**, by where the thrower's piece stands:
//!   1. on idx 0..=79: it moves forward by the value (a 0 does nothing; no sig is needed to
//!      leave the start); a move that would pass idx 80 stops on idx 80 (rule option
//!      `exact_waiting_square`: such a move is not made, the piece stays);
//!   2. on idx 80: each sig adds one to the piece's *sig count*; the 7th moves it to idx 81
//!      (count back to 0). The throw that brought it onto idx 80 does not count; the count
//!      is kept across turns and reset to 0 when the Ghoula drags the piece off idx 80;
//!   3. on idx 81..=84: a sig moves it forward 1 (from idx 84 onto the centre); a 3 moves
//!      the Ghoula 3 steps; a 0, 4 or 6 does nothing;
//!   4. on the centre: the Ghoula moves by the value, a 0 counting as 6 (that throw still
//!      grants no extra throw).
//! * **The Ghoula** starts on idx 0 and moves one step at a time; it never goes past
//!   idx 80. Before each step: if it stands on idx 1..=80 with one or more racing pieces,
//!   it steps back one square carrying all of them (their sig counts reset to 0); otherwise
//!   it steps forward alone, and from idx 80 that step is lost together with the rest of
//!   the move. Pieces carried from idx 1 onto idx 0 are *buried*: their owners are
//!   eliminated. Pieces on idx 0 are never dragged; pieces on idx 81 and beyond are out of
//!   its reach. A carried piece is not held: it moves as usual on its owner's turn. After a
//!   burial the Ghoula stands on idx 0 and its steps left walk it forward again.
//! * **Its first move:** at the beginning of the Ghoula's first move of the game (the first
//!   throw that moves it), every piece on idx 0 is lifted off the board; the move is made
//!   without them, and at its end they are set down, unharmed, on the Ghoula's square
//!   ([`State::ghoula_has_moved`] records that the first move was made).
//! * **Turn order:** seats in order, skipping buried seats; an extra throw keeps the turn. A
//!   seat on the centre keeps taking turns while any piece races.
//! * **End and ranking:** the game ends when no piece races. By default every seat on the
//!   centre ties first and every buried seat ties last. Rule option `rank_by_arrival`: seats
//!   on the centre rank first in order of arrival, buried seats after them, a later burial
//!   above an earlier one, pieces buried by the same Ghoula step tied. At the throw cap
//!   (`max_throws`, default 10 000) the seats still racing tie between the two groups.
//! * **Decisions:** none. [`Action`] is uninhabited; the game is a pure chance process.
//!
//! # Readings chosen where the specification is silent
//!
//! Each follows the way of reading of `docs/games/readings.md` (the text first, then Houmt al-Arbah's
//! readings of the same source):
//!
//! * **The first move is the first throw that drives the Ghoula.** Every throw that drives
//!   it gives at least one step (3 from idx 81..=84; 6, 1, 6, 3 or 4 from the centre), and
//!   from idx 0 its first step is always forward, so the first move always moves it.
//! * **Lifted pieces are not on the board during the first move**: the Ghoula cannot carry
//!   or bury them, and a burial during that move (of a piece that had left the start) does
//!   not touch them. They are set down even where the move ends on idx 0 (then still on the
//!   start). A piece on idx 0 after the first move is an ordinary piece on the start, which
//!   the Ghoula never drags.
//! * **Burial steps are numbered** over the whole game (1, 2, …, [`Piece::Buried`]), as in
//!   Houmt al-Arbah's; arrivals on the centre too ([`Piece::Centre`]). Both numbers are kept whatever the
//!   ranking option, so a position is the same state under either ranking.
//! * **Arrival by a sig** grants its extra throw as usual, and the seat (now on the centre)
//!   takes it to drive the Ghoula, unless no piece is still racing, when the game ends.
//! * **A 0 on idx 0..=79 and on idx 80** moves nothing; on the waiting square only sigs
//!   count (a 3 there does not drive the Ghoula).
//! * **The turn after the end** is advanced as after any throw: the next seat not buried,
//!   or the same seat after an extra throw.
//! * **Throws past the cap.** A state whose throw count exceeds the game's `max_throws`
//!   is rejected by [`Game::validate`].
//!
//! # Notation
//!
//! There are no actions. Throws are written as the number of white sides up (`0`..`4`).
//!
//! # State
//!
//! [`State`] is plain `Copy` data with private fields, read through accessors and built
//! from a [`Position`] ([`State::from_position`], which checks everything that does not
//! depend on the game's options; [`Game::validate`] checks the rest). Its JSON form is the
//! [`Position`]:
//!
//! ```json
//! {"pieces": [{"Racing": 0}, {"Centre": 1}, {"Buried": 1}], "sigs": [0, 0, 0],
//!  "ghoula": 12, "ghoula_moved": true, "turn": 0, "throws": 140}
//! ```
//!
//! one piece per seat (`{"Racing": idx}` with idx 0..=84, `{"Centre": n}` with n its place
//! in the order of arrival, `{"Buried": b}` with b its burial step), each seat's sig count
//! (0..=6, only on idx 80; may be left out when all are 0), the Ghoula's idx (0..=80),
//! whether it has made its first move, the seat to throw and the throws made. The count of
//! pieces still racing is derived, and rebuilt on reading.

// Seats and pieces index several parallel arrays at once: index loops read best.
#![allow(clippy::needless_range_loop)]

use core::fmt::{self, Write as _};

use super::common::invalid;
pub use super::duqqan::{grants_extra_throw, throw_value};
use super::duqqan::{
    next_arrival, next_burial, throw_words, write_status, DuqqanPiece, Layout, Place, SIG, THREE,
    THROWS, ZERO,
};
use crate::board::{Board, BoardGeometry, PlacedPiece};
use crate::config::{check_seats, DEFAULT_MAX_THROWS};
use crate::dice::{Sticks, Throw};
use crate::game::{
    ActionList, ConfigError, Game, InvalidState, Node, NotationError, Playouts, ProblemKind,
    Ranking, MAX_SEATS,
};
use crate::present::Present;

/// The start square, where every piece and the Ghoula begin.
pub const START: u8 = 0;
/// The waiting square (the sixth space from the end), where a piece needs seven sigs.
pub const WAITING_SQUARE: u8 = 80;
/// The centre, the goal.
pub const CENTRE: u8 = 85;
/// The number of squares on the track.
pub const TRACK_LEN: u8 = 86;
/// The sigs a piece needs on the waiting square; the last of them moves it to idx 81.
pub const SIGS_TO_LEAVE: u8 = 7;

/// The rules of Sig wa Duqqan (Houmt Taourit) for a number of seats, with its rule
/// options: `max_throws` (default 10 000), `exact_waiting_square` and `rank_by_arrival`
/// (both default false).
///
/// ```
/// use stickdice::games::HoumtTaourit;
/// use stickdice::{Game, Node, SeedableRng};
/// let game = HoumtTaourit::with_seats(3).unwrap();
/// let mut state = game.initial_state();
/// let mut dice = stickdice::Rng::seed_from_u64(5);
/// while let Node::Throw(_) = game.node(&state) {
///     game.apply_throw(&mut state, game.sample_throw(&mut dice)).unwrap();
/// }
/// assert_eq!(game.node(&state), Node::End);
/// println!("{}", game.ranking(&state).unwrap());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HoumtTaourit {
    seats: u8,
    max_throws: u32,
    exact_waiting_square: bool,
    rank_by_arrival: bool,
}

impl HoumtTaourit {
    /// Whether a move that would pass the waiting square is not made at all
    /// (`exact_waiting_square`), instead of stopping on it.
    pub fn exact_waiting_square(&self) -> bool {
        self.exact_waiting_square
    }

    /// Whether seats rank by order of arrival and burial (`rank_by_arrival`), instead of
    /// all seats on the centre tying first and all buried seats tying last.
    pub fn rank_by_arrival(&self) -> bool {
        self.rank_by_arrival
    }
}

/// Where one seat's piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Piece {
    /// Still racing, on this idx of the track (0..=84; 0 is the start, 80 the waiting
    /// square).
    Racing(u8),
    /// On the centre (idx 85); the number is its place in the order of arrival (1 = first).
    Centre(u8),
    /// Buried by the Ghoula, its owner eliminated; the number is the burial step (the
    /// first Ghoula step of the game that buried anything is 1, the next such step 2, …).
    Buried(u8),
}

impl Piece {
    /// The idx of the square the piece stands on, if it is on the board (the centre is 85).
    pub fn square(self) -> Option<u8> {
        match self {
            Piece::Racing(i) => Some(i),
            Piece::Centre(_) => Some(CENTRE),
            Piece::Buried(_) => None,
        }
    }

    /// Whether the piece is still racing.
    pub fn is_racing(self) -> bool {
        matches!(self, Piece::Racing(_))
    }
}

impl DuqqanPiece for Piece {
    #[inline]
    fn place(self) -> Place {
        match self {
            Piece::Racing(i) => Place::Racing(i),
            Piece::Centre(k) => Place::Arrived(k),
            Piece::Buried(b) => Place::Buried(b),
        }
    }
}

/// The waiting square and the goal, as the drawings and descriptions name them.
const LAYOUT: Layout = Layout {
    waiting_square: WAITING_SQUARE,
    goal: CENTRE,
    goal_name: "centre",
};

/// A position of Sig wa Duqqan (Houmt Taourit), with everything the rules remember. Plain
/// `Copy` data with private fields: build it from a [`Position`], read it through the
/// accessors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "Position", try_from = "Position"))]
pub struct State {
    seats: u8,
    /// Entries past the seat count hold `Racing(0)`.
    pieces: [Piece; MAX_SEATS],
    sigs: [u8; MAX_SEATS],
    ghoula: u8,
    ghoula_moved: bool,
    turn: u8,
    throws: u32,
    /// Derived: the number of pieces still racing.
    racing: u8,
}

/// The parts of a [`State`], in the open: what a state is made from and its JSON form.
///
/// ```
/// use stickdice::games::houmt_taourit::{Piece, Position, State};
/// let p = Position { pieces: vec![Piece::Racing(78), Piece::Centre(1)], ghoula: 40,
///                    ghoula_moved: true, ..Position::start(2) };
/// let s = State::from_position(p.clone()).unwrap();
/// assert_eq!((s.piece(0), s.ghoula(), s.position()), (Piece::Racing(78), 40, p));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Position {
    /// Each seat's piece (as many as there are seats).
    pub pieces: Vec<Piece>,
    /// Each seat's sig count on the waiting square (empty: all 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub sigs: Vec<u8>,
    /// The Ghoula's idx, 0..=80.
    #[cfg_attr(feature = "serde", serde(default))]
    pub ghoula: u8,
    /// Whether the Ghoula has made its first move.
    #[cfg_attr(feature = "serde", serde(default))]
    pub ghoula_moved: bool,
    /// The seat to throw next.
    #[cfg_attr(feature = "serde", serde(default))]
    pub turn: u8,
    /// The throws made so far, extra throws included.
    #[cfg_attr(feature = "serde", serde(default))]
    pub throws: u32,
}

impl Position {
    /// The start for `seats` seats: every piece and the Ghoula on idx 0, P1 to throw.
    pub fn start(seats: usize) -> Position {
        Position {
            pieces: vec![Piece::Racing(START); seats],
            sigs: vec![0; seats],
            ghoula: START,
            ghoula_moved: false,
            turn: 0,
            throws: 0,
        }
    }
}

/// What can be wrong with a Sig wa Duqqan (Houmt Taourit) [`State`]: the problems [`State::from_position`] and
/// [`Game::validate`] report, each with the seat, piece or value concerned (its `Display` is
/// the sentence [`InvalidState`] shows).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The state has no seat, or more than 8.
    Seats(usize),
    /// The state's seat count is not the game's.
    SeatsForGame {
        /// The state's seat count.
        state: usize,
        /// The game's seat count.
        game: usize,
    },
    /// The sig counts are not one per seat.
    SigsLength {
        /// The sig count.
        sigs: usize,
        /// The seat count.
        seats: usize,
    },
    /// A racing piece stands on the centre or past it.
    RacingPast {
        /// The seat (0-based).
        seat: usize,
        /// The idx.
        idx: u8,
    },
    /// A piece arrived as number 0.
    ArrivalZero(usize),
    /// A piece was buried at burial step 0.
    BurialZero(usize),
    /// A sig count of 7 or more.
    SigCount {
        /// The seat (0-based).
        seat: usize,
        /// The sig count.
        sigs: u8,
    },
    /// A sig count on a piece off the waiting square.
    SigsOffWaiting {
        /// The seat (0-based).
        seat: usize,
        /// The sig count.
        sigs: u8,
    },
    /// An arrival number past the number of pieces on the centre.
    ArrivalTooHigh {
        /// The seat (0-based).
        seat: usize,
        /// The arrival number.
        k: u8,
        /// How many pieces are on the centre.
        arrived: usize,
    },
    /// Two pieces share an arrival number.
    ArrivalTwice {
        /// The first seat (0-based).
        first: usize,
        /// The second seat (0-based).
        second: usize,
        /// The arrival number.
        k: u8,
    },
    /// A burial step with no piece, below a later one.
    BurialGap {
        /// The burial step with no piece.
        missing: u8,
        /// The highest burial step recorded.
        highest: u8,
    },
    /// The Ghoula past idx 80.
    GhoulaPast(u8),
    /// The Ghoula off the start before its first move.
    GhoulaUnmovedOff(u8),
    /// A piece buried before the Ghoula has moved.
    BuriedBeforeGhoula,
    /// The Ghoula has moved, but no piece is on idx 81 or beyond: only a piece there (or
    /// on the centre) drives it, and no piece ever leaves idx 81 and beyond.
    GhoulaMovedWithoutDriver,
    /// The turn names a seat past the seat count.
    TurnPast {
        /// The seat whose turn it is (0-based).
        turn: usize,
        /// The seat count.
        seats: usize,
    },
    /// The turn is a buried seat's.
    TurnBuried(usize),
    /// More throws made than the throw cap.
    PastCap {
        /// The throws made.
        throws: u32,
        /// The throw cap.
        cap: u32,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

impl ProblemKind for Problem {}

impl Problem {
    /// The problem in words.
    fn text(&self) -> String {
        match *self {
            Problem::Seats(n) => format!("the state has {n} seats; a game has 1 to {MAX_SEATS}"),
            Problem::SeatsForGame { state, game } => {
                format!("the state has {state} seats but the game {game}")
            }
            Problem::SigsLength { sigs, seats } => {
                format!("{sigs} sig counts are given for {seats} seats")
            }
            Problem::RacingPast { seat, idx } => format!(
                "P{}'s racing piece is at idx {idx}, but racing pieces stand on idx 0 to 84 \
                 (a piece on the centre, idx 85, is written {{\"Centre\": n}})",
                seat + 1
            ),
            Problem::ArrivalZero(seat) => {
                format!(
                    "P{} arrived as number 0, but arrivals count from 1",
                    seat + 1
                )
            }
            Problem::BurialZero(seat) => format!(
                "P{} was buried at burial step 0, but burial steps count from 1",
                seat + 1
            ),
            Problem::SigCount { seat, sigs } => format!(
                "P{}'s sig count {sigs} is more than 6 (the 7th sig moves the piece on)",
                seat + 1
            ),
            Problem::SigsOffWaiting { seat, sigs } => format!(
                "P{} has a sig count of {sigs} but its piece is not on the waiting square \
                 (idx 80)",
                seat + 1
            ),
            Problem::ArrivalTooHigh { seat, k, arrived } => format!(
                "P{} arrived as number {k}, but only {arrived} piece(s) are on the centre",
                seat + 1
            ),
            Problem::ArrivalTwice { first, second, k } => format!(
                "P{} and P{} both arrived as number {k}",
                first + 1,
                second + 1
            ),
            Problem::BurialGap { missing, highest } => format!(
                "no piece was buried at burial step {missing}, yet a later burial step \
                 ({highest}) is recorded"
            ),
            Problem::GhoulaPast(g) => {
                format!("the Ghoula is at idx {g}, but it never goes past idx 80")
            }
            Problem::GhoulaUnmovedOff(g) => format!(
                "the Ghoula has not made its first move, yet it is at idx {g}, not on the start"
            ),
            Problem::BuriedBeforeGhoula => {
                "a piece is buried but the Ghoula has never moved".to_string()
            }
            Problem::GhoulaMovedWithoutDriver => "the Ghoula has moved, yet no piece is on \
                 idx 81 or beyond: only a piece there or on the centre drives the Ghoula, and \
                 no piece ever leaves idx 81 and beyond"
                .to_string(),
            Problem::TurnPast { turn, seats } => format!(
                "the turn is P{}'s, but there are only {seats} seats",
                turn + 1
            ),
            Problem::TurnBuried(turn) => format!(
                "the turn is P{}'s, but P{} is buried (eliminated)",
                turn + 1,
                turn + 1
            ),
            Problem::PastCap { throws, cap } => {
                format!("{throws} throws have been made, more than the throw cap of {cap}")
            }
        }
    }
}

/// Every problem of a position that does not depend on the game's options.
fn position_problems(p: &Position) -> Vec<Problem> {
    let n = p.pieces.len();
    let mut problems = Vec::new();
    if n == 0 || n > MAX_SEATS {
        problems.push(Problem::Seats(n));
        return problems;
    }
    if !p.sigs.is_empty() && p.sigs.len() != n {
        problems.push(Problem::SigsLength {
            sigs: p.sigs.len(),
            seats: n,
        });
    }
    let sigs = |s: usize| p.sigs.get(s).copied().unwrap_or(0);
    for (s, &piece) in p.pieces.iter().enumerate() {
        match piece {
            Piece::Racing(i) if i >= CENTRE => {
                problems.push(Problem::RacingPast { seat: s, idx: i })
            }
            Piece::Centre(0) => problems.push(Problem::ArrivalZero(s)),
            Piece::Buried(0) => problems.push(Problem::BurialZero(s)),
            _ => {}
        }
        let c = sigs(s);
        if c >= SIGS_TO_LEAVE {
            problems.push(Problem::SigCount { seat: s, sigs: c });
        }
        if c > 0 && piece != Piece::Racing(WAITING_SQUARE) {
            problems.push(Problem::SigsOffWaiting { seat: s, sigs: c });
        }
    }
    let arrived = p
        .pieces
        .iter()
        .filter(|q| matches!(q, Piece::Centre(_)))
        .count();
    for (s, &piece) in p.pieces.iter().enumerate() {
        if let Piece::Centre(k @ 1..) = piece {
            if usize::from(k) > arrived {
                problems.push(Problem::ArrivalTooHigh {
                    seat: s,
                    k,
                    arrived,
                });
            }
            if let Some(first) = p.pieces[..s].iter().position(|&q| q == piece) {
                problems.push(Problem::ArrivalTwice {
                    first,
                    second: s,
                    k,
                });
            }
        }
    }
    let highest = p
        .pieces
        .iter()
        .filter_map(|q| match q {
            Piece::Buried(b) => Some(*b),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    for b in 1..highest {
        if !p.pieces.contains(&Piece::Buried(b)) {
            problems.push(Problem::BurialGap {
                missing: b,
                highest,
            });
        }
    }
    if p.ghoula > WAITING_SQUARE {
        problems.push(Problem::GhoulaPast(p.ghoula));
    }
    if !p.ghoula_moved && p.ghoula != START {
        problems.push(Problem::GhoulaUnmovedOff(p.ghoula));
    }
    if highest > 0 && !p.ghoula_moved {
        problems.push(Problem::BuriedBeforeGhoula);
    }
    let driver = p.pieces.iter().any(|q| {
        matches!(q, Piece::Racing(i) if *i > WAITING_SQUARE) || matches!(q, Piece::Centre(_))
    });
    if p.ghoula_moved && !driver {
        problems.push(Problem::GhoulaMovedWithoutDriver);
    }
    let turn = p.turn as usize;
    if turn >= n {
        problems.push(Problem::TurnPast { turn, seats: n });
    } else if matches!(p.pieces[turn], Piece::Buried(_)) {
        problems.push(Problem::TurnBuried(turn));
    }
    problems
}

impl State {
    /// A state from its parts, checked against every invariant that does not depend on the
    /// game's options (the seat count and throw cap are [`Game::validate`]'s).
    ///
    /// # Errors
    /// [`InvalidState`] listing every problem found.
    pub fn from_position(p: Position) -> Result<State, InvalidState> {
        invalid(position_problems(&p))?;
        let n = p.pieces.len();
        let mut pieces = [Piece::Racing(START); MAX_SEATS];
        pieces[..n].copy_from_slice(&p.pieces);
        let mut sigs = [0u8; MAX_SEATS];
        if !p.sigs.is_empty() {
            sigs[..n].copy_from_slice(&p.sigs);
        }
        Ok(State {
            seats: n as u8,
            pieces,
            sigs,
            ghoula: p.ghoula,
            ghoula_moved: p.ghoula_moved,
            turn: p.turn,
            throws: p.throws,
            racing: p.pieces.iter().filter(|q| q.is_racing()).count() as u8,
        })
    }

    /// The state's parts (its JSON form).
    pub fn position(&self) -> Position {
        let n = self.seats();
        Position {
            pieces: self.pieces[..n].to_vec(),
            sigs: self.sigs[..n].to_vec(),
            ghoula: self.ghoula,
            ghoula_moved: self.ghoula_moved,
            turn: self.turn,
            throws: self.throws,
        }
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        (self.seats as usize).min(MAX_SEATS)
    }

    /// Every seat's piece, in seat order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces[..self.seats()]
    }

    /// `seat`'s piece.
    ///
    /// # Panics
    /// If `seat` is not below [`State::seats`]'s maximum of 8.
    pub fn piece(&self, seat: usize) -> Piece {
        self.pieces[seat]
    }

    /// `seat`'s sig count on the waiting square (0..=6; 0 elsewhere).
    pub fn sigs(&self, seat: usize) -> u8 {
        self.sigs[seat]
    }

    /// The Ghoula's idx (0..=80).
    pub fn ghoula(&self) -> u8 {
        self.ghoula
    }

    /// Whether the Ghoula has made its first move (before it, pieces on the start are
    /// lifted when it moves).
    pub fn ghoula_has_moved(&self) -> bool {
        self.ghoula_moved
    }

    /// The seat to throw next (after the end: as after any throw).
    pub fn turn(&self) -> usize {
        self.turn as usize
    }

    /// The throws made so far, extra throws included.
    pub fn throws(&self) -> u32 {
        self.throws
    }

    /// The number of pieces still racing.
    pub fn racing(&self) -> usize {
        self.racing as usize
    }

    /// This state with `throws` throws made so far (the exact solver leaves the count out
    /// of its states).
    #[must_use]
    pub fn with_throws(mut self, throws: u32) -> State {
        self.throws = throws;
        self
    }
}

impl From<State> for Position {
    fn from(s: State) -> Position {
        s.position()
    }
}

impl TryFrom<Position> for State {
    type Error = InvalidState;
    fn try_from(p: Position) -> Result<State, InvalidState> {
        State::from_position(p)
    }
}

/// A choice at a decision node. Houmt Taourit has none: every throw plays itself, so this
/// type has no values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Action {}

impl fmt::Display for Action {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

impl HoumtTaourit {
    /// Moves the Ghoula `steps` steps, lifting pieces on the start at its first move,
    /// carrying and burying pieces.
    #[inline]
    fn move_ghoula(&self, state: &mut State, steps: u8) {
        let n = state.seats();
        // Bit `s`: seat `s`'s piece is lifted off the start for the first move.
        let mut lifted = 0u32;
        if !state.ghoula_moved {
            state.ghoula_moved = true;
            for s in 0..n {
                if state.pieces[s] == Piece::Racing(START) {
                    lifted |= 1 << s;
                }
            }
        }
        let mut g = state.ghoula;
        for _ in 0..steps {
            let here = Piece::Racing(g);
            if g >= 1 && state.pieces[..n].contains(&here) {
                // Back one square carrying every piece here (from idx 1: burying them).
                let onto = if g == 1 {
                    Piece::Buried(next_burial(&state.pieces[..n]))
                } else {
                    Piece::Racing(g - 1)
                };
                for s in 0..n {
                    if state.pieces[s] == here {
                        state.pieces[s] = onto;
                        state.sigs[s] = 0;
                        if g == 1 {
                            state.racing -= 1;
                        }
                    }
                }
                g -= 1;
            } else if g >= WAITING_SQUARE {
                // It never goes past idx 80: the step is lost, and the rest of the move.
                break;
            } else {
                g += 1;
            }
        }
        state.ghoula = g;
        for s in 0..n {
            if lifted & (1 << s) != 0 {
                state.pieces[s] = Piece::Racing(g);
            }
        }
    }

    /// Applies a throw (see [`Game::apply_throw_unchecked`]).
    #[inline]
    fn throw_effect(&self, state: &mut State, throw: Throw) {
        state.throws = state.throws.wrapping_add(1);
        let w = throw.marked() & 7;
        let (value, extra) = THROWS[w as usize];
        // A turn past the seats (a state `from_position` rejects) plays some seat's throw
        // rather than index out of bounds.
        let seat = state.turn as usize & (MAX_SEATS - 1);
        match state.pieces[seat] {
            Piece::Racing(p @ 0..=79) => {
                if value > 0 {
                    let to = p + value;
                    if to <= WAITING_SQUARE {
                        state.pieces[seat] = Piece::Racing(to);
                    } else if !self.exact_waiting_square {
                        state.pieces[seat] = Piece::Racing(WAITING_SQUARE);
                    }
                }
            }
            Piece::Racing(WAITING_SQUARE) => {
                if w == SIG {
                    let count = state.sigs[seat] + 1;
                    if count >= SIGS_TO_LEAVE {
                        state.pieces[seat] = Piece::Racing(WAITING_SQUARE + 1);
                        state.sigs[seat] = 0;
                    } else {
                        state.sigs[seat] = count;
                    }
                }
            }
            Piece::Racing(p @ 81..=84) => {
                if w == SIG {
                    state.pieces[seat] = if p + 1 == CENTRE {
                        state.racing -= 1;
                        Piece::Centre(next_arrival(state.pieces()))
                    } else {
                        Piece::Racing(p + 1)
                    };
                } else if w == THREE {
                    self.move_ghoula(state, 3);
                }
            }
            Piece::Racing(_) => {}
            Piece::Centre(_) => {
                let steps = if w == ZERO { 6 } else { value };
                if steps > 0 {
                    self.move_ghoula(state, steps);
                }
            }
            Piece::Buried(_) => {}
        }
        if !extra {
            state.turn = self.next_seat(state, seat) as u8;
        }
    }

    /// The next seat not buried after `seat`, or `seat` itself if it is the only one.
    #[inline]
    fn next_seat(&self, state: &State, seat: usize) -> usize {
        let n = state.seats();
        let mut s = seat;
        for _ in 1..n {
            s = if s + 1 >= n { 0 } else { s + 1 };
            if !matches!(state.pieces[s], Piece::Buried(_)) {
                return s;
            }
        }
        seat
    }
}

/// The lattice point of a track square on the drawing (the chapter's table): `(x,
/// y)` with the centre at (0, 0), x to the right and y up; a square spiral turning
/// clockwise inward from (−6, −7), rings 2 apart. `None` off the track.
///
/// ```
/// use stickdice::games::houmt_taourit::square_point;
/// assert_eq!(square_point(0), Some((-6, -7)));
/// assert_eq!(square_point(80), Some((1, 2)));
/// assert_eq!(square_point(85), Some((0, 0)));
/// ```
pub const fn square_point(idx: u8) -> Option<(i8, i8)> {
    // (first idx, first point, direction) of each straight run.
    const RUNS: [(u8, i8, i8, i8, i8); 12] = [
        (0, -6, -7, 0, 1),
        (14, -5, 6, 1, 0),
        (26, 6, 5, 0, -1),
        (36, 5, -4, -1, 0),
        (46, -4, -3, 0, 1),
        (54, -3, 4, 1, 0),
        (62, 4, 3, 0, -1),
        (68, 3, -2, -1, 0),
        (74, -2, -1, 0, 1),
        (78, -1, 2, 1, 0),
        (82, 2, 1, 0, -1),
        (84, 1, 0, -1, 0),
    ];
    if idx >= TRACK_LEN {
        return None;
    }
    let mut r = RUNS.len() - 1;
    while RUNS[r].0 > idx {
        r -= 1;
    }
    let (first, x, y, dx, dy) = RUNS[r];
    let k = (idx - first) as i8;
    Some((x + k * dx, y + k * dy))
}

impl Game for HoumtTaourit {
    type State = State;
    type Action = Action;

    const NAME: &'static str = "sig-wa-duqqan-houmt-taourit";
    const TITLE: &'static str = "Sig wa Duqqan (Houmt Taourit)";
    const MAX_ACTIONS: usize = 0;
    const SEATS: (usize, usize) = (2, 8);

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        check_seats::<Self>(seats)?;
        Ok(HoumtTaourit {
            seats: seats as u8,
            max_throws: DEFAULT_MAX_THROWS,
            exact_waiting_square: false,
            rank_by_arrival: false,
        })
    }

    crate::rule_options! {
        max_throws: max_throws() => crate::config::MAX_THROWS_HELP,
        exact_waiting_square: flag(false) =>
            "a move from idx 0..=79 that would pass the waiting square (idx 80) is not \
                made at all, instead of stopping on it",
        rank_by_arrival: flag(false) =>
            "seats on the centre rank in order of arrival and buried seats by burial (a \
                later burial above an earlier one), instead of tying",
    }

    fn seats(&self) -> usize {
        self.seats as usize
    }

    fn max_throws(&self) -> u32 {
        self.max_throws
    }

    fn initial_state(&self) -> State {
        State {
            seats: self.seats,
            pieces: [Piece::Racing(START); MAX_SEATS],
            sigs: [0; MAX_SEATS],
            ghoula: START,
            ghoula_moved: false,
            turn: 0,
            throws: 0,
            racing: self.seats,
        }
    }

    #[inline]
    fn node(&self, state: &State) -> Node {
        if state.throws >= self.max_throws || state.racing == 0 {
            Node::End
        } else {
            Node::Throw(state.turn as usize)
        }
    }

    #[inline]
    fn sticks(&self) -> Sticks {
        Sticks::FOUR
    }

    fn legal_actions(&self, _state: &State, out: &mut ActionList<Action>) {
        out.clear();
    }

    #[inline]
    fn apply_throw_unchecked(&self, state: &mut State, throw: Throw) {
        self.throw_effect(state, throw);
    }

    fn apply_action_unchecked(&self, _state: &mut State, action: Action) {
        match action {}
    }

    fn ranking(&self, state: &State) -> Option<Ranking> {
        if self.node(state) != Node::End {
            return None;
        }
        let n = state.seats();
        let mut keys = [0u32; MAX_SEATS];
        for (key, piece) in keys.iter_mut().zip(state.pieces()) {
            *key = match (*piece, self.rank_by_arrival) {
                (Piece::Centre(k), true) => u32::from(k),
                (Piece::Centre(_), false) => 0,
                (Piece::Racing(_), _) => 1_000,
                (Piece::Buried(b), true) => 2_000 - u32::from(b),
                (Piece::Buried(_), false) => 2_000,
            };
        }
        Some(Ranking::from_keys(&keys[..n]))
    }

    fn throws_made(&self, state: &State) -> u32 {
        state.throws
    }

    fn parse_action(&self, text: &str) -> Result<Action, NotationError> {
        Err(NotationError {
            text: text.to_string(),
            expected: "no action at all: Sig wa Duqqan (Houmt Taourit) has no actions, every \
                       throw plays itself",
        })
    }

    fn validate(&self, state: &State) -> Result<(), InvalidState> {
        let mut problems = position_problems(&state.position());
        if state.seats() != self.seats() {
            problems.push(Problem::SeatsForGame {
                state: state.seats(),
                game: self.seats(),
            });
        }
        if state.throws > self.max_throws {
            problems.push(Problem::PastCap {
                throws: state.throws,
                cap: self.max_throws,
            });
        }
        invalid(problems)
    }
}

impl Present for HoumtTaourit {
    fn render(&self, state: &State) -> String {
        const W: usize = 3;
        let n = state.seats();
        // Contents of every square: the seats standing there, then the Ghoula.
        let mut contents: Vec<String> = vec![String::new(); TRACK_LEN as usize];
        for (s, piece) in state.pieces().iter().enumerate() {
            if let Some(i) = piece.square() {
                contents[i as usize].push(char::from(b'1' + s as u8));
            }
        }
        contents[state.ghoula as usize].push('G');
        let mut grid = [[None::<u8>; 13]; 14];
        for i in 0..TRACK_LEN {
            if let Some((x, y)) = square_point(i) {
                grid[(6 - y) as usize][(x + 6) as usize] = Some(i);
            }
        }
        let mut out = String::new();
        for row in &grid {
            let mut line = String::new();
            for c in row {
                let text = match *c {
                    None => String::new(),
                    Some(i) if !contents[i as usize].is_empty() => {
                        let t = &contents[i as usize];
                        if t.len() > W {
                            format!("{}+", &t[..W - 1])
                        } else {
                            t.clone()
                        }
                    }
                    Some(WAITING_SQUARE) => "W".to_string(),
                    Some(CENTRE) => "C".to_string(),
                    Some(START) => "S".to_string(),
                    Some(_) => ".".to_string(),
                };
                let _ = write!(line, "{text:^W$} ");
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out.push_str(
            "A square spiral turning clockwise inward: S = start (idx 0, bottom left), W = \
             waiting square (idx 80, 7 sigs to move on), C = centre (idx 85, the goal).\n\
             digits = pieces by seat (1 = P1); G = the Ghoula; + = more on the square\n",
        );
        let ghoula = if state.ghoula_moved {
            format!("on idx {}", state.ghoula)
        } else {
            "on the start, not moved yet".to_string()
        };
        write_status(
            &mut out,
            self.ranking(state),
            state.racing > 0,
            (state.throws, self.max_throws),
            state.turn,
            &ghoula,
        );
        LAYOUT.write_pieces(&mut out, &state.pieces[..n], &state.sigs[..n]);
        out
    }

    fn describe_throw(&self, state: &State, throw: Throw) -> String {
        let w = throw.marked();
        let base = match throw_words(w) {
            Ok(words) => words.to_string(),
            Err(impossible) => return impossible,
        };
        let Node::Throw(seat) = self.node(state) else {
            return base;
        };
        let who = seat + 1;
        let value = THROWS[w as usize].0;
        let first = if state.ghoula_moved {
            ""
        } else {
            " (its first move: pieces on the start are lifted and set down where it stops)"
        };
        let effect = match state.pieces[seat & (MAX_SEATS - 1)] {
            Piece::Racing(p @ 0..=79) => {
                LAYOUT.move_words(who, p, value, self.exact_waiting_square)
            }
            Piece::Racing(WAITING_SQUARE) if w == SIG => {
                let count = state.sigs[seat] + 1;
                if count >= SIGS_TO_LEAVE {
                    format!("P{who}'s 7th sig on the waiting square: it moves on to idx 81")
                } else {
                    format!("P{who}'s sig {count} of 7 on the waiting square")
                }
            }
            Piece::Racing(WAITING_SQUARE) => {
                format!("only sigs count on the waiting square: P{who} waits")
            }
            Piece::Racing(84) if w == SIG => format!("P{who} reaches the centre"),
            Piece::Racing(p @ 81..=83) if w == SIG => {
                format!("P{who} moves from idx {p} to idx {}", p + 1)
            }
            Piece::Racing(81..=84) if w == THREE => format!("the Ghoula moves 3 steps{first}"),
            Piece::Racing(81..=84) => {
                format!("past the waiting square only a sig or a 3 counts: P{who} waits")
            }
            Piece::Centre(_) if w == ZERO => {
                format!("on the centre a 0 counts 6: the Ghoula moves 6 steps{first}")
            }
            Piece::Centre(_) if value == 1 => format!("the Ghoula moves 1 step{first}"),
            Piece::Centre(_) => format!("the Ghoula moves {value} steps{first}"),
            Piece::Racing(_) | Piece::Buried(_) => return base,
        };
        format!("{base}; {effect}")
    }
}

impl Playouts for HoumtTaourit {
    /// Every throw until the end (Houmt Taourit has no decisions). The throws are played
    /// on a code per seat's piece (`codes`) by one table lookup per throw, and the
    /// Ghoula's moves on the codes too; an arrival, a burial and the Ghoula's first move
    /// (which number pieces or lift them) go through the throw-by-throw rules on the state.
    /// A state the codes cannot hold (one [`State::from_position`] rejects) is played throw
    /// by throw.
    #[inline]
    fn play_throws(&self, state: &mut State, mut throw: impl FnMut() -> Throw) -> Node {
        let n = state.seats();
        let Some(mut keys) = codes::keys(state) else {
            return self.play_throws_plainly(state, throw);
        };
        let table = &codes::TRANSITIONS[self.exact_waiting_square as usize];
        let mut turn = state.turn as usize & (MAX_SEATS - 1);
        let mut throws = state.throws;
        let mut ghoula = state.ghoula;
        let mut next = codes::next_seats(&keys, n);
        if state.racing > 0 {
            while throws < self.max_throws {
                let t = throw();
                let e = table[(keys[turn] as usize) << 3 | (t.marked() & 7) as usize];
                if e & codes::SPECIAL == 0 {
                    keys[turn] = e as u8;
                } else if e & codes::ARRIVES != 0
                    || !state.ghoula_moved
                    || !codes::move_ghoula(&mut keys, n, &mut ghoula, (e >> codes::STEPS) as u8 & 7)
                {
                    // An arrival, the Ghoula's first move or a move that buries: on the
                    // state, by the rules' own reading.
                    codes::store(state, &keys);
                    state.turn = turn as u8;
                    state.throws = throws;
                    state.ghoula = ghoula;
                    self.throw_effect(state, t);
                    keys = codes::keys(state).expect("a throw keeps the state valid");
                    next = codes::next_seats(&keys, n);
                    turn = state.turn as usize & (MAX_SEATS - 1);
                    throws = state.throws;
                    ghoula = state.ghoula;
                    if state.racing == 0 {
                        break;
                    }
                    continue;
                }
                throws = throws.wrapping_add(1);
                if e & codes::EXTRA == 0 {
                    turn = next[turn] as usize & (MAX_SEATS - 1);
                }
            }
        }
        codes::store(state, &keys);
        state.turn = turn as u8;
        state.throws = throws;
        state.ghoula = ghoula;
        Node::End
    }
}

impl HoumtTaourit {
    /// [`Playouts::play_throws`] throw by throw, as the default does.
    fn play_throws_plainly(&self, state: &mut State, mut throw: impl FnMut() -> Throw) -> Node {
        while state.racing > 0 && state.throws < self.max_throws {
            self.throw_effect(state, throw());
        }
        Node::End
    }
}

/// Each seat's piece as one code, for the fast loop of [`Playouts::play_throws`]: `0..=79`
/// a piece racing on that idx, `80 + k` one on the waiting square with `k` sigs (0..=6),
/// `87..=90` one on idx 81..=84, [`codes::CENTRE`] and [`codes::BURIED`].
mod codes {
    use super::*;

    /// The code of a piece on idx 81.
    const PAST_WAITING: u8 = 87;
    /// The code of a piece on the centre.
    pub(super) const CENTRE: u8 = 91;
    /// The code of a buried piece.
    pub(super) const BURIED: u8 = 92;
    /// The number of codes.
    const COUNT: usize = 93;

    /// A [`TRANSITIONS`] entry's bit: the throw grants an extra throw (the low 7 bits are
    /// the thrower's new code).
    pub(super) const EXTRA: u16 = 1 << 8;
    /// The shift of a [`TRANSITIONS`] entry's 3 bits counting the Ghoula's steps.
    pub(super) const STEPS: u16 = 9;
    /// A [`TRANSITIONS`] entry's bit: the thrower's piece reaches the centre.
    pub(super) const ARRIVES: u16 = 1 << 12;
    /// The bits of an entry that the fast loop cannot play by storing the new code.
    pub(super) const SPECIAL: u16 = 7 << STEPS | ARRIVES;

    /// The codes of the state's pieces (seats past the seat count: [`CENTRE`], no piece
    /// racing), or `None` for a state the codes cannot hold.
    pub(super) fn keys(state: &State) -> Option<[u8; MAX_SEATS]> {
        let n = state.seats();
        let mut out = [CENTRE; MAX_SEATS];
        for s in 0..n {
            let sigs = state.sigs[s];
            out[s] = match state.pieces[s] {
                Piece::Racing(p @ 0..=79) if sigs == 0 => p,
                Piece::Racing(WAITING_SQUARE) if sigs < SIGS_TO_LEAVE => WAITING_SQUARE + sigs,
                Piece::Racing(p @ 81..=84) if sigs == 0 => p - 81 + PAST_WAITING,
                Piece::Centre(_) if sigs == 0 => CENTRE,
                Piece::Buried(_) if sigs == 0 => BURIED,
                _ => return None,
            };
        }
        let turn = state.turn as usize;
        (n > 0 && turn < n && out[turn] != BURIED && state.ghoula <= WAITING_SQUARE).then_some(out)
    }

    /// Writes the racing pieces' codes back into the state (pieces on the centre and buried
    /// ones are never made by the codes, so the state already holds them with their
    /// numbers).
    pub(super) fn store(state: &mut State, keys: &[u8; MAX_SEATS]) {
        for s in 0..state.seats() {
            let c = keys[s];
            let (piece, sigs) = match c {
                0..=79 => (Piece::Racing(c), 0),
                80..=86 => (Piece::Racing(WAITING_SQUARE), c - WAITING_SQUARE),
                87..=90 => (Piece::Racing(c - PAST_WAITING + 81), 0),
                _ => continue,
            };
            state.pieces[s] = piece;
            state.sigs[s] = sigs;
        }
    }

    /// What a throw of `w` white sides does to the thrower's piece of code `code`.
    const fn transition(code: u8, w: u8, exact_waiting_square: bool) -> u16 {
        let (value, extra) = THROWS[(w & 7) as usize];
        let flags = if extra { EXTRA } else { 0 };
        let same = code as u16;
        let to = match code {
            0..=79 => {
                if value == 0 {
                    code
                } else if code + value <= WAITING_SQUARE {
                    code + value
                } else if exact_waiting_square {
                    code
                } else {
                    WAITING_SQUARE
                }
            }
            80..=86 => {
                if w != SIG {
                    code
                } else if code == 86 {
                    PAST_WAITING
                } else {
                    code + 1
                }
            }
            87..=90 => {
                if w == SIG && code == 90 {
                    return ARRIVES | flags | same;
                } else if w == SIG {
                    code + 1
                } else if w == THREE {
                    return 3 << STEPS | flags | same;
                } else {
                    code
                }
            }
            CENTRE => {
                let steps = if w == ZERO { 6 } else { value };
                return (steps as u16) << STEPS | flags | same;
            }
            _ => code,
        };
        flags | to as u16
    }

    const fn table(exact_waiting_square: bool) -> [u16; 1024] {
        let mut t = [0u16; 1024];
        let mut k = 0;
        while k < 1024 {
            let (code, w) = ((k >> 3) as u8, (k & 7) as u8);
            t[k] = if (code as usize) < COUNT {
                transition(code, w, exact_waiting_square)
            } else {
                code as u16
            };
            k += 1;
        }
        t
    }

    /// `TRANSITIONS[exact_waiting_square][code << 3 | white sides]`: the [`transition`] of
    /// every code and throw (codes past 92 do not occur and map to themselves).
    pub(super) static TRANSITIONS: [[u16; 1024]; 2] = [table(false), table(true)];

    /// For every seat, the next seat after it that is not buried, or the seat itself.
    pub(super) fn next_seats(keys: &[u8; MAX_SEATS], n: usize) -> [u8; MAX_SEATS] {
        let mut out = [0u8; MAX_SEATS];
        for (seat, next) in out.iter_mut().enumerate().take(n) {
            let mut s = seat;
            *next = seat as u8;
            for _ in 1..n {
                s = if s + 1 >= n { 0 } else { s + 1 };
                if keys[s] != BURIED {
                    *next = s as u8;
                    break;
                }
            }
        }
        out
    }

    /// The square a code's piece can be carried from (idx 1..=80), or 0.
    const fn carried_square_of(code: u8) -> u8 {
        match code {
            1..=79 => code,
            80..=86 => WAITING_SQUARE,
            _ => 0,
        }
    }

    /// [`carried_square_of`] of every byte.
    static CARRIED: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut c = 0;
        while c < 256 {
            t[c] = carried_square_of(c as u8);
            c += 1;
        }
        t
    };

    /// The square a code's piece can be carried from (idx 1..=80), or 0: one lookup.
    #[inline(always)]
    fn carried_square(code: u8) -> u8 {
        CARRIED[code as usize]
    }

    /// Moves the Ghoula `steps` steps on the codes (after its first move), or returns
    /// `false` and changes nothing when the move would bury a piece. It walks forward to
    /// the first square with pieces (if its steps reach it), and from there every step
    /// carries them back one square, gathering the pieces it meets.
    #[inline(always)]
    pub(super) fn move_ghoula(
        keys: &mut [u8; MAX_SEATS],
        n: usize,
        ghoula: &mut u8,
        steps: u8,
    ) -> bool {
        let g = *ghoula;
        // The first square at or ahead of it with pieces the Ghoula can carry (idx
        // 1..=80), `u8::MAX` for none: a minimum over the seats (cheaper than a 128-bit
        // mask of the squares).
        let lo = g.max(1);
        let mut first = u8::MAX;
        for &k in &keys[..n] {
            let c = carried_square(k);
            if c >= lo && c < first {
                first = c;
            }
        }
        if first == u8::MAX || first - g >= steps {
            // It does not reach a piece: forward, never past idx 80.
            *ghoula = (g + steps).min(WAITING_SQUARE);
            return true;
        }
        let back = steps - (first - g);
        if back >= first {
            return false;
        }
        let to = first - back;
        for k in &mut keys[..n] {
            if carried_square(*k).wrapping_sub(to) <= back {
                *k = to;
            }
        }
        *ghoula = to;
        true
    }
}

impl Board for HoumtTaourit {
    fn geometry(&self) -> BoardGeometry {
        LAYOUT.geometry(
            TRACK_LEN,
            |idx| {
                let (x, y) = square_point(idx).expect("on the track");
                (f64::from(x + 6), f64::from(6 - y))
            },
            (13.0, 14.0),
            self.seats(),
            "one piece per seat (its number and shape); G = the Ghoula, the neutral \
             piece the seats on idx 81 and beyond drive, which drags pieces back and \
             buries them at the start; a piece's tooltip gives its sig count on the \
             waiting square",
        )
    }

    fn pieces(&self, s: &State) -> Vec<PlacedPiece> {
        let mut out: Vec<PlacedPiece> = (0..s.seats())
            .map(|seat| LAYOUT.placed_piece(seat, s.pieces[seat].place(), s.sigs[seat]))
            .collect();
        out.push(PlacedPiece {
            square: Some(usize::from(s.ghoula)),
            seat: None,
            kind: "ghoula",
            letter: "G",
            active: false,
            status: crate::board::PieceStatus::Plain,
            text: if s.ghoula_moved {
                format!("the Ghoula on idx {}", s.ghoula)
            } else {
                "the Ghoula on the start, not moved yet".to_string()
            },
        });
        out
    }

    fn describe_action(&self, _: &State, action: Action) -> String {
        match action {}
    }

    fn describe_change(&self, b: &State, a: &State) -> Vec<String> {
        let mut out = Vec::new();
        if b.ghoula != a.ghoula || b.ghoula_moved != a.ghoula_moved {
            out.push(format!(
                "the Ghoula moves from idx {} to idx {}",
                b.ghoula, a.ghoula
            ));
        }
        for seat in 0..a.seats().min(b.seats()) {
            let who = seat + 1;
            match (b.pieces[seat], a.pieces[seat]) {
                (Piece::Racing(_), Piece::Buried(_)) => {
                    out.push(format!("P{who}'s piece is buried: P{who} is out"))
                }
                (Piece::Racing(_), Piece::Centre(_)) => {
                    out.push(format!("P{who}'s piece reaches the centre"))
                }
                (Piece::Racing(i), Piece::Racing(j)) if j < i => out.push(format!(
                    "the Ghoula drags P{who}'s piece from idx {i} to idx {j}"
                )),
                (Piece::Racing(0), Piece::Racing(j)) if j > 0 && b.turn != seat as u8 => out.push(
                    format!("P{who}'s piece, lifted off the start, is set down on idx {j}"),
                ),
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::duqqan::check_fast_loop;
    use super::*;
    use rand::SeedableRng as _;

    /// The fast loop of `play_throws` (piece codes, one table lookup per throw, the Ghoula
    /// on the codes) against the throw-by-throw loop, from every position of many random
    /// games, with every seat count and option, and throw caps that cut games short.
    #[test]
    fn play_throws_plays_exactly_the_throw_by_throw_loop() {
        let mut rng = crate::Rng::seed_from_u64(15);
        let mut positions = 0;
        for seats in 2..=MAX_SEATS {
            for exact in [false, true] {
                for cap in [DEFAULT_MAX_THROWS, 300, 7] {
                    let mut game = HoumtTaourit::with_seats(seats).unwrap();
                    game.exact_waiting_square = exact;
                    game.max_throws = cap;
                    positions += check_fast_loop(
                        &game,
                        |s, throw| {
                            game.play_throws_plainly(s, throw);
                        },
                        12,
                        &mut rng,
                        &format!("{seats} seats, exact {exact}, cap {cap}"),
                    );
                }
            }
        }
        assert!(positions > 100_000, "{positions} positions");
    }

    /// The Ghoula's first move, burials and arrivals are all met by the fast loop's games.
    #[test]
    fn the_fast_loop_meets_first_moves_burials_and_arrivals() {
        let game = HoumtTaourit::with_seats(4).unwrap();
        let mut rng = crate::Rng::seed_from_u64(3);
        let (mut burials, mut arrivals) = (0, 0);
        for _ in 0..200 {
            let mut s = game.initial_state();
            game.play_throws(&mut s, || game.sample_throw(&mut rng));
            assert!(s.ghoula_moved);
            burials += s
                .pieces()
                .iter()
                .filter(|p| matches!(p, Piece::Buried(_)))
                .count();
            arrivals += s
                .pieces()
                .iter()
                .filter(|p| matches!(p, Piece::Centre(_)))
                .count();
        }
        assert!(
            burials > 10 && arrivals > 100,
            "{burials} burials, {arrivals} arrivals"
        );
    }
}
