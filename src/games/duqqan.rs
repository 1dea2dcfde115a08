//! What the two games of Sig wa Duqqan read alike, in one place: Sig wa Duqqan (Houmt
//! al-Arbah, §1 of the rules) and Sig wa Duqqan (Houmt Taourit, §7 of the family's rules,
//! which restates the same sticks and Ghoula). Here: the four sticks, and how the pieces
//! that stop racing are numbered (burial steps, arrivals). What a throw *does* (a 0 moves
//! the Ghoula 2 steps from the Ka'aba but 6 from the centre, the Ghoula's first move, …)
//! stays with each game.

use crate::dice::Throw;

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
    /// The burial step, if the Ghoula buried the piece.
    fn burial(self) -> Option<u8>;
    /// Whether the piece has arrived on the goal (the Ka'aba, the centre).
    fn has_arrived(self) -> bool;
}

/// The number of the next burial step: one more than the highest so far (pieces buried by
/// the same step share it). Out of line, as both games' copies were: a burial or an arrival
/// is rare, and the throw's code stays small (inlining it cost Sig wa Duqqan 1.8% more
/// instructions per throw, `scripts/instructions.sh`).
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
