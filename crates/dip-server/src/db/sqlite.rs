//! SQLite: one writer connection (writes queue on its lock instead of
//! spinning on SQLite's busy handler) and a pool of readers (WAL lets them
//! read while the writer writes). `synchronous=NORMAL` in WAL mode: a
//! commit survives the process being killed; `DIP_SQLITE_SYNC=FULL` also
//! survives a power cut, at the cost of an fsync per commit.

use super::{DbError, Dialect, Hook, Notice, Row, Tx, Value};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, ToSql, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub struct SqliteDb {
    pub(super) hook: Hook,
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Mutex<Vec<Connection>>,
}

fn err(e: rusqlite::Error) -> DbError {
    match &e {
        // A row already there, as PostgreSQL's 23505; other refusals (a
        // foreign key, a check, a trigger) keep their message: they were
        // all "already exists", even in the log.
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(
                f.extended_code,
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
            ) =>
        {
            DbError::Conflict
        }
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(
                f.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            ) =>
        {
            DbError::Busy
        }
        _ => DbError::Sql(e.to_string()),
    }
}

fn open(path: &Path) -> Result<Connection, DbError> {
    let c = Connection::open(path).map_err(err)?;
    let sync = std::env::var("DIP_SQLITE_SYNC").unwrap_or_else(|_| "NORMAL".into());
    let sync = if sync.eq_ignore_ascii_case("FULL") {
        "FULL"
    } else {
        "NORMAL"
    };
    c.execute_batch(&format!(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous={sync}; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=10000;"
    ))
    .map_err(err)?;
    Ok(c)
}

impl SqliteDb {
    pub fn open(path: &Path) -> Result<SqliteDb, DbError> {
        let writer = open(path)?;
        Ok(SqliteDb {
            hook: Hook::default(),
            path: path.to_path_buf(),
            writer: Mutex::new(writer),
            readers: Mutex::new(Vec::new()),
        })
    }

    pub fn transaction<T, E: From<DbError>>(&self, f: impl FnOnce(&mut dyn Tx) -> Result<T, E>) -> Result<T, E> {
        // A poisoned lock only means another request panicked; the
        // connection itself is still sound (its transaction rolled back).
        let mut conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        let mut t = SqliteTx {
            tx: &tx,
            notices: Vec::new(),
        };
        let out = f(&mut t)?;
        let notices = t.notices;
        tx.commit().map_err(err)?;
        // Still the only writer: the notices go out in commit order.
        self.hook.call(notices);
        Ok(out)
    }

    pub fn read<T, E: From<DbError>>(&self, f: impl FnOnce(&mut dyn Tx) -> Result<T, E>) -> Result<T, E> {
        let taken = self.readers.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let mut conn = match taken {
            Some(c) => c,
            None => open(&self.path)?,
        };
        let out = {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Deferred)
                .map_err(err)?;
            let mut t = SqliteTx {
                tx: &tx,
                notices: Vec::new(),
            };
            let out = f(&mut t);
            let _ = tx.finish();
            out
        };
        let mut pool = self.readers.lock().unwrap_or_else(|p| p.into_inner());
        if pool.len() < 8 {
            pool.push(conn);
        }
        out
    }
}

struct SqliteTx<'a> {
    tx: &'a rusqlite::Transaction<'a>,
    notices: Vec<Notice>,
}

/// `$1` → `?1`: SQLite's numbered parameters.
fn dialect_sql(sql: &str) -> String {
    sql.replace('$', "?")
}

fn bind(params: &[Value]) -> Vec<Box<dyn ToSql + '_>> {
    params
        .iter()
        .map(|v| -> Box<dyn ToSql> {
            match v {
                Value::Int(i) => Box::new(*i),
                Value::Text(t) => Box::new(t.as_deref()),
            }
        })
        .collect()
}

impl Tx for SqliteTx<'_> {
    fn exec(&mut self, sql: &str, params: &[Value]) -> Result<u64, DbError> {
        let mut st = self.tx.prepare_cached(&dialect_sql(sql)).map_err(err)?;
        let b = bind(params);
        let n = st
            .execute(rusqlite::params_from_iter(b.iter().map(|b| b.as_ref())))
            .map_err(err)?;
        Ok(n as u64)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, DbError> {
        let mut st = self.tx.prepare_cached(&dialect_sql(sql)).map_err(err)?;
        let cols = st.column_count();
        let b = bind(params);
        let mut rows = st
            .query(rusqlite::params_from_iter(b.iter().map(|b| b.as_ref())))
            .map_err(err)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(err)? {
            let mut row = Vec::with_capacity(cols);
            for i in 0..cols {
                row.push(match r.get_ref(i).map_err(err)? {
                    ValueRef::Null => Value::Int(None),
                    ValueRef::Integer(v) => Value::Int(Some(v)),
                    ValueRef::Real(v) => Value::Int(Some(v as i64)),
                    ValueRef::Text(t) => Value::Text(Some(String::from_utf8_lossy(t).into_owned())),
                    ValueRef::Blob(t) => Value::Text(Some(String::from_utf8_lossy(t).into_owned())),
                });
            }
            out.push(Row(row));
        }
        Ok(out)
    }

    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn notify(&mut self, n: Notice) {
        self.notices.push(n);
    }
}

#[cfg(test)]
mod refusals {
    use super::{err, DbError};

    #[test]
    fn every_refused_row_was_already_there() {
        let c = rusqlite::Connection::open_in_memory().unwrap();
        c.execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, n INTEGER CHECK (n > 0));
             CREATE TABLE u (t_id INTEGER REFERENCES t(id));
             PRAGMA foreign_keys = ON;
             CREATE TRIGGER full BEFORE INSERT ON u WHEN NEW.t_id = 7 BEGIN SELECT RAISE(ABORT, 'the disk is full'); END;
             INSERT INTO t VALUES (1, 'a', 1);",
        )
        .unwrap();
        let run = |sql: &str| err(c.execute(sql, []).unwrap_err());
        assert!(matches!(run("INSERT INTO t VALUES (1, 'b', 1)"), DbError::Conflict));
        assert!(matches!(run("INSERT INTO t VALUES (2, 'a', 1)"), DbError::Conflict));
        for (sql, says) in [
            ("INSERT INTO t VALUES (3, 'c', 0)", "CHECK"),
            ("INSERT INTO u VALUES (5)", "FOREIGN KEY"),
            ("INSERT INTO u VALUES (7)", "the disk is full"),
        ] {
            match run(sql) {
                DbError::Sql(m) => assert!(m.contains(says), "{sql}: {m}"),
                e => panic!("{sql}: {e:?}"),
            }
        }
    }
}
