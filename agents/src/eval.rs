//! Heuristic evaluation of positions, one implementation per game, shared by the greedy
//! agent, expectimax's leaves and MCTS's greedy playouts.

use stickdice::{Game, SeatValues};

/// A heuristic estimate of each seat's final score.
pub trait Evaluate: Game {
    /// Each seat's estimated score in `[0, 1]` (the same scale as [`stickdice::Ranking::score`]):
    /// at an ended state exactly the scores; elsewhere an estimate from progress, pieces home
    /// or captured, and threats. Entries past the seat count are 0. Values are bounded by
    /// `[0, 1]`, so searches may prune with those bounds.
    fn evaluate(&self, state: &Self::State) -> SeatValues;
}
