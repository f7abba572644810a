//! The `dip` command: thin glue over the library crates.

mod adjudicate;
mod bench;
mod cases;
mod variant;
mod replay;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// dip: a game master's toolkit for Diplomacy and its variants.
#[derive(Parser)]
#[command(name = "dip", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Adjudicate one phase: a position file and an orders file.
    Adjudicate(adjudicate::Args),
    /// Run adjudication test cases (dip's case format or the jDip/godip DATC format).
    Cases(cases::Args),
    /// Measure adjudication speed on random full games.
    Bench(bench::Args),
    /// Re-adjudicate MILA saved games (JSON lines) and compare phase by phase.
    Replay(replay::Args),
    /// Variants: list, check (lint), show a province, convert between formats.
    Variant(variant::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Adjudicate(a) => adjudicate::run(a),
        Command::Cases(a) => cases::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Variant(a) => variant::run(a),
        Command::Replay(a) => replay::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("dip: {e:#}");
            ExitCode::from(2)
        }
    }
}
