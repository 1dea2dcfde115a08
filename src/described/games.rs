//! The shipped descriptions, one registration line each, and the slot of a description
//! loaded at run time ([`FileGame`]).

pub use super::file::FileGame;

/// **The shipped descriptions: one registration line each**, `Type: "name", "Title",
/// (fewest, most seats), most legal actions at a decision;` for the description
/// `src/described/games/NAME.toml`. Everything else is generated from this list: the
/// types ([`described_game!`](crate::described_game)), [`SHIPPED`], their place in the
/// list of games ([`for_each_game!`](crate::for_each_game), after the hand-written games),
/// their re-export at the crate root, and
/// [`for_each_described_game!`](crate::for_each_described_game), from which the other
/// crates give every description its parts. The unit test
/// `each_registration_agrees_with_its_file` checks each line against its file.
#[doc(hidden)]
#[macro_export]
macro_rules! __described_list {
    ([$($callback:tt)+] [$($args:tt)*]) => {
        $($callback)+! { [$($args)*]
            SigMzab: "sig-mzab", "Sig (Mzab)", (2, 2), 20;
            SigTozeur: "sig-tozeur", "Sig (Tozeur)", (2, 2), 13;
            Kioz: "kioz", "Kioz", (2, 2), 22;
            Tab: "tab", "Tab", (2, 2), 30;
            SijatElTaba: "sijat-el-taba", "Sijat El Taba", (2, 2), 48;
            EsSig: "es-sig", "Es-Sîg", (2, 8), 2;
            SigWesternSahara: "sig-western-sahara", "Sig (Western Sahara)", (2, 4), 125;
        }
    };
}

/// Calls `callback!` with every shipped description's type (`src/described/games/`, the
/// registration list in `src/described/games.rs`), in the form of
/// [`for_each_game!`](crate::for_each_game): `[extra tokens] Variant: path::to::Type,`.
/// The description loaded at run time ([`FileGame`]) is not among them. A crate that gives
/// every described game a part writes its callback once and passes it here, so a new
/// description gets the part with no line of its own:
///
/// ```
/// macro_rules! names {
///     ([] $($variant:ident : $ty:path,)*) => {
///         [$(<$ty as stickdice::Game>::NAME),*]
///     };
/// }
/// let names = stickdice::for_each_described_game!(names);
/// assert_eq!(names[0], "sig-mzab");
/// assert_eq!(names.len(), stickdice::described::games::SHIPPED.len());
/// ```
#[macro_export]
macro_rules! for_each_described_game {
    ($callback:ident $(, $($args:tt)*)?) => {
        $crate::__described_list! {
            [$crate::__described_listed] [[$callback] [$($($args)*)?] [] []]
        }
    };
    ([$($callback:tt)+] $(, $($args:tt)*)?) => {
        $crate::__described_list! {
            [$crate::__described_listed] [[$($callback)+] [$($($args)*)?] [] []]
        }
    };
}

/// The registration list as games of the list: `[[callback] [args] [games before] [games
/// after]]`, the described ones in between.
#[doc(hidden)]
#[macro_export]
macro_rules! __described_listed {
    (
        [[$($callback:tt)+] [$($args:tt)*] [$($before:tt)*] [$($after:tt)*]]
        $($ty:ident : $name:literal, $title:literal, ($min:literal, $max:literal), $max_actions:literal;)*
    ) => {
        $($callback)+! { [$($args)*]
            $($before)*
            $($ty: $crate::described::games::$ty,)*
            $($after)*
        }
    };
}

/// The types and [`SHIPPED`], from the registration list.
macro_rules! register {
    ([] $($ty:ident : $name:literal, $title:literal, ($min:literal, $max:literal), $max_actions:literal;)*) => {
        $(
            crate::described_game!(
                #[doc = concat!($title, ": the description `src/described/games/", $name, ".toml`.")]
                $ty, $name, $title, ($min, $max), $max_actions
            );
        )*

        /// The shipped descriptions: name, file and text.
        pub const SHIPPED: &[(&str, &str, &str)] = &[$(($name, $ty::FILE, $ty::TEXT)),*];
    };
}
crate::__described_list!([register] []);

/// The reference descriptions: games that a hand-written module plays, written in the
/// format too (name, file and text). They are not registered as games; the lockstep test
/// plays each against its module.
pub const REFERENCE: &[(&str, &str, &str)] = &[
    (
        "issiren-described",
        "issiren.toml",
        include_str!("reference/issiren.toml"),
    ),
    (
        "siryu-war-described",
        "siryu-war.toml",
        include_str!("reference/siryu-war.toml"),
    ),
    (
        "sig-wa-duqqan-houmt-taourit-described",
        "sig-wa-duqqan-houmt-taourit.toml",
        include_str!("reference/sig-wa-duqqan-houmt-taourit.toml"),
    ),
    (
        "sig-wa-duqqan-described",
        "sig-wa-duqqan.toml",
        include_str!("reference/sig-wa-duqqan.toml"),
    ),
];

/// A reference description's file name and text, by its name.
pub fn reference(name: &str) -> Option<(&'static str, &'static str)> {
    REFERENCE
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, f, t)| (*f, *t))
}

/// A shipped description's file name and text, by the game's name.
pub fn shipped(name: &str) -> Option<(&'static str, &'static str)> {
    SHIPPED
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, f, t)| (*f, *t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// Each newtype's constants agree with its file: name, title, seats and options.
    macro_rules! agree {
        ($($ty:ident),*) => {$(
            {
                let base = $ty::base();
                let d = base.description();
                assert_eq!(d.name, <$ty as Game>::NAME, "{}", $ty::FILE);
                assert_eq!(d.title, <$ty as Game>::TITLE, "{}", $ty::FILE);
                assert_eq!((d.seats.min, d.seats.max), <$ty as Game>::SEATS, "{}", $ty::FILE);
                let mut names: Vec<&str> = d.options.keys().map(String::as_str).collect();
                names.push("max_throws");
                let table: Vec<&str> = <$ty as Game>::option_specs().iter().map(|o| o.name).collect();
                assert_eq!(names, table, "{}", $ty::FILE);
                for (o, spec) in d.options.values().zip(<$ty as Game>::option_specs()) {
                    assert_eq!(o.help, spec.help, "{}", $ty::FILE);
                }
                assert!(<$ty as Game>::MAX_ACTIONS <= super::super::Described::BUFFER);
            }
        )*};
    }

    #[test]
    fn each_registration_agrees_with_its_file() {
        macro_rules! each {
            ([] $($variant:ident : $ty:path,)*) => {
                agree!($($variant),*);
                assert_eq!([$(<$ty as Game>::NAME),*].len(), SHIPPED.len());
            };
        }
        crate::for_each_described_game!(each);
    }
}

#[cfg(test)]
mod sizing {
    use super::*;
    use crate::game::Game;

    /// Random-play medians against the rules' sizing figures (the described games' chapters (docs/games/)).
    #[test]
    #[ignore = "prints the sizing figures; run with --ignored --nocapture"]
    fn print_sizing() {
        fn show<G: Game>(g: G, label: &str, f: impl Fn(&G) -> &super::super::Described) {
            let games = std::env::var("SIZING_GAMES")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(500);
            let r = f(&g).check_by_random_play(games, 1);
            println!(
                "{label}: median {} 90% {} longest {} capped {} draws {} ends {:?}",
                r.quantile(0.5),
                r.quantile(0.9),
                r.lengths.last().unwrap(),
                r.capped,
                r.draws,
                r.ends
            );
        }
        let with = |g: &mut dyn FnMut(&str, &str)| {
            let _ = g;
        };
        let _ = with;
        show(SigMzab::with_seats(2).unwrap(), "mzab", |g| &g.0);
        let mut m = SigMzab::with_seats(2).unwrap();
        m.set_option("columns", "12").unwrap();
        show(m, "mzab N=12", |g| &g.0);
        let mut m = SigMzab::with_seats(2).unwrap();
        m.set_option("track_ends", "true").unwrap();
        show(m, "mzab track_ends", |g| &g.0);
        show(SigTozeur::with_seats(2).unwrap(), "tozeur", |g| &g.0);
        let mut m = SigTozeur::with_seats(2).unwrap();
        m.set_option("track_ends", "true").unwrap();
        show(m, "tozeur track_ends", |g| &g.0);
        let mut m = SigTozeur::with_seats(2).unwrap();
        m.set_option("mzab_throws", "true").unwrap();
        show(m, "tozeur mzab_throws", |g| &g.0);
        show(Kioz::with_seats(2).unwrap(), "kioz", |g| &g.0);
        show(Tab::with_seats(2).unwrap(), "tab", |g| &g.0);
        let mut m = Tab::with_seats(2).unwrap();
        m.set_option("columns", "15").unwrap();
        show(m, "tab N=15", |g| &g.0);
        let mut m = Tab::with_seats(2).unwrap();
        m.set_option("starting_tab_only_starts", "true").unwrap();
        show(m, "tab only starts", |g| &g.0);
        show(SijatElTaba::with_seats(2).unwrap(), "sijat", |g| &g.0);
        let mut m = SijatElTaba::with_seats(2).unwrap();
        m.set_option("rows", "4").unwrap();
        show(m, "sijat R=4", |g| &g.0);
        let mut m = SijatElTaba::with_seats(2).unwrap();
        m.set_option("supplement_uses_all", "true").unwrap();
        show(m, "sijat all", |g| &g.0);
        for seats in [2, 4, 8] {
            show(
                EsSig::with_seats(seats).unwrap(),
                &format!("es-sig {seats}p"),
                |g| &g.0,
            );
        }
        for o in ["exact_final", "extra_throws", "ghula_from_start"] {
            let mut m = EsSig::with_seats(2).unwrap();
            m.set_option(o, "true").unwrap();
            show(m, &format!("es-sig {o}"), |g| &g.0);
        }
        show(SigWesternSahara::with_seats(4).unwrap(), "ws", |g| &g.0);
        let mut m = SigWesternSahara::with_seats(4).unwrap();
        m.set_option("columns", "25").unwrap();
        show(m, "ws N=25", |g| &g.0);
    }
}
