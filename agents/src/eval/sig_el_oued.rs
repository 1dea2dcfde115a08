//! The hand-set evaluation of Sig (El Oued).

use stickdice::games::sig_el_oued::{is_sig_square, CORNER, DJINN, MECCA, MINARET, PIECES};
use stickdice::{Game as _, SeatValues, SigElOued, MAX_SEATS};

use super::{pairwise_scores, Evaluate, SeatStanding};

/// Expected turns to throw a sig of any kind (a count of 0, 1, 5 or 6: 14 in 64).
const SIG_WAIT: f64 = 64.0 / 14.0;
/// Expected turns to throw a regular sig (1 or 5: 12 in 64), the one way off the start.
const RELEASE_WAIT: f64 = 64.0 / 12.0;
/// Mean squares a plain budget (2, 3 or 4) moves.
const PLAIN_STEP: f64 = 3.0;

/// The expected turns a piece on `idx` still needs to reach Mecca: the wait for a
/// regular sig on the start, plain throws over ordinary squares (twice as far per point
/// for the djinn), and a sig for every step into or out of a sig square.
pub(super) fn turns_to_go(idx: u8, djinn: bool) -> f64 {
    let step = if djinn { 2.0 * PLAIN_STEP } else { PLAIN_STEP };
    let tower = f64::from(MECCA - CORNER) * SIG_WAIT;
    let after_minaret = |from: u8| f64::from(CORNER.saturating_sub(from)) / step + tower;
    match idx {
        0 => {
            RELEASE_WAIT
                + f64::from(MINARET - 2) / step
                + SIG_WAIT
                + SIG_WAIT
                + after_minaret(MINARET + 1)
        }
        i if i < MINARET => {
            f64::from(MINARET - 1 - i) / step + SIG_WAIT + SIG_WAIT + after_minaret(MINARET + 1)
        }
        i if i == MINARET => SIG_WAIT + after_minaret(MINARET + 1),
        i if i <= CORNER => after_minaret(i),
        i if i < MECCA => f64::from(MECCA - i) * SIG_WAIT,
        _ => 0.0,
    }
}

/// Sig (El Oued): finishers are settled in the ranking; a racing seat's strength is the
/// share of its three pieces' expected turns to Mecca already behind it
/// ([`turns_to_go`]), less a risk term for an active piece on an ordinary square that an
/// opponent's active piece one to four squares behind could pass (sending it back).
pub(super) fn evaluate(game: &SigElOued, s: &stickdice::games::sig_el_oued::State) -> SeatValues {
    if let Some(scores) = game.scores(s) {
        return scores;
    }
    let n = game.seats();
    let full: f64 = (0..PIECES).map(|p| turns_to_go(0, p == DJINN)).sum();
    let mut standing = [SeatStanding::Racing(0.0); MAX_SEATS];
    for (seat, st) in standing.iter_mut().enumerate().take(n) {
        if s.finish_place()[seat] > 0 {
            *st = SeatStanding::Finished(u32::from(s.finish_place()[seat]));
            continue;
        }
        let pieces = &s.pieces()[seat];
        let togo: f64 = (0..PIECES)
            .map(|p| turns_to_go(pieces[p], p == DJINN))
            .sum();
        let mut risk = 0.0;
        if let Some(a) = s.active_piece(seat) {
            let i = pieces[a];
            if i > 0 && i < CORNER && !is_sig_square(i) {
                let chased = (0..n).any(|o| {
                    o != seat
                        && s.finish_place()[o] == 0
                        && s.active_piece(o).is_some_and(|b| {
                            let j = s.pieces()[o][b];
                            j > 0 && j < i && i - j <= 4
                        })
                });
                if chased {
                    // Being sent back loses the progress made since the start.
                    risk = 0.25 * (turns_to_go(0, a == DJINN) - turns_to_go(i, a == DJINN)) / full;
                }
            }
        }
        *st = SeatStanding::Racing((1.0 - togo / full - risk).clamp(0.0, 1.0));
    }
    pairwise_scores(&standing[..n])
}

impl Evaluate for stickdice::SigElOued {
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        evaluate(self, state)
    }
}
