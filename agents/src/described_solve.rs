//! [`Exact`] for the described race games ([`stickdice::described`]): the generic solver
//! ([`crate::solve`]) keyed on the engine's own state, from the description alone.
//!
//! A described game is accepted when it is a race (ranked by arrival, nothing captured)
//! for two players; its state is the engine's `State` with the throw count cleared. The
//! solver's own bound on the states it enumerates ([`crate::solve::MAX_STATES`]) refuses a
//! race too large to solve.

use stickdice::described::format::Rank;
use stickdice::described::{Described, State};

use crate::described_eval::AsDescribed;
use crate::solve::{Exact, SolveError};

/// The most seats the solver accepts in a described race.
pub const DESCRIBED_RACE_MAX_SEATS: usize = 2;

/// Whether a described game is a race the solver can take up at all (ranked by arrival,
/// nothing captured), its seat count aside.
pub fn described_race(d: &Described) -> bool {
    d.rank() == Rank::Arrival && !d.captures_by_landing()
}

/// Whether the solver accepts a described game with its seat count and options.
///
/// # Errors
/// [`SolveError::Unsupported`] saying why not.
pub fn described_support(d: &Described) -> Result<(), SolveError> {
    if !described_race(d) {
        return Err(SolveError::Unsupported(format!(
            "{} is solved exactly only where it is a race (ranked by arrival, nothing \
             captured); use simulation (stickdice analyze)",
            d.name()
        )));
    }
    if d.seats() > DESCRIBED_RACE_MAX_SEATS {
        return Err(SolveError::Unsupported(format!(
            "{} is solved exactly for {DESCRIBED_RACE_MAX_SEATS} players only, not {} (each \
             seat multiplies the states by its pieces' positions and hold counts); use \
             simulation (stickdice analyze) for more seats",
            d.name(),
            d.seats()
        )));
    }
    Ok(())
}

/// [`Exact`] for every described game: accepted where [`described_support`] accepts it, so
/// the solver's table (`solve/games.rs`) names none of them. A shipped description offers
/// the `exact` part when, with its default seats and options, it is a race
/// ([`described_race`]); the description loaded at run time always does, and is refused
/// at run time where it is not a race.
macro_rules! described_exact {
    ([] $($variant:ident : $ty:path,)*) => {$(
        described_exact!(
            @ $ty,
            <$ty as stickdice::Game>::with_seats(<$ty as stickdice::Game>::default_seats())
                .is_ok_and(|g| described_race(g.described()))
        );
    )*};
    (@ $ty:path, $solved:expr) => {
        impl Exact for $ty {
            fn solved() -> bool {
                $solved
            }

            fn solver_support(&self) -> Result<(), SolveError> {
                described_support(self.described())
            }

            fn strip_throw_count(state: &mut State) {
                *state = state.with_throws(0);
            }
        }
    };
}
stickdice::for_each_described_game!(described_exact);
described_exact!(@ stickdice::described::games::FileGame, true);
