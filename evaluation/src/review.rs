//! Game review: the error of every decision and the luck of every throw of a logged game,
//! measured with a **reference evaluator** fixed before the games; and the luck-adjusted
//! scores built on it (the `stickdice review` command and `tournament --luck-adjusted`).
//!
//! # The reference
//!
//! A [`Reference`] gives every seat's *value* of a position: its expected score
//! ([`stickdice::Ranking::score`]: the fraction of the other seats it will rank above, ties
//! half — the quantity tournaments score), under the reference's model of play. At the end
//! of the game the value is the final score itself. Which reference each game gets
//! ([`Reviewable::reference`]):
//!
//! * **Sig wa Duqqan (2–3 seats), Sig (El Oued) (2 seats): exact.** The solved values
//!   ([`stickdice_agents::solve::solved`], throw cap lifted): each seat's expected score
//!   under the solved policy (each seat maximising its chance of ranking first, which with
//!   two seats and no ties is its expected score). Seat counts the solver refuses get
//!   [`ReviewError::Unsupported`].
//! * **Sig wa Duqqan (Houmt Taourit) (2 seats): exact**, the same way. With more seats it
//!   is searched as below, once it has an evaluation.
//! * **Issiren, Sig (El Oued Capture), Siryu (War), Siryu (Race): a stated search.** Expectimax (two-seat, Star2 pruning, transposition
//!   table) to a fixed depth in decisions ([`DEFAULT_DEPTH`] = 3: the decision after each
//!   throw and two more throws and decisions; the deepest that reviews a 300-throw game in
//!   under a second: `cargo bench -p stickdice-evaluation --bench review`, figures in the
//!   book's performance chapters), the hand-set evaluation
//!   ([`stickdice_agents::Evaluate`], `eval=hand`) at its leaves — or, with
//!   [`ReferenceOptions::eval`], the learned one (`learned`, or a weights file), a
//!   stronger judge of strong agents — and — with
//!   [`ReferenceOptions::tablebase`] — the endgame tablebase's exact values wherever a
//!   position with at most two pieces a side is reached (Issiren only). The values are a
//!   deterministic function of the position (no generator, no clock), so a review
//!   reproduces exactly. Siryu (Race), whose games are some 800 throws long, is searched to
//!   [`SIRYU_RACE_DEPTH`] = 2 by default. A game without an evaluation of its own
//!   ([`Evaluate::HAS_EVALUATION`]) has no searching reference: review refuses it.
//!
//! # What is measured
//!
//! Walking the logged game from the start, with `V(s)` the reference's value vector:
//!
//! * **At a throw** in state `s`, with outcomes `o` of exact probability `p(o)`
//!   ([`Game::throw_outcomes`]) leading to `s_o`: the expected value `E = Σ p(o)·V(s_o)`,
//!   and each seat's **luck** `V(s_t) − E` for the throw `t` actually made. A throw lucky
//!   for the thrower is unlucky for the others: with two seats the lucks are opposite.
//! * **At a decision** of seat `d` in state `s`: `V(s_a)` for every legal action `a`; the
//!   chosen action's **error** `max_a V_d(s_a) − V_d(s_chosen) ≥ 0` (the first action
//!   listed among the best is "the best"). A decision with one legal action is *forced*:
//!   its error is 0 and it never counts as a blunder; the mean error is over unforced
//!   decisions. A **blunder** is an unforced decision whose error exceeds the threshold
//!   (default [`BLUNDER`] = 0.04, GNU Backgammon's "bad move" threshold of 0.08 in equity,
//!   halved because a score in `[0, 1]` is half an equity in `[−1, 1]`). Errors below
//!   [`TIE`] (far below the solver's tolerance) count as 0.
//! * **The other seats at a decision** gain `V_o(s_chosen) − V_o(s_best)`: with two seats
//!   exactly the decider's error ([`SeatReview::opponent_effect`]).
//! * **Drift**: what the reference fails to account for, `E − V(s)` at a throw and
//!   `V(s_best) − V(s)` at a decision. For a solved game it is 0 up to rounding (the solved
//!   values are consistent); for a depth-limited search it is the search's inconsistency.
//! * **Forfeit**: a game lost by an agent's failure ends at the logged forfeit ranking; the
//!   jump from the last position's value to it is recorded apart.
//!
//! So, per seat, exactly (telescoping; tested to 1e-9 on solved games, where drift is 0):
//!
//! ```text
//! start + luck − error + opponent_effect + drift + forfeit = final score
//! ```
//!
//! # Luck-adjusted scores
//!
//! A seat's **luck-adjusted score** is its final score minus its total luck. It is an
//! unbiased estimate of the expected score, whatever the agents do: each throw's luck has
//! expectation exactly zero given everything before it (the throw is drawn with the exact
//! probabilities the luck is computed with, independently of the history — the arena's
//! duplicate dice are seeded per seat and throw number — and `V` is a fixed function of the
//! position), so the summed luck is a martingale with mean zero, a *control variate* with
//! coefficient 1 (as in AIVAT and GNU Backgammon's luck-adjusted result). Two conditions
//! keep it unbiased: the reference is fixed before the games (not fitted to them — fitting
//! a heuristic to the games it judges can push the variance pathologically low and bias
//! the result), and it is not an agent under test (the reference does not play). The
//! coefficient is not fitted either, for the same reason.
//!
//! The adjustment helps as much as the reference's values explain the outcome: with the
//! solved values of Sig wa Duqqan (no decisions) `final − luck = start` in every game, so
//! the adjusted variance is only that of the seat's start value; with a weak reference
//! (a shallow search early in a long Issiren game) the luck it measures is partly noise and
//! the variance falls less. It does not help when the results are decided by the agents'
//! choices rather than by the throws (an agent far stronger than the other), and it can in
//! principle add variance when the reference's luck is uncorrelated with the results. The
//! reports therefore state the measured reduction next to the adjusted intervals.
//!
//! # The JSON shape ([`Review`])
//!
//! `{"game", "seats", "index", "reference", "exact", "blunder_threshold", "start": [v per
//! seat], "final_scores": [...], "steps": [...], "summary": [one SeatReview per seat]}`,
//! where each step is `{"kind": "throw", "event", "seat", "throw", "describe", "outcomes":
//! [{"throw", "probability", "value": [...]}], "expected": [...], "value": [...], "luck":
//! [...]}` or `{"kind": "decision", "event", "seat", "chosen", "best", "actions":
//! [{"action", "value"}], "error", "forced", "blunder", "value": [...]}`; `event` is the
//! 0-based index of the event in the logged game, `value` each seat's value after the step,
//! an action's `value` the mover's value after it.

use core::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use stickdice::games::{HoumtTaourit, SigElOuedCapture, SiryuRace, SiryuWar};
use stickdice::{
    ActionList, AgentError, Game, Issiren, Node, Present, SeatValues, SigElOued, SigWaDuqqan, Throw,
};
use stickdice_agents::expectimax::{Expectimax, ExpectimaxConfig};
use stickdice_agents::solve::{self, Exact, SharedSolution, SolveError};
use stickdice_agents::Evaluate;

use crate::log::{GameRecord, LoggedEvent};
use crate::report::Interval;
use crate::stats::Estimate;

/// The default blunder threshold, in expected score.
pub const BLUNDER: f64 = 0.04;

/// Value differences below this count as equal (errors of exactly tied actions).
pub const TIE: f64 = 1e-12;

/// The default search depth of Issiren's reference, in decisions.
pub const DEFAULT_DEPTH: u32 = 3;

/// The default evaluation at the leaves of Issiren's reference search: the hand-set one,
/// so that figures stay comparable with those measured before the learned one existed.
pub const DEFAULT_EVAL: &str = "hand";

/// Why a game could not be reviewed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ReviewError {
    /// The reference cannot handle this game, seat count or option.
    Unsupported {
        /// The game's name ([`Game::NAME`]).
        game: &'static str,
        /// What it cannot handle.
        reason: Unsupported,
    },
    /// The logged game does not replay (a damaged or foreign log).
    BadGame {
        /// The 0-based event, if the problem is at one.
        event: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// The reference has no value for a position of the game.
    NotCovered {
        /// The game's name ([`Game::NAME`]).
        game: &'static str,
        /// Why it has none.
        reason: NotCovered,
    },
}

/// What a game's reference cannot handle ([`ReviewError::Unsupported`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Unsupported {
    /// The game has no reference evaluator.
    NoReference,
    /// The game is not solved at this seat count and has no evaluation of its own for a
    /// reference search.
    NoEvaluation {
        /// The seat count.
        seats: usize,
    },
    /// The game is solved exactly, and this option is for the games reviewed by a search
    /// (or, the tablebase, for Issiren).
    SolvedExactly {
        /// The option given.
        option: ReferenceOption,
    },
    /// The solver refuses the game or its seat count.
    Solver(SolveError),
    /// A search depth of 0.
    DepthZero,
    /// A search depth deeper than the agents'.
    DepthTooDeep {
        /// The depth asked for.
        depth: u32,
        /// The deepest ([`MAX_DEPTH`](stickdice_agents::expectimax::MAX_DEPTH)).
        max: u32,
    },
    /// An evaluation the game does not have, or a weights file that cannot be read.
    Evaluation {
        /// The `eval` given.
        eval: String,
        /// Why it cannot be used.
        message: String,
    },
    /// A tablebase the game does not have, or that cannot be loaded.
    Tablebase {
        /// The tablebase given (`build` or a file).
        source: String,
        /// Why it cannot be used.
        message: String,
    },
}

/// An option of [`ReferenceOptions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReferenceOption {
    /// [`ReferenceOptions::tablebase`].
    Tablebase,
    /// [`ReferenceOptions::depth`].
    Depth,
    /// [`ReferenceOptions::eval`].
    Eval,
}

impl Unsupported {
    /// The sentence for `game` (its name).
    pub fn sentence(&self, game: &str) -> String {
        match self {
            Unsupported::NoReference => {
                format!("{game} has no reference evaluator for review and luck yet")
            }
            Unsupported::NoEvaluation { seats } => format!(
                "{game} has no exact values for {seats} players and no evaluation of its own \
                 for a reference search"
            ),
            Unsupported::SolvedExactly { option } => match option {
                ReferenceOption::Tablebase => {
                    format!("{game} is solved exactly; a tablebase is for issiren only")
                }
                ReferenceOption::Depth => format!(
                    "{game} is solved exactly; a search depth is for the games reviewed by a \
                     search"
                ),
                ReferenceOption::Eval => format!(
                    "{game} is solved exactly; a reference evaluation is for the games \
                     reviewed by a search"
                ),
            },
            Unsupported::Solver(e) => e.to_string(),
            Unsupported::DepthZero => "the search depth must be at least 1".to_string(),
            Unsupported::DepthTooDeep { depth, max } => format!(
                "the search depth must be at most {max} (as the agents' depth), not {depth}"
            ),
            Unsupported::Evaluation { message, .. } | Unsupported::Tablebase { message, .. } => {
                message.clone()
            }
        }
    }
}

/// Why a game's reference has no value for a position ([`ReviewError::NotCovered`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum NotCovered {
    /// The solved game does not reach the position from its initial state.
    Unreachable,
    /// The reference search gave no value.
    Search(AgentError),
}

impl fmt::Display for NotCovered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotCovered::Unreachable => f.write_str(
                "the position is not reachable from the initial state of the solved game",
            ),
            NotCovered::Search(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Unsupported { game, reason } => {
                write!(f, "no reference evaluator: {}", reason.sentence(game))
            }
            ReviewError::BadGame {
                event: Some(e),
                message,
            } => write!(
                f,
                "the logged game does not replay at event {}: {message}",
                e + 1
            ),
            ReviewError::BadGame {
                event: None,
                message,
            } => write!(f, "the logged game does not replay: {message}"),
            ReviewError::NotCovered { reason, .. } => {
                write!(f, "the reference has no value: {reason}")
            }
        }
    }
}

impl std::error::Error for ReviewError {}

/// A reference evaluator: every seat's value (expected score) of a position, fixed before
/// the games it judges.
pub trait Reference<G: Game>: Send + fmt::Debug {
    /// What it is, for reports (`solved exactly`, `expectimax depth 2, heuristic leaves`).
    fn describe(&self) -> String;

    /// Whether its values are exact (solved) rather than a search's estimates.
    fn is_exact(&self) -> bool;

    /// Every seat's value of a position that has not ended; entries past the seat count
    /// are 0.
    ///
    /// # Errors
    /// [`ReviewError::NotCovered`] when the reference has no value for it.
    fn value(&mut self, game: &G, state: &G::State) -> Result<SeatValues, ReviewError>;
}

/// The exact reference: solved values.
pub struct Solved<G: Exact> {
    solution: SharedSolution<G>,
}

impl<G: Exact> fmt::Debug for Solved<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solved").finish_non_exhaustive()
    }
}

impl<G: Exact> Solved<G> {
    /// The solved values of `game` from its initial state (solved once per process).
    ///
    /// # Errors
    /// [`ReviewError::Unsupported`] when the solver refuses the game or seat count.
    pub fn new(game: &G) -> Result<Self, ReviewError> {
        let solution = solve::solved(game).map_err(|e| ReviewError::Unsupported {
            game: G::NAME,
            reason: Unsupported::Solver(e),
        })?;
        Ok(Solved { solution })
    }

    /// These solved values (e.g. of a position solved on its own with
    /// [`stickdice_agents::solve::solve_from`]).
    pub fn from_solution(solution: SharedSolution<G>) -> Self {
        Solved { solution }
    }
}

impl<G: Exact> Reference<G> for Solved<G> {
    fn describe(&self) -> String {
        "exact: the solved values (expected score under the solved policy, throw cap lifted)"
            .to_string()
    }

    fn is_exact(&self) -> bool {
        true
    }

    fn value(&mut self, _game: &G, state: &G::State) -> Result<SeatValues, ReviewError> {
        self.solution
            .expected_scores(state)
            .ok_or(ReviewError::NotCovered {
                game: G::NAME,
                reason: NotCovered::Unreachable,
            })
    }
}

/// The searching reference: expectimax to a fixed depth, heuristic evaluation at the
/// leaves, exact values where a tablebase covers a position.
#[derive(Debug)]
pub struct Search<G: Evaluate> {
    search: Expectimax<G>,
    depth: u32,
    eval: String,
    tablebase: Option<String>,
}

impl<G: Evaluate> Search<G> {
    /// Expectimax to `depth` decisions (default settings otherwise: Star2, a
    /// transposition table; the values do not depend on either).
    ///
    /// # Errors
    /// [`ReviewError::Unsupported`] for a depth of 0.
    pub fn new(depth: u32) -> Result<Self, ReviewError> {
        // The reference keeps the hand-set evaluation (`eval=hand`) by default, so that
        // review and luck figures stay comparable with those measured before Issiren's
        // learned evaluation became the agents' default. (With the learned one at its
        // leaves, luck adjustment widened random's interval against greedy in Issiren:
        // variance −98% at depth 1, −75% at depth 2, in `tests/luck_stats.rs`.)
        Self::with_eval(depth, DEFAULT_EVAL)
    }

    /// Expectimax to `depth` decisions with the evaluation `eval` names at its leaves (as
    /// the agents' `eval` parameter: `hand`, `learned` or a weights file): a stronger
    /// judge of strong agents' decisions than the default hand-set one.
    ///
    /// # Errors
    /// [`ReviewError::Unsupported`] for a depth of 0 or over
    /// [`MAX_DEPTH`](stickdice_agents::expectimax::MAX_DEPTH), or an evaluation the game does not
    /// have (a weights file that cannot be read says why).
    pub fn with_eval(depth: u32, eval: &str) -> Result<Self, ReviewError> {
        let unsupported = |reason| ReviewError::Unsupported {
            game: G::NAME,
            reason,
        };
        if depth == 0 {
            return Err(unsupported(Unsupported::DepthZero));
        }
        let max = stickdice_agents::expectimax::MAX_DEPTH;
        if depth > max {
            return Err(unsupported(Unsupported::DepthTooDeep { depth, max }));
        }
        let config = ExpectimaxConfig {
            depth: Some(depth),
            ..ExpectimaxConfig::default()
        };
        let evaluator = G::evaluator(eval).map_err(|e| {
            unsupported(Unsupported::Evaluation {
                eval: eval.to_string(),
                message: e.to_string(),
            })
        })?;
        Ok(Search {
            search: Expectimax::new(config, 0).with_evaluator(eval, evaluator),
            depth,
            eval: eval.to_string(),
            tablebase: None,
        })
    }

    /// Uses exact values (`build` or a tablebase file) wherever they cover a position.
    ///
    /// # Errors
    /// [`ReviewError::Unsupported`] when the game has no tablebase or it cannot be loaded.
    pub fn with_tablebase(self, source: &str) -> Result<Self, ReviewError> {
        let values =
            solve::exact_values_for::<G>(source).map_err(|e| ReviewError::Unsupported {
                game: G::NAME,
                reason: Unsupported::Tablebase {
                    source: source.to_string(),
                    message: e.to_string(),
                },
            })?;
        Ok(Search {
            search: self.search.with_exact_values(source, values),
            tablebase: Some(source.to_string()),
            ..self
        })
    }
}

impl<G: Evaluate> Reference<G> for Search<G> {
    fn describe(&self) -> String {
        let leaves = match self.eval.as_str() {
            DEFAULT_EVAL => "the heuristic evaluation".to_string(),
            "learned" => "the learned evaluation (shipped weights)".to_string(),
            file => format!("the learned evaluation with the weights {file}"),
        };
        let mut s = format!(
            "search: expectimax to depth {} (decisions), {leaves} at its leaves",
            self.depth
        );
        if let Some(tb) = &self.tablebase {
            s.push_str(&format!(
                ", the endgame tablebase ({tb}) where it covers a position"
            ));
        }
        s
    }

    fn is_exact(&self) -> bool {
        false
    }

    fn value(&mut self, game: &G, state: &G::State) -> Result<SeatValues, ReviewError> {
        self.search
            .value(game, state, self.depth)
            .map_err(|e| ReviewError::NotCovered {
                game: G::NAME,
                reason: NotCovered::Search(e),
            })
    }
}

/// How to build a game's reference (the choices a game does not use must be left unset).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReferenceOptions {
    /// The search depth where the game is not solved (default [`DEFAULT_DEPTH`]).
    pub depth: Option<u32>,
    /// Issiren: exact values from the endgame tablebase (`build`, or a file written by
    /// `stickdice analyze --write-tablebase`).
    pub tablebase: Option<String>,
    /// Issiren: the evaluation at the reference search's leaves, as the agents' `eval`
    /// parameter names it (`hand`, `learned` or a weights file; default [`DEFAULT_EVAL`]).
    pub eval: Option<String>,
}

/// A game with a reference evaluator (shown to people, as a review describes its throws).
pub trait Reviewable: Present {
    /// The game's reference for these options.
    ///
    /// # Errors
    /// [`ReviewError::Unsupported`] when the reference cannot handle the game's seat count
    /// or options, or an option does not apply to the game.
    fn reference(
        &self,
        options: &ReferenceOptions,
    ) -> Result<Box<dyn Reference<Self>>, ReviewError>;

    /// Whether the game has a reference at all (the `review` part of what a game offers);
    /// false for the refusal the games without one get.
    const REVIEWED: bool = true;
}

fn solved_reference<G: Exact>(
    game: &G,
    options: &ReferenceOptions,
) -> Result<Box<dyn Reference<G>>, ReviewError> {
    let option = if options.tablebase.is_some() {
        Some(ReferenceOption::Tablebase)
    } else if options.depth.is_some() {
        Some(ReferenceOption::Depth)
    } else if options.eval.is_some() {
        Some(ReferenceOption::Eval)
    } else {
        None
    };
    if let Some(option) = option {
        return Err(ReviewError::Unsupported {
            game: G::NAME,
            reason: Unsupported::SolvedExactly { option },
        });
    }
    Ok(Box::new(Solved::new(game)?))
}

/// The searching reference of a game that is not solved: expectimax to the options' depth
/// (default `default_depth`) with the options' evaluation at its leaves, the tablebase
/// where the game has one. Refused for a game without an evaluation of its own
/// ([`Evaluate::HAS_EVALUATION`]): even shares at the leaves would measure nothing.
fn search_reference<G: Evaluate>(
    game: &G,
    options: &ReferenceOptions,
    default_depth: u32,
) -> Result<Box<dyn Reference<G>>, ReviewError> {
    if !G::HAS_EVALUATION {
        return Err(ReviewError::Unsupported {
            game: G::NAME,
            reason: Unsupported::NoEvaluation {
                seats: game.seats(),
            },
        });
    }
    let search = Search::with_eval(
        options.depth.unwrap_or(default_depth),
        options.eval.as_deref().unwrap_or(DEFAULT_EVAL),
    )?;
    Ok(Box::new(match &options.tablebase {
        Some(tb) => search.with_tablebase(tb)?,
        None => search,
    }))
}

/// The default search depth of the reference of Siryu (Race) where it is searched, in
/// decisions: its games are about four times as long as Issiren's, and seven throw
/// outcomes follow every decision.
pub const SIRYU_RACE_DEPTH: u32 = 2;

impl Reviewable for HoumtTaourit {
    /// Exact with 2 seats (solved); a search with more, once the game has an evaluation.
    fn reference(
        &self,
        options: &ReferenceOptions,
    ) -> Result<Box<dyn Reference<Self>>, ReviewError> {
        if self.solver_support().is_ok() {
            solved_reference(self, options)
        } else {
            search_reference(self, options, DEFAULT_DEPTH)
        }
    }
}

impl Reviewable for SiryuRace {
    /// A search (the game is too large to solve, see [`stickdice_agents::solve`]).
    fn reference(
        &self,
        options: &ReferenceOptions,
    ) -> Result<Box<dyn Reference<Self>>, ReviewError> {
        search_reference(self, options, SIRYU_RACE_DEPTH)
    }
}

impl Reviewable for SigElOuedCapture {
    /// A search, as Issiren's.
    fn reference(
        &self,
        options: &ReferenceOptions,
    ) -> Result<Box<dyn Reference<Self>>, ReviewError> {
        search_reference(self, options, DEFAULT_DEPTH)
    }
}

impl Reviewable for SiryuWar {
    /// A search, as Issiren's.
    fn reference(
        &self,
        options: &ReferenceOptions,
    ) -> Result<Box<dyn Reference<Self>>, ReviewError> {
        search_reference(self, options, DEFAULT_DEPTH)
    }
}

impl Reviewable for SigWaDuqqan {
    fn reference(
        &self,
        options: &ReferenceOptions,
    ) -> Result<Box<dyn Reference<Self>>, ReviewError> {
        solved_reference(self, options)
    }
}

impl Reviewable for SigElOued {
    fn reference(
        &self,
        options: &ReferenceOptions,
    ) -> Result<Box<dyn Reference<Self>>, ReviewError> {
        solved_reference(self, options)
    }
}

impl Reviewable for Issiren {
    fn reference(
        &self,
        options: &ReferenceOptions,
    ) -> Result<Box<dyn Reference<Self>>, ReviewError> {
        search_reference(self, options, DEFAULT_DEPTH)
    }
}

/// The default search depth of the reference of the described games, in decisions: their
/// generic evaluation walks every piece with every throw value, and most have 14 to 22
/// pieces a side.
pub const DESCRIBED_DEPTH: u32 = 2;

/// [`Reviewable`] for every described game ([`stickdice::described`]): exact where the
/// solver handles the game and its seat count (Es-Sîg with two players), else a search
/// with the generic evaluation at its leaves.
macro_rules! described_references {
    ([] $($variant:ident : $ty:path,)*) => {$(
        impl Reviewable for $ty {
            fn reference(
                &self,
                options: &ReferenceOptions,
            ) -> Result<Box<dyn Reference<Self>>, ReviewError> {
                if self.solver_support().is_ok() {
                    solved_reference(self, options)
                } else {
                    search_reference(self, options, DESCRIBED_DEPTH)
                }
            }
        }
    )*};
}
stickdice::for_each_described_game!(described_references);
described_references!([] GameFile: stickdice::described::games::FileGame,);

/// A throw outcome with the values it leads to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeValue {
    /// The throw (marked sides up).
    pub throw: u8,
    /// Its exact probability.
    pub probability: f64,
    /// Every seat's value after it.
    pub value: Vec<f64>,
}

/// A legal action with the mover's value after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionValue {
    /// The action, in notation.
    pub action: String,
    /// The mover's value after it.
    pub value: f64,
}

/// One reviewed event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Step {
    /// A throw of the sticks.
    Throw {
        /// The event's index in the logged game (0-based).
        event: usize,
        /// The seat that threw.
        seat: usize,
        /// The throw (marked sides up).
        throw: u8,
        /// The throw in the game's words.
        describe: String,
        /// Every possible throw with its probability and the values it leads to.
        outcomes: Vec<OutcomeValue>,
        /// Every seat's expected value over the outcomes.
        expected: Vec<f64>,
        /// Every seat's value after the throw made.
        value: Vec<f64>,
        /// Every seat's luck: `value − expected`.
        luck: Vec<f64>,
    },
    /// A decision.
    Decision {
        /// The event's index in the logged game (0-based).
        event: usize,
        /// The seat that decided.
        seat: usize,
        /// The action chosen.
        chosen: String,
        /// The first action listed among the best.
        best: String,
        /// Every legal action with the mover's value after it, in the order of the legal
        /// actions.
        actions: Vec<ActionValue>,
        /// The mover's value given up: best − chosen, ≥ 0.
        error: f64,
        /// Whether there was only one legal action.
        forced: bool,
        /// Whether the error exceeds the blunder threshold (never for a forced move).
        blunder: bool,
        /// Every seat's value after the decision.
        value: Vec<f64>,
    },
}

/// One seat's figures over a reviewed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatReview {
    /// The seat (0 is P1).
    pub seat: usize,
    /// Its value at the start.
    pub start: f64,
    /// Its final score.
    pub final_score: f64,
    /// Its luck summed over every throw (its own and the others').
    pub luck: f64,
    /// Its decisions.
    pub decisions: usize,
    /// Of them, those with more than one legal action.
    pub unforced: usize,
    /// Its errors summed.
    pub total_error: f64,
    /// Its mean error over unforced decisions (`None` without any).
    pub mean_error: Option<f64>,
    /// Its unforced decisions with an error above the threshold.
    pub blunders: usize,
    /// The change of its value caused by the other seats' decisions (two seats: the
    /// opponent's total error).
    pub opponent_effect: f64,
    /// What the reference does not account for (0 for solved values, up to rounding).
    pub drift: f64,
    /// The jump to the forfeit ranking when a failure ended the game (else 0).
    pub forfeit: f64,
    /// The luck-adjusted score: `final_score − luck`.
    pub adjusted: f64,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The game's name.
    pub game: String,
    /// The number of seats.
    pub seats: usize,
    /// The game's index in its tournament, when reviewed from a log.
    pub index: Option<usize>,
    /// The reference evaluator.
    pub reference: String,
    /// Whether its values are exact.
    pub exact: bool,
    /// The blunder threshold used.
    pub blunder_threshold: f64,
    /// Every seat's value at the start.
    pub start: Vec<f64>,
    /// Every seat's final score.
    pub final_scores: Vec<f64>,
    /// Every throw and decision.
    pub steps: Vec<Step>,
    /// Per seat.
    pub summary: Vec<SeatReview>,
}

/// Every seat's value of `state`: the final scores once the game is over, else the
/// reference's.
fn values<G: Game>(
    game: &G,
    reference: &mut dyn Reference<G>,
    state: &G::State,
) -> Result<SeatValues, ReviewError> {
    match game.scores(state) {
        Some(s) => Ok(s),
        None => reference.value(game, state),
    }
}

/// Accumulates one seat's figures.
#[derive(Clone, Copy, Default)]
struct Tally {
    luck: f64,
    decisions: usize,
    unforced: usize,
    error: f64,
    blunders: usize,
    opponent: f64,
    drift: f64,
}

fn bad(event: usize, message: String) -> ReviewError {
    ReviewError::BadGame {
        event: Some(event),
        message,
    }
}

/// Reviews a game given by its events from the initial state, ending either by the rules
/// or, when `forfeit_scores` is given, by an agent's failure with those final scores.
///
/// # Errors
/// [`ReviewError::BadGame`] when an event does not apply, the game does not end where the
/// events do (without a forfeit), or the forfeit scores have the wrong length;
/// [`ReviewError::NotCovered`] when the reference has no value for a position.
pub fn review<G: Present>(
    game: &G,
    reference: &mut dyn Reference<G>,
    events: &[LoggedEvent],
    forfeit_scores: Option<&[f64]>,
    blunder_threshold: f64,
) -> Result<Review, ReviewError> {
    review_from(
        game,
        reference,
        game.initial_state(),
        events,
        forfeit_scores,
        blunder_threshold,
    )
}

/// As [`review`], from any valid position `start` instead of the initial state.
///
/// # Errors
/// As [`review`], and [`ReviewError::BadGame`] when `start` is not a valid state.
pub fn review_from<G: Present>(
    game: &G,
    reference: &mut dyn Reference<G>,
    start: G::State,
    events: &[LoggedEvent],
    forfeit_scores: Option<&[f64]>,
    blunder_threshold: f64,
) -> Result<Review, ReviewError> {
    let n = game.seats();
    game.validate(&start).map_err(|e| ReviewError::BadGame {
        event: None,
        message: e.to_string(),
    })?;
    let start_values = values(game, reference, &start)?;
    let mut walk = Walk {
        game,
        reference,
        n,
        blunder_threshold,
        state: start,
        current: start_values,
        tally: vec![Tally::default(); n],
        steps: Vec::with_capacity(events.len()),
        legal: ActionList::new(),
    };
    for (i, e) in events.iter().enumerate() {
        match e {
            LoggedEvent::Throw(t) => walk.throw(i, Throw::new(*t))?,
            LoggedEvent::Action(text) => walk.decision(i, text)?,
        }
    }
    let final_scores = final_scores(game, &walk.state, forfeit_scores, events.len())?;
    let summary = (0..n)
        .map(|s| {
            let t = walk.tally[s];
            SeatReview {
                seat: s,
                start: start_values[s],
                final_score: final_scores[s],
                luck: t.luck,
                decisions: t.decisions,
                unforced: t.unforced,
                total_error: t.error,
                mean_error: (t.unforced > 0).then(|| t.error / t.unforced as f64),
                blunders: t.blunders,
                opponent_effect: t.opponent,
                drift: t.drift,
                forfeit: if forfeit_scores.is_some() {
                    final_scores[s] - walk.current[s]
                } else {
                    0.0
                },
                adjusted: final_scores[s] - t.luck,
            }
        })
        .collect();
    Ok(Review {
        game: game.name().to_string(),
        seats: n,
        index: None,
        reference: walk.reference.describe(),
        exact: walk.reference.is_exact(),
        blunder_threshold,
        start: start_values[..n].to_vec(),
        final_scores,
        steps: walk.steps,
        summary,
    })
}

/// A review walking a game's events: the state reached, its values, each seat's tally and
/// the steps so far.
struct Walk<'a, G: Game> {
    game: &'a G,
    reference: &'a mut dyn Reference<G>,
    n: usize,
    blunder_threshold: f64,
    state: G::State,
    current: SeatValues,
    tally: Vec<Tally>,
    steps: Vec<Step>,
    legal: ActionList<G::Action>,
}

impl<G: Present> Walk<'_, G> {
    /// Event `i`, a throw: the value of every outcome, the luck of the one thrown.
    fn throw(&mut self, i: usize, throw: Throw) -> Result<(), ReviewError> {
        let (game, n) = (self.game, self.n);
        game.check_throw(&self.state, throw)
            .map_err(|e| bad(i, e.to_string()))?;
        let seat = game.node(&self.state).seat().unwrap_or(0);
        let mut expected = [0.0; stickdice::MAX_SEATS];
        let mut actual = [0.0; stickdice::MAX_SEATS];
        let mut outcomes = Vec::with_capacity(game.throw_outcomes().len());
        for o in game.throw_outcomes() {
            let mut s = self.state;
            game.apply_throw_unchecked(&mut s, o.throw);
            let v = values(game, self.reference, &s)?;
            for (x, y) in expected.iter_mut().zip(&v) {
                *x += o.probability * y;
            }
            if o.throw == throw {
                actual = v;
            }
            outcomes.push(OutcomeValue {
                throw: o.throw.marked(),
                probability: o.probability,
                value: v[..n].to_vec(),
            });
        }
        let luck: Vec<f64> = (0..n).map(|s| actual[s] - expected[s]).collect();
        for (s, t) in self.tally.iter_mut().enumerate() {
            t.luck += luck[s];
            t.drift += expected[s] - self.current[s];
        }
        self.steps.push(Step::Throw {
            event: i,
            seat,
            throw: throw.marked(),
            describe: game.describe_throw(&self.state, throw),
            outcomes,
            expected: expected[..n].to_vec(),
            value: actual[..n].to_vec(),
            luck,
        });
        game.apply_throw_unchecked(&mut self.state, throw);
        self.current = actual;
        Ok(())
    }

    /// Event `i`, a decision: the value of every legal action, the chosen one's error.
    fn decision(&mut self, i: usize, text: &str) -> Result<(), ReviewError> {
        let game = self.game;
        let Node::Decide(seat) = game.node(&self.state) else {
            return Err(bad(i, "an action where no decision is due".to_string()));
        };
        let chosen = game.parse_action(text).map_err(|e| bad(i, e.to_string()))?;
        game.check_action(&self.state, chosen)
            .map_err(|e| bad(i, e.to_string()))?;
        game.legal_actions(&self.state, &mut self.legal);
        let mut actions = Vec::with_capacity(self.legal.len());
        let mut best: Option<(usize, SeatValues)> = None;
        let mut chosen_v = None;
        for (j, &a) in self.legal.iter().enumerate() {
            let mut s = self.state;
            game.apply_action_unchecked(&mut s, a);
            let v = values(game, self.reference, &s)?;
            if best.is_none_or(|(_, b)| v[seat] > b[seat]) {
                best = Some((j, v));
            }
            if a == chosen {
                chosen_v = Some(v);
            }
            actions.push(ActionValue {
                action: a.to_string(),
                value: v[seat],
            });
        }
        let (best_j, best_v) = best.expect("a decision has a legal action");
        let chosen_v = chosen_v.expect("the chosen action is legal");
        let forced = self.legal.len() == 1;
        let raw = best_v[seat] - chosen_v[seat];
        let error = if raw > TIE { raw } else { 0.0 };
        let blunder = !forced && error > self.blunder_threshold;
        for (s, t) in self.tally.iter_mut().enumerate() {
            t.drift += best_v[s] - self.current[s];
            if s == seat {
                t.decisions += 1;
                t.unforced += usize::from(!forced);
                t.error += error;
                t.blunders += usize::from(blunder);
                // The part of the loss below the tie tolerance.
                t.drift += error - raw;
            } else {
                t.opponent += chosen_v[s] - best_v[s];
            }
        }
        self.steps.push(Step::Decision {
            event: i,
            seat,
            chosen: chosen.to_string(),
            best: self.legal[best_j].to_string(),
            actions,
            error,
            forced,
            blunder,
            value: chosen_v[..self.n].to_vec(),
        });
        game.apply_action_unchecked(&mut self.state, chosen);
        self.current = chosen_v;
        Ok(())
    }
}

/// The final scores of a reviewed game: the forfeit's, when given, else the rules' (the
/// game must have ended after its `events` events).
fn final_scores<G: Game>(
    game: &G,
    state: &G::State,
    forfeit_scores: Option<&[f64]>,
    events: usize,
) -> Result<Vec<f64>, ReviewError> {
    let n = game.seats();
    match forfeit_scores {
        Some(f) if f.len() != n => Err(ReviewError::BadGame {
            event: None,
            message: format!("{} final scores for {n} seats", f.len()),
        }),
        Some(f) => Ok(f.to_vec()),
        None => match game.scores(state) {
            Some(s) => Ok(s[..n].to_vec()),
            None => Err(ReviewError::BadGame {
                event: None,
                message: format!(
                    "the game has not ended after its {events} events (a cut or damaged log)"
                ),
            }),
        },
    }
}

/// Checks a logged game's seats and scores against the game, before a review.
fn check_record<G: Game>(game: &G, record: &GameRecord) -> Result<(), ReviewError> {
    let n = game.seats();
    if record.scores.len() != n || record.seating.len() != n {
        return Err(ReviewError::BadGame {
            event: None,
            message: format!(
                "game {} has {} scores and {} seats logged for a {n}-seat game",
                record.index,
                record.scores.len(),
                record.seating.len()
            ),
        });
    }
    Ok(())
}

/// Reviews a logged game ([`review`]), checking that the replay ends with the logged
/// scores.
///
/// # Errors
/// As [`review`], and [`ReviewError::BadGame`] when the logged scores disagree with the
/// replay.
pub fn review_record<G: Present>(
    game: &G,
    reference: &mut dyn Reference<G>,
    record: &GameRecord,
    blunder_threshold: f64,
) -> Result<Review, ReviewError> {
    check_record(game, record)?;
    let forfeit = record.failure.as_ref().map(|_| record.scores.as_slice());
    let mut r = review(game, reference, &record.events, forfeit, blunder_threshold)?;
    if record.failure.is_none() && r.final_scores != record.scores {
        return Err(ReviewError::BadGame {
            event: None,
            message: format!(
                "the replay ends with scores {:?}, the log says {:?}",
                r.final_scores, record.scores
            ),
        });
    }
    r.index = Some(record.index);
    Ok(r)
}

/// Every seat's luck over a logged game: what luck-adjusted tournament results need
/// (the `luck` of [`review_record`]'s summary).
///
/// # Errors
/// As [`review_record`].
pub fn record_luck<G: Present>(
    game: &G,
    reference: &mut dyn Reference<G>,
    record: &GameRecord,
) -> Result<Vec<f64>, ReviewError> {
    let r = review_record(game, reference, record, BLUNDER)?;
    Ok(r.summary.iter().map(|s| s.luck).collect())
}

// ---- Luck-adjusted tournament results ---------------------------------------------------

/// Every seat's luck in a logged game, for a tournament (type-erased over the game).
pub type LuckFn = Arc<dyn Fn(&GameRecord) -> Result<Vec<f64>, ReviewError> + Send + Sync>;

/// What a tournament needs to report luck-adjusted results.
#[derive(Clone)]
pub struct LuckOptions {
    /// The reference, described (from [`Reference::describe`]).
    pub reference: String,
    /// Whether the reference is exact.
    pub exact: bool,
    /// Each logged game's luck per seat.
    pub luck: LuckFn,
    /// Whether the SPRT runs on the adjusted scores (`--luck-adjusted`).
    pub sprt: bool,
}

impl fmt::Debug for LuckOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LuckOptions")
            .field("reference", &self.reference)
            .field("sprt", &self.sprt)
            .finish_non_exhaustive()
    }
}

impl LuckOptions {
    /// The luck of `game`'s logged games with its reference for `options` (a fresh
    /// reference per game, so games can be measured in parallel and each is reproducible).
    ///
    /// # Errors
    /// [`ReviewError::Unsupported`] when the reference cannot handle the game.
    pub fn new<G: Reviewable>(game: &G, options: &ReferenceOptions) -> Result<Self, ReviewError> {
        let reference = game.reference(options)?;
        let (describe, exact) = (reference.describe(), reference.is_exact());
        let (game, options) = (game.clone(), options.clone());
        Ok(LuckOptions {
            reference: describe,
            exact,
            luck: Arc::new(move |record: &GameRecord| {
                let mut reference = game.reference(&options)?;
                record_luck(&game, reference.as_mut(), record)
            }),
            sprt: false,
        })
    }
}

/// The luck-adjusted standings of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LuckReport {
    /// The reference evaluator.
    pub reference: String,
    /// Whether its values are exact.
    pub exact: bool,
    /// One line per agent, in the tournament's order.
    pub agents: Vec<LuckStanding>,
    /// Each seat's raw and adjusted mean score.
    pub seats: Vec<LuckStanding>,
}

/// Raw and luck-adjusted mean scores of an agent (or a seat).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LuckStanding {
    /// The agent's label, or the seat (`P1`, …).
    pub name: String,
    /// The mean score, with its 95% interval over rotations.
    pub raw: Interval,
    /// The mean of score − luck, with its 95% interval over the same rotations.
    pub adjusted: Interval,
    /// The mean luck per game.
    pub mean_luck: f64,
    /// `1 − var(adjusted) / var(raw)` of the per-rotation observations (`None` with fewer
    /// than two rotations or no raw variance).
    pub variance_reduction: Option<f64>,
    /// The adjusted interval's width over the raw one's.
    pub width_ratio: Option<f64>,
}

fn sample_variance(xs: &[f64]) -> Option<f64> {
    let n = xs.len();
    (n >= 2).then(|| {
        let m = xs.iter().sum::<f64>() / n as f64;
        xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64
    })
}

impl LuckStanding {
    /// The figures from paired per-rotation observations (raw, adjusted) and the luck of
    /// each game.
    pub fn of(name: String, raw: &[f64], adjusted: &[f64], luck: &[f64]) -> LuckStanding {
        // The report's own interval of a mean score, for raw and adjusted alike.
        let interval = |xs: &[f64]| Interval::from_estimate(&Estimate::of(xs));
        let width = |i: &Interval| match (i.low, i.high) {
            (Some(l), Some(h)) => Some(h - l),
            _ => None,
        };
        let (r, a) = (interval(raw), interval(adjusted));
        let variance_reduction = match (sample_variance(raw), sample_variance(adjusted)) {
            (Some(vr), Some(va)) if vr > 0.0 => Some(1.0 - va / vr),
            _ => None,
        };
        let width_ratio = match (width(&r), width(&a)) {
            (Some(wr), Some(wa)) if wr > 0.0 => Some(wa / wr),
            _ => None,
        };
        LuckStanding {
            name,
            raw: r,
            adjusted: a,
            mean_luck: if luck.is_empty() {
                0.0
            } else {
                luck.iter().sum::<f64>() / luck.len() as f64
            },
            variance_reduction,
            width_ratio,
        }
    }
}

impl LuckReport {
    /// The luck-adjusted figures of `games` (sorted by index, whole rotations of `seats`
    /// games, as the report counts them), with `luck[i]` the luck per seat of `games[i]`.
    /// An agent's observation per rotation is its mean over the rotation's games, raw and
    /// adjusted alike, as the report's raw intervals are computed.
    ///
    /// # Panics
    /// If `luck` and `games` differ in length.
    pub fn build(
        options: &LuckOptions,
        labels: &[String],
        seats: usize,
        games: &[&GameRecord],
        luck: &[Vec<f64>],
    ) -> LuckReport {
        assert_eq!(games.len(), luck.len(), "one luck per game");
        let k = labels.len();
        let mut raw = vec![Vec::new(); k];
        let mut adj = vec![Vec::new(); k];
        let mut lucks = vec![Vec::new(); k];
        let mut seat_raw = vec![Vec::new(); seats];
        let mut seat_adj = vec![Vec::new(); seats];
        let mut seat_luck = vec![Vec::new(); seats];
        for (unit, unit_luck) in games.chunks(seats).zip(luck.chunks(seats)) {
            let mut sum = vec![(0.0, 0.0, 0usize); k];
            let mut seat_sum = vec![(0.0, 0.0); seats];
            for (g, l) in unit.iter().zip(unit_luck) {
                for (s, &a) in g.seating.iter().enumerate() {
                    let (score, lk) = (g.scores[s], l[s]);
                    sum[a].0 += score;
                    sum[a].1 += score - lk;
                    sum[a].2 += 1;
                    lucks[a].push(lk);
                    seat_sum[s].0 += score;
                    seat_sum[s].1 += score - lk;
                    seat_luck[s].push(lk);
                }
            }
            for a in 0..k {
                if sum[a].2 > 0 {
                    raw[a].push(sum[a].0 / sum[a].2 as f64);
                    adj[a].push(sum[a].1 / sum[a].2 as f64);
                }
            }
            if unit.len() == seats {
                for s in 0..seats {
                    seat_raw[s].push(seat_sum[s].0 / seats as f64);
                    seat_adj[s].push(seat_sum[s].1 / seats as f64);
                }
            }
        }
        LuckReport {
            reference: options.reference.clone(),
            exact: options.exact,
            agents: (0..k)
                .map(|a| LuckStanding::of(labels[a].clone(), &raw[a], &adj[a], &lucks[a]))
                .collect(),
            seats: (0..seats)
                .map(|s| {
                    LuckStanding::of(
                        format!("P{}", s + 1),
                        &seat_raw[s],
                        &seat_adj[s],
                        &seat_luck[s],
                    )
                })
                .collect(),
        }
    }

    /// The method notes for the report.
    pub fn methods(&self) -> Vec<String> {
        vec![
            format!("Luck-adjusted scores: each game's score minus the seat's luck, the luck of a throw being the value after it minus the probability-weighted value over every throw it could have been, summed over every throw of the game (the seat's own and the others'). Values from a reference fixed before the games and not playing in them: {}. The luck of each throw has expectation exactly zero given the game so far, so the adjusted score is an unbiased estimate of the same expected score (a control variate with coefficient 1); it is less noisy as far as the reference's values explain the results.", self.reference),
            "Adjusted intervals: mean ± 1.96·s/√n over the same rotations as the raw ones (the agent's mean adjusted score over a rotation's games). Variance reduction: 1 − var(adjusted)/var(raw) of those per-rotation observations; width ratio: adjusted interval width over raw.".to_string(),
        ]
    }

    /// The Markdown section.
    pub fn to_markdown(&self) -> String {
        use std::fmt::Write as _;
        let mut o = String::new();
        let _ = writeln!(o, "\n## Luck-adjusted scores\n");
        let _ = writeln!(o, "Reference: {}.\n", self.reference);
        let _ = writeln!(
            o,
            "| agent | score | 95% interval | adjusted | 95% interval | mean luck | variance reduction | width ratio |"
        );
        let _ = writeln!(o, "|---|---:|---|---:|---|---:|---:|---:|");
        let pct = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{:.1}%", 100.0 * v));
        let ratio = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.3}"));
        for (i, s) in self.agents.iter().chain(&self.seats).enumerate() {
            if i == self.agents.len() {
                let _ = writeln!(o, "| **seats** | | | | | | | |");
            }
            let _ = writeln!(
                o,
                "| `{}` | {:.3} | {} | {:.3} | {} | {:+.4} | {} | {} |",
                s.name,
                s.raw.value,
                s.raw.range(3),
                s.adjusted.value,
                s.adjusted.range(3),
                s.mean_luck,
                pct(s.variance_reduction),
                ratio(s.width_ratio)
            );
        }
        o
    }
}

/// [`Reviewable`] for the games without a reference: review and luck refuse them, naming
/// the game.
macro_rules! no_reference {
    ($($ty:ty),* $(,)?) => {
        $(
            impl Reviewable for $ty {
                const REVIEWED: bool = false;

                fn reference(
                    &self,
                    _options: &ReferenceOptions,
                ) -> Result<Box<dyn Reference<Self>>, ReviewError> {
                    Err(ReviewError::Unsupported {
                        game: <$ty as Game>::NAME,
                        reason: Unsupported::NoReference,
                    })
                }
            }
        )*
    };
}

// The table of references: each game of the list has its own above or is named here. A
// game in neither does not compile.
no_reference!();

/// The games of the list with a reference evaluator for review and luck (the `review`
/// part of what a game offers), in the list's order.
pub fn references() -> Vec<stickdice::GameKind> {
    macro_rules! each {
        ([] $($variant:ident : $ty:path,)*) => {
            vec![$((stickdice::GameKind::$variant, <$ty as Reviewable>::REVIEWED)),*]
        };
    }
    stickdice::for_each_game!(each)
        .into_iter()
        .filter_map(|(kind, has)| has.then_some(kind))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(index: usize, seating: Vec<usize>, scores: Vec<f64>) -> GameRecord {
        GameRecord {
            index,
            table: 0,
            rotation: index / 2,
            shift: index % 2,
            game_seed: 0,
            agent_seeds: vec![0, 0],
            seating,
            events: Vec::new(),
            places: scores.iter().map(|&s| u8::from(s < 0.5)).collect(),
            scores,
            throws: 0,
            time_s: vec![0.0, 0.0],
            failure: None,
        }
    }

    /// Two rotations of two games, worked by hand: agent 0 scores 1, 0 | 1, 1 and its luck
    /// is +0.5, −0.5 | +0.25, +0.25, so its raw rotation means are 0.5 and 1, its adjusted
    /// ones 0.5 and 0.75.
    #[test]
    fn luck_reports_pair_raw_and_adjusted_rotations() {
        let games = [
            record(0, vec![0, 1], vec![1.0, 0.0]),
            record(1, vec![1, 0], vec![1.0, 0.0]),
            record(2, vec![0, 1], vec![1.0, 0.0]),
            record(3, vec![1, 0], vec![0.0, 1.0]),
        ];
        let luck = vec![
            vec![0.5, -0.5],
            vec![0.5, -0.5],
            vec![0.25, -0.25],
            vec![-0.25, 0.25],
        ];
        let options = LuckOptions {
            reference: "by hand".into(),
            exact: true,
            luck: Arc::new(|_| Ok(Vec::new())),
            sprt: false,
        };
        let refs: Vec<&GameRecord> = games.iter().collect();
        let r = LuckReport::build(&options, &["a".into(), "b".into()], 2, &refs, &luck);
        let a = &r.agents[0];
        assert_eq!(a.raw.value, 0.75);
        assert_eq!(a.adjusted.value, 0.625);
        assert_eq!(a.mean_luck, 0.125);
        // Sample variances: raw (0.5, 1) 0.125, adjusted (0.5, 0.75) 0.03125.
        assert!((a.variance_reduction.unwrap() - 0.75).abs() < 1e-12);
        assert!((a.width_ratio.unwrap() - 0.5).abs() < 1e-12);
        // Seat P1: raw (1 + 1)/2 = 1 and (1 + 0)/2 = 0.5; adjusted (0.5 + 0.5)/2 = 0.5 and
        // (0.75 + 0.25)/2 = 0.5: all of the seat's variance was luck.
        assert_eq!(r.seats[0].raw.value, 0.75);
        assert_eq!(r.seats[0].adjusted.value, 0.5);
        assert_eq!(r.seats[0].variance_reduction, Some(1.0));
        assert_eq!(r.seats[0].width_ratio, Some(0.0));
        assert!(r.to_markdown().contains("| `a` | 0.750 |"));
    }
}
