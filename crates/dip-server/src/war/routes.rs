//! `/api/v1/war/…` (docs/api.md, "Global War").

use super::files::ImportOptions;
use super::signup::NewWar;
use super::turn::{Acted, MoveBody};
use super::{load, view::view};
use crate::error::{ApiError, ApiResult};
use crate::routes::{account, game_id_of, viewer, Body};
use crate::time::iso8601;
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value as Json_};
use std::collections::HashMap;

pub fn api() -> Router<AppState> {
    Router::new()
        .route("/api/v1/war/games", post(create).get(list))
        .route("/api/v1/war/games/{id}", get(get_game))
        .route("/api/v1/war/games/{id}/join", post(join))
        .route("/api/v1/war/games/{id}/leave", post(leave))
        .route("/api/v1/war/games/{id}/vote", post(vote))
        .route("/api/v1/war/games/{id}/actions", post(act))
        .route("/api/v1/war/games/{id}/skip", post(skip))
        .route("/api/v1/war/games/{id}/log", get(log))
        .route("/api/v1/war/games/{id}/map.svg", get(map_svg))
        .route("/api/v1/war/games/{id}/export", get(export))
        .route("/api/v1/war/import", post(import))
}

async fn create(State(st): State<AppState>, headers: HeaderMap, Body(new): Body<NewWar>) -> ApiResult<Response> {
    let who = account(&st, &headers).await?;
    let mut new = new;
    new.seed = super::seed_for_api(&st, new.seed);
    let id = st.write(move |tx| super::signup::create(tx, &who, &new)).await?;
    st.changed();
    Ok((StatusCode::CREATED, Json(json!({"id": id}))).into_response())
}

async fn list(State(st): State<AppState>, headers: HeaderMap) -> ApiResult<Json<Json_>> {
    let who = viewer(&st, &headers).await?;
    Ok(Json(st.read(move |tx| super::signup::list(tx, who.as_ref())).await?))
}

async fn get_game(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let id = game_id_of(&id)?;
    let who = viewer(&st, &headers).await?;
    Ok(Json(
        st.read(move |tx| {
            let row = load(tx, id, false)?;
            view(tx, &row, who.as_ref())
        })
        .await?,
    ))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    password: Option<String>,
}

async fn join(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    crate::routes::RawBody(body): crate::routes::RawBody,
) -> ApiResult<Json<Json_>> {
    let id = game_id_of(&id)?;
    let who = account(&st, &headers).await?;
    let password = optional::<JoinBody>(&body)?.and_then(|b| b.password);
    let v = st
        .write(move |tx| {
            super::signup::join(tx, id, &who, password.as_deref())?;
            let row = load(tx, id, false)?;
            view(tx, &row, Some(&who))
        })
        .await?;
    st.changed();
    Ok(Json(v))
}

async fn leave(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<StatusCode> {
    let id = game_id_of(&id)?;
    let who = account(&st, &headers).await?;
    st.write(move |tx| super::signup::leave(tx, id, &who)).await?;
    st.changed();
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VoteBody {
    vote: bool,
}

async fn vote(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(b): Body<VoteBody>,
) -> ApiResult<Json<Json_>> {
    let id = game_id_of(&id)?;
    let who = account(&st, &headers).await?;
    let v = st
        .write(move |tx| {
            super::signup::vote(tx, id, &who, b.vote)?;
            let row = load(tx, id, false)?;
            view(tx, &row, Some(&who))
        })
        .await?;
    st.changed();
    Ok(Json(v))
}

async fn act(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(mv): Body<MoveBody>,
) -> ApiResult<Json<Json_>> {
    let id = game_id_of(&id)?;
    let who = account(&st, &headers).await?;
    let mv = mv.check()?;
    let (acted, v) = st
        .write(move |tx| {
            let acted = super::turn::act(tx, id, &who, mv)?;
            let row = load(tx, id, false)?;
            Ok((acted, view(tx, &row, Some(&who))?))
        })
        .await?;
    st.changed();
    match acted {
        Acted::Done(events) => Ok(Json(json!({"events": events, "game": v}))),
        Acted::TimedOut { at } => Err(ApiError::conflict(format!(
            "your turn's time ran out at {}: the turn was rolled back to its start and passed on",
            iso8601(at)
        ))),
    }
}

async fn skip(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let id = game_id_of(&id)?;
    let who = account(&st, &headers).await?;
    let (events, v) = st
        .write(move |tx| {
            let events = super::turn::skip(tx, id, &who)?;
            let row = load(tx, id, false)?;
            Ok((events, view(tx, &row, Some(&who))?))
        })
        .await?;
    st.changed();
    Ok(Json(json!({"events": events, "game": v})))
}

async fn log(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Json<Json_>> {
    let id = game_id_of(&id)?;
    let who = viewer(&st, &headers).await?;
    let since = match q.get("since") {
        Some(s) => s
            .parse::<i64>()
            .map_err(|_| ApiError::bad_request(format!("since: `{s}` is not a log entry number")))?,
        None => 0,
    };
    Ok(Json(
        st.read(move |tx| super::turn::log(tx, id, since, who.as_ref())).await?,
    ))
}

async fn map_svg(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let id = game_id_of(&id)?;
    let who = viewer(&st, &headers).await?;
    let view = match q.get("view") {
        Some(v) => dip_war::map::View::parse(v).ok_or_else(|| {
            ApiError::bad_request(format!(
                "view: `{v}` is not Globe, Africa, Asia, Australia, Europe, N. America or S. America"
            ))
        })?,
        None => dip_war::map::View::Globe,
    };
    let svg = st
        .read(move |tx| super::view::map_svg(tx, id, who.as_ref(), view))
        .await?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

async fn export(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Response> {
    let id = game_id_of(&id)?;
    let who = viewer(&st, &headers).await?;
    let (name, bytes) = st
        .read(move |tx| {
            let row = load(tx, id, false)?;
            // The file has every real name: with hidden names, only the
            // game master's until the game is over.
            let open = !row.options.hidden_names
                || matches!(row.status, super::WarStatus::Completed | super::WarStatus::Deleted)
                || who.is_some_and(|a| a.id == row.creator);
            if !open {
                return Err(ApiError::forbidden(
                    "the game has hidden names: its file is for the game master (its creator) until the end",
                ));
            }
            super::files::export(tx, &row)
        })
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")),
        ],
        bytes,
    )
        .into_response())
}

/// `POST /api/v1/war/import?name=…&time_limit=…`: the file as the body.
async fn import(
    State(st): State<AppState>,
    headers: HeaderMap,
    q: Result<Query<ImportOptions>, axum::extract::rejection::QueryRejection>,
    crate::routes::RawBody(body): crate::routes::RawBody,
) -> ApiResult<Response> {
    let Query(mut opts) = q.map_err(|e| ApiError::bad_request(e.body_text()))?;
    opts.seed = super::seed_for_api(&st, opts.seed);
    let who = account(&st, &headers).await?;
    if body.is_empty() {
        return Err(ApiError::bad_request(
            "the body: send the WARxx.DAT or WARxx.REC file's bytes",
        ));
    }
    let id = st.write(move |tx| super::files::import(tx, &who, &body, &opts)).await?;
    st.changed();
    Ok((StatusCode::CREATED, Json(json!({"id": id}))).into_response())
}

fn optional<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> ApiResult<Option<T>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    serde_json::from_slice(bytes)
        .map(Some)
        .map_err(|e| ApiError::bad_request(format!("the JSON body: {e}")))
}
