//! The games shown to people as text: [`Present`], apart from the rules ([`Game`]).
//!
//! [`Game`] answers what the rules say (the node, the legal actions, what a throw or an
//! action does); [`Present`] says it for people: the board drawn in characters and a throw
//! in the game's own words. The command line's transcripts, the protocol's `show`, the
//! Python package's `render` and the web page's log are built on it. A drawing front end
//! asks [`Board`](crate::Board) (which builds on this trait) for the board's geometry and
//! pieces.

use crate::game::Game;
use crate::Throw;

/// A game shown to people as text: its board in characters, its throws in words.
///
/// Every game of the list has it ([`for_each_game!`](crate::for_each_game) demands it).
/// Generic code that only plays needs [`Game`]; code that prints a state or a throw for
/// people needs `G: Present`.
///
/// ```
/// use stickdice::{Game, Issiren, Present};
/// let game = Issiren::with_seats(2).unwrap();
/// let state = game.initial_state();
/// assert!(!game.render(&state).is_empty());
/// assert!(game.describe_throw(&state, "1".parse().unwrap()).starts_with("1 "));
/// ```
pub trait Present: Game {
    /// The board drawn as text for people, in its real shape.
    fn render(&self, state: &Self::State) -> String;

    /// A throw described for people in the game's own words ("1 white side up: sig, moves
    /// 1, throw again").
    fn describe_throw(&self, state: &Self::State, throw: Throw) -> String;
}
