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

use crate::game::{ActionList, Seat};
use crate::present::Present;
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
    /// A mark of its status for the drawing (serialized as `unmoved`, `returning`,
    /// `buried`, `arrived`, `waiting`, `locked`, or empty for none).
    pub status: PieceStatus,
    /// Its state in words (`P1's father on idx 7, active`), for tooltips and tests.
    pub text: String,
}

/// A piece's status as the drawing marks it. Serialized (and written by
/// [`PieceStatus::as_str`]) as the word the page's style sheet and script know: `unmoved`,
/// `returning`, `buried`, `arrived`, `waiting`, `locked`, or the empty string for
/// [`PieceStatus::Plain`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum PieceStatus {
    /// No mark: a piece in play as any other.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = ""))]
    Plain,
    /// Not moved yet, waiting for the throw that releases it (Issiren, Sig (El Oued
    /// Capture)).
    Unmoved,
    /// On the second part of its lap (Issiren: the enemy's home row and back).
    Returning,
    /// Buried: out of the race (the Duqqan boards).
    Buried,
    /// Home at the goal.
    Arrived,
    /// On Sig wa Duqqan's waiting square, gathering sigs.
    Waiting,
    /// Locked in place (Siryu (War)).
    Locked,
}

impl PieceStatus {
    /// The word of the drawing: `unmoved`, `returning`, `buried`, `arrived`, `waiting`,
    /// `locked`, or empty for [`PieceStatus::Plain`].
    pub const fn as_str(self) -> &'static str {
        match self {
            PieceStatus::Plain => "",
            PieceStatus::Unmoved => "unmoved",
            PieceStatus::Returning => "returning",
            PieceStatus::Buried => "buried",
            PieceStatus::Arrived => "arrived",
            PieceStatus::Waiting => "waiting",
            PieceStatus::Locked => "locked",
        }
    }
}

impl core::fmt::Display for PieceStatus {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
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

/// A holding square: a piece that reaches it stays until it has thrown `value` `throws`
/// times (counted across turns).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct HoldSquare {
    /// The square (index into [`BoardGeometry::squares`]).
    pub square: usize,
    /// How many throws of `value` a piece needs there.
    pub throws: u8,
    /// The value that counts.
    pub value: u8,
}

/// What some boards have beyond squares and tracks: stacks, teams, holding squares, a road
/// off the grid, a chaser. Nothing of it for a board without ([`Default`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BoardFeatures {
    /// Whether a seat's pieces on one square move together, as a stack (drawn as one piece
    /// with its count).
    pub stacks: bool,
    /// Each seat's team where seats play in teams (`teams[seat]`; a team's pieces are
    /// those of [`PlacedPiece::seat`] equal to the team), empty otherwise.
    pub teams: Vec<usize>,
    /// The holding squares.
    pub holds: Vec<HoldSquare>,
    /// The squares off the rectangular grid (a road), indices into
    /// [`BoardGeometry::squares`].
    pub road: Vec<usize>,
    /// The [`PlacedPiece::kind`] of the neutral piece that chases the others, if the game has
    /// one.
    pub chaser: Option<&'static str>,
}

/// A game that can be drawn: geometry, pieces and moves, all from the rules. It builds on
/// the game's text for people ([`Present`]): a drawing shows the same game the transcripts
/// write.
pub trait Board: Present {
    /// The board's squares, tracks, arrows and sticks.
    fn geometry(&self) -> BoardGeometry;
    /// What the board has beyond squares and tracks (stacks, teams, holding squares, a road,
    /// a chaser): none by default.
    fn features(&self) -> BoardFeatures {
        BoardFeatures::default()
    }
    /// What a state holds that its pieces do not show (values stored or held for later,
    /// in words), one line each: none by default.
    fn tallies(&self, _state: &Self::State) -> Vec<String> {
        Vec::new()
    }
    /// Every piece of every seat in play (and neutral pieces), where it stands.
    fn pieces(&self, state: &Self::State) -> Vec<PlacedPiece>;
    /// For each legal action (in [`Game::legal_actions`](crate::Game::legal_actions) order), what it moves.
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

// ---- Shared by the circuit games (Issiren, Sig (El Oued Capture)) ------------------

/// The cells of a grid whose first row is P1's home row and last row P2's (Issiren's,
/// Sig (El Oued Capture)'s), drawn with row 0 at the bottom: `square(i)` gives square
/// index `i`'s row, column and label.
pub(crate) fn home_rows_grid(
    count: u8,
    rows: u8,
    square: impl Fn(u8) -> (u8, u8, String),
) -> Vec<SquareInfo> {
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
pub(crate) fn circuit_piece(
    square: usize,
    name: &dyn core::fmt::Display,
    seat: usize,
    pos: u8,
    unmoved: bool,
    returning: Option<&'static str>,
) -> PlacedPiece {
    let (status, note) = match (unmoved, returning) {
        (true, _) => (PieceStatus::Unmoved, ", unmoved"),
        (false, Some(words)) => (PieceStatus::Returning, words),
        (false, None) => (PieceStatus::Plain, ""),
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
    use crate::game::Game;

    /// Each status serializes to exactly the word the page's script knows, `as_str`'s.
    #[cfg(feature = "serde")]
    #[test]
    fn statuses_serialize_to_the_drawing_words() {
        let words = [
            (PieceStatus::Plain, ""),
            (PieceStatus::Unmoved, "unmoved"),
            (PieceStatus::Returning, "returning"),
            (PieceStatus::Buried, "buried"),
            (PieceStatus::Arrived, "arrived"),
            (PieceStatus::Waiting, "waiting"),
            (PieceStatus::Locked, "locked"),
        ];
        for (status, word) in words {
            assert_eq!(
                serde_json::to_string(&status).unwrap(),
                format!("\"{word}\"")
            );
            assert_eq!(status.as_str(), word);
            assert_eq!(status.to_string(), word);
        }
    }
    use crate::games::sig_el_oued;
    use crate::games::{Issiren, SigElOued, SigElOuedCapture, SigWaDuqqan};
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
        assert!(pieces.iter().all(|p| p.status == PieceStatus::Unmoved));
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
            .filter(|p| p.seat == Some(0) && p.status != PieceStatus::Unmoved)
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
