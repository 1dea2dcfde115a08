//! The games, and **the one list of them** ([`for_each_game!`](crate::for_each_game)).
//!
//! Every front end — [`GameKind`](crate::GameKind), [`AnyGame`](crate::AnyGame) and
//! [`with_game!`](crate::with_game), `stickdice games` and every command's `--game`, the
//! protocol, the Python package, the web page, the conformance suite — is generated from
//! the list in [`for_each_game!`](crate::for_each_game), so a game is one module here plus
//! one line there. See the book's chapter "Adding a game".

mod common;
pub(crate) mod duqqan;
pub mod houmt_taourit;
pub mod issiren;
pub mod sig_el_oued;
pub mod sig_el_oued_capture;
mod sig_throws;
pub mod sig_wa_duqqan;
pub mod siryu_race;
pub mod siryu_war;

pub use houmt_taourit::HoumtTaourit;
pub use issiren::Issiren;
pub use sig_el_oued::SigElOued;
pub use sig_el_oued_capture::SigElOuedCapture;
pub use sig_wa_duqqan::SigWaDuqqan;
pub use siryu_race::SiryuRace;
pub use siryu_war::SiryuWar;

/// **The list of games.** Calls `callback!` with every game, one line each:
/// `Variant: path::to::Type,`, in the order of `stickdice games`.
///
/// The list names games only. Every game of it has the rules ([`Game`](crate::Game),
/// [`Playouts`](crate::Playouts)) and its drawing ([`Board`](crate::Board)), which the
/// list demands of it. What else a game offers is
/// registered beside the code that provides it, by the crate that owns that code, and
/// asked of that crate:
///
/// | part | what it is | where it lives, and who answers | without it |
/// |---|---|---|---|
/// | `evaluate` | a hand-set or learned evaluation | `stickdice-agents` (`eval/`, one module per game); `stickdice_agents::evaluations()` | agents that need one (greedy, expectimax, MCTS with greedy playouts) say so; random and MCTS/ISMCTS with random playouts play |
/// | `exact` | what the exact solver needs | `stickdice-agents` (`solve/games.rs`); `stickdice_agents::solvers()` | `perfect` and `analyze --exact` say the game is not solved |
/// | `tablebase` | an endgame tablebase | `stickdice-agents`; `stickdice_agents::tablebases()` | `tablebase=` is refused |
/// | `measure` | turn starts, captures, burials for analysis | `stickdice-evaluation` (`analysis.rs`); `stickdice_evaluation::measures()` | analysis counts no captures and takes every throw of a new seat as a new turn |
/// | `review` | a reference evaluator for review and luck | `stickdice-evaluation` (`review.rs`); `stickdice_evaluation::references()` | `review` and `--luck` say the game has no reference |
/// | `encode` | action codes and observation tensors | `stickdice-rl` (`encoding.rs`; the Python package and the batched environment use it); `stickdice_rl::encodings()` | Python plays by action notation (`legal_action_strings`, `apply_action_string`); action codes, tensors, OpenSpiel and PettingZoo raise `stickdice.MissingCapability` naming the game and `encode` |
///
/// Each of those crates names, in its own table, the games that lack its part (they get
/// the fallback that says so); a game in neither its code nor that table does not
/// compile. `stickdice_rl::offers` gathers every crate's answer for one game.
///
/// A crate that needs code per game writes a callback macro and passes it here (by name,
/// or by path in brackets: `for_each_game!([$crate::my_macro], …)` from inside another
/// exported macro); the first argument it receives is `[extra tokens]`, whatever followed
/// the callback's name:
///
/// ```
/// macro_rules! names {
///     ([] $($variant:ident : $ty:path,)*) => {
///         [$(<$ty as stickdice::Game>::NAME),*]
///     };
/// }
/// let names = stickdice::for_each_game!(names);
/// assert_eq!(names[0], "sig-wa-duqqan");
/// ```
#[macro_export]
macro_rules! for_each_game {
    (@crate $callback:ident $(, $($args:tt)*)?) => {
        $crate::__game_list! { [$crate::$callback] [$($($args)*)?] }
    };
    ($callback:ident $(, $($args:tt)*)?) => {
        $crate::__game_list! { [$callback] [$($($args)*)?] }
    };
    ([$($callback:tt)+] $(, $($args:tt)*)?) => {
        $crate::__game_list! { [$($callback)+] [$($($args)*)?] }
    };
}

/// The list itself (see [`for_each_game!`](crate::for_each_game)): the hand-written games,
/// then every shipped description (their registration list, `src/described/games.rs`),
/// then the description loaded at run time. **Adding a hand-written game: one line here**;
/// a described game's line is in its registration list.
#[doc(hidden)]
#[macro_export]
macro_rules! __game_list {
    ([$($callback:tt)+] [$($args:tt)*]) => {
        $crate::__described_list! { [$crate::__described_listed] [[$($callback)+] [$($args)*] [
            SigWaDuqqan: $crate::games::SigWaDuqqan,
            SigElOued: $crate::games::SigElOued,
            Issiren: $crate::games::Issiren,
            SigElOuedCapture: $crate::games::SigElOuedCapture,
            SiryuRace: $crate::games::SiryuRace,
            SigWaDuqqanHoumtTaourit: $crate::games::HoumtTaourit,
            SiryuWar: $crate::games::SiryuWar,
        ] [
            GameFile: $crate::described::games::FileGame,
        ]] }
    };
}
