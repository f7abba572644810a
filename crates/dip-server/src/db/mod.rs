//! Storage: one small SQL interface over SQLite (embedded, the default) and
//! PostgreSQL (several servers on one database). The game logic is written
//! once against [`Tx`]; only this module knows which database it talks to.
//!
//! SQL is written in PostgreSQL's dialect with `$1` placeholders; for SQLite
//! they become `?1` (the same numbered parameters). Integers are BIGINT,
//! text is TEXT, times are Unix milliseconds, booleans 0/1: both databases
//! read them the same way.

pub mod accounts;
pub mod boards;
pub mod edits;
pub mod events;
pub mod games;
pub mod members;
pub mod messages;
pub mod orders;
pub mod phases;
mod postgres;
pub mod private;
mod schema;
pub mod sessions;
mod sqlite;
pub mod store;
pub mod war;

use std::fmt;
use std::sync::{Arc, OnceLock};

/// A parameter or a column value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(Option<i64>),
    Text(Option<String>),
}

impl Value {
    pub fn int(&self) -> Option<i64> {
        match self {
            Value::Int(v) => *v,
            Value::Text(t) => t.as_deref().and_then(|t| t.parse().ok()),
        }
    }
    pub fn text(&self) -> Option<&str> {
        match self {
            Value::Text(t) => t.as_deref(),
            Value::Int(_) => None,
        }
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(Some(v))
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Int(Some(v as i64))
    }
}
impl From<Option<i64>> for Value {
    fn from(v: Option<i64>) -> Self {
        Value::Int(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Text(Some(v.to_string()))
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Text(Some(v))
    }
}
impl From<&String> for Value {
    fn from(v: &String) -> Self {
        Value::Text(Some(v.clone()))
    }
}
impl From<Option<String>> for Value {
    fn from(v: Option<String>) -> Self {
        Value::Text(v)
    }
}

/// One row of a result. A column that is not there, or not of the kind
/// asked for, is an error (a statement and its reader that disagree),
/// never read as 0 or "".
#[derive(Clone, Debug, Default)]
pub struct Row(pub Vec<Value>);

impl Row {
    fn column(&self, i: usize) -> Result<&Value, DbError> {
        self.0
            .get(i)
            .ok_or_else(|| DbError::Sql(format!("a row of {} columns has no column {i}", self.0.len())))
    }
    /// A whole number that may be NULL.
    pub fn opt_int(&self, i: usize) -> Result<Option<i64>, DbError> {
        match self.column(i)? {
            Value::Int(v) => Ok(*v),
            Value::Text(None) => Ok(None),
            Value::Text(Some(t)) => t
                .parse()
                .map(Some)
                .map_err(|_| DbError::Sql(format!("column {i}: `{t}` is no whole number"))),
        }
    }
    /// A whole number.
    pub fn int(&self, i: usize) -> Result<i64, DbError> {
        self.opt_int(i)?
            .ok_or_else(|| DbError::Sql(format!("column {i} is NULL where a number was expected")))
    }
    /// 0 or 1.
    pub fn flag(&self, i: usize) -> Result<bool, DbError> {
        Ok(self.int(i)? != 0)
    }
    /// Text that may be NULL.
    pub fn opt_text(&self, i: usize) -> Result<Option<String>, DbError> {
        match self.column(i)? {
            Value::Text(t) => Ok(t.clone()),
            Value::Int(None) => Ok(None),
            Value::Int(Some(_)) => Err(DbError::Sql(format!("column {i} is a number where text was expected"))),
        }
    }
    /// Text.
    pub fn text(&self, i: usize) -> Result<String, DbError> {
        self.opt_text(i)?
            .ok_or_else(|| DbError::Sql(format!("column {i} is NULL where text was expected")))
    }
}

/// What a committed transaction tells the rest of the process.
#[derive(Clone, Debug)]
pub enum Notice {
    /// A game's event was stored.
    Event(events::EventRow),
    /// A session ended (log-out): the SHA-256 of its token, as stored.
    SessionEnded(String),
}

/// Who hears of commits: set once by the application's state.
pub type Listener = Arc<dyn Fn(Vec<Notice>) + Send + Sync>;

/// Where a database hands its transactions' notices once they commit,
/// and how many reads it ran.
#[derive(Default)]
pub(crate) struct Hook {
    listener: OnceLock<Listener>,
    reads: std::sync::atomic::AtomicU64,
}

impl Hook {
    fn call(&self, notices: Vec<Notice>) {
        if notices.is_empty() {
            return;
        }
        if let Some(f) = self.listener.get() {
            f(notices);
        }
    }
}

/// A database error: the database's own message.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("database: {0}")]
    Sql(String),
    /// Another transaction holds what this one needs (retry later).
    #[error("database busy")]
    Busy,
    /// A unique constraint refused the row.
    #[error("already exists")]
    Conflict,
    /// A stored value does not read as what it should be.
    #[error("stored data: {0}")]
    Stored(String),
}

/// Which database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A transaction.
pub trait Tx {
    fn exec(&mut self, sql: &str, params: &[Value]) -> Result<u64, DbError>;
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, DbError>;
    fn dialect(&self) -> Dialect;
    /// Hands `n` on once the transaction commits (nothing if it rolls
    /// back; nothing in a read).
    fn notify(&mut self, n: Notice);

    fn query_one(&mut self, sql: &str, params: &[Value]) -> Result<Option<Row>, DbError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }
    /// ` FOR UPDATE SKIP LOCKED` on PostgreSQL (several servers share the
    /// work); nothing on SQLite, where a write transaction has the whole
    /// database to itself.
    fn skip_locked(&self) -> &'static str {
        match self.dialect() {
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
            Dialect::Sqlite => "",
        }
    }
    /// ` FOR UPDATE`: the row is this transaction's until it ends.
    fn for_update(&self) -> &'static str {
        match self.dialect() {
            Dialect::Postgres => " FOR UPDATE",
            Dialect::Sqlite => "",
        }
    }
    /// ` FOR NO KEY UPDATE`: nobody else changes the row or holds it so
    /// until this transaction ends, but rows that refer to it may still be
    /// inserted beside it (their key lock does not wait for this one).
    /// Nothing on SQLite.
    fn for_no_key_update(&self) -> &'static str {
        match self.dialect() {
            Dialect::Postgres => " FOR NO KEY UPDATE",
            Dialect::Sqlite => "",
        }
    }
}

/// Does the database answer? (The health check.)
pub fn ping(tx: &mut dyn Tx) -> Result<(), DbError> {
    tx.query("SELECT 1", &[])?;
    Ok(())
}

/// The database: a pool of connections.
pub enum Db {
    Sqlite(sqlite::SqliteDb),
    Postgres(postgres::PgDb),
}

impl fmt::Debug for Db {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Db::Sqlite(_) => f.write_str("Db::Sqlite"),
            Db::Postgres(_) => f.write_str("Db::Postgres"),
        }
    }
}

impl Db {
    /// Opens (creating and migrating) the SQLite database at `path`.
    pub fn sqlite(path: &std::path::Path) -> Result<Db, DbError> {
        let db = sqlite::SqliteDb::open(path)?;
        let db = Db::Sqlite(db);
        db.migrate()?;
        Ok(db)
    }
    /// Connects to PostgreSQL (`postgres://user@host:port/db` or a
    /// key=value string) and migrates its schema.
    pub fn postgres(url: &str) -> Result<Db, DbError> {
        let db = Db::Postgres(postgres::PgDb::connect(url)?);
        db.migrate()?;
        Ok(db)
    }

    pub fn dialect(&self) -> Dialect {
        match self {
            Db::Sqlite(_) => Dialect::Sqlite,
            Db::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Who hears of every commit's notices (once; later calls are
    /// ignored). On SQLite it is called before the next transaction
    /// begins, so notices arrive in the order of the commits.
    pub fn on_commit(&self, f: Listener) {
        let _ = self.hook().listener.set(f);
    }

    /// Runs `f` in one transaction; commits when it returns `Ok`, rolls
    /// back otherwise. A write transaction on SQLite takes the write lock
    /// at once (BEGIN IMMEDIATE) so that it cannot fail half-way for a lock.
    pub fn transaction<T, E: From<DbError>>(&self, f: impl FnOnce(&mut dyn Tx) -> Result<T, E>) -> Result<T, E> {
        match self {
            Db::Sqlite(db) => db.transaction(f),
            Db::Postgres(db) => db.transaction(f),
        }
    }

    /// Runs `f` in a transaction that only reads (on SQLite, beside the
    /// writer instead of after it).
    pub fn read<T, E: From<DbError>>(&self, f: impl FnOnce(&mut dyn Tx) -> Result<T, E>) -> Result<T, E> {
        self.hook().reads.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        match self {
            Db::Sqlite(db) => db.read(f),
            Db::Postgres(db) => db.read(f),
        }
    }

    /// How many reading transactions this database ran (what a request
    /// costs: tests count them).
    pub fn reads(&self) -> u64 {
        self.hook().reads.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn hook(&self) -> &Hook {
        match self {
            Db::Sqlite(db) => &db.hook,
            Db::Postgres(db) => &db.hook,
        }
    }

    fn migrate(&self) -> Result<(), DbError> {
        schema::migrate(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A column a reader asks for that the statement did not select read
    /// as 0 or "" (a game's id as 0, a name as empty), and so did NULL
    /// where a value must be: both are errors now.
    #[test]
    fn a_missing_column_read_as_zero_or_empty() {
        let r = Row(vec![Value::Int(Some(7)), Value::Text(None), Value::Int(None)]);
        assert_eq!(r.int(0).unwrap(), 7);
        assert!(r.int(3).is_err(), "no column 3");
        assert!(r.text(3).is_err(), "no column 3");
        assert!(r.opt_int(3).is_err() && r.opt_text(3).is_err());
        assert_eq!(r.opt_text(1).unwrap(), None);
        assert!(r.text(1).is_err(), "NULL where text must be");
        assert_eq!(r.opt_int(2).unwrap(), None);
        assert!(r.int(2).is_err(), "NULL where a number must be");
        assert!(r.text(0).is_err(), "a number where text must be");
        assert!(r.flag(0).unwrap());
    }
}

#[cfg(test)]
mod sql_stays_here;
