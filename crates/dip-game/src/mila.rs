//! MILA saved games (`to_saved_game_format`): one JSON object per game,
//! one game a line.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct SavedGame {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub map: String,
    #[serde(default)]
    pub rules: Vec<String>,
    pub phases: Vec<SavedPhase>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct SavedPhase {
    /// `S1901M`, `F1901R`, `W1901A`.
    pub name: String,
    pub state: SavedState,
    /// Orders by power, as MILA writes them (`A PAR - BUR`).
    #[serde(default)]
    pub orders: BTreeMap<String, Option<Vec<String>>>,
    /// Result tags by unit (`A PAR`): `bounce`, `cut`, `void`, `dislodged`,
    /// `no convoy`, `disband`.
    #[serde(default)]
    pub results: BTreeMap<String, Vec<String>>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct SavedState {
    /// Units by power; a leading `*` marks a dislodged unit.
    #[serde(default)]
    pub units: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub centers: BTreeMap<String, Vec<String>>,
    /// Dislodged units and where they may retreat.
    #[serde(default)]
    pub retreats: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

/// A saved-games file that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("{file}{}: {message}", dip_core::colon_line(.line))]
pub struct MilaError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// Reads every game of a file (gzip when it starts with the gzip magic).
pub fn read_games(bytes: &[u8], file: &str) -> Result<Vec<SavedGame>, MilaError> {
    let reader: Box<dyn Read + '_> = if bytes.starts_with(&[0x1f, 0x8b]) {
        Box::new(flate2::read::MultiGzDecoder::new(bytes))
    } else {
        Box::new(bytes)
    };
    // A few compressed bytes can unpack to gigabytes: the text is capped.
    let limit = crate::files::MAX_BINARY_BYTES;
    let mut games = Vec::new();
    let mut total: u64 = 0;
    for (i, line) in BufReader::new(reader.take(limit + 1)).lines().enumerate() {
        let line = line.map_err(|e| MilaError {
            file: file.into(),
            line: i + 1,
            message: format!("cannot read: {e}"),
        })?;
        total += line.len() as u64 + 1;
        if total > limit {
            return Err(MilaError {
                file: file.into(),
                line: i + 1,
                message: format!("the games unpack to more than {} MiB, the most dip reads", limit >> 20),
            });
        }
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}').to_string()
        } else {
            line
        };
        if line.trim().is_empty() {
            continue;
        }
        let game: SavedGame = serde_json::from_str(&line).map_err(|e| MilaError {
            file: file.into(),
            line: i + 1,
            message: format!("not a saved game (column {}): {e}", e.column()),
        })?;
        games.push(game);
    }
    Ok(games)
}
