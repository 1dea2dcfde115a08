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
//! * the output is flushed after every response;
//! * an agent's search never blocks the server: [`serve`] runs it on a worker thread
//!   ([`Server::begin`] hands it out as a [`Search`], [`Server::finish`] takes its result
//!   back), answers `state`, `hello` and `cancel` while it runs, and holds the requests
//!   that change the game until it ends; a search stops at its time limit or at `cancel`,
//!   and the session is then as it was.
//!
//! A session is generic code (`Session<G: Game>`), written once for every game and held
//! in an enum over the three games.
//!
//! Reproducibility: the engine's dice are [`SeededDice`] seeded by `new_game`'s seed, so a
//! seeded game played through the protocol throws exactly what the same seeded game
//! throws through the library (`stickdice play`, the arena). An agent asked to move
//! without a seed is seeded with [`agent_seed`]`(game seed, steps)`, where `steps` is the
//! number of steps (throws, actions and loads) `undo` could take back at that point.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};
use stickdice::play::SeededDice;
use stickdice::{
    ActionList, AgentError, AnyGame, Game, GameKind, IllegalMove, Node, Present, Stop, Throw,
};
use stickdice_agents::{AgentSpec, Evaluate};

/// Defines [`AnySession`] (a session of each game of the list) and `with_session!`.
macro_rules! define_sessions {
    ([] $($variant:ident : $ty:path,)*) => {
        /// A session of whichever game was chosen.
        #[derive(Clone, Debug, PartialEq)]
        enum AnySession {
            $($variant(Session<$ty>),)*
        }

        impl AnySession {
            fn of(any: AnyGame, seed: u64) -> AnySession {
                match any {
                    $(AnyGame::$variant(g) => AnySession::$variant(Session::new(g, seed)),)*
                    #[allow(unreachable_patterns)]
                    _ => unreachable!("every game of the list has a session"),
                }
            }
        }

        /// Runs generic code on the session an [`AnySession`] holds.
        macro_rules! with_session {
            ($any:expr, |$s:ident| $body:expr) => {
                match $any {
                    $(AnySession::$variant($s) => $body,)*
                }
            };
        }
    };
}
stickdice::for_each_game!(define_sessions);

/// The protocol's name, reported by `hello`.
pub const PROTOCOL: &str = "stickdice-serve";

/// The protocol's version, reported by `hello`. It changes only when a request or
/// response changes incompatibly.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest request line read, in bytes (1 MiB). A longer line is answered with the
/// error code `line_too_long` and otherwise ignored.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The time limit of an `agent_move` that gives none (`time_limit_ms`), in milliseconds.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 60_000;

/// The longest time limit an `agent_move` may ask for, in milliseconds (an hour).
pub const MAX_TIME_LIMIT_MS: u64 = 3_600_000;

/// How many requests may wait for a running search before the server stops reading more.
const MAX_WAITING: usize = 1024;

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
#[non_exhaustive]
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
    /// `new_game`: the `description` cannot be read (the message names the line and
    /// field).
    BadDescription,
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
    /// `agent_move`: the search was stopped by `cancel`; the session is unchanged.
    Cancelled,
    /// `agent_move`: the move was not ready within its time limit; the session is
    /// unchanged.
    TimeLimit,
    /// A request that changes the game came while a search was running, through
    /// [`Server::handle_line`] (a caller that mixes it with [`Server::begin`]).
    Busy,
    /// A bug in stickdice (a caught panic); the session is unchanged.
    Internal,
}

impl ErrorCode {
    /// Every code.
    pub const ALL: [ErrorCode; 25] = [
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
        ErrorCode::BadDescription,
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
        ErrorCode::Cancelled,
        ErrorCode::TimeLimit,
        ErrorCode::Busy,
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
            ErrorCode::BadDescription => "bad_description",
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
            ErrorCode::Cancelled => "cancelled",
            ErrorCode::TimeLimit => "time_limit",
            ErrorCode::Busy => "busy",
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
            // A kind of illegal move added later: the generic code, with its message.
            _ => ErrorCode::IllegalAction,
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
fn ok_line(id: &str, result: &Value) -> String {
    format!("{{\"id\":{id},\"ok\":true,\"result\":{result}}}")
}

/// The response line of an error.
fn error_line(id: &str, e: &ProtocolError) -> String {
    let error = json!({ "code": e.code.as_str(), "message": e.message });
    format!("{{\"id\":{id},\"ok\":false,\"error\":{error}}}")
}

pub mod requests;
use requests::Command;
pub use requests::COMMANDS;

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
///
/// Two ways to drive it: [`Server::handle_line`] answers each request before returning
/// (an `agent_move` searches on the calling thread, within its time limit); or
/// [`Server::begin`] answers what it can at once and hands an `agent_move` out as a
/// [`Search`] to run on another thread, while the server goes on answering `state`,
/// `hello` and `cancel` (requests that change the game must wait, [`Begin::Wait`]) until
/// [`Server::finish`] takes the search's result back. [`serve`] does the second.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Server {
    session: Option<AnySession>,
    running: Option<Running>,
    /// Agent specs naming a file (`eval=PATH`, `tablebase=PATH`) are refused: the web
    /// server's sessions ([`Server::without_files`]).
    no_files: bool,
}

/// The search a server has handed out and not yet taken back.
#[derive(Clone, Debug)]
struct Running {
    id: Value,
    stop: Stop,
    /// The session when the search began (the result is applied to it only).
    before: Option<AnySession>,
}

impl PartialEq for Running {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.before == other.before
    }
}

/// What [`Server::begin`] made of a request line.
#[derive(Debug)]
pub enum Begin {
    /// The response (`None` for a blank line, which is not a request).
    Reply(Option<Reply>),
    /// An `agent_move` to run with [`Search::run`] (on any thread) and hand back to
    /// [`Server::finish`]; its response comes from there.
    Search(Box<Search>),
    /// A request that changes the game (or `quit`, which also cancels the search) came
    /// while a search runs: offer the same line to [`Server::begin`] again after
    /// [`Server::finish`], in order.
    Wait,
}

/// An `agent_move` handed out by [`Server::begin`]: the agent searches a copy of the
/// session, so the server keeps answering while it runs.
#[derive(Debug)]
pub struct Search {
    id: Value,
    /// The `id` exactly as the request wrote it.
    id_text: String,
    session: AnySession,
    spec: AgentSpec,
    seed: Option<u64>,
    analysis: bool,
    apply: bool,
    limit: Duration,
    stop: Stop,
}

/// A finished [`Search`], for [`Server::finish`].
#[derive(Debug)]
pub struct Searched {
    id_text: String,
    session: AnySession,
    outcome: Result<Value>,
}

impl Search {
    /// The request's `id`.
    pub fn id(&self) -> &Value {
        &self.id
    }

    /// A handle that stops the search ([`Stop::stop`]), as `cancel` does.
    pub fn stopper(&self) -> Stop {
        self.stop.clone()
    }

    /// Runs the agent (this takes as long as its budget, at most the time limit).
    pub fn run(mut self) -> Searched {
        let stop = self.stop.with_deadline(Instant::now() + self.limit);
        let (spec, seed, analysis, apply) = (&self.spec, self.seed, self.analysis, self.apply);
        let session = &mut self.session;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            session.agent_move(spec, seed, analysis, apply, &stop)
        }))
        .unwrap_or_else(|panic| Err(internal(&panic)));
        let limit_ms = self.limit.as_millis();
        // A stop speaks for a search it may have cut short (a move, or the agent's own
        // `Stopped`); an error of its own (a bad agent, say) is answered as it is.
        let stop_matters = match &outcome {
            Ok(_) => true,
            Err(e) => e.code == ErrorCode::Cancelled,
        };
        let outcome = if !stop_matters {
            outcome
        } else if stop.is_cancelled() {
            Err(ProtocolError::new(
                ErrorCode::Cancelled,
                "the search was cancelled; the game is as it was",
            ))
        } else if stop.is_past_deadline() {
            Err(ProtocolError::new(
                ErrorCode::TimeLimit,
                format!(
                    "agent `{spec}` had no move within the time limit of {limit_ms} ms (time_limit_ms); the game is as it was"
                ),
            ))
        } else {
            outcome
        };
        Searched {
            id_text: self.id_text,
            session: self.session,
            outcome,
        }
    }
}

/// The error response of a caught panic.
fn internal(panic: &Box<dyn std::any::Any + Send>) -> ProtocolError {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    ProtocolError::new(
        ErrorCode::Internal,
        format!("internal error (a bug in stickdice; the session is unchanged): {what}"),
    )
}

/// What a command came to.
enum Outcome {
    /// The result, and whether the server stops (`quit`).
    Answer(Value, bool),
    /// An `agent_move` to run.
    Search(Box<Search>),
}

impl Server {
    /// A server with no game started.
    pub fn new() -> Self {
        Server::default()
    }

    /// A server that refuses agent specs naming a file (`eval=PATH`, `tablebase=PATH`),
    /// without reading it, so that its answers tell nothing of the files on the machine:
    /// for a server reachable over HTTP.
    pub fn without_files() -> Self {
        Server {
            no_files: true,
            ..Server::default()
        }
    }

    /// Asks the running search, if any, to stop (as `cancel` does, without a reply).
    pub fn stop_search(&self) {
        if let Some(running) = &self.running {
            running.stop.stop();
        }
    }

    /// Whether a search handed out by [`Server::begin`] has not been finished yet.
    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// Answers one request line (without its line break), running an `agent_move`'s
    /// search on this thread. `None` for a blank line (only spaces, tabs and carriage
    /// returns), which is not a request.
    pub fn handle_line(&mut self, line: &str) -> Option<Reply> {
        self.handle_bytes(line.as_bytes())
    }

    /// Answers one request line given as bytes: as [`Server::handle_line`], with an error
    /// response for a line that is not UTF-8.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Option<Reply> {
        match self.begin(line) {
            Begin::Reply(r) => r,
            Begin::Search(search) => Some(self.finish(search.run())),
            Begin::Wait => Some(Reply {
                line: error_line(
                    &request_id(line),
                    &ProtocolError::new(
                        ErrorCode::Busy,
                        "a search handed out by begin() is still running: finish() it first",
                    ),
                ),
                quit: false,
            }),
        }
    }

    /// Starts on one request line: answers it, hands out an `agent_move` to run
    /// elsewhere, or (while a search runs) asks the caller to offer it again later.
    pub fn begin(&mut self, line: &[u8]) -> Begin {
        let request = match parse_request(line) {
            Ok(None) => return Begin::Reply(None),
            Ok(Some(request)) => request,
            Err(e) => {
                return Begin::Reply(Some(Reply {
                    line: error_line(&e.id_text, &e.error),
                    quit: false,
                }))
            }
        };
        let Request {
            fields: request,
            id_text,
            repeated_option,
        } = request;
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        if let Some(running) = &self.running {
            match request.get("cmd").and_then(Value::as_str) {
                Some("state" | "hello" | "cancel") => {}
                Some("quit") => {
                    running.stop.stop();
                    return Begin::Wait;
                }
                _ => return Begin::Wait,
            }
        }
        // A panic here is a bug in stickdice; every command mutates the session only after
        // it has succeeded, so the session is still whole.
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            self.dispatch(request, &id, repeated_option)
        }))
        .unwrap_or_else(|panic| Err(internal(&panic)));
        match outcome {
            Ok(Outcome::Answer(result, quit)) => Begin::Reply(Some(Reply {
                line: ok_line(&id_text, &result),
                quit,
            })),
            Ok(Outcome::Search(mut search)) => {
                search.id_text = id_text;
                self.running = Some(Running {
                    id: search.id.clone(),
                    stop: search.stop.clone(),
                    before: self.session.clone(),
                });
                Begin::Search(search)
            }
            Err(e) => Begin::Reply(Some(Reply {
                line: error_line(&id_text, &e),
                quit: false,
            })),
        }
    }

    /// Takes a search's result back: the response to its `agent_move`, the move applied
    /// if it was asked to be and the game has not changed meanwhile.
    pub fn finish(&mut self, done: Searched) -> Reply {
        let running = self.running.take();
        let outcome = done.outcome.and_then(|result| {
            let unchanged = running.as_ref().is_none_or(|r| r.before == self.session);
            if !unchanged {
                return Err(ProtocolError::new(
                    ErrorCode::Busy,
                    "the game changed while the agent searched: its move is not applied",
                ));
            }
            self.session = Some(done.session);
            Ok(result)
        });
        Reply {
            line: match outcome {
                Ok(result) => ok_line(&done.id_text, &result),
                Err(e) => error_line(&done.id_text, &e),
            },
            quit: false,
        }
    }

    fn dispatch(
        &mut self,
        request: Map<String, Value>,
        id: &Value,
        repeated_option: Option<String>,
    ) -> Result<Outcome> {
        let (cmd, command) = read_command(request)?;
        let result = match command {
            Command::Hello(_) => hello(),
            Command::NewGame(r) => self.new_game(r, repeated_option)?,
            Command::Quit(_) => return Ok(Outcome::Answer(json!({}), true)),
            Command::Cancel(_) => self.cancel(),
            command => {
                let session = self.session.as_mut().ok_or_else(|| {
                    ProtocolError::new(
                        ErrorCode::NoGame,
                        format!("no game yet: start one with new_game before `{cmd}`"),
                    )
                })?;
                match command {
                    Command::State(_) => {
                        let mut view = session.view()?;
                        if let (Some(running), Value::Object(map)) = (&self.running, &mut view) {
                            map.insert("searching".into(), running.id.clone());
                        }
                        view
                    }
                    Command::Throw(r) => {
                        let marked = r.marked.map(|m| m.0);
                        with_session!(session, |s| s.throw(marked))?
                    }
                    Command::Act(r) => with_session!(session, |s| s.act(&r.action.0))?,
                    Command::AgentMove(r) => {
                        let search = agent_move_search(session, r, id, self.no_files)?;
                        return Ok(Outcome::Search(search));
                    }
                    Command::LoadState(r) => {
                        let seed = r.seed.map(|s| s.0);
                        with_session!(session, |s| s.load(&r.state.0, seed))?
                    }
                    Command::Undo(r) => {
                        let steps = r.steps.map_or(1, |s| s.0);
                        with_session!(session, |s| s.undo(steps))?
                    }
                    Command::Hello(_)
                    | Command::NewGame(_)
                    | Command::Quit(_)
                    | Command::Cancel(_) => {
                        unreachable!("answered above")
                    }
                }
            }
        };
        Ok(Outcome::Answer(result, false))
    }

    /// `new_game`: the new session's view, the session kept.
    fn new_game(&mut self, r: requests::NewGame, repeated_option: Option<String>) -> Result<Value> {
        if let Some(key) = repeated_option {
            let e = stickdice::ConfigError::Repeated { key };
            return Err(ProtocolError::new(ErrorCode::BadConfig, e.to_string()));
        }
        let session = AnySession::new(r)?;
        let view = session.view()?;
        self.session = Some(session);
        Ok(view)
    }

    /// `cancel`: stops the running search, if any.
    fn cancel(&self) -> Value {
        match &self.running {
            Some(running) => {
                running.stop.stop();
                json!({ "cancelled": true, "search": running.id })
            }
            None => json!({ "cancelled": false }),
        }
    }
}

/// A request's command (its `cmd`, one of [`COMMANDS`]) read from
/// its fields, none unknown to that command.
fn read_command(mut request: Map<String, Value>) -> Result<(&'static str, Command)> {
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
    Ok((cmd, Command::read(cmd, request)?))
}

/// `agent_move`: the search to run, once the checks that need none have passed (so those
/// are answered at once).
fn agent_move_search(
    session: &AnySession,
    r: requests::AgentMove,
    id: &Value,
    no_files: bool,
) -> Result<Box<Search>> {
    let spec = agent_spec(&r.agent.0, r.budget)?;
    if let Some((k, v)) = stickdice_agents::files::file_parameter(&spec).filter(|_| no_files) {
        return Err(ProtocolError::new(
            ErrorCode::BadAgent,
            format!(
                "agent `{spec}`: {k}={v}: this server reads no files named in agent specs (eval takes learned or hand, tablebase off or cache)"
            ),
        ));
    }
    if stickdice_agents::files::builds_tablebase(&spec) {
        return Err(ProtocolError::new(
            ErrorCode::BadAgent,
            format!(
                "agent `{spec}`: tablebase=build builds the tablebase in memory (about 30 s, not stopped by the time limit or cancel): build it once with `stickdice tablebase --build` and use tablebase=cache"
            ),
        ));
    }
    let limit = match r.time_limit_ms.map(|t| t.0) {
        None => DEFAULT_TIME_LIMIT_MS,
        Some(ms @ 1..=MAX_TIME_LIMIT_MS) => ms,
        Some(ms) => {
            return Err(ProtocolError::new(
                ErrorCode::BadValue,
                format!("time_limit_ms {ms} is out of range: 1 to {MAX_TIME_LIMIT_MS}"),
            ))
        }
    };
    session.check_agent_move()?;
    Ok(Box::new(Search {
        id: id.clone(),
        id_text: id.to_string(),
        session: session.clone(),
        spec,
        seed: r.seed.map(|s| s.0),
        analysis: r.analysis.is_some_and(|a| a.0),
        apply: r.apply.is_some_and(|a| a.0),
        limit: Duration::from_millis(limit),
        stop: Stop::new(),
    }))
}

/// A request: its fields, and its `id` exactly as it was written, echoed back as it is
/// (so `18446744073709551617` does not come back as a float).
struct Request {
    fields: Map<String, Value>,
    id_text: String,
    /// The first rule option named twice in an `options` object (which the parsed
    /// `fields` no longer show: a JSON object keeps one value per key).
    repeated_option: Option<String>,
}

/// A JSON object whose keys are all different (a repeated key is refused, not read
/// last-wins), with the first key named twice in its `options` object, if any.
struct UniqueKeys {
    repeated_option: Option<String>,
}

/// The first key named twice in a JSON object (`None` for another value): a repeated rule
/// option of `options`, refused as [`stickdice::ConfigError::Repeated`].
struct RepeatedKey(Option<String>);

impl<'de> serde::Deserialize<'de> for RepeatedKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Any;
        impl<'de> serde::de::Visitor<'de> for Any {
            type Value = RepeatedKey;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<RepeatedKey, A::Error> {
                let mut seen = std::collections::BTreeSet::new();
                let mut repeated = None;
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) && repeated.is_none() {
                        repeated = Some(key);
                    }
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
                Ok(RepeatedKey(repeated))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RepeatedKey, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(RepeatedKey(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<RepeatedKey, E> {
                Ok(RepeatedKey(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<RepeatedKey, E> {
                Ok(RepeatedKey(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<RepeatedKey, E> {
                Ok(RepeatedKey(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<RepeatedKey, E> {
                Ok(RepeatedKey(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<RepeatedKey, E> {
                Ok(RepeatedKey(None))
            }
            fn visit_unit<E>(self) -> Result<RepeatedKey, E> {
                Ok(RepeatedKey(None))
            }
        }
        d.deserialize_any(Any)
    }
}

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = UniqueKeys;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<UniqueKeys, A::Error> {
                let mut seen = std::collections::BTreeSet::new();
                let mut repeated_option = None;
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) {
                        return Err(serde::de::Error::custom(format!(
                            "the key `{key}` appears twice"
                        )));
                    }
                    if key == "options" {
                        repeated_option = map.next_value::<RepeatedKey>()?.0;
                    } else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                    }
                }
                Ok(UniqueKeys { repeated_option })
            }
        }
        d.deserialize_map(Keys)
    }
}

/// The `id` of a request object as written.
#[derive(serde::Deserialize)]
struct RawId<'a> {
    #[serde(borrow)]
    id: Option<&'a serde_json::value::RawValue>,
}

/// The request object of a line; `None` for a blank line.
fn parse_request(line: &[u8]) -> core::result::Result<Option<Request>, ParseError> {
    let text = std::str::from_utf8(line).map_err(|e| {
        ProtocolError::new(
            ErrorCode::MalformedJson,
            format!("the line is not UTF-8 text: {e}"),
        )
    })?;
    // A UTF-8 byte-order mark (which some editors and Windows tools put first) is not part
    // of the request.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\r'));
    if text.is_empty() {
        return Ok(None);
    }
    let parsed = serde_json::from_str::<Value>(text).or_else(|e| {
        // A number beyond a 64-bit float (`1e400`) fails the parse; as the `id` it is only
        // echoed, so such a request is read with its id kept as text.
        fields_beside_a_raw_id(text).map(Value::Object).ok_or(e)
    });
    match parsed {
        Ok(Value::Object(fields)) => {
            let id_text = serde_json::from_str::<RawId<'_>>(text)
                .ok()
                .and_then(|r| r.id.map(|raw| raw.get().to_string()))
                .unwrap_or_else(|| "null".to_string());
            let keys = serde_json::from_str::<UniqueKeys>(text).map_err(|e| ParseError {
                error: ProtocolError::new(
                    ErrorCode::BadRequest,
                    format!("a request names each field once: {e}"),
                ),
                id_text: id_text.clone(),
            })?;
            Ok(Some(Request {
                fields,
                id_text,
                repeated_option: keys.repeated_option,
            }))
        }
        Ok(other) => Err(ProtocolError::new(
            ErrorCode::BadRequest,
            format!(
                "a request is a JSON object such as {{\"id\":1,\"cmd\":\"hello\"}}, not {}",
                json_type(&other)
            ),
        )
        .into()),
        Err(e) => Err(ParseError {
            error: ProtocolError::new(
                ErrorCode::MalformedJson,
                format!("the line is not a JSON object: {e}"),
            ),
            // A line that is JSON but for a number out of range elsewhere (`"seed":1e400`)
            // still names its id.
            id_text: serde_json::from_str::<RawId<'_>>(text)
                .ok()
                .and_then(|r| r.id.map(|raw| raw.get().to_string()))
                .unwrap_or_else(|| "null".to_string()),
        }),
    }
}

/// A line that is not a request, and the id to answer it with (`null` unless the line is a
/// JSON object with an `id`).
struct ParseError {
    error: ProtocolError,
    id_text: String,
}

impl From<ProtocolError> for ParseError {
    fn from(error: ProtocolError) -> Self {
        ParseError {
            error,
            id_text: "null".to_string(),
        }
    }
}

/// The fields of a JSON object whose `id` is a number no 64-bit float holds (`1e400`): the
/// `id` as its text (a string), the other fields parsed. `None` when `text` is not such an
/// object (or another field does not parse either).
fn fields_beside_a_raw_id(text: &str) -> Option<Map<String, Value>> {
    let raw: Vec<(String, &serde_json::value::RawValue)> =
        serde_json::from_str::<RawFields<'_>>(text).ok()?.0;
    let mut fields = Map::new();
    for (key, value) in raw {
        let value = match serde_json::from_str::<Value>(value.get()) {
            Ok(v) => v,
            Err(_)
                if key == "id"
                    && value
                        .get()
                        .starts_with(|c: char| c == '-' || c.is_ascii_digit()) =>
            {
                Value::String(value.get().to_string())
            }
            Err(_) => return None,
        };
        fields.insert(key, value);
    }
    Some(fields)
}

/// A JSON object's fields in order, each as written.
struct RawFields<'a>(Vec<(String, &'a serde_json::value::RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for RawFields<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields<'a>(core::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Fields<'a> {
            type Value = RawFields<'a>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<RawFields<'a>, A::Error> {
                let mut fields = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    fields.push((key, map.next_value::<&'a serde_json::value::RawValue>()?));
                }
                Ok(RawFields(fields))
            }
        }
        d.deserialize_map(Fields(core::marker::PhantomData))
    }
}

/// The `id` of a request line as written (`null` if it has none or is not a request).
fn request_id(line: &[u8]) -> String {
    parse_request(line)
        .ok()
        .flatten()
        .map_or_else(|| "null".to_string(), |r| r.id_text)
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

/// `agent` (a spec string) with the parameters of `budget` added to it or replacing the
/// spec's own.
fn agent_spec(text: &str, budget: Option<requests::Budget>) -> Result<AgentSpec> {
    let bad =
        |e: stickdice_agents::SpecError| ProtocolError::new(ErrorCode::BadAgent, e.to_string());
    let spec: AgentSpec = text.parse().map_err(bad)?;
    let Some(budget) = budget else {
        return Ok(spec);
    };
    let mut params: Vec<(String, String)> = spec.params().to_vec();
    for (k, v) in budget.0 {
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

fn wrong_type(key: &str, expected: &str, got: &Value) -> ProtocolError {
    ProtocolError::new(
        ErrorCode::WrongType,
        format!(
            "`{key}` must be {expected}, not {}",
            match got {
                // Name the number: -1 and 1.5 are numbers, just not whole ones in range.
                Value::Number(n) => n.to_string(),
                other => json_type(other).to_string(),
            }
        ),
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

/// A rule option's entry of its game's table, as `hello` lists it: `name`, `type` (`bool`
/// or `int`), `default` (a boolean or a number), `allowed` (the values in words), `help`,
/// and for an `int` option either `min` and `max` or `values`.
pub fn option_spec_json(spec: &stickdice::options::OptionSpec<'_>) -> Value {
    use stickdice::options::{OptionType, OptionValue};
    let default = match spec.default_value() {
        OptionValue::Flag(b) => json!(b),
        OptionValue::Whole(n) => json!(n),
    };
    let mut o = json!({
        "name": spec.name,
        "type": spec.type_name(),
        "default": default,
        "allowed": spec.allowed(),
        "help": spec.help,
    });
    match spec.kind {
        OptionType::Range { min, max, .. } => {
            o["min"] = json!(min);
            o["max"] = json!(max);
        }
        OptionType::Choice { values, .. } => o["values"] = json!(values),
        _ => {}
    }
    o
}

/// The most different descriptions a server's process keeps (each is kept for the life of
/// the process, [`stickdice::described::file::register`]): a `new_game` with another one
/// beyond them is refused (`bad_description`).
pub const MAX_DESCRIPTIONS: usize = 256;

/// The description of a `new_game`, read from its text.
fn described_base(text: &str) -> Result<std::sync::Arc<stickdice::described::Base>> {
    use stickdice::described::file;
    let bad = |message: String| ProtocolError::new(ErrorCode::BadDescription, message);
    let base = file::parse("", text).map_err(|e| bad(e.to_string()))?;
    if file::registered(&base.digest()).is_none() && file::kept() >= MAX_DESCRIPTIONS {
        return Err(bad(format!(
            "this server has kept {MAX_DESCRIPTIONS} different descriptions, the most it \
             keeps: play one of them again, or start another server"
        )));
    }
    Ok(base)
}

/// The `hello` result: protocol, games and agents.
fn hello() -> Value {
    // The `game-file` slot is no game of its own: `descriptions` says how new_game takes
    // a description in its place.
    let games: Vec<Value> = GameKind::ALL
        .iter()
        .filter(|k| **k != GameKind::GameFile)
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
                "players": { "min": min, "max": max, "default": kind.default_seats() },
                "options": options,
                "rule_options": kind.option_specs().iter().map(option_spec_json).collect::<Vec<_>>(),
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
        "descriptions": {
            "field": "description",
            "format": "toml",
            "help": "new_game plays a game description (docs/described/format.md) given as its \
                     TOML text in `description`, in place of `game`; players, options and seed \
                     as for a game of the list",
            "max_kept": MAX_DESCRIPTIONS,
        },
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

impl AnySession {
    /// The session `new_game` starts: a game of the list by name, or a description's.
    fn new(r: requests::NewGame) -> Result<Self> {
        let players = r
            .players
            .map(|p| usize::try_from(p.0).unwrap_or(usize::MAX));
        let options = r.options.map(|o| o.0).unwrap_or_default();
        let seed = r.seed.map_or(DEFAULT_SEED, |s| s.0);
        let bad =
            |e: stickdice::ConfigError| ProtocolError::new(ErrorCode::BadConfig, e.to_string());
        let any = match (r.game, r.description) {
            (Some(_), Some(_)) => {
                return Err(ProtocolError::new(
                    ErrorCode::BadRequest,
                    "new_game takes `game` (a game's name) or `description` (a game \
                     description's TOML text), not both",
                ))
            }
            (None, None) => {
                return Err(ProtocolError::new(
                    ErrorCode::MissingField,
                    "new_game needs `game` (a game's name, as hello lists them) or \
                     `description` (a game description's TOML text)",
                ))
            }
            (Some(name), None) if name.0 == GameKind::GameFile.name() => {
                // The slot plays the process's selected description, which is no session's
                // own: a description is given as its text.
                return Err(ProtocolError::new(
                    ErrorCode::BadConfig,
                    format!(
                        "`{}` is played by giving the description itself: new_game with \
                         `description` (its TOML text) in place of `game`",
                        name.0
                    ),
                ));
            }
            (Some(name), None) => AnyGame::new(&name.0, players, &options).map_err(bad)?,
            (None, Some(text)) => {
                let base = described_base(&text.0)?;
                stickdice::described::file::game(base, players, &options).map_err(bad)?
            }
        };
        Ok(AnySession::of(any, seed))
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
        stop: &Stop,
    ) -> Result<Value> {
        with_session!(self, |s| s.agent_move(spec, seed, analysis, apply, stop))
    }

    fn check_agent_move(&self) -> Result<()> {
        with_session!(self, |s| s.check_agent_move())
    }
}

impl<G: Present> Session<G> {
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
            "game": g.name(),
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
            .map_err(|e| ProtocolError::new(ErrorCode::InvalidState, e.to_string()))?;
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

impl<G: Evaluate + Present> Session<G> {
    /// `agent_move`: the action an agent chooses here, optionally with its analysis, and
    /// optionally applied.
    /// The check of `agent_move` that needs no search: a decision is due.
    fn check_agent_move(&self) -> Result<()> {
        match self.game.node(&self.now.state) {
            Node::Decide(_) => Ok(()),
            Node::Throw(seat) => Err(IllegalMove::ThrowDue { seat }.into()),
            Node::End => Err(IllegalMove::GameOver.into()),
        }
    }

    fn agent_move(
        &mut self,
        spec: &AgentSpec,
        seed: Option<u64>,
        want_analysis: bool,
        apply: bool,
        stop: &Stop,
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
        agent.set_stop(stop.clone());
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
                AgentError::Stopped => ProtocolError::new(
                    ErrorCode::Cancelled,
                    format!("agent `{spec}` was stopped before it chose"),
                ),
                // A kind of agent failure added later.
                other => ProtocolError::new(
                    ErrorCode::AgentFailed,
                    format!("agent `{spec}` gave no action: {other}"),
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

/// What the server's loop waits for.
enum Event {
    /// A line read (or the end of the input, or a read error).
    Input(io::Result<LineRead>, Vec<u8>),
    /// A search's result.
    /// (Boxed: a search's result is much larger than a line.)
    Done(Box<Searched>),
}

/// Serves requests from `input` until it ends (and every request read is answered as sent,
/// a running search's included) or a `quit`, writing one response line per request to
/// `output` and flushing after each.
///
/// Input is read on a thread of its own and each `agent_move` searches on a worker
/// thread, so while a search runs the server answers `state`, `hello` and `cancel` at once;
/// the other requests wait (up to 1024, then reading pauses) and are answered in order
/// after the search's own response. `quit` during a search cancels it.
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
pub fn serve<R: BufRead + Send + 'static, W: Write>(input: R, mut output: W) -> io::Result<()> {
    let (events, next) = mpsc::channel::<Event>();
    // The reader asks for permission before each further line, so that lines waiting for
    // a search stay bounded.
    let (permit, permits) = mpsc::channel::<()>();
    let reader_events = events.clone();
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let mut line = Vec::new();
            let read = read_line_limited(&mut input, &mut line, MAX_LINE_BYTES);
            let last = !matches!(read, Ok(LineRead::Line | LineRead::TooLong));
            if reader_events.send(Event::Input(read, line)).is_err()
                || last
                || permits.recv().is_err()
            {
                return;
            }
        }
    });
    let mut server = Server::new();
    let mut waiting: VecDeque<Vec<u8>> = VecDeque::new();
    let mut input_open = true;
    let mut permit_owed = false;
    let write = |output: &mut W, reply: &Reply| -> io::Result<()> {
        output.write_all(reply.line.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()
    };
    loop {
        // Answer the waiting requests while no search runs.
        while !server.is_searching() {
            let Some(line) = waiting.pop_front() else {
                break;
            };
            match server.begin(&line) {
                Begin::Reply(Some(reply)) => {
                    write(&mut output, &reply)?;
                    if reply.quit {
                        return Ok(());
                    }
                }
                Begin::Reply(None) | Begin::Wait => {}
                Begin::Search(search) => start_search(search, &events),
            }
        }
        if permit_owed && waiting.len() < MAX_WAITING {
            permit_owed = false;
            let _ = permit.send(());
        }
        if !input_open && waiting.is_empty() && !server.is_searching() {
            return Ok(());
        }
        let event = next
            .recv()
            .expect("the loop holds a sender, so the channel stays open");
        match event {
            Event::Done(done) => write(&mut output, &server.finish(*done))?,
            Event::Input(read, line) => {
                match read? {
                    LineRead::End => {
                        // The end of the input means "finish what was asked, then exit":
                        // a running search goes on to its result (or its time limit), then
                        // the waiting lines are answered as sent.
                        input_open = false;
                    }
                    LineRead::TooLong => write(
                        &mut output,
                        &Reply {
                            line: error_line(
                                "null",
                                &ProtocolError::new(
                                    ErrorCode::LineTooLong,
                                    format!("the line is longer than {MAX_LINE_BYTES} bytes"),
                                ),
                            ),
                            quit: false,
                        },
                    )?,
                    LineRead::Line => match server.begin(&line) {
                        Begin::Reply(Some(reply)) => {
                            write(&mut output, &reply)?;
                            if reply.quit {
                                return Ok(());
                            }
                        }
                        Begin::Reply(None) => {}
                        Begin::Wait => waiting.push_back(line),
                        Begin::Search(search) => start_search(search, &events),
                    },
                }
                if input_open {
                    permit_owed = true;
                }
            }
        }
    }
}

/// Runs a search on a worker thread that sends its result to `events`.
fn start_search(search: Box<Search>, events: &mpsc::Sender<Event>) {
    let events = events.clone();
    std::thread::spawn(move || {
        let _ = events.send(Event::Done(Box::new(search.run())));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec of an `agent_move` request's fields, as the server reads them.
    fn spec_of(request: Value) -> Result<AgentSpec> {
        let Value::Object(map) = request else {
            unreachable!()
        };
        match Command::read("agent_move", map)? {
            Command::AgentMove(r) => agent_spec(&r.agent.0, r.budget),
            other => unreachable!("{other:?}"),
        }
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

    fn reply(b: Begin) -> Value {
        match b {
            Begin::Reply(Some(r)) => serde_json::from_str(&r.line).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_search_handed_out_leaves_the_server_answering_and_is_applied_when_taken_back() {
        let mut server = Server::new();
        for line in [
            r#"{"cmd":"new_game","game":"issiren","seed":3}"#,
            r#"{"cmd":"throw","marked":4}"#,
            r#"{"cmd":"act","action":"a1"}"#,
            r#"{"cmd":"throw"}"#,
        ] {
            assert_eq!(reply(server.begin(line.as_bytes()))["ok"], true, "{line}");
        }
        let before = server.clone();
        let Begin::Search(search) = server
            .begin(br#"{"id":"m","cmd":"agent_move","agent":"mcts:iterations=200","apply":true}"#)
        else {
            panic!("agent_move is handed out")
        };
        assert!(server.is_searching());
        assert_eq!(search.id(), &json!("m"));
        let state = reply(server.begin(br#"{"id":1,"cmd":"state"}"#));
        assert_eq!(state["result"]["searching"], "m");
        assert!(matches!(
            server.begin(br#"{"id":2,"cmd":"throw"}"#),
            Begin::Wait
        ));
        let busy: Value =
            serde_json::from_str(&server.handle_line(r#"{"id":3,"cmd":"undo"}"#).unwrap().line)
                .unwrap();
        assert_eq!(busy["error"]["code"], "busy");
        let done = server.finish(search.run());
        let done: Value = serde_json::from_str(&done.line).unwrap();
        assert_eq!(done["id"], "m");
        assert_eq!(done["result"]["undo_steps"], 4, "{done}");
        assert!(!server.is_searching());
        // The same move through handle_line gives the same server.
        let mut direct = before;
        direct
            .handle_line(
                r#"{"id":"m","cmd":"agent_move","agent":"mcts:iterations=200","apply":true}"#,
            )
            .unwrap();
        assert_eq!(direct, server);
        // A stopped search leaves the session as it was.
        let before = server.clone();
        server.handle_line(r#"{"cmd":"undo"}"#).unwrap();
        let at_decision = server.clone();
        let Begin::Search(search) =
            server.begin(br#"{"id":"c","cmd":"agent_move","agent":"mcts","apply":true}"#)
        else {
            panic!("handed out")
        };
        search.stopper().stop();
        let done: Value = serde_json::from_str(&server.finish(search.run()).line).unwrap();
        assert_eq!(done["error"]["code"], "cancelled", "{done}");
        assert_eq!(server, at_decision);
        assert_ne!(server, before);
    }

    #[test]
    fn a_stop_does_not_hide_the_error_of_an_agent_that_could_not_be_built() {
        // A `cancel` or `quit` stops a running search; a bad weights file was answered
        // `cancelled` before, as if the agent had been searching.
        let mut server = Server::new();
        server.handle_line(r#"{"cmd":"new_game","game":"issiren","seed":7}"#);
        server.handle_line(r#"{"cmd":"throw","marked":4}"#);
        let Begin::Search(search) = server
            .begin(br#"{"id":"b","cmd":"agent_move","agent":"greedy:eval=/no/such/weights.sdw"}"#)
        else {
            panic!("handed out")
        };
        search.stopper().stop();
        let done: Value = serde_json::from_str(&server.finish(search.run()).line).unwrap();
        assert_eq!(done["error"]["code"], "bad_agent", "{done}");
    }

    #[test]
    fn ids_echo_exactly_keys_are_unique_and_a_byte_order_mark_is_skipped() {
        let mut server = Server::new();
        let mut ask = |line: &str| server.handle_line(line).unwrap().line;
        let r = ask(r#"{"id":18446744073709551617,"cmd":"hello"}"#);
        assert!(
            r.starts_with(r#"{"id":18446744073709551617,"ok":true"#),
            "{r}"
        );
        let r = ask(r#"{"id": 1.50e3 ,"cmd":"quit"}"#);
        assert!(r.starts_with(r#"{"id":1.50e3,"ok":true"#), "{r}");
        let r = ask(r#"{"id":"x","cmd":"state","cmd":"hello"}"#);
        assert!(
            r.contains("bad_request") && r.contains("the key `cmd` appears twice"),
            "{r}"
        );
        let r = ask("\u{feff}{\"id\":2,\"cmd\":\"hello\"}");
        assert!(r.starts_with(r#"{"id":2,"ok":true"#), "{r}");
        for (seed, shown) in [
            ("-1", "not -1"),
            ("1.5", "not 1.5"),
            ("\"7\"", "not a string"),
        ] {
            let r = ask(&format!(
                r#"{{"id":3,"cmd":"new_game","game":"issiren","seed":{seed}}}"#
            ));
            assert!(r.contains("wrong_type") && r.contains(shown), "{r}");
        }
    }

    /// A rule option given twice, in the object form or the list form of `options`, is
    /// refused (`bad_config`), not read last-wins; the game in progress stays. `hello`
    /// lists each game's table of options.
    #[test]
    fn a_repeated_rule_option_is_refused_and_hello_lists_the_tables() {
        let mut server = Server::new();
        let mut ask = |line: &str| -> Value {
            serde_json::from_str(&server.handle_line(line).unwrap().line).unwrap()
        };
        let before = ask(r#"{"id":1,"cmd":"new_game","game":"sig-el-oued","seed":4}"#);
        for options in [
            r#"{"max_throws":5,"max_throws":6}"#,
            r#"{"max_throws":5,"cairo_always_three":true,"max_throws":5}"#,
            r#"["max_throws=5","max_throws=6"]"#,
        ] {
            let r = ask(&format!(
                r#"{{"id":2,"cmd":"new_game","game":"issiren","options":{options}}}"#
            ));
            assert_eq!(r["error"]["code"], "bad_config", "{options}: {r}");
            assert_eq!(
                r["error"]["message"],
                "rule option `max_throws` is given twice: give each option once",
                "{options}: {r}"
            );
        }
        assert_eq!(ask(r#"{"id":1,"cmd":"state"}"#)["result"], before["result"]);
        // Each name once, in either form, is read.
        let r = ask(r#"{"id":3,"cmd":"new_game","game":"issiren","options":{"max_throws":5}}"#);
        assert_eq!(r["result"]["options"]["max_throws"], "5", "{r}");
        let hello = ask(r#"{"id":4,"cmd":"hello"}"#);
        let oued = hello["result"]["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == "sig-el-oued")
            .unwrap();
        assert_eq!(
            oued["rule_options"][0],
            json!({"name": "max_throws", "type": "int", "default": 10000, "min": 1,
                   "max": 4294967295u64, "allowed": "a whole number from 1 to 4294967295",
                   "help": stickdice::config::MAX_THROWS_HELP})
        );
        assert_eq!(oued["rule_options"][1]["type"], "bool");
        assert_eq!(oued["rule_options"][1]["default"], false);
        let tab = hello["result"]["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == "tab")
            .unwrap();
        assert_eq!(tab["rule_options"][0]["values"], json!([7, 9, 11, 13, 15]));
    }

    /// Issue 39: the end of piped input cancelled the running search (answered
    /// `cancelled` though no `cancel` was sent), and the requests after it then applied
    /// to another position. Every request read is answered as sent.
    #[test]
    fn the_end_of_the_input_lets_a_running_search_finish() {
        let input = [
            r#"{"id":1,"cmd":"new_game","game":"issiren","seed":3}"#,
            r#"{"id":2,"cmd":"throw","marked":4}"#,
            r#"{"id":3,"cmd":"act","action":"a1"}"#,
            r#"{"id":4,"cmd":"throw"}"#,
            r#"{"id":5,"cmd":"agent_move","agent":"mcts:iterations=3000","apply":true}"#,
            r#"{"id":6,"cmd":"throw","marked":2}"#,
        ]
        .join("\n");
        let mut output = Vec::new();
        serve(io::Cursor::new(input.into_bytes()), &mut output).unwrap();
        let answers: Vec<Value> = String::from_utf8(output)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 6, "{answers:?}");
        let moved = answers.iter().find(|a| a["id"] == 5).unwrap();
        assert_eq!(moved["ok"], true, "{moved}");
        // The throw sent after the move waited for it, and applies after it.
        let thrown = answers.iter().find(|a| a["id"] == 6).unwrap();
        assert_eq!(thrown["result"]["undo_steps"], 5, "{thrown}");
    }

    /// Issue 39: an id beyond a 64-bit float (`1e400`) made the whole line
    /// `malformed_json` with the id `null`; ids come back digit for digit.
    #[test]
    fn ids_beyond_a_float_come_back_as_written() {
        let mut server = Server::new();
        for id in ["1e400", "-1e400", "1E+400", "123456789e99999"] {
            let r = server
                .handle_line(&format!(r#"{{"id":{id},"cmd":"hello"}}"#))
                .unwrap()
                .line;
            assert!(r.starts_with(&format!(r#"{{"id":{id},"ok":true"#)), "{r}");
        }
        // An error keeps it too, and so does a request the server must refuse.
        let r = server
            .handle_line(r#"{"id":1e400,"cmd":"throw"}"#)
            .unwrap()
            .line;
        assert!(r.starts_with(r#"{"id":1e400,"ok":false"#), "{r}");
        let r = server
            .handle_line(r#"{"id":1e400,"cmd":"hello","cmd":"state"}"#)
            .unwrap()
            .line;
        assert!(
            r.starts_with(r#"{"id":1e400,"ok":false"#) && r.contains("twice"),
            "{r}"
        );
        // A number out of range elsewhere is still the request's error, with its id.
        let r = server
            .handle_line(r#"{"id":7,"cmd":"new_game","game":"issiren","seed":1e400}"#)
            .unwrap()
            .line;
        assert!(r.starts_with(r#"{"id":7,"ok":false"#), "{r}");
        // A search's id shows in `state` while it runs.
        server.handle_line(r#"{"cmd":"new_game","game":"issiren","seed":3}"#);
        server.handle_line(r#"{"cmd":"throw","marked":4}"#);
        let Begin::Search(search) =
            server.begin(br#"{"id":1e400,"cmd":"agent_move","agent":"random"}"#)
        else {
            panic!("handed out")
        };
        let state = reply(server.begin(br#"{"id":1,"cmd":"state"}"#));
        assert_eq!(state["result"]["searching"], "1e400", "{state}");
        let done = server.finish(search.run());
        assert!(
            done.line.starts_with(r#"{"id":1e400,"ok":true"#),
            "{}",
            done.line
        );
    }

    /// A request line with a description's text in it.
    fn with_description(id: u32, text: &str, rest: &str) -> String {
        format!(
            r#"{{"id":{id},"cmd":"new_game","description":{}{rest}}}"#,
            Value::String(text.to_string())
        )
    }

    /// Plays a game to its end, the engine throwing and the first legal action taken, and
    /// gives every result.
    fn play_out(server: &mut Server) -> Vec<Value> {
        let mut results = Vec::new();
        for _ in 0..2000 {
            let view: Value =
                serde_json::from_str(&server.handle_line(r#"{"cmd":"state"}"#).unwrap().line)
                    .unwrap();
            let line = match view["result"]["node"]["kind"].as_str() {
                Some("throw") => r#"{"cmd":"throw"}"#.to_string(),
                Some("decide") => format!(
                    r#"{{"cmd":"act","action":{}}}"#,
                    view["result"]["legal_actions"][0]
                ),
                _ => return results,
            };
            let r: Value = serde_json::from_str(&server.handle_line(&line).unwrap().line).unwrap();
            assert_eq!(r["ok"], true, "{line}: {r}");
            results.push(r["result"].clone());
        }
        panic!("the game did not end")
    }

    /// `new_game` with a description plays it as the same game by name is played: the same
    /// views, throw for throw, with players, options and seed.
    #[test]
    fn a_description_is_played_as_the_game_it_describes() {
        use stickdice::described::games::SigTozeur;
        let rest = r#","players":2,"seed":9,"options":{"max_throws":60}"#;
        let mut named = Server::new();
        let a = named
            .handle_line(&format!(
                r#"{{"cmd":"new_game","game":"sig-tozeur"{rest}}}"#
            ))
            .unwrap();
        let mut described = Server::new();
        let b = described
            .handle_line(&with_description(1, SigTozeur::TEXT, rest))
            .unwrap();
        let (a, b): (Value, Value) = (
            serde_json::from_str(&a.line).unwrap(),
            serde_json::from_str(&b.line).unwrap(),
        );
        assert_eq!(b["ok"], true, "{b}");
        assert_eq!(a["result"], b["result"]);
        assert_eq!(b["result"]["game"], "sig-tozeur");
        assert_eq!(b["result"]["players"], 2);
        let played = play_out(&mut described);
        assert!(played.len() > 10);
        assert_eq!(play_out(&mut named), played);
        // An agent moves in it, and undo takes steps back.
        described
            .handle_line(&with_description(2, SigTozeur::TEXT, ""))
            .unwrap();
        described.handle_line(r#"{"cmd":"throw","marked":1}"#);
        let r = described
            .handle_line(r#"{"cmd":"agent_move","agent":"greedy","apply":true}"#)
            .unwrap();
        assert!(r.line.contains(r#""ok":true"#), "{}", r.line);
        let r = described
            .handle_line(r#"{"cmd":"undo","steps":2}"#)
            .unwrap();
        assert!(r.line.contains(r#""undo_steps":0"#), "{}", r.line);
    }

    /// A description that cannot be read is refused with `bad_description`, naming the
    /// line and field, and the game in progress stays; `game` and `description` together,
    /// neither, or the `game-file` slot by name are refused too.
    #[test]
    fn a_bad_description_is_refused_and_the_session_stays() {
        use stickdice::described::games::SigTozeur;
        let mut server = Server::new();
        let mut ask = |line: &str| -> Value {
            serde_json::from_str(&server.handle_line(line).unwrap().line).unwrap()
        };
        ask(r#"{"cmd":"new_game","game":"issiren","seed":4}"#);
        ask(r#"{"cmd":"throw","marked":4}"#);
        let before = ask(r#"{"cmd":"state"}"#);
        let broken = SigTozeur::TEXT.replace("columns = 13", "columns = \"13\"");
        let line = SigTozeur::TEXT
            .lines()
            .position(|l| l.starts_with("columns"))
            .unwrap()
            + 1;
        let r = ask(&with_description(1, &broken, ""));
        assert_eq!(r["error"]["code"], "bad_description", "{r}");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!(":{line}:")) && message.contains("field `board.columns`"),
            "{message}"
        );
        let unknown = SigTozeur::TEXT.replace("rows = 4", "rows = 4\ncolums = 2");
        let r = ask(&with_description(2, &unknown, ""));
        let message = r["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!(":{line}:")) && message.contains("did you mean `columns`"),
            "{message}"
        );
        let r = ask(&with_description(3, SigTozeur::TEXT, r#","players":7"#));
        assert_eq!(r["error"]["code"], "bad_config", "{r}");
        let r = ask(&with_description(4, SigTozeur::TEXT, r#","game":"tab""#));
        assert_eq!(r["error"]["code"], "bad_request", "{r}");
        assert!(r["error"]["message"].as_str().unwrap().contains("not both"));
        let r = ask(r#"{"cmd":"new_game","seed":3}"#);
        assert_eq!(r["error"]["code"], "missing_field", "{r}");
        assert!(r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("description"));
        let r = ask(r#"{"cmd":"new_game","game":"game-file"}"#);
        assert_eq!(r["error"]["code"], "bad_config", "{r}");
        assert!(r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("description"));
        assert_eq!(ask(r#"{"cmd":"state"}"#)["result"], before["result"]);
        // hello says how a description is given.
        let hello = ask(r#"{"cmd":"hello"}"#);
        assert_eq!(hello["result"]["descriptions"]["field"], "description");
    }

    /// Each session plays its own description: a second one replaces the first as any
    /// new_game does, another server's description changes nothing in this one, and the
    /// process's selection (`--game-file`'s) is left alone.
    #[test]
    fn each_session_plays_its_own_description() {
        use stickdice::described::file;
        use stickdice::described::games::{SigTozeur, Tab};
        let selected = file::selected().map(|l| l.digest().to_string());
        let mine = Tab::TEXT.replace("name = \"tab\"", "name = \"my-tab\"");
        let mut first = Server::new();
        let mut second = Server::new();
        let game = |server: &mut Server, line: &str| -> Value {
            let r: Value = serde_json::from_str(&server.handle_line(line).unwrap().line).unwrap();
            r["result"]["game"].clone()
        };
        assert_eq!(game(&mut first, &with_description(1, &mine, "")), "my-tab");
        assert_eq!(
            game(&mut second, &with_description(1, SigTozeur::TEXT, "")),
            "sig-tozeur"
        );
        assert_eq!(game(&mut first, r#"{"cmd":"throw"}"#), "my-tab");
        assert_eq!(game(&mut first, &with_description(2, Tab::TEXT, "")), "tab");
        assert_eq!(game(&mut second, r#"{"cmd":"throw"}"#), "sig-tozeur");
        assert_eq!(file::selected().map(|l| l.digest().to_string()), selected);
    }

    #[test]
    fn every_code_has_its_own_name() {
        let mut names: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::ALL.len());
    }
}
