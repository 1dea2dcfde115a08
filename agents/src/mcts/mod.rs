//! Monte Carlo tree search (UCT) with explicit chance nodes, a reward per seat, playouts
//! cut short and scored by the evaluation, a prior from the evaluation, subtree reuse and
//! optional root-parallel search.
//!
//! # What it does
//!
//! Each *iteration* walks down a search tree from the current state, adds one level to it,
//! plays on from there with a cheap *playout policy* for at most `cutoff` throws, and backs
//! the resulting rewards up the path it took. The tree holds three kinds of node, as the
//! game does:
//!
//! * at a **decision** node the seat to move picks the child with the highest UCB1 value
//!   `mean + c·√(ln N / n)`, where `mean` is that seat's own average reward through the
//!   child — every seat maximises its own score (max^n), so the agent plays any number
//!   of seats. With a `prior` of `k`, each child also counts `k` virtual visits at its
//!   prior — the mover's [`Evaluate::evaluate`] of the state the action leads to, the
//!   greedy agent's view — so `mean = (sum + k·prior) / (n + k)` and `n + k` replaces `n`
//!   in the exploration term; the search starts from the greedy move and leaves it only
//!   when the playouts say so. With no prior, children not yet tried are tried first, in a
//!   random order;
//! * at a **throw** (chance) node the throw is sampled with its exact probability (one
//!   uniformly random bit per stick) and the walk follows the child for that throw; all
//!   throws are children, so the tree's statistics average over the dice correctly;
//! * at the **end** the reward vector is [`Game::scores`].
//!
//! A new node's first visit is scored by a playout from it: ε-greedy or uniformly random
//! moves and sampled throws until the game ends — the reward is then the final scores — or
//! until it has made `cutoff` throws, when it stops before the next throw and the reward is
//! [`Evaluate::evaluate`] of that state (an estimate of every seat's score on the same
//! `[0, 1]` scale). A playout that starts at a decision finishes it before its first
//! throw. Visit counts and means are real ones: the prior's virtual visits take part in
//! the selection only. After the budget, the action chosen is the root child with the
//! **most visits** (ties: the higher mean, then the order of the legal actions).
//!
//! # Parameters (`mcts:key=value,…`)
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `iterations` | 10 000 if `millis` is not given | iterations per search (per tree) |
//! | `millis` | – | wall-clock budget per search; with `iterations` too, whichever ends first |
//! | `c` | 0.2 | UCB1 exploration constant (rewards are scores and evaluations in `[0, 1]`) |
//! | `playout` | `greedy` | `greedy`: the [`Evaluate`] greedy move with probability 1 − ε, else a random one; or `random` |
//! | `epsilon` | 0.1 | ε of greedy playouts (ignored by random playouts) |
//! | `cutoff` | 4 | throws a playout makes before it stops and is scored by [`Evaluate::evaluate`]; 0 plays to the end |
//! | `prior` | 10 | virtual visits at the evaluation for each new action; 0: none |
//! | `threads` | 1 | root parallelism: this many independent trees, searched in parallel (rayon), merged by visit counts |
//! | `reuse` | `true` | keep the subtree under the actual throws and actions for the next decision |
//! | `tablebase` | `off` | Issiren only: `cache`, `build` or a file (see [`crate::solve::TABLEBASE_PARAM`]); a position below the root with at most two pieces a side is a leaf scored with its exact values from the endgame tablebase ([`crate::solve::tablebase`]) instead of a playout; a root whose every child it covers is played exactly, unsearched (the analysis then has no visits and the exact values) |
//!
//! Plain UCT — random playouts to the end, no prior, `c` = 1.4 — is
//! `mcts:playout=random,cutoff=0,prior=0,c=1.4` ([`MctsConfig::without_evaluation`]); it
//! is the only setting for a game without an [`Evaluate`] implementation
//! ([`MctsAgent::with_random_playouts`]). `c` must suit the rewards: with playouts to the
//! end a reward is a win or a loss and `c` ≈ 1.4 is right; a cut playout's evaluation
//! varies far less, and the default 0.2 is measured for it. (A small `c` with playouts to
//! the end lets one lucky early playout decide: it plays about as badly as random.)
//!
//! # Strength, and how the defaults were chosen
//!
//! Issiren games last about 150 throws, and most moves change the outcome by a few
//! percent, far less than the noise of a random game played to the end: plain UCT at 1000
//! iterations scored 0.23 against the one-ply greedy agent. Scoring the position with the
//! evaluation after a few throws removes most of that noise, greedy playouts keep those
//! throws realistic, and the prior starts each search from the greedy move. Measured with
//! `stickdice tournament --agents greedy,SPEC --games N` (release build, seed 1, Issiren,
//! two seats; score of SPEC, ±95%):
//!
//! | SPEC | N | score vs greedy |
//! |---|---|---|
//! | `mcts:iterations=1000,playout=random,cutoff=0,prior=0,c=1.4` (the old defaults) | 400 | 0.23 ± 0.04 |
//! | `mcts:iterations=3000,playout=random,cutoff=0,prior=0,c=1.4` | 400 | 0.31 ± 0.04 |
//! | `mcts:iterations=1000,cutoff=0,prior=0` (greedy playouts to the end, `c` = 0.2) | 400 | 0.32 ± 0.04 |
//! | `mcts:iterations=1000,playout=random` (random playouts cut after 4 throws, prior) | 400 | 0.54 ± 0.04 |
//! | `mcts:iterations=1000,prior=0` | 400 | 0.61 ± 0.04 |
//! | `mcts:iterations=300` | 400 | 0.58 ± 0.04 |
//! | `mcts:iterations=1000` | 400 | 0.65 ± 0.04 |
//! | `mcts:iterations=3000` | 400 | 0.68 ± 0.04 |
//! | `mcts` (10 000 iterations) | 200 | 0.71 ± 0.06 |
//! | `expectimax:nodes=20000`, for comparison | 400 | 0.61 ± 0.04 |
//!
//! In a sweep at 1000 iterations (200 to 1000 games each) cutoffs of 1 to 16 throws with
//! greedy playouts all scored 0.56–0.65 against greedy, with 4 and 8 the best and 4 half
//! the cost; `c` from 0.1 to 0.5 and `prior` from 5 to 30 were within the noise of each
//! other, and ε = 0.1 did as well as 0 and better than 0.3. The prior added about 0.04
//! (0.61 to 0.65 at 1000 iterations). Against `expectimax:nodes=20000` (same command,
//! `--agents expectimax:nodes=20000,SPEC`): `mcts:iterations=300` 0.45 ± 0.04,
//! `mcts:iterations=1000` 0.51 ± 0.04, `mcts:iterations=3000` 0.49 ± 0.04 (400 games
//! each), `mcts` 0.56 ± 0.06 (200 games), and the old defaults at 1000 iterations
//! 0.14 ± 0.03. Over 1000 games each with `--seed 2` and `--seed 3`,
//! `mcts:iterations=1000` scored 0.62 ± 0.03 and 0.63 ± 0.03 against greedy (0.65 at seed
//! 1 is on the lucky side). A release-only test (`tests/mcts_strength.rs`) checks that
//! `mcts:iterations=1000` beats greedy over 800 seat-swapped games.
//!
//! # Reproducibility
//!
//! The agent owns one [`stickdice::Rng`] per tree, tree `i` seeded with
//! [`stickdice::seed::derive`]`(seed, &[i])`. With
//! an `iterations` budget the choices depend only on the seed, the thread count and the
//! games played — never on timing or thread scheduling: trees never share state, and the
//! merge adds their root statistics in tree order. A `millis` budget is the documented
//! exception: how many iterations fit depends on the machine.
//!
//! # When to use it, and what it costs
//!
//! The strongest general agent here for games with real decisions (Issiren, the leftover
//! choice in Sig (El Oued)), and it gets better with more iterations. Each iteration costs
//! one walk down the tree, one evaluation per action of a decision it expands (with a
//! prior), and one playout. With the defaults a playout is at most four throws, each
//! decision in it one evaluation per legal action. Plain UCT's playouts run to the end of
//! the game, so its cost is dominated by game length (a random Issiren game from the start
//! lasts a couple of hundred throws). The book's performance chapter *Agents' speed and
//! tuning notes* has the iterations per second (`cargo bench -p stickdice-agents --bench
//! mcts`). Memory: the tree grows by at most one decision's or
//! one throw's children per iteration (a node is 24 bytes for Issiren) and stops growing
//! at [`MAX_TREE_NODES`] nodes (shared among the trees), after which iterations still run
//! from the leaves. The storage is kept between searches (no allocation per iteration
//! once it has grown).
//!
//! With `reuse=true` the agent follows the game through [`Agent::observe_throw`] and
//! [`Agent::observe_action`]: when its next decision comes, the part of the old tree under
//! the throws and actions that actually happened becomes the new root, with its
//! statistics. If it missed an event (it is not told of every one), it starts afresh.
//!
//! # Example
//!
//! ```
//! use stickdice::{Agent, Game, Issiren, Throw};
//! use stickdice_agents::mcts::{MctsAgent, MctsConfig};
//! use stickdice_agents::AgentSpec;
//!
//! let game = Issiren::with_seats(2).unwrap();
//! let mut state = game.initial_state();
//! // Four green sides (a 1, throw again) twice: the first time only the front piece can
//! // step off, the second time there is a choice.
//! let mut legal = stickdice::ActionList::new();
//! game.apply_throw(&mut state, Throw::new(4)).unwrap();
//! game.legal_actions(&state, &mut legal);
//! game.apply_action(&mut state, legal[0]).unwrap();
//! game.apply_throw(&mut state, Throw::new(4)).unwrap();
//! game.legal_actions(&state, &mut legal);
//! assert!(legal.len() > 1);
//!
//! // From a spec string, as the command line and the arena do (the defaults: greedy
//! // playouts cut after 4 throws, c = 0.2, a prior of 10 visits).
//! let spec: AgentSpec = "mcts:iterations=300".parse().unwrap();
//! let config = MctsConfig::from_params(&spec.checked_params().unwrap()).unwrap();
//! assert_eq!(config.iterations, Some(300));
//! assert_eq!(config.cutoff, 4);
//! let mut agent = MctsAgent::new(config, 7).unwrap();
//! let action = agent.choose(&game, &state).unwrap();
//! game.check_action(&state, action).unwrap();
//!
//! // The analysis behind the choice, for a front end: visits and mean score per action.
//! let analysis = agent.last_analysis();
//! assert_eq!(analysis.iterations, 300);
//! assert_eq!(analysis.best().unwrap().action, action);
//! for a in &analysis.actions {
//!     println!("{}: {} visits, mean score {:.3}", a.action, a.visits, a.mean);
//! }
//!
//! // Or as a boxed agent straight from the registry; here plain UCT (random playouts to
//! // the end, no prior), which needs no evaluation.
//! let mut boxed = stickdice_agents::build_str(
//!     "mcts:iterations=200,playout=random,cutoff=0,prior=0,c=1.4",
//!     &game,
//!     7,
//! )
//! .unwrap();
//! game.check_action(&state, boxed.choose(&game, &state).unwrap()).unwrap();
//!
//! // For a game without an evaluation: `with_random_playouts` and plain UCT.
//! let plain = MctsConfig { iterations: Some(200), ..MctsConfig::without_evaluation() };
//! let mut agent = MctsAgent::<Issiren>::with_random_playouts(plain, 7).unwrap();
//! game.check_action(&state, agent.choose(&game, &state).unwrap()).unwrap();
//! ```
//!
//! [`Evaluate`]: crate::Evaluate
//! [`Evaluate::evaluate`]: crate::Evaluate::evaluate
//! [`Game::scores`]: stickdice::Game::scores
//! [`Agent::observe_throw`]: stickdice::Agent::observe_throw
//! [`Agent::observe_action`]: stickdice::Agent::observe_action

mod agent;
mod analysis;
mod budget;
mod config;
mod playouts;
pub(crate) mod shared;
mod tree;

pub use agent::MctsAgent;
pub use analysis::{ActionStats, Analysis};
pub use config::{
    MctsConfig, Playout, DEFAULT_C, DEFAULT_CUTOFF, DEFAULT_EPSILON, DEFAULT_ITERATIONS,
    DEFAULT_PRIOR, INFO, MAX_CUTOFF, MAX_PRIOR, MAX_THREADS, MAX_TREE_NODES,
};

#[cfg(test)]
mod tests;
