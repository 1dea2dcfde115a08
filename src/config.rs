//! Choosing a game at run time: [`GameKind`] by name, [`AnyGame`] with its seat count and
//! rule options, and [`with_game!`](crate::with_game) to run generic code on whichever
//! game it holds.

use core::fmt;
use core::str::FromStr;

use crate::game::{ConfigError, Game};
use crate::games::{Issiren, SigElOued, SigWaDuqqan};

/// The games, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum GameKind {
    /// Sig wa Duqqan (Houmt al-Arbah), Djerba.
    SigWaDuqqan,
    /// Sig (El Oued), Algeria.
    SigElOued,
    /// Issiren (Ishighän), Kel Ajjer Tuareg.
    Issiren,
}

impl GameKind {
    /// Every game.
    pub const ALL: [GameKind; 3] = [
        GameKind::SigWaDuqqan,
        GameKind::SigElOued,
        GameKind::Issiren,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::SigWaDuqqan => SigWaDuqqan::NAME,
            GameKind::SigElOued => SigElOued::NAME,
            GameKind::Issiren => Issiren::NAME,
        }
    }

    /// The name for people.
    pub fn title(self) -> &'static str {
        match self {
            GameKind::SigWaDuqqan => SigWaDuqqan::TITLE,
            GameKind::SigElOued => SigElOued::TITLE,
            GameKind::Issiren => Issiren::TITLE,
        }
    }

    /// The fewest and most seats.
    pub fn seat_range(self) -> (usize, usize) {
        match self {
            GameKind::SigWaDuqqan => SigWaDuqqan::SEATS,
            GameKind::SigElOued => SigElOued::SEATS,
            GameKind::Issiren => Issiren::SEATS,
        }
    }

    /// What a rule option of the game means and which values it takes, for help texts and
    /// front ends; `None` for an option the game does not have.
    pub fn option_help(self, key: &str) -> Option<&'static str> {
        if !self.option_names().contains(&key) {
            return None;
        }
        Some(match key {
            "max_throws" => {
                "the throw cap: the game ends after this many throws (extra throws included), \
                 the seats still playing tied; a whole number of at least 1"
            }
            "exact_waiting_square" => {
                "a move from idx 1..=13 that would pass the waiting square is not made at all, \
                 instead of stopping on it; true or false"
            }
            "cairo_always_three" => {
                "entering Cairo costs 3 points from every budget, so a regular sig never \
                 enters it; true or false"
            }
            _ => return None,
        })
    }

    /// The rule options the game takes.
    pub fn option_names(self) -> &'static [&'static str] {
        match self {
            GameKind::SigWaDuqqan => SigWaDuqqan::OPTIONS,
            GameKind::SigElOued => SigElOued::OPTIONS,
            GameKind::Issiren => Issiren::OPTIONS,
        }
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
            .into_iter()
            .find(|k| k.name() == s.trim())
            .ok_or_else(|| ConfigError::UnknownGame {
                name: s.to_string(),
            })
    }
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

/// Reads a yes/no rule option (`true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`).
///
/// # Errors
/// [`ConfigError::BadValue`].
pub fn parse_flag(key: &str, value: &str) -> Result<bool, ConfigError> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(ConfigError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected: "true or false",
        }),
    }
}

/// The default throw cap of every game (RULES.md: `max_throws`, default 10 000).
pub const DEFAULT_MAX_THROWS: u32 = 10_000;

/// Reads the `max_throws` rule option: an integer ≥ 1.
///
/// # Errors
/// [`ConfigError::BadValue`].
pub fn parse_max_throws(value: &str) -> Result<u32, ConfigError> {
    match value.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(ConfigError::BadValue {
            key: "max_throws".to_string(),
            value: value.to_string(),
            expected: "a whole number of throws from 1 to 4294967295",
        }),
    }
}

/// The error for a rule option `G` does not have, listing the ones it has.
pub fn unknown_option<G: Game>(key: &str) -> ConfigError {
    ConfigError::UnknownOption {
        game: G::NAME,
        key: key.to_string(),
        known: G::OPTIONS,
    }
}

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

/// Builds a game of type `G` with a seat count and `key=value` options.
///
/// # Errors
/// The first [`ConfigError`] met.
pub fn build<G: Game, S: AsRef<str>>(seats: usize, options: &[S]) -> Result<G, ConfigError> {
    let mut game = G::with_seats(seats)?;
    for text in options {
        let (k, v) = parse_option(text.as_ref())?;
        game.set_option(k, v)?;
    }
    Ok(game)
}

/// One of the games, chosen at run time.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyGame {
    /// Sig wa Duqqan (Houmt al-Arbah).
    SigWaDuqqan(SigWaDuqqan),
    /// Sig (El Oued).
    SigElOued(SigElOued),
    /// Issiren.
    Issiren(Issiren),
}

impl AnyGame {
    /// The game named `name` for `seats` players (the game's fewest if `None`), with rule
    /// options written `key=value`.
    ///
    /// # Errors
    /// An unknown game, a seat count it does not allow, or a bad option.
    pub fn new<S: AsRef<str>>(
        name: &str,
        seats: Option<usize>,
        options: &[S],
    ) -> Result<AnyGame, ConfigError> {
        let kind: GameKind = name.parse()?;
        let seats = seats.unwrap_or(kind.seat_range().0);
        Ok(match kind {
            GameKind::SigWaDuqqan => AnyGame::SigWaDuqqan(build(seats, options)?),
            GameKind::SigElOued => AnyGame::SigElOued(build(seats, options)?),
            GameKind::Issiren => AnyGame::Issiren(build(seats, options)?),
        })
    }

    /// Which game.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::SigWaDuqqan(_) => GameKind::SigWaDuqqan,
            AnyGame::SigElOued(_) => GameKind::SigElOued,
            AnyGame::Issiren(_) => GameKind::Issiren,
        }
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        crate::with_game!(self, |g| g.seats())
    }

    /// Every rule option with its value.
    pub fn options(&self) -> Vec<(&'static str, String)> {
        crate::with_game!(self, |g| g.options())
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
        match $any {
            $crate::AnyGame::SigWaDuqqan($g) => $body,
            $crate::AnyGame::SigElOued($g) => $body,
            $crate::AnyGame::Issiren($g) => $body,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_option_has_help() {
        for kind in GameKind::ALL {
            for key in kind.option_names() {
                assert!(
                    kind.option_help(key).is_some_and(|h| !h.is_empty()),
                    "{kind} {key}"
                );
            }
            assert_eq!(kind.option_help("colour"), None);
        }
        assert_eq!(GameKind::Issiren.option_help("cairo_always_three"), None);
    }

    #[test]
    fn games_are_found_by_name_and_bad_configs_are_named() {
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
        }
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
