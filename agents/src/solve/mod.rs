//! Exact analysis: the race games solved by value iteration, and the Issiren endgame
//! tablebase ([`tablebase`]).
//!
//! # The solver
//!
//! [`solve`] enumerates every state reachable from the initial state (breadth-first, with an
//! index map built once), then runs value iteration over that graph until no value moves by
//! more than the tolerance (default `1e-12`). The result, a [`Solution`], gives from **any
//! reachable position**:
//!
//! * the exact probability of each *outcome class* ([`OutcomeClass`]): a final ranking,
//!   and in Sig wa Duqqan also which seats reached the Ka'aba (success) and which were buried;
//! * each seat's chance of ranking first and its expected score;
//! * the expected number of throws to the end;
//! * the solved action at a decision node.
//!
//! **The throw cap is lifted** for solving (`max_throws` = `u32::MAX`, and the throw count
//! is left out of the state): the values are those of the game without a cap. With the
//! default cap of 10 000 throws the difference is far below the tolerance (the chance that a
//! two-player race lasts that long is astronomically small); `stickdice analyze` reports
//! how often the cap is reached in simulation.
//!
//! **Decisions** (the leftover choice at Mecca in Sig (El Oued)) are solved with each seat
//! maximising its own chance of ranking first (max^n over that objective; ties keep the
//! action listed first). In a two-player game, where the cap is lifted and no ties occur,
//! this is the zero-sum optimum.
//!
//! **Convergence.** Sweeps are Gauss–Seidel (each sweep reuses values updated earlier in the
//! same sweep), in reverse discovery order, with a throw that leaves the state unchanged
//! solved in closed form. Values start at 0, so in a game without decisions every
//! probability rises monotonically to its limit and the *missing mass*
//! `1 − Σ P(outcome)` ([`SolveStats::missing_mass`]) bounds the error of every probability.
//!
//! **Error bounds.** A small change per sweep does not by itself bound the error (slowly
//! mixing cycles made the expected throws come out ~1e-9 low). So after the tolerance is
//! reached, each cyclic component is bounded: for its values `x` (with its decisions fixed
//! to the solved policy) the exact values are `x + (I − Q)⁻¹ (r + δ)`, where `r` is the
//! change one more update would make, `δ` the error of the values it leaves to, and `Q`
//! the transitions inside the component. `‖(I − Q)⁻¹‖∞`, the most expected steps spent in
//! the component, is bounded by power iteration (see `steps_bound`), so each value's error
//! is at most `N·‖r‖∞` plus the largest error among the components it leaves to; sweeps go
//! on until that stops falling (rounding). [`SolveStats::error_bound`] (probabilities) and
//! [`SolveStats::throws_error_bound`] (expected throws) are the largest such bounds over
//! all states; they leave out floating-point rounding (about 1e-16 relative per operation).
//! The two-player races come out within 1e-12 (relative for throws); a test checks Sig wa
//! Duqqan against an independent forward computation.
//!
//! # What fits
//!
//! [`Exact::solver_support`] states which games and seat counts the solver accepts; see the
//! book's chapter `docs/performance/exact.md` for measured sizes and times. Sig wa Duqqan
//! (Houmt Taourit) with 2 players has 95 632 states (7.5 s, 18 MB). Siryu (Race) is refused:
//! with 2 players its positions alone number 2 × 33 669² = 2 267 203 122 (one seat's father,
//! angel and mother have 37 × 26 × 35 = 33 670 configurations with their sir counts, one of
//! them finished, and every pair of unfinished ones is reachable), each again for every count
//! of throws owed (unbounded) and every pending throw: over 9 GB for one 4-byte value per
//! position and owed count, and sending back ties them into cycles that take value iteration
//! many sweeps (some 10¹³ updates). Seat symmetry would halve it; the seats interact through
//! sending back, so no independence splits it. Issiren is not solvable as
//! a whole (its state space is astronomically large); its endgames are in the
//! [`tablebase`], and [`solve_from`] solves any small Issiren position exactly.

pub mod games;
pub mod tablebase;

use core::fmt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use stickdice::{ActionList, Game, Node, Ranking, Seat, SeatValues, MAX_SEATS};

use crate::best::FirstBest;

/// The default tolerance of value iteration: the largest change of any value in the last
/// sweep.
pub const TOLERANCE: f64 = 1e-12;

/// The default most states [`solve`] will enumerate before giving up (about 4 GB of
/// working memory in the largest case).
pub const MAX_STATES: usize = 40_000_000;

/// A game the exact solver and the searching agents' exact values know how to handle.
///
/// Implemented for every game of the list: by the games the solver handles in [`games`]
/// (and the described races, `described_solve.rs`), and by a refusal for the others.
pub trait Exact: Game {
    /// Whether the solver handles the game at all (the `exact` part of what a game offers);
    /// false for the refusal the games without it get, and for a described game that is not
    /// a race.
    fn solved() -> bool {
        true
    }

    /// Whether [`Exact::exact_values`] has a tablebase to offer (the `tablebase` part).
    const TABLEBASE: bool = false;

    /// Whether [`solve`] accepts this game with its seat count and rule options.
    ///
    /// # Errors
    /// [`SolveError::Unsupported`] naming what can be solved instead.
    fn solver_support(&self) -> Result<(), SolveError>;

    /// Clears the throw count of a state: with the cap lifted it changes nothing that
    /// happens next, and leaving it out keeps the state space finite.
    fn strip_throw_count(state: &mut Self::State);

    /// Whether `seat` succeeded, once the game is over, in games that tell success from
    /// ranking (Sig wa Duqqan: reached the Ka'aba, rather than buried). `None` otherwise.
    fn success(&self, _state: &Self::State, _seat: Seat) -> Option<bool> {
        None
    }

    /// Exact values for searching agents, named by an agent's `tablebase` parameter
    /// (`build` or a file path for Issiren).
    ///
    /// # Errors
    /// [`ExactValuesError`] when the game has no tablebase or the source cannot be loaded.
    fn exact_values(source: &str) -> Result<Arc<dyn ExactValues<Self>>, ExactValuesError> {
        let _ = source;
        Err(ExactValuesError::NoTablebase { game: Self::NAME })
    }
}

/// Each game of the list with whether the solver handles it and whether it has a
/// tablebase.
fn exact_table() -> Vec<(stickdice::GameKind, bool, bool)> {
    macro_rules! each {
        ([] $($variant:ident : $ty:path,)*) => {
            vec![$((stickdice::GameKind::$variant, <$ty as Exact>::solved(), <$ty as Exact>::TABLEBASE)),*]
        };
    }
    stickdice::for_each_game!(each)
}

/// The games of the list the exact solver handles (the `exact` part of what a game
/// offers), in the list's order; the others are refused, naming the game.
pub fn solvers() -> Vec<stickdice::GameKind> {
    exact_table()
        .into_iter()
        .filter(|e| e.1)
        .map(|e| e.0)
        .collect()
}

/// The games of the list with an endgame tablebase (the `tablebase` part of what a game
/// offers), in the list's order.
pub fn tablebases() -> Vec<stickdice::GameKind> {
    exact_table()
        .into_iter()
        .filter(|e| e.2)
        .map(|e| e.0)
        .collect()
}

/// A source of exact values for some positions (a solution or a tablebase), as searching
/// agents use it.
pub trait ExactValues<G: Game>: Send + Sync {
    /// Each seat's expected score under best play (1 win, 0 loss, as
    /// [`Ranking::score`]), if the position is covered; entries past the seat count are 0.
    fn scores(&self, game: &G, state: &G::State) -> Option<SeatValues>;
}

/// Why a game could not be solved.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SolveError {
    /// The game, seat count or options are beyond the solver.
    Unsupported(String),
    /// More states are reachable than allowed.
    TooManyStates {
        /// The limit.
        limit: usize,
    },
    /// Value iteration did not reach the tolerance within the sweep limit.
    NoConvergence {
        /// Sweeps made.
        sweeps: usize,
        /// The last residual.
        residual: f64,
    },
    /// The start position is not a valid state of the game.
    InvalidStart(stickdice::InvalidState),
    /// The start position is an end of the game: there is nothing to solve.
    GameOver,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Unsupported(why) => f.write_str(why),
            SolveError::TooManyStates { limit } => write!(
                f,
                "more than {limit} states are reachable: too many to solve exactly"
            ),
            SolveError::NoConvergence { sweeps, residual } => write!(
                f,
                "value iteration did not converge: residual {residual:e} after {sweeps} sweeps"
            ),
            SolveError::InvalidStart(why) => write!(f, "cannot solve from this position: {why}"),
            SolveError::GameOver => {
                f.write_str("cannot solve from this position: the game is already over")
            }
        }
    }
}

impl std::error::Error for SolveError {}

/// One way a game can end: the final ranking, and which seats succeeded where the game
/// tells success from ranking.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OutcomeClass {
    ranking: Ranking,
    /// Bit `s` set: seat `s` succeeded. `None` where the game has no such notion.
    success: Option<u8>,
}

impl OutcomeClass {
    /// The final ranking.
    pub fn ranking(&self) -> Ranking {
        self.ranking
    }

    /// Whether `seat` succeeded (Sig wa Duqqan: reached the Ka'aba), where the game tells.
    pub fn success(&self, seat: Seat) -> Option<bool> {
        self.success.map(|m| m & (1 << seat) != 0)
    }

    fn sort_key(&self) -> ([u8; MAX_SEATS], u8) {
        let mut places = [0u8; MAX_SEATS];
        places[..self.ranking.seats()].copy_from_slice(self.ranking.places());
        // Successes first among equal rankings.
        (places, !self.success.unwrap_or(0))
    }
}

impl fmt::Debug for OutcomeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for OutcomeClass {
    /// `P1 > P2` or, with success, `P1 > P2 (P1 arrived, P2 buried)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.ranking)?;
        if let Some(mask) = self.success {
            let parts: Vec<String> = (0..self.ranking.seats())
                .map(|s| {
                    let what = if mask & (1 << s) != 0 {
                        "arrived"
                    } else {
                        "buried"
                    };
                    format!("P{} {what}", s + 1)
                })
                .collect();
            write!(f, " ({})", parts.join(", "))?;
        }
        Ok(())
    }
}

/// Tuning of [`solve_with`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveOptions {
    /// Stop when no value changed by more than this in a sweep (expected throws: relative
    /// change).
    pub tolerance: f64,
    /// Give up beyond this many reachable non-terminal states.
    pub max_states: usize,
    /// Give up after this many sweeps.
    pub max_sweeps: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            tolerance: TOLERANCE,
            max_states: MAX_STATES,
            max_sweeps: 1_000_000,
        }
    }
}

/// What solving cost and how well it converged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveStats {
    /// Reachable non-terminal states (chance and decision nodes).
    pub states: usize,
    /// Decision nodes among them.
    pub decision_nodes: usize,
    /// Edges (throw outcomes and actions) between them.
    pub edges: usize,
    /// Outcome classes reachable.
    pub outcome_classes: usize,
    /// Strongly connected components of the state graph (each solved on its own, sinks
    /// first).
    pub components: usize,
    /// States in the largest component.
    pub largest_component: usize,
    /// Sweeps of value iteration over the component that needed most.
    pub sweeps: usize,
    /// The largest change of a value in the last sweep.
    pub residual: f64,
    /// The largest `1 − Σ P(outcome)` over all states after the last sweep.
    pub missing_mass: f64,
    /// A bound on the error of every probability (absolute), proven as the module docs
    /// explain (up to floating-point rounding); the values are those of the solved policy.
    pub error_bound: f64,
    /// A bound on the error of every expected number of throws (absolute, in throws).
    pub throws_error_bound: f64,
    /// Time to enumerate the states.
    pub enumerate_time: Duration,
    /// Time of value iteration.
    pub iterate_time: Duration,
    /// Bytes held by the solution (states, index, graph and values), approximately.
    pub memory_bytes: usize,
}

/// Marks an edge to a terminal state; the low bits are the outcome class.
const TERMINAL: u32 = 1 << 31;
/// Marks a decision node in `kinds`; the low bits are the seat.
const DECIDE: u8 = 0x80;

type StateMap<S> = HashMap<S, u32, ahash::RandomState>;

fn new_map<S>() -> StateMap<S> {
    HashMap::with_hasher(ahash::RandomState::with_seeds(
        0x5eed_0001,
        0x5eed_0002,
        0x5eed_0003,
        0x5eed_0004,
    ))
}

/// A game solved exactly: every reachable state with the probability of each outcome
/// class, the expected throws to the end and the solved action.
pub struct Solution<G: Exact> {
    game: G,
    states: Vec<G::State>,
    index: StateMap<G::State>,
    kinds: Vec<u8>,
    offsets: Vec<u32>,
    edges: Vec<u32>,
    probabilities: Vec<f64>,
    classes: Vec<OutcomeClass>,
    /// For each seat, the classes in which it ranks first.
    first: Vec<Vec<u32>>,
    values: Vec<f64>,
    throws: Vec<f64>,
    policy: Vec<u8>,
    stats: SolveStats,
}

impl<G: Exact> fmt::Debug for Solution<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solution")
            .field("game", &self.game)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

/// Solves `game` from its initial state with the default options.
///
/// ```
/// use stickdice::{Game, SigWaDuqqan};
/// let game = SigWaDuqqan::with_seats(2).unwrap();
/// let solution = stickdice_agents::solve::solve(&game).unwrap();
/// let start = game.initial_state();
/// let p1 = solution.first_probability(&start, 0).unwrap();
/// let p2 = solution.first_probability(&start, 1).unwrap();
/// assert!(p1 > 0.5 && p1 < 0.52, "{p1}"); // the first seat's small edge
/// assert!((p1 + p2 - 1.0).abs() < 1e-9);
/// println!("expected throws: {:.2}", solution.expected_throws(&start).unwrap());
/// // Issiren as a whole is far too large; its endgames are in the tablebase.
/// assert!(stickdice_agents::solve::solve(&stickdice::Issiren::with_seats(2).unwrap()).is_err());
/// ```
///
/// # Errors
/// [`SolveError`] when the game is not supported, too large, or does not converge.
pub fn solve<G: Exact>(game: &G) -> Result<Solution<G>, SolveError> {
    game.solver_support()?;
    solve_with(game, &game.initial_state(), SolveOptions::default())
}

/// Solves every position reachable from `start` (any valid state of any game, Issiren
/// included, as long as the reachable set is small enough), with the default options.
///
/// # Errors
/// [`SolveError`] when `start` is invalid, too many states are reachable, or value
/// iteration does not converge.
pub fn solve_from<G: Exact>(game: &G, start: &G::State) -> Result<Solution<G>, SolveError> {
    solve_with(game, start, SolveOptions::default())
}

/// Solves every position reachable from `start` with explicit options.
///
/// # Errors
/// As [`solve_from`].
pub fn solve_with<G: Exact>(
    game: &G,
    start: &G::State,
    options: SolveOptions,
) -> Result<Solution<G>, SolveError> {
    let mut game = game.clone();
    // Lifting the cap: every game takes `max_throws` (the rules' conventions, `docs/games/conventions.md`).
    game.set_option("max_throws", &u32::MAX.to_string())
        .map_err(|e| SolveError::Unsupported(e.to_string()))?;
    game.validate(start).map_err(SolveError::InvalidStart)?;
    let mut start = *start;
    G::strip_throw_count(&mut start);
    if game.node(&start) == Node::End {
        return Err(SolveError::GameOver);
    }
    let t0 = Instant::now();
    let mut sol = enumerate(game, start, options.max_states)?;
    sol.stats.enumerate_time = t0.elapsed();
    let t1 = Instant::now();
    sol.iterate(options)?;
    sol.stats.iterate_time = t1.elapsed();
    Ok(sol)
}

fn enumerate<G: Exact>(
    game: G,
    start: G::State,
    max_states: usize,
) -> Result<Solution<G>, SolveError> {
    let seats = game.seats();
    let outcomes = game.throw_outcomes();
    let probabilities: Vec<f64> = outcomes.iter().map(|o| o.probability).collect();
    let mut index = new_map::<G::State>();
    let mut class_index: HashMap<OutcomeClass, u32, ahash::RandomState> =
        HashMap::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4));
    let mut classes: Vec<OutcomeClass> = Vec::new();
    let mut states = vec![start];
    index.insert(start, 0);
    let mut kinds = Vec::new();
    let mut offsets = vec![0u32];
    let mut edges: Vec<u32> = Vec::new();
    let mut actions = ActionList::new();

    // The edge to `child`: a terminal class, or a (possibly new) state index.
    let mut edge_to = |child: G::State,
                       states: &mut Vec<G::State>,
                       index: &mut StateMap<G::State>|
     -> Result<u32, SolveError> {
        if game.node(&child) == Node::End {
            let ranking = game.ranking(&child).expect("an ended game has a ranking");
            let mut success = None;
            for s in 0..seats {
                if let Some(ok) = game.success(&child, s) {
                    *success.get_or_insert(0u8) |= u8::from(ok) << s;
                }
            }
            let class = OutcomeClass { ranking, success };
            let next = classes.len() as u32;
            let c = *class_index.entry(class).or_insert(next);
            if c == next {
                classes.push(class);
            }
            return Ok(TERMINAL | c);
        }
        let next = states.len();
        match index.entry(child) {
            std::collections::hash_map::Entry::Occupied(e) => Ok(*e.get()),
            std::collections::hash_map::Entry::Vacant(e) => {
                if next >= max_states {
                    return Err(SolveError::TooManyStates { limit: max_states });
                }
                e.insert(next as u32);
                states.push(child);
                Ok(next as u32)
            }
        }
    };

    let mut i = 0;
    while i < states.len() {
        let s = states[i];
        match game.node(&s) {
            Node::Throw(seat) => {
                kinds.push(seat as u8);
                for o in outcomes {
                    let mut c = s;
                    game.apply_throw_unchecked(&mut c, o.throw);
                    G::strip_throw_count(&mut c);
                    edges.push(edge_to(c, &mut states, &mut index)?);
                }
            }
            Node::Decide(seat) => {
                kinds.push(DECIDE | seat as u8);
                game.legal_actions(&s, &mut actions);
                for &a in &actions {
                    let mut c = s;
                    game.apply_action_unchecked(&mut c, a);
                    G::strip_throw_count(&mut c);
                    edges.push(edge_to(c, &mut states, &mut index)?);
                }
            }
            Node::End => unreachable!("terminal states are not enumerated"),
        }
        if edges.len() >= TERMINAL as usize {
            return Err(SolveError::TooManyStates { limit: max_states });
        }
        offsets.push(edges.len() as u32);
        i += 1;
    }

    // Outcome classes in a fixed order (by ranking, then success), whatever the order of
    // discovery.
    let mut order: Vec<u32> = (0..classes.len() as u32).collect();
    order.sort_by_key(|&c| classes[c as usize].sort_key());
    let mut rank_of = vec![0u32; classes.len()];
    for (r, &c) in order.iter().enumerate() {
        rank_of[c as usize] = r as u32;
    }
    for e in &mut edges {
        if *e & TERMINAL != 0 {
            *e = TERMINAL | rank_of[(*e & !TERMINAL) as usize];
        }
    }
    let classes: Vec<OutcomeClass> = order.iter().map(|&c| classes[c as usize]).collect();
    let first: Vec<Vec<u32>> = (0..seats)
        .map(|s| {
            (0..classes.len() as u32)
                .filter(|&c| classes[c as usize].ranking.place(s) == 0)
                .collect()
        })
        .collect();

    let n = states.len();
    let k = classes.len();
    let decision_nodes = kinds.iter().filter(|&&x| x & DECIDE != 0).count();
    let memory_bytes = n * (2 * core::mem::size_of::<G::State>() + 4 + 8 + 1 + 1 + 4 + 8 * k + 8)
        + edges.len() * 4;
    Ok(Solution {
        stats: SolveStats {
            states: n,
            decision_nodes,
            edges: edges.len(),
            outcome_classes: k,
            components: 0,
            largest_component: 0,
            sweeps: 0,
            residual: f64::INFINITY,
            missing_mass: 1.0,
            error_bound: f64::INFINITY,
            throws_error_bound: f64::INFINITY,
            enumerate_time: Duration::ZERO,
            iterate_time: Duration::ZERO,
            memory_bytes,
        },
        game,
        states,
        index,
        kinds,
        offsets,
        edges,
        probabilities,
        classes,
        first,
        values: vec![0.0; n * k],
        throws: vec![0.0; n],
        policy: vec![0; n],
    })
}

impl<G: Exact> Solution<G> {
    /// The chance that `seat` ranks first from the values of edge `e`.
    #[inline]
    fn first_chance(&self, e: u32, seat: usize) -> f64 {
        if e & TERMINAL != 0 {
            let c = e & !TERMINAL;
            return if self.classes[c as usize].ranking.place(seat) == 0 {
                1.0
            } else {
                0.0
            };
        }
        let k = self.classes.len();
        let row = &self.values[e as usize * k..(e as usize + 1) * k];
        self.first[seat].iter().map(|&c| row[c as usize]).sum()
    }

    /// The strongly connected components of the state graph, sinks first (Tarjan's
    /// algorithm, iterative): `(order, starts)` where component `c` is
    /// `order[starts[c]..starts[c + 1]]`.
    fn components(&self) -> (Vec<u32>, Vec<u32>) {
        const NONE: u32 = u32::MAX;
        let n = self.states.len();
        let mut index = vec![NONE; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        let mut calls: Vec<(u32, u32)> = Vec::new();
        let mut order = Vec::with_capacity(n);
        let mut starts = vec![0u32];
        let mut next = 0u32;
        for root in 0..n as u32 {
            if index[root as usize] != NONE {
                continue;
            }
            calls.push((root, self.offsets[root as usize]));
            index[root as usize] = next;
            low[root as usize] = next;
            next += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            while let Some(&mut (v, ref mut pos)) = calls.last_mut() {
                let end = self.offsets[v as usize + 1];
                let mut descended = false;
                while *pos < end {
                    let e = self.edges[*pos as usize];
                    *pos += 1;
                    if e & TERMINAL != 0 {
                        continue;
                    }
                    let w = e as usize;
                    if index[w] == NONE {
                        index[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(e);
                        on_stack[w] = true;
                        calls.push((e, self.offsets[w]));
                        descended = true;
                        break;
                    } else if on_stack[w] {
                        low[v as usize] = low[v as usize].min(index[w]);
                    }
                }
                if descended {
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent as usize] = low[parent as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    loop {
                        let w = stack.pop().expect("the component is on the stack");
                        on_stack[w as usize] = false;
                        order.push(w);
                        if w == v {
                            break;
                        }
                    }
                    starts.push(order.len() as u32);
                }
            }
        }
        (order, starts)
    }

    /// Recomputes state `i` from its successors; returns the largest change.
    #[inline]
    fn update(&mut self, i: usize, acc: &mut [f64]) -> f64 {
        let k = self.classes.len();
        let (new_throws, policy) = self.evaluate(i, acc);
        if let Some(best) = policy {
            self.policy[i] = best;
        }
        let mut residual: f64 = 0.0;
        let row = &mut self.values[i * k..(i + 1) * k];
        for (old, new) in row.iter_mut().zip(acc.iter()) {
            residual = residual.max((*old - new).abs());
            *old = *new;
        }
        let old_t = self.throws[i];
        residual = residual.max((old_t - new_throws).abs() / new_throws.max(1.0));
        self.throws[i] = new_throws;
        residual
    }

    /// The change one update of state `i` would make: (largest change of a probability,
    /// change of the expected throws), both absolute.
    fn change(&self, i: usize, acc: &mut [f64]) -> (f64, f64) {
        let k = self.classes.len();
        let (t, _) = self.evaluate(i, acc);
        let row = &self.values[i * k..(i + 1) * k];
        let p = row
            .iter()
            .zip(acc.iter())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        (p, (self.throws[i] - t).abs())
    }

    /// The values of state `i` computed from its successors: the outcome probabilities in
    /// `acc`, the expected throws returned, with the chosen action at a decision.
    #[inline]
    fn evaluate(&self, i: usize, acc: &mut [f64]) -> (f64, Option<u8>) {
        let k = self.classes.len();
        let kind = self.kinds[i];
        let (lo, hi) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        let new_throws;
        if kind & DECIDE == 0 {
            acc.iter_mut().for_each(|a| *a = 0.0);
            let mut t = 1.0;
            let mut stay = 0.0;
            for (j, &e) in self.edges[lo..hi].iter().enumerate() {
                let p = self.probabilities[j];
                if e & TERMINAL != 0 {
                    acc[(e & !TERMINAL) as usize] += p;
                } else if e as usize == i {
                    stay += p;
                } else {
                    let row = &self.values[e as usize * k..(e as usize + 1) * k];
                    for (a, v) in acc.iter_mut().zip(row) {
                        *a += p * v;
                    }
                    t += p * self.throws[e as usize];
                }
            }
            let scale = 1.0 / (1.0 - stay);
            acc.iter_mut().for_each(|a| *a *= scale);
            new_throws = t * scale;
        } else {
            let seat = (kind & !DECIDE) as usize;
            let mut best = FirstBest::new(0);
            for (j, &e) in self.edges[lo..hi].iter().enumerate() {
                best.offer(j, self.first_chance(e, seat));
            }
            let best = best.item();
            let e = self.edges[lo + best];
            if e & TERMINAL != 0 {
                acc.iter_mut().for_each(|a| *a = 0.0);
                acc[(e & !TERMINAL) as usize] = 1.0;
                new_throws = 0.0;
            } else {
                acc.copy_from_slice(&self.values[e as usize * k..(e as usize + 1) * k]);
                new_throws = self.throws[e as usize];
            }
            return (new_throws, Some(best as u8));
        }
        (new_throws, None)
    }

    /// A bound on the expected number of steps spent in a cyclic component, from any of its
    /// states (`N = ‖(I − Q)⁻¹‖∞` for the component's transition matrix `Q`, self-loops
    /// solved out and decisions fixed to the current policy). With `m_t = ‖Qᵗ 1‖∞` (the
    /// largest chance of still being in the component after `t` steps, by power iteration)
    /// and `S_k = m_0 + … + m_{k−1}`, `Σ_t Qᵗ 1 ≤ S_k + m_k · N`, so `N ≤ S_k / (1 − m_k)`
    /// for every `k` with `m_k < 1`; the smallest found is returned. `None` if no state
    /// leaves within `max_steps` steps.
    fn steps_bound(&self, members: &[u32], local: &mut [u32], max_steps: usize) -> Option<f64> {
        const NONE: u32 = u32::MAX;
        for (j, &i) in members.iter().enumerate() {
            local[i as usize] = j as u32;
        }
        let mut v = vec![1.0f64; members.len()];
        let mut next = vec![0.0f64; members.len()];
        let mut steps = 0;
        let mut sum = 0.0; // S_k
        let mut best: Option<f64> = None;
        let found = loop {
            let m = v.iter().copied().fold(0.0, f64::max);
            if m < 1.0 {
                let n = sum / (1.0 - m);
                if best.is_some_and(|b| n >= b) && m < 1e-3 {
                    break best;
                }
                best = Some(best.map_or(n, |b: f64| b.min(n)));
            }
            sum += m;
            if steps >= max_steps {
                break best;
            }
            for (j, &i) in members.iter().enumerate() {
                let i = i as usize;
                let (lo, hi) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
                let at = |e: u32| -> f64 {
                    if e & TERMINAL != 0 || local[e as usize] == NONE {
                        0.0
                    } else {
                        v[local[e as usize] as usize]
                    }
                };
                next[j] = if self.kinds[i] & DECIDE == 0 {
                    let mut stay = 0.0;
                    let mut sum = 0.0;
                    for (o, &e) in self.edges[lo..hi].iter().enumerate() {
                        if e as usize == i {
                            stay += self.probabilities[o];
                        } else {
                            sum += self.probabilities[o] * at(e);
                        }
                    }
                    sum / (1.0 - stay)
                } else {
                    at(self.edges[lo + self.policy[i] as usize])
                };
            }
            std::mem::swap(&mut v, &mut next);
            steps += 1;
        };
        for &i in members {
            local[i as usize] = NONE;
        }
        found
    }

    /// Value iteration, one strongly connected component at a time, sinks first: the
    /// successors outside a component are final when it is solved, so a component without
    /// a cycle takes one pass and a cycle is iterated on its own.
    fn iterate(&mut self, options: SolveOptions) -> Result<(), SolveError> {
        let n = self.states.len();
        let k = self.classes.len();
        let mut acc = vec![0.0f64; k];
        let (order, starts) = self.components();
        let mut sweeps = 0;
        let mut worst: f64 = 0.0;
        let mut largest = 0;
        let mut local = vec![u32::MAX; n];
        // Error bounds per component (sinks first): a component's values take in the
        // errors of the components it leaves to, at most the largest of those.
        let components = starts.len() - 1;
        let mut component_of = vec![0u32; n];
        for c in 0..components {
            for &i in &order[starts[c] as usize..starts[c + 1] as usize] {
                component_of[i as usize] = c as u32;
            }
        }
        let mut errors = vec![(0.0f64, 0.0f64); components];
        for c in 0..starts.len() - 1 {
            let members = &order[starts[c] as usize..starts[c + 1] as usize];
            largest = largest.max(members.len());
            let cyclic = members.len() > 1;
            let mut done = 0;
            // The largest error bound of the components this one leaves to.
            let mut inherited = (0.0f64, 0.0f64);
            for &i in members {
                let (lo, hi) = (self.offsets[i as usize], self.offsets[i as usize + 1]);
                for &e in &self.edges[lo as usize..hi as usize] {
                    if e & TERMINAL == 0 {
                        let d = component_of[e as usize] as usize;
                        if d != c {
                            inherited.0 = inherited.0.max(errors[d].0);
                            inherited.1 = inherited.1.max(errors[d].1);
                        }
                    }
                }
            }
            errors[c] = inherited;
            loop {
                let mut residual: f64 = 0.0;
                for &i in members {
                    residual = residual.max(self.update(i as usize, &mut acc));
                }
                done += 1;
                if !cyclic {
                    break;
                }
                if residual <= options.tolerance {
                    worst = worst.max(residual);
                    break;
                }
                if done >= options.max_sweeps {
                    return Err(SolveError::NoConvergence {
                        sweeps: done,
                        residual,
                    });
                }
            }
            if cyclic {
                // The proven bound: with r = F(x) − x the change one more (Jacobi) update
                // would make, the exact values of the component are x + (I − Q)⁻¹ (r + the
                // errors it takes in on leaving), so every error is at most N·‖r‖ plus
                // those, with N the steps bound. Sweep on until N·‖r‖ is negligible (or
                // rounding stops it falling).
                let steps = self.steps_bound(members, &mut local, options.max_sweeps);
                let mut best = (f64::INFINITY, f64::INFINITY);
                let mut stalls = 0;
                loop {
                    let (mut rp, mut rt) = (0.0f64, 0.0f64);
                    let mut scale: f64 = 1.0;
                    for &i in members {
                        let (p, t) = self.change(i as usize, &mut acc);
                        rp = rp.max(p);
                        rt = rt.max(t);
                        scale = scale.max(self.throws[i as usize]);
                    }
                    let Some(steps) = steps else {
                        best = (f64::INFINITY, f64::INFINITY);
                        break;
                    };
                    let bound = (steps * rp, steps * rt);
                    // Rounding ends the fall of the residual: stop once it has not fallen
                    // for a few sweeps.
                    if bound.0 < best.0 || bound.1 < best.1 {
                        stalls = 0;
                    } else {
                        stalls += 1;
                    }
                    best = (best.0.min(bound.0), best.1.min(bound.1));
                    let small = bound.0 <= 1e-16 && bound.1 <= 1e-16 * scale;
                    if small || stalls >= 8 || done >= options.max_sweeps {
                        best = bound;
                        break;
                    }
                    for &i in members {
                        self.update(i as usize, &mut acc);
                    }
                    done += 1;
                }
                errors[c].0 += best.0;
                errors[c].1 += best.1;
            }
            sweeps = sweeps.max(done);
        }
        self.stats.error_bound = errors.iter().map(|e| e.0).fold(0.0, f64::max);
        self.stats.throws_error_bound = errors.iter().map(|e| e.1).fold(0.0, f64::max);
        self.stats.sweeps = sweeps;
        self.stats.residual = worst;
        self.stats.largest_component = largest;
        self.stats.components = starts.len() - 1;
        self.stats.missing_mass = (0..n)
            .map(|i| (1.0 - self.values[i * k..(i + 1) * k].iter().sum::<f64>()).abs())
            .fold(0.0, f64::max);
        Ok(())
    }

    /// The game solved (with its throw cap lifted).
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Sizes, times and convergence.
    pub fn stats(&self) -> &SolveStats {
        &self.stats
    }

    /// Every outcome class reachable, in a fixed order (by ranking, successes first).
    pub fn classes(&self) -> &[OutcomeClass] {
        &self.classes
    }

    /// The state solving started from.
    pub fn start(&self) -> &G::State {
        &self.states[0]
    }

    /// Every non-terminal state reachable from the start, in discovery order.
    pub fn states(&self) -> &[G::State] {
        &self.states
    }

    /// The edge that stands for `state`: its index, or its outcome class when the game is
    /// over. `None` when the state is not among those solved.
    fn edge_of(&self, state: &G::State) -> Option<u32> {
        let mut s = *state;
        G::strip_throw_count(&mut s);
        if self.game.node(&s) == Node::End {
            let ranking = self.game.ranking(&s)?;
            let mut success = None;
            for seat in 0..self.game.seats() {
                if let Some(ok) = self.game.success(&s, seat) {
                    *success.get_or_insert(0u8) |= u8::from(ok) << seat;
                }
            }
            let class = OutcomeClass { ranking, success };
            return self
                .classes
                .iter()
                .position(|c| *c == class)
                .map(|c| TERMINAL | c as u32);
        }
        self.index.get(&s).copied()
    }

    /// The probability of each outcome class ([`Solution::classes`]) from `state`, under
    /// the solved play. `None` when the state is not reachable from the start. The throw
    /// count of `state` is ignored (the cap is lifted).
    pub fn distribution(&self, state: &G::State) -> Option<Vec<f64>> {
        let e = self.edge_of(state)?;
        let k = self.classes.len();
        Some(if e & TERMINAL != 0 {
            let mut v = vec![0.0; k];
            v[(e & !TERMINAL) as usize] = 1.0;
            v
        } else {
            self.values[e as usize * k..(e as usize + 1) * k].to_vec()
        })
    }

    /// The chance that `seat` ranks first (ties included) from `state`.
    pub fn first_probability(&self, state: &G::State, seat: Seat) -> Option<f64> {
        if seat >= self.game.seats() {
            return None;
        }
        self.edge_of(state).map(|e| self.first_chance(e, seat))
    }

    /// The chance that `seat` succeeds (Sig wa Duqqan: reaches the Ka'aba) from `state`,
    /// in games that tell success from ranking.
    pub fn success_probability(&self, state: &G::State, seat: Seat) -> Option<f64> {
        let d = self.distribution(state)?;
        let mut total = 0.0;
        for (c, p) in self.classes.iter().zip(&d) {
            total += f64::from(u8::from(c.success(seat)?)) * p;
        }
        Some(total)
    }

    /// Each seat's expected score ([`Ranking::score`]) from `state`.
    pub fn expected_scores(&self, state: &G::State) -> Option<SeatValues> {
        let d = self.distribution(state)?;
        let mut out = [0.0; MAX_SEATS];
        for (c, p) in self.classes.iter().zip(&d) {
            for (s, o) in out.iter_mut().enumerate().take(self.game.seats()) {
                *o += p * c.ranking.score(s);
            }
        }
        Some(out)
    }

    /// The expected number of throws from `state` to the end, under the solved play.
    pub fn expected_throws(&self, state: &G::State) -> Option<f64> {
        let e = self.edge_of(state)?;
        Some(if e & TERMINAL != 0 {
            0.0
        } else {
            self.throws[e as usize]
        })
    }

    /// The solved action at a decision node (the one maximising the decider's chance of
    /// ranking first, the first listed among equals). `None` elsewhere or when the state
    /// was not solved.
    pub fn best_action(&self, state: &G::State) -> Option<G::Action> {
        let e = self.edge_of(state)?;
        if e & TERMINAL != 0 || self.kinds[e as usize] & DECIDE == 0 {
            return None;
        }
        let mut actions = ActionList::new();
        self.game
            .legal_actions(&self.states[e as usize], &mut actions);
        actions.get(self.policy[e as usize] as usize).copied()
    }

    /// The decider's chance of ranking first after each legal action at a decision node,
    /// in the order of the legal actions.
    pub fn action_values(&self, state: &G::State) -> Option<Vec<(G::Action, f64)>> {
        let e = self.edge_of(state)?;
        if e & TERMINAL != 0 {
            return None;
        }
        let i = e as usize;
        let kind = self.kinds[i];
        if kind & DECIDE == 0 {
            return None;
        }
        let seat = (kind & !DECIDE) as usize;
        let mut actions = ActionList::new();
        self.game.legal_actions(&self.states[i], &mut actions);
        let lo = self.offsets[i] as usize;
        Some(
            actions
                .iter()
                .enumerate()
                .map(|(j, &a)| (a, self.first_chance(self.edges[lo + j], seat)))
                .collect(),
        )
    }
}

impl<G: Exact> ExactValues<G> for Solution<G> {
    fn scores(&self, _game: &G, state: &G::State) -> Option<SeatValues> {
        self.expected_scores(state)
    }
}

/// The exact values named by a searching agent's `tablebase` parameter, for any game type
/// (matched at run time against the games in [`games`]; only Issiren has a tablebase).
///
/// # Errors
/// [`ExactValuesError`] when the game has no tablebase or the source cannot be loaded.
pub fn exact_values_for<G: Game>(
    source: &str,
) -> Result<Arc<dyn ExactValues<G>>, ExactValuesError> {
    type Found<G> = Result<Arc<dyn ExactValues<G>>, ExactValuesError>;
    fn as_game<E: Exact, G: Game>(source: &str) -> Option<Found<G>> {
        if core::any::TypeId::of::<E>() != core::any::TypeId::of::<G>() {
            return None;
        }
        Some(E::exact_values(source).map(|values| {
            *(Box::new(values) as Box<dyn std::any::Any>)
                .downcast::<Arc<dyn ExactValues<G>>>()
                .expect("E and G are the same type")
        }))
    }
    as_game::<stickdice::Issiren, G>(source)
        .or_else(|| as_game::<stickdice::SigWaDuqqan, G>(source))
        .or_else(|| as_game::<stickdice::SigElOued, G>(source))
        .unwrap_or_else(|| Err(ExactValuesError::NotExact { game: G::NAME }))
}

/// Why a searching agent's `tablebase` parameter names no exact values
/// ([`Exact::exact_values`], [`exact_values_for`]).
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExactValuesError {
    /// The game has an exact solver but no endgame tablebase.
    #[error("{game} has no endgame tablebase (only issiren has one)")]
    NoTablebase {
        /// The game's name.
        game: &'static str,
    },
    /// The game is not one the exact solver knows.
    #[error("{game} has no endgame tablebase")]
    NotExact {
        /// The game's name.
        game: &'static str,
    },
    /// The tablebase cannot be loaded.
    #[error(transparent)]
    Tablebase(#[from] tablebase::TablebaseError),
}

/// The `tablebase` parameter of the searching agents (expectimax, MCTS).
///
/// The default is `off` whatever the cache holds, so that the same command with the same
/// seed plays the same games on every machine; the table is used only when asked for.
pub const TABLEBASE_PARAM: crate::params::ParamInfo = crate::params::ParamInfo {
    key: "tablebase",
    default: "off",
    help: "issiren only: exact values for positions with at most two pieces a side, used only \
           when asked for. off (the default, whatever the cache holds): none; cache: the table \
           `stickdice tablebase --build` built in the cache directory (an error without it); \
           build: built in memory at first use (about 30 s); or a file written by \
           `stickdice analyze --write-tablebase FILE`",
};

/// Whether the game type `G` has an endgame tablebase (Issiren).
pub fn has_tablebase<G: Game>() -> bool {
    core::any::TypeId::of::<G>() == core::any::TypeId::of::<stickdice::Issiren>()
}

/// Why `tablebase=auto` is refused: it meant "the cached table if there is one", which made
/// a run depend on the machine's cache.
const AUTO_REMOVED: &str = "`auto` is no longer accepted: it made the games depend on what \
                            the cache held; the default is now off, and tablebase=cache uses \
                            the cached table";

/// The concrete value a `tablebase` parameter (`None`: not given) stands for in game `G`:
/// `off` when not given (the default never depends on the cache), other values as given.
/// `None` for a game without a tablebase given no value or `off` (nothing to name).
/// `auto`, the former cache-dependent default, is kept as given and refused when the agent
/// is built ([`tablebase_param`]).
pub fn resolve_tablebase<G: Game>(given: Option<&str>) -> Option<String> {
    let given = given.unwrap_or(TABLEBASE_PARAM.default);
    if !has_tablebase::<G>() && given == "off" {
        return None;
    }
    Some(given.to_string())
}

/// `spec` with its `tablebase` parameter resolved for game `G` ([`resolve_tablebase`]):
/// what a tournament logs — the spec as given plus what was resolved — so that the log says
/// whether the table was used and a resumed, merged or replayed tournament builds the same
/// agents (or refuses when the cached table it used is gone). Specs of agents without the
/// parameter, and games without a tablebase, are returned unchanged.
///
/// ```
/// use stickdice_agents::{solve::resolve_spec, AgentSpec};
/// let spec: AgentSpec = "mcts:iterations=100".parse().unwrap();
/// let resolved = resolve_spec::<stickdice::Issiren>(&spec).unwrap().to_string();
/// // The default, whatever the cache holds.
/// assert_eq!(resolved, "mcts:iterations=100,tablebase=off");
/// let asked: AgentSpec = "mcts:iterations=100,tablebase=cache".parse().unwrap();
/// let resolved = resolve_spec::<stickdice::Issiren>(&asked).unwrap();
/// assert_eq!(resolved, asked);
/// let race = resolve_spec::<stickdice::SigWaDuqqan>(&spec).unwrap();
/// assert_eq!(race.to_string(), "mcts:iterations=100");
/// ```
///
/// # Errors
/// As [`AgentSpec::checked_params`](crate::AgentSpec::checked_params).
pub fn resolve_spec<G: Game>(
    spec: &crate::AgentSpec,
) -> Result<crate::AgentSpec, crate::SpecError> {
    let params = spec.checked_params()?;
    if !params
        .info()
        .params
        .iter()
        .any(|p| p.key == TABLEBASE_PARAM.key)
    {
        return Ok(spec.clone());
    }
    Ok(
        match resolve_tablebase::<G>(params.given(TABLEBASE_PARAM.key)) {
            Some(value) => spec.with_param(TABLEBASE_PARAM.key, &value),
            None => spec.clone(),
        },
    )
}

/// Exact values with the text that named them (a `tablebase` parameter's value).
pub type NamedExactValues<G> = (String, Arc<dyn ExactValues<G>>);

/// What a searching agent's `tablebase` parameter comes to ([`tablebase_param`]).
#[non_exhaustive]
pub enum TablebaseChoice<G: Game> {
    /// A game without a tablebase, none asked for: the agent's name says nothing.
    NotApplicable,
    /// No table (`off`, the default): the name says `tablebase=off`.
    Off,
    /// Exact values, with the concrete source that names them (`cache`, `build`, a path).
    Use(NamedExactValues<G>),
}

impl<G: Game> fmt::Debug for TablebaseChoice<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.label() {
            Some(label) => write!(f, "TablebaseChoice({label})"),
            None => f.write_str("TablebaseChoice::NotApplicable"),
        }
    }
}

impl<G: Game> TablebaseChoice<G> {
    /// The `tablebase=` value for the agent's name, if any.
    pub fn label(&self) -> Option<&str> {
        match self {
            TablebaseChoice::NotApplicable => None,
            TablebaseChoice::Off => Some("off"),
            TablebaseChoice::Use((source, _)) => Some(source),
        }
    }
}

/// Reads a searching agent's `tablebase` parameter (default `off`, resolved as
/// [`resolve_tablebase`] says) and loads the exact values it names (once per process).
///
/// # Errors
/// [`crate::SpecError::BadValue`] when the game has no tablebase, the file cannot be
/// loaded (a damaged cached file included: the message says how to rebuild it), or the
/// value is the former default `auto`.
pub fn tablebase_param<G: Game>(
    params: &crate::params::Params<'_>,
) -> Result<TablebaseChoice<G>, crate::SpecError> {
    let given = params.given(TABLEBASE_PARAM.key);
    let Some(source) = resolve_tablebase::<G>(given) else {
        return Ok(TablebaseChoice::NotApplicable);
    };
    if source == "off" {
        return Ok(TablebaseChoice::Off);
    }
    let bad = |why: &str| crate::SpecError::BadValue {
        agent: params.info().name,
        key: TABLEBASE_PARAM.key,
        value: source.clone(),
        expected: format!("off, cache, build or a tablebase file ({why})"),
    };
    if source == "auto" {
        return Err(bad(AUTO_REMOVED));
    }
    exact_values_for::<G>(&source)
        .map(|values| TablebaseChoice::Use((source.clone(), values)))
        .map_err(|why| bad(&why.to_string()))
}

/// A solution shared between agents and threads.
pub type SharedSolution<G> = Arc<Solution<G>>;

type CacheSlot = Arc<OnceLock<Result<Arc<dyn std::any::Any + Send + Sync>, SolveError>>>;

/// The solution of `game` from its initial state, solved once per process and per game
/// configuration (seat count and rule options other than the throw cap) and shared.
///
/// # Errors
/// As [`solve`].
pub fn solved<G: Exact>(game: &G) -> Result<SharedSolution<G>, SolveError> {
    static CACHE: OnceLock<Mutex<HashMap<String, CacheSlot>>> = OnceLock::new();
    game.solver_support()?;
    let key = {
        let opts: Vec<String> = game
            .options()
            .into_iter()
            .filter(|(k, _)| *k != "max_throws")
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!("{}/{}/{}", G::NAME, game.seats(), opts.join(","))
    };
    let slot = {
        let mut cache = CACHE
            .get_or_init(|| Mutex::new(HashMap::new()))
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        cache.entry(key).or_default().clone()
    };
    let result = slot.get_or_init(|| {
        solve(game).map(|s| Arc::new(Arc::new(s)) as Arc<dyn std::any::Any + Send + Sync>)
    });
    match result {
        Ok(any) => Ok(any
            .downcast_ref::<SharedSolution<G>>()
            .expect("the cache key names the game type")
            .clone()),
        Err(e) => Err(e.clone()),
    }
}
