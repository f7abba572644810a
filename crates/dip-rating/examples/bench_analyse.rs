//! Rates 100,000 games of 7 players with Analyse's defaults and prints the
//! time of each step. `cargo run --release -p dip-rating --example bench_analyse [GAMES] [PLAYERS]`
//!
//! The games are random (fixed seed): 7 distinct players out of PLAYERS
//! (default 2,000), points 1..=34 as centre counts; the control file is
//! the defaults only: SCANFILES, TRANSFORMATION DEFAULT (P/MEAN), CALCULATE
//! (GAMELEVEL `WEIGHT * P * (SUMLEVEL-LEVEL) / (N-1)`, PLAYERLEVEL
//! `SUM/WSUM`, normalisation, ITERATION DEFAULT), PRINT DEFAULT.

#![forbid(unsafe_code)]

use dip_rating::analyse::{Interp, MemHost};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let players: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let mut seed = 1901u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut table = String::with_capacity(games * 120);
    for g in 0..games {
        table.push_str(&format!("= 2024-{:02}-{:02} game {g}\n", g % 12 + 1, g % 28 + 1));
        let mut seen = [u64::MAX; 7];
        for k in 0..7 {
            let p = loop {
                let p = next() % players;
                if !seen.contains(&p) {
                    break p;
                }
            };
            seen[k] = p;
            table.push_str(&format!("player{p} {}\n", next() % 34 + 1));
        }
    }
    let steps = [
        ("read and scan 100,000 tables", "PARAMETER games.res\nSCANFILES\n"),
        ("TRANSFORMATION DEFAULT (P/MEAN)", "TRANSFORMATION DEFAULT\n"),
        ("CALCULATE (defaults)", "CALCULATE\n"),
        ("PRINT DEFAULT", "OUTPUT ranking.txt\nPRINT DEFAULT\n"),
    ];
    let mut host = MemHost::default();
    host.files.insert("games.res".into(), table);
    let mut it = Interp::new(&mut host, Vec::new(), false);
    let cpu0 = cpu_seconds();
    let total = Instant::now();
    let mut calc_secs = 0.0;
    for (name, ctl) in steps {
        let t = Instant::now();
        it.run("bench.ctl", ctl).expect("runs");
        let s = t.elapsed().as_secs_f64();
        if name.starts_with("CALCULATE") {
            calc_secs = s;
        }
        println!("{name:<34} {:>8.3} s", s);
    }
    let c = it.calc().expect("calculated");
    println!("{:<34} {:>8.3} s", "total", total.elapsed().as_secs_f64());
    if let (Some(a), Some(b)) = (cpu0, cpu_seconds()) {
        println!("{:<34} {:>8.3} s", "total CPU time (user + system)", b - a);
    }
    println!(
        "{} games, {} players, {} iteration steps ({:.1} ms per step), largest last change {:.2e}, sum of strengths {:.9}",
        games,
        c.n.iter().filter(|&&n| n > 0).count(),
        c.iterations,
        calc_secs * 1000.0 / c.iterations as f64,
        c.change2.sqrt(),
        c.level.iter().sum::<f64>()
    );
}

/// User plus system CPU time of this process (Linux /proc), in seconds.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
