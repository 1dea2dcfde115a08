//! A tiny race game for testing agents (not one of the Saharan games).
//!
//! **Dash**: 2 to 4 seats, each with two pieces on a short track `0..=goal` (default goal
//! 5). A seat throws four sticks; the count of marked sides up is the value (0 to 4), and a
//! 4 grants an extra throw. With a value of at least 1 and a piece short of the goal, the
//! seat chooses a piece and moves it `value` steps (stopping at the goal); landing on a
//! square strictly between the start and the goal that holds opponent pieces sends them
//! back to the start. A value of 0, or no piece to move, passes without a decision. The
//! first seat with both pieces on the goal wins; everyone else ties behind it. At the
//! throw cap (option `max_throws`, default 200) every seat ties.
//!
//! It has chance, choices, captures, extra throws (the same seat again), throws that lead
//! straight to throws, transpositions and ties, and is small enough that exact values near
//! the end can be brute-forced in a test. Used by the agents' tests (expectimax).

use core::fmt;

use serde::{Deserialize, Serialize};
use stickdice::config::check_seats;
use stickdice::{
    ActionList, ConfigError, Game, InvalidState, Node, NotationError, Present, Ranking, SeatValues,
    Sticks, Throw,
};

use stickdice_agents::eval::{pairwise_scores, SeatStanding};
use stickdice_agents::Evaluate;

/// The Dash rules: seat count, goal square and throw cap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dash {
    seats: u8,
    goal: u8,
    max_throws: u32,
}

/// A Dash position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DashState {
    /// Each seat's two pieces (squares `0..=goal`); rows past the seat count are 0.
    pub pos: [[u8; 2]; 4],
    /// The seat to throw or decide.
    pub turn: u8,
    /// The value to move at a decision; 0 at a throw.
    pub pending: u8,
    /// Whether the seat to move throws again after its decision.
    pub extra: bool,
    /// Throws made so far.
    pub throws: u32,
    /// The winner, once there is one.
    pub winner: Option<u8>,
    /// Whether the game has ended (a winner or the throw cap).
    pub over: bool,
}

/// Which of the mover's two pieces to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DashMove(pub u8);

impl fmt::Display for DashMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}", self.0)
    }
}

impl Dash {
    /// Dash for `seats` players with `goal` as the last square and a throw cap.
    ///
    /// # Panics
    /// If `seats` is not 2 to 4 or `goal` is 0.
    pub fn new(seats: usize, goal: u8, max_throws: u32) -> Self {
        assert!((2..=4).contains(&seats) && goal >= 1 && max_throws >= 1);
        Dash {
            seats: seats as u8,
            goal,
            max_throws,
        }
    }

    /// The goal square.
    pub fn goal(&self) -> u8 {
        self.goal
    }

    /// The move value of a throw (its count) and whether it grants an extra throw.
    pub fn value(throw: Throw) -> (u8, bool) {
        (throw.marked(), throw.marked() == 4)
    }

    fn end_turn(&self, s: &mut DashState) {
        s.pending = 0;
        if !s.extra {
            s.turn = (s.turn + 1) % self.seats;
        }
        s.extra = false;
        if s.throws >= self.max_throws {
            s.over = true;
        }
    }
}

impl Game for Dash {
    type State = DashState;
    type Action = DashMove;
    const NAME: &'static str = "dash";
    const TITLE: &'static str = "Dash (a test race)";
    const MAX_ACTIONS: usize = 2;
    const SEATS: (usize, usize) = (2, 4);

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        check_seats::<Self>(seats)?;
        Ok(Dash::new(seats, 5, 200))
    }

    stickdice::rule_options! {
        max_throws: range(1, u32::MAX as i64, 200) => stickdice::config::MAX_THROWS_HELP,
        goal: range(1, 50, 5) => "the square the pieces race to",
    }

    fn seats(&self) -> usize {
        self.seats as usize
    }

    fn initial_state(&self) -> DashState {
        DashState {
            pos: [[0; 2]; 4],
            turn: 0,
            pending: 0,
            extra: false,
            throws: 0,
            winner: None,
            over: false,
        }
    }

    fn node(&self, s: &DashState) -> Node {
        if s.over {
            Node::End
        } else if s.pending > 0 {
            Node::Decide(s.turn as usize)
        } else {
            Node::Throw(s.turn as usize)
        }
    }

    fn sticks(&self) -> Sticks {
        Sticks::FOUR
    }

    fn legal_actions(&self, s: &DashState, out: &mut ActionList<DashMove>) {
        out.clear();
        if s.over || s.pending == 0 {
            return;
        }
        for (i, &p) in s.pos[s.turn as usize].iter().enumerate() {
            if p < self.goal {
                out.push(DashMove(i as u8));
            }
        }
    }

    fn apply_throw_unchecked(&self, s: &mut DashState, throw: Throw) {
        s.throws += 1;
        let (v, extra) = Dash::value(throw);
        s.extra = extra;
        let movable = s.pos[s.turn as usize].iter().any(|&p| p < self.goal);
        if v > 0 && movable {
            s.pending = v;
        } else {
            self.end_turn(s);
        }
    }

    fn apply_action_unchecked(&self, s: &mut DashState, a: DashMove) {
        let me = s.turn as usize;
        let to = (s.pos[me][a.0 as usize] + s.pending).min(self.goal);
        s.pos[me][a.0 as usize] = to;
        if to > 0 && to < self.goal {
            for other in 0..self.seats as usize {
                if other != me {
                    for p in s.pos[other].iter_mut() {
                        if *p == to {
                            *p = 0;
                        }
                    }
                }
            }
        }
        if s.pos[me].iter().all(|&p| p == self.goal) {
            s.winner = Some(me as u8);
            s.over = true;
            s.pending = 0;
            return;
        }
        self.end_turn(s);
    }

    fn ranking(&self, s: &DashState) -> Option<Ranking> {
        if !s.over {
            return None;
        }
        let keys: Vec<u32> = (0..self.seats)
            .map(|i| u32::from(s.winner.is_some_and(|w| w != i)))
            .collect();
        Some(Ranking::from_keys(&keys))
    }

    fn throws_made(&self, s: &DashState) -> u32 {
        s.throws
    }

    fn parse_action(&self, text: &str) -> Result<DashMove, NotationError> {
        match text.trim() {
            "p0" => Ok(DashMove(0)),
            "p1" => Ok(DashMove(1)),
            _ => Err(NotationError {
                text: text.into(),
                expected: "p0 or p1",
            }),
        }
    }

    fn validate(&self, s: &DashState) -> Result<(), InvalidState> {
        let mut problems = Vec::new();
        if s.turn >= self.seats {
            problems.push(format!("seat {} to move does not exist", s.turn));
        }
        for (seat, row) in s.pos.iter().enumerate() {
            for &p in row {
                if p > self.goal || (seat >= self.seats as usize && p != 0) {
                    problems.push(format!("seat {seat} has a piece on square {p}"));
                }
            }
        }
        if s.throws > self.max_throws {
            problems.push("more throws than the cap".into());
        }
        InvalidState::check(problems)
    }
}

impl Present for Dash {
    fn render(&self, s: &DashState) -> String {
        format!("{s:?}")
    }

    fn describe_throw(&self, _s: &DashState, throw: Throw) -> String {
        let (v, extra) = Dash::value(throw);
        format!("moves {v}{}", if extra { ", throw again" } else { "" })
    }
}

impl Evaluate for Dash {
    fn evaluate(&self, s: &DashState) -> SeatValues {
        if let Some(scores) = self.scores(s) {
            return scores;
        }
        let mut standing = [SeatStanding::Racing(0.0); stickdice::MAX_SEATS];
        for (seat, st) in standing.iter_mut().enumerate().take(self.seats()) {
            let total: u32 = s.pos[seat].iter().map(|&p| u32::from(p)).sum();
            *st = SeatStanding::Racing(f64::from(total) / (2.0 * f64::from(self.goal)));
        }
        pairwise_scores(&standing[..self.seats()])
    }
}

/// The default playouts (the rules' step-by-step path).
impl stickdice::Playouts for Dash {}

/// Not one of the library's games.
impl stickdice::Listed for Dash {}
