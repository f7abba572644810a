//! `dip record`: whole-game records (docs/game-record.md), imported from and
//! exported to MILA's saved games.

use anyhow::{Context, Result};
use dip_game::mila::read_games;
use dip_game::record::{from_mila, mila_variant, to_mila, GameRecord};
use dip_play::{Loaded, Variants};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Subcommand)]
pub enum RecordCommand {
    /// Turn MILA saved games (JSON lines, optionally gzip) into dip records.
    Import {
        /// The saved-games file.
        file: PathBuf,
        /// Directory for the records (one `ID.rec` per game; the id made
        /// safe as a file name, games with the same id numbered).
        #[arg(short = 'o', long = "output", alias = "out", default_value = ".")]
        out: PathBuf,
        /// Replace records that exist already.
        #[arg(long)]
        force: bool,
    },
    /// Write a game as a MILA saved game (one JSON line) on stdout.
    Export {
        /// The game: a record, a game directory or its GAME.TXT, DIP's .dip files.
        file: PathBuf,
    },
    /// Write the position after a game's last phase as a Realpolitik
    /// game file (`.gam`), the start of a new game from there.
    Gam {
        /// The game: a record, a game directory or its GAME.TXT, DIP's .dip files, a MILA game.
        file: PathBuf,
        /// Where to write it (default: stdout).
        #[arg(short = 'o', long = "output", alias = "out")]
        out: Option<PathBuf>,
        /// Replace the file if it exists (never the record itself).
        #[arg(long)]
        force: bool,
    },
    /// Write a game as DIP's season files (`NAME_s01.dip`, `NAME_a01.dip`, ...).
    Dip {
        /// The game: a record, a game directory or its GAME.TXT, a MILA game.
        file: PathBuf,
        /// Directory for the files.
        #[arg(short = 'o', long = "output", alias = "out", default_value = ".")]
        out: PathBuf,
        /// The files' common name.
        #[arg(long, default_value = "game")]
        prefix: String,
        /// Replace files that exist already.
        #[arg(long)]
        force: bool,
        /// DIP's renaming file (`fixnames.dat`): the files use its names.
        #[arg(long, value_name = "FILE")]
        fixnames: Option<PathBuf>,
    },
    /// Read DIP season files (in any order: sorted by season) into a record on stdout.
    FromDip {
        /// The `.dip` files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// DIP's renaming file (`fixnames.dat`) the files were written with.
        #[arg(long, value_name = "FILE")]
        fixnames: Option<PathBuf>,
    },
    /// List the phases of a game with their numbers of orders.
    Show {
        /// The game: a record, a game directory or its GAME.TXT, DIP's .dip files, a MILA game.
        file: PathBuf,
    },
}

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: RecordCommand,
}

/// A whole game of any kind (a `.rec`, a game directory or its GAME.TXT,
/// DIP's `.dip` files, a MILA game), as `dip render --record` reads it.
fn load(file: &std::path::Path, variants: &Variants) -> Result<Option<(dip_variants::Variant, GameRecord)>> {
    match dip_game::source::open_record(file, variants) {
        Ok(r) => Ok(Some((r.variant, r.record))),
        Err(e) => {
            eprintln!("dip: {e}");
            Ok(None)
        }
    }
}

pub fn run(a: Args, variants: &Variants) -> Result<ExitCode> {
    match a.command {
        RecordCommand::Import { file, out, force } => import(&file, &out, force, variants),
        RecordCommand::Export { file } => match load(&file, variants)? {
            Some((v, rec)) => {
                println!("{}", serde_json::to_string(&to_mila(&v.map, &rec))?);
                Ok(ExitCode::SUCCESS)
            }
            None => Ok(ExitCode::from(2)),
        },
        RecordCommand::Gam { file, out, force } => match load(&file, variants)? {
            Some((v, rec)) => gam(&file, &v, &rec, out.as_deref(), force),
            None => Ok(ExitCode::from(2)),
        },
        RecordCommand::Dip {
            file,
            out,
            prefix,
            force,
            fixnames,
        } => match load(&file, variants)? {
            Some((v, rec)) => dip_files(&file, &v, &rec, &out, &prefix, force, fixnames.as_deref()),
            None => Ok(ExitCode::from(2)),
        },
        RecordCommand::FromDip { files, fixnames } => from_dip(&files, fixnames.as_deref(), variants),
        RecordCommand::Show { file } => match load(&file, variants)? {
            Some((_, rec)) => {
                println!("{} ({}, rules {})", rec.name, rec.variant, rec.rules);
                for ph in &rec.phases {
                    let n = ph.orders.len();
                    let s = if n == 1 { "" } else { "s" };
                    println!("  {}  {n} order{s}", ph.state.phase.short());
                }
                Ok(ExitCode::SUCCESS)
            }
            None => Ok(ExitCode::from(2)),
        },
    }
}

/// The error on stderr and exit code 2.
fn fail(e: impl std::fmt::Display) -> Result<ExitCode> {
    eprintln!("dip: {e}");
    Ok(ExitCode::from(2))
}

/// `dip record import`: every game is converted and every file name
/// checked before the first record is written.
fn import(file: &Path, out: &Path, force: bool, variants: &Variants) -> Result<ExitCode> {
    let name = file.display().to_string();
    // --out is a folder: a file there is said so before anything else.
    if out.exists() && !out.is_dir() {
        eprintln!(
            "dip: {} is a file; --out names the folder the records are written into",
            out.display()
        );
        return Ok(ExitCode::from(2));
    }
    let bytes = match dip_game::files::read_bytes_capped(file, dip_game::files::MAX_BINARY_BYTES) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    let games = match read_games(&bytes, &name) {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let (by_map, records) = match convert_games(&name, &games, variants) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let paths = record_paths(out, &games);
    let targets: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    if let Err(e) = dip_game::files::check_targets(&targets, &[file], force) {
        return fail(e);
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    for (path, (key, rec)) in paths.iter().zip(&records) {
        if let Err(e) = dip_game::files::write_new(path, rec.to_text(&by_map[key]).as_bytes(), force) {
            return fail(e);
        }
        println!("wrote {} ({} phases)", path.display(), rec.phases.len());
    }
    Ok(ExitCode::SUCCESS)
}

/// Variants by the lower-case name of a MILA game's `map`, each with its
/// words built once for all its games.
type ByMap = std::collections::HashMap<String, Arc<Loaded>>;

/// MILA games by the variant their `map` names: the variants read, and
/// each game's record with its variant's key.
fn convert_games(
    name: &str,
    games: &[dip_game::mila::SavedGame],
    variants: &Variants,
) -> std::result::Result<(ByMap, Vec<(String, GameRecord)>), String> {
    let mut by_map: ByMap = Default::default();
    let mut records = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let key = g.map.trim().to_ascii_lowercase();
        if !by_map.contains_key(&key) {
            match mila_variant(&g.map, variants) {
                Ok(v) => by_map.insert(key.clone(), Arc::new(Loaded::new(Arc::new(v)))),
                Err(e) => return Err(format!("{name}: game {}: {e}", i + 1)),
            };
        }
        let v = &by_map[&key];
        match from_mila(v.map(), g) {
            Ok(r) => records.push((key, r)),
            Err(e) => return Err(format!("{name}: game {}: {e}", i + 1)),
        }
    }
    Ok((by_map, records))
}

/// Each game's record file in `out`, named by its id.
fn record_paths(out: &Path, games: &[dip_game::mila::SavedGame]) -> Vec<PathBuf> {
    let mut used = std::collections::HashSet::new();
    let mut paths = Vec::new();
    for (i, g) in games.iter().enumerate() {
        // The id comes from the file: it names a file inside --out
        // and nothing else; games with the same id are numbered.
        let id = if g.id.is_empty() {
            format!("game{}", i + 1)
        } else {
            dip_game::files::safe_file_name(&g.id)
        };
        let mut stem = id.clone();
        let mut n = 2;
        while !used.insert(stem.to_ascii_lowercase()) {
            stem = format!("{id}-{n}");
            n += 1;
        }
        if stem != g.id && !g.id.is_empty() {
            eprintln!(
                "note: game {} (id `{}`) is written as {stem}.rec",
                i + 1,
                g.id.escape_debug()
            );
        }
        paths.push(out.join(format!("{stem}.rec")));
    }
    paths
}

/// `dip record gam`: the position after the last phase as a `.gam`.
fn gam(file: &Path, v: &dip_variants::Variant, rec: &GameRecord, out: Option<&Path>, force: bool) -> Result<ExitCode> {
    let Some(mut last) = rec.last_state(&v.map) else {
        eprintln!("dip: {}: the record has no phase", file.display());
        return Ok(ExitCode::from(2));
    };
    // Realpolitik game files start at a movement or adjustment phase.
    if last.phase.kind == dip_core::PhaseKind::Retreat {
        eprintln!("dip: the last position is in a retreat phase; a .gam cannot hold dislodged units");
        return Ok(ExitCode::from(2));
    }
    last.clear_dislodged();
    let gam = dip_game::record::to_gam(v, &last);
    match out {
        Some(p) => {
            if let Err(e) = dip_game::files::check_targets(&[p], &[file], force)
                .and_then(|()| dip_game::files::replace(p, gam.as_bytes()))
            {
                return fail(e);
            }
        }
        None => print!("{gam}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// `dip record dip`: the game as DIP's season files.
fn dip_files(
    file: &Path,
    v: &dip_variants::Variant,
    rec: &GameRecord,
    out: &Path,
    prefix: &str,
    force: bool,
    fixnames: Option<&Path>,
) -> Result<ExitCode> {
    let prefix = dip_game::files::safe_file_name(prefix);
    let mut vocab = dip_text::Vocabulary::new(&v.map);
    crate::fixnames::apply(&mut vocab, fixnames)?;
    let files: Vec<(PathBuf, String)> = dip_game::dipfile::to_dip_files_with(&vocab, rec, &prefix)
        .into_iter()
        .map(|(name, text)| (out.join(name), text))
        .collect();
    let targets: Vec<&Path> = files.iter().map(|(p, _)| p.as_path()).collect();
    if let Err(e) = dip_game::files::check_targets(&targets, &[file], force) {
        return fail(e);
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    for (path, text) in files {
        if let Err(e) = dip_game::files::write_new(&path, text.as_bytes(), force) {
            return fail(e);
        }
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `dip record from-dip`: DIP's season files into a record on stdout.
fn from_dip(files: &[PathBuf], fixnames: Option<&Path>, variants: &Variants) -> Result<ExitCode> {
    let mut texts = Vec::new();
    for f in files {
        let name = f.display().to_string();
        texts.push((name.clone(), dip_game::files::read_text(f).map_err(anyhow::Error::msg)?));
    }
    let v = match texts.first() {
        Some((_, t)) => dip_game::record::variant_of_text(&files[0], t, variants).map_err(anyhow::Error::msg)?,
        None => dip_variants::standard(),
    };
    let mut vocab = dip_text::Vocabulary::new(&v.map).with_spellcheck(0);
    crate::fixnames::apply(&mut vocab, fixnames)?;
    match dip_game::dipfile::from_dip_files_with(&vocab, &texts) {
        Ok(rec) => {
            print!("{}", rec.to_text(&v.map));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => fail(e),
    }
}
