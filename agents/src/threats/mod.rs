//! What each side's next throw can capture, for the two-sided capture games: the move
//! values that land on an enemy piece and the chance that a throw gives one of them.
//!
//! Both the hand-set evaluations ([`crate::eval`]) and the learned ones' inputs
//! ([`crate::learned`]) read these, so they live below both.

pub(crate) mod issiren;
pub(crate) mod sig_el_oued_capture;
