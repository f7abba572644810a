//! The `phases` table: every processed phase of a game with the position
//! it began in, its orders (JSON), results (JSON) and report.

use super::store::Position;
use super::{DbError, Tx};

/// A processed phase as stored (read and written by [`super::store`]).
pub struct PhaseRow {
    pub index: i64,
    pub phase: String,
    /// `movement`, `retreat` or `adjustment`.
    pub kind: String,
    pub position: Position,
    /// JSON: each power's order lines.
    pub orders: String,
    /// JSON: the outcome of each order.
    pub results: String,
    pub report: String,
    pub processed: i64,
    pub processed_by: String,
}

const COLUMNS: &str = "phase_index, phase, position, orders, results, report, processed, processed_by, kind";

fn row(r: &super::Row) -> Result<PhaseRow, DbError> {
    Ok(PhaseRow {
        index: r.int(0)?,
        phase: r.text(1)?,
        kind: r.text(8)?,
        position: Position::column(r.text(2)?),
        orders: r.text(3)?,
        results: r.text(4)?,
        report: r.text(5)?,
        processed: r.int(6)?,
        processed_by: r.text(7)?,
    })
}

/// A game's processed phases, oldest first.
pub(super) fn all(tx: &mut dyn Tx, game: i64) -> Result<Vec<PhaseRow>, DbError> {
    tx.query(
        &format!("SELECT {COLUMNS} FROM phases WHERE game_id = $1 ORDER BY phase_index"),
        &[game.into()],
    )?
    .iter()
    .map(row)
    .collect()
}

/// The last phase of a game processed, if any (the map of now draws its
/// orders and results).
pub(super) fn last(tx: &mut dyn Tx, game: i64) -> Result<Option<PhaseRow>, DbError> {
    tx.query(
        &format!("SELECT {COLUMNS} FROM phases WHERE game_id = $1 ORDER BY phase_index DESC LIMIT 1"),
        &[game.into()],
    )?
    .first()
    .map(row)
    .transpose()
}

/// Stores a processed phase of `game`.
pub(super) fn insert(tx: &mut dyn Tx, game: i64, p: &PhaseRow) -> Result<(), DbError> {
    tx.exec(
        "INSERT INTO phases (game_id, phase_index, phase, kind, position, orders, results, report, processed, processed_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        &[
            game.into(),
            p.index.into(),
            (&p.phase).into(),
            (&p.kind).into(),
            p.position.text().into(),
            (&p.orders).into(),
            (&p.results).into(),
            (&p.report).into(),
            p.processed.into(),
            (&p.processed_by).into(),
        ],
    )?;
    Ok(())
}
