//! dip-server: `dip serve`, hosted games over a JSON API (docs/api.md).
//!
//! [`app`] builds the router (tests call it in-process); [`serve`] opens
//! the storage, binds the address, processes deadlines in the background
//! and stops cleanly on Ctrl-C. Storage is SQLite in the data directory by
//! default, PostgreSQL with a `postgres://` URL; several servers may share
//! one PostgreSQL database.

#![forbid(unsafe_code)]

pub mod auth;
pub mod board;
pub mod chars;
pub mod csrf;
pub mod daide;
pub mod db;
pub mod drawn;
pub mod edit;
pub mod error;
pub mod events;
pub mod game;
pub mod hashing;
pub mod history;
pub mod listen;
pub mod lobby;
pub mod play;
pub mod press;
pub mod private;
pub mod routes;
pub mod time;
pub mod variants;
pub mod war;
pub mod web;

use axum::extract::DefaultBodyLimit;
use axum::Router;
use db::{Db, Tx};
use error::{ApiError, ApiResult};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub db: Arc<Db>,
    pub throttle: Arc<auth::Throttle>,
    /// The threads that hash passwords, and their queue.
    pub hasher: Arc<hashing::Hasher>,
    /// Log-ins and sign-ups per client address.
    pub address_rate: Arc<hashing::AddressRate>,
    /// Bumped after every change, to wake the event streams.
    pub notify: Arc<tokio::sync::watch::Sender<u64>>,
    /// Who processes phases here (stored with each phase): `pid-random`.
    pub by: String,
    /// Set once the server is stopping: long answers (the event streams)
    /// end, so that the graceful shutdown is not held up by them.
    pub stop: Arc<tokio::sync::watch::Sender<bool>>,
    /// The variants games here are played on (bundled ones, and those
    /// `dip daide --variant` registered), each loaded once.
    pub variants: dip_play::Variants,
    /// Their pictures, drawn once each.
    pub pictures: board::render::Pictures,
    /// Boards (`/board`): anyone's, in memory.
    pub boards: board::Boards,
    /// Whether a Global War game created or imported over the API plays
    /// the `seed` it was given. Off on every server: a player who chose
    /// the seed could foresee every deal and die. Tests turn it on; a
    /// server's administrator gives seeds with `dip war import --seed`.
    pub war_exact_seeds: bool,
    /// The event feeds of the games that have streams open.
    pub feeds: Arc<events::Feeds>,
    /// The ports games created with `"daide": true` get (`dip serve
    /// --daide-ports`); none: no such games here.
    pub daide_ports: Option<std::ops::RangeInclusive<u16>>,
    /// Every cookie `Secure` (the server is reached over HTTPS only);
    /// without it, those answered through a proxy that says
    /// `X-Forwarded-Proto: https` are.
    pub secure_cookies: bool,
}

impl AppState {
    pub fn new(db: Db) -> AppState {
        AppState::with_limits(db, &hashing::HashLimits::default())
    }

    /// A state whose password hashing has the given limits.
    pub fn with_limits(db: Db, limits: &hashing::HashLimits) -> AppState {
        let (tx, _) = tokio::sync::watch::channel(0);
        let (stop, _) = tokio::sync::watch::channel(false);
        let feeds = Arc::new(events::Feeds::default());
        let heard = Arc::downgrade(&feeds);
        db.on_commit(Arc::new(move |notices| {
            if let Some(feeds) = heard.upgrade() {
                feeds.committed(notices);
            }
        }));
        AppState {
            db: Arc::new(db),
            throttle: Arc::default(),
            hasher: Arc::new(hashing::Hasher::new(limits)),
            address_rate: Arc::new(hashing::AddressRate::new(limits.per_address_per_minute)),
            notify: Arc::new(tx),
            by: format!("{}-{:04x}", std::process::id(), fastrand::u16(..)),
            stop: Arc::new(stop),
            variants: variants::for_server(),
            pictures: board::render::Pictures::default(),
            boards: board::Boards::new(
                dip_play::Variants::bundled_only(),
                board::Settings::default(),
                board::Limits::default(),
            ),
            war_exact_seeds: false,
            feeds,
            daide_ports: None,
            secure_cookies: false,
        }
    }

    /// Tells the long answers (event streams) to end: the server stops.
    pub fn shut_down(&self) {
        self.stop.send_replace(true);
    }

    /// Resolves once [`AppState::shut_down`] was called (at once if it was).
    pub fn stopping(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut rx = self.stop.subscribe();
        async move {
            // An error means the sender is gone: nothing will stop us then.
            if rx.wait_for(|s| *s).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }

    /// Runs a write transaction on a blocking thread.
    pub async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Tx) -> ApiResult<T> + Send + 'static,
    ) -> ApiResult<T> {
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || db.transaction(f))
            .await
            .map_err(|e| ApiError::internal(format!("request task: {e}")))?
    }

    /// Runs a read-only transaction on a blocking thread.
    pub async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Tx) -> ApiResult<T> + Send + 'static,
    ) -> ApiResult<T> {
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || db.read(f))
            .await
            .map_err(|e| ApiError::internal(format!("request task: {e}")))?
    }

    /// A new account's password hash, computed on a hashing thread once
    /// the client's address has an attempt left.
    pub async fn hash_new_password(&self, password: &str, peer: Option<std::net::IpAddr>) -> ApiResult<String> {
        if let Some(a) = peer {
            self.address_rate.take(a)?;
        }
        let pw = password.to_string();
        self.hasher.run(move || auth::hash_password(&pw)).await?
    }

    /// Logs in: the password checked on a hashing thread, a failure
    /// answered only after the throttle's wait, a new session's token.
    /// `peer` is the client's address where it is known.
    pub async fn log_in(
        &self,
        name: &str,
        password: &str,
        peer: Option<std::net::IpAddr>,
    ) -> ApiResult<(auth::Account, String)> {
        // No account has such a name, and PostgreSQL cannot even look it up.
        chars::refuse_control("name", name, &[])?;
        if let Some(a) = peer {
            self.address_rate.take(a)?;
        }
        // One attempt per name at a time, its wait included.
        let Some(_turn) = self.throttle.gate(name).await else {
            return Err(ApiError::new(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                "too_many_requests",
                "too many log-ins for this name at once: try again later",
            ));
        };
        let n = name.to_string();
        let found = self.read(move |tx| auth::password_of(tx, &n)).await?;
        let pw = password.to_string();
        let ok = self
            .hasher
            .run(move || match &found {
                Some((acc, hash)) if auth::verify_password(&pw, hash) => Some(acc.clone()),
                Some(_) => None,
                None => {
                    auth::verify_unknown(&pw);
                    None
                }
            })
            .await?;
        let Some(acc) = ok else {
            tokio::time::sleep(self.throttle.failed(name)).await;
            return Err(ApiError::unauthorized("wrong name or password"));
        };
        self.throttle.succeeded(name);
        let a = acc.clone();
        let token = self.write(move |tx| auth::create_session(tx, &a)).await?;
        Ok((acc, token))
    }

    /// Wakes the event streams.
    pub fn changed(&self) {
        self.notify.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Processes the phases whose deadlines have passed.
    pub async fn process_due(&self) -> usize {
        let db = self.db.clone();
        let by = self.by.clone();
        let variants = self.variants.clone();
        // Diplomacy phases, then Global War turns and deletions.
        let n = tokio::task::spawn_blocking(move || {
            let diplomacy = play::Processing {
                db: &db,
                variants: &variants,
                by: &by,
            };
            play::process_due(diplomacy) + war::turn::process_due(&db)
        })
        .await
        .unwrap_or(0);
        if n > 0 {
            self.changed();
        }
        n
    }
}

/// The whole application.
pub fn app(state: AppState) -> Router {
    routes::api()
        .merge(war::routes::api())
        .merge(web::routes().layer(axum::middleware::from_fn_with_state(state.clone(), web::error_pages)))
        .merge(board::routes::router().with_state(board::routes::Host {
            boards: state.boards.clone(),
            app: Some(state.clone()),
        }))
        .fallback(|| async { ApiError::not_found("no such page or API endpoint") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                axum::http::StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "this endpoint does not take that method",
            )
        })
        .layer(axum::middleware::from_fn_with_state(state.clone(), private::guard))
        .layer(axum::middleware::from_fn(routes::csrf_guard))
        .layer(axum::middleware::from_fn_with_state(
            state.secure_cookies,
            csrf::secure_cookies,
        ))
        .layer(DefaultBodyLimit::max(routes::MAX_BODY))
        .layer(axum::middleware::from_fn(error::json_errors))
        .layer(tower_http::set_header::SetResponseHeaderLayer::if_not_present(
            axum::http::header::CONTENT_SECURITY_POLICY,
            axum::http::HeaderValue::from_static(web::CSP),
        ))
        .layer(tower_http::set_header::SetResponseHeaderLayer::if_not_present(
            axum::http::header::X_CONTENT_TYPE_OPTIONS,
            axum::http::HeaderValue::from_static("nosniff"),
        ))
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(state)
}

/// `dip serve`'s settings.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub listen: SocketAddr,
    /// Where the SQLite database lives.
    pub data: PathBuf,
    /// A PostgreSQL URL instead of SQLite.
    pub database: Option<String>,
    /// How often deadlines are checked.
    pub tick: Duration,
    /// TCP ports for games created with `"daide": true` (DAIDE bots).
    pub daide_ports: Option<std::ops::RangeInclusive<u16>>,
    /// The address the DAIDE ports listen on (default: the address of
    /// `listen`, so that a server kept to this machine keeps its bots'
    /// ports there too).
    pub daide_listen: Option<std::net::IpAddr>,
    /// HTTP connection limits and timeouts.
    pub http: listen::HttpLimits,
    /// Password hashing's threads, queue and rate per address.
    pub hashing: hashing::HashLimits,
    /// Every cookie `Secure`: the server is reached over HTTPS only.
    pub secure_cookies: bool,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data: PathBuf::from("dip-data"),
            database: None,
            tick: Duration::from_millis(250),
            daide_ports: None,
            daide_listen: None,
            http: listen::HttpLimits::default(),
            hashing: hashing::HashLimits::default(),
            secure_cookies: false,
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error(transparent)]
    Db(#[from] db::DbError),
}

/// Opens the storage the configuration names.
pub fn open_db(config: &ServeConfig) -> Result<Db, ServeError> {
    match &config.database {
        Some(url) => Ok(Db::postgres(url)?),
        None => {
            std::fs::create_dir_all(&config.data).map_err(|e| ServeError::Io(config.data.display().to_string(), e))?;
            Ok(Db::sqlite(&config.data.join("dip.sqlite"))?)
        }
    }
}

/// How long requests under way may still take once the server is told to
/// stop.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Runs the server until Ctrl-C (or SIGTERM). `ready` is told the bound
/// address once the server listens.
pub async fn serve(config: ServeConfig, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    // Watched from the start: a stop signal never kills the process.
    let stop_signal = shutdown();
    let db = tokio::task::block_in_place(|| open_db(&config))?;
    let mut state = AppState::with_limits(db, &config.hashing);
    state.daide_ports = config.daide_ports.clone();
    state.secure_cookies = config.secure_cookies;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| ServeError::Io(config.listen.to_string(), e))?;
    let addr = listener
        .local_addr()
        .map_err(|e| ServeError::Io(config.listen.to_string(), e))?;
    // Deadlines that passed while the server was down are processed first.
    state.process_due().await;
    let ticker = {
        let state = state.clone();
        let tick = config.tick;
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(tick).await;
                state.process_due().await;
            }
        })
    };
    // DAIDE: every game with a port gets a listener.
    let daide = config.daide_ports.as_ref().map(|_| {
        let ip = config.daide_listen.unwrap_or(addr.ip());
        tokio::spawn(daide::manage(state.clone(), daide::DaideConfig::default(), ip))
    });
    ready(addr);
    // On Ctrl-C or SIGTERM: no new connections, the event streams end,
    // requests under way finish; whatever still runs after the grace
    // period is cut off (an unanswered request was never acknowledged).
    let signalled = {
        let state = state.clone();
        async move {
            stop_signal.await;
            state.shut_down();
        }
    };
    let server = listen::serve_http(listener, app(state.clone()), config.http, signalled);
    let grace_over = {
        let stopping = state.stopping();
        async move {
            stopping.await;
            tokio::time::sleep(SHUTDOWN_GRACE).await;
        }
    };
    let served = tokio::select! {
        () = server => Ok(()),
        _ = grace_over => {
            tracing::warn!("requests still running {} s after the stop signal: stopping anyway", SHUTDOWN_GRACE.as_secs());
            Ok(())
        }
    };
    ticker.abort();
    if let Some(d) = daide {
        d.abort();
    }
    served
}

/// Serves `app` on `listener` until Ctrl-C or SIGTERM (`dip board`).
pub async fn serve_router(listener: tokio::net::TcpListener, app: Router) -> std::io::Result<()> {
    axum::serve(listener, app).with_graceful_shutdown(shutdown()).await
}

/// Ctrl-C or SIGTERM. The handlers are in place when this returns, not
/// when the future is first polled: a SIGTERM sent after the server's
/// first answer could come before that poll and kill the process (exit by
/// signal 15 instead of 0, seen under load).
fn shutdown() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        async move {
            tokio::select! {
                _ = received(interrupt) => {},
                _ = received(terminate) => {},
            }
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The signal's next arrival (never, if it could not be watched).
#[cfg(unix)]
async fn received(s: std::io::Result<tokio::signal::unix::Signal>) {
    match s {
        Ok(mut s) => {
            s.recv().await;
        }
        Err(_) => std::future::pending::<()>().await,
    }
}
