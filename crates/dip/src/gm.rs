//! The game master's commands: `dip run`, `dip accept`, `dip new`,
//! `dip orderview`.

use anyhow::Result;
use dip_game::gamedir::{self, Stages};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct RunArgs {
    /// The game directory (GAME.TXT, ORDERS.TXT).
    game: PathBuf,
    /// Scanner: read ORDERS.TXT (writes SCANNED.TXT).
    #[arg(long, short = 's')]
    scan: bool,
    /// Parser: check the orders (writes PARSED.TXT and ERRORS.TXT).
    #[arg(long, short = 'p')]
    parse: bool,
    /// Conflicter: adjudicate the phase (writes CONFLICTED.TXT).
    #[arg(long, short = 'c')]
    conflict: bool,
    /// Winterer: retreats and adjustments, the new position (WINTERED.TXT, NEWGAME.TXT).
    #[arg(long, short = 'w')]
    winter: bool,
    /// Output: PLAIN.TXT and REPORT.md/.html/.json from a stage file
    /// (CONFLICTED or WINTERED; default WINTERED).
    #[arg(long, num_args = 0..=1, default_missing_value = "WINTERED")]
    output: Option<String>,
    /// Every stage.
    #[arg(long)]
    all: bool,
    /// The project file (default: PROJECT.TXT in the game's parent folder).
    #[arg(long)]
    project: Option<PathBuf>,
}

pub fn run(a: RunArgs) -> Result<ExitCode> {
    let stages = if a.all {
        Stages::all()
    } else {
        Stages {
            scan: a.scan,
            parse: a.parse,
            conflict: a.conflict,
            winter: a.winter,
            output: a.output,
        }
    };
    match gamedir::run(&a.game, &stages, a.project.as_deref()) {
        Ok(r) => {
            for m in &r.messages {
                println!("{m}");
            }
            for f in &r.written {
                println!("wrote {}", f.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("dip: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

#[derive(clap::Args)]
pub struct AcceptArgs {
    /// The game directory: NEWGAME.TXT becomes GAME.TXT, the old one is kept.
    game: PathBuf,
}

pub fn accept(a: AcceptArgs) -> Result<ExitCode> {
    match gamedir::accept(&a.game) {
        Ok(backup) => {
            println!("accepted; the previous GAME.TXT is kept as {}", backup.display());
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("dip: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

#[derive(clap::Args)]
pub struct NewArgs {
    /// The new game's directory.
    game: PathBuf,
    /// A bundled variant or a variant file.
    #[arg(long, default_value = "standard")]
    variant: String,
    /// The game's name.
    #[arg(long, default_value = "")]
    name: String,
}

pub fn new(a: NewArgs) -> Result<ExitCode> {
    match gamedir::new_game(&a.game, &a.variant, &a.name) {
        Ok(files) => {
            for f in files {
                println!("wrote {}", f.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("dip: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

#[derive(clap::Args)]
pub struct OrderviewArgs {
    /// A stage file (SCANNED.TXT, PARSED.TXT, CONFLICTED.TXT, WINTERED.TXT).
    file: PathBuf,
}

/// Prints a stage file as a table.
pub fn orderview(a: OrderviewArgs) -> Result<ExitCode> {
    let text = match std::fs::read_to_string(&a.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("dip: {}: {e}", a.file.display());
            return Ok(ExitCode::from(2));
        }
    };
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            println!("{line}");
            continue;
        }
        let fields: Vec<&str> = line.split(" | ").collect();
        let widths = [14, 12, 24, 10, 8, 30];
        let mut row = String::new();
        for (i, f) in fields.iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(20);
            row.push_str(&format!("{:<w$} ", f.trim()));
        }
        println!("{}", row.trim_end());
    }
    Ok(ExitCode::SUCCESS)
}
