//! [`Exact`] for the three games: what the solver accepts, and how each state drops its
//! throw count.

use std::sync::Arc;

use stickdice::games::sig_wa_duqqan::Piece;
use stickdice::{Game, Issiren, Seat, SigElOued, SigWaDuqqan};

use super::tablebase;
use super::{Exact, ExactValues, SolveError};

/// The most seats the solver accepts in Sig wa Duqqan (measured: the book's chapter
/// `docs/performance/exact.md`, "What fits").
pub const DUQQAN_MAX_SEATS: usize = 3;
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

/// [`Exact`] for each game of the list without the `exact` capability
/// ([`stickdice::for_each_game!`]): the solver refuses it, naming the game.
macro_rules! no_solver {
    ([] $($variant:ident : $ty:path [$($cap:ident)*],)*) => {
        $(
            stickdice::__unless_has!(exact, [$($cap)*], {
                impl Exact for $ty {
                    fn solver_support(&self) -> Result<(), SolveError> {
                        Err(SolveError::Unsupported(format!(
                            "{} has no exact solver; use simulation (stickdice analyze)",
                            <$ty as Game>::NAME
                        )))
                    }

                    fn strip_throw_count(state: &mut Self::State) {
                        let _ = state;
                    }
                }
            });
        )*
    };
}
stickdice::for_each_game!(no_solver);
