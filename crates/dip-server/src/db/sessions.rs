//! The `sessions` table: log-in sessions by their token's hash (the token
//! itself is never stored).

use super::{DbError, Tx};
use crate::auth::Account;

/// A new session of `account` until `expires`; sessions expired by `now`
/// are removed on the way.
pub fn insert(tx: &mut dyn Tx, token_hash: &str, account: i64, now: i64, expires: i64) -> Result<(), DbError> {
    tx.exec("DELETE FROM sessions WHERE expires < $1", &[now.into()])?;
    tx.exec(
        "INSERT INTO sessions (token_hash, account_id, expires) VALUES ($1, $2, $3)",
        &[token_hash.into(), account.into(), expires.into()],
    )?;
    Ok(())
}

/// Ends a session.
pub fn delete(tx: &mut dyn Tx, token_hash: &str) -> Result<(), DbError> {
    tx.exec("DELETE FROM sessions WHERE token_hash = $1", &[token_hash.into()])?;
    Ok(())
}

/// The account of a session alive at `now`, and when it expires.
pub fn account_of(tx: &mut dyn Tx, token_hash: &str, now: i64) -> Result<Option<(Account, i64)>, DbError> {
    tx.query_one(
        "SELECT a.id, a.name, s.expires FROM sessions s JOIN accounts a ON a.id = s.account_id \
         WHERE s.token_hash = $1 AND s.expires > $2",
        &[token_hash.into(), now.into()],
    )?
    .map(|r| {
        Ok((
            Account {
                id: r.int(0)?,
                name: r.text(1)?,
            },
            r.int(2)?,
        ))
    })
    .transpose()
}

/// Is the session alive at `now`?
pub fn alive(tx: &mut dyn Tx, token_hash: &str, now: i64) -> Result<bool, DbError> {
    Ok(tx
        .query_one(
            "SELECT 1 FROM sessions WHERE token_hash = $1 AND expires > $2",
            &[token_hash.into(), now.into()],
        )?
        .is_some())
}
