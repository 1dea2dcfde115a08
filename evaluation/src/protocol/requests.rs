//! The protocol's requests as types: one struct per command, read by serde from the
//! request object (its `id` and `cmd` set apart), and [`Command`], the enum of them all
//! tagged by `cmd`, from which the JSON Schema of the protocol ([`schema`],
//! docs/protocol.schema.json) is generated.
//!
//! The field types ([`Text`], [`Whole`], [`Flag`], [`GameOptions`], [`Budget`],
//! [`StateText`]) read a JSON value and refuse a wrong one with the protocol's own error
//! code and message (docs/protocol.md), so the answers are those of the specification
//! word for word. `null` counts as absent.

use schemars::JsonSchema;
use serde::de::Deserializer;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::{ErrorCode, ProtocolError};

/// Declares the command structs, [`Command`], [`COMMANDS`] and [`Command::read`] from
/// one list, so a command and its fields are written once.
macro_rules! commands {
    ($(
        $(#[$doc:meta])*
        $cmd:literal => $variant:ident { $( $(#[$fdoc:meta])* $field:ident : $ty:ty ),* $(,)? }
    )*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Debug, PartialEq, Deserialize, JsonSchema)]
            #[non_exhaustive]
            pub struct $variant {
                $( $(#[$fdoc])* pub $field: $ty, )*
            }
        )*

        /// A request, by its `cmd` (each request may also carry an `id`, any JSON value,
        /// echoed in its response).
        #[derive(Clone, Debug, PartialEq, Deserialize, JsonSchema)]
        #[serde(tag = "cmd", rename_all = "snake_case")]
        #[non_exhaustive]
        pub enum Command {
            $( $(#[$doc])* $variant($variant), )*
        }

        /// The commands, each with the fields it takes (besides `id` and `cmd`).
        pub const COMMANDS: &[(&str, &[&str])] = &[
            $( ($cmd, &[$(stringify!($field)),*]), )*
        ];

        impl Command {
            /// The request of command `cmd` (one of [`COMMANDS`]) from its other fields
            /// (none unknown).
            ///
            /// # Errors
            /// The protocol's error for a missing field or a value of the wrong type.
            pub(crate) fn read(cmd: &str, fields: Map<String, Value>) -> Result<Command, ProtocolError> {
                match cmd {
                    $( $cmd => read_fields(fields).map(Command::$variant), )*
                    other => Err(ProtocolError::new(
                        ErrorCode::UnknownCommand,
                        format!("unknown command `{other}`"),
                    )),
                }
            }
        }
    };
}

commands! {
    /// `hello`: the protocol, the games and the agents.
    "hello" => Hello {}
    /// `new_game`: starts a game, replacing any in progress: a game of the list by its
    /// `game` name, or the game a `description` describes (one of the two).
    "new_game" => NewGame {
        /// The game's name (`issiren`, …; `hello` lists them).
        game: Option<Text>,
        /// A game description's TOML text (docs/described/format.md), played in place of
        /// a game of the list.
        description: Option<Text>,
        /// The seat count; by default the game's own (`hello` lists it).
        players: Option<Whole>,
        /// Rule options: `{"max_throws": 500}` or `["max_throws=500"]`.
        options: Option<GameOptions>,
        /// Seeds the engine's dice and the agents; 1 by default.
        seed: Option<Whole>,
    }
    /// `state`: the view of the game.
    "state" => State {}
    /// `throw`: one throw, the engine's or the client's.
    "throw" => Throw {
        /// The marked sides up of sticks the client threw; absent: the engine throws.
        marked: Option<Whole>,
    }
    /// `act`: an action in notation.
    "act" => Act {
        /// The action, in notation.
        action: Text,
    }
    /// `agent_move`: an agent's choice for the deciding seat.
    "agent_move" => AgentMove {
        /// An agent spec, `name` or `name:key=value,...`.
        agent: Text,
        /// Agent parameters added to the spec or replacing its own (`{"iterations": 5000}`).
        budget: Option<Budget>,
        /// The agent's seed; by default derived from the game's seed and `undo_steps`.
        seed: Option<Whole>,
        /// Also return the agent's analysis.
        analysis: Option<Flag>,
        /// Also play the chosen action.
        apply: Option<Flag>,
        /// The most time the move may take, 1 to 3 600 000 ms (default 60 000).
        time_limit_ms: Option<Whole>,
    }
    /// `cancel`: stops the running search.
    "cancel" => Cancel {}
    /// `load_state`: a position (a state as `state` shows it, or its JSON text).
    "load_state" => LoadState {
        /// The state.
        state: StateText,
        /// Reseeds the engine's dice.
        seed: Option<Whole>,
    }
    /// `undo`: takes back steps.
    "undo" => Undo {
        /// How many steps (default 1).
        steps: Option<Whole>,
    }
    /// `quit`: ends the session.
    "quit" => Quit {}
}

/// Marks a field's error made by the types below: the code, then the message, in which
/// `{key}` stands for the field's name.
const MARK: char = '\u{1}';

fn field_error<E: serde::de::Error>(code: ErrorCode, message: &str) -> E {
    E::custom(format!("{MARK}{}{MARK}{message}", code.as_str()))
}

/// `` `{key}` must be {expected}, not {what was given} ``.
fn wrong_type<E: serde::de::Error>(expected: &str, got: &Value) -> E {
    field_error(
        ErrorCode::WrongType,
        &super::wrong_type("{key}", expected, got).message,
    )
}

/// The fields of one command read from the request object.
fn read_fields<T: for<'de> Deserialize<'de>>(
    fields: Map<String, Value>,
) -> Result<T, ProtocolError> {
    serde_path_to_error::deserialize(Value::Object(fields)).map_err(|e| {
        let key = e.path().to_string();
        let inner = e.into_inner().to_string();
        if let Some(rest) = inner.strip_prefix(MARK) {
            let (code, message) = rest.split_once(MARK).unwrap_or(("bad_request", rest));
            let code = ErrorCode::ALL
                .into_iter()
                .find(|c| c.as_str() == code)
                .unwrap_or(ErrorCode::BadRequest);
            return ProtocolError::new(code, message.replace("{key}", &key));
        }
        if let Some(field) = inner
            .strip_prefix("missing field `")
            .and_then(|r| r.strip_suffix('`'))
        {
            return ProtocolError::new(
                ErrorCode::MissingField,
                format!("the field `{field}` is required"),
            );
        }
        ProtocolError::new(ErrorCode::BadRequest, inner)
    })
}

/// A required string (absent or `null`: `missing_field`).
#[derive(Clone, Debug, PartialEq, Eq, JsonSchema)]
pub struct Text(
    /// The string.
    pub String,
);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => Ok(Text(s)),
            Value::Null => Err(field_error(
                ErrorCode::MissingField,
                "the field `{key}` is required",
            )),
            other => Err(wrong_type("a string", &other)),
        }
    }
}

/// A whole number from 0 to 2^64 − 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub struct Whole(
    /// The number.
    pub u64,
);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        v.as_u64()
            .map(Whole)
            .ok_or_else(|| wrong_type("a whole number from 0 to 2^64-1", &v))
    }
}

/// `true` or `false`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub struct Flag(
    /// The value.
    pub bool,
);

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Bool(b) => Ok(Flag(b)),
            other => Err(wrong_type("true or false", &other)),
        }
    }
}

/// A string, number or boolean as text: a rule option's or a parameter's value.
#[derive(Clone, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Scalar {
    /// Text.
    Text(String),
    /// A number.
    Number(serde_json::Number),
    /// A boolean.
    Flag(bool),
}

/// `field.key`'s value as text.
fn scalar<E: serde::de::Error>(field: &str, key: &str, v: Value) -> Result<String, E> {
    super::scalar_text(field, key, v).map_err(|e| field_error(e.code, &e.message))
}

/// Rule options, `key=value` each: an object `{"key": value}` (values strings, numbers or
/// booleans) or an array of `"key=value"` strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOptions(
    /// `key=value` each.
    pub Vec<String>,
);

impl<'de> Deserialize<'de> for GameOptions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const EXPECTED: &str = "an object {\"key\": value} or an array of \"key=value\" strings";
        match Value::deserialize(d)? {
            Value::Object(map) => map
                .into_iter()
                .map(|(k, v)| scalar("options", &k, v).map(|v| format!("{k}={v}")))
                .collect::<Result<_, _>>()
                .map(GameOptions),
            Value::Array(items) => items
                .into_iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s),
                    other => Err(wrong_type(EXPECTED, &other)),
                })
                .collect::<Result<_, _>>()
                .map(GameOptions),
            other => Err(wrong_type(EXPECTED, &other)),
        }
    }
}

/// The schema of [`GameOptions`].
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum GameOptionsForm {
    /// `{"max_throws": 500, "cairo_always_three": true}`.
    Object(std::collections::BTreeMap<String, Scalar>),
    /// `["max_throws=500"]`.
    List(Vec<String>),
}

impl JsonSchema for GameOptions {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "GameOptions".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        GameOptionsForm::json_schema(g)
    }
}

/// Agent parameters, `(key, value)` each, from an object of strings, numbers or booleans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget(
    /// `(key, value)` each.
    pub Vec<(String, String)>,
);

impl<'de> Deserialize<'de> for Budget {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Object(map) => map
                .into_iter()
                .map(|(k, v)| scalar("budget", &k, v).map(|v| (k, v)))
                .collect::<Result<_, _>>()
                .map(Budget),
            other => Err(wrong_type(
                "an object of agent parameters, such as {\"iterations\": 2000}",
                &other,
            )),
        }
    }
}

impl JsonSchema for Budget {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Budget".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <std::collections::BTreeMap<String, Scalar>>::json_schema(g)
    }
}

/// A state to load: the `state` object of a view, or its JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateText(
    /// The state's JSON text.
    pub String,
);

impl<'de> Deserialize<'de> for StateText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Null => Err(field_error(
                ErrorCode::MissingField,
                "the field `{key}` is required",
            )),
            Value::String(s) => Ok(StateText(s)),
            other => Ok(StateText(other.to_string())),
        }
    }
}

impl JsonSchema for StateText {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StateText".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "a state as the view's `state` shows it (an object), or its JSON text",
            "type": ["object", "string"]
        })
    }
}

/// The JSON Schema of a request line ([`Command`]: each command's fields, its `cmd` and an
/// `id`, and no other field), as written to docs/protocol.schema.json. Each command's
/// fields are written into its variant (rather than referred to), so that
/// `additionalProperties: false` sees them.
pub fn schema() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(Command)).unwrap_or(Value::Null);
    let mut defs = schema
        .get_mut("$defs")
        .and_then(Value::as_object_mut)
        .map(std::mem::take)
        .unwrap_or_default();
    if let Some(variants) = schema.get_mut("oneOf").and_then(Value::as_array_mut) {
        for v in variants.iter_mut() {
            let Some(obj) = v.as_object_mut() else {
                continue;
            };
            let def = obj
                .remove("$ref")
                .and_then(|r| {
                    r.as_str()
                        .map(|r| r.trim_start_matches("#/$defs/").to_string())
                })
                .and_then(|name| defs.remove(&name));
            let mut properties = Map::new();
            let mut required = Vec::new();
            if let Some(Value::Object(mut def)) = def {
                if let Some(Value::Object(p)) = def.remove("properties") {
                    properties.extend(p);
                }
                if let Some(Value::Array(r)) = def.remove("required") {
                    required.extend(r);
                }
            }
            if let Some(Value::Object(p)) = obj.remove("properties") {
                properties.extend(p);
            }
            if let Some(Value::Array(r)) = obj.remove("required") {
                required.extend(r);
            }
            properties.insert(
                "id".into(),
                serde_json::json!({ "description": "any JSON value, echoed in the response" }),
            );
            obj.insert("properties".into(), Value::Object(properties));
            obj.insert("required".into(), Value::Array(required));
            obj.insert("additionalProperties".into(), Value::Bool(false));
        }
    }
    if let Some(obj) = schema.as_object_mut() {
        obj.insert("$defs".into(), Value::Object(defs));
    }
    schema
}
