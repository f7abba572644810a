//! `dip replay FILE`: re-adjudicate MILA saved games and compare.

use anyhow::Result;
use dip_core::Ruleset;
use dip_game::mila::read_games;
use dip_game::replay::{mila_words, replay};
use dip_play::Variants;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// Saved games of MILA's engine: JSON lines, optionally gzip-compressed.
    file: std::path::PathBuf,
    /// Rules: a preset and/or KEY=VALUE options (docs/rules.md). The
    /// default is MILA's choice for a move to an adjacent province: over
    /// land unless the order says `VIA`.
    #[arg(long, default_value = "datc convoy-adjacent=dptg")]
    rules: String,
    /// Print at most this many differing phases.
    #[arg(long, default_value_t = 20)]
    show: usize,
}

pub fn run(args: Args, variants: &Variants) -> Result<ExitCode> {
    let name = args.file.display().to_string();
    let bytes = match dip_game::files::read_bytes_capped(&args.file, dip_game::files::MAX_BINARY_BYTES) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("dip: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let games = match read_games(&bytes, &name) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("dip: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let standard = mila_words(Arc::new(dip_variants::standard()));
    let rules = Ruleset::parse(&args.rules)?;
    let (mut agree, mut differ, mut shown) = (0usize, 0usize, 0usize);
    for (i, g) in games.iter().enumerate() {
        // A game on another map is replayed on that variant with its own
        // rules and the KEY=VALUE options given (it was skipped, and the
        // run said "0 phases agree, 0 differ" and exited 0).
        let (loaded, rules) = if g.map.is_empty() || g.map == "standard" {
            (standard.clone(), rules)
        } else {
            let other = match variants.load(&g.map) {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("dip: {name}: game {} is on map `{}`: {e}", i + 1, g.map);
                    return Ok(ExitCode::from(2));
                }
            };
            let mut r = other.rules;
            for kv in args.rules.split_whitespace().filter_map(|w| w.split_once('=')) {
                r.set(kv.0, kv.1)?;
            }
            (mila_words(Arc::new(other)), r)
        };
        let r = match replay(&loaded, &rules, g) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("dip: {name}: game {} ({}): {e}", i + 1, g.id);
                return Ok(ExitCode::from(2));
            }
        };
        agree += r.agree;
        differ += r.differ.len();
        for d in r.differ {
            if shown < args.show {
                shown += 1;
                println!("game {} phase {}", d.game, d.phase);
                for p in &d.problems {
                    println!("  differs: {p}");
                }
                println!("  orders: {}", d.orders.join("; "));
            }
        }
    }
    println!("{agree} phases agree, {differ} differ");
    if agree + differ == 0 {
        eprintln!("dip: {name}: no phase was replayed");
        return Ok(ExitCode::from(2));
    }
    Ok(if differ > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
