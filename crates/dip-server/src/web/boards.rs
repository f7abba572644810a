//! `/board` under `dip serve` (docs/board.md): a new board for anyone; a
//! signed-in user's kept boards listed with rename, delete and their
//! read-only links; and *Open as board* from any phase of a hosted game
//! a user can see (a copy of the game up to that phase).

use super::pages::layout;
use super::{check_form_csrf, csrf, field, who, Page, WebResult};
use crate::board::routes::{create_board, Host};
use crate::board::Board;
use crate::error::ApiError;
use crate::game::{self, Lock};
use crate::AppState;
use axum::extract::{Form, Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use maud::html;
use std::collections::HashMap;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/board", get(list))
        .route("/boards/new", post(new_board))
        .route("/boards/{id}/rename", post(rename))
        .route("/boards/{id}/delete", post(delete))
        .route("/games/{id}/board", post(open_as_board))
}

fn host(st: &AppState) -> Host {
    Host {
        boards: st.boards.clone(),
        app: Some(st.clone()),
    }
}

async fn list(State(st): State<AppState>, headers: HeaderMap) -> WebResult<Page> {
    let variants = st.variants.clone();
    let (csrf, new_csrf) = csrf(&headers);
    let me = who(&st, &headers).await;
    let kept = match &me {
        Some(a) => {
            let id = a.id;
            st.read(move |tx| Ok(crate::db::boards::list(tx, id)?)).await?
        }
        None => Vec::new(),
    };
    let variants: Vec<(String, String)> = crate::variants::names()
        .into_iter()
        .filter_map(|n| {
            crate::variants::get(&variants, n)
                .ok()
                .map(|l| (n.to_string(), l.variant().title.clone()))
        })
        .collect();
    let html = layout(
        "Boards",
        me.as_ref(),
        &csrf,
        None,
        html! {
            main.lobby {
                section {
                    h2 { "A new board" }
                    p.muted { "DIP's program in the browser: order for every power, resolve, step through the history, edit the position, open and save files (docs/board.md)." }
                    form.grid method="post" action="/boards/new" id="new-board" {
                        input type="hidden" name="csrf" value=(csrf);
                        label { "Variant" select name="variant" {
                            @for (name, title) in &variants { option value=(name) selected[name == "standard"] { (title) } }
                        } }
                        @if me.is_some() { label { "Name" input name="name" maxlength="100" placeholder="the variant's title"; } }
                        button type="submit" id="create-board" { "New board" }
                    }
                    @if me.is_none() {
                        p.muted { "A board of a visitor lives for a day. " a href="/login" { "Log in" } " to keep yours." }
                    }
                }
                @if me.is_some() {
                    section {
                        h2 { "My boards" }
                        @if kept.is_empty() { p.muted { "None yet." } } @else {
                            table.games #my-boards {
                                thead { tr { th { "Board" } th { "Changed" } th { "Read-only link" } th {} } }
                                tbody {
                                    @for k in &kept {
                                        tr data-board=(k.id) {
                                            td { a href={"/board/" (k.id)} { (k.name) } }
                                            td { (crate::time::iso8601(k.updated)) }
                                            td { a href={"/board/shared/" (k.share)} { "share" } }
                                            td {
                                                form.inline method="post" action={"/boards/" (k.id) "/rename"} {
                                                    input type="hidden" name="csrf" value=(csrf);
                                                    input name="name" value=(k.name) maxlength="100" aria-label="New name" size="14";
                                                    " " button type="submit" class="rename" { "Rename" }
                                                }
                                                " "
                                                form.inline method="post" action={"/boards/" (k.id) "/delete"} {
                                                    input type="hidden" name="csrf" value=(csrf);
                                                    button type="submit" class="delete" { "Delete" }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        },
    );
    Ok(Page { html, new_csrf })
}

fn name_of(form: &HashMap<String, String>) -> WebResult<Option<String>> {
    let name = field(form, "name").trim().to_string();
    if name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request("a board's name: at most 100 characters, no control characters").into());
    }
    Ok(Some(name).filter(|n| !n.is_empty()))
}

async fn new_board(
    State(st): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> WebResult<Response> {
    check_form_csrf(&headers, &form)?;
    let h = host(&st);
    let variant = Some(field(&form, "variant").trim())
        .filter(|v| !v.is_empty())
        .unwrap_or("standard");
    let board = st.boards.start(variant).map_err(ApiError::from)?;
    let id = create_board(&h, &headers, board, name_of(&form)?).await?;
    Ok(Redirect::to(&format!("/board/{id}")).into_response())
}

async fn signed_in(st: &AppState, headers: &HeaderMap) -> WebResult<i64> {
    Ok(who(st, headers)
        .await
        .ok_or_else(|| ApiError::unauthorized("log in first"))?
        .id)
}

async fn rename(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<HashMap<String, String>>,
) -> WebResult<Response> {
    check_form_csrf(&headers, &form)?;
    let me = signed_in(&st, &headers).await?;
    let name = name_of(&form)?.ok_or_else(|| ApiError::bad_request("a board needs a name"))?;
    let done = st
        .write(move |tx| Ok(crate::db::boards::rename(tx, &id, me, &name)?))
        .await?;
    if !done {
        return Err(ApiError::not_found("no such board of yours").into());
    }
    Ok(Redirect::to("/board").into_response())
}

async fn delete(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<HashMap<String, String>>,
) -> WebResult<Response> {
    check_form_csrf(&headers, &form)?;
    let me = signed_in(&st, &headers).await?;
    let key = id.clone();
    let done = st.write(move |tx| Ok(crate::db::boards::delete(tx, &key, me)?)).await?;
    if !done {
        return Err(ApiError::not_found("no such board of yours").into());
    }
    st.boards.remove(&id);
    Ok(Redirect::to("/board").into_response())
}

/// *Open as board*: the game up to one of its processed phases (its
/// position, with the orders then given entered, and the phases before as
/// the history), or the position now (`phase` empty). Only what every
/// viewer of the game may see: processed phases and the position.
async fn open_as_board(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<HashMap<String, String>>,
) -> WebResult<Response> {
    let variants = st.variants.clone();
    check_form_csrf(&headers, &form)?;
    let gid = crate::routes::game_id_of(&id)?;
    let phase = field(&form, "phase").trim().to_string();
    let boards = st.boards.clone();
    let board = st
        .read(move |tx| {
            let g = game::load(tx, gid, Lock::None)?;
            let rec = crate::history::record(tx, &variants, &g)?;
            let loaded = boards.variant(&rec.variant).map_err(ApiError::from)?;
            let rules = dip_core::Ruleset::parse(&rec.rules).unwrap_or(loaded.variant().rules);
            let upto = if phase.is_empty() {
                rec.phases.len()
            } else {
                rec.phases
                    .iter()
                    .position(|p| p.state.phase.short().eq_ignore_ascii_case(&phase))
                    .ok_or_else(|| ApiError::not_found(format!("no processed phase {phase} in game {gid}")))?
            };
            let now = match rec.phases.get(upto) {
                Some(p) => p.state.clone(),
                None => g.state(&variants)?,
            };
            let game = crate::board::files::replay(loaded, rules, &rec.phases[..upto], now);
            let mut board = Board::new(game);
            board.title = format!("{} (board)", g.name);
            // The phase's orders, public once processed, entered again.
            if let Some(p) = rec.phases.get(upto) {
                let vocab = board.game.loaded().clone();
                let lines: Vec<String> = p
                    .orders
                    .iter()
                    .map(|o| crate::board::view::order_text(vocab.vocabulary(), &p.state, o))
                    .collect();
                if !lines.is_empty() {
                    crate::board::orders::enter(&mut board, &lines.join("\n"), None, crate::board::orders::How::Import)
                        .map_err(ApiError::from)?;
                    board.forget_undo();
                }
            }
            Ok(board)
        })
        .await?;
    let h = host(&st);
    let id = create_board(&h, &headers, board, None).await?;
    Ok(Redirect::to(&format!("/board/{id}")).into_response())
}
