//! The `stickdice serve` protocol: drive the games and agents from any program, one JSON
//! object per line in, one JSON object per line out.
//!
//! The specification, with example sessions, is `docs/protocol.md`; this module is its
//! implementation. A [`Server`] holds at most one game session and answers one request
//! line at a time ([`Server::handle_line`]); [`serve`] runs it over a reader and a writer
//! (standard input and output for `stickdice serve`).
//!
//! Guarantees, each relied on by the tests:
//! * every request line gets exactly one response line, echoing the request's `id` (`null`
//!   when the line is not a JSON object); blank lines are not requests and get none;
//! * an error is a response `{"id":…,"ok":false,"error":{"code":…,"message":…}}` and leaves
//!   the session exactly as it was: every command works on copies and commits only when
//!   it has succeeded;
//! * nothing a client sends can crash the server: lines are capped at
//!   [`MAX_LINE_BYTES`], and as a last resort a panic inside a command (a bug) is caught
//!   and answered with the code `internal`, the session unchanged;
//! * the output is flushed after every response.
//!
//! A session is generic code (`Session<G: Game>`), written once for every game and held
//! in an enum over the three games.
//!
//! Reproducibility: the engine's dice are [`SeededDice`] seeded by `new_game`'s seed, so a
//! seeded game played through the protocol throws exactly what the same seeded game
//! throws through the library (`stickdice play`, the arena). An agent asked to move
//! without a seed is seeded with [`agent_seed`]`(game seed, steps)`, where `steps` is the
//! number of steps (throws, actions and loads) `undo` could take back at that point.

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use serde_json::{json, Map, Value};
use stickdice::play::SeededDice;
use stickdice::{
    ActionList, AgentError, AnyGame, Game, GameKind, IllegalMove, Issiren, Node, SigElOued,
    SigWaDuqqan, Throw,
};
use stickdice_agents::{AgentSpec, Evaluate};

/// Runs generic code on the session an [`AnySession`] holds.
macro_rules! with_session {
    ($any:expr, |$s:ident| $body:expr) => {
        match $any {
            AnySession::SigWaDuqqan($s) => $body,
            AnySession::SigElOued($s) => $body,
            AnySession::Issiren($s) => $body,
        }
    };
}

/// The protocol's name, reported by `hello`.
pub const PROTOCOL: &str = "stickdice-serve";

/// The protocol's version, reported by `hello`. It changes only when a request or
/// response changes incompatibly.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest request line read, in bytes (1 MiB). A longer line is answered with the
/// error code `line_too_long` and otherwise ignored.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The seed of a `new_game` that gives none (the same default as `stickdice play`).
pub const DEFAULT_SEED: u64 = 1;

/// The path tag of agent seeds in [`stickdice::seed::derive`].
const AGENT_SEEDS: u64 = 0x6167_656e_7473; // "agents"

/// The seed of the agent asked to move (without a seed of its own) in a game seeded
/// `game_seed`, after `steps` undoable steps since `new_game`.
pub fn agent_seed(game_seed: u64, steps: usize) -> u64 {
    stickdice::seed::derive(game_seed, &[AGENT_SEEDS, steps as u64])
}

/// What went wrong with a request: the `code` of an error response.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The line is not JSON (or not UTF-8 text).
    MalformedJson,
    /// The line is longer than [`MAX_LINE_BYTES`].
    LineTooLong,
    /// The line is JSON but not a JSON object.
    BadRequest,
    /// `cmd` names no command.
    UnknownCommand,
    /// A required field is absent (or `null`).
    MissingField,
    /// A field has the wrong JSON type.
    WrongType,
    /// The request has a field its command does not take.
    UnknownField,
    /// A field has the right type but a value out of range.
    BadValue,
    /// The command needs a game and none was started.
    NoGame,
    /// `new_game`: an unknown game, a seat count it does not allow or a bad rule option.
    BadConfig,
    /// `act`: the action could not be read.
    BadNotation,
    /// `act`: the action is not legal here.
    IllegalAction,
    /// A throw is due, not an action.
    ThrowDue,
    /// An action is due, not a throw.
    DecisionDue,
    /// The sticks cannot show that many marked sides.
    ImpossibleThrow,
    /// The game is over.
    GameOver,
    /// `load_state`: the state is malformed or breaks the game's invariants.
    InvalidState,
    /// `agent_move`: the agent spec or budget is not one any agent accepts.
    BadAgent,
    /// `agent_move`: the agent gave no legal action.
    AgentFailed,
    /// `undo`: fewer steps were made than asked to undo.
    NothingToUndo,
    /// A bug in stickdice (a caught panic); the session is unchanged.
    Internal,
}

impl ErrorCode {
    /// Every code.
    pub const ALL: [ErrorCode; 21] = [
        ErrorCode::MalformedJson,
        ErrorCode::LineTooLong,
        ErrorCode::BadRequest,
        ErrorCode::UnknownCommand,
        ErrorCode::MissingField,
        ErrorCode::WrongType,
        ErrorCode::UnknownField,
        ErrorCode::BadValue,
        ErrorCode::NoGame,
        ErrorCode::BadConfig,
        ErrorCode::BadNotation,
        ErrorCode::IllegalAction,
        ErrorCode::ThrowDue,
        ErrorCode::DecisionDue,
        ErrorCode::ImpossibleThrow,
        ErrorCode::GameOver,
        ErrorCode::InvalidState,
        ErrorCode::BadAgent,
        ErrorCode::AgentFailed,
        ErrorCode::NothingToUndo,
        ErrorCode::Internal,
    ];

    /// The code as it appears in responses (`snake_case`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::MalformedJson => "malformed_json",
            ErrorCode::LineTooLong => "line_too_long",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::UnknownCommand => "unknown_command",
            ErrorCode::MissingField => "missing_field",
            ErrorCode::WrongType => "wrong_type",
            ErrorCode::UnknownField => "unknown_field",
            ErrorCode::BadValue => "bad_value",
            ErrorCode::NoGame => "no_game",
            ErrorCode::BadConfig => "bad_config",
            ErrorCode::BadNotation => "bad_notation",
            ErrorCode::IllegalAction => "illegal_action",
            ErrorCode::ThrowDue => "throw_due",
            ErrorCode::DecisionDue => "decision_due",
            ErrorCode::ImpossibleThrow => "impossible_throw",
            ErrorCode::GameOver => "game_over",
            ErrorCode::InvalidState => "invalid_state",
            ErrorCode::BadAgent => "bad_agent",
            ErrorCode::AgentFailed => "agent_failed",
            ErrorCode::NothingToUndo => "nothing_to_undo",
            ErrorCode::Internal => "internal",
        }
    }
}

/// An error response: a code for programs and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError {
    /// What kind of error.
    pub code: ErrorCode,
    /// What exactly was wrong, and what is accepted.
    pub message: String,
}

impl ProtocolError {
    fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ProtocolError {
            code,
            message: message.into(),
        }
    }
}

impl core::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for ProtocolError {}

impl From<IllegalMove> for ProtocolError {
    fn from(e: IllegalMove) -> Self {
        let code = match e {
            IllegalMove::GameOver => ErrorCode::GameOver,
            IllegalMove::ThrowDue { .. } => ErrorCode::ThrowDue,
            IllegalMove::DecisionDue { .. } => ErrorCode::DecisionDue,
            IllegalMove::NotLegal { .. } => ErrorCode::IllegalAction,
            IllegalMove::ImpossibleThrow { .. } => ErrorCode::ImpossibleThrow,
        };
        ProtocolError::new(code, e.to_string())
    }
}

type Result<T, E = ProtocolError> = core::result::Result<T, E>;

/// One response line, and whether the server stops after writing it (`quit`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The response, one line of JSON without the line break.
    pub line: String,
    /// Whether this was the answer to `quit`.
    pub quit: bool,
}

/// The response line of a success.
fn ok_line(id: &Value, result: &Value) -> String {
    format!("{{\"id\":{id},\"ok\":true,\"result\":{result}}}")
}

/// The response line of an error.
fn error_line(id: &Value, e: &ProtocolError) -> String {
    let error = json!({ "code": e.code.as_str(), "message": e.message });
    format!("{{\"id\":{id},\"ok\":false,\"error\":{error}}}")
}

/// The commands, each with the fields it takes (besides `id` and `cmd`).
pub const COMMANDS: &[(&str, &[&str])] = &[
    ("hello", &[]),
    ("new_game", &["game", "players", "options", "seed"]),
    ("state", &[]),
    ("throw", &["marked"]),
    ("act", &["action"]),
    (
        "agent_move",
        &["agent", "budget", "seed", "analysis", "apply"],
    ),
    ("load_state", &["state", "seed"]),
    ("undo", &["steps"]),
    ("quit", &[]),
];

/// The protocol server: at most one game session, answering request lines.
///
/// ```
/// use stickdice_evaluation::protocol::Server;
/// let mut server = Server::new();
/// let reply = server.handle_line(r#"{"id":1,"cmd":"new_game","game":"issiren","seed":7}"#).unwrap();
/// assert!(reply.line.starts_with(r#"{"id":1,"ok":true"#));
/// let reply = server.handle_line(r#"{"id":2,"cmd":"throw","marked":4}"#).unwrap();
/// assert!(reply.line.contains(r#""kind":"decide""#));
/// // An error leaves the session as it was, with a code for programs.
/// let reply = server.handle_line(r#"{"id":3,"cmd":"act","action":"b1"}"#).unwrap();
/// assert!(reply.line.contains(r#""code":"illegal_action""#), "{}", reply.line);
/// assert!(server.handle_line("   ").is_none()); // a blank line is not a request
/// ```
///
/// Equal servers answer every request alike (the tests compare a server before and after
/// an error).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Server {
    session: Option<AnySession>,
}

impl Server {
    /// A server with no game started.
    pub fn new() -> Self {
        Server::default()
    }

    /// Answers one request line (without its line break). `None` for a blank line (only
    /// spaces, tabs and carriage returns), which is not a request.
    pub fn handle_line(&mut self, line: &str) -> Option<Reply> {
        let text = line.trim_matches(|c| matches!(c, ' ' | '\t' | '\r'));
        if text.is_empty() {
            return None;
        }
        let request = match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            Ok(other) => {
                let e = ProtocolError::new(
                    ErrorCode::BadRequest,
                    format!(
                        "a request is a JSON object such as {{\"id\":1,\"cmd\":\"hello\"}}, not {}",
                        json_type(&other)
                    ),
                );
                return Some(Reply {
                    line: error_line(&Value::Null, &e),
                    quit: false,
                });
            }
            Err(e) => {
                let e = ProtocolError::new(
                    ErrorCode::MalformedJson,
                    format!("the line is not a JSON object: {e}"),
                );
                return Some(Reply {
                    line: error_line(&Value::Null, &e),
                    quit: false,
                });
            }
        };
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        // A panic here is a bug in stickdice; every command mutates the session only after
        // it has succeeded, so the session is still whole.
        let outcome =
            catch_unwind(AssertUnwindSafe(|| self.dispatch(request))).unwrap_or_else(|panic| {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                Err(ProtocolError::new(
                    ErrorCode::Internal,
                    format!(
                        "internal error (a bug in stickdice; the session is unchanged): {what}"
                    ),
                ))
            });
        Some(match outcome {
            Ok((result, quit)) => Reply {
                line: ok_line(&id, &result),
                quit,
            },
            Err(e) => Reply {
                line: error_line(&id, &e),
                quit: false,
            },
        })
    }

    /// Answers one request line given as bytes: as [`Server::handle_line`], with an error
    /// response for a line that is not UTF-8.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Option<Reply> {
        match std::str::from_utf8(line) {
            Ok(text) => self.handle_line(text),
            Err(e) => Some(Reply {
                line: error_line(
                    &Value::Null,
                    &ProtocolError::new(
                        ErrorCode::MalformedJson,
                        format!("the line is not UTF-8 text: {e}"),
                    ),
                ),
                quit: false,
            }),
        }
    }

    fn dispatch(&mut self, mut request: Map<String, Value>) -> Result<(Value, bool)> {
        let cmd = match request.remove("cmd") {
            None | Some(Value::Null) => {
                return Err(ProtocolError::new(
                    ErrorCode::MissingField,
                    format!(
                        "the request has no `cmd`: the commands are {}",
                        command_names()
                    ),
                ))
            }
            Some(Value::String(s)) => s,
            Some(other) => {
                return Err(ProtocolError::new(
                    ErrorCode::WrongType,
                    format!("`cmd` must be a string, not {}", json_type(&other)),
                ))
            }
        };
        request.remove("id");
        let Some(&(cmd, fields)) = COMMANDS.iter().find(|(name, _)| *name == cmd) else {
            return Err(ProtocolError::new(
                ErrorCode::UnknownCommand,
                format!(
                    "unknown command `{cmd}`: the commands are {}",
                    command_names()
                ),
            ));
        };
        if let Some(key) = request.keys().find(|k| !fields.contains(&k.as_str())) {
            let takes = if fields.is_empty() {
                "no fields besides id and cmd".to_string()
            } else {
                format!("the fields {}", fields.join(", "))
            };
            return Err(ProtocolError::new(
                ErrorCode::UnknownField,
                format!("`{cmd}` has no field `{key}`: it takes {takes}"),
            ));
        }
        let mut f = Fields(request);
        let result = match cmd {
            "hello" => hello(),
            "new_game" => {
                let game = f.required_str("game")?;
                let players = f.optional_u64("players")?;
                let options = f.options()?;
                let seed = f.optional_u64("seed")?.unwrap_or(DEFAULT_SEED);
                let session = AnySession::new(&game, players, &options, seed)?;
                let view = session.view()?;
                self.session = Some(session);
                view
            }
            "quit" => return Ok((json!({}), true)),
            _ => {
                let session = self.session.as_mut().ok_or_else(|| {
                    ProtocolError::new(
                        ErrorCode::NoGame,
                        format!("no game yet: start one with new_game before `{cmd}`"),
                    )
                })?;
                match cmd {
                    "state" => session.view()?,
                    "throw" => {
                        let marked = f.optional_u64("marked")?;
                        with_session!(session, |s| s.throw(marked))?
                    }
                    "act" => {
                        let action = f.required_str("action")?;
                        with_session!(session, |s| s.act(&action))?
                    }
                    "agent_move" => {
                        let spec = f.agent_spec()?;
                        let seed = f.optional_u64("seed")?;
                        let analysis = f.optional_bool("analysis")?.unwrap_or(false);
                        let apply = f.optional_bool("apply")?.unwrap_or(false);
                        session.agent_move(&spec, seed, analysis, apply)?
                    }
                    "load_state" => {
                        let state = f.required("state")?;
                        let text = match state {
                            Value::String(s) => s,
                            other => other.to_string(),
                        };
                        let seed = f.optional_u64("seed")?;
                        with_session!(session, |s| s.load(&text, seed))?
                    }
                    "undo" => {
                        let steps = f.optional_u64("steps")?.unwrap_or(1);
                        with_session!(session, |s| s.undo(steps))?
                    }
                    other => unreachable!("command `{other}` is listed but not handled"),
                }
            }
        };
        Ok((result, false))
    }
}

fn command_names() -> String {
    COMMANDS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The JSON type of a value, for messages.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A request's fields, read by type. `null` counts as absent.
struct Fields(Map<String, Value>);

impl Fields {
    fn optional(&mut self, key: &str) -> Option<Value> {
        self.0.remove(key).filter(|v| !v.is_null())
    }

    fn required(&mut self, key: &str) -> Result<Value> {
        self.optional(key).ok_or_else(|| {
            ProtocolError::new(
                ErrorCode::MissingField,
                format!("the field `{key}` is required"),
            )
        })
    }

    fn required_str(&mut self, key: &str) -> Result<String> {
        match self.required(key)? {
            Value::String(s) => Ok(s),
            other => Err(wrong_type(key, "a string", &other)),
        }
    }

    fn optional_u64(&mut self, key: &str) -> Result<Option<u64>> {
        match self.optional(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| wrong_type(key, "a whole number from 0 to 2^64-1", &v)),
        }
    }

    fn optional_bool(&mut self, key: &str) -> Result<Option<bool>> {
        match self.optional(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(other) => Err(wrong_type(key, "true or false", &other)),
        }
    }

    /// `options`: an object `{"key": value}` (values strings, numbers or booleans) or an
    /// array of `"key=value"` strings; returned as `key=value` strings.
    fn options(&mut self) -> Result<Vec<String>> {
        match self.optional("options") {
            None => Ok(Vec::new()),
            Some(Value::Object(map)) => map
                .into_iter()
                .map(|(k, v)| scalar_text("options", &k, v).map(|v| format!("{k}={v}")))
                .collect(),
            Some(Value::Array(items)) => items
                .into_iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s),
                    other => Err(wrong_type(
                        "options",
                        "an object {\"key\": value} or an array of \"key=value\" strings",
                        &other,
                    )),
                })
                .collect(),
            Some(other) => Err(wrong_type(
                "options",
                "an object {\"key\": value} or an array of \"key=value\" strings",
                &other,
            )),
        }
    }

    /// `agent` (a spec string) with the parameters of `budget` (an object) added to it or
    /// replacing the spec's own.
    fn agent_spec(&mut self) -> Result<AgentSpec> {
        let text = self.required_str("agent")?;
        let bad =
            |e: stickdice_agents::SpecError| ProtocolError::new(ErrorCode::BadAgent, e.to_string());
        let spec: AgentSpec = text.parse().map_err(bad)?;
        let budget = match self.optional("budget") {
            None => return Ok(spec),
            Some(Value::Object(map)) => map,
            Some(other) => {
                return Err(wrong_type(
                    "budget",
                    "an object of agent parameters, such as {\"iterations\": 2000}",
                    &other,
                ))
            }
        };
        let mut params: Vec<(String, String)> = spec.params().to_vec();
        for (k, v) in budget {
            let v = scalar_text("budget", &k, v)?;
            if [&k, &v].iter().any(|t| t.contains([',', '=', ':'])) {
                return Err(ProtocolError::new(
                    ErrorCode::BadAgent,
                    format!("budget `{k}`: `{v}` is not a parameter value (no `,`, `=` or `:`)"),
                ));
            }
            match params.iter_mut().find(|(pk, _)| *pk == k) {
                Some(p) => p.1 = v,
                None => params.push((k, v)),
            }
        }
        let mut text = spec.name().to_string();
        for (i, (k, v)) in params.iter().enumerate() {
            text.push(if i == 0 { ':' } else { ',' });
            text.push_str(&format!("{k}={v}"));
        }
        text.parse().map_err(bad)
    }
}

fn wrong_type(key: &str, expected: &str, got: &Value) -> ProtocolError {
    ProtocolError::new(
        ErrorCode::WrongType,
        format!("`{key}` must be {expected}, not {}", json_type(got)),
    )
}

/// A string, number or boolean as text (an option's or a parameter's value).
fn scalar_text(field: &str, key: &str, v: Value) -> Result<String> {
    match v {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        other => Err(ProtocolError::new(
            ErrorCode::WrongType,
            format!(
                "`{field}.{key}` must be a string, a number or a boolean, not {}",
                json_type(&other)
            ),
        )),
    }
}

/// The `hello` result: protocol, games and agents.
fn hello() -> Value {
    let games: Vec<Value> = GameKind::ALL
        .iter()
        .map(|&kind| {
            let (min, max) = kind.seat_range();
            let defaults = AnyGame::new::<&str>(kind.name(), None, &[]).ok();
            let options: Map<String, Value> = match &defaults {
                Some(any) => any
                    .options()
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), Value::String(v)))
                    .collect(),
                None => Map::new(),
            };
            let sticks = defaults
                .as_ref()
                .map(|any| stickdice::with_game!(any, |g| g.sticks().count()));
            json!({
                "name": kind.name(),
                "title": kind.title(),
                "players": { "min": min, "max": max },
                "options": options,
                "sticks": sticks,
            })
        })
        .collect();
    let agents: Vec<Value> = stickdice_agents::agents()
        .iter()
        .map(|a| {
            json!({
                "name": a.name,
                "summary": a.summary,
                "params": a.params.iter().map(|p| json!({
                    "key": p.key,
                    "default": p.default,
                    "help": p.help,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "protocol": PROTOCOL,
        "version": PROTOCOL_VERSION,
        "engine": format!("stickdice {}", env!("CARGO_PKG_VERSION")),
        "games": games,
        "agents": agents,
    })
}

/// One game in progress: the rules, the current point and the undo history.
///
/// Every command that changes the game first works out the next point and its response,
/// and only then commits (pushes the current point on the history), so an error or a
/// panic on the way leaves the session untouched.
#[derive(Clone, Debug, PartialEq)]
struct Session<G: Game> {
    game: G,
    now: Point<G>,
    /// Every earlier point of the game, oldest first; `undo` pops them.
    history: Vec<Point<G>>,
}

/// A point of a game: everything a step may change, and `undo` restores.
#[derive(Clone, Debug, PartialEq)]
struct Point<G: Game> {
    state: G::State,
    /// The engine's dice (their seed and each seat's throw count).
    dice: SeededDice,
    /// The seed of the dice, also the root of agents' seeds.
    seed: u64,
}

/// A session of whichever game was chosen.
#[derive(Clone, Debug, PartialEq)]
enum AnySession {
    SigWaDuqqan(Session<SigWaDuqqan>),
    SigElOued(Session<SigElOued>),
    Issiren(Session<Issiren>),
}

impl AnySession {
    fn new(name: &str, players: Option<u64>, options: &[String], seed: u64) -> Result<Self> {
        let players = players.map(|p| usize::try_from(p).unwrap_or(usize::MAX));
        let any = AnyGame::new(name, players, options)
            .map_err(|e| ProtocolError::new(ErrorCode::BadConfig, e.to_string()))?;
        Ok(match any {
            AnyGame::SigWaDuqqan(g) => AnySession::SigWaDuqqan(Session::new(g, seed)),
            AnyGame::SigElOued(g) => AnySession::SigElOued(Session::new(g, seed)),
            AnyGame::Issiren(g) => AnySession::Issiren(Session::new(g, seed)),
        })
    }

    fn view(&self) -> Result<Value> {
        with_session!(self, |s| s.view())
    }

    fn agent_move(
        &mut self,
        spec: &AgentSpec,
        seed: Option<u64>,
        analysis: bool,
        apply: bool,
    ) -> Result<Value> {
        with_session!(self, |s| s.agent_move(spec, seed, analysis, apply))
    }
}

impl<G: Game> Session<G> {
    /// A new game of `game` whose engine dice are seeded `seed`.
    fn new(game: G, seed: u64) -> Self {
        Session {
            now: Point {
                state: game.initial_state(),
                dice: SeededDice::new(seed),
                seed,
            },
            game,
            history: Vec::new(),
        }
    }

    /// Steps to `next`: works out its view (with `key: value` added), then commits.
    fn advance(&mut self, next: Point<G>, extra: Option<(&str, Value)>) -> Result<Value> {
        let mut view = self.view_at(&next, self.history.len() + 1)?;
        if let (Value::Object(map), Some((key, value))) = (&mut view, extra) {
            map.insert(key.to_string(), value);
        }
        let before = core::mem::replace(&mut self.now, next);
        self.history.push(before);
        Ok(view)
    }

    /// The `state` result: everything a front end shows.
    fn view(&self) -> Result<Value> {
        self.view_at(&self.now, self.history.len())
    }

    /// The view of `point`, with `undo_steps` steps behind it.
    fn view_at(&self, point: &Point<G>, undo_steps: usize) -> Result<Value> {
        let g = &self.game;
        let s = &point.state;
        let node = g.node(s);
        let (kind, seat) = match node {
            Node::Throw(seat) => ("throw", Some(seat)),
            Node::Decide(seat) => ("decide", Some(seat)),
            Node::End => ("end", None),
        };
        let mut legal = ActionList::new();
        g.legal_actions(s, &mut legal);
        let legal: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
        let outcomes: Vec<Value> = match node {
            Node::Throw(_) => g
                .throw_outcomes()
                .iter()
                .map(|o| {
                    json!({
                        "marked": o.throw.marked(),
                        "probability": o.probability,
                        "description": g.describe_throw(s, o.throw),
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        let ranking = g.ranking(s).map(|r| {
            json!({
                "places": r.places(),
                "scores": &r.scores()[..r.seats()],
                "text": r.to_string(),
            })
        });
        let options: Map<String, Value> = g
            .options()
            .into_iter()
            .map(|(k, v)| (k.to_string(), Value::String(v)))
            .collect();
        let state = serde_json::to_value(s).map_err(|e| {
            ProtocolError::new(
                ErrorCode::Internal,
                format!("the state could not be written: {e}"),
            )
        })?;
        Ok(json!({
            "game": G::NAME,
            "players": g.seats(),
            "options": options,
            "seed": point.seed,
            "node": { "kind": kind, "seat": seat },
            "throws_made": g.throws_made(s),
            "undo_steps": undo_steps,
            "state": state,
            "board": g.render(s),
            "legal_actions": legal,
            "throw_outcomes": outcomes,
            "ranking": ranking,
        }))
    }

    /// `throw`: the client's throw (`marked` sides up) or the engine's.
    fn throw(&mut self, marked: Option<u64>) -> Result<Value> {
        let seat = match self.game.node(&self.now.state) {
            Node::Throw(seat) => seat,
            Node::Decide(seat) => return Err(IllegalMove::DecisionDue { seat }.into()),
            Node::End => return Err(IllegalMove::GameOver.into()),
        };
        let sticks = self.game.sticks();
        let mut dice = self.now.dice.clone();
        // The client's throw takes the slot of the engine's, so the engine's later throws
        // are the same whoever threw before.
        let engine = dice.throw(seat, sticks);
        let (throw, source) = match marked {
            None => (engine, "engine"),
            Some(k) => match u8::try_from(k) {
                Ok(k) => (Throw::new(k), "client"),
                Err(_) => {
                    return Err(ProtocolError::new(
                        ErrorCode::ImpossibleThrow,
                        format!(
                            "{k} marked sides up is impossible with {} sticks",
                            sticks.count()
                        ),
                    ))
                }
            },
        };
        let mut state = self.now.state;
        self.game.apply_throw(&mut state, throw)?;
        let description = self.game.describe_throw(&self.now.state, throw);
        let next = Point {
            state,
            dice,
            seed: self.now.seed,
        };
        let thrown = json!({
            "seat": seat,
            "marked": throw.marked(),
            "description": description,
            "source": source,
        });
        self.advance(next, Some(("thrown", thrown)))
    }

    /// `act`: an action in notation.
    fn act(&mut self, text: &str) -> Result<Value> {
        let seat = match self.game.node(&self.now.state) {
            Node::Decide(seat) => seat,
            Node::Throw(seat) => return Err(IllegalMove::ThrowDue { seat }.into()),
            Node::End => return Err(IllegalMove::GameOver.into()),
        };
        let action = self
            .game
            .parse_action(text)
            .map_err(|e| ProtocolError::new(ErrorCode::BadNotation, e.to_string()))?;
        let mut state = self.now.state;
        self.game.apply_action(&mut state, action)?;
        let next = Point {
            state,
            ..self.now.clone()
        };
        let played = json!({ "seat": seat, "action": action.to_string() });
        self.advance(next, Some(("played", played)))
    }

    /// `load_state`: a serialized state, validated.
    fn load(&mut self, text: &str, seed: Option<u64>) -> Result<Value> {
        let state = stickdice::load_state(&self.game, text)
            .map_err(|e| ProtocolError::new(ErrorCode::InvalidState, e))?;
        let seed = seed.unwrap_or(self.now.seed);
        let next = Point {
            state,
            dice: SeededDice::new(seed),
            seed,
        };
        self.advance(next, None)
    }

    /// `undo`: takes back `steps` steps.
    fn undo(&mut self, steps: u64) -> Result<Value> {
        if steps == 0 {
            return Err(ProtocolError::new(
                ErrorCode::BadValue,
                "`steps` must be at least 1",
            ));
        }
        let made = self.history.len();
        if steps > made as u64 {
            return Err(ProtocolError::new(
                ErrorCode::NothingToUndo,
                format!(
                    "cannot undo {steps} step{}: only {made} {} been made since new_game",
                    if steps == 1 { "" } else { "s" },
                    if made == 1 { "has" } else { "have" },
                ),
            ));
        }
        let keep = made - steps as usize;
        let back = self.history[keep].clone();
        let mut view = self.view_at(&back, keep)?;
        if let Value::Object(map) = &mut view {
            map.insert("undone".to_string(), json!(steps));
        }
        self.history.truncate(keep);
        self.now = back;
        Ok(view)
    }
}

impl<G: Evaluate> Session<G> {
    /// `agent_move`: the action an agent chooses here, optionally with its analysis, and
    /// optionally applied.
    fn agent_move(
        &mut self,
        spec: &AgentSpec,
        seed: Option<u64>,
        want_analysis: bool,
        apply: bool,
    ) -> Result<Value> {
        let seat = match self.game.node(&self.now.state) {
            Node::Decide(seat) => seat,
            Node::Throw(seat) => return Err(IllegalMove::ThrowDue { seat }.into()),
            Node::End => return Err(IllegalMove::GameOver.into()),
        };
        let seed = seed.unwrap_or_else(|| agent_seed(self.now.seed, self.history.len()));
        let mut agent = stickdice_agents::build(spec, &self.game, seed)
            .map_err(|e| ProtocolError::new(ErrorCode::BadAgent, e.to_string()))?;
        agent.new_game(&self.game, seat);
        let start = Instant::now();
        let action = agent
            .choose(&self.game, &self.now.state)
            .map_err(|e| match e {
                AgentError::GameOver => IllegalMove::GameOver.into(),
                AgentError::ThrowDue { seat } => IllegalMove::ThrowDue { seat }.into(),
                AgentError::Unsupported(why) => ProtocolError::new(
                    ErrorCode::AgentFailed,
                    format!("agent `{spec}` gave no action: {why}"),
                ),
            })?;
        // Milliseconds, to the microsecond.
        let time_ms = start.elapsed().as_micros() as f64 / 1000.0;
        let mut state = self.now.state;
        self.game.apply_action(&mut state, action).map_err(|e| {
            ProtocolError::new(
                ErrorCode::AgentFailed,
                format!("agent `{spec}` chose an illegal action: {e}"),
            )
        })?;
        let analysis = if want_analysis {
            agent.analysis().map(|entries| {
                entries
                    .iter()
                    .map(|a| {
                        json!({
                            "action": a.action.to_string(),
                            "value": a.value,
                            "visits": a.visits,
                        })
                    })
                    .collect::<Vec<_>>()
            })
        } else {
            None
        };
        let chosen = json!({
            "seat": seat,
            "action": action.to_string(),
            "agent": spec.to_string(),
            "seed": seed,
            "time_ms": time_ms,
            "analysis": analysis,
            "applied": apply,
        });
        if apply {
            let next = Point {
                state,
                ..self.now.clone()
            };
            self.advance(next, Some(("move", chosen)))
        } else {
            Ok(json!({ "move": chosen }))
        }
    }
}

/// How reading one line ended.
enum LineRead {
    /// A line (possibly the last, without a line break) is in the buffer.
    Line,
    /// The line was longer than the limit; it was read and dropped.
    TooLong,
    /// The input has ended.
    End,
}

/// Reads one line (without its `\n`) into `buf`, keeping at most `limit` bytes.
fn read_line_limited<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<LineRead> {
    buf.clear();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(match (read_any, too_long) {
                (false, _) => LineRead::End,
                (true, true) => LineRead::TooLong,
                (true, false) => LineRead::Line,
            });
        }
        read_any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        if !too_long {
            if buf.len() + chunk.len() > limit {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        let used = newline.map_or(available.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}

/// Serves requests from `input` until it ends or a `quit`, writing one response line per
/// request to `output` and flushing after each.
///
/// ```
/// let input = "{\"id\":1,\"cmd\":\"hello\"}\n{\"id\":2,\"cmd\":\"quit\"}\n{\"id\":3,\"cmd\":\"hello\"}\n";
/// let mut output = Vec::new();
/// stickdice_evaluation::protocol::serve(input.as_bytes(), &mut output).unwrap();
/// let output = String::from_utf8(output).unwrap();
/// assert_eq!(output.lines().count(), 2); // nothing after `quit`
/// assert!(output.contains(r#""protocol":"stickdice-serve""#));
/// ```
///
/// # Errors
/// Only reading or writing failures (for example a client that closed the output pipe);
/// nothing in the requests is an error here.
pub fn serve<R: BufRead, W: Write>(mut input: R, mut output: W) -> io::Result<()> {
    let mut server = Server::new();
    let mut line = Vec::new();
    loop {
        let reply = match read_line_limited(&mut input, &mut line, MAX_LINE_BYTES)? {
            LineRead::End => return Ok(()),
            LineRead::TooLong => Some(Reply {
                line: error_line(
                    &Value::Null,
                    &ProtocolError::new(
                        ErrorCode::LineTooLong,
                        format!("the line is longer than {MAX_LINE_BYTES} bytes"),
                    ),
                ),
                quit: false,
            }),
            LineRead::Line => server.handle_bytes(&line),
        };
        if let Some(reply) = reply {
            output.write_all(reply.line.as_bytes())?;
            output.write_all(b"\n")?;
            output.flush()?;
            if reply.quit {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_of(request: Value) -> Result<AgentSpec> {
        let Value::Object(map) = request else {
            unreachable!()
        };
        Fields(map).agent_spec()
    }

    #[test]
    fn a_budget_adds_to_the_spec_or_replaces_its_parameters() {
        let spec =
            spec_of(json!({"agent": "mcts:iterations=10,c=1.4", "budget": {"iterations": 500}}));
        assert_eq!(spec.unwrap().to_string(), "mcts:iterations=500,c=1.4");
        let spec = spec_of(json!({"agent": "expectimax", "budget": {"depth": 3, "x": true}}));
        assert_eq!(spec.unwrap().to_string(), "expectimax:depth=3,x=true");
        let spec = spec_of(json!({"agent": "random"}));
        assert_eq!(spec.unwrap().to_string(), "random");
        for (budget, code) in [
            (json!({"iterations": "5,c=3"}), ErrorCode::BadAgent),
            (json!({"a=b": 1}), ErrorCode::BadAgent),
            (json!({"iterations": [1]}), ErrorCode::WrongType),
            (json!(12), ErrorCode::WrongType),
        ] {
            let e = spec_of(json!({"agent": "mcts", "budget": budget})).unwrap_err();
            assert_eq!(e.code, code, "{budget}: {e}");
        }
        assert_eq!(
            spec_of(json!({"agent": "a b"})).unwrap_err().code,
            ErrorCode::BadAgent
        );
    }

    #[test]
    fn every_code_has_its_own_name() {
        let mut names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::ALL.len());
    }
}
