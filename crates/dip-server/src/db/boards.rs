//! Kept boards (docs/board.md): a signed-in user's boards, each one row
//! with the board as JSON, its name and the token of its read-only link.
//! The only place their SQL lives.

use super::{DbError, Tx};

/// A kept board's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub id: String,
    pub owner: i64,
    pub name: String,
    /// The token of the board's read-only link.
    pub share: String,
    /// The board (`board::kept`'s JSON).
    pub board: String,
    pub created: i64,
    pub updated: i64,
}

const COLUMNS: &str = "id, owner, name, share, board, created, updated";

fn kept(r: &super::Row) -> Result<Kept, DbError> {
    Ok(Kept {
        id: r.text(0)?,
        owner: r.int(1)?,
        name: r.text(2)?,
        share: r.text(3)?,
        board: r.text(4)?,
        created: r.int(5)?,
        updated: r.int(6)?,
    })
}

/// Adds a board.
pub fn insert(tx: &mut dyn Tx, k: &Kept) -> Result<(), DbError> {
    tx.exec(
        "INSERT INTO boards (id, owner, name, share, board, created, updated) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        &[
            (&k.id).into(),
            k.owner.into(),
            (&k.name).into(),
            (&k.share).into(),
            (&k.board).into(),
            k.created.into(),
            k.updated.into(),
        ],
    )?;
    Ok(())
}

/// Writes a board's state (after a change).
pub fn store(tx: &mut dyn Tx, id: &str, board: &str, now: i64) -> Result<bool, DbError> {
    Ok(tx.exec(
        "UPDATE boards SET board = $1, updated = $2 WHERE id = $3",
        &[board.into(), now.into(), id.into()],
    )? == 1)
}

pub fn get(tx: &mut dyn Tx, id: &str) -> Result<Option<Kept>, DbError> {
    tx.query_one(&format!("SELECT {COLUMNS} FROM boards WHERE id = $1"), &[id.into()])?
        .map(|r| kept(&r))
        .transpose()
}

/// The board a read-only link shows.
pub fn by_share(tx: &mut dyn Tx, share: &str) -> Result<Option<Kept>, DbError> {
    tx.query_one(
        &format!("SELECT {COLUMNS} FROM boards WHERE share = $1"),
        &[share.into()],
    )?
    .map(|r| kept(&r))
    .transpose()
}

/// An owner's boards, the latest changed first.
pub fn list(tx: &mut dyn Tx, owner: i64) -> Result<Vec<Kept>, DbError> {
    tx.query(
        &format!("SELECT {COLUMNS} FROM boards WHERE owner = $1 ORDER BY updated DESC, id"),
        &[owner.into()],
    )?
    .iter()
    .map(kept)
    .collect()
}

pub fn rename(tx: &mut dyn Tx, id: &str, owner: i64, name: &str) -> Result<bool, DbError> {
    Ok(tx.exec(
        "UPDATE boards SET name = $1 WHERE id = $2 AND owner = $3",
        &[name.into(), id.into(), owner.into()],
    )? == 1)
}

pub fn delete(tx: &mut dyn Tx, id: &str, owner: i64) -> Result<bool, DbError> {
    Ok(tx.exec(
        "DELETE FROM boards WHERE id = $1 AND owner = $2",
        &[id.into(), owner.into()],
    )? == 1)
}
