//! Rule options as **one typed table per game**: each option's name, the values it takes,
//! its default and its help, declared once ([`OptionSpec`]). Reading options
//! ([`parse_options`], [`Game::set_options`](crate::Game::set_options)), a game's
//! [`options`](crate::Game::options), `stickdice games`, the protocol's `hello`, the Python
//! package's `games()` and the web page's forms are all derived from it.
//!
//! A game written in Rust declares its table with [`rule_options!`](crate::rule_options)
//! inside its `impl Game`, one line per option, each option a field of the same name; a
//! described game's table is built when its description is read, from the file's
//! `[options]` (with their help) and `max_throws`.

use core::fmt;

use crate::config::MAX_THROWS_HELP;
use crate::game::ConfigError;

/// The values a rule option takes, and its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionType<'a> {
    /// Yes or no: `true` or `false` (also read: `yes`/`no`, `on`/`off`, `1`/`0`, in any
    /// case).
    Flag {
        /// The default.
        default: bool,
    },
    /// A whole number from `min` to `max`.
    Range {
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
        /// The default.
        default: i64,
    },
    /// One whole number of a list.
    Choice {
        /// The values, in the order the help lists them.
        values: &'a [i64],
        /// The default.
        default: i64,
    },
}

/// One rule option of a game: its name, the values it takes with the default, and what it
/// means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec<'a> {
    /// The name, as `--option NAME=VALUE` writes it.
    pub name: &'a str,
    /// The values it takes and its default.
    pub kind: OptionType<'a>,
    /// What it means, in a sentence (the values it takes are [`OptionSpec::allowed`]).
    pub help: &'a str,
}

/// A rule option's value, as its table reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// The value of a yes/no option.
    Flag(bool),
    /// The value of a whole-number option.
    Whole(i64),
}

impl fmt::Display for OptionValue {
    /// The value as [`Game::options`](crate::Game::options) writes it: `true`, `false` or
    /// the number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Flag(b) => write!(f, "{b}"),
            OptionValue::Whole(n) => write!(f, "{n}"),
        }
    }
}

/// The `max_throws` rule option, which every game has: the throw cap.
pub const MAX_THROWS: OptionSpec<'static> = OptionSpec {
    name: "max_throws",
    kind: kinds::max_throws(),
    help: MAX_THROWS_HELP,
};

/// Short constructors of [`OptionType`] for [`rule_options!`](crate::rule_options) lines.
pub mod kinds {
    use super::OptionType;
    use crate::config::DEFAULT_MAX_THROWS;

    /// A yes/no option.
    pub const fn flag(default: bool) -> OptionType<'static> {
        OptionType::Flag { default }
    }

    /// A whole number from `min` to `max`.
    pub const fn range(min: i64, max: i64, default: i64) -> OptionType<'static> {
        OptionType::Range { min, max, default }
    }

    /// One whole number of `values`.
    pub const fn choice(values: &'static [i64], default: i64) -> OptionType<'static> {
        OptionType::Choice { values, default }
    }

    /// The throw cap's values: from 1 to 4294967295, 10 000 by default.
    pub const fn max_throws() -> OptionType<'static> {
        OptionType::Range {
            min: 1,
            max: u32::MAX as i64,
            default: DEFAULT_MAX_THROWS as i64,
        }
    }
}

impl OptionSpec<'_> {
    /// `bool` or `int`: the type of the option's values (as the protocol and the Python
    /// package name it).
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            OptionType::Flag { .. } => "bool",
            OptionType::Range { .. } | OptionType::Choice { .. } => "int",
        }
    }

    /// The default value.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionType::Flag { default } => OptionValue::Flag(default),
            OptionType::Range { default, .. } | OptionType::Choice { default, .. } => {
                OptionValue::Whole(default)
            }
        }
    }

    /// The values the option takes, in words: `true or false`, `a whole number from 1 to
    /// 4294967295`, `one of 7, 9, 11, 13, 15`.
    pub fn allowed(&self) -> String {
        match self.kind {
            OptionType::Flag { .. } => "true or false".to_string(),
            OptionType::Range { min, max, .. } => format!("a whole number from {min} to {max}"),
            OptionType::Choice { values, .. } => {
                if values.len() > 6 && values.windows(2).all(|w| w[1] == w[0] + 1) {
                    format!(
                        "a whole number from {} to {}",
                        values[0],
                        values[values.len() - 1]
                    )
                } else {
                    let v: Vec<String> = values.iter().map(i64::to_string).collect();
                    format!("one of {}", v.join(", "))
                }
            }
        }
    }

    /// The error for a value the option does not take.
    pub fn refuse(&self, value: &str) -> ConfigError {
        ConfigError::BadValue {
            key: self.name.to_string(),
            value: value.to_string(),
            expected: self.allowed(),
        }
    }

    /// Reads a value of the option from text.
    ///
    /// # Errors
    /// [`ConfigError::BadValue`] saying which values it takes.
    pub fn parse(&self, value: &str) -> Result<OptionValue, ConfigError> {
        let text = value.trim();
        match self.kind {
            OptionType::Flag { .. } => match text.to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => Ok(OptionValue::Flag(true)),
                "false" | "no" | "off" | "0" => Ok(OptionValue::Flag(false)),
                _ => Err(self.refuse(value)),
            },
            OptionType::Range { min, max, .. } => match text.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Whole(n)),
                _ => Err(self.refuse(value)),
            },
            OptionType::Choice { values, .. } => match text.parse::<i64>() {
                Ok(n) if values.contains(&n) => Ok(OptionValue::Whole(n)),
                _ => Err(self.refuse(value)),
            },
        }
    }
}

/// The option named `key` in a game's table.
///
/// # Errors
/// [`ConfigError::UnknownOption`] naming the game, the nearest name and every option.
pub fn find<'s>(
    game: &str,
    specs: &'s [OptionSpec<'s>],
    key: &str,
) -> Result<&'s OptionSpec<'s>, ConfigError> {
    specs
        .iter()
        .find(|s| s.name == key)
        .ok_or_else(|| ConfigError::UnknownOption {
            game: game.to_string(),
            key: key.to_string(),
            known: specs.iter().map(|s| s.name.to_string()).collect(),
        })
}

/// **The parser of rule options**: reads `(name, value)` pairs against a game's table, in
/// order, and answers each option with its value. Every door (the command line's
/// `--option`, the protocol's `options`, the Python package, the web page) comes here.
///
/// # Errors
/// The first problem met: [`ConfigError::UnknownOption`] for a name the table does not
/// have (with the nearest one), [`ConfigError::BadValue`] for a value the option does not
/// take (saying which it takes), [`ConfigError::Repeated`] for an option given twice.
pub fn parse_options<'s, 'p>(
    game: &str,
    specs: &'s [OptionSpec<'s>],
    pairs: impl IntoIterator<Item = (&'p str, &'p str)>,
) -> Result<Vec<(&'s OptionSpec<'s>, OptionValue)>, ConfigError> {
    let mut out: Vec<(&'s OptionSpec<'s>, OptionValue)> = Vec::new();
    for (key, value) in pairs {
        let spec = find(game, specs, key)?;
        let v = spec.parse(value)?;
        if out.iter().any(|(s, _)| s.name == spec.name) {
            return Err(ConfigError::Repeated {
                key: key.to_string(),
            });
        }
        out.push((spec, v));
    }
    Ok(out)
}

/// A field that holds a rule option's value in a game written in Rust (see
/// [`rule_options!`](crate::rule_options)).
pub trait OptionField: Sized {
    /// The field's value from the option's, `None` when it does not fit the field (a table
    /// that declares values its field cannot hold).
    fn from_option(value: OptionValue) -> Option<Self>;
    /// The option's value of the field.
    fn to_option(&self) -> OptionValue;
}

impl OptionField for bool {
    fn from_option(value: OptionValue) -> Option<Self> {
        match value {
            OptionValue::Flag(b) => Some(b),
            OptionValue::Whole(_) => None,
        }
    }
    fn to_option(&self) -> OptionValue {
        OptionValue::Flag(*self)
    }
}

macro_rules! whole_fields {
    ($($t:ty),*) => {$(
        impl OptionField for $t {
            fn from_option(value: OptionValue) -> Option<Self> {
                match value {
                    OptionValue::Whole(n) => <$t>::try_from(n).ok(),
                    OptionValue::Flag(_) => None,
                }
            }
            fn to_option(&self) -> OptionValue {
                OptionValue::Whole(i64::from(*self))
            }
        }
    )*};
}
whole_fields!(u8, u16, u32, i32, i64);

/// Declares a game's rule options, once, inside its `impl Game`: one line per option,
/// `name: kind => "help",` where `name` is both the option's name and the field of the
/// game that holds it, and `kind` one of [`kinds`]: `flag(default)`, `range(min, max,
/// default)`, `choice(&[values], default)` or `max_throws()`. It writes
/// [`Game::option_specs`](crate::Game::option_specs),
/// [`Game::set_option`](crate::Game::set_option) and
/// [`Game::options`](crate::Game::options) from that table.
///
/// ```ignore
/// impl Game for MyGame {
///     stickdice::rule_options! {
///         max_throws: max_throws() => stickdice::config::MAX_THROWS_HELP,
///         long_track: flag(false) => "the pieces go round twice",
///     }
///     // …
/// }
/// ```
#[macro_export]
macro_rules! rule_options {
    ($($name:ident : $kind:expr => $help:expr),* $(,)?) => {
        fn option_specs() -> &'static [$crate::options::OptionSpec<'static>]
        where
            Self: Sized,
        {
            #[allow(unused_imports)]
            use $crate::options::kinds::*;
            const SPECS: &[$crate::options::OptionSpec<'static>] = &[$(
                $crate::options::OptionSpec {
                    name: stringify!($name),
                    kind: $kind,
                    help: $help,
                }
            ),*];
            SPECS
        }

        fn set_option(
            &mut self,
            key: &str,
            value: &str,
        ) -> ::core::result::Result<(), $crate::game::ConfigError> {
            let spec = $crate::options::find(
                <Self as $crate::game::Game>::NAME,
                <Self as $crate::game::Game>::option_specs(),
                key,
            )?;
            #[allow(unused_variables)]
            let read = spec.parse(value)?;
            match spec.name {
                $(stringify!($name) => {
                    self.$name = $crate::options::OptionField::from_option(read)
                        .ok_or_else(|| spec.refuse(value))?;
                })*
                _ => {}
            }
            Ok(())
        }

        fn options(&self) -> ::std::vec::Vec<(&'static str, ::std::string::String)> {
            ::std::vec![$((
                stringify!($name),
                $crate::options::OptionField::to_option(&self.$name).to_string(),
            )),*]
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec<'static>] = &[
        MAX_THROWS,
        OptionSpec {
            name: "long_track",
            kind: kinds::flag(false),
            help: "the pieces go round twice",
        },
        OptionSpec {
            name: "columns",
            kind: kinds::choice(&[7, 9, 11], 7),
            help: "the columns",
        },
    ];

    #[test]
    fn the_parser_reads_each_kind_and_says_what_it_takes() {
        let read = parse_options(
            "g",
            SPECS,
            [
                ("long_track", "Yes"),
                ("columns", "9"),
                ("max_throws", "12"),
            ],
        )
        .unwrap();
        let values: Vec<(&str, OptionValue)> = read.iter().map(|(s, v)| (s.name, *v)).collect();
        assert_eq!(
            values,
            [
                ("long_track", OptionValue::Flag(true)),
                ("columns", OptionValue::Whole(9)),
                ("max_throws", OptionValue::Whole(12)),
            ]
        );
        let err = parse_options("g", SPECS, [("columns", "8")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rule option `columns` takes one of 7, 9, 11, not `8`"
        );
        let err = parse_options("g", SPECS, [("max_throws", "0")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rule option `max_throws` takes a whole number from 1 to 4294967295, not `0`"
        );
        let err = parse_options("g", SPECS, [("long_track", "maybe")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rule option `long_track` takes true or false, not `maybe`"
        );
        let err = parse_options("g", SPECS, [("long_trak", "true")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "g has no rule option `long_trak` (did you mean `long_track`?); its options are: \
             max_throws, long_track, columns"
        );
    }

    #[test]
    fn a_repeated_option_is_refused_not_last_wins() {
        let err =
            parse_options("g", SPECS, [("max_throws", "1"), ("max_throws", "2")]).unwrap_err();
        assert_eq!(
            err,
            ConfigError::Repeated {
                key: "max_throws".to_string()
            }
        );
        assert_eq!(
            err.to_string(),
            "rule option `max_throws` is given twice: give each option once"
        );
        // Even with the same value.
        assert!(parse_options("g", SPECS, [("columns", "7"), ("columns", "7")]).is_err());
    }

    #[test]
    fn defaults_and_values_are_written_as_options_writes_them() {
        assert_eq!(MAX_THROWS.default_value().to_string(), "10000");
        assert_eq!(SPECS[1].default_value().to_string(), "false");
        assert_eq!(SPECS[1].type_name(), "bool");
        assert_eq!(SPECS[2].type_name(), "int");
        let long = OptionSpec {
            name: "n",
            kind: kinds::choice(&[1, 2, 3, 4, 5, 6, 7], 1),
            help: "",
        };
        assert_eq!(long.allowed(), "a whole number from 1 to 7");
        assert_eq!(u8::from_option(OptionValue::Whole(300)), None);
        assert_eq!(u32::from_option(OptionValue::Whole(300)), Some(300));
        assert_eq!(bool::from_option(OptionValue::Whole(1)), None);
    }
}
