//! The hand-set evaluation of Sig wa Duqqan.

use stickdice::games::sig_wa_duqqan::{Piece, KAABA, SIGS_TO_LEAVE, WAITING_SQUARE};
use stickdice::{Game as _, SeatValues, SigWaDuqqan, MAX_SEATS};

use super::{pairwise_scores, Evaluate, SeatStanding};

/// The expected number of the seat's own throws its piece still needs, from the
/// throw table: a sig (1 in 4) to leave the start, 26/16 squares per throw on idx
/// 1..=13, the missing sigs on the waiting square, one sig per square from idx 15.
fn throws_to_go(idx: u8, sigs: u8) -> f64 {
    const PER_SIG: f64 = 4.0;
    const MEAN_STEP: f64 = 26.0 / 16.0;
    let waiting = PER_SIG * f64::from(SIGS_TO_LEAVE);
    let home_stretch = PER_SIG * f64::from(KAABA - WAITING_SQUARE - 1);
    match idx {
        0 => PER_SIG + f64::from(WAITING_SQUARE - 1) / MEAN_STEP + waiting + home_stretch,
        i if i < WAITING_SQUARE => {
            f64::from(WAITING_SQUARE - i) / MEAN_STEP + waiting + home_stretch
        }
        i if i == WAITING_SQUARE => {
            PER_SIG * f64::from(SIGS_TO_LEAVE.saturating_sub(sigs)) + home_stretch
        }
        i => PER_SIG * f64::from(KAABA.saturating_sub(i)),
    }
}

/// Sig wa Duqqan: arrivals and burials are settled in the ranking; a racing piece's
/// strength is the share of the expected throws to the Ka'aba already behind it, less a
/// danger term while the Ghoula drags it (standing on its square) — larger the closer it
/// is to the start, where the burial happens — or stands within six squares behind it
/// while some seat on idx 15 or beyond drives the Ghoula.
pub(super) fn evaluate(
    game: &SigWaDuqqan,
    s: &stickdice::games::sig_wa_duqqan::State,
) -> SeatValues {
    if let Some(scores) = game.scores(s) {
        return scores;
    }
    let n = game.seats();
    let full = throws_to_go(0, 0);
    let driven = s.pieces()[..n].iter().any(|p| {
        matches!(p, Piece::Arrived(_)) || matches!(p, Piece::Racing(i) if *i > WAITING_SQUARE)
    });
    let mut standing = [SeatStanding::Racing(0.0); MAX_SEATS];
    for (seat, st) in standing.iter_mut().enumerate().take(n) {
        *st = match s.pieces()[seat] {
            Piece::Arrived(k) => SeatStanding::Finished(u32::from(k)),
            Piece::Buried(k) => SeatStanding::Out(u32::from(k)),
            Piece::Racing(i) => {
                let progress = 1.0 - throws_to_go(i, s.sigs()[seat]) / full;
                let danger = match s.ghoula() {
                    Some(g) if (1..=WAITING_SQUARE).contains(&i) && g == i => {
                        0.5 * (1.0 - f64::from(i) / f64::from(WAITING_SQUARE + 1))
                    }
                    Some(g)
                        if driven && (1..=WAITING_SQUARE).contains(&i) && g < i && i - g <= 6 =>
                    {
                        0.1
                    }
                    None if driven && (1..=6).contains(&i) => 0.05,
                    _ => 0.0,
                };
                SeatStanding::Racing((progress - danger).clamp(0.0, 1.0))
            }
        };
    }
    pairwise_scores(&standing[..n])
}

impl Evaluate for stickdice::SigWaDuqqan {
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        evaluate(self, state)
    }
}
