//! Loopback load test of `dip serve` (BENCHMARKS.md): many players submit
//! orders at once; prints acknowledged submissions per second and latency
//! percentiles, then the time to process a 7-player movement phase with
//! its storage.
//!
//! cargo run --release -p dip-server --example load -- [--games 10] [--clients 64] [--seconds 10] [--database URL]

mod common;

use common::{arg, call, pct, Bench};
use serde_json::json;
use std::time::{Duration, Instant};

fn main() {
    let games: usize = arg("--games", "10").parse().unwrap();
    let clients: usize = arg("--clients", "64").parse().unwrap();
    let seconds: u64 = arg("--seconds", "10").parse().unwrap();
    let bench = Bench::start("load", clients + 64);
    let storage = bench.storage;
    let base = bench.base.clone();
    let (_, seats) = bench.games(games, "x");

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
                let agent = common::agent();
                let mut lat = Vec::new();
                let mut i = 0;
                while Instant::now() < stop {
                    let seat = &seats[i % seats.len()];
                    i += 1;
                    let t0 = Instant::now();
                    let (s, _) = call(
                        &agent,
                        "PUT",
                        &format!("{base}/games/{}/orders", seat.game),
                        Some(&seat.token),
                        json!({"orders": seat.orders}),
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
    println!(
        "{storage}: {} acknowledged submissions in {:.1} s by {clients} clients over {games} games: {:.0}/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        lat.len(),
        elapsed.as_secs_f64(),
        lat.len() as f64 / elapsed.as_secs_f64(),
        pct(&lat, 0.5).as_secs_f64() * 1e3,
        pct(&lat, 0.99).as_secs_f64() * 1e3,
        lat.last().unwrap().as_secs_f64() * 1e3,
    );

    // Processing: every game's movement phase at once, with storage.
    bench
        .state
        .db
        .transaction(|tx| tx.exec("UPDATE games SET deadline = 0 WHERE status = 'active'", &[]))
        .unwrap();
    let t0 = Instant::now();
    let n = dip_server::play::process_due(dip_server::play::Processing {
        db: &bench.state.db,
        variants: &bench.state.variants,
        by: "load",
    });
    let per = t0.elapsed().as_secs_f64() * 1e3 / n.max(1) as f64;
    println!("{storage}: {n} seven-player movement phases processed with storage: {per:.2} ms each");
    bench.finish();
}
