//! Shared helpers for the agents' tests: independent brute-force search, random
//! positions, and duels of two agents with the chance of their margin.
#![allow(dead_code)]

use rand::{RngExt as _, SeedableRng};
use stickdice::play::play_game;
use stickdice::{ActionList, Agent, Game, Node, SeatValues, MAX_SEATS};
use stickdice_agents::{build_str, Evaluate};

/// The exact expected score of seat `me` to the end of the game, when `me` maximises it
/// and every other seat minimises it (two seats: plain expectiminimax). No depth limit.
pub fn brute_two_sided<G: Game>(g: &G, s: &G::State, me: usize) -> f64 {
    match g.node(s) {
        Node::End => g.scores(s).unwrap()[me],
        Node::Throw(_) => {
            let mut total = 0.0;
            for o in g.throw_outcomes() {
                let mut c = *s;
                g.apply_throw(&mut c, o.throw).unwrap();
                total += o.probability * brute_two_sided(g, &c, me);
            }
            total
        }
        Node::Decide(seat) => {
            let mut legal = ActionList::new();
            g.legal_actions(s, &mut legal);
            let vals = legal.iter().map(|&a| {
                let mut c = *s;
                g.apply_action(&mut c, a).unwrap();
                brute_two_sided(g, &c, me)
            });
            if seat == me {
                vals.fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.fold(f64::INFINITY, f64::min)
            }
        }
    }
}

/// Max^n to the end: every seat maximises its own expected score; the first best action
/// in legal order on ties.
pub fn brute_maxn<G: Game>(g: &G, s: &G::State) -> SeatValues {
    match g.node(s) {
        Node::End => g.scores(s).unwrap(),
        Node::Throw(_) => {
            let mut total = [0.0; MAX_SEATS];
            for o in g.throw_outcomes() {
                let mut c = *s;
                g.apply_throw(&mut c, o.throw).unwrap();
                let v = brute_maxn(g, &c);
                for i in 0..MAX_SEATS {
                    total[i] += o.probability * v[i];
                }
            }
            total
        }
        Node::Decide(seat) => {
            let mut legal = ActionList::new();
            g.legal_actions(s, &mut legal);
            let mut best: Option<SeatValues> = None;
            for &a in &legal {
                let mut c = *s;
                g.apply_action(&mut c, a).unwrap();
                let v = brute_maxn(g, &c);
                if best.is_none_or(|b| v[seat] > b[seat]) {
                    best = Some(v);
                }
            }
            best.unwrap()
        }
    }
}

/// Depth-limited two-sided expectimax written from the documented depth rule: a decision
/// uses one unit, a throw uses one unit unless a decision follows it, and the evaluation
/// (two seats: `(e0 + 1 - e1) / 2` for seat 0) stands where the depth runs out.
pub fn brute_depth_two_seats<G: Evaluate>(g: &G, s: &G::State, d: u32) -> f64 {
    let leaf = |st: &G::State| {
        let e = g.evaluate(st);
        (e[0] + (1.0 - e[1])) * 0.5
    };
    match g.node(s) {
        Node::End => leaf(s),
        _ if d == 0 => leaf(s),
        Node::Throw(_) => {
            let mut total = 0.0;
            for o in g.throw_outcomes() {
                let mut c = *s;
                g.apply_throw(&mut c, o.throw).unwrap();
                let cd = if matches!(g.node(&c), Node::Decide(_)) {
                    d
                } else {
                    d - 1
                };
                total += o.probability * brute_depth_two_seats(g, &c, cd);
            }
            total
        }
        Node::Decide(seat) => {
            let mut legal = ActionList::new();
            g.legal_actions(s, &mut legal);
            let vals = legal.iter().map(|&a| {
                let mut c = *s;
                g.apply_action(&mut c, a).unwrap();
                brute_depth_two_seats(g, &c, d - 1)
            });
            if seat == 0 {
                vals.fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.fold(f64::INFINITY, f64::min)
            }
        }
    }
}

/// A decision node with at least `min_actions` legal actions reached by random play from
/// the initial state, after at least `min_throws` throws; `None` if the game ended first.
pub fn random_decision<G: Game>(
    g: &G,
    seed: u64,
    min_throws: u32,
    min_actions: usize,
) -> Option<G::State> {
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let mut s = g.initial_state();
    let mut legal = ActionList::new();
    loop {
        match g.node(&s) {
            Node::End => return None,
            Node::Throw(_) => {
                let t = g.sample_throw(&mut rng);
                g.apply_throw_unchecked(&mut s, t);
            }
            Node::Decide(_) => {
                g.legal_actions(&s, &mut legal);
                if g.throws_made(&s) >= min_throws && legal.len() >= min_actions {
                    return Some(s);
                }
                let a = legal[rng.random_range(0..legal.len())];
                g.apply_action_unchecked(&mut s, a);
            }
        }
    }
}

/// Every position of `games` random games of `game` (game `i` from the seed `i`), the ended
/// ones too.
pub fn random_game_positions<G: Game>(game: &G, games: u64) -> Vec<G::State> {
    let mut legal = ActionList::new();
    let mut states = Vec::new();
    for seed in 0..games {
        let mut rng = stickdice::Rng::seed_from_u64(seed);
        let mut s = game.initial_state();
        loop {
            states.push(s);
            match game.node(&s) {
                Node::Throw(_) => {
                    let t = game.sample_throw(&mut rng);
                    game.apply_throw_unchecked(&mut s, t);
                }
                Node::Decide(_) => {
                    game.legal_actions(&s, &mut legal);
                    let a = legal[rng.random_range(0..legal.len())];
                    game.apply_action_unchecked(&mut s, a);
                }
                Node::End => break,
            }
        }
    }
    states
}

/// Any node (throw or decision) reached by `steps` random steps, if the game lasts.
pub fn random_node<G: Game>(g: &G, seed: u64, steps: usize) -> Option<G::State> {
    let mut rng = stickdice::Rng::seed_from_u64(seed);
    let mut s = g.initial_state();
    let mut legal = ActionList::new();
    for _ in 0..steps {
        match g.node(&s) {
            Node::End => return None,
            Node::Throw(_) => {
                let t = g.sample_throw(&mut rng);
                g.apply_throw_unchecked(&mut s, t);
            }
            Node::Decide(_) => {
                g.legal_actions(&s, &mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                g.apply_action_unchecked(&mut s, a);
            }
        }
    }
    Some(s)
}

/// Plays `pairs` pairs of two-player games (each start with seats swapped) of `a` against
/// `b`, the sticks thrown by a generator seeded `dice + pair`, and returns (a's wins, b's wins,
/// draws).
pub fn duel<G: Evaluate>(game: &G, a: &str, b: &str, pairs: u64, dice: u64) -> (u32, u32, u32) {
    let (mut wa, mut wb, mut draws) = (0, 0, 0);
    for pair in 0..pairs {
        for swap in [false, true] {
            let mut agents: Vec<Box<dyn Agent<G>>> = vec![
                build_str(a, game, 2 * pair).unwrap(),
                build_str(b, game, 2 * pair + 1).unwrap(),
            ];
            if swap {
                agents.swap(0, 1);
            }
            let mut dice = stickdice::Rng::seed_from_u64(dice + pair);
            let mut state = game.initial_state();
            let ranking = play_game(
                game,
                &mut state,
                &mut agents,
                |_, _| game.sample_throw(&mut dice),
                |_, _, _| {},
            )
            .unwrap();
            let a_seat = usize::from(swap);
            match (
                ranking.is_sole_winner(a_seat),
                ranking.is_sole_winner(1 - a_seat),
            ) {
                (true, _) => wa += 1,
                (_, true) => wb += 1,
                _ => draws += 1,
            }
        }
    }
    (wa, wb, draws)
}

/// The chance of at least `k` successes in `n` fair coin flips (the null hypothesis that
/// the two agents are equally strong, counting decisive games).
pub fn tail(n: u32, k: u32) -> f64 {
    let mut total = 0.0;
    for i in k..=n {
        let mut ln = 0.0;
        for j in 0..i {
            ln += ((n - j) as f64).ln() - ((j + 1) as f64).ln();
        }
        total += (ln - n as f64 * std::f64::consts::LN_2).exp();
    }
    total
}
