//! `dip record`: whole-game records (docs/game-record.md), imported from and
//! exported to MILA's saved games.

use anyhow::{Context, Result};
use dip_game::mila::read_games;
use dip_game::record::{from_mila, to_mila, GameRecord};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum RecordCommand {
    /// Turn MILA saved games (JSON lines, optionally gzip) into dip records.
    Import {
        /// The saved-games file.
        file: PathBuf,
        /// Directory for the records (one `ID.rec` per game).
        #[arg(long, default_value = ".")]
        out: PathBuf,
    },
    /// Write a dip record as a MILA saved game (one JSON line) on stdout.
    Export {
        /// The record file.
        file: PathBuf,
    },
    /// List the phases of a record with their numbers of orders.
    Show {
        /// The record file.
        file: PathBuf,
    },
}

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: RecordCommand,
}

fn load(file: &PathBuf) -> Result<Option<(dip_variants::Variant, GameRecord)>> {
    let name = file.display().to_string();
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {name}"))?;
    // The variant is named in the record; read the header first.
    let variant_name = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("variant "))
        .unwrap_or("standard")
        .trim()
        .to_string();
    let variant = dip_variants::load(&variant_name)?;
    match GameRecord::from_text(&variant.map, &text, &name) {
        Ok(r) => Ok(Some((variant, r))),
        Err(e) => {
            eprintln!("dip: {e}");
            Ok(None)
        }
    }
}

pub fn run(a: Args) -> Result<ExitCode> {
    match a.command {
        RecordCommand::Import { file, out } => {
            let name = file.display().to_string();
            let bytes = std::fs::read(&file).with_context(|| format!("cannot read {name}"))?;
            let games = match read_games(&bytes, &name) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("dip: {e}");
                    return Ok(ExitCode::from(2));
                }
            };
            let v = dip_variants::standard();
            std::fs::create_dir_all(&out)?;
            for (i, g) in games.iter().enumerate() {
                let rec = match from_mila(&v.map, g) {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!("dip: {name}: game {}: {e}", i + 1);
                        return Ok(ExitCode::from(2));
                    }
                };
                let id = if g.id.is_empty() {
                    format!("game{}", i + 1)
                } else {
                    g.id.clone()
                };
                let path = out.join(format!("{id}.rec"));
                std::fs::write(&path, rec.to_text(&v.map))?;
                println!("wrote {} ({} phases)", path.display(), rec.phases.len());
            }
            Ok(ExitCode::SUCCESS)
        }
        RecordCommand::Export { file } => match load(&file)? {
            Some((v, rec)) => {
                println!("{}", serde_json::to_string(&to_mila(&v.map, &rec))?);
                Ok(ExitCode::SUCCESS)
            }
            None => Ok(ExitCode::from(2)),
        },
        RecordCommand::Show { file } => match load(&file)? {
            Some((_, rec)) => {
                println!("{} ({}, rules {})", rec.name, rec.variant, rec.rules);
                for ph in &rec.phases {
                    println!("  {}  {} orders", ph.state.phase.short(), ph.orders.len());
                }
                Ok(ExitCode::SUCCESS)
            }
            None => Ok(ExitCode::from(2)),
        },
    }
}
