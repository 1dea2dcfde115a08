//! The hand-set evaluation of Siryu (Race).

use stickdice::games::siryu_race::{
    step_kind, walk_stop, State, Step, ANGEL, MECCA, PIECES, STARTS,
};
use stickdice::{Game as _, SeatValues, SiryuRace, MAX_SEATS};

use super::{pairwise_scores, Evaluate, SeatStanding};

/// The chance of a sir (one white or five white sides) in one throw.
const SIR: f64 = 12.0 / 64.0;
/// The chance of six white (six points of ordinary steps) in one throw; six black is
/// worth as much under `six_black_moves_six`.
const SIX: f64 = 1.0 / 64.0;
/// Throws per turn, extra throws included (a throw grants 1/4 extra throw on average).
const THROWS_PER_TURN: f64 = 4.0 / 3.0;

/// `TO_GO[angel][idx]`: the expected throws a piece on `idx` still needs to reach Mecca
/// (with its sir count 0), if every throw that can move it were used on it: an
/// ordinary step costs `1 / (sir + 6·six)` throws (twice as many steps per point for
/// the angel), a sir step `1 / sir`, a three-sir step three sirs.
static TO_GO: [[f64; 32]; 2] = {
    let mut t = [[0.0; 32]; 2];
    let mut a = 0;
    while a < 2 {
        let ordinary = if a == 1 { 2.0 } else { 1.0 } * (SIR + 6.0 * SIX);
        let mut idx = MECCA as usize;
        while idx > 0 {
            idx -= 1;
            let cost = match step_kind(idx as u8) {
                Some(Step::Ordinary) => 1.0 / ordinary,
                Some(Step::Sir) => 1.0 / SIR,
                Some(Step::ThreeSir) => 3.0 / SIR,
                None => 0.0,
            };
            t[a][idx] = t[a][idx + 1] + cost;
        }
        a += 1;
    }
    t
};

/// The expected throws `piece` on `idx` with `sirs` counted still needs.
#[inline]
fn throws_to_go(piece: usize, idx: u8, sirs: u8) -> f64 {
    let left = TO_GO[usize::from(piece == ANGEL)][usize::from(idx.min(31))];
    (left - f64::from(sirs) / SIR).max(0.0)
}

/// The chance, per throw, that an opponent's piece on `from` (the angel if `angel`)
/// can send back a piece on `target`: a sir or six white whose walk passes `target`
/// (or, with `capture_on_landing`, stops on it).
#[inline]
fn threat(game: &SiryuRace, from: u8, angel: bool, target: u8) -> f64 {
    if from >= target || target - from > 12 {
        return 0.0;
    }
    let hits = |to: u8| to > target || (game.capture_on_landing() && to == target);
    let six = if game.six_black_moves_six() {
        2.0 * SIX
    } else {
        SIX
    };
    let mut p = 0.0;
    if hits(walk_stop(from, angel, true)) {
        p += SIR;
    }
    if hits(walk_stop(from, angel, false)) {
        p += six;
    }
    p
}

/// Siryu (Race): finishers are settled in the ranking; a racing seat's strength is the
/// share of its three pieces' expected throws to Mecca already behind it (every sir
/// pays one step of either kind, so this counts sirs, with six white's help on the
/// ordinary steps and the angel's double pace), less the progress each piece would lose
/// if an opponent's piece behind it sent it back to its start, times the chance of that
/// in the opponent's next turn (a sir for an angel one square behind, six white for a
/// piece up to five squares behind, the angel eleven); in full for the opponent about
/// to play, at half for the others. Pieces on their own start, the Minaret and the road
/// cannot be sent back.
pub(super) fn evaluate(game: &SiryuRace, s: &State) -> SeatValues {
    if let Some(scores) = game.scores(s) {
        return scores;
    }
    let n = game.seats();
    let full: f64 = (0..PIECES).map(|k| throws_to_go(k, STARTS[k], 0)).sum();
    let mut standing = [SeatStanding::Racing(0.0); MAX_SEATS];
    for (seat, st) in standing.iter_mut().enumerate().take(n) {
        let place = s.place(seat);
        if place > 0 {
            *st = SeatStanding::Finished(u32::from(place));
            continue;
        }
        let pieces = s.pieces_of(seat);
        let sirs = s.sirs_of(seat);
        let mut togo = 0.0;
        let mut risk = 0.0;
        for k in 0..PIECES {
            let i = pieces[k];
            let left = throws_to_go(k, i, sirs[k]);
            togo += left;
            if i == STARTS[k] || i == 12 || i > 24 {
                continue;
            }
            let loss = throws_to_go(k, STARTS[k], 0) - left;
            for o in (0..n).filter(|&o| o != seat && s.place(o) == 0) {
                let per_throw: f64 = s
                    .pieces_of(o)
                    .iter()
                    .enumerate()
                    .map(|(m, &j)| threat(game, j, m == ANGEL, i))
                    .sum();
                if per_throw > 0.0 {
                    let chance = (per_throw * THROWS_PER_TURN).min(1.0);
                    let weight = if s.turn() == o { 1.0 } else { 0.5 };
                    risk += weight * chance * loss;
                }
            }
        }
        *st = SeatStanding::Racing((1.0 - (togo + risk) / full).clamp(0.0, 1.0));
    }
    pairwise_scores(&standing[..n])
}

impl Evaluate for stickdice::SiryuRace {
    /// The hand-set evaluation: progress in expected throws, the risk of being sent back.
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        evaluate(self, state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walks_follow_the_rules_worked_examples() {
        // A sir: father or mother one step, the angel two ordinary steps or one sir step.
        assert_eq!(walk_stop(0, false, true), 1);
        assert_eq!(walk_stop(1, true, true), 3);
        assert_eq!(walk_stop(11, true, true), 12);
        assert_eq!(walk_stop(23, true, true), 24);
        // Six white: six ordinary steps, stopping short of the Minaret and the road.
        assert_eq!(walk_stop(9, false, false), 11);
        assert_eq!(walk_stop(1, true, false), 11);
        assert_eq!(walk_stop(2, false, false), 8);
        assert_eq!(walk_stop(23, false, false), 24);
        assert_eq!(walk_stop(27, false, true), 27);
        // A piece on Mecca needs nothing; the road's three-sir steps cost three sirs.
        assert_eq!(throws_to_go(0, MECCA, 0), 0.0);
        let cairo = throws_to_go(0, 27, 0) - throws_to_go(0, 28, 0);
        assert!((cairo - 3.0 / SIR).abs() < 1e-12);
        assert!((throws_to_go(0, 27, 2) - throws_to_go(0, 28, 0) - 1.0 / SIR).abs() < 1e-12);
    }
}
