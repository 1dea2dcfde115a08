//! The hand-set evaluation of Sig wa Duqqan (Houmt Taourit).

use stickdice::games::houmt_taourit::{Piece, State, CENTRE, SIGS_TO_LEAVE, WAITING_SQUARE};
use stickdice::{Game as _, HoumtTaourit, SeatValues, MAX_SEATS};

use super::{pairwise_scores, Evaluate, SeatStanding};

/// Expected throws per sig (4 in 16).
const PER_SIG: f64 = 4.0;
/// Mean squares per throw on idx 0..=79: (6 + 4·1 + 4·3 + 4) / 16.
const MEAN_STEP: f64 = 26.0 / 16.0;
/// The chance that a racing seat is buried some time, from the start of a game (in
/// two-player random play about 0.2 burials a game: 0.1 a seat).
const BURIAL_SHARE: f64 = 0.1;

/// The expected throws of its own a piece on `idx` with `sigs` on the waiting square
/// still needs to reach the centre.
pub(super) fn throws_to_go(idx: u8, sigs: u8) -> f64 {
    let after = PER_SIG * f64::from(CENTRE - WAITING_SQUARE - 1);
    let waiting = PER_SIG * f64::from(SIGS_TO_LEAVE);
    match idx {
        i if i < WAITING_SQUARE => f64::from(WAITING_SQUARE - i) / MEAN_STEP + waiting + after,
        i if i == WAITING_SQUARE => PER_SIG * f64::from(SIGS_TO_LEAVE.saturating_sub(sigs)) + after,
        i => PER_SIG * f64::from(CENTRE.saturating_sub(i)),
    }
}

/// The estimated chance that a piece on `idx` (0..=84) is buried before it gets out of
/// the Ghoula's reach (idx 81): a share of [`BURIAL_SHARE`] by the throws it still
/// spends within reach, more while the Ghoula is driven (some piece is on idx 81 or
/// beyond) and stands on the piece's square — the more the nearer the start, where the
/// burial happens — or up to six squares behind it.
fn burial_chance(idx: u8, sigs: u8, ghoula: u8, driven: bool) -> f64 {
    if idx > WAITING_SQUARE {
        return 0.0;
    }
    let exposure = (throws_to_go(idx, sigs) - throws_to_go(WAITING_SQUARE + 1, 0))
        / (throws_to_go(0, 0) - throws_to_go(WAITING_SQUARE + 1, 0));
    let mut chance = BURIAL_SHARE * exposure;
    if driven && idx > 0 {
        let nearness = 1.0 - f64::from(idx) / f64::from(WAITING_SQUARE + 1);
        if ghoula == idx {
            chance += 0.5 * nearness;
        } else if ghoula < idx && idx - ghoula <= 6 {
            chance += 0.15 * nearness;
        }
    }
    chance.min(1.0)
}

/// Sig wa Duqqan (Houmt Taourit). By default every seat on the centre ties for first
/// and every buried seat for last, so, with each seat succeeding independently with
/// chance `p`, a seat beats another with chance `½ + ½·(p − q)`: the racing standing
/// of [`pairwise_scores`] with strength `p`, 1 on the centre and 0 once buried. A
/// racing seat's `p` is one minus its estimated chance of burial (the Ghoula's threat,
/// `burial_chance`). With `rank_by_arrival`, arrivals and burials are settled in order
/// and a racing seat's strength is its share of the expected throws to the centre
/// already behind it, less that chance of burial.
pub(super) fn evaluate(game: &HoumtTaourit, s: &State) -> SeatValues {
    if let Some(scores) = game.scores(s) {
        return scores;
    }
    let n = game.seats();
    let by_arrival = game.rank_by_arrival();
    let pieces = s.pieces();
    let driven = pieces.iter().any(|p| {
        matches!(p, Piece::Centre(_)) || matches!(p, Piece::Racing(i) if *i > WAITING_SQUARE)
    });
    let full = throws_to_go(0, 0);
    let mut standing = [SeatStanding::Racing(0.0); MAX_SEATS];
    for (seat, st) in standing.iter_mut().enumerate().take(n) {
        *st = match (pieces[seat], by_arrival) {
            (Piece::Centre(k), true) => SeatStanding::Finished(u32::from(k)),
            (Piece::Buried(k), true) => SeatStanding::Out(u32::from(k)),
            (Piece::Centre(_), false) => SeatStanding::Racing(1.0),
            (Piece::Buried(_), false) => SeatStanding::Racing(0.0),
            (Piece::Racing(i), _) => {
                let burial = burial_chance(i, s.sigs(seat), s.ghoula(), driven);
                let strength = if by_arrival {
                    1.0 - throws_to_go(i, s.sigs(seat)) / full - burial
                } else {
                    1.0 - burial
                };
                SeatStanding::Racing(strength.clamp(0.0, 1.0))
            }
        };
    }
    pairwise_scores(&standing[..n])
}

impl Evaluate for stickdice::HoumtTaourit {
    /// The hand-set evaluation: the chance of burial by the Ghoula, and with
    /// `rank_by_arrival` progress to the centre.
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        evaluate(self, state)
    }
}
