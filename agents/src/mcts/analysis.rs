//! What a search found: each root action's statistics.

use stickdice::{Game, Seat};

use crate::solve::ExactValues;

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

impl<A: Copy> Analysis<A> {
    /// When `exact` covers every position the legal actions of `state` lead to, fills the
    /// analysis with those exact values for `seat` (no visits, no iterations: nothing was
    /// searched) and returns `true`; otherwise leaves it as it was and returns `false`.
    ///
    /// A searching agent at such a root plays the exact best action instead of searching:
    /// its children are exact leaves anyway, and choosing among them by visits could pick a
    /// worse one when their values are close. [`Analysis::best`] then returns the first
    /// action of the highest exact value (ties in legal-action order).
    pub(crate) fn fill_exact<G: Game<Action = A>>(
        &mut self,
        exact: &dyn ExactValues<G>,
        game: &G,
        state: &G::State,
        seat: Seat,
        legal: &[A],
    ) -> bool {
        let start = self.actions.len();
        for &action in legal {
            let mut child = *state;
            if game.apply_action(&mut child, action).is_err() {
                self.actions.truncate(start);
                return false;
            }
            let value = match game.scores(&child) {
                Some(x) => x[seat],
                None => match exact.scores(game, &child) {
                    Some(x) => x[seat],
                    None => {
                        self.actions.truncate(start);
                        return false;
                    }
                },
            };
            self.actions.push(ActionStats {
                action,
                visits: 0,
                mean: value,
            });
        }
        // Only now replace the previous analysis.
        self.actions.drain(..start);
        self.seat = seat;
        self.iterations = 0;
        true
    }
}
