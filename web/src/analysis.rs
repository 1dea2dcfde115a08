//! `GET /api/analysis`: the self-play figures of `stickdice analyze` (seat advantage,
//! lengths, decisions, captures, the cap) from `stickdice_evaluation::analysis`, with the
//! game-length histogram.

use axum::extract::Query;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use stickdice::{with_game, AnyGame, Stop};
use stickdice_agents::{AgentSpec, Evaluate};
use stickdice_evaluation::analysis::{length_histogram_svg, measure_game, Measure, SelfPlay};
use stickdice_evaluation::arena::{self, Factory};
use stickdice_evaluation::factory;

use crate::{ok, WebError};

/// The most self-play games one request plays.
pub const MAX_GAMES: usize = 5000;

/// The most time one request's self-play may take, in seconds: past it the searches are
/// stopped and the request answered with the error `time_limit`.
pub const MAX_SECONDS: u64 = 60;

/// The analyses whose self-play is running (for the tests: a client that goes away stops
/// its analysis).
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// How many analyses are playing their games now.
pub fn running() -> usize {
    RUNNING.load(Ordering::SeqCst)
}

/// Stops the analysis when the request is dropped: answered, or its client gone.
struct StopOnDrop(Stop);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Counts a running analysis in [`RUNNING`] while it lives.
struct Running;

impl Running {
    fn start() -> Running {
        RUNNING.fetch_add(1, Ordering::SeqCst);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The seed path tag of self-play games (the same as `stickdice analyze`'s, so equal
/// settings give equal figures).
const SELF_PLAY: u64 = 0x73656c66; // "self"

pub async fn analysis(Query(query): Query<Vec<(String, String)>>) -> Response {
    let mut game = None;
    let mut players = None;
    let mut games = 500usize;
    let mut seed = 1u64;
    let mut options = Vec::new();
    let mut baseline = "random".to_string();
    for (k, v) in query {
        let number = |v: &str| {
            v.parse::<u64>().map_err(|_| {
                WebError::bad(
                    "wrong_type",
                    format!("`{k}` must be a whole number, not `{v}`"),
                )
            })
        };
        let r = match k.as_str() {
            "game" => {
                game = Some(v);
                Ok(())
            }
            "players" => number(&v).map(|n| players = Some(n as usize)),
            "games" => number(&v).map(|n| games = n as usize),
            "seed" => number(&v).map(|n| seed = n),
            "option" => {
                options.push(v);
                Ok(())
            }
            "baseline" => {
                baseline = v;
                Ok(())
            }
            other => Err(WebError::bad(
                "unknown_field",
                format!(
                    "analysis takes game, players, games, seed, option and baseline, not `{other}`"
                ),
            )),
        };
        if let Err(e) = r {
            return e.into_response();
        }
    }
    let Some(game) = game else {
        return WebError::bad("missing_field", "analysis needs `game`").into_response();
    };
    if games == 0 || games > MAX_GAMES {
        return WebError::bad(
            "bad_value",
            format!("`games` must be 1 to {MAX_GAMES}, not {games}"),
        )
        .into_response();
    }
    let any = match AnyGame::new(&game, players, &options) {
        Ok(a) => a,
        Err(e) => return WebError::bad("bad_config", e.to_string()).into_response(),
    };
    let spec: AgentSpec = match baseline.parse() {
        Ok(s) => s,
        Err(e) => return WebError::bad("bad_agent", format!("{e}")).into_response(),
    };
    if let Err(e) = check_served_agent(&spec) {
        return e.into_response();
    }
    let stop = Stop::new();
    let _stop_on_drop = StopOnDrop(stop.clone());
    let stop = stop.with_deadline(Instant::now() + Duration::from_secs(MAX_SECONDS));
    let joined = tokio::task::spawn_blocking(move || {
        let _running = Running::start();
        with_game!(&any, |g| self_play(g, &spec, games, seed, &stop))
    })
    .await;
    match joined {
        Ok(Ok(v)) => ok(v),
        Ok(Err(e)) => e.into_response(),
        Err(e) => WebError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the analysis failed: {e}"),
        )
        .into_response(),
    }
}

/// Refuses an agent spec this server does not run: one naming a file to read, or one that
/// builds the tablebase in memory.
pub(crate) fn check_served_agent(spec: &AgentSpec) -> Result<(), WebError> {
    if let Some((k, v)) = stickdice_agents::files::file_parameter(spec) {
        return Err(WebError::bad(
            "bad_agent",
            format!("agent `{spec}`: {k}={v}: this server reads no files named in agent specs (eval takes learned or hand, tablebase off or cache)"),
        ));
    }
    if stickdice_agents::files::builds_tablebase(spec) {
        return Err(WebError::bad(
            "bad_agent",
            format!("agent `{spec}`: tablebase=build builds the tablebase in memory (about 30 s): build it once with `stickdice tablebase --build` and use tablebase=cache"),
        ));
    }
    Ok(())
}

fn self_play<G: Evaluate + Measure>(
    g: &G,
    spec: &AgentSpec,
    games: usize,
    seed: u64,
    stop: &Stop,
) -> Result<Value, WebError> {
    stickdice_agents::build(spec, g, 0)
        .map_err(|e| WebError::bad("bad_agent", format!("agent `{spec}`: {e}")))?;
    let s = spec.clone();
    let agent_stop = stop.clone();
    let f: Factory<G> = factory(move |g: &G, seed| {
        let mut agent = stickdice_agents::build(&s, g, seed)
            .unwrap_or_else(|e| panic!("agent `{s}` could not be built: {e}"));
        agent.set_stop(agent_stop.clone());
        agent
    });
    let seats = g.seats();
    let seating: Vec<&Factory<G>> = vec![&f; seats];
    let stopped = || {
        WebError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            "time_limit",
            format!(
                "the analysis took more than {MAX_SECONDS} s and was stopped: ask for fewer games or a cheaper baseline"
            ),
        )
    };
    let mut measures = Vec::with_capacity(games);
    for i in 0..games {
        if stop.is_stopped() {
            return Err(stopped());
        }
        let game_seed = stickdice::seed::derive(seed, &[SELF_PLAY, i as u64]);
        measures.push(measure_game(g, &arena::play(g, &seating, game_seed)));
    }
    if stop.is_stopped() {
        return Err(stopped());
    }
    let figures = SelfPlay::of(&spec.to_string(), seats, &measures);
    let lengths: Vec<u32> = measures.iter().map(|m| m.throws).collect();
    let title = format!(
        "{} — {} players, {} self-play games ({})",
        G::TITLE,
        seats,
        games,
        spec
    );
    Ok(json!({
        "ok": true,
        "game": G::NAME,
        "title": G::TITLE,
        "players": seats,
        "options": g.options().into_iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
        "seed": seed,
        "self_play": figures,
        "svg": length_histogram_svg(&title, &lengths),
    }))
}
