//! Serving HTTP connections with limits: how many at once, how long a
//! request's head and body may take, how long a connection may sit with
//! nothing sent either way.
//!
//! `axum::serve` has none of these: 2,000 idle sockets, slow heads or slow
//! bodies were held for ever, and with 1,024 file descriptors 1,100 idle
//! sockets locked every new client out. Here each connection is served by
//! hyper with a head timeout (which also ends a kept-alive connection that
//! sends no next request), its body has a deadline, and a connection on
//! which no byte moves for the idle time is closed. Beyond the cap no
//! connection is accepted until one ends: new clients wait in the
//! listen backlog while the timeouts free places.

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;

/// `dip serve`'s connection limits (`--max-connections`,
/// `--header-timeout`, `--body-timeout`, `--idle-timeout`).
#[derive(Clone, Copy, Debug)]
pub struct HttpLimits {
    /// Connections served at once; more wait in the backlog.
    pub max_connections: usize,
    /// How long a request's head may take, counted from when the server
    /// waits for it: a new connection's first request or a kept-alive
    /// connection's next one.
    pub header_timeout: Duration,
    /// How long a request's body may take, counted from its head.
    pub body_timeout: Duration,
    /// How long a connection may go with no byte read or written (event
    /// streams send a comment every 15 s, so they are not idle).
    pub idle_timeout: Duration,
}

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            max_connections: 512,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
        }
    }
}

/// The client's address, where the request came over a connection that
/// [`serve_http`] accepted (in-process calls have none).
pub struct Peer(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Peer(
            parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()),
        ))
    }
}

/// Serves `app` on `listener` within `limits` until `stop` resolves; then
/// accepts no more connections and lets each finish its request under
/// way. Returns once every connection has ended.
pub async fn serve_http(listener: TcpListener, app: Router, limits: HttpLimits, stop: impl Future<Output = ()>) {
    let places = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let place = tokio::select! {
            p = places.clone().acquire_owned() => match p { Ok(p) => p, Err(_) => break },
            _ = &mut stop => break,
        };
        let (tcp, peer) = tokio::select! {
            a = listener.accept() => match a {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors and the like: wait a moment
                    // rather than spin; the timeouts free some.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let _ = tcp.set_nodelay(true);
        let activity = Arc::new(AtomicU64::new(0));
        let start = Instant::now();
        let io = TokioIo::new(Watched {
            inner: tcp,
            start,
            activity: activity.clone(),
        });
        let app = app.clone();
        let body_timeout = limits.body_timeout;
        let service = hyper::service::service_fn(move |mut req: axum::http::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            let deadline = Instant::now() + body_timeout;
            let req = req.map(|b| axum::body::Body::new(Deadline::new(b, deadline)));
            let mut app = app.clone();
            async move { tower::Service::call(&mut app, req).await }
        });
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .serve_connection(io, service);
        let conn = graceful.watch(conn);
        let idle = limits.idle_timeout;
        tokio::spawn(async move {
            tokio::select! {
                _ = conn => {}
                _ = idle_for(start, &activity, idle) => {}
            }
            drop(place);
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

/// Resolves once no byte has moved on the connection for `idle`.
async fn idle_for(start: Instant, activity: &AtomicU64, idle: Duration) {
    loop {
        let last = start + Duration::from_millis(activity.load(Ordering::Relaxed));
        let due = last + idle;
        if Instant::now() >= due {
            return;
        }
        tokio::time::sleep_until(due).await;
    }
}

/// A connection that notes when a byte last moved.
struct Watched {
    inner: TcpStream,
    start: Instant,
    activity: Arc<AtomicU64>,
}

impl Watched {
    fn touch(&self) {
        let ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.activity.store(ms, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.touch();
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }
    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// A request body that must be complete by a deadline.
struct Deadline {
    inner: hyper::body::Incoming,
    sleep: Pin<Box<tokio::time::Sleep>>,
}

impl Deadline {
    fn new(inner: hyper::body::Incoming, deadline: Instant) -> Deadline {
        Deadline {
            inner,
            sleep: Box::pin(tokio::time::sleep_until(deadline)),
        }
    }
}

/// Why a request body ended early.
#[derive(Debug, thiserror::Error)]
#[error("the request body took longer than the server allows")]
pub struct BodyTimedOut;

impl hyper::body::Body for Deadline {
    type Data = hyper::body::Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        if let Poll::Ready(f) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(f.map(|r| r.map_err(Into::into)));
        }
        if self.sleep.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(Box::new(BodyTimedOut))));
        }
        Poll::Pending
    }
    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }
    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}
