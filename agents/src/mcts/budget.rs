//! A search budget: iterations, time, or both.

use std::time::{Duration, Instant};

use stickdice::Stop;

use super::config::DEFAULT_ITERATIONS;

/// A search budget: iterations, time, or both (whichever ends first), and a [`Stop`] from
/// outside.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget<'a> {
    pub(crate) iterations: Option<u64>,
    pub(crate) deadline: Option<Instant>,
    pub(crate) stop: Option<&'a Stop>,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(iterations: Option<u64>, millis: Option<u64>) -> Self {
        Budget {
            iterations: match (iterations, millis) {
                (None, None) => Some(DEFAULT_ITERATIONS),
                (it, _) => it,
            },
            deadline: millis.map(|ms| Instant::now() + Duration::from_millis(ms)),
            stop: None,
        }
    }

    /// The same budget, also ending when `stop` is stopped.
    pub(crate) fn with_stop(self, stop: Option<&'a Stop>) -> Self {
        Budget { stop, ..self }
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
        !(done.is_multiple_of(16)
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.stop.is_some_and(Stop::is_stopped)))
    }
}
