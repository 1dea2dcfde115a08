//! Agents for the stickdice games: what plays the games of the crate `stickdice`, from
//! uniform random play to exact solutions, built from spec strings such as
//! `mcts:iterations=2000`. The book's chapter *Agents* (`docs/agents.md` in the repository;
//! `mdbook build docs`) says what each agent does, its parameters, its measured strength
//! and when to use it; the performance chapter *Agents' speed and tuning notes* what each
//! costs.
//!
//! Every agent implements [`stickdice::Agent`] and is built from a spec string
//! ([`spec::build`]), so the arena and front ends hold `Box<dyn Agent<G>>`.
//!
//! | spec | what it does | cost per decision | module |
//! |---|---|---|---|
//! | `random` | uniform among the legal actions | one action listing | [`random`] |
//! | `greedy` | the action whose resulting state evaluates best for the mover | one evaluation per action | [`greedy`] |
//! | `expectimax:depth=3` | depth-limited search over throws and decisions, max^n or paranoid, Star1/Star2 pruning, transposition table, iterative deepening under `nodes=` or `millis=` | nodes: throw outcomes × actions per level, cut by pruning | [`expectimax`] |
//! | `mcts:iterations=2000` | UCT with chance nodes in the tree, a reward per seat, ε-greedy or random playouts cut after `cutoff=` throws and scored by the evaluation (or played to the end), the evaluation as a prior, subtree reuse, root-parallel trees (`threads=`), budget by `iterations=` or `millis=` | one walk down the tree and one short playout per iteration | [`mcts`] |
//! | `ismcts:iterations=2000` | single-observer information-set MCTS: future throws as hidden information, decision nodes only, availability counts, cut playouts as MCTS | as MCTS | [`ismcts`] |
//! | `perfect` | the exactly solved policy (sig-wa-duqqan up to 3 players, sig-wa-duqqan-houmt-taourit and sig-el-oued for 2); refuses other games | one table lookup (the game is solved once per process, in well under a second for two players) | [`perfect`] |
//!
//! The evaluations all three share (and MCTS and ISMCTS use to score cut playouts, in
//! greedy playouts and as MCTS's prior) are in [`eval`]: one per game, in `[0, 1]` on the
//! scale of the final scores and equal to them at the end; Issiren's default is the learned
//! one ([`learned`]), the hand-set one is `eval=hand`.
//! [`agents`] lists every agent with its parameters, defaults and help; the types agents
//! are configured with ([`AgentInfo`], [`AgentSpec`], [`Params`], [`SpecError`]) are in
//! [`params`], which the agents and the registry ([`spec`]) both import.
//!
//! ```
//! use stickdice::{play::play_game, Agent, Game, Issiren, SeedableRng};
//!
//! let game = Issiren::with_seats(2).unwrap();
//! let mut agents: Vec<Box<dyn Agent<Issiren>>> = vec![
//!     stickdice_agents::build_str("expectimax:nodes=5000", &game, 1).unwrap(),
//!     stickdice_agents::build_str("greedy", &game, 2).unwrap(),
//! ];
//! let mut dice = stickdice::Rng::seed_from_u64(3);
//! let mut state = game.initial_state();
//! let ranking = play_game(&game, &mut state, &mut agents, |_, _| game.sample_throw(&mut dice), |_, _, _| {})
//!     .unwrap();
//! assert_eq!(ranking.seats(), 2);
//! for info in stickdice_agents::agents() {
//!     println!("{}: {}", info.name, info.summary);
//! }
//! ```
#![deny(missing_docs)]

mod best;
pub mod described_eval;
pub mod described_solve;
pub mod eval;
pub mod expectimax;
pub mod files;
pub mod greedy;
pub mod ismcts;
pub mod learned;
pub mod mcts;
pub mod params;
pub mod perfect;
pub mod random;
pub mod solve;
pub mod spec;
mod threats;
// The MCTS and ISMCTS unit tests look into the search tree, so they stay unit tests; the
// race they play is the test-support crate's, compiled into this crate's test build (as a
// dev-dependency it would implement the `Evaluate` of the non-test build of this crate).
#[cfg(test)]
#[path = "../../testkit/src/race.rs"]
mod testgame_mcts;

// What the MCTS and ISMCTS unit tests check alike, on that race.
#[cfg(test)]
mod search_tests;

pub use eval::{evaluations, Evaluate, Evaluator, EvaluatorError};
pub use expectimax::{Expectimax, ExpectimaxConfig, Mode, Pruning, SearchResult};
pub use greedy::GreedyAgent;
pub use ismcts::{IsmctsAgent, IsmctsConfig};
pub use mcts::{ActionStats, Analysis, MctsAgent, MctsConfig, Playout};
pub use params::{AgentInfo, AgentSpec, ParamInfo, Params, SpecError};
pub use perfect::PerfectAgent;
pub use random::RandomAgent;
pub use solve::{solvers, tablebases};
pub use spec::{agents, build, build_str, info, register, AgentKind};
