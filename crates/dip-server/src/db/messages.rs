//! The `messages` table: press as sent.

use super::{DbError, Tx};

/// A stored message; `recipients` is JSON text (`"all"` or a list of
/// power names).
pub struct MessageRow {
    pub id: i64,
    pub phase: String,
    pub sender: String,
    pub recipients: String,
    pub body: String,
    pub created: i64,
}

/// Stores a message; its id.
pub fn insert(
    tx: &mut dyn Tx,
    game: i64,
    phase: &str,
    sender: &str,
    recipients: &str,
    body: &str,
    now: i64,
) -> Result<i64, DbError> {
    tx.query_one(
        "INSERT INTO messages (game_id, phase, sender, recipients, body, created) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        &[game.into(), phase.into(), sender.into(), recipients.into(), body.into(), now.into()],
    )?
    .ok_or_else(|| DbError::Sql("INSERT … RETURNING gave no row".into()))?
    .int(0)
}

/// The game's messages with ids in `after + 1 ..= upto`, oldest first.
pub fn between(tx: &mut dyn Tx, game: i64, after: i64, upto: i64) -> Result<Vec<MessageRow>, DbError> {
    tx.query(
        "SELECT id, phase, sender, recipients, body, created FROM messages \
         WHERE game_id = $1 AND id > $2 AND id <= $3 ORDER BY id",
        &[game.into(), after.into(), upto.into()],
    )?
    .iter()
    .map(|r| {
        Ok(MessageRow {
            id: r.int(0)?,
            phase: r.text(1)?,
            sender: r.text(2)?,
            recipients: r.text(3)?,
            body: r.text(4)?,
            created: r.int(5)?,
        })
    })
    .collect()
}

/// The game's messages, oldest first.
pub fn all(tx: &mut dyn Tx, game: i64) -> Result<Vec<MessageRow>, DbError> {
    between(tx, game, 0, i64::MAX)
}

/// The id of the game's latest message (0: none yet).
pub fn last(tx: &mut dyn Tx, game: i64) -> Result<i64, DbError> {
    Ok(tx
        .query_one("SELECT MAX(id) FROM messages WHERE game_id = $1", &[game.into()])?
        .map(|r| r.opt_int(0))
        .transpose()?
        .flatten()
        .unwrap_or(0))
}
