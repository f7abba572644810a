//! Password hashing with bounded cost: a few threads of its own, a bounded
//! queue, and a rate per client address.
//!
//! Each Argon2id hash takes about 19 MiB for a moment. On tokio's blocking
//! pool (up to 512 threads) 64 log-ins at once took a server to 1.6 GB, and
//! the memory stayed with the threads' allocator arenas. Here at most
//! `threads` hashes run at once, on threads that live as long as the
//! server, at most `queue` wait, and more are refused at once (503) rather
//! than queued for minutes. Log-ins and sign-ups from one address also
//! draw on a token bucket ([`AddressRate`]), so one client cannot keep the
//! queue full for everyone else.

use crate::error::{ApiError, ApiResult};
use axum::http::StatusCode;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The limits on log-ins and sign-ups (`dip serve --hash-threads`,
/// `--hash-queue`, `--logins-per-minute`).
#[derive(Clone, Copy, Debug)]
pub struct HashLimits {
    /// Hashes computed at once: about the number of cores.
    pub threads: usize,
    /// Hashes that may wait for a thread; more are refused with 503.
    pub queue: usize,
    /// Log-ins and sign-ups per minute from one address (a burst of as
    /// many is allowed); more are refused with 429.
    pub per_address_per_minute: u32,
}

impl Default for HashLimits {
    fn default() -> Self {
        HashLimits {
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8),
            queue: 32,
            per_address_per_minute: 60,
        }
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// The hashing threads and their queue.
pub struct Hasher {
    jobs: SyncSender<Job>,
}

impl Hasher {
    pub fn new(limits: &HashLimits) -> Hasher {
        let (jobs, rx) = sync_channel::<Job>(limits.queue);
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..limits.threads.max(1) {
            let rx = rx.clone();
            // The threads end when the sender (the server's state) is gone.
            let _ = std::thread::Builder::new()
                .name(format!("dip-hash-{i}"))
                .spawn(move || worker(&rx));
        }
        Hasher { jobs }
    }

    /// Queues `f` (a hash or a check) for a hashing thread at once, and
    /// returns its result; refused with 503 when the queue is full.
    pub fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> impl std::future::Future<Output = ApiResult<T>> + Send + 'static {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(f());
        });
        let queued = match self.jobs.try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "too many log-ins and sign-ups at once: try again in a moment",
            )),
            Err(TrySendError::Disconnected(_)) => Err(ApiError::internal("the password threads are gone")),
        };
        async move {
            queued?;
            rx.await.map_err(|_| ApiError::internal("a password check failed"))
        }
    }
}

fn worker(rx: &Mutex<Receiver<Job>>) {
    loop {
        let job = {
            let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
            match rx.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        job();
    }
}

/// Log-ins and sign-ups per address: a token bucket of a minute's
/// allowance. IPv6 addresses count by their /64, which one client
/// usually holds whole.
pub struct AddressRate {
    per_minute: u32,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl AddressRate {
    pub fn new(per_minute: u32) -> AddressRate {
        AddressRate {
            per_minute,
            buckets: Mutex::default(),
        }
    }

    /// Takes one attempt for `addr`; 429 when its allowance is used up.
    pub fn take(&self, addr: IpAddr) -> ApiResult<()> {
        let key = match addr {
            IpAddr::V6(a) => match a.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => {
                    let s = a.segments();
                    IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
                }
            },
            v4 => v4,
        };
        let cap = f64::from(self.per_minute.max(1));
        let now = Instant::now();
        let mut m = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if m.len() > 100_000 {
            // Refilled buckets are the same as none.
            m.retain(|_, (tokens, at)| *tokens + now.duration_since(*at).as_secs_f64() * cap / 60.0 < cap);
        }
        let (tokens, at) = m.entry(key).or_insert((cap, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * cap / 60.0).min(cap);
        *at = now;
        if *tokens < 1.0 {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_requests",
                "too many log-ins or sign-ups from this address: try again in a minute",
            ));
        }
        *tokens -= 1.0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_minute_allowance_then_429() {
        let r = AddressRate::new(3);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..3 {
            r.take(a).unwrap();
        }
        assert_eq!(r.take(a).unwrap_err().status, StatusCode::TOO_MANY_REQUESTS);
        // Another address is not held up.
        r.take("192.0.2.2".parse().unwrap()).unwrap();
        // One /64 is one client.
        r.take("2001:db8::1".parse().unwrap()).unwrap();
        r.take("2001:db8::2".parse().unwrap()).unwrap();
        r.take("2001:db8::3".parse().unwrap()).unwrap();
        assert!(r.take("2001:db8::4".parse().unwrap()).is_err());
    }

    #[tokio::test]
    async fn a_full_queue_is_refused_at_once() {
        let h = Hasher::new(&HashLimits {
            threads: 1,
            queue: 1,
            per_address_per_minute: 1,
        });
        let (hold, release) = std::sync::mpsc::channel::<()>();
        let (started_tx, started) = std::sync::mpsc::channel::<()>();
        let busy = h.run(move || {
            started_tx.send(()).unwrap();
            release.recv().ok();
        });
        let busy = tokio::spawn(busy);
        started.recv().unwrap();
        let queued = h.run(|| 1);
        let refused = h.run(|| 2).await;
        assert_eq!(refused.unwrap_err().status, StatusCode::SERVICE_UNAVAILABLE);
        hold.send(()).unwrap();
        assert_eq!(queued.await.unwrap(), 1);
        busy.await.unwrap().unwrap();
    }
}
