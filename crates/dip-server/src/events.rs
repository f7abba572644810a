//! Live updates: `GET …/events` as Server-Sent Events. Every change a game
//! goes through is a row in `events`; the stream sends the rows after the
//! last one the client saw (`Last-Event-ID` or `?after=`), woken at once by
//! this process's own changes and at least every second for changes made
//! by other servers on the same database. Messages go only to those who
//! may read them. Streams end when the server stops.

use crate::error::ApiResult;
use crate::game::Lock;
use crate::routes::{game_id_of, viewer};
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::Stream;
use serde_json::Value as Json;
use std::collections::HashMap;
use std::convert::Infallible;
use std::time::Duration;

pub async fn stream(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let id = game_id_of(&id)?;
    let who = viewer(&st, &headers).await?;
    // The game must exist; its current last event is where a new client starts.
    let start = st
        .read(move |tx| {
            crate::game::load(tx, id, Lock::None)?;
            Ok::<_, crate::error::ApiError>(
                tx.query_one("SELECT MAX(id) FROM events WHERE game_id = $1", &[id.into()])?
                    .and_then(|r| r.opt_int(0))
                    .unwrap_or(0),
            )
        })
        .await?;
    let after = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<i64>().ok())
        .or_else(|| q.get("after").and_then(|a| a.parse().ok()))
        .unwrap_or(start);
    let rx = st.notify.subscribe();
    let state = (st, rx, after, Vec::<Event>::new());
    let s = futures_util::stream::unfold(state, move |(st, mut rx, mut last, mut queue)| {
        let who = who.clone();
        async move {
            loop {
                // A stopping server ends its streams (the page reconnects
                // with Last-Event-ID to a server that runs).
                if *st.stop.borrow() {
                    return None;
                }
                if let Some(e) = queue.pop() {
                    return Some((Ok(e), (st, rx, last, queue)));
                }
                let since = last;
                let w = who.clone();
                let rows = st
                    .read(move |tx| -> ApiResult<Vec<(i64, String, Json, bool)>> {
                        let g = crate::game::load(tx, id, Lock::None)?;
                        let members = crate::game::members(tx, id)?;
                        let hide_names = crate::edit::names_hidden(&g, w.as_ref().map(|v| v.id));
                        let power = w
                            .and_then(|v| members.iter().find(|m| m.account_id == v.id))
                            .and_then(|m| m.power.clone());
                        let finished = g.status == crate::game::Status::Finished;
                        Ok(tx
                            .query(
                                "SELECT id, kind, data FROM events WHERE game_id = $1 AND id > $2 ORDER BY id LIMIT 100",
                                &[id.into(), since.into()],
                            )?
                            .iter()
                            .map(|r| {
                                let mut data: Json = serde_json::from_str(&r.text(2)).unwrap_or(Json::Null);
                                if hide_names && r.text(1) == "edit" {
                                    data["lines"] = crate::edit::hide_players(&data["lines"]);
                                }
                                let visible = r.text(1) != "message"
                                    || crate::press::may_read(
                                        power.as_deref(),
                                        data["from"].as_str().unwrap_or(""),
                                        &data["to"],
                                        finished,
                                    );
                                (r.int(0), r.text(1), data, visible)
                            })
                            .collect())
                    })
                    .await;
                match rows {
                    Ok(rows) if !rows.is_empty() => {
                        for (eid, kind, data, visible) in rows.into_iter().rev() {
                            last = last.max(eid);
                            if visible {
                                queue.push(Event::default().id(eid.to_string()).event(kind).data(data.to_string()));
                            }
                        }
                        continue;
                    }
                    Ok(_) => {}
                    // The game is gone or the database failed: end the stream.
                    Err(_) => return None,
                }
                tokio::select! {
                    _ = tokio::time::timeout(Duration::from_secs(1), rx.changed()) => {}
                    _ = st.stopping() => return None,
                }
            }
        }
    });
    Ok(Sse::new(s).keep_alive(KeepAlive::default()))
}
