//! The game interface: a rules object ([`Game`]) that answers questions about plain,
//! small, `Copy` states.
//!
//! A game is a tree of three kinds of node ([`Node`]): a **throw** is due (a chance node,
//! whose outcomes and exact probabilities come from [`Game::throw_outcomes`]), a **seat
//! decides** (a decision node, with at least one legal action — a pass when nothing can
//! move), or the game has **ended** (with a [`Ranking`] of the seats).
//!
//! Hot paths ([`Game::node`], [`Game::legal_actions`], [`Game::apply_throw_unchecked`],
//! [`Game::apply_action_unchecked`]) never allocate: states are fixed-size data and action
//! lists live in a caller-owned [`ActionList`] on the stack.

use core::fmt;
use core::hash::Hash;

use rand::Rng;
use smallvec::SmallVec;

use crate::dice::{Outcome, Sticks, Throw};

/// The most seats any game here allows.
pub const MAX_SEATS: usize = 8;

/// The capacity of an [`ActionList`] before it would spill to the heap. The largest
/// decision in any game here is Issiren's: one action per piece, at most 12.
pub const MAX_ACTIONS: usize = 16;

/// A seat at the table, 0-based (shown to people as P1, P2, …). Seat 0 throws first.
pub type Seat = usize;

/// A caller-owned list of legal actions, on the stack.
pub type ActionList<A> = SmallVec<[A; MAX_ACTIONS]>;

/// A value per seat (scores, rewards); entries past the seat count are 0.
pub type SeatValues = [f64; MAX_SEATS];

/// What happens next in a state.
///
/// ```
/// use stickdice::{Game, Issiren, Node};
/// let game = Issiren::with_seats(2).unwrap();
/// let mut state = game.initial_state();
/// assert_eq!(game.node(&state), Node::Throw(0)); // the first seat throws first
/// game.apply_throw(&mut state, "1".parse().unwrap()).unwrap();
/// assert_eq!(game.node(&state).seat(), Some(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// `seat` throws the sticks next (a chance node).
    Throw(Seat),
    /// `seat` chooses an action next (a decision node).
    Decide(Seat),
    /// The game is over.
    End,
}

impl Node {
    /// The seat that throws or decides, if the game goes on.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Node::Throw(s) | Node::Decide(s) => Some(s),
            Node::End => None,
        }
    }
}

/// The final order of the seats. Lower place is better; equal places are ties.
///
/// ```
/// use stickdice::Ranking;
/// // Lower keys rank higher: seat 2 first, seats 1 and 3 tied behind it.
/// let r = Ranking::from_keys(&[5, 1, 5]);
/// assert_eq!(r.to_string(), "P2 > P1 = P3");
/// assert_eq!((r.place(1), r.place(0)), (0, 1));
/// assert_eq!(r.score(1), 1.0); // beat both others
/// assert_eq!(r.score(0), 0.25); // lost to one, tied with one
/// assert!(r.is_sole_winner(1));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ranking {
    places: [u8; MAX_SEATS],
    seats: u8,
}

impl Ranking {
    /// Ranks seats by a sort key each (`keys[s]`, lower is better, equal keys tie).
    /// A seat's place is the number of seats with a strictly better key, so ties share
    /// the better place ("1224" ranking).
    ///
    /// # Panics
    /// If `keys` is empty or longer than [`MAX_SEATS`].
    pub fn from_keys(keys: &[u32]) -> Self {
        assert!(
            !keys.is_empty() && keys.len() <= MAX_SEATS,
            "1 to {MAX_SEATS} seats"
        );
        let mut places = [0u8; MAX_SEATS];
        if let [a, b] = *keys {
            // Two seats (most games, and every random playout's end of them): one
            // comparison each, no loop.
            places[0] = u8::from(b < a);
            places[1] = u8::from(a < b);
        } else {
            for (s, k) in keys.iter().enumerate() {
                places[s] = keys.iter().filter(|other| *other < k).count() as u8;
            }
        }
        Ranking {
            places,
            seats: keys.len() as u8,
        }
    }

    /// The number of seats ranked.
    pub fn seats(&self) -> usize {
        self.seats as usize
    }

    /// The place of `seat`: 0 is first; tied seats share a place.
    pub fn place(&self, seat: Seat) -> usize {
        self.places[seat] as usize
    }

    /// The places of all seats, in seat order.
    pub fn places(&self) -> &[u8] {
        &self.places[..self.seats as usize]
    }

    /// The seat's score: the fraction of the other seats it ranks above, ties counting
    /// half (1 = beat everyone, 0 = beat no one). With one seat, 1.
    pub fn score(&self, seat: Seat) -> f64 {
        let n = self.seats as usize;
        if n == 1 {
            return 1.0;
        }
        let me = self.places[seat];
        let mut points = 0.0;
        for (other, &p) in self.places[..n].iter().enumerate() {
            if other == seat {
                continue;
            }
            if me < p {
                points += 1.0;
            } else if me == p {
                points += 0.5;
            }
        }
        points / (n - 1) as f64
    }

    /// Every seat's score (see [`Ranking::score`]); entries past the seat count are 0.
    pub fn scores(&self) -> SeatValues {
        let mut out = [0.0; MAX_SEATS];
        for (s, v) in out.iter_mut().enumerate().take(self.seats as usize) {
            *v = self.score(s);
        }
        out
    }

    /// Whether `seat` ranks strictly first (above every other seat).
    pub fn is_sole_winner(&self, seat: Seat) -> bool {
        self.places[seat] == 0 && self.places().iter().filter(|&&p| p == 0).count() == 1
    }
}

impl fmt::Debug for Ranking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ranking{:?}", self.places())
    }
}

impl fmt::Display for Ranking {
    /// Seats from best to worst, ties joined by `=`: `P2 > P1 = P3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.seats as usize;
        let mut order: Vec<Seat> = (0..n).collect();
        order.sort_by_key(|&s| (self.places[s], s));
        for (i, &s) in order.iter().enumerate() {
            if i > 0 {
                let sep = if self.places[s] == self.places[order[i - 1]] {
                    " = "
                } else {
                    " > "
                };
                f.write_str(sep)?;
            }
            write!(f, "P{}", s + 1)?;
        }
        Ok(())
    }
}

/// A rule option or seat count that the game does not accept.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// No game has this name.
    UnknownGame {
        /// The name given.
        name: String,
    },
    /// The game does not allow this many seats.
    Players {
        /// The game.
        game: &'static str,
        /// The count asked for.
        players: usize,
        /// The fewest seats allowed.
        min: usize,
        /// The most seats allowed.
        max: usize,
    },
    /// The game allows only some seat counts of its range, and not this one.
    SeatsNotAllowed {
        /// The game.
        game: &'static str,
        /// The count asked for.
        players: usize,
        /// Every count allowed, fewest first.
        allowed: Vec<usize>,
    },
    /// The game has no rule option of this name.
    UnknownOption {
        /// The game.
        game: String,
        /// The key given.
        key: String,
        /// The options the game has.
        known: Vec<String>,
    },
    /// The option exists but the value is not one it takes.
    BadValue {
        /// The option.
        key: String,
        /// The value given.
        value: String,
        /// What the option takes.
        expected: String,
    },
    /// An option was given twice (options are never read "last wins").
    Repeated {
        /// The option.
        key: String,
    },
    /// An option was not written `key=value`.
    Malformed {
        /// The text given.
        text: String,
    },
    /// `game-file` was chosen but no description is loaded (the command line's
    /// `--game-file PATH`, the protocol's `new_game` with a `description`, Python's
    /// `load_game`).
    NoGameFile,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::UnknownGame { name } => {
                // The `game-file` slot is chosen with `--game-file PATH`, not by name.
                let names = crate::GameKind::ALL
                    .iter()
                    .filter(|k| **k != crate::GameKind::GameFile)
                    .map(|k| k.name());
                write!(f, "unknown game `{name}`")?;
                if let Some(near) = crate::config::did_you_mean(name, names.clone()) {
                    write!(f, " (did you mean `{near}`?)")?;
                }
                write!(
                    f,
                    ": the games are {} (names in lower case)",
                    names.collect::<Vec<_>>().join(", ")
                )
            }
            ConfigError::Players {
                game,
                players,
                min,
                max,
            } => {
                if min == max {
                    write!(
                        f,
                        "{game} is played by exactly {min} players, not {players}"
                    )
                } else {
                    write!(
                        f,
                        "{game} is played by {min} to {max} players, not {players}"
                    )
                }
            }
            ConfigError::SeatsNotAllowed {
                game,
                players,
                allowed,
            } => {
                let counts: Vec<String> = allowed.iter().map(ToString::to_string).collect();
                let counts = match counts.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => counts.join(""),
                };
                write!(f, "{game} is played by {counts} players, not {players}")
            }
            ConfigError::UnknownOption { game, key, known } => {
                write!(f, "{game} has no rule option `{key}`")?;
                if let Some(near) =
                    crate::config::did_you_mean(key, known.iter().map(String::as_str))
                {
                    write!(f, " (did you mean `{near}`?)")?;
                }
                write!(f, "; its options are: {}", known.join(", "))
            }
            ConfigError::BadValue {
                key,
                value,
                expected,
            } => write!(f, "rule option `{key}` takes {expected}, not `{value}`"),
            ConfigError::Repeated { key } => {
                write!(
                    f,
                    "rule option `{key}` is given twice: give each option once"
                )
            }
            ConfigError::Malformed { text } => {
                write!(f, "`{text}` is not a rule option: write key=value")
            }
            ConfigError::NoGameFile => write!(
                f,
                "game-file plays a description loaded from a file, and none is loaded: \
                 give --game-file PATH (the protocol: new_game with a description; \
                 Python: stickdice.load_game)"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// An action that is not legal in the state it was applied to. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The game is over.
    GameOver,
    /// A throw is due, not a decision.
    ThrowDue {
        /// The seat that must throw.
        seat: Seat,
    },
    /// A decision is due, not a throw.
    DecisionDue {
        /// The seat that must decide.
        seat: Seat,
    },
    /// The action is not among the legal ones.
    NotLegal {
        /// The action, in notation.
        action: String,
        /// The legal actions, in notation.
        legal: Vec<String>,
    },
    /// The throw is not one the game's sticks can show.
    ImpossibleThrow {
        /// The throw given.
        throw: Throw,
        /// The number of sticks.
        sticks: u8,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => write!(f, "the game is over"),
            IllegalMove::ThrowDue { seat } => {
                write!(
                    f,
                    "P{} must throw the sticks now, not choose an action",
                    seat + 1
                )
            }
            IllegalMove::DecisionDue { seat } => {
                write!(f, "P{} must choose an action now, not throw", seat + 1)
            }
            IllegalMove::NotLegal { action, legal } => write!(
                f,
                "`{action}` is not a legal action here; the legal actions are: {}",
                legal.join(", ")
            ),
            IllegalMove::ImpossibleThrow { throw, sticks } => write!(
                f,
                "{throw} marked sides up is impossible with {sticks} sticks"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// An action in notation that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// The text given.
    pub text: String,
    /// What the notation looks like.
    pub expected: &'static str,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not an action: expected {}",
            self.text, self.expected
        )
    }
}

impl std::error::Error for NotationError {}

/// A state that breaks the game's invariants: every problem found, in the order the game's
/// [`Game::validate`] checks them.
///
/// Each [`Problem`] is either one of the game's own typed kinds (an enum of the game's
/// module, such as [`crate::games::issiren::Problem`], with the seat, piece, square or
/// value concerned), which a caller reads back with [`Problem::kind`], or a plain
/// sentence ([`Problem::other`]) for a game that has not typed its problems.
///
/// ```
/// use stickdice::games::issiren::{self, Issiren};
/// use stickdice::{Game, LoadStateError};
/// let game = Issiren::with_seats(2).unwrap();
/// // Loading checks the state with `Game::validate`.
/// let Err(LoadStateError::Invalid(err)) =
///     game.load_state(r#"{"pieces": [[{"pos": 3}], []], "turn": 5}"#)
/// else {
///     panic!("the state breaks the rules");
/// };
/// assert!(matches!(
///     err.problems()[0].kind(),
///     Some(issiren::Problem::TurnOutOfRange { turn: 5 })
/// ));
/// assert_eq!(
///     err.to_string(),
///     "invalid state: turn seat 5 is out of range: Issiren has seats 0 (P1) and 1 (P2)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidState {
    problems: Vec<Problem>,
}

impl InvalidState {
    /// `Ok` if no problem was found, else the list, each problem given as a sentence
    /// ([`Problem::other`]).
    ///
    /// This is the untyped form, kept for games that describe their problems in words only;
    /// a game that types its problems collects them in [`Problems`] instead (see
    /// [`ProblemKind`]).
    pub fn check(problems: Vec<String>) -> Result<(), InvalidState> {
        Problems(problems.into_iter().map(Problem::other).collect()).finish()
    }

    /// The problems found (never empty), in the order they were found.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Each problem's sentence, as [`InvalidState`]'s message lists them.
    pub fn messages(&self) -> Vec<String> {
        self.problems.iter().map(Problem::to_string).collect()
    }

    /// The problems of a kind `K`, in order (for matching on one game's kinds).
    pub fn kinds<K: ProblemKind>(&self) -> impl Iterator<Item = &K> + '_ {
        self.problems.iter().filter_map(Problem::kind::<K>)
    }
}

impl fmt::Display for InvalidState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid state: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InvalidState {}

/// A game's own kind of state problem: typically a `#[non_exhaustive]` enum in the game's
/// module whose variants carry the seat, piece, square or value concerned, and whose
/// `Display` is the sentence [`InvalidState`] shows.
///
/// Implementing it (one empty `impl`) lets the kind go into a [`Problem`] (`From`) and be
/// read back with [`Problem::kind`]:
///
/// ```
/// use stickdice::game::{InvalidState, Problem, ProblemKind, Problems};
///
/// #[derive(Clone, Debug, PartialEq, Eq)]
/// #[non_exhaustive]
/// enum MyProblem {
///     TooFar { seat: usize, square: u8 },
/// }
/// impl std::fmt::Display for MyProblem {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         match self {
///             MyProblem::TooFar { seat, square } => {
///                 write!(f, "P{}'s piece is at idx {square}, off the track", seat + 1)
///             }
///         }
///     }
/// }
/// impl ProblemKind for MyProblem {}
///
/// let mut problems = Problems::new();
/// problems.push(MyProblem::TooFar { seat: 1, square: 40 });
/// problems.push("a sentence is a problem too".to_string());
/// let err: InvalidState = problems.finish().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "invalid state: P2's piece is at idx 40, off the track; a sentence is a problem too"
/// );
/// assert_eq!(
///     err.problems()[0].kind::<MyProblem>(),
///     Some(&MyProblem::TooFar { seat: 1, square: 40 })
/// );
/// assert_eq!(err.problems()[1].as_other(), Some("a sentence is a problem too"));
/// ```
pub trait ProblemKind: fmt::Display + fmt::Debug + PartialEq + Send + Sync + 'static {}

/// The object-safe side of [`ProblemKind`] (comparison and downcasting through `Any`).
trait DynProblem: fmt::Display + fmt::Debug + Send + Sync {
    fn as_any(&self) -> &dyn core::any::Any;
    fn eq_dyn(&self, other: &dyn DynProblem) -> bool;
}

impl<K: ProblemKind> DynProblem for K {
    fn as_any(&self) -> &dyn core::any::Any {
        self
    }
    fn eq_dyn(&self, other: &dyn DynProblem) -> bool {
        other.as_any().downcast_ref::<K>() == Some(self)
    }
}

/// One broken invariant of a state: one of a game's own [`ProblemKind`]s, or a sentence.
///
/// Its `Display` is the sentence; [`Problem::kind`] gives the typed kind back.
#[derive(Clone)]
pub struct Problem(ProblemRepr);

#[derive(Clone)]
enum ProblemRepr {
    Kind(std::sync::Arc<dyn DynProblem>),
    Other(String),
}

impl Problem {
    /// A problem given as a sentence only: the generic kind, for games (and callers) without
    /// typed problems.
    pub fn other(text: impl Into<String>) -> Problem {
        Problem(ProblemRepr::Other(text.into()))
    }

    /// The problem as the kind `K`, if it is one (for example
    /// `problem.kind::<stickdice::games::issiren::Problem>()`).
    pub fn kind<K: ProblemKind>(&self) -> Option<&K> {
        match &self.0 {
            ProblemRepr::Kind(k) => k.as_any().downcast_ref::<K>(),
            ProblemRepr::Other(_) => None,
        }
    }

    /// The sentence of a problem made with [`Problem::other`] (`None` for a typed kind).
    pub fn as_other(&self) -> Option<&str> {
        match &self.0 {
            ProblemRepr::Other(text) => Some(text),
            ProblemRepr::Kind(_) => None,
        }
    }
}

impl<K: ProblemKind> From<K> for Problem {
    fn from(kind: K) -> Problem {
        Problem(ProblemRepr::Kind(std::sync::Arc::new(kind)))
    }
}

impl From<String> for Problem {
    fn from(text: String) -> Problem {
        Problem::other(text)
    }
}

impl From<&str> for Problem {
    fn from(text: &str) -> Problem {
        Problem::other(text)
    }
}

impl PartialEq for Problem {
    fn eq(&self, other: &Problem) -> bool {
        match (&self.0, &other.0) {
            (ProblemRepr::Kind(a), ProblemRepr::Kind(b)) => a.eq_dyn(&**b),
            (ProblemRepr::Other(a), ProblemRepr::Other(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Problem {}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            ProblemRepr::Kind(k) => fmt::Display::fmt(&**k, f),
            ProblemRepr::Other(text) => f.write_str(text),
        }
    }
}

impl fmt::Debug for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            ProblemRepr::Kind(k) => fmt::Debug::fmt(&**k, f),
            ProblemRepr::Other(text) => f.debug_tuple("Other").field(text).finish(),
        }
    }
}

/// The problems a [`Game::validate`] has found so far: push each (a game's
/// [`ProblemKind`] or a sentence) and [`finish`](Problems::finish).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems(Vec<Problem>);

impl Problems {
    /// No problem yet.
    pub fn new() -> Problems {
        Problems(Vec::new())
    }

    /// Records one problem.
    pub fn push(&mut self, problem: impl Into<Problem>) {
        self.0.push(problem.into());
    }

    /// Whether no problem was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok` if no problem was found, else [`InvalidState`] listing them.
    pub fn finish(self) -> Result<(), InvalidState> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(InvalidState { problems: self.0 })
        }
    }
}

#[cfg(feature = "serde")]
mod serde_bound {
    /// Serde support, required of states and actions when the `serde` feature is on.
    pub trait MaybeSerde: serde::Serialize + serde::de::DeserializeOwned {}
    impl<T: serde::Serialize + serde::de::DeserializeOwned> MaybeSerde for T {}
}
#[cfg(not(feature = "serde"))]
mod serde_bound {
    /// Serde support, required of states and actions when the `serde` feature is on.
    pub trait MaybeSerde {}
    impl<T> MaybeSerde for T {}
}
pub use serde_bound::MaybeSerde;

/// The rules of one game, with its rule options and seat count, answering questions about
/// states.
///
/// Required methods are the rules; provided methods are correct by default and built on
/// them. Implementations must keep the hot-path methods allocation-free. The playout speed
/// hooks are not here: they are the second trait, [`Playouts`], whose every method has a
/// default built on this one, so a game is complete and correct with its rules alone.
///
/// | | methods |
/// |---|---|
/// | **the rules** (required) | [`with_seats`](Game::with_seats), the rule options' table [`option_specs`](Game::option_specs) with [`set_option`](Game::set_option) and [`options`](Game::options) (all three written by [`rule_options!`](crate::rule_options)), [`seats`](Game::seats); what a node is: [`initial_state`](Game::initial_state), [`node`](Game::node), [`sticks`](Game::sticks) (the throw's outcomes); the actions: [`legal_actions`](Game::legal_actions), [`apply_throw_unchecked`](Game::apply_throw_unchecked), [`apply_action_unchecked`](Game::apply_action_unchecked); the end: [`ranking`](Game::ranking), [`throws_made`](Game::throws_made); notation: [`parse_action`](Game::parse_action) (with the action's `Display`); states from outside: [`validate`](Game::validate) |
/// | **built on the rules** (provided) | overridden where a game answers faster or knows more: [`set_options`](Game::set_options) (by the described games, which compile their description once for all the options), [`max_throws`](Game::max_throws) (by Sig (El Oued Capture), Siryu (Race), Siryu (War), Sig wa Duqqan (Houmt Taourit), which read their field; the others answer from [`options`](Game::options)); no game overrides the rest: [`throw_outcomes`](Game::throw_outcomes), [`max_throw_outcomes`](Game::max_throw_outcomes), [`is_over`](Game::is_over), [`scores`](Game::scores), [`check_throw`](Game::check_throw), [`apply_throw`](Game::apply_throw), [`check_action`](Game::check_action), [`apply_action`](Game::apply_action), [`sample_throw`](Game::sample_throw), [`save_state`](Game::save_state), [`load_state`](Game::load_state), [`state_key`](Game::state_key) |
/// | **speed** (trait [`Playouts`], defaults built on the rules) | [`play_throws`](Playouts::play_throws), [`random_action`](Playouts::random_action), [`play_random_action`](Playouts::play_random_action), [`play_random_to_end`](Playouts::play_random_to_end), [`play_legal_action`](Playouts::play_legal_action) |
/// | **for people** (trait [`Present`](crate::Present), required of every game of the list) | [`render`](crate::Present::render) (the board as text), [`describe_throw`](crate::Present::describe_throw) (a throw in the game's words); the drawing is the trait [`Board`](crate::Board) |
///
/// Every game is driven the same way: ask [`Game::node`] what comes next, feed in a throw
/// at a throw node (sampled here, or from real sticks), an action at a decision node, and
/// read the [`Ranking`] at the end.
///
/// ```
/// use stickdice::{ActionList, Game, Node, SeedableRng, SigElOued};
///
/// fn play_first_legal<G: Game>(game: &G, seed: u64) -> stickdice::Ranking {
///     let mut dice = stickdice::Rng::seed_from_u64(seed);
///     let mut state = game.initial_state();
///     let mut legal = ActionList::new();
///     loop {
///         match game.node(&state) {
///             Node::Throw(_) => {
///                 let throw = game.sample_throw(&mut dice);
///                 game.apply_throw(&mut state, throw).unwrap();
///             }
///             Node::Decide(_) => {
///                 game.legal_actions(&state, &mut legal);
///                 game.apply_action(&mut state, legal[0]).unwrap();
///             }
///             Node::End => return game.ranking(&state).unwrap(),
///         }
///     }
/// }
/// let ranking = play_first_legal(&SigElOued::with_seats(3).unwrap(), 1);
/// assert_eq!(ranking.seats(), 3);
/// ```
pub trait Game: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// A position, plus whatever the rules need to remember (whose turn, pending throws,
    /// the throw count). Plain fixed-size data.
    type State: Copy + fmt::Debug + PartialEq + Eq + Hash + Send + Sync + MaybeSerde + 'static;
    /// A choice at a decision node. Its `Display` is its notation, read back by
    /// [`Game::parse_action`].
    type Action: Copy
        + fmt::Debug
        + fmt::Display
        + PartialEq
        + Eq
        + Hash
        + Send
        + Sync
        + MaybeSerde
        + 'static;

    /// The game's name on the command line (`sig-wa-duqqan`, …).
    const NAME: &'static str;
    /// The game's name for people.
    const TITLE: &'static str;
    /// The most legal actions any decision node can have.
    const MAX_ACTIONS: usize;
    /// The fewest and most seats the game allows.
    const SEATS: (usize, usize);
    /// The game's rule options, one typed table: each option's name, values, default and
    /// help ([`OptionSpec`](crate::options::OptionSpec)). Everything else about options
    /// is derived from it; a game written in Rust declares it with
    /// [`rule_options!`](crate::rule_options), which also writes
    /// [`set_option`](Game::set_option) and [`options`](Game::options).
    fn option_specs() -> &'static [crate::options::OptionSpec<'static>]
    where
        Self: Sized;

    /// The seat count played when none is given: the fewest ([`Game::SEATS`]) unless the
    /// rules say otherwise (a description's `seats.default`).
    fn default_seats() -> usize
    where
        Self: Sized,
    {
        Self::SEATS.0
    }

    /// The game with default rules for `seats` players.
    ///
    /// # Errors
    /// [`ConfigError::Players`] if the game does not allow that many seats
    /// ([`ConfigError::SeatsNotAllowed`] if it allows only some of its range).
    fn with_seats(seats: usize) -> Result<Self, ConfigError>;

    /// Sets a rule option from text, read by its entry of
    /// [`option_specs`](Game::option_specs). On error, nothing changes.
    ///
    /// # Errors
    /// [`ConfigError::UnknownOption`] or [`ConfigError::BadValue`].
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ConfigError>;

    /// Sets several rule options from `(name, value)` pairs, all read by
    /// [`options::parse_options`](crate::options::parse_options) before any is set: on
    /// error, nothing changes.
    ///
    /// # Errors
    /// [`ConfigError::UnknownOption`], [`ConfigError::BadValue`], or
    /// [`ConfigError::Repeated`] for an option given twice.
    fn set_options(&mut self, pairs: &[(&str, &str)]) -> Result<(), ConfigError>
    where
        Self: Sized,
    {
        crate::options::parse_options(Self::NAME, Self::option_specs(), pairs.iter().copied())?;
        let mut next = self.clone();
        for (key, value) in pairs {
            next.set_option(key, value)?;
        }
        *self = next;
        Ok(())
    }

    /// Every rule option with its current value, as `set_option` reads it.
    fn options(&self) -> Vec<(&'static str, String)>;

    /// The number of seats.
    fn seats(&self) -> usize;

    /// This game's name on the command line: [`Game::NAME`], except for a game whose
    /// rules come from a file loaded at run time
    /// ([`FileGame`](crate::described::FileGame)), which answers its description's name.
    fn name(&self) -> &'static str {
        Self::NAME
    }

    /// This game's name for people: [`Game::TITLE`], or a loaded description's title.
    fn title(&self) -> &'static str {
        Self::TITLE
    }

    /// The description loaded at run time that this game plays (`None` but for
    /// [`FileGame`](crate::described::FileGame)): logs record it.
    fn loaded_description(&self) -> Option<&'static crate::described::file::Loaded> {
        None
    }

    /// The throw cap: the `max_throws` rule option (read from [`Game::options`] by
    /// default; a game may answer it from its field, see the table of [`Game`]).
    fn max_throws(&self) -> u32 {
        self.options()
            .iter()
            .find(|(k, _)| *k == "max_throws")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(crate::config::DEFAULT_MAX_THROWS)
    }

    /// The state before the first throw.
    fn initial_state(&self) -> Self::State;

    /// What happens next.
    fn node(&self, state: &Self::State) -> Node;

    /// The sticks thrown at a throw node.
    fn sticks(&self) -> Sticks;

    /// The legal actions at a decision node, appended to `out` after clearing it. Never
    /// empty at a decision node; empty elsewhere.
    fn legal_actions(&self, state: &Self::State, out: &mut ActionList<Self::Action>);

    /// Applies a throw at a throw node, with everything it causes up to the next node.
    /// The caller guarantees the node is a throw and the throw possible; otherwise the
    /// result is unspecified (but memory-safe).
    fn apply_throw_unchecked(&self, state: &mut Self::State, throw: Throw);

    /// Applies a legal action at a decision node. The caller guarantees legality.
    fn apply_action_unchecked(&self, state: &mut Self::State, action: Self::Action);

    /// The ranking, once the game has ended.
    fn ranking(&self, state: &Self::State) -> Option<Ranking>;

    /// The number of throws made so far in the game (bonus throws included).
    fn throws_made(&self, state: &Self::State) -> u32;

    /// Reads an action from notation.
    ///
    /// # Errors
    /// [`NotationError`] naming the text and the expected form.
    fn parse_action(&self, text: &str) -> Result<Self::Action, NotationError>;

    /// Checks a state (for example one loaded from a file) against every invariant.
    ///
    /// # Errors
    /// [`InvalidState`] listing every problem found.
    fn validate(&self, state: &Self::State) -> Result<(), InvalidState>;

    // ---- provided -------------------------------------------------------------------

    /// The possible throws at a throw node with their exact probabilities (all positive,
    /// summing to exactly 1).
    #[inline]
    fn throw_outcomes(&self) -> &'static [Outcome] {
        self.sticks().outcomes()
    }

    /// The most outcomes a throw node can have (a static bound: one per possible count of
    /// marked sides).
    #[inline]
    fn max_throw_outcomes(&self) -> usize {
        self.sticks().count() as usize + 1
    }

    /// Whether the game has ended.
    #[inline]
    fn is_over(&self, state: &Self::State) -> bool {
        self.node(state) == Node::End
    }

    /// Each seat's score at the end (see [`Ranking::score`]).
    fn scores(&self, state: &Self::State) -> Option<SeatValues> {
        self.ranking(state).map(|r| r.scores())
    }

    /// Checks that `throw` may be applied now.
    ///
    /// # Errors
    /// [`IllegalMove`] if no throw is due or the sticks cannot show it.
    fn check_throw(&self, state: &Self::State, throw: Throw) -> Result<(), IllegalMove> {
        match self.node(state) {
            Node::End => Err(IllegalMove::GameOver),
            Node::Decide(seat) => Err(IllegalMove::DecisionDue { seat }),
            Node::Throw(_) if !self.sticks().can_show(throw) => Err(IllegalMove::ImpossibleThrow {
                throw,
                sticks: self.sticks().count(),
            }),
            Node::Throw(_) => Ok(()),
        }
    }

    /// Applies a throw after checking it; on error the state is unchanged.
    ///
    /// # Errors
    /// See [`Game::check_throw`].
    fn apply_throw(&self, state: &mut Self::State, throw: Throw) -> Result<(), IllegalMove> {
        self.check_throw(state, throw)?;
        self.apply_throw_unchecked(state, throw);
        Ok(())
    }

    /// Checks that `action` is legal now.
    ///
    /// # Errors
    /// [`IllegalMove`] if no decision is due or the action is not legal.
    fn check_action(&self, state: &Self::State, action: Self::Action) -> Result<(), IllegalMove> {
        match self.node(state) {
            Node::End => Err(IllegalMove::GameOver),
            Node::Throw(seat) => Err(IllegalMove::ThrowDue { seat }),
            Node::Decide(_) => {
                let mut legal = ActionList::new();
                self.legal_actions(state, &mut legal);
                if legal.contains(&action) {
                    Ok(())
                } else {
                    Err(IllegalMove::NotLegal {
                        action: action.to_string(),
                        legal: legal.iter().map(|a| a.to_string()).collect(),
                    })
                }
            }
        }
    }

    /// Applies an action after checking it; on error the state is unchanged.
    ///
    /// # Errors
    /// See [`Game::check_action`].
    fn apply_action(
        &self,
        state: &mut Self::State,
        action: Self::Action,
    ) -> Result<(), IllegalMove> {
        self.check_action(state, action)?;
        self.apply_action_unchecked(state, action);
        Ok(())
    }

    /// Throws the sticks with `rng` (a helper on top of the exact distribution: each stick
    /// is one uniformly random bit).
    #[inline]
    fn sample_throw<R: Rng + ?Sized>(&self, rng: &mut R) -> Throw
    where
        Self: Sized,
    {
        self.sticks().throw_from_bits(rng.next_u64())
    }

    /// Writes a state as JSON (the form [`Game::load_state`] reads); the same as
    /// [`crate::save_state`], with the game naming the state's type.
    ///
    /// ```
    /// use stickdice::{Game, Issiren};
    /// let game = Issiren::with_seats(2).unwrap();
    /// let state = game.initial_state();
    /// let json = game.save_state(&state);
    /// assert_eq!(game.load_state(&json).unwrap(), state);
    /// ```
    #[cfg(feature = "serde")]
    fn save_state(&self, state: &Self::State) -> String {
        crate::save_state::<Self>(state)
    }

    /// Loads a state from JSON and validates it against the game ([`crate::load_state`]).
    ///
    /// # Errors
    /// [`crate::LoadStateError`]: malformed JSON or a field of the wrong shape, or every
    /// broken invariant ([`Game::validate`]).
    #[cfg(feature = "serde")]
    fn load_state(&self, json: &str) -> Result<Self::State, crate::LoadStateError> {
        crate::load_state(self, json)
    }

    /// A 64-bit key of the state for transposition tables (equal states, equal keys;
    /// stable within one build of the library).
    fn state_key(&self, state: &Self::State) -> u64 {
        ahash::RandomState::with_seeds(
            0x243f_6a88_85a3_08d3,
            0x1319_8a2e_0370_7344,
            0xa409_3822_299f_31d0,
            0x082e_fa98_ec4e_6c89,
        )
        .hash_one(state)
    }
}

/// The playout speed hooks: ways to play random throws and decisions faster than the rules'
/// step-by-step path, with the same draws, actions and states.
///
/// Every method has a default built on [`Game`] alone, so a new game is complete and
/// correct with an empty `impl Playouts for MyGame {}`; it adds a faster version later, and
/// the tests compare it with the default (see `play_throws_plays_exactly_the_throw_by_throw_loop`
/// in the existing games). Random playouts ([`crate::play::random_playout`]) and the
/// searches' playouts run on these.
///
/// | method | default | overridden by |
/// |---|---|---|
/// | [`Playouts::play_throws`] | [`Game::node`] + [`Game::apply_throw_unchecked`] until a decision | Sig wa Duqqan, Sig (El Oued), Sig wa Duqqan (Houmt Taourit) |
/// | [`Playouts::random_action`] | list the legal actions, pick by index | Issiren, Sig (El Oued Capture), Siryu (War), the described games (drawing pieces) |
/// | [`Playouts::play_random_action`] | `random_action` + apply | Issiren, Sig (El Oued Capture), Siryu (War), the described games |
/// | [`Playouts::play_random_to_end`] | alternate the two above to the end | Issiren, Sig (El Oued Capture), Siryu (Race), Siryu (War), the plain described games |
/// | [`Playouts::play_legal_action`] | list, index, apply | Issiren, Siryu (War), the described games (into a buffer of their most actions) |
pub trait Playouts: Game {
    /// Throws the sticks with `throw` at every throw node until a decision is due or the
    /// game ends, and returns that node ([`Node::Decide`] or [`Node::End`]). The same as
    /// looping over [`Game::node`] and [`Game::apply_throw_unchecked`], which is what it
    /// does unless a game with long runs of throws (Sig wa Duqqan has nothing else) does it
    /// faster. Random playouts run on it.
    ///
    /// ```
    /// use stickdice::{Playouts, Game, Node, SeedableRng, SigWaDuqqan};
    /// let game = SigWaDuqqan::with_seats(2).unwrap();
    /// let mut dice = stickdice::Rng::seed_from_u64(1);
    /// let mut state = game.initial_state();
    /// assert_eq!(game.play_throws(&mut state, || game.sample_throw(&mut dice)), Node::End);
    /// assert!(game.ranking(&state).is_some());
    /// ```
    #[inline]
    fn play_throws(&self, state: &mut Self::State, mut throw: impl FnMut() -> Throw) -> Node
    where
        Self: Sized,
    {
        loop {
            match self.node(state) {
                Node::Throw(_) => {
                    let t = throw();
                    self.apply_throw_unchecked(state, t);
                }
                other => return other,
            }
        }
    }

    /// A uniformly random legal action at a decision node: every legal action equally
    /// likely, with `index(len)` a uniformly random index below `len`. By default the
    /// legal actions are listed in `actions` and one is picked by index (none drawn when
    /// there is only one); a game may pick without listing them, drawing other indices
    /// (Issiren draws a piece and tries again when it cannot move), so the random
    /// stream differs between games but never the distribution. Random playouts run on it.
    ///
    /// ```
    /// use stickdice::{Playouts, ActionList, Game, Issiren, SeedableRng};
    /// use stickdice::rand::RngExt as _;
    /// let game = Issiren::with_seats(2).unwrap();
    /// let mut rng = stickdice::Rng::seed_from_u64(1);
    /// let mut state = game.initial_state();
    /// game.apply_throw(&mut state, "4".parse().unwrap()).unwrap();
    /// let mut actions = ActionList::new();
    /// let a = game.random_action(&state, &mut actions, |len| rng.random_range(0..len));
    /// assert_eq!(a.to_string(), "a1"); // the only piece that can leave the start
    /// ```
    #[inline]
    fn random_action(
        &self,
        state: &Self::State,
        actions: &mut ActionList<Self::Action>,
        mut index: impl FnMut(usize) -> usize,
    ) -> Self::Action
    where
        Self: Sized,
    {
        self.legal_actions(state, actions);
        if actions.len() == 1 {
            actions[0]
        } else {
            actions[index(actions.len())]
        }
    }

    /// Chooses a uniformly random legal action as [`Playouts::random_action`] does (the same
    /// draws of `index`, the same action) and applies it; returns it. A game may do both
    /// in one step (Issiren moves the piece it drew without looking for it again). Random
    /// playouts run on it.
    ///
    /// ```
    /// use stickdice::{Playouts, ActionList, Game, Issiren, SeedableRng};
    /// use stickdice::rand::RngExt as _;
    /// let game = Issiren::with_seats(2).unwrap();
    /// let mut state = game.initial_state();
    /// game.apply_throw(&mut state, "4".parse().unwrap()).unwrap();
    /// let mut actions = ActionList::new();
    /// let mut rng = stickdice::Rng::seed_from_u64(1);
    /// let mut expected = state;
    /// let a = game.play_random_action(&mut state, &mut actions, |len| rng.random_range(0..len));
    /// game.apply_action(&mut expected, a).unwrap();
    /// assert_eq!(state, expected);
    /// ```
    #[inline]
    fn play_random_action(
        &self,
        state: &mut Self::State,
        actions: &mut ActionList<Self::Action>,
        index: impl FnMut(usize) -> usize,
    ) -> Self::Action
    where
        Self: Sized,
    {
        let a = self.random_action(state, actions, index);
        self.apply_action_unchecked(state, a);
        a
    }

    /// Plays `state` to the end with random throws and uniformly random decisions: each
    /// throw is `bits.throw(rng, self.sticks())`, each decision
    /// [`Playouts::play_random_action`] with `bits.index(rng, len)`. The same as alternating
    /// [`Playouts::play_throws`] and [`Playouts::play_random_action`] until [`Node::End`], which is
    /// what it does unless a game does it faster with the same draws and states (Issiren
    /// plays each throw and its decision in one loop). [`crate::play::random_playout`]
    /// runs on it.
    ///
    /// ```
    /// use stickdice::play::RandomBits;
    /// use stickdice::{Playouts, Game, Issiren, SeedableRng};
    /// let game = Issiren::with_seats(2).unwrap();
    /// let mut rng = stickdice::Rng::seed_from_u64(5);
    /// let mut state = game.initial_state();
    /// game.play_random_to_end(&mut state, &mut RandomBits::new(), &mut rng);
    /// assert!(game.is_over(&state));
    /// ```
    #[inline]
    fn play_random_to_end<R: Rng + ?Sized>(
        &self,
        state: &mut Self::State,
        bits: &mut crate::play::RandomBits,
        rng: &mut R,
    ) where
        Self: Sized,
    {
        crate::play::random_to_end_step_by_step(self, state, bits, rng);
    }

    /// At a decision node, applies the legal action at `index(len)` of the `len` actions
    /// [`Game::legal_actions`] lists (no draw when there is only one) and returns it: the
    /// same draws, action and state as listing them, indexing and
    /// [`Game::apply_action_unchecked`]. A game may do it without the list (Issiren counts
    /// the pieces that can move and moves the chosen one by its index). Searches' random
    /// playout moves run on it.
    ///
    /// # Panics
    /// If no action is legal (not a decision node).
    ///
    /// ```
    /// use stickdice::{Playouts, ActionList, Game, Issiren};
    /// let game = Issiren::with_seats(2).unwrap();
    /// let mut state = game.initial_state();
    /// game.apply_throw(&mut state, "4".parse().unwrap()).unwrap();
    /// let mut actions = ActionList::new();
    /// let a = game.play_legal_action(&mut state, &mut actions, |_| unreachable!("one action"));
    /// assert_eq!(a.to_string(), "a1"); // the only piece that can leave the start
    /// assert_eq!(state.pending(), None);
    /// ```
    #[inline]
    fn play_legal_action(
        &self,
        state: &mut Self::State,
        actions: &mut ActionList<Self::Action>,
        mut index: impl FnMut(usize) -> usize,
    ) -> Self::Action
    where
        Self: Sized,
    {
        self.legal_actions(state, actions);
        let a = if actions.len() == 1 {
            actions[0]
        } else {
            actions[index(actions.len())]
        };
        self.apply_action_unchecked(state, a);
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_the_fraction_of_seats_ranked_below() {
        let r = Ranking::from_keys(&[2, 0, 2, 5]);
        assert_eq!(r.places(), &[1, 0, 1, 3]);
        assert_eq!(r.score(1), 1.0);
        assert_eq!(r.score(0), 1.5 / 3.0);
        assert_eq!(r.score(2), 1.5 / 3.0);
        assert_eq!(r.score(3), 0.0);
        assert_eq!(r.to_string(), "P2 > P1 = P3 > P4");
        let two = Ranking::from_keys(&[7, 7]);
        assert_eq!((two.score(0), two.score(1)), (0.5, 0.5));
        assert!(!two.is_sole_winner(0));
    }

    /// Two seats' places (compared directly) are the seats with a strictly better key.
    #[test]
    fn two_seats_place_by_the_better_key() {
        for (a, b) in [(0, 0), (0, 1), (1, 0), (5, 5), (u32::MAX, 0), (3, u32::MAX)] {
            let r = Ranking::from_keys(&[a, b]);
            assert_eq!(r.places(), &[u8::from(b < a), u8::from(a < b)], "{a} {b}");
            assert_eq!(r.seats(), 2);
            assert_eq!(
                r.places,
                [u8::from(b < a), u8::from(a < b), 0, 0, 0, 0, 0, 0]
            );
        }
    }
}
