//! [`Exact`] for the hand-written games the solver handles (what it accepts, and how each
//! state drops its throw count), and the refusal for the games it does not handle.

use std::sync::Arc;

use stickdice::games::sig_wa_duqqan::Piece;
use stickdice::games::{houmt_taourit, HoumtTaourit};
use stickdice::{Game, Issiren, Seat, SigElOued, SigWaDuqqan};

use super::tablebase;
use super::{Exact, ExactValues, SolveError};

/// The most seats the solver accepts in Sig wa Duqqan (measured: the book's chapter
/// `docs/performance/exact.md`, "What fits").
pub const DUQQAN_MAX_SEATS: usize = 3;
/// The most seats the solver accepts in Sig wa Duqqan (Houmt Taourit) (measured: the
/// book's chapter `docs/performance/exact.md`, "What fits").
pub const HOUMT_TAOURIT_MAX_SEATS: usize = 2;
/// The most seats the solver accepts in Sig (El Oued).
pub const EL_OUED_MAX_SEATS: usize = 2;

impl Exact for SigWaDuqqan {
    fn solver_support(&self) -> Result<(), SolveError> {
        if self.seats() <= DUQQAN_MAX_SEATS {
            Ok(())
        } else {
            Err(SolveError::Unsupported(format!(
                "sig-wa-duqqan is solved exactly for 2 to {DUQQAN_MAX_SEATS} players, not {} \
                 (the state space grows about 30-fold per seat); use simulation \
                 (stickdice analyze) for more seats",
                self.seats()
            )))
        }
    }

    fn strip_throw_count(state: &mut Self::State) {
        *state = state.with_throws(0);
    }

    fn success(&self, state: &Self::State, seat: Seat) -> Option<bool> {
        Some(matches!(state.pieces().get(seat)?, Piece::Arrived(_)))
    }
}

impl Exact for HoumtTaourit {
    fn solver_support(&self) -> Result<(), SolveError> {
        if self.seats() <= HOUMT_TAOURIT_MAX_SEATS {
            Ok(())
        } else {
            Err(SolveError::Unsupported(format!(
                "sig-wa-duqqan-houmt-taourit is solved exactly for {HOUMT_TAOURIT_MAX_SEATS} \
                 players only, not {} (95 632 states with 2; each seat multiplies them by \
                 about 90 squares and sig counts, and value iteration needs some 1 600 sweeps \
                 over them); use simulation (stickdice analyze) for more seats",
                self.seats()
            )))
        }
    }

    fn strip_throw_count(state: &mut Self::State) {
        *state = state.with_throws(0);
    }

    /// Reached the centre (rather than buried, or still racing at the cap).
    fn success(&self, state: &Self::State, seat: Seat) -> Option<bool> {
        Some(matches!(
            state.pieces().get(seat)?,
            houmt_taourit::Piece::Centre(_)
        ))
    }
}

impl Exact for SigElOued {
    fn solver_support(&self) -> Result<(), SolveError> {
        if self.seats() <= EL_OUED_MAX_SEATS {
            Ok(())
        } else {
            Err(SolveError::Unsupported(format!(
                "sig-el-oued is solved exactly for {EL_OUED_MAX_SEATS} players only, not {} \
                 (each seat multiplies the state space by about 90 positions times the turn's \
                 pending throws); use simulation (stickdice analyze) for more seats",
                self.seats()
            )))
        }
    }

    fn strip_throw_count(state: &mut Self::State) {
        *state = state.with_throws(0);
    }
}

impl Exact for Issiren {
    const TABLEBASE: bool = true;

    fn solver_support(&self) -> Result<(), SolveError> {
        Err(SolveError::Unsupported(
            "issiren cannot be solved as a whole (twelve pieces a side on a 48-square board \
             is far too many positions); its endgames with at most two pieces a side are in \
             the tablebase (agent parameter tablebase=build or tablebase=FILE)"
                .to_string(),
        ))
    }

    fn strip_throw_count(state: &mut Self::State) {
        *state = state.with_throws(0);
    }

    fn exact_values(source: &str) -> Result<Arc<dyn ExactValues<Self>>, super::ExactValuesError> {
        let tb = tablebase::shared(source)?;
        Ok(tb as Arc<dyn ExactValues<Self>>)
    }
}

/// Why a game without the `exact` capability has no solver, where more can be said.
fn why_unsolved(name: &str) -> &'static str {
    match name {
        "siryu-race" => SIRYU_RACE_TOO_LARGE,
        _ => "",
    }
}

/// Siryu (Race) with 2 players: the positions alone, the throws owed and the pending throw
/// aside, are 2 × 33 669² (each seat's father, angel and mother have 37 × 26 × 35 = 33 670
/// configurations with their sir counts, one of them finished; every pair of unfinished
/// ones is reachable; measured by the test `siryu_race_configurations_of_one_seat`).
const SIRYU_RACE_TOO_LARGE: &str = ": with 2 players its positions alone number 2 267 203 122 \
     (33 669 unfinished configurations of a seat's father, angel and mother, for each seat, \
     times the seat to play), each again for every count of throws owed (unbounded) and \
     every pending throw; one value per position and owed count is over 9 GB, and sending \
     back ties them into cycles that take value iteration thousands of sweeps";

/// [`Exact`] for the games the solver does not handle: it refuses them, naming the game.
macro_rules! no_solver {
    ($($ty:ty),* $(,)?) => {
        $(
            impl Exact for $ty {
                fn solved() -> bool {
                    false
                }

                fn solver_support(&self) -> Result<(), SolveError> {
                    Err(SolveError::Unsupported(format!(
                        "{} has no exact solver{}; use simulation (stickdice analyze)",
                        <$ty as Game>::NAME,
                        why_unsolved(<$ty as Game>::NAME)
                    )))
                }

                fn strip_throw_count(state: &mut Self::State) {
                    let _ = state;
                }
            }
        )*
    };
}

// The table of solvers: each hand-written game of the list is handled above or is named
// here (every described game is handled in `described_solve.rs`, where it is a race). A
// game in neither does not compile.
no_solver!(
    stickdice::SigElOuedCapture,
    stickdice::games::SiryuRace,
    stickdice::SiryuWar,
);
