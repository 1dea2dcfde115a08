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
/// `Variant: path::to::Type [capabilities],`, in the order of `stickdice games`.
///
/// The capabilities name the optional parts the game provides beyond the rules
/// ([`Game`](crate::Game) and [`Playouts`](crate::Playouts), which every game has):
///
/// | capability | what it is | where it lives | without it |
/// |---|---|---|---|
/// | `board` | the drawing data ([`Board`](crate::Board)) | the game's module | the web page shows the text board ([`Game::render`](crate::Game::render)), with a note saying the game has no drawing |
/// | `evaluate` | a hand-set or learned evaluation | `stickdice-agents` (`eval/`, one module per game) | agents that need one (greedy, expectimax, MCTS with greedy playouts) say so; random and MCTS/ISMCTS with random playouts play |
/// | `exact` | what the exact solver needs | `stickdice-agents` (`solve/games.rs`) | `perfect` and `analyze --exact` say the game is not solved |
/// | `measure` | turn starts, captures, burials for analysis | `stickdice-evaluation` (`analysis.rs`) | analysis counts no captures and takes every throw of a new seat as a new turn |
/// | `review` | a reference evaluator for review and luck | `stickdice-evaluation` (`review.rs`) | `review` and `--luck` say the game has no reference |
/// | `encode` | action codes and observation tensors | `stickdice-rl` (`encoding.rs`; the Python package and the batched environment use it) | Python plays by action notation (`legal_action_strings`, `apply_action_string`); action codes, tensors, OpenSpiel and PettingZoo raise `stickdice.MissingCapability` naming the game and `encode` |
/// | `tablebase` | an endgame tablebase | `stickdice-agents` | `tablebase=` is refused |
///
/// A crate that needs code per game writes a callback macro and passes it here (by name,
/// or by path in brackets: `for_each_game!([$crate::my_macro], …)` from inside another
/// exported macro); the first argument it receives is `[extra tokens]`, whatever followed
/// the callback's name:
///
/// ```
/// macro_rules! names {
///     ([] $($variant:ident : $ty:path [$($cap:ident)*],)*) => {
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

/// The list itself (see [`for_each_game!`](crate::for_each_game)). **Adding a game: one
/// line here.**
#[doc(hidden)]
#[macro_export]
macro_rules! __game_list {
    ([$($callback:tt)+] [$($args:tt)*]) => {
        $($callback)+! { [$($args)*]
            SigWaDuqqan: $crate::games::SigWaDuqqan [board evaluate exact measure review encode],
            SigElOued: $crate::games::SigElOued [board evaluate exact measure review encode],
            Issiren: $crate::games::Issiren [board evaluate exact measure review encode tablebase],
            SigElOuedCapture: $crate::games::SigElOuedCapture [board evaluate measure review encode],
            SiryuRace: $crate::games::SiryuRace [board evaluate measure review encode],
            SigWaDuqqanHoumtTaourit: $crate::games::HoumtTaourit [board evaluate exact measure review encode],
            SiryuWar: $crate::games::SiryuWar [board evaluate measure review encode],
            SigMzab: $crate::described::games::SigMzab [board evaluate measure review encode],
            SigTozeur: $crate::described::games::SigTozeur [board evaluate measure review encode],
            Kioz: $crate::described::games::Kioz [board evaluate measure review encode],
            Tab: $crate::described::games::Tab [board evaluate measure review encode],
            SijatElTaba: $crate::described::games::SijatElTaba [board evaluate measure review encode],
            EsSig: $crate::described::games::EsSig [board evaluate exact measure review encode],
            SigWesternSahara: $crate::described::games::SigWesternSahara [board evaluate measure review encode],
        }
    };
}

/// `__if_has!(capability, [capabilities], { items }, { other items })`: the first items
/// where the list has the capability, the others where it lacks it. Crates use it to
/// choose, per game, between the capability and the fallback that says it is missing.
#[doc(hidden)]
#[macro_export]
macro_rules! __if_has {
    ($cap:ident, [], $yes:tt, { $($no:tt)* }) => { $($no)* };
    (board, [board $($r:ident)*], { $($yes:tt)* }, $no:tt) => { $($yes)* };
    (evaluate, [evaluate $($r:ident)*], { $($yes:tt)* }, $no:tt) => { $($yes)* };
    (exact, [exact $($r:ident)*], { $($yes:tt)* }, $no:tt) => { $($yes)* };
    (measure, [measure $($r:ident)*], { $($yes:tt)* }, $no:tt) => { $($yes)* };
    (review, [review $($r:ident)*], { $($yes:tt)* }, $no:tt) => { $($yes)* };
    (encode, [encode $($r:ident)*], { $($yes:tt)* }, $no:tt) => { $($yes)* };
    (tablebase, [tablebase $($r:ident)*], { $($yes:tt)* }, $no:tt) => { $($yes)* };
    ($cap:ident, [$x:ident $($r:ident)*], $yes:tt, $no:tt) => {
        $crate::__if_has!($cap, [$($r)*], $yes, $no);
    };
}

/// `__unless_has!(capability, [capabilities], { items })`: the items where the list lacks
/// the capability, nothing where it has it. Crates use it to give a game without a
/// capability the default that says so.
#[doc(hidden)]
#[macro_export]
macro_rules! __unless_has {
    ($cap:ident, [], { $($body:tt)* }) => { $($body)* };
    (board, [board $($r:ident)*], $b:tt) => {};
    (evaluate, [evaluate $($r:ident)*], $b:tt) => {};
    (exact, [exact $($r:ident)*], $b:tt) => {};
    (measure, [measure $($r:ident)*], $b:tt) => {};
    (review, [review $($r:ident)*], $b:tt) => {};
    (encode, [encode $($r:ident)*], $b:tt) => {};
    (tablebase, [tablebase $($r:ident)*], $b:tt) => {};
    ($cap:ident, [$x:ident $($r:ident)*], $b:tt) => { $crate::__unless_has!($cap, [$($r)*], $b); };
}
