//! What a search found: each root action's statistics.

use stickdice::Seat;

/// One root action's statistics after a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionStats<A> {
    /// The action.
    pub action: A,
    /// Iterations that went through it (summed over trees).
    pub visits: u64,
    /// The deciding seat's mean score through it, in `[0, 1]` (0 when unvisited).
    pub mean: f64,
}

/// What a search found at the root: every legal action, in the order of
/// [`Game::legal_actions`](stickdice::Game::legal_actions), with its visits and mean value.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<A> {
    /// The seat deciding at the root.
    pub seat: Seat,
    /// Iterations run by this search (over all trees; statistics reused from earlier
    /// searches come on top).
    pub iterations: u64,
    /// One entry per legal action.
    pub actions: Vec<ActionStats<A>>,
}

impl<A> Analysis<A> {
    pub(super) fn empty() -> Self {
        Analysis {
            seat: 0,
            iterations: 0,
            actions: Vec::new(),
        }
    }

    /// The statistics as [`stickdice::ActionValue`]s (for [`Agent::analysis`](stickdice::Agent::analysis)): the mean
    /// as the value, with the visits. `None` before any search.
    pub fn action_values(&self) -> Option<Vec<stickdice::ActionValue<A>>>
    where
        A: Copy,
    {
        (!self.actions.is_empty()).then(|| {
            self.actions
                .iter()
                .map(|s| stickdice::ActionValue {
                    action: s.action,
                    value: s.mean,
                    visits: Some(s.visits),
                })
                .collect()
        })
    }

    /// The action the agent plays: the most visits, ties going to the higher mean, then to
    /// the earlier legal action. `None` only before any search.
    pub fn best(&self) -> Option<&ActionStats<A>> {
        let mut best: Option<&ActionStats<A>> = None;
        for s in &self.actions {
            if best.is_none_or(|b| s.visits > b.visits || (s.visits == b.visits && s.mean > b.mean))
            {
                best = Some(s);
            }
        }
        best
    }
}
