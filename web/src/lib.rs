//! `stickdice web`: watch, replay and play the stick-dice games on drawn boards in a
//! browser. The book's chapter *The web page* (`docs/web.md` in the repository; `mdbook
//! build docs`) shows it to a user.
//!
//! An HTTP server ([axum] on tokio) that serves one page and its assets, embedded in the
//! binary (it works offline), and a JSON API:
//!
//! * **play**: the command set of `stickdice serve` over HTTP — `POST /api/session` opens
//!   a session, `POST /api/session/{id}` takes one protocol request (docs/protocol.md) and
//!   answers with the protocol's response, each session its own game. The requests are
//!   answered by [`stickdice_evaluation::protocol::Server`], so the rules, errors and
//!   reproducibility are exactly those of `stickdice serve`. The server adds `picture` to
//!   every result that carries a view: where the pieces stand and which squares each legal
//!   action moves from and to ([`stickdice::board`]), and `words`, the last step in words.
//!   An agent's search runs on a blocking thread (the protocol's `begin`/`run`/`finish`),
//!   so it never holds up other sessions; `POST /api/session/{id}/cancel` and the
//!   request's time limit stop the search itself, and the session keeps its game.
//! * **replay**: the games of the tournament folders named on the command line, each
//!   replayed through the rules in Rust, step by step.
//! * **analysis**: self-play figures of `stickdice-evaluation`'s analysis module and the
//!   game-length histogram; a tournament's own ratings chart; `POST /api/compare`, the
//!   comparison of chosen configurations (`stickdice compare`) with its charts.
//!
//! The page knows no rule: it draws what the server sends. Routes are listed in
//! [`router`]; docs/protocol.md documents them.
#![deny(missing_docs)]

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path as FsPath, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use stickdice::{with_game, AnyGame, Node, Stop};
use stickdice_evaluation::log::{self, GameRecord, LogLine, LoggedEvent, TournamentConfig};
use stickdice_evaluation::protocol::{Begin, Search, Server, MAX_LINE_BYTES};
use tokio::sync::watch;

use drawing::Drawing;

mod analysis;
mod compare;
mod drawing;
pub use analysis::running as analyses_running;
pub use compare::running as comparisons_running;
mod replay;
mod review;

/// The most sessions kept at once; opening one more closes the oldest.
pub const MAX_SESSIONS: usize = 256;

/// The page and its assets, embedded in the binary.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/board.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../assets/favicon.svg"),
    ),
];

/// How `stickdice web` runs.
#[derive(Clone, Debug)]
pub struct WebOptions {
    /// Tournament folders (or their `games.jsonl`) to replay.
    pub dirs: Vec<PathBuf>,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// The address to bind; `None` is 127.0.0.1 (loopback only).
    pub bind: Option<IpAddr>,
    /// Where saved games go, one folder each.
    pub save_dir: PathBuf,
}

/// The server's shared state: sessions, tournament folders, the save folder.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    sessions: Mutex<Sessions>,
    dirs: Mutex<Vec<PathBuf>>,
    save_dir: PathBuf,
    /// Reviews made, by folder number and game index (folders are only ever appended).
    reviews: Mutex<HashMap<(String, String), Value>>,
    /// The address given with `--bind` (`None`: loopback), whose name the `Host` header
    /// may also carry.
    bind: Option<IpAddr>,
}

#[derive(Debug, Default)]
struct Sessions {
    next: u64,
    map: HashMap<u64, Arc<Mutex<Slot>>>,
    order: VecDeque<u64>,
}

/// One browser session: a protocol server and what the web layer adds.
#[derive(Debug, Default)]
struct Slot {
    server: Server,
    /// Every step since `new_game`, for saving: a throw or action, or `None` for a
    /// loaded state (a game with one cannot be saved).
    events: Vec<Option<LoggedEvent>>,
    /// The agent search running; `None` when idle.
    busy: Option<Busy>,
    /// Numbers the searches.
    searches: u64,
}

/// An agent search running in a session.
#[derive(Debug)]
struct Busy {
    /// Its number in the session.
    search: u64,
    /// Stops it (`cancel`).
    stop: Stop,
    /// Turns `true` once its result is back in the session.
    done: watch::Receiver<bool>,
}

/// Locks a mutex, recovering it if a thread panicked while holding it (every change
/// under these locks is a single assignment, so the data is whole).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl AppState {
    /// A server state replaying `dirs` and saving into `save_dir`.
    pub fn new(dirs: Vec<PathBuf>, save_dir: PathBuf) -> Self {
        AppState::bound(dirs, save_dir, None)
    }

    /// [`AppState::new`] for a server bound to `bind` (`None`: loopback): requests may
    /// also name that address in their `Host` header (any IP address when it is
    /// unspecified, `0.0.0.0` or `::`).
    pub fn bound(dirs: Vec<PathBuf>, save_dir: PathBuf, bind: Option<IpAddr>) -> Self {
        AppState(Arc::new(Inner {
            sessions: Mutex::new(Sessions::default()),
            dirs: Mutex::new(dirs),
            save_dir,
            reviews: Mutex::new(HashMap::new()),
            bind,
        }))
    }

    fn open_session(&self) -> u64 {
        let mut s = lock(&self.0.sessions);
        s.next += 1;
        let id = s.next;
        let slot = Slot {
            server: Server::without_files(),
            ..Slot::default()
        };
        s.map.insert(id, Arc::new(Mutex::new(slot)));
        s.order.push_back(id);
        while s.order.len() > MAX_SESSIONS {
            if let Some(old) = s.order.pop_front() {
                s.map.remove(&old);
            }
        }
        id
    }

    fn session(&self, id: &str) -> Result<Arc<Mutex<Slot>>, WebError> {
        let found = id
            .parse::<u64>()
            .ok()
            .and_then(|n| lock(&self.0.sessions).map.get(&n).cloned());
        found.ok_or_else(|| {
            WebError::new(
                StatusCode::NOT_FOUND,
                "unknown_session",
                format!(
                    "no session `{id}` (sessions end when the server restarts, and the \
                     oldest close beyond {MAX_SESSIONS}): open one with POST /api/session"
                ),
            )
        })
    }

    fn dirs(&self) -> Vec<PathBuf> {
        lock(&self.0.dirs).clone()
    }
}

/// An error answer: an HTTP status and `{"ok": false, "error": {"code", "message"}}`,
/// the protocol's shape.
#[derive(Clone, Debug, PartialEq)]
pub struct WebError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl WebError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        WebError {
            status,
            code,
            message: message.into(),
        }
    }

    fn bad(code: &'static str, message: impl Into<String>) -> Self {
        WebError::new(StatusCode::BAD_REQUEST, code, message)
    }

    fn not_found(message: impl Into<String>) -> Self {
        WebError::new(StatusCode::NOT_FOUND, "not_found", message)
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let body = json!({
            "ok": false,
            "error": { "code": self.code, "message": self.message },
        });
        json_response(self.status, &body)
    }
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn ok(body: Value) -> Response {
    json_response(StatusCode::OK, &body)
}

/// The routes. Every path is tested in this crate's tests.
///
/// | route | what |
/// |---|---|
/// | `GET /` and `GET /assets/{file}` | the page |
/// | `GET /favicon.ico` | the icon (`/assets/favicon.svg`, for browsers that ask here) |
/// | `GET /api/hello` | the protocol's `hello` result |
/// | `GET /api/geometry/{game}?players=N` | the board's geometry (`drawn: false` and a `note` for a game without the `board` capability: the page shows its text board) |
/// | `POST /api/session` | opens a session: `{"session": id}` |
/// | `POST /api/session/{id}` | one protocol request (the body), its response |
/// | `POST /api/session/{id}/cancel` | stops the session's running agent search |
/// | `POST /api/session/{id}/save` | saves the finished game as a tournament log |
/// | `GET /api/tournaments` | the tournament folders and their games |
/// | `GET /api/tournaments/{t}/games/{k}` | game `k` of folder `t`, replayed step by step |
/// | `GET /api/tournaments/{t}/games/{k}/review` | its per-move analysis (`stickdice review`) |
/// | `GET /api/tournaments/{t}/files/{name}` | a report file of folder `t` (`ratings.svg`) |
/// | `GET /api/analysis?game=…&players=…&games=…&seed=…&option=…` | self-play figures |
/// | `POST /api/compare` | the comparison of chosen configurations (`stickdice compare`): figures, significant differences, charts, family tree |
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(|| async { asset("index.html") }))
        .route("/favicon.ico", get(|| async { asset("favicon.svg") }))
        .route(
            "/assets/{file}",
            get(|Path(file): Path<String>| async move { asset(&file) }),
        )
        .route("/api/hello", get(hello))
        .route("/api/geometry/{game}", get(geometry))
        .route("/api/session", post(open_session))
        .route("/api/session/{id}", post(session_request))
        .route("/api/session/{id}/cancel", post(cancel))
        .route("/api/session/{id}/save", post(save))
        .route("/api/tournaments", get(tournaments))
        .route("/api/tournaments/{t}/games/{k}", get(replay_game))
        .route("/api/tournaments/{t}/games/{k}/review", get(review_game))
        .route("/api/tournaments/{t}/files/{name}", get(tournament_file))
        .route("/api/analysis", get(analysis::analysis))
        .route("/api/compare", post(compare::compare))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_LINE_BYTES))
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// Refuses, before any route runs, what a web page of another site could send: a `Host`
/// that is not this server's (DNS rebinding), a cross-origin request (`Origin` not this
/// server's, or `Sec-Fetch-Site` other than `same-origin` or `none`), and on the routes
/// that change state (every method but GET and HEAD) a body that is not
/// `application/json` (which a page could post without the browser asking first). Every
/// response carries [`SECURITY_HEADERS`] and a Content-Security-Policy (the page's, or a
/// sandbox for report files).
async fn guard(
    State(state): State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let path = req.uri().path();
    let file = path.starts_with("/api/tournaments/") && path.contains("/files/");
    let api = path.starts_with("/api/");
    let mut res = match check_request(state.0.bind, &req) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    };
    if api && res.status().is_client_error() && !is_json(&res) {
        // An extractor's own refusal (a path parameter that is not UTF-8, a query that
        // does not parse, a body over the limit) comes as text: as JSON, like every API
        // error, with its text as the message.
        let status = res.status();
        let body = axum::body::to_bytes(std::mem::take(res.body_mut()), 64 * 1024)
            .await
            .unwrap_or_default();
        let message = String::from_utf8_lossy(&body).trim().to_string();
        let code = match status {
            StatusCode::PAYLOAD_TOO_LARGE => "too_large",
            StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
            StatusCode::UNSUPPORTED_MEDIA_TYPE => "bad_content_type",
            _ => "bad_request",
        };
        let message = if message.is_empty() {
            status.canonical_reason().unwrap_or("refused").to_string()
        } else {
            message
        };
        res = WebError::new(status, code, message).into_response();
    }
    let headers = res.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(name.clone(), header::HeaderValue::from_static(value));
    }
    // A report file is data from a folder on disk: opened in the browser at this origin
    // (an SVG can hold scripts) it runs nothing and loads nothing.
    let policy = if file { FILE_POLICY } else { PAGE_POLICY };
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        header::HeaderValue::from_static(policy),
    );
    res
}

fn is_json(res: &Response) -> bool {
    res.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"))
}

/// Headers on every response: no MIME sniffing (a file is what its Content-Type says), no
/// framing by other pages (clickjacking), no Referer to other sites.
const SECURITY_HEADERS: &[(header::HeaderName, &str)] = &[
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::REFERRER_POLICY, "no-referrer"),
];

/// The page's Content-Security-Policy: its own scripts, styles, images and API only.
const PAGE_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// A report file's Content-Security-Policy: a sandbox that runs and loads nothing.
const FILE_POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";

fn check_request(bind: Option<IpAddr>, req: &axum::extract::Request) -> Result<(), WebError> {
    use axum::body::HttpBody as _;
    let forbidden = |code, message: String| WebError::new(StatusCode::FORBIDDEN, code, message);
    let headers = req.headers();
    let text = |name: header::HeaderName| {
        headers
            .get(&name)
            .map(|v| {
                v.to_str()
                    .map_err(|_| forbidden("bad_header", format!("the {name} header is not text")))
            })
            .transpose()
    };
    let host = text(header::HOST)?;
    if let Some(host) = host {
        if !allowed_host(host, bind) {
            return Err(forbidden(
                "bad_host",
                format!(
                    "Host `{host}` is not this server's: it answers to localhost, 127.0.0.1 and [::1]{}",
                    match bind {
                        Some(ip) if !ip.is_loopback() => format!(" and the address it is bound to ({ip})"),
                        _ => String::new(),
                    }
                ),
            ));
        }
    }
    if let Some(origin) = text(header::ORIGIN)? {
        if host.is_none_or(|h| !origin.eq_ignore_ascii_case(&format!("http://{h}"))) {
            return Err(forbidden(
                "cross_origin",
                format!("a request from another site's page (Origin `{origin}`) is refused"),
            ));
        }
    }
    if let Some(site) = text(header::HeaderName::from_static("sec-fetch-site"))? {
        if site != "same-origin" && site != "none" {
            return Err(forbidden(
                "cross_origin",
                format!("a request from another site's page (Sec-Fetch-Site `{site}`) is refused"),
            ));
        }
    }
    if req.method() != axum::http::Method::GET && req.method() != axum::http::Method::HEAD {
        let json = text(header::CONTENT_TYPE)?.map(|t| {
            t.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .eq_ignore_ascii_case("application/json")
        });
        let empty = req.body().size_hint().exact() == Some(0);
        if json == Some(false) || (json.is_none() && !empty) {
            return Err(WebError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "bad_content_type",
                "a request with a body must send it as Content-Type: application/json",
            ));
        }
    }
    Ok(())
}

/// Whether `host` (a `Host` header: a name or address and maybe a port) names this
/// server: `localhost`, a loopback address, the address it is bound to, or, bound to an
/// unspecified address (all of the machine's), any IP address (an address, unlike a
/// name, cannot be pointed elsewhere by DNS).
fn allowed_host(host: &str, bind: Option<IpAddr>) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((ip, port)) if port.is_empty() || port.starts_with(':') => ip,
            _ => return false,
        }
    } else {
        match host.split_once(':') {
            Some((name, _port)) => name,
            None => host,
        }
    };
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback() || bind.is_some_and(|b| b == ip || b.is_unspecified()),
        Err(_) => false,
    }
}

fn asset(name: &str) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, mime, body)) => ([(header::CONTENT_TYPE, *mime)], *body).into_response(),
        None => WebError::not_found(format!("no asset `{name}`")).into_response(),
    }
}

/// A known route with another method: a JSON error, as every API error is (axum's own
/// answer has no body).
async fn method_not_allowed(method: axum::http::Method, uri: Uri) -> Response {
    WebError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{method} is not allowed on {}", uri.path()),
    )
    .into_response()
}

/// Unknown URLs: a JSON error under `/api/`, a page saying so elsewhere.
async fn not_found(uri: Uri) -> Response {
    let path = uri.path().to_string();
    if path.starts_with("/api/") || path == "/api" {
        return WebError::not_found(format!(
            "no API route {path}; the routes are listed in docs/protocol.md"
        ))
        .into_response();
    }
    let page = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found — \
         stickdice</title><link rel=\"icon\" href=\"/assets/favicon.svg\" \
         type=\"image/svg+xml\"><link rel=\"stylesheet\" href=\"/assets/style.css\"></head><body>\
         <main><h1>Not found</h1><p id=\"error\" class=\"error\">There is no page at \
         <code>{}</code>.</p><p><a href=\"/\">Go to the stickdice page</a>.</p></main>\
         </body></html>",
        html_escape(&path)
    );
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page,
    )
        .into_response()
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

async fn hello() -> Response {
    let reply = Server::new()
        .handle_line(r#"{"cmd":"hello"}"#)
        .map(|r| r.line)
        .unwrap_or_default();
    let value: Value = serde_json::from_str(&reply).unwrap_or(Value::Null);
    ok(value)
}

/// The game a name, seat count and options describe.
fn build_game(name: &str, players: Option<usize>, options: &[String]) -> Result<AnyGame, WebError> {
    AnyGame::new(name, players, options).map_err(|e| WebError::bad("bad_config", e.to_string()))
}

async fn geometry(
    Path(game): Path<String>,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    let mut players = None;
    for (k, v) in &query {
        match k.as_str() {
            "players" => match v.parse::<usize>() {
                Ok(n) => players = Some(n),
                Err(_) => {
                    return WebError::bad(
                        "wrong_type",
                        format!("`players` must be a whole number, not `{v}`"),
                    )
                    .into_response()
                }
            },
            other => {
                return WebError::bad(
                    "unknown_field",
                    format!("geometry takes only `players`, not `{other}`"),
                )
                .into_response()
            }
        }
    }
    match build_game(&game, players, &[]) {
        Ok(any) => ok(with_game!(&any, |g| g.geometry_json())),
        Err(e) => e.into_response(),
    }
}

async fn open_session(State(state): State<AppState>) -> Response {
    let id = state.open_session();
    ok(json!({ "ok": true, "session": id.to_string() }))
}

/// What a protocol view says about its game: enough to rebuild it.
fn game_of_view(view: &Value) -> Option<AnyGame> {
    let name = view.get("game")?.as_str()?;
    let players = view.get("players")?.as_u64()? as usize;
    let options: Vec<String> = view
        .get("options")?
        .as_object()?
        .iter()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
        .collect();
    AnyGame::new(name, Some(players), &options).ok()
}

/// The `picture` of a view (pieces and moves) and the words of the step from `before`.
fn picture<G: Drawing>(g: &G, view: &Value, before: Option<&Value>, step: &Step) -> Option<Value> {
    let state: G::State = serde_json::from_value(view.get("state")?.clone()).ok()?;
    let before: Option<G::State> = before.and_then(|b| serde_json::from_value(b.clone()).ok());
    let mut words = Vec::new();
    if let Some(b) = &before {
        match step {
            Step::Throw(description) => words.push(description.clone()),
            Step::Action(text) => {
                if let Ok(a) = g.parse_action(text) {
                    words.push(g.describe_action(b, a));
                }
            }
            Step::Other => {}
        }
        if !matches!(step, Step::Other) {
            words.extend(g.describe_change(b, &state));
        }
    }
    // Each legal move with what it would do in words (the choice explained where it is
    // offered, such as Sig (El Oued)'s `use` or `decline` of the points left at Mecca).
    let moves: Vec<Value> = g
        .moves(&state)
        .into_iter()
        .map(|m| {
            let said = g
                .parse_action(&m.action)
                .map(|a| g.describe_action(&state, a))
                .unwrap_or_default();
            let mut v = serde_json::to_value(&m).unwrap_or(Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.insert("words".into(), Value::String(said));
            }
            v
        })
        .collect();
    Some(json!({
        "pieces": g.pieces(&state),
        "moves": moves,
        "words": words,
        "tallies": g.tallies(&state),
    }))
}

/// The step a response made, as far as words go.
enum Step {
    /// A throw, with its description.
    Throw(String),
    Action(String),
    Other,
}

/// Runs a protocol request on a session and enriches the response.
async fn session_request(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let slot = match state.session(&id) {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    let line = match request_line(&body) {
        Ok(line) => line,
        Err(refused) => return *refused,
    };
    // The command, for the web layer's own bookkeeping; the protocol reads and checks the
    // whole request.
    let cmd = serde_json::from_str::<Peek>(&line)
        .ok()
        .and_then(|p| p.cmd)
        .unwrap_or_default();
    let (before, begun) = match begin_step(&slot, &line, &cmd).await {
        Ok(begun) => begun,
        Err(refused) => return refused,
    };
    let line_out = match begun {
        Begun::Reply(out) => {
            if let Some(text) = &out {
                record(&mut lock(&slot), &cmd, text);
            }
            out
        }
        Begun::Wait => return busy(),
        Begun::Search(search) => match run_search(&slot, &cmd, search).await {
            Ok(reply) => Some(reply),
            Err(failed) => return failed,
        },
    };
    let Some(text) = line_out else {
        return WebError::bad("bad_request", "a blank line is not a request").into_response();
    };
    let mut response: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(_) => return protocol_reply(Some(text)),
    };
    enrich(&mut response, before.as_ref());
    if cmd == "quit" {
        lock(&state.0.sessions)
            .map
            .remove(&id.parse::<u64>().unwrap_or(0));
    }
    protocol_value(response)
}

/// A session's request body as one line of text, or the answer refusing it (a body that is
/// not UTF-8 is answered by the protocol's own error; an empty one is a bad request).
fn request_line(body: &Bytes) -> Result<String, Box<Response>> {
    let line = match std::str::from_utf8(body) {
        Ok(t) => t.to_string(),
        Err(_) => {
            let mut server = Server::new();
            return Err(Box::new(protocol_reply(
                server.handle_bytes(body).map(|r| r.line),
            )));
        }
    };
    if line.trim().is_empty() {
        return Err(Box::new(
            WebError::bad(
                "bad_request",
                "the body is empty: send one protocol request, such as {\"cmd\":\"hello\"}",
            )
            .into_response(),
        ));
    }
    Ok(line)
}

/// The answer to a request that would change the game while an agent thinks.
fn busy() -> Response {
    WebError::new(
        StatusCode::CONFLICT,
        "busy",
        "an agent is still thinking in this session: wait for its move, or cancel it \
         (POST /api/session/{id}/cancel)",
    )
    .into_response()
}

/// What beginning a request in a session gave.
enum Begun {
    /// The response line (`None` for a blank line).
    Reply(Option<String>),
    /// The protocol's answer that a search is running.
    Wait,
    /// An agent's search, numbered in the session.
    Search(NumberedSearch),
}

/// An agent's search begun in a session: its number, the sender that says its result is
/// back, and the session's server before it, to fall back on should its thread be lost.
struct NumberedSearch {
    search: Box<Search>,
    n: u64,
    done: watch::Sender<bool>,
    backup: Box<Server>,
}

/// Begins `line` (whose command is `cmd`) in the session, with the state before it (for
/// the step's words). A request that would change the game while an agent thinks is
/// refused; if that search was already stopped (cancelled, or its client went away), the
/// request waits the moment it takes to end instead.
async fn begin_step(
    slot: &Arc<Mutex<Slot>>,
    line: &str,
    cmd: &str,
) -> Result<(Option<Value>, Begun), Response> {
    let read_only = matches!(cmd, "state" | "hello" | "cancel");
    loop {
        let waiting = {
            let mut s = lock(slot);
            match &s.busy {
                Some(b) if !read_only && b.stop.is_cancelled() => Some(b.done.clone()),
                Some(_) if !read_only => return Err(busy()),
                _ => {
                    let before = s
                        .server
                        .handle_line(r#"{"cmd":"state"}"#)
                        .and_then(|r| serde_json::from_str::<Value>(&r.line).ok())
                        .and_then(|v| v.get("result").and_then(|r| r.get("state")).cloned());
                    // Kept to fall back on should the search's thread be lost.
                    let backup = (cmd == "agent_move").then(|| Box::new(s.server.clone()));
                    let begun = match (s.server.begin(line.as_bytes()), backup) {
                        (Begin::Reply(reply), _) => Begun::Reply(reply.map(|r| r.line)),
                        (Begin::Wait, _) => Begun::Wait,
                        (Begin::Search(search), Some(backup)) => {
                            s.searches += 1;
                            let (done, rx) = watch::channel(false);
                            let n = s.searches;
                            s.busy = Some(Busy {
                                search: n,
                                stop: search.stopper(),
                                done: rx,
                            });
                            Begun::Search(NumberedSearch {
                                search,
                                n,
                                done,
                                backup,
                            })
                        }
                        (Begin::Search(_), None) => unreachable!("a search is always numbered"),
                    };
                    return Ok((before, begun));
                }
            }
        };
        if let Some(mut done) = waiting {
            // The sender goes with the search's task, so this ends either way.
            let _ = done.wait_for(|d| *d).await;
        }
    }
}

/// Runs an agent's search and answers its response line. The search runs on a blocking
/// thread, so other sessions (and this one's `state` and `cancel`) are answered meanwhile;
/// it looks at its stop every few iterations, so `cancel` and the time limit end it early.
/// A task of its own hands the result back to the session whatever becomes of this
/// request.
async fn run_search(
    slot: &Arc<Mutex<Slot>>,
    cmd: &str,
    begun: NumberedSearch,
) -> Result<String, Response> {
    let NumberedSearch {
        search,
        n,
        done: tx,
        backup,
    } = begun;
    let stop = search.stopper();
    let task_slot = Arc::clone(slot);
    let task_cmd = cmd.to_string();
    let task = tokio::spawn(async move {
        let joined = tokio::task::spawn_blocking(move || search.run()).await;
        let mut s = lock(&task_slot);
        let reply = match joined {
            Ok(searched) => s.server.finish(searched).line,
            Err(e) => {
                // The search's thread was lost outside the protocol's own catch (the
                // runtime shutting down): the session is as before it.
                s.server = *backup;
                format!(
                    "{{\"id\":null,\"ok\":false,\"error\":{{\"code\":\"internal\",\
                     \"message\":{}}}}}",
                    Value::String(format!(
                        "the agent's search failed: {e}; the game is unchanged"
                    ))
                )
            }
        };
        record(&mut s, &task_cmd, &reply);
        if s.busy.as_ref().is_some_and(|b| b.search == n) {
            s.busy = None;
        }
        drop(s);
        let _ = tx.send(true);
        reply
    });
    // Should the client go away while the agent thinks (this future is dropped), the
    // search is stopped: nobody waits for its move.
    let mut guard = StopOnDrop(Some(stop));
    let joined = task.await;
    guard.0 = None;
    joined.map_err(|e| {
        WebError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the agent's search failed: {e}; the game is unchanged"),
        )
        .into_response()
    })
}

/// What the web layer reads of a protocol request: its command, when it is a string.
#[derive(serde::Deserialize)]
struct Peek {
    #[serde(default, deserialize_with = "string_or_none")]
    cmd: Option<String>,
}

/// A string, or `None` for any other value.
fn string_or_none<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match <Value as serde::Deserialize>::deserialize(d)? {
        Value::String(s) => Some(s),
        _ => None,
    })
}

/// The body of `POST /api/session/{id}/save`: who sat in each seat.
#[derive(serde::Deserialize)]
struct SaveRequest {
    agents: Vec<String>,
}

/// Stops a search when the request that started it is dropped (its client went away).
struct StopOnDrop(Option<Stop>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if let Some(stop) = self.0.take() {
            stop.stop();
        }
    }
}

/// Keeps the slot's event list in step with a successful response; whether the response
/// changed the game (for `agent_move`: whether its copy should be kept).
fn record(s: &mut Slot, cmd: &str, response: &str) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(response) else {
        return false;
    };
    if v.get("ok") != Some(&Value::Bool(true)) {
        return false;
    }
    let r = &v["result"];
    match cmd {
        "new_game" => s.events.clear(),
        "throw" => {
            let k = r["thrown"]["marked"].as_u64().unwrap_or(0) as u8;
            s.events.push(Some(LoggedEvent::Throw(k)));
        }
        "act" => {
            let a = r["played"]["action"].as_str().unwrap_or_default();
            s.events.push(Some(LoggedEvent::Action(a.to_string())));
        }
        "agent_move" => {
            if r["move"]["applied"] == Value::Bool(true) {
                let a = r["move"]["action"].as_str().unwrap_or_default();
                s.events.push(Some(LoggedEvent::Action(a.to_string())));
            }
        }
        "load_state" => s.events.push(None),
        "undo" => {
            let n = r["undone"].as_u64().unwrap_or(0) as usize;
            let keep = s.events.len().saturating_sub(n);
            s.events.truncate(keep);
        }
        _ => return false,
    }
    true
}

/// Adds `picture` (pieces, moves, the step in words) to a result that carries a view.
fn enrich(response: &mut Value, before: Option<&Value>) {
    let Some(result) = response.get_mut("result") else {
        return;
    };
    if result.get("state").is_none() {
        return;
    }
    let Some(any) = game_of_view(result) else {
        return;
    };
    let step = if let Some(t) = result.get("thrown") {
        Step::Throw(t["description"].as_str().unwrap_or_default().to_string())
    } else if let Some(p) = result.get("played") {
        Step::Action(p["action"].as_str().unwrap_or_default().to_string())
    } else if let Some(m) = result
        .get("move")
        .filter(|m| m["applied"] == Value::Bool(true))
    {
        Step::Action(m["action"].as_str().unwrap_or_default().to_string())
    } else {
        Step::Other
    };
    let pic = with_game!(&any, |g| picture(g, result, before, &step));
    if let (Some(p), Value::Object(m)) = (pic, result) {
        m.insert("picture".into(), p);
    }
}

/// A protocol response as HTTP: 200 for a success, 400 for an error (409 for the
/// errors that mean "not now": throw_due, decision_due, game_over), the body unchanged.
fn protocol_value(v: Value) -> Response {
    let status = if v.get("ok") == Some(&Value::Bool(true)) {
        StatusCode::OK
    } else {
        match v["error"]["code"].as_str() {
            Some("internal") => StatusCode::INTERNAL_SERVER_ERROR,
            Some(
                "throw_due" | "decision_due" | "game_over" | "no_game" | "nothing_to_undo" | "busy"
                | "cancelled",
            ) => StatusCode::CONFLICT,
            _ => StatusCode::BAD_REQUEST,
        }
    };
    json_response(status, &v)
}

fn protocol_reply(line: Option<String>) -> Response {
    match line.and_then(|l| serde_json::from_str::<Value>(&l).ok()) {
        Some(v) => protocol_value(v),
        None => WebError::bad("bad_request", "no request").into_response(),
    }
}

async fn cancel(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let slot = match state.session(&id) {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    // The search ends at its next look at the stop; its own request then answers
    // `cancelled`, and the session keeps its game and undo history.
    let s = lock(&slot);
    let was = match &s.busy {
        Some(b) if !b.stop.is_cancelled() => {
            b.stop.stop();
            true
        }
        _ => false,
    };
    ok(json!({ "ok": true, "cancelled": was }))
}

/// `POST /api/session/{id}/save` with `{"agents": ["human", "mcts", …]}` (who sat in each
/// seat): writes the finished game as a one-game tournament log into a new folder of the
/// save folder, which joins the replayable folders.
async fn save(State(state): State<AppState>, Path(id): Path<String>, body: Bytes) -> Response {
    match save_game(&state, &id, &body) {
        Ok(v) => ok(v),
        Err(e) => e.into_response(),
    }
}

fn save_game(state: &AppState, id: &str, body: &[u8]) -> Result<Value, WebError> {
    let slot = state.session(id)?;
    let body = match serde_json::from_slice::<Value>(body) {
        Ok(v @ Value::Object(_)) => v,
        _ => {
            return Err(WebError::bad(
                "malformed_json",
                "save takes a JSON object {\"agents\": [one name per seat]}",
            ))
        }
    };
    // A refused name inside the list is the wrong type; no list of names, a missing field.
    let agents = match serde_path_to_error::deserialize::<_, SaveRequest>(body) {
        Ok(r) => r.agents,
        Err(e) if e.path().iter().count() > 1 => {
            return Err(WebError::bad("wrong_type", "`agents` must be strings"))
        }
        Err(_) => {
            return Err(WebError::bad(
                "missing_field",
                "save takes {\"agents\": [one name per seat]}",
            ))
        }
    };
    let (view, events) = {
        let mut s = lock(&slot);
        let view = s
            .server
            .handle_line(r#"{"cmd":"state"}"#)
            .and_then(|r| serde_json::from_str::<Value>(&r.line).ok())
            .unwrap_or(Value::Null);
        (view, s.events.clone())
    };
    if view["ok"] != Value::Bool(true) {
        return Err(WebError::new(
            StatusCode::CONFLICT,
            "no_game",
            "no game to save: start one first",
        ));
    }
    let view = &view["result"];
    if view["node"]["kind"] != "end" {
        return Err(WebError::new(
            StatusCode::CONFLICT,
            "game_not_over",
            "only a finished game can be saved",
        ));
    }
    let events: Vec<LoggedEvent> = events.into_iter().collect::<Option<_>>().ok_or_else(|| {
        WebError::new(
            StatusCode::CONFLICT,
            "loaded_state",
            "this game started from a loaded position, which a tournament log cannot hold",
        )
    })?;
    let players = view["players"].as_u64().unwrap_or(0) as usize;
    if agents.len() != players {
        return Err(WebError::bad(
            "bad_value",
            format!(
                "`agents` names {} seats; the game has {players}",
                agents.len()
            ),
        ));
    }
    let options: Vec<String> = view["options"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default();
    let game = view["game"].as_str().unwrap_or_default().to_string();
    let seed = view["seed"].as_u64().unwrap_or(0);
    let ranking = &view["ranking"];
    let config = TournamentConfig {
        game: game.clone(),
        players,
        options,
        agents,
        format: stickdice_evaluation::Format::RoundRobin,
        games_per_table: 1,
        seed,
        sprt: None,
        description: None,
    };
    let record = GameRecord {
        index: 0,
        table: 0,
        rotation: 0,
        shift: 0,
        game_seed: seed,
        seating: (0..players).collect(),
        agent_seeds: vec![0; players],
        events,
        places: ranking["places"]
            .as_array()
            .map(|a| a.iter().map(|p| p.as_u64().unwrap_or(0) as u8).collect())
            .unwrap_or_default(),
        scores: ranking["scores"]
            .as_array()
            .map(|a| a.iter().map(|p| p.as_f64().unwrap_or(0.0)).collect())
            .unwrap_or_default(),
        throws: view["throws_made"].as_u64().unwrap_or(0) as u32,
        time_s: vec![0.0; players],
        failure: None,
    };
    let save_dir = &state.0.save_dir;
    std::fs::create_dir_all(save_dir).map_err(|e| io_error(save_dir, e))?;
    let folder = (1..)
        .map(|n| save_dir.join(format!("{game}-{n:03}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| save_dir.join(&game));
    std::fs::create_dir_all(&folder).map_err(|e| io_error(&folder, e))?;
    let path = folder.join(stickdice_evaluation::tournament::LOG_FILE);
    let mut writer = log::LogWriter::create(&path, &config)
        .map_err(|e| WebError::new(StatusCode::INTERNAL_SERVER_ERROR, "io", e.to_string()))?;
    writer
        .write_line(&LogLine::Game(record))
        .map_err(|e| WebError::new(StatusCode::INTERNAL_SERVER_ERROR, "io", e.to_string()))?;
    drop(writer);
    let text = std::fs::read_to_string(&path).map_err(|e| io_error(&path, e))?;
    let mut dirs = lock(&state.0.dirs);
    dirs.push(folder.clone());
    let index = dirs.len() - 1;
    Ok(json!({
        "ok": true,
        "path": path.display().to_string(),
        "tournament": index,
        "log": text,
    }))
}

fn io_error(path: &FsPath, e: std::io::Error) -> WebError {
    WebError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "io",
        format!("{}: {e}", path.display()),
    )
}

async fn tournaments(State(state): State<AppState>) -> Response {
    let dirs = state.dirs();
    let list: Vec<Value> = dirs
        .iter()
        .enumerate()
        .map(|(i, d)| replay::summary(i, d))
        .collect();
    ok(json!({ "ok": true, "tournaments": list }))
}

async fn replay_game(
    State(state): State<AppState>,
    Path((t, k)): Path<(String, String)>,
) -> Response {
    let dirs = state.dirs();
    let result = tokio::task::spawn_blocking(move || replay::game(&dirs, &t, &k)).await;
    match result {
        Ok(Ok(v)) => ok(v),
        Ok(Err(e)) => e.into_response(),
        Err(e) => WebError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the replay failed: {e}"),
        )
        .into_response(),
    }
}

async fn review_game(
    State(state): State<AppState>,
    Path((t, k)): Path<(String, String)>,
) -> Response {
    let key = (t.clone(), k.clone());
    if let Some(v) = lock(&state.0.reviews).get(&key) {
        return ok(v.clone());
    }
    let dirs = state.dirs();
    let result = tokio::task::spawn_blocking(move || review::game_review(&dirs, &t, &k)).await;
    match result {
        Ok(Ok(v)) => {
            lock(&state.0.reviews).insert(key, v.clone());
            ok(v)
        }
        Ok(Err(e)) => e.into_response(),
        Err(e) => WebError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the review failed: {e}"),
        )
        .into_response(),
    }
}

async fn tournament_file(
    State(state): State<AppState>,
    Path((t, name)): Path<(String, String)>,
) -> Response {
    match replay::file(&state.dirs(), &t, &name) {
        Ok((mime, body)) => ([(header::CONTENT_TYPE, mime)], body).into_response(),
        Err(e) => e.into_response(),
    }
}

/// What the node of a state is, as the protocol writes it.
fn node_json(node: Node) -> Value {
    match node {
        Node::Throw(s) => json!({"kind": "throw", "seat": s}),
        Node::Decide(s) => json!({"kind": "decide", "seat": s}),
        Node::End => json!({"kind": "end", "seat": null}),
    }
}

/// Binds `opts`' address and serves until ctrl-c, printing the address first.
///
/// # Errors
/// [`ServeError`]: the address cannot be bound, or the server fails.
pub fn run(opts: WebOptions) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(8)
        .enable_all()
        .build()
        .map_err(ServeError::Start)?;
    runtime.block_on(async move {
        let ip = opts.bind.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let addr = SocketAddr::new(ip, opts.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Listen { addr, source })?;
        let local = listener
            .local_addr()
            .map_err(|source| ServeError::Listen { addr, source })?;
        for d in &opts.dirs {
            if !d.exists() {
                eprintln!("warning: {} does not exist", d.display());
            }
        }
        println!("stickdice web: serving on http://{local}/ (ctrl-c stops it)");
        let state = AppState::bound(opts.dirs.clone(), opts.save_dir.clone(), opts.bind);
        axum::serve(listener, router(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(ServeError::Serve)
    })
}

/// Why the web server stopped with an error ([`run`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The server's run time cannot start.
    #[error("cannot start the server: {0}")]
    Start(#[source] std::io::Error),
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The server failed while serving.
    #[error("the server failed: {0}")]
    Serve(#[source] std::io::Error),
}
