//! Tournament folders: their games listed, and one game replayed through the rules.

use std::path::{Path, PathBuf};

use axum::http::StatusCode;
use serde_json::{json, Value};
use stickdice::{with_game, AnyGame, Throw};
use stickdice_evaluation::log::{self, GameRecord, LogContents, LoggedEvent};
use stickdice_evaluation::schedule::Schedule;
use stickdice_evaluation::tournament::{labels, verify_game, LOG_FILE};

use crate::drawing::Drawing;
use crate::{node_json, WebError};

/// The log file of a folder (or the file itself).
pub(crate) fn log_path(dir: &Path) -> PathBuf {
    if dir.is_dir() {
        dir.join(LOG_FILE)
    } else {
        dir.to_path_buf()
    }
}

/// The folder holding a log.
fn folder(dir: &Path) -> PathBuf {
    if dir.is_dir() {
        dir.to_path_buf()
    } else {
        dir.parent().map(Path::to_path_buf).unwrap_or_default()
    }
}

fn read(dir: &Path) -> Result<LogContents, String> {
    let path = log_path(dir);
    if !path.exists() {
        return Err(format!(
            "{} holds no tournament log ({LOG_FILE})",
            dir.display()
        ));
    }
    log::read(&path)
        .map_err(|e| match e {
            log::LogError::Io { .. } => format!("the log cannot be read: {e}"),
            _ => format!("the log is damaged: {e}"),
        })?
        .ok_or_else(|| format!("{} is empty", path.display()))
}

/// Checks game `record` of a log as `stickdice replay` and resuming do (its seating,
/// throw count and result against the schedule and the replayed events).
///
/// # Errors
/// The first disagreement.
pub(crate) fn verify(
    c: &log::TournamentConfig,
    any: &AnyGame,
    record: &GameRecord,
) -> Result<(), String> {
    let schedule = Schedule::new(
        c.format,
        c.agents.len(),
        c.players,
        c.games_per_table,
        c.seed,
    )
    .map_err(|e| format!("the log's tournament: {e}"))?;
    if saved_here(record) {
        return with_game!(any, |g| verify_saved(g, record));
    }
    with_game!(any, |g| verify_game(g, &schedule, record)).map_err(|e| e.to_string())
}

/// Whether `record` is a game saved by this server (`POST /api/session/{id}/save`): its
/// throws are the players' own, not the schedule's duplicate dice, and its agent seeds 0.
fn saved_here(record: &GameRecord) -> bool {
    record.index == 0
        && (record.table, record.rotation, record.shift) == (0, 0, 0)
        && record.agent_seeds.iter().all(|&s| s == 0)
}

/// Checks a game saved by this server: seated in order, its events legal to the end of
/// the game, and its places, scores and throw count the replayed ones.
fn verify_saved<G: stickdice::Game>(g: &G, record: &GameRecord) -> Result<(), String> {
    let seats = g.seats();
    if record.seating != (0..seats).collect::<Vec<_>>() {
        return Err(format!(
            "a saved game seats its players in order, not as {:?}",
            record.seating
        ));
    }
    if record.failure.is_some() {
        return Err("a saved game has no failure".into());
    }
    let mut state = g.initial_state();
    for (i, e) in record.events.iter().enumerate() {
        let at = |why: String| format!("event {}: {why}", i + 1);
        match e {
            LoggedEvent::Throw(t) => g
                .apply_throw(&mut state, Throw::new(*t))
                .map_err(|e| at(e.to_string()))?,
            LoggedEvent::Action(text) => {
                let a = g.parse_action(text).map_err(|e| at(e.to_string()))?;
                g.apply_action(&mut state, a)
                    .map_err(|e| at(e.to_string()))?;
            }
        }
    }
    let ranking = g
        .ranking(&state)
        .ok_or("the logged events stop before the end of the game")?;
    if ranking.places() != record.places.as_slice() {
        return Err(format!(
            "the logged places {:?} are not the game's {:?}",
            record.places,
            ranking.places()
        ));
    }
    if record.scores.len() != seats || (0..seats).any(|s| record.scores[s] != ranking.score(s)) {
        return Err(format!(
            "the logged scores {:?} are not the game's",
            record.scores
        ));
    }
    if g.throws_made(&state) != record.throws {
        return Err(format!(
            "{} throws logged, {} replayed",
            record.throws,
            g.throws_made(&state)
        ));
    }
    Ok(())
}

/// The ranking as text, `P2 > P1 = P3`, from each seat's place.
pub fn ranking_text(places: &[u8]) -> String {
    let mut seats: Vec<usize> = (0..places.len()).collect();
    seats.sort_by_key(|&s| (places[s], s));
    let mut text = String::new();
    for (i, &s) in seats.iter().enumerate() {
        if i > 0 {
            text.push_str(if places[s] == places[seats[i - 1]] {
                " = "
            } else {
                " > "
            });
        }
        text.push_str(&format!("P{}", s + 1));
    }
    text
}

/// A folder's games, for the table (or why it cannot be read).
pub fn summary(id: usize, dir: &Path) -> Value {
    let contents = match read(dir) {
        Ok(c) => c,
        Err(e) => {
            return json!({ "id": id, "path": dir.display().to_string(), "error": e });
        }
    };
    let c = &contents.config;
    let names = labels(&c.agents);
    let any = AnyGame::new(&c.game, Some(c.players), &c.options);
    let title = any.as_ref().map(|g| g.kind().title()).unwrap_or("?");
    let mut files: Vec<String> = std::fs::read_dir(folder(dir))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| allowed_file(n).is_some())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let games: Vec<Value> = contents
        .games
        .iter()
        .map(|(line, g)| {
            let checked = match &any {
                Ok(any) => verify(c, any, g),
                Err(e) => Err(format!("the log's game: {e}")),
            };
            if let Err(e) = checked {
                // Shown as an error, never as a result.
                let e = format!("line {line} does not check: {e}");
                return json!({
                    "index": g.index,
                    "seating": g.seating.iter().map(|&a| names.get(a).cloned().unwrap_or_else(|| "?".into())).collect::<Vec<_>>(),
                    "places": null,
                    "scores": null,
                    "result": "not valid",
                    "throws": null,
                    "events": g.events.len(),
                    "failure": e,
                    "error": e,
                });
            }
            json!({
                "index": g.index,
                "seating": g.seating.iter().map(|&a| names.get(a).cloned().unwrap_or_else(|| "?".into())).collect::<Vec<_>>(),
                "places": g.places,
                "scores": g.scores,
                "result": ranking_text(&g.places),
                "throws": g.throws,
                "events": g.events.len(),
                "failure": g.failure.as_ref().map(|f| format!("P{} {}: {}", f.seat + 1, f.kind, f.message)),
            })
        })
        .collect();
    json!({
        "id": id,
        "path": dir.display().to_string(),
        "game": c.game,
        "title": title,
        "players": c.players,
        "options": c.options,
        "agents": names,
        "files": files,
        "games": games,
        "torn_tail": contents.torn_tail.map(|(line, _)| line),
    })
}

fn tournament_dir<'a>(dirs: &'a [PathBuf], t: &str) -> Result<&'a PathBuf, WebError> {
    t.parse::<usize>()
        .ok()
        .and_then(|i| dirs.get(i))
        .ok_or_else(|| {
            WebError::not_found(format!(
                "no tournament folder `{t}`: the server has {} (numbered from 0)",
                dirs.len()
            ))
        })
}

/// Game `k` of folder `t`: the folder, the log's contents and the game's line and record.
pub(crate) fn logged(
    dirs: &[PathBuf],
    t: &str,
    k: &str,
) -> Result<(PathBuf, LogContents, usize, usize), WebError> {
    let dir = tournament_dir(dirs, t)?;
    let contents =
        read(dir).map_err(|e| WebError::new(StatusCode::UNPROCESSABLE_ENTITY, "bad_log", e))?;
    let index: usize = k.parse().map_err(|_| {
        WebError::bad(
            "wrong_type",
            format!("`{k}` is not a game index (a whole number)"),
        )
    })?;
    let Some(at) = contents.games.iter().position(|(_, g)| g.index == index) else {
        let mut have: Vec<usize> = contents.games.iter().map(|(_, g)| g.index).collect();
        have.sort_unstable();
        return Err(WebError::not_found(format!(
            "{} holds no game {index}; it holds {} games{}",
            dir.display(),
            have.len(),
            match (have.first(), have.last()) {
                (Some(a), Some(b)) => format!(", indices {a} to {b}"),
                _ => String::new(),
            }
        )));
    };
    let line = contents.games[at].0;
    Ok((dir.clone(), contents, line, at))
}

/// The game a log plays, or `bad_log`.
pub(crate) fn logged_game(c: &log::TournamentConfig) -> Result<AnyGame, WebError> {
    AnyGame::new(&c.game, Some(c.players), &c.options).map_err(|e| {
        WebError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_log",
            format!("the log's game: {e}"),
        )
    })
}

/// Game `k` of folder `t`, replayed step by step.
pub fn game(dirs: &[PathBuf], t: &str, k: &str) -> Result<Value, WebError> {
    let (dir, contents, line, at) = logged(dirs, t, k)?;
    let dir = &dir;
    let record = &contents.games[at].1;
    let c = &contents.config;
    let any = logged_game(c)?;
    let names = labels(&c.agents);
    verify(c, &any, record).map_err(|e| {
        WebError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_log",
            format!("{} line {line}: {e}", log_path(dir).display()),
        )
    })?;
    let steps = with_game!(&any, |g| steps(g, record)).map_err(|e| {
        WebError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_log",
            format!("{} line {line}: {e}", log_path(dir).display()),
        )
    })?;
    let geometry = with_game!(&any, |g| g.geometry_json());
    Ok(json!({
        "ok": true,
        "tournament": t,
        "index": record.index,
        "game": c.game,
        "title": any.kind().title(),
        "players": c.players,
        "options": c.options,
        "seats": record.seating.iter().map(|&a| names.get(a).cloned().unwrap_or_else(|| "?".into())).collect::<Vec<_>>(),
        "game_seed": record.game_seed,
        "result": ranking_text(&record.places),
        "places": record.places,
        "scores": record.scores,
        "throws": record.throws,
        "failure": record.failure.as_ref().map(|f| format!("P{} ({}) lost by {}: {}", f.seat + 1,
            record.seating.get(f.seat).and_then(|&a| names.get(a)).map_or("?", |s| s.as_str()), f.kind, f.message)),
        "geometry": geometry,
        "steps": steps,
    }))
}

/// One entry per position: the start, then after each throw or action.
fn steps<G: Drawing>(g: &G, record: &GameRecord) -> Result<Vec<Value>, String> {
    let mut state = g.initial_state();
    let mut out = vec![position(g, &state, json!(null), Vec::new())];
    for (i, e) in record.events.iter().enumerate() {
        let before = state;
        let at = |why: String| format!("event {}: {why}", i + 1);
        let seat = g.node(&state).seat().unwrap_or(0);
        let (event, mut words) = match e {
            LoggedEvent::Throw(t) => {
                let throw = Throw::new(*t);
                g.apply_throw(&mut state, throw)
                    .map_err(|e| at(e.to_string()))?;
                (
                    json!({"kind": "throw", "seat": seat, "marked": t, "sides": g.sides(*t)}),
                    vec![format!(
                        "P{}: {}",
                        seat + 1,
                        g.describe_throw(&before, throw)
                    )],
                )
            }
            LoggedEvent::Action(text) => {
                let a = g.parse_action(text).map_err(|e| at(e.to_string()))?;
                g.apply_action(&mut state, a)
                    .map_err(|e| at(e.to_string()))?;
                (
                    json!({"kind": "action", "seat": seat, "action": a.to_string()}),
                    vec![g.describe_action(&before, a)],
                )
            }
        };
        words.extend(g.describe_change(&before, &state));
        out.push(position(g, &state, event, words));
    }
    Ok(out)
}

fn position<G: Drawing>(g: &G, s: &G::State, event: Value, words: Vec<String>) -> Value {
    json!({
        "event": event,
        "words": words,
        "node": node_json(g.node(s)),
        "throws_made": g.throws_made(s),
        "state": serde_json::to_value(s).unwrap_or(Value::Null),
        "board": g.render(s),
        "pieces": g.pieces(s),
        "tallies": g.tallies(s),
        "ranking": g.ranking(s).map(|r| r.to_string()),
    })
}

/// The MIME type of a report file the server hands out, if it is one.
fn allowed_file(name: &str) -> Option<&'static str> {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        && !name.starts_with('.');
    if !plain {
        return None;
    }
    let ext = name.rsplit('.').next()?;
    match ext {
        "svg" => Some("image/svg+xml"),
        "md" | "txt" => Some("text/plain; charset=utf-8"),
        "csv" => Some("text/csv; charset=utf-8"),
        "json" => Some("application/json"),
        _ => None,
    }
}

/// A report file of folder `t` (`ratings.svg`, `report.md`…).
pub fn file(dirs: &[PathBuf], t: &str, name: &str) -> Result<(&'static str, Vec<u8>), WebError> {
    let dir = tournament_dir(dirs, t)?;
    let mime = allowed_file(name).ok_or_else(|| {
        WebError::bad(
            "bad_value",
            format!("`{name}` is not a report file (a plain name ending .svg, .md, .txt, .csv or .json)"),
        )
    })?;
    let missing = || WebError::not_found(format!("{} has no file {name}", folder(dir).display()));
    let path = folder(dir).join(name);
    // Only a regular file of the folder itself: not a symbolic link (which could point
    // anywhere), a folder or a device, and at most MAX_FILE_BYTES of it.
    let meta = std::fs::symlink_metadata(&path).map_err(|_| missing())?;
    if !meta.file_type().is_file() {
        return Err(missing());
    }
    let inside = match (path.canonicalize(), folder(dir).canonicalize()) {
        (Ok(p), Ok(d)) => p.parent() == Some(d.as_path()),
        _ => false,
    };
    if !inside {
        return Err(missing());
    }
    stickdice_agents::files::read_bounded(&path, stickdice_agents::files::MAX_FILE_BYTES)
        .map(|b| (mime, b))
        .map_err(|_| missing())
}
