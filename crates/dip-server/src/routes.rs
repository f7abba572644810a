//! The HTTP API (docs/api.md): thin handlers that check the request, run
//! one storage transaction on a blocking thread and answer JSON.

use crate::auth::{self, Account};
use crate::error::{ApiError, ApiResult};
use crate::game::Lock;
use crate::listen::Peer;
use crate::{events, history, lobby, play, press, AppState};
use axum::extract::rejection::JsonRejection;
use axum::extract::DefaultBodyLimit;
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use dip_play::Variants;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value as Json_};
use std::collections::HashMap;

/// Largest request body.
pub const MAX_BODY: usize = 64 * 1024;

/// Largest body of the endpoints that take lines (orders, edits): 500
/// lines of 400 characters, the documented limit, do not fit in
/// [`MAX_BODY`].
pub const MAX_LINES_BODY: usize = 256 * 1024;

pub fn api() -> Router<AppState> {
    Router::new()
        .route("/api/v1/health", get(health))
        .route("/api/v1/variants", get(variants))
        .route("/api/v1/accounts", post(register))
        .route("/api/v1/sessions", post(login).delete(logout))
        .route("/api/v1/games", post(create_game).get(list_games))
        .route("/api/v1/games/{id}", get(get_game).patch(patch_game))
        .route("/api/v1/games/{id}/join", post(join))
        .route("/api/v1/games/{id}/leave", post(leave))
        .route("/api/v1/games/{id}/start", post(start))
        .route(
            "/api/v1/games/{id}/orders",
            get(get_orders)
                .put(put_orders)
                .layer(DefaultBodyLimit::max(MAX_LINES_BODY)),
        )
        .route("/api/v1/games/{id}/ready", post(ready))
        .route("/api/v1/games/{id}/draw", post(draw))
        .route("/api/v1/games/{id}/concede", post(concede))
        .route("/api/v1/games/{id}/process", post(process))
        .route("/api/v1/games/{id}/phases", get(phases))
        .route("/api/v1/games/{id}/phases/{phase}", get(phase))
        .route("/api/v1/games/{id}/map.svg", get(map_svg))
        .route("/api/v1/games/{id}/map.png", get(map_png))
        .route("/api/v1/games/{id}/export", get(export))
        .route("/api/v1/games/{id}/animation.png", get(animation))
        .route("/api/v1/games/{id}/messages", get(messages).post(send_message))
        .route("/api/v1/games/{id}/events", get(events::stream))
        .route("/api/v1/games/{id}/legal", get(legal))
        .route(
            "/api/v1/games/{id}/edit",
            post(edit).layer(DefaultBodyLimit::max(MAX_LINES_BODY)),
        )
        .route("/api/v1/games/{id}/edits", get(edits))
}

/// A JSON body whose rejections answer in the API's error format. A
/// body with U+0000 in a string is refused before it is read
/// ([`crate::chars::refuse_nul`]).
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let Json(v) = Json::<Json_>::from_request(req, state).await.map_err(json_rejection)?;
        typed(v).map(Body)
    }
}

/// A JSON value, checked for U+0000, as the type a handler takes.
fn typed<T: DeserializeOwned>(v: Json_) -> ApiResult<T> {
    crate::chars::refuse_nul(&v)?;
    serde_json::from_value(v).map_err(|e| ApiError::bad_request(format!("the JSON body: {e}")))
}

fn json_rejection(r: JsonRejection) -> ApiError {
    let status = r.status();
    let code = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        _ => "bad_request",
    };
    let status = if status == StatusCode::UNPROCESSABLE_ENTITY {
        StatusCode::BAD_REQUEST
    } else {
        status
    };
    let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
        TOO_LARGE.to_string()
    } else {
        r.body_text()
    };
    ApiError::new(status, code, message)
}

/// What a body over the limit is told.
pub const TOO_LARGE: &str = "the request body is too large: 64 KiB at most (256 KiB for orders and edits)";

/// A request's raw body, refused in the API's error format (413
/// `too_large`) when it is over the limit, as a JSON body is.
pub struct RawBody(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for RawBody {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        axum::body::Bytes::from_request(req, state)
            .await
            .map(RawBody)
            .map_err(|r| match r.status() {
                StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", TOO_LARGE),
                status => ApiError::new(status, "bad_request", r.body_text()),
            })
    }
}

/// A JSON body that may be left out.
fn optional_body<T: DeserializeOwned>(bytes: &[u8]) -> ApiResult<Option<T>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let v: Json_ = serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request(format!("the JSON body: {e}")))?;
    typed(v).map(Some)
}

/// A game id from the path.
pub fn game_id_of(raw: &str) -> ApiResult<i64> {
    raw.parse::<i64>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| ApiError::not_found(format!("no game `{raw}`")))
}

/// The session token of the request: the bearer token, else the web
/// page's session cookie.
pub fn token(headers: &HeaderMap) -> Option<String> {
    if let Some(v) = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        let t = v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer "))?;
        return Some(t.trim().to_string());
    }
    cookie(headers, SESSION_COOKIE)
}

/// The web page's session cookie (its CSRF token is a hash of it: see
/// [`crate::csrf`]).
pub const SESSION_COOKIE: &str = "dip_session";

/// A cookie's value.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Refuses a state-changing API request made with the session cookie
/// unless it comes from this origin and carries the session's CSRF token
/// (bearer-token requests need none: no browser sends those by itself).
pub async fn csrf_guard(req: Request, next: axum::middleware::Next) -> Response {
    let safe = matches!(
        *req.method(),
        axum::http::Method::GET | axum::http::Method::HEAD | axum::http::Method::OPTIONS
    );
    // The web page's forms carry the token in their body and are checked there.
    let api = req.uri().path().starts_with("/api/");
    let h = req.headers();
    if api && !safe && h.get(header::AUTHORIZATION).is_none() && cookie(h, SESSION_COOKIE).is_some() {
        let sent = h.get("x-csrf-token").and_then(|v| v.to_str().ok());
        if let Err(e) = crate::csrf::check(h, sent) {
            return e.into_response();
        }
    }
    next.run(req).await
}

/// The signed-in account, if the request carries a live token.
pub async fn viewer(st: &AppState, headers: &HeaderMap) -> ApiResult<Option<Account>> {
    let Some(t) = token(headers) else { return Ok(None) };
    Ok(Some(session(st, &t).await?.0))
}

/// The account of a live session's token, and when the session expires.
pub async fn session(st: &AppState, token: &str) -> ApiResult<(Account, i64)> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::unauthorized("the token is malformed"));
    }
    let t = token.to_string();
    st.read(move |tx| auth::session_of(tx, &t))
        .await?
        .ok_or_else(|| ApiError::unauthorized("the token is unknown or has expired: log in again"))
}

/// The signed-in account, required.
pub async fn account(st: &AppState, headers: &HeaderMap) -> ApiResult<Account> {
    viewer(st, headers)
        .await?
        .ok_or_else(|| ApiError::unauthorized("log in first: send `Authorization: Bearer TOKEN`"))
}

/// What a player's request about a game starts with: the server's
/// variants, the game's id (404 when the path names none) and the
/// signed-in account (401 without one), checked in that order.
async fn player_of_game(st: &AppState, headers: &HeaderMap, id: &str) -> ApiResult<(Variants, i64, Account)> {
    let id = game_id_of(id)?;
    let who = account(st, headers).await?;
    Ok((st.variants.clone(), id, who))
}

async fn health(State(st): State<AppState>) -> ApiResult<Json<Json_>> {
    st.read(|tx| crate::db::ping(tx).map_err(ApiError::from)).await?;
    Ok(Json(json!({"status": "ok"})))
}

async fn variants(State(st): State<AppState>) -> Json<Json_> {
    let list: Vec<Json_> = crate::variants::names()
        .into_iter()
        .filter_map(|n| crate::variants::get(&st.variants, n).ok())
        .map(|l| {
            json!({
                "name": l.variant().name,
                "title": l.variant().title,
                "powers": l.variant().map.powers().iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            })
        })
        .collect();
    Json(json!({"variants": list}))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

async fn register(State(st): State<AppState>, Peer(peer): Peer, Body(c): Body<Credentials>) -> ApiResult<Response> {
    auth::check_new(&c.name, &c.password)?;
    let hash = st.hash_new_password(&c.password, peer).await?;
    let name = c.name.clone();
    let acc = st.write(move |tx| auth::create_account(tx, &name, &hash)).await?;
    Ok((StatusCode::CREATED, Json(json!({"id": acc.id, "name": acc.name}))).into_response())
}

async fn login(State(st): State<AppState>, Peer(peer): Peer, Body(c): Body<Credentials>) -> ApiResult<Json<Json_>> {
    let (acc, token) = st.log_in(&c.name, &c.password, peer).await?;
    Ok(Json(
        json!({"token": token, "name": acc.name, "expires_in": auth::SESSION_MS / 1000}),
    ))
}

async fn logout(State(st): State<AppState>, headers: HeaderMap) -> ApiResult<StatusCode> {
    account(&st, &headers).await?;
    let t = token(&headers).unwrap_or_default();
    st.write(move |tx| auth::delete_session(tx, &t)).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn create_game(
    State(st): State<AppState>,
    headers: HeaderMap,
    Body(new): Body<lobby::NewGame>,
) -> ApiResult<Response> {
    let variants = st.variants.clone();
    let who = account(&st, &headers).await?;
    let mut new = new;
    new.password_hash = new_game_password(&st, new.password.as_deref()).await?;
    new.daide_ports = st.daide_ports.clone();
    let daide = new.daide;
    let (id, port) = st
        .write(move |tx| {
            let id = lobby::create(tx, &variants, &who, new)?;
            let port = crate::game::load(tx, id, Lock::None)?.options.daide_port;
            Ok((id, port))
        })
        .await?;
    st.changed();
    let mut body = json!({"id": id});
    if daide {
        body["daide_port"] = json!(port);
    }
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    status: Option<String>,
    mine: Option<String>,
    limit: Option<String>,
    before: Option<String>,
    full: Option<String>,
}

fn flag(v: Option<&str>) -> bool {
    matches!(v, Some("1" | "true" | "yes"))
}

async fn list_games(
    State(st): State<AppState>,
    headers: HeaderMap,
    q: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<Json_>> {
    let variants = st.variants.clone();
    let Query(q) = q.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let who = viewer(&st, &headers).await?;
    let number = |name: &str, v: &Option<String>| -> ApiResult<Option<i64>> {
        v.as_deref()
            .map(|v| {
                v.parse::<i64>()
                    .map_err(|_| ApiError::bad_request(format!("{name}: `{v}` is not a whole number")))
            })
            .transpose()
    };
    let limit = number("limit", &q.limit)?.unwrap_or(lobby::DEFAULT_LIST as i64);
    let filter = lobby::Filter {
        status: q.status.clone(),
        mine: flag(q.mine.as_deref()),
        limit: usize::try_from(limit).unwrap_or(0),
        before: number("before", &q.before)?,
        full: flag(q.full.as_deref()),
    };
    Ok(Json(
        st.read(move |tx| lobby::list_page(tx, &variants, who.as_ref(), &filter))
            .await?,
    ))
}

async fn get_game(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let variants = st.variants.clone();
    let id = game_id_of(&id)?;
    let who = viewer(&st, &headers).await?;
    Ok(Json(
        st.read(move |tx| {
            let g = crate::game::load(tx, id, Lock::None)?;
            crate::game::view(tx, &variants, &g, who.map(|a| a.id))
        })
        .await?,
    ))
}

async fn patch_game(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(p): Body<play::Patch>,
) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    let view = st
        .write(move |tx| {
            play::patch(tx, &variants, id, &who, &p)?;
            let g = crate::game::load(tx, id, Lock::None)?;
            crate::game::view(tx, &variants, &g, Some(who.id))
        })
        .await?;
    st.changed();
    Ok(Json(view))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    power: Option<String>,
    /// A private game's invitation token, or its password.
    invite: Option<String>,
    password: Option<String>,
}

/// A private game's password checked and hashed (on the hashing threads).
pub async fn new_game_password(st: &AppState, password: Option<&str>) -> ApiResult<Option<String>> {
    let Some(p) = password else { return Ok(None) };
    let n = p.chars().count();
    if !(4..=256).contains(&n) {
        return Err(ApiError::bad_request("password: between 4 and 256 characters"));
    }
    let p = p.to_string();
    Ok(Some(st.hasher.run(move || auth::hash_password(&p)).await??))
}

async fn join(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawBody(body): RawBody,
) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    let b = optional_body::<JoinBody>(&body)?.unwrap_or_default();
    crate::private::may_join(&st, id, &who, b.invite, b.password).await?;
    let power = b.power;
    let view = st
        .write(move |tx| lobby::join(tx, &variants, id, &who, power.as_deref()))
        .await?;
    st.changed();
    Ok(Json(view))
}

async fn leave(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<StatusCode> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    let by = st.by.clone();
    st.write(move |tx| lobby::leave(tx, &variants, id, &who, &by)).await?;
    st.changed();
    Ok(StatusCode::NO_CONTENT)
}

async fn start(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    let view = st
        .write(move |tx| {
            lobby::start(tx, &variants, id, &who)?;
            let g = crate::game::load(tx, id, Lock::None)?;
            crate::game::view(tx, &variants, &g, Some(who.id))
        })
        .await?;
    st.changed();
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OrdersBody {
    orders: Vec<String>,
    phase: Option<String>,
}

async fn put_orders(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(b): Body<OrdersBody>,
) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    // Read and check beside other requests; only storing takes the writer.
    let checked = st
        .read(move |tx| play::check_orders(tx, &variants, id, &who, &b.orders, b.phase.as_deref()))
        .await?;
    let checked = st
        .write(move |tx| play::store_orders(tx, id, &checked).map(|_| checked))
        .await?;
    st.changed();
    Ok(Json(checked.answer))
}

async fn get_orders(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    Ok(Json(
        st.read(move |tx| play::get_orders(tx, &variants, id, &who)).await?,
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadyBody {
    ready: bool,
    /// The phase the player is ready for (409 when the game has left it).
    phase: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VoteBody {
    vote: bool,
}

async fn ready(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(b): Body<ReadyBody>,
) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    let by = st.by.clone();
    let ready = b.ready;
    let processed = st
        .write(move |tx| play::ready_in(tx, &variants, id, &who, b.ready, b.phase.as_deref(), &by))
        .await?;
    st.changed();
    Ok(Json(json!({"ready": ready, "processed": processed})))
}

async fn draw(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(b): Body<VoteBody>,
) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    let ended = st.write(move |tx| play::draw(tx, &variants, id, &who, b.vote)).await?;
    st.changed();
    Ok(Json(json!({"vote": b.vote, "finished": ended})))
}

async fn concede(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawBody(body): RawBody,
) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    let vote = optional_body::<VoteBody>(&body)?.map(|b| b.vote).unwrap_or(true);
    let ended = st.write(move |tx| play::concede(tx, &variants, id, &who, vote)).await?;
    st.changed();
    Ok(Json(json!({"vote": vote, "finished": ended})))
}

async fn process(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    let by = st.by.clone();
    let view = st
        .write(move |tx| {
            play::process_now(tx, &variants, id, &who, &by)?;
            let g = crate::game::load(tx, id, Lock::None)?;
            crate::game::view(tx, &variants, &g, Some(who.id))
        })
        .await?;
    st.changed();
    Ok(Json(view))
}

async fn phases(State(st): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let variants = st.variants.clone();
    let id = game_id_of(&id)?;
    Ok(Json(st.read(move |tx| history::list(tx, &variants, id)).await?))
}

async fn phase(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path((id, phase)): Path<(String, String)>,
) -> ApiResult<Json<Json_>> {
    let variants = st.variants.clone();
    let id = game_id_of(&id)?;
    let who = viewer(&st, &headers).await?;
    Ok(Json(
        st.read(move |tx| history::detail(tx, &variants, id, &phase, who.as_ref()))
            .await?,
    ))
}

fn phase_param(q: &HashMap<String, String>) -> Option<String> {
    q.get("phase").filter(|p| !p.is_empty()).cloned()
}

async fn map_svg(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let (variants, pictures) = (st.variants.clone(), st.pictures.clone());
    let id = game_id_of(&id)?;
    let phase = phase_param(&q);
    let clickable = q.get("clickable").is_some_and(|v| v == "1");
    // The map of now with the last phase's results: the page's (clickable)
    // unless `results=0`; another's only with `results=1`.
    let results = q.get("results").map_or(clickable, |v| v == "1");
    let svg = st
        .read(move |tx| {
            let maps = history::Maps {
                variants: &variants,
                pictures: &pictures,
            };
            let request = history::MapRequest {
                phase: phase.as_deref(),
                clickable,
                results,
            };
            history::map_svg(tx, maps, id, request)
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

async fn map_png(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let (variants, pictures) = (st.variants.clone(), st.pictures.clone());
    let id = game_id_of(&id)?;
    let phase = phase_param(&q);
    let png = st
        .read(move |tx| {
            let maps = history::Maps {
                variants: &variants,
                pictures: &pictures,
            };
            history::map_png(tx, maps, id, phase.as_deref())
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "image/png")], png).into_response())
}

async fn export(
    State(st): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let variants = st.variants.clone();
    let id = game_id_of(&id)?;
    match q.get("format").map(String::as_str).unwrap_or("mila") {
        "mila" => {
            let j = st.read(move |tx| history::export_mila(tx, &variants, id)).await?;
            Ok((
                [(
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"dip-game-{id}.json\""),
                )],
                Json(j),
            )
                .into_response())
        }
        "dipwork" => {
            let tar = st.read(move |tx| history::export_dipwork(tx, &variants, id)).await?;
            Ok((
                [
                    (header::CONTENT_TYPE, "application/x-tar".to_string()),
                    (
                        header::CONTENT_DISPOSITION,
                        format!("attachment; filename=\"dip-game-{id}.tar\""),
                    ),
                ],
                tar,
            )
                .into_response())
        }
        other => Err(ApiError::bad_request(format!(
            "format: `{other}` is not one of mila, dipwork"
        ))),
    }
}

async fn messages(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let id = game_id_of(&id)?;
    let who = viewer(&st, &headers).await?;
    Ok(Json(st.read(move |tx| press::list(tx, id, who.as_ref())).await?))
}

async fn send_message(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(m): Body<press::NewMessage>,
) -> ApiResult<Response> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    let out = st.write(move |tx| press::send(tx, &variants, id, &who, &m)).await?;
    st.changed();
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

async fn legal(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    Ok(Json(st.read(move |tx| play::legal(tx, &variants, id, &who)).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EditBody {
    edits: Vec<String>,
}

async fn edit(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(b): Body<EditBody>,
) -> ApiResult<Json<Json_>> {
    let (variants, id, who) = player_of_game(&st, &headers, &id).await?;
    let view = st
        .write(move |tx| {
            crate::edit::edit(tx, &variants, id, &who, &b.edits)?;
            let g = crate::game::load(tx, id, crate::game::Lock::None)?;
            crate::game::view(tx, &variants, &g, Some(who.id))
        })
        .await?;
    st.changed();
    Ok(Json(view))
}

async fn edits(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let id = game_id_of(&id)?;
    let who = viewer(&st, &headers).await?.map(|a| a.id);
    Ok(Json(st.read(move |tx| history::edits(tx, id, who)).await?))
}

async fn animation(State(st): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let (variants, pictures) = (st.variants.clone(), st.pictures.clone());
    let id = game_id_of(&id)?;
    let png = st
        .read(move |tx| history::animation_png(tx, &variants, &pictures, id))
        .await?;
    Ok(([(header::CONTENT_TYPE, "image/png")], png).into_response())
}
