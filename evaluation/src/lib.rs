//! The stickdice arena, tournaments and statistics, and the pieces of the `stickdice`
//! command.

pub mod cli;
pub mod protocol;
