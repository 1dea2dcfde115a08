//! Sig (El Oued), Algeria (the rules: the book's chapter `docs/games/sig-el-oued.md`).
//!
//! A race to Mecca. Each player walks three pieces — the **father**, the **djinn** and
//! the **mother**, in that order — along a shared 31-square track, and passing an opponent
//! sends it back to the start.
//!
//! # The rules as implemented
//!
//! **Players:** 2 to 8 (default 2). Seat 0 throws first.
//!
//! **Track:** idx 0..30 on a 5x5 grid (row 0 at the bottom) with six squares rising from
//! its top-right corner: idx 0–4 row 0 left to right, 5–9 row 1 right to left, 10–14 row 2,
//! 15–19 row 3, 20–24 row 4, then 25–30 up the tower. idx 0 is the start, idx 12 (the grid
//! centre) the **Minaret**, idx 28 **Cairo**, idx 29 **Medina**, idx 30 **Mecca** (the goal).
//! *Sig squares* are the Minaret and the six tower squares (idx 12 and 25–30).
//!
//! **Pieces:** all three start on idx 0. Only the *active* piece moves: the father; once he
//! is on Mecca, the djinn; once she is on Mecca, the mother. Pieces on Mecca stay there, so
//! at any time a seat has a prefix of its pieces on Mecca, the active piece anywhere, and
//! the rest on the start ([`State::pieces`]).
//!
//! **Throws:** six sticks; the count `k` of polished sides up (probability `C(6,k)/64`).
//! The first throw of a turn:
//! * `k` = 2, 3, 4: a **plain budget** of `k` points; the turn ends.
//! * `k` = 1 or 5, a **regular sig**: a *sig budget* of 1 point, moved at once; then one
//!   bonus throw whose value is a plain budget; the turn ends.
//! * `k` = 6, a **sig of six**: one bonus throw; then a sig budget of 6 + its value.
//! * `k` = 0, a **sig of twelve**: up to three bonus throws; then a sig budget of 12 +
//!   their values — or 13 as soon as one of them is a regular sig (no more are thrown).
//!
//! A bonus throw is worth its count (0, 2, 3, 4, 6), a regular sig (`k` = 1 or 5) 1. Bonus
//! throws are throw nodes of the same seat ([`Pending`]), count as throws and never grant
//! further throws. A sig of six followed by a regular sig is worth 7.
//!
//! **Moving** spends the budget step by step on the active piece, as far as it goes (there
//! is no choice). Budgets are kept in **half-points** so the djinn's ½-point steps are exact.
//! * A step *needs a sig* if it leaves the start, leaves a sig square or enters one; a plain
//!   budget stops before such a step (the rest is lost).
//! * Only the regular sig's point, or a leftover (below), takes a piece off the start; a
//!   sig of six or twelve cannot.
//! * A step costs 1 point; the djinn's steps that need no sig cost ½ point (with any kind of
//!   budget). Steps that need a sig cost 1 point for every piece. Entering Cairo costs 3
//!   points from a sig of six or twelve (or a leftover, which always comes from one); from a
//!   regular sig it costs 1 point — unless the option `cairo_always_three` is set, when it
//!   always costs 3, so a regular sig can never enter Cairo.
//! * When the next step costs more than what is left, the piece stops; the rest is lost.
//! * **Capture by passing:** after the move, every opponent piece on a square *strictly
//!   between* the start and the stop square of the move goes back to the start. Ending on
//!   or starting from an opponent's square captures nothing; any number of pieces share a
//!   square; pieces on the start and on Mecca are never captured.
//! * **Leftover at Mecca:** when the active piece reaches Mecca with at least 1 point left
//!   and its owner has another piece (it was the father or the djinn), its owner chooses
//!   ([`Action::Use`] / [`Action::Decline`], notation `use` / `decline`) whether to walk the
//!   next piece off the start with the rest. Its walk follows the same rules (Cairo costs 3
//!   on it); its captures span its own walk, from the start to where it stops. The arriving
//!   piece's captures happen before the choice. A leftover walk can reach Mecca with points
//!   left again, which offers the next choice. A declined rest, or a rest under 1 point, is
//!   lost. This is the game's only decision node.
//!
//! **End and ranking:** a seat with all three pieces on Mecca has *finished*: it takes the
//! next finishing place and leaves the turn order at once (a bonus throw still due is not
//! made). The game ends when at most one seat is still racing; it ranks last. Finishers rank
//! in order of finishing. With two players the first finisher wins.
//!
//! **Throw cap** (`max_throws`, default 10 000): once that many throws have been made, the
//! game ends where the next throw (first or bonus) would be due. The cap-th throw's own move
//! and a leftover choice it calls for are still finished. So: a regular sig as the cap-th
//! throw moves its point, and its bonus throw is not made; a sig of six or twelve whose
//! bonus throws are cut off by the cap **moves nothing**, since its budget is never complete
//! (the sig of twelve's budget is complete, and moved, when a regular sig comes up among the
//! bonus throws made before the cap). At the cap the seats still racing tie, below every
//! finisher.
//!
//! # Readings chosen where the rules leave room
//!
//! 1. Bonus throws are always made, even when their budget cannot move anything (for
//!    example a sig of six while the active piece is still on the start): the throw is
//!    simply lost, but it was thrown and counts toward the cap.
//! 2. A regular sig among the bonus throws of a sig of six or twelve is only a value (1, or
//!    the sig of twelve's 13); the pooled budget is still a sig of six or twelve's, so it
//!    cannot take a piece off the start. The "13" of a sig of twelve is the whole budget,
//!    not 12 + 13.
//! 3. The regular sig's point is moved before its bonus throw is made; a sig of six or
//!    twelve moves once, after all its bonus throws.
//! 4. When the regular sig's point brings the father or the djinn onto Mecca, the bonus
//!    throw is still made (its plain budget cannot take the next piece off the start, so it
//!    is lost). When it brings the mother there the seat finishes and the bonus throw is not
//!    made.
//! 5. The djinn's half-price steps are its steps that need no sig, whatever the budget; a
//!    step that needs a sig, and the step into Cairo, cost the djinn the same as any piece.
//! 6. When the mother reaches Mecca the seat finishes and any rest is lost (there is no next
//!    piece to offer it to).
//! 7. After a seat finishes, the turn passes to the next seat still racing; after the game
//!    ends that way, [`State::turn`] names the last seat racing and [`State::pending`] is
//!    [`Pending::FirstThrow`].
//! 8. A state whose throw count is past the cap is rejected by `validate` (it cannot be
//!    reached); at exactly the cap a pending bonus throw is allowed (it will never be made).

use core::fmt;
use core::fmt::Write as _;

use super::common::ordinal;
use super::sig_throws::{bonus_value, is_regular_sig, BONUS_SUMS};
use crate::config::{check_seats, DEFAULT_MAX_THROWS};
use crate::dice::{Sticks, Throw};
use crate::game::{
    ActionList, ConfigError, Game, InvalidState, Node, NotationError, Playouts, ProblemKind,
    Problems, Ranking, Seat, MAX_SEATS,
};
use crate::present::Present;

/// The number of squares on the track (idx 0..30).
pub const TRACK_LEN: usize = 31;
/// idx of the start square, where every piece begins.
pub const START: u8 = 0;
/// idx of the Minaret, the grid's centre square (a sig square).
pub const MINARET: u8 = 12;
/// idx of the grid's top-right corner, from which the tower rises.
pub const CORNER: u8 = 24;
/// idx of Cairo (the tower's 4th square): a sig of six or twelve pays 3 points to enter.
pub const CAIRO: u8 = 28;
/// idx of Medina (the tower's 5th square).
pub const MEDINA: u8 = 29;
/// idx of Mecca, the goal (the tower's top square).
pub const MECCA: u8 = 30;

/// The number of pieces each player walks.
pub const PIECES: usize = 3;
/// Index of the father in a seat's pieces (the first to walk).
pub const FATHER: usize = 0;
/// Index of the djinn in a seat's pieces (the second to walk; ½-point ordinary steps).
pub const DJINN: usize = 1;
/// Index of the mother in a seat's pieces (the last to walk).
pub const MOTHER: usize = 2;
/// The pieces' names, by index.
pub const PIECE_NAMES: [&str; PIECES] = ["father", "djinn", "mother"];
/// The pieces' one-letter marks on the board, by index.
pub const PIECE_LETTERS: [char; PIECES] = ['F', 'D', 'M'];

/// Whether a step into or out of square `idx` needs a sig (the Minaret and the six tower
/// squares, idx 12 and 25–30).
#[inline]
pub const fn is_sig_square(idx: u8) -> bool {
    idx == MINARET || (idx > CORNER && idx <= MECCA)
}

/// The name of a square, if it has one (start, Minaret, Cairo, Medina, Mecca).
pub const fn square_name(idx: u8) -> Option<&'static str> {
    match idx {
        START => Some("start"),
        MINARET => Some("Minaret"),
        CAIRO => Some("Cairo"),
        MEDINA => Some("Medina"),
        MECCA => Some("Mecca"),
        _ => None,
    }
}

/// The (row, column) of square `idx` on the board: rows 0–4 are the grid (row 0 at the
/// bottom, column 0 at the left); rows 5–10 are the tower above column 4. `None` off the
/// track.
pub const fn square_cell(idx: u8) -> Option<(u8, u8)> {
    match idx {
        0..=4 => Some((0, idx)),
        5..=9 => Some((1, 9 - idx)),
        10..=14 => Some((2, idx - 10)),
        15..=19 => Some((3, 19 - idx)),
        20..=24 => Some((4, idx - 20)),
        25..=30 => Some((idx - 20, 4)),
        _ => None,
    }
}

/// What the seat to play owes next: the first throw of its turn, a bonus throw, or the
/// leftover choice at Mecca.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Pending {
    /// The first throw of the turn is due.
    #[default]
    FirstThrow,
    /// A regular sig has moved its point; its bonus throw (a plain budget) is due.
    SigBonus,
    /// A sig of six was thrown; its bonus throw is due (then a sig budget of 6 + its value).
    SixBonus,
    /// A sig of twelve was thrown; `left` (1..=3) of its bonus throws are still due, and
    /// those made so far (none of them a regular sig) add up to `sum`.
    TwelveBonus {
        /// Bonus throws still due, 1 to 3.
        left: u8,
        /// The value of the bonus throws made so far.
        sum: u8,
    },
    /// The active piece reached Mecca with `rest` half-points (at least 2) of a sig of six
    /// or twelve left: its owner decides whether the next piece walks with them.
    Leftover {
        /// The rest, in half-points.
        rest: u8,
    },
}

/// What can be wrong with a Sig (El Oued) [`State`]: the problems [`Game::validate`]
/// reports, each with the seat, piece or value concerned. Seats are 0-based (P1 is seat 0);
/// pieces are [`FATHER`], [`DJINN`], [`MOTHER`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// A seat past the seat count has pieces off the start or a finishing place.
    UnusedSeatInUse {
        /// The seat.
        seat: usize,
        /// The seat count.
        seats: usize,
    },
    /// A piece's idx is past Mecca.
    OffTrack {
        /// The seat.
        seat: usize,
        /// The piece.
        piece: usize,
        /// Its idx.
        idx: u8,
    },
    /// A piece is on Mecca though an earlier one (in the order father, djinn, mother) is not.
    MeccaOutOfOrder {
        /// The seat.
        seat: usize,
        /// The piece on Mecca.
        piece: usize,
        /// The earlier piece still racing.
        racing: usize,
    },
    /// A piece other than the active one has left the start.
    LeftStartTooEarly {
        /// The seat.
        seat: usize,
        /// The piece.
        piece: usize,
        /// Its idx.
        idx: u8,
        /// The active piece.
        racing: usize,
    },
    /// All three pieces are on Mecca but the seat has no finishing place.
    HomeWithoutPlace {
        /// The seat.
        seat: usize,
    },
    /// A finishing place for a seat whose pieces are not all on Mecca.
    PlaceWithoutHome {
        /// The seat.
        seat: usize,
        /// Its finishing place.
        place: u8,
    },
    /// The finished count does not match the finishing places.
    FinishedCountMismatch {
        /// The finished count.
        finished: u8,
        /// The number of seats with a finishing place.
        places: usize,
    },
    /// The finishing places are not 1 to k, each once.
    PlacesNotConsecutive {
        /// The finishing places given, sorted.
        places: Vec<u8>,
    },
    /// Every seat has finished (the game ends while one still races).
    AllFinished {
        /// The seat count.
        seats: usize,
    },
    /// The turn is a seat the game does not have.
    TurnOutOfRange {
        /// The seat given.
        turn: usize,
        /// The seat count.
        seats: usize,
    },
    /// The turn is a finished seat's.
    TurnOfFinishedSeat {
        /// The seat.
        turn: usize,
    },
    /// More throws have been made than the throw cap allows.
    PastThrowCap {
        /// The throw count.
        throws: u32,
        /// The cap.
        cap: u32,
    },
    /// Something other than the first throw is pending though no throw has been made.
    PendingBeforeAnyThrow {
        /// What is pending.
        pending: Pending,
    },
    /// Something is pending though the game is over.
    PendingAfterEnd {
        /// What is pending.
        pending: Pending,
    },
    /// A sig of twelve with a number of bonus throws left other than 1 to 3.
    TwelveBonusLeftOutOfRange {
        /// The bonus throws left.
        left: u8,
    },
    /// A sig of twelve's bonus throws so far cannot add up to their recorded sum.
    TwelveBonusSumUnreachable {
        /// The bonus throws made.
        made: u8,
        /// Their recorded sum.
        sum: u8,
    },
    /// A leftover outside 2 to 58 half-points.
    LeftoverOutOfRange {
        /// The rest, in half-points.
        rest: u8,
    },
    /// A leftover offered to a seat whose next piece is not waiting on the start behind a
    /// piece on Mecca.
    LeftoverWithoutWaitingPiece {
        /// The seat.
        seat: usize,
    },
    /// A [`Position`] of fewer than 2 seats or more than 8.
    SeatCount {
        /// The number of seats given (pieces listed).
        seats: usize,
    },
    /// A [`Position`]'s finishing places are not one a seat.
    PlacesLength {
        /// The number of finishing places given.
        places: usize,
        /// The number of seats.
        seats: usize,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::SeatCount { seats } => write!(
                f,
                "the position has {seats} seats, but Sig (El Oued) is played by 2 to \
                 {MAX_SEATS}"
            ),
            Problem::PlacesLength { places, seats } => write!(
                f,
                "the position gives {places} finishing places for {seats} seats (one a seat, \
                 or none)"
            ),
            Problem::UnusedSeatInUse { seat, seats } => write!(
                f,
                "P{} has pieces off the start or a finishing place, but the game has only {seats} seats",
                seat + 1
            ),
            Problem::OffTrack { seat, piece, idx } => write!(
                f,
                "P{}'s {} is at idx {idx}, off the 31-square track (idx 0..30)",
                seat + 1,
                PIECE_NAMES[*piece % PIECES]
            ),
            Problem::MeccaOutOfOrder {
                seat,
                piece,
                racing,
            } => write!(
                f,
                "P{}'s {} is on Mecca but the {} is not: pieces reach Mecca in the order father, djinn, mother",
                seat + 1,
                PIECE_NAMES[*piece % PIECES],
                PIECE_NAMES[*racing % PIECES]
            ),
            Problem::LeftStartTooEarly {
                seat,
                piece,
                idx,
                racing,
            } => write!(
                f,
                "P{}'s {} is on idx {idx} while the {} is still racing: only the active piece leaves the start",
                seat + 1,
                PIECE_NAMES[*piece % PIECES],
                PIECE_NAMES[*racing % PIECES]
            ),
            Problem::HomeWithoutPlace { seat } => write!(
                f,
                "P{} has all three pieces on Mecca but no finishing place",
                seat + 1
            ),
            Problem::PlaceWithoutHome { seat, place } => write!(
                f,
                "P{} has finishing place {place} but not all its pieces are on Mecca",
                seat + 1
            ),
            Problem::FinishedCountMismatch { finished, places } => write!(
                f,
                "the finished count is {finished} but {places} seats have a finishing place"
            ),
            Problem::PlacesNotConsecutive { places } => write!(
                f,
                "the finishing places {places:?} are not 1 to {}, each once",
                places.len()
            ),
            Problem::AllFinished { seats } => write!(
                f,
                "all {seats} seats have finished, but the game ends while one seat still races"
            ),
            Problem::TurnOutOfRange { turn, seats } => write!(
                f,
                "the turn is P{}'s, out of range for {seats} seats",
                turn + 1
            ),
            Problem::TurnOfFinishedSeat { turn } => write!(
                f,
                "the turn is P{}'s, but P{} has finished",
                turn + 1,
                turn + 1
            ),
            Problem::PastThrowCap { throws, cap } => {
                write!(f, "{throws} throws have been made, past the cap of {cap}")
            }
            Problem::PendingBeforeAnyThrow { pending } => {
                write!(f, "{pending:?} is pending but no throw has been made")
            }
            Problem::PendingAfterEnd { pending } => write!(
                f,
                "the game is over (one seat still races) but {pending:?} is pending"
            ),
            Problem::TwelveBonusLeftOutOfRange { left } => write!(
                f,
                "a sig of twelve has {left} bonus throws left; it has 1 to 3"
            ),
            Problem::TwelveBonusSumUnreachable { made, sum } => write!(
                f,
                "a sig of twelve's {made} bonus throws cannot add up to {sum} without a regular sig"
            ),
            Problem::LeftoverOutOfRange { rest } => write!(
                f,
                "a leftover of {rest} half-points is offered; it must be 2 (1 point) to {MAX_REST}"
            ),
            Problem::LeftoverWithoutWaitingPiece { seat } => write!(
                f,
                "a leftover is offered to P{}, whose next piece is not waiting on the start behind a piece on Mecca",
                seat + 1
            ),
        }
    }
}

impl ProblemKind for Problem {}

/// A position of Sig (El Oued), plus whose turn it is and what is pending.
///
/// The fields are private (visible in this crate only, for `stickdice::testing`'s damaged
/// states), so the derived part (the count of seats that have finished) always agrees
/// with the finishing places: a state comes from [`Game::initial_state`], from play, from
/// a [`Position`] (`State::try_from`, which counts the finished seats and checks the
/// position), or from JSON (which counts them the same way, refuses a `finished` count
/// that disagrees with the places, and is checked by [`Game::load_state`]).
/// [`State::with_pieces_of`], [`State::with_finish_place`], [`State::with_turn`],
/// [`State::with_pending`] and [`State::with_throws`] change a state without checking it:
/// [`Game::validate`] checks a state that comes from outside.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "StateRepr"))]
pub struct State {
    /// Where each seat's pieces stand, by seat then piece ([`FATHER`], [`DJINN`],
    /// [`MOTHER`]): an idx 0..=30. Pieces on Mecca (idx 30) come first, then the active
    /// piece, then pieces on the start. Entries of seats past the seat count are 0.
    pub(crate) pieces: [[u8; PIECES]; MAX_SEATS],
    /// Each seat's finishing place, 1 for the first to bring all three pieces to Mecca, 2
    /// for the next…; 0 while the seat is still racing.
    pub(crate) finish_place: [u8; MAX_SEATS],
    /// The number of seats that have finished (derived: the finishing places that are set).
    pub(crate) finished: u8,
    /// The seat whose turn it is (always a seat still racing).
    pub(crate) turn: u8,
    /// What that seat owes next.
    pub(crate) pending: Pending,
    /// Throws made so far in the game, bonus throws included.
    pub(crate) throws: u32,
}

/// A Sig (El Oued) position written out: where each seat's pieces stand and whose turn it
/// is, one entry a seat. `State::try_from(position)` builds the [`State`] and checks every
/// rule that does not depend on the game's options (the seat count must still be the
/// game's, and the throw cap is [`Game::validate`]'s).
///
/// ```
/// use stickdice::games::sig_el_oued::{Position, SigElOued, State, MECCA};
/// use stickdice::Game;
/// let game = SigElOued::with_seats(3).unwrap();
/// let p = Position {
///     finish_place: vec![1, 0, 0],
///     turn: 1,
///     throws: 40,
///     ..Position::new(&[[MECCA; 3], [MECCA, 7, 0], [4, 0, 0]])
/// };
/// let s = State::try_from(p.clone()).unwrap();
/// assert_eq!((s.finished(), s.turn(), s.throws()), (1, 1, 40));
/// assert_eq!(game.validate(&s), Ok(()));
/// assert_eq!(s.position(3), p);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// Where each seat's pieces stand ([`FATHER`], [`DJINN`], [`MOTHER`]): an idx 0..=30,
    /// pieces on Mecca first, then the active piece, then pieces on the start. One entry
    /// a seat (2 to 8).
    pub pieces: Vec<[u8; PIECES]>,
    /// Each seat's finishing place, 1 for the first to bring all three pieces to Mecca, 2
    /// for the next…; 0 while the seat is still racing (empty: no seat has finished).
    pub finish_place: Vec<u8>,
    /// The seat whose turn it is.
    pub turn: u8,
    /// What that seat owes next.
    pub pending: Pending,
    /// Throws made so far in the game, bonus throws included.
    pub throws: u32,
}

impl Position {
    /// These pieces (one entry a seat), no seat finished, P1 to throw, its first throw of
    /// the turn due, no throw made.
    pub fn new(pieces: &[[u8; PIECES]]) -> Position {
        Position {
            pieces: pieces.to_vec(),
            finish_place: vec![0; pieces.len()],
            ..Position::default()
        }
    }
}

impl TryFrom<Position> for State {
    type Error = InvalidState;

    /// Builds the state and checks every invariant that does not depend on the game's
    /// options (each problem named, as [`Game::validate`] names it).
    fn try_from(p: Position) -> Result<State, InvalidState> {
        let n = p.pieces.len();
        let mut problems = Problems::new();
        if !(2..=MAX_SEATS).contains(&n) {
            problems.push(Problem::SeatCount { seats: n });
        }
        if !p.finish_place.is_empty() && p.finish_place.len() != n {
            problems.push(Problem::PlacesLength {
                places: p.finish_place.len(),
                seats: n,
            });
        }
        problems.finish()?;
        let mut pieces = [[START; PIECES]; MAX_SEATS];
        pieces[..n].copy_from_slice(&p.pieces);
        let mut finish_place = [0; MAX_SEATS];
        finish_place[..p.finish_place.len()].copy_from_slice(&p.finish_place);
        let s = State::unchecked(pieces, finish_place, p.turn, p.pending, p.throws);
        let mut problems = Problems::new();
        s.rule_problems(n, None, &mut problems);
        problems.finish()?;
        Ok(s)
    }
}

impl State {
    /// The state of these parts, the finished count counted from the places, unchecked
    /// (JSON is read this way: [`crate::load_state`] then checks it).
    fn unchecked(
        pieces: [[u8; PIECES]; MAX_SEATS],
        finish_place: [u8; MAX_SEATS],
        turn: u8,
        pending: Pending,
        throws: u32,
    ) -> State {
        State {
            pieces,
            finish_place,
            finished: finished_count(&finish_place),
            turn,
            pending,
            throws,
        }
    }

    /// Every broken invariant for a game of `n` seats (and the throw cap, when given), in
    /// the order [`Game::validate`] reports them.
    fn rule_problems(&self, n: usize, cap: Option<u32>, problems: &mut Problems) {
        let s = self;

        // Seats past the seat count hold nothing.
        for seat in n..MAX_SEATS {
            if s.pieces[seat] != [0; PIECES] || s.finish_place[seat] != 0 {
                problems.push(Problem::UnusedSeatInUse { seat, seats: n });
            }
        }

        // Pieces.
        for seat in 0..n {
            let pcs = s.pieces[seat];
            for (piece, &idx) in pcs.iter().enumerate() {
                if idx > MECCA {
                    problems.push(Problem::OffTrack { seat, piece, idx });
                }
            }
            let on_mecca = pcs.iter().take_while(|&&x| x == MECCA).count();
            for (piece, &idx) in pcs.iter().enumerate().skip(on_mecca + 1) {
                if idx == MECCA {
                    problems.push(Problem::MeccaOutOfOrder {
                        seat,
                        piece,
                        racing: on_mecca,
                    });
                } else if idx != START && idx <= MECCA {
                    problems.push(Problem::LeftStartTooEarly {
                        seat,
                        piece,
                        idx,
                        racing: on_mecca,
                    });
                }
            }
            let all_home = on_mecca == PIECES;
            let place = s.finish_place[seat];
            if all_home && place == 0 {
                problems.push(Problem::HomeWithoutPlace { seat });
            }
            if !all_home && place != 0 {
                problems.push(Problem::PlaceWithoutHome { seat, place });
            }
        }

        // Finishing places.
        let places = &s.finish_place[..n];
        let count = places.iter().filter(|&&x| x != 0).count();
        if count != s.finished as usize {
            problems.push(Problem::FinishedCountMismatch {
                finished: s.finished,
                places: count,
            });
        }
        let mut sorted: Vec<u8> = places.iter().copied().filter(|&x| x != 0).collect();
        sorted.sort_unstable();
        if sorted.iter().enumerate().any(|(i, &x)| x as usize != i + 1) {
            problems.push(Problem::PlacesNotConsecutive { places: sorted });
        }
        if count >= n {
            problems.push(Problem::AllFinished { seats: n });
        }

        // Turn.
        let turn = s.turn as usize;
        if turn >= n {
            problems.push(Problem::TurnOutOfRange { turn, seats: n });
        } else if s.finish_place[turn] != 0 {
            problems.push(Problem::TurnOfFinishedSeat { turn });
        }

        // What is pending.
        if let Some(cap) = cap.filter(|&cap| s.throws > cap) {
            problems.push(Problem::PastThrowCap {
                throws: s.throws,
                cap,
            });
        }
        if s.pending != Pending::FirstThrow {
            if s.throws == 0 {
                problems.push(Problem::PendingBeforeAnyThrow { pending: s.pending });
            }
            if count + 1 >= n && count < n {
                problems.push(Problem::PendingAfterEnd { pending: s.pending });
            }
        }
        match s.pending {
            Pending::TwelveBonus { left, sum } => {
                let reachable = match left {
                    3 => sum == 0,
                    2 => sum < 32 && BONUS_SUMS[1] & (1 << sum) != 0,
                    1 => sum < 32 && BONUS_SUMS[2] & (1 << sum) != 0,
                    _ => {
                        problems.push(Problem::TwelveBonusLeftOutOfRange { left });
                        true
                    }
                };
                if !reachable {
                    problems.push(Problem::TwelveBonusSumUnreachable {
                        made: 3 - left,
                        sum,
                    });
                }
            }
            Pending::Leftover { rest } => {
                if !(2..=MAX_REST).contains(&rest) {
                    problems.push(Problem::LeftoverOutOfRange { rest });
                }
                if turn < n {
                    let pcs = s.pieces[turn];
                    let on_mecca = pcs.iter().take_while(|&&x| x == MECCA).count();
                    if on_mecca == 0 || on_mecca == PIECES || pcs[on_mecca] != START {
                        problems.push(Problem::LeftoverWithoutWaitingPiece { seat: turn });
                    }
                }
            }
            _ => {}
        }
    }

    /// The state's parts, for a game of `seats` seats (the state does not record its seat
    /// count; at most 8 are given).
    pub fn position(&self, seats: usize) -> Position {
        let n = seats.min(MAX_SEATS);
        Position {
            pieces: self.pieces[..n].to_vec(),
            finish_place: self.finish_place[..n].to_vec(),
            turn: self.turn,
            pending: self.pending,
            throws: self.throws,
        }
    }

    /// This state with `seat`'s pieces at `pieces` ([`FATHER`], [`DJINN`], [`MOTHER`]; a
    /// seat past [`MAX_SEATS`] changes nothing).
    #[must_use]
    pub fn with_pieces_of(mut self, seat: Seat, pieces: [u8; PIECES]) -> State {
        if let Some(p) = self.pieces.get_mut(seat) {
            *p = pieces;
        }
        self
    }

    /// This state with `place` as `seat`'s finishing place (0: still racing; a seat past
    /// [`MAX_SEATS`] changes nothing), the finished count counted again.
    #[must_use]
    pub fn with_finish_place(mut self, seat: Seat, place: u8) -> State {
        if let Some(p) = self.finish_place.get_mut(seat) {
            *p = place;
        }
        self.finished = finished_count(&self.finish_place);
        self
    }

    /// This state with `turn` as the seat to throw (or to decide on a leftover).
    #[must_use]
    pub fn with_turn(mut self, turn: u8) -> State {
        self.turn = turn;
        self
    }

    /// This state with `pending` as what the seat to move owes next.
    #[must_use]
    pub fn with_pending(mut self, pending: Pending) -> State {
        self.pending = pending;
        self
    }

    /// This state with `throws` throws made so far.
    #[must_use]
    pub fn with_throws(mut self, throws: u32) -> State {
        self.throws = throws;
        self
    }

    /// Where each seat's pieces stand, by seat then piece ([`FATHER`], [`DJINN`],
    /// [`MOTHER`]): an idx 0..=30. Pieces on Mecca (idx 30) come first, then the active
    /// piece, then pieces on the start. Entries of seats past the seat count are 0.
    #[inline]
    pub fn pieces(&self) -> &[[u8; PIECES]; MAX_SEATS] {
        &self.pieces
    }

    /// Each seat's finishing place, 1 for the first to bring all three pieces to Mecca, 2
    /// for the next…; 0 while the seat is still racing.
    #[inline]
    pub fn finish_place(&self) -> [u8; MAX_SEATS] {
        self.finish_place
    }

    /// The number of seats that have finished.
    #[inline]
    pub fn finished(&self) -> u8 {
        self.finished
    }

    /// The seat whose turn it is.
    #[inline]
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// What the seat to move owes next.
    #[inline]
    pub fn pending(&self) -> Pending {
        self.pending
    }

    /// Throws made so far in the game, bonus throws included.
    #[inline]
    pub fn throws(&self) -> u32 {
        self.throws
    }

    /// The index of `seat`'s active piece ([`FATHER`], [`DJINN`] or [`MOTHER`]), or `None`
    /// when all three are on Mecca.
    #[inline]
    pub fn active_piece(&self, seat: usize) -> Option<usize> {
        self.pieces[seat].iter().position(|&p| p != MECCA)
    }
}

/// How many seats have a finishing place.
fn finished_count(finish_place: &[u8; MAX_SEATS]) -> u8 {
    finish_place.iter().filter(|&&p| p != 0).count() as u8
}

/// The JSON form of [`State`]: its fields as before, the finished count optional (counted
/// from the places) and, where given, checked against them.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct StateRepr {
    pieces: [[u8; PIECES]; MAX_SEATS],
    finish_place: [u8; MAX_SEATS],
    #[serde(default)]
    finished: Option<u8>,
    turn: u8,
    pending: Pending,
    throws: u32,
}

#[cfg(feature = "serde")]
impl TryFrom<StateRepr> for State {
    type Error = InvalidState;
    fn try_from(r: StateRepr) -> Result<State, InvalidState> {
        let s = State::unchecked(r.pieces, r.finish_place, r.turn, r.pending, r.throws);
        match r.finished {
            Some(finished) if finished != s.finished => {
                let mut problems = Problems::new();
                problems.push(Problem::FinishedCountMismatch {
                    finished,
                    places: s.finished as usize,
                });
                problems.finish().map(|()| s)
            }
            _ => Ok(s),
        }
    }
}

/// The leftover choice at Mecca, the game's one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Action {
    /// Walk the next piece off the start with the rest (notation `use`).
    Use,
    /// Let the rest go (notation `decline`).
    Decline,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Use => "use",
            Action::Decline => "decline",
        })
    }
}

/// Sig (El Oued): the rules, with the seat count and rule options.
///
/// Options: `max_throws` (the throw cap, default 10 000) and `cairo_always_three` (entering
/// Cairo costs 3 points from every budget, so a regular sig never enters it; default
///
/// ```
/// use stickdice::{Game, SigElOued, SeedableRng};
/// let mut game = SigElOued::with_seats(4).unwrap();
/// game.set_option("cairo_always_three", "true").unwrap();
/// assert!(game.set_option("cairo_always_three", "maybe").is_err()); // nothing changes
/// assert!(game.options().contains(&("cairo_always_three", "true".to_string())));
/// let mut state = game.initial_state();
/// let mut rng = stickdice::Rng::seed_from_u64(2);
/// let ranking = stickdice::play::random_playout(&game, &mut state, &mut rng);
/// assert_eq!(ranking.seats(), 4);
/// ```
/// false).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SigElOued {
    seats: u8,
    max_throws: u32,
    cairo_always_three: bool,
}

impl SigElOued {
    /// The throw cap.
    pub fn max_throws(&self) -> u32 {
        self.max_throws
    }

    /// Whether entering Cairo always costs 3 points (option `cairo_always_three`).
    pub fn cairo_always_three(&self) -> bool {
        self.cairo_always_three
    }
}

// ---- movement ---------------------------------------------------------------------------

/// The kind of budget a walk spends; it decides which steps may be paid and what they cost.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A plain budget (first throw of 2, 3, 4, or the regular sig's bonus throw).
    Plain = 0,
    /// The regular sig's 1 point.
    RegularSig = 1,
    /// A sig of six or twelve.
    GreatSig = 2,
    /// The rest of a sig of six or twelve at Mecca, walking the next piece off the start.
    Leftover = 3,
}

/// A step no budget of this kind may pay.
const BLOCKED: u8 = u8::MAX;

/// The cost in half-points of the step from each idx to the next, for one budget kind and
/// piece; [`BLOCKED`] where it cannot be paid (and from Mecca).
type CostRow = [u8; TRACK_LEN];

const fn cost_row(cairo_always_three: bool, kind: Kind, djinn: bool) -> CostRow {
    let mut row = [BLOCKED; TRACK_LEN];
    let mut pos: u8 = 0;
    while pos < MECCA {
        let next = pos + 1;
        let needs_sig = pos == START || is_sig_square(pos) || is_sig_square(next);
        let great = matches!(kind, Kind::GreatSig | Kind::Leftover);
        row[pos as usize] = if !needs_sig {
            if djinn {
                1
            } else {
                2
            }
        } else if matches!(kind, Kind::Plain) || (pos == START && matches!(kind, Kind::GreatSig)) {
            // A plain budget pays no sig step; a sig of six or twelve cannot leave the start.
            BLOCKED
        } else if next == CAIRO && (great || cairo_always_three) {
            6
        } else {
            2
        };
        pos += 1;
    }
    row
}

const fn cost_rows(cairo_always_three: bool) -> [[CostRow; 2]; 4] {
    let kinds = [
        Kind::Plain,
        Kind::RegularSig,
        Kind::GreatSig,
        Kind::Leftover,
    ];
    let mut out = [[[0; TRACK_LEN]; 2]; 4];
    let mut k = 0;
    while k < 4 {
        out[k][0] = cost_row(cairo_always_three, kinds[k], false);
        out[k][1] = cost_row(cairo_always_three, kinds[k], true);
        k += 1;
    }
    out
}

/// Step costs by `[cairo_always_three][kind][is djinn][idx]`.
static COSTS: [[[CostRow; 2]; 4]; 2] = [cost_rows(false), cost_rows(true)];

/// Budgets below this (in half-points) are walked with [`WALKS`]; every budget the rules
/// can give is (at most 60), larger ones are walked step by step.
const WALK_BUDGETS: usize = 64;

/// Where a walk of `budget` half-points along `row` from `from` stops: the last square
/// whose steps it can pay one after another, and the budget left.
const fn walk_along(row: &CostRow, from: usize, budget: u8) -> (u8, u8) {
    let mut pos = from;
    let mut rest = budget;
    while pos < MECCA as usize {
        let c = row[pos];
        if c > rest {
            break;
        }
        rest -= c;
        pos += 1;
    }
    (pos as u8, rest)
}

/// `WALKS[cairo_always_three][kind][is djinn][from][budget]`: the square a walk stops on
/// ([`walk_along`] of [`COSTS`] precomputed, so a walk is one lookup rather than a loop
/// over its steps); the budget left is the budget less the costs of the steps
/// ([`COST_SUMS`]).
static WALKS: [[[[[u8; WALK_BUDGETS]; TRACK_LEN]; 2]; 4]; 2] = {
    let mut t = [[[[[0u8; WALK_BUDGETS]; TRACK_LEN]; 2]; 4]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 4 {
            let mut d = 0;
            while d < 2 {
                let row = &COSTS[c][k][d];
                let mut from = 0;
                while from < TRACK_LEN {
                    let mut b = 0;
                    while b < WALK_BUDGETS {
                        t[c][k][d][from][b] = walk_along(row, from, b as u8).0;
                        b += 1;
                    }
                    from += 1;
                }
                d += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// `COST_SUMS[cairo_always_three][kind][is djinn][i]`: the sum of the step costs from the
/// start to idx `i` (blocked steps counted as [`BLOCKED`]; a walk never crosses one).
static COST_SUMS: [[[[u16; TRACK_LEN]; 2]; 4]; 2] = {
    let mut t = [[[[0u16; TRACK_LEN]; 2]; 4]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 4 {
            let mut d = 0;
            while d < 2 {
                let mut i = 1;
                while i < TRACK_LEN {
                    t[c][k][d][i] = t[c][k][d][i - 1] + COSTS[c][k][d][i - 1] as u16;
                    i += 1;
                }
                d += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// A seat's *key* in the fast loop of [`Playouts::play_throws`]: the square of its active
/// piece, plus [`DJINN_KEY`] while that piece is the djinn (her steps cost less). Keys are
/// below 64, so a key and a throw's polished sides index [`FIRST_KEYS`] and
/// [`SIG_BONUS_KEYS`] directly.
const DJINN_KEY: u8 = 32;
/// The square bits of a key.
const SQUARE_BITS: u8 = 31;
/// Flag of a [`FIRST_KEYS`] entry: the throw is a regular sig; its bonus throw follows.
const SIG_KEY: u8 = 64;
/// An entry of [`FIRST_KEYS`]: the throw is left to the general path.
const GENERAL: u8 = u8::MAX;

/// The key of the active piece on square `to`, the djinn's if `djinn`.
const fn key_of(djinn: bool, to: u8) -> u8 {
    if djinn {
        DJINN_KEY | to
    } else {
        to
    }
}

/// An entry of [`FIRST_KEYS`]: a sig of six (its bonus throw follows, then a walk of
/// [`GREAT_SIG_KEYS`]).
const SIX_KEY: u8 = 128;
/// An entry of [`FIRST_KEYS`]: a sig of twelve (its bonus throws follow, then a walk of
/// [`GREAT_SIG_KEYS`]).
const TWELVE_KEY: u8 = 129;

/// `FIRST_KEYS[cairo_always_three][key][k]`: the seat's key after a first throw of `k`
/// polished sides ([`walk_along`] of [`COSTS`] precomputed): for a plain budget (`k` = 2,
/// 3, 4) the key after the walk (the same key when the piece cannot move), for a regular
/// sig (`k` = 1, 5) the key after its point plus [`SIG_KEY`]; [`SIX_KEY`] and
/// [`TWELVE_KEY`] for the great sigs; [`GENERAL`] for a regular sig onto Mecca, a count
/// above 6 and from Mecca. Rows past key 63 (no key) are [`GENERAL`]; they are there so
/// that any `u8` indexes the table.
static FIRST_KEYS: [[[u8; 8]; 256]; 2] = {
    let mut t = [[[GENERAL; 8]; 256]; 2];
    let mut c = 0;
    while c < 2 {
        let mut key = 0;
        while key < 64 {
            let djinn = key as u8 & DJINN_KEY != 0;
            let from = (key as u8 & SQUARE_BITS) as usize;
            let mut k = 0;
            while k <= 6 && from < MECCA as usize {
                t[c][key][k] = match k {
                    0 => TWELVE_KEY,
                    6 => SIX_KEY,
                    _ => {
                        let (kind, budget) = if is_regular_sig(k as u8) {
                            (Kind::RegularSig, 2)
                        } else {
                            (Kind::Plain, 2 * k as u8)
                        };
                        let row = &COSTS[c][kind as usize][djinn as usize];
                        let to = walk_along(row, from, budget).0;
                        let sig = if matches!(kind, Kind::RegularSig) {
                            SIG_KEY
                        } else {
                            0
                        };
                        if to == MECCA {
                            GENERAL
                        } else {
                            key_of(djinn, to) | sig
                        }
                    }
                };
                k += 1;
            }
            key += 1;
        }
        c += 1;
    }
    t
};

/// `GREAT_SIG_KEYS[cairo_always_three][key][points]`: the seat's key after a sig of six or
/// twelve's pooled budget of `points` (at most 30) is walked ([`walk_along`] of
/// [`COSTS`]); [`GENERAL`] where the walk reaches Mecca (the arrival is the general
/// path's) and from Mecca.
static GREAT_SIG_KEYS: [[[u8; 32]; 64]; 2] = {
    let mut t = [[[GENERAL; 32]; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut key = 0;
        while key < 64 {
            let djinn = key as u8 & DJINN_KEY != 0;
            let from = (key as u8 & SQUARE_BITS) as usize;
            let mut points = 0;
            while points < 32 && from < MECCA as usize {
                let row = &COSTS[c][Kind::GreatSig as usize][djinn as usize];
                let to = walk_along(row, from, 2 * points as u8).0;
                if to != MECCA {
                    t[c][key][points] = key_of(djinn, to);
                }
                points += 1;
            }
            key += 1;
        }
        c += 1;
    }
    t
};

/// `SIG_BONUS_KEYS[cairo_always_three][key][k]`: the seat's key after the regular sig's
/// bonus throw of `k` polished sides (a plain budget of its [`bonus_value`]; 7 read as 6).
/// A plain budget never reaches Mecca. Rows past key 63 (no key) are 0; they are there so
/// that any `u8` indexes the table.
static SIG_BONUS_KEYS: [[[u8; 8]; 256]; 2] = {
    let mut t = [[[0u8; 8]; 256]; 2];
    let mut c = 0;
    while c < 2 {
        let mut key = 0;
        while key < 64 {
            let djinn = key as u8 & DJINN_KEY != 0;
            let from = (key as u8 & SQUARE_BITS) as usize;
            let mut k = 0;
            while k < 8 {
                let budget = 2 * bonus_value(if k > 6 { 6 } else { k as u8 });
                let row = &COSTS[c][Kind::Plain as usize][djinn as usize];
                let to = if from < TRACK_LEN {
                    walk_along(row, from, budget).0
                } else {
                    from as u8
                };
                t[c][key][k] = key_of(djinn, to);
                k += 1;
            }
            key += 1;
        }
        c += 1;
    }
    t
};

/// Sends home every piece whose key in `keys` (those of the first `n` seats) is on a square
/// strictly between `from` and `to`: [`SigElOued::capture`] on the keys of the fast loop of
/// [`Playouts::play_throws`], where only the active pieces can be captured (the others are on
/// the start or on Mecca).
#[inline(always)]
fn capture_keys(keys: &mut [u8; MAX_SEATS], n: usize, from: u8, to: u8) {
    for key in keys.iter_mut().take(n) {
        let square = *key & SQUARE_BITS;
        if square > from && square < to {
            *key &= DJINN_KEY;
        }
    }
}

/// How a walk ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    /// The piece moved (or could not); nothing else follows from the walk.
    Done,
    /// The mother reached Mecca: the seat has finished.
    Finished,
    /// The piece reached Mecca with a rest: the leftover choice is now pending.
    Choice,
}

/// The largest rest a walk can leave at Mecca, in half-points: a budget of at most 30
/// points (12 + 6 + 6 + 6) less the 1 point of the step onto Mecca.
const MAX_REST: u8 = 58;

impl SigElOued {
    /// Walks `seat`'s active piece with `budget` half-points of `kind`, makes its captures,
    /// and handles its arrival at Mecca (finishing, or offering the rest).
    #[inline(always)]
    fn walk(&self, s: &mut State, seat: usize, budget: u8, kind: Kind) -> Walk {
        let pcs = s.pieces[seat];
        let piece = if pcs[FATHER] != MECCA {
            FATHER
        } else if pcs[DJINN] != MECCA {
            DJINN
        } else if pcs[MOTHER] != MECCA {
            MOTHER
        } else {
            return Walk::Done;
        };
        let (c, k, d) = (
            self.cairo_always_three as usize,
            kind as usize,
            (piece == DJINN) as usize,
        );
        let from = pcs[piece];
        let (to, rest) = if (budget as usize) < WALK_BUDGETS && (from as usize) < TRACK_LEN {
            let to = WALKS[c][k][d][from as usize][budget as usize];
            let sums = &COST_SUMS[c][k][d];
            let spent = sums[to as usize] - sums[from as usize];
            (to, budget - spent as u8)
        } else {
            walk_along(&COSTS[c][k][d], from as usize, budget)
        };
        if to == from {
            return Walk::Done;
        }
        s.pieces[seat][piece] = to;
        if to > from + 1 {
            self.capture(s, seat, from, to);
        }
        if to == MECCA {
            if piece == MOTHER {
                s.finished += 1;
                s.finish_place[seat] = s.finished;
                return Walk::Finished;
            }
            if rest >= 2 {
                s.pending = Pending::Leftover { rest };
                return Walk::Choice;
            }
        }
        Walk::Done
    }

    /// Sends home every opponent piece strictly between `from` and `to`.
    #[inline]
    fn capture(&self, s: &mut State, seat: usize, from: u8, to: u8) {
        let n = self.seats as usize;
        for (other, pcs) in s.pieces[..n].iter_mut().enumerate() {
            if other == seat {
                continue;
            }
            for p in pcs.iter_mut() {
                if *p > from && *p < to {
                    *p = START;
                }
            }
        }
    }

    /// Ends the turn: the next seat still racing owes its first throw.
    #[inline]
    fn end_turn(&self, s: &mut State) {
        s.pending = Pending::FirstThrow;
        let n = self.seats;
        let mut t = s.turn;
        for _ in 0..n {
            t = if t + 1 >= n { 0 } else { t + 1 };
            if s.finish_place[t as usize] == 0 {
                break;
            }
        }
        s.turn = t;
    }

    /// Moves a sig of six or twelve's pooled budget of `points`, then ends the turn unless
    /// a leftover choice is pending.
    #[inline]
    fn great_sig(&self, s: &mut State, seat: usize, points: u8) {
        if self.walk(s, seat, points.saturating_mul(2), Kind::GreatSig) != Walk::Choice {
            self.end_turn(s);
        }
    }

    fn game_over(&self, s: &State) -> bool {
        !matches!(s.pending, Pending::Leftover { .. })
            && (s.finished as usize + 1 >= self.seats as usize || s.throws >= self.max_throws)
    }
}

/// Half-points written for people: `5` → `2½`, `1` → `½`, `4` → `2`.
pub(crate) fn half_points(h: u8) -> String {
    match (h / 2, h % 2) {
        (0, 1) => "½".to_string(),
        (p, 0) => p.to_string(),
        (p, _) => format!("{p}½"),
    }
}

pub(crate) fn points_word(h: u8) -> &'static str {
    if h == 2 {
        "point"
    } else {
        "points"
    }
}

fn polished(k: u8) -> String {
    match k {
        0 => "no polished side up (six rough)".to_string(),
        1 => "1 polished side up (five rough)".to_string(),
        _ => format!("{k} polished sides up"),
    }
}

impl Game for SigElOued {
    type State = State;
    type Action = Action;
    const NAME: &'static str = "sig-el-oued";
    const TITLE: &'static str = "Sig (El Oued)";
    const MAX_ACTIONS: usize = 2;
    const SEATS: (usize, usize) = (2, 8);

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        check_seats::<Self>(seats)?;
        Ok(SigElOued {
            seats: seats as u8,
            max_throws: DEFAULT_MAX_THROWS,
            cairo_always_three: false,
        })
    }

    crate::rule_options! {
        max_throws: max_throws() => crate::config::MAX_THROWS_HELP,
        cairo_always_three: flag(false) =>
            "entering Cairo costs 3 points from every budget, so a regular sig never \
                enters it",
    }

    fn seats(&self) -> usize {
        self.seats as usize
    }

    fn initial_state(&self) -> State {
        State::default()
    }

    #[inline]
    fn node(&self, s: &State) -> Node {
        if let Pending::Leftover { .. } = s.pending {
            Node::Decide(s.turn as usize)
        } else if s.finished as usize + 1 >= self.seats as usize || s.throws >= self.max_throws {
            Node::End
        } else {
            Node::Throw(s.turn as usize)
        }
    }

    #[inline]
    fn sticks(&self) -> Sticks {
        Sticks::SIX
    }

    #[inline]
    fn legal_actions(&self, s: &State, out: &mut ActionList<Action>) {
        out.clear();
        if let Pending::Leftover { .. } = s.pending {
            out.push(Action::Use);
            out.push(Action::Decline);
        }
    }

    #[inline]
    fn apply_throw_unchecked(&self, s: &mut State, throw: Throw) {
        let k = throw.marked().min(6);
        let seat = s.turn as usize;
        if seat >= MAX_SEATS {
            return;
        }
        match s.pending {
            Pending::FirstThrow => {
                s.throws = s.throws.saturating_add(1);
                match k {
                    1 | 5 => {
                        if self.walk(s, seat, 2, Kind::RegularSig) == Walk::Finished {
                            self.end_turn(s);
                        } else {
                            s.pending = Pending::SigBonus;
                        }
                    }
                    6 => s.pending = Pending::SixBonus,
                    0 => s.pending = Pending::TwelveBonus { left: 3, sum: 0 },
                    _ => {
                        self.walk(s, seat, 2 * k, Kind::Plain);
                        self.end_turn(s);
                    }
                }
            }
            Pending::SigBonus => {
                s.throws = s.throws.saturating_add(1);
                self.walk(s, seat, 2 * bonus_value(k), Kind::Plain);
                self.end_turn(s);
            }
            Pending::SixBonus => {
                s.throws = s.throws.saturating_add(1);
                self.great_sig(s, seat, 6 + bonus_value(k));
            }
            Pending::TwelveBonus { left, sum } => {
                s.throws = s.throws.saturating_add(1);
                if is_regular_sig(k) {
                    self.great_sig(s, seat, 13);
                } else if left <= 1 {
                    self.great_sig(s, seat, 12u8.saturating_add(sum).saturating_add(k));
                } else {
                    s.pending = Pending::TwelveBonus {
                        left: left - 1,
                        sum: sum.saturating_add(k),
                    };
                }
            }
            // Not a throw node: nothing to apply.
            Pending::Leftover { .. } => {}
        }
    }

    fn apply_action_unchecked(&self, s: &mut State, action: Action) {
        let Pending::Leftover { rest } = s.pending else {
            return;
        };
        let seat = s.turn as usize;
        if seat >= MAX_SEATS {
            return;
        }
        s.pending = Pending::FirstThrow;
        if action == Action::Decline || self.walk(s, seat, rest, Kind::Leftover) != Walk::Choice {
            self.end_turn(s);
        }
    }

    fn ranking(&self, s: &State) -> Option<Ranking> {
        if !self.game_over(s) {
            return None;
        }
        let n = self.seats as usize;
        let mut keys = [0u32; MAX_SEATS];
        for (key, &place) in keys[..n].iter_mut().zip(&s.finish_place) {
            *key = if place == 0 {
                s.finished as u32
            } else {
                place as u32 - 1
            };
        }
        Some(Ranking::from_keys(&keys[..n]))
    }

    fn throws_made(&self, s: &State) -> u32 {
        s.throws
    }

    fn parse_action(&self, text: &str) -> Result<Action, NotationError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "use" => Ok(Action::Use),
            "decline" => Ok(Action::Decline),
            _ => Err(NotationError {
                text: text.to_string(),
                expected: "`use` (walk the next piece with the rest left at Mecca) or `decline`",
            }),
        }
    }

    fn validate(&self, s: &State) -> Result<(), InvalidState> {
        let mut problems = Problems::new();
        s.rule_problems(self.seats as usize, Some(self.max_throws), &mut problems);
        problems.finish()
    }
}

impl Present for SigElOued {
    fn render(&self, s: &State) -> String {
        let n = self.seats as usize;
        // Each square's cell: its label, then its pieces, three seats to a line.
        let mut cells: [[Vec<String>; 5]; 11] = Default::default();
        for idx in 0..=MECCA {
            let (r, c) = square_cell(idx).unwrap_or((0, 0));
            let star = if is_sig_square(idx) { "*" } else { "" };
            let mut lines = vec![match square_name(idx) {
                Some(name) => format!("{idx}{star} {name}"),
                None => format!("{idx}{star}"),
            }];
            let groups: Vec<String> = (0..n)
                .filter_map(|seat| {
                    let here: String = (0..PIECES)
                        .filter(|&i| s.pieces[seat][i] == idx)
                        .map(|i| PIECE_LETTERS[i])
                        .collect();
                    (!here.is_empty()).then(|| format!("{}{here}", seat + 1))
                })
                .collect();
            lines.extend(groups.chunks(3).map(|g| g.join(" ")));
            cells[r as usize][c as usize] = lines;
        }
        let present = |r: usize, c: usize| r <= 4 || (r <= 10 && c == 4);
        let width = cells
            .iter()
            .flatten()
            .flatten()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        // The border line between row `r` and row `r - 1` (rows outside 0..=10 are empty).
        let border = |out: &mut String, r: usize| {
            let on = |c: usize| present(r, c) || (r >= 1 && present(r - 1, c));
            for c in 0..5 {
                let corner = on(c) || (c > 0 && on(c - 1));
                out.push(if corner { '+' } else { ' ' });
                let fill = if on(c) { '-' } else { ' ' };
                out.extend(core::iter::repeat_n(fill, width + 2));
            }
            out.push(if on(4) { '+' } else { ' ' });
            while out.ends_with(' ') {
                out.pop();
            }
            out.push('\n');
        };
        let mut out = String::new();
        for r in (0..11).rev() {
            border(&mut out, r + 1);
            let height = (0..5)
                .filter(|&c| present(r, c))
                .map(|c| cells[r][c].len())
                .max()
                .unwrap_or(1)
                .max(2);
            for l in 0..height {
                for (c, cell) in cells[r].iter().enumerate() {
                    let bar = present(r, c) || (c > 0 && present(r, c - 1));
                    out.push(if bar { '|' } else { ' ' });
                    let text = match cell.get(l) {
                        Some(t) if present(r, c) => t.as_str(),
                        _ => "",
                    };
                    let _ = write!(out, " {text:<width$} ");
                }
                out.push('|');
                out.push('\n');
            }
        }
        border(&mut out, 0);
        out.push_str(
            "* sig square: a step into or out of it needs a sig. Pieces: seat number, then F father, D djinn, M mother.\n",
        );

        // Each seat's progress.
        for seat in 0..n {
            let pcs = s.pieces[seat];
            let _ = write!(out, "P{}: ", seat + 1);
            if s.finish_place[seat] != 0 {
                let _ = writeln!(out, "finished {}", ordinal(s.finish_place[seat]));
                continue;
            }
            let parts: Vec<String> = (0..PIECES)
                .map(|i| {
                    let at = match pcs[i] {
                        MECCA => "on Mecca".to_string(),
                        START => "on the start".to_string(),
                        x => match square_name(x) {
                            Some(name) => format!("on {name} (idx {x})"),
                            None => format!("on idx {x}"),
                        },
                    };
                    format!("{} {at}", PIECE_NAMES[i])
                })
                .collect();
            let _ = writeln!(out, "{}", parts.join(", "));
        }

        // Whose turn, and what is pending.
        let p = s.turn as usize + 1;
        let _ = write!(
            out,
            "Throws made: {} of at most {}. ",
            s.throws, self.max_throws
        );
        if self.game_over(s) {
            let r = self.ranking(s).map(|r| r.to_string()).unwrap_or_default();
            if s.throws >= self.max_throws && (s.finished as usize + 1) < n {
                let _ = writeln!(out, "Game over at the throw cap: {r}");
            } else {
                let _ = writeln!(out, "Game over: {r}");
            }
            return out;
        }
        let _ = match s.pending {
            Pending::FirstThrow => writeln!(out, "P{p} to throw: the first throw of the turn."),
            Pending::SigBonus => writeln!(
                out,
                "P{p} to make the regular sig's bonus throw (a plain budget)."
            ),
            Pending::SixBonus => writeln!(
                out,
                "P{p} to make the sig of six's bonus throw (then a sig budget of 6 + its value)."
            ),
            Pending::TwelveBonus { left, sum } => writeln!(
                out,
                "P{p} to make the sig of twelve's bonus throw {} of 3 (12 + {sum} so far; a regular sig makes the budget 13).",
                4 - left
            ),
            Pending::Leftover { rest } => {
                let next = s
                    .active_piece(s.turn as usize)
                    .map_or("next piece", |i| PIECE_NAMES[i]);
                writeln!(
                    out,
                    "P{p} decides: `use` the {} {} left at Mecca to walk the {next}, or `decline`.",
                    half_points(rest),
                    points_word(rest)
                )
            }
        };
        out
    }

    fn describe_throw(&self, s: &State, throw: Throw) -> String {
        let k = throw.marked();
        if k > 6 {
            return format!("{k} marked sides up is impossible with 6 sticks");
        }
        let up = polished(k);
        let v = bonus_value(k);
        let worth = if is_regular_sig(k) {
            "a regular sig, worth 1".to_string()
        } else {
            format!("worth {v}")
        };
        match s.pending {
            Pending::FirstThrow => match k {
                2..=4 => format!("{up}: a plain budget of {k} points; the turn ends"),
                1 | 5 => format!("{up}: a regular sig, 1 point with a sig, then a bonus throw"),
                6 => format!(
                    "{up}: a sig of six, one bonus throw, then a sig budget of 6 + its value"
                ),
                _ => format!(
                    "{up}: a sig of twelve, three bonus throws, then a sig budget of 12 + their values (13 if one is a regular sig)"
                ),
            },
            Pending::SigBonus => format!(
                "regular sig's bonus throw, {up}: {worth}, a plain budget of {v} {}; the turn ends",
                points_word(2 * v)
            ),
            Pending::SixBonus => format!(
                "sig of six's bonus throw, {up}: {worth}, a sig budget of {} points",
                6 + v
            ),
            Pending::TwelveBonus { left, sum } => {
                let nth = 4 - left.min(3);
                if is_regular_sig(k) {
                    format!("sig of twelve's bonus throw {nth} of 3, {up}: a regular sig, a sig budget of 13 points")
                } else if left <= 1 {
                    format!(
                        "sig of twelve's bonus throw 3 of 3, {up}: {worth}, a sig budget of {} points",
                        12 + sum as u32 + k as u32
                    )
                } else {
                    format!(
                        "sig of twelve's bonus throw {nth} of 3, {up}: {worth} (12 + {} so far)",
                        sum as u32 + k as u32
                    )
                }
            }
            Pending::Leftover { .. } => format!(
                "{up}: no throw is due; P{} must choose `use` or `decline`",
                s.turn as usize + 1
            ),
        }
    }
}

/// Each seat's key (its active piece's square, and whether that piece is the djinn), its
/// active piece and the seat after it, for [`SigElOued::play_throws`]'s loop of first
/// throws; `None` when a piece is off the track or one that should wait is not on the
/// start (the general path then plays the throw).
#[inline(always)]
fn turn_keys(s: &State, n: usize) -> Option<([u8; MAX_SEATS], [u8; MAX_SEATS], [u8; MAX_SEATS])> {
    // Until the loop leaves a walk to the general path no piece reaches Mecca and no seat
    // finishes, so the active pieces and the seats after them are fixed. A finished seat
    // keeps Mecca's key (never captured, never to throw).
    let mut keys = [MECCA; MAX_SEATS];
    let mut active = [PIECES as u8; MAX_SEATS];
    let mut next = [0u8; MAX_SEATS];
    let mut on_track = true;
    let seats = keys.iter_mut().zip(&mut active).zip(&mut next);
    for (i, ((key, a), nx)) in seats.enumerate().take(n) {
        if let Some(p) = s.active_piece(i) {
            let square = s.pieces[i][p];
            // The keys hold only the active pieces: the rest must wait on the
            // start (as `validate` asks), or the general path plays the throw.
            let [_, djinn, mother] = s.pieces[i];
            let waiting = match p {
                FATHER => (djinn | mother) == START,
                DJINN => mother == START,
                _ => true,
            };
            on_track &= square <= MECCA && waiting;
            *key = key_of(p == DJINN, square & SQUARE_BITS);
            *a = p as u8;
        }
        let mut t = i;
        for _ in 0..n {
            t = if t + 1 >= n { 0 } else { t + 1 };
            if s.finish_place[t] == 0 {
                break;
            }
        }
        *nx = t as u8;
    }
    on_track.then_some((keys, active, next))
}

/// Puts each seat's active piece back on its key's square.
#[inline(always)]
fn store_keys(s: &mut State, keys: &[u8; MAX_SEATS], active: &[u8; MAX_SEATS], n: usize) {
    for (i, (&key, &a)) in keys.iter().zip(active).enumerate().take(n) {
        if let Some(square) = s.pieces[i].get_mut(a as usize) {
            *square = key & SQUARE_BITS;
        }
    }
}

impl Playouts for SigElOued {
    /// The throws up to the next decision or the end. Turns are played in a loop of their
    /// own on each seat's *key* (its active piece's square, and whether that piece is the
    /// djinn), with the turn and the throws left before the cap in registers: a first
    /// throw is one lookup in a table of keys, and one that moves nothing (most of them: a
    /// plain budget cannot leave the start or step onto a sig square) costs nothing more
    /// than the next seat; a regular sig's bonus throw is one more lookup, a sig of six or
    /// twelve's walk one lookup after its bonus throws. A walk that reaches Mecca (an
    /// arrival, a finish or a leftover choice) is left to the general path
    /// ([`Game::apply_throw_unchecked`] and the walk it makes).
    #[inline]
    fn play_throws(&self, s: &mut State, mut throw: impl FnMut() -> Throw) -> Node {
        let n = self.seats as usize;
        let c = self.cairo_always_three as usize;
        let (first_keys, bonus_keys) = (&FIRST_KEYS[c], &SIG_BONUS_KEYS[c]);
        let great_keys = &GREAT_SIG_KEYS[c];
        loop {
            let node = self.node(s);
            if !matches!(node, Node::Throw(_)) {
                return node;
            }
            let mut seat = s.turn as usize;
            if s.pending != Pending::FirstThrow || seat >= n {
                let t = throw();
                self.apply_throw_unchecked(s, t);
                continue;
            }
            let Some((mut keys, active, next)) = turn_keys(s, n) else {
                let t = throw();
                self.apply_throw_unchecked(s, t);
                continue;
            };
            // The throws left before the cap: at least 1, since a throw is due.
            let mut left = self.max_throws - s.throws;
            // What the general path is left with: a first throw, or a great sig's budget
            // that reaches Mecca.
            let mut general = None;
            let mut arrival = None;
            'throws: loop {
                let t = throw();
                let key = keys[seat & (MAX_SEATS - 1)];
                let k = t.marked();
                if k > 6 {
                    // Not a throw of six sticks: the general path reads it as 6.
                    general = Some(t);
                    break;
                }
                let e = first_keys[key as usize][k as usize];
                if e != key {
                    if e < SIX_KEY {
                        // A plain budget that moves, or a regular sig.
                        let to_key = e & !SIG_KEY;
                        keys[seat & (MAX_SEATS - 1)] = to_key;
                        let (from, to) = (key & SQUARE_BITS, to_key & SQUARE_BITS);
                        if to > from + 1 {
                            capture_keys(&mut keys, n, from, to);
                        }
                        if e & SIG_KEY != 0 {
                            // The regular sig's bonus throw, a plain budget, for the same
                            // piece (not on Mecca).
                            if left == 1 {
                                left = 0;
                                s.pending = Pending::SigBonus;
                                break;
                            }
                            left -= 1;
                            let k = throw().marked().min(6);
                            let bonus_key = bonus_keys[to_key as usize][k as usize];
                            keys[seat & (MAX_SEATS - 1)] = bonus_key;
                            let stop = bonus_key & SQUARE_BITS;
                            if stop > to + 1 {
                                capture_keys(&mut keys, n, to, stop);
                            }
                        }
                    } else if e == GENERAL {
                        general = Some(t);
                        break;
                    } else {
                        // A sig of six or twelve: its bonus throws (the throw cap may cut
                        // them off: then nothing moves), then one walk.
                        let points = if e == SIX_KEY {
                            if left == 1 {
                                left = 0;
                                s.pending = Pending::SixBonus;
                                break;
                            }
                            left -= 1;
                            6 + bonus_value(throw().marked().min(6))
                        } else {
                            let mut sum = 0;
                            let mut made = 0;
                            loop {
                                if left == 1 {
                                    left = 0;
                                    s.pending = Pending::TwelveBonus {
                                        left: 3 - made,
                                        sum,
                                    };
                                    break 'throws;
                                }
                                left -= 1;
                                let k = throw().marked().min(6);
                                made += 1;
                                if is_regular_sig(k) {
                                    break 13;
                                }
                                sum += k;
                                if made == 3 {
                                    break 12 + sum;
                                }
                            }
                        };
                        let to_key = great_keys[(key & 63) as usize][(points & 31) as usize];
                        if to_key == GENERAL {
                            left -= 1;
                            arrival = Some(points);
                            break;
                        }
                        keys[seat & (MAX_SEATS - 1)] = to_key;
                        let (from, to) = (key & SQUARE_BITS, to_key & SQUARE_BITS);
                        if to > from + 1 {
                            capture_keys(&mut keys, n, from, to);
                        }
                    }
                }
                left -= 1;
                // The next seat still racing (as `end_turn`).
                seat = next[seat & (MAX_SEATS - 1)] as usize;
                if left == 0 {
                    break;
                }
            }
            // Back to the state: the keys, the turn and the throw count.
            store_keys(s, &keys, &active, n);
            s.turn = seat as u8;
            s.throws = self.max_throws - left;
            if let Some(t) = general {
                self.apply_throw_unchecked(s, t);
            } else if let Some(points) = arrival {
                self.great_sig(s, seat, points);
            }
        }
    }
}

// ---- The drawing ---------------------------------------------------------------------

use crate::board::{
    cell, track_arrows, Board, BoardGeometry, ChosenBy, PieceStatus, PlacedPiece, SquareInfo,
    StickFaces, Track,
};

impl Board for SigElOued {
    fn geometry(&self) -> BoardGeometry {
        let squares: Vec<SquareInfo> = (0..TRACK_LEN as u8)
            .map(|idx| {
                let (row, col) = square_cell(idx).unwrap_or((0, 0));
                cell(
                    col as f64,
                    (10 - row) as f64,
                    idx.to_string(),
                    square_name(idx),
                    is_sig_square(idx),
                )
            })
            .collect();
        let order: Vec<usize> = (0..squares.len()).collect();
        let arrows = track_arrows(&squares, &order);
        BoardGeometry {
            width: 5.0,
            height: 11.0,
            chosen_by: ChosenBy::Throws,
            tracks: vec![Track {
                seat: None,
                squares: order,
                loops_to: None,
            }],
            starts: vec![START as usize; self.seats()],
            arrows,
            squares,
            sticks: StickFaces {
                count: 6,
                marked: "polished",
                unmarked: "rough",
            },
            legend: "each seat has a father (F), a djinn (D) and a mother (M); the active \
                     piece is ringed; highlighted squares are sig squares (a step into or \
                     out of one needs a sig)",
        }
    }

    fn pieces(&self, s: &State) -> Vec<PlacedPiece> {
        const LETTERS: [&str; 3] = ["F", "D", "M"];
        let mut out = Vec::new();
        for seat in 0..self.seats() {
            let active = s.active_piece(seat);
            for (k, &idx) in s.pieces[seat].iter().enumerate() {
                // Pieces are stored by their order of play, not their kind: Mecca first,
                // then the active piece, then the start. The kind is the play order: the
                // father walks first, then the djinn, then the mother.
                let kind = k;
                let where_ = match square_name(idx) {
                    Some(name) if idx == START => format!("on the {name}"),
                    Some(name) => format!("on {name} (idx {idx})"),
                    None => format!("on idx {idx}"),
                };
                let is_active = active == Some(k) && s.finish_place[seat] == 0;
                out.push(PlacedPiece {
                    square: Some(idx as usize),
                    seat: Some(seat),
                    kind: PIECE_NAMES[kind],
                    letter: LETTERS[kind],
                    active: is_active,
                    status: if idx == MECCA {
                        PieceStatus::Arrived
                    } else {
                        PieceStatus::Plain
                    },
                    text: format!(
                        "P{}'s {} {where_}{}",
                        seat + 1,
                        PIECE_NAMES[kind],
                        if is_active { ", active" } else { "" }
                    ),
                });
            }
        }
        out
    }

    fn describe_action(&self, s: &State, action: Self::Action) -> String {
        let seat = s.turn as usize;
        // At the choice the arrived piece is on Mecca, so the active piece is the next.
        let next = s
            .active_piece(seat)
            .and_then(|k| PIECE_NAMES.get(k))
            .copied()
            .unwrap_or("next piece");
        // The rest left at Mecca, in half points, as the choice offers it.
        let rest = match s.pending {
            Pending::Leftover { rest } => format!("{} {}", half_points(rest), points_word(rest)),
            _ => "points".to_string(),
        };
        match action {
            Action::Use => {
                format!(
                    "P{} uses the {rest} left at Mecca to walk the {next} off the start",
                    seat + 1
                )
            }
            Action::Decline => {
                format!(
                    "P{} declines the {rest} left at Mecca (a declined rest is lost)",
                    seat + 1
                )
            }
        }
    }

    fn describe_change(&self, b: &State, a: &State) -> Vec<String> {
        let mut out = Vec::new();
        for seat in 0..self.seats() {
            for (k, name) in PIECE_NAMES.iter().enumerate() {
                let (i, j) = (b.pieces[seat][k], a.pieces[seat][k]);
                if j == START && i != START && i != MECCA {
                    out.push(format!(
                        "P{}'s {} is passed on idx {i} and sent back to the start",
                        seat + 1,
                        name
                    ));
                } else if j != i && j == MECCA {
                    out.push(format!("P{}'s {} reaches Mecca", seat + 1, name));
                } else if j > i {
                    out.push(format!(
                        "P{}'s {} walks from idx {i} to idx {j}",
                        seat + 1,
                        name
                    ));
                }
            }
            if b.finish_place[seat] == 0 && a.finish_place[seat] != 0 {
                out.push(format!(
                    "P{} has all three pieces on Mecca and finishes in place {}",
                    seat + 1,
                    a.finish_place[seat]
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's stop and the budget left from the cost sums are the step-by-step walk's,
    /// for every rule variant, kind, piece, square and tabulated budget.
    #[test]
    fn the_walk_table_stops_where_the_step_by_step_walk_stops() {
        for c in 0..2 {
            for k in 0..4 {
                for d in 0..2 {
                    let sums = &COST_SUMS[c][k][d];
                    for from in 0..TRACK_LEN {
                        for budget in 0..WALK_BUDGETS as u8 {
                            let to = WALKS[c][k][d][from][budget as usize];
                            let rest = budget - (sums[to as usize] - sums[from]) as u8;
                            assert_eq!(
                                (to, rest),
                                walk_along(&COSTS[c][k][d], from, budget),
                                "variant {c}, kind {k}, djinn {d}, from {from}, budget {budget}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// A two-seat position in which P1's active piece, the one of `key`, stands on the key's
    /// square (the father, or the djinn behind the father on Mecca) with `pending` due,
    /// and P2's pieces wait on the start (where nothing captures them).
    fn position_of_key(key: u8, pending: Pending) -> State {
        let mut s = State::default();
        let square = key & SQUARE_BITS;
        if key & DJINN_KEY != 0 {
            s.pieces[0] = [MECCA, square, START];
        } else {
            s.pieces[0] = [square, START, START];
        }
        s.pending = pending;
        s.throws = 1;
        s
    }

    /// The key of P1's active piece in `s`, if it has one not on Mecca.
    fn key_in(s: &State) -> Option<u8> {
        let p = s.active_piece(0)?;
        Some(key_of(p == DJINN, s.pieces[0][p]))
    }

    /// Every entry of the fast loop's tables is what the rules' own path does: a first
    /// throw, the regular sig's bonus throw and a sig of six or twelve's pooled budget
    /// applied to a position with that key by `apply_throw_unchecked` / `great_sig`, for
    /// both rule variants, every key and every throw or budget.
    #[test]
    fn the_key_tables_are_the_rules_throw_by_throw() {
        for cairo in [false, true] {
            let mut game = SigElOued::with_seats(2).unwrap();
            game.cairo_always_three = cairo;
            let c = cairo as usize;
            for key in (0..MECCA).chain(DJINN_KEY..DJINN_KEY + MECCA) {
                for k in 0..=7u8 {
                    let mut s = position_of_key(key, Pending::FirstThrow);
                    game.apply_throw_unchecked(&mut s, Throw::new(k));
                    let e = FIRST_KEYS[c][key as usize][k as usize];
                    let at = format!("cairo {cairo}, key {key}, throw {k}");
                    match e {
                        GENERAL => assert!(
                            k == 7
                                || s.pieces[0].contains(&MECCA) && key & DJINN_KEY == 0
                                || s.pieces[0][DJINN] == MECCA,
                            "{at}: left to the general path, which reaches Mecca"
                        ),
                        SIX_KEY => assert_eq!(s.pending, Pending::SixBonus, "{at}"),
                        TWELVE_KEY => {
                            assert_eq!(s.pending, Pending::TwelveBonus { left: 3, sum: 0 }, "{at}")
                        }
                        _ => {
                            let want = if e & SIG_KEY != 0 {
                                Pending::SigBonus
                            } else {
                                Pending::FirstThrow
                            };
                            assert_eq!(s.pending, want, "{at}");
                            assert_eq!(key_in(&s), Some(e & !SIG_KEY), "{at}");
                        }
                    }
                    if k <= 6 {
                        let mut s = position_of_key(key, Pending::SigBonus);
                        game.apply_throw_unchecked(&mut s, Throw::new(k));
                        let e = SIG_BONUS_KEYS[c][key as usize][k as usize];
                        assert_eq!(key_in(&s), Some(e), "{at}, the sig's bonus throw");
                    }
                }
                for points in 0..=30 {
                    let mut s = position_of_key(key, Pending::FirstThrow);
                    game.great_sig(&mut s, 0, points);
                    let e = GREAT_SIG_KEYS[c][key as usize][points as usize];
                    let arrived =
                        s.pieces[0][if key & DJINN_KEY != 0 { DJINN } else { FATHER }] == MECCA;
                    if e == GENERAL {
                        assert!(arrived, "cairo {cairo}, key {key}, {points} points");
                    } else {
                        assert_eq!(
                            key_in(&s),
                            Some(e),
                            "cairo {cairo}, key {key}, {points} points"
                        );
                    }
                }
            }
        }
    }

    /// A random position `validate` accepts, with its game: 2 to 8 seats, either rule
    /// variant, a throw cap that may be near; each seat's pieces a prefix on Mecca and the
    /// active one anywhere on the track, some seats finished in a random order, and any
    /// pending throw or the leftover choice.
    fn arbitrary_position() -> impl proptest::strategy::Strategy<Value = (SigElOued, State)> {
        use proptest::prelude::*;
        (
            (
                2usize..=MAX_SEATS,
                any::<bool>(),
                prop_oneof![Just(DEFAULT_MAX_THROWS), 1u32..300],
            ),
            proptest::array::uniform8((0usize..=PIECES, START..MECCA, any::<u8>())),
            (any::<usize>(), 0u8..12, any::<u32>(), any::<usize>()),
        )
            .prop_map(|((n, cairo, cap), seats, (turn, pending, throws, pick))| {
                let mut game = SigElOued::with_seats(n).unwrap();
                game.cairo_always_three = cairo;
                game.max_throws = cap;
                let mut s = State::default();
                // At most n - 2 seats finished, so that the game is still on.
                let mut finishing = Vec::new();
                for (i, &(on_mecca, square, order)) in seats.iter().enumerate().take(n) {
                    let on_mecca = if on_mecca == PIECES && finishing.len() + 3 > n {
                        PIECES - 1
                    } else {
                        on_mecca
                    };
                    for p in 0..on_mecca {
                        s.pieces[i][p] = MECCA;
                    }
                    if on_mecca < PIECES {
                        s.pieces[i][on_mecca] = square;
                    } else {
                        finishing.push((order, i));
                    }
                }
                finishing.sort_unstable();
                for (place, &(_, i)) in finishing.iter().enumerate() {
                    s.finish_place[i] = place as u8 + 1;
                }
                s.finished = finishing.len() as u8;
                let racing: Vec<usize> = (0..n).filter(|&i| s.finish_place[i] == 0).collect();
                let seat = racing[turn % racing.len()];
                s.turn = seat as u8;
                s.throws = throws % (cap + 1);
                let one = [0, 2, 3, 4, 6];
                s.pending = match pending {
                    0..=6 => Pending::FirstThrow,
                    7 => Pending::SigBonus,
                    8 => Pending::SixBonus,
                    9 => match pick % 3 {
                        0 => Pending::TwelveBonus { left: 3, sum: 0 },
                        1 => Pending::TwelveBonus {
                            left: 2,
                            sum: one[pick / 3 % 5],
                        },
                        _ => Pending::TwelveBonus {
                            left: 1,
                            sum: one[pick / 3 % 5] + one[pick / 15 % 5],
                        },
                    },
                    10 if s.pieces[seat][FATHER] == MECCA => {
                        let p = s.active_piece(seat).unwrap();
                        s.pieces[seat][p] = START;
                        Pending::Leftover {
                            rest: 2 + (pick % (MAX_REST as usize - 1)) as u8,
                        }
                    }
                    _ => Pending::FirstThrow,
                };
                if s.pending != Pending::FirstThrow {
                    s.throws = s.throws.max(1);
                }
                (game, s)
            })
    }

    /// Plays `state`'s throws one at a time through `node` and `apply_throw_unchecked` (the
    /// rules' own path, which `play_throws` must match) up to a decision or the end.
    fn throw_by_throw(game: &SigElOued, state: &mut State, rng: &mut crate::Rng) -> Node {
        loop {
            match game.node(state) {
                Node::Throw(_) => {
                    let t = game.sample_throw(rng);
                    game.apply_throw_unchecked(state, t);
                }
                other => break other,
            }
        }
    }

    /// `play_throws` against the throw-by-throw loop from positions `validate` rejects (a
    /// piece behind the active one off the start, a piece past Mecca, the turn on a
    /// finished seat or past the seats, a finished seat with pieces off Mecca): the same
    /// games, and no panic.
    #[test]
    fn play_throws_plays_rejected_positions_as_the_rules_do() {
        use rand::SeedableRng as _;
        let game = SigElOued::with_seats(3).unwrap();
        let mut positions = Vec::new();
        let mut s = State::default();
        s.pieces[0] = [5, 7, 0];
        s.pieces[1] = [9, 0, 3];
        positions.push(s);
        let mut s = State::default();
        s.pieces[1] = [MECCA, 40, 0];
        positions.push(s);
        let mut s = State::default();
        s.pieces[0] = [MECCA; PIECES];
        s.finish_place[0] = 1;
        s.finished = 1;
        s.pieces[2] = [3, 0, 0];
        s.finish_place[2] = 2;
        positions.push(s);
        positions.push(State {
            turn: 7,
            ..State::default()
        });
        for start in positions {
            assert!(game.validate(&start).is_err());
            for seed in 0..50 {
                let (mut fast, mut plain) = (start, start);
                let mut a = crate::Rng::seed_from_u64(seed);
                let mut b = a.clone();
                let node = game.play_throws(&mut fast, || game.sample_throw(&mut a));
                let want = throw_by_throw(&game, &mut plain, &mut b);
                assert_eq!((node, fast), (want, plain), "from {start:?}, seed {seed}");
                assert_eq!(a, b);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// `play_throws` (its fast loop on the keys and the general path) against the
        /// throw-by-throw loop over `node` and `apply_throw_unchecked`, from random
        /// positions to the end of the game (random decisions at the leftover choices).
        #[test]
        fn play_throws_plays_random_positions_as_the_rules_do(
            (game, start) in arbitrary_position(),
            seed in proptest::prelude::any::<u64>(),
        ) {
            use rand::{RngExt as _, SeedableRng as _};
            proptest::prop_assert_eq!(game.validate(&start), Ok(()));
            let mut rng = crate::Rng::seed_from_u64(seed);
            let mut state = start;
            loop {
                let (mut fast, mut plain) = (state, state);
                let (mut a, mut b) = (rng.clone(), rng.clone());
                let node = game.play_throws(&mut fast, || game.sample_throw(&mut a));
                let want = throw_by_throw(&game, &mut plain, &mut b);
                proptest::prop_assert_eq!((node, fast), (want, plain), "from {:?}", state);
                proptest::prop_assert_eq!(&a, &b, "the same number of throws");
                rng = a;
                state = fast;
                match node {
                    Node::Decide(_) => {
                        let a = [Action::Use, Action::Decline][rng.random_range(0..2)];
                        game.apply_action_unchecked(&mut state, a);
                    }
                    _ => break,
                }
            }
        }
    }

    /// A plain budget never walks onto Mecca (the tower's steps need a sig), which the
    /// fast loop of `play_throws` relies on for the regular sig's bonus throw.
    #[test]
    fn a_plain_budget_never_reaches_mecca() {
        for table in &SIG_BONUS_KEYS {
            for (key, tos) in table.iter().enumerate() {
                if key as u8 & SQUARE_BITS < MECCA {
                    assert!(tos.iter().all(|&to| to & SQUARE_BITS != MECCA), "key {key}");
                }
            }
        }
    }

    /// `play_throws` (its fast loop for plain budgets and regular sigs, and the general
    /// path) against the throw-by-throw loop over `node` and `apply_throw_unchecked`, from
    /// every position of many random games, with every seat count and option, and throw
    /// caps that cut games short, decisions included.
    #[test]
    fn play_throws_plays_exactly_the_throw_by_throw_loop() {
        use rand::{RngExt as _, SeedableRng as _};
        let mut rng = crate::Rng::seed_from_u64(15);
        let mut positions = 0;
        for seats in 2..=MAX_SEATS {
            for cairo in [false, true] {
                for cap in [DEFAULT_MAX_THROWS, 90, 5] {
                    let mut game = SigElOued::with_seats(seats).unwrap();
                    game.cairo_always_three = cairo;
                    game.max_throws = cap;
                    for _ in 0..15 {
                        let mut state = game.initial_state();
                        loop {
                            let (mut fast, mut plain) = (state, state);
                            let (mut a, mut b) = (rng.clone(), rng.clone());
                            let node = game.play_throws(&mut fast, || game.sample_throw(&mut a));
                            let want = throw_by_throw(&game, &mut plain, &mut b);
                            assert_eq!((node, fast), (want, plain), "{seats} seats, cap {cap}");
                            assert_eq!(a, b, "the same number of throws");
                            positions += 1;
                            match game.node(&state) {
                                Node::Throw(_) => {
                                    let t = game.sample_throw(&mut rng);
                                    game.apply_throw_unchecked(&mut state, t);
                                }
                                Node::Decide(_) => {
                                    let a = [Action::Use, Action::Decline][rng.random_range(0..2)];
                                    game.apply_action_unchecked(&mut state, a);
                                }
                                Node::End => break,
                            }
                        }
                    }
                }
            }
        }
        assert!(positions > 100_000, "{positions} positions");
    }
}
