//! PostgreSQL: a pool of connections of the synchronous client, used from
//! tokio's blocking threads. Several `dip serve` processes may share one
//! database: row locks (`FOR UPDATE SKIP LOCKED`) decide which of them
//! processes a phase.

use super::{DbError, Dialect, Row, Tx, Value};
use postgres::types::{ToSql, Type};
use postgres::{Client, NoTls};
use std::sync::Mutex;

pub struct PgDb {
    url: String,
    pool: Mutex<Vec<Client>>,
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
    DbError::Sql(e.to_string())
}

impl PgDb {
    pub fn connect(url: &str) -> Result<PgDb, DbError> {
        let first = Client::connect(url, NoTls).map_err(err)?;
        Ok(PgDb {
            url: url.to_string(),
            pool: Mutex::new(vec![first]),
        })
    }

    fn take(&self) -> Result<Client, DbError> {
        let taken = self.pool.lock().unwrap_or_else(|p| p.into_inner()).pop();
        match taken {
            Some(c) if !c.is_closed() => Ok(c),
            _ => Client::connect(&self.url, NoTls).map_err(err),
        }
    }

    fn give_back(&self, c: Client) {
        let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
        if pool.len() < 16 && !c.is_closed() {
            pool.push(c);
        }
    }

    pub fn transaction<T, E: From<DbError>>(&self, f: impl FnOnce(&mut dyn Tx) -> Result<T, E>) -> Result<T, E> {
        let mut client = self.take()?;
        let out = (|| {
            let mut tx = client.transaction().map_err(err)?;
            let out = {
                let mut t = PgTx { tx: &mut tx };
                f(&mut t)?
            };
            tx.commit().map_err(err)?;
            Ok(out)
        })();
        self.give_back(client);
        out
    }
}

struct PgTx<'a, 'b> {
    tx: &'a mut postgres::Transaction<'b>,
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

impl Tx for PgTx<'_, '_> {
    fn exec(&mut self, sql: &str, params: &[Value]) -> Result<u64, DbError> {
        let b = bind(params);
        let refs: Vec<&(dyn ToSql + Sync)> = b.iter().map(|b| b.as_ref()).collect();
        self.tx.execute(sql, &refs).map_err(err)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, DbError> {
        let b = bind(params);
        let refs: Vec<&(dyn ToSql + Sync)> = b.iter().map(|b| b.as_ref()).collect();
        let rows = self.tx.query(sql, &refs).map_err(err)?;
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
}
