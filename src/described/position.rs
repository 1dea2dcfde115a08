//! A described game's position written out, the way its state is read: [`Position`] (the
//! fields of the state's JSON), read by `State::try_from`, which names each problem as a
//! [`Problem`].

use core::fmt;

use super::compile::{MAX_PIECES, MAX_VALUE};
use super::state::{State, GONE, OFF, UNMOVED};
use crate::game::{InvalidState, ProblemKind, Problems, MAX_SEATS};

/// One piece of a [`Position`], as the state's JSON gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Piece {
    /// `a1` …, `off` (before the track) or `gone` (captured or out).
    pub at: String,
    /// The track position of a piece on a square.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub pos: Option<u8>,
    /// Whether the piece has not moved yet (locked).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_false"))]
    pub unmoved: bool,
    /// The description's named flags, bit by bit in their order (at most seven).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub flags: u8,
    /// The hold count.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub count: u8,
}

#[cfg(feature = "serde")]
fn is_false(b: &bool) -> bool {
    !*b
}

#[cfg(feature = "serde")]
fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A described game's position written out: the fields of its state's JSON, the way to
/// build a [`State`]. `State::try_from(position)` checks what a state can hold, naming each
/// problem as a [`Problem`]; what the game's rules allow is
/// [`Game::validate`](crate::Game::validate)'s check.
///
/// ```
/// use stickdice::described::{Piece, Position, Problem, State};
/// let on = |at: &str, pos: u8| Piece { at: at.into(), pos: Some(pos), ..Piece::default() };
/// let p = Position {
///     pieces: vec![vec![on("a1", 0)], vec![on("b2", 9)]],
///     ..Position::default()
/// };
/// let s = State::try_from(p.clone()).unwrap();
/// assert_eq!(s.position(), p);
/// let bad = Position { pending: Some(16), ..p };
/// let err = State::try_from(bad).unwrap_err();
/// assert_eq!(
///     err.kinds::<Problem>().collect::<Vec<_>>(),
///     [&Problem::PendingOutOfRange { white: 16 }]
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Position {
    /// Each side's pieces, the same number for every side.
    pub pieces: Vec<Vec<Piece>>,
    /// Each seat's stock of stored values (trailing zeros may be left out).
    #[cfg_attr(feature = "serde", serde(default))]
    pub stock: Vec<u8>,
    /// The pieces each seat has captured.
    #[cfg_attr(feature = "serde", serde(default))]
    pub captures: Vec<u8>,
    /// Each seat's place out (1 for the first out; 0: not out).
    #[cfg_attr(feature = "serde", serde(default))]
    pub out: Vec<u8>,
    /// The chaser's track position, if it is on the board.
    #[cfg_attr(feature = "serde", serde(default))]
    pub chaser: Option<u8>,
    /// The held values still to spend, with repeats.
    #[cfg_attr(feature = "serde", serde(default))]
    pub held: Vec<u8>,
    /// The throw made and not yet acted on (its marked sides up).
    #[cfg_attr(feature = "serde", serde(default))]
    pub pending: Option<u8>,
    /// Whether the seat to move is spending held values.
    #[cfg_attr(feature = "serde", serde(default))]
    pub spending: bool,
    /// Whether the game is in its opening.
    #[cfg_attr(feature = "serde", serde(default))]
    pub opening: bool,
    /// Whether the game has ended.
    #[cfg_attr(feature = "serde", serde(default))]
    pub ended: bool,
    /// The seat to throw or decide next.
    #[cfg_attr(feature = "serde", serde(default))]
    pub turn: u8,
    /// The throws made so far.
    #[cfg_attr(feature = "serde", serde(default))]
    pub throws: u32,
    /// Per seat: the burial step that buried it (0: not buried).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub buried: Vec<u8>,
    /// Whether a self-steering chaser has made its first move.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_false"))]
    pub chaser_moved: bool,
}

/// A list of a [`Position`] with one entry per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SeatList {
    /// `stock`.
    Stock,
    /// `captures`.
    Captures,
    /// `out`.
    Out,
    /// `buried`.
    Buried,
}

impl fmt::Display for SeatList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SeatList::Stock => "stock",
            SeatList::Captures => "captures",
            SeatList::Out => "out",
            SeatList::Buried => "buried",
        })
    }
}

/// What can be wrong with a described game's [`Position`]: the problems `State::try_from`
/// reports (read back with [`InvalidState::kinds`]), each with the field, side (0-based:
/// P1 is side 0), piece (0-based within its side) or value concerned. `Display` gives the
/// sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// `pieces` lists no side, or a side with no piece.
    NoPieces,
    /// A side lists another number of pieces than side 0.
    UnevenSides {
        /// The side.
        side: usize,
        /// Its pieces.
        pieces: usize,
        /// Side 0's pieces.
        expected: usize,
    },
    /// More pieces in all than a described game holds.
    TooManyPieces {
        /// The pieces listed.
        pieces: usize,
        /// The most a game holds.
        max: usize,
    },
    /// A piece's `at` is not a square, `off` or `gone`.
    NotASquare {
        /// The side.
        side: usize,
        /// The piece.
        piece: usize,
        /// What `at` says.
        at: String,
    },
    /// A piece on a square without its track position `pos`.
    NoTrackPosition {
        /// The side.
        side: usize,
        /// The piece.
        piece: usize,
        /// Its square.
        square: String,
    },
    /// A piece's track position is past any track.
    TrackPositionOutOfRange {
        /// The side.
        side: usize,
        /// The piece.
        piece: usize,
        /// The position given.
        pos: u8,
    },
    /// A piece's `flags` has the bit `unmoved` stands for.
    FlagsOutOfRange {
        /// The side.
        side: usize,
        /// The piece.
        piece: usize,
        /// The flags given.
        flags: u8,
    },
    /// A list with one entry per seat has more entries than a game has seats.
    TooManyEntries {
        /// The list.
        list: SeatList,
        /// Its entries.
        entries: usize,
    },
    /// The chaser's track position is past any track.
    ChaserOutOfRange {
        /// The position given.
        pos: u8,
    },
    /// A held value larger than any throw's.
    HeldOutOfRange {
        /// The value given.
        value: u8,
    },
    /// A pending throw of more marked sides than any game's sticks.
    PendingOutOfRange {
        /// The marked sides given.
        white: u8,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let piece = |side: usize, piece: usize| format!("P{}'s piece {}", side + 1, piece + 1);
        match self {
            Problem::NoPieces => f.write_str(
                "`pieces` lists no piece: it lists each side's pieces, the same number for every side",
            ),
            Problem::UnevenSides {
                side,
                pieces,
                expected,
            } => write!(
                f,
                "`pieces` lists {pieces} pieces for P{} and {expected} for P1: every side has the same number",
                side + 1
            ),
            Problem::TooManyPieces { pieces, max } => write!(
                f,
                "`pieces` lists {pieces} pieces in all; a described game has at most {max}"
            ),
            Problem::NotASquare { side, piece: k, at } => write!(
                f,
                "{}: `{at}` is not a square, `off` or `gone`",
                piece(*side, *k)
            ),
            Problem::NoTrackPosition {
                side,
                piece: k,
                square,
            } => write!(
                f,
                "{} on {square} needs its track position `pos`",
                piece(*side, *k)
            ),
            Problem::TrackPositionOutOfRange { side, piece: k, pos } => write!(
                f,
                "{}: track position {pos} is out of range: expected 0 to {}",
                piece(*side, *k),
                OFF - 1
            ),
            Problem::FlagsOutOfRange { side, piece: k, flags } => write!(
                f,
                "{}: flags {flags} out of range: expected 0 to {} (an unmoved piece says `unmoved`)",
                piece(*side, *k),
                UNMOVED - 1
            ),
            Problem::TooManyEntries { list, entries } => write!(
                f,
                "`{list}` has too many entries: {entries}, one per seat, at most {MAX_SEATS}"
            ),
            Problem::ChaserOutOfRange { pos } => write!(
                f,
                "chaser position {pos} is out of range: expected 0 to {}",
                OFF - 1
            ),
            Problem::HeldOutOfRange { value } => write!(
                f,
                "held value {value} is out of range: expected 0 to {MAX_VALUE}"
            ),
            Problem::PendingOutOfRange { white } => write!(
                f,
                "pending throw {white} is out of range: expected 0 to 15 marked sides"
            ),
        }
    }
}

impl ProblemKind for Problem {}

impl TryFrom<Position> for State {
    type Error = InvalidState;

    /// The state of these parts.
    ///
    /// # Errors
    /// [`InvalidState`] listing every [`Problem`]: no piece, sides of different sizes or
    /// more pieces than a game holds (then nothing else is read), a piece's `at` that is not
    /// a square, `off` or `gone`, a piece on a square without its track position, a track,
    /// chaser, held or pending value out of range, a flag bit that is `unmoved`'s, a list
    /// longer than the seats. What the game allows is
    /// [`Game::validate`](crate::Game::validate)'s check.
    fn try_from(p: Position) -> Result<State, InvalidState> {
        let mut problems = Problems::new();
        let mut s = State::EMPTY;
        match layout(&p.pieces) {
            Ok((sides, pps)) => {
                s.layout = (sides as u8, pps as u8);
                for (side, list) in p.pieces.iter().enumerate() {
                    for (i, piece) in list.iter().enumerate() {
                        place(&mut s, side, i, side * pps + i, piece, &mut problems);
                    }
                }
            }
            Err(problem) => problems.push(problem),
        }
        let mut copy = |dst: &mut [u8], src: &[u8], list: SeatList| {
            if src.len() > dst.len() {
                problems.push(Problem::TooManyEntries {
                    list,
                    entries: src.len(),
                });
            } else {
                dst[..src.len()].copy_from_slice(src);
            }
        };
        copy(&mut s.stock, &p.stock, SeatList::Stock);
        copy(&mut s.captures, &p.captures, SeatList::Captures);
        copy(&mut s.out_place, &p.out, SeatList::Out);
        copy(&mut s.burials, &p.buried, SeatList::Buried);
        s.outs = s.out_place.iter().filter(|&&p| p != 0).count() as u8;
        s.buried = s.burials.iter().filter(|&&b| b != 0).count() as u8;
        s.chaser_moved = p.chaser_moved;
        s.chaser = match p.chaser {
            Some(pos) if pos >= OFF => {
                problems.push(Problem::ChaserOutOfRange { pos });
                GONE
            }
            Some(pos) => pos,
            None => GONE,
        };
        for &value in &p.held {
            match s.held.get_mut(value as usize) {
                Some(slot) => *slot = slot.saturating_add(1),
                None => problems.push(Problem::HeldOutOfRange { value }),
            }
        }
        s.spending = p.spending;
        s.pending = match p.pending {
            Some(white) if white >= 16 => {
                problems.push(Problem::PendingOutOfRange { white });
                GONE
            }
            Some(white) => white,
            None => GONE,
        };
        s.opening = p.opening;
        s.ended = p.ended;
        s.turn = p.turn;
        s.throws = p.throws;
        problems.finish()?;
        // The sets of pieces (on the board, in the game, unmoved) are derived, never read.
        s.derive_sets();
        Ok(s)
    }
}

/// The number of sides and of pieces per side `pieces` lists, if it lists a layout a
/// state holds.
fn layout(pieces: &[Vec<Piece>]) -> Result<(usize, usize), Problem> {
    let sides = pieces.len();
    let pps = pieces.first().map_or(0, Vec::len);
    if sides == 0 || pps == 0 {
        return Err(Problem::NoPieces);
    }
    if let Some((side, list)) = pieces.iter().enumerate().find(|(_, l)| l.len() != pps) {
        return Err(Problem::UnevenSides {
            side,
            pieces: list.len(),
            expected: pps,
        });
    }
    if sides * pps > MAX_PIECES {
        return Err(Problem::TooManyPieces {
            pieces: sides * pps,
            max: MAX_PIECES,
        });
    }
    Ok((sides, pps))
}

/// Puts `side`'s piece number `i` (`k` of the state) where `piece` says.
fn place(s: &mut State, side: usize, i: usize, k: usize, piece: &Piece, problems: &mut Problems) {
    match piece.at.as_str() {
        "gone" => {
            s.pos[k] = GONE;
            s.sq[k] = GONE;
        }
        "off" => {
            s.pos[k] = OFF;
            s.sq[k] = GONE;
        }
        at => {
            let Some(code) = super::action::parse_square(at) else {
                problems.push(Problem::NotASquare {
                    side,
                    piece: i,
                    at: at.to_string(),
                });
                return;
            };
            match piece.pos {
                None => problems.push(Problem::NoTrackPosition {
                    side,
                    piece: i,
                    square: at.to_string(),
                }),
                Some(pos) if pos >= OFF => problems.push(Problem::TrackPositionOutOfRange {
                    side,
                    piece: i,
                    pos,
                }),
                Some(pos) => {
                    s.pos[k] = pos;
                    s.sq[k] = code;
                    if side < 2 {
                        s.occ[side].set(code);
                    }
                }
            }
        }
    }
    if piece.flags & UNMOVED != 0 {
        problems.push(Problem::FlagsOutOfRange {
            side,
            piece: i,
            flags: piece.flags,
        });
    }
    s.flags[k] = piece.flags | if piece.unmoved { UNMOVED } else { 0 };
    s.count[k] = piece.count;
}

impl From<State> for Position {
    fn from(s: State) -> Position {
        s.position()
    }
}

impl State {
    /// The state's parts.
    pub fn position(&self) -> Position {
        let (sides, pps) = (self.layout.0 as usize, self.layout.1 as usize);
        let pieces = (0..sides)
            .map(|side| {
                (side * pps..(side + 1) * pps)
                    .map(|k| Piece {
                        at: match self.pos[k] {
                            GONE => "gone".into(),
                            OFF => "off".into(),
                            _ => super::show(self.sq[k]),
                        },
                        pos: (self.pos[k] < OFF).then_some(self.pos[k]),
                        unmoved: self.flags[k] & UNMOVED != 0,
                        flags: self.flags[k] & !UNMOVED,
                        count: self.count[k],
                    })
                    .collect()
            })
            .collect();
        let trim = |v: &[u8]| {
            let n = v.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
            v[..n].to_vec()
        };
        Position {
            pieces,
            stock: trim(&self.stock),
            captures: trim(&self.captures),
            out: trim(&self.out_place),
            chaser: (self.chaser != GONE).then_some(self.chaser),
            held: self.held(),
            pending: (self.pending != GONE).then_some(self.pending),
            spending: self.spending,
            opening: self.opening,
            ended: self.ended,
            turn: self.turn,
            throws: self.throws,
            buried: trim(&self.burials),
            chaser_moved: self.chaser_moved,
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for State {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.position().serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for State {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let p = Position::deserialize(deserializer)?;
        State::try_from(p).map_err(serde::de::Error::custom)
    }
}
