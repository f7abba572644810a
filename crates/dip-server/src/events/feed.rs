//! One feed per game that has streams open: it takes the game's events
//! from the writes of this process as they commit (SQLite, whose only
//! writer is this process), or reads them once for all its streams when
//! woken (PostgreSQL, where other servers write too, and once a second
//! for them), works out who may see each one, and hands it to every
//! stream of the game. No stream reads the database for an event.

use super::rights::Rights;
use crate::db::events::EventRow;
use crate::db::{Dialect, Notice};
use crate::error::ApiResult;
use crate::AppState;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};

/// How many events a stream may be behind its feed before it reads what
/// it missed from storage.
const BACKLOG: usize = 512;

/// How often a feed looks for events written by other processes.
const POLL: Duration = Duration::from_secs(1);

/// An event as a game's streams get it.
#[derive(Debug)]
pub struct Delivered {
    /// The id of the game's event before this one (0: none). A stream
    /// whose last id is older missed something and reads it from storage.
    pub prev: i64,
    /// `None`: only where the feed starts (`prev`), for the streams that
    /// subscribed before it knew: what they read from storage may end
    /// before it.
    pub event: Option<EventRow>,
    /// Who may see what, as of this event.
    pub rights: Arc<Rights>,
}

/// The feeds of the games that have streams, and what a stream needs
/// besides: the end of sessions.
pub struct Feeds {
    games: Mutex<HashMap<i64, Arc<Feed>>>,
    /// The SHA-256 of each token whose session ended (log-out).
    ended: broadcast::Sender<Arc<str>>,
}

impl Default for Feeds {
    fn default() -> Self {
        Feeds {
            games: Mutex::default(),
            ended: broadcast::channel(256).0,
        }
    }
}

struct Feed {
    out: broadcast::Sender<Arc<Delivered>>,
    /// Events of this process's commits, in commit order.
    inbox: mpsc::UnboundedSender<EventRow>,
}

impl Feeds {
    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Arc<Feed>>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Called with what a transaction wrote, right after its commit (on
    /// SQLite still under the writer's lock, so in the order of the ids).
    pub fn committed(&self, notices: Vec<Notice>) {
        for n in notices {
            match n {
                Notice::Event(e) => {
                    if let Some(f) = self.games().get(&e.game) {
                        let _ = f.inbox.send(e);
                    }
                }
                Notice::SessionEnded(hash) => self.session_ended(&hash),
            }
        }
    }

    /// A session ended: its streams end.
    pub fn session_ended(&self, token_hash: &str) {
        let _ = self.ended.send(token_hash.into());
    }

    pub fn sessions_ended(&self) -> broadcast::Receiver<Arc<str>> {
        self.ended.subscribe()
    }

    /// The game's events from now on, starting its feed if it has none.
    pub fn subscribe(&self, st: &AppState, game: i64) -> broadcast::Receiver<Arc<Delivered>> {
        let mut games = self.games();
        if let Some(f) = games.get(&game) {
            return f.out.subscribe();
        }
        let (out, rx) = broadcast::channel(BACKLOG);
        let (inbox, pushed) = mpsc::unbounded_channel();
        games.insert(
            game,
            Arc::new(Feed {
                out: out.clone(),
                inbox,
            }),
        );
        tokio::spawn(run(st.clone(), game, out, pushed));
        rx
    }

    /// Forgets the game's feed once nobody listens (under the lock that
    /// [`Feeds::subscribe`] takes, so that nobody subscribes in between).
    fn close_if_unheard(&self, game: i64) -> bool {
        let mut games = self.games();
        let unheard = games.get(&game).is_none_or(|f| f.out.receiver_count() == 0);
        if unheard {
            games.remove(&game);
        }
        unheard
    }

    /// How many games have a feed (tests).
    pub fn open(&self) -> usize {
        self.games().len()
    }
}

/// What the feed has given its streams so far.
struct Cursor {
    game: i64,
    last: i64,
    rights: Arc<Rights>,
}

impl Cursor {
    /// Hands an event on, unless it was handed on already.
    async fn deliver(&mut self, st: &AppState, out: &broadcast::Sender<Arc<Delivered>>, e: EventRow) -> ApiResult<()> {
        if e.id <= self.last {
            return Ok(());
        }
        if super::rights::changes_rights(&e.kind) {
            let game = self.game;
            self.rights = Arc::new(st.read(move |tx| Rights::of(tx, game)).await?);
        }
        let d = Delivered {
            prev: self.last,
            rights: self.rights.clone(),
            event: Some(e),
        };
        self.last = d.event.as_ref().map_or(self.last, |e| e.id);
        let _ = out.send(Arc::new(d));
        Ok(())
    }

    /// Reads and hands on what storage has after the last event.
    async fn catch_up(&mut self, st: &AppState, out: &broadcast::Sender<Arc<Delivered>>) -> ApiResult<()> {
        loop {
            let (game, last) = (self.game, self.last);
            let rows = st
                .read(move |tx| Ok::<_, crate::error::ApiError>(crate::db::events::after(tx, game, last, 200)?))
                .await?;
            let more = rows.len() == 200;
            for e in rows {
                self.deliver(st, out, e).await?;
            }
            if !more {
                return Ok(());
            }
        }
    }
}

async fn run(
    st: AppState,
    game: i64,
    out: broadcast::Sender<Arc<Delivered>>,
    mut pushed: mpsc::UnboundedReceiver<EventRow>,
) {
    // Where the feed starts: events committed before this read are the
    // streams' to read from storage; those after it are pushed (the feed
    // was registered before), or read on PostgreSQL.
    let start = st
        .read(move |tx| {
            let last = crate::db::events::last(tx, game)?;
            Ok::<_, crate::error::ApiError>((last, Rights::of(tx, game)?))
        })
        .await;
    let Ok((last, rights)) = start else {
        // The game is gone: its streams end when they see the feed close.
        st.feeds.close_if_unheard(game);
        return;
    };
    let mut c = Cursor {
        game,
        last,
        rights: Arc::new(rights),
    };
    let _ = out.send(Arc::new(Delivered {
        prev: last,
        event: None,
        rights: c.rights.clone(),
    }));
    let trusted = st.db.dialect() == Dialect::Sqlite;
    let mut tick = tokio::time::interval(POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let r = tokio::select! {
            e = pushed.recv() => match e {
                Some(e) if trusted => c.deliver(&st, &out, e).await,
                Some(_) => {
                    // PostgreSQL: the commit is a wake-up; the order is storage's.
                    while pushed.try_recv().is_ok() {}
                    c.catch_up(&st, &out).await
                }
                None => return,
            },
            _ = tick.tick() => {
                if st.feeds.close_if_unheard(game) {
                    return;
                }
                c.catch_up(&st, &out).await
            }
            _ = st.stopping() => return,
        };
        if let Err(e) = r {
            tracing::warn!(game, "event feed: {}", e.message);
            tokio::time::sleep(POLL).await;
        }
    }
}
