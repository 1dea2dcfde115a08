//! A tiny race with chance and choices, for the MCTS and ISMCTS unit tests (test builds
//! only). Small enough that exact values can be brute-forced independently.
//!
//! Rules: 2–4 seats, each with two tokens on a shared track of squares `0..=LEN` (all start
//! on 0, `LEN` is home). A turn is a throw of four sticks; the value is the number of marked
//! sides up (0–4). A 0 moves nothing and passes the turn. Otherwise the seat chooses a token
//! to move forward by exactly the value; it may not overshoot home, and a token already
//! home cannot move. If no token can move, the only action is a pass. Landing on an
//! opponent's token on squares `1..LEN` sends it back to 0. A 4 grants an extra throw. A
//! seat with both tokens home wins at once. After `cap` throws the game ends. The ranking
//! orders the seats by the distance they still have to run (less is better, equal ties).
//!
//! The state is a byte array (serde-ready without derives): `[token positions for seats
//! 0..4 (2 each), seat to move, phase, pending value, throws made]`.

use stickdice::{
    ActionList, ConfigError, Game, InvalidState, Node, NotationError, Present, Ranking, SeatValues,
    Sticks, Throw,
};

// `crate::Evaluate`, not `stickdice_agents::Evaluate`: the agents' own unit tests compile
// this file into the agents crate (see the crate docs), where it must implement the
// agents' trait of that build.
use crate::Evaluate;

/// Track length: home is square `LEN`.
pub const LEN: u8 = 6;
const TO_MOVE: usize = 8;
const PHASE: usize = 9;
const PENDING: usize = 10;
const THROWS: usize = 11;
const PHASE_THROW: u8 = 0;
const PHASE_DECIDE: u8 = 1;
const PHASE_END: u8 = 2;

/// Action: move token 0, move token 1, or pass.
pub const PASS: u8 = 2;

/// The race game.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    /// Seats (2–4).
    pub seats: usize,
    /// The throw cap.
    pub cap: u8,
}

/// A state.
pub type RaceState = [u8; 12];

impl Race {
    /// `seats` seats with a throw cap of `cap`.
    pub fn new(seats: usize, cap: u8) -> Self {
        assert!((2..=4).contains(&seats));
        Race { seats, cap }
    }

    /// A state with the given token positions (seat-major), `to_move` to throw, and
    /// `throws` throws already made.
    pub fn position(&self, tokens: &[u8], to_move: usize, throws: u8) -> RaceState {
        let mut s = [0u8; 12];
        s[..tokens.len()].copy_from_slice(tokens);
        s[TO_MOVE] = to_move as u8;
        s[PHASE] = PHASE_THROW;
        s[THROWS] = throws;
        s
    }

    /// The distance each seat still has to run.
    pub fn remaining(&self, s: &RaceState) -> [u32; 4] {
        let mut out = [0; 4];
        for (seat, r) in out.iter_mut().enumerate().take(self.seats) {
            *r = 2 * LEN as u32 - s[2 * seat] as u32 - s[2 * seat + 1] as u32;
        }
        out
    }

    fn end_turn(&self, s: &mut RaceState, extra: bool) {
        if s[THROWS] >= self.cap {
            s[PHASE] = PHASE_END;
            return;
        }
        if !extra {
            s[TO_MOVE] = ((s[TO_MOVE] as usize + 1) % self.seats) as u8;
        }
        s[PHASE] = PHASE_THROW;
    }
}

impl Game for Race {
    type State = RaceState;
    type Action = u8;
    const NAME: &'static str = "race";
    const TITLE: &'static str = "Race (test game)";
    const MAX_ACTIONS: usize = 2;
    const SEATS: (usize, usize) = (2, 4);

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        Ok(Race::new(seats, 60))
    }
    stickdice::rule_options! {}
    fn seats(&self) -> usize {
        self.seats
    }
    fn initial_state(&self) -> RaceState {
        self.position(&[], 0, 0)
    }
    fn node(&self, s: &RaceState) -> Node {
        let seat = s[TO_MOVE] as usize;
        match s[PHASE] {
            PHASE_THROW => Node::Throw(seat),
            PHASE_DECIDE => Node::Decide(seat),
            _ => Node::End,
        }
    }
    fn sticks(&self) -> Sticks {
        Sticks::FOUR
    }
    fn legal_actions(&self, s: &RaceState, out: &mut ActionList<u8>) {
        out.clear();
        if s[PHASE] != PHASE_DECIDE {
            return;
        }
        let seat = s[TO_MOVE] as usize;
        let v = s[PENDING];
        for t in 0..2u8 {
            let p = s[2 * seat + t as usize];
            if p < LEN && p + v <= LEN {
                out.push(t);
            }
        }
        if out.is_empty() {
            out.push(PASS);
        }
    }
    fn apply_throw_unchecked(&self, s: &mut RaceState, t: Throw) {
        s[THROWS] += 1;
        let v = t.marked();
        if v == 0 {
            self.end_turn(s, false);
        } else {
            s[PENDING] = v;
            s[PHASE] = PHASE_DECIDE;
        }
    }
    fn apply_action_unchecked(&self, s: &mut RaceState, a: u8) {
        let seat = s[TO_MOVE] as usize;
        let v = s[PENDING];
        if a != PASS {
            let i = 2 * seat + a as usize;
            let to = s[i] + v;
            s[i] = to;
            if to < LEN {
                for other in (0..self.seats).filter(|&o| o != seat) {
                    for j in [2 * other, 2 * other + 1] {
                        if s[j] == to {
                            s[j] = 0;
                        }
                    }
                }
            }
            if s[2 * seat] == LEN && s[2 * seat + 1] == LEN {
                s[PHASE] = PHASE_END;
                s[PENDING] = 0;
                return;
            }
        }
        s[PENDING] = 0;
        self.end_turn(s, v == 4);
    }
    fn ranking(&self, s: &RaceState) -> Option<Ranking> {
        (s[PHASE] == PHASE_END).then(|| Ranking::from_keys(&self.remaining(s)[..self.seats]))
    }
    fn throws_made(&self, s: &RaceState) -> u32 {
        s[THROWS] as u32
    }
    fn parse_action(&self, text: &str) -> Result<u8, NotationError> {
        text.parse::<u8>()
            .ok()
            .filter(|&a| a <= PASS)
            .ok_or_else(|| NotationError {
                text: text.into(),
                expected: "0, 1 or 2",
            })
    }
    fn validate(&self, _s: &RaceState) -> Result<(), InvalidState> {
        Ok(())
    }
}

impl Present for Race {
    fn render(&self, s: &RaceState) -> String {
        format!("{s:?}")
    }
    fn describe_throw(&self, _s: &RaceState, t: Throw) -> String {
        t.to_string()
    }
}

impl Evaluate for Race {
    /// The ranking the seats would have if the game ended now.
    fn evaluate(&self, s: &RaceState) -> SeatValues {
        Ranking::from_keys(&self.remaining(s)[..self.seats]).scores()
    }
}

/// Exact max^n values by brute force (each seat maximises its own expected score; ties
/// between actions go to the first listed). Independent of the searches under test.
pub fn exact_values(game: &Race, s: &RaceState) -> SeatValues {
    match game.node(s) {
        Node::End => game.scores(s).unwrap(),
        Node::Throw(_) => {
            let mut v = [0.0; stickdice::MAX_SEATS];
            for o in game.throw_outcomes() {
                let mut next = *s;
                game.apply_throw_unchecked(&mut next, o.throw);
                let child = exact_values(game, &next);
                for (acc, c) in v.iter_mut().zip(child) {
                    *acc += o.probability * c;
                }
            }
            v
        }
        Node::Decide(seat) => {
            let mut legal = ActionList::new();
            game.legal_actions(s, &mut legal);
            let mut best: Option<SeatValues> = None;
            for &a in &legal {
                let mut next = *s;
                game.apply_action_unchecked(&mut next, a);
                let child = exact_values(game, &next);
                if best.is_none_or(|b| child[seat] > b[seat]) {
                    best = Some(child);
                }
            }
            best.unwrap()
        }
    }
}

/// `count` random decision states with at least two legal actions, reached by random
/// play from the start with a generator seeded with `seed`.
pub fn decision_positions(game: &Race, count: usize, seed: u64) -> Vec<RaceState> {
    use rand::{RngExt as _, SeedableRng};
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut legal = ActionList::new();
    while out.len() < count {
        let mut s = game.initial_state();
        let stop = rng.random_range(0..40);
        let mut steps = 0;
        loop {
            match game.node(&s) {
                Node::End => break,
                Node::Throw(_) => {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw_unchecked(&mut s, t);
                }
                Node::Decide(_) => {
                    game.legal_actions(&s, &mut legal);
                    if steps >= stop && legal.len() >= 2 {
                        out.push(s);
                        break;
                    }
                    let a = legal[rng.random_range(0..legal.len())];
                    game.apply_action_unchecked(&mut s, a);
                    steps += 1;
                }
            }
        }
    }
    out
}

/// Plays one game between `agents` with throws from a generator seeded with `seed`, and
/// returns every action chosen, in order.
pub fn play_actions(
    game: &Race,
    agents: &mut [Box<dyn stickdice::Agent<Race>>],
    seed: u64,
) -> Vec<u8> {
    use rand::SeedableRng;
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let mut state = game.initial_state();
    let mut actions = Vec::new();
    stickdice::play::play_game(
        game,
        &mut state,
        agents,
        stickdice::play::rng_throws(game.sticks(), &mut rng),
        |e, _, _| {
            if let stickdice::play::Event::Action(_, a) = e {
                actions.push(a);
            }
        },
    )
    .expect("agents play legally");
    actions
}

/// The default playouts (the rules' step-by-step path).
impl stickdice::Playouts for Race {}

/// Not one of the library's games.
impl stickdice::Listed for Race {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_race_follows_its_rules() {
        let g = Race::new(2, 50);
        // Seat 0 throws a 3 from the start: either token may move.
        let mut s = g.initial_state();
        g.apply_throw(&mut s, Throw::new(3)).unwrap();
        assert_eq!(g.node(&s), Node::Decide(0));
        let mut l = ActionList::new();
        g.legal_actions(&s, &mut l);
        assert_eq!(&l[..], &[0, 1]);
        g.apply_action(&mut s, 0).unwrap();
        assert_eq!(s[0], 3);
        assert_eq!(g.node(&s), Node::Throw(1));
        // Seat 1 throws a 3 and captures the token on 3.
        g.apply_throw(&mut s, Throw::new(3)).unwrap();
        g.apply_action(&mut s, 1).unwrap();
        assert_eq!((s[0], s[3]), (0, 3));
        // A 4 keeps the turn.
        g.apply_throw(&mut s, Throw::new(4)).unwrap();
        g.apply_action(&mut s, 0).unwrap();
        assert_eq!(g.node(&s), Node::Throw(0));
        // Token 0 on 4 cannot overshoot home with another 4; token 1 joins it.
        g.apply_throw(&mut s, Throw::new(4)).unwrap();
        g.legal_actions(&s, &mut l);
        assert_eq!(&l[..], &[1]);
        g.apply_action(&mut s, 1).unwrap();
        assert_eq!((s[0], s[1]), (4, 4));
        assert_eq!(g.node(&s), Node::Throw(0));
        // A 0 passes at once.
        g.apply_throw(&mut s, Throw::new(0)).unwrap();
        assert_eq!(g.node(&s), Node::Throw(1));
        // No overshooting: from 4 and 6 (home), a 3 can only pass.
        let mut s = g.position(&[0, 0, 4, 6], 1, 0);
        g.apply_throw(&mut s, Throw::new(3)).unwrap();
        g.legal_actions(&s, &mut l);
        assert_eq!(&l[..], &[PASS]);
        // Exact throw home wins.
        let mut s = g.position(&[0, 0, 4, 6], 1, 0);
        g.apply_throw(&mut s, Throw::new(2)).unwrap();
        g.apply_action(&mut s, 0).unwrap();
        assert_eq!(g.node(&s), Node::End);
        assert_eq!(g.scores(&s).unwrap()[..2], [0.0, 1.0]);
    }
}
