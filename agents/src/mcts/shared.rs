//! What ISMCTS shares with MCTS, and all it sees of MCTS's insides: the playout runner
//! ([`Rollout`]), the search budget ([`Budget`]) and the settings both take ([`Search`]:
//! read, checked, written and defaulted for a game without an evaluation once). (The public items, [`Playout`](super::Playout),
//! [`Analysis`](super::Analysis) and the defaults, are used through [`super`].)

pub(crate) use super::budget::Budget;
pub(crate) use super::config::{search_settings, Search};
pub(crate) use super::playouts::Rollout;
