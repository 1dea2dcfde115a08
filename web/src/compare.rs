//! `POST /api/compare`: the comparison of `stickdice compare` for configurations
//! chosen on the page — the library's [`compare_until`] with bounded game counts and a time
//! limit, its figures with their intervals, the significant differences from the first
//! configuration (z-tests, Holm–Bonferroni), the library's SVG charts and, with two
//! configurations or more, the family trees ([`Family`]).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{json, Value};
use stickdice::Stop;
use stickdice_agents::AgentSpec;
use stickdice_evaluation::compare::{compare_until, CompareError, Configuration, Settings};
use stickdice_evaluation::family::Family;

use crate::{ok, WebError};

/// The most configurations one request compares.
pub const MAX_CONFIGURATIONS: usize = 8;
/// The most self-play agents of one request.
pub const MAX_AGENTS: usize = 3;
/// The most self-play games per configuration and agent.
pub const MAX_GAMES: usize = 2000;
/// The most games whose luck is measured per configuration and agent.
pub const MAX_LUCK_GAMES: usize = 500;
/// The most agents in the skill trace.
pub const MAX_TRACE: usize = 4;
/// The most rotations per step of the skill trace.
pub const MAX_TRACE_ROTATIONS: usize = 200;
/// The longest a comparison may run, in seconds (also the default `seconds`): past it the
/// searches are stopped and the request answered with the error `time_limit`.
pub const MAX_SECONDS: u64 = 120;
/// The most comparisons running at once (each uses every core): one more is answered
/// with the error `busy`.
pub const MAX_RUNNING: usize = 2;

/// The comparisons running now.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// How many comparisons are running now (for the tests: one whose client went away
/// stops).
pub fn running() -> usize {
    RUNNING.load(Ordering::SeqCst)
}

/// Holds a place among the [`MAX_RUNNING`] comparisons while it lives.
struct Slot;

impl Slot {
    fn take() -> Option<Slot> {
        RUNNING
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_RUNNING).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Stops the comparison when the request is dropped: answered, or its client gone.
struct StopOnDrop(Stop);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// A rule option's value as the page sends it: `"true"`, `true` or `3`.
#[derive(Deserialize)]
#[serde(untagged)]
enum OptionValue {
    Text(String),
    Flag(bool),
    Number(serde_json::Number),
}

impl OptionValue {
    fn text(&self) -> String {
        match self {
            OptionValue::Text(s) => s.clone(),
            OptionValue::Flag(b) => b.to_string(),
            OptionValue::Number(n) => n.to_string(),
        }
    }
}

/// One configuration of the request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigurationRequest {
    game: String,
    players: Option<usize>,
    #[serde(default)]
    options: OptionMap,
}

/// A configuration's rule options as the request's object writes them, in order and with
/// any name given twice kept, so that the options' parser refuses the repeat (a JSON
/// object read into a map would keep the last silently).
#[derive(Default)]
struct OptionMap(Vec<(String, OptionValue)>);

impl<'de> Deserialize<'de> for OptionMap {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = OptionMap;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of rule options, {\"name\": value}")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<OptionMap, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, OptionValue>()? {
                    out.push((k, v));
                }
                Ok(OptionMap(out))
            }
        }
        d.deserialize_map(Entries)
    }
}

/// The request's body: the configurations and the settings of `stickdice compare` (the
/// game counts bounded, smaller defaults).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CompareRequest {
    configurations: Vec<ConfigurationRequest>,
    #[serde(default = "default_agents")]
    agents: Vec<String>,
    #[serde(default = "default_games")]
    games: usize,
    detailed: Option<usize>,
    luck_games: Option<usize>,
    #[serde(default)]
    trace: Vec<String>,
    #[serde(default = "default_trace_rotations")]
    trace_rotations: usize,
    #[serde(default)]
    metrics: Vec<String>,
    #[serde(default = "default_exact")]
    exact: bool,
    #[serde(default = "default_alpha")]
    alpha: f64,
    #[serde(default = "default_seed")]
    seed: u64,
    seconds: Option<u64>,
}

fn default_agents() -> Vec<String> {
    vec!["random".to_string()]
}
fn default_games() -> usize {
    200
}
/// The default `luck_games`, capped at the game count (as `detailed`'s default is).
const DEFAULT_LUCK_GAMES: usize = 50;
fn default_trace_rotations() -> usize {
    20
}
fn default_exact() -> bool {
    true
}
fn default_alpha() -> f64 {
    0.05
}
fn default_seed() -> u64 {
    1
}

/// The request's refusal: which field, and why.
fn parse(body: &[u8]) -> Result<CompareRequest, WebError> {
    let mut de = serde_json::Deserializer::from_slice(body);
    serde_path_to_error::deserialize::<_, CompareRequest>(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let text = inner.to_string();
        let code = if inner.is_syntax() || inner.is_eof() {
            "bad_json"
        } else if text.starts_with("unknown field") {
            "unknown_field"
        } else if text.starts_with("missing field") {
            "missing_field"
        } else {
            "wrong_type"
        };
        let at = if path == "." || code == "bad_json" {
            String::new()
        } else {
            format!(" (at `{path}`)")
        };
        WebError::bad(
            code,
            format!("compare: {text}{at}; see docs/protocol.md for the request"),
        )
    })
}

/// Checks a count against its bounds.
fn bounded(name: &str, n: usize, min: usize, max: usize) -> Result<(), WebError> {
    if n < min || n > max {
        return Err(WebError::bad(
            "bad_value",
            format!("`{name}` must be {min} to {max}, not {n}"),
        ));
    }
    Ok(())
}

/// The configurations and settings of a request, checked.
fn settings_of(r: CompareRequest) -> Result<(Vec<Configuration>, Settings, u64), WebError> {
    bounded(
        "configurations",
        r.configurations.len(),
        1,
        MAX_CONFIGURATIONS,
    )?;
    bounded("agents", r.agents.len(), 1, MAX_AGENTS)?;
    bounded("games", r.games, 2, MAX_GAMES)?;
    let detailed = r.detailed.unwrap_or(r.games.min(100));
    bounded("detailed", detailed, 0, r.games)?;
    // A default never exceeds the game count: only a value the client sent is refused,
    // so the error names a field it wrote.
    let luck_games = r.luck_games.unwrap_or(DEFAULT_LUCK_GAMES.min(r.games));
    bounded("luck_games", luck_games, 0, r.games.min(MAX_LUCK_GAMES))?;
    bounded("trace", r.trace.len(), 0, MAX_TRACE)?;
    bounded("trace_rotations", r.trace_rotations, 2, MAX_TRACE_ROTATIONS)?;
    let seconds = r.seconds.unwrap_or(MAX_SECONDS);
    if seconds == 0 || seconds > MAX_SECONDS {
        return Err(WebError::bad(
            "bad_value",
            format!("`seconds` must be 1 to {MAX_SECONDS}, not {seconds}"),
        ));
    }
    if !(r.alpha > 0.0 && r.alpha < 1.0) {
        return Err(WebError::bad(
            "bad_value",
            format!("`alpha` must lie between 0 and 1, not {}", r.alpha),
        ));
    }
    for spec in r.agents.iter().chain(&r.trace) {
        let parsed: AgentSpec = spec
            .parse()
            .map_err(|e| WebError::bad("bad_agent", format!("agent `{spec}`: {e}")))?;
        crate::analysis::check_served_agent(&parsed)?;
    }
    let configs = r
        .configurations
        .iter()
        .map(|c| {
            let options: Vec<String> = c
                .options
                .0
                .iter()
                .map(|(k, v)| format!("{k}={}", v.text()))
                .collect();
            Configuration::new(&c.game, c.players, &options).map_err(compare_error)
        })
        .collect::<Result<Vec<_>, _>>()?;
    stickdice_evaluation::compare::check_metrics(&r.metrics).map_err(compare_error)?;
    let settings = Settings {
        games: r.games,
        agents: r.agents,
        detailed,
        trace: r.trace,
        trace_rotations: r.trace_rotations,
        luck_games,
        metrics: r.metrics,
        exact: r.exact,
        alpha: r.alpha,
        seed: r.seed,
        throws: None,
        trace_throws: None,
    };
    Ok((configs, settings, seconds))
}

/// The library's error as the page's.
fn compare_error(e: CompareError) -> WebError {
    let code = match &e {
        CompareError::Config(_) => "bad_config",
        CompareError::UnknownMetric { .. } => "bad_metric",
        CompareError::Agent(_) => "bad_agent",
        _ => "bad_value",
    };
    WebError::bad(code, e.to_string())
}

pub async fn compare(body: Bytes) -> Response {
    let (configs, settings, seconds) = match parse(&body).and_then(settings_of) {
        Ok(x) => x,
        Err(e) => return e.into_response(),
    };
    let Some(slot) = Slot::take() else {
        return WebError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            format!(
                "{MAX_RUNNING} comparisons are running already: try again when one has finished"
            ),
        )
        .into_response();
    };
    let stop = Stop::new();
    let _stop_on_drop = StopOnDrop(stop.clone());
    let stop = stop.with_deadline(Instant::now() + Duration::from_secs(seconds));
    let joined = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        run(&configs, &settings, &stop, seconds)
    })
    .await;
    match joined {
        Ok(Ok(v)) => ok(v),
        Ok(Err(e)) => e.into_response(),
        Err(e) => WebError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the comparison failed: {e}"),
        )
        .into_response(),
    }
}

fn run(
    configs: &[Configuration],
    settings: &Settings,
    stop: &Stop,
    seconds: u64,
) -> Result<Value, WebError> {
    let comparison = compare_until(configs, settings, &|_| {}, stop).map_err(|e| match e {
        CompareError::Stopped if stop.is_past_deadline() => WebError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "time_limit",
            format!(
                "the comparison took more than {seconds} s and was stopped: ask for fewer games, configurations or a cheaper agent or trace"
            ),
        ),
        CompareError::Stopped => WebError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "stopped",
            "the comparison was stopped",
        ),
        e => compare_error(e),
    })?;
    let mut charts = comparison.charts();
    let profiles = charts
        .iter()
        .position(|(name, _)| name == "profiles.svg")
        .map(|i| charts.remove(i).1);
    let charts: Vec<Value> = charts
        .into_iter()
        .map(|(name, svg)| {
            json!({ "metric": name.trim_end_matches(".svg"), "name": name, "svg": svg })
        })
        .collect();
    let (family, family_note) = if comparison.results.len() > 1 {
        match Family::of(&comparison, stickdice_rl::offers) {
            Ok(f) => (
                json!({
                    "agent": f.agent,
                    "metrics": f.metrics,
                    "left_out": f.left_out,
                    "cophenetic_correlation": f.cophenetic_correlation,
                    "svg": f.tree.svg(),
                    "newick": f.tree.newick(),
                    "structure_svg": f.structure_tree.svg(),
                    "structure_newick": f.structure_tree.newick(),
                    "distances": f.distances.rows(),
                    "structure": f.structure.rows(),
                    "markdown": f.to_markdown(),
                }),
                None,
            ),
            Err(e) => (Value::Null, Some(format!("no family tree: {e}"))),
        }
    } else {
        (
            Value::Null,
            Some("no family tree: it needs two configurations or more".to_string()),
        )
    };
    Ok(json!({
        "ok": true,
        "comparison": comparison,
        "table": comparison.table(),
        "csv": comparison.to_csv(),
        "charts": charts,
        "profiles": profiles,
        "family": family,
        "family_note": family_note,
    }))
}
