//! Evaluation of positions, one implementation per game, shared by the greedy agent,
//! expectimax's leaves and MCTS's playouts and prior.
//!
//! Issiren's default is the learned evaluation ([`crate::learned`]: a network giving the
//! mover's win probability); its hand-set one (below) stays selectable as `eval=hand`
//! ([`Evaluate::evaluator`], [`EVAL_PARAM`]). The race games have the hand-set ones only.
//!
//! The hand-set evaluations are built as follows.
//!
//! Every evaluation here is built the same way, so that it is on the scale of the final
//! scores ([`stickdice::Ranking::score`]) and exactly equal to them once the game is over:
//!
//! 1. each seat gets a [`SeatStanding`]: already finished (in some order), already out (in
//!    some order), or still racing with a *strength* in `[0, 1]` computed from the game's
//!    features (progress along the track, pieces home, captured or buried, threats);
//! 2. [`pairwise_scores`] turns the standings into, for each pair of seats, the chance
//!    that one ranks above the other (certain when the order is already settled, and
//!    `½ + ½·(strength difference)` between two racing seats), and each seat's estimate is
//!    the average of its chances against the others, ties counting half as in the score.
//!
//! So every estimate lies in `[0, 1]`, the estimates of all seats sum to `seats / 2` as the
//! scores do (with two seats: to 1), and a seat that has already beaten another is credited
//! with that for certain.

use stickdice::{Game, GameKind, Seat, SeatValues, MAX_SEATS};

mod houmt_taourit;
mod issiren;
mod sig_el_oued;
mod sig_el_oued_capture;
mod sig_wa_duqqan;
mod siryu_race;
mod siryu_war;

/// A heuristic estimate of each seat's final score.
///
/// ```
/// use stickdice::{Game, Issiren, SeedableRng};
/// use stickdice_agents::Evaluate;
/// let game = Issiren::with_seats(2).unwrap();
/// let mut state = game.initial_state();
/// let v = game.evaluate(&state);
/// assert!((0.0..=1.0).contains(&v[0]) && (0.0..=1.0).contains(&v[1]));
/// let mut rng = stickdice::Rng::seed_from_u64(1);
/// let ranking = stickdice::play::random_playout(&game, &mut state, &mut rng);
/// // At the end, exactly the scores.
/// assert_eq!(game.evaluate(&state), ranking.scores());
/// ```
pub trait Evaluate: stickdice::Playouts + stickdice::Listed {
    /// Each seat's estimated score in `[0, 1]` (the same scale as [`stickdice::Ranking::score`])
    /// by the game's default evaluation (Issiren: the learned one, [`crate::learned`]; the
    /// race games: the hand-set one): at an ended state exactly the scores; elsewhere an
    /// estimate. Entries past the seat count are 0. Values are bounded by `[0, 1]`, so
    /// searches may prune with those bounds.
    fn evaluate(&self, state: &Self::State) -> SeatValues;

    /// Whether the game has an evaluation of its own (the `evaluate` part of what a game
    /// offers, [`evaluations`]); false for the default that only knows the end
    /// ([`even_shares`]), and agents that need an evaluation then refuse the game.
    const HAS_EVALUATION: bool = true;

    /// Whether MCTS built from a spec plays random playouts by default (rather than greedy
    /// ones) when it uses this game's default or learned evaluation: true where that
    /// evaluation is too costly to call for every playout move (Issiren's learned one).
    const RANDOM_PLAYOUTS_BY_DEFAULT: bool = false;

    /// The evaluation the `eval` parameter names: `hand` (the hand-set one), `learned` (the
    /// shipped weights) or a weights file. The default, for a game with only a hand-set
    /// evaluation, accepts `hand` alone.
    ///
    /// # Errors
    /// [`EvaluatorError`], saying what the game accepts.
    fn evaluator(name: &str) -> Result<Evaluator<Self>, EvaluatorError>
    where
        Self: Sized,
    {
        match name {
            "hand" => Ok(Evaluator::default()),
            _ => Err(EvaluatorError::HandOnly { title: Self::TITLE }),
        }
    }
}

/// An evaluation function with the weights it reads: [`Evaluate::evaluate`] of the game,
/// or one the `eval` parameter chose ([`Evaluate::evaluator`]). Plain data, `Copy`, so
/// searches can hold it without requiring [`Evaluate`] of every game.
pub struct Evaluator<G: Game> {
    f: EvalWith<G>,
    net: Weights,
    /// Rates every action of a decision at once (see [`Evaluator::action_values`]), where
    /// the evaluation has a faster way than making each move; `None`: move by move.
    values: Option<ValuesWith<G>>,
    /// Makes one decision of an ε-greedy playout where the evaluation has a faster way
    /// (see [`Evaluator::play_greedy`]).
    greedy: Option<GreedyWith<G>>,
}

/// The function [`Evaluator::play_greedy`] calls where it has one.
type GreedyWith<G> =
    fn(&G, &mut <G as Game>::State, Seat, &mut stickdice::Rng, f64, &mut SeatValues) -> Greedy;

/// What [`Evaluator::play_greedy`] did with a decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Greedy {
    /// Nothing: the caller makes the decision.
    Declined,
    /// The decision is made (a lone move, the pass or a random move).
    Made,
    /// The decision is made by the best-rated move, and the values it was given are the
    /// evaluation's values of the position it left: exactly [`Evaluator::evaluate`] of it.
    Rated,
}

/// The function [`Evaluator::action_values`] calls where it has one.
type ValuesWith<G> = fn(&G, &<G as Game>::State, Seat, &[<G as Game>::Action], &mut [f64]);

/// The function an [`Evaluator`] calls.
type EvalWith<G> = fn(&G, Weights, &<G as Game>::State) -> SeatValues;

/// The learned weights an [`Evaluator`] reads, if any.
#[derive(Clone, Copy)]
enum Weights {
    /// None: a hand-set evaluation.
    None,
    /// Issiren's network.
    Issiren(&'static crate::learned::Network),
    /// The network of a capture game of the family.
    Game(&'static crate::learned::games::GameNet),
}

impl<G: Game> Clone for Evaluator<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Evaluator<G> {}

impl<G: Game> core::fmt::Debug for Evaluator<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Evaluator")
            .field("learned", &!matches!(self.net, Weights::None))
            .finish()
    }
}

impl<G: Evaluate> Default for Evaluator<G> {
    /// The game's default evaluation, [`Evaluate::evaluate`].
    fn default() -> Self {
        Evaluator::hand(|game, _, state| game.evaluate(state))
    }
}

impl<G: Game> Evaluator<G> {
    /// The evaluation `f` without learned weights, rating moves and making playout
    /// decisions move by move.
    fn hand(f: EvalWith<G>) -> Self {
        Evaluator {
            f,
            net: Weights::None,
            values: None,
            greedy: None,
        }
    }

    /// Each seat's estimated score of `state` (see [`Evaluate::evaluate`]).
    #[inline]
    pub fn evaluate(&self, game: &G, state: &G::State) -> SeatValues {
        (self.f)(game, self.net, state)
    }

    /// Whether [`Evaluator::action_values`] has a faster way than making each move (else
    /// callers may as well make the moves themselves).
    #[inline]
    pub fn rates_actions_at_once(&self) -> bool {
        self.values.is_some()
    }

    /// `out[k]`: `seat`'s value of the position after `actions[k]` from the decision
    /// `state`, exactly `self.evaluate(game, &next)[seat]` with `next` the position after
    /// [`Game::apply_action_unchecked`] (Issiren's hand-set evaluation reads the moves
    /// without making them: the same values, fewer instructions).
    ///
    /// # Panics
    /// If `out` and `actions` differ in length.
    #[inline]
    pub fn action_values(
        &self,
        game: &G,
        state: &G::State,
        seat: Seat,
        actions: &[G::Action],
        out: &mut [f64],
    ) {
        assert_eq!(actions.len(), out.len(), "one value per action");
        match self.values {
            Some(values) => values(game, state, seat, actions, out),
            None => {
                for (v, &a) in out.iter_mut().zip(actions) {
                    let mut next = *state;
                    game.apply_action_unchecked(&mut next, a);
                    *v = self.evaluate(game, &next)[seat];
                }
            }
        }
    }

    /// Makes the decision due at `state` (for `seat`) as an ε-greedy playout would (a lone
    /// move without a draw; else a draw below `epsilon`, for `epsilon` < 1, picks a
    /// uniformly random move, and otherwise the move this evaluation rates best, ties
    /// broken uniformly in the legal moves' order), with the same draws and the same move,
    /// where the evaluation has a faster way than listing and rating the moves (Issiren's
    /// hand-set one). Declines ([`Greedy::Declined`]), having drawn and changed nothing,
    /// where it has none or the position is not one it reads.
    #[inline]
    pub(crate) fn play_greedy(
        &self,
        game: &G,
        state: &mut G::State,
        seat: Seat,
        rng: &mut stickdice::Rng,
        epsilon: f64,
        values: &mut SeatValues,
    ) -> Greedy {
        match self.greedy {
            Some(play) => play(game, state, seat, rng, epsilon, values),
            None => Greedy::Declined,
        }
    }
}

#[cfg(test)]
impl<G: Game> Evaluator<G> {
    /// The same evaluation without its own way of making playout decisions (for tests that
    /// compare it with the listing path).
    pub(crate) fn without_greedy(mut self) -> Self {
        self.greedy = None;
        self
    }
}

impl Evaluator<stickdice::Issiren> {
    /// Issiren's hand-set evaluation (`eval=hand`).
    pub fn issiren_hand() -> Self {
        Evaluator {
            f: |game, _, state| issiren::evaluate(game, state),
            net: Weights::None,
            values: Some(issiren::action_values),
            greedy: Some(issiren::play_greedy),
        }
    }

    /// Issiren's learned evaluation with these weights.
    pub fn issiren_learned(net: &'static crate::learned::Network) -> Self {
        Evaluator {
            f: |game, net, state| match net {
                Weights::Issiren(net) => net.evaluate(game, state),
                _ => issiren::evaluate(game, state),
            },
            net: Weights::Issiren(net),
            values: None,
            greedy: None,
        }
    }
}

impl<G: crate::learned::games::LearnedGame> Evaluator<G> {
    /// The learned evaluation of a capture game of the family with these weights
    /// ([`crate::learned::games`]).
    pub fn learned(net: &'static crate::learned::games::GameNet) -> Self {
        Evaluator {
            f: |game, net, state| match net {
                Weights::Game(net) => net.evaluate(game, state),
                _ => game.evaluate(state),
            },
            net: Weights::Game(net),
            values: None,
            greedy: None,
        }
    }

    /// The evaluation `eval=NAME` names for a game with a learned evaluation: `learned` (the
    /// shipped weights, where the game ships some), `hand` (the hand-set one, `hand`) or a
    /// weights file of the game.
    pub(crate) fn learned_named(name: &str, hand: Self) -> Result<Self, EvaluatorError> {
        match name {
            "learned" => G::shipped()
                .map(Evaluator::learned)
                .ok_or(EvaluatorError::NoneShipped { title: G::TITLE }),
            "hand" => Ok(hand),
            path => crate::learned::games::shared::<G>(path)
                .map(Evaluator::learned)
                .map_err(EvaluatorError::Weights),
        }
    }
}

/// The `eval` parameter of the agents that evaluate positions (greedy, expectimax, MCTS).
pub const EVAL_PARAM: crate::params::ParamInfo = crate::params::ParamInfo {
    key: "eval",
    default: "learned",
    help: "the evaluation: `learned` (the shipped weights of a network trained by self-play \
           TD(λ): Issiren's default, also for Sig (El Oued Capture) and Siryu (War)), `hand` \
           (the hand-set evaluation; the only choice for the hand-written race games, the \
           default of the described games) or a weights file written by `stickdice train` \
           (Issiren, the capture games and the described games)",
};

/// The `eval` parameter of a spec: the text given (`None` when not given) and the
/// evaluation it names (the game's default when not given).
///
/// # Errors
/// [`crate::SpecError::BadValue`] for an evaluation the game does not have or a weights
/// file that cannot be used.
pub fn eval_param<G: Evaluate>(
    params: &crate::params::Params<'_>,
) -> Result<(Option<String>, Evaluator<G>), crate::SpecError> {
    if !G::HAS_EVALUATION {
        return Err(crate::SpecError::Unsupported {
            agent: params.info().name,
            why: format!(
                "{} has no evaluation yet (the `evaluate` capability), which {} needs; \
                 random, and mcts or ismcts with random playouts (playout=random), play it",
                G::NAME,
                params.info().name
            ),
        });
    }
    let Some(text) = params.given(EVAL_PARAM.key) else {
        return Ok((None, Evaluator::default()));
    };
    G::evaluator(text)
        .map(|e| (Some(text.to_string()), e))
        .map_err(|why| crate::SpecError::BadValue {
            agent: params.info().name,
            key: EVAL_PARAM.key,
            value: text.to_string(),
            expected: format!("`learned`, `hand` or a weights file ({why})"),
        })
}

/// Why the `eval` parameter names no evaluation ([`Evaluate::evaluator`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvaluatorError {
    /// The game has only its hand-set evaluation.
    #[error("{title} has only the hand-set evaluation (`hand`); learned weights are for Issiren, Sig (El Oued Capture), Siryu (War) and the described games")]
    HandOnly {
        /// The game's title.
        title: &'static str,
    },
    /// The game ships no learned weights (a described game): a weights file names them.
    #[error("{title} ships no learned weights: give a weights file written by `stickdice train` (`eval=FILE`), or `hand`")]
    NoneShipped {
        /// The game's title.
        title: &'static str,
    },
    /// The weights file cannot be used.
    #[error(transparent)]
    Weights(crate::learned::WeightsFileError),
}

/// Where a seat stands, for [`pairwise_scores`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SeatStanding {
    /// Finished (reached the goal); a lower number finished earlier, equal numbers tie.
    Finished(u32),
    /// Out of the race (buried, eliminated); a higher number went out later, which ranks
    /// higher, equal numbers tie.
    Out(u32),
    /// Still racing, with a strength in `[0, 1]` (clamped): the game's estimate of how well
    /// the seat is doing.
    Racing(f64),
}

impl SeatStanding {
    /// The chance that a seat standing as `self` ends above one standing as `other`, ties
    /// counting half. Finished seats rank above racing ones, racing ones above those out.
    pub fn beats(self, other: SeatStanding) -> f64 {
        use SeatStanding::*;
        let order = |a: u32, b: u32| match a.cmp(&b) {
            core::cmp::Ordering::Less => 1.0,
            core::cmp::Ordering::Equal => 0.5,
            core::cmp::Ordering::Greater => 0.0,
        };
        match (self, other) {
            (Finished(a), Finished(b)) => order(a, b),
            (Finished(_), _) => 1.0,
            (_, Finished(_)) => 0.0,
            (Out(a), Out(b)) => order(b, a),
            (Out(_), _) => 0.0,
            (_, Out(_)) => 1.0,
            (Racing(x), Racing(y)) => {
                (0.5 + 0.5 * (x.clamp(0.0, 1.0) - y.clamp(0.0, 1.0))).clamp(0.0, 1.0)
            }
        }
    }
}

/// Each seat's estimated score from the seats' standings: the average over the other seats
/// of [`SeatStanding::beats`]. In `[0, 1]`, summing to `seats / 2`; with one seat, 1.
/// Entries past `standings.len()` are 0.
///
/// # Panics
/// If `standings` is empty or longer than [`MAX_SEATS`].
pub fn pairwise_scores(standings: &[SeatStanding]) -> SeatValues {
    let n = standings.len();
    assert!((1..=MAX_SEATS).contains(&n), "1 to {MAX_SEATS} seats");
    let mut out = [0.0; MAX_SEATS];
    if n == 1 {
        out[0] = 1.0;
        return out;
    }
    for i in 0..n {
        for j in (i + 1)..n {
            let p = standings[i].beats(standings[j]);
            out[i] += p;
            out[j] += 1.0 - p;
        }
    }
    let scale = 1.0 / (n - 1) as f64;
    for v in out.iter_mut().take(n) {
        *v *= scale;
    }
    out
}

/// [`Evaluate`] for the games without an evaluation of their own: exactly the scores at the
/// end, an even share of them elsewhere, and [`Evaluate::HAS_EVALUATION`] false, so agents
/// that need an evaluation say what is missing.
macro_rules! no_evaluation {
    ($($ty:ty),* $(,)?) => {
        $(
            impl Evaluate for $ty {
                const HAS_EVALUATION: bool = false;

                fn evaluate(&self, state: &Self::State) -> SeatValues {
                    even_shares(self, state)
                }
            }
        )*
    };
}

// The table of evaluations: each game of the list has its own (its module here, or the
// described games' generic one in `described_eval.rs`) or is named below. A game in
// neither does not compile.
no_evaluation!();

/// The games of the list with an evaluation of their own (the `evaluate` part of what a
/// game offers), in the list's order; the others have only [`even_shares`].
pub fn evaluations() -> Vec<GameKind> {
    macro_rules! with_evaluation {
        ([] $($variant:ident : $ty:path,)*) => {
            [$((GameKind::$variant, <$ty as Evaluate>::HAS_EVALUATION)),*]
        };
    }
    stickdice::for_each_game!(with_evaluation)
        .into_iter()
        .filter_map(|(kind, has)| has.then_some(kind))
        .collect()
}

/// The scores at the end; elsewhere every seat's share of an even game, `1/2`.
pub fn even_shares<G: Game>(game: &G, state: &G::State) -> SeatValues {
    if let Some(scores) = game.scores(state) {
        return scores;
    }
    let mut out = [0.0; stickdice::MAX_SEATS];
    for v in out.iter_mut().take(game.seats()) {
        *v = 0.5;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use SeatStanding::*;

    #[test]
    fn settled_orders_are_certain_and_racing_seats_share_by_strength() {
        // P1 finished first, P2 racing strong, P3 racing weak, P4 buried.
        let v = pairwise_scores(&[Finished(0), Racing(0.8), Racing(0.2), Out(0)]);
        // P1 beats all three: 1. P2: 0 + (0.5 + 0.3) + 1 = 1.8 over 3. P3: 0 + 0.2 + 1.
        assert_eq!(v[0], 1.0);
        assert!((v[1] - 1.8 / 3.0).abs() < 1e-15);
        assert!((v[2] - 1.2 / 3.0).abs() < 1e-15);
        assert_eq!(v[3], 0.0);
        assert!((v.iter().sum::<f64>() - 2.0).abs() < 1e-12);
        // Two seats sum to 1; later burial ranks above earlier.
        let v = pairwise_scores(&[Out(3), Out(1)]);
        assert_eq!((v[0], v[1]), (1.0, 0.0));
        let v = pairwise_scores(&[Racing(0.25), Racing(0.75)]);
        assert_eq!((v[0], v[1]), (0.25, 0.75));
    }
}

// ---- two-sided capture games ------------------------------------------------------------

/// What the hand-set evaluations of the two-sided capture games (Issiren, Sig (El Oued
/// Capture), Siryu (War)) share: each side's *effective material*, its material less a
/// weight times the chance `threat[enemy]` that the enemy captures one of its pieces with
/// its next throw (`mover_weight` where the enemy is the mover, 0.4 otherwise, since the
/// side to move may flee or strike first), at least 0.05 ([`effective`]); then seat 0's
/// estimate from its share of both sides' ([`share`]), and seat 1's one minus it.
#[inline(always)]
fn material_against_threats(
    mover: Seat,
    material: [f64; 2],
    threat: [f64; 2],
    mover_weight: f64,
) -> SeatValues {
    let mut eff = [0.0f64; 2];
    for (seat, e) in eff.iter_mut().enumerate() {
        let enemy = seat ^ 1;
        let weight = if enemy == mover { mover_weight } else { 0.4 };
        *e = effective(material[seat], weight, threat[enemy]);
    }
    from_share(share(eff[0], eff[1]))
}

/// The values from seat 0's estimate `v0`: `v0` for seat 0, `1 − v0` for seat 1.
#[inline(always)]
fn from_share(v0: f64) -> SeatValues {
    let mut out = [0.0; MAX_SEATS];
    out[0] = v0;
    out[1] = 1.0 - v0;
    out
}

/// A side's effective material: its material less `weight` times the chance `threat`
/// that the enemy captures one of its pieces, at least 0.05.
#[inline(always)]
fn effective(material: f64, weight: f64, threat: f64) -> f64 {
    (material - weight * threat).max(0.05)
}

/// Seat 0's estimate from both sides' effective material, `r² / (r² + (1 − r)²)` with
/// `r` seat 0's share: even at equal material, sharper as the ratio grows (3 to 1 is
/// 0.9). (With effective materials of at least 0.05 the clamp changes nothing.)
#[inline(always)]
fn share(eff0: f64, eff1: f64) -> f64 {
    let r = eff0 / (eff0 + eff1);
    let (a, b) = (r * r, (1.0 - r) * (1.0 - r));
    (a / (a + b)).clamp(0.0, 1.0)
}

#[cfg(test)]
mod race_tests {
    use super::Evaluate;
    use stickdice::{Game, HoumtTaourit, SeedableRng, SiryuRace};

    /// At the end exactly the scores; elsewhere in `[0, 1]`, summing to `seats / 2`; for
    /// every seat count and option of both games.
    fn bounded_and_exact_at_the_end<G: Evaluate>() {
        let mut rng = stickdice::Rng::seed_from_u64(27);
        for game in stickdice::testing::configurations::<G>() {
            let n = game.seats();
            for _ in 0..3 {
                let mut s = game.initial_state();
                let r = stickdice::play::random_playout(&game, &mut s, &mut rng);
                assert_eq!(game.evaluate(&s), r.scores());
            }
            for s in stickdice::testing::random_game_positions(&game, 3, &mut rng) {
                let v = game.evaluate(&s);
                assert!(v[..n].iter().all(|x| (0.0..=1.0).contains(x)), "{v:?}");
                assert!((v[..n].iter().sum::<f64>() - n as f64 / 2.0).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn the_race_family_evaluations_are_bounded_and_exact_at_the_end() {
        bounded_and_exact_at_the_end::<SiryuRace>();
        bounded_and_exact_at_the_end::<HoumtTaourit>();
    }

    /// Progress counts, and a piece an angel could pass with a sir is in danger.
    #[test]
    fn siryu_race_rates_progress_and_the_risk_of_being_sent_back() {
        use stickdice::games::siryu_race::{Position, State};
        let game = SiryuRace::with_seats(2).unwrap();
        let at = |p1: [u8; 3], p2: [u8; 3], turn: u8| {
            let p = Position {
                pieces: vec![p1, p2],
                turn,
                ..Position::start(2)
            };
            game.evaluate(&State::from_position(p).unwrap())[0]
        };
        assert!(at([5, 1, 2], [0, 1, 2], 1) > at([4, 1, 2], [0, 1, 2], 1));
        assert!(at([20, 1, 2], [0, 1, 2], 1) > 0.5);
        // P1's father on 6 with P2's angel on 5 (one sir passes it) is worse than with the
        // angel on 7, ahead of it, though the angel has gone further.
        assert!(at([6, 1, 2], [0, 5, 2], 1) < at([6, 1, 2], [0, 7, 2], 1));
        // The danger is greater with P2 about to throw.
        assert!(at([6, 1, 2], [0, 5, 2], 1) < at([6, 1, 2], [0, 5, 2], 0));
    }
}
