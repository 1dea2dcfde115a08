//! Siryu (Race), Tabelbala oasis, Algeria: a pilgrims' race. Each player walks a
//! **father**, an **angel** and a **mother** through a 5×5 grid and along a six-square road
//! to Mecca; sir throws are needed at the Minaret and on the road, and passing an opponent's
//! piece sends it back to its start (the rules: the book's chapter
//! `docs/games/siryu-race.md`; Champault 1969: 353, Ludii id 810).
//!
//! # The rules as implemented
//!
//! * **Players:** 2 to 8 (default 2). Seat 0 throws first.
//! * **Track:** 31 squares, idx 0..=30, shared by all: the grid walked down and up its
//!   columns from the top-left corner (idx 0..=24, [`square_cell`]), the **Minaret** at its
//!   centre (idx 12), then the road below the middle column: road squares 1–3 (idx 25..=27)
//!   and **Cairo**, **Medina** and **Mecca** (idx 28, 29, 30; Mecca is the goal). Any
//!   number of pieces share a square.
//! * **Steps:** from idx i to i + 1. *Sir steps* are into and out of the Minaret (11→12,
//!   12→13) and onto road squares 1–3 (24→25, 25→26, 26→27); *three-sir steps* into Cairo,
//!   Medina and Mecca (27→28, 28→29, 29→30); every other step is *ordinary*
//!   ([`step_kind`]).
//! * **Pieces:** the father starts on idx 0, the angel on idx 1, the mother on idx 2; all
//!   three move from the first throw, in any order. Pieces on Mecca stay there.
//! * **Throws:** six sticks; the count `w` of white sides up (probability C(6, w)/64):
//!
//!   | w | value | extra throws |
//!   |---|---|---|
//!   | 0 (six black) | 0 (option `six_black_moves_six`: 6 ordinary points) | 3 |
//!   | 1, 5 (a *sir*) | 1 point, pays any step | 1 |
//!   | 2, 3, 4 | 0 | 0 |
//!   | 6 (six white) | 6 points, ordinary steps only | 1 |
//!
//!   A seat owes one throw when its turn starts; each throw pays one owed throw and adds its
//!   own extra throws ([`State::owed`]); the turn lasts while throws are owed.
//! * **Using a throw:** after every throw the seat decides ([`Node::Decide`]), even when
//!   there is a single action: one of its pieces not on Mecca that can use the throw
//!   ([`Action::Father`], [`Action::Angel`], [`Action::Mother`]), or [`Action::Pass`] when
//!   none can (always after a 0). The piece walks forward: an ordinary step costs 1 point
//!   (½ for the angel); a sir step costs 1 point for every piece and only a sir's point
//!   pays it; a piece on idx 27, 28 or 29 does not walk: each sir used on it adds 1 to its
//!   *sir count*, and the third moves it one step (count back to 0; six white cannot be used
//!   on it). The walk stops before the first step it cannot pay and the rest is lost; a
//!   piece that can make no step (and count no sir) cannot use the throw.
//! * **Passing sends back:** after a walk, every opponent piece on a square strictly
//!   between where the walk started and where it stopped goes back to its own start
//!   (father idx 0, angel idx 1, mother idx 2) and loses its sir count. Option
//!   `capture_on_landing`: opponent pieces on the square where a walk stops are sent back
//!   too, except on Mecca and except a piece on its own start. A sir that only adds to a
//!   road piece's sir count is not a walk; the third sir's step is a one-step walk.
//! * **Turn order:** seats in order, skipping finished seats.
//! * **End and ranking:** a seat with all three pieces on Mecca has finished: it takes the
//!   next finishing place and leaves the turn order at once (throws it still owes are not
//!   made). The game ends when at most one seat still races; it ranks last. At the throw
//!   cap (`max_throws`, default 10 000; the cap-th throw's decision is still made) the seats
//!   still racing tie below every finisher.
//!
//! # Readings chosen where the specification is silent
//!
//! Each follows the way of reading of `docs/games/readings.md`:
//!
//! * **Points are kept in half-points**, so the angel's ½-point ordinary steps are exact: a
//!   sir is 2 half-points that pay any step, six white (or six black under the option) 12
//!   that pay ordinary steps only.
//! * **A walk that reaches idx 27** stops there: the steps beyond are three-sir steps, paid
//!   only by counting sirs on a piece that starts its use on idx 27..=29.
//! * **The turn after a decision:** when no throw is owed, or the seat has just finished,
//!   the turn passes to the next seat still racing, which owes one throw. When the game
//!   ends that way, [`State::turn`] names the last seat racing (it would throw next).
//! * **Owed throws** are counted without bound (a run of six blacks grows them); a state
//!   that owes more than one throw plus two per throw made is rejected, as no game reaches
//!   it.
//! * **Sent back while on its own start** changes nothing (so "stays there" holds for both
//!   passing and, under the option, landing). A father passed on idx 1 or 2 does go back to
//!   idx 0.
//! * **Throws past the cap.** A state whose throw count exceeds the game's `max_throws` is
//!   rejected by [`Game::validate`]; at exactly the cap a pending throw (its decision) is
//!   allowed.
//!
//! # Notation
//!
//! An action is the piece's name, `father`, `angel` or `mother`, or `pass` (read
//! ignoring case and surrounding spaces; `f`, `a`, `m` and `p` are read too). Legal
//! actions are listed father, angel, mother; `pass` alone.
//!
//! # State
//!
//! [`State`] is plain `Copy` data with private fields, read through accessors and built
//! from a [`Position`] ([`State::from_position`], which checks everything that does not
//! depend on the game's options; [`Game::validate`] checks the rest). Its JSON form is the
//! [`Position`]:
//!
//! ```json
//! {"pieces": [[0, 1, 2], [9, 27, 30]], "sirs": [[0, 0, 0], [0, 2, 0]], "places": [0, 0],
//!  "turn": 1, "owed": 1, "pending": 5, "throws": 40}
//! ```
//!
//! each seat's father, angel and mother idx; their sir counts (0..=2, only on idx 27..=29;
//! may be left out when all are 0); each seat's finishing place (0 while racing; may be
//! left out when no seat has finished); the seat to throw or decide; the throws it still
//! owes after the pending one; the pending throw's white sides up (`null` when a throw is
//! due or the game is over); the throws made. The count of finished seats and each seat's
//! occupied squares are derived, and rebuilt on reading.

// Seats and pieces index several parallel arrays at once: index loops read best.
#![allow(clippy::needless_range_loop)]

use core::fmt::{self, Write as _};
use core::str::FromStr;

use super::common::{invalid, notation_as_string, ordinal};
use crate::board::{cell, Arrow, Board, BoardGeometry, BoardMove, PlacedPiece, SquareInfo};
use crate::board::{ChosenBy, StickFaces, Track};
use crate::config::{check_seats, DEFAULT_MAX_THROWS};
use crate::dice::{Sticks, Throw};
use crate::game::{
    ActionList, ConfigError, Game, InvalidState, Node, NotationError, Playouts, ProblemKind,
    Ranking, MAX_SEATS,
};
use crate::present::Present;

/// The number of squares on the track (idx 0..=30).
pub const TRACK_LEN: usize = 31;
/// idx of the Minaret, the grid's centre square.
pub const MINARET: u8 = 12;
/// idx of the grid's bottom-right corner, from which the road is reached.
pub const CORNER: u8 = 24;
/// idx of road square 3, the last before Cairo: a walk stops here.
pub const ROAD_3: u8 = 27;
/// idx of Cairo (road square 4).
pub const CAIRO: u8 = 28;
/// idx of Medina (road square 5).
pub const MEDINA: u8 = 29;
/// idx of Mecca, the goal (road square 6).
pub const MECCA: u8 = 30;
/// The sirs a piece on idx 27..=29 needs for one step.
pub const SIRS_PER_STEP: u8 = 3;

/// The number of pieces each player walks.
pub const PIECES: usize = 3;
/// Index of the father in a seat's pieces.
pub const FATHER: usize = 0;
/// Index of the angel in a seat's pieces (½-point ordinary steps).
pub const ANGEL: usize = 1;
/// Index of the mother in a seat's pieces.
pub const MOTHER: usize = 2;
/// Each piece's start square, by index: the father on idx 0, the angel on 1, the mother
/// on 2.
pub const STARTS: [u8; PIECES] = [0, 1, 2];
/// The pieces' names, by index.
pub const PIECE_NAMES: [&str; PIECES] = ["father", "angel", "mother"];
/// The pieces' one-letter marks on the board, by index.
pub const PIECE_LETTERS: [char; PIECES] = ['F', 'A', 'M'];

/// The kind of a step from one square to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Costs 1 point (½ for the angel), paid by any points.
    Ordinary,
    /// Costs 1 point for every piece; only a sir's point pays it.
    Sir,
    /// Into Cairo, Medina or Mecca: three sirs counted on the piece.
    ThreeSir,
}

/// The kind of the step from idx `from` to `from + 1` (`None` from Mecca and beyond).
pub const fn step_kind(from: u8) -> Option<Step> {
    match from {
        11 | 12 | 24 | 25 | 26 => Some(Step::Sir),
        27..=29 => Some(Step::ThreeSir),
        0..=29 => Some(Step::Ordinary),
        _ => None,
    }
}

/// The name of a square, if it has one.
pub const fn square_name(idx: u8) -> Option<&'static str> {
    match idx {
        MINARET => Some("Minaret"),
        CAIRO => Some("Cairo"),
        MEDINA => Some("Medina"),
        MECCA => Some("Mecca"),
        _ => None,
    }
}

/// The (row, column) of square `idx` (row 4 at the top, column 0 at the left; the road
/// hangs below column 2 on rows −1 … −6). `None` off the track.
///
/// ```
/// use stickdice::games::siryu_race::square_cell;
/// assert_eq!(square_cell(0), Some((4, 0)));
/// assert_eq!(square_cell(12), Some((2, 2)));
/// assert_eq!(square_cell(24), Some((0, 4)));
/// assert_eq!(square_cell(30), Some((-6, 2)));
/// ```
pub const fn square_cell(idx: u8) -> Option<(i8, i8)> {
    let i = idx as i8;
    match idx {
        0..=4 => Some((4 - i, 0)),
        5..=9 => Some((i - 5, 1)),
        10..=14 => Some((14 - i, 2)),
        15..=19 => Some((i - 15, 3)),
        20..=24 => Some((24 - i, 4)),
        25..=30 => Some((24 - i, 2)),
        _ => None,
    }
}

/// What a throw of `w` white sides is worth: (half-points, whether they pay sir steps,
/// extra throws), by `w & 7` (7 cannot be thrown). Six black's entry is the default's.
const THROWS: [(u8, bool, u8); 8] = [
    (0, false, 3),
    (2, true, 1),
    (0, false, 0),
    (0, false, 0),
    (0, false, 0),
    (2, true, 1),
    (12, false, 1),
    (0, false, 0),
];

/// The points of a throw as a use of them: 0 nothing, 1 a sir, 2 six points of ordinary
/// steps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Points {
    Nothing = 0,
    Sir = 1,
    Six = 2,
}

/// Where a walk with these points from `from` stops (`from` itself when it cannot make a
/// step), for the angel if `angel`.
const fn walk(points: Points, angel: bool, from: u8) -> u8 {
    let (mut budget, sir) = match points {
        Points::Nothing => return from,
        Points::Sir => (2u8, true),
        Points::Six => (12u8, false),
    };
    let mut pos = from;
    while pos < MECCA {
        let cost = match step_kind(pos) {
            Some(Step::Ordinary) => {
                if angel {
                    1
                } else {
                    2
                }
            }
            Some(Step::Sir) if sir => 2,
            _ => break,
        };
        if cost > budget {
            break;
        }
        budget -= cost;
        pos += 1;
    }
    pos
}

/// `WALKS[points][angel][from]`: [`walk`] precomputed (entries past idx 30 stay put).
static WALKS: [[[u8; 32]; 2]; 3] = {
    let mut t = [[[0u8; 32]; 2]; 3];
    let pts = [Points::Nothing, Points::Sir, Points::Six];
    let mut p = 0;
    while p < 3 {
        let mut a = 0;
        while a < 2 {
            let mut from = 0;
            while from < 32 {
                t[p][a][from] = if from < TRACK_LEN {
                    walk(pts[p], a == 1, from as u8)
                } else {
                    from as u8
                };
                from += 1;
            }
            a += 1;
        }
        p += 1;
    }
    t
};

/// Where a walk from idx `from` stops, for the angel if `angel`: with a sir's point (`sir`:
/// one step of either kind, two ordinary steps for the angel) or six white's six points
/// (`!sir`: ordinary steps only, two for a point for the angel), stopping before a step it
/// cannot pay; `from` itself when it cannot make a step, or is off the track. The walk the
/// throws make (a sir step's sir count, the road's three-sir steps, are not walks).
///
/// ```
/// use stickdice::games::siryu_race::walk_stop;
/// assert_eq!(walk_stop(1, true, true), 3); // the angel: two ordinary steps for a sir
/// assert_eq!(walk_stop(9, false, false), 11); // six white stops short of the Minaret
/// assert_eq!(walk_stop(27, false, true), 27); // the road wants three sirs
/// ```
#[inline]
pub fn walk_stop(from: u8, angel: bool, sir: bool) -> u8 {
    let points = if sir { Points::Sir } else { Points::Six };
    match WALKS[points as usize][usize::from(angel)].get(usize::from(from)) {
        Some(&to) => to,
        None => from,
    }
}

/// The rules of Siryu (Race) for a number of seats, with its rule options: `max_throws`
/// (default 10 000), `six_black_moves_six` and `capture_on_landing` (both default false).
///
/// ```
/// use stickdice::games::SiryuRace;
/// use stickdice::{Game, SeedableRng};
/// let mut game = SiryuRace::with_seats(3).unwrap();
/// game.set_option("capture_on_landing", "true").unwrap();
/// let mut state = game.initial_state();
/// let mut rng = stickdice::Rng::seed_from_u64(2);
/// let ranking = stickdice::play::random_playout(&game, &mut state, &mut rng);
/// assert_eq!(ranking.seats(), 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SiryuRace {
    seats: u8,
    max_throws: u32,
    six_black_moves_six: bool,
    capture_on_landing: bool,
}

impl SiryuRace {
    /// Whether six black is worth 6 ordinary points (`six_black_moves_six`), not 0.
    pub fn six_black_moves_six(&self) -> bool {
        self.six_black_moves_six
    }

    /// Whether opponent pieces on the square where a walk stops are sent back too
    /// (`capture_on_landing`).
    pub fn capture_on_landing(&self) -> bool {
        self.capture_on_landing
    }

    /// The points of a throw of `w` white sides, and its extra throws.
    #[inline(always)]
    fn points(&self, w: u8) -> (Points, u8) {
        let (half, sir, extra) = THROWS[(w & 7) as usize];
        let p = if sir {
            Points::Sir
        } else if half > 0 || (w == 0 && self.six_black_moves_six) {
            Points::Six
        } else {
            Points::Nothing
        };
        (p, extra)
    }
}

/// A choice after a throw: which piece uses it, or pass (only when none can).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "String", try_from = "String"))]
pub enum Action {
    /// The father uses the throw (notation `father`).
    Father,
    /// The angel uses the throw (notation `angel`).
    Angel,
    /// The mother uses the throw (notation `mother`).
    Mother,
    /// No piece can use the throw (notation `pass`).
    Pass,
}

impl Action {
    /// The action of the piece at `index` ([`FATHER`], [`ANGEL`], [`MOTHER`]).
    pub const fn of_piece(index: usize) -> Option<Action> {
        match index {
            FATHER => Some(Action::Father),
            ANGEL => Some(Action::Angel),
            MOTHER => Some(Action::Mother),
            _ => None,
        }
    }

    /// The index of the piece the action moves, `None` for a pass.
    pub const fn piece(self) -> Option<usize> {
        match self {
            Action::Father => Some(FATHER),
            Action::Angel => Some(ANGEL),
            Action::Mother => Some(MOTHER),
            Action::Pass => None,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.piece() {
            Some(p) => PIECE_NAMES[p],
            None => "pass",
        })
    }
}

const ACTION_EXPECTED: &str = "`father`, `angel`, `mother` or `pass`";

impl FromStr for Action {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "father" | "f" => Ok(Action::Father),
            "angel" | "a" => Ok(Action::Angel),
            "mother" | "m" => Ok(Action::Mother),
            "pass" | "p" => Ok(Action::Pass),
            _ => Err(NotationError {
                text: s.to_string(),
                expected: ACTION_EXPECTED,
            }),
        }
    }
}

// Action travels in JSON as its notation.
notation_as_string!(Action);

/// A position of Siryu (Race), with whose turn it is, the throws owed and the throw
/// awaiting its use. Plain `Copy` data with private fields: build it from a [`Position`],
/// read it through the accessors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "Position", try_from = "Position"))]
pub struct State {
    seats: u8,
    /// Entries past the seat count hold the start squares.
    pieces: [[u8; PIECES]; MAX_SEATS],
    sirs: [[u8; PIECES]; MAX_SEATS],
    places: [u8; MAX_SEATS],
    turn: u8,
    owed: u32,
    pending: Option<Throw>,
    throws: u32,
    /// Derived: the number of seats that have finished.
    finished: u8,
    /// Derived: bit `i` of entry `s` is set where seat `s` has a piece on idx `i`.
    occupied: [u32; MAX_SEATS],
}

/// The parts of a [`State`], in the open: what a state is made from and its JSON form.
///
/// ```
/// use stickdice::games::siryu_race::{Position, State};
/// let p = Position { pieces: vec![[9, 1, 2], [10, 1, 2]], ..Position::start(2) };
/// let s = State::from_position(p.clone()).unwrap();
/// assert_eq!((s.pieces_of(1), s.owed(), s.position()), ([10, 1, 2], 1, p));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Position {
    /// Each seat's father, angel and mother idx (as many entries as there are seats).
    pub pieces: Vec<[u8; PIECES]>,
    /// Their sir counts (empty: all 0).
    #[cfg_attr(feature = "serde", serde(default))]
    pub sirs: Vec<[u8; PIECES]>,
    /// Each seat's finishing place, 0 while racing (empty: none finished).
    #[cfg_attr(feature = "serde", serde(default))]
    pub places: Vec<u8>,
    /// The seat to throw or decide.
    #[cfg_attr(feature = "serde", serde(default))]
    pub turn: u8,
    /// The throws that seat still owes after the pending one.
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub owed: u32,
    /// The throw awaiting its use (white sides up), at a decision.
    #[cfg_attr(feature = "serde", serde(default))]
    pub pending: Option<Throw>,
    /// The throws made so far, extra throws included.
    #[cfg_attr(feature = "serde", serde(default))]
    pub throws: u32,
}

#[cfg(feature = "serde")]
fn one() -> u32 {
    1
}

impl Position {
    /// The start for `seats` seats: every piece on its start square, P1 to throw, owing one
    /// throw.
    pub fn start(seats: usize) -> Position {
        Position {
            pieces: vec![STARTS; seats],
            sirs: vec![[0; PIECES]; seats],
            places: vec![0; seats],
            turn: 0,
            owed: 1,
            pending: None,
            throws: 0,
        }
    }
}

/// What can be wrong with a Siryu (Race) [`State`]: the problems [`State::from_position`] and
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
    /// A list is not one entry per seat.
    Length {
        /// What is listed.
        what: &'static str,
        /// How many entries.
        len: usize,
        /// The seat count.
        seats: usize,
    },
    /// A piece past Mecca.
    OffTrack {
        /// The seat (0-based).
        seat: usize,
        /// The piece (0 father, 1 angel, 2 mother).
        piece: usize,
        /// The idx.
        idx: u8,
    },
    /// A piece behind its own start.
    BehindStart {
        /// The seat (0-based).
        seat: usize,
        /// The piece (0 father, 1 angel, 2 mother).
        piece: usize,
        /// The idx.
        idx: u8,
    },
    /// A sir count of 3 or more.
    SirCount {
        /// The seat (0-based).
        seat: usize,
        /// The piece (0 father, 1 angel, 2 mother).
        piece: usize,
        /// The sir count.
        sirs: u8,
    },
    /// A sir count on a piece off idx 27..=29.
    SirsOffRoad {
        /// The seat (0-based).
        seat: usize,
        /// The piece (0 father, 1 angel, 2 mother).
        piece: usize,
        /// The sir count.
        sirs: u8,
        /// The idx.
        idx: u8,
    },
    /// A finishing place for a seat not all on Mecca.
    PlaceNotFinished {
        /// The seat (0-based).
        seat: usize,
        /// The finishing place.
        place: u8,
    },
    /// All three pieces on Mecca but no finishing place.
    FinishedNoPlace(usize),
    /// A finishing place past the number of finished seats.
    PlaceTooHigh {
        /// The seat (0-based).
        seat: usize,
        /// The finishing place.
        place: u8,
        /// How many seats have finished.
        finished: usize,
    },
    /// Two seats share a finishing place.
    PlaceTwice {
        /// The first seat (0-based).
        first: usize,
        /// The second seat (0-based).
        second: usize,
        /// The finishing place.
        place: u8,
    },
    /// The turn names a seat past the seat count.
    TurnPast {
        /// The seat whose turn it is (0-based).
        turn: usize,
        /// The seat count.
        seats: usize,
    },
    /// The turn is a finished seat's while others race.
    TurnFinished(usize),
    /// A pending throw six sticks cannot show.
    ImpossibleThrow(u8),
    /// A pending throw after the end.
    PendingAtEnd,
    /// A throw is due but none is owed.
    NothingOwed,
    /// More throws owed than the throws made can give.
    TooManyOwed {
        /// The throws owed.
        owed: u32,
        /// The throws made.
        throws: u32,
    },
    /// A pending throw before any throw.
    PendingWithoutThrow,
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
        let piece = |seat: usize, p: usize| format!("P{}'s {}", seat + 1, PIECE_NAMES[p]);
        match *self {
            Problem::Seats(n) => format!("the state has {n} seats; a game has 1 to {MAX_SEATS}"),
            Problem::SeatsForGame { state, game } => {
                format!("the state has {state} seats but the game {game}")
            }
            Problem::Length { what, len, seats } => {
                format!("{len} entries of {what} are given for {seats} seats")
            }
            Problem::OffTrack {
                seat,
                piece: p,
                idx,
            } => format!(
                "{} is at idx {idx}, but the track ends at idx 30 (Mecca)",
                piece(seat, p)
            ),
            Problem::BehindStart {
                seat,
                piece: p,
                idx,
            } => format!(
                "{} is at idx {idx}, behind its start (idx {})",
                piece(seat, p),
                STARTS[p]
            ),
            Problem::SirCount {
                seat,
                piece: p,
                sirs,
            } => format!(
                "{}'s sir count {sirs} is more than 2 (the third sir moves it on)",
                piece(seat, p)
            ),
            Problem::SirsOffRoad {
                seat,
                piece: p,
                sirs,
                idx,
            } => format!(
                "{} has a sir count of {sirs} on idx {idx}, but sirs are counted only on idx \
                 27 to 29",
                piece(seat, p)
            ),
            Problem::PlaceNotFinished { seat, place } => format!(
                "P{} has finishing place {place} but not all its pieces are on Mecca",
                seat + 1
            ),
            Problem::FinishedNoPlace(seat) => format!(
                "all of P{}'s pieces are on Mecca but it has no finishing place",
                seat + 1
            ),
            Problem::PlaceTooHigh {
                seat,
                place,
                finished,
            } => format!(
                "P{} finished in place {place}, but only {finished} seat(s) have finished",
                seat + 1
            ),
            Problem::PlaceTwice {
                first,
                second,
                place,
            } => format!(
                "P{} and P{} both finished in place {place}",
                first + 1,
                second + 1
            ),
            Problem::TurnPast { turn, seats } => format!(
                "the turn is P{}'s, but there are only {seats} seats",
                turn + 1
            ),
            Problem::TurnFinished(turn) => format!(
                "the turn is P{}'s, but P{} has finished while others race",
                turn + 1,
                turn + 1
            ),
            Problem::ImpossibleThrow(w) => {
                format!("the pending throw has {w} white sides up, impossible with six sticks")
            }
            Problem::PendingAtEnd => {
                "a throw is pending but at most one seat still races (the game is over)".to_string()
            }
            Problem::NothingOwed => {
                "a throw is due but the seat to throw owes none (a turn starts owing one)"
                    .to_string()
            }
            Problem::TooManyOwed { owed, throws } => format!(
                "{owed} throws are owed after {throws} throws, more than one plus two per throw \
                 made"
            ),
            Problem::PendingWithoutThrow => {
                "a throw is pending but no throw has been made".to_string()
            }
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
    for (what, len) in [("sir counts", p.sirs.len()), ("places", p.places.len())] {
        if len != 0 && len != n {
            problems.push(Problem::Length {
                what,
                len,
                seats: n,
            });
        }
    }
    let sirs = |s: usize| p.sirs.get(s).copied().unwrap_or([0; PIECES]);
    let place = |s: usize| p.places.get(s).copied().unwrap_or(0);
    for (s, pieces) in p.pieces.iter().enumerate() {
        for (k, &idx) in pieces.iter().enumerate() {
            if idx > MECCA {
                problems.push(Problem::OffTrack {
                    seat: s,
                    piece: k,
                    idx,
                });
            } else if idx < STARTS[k] {
                problems.push(Problem::BehindStart {
                    seat: s,
                    piece: k,
                    idx,
                });
            }
            let c = sirs(s)[k];
            if c >= SIRS_PER_STEP {
                problems.push(Problem::SirCount {
                    seat: s,
                    piece: k,
                    sirs: c,
                });
            }
            if c > 0 && !(ROAD_3..MECCA).contains(&idx) {
                problems.push(Problem::SirsOffRoad {
                    seat: s,
                    piece: k,
                    sirs: c,
                    idx,
                });
            }
        }
        let all_home = pieces.iter().all(|&i| i == MECCA);
        match (place(s), all_home) {
            (0, true) => problems.push(Problem::FinishedNoPlace(s)),
            (k @ 1.., false) => problems.push(Problem::PlaceNotFinished { seat: s, place: k }),
            _ => {}
        }
    }
    let finished = (0..n).filter(|&s| place(s) > 0).count();
    for s in 0..n {
        let k = place(s);
        if k == 0 {
            continue;
        }
        if usize::from(k) > finished {
            problems.push(Problem::PlaceTooHigh {
                seat: s,
                place: k,
                finished,
            });
        }
        if let Some(first) = (0..s).find(|&o| place(o) == k) {
            problems.push(Problem::PlaceTwice {
                first,
                second: s,
                place: k,
            });
        }
    }
    let racing = n - finished;
    let turn = p.turn as usize;
    if turn >= n {
        problems.push(Problem::TurnPast { turn, seats: n });
    } else if place(turn) > 0 && racing > 0 {
        problems.push(Problem::TurnFinished(turn));
    }
    if let Some(t) = p.pending {
        if t.marked() > 6 {
            problems.push(Problem::ImpossibleThrow(t.marked()));
        }
        if racing <= 1 {
            problems.push(Problem::PendingAtEnd);
        }
        if p.throws == 0 {
            problems.push(Problem::PendingWithoutThrow);
        }
    } else if p.owed == 0 && racing > 1 {
        problems.push(Problem::NothingOwed);
    }
    if u64::from(p.owed) > 1 + 2 * u64::from(p.throws) {
        problems.push(Problem::TooManyOwed {
            owed: p.owed,
            throws: p.throws,
        });
    }
    problems
}

/// The squares of a seat's pieces as bits.
#[inline(always)]
fn occupancy(pieces: &[u8; PIECES]) -> u32 {
    (1 << (pieces[0] & 31)) | (1 << (pieces[1] & 31)) | (1 << (pieces[2] & 31))
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
        let mut s = State {
            seats: n as u8,
            pieces: [STARTS; MAX_SEATS],
            sirs: [[0; PIECES]; MAX_SEATS],
            places: [0; MAX_SEATS],
            turn: p.turn,
            owed: p.owed,
            pending: p.pending,
            throws: p.throws,
            finished: 0,
            occupied: [0; MAX_SEATS],
        };
        s.pieces[..n].copy_from_slice(&p.pieces);
        if !p.sirs.is_empty() {
            s.sirs[..n].copy_from_slice(&p.sirs);
        }
        if !p.places.is_empty() {
            s.places[..n].copy_from_slice(&p.places);
        }
        s.finished = s.places[..n].iter().filter(|&&k| k > 0).count() as u8;
        for seat in 0..n {
            s.occupied[seat] = occupancy(&s.pieces[seat]);
        }
        Ok(s)
    }

    /// The state's parts (its JSON form).
    pub fn position(&self) -> Position {
        let n = self.seats();
        Position {
            pieces: self.pieces[..n].to_vec(),
            sirs: self.sirs[..n].to_vec(),
            places: self.places[..n].to_vec(),
            turn: self.turn,
            owed: self.owed,
            pending: self.pending,
            throws: self.throws,
        }
    }

    /// The number of seats.
    #[inline]
    pub fn seats(&self) -> usize {
        (self.seats as usize).min(MAX_SEATS)
    }

    /// `seat`'s father, angel and mother idx.
    ///
    /// # Panics
    /// If `seat` is 8 or more.
    pub fn pieces_of(&self, seat: usize) -> [u8; PIECES] {
        self.pieces[seat]
    }

    /// The sir counts of `seat`'s father, angel and mother.
    ///
    /// # Panics
    /// If `seat` is 8 or more.
    pub fn sirs_of(&self, seat: usize) -> [u8; PIECES] {
        self.sirs[seat]
    }

    /// `seat`'s finishing place (1 = first to finish), 0 while it races.
    ///
    /// # Panics
    /// If `seat` is 8 or more.
    pub fn place(&self, seat: usize) -> u8 {
        self.places[seat]
    }

    /// The number of seats that have finished.
    pub fn finished(&self) -> usize {
        self.finished as usize
    }

    /// The seat to throw or decide (after the end: the last seat racing).
    pub fn turn(&self) -> usize {
        self.turn as usize
    }

    /// The throws the seat to play still owes after the pending one (at least 1 when a
    /// throw is due).
    pub fn owed(&self) -> u32 {
        self.owed
    }

    /// The throw awaiting its use, at a decision.
    pub fn pending(&self) -> Option<Throw> {
        self.pending
    }

    /// The throws made so far, extra throws included.
    pub fn throws(&self) -> u32 {
        self.throws
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

/// What a piece's use of a throw does: the idx it walks from and to (equal for a sir that
/// only counts), and its new sir count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Use {
    from: u8,
    to: u8,
    sirs: u8,
}

impl SiryuRace {
    /// The use of the throw's points by `seat`'s piece `k`, if it can use them.
    #[inline(always)]
    fn use_of(&self, state: &State, seat: usize, k: usize, points: Points) -> Option<Use> {
        let from = state.pieces[seat][k];
        if (ROAD_3..MECCA).contains(&from) {
            if points != Points::Sir {
                return None;
            }
            let c = state.sirs[seat][k] + 1;
            return Some(if c >= SIRS_PER_STEP {
                Use {
                    from,
                    to: from + 1,
                    sirs: 0,
                }
            } else {
                Use {
                    from,
                    to: from,
                    sirs: c,
                }
            });
        }
        let to = WALKS[points as usize][(k == ANGEL) as usize][(from & 31) as usize];
        (to != from).then_some(Use { from, to, sirs: 0 })
    }

    /// Bit `k` set: `seat`'s piece `k` can use a throw of `w` white sides.
    #[inline(always)]
    fn usable(&self, state: &State, seat: usize, w: u8) -> u8 {
        self.usable_by(state, seat, self.points(w).0)
    }

    /// Bit `k` set: `seat`'s piece `k` can use these points. Every piece not on Mecca can
    /// use a sir ([`SiryuRace::use_of`] walks or counts it); six points are usable where
    /// the walk makes a step (never from idx 27..=29, whose steps are three-sir steps).
    #[inline(always)]
    fn usable_by(&self, state: &State, seat: usize, points: Points) -> u8 {
        let p = &state.pieces[seat];
        match points {
            Points::Nothing => 0,
            Points::Sir => {
                (p[0] != MECCA) as u8 | ((p[1] != MECCA) as u8) << 1 | ((p[2] != MECCA) as u8) << 2
            }
            Points::Six => {
                let t = &WALKS[Points::Six as usize];
                (t[0][(p[0] & 31) as usize] != p[0]) as u8
                    | ((t[1][(p[1] & 31) as usize] != p[1]) as u8) << 1
                    | ((t[0][(p[2] & 31) as usize] != p[2]) as u8) << 2
            }
        }
    }

    /// Uses the pending throw with `seat`'s piece `k`: the walk, the pieces it sends back,
    /// finishing.
    #[inline]
    fn make_use(&self, state: &mut State, seat: usize, k: usize, w: u8) {
        self.make_use_of(state, seat, k, self.points(w).0);
    }

    /// [`SiryuRace::make_use`] with the throw's points.
    #[inline(always)]
    fn make_use_of(&self, state: &mut State, seat: usize, k: usize, points: Points) {
        let Some(u) = self.use_of(state, seat, k, points) else {
            return;
        };
        state.pieces[seat][k] = u.to;
        state.sirs[seat][k] = u.sirs;
        state.occupied[seat] = occupancy(&state.pieces[seat]);
        if u.to != u.from {
            // Squares strictly between, and the landing square under the option (never
            // Mecca).
            let mut hit = ((1u32 << u.to) - 1) & !((2u32 << u.from) - 1);
            if self.capture_on_landing && u.to != MECCA {
                hit |= 1 << u.to;
            }
            let n = state.seats();
            let mut others = 0;
            for (s, &occ) in state.occupied[..n].iter().enumerate() {
                if s != seat {
                    others |= occ;
                }
            }
            if others & hit != 0 {
                for s in (0..n).filter(|&s| s != seat) {
                    if state.occupied[s] & hit == 0 {
                        continue;
                    }
                    for j in 0..PIECES {
                        let at = state.pieces[s][j];
                        if hit & (1 << at) != 0 {
                            state.pieces[s][j] = STARTS[j];
                            state.sirs[s][j] = 0;
                        }
                    }
                    state.occupied[s] = occupancy(&state.pieces[s]);
                }
            }
            if state.pieces[seat] == [MECCA; PIECES] {
                state.finished += 1;
                state.places[seat] = state.finished;
            }
        }
    }

    /// The next seat still racing after `seat` (`seat` itself when there is none other).
    #[inline]
    fn next_racing(&self, state: &State, seat: usize) -> usize {
        let n = state.seats();
        let mut s = seat;
        for _ in 1..n {
            s = if s + 1 >= n { 0 } else { s + 1 };
            if state.places[s] == 0 {
                return s;
            }
        }
        seat
    }

    /// Ends the decision: the throw is spent; the turn passes when nothing is owed or the
    /// seat finished.
    #[inline(always)]
    fn end_decision(&self, state: &mut State, seat: usize) {
        state.pending = None;
        if state.owed == 0 || state.places[seat] != 0 {
            state.turn = self.next_racing(state, seat) as u8;
            state.owed = 1;
        }
    }

    /// The actions of a throw of `w` for `seat`, in notation order.
    fn actions(&self, state: &State, seat: usize, w: u8, out: &mut ActionList<Action>) {
        out.clear();
        let mask = self.usable(state, seat, w);
        for k in 0..PIECES {
            if mask & (1 << k) != 0 {
                out.push(Action::of_piece(k).expect("a piece index"));
            }
        }
        if out.is_empty() {
            out.push(Action::Pass);
        }
    }
}

impl Game for SiryuRace {
    type State = State;
    type Action = Action;

    const NAME: &'static str = "siryu-race";
    const TITLE: &'static str = "Siryu (Race)";
    const MAX_ACTIONS: usize = 3;
    const SEATS: (usize, usize) = (2, 8);

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        check_seats::<Self>(seats)?;
        Ok(SiryuRace {
            seats: seats as u8,
            max_throws: DEFAULT_MAX_THROWS,
            six_black_moves_six: false,
            capture_on_landing: false,
        })
    }

    crate::rule_options! {
        max_throws: max_throws() => crate::config::MAX_THROWS_HELP,
        six_black_moves_six: flag(false) =>
            "six black is worth 6 points of ordinary steps (as six white), still with its \
                three extra throws, instead of 0",
        capture_on_landing: flag(false) =>
            "opponent pieces on the square where a walk stops are sent back too (except on \
                Mecca and on their own start), not only those passed",
    }

    fn seats(&self) -> usize {
        self.seats as usize
    }

    fn max_throws(&self) -> u32 {
        self.max_throws
    }

    fn initial_state(&self) -> State {
        let mut occupied = [0; MAX_SEATS];
        for occ in occupied.iter_mut().take(self.seats as usize) {
            *occ = occupancy(&STARTS);
        }
        State {
            seats: self.seats,
            pieces: [STARTS; MAX_SEATS],
            sirs: [[0; PIECES]; MAX_SEATS],
            places: [0; MAX_SEATS],
            turn: 0,
            owed: 1,
            pending: None,
            throws: 0,
            finished: 0,
            occupied,
        }
    }

    #[inline]
    fn node(&self, state: &State) -> Node {
        if state.pending.is_some() {
            Node::Decide(state.turn as usize)
        } else if state.throws >= self.max_throws || state.finished + 1 >= state.seats {
            Node::End
        } else {
            Node::Throw(state.turn as usize)
        }
    }

    #[inline]
    fn sticks(&self) -> Sticks {
        Sticks::SIX
    }

    fn legal_actions(&self, state: &State, out: &mut ActionList<Action>) {
        match state.pending {
            Some(t) => self.actions(
                state,
                state.turn as usize & (MAX_SEATS - 1),
                t.marked(),
                out,
            ),
            None => out.clear(),
        }
    }

    #[inline]
    fn apply_throw_unchecked(&self, state: &mut State, throw: Throw) {
        state.throws = state.throws.wrapping_add(1);
        let extra = THROWS[(throw.marked() & 7) as usize].2;
        state.owed = state
            .owed
            .saturating_sub(1)
            .saturating_add(u32::from(extra));
        state.pending = Some(throw);
    }

    #[inline]
    fn apply_action_unchecked(&self, state: &mut State, action: Action) {
        let seat = state.turn as usize & (MAX_SEATS - 1);
        if let (Some(k), Some(t)) = (action.piece(), state.pending) {
            self.make_use(state, seat, k, t.marked());
        }
        self.end_decision(state, seat);
    }

    fn ranking(&self, state: &State) -> Option<Ranking> {
        if self.node(state) != Node::End {
            return None;
        }
        let n = state.seats();
        let mut keys = [0u32; MAX_SEATS];
        for (key, &place) in keys.iter_mut().zip(&state.places[..n]) {
            *key = if place > 0 { u32::from(place) } else { 100 };
        }
        Some(Ranking::from_keys(&keys[..n]))
    }

    fn throws_made(&self, state: &State) -> u32 {
        state.throws
    }

    fn parse_action(&self, text: &str) -> Result<Action, NotationError> {
        text.parse()
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

impl Present for SiryuRace {
    fn render(&self, state: &State) -> String {
        const W: usize = 8;
        let n = state.seats();
        let mut contents: Vec<String> = vec![String::new(); TRACK_LEN];
        for s in 0..n {
            for k in 0..PIECES {
                let c = &mut contents[state.pieces[s][k] as usize % TRACK_LEN];
                let _ = write!(c, "{}{}", s + 1, PIECE_LETTERS[k]);
            }
        }
        let label = |i: u8| match i {
            MINARET => "12 Min".to_string(),
            CAIRO => "28 Cairo".to_string(),
            MEDINA => "29 Medina".to_string(),
            MECCA => "30 Mecca".to_string(),
            _ => i.to_string(),
        };
        let text = |i: u8| {
            let t = &contents[i as usize];
            if t.len() > W {
                format!("{}+", &t[..W - 1])
            } else {
                t.clone()
            }
        };
        let square_at =
            |row: i8, col: i8| (0..TRACK_LEN as u8).find(|&i| square_cell(i) == Some((row, col)));
        let mut out = String::new();
        let border = |cols: usize, pad: usize| {
            format!("{:pad$}+{}", "", format!("{}+", "-".repeat(W)).repeat(cols))
        };
        for row in (-6..=4i8).rev() {
            let (cols, pad): (Vec<i8>, usize) = if row >= 0 {
                ((0..=4).collect(), 0)
            } else {
                (vec![2], 2 * (W + 1))
            };
            let _ = writeln!(
                out,
                "{}",
                border(cols.len(), if row == -1 { 0 } else { pad })
            );
            let mut labels = format!("{:pad$}|", "");
            let mut cells = format!("{:pad$}|", "");
            for &col in &cols {
                if let Some(i) = square_at(row, col) {
                    let _ = write!(labels, "{:<W$}|", label(i));
                    let _ = write!(cells, "{:<W$}|", text(i));
                }
            }
            let _ = writeln!(out, "{labels}");
            let _ = writeln!(out, "{cells}");
        }
        let _ = writeln!(out, "{}", border(1, 2 * (W + 1)));
        out.push_str(
            "The grid is walked down and up its columns from the top left (idx 0 = fathers' \
             start, 1 = angels', 2 = mothers'); the road hangs below the middle column.\n\
             1F = P1's father, 1A = its angel, 1M = its mother; + = more on the square\n",
        );
        match self.ranking(state) {
            Some(r) => {
                let why = if state.finished + 1 < state.seats {
                    " at the throw cap"
                } else {
                    ""
                };
                let _ = writeln!(out, "Game over{why} after {} throws: {r}.", state.throws);
            }
            None => {
                let who = state.turn as usize + 1;
                match state.pending {
                    Some(t) => {
                        let _ = writeln!(
                            out,
                            "P{who} to use a throw of {} white sides up (owes {} more; throw {} \
                             of at most {}).",
                            t.marked(),
                            state.owed,
                            state.throws,
                            self.max_throws
                        );
                    }
                    None => {
                        let _ = writeln!(
                            out,
                            "P{who} to throw (owes {}; throw {} of at most {}).",
                            state.owed,
                            state.throws + 1,
                            self.max_throws
                        );
                    }
                }
            }
        }
        for s in 0..n {
            let mut parts = Vec::new();
            for k in 0..PIECES {
                let i = state.pieces[s][k];
                let sirs = state.sirs[s][k];
                let at = match square_name(i) {
                    Some(name) => format!("{name} (idx {i})"),
                    None => format!("idx {i}"),
                };
                if sirs > 0 {
                    parts.push(format!("{} on {at}, {sirs} of 3 sirs", PIECE_NAMES[k]));
                } else {
                    parts.push(format!("{} on {at}", PIECE_NAMES[k]));
                }
            }
            let done = match state.places[s] {
                0 => String::new(),
                k => format!(" (finished {})", ordinal(k)),
            };
            let _ = writeln!(out, "P{}{done}: {}", s + 1, parts.join(", "));
        }
        out
    }

    fn describe_throw(&self, state: &State, throw: Throw) -> String {
        let w = throw.marked();
        let base = match w {
            0 if self.six_black_moves_six => {
                "six black: 6 points of ordinary steps, three extra throws".to_string()
            }
            0 => "six black: 0, three extra throws".to_string(),
            1 => "1 white side up: a sir (1 point), throw again".to_string(),
            5 => "5 white sides up: a sir (1 point), throw again".to_string(),
            2..=4 => format!("{w} white sides up: 0"),
            6 => "six white: 6 points of ordinary steps, throw again".to_string(),
            _ => return format!("{w} white sides up: impossible with six sticks"),
        };
        let Node::Throw(seat) = self.node(state) else {
            return base;
        };
        let mask = self.usable(state, seat & (MAX_SEATS - 1), w);
        if mask == 0 {
            return format!("{base}; P{} cannot use it and passes", seat + 1);
        }
        let names: Vec<&str> = (0..PIECES)
            .filter(|k| mask & (1 << k) != 0)
            .map(|k| PIECE_NAMES[k])
            .collect();
        format!(
            "{base}; P{} can use it with: {}",
            seat + 1,
            names.join(", ")
        )
    }
}

impl Playouts for SiryuRace {
    /// Plays to the end with random throws and uniformly random decisions, each throw and
    /// its decision in one step: the same draws, actions and states as the default
    /// (a throw of six sticks, then, where more than one piece can use it, an index among
    /// them in the order father, angel, mother), without listing actions. A 0 is passed at
    /// once; the pieces that can use a sir or a six are found by one table lookup each.
    #[inline]
    fn play_random_to_end<R: rand::Rng + ?Sized>(
        &self,
        state: &mut State,
        bits: &mut crate::play::RandomBits,
        rng: &mut R,
    ) {
        let mut b = *bits;
        let n = state.seats();
        if n == 0 || state.turn as usize >= n {
            // A state `from_position` rejects: the default's way.
            crate::play::random_to_end_step_by_step(self, state, &mut b, rng);
            *bits = b;
            return;
        }
        // A decision already due: made as the default makes it.
        if state.pending.is_some() {
            self.random_decision(state, &mut b, rng);
        }
        // By white sides up: the points and the extra throws.
        let mut table = [(Points::Nothing, 0u32); 8];
        for (w, e) in table.iter_mut().enumerate() {
            let (p, x) = self.points(w as u8);
            *e = (p, u32::from(x));
        }
        let limit = self.max_throws;
        if state.throws >= limit || state.finished + 1 >= state.seats {
            *bits = b;
            return;
        }
        let mut next = next_racing_seats(state);
        // At least one throw is made. The throws left before the cap count down; an owed
        // count of 0 behaves as 1 (the throw's saturating subtraction), so the one below
        // never wraps.
        let (mut turn, mut owed) = (state.turn as usize, state.owed.max(1));
        let mut left = limit - state.throws;
        loop {
            let t = b.throw(rng, Sticks::SIX);
            left -= 1;
            let (points, extra) = table[(t.marked() & 7) as usize];
            owed = (owed - 1).saturating_add(extra);
            if points != Points::Nothing {
                let seat = turn & (MAX_SEATS - 1);
                let mask = self.usable_by(state, seat, points);
                if mask != 0 {
                    let pick = if mask & (mask - 1) == 0 {
                        0
                    } else {
                        b.index(rng, mask.count_ones() as usize)
                    };
                    // The pick-th piece that can use the throw.
                    let mut m = mask;
                    for _ in 0..pick {
                        m &= m - 1;
                    }
                    self.make_use_of(state, seat, m.trailing_zeros() as usize, points);
                    if state.places[seat] != 0 {
                        // The seat finished: the turn passes; the game may end.
                        next = next_racing_seats(state);
                        owed = 0;
                        if state.finished + 1 >= state.seats {
                            turn = next[seat] as usize;
                            owed = 1;
                            break;
                        }
                    }
                }
            }
            if owed == 0 {
                turn = next[turn & (MAX_SEATS - 1)] as usize;
                owed = 1;
            }
            if left == 0 {
                break;
            }
        }
        let throws = limit - left;
        state.turn = turn as u8;
        state.owed = owed;
        state.throws = throws;
        *bits = b;
    }
}

/// For every seat, the next seat still racing after it (itself when there is none other),
/// as [`SiryuRace::next_racing`] finds it.
fn next_racing_seats(state: &State) -> [u8; MAX_SEATS] {
    let n = state.seats();
    let mut out = [0u8; MAX_SEATS];
    for (seat, next) in out.iter_mut().enumerate().take(n) {
        let mut s = seat;
        *next = seat as u8;
        for _ in 1..n {
            s = if s + 1 >= n { 0 } else { s + 1 };
            if state.places[s] == 0 {
                *next = s as u8;
                break;
            }
        }
    }
    out
}

impl SiryuRace {
    /// Makes the pending throw's decision at random (as [`Playouts::random_action`] draws
    /// it) and applies it.
    #[inline(always)]
    fn random_decision<R: rand::Rng + ?Sized>(
        &self,
        state: &mut State,
        bits: &mut crate::play::RandomBits,
        rng: &mut R,
    ) {
        let seat = state.turn as usize & (MAX_SEATS - 1);
        let w = state.pending.map_or(2, |t| t.marked());
        let (points, _) = self.points(w);
        if points != Points::Nothing {
            let mask = self.usable(state, seat, w);
            let count = mask.count_ones() as usize;
            if count > 0 {
                let pick = if count == 1 {
                    0
                } else {
                    bits.index(rng, count)
                };
                // The pick-th piece that can use the throw.
                let mut m = mask;
                for _ in 0..pick {
                    m &= m - 1;
                }
                self.make_use(state, seat, m.trailing_zeros() as usize, w);
            }
        }
        self.end_decision(state, seat);
    }
}

impl Board for SiryuRace {
    fn geometry(&self) -> BoardGeometry {
        let squares: Vec<SquareInfo> = (0..TRACK_LEN as u8)
            .map(|idx| {
                let (row, col) = square_cell(idx).expect("on the track");
                let special = idx == MINARET || idx > CORNER;
                cell(
                    f64::from(col),
                    f64::from(4 - row),
                    idx.to_string(),
                    square_name(idx),
                    special,
                )
            })
            .collect();
        let order: Vec<usize> = (0..squares.len()).collect();
        // Arrows down and up the columns, then the jump from the corner onto the road and
        // down the road.
        let mut arrows = Vec::new();
        for (first, last) in [(0, 4), (5, 9), (10, 14), (15, 19), (20, 24), (25, 30)] {
            let (a, b): (&SquareInfo, &SquareInfo) = (&squares[first], &squares[last]);
            arrows.push(Arrow {
                x1: a.x + 0.5,
                y1: a.y + 0.5,
                x2: b.x + 0.5,
                y2: b.y + 0.5,
            });
        }
        let (corner, road) = (&squares[CORNER as usize], &squares[CORNER as usize + 1]);
        arrows.push(Arrow {
            x1: corner.x + 0.5,
            y1: corner.y + 0.5,
            x2: road.x + 0.5,
            y2: road.y + 0.5,
        });
        BoardGeometry {
            width: 5.0,
            height: 11.0,
            chosen_by: ChosenBy::Piece,
            tracks: vec![Track {
                seat: None,
                squares: order,
                loops_to: None,
            }],
            starts: vec![0; self.seats()],
            arrows,
            squares,
            sticks: StickFaces {
                count: 6,
                marked: "white",
                unmarked: "black",
            },
            legend: "F = father (starts on idx 0), A = angel (idx 1; ordinary steps cost it ½ \
                     point), M = mother (idx 2); the Minaret (idx 12) and road squares 1–3 need \
                     a sir to enter, Cairo, Medina and Mecca three sirs each",
        }
    }

    fn pieces(&self, s: &State) -> Vec<PlacedPiece> {
        let mut out = Vec::new();
        let deciding = s
            .pending
            .map(|t| self.usable(s, s.turn as usize & 7, t.marked()));
        for seat in 0..s.seats() {
            for k in 0..PIECES {
                let i = s.pieces[seat][k];
                let sirs = s.sirs[seat][k];
                let status = if i == MECCA {
                    crate::board::PieceStatus::Arrived
                } else {
                    crate::board::PieceStatus::Plain
                };
                let mut text = format!("P{}'s {} on idx {i}", seat + 1, PIECE_NAMES[k]);
                if let Some(name) = square_name(i) {
                    let _ = write!(text, " ({name})");
                }
                if sirs > 0 {
                    let _ = write!(text, ", {sirs} of 3 sirs");
                }
                out.push(PlacedPiece {
                    square: Some(usize::from(i)),
                    seat: Some(seat),
                    kind: PIECE_NAMES[k],
                    letter: ["F", "A", "M"][k],
                    active: seat == s.turn as usize && deciding.is_some_and(|m| m & (1 << k) != 0),
                    status,
                    text,
                });
            }
        }
        out
    }

    fn moves(&self, s: &State) -> Vec<BoardMove> {
        let mut legal = ActionList::new();
        self.legal_actions(s, &mut legal);
        let seat = s.turn as usize & (MAX_SEATS - 1);
        legal
            .iter()
            .map(|&a| {
                let (from, to) = match (a.piece(), s.pending) {
                    (Some(k), Some(t)) => {
                        let (points, _) = self.points(t.marked());
                        match self.use_of(s, seat, k, points) {
                            Some(u) => (Some(usize::from(u.from)), Some(usize::from(u.to))),
                            None => (None, None),
                        }
                    }
                    _ => (None, None),
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
        let seat = s.turn as usize & (MAX_SEATS - 1);
        let who = seat + 1;
        let (Some(k), Some(t)) = (action.piece(), s.pending) else {
            return format!("P{who} passes");
        };
        let (points, _) = self.points(t.marked());
        match self.use_of(s, seat, k, points) {
            Some(u) if u.to == u.from => format!(
                "P{who}'s {} counts a sir on idx {} ({} of 3)",
                PIECE_NAMES[k], u.from, u.sirs
            ),
            Some(u) => format!(
                "P{who}'s {} walks from idx {} to idx {}",
                PIECE_NAMES[k], u.from, u.to
            ),
            None => format!("P{who}'s {} cannot use the throw", PIECE_NAMES[k]),
        }
    }

    fn describe_change(&self, b: &State, a: &State) -> Vec<String> {
        let mut out = Vec::new();
        let mover = b.turn as usize;
        for seat in 0..a.seats().min(b.seats()) {
            for k in 0..PIECES {
                let (x, y) = (b.pieces[seat][k], a.pieces[seat][k]);
                if seat != mover && y < x {
                    out.push(format!(
                        "P{}'s {} is sent back from idx {x} to idx {y}",
                        seat + 1,
                        PIECE_NAMES[k]
                    ));
                }
            }
            if b.places[seat] == 0 && a.places[seat] > 0 {
                out.push(format!(
                    "P{} has all three pieces on Mecca: it finishes {}",
                    seat + 1,
                    ordinal(a.places[seat])
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::RandomBits;
    use rand::{RngExt as _, SeedableRng as _};

    /// The one-step playout against the default's (play_throws, then random_action by
    /// listing, until the end), from every position of random games, with every seat
    /// count, option and throw caps that cut games short: the same states and draws.
    #[test]
    fn play_random_to_end_plays_exactly_the_default_loop() {
        let mut rng = crate::Rng::seed_from_u64(21);
        let mut positions = 0;
        for seats in 2..=MAX_SEATS {
            for flags in 0..4 {
                for cap in [DEFAULT_MAX_THROWS, 500, 9] {
                    let mut game = SiryuRace::with_seats(seats).unwrap();
                    game.six_black_moves_six = flags & 1 != 0;
                    game.capture_on_landing = flags & 2 != 0;
                    game.max_throws = cap;
                    let games = if seats <= 3 { 3 } else { 1 };
                    for _ in 0..games {
                        let mut state = game.initial_state();
                        let mut legal = ActionList::new();
                        let mut i = 0u32;
                        while game.node(&state) != Node::End {
                            if i.is_multiple_of(17) {
                                let (mut fast, mut plain) = (state, state);
                                let (mut a, mut b) = (rng.clone(), rng.clone());
                                let (mut ba, mut bb) = (RandomBits::new(), RandomBits::new());
                                game.play_random_to_end(&mut fast, &mut ba, &mut a);
                                crate::play::random_to_end_step_by_step(
                                    &game, &mut plain, &mut bb, &mut b,
                                );
                                assert_eq!(fast, plain, "{seats} seats, flags {flags}, cap {cap}");
                                assert_eq!((a, ba), (b, bb), "the same draws");
                                positions += 1;
                            }
                            i += 1;
                            match game.node(&state) {
                                Node::Throw(_) => {
                                    let t = game.sample_throw(&mut rng);
                                    game.apply_throw_unchecked(&mut state, t);
                                }
                                _ => {
                                    game.legal_actions(&state, &mut legal);
                                    let pick = rng.random_range(0..legal.len());
                                    game.apply_action_unchecked(&mut state, legal[pick]);
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(positions > 10_000, "{positions} positions");
    }

    /// The quick test of which pieces can use a throw agrees with the use itself, for every
    /// square, piece and kind of points.
    #[test]
    fn usable_pieces_are_those_whose_use_exists() {
        let game = SiryuRace::with_seats(2).unwrap();
        for points in [Points::Nothing, Points::Sir, Points::Six] {
            for a in 0..=MECCA {
                let p = Position {
                    // All three on Mecca would have finished: the father alone there.
                    pieces: vec![
                        if a == MECCA {
                            [a, 1, 2]
                        } else {
                            [a, a.max(1), a.max(2)]
                        },
                        STARTS,
                    ],
                    ..Position::start(2)
                };
                let s = State::from_position(p).unwrap();
                let mut want = 0;
                for k in 0..PIECES {
                    if game.use_of(&s, 0, k, points).is_some() {
                        want |= 1 << k;
                    }
                }
                assert_eq!(game.usable_by(&s, 0, points), want, "idx {a}");
            }
        }
    }
}
