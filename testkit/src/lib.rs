//! Test-only games for the stickdice crates' tests: small rules with chance and choices
//! whose exact values can be brute-forced, none of them a Saharan game. A dev-dependency
//! of `stickdice-agents` and `stickdice-evaluation`; not published. How the project is
//! tested is described in the book's chapter *Architecture* (`docs/architecture.md`).
//!
//! * [`dash`]: Dash, a race with captures, extra throws and ties (the expectimax tests).
//! * [`race`]: a race with brute-forced exact values near the end (the MCTS and ISMCTS
//!   unit tests). Those tests look into the search tree, so they stay unit tests of
//!   `stickdice-agents`, which compiles this very file into its test build (`#[path]`):
//!   through a dev-dependency the game would implement the `Evaluate` trait of the
//!   agents' non-test build, a different trait from the one its unit tests see.
//! * [`counting`]: a global allocator counting this thread's allocations (the tests that
//!   hot paths allocate nothing).
//! * [`toy`]: a run-or-walk race in which an agent can play an illegal action (the
//!   arena and tournament tests).
#![deny(missing_docs)]

// `race.rs` names the evaluation trait `crate::Evaluate` (see above).
use stickdice_agents::Evaluate;

pub mod counting;
pub mod dash;
pub mod race;
pub mod toy;
