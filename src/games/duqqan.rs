//! What the two games of Sig wa Duqqan read alike, in one place: Sig wa Duqqan (Houmt
//! al-Arbah, `docs/games/sig-wa-duqqan.md`) and Sig wa Duqqan (Houmt Taourit, `docs/games/sig-wa-duqqan-taourit.md`,
//! which restates the same sticks and Ghoula). Here: the four sticks, and how the pieces
//! that stop racing are numbered (burial steps, arrivals), and the words and drawing their
//! tracks share (the waiting square, the goal, the status line, the board's squares and
//! pieces). What a throw *does* (a 0 moves the Ghoula 2 steps from the Ka'aba but 6 from the
//! centre, the Ghoula's first move, …) and the shape of each track stay with each game.

use core::fmt::Write as _;

use super::common::ordinal;
use crate::board::{
    cell, track_arrows, BoardGeometry, ChosenBy, PieceStatus, PlacedPiece, SquareInfo, StickFaces,
    Track,
};
use crate::dice::Throw;
use crate::game::Ranking;

/// What each count of white sides up is worth: (value, extra throw). Counts 5..=7 cannot be
/// thrown with four sticks; they are listed as "nothing" so that the unchecked path never
/// indexes out of bounds.
pub(crate) const THROWS: [(u8, bool); 8] = [
    (6, true),
    (1, true),
    (0, false),
    (3, false),
    (4, true),
    (0, false),
    (0, false),
    (0, false),
];

/// The number of white sides up that makes a sig.
pub(crate) const SIG: u8 = 1;
/// The number of white sides up that makes a 3.
pub(crate) const THREE: u8 = 3;
/// The number of white sides up that makes a 0 (what a 0 does on the goal is each game's).
pub(crate) const ZERO: u8 = 2;

/// The value of a throw of `w` white sides (0 for a count four sticks cannot show).
pub fn throw_value(throw: Throw) -> u8 {
    THROWS[(throw.marked() & 7) as usize].0
}

/// Whether a throw grants an extra throw (0, 1 or 4 white sides up).
pub fn grants_extra_throw(throw: Throw) -> bool {
    THROWS[(throw.marked() & 7) as usize].1
}

/// A throw of `w` white sides in words, before what it does (`Err` with the whole
/// description for a count four sticks cannot show).
pub(crate) fn throw_words(w: u8) -> Result<&'static str, String> {
    Ok(match w {
        0 => "no white side up: 6, throw again",
        1 => "1 white side up: sig (1), throw again",
        2 => "2 white sides up: 0",
        3 => "3 white sides up: 3",
        4 => "4 white sides up: 4, throw again",
        _ => return Err(format!("{w} white sides up: impossible with four sticks")),
    })
}

/// A piece of one of the two games, as the numbering of burials and arrivals sees it.
pub(crate) trait DuqqanPiece: Copy {
    /// Where the piece is: on the track, arrived, or buried.
    fn place(self) -> Place;

    /// The burial step, if the Ghoula buried the piece.
    #[inline]
    fn burial(self) -> Option<u8> {
        match self.place() {
            Place::Buried(b) => Some(b),
            _ => None,
        }
    }

    /// Whether the piece has arrived on the goal (the Ka'aba, the centre).
    #[inline]
    fn has_arrived(self) -> bool {
        matches!(self.place(), Place::Arrived(_))
    }
}

/// The number of the next burial step: one more than the highest so far (pieces buried by
/// the same step share it). Out of line, as both games' copies were: a burial or an arrival
/// is rare, and the throw's code stays small (the book's performance chapter *Agents'
/// speed and tuning notes* has what inlining it cost).
#[inline(never)]
pub(crate) fn next_burial<P: DuqqanPiece>(pieces: &[P]) -> u8 {
    let mut max = 0;
    for p in pieces {
        if let Some(b) = p.burial() {
            max = max.max(b);
        }
    }
    max.saturating_add(1)
}

/// The number of the next arrival: one more than the arrivals so far. Out of line, as
/// [`next_burial`].
#[inline(never)]
pub(crate) fn next_arrival<P: DuqqanPiece>(pieces: &[P]) -> u8 {
    1 + pieces.iter().filter(|p| p.has_arrived()).count() as u8
}

/// Where a piece of one of the two games is, in the words their drawings and descriptions
/// share (what the goal is called is the game's [`Layout`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// Racing on this idx of the track.
    Racing(u8),
    /// On the goal, the `k`th to arrive.
    Arrived(u8),
    /// Buried by the Ghoula at this burial step.
    Buried(u8),
}

/// The squares and the words the two games' drawings differ in: the waiting square's idx
/// and the goal (the Ka'aba, idx 19; the centre, idx 85). How each track is drawn (a
/// spiral, four rows) stays with each game.
pub(crate) struct Layout {
    /// The waiting square's idx.
    pub(crate) waiting_square: u8,
    /// The goal's idx.
    pub(crate) goal: u8,
    /// The goal's name in the descriptions.
    pub(crate) goal_name: &'static str,
}

impl Layout {
    /// A seat's piece in the status line under the drawing: `on idx 5`, `on the waiting
    /// square (idx 14), 3 of 7 sigs`, `on the Ka'aba (2nd to arrive)`, `buried (burial step
    /// 1)`.
    pub(crate) fn piece_words(&self, place: Place, sigs: u8) -> String {
        match place {
            Place::Racing(0) => "on the start".to_string(),
            Place::Racing(i) if i == self.waiting_square => {
                format!("on the waiting square (idx {i}), {sigs} of 7 sigs")
            }
            Place::Racing(i) => format!("on idx {i}"),
            Place::Arrived(k) => format!("on the {} ({} to arrive)", self.goal_name, ordinal(k)),
            Place::Buried(b) => format!("buried (burial step {b})"),
        }
    }

    /// Each seat's piece in words, on one line under the status line (`P1 on idx 5; P2 on
    /// the start`).
    pub(crate) fn write_pieces<P: DuqqanPiece>(&self, out: &mut String, pieces: &[P], sigs: &[u8]) {
        let parts: Vec<String> = pieces
            .iter()
            .zip(sigs)
            .enumerate()
            .map(|(s, (p, &k))| format!("P{} {}", s + 1, self.piece_words(p.place(), k)))
            .collect();
        let _ = writeln!(out, "{}", parts.join("; "));
    }

    /// What a throw of `value` does to P`who`'s piece racing on idx `p` before the waiting
    /// square: it moves, or stops on the waiting square (or, under `exact_waiting_square`,
    /// stays where it is) rather than pass it.
    pub(crate) fn move_words(&self, who: usize, p: u8, value: u8, exact: bool) -> String {
        if value == 0 {
            format!("P{who} does not move")
        } else if p + value <= self.waiting_square {
            format!("P{who} moves from idx {p} to idx {}", p + value)
        } else if exact {
            format!("P{who} would pass the waiting square, so stays on idx {p}")
        } else {
            format!(
                "P{who} stops on the waiting square (idx {})",
                self.waiting_square
            )
        }
    }

    /// A seat's piece on the drawn board ([`crate::board::Board::pieces`]), with its
    /// tooltip.
    pub(crate) fn placed_piece(&self, seat: usize, place: Place, sigs: u8) -> PlacedPiece {
        let who = seat + 1;
        let (status, text) = match place {
            Place::Racing(i) if i == self.waiting_square => (
                PieceStatus::Waiting,
                format!("P{who}'s piece on the waiting square (idx {i}), {sigs} of 7 sigs"),
            ),
            Place::Racing(0) => (PieceStatus::Plain, format!("P{who}'s piece on the start")),
            Place::Racing(i) => (PieceStatus::Plain, format!("P{who}'s piece on idx {i}")),
            Place::Arrived(k) => (
                PieceStatus::Arrived,
                format!("P{who}'s piece on the {} (arrived {k})", self.goal_name),
            ),
            Place::Buried(_) => (
                PieceStatus::Buried,
                format!("P{who}'s piece buried by the Ghoula"),
            ),
        };
        PlacedPiece {
            square: match place {
                Place::Racing(i) => Some(usize::from(i)),
                Place::Arrived(_) => Some(usize::from(self.goal)),
                Place::Buried(_) => None,
            },
            seat: Some(seat),
            kind: "piece",
            letter: "",
            active: matches!(place, Place::Racing(_)),
            status,
            text,
        }
    }

    /// The drawn board: the track's `track_len` squares, each placed at `at(idx)` (its
    /// left and top edge, in squares) on a `width` × `height` drawing, every seat starting
    /// on idx 0, thrown with four sticks (white and green).
    pub(crate) fn geometry(
        &self,
        track_len: u8,
        at: impl Fn(u8) -> (f64, f64),
        (width, height): (f64, f64),
        seats: usize,
        legend: &'static str,
    ) -> BoardGeometry {
        let squares: Vec<SquareInfo> = (0..track_len)
            .map(|idx| {
                let name = match idx {
                    0 => Some("start"),
                    i if i == self.waiting_square => Some("waiting square"),
                    i if i == self.goal => Some(self.goal_name),
                    _ => None,
                };
                let special = idx == self.waiting_square || idx == self.goal;
                let (x, y) = at(idx);
                cell(x, y, idx.to_string(), name, special)
            })
            .collect();
        let order: Vec<usize> = (0..squares.len()).collect();
        let arrows = track_arrows(&squares, &order);
        BoardGeometry {
            width,
            height,
            chosen_by: ChosenBy::Throws,
            tracks: vec![Track {
                seat: None,
                squares: order,
                loops_to: None,
            }],
            starts: vec![0; seats],
            arrows,
            squares,
            sticks: StickFaces {
                count: 4,
                marked: "white",
                unmarked: "green",
            },
            legend,
        }
    }
}

/// The status line under the drawing: the result (`at the throw cap` while a piece still
/// races) or who throws next, and where the Ghoula is.
pub(crate) fn write_status(
    out: &mut String,
    ranking: Option<Ranking>,
    racing: bool,
    (throws, max_throws): (u32, u32),
    turn: u8,
    ghoula: &str,
) {
    match ranking {
        Some(r) => {
            let why = if racing { " at the throw cap" } else { "" };
            let _ = writeln!(
                out,
                "Game over{why} after {throws} throws: {r}. Ghoula {ghoula}."
            );
        }
        None => {
            let _ = writeln!(
                out,
                "P{} to throw (throw {} of at most {max_throws}). Ghoula {ghoula}.",
                turn as usize + 1,
                throws + 1,
            );
        }
    }
}

/// For both games' tests of their fast loops: from every position of `games` random games
/// of `game`, [`Playouts::play_throws`](crate::Playouts::play_throws) against `plainly`
/// (the throw-by-throw loop), both drawing from copies of `rng`: the same states, the same
/// number of throws. Returns the positions compared.
#[cfg(test)]
pub(crate) fn check_fast_loop<G: crate::Playouts>(
    game: &G,
    plainly: impl Fn(&mut G::State, &mut dyn FnMut() -> Throw),
    games: usize,
    rng: &mut crate::Rng,
    what: &str,
) -> usize {
    let mut positions = 0;
    for _ in 0..games {
        let mut state = game.initial_state();
        while game.node(&state) != crate::Node::End {
            let (mut fast, mut plain) = (state, state);
            let (mut a, mut b) = (rng.clone(), rng.clone());
            game.play_throws(&mut fast, || game.sample_throw(&mut a));
            plainly(&mut plain, &mut || game.sample_throw(&mut b));
            assert_eq!(fast, plain, "{what}");
            assert_eq!(a, b, "the same number of throws");
            positions += 1;
            let t = game.sample_throw(rng);
            game.apply_throw_unchecked(&mut state, t);
        }
    }
    positions
}
