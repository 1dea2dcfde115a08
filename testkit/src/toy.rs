//! A toy race game for testing the arena and tournaments with agents of known strength.
//! It is not one of the Sahara games and the `stickdice` command does not offer it.
//!
//! Rules: each seat has a runner on a track of `target` spaces (default 12). Seats throw
//! four sticks in turn; after each throw the thrower chooses `run` (advance by the number of
//! marked sides up, 0 to 4; expected 2) or `walk` (advance 1; only legal when at least one
//! marked side is up, so an agent that always walks sometimes plays an illegal action). The
//! game ends as soon as a runner reaches the target, or after `max_throws` throws; seats
//! are ranked by how far their runner got (equal distances tie). So `run` is the better
//! action, and an agent that always runs beats one that walks whenever it may.

use core::fmt;

use stickdice::config::check_seats;
use stickdice::{
    ActionList, ConfigError, Game, InvalidState, Node, NotationError, Present, Ranking, Sticks,
    Throw, MAX_SEATS,
};

/// The toy race game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Race {
    seats: u8,
    target: u8,
    max_throws: u32,
}

/// A state of the race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct RaceState {
    /// Each seat's distance run.
    pub pos: [u8; MAX_SEATS],
    /// The seat to throw or decide.
    pub turn: u8,
    /// The throw waiting for a decision, if any.
    pub pending: Option<u8>,
    /// Throws made.
    pub throws: u32,
}

/// An action of the race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RaceAction {
    /// Advance by the throw.
    Run,
    /// Advance 1.
    Walk,
}

impl fmt::Display for RaceAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RaceAction::Run => "run",
            RaceAction::Walk => "walk",
        })
    }
}

impl Race {
    fn ended(&self, s: &RaceState) -> bool {
        s.pending.is_none()
            && (s.pos[..self.seats as usize]
                .iter()
                .any(|&p| p >= self.target)
                || s.throws >= self.max_throws)
    }
}

impl Game for Race {
    type State = RaceState;
    type Action = RaceAction;
    const NAME: &'static str = "race";
    const TITLE: &'static str = "Race (a toy game)";
    const MAX_ACTIONS: usize = 2;
    const SEATS: (usize, usize) = (1, MAX_SEATS);

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        check_seats::<Self>(seats)?;
        Ok(Race {
            seats: seats as u8,
            target: 12,
            max_throws: 10_000,
        })
    }

    stickdice::rule_options! {
        target: range(1, 255, 12) => "the square a piece must reach",
        max_throws: max_throws() => stickdice::config::MAX_THROWS_HELP,
    }

    fn seats(&self) -> usize {
        self.seats as usize
    }

    fn initial_state(&self) -> RaceState {
        RaceState {
            pos: [0; MAX_SEATS],
            turn: 0,
            pending: None,
            throws: 0,
        }
    }

    fn node(&self, s: &RaceState) -> Node {
        if self.ended(s) {
            Node::End
        } else if s.pending.is_some() {
            Node::Decide(s.turn as usize)
        } else {
            Node::Throw(s.turn as usize)
        }
    }

    fn sticks(&self) -> Sticks {
        Sticks::FOUR
    }

    fn legal_actions(&self, s: &RaceState, out: &mut ActionList<RaceAction>) {
        out.clear();
        if let Some(t) = s.pending {
            out.push(RaceAction::Run);
            if t > 0 {
                out.push(RaceAction::Walk);
            }
        }
    }

    fn apply_throw_unchecked(&self, s: &mut RaceState, throw: Throw) {
        s.pending = Some(throw.marked());
        s.throws += 1;
    }

    fn apply_action_unchecked(&self, s: &mut RaceState, action: RaceAction) {
        let t = s.turn as usize;
        let step = match action {
            RaceAction::Run => s.pending.unwrap_or(0),
            RaceAction::Walk => 1,
        };
        s.pos[t] = s.pos[t].saturating_add(step).min(self.target);
        s.pending = None;
        s.turn = ((t + 1) % self.seats as usize) as u8;
    }

    fn ranking(&self, s: &RaceState) -> Option<Ranking> {
        self.ended(s).then(|| {
            let keys: Vec<u32> = s.pos[..self.seats as usize]
                .iter()
                .map(|&p| u32::from(self.target - p))
                .collect();
            Ranking::from_keys(&keys)
        })
    }

    fn throws_made(&self, s: &RaceState) -> u32 {
        s.throws
    }

    fn parse_action(&self, text: &str) -> Result<RaceAction, NotationError> {
        match text.trim() {
            "run" => Ok(RaceAction::Run),
            "walk" => Ok(RaceAction::Walk),
            _ => Err(NotationError {
                text: text.into(),
                expected: "run or walk",
            }),
        }
    }

    fn validate(&self, s: &RaceState) -> Result<(), InvalidState> {
        let mut problems = Vec::new();
        if s.turn >= self.seats {
            problems.push(format!("turn {} is not a seat", s.turn));
        }
        InvalidState::check(problems)
    }
}

impl Present for Race {
    fn render(&self, s: &RaceState) -> String {
        (0..self.seats as usize)
            .map(|i| {
                let p = s.pos[i] as usize;
                format!(
                    "P{} {}R{}|",
                    i + 1,
                    ".".repeat(p),
                    ".".repeat(self.target as usize - p)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn describe_throw(&self, _s: &RaceState, throw: Throw) -> String {
        format!("{} marked sides up", throw.marked())
    }
}

/// The default playouts (the rules' step-by-step path).
impl stickdice::Playouts for Race {}

/// Not one of the library's games.
impl stickdice::Listed for Race {}
