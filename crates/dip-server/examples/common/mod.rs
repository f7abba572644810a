//! What the load examples share (load.rs, watch_load.rs, daide_load.rs): their options, a
//! server served as `dip serve` serves it, and games full of players.

#![allow(dead_code)]

use dip_server::listen::{serve_http, HttpLimits};
use dip_server::{app, db::Db, AppState};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The value after `name` on the command line, or `default`.
pub fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| default.to_string())
}

/// A JSON request; the status and the answer (`null` when not JSON).
pub fn call(agent: &ureq::Agent, method: &str, url: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let mut req = match method {
        "POST" => agent.post(url),
        _ => agent.put(url),
    };
    if let Some(t) = token {
        req = req.header("Authorization", &format!("Bearer {t}"));
    }
    let mut r = req.send_json(body).expect("request");
    let s = r.status().as_u16();
    (s, r.body_mut().read_json().unwrap_or(Value::Null))
}

/// An agent that reads 4xx and 5xx answers rather than failing on them.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).build().into()
}

/// Spring 1901's orders of each power, legal and all moving.
pub const ORDERS: [(&str, &[&str]); 7] = [
    ("Austria", &["A vie-gal", "A bud-ser", "F tri-alb"]),
    ("England", &["F lon-nth", "F edi-nwg", "A lvp-yor"]),
    ("France", &["A par-bur", "A mar-spa", "F bre-mao"]),
    ("Germany", &["A mun-ruh", "A ber-kie", "F kie-den"]),
    ("Italy", &["A ven-tyr", "A rom-apu", "F nap-ion"]),
    ("Russia", &["A mos-ukr", "A war-gal", "F sev-bla", "F stp/sc-bot"]),
    ("Turkey", &["F ank-bla", "A con-bul", "A smy-arm"]),
];

/// A server on loopback: SQLite in a temporary folder, or `--database URL`.
pub struct Bench {
    pub rt: tokio::runtime::Runtime,
    pub state: AppState,
    /// `http://127.0.0.1:PORT/api/v1`, served as `dip serve` serves (its
    /// connection cap and timeouts).
    pub base: String,
    pub addr: std::net::SocketAddr,
    /// The same server on a second port without the per-address log-in
    /// limits: the setup's hundreds of log-ins from one address are the
    /// benchmark's, not an attack.
    pub setup_base: String,
    /// "SQLite" or "PostgreSQL".
    pub storage: &'static str,
    dir: PathBuf,
}

impl Bench {
    /// Starts the server with `max_connections` HTTP connections at once
    /// (`dip serve --max-connections`).
    pub fn start(name: &str, max_connections: usize) -> Bench {
        let database = arg("--database", "");
        let dir = std::env::temp_dir().join(format!("dip-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = if database.is_empty() {
            Db::sqlite(&dir.join("dip.sqlite")).unwrap()
        } else {
            Db::postgres(&database).unwrap()
        };
        let storage = if database.is_empty() { "SQLite" } else { "PostgreSQL" };
        let state = AppState::new(db);
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
        let addr = listener.local_addr().unwrap();
        let limits = HttpLimits {
            max_connections,
            ..HttpLimits::default()
        };
        let served = state.clone();
        let stop = state.stopping();
        rt.spawn(async move { serve_http(listener, app(served), limits, stop).await });
        let setup = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
        let setup_base = format!("http://{}/api/v1", setup.local_addr().unwrap());
        let served = state.clone();
        rt.spawn(async move { axum::serve(setup, app(served)).await });
        Bench {
            rt,
            state,
            base: format!("http://{addr}/api/v1"),
            addr,
            setup_base,
            storage,
            dir,
        }
    }

    /// `games` standard games, each with its seven players signed up,
    /// logged in and seated; `tag` keeps the names of runs apart.
    pub fn games(&self, games: usize, tag: &str) -> (Vec<i64>, Vec<Seat>) {
        let agent = agent();
        let base = &self.setup_base;
        let run = std::process::id();
        let mut seats = Vec::new();
        let mut ids = Vec::new();
        for g in 0..games {
            let mut tokens = Vec::new();
            for (p, _) in ORDERS {
                let name = format!("{}{g}{tag}{run}", &p[..3]);
                let who = json!({"name": name, "password": "password1"});
                call(&agent, "POST", &format!("{base}/accounts"), None, who.clone());
                let (_, v) = call(&agent, "POST", &format!("{base}/sessions"), None, who);
                tokens.push(v["token"].as_str().unwrap().to_string());
            }
            let (_, v) = call(
                &agent,
                "POST",
                &format!("{base}/games"),
                Some(&tokens[0]),
                json!({"name": format!("{tag} {g}"), "deadlines": {"movement": "24h"}}),
            );
            let id = v["id"].as_i64().unwrap();
            ids.push(id);
            for ((p, orders), t) in ORDERS.iter().zip(&tokens) {
                let (s, v) = call(
                    &agent,
                    "POST",
                    &format!("{base}/games/{id}/join"),
                    Some(t),
                    json!({"power": p}),
                );
                assert_eq!(s, 200, "{v}");
                seats.push(Seat {
                    game: id,
                    power: p.to_string(),
                    token: t.clone(),
                    orders: orders.iter().map(|s| s.to_string()).collect(),
                });
            }
        }
        (ids, seats)
    }

    /// Stops serving and removes the temporary folder.
    pub fn finish(self) {
        self.state.shut_down();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One power of one game, with its player's token and orders.
#[derive(Clone)]
pub struct Seat {
    pub game: i64,
    pub power: String,
    pub token: String,
    pub orders: Vec<String>,
}

/// The `p`-th quantile of sorted durations (`p` in 0..=1).
pub fn pct(v: &[std::time::Duration], p: f64) -> std::time::Duration {
    v[((v.len() as f64 * p) as usize).min(v.len() - 1)]
}

/// Sorted durations as the benchmarks print them: `p50 … ms, p99 … ms,
/// max … ms` (0 for none).
pub fn percentiles(v: &[std::time::Duration]) -> String {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    if v.is_empty() {
        return "p50 0.00 ms, p99 0.00 ms, max 0.00 ms".into();
    }
    format!(
        "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(pct(v, 0.5)),
        ms(pct(v, 0.99)),
        ms(v[v.len() - 1])
    )
}

/// An acknowledged submission: whose, when it was acknowledged, and how
/// long it took.
pub struct Ack {
    pub game: i64,
    pub power: String,
    pub at: std::time::Instant,
    pub took: std::time::Duration,
}

/// Submissions for `time` by `clients` threads: client c plays seats c,
/// c + clients, …, one submission after the other (with more clients than
/// seats, several share one). Every acknowledged submission.
pub fn submit(base: &str, seats: &[Seat], clients: usize, time: std::time::Duration) -> Vec<Ack> {
    let stop = std::time::Instant::now() + time;
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let mine: Vec<_> = seats.iter().skip(c).step_by(clients).cloned().collect();
            let mine = if mine.is_empty() {
                vec![seats[c % seats.len()].clone()]
            } else {
                mine
            };
            let base = base.to_string();
            std::thread::spawn(move || play_seats(&base, &mine, stop))
        })
        .collect();
    threads.into_iter().flat_map(|t| t.join().unwrap()).collect()
}

/// One client: submits its seats' orders in turn until `stop`.
fn play_seats(base: &str, seats: &[Seat], stop: std::time::Instant) -> Vec<Ack> {
    let agent = agent();
    let mut acks = Vec::new();
    let mut i = 0;
    while std::time::Instant::now() < stop {
        let seat = &seats[i % seats.len()];
        i += 1;
        let t0 = std::time::Instant::now();
        let (s, v) = call(
            &agent,
            "PUT",
            &format!("{base}/games/{}/orders", seat.game),
            Some(&seat.token),
            json!({"orders": seat.orders}),
        );
        assert_eq!(s, 200, "{v}");
        let at = std::time::Instant::now();
        acks.push(Ack {
            game: seat.game,
            power: seat.power.clone(),
            at,
            took: at - t0,
        });
    }
    acks
}
