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

/// Stores (or replaces) a power's orders of a phase (`lines`: JSON).
pub(super) fn store(
    tx: &mut dyn Tx,
    game: i64,
    phase_index: i64,
    power: &str,
    lines: &str,
    now: i64,
) -> Result<(), DbError> {
    tx.exec(
        "INSERT INTO orders (game_id, phase_index, power, lines, updated) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (game_id, phase_index, power) DO UPDATE SET lines = excluded.lines, updated = excluded.updated",
        &[game.into(), phase_index.into(), power.into(), lines.into(), now.into()],
    )?;
    Ok(())
}

/// A power's stored orders of a phase (JSON), if it sent any.
pub(super) fn of_power(tx: &mut dyn Tx, game: i64, phase_index: i64, power: &str) -> Result<Option<String>, DbError> {
    tx.query_one(
        "SELECT lines FROM orders WHERE game_id = $1 AND phase_index = $2 AND power = $3",
        &[game.into(), phase_index.into(), power.into()],
    )?
    .map(|r| r.text(0))
    .transpose()
}

/// Every power's stored orders of a phase (power, JSON), by power.
pub(super) fn of_phase(tx: &mut dyn Tx, game: i64, phase_index: i64) -> Result<Vec<(String, String)>, DbError> {
    tx.query(
        "SELECT power, lines FROM orders WHERE game_id = $1 AND phase_index = $2 ORDER BY power",
        &[game.into(), phase_index.into()],
    )?
    .iter()
    .map(|r| Ok((r.text(0)?, r.text(1)?)))
    .collect()
}
