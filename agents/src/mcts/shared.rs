//! What ISMCTS shares with MCTS, and all it sees of MCTS's insides: the playout runner
//! ([`Rollout`]), the search budget ([`Budget`]) and the checks and readers of the
//! parameters both take. (The public items, [`Playout`](super::Playout),
//! [`Analysis`](super::Analysis) and the defaults, are used through [`super`].)

pub(crate) use super::budget::Budget;
pub(crate) use super::config::{bad, check_budget, check_cutoff, cutoff_param};
pub(crate) use super::playouts::Rollout;
