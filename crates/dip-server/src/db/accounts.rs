//! The `accounts` table: accounts by name (`auth` decides who may log in
//! and hashes the passwords; sessions are in `sessions`).

use super::{DbError, Tx};
use crate::auth::Account;

/// Every account, oldest first.
pub fn all(tx: &mut dyn Tx) -> Result<Vec<Account>, DbError> {
    tx.query("SELECT id, name FROM accounts ORDER BY id", &[])?
        .iter()
        .map(|r| {
            Ok(Account {
                id: r.int(0)?,
                name: r.text(1)?,
            })
        })
        .collect()
}

/// The account of a name's key (`auth::name_key`: any case).
pub fn by_key(tx: &mut dyn Tx, key: &str) -> Result<Option<Account>, DbError> {
    tx.query_one("SELECT id, name FROM accounts WHERE name_key = $1", &[key.into()])?
        .map(|r| {
            Ok(Account {
                id: r.int(0)?,
                name: r.text(1)?,
            })
        })
        .transpose()
}

/// The accounts whose names match `pattern` (SQL LIKE) with this stored
/// password hash, oldest first (a DAIDE game's bots: `daide-ID-%`,
/// `daide:CODE`).
pub fn matching(tx: &mut dyn Tx, pattern: &str, password_hash: &str) -> Result<Vec<Account>, DbError> {
    tx.query(
        "SELECT id, name FROM accounts WHERE name LIKE $1 AND password_hash = $2 ORDER BY id",
        &[pattern.into(), password_hash.into()],
    )?
    .iter()
    .map(|r| {
        Ok(Account {
            id: r.int(0)?,
            name: r.text(1)?,
        })
    })
    .collect()
}

/// A new account; its id. A name (or a name that looks like it: its
/// skeleton) already taken is [`DbError::Conflict`].
pub fn insert(tx: &mut dyn Tx, name: &str, key: &str, skeleton: &str, hash: &str, now: i64) -> Result<i64, DbError> {
    tx.query_one(
        "INSERT INTO accounts (name, name_key, name_skeleton, password_hash, created) \
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
        &[name.into(), key.into(), skeleton.into(), hash.into(), now.into()],
    )?
    .ok_or_else(|| DbError::Sql("the new account has no id".into()))?
    .int(0)
}

/// The accounts made before names had skeletons, oldest first.
pub fn without_skeleton(tx: &mut dyn Tx) -> Result<Vec<Account>, DbError> {
    tx.query(
        "SELECT id, name FROM accounts WHERE name_skeleton IS NULL ORDER BY id",
        &[],
    )?
    .iter()
    .map(|r| {
        Ok(Account {
            id: r.int(0)?,
            name: r.text(1)?,
        })
    })
    .collect()
}

/// Every skeleton of a name taken.
pub fn skeletons(tx: &mut dyn Tx) -> Result<Vec<String>, DbError> {
    tx.query(
        "SELECT name_skeleton FROM accounts WHERE name_skeleton IS NOT NULL",
        &[],
    )?
    .iter()
    .map(|r| r.text(0))
    .collect()
}

/// Gives an account its name's skeleton.
pub fn set_skeleton(tx: &mut dyn Tx, id: i64, skeleton: &str) -> Result<(), DbError> {
    tx.exec(
        "UPDATE accounts SET name_skeleton = $1 WHERE id = $2",
        &[skeleton.into(), id.into()],
    )?;
    Ok(())
}

/// The account of a name's key with its stored password hash.
pub fn password_of(tx: &mut dyn Tx, key: &str) -> Result<Option<(Account, String)>, DbError> {
    tx.query_one(
        "SELECT id, name, password_hash FROM accounts WHERE name_key = $1",
        &[key.into()],
    )?
    .map(|r| {
        Ok((
            Account {
                id: r.int(0)?,
                name: r.text(1)?,
            },
            r.text(2)?,
        ))
    })
    .transpose()
}
