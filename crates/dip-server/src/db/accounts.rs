//! The `accounts` table, as far as games need it (log-ins and sessions
//! are `auth`'s).

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
