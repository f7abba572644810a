//! The `games` table: a hosted game's row (its options as JSON, its
//! position as text), read into [`GameRow`].

use super::store::Position;
use super::{DbError, Row, Tx};
use crate::game::{GameRow, Status};

/// The columns [`read`] takes, in its order.
const COLUMNS: &str = "id, name, variant, creator, status, options, phase_index, position, deadline, \
                       paused_left, winner, result, failures, last_error";

/// How many columns [`read`] takes: a query may select more after them.
const WIDTH: usize = 14;

/// A game's row from the first [`WIDTH`] columns (those of [`COLUMNS`]).
fn read(r: &Row) -> Result<GameRow, DbError> {
    let id = r.int(0)?;
    let options =
        serde_json::from_str(&r.text(5)?).map_err(|e| DbError::Stored(format!("game {id}: stored options: {e}")))?;
    Ok(GameRow {
        id,
        name: r.text(1)?,
        variant: r.text(2)?,
        creator: r.int(3)?,
        status: Status::parse(&r.text(4)?),
        options,
        phase_index: r.int(6)?,
        position: Position::column(r.text(7)?),
        deadline: r.opt_int(8)?,
        paused_left: r.opt_int(9)?,
        winner: r.opt_text(10)?,
        result: r.opt_text(11)?,
        failures: r.int(12)?,
        last_error: r.opt_text(13)?,
    })
}

/// A game by id; `lock`: held for update until the transaction ends
/// (PostgreSQL; SQLite's writer holds the whole database anyway).
pub fn load(tx: &mut dyn Tx, id: i64, lock: bool) -> Result<Option<GameRow>, DbError> {
    let clause = if lock { tx.for_update() } else { "" };
    let sql = format!("SELECT {COLUMNS} FROM games WHERE id = $1{clause}");
    tx.query_one(&sql, &[id.into()])?.map(|r| read(&r)).transpose()
}

/// A game in a list, with what the list says of its players.
pub struct Listed {
    pub game: GameRow,
    /// How many players joined.
    pub joined: i64,
    /// Whether the viewer is one of them, and the power they play.
    pub member: bool,
    pub power: Option<String>,
}

/// A page of games, newest first: those in one of `statuses`, with an id
/// below `before`, only those of `viewer` (created or joined) if `mine`;
/// private games only for their members and game master (`viewer` 0:
/// nobody). At most `limit` rows.
pub fn list(
    tx: &mut dyn Tx,
    viewer: i64,
    statuses: &[&str],
    before: Option<i64>,
    mine: bool,
    limit: i64,
) -> Result<Vec<Listed>, DbError> {
    // $1: the viewer, $2: the limit, then the statuses.
    let mut params: Vec<super::Value> = vec![viewer.into(), limit.into()];
    let mut marks = Vec::new();
    for st in statuses {
        params.push((*st).into());
        marks.push(format!("${}", params.len()));
    }
    let mut sql = format!(
        "SELECT {COLUMNS}, (SELECT COUNT(*) FROM members m WHERE m.game_id = games.id), \
         (SELECT COUNT(*) FROM members m WHERE m.game_id = games.id AND m.account_id = $1), \
         (SELECT m.power FROM members m WHERE m.game_id = games.id AND m.account_id = $1) \
         FROM games WHERE status IN ({})",
        marks.join(", ")
    );
    if let Some(b) = before {
        params.push(b.into());
        sql.push_str(&format!(" AND id < ${}", params.len()));
    }
    sql.push_str(&format!(" AND {}", super::private::LISTED));
    if mine {
        sql.push_str(" AND (creator = $1 OR id IN (SELECT game_id FROM members WHERE account_id = $1))");
    }
    sql.push_str(" ORDER BY id DESC LIMIT $2");
    tx.query(&sql, &params)?
        .iter()
        .map(|r| {
            Ok(Listed {
                game: read(r)?,
                joined: r.int(WIDTH)?,
                member: r.int(WIDTH + 1)? > 0,
                power: r.opt_text(WIDTH + 2)?,
            })
        })
        .collect()
}

/// The active game whose deadline passed first, not one of `skip`; on
/// PostgreSQL held for update, and skipped while another server holds it.
pub fn next_due(tx: &mut dyn Tx, now: i64, skip: &[i64]) -> Result<Option<GameRow>, DbError> {
    let not_in = if skip.is_empty() {
        String::new()
    } else {
        format!(
            " AND id NOT IN ({})",
            skip.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
        )
    };
    let sql = format!(
        "SELECT {COLUMNS} FROM games WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= $1{not_in} \
         ORDER BY deadline LIMIT 1{}",
        tx.skip_locked()
    );
    tx.query_one(&sql, &[now.into()])?.map(|r| read(&r)).transpose()
}

/// Renames a game.
pub fn set_name(tx: &mut dyn Tx, id: i64, name: &str) -> Result<(), DbError> {
    tx.exec("UPDATE games SET name = $1 WHERE id = $2", &[name.into(), id.into()])?;
    Ok(())
}

/// Stores the position a game is in (after an edit).
pub(super) fn set_position(tx: &mut dyn Tx, id: i64, position: &Position) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET position = $1 WHERE id = $2",
        &[position.text().into(), id.into()],
    )?;
    Ok(())
}

/// A new game's row, but for its position ([`super::store::GameStore::create`]).
pub struct NewGame<'a> {
    pub name: &'a str,
    pub variant: &'a str,
    pub creator: i64,
    /// JSON.
    pub options: &'a str,
    pub now: i64,
}

/// A new game, forming, in `position`; its id.
pub(super) fn insert(tx: &mut dyn Tx, g: &NewGame, position: &Position) -> Result<i64, DbError> {
    tx.query_one(
        "INSERT INTO games (name, variant, creator, status, options, position, created) \
         VALUES ($1, $2, $3, 'forming', $4, $5, $6) RETURNING id",
        &[
            g.name.into(),
            g.variant.into(),
            g.creator.into(),
            g.options.into(),
            position.text().into(),
            g.now.into(),
        ],
    )?
    .ok_or_else(|| DbError::Sql("the new game has no id".into()))?
    .int(0)
}

/// Stores a game's options (JSON).
pub fn set_options(tx: &mut dyn Tx, id: i64, options: &str) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET options = $1 WHERE id = $2",
        &[options.into(), id.into()],
    )?;
    Ok(())
}

/// The id and options (JSON) of every game that is not finished.
pub fn unfinished_options(tx: &mut dyn Tx) -> Result<Vec<(i64, String)>, DbError> {
    tx.query("SELECT id, options FROM games WHERE status <> 'finished'", &[])?
        .iter()
        .map(|r| Ok((r.int(0)?, r.text(1)?)))
        .collect()
}

/// The game runs from now, its deadline `deadline` (none: by hand).
pub fn start(tx: &mut dyn Tx, id: i64, deadline: Option<i64>) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET status = 'active', deadline = $1 WHERE id = $2",
        &[deadline.into(), id.into()],
    )?;
    Ok(())
}

/// The game is paused with `left` milliseconds of its deadline kept
/// (none: it had no deadline).
pub fn pause(tx: &mut dyn Tx, id: i64, left: Option<i64>) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET status = 'paused', paused_left = $1, deadline = NULL WHERE id = $2",
        &[left.into(), id.into()],
    )?;
    Ok(())
}

/// The game runs again until `deadline`, its failures forgotten.
pub fn resume(tx: &mut dyn Tx, id: i64, deadline: Option<i64>) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET status = 'active', paused_left = NULL, deadline = $1, failures = 0 WHERE id = $2",
        &[deadline.into(), id.into()],
    )?;
    Ok(())
}

/// The game is over: its winner (none in a draw) and result.
pub fn finish(tx: &mut dyn Tx, id: i64, winner: Option<&str>, result: &str, now: i64) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET status = 'finished', deadline = NULL, winner = $1, result = $2, finished = $3 WHERE id = $4",
        &[winner.map(String::from).into(), result.into(), now.into(), id.into()],
    )?;
    Ok(())
}

/// The phase was processed: the game is in its next phase, in `position`,
/// until `deadline`; its failures are forgotten.
pub(super) fn advance(
    tx: &mut dyn Tx,
    id: i64,
    phase_index: i64,
    position: &Position,
    deadline: Option<i64>,
) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET phase_index = $1, position = $2, deadline = $3, failures = 0, last_error = NULL WHERE id = $4",
        &[phase_index.into(), position.text().into(), deadline.into(), id.into()],
    )?;
    Ok(())
}

/// Processing failed `failures` times: tried again at `retry`.
pub fn failed(tx: &mut dyn Tx, id: i64, failures: i64, message: &str, retry: i64) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET failures = $1, last_error = $2, deadline = $3 WHERE id = $4",
        &[failures.into(), message.into(), retry.into(), id.into()],
    )?;
    Ok(())
}

/// Processing failed once too often: the game is paused (a minute left)
/// and the error kept for its game master.
pub fn failed_and_paused(tx: &mut dyn Tx, id: i64, failures: i64, message: &str) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET failures = $1, last_error = $2, status = 'paused', paused_left = 60000, deadline = NULL WHERE id = $3",
        &[failures.into(), message.into(), id.into()],
    )?;
    Ok(())
}

/// A running game's deadline.
pub fn set_deadline(tx: &mut dyn Tx, id: i64, deadline: i64) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET deadline = $1 WHERE id = $2",
        &[deadline.into(), id.into()],
    )?;
    Ok(())
}

/// A paused game's time left.
pub fn set_paused_left(tx: &mut dyn Tx, id: i64, left: i64) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET paused_left = $1 WHERE id = $2",
        &[left.into(), id.into()],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_width_is_the_number_of_columns() {
        assert_eq!(super::COLUMNS.split(',').count(), super::WIDTH);
    }
}
