//! The schema and its migrations: a list of steps per database, applied in
//! order and counted in `schema_version`, so that a newer dip upgrades an
//! older database at start. Several servers starting at once on PostgreSQL
//! take an advisory lock so that one of them migrates.

use super::{Db, DbError, Dialect, Tx};

/// How many steps there are; `step_sql` gives each.
const STEPS: usize = 3;

const V1_COMMON: &str = "
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    expires BIGINT NOT NULL
);
CREATE TABLE games (
    id {ID},
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    creator BIGINT NOT NULL REFERENCES accounts(id),
    status TEXT NOT NULL,
    options TEXT NOT NULL,
    phase_index BIGINT NOT NULL DEFAULT 0,
    position TEXT NOT NULL,
    deadline BIGINT,
    paused_left BIGINT,
    winner TEXT,
    result TEXT,
    failures BIGINT NOT NULL DEFAULT 0,
    last_error TEXT,
    created BIGINT NOT NULL,
    finished BIGINT
);
CREATE INDEX games_due ON games (status, deadline);
CREATE TABLE members (
    game_id BIGINT NOT NULL REFERENCES games(id),
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    power TEXT,
    wanted TEXT,
    ready BIGINT NOT NULL DEFAULT 0,
    draw BIGINT NOT NULL DEFAULT 0,
    concede BIGINT NOT NULL DEFAULT 0,
    missed BIGINT NOT NULL DEFAULT 0,
    joined BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
CREATE TABLE orders (
    game_id BIGINT NOT NULL REFERENCES games(id),
    phase_index BIGINT NOT NULL,
    power TEXT NOT NULL,
    lines TEXT NOT NULL,
    updated BIGINT NOT NULL,
    PRIMARY KEY (game_id, phase_index, power)
);
CREATE TABLE phases (
    game_id BIGINT NOT NULL REFERENCES games(id),
    phase_index BIGINT NOT NULL,
    phase TEXT NOT NULL,
    kind TEXT NOT NULL,
    position TEXT NOT NULL,
    orders TEXT NOT NULL,
    results TEXT NOT NULL,
    report TEXT NOT NULL,
    processed BIGINT NOT NULL,
    processed_by TEXT NOT NULL,
    PRIMARY KEY (game_id, phase_index)
);
CREATE TABLE messages (
    id {ID},
    game_id BIGINT NOT NULL REFERENCES games(id),
    phase TEXT NOT NULL,
    sender TEXT NOT NULL,
    recipients TEXT NOT NULL,
    body TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE INDEX messages_game ON messages (game_id, id);
CREATE TABLE events (
    id {ID},
    game_id BIGINT NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE INDEX events_game ON events (game_id, id);
";

/// Global War games (crate dip-war): the game itself is one JSON value
/// stored after every action; seats bind accounts to the file's player
/// numbers; the log keeps every action with its events (the dice shown).
const WAR: &str = "
CREATE TABLE war_games (
    id {ID},
    name TEXT NOT NULL,
    creator BIGINT NOT NULL REFERENCES accounts(id),
    status TEXT NOT NULL,
    options TEXT NOT NULL,
    game TEXT,
    deadline BIGINT,
    actions BIGINT NOT NULL DEFAULT 0,
    original TEXT,
    archive TEXT,
    created BIGINT NOT NULL,
    finished BIGINT,
    delete_at BIGINT
);
CREATE INDEX war_games_due ON war_games (status, deadline);
CREATE TABLE war_seats (
    game_id BIGINT NOT NULL REFERENCES war_games(id),
    seat BIGINT NOT NULL,
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    vote BIGINT NOT NULL DEFAULT 0,
    joined BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE UNIQUE INDEX war_seats_account ON war_seats (game_id, account_id);
CREATE TABLE war_log (
    id {ID},
    game_id BIGINT NOT NULL REFERENCES war_games(id),
    turn BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    action TEXT NOT NULL,
    events TEXT NOT NULL,
    made BIGINT NOT NULL
);
CREATE INDEX war_log_game ON war_log (game_id, id);
";

/// The statements of one step (0-based) in the database's dialect.
fn step_sql(step: usize, dialect: Dialect) -> String {
    let id = match dialect {
        Dialect::Sqlite => "INTEGER PRIMARY KEY AUTOINCREMENT",
        Dialect::Postgres => "BIGSERIAL PRIMARY KEY",
    };
    if step == 2 {
        return WAR.replace("{ID}", id);
    }
    if step == 1 {
        // The game master's edits, in the history beside the phases.
        return format!(
            "CREATE TABLE edits (id {id}, game_id BIGINT NOT NULL REFERENCES games(id), phase_index BIGINT NOT NULL, \
             phase TEXT NOT NULL, lines TEXT NOT NULL, position_before TEXT NOT NULL, made BIGINT NOT NULL);\
             CREATE INDEX edits_game ON edits (game_id, id);"
        );
    }
    let accounts = format!(
        "CREATE TABLE accounts (id {id}, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE, \
         password_hash TEXT NOT NULL, created BIGINT NOT NULL);"
    );
    format!("{accounts}{}", V1_COMMON.replace("{ID}", id))
}

fn current(tx: &mut dyn Tx) -> Result<usize, DbError> {
    tx.exec(
        "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)",
        &[],
    )?;
    let row = tx.query_one("SELECT MAX(version) FROM schema_version", &[])?;
    Ok(row.and_then(|r| r.opt_int(0)).unwrap_or(0) as usize)
}

pub fn migrate(db: &Db) -> Result<(), DbError> {
    db.transaction(|tx| {
        if tx.dialect() == Dialect::Postgres {
            // One migrating server at a time; the lock ends with the transaction.
            tx.exec("SELECT pg_advisory_xact_lock(4242)", &[])?;
        }
        let have = current(tx)?;
        if have > STEPS {
            return Err(DbError::Sql(format!(
                "the database has schema version {have}, newer than this dip knows ({})",
                STEPS
            )));
        }
        for step in have..STEPS {
            for stmt in step_sql(step, tx.dialect()).split(';') {
                if !stmt.trim().is_empty() {
                    tx.exec(stmt, &[])?;
                }
            }
            tx.exec(
                "INSERT INTO schema_version (version) VALUES ($1)",
                &[(step as i64 + 1).into()],
            )?;
        }
        Ok(())
    })
}
