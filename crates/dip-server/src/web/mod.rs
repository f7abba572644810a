//! The web page: server-side HTML (maud, every user text escaped) and
//! plain JavaScript modules built into the binary, over the same API and
//! permissions as the JSON API. Signed-in browsers carry the session in an
//! HttpOnly, SameSite=Strict cookie; every form and script request that
//! changes something comes from this origin and sends the session's CSRF
//! token (see [`crate::csrf`]).

pub(crate) mod board;
mod boards;
mod pages;
mod war;

use crate::auth::{self, Account};
use crate::csrf::NONCE_COOKIE;
use crate::error::ApiError;
use crate::game::{self, Lock};
use crate::listen::Peer;
use crate::lobby::{self, NewGame};
use crate::routes::{cookie, viewer, SESSION_COOKIE};
use crate::AppState;
use axum::extract::{Form, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use std::collections::HashMap;

/// The pages' Content-Security-Policy: scripts only from the server's own
/// files (no inline script); inline styles are the map's SVG attributes.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
                       img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; \
                       form-action 'self'";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(lobby_page))
        .route("/signup", get(signup_page).post(signup))
        .route("/login", get(login_page).post(login))
        .route("/logout", post(logout))
        .route("/games/new", post(create))
        .route("/games/{id}", get(game_page))
        .route("/games/{id}/join", post(join))
        .route("/assets/{file}", get(asset))
        .merge(war::routes())
        .merge(boards::routes())
}

/// A page's answer: HTML, with the pre-session cookie set when a
/// signed-out browser has none.
struct Page {
    html: String,
    new_csrf: Option<String>,
}

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        let mut r = Html(self.html).into_response();
        if let Some(c) = self.new_csrf {
            set_cookie(
                &mut r,
                &format!("{NONCE_COOKIE}={c}; Path=/; HttpOnly; SameSite=Strict"),
            );
        }
        r
    }
}

fn set_cookie(r: &mut Response, value: &str) {
    if let Ok(v) = HeaderValue::from_str(value) {
        r.headers_mut().append(header::SET_COOKIE, v);
    }
}

/// An error shown as a page.
pub struct WebError(pub(crate) ApiError);

impl From<ApiError> for WebError {
    fn from(e: ApiError) -> Self {
        WebError(e)
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        if self.0.status.is_server_error() {
            tracing::error!("{}", self.0.message);
        }
        let (status, message) = (self.0.status, self.0.message);
        let mut r = (status, Html(pages::error(status, &message, None, ""))).into_response();
        r.extensions_mut().insert(ErrorPage(status, message));
        r
    }
}

/// An error page's status and message, for [`error_pages`] to draw again
/// for whoever is signed in.
#[derive(Clone)]
struct ErrorPage(StatusCode, String);

/// Draws an error page with the header of the signed-in player (a 403
/// offered "Log in" to a player who was signed in).
pub async fn error_pages(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let headers = req.headers().clone();
    let resp = next.run(req).await;
    let Some(ErrorPage(status, message)) = resp.extensions().get::<ErrorPage>().cloned() else {
        return resp;
    };
    error_page_for(&st, &headers, status, &message).await
}

/// The error page a browser gets, with the header of whoever is signed
/// in: for the web routes' errors and for refusals made before them (the
/// private-game guard's 404).
pub(crate) async fn error_page_for(st: &AppState, headers: &HeaderMap, status: StatusCode, message: &str) -> Response {
    let me = who(st, headers).await;
    let (csrf, _) = csrf(headers);
    (status, Html(pages::error(status, message, me.as_ref(), &csrf))).into_response()
}

type WebResult<T> = Result<T, WebError>;

/// The browser's CSRF token, and the pre-session cookie to set.
fn csrf(headers: &HeaderMap) -> (String, Option<String>) {
    crate::csrf::token(headers)
}

/// A form must come from this origin and carry the browser's CSRF token.
fn check_form_csrf(headers: &HeaderMap, form: &HashMap<String, String>) -> WebResult<()> {
    Ok(crate::csrf::check(headers, form.get("csrf").map(String::as_str))?)
}

/// The browser's CSRF token, or a new one to set (for pages outside this module).
pub(crate) fn csrf_token(headers: &HeaderMap) -> (String, Option<String>) {
    csrf(headers)
}

/// The signed-in account of a page's request, if any.
pub(crate) async fn page_account(st: &AppState, headers: &HeaderMap) -> Option<Account> {
    who(st, headers).await
}

/// The signed-in account; a stale cookie counts as signed out.
async fn who(st: &AppState, headers: &HeaderMap) -> Option<Account> {
    viewer(st, headers).await.ok().flatten()
}

fn session_cookie(token: &str) -> String {
    format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}",
        auth::SESSION_MS / 1000
    )
}

async fn lobby_page(State(st): State<AppState>, headers: HeaderMap) -> WebResult<Page> {
    let (csrf, new_csrf) = csrf(&headers);
    let variants = st.variants.clone();
    let me = who(&st, &headers).await;
    let me2 = me.clone();
    let (open, mine) = st
        .read(move |tx| {
            let mut open = lobby::list(tx, &variants, me2.as_ref(), Some("forming"), false)?;
            // Running games with a power in civil disorder take a new player.
            let running = lobby::list(tx, &variants, me2.as_ref(), Some("active"), false)?;
            if let (Some(list), Some(running)) = (open["games"].as_array_mut(), running["games"].as_array()) {
                list.extend(running.iter().filter(|g| !open_seats(g).is_empty()).cloned());
            }
            let mine = match &me2 {
                Some(a) => lobby::list(tx, &variants, Some(a), None, true)?,
                None => serde_json::json!({"games": []}),
            };
            Ok((open, mine))
        })
        .await?;
    let variants: Vec<(String, String, Vec<String>)> = crate::variants::names()
        .into_iter()
        .filter_map(|n| crate::variants::get(&st.variants, n).ok())
        .map(|l| {
            (
                l.variant().name.clone(),
                l.variant().title.clone(),
                l.variant().map.powers().iter().map(|p| p.name.clone()).collect(),
            )
        })
        .collect();
    Ok(Page {
        html: pages::lobby(
            me.as_ref(),
            &csrf,
            &open["games"],
            &mine["games"],
            &variants,
            st.daide_ports.is_some(),
        ),
        new_csrf,
    })
}

/// The powers of a running game that are still in it and have no player.
pub(crate) fn open_seats(g: &serde_json::Value) -> Vec<&str> {
    g["powers"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .filter(|p| p["player"].is_null())
                .filter(|p| {
                    p["units"].as_array().is_some_and(|u| !u.is_empty()) || p["centre_count"].as_u64() > Some(0)
                })
                .filter_map(|p| p["name"].as_str())
                .collect()
        })
        .unwrap_or_default()
}

async fn signup_page(headers: HeaderMap) -> Page {
    let (csrf, new_csrf) = csrf(&headers);
    Page {
        html: pages::account_form(&csrf, true, None),
        new_csrf,
    }
}

async fn login_page(headers: HeaderMap) -> Page {
    let (csrf, new_csrf) = csrf(&headers);
    Page {
        html: pages::account_form(&csrf, false, None),
        new_csrf,
    }
}

fn field<'a>(form: &'a HashMap<String, String>, name: &str) -> &'a str {
    form.get(name).map(String::as_str).unwrap_or("")
}

/// After sign-up or log-in: the session cookie, and back to the lobby.
fn signed_in(token: &str) -> Response {
    let mut r = Redirect::to("/").into_response();
    set_cookie(&mut r, &session_cookie(token));
    r
}

fn form_again(headers: &HeaderMap, signup: bool, status: StatusCode, message: &str) -> Response {
    let (csrf, _) = csrf(headers);
    (status, Html(pages::account_form(&csrf, signup, Some(message)))).into_response()
}

async fn signup(
    State(st): State<AppState>,
    Peer(peer): Peer,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> WebResult<Response> {
    check_form_csrf(&headers, &form)?;
    let (name, password) = (
        field(&form, "name").trim().to_string(),
        field(&form, "password").to_string(),
    );
    if let Err(e) = auth::check_new(&name, &password) {
        return Ok(form_again(&headers, true, e.status, &e.message));
    }
    let hash = st.hash_new_password(&password, peer).await?;
    let created = st
        .write(move |tx| {
            let acc = auth::create_account(tx, &name, &hash)?;
            auth::create_session(tx, &acc)
        })
        .await;
    match created {
        Ok(token) => Ok(signed_in(&token)),
        Err(e) if e.status.is_client_error() => Ok(form_again(&headers, true, e.status, &e.message)),
        Err(e) => Err(e.into()),
    }
}

async fn login(
    State(st): State<AppState>,
    Peer(peer): Peer,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> WebResult<Response> {
    check_form_csrf(&headers, &form)?;
    let name = field(&form, "name").trim().to_string();
    let password = field(&form, "password").to_string();
    let token = match st.log_in(&name, &password, peer).await {
        Ok((_, token)) => token,
        Err(e) if e.status == StatusCode::UNAUTHORIZED => {
            return Ok(form_again(&headers, false, e.status, &e.message));
        }
        Err(e) => return Err(e.into()),
    };
    Ok(signed_in(&token))
}

async fn logout(
    State(st): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> WebResult<Response> {
    check_form_csrf(&headers, &form)?;
    if let Some(t) = cookie(&headers, SESSION_COOKIE) {
        st.write(move |tx| auth::delete_session(tx, &t)).await?;
    }
    let mut r = Redirect::to("/").into_response();
    set_cookie(
        &mut r,
        &format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
    );
    Ok(r)
}

async fn signed_in_account(st: &AppState, headers: &HeaderMap) -> WebResult<Account> {
    who(st, headers)
        .await
        .ok_or_else(|| ApiError::unauthorized("log in first").into())
}

async fn create(
    State(st): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> WebResult<Response> {
    let variants = st.variants.clone();
    check_form_csrf(&headers, &form)?;
    let me = signed_in_account(&st, &headers).await?;
    let opt = |k: &str| Some(field(&form, k).trim().to_string()).filter(|s| !s.is_empty());
    let num = |k: &str| -> WebResult<Option<usize>> {
        opt(k)
            .map(|v| {
                v.parse::<usize>()
                    .map_err(|_| ApiError::bad_request(format!("{k}: `{v}` is no number")).into())
            })
            .transpose()
    };
    let variant = opt("variant").unwrap_or_else(|| "standard".into());
    let powers = crate::variants::get(&variants, &variant)
        .map_err(ApiError::bad_request)?
        .map()
        .powers()
        .len();
    let new = NewGame {
        name: field(&form, "name").to_string(),
        variant,
        players: Some(crate::game::Players {
            min: num("min")?.unwrap_or(powers),
            max: num("max")?.unwrap_or(powers),
        }),
        deadlines: crate::game::Deadlines {
            movement: opt("movement"),
            retreat: opt("retreat"),
            adjustment: opt("adjustment"),
        },
        press: match field(&form, "press") {
            "public" => crate::game::Press::Public,
            "none" => crate::game::Press::None,
            _ => crate::game::Press::Full,
        },
        anonymous: form.contains_key("anonymous"),
        daide: form.contains_key("daide"),
        assignment: if field(&form, "assignment") == "random" {
            crate::game::Assignment::Random
        } else {
            crate::game::Assignment::Choice
        },
        civil_disorder_after: num("civil_disorder_after")?.map(|n| n.min(1000) as u32),
        private: form.contains_key("private"),
        password: Some(field(&form, "password").to_string()).filter(|s| !s.is_empty()),
        password_hash: None,
        daide_ports: st.daide_ports.clone(),
    };
    let mut new = new;
    new.password_hash = crate::routes::new_game_password(&st, new.password.as_deref()).await?;
    let join = form.contains_key("join");
    let power = opt("power");
    let id = st
        .write(move |tx| {
            let id = lobby::create(tx, &variants, &me, new)?;
            if join {
                lobby::join(tx, &variants, id, &me, power.as_deref())?;
            }
            Ok(id)
        })
        .await?;
    st.changed();
    Ok(Redirect::to(&format!("/games/{id}")).into_response())
}

async fn join(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<HashMap<String, String>>,
) -> WebResult<Response> {
    let variants = st.variants.clone();
    check_form_csrf(&headers, &form)?;
    let id = crate::routes::game_id_of(&id)?;
    let me = signed_in_account(&st, &headers).await?;
    let power = Some(field(&form, "power").trim().to_string()).filter(|s| !s.is_empty());
    let given = |k: &str| Some(field(&form, k).to_string()).filter(|s| !s.is_empty());
    crate::private::may_join(&st, id, &me, given("invite"), given("password")).await?;
    st.write(move |tx| lobby::join(tx, &variants, id, &me, power.as_deref()))
        .await?;
    st.changed();
    Ok(Redirect::to(&format!("/games/{id}")).into_response())
}

async fn game_page(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    uri: axum::http::Uri,
) -> WebResult<Page> {
    let (variants, pictures) = (st.variants.clone(), st.pictures.clone());
    // The invitation the guard let through (`?invite=`), for the join form.
    let invite = crate::private::invite_in_query(axum::http::Uri::query(&uri));
    let (csrf, new_csrf) = csrf(&headers);
    let id = crate::routes::game_id_of(&id)?;
    let me = who(&st, &headers).await;
    let viewer_id = me.as_ref().map(|a| a.id);
    let (view, svg, last_event) = st
        .read(move |tx| {
            let g = game::load(tx, id, Lock::None)?;
            let view = game::view(tx, &variants, &g, viewer_id)?;
            let svg = crate::history::map_svg_clickable(
                tx,
                crate::history::Maps {
                    variants: &variants,
                    pictures: &pictures,
                },
                &g,
            )?;
            // The page's live updates start after what it shows.
            let last_event = crate::db::events::last(tx, id)?;
            Ok((view, svg, last_event))
        })
        .await?;
    Ok(Page {
        html: pages::game(me.as_ref(), &csrf, &view, &svg, last_event, invite.as_deref()),
        new_csrf,
    })
}

/// The page's files, built into the binary.
const ASSETS: &[(&str, &str, &str)] = &[
    ("style.css", "text/css", include_str!("../../assets/style.css")),
    ("game.js", "text/javascript", include_str!("../../assets/game.js")),
    ("draw.js", "text/javascript", include_str!("../../assets/draw.js")),
    ("lobby.js", "text/javascript", include_str!("../../assets/lobby.js")),
    ("map.js", "text/javascript", include_str!("../../assets/map.js")),
    ("war.js", "text/javascript", include_str!("../../assets/war.js")),
    ("board.js", "text/javascript", include_str!("../../assets/board.js")),
];

pub(crate) async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == file) {
        Some((_, ctype, body)) => (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(ctype)),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            *body,
        )
            .into_response(),
        None => WebError(ApiError::not_found(format!("no file {file}"))).into_response(),
    }
}
