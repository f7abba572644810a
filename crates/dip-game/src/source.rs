//! One way in: whatever a user has of a game — a game directory, its
//! GAME.TXT or NEWGAME.TXT, a position file, a game record, a MILA saved
//! game — read into the variant and the position it stands at, so that
//! every command that takes a game takes all of them.

use crate::gamedir::{GameDir, RunError};
use dip_core::State;
use dip_variants::Variant;
use std::path::Path;

/// A game read from a file or folder.
pub struct Opened {
    pub variant: Variant,
    pub state: State,
    /// What was read, when it was not a plain position file (for the user).
    pub note: Option<String>,
}

fn other(e: impl std::fmt::Display) -> RunError {
    RunError::Other(e.to_string())
}

/// Reads the game at `path`. `variant`: the variant of a position file
/// (the other kinds name their own).
pub fn open(path: &Path, variant: &str) -> Result<Opened, RunError> {
    let name = path.display().to_string();
    if path.is_dir() {
        let g = GameDir::open(path, None)?;
        let vocab = g.vocabulary()?;
        let state = g.game.state(&vocab)?;
        let mut note = format!("{name}: the position of its GAME.TXT");
        if let Some(how) = g.game.phase()?.1 {
            note = format!("{note} ({how})");
        }
        return Ok(Opened {
            variant: g.variant,
            state,
            note: Some(note),
        });
    }
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_uppercase())
        .unwrap_or_default();
    let lower = file_name.to_ascii_lowercase();
    if lower.ends_with(".json") || lower.ends_with(".jsonl") || lower.ends_with(".json.gz") || lower.ends_with(".gz") {
        let bytes = crate::files::read_bytes_capped(path, crate::files::MAX_BINARY_BYTES).map_err(RunError::Other)?;
        let games = crate::mila::read_games(&bytes, &name).map_err(other)?;
        let game = games
            .first()
            .ok_or_else(|| RunError::Other(format!("{name}: no game in the file")))?;
        let variant = dip_variants::load(if game.map.is_empty() { "standard" } else { &game.map }).map_err(other)?;
        let rec = crate::record::from_mila(&variant.map, game).map_err(|e| RunError::Other(format!("{name}: {e}")))?;
        let state = rec
            .last_state(&variant.map)
            .ok_or_else(|| RunError::Other(format!("{name}: the game has no phase")))?;
        return Ok(Opened {
            variant,
            state,
            note: Some(format!("{name}: the last position of MILA game `{}`", game.id)),
        });
    }
    let text = crate::files::read_text(path).map_err(RunError::Other)?;
    if text.lines().any(|l| l.trim() == "# dip game record") || lower.ends_with(".rec") {
        let variant = crate::record::variant_of_text(path, &text).map_err(RunError::Other)?;
        let rec = crate::record::GameRecord::from_text(&variant.map, &text, &name).map_err(other)?;
        let state = rec
            .last_state(&variant.map)
            .ok_or_else(|| RunError::Other(format!("{name}: the record has no phase")))?;
        return Ok(Opened {
            variant,
            state,
            note: Some(format!("{name}: the position after the record's last phase")),
        });
    }
    let dipwork = file_name.starts_with("GAME")
        || file_name.starts_with("NEWGAME")
        || text.lines().any(|l| l.trim_start().starts_with("VARIANTPATH"));
    if dipwork {
        // Read as the game directory's GAME.TXT, with the directory's
        // parameters (the variant named there).
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let g = GameDir::open_with(dir, None, Some((&text, path)))?;
        let vocab = g.vocabulary()?;
        let state = g.game.state(&vocab)?;
        return Ok(Opened {
            variant: g.variant,
            state,
            note: Some(format!("{name}: a DipWork game file")),
        });
    }
    let variant = dip_variants::load(variant).map_err(other)?;
    let state = dip_text::parse_position(&variant.map, &text, &name).map_err(other)?;
    Ok(Opened {
        variant,
        state,
        note: None,
    })
}
