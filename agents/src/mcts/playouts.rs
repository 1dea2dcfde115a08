//! Playouts: the policy a search plays out from a leaf with ([`Rollout`]), ε-greedy or
//! random moves, cut after a number of throws and scored by the evaluation.

use rand::RngExt as _;
use stickdice::{ActionList, Node as GameNode, Seat, SeatValues, MAX_ACTIONS};

use super::config::Playout;
use crate::best::BestRated;
use crate::eval::{Evaluate, Evaluator, Greedy};
use crate::params::SpecError;

/// An evaluation function: [`Evaluate::evaluate`] of the game or the one the `eval`
/// parameter chose, held so that searches need no [`Evaluate`] of every game.
pub(super) type EvalFn<G> = Evaluator<G>;

/// How a search plays out from a leaf: the policy, the cutoff, and the game's evaluation
/// (needed by greedy moves and cut playouts; `None` for a game without one).
pub(crate) struct Rollout<G: stickdice::Playouts> {
    pub(crate) policy: Playout,
    pub(crate) cutoff: u32,
    pub(crate) evaluate: Option<EvalFn<G>>,
}

impl<G: stickdice::Playouts> Clone for Rollout<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: stickdice::Playouts> Copy for Rollout<G> {}

impl<G: stickdice::Playouts> Rollout<G> {
    /// A rollout with the game's evaluation.
    pub(crate) fn new(policy: Playout, cutoff: u32) -> Self
    where
        G: Evaluate,
    {
        Rollout {
            policy,
            cutoff,
            evaluate: Some(Evaluator::default()),
        }
    }

    /// The same rollout with another evaluation.
    pub(crate) fn with_evaluator(mut self, evaluator: Evaluator<G>) -> Self {
        if self.evaluate.is_some() {
            self.evaluate = Some(evaluator);
        }
        self
    }

    /// A rollout for a game without an evaluation: random playouts to the end only.
    ///
    /// # Errors
    /// [`SpecError::Unsupported`] if `policy` is greedy or `cutoff` is not 0.
    pub(crate) fn without_evaluation(
        agent: &'static str,
        policy: Playout,
        cutoff: u32,
    ) -> Result<Self, SpecError> {
        let why = if policy != Playout::Random {
            "greedy playouts need"
        } else if cutoff != 0 {
            "cut playouts (cutoff > 0) need"
        } else {
            return Ok(Rollout {
                policy,
                cutoff,
                evaluate: None,
            });
        };
        Err(SpecError::Unsupported {
            agent,
            why: format!(
                "{why} an evaluation of {}; use random playouts with cutoff=0",
                G::TITLE
            ),
        })
    }

    /// Plays `state` out and returns every seat's reward: the scores at the end, or the
    /// evaluation once `cutoff` throws have been made (before the next one).
    #[inline]
    pub(crate) fn play(
        &self,
        game: &G,
        state: &mut G::State,
        rng: &mut stickdice::Rng,
    ) -> SeatValues {
        match (self.policy, self.cutoff, self.evaluate) {
            (Playout::Random, 0, _) => stickdice::play::random_playout(game, state, rng).scores(),
            (policy, cutoff, Some(evaluate)) => {
                let epsilon = match policy {
                    Playout::Random => 1.0,
                    Playout::Greedy { epsilon } => epsilon,
                };
                playout(game, state, rng, epsilon, cutoff, evaluate)
            }
            (_, _, None) => unreachable!("checked by Rollout::without_evaluation"),
        }
    }
}

/// A playout with ε-greedy moves (ε = 1: uniformly random), cut after `cutoff` throws
/// (0: never).
#[inline]
pub(super) fn playout<G: stickdice::Playouts>(
    game: &G,
    state: &mut G::State,
    rng: &mut stickdice::Rng,
    epsilon: f64,
    cutoff: u32,
    evaluate: EvalFn<G>,
) -> SeatValues {
    let mut actions = ActionList::new();
    let mut throws = 0;
    // The evaluation of `state` where the decision that led to it rated its move.
    let (mut rated, mut values) = (false, [0.0; stickdice::MAX_SEATS]);
    loop {
        match game.node(state) {
            GameNode::Throw(_) => {
                if throws == cutoff && cutoff != 0 {
                    return if rated {
                        values
                    } else {
                        evaluate.evaluate(game, state)
                    };
                }
                rated = false;
                throws += 1;
                let t = game.sample_throw(rng);
                game.apply_throw_unchecked(state, t);
            }
            GameNode::Decide(_) if epsilon >= 1.0 => {
                // Uniformly random moves: the same draw as indexing the list below.
                game.play_legal_action(state, &mut actions, |len| {
                    stickdice::play::uniform_index(rng, len)
                });
            }
            GameNode::Decide(seat) => {
                // The evaluation's own way where it has one (the same draws and move).
                match evaluate.play_greedy(game, state, seat, rng, epsilon, &mut values) {
                    Greedy::Declined => rated = false,
                    Greedy::Made => {
                        rated = false;
                        continue;
                    }
                    Greedy::Rated => {
                        rated = true;
                        continue;
                    }
                }
                game.legal_actions(state, &mut actions);
                let a = if actions.len() == 1 {
                    actions[0]
                } else if epsilon >= 1.0 || rng.random::<f64>() < epsilon {
                    actions[stickdice::play::uniform_index(rng, actions.len())]
                } else {
                    greedy_action(game, state, seat, &actions, rng, evaluate)
                };
                game.apply_action_unchecked(state, a);
            }
            GameNode::End => return game.scores(state).expect("an ended game has scores"),
        }
    }
}

/// The action whose result `evaluate` rates best for `seat`; ties broken uniformly.
pub(super) fn greedy_action<G: stickdice::Playouts>(
    game: &G,
    state: &G::State,
    seat: Seat,
    actions: &[G::Action],
    rng: &mut stickdice::Rng,
    evaluate: EvalFn<G>,
) -> G::Action {
    // The best value's actions in list order, ties broken uniformly.
    let mut best = BestRated::new(actions[0]);
    if evaluate.rates_actions_at_once() {
        // The values first (a fixed buffer: no allocation), then the ties broken in order.
        let mut values = [0.0f64; MAX_ACTIONS];
        for chunk in actions.chunks(MAX_ACTIONS) {
            let values = &mut values[..chunk.len()];
            evaluate.action_values(game, state, seat, chunk, values);
            for (&a, &v) in chunk.iter().zip(values.iter()) {
                best.offer(a, v, rng);
            }
        }
    } else {
        for &a in actions {
            let mut next = *state;
            game.apply_action_unchecked(&mut next, a);
            best.offer(a, evaluate.evaluate(game, &next)[seat], rng);
        }
    }
    best.item()
}

#[cfg(test)]
mod tests {
    use rand::{Rng as _, RngExt as _, SeedableRng as _};
    use stickdice::games::issiren::State;
    use stickdice::{ActionList, Game, Issiren, Node};

    use super::playout;
    use crate::eval::{Evaluator, Greedy};

    /// Positions to play out from: every position of 150 random Issiren games (throw and
    /// decision nodes), and 6 000 damaged ones (`stickdice::testing::damaged_issiren_state`).
    fn starts(game: &Issiren, rng: &mut stickdice::Rng) -> Vec<State> {
        let mut starts = stickdice::testing::random_game_positions(game, 150, rng);
        starts.extend((0..6_000).map(|_| stickdice::testing::damaged_issiren_state(game, rng)));
        starts
    }

    /// Issiren's greedy playouts with the hand-set evaluation make their decisions in the
    /// evaluation's own way (`Evaluator::play_greedy`): they are the listing path's, bit
    /// for bit (the same values, the same final position, the same generator state), from
    /// every start position and for several ε and cutoffs; and each decision it makes is
    /// the listing path's, its values (where it rates the move) `evaluate` of the position
    /// it leaves, and a decision it declines is left untouched.
    #[test]
    fn greedy_playouts_by_the_evaluation_are_the_listing_path() {
        let game = Issiren::with_seats(2).unwrap();
        let fused = Evaluator::issiren_hand();
        let listing = fused.without_greedy();
        let mut rng = stickdice::Rng::seed_from_u64(2026);
        let starts = starts(&game, &mut rng);
        let mut outcomes = [0u32; 3];
        for (k, start) in starts.iter().enumerate() {
            for (j, &(epsilon, cutoff)) in [(0.1, 4), (0.0, 4), (0.5, 2), (0.1, 0), (0.0, 30)]
                .iter()
                .enumerate()
            {
                let seed = (k * 8 + j) as u64;
                let (mut s1, mut r1) = (*start, stickdice::Rng::seed_from_u64(seed));
                let (mut s2, mut r2) = (*start, stickdice::Rng::seed_from_u64(seed));
                let v1 = playout(&game, &mut s1, &mut r1, epsilon, cutoff, fused);
                let v2 = playout(&game, &mut s2, &mut r2, epsilon, cutoff, listing);
                assert_eq!(v1.map(f64::to_bits), v2.map(f64::to_bits), "{start:?} {j}");
                assert_eq!(s1, s2, "{start:?} {j}");
                assert_eq!(r1.next_u64(), r2.next_u64(), "{start:?} {j}");
            }
            // The decision alone, against the listing path's.
            let Node::Decide(seat) = game.node(start) else {
                continue;
            };
            for epsilon in [0.0, 0.3] {
                let seed = k as u64;
                let (mut s1, mut r1) = (*start, stickdice::Rng::seed_from_u64(seed));
                let mut values = [f64::NAN; stickdice::MAX_SEATS];
                let outcome =
                    fused.play_greedy(&game, &mut s1, seat, &mut r1, epsilon, &mut values);
                let (mut s2, mut r2) = (*start, stickdice::Rng::seed_from_u64(seed));
                match outcome {
                    Greedy::Declined => {
                        outcomes[0] += 1;
                        assert_eq!(s1, *start);
                    }
                    made => {
                        let mut actions = ActionList::new();
                        game.legal_actions(&s2, &mut actions);
                        let a = if actions.len() == 1 {
                            actions[0]
                        } else if r2.random::<f64>() < epsilon {
                            actions[stickdice::play::uniform_index(&mut r2, actions.len())]
                        } else {
                            super::greedy_action(&game, &s2, seat, &actions, &mut r2, listing)
                        };
                        game.apply_action_unchecked(&mut s2, a);
                        assert_eq!(s1, s2, "{start:?}");
                        if made == Greedy::Rated {
                            outcomes[2] += 1;
                            let plain = listing.evaluate(&game, &s2);
                            assert_eq!(values.map(f64::to_bits), plain.map(f64::to_bits));
                        } else {
                            outcomes[1] += 1;
                        }
                    }
                }
                assert_eq!(r1.next_u64(), r2.next_u64(), "{start:?}");
            }
        }
        // Every kind of outcome, many times over.
        assert!(outcomes.iter().all(|&n| n > 2_000), "{outcomes:?}");
    }
}
