//! `GET /api/analysis`: the self-play figures of `stickdice analyze` (seat advantage,
//! lengths, decisions, captures, the cap) from `stickdice_evaluation::analysis`, with the
//! game-length histogram.

use axum::extract::Query;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use stickdice::{with_game, AnyGame};
use stickdice_agents::{AgentSpec, Evaluate};
use stickdice_evaluation::analysis::{length_histogram_svg, measure_game, Measure, SelfPlay};
use stickdice_evaluation::arena::{self, Factory};
use stickdice_evaluation::factory;

use crate::{ok, WebError};

/// The most self-play games one request plays.
pub const MAX_GAMES: usize = 5000;

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
    let joined =
        tokio::task::spawn_blocking(move || with_game!(&any, |g| self_play(g, &spec, games, seed)))
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

fn self_play<G: Evaluate + Measure>(
    g: &G,
    spec: &AgentSpec,
    games: usize,
    seed: u64,
) -> Result<Value, WebError> {
    stickdice_agents::build(spec, g, 0)
        .map_err(|e| WebError::bad("bad_agent", format!("agent `{spec}`: {e}")))?;
    let s = spec.clone();
    let f: Factory<G> = factory(move |g: &G, seed| {
        stickdice_agents::build(&s, g, seed)
            .unwrap_or_else(|e| panic!("agent `{s}` could not be built: {e}"))
    });
    let seats = g.seats();
    let seating: Vec<&Factory<G>> = vec![&f; seats];
    let measures: Vec<_> = (0..games)
        .map(|i| {
            let game_seed = stickdice::seed::derive(seed, &[SELF_PLAY, i as u64]);
            measure_game(g, &arena::play(g, &seating, game_seed))
        })
        .collect();
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
