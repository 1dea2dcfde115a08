//! Sig wa Duqqan (Houmt al-Arbah), Djerba, Tunisia: a race to the Ka'aba with one piece
//! per player, threatened by the Ghoula, a neutral piece (the rules: the book's
//! chapter `docs/games/sig-wa-duqqan.md`).
//!
//! # The rules as implemented
//!
//! * **Players:** 2 to 8, one piece each. Seat 0 throws first.
//! * **Track:** 20 squares, idx 0..=19: the start (idx 0, top-left of a 4x4 grid), a
//!   boustrophedon path down the grid, the *waiting square* (idx 14, the 15th space), idx 15
//!   (bottom-left corner of the grid), three extension squares (idx 16..=18) and the
//!   **Ka'aba** (idx 19), the goal, at the far end of the extension left of the bottom row.
//! * **Throws:** four sticks; the number of white sides up `w` gives the value
//!   (`w` = 0, 1, 2, 3, 4 → 6, 1 "sig", 0, 3, 4). A 6, a sig and a 4 grant an extra throw,
//!   whether or not the throw moved anything.
//! * **What a throw does**, by where the thrower's piece stands:
//!   1. on the start: a sig moves it to idx 1; anything else does nothing;
//!   2. on idx 1..=13: it moves forward by the value, stopping on idx 14 if it would pass
//!      it (rule option `exact_waiting_square`: such a move is not made at all);
//!   3. on idx 14: each sig adds one to its *sig count*; the 7th sig moves it to idx 15 and
//!      the count resets. The sig that brought it onto idx 14 does not count; the count is
//!      kept across turns and reset to 0 when the Ghoula drags the piece off idx 14;
//!   4. on idx 15..=18: a sig moves it forward 1 (from idx 18 onto the Ka'aba); a 3 moves
//!      the Ghoula 3 steps; 0, 4 and 6 do nothing;
//!   5. on the Ka'aba: the Ghoula moves by the value, a 0 counting as 2 (that throw still
//!      grants no extra throw).
//! * **The Ghoula** starts off the board, just before idx 0; its first step puts it on
//!   idx 0. It moves one step at a time. Before each step: if it stands on idx 1..=14 with
//!   one or more pieces, it steps back one square carrying all of them; otherwise it steps
//!   forward. It never goes past idx 14. Pieces on the start are never carried; pieces
//!   carried from idx 1 onto idx 0 are *buried* and their owners eliminated. Pieces on
//!   idx 15 and beyond are out of its reach. A carried piece is not held: it moves as usual
//!   on its owner's turn.
//! * **Turn order:** seats in order, skipping eliminated (buried) seats; an extra throw keeps
//!   the turn. A seat on the Ka'aba keeps taking turns while any piece races.
//! * **End and ranking:** the game ends when no piece races. Arrivals at the Ka'aba rank
//!   first, in arrival order; buried seats after them, a later burial above an earlier one,
//!   pieces buried by the same Ghoula step tied. At the throw cap (`max_throws`) the seats
//!   still racing tie between the two groups.
//! * **Decisions:** none. [`Action`] is uninhabited; the game is a pure chance process.
//!
//! # Readings chosen where the rules leave room
//!
//! * **Lost steps at idx 14.** When the Ghoula stands on idx 14 with no piece there, a
//!   forward step is lost; as nothing can change before its next step, the rest of its move
//!   is lost too.
//! * **Burial steps are numbered.** Each Ghoula step that buries pieces gets the next
//!   number (1, 2, …) over the whole game ([`Piece::Buried`]); a higher number ranks higher,
//!   equal numbers tie.
//! * **Arrival by a sig.** The sig that carries a piece onto the Ka'aba grants its extra
//!   throw as usual, and the seat (now on the Ka'aba) takes it to drive the Ghoula, unless no
//!   piece is still racing, when the game ends.
//! * **A thrower is never buried by its own throw**: its throw moves the Ghoula only while
//!   its piece is on idx 15 or beyond, out of reach. So the seat to throw is always a seat
//!   still in the game, and at least one seat is never eliminated.
//! * **Sole survivor.** When every other seat is buried, the remaining seat takes every
//!   turn until its piece reaches the Ka'aba (the Ghoula does not move while it races on
//!   idx 0..=14, so nothing can stop it).
//! * **Value 0 on the track** (idx 1..=13) moves nothing; a 0, 3, 4 or 6 on the waiting
//!   square moves nothing.
//! * **Throws past the cap.** States whose throw count exceeds the game's `max_throws` are
//!   rejected by [`SigWaDuqqan::validate`](crate::Game::validate).
//! * **Unused seats.** The state has room for 8 seats; entries past the seat count must
//!   hold a piece on the start with no sigs (the value of the initial state).

use core::fmt::{self, Write as _};

use super::duqqan::{
    next_arrival, next_burial, throw_words, write_status, DuqqanPiece, Layout, Place, SIG, THREE,
    THROWS, ZERO,
};
use crate::config::{check_seats, DEFAULT_MAX_THROWS};
use crate::dice::{Sticks, Throw};
use crate::game::{
    ActionList, ConfigError, Game, InvalidState, Node, NotationError, Playouts, ProblemKind,
    Problems, Ranking, Seat, MAX_SEATS,
};
use crate::present::Present;

/// The start square, where every piece begins.
pub const START: u8 = 0;
/// The waiting square (the 15th space), where a piece needs seven sigs to move on.
pub const WAITING_SQUARE: u8 = 14;
/// The Ka'aba, the goal.
pub const KAABA: u8 = 19;
/// The number of squares on the track.
pub const TRACK_LEN: u8 = 20;
/// The sigs a piece needs on the waiting square; the last of them moves it to idx 15.
pub const SIGS_TO_LEAVE: u8 = 7;

/// The rules of Sig wa Duqqan (Houmt al-Arbah) for a number of seats, with its rule
/// options: `max_throws` (default 10 000) and `exact_waiting_square` (default false).
///
/// It has no decisions: a pure chance process, every node a throw until the end.
///
/// ```
/// use stickdice::{Game, Node, SeedableRng, SigWaDuqqan};
/// let game = SigWaDuqqan::with_seats(3).unwrap();
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
pub struct SigWaDuqqan {
    seats: u8,
    max_throws: u32,
    exact_waiting_square: bool,
}

impl SigWaDuqqan {
    /// The throw cap (`max_throws`).
    pub fn max_throws(&self) -> u32 {
        self.max_throws
    }

    /// Whether a move from idx 1..=13 that would pass the waiting square is not made at all
    /// (`exact_waiting_square`), instead of stopping on it.
    pub fn exact_waiting_square(&self) -> bool {
        self.exact_waiting_square
    }
}

/// Where one seat's piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Piece {
    /// Still racing, on this idx of the track (0..=18; 0 is the start, 14 the waiting
    /// square).
    Racing(u8),
    /// On the Ka'aba (idx 19); the number is its arrival order (1 = first to arrive).
    Arrived(u8),
    /// Buried by the Ghoula, its owner eliminated; the number is the burial step (the
    /// first Ghoula step in the game that buried anything is 1, the next such step 2, …).
    /// Pieces buried by the same step share the number.
    Buried(u8),
}

impl Piece {
    /// The idx of the square the piece stands on, if it is on the board (the Ka'aba is 19).
    pub fn square(self) -> Option<u8> {
        match self {
            Piece::Racing(i) => Some(i),
            Piece::Arrived(_) => Some(KAABA),
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
            Piece::Arrived(k) => Place::Arrived(k),
            Piece::Buried(b) => Place::Buried(b),
        }
    }
}

/// The waiting square and the goal, as the drawings and descriptions name them.
pub(crate) const LAYOUT: Layout = Layout {
    waiting_square: WAITING_SQUARE,
    goal: KAABA,
    goal_name: "Ka'aba",
};

/// A position of Sig wa Duqqan, 32 bytes, with everything the rules remember.
///
/// Entries past the seat count hold `Piece::Racing(0)` and a sig count of 0.
///
/// The fields are private (visible in this crate only, for `stickdice::testing`'s damaged
/// states) and read through accessors: a state comes from [`Game::initial_state`], from
/// play, from a [`Position`] (`State::try_from`, which checks it), or from JSON (which
/// [`Game::load_state`] checks). [`State::with_piece`], [`State::with_sigs`],
/// [`State::with_ghoula`], [`State::with_turn`] and [`State::with_throws`] change a state
/// without checking it: [`Game::validate`] checks a state that comes from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct State {
    /// Each seat's piece.
    pub(crate) pieces: [Piece; MAX_SEATS],
    /// Each seat's sig count on the waiting square (0..=6; 0 unless the piece is on idx 14).
    pub(crate) sigs: [u8; MAX_SEATS],
    /// The Ghoula's square (idx 0..=14), or `None` while it is still off the board, just
    /// before idx 0.
    pub(crate) ghoula: Option<u8>,
    /// The seat to throw next (after the end: the seat that threw last, or would have).
    pub(crate) turn: u8,
    /// The number of throws made so far, extra throws included.
    pub(crate) throws: u32,
}

/// A Sig wa Duqqan position written out: each seat's piece, sigs and whose turn it is, one
/// entry a seat. `State::try_from(position)` builds the [`State`] and checks every rule
/// that does not depend on the game's options (the seat count must still be the game's,
/// and the throw cap is [`Game::validate`]'s).
///
/// ```
/// use stickdice::games::sig_wa_duqqan::{Piece, Position, SigWaDuqqan, State};
/// use stickdice::Game;
/// let game = SigWaDuqqan::with_seats(3).unwrap();
/// let p = Position {
///     sigs: vec![2, 0, 0],
///     ghoula: Some(3),
///     turn: 2,
///     throws: 30,
///     ..Position::new(&[Piece::Racing(14), Piece::Arrived(1), Piece::Racing(9)])
/// };
/// let s = State::try_from(p.clone()).unwrap();
/// assert_eq!((s.sigs()[0], s.ghoula(), s.turn(), s.throws()), (2, Some(3), 2, 30));
/// assert_eq!(s.pieces()[1], Piece::Arrived(1));
/// assert_eq!(game.validate(&s), Ok(()));
/// assert_eq!(s.position(3), p);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// Each seat's piece, one entry a seat (2 to 8).
    pub pieces: Vec<Piece>,
    /// Each seat's sig count on the waiting square (0..=6; 0 unless the piece is on idx
    /// 14; empty: all 0).
    pub sigs: Vec<u8>,
    /// The Ghoula's square (idx 0..=14), or `None` while it is still off the board, just
    /// before idx 0.
    pub ghoula: Option<u8>,
    /// The seat to throw next.
    pub turn: u8,
    /// The number of throws made so far, extra throws included.
    pub throws: u32,
}

impl Position {
    /// These pieces (one a seat), no sigs, the Ghoula off the board, P1 to throw, no throw
    /// made.
    pub fn new(pieces: &[Piece]) -> Position {
        Position {
            pieces: pieces.to_vec(),
            sigs: vec![0; pieces.len()],
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
        if !p.sigs.is_empty() && p.sigs.len() != n {
            problems.push(Problem::SigsLength {
                sigs: p.sigs.len(),
                seats: n,
            });
        }
        problems.finish()?;
        let mut s = State {
            pieces: [Piece::Racing(START); MAX_SEATS],
            sigs: [0; MAX_SEATS],
            ghoula: p.ghoula,
            turn: p.turn,
            throws: p.throws,
        };
        s.pieces[..n].copy_from_slice(&p.pieces);
        s.sigs[..p.sigs.len()].copy_from_slice(&p.sigs);
        let mut problems = Problems::new();
        s.rule_problems(n, None, &mut problems);
        problems.finish()?;
        Ok(s)
    }
}

impl State {
    /// Every broken invariant for a game of `n` seats (and the throw cap, when given), in
    /// the order [`Game::validate`] reports them.
    fn rule_problems(&self, n: usize, cap: Option<u32>, problems: &mut Problems) {
        let state = self;

        for seat in 0..n {
            match state.pieces[seat] {
                Piece::Racing(idx) if idx >= KAABA => {
                    problems.push(Problem::RacingPastTrack { seat, idx });
                }
                Piece::Arrived(0) => problems.push(Problem::ArrivedAsZero { seat }),
                Piece::Buried(0) => problems.push(Problem::BuriedAtStepZero { seat }),
                _ => {}
            }
            let sigs = state.sigs[seat];
            if sigs >= SIGS_TO_LEAVE {
                problems.push(Problem::TooManySigs { seat, sigs });
            }
            if sigs > 0 && state.pieces[seat] != Piece::Racing(WAITING_SQUARE) {
                problems.push(Problem::SigsOffWaitingSquare { seat, sigs });
            }
        }

        // Arrival order: exactly 1..=a, each once.
        let arrivals: Vec<(usize, u8)> = (0..n)
            .filter_map(|s| match state.pieces[s] {
                Piece::Arrived(k) if k > 0 => Some((s, k)),
                _ => None,
            })
            .collect();
        let arrived_count = (0..n)
            .filter(|&s| matches!(state.pieces[s], Piece::Arrived(_)))
            .count();
        for (i, &(s, k)) in arrivals.iter().enumerate() {
            if usize::from(k) > arrived_count {
                problems.push(Problem::ArrivalPastCount {
                    seat: s,
                    number: k,
                    arrived: arrived_count,
                });
            }
            if let Some(&(other, _)) = arrivals[..i].iter().find(|&&(_, k2)| k2 == k) {
                problems.push(Problem::SameArrival {
                    first: other,
                    second: s,
                    number: k,
                });
            }
        }

        // Burial steps: the numbers used are exactly 1..=m.
        let max_burial = (0..n)
            .filter_map(|s| match state.pieces[s] {
                Piece::Buried(b) => Some(b),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        for b in 1..max_burial {
            if !state.pieces[..n].contains(&Piece::Buried(b)) {
                problems.push(Problem::BurialStepMissing {
                    step: b,
                    last: max_burial,
                });
            }
        }
        if max_burial > 0 && state.ghoula.is_none() {
            problems.push(Problem::BuriedWithoutGhoula);
        }

        if let Some(g) = state.ghoula {
            if g > WAITING_SQUARE {
                problems.push(Problem::GhoulaPastWaitingSquare { idx: g });
            }
        }

        let turn = state.turn as usize;
        if turn >= n {
            problems.push(Problem::TurnOutOfRange { turn, seats: n });
        } else if matches!(state.pieces[turn], Piece::Buried(_)) {
            problems.push(Problem::TurnOfBuriedSeat { turn });
        }

        if let Some(cap) = cap.filter(|&cap| state.throws > cap) {
            problems.push(Problem::PastThrowCap {
                throws: state.throws,
                cap,
            });
        }

        for seat in n..MAX_SEATS {
            if state.pieces[seat] != Piece::Racing(START) || state.sigs[seat] != 0 {
                problems.push(Problem::UnusedSeatNotDefault { seat, seats: n });
            }
        }
    }

    /// The state's parts, for a game of `seats` seats (the state does not record its seat
    /// count; at most 8 are given).
    pub fn position(&self, seats: usize) -> Position {
        let n = seats.min(MAX_SEATS);
        Position {
            pieces: self.pieces[..n].to_vec(),
            sigs: self.sigs[..n].to_vec(),
            ghoula: self.ghoula,
            turn: self.turn,
            throws: self.throws,
        }
    }

    /// This state with `seat`'s piece at `piece` (a seat past [`MAX_SEATS`] changes
    /// nothing).
    #[must_use]
    pub fn with_piece(mut self, seat: Seat, piece: Piece) -> State {
        if let Some(p) = self.pieces.get_mut(seat) {
            *p = piece;
        }
        self
    }

    /// This state with `sigs` as `seat`'s sig count on the waiting square (a seat past
    /// [`MAX_SEATS`] changes nothing).
    #[must_use]
    pub fn with_sigs(mut self, seat: Seat, sigs: u8) -> State {
        if let Some(n) = self.sigs.get_mut(seat) {
            *n = sigs;
        }
        self
    }

    /// This state with the Ghoula on `ghoula` (`None`: still off the board).
    #[must_use]
    pub fn with_ghoula(mut self, ghoula: Option<u8>) -> State {
        self.ghoula = ghoula;
        self
    }

    /// This state with `turn` as the seat to throw next.
    #[must_use]
    pub fn with_turn(mut self, turn: u8) -> State {
        self.turn = turn;
        self
    }

    /// This state with `throws` throws made so far.
    #[must_use]
    pub fn with_throws(mut self, throws: u32) -> State {
        self.throws = throws;
        self
    }

    /// Each seat's piece.
    #[inline]
    pub fn pieces(&self) -> &[Piece; MAX_SEATS] {
        &self.pieces
    }

    /// Each seat's sig count on the waiting square (0..=6; 0 unless the piece is on idx 14).
    #[inline]
    pub fn sigs(&self) -> [u8; MAX_SEATS] {
        self.sigs
    }

    /// The Ghoula's square (idx 0..=14), or `None` while it is still off the board, just
    /// before idx 0.
    #[inline]
    pub fn ghoula(&self) -> Option<u8> {
        self.ghoula
    }

    /// The seat to throw next (after the end: the seat that threw last, or would have).
    #[inline]
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The number of throws made so far, extra throws included.
    #[inline]
    pub fn throws(&self) -> u32 {
        self.throws
    }
}

/// What can be wrong with a Sig wa Duqqan [`State`]: the problems [`Game::validate`]
/// reports, each with the seat or value concerned. Seats are 0-based (P1 is seat 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// A racing piece stands on the Ka'aba's idx or past it.
    RacingPastTrack {
        /// The seat.
        seat: usize,
        /// The piece's idx.
        idx: u8,
    },
    /// A piece arrived as number 0.
    ArrivedAsZero {
        /// The seat.
        seat: usize,
    },
    /// A piece was buried at burial step 0.
    BuriedAtStepZero {
        /// The seat.
        seat: usize,
    },
    /// A sig count of 7 or more.
    TooManySigs {
        /// The seat.
        seat: usize,
        /// Its sig count.
        sigs: u8,
    },
    /// A sig count on a piece that is not on the waiting square.
    SigsOffWaitingSquare {
        /// The seat.
        seat: usize,
        /// Its sig count.
        sigs: u8,
    },
    /// An arrival number past the number of pieces that have arrived.
    ArrivalPastCount {
        /// The seat.
        seat: usize,
        /// Its arrival number.
        number: u8,
        /// How many pieces have arrived.
        arrived: usize,
    },
    /// Two pieces share an arrival number.
    SameArrival {
        /// The seat listed first.
        first: usize,
        /// The seat listed second.
        second: usize,
        /// The arrival number.
        number: u8,
    },
    /// A burial step below the last one buried nothing.
    BurialStepMissing {
        /// The missing step.
        step: u8,
        /// The last burial step recorded.
        last: u8,
    },
    /// A piece is buried though the Ghoula has never entered the board.
    BuriedWithoutGhoula,
    /// The Ghoula stands past the waiting square.
    GhoulaPastWaitingSquare {
        /// The Ghoula's idx.
        idx: u8,
    },
    /// The turn is a seat the game does not have.
    TurnOutOfRange {
        /// The seat given.
        turn: usize,
        /// The seat count.
        seats: usize,
    },
    /// The turn is a buried (eliminated) seat's.
    TurnOfBuriedSeat {
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
    /// The entry of a seat past the seat count is not the unused default.
    UnusedSeatNotDefault {
        /// The seat.
        seat: usize,
        /// The seat count.
        seats: usize,
    },
    /// A [`Position`] of fewer than 2 seats or more than 8.
    SeatCount {
        /// The number of seats given (pieces listed).
        seats: usize,
    },
    /// A [`Position`]'s sig counts are not one a seat.
    SigsLength {
        /// The number of sig counts given.
        sigs: usize,
        /// The number of seats.
        seats: usize,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::RacingPastTrack { seat, idx } => write!(
                f,
                "P{}'s racing piece is at idx {idx}, but racing pieces stand on idx 0 to 18 \
                 (a piece on idx 19, the Ka'aba, is written {{\"Arrived\": n}}, n its place in the order of arrival)",
                seat + 1
            ),
            Problem::ArrivedAsZero { seat } => write!(
                f,
                "P{} arrived as number 0, but arrivals count from 1",
                seat + 1
            ),
            Problem::BuriedAtStepZero { seat } => write!(
                f,
                "P{} was buried at burial step 0, but burial steps count from 1",
                seat + 1
            ),
            Problem::TooManySigs { seat, sigs } => write!(
                f,
                "P{}'s sig count {sigs} is more than 6 (the 7th sig moves the piece on)",
                seat + 1
            ),
            Problem::SigsOffWaitingSquare { seat, sigs } => write!(
                f,
                "P{} has a sig count of {sigs} but its piece is not on the waiting square \
                 (idx 14)",
                seat + 1
            ),
            Problem::ArrivalPastCount {
                seat,
                number,
                arrived,
            } => write!(
                f,
                "P{} arrived as number {number}, but only {arrived} piece(s) have arrived",
                seat + 1
            ),
            Problem::SameArrival {
                first,
                second,
                number,
            } => write!(
                f,
                "P{} and P{} both arrived as number {number}",
                first + 1,
                second + 1
            ),
            Problem::BurialStepMissing { step, last } => write!(
                f,
                "no piece was buried at burial step {step}, yet a later burial step \
                 ({last}) is recorded"
            ),
            Problem::BuriedWithoutGhoula => {
                f.write_str("a piece is buried but the Ghoula has never entered the board")
            }
            Problem::GhoulaPastWaitingSquare { idx } => {
                write!(f, "the Ghoula is at idx {idx}, but it never goes past idx 14")
            }
            Problem::TurnOutOfRange { turn, seats } => write!(
                f,
                "the turn is P{}'s, but there are only {seats} seats",
                turn + 1
            ),
            Problem::TurnOfBuriedSeat { turn } => write!(
                f,
                "the turn is P{}'s, but P{} is buried (eliminated)",
                turn + 1,
                turn + 1
            ),
            Problem::PastThrowCap { throws, cap } => write!(
                f,
                "{throws} throws have been made, more than the throw cap of {cap}"
            ),
            Problem::SeatCount { seats } => write!(
                f,
                "the position has {seats} seats, but Sig wa Duqqan is played by 2 to {MAX_SEATS}"
            ),
            Problem::SigsLength { sigs, seats } => write!(
                f,
                "the position gives {sigs} sig counts for {seats} seats (one a seat, or none)"
            ),
            Problem::UnusedSeatNotDefault { seat, seats } => write!(
                f,
                "P{} does not play in this {seats}-player game, but its entry is not the unused \
                 default (piece Racing(0), sig count 0)",
                seat + 1
            ),
        }
    }
}

impl ProblemKind for Problem {}

/// A choice at a decision node. Sig wa Duqqan has none: every throw plays itself, so this
/// type has no values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Action {}

impl fmt::Display for Action {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

impl SigWaDuqqan {
    /// Whether some piece still races.
    #[inline]
    fn any_racing(&self, state: &State) -> bool {
        state.pieces[..self.seats as usize]
            .iter()
            .any(|p| p.is_racing())
    }

    /// Moves the Ghoula `steps` steps, carrying and burying pieces. Returns whether it
    /// buried any.
    #[inline]
    fn move_ghoula(&self, state: &mut State, steps: u8) -> bool {
        let n = (self.seats as usize).min(MAX_SEATS);
        let mut steps = steps;
        let mut g = match state.ghoula {
            Some(g) => g,
            None if steps == 0 => return false,
            None => {
                steps -= 1;
                START
            }
        };
        // Bit `i`: some racing piece stands on idx `i` (1..=14), where the Ghoula carries.
        let mut carried = 0u32;
        for p in &state.pieces[..n] {
            if let Piece::Racing(i @ 1..=WAITING_SQUARE) = *p {
                carried |= 1 << i;
            }
        }
        let mut buried = false;
        for _ in 0..steps {
            if carried & (1 << g) != 0 {
                // Step back one square carrying every piece here (from idx 1: burying).
                let here = Piece::Racing(g);
                let onto = if g == 1 {
                    buried = true;
                    Piece::Buried(next_burial(&state.pieces[..n]))
                } else {
                    Piece::Racing(g - 1)
                };
                for s in 0..n {
                    if state.pieces[s] == here {
                        state.pieces[s] = onto;
                        state.sigs[s] = 0;
                    }
                }
                carried &= !(1 << g);
                if g > 1 {
                    carried |= 1 << (g - 1);
                }
                g -= 1;
            } else if g >= WAITING_SQUARE {
                // It never goes past idx 14; nothing changes before its next step, so the
                // rest of the move is lost as well.
                break;
            } else {
                g += 1;
            }
        }
        state.ghoula = Some(g);
        buried
    }

    /// Applies a throw (see [`Game::apply_throw_unchecked`]) and returns whether it made a
    /// piece stop racing (arrive on the Ka'aba or be buried).
    #[inline(always)]
    fn throw_effect(&self, state: &mut State, throw: Throw) -> bool {
        state.throws = state.throws.wrapping_add(1);
        let w = throw.marked();
        let (value, extra) = THROWS[(w & 7) as usize];
        // A turn past the seats (a state `validate` rejects) plays some seat's throw
        // rather than index out of bounds.
        let seat = state.turn as usize & (MAX_SEATS - 1);
        let piece = state.pieces[seat];
        let mut stopped = false;
        match piece {
            Piece::Racing(START) => {
                if w == SIG {
                    state.pieces[seat] = Piece::Racing(1);
                }
            }
            Piece::Racing(p @ 1..=13) => {
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
                    let count = state.sigs[seat].saturating_add(1);
                    if count >= SIGS_TO_LEAVE {
                        state.pieces[seat] = Piece::Racing(WAITING_SQUARE + 1);
                        state.sigs[seat] = 0;
                    } else {
                        state.sigs[seat] = count;
                    }
                }
            }
            Piece::Racing(p @ 15..=18) => {
                if w == SIG {
                    state.pieces[seat] = if p + 1 == KAABA {
                        stopped = true;
                        Piece::Arrived(next_arrival(&state.pieces[..self.seats as usize]))
                    } else {
                        Piece::Racing(p + 1)
                    };
                } else if w == THREE {
                    stopped = self.move_ghoula(state, 3);
                }
            }
            // Off the track: `validate` rejects it; do nothing rather than panic.
            Piece::Racing(_) => {}
            Piece::Arrived(_) => {
                let steps = if w == ZERO { 2 } else { value };
                stopped = self.move_ghoula(state, steps);
            }
            Piece::Buried(_) => {}
        }
        if !extra {
            state.turn = self.next_seat(state, seat) as u8;
        }
        stopped
    }

    /// The next seat still in the game after `seat`, or `seat` itself if it is the only one.
    #[inline]
    fn next_seat(&self, state: &State, seat: usize) -> usize {
        let n = self.seats as usize;
        let next = if seat + 1 >= n { 0 } else { seat + 1 };
        // Nearly always the next seat is still in the game.
        if !matches!(state.pieces[next & (MAX_SEATS - 1)], Piece::Buried(_)) {
            return next;
        }
        let mut s = next;
        for _ in 1..n {
            s = if s + 1 >= n { 0 } else { s + 1 };
            if !matches!(state.pieces[s], Piece::Buried(_)) {
                return s;
            }
        }
        seat
    }
}

impl SigWaDuqqan {
    /// [`Playouts::play_throws`] throw by throw with [`SigWaDuqqan::throw_effect`], checking
    /// whether a piece still races only after a throw that made one arrive or be buried.
    #[inline]
    fn play_throws_plainly(&self, state: &mut State, mut throw: impl FnMut() -> Throw) -> Node {
        let mut racing = self.any_racing(state);
        while racing && state.throws < self.max_throws {
            if self.throw_effect(state, throw()) {
                racing = self.any_racing(state);
            }
        }
        Node::End
    }
}

/// Each seat's piece as one code, for the fast loop of [`Playouts::play_throws`]: `0..=13` a
/// piece racing on that idx, `14 + k` one on the waiting square with `k` sigs (0..=6),
/// `21..=24` one on idx 15..=18, [`codes::ARRIVED`] and [`codes::BURIED`]; each code is
/// kept as its *key*, eight times the code, so that a key and a throw's marked sides index
/// [`TRANSITIONS`] directly. `None` for a state [`Game::validate`] rejects in a way the
/// codes cannot hold (a turn past the seats or on a buried seat, a piece past idx 18, a sig
/// count off the waiting square or above 6, the Ghoula past idx 14).
fn keys(state: &State, n: usize) -> Option<[u8; MAX_SEATS]> {
    // Seats past the seat count hold the Ka'aba's key: no piece racing.
    let mut out = [codes::ARRIVED << 3; MAX_SEATS];
    for ((key, &piece), &sigs) in out.iter_mut().zip(&state.pieces).zip(&state.sigs).take(n) {
        let code = match piece {
            Piece::Racing(p @ 0..=13) if sigs == 0 => p,
            Piece::Racing(WAITING_SQUARE) if sigs < SIGS_TO_LEAVE => codes::WAITING + sigs,
            Piece::Racing(p @ 15..=18) if sigs == 0 => p + codes::PAST_WAITING - 15,
            Piece::Arrived(_) if sigs == 0 => codes::ARRIVED,
            Piece::Buried(_) if sigs == 0 => codes::BURIED,
            _ => return None,
        };
        *key = code << 3;
    }
    let turn = state.turn as usize;
    let ghoula_ok = state.ghoula.is_none_or(|g| g <= WAITING_SQUARE);
    (turn < n && out[turn] != codes::BURIED << 3 && ghoula_ok).then_some(out)
}

/// The piece codes of [`keys()`] and what a throw does to them.
mod codes {
    use super::*;

    /// The code of a piece on the waiting square with no sigs.
    pub(super) const WAITING: u8 = 14;
    /// The code of a piece on idx 15.
    pub(super) const PAST_WAITING: u8 = 21;
    /// The code of a piece on the Ka'aba.
    pub(super) const ARRIVED: u8 = 25;
    /// The code of a buried piece.
    pub(super) const BURIED: u8 = 26;
    /// The number of codes.
    const COUNT: usize = 27;

    /// A [`TRANSITIONS`] entry's bit: the throw grants an extra throw (the low 8 bits
    /// are the thrower's new key).
    pub(super) const EXTRA: u16 = 1 << 8;
    /// The shift of a [`TRANSITIONS`] entry's 3 bits counting the Ghoula's steps.
    pub(super) const STEPS: u16 = 9;
    /// A [`TRANSITIONS`] entry's bit: the thrower's piece reaches the Ka'aba.
    pub(super) const ARRIVES: u16 = 1 << 12;
    /// The bits of an entry that the fast loop cannot play by storing the new key.
    pub(super) const SPECIAL: u16 = 7 << STEPS | ARRIVES;

    /// By key / 8: the square of the key's piece when the Ghoula can carry it (idx
    /// 1..=14), else 0.
    const CARRIED_SQUARE: [u8; 32] = {
        let mut t = [0u8; 32];
        let mut c = 1;
        while c < PAST_WAITING as usize {
            t[c] = if c < WAITING as usize {
                c as u8
            } else {
                WAITING_SQUARE
            };
            c += 1;
        }
        t
    };

    /// The square a key's piece can be carried from, or 0.
    #[inline(always)]
    fn carried_square(key: u8) -> u8 {
        CARRIED_SQUARE[(key >> 3) as usize & 31]
    }

    /// What a throw of `w` marked sides does to the thrower's piece of code `code`: the
    /// new key and the entry's flags.
    const fn transition(code: u8, w: u8, exact_waiting_square: bool) -> u16 {
        let (value, extra) = THROWS[(w & 7) as usize];
        let flags = if extra { EXTRA } else { 0 };
        let key = (code as u16) << 3;
        let to = match code {
            START => {
                if w == SIG {
                    1
                } else {
                    START
                }
            }
            1..=13 => {
                if value == 0 {
                    code
                } else if code + value <= WAITING_SQUARE {
                    code + value
                } else if exact_waiting_square {
                    code
                } else {
                    WAITING
                }
            }
            WAITING..=20 => {
                if w != SIG {
                    code
                } else if code + 1 - WAITING >= SIGS_TO_LEAVE {
                    PAST_WAITING
                } else {
                    code + 1
                }
            }
            PAST_WAITING..=24 => {
                if w == SIG && code == 24 {
                    return ARRIVES | flags | key;
                } else if w == SIG {
                    code + 1
                } else if w == THREE {
                    return 3 << STEPS | flags | key;
                } else {
                    code
                }
            }
            ARRIVED => {
                let s = if w == ZERO { 2 } else { value };
                return (s as u16) << STEPS | flags | key;
            }
            _ => code,
        };
        flags | (to as u16) << 3
    }

    const fn table(exact_waiting_square: bool) -> [u16; 256] {
        let mut t = [0u16; 256];
        let mut k = 0;
        while k < 256 {
            let (code, w) = ((k >> 3) as u8, (k & 7) as u8);
            t[k] = if (code as usize) < COUNT {
                transition(code, w, exact_waiting_square)
            } else {
                (code as u16) << 3
            };
            k += 1;
        }
        t
    }

    /// `TRANSITIONS[exact_waiting_square][key | marked sides]`: the [`transition`] of every
    /// code and throw (codes 27..=31 do not occur and map to themselves).
    pub(super) static TRANSITIONS: [[u16; 256]; 2] = [table(false), table(true)];

    /// Whether a piece still races (seats past the seat count hold [`ARRIVED`]'s key).
    #[inline]
    pub(super) fn any_racing(keys: &[u8; MAX_SEATS]) -> bool {
        keys.iter().any(|&k| k < ARRIVED << 3)
    }

    /// For every seat, the next seat after it that is not buried, or the seat itself (as
    /// [`SigWaDuqqan::next_seat`]).
    pub(super) fn next_seats(keys: &[u8; MAX_SEATS], n: usize) -> [u8; MAX_SEATS] {
        let mut out = [0u8; MAX_SEATS];
        for (seat, next) in out.iter_mut().enumerate().take(n) {
            let mut s = seat;
            *next = seat as u8;
            for _ in 1..n {
                s = if s + 1 >= n { 0 } else { s + 1 };
                if keys[s] != BURIED << 3 {
                    *next = s as u8;
                    break;
                }
            }
        }
        out
    }

    /// Moves the Ghoula `steps` steps on the keys (as [`SigWaDuqqan::move_ghoula`]), or
    /// returns `false` and changes nothing when the move would bury a piece.
    ///
    /// It walks forward to the first square with pieces (if its steps reach it), and from
    /// there every step carries them back one square, gathering the pieces it meets.
    #[inline(always)]
    pub(super) fn move_ghoula(
        keys: &mut [u8; MAX_SEATS],
        n: usize,
        ghoula: &mut Option<u8>,
        steps: u8,
    ) -> bool {
        let mut steps = steps;
        let g = match *ghoula {
            Some(g) => g,
            None if steps == 0 => return true,
            None => {
                steps -= 1;
                START
            }
        };
        let mut carried = 0u32;
        for &k in &keys[..n] {
            carried |= 1 << carried_square(k);
        }
        // Bit `i`: pieces the Ghoula can carry on idx `i` (1..=14) at or ahead of it.
        let ahead = carried & (u32::MAX << g) & !1;
        let first = ahead.trailing_zeros() as u8;
        if ahead == 0 || first - g >= steps {
            // It does not reach a piece: forward, never past idx 14.
            *ghoula = Some((g + steps).min(WAITING_SQUARE));
            return true;
        }
        let back = steps - (first - g);
        if back >= first {
            // It would carry the pieces from idx 1 onto idx 0, burying them.
            return false;
        }
        let to = first - back;
        for k in &mut keys[..n] {
            if carried_square(*k).wrapping_sub(to) <= back {
                *k = to << 3;
            }
        }
        *ghoula = Some(to);
        true
    }

    /// Writes the racing pieces' keys back into the state (arrived and buried pieces are
    /// never made by the keys, so the state already holds them with their numbers).
    pub(super) fn store(state: &mut State, keys: &[u8; MAX_SEATS], n: usize) {
        for (s, &key) in keys.iter().enumerate().take(n) {
            let c = key >> 3;
            let (piece, sigs) = match c {
                0..=13 => (Piece::Racing(c), 0),
                WAITING..=20 => (Piece::Racing(WAITING_SQUARE), c - WAITING),
                PAST_WAITING..=24 => (Piece::Racing(c - PAST_WAITING + 15), 0),
                _ => continue,
            };
            state.pieces[s] = piece;
            state.sigs[s] = sigs;
        }
    }
}

use codes::TRANSITIONS;

/// The grid cell of a track square: (row, column), row 3 at the top, column 0 the grid's
/// left edge, the extension at columns -1 … -4.
pub fn square_cell(idx: u8) -> (i8, i8) {
    let i = idx as i8;
    match idx {
        0..=3 => (3, i),
        4..=7 => (2, 7 - i),
        8..=11 => (1, i - 8),
        _ => (0, 15 - i),
    }
}

impl Game for SigWaDuqqan {
    type State = State;
    type Action = Action;

    const NAME: &'static str = "sig-wa-duqqan";
    const TITLE: &'static str = "Sig wa Duqqan (Houmt al-Arbah)";
    const MAX_ACTIONS: usize = 0;
    const SEATS: (usize, usize) = (2, 8);

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        check_seats::<Self>(seats)?;
        Ok(SigWaDuqqan {
            seats: seats as u8,
            max_throws: DEFAULT_MAX_THROWS,
            exact_waiting_square: false,
        })
    }

    crate::rule_options! {
        max_throws: max_throws() => crate::config::MAX_THROWS_HELP,
        exact_waiting_square: flag(false) =>
            "a move from idx 1..=13 that would pass the waiting square is not made at all, \
                instead of stopping on it",
    }

    fn seats(&self) -> usize {
        self.seats as usize
    }

    fn initial_state(&self) -> State {
        State {
            pieces: [Piece::Racing(START); MAX_SEATS],
            sigs: [0; MAX_SEATS],
            ghoula: None,
            turn: 0,
            throws: 0,
        }
    }

    #[inline]
    fn node(&self, state: &State) -> Node {
        if state.throws >= self.max_throws || !self.any_racing(state) {
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
        let n = self.seats as usize;
        let mut keys = [0u32; MAX_SEATS];
        for (key, piece) in keys.iter_mut().zip(&state.pieces[..n]) {
            *key = match *piece {
                Piece::Arrived(k) => u32::from(k),
                Piece::Racing(_) => 1_000,
                Piece::Buried(b) => 2_000 - u32::from(b),
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
            expected: "no action at all: Sig wa Duqqan has no actions, every throw plays itself",
        })
    }

    fn validate(&self, state: &State) -> Result<(), InvalidState> {
        let mut problems = Problems::new();
        state.rule_problems(self.seats as usize, Some(self.max_throws), &mut problems);
        problems.finish()
    }
}

impl Present for SigWaDuqqan {
    fn render(&self, state: &State) -> String {
        const W: usize = 9;
        let n = self.seats as usize;
        // Contents of every square: the seats standing there, then the Ghoula.
        let mut contents: [String; TRACK_LEN as usize] = Default::default();
        for s in 0..n {
            if let Some(i) = state.pieces[s].square() {
                if let Some(c) = contents.get_mut(i as usize) {
                    c.push(char::from(b'1' + s as u8));
                }
            }
        }
        if let Some(g) = state.ghoula {
            if let Some(c) = contents.get_mut(g as usize) {
                if !c.is_empty() && c.len() < W - 1 {
                    c.push(' ');
                }
                c.push('G');
            }
        }
        let label = |i: u8| -> String {
            match i {
                START => "0 start".to_string(),
                WAITING_SQUARE => "14 wait".to_string(),
                KAABA => "19 Ka'aba".to_string(),
                _ => i.to_string(),
            }
        };
        // The square at (row, col), if any.
        let square_at = |row: i8, col: i8| (0..TRACK_LEN).find(|&i| square_cell(i) == (row, col));

        let mut out = String::new();
        let margin = 4 * (W + 1);
        let border = |cols: usize| format!("+{}", format!("{}+", "-".repeat(W)).repeat(cols));
        for row in (0..=3i8).rev() {
            let (lo, pad) = if row == 0 { (-4i8, 0) } else { (0i8, margin) };
            let cols = (3 - lo + 1) as usize;
            // Top border of the row (the bottom row's is the wider one).
            let _ = writeln!(out, "{:pad$}{}", "", border(cols));
            let mut labels = String::from("|");
            let mut cells = String::from("|");
            for col in lo..=3 {
                if let Some(i) = square_at(row, col) {
                    let _ = write!(labels, "{:<W$}|", label(i));
                    let _ = write!(cells, "{:<W$}|", contents[i as usize]);
                }
            }
            let _ = writeln!(out, "{:pad$}{labels}", "");
            if row == 3 && state.ghoula.is_none() {
                let note = "Ghoula off the board: G ->";
                let _ = writeln!(out, "{note:>pad$}{cells}");
            } else {
                let _ = writeln!(out, "{:pad$}{cells}", "");
            }
        }
        let _ = writeln!(out, "{}", border(8));
        out.push_str(
            "start = idx 0; wait = waiting square (idx 14, 7 sigs to move on); \
             Ka'aba = goal (idx 19)\n\
             digits = pieces by seat (1 = P1); G = the Ghoula\n",
        );

        // Status.
        let ghoula = match state.ghoula {
            None => "off the board, just before idx 0".to_string(),
            Some(g) => format!("on idx {g}"),
        };
        write_status(
            &mut out,
            self.ranking(state),
            self.any_racing(state),
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
        let Some(&piece) = state.pieces.get(seat) else {
            return base;
        };
        let who = seat + 1;
        let value = THROWS[w as usize].0;
        let effect = match piece {
            Piece::Racing(START) if w == SIG => format!("P{who} leaves the start for idx 1"),
            Piece::Racing(START) => format!("P{who} needs a sig to leave the start"),
            Piece::Racing(p @ 1..=13) => {
                LAYOUT.move_words(who, p, value, self.exact_waiting_square)
            }
            Piece::Racing(WAITING_SQUARE) if w == SIG => {
                let count = state.sigs[seat].saturating_add(1);
                if count >= SIGS_TO_LEAVE {
                    format!("P{who}'s 7th sig on the waiting square: it moves on to idx 15")
                } else {
                    format!("P{who}'s sig {count} of 7 on the waiting square")
                }
            }
            Piece::Racing(WAITING_SQUARE) => {
                format!("only sigs count on the waiting square: P{who} waits")
            }
            Piece::Racing(18) if w == SIG => format!("P{who} reaches the Ka'aba"),
            Piece::Racing(p @ 15..=17) if w == SIG => {
                format!("P{who} moves from idx {p} to idx {}", p + 1)
            }
            Piece::Racing(15..=18) if w == THREE => "the Ghoula moves 3 steps".to_string(),
            Piece::Racing(15..=18) => {
                format!("past the waiting square only a sig or a 3 counts: P{who} waits")
            }
            Piece::Arrived(_) if w == ZERO => {
                "on the Ka'aba a 0 counts 2: the Ghoula moves 2 steps".to_string()
            }
            Piece::Arrived(_) if value == 1 => "the Ghoula moves 1 step".to_string(),
            Piece::Arrived(_) => format!("the Ghoula moves {value} steps"),
            Piece::Racing(_) | Piece::Buried(_) => return base,
        };
        format!("{base}; {effect}")
    }
}

impl Playouts for SigWaDuqqan {
    /// Every throw until the end (Sig wa Duqqan has no decisions). The throws are played
    /// on a code per seat's piece (its square and sig count) by one table lookup per
    /// throw, the Ghoula's moves on the codes too; an arrival or a burial (which number the
    /// pieces) goes through the throw-by-throw rules on the state. A state the codes cannot
    /// hold (one [`Game::validate`] rejects) is played throw by throw.
    #[inline]
    fn play_throws(&self, state: &mut State, mut throw: impl FnMut() -> Throw) -> Node {
        let n = self.seats as usize;
        let Some(mut keys) = keys(state, n) else {
            return self.play_throws_plainly(state, throw);
        };
        let table = &TRANSITIONS[self.exact_waiting_square as usize];
        let mut turn = state.turn as usize & (MAX_SEATS - 1);
        let mut throws = state.throws;
        let mut ghoula = state.ghoula;
        let mut next = codes::next_seats(&keys, n);
        if codes::any_racing(&keys) {
            while throws < self.max_throws {
                let t = throw();
                let e = table[(keys[turn] | (t.marked() & 7)) as usize];
                if e & codes::SPECIAL == 0 {
                    keys[turn] = e as u8;
                } else if e & codes::ARRIVES != 0
                    || !codes::move_ghoula(&mut keys, n, &mut ghoula, (e >> codes::STEPS) as u8 & 7)
                {
                    // An arrival, or a Ghoula move that buries: on the state, by the rules'
                    // own reading, which numbers arrivals and burials.
                    codes::store(state, &keys, n);
                    state.turn = turn as u8;
                    state.throws = throws;
                    state.ghoula = ghoula;
                    self.throw_effect(state, t);
                    keys = self::keys(state, n).expect("a throw keeps the state valid");
                    next = codes::next_seats(&keys, n);
                    turn = state.turn as usize & (MAX_SEATS - 1);
                    throws = state.throws;
                    ghoula = state.ghoula;
                    if !codes::any_racing(&keys) {
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
        codes::store(state, &keys, n);
        state.turn = turn as u8;
        state.throws = throws;
        state.ghoula = ghoula;
        Node::End
    }
}

// ---- The drawing ---------------------------------------------------------------------

use crate::board::{Board, BoardGeometry, PieceStatus, PlacedPiece};

impl Board for SigWaDuqqan {
    fn geometry(&self) -> BoardGeometry {
        LAYOUT.geometry(
            TRACK_LEN,
            |idx| {
                let (row, col) = square_cell(idx);
                ((col + 4) as f64, (3 - row) as f64)
            },
            (8.0, 4.0),
            self.seats(),
            "one piece per seat (its number and shape); G = the Ghoula, the neutral \
             piece that drags pieces back and buries them at the start; a piece's \
             tooltip gives its sig count on the waiting square",
        )
    }

    fn pieces(&self, s: &State) -> Vec<PlacedPiece> {
        let mut out: Vec<PlacedPiece> = (0..self.seats())
            .map(|seat| LAYOUT.placed_piece(seat, s.pieces[seat].place(), s.sigs[seat]))
            .collect();
        out.push(PlacedPiece {
            square: s.ghoula.map(usize::from),
            seat: None,
            kind: "ghoula",
            letter: "G",
            active: false,
            status: PieceStatus::Plain,
            text: match s.ghoula {
                Some(g) => format!("the Ghoula on idx {g}"),
                None => "the Ghoula off the board, before the start".to_string(),
            },
        });
        out
    }

    fn describe_action(&self, _: &State, action: Self::Action) -> String {
        match action {}
    }

    fn describe_change(&self, b: &State, a: &State) -> Vec<String> {
        let mut out = Vec::new();
        if b.ghoula != a.ghoula {
            let at = |g: Option<u8>| g.map_or("off the board".to_string(), |g| format!("idx {g}"));
            out.push(format!(
                "the Ghoula moves from {} to {}",
                at(b.ghoula),
                at(a.ghoula)
            ));
        }
        for seat in 0..self.seats() {
            let (pb, pa) = (b.pieces[seat], a.pieces[seat]);
            match (pb, pa) {
                (Piece::Racing(_), Piece::Buried(_)) => out.push(format!(
                    "P{}'s piece is buried: P{} is out",
                    seat + 1,
                    seat + 1
                )),
                (Piece::Racing(_), Piece::Arrived(_)) => {
                    out.push(format!("P{}'s piece reaches the Ka'aba", seat + 1))
                }
                (Piece::Racing(i), Piece::Racing(j)) if j < i => out.push(format!(
                    "the Ghoula drags P{}'s piece from idx {i} to idx {j}",
                    seat + 1
                )),
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

    /// The fast loop of `play_throws` (piece keys, one table lookup per throw, the Ghoula
    /// on the keys) against the throw-by-throw loop, from every position of many random
    /// games, with every seat count and option, and throw caps that cut games short.
    #[test]
    fn play_throws_plays_exactly_the_throw_by_throw_loop() {
        let mut rng = crate::Rng::seed_from_u64(15);
        let mut positions = 0;
        for seats in 2..=MAX_SEATS {
            for exact in [false, true] {
                for cap in [DEFAULT_MAX_THROWS, 60, 7] {
                    let mut game = SigWaDuqqan::with_seats(seats).unwrap();
                    game.exact_waiting_square = exact;
                    game.max_throws = cap;
                    positions += check_fast_loop(
                        &game,
                        |s, throw| {
                            game.play_throws_plainly(s, throw);
                        },
                        40,
                        &mut rng,
                        &format!("{seats} seats, exact {exact}, cap {cap}"),
                    );
                }
            }
        }
        assert!(positions > 100_000, "{positions} positions");
    }

    /// States `validate` rejects are played by the throw-by-throw loop, as before.
    #[test]
    fn play_throws_plays_states_the_keys_cannot_hold_throw_by_throw() {
        let game = SigWaDuqqan::with_seats(3).unwrap();
        let mut odd = Vec::new();
        let mut s = game.initial_state();
        s.sigs[1] = 3; // a sig count off the waiting square
        odd.push(s);
        let mut s = game.initial_state();
        s.pieces[0] = Piece::Racing(WAITING_SQUARE);
        s.sigs[0] = 9; // more sigs than the waiting square ever counts
        odd.push(s);
        let mut s = game.initial_state();
        s.pieces[2] = Piece::Racing(30); // off the track
        odd.push(s);
        let mut s = game.initial_state();
        s.turn = 5; // past the seats
        odd.push(s);
        let mut s = game.initial_state();
        s.ghoula = Some(17); // past idx 14
        s.pieces[0] = Piece::Arrived(1);
        odd.push(s);
        for (i, state) in odd.into_iter().enumerate() {
            assert!(keys(&state, 3).is_none(), "state {i}");
            let rng = crate::Rng::seed_from_u64(i as u64);
            let (mut fast, mut plain) = (state, state);
            let (mut a, mut b) = (rng.clone(), rng.clone());
            game.play_throws(&mut fast, || game.sample_throw(&mut a));
            game.play_throws_plainly(&mut plain, || game.sample_throw(&mut b));
            assert_eq!(fast, plain, "state {i}");
        }
    }
}
