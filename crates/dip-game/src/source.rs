//! One way in: whatever a user has of a game — a game directory, its
//! GAME.TXT or NEWGAME.TXT, a position file, a game record, DIP's season
//! files, a MILA saved game — read into the variant and the position it
//! stands at (or any phase of its record), with the game's own rules and
//! the variant's file, so that every command that takes a game takes all
//! of them alike.

use crate::gamedir::{GameDir, RunError};
use crate::record::GameRecord;
use dip_core::{Ruleset, State};
use dip_play::Variants;
use dip_variants::Variant;
use std::path::{Path, PathBuf};

/// A game read from a file or folder.
pub struct Opened {
    pub variant: Variant,
    pub state: State,
    /// What was read, when it was not a plain position file (for the user).
    pub note: Option<String>,
    /// The game's own rules: a game directory's `RULES` and DipWork
    /// switches (`SELF_CUT_OK` ...), a record's `rules` line. `None` for a
    /// position file (the variant's rules, or `--rules`).
    pub rules: Option<Ruleset>,
    /// The variant's file or folder, when the game named one (a
    /// Realpolitik `.var`: its `.rgn` and ColorMap are found beside it).
    pub variant_path: Option<PathBuf>,
}

/// A whole game read from a record of any kind.
pub struct Recorded {
    pub variant: Variant,
    pub record: GameRecord,
    /// The variant's file or folder (see `Opened::variant_path`).
    pub variant_path: Option<PathBuf>,
    /// What was read (for the user).
    pub note: String,
}

/// An orders file for a position in `phase`: its text, or, for one of
/// DIP's `.dip` files, only its orders of that phase (DIP's "Import").
pub fn read_orders_file(path: &Path, phase: dip_core::PhaseKind) -> Result<String, String> {
    let text = crate::files::read_text(path)?;
    Ok(crate::dipfile::import_orders(&text, phase).unwrap_or(text))
}

fn other(e: impl std::fmt::Display) -> RunError {
    RunError::Other(e.to_string())
}

fn is_mila(path: &Path) -> bool {
    let lower = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    lower.ends_with(".json") || lower.ends_with(".jsonl") || lower.ends_with(".gz")
}

fn is_dip(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("dip"))
}

/// A path to a game's GAME.TXT or NEWGAME.TXT given where its directory
/// is wanted (`dip run spiel/GAME.TXT`): the directory.
pub fn game_dir_of(path: &Path) -> PathBuf {
    if path.is_file() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_uppercase())
            .unwrap_or_default();
        if name.starts_with("GAME") || name.starts_with("NEWGAME") || name.starts_with("ORDERS") {
            return match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
        }
    }
    path.to_path_buf()
}

/// Reads a whole game: a record (`.rec`), a game directory (its
/// HISTORY.REC), one of DIP's season files (`.dip`: the game's other
/// season files beside it are found by name, as DIP does) or a MILA saved
/// game (`.json`, `.jsonl`, `.gz`: its first game).
pub fn open_record(path: &Path, variants: &Variants) -> Result<Recorded, RunError> {
    let name = path.display().to_string();
    if is_mila(path) {
        let bytes = crate::files::read_bytes_capped(path, crate::files::MAX_BINARY_BYTES).map_err(RunError::Other)?;
        let games = crate::mila::read_games(&bytes, &name).map_err(other)?;
        let game = games
            .first()
            .ok_or_else(|| RunError::Other(format!("{name}: no game in the file")))?;
        // The game's map: a bundled or plugin variant's name, or a file
        // confined to the MILA file's folder (never any path of the machine).
        let map_name = if game.map.is_empty() { "standard" } else { &game.map };
        let variant = crate::record::record_variant(path, map_name, variants).map_err(other)?;
        let record =
            crate::record::from_mila(&variant.map, game).map_err(|e| RunError::Other(format!("{name}: {e}")))?;
        return Ok(Recorded {
            variant,
            record,
            variant_path: None,
            note: format!("{name}: MILA game `{}`", game.id),
        });
    }
    if is_dip(path) {
        let mut texts = Vec::new();
        for f in crate::dipfile::game_files(path) {
            texts.push((
                f.display().to_string(),
                crate::files::read_text(&f).map_err(RunError::Other)?,
            ));
        }
        let variant = crate::record::variant_of_text(path, &texts[0].1, variants).map_err(RunError::Other)?;
        let record = crate::dipfile::from_dip_files(&variant.map, &texts).map_err(other)?;
        return Ok(Recorded {
            variant,
            record,
            variant_path: None,
            note: format!("{name}: DIP's season files ({})", texts.len()),
        });
    }
    // A DipWork game file (GAME.TXT, NEWGAME.TXT): its game's record.
    if is_game_file(path) {
        let dir = game_dir_of(path);
        if dir.is_dir() && dir != path {
            return open_record(&dir, variants);
        }
    }
    let (file, game) = if path.is_dir() {
        (path.join("HISTORY.REC"), Some(path))
    } else {
        (path.to_path_buf(), None)
    };
    let text = crate::files::read_text(&file).map_err(|e| match game {
        Some(dir) if !file.exists() => RunError::Other(format!(
            "{}: no HISTORY.REC (a game directory has one after its first `dip accept`)",
            dir.display()
        )),
        _ => RunError::Other(e),
    })?;
    // The variant named in the record; a game directory's own when the
    // record names it as GAME.TXT does (VARIANTPATH relative to the project).
    let (variant, variant_path) = match crate::record::variant_of_text(&file, &text, variants) {
        Ok(v) => (v, None),
        Err(e) => match game {
            Some(dir) => {
                let g = GameDir::open(dir, None, variants).map_err(|_| RunError::Other(e))?;
                (g.variant, g.variant_path)
            }
            None => return Err(RunError::Other(e)),
        },
    };
    let record = GameRecord::from_text(&variant.map, &text, &file.display().to_string())
        .map_err(|e| RunError::Other(not_a_record(e.to_string(), &file, &text)))?;
    Ok(Recorded {
        variant,
        record,
        variant_path,
        note: format!("{}: the game's record", file.display()),
    })
}

/// A DipWork game file by its name (GAME.TXT, NEWGAME.TXT), not a record
/// or another kind of file whose name starts alike (`game1.rec`).
fn is_game_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_uppercase())
        .unwrap_or_default();
    path.is_file() && (name.starts_with("GAME") || name.starts_with("NEWGAME")) && name.ends_with(".TXT")
}

/// A record's reading error, with what the file seems to be instead when
/// it is no record at all: a position file, DipWork's game or orders file.
fn not_a_record(error: String, file: &Path, text: &str) -> String {
    if text.lines().any(|l| l.trim() == "# dip game record") {
        return error;
    }
    let first_word = |w: &str| text.lines().any(|l| l.split_whitespace().next() == Some(w));
    let looks = if first_word("VARIANTPATH") || first_word("NATION") {
        "a DipWork game or orders file (give its game directory: the record is its HISTORY.REC)"
    } else if first_word("DIP") {
        "one of DIP's season files (name it `….dip`)"
    } else if first_word("phase") && !first_word("orders") {
        "a position file, which has no orders"
    } else {
        "not a game record"
    };
    format!(
        "{}: {looks}; expected a game record (`.rec`, docs/game-record.md), a game directory or its GAME.TXT, DIP's `.dip` files or a MILA game ({error})",
        file.display()
    )
}

/// Which phase of a record `want` names: `None` for `last` (the position
/// after the last phase), else the index of the phase (`S1902M`, `F1901R`,
/// `W1901A`, or a number from 1).
pub fn phase_index(record: &GameRecord, want: &str) -> Result<Option<usize>, RunError> {
    let want = want.trim();
    let n = record.phases.len();
    if want.eq_ignore_ascii_case("last") {
        return Ok(None);
    }
    if let Ok(i) = want.parse::<usize>() {
        if i == 0 || i > n {
            return Err(RunError::Other(format!("--phase {i}: the record has phases 1 to {n}")));
        }
        return Ok(Some(i - 1));
    }
    match record
        .phases
        .iter()
        .position(|p| p.state.phase.short().eq_ignore_ascii_case(want))
    {
        Some(i) => Ok(Some(i)),
        None => {
            let names: Vec<String> = record.phases.iter().map(|p| p.state.phase.short()).collect();
            Err(RunError::Other(format!(
                "--phase {want}: no such phase in the record; it has {} (or `last`, the position after them)",
                names.join(" ")
            )))
        }
    }
}

/// Reads the game at `path`. `variant`: the variant of a position file
/// (the other kinds name their own).
pub fn open(path: &Path, variant: &str, variants: &Variants) -> Result<Opened, RunError> {
    open_at(path, variant, None, variants)
}

pub fn open_at(path: &Path, variant: &str, phase: Option<&str>, variants: &Variants) -> Result<Opened, RunError> {
    let name = path.display().to_string();
    let lower = name.to_ascii_lowercase();
    let record_like = is_mila(path) || is_dip(path) || lower.ends_with(".rec");
    if let Some(want) = phase.filter(|_| record_like || path.is_dir()) {
        return open_phase(path, want, variants);
    }
    if let Some(want) = phase {
        return Err(RunError::Other(format!(
            "--phase {want}: {name} is a single position, not a game with phases (give a record, a game directory, DIP's .dip files or a MILA game)"
        )));
    }
    // `start`: the variant's starting position, for every command that
    // takes a game (`dip render start` had it alone).
    if path.as_os_str() == "start" && !path.exists() {
        let v = variants.load(variant).map_err(other)?;
        return Ok(Opened {
            state: v.start.clone(),
            note: None,
            rules: None,
            variant_path: Path::new(variant).exists().then(|| PathBuf::from(variant)),
            variant: v,
        });
    }
    if path.is_dir() {
        return open_game_dir(path, variants);
    }
    if is_dip(path) {
        return open_dip_season(path, variants);
    }
    if record_like {
        let rec = open_record(path, variants)?;
        let state = rec
            .record
            .last_state(&rec.variant.map)
            .ok_or_else(|| RunError::Other(format!("{name}: the game has no phase")))?;
        return Ok(Opened {
            note: Some(format!("{}: the position after its last phase", rec.note)),
            rules: Ruleset::parse(&rec.record.rules).ok(),
            variant: rec.variant,
            state,
            variant_path: rec.variant_path,
        });
    }
    let text = crate::files::read_text(path).map_err(RunError::Other)?;
    if text.lines().any(|l| l.trim() == "# dip game record") {
        return open_record_text(path, &text, variants);
    }
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_uppercase())
        .unwrap_or_default();
    let dipwork = file_name.starts_with("GAME")
        || file_name.starts_with("NEWGAME")
        || text.lines().any(|l| l.trim_start().starts_with("VARIANTPATH"));
    if dipwork {
        return open_game_file(path, &text, variants);
    }
    let v = variants.load(variant).map_err(other)?;
    let state = dip_text::parse_position(&v.map, &text, &name).map_err(other)?;
    Ok(Opened {
        variant: v,
        state,
        note: None,
        rules: None,
        variant_path: Path::new(variant).exists().then(|| PathBuf::from(variant)),
    })
}

/// `--phase`: a phase of a game's record (a number from 1, a phase name,
/// or `last` for the position after the last phase).
fn open_phase(path: &Path, want: &str, variants: &Variants) -> Result<Opened, RunError> {
    let name = path.display().to_string();
    let rec = open_record(path, variants)?;
    let rules = Ruleset::parse(&rec.record.rules).ok();
    let (state, at) = match phase_index(&rec.record, want)? {
        Some(i) => (rec.record.phases[i].state.clone(), format!("phase {}", i + 1)),
        None => (
            rec.record
                .last_state(&rec.variant.map)
                .ok_or_else(|| RunError::Other(format!("{name}: the record has no phase")))?,
            "the position after the last phase".to_string(),
        ),
    };
    Ok(Opened {
        note: Some(format!("{} at {} ({at})", rec.note, state.phase.short())),
        variant: rec.variant,
        state,
        rules,
        variant_path: rec.variant_path,
    })
}

/// A game directory: the position of its GAME.TXT, with its rules.
fn open_game_dir(path: &Path, variants: &Variants) -> Result<Opened, RunError> {
    let name = path.display().to_string();
    let g = GameDir::open(path, None, variants)?;
    let vocab = g.vocabulary()?;
    let state = g.game.state(&vocab)?;
    let mut note = format!("{name}: the position of its GAME.TXT");
    if let Some(how) = g.game.phase()?.1 {
        note = format!("{note} ({how})");
    }
    let rules = g.rules()?;
    Ok(Opened {
        variant: g.variant,
        state,
        note: Some(note),
        rules: Some(rules),
        variant_path: g.variant_path,
    })
}

/// One of DIP's season files alone: the position it stands at, not the
/// last of the series its siblings make (that is `--phase last`).
fn open_dip_season(path: &Path, variants: &Variants) -> Result<Opened, RunError> {
    let name = path.display().to_string();
    let text = crate::files::read_text(path).map_err(RunError::Other)?;
    let variant = crate::record::variant_of_text(path, &text, variants).map_err(RunError::Other)?;
    let (state, played) = crate::dipfile::season_end(&variant.map, &name, &text).map_err(other)?;
    let rules = text
        .lines()
        .find_map(|l| l.strip_prefix("rules "))
        .and_then(|r| Ruleset::parse(r.trim()).ok());
    let at = if played == 0 {
        "its position"
    } else {
        "the position after the season it records"
    };
    Ok(Opened {
        note: Some(format!("{name}: DIP's season file, {at} ({})", state.phase.short())),
        variant,
        state,
        rules,
        variant_path: None,
    })
}

/// A dip game record under another name: the position after its last phase.
fn open_record_text(path: &Path, text: &str, variants: &Variants) -> Result<Opened, RunError> {
    let name = path.display().to_string();
    let variant = crate::record::variant_of_text(path, text, variants).map_err(RunError::Other)?;
    let rec = GameRecord::from_text(&variant.map, text, &name).map_err(other)?;
    let state = rec
        .last_state(&variant.map)
        .ok_or_else(|| RunError::Other(format!("{name}: the record has no phase")))?;
    Ok(Opened {
        rules: Ruleset::parse(&rec.rules).ok(),
        variant,
        state,
        note: Some(format!("{name}: the position after the record's last phase")),
        variant_path: None,
    })
}

/// A DipWork game file: read as the game directory's GAME.TXT, with the
/// directory's parameters (the variant named there).
fn open_game_file(path: &Path, text: &str, variants: &Variants) -> Result<Opened, RunError> {
    let name = path.display().to_string();
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let g = GameDir::open_with(dir, None, Some((text, path)), variants)?;
    let vocab = g.vocabulary()?;
    let state = g.game.state(&vocab)?;
    let rules = g.rules()?;
    Ok(Opened {
        variant: g.variant,
        state,
        note: Some(format!("{name}: a DipWork game file")),
        rules: Some(rules),
        variant_path: g.variant_path,
    })
}
