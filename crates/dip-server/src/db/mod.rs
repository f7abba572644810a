//! Storage: one small SQL interface over SQLite (embedded, the default) and
//! PostgreSQL (several servers on one database). The game logic is written
//! once against [`Tx`]; only this module knows which database it talks to.
//!
//! SQL is written in PostgreSQL's dialect with `$1` placeholders; for SQLite
//! they become `?1` (the same numbered parameters). Integers are BIGINT,
//! text is TEXT, times are Unix milliseconds, booleans 0/1: both databases
//! read them the same way.

pub mod boards;
mod postgres;
mod schema;
mod sqlite;

use std::fmt;

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

/// One row of a result.
#[derive(Clone, Debug, Default)]
pub struct Row(pub Vec<Value>);

impl Row {
    pub fn int(&self, i: usize) -> i64 {
        self.0.get(i).and_then(Value::int).unwrap_or(0)
    }
    pub fn opt_int(&self, i: usize) -> Option<i64> {
        self.0.get(i).and_then(Value::int)
    }
    pub fn text(&self, i: usize) -> String {
        self.opt_text(i).unwrap_or_default()
    }
    pub fn opt_text(&self, i: usize) -> Option<String> {
        self.0.get(i).and_then(|v| v.text()).map(String::from)
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
        match self {
            Db::Sqlite(db) => db.read(f),
            Db::Postgres(db) => db.read(f),
        }
    }

    fn migrate(&self) -> Result<(), DbError> {
        schema::migrate(self)
    }
}
