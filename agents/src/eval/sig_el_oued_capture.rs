//! The hand-set evaluation of Sig (El Oued Capture).

use stickdice::games::sig_el_oued_capture::{Pending, State, MAX_VALUE};
use stickdice::{Game, Node, SeatValues, SigElOuedCapture};

use super::{Evaluate, Evaluator, EvaluatorError};
use crate::threats::sig_el_oued_capture::{capturing_values, chance_of};

/// Sig (El Oued Capture): material first, then the danger to pieces, then mobility.
///
/// Each side's *effective material* is its pieces left, plus 0.6 per moved piece (an
/// unmoved one waits for a sig value, 12 lead throws in 64, and cannot flee or strike
/// meanwhile), minus the chance that the enemy captures one of its pieces with its next
/// move value: twice that chance for the side to throw (or, deciding on a complete
/// value, 2 or 0 as that value captures or not: a capture costs the piece and the
/// tempo), 40% of it for the side after it, since the side to move may flee or strike
/// first (the book's performance chapter *Agents' speed and tuning notes* says how the
/// weights 0.6 and 2 were tuned). With `r` the share of
/// seat 0's effective material in both sides', seat 0's estimate is
/// `r² / (r² + (1 − r)²)` and seat 1's one minus it — Issiren's hand evaluation, on this
/// board and these throws.
pub(super) fn evaluate(game: &SigElOuedCapture, s: &State) -> SeatValues {
    let mover = match game.node(s) {
        Node::Throw(seat) | Node::Decide(seat) => seat,
        Node::End => return game.scores(s).expect("an ended game has scores"),
    };
    let mut threat = [0.0f64; 2];
    for (seat, t) in threat.iter_mut().enumerate() {
        let values = capturing_values(s, seat);
        *t = match (seat == mover, s.pending()) {
            (true, Pending::Sig { .. }) => f64::from(values.1 & 1 << 1 != 0),
            (true, Pending::Value { steps, sig }) => {
                let mask = if sig { values.1 } else { values.0 };
                f64::from(steps <= MAX_VALUE && mask & 1 << steps != 0)
            }
            _ => chance_of(values),
        };
    }
    let material = [0, 1].map(|seat| {
        let pieces = f64::from(s.count(seat));
        let moved = f64::from(s.count(seat) - s.unmoved_count(seat));
        pieces + 0.6 * moved
    });
    super::material_against_threats(mover, material, threat, 2.0)
}

impl Evaluate for stickdice::SigElOuedCapture {
    /// The hand-set evaluation: material, pieces in danger, mobility (see
    /// `evaluate`).
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        evaluate(self, state)
    }

    /// `hand` (the hand-set evaluation), `learned` (the shipped weights,
    /// [`crate::learned::games`]) or the path of a weights file of the game.
    fn evaluator(name: &str) -> Result<Evaluator<Self>, EvaluatorError> {
        Evaluator::learned_named(
            name,
            Evaluator::hand(|game, _, state| evaluate(game, state)),
        )
    }
}
