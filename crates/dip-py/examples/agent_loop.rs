//! Times the Rust side of python-bench's agent loop (legal orders,
//! `set_orders` for every power, `process`) on the games that
//! `scripts/python-bench.py --dump FILE` recorded, without Python: where
//! the time goes that is not the bindings'. Prints the first (cold) pass
//! and the best of 12 passes (`REPS=n` to change; the pass with the least
//! total, also by kind of phase), in microseconds per phase.
//!
//!     cargo run --release -p dip-py --example agent_loop -- FILE

#![forbid(unsafe_code)]

use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("games file");
    let text = std::fs::read_to_string(path).expect("read");
    let mut games: Vec<Vec<Vec<(String, String)>>> = Vec::new();
    for line in text.lines() {
        if line == "GAME" {
            games.push(Vec::new());
        } else if line.starts_with("PHASE ") {
            games.last_mut().unwrap().push(Vec::new());
        } else if let Some((p, o)) = line.split_once('\t') {
            games.last_mut().unwrap().last_mut().unwrap().push((p.into(), o.into()));
        }
    }
    let v = _dip::engine::variant("standard").unwrap();
    let mut best = [f64::MAX; 3];
    // By kind of phase (M, R, A): the same three, over the best pass's phases.
    let mut kinds = [[0.0f64; 4]; 3];
    let reps: usize = std::env::var("REPS").ok().and_then(|r| r.parse().ok()).unwrap_or(12);
    for _ in 0..reps {
        let (mut tp, mut ts, mut tc, mut n) = (0.0, 0.0, 0.0, 0);
        let mut by_kind = [[0.0f64; 4]; 3];
        for phases in &games {
            let mut g = _dip::engine::Game::new(v);
            let powers: Vec<_> = v.powers.clone();
            for orders in phases {
                let kind = g.state.phase.kind as usize;
                let a = Instant::now();
                let _ = g.possible();
                let b = Instant::now();
                for p in &powers {
                    let id = g.power(p).unwrap();
                    let mine: Vec<String> = orders.iter().filter(|(q, _)| q == p).map(|(_, o)| o.clone()).collect();
                    g.set_orders(id, &mine, true);
                }
                let c = Instant::now();
                g.process();
                let d = Instant::now();
                tp += (b - a).as_secs_f64();
                ts += (c - b).as_secs_f64();
                tc += (d - c).as_secs_f64();
                n += 1;
                let k = &mut by_kind[kind];
                k[0] += (b - a).as_secs_f64();
                k[1] += (c - b).as_secs_f64();
                k[2] += (d - c).as_secs_f64();
                k[3] += 1.0;
            }
        }
        let us = |x: f64| x / n as f64 * 1e6;
        if best[0] == f64::MAX {
            println!(
                "cold: possible {:.1}  set_orders {:.1}  process {:.1}",
                us(tp),
                us(ts),
                us(tc)
            );
        }
        if us(tp + ts + tc) < best.iter().sum::<f64>() {
            best = [us(tp), us(ts), us(tc)];
            kinds = by_kind;
        }
    }
    println!(
        "best of {reps}: possible {:.1}  set_orders {:.1}  process {:.1}  us/phase",
        best[0], best[1], best[2]
    );
    for (name, k) in ["movement", "retreat", "adjustment"].iter().zip(kinds) {
        if k[3] > 0.0 {
            let us = |x: f64| x / k[3] * 1e6;
            println!(
                "  {name} ({} phases): possible {:.1}  set_orders {:.1}  process {:.1}",
                k[3],
                us(k[0]),
                us(k[1]),
                us(k[2])
            );
        }
    }
}
