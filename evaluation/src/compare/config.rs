//! Configurations to compare: a game, its rule options and its seat count; read from the
//! command line's `--game G --option k=v1,v2 --players 2,3` groups (each list expands to the
//! cross product) or from a small TOML file.

use std::fmt;

use serde::Serialize;
use stickdice::{AnyGame, ConfigError, GameKind};

/// One configuration: a game, its rule options (`key`, `value`, as `--option key=value`
/// takes them) and its seat count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Configuration {
    /// The game's name (`sig-el-oued`).
    pub game: String,
    /// The rule options set (the others keep their defaults), in the order given.
    pub options: Vec<(String, String)>,
    /// The number of seats.
    pub players: usize,
    /// For a description loaded from a file (`--game-file`): its digest (the description
    /// is kept by [`stickdice::described::file::register`]); `game` is then its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl Configuration {
    /// The configuration of `game` for `players` seats (the game's fewest if `None`) with
    /// `options` written `key=value`, checked: an unknown game, a seat count it does not
    /// allow or an option it does not take is refused.
    ///
    /// # Errors
    /// [`CompareError::Config`] saying what is wrong.
    pub fn new<S: AsRef<str>>(
        game: &str,
        players: Option<usize>,
        options: &[S],
    ) -> Result<Configuration, CompareError> {
        let kind: GameKind = game.trim().parse().map_err(CompareError::Config)?;
        let players = players.unwrap_or(kind.default_seats());
        let pairs = option_pairs(options)?;
        let c = Configuration {
            game: kind.name().to_string(),
            options: pairs,
            players,
            description: None,
        };
        c.build()?;
        Ok(c)
    }

    /// The configuration of a description loaded from a file, as [`Configuration::new`]
    /// for a game of the list.
    ///
    /// # Errors
    /// [`CompareError::Config`] saying what is wrong.
    pub fn of_description<S: AsRef<str>>(
        base: std::sync::Arc<stickdice::described::Base>,
        players: Option<usize>,
        options: &[S],
    ) -> Result<Configuration, CompareError> {
        let loaded = stickdice::described::file::register(base);
        let pairs = option_pairs(options)?;
        let c = Configuration {
            game: loaded.name().to_string(),
            options: pairs,
            players: players.unwrap_or(loaded.default_seats()),
            description: Some(loaded.digest().to_string()),
        };
        c.build()?;
        Ok(c)
    }

    /// The configured game.
    ///
    /// # Errors
    /// [`CompareError::Config`] for an unknown game, seat count or option.
    pub fn build(&self) -> Result<AnyGame, CompareError> {
        let opts: Vec<String> = self
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        match &self.description {
            None => AnyGame::new(&self.game, Some(self.players), &opts),
            Some(digest) => match stickdice::described::file::registered(digest) {
                Some(loaded) => stickdice::described::file::any_game(
                    loaded.base().clone(),
                    Some(self.players),
                    &opts,
                ),
                None => Err(ConfigError::NoGameFile),
            },
        }
        .map_err(CompareError::Config)
    }

    /// A short label: `sig-el-oued 2p cairo_always_three=true` (the options set, in order).
    pub fn label(&self) -> String {
        let mut s = format!("{} {}p", self.game, self.players);
        for (k, v) in &self.options {
            s.push_str(&format!(" {k}={v}"));
        }
        s
    }
}

impl fmt::Display for Configuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// Every game of the family in its default reading, two players (a game that cannot take two:
/// its fewest seats), in the registry's order (`stickdice games`).
///
/// # Errors
/// [`CompareError::Config`] if a game of the registry cannot be built (a broken build).
pub fn every_game() -> Result<Vec<Configuration>, CompareError> {
    // The `game-file` slot is not a game of the family but the place of a user's file.
    GameKind::ALL
        .iter()
        .filter(|k| **k != GameKind::GameFile)
        .map(|k| {
            let (low, high) = k.seat_range();
            let players = if (low..=high).contains(&2) { 2 } else { low };
            Configuration::new(k.name(), Some(players), &[] as &[&str])
        })
        .collect()
}

/// Why a comparison could not be set up or run.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CompareError {
    /// An unknown game, a seat count it does not allow, or a bad rule option.
    Config(ConfigError),
    /// A metric name that is not one of [`super::METRICS`].
    UnknownMetric {
        /// The name given.
        name: String,
        /// The closest known name, if one is close.
        near: Option<&'static str>,
    },
    /// The command-line groups or the TOML file are malformed.
    Syntax(String),
    /// A description file (`--game-file`) that cannot be read.
    Description(stickdice::described::DescriptionError),
    /// An agent spec that cannot be built for a game.
    Agent(String),
    /// Nothing to compare, or a setting out of range.
    Settings(String),
    /// The comparison was stopped before it finished ([`super::compare_until`]).
    Stopped,
}

impl fmt::Display for CompareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompareError::Config(e) => write!(f, "{e}"),
            CompareError::Description(e) => write!(f, "{e}"),
            CompareError::UnknownMetric { name, near } => {
                write!(f, "unknown metric `{name}`")?;
                if let Some(n) = near {
                    write!(f, " (did you mean `{n}`?)")?;
                }
                write!(f, "; the metrics are: {}", super::METRICS.join(", "))
            }
            CompareError::Syntax(m) | CompareError::Agent(m) | CompareError::Settings(m) => {
                f.write_str(m)
            }
            CompareError::Stopped => f.write_str("the comparison was stopped before it finished"),
        }
    }
}

impl std::error::Error for CompareError {
    /// The configuration error behind [`CompareError::Config`].
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CompareError::Config(e) => Some(e),
            _ => None,
        }
    }
}

/// The most configurations one comparison takes (each is played and measured for
/// seconds at least; the command line's lists of values multiply, so a few long lists
/// would otherwise fill the memory before any game is played).
pub const MAX_CONFIGURATIONS: usize = 1000;

/// One item of the command line, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// `--game NAME`: starts a new group.
    Game(String),
    /// `--game-file PATH`: starts a new group, of the description in the file.
    GameFile(String),
    /// `--option key=v1,v2`: a rule option of the latest game and the values to try.
    Option(String),
    /// `--players 2,3`: the seat counts of the latest game.
    Players(String),
}

/// The configurations of command-line groups: each `--game` starts a group, the
/// `--option` and `--players` after it belong to it, and each group expands to the cross
/// product of its seat counts and option values (a value list splits at commas), in the
/// order given (the first option varies slowest, seat counts slowest of all).
///
/// ```
/// use stickdice_evaluation::compare::{parse_groups, Arg};
/// let configs = parse_groups(&[
///     Arg::Game("sig-el-oued".into()),
///     Arg::Option("cairo_always_three=false,true".into()),
///     Arg::Players("2,3".into()),
///     Arg::Game("issiren".into()),
/// ])
/// .unwrap();
/// let labels: Vec<String> = configs.iter().map(|c| c.label()).collect();
/// assert_eq!(labels, [
///     "sig-el-oued 2p cairo_always_three=false",
///     "sig-el-oued 2p cairo_always_three=true",
///     "sig-el-oued 3p cairo_always_three=false",
///     "sig-el-oued 3p cairo_always_three=true",
///     "issiren 2p",
/// ]);
/// ```
///
/// # Errors
/// [`CompareError::Syntax`] for an option or seat count before any game, a seat count
/// that is not a number, or an empty value list; [`CompareError::Config`] for an unknown
/// game, option or value, or a seat count the game does not allow.
pub fn parse_groups(args: &[Arg]) -> Result<Vec<Configuration>, CompareError> {
    let mut out = Vec::new();
    let mut counted = 0usize;
    let mut group: Option<Group> = None;
    for a in args {
        match a {
            Arg::Game(name) => {
                if let Some(g) = group.take() {
                    out.extend(g.expand(&mut counted)?);
                }
                group = Some(Group {
                    game: name.clone(),
                    description: None,
                    players: Vec::new(),
                    options: Vec::new(),
                });
            }
            Arg::GameFile(path) => {
                if let Some(g) = group.take() {
                    out.extend(g.expand(&mut counted)?);
                }
                let base = stickdice::described::file::load(std::path::Path::new(path))
                    .map_err(CompareError::Description)?;
                group = Some(Group {
                    game: path.clone(),
                    description: Some(base),
                    players: Vec::new(),
                    options: Vec::new(),
                });
            }
            Arg::Option(text) => {
                let g = group.as_mut().ok_or_else(|| {
                    CompareError::Syntax(format!(
                        "--option {text} comes before any --game: write --game first"
                    ))
                })?;
                let (k, vs) =
                    stickdice::config::parse_option(text).map_err(CompareError::Config)?;
                let values = split_list(vs);
                if values.is_empty() {
                    return Err(CompareError::Syntax(format!(
                        "--option {text} lists no value"
                    )));
                }
                g.options.push((k.trim().to_string(), values));
            }
            Arg::Players(text) => {
                let g = group.as_mut().ok_or_else(|| {
                    CompareError::Syntax(format!(
                        "--players {text} comes before any --game: write --game first"
                    ))
                })?;
                for p in split_list(text) {
                    g.players.push(p.parse().map_err(|_| {
                        CompareError::Syntax(format!(
                            "--players takes seat counts such as 2,3, not `{p}`"
                        ))
                    })?);
                }
            }
        }
    }
    if let Some(g) = group {
        out.extend(g.expand(&mut counted)?);
    }
    Ok(out)
}

fn split_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

struct Group {
    game: String,
    description: Option<std::sync::Arc<stickdice::described::Base>>,
    players: Vec<usize>,
    options: Vec<(String, Vec<String>)>,
}

impl Group {
    /// The group's configurations; `counted` (those of the groups before it) grows by
    /// their number, which is checked against [`MAX_CONFIGURATIONS`] before any is made.
    fn expand(self, counted: &mut usize) -> Result<Vec<Configuration>, CompareError> {
        let players: Vec<Option<usize>> = if self.players.is_empty() {
            vec![None]
        } else {
            self.players.iter().map(|&p| Some(p)).collect()
        };
        let total = self
            .options
            .iter()
            .try_fold(players.len(), |n, (_, values)| n.checked_mul(values.len()))
            .and_then(|n| n.checked_add(*counted))
            .filter(|&n| n <= MAX_CONFIGURATIONS);
        *counted = total.ok_or_else(|| {
            CompareError::Settings(format!(
                "the groups expand to more than {MAX_CONFIGURATIONS} configurations (each \
                 list of values multiplies them): compare fewer at once"
            ))
        })?;
        let mut combos: Vec<Vec<String>> = vec![Vec::new()];
        for (k, values) in &self.options {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push(format!("{k}={v}"));
                        c
                    })
                })
                .collect();
        }
        let mut out = Vec::new();
        for p in players {
            for c in &combos {
                out.push(match &self.description {
                    Some(base) => Configuration::of_description(base.clone(), p, c)?,
                    None => Configuration::new(&self.game, p, c)?,
                });
            }
        }
        Ok(out)
    }
}

/// The configurations listed in a TOML file: one `[[configuration]]` table each, with
/// `game` (a name), `players` (a number or a list) and `options` (a table whose values are
/// strings, numbers, booleans or lists of them, each list expanding to the cross product,
/// as on the command line).
///
/// ```
/// let text = r#"
/// [[configuration]]
/// game = "sig-el-oued"
/// players = [2, 3]
/// options = { cairo_always_three = [false, true] }
///
/// [[configuration]]
/// game = "issiren"
/// "#;
/// let configs = stickdice_evaluation::compare::parse_toml(text).unwrap();
/// assert_eq!(configs.len(), 5);
/// assert_eq!(configs[4].label(), "issiren 2p");
/// ```
///
/// # Errors
/// [`CompareError::Syntax`] for text that is not TOML or a table that is not a
/// configuration; [`CompareError::Config`] for an unknown game, option or value.
pub fn parse_toml(text: &str) -> Result<Vec<Configuration>, CompareError> {
    use toml_edit::{DocumentMut, Item, Value};
    let doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| CompareError::Syntax(format!("not TOML: {e}")))?;
    for (key, _) in doc.iter() {
        if key != "configuration" {
            return Err(CompareError::Syntax(format!(
                "unknown key `{key}`: the file lists [[configuration]] tables"
            )));
        }
    }
    let Some(tables) = doc.get("configuration").and_then(Item::as_array_of_tables) else {
        return Err(CompareError::Syntax(
            "no [[configuration]] table: list each configuration as [[configuration]] with game = \"…\""
                .to_string(),
        ));
    };
    fn scalar(v: &Value) -> Option<String> {
        match v {
            Value::String(s) => Some(s.value().clone()),
            Value::Integer(i) => Some(i.value().to_string()),
            Value::Float(f) => Some(f.value().to_string()),
            Value::Boolean(b) => Some(b.value().to_string()),
            _ => None,
        }
    }
    fn values(v: &Value) -> Option<Vec<String>> {
        match v {
            Value::Array(a) => a.iter().map(scalar).collect(),
            other => scalar(other).map(|s| vec![s]),
        }
    }
    let mut args = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        let where_ = format!("configuration {}", i + 1);
        for (key, _) in t.iter() {
            if !matches!(key, "game" | "players" | "options") {
                return Err(CompareError::Syntax(format!(
                    "{where_}: unknown key `{key}` (a configuration has game, players and options)"
                )));
            }
        }
        let game = t
            .get("game")
            .and_then(Item::as_str)
            .ok_or_else(|| CompareError::Syntax(format!("{where_}: no game = \"…\"")))?;
        args.push(Arg::Game(game.to_string()));
        if let Some(p) = t.get("players") {
            let list = p.as_value().and_then(values).ok_or_else(|| {
                CompareError::Syntax(format!(
                    "{where_}: players is a number or a list of numbers"
                ))
            })?;
            args.push(Arg::Players(list.join(",")));
        }
        if let Some(o) = t.get("options") {
            let table = o
                .as_table_like()
                .ok_or_else(|| CompareError::Syntax(format!("{where_}: options is a table")))?;
            for (k, v) in table.iter() {
                let list = v.as_value().and_then(values).ok_or_else(|| {
                    CompareError::Syntax(format!(
                        "{where_}: option {k} takes a string, number, boolean or a list of them"
                    ))
                })?;
                if list.iter().any(|v| v.contains(',')) {
                    return Err(CompareError::Syntax(format!(
                        "{where_}: option {k}: a value cannot contain a comma"
                    )));
                }
                args.push(Arg::Option(format!("{k}={}", list.join(","))));
            }
        }
    }
    parse_groups(&args)
}

/// `key=value` options as trimmed pairs, in the order given.
fn option_pairs<S: AsRef<str>>(options: &[S]) -> Result<Vec<(String, String)>, CompareError> {
    options
        .iter()
        .map(|o| {
            let (k, v) =
                stickdice::config::parse_option(o.as_ref()).map_err(CompareError::Config)?;
            Ok((k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_game_option_and_value_are_refused_with_the_known_ones() {
        let e = parse_groups(&[Arg::Game("sig-el-oeud".into())]).unwrap_err();
        assert!(e.to_string().contains("did you mean `sig-el-oued`"), "{e}");
        let e = parse_groups(&[
            Arg::Game("issiren".into()),
            Arg::Option("colour=red".into()),
        ])
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("issiren has no rule option `colour`"),
            "{e}"
        );
        let e = parse_groups(&[
            Arg::Game("sig-el-oued".into()),
            Arg::Option("cairo_always_three=maybe".into()),
        ])
        .unwrap_err();
        assert!(e.to_string().contains("takes"), "{e}");
        let e = parse_groups(&[Arg::Game("issiren".into()), Arg::Players("9".into())]).unwrap_err();
        assert!(e.to_string().contains("not 9"), "{e}");
        let e = parse_groups(&[Arg::Players("2".into())]).unwrap_err();
        assert!(e.to_string().contains("before any --game"), "{e}");
    }

    #[test]
    fn toml_errors_name_the_configuration() {
        let e = parse_toml("[[configuration]]\nplayers = 2\n").unwrap_err();
        assert!(e.to_string().contains("configuration 1: no game"), "{e}");
        let e = parse_toml("[[configuration]]\ngame = \"issiren\"\nseats = 2\n").unwrap_err();
        assert!(e.to_string().contains("unknown key `seats`"), "{e}");
        let e = parse_toml("game = ").unwrap_err();
        assert!(e.to_string().contains("not TOML"), "{e}");
    }
}
