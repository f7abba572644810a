//! The schema and its migrations: a list of steps per database, applied in
//! order and counted in `schema_version`, so that a newer dip upgrades an
//! older database at start. Several servers starting at once on PostgreSQL
//! take an advisory lock so that one of them migrates.

use super::{Db, DbError, Dialect, Tx};

/// How many steps there are; `step_sql` gives each.
const STEPS: usize = 5;

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

/// Signed-in users' boards (docs/board.md): the board as the kernel's
/// stored game with the board's own state, one JSON value.
const BOARDS: &str = "
CREATE TABLE boards (
    id TEXT PRIMARY KEY,
    owner BIGINT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    share TEXT NOT NULL UNIQUE,
    board TEXT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);
CREATE INDEX boards_owner ON boards (owner, updated);
";

/// The statements of one step (0-based) in the database's dialect.
fn step_sql(step: usize, dialect: Dialect) -> String {
    let id = match dialect {
        Dialect::Sqlite => "INTEGER PRIMARY KEY AUTOINCREMENT",
        Dialect::Postgres => "BIGSERIAL PRIMARY KEY",
    };
    if step == 4 {
        return BOARDS.to_string();
    }
    if step == 3 {
        // Names unique by their confusable skeleton (filled for older
        // accounts by `auth::fill_skeletons`); private games.
        return "ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;\
                CREATE UNIQUE INDEX accounts_skeleton ON accounts (name_skeleton);\
                ALTER TABLE games ADD COLUMN private BIGINT NOT NULL DEFAULT 0;\
                ALTER TABLE games ADD COLUMN invite TEXT;\
                ALTER TABLE games ADD COLUMN join_password TEXT"
            .to_string();
    }
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
    Ok(row.map(|r| r.opt_int(0)).transpose()?.flatten().unwrap_or(0) as usize)
}

pub fn migrate(db: &Db) -> Result<(), DbError> {
    migrate_to(db, STEPS)
}

/// Applies the steps up to `target` (tests make older databases with it).
fn migrate_to(db: &Db, target: usize) -> Result<(), DbError> {
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
        for step in have..target {
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
        if target > 3 {
            crate::auth::fill_skeletons(tx)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::Account;
    use crate::game::{self, Lock};

    fn version(db: &Db) -> usize {
        db.read(|tx| current(tx)).unwrap()
    }

    /// An account as the first schema stored it (no skeleton).
    fn old_account(tx: &mut dyn Tx, name: &str) -> crate::error::ApiResult<Account> {
        let id = tx
            .query_one(
                "INSERT INTO accounts (name, name_key, password_hash, created) VALUES ($1, $2, 'hash', 0) RETURNING id",
                &[name.into(), crate::auth::name_key(name).into()],
            )?
            .map(|r| r.int(0))
            .transpose()?
            .unwrap_or(0);
        Ok(Account { id, name: name.into() })
    }

    /// A database written at each older schema version (an account, a
    /// game with its players and events) is upgraded when dip starts on
    /// it: every row kept, and the game goes on with what the newer steps
    /// added (the game master's edits, Global War).
    #[test]
    fn a_database_of_an_older_schema_is_upgraded_with_its_games() {
        let variants = &crate::variants::for_server();
        for old in 1..STEPS {
            let dir =
                std::env::temp_dir().join(format!("dip-schema-{old}-{}-{}", std::process::id(), fastrand::u64(..)));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join("dip.sqlite");
            let id = {
                let db = Db::Sqlite(super::super::sqlite::SqliteDb::open(&path).unwrap());
                migrate_to(&db, old).unwrap();
                assert_eq!(version(&db), old);
                db.transaction(|tx| -> crate::error::ApiResult<i64> {
                    let gm = old_account(tx, "gm")?;
                    let new: crate::lobby::NewGame = serde_json::from_value(serde_json::json!({
                        "name": "Old game", "players": {"min": 2, "max": 7}
                    }))
                    .unwrap();
                    let id = crate::lobby::create(tx, variants, &gm, new)?;
                    let other = old_account(tx, "other")?;
                    // Two names that look alike, allowed before step 4.
                    old_account(tx, "xavier")?;
                    old_account(tx, "x\u{430}vier")?;
                    // Joined as the old schema stored it (today's join
                    // answers with a view that reads the newer columns).
                    for (who, power) in [(&gm, "France"), (&other, "Germany")] {
                        tx.exec(
                            "INSERT INTO members (game_id, account_id, wanted, joined) VALUES ($1, $2, $3, 0)",
                            &[id.into(), who.id.into(), power.into()],
                        )?;
                        crate::game::event(tx, id, "joined", serde_json::json!({}))?;
                    }
                    Ok(id)
                })
                .unwrap()
            };
            // dip starts on it.
            let db = Db::sqlite(&path).unwrap();
            assert_eq!(version(&db), STEPS, "from version {old}");
            let gm = Account {
                id: 1,
                name: "gm".into(),
            };
            db.transaction(|tx| -> crate::error::ApiResult<()> {
                assert_eq!(crate::auth::password_of(tx, "GM")?.map(|(a, _)| a), Some(gm.clone()));
                crate::lobby::start(tx, variants, id, &gm)?;
                crate::edit::edit(tx, variants, id, &gm, &["remove mar".to_string()])?;
                crate::play::process_now(tx, variants, id, &gm, "test")?;
                Ok(())
            })
            .unwrap();
            db.read(|tx| -> crate::error::ApiResult<()> {
                let g = game::load(tx, id, Lock::None)?;
                assert_eq!(g.name, "Old game");
                assert_eq!(g.state(variants)?.phase.short(), "F1901M");
                let members = game::members(tx, id)?;
                assert_eq!(members.len(), 2);
                let kinds: Vec<String> = tx
                    .query("SELECT kind FROM events WHERE game_id = $1 ORDER BY id", &[id.into()])?
                    .iter()
                    .map(|r| r.text(0).unwrap())
                    .collect();
                assert_eq!(
                    kinds,
                    ["created", "joined", "joined", "started", "edit", "phase"],
                    "from {old}"
                );
                assert_eq!(tx.query("SELECT id FROM edits", &[])?.len(), 1);
                // Both look-alikes still log in; the older one holds the
                // skeleton, and a third cannot be made.
                assert!(crate::auth::password_of(tx, "x\u{430}vier")?.is_some());
                let skeletons = tx.query(
                    "SELECT name FROM accounts WHERE name_skeleton IS NOT NULL ORDER BY id",
                    &[],
                )?;
                assert_eq!(skeletons.len(), 3, "{skeletons:?}");
                assert!(tx.query("SELECT id FROM war_games", &[])?.is_empty());
                Ok(())
            })
            .unwrap();
            let third = db.transaction(|tx| crate::auth::create_account(tx, "xav\u{456}er", "hash"));
            assert_eq!(third.unwrap_err().status, axum::http::StatusCode::CONFLICT);
            drop(db);
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
