//! Loopback load test of `dip serve` (BENCHMARKS.md): many players submit
//! orders at once; prints acknowledged submissions per second and latency
//! percentiles, then the time to process a 7-player movement phase with
//! its storage.
//!
//! cargo run --release -p dip-server --example load -- [--games 10] [--clients 64] [--seconds 10] [--database URL]

use dip_server::{app, db::Db, AppState};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| default.to_string())
}

fn call(agent: &ureq::Agent, method: &str, url: &str, token: Option<&str>, body: Value) -> (u16, Value) {
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

const ORDERS: [(&str, &[&str]); 7] = [
    ("Austria", &["A vie-gal", "A bud-ser", "F tri-alb"]),
    ("England", &["F lon-nth", "F edi-nwg", "A lvp-yor"]),
    ("France", &["A par-bur", "A mar-spa", "F bre-mao"]),
    ("Germany", &["A mun-ruh", "A ber-kie", "F kie-den"]),
    ("Italy", &["A ven-tyr", "A rom-apu", "F nap-ion"]),
    ("Russia", &["A mos-ukr", "A war-gal", "F sev-bla", "F stp/sc-bot"]),
    ("Turkey", &["F ank-bla", "A con-bul", "A smy-arm"]),
];

fn main() {
    let games: usize = arg("--games", "10").parse().unwrap();
    let clients: usize = arg("--clients", "64").parse().unwrap();
    let seconds: u64 = arg("--seconds", "10").parse().unwrap();
    let database = arg("--database", "");
    let dir = std::env::temp_dir().join(format!("dip-load-{}", std::process::id()));
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
    let served = state.clone();
    rt.spawn(async move { axum::serve(listener, app(served)).await });
    let base = format!("http://{addr}/api/v1");
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();

    // Games full of players.
    let run = std::process::id();
    let mut seats: Vec<(i64, String, Vec<String>)> = Vec::new();
    let mut ids = Vec::new();
    for g in 0..games {
        let mut tokens = Vec::new();
        for (p, _) in ORDERS {
            let name = format!("{}{g}x{run}", &p[..3]);
            call(
                &agent,
                "POST",
                &format!("{base}/accounts"),
                None,
                json!({"name": name, "password": "password1"}),
            );
            let (_, v) = call(
                &agent,
                "POST",
                &format!("{base}/sessions"),
                None,
                json!({"name": name, "password": "password1"}),
            );
            tokens.push(v["token"].as_str().unwrap().to_string());
        }
        let (_, v) = call(
            &agent,
            "POST",
            &format!("{base}/games"),
            Some(&tokens[0]),
            json!({"name": format!("load {g}"), "deadlines": {"movement": "24h"}}),
        );
        let id = v["id"].as_i64().unwrap();
        ids.push(id);
        for ((p, orders), t) in ORDERS.iter().zip(&tokens) {
            call(
                &agent,
                "POST",
                &format!("{base}/games/{id}/join"),
                Some(t),
                json!({"power": p}),
            );
            seats.push((id, t.clone(), orders.iter().map(|s| s.to_string()).collect()));
        }
    }

    // Submissions: each client thread takes seats round-robin.
    let stop = Instant::now() + Duration::from_secs(seconds);
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            // Client c plays seats c, c + clients, …; with more clients than
            // seats, several clients share one.
            let mine: Vec<_> = seats.iter().skip(c).step_by(clients).cloned().collect();
            let seats = if mine.is_empty() {
                vec![seats[c % seats.len()].clone()]
            } else {
                mine
            };
            let base = base.clone();
            std::thread::spawn(move || {
                let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
                let mut lat = Vec::new();
                let mut i = 0;
                while Instant::now() < stop {
                    let (id, t, orders) = &seats[i % seats.len()];
                    i += 1;
                    let t0 = Instant::now();
                    let (s, _) = call(
                        &agent,
                        "PUT",
                        &format!("{base}/games/{id}/orders"),
                        Some(t),
                        json!({"orders": orders}),
                    );
                    assert_eq!(s, 200);
                    lat.push(t0.elapsed());
                }
                lat
            })
        })
        .collect();
    let t0 = Instant::now();
    let mut lat: Vec<Duration> = threads.into_iter().flat_map(|t| t.join().unwrap()).collect();
    let elapsed = t0.elapsed();
    lat.sort();
    let pct = |p: f64| lat[((lat.len() as f64 * p) as usize).min(lat.len() - 1)];
    println!(
        "{storage}: {} acknowledged submissions in {:.1} s by {clients} clients over {games} games: {:.0}/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        lat.len(),
        elapsed.as_secs_f64(),
        lat.len() as f64 / elapsed.as_secs_f64(),
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        lat.last().unwrap().as_secs_f64() * 1e3,
    );

    // Processing: every game's movement phase at once, with storage.
    state
        .db
        .transaction(|tx| tx.exec("UPDATE games SET deadline = 0 WHERE status = 'active'", &[]))
        .unwrap();
    let t0 = Instant::now();
    let n = dip_server::play::process_due(&state.db, &state.variants, "load");
    let per = t0.elapsed().as_secs_f64() * 1e3 / n.max(1) as f64;
    println!("{storage}: {n} seven-player movement phases processed with storage: {per:.2} ms each");
    let _ = std::fs::remove_dir_all(dir);
}
