//! Global War's tables: `war_games` (the game as one JSON value, stored
//! after every action), `war_seats` (accounts by the file's player
//! numbers), `war_log` (every action with its events).

use super::{DbError, Row, Tx, Value};
use crate::war::{hex, unhex, Seat, WarOptions, WarRow, WarStatus};

const COLUMNS: &str =
    "id, name, creator, status, options, game, deadline, actions, original, archive, created, finished, delete_at";

fn stored(id: i64, what: &str, e: impl std::fmt::Display) -> DbError {
    DbError::Stored(format!("war game {id}: stored {what}: {e}"))
}

fn war_row(r: &Row) -> Result<WarRow, DbError> {
    let id = r.int(0)?;
    let options = serde_json::from_str(&r.text(4)?).map_err(|e| stored(id, "options", e))?;
    let game = match r.opt_text(5)? {
        Some(t) => Some(serde_json::from_str(&t).map_err(|e| stored(id, "game", e))?),
        None => None,
    };
    let bytes = |i: usize| -> Result<Option<Vec<u8>>, DbError> {
        r.opt_text(i)?
            .map(|t| unhex(&t))
            .transpose()
            .map_err(|e| stored(id, "file", e))
    };
    Ok(WarRow {
        id,
        name: r.text(1)?,
        creator: r.int(2)?,
        status: WarStatus::parse(&r.text(3)?),
        options,
        game,
        deadline: r.opt_int(6)?,
        actions: r.int(7)?,
        original: bytes(8)?,
        archive: bytes(9)?,
        created: r.int(10)?,
        finished: r.opt_int(11)?,
        delete_at: r.opt_int(12)?,
    })
}

/// A game; `lock` keeps the row this transaction's (PostgreSQL).
pub fn load(tx: &mut dyn Tx, id: i64, lock: bool) -> Result<Option<WarRow>, DbError> {
    let clause = if lock { tx.for_update() } else { "" };
    let sql = format!("SELECT {COLUMNS} FROM war_games WHERE id = $1{clause}");
    tx.query_one(&sql, &[id.into()])?.map(|r| war_row(&r)).transpose()
}

/// A new game; its id.
pub fn insert(
    tx: &mut dyn Tx,
    creator: i64,
    name: &str,
    status: WarStatus,
    options: &WarOptions,
    now: i64,
) -> Result<i64, DbError> {
    let options = serde_json::to_string(options).map_err(|e| DbError::Stored(e.to_string()))?;
    tx.query_one(
        "INSERT INTO war_games (name, creator, status, options, created) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        &[
            name.into(),
            creator.into(),
            status.as_str().into(),
            options.into(),
            now.into(),
        ],
    )?
    .ok_or_else(|| DbError::Sql("INSERT … RETURNING gave no row".into()))?
    .int(0)
}

/// The game's row after an action.
pub fn store(tx: &mut dyn Tx, row: &WarRow) -> Result<(), DbError> {
    let game = match &row.game {
        Some(g) => Some(serde_json::to_string(g).map_err(|e| DbError::Stored(e.to_string()))?),
        None => None,
    };
    tx.exec(
        "UPDATE war_games SET status = $1, game = $2, deadline = $3, actions = $4, archive = $5, finished = $6, \
         delete_at = $7 WHERE id = $8",
        &[
            row.status.as_str().into(),
            game.into(),
            row.deadline.into(),
            row.actions.into(),
            row.archive.as_deref().map(hex).into(),
            row.finished.into(),
            row.delete_at.into(),
            row.id.into(),
        ],
    )?;
    Ok(())
}

/// The imported file kept as the game's export (`None`: the game moved on).
pub fn set_original(tx: &mut dyn Tx, id: i64, bytes: Option<&[u8]>) -> Result<(), DbError> {
    tx.exec(
        "UPDATE war_games SET original = $1 WHERE id = $2",
        &[bytes.map(hex).into(), id.into()],
    )?;
    Ok(())
}

/// Every game but the deleted, newest first (at most 200).
pub fn list(tx: &mut dyn Tx) -> Result<Vec<WarRow>, DbError> {
    tx.query(
        &format!("SELECT {COLUMNS} FROM war_games WHERE status <> 'deleted' ORDER BY id DESC LIMIT 200"),
        &[],
    )?
    .iter()
    .map(war_row)
    .collect()
}

/// The taken seats, by number.
pub fn seats(tx: &mut dyn Tx, id: i64) -> Result<Vec<Seat>, DbError> {
    tx.query(
        "SELECT s.seat, s.account_id, a.name, s.vote, s.joined FROM war_seats s JOIN accounts a ON a.id = s.account_id \
         WHERE s.game_id = $1 ORDER BY s.seat",
        &[id.into()],
    )?
    .iter()
    .map(|r| {
        Ok(Seat {
            seat: u8::try_from(r.int(0)?).map_err(|e| stored(id, "seat", e))?,
            account_id: r.int(1)?,
            name: r.text(2)?,
            vote: r.flag(3)?,
            joined: r.int(4)?,
        })
    })
    .collect()
}

pub fn take_seat(tx: &mut dyn Tx, id: i64, seat: u8, account: i64, vote: bool, joined: i64) -> Result<(), DbError> {
    tx.exec(
        "INSERT INTO war_seats (game_id, seat, account_id, vote, joined) VALUES ($1, $2, $3, $4, $5)",
        &[
            id.into(),
            i64::from(seat).into(),
            account.into(),
            vote.into(),
            joined.into(),
        ],
    )?;
    Ok(())
}

/// Whether the account had a seat.
pub fn leave_seat(tx: &mut dyn Tx, id: i64, account: i64) -> Result<bool, DbError> {
    Ok(tx.exec(
        "DELETE FROM war_seats WHERE game_id = $1 AND account_id = $2",
        &[id.into(), account.into()],
    )? > 0)
}

/// Whether the account has a seat to vote with.
pub fn vote(tx: &mut dyn Tx, id: i64, account: i64, vote: bool) -> Result<bool, DbError> {
    Ok(tx.exec(
        "UPDATE war_seats SET vote = $1 WHERE game_id = $2 AND account_id = $3",
        &[vote.into(), id.into(), account.into()],
    )? > 0)
}

/// One action of the log.
pub struct LogEntry {
    pub id: i64,
    pub turn: i64,
    pub seat: u8,
    /// The action and its events, as JSON text.
    pub action: String,
    pub events: String,
    pub made: i64,
}

pub fn log_action(
    tx: &mut dyn Tx,
    id: i64,
    turn: i64,
    seat: u8,
    action: &str,
    events: &str,
    now: i64,
) -> Result<(), DbError> {
    tx.exec(
        "INSERT INTO war_log (game_id, turn, seat, action, events, made) VALUES ($1, $2, $3, $4, $5, $6)",
        &[
            id.into(),
            turn.into(),
            i64::from(seat).into(),
            action.into(),
            events.into(),
            now.into(),
        ],
    )?;
    Ok(())
}

/// The log after entry `since`, oldest first (at most 1,000).
pub fn log(tx: &mut dyn Tx, id: i64, since: i64) -> Result<Vec<LogEntry>, DbError> {
    tx.query(
        "SELECT id, turn, seat, action, events, made FROM war_log WHERE game_id = $1 AND id > $2 ORDER BY id LIMIT 1000",
        &[id.into(), since.into()],
    )?
    .iter()
    .map(|r| {
        Ok(LogEntry {
            id: r.int(0)?,
            turn: r.int(1)?,
            seat: u8::try_from(r.int(2)?).map_err(|e| stored(id, "seat", e))?,
            action: r.text(3)?,
            events: r.text(4)?,
            made: r.int(5)?,
        })
    })
    .collect()
}

fn not_in(skip: &[i64]) -> (String, Vec<Value>) {
    if skip.is_empty() {
        return (String::new(), Vec::new());
    }
    let marks: Vec<String> = (0..skip.len()).map(|i| format!("${}", i + 2)).collect();
    (
        format!(" AND id NOT IN ({})", marks.join(", ")),
        skip.iter().map(|&i| i.into()).collect(),
    )
}

/// Claims the active game whose turn timed out first (none of `skip`),
/// held until the transaction ends; other servers skip it.
pub fn claim_timed_out(tx: &mut dyn Tx, now: i64, skip: &[i64]) -> Result<Option<i64>, DbError> {
    let (clause, mut params) = not_in(skip);
    let sql = format!(
        "SELECT id FROM war_games WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= $1{clause} \
         ORDER BY deadline LIMIT 1{}",
        tx.skip_locked()
    );
    params.insert(0, now.into());
    tx.query_one(&sql, &params)?.map(|r| r.int(0)).transpose()
}

/// Claims the completed game due for deletion first (none of `skip`).
pub fn claim_deletion(tx: &mut dyn Tx, now: i64, skip: &[i64]) -> Result<Option<i64>, DbError> {
    let (clause, mut params) = not_in(skip);
    let sql = format!(
        "SELECT id FROM war_games WHERE status = 'completed' AND delete_at IS NOT NULL AND delete_at <= $1{clause} \
         ORDER BY delete_at LIMIT 1{}",
        tx.skip_locked()
    );
    params.insert(0, now.into());
    tx.query_one(&sql, &params)?.map(|r| r.int(0)).transpose()
}

/// Deletes a completed game: the position and the log go, the archived
/// export and the seats stay.
pub fn delete(tx: &mut dyn Tx, id: i64) -> Result<(), DbError> {
    tx.exec("DELETE FROM war_log WHERE game_id = $1", &[id.into()])?;
    tx.exec(
        "UPDATE war_games SET status = 'deleted', game = NULL, original = NULL, deadline = NULL, delete_at = NULL \
         WHERE id = $1",
        &[id.into()],
    )?;
    Ok(())
}
