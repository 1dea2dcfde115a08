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

use stickdice::{Game, Seat, SeatValues, MAX_SEATS};

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

    /// Whether the game has an evaluation of its own (the `evaluate` capability of
    /// [`stickdice::for_each_game!`]); false for the default that only knows the end
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
    Family(&'static crate::learned::family::FamilyNet),
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
            f: |game, _, state| issiren_eval::evaluate(game, state),
            net: Weights::None,
            values: Some(issiren_eval::action_values),
            greedy: Some(issiren_eval::play_greedy),
        }
    }

    /// Issiren's learned evaluation with these weights.
    pub fn issiren_learned(net: &'static crate::learned::Network) -> Self {
        Evaluator {
            f: |game, net, state| match net {
                Weights::Issiren(net) => net.evaluate(game, state),
                _ => issiren_eval::evaluate(game, state),
            },
            net: Weights::Issiren(net),
            values: None,
            greedy: None,
        }
    }
}

impl<G: crate::learned::family::FamilyGame> Evaluator<G> {
    /// The learned evaluation of a capture game of the family with these weights
    /// ([`crate::learned::family`]).
    pub fn family_learned(net: &'static crate::learned::family::FamilyNet) -> Self {
        Evaluator {
            f: |game, net, state| match net {
                Weights::Family(net) => net.evaluate(game, state),
                _ => game.evaluate(state),
            },
            net: Weights::Family(net),
            values: None,
            greedy: None,
        }
    }

    /// The evaluation `eval=NAME` names for a capture game of the family: `learned` (the
    /// shipped weights), `hand` (the hand-set one, `hand`) or a weights file of the game.
    fn family_named(name: &str, hand: Self) -> Result<Self, EvaluatorError> {
        match name {
            "learned" => Ok(Evaluator::family_learned(G::shipped())),
            "hand" => Ok(hand),
            path => crate::learned::family::shared::<G>(path)
                .map(Evaluator::family_learned)
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
           (the hand-set evaluation; the only choice for the race games) or a weights file \
           written by `stickdice train` (Issiren and the capture games)",
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
    #[error("{title} has only the hand-set evaluation (`hand`); learned weights are for Issiren, Sig (El Oued Capture) and Siryu (War)")]
    HandOnly {
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

/// [`Evaluate`] for each game of the list without the `evaluate` capability
/// ([`stickdice::for_each_game!`]): exactly the scores at the end, an even share of them
/// elsewhere, and [`Evaluate::HAS_EVALUATION`] false, so agents that need an evaluation
/// say what is missing.
macro_rules! no_evaluation {
    ([] $($variant:ident : $ty:path [$($cap:ident)*],)*) => {
        $(
            stickdice::__unless_has!(evaluate, [$($cap)*], {
                impl Evaluate for $ty {
                    const HAS_EVALUATION: bool = false;

                    fn evaluate(&self, state: &Self::State) -> SeatValues {
                        even_shares(self, state)
                    }
                }
            });
        )*
    };
}
stickdice::for_each_game!(no_evaluation);

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

// ---- Issiren --------------------------------------------------------------------------

pub(crate) mod issiren_eval {
    use stickdice::games::issiren::{
        circuit_square, grants_extra_throw, throw_value, Action, Piece, PlannedMove, CIRCUIT_LEN,
        PIECES,
    };
    use stickdice::{Issiren, Node, Seat, SeatValues, Sticks, Throw};

    use super::{effective, from_share, material_against_threats, share, Greedy};
    use crate::best::BestRated;

    /// `DEST[seat][pos]`: the square bit of circuit position `pos mod 72` (for `pos` up to
    /// 71 + 6, so a move never needs a wrap).
    static DEST: [[u64; 80]; 2] = {
        let mut t = [[0u64; 80]; 2];
        let mut seat = 0;
        while seat < 2 {
            let mut pos = 0;
            while pos < 80 {
                t[seat][pos] = match circuit_square(seat, (pos % CIRCUIT_LEN as usize) as u8) {
                    Some(sq) => sq.bit(),
                    None => panic!("positions mod 72 are on the circuit"),
                };
                pos += 1;
            }
            seat += 1;
        }
        t
    };

    /// `REACH[seat][pos]`: the squares a moved piece at `pos` can land on with some throw
    /// (moves of 1 to 6), so a piece that threatens nothing is passed over with one test.
    static REACH: [[u64; 72]; 2] = {
        let mut t = [[0u64; 72]; 2];
        let mut seat = 0;
        while seat < 2 {
            let mut pos = 0;
            while pos < 72 {
                let mut v = 1;
                while v <= 6 {
                    t[seat][pos] |= DEST[seat][pos + v];
                    v += 1;
                }
                pos += 1;
            }
            seat += 1;
        }
        t
    };

    /// `t[seat][pos]`: `table[seat][pos mod 72 + offset]` for any `u8` position `pos`, so a
    /// piece's entry is one lookup by its raw position (a division per piece costs more).
    const fn at_any_pos<const N: usize>(table: &[[u64; N]; 2], offset: usize) -> [[u64; 256]; 2] {
        let mut t = [[0u64; 256]; 2];
        let mut seat = 0;
        while seat < 2 {
            let mut pos = 0;
            while pos < 256 {
                t[seat][pos] = table[seat][pos % CIRCUIT_LEN as usize + offset];
                pos += 1;
            }
            seat += 1;
        }
        t
    }

    /// `REACH_AT[seat][pos]`: `REACH[seat][pos mod 72]` for any `u8` position, so a piece's
    /// reach is one lookup by its raw position.
    static REACH_AT: [[u64; 256]; 2] = at_any_pos(&REACH, 0);

    /// `SQUARE_AT[seat][pos]`: `DEST[seat][pos mod 72]` (the square bit of a piece at
    /// `pos`) for any `u8` position.
    static SQUARE_AT: [[u64; 256]; 2] = at_any_pos(&DEST, 0);

    /// `STEP_AT[seat][pos]`: `DEST[seat][pos mod 72 + 1]` (where an unmoved piece's one
    /// step lands) for any `u8` position.
    static STEP_AT: [[u64; 256]; 2] = at_any_pos(&DEST, 1);

    /// `P_VALUE[v]`: the probability that a throw moves `v` steps (1..=6).
    const P_VALUE: [f64; 7] = {
        let mut p = [0.0; 7];
        let mut g = 0;
        while g <= Sticks::SIX.count() {
            let v = match throw_value(Throw::new(g)) {
                Some(v) => v,
                None => panic!("six sticks"),
            };
            p[v as usize] += Sticks::SIX.probability(g);
            g += 1;
        }
        p
    };

    /// `CHANCE[values]`: the chance that a throw's move value is among `values` (bit `v`
    /// for a move of `v`), summed in order of `v` from -0.0 as an iterator's `sum` does.
    static CHANCE: [f64; 128] = {
        let mut t = [0.0; 128];
        let mut values = 0;
        while values < 128 {
            let mut sum = -0.0;
            let mut v = 1;
            while v <= 6 {
                if values & (1 << v) != 0 {
                    sum += P_VALUE[v];
                }
                v += 1;
            }
            t[values] = sum;
            values += 1;
        }
        t
    };

    /// `POS_MOD[pos]`: `pos mod 72`, for any `u8` position (a division per piece costs
    /// more than the lookup).
    static POS_MOD: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut pos = 0;
        while pos < 256 {
            t[pos] = (pos % CIRCUIT_LEN as usize) as u8;
            pos += 1;
        }
        t
    };

    /// `MOVE_TO[seat][pos][square]`: the move value (1..=6) that takes a piece of `seat`
    /// at `pos` onto `square`, for the squares in `REACH[seat][pos]` (six consecutive
    /// positions are six different squares), else 0.
    static MOVE_TO: [[[u8; 64]; 72]; 2] = {
        let mut t = [[[0u8; 64]; 72]; 2];
        let mut seat = 0;
        while seat < 2 {
            let mut pos = 0;
            while pos < 72 {
                let mut v = 1;
                while v <= 6 {
                    let square = DEST[seat][pos + v].trailing_zeros() as usize;
                    t[seat][pos][square] = v as u8;
                    v += 1;
                }
                pos += 1;
            }
            seat += 1;
        }
        t
    };

    /// Which move values (bit `v`) let `seat` land on an enemy piece (`attacks(s, seat).0`),
    /// and how many of its pieces have moved: one pass over its pieces.
    #[inline(always)]
    fn capturing_values_and_moved(s: &stickdice::games::issiren::State, seat: usize) -> (u8, u32) {
        let step = &STEP_AT[seat & 1];
        let reach = &REACH_AT[seat & 1];
        let move_to = &MOVE_TO[seat & 1];
        let enemy = s.occupied()[(seat & 1) ^ 1];
        let (mut values, mut moved) = (0u8, 0u32);
        for p in s.pieces_of(seat) {
            if p.unmoved {
                if step[p.pos as usize] & enemy != 0 {
                    values |= 1 << 1;
                }
            } else {
                moved += 1;
                let mut hits = reach[p.pos as usize] & enemy;
                // Only a piece that hits needs its position mod 72.
                let pos = POS_MOD[p.pos as usize] as usize;
                while hits != 0 {
                    let square = hits.trailing_zeros() as usize;
                    values |= 1 << move_to[pos][square & 63];
                    hits &= hits - 1;
                }
            }
        }
        (values, moved)
    }

    /// [`capturing_values_and_moved`] of `pieces` (of `seat`) against the enemy squares
    /// `enemy`: the values are or-ed and the moved pieces counted, so the order of the
    /// pieces does not matter.
    #[inline(always)]
    fn side_values(pieces: impl Iterator<Item = Piece>, seat: usize, enemy: u64) -> (u8, u32) {
        let (mut values, mut moved) = (0u8, 0u32);
        for p in pieces {
            moved += u32::from(!p.unmoved);
            values |= piece_values(p, seat, enemy);
        }
        (values, moved)
    }

    /// The move values (bit `v`) that let piece `p` of `seat` land on one of the squares
    /// `enemy`: an unmoved piece's step of 1, a moved piece's hits in its reach.
    #[inline(always)]
    fn piece_values(p: Piece, seat: usize, enemy: u64) -> u8 {
        if p.unmoved {
            if STEP_AT[seat & 1][p.pos as usize] & enemy != 0 {
                1 << 1
            } else {
                0
            }
        } else {
            let mut values = 0u8;
            let mut hits = REACH_AT[seat & 1][p.pos as usize] & enemy;
            // Only a piece that hits needs its position mod 72.
            let pos = POS_MOD[p.pos as usize] as usize;
            while hits != 0 {
                let square = hits.trailing_zeros() as usize;
                values |= 1 << MOVE_TO[seat & 1][pos][square & 63];
                hits &= hits - 1;
            }
            values
        }
    }

    /// What `seat` attacks: the move values (bit `v`) that let it land on an enemy piece, and
    /// the enemy squares some throw lets it land on (for the learned evaluation's features).
    /// A moved piece's hits are the enemy squares in its reach, each giving the one move
    /// value that lands there; an unmoved piece can only move 1.
    #[inline]
    pub(crate) fn attacks(s: &stickdice::games::issiren::State, seat: usize) -> (u8, u64) {
        let dest = &DEST[seat];
        let reach = &REACH[seat];
        let move_to = &MOVE_TO[seat];
        let enemy = s.occupied()[seat ^ 1];
        let (mut values, mut squares) = (0u8, 0u64);
        for p in s.pieces_of(seat) {
            let pos = POS_MOD[p.pos as usize] as usize;
            if p.unmoved {
                let hit = dest[pos + 1] & enemy;
                if hit != 0 {
                    values |= 1 << 1;
                    squares |= hit;
                }
            } else {
                let mut hits = reach[pos] & enemy;
                squares |= hits;
                while hits != 0 {
                    let square = hits.trailing_zeros() as usize;
                    values |= 1 << move_to[pos][square & 63];
                    hits &= hits - 1;
                }
            }
        }
        (values, squares)
    }

    /// The chance that a throw's move value is among `values` (bit `v` for a move of `v`).
    #[inline]
    pub(crate) fn chance_of(values: u8) -> f64 {
        CHANCE[(values & 127) as usize]
    }

    /// Issiren: material first, then threats, then mobility.
    ///
    /// Each side's *effective material* is its pieces left, plus 0.03 per moved piece
    /// (unmoved pieces wait for a throw of four green sides), minus the chance that the
    /// enemy captures one of them with its next throw: the side to throw (or to decide, with
    /// the pending throw) counts that chance in full, the side after it at 40%, since the
    /// side to move may flee or strike first. With `r` the share of seat 0's effective
    /// material in both sides', seat 0's estimate is `r² / (r² + (1 − r)²)` — even at equal
    /// material, sharper as the ratio grows (3 pieces to 1 is 0.9) — and seat 1's is one
    /// minus it.
    pub(crate) fn evaluate(game: &Issiren, s: &stickdice::games::issiren::State) -> SeatValues {
        use stickdice::Game as _;
        // The node first: `scores` (the ranking) is `Some` exactly at the end.
        let mover = match game.node(s) {
            Node::Throw(seat) | Node::Decide(seat) => seat,
            Node::End => return game.scores(s).expect("an ended game has scores"),
        };
        let sides = [
            capturing_values_and_moved(s, 0),
            capturing_values_and_moved(s, 1),
        ];
        let pieces = [s.pieces_of(0).len() as u32, s.pieces_of(1).len() as u32];
        estimate(mover, s.pending(), sides, pieces)
    }

    /// The estimate from each side's capturing values and moved pieces (`sides`), its
    /// pieces left, the mover and the pending throw: [`evaluate`]'s arithmetic, in one place.
    #[inline(always)]
    fn estimate(
        mover: Seat,
        pending: Option<Throw>,
        sides: [(u8, u32); 2],
        pieces: [u32; 2],
    ) -> SeatValues {
        let mut threat = [0.0f64; 2]; // threat[s]: chance that s captures with its next throw
        for (seat, t) in threat.iter_mut().enumerate() {
            let values = sides[seat].0;
            *t = match (seat == mover, pending) {
                (true, Some(g)) => {
                    let v = throw_value(g).unwrap_or(0);
                    if values & (1 << v) != 0 {
                        1.0
                    } else {
                        0.0
                    }
                }
                _ => chance_of(values),
            };
        }
        let material = [
            material(pieces[0], sides[0].1),
            material(pieces[1], sides[1].1),
        ];
        material_against_threats(mover, material, threat, 1.0)
    }

    /// A side's material: its pieces and 0.03 per moved piece ([`estimate`]). Counts as
    /// `u32` (at most 12): the same values, a cheaper conversion.
    #[inline(always)]
    fn material(pieces: u32, moved: u32) -> f64 {
        f64::from(pieces) + 0.03 * f64::from(moved)
    }

    /// What the moves of one decision share when their values are read without making
    /// them ([`action_values`], [`play_greedy`]): the mover's capturing values, each
    /// piece's and the ones two pieces share (a move changes only the moving piece's), each
    /// side's pieces left and material, and the squares the enemy's pieces reach.
    struct Decision<'a, const M: usize> {
        own: &'a [Piece],
        enemy: &'a [Piece],
        occupied_m: u64,
        occupied_e: u64,
        /// Each of the mover's pieces' capturing values.
        own_values: [u8; PIECES],
        /// The mover's capturing values, or-ed.
        values: u8,
        /// The values two or more of the mover's pieces have (so a move of one keeps them).
        shared_values: u8,
        pieces: [u32; 2],
        /// The mover's material after a move of a moved piece (`[0]`) or an unmoved one.
        material_m: [f64; 2],
        /// The enemy's material (a move that captures nothing leaves it).
        material_e: f64,
        /// The squares some enemy piece lands on with some throw: a move that leaves the
        /// mover on none of them gives the enemy no capturing value.
        enemy_reach: u64,
        /// Whether the mover's pieces stand on as many squares as it has pieces (so each
        /// piece is the one its square's move moves).
        distinct: bool,
        /// Whether the pending throw grants the mover another throw.
        extra: bool,
    }

    impl<'a, const M: usize> Decision<'a, M> {
        /// `None` unless the game goes on after any move (the next node is a throw): both
        /// sides have pieces, the throw cap is not reached, a throw is pending and the turn
        /// is `M` (seat 0 or 1), with a throw of six sticks.
        #[inline(always)]
        fn new(game: &Issiren, s: &'a stickdice::games::issiren::State) -> Option<Self> {
            let counts = 1..=PIECES as u8;
            let going = counts.contains(&s.count()[0])
                && counts.contains(&s.count()[1])
                && s.throws() < game.max_throws()
                && s.pending().is_some_and(|t| t.marked() <= 6)
                && s.turn() as usize == M;
            if !going {
                return None;
            }
            let (m, e) = (M & 1, (M & 1) ^ 1);
            let (own, enemy) = (s.pieces_of(m), s.pieces_of(e));
            let occupied_e = s.occupied()[e];
            let n = own.len();
            let mut own_values = [0u8; PIECES];
            let (mut values, mut shared_values) = (0u8, 0u8);
            let mut moved_m = 0u32;
            let (mut squares, mut shared) = (0u64, 0u64);
            for (j, &p) in own.iter().enumerate() {
                let v = piece_values(p, m, occupied_e);
                own_values[j] = v;
                shared_values |= values & v;
                values |= v;
                moved_m += u32::from(!p.unmoved);
                let square = SQUARE_AT[m][p.pos as usize];
                shared |= squares & square;
                squares |= square;
            }
            let (mut moved_e, mut enemy_reach) = (0u32, 0u64);
            for q in enemy {
                moved_e += u32::from(!q.unmoved);
                enemy_reach |= if q.unmoved {
                    STEP_AT[e][q.pos as usize]
                } else {
                    REACH_AT[e][q.pos as usize]
                };
            }
            let mut pieces = [0; 2];
            pieces[m] = n as u32;
            pieces[e] = enemy.len() as u32;
            Some(Decision {
                own,
                enemy,
                occupied_m: s.occupied()[m],
                occupied_e,
                own_values,
                values,
                shared_values,
                pieces,
                material_m: [
                    material(pieces[m], moved_m),
                    material(pieces[m], moved_m + 1),
                ],
                material_e: material(pieces[e], moved_e),
                enemy_reach,
                distinct: shared == 0,
                extra: s.pending().is_some_and(grants_extra_throw),
            })
        }

        /// Seat 0's estimate of the position after the move `p` ([`share`]; the values are
        /// [`from_share`] of it), read without making it; `None` for a move it does not read
        /// (the capture of the enemy's last piece, which ends the game).
        #[inline(always)]
        fn share(&self, p: &PlannedMove) -> Option<f64> {
            let (m, e) = (M & 1, (M & 1) ^ 1);
            let (own, enemy) = (self.own, self.enemy);
            let mover = if p.extra { m } else { e };
            match p.captured {
                None if p.piece < own.len() => {
                    // The mover's pieces but the moving one, and that one at its new place;
                    // the enemy's pieces against the mover's new squares.
                    let i = p.piece;
                    // The values of the other pieces: all but those only the moving one has.
                    let others = self.values & !(self.own_values[i] & !self.shared_values);
                    let mover_values =
                        others | piece_values(Piece::moved(p.to_pos), m, self.occupied_e);
                    let own_occupied = (self.occupied_m & !p.from_bit) | p.to_bit;
                    let mut enemy_values = 0u8;
                    if own_occupied & self.enemy_reach != 0 {
                        for &q in enemy {
                            enemy_values |= piece_values(q, e, own_occupied);
                        }
                    }
                    // `estimate`'s arithmetic with no throw pending, the materials as the
                    // decision has them; the next to act is the mover again on an extra
                    // throw (every move of the decision has the same throw), else the enemy.
                    let (weight_m, weight_e) = if self.extra { (0.4, 1.0) } else { (1.0, 0.4) };
                    let material_m = self.material_m[usize::from(own[i].unmoved)];
                    let eff_m = effective(material_m, weight_m, chance_of(enemy_values));
                    let eff_e = effective(self.material_e, weight_e, chance_of(mover_values));
                    let v0 = if m == 0 {
                        share(eff_m, eff_e)
                    } else {
                        share(eff_e, eff_m)
                    };
                    Some(v0)
                }
                Some(skip) if enemy.len() > 1 => {
                    let moved = own.iter().enumerate().map(|(k, &q)| {
                        if k == p.piece {
                            Piece::moved(p.to_pos)
                        } else {
                            q
                        }
                    });
                    let mover_side = side_values(moved, m, self.occupied_e & !p.to_bit);
                    let own_occupied = (self.occupied_m & !p.from_bit) | p.to_bit;
                    let left = enemy
                        .iter()
                        .enumerate()
                        .filter(|&(k, _)| k != skip)
                        .map(|(_, &q)| q);
                    let enemy_side = side_values(left, e, own_occupied);
                    let mut sides = [(0, 0); 2];
                    sides[m] = mover_side;
                    sides[e] = enemy_side;
                    let mut left_pieces = self.pieces;
                    left_pieces[e] -= 1;
                    Some(estimate(mover, None, sides, left_pieces)[0])
                }
                _ => None,
            }
        }

        /// The mover's value of the position after the move `p` of `s` (the decision's
        /// position), and its seat 0 estimate where [`Decision::share`] read it without the
        /// move made (else the move is made on a copy and evaluated).
        #[inline(always)]
        fn value(
            &self,
            game: &Issiren,
            s: &stickdice::games::issiren::State,
            p: &PlannedMove,
        ) -> (f64, Option<f64>) {
            match self.share(p) {
                Some(v0) => (from_share(v0)[M], Some(v0)),
                None => {
                    let mut next = *s;
                    game.apply_move_of_piece(&mut next, p.piece);
                    (evaluate(game, &next)[M], None)
                }
            }
        }
    }

    /// `seat`'s value of the position after `a`: the move made on a copy and evaluated.
    #[inline]
    fn value_after(
        game: &Issiren,
        s: &stickdice::games::issiren::State,
        seat: Seat,
        a: Action,
    ) -> f64 {
        use stickdice::Game as _;
        let mut next = *s;
        game.apply_action_unchecked(&mut next, a);
        evaluate(game, &next)[seat]
    }

    /// One decision of an ε-greedy playout, as `mcts::playouts::playout` makes it with
    /// the hand-set evaluation (the same draws, values and move), by piece index: the
    /// pieces that can move are a bitmask ([`stickdice::games::issiren::State::movable_pieces`],
    /// the order of the legal moves), their values are read without making the moves
    /// ([`Decision`]), and the chosen piece is moved by its index. A lone move (or the pass)
    /// is made without a draw; otherwise a draw below `epsilon` picks a uniformly random
    /// move, else the best-valued one is taken, ties broken uniformly in list order
    /// (reservoir sampling), and the values of the position it leaves are returned with it
    /// in `values` ([`Greedy::Rated`]: exactly [`evaluate`] of that position). Declines, with nothing
    /// drawn or changed, where the decision is not one it reads: a move could end the game,
    /// or the position is one [`stickdice::Game::validate`] rejects (two of the mover's
    /// pieces on one square).
    pub(crate) fn play_greedy(
        game: &Issiren,
        s: &mut stickdice::games::issiren::State,
        seat: Seat,
        rng: &mut stickdice::Rng,
        epsilon: f64,
        values: &mut SeatValues,
    ) -> Greedy {
        match s.turn() {
            0 => play_greedy_as::<0>(game, s, seat, rng, epsilon, values),
            1 => play_greedy_as::<1>(game, s, seat, rng, epsilon, values),
            _ => Greedy::Declined,
        }
    }

    /// [`play_greedy`] with seat `M` to move (each seat's tables at fixed places).
    #[inline(always)]
    fn play_greedy_as<const M: usize>(
        game: &Issiren,
        s: &mut stickdice::games::issiren::State,
        seat: Seat,
        rng: &mut stickdice::Rng,
        epsilon: f64,
        values: &mut SeatValues,
    ) -> Greedy {
        use rand::RngExt as _;
        use stickdice::Game as _;
        if seat != M {
            return Greedy::Declined; // not the decision's own seat: not a playout's decision
        }
        let mut rated = false;
        let piece = {
            let Some(d) = Decision::<M>::new(game, s) else {
                return Greedy::Declined;
            };
            if !d.distinct {
                return Greedy::Declined;
            }
            let mut moves = s.planned_moves();
            if moves.at_most_one() {
                moves.next().map(|p| p.piece)
            } else if rng.random::<f64>() < epsilon {
                let k = stickdice::play::uniform_index(rng, moves.remaining());
                moves.nth(k).map(|p| p.piece)
            } else if let Some(first) = moves.next() {
                // The best move (the first stands until one is taken, as the legal list's
                // first does in the listing path), ties broken uniformly in list order,
                // with its seat 0 estimate where it was read without the move made.
                let mut best = BestRated::new((first.piece, None));
                let (v, share) = d.value(game, s, &first);
                best.offer((first.piece, share), v, rng);
                for p in moves {
                    let (v, share) = d.value(game, s, &p);
                    best.offer((p.piece, share), v, rng);
                }
                let (piece, best_share) = best.item();
                if let Some(v0) = best_share {
                    *values = from_share(v0);
                    rated = true;
                }
                Some(piece)
            } else {
                None
            }
        };
        match piece {
            Some(i) => game.apply_move_of_piece(s, i),
            None => game.apply_action_unchecked(s, Action::Pass),
        }
        if rated {
            Greedy::Rated
        } else {
            Greedy::Made
        }
    }

    /// `out[k]`: [`evaluate`] of the position after `actions[k]`, for `seat`, the same
    /// values with no move made. Every move's plan is read from `s`
    /// ([`stickdice::games::issiren::State::planned_move`]) and each side's capturing values
    /// gathered once: the mover's piece by piece (a move changes one piece's), and the
    /// enemy's against the mover's new squares. A move that captures is read piece by
    /// piece on the new squares; anything else (a pass, a move that ends the game, the
    /// throw cap, a position whose pieces and bitboards disagree) is made on a copy and
    /// evaluated. Capturing values are or-ed and moved pieces counted, so the order of
    /// the pieces does not matter, and [`estimate`] does the same arithmetic as [`evaluate`].
    pub(crate) fn action_values(
        game: &Issiren,
        s: &stickdice::games::issiren::State,
        seat: Seat,
        actions: &[Action],
        out: &mut [f64],
    ) {
        match s.turn() {
            0 => action_values_as::<0>(game, s, seat, actions, out),
            _ => action_values_as::<1>(game, s, seat, actions, out),
        }
    }

    /// [`action_values`] with seat `M` to move, or made move by move if another is.
    #[inline(always)]
    fn action_values_as<const M: usize>(
        game: &Issiren,
        s: &stickdice::games::issiren::State,
        seat: Seat,
        actions: &[Action],
        out: &mut [f64],
    ) {
        let Some(d) = Decision::<M>::new(game, s).filter(|_| actions.len() <= PIECES) else {
            for (v, &a) in out.iter_mut().zip(actions) {
                *v = value_after(game, s, seat, a);
            }
            return;
        };
        for (v, &a) in out.iter_mut().zip(actions) {
            let plan = match a {
                Action::Move(from) => s.planned_move(from),
                Action::Pass => None,
            };
            *v = match plan.and_then(|p| d.share(&p)) {
                Some(v0) => from_share(v0)[seat],
                None => value_after(game, s, seat, a),
            };
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use stickdice::games::issiren::State;
        use stickdice::Game as _;
        use stickdice::MAX_SEATS;

        /// Plays `games` random games (the throws and moves drawn from `rng`), calling
        /// `visit` at every node before it is played: at a decision with its legal actions,
        /// at a throw and at the end with none. `visit` may draw from `rng` too.
        fn each_node_of_random_games(
            game: &Issiren,
            games: usize,
            rng: &mut stickdice::Rng,
            mut visit: impl FnMut(&State, Option<&[Action]>, &mut stickdice::Rng),
        ) {
            use rand::RngExt as _;
            use stickdice::{ActionList, Game as _};
            let mut legal = ActionList::new();
            for _ in 0..games {
                let mut state = game.initial_state();
                loop {
                    match game.node(&state) {
                        Node::Throw(_) => {
                            visit(&state, None, rng);
                            let t = game.sample_throw(rng);
                            game.apply_throw_unchecked(&mut state, t);
                        }
                        Node::Decide(_) => {
                            game.legal_actions(&state, &mut legal);
                            visit(&state, Some(&legal), rng);
                            let a = legal[rng.random_range(0..legal.len())];
                            game.apply_action_unchecked(&mut state, a);
                        }
                        Node::End => {
                            visit(&state, None, rng);
                            break;
                        }
                    }
                }
            }
        }

        /// Each side's pieces placed anywhere: `min` to 12 of them, at any `u8` position
        /// (off the circuit too), a quarter of them unmoved.
        fn pieces_anywhere(rng: &mut stickdice::Rng, min: i32) -> [Vec<Piece>; 2] {
            use rand::RngExt as _;
            let mut sides: [Vec<Piece>; 2] = Default::default();
            for side in &mut sides {
                for _ in 0..rng.random_range(min..=12) {
                    side.push(Piece {
                        pos: rng.random_range(0..=255),
                        unmoved: rng.random_range(0..4) == 0,
                    });
                }
            }
            sides
        }

        /// `attacks` as it was written first: every move value of every piece looked up.
        fn attacks_step_by_step(s: &stickdice::games::issiren::State, seat: usize) -> (u8, u64) {
            let dest = &DEST[seat];
            let reach = &REACH[seat];
            let enemy = s.occupied()[seat ^ 1];
            let (mut values, mut squares) = (0u8, 0u64);
            for p in s.pieces_of(seat) {
                let pos = p.pos as usize % CIRCUIT_LEN as usize;
                if p.unmoved {
                    if dest[pos + 1] & enemy != 0 {
                        values |= 1 << 1;
                        squares |= dest[pos + 1] & enemy;
                    }
                } else if reach[pos] & enemy != 0 {
                    squares |= reach[pos] & enemy;
                    for v in 1..=6 {
                        if dest[pos + v] & enemy != 0 {
                            values |= 1 << v;
                        }
                    }
                }
            }
            (values, squares)
        }

        /// What `capturing_values_and_moved` reads in one pass, as `evaluate` read it in two.
        fn one_pass(s: &stickdice::games::issiren::State, seat: usize) -> (u8, u32) {
            let moved = s.pieces_of(seat).iter().filter(|p| !p.unmoved).count() as u32;
            (attacks_step_by_step(s, seat).0, moved)
        }

        /// `attacks` (hits by square, positions reduced by table) gives exactly the
        /// step-by-step values and squares (and `capturing_values_and_moved` its values and
        /// the moved pieces) for both seats at every position of many random
        /// games, and at positions with pieces placed anywhere (off-circuit positions
        /// included: they are read mod 72).
        #[test]
        fn attacks_match_the_step_by_step_reading() {
            use rand::SeedableRng as _;
            let game = Issiren::with_seats(2).unwrap();
            let mut rng = stickdice::Rng::seed_from_u64(15);
            let mut checked = 0;
            let mut check = |state: &State| {
                for seat in 0..2 {
                    assert_eq!(attacks(state, seat), attacks_step_by_step(state, seat));
                    assert_eq!(
                        capturing_values_and_moved(state, seat),
                        one_pass(state, seat)
                    );
                }
                checked += 1;
            };
            each_node_of_random_games(&game, 200, &mut rng, |state, _, _| check(state));
            for _ in 0..20_000 {
                let sides = pieces_anywhere(&mut rng, 1);
                // (Bitboards that disagree with the pieces cannot be built any more: the
                // state's fields are private and its constructors fill them in.)
                check(&State::from_pieces(&sides[0], &sides[1]).unwrap());
            }
            assert!(checked > 50_000, "{checked}");
        }

        /// Every action's value from `action_values`, bit for bit, is `evaluate` of the
        /// position after the action is made (`apply_action_unchecked` on a copy), for both
        /// seats: at every decision of 300 random games (the legal actions, a pass and moves
        /// from random squares), and at decisions with pieces placed anywhere, bitboards
        /// damaged, any turn, any throw and throw counts at the cap.
        #[test]
        fn action_values_match_making_each_move() {
            use rand::{RngExt as _, SeedableRng as _};
            use stickdice::Game as _;
            let game = Issiren::with_seats(2).unwrap();
            let mut rng = stickdice::Rng::seed_from_u64(1515);
            let square = |rng: &mut stickdice::Rng| {
                Action::Move(circuit_square(0, rng.random_range(0..CIRCUIT_LEN)).unwrap())
            };
            let check = |s: &State, actions: &[Action], checked: &mut u32| {
                for seat in 0..2 {
                    let mut out = vec![0.0; actions.len()];
                    action_values(&game, s, seat, actions, &mut out);
                    for (&a, v) in actions.iter().zip(&out) {
                        let mut next = *s;
                        game.apply_action_unchecked(&mut next, a);
                        let plain = evaluate(&game, &next)[seat];
                        assert_eq!(v.to_bits(), plain.to_bits(), "{s:?} {a:?} seat {seat}");
                        *checked += 1;
                    }
                }
            };
            let mut checked = 0;
            each_node_of_random_games(&game, 300, &mut rng, |state, legal, rng| {
                if let Some(legal) = legal {
                    let mut actions: Vec<Action> = legal.to_vec();
                    actions.push(Action::Pass);
                    actions.push(square(rng));
                    check(state, &actions, &mut checked);
                }
            });
            for _ in 0..20_000 {
                let sides = pieces_anywhere(&mut rng, 0);
                let state = State::from_pieces(&sides[0], &sides[1])
                    .unwrap()
                    .with_turn(rng.random_range(0..3))
                    .with_pending(Some(Throw::new(rng.random_range(0..=6))))
                    .with_throws(game.max_throws() - rng.random_range(0..3));
                let actions: Vec<Action> = (0..rng.random_range(1..=12))
                    .map(|_| match rng.random_range(0..8) {
                        0 => Action::Pass,
                        _ => square(&mut rng),
                    })
                    .collect();
                check(&state, &actions, &mut checked);
            }
            assert!(checked > 100_000, "{checked}");
        }

        /// `evaluate` as it was written first: the scores asked for first, the pieces
        /// read in separate passes for the threats and the moved pieces.
        fn evaluate_as_first_written(
            game: &Issiren,
            s: &stickdice::games::issiren::State,
        ) -> SeatValues {
            use stickdice::Game as _;
            if let Some(scores) = game.scores(s) {
                return scores;
            }
            let mover = match game.node(s) {
                Node::Throw(seat) | Node::Decide(seat) => seat,
                Node::End => unreachable!("ended games have scores"),
            };
            let mut threat = [0.0f64; 2];
            for (seat, t) in threat.iter_mut().enumerate() {
                let values = attacks_step_by_step(s, seat).0;
                *t = match (seat == mover, s.pending()) {
                    (true, Some(g)) => {
                        let v = throw_value(g).unwrap_or(0);
                        if values & (1 << v) != 0 {
                            1.0
                        } else {
                            0.0
                        }
                    }
                    _ => chance_of(values),
                };
            }
            let mut eff = [0.0f64; 2];
            for (seat, e) in eff.iter_mut().enumerate() {
                let pieces = s.pieces_of(seat);
                let moved = pieces.iter().filter(|p| !p.unmoved).count();
                let enemy = seat ^ 1;
                let weight = if enemy == mover { 1.0 } else { 0.4 };
                *e = (pieces.len() as f64 + 0.03 * moved as f64 - weight * threat[enemy]).max(0.05);
            }
            let r = eff[0] / (eff[0] + eff[1]);
            let (a, b) = (r * r, (1.0 - r) * (1.0 - r));
            let v0 = (a / (a + b)).clamp(0.0, 1.0);
            let mut out = [0.0; MAX_SEATS];
            out[0] = v0;
            out[1] = 1.0 - v0;
            out
        }

        /// `evaluate` gives bit for bit what it gave as first written, at every throw,
        /// decision and end node of many random games.
        #[test]
        fn evaluate_is_bit_identical_to_its_first_reading() {
            use rand::SeedableRng as _;
            let game = Issiren::with_seats(2).unwrap();
            let mut rng = stickdice::Rng::seed_from_u64(16);
            let mut checked = 0;
            each_node_of_random_games(&game, 200, &mut rng, |state, _, _| {
                let (a, b) = (
                    evaluate(&game, state),
                    evaluate_as_first_written(&game, state),
                );
                assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{state:?}");
                checked += 1;
            });
            assert!(checked > 50_000, "{checked}");
        }

        /// The constant tables agree with the sticks' outcomes and the plain sums.
        #[test]
        fn the_threat_tables_match_the_throws() {
            let mut p = [0.0; 7];
            for o in Sticks::SIX.outcomes() {
                p[throw_value(o.throw).expect("six sticks") as usize] += o.probability;
            }
            assert_eq!(p, P_VALUE);
            for values in 0..128u8 {
                let sum: f64 = (1..=6)
                    .filter(|v| values & (1 << v) != 0)
                    .map(|v| p[v])
                    .sum();
                assert_eq!(
                    sum.to_bits(),
                    chance_of(values).to_bits(),
                    "values {values:#b}"
                );
            }
            for (seat, row) in REACH.iter().enumerate() {
                for (pos, &table) in row.iter().enumerate() {
                    let reach = (1..=6u8).fold(0, |m, v| {
                        let to = (pos as u8 + v) % CIRCUIT_LEN;
                        m | circuit_square(seat, to).expect("on the circuit").bit()
                    });
                    assert_eq!(reach, table, "seat {seat}, pos {pos}");
                }
            }
            for seat in 0..2 {
                for pos in 0..=255u8 {
                    let p = pos % CIRCUIT_LEN;
                    assert_eq!(REACH_AT[seat][pos as usize], REACH[seat][p as usize]);
                    let step = circuit_square(seat, (p + 1) % CIRCUIT_LEN).expect("on the circuit");
                    assert_eq!(
                        STEP_AT[seat][pos as usize],
                        step.bit(),
                        "seat {seat}, pos {pos}"
                    );
                }
            }
        }
    }
}

impl Evaluate for stickdice::Issiren {
    const RANDOM_PLAYOUTS_BY_DEFAULT: bool = true;

    /// The learned evaluation with the shipped weights ([`crate::learned::shipped`]).
    #[inline]
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        crate::learned::shipped().evaluate(self, state)
    }

    /// `learned` (the shipped weights), `hand` (the hand-set evaluation: material, threats
    /// and mobility) or the path of a weights file (loaded once per process).
    fn evaluator(name: &str) -> Result<Evaluator<Self>, EvaluatorError> {
        match name {
            "learned" => Ok(Evaluator::issiren_learned(crate::learned::shipped())),
            "hand" => Ok(Evaluator::issiren_hand()),
            path => crate::learned::shared(path)
                .map(Evaluator::issiren_learned)
                .map_err(EvaluatorError::Weights),
        }
    }
}

// ---- Sig wa Duqqan ----------------------------------------------------------------------

mod duqqan_eval {
    use stickdice::games::sig_wa_duqqan::{Piece, KAABA, SIGS_TO_LEAVE, WAITING_SQUARE};
    use stickdice::{Game as _, SeatValues, SigWaDuqqan, MAX_SEATS};

    use super::{pairwise_scores, SeatStanding};

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
                            if driven
                                && (1..=WAITING_SQUARE).contains(&i)
                                && g < i
                                && i - g <= 6 =>
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
}

impl Evaluate for stickdice::SigWaDuqqan {
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        duqqan_eval::evaluate(self, state)
    }
}

// ---- Siryu (War) -----------------------------------------------------------------------

mod siryu_war_eval {
    use stickdice::games::siryu_war::State;
    use stickdice::{Game as _, Node, SeatValues, SiryuWar, Sticks};

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
            f64::from(pieces)
                + 0.03 * f64::from(pieces - locked)
                + if locked > 0 { 0.5 } else { 0.0 }
        });
        super::material_against_threats(mover, material, threat, 1.0)
    }

    /// The chance of a throw of a value among `values` (bit `v`), for tests.
    #[cfg(test)]
    pub(super) fn chance_of_throws(throws: u8) -> f64 {
        CHANCE[(throws & 127) as usize]
    }
}

impl Evaluate for stickdice::SiryuWar {
    /// The hand-set evaluation: material, the locked reserve, pieces in danger.
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        siryu_war_eval::evaluate(self, state)
    }

    /// `hand` (the hand-set evaluation), `learned` (the shipped weights,
    /// [`crate::learned::family`]) or the path of a weights file of the game.
    fn evaluator(name: &str) -> Result<Evaluator<Self>, EvaluatorError> {
        Evaluator::family_named(
            name,
            Evaluator::hand(|game, _, state| siryu_war_eval::evaluate(game, state)),
        )
    }
}

#[cfg(test)]
mod siryu_war_eval_tests {
    use super::siryu_war_eval::chance_of_throws;
    use super::Evaluate as _;
    use stickdice::games::siryu_war::{Piece, State};
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
            State::new([p1, p2], turn, pending.map(Throw::new), 5).unwrap()
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

// ---- Sig (El Oued) ----------------------------------------------------------------------

mod el_oued_eval {
    use stickdice::games::sig_el_oued::{is_sig_square, CORNER, DJINN, MECCA, MINARET, PIECES};
    use stickdice::{Game as _, SeatValues, SigElOued, MAX_SEATS};

    use super::{pairwise_scores, SeatStanding};

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
    pub(super) fn evaluate(
        game: &SigElOued,
        s: &stickdice::games::sig_el_oued::State,
    ) -> SeatValues {
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
                        risk =
                            0.25 * (turns_to_go(0, a == DJINN) - turns_to_go(i, a == DJINN)) / full;
                    }
                }
            }
            *st = SeatStanding::Racing((1.0 - togo / full - risk).clamp(0.0, 1.0));
        }
        pairwise_scores(&standing[..n])
    }
}

impl Evaluate for stickdice::SigElOued {
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        el_oued_eval::evaluate(self, state)
    }
}

// ---- Siryu (Race) -----------------------------------------------------------------------

mod siryu_race_eval {
    use stickdice::games::siryu_race::{
        step_kind, walk_stop, State, Step, ANGEL, MECCA, PIECES, STARTS,
    };
    use stickdice::{Game as _, SeatValues, SiryuRace, MAX_SEATS};

    use super::{pairwise_scores, SeatStanding};

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
}

impl Evaluate for stickdice::SiryuRace {
    /// The hand-set evaluation: progress in expected throws, the risk of being sent back.
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        siryu_race_eval::evaluate(self, state)
    }
}

// ---- Sig wa Duqqan (Houmt Taourit) ------------------------------------------------------

mod houmt_taourit_eval {
    use stickdice::games::houmt_taourit::{Piece, State, CENTRE, SIGS_TO_LEAVE, WAITING_SQUARE};
    use stickdice::{Game as _, HoumtTaourit, SeatValues, MAX_SEATS};

    use super::{pairwise_scores, SeatStanding};

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
            i if i == WAITING_SQUARE => {
                PER_SIG * f64::from(SIGS_TO_LEAVE.saturating_sub(sigs)) + after
            }
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
}

impl Evaluate for stickdice::HoumtTaourit {
    /// The hand-set evaluation: the chance of burial by the Ghoula, and with
    /// `rank_by_arrival` progress to the centre.
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        houmt_taourit_eval::evaluate(self, state)
    }
}

#[cfg(test)]
mod race_family_eval_tests {
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

// ---- Sig (El Oued Capture) -------------------------------------------------------------

pub(crate) mod capture_eval {
    use stickdice::games::sig_el_oued_capture::{
        circuit_square, positions_on, Pending, State, CIRCUIT_LEN, MAX_VALUE,
    };
    use stickdice::{Game, Node, SeatValues, SigElOuedCapture};

    /// The chance of each move value one lead throw starts (its bonus throws included, the
    /// lead throws a regular sig grants not), in units of 64⁻⁴: `(plain, sig)` by value.
    const VALUE_CHANCES: ([u64; 32], [u64; 32]) = {
        let c = [1u64, 6, 15, 20, 15, 6, 1];
        let mut plain = [0u64; 32];
        let mut sig = [0u64; 32];
        let unit = 64 * 64 * 64; // the rest of 64⁻⁴ after the lead throw's 64⁻¹
        plain[2] += c[2] * unit;
        plain[3] += c[3] * unit;
        plain[4] += c[4] * unit;
        sig[1] += (c[1] + c[5]) * unit;
        // A sig of six: one bonus throw.
        let mut b = 0;
        while b <= 6 {
            let p = c[6] * c[b] * 64 * 64;
            if b == 1 || b == 5 {
                sig[7] += p;
            } else {
                plain[6 + b] += p;
            }
            b += 1;
        }
        // A sig of twelve: up to three bonus throws, 13 at the first regular sig.
        let mut b1 = 0;
        while b1 <= 6 {
            let p1 = c[0] * c[b1];
            if b1 == 1 || b1 == 5 {
                sig[13] += p1 * 64 * 64;
            } else {
                let mut b2 = 0;
                while b2 <= 6 {
                    let p2 = p1 * c[b2];
                    if b2 == 1 || b2 == 5 {
                        sig[13] += p2 * 64;
                    } else {
                        let mut b3 = 0;
                        while b3 <= 6 {
                            let p3 = p2 * c[b3];
                            if b3 == 1 || b3 == 5 {
                                sig[13] += p3;
                            } else {
                                plain[12 + b1 + b2 + b3] += p3;
                            }
                            b3 += 1;
                        }
                    }
                    b2 += 1;
                }
            }
            b1 += 1;
        }
        (plain, sig)
    };

    /// `x` (24 bits) turned `p` positions back: bit `d` is bit `(p + d) mod 24` of `x`.
    #[inline(always)]
    fn back(x: u32, p: u32) -> u32 {
        let p = p % CIRCUIT_LEN as u32;
        ((x >> p) | (x << (24 - p))) & 0xff_ffff
    }

    /// The move values with which `attacker` can capture a piece of the other side, from
    /// its moved pieces (any value) and from all its pieces (sig values only): bit `v` of
    /// `(plain, sig)`. A landing square with an enemy piece never holds an own one, so
    /// every such move is legal.
    #[inline]
    pub(crate) fn capturing_values(s: &State, attacker: usize) -> (u32, u32) {
        values_onto(s, attacker, s.positions(attacker ^ 1))
    }

    /// The move values with which `attacker` lands on one of the other side's pieces at
    /// the positions `defended` (bits of the other side's circuit), as
    /// [`capturing_values`] (which takes all its pieces).
    #[inline]
    pub(crate) fn values_onto(s: &State, attacker: usize, defended: u32) -> (u32, u32) {
        let defender = attacker ^ 1;
        let mut targets = 0u32;
        let mut d = defended;
        while d != 0 {
            let q = d.trailing_zeros() as u8;
            d &= d - 1;
            if let Some(sq) = circuit_square(defender, q) {
                targets |= positions_on(attacker, sq);
            }
        }
        let unmoved = s.unmoved_positions(attacker);
        let (mut plain, mut sig) = (0u32, 0u32);
        let mut a = s.positions(attacker);
        while a != 0 {
            let p = a.trailing_zeros();
            a &= a - 1;
            let near = back(targets, p);
            // Distances 1..23, and 25..30 for the near ones (a value never exceeds 30).
            let values = (near & !1) | (near & 0x7f) << 24;
            let values = values & ((1u32 << (MAX_VALUE + 1)) - 1);
            sig |= values;
            if unmoved & 1 << p == 0 {
                plain |= values;
            }
        }
        (plain, sig)
    }

    /// The chance that a move value of one lead throw captures, given the capturing values.
    #[inline]
    pub(crate) fn chance_of((plain, sig): (u32, u32)) -> f64 {
        let (pc, sc) = &VALUE_CHANCES;
        let mut total = 0u64;
        let mut m = plain;
        while m != 0 {
            let v = m.trailing_zeros() as usize;
            m &= m - 1;
            total += pc[v];
        }
        for v in [1usize, 7, 13] {
            if sig & 1 << v != 0 {
                total += sc[v];
            }
        }
        total as f64 / (1u64 << 24) as f64
    }

    /// Sig (El Oued Capture): material first, then the danger to pieces, then mobility.
    ///
    /// Each side's *effective material* is its pieces left, plus 0.6 per moved piece (an
    /// unmoved one waits for a sig value, 12 lead throws in 64, and cannot flee or strike
    /// meanwhile), minus the chance that the enemy captures one of its pieces with its next
    /// move value: twice that chance for the side to throw (or, deciding on a complete
    /// value, 2 or 0 as that value captures or not: a capture costs the piece and the
    /// tempo), 40% of it for the side after it, since the side to move may flee or strike
    /// first. (The weights 0.6 and 2 were tuned from 0.05 and 1 on greedy against random:
    /// 0.746 → 0.768 in 5 000 games on fresh dice.) With `r` the share of
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

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The value chances sum to one, the sig of twelve's 13 is 1899/4096 of its 1/64,
        /// and the capturing values are those found by trying every value.
        #[test]
        fn the_value_chances_and_capturing_values_follow_the_rules() {
            let (plain, sig) = VALUE_CHANCES;
            let total: u64 = plain.iter().chain(sig.iter()).sum();
            assert_eq!(total, 1 << 24);
            assert_eq!(sig[13], 1899 * 64); // 2^24 / 64 * 1899 / 4096
            use rand::SeedableRng as _;
            let game = SigElOuedCapture::with_seats(2).unwrap();
            let mut rng = stickdice::Rng::seed_from_u64(9);
            let positions = stickdice::testing::random_game_positions(&game, 40, &mut rng);
            for s in positions {
                for attacker in 0..2 {
                    let (plain, sig) = capturing_values(&s, attacker);
                    let mut want = (0u32, 0u32);
                    for p in s.pieces_of(attacker) {
                        for v in 1..=MAX_VALUE {
                            let to = circuit_square(attacker, (p.pos + v) % CIRCUIT_LEN);
                            if to.is_some_and(|q| {
                                s.piece_at(q).is_some_and(|(owner, _)| owner != attacker)
                            }) {
                                want.1 |= 1 << v;
                                if !p.unmoved {
                                    want.0 |= 1 << v;
                                }
                            }
                        }
                    }
                    assert_eq!((plain, sig), want, "{s:?} {attacker}");
                }
            }
        }
    }
}

impl Evaluate for stickdice::SigElOuedCapture {
    /// The hand-set evaluation: material, pieces in danger, mobility (see
    /// `capture_eval::evaluate`).
    fn evaluate(&self, state: &Self::State) -> SeatValues {
        capture_eval::evaluate(self, state)
    }

    /// `hand` (the hand-set evaluation), `learned` (the shipped weights,
    /// [`crate::learned::family`]) or the path of a weights file of the game.
    fn evaluator(name: &str) -> Result<Evaluator<Self>, EvaluatorError> {
        Evaluator::family_named(
            name,
            Evaluator::hand(|game, _, state| capture_eval::evaluate(game, state)),
        )
    }
}

// ---- games without an evaluation ------------------------------------------------------
