//! `GET …/events`: one viewer's stream. It reads from storage only what
//! came before it opened (after `Last-Event-ID`), and again only when it
//! fell behind its game's feed; everything else comes from the feed. It
//! ends when the server stops, when the viewer's session ends (log-out,
//! or its time is up), or when the game's feed closes.

use super::feed::Delivered;
use super::rights::Rights;
use crate::db::events::EventRow;
use crate::error::{ApiError, ApiResult};
use crate::routes::game_id_of;
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::Stream;
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::{self, error::RecvError};

/// How often a stream on PostgreSQL asks whether its session still lives
/// (another server may have ended it).
const SESSION_CHECK: Duration = Duration::from_secs(10);

/// How many stored events a stream reads at a time.
const PAGE: i64 = 200;

/// Who watches, and until when.
#[derive(Clone)]
struct Viewer {
    account: Option<i64>,
    /// The session's token, hashed as stored, and when it expires.
    session: Option<(String, i64)>,
}

pub async fn stream(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let id = game_id_of(&id)?;
    let viewer = match crate::routes::token(&headers) {
        None => Viewer {
            account: None,
            session: None,
        },
        Some(t) => {
            let (account, expires) = crate::routes::session(&st, &t).await?;
            Viewer {
                account: Some(account.id),
                session: Some((crate::auth::token_hash(&t), expires)),
            }
        }
    };
    let asked = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<i64>().ok())
        .or_else(|| q.get("after").and_then(|a| a.parse().ok()));
    // Subscribed before storage is read: nothing committed in between is lost.
    let ended = st.feeds.sessions_ended();
    let feed = st.feeds.subscribe(&st, id);
    // The game must exist; its current last event is where a new client starts.
    let (last, behind, backlog) = st
        .read(move |tx| {
            let rights = Rights::of(tx, id)?;
            let last = crate::db::events::last(tx, id)?;
            let after = asked.unwrap_or(last);
            let rows = crate::db::events::after(tx, id, after, PAGE)?;
            let behind = rows.len() as i64 == PAGE;
            let last = rows.last().map_or(after, |e| e.id);
            Ok::<_, ApiError>((last, behind, shown(&rights, rows, viewer.account)))
        })
        .await?;
    let remote = st.db.dialect() == crate::db::Dialect::Postgres;
    let check = (remote && viewer.session.is_some()).then(|| {
        let mut i = tokio::time::interval_at(tokio::time::Instant::now() + SESSION_CHECK, SESSION_CHECK);
        i.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        i
    });
    // A session's end (or a century for a viewer without one).
    let left = viewer
        .session
        .as_ref()
        .map_or(100 * 365 * 86_400_000, |(_, at)| (at - crate::time::now_ms()).max(0));
    let expiry = Box::pin(tokio::time::sleep(Duration::from_millis(left as u64)));
    let s = Watch {
        stop: st.stop.subscribe(),
        expiry,
        check,
        st,
        game: id,
        viewer: viewer.clone(),
        last,
        behind,
        queue: backlog.into(),
        feed,
        ended,
    };
    let s = futures_util::stream::unfold(s, |mut w| async move {
        let e = w.next().await?;
        Some((Ok(e), w))
    });
    Ok(Sse::new(s).keep_alive(KeepAlive::default()))
}

/// Resolves once the server is stopping (or its state is gone).
async fn stopped(stop: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// The events a viewer may see, as SSE events.
fn shown(rights: &Rights, rows: Vec<EventRow>, viewer: Option<i64>) -> Vec<Event> {
    rows.into_iter()
        .filter_map(|e| {
            let data = rights.shown(&e, viewer)?;
            Some(Event::default().id(e.id.to_string()).event(e.kind).data(data))
        })
        .collect()
}

struct Watch {
    st: AppState,
    game: i64,
    viewer: Viewer,
    /// The id of the last event handled (sent, or not for this viewer).
    last: i64,
    /// Storage has more after `last` than was read (a page at a time).
    behind: bool,
    queue: VecDeque<Event>,
    feed: broadcast::Receiver<Arc<Delivered>>,
    ended: broadcast::Receiver<Arc<str>>,
    /// Made once, not per event (a timer and a subscription each time
    /// cost more than the event itself with many streams).
    stop: tokio::sync::watch::Receiver<bool>,
    expiry: std::pin::Pin<Box<tokio::time::Sleep>>,
    /// PostgreSQL: when to ask again whether the session lives.
    check: Option<tokio::time::Interval>,
}

impl Watch {
    /// The next event for the viewer; `None` ends the stream.
    async fn next(&mut self) -> Option<Event> {
        loop {
            // A stopping server ends its streams (the page reconnects
            // with Last-Event-ID to a server that runs).
            if *self.st.stop.borrow() {
                return None;
            }
            if let Some(e) = self.queue.pop_front() {
                return Some(e);
            }
            if self.behind {
                self.catch_up().await?;
                continue;
            }
            let check = async {
                match &mut self.check {
                    Some(i) => {
                        i.tick().await;
                    }
                    None => std::future::pending().await,
                }
            };
            // In this order: an event committed after the log-out is
            // not sent, though both may be waiting.
            tokio::select! {
                biased;
                _ = stopped(&mut self.stop) => return None,
                e = self.ended.recv() => match e {
                    Ok(hash) if self.viewer.session.as_ref().is_some_and(|(h, _)| **h == *hash) => return None,
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => self.check_session().await?,
                    Err(RecvError::Closed) => return None,
                },
                _ = &mut self.expiry => return None,
                _ = check => self.check_session().await?,
                d = self.feed.recv() => match d {
                    Ok(d) => {
                        self.take(&d).await?;
                        // What else is there already goes out with it.
                        while self.queue.len() < 64 {
                            match self.feed.try_recv() {
                                Ok(d) => self.take(&d).await?,
                                Err(broadcast::error::TryRecvError::Lagged(_)) => self.catch_up().await?,
                                Err(_) => break,
                            }
                        }
                    }
                    // Fell behind: what it missed is in storage.
                    Err(RecvError::Lagged(_)) => self.catch_up().await?,
                    Err(RecvError::Closed) => return None,
                },
            }
        }
    }

    /// An event from the feed: queued if it is for the viewer; what came
    /// between the last one and it is read first.
    async fn take(&mut self, d: &Delivered) -> Option<()> {
        if d.prev > self.last {
            return self.catch_up().await;
        }
        let Some(e) = d.event.as_ref().filter(|e| e.id > self.last) else {
            return Some(());
        };
        self.last = e.id;
        if let Some(data) = d.rights.shown(e, self.viewer.account) {
            self.queue
                .push_back(Event::default().id(e.id.to_string()).event(e.kind.clone()).data(data));
        }
        Some(())
    }

    /// Reads what came after the last event from storage (the stream
    /// ends if it cannot).
    async fn catch_up(&mut self) -> Option<()> {
        let (game, last, viewer) = (self.game, self.last, self.viewer.account);
        let (newest, behind, events) = self
            .st
            .read(move |tx| {
                let rights = Rights::of(tx, game)?;
                let rows = crate::db::events::after(tx, game, last, PAGE)?;
                let behind = rows.len() as i64 == PAGE;
                Ok::<_, ApiError>((rows.last().map(|e| e.id), behind, shown(&rights, rows, viewer)))
            })
            .await
            .ok()?;
        self.last = newest.unwrap_or(self.last).max(self.last);
        self.behind = behind;
        self.queue.extend(events);
        Some(())
    }

    /// Ends the stream (`None`) when the viewer's session is gone.
    async fn check_session(&mut self) -> Option<()> {
        let Some((hash, _)) = self.viewer.session.clone() else {
            return Some(());
        };
        let alive = self
            .st
            .read(move |tx| crate::auth::session_alive(tx, &hash))
            .await
            .unwrap_or(false);
        alive.then_some(())
    }
}
