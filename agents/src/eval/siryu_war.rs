//! The hand-set evaluation of Siryu (War).

use stickdice::games::siryu_war::State;
use stickdice::{Game as _, Node, SeatValues, SiryuWar, Sticks};

use super::{Evaluate, Evaluator, EvaluatorError};

/// `CHANCE[throws]`: the chance of a throw among `throws` (bit `w` for `w` white sides).
static CHANCE: [f64; 128] = {
    let mut t = [0.0; 128];
    let mut throws = 0;
    while throws < 128 {
        let mut sum = 0.0;
        let mut w = 0;
        while w <= 6 {
            if throws & (1 << w) != 0 {
                sum += Sticks::SIX.probability(w as u8);
            }
            w += 1;
        }
        t[throws] = sum;
        throws += 1;
    }
    t
};

/// Siryu (War), hand-set in the manner of Issiren's hand evaluation: material first,
/// then the locked reserve, then pieces in danger.
///
/// Each side's *effective material* is its pieces left, plus 0.03 per unlocked piece
/// (it can strike and move on every value; a locked one waits for a colour sir, 6 in
/// 64), plus 0.5 while it keeps a locked piece (locked pieces are out of reach, so the
/// side cannot lose them: its reserve), minus the chance that the enemy captures one of
/// its pieces with its next throw ([`State::capturing_throws`]): in full for the side
/// to throw (or to decide, with the pending throw: 1 or 0), at 40% for the side after
/// it. With `r` the share of seat 0's effective material in both sides', seat 0's
/// estimate is `r² / (r² + (1 − r)²)` and seat 1's one minus it; at the end, exactly
/// the scores.
pub(super) fn evaluate(game: &SiryuWar, s: &State) -> SeatValues {
    let mover = match game.node(s) {
        Node::Throw(seat) | Node::Decide(seat) => seat,
        Node::End => return game.scores(s).expect("an ended game has scores"),
    };
    let mut threat = [0.0f64; 2];
    for (seat, t) in threat.iter_mut().enumerate() {
        let throws = s.capturing_throws(seat);
        *t = match (seat == mover, s.pending()) {
            (true, Some(w)) => f64::from(throws >> (w.marked() & 7) & 1),
            _ => CHANCE[(throws & 127) as usize],
        };
    }
    let material = [0, 1].map(|seat| {
        let locked = s.locked_positions(seat).count_ones();
        let pieces = s.count(seat) as u32;
        f64::from(pieces) + 0.03 * f64::from(pieces - locked) + if locked > 0 { 0.5 } else { 0.0 }
    });
    super::material_against_threats(mover, material, threat, 1.0)
}

/// The chance of a throw of a value among `values` (bit `v`), for tests.
#[cfg(test)]
pub(super) fn chance_of_throws(throws: u8) -> f64 {
    CHANCE[(throws & 127) as usize]
}

impl Evaluate for stickdice::SiryuWar {
    /// The hand-set evaluation: material, the locked reserve, pieces in danger.
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

#[cfg(test)]
mod tests {
    use super::chance_of_throws;
    use crate::eval::Evaluate as _;
    use stickdice::games::siryu_war::{Piece, Position, State};
    use stickdice::{Game, SeedableRng, SiryuWar, Throw};

    fn sq(s: &str) -> stickdice::games::siryu_war::Square {
        s.parse().unwrap()
    }

    #[test]
    fn siryu_war_evaluation_is_the_scores_at_the_end_and_bounded_elsewhere() {
        let game = SiryuWar::default();
        let mut rng = stickdice::Rng::seed_from_u64(4);
        for _ in 0..20 {
            let mut s = game.initial_state();
            let v = game.evaluate(&s);
            assert_eq!(v[0] + v[1], 1.0);
            let r = stickdice::play::random_playout(&game, &mut s, &mut rng);
            assert_eq!(game.evaluate(&s), r.scores());
        }
        for s in stickdice::testing::random_game_positions(&game, 20, &mut rng) {
            let v = game.evaluate(&s);
            assert!((0.0..=1.0).contains(&v[0]) && (v[0] + v[1] - 1.0).abs() < 1e-12);
        }
        // The start: even but for P1's move first (the same material, no threats).
        let v = game.evaluate(&game.initial_state());
        assert_eq!(v[0], 0.5);
        assert_eq!(chance_of_throws(0b111_1111), 1.0);
    }

    #[test]
    fn siryu_war_evaluation_rates_material_reserve_and_danger() {
        let game = SiryuWar::default();
        let u = |names: &[&str]| -> Vec<Piece> {
            names.iter().map(|n| Piece::unlocked(sq(n))).collect()
        };
        let l =
            |names: &[&str]| -> Vec<Piece> { names.iter().map(|n| Piece::locked(sq(n))).collect() };
        let at = |p1: &[Piece], p2: &[Piece], turn, pending: Option<u8>| {
            State::try_from(Position {
                turn,
                pending: pending.map(Throw::new),
                throws: 5,
                ..Position::new(p1, p2)
            })
            .unwrap()
        };
        // More pieces: better.
        let more = at(&u(&["c2", "f3"]), &u(&["h2"]), 1, None);
        assert!(game.evaluate(&more)[0] > 0.6);
        // The same pieces, one kept locked: better for its owner.
        let reserve = at(
            &[u(&["c2"]), l(&["a1"])].concat(),
            &u(&["h2", "e3"]),
            1,
            None,
        );
        let no_reserve = at(&u(&["c2", "g1"]), &u(&["h2", "e3"]), 1, None);
        assert!(game.evaluate(&reserve)[0] > game.evaluate(&no_reserve)[0]);
        // A piece in danger: P1's k3 reaches P2's k2 with a 3. P1 to throw: worse for P2
        // than with P2 to throw; with a pending 3 for P1, worse still.
        let to_throw = at(&u(&["k3"]), &u(&["k2"]), 0, None);
        let after = at(&u(&["k3"]), &u(&["k2"]), 1, None);
        let pending = at(&u(&["k3"]), &u(&["k2"]), 0, Some(3));
        let (a, b, c) = (
            game.evaluate(&to_throw)[1],
            game.evaluate(&after)[1],
            game.evaluate(&pending)[1],
        );
        assert!(c < a && a < b, "{c} {a} {b}");
    }
}
