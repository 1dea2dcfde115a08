//! The stickdice arena, tournaments and statistics.
