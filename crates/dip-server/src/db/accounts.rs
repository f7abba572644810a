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
