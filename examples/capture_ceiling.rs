//! How well can any player do against `random` in Sig (El Oued Capture)? An upper bound by
//! clairvoyance, measured on the same games an agent plays.
//!
//! `cargo run --release --example capture_ceiling -- SPEC GAMES SEED [NODES] [HORIZON]`
//! (NODES 2 000 000 and HORIZON 400 by default; `SPEC` `none` runs the clairvoyant search
//! alone; the environment variable THREADS, default 2, sets the worker threads, on which
//! the figures do not depend).
//!
//! Each game is fixed in advance by its seed: the throw made as the game's `t`-th throw is a
//! hash of (seed, t), and `random`'s choice at the decision after throw `t` is the legal
//! action at index ⌊u·n⌋ of its `n`, with `u` another hash of (seed, t). Every throw is a
//! fair throw and every choice of `random` uniform and independent of all before it,
//! whatever the players do, so these games are distributed exactly as real games against
//! `random` (this coupling only fixes the randomness in advance). The agent `SPEC` plays
//! the strong side (seat 0 in even games, seat 1 in odd ones) on them. Then a
//! **clairvoyant** search, which knows every future throw and every choice `random` will
//! make, looks for any sequence of the strong side's actions that wins the same game
//! (depth first, the hand evaluation's best child first, proven-lost states remembered).
//! A fair player's actions are one such sequence, so it can win only where the clairvoyant
//! search finds a win: the share of games the clairvoyant search **proves lost** (every
//! line loses within HORIZON throws, searched within NODES decisions) is a lower bound on
//! any agent's losses against `random`, with a 95% Wilson interval. Games it cannot settle
//! within its budget count as not lost, so the bound stays a bound.
//!
//! It also prints, of the agent's own losses, those lost with every decision forced (one
//! legal action) and those the clairvoyant search proves unavoidable; and per game (with
//! `--games`, to stderr) the length, the pieces left and the outcomes.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use stickdice::games::sig_el_oued_capture::State;
use stickdice::{ActionList, Game, Node, Seat, SigElOuedCapture};
use stickdice_agents::Evaluate as _;

/// SplitMix64: the hash that fixes each throw and each of `random`'s choices.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One game's randomness: its throws and `random`'s choices, fixed by the seed.
#[derive(Clone, Copy)]
struct Fate {
    seed: u64,
}

impl Fate {
    fn throw(&self, game: &SigElOuedCapture, t: u32) -> stickdice::Throw {
        game.sticks()
            .throw_from_bits(mix(mix(self.seed) ^ u64::from(t)))
    }

    /// `random`'s index among `n` legal actions at the decision after throw `t`.
    fn pick(&self, t: u32, n: usize) -> usize {
        let u = mix(mix(self.seed ^ 0x005e_ed0f_7a7e) ^ u64::from(t));
        ((u128::from(u) * n as u128) >> 64) as usize
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    Win,
    Loss,
    /// Not settled: the horizon, the budget or a draw (counted as not lost).
    Open,
}

struct Search<'a> {
    game: &'a SigElOuedCapture,
    fate: Fate,
    me: Seat,
    lost: HashSet<State>,
    nodes: u64,
    /// Decisions searched that offered more than one action.
    branching: u64,
    budget: u64,
    horizon: u32,
}

impl Search<'_> {
    /// Plays the throws and `random`'s choices up to the strong side's next decision.
    fn advance(
        &self,
        s: &mut State,
        legal: &mut ActionList<stickdice::games::sig_el_oued_capture::Action>,
    ) -> Option<Outcome> {
        loop {
            match self.game.node(s) {
                Node::End => {
                    let scores = self.game.scores(s).expect("ended");
                    return Some(if scores[self.me] == 1.0 {
                        Outcome::Win
                    } else if scores[self.me] == 0.0 {
                        Outcome::Loss
                    } else {
                        Outcome::Open
                    });
                }
                Node::Throw(_) => {
                    if s.throws() >= self.horizon {
                        return Some(Outcome::Open);
                    }
                    let t = self.fate.throw(self.game, s.throws());
                    self.game.apply_throw_unchecked(s, t);
                }
                Node::Decide(seat) if seat == self.me => return None,
                Node::Decide(_) => {
                    self.game.legal_actions(s, legal);
                    let a = legal[self.fate.pick(s.throws(), legal.len())];
                    self.game.apply_action_unchecked(s, a);
                }
            }
        }
    }

    fn solve(&mut self, mut s: State) -> Outcome {
        let mut legal = ActionList::new();
        if let Some(o) = self.advance(&mut s, &mut legal) {
            return o;
        }
        if self.lost.contains(&s) {
            return Outcome::Loss;
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Outcome::Open;
        }
        self.game.legal_actions(&s, &mut legal);
        if legal.len() > 1 {
            self.branching += 1;
        }
        let mut children: Vec<(f64, State)> = legal
            .iter()
            .map(|&a| {
                let mut c = s;
                self.game.apply_action_unchecked(&mut c, a);
                (self.game.evaluate(&c)[self.me], c)
            })
            .collect();
        children.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut open = false;
        for (_, c) in children {
            match self.solve(c) {
                Outcome::Win => return Outcome::Win,
                Outcome::Open => open = true,
                Outcome::Loss => {}
            }
        }
        if open {
            Outcome::Open
        } else {
            self.lost.insert(s);
            Outcome::Loss
        }
    }
}

/// One game: the agent's result and facts, and the clairvoyant search's verdict.
struct Record {
    index: u64,
    me: Seat,
    agent_score: f64,
    throws: u32,
    pieces: [u8; 2],
    forced_only: bool,
    clairvoyant: Outcome,
    nodes: u64,
    branching: u64,
}

fn play(
    game: &SigElOuedCapture,
    spec: &str,
    fate: Fate,
    me: Seat,
    agent_seed: u64,
) -> Result<(f64, u32, [u8; 2], bool), String> {
    let mut agent =
        stickdice_agents::build_str(spec, game, agent_seed).map_err(|e| e.to_string())?;
    agent.new_game(game, me);
    let mut s = game.initial_state();
    let mut legal = ActionList::new();
    let mut forced_only = true;
    loop {
        match game.node(&s) {
            Node::End => break,
            Node::Throw(_) => {
                let t = fate.throw(game, s.throws());
                agent.observe_throw(game, &s, t);
                game.apply_throw_unchecked(&mut s, t);
            }
            Node::Decide(seat) => {
                game.legal_actions(&s, &mut legal);
                let a = if seat == me {
                    if legal.len() > 1 {
                        forced_only = false;
                    }
                    agent.choose(game, &s).map_err(|e| e.to_string())?
                } else {
                    legal[fate.pick(s.throws(), legal.len())]
                };
                agent.observe_action(game, &s, a);
                game.apply_action_unchecked(&mut s, a);
            }
        }
    }
    let score = game.scores(&s).expect("ended")[me];
    Ok((score, s.throws(), [s.count(0), s.count(1)], forced_only))
}

/// 95% Wilson interval of `k` in `n`.
fn wilson(k: usize, n: usize) -> (f64, f64) {
    let (k, n, z) = (k as f64, n as f64, 1.959_964);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        return Err("usage: capture_ceiling SPEC GAMES SEED [NODES] [HORIZON] (SPEC `none`: the clairvoyant search alone)".into());
    }
    let spec = args[0].clone();
    let games: u64 = args[1].parse()?;
    let seed: u64 = args[2].parse()?;
    let budget: u64 = args.get(3).map_or(Ok(2_000_000), |a| a.parse())?;
    let horizon: u32 = args.get(4).map_or(Ok(400), |a| a.parse())?;
    let threads: usize = std::env::var("THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(2);
    let game = SigElOuedCapture::with_seats(2)?;
    let next = AtomicUsize::new(0);
    let records = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                if i >= games {
                    break;
                }
                let fate = Fate { seed: mix(seed.wrapping_mul(1_000_003) ^ i) };
                let me = (i % 2) as Seat;
                let (agent_score, throws, pieces, forced_only) = if spec == "none" {
                    (f64::NAN, 0, [0, 0], false)
                } else {
                    play(&game, &spec, fate, me, mix(fate.seed ^ 0xa9e7)).expect("the agent plays")
                };
                let mut search = Search {
                    game: &game,
                    fate,
                    me,
                    lost: HashSet::new(),
                    nodes: 0,
                    branching: 0,
                    budget,
                    horizon,
                };
                let clairvoyant = search.solve(game.initial_state());
                let r = Record {
                    index: i,
                    me,
                    agent_score,
                    throws,
                    pieces,
                    forced_only,
                    clairvoyant,
                    nodes: search.nodes,
                    branching: search.branching,
                };
                eprintln!(
                    "game {} seat {} agent {} throws {} pieces {:?} forced_only {} clairvoyant {:?} nodes {} branching {}",
                    r.index, r.me, r.agent_score, r.throws, r.pieces, r.forced_only, r.clairvoyant, r.nodes, r.branching
                );
                records.lock().unwrap().push(r);
            });
        }
    });
    let records = records.into_inner().unwrap();
    let n = records.len();
    let count = |f: &dyn Fn(&Record) -> bool| records.iter().filter(|r| f(r)).count();
    let lost = count(&|r| r.clairvoyant == Outcome::Loss);
    let open = count(&|r| r.clairvoyant == Outcome::Open);
    let (lo, hi) = wilson(lost, n);
    println!("Sig (El Oued Capture) against random: {n} games, seed {seed}, clairvoyant budget {budget} decisions, horizon {horizon} throws");
    println!(
        "clairvoyant: won {}, proved lost {lost} ({:.4} [{lo:.4}, {hi:.4}]), unsettled {open}; so any agent scores at most {:.4} (95% upper end {:.4})",
        n - lost - open,
        lost as f64 / n as f64,
        1.0 - lost as f64 / n as f64,
        1.0 - lo
    );
    for seat in 0..2 {
        let games = count(&|r| r.me == seat);
        let lost = count(&|r| r.me == seat && r.clairvoyant == Outcome::Loss);
        let (lo, hi) = wilson(lost, games);
        println!(
            "  as seat {seat}: proved lost {lost} of {games} ({:.4} [{lo:.4}, {hi:.4}])",
            lost as f64 / games as f64
        );
    }
    let forced = count(&|r| r.clairvoyant == Outcome::Loss && r.branching == 0);
    let one = count(&|r| r.clairvoyant == Outcome::Loss && r.branching == 1);
    println!(
        "proved lost with no choice at all for the strong side: {forced}; with one decision of two or more actions: {one}"
    );
    let mut sizes: Vec<u64> = records
        .iter()
        .filter(|r| r.clairvoyant == Outcome::Loss)
        .map(|r| r.nodes)
        .collect();
    sizes.sort_unstable();
    if !sizes.is_empty() {
        println!(
            "decisions searched to prove a loss: median {}, largest {}",
            sizes[sizes.len() / 2],
            sizes[sizes.len() - 1]
        );
    }
    if spec != "none" {
        let score: f64 = records.iter().map(|r| r.agent_score).sum::<f64>() / n as f64;
        let losses = count(&|r| r.agent_score == 0.0);
        let draws = count(&|r| r.agent_score == 0.5);
        let (alo, ahi) = wilson(n - losses - draws, n);
        println!(
            "{spec}: score {score:.4}, won {} [{alo:.4}, {ahi:.4}], lost {losses}, drawn {draws}",
            n - losses - draws
        );
        println!(
            "of its losses: all its decisions forced {}; proved lost by the clairvoyant search {}; a clairvoyant win existed {}",
            count(&|r| r.agent_score == 0.0 && r.forced_only),
            count(&|r| r.agent_score == 0.0 && r.clairvoyant == Outcome::Loss),
            count(&|r| r.agent_score == 0.0 && r.clairvoyant == Outcome::Win),
        );
        let mut lengths: Vec<u32> = records
            .iter()
            .filter(|r| r.agent_score == 0.0)
            .map(|r| r.throws)
            .collect();
        lengths.sort_unstable();
        if !lengths.is_empty() {
            println!(
                "its losses last {} .. {} throws (median {}); enemy pieces left at its losses: {:?}",
                lengths[0],
                lengths[lengths.len() - 1],
                lengths[lengths.len() / 2],
                {
                    let mut left = [0usize; 7];
                    for r in records.iter().filter(|r| r.agent_score == 0.0) {
                        left[r.pieces[r.me ^ 1] as usize] += 1;
                    }
                    left
                }
            );
        }
    }
    Ok(())
}
