//! Loopback load test of `dip serve` (BENCHMARKS.md): many players submit
//! orders at once; prints acknowledged submissions per second and latency
//! percentiles, then the time to process a 7-player movement phase with
//! its storage.
//!
//! cargo run --release -p dip-server --example load -- [--games 10] [--clients 64] [--seconds 10] [--database URL]

#![forbid(unsafe_code)]

mod common;

use common::{arg, percentiles, Bench};
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
    let t0 = Instant::now();
    let acks = common::submit(&base, &seats, clients, Duration::from_secs(seconds));
    let mut lat: Vec<Duration> = acks.iter().map(|a| a.took).collect();
    let elapsed = t0.elapsed();
    lat.sort();
    println!(
        "{storage}: {} acknowledged submissions in {:.1} s by {clients} clients over {games} games: {:.0}/s; latency {}",
        lat.len(),
        elapsed.as_secs_f64(),
        lat.len() as f64 / elapsed.as_secs_f64(),
        percentiles(&lat),
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
