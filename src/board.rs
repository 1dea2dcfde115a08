//! Board geometry: what a front end needs to draw each game, given by the game itself.
//!
//! A [`Board`] game describes its board once ([`Board::geometry`]: every square with its
//! position on the drawing, its label and name, the track or circuit order, each seat's
//! start square, the arrows of the direction of travel, the sticks' two faces) and, for
//! any state, where its pieces stand ([`Board::pieces`]), which square each legal action
//! moves from and to ([`Board::moves`]) and, in words, what an action or a throw changed
//! ([`Board::describe_action`], [`Board::describe_change`]). So a drawing front end (the
//! web page of `stickdice web`) knows no rule of any game, and a new game brings its own
//! drawing data.
//!
//! Positions are in cell units: a square is a unit cell whose top-left corner is
//! `(x, y)`, `x` to the right and `y` downwards, inside a `width` × `height` drawing.

use crate::game::{ActionList, Game, Seat};
use crate::games::duqqan::DuqqanPiece as _;
use crate::games::issiren::{self, circuit_square, throw_value};
use crate::games::sig_el_oued::{self, PIECE_NAMES};
use crate::games::sig_el_oued_capture::{self as capture, Pending as CapturePending};
use crate::games::sig_wa_duqqan::{self, Piece as DuqqanPiece};
use crate::games::{Issiren, SigElOued, SigElOuedCapture, SigWaDuqqan};
use crate::Throw;

/// One square of a board.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SquareInfo {
    /// The column of the cell's left edge (cell units).
    pub x: f64,
    /// The row of the cell's top edge (cell units, downwards).
    pub y: f64,
    /// The square's label: its notation (`c1`) or its idx on the track (`14`).
    pub label: String,
    /// The square's name where the game gives it one (the Ka'aba, Mecca, the Minaret…).
    pub name: Option<&'static str>,
    /// Whether the square is special in the rules (a sig square, the waiting square, the
    /// goal), for highlighting.
    pub special: bool,
}

/// A track or circuit: the squares in the order the pieces travel them.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Track {
    /// The seat whose circuit this is, or `None` for a track every seat shares.
    pub seat: Option<Seat>,
    /// Indices into [`BoardGeometry::squares`], in order of travel (a circuit may cross
    /// a square more than once).
    pub squares: Vec<usize>,
    /// Where travel goes on after the last square: the position in [`Track::squares`] it
    /// leads back to (`Some(0)` for a circuit that loops back to its start forever,
    /// `Some(12)` for Siryu (War)'s circuit, whose last square leads back to its 13th), or
    /// `None` for a track that ends (a race's goal).
    pub loops_to: Option<usize>,
}

/// What a decision names, for a front end that lets a person click a piece: how to turn a
/// click on a piece into the action that would move it (and let the rules say why not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ChosenBy {
    /// An action names the square of the piece it moves: its notation is the square's
    /// [`SquareInfo::label`] (Issiren, the capture games).
    Square,
    /// An action names the piece it moves: its notation is the piece's
    /// [`PlacedPiece::kind`] (Siryu (Race)'s `father`, `angel`, `mother`).
    Piece,
    /// The throws move the pieces: no action names a piece (a decision, where there is
    /// one, chooses among the game's other actions, such as Sig (El Oued)'s `free_all`).
    Throws,
}

/// An arrow of the direction of travel, from one point to another (cell units).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Arrow {
    /// Tail x.
    pub x1: f64,
    /// Tail y.
    pub y1: f64,
    /// Head x.
    pub x2: f64,
    /// Head y.
    pub y2: f64,
}

/// The two faces of the sticks: what counts as marked (a throw is the number of marked
/// sides up), and what the other side is.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StickFaces {
    /// How many sticks are thrown.
    pub count: u8,
    /// The marked side, as the rules name it (`white`, `polished`, `green`).
    pub marked: &'static str,
    /// The other side (`green`, `rough`, `white`).
    pub unmarked: &'static str,
}

/// Everything static about a game's board.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BoardGeometry {
    /// The drawing's width, in cells.
    pub width: f64,
    /// The drawing's height, in cells.
    pub height: f64,
    /// Every square.
    pub squares: Vec<SquareInfo>,
    /// The tracks: one shared track, or one circuit per seat.
    pub tracks: Vec<Track>,
    /// What a decision names: the square of a piece, a piece, or nothing on the board.
    pub chosen_by: ChosenBy,
    /// Each seat's start square (index into `squares`).
    pub starts: Vec<usize>,
    /// The direction of travel, drawn as arrows.
    pub arrows: Vec<Arrow>,
    /// The sticks.
    pub sticks: StickFaces,
    /// What the pieces' letters and marks mean, for a legend.
    pub legend: &'static str,
}

/// A piece where it stands (or off the board).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlacedPiece {
    /// Its square (index into [`BoardGeometry::squares`]), or `None` off the board (the
    /// Ghoula before its first step, a buried piece).
    pub square: Option<usize>,
    /// Its owner, or `None` for a neutral piece (the Ghoula).
    pub seat: Option<Seat>,
    /// What kind of piece (`piece`, `father`, `djinn`, `mother`, `ghoula`).
    pub kind: &'static str,
    /// A short letter drawn on it (`F`, `D`, `M`, `G`), empty for plain pieces.
    pub letter: &'static str,
    /// Whether it is the piece its owner's throws move now (where a game has one).
    pub active: bool,
    /// A mark of its status for the drawing: `unmoved`, `returning` (Issiren), `buried`,
    /// `arrived`, `waiting` (Sig wa Duqqan's waiting square), or empty.
    pub status: &'static str,
    /// Its state in words (`P1's father on idx 7, active`), for tooltips and tests.
    pub text: String,
}

/// What a legal action moves: from which square to which.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BoardMove {
    /// The action, in notation.
    pub action: String,
    /// The square of the piece it moves, if it moves one.
    pub from: Option<usize>,
    /// The square that piece lands on.
    pub to: Option<usize>,
}

/// A game that can be drawn: geometry, pieces and moves, all from the rules.
pub trait Board: Game {
    /// The board's squares, tracks, arrows and sticks.
    fn geometry(&self) -> BoardGeometry;
    /// Every piece of every seat in play (and neutral pieces), where it stands.
    fn pieces(&self, state: &Self::State) -> Vec<PlacedPiece>;
    /// For each legal action (in [`Game::legal_actions`] order), what it moves.
    fn moves(&self, state: &Self::State) -> Vec<BoardMove> {
        let mut legal = ActionList::new();
        self.legal_actions(state, &mut legal);
        legal
            .iter()
            .map(|a| BoardMove {
                action: a.to_string(),
                from: None,
                to: None,
            })
            .collect()
    }
    /// In words, what `action` does from `state` (who moved what where, captures).
    fn describe_action(&self, state: &Self::State, action: Self::Action) -> String;
    /// In words, what changed on the board between two states (pieces sent home,
    /// captured, buried, arrived; the Ghoula's walk): the consequences of one throw or
    /// action. Empty when nothing but the moving piece changed.
    fn describe_change(&self, before: &Self::State, after: &Self::State) -> Vec<String>;
}

/// A square's drawing data.
pub(crate) fn cell(
    x: f64,
    y: f64,
    label: String,
    name: Option<&'static str>,
    special: bool,
) -> SquareInfo {
    SquareInfo {
        x,
        y,
        label,
        name,
        special,
    }
}

/// Arrows between consecutive squares of a track, one per run in the same direction.
pub(crate) fn track_arrows(squares: &[SquareInfo], order: &[usize]) -> Vec<Arrow> {
    let mut arrows = Vec::new();
    let mut start = 0;
    for i in 1..=order.len() {
        let bends = i == order.len() || {
            let (a, b, c) = (
                &squares[order[i - 1]],
                &squares[order[i.saturating_sub(2).max(start)]],
                &squares[order[i]],
            );
            let d1 = (a.x - b.x, a.y - b.y);
            let d2 = (c.x - a.x, c.y - a.y);
            i - start >= 2 && (d1.0 * d2.1 - d1.1 * d2.0).abs() > 1e-6
        };
        if bends {
            let (a, b) = (&squares[order[start]], &squares[order[i - 1]]);
            if i - 1 > start {
                arrows.push(Arrow {
                    x1: a.x + 0.5,
                    y1: a.y + 0.5,
                    x2: b.x + 0.5,
                    y2: b.y + 0.5,
                });
            }
            start = i - 1;
        }
    }
    arrows
}

// ---- Sig wa Duqqan --------------------------------------------------------------------

impl Board for SigWaDuqqan {
    fn geometry(&self) -> BoardGeometry {
        sig_wa_duqqan::LAYOUT.geometry(
            sig_wa_duqqan::TRACK_LEN,
            |idx| {
                let (row, col) = sig_wa_duqqan::square_cell(idx);
                ((col + 4) as f64, (3 - row) as f64)
            },
            (8.0, 4.0),
            self.seats(),
            "one piece per seat (its number and shape); G = the Ghoula, the neutral \
             piece that drags pieces back and buries them at the start; a piece's \
             tooltip gives its sig count on the waiting square",
        )
    }

    fn pieces(&self, s: &sig_wa_duqqan::State) -> Vec<PlacedPiece> {
        let mut out: Vec<PlacedPiece> = (0..self.seats())
            .map(|seat| {
                sig_wa_duqqan::LAYOUT.placed_piece(seat, s.pieces[seat].place(), s.sigs[seat])
            })
            .collect();
        out.push(PlacedPiece {
            square: s.ghoula.map(usize::from),
            seat: None,
            kind: "ghoula",
            letter: "G",
            active: false,
            status: "",
            text: match s.ghoula {
                Some(g) => format!("the Ghoula on idx {g}"),
                None => "the Ghoula off the board, before the start".to_string(),
            },
        });
        out
    }

    fn describe_action(&self, _: &sig_wa_duqqan::State, action: Self::Action) -> String {
        match action {}
    }

    fn describe_change(&self, b: &sig_wa_duqqan::State, a: &sig_wa_duqqan::State) -> Vec<String> {
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
                (DuqqanPiece::Racing(_), DuqqanPiece::Buried(_)) => out.push(format!(
                    "P{}'s piece is buried: P{} is out",
                    seat + 1,
                    seat + 1
                )),
                (DuqqanPiece::Racing(_), DuqqanPiece::Arrived(_)) => {
                    out.push(format!("P{}'s piece reaches the Ka'aba", seat + 1))
                }
                (DuqqanPiece::Racing(i), DuqqanPiece::Racing(j)) if j < i => out.push(format!(
                    "the Ghoula drags P{}'s piece from idx {i} to idx {j}",
                    seat + 1
                )),
                _ => {}
            }
        }
        out
    }
}

// ---- Sig (El Oued) --------------------------------------------------------------------

impl Board for SigElOued {
    fn geometry(&self) -> BoardGeometry {
        let squares: Vec<SquareInfo> = (0..sig_el_oued::TRACK_LEN as u8)
            .map(|idx| {
                let (row, col) = sig_el_oued::square_cell(idx).unwrap_or((0, 0));
                cell(
                    col as f64,
                    (10 - row) as f64,
                    idx.to_string(),
                    sig_el_oued::square_name(idx),
                    sig_el_oued::is_sig_square(idx),
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
            starts: vec![sig_el_oued::START as usize; self.seats()],
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

    fn pieces(&self, s: &sig_el_oued::State) -> Vec<PlacedPiece> {
        const LETTERS: [&str; 3] = ["F", "D", "M"];
        let mut out = Vec::new();
        for seat in 0..self.seats() {
            let active = s.active_piece(seat);
            for (k, &idx) in s.pieces[seat].iter().enumerate() {
                // Pieces are stored by their order of play, not their kind: Mecca first,
                // then the active piece, then the start. The kind is the play order: the
                // father walks first, then the djinn, then the mother.
                let kind = k;
                let where_ = match sig_el_oued::square_name(idx) {
                    Some(name) if idx == sig_el_oued::START => format!("on the {name}"),
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
                    status: if idx == sig_el_oued::MECCA {
                        "arrived"
                    } else {
                        ""
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

    fn describe_action(&self, s: &sig_el_oued::State, action: Self::Action) -> String {
        let seat = s.turn as usize;
        // At the choice the arrived piece is on Mecca, so the active piece is the next.
        let next = s
            .active_piece(seat)
            .and_then(|k| PIECE_NAMES.get(k))
            .copied()
            .unwrap_or("next piece");
        // The rest left at Mecca, in half points, as the choice offers it.
        let rest = match s.pending {
            sig_el_oued::Pending::Leftover { rest } => format!(
                "{} {}",
                sig_el_oued::half_points(rest),
                sig_el_oued::points_word(rest)
            ),
            _ => "points".to_string(),
        };
        match action {
            sig_el_oued::Action::Use => {
                format!(
                    "P{} uses the {rest} left at Mecca to walk the {next} off the start",
                    seat + 1
                )
            }
            sig_el_oued::Action::Decline => {
                format!(
                    "P{} declines the {rest} left at Mecca (a declined rest is lost)",
                    seat + 1
                )
            }
        }
    }

    fn describe_change(&self, b: &sig_el_oued::State, a: &sig_el_oued::State) -> Vec<String> {
        let mut out = Vec::new();
        for seat in 0..self.seats() {
            for (k, name) in PIECE_NAMES.iter().enumerate() {
                let (i, j) = (b.pieces[seat][k], a.pieces[seat][k]);
                if j == sig_el_oued::START && i != sig_el_oued::START && i != sig_el_oued::MECCA {
                    out.push(format!(
                        "P{}'s {} is passed on idx {i} and sent back to the start",
                        seat + 1,
                        name
                    ));
                } else if j != i && j == sig_el_oued::MECCA {
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

// ---- Issiren --------------------------------------------------------------------------

/// The cells of a grid whose first row is P1's home row and last row P2's (Issiren's,
/// Sig (El Oued Capture)'s), drawn with row 0 at the bottom: `square(i)` gives square
/// index `i`'s row, column and label.
fn home_rows_grid(count: u8, rows: u8, square: impl Fn(u8) -> (u8, u8, String)) -> Vec<SquareInfo> {
    (0..count)
        .map(|i| {
            let (row, col, label) = square(i);
            let name = match row {
                0 => Some("P1's home row"),
                r if r + 1 == rows => Some("P2's home row"),
                _ => None,
            };
            cell(col as f64, (rows - 1 - row) as f64, label, name, false)
        })
        .collect()
}

/// A piece on a looping circuit (Issiren's, Sig (El Oued Capture)'s): on square index
/// `square`, written `name`, at circuit position `pos`; dashed while `unmoved`, else marked
/// where `returning` gives the words for its part of the lap.
fn circuit_piece(
    square: usize,
    name: &dyn core::fmt::Display,
    seat: usize,
    pos: u8,
    unmoved: bool,
    returning: Option<&'static str>,
) -> PlacedPiece {
    let (status, note) = match (unmoved, returning) {
        (true, _) => ("unmoved", ", unmoved"),
        (false, Some(words)) => ("returning", words),
        (false, None) => ("", ""),
    };
    PlacedPiece {
        square: Some(square),
        seat: Some(seat),
        kind: "piece",
        letter: "",
        active: false,
        status,
        text: format!(
            "P{}'s piece on {name} (circuit position {pos}){note}",
            seat + 1
        ),
    }
}

/// The geometry index of an Issiren square: its own index (`row * 12 + col`).
fn issiren_index(sq: issiren::Square) -> usize {
    sq.index() as usize
}

impl Board for Issiren {
    fn geometry(&self) -> BoardGeometry {
        let squares = home_rows_grid(issiren::ROWS * issiren::COLS, issiren::ROWS, |i| {
            let sq = issiren::Square::from_index(i).expect("on the board");
            (sq.row(), sq.col(), sq.to_string())
        });
        let tracks: Vec<Track> = (0..2)
            .map(|seat| Track {
                seat: Some(seat),
                squares: (0..issiren::CIRCUIT_LEN)
                    .filter_map(|p| circuit_square(seat, p).map(issiren_index))
                    .collect(),
                loops_to: Some(0),
            })
            .collect();
        // Every row is crossed in one direction by both seats: one arrow per row.
        let arrows = (0..issiren::ROWS)
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

    fn pieces(&self, s: &issiren::State) -> Vec<PlacedPiece> {
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

    fn moves(&self, s: &issiren::State) -> Vec<BoardMove> {
        let mut legal = ActionList::new();
        self.legal_actions(s, &mut legal);
        let seat = (s.turn() & 1) as usize;
        let steps = s.pending().and_then(throw_value).unwrap_or(0);
        legal
            .iter()
            .map(|&a| {
                let (from, to) = match a {
                    issiren::Action::Move(sq) => {
                        let to = s
                            .pieces_of(seat)
                            .iter()
                            .find(|p| circuit_square(seat, p.pos) == Some(sq))
                            .and_then(|p| {
                                circuit_square(seat, (p.pos + steps) % issiren::CIRCUIT_LEN)
                            });
                        (Some(issiren_index(sq)), to.map(issiren_index))
                    }
                    issiren::Action::Pass => (None, None),
                };
                BoardMove {
                    action: a.to_string(),
                    from,
                    to,
                }
            })
            .collect()
    }

    fn describe_action(&self, s: &issiren::State, action: Self::Action) -> String {
        let seat = (s.turn() & 1) as usize;
        let mut after = *s;
        if self.apply_action(&mut after, action).is_err() {
            return format!("P{} cannot play {action} here", seat + 1);
        }
        match action {
            issiren::Action::Pass => format!("P{} passes: no piece can move", seat + 1),
            issiren::Action::Move(from) => {
                let to = self
                    .moves(s)
                    .into_iter()
                    .find(|m| m.action == action.to_string())
                    .and_then(|m| m.to)
                    .and_then(|i| issiren::Square::from_index(i as u8));
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

    fn describe_change(&self, b: &issiren::State, a: &issiren::State) -> Vec<String> {
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

// ---- Sig (El Oued Capture) -------------------------------------------------------------

impl Board for SigElOuedCapture {
    fn geometry(&self) -> BoardGeometry {
        let squares = home_rows_grid(capture::ROWS * capture::COLS, capture::ROWS, |i| {
            let sq = capture::Square::from_index(i).expect("on the board");
            (sq.row(), sq.col(), sq.to_string())
        });
        let tracks: Vec<Track> = (0..2)
            .map(|seat| Track {
                seat: Some(seat),
                squares: (0..capture::CIRCUIT_LEN)
                    .filter_map(|p| capture::circuit_square(seat, p).map(|q| q.index() as usize))
                    .collect(),
                loops_to: Some(0),
            })
            .collect();
        // The two sides cross every row in opposite directions: P1's arrow in the lower half
        // of each row, P2's in the upper half.
        let mut arrows = Vec::new();
        for row in 0..capture::ROWS {
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
            .map(|seat| capture::circuit_square(seat, 0).map_or(0, |q| q.index() as usize))
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

    fn pieces(&self, s: &capture::State) -> Vec<PlacedPiece> {
        let mut out = Vec::new();
        for seat in 0..2 {
            for p in s.pieces_of(seat) {
                let Some(sq) = capture::circuit_square(seat, p.pos) else {
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

    fn moves(&self, s: &capture::State) -> Vec<BoardMove> {
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

    fn describe_action(&self, s: &capture::State, action: Self::Action) -> String {
        let seat = s.turn();
        let p = seat + 1;
        let mut after = *s;
        if self.apply_action(&mut after, action).is_err() {
            return format!("P{p} cannot play {action} here");
        }
        let taken = s.count(1 - seat) - after.count(1 - seat);
        let mut text = match (action, self.action_squares(s, action)) {
            (capture::Action::Pass, _) | (_, None) => format!("P{p} passes: nothing can move"),
            (capture::Action::FreeAll, Some((_, to))) => format!(
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
        if matches!(s.pending(), CapturePending::Sig { .. }) && taken < s.count(1 - seat) {
            text.push_str("; the sig gives another lead throw");
        }
        text
    }

    fn describe_change(&self, b: &capture::State, a: &capture::State) -> Vec<String> {
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

/// The name a throw's count gives the marked sides of `faces`: `3 white sides up`.
pub fn sides_up(faces: &StickFaces, throw: Throw) -> String {
    let k = throw.marked();
    match k {
        0 => format!("no {} side up", faces.marked),
        1 => format!("1 {} side up", faces.marked),
        _ => format!("{k} {} sides up", faces.marked),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Node;

    fn shared_track_is_connected(g: &BoardGeometry) {
        let t = &g.tracks[0];
        for w in t.squares.windows(2) {
            let (a, b) = (&g.squares[w[0]], &g.squares[w[1]]);
            let d = (a.x - b.x).abs() + (a.y - b.y).abs();
            assert_eq!(d, 1.0, "{} to {} is not one step", a.label, b.label);
        }
    }

    fn inside(g: &BoardGeometry) {
        for s in &g.squares {
            assert!(s.x >= 0.0 && s.x + 1.0 <= g.width, "{}", s.label);
            assert!(s.y >= 0.0 && s.y + 1.0 <= g.height, "{}", s.label);
        }
        let mut cells: Vec<(i32, i32)> =
            g.squares.iter().map(|s| (s.x as i32, s.y as i32)).collect();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), g.squares.len(), "two squares share a cell");
    }

    #[test]
    fn sig_wa_duqqan_is_a_4x4_grid_with_four_squares_left_of_the_bottom_row() {
        let g = SigWaDuqqan::with_seats(3).unwrap().geometry();
        inside(&g);
        shared_track_is_connected(&g);
        assert_eq!(g.squares.len(), 20);
        // The start is the grid's top-left corner; the Ka'aba is the far left end of the
        // extension, on the bottom row.
        assert_eq!((g.squares[0].x, g.squares[0].y), (4.0, 0.0));
        assert_eq!(g.squares[19].name, Some("Ka'aba"));
        assert_eq!((g.squares[19].x, g.squares[19].y), (0.0, 3.0));
        assert_eq!(g.squares[14].name, Some("waiting square"));
        let grid = g.squares.iter().filter(|s| s.x >= 4.0).count();
        assert_eq!(grid, 16);
        assert_eq!(g.starts, vec![0, 0, 0]);
        assert_eq!(g.sticks.count, 4);
    }

    #[test]
    fn sig_el_oued_is_a_5x5_grid_with_the_minaret_at_its_centre_and_a_tower_to_mecca() {
        let g = SigElOued::with_seats(2).unwrap().geometry();
        inside(&g);
        shared_track_is_connected(&g);
        assert_eq!(g.squares.len(), 31);
        let minaret = &g.squares[12];
        assert_eq!(minaret.name, Some("Minaret"));
        assert_eq!((minaret.x, minaret.y), (2.0, 8.0));
        // The six squares rise from the top-right corner (idx 24) and end in Cairo,
        // Medina and Mecca.
        for idx in 25..=30 {
            assert_eq!(g.squares[idx].x, 4.0);
            assert!(g.squares[idx].y < g.squares[24].y);
        }
        let names: Vec<_> = (28..=30).map(|i| g.squares[i].name.unwrap()).collect();
        assert_eq!(names, ["Cairo", "Medina", "Mecca"]);
    }

    #[test]
    fn issiren_is_4x12_with_a_72_step_circuit_per_seat() {
        let game = Issiren::with_seats(2).unwrap();
        let g = game.geometry();
        inside(&g);
        assert_eq!(g.squares.len(), 48);
        assert_eq!(g.tracks.len(), 2);
        for t in &g.tracks {
            assert_eq!(t.squares.len(), 72);
            assert_eq!(t.loops_to, Some(0));
            // Every square is crossed; rows 2 and 3 twice.
            for sq in 0..48 {
                let n = t.squares.iter().filter(|&&s| s == sq).count();
                assert!(n == 1 || n == 2);
            }
        }
        assert_eq!(g.squares[g.starts[0]].label, "l1");
        assert_eq!(g.squares[g.starts[1]].label, "a4");
        let pieces = game.pieces(&game.initial_state());
        assert_eq!(pieces.len(), 24);
        assert!(pieces.iter().all(|p| p.status == "unmoved"));
    }

    #[test]
    fn issiren_moves_name_where_each_legal_action_lands() {
        let game = Issiren::with_seats(2).unwrap();
        let mut s = game.initial_state();
        game.apply_throw(&mut s, Throw::new(4)).unwrap();
        let moves = game.moves(&s);
        assert_eq!(moves.len(), 1, "{moves:?}");
        let g = game.geometry();
        let m = &moves[0];
        assert_eq!(m.action, "a1");
        assert_eq!(g.squares[m.from.unwrap()].label, "a1");
        assert_eq!(g.squares[m.to.unwrap()].label, "a2");
        let a = game.parse_action("a1").unwrap();
        assert_eq!(
            game.describe_action(&s, a),
            "P1 moves the piece on a1 to a2"
        );
        // The landing square agrees with the rules' own move.
        let mut after = s;
        game.apply_action(&mut after, a).unwrap();
        let landed: Vec<_> = game
            .pieces(&after)
            .into_iter()
            .filter(|p| p.seat == Some(0) && p.status != "unmoved")
            .collect();
        assert_eq!(landed.len(), 1);
        assert_eq!(landed[0].square, m.to);
    }

    #[test]
    fn moves_land_where_the_rules_put_the_piece_in_random_issiren_games() {
        use rand::{RngExt as _, SeedableRng};
        let game = Issiren::with_seats(2).unwrap();
        let mut rng = crate::Rng::seed_from_u64(5);
        let mut s = game.initial_state();
        let mut checked = 0;
        while checked < 2000 {
            match game.node(&s) {
                Node::End => s = game.initial_state(),
                Node::Throw(_) => {
                    let k = (0..6).filter(|_| rng.random::<bool>()).count() as u8;
                    game.apply_throw(&mut s, Throw::new(k)).unwrap();
                }
                Node::Decide(seat) => {
                    let moves = game.moves(&s);
                    let m = &moves[rng.random_range(0..moves.len())];
                    let a = game.parse_action(&m.action).unwrap();
                    let mut after = s;
                    game.apply_action(&mut after, a).unwrap();
                    if let Some(to) = m.to {
                        let there: Vec<_> = game
                            .pieces(&after)
                            .into_iter()
                            .filter(|p| p.square == Some(to))
                            .collect();
                        assert_eq!(there.len(), 1);
                        assert_eq!(there[0].seat, Some(seat));
                    }
                    s = after;
                    checked += 1;
                }
            }
        }
    }

    /// A track that goes on past its last square goes on one orthogonal step away, to the
    /// square `loops_to` names.
    fn loop_is_one_step(g: &BoardGeometry) {
        for t in &g.tracks {
            let Some(k) = t.loops_to else { continue };
            assert!(k < t.squares.len());
            let (a, b) = (
                &g.squares[*t.squares.last().unwrap()],
                &g.squares[t.squares[k]],
            );
            let d = (a.x - b.x).abs() + (a.y - b.y).abs();
            assert_eq!(d, 1.0, "{} to {} is not one step", a.label, b.label);
        }
    }

    /// In random games, the piece of every legal move that moves one is named as
    /// `chosen_by` says, and that name is an action of the game: its square's label, or the
    /// kind of the mover's piece on that square; a game whose throws move the pieces names
    /// none.
    fn moves_name_pieces_as_chosen_by_says<G: Board>(game: &G, seed: u64) {
        use rand::{RngExt as _, SeedableRng};
        let geo = game.geometry();
        let mut rng = crate::Rng::seed_from_u64(seed);
        let mut s = game.initial_state();
        let mut legal = ActionList::new();
        let (mut checked, mut named, mut games) = (0, 0, 0);
        // 400 decisions, or 20 games of a game with none (Sig wa Duqqan's).
        while checked < 400 && games < 20 {
            match game.node(&s) {
                Node::End => {
                    s = game.initial_state();
                    games += 1;
                }
                Node::Throw(_) => {
                    let n = geo.sticks.count;
                    let k = (0..n).filter(|_| rng.random::<bool>()).count() as u8;
                    game.apply_throw(&mut s, Throw::new(k)).unwrap();
                }
                Node::Decide(seat) => {
                    for m in game.moves(&s) {
                        let Some(from) = m.from else { continue };
                        named += 1;
                        let name = match geo.chosen_by {
                            ChosenBy::Square => geo.squares[from].label.clone(),
                            ChosenBy::Piece => game
                                .pieces(&s)
                                .into_iter()
                                .find(|p| p.square == Some(from) && p.seat == Some(seat))
                                .map(|p| p.kind.to_string())
                                .unwrap(),
                            ChosenBy::Throws => panic!("{} names a piece", m.action),
                        };
                        // The piece's name is an action of the game, the one played here
                        // or another (Sig (El Oued Capture)'s `free_all` from a square).
                        let named_action = game.parse_action(&name).unwrap();
                        if m.action == name {
                            assert_eq!(game.parse_action(&m.action).unwrap(), named_action);
                        }
                    }
                    game.legal_actions(&s, &mut legal);
                    let a = legal[rng.random_range(0..legal.len())];
                    game.apply_action(&mut s, a).unwrap();
                    checked += 1;
                }
            }
        }
        assert_eq!(named > 0, geo.chosen_by != ChosenBy::Throws);
    }

    #[test]
    fn tracks_loop_where_they_say_and_moves_name_pieces_as_the_geometry_says() {
        use crate::games::{HoumtTaourit, SiryuRace, SiryuWar};
        let war = SiryuWar::with_seats(2).unwrap();
        let g = war.geometry();
        for t in &g.tracks {
            assert_eq!(t.loops_to, Some(12));
        }
        loop_is_one_step(&g);
        for g in [
            Issiren::with_seats(2).unwrap().geometry(),
            SigElOuedCapture::with_seats(2).unwrap().geometry(),
        ] {
            assert!(g.tracks.iter().all(|t| t.loops_to == Some(0)));
            loop_is_one_step(&g);
        }
        for g in [
            SigWaDuqqan::with_seats(2).unwrap().geometry(),
            SigElOued::with_seats(2).unwrap().geometry(),
            SiryuRace::with_seats(2).unwrap().geometry(),
            HoumtTaourit::with_seats(2).unwrap().geometry(),
        ] {
            assert!(g.tracks.iter().all(|t| t.loops_to.is_none()));
        }
        moves_name_pieces_as_chosen_by_says(&Issiren::with_seats(2).unwrap(), 1);
        moves_name_pieces_as_chosen_by_says(&SigElOuedCapture::with_seats(2).unwrap(), 2);
        moves_name_pieces_as_chosen_by_says(&war, 3);
        moves_name_pieces_as_chosen_by_says(&SiryuRace::with_seats(3).unwrap(), 4);
        moves_name_pieces_as_chosen_by_says(&SigElOued::with_seats(2).unwrap(), 5);
        moves_name_pieces_as_chosen_by_says(&SigWaDuqqan::with_seats(3).unwrap(), 6);
        moves_name_pieces_as_chosen_by_says(&HoumtTaourit::with_seats(3).unwrap(), 7);
    }

    #[test]
    fn el_oued_pieces_name_the_father_djinn_and_mother() {
        let game = SigElOued::with_seats(2).unwrap();
        let s = game.initial_state();
        let p = game.pieces(&s);
        assert_eq!(p.len(), 6);
        let kinds: Vec<_> = p.iter().take(3).map(|p| p.kind).collect();
        assert_eq!(kinds, ["father", "djinn", "mother"]);
        assert!(p[0].active && !p[1].active);
        assert_eq!(p[0].text, "P1's father on the start, active");
    }

    #[test]
    fn el_oued_leftover_names_the_piece_that_walks() {
        // The protocol's example: P1's father on idx 27, a sig of six and a bonus 0.
        let game = SigElOued::with_seats(2).unwrap();
        let mut s = game.initial_state();
        s.pieces[0] = [27, 0, 0];
        s.pieces[1] = [5, 0, 0];
        s.throws = 40;
        game.apply_throw(&mut s, Throw::new(6)).unwrap();
        game.apply_throw(&mut s, Throw::new(0)).unwrap();
        assert_eq!(game.node(&s), Node::Decide(0));
        let before = s;
        assert_eq!(
            game.describe_action(&s, sig_el_oued::Action::Use),
            "P1 uses the 1 point left at Mecca to walk the djinn off the start"
        );
        assert_eq!(
            game.describe_action(&s, sig_el_oued::Action::Decline),
            "P1 declines the 1 point left at Mecca (a declined rest is lost)"
        );
        game.apply_action(&mut s, sig_el_oued::Action::Use).unwrap();
        assert_eq!(
            game.describe_change(&before, &s),
            ["P1's djinn walks from idx 0 to idx 1"]
        );
    }

    #[test]
    fn duqqan_pieces_include_the_ghoula() {
        let game = SigWaDuqqan::with_seats(2).unwrap();
        let s = game.initial_state();
        let p = game.pieces(&s);
        assert_eq!(p.len(), 3);
        assert_eq!(p[2].kind, "ghoula");
        assert_eq!(p[2].square, None);
        let faces = game.geometry().sticks;
        assert_eq!(sides_up(&faces, Throw::new(1)), "1 white side up");
    }
}
