//! Choosing a game at run time: [`GameKind`] by name, [`AnyGame`] with its seat count and
//! rule options, and [`with_game!`](crate::with_game) to run generic code on whichever
//! game it holds.

use core::fmt;
use core::str::FromStr;

use crate::game::{ConfigError, Game};

/// Generates [`GameKind`] and [`AnyGame`] from the list of games.
macro_rules! define_games {
    ([] $($variant:ident : $ty:path,)*) => {
        /// The games, by name (generated from [`for_each_game!`](crate::for_each_game)).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
        #[non_exhaustive]
        pub enum GameKind {
            $(
                #[doc = concat!("The game `", stringify!($variant), "`.")]
                $variant,
            )*
        }

        impl GameKind {
            /// Every game, in the order of the list.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),*];

            /// The command-line name.
            pub fn name(self) -> &'static str {
                match self {
                    $(GameKind::$variant => <$ty as Game>::NAME,)*
                }
            }

            /// The name for people.
            pub fn title(self) -> &'static str {
                match self {
                    $(GameKind::$variant => <$ty as Game>::TITLE,)*
                }
            }

            /// The seat count played when none is given ([`Game::default_seats`]; for
            /// `game-file`, the selected description's).
            pub fn default_seats(self) -> usize {
                match self {
                    $(GameKind::$variant => <$ty as Game>::default_seats(),)*
                }
            }

            /// The fewest and most seats (for `game-file`, the selected description's).
            pub fn seat_range(self) -> (usize, usize) {
                if let (GameKind::GameFile, Some(loaded)) = (self, crate::described::file::selected()) {
                    return loaded.seat_range();
                }
                match self {
                    $(GameKind::$variant => <$ty as Game>::SEATS,)*
                }
            }

            /// The game's rule options: name, values, default and help of each (see
            /// [`Game::option_specs`]).
            pub fn option_specs(self) -> &'static [crate::options::OptionSpec<'static>] {
                match self {
                    $(GameKind::$variant => <$ty as Game>::option_specs(),)*
                }
            }
        }

        /// Every game of the list is shown and drawn: the list demands
        /// [`Present`](crate::Present) and [`Board`](crate::Board) of each (a game without
        /// them does not compile).
        #[allow(dead_code)]
        fn every_game_of_the_list_is_shown_and_drawn() {
            fn shown_and_drawn<G: crate::Present + crate::Board>() {}
            $(shown_and_drawn::<$ty>();)*
        }

        /// One of the games, chosen at run time (generated from
        /// [`for_each_game!`](crate::for_each_game)).
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum AnyGame {
            $(
                #[doc = concat!("The game `", stringify!($variant), "`.")]
                $variant($ty),
            )*
        }

        impl AnyGame {
            /// The game named `name` for `seats` players (the game's fewest if `None`),
            /// with rule options written `key=value`.
            ///
            /// # Errors
            /// An unknown game, a seat count it does not allow, or a bad option.
            pub fn new<S: AsRef<str>>(
                name: &str,
                seats: Option<usize>,
                options: &[S],
            ) -> Result<AnyGame, ConfigError> {
                let kind: GameKind = name.parse()?;
                let seats = seats.unwrap_or(kind.default_seats());
                Ok(match kind {
                    $(GameKind::$variant => AnyGame::$variant(build(seats, options)?),)*
                })
            }

            /// Which game.
            pub fn kind(&self) -> GameKind {
                match self {
                    $(AnyGame::$variant(_) => GameKind::$variant,)*
                }
            }
        }

        $(
            impl From<$ty> for AnyGame {
                fn from(game: $ty) -> AnyGame {
                    AnyGame::$variant(game)
                }
            }
        )*
    };
}

crate::for_each_game!(define_games);

/// Generates [`AnyAgent`] and [`Listed`] for every game of the list.
macro_rules! define_any_agent {
    ([] $($variant:ident : $ty:path,)*) => {
        /// An agent of any game of the list, boxed: what a kind of agent built outside
        /// the library returns for a game chosen at run time (see `stickdice-agents`'
        /// registry). Build one with `AnyAgent::from(boxed)`.
        #[non_exhaustive]
        pub enum AnyAgent {
            $(
                #[doc = concat!("An agent of `", stringify!($variant), "`.")]
                $variant(Box<dyn crate::Agent<$ty>>),
            )*
        }

        impl fmt::Debug for AnyAgent {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(AnyAgent::$variant(a) => write!(f, "AnyAgent({})", a.name()),)*
                }
            }
        }

        $(
            impl From<Box<dyn crate::Agent<$ty>>> for AnyAgent {
                fn from(agent: Box<dyn crate::Agent<$ty>>) -> AnyAgent {
                    AnyAgent::$variant(agent)
                }
            }

            impl Listed for $ty {
                fn to_any_game(&self) -> Option<AnyGame> {
                    Some(AnyGame::$variant(self.clone()))
                }

                fn agent_of(agent: AnyAgent) -> Result<Box<dyn crate::Agent<Self>>, AnyAgent> {
                    match agent {
                        AnyAgent::$variant(a) => Ok(a),
                        #[allow(unreachable_patterns)]
                        other => Err(other),
                    }
                }
            }
        )*
    };
}

crate::for_each_game!(define_any_agent);

/// Whether a game is one of the list, and the conversions to and from [`AnyGame`] and
/// [`AnyAgent`] that code generic over a game uses to reach run-time registries (agent
/// kinds registered by other crates). Implemented for every game of the list; a game
/// outside it (a test game) takes the defaults with an empty `impl Listed for MyGame {}`.
pub trait Listed: Game {
    /// The game as an [`AnyGame`], if it is one of the list.
    fn to_any_game(&self) -> Option<AnyGame> {
        None
    }

    /// The agent, if it plays this game; otherwise it is handed back.
    ///
    /// # Errors
    /// The agent itself, when it is an agent of another game.
    fn agent_of(agent: AnyAgent) -> Result<Box<dyn crate::Agent<Self>>, AnyAgent> {
        Err(agent)
    }
}

impl GameKind {
    /// The names of the rule options the game takes, in the order of its table.
    pub fn option_names(self) -> Vec<&'static str> {
        self.option_specs().iter().map(|s| s.name).collect()
    }

    /// What a rule option of the game means, for help texts and front ends; `None` for an
    /// option the game does not have. The values it takes are its entry's
    /// [`allowed`](crate::options::OptionSpec::allowed).
    pub fn option_help(self, key: &str) -> Option<&'static str> {
        self.option_specs()
            .iter()
            .find(|s| s.name == key)
            .map(|s| s.help)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ConfigError::UnknownGame {
                name: s.to_string(),
            })
    }
}

/// The name among `names` that `given` most likely misspells, for a "did you mean" hint:
/// the closest by edit distance (insertions, deletions, substitutions and swaps of two
/// neighbouring letters, ignoring ASCII case), if it is within a third of the name's
/// length (at least 1). `None` when nothing is that close, or for an exact match.
///
/// Written here rather than taken from a crate: a dozen lines, and the core crate keeps
/// its few dependencies.
///
/// ```
/// use stickdice::config::did_you_mean;
/// let agents = ["random", "greedy", "expectimax", "mcts"];
/// assert_eq!(did_you_mean("greddy", agents), Some("greedy"));
/// assert_eq!(did_you_mean("chess", agents), None);
/// ```
pub fn did_you_mean<'a>(given: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let given = given.trim().to_ascii_lowercase();
    names
        .into_iter()
        .filter(|name| *name != given)
        .map(|name| (edit_distance(&given, &name.to_ascii_lowercase()), name))
        .filter(|(d, name)| *d <= (name.chars().count() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, name)| name)
}

/// The optimal-string-alignment distance between `a` and `b` (Levenshtein plus swaps of
/// neighbouring characters), by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the table: two back, one back and this one.
    let mut two: Vec<usize> = vec![0; b.len() + 1];
    let mut one: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (one[j] + 1).min(row[j - 1] + 1).min(one[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(two[j - 2] + 1);
            }
        }
        core::mem::swap(&mut two, &mut one);
        core::mem::swap(&mut one, &mut row);
    }
    one[b.len()]
}

/// Splits `key=value`.
///
/// # Errors
/// [`ConfigError::Malformed`] when there is no `=` or the key is empty.
pub fn parse_option(text: &str) -> Result<(&str, &str), ConfigError> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim(), v.trim())),
        _ => Err(ConfigError::Malformed {
            text: text.to_string(),
        }),
    }
}

/// What the `max_throws` rule option means, which every game has (its entry:
/// [`options::MAX_THROWS`](crate::options::MAX_THROWS)).
pub const MAX_THROWS_HELP: &str = "the throw cap: the game ends after this many throws (extra \
    throws included), the seats still playing tied";

/// The default throw cap of every game (the book's rules conventions, `docs/games/conventions.md`: `max_throws`, default 10 000).
pub const DEFAULT_MAX_THROWS: u32 = 10_000;

/// Checks a seat count against a game's range.
///
/// # Errors
/// [`ConfigError::Players`].
pub fn check_seats<G: Game>(seats: usize) -> Result<(), ConfigError> {
    let (min, max) = G::SEATS;
    if (min..=max).contains(&seats) {
        Ok(())
    } else {
        Err(ConfigError::Players {
            game: G::NAME,
            players: seats,
            min,
            max,
        })
    }
}

/// Builds a game of type `G` with a seat count and `key=value` options, read by
/// [`options::parse_options`](crate::options::parse_options).
///
/// # Errors
/// The first [`ConfigError`] met; [`ConfigError::Repeated`] for an option given twice.
pub fn build<G: Game, S: AsRef<str>>(seats: usize, options: &[S]) -> Result<G, ConfigError> {
    let mut game = G::with_seats(seats)?;
    let pairs = options
        .iter()
        .map(|text| parse_option(text.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    game.set_options(&pairs)?;
    Ok(game)
}

impl AnyGame {
    /// The number of seats.
    pub fn seats(&self) -> usize {
        crate::with_game!(self, |g| g.seats())
    }

    /// Every rule option with its value.
    pub fn options(&self) -> Vec<(&'static str, String)> {
        crate::with_game!(self, |g| g.options())
    }

    /// The game's name ([`Game::name`]: a loaded description's own name for `game-file`).
    pub fn name(&self) -> &'static str {
        crate::with_game!(self, |g| g.name())
    }

    /// The game's name for people ([`Game::title`]).
    pub fn title(&self) -> &'static str {
        crate::with_game!(self, |g| g.title())
    }
}

/// Runs generic code on the game an [`AnyGame`] holds: `with_game!(any, |g| body)`, where
/// `g` is a reference to the concrete game.
///
/// ```
/// use stickdice::{with_game, AnyGame, Game};
/// let any = AnyGame::new("issiren", None, &["max_throws=500"]).unwrap();
/// let seats = with_game!(&any, |g| g.seats());
/// assert_eq!(seats, 2);
/// ```
#[macro_export]
macro_rules! with_game {
    ($any:expr, |$g:ident| $body:expr) => {
        $crate::for_each_game!(@crate __with_game_arms, $any, $g, $body)
    };
}

/// The arms of [`with_game!`](crate::with_game), one per game of the list.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_arms {
    ([$any:expr, $g:ident, $body:expr] $($variant:ident : $ty:path,)*) => {
        match $any {
            $($crate::AnyGame::$variant($g) => $body,)*
            // `AnyGame` is `#[non_exhaustive]` for other crates; this arm never matches.
            #[allow(unreachable_patterns)]
            _ => unreachable!("every game of the list has an arm"),
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_option_has_help_and_a_default_it_takes() {
        for &kind in GameKind::ALL {
            for spec in kind.option_specs() {
                assert!(!spec.help.is_empty(), "{kind} {}", spec.name);
                assert_eq!(kind.option_help(spec.name), Some(spec.help));
                let default = spec.default_value().to_string();
                assert_eq!(spec.parse(&default), Ok(spec.default_value()), "{kind}");
            }
            assert!(kind.option_names().contains(&"max_throws"), "{kind}");
            assert_eq!(kind.option_help("colour"), None);
        }
        assert_eq!(GameKind::Issiren.option_help("cairo_always_three"), None);
    }

    #[test]
    fn a_repeated_option_is_refused_by_every_game() {
        // The `game-file` slot plays the selected description.
        crate::described::file::select(
            crate::described::file::parse("tab.toml", crate::described::games::Tab::TEXT).unwrap(),
        );
        for &kind in GameKind::ALL {
            let err =
                AnyGame::new(kind.name(), None, &["max_throws=1", "max_throws=2"]).unwrap_err();
            assert_eq!(
                err,
                ConfigError::Repeated {
                    key: "max_throws".to_string()
                },
                "{kind}"
            );
            // Written otherwise but the same option.
            assert!(AnyGame::new(kind.name(), None, &["max_throws=7", " max_throws =7"]).is_err());
        }
        let err = AnyGame::new(
            "sig-el-oued",
            None,
            &["cairo_always_three=true", "cairo_always_three=false"],
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "rule option `cairo_always_three` is given twice: give each option once"
        );
    }

    #[test]
    fn misspelt_names_get_the_closest_one() {
        assert_eq!(edit_distance("greddy", "greedy"), 1);
        assert_eq!(edit_distance("geredy", "greedy"), 1, "a swap counts once");
        assert_eq!(edit_distance("", "mcts"), 4);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let games = GameKind::ALL.iter().map(|k| k.name());
        assert_eq!(did_you_mean("issirin", games.clone()), Some("issiren"));
        assert_eq!(
            did_you_mean("sig-el-ouad", games.clone()),
            Some("sig-el-oued")
        );
        assert_eq!(
            did_you_mean("sig", games.clone()),
            None,
            "too far from every name"
        );
        assert_eq!(
            did_you_mean("issiren", games),
            None,
            "no hint for the name itself"
        );
        assert_eq!(
            did_you_mean("cairo_alway_three", ["max_throws", "cairo_always_three"]),
            Some("cairo_always_three")
        );
    }

    #[test]
    fn games_are_found_by_name_whatever_the_case() {
        for &kind in GameKind::ALL {
            assert_eq!(kind.name().to_uppercase().parse::<GameKind>(), Ok(kind));
        }
        assert_eq!("Issiren".parse::<GameKind>(), Ok(GameKind::Issiren));
        assert_eq!(" Sig-El-Oued ".parse::<GameKind>(), Ok(GameKind::SigElOued));
    }

    #[test]
    fn games_are_found_by_name_and_bad_configs_are_named() {
        for &kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
        }
        let err = AnyGame::new::<&str>("issirin", None, &[]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("unknown game `issirin` (did you mean `issiren`?): the games are"),
            "{err}"
        );
        let err = AnyGame::new("sig-el-oued", None, &["cairo_alway_three=true"]).unwrap_err();
        assert!(
            err.to_string().starts_with(
                "sig-el-oued has no rule option `cairo_alway_three` (did you mean `cairo_always_three`?); its options are:"
            ),
            "{err}"
        );
        let err = AnyGame::new::<&str>("chess", None, &[]).unwrap_err();
        assert!(err.to_string().contains("unknown game `chess`"), "{err}");
        let err = AnyGame::new::<&str>("issiren", Some(3), &[]).unwrap_err();
        assert!(err.to_string().contains("exactly 2"), "{err}");
        let err = AnyGame::new("sig-el-oued", None, &["colour=red"]).unwrap_err();
        assert!(err.to_string().contains("cairo_always_three"), "{err}");
        let err = AnyGame::new("sig-wa-duqqan", None, &["max_throws=0"]).unwrap_err();
        assert!(err.to_string().contains("max_throws"), "{err}");
        let err = AnyGame::new("sig-wa-duqqan", None, &["max_throws"]).unwrap_err();
        assert!(matches!(err, ConfigError::Malformed { .. }));
        let err = AnyGame::new::<&str>("sig-wa-duqqan", Some(9), &[]).unwrap_err();
        assert!(err.to_string().contains("2 to 8"), "{err}");
    }
}
