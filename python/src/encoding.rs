//! The integer encodings Python (and OpenSpiel, PettingZoo) see: actions as ints in
//! `0..num_actions()`, chance outcomes as ints, and the observation tensor of each game.
//! They are defined in one place, the `stickdice-rl` crate's `encoding` module
//! ([`Encoded`], re-exported here), shared with the batched environment; the Python
//! modules only pass the ints through.
//!
//! A game without the `encode` capability has none of these: [`Codes`], which every game of
//! the list implements, answers for it with [`Missing`] (raised in Python as
//! `stickdice.MissingCapability`, naming the game and `encode`), and Python plays it by
//! action notation.

use std::fmt;

use stickdice::Game;
use stickdice_agents::Evaluate;
/// The encodings themselves live in the `stickdice-rl` crate (the batched environment's
/// home); this module only answers for the games without them.
pub use stickdice_rl::Encoded;

/// What a game without the `encode` capability cannot give: its action codes or its
/// observation tensors (Python's `stickdice.MissingCapability`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The game's name (`issiren`).
    pub game: &'static str,
    /// The game's title, for the message.
    pub title: &'static str,
    /// The capability it lacks (`encode`).
    pub capability: &'static str,
    /// What was asked for (`action codes`, `observation tensors`).
    pub what: &'static str,
}

impl Missing {
    /// `G` lacks the `encode` capability, and `what` was asked for.
    pub fn encoding<G: Game>(what: &'static str) -> Missing {
        Missing {
            game: G::NAME,
            title: G::TITLE,
            capability: "encode",
            what,
        }
    }
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) has no {}: the game does not provide the `{}` capability (action codes \
             and observation tensors, which OpenSpiel and PettingZoo also need); play it by \
             action notation: State.legal_action_strings(), State.apply_action_string(text), \
             Agent.step_string(state)",
            self.title, self.game, self.what, self.capability
        )
    }
}

impl std::error::Error for Missing {}

/// The encodings as Python asks for them, for every game of the list: the game's own
/// ([`Encoded`]) where it has the `encode` capability; otherwise every method answers
/// [`Missing`] (the defaults).
pub trait Codes: Evaluate {
    /// Whether the game has action codes and observation tensors.
    const ENCODED: bool = false;

    /// The number of distinct action codes.
    ///
    /// # Errors
    /// The game has no encoding.
    fn num_actions() -> Result<usize, Missing> {
        Err(Missing::encoding::<Self>("action codes"))
    }
    /// The observation tensor's layout, for people.
    ///
    /// # Errors
    /// The game has no encoding.
    fn observation_doc() -> Result<&'static str, Missing> {
        Err(Missing::encoding::<Self>("observation tensors"))
    }
    /// The code of an action.
    ///
    /// # Errors
    /// The game has no encoding.
    fn code(action: Self::Action) -> Result<u32, Missing> {
        let _ = action;
        Err(Missing::encoding::<Self>("action codes"))
    }
    /// The action with this code, if it is one.
    ///
    /// # Errors
    /// The game has no encoding.
    fn action(code: u32) -> Result<Option<Self::Action>, Missing> {
        let _ = code;
        Err(Missing::encoding::<Self>("action codes"))
    }
    /// The length of the observation tensor for this game's seat count.
    ///
    /// # Errors
    /// The game has no encoding.
    fn observation_len(&self) -> Result<usize, Missing> {
        Err(Missing::encoding::<Self>("observation tensors"))
    }
    /// The observation tensor of `state`.
    ///
    /// # Errors
    /// The game has no encoding.
    fn observation(&self, state: &Self::State) -> Result<Vec<f32>, Missing> {
        let _ = state;
        Err(Missing::encoding::<Self>("observation tensors"))
    }
    /// The most decisions a game can hold (OpenSpiel's `max_game_length`); without an
    /// encoding, one per throw up to the cap.
    fn max_game_length(&self) -> usize {
        self.max_throws() as usize
    }
}

/// [`Codes`] for each game of the list, by the `stickdice-rl` crate's table of encodings
/// ([`stickdice_rl::for_each_encoding!`]): its [`Encoded`] where it has one, the defaults
/// ([`Missing`]) where it has not.
macro_rules! codes {
    (encoded: [$($ty:ty,)*], missing: [$($no:ty,)*],) => {
        $(
                impl Codes for $ty {
                    const ENCODED: bool = true;
                    fn num_actions() -> Result<usize, Missing> {
                        Ok(<$ty as Encoded>::num_actions())
                    }
                    fn observation_doc() -> Result<&'static str, Missing> {
                        Ok(<$ty as Encoded>::observation_doc())
                    }
                    fn code(action: Self::Action) -> Result<u32, Missing> {
                        Ok(<$ty as Encoded>::encode(action))
                    }
                    fn action(code: u32) -> Result<Option<Self::Action>, Missing> {
                        Ok(<$ty as Encoded>::decode(code))
                    }
                    fn observation_len(&self) -> Result<usize, Missing> {
                        Ok(Encoded::observation_len(self))
                    }
                    fn observation(&self, state: &Self::State) -> Result<Vec<f32>, Missing> {
                        let mut out = vec![0.0; Encoded::observation_len(self)];
                        self.observe(state, &mut out);
                        Ok(out)
                    }
                    fn max_game_length(&self) -> usize {
                        self.max_decisions()
                    }
                }
        )*
        $(impl Codes for $no {})*
    };
}
stickdice_rl::for_each_encoding!(codes);
