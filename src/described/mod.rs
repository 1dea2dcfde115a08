//! Games of the family as data: a description format (TOML, `format = 1`), its compiler to
//! flat tables, and one game type, [`Described`], that plays every description.
//!
//! A description names mechanics, not games: sticks and throw tables, extra throws,
//! release and stored values, tracks built from runs over a grid with loops, forks and
//! gates, holding positions, occupancy (one piece a square, stacks, shared squares),
//! capture by landing, safe regions, teams, an opening, a neutral chaser, and the ways a
//! game ends and ranks. A rule option is a named patch of the description
//! (`[options.NAME]`), applied before compiling. The shipped games live in
//! `src/described/games/*.toml`; each is registered as a thin newtype
//! ([`described_game!`](crate::described_game)) that carries the trait's constants.
//!
//! The book's chapter `docs/described/format.md` is the reference of every field.

mod action;
mod chased;
mod chaser;
mod codes;
mod compile;
mod digest;
mod engine;
pub mod file;
pub mod format;
pub mod games;
mod plain;
mod position;
pub mod query;
pub mod schema;
mod spent;
mod stacked;
mod state;
mod stocked;

use core::fmt;
use std::sync::Arc;

pub use action::{Action, Kind};
pub use compile::{MAX_COLUMNS, MAX_PIECES, MAX_ROWS, MAX_SQUARES};
pub use file::FileGame;
pub use format::Description;
pub use position::{Piece, Position, Problem, SeatList};
pub use state::State;

use crate::config::DEFAULT_MAX_THROWS;
use crate::dice::{Sticks, Throw};
use crate::game::{ConfigError, InvalidState, Node, NotationError, Ranking, Seat};
use crate::options::OptionValue;
use compile::{Compiled, NONE};
use engine::{Buf, BUFFER};
use format::OptionKind;
use state::{GONE, OFF, UNMOVED};

/// A description that cannot be read or compiled: the file, where, the field and what was
/// expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescriptionError {
    /// The file (or `<text>`).
    pub file: String,
    /// The line and column (1-based), where known.
    pub at: Option<(usize, usize)>,
    /// The field, as a path (`track.runs[2].dir`), where known.
    pub field: String,
    /// What is wrong and what was expected.
    pub message: String,
}

impl DescriptionError {
    pub(crate) fn invalid(field: &str, message: impl Into<String>) -> DescriptionError {
        DescriptionError {
            file: String::new(),
            at: None,
            field: field.to_string(),
            message: message.into(),
        }
    }

    pub(crate) fn in_file(mut self, file: &str, text: Option<&str>) -> DescriptionError {
        self.file = file.to_string();
        if self.at.is_none() {
            if let Some(text) = text {
                self.at = locate(text, &self.field);
            }
        }
        self
    }
}

impl fmt::Display for DescriptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.file.is_empty() {
            "<description>"
        } else {
            &self.file
        })?;
        if let Some((line, col)) = self.at {
            write!(f, ":{line}:{col}")?;
        }
        if !self.field.is_empty() {
            write!(f, ": field `{}`", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for DescriptionError {}

/// The line and column of a field's key in the text: the last named part of the path, as
/// a key (`name =`) or a table header, found after the header of its first part.
fn locate(text: &str, field: &str) -> Option<(usize, usize)> {
    let raw: Vec<&str> = field.split('.').collect();
    let last_raw = *raw.last()?;
    // `runs[1].row`: the index of the part before the key picks the occurrence.
    let occurrence = raw
        .iter()
        .rev()
        .nth(1)
        .and_then(|p| p.split_once('['))
        .and_then(|(_, i)| i.trim_end_matches(']').parse::<usize>().ok())
        .unwrap_or(0);
    let last = last_raw.split('[').next().unwrap_or(last_raw);
    let first = raw[0].split('[').next().unwrap_or(raw[0]);
    let mut after = 0;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with('[') && t.trim_start_matches('[').starts_with(first) {
            after = i;
            break;
        }
    }
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate().skip(after) {
        let t = line.trim_start();
        if t.starts_with('[') && t.trim_matches(|c| c == '[' || c == ']').ends_with(last) {
            found.push((i + 1, line.len() - t.len() + 1));
            continue;
        }
        let bytes = line.as_bytes();
        let mut from = 0;
        while let Some(k) = line[from..].find(last) {
            let at = from + k;
            let before_ok =
                at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
            let rest = line[at + last.len()..].trim_start();
            if before_ok && rest.starts_with('=') && !rest.starts_with("==") {
                found.push((i + 1, at + 1));
            }
            from = at + last.len();
        }
    }
    found.get(occurrence).or(found.first()).copied()
}

/// Turns a TOML reading error into a [`DescriptionError`], with the nearest name for an
/// unknown field.
fn toml_error(file: &str, text: Option<&str>, e: &toml::de::Error) -> DescriptionError {
    let at = match (text, e.span()) {
        (Some(text), Some(span)) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            Some((line, col))
        }
        _ => None,
    };
    let mut message = e.message().trim().to_string();
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some((name, tail)) = rest.split_once('`') {
            let expected: Vec<&str> = tail.split('`').skip(1).step_by(2).collect();
            if let Some(near) = crate::config::did_you_mean(name, expected.iter().copied()) {
                message = format!("{message} (did you mean `{near}`?)");
            }
        }
    }
    DescriptionError {
        file: file.to_string(),
        at,
        field: toml_error_field(e),
        message,
    }
}

/// The field a TOML reading error is about (`board.columns`), where the reader names it:
/// its text without the input ends with ``in `board.columns` ``.
fn toml_error_field(e: &toml::de::Error) -> String {
    let mut bare = e.clone();
    bare.set_input(None);
    bare.to_string()
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("in `"))
        .and_then(|l| l.strip_suffix('`'))
        .unwrap_or_default()
        .to_string()
}

/// A description read from its text, before options: the typed form and the tree the
/// options patch.
#[derive(Clone, Debug, PartialEq)]
pub struct Base {
    file: String,
    text: String,
    tree: toml::Table,
    description: Description,
}

impl Base {
    /// Reads and checks a description (its default options compiled for its fewest seats).
    ///
    /// # Errors
    /// A [`DescriptionError`] naming the file, line, field and what was expected.
    pub fn parse(file: &str, text: &str) -> Result<Base, DescriptionError> {
        let tree: toml::Table =
            toml::from_str(text).map_err(|e| toml_error(file, Some(text), &e))?;
        if tree.contains_key("extends") {
            return Base::parse_reading(file, text);
        }
        let description: Description =
            toml::from_str(text).map_err(|e| toml_error(file, Some(text), &e))?;
        Base::from_parts(file, text, tree, description)
    }

    /// A reading: a file that names a shipped description (`extends`) and patches it.
    fn parse_reading(file: &str, text: &str) -> Result<Base, DescriptionError> {
        let reading: format::Reading =
            toml::from_str(text).map_err(|e| toml_error(file, Some(text), &e))?;
        if reading.format != 1 {
            return Err(DescriptionError::invalid(
                "format",
                format!("version {}: this stickdice reads format 1", reading.format),
            )
            .in_file(file, Some(text)));
        }
        let Some((_, base_text)) = games::shipped(&reading.extends) else {
            let names = games::SHIPPED.iter().map(|(n, _, _)| *n);
            let near = crate::config::did_you_mean(&reading.extends, names.clone());
            return Err(DescriptionError::invalid(
                "extends",
                format!(
                    "no shipped description `{}`{}; they are: {}",
                    reading.extends,
                    near.map(|n| format!(" (did you mean `{n}`?)"))
                        .unwrap_or_default(),
                    names.collect::<Vec<_>>().join(", ")
                ),
            )
            .in_file(file, Some(text)));
        };
        let mut tree: toml::Table =
            toml::from_str(base_text).map_err(|e| toml_error(file, None, &e))?;
        merge(&mut tree, &reading.patch, "patch")?;
        tree.insert("name".into(), toml::Value::String(reading.name.clone()));
        tree.insert("title".into(), toml::Value::String(reading.title.clone()));
        if let Some(source) = &reading.source {
            tree.insert("source".into(), toml::Value::String(source.clone()));
        }
        let description: Description =
            toml::Value::Table(tree.clone())
                .try_into()
                .map_err(|e: toml::de::Error| {
                    let mut err = toml_error(file, None, &e);
                    err.field = "patch".into();
                    err.message =
                        format!("after the patch of `{}`: {}", reading.extends, err.message);
                    err
                })?;
        Base::from_parts(file, text, tree, description)
    }

    fn from_parts(
        file: &str,
        text: &str,
        tree: toml::Table,
        description: Description,
    ) -> Result<Base, DescriptionError> {
        for (name, o) in &description.options {
            if name == "max_throws" {
                return Err(DescriptionError::invalid(
                    &format!("options.{name}"),
                    "`max_throws` is an option of every game already",
                )
                .in_file(file, Some(text)));
            }
            check_option_spec(name, o).map_err(|e| e.in_file(file, Some(text)))?;
        }
        let base = Base {
            file: file.to_string(),
            text: text.to_string(),
            tree,
            description,
        };
        // Every option at its default, then each option alone at its other values, must
        // compile: a patch that names nothing or breaks the game is found here.
        let defaults = base.default_values();
        base.compile(base.description.seats.min, &defaults)?;
        for (i, (name, o)) in base.description.options.iter().enumerate() {
            let values: Vec<i64> = match o.kind {
                OptionKind::Bool => vec![0, 1],
                OptionKind::Int => option_values(o),
            };
            for v in values {
                let mut vals = defaults.clone();
                vals[i] = v;
                base.compile(base.description.seats.min, &vals)
                    .map_err(|mut e| {
                        e.message = format!("with option `{name}` = {v}: {}", e.message);
                        e
                    })?;
            }
        }
        Ok(base)
    }

    /// The description as read (options not applied).
    pub fn description(&self) -> &Description {
        &self.description
    }

    /// The file's name.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The text of the file.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The rule options' table: the description's options, in the file's order, with the
    /// help the file gives, then `max_throws`.
    pub fn option_specs(&self) -> Vec<crate::options::OptionSpec<'_>> {
        use crate::options::{OptionSpec, OptionType};
        self.description
            .options
            .iter()
            .map(|(name, o)| {
                let default = o.default.unwrap_or(0);
                let kind = match o.kind {
                    OptionKind::Bool => OptionType::Flag {
                        default: default != 0,
                    },
                    OptionKind::Int if !o.values.is_empty() => OptionType::Choice {
                        values: &o.values,
                        default,
                    },
                    OptionKind::Int => OptionType::Range {
                        min: o.min.unwrap_or(default),
                        max: o.max.unwrap_or(default),
                        default,
                    },
                };
                OptionSpec {
                    name: name.as_str(),
                    kind,
                    help: o.help.as_str(),
                }
            })
            .chain([crate::options::MAX_THROWS])
            .collect()
    }

    fn default_values(&self) -> Vec<i64> {
        self.description
            .options
            .values()
            .map(|o| o.default.unwrap_or(0))
            .collect()
    }

    /// The description with options applied (values in `options` order).
    fn patched(&self, values: &[i64]) -> Result<Description, DescriptionError> {
        let mut tree = self.tree.clone();
        for ((name, o), &v) in self.description.options.iter().zip(values) {
            let apply = match o.kind {
                OptionKind::Bool => v != 0,
                OptionKind::Int => true,
            };
            if apply {
                let mut patch = toml::Value::Table(o.patch.clone());
                substitute(&mut patch, v);
                if let toml::Value::Table(p) = patch {
                    merge(&mut tree, &p, &format!("options.{name}.patch"))
                        .map_err(|e| e.in_file(&self.file, Some(&self.text)))?;
                }
            }
        }
        tree.remove("options");
        let d: Description =
            toml::Value::Table(tree.clone())
                .try_into()
                .map_err(|e: toml::de::Error| {
                    let mut err = toml_error(&self.file, None, &e);
                    err.message = format!("after the options' patches: {}", err.message);
                    err
                })?;
        Ok(Description {
            options: self.description.options.clone(),
            ..d
        })
    }

    fn compile(&self, seats: usize, values: &[i64]) -> Result<Compiled, DescriptionError> {
        let d = self.patched(values)?;
        compile::compile(&d, seats).map_err(|e| e.in_file(&self.file, Some(&self.text)))
    }
}

fn check_option_spec(name: &str, o: &format::OptionSpec) -> Result<(), DescriptionError> {
    let f = format!("options.{name}");
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit())
    {
        return Err(DescriptionError::invalid(
            &f,
            "an option's name is lower-case letters, digits and `_`",
        ));
    }
    match o.kind {
        OptionKind::Bool => {
            if !matches!(o.default, None | Some(0) | Some(1))
                || o.min.is_some()
                || o.max.is_some()
                || !o.values.is_empty()
            {
                return Err(DescriptionError::invalid(
                    &f,
                    "a `bool` option takes no `min`, `max` or `values`, and its default is 0 or 1",
                ));
            }
        }
        OptionKind::Int => {
            let values = option_values(o);
            if values.is_empty() {
                return Err(DescriptionError::invalid(
                    &f,
                    "an `int` option needs `values`, or `min` and `max`",
                ));
            }
            match o.default {
                Some(d) if values.contains(&d) => {}
                _ => {
                    return Err(DescriptionError::invalid(
                        &format!("{f}.default"),
                        format!("expected one of the option's values {values:?}"),
                    ))
                }
            }
            if !contains_value(&toml::Value::Table(o.patch.clone())) {
                return Err(DescriptionError::invalid(
                    &format!("{f}.patch"),
                    "an `int` option's patch must use \"$value\"",
                ));
            }
        }
    }
    if o.patch.is_empty() {
        return Err(DescriptionError::invalid(
            &format!("{f}.patch"),
            "an empty patch changes nothing",
        ));
    }
    Ok(())
}

fn option_values(o: &format::OptionSpec) -> Vec<i64> {
    if !o.values.is_empty() {
        return o.values.clone();
    }
    match (o.min, o.max) {
        (Some(lo), Some(hi)) if lo <= hi && hi - lo <= 1000 => (lo..=hi).collect(),
        _ => Vec::new(),
    }
}

fn contains_value(v: &toml::Value) -> bool {
    match v {
        toml::Value::String(s) => s == "$value",
        toml::Value::Array(a) => a.iter().any(contains_value),
        toml::Value::Table(t) => t.values().any(contains_value),
        _ => false,
    }
}

fn substitute(v: &mut toml::Value, value: i64) {
    match v {
        toml::Value::String(s) if s == "$value" => *v = toml::Value::Integer(value),
        toml::Value::Array(a) => a.iter_mut().for_each(|x| substitute(x, value)),
        toml::Value::Table(t) => t.iter_mut().for_each(|(_, x)| substitute(x, value)),
        _ => {}
    }
}

/// Merges a patch into a tree: tables merge key by key, anything else replaces. A key the
/// tree lacks must be a field of the format (checked when the result is read), but a
/// patch must change something that exists or a field the format has: a table key unknown
/// to the tree is refused when the tree has a table there with no such key and the format
/// refuses it later.
fn merge(tree: &mut toml::Table, patch: &toml::Table, path: &str) -> Result<(), DescriptionError> {
    for (k, v) in patch {
        let here = format!("{path}.{k}");
        match (tree.get_mut(k), v) {
            (Some(toml::Value::Table(t)), toml::Value::Table(p)) => merge(t, p, &here)?,
            (Some(slot), v) => *slot = v.clone(),
            (None, v) => {
                tree.insert(k.clone(), v.clone());
            }
        }
    }
    Ok(())
}

/// A described game: a compiled description with its seat count and option values.
#[derive(Clone)]
pub struct Described {
    base: Arc<Base>,
    compiled: Arc<Compiled>,
    values: Vec<i64>,
    max_throws: u32,
}

impl fmt::Debug for Described {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Described")
            .field("name", &self.compiled.name)
            .field("seats", &self.compiled.seats)
            .field("options", &self.values)
            .field("max_throws", &self.max_throws)
            .finish()
    }
}

impl PartialEq for Described {
    fn eq(&self, other: &Self) -> bool {
        self.base.text == other.base.text
            && self.compiled.seats == other.compiled.seats
            && self.values == other.values
            && self.max_throws == other.max_throws
    }
}

impl Described {
    /// Builds the game of a description for a seat count, options at their defaults.
    ///
    /// # Errors
    /// When the seat count is not allowed, or the description does not compile.
    pub fn new(base: Arc<Base>, seats: usize) -> Result<Described, DescriptionError> {
        let values = base.default_values();
        let compiled = Arc::new(base.compile(seats, &values)?);
        Ok(Described {
            base,
            compiled,
            values,
            max_throws: DEFAULT_MAX_THROWS,
        })
    }

    /// Reads a description's text and builds its game for its fewest seats.
    ///
    /// # Errors
    /// A [`DescriptionError`] naming the file, line, field and what was expected.
    pub fn from_text(file: &str, text: &str) -> Result<Described, DescriptionError> {
        let base = Arc::new(Base::parse(file, text)?);
        let seats = base.description.seats.min;
        Described::new(base, seats)
    }

    /// The description's base (before options).
    pub fn base(&self) -> &Base {
        &self.base
    }

    /// The digest of the description's content ([`Base::digest`]).
    pub fn digest(&self) -> String {
        self.base.digest()
    }

    /// The game's name.
    pub fn name(&self) -> &str {
        &self.compiled.name
    }

    /// The game's title.
    pub fn title(&self) -> &str {
        &self.compiled.title
    }

    /// The seat count.
    pub fn seats(&self) -> usize {
        self.compiled.seats
    }

    /// The rule options' table (see [`Base::option_specs`]).
    pub fn option_specs(&self) -> Vec<crate::options::OptionSpec<'_>> {
        self.base.option_specs()
    }

    /// The option names (the description's, then `max_throws`).
    pub fn option_names(&self) -> Vec<&str> {
        self.option_specs().iter().map(|o| o.name).collect()
    }

    /// The help sentence of an option.
    pub fn option_help(&self, key: &str) -> Option<&str> {
        self.option_specs()
            .into_iter()
            .find(|o| o.name == key)
            .map(|o| o.help)
    }

    /// Rebuilds for another seat count (options kept).
    ///
    /// # Errors
    /// When the seat count is not allowed.
    pub fn with_seat_count(&self, seats: usize) -> Result<Described, DescriptionError> {
        let compiled = Arc::new(self.base.compile(seats, &self.values)?);
        Ok(Described {
            compiled,
            ..self.clone()
        })
    }

    /// Sets rule options from `(name, value)` pairs, read by
    /// [`options::parse_options`](crate::options::parse_options) against the table of
    /// [`Described::option_specs`]; `game` names the game in errors. The description is
    /// compiled once with all of them.
    ///
    /// # Errors
    /// An unknown option, a value it does not take, an option given twice, or values the
    /// description does not compile with; the game is then unchanged.
    pub fn set_options(&mut self, game: &str, pairs: &[(&str, &str)]) -> Result<(), ConfigError> {
        let specs = self.base.option_specs();
        let read = crate::options::parse_options(game, &specs, pairs.iter().copied())?;
        let mut values = self.values.clone();
        let mut max_throws = self.max_throws;
        let mut last = None;
        for ((spec, value), (_, text)) in read.iter().zip(pairs) {
            let n = match *value {
                OptionValue::Flag(b) => i64::from(b),
                OptionValue::Whole(n) => n,
            };
            if spec.name == crate::options::MAX_THROWS.name {
                max_throws = u32::try_from(n).map_err(|_| spec.refuse(text))?;
            } else if let Some(i) = specs.iter().position(|s| s.name == spec.name) {
                values[i] = n;
                last = Some((spec.name.to_string(), *text));
            }
        }
        let compiled = match last {
            None => None,
            Some((key, text)) => Some(self.base.compile(self.compiled.seats, &values).map_err(
                |e| ConfigError::BadValue {
                    key,
                    value: format!("{text} ({e})"),
                    expected: "a value the description compiles with".to_string(),
                },
            )?),
        };
        self.values = values;
        self.max_throws = max_throws;
        if let Some(c) = compiled {
            self.compiled = Arc::new(c);
        }
        Ok(())
    }

    /// The options and their values, as text (`max_throws` last).
    pub fn option_values(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .base
            .description
            .options
            .iter()
            .zip(&self.values)
            .map(|((k, o), &v)| {
                let text = match o.kind {
                    OptionKind::Bool => OptionValue::Flag(v != 0).to_string(),
                    OptionKind::Int => OptionValue::Whole(v).to_string(),
                };
                (k.clone(), text)
            })
            .collect();
        out.push(("max_throws".to_string(), self.max_throws.to_string()));
        out
    }

    /// The throw cap.
    pub fn max_throws(&self) -> u32 {
        self.max_throws
    }

    // ---- the rules -----------------------------------------------------------------

    /// The initial state.
    pub fn initial_state(&self) -> State {
        self.compiled.initial_state
    }

    /// What happens next.
    #[inline]
    pub fn node(&self, s: &State) -> Node {
        if s.ended {
            Node::End
        } else if s.pending != GONE || s.spending {
            Node::Decide(s.turn as Seat)
        } else if s.throws >= self.max_throws {
            Node::End
        } else {
            Node::Throw(s.turn as Seat)
        }
    }

    /// The sticks.
    #[inline]
    pub fn sticks(&self) -> Sticks {
        self.compiled.sticks
    }

    /// Lists the legal actions into any sink.
    #[inline]
    pub(crate) fn legal_into(&self, s: &State, out: &mut impl engine::Sink) {
        self.compiled.legal(s, out);
    }

    /// The legal actions.
    pub fn legal_actions(&self, s: &State) -> Vec<Action> {
        engine::with_scratch(|buf| {
            self.legal_into(s, buf);
            buf.items[..buf.n.min(BUFFER)].to_vec()
        })
    }

    /// Applies a throw without checks.
    #[inline]
    pub fn apply_throw_unchecked(&self, s: &mut State, throw: Throw) {
        self.compiled.throw(s, throw.marked(), self.max_throws);
    }

    /// Applies an action without checks.
    #[inline]
    pub fn apply_action_unchecked(&self, s: &mut State, a: Action) {
        self.compiled.apply(s, a);
    }

    /// The ranking once the game is over.
    pub fn ranking(&self, s: &State) -> Option<Ranking> {
        (self.node(s) == Node::End).then(|| self.compiled.ranking(s))
    }

    /// A uniformly random legal action, with `index(len)` a uniformly random index below
    /// `len`, with no allocation: [`Described::draw_action_within`].
    #[inline]
    pub fn random_action(&self, s: &State, index: impl FnMut(usize) -> usize) -> Action {
        self.draw_action_within::<BUFFER>(s, index)
    }

    /// A uniformly random legal action (each entry of the listed actions equally likely).
    /// Where each piece that may act has one action at most (no stacks, forks, held or
    /// stored values, no chaser to drive), the pieces are drawn one at a time until one can
    /// act, without listing the others' actions (but a release under priority is drawn by
    /// one index among the pieces that can be released, each tested); where stored values may lengthen plain
    /// walks' captures, the pieces' actions are counted in the listing's order and the one
    /// of a single index is taken (the listed action of that index); otherwise the actions
    /// are listed and one is picked by index ([`Described::random_action_within`]). The
    /// draws of `index` differ between the first way and the others, never the
    /// distribution.
    #[inline]
    pub fn draw_action_within<const N: usize>(
        &self,
        s: &State,
        mut index: impl FnMut(usize) -> usize,
    ) -> Action {
        match self.compiled.candidates(s) {
            Some(c) => self
                .compiled
                .draw(s, &c, &mut index)
                .map_or(Action::PASS, |d| d.action),
            None => self.random_action_within::<N>(s, index),
        }
    }

    /// [`Described::draw_action_within`]'s action (the same draws), applied; a drawn move
    /// is made without looking for its piece and walking again.
    #[inline]
    pub fn play_drawn_within<const N: usize>(
        &self,
        s: &mut State,
        mut index: impl FnMut(usize) -> usize,
    ) -> Action {
        let Some(c) = self.compiled.candidates(s) else {
            let a = self.random_action_within::<N>(s, index);
            self.apply_action_unchecked(s, a);
            return a;
        };
        match self.compiled.draw(s, &c, &mut index) {
            Some(d) => {
                self.compiled.apply_drawn(s, c.side, d);
                d.action
            }
            None => {
                self.apply_action_unchecked(s, Action::PASS);
                Action::PASS
            }
        }
    }

    /// Plays the state to the end with random throws and uniformly random decisions: each
    /// throw `bits.throw(rng, sticks)`, each decision [`Described::play_drawn_within`] with
    /// `bits.index(rng, len)`. Where the description is plain (two sides, one piece a
    /// square, plain tracks, releases and captures by landing only, with or without a stock
    /// of stored values), a chased race (one piece a seat on a shared track, holds, a
    /// steered chaser), a stacking game (two sides whose meeting pieces stack, gated forks,
    /// an opening throw), or a game whose turns throw first and then spend the held values
    /// (two sides on straight tracks, own pieces not passed), one loop does it with the
    /// same draws and states.
    pub fn play_random_to_end<R: rand::Rng + ?Sized>(
        &self,
        s: &mut State,
        bits: &mut crate::play::RandomBits,
        rng: &mut R,
    ) {
        if let Some(plain) = &self.compiled.plain_playouts {
            if plain.fits(&self.compiled, s) {
                plain.play_to_end(&self.compiled, s, bits, rng, self.max_throws);
                return;
            }
        }
        if let Some(stocked) = &self.compiled.stocked_playouts {
            if stocked.play_if_fits(&self.compiled, s, bits, rng, self.max_throws) {
                return;
            }
        }
        if let Some(chased) = &self.compiled.chased_playouts {
            if chased.fits(&self.compiled, s) {
                chased.play_to_end(&self.compiled, s, bits, rng, self.max_throws);
                return;
            }
        }
        if let Some(stacked) = &self.compiled.stacked_playouts {
            if stacked.play_if_fits(&self.compiled, s, bits, rng, self.max_throws) {
                return;
            }
        }
        if let Some(spent) = &self.compiled.spent_playouts {
            if spent.play_if_fits(&self.compiled, s, bits, rng, self.max_throws) {
                return;
            }
        }
        self.play_random_to_end_step_by_step(s, bits, rng);
    }

    /// [`Described::play_random_to_end`] one node at a time.
    pub(crate) fn play_random_to_end_step_by_step<R: rand::Rng + ?Sized>(
        &self,
        s: &mut State,
        bits: &mut crate::play::RandomBits,
        rng: &mut R,
    ) {
        let sticks = self.sticks();
        loop {
            match self.node(s) {
                Node::Throw(_) => self.apply_throw_unchecked(s, bits.throw(rng, sticks)),
                Node::Decide(_) => {
                    self.play_drawn_within::<BUFFER>(s, |len| bits.index(rng, len));
                }
                Node::End => break,
            }
        }
    }

    /// A random legal action listed in a buffer of `N` (the game's most actions), with no
    /// allocation. A game that could list more would have a wrong `N`: the registration's
    /// test checks it against the full buffer.
    #[inline]
    pub fn random_action_within<const N: usize>(
        &self,
        s: &State,
        mut index: impl FnMut(usize) -> usize,
    ) -> Action {
        let mut choose = |items: &[Action], listed: usize| match listed.min(items.len()) {
            0 => Action::PASS,
            1 => items[0],
            n => items[index(n).min(n - 1)],
        };
        if N <= 32 {
            // A small buffer costs less to clear than the thread's full one to reach.
            let mut buf = Buf::<N>::new();
            self.legal_into(s, &mut buf);
            choose(&buf.items, buf.n)
        } else {
            engine::with_scratch(|buf| {
                self.legal_into(s, buf);
                choose(&buf.items[..N.min(BUFFER)], buf.n)
            })
        }
    }

    /// Every broken invariant of a state.
    pub fn problems(&self, s: &State) -> Vec<String> {
        let c = &self.compiled;
        let mut out = Vec::new();
        let (sides, pps) = (c.sides, c.pieces_per_side);
        if s.layout != (sides as u8, pps as u8) {
            out.push(format!(
                "{} sides of {} pieces listed; {} has {sides} sides of {pps} pieces",
                s.layout.0, s.layout.1, c.name
            ));
            return out;
        }
        if !s.sets_agree() {
            out.push(
                "the sets of pieces on the board, in the game and unmoved do not match".into(),
            );
        }
        if s.turn as usize >= c.seats {
            out.push(format!(
                "turn seat {} is out of range: {} seats",
                s.turn, c.seats
            ));
        }
        if s.throws > self.max_throws {
            out.push(format!(
                "{} throws made, past the cap {}",
                s.throws, self.max_throws
            ));
        }
        if s.pending != GONE && s.pending > c.sticks.count() {
            out.push(format!(
                "pending throw {} is impossible with {} sticks",
                s.pending,
                c.sticks.count()
            ));
        }
        if s.pending != GONE && (s.spending || s.opening || s.ended) {
            out.push(
                "a pending throw while spending held values, in the opening or after the end"
                    .into(),
            );
        }
        if s.pending != GONE && s.throws == 0 {
            out.push("a pending throw before any throw".into());
        }
        if s.opening && c.opening.is_none() {
            out.push(format!("{} has no opening", c.name));
        }
        if s.spending && !c.all_first {
            out.push(format!("{} does not hold values", c.name));
        }
        if !c.all_first && s.held.iter().any(|&n| n > 0) {
            out.push(format!("{} does not hold values", c.name));
        }
        if s.spending && s.held.iter().all(|&n| n == 0) {
            out.push("spending with no held values".into());
        }
        if s.held[0] > 0
            || s.held
                .iter()
                .enumerate()
                .any(|(v, &n)| n > 0 && !c.values.contains(&(v as u8)))
        {
            out.push("a held value no throw has".into());
        }
        let flag_bits = (1u8 << c.flag_names.len()) - 1;
        let start_pos: Vec<u8> = c.start[0].clone();
        for side in 0..sides {
            let mut seen: Vec<u8> = Vec::new();
            for k in c.pieces(side) {
                let p = s.pos[k];
                let name = format!("P{}'s piece {}", side + 1, k - side * pps + 1);
                if s.flags[k] & !(UNMOVED | flag_bits) != 0 {
                    out.push(format!("{name} has unknown flags {:#x}", s.flags[k]));
                }
                if p == GONE || p == OFF {
                    if s.sq[k] != GONE {
                        out.push(format!("{name} is off the board but has a square"));
                    }
                    if p == OFF && !(c.has_release && start_pos.contains(&OFF)) {
                        out.push(format!(
                            "{name} is off the board, which {} has no way back from",
                            c.name
                        ));
                    }
                    if p == OFF && s.flags[k] & UNMOVED == 0 {
                        out.push(format!("{name} is off the board but not unmoved"));
                    }
                    if p == GONE && (s.flags[k] != 0 || s.count[k] != 0) {
                        out.push(format!(
                            "{name} has left the game but keeps flags or a count"
                        ));
                    }
                    continue;
                }
                if p as usize >= c.track_len {
                    out.push(format!(
                        "{name} is on position {p}, past the track's {} positions",
                        c.track_len
                    ));
                    continue;
                }
                let sq = c.square_of[side][p as usize];
                if s.sq[k] != sq {
                    out.push(format!(
                        "{name} is on position {p}, which is square {}, not {}",
                        show(sq),
                        show(s.sq[k])
                    ));
                }
                if s.flags[k] & UNMOVED != 0 && (!c.start_unmoved || !c.start[side].contains(&p)) {
                    out.push(format!(
                        "{name} on {} is unmoved but not on a start position",
                        show(sq)
                    ));
                }
                let need = c.hold[p as usize].0;
                if s.count[k] >= need.max(1) || (need == 0 && s.count[k] != 0) {
                    out.push(format!(
                        "{name} on {} has hold count {}",
                        show(sq),
                        s.count[k]
                    ));
                }
                if c.occupancy == format::Occupancy::Single && seen.contains(&sq) {
                    out.push(format!("two of P{}'s pieces on {}", side + 1, show(sq)));
                }
                seen.push(sq);
            }
            if side < 2 {
                let mut m = compile::Mask::default();
                for &sq in &seen {
                    m.set(sq);
                }
                if m != s.occ[side] {
                    out.push(format!(
                        "P{}'s occupancy does not match its pieces",
                        side + 1
                    ));
                }
            }
        }
        if c.occupancy != format::Occupancy::Shared {
            if let Some(sq) = s.occ[0].iter().find(|&q| s.occ[1].has(q)) {
                out.push(format!("pieces of both sides on {}", show(sq)));
            }
            let lost = |side: usize| c.pieces(side).filter(|&k| s.pos[k] == GONE).count();
            for side in 0..2.min(sides) {
                if usize::from(s.captures[side]) != lost(1 - side) {
                    out.push(format!(
                        "P{} has {} captures, but P{} has lost {} pieces",
                        side + 1,
                        s.captures[side],
                        2 - side,
                        lost(1 - side)
                    ));
                }
            }
        } else if s.captures.iter().any(|&n| n > 0) {
            out.push("captures in a game without capture".into());
        }
        if c.store_value.is_none() && s.stock.iter().any(|&n| n > 0) {
            out.push(format!("{} stores no values", c.name));
        }
        if s.stock[sides.min(crate::game::MAX_SEATS)..]
            .iter()
            .any(|&n| n > 0)
            || s.captures[sides.min(crate::game::MAX_SEATS)..]
                .iter()
                .any(|&n| n > 0)
        {
            out.push("stock or captures for a side that does not exist".into());
        }
        // Out seats and the chaser.
        let mut places: Vec<u8> = Vec::new();
        for seat in 0..crate::game::MAX_SEATS {
            let p = s.out_place[seat];
            if p == 0 {
                continue;
            }
            if seat >= c.seats || !c.end_all_out {
                out.push(format!("seat {seat} is out, which cannot happen here"));
                continue;
            }
            if c.pieces(c.side_of(seat)).any(|k| s.pos[k] != GONE) {
                out.push(format!("P{} is out with pieces on the track", seat + 1));
            }
            places.push(p);
        }
        places.sort_unstable();
        if places != (1..=s.outs).collect::<Vec<u8>>() {
            out.push(format!(
                "out places {places:?} do not count 1 to {}",
                s.outs
            ));
        }
        if c.end_all_out {
            for seat in 0..c.seats {
                if s.out_place[seat] == 0
                    && s.burials[seat] == 0
                    && c.pieces(c.side_of(seat)).all(|k| s.pos[k] == GONE)
                {
                    out.push(format!("P{} has no pieces but is not out", seat + 1));
                }
            }
        }
        c.steering_problems(s, &mut out);
        match (c.chaser_table.is_some() && c.steering.is_none(), s.chaser) {
            _ if c.steering.is_some() => {}
            (false, GONE) => {}
            (false, _) => out.push(format!("{} has no chaser", c.name)),
            (true, GONE) if s.outs > 0 => {
                out.push("a seat is out but the chaser is not on the board".into())
            }
            (true, GONE) => {}
            (true, g) if s.outs == 0 => out.push(format!(
                "the chaser is on position {g} before any seat is out"
            )),
            (true, g) if g as usize >= c.track_len => {
                out.push(format!("the chaser is on position {g}, past the track"))
            }
            _ => {}
        }
        // The end flag agrees with the end conditions.
        let mut t = *s;
        t.ended = false;
        c.check_end(&mut t);
        if t.ended != s.ended {
            out.push(if s.ended {
                "marked ended, but no end condition holds".into()
            } else {
                "an end condition holds, but the game is not marked ended".into()
            });
        }
        out
    }

    /// A text drawing of the board, row by row from the top.
    pub fn render(&self, s: &State) -> String {
        let c = &self.compiled;
        let mut out = String::new();
        out.push_str("    ");
        for col in 0..c.cols {
            out.push_str(&format!(" {} ", (b'a' + col as u8) as char));
        }
        out.push('\n');
        for row in (0..c.rows).rev() {
            out.push_str(&format!("{:>2}  ", row + 1));
            for col in 0..c.cols {
                let sq = compile::code(row, col);
                if !c.board.has(sq) {
                    out.push_str("   ");
                    continue;
                }
                let mut cell = String::new();
                for side in 0..c.sides {
                    let n = c
                        .pieces(side)
                        .filter(|&k| s.pos[k] < OFF && s.sq[k] == sq)
                        .count();
                    if n > 0 {
                        let letter = (b'A' + side as u8) as char;
                        if n > 1 {
                            cell.push_str(&format!("{letter}{n}"));
                        } else {
                            let unmoved = c.pieces(side).any(|k| {
                                s.pos[k] < OFF && s.sq[k] == sq && s.flags[k] & UNMOVED != 0
                            });
                            cell.push(if unmoved {
                                letter.to_ascii_lowercase()
                            } else {
                                letter
                            });
                        }
                    }
                }
                if s.chaser != GONE && c.square_of[0][s.chaser as usize] == sq {
                    cell.push('G');
                }
                if cell.is_empty() {
                    cell.push('.');
                }
                out.push_str(&format!("{cell:^3}"));
            }
            out.push('\n');
        }
        for side in 0..c.sides {
            let off = c.pieces(side).filter(|&k| s.pos[k] == OFF).count();
            let gone = c.pieces(side).filter(|&k| s.pos[k] == GONE).count();
            out.push_str(&format!(
                "{}: {} on the board, {off} off the board, {gone} gone, {} captures",
                (b'A' + side as u8) as char,
                pps_on(c, s, side),
                s.captures[side.min(7)]
            ));
            if c.store_value.is_some() {
                out.push_str(&format!(", {} stored", s.stock[side.min(7)]));
            }
            out.push('\n');
        }
        if s.spending {
            out.push_str(&format!("held values: {:?}\n", s.held()));
        }
        out.push_str(&format!("turn: P{}, throws: {}\n", s.turn + 1, s.throws));
        out
    }

    /// A throw as text: its count, value, name and whether it gives another throw.
    pub fn describe_throw(&self, s: &State, throw: Throw) -> String {
        let c = &self.compiled;
        let k = (throw.marked() as usize).min(8);
        let drives = c.chaser_table.is_some() && s.out_place[(s.turn as usize).min(7)] != 0;
        let table = if drives {
            c.chaser_table.as_ref().unwrap_or(&c.table)
        } else {
            &c.table
        };
        let mut text = format!("{} marked: {}", throw.marked(), table.value[k]);
        if let Some(name) = table.names.get(k).filter(|n| !n.is_empty()) {
            text.push_str(&format!(" ({name})"));
        }
        if drives {
            text.push_str(", for the chaser");
        }
        if table.again[k] {
            text.push_str(", throw again");
        }
        text
    }

    /// The value of each count of marked sides for the pieces.
    pub fn throw_value(&self, throw: Throw) -> Option<u8> {
        let k = throw.marked() as usize;
        (k <= self.compiled.sticks.count() as usize).then(|| self.compiled.table.value[k])
    }

    /// The track of a side: its squares as (row, column), by position.
    pub fn track(&self, side: usize) -> Vec<(u8, u8)> {
        self.compiled
            .square_of
            .get(side)
            .map(|t| t.iter().map(|&sq| (sq >> 5, sq & 31)).collect())
            .unwrap_or_default()
    }
}

fn pps_on(c: &Compiled, s: &State, side: usize) -> usize {
    c.pieces(side).filter(|&k| s.pos[k] < OFF).count()
}

fn show(sq: u8) -> String {
    if sq == GONE {
        return "none".into();
    }
    format!("{}{}", (b'a' + (sq & 31)) as char, (sq >> 5) + 1)
}

/// Registers a shipped description as a game type: a newtype over [`Described`] holding
/// the trait's constants. `described_game!(Type, "name", "Title", (min, max), max_actions);`
/// for the file `games/NAME.toml`, called for each line of the registration list
/// (`src/described/games.rs`). The rule options' table is the description's (see
/// [`Base::option_specs`]).
#[macro_export]
#[doc(hidden)]
macro_rules! described_game {
    ($(#[$meta:meta])* $ty:ident, $name:literal, $title:literal, ($min:literal, $max:literal), $max_actions:literal $(,)?) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $ty(pub $crate::described::Described);

        impl $ty {
            /// The description's text.
            pub const TEXT: &'static str = include_str!(concat!("games/", $name, ".toml"));
            /// The description's file name.
            pub const FILE: &'static str = concat!($name, ".toml");

            /// The description read once.
            pub fn base() -> ::std::sync::Arc<$crate::described::Base> {
                Self::base_ref().clone()
            }

            fn base_ref() -> &'static ::std::sync::Arc<$crate::described::Base> {
                static BASE: ::std::sync::OnceLock<::std::sync::Arc<$crate::described::Base>> = ::std::sync::OnceLock::new();
                BASE.get_or_init(|| {
                    ::std::sync::Arc::new(
                        $crate::described::Base::parse(Self::FILE, Self::TEXT)
                            .unwrap_or_else(|e| panic!("shipped description: {e}")),
                    )
                })
            }
        }

        impl $crate::game::Game for $ty {
            type State = $crate::described::State;
            type Action = $crate::described::Action;
            const NAME: &'static str = $name;
            const TITLE: &'static str = $title;
            const MAX_ACTIONS: usize = $max_actions;
            const SEATS: (usize, usize) = ($min, $max);

            fn option_specs() -> &'static [$crate::options::OptionSpec<'static>] {
                static SPECS: ::std::sync::OnceLock<::std::vec::Vec<$crate::options::OptionSpec<'static>>> =
                    ::std::sync::OnceLock::new();
                SPECS.get_or_init(|| Self::base_ref().option_specs())
            }

            fn default_seats() -> usize {
                Self::base_ref().description().seats.default_count()
            }

            fn with_seats(seats: usize) -> Result<Self, $crate::game::ConfigError> {
                Self::base_ref().description().seats.check($name, seats)?;
                $crate::described::Described::new(Self::base(), seats)
                    .map($ty)
                    .map_err(|_| $crate::game::ConfigError::Players {
                        game: $name,
                        players: seats,
                        min: $min,
                        max: $max,
                    })
            }

            fn set_option(&mut self, key: &str, value: &str) -> Result<(), $crate::game::ConfigError> {
                self.0.set_options($name, &[(key, value)])
            }

            fn set_options(&mut self, pairs: &[(&str, &str)]) -> Result<(), $crate::game::ConfigError> {
                self.0.set_options($name, pairs)
            }

            fn options(&self) -> Vec<(&'static str, String)> {
                let specs = <Self as $crate::game::Game>::option_specs();
                self.0
                    .option_values()
                    .into_iter()
                    .filter_map(|(k, v)| specs.iter().find(|o| o.name == k).map(|o| (o.name, v)))
                    .collect()
            }

            $crate::__described_rules!();
        }

        $crate::__described_board!($ty, $max_actions);
    };
}

/// The [`Game`](crate::Game) methods every type over [`Described`] (its field `.0`) hands to
/// it (see [`described_game!`](crate::described_game)).
#[macro_export]
#[doc(hidden)]
macro_rules! __described_rules {
    () => {
        fn seats(&self) -> usize {
            self.0.seats()
        }

        fn max_throws(&self) -> u32 {
            self.0.max_throws()
        }

        #[inline]
        fn initial_state(&self) -> Self::State {
            self.0.initial_state()
        }

        #[inline]
        fn node(&self, state: &Self::State) -> $crate::game::Node {
            self.0.node(state)
        }

        #[inline]
        fn sticks(&self) -> $crate::dice::Sticks {
            self.0.sticks()
        }

        #[inline]
        fn legal_actions(
            &self,
            state: &Self::State,
            out: &mut $crate::game::ActionList<Self::Action>,
        ) {
            out.clear();
            self.0.legal_into_list(state, out);
        }

        #[inline]
        fn apply_throw_unchecked(&self, state: &mut Self::State, throw: $crate::dice::Throw) {
            self.0.apply_throw_unchecked(state, throw)
        }

        #[inline]
        fn apply_action_unchecked(&self, state: &mut Self::State, action: Self::Action) {
            self.0.apply_action_unchecked(state, action)
        }

        fn ranking(&self, state: &Self::State) -> Option<$crate::game::Ranking> {
            self.0.ranking(state)
        }

        fn throws_made(&self, state: &Self::State) -> u32 {
            state.throws()
        }

        fn parse_action(&self, text: &str) -> Result<Self::Action, $crate::game::NotationError> {
            text.parse()
        }

        fn validate(&self, state: &Self::State) -> Result<(), $crate::game::InvalidState> {
            $crate::game::InvalidState::check(self.0.problems(state))
        }
    };
}

/// [`Present`](crate::Present), [`Board`](crate::Board) and [`Playouts`](crate::Playouts) for a type over [`Described`]
/// (its field `.0`), with its bound on legal actions (see
/// [`described_game!`](crate::described_game)).
#[macro_export]
#[doc(hidden)]
macro_rules! __described_board {
    ($ty:ty, $max_actions:expr) => {
        impl $crate::present::Present for $ty {
            fn render(&self, state: &Self::State) -> String {
                self.0.render(state)
            }

            fn describe_throw(&self, state: &Self::State, throw: $crate::dice::Throw) -> String {
                self.0.describe_throw(state, throw)
            }
        }

        impl $crate::board::Board for $ty {
            fn geometry(&self) -> $crate::board::BoardGeometry {
                self.0.geometry()
            }

            fn pieces(&self, state: &Self::State) -> Vec<$crate::board::PlacedPiece> {
                self.0.placed_pieces(state)
            }

            fn features(&self) -> $crate::board::BoardFeatures {
                self.0.board_features()
            }

            fn moves(&self, state: &Self::State) -> Vec<$crate::board::BoardMove> {
                self.0.board_moves(state)
            }

            fn tallies(&self, state: &Self::State) -> Vec<String> {
                self.0.board_tallies(state)
            }

            fn describe_action(&self, state: &Self::State, action: Self::Action) -> String {
                self.0.describe_action(state, action)
            }

            fn describe_change(&self, before: &Self::State, after: &Self::State) -> Vec<String> {
                self.0.describe_change(before, after)
            }
        }

        impl $crate::game::Playouts for $ty {
            #[inline]
            fn random_action(
                &self,
                state: &Self::State,
                _actions: &mut $crate::game::ActionList<Self::Action>,
                index: impl FnMut(usize) -> usize,
            ) -> Self::Action {
                self.0.draw_action_within::<{ $max_actions }>(state, index)
            }

            #[inline]
            fn play_random_action(
                &self,
                state: &mut Self::State,
                _actions: &mut $crate::game::ActionList<Self::Action>,
                index: impl FnMut(usize) -> usize,
            ) -> Self::Action {
                self.0.play_drawn_within::<{ $max_actions }>(state, index)
            }

            #[inline]
            fn play_random_to_end<R: $crate::rand::Rng + ?Sized>(
                &self,
                state: &mut Self::State,
                bits: &mut $crate::play::RandomBits,
                rng: &mut R,
            ) {
                self.0.play_random_to_end(state, bits, rng)
            }

            #[inline]
            fn play_legal_action(
                &self,
                state: &mut Self::State,
                _actions: &mut $crate::game::ActionList<Self::Action>,
                index: impl FnMut(usize) -> usize,
            ) -> Self::Action {
                let a = self
                    .0
                    .random_action_within::<{ $max_actions }>(state, index);
                self.0.apply_action_unchecked(state, a);
                a
            }
        }
    };
}

impl Described {
    /// Lists the legal actions into an [`ActionList`](crate::ActionList) (which spills to
    /// the heap past its inline capacity; playouts use a stack buffer instead).
    #[inline]
    pub fn legal_into_list(&self, s: &State, out: &mut crate::game::ActionList<Action>) {
        engine::with_scratch(|buf| {
            self.legal_into(s, buf);
            out.extend_from_slice(&buf.items[..buf.n.min(BUFFER)]);
        })
    }

    /// Calls `f` with each legal action, in the order of [`Described::legal_into_list`]
    /// (the first [`Described::BUFFER`] of them), with no buffer in between.
    #[inline]
    pub fn for_each_legal(&self, s: &State, f: impl FnMut(Action)) {
        struct Each<F> {
            f: F,
            n: usize,
        }
        impl<F: FnMut(Action)> engine::Sink for Each<F> {
            #[inline(always)]
            fn push(&mut self, a: Action) {
                if self.n < BUFFER {
                    (self.f)(a);
                }
                self.n += 1;
            }
            #[inline(always)]
            fn len(&self) -> usize {
                self.n
            }
        }
        self.legal_into(s, &mut Each { f, n: 0 });
    }

    /// Parses an action in notation.
    ///
    /// # Errors
    /// Text that is not an action.
    pub fn parse_action(&self, text: &str) -> Result<Action, NotationError> {
        text.parse()
    }

    /// The buffer size of legal actions (the most any described game can list).
    pub const BUFFER: usize = BUFFER;

    /// Checks a state.
    ///
    /// # Errors
    /// Every broken invariant.
    pub fn validate(&self, s: &State) -> Result<(), InvalidState> {
        InvalidState::check(self.problems(s))
    }

    /// The track position NONE marker (for tests).
    #[doc(hidden)]
    pub const NO_POSITION: u8 = NONE;
}

// ---- checking a description by random play -------------------------------------------------

/// What random play of a description shows: game lengths, the cap's share, the ends.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// Each game's length in throws, sorted.
    pub lengths: Vec<u32>,
    /// Games that reached the throw cap.
    pub capped: usize,
    /// How many games ended by each end condition (the cap included).
    pub ends: std::collections::BTreeMap<&'static str, usize>,
    /// Games that ended with every seat tied.
    pub draws: usize,
}

impl CheckReport {
    /// The length at quantile `q` (0.5 = median).
    pub fn quantile(&self, q: f64) -> u32 {
        if self.lengths.is_empty() {
            return 0;
        }
        let i = ((self.lengths.len() as f64 * q).ceil() as usize).clamp(1, self.lengths.len());
        self.lengths[i - 1]
    }
}

impl Described {
    /// Plays `games` random games (uniform choices, seeded) and reports their lengths and
    /// ends.
    pub fn check_by_random_play(&self, games: usize, seed: u64) -> CheckReport {
        use rand::{Rng as _, RngExt as _, SeedableRng as _};
        let mut rng = crate::Rng::seed_from_u64(seed);
        let mut report = CheckReport {
            lengths: Vec::with_capacity(games),
            capped: 0,
            ends: Default::default(),
            draws: 0,
        };
        for _ in 0..games {
            let mut s = self.initial_state();
            loop {
                match self.node(&s) {
                    Node::Throw(_) => {
                        let t = self.sticks().throw_from_bits(rng.next_u64());
                        self.apply_throw_unchecked(&mut s, t);
                    }
                    Node::Decide(_) => {
                        let a = self.random_action(&s, |n| rng.random_range(0..n));
                        self.apply_action_unchecked(&mut s, a);
                    }
                    Node::End => break,
                }
            }
            report.lengths.push(s.throws);
            if self.compiled.ranking(&s).places().iter().all(|&p| p == 0) {
                report.draws += 1;
            }
            let reason = if s.ended {
                self.compiled.end_reason(&s).unwrap_or("ended")
            } else {
                report.capped += 1;
                "the throw cap"
            };
            *report.ends.entry(reason).or_insert(0) += 1;
        }
        report.lengths.sort_unstable();
        report
    }
}

// ---- drawing data ------------------------------------------------------------------------

impl Described {
    /// The board's squares in drawing order (row by row from the bottom), as square codes.
    fn drawn_squares(&self) -> Vec<u8> {
        self.compiled.board.iter().collect()
    }

    fn drawn_index(&self, sq: u8) -> Option<usize> {
        self.drawn_squares().iter().position(|&q| q == sq)
    }

    /// The drawing's geometry: every square, each side's track, the start squares.
    pub fn geometry(&self) -> crate::board::BoardGeometry {
        use crate::board::{Arrow, BoardGeometry, ChosenBy, SquareInfo, StickFaces, Track};
        let c = &self.compiled;
        let drawn = self.drawn_squares();
        let top = c.rows as f64 - 1.0;
        let squares = drawn
            .iter()
            .map(|&sq| SquareInfo {
                x: f64::from(sq & 31),
                y: top - f64::from(sq >> 5),
                label: show(sq),
                name: None,
                special: (0..c.track_len).any(|p| c.hold[p].0 > 0 && c.square_of[0][p] == sq),
            })
            .collect();
        let at = |sq: u8| drawn.iter().position(|&q| q == sq).unwrap_or(0);
        let shared = c.occupancy == format::Occupancy::Shared && c.sides > 2
            || self.base.description.track.others == format::OtherTracks::Shared;
        let track_sides = if shared { 1 } else { c.sides };
        let tracks = (0..track_sides)
            .map(|side| Track {
                seat: (!shared).then_some(side),
                squares: c.square_of[side].iter().map(|&sq| at(sq)).collect(),
                loops_to: c.next[side]
                    .last()
                    .filter(|l| l.to != NONE)
                    .map(|l| l.to as usize),
            })
            .collect();
        let starts = (0..track_sides)
            .map(|side| at(c.square_of[side][0]))
            .collect();
        let _ = Arrow {
            x1: 0.0,
            y1: 0.0,
            x2: 0.0,
            y2: 0.0,
        };
        BoardGeometry {
            width: c.cols as f64,
            height: c.rows as f64,
            squares,
            tracks,
            chosen_by: ChosenBy::Square,
            starts,
            arrows: Vec::new(),
            sticks: StickFaces {
                count: c.sticks.count(),
                marked: "marked",
                unmarked: "plain",
            },
            legend: "a game described in the description format: each side's track is drawn \
                     from its start; marked squares hold a piece until it throws the hold's \
                     value enough times",
        }
    }

    /// The pieces on the board (and off it), for drawing.
    pub fn placed_pieces(&self, s: &State) -> Vec<crate::board::PlacedPiece> {
        let c = &self.compiled;
        let mut out = Vec::new();
        for side in 0..c.sides {
            for k in c.pieces(side) {
                if s.pos[k] == GONE {
                    continue;
                }
                let on = s.pos[k] < OFF;
                let unmoved = s.flags[k] & UNMOVED != 0;
                out.push(crate::board::PlacedPiece {
                    square: if on { self.drawn_index(s.sq[k]) } else { None },
                    seat: Some(side),
                    kind: "piece",
                    letter: "",
                    active: false,
                    status: if unmoved {
                        crate::board::PieceStatus::Locked
                    } else {
                        crate::board::PieceStatus::Plain
                    },
                    text: if on {
                        format!(
                            "P{}'s piece on {} (track position {}){}",
                            side + 1,
                            show(s.sq[k]),
                            s.pos[k],
                            if unmoved { ", unmoved" } else { "" }
                        )
                    } else {
                        format!("P{}'s piece off the board", side + 1)
                    },
                });
            }
        }
        if s.chaser != GONE {
            out.push(crate::board::PlacedPiece {
                square: self.drawn_index(c.square_of[0][s.chaser as usize]),
                seat: None,
                kind: "chaser",
                letter: "G",
                active: false,
                status: crate::board::PieceStatus::Plain,
                text: format!("the chaser on {}", show(c.square_of[0][s.chaser as usize])),
            });
        }
        out
    }

    /// An action in words.
    pub fn describe_action(&self, s: &State, a: Action) -> String {
        let seat = s.turn as usize + 1;
        match a.kind {
            Kind::Pass => format!("P{seat} passes"),
            Kind::Store => format!("P{seat} stores the value"),
            Kind::Back => format!("P{seat} moves the chaser back"),
            Kind::Forward => format!("P{seat} moves the chaser forward"),
            Kind::Drive => format!("P{seat} drives the chaser"),
            Kind::Enter => format!("P{seat} brings a piece onto the track"),
            Kind::Unlock => format!("P{seat} unlocks the piece on {}", show(a.sq)),
            _ => format!("P{seat} plays {a}"),
        }
    }

    /// What changed between two states, in words.
    pub fn describe_change(&self, before: &State, after: &State) -> Vec<String> {
        let c = &self.compiled;
        let mut out = Vec::new();
        for side in 0..c.sides {
            for k in c.pieces(side) {
                if before.pos[k] != after.pos[k] {
                    let from = if before.pos[k] < OFF {
                        show(before.sq[k])
                    } else {
                        "off the board".into()
                    };
                    let to = match after.pos[k] {
                        GONE => "gone".to_string(),
                        OFF => "off the board".to_string(),
                        _ => show(after.sq[k]),
                    };
                    out.push(format!("P{}'s piece: {from} → {to}", side + 1));
                }
            }
        }
        out
    }
}

/// What the tests of the one-loop playouts share.
#[cfg(test)]
pub(crate) mod loop_tests {
    use super::{Described, State};
    use crate::game::Node;
    use crate::play::RandomBits;
    use rand::{Rng as _, SeedableRng as _};

    /// Plays a random game of `g` from `s` with the generator of `seed` and, from every
    /// third node, plays it to the end with `fast` (a loop, which must take each of those
    /// states: `fits`) and with the step-by-step path, and asserts that both leave the
    /// same state, random bits and generator. The number of nodes compared.
    pub(crate) fn compare_along(
        g: &Described,
        mut s: State,
        seed: u64,
        at: &str,
        fits: impl Fn(&State) -> bool,
        fast: impl Fn(&mut State, &mut RandomBits, &mut crate::Rng),
    ) -> usize {
        let mut rng = crate::Rng::seed_from_u64(seed);
        let mut bits = RandomBits::new();
        let mut starts = 0;
        for step in 0.. {
            if step % 3 == 0 {
                assert!(fits(&s), "{at}: {s:?}");
                let (mut quick, mut quick_bits, mut quick_rng) = (s, bits, rng.clone());
                fast(&mut quick, &mut quick_bits, &mut quick_rng);
                let (mut slow, mut slow_bits, mut slow_rng) = (s, bits, rng.clone());
                g.play_random_to_end_step_by_step(&mut slow, &mut slow_bits, &mut slow_rng);
                let at = format!("{at} (seed {seed}, step {step})");
                assert_eq!(quick, slow, "{at}");
                assert_eq!(quick_bits, slow_bits, "{at}");
                assert_eq!(quick_rng.next_u64(), slow_rng.next_u64(), "{at}");
                starts += 1;
            }
            match g.node(&s) {
                Node::Throw(_) => g.apply_throw_unchecked(&mut s, bits.throw(&mut rng, g.sticks())),
                Node::Decide(_) => {
                    g.play_drawn_within::<{ Described::BUFFER }>(&mut s, |len| {
                        bits.index(&mut rng, len)
                    });
                }
                Node::End => break,
            }
        }
        starts
    }

    /// Runs [`compare_along`] from the initial state of every variant of every shipped and
    /// reference description whose loop `take` finds, once for each `(seed, cap)` of `runs`
    /// (no cap: the variant's own), with the generator of `seed(seed, variant, game)`:
    /// `fits` and `play` (given the cap) are the loop's. The variants taken (name, variant
    /// number, game) and the number of nodes compared.
    pub(crate) fn compare_every_variant<L>(
        runs: &[(u64, Option<u32>)],
        take: impl Fn(&super::compile::Compiled) -> Option<&L>,
        seed: impl Fn(u64, usize, &Described) -> u64,
        fits: impl Fn(&L, &super::compile::Compiled, &State) -> bool,
        play: impl Fn(&L, &super::compile::Compiled, &mut State, &mut RandomBits, &mut crate::Rng, u32),
    ) -> (Vec<(&'static str, usize, Described)>, usize) {
        let (mut taken, mut starts) = (Vec::new(), 0);
        for &(name, file, text) in super::games::SHIPPED.iter().chain(super::games::REFERENCE) {
            let game = Described::from_text(file, text).unwrap();
            for (v, g) in Described::variants(&game.base).into_iter().enumerate() {
                let Some(p) = take(&g.compiled) else {
                    continue;
                };
                for &(at, cap) in runs {
                    let mut g = g.clone();
                    let cap = cap.unwrap_or(g.max_throws);
                    g.max_throws = cap;
                    starts += compare_along(
                        &g,
                        g.initial_state(),
                        seed(at, v, &g),
                        &format!("{name} (variant {v}, {} seats)", g.seats()),
                        |s| fits(p, &g.compiled, s),
                        |s, bits, rng| play(p, &g.compiled, s, bits, rng, cap),
                    );
                }
                taken.push((name, v, g));
            }
        }
        (taken, starts)
    }
}
