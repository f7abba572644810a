//! The board over HTTP: the page (`/board/{id}`) and its API
//! (`/api/v1/boards/{id}/…`, docs/board.md), the same under `dip board`
//! and `dip serve`. State-changing requests come only from the board's
//! own page: they carry its token (`X-CSRF-Token`), and a request from
//! another origin (`Origin`, `Sec-Fetch-Site`) is refused; the local
//! board also refuses any request whose `Host` is not this machine's
//! loopback address, so that a web page cannot reach it by renaming
//! itself (DNS rebinding).

use super::edit::Edit;
use super::files::{self, Format};
use super::orders::{self, How};
use super::render::{self, MapQuery};
use super::{kept, view, Board, BoardError, Boards, Keeper, Shared};
use crate::error::{ApiError, ApiResult};
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value as Json_};
use std::sync::{Arc, Mutex};
use tokio::sync::OwnedMutexGuard;

/// What the board's handlers share: the boards, and under `dip serve`
/// the server (accounts, storage of kept boards).
#[derive(Clone)]
pub struct Host {
    pub boards: Boards,
    pub app: Option<crate::AppState>,
}

impl From<BoardError> for ApiError {
    fn from(e: BoardError) -> Self {
        ApiError::bad_request(e.0)
    }
}

/// The board's routes.
pub fn router() -> Router<Host> {
    Router::new()
        .route("/board/{id}", get(page))
        .route("/board/shared/{token}", get(shared_page))
        .route("/api/v1/boards", post(create))
        .route("/api/v1/boards/{id}", get(get_view))
        .route("/api/v1/boards/{id}/orders", post(add_orders))
        .route("/api/v1/boards/{id}/orders/delete", post(delete_order))
        .route("/api/v1/boards/{id}/resolve", post(resolve))
        .route("/api/v1/boards/{id}/next", post(next_season))
        .route("/api/v1/boards/{id}/undo", post(undo))
        .route("/api/v1/boards/{id}/edit", post(edit))
        .route(
            "/api/v1/boards/{id}/open",
            post(open).layer(DefaultBodyLimit::max(files::MAX_UPLOAD)),
        )
        .route("/api/v1/boards/{id}/save", get(download).post(save_local))
        .route("/api/v1/boards/{id}/map.svg", get(map_svg))
        .route("/api/v1/boards/{id}/map.png", get(map_png))
        .route("/api/v1/boards/{id}/map.bmp", get(map_bmp))
        .route("/api/v1/boards/{id}/animation.png", get(animation))
}

/// `dip board`: the board's routes alone, on this machine, no storage.
/// `home` is the board `/` opens.
pub fn local_app(boards: Boards, home: String) -> Router {
    let host = Host { boards, app: None };
    router()
        .route("/", get(move || async move { Redirect::to(&format!("/board/{home}")) }))
        .route("/assets/{file}", get(crate::web::asset))
        .fallback(|| async { ApiError::not_found("no such page or API endpoint") })
        .layer(axum::middleware::from_fn_with_state(host.clone(), local_guard))
        .layer(DefaultBodyLimit::max(crate::routes::MAX_BODY))
        .layer(tower_http::set_header::SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(crate::web::CSP),
        ))
        .layer(tower_http::set_header::SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        // The fastest gzip: the map of a new position (250 kB of SVG) is
        // compressed for every Resolve, and the default level's time was
        // most of the server's part of the round trip; a fifth larger.
        .layer(tower_http::compression::CompressionLayer::new().quality(tower_http::CompressionLevel::Fastest))
        .with_state(host)
}

fn safe(m: &Method) -> bool {
    matches!(*m, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// A request from another site: its `Origin` is not the `Host` it was
/// sent to, or the browser says it crosses sites.
pub fn cross_origin(h: &HeaderMap) -> Option<String> {
    if let Some(site) = h.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        if !matches!(site, "same-origin" | "none") {
            return Some(format!("a request from another site (Sec-Fetch-Site: {site})"));
        }
    }
    let host = h.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    if let Some(origin) = h.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        let bare = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .unwrap_or("");
        if origin == "null" || bare != host {
            return Some(format!("a request from another origin ({origin})"));
        }
    }
    None
}

/// The local board answers only requests addressed to this machine's
/// loopback address and, when they change something, sent by its own
/// page (its token, its origin).
async fn local_guard(State(host): State<Host>, req: Request, next: axum::middleware::Next) -> Response {
    let h = req.headers();
    let name = h
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(|v| match v.rsplit_once(':') {
            Some((n, port)) if port.bytes().all(|b| b.is_ascii_digit()) => n.to_string(),
            _ => v.to_string(),
        })
        .unwrap_or_default();
    if !matches!(name.as_str(), "127.0.0.1" | "localhost" | "[::1]") {
        return ApiError::forbidden(format!(
            "this board answers only at 127.0.0.1 (the request was for `{name}`)"
        ))
        .into_response();
    }
    if !safe(req.method()) {
        if let Some(why) = cross_origin(h) {
            return ApiError::forbidden(format!("{why}: the board takes changes only from its own page"))
                .into_response();
        }
        let sent = h.get("x-csrf-token").and_then(|v| v.to_str().ok()).unwrap_or("");
        if sent.is_empty() || sent != host.boards.settings.token {
            return ApiError::forbidden("missing or wrong board token: reload the page").into_response();
        }
    }
    next.run(req).await
}

/// Under `dip serve`: a change to a board comes from a page of this
/// server (its origin) with the browser's CSRF token (a hash of its
/// session, or signed out of its pre-session cookie: crate::csrf).
fn hosted_check(host: &Host, h: &HeaderMap) -> ApiResult<()> {
    if host.app.is_none() {
        return Ok(());
    }
    if let Some(why) = cross_origin(h) {
        return Err(ApiError::forbidden(format!(
            "{why}: boards take changes only from this server's pages"
        )));
    }
    if h.get(header::AUTHORIZATION).is_some() {
        return Ok(());
    }
    let sent = h.get("x-csrf-token").and_then(|v| v.to_str().ok());
    crate::csrf::check(h, sent)
}

/// What a request does with a board.
#[derive(Clone, Copy, PartialEq, Eq)]
enum May {
    Read,
    Change,
}

impl Host {
    /// The board under `id`: held in memory, else (under `dip serve`) a
    /// kept board read from storage.
    async fn board(&self, id: &str) -> ApiResult<Shared> {
        if id.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(ApiError::not_found(format!("no board `{id}`")));
        }
        if let Some(b) = self.boards.get(id) {
            return Ok(b);
        }
        if let Some(st) = &self.app {
            let key = id.to_string();
            let row = st.read(move |tx| Ok(crate::db::boards::get(tx, &key)?)).await?;
            if let Some(k) = row {
                let mut b = kept::from_json(&self.boards, &k.board)
                    .map_err(|e| ApiError::internal(format!("board {id}: {e}")))?;
                b.keeper = Some(Keeper {
                    owner: k.owner,
                    share: k.share,
                });
                // Another request may have read it meanwhile: one copy.
                if let Some(b) = self.boards.get(id) {
                    return Ok(b);
                }
                return Ok(self.boards.insert_as(id, b));
            }
        }
        Err(ApiError::not_found(format!(
            "no board `{id}` (a board that is not kept is forgotten after a day or when the server restarts)"
        )))
    }

    /// The signed-in account's id, under `dip serve`.
    async fn viewer(&self, headers: &HeaderMap) -> Option<i64> {
        match &self.app {
            Some(st) => crate::routes::viewer(st, headers).await.ok().flatten().map(|a| a.id),
            None => None,
        }
    }

    /// The board, locked, when the request may use it: anyone may use a
    /// board that is not kept (its address is its key); a kept board is
    /// its owner's, and others may read it with its read-only link.
    async fn lock(
        &self,
        id: &str,
        headers: &HeaderMap,
        share: Option<&str>,
        may: May,
    ) -> ApiResult<OwnedMutexGuard<Board>> {
        if may == May::Change {
            hosted_check(self, headers)?;
        }
        let b = self.board(id).await?;
        let guard = b.lock_owned().await;
        if let Some(k) = &guard.keeper {
            let me = self.viewer(headers).await;
            let owner = me == Some(k.owner);
            let shared = may == May::Read && share.is_some_and(|s| s == k.share);
            if !owner && !shared {
                return Err(ApiError::forbidden(if may == May::Change {
                    "this board is kept by its owner: you may look at it, or File ▸ Open a copy"
                } else {
                    "this board is kept by its owner: ask for its read-only link"
                }));
            }
        }
        Ok(guard)
    }

    fn folder(&self) -> Option<String> {
        self.boards.settings.folder.as_ref().map(|f| f.display().to_string())
    }

    fn view(&self, b: &Board, at: Option<usize>) -> Json_ {
        let mut v = view::view(b, at, self.folder().as_deref());
        if let Some(k) = &b.keeper {
            v["kept"] = json!(true);
            v["share_url"] = json!(format!("/board/shared/{}", k.share));
        }
        v
    }

    /// Writes a kept board to storage.
    async fn keep(&self, id: &str, board: &Board) -> ApiResult<()> {
        let (Some(st), Some(_)) = (&self.app, &board.keeper) else {
            return Ok(());
        };
        let json = kept::to_json(board);
        let key = id.to_string();
        let now = crate::time::now_ms();
        st.write(move |tx| Ok(crate::db::boards::store(tx, &key, &json, now)?))
            .await?;
        Ok(())
    }
}

/// Runs `f` on the board on a blocking thread (resolving and drawing take
/// the CPU), on a copy: a refused change leaves the board as it was; a
/// kept board is written to storage before the change counts. Answers
/// the board's view.
async fn change(
    host: &Host,
    id: &str,
    headers: &HeaderMap,
    f: impl FnOnce(&Boards, &mut Board) -> Result<Option<String>, BoardError> + Send + 'static,
) -> ApiResult<Json<Json_>> {
    let mut guard = host.lock(id, headers, None, May::Change).await?;
    let boards = host.boards.clone();
    let current = guard.clone();
    let (work, note) = tokio::task::spawn_blocking(move || {
        let mut work = current;
        let note = f(&boards, &mut work)?;
        Ok::<_, BoardError>((work, note))
    })
    .await
    .map_err(|e| ApiError::internal(format!("board task: {e}")))??;
    host.keep(id, &work).await?;
    *guard = work;
    let mut v = host.view(&guard, None);
    if let Some(n) = note {
        v["note"] = json!(n);
    }
    Ok(Json(v))
}

/// A read of the board on a blocking thread.
async fn read<T: Send + 'static>(
    host: &Host,
    id: &str,
    headers: &HeaderMap,
    share: Option<&str>,
    f: impl FnOnce(&Host, &Board) -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    let guard = host.lock(id, headers, share, May::Read).await?;
    let h = host.clone();
    tokio::task::spawn_blocking(move || f(&h, &guard))
        .await
        .map_err(|e| ApiError::internal(format!("board task: {e}")))?
}

#[derive(Deserialize)]
struct AtQuery {
    at: Option<usize>,
    share: Option<String>,
}

async fn get_view(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<AtQuery>,
) -> ApiResult<Json<Json_>> {
    let share = q.share.clone();
    let v = read(&host, &id, &headers, share.as_deref(), move |h, board| {
        if let Some(at) = q.at {
            if at >= board.game.history().len() {
                return Err(ApiError::not_found(format!(
                    "no played phase {} (the board has {})",
                    at + 1,
                    board.game.history().len()
                )));
            }
        }
        Ok(h.view(board, q.at))
    })
    .await?;
    Ok(Json(v))
}

#[derive(Deserialize)]
struct NewBoard {
    #[serde(default)]
    variant: Option<String>,
    /// Another board to copy.
    #[serde(default)]
    from: Option<String>,
    /// The read-only link's token of the board copied, when not one's own.
    #[serde(default)]
    share: Option<String>,
}

async fn create(State(host): State<Host>, headers: HeaderMap, body: Option<Json<Json_>>) -> ApiResult<Response> {
    hosted_check(&host, &headers)?;
    let req: NewBoard = match body {
        Some(Json(v)) => body_of(v)?,
        None => NewBoard {
            variant: None,
            from: None,
            share: None,
        },
    };
    let board = match (&req.from, &req.variant) {
        (Some(from), _) => {
            // A copy of a board one may look at (a read-only link's too).
            let guard = host.lock(from, &headers, req.share.as_deref(), May::Read).await?;
            let mut copy = guard.clone();
            copy.file = None;
            copy.keeper = None;
            copy.undo.clear();
            copy
        }
        (None, v) => host.boards.start(v.as_deref().unwrap_or("standard"))?,
    };
    let id = create_board(&host, &headers, board, None).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": id, "url": format!("/board/{id}")})),
    )
        .into_response())
}

/// Holds a new board: kept in storage for a signed-in user under `dip
/// serve` (named `name`, else its title), in memory otherwise.
pub async fn create_board(
    host: &Host,
    headers: &HeaderMap,
    mut board: Board,
    name: Option<String>,
) -> ApiResult<String> {
    let id = Boards::new_id();
    if let (Some(st), Some(owner)) = (&host.app, host.viewer(headers).await) {
        let share = super::new_token();
        board.keeper = Some(Keeper {
            owner,
            share: share.clone(),
        });
        let now = crate::time::now_ms();
        let row = crate::db::boards::Kept {
            id: id.clone(),
            owner,
            name: name.unwrap_or_else(|| board.shown_title()),
            share,
            board: kept::to_json(&board),
            created: now,
            updated: now,
        };
        st.write(move |tx| Ok(crate::db::boards::insert(tx, &row)?)).await?;
    }
    host.boards.insert_as(&id, board);
    Ok(id)
}

#[derive(Deserialize)]
struct OrdersBody {
    text: String,
    #[serde(default)]
    power: Option<String>,
    #[serde(default)]
    at: Option<usize>,
    #[serde(default)]
    import: bool,
    #[serde(default)]
    paste: bool,
}

fn body_of<T: serde::de::DeserializeOwned>(v: Json_) -> ApiResult<T> {
    crate::chars::refuse_nul(&v)?;
    serde_json::from_value(v).map_err(|e| ApiError::bad_request(format!("the JSON body: {e}")))
}

async fn add_orders(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(v): Json<Json_>,
) -> ApiResult<Json<Json_>> {
    let req: OrdersBody = body_of(v)?;
    let how = if req.import {
        How::Import
    } else if req.paste {
        How::Paste
    } else {
        How::Typed
    };
    let unread = Arc::new(Mutex::new(Vec::new()));
    let out = unread.clone();
    let mut v = change(&host, &id, &headers, move |_, b| {
        b.rewind_to(req.at)?;
        let power = match req.power.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            Some(p) => Some(b.power(p)?),
            None => None,
        };
        let entered = orders::enter(b, &req.text, power, how)?;
        let note = match how {
            How::Import => Some(format!(
                "{} orders imported, {} lines that are no orders left out",
                entered.added,
                entered.unread.len()
            )),
            How::Paste if !entered.unread.is_empty() => Some(format!(
                "{} orders pasted; {} lines could not be read: mend them in the text box",
                entered.added,
                entered.unread.len()
            )),
            _ => None,
        };
        *out.lock().unwrap_or_else(|p| p.into_inner()) = entered.unread;
        Ok(note)
    })
    .await?;
    v.0["unread"] = json!(*unread.lock().unwrap_or_else(|p| p.into_inner()));
    Ok(v)
}

#[derive(Deserialize)]
struct DeleteBody {
    power: String,
    line: usize,
    #[serde(default)]
    at: Option<usize>,
}

async fn delete_order(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(v): Json<Json_>,
) -> ApiResult<Json<Json_>> {
    let req: DeleteBody = body_of(v)?;
    change(&host, &id, &headers, move |_, b| {
        b.rewind_to(req.at)?;
        let p = b.power(&req.power)?;
        orders::delete(b, p, req.line)?;
        Ok(None)
    })
    .await
}

#[derive(Deserialize, Default)]
struct AtBody {
    #[serde(default)]
    at: Option<usize>,
}

async fn resolve(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body_: Option<Json<Json_>>,
) -> ApiResult<Json<Json_>> {
    let req: AtBody = match body_ {
        Some(Json(v)) => body_of(v)?,
        None => AtBody::default(),
    };
    change(&host, &id, &headers, move |_, b| {
        b.rewind_to(req.at)?;
        b.resolve()?;
        Ok(None)
    })
    .await
}

async fn next_season(State(host): State<Host>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult<Json<Json_>> {
    change(&host, &id, &headers, |_, b| {
        b.next_season()?;
        Ok(None)
    })
    .await
}

async fn undo(State(host): State<Host>, Path(id): Path<String>, headers: HeaderMap) -> ApiResult<Json<Json_>> {
    change(&host, &id, &headers, |_, b| {
        b.undo()?;
        Ok(None)
    })
    .await
}

async fn edit(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(v): Json<Json_>,
) -> ApiResult<Json<Json_>> {
    let e: Edit = body_of(v)?;
    change(&host, &id, &headers, move |boards, b| {
        super::edit::apply(boards, b, e)?;
        Ok(None)
    })
    .await
}

#[derive(Deserialize)]
struct OpenQuery {
    #[serde(default)]
    name: Option<String>,
}

/// File ▸ Open: the bytes of a file (or a zip or tar of a game
/// directory). A file that is not a game leaves the board as it was.
async fn open(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<OpenQuery>,
    bytes: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> ApiResult<Json<Json_>> {
    let name = q.name.unwrap_or_else(|| "upload".into());
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("{name}: larger than 10 MB: not opened"),
        )
    };
    let bytes = bytes.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError::bad_request(e.body_text())
        }
    })?;
    if bytes.len() > files::MAX_UPLOAD {
        return Err(too_large());
    }
    change(&host, &id, &headers, move |boards, b| {
        let mut opened = files::open_upload(boards, &name, &bytes)?;
        // Undo brings back the board as it was before.
        b.remember();
        opened.undo = std::mem::take(&mut b.undo);
        opened.version = b.version + 1;
        *b = opened;
        Ok(Some(format!("opened {name}")))
    })
    .await
}

#[derive(Deserialize)]
struct SaveQuery {
    format: Option<String>,
    name: Option<String>,
    share: Option<String>,
}

fn attachment(name: &str, content_type: &str, bytes: Vec<u8>) -> Response {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-+".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_str(content_type).unwrap_or(HeaderValue::from_static("application/octet-stream")),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&format!("attachment; filename=\"{safe}\""))
                    .unwrap_or(HeaderValue::from_static("attachment")),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        bytes,
    )
        .into_response()
}

/// Save as a download (every format).
async fn download(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<SaveQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(q.format.as_deref().unwrap_or("dip"))?;
    let name = q.name.clone();
    let saved = read(&host, &id, &headers, q.share.as_deref(), move |_, b| {
        Ok(files::save(b, format, name.as_deref())?)
    })
    .await?;
    Ok(attachment(&saved.name, format.content_type(), saved.bytes))
}

#[derive(Deserialize)]
struct SaveBody {
    format: String,
    #[serde(default)]
    name: Option<String>,
}

/// The local board's Save: into its folder, never outside it.
async fn save_local(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(v): Json<Json_>,
) -> ApiResult<Json<Json_>> {
    let req: SaveBody = body_of(v)?;
    let Some(folder) = host.boards.settings.folder.clone() else {
        return Err(ApiError::bad_request(
            "this board has no folder to save into: download the file instead (GET …/save?format=)",
        ));
    };
    let format = Format::parse(&req.format)?;
    change(&host, &id, &headers, move |_, b| {
        let saved = files::save(b, format, req.name.as_deref())?;
        let path = files::write_into(&folder, &saved)?;
        b.file = Some(saved.name.clone());
        b.format = Some(format);
        let mut note = format!("saved {}", path.display());
        if let Some(n) = saved.note {
            note = format!("{note} ({n})");
        }
        Ok(Some(note))
    })
    .await
}

async fn picture(host: Host, id: String, headers: HeaderMap, q: MapQuery, kind: &'static str) -> ApiResult<Response> {
    let pictures = host.boards.pictures.clone();
    let download = q.download.is_some();
    let share = q.share.clone();
    let (bytes, name) = read(&host, &id, &headers, share.as_deref(), move |_, board| {
        let stem = files::suggested_name(board);
        let stem = stem.trim_end_matches(".dip").to_string();
        let bytes = match kind {
            "svg" => render::svg(&pictures, board, &q).map(String::into_bytes),
            "png" => render::png(&pictures, board, &q),
            _ => render::bmp(&pictures, board, &q),
        }?;
        Ok((bytes, format!("{stem}.{kind}")))
    })
    .await?;
    let ctype = match kind {
        "svg" => "image/svg+xml",
        "png" => "image/png",
        _ => "image/bmp",
    };
    if download {
        return Ok(attachment(&name, ctype, bytes));
    }
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(ctype)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        bytes,
    )
        .into_response())
}

async fn map_svg(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<MapQuery>,
) -> ApiResult<Response> {
    picture(host, id, headers, q, "svg").await
}
async fn map_png(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<MapQuery>,
) -> ApiResult<Response> {
    picture(host, id, headers, q, "png").await
}
async fn map_bmp(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<MapQuery>,
) -> ApiResult<Response> {
    picture(host, id, headers, q, "bmp").await
}

#[derive(Deserialize)]
struct AnimationQuery {
    what: Option<String>,
    download: Option<String>,
    #[serde(flatten)]
    map: MapQuery,
}

/// DIP's Animate move and Animate game, as an animated PNG.
async fn animation(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<AnimationQuery>,
) -> ApiResult<Response> {
    let whole = match q.what.as_deref().unwrap_or("game") {
        "game" => true,
        "move" => false,
        w => return Err(ApiError::bad_request(format!("what={w}: move or game"))),
    };
    let pictures = host.boards.pictures.clone();
    let map = q.map;
    let share = map.share.clone();
    let bytes = read(&host, &id, &headers, share.as_deref(), move |_, b| {
        Ok(render::animation(&pictures, b, whole, &map)?)
    })
    .await?;
    if q.download.is_some() {
        return Ok(attachment(
            if whole { "game.png" } else { "move.png" },
            "image/png",
            bytes,
        ));
    }
    Ok(([(header::CONTENT_TYPE, HeaderValue::from_static("image/png"))], bytes).into_response())
}

/// The board's page.
async fn page(
    State(host): State<Host>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, crate::web::WebError> {
    Ok(page_of(&host, &id, &headers, None).await?)
}

/// A kept board's read-only link: its page, without anything that changes it.
async fn shared_page(
    State(host): State<Host>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Result<Response, crate::web::WebError> {
    let st = host
        .app
        .clone()
        .ok_or_else(|| ApiError::not_found("no shared boards here"))?;
    if token.len() != 32 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::not_found("no such shared board").into());
    }
    let t = token.clone();
    let row = st
        .read(move |tx| Ok(crate::db::boards::by_share(tx, &t)?))
        .await?
        .ok_or_else(|| ApiError::not_found("no such shared board (its owner may have deleted it)"))?;
    Ok(page_of(&host, &row.id, &headers, Some(&token)).await?)
}

async fn page_of(host: &Host, id: &str, headers: &HeaderMap, share: Option<&str>) -> ApiResult<Response> {
    let pictures = host.boards.pictures.clone();
    let local = host.app.is_none();
    let (token, new_csrf) = if local {
        (host.boards.settings.token.clone(), None)
    } else {
        crate::web::csrf_token(headers)
    };
    let me = match &host.app {
        Some(st) => crate::web::page_account(st, headers).await,
        None => None,
    };
    let variants = bundled_titles();
    let id_ = id.to_string();
    let share_ = share.map(str::to_string);
    let html = read(host, id, headers, share, move |_, board| {
        let svg = render::svg(
            &pictures,
            board,
            &MapQuery {
                clickable: Some("1".into()),
                ..MapQuery::default()
            },
        )?;
        let title = board.shown_title();
        Ok(crate::web::board::page(&crate::web::board::BoardPage {
            id: &id_,
            title: &title,
            svg: &svg,
            local,
            read_only: share_.is_some(),
            share: share_.as_deref(),
            token: &token,
            me: me.as_ref(),
            variants: &variants,
            picture: board.picture,
        }))
    })
    .await?;
    let mut r = Html(html).into_response();
    if let Some(c) = new_csrf {
        if let Ok(v) = HeaderValue::from_str(&format!(
            "{}={c}; Path=/; HttpOnly; SameSite=Strict",
            crate::csrf::NONCE_COOKIE
        )) {
            r.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    Ok(r)
}

/// The bundled variants New offers, with their titles read from their
/// files' `title` line (reading every variant whole would take a while).
fn bundled_titles() -> Vec<(String, String)> {
    dip_variants::bundled()
        .iter()
        .map(|(n, text)| {
            let title = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("title "))
                .map(|t| t.trim().to_string())
                .unwrap_or_else(|| n.to_string());
            (n.to_string(), title)
        })
        .collect()
}
