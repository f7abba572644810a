//! PostgreSQL: a pool of connections of the synchronous client, used from
//! tokio's blocking threads. Several `dip serve` processes may share one
//! database: row locks (`FOR UPDATE SKIP LOCKED`) decide which of them
//! processes a phase.

use super::{DbError, Dialect, Hook, Notice, Row, Tx, Value};
use postgres::types::{ToSql, Type};
use postgres::{Client, NoTls, Statement};
use std::collections::HashMap;
use std::sync::{Condvar, Mutex};

/// A connection with its prepared statements: a statement is parsed once
/// per connection, not once per call (a round trip saved each time).
struct Conn {
    client: Client,
    statements: HashMap<String, Statement>,
}

impl Conn {
    fn new(client: Client) -> Conn {
        Conn {
            client,
            statements: HashMap::new(),
        }
    }
}

/// At most this many connections per server process: more requests wait
/// for a free one instead of opening (and dropping) connections.
const MAX_CONNECTIONS: usize = 16;

pub struct PgDb {
    pub(super) hook: Hook,
    url: String,
    /// Idle connections, and how many exist in all.
    pool: Mutex<(Vec<Conn>, usize)>,
    freed: Condvar,
}

fn err(e: postgres::Error) -> DbError {
    if let Some(db) = e.as_db_error() {
        let code = db.code().code();
        if code == "23505" {
            return DbError::Conflict;
        }
        if code == "40001" || code == "40P01" || code == "55P03" {
            return DbError::Busy;
        }
    }
    DbError::Sql(describe(&e))
}

/// The error with its causes: the client's own text is only the kind
/// ("error connecting to server", "db error"); what went wrong is in the
/// sources (the refused connection, the server's message).
fn describe(e: &postgres::Error) -> String {
    let mut out = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let t = s.to_string();
        if !out.contains(&t) {
            out.push_str(": ");
            out.push_str(&t);
        }
        source = s.source();
    }
    out
}

impl PgDb {
    pub fn connect(url: &str) -> Result<PgDb, DbError> {
        let first = Client::connect(url, NoTls).map_err(err)?;
        Ok(PgDb {
            hook: Hook::default(),
            url: url.to_string(),
            pool: Mutex::new((vec![Conn::new(first)], 1)),
            freed: Condvar::new(),
        })
    }

    fn take(&self) -> Result<Conn, DbError> {
        let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(c) = pool.0.pop() {
                if !c.client.is_closed() {
                    return Ok(c);
                }
                pool.1 -= 1;
                continue;
            }
            if pool.1 < MAX_CONNECTIONS {
                pool.1 += 1;
                drop(pool);
                let c = Client::connect(&self.url, NoTls).map(Conn::new).map_err(err);
                if c.is_err() {
                    self.pool.lock().unwrap_or_else(|p| p.into_inner()).1 -= 1;
                }
                return c;
            }
            pool = self.freed.wait(pool).unwrap_or_else(|p| p.into_inner());
        }
    }

    fn give_back(&self, c: Conn) {
        if c.client.is_closed() {
            off_runtime(vec![c]);
            let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
            pool.1 -= 1;
            self.freed.notify_one();
            return;
        }
        let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
        pool.0.push(c);
        self.freed.notify_one();
    }

    /// Reads without BEGIN and COMMIT: each statement sees what is
    /// committed when it runs (two round trips fewer per request).
    pub fn read<T, E: From<DbError>>(&self, f: impl FnOnce(&mut dyn Tx) -> Result<T, E>) -> Result<T, E> {
        let mut conn = self.take()?;
        let out = {
            let Conn { client, statements } = &mut conn;
            let mut t = PgTx {
                tx: client,
                statements,
                notices: Vec::new(),
            };
            f(&mut t)
        };
        self.give_back(conn);
        out
    }

    pub fn transaction<T, E: From<DbError>>(&self, f: impl FnOnce(&mut dyn Tx) -> Result<T, E>) -> Result<T, E> {
        let mut conn = self.take()?;
        let out = (|| -> Result<(T, Vec<Notice>), E> {
            let Conn { client, statements } = &mut conn;
            let mut tx = client.transaction().map_err(err)?;
            let (out, notices) = {
                let mut t = PgTx {
                    tx: &mut tx,
                    statements,
                    notices: Vec::new(),
                };
                let out = f(&mut t)?;
                (out, t.notices)
            };
            tx.commit().map_err(err)?;
            Ok((out, notices))
        })();
        self.give_back(conn);
        let (out, notices) = out?;
        self.hook.call(notices);
        Ok(out)
    }
}

/// The synchronous client runs a runtime of its own, which panics when it
/// is dropped on a thread of another runtime ("Cannot drop a runtime in a
/// context where blocking is not allowed"): the server's last handle on
/// the pool goes away in its async code when it stops (SIGTERM) or fails
/// to start (a port in use). Connections are dropped on a thread of
/// their own there.
fn off_runtime(conns: Vec<Conn>) {
    if conns.is_empty() {
        return;
    }
    if tokio::runtime::Handle::try_current().is_ok() {
        let _ = std::thread::spawn(move || drop(conns)).join();
    } else {
        drop(conns);
    }
}

impl Drop for PgDb {
    fn drop(&mut self) {
        let idle = std::mem::take(&mut self.pool.get_mut().unwrap_or_else(|p| p.into_inner()).0);
        off_runtime(idle);
    }
}

/// A transaction, or a bare connection for reads: both run statements.
struct PgTx<'a, C: postgres::GenericClient> {
    tx: &'a mut C,
    statements: &'a mut HashMap<String, Statement>,
    notices: Vec<Notice>,
}

impl<C: postgres::GenericClient> PgTx<'_, C> {
    fn statement(&mut self, sql: &str) -> Result<Statement, DbError> {
        if let Some(s) = self.statements.get(sql) {
            return Ok(s.clone());
        }
        let s = self.tx.prepare(sql).map_err(err)?;
        if self.statements.len() > 500 {
            self.statements.clear();
        }
        self.statements.insert(sql.to_string(), s.clone());
        Ok(s)
    }
}

fn bind(params: &[Value]) -> Vec<Box<dyn ToSql + Sync + '_>> {
    params
        .iter()
        .map(|v| -> Box<dyn ToSql + Sync> {
            match v {
                Value::Int(i) => Box::new(*i),
                Value::Text(t) => Box::new(t.as_deref()),
            }
        })
        .collect()
}

impl<C: postgres::GenericClient> Tx for PgTx<'_, C> {
    fn exec(&mut self, sql: &str, params: &[Value]) -> Result<u64, DbError> {
        let b = bind(params);
        let refs: Vec<&(dyn ToSql + Sync)> = b.iter().map(|b| b.as_ref()).collect();
        let st = self.statement(sql)?;
        self.tx.execute(&st, &refs).map_err(err)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, DbError> {
        let b = bind(params);
        let refs: Vec<&(dyn ToSql + Sync)> = b.iter().map(|b| b.as_ref()).collect();
        let st = self.statement(sql)?;
        let rows = self.tx.query(&st, &refs).map_err(err)?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let mut row = Vec::with_capacity(r.len());
            for (i, c) in r.columns().iter().enumerate() {
                let v = match *c.type_() {
                    Type::INT8 => Value::Int(r.try_get::<_, Option<i64>>(i).map_err(err)?),
                    Type::INT4 => Value::Int(r.try_get::<_, Option<i32>>(i).map_err(err)?.map(i64::from)),
                    Type::INT2 => Value::Int(r.try_get::<_, Option<i16>>(i).map_err(err)?.map(i64::from)),
                    Type::BOOL => Value::Int(r.try_get::<_, Option<bool>>(i).map_err(err)?.map(i64::from)),
                    _ => Value::Text(r.try_get::<_, Option<String>>(i).map_err(err)?),
                };
                row.push(v);
            }
            out.push(Row(row));
        }
        Ok(out)
    }

    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn notify(&mut self, n: Notice) {
        self.notices.push(n);
    }
}
