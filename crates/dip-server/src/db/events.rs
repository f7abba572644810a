//! The `events` table: what happens to a game, for its live streams and
//! DAIDE connections. Each inserted row is also a [`Notice`] handed on
//! once its transaction commits, so that the streams of this process get
//! it from the write that made it.

use super::{DbError, Notice, Tx};

/// A stored event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    pub id: i64,
    pub game: i64,
    pub kind: String,
    /// The event's JSON, as text.
    pub data: String,
}

/// Inserts an event of `game`.
///
/// Streams send a game's events after the last id they sent (`id > last`),
/// so a game's ids must be committed in the order they are drawn. On
/// PostgreSQL they come from a sequence, drawn in one order and committed
/// in another: a stream that read id 11 before id 10 was committed never
/// sent 10. So the game's row is held first (`FOR NO KEY UPDATE`, until
/// the transaction ends): the next event of the game draws its id only
/// after this one is committed. (That lock does not wait for the key
/// lock that inserting a row referring to the game takes, so two such
/// transactions cannot deadlock here; one that holds the row `FOR SHARE`
/// could, and none inserts events.) SQLite has one writer: commits are in
/// the order of the ids already.
pub fn insert(tx: &mut dyn Tx, game: i64, kind: &str, data: String, now: i64) -> Result<i64, DbError> {
    let hold = tx.for_no_key_update();
    if !hold.is_empty() {
        tx.exec(&format!("SELECT 1 FROM games WHERE id = $1{hold}"), &[game.into()])?;
    }
    let row = tx
        .query_one(
            "INSERT INTO events (game_id, kind, data, created) VALUES ($1, $2, $3, $4) RETURNING id",
            &[game.into(), kind.into(), data.clone().into(), now.into()],
        )?
        .ok_or_else(|| DbError::Sql("INSERT … RETURNING gave no row".into()))?;
    let id = row.int(0)?;
    tx.notify(Notice::Event(EventRow {
        id,
        game,
        kind: kind.to_string(),
        data,
    }));
    Ok(id)
}

/// The game's events after `after`, oldest first, at most `limit`.
pub fn after(tx: &mut dyn Tx, game: i64, after: i64, limit: i64) -> Result<Vec<EventRow>, DbError> {
    tx.query(
        "SELECT id, kind, data FROM events WHERE game_id = $1 AND id > $2 ORDER BY id LIMIT $3",
        &[game.into(), after.into(), limit.into()],
    )?
    .iter()
    .map(|r| {
        Ok(EventRow {
            id: r.int(0)?,
            game,
            kind: r.text(1)?,
            data: r.text(2)?,
        })
    })
    .collect()
}

/// The id of the game's latest event (0: none).
pub fn last(tx: &mut dyn Tx, game: i64) -> Result<i64, DbError> {
    Ok(tx
        .query_one("SELECT MAX(id) FROM events WHERE game_id = $1", &[game.into()])?
        .map(|r| r.opt_int(0))
        .transpose()?
        .flatten()
        .unwrap_or(0))
}
