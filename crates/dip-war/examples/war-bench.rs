//! The loop of `dip war bench` without the rest of the binary:
//! `cargo run --release -p dip-war --example war-bench [GAMES]`.

#![forbid(unsafe_code)]

fn main() {
    let games = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let t0 = std::time::Instant::now();
    match dip_war::random::bench(games, 6, 1989, || t0.elapsed().as_secs_f64()) {
        Ok(r) => println!(
            "{} random {}-player games to the end in {:.3} s: {:.0} games/s; per game {:.0} actions, {:.0} turns, {:.0} dice",
            r.games, r.players, r.seconds, r.games_per_second, r.mean_actions, r.mean_turns, r.mean_dice
        ),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
