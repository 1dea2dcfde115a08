//! The per-move analysis of a logged game for the replay view: `stickdice review`'s
//! library ([`stickdice_evaluation::review`]) run on game `k` of a tournament folder, with
//! its stated reference (the solved values of the race games, the depth-3 search for
//! Issiren) and the default blunder threshold. A review is a deterministic function of the
//! logged game, so each is computed once and kept.

use std::path::PathBuf;

use axum::http::StatusCode;
use serde_json::{json, Value};
use stickdice::with_game;
use stickdice_evaluation::log::GameRecord;
use stickdice_evaluation::review::{
    review_record, ReferenceOptions, Review, ReviewError, Reviewable, BLUNDER,
};
use stickdice_evaluation::tournament::labels;

use crate::replay::{log_path, logged, logged_game, verify};
use crate::WebError;

/// Reviews one game with the game's stated reference.
fn review_one<G: Reviewable>(g: &G, record: &GameRecord) -> Result<Review, ReviewError> {
    let mut reference = g.reference(&ReferenceOptions::default())?;
    review_record(g, reference.as_mut(), record, BLUNDER)
}

/// `GET /api/tournaments/{t}/games/{k}/review`: `{"ok", "tournament", "index", "seats",
/// "review"}`, `review` being [`Review`]'s JSON; `no_review` (422) when the reference
/// cannot handle the game (a seat count the solver refuses), `bad_log` (422) when the
/// logged game does not replay.
pub fn game_review(dirs: &[PathBuf], t: &str, k: &str) -> Result<Value, WebError> {
    let (dir, contents, line, at) = logged(dirs, t, k)?;
    let record = &contents.games[at].1;
    let c = &contents.config;
    let any = logged_game(c)?;
    verify(c, &any, record).map_err(|e| {
        WebError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_log",
            format!("{} line {line}: {e}", log_path(&dir).display()),
        )
    })?;
    let review = with_game!(&any, |g| review_one(g, record)).map_err(|e| match e {
        ReviewError::Unsupported { game, reason } => WebError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "no_review",
            format!(
                "no per-move analysis for this game: {}",
                reason.sentence(game)
            ),
        ),
        ReviewError::NotCovered { reason, .. } => WebError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "no_review",
            format!("no per-move analysis for this game: {reason}"),
        ),
        e @ ReviewError::BadGame { .. } => WebError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad_log",
            format!("{} line {line}: {e}", dir.display()),
        ),
        // A kind of review failure added later.
        e => WebError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "no_review",
            format!("no per-move analysis for this game: {e}"),
        ),
    })?;
    let names = labels(&c.agents);
    Ok(json!({
        "ok": true,
        "tournament": t,
        "index": record.index,
        "seats": record.seating.iter().map(|&a| names.get(a).cloned().unwrap_or_else(|| "?".into())).collect::<Vec<_>>(),
        "review": serde_json::to_value(&review).unwrap_or(Value::Null),
    }))
}
