//! The `edits` table: the game master's edits, each with the position
//! before it.

use super::store::Position;
use super::{DbError, Tx};

/// A stored batch of edit lines (`lines`: JSON text).
pub struct EditRow {
    pub phase_index: i64,
    pub phase: String,
    pub lines: String,
    pub made: i64,
}

pub(super) fn insert(
    tx: &mut dyn Tx,
    game: i64,
    phase_index: i64,
    phase: &str,
    lines: &str,
    position_before: &Position,
    now: i64,
) -> Result<(), DbError> {
    tx.exec(
        "INSERT INTO edits (game_id, phase_index, phase, lines, position_before, made) VALUES ($1, $2, $3, $4, $5, $6)",
        &[
            game.into(),
            phase_index.into(),
            phase.into(),
            lines.into(),
            position_before.text().into(),
            now.into(),
        ],
    )?;
    Ok(())
}

/// The game's edits, oldest first.
pub fn all(tx: &mut dyn Tx, game: i64) -> Result<Vec<EditRow>, DbError> {
    tx.query(
        "SELECT phase_index, phase, lines, made FROM edits WHERE game_id = $1 ORDER BY id",
        &[game.into()],
    )?
    .iter()
    .map(|r| {
        Ok(EditRow {
            phase_index: r.int(0)?,
            phase: r.text(1)?,
            lines: r.text(2)?,
            made: r.int(3)?,
        })
    })
    .collect()
}
