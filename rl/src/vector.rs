//! The batched environment: N games of one configuration stepped together.
//!
//! * **One configuration:** one game with its rule options and seat count, and for each
//!   seat either the learner (`None`) or an agent spec (`Some("greedy")`,
//!   `Some("mcts:iterations=200")`, a registered agent…) whose moves are made in Rust.
//!   With every seat the learner it is self-play (the pgx way: `players` says whose
//!   decision it is).
//! * **Chance inside:** game `i`'s `k`-th episode throws from
//!   [`SeededDice`]`::new(`[`game_seed`]`(seed, i, k))`, as the arena and `stickdice play
//!   --seed` throw for that seed, and its opponent in seat `s` is built as the arena
//!   builds it ([`opponent_seed`], the arena's agent seed); so the game is game 0 of the
//!   one-game tournament seeded [`log_seed`]`(seed, i, k)`, with the learner's actions in
//!   its seats ([`Batch::game_seed`] tells the seed).
//! * **Replay:** with [`Batch::set_recording`] on, [`Batch::record`] gives a finished
//!   game as that tournament's log (header and game line; [`VectorEnv::replay_log`] as
//!   text), which `stickdice replay LOG --index 0` checks and replays.
//! * **Steps:** every game awaits a learner decision, or has just ended. [`VectorEnv::step`]
//!   applies one action code per game that awaits a decision, then throws and lets the
//!   opponents move until a learner decision or the end. A game that ended at the
//!   previous step starts its next episode instead (its action is ignored): the
//!   "next-step" auto-reset of Gymnasium. At the end the rewards are every seat's score
//!   ([`stickdice::Ranking::score`]: 1 won, 0 lost, ½ per tie), 0 elsewhere.
//! * **Truncation** is the throw cap (rule option `max_throws`): a game that ends with
//!   its throws at the cap is *truncated*, any other end is *terminated*. (A game that
//!   would also have been decided on the cap-th throw itself counts as truncated.)
//! * **Buffers:** the caller owns them ([`Out`], or [`Buffers`] which holds them), in
//!   game-major order: observations `N × observation_len` (`f32`, the layout of
//!   [`Encoded::observation_doc`]), masks `N × num_actions` (true for the legal codes;
//!   all false when the game has ended), players `N` (the seat to decide, −1 when
//!   ended), rewards `N × seats`, terminated `N`, truncated `N`; and, opt-in (`Some`),
//!   the legal codes `N × max_actions` (`i64`, ascending, −1 after the last) and their
//!   counts `N` (`i32`, 0 when ended), so that a learner draws a uniformly random legal
//!   action from one random number per game ([`VectorEnv::max_actions`] is the width).
//! * **No allocation per step** in self-play and against agents that allocate nothing
//!   (`random`, `greedy`): the games' states, dice and action lists live in the batch.
//!   Opponent agents are built anew at each episode start (as the arena builds
//!   them), which allocates.
//! * **Threads:** the games are spread over rayon's threads (the current pool) in chunks
//!   of 128 games, each stepped by one thread's serial loop (batches of at most 128
//!   games step on the calling thread); every
//!   game only depends on its own seed, so the results are the same for any thread
//!   count.
//! * **Errors** leave the batch unchanged: buffers of the wrong length, or an action code
//!   that is not legal in game `i` ([`VectorError::IllegalAction`] names `i`), are found
//!   before any game is stepped.
//! * **A failing opponent** (an agent error, or an illegal action from it) ends its game
//!   as a forfeit, as in the arena: that seat ranks last, the others tie first.

use std::fmt;

use rayon::iter::Either;
use rayon::prelude::*;
use stickdice::play::SeededDice;
use stickdice::{with_game, Agent, AnyGame, Game, Node, Ranking, Seat, MAX_SEATS};
use stickdice_agents::{Evaluate, SpecError};
use stickdice_evaluation::log::{self, GameRecord, LogLine, TournamentConfig};
use stickdice_evaluation::{Factory, Format};

use crate::Encoded;

/// The path tag of a batch's game seeds in [`stickdice::seed::derive`].
const BATCH_GAMES: u64 = 0x7665_6374_6f72; // "vector"

/// The path tag of a schedule's game seeds (`stickdice_evaluation::schedule`'s, private
/// there; the tests check that [`game_seed`] is the schedule's).
const SCHEDULE_GAMES: u64 = 0x6761_6d65; // "game"

/// The tournament seed of episode `episode` of game `index` in a batch reset with `seed`:
/// the episode is game 0 (table 0, rotation 0) of the one-game round-robin tournament of
/// one agent per seat seeded so, whose log [`Batch::record`] writes.
pub fn log_seed(seed: u64, index: usize, episode: u64) -> u64 {
    stickdice::seed::derive(seed, &[BATCH_GAMES, index as u64, episode])
}

/// The seed of episode `episode` of game `index` in a batch reset with `seed`: its dice
/// are [`SeededDice`]`::new(game_seed(…))`, so `stickdice play --seed` with this seed
/// throws the same sticks. It is the game seed of table 0, rotation 0 of the schedule
/// seeded [`log_seed`]`(seed, index, episode)`.
pub fn game_seed(seed: u64, index: usize, episode: u64) -> u64 {
    stickdice::seed::derive(log_seed(seed, index, episode), &[SCHEDULE_GAMES, 0, 0])
}

/// The seed of the opponent in `seat` for the game seeded `game_seed`: the seed the arena
/// gives that seat's agent ([`stickdice_evaluation::arena::agent_seed`]).
pub fn opponent_seed(game_seed: u64, seat: Seat) -> u64 {
    stickdice_evaluation::arena::agent_seed(game_seed, seat)
}

/// The most games of one batch: 1 048 576 (Issiren's observations alone are 154 floats a
/// game, 646 MB for so many).
pub const MAX_GAMES: usize = 1 << 20;

/// The label of the learner's seats in a batch game's log ([`Batch::record`]).
pub const LEARNER_LABEL: &str = "learner";

/// What a batch refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VectorError {
    /// The game has no action codes or observation tensors.
    #[error(
        "{title} ({game}) has no action codes or observation tensors (the `encode` \
         capability), so it cannot be batched"
    )]
    NotEncoded {
        /// The game's name.
        game: &'static str,
        /// The game's title.
        title: &'static str,
    },
    /// The game has no decisions: a learner would have nothing to step.
    #[error("{title} ({game}) has no decisions (every throw plays itself): there is nothing for a learner to step")]
    NoDecisions {
        /// The game's name.
        game: &'static str,
        /// The game's title.
        title: &'static str,
    },
    /// A batch of no games.
    #[error("a batch needs at least one game")]
    Empty,
    /// More games than a batch takes ([`MAX_GAMES`]), or than the memory holds.
    #[error("a batch of {games} games is too large: at most {MAX_GAMES}, as the memory allows")]
    TooLarge {
        /// The games asked for.
        games: usize,
    },
    /// Not one seat entry per seat.
    #[error("{given} seat entries given for {seats} seats: give one per seat (None for the learner, an agent spec for an opponent)")]
    Seats {
        /// Entries given.
        given: usize,
        /// The game's seats.
        seats: usize,
    },
    /// Every seat holds an agent.
    #[error("every seat holds an agent: at least one seat must be the learner's")]
    NoLearner,
    /// An opponent's spec does not build an agent for this game.
    #[error("seat P{}: {error}", seat + 1)]
    Agent {
        /// The seat (0-based).
        seat: Seat,
        /// Why.
        #[source]
        error: SpecError,
    },
    /// A buffer of the wrong length.
    #[error("{buffer} holds {got} values; a batch of {games} games needs {want}")]
    Shape {
        /// Which buffer (`actions`, `observations`, `masks`, `players`, `rewards`,
        /// `terminated`, `truncated`, `legal_codes`, `legal_counts`).
        buffer: &'static str,
        /// Its length.
        got: usize,
        /// The length it needs.
        want: usize,
        /// The batch size.
        games: usize,
    },
    /// An action code that is not legal in one game of the batch.
    #[error("game {index}: action {action} is not legal for P{} (legal codes: {legal:?}); no game was stepped", seat + 1)]
    IllegalAction {
        /// The game's index in the batch.
        index: usize,
        /// The seat to decide.
        seat: Seat,
        /// The code given.
        action: i64,
        /// The legal codes.
        legal: Vec<u32>,
    },
    /// A game index past the batch.
    #[error("game {index} of a batch of {games}")]
    Index {
        /// The index given.
        index: usize,
        /// The batch size.
        games: usize,
    },
    /// A record asked of a game whose episode was not recorded.
    #[error("game {index}'s episode was not recorded: turn recording on (set_recording) before the episode starts")]
    NotRecorded {
        /// The game's index in the batch.
        index: usize,
    },
    /// A record asked of a game that has not ended.
    #[error("game {index} has not ended: its record is whole at the step that ends it (terminated or truncated), before the next step restarts it")]
    NotEnded {
        /// The game's index in the batch.
        index: usize,
    },
}

/// The buffers a step writes, game-major (see the [module](self)'s list of shapes).
#[derive(Debug)]
pub struct Out<'a> {
    /// `N × observation_len` floats.
    pub observations: &'a mut [f32],
    /// `N × num_actions`: true for the legal action codes.
    pub masks: &'a mut [bool],
    /// `N`: the seat to decide, −1 when the game has just ended.
    pub players: &'a mut [i32],
    /// `N × seats`: each seat's score where the game has just ended, else 0.
    pub rewards: &'a mut [f32],
    /// `N`: the game has just ended, not at the throw cap.
    pub terminated: &'a mut [bool],
    /// `N`: the game has just ended at the throw cap.
    pub truncated: &'a mut [bool],
    /// Opt-in, `N × max_actions` ([`VectorEnv::max_actions`]): each game's legal codes in
    /// ascending order (the mask's set bits), then −1 to the row's end; all −1 when the
    /// game has just ended. `None`: not written.
    pub legal_codes: Option<&'a mut [i64]>,
    /// Opt-in, `N`: how many legal codes each game has (its row of `legal_codes` before
    /// the −1s), 0 when the game has just ended. `None`: not written.
    pub legal_counts: Option<&'a mut [i32]>,
}

/// Buffers of the right sizes for a batch, owned (see [`Out`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Buffers {
    /// `N × observation_len` floats.
    pub observations: Vec<f32>,
    /// `N × num_actions`.
    pub masks: Vec<bool>,
    /// `N`.
    pub players: Vec<i32>,
    /// `N × seats`.
    pub rewards: Vec<f32>,
    /// `N`.
    pub terminated: Vec<bool>,
    /// `N`.
    pub truncated: Vec<bool>,
    /// `N × max_actions` when on ([`Buffers::with_legal_codes`]), else `None`.
    pub legal_codes: Option<Vec<i64>>,
    /// `N` when on ([`Buffers::with_legal_codes`]), else `None`.
    pub legal_counts: Option<Vec<i32>>,
}

impl Buffers {
    /// Zeroed buffers for `env`.
    pub fn new(env: &VectorEnv) -> Buffers {
        Buffers::with_sizes(
            env.len(),
            env.observation_len(),
            env.num_actions(),
            env.seats(),
        )
    }

    /// Zeroed buffers for `n` games of these sizes.
    pub fn with_sizes(n: usize, observation_len: usize, num_actions: usize, seats: usize) -> Self {
        Buffers {
            observations: vec![0.0; n * observation_len],
            masks: vec![false; n * num_actions],
            players: vec![0; n],
            rewards: vec![0.0; n * seats],
            terminated: vec![false; n],
            truncated: vec![false; n],
            legal_codes: None,
            legal_counts: None,
        }
    }

    /// The same buffers with the opt-in legal codes and counts on, `max_actions` codes per
    /// game ([`VectorEnv::max_actions`]; −1 and 0 until a step writes them).
    pub fn with_legal_codes(mut self, max_actions: usize) -> Self {
        let n = self.players.len();
        self.legal_codes = Some(vec![-1; n * max_actions]);
        self.legal_counts = Some(vec![0; n]);
        self
    }

    /// The buffers as a step's [`Out`].
    pub fn out(&mut self) -> Out<'_> {
        Out {
            observations: &mut self.observations,
            masks: &mut self.masks,
            players: &mut self.players,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            legal_codes: self.legal_codes.as_deref_mut(),
            legal_counts: self.legal_counts.as_deref_mut(),
        }
    }
}

/// One game of a batch.
struct Slot<G: Game> {
    state: G::State,
    dice: SeededDice,
    game_seed: u64,
    episode: u64,
    /// Per seat: the opponent agent, `None` for the learner.
    agents: Vec<Option<Box<dyn Agent<G>>>>,
    /// The legal codes of the learner's decision (bit `c % 64` of word `c / 64` for code
    /// `c`; as many words as the game's codes need, made once).
    legal: Vec<u64>,
    /// The game ended at the last step (it restarts at the next).
    over: bool,
    /// The opponent seat that failed, ending the game.
    forfeit: Option<Seat>,
    /// The episode's learner action codes, in order, when it is recorded.
    codes: Vec<u32>,
    /// The episode is recorded.
    recorded: bool,
}

/// A seat's part of a configuration.
struct Seating<'a> {
    learner: &'a [bool; MAX_SEATS],
    specs: &'a [Option<String>],
    has_agents: bool,
    seed: u64,
    /// The throw cap (read once: `Game::max_throws` may read the options, allocating).
    cap: u32,
    /// Record the learner's actions of the episodes that start.
    record: bool,
}

impl<G: Encoded + Evaluate> Slot<G> {
    fn new(game: &G) -> Self {
        Slot {
            state: game.initial_state(),
            dice: SeededDice::new(0),
            game_seed: 0,
            episode: 0,
            agents: (0..game.seats()).map(|_| None).collect(),
            legal: vec![0; G::num_actions().div_ceil(64)],
            over: false,
            forfeit: None,
            codes: Vec::new(),
            recorded: false,
        }
    }

    /// Starts episode `episode` of game `index`.
    fn start(&mut self, game: &G, seating: &Seating<'_>, index: usize, episode: u64) {
        self.game_seed = game_seed(seating.seed, index, episode);
        self.episode = episode;
        self.state = game.initial_state();
        self.dice = SeededDice::new(self.game_seed);
        self.over = false;
        self.forfeit = None;
        self.recorded = seating.record;
        self.codes.clear();
        if seating.has_agents {
            for (seat, spec) in seating.specs.iter().enumerate() {
                self.agents[seat] = spec.as_ref().map(|spec| {
                    let mut agent = stickdice_agents::build_str(
                        spec,
                        game,
                        opponent_seed(self.game_seed, seat),
                    )
                    .expect("the spec built an agent for this game when the batch was made");
                    agent.new_game(game, seat);
                    agent
                });
            }
        }
    }

    /// Throws and lets the opponents move until a learner decision or the end.
    #[inline]
    fn advance(&mut self, game: &G, seating: &Seating<'_>) {
        let sticks = game.sticks();
        loop {
            match game.node(&self.state) {
                Node::Throw(seat) => {
                    let t = self.dice.throw(seat, sticks);
                    // The state before, copied only when opponents observe the throw.
                    let before = if seating.has_agents {
                        Some(self.state)
                    } else {
                        None
                    };
                    game.apply_throw_unchecked(&mut self.state, t);
                    if let Some(before) = before {
                        for agent in self.agents.iter_mut().flatten() {
                            agent.observe_throw(game, &before, t);
                        }
                    }
                }
                Node::Decide(seat) if seating.learner[seat] => return,
                Node::Decide(seat) => {
                    let agent = self.agents[seat]
                        .as_mut()
                        .expect("a seat that is not the learner's holds an agent");
                    match agent.choose(game, &self.state) {
                        Ok(a) if game.check_action(&self.state, a).is_ok() => {
                            self.apply(game, seating, a)
                        }
                        _ => {
                            self.forfeit = Some(seat);
                            return;
                        }
                    }
                }
                Node::End => return,
            }
        }
    }

    #[inline]
    fn apply(&mut self, game: &G, seating: &Seating<'_>, action: G::Action) {
        let before = if seating.has_agents {
            Some(self.state)
        } else {
            None
        };
        game.apply_action_unchecked(&mut self.state, action);
        if let Some(before) = before {
            for agent in self.agents.iter_mut().flatten() {
                agent.observe_action(game, &before, action);
            }
        }
    }

    /// Writes the game's outputs and notes its legal codes.
    #[inline]
    fn write(&mut self, game: &G, seating: &Seating<'_>, out: SlotOut<'_>) {
        out.observation.fill(0.0);
        game.observe(&self.state, out.observation);
        out.mask.fill(false);
        out.rewards.fill(0.0);
        self.legal.fill(0);
        match (self.forfeit, game.node(&self.state)) {
            (None, Node::Decide(seat)) => {
                let (legal, mask) = (&mut self.legal, &mut *out.mask);
                game.for_each_legal_code(&self.state, |code| {
                    let code = code as usize;
                    legal[code / 64] |= 1 << (code % 64);
                    mask[code] = true;
                });
                write_codes(&self.legal, out.codes, out.count);
                *out.player = seat as i32;
                *out.terminated = false;
                *out.truncated = false;
            }
            (forfeit, _) => {
                self.over = true;
                let seats = game.seats();
                let ranking = match forfeit {
                    Some(seat) => {
                        let mut keys = [0u32; MAX_SEATS];
                        keys[seat] = 1;
                        Ranking::from_keys(&keys[..seats])
                    }
                    None => game
                        .ranking(&self.state)
                        .expect("an ended game has a ranking"),
                };
                for (s, r) in out.rewards.iter_mut().enumerate() {
                    *r = ranking.score(s) as f32;
                }
                write_codes(&[], out.codes, out.count);
                let capped = forfeit.is_none() && game.throws_made(&self.state) >= seating.cap;
                *out.player = -1;
                *out.terminated = !capped;
                *out.truncated = capped;
            }
        }
    }

    fn is_legal(&self, code: i64) -> bool {
        usize::try_from(code)
            .ok()
            .and_then(|c| self.legal.get(c / 64).map(|w| w >> (c % 64) & 1 == 1))
            .unwrap_or(false)
    }
}

/// Writes the legal codes of the bitset `legal` (bit `c % 64` of word `c / 64` for code
/// `c`) into a game's row of the opt-in buffers: ascending, then −1 to the row's end; and
/// their count.
#[inline]
fn write_codes(legal: &[u64], codes: Option<&mut [i64]>, count: Option<&mut [i32]>) {
    if let Some(codes) = codes {
        let mut k = 0;
        for (w, &word) in legal.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                // Never past the row: a decision has at most `Game::MAX_ACTIONS` legal
                // actions (the conformance suite checks it), and the row is that wide.
                codes[k] = (w * 64) as i64 + i64::from(bits.trailing_zeros());
                bits &= bits - 1;
                k += 1;
            }
        }
        codes[k..].fill(-1);
    }
    if let Some(count) = count {
        count[0] = legal.iter().map(|w| w.count_ones()).sum::<u32>() as i32;
    }
}

/// One game's part of [`Out`].
struct SlotOut<'a> {
    observation: &'a mut [f32],
    mask: &'a mut [bool],
    player: &'a mut i32,
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    /// Its row of the opt-in legal codes.
    codes: Option<&'a mut [i64]>,
    /// Its opt-in count (one value).
    count: Option<&'a mut [i32]>,
}

/// One game's items as the zipped iterators of [`each_slot`] give them.
type Zipped<'a, G> = (
    (
        (((usize, &'a mut Slot<G>), &'a mut [f32]), &'a mut [bool]),
        (&'a mut [f32], ((&'a mut i32, &'a mut bool), &'a mut bool)),
    ),
    (Option<&'a mut [i64]>, Option<&'a mut [i32]>),
);

/// The sizes of one game's part of [`Out`]: observation, mask, rewards, legal codes.
#[derive(Clone, Copy)]
struct Sizes {
    observation: usize,
    mask: usize,
    rewards: usize,
    codes: usize,
}

/// An opt-in buffer cut into `n` parts of `size` (`n` times `None` when it is off).
fn parts<T>(
    buf: Option<&mut [T]>,
    size: usize,
    n: usize,
) -> impl Iterator<Item = Option<&mut [T]>> {
    match buf {
        Some(buf) => Either::Left(buf.chunks_mut(size).map(Some)),
        None => Either::Right(std::iter::repeat_with(|| None).take(n)),
    }
}

/// [`parts`] for rayon.
fn par_parts<T: Send>(
    buf: Option<&mut [T]>,
    size: usize,
    n: usize,
) -> impl IndexedParallelIterator<Item = Option<&mut [T]>> {
    match buf {
        Some(buf) => Either::Left(buf.par_chunks_mut(size).map(Some)),
        None => Either::Right((0..n).into_par_iter().map(|_| None)),
    }
}

/// The games a thread steps at a time: the batch is cut into chunks of this many games,
/// each stepped by the serial loop (one rayon task per chunk, not per game).
const CHUNK: usize = 128;

/// Runs `f` on every game with its index and its part of `out`, on rayon's threads when
/// `parallel` (in chunks of [`CHUNK`] games, each stepped by [`each_slot_serial`]).
fn each_slot<G: Encoded + Evaluate>(
    slots: &mut [Slot<G>],
    parallel: bool,
    out: Out<'_>,
    sizes: Sizes,
    f: impl Fn(usize, &mut Slot<G>, SlotOut<'_>) + Sync,
) {
    if !(parallel && slots.len() > CHUNK) {
        each_slot_serial(0, slots, out, sizes, &f);
        return;
    }
    let chunks = slots.len().div_ceil(CHUNK);
    let Out {
        observations,
        masks,
        players,
        rewards,
        terminated,
        truncated,
        legal_codes,
        legal_counts,
    } = out;
    slots
        .par_chunks_mut(CHUNK)
        .zip(observations.par_chunks_mut(CHUNK * sizes.observation))
        .zip(masks.par_chunks_mut(CHUNK * sizes.mask))
        .zip(rewards.par_chunks_mut(CHUNK * sizes.rewards))
        .zip(
            players
                .par_chunks_mut(CHUNK)
                .zip(terminated.par_chunks_mut(CHUNK))
                .zip(truncated.par_chunks_mut(CHUNK)),
        )
        .zip(
            par_parts(legal_codes, CHUNK * sizes.codes, chunks).zip(par_parts(
                legal_counts,
                CHUNK,
                chunks,
            )),
        )
        .enumerate()
        .for_each(
            |(
                k,
                (
                    ((((slots, observations), masks), rewards), ((players, terminated), truncated)),
                    (legal_codes, legal_counts),
                ),
            )| {
                let out = Out {
                    observations,
                    masks,
                    players,
                    rewards,
                    terminated,
                    truncated,
                    legal_codes,
                    legal_counts,
                };
                each_slot_serial(k * CHUNK, slots, out, sizes, &f);
            },
        );
}

/// Runs `f` on every game of `slots` (game `first + j` at `j`) with its part of `out`, on
/// the calling thread.
fn each_slot_serial<G: Encoded + Evaluate>(
    first: usize,
    slots: &mut [Slot<G>],
    out: Out<'_>,
    sizes: Sizes,
    f: &(impl Fn(usize, &mut Slot<G>, SlotOut<'_>) + Sync),
) {
    let n = slots.len();
    let Out {
        observations,
        masks,
        players,
        rewards,
        terminated,
        truncated,
        legal_codes,
        legal_counts,
    } = out;
    slots
        .iter_mut()
        .enumerate()
        .zip(observations.chunks_mut(sizes.observation))
        .zip(masks.chunks_mut(sizes.mask))
        .zip(
            rewards.chunks_mut(sizes.rewards).zip(
                players
                    .iter_mut()
                    .zip(terminated.iter_mut())
                    .zip(truncated.iter_mut()),
            ),
        )
        .zip(parts(legal_codes, sizes.codes, n).zip(parts(legal_counts, 1, n)))
        .for_each(
            |((((i_slot, observation), mask), (rewards, flags)), (codes, count)): Zipped<'_, G>| {
                let (i, slot) = i_slot;
                let ((player, terminated), truncated) = flags;
                f(
                    first + i,
                    slot,
                    SlotOut {
                        observation,
                        mask,
                        player,
                        rewards,
                        terminated,
                        truncated,
                        codes,
                        count,
                    },
                )
            },
        );
}

/// The batch for one game type: the statically dispatched core of [`VectorEnv`].
pub struct Batch<G: Encoded + Evaluate> {
    game: G,
    seed: u64,
    learner: [bool; MAX_SEATS],
    specs: Vec<Option<String>>,
    slots: Vec<Slot<G>>,
    parallel: bool,
    started: bool,
    cap: u32,
    recording: bool,
}

impl<G: Encoded + Evaluate> fmt::Debug for Batch<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Batch")
            .field("game", &self.game)
            .field("games", &self.slots.len())
            .field("seed", &self.seed)
            .field("seats", &self.specs)
            .field("parallel", &self.parallel)
            .finish()
    }
}

impl<G: Encoded + Evaluate> Batch<G> {
    /// `n` games of `game`; `seats[s]` is `None` for the learner's seats and an agent
    /// spec for an opponent's. The games start at [`Batch::reset`].
    ///
    /// # Errors
    /// The game has no decisions, `n` is 0, not one entry per seat, no learner seat, a
    /// spec that does not build an agent for this game.
    pub fn new(game: G, n: usize, seats: &[Option<&str>]) -> Result<Self, VectorError> {
        if G::num_actions() == 0 {
            return Err(VectorError::NoDecisions {
                game: G::NAME,
                title: G::TITLE,
            });
        }
        if n == 0 {
            return Err(VectorError::Empty);
        }
        if n > MAX_GAMES {
            return Err(VectorError::TooLarge { games: n });
        }
        if seats.len() != game.seats() {
            return Err(VectorError::Seats {
                given: seats.len(),
                seats: game.seats(),
            });
        }
        if seats.iter().all(Option::is_some) {
            return Err(VectorError::NoLearner);
        }
        let mut learner = [false; MAX_SEATS];
        for (seat, spec) in seats.iter().enumerate() {
            learner[seat] = spec.is_none();
            if let Some(spec) = spec {
                stickdice_agents::build_str(spec, &game, 0)
                    .map_err(|error| VectorError::Agent { seat, error })?;
            }
        }
        // Reserved first: memory that is not there is an error, not an abort.
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(n)
            .map_err(|_| VectorError::TooLarge { games: n })?;
        slots.extend((0..n).map(|_| Slot::new(&game)));
        Ok(Batch {
            seed: 0,
            learner,
            specs: seats.iter().map(|s| s.map(str::to_string)).collect(),
            slots,
            parallel: true,
            started: false,
            cap: game.max_throws(),
            recording: false,
            game,
        })
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Never: a batch holds at least one game.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Whether `seat` is the learner's.
    pub fn is_learner(&self, seat: Seat) -> bool {
        self.learner.get(seat).copied().unwrap_or(false)
    }

    /// The seed of game `index`'s current episode (see [`game_seed`]): `stickdice play
    /// --seed` with it throws the same sticks.
    ///
    /// # Panics
    /// If `index` is not below [`Batch::len`].
    pub fn game_seed(&self, index: usize) -> u64 {
        self.slots[index].game_seed
    }

    /// How many episodes game `index` has finished and restarted since the reset.
    ///
    /// # Panics
    /// If `index` is not below [`Batch::len`].
    pub fn episode(&self, index: usize) -> u64 {
        self.slots[index].episode
    }

    /// The state of game `index`.
    ///
    /// # Panics
    /// If `index` is not below [`Batch::len`].
    pub fn state(&self, index: usize) -> &G::State {
        &self.slots[index].state
    }

    /// Spread the games over rayon's threads (the default) or step them on the calling
    /// thread. The results are the same either way.
    pub fn set_parallel(&mut self, parallel: bool) {
        self.parallel = parallel;
    }

    /// Record the learner's actions of the episodes that start from now on (off by
    /// default), so that [`Batch::record`] can give them. A recorded step pushes one byte
    /// per game onto a list kept from episode to episode (it allocates only while a
    /// longer episode than any before grows it).
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
    }

    /// Game `index`'s episode, which has just ended (at the last step: `terminated` or
    /// `truncated`, before the next step restarts it), as the log of the one-game
    /// tournament it is game 0 of (seeded [`log_seed`]; one agent per seat, the learner's
    /// seats labelled [`LEARNER_LABEL`], the others their specs). The arena replays it
    /// from the seeds and the learner's recorded actions, so the events, ranking and
    /// failure are the arena's own and `time_s` is what the agents took in that replay.
    /// `stickdice replay LOG --index 0` replays the log written by [`log_text`].
    ///
    /// # Errors
    /// [`VectorError::Index`], [`VectorError::NotRecorded`] (the episode started while
    /// recording was off), [`VectorError::NotEnded`].
    ///
    /// # Panics
    /// If the replay does not end in the batch's state (a bug).
    pub fn record(&self, index: usize) -> Result<(TournamentConfig, GameRecord), VectorError> {
        let slot = self.slots.get(index).ok_or(VectorError::Index {
            index,
            games: self.slots.len(),
        })?;
        if !slot.recorded {
            return Err(VectorError::NotRecorded { index });
        }
        if !slot.over {
            return Err(VectorError::NotEnded { index });
        }
        let seats = self.game.seats();
        let codes = std::sync::Arc::new(std::sync::Mutex::new(slot.codes.clone().into_iter()));
        let learner: Factory<G> = {
            let codes = std::sync::Arc::clone(&codes);
            stickdice_evaluation::factory(move |_: &G, _| {
                let codes = std::sync::Arc::clone(&codes);
                Box::new(stickdice::agent_fn(
                    LEARNER_LABEL,
                    move |_: &G, _: &G::State| {
                        let code = codes
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .next()
                            .expect("a recorded action for every learner decision");
                        G::decode(code).expect("a recorded code decodes")
                    },
                ))
            })
        };
        let factories: Vec<Factory<G>> = self
            .specs
            .iter()
            .map(|spec| match spec {
                None => std::sync::Arc::clone(&learner),
                Some(spec) => {
                    let spec = spec.clone();
                    stickdice_evaluation::factory(move |game: &G, seed| {
                        stickdice_agents::build_str(&spec, game, seed)
                            .expect("the spec built an agent for this game when the batch was made")
                    })
                }
            })
            .collect();
        let seating: Vec<&Factory<G>> = factories.iter().collect();
        let r = stickdice_evaluation::arena::play(&self.game, &seating, slot.game_seed);
        assert_eq!(
            r.last_state, slot.state,
            "game {index}'s replay ends in the batch's state"
        );
        let log_seed = log_seed(self.seed, index, slot.episode);
        let config = TournamentConfig {
            game: G::NAME.to_string(),
            players: seats,
            options: self
                .game
                .options()
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect(),
            agents: self
                .specs
                .iter()
                .map(|s| s.clone().unwrap_or_else(|| LEARNER_LABEL.to_string()))
                .collect(),
            format: Format::RoundRobin,
            games_per_table: seats,
            seed: log_seed,
            sprt: None,
            description: None,
        };
        let record = r.record(slot.game_seed, (0..seats).collect());
        Ok((config, record))
    }

    /// The most legal actions of a decision: a row of the opt-in legal codes
    /// ([`Out::legal_codes`]). It is the game's [`Game::MAX_ACTIONS`] (at most
    /// [`Encoded::num_actions`], as the codes are distinct), which the conformance suite
    /// checks at every decision; for Issiren 12 (one per piece), against 49 codes.
    pub fn max_actions() -> usize {
        G::MAX_ACTIONS.min(G::num_actions())
    }

    fn sizes(&self) -> Sizes {
        Sizes {
            observation: Encoded::observation_len(&self.game),
            mask: G::num_actions(),
            rewards: self.game.seats(),
            codes: Self::max_actions(),
        }
    }

    fn check(&self, out: &Out<'_>) -> Result<(), VectorError> {
        let n = self.slots.len();
        let sizes = self.sizes();
        for (buffer, got, want) in [
            (
                "observations",
                Some(out.observations.len()),
                n * sizes.observation,
            ),
            ("masks", Some(out.masks.len()), n * sizes.mask),
            ("players", Some(out.players.len()), n),
            ("rewards", Some(out.rewards.len()), n * sizes.rewards),
            ("terminated", Some(out.terminated.len()), n),
            ("truncated", Some(out.truncated.len()), n),
            (
                "legal_codes",
                out.legal_codes.as_ref().map(|b| b.len()),
                n * sizes.codes,
            ),
            (
                "legal_counts",
                out.legal_counts.as_ref().map(|b| b.len()),
                n,
            ),
        ] {
            let Some(got) = got else { continue };
            if got != want {
                return Err(VectorError::Shape {
                    buffer,
                    got,
                    want,
                    games: n,
                });
            }
        }
        Ok(())
    }

    /// Starts every game afresh from `seed` (game `i`'s first episode is seeded
    /// [`game_seed`]`(seed, i, 0)`), plays to every game's first learner decision, and
    /// writes the outputs.
    ///
    /// # Errors
    /// A buffer of the wrong length (nothing changed).
    pub fn reset(&mut self, seed: u64, out: Out<'_>) -> Result<(), VectorError> {
        self.check(&out)?;
        self.seed = seed;
        self.started = true;
        let sizes = self.sizes();
        let Batch {
            game,
            learner,
            specs,
            slots,
            parallel,
            cap,
            recording,
            ..
        } = self;
        let seating = Seating {
            learner,
            specs,
            has_agents: specs.iter().any(Option::is_some),
            seed,
            cap: *cap,
            record: *recording,
        };
        each_slot(slots, *parallel, out, sizes, |i, slot, out| {
            slot.start(game, &seating, i, 0);
            slot.advance(game, &seating);
            slot.write(game, &seating, out);
        });
        Ok(())
    }

    /// Applies `actions[i]` (an action code) to every game `i` that awaits a decision,
    /// restarts every game that ended at the previous step (its action is ignored), plays
    /// on to the next learner decision or the end, and writes the outputs. Before the
    /// first [`Batch::reset`], resets with seed 0.
    ///
    /// # Errors
    /// A buffer of the wrong length, or an action code that is not legal in a game that
    /// awaits a decision: checked for every game before any is stepped, so the batch is
    /// unchanged.
    pub fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), VectorError> {
        let n = self.slots.len();
        if actions.len() != n {
            return Err(VectorError::Shape {
                buffer: "actions",
                got: actions.len(),
                want: n,
                games: n,
            });
        }
        self.check(&out)?;
        if !self.started {
            return self.reset(0, out);
        }
        for (index, (slot, &action)) in self.slots.iter().zip(actions).enumerate() {
            if !slot.over && !slot.is_legal(action) {
                let legal = (0..G::num_actions() as u32)
                    .filter(|&c| slot.is_legal(i64::from(c)))
                    .collect();
                let seat = self.game.node(&slot.state).seat().unwrap_or(0);
                return Err(VectorError::IllegalAction {
                    index,
                    seat,
                    action,
                    legal,
                });
            }
        }
        let sizes = self.sizes();
        let Batch {
            game,
            learner,
            specs,
            slots,
            parallel,
            seed,
            cap,
            recording,
            ..
        } = self;
        let seating = Seating {
            learner,
            specs,
            has_agents: specs.iter().any(Option::is_some),
            seed: *seed,
            cap: *cap,
            record: *recording,
        };
        each_slot(slots, *parallel, out, sizes, |i, slot, out| {
            if slot.over {
                let episode = slot.episode + 1;
                slot.start(game, &seating, i, episode);
            } else {
                let action = G::decode(actions[i] as u32).expect("a legal code decodes");
                if slot.recorded {
                    slot.codes.push(actions[i] as u32);
                }
                slot.apply(game, &seating, action);
            }
            slot.advance(game, &seating);
            slot.write(game, &seating, out);
        });
        Ok(())
    }
}

/// The object-safe face of [`Batch`] that [`VectorEnv`] holds.
trait Env: Send + fmt::Debug {
    fn len(&self) -> usize;
    fn num_actions(&self) -> usize;
    fn max_actions(&self) -> usize;
    fn observation_len(&self) -> usize;
    fn observation_doc(&self) -> &'static str;
    fn seats(&self) -> usize;
    fn is_learner(&self, seat: Seat) -> bool;
    fn game_seed(&self, index: usize) -> u64;
    fn episode(&self, index: usize) -> u64;
    fn save_state(&self, index: usize) -> String;
    fn set_parallel(&mut self, parallel: bool);
    fn set_recording(&mut self, on: bool);
    fn record(&self, index: usize) -> Result<(TournamentConfig, GameRecord), VectorError>;
    fn reset(&mut self, seed: u64, out: Out<'_>) -> Result<(), VectorError>;
    fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), VectorError>;
}

impl<G: Encoded + Evaluate> Env for Batch<G> {
    fn len(&self) -> usize {
        Batch::len(self)
    }
    fn num_actions(&self) -> usize {
        G::num_actions()
    }
    fn max_actions(&self) -> usize {
        Self::max_actions()
    }
    fn observation_len(&self) -> usize {
        Encoded::observation_len(&self.game)
    }
    fn observation_doc(&self) -> &'static str {
        G::observation_doc()
    }
    fn seats(&self) -> usize {
        self.game.seats()
    }
    fn is_learner(&self, seat: Seat) -> bool {
        Batch::is_learner(self, seat)
    }
    fn game_seed(&self, index: usize) -> u64 {
        Batch::game_seed(self, index)
    }
    fn episode(&self, index: usize) -> u64 {
        Batch::episode(self, index)
    }
    fn save_state(&self, index: usize) -> String {
        self.game.save_state(&self.slots[index].state)
    }
    fn set_parallel(&mut self, parallel: bool) {
        Batch::set_parallel(self, parallel);
    }
    fn set_recording(&mut self, on: bool) {
        Batch::set_recording(self, on);
    }
    fn record(&self, index: usize) -> Result<(TournamentConfig, GameRecord), VectorError> {
        Batch::record(self, index)
    }
    fn reset(&mut self, seed: u64, out: Out<'_>) -> Result<(), VectorError> {
        Batch::reset(self, seed, out)
    }
    fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), VectorError> {
        Batch::step(self, actions, out)
    }
}

/// How a game of the list becomes a batch: [`Batch`] where it has an encoding
/// ([`Encoded`], the table [`for_each_encoding!`](crate::for_each_encoding)),
/// [`VectorError::NotEncoded`] where it has not.
pub trait Vectorize: Evaluate {
    /// Whether the game has action codes and observation tensors (the `encode` part of
    /// what a game offers).
    const ENCODED: bool = false;

    /// A batch of `n` games of `self` (see [`Batch::new`]).
    ///
    /// # Errors
    /// As [`Batch::new`]; [`VectorError::NotEncoded`] for a game without an encoding.
    fn vector_env(&self, n: usize, seats: &[Option<&str>]) -> Result<VectorEnv, VectorError> {
        let _ = (n, seats);
        Err(VectorError::NotEncoded {
            game: Self::NAME,
            title: Self::TITLE,
        })
    }
}

macro_rules! vectorize {
    (encoded: [$($ty:ty,)*], missing: [$($no:ty,)*],) => {
        $(
            impl Vectorize for $ty {
                const ENCODED: bool = true;

                fn vector_env(
                    &self,
                    n: usize,
                    seats: &[Option<&str>],
                ) -> Result<VectorEnv, VectorError> {
                    Ok(VectorEnv {
                        inner: Box::new(Batch::new(self.clone(), n, seats)?),
                    })
                }
            }
        )*
        $(impl Vectorize for $no {})*
    };
}
crate::for_each_encoding!(vectorize);

/// A batch of any game of the list (a [`Batch`] of the game inside, so each step is one
/// dynamic call and the games are stepped with static dispatch).
#[derive(Debug)]
pub struct VectorEnv {
    inner: Box<dyn Env>,
}

impl VectorEnv {
    /// `n` games of `game`; `seats[s]` is `None` for the learner's seats and an agent spec
    /// for an opponent's (`Some("greedy")`). See [`Batch::new`].
    ///
    /// # Errors
    /// As [`Batch::new`], and [`VectorError::NotEncoded`].
    pub fn new(game: &AnyGame, n: usize, seats: &[Option<&str>]) -> Result<Self, VectorError> {
        with_game!(game, |g| g.vector_env(n, seats))
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Never: a batch holds at least one game.
    pub fn is_empty(&self) -> bool {
        self.inner.len() == 0
    }

    /// The number of action codes (a mask's length).
    pub fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }

    /// The most legal actions of a decision: the width of a row of the opt-in legal
    /// codes ([`Out::legal_codes`], [`Buffers::with_legal_codes`]); see
    /// [`Batch::max_actions`].
    pub fn max_actions(&self) -> usize {
        self.inner.max_actions()
    }

    /// The length of one game's observation.
    pub fn observation_len(&self) -> usize {
        self.inner.observation_len()
    }

    /// The observation's layout, for people ([`Encoded::observation_doc`]).
    pub fn observation_doc(&self) -> &'static str {
        self.inner.observation_doc()
    }

    /// The game's seat count (a row of rewards).
    pub fn seats(&self) -> usize {
        self.inner.seats()
    }

    /// Whether `seat` is the learner's.
    pub fn is_learner(&self, seat: Seat) -> bool {
        self.inner.is_learner(seat)
    }

    /// The seed of game `index`'s current episode ([`Batch::game_seed`]).
    ///
    /// # Panics
    /// If `index` is not below [`VectorEnv::len`].
    pub fn game_seed(&self, index: usize) -> u64 {
        self.inner.game_seed(index)
    }

    /// Game `index`'s episode number since the reset ([`Batch::episode`]).
    ///
    /// # Panics
    /// If `index` is not below [`VectorEnv::len`].
    pub fn episode(&self, index: usize) -> u64 {
        self.inner.episode(index)
    }

    /// Game `index`'s state as JSON (the core's `save_state`).
    ///
    /// # Panics
    /// If `index` is not below [`VectorEnv::len`].
    pub fn save_state(&self, index: usize) -> String {
        self.inner.save_state(index)
    }

    /// See [`Batch::set_parallel`].
    pub fn set_parallel(&mut self, parallel: bool) {
        self.inner.set_parallel(parallel);
    }

    /// See [`Batch::set_recording`].
    pub fn set_recording(&mut self, on: bool) {
        self.inner.set_recording(on);
    }

    /// See [`Batch::record`].
    ///
    /// # Errors
    /// As [`Batch::record`].
    pub fn record(&self, index: usize) -> Result<(TournamentConfig, GameRecord), VectorError> {
        self.inner.record(index)
    }

    /// Game `index`'s just-ended episode as the text of a tournament log (its header
    /// line and its game line), to write to a file that `stickdice replay FILE --index 0`
    /// replays ([`Batch::record`]).
    ///
    /// # Errors
    /// As [`Batch::record`].
    pub fn replay_log(&self, index: usize) -> Result<String, VectorError> {
        let (config, record) = self.inner.record(index)?;
        Ok(log_text(config, record))
    }

    /// See [`Batch::reset`].
    ///
    /// # Errors
    /// As [`Batch::reset`].
    pub fn reset(&mut self, seed: u64, out: Out<'_>) -> Result<(), VectorError> {
        self.inner.reset(seed, out)
    }

    /// See [`Batch::step`].
    ///
    /// # Errors
    /// As [`Batch::step`].
    pub fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), VectorError> {
        self.inner.step(actions, out)
    }
}

/// A batch game's record ([`Batch::record`]) as the text of its tournament log: the
/// header line, then the game line.
pub fn log_text(config: TournamentConfig, record: GameRecord) -> String {
    let mut text = log::encode(&LogLine::Tournament {
        version: log::LOG_VERSION,
        config,
        program: Some(log::PROGRAM_VERSION.to_string()),
        shard: None,
    });
    text.push_str(&log::encode(&LogLine::Game(record)));
    text
}
