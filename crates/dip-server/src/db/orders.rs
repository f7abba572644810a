//! The `orders` table: each power's orders of a phase, as stored lines.

use super::{DbError, Tx};

/// The powers whose orders were stored for the phase (non-empty).
pub fn submitted(tx: &mut dyn Tx, game: i64, phase_index: i64) -> Result<Vec<String>, DbError> {
    tx.query(
        "SELECT power FROM orders WHERE game_id = $1 AND phase_index = $2 AND lines <> '[]'",
        &[game.into(), phase_index.into()],
    )?
    .iter()
    .map(|r| r.text(0))
    .collect()
}
