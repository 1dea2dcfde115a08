//! Sig (El Oued) — SKELETON, to be replaced by the real implementation.
#![allow(missing_docs, clippy::todo)]

use crate::config::{check_seats, parse_max_throws, DEFAULT_MAX_THROWS};
use crate::dice::{Sticks, Throw};
use crate::game::{ActionList, ConfigError, Game, InvalidState, Node, NotationError, Ranking};

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SigElOued {
    seats: u8,
    max_throws: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct State {
    throws: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Action {
    Pass,
}

impl core::fmt::Display for Action {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("pass")
    }
}

impl Game for SigElOued {
    type State = State;
    type Action = Action;
    const NAME: &'static str = "sig-el-oued";
    const TITLE: &'static str = "Sig (El Oued)";
    const MAX_ACTIONS: usize = 12;
    const SEATS: (usize, usize) = (2, 8);
    const OPTIONS: &'static [&'static str] = &["max_throws"];

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        check_seats::<Self>(seats)?;
        Ok(SigElOued {
            seats: seats as u8,
            max_throws: DEFAULT_MAX_THROWS,
        })
    }
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match key {
            "max_throws" => self.max_throws = parse_max_throws(value)?,
            _ => {
                return Err(ConfigError::UnknownOption {
                    game: Self::NAME,
                    key: key.into(),
                    known: Self::OPTIONS,
                })
            }
        }
        Ok(())
    }
    fn options(&self) -> Vec<(&'static str, String)> {
        vec![("max_throws", self.max_throws.to_string())]
    }
    fn seats(&self) -> usize {
        self.seats as usize
    }
    fn initial_state(&self) -> State {
        State { throws: 0 }
    }
    fn node(&self, _s: &State) -> Node {
        todo!()
    }
    fn sticks(&self) -> Sticks {
        Sticks::SIX
    }
    fn legal_actions(&self, _s: &State, _out: &mut ActionList<Action>) {
        todo!()
    }
    fn apply_throw_unchecked(&self, _s: &mut State, _t: Throw) {
        todo!()
    }
    fn apply_action_unchecked(&self, _s: &mut State, _a: Action) {
        todo!()
    }
    fn ranking(&self, _s: &State) -> Option<Ranking> {
        todo!()
    }
    fn throws_made(&self, s: &State) -> u32 {
        s.throws
    }
    fn parse_action(&self, _t: &str) -> Result<Action, NotationError> {
        todo!()
    }
    fn validate(&self, _s: &State) -> Result<(), InvalidState> {
        todo!()
    }
    fn render(&self, _s: &State) -> String {
        todo!()
    }
    fn describe_throw(&self, _s: &State, _t: Throw) -> String {
        todo!()
    }
}
