//! A search budget: iterations, time, or both.

use std::time::{Duration, Instant};

use super::config::DEFAULT_ITERATIONS;

/// A search budget: iterations, time, or both (whichever ends first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Budget {
    pub(crate) iterations: Option<u64>,
    pub(crate) deadline: Option<Instant>,
}

impl Budget {
    pub(crate) fn new(iterations: Option<u64>, millis: Option<u64>) -> Self {
        Budget {
            iterations: match (iterations, millis) {
                (None, None) => Some(DEFAULT_ITERATIONS),
                (it, _) => it,
            },
            deadline: millis.map(|ms| Instant::now() + Duration::from_millis(ms)),
        }
    }

    /// Whether another iteration may start after `done` (at least one always runs).
    #[inline]
    pub(crate) fn more(&self, done: u64) -> bool {
        if done == 0 {
            return true;
        }
        if self.iterations.is_some_and(|max| done >= max) {
            return false;
        }
        // Reading the clock costs about as much as a short playout: look every 16.
        !(done % 16 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d))
    }
}
