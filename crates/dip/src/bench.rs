//! `dip bench`: adjudication speed on random full games of the standard map.

use anyhow::Result;
use dip_core::random::{random_orders, Rng};
use dip_core::{game, movement, PhaseKind};
use dip_play::Variants;
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Number of random games (1 to 1000000).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// Years per game (each has up to five phases; 1 to 1000).
    #[arg(long, default_value_t = 18, allow_negative_numbers = true, value_parser = clap::value_parser!(i32).range(1..=1000))]
    years: i32,
    /// Seed of the random orders.
    #[arg(long, default_value_t = 1901)]
    seed: u64,
    /// Variant: a bundled name or a path.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Report {
    variant: String,
    games: usize,
    movement_phases: usize,
    mean_units: f64,
    median_us: f64,
    p90_us: f64,
    phases_per_second: f64,
    mean_game_us: f64,
    mean_game_phases: f64,
}

pub fn run(args: Args, variants: &Variants) -> Result<ExitCode> {
    let variant = variants.load(&args.variant)?;
    let map = &variant.map;
    let rules = variant.rules;
    let mut rng = Rng::with_seed(args.seed);
    let mut samples: Vec<f64> = Vec::new();
    let mut units_total = 0usize;
    let mut game_us = 0f64;
    let mut game_phases = 0usize;
    for _ in 0..args.games {
        let mut state = variant.start.clone();
        let end = state.phase.year.saturating_add(args.years);
        while state.phase.year < end && game::winner(map, &state).is_none() {
            let orders = random_orders(map, &state, &rules, &mut rng);
            let t = Instant::now();
            let outcome = if state.phase.kind == PhaseKind::Movement {
                let m = movement::adjudicate(map, &state, &orders, &rules);
                let us = t.elapsed().as_secs_f64() * 1e6;
                samples.push(us);
                units_total += state.units().count();
                game::PhaseOutcome::Movement(m)
            } else {
                game::adjudicate(map, &state, &orders, &rules)
            };
            state = game::advance(map, &state, &outcome);
            game_us += t.elapsed().as_secs_f64() * 1e6;
            game_phases += 1;
        }
    }
    let n = samples.len();
    let total: f64 = samples.iter().sum();
    samples.sort_by(f64::total_cmp);
    let pick = |q: f64| {
        samples
            .get(((n as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let report = Report {
        variant: variant.name.clone(),
        games: args.games as usize,
        movement_phases: n,
        mean_units: units_total as f64 / n.max(1) as f64,
        median_us: pick(0.5),
        p90_us: pick(0.9),
        phases_per_second: if total > 0.0 { n as f64 / (total / 1e6) } else { 0.0 },
        mean_game_us: game_us / args.games.max(1) as f64,
        mean_game_phases: game_phases as f64 / args.games.max(1) as f64,
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!("variant            {}", report.variant);
        println!("games              {}", report.games);
        println!(
            "movement phases    {} (mean {:.1} units)",
            report.movement_phases, report.mean_units
        );
        println!("median             {:.2} µs per movement phase", report.median_us);
        println!("p90                {:.2} µs", report.p90_us);
        println!(
            "throughput         {:.0} movement phases per second",
            report.phases_per_second
        );
        println!(
            "whole game         {:.1} µs for {:.1} phases (adjudicate and advance, all phases)",
            report.mean_game_us, report.mean_game_phases
        );
    }
    Ok(ExitCode::SUCCESS)
}
