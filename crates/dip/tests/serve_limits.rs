//! `dip serve` under abuse, as a separate process: parallel log-ins keep
//! its memory bounded, and idle, slow-header and slow-body connections are
//! closed by the timeouts while other clients are served. The limits are
//! set low so that the tests take seconds; `scripts/serve-abuse.sh` runs
//! the full-size attacks (BENCHMARKS.md).

mod serve_common;

use serde_json::json;
use serve_common::Server;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

fn data_dir(tag: &str) -> std::path::PathBuf {
    serve_common::temp_dir(&format!("limits-{tag}"))
}

/// The peak resident memory of a process, in bytes (`VmHWM`).
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

fn addr_of(server: &Server) -> SocketAddr {
    server.base.trim_start_matches("http://").parse().unwrap()
}

/// 64 log-ins at once for 64 names nobody has took a fresh server from
/// 12 MB to 1.63 GB: each Argon2 hash (19 MiB) ran on its own blocking
/// thread, up to 512 at once. Now a few threads hash, a few wait, the rest
/// are told 503 at once, and the process stays far below 300 MB.
#[test]
fn sixty_four_parallel_log_ins_keep_the_server_under_300_mb() {
    let dir = data_dir("hash");
    let server = Server::start(&[
        "--data",
        dir.to_str().unwrap(),
        "--hash-threads",
        "2",
        "--hash-queue",
        "6",
        "--logins-per-minute",
        "1000",
    ]);
    let base = server.base.clone();
    let threads: Vec<_> = (0..64)
        .map(|i| {
            let c = serve_common::Client::new(&base);
            std::thread::spawn(move || {
                let (s, _) = c.call(
                    "POST",
                    "/api/v1/sessions",
                    None,
                    Some(json!({"name": format!("nobody-{i}"), "password": "password1"})),
                );
                s
            })
        })
        .collect();
    let statuses: Vec<u16> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let peak = peak_rss(server.child.id());
    assert!(
        statuses.iter().all(|s| *s == 401 || *s == 503),
        "every log-in answered, wrong name or busy: {statuses:?}"
    );
    assert!(statuses.contains(&401), "some were checked: {statuses:?}");
    assert!(statuses.contains(&503), "the rest were refused at once: {statuses:?}");
    assert!(peak < 300 << 20, "peak RSS {} MB", peak >> 20);
    // And the server still signs people up and in.
    let c = server.client();
    let (s, v) = c.call(
        "POST",
        "/api/v1/accounts",
        None,
        Some(json!({"name": "after", "password": "password1"})),
    );
    assert_eq!(s, 201, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// One address's log-ins are limited per minute (429), whatever the
/// names: the per-name throttle let 64 names through at once.
#[test]
fn log_ins_from_one_address_are_limited_per_minute() {
    let dir = data_dir("rate");
    let server = Server::start(&["--data", dir.to_str().unwrap(), "--logins-per-minute", "3"]);
    let c = server.client();
    let mut statuses = Vec::new();
    for i in 0..5 {
        let (s, _) = c.call(
            "POST",
            "/api/v1/sessions",
            None,
            Some(json!({"name": format!("guess-{i}"), "password": "password1"})),
        );
        statuses.push(s);
    }
    assert_eq!(statuses, [401, 401, 401, 429, 429]);
    // Sign-ups draw on the same allowance.
    let (s, _) = c.call(
        "POST",
        "/api/v1/accounts",
        None,
        Some(json!({"name": "newcomer", "password": "password1"})),
    );
    assert_eq!(s, 429);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether the server closed the connection (EOF or reset) within `by`.
fn closed_by(s: &mut TcpStream, by: Instant) -> bool {
    let mut buf = [0u8; 1024];
    loop {
        let left = by.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        s.set_read_timeout(Some(left)).unwrap();
        match s.read(&mut buf) {
            Ok(0) => return true,
            // An answer (408, 400) before the close is fine.
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut => {
                return false
            }
            Err(_) => return true,
        }
    }
}

/// 2,000 idle sockets and slow headers, and slow bodies, were held for
/// ever, and with 1,024 descriptors 1,100 idle sockets locked new clients
/// out. Now the head, body and idle timeouts close them, at most
/// `--max-connections` are held at once, and a client that sends a
/// request is served meanwhile.
#[test]
fn idle_slow_header_and_slow_body_connections_are_closed_while_others_are_served() {
    let dir = data_dir("conns");
    let server = Server::start(&[
        "--data",
        dir.to_str().unwrap(),
        "--max-connections",
        "400",
        "--header-timeout",
        "0.5",
        "--body-timeout",
        "0.5",
        "--idle-timeout",
        "1",
    ]);
    let addr = addr_of(&server);
    let started = Instant::now();
    // 1,000 idle, 1,000 slow heads, 100 slow bodies, opened from a few
    // threads (a connection waits in the backlog while the server is full).
    let open = |kind: usize, n: usize| {
        std::thread::spawn(move || {
            let mut socks = Vec::new();
            for _ in 0..n {
                let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_secs(10)) else {
                    continue;
                };
                let _ = match kind {
                    0 => Ok(()),
                    1 => s.write_all(b"GET /api/v1/variants HTTP/1.1\r\nHost: x\r\n"),
                    _ => s.write_all(
                        b"POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"na",
                    ),
                };
                socks.push(s);
            }
            socks
        })
    };
    let openers = [open(0, 500), open(0, 500), open(1, 500), open(1, 500), open(2, 100)];
    // A client with a request is served while they are open.
    std::thread::sleep(Duration::from_millis(300));
    let c = server.client();
    let t = Instant::now();
    let (s, _) = c.call("GET", "/api/v1/variants", None, None);
    assert_eq!(s, 200);
    let served_in = t.elapsed();
    let mut socks: Vec<TcpStream> = openers.into_iter().flat_map(|o| o.join().unwrap()).collect();
    assert!(socks.len() >= 2_000, "only {} connected", socks.len());
    // Every one of them is closed by the server within a few seconds.
    let by = Instant::now() + Duration::from_secs(15);
    let mut still_open = 0;
    for s in &mut socks {
        if !closed_by(s, by) {
            still_open += 1;
        }
    }
    assert_eq!(still_open, 0, "connections the server kept open");
    assert!(served_in < Duration::from_secs(5), "a real client waited {served_in:?}");
    eprintln!("2,100 connections closed {:?} after the first", started.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}
