//! WARxx.DAT and WARxx.REC in and out of hosted games. An imported file is
//! kept as it was read and exported byte for byte until the game moves on;
//! after that the export is written from the game: a REC file while a
//! turn is in progress (the recovery file the door wrote), else a DAT file
//! whose last-moved days give the turn to the player to move.

use super::signup::insert;
use super::{load, store, WarOptions, WarRow, WarStatus};
use crate::auth::{name_key, Account};
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::time::now_ms;
use dip_war::file::{self, DatFile, RecFile, Status};
use dip_war::map::View;
use dip_war::{Game, Phase};

/// Unix milliseconds as a day number.
fn daynum(ms: i64) -> f64 {
    dip_war::daynum::from_unix(ms.div_euclid(1000))
}

/// A DAT file of the game: every player moved at `now`, but the player to
/// move longest ago and the others in turn order after them, so that a
/// reader of the file gives the turn to the right player.
pub fn dat_file(game: &Game, now: i64) -> DatFile {
    let now = daynum(now);
    let mut dat = DatFile::from_game(game, now);
    let pos = &game.pos;
    let order: Vec<u8> = (0..6u8)
        .map(|k| (pos.current.saturating_sub(1) + k) % 6 + 1)
        .filter(|&s| pos.player(s).is_some_and(|p| p.alive))
        .collect();
    for (k, &s) in order.iter().enumerate() {
        // 0.0001 day (8.64 s): the smallest step the file's four decimals keep.
        dat.seats[s as usize - 1].last_moved = now - (order.len() - k) as f64 * 0.0001;
    }
    dat
}

pub fn dat_bytes(game: &Game, now: i64) -> Vec<u8> {
    dat_file(game, now).to_bytes()
}

/// A turn is in progress when something was done since it began.
pub fn turn_in_progress(game: &Game) -> bool {
    game.pos.phase != Phase::Over && game.pos != game.turn_start
}

/// The export: (file name, bytes).
pub fn export(row: &WarRow) -> ApiResult<(String, Vec<u8>)> {
    let name = |ext: &str| format!("WAR{:02}.{ext}", row.id % 100);
    if let Some(a) = &row.archive {
        return Ok((name("DAT"), a.clone()));
    }
    if let (Some(o), 0) = (&row.original, row.actions) {
        let rec = matches!(file::parse_any(o), Ok((_, Some(_))));
        return Ok((name(if rec { "REC" } else { "DAT" }), o.clone()));
    }
    let game = row.game()?;
    let now = now_ms();
    if turn_in_progress(game) {
        let mut rec = RecFile::from_game(game, daynum(now), View::Globe);
        rec.dat = dat_file(game, now);
        Ok((name("REC"), rec.to_bytes()))
    } else {
        Ok((name("DAT"), dat_bytes(game, now)))
    }
}

/// What an import needs besides the file.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportOptions {
    pub name: Option<String>,
    pub time_limit: Option<String>,
    pub keep: Option<String>,
    pub seed: Option<u64>,
    /// The account playing a seat, when its name is not the file's.
    pub seat1: Option<String>,
    pub seat2: Option<String>,
    pub seat3: Option<String>,
    pub seat4: Option<String>,
    pub seat5: Option<String>,
    pub seat6: Option<String>,
}

impl ImportOptions {
    fn seat(&self, n: u8) -> Option<&str> {
        [
            &self.seat1,
            &self.seat2,
            &self.seat3,
            &self.seat4,
            &self.seat5,
            &self.seat6,
        ]
        .get(n as usize - 1)
        .and_then(|s| s.as_deref())
    }
}

/// A name reduced to its letters and digits, lower case: the file's
/// `Hagar T. Horrible` is the account `hagar.t.horrible` (account names
/// have no spaces).
fn loose(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Imports a WARxx.DAT or WARxx.REC of a game in progress (or completed):
/// each seat goes to the account of its player's name.
pub fn import(tx: &mut dyn Tx, creator: &Account, bytes: &[u8], opts: &ImportOptions) -> ApiResult<i64> {
    let (dat, rec) =
        file::parse_any(bytes).map_err(|e| ApiError::bad_request(format!("line {}: {}", e.line, e.message)))?;
    let pos = match &rec {
        Some(r) => r.to_position(),
        None => dat.to_position(),
    }
    .map_err(|e| ApiError::bad_request(format!("line {}: {}", e.line, e.message)))?;
    let name = crate::lobby::check_name(opts.name.as_deref().unwrap_or("Imported Global War game"))?;
    let mut options: WarOptions = super::signup::check_options(&super::signup::NewWar {
        name: name.clone(),
        time_limit: opts.time_limit.clone(),
        keep: opts.keep.clone(),
        seed: opts.seed,
        ..Default::default()
    })?;
    options.teams = pos.options.teams;
    options.hidden_names = pos.options.hidden_names;
    options.unlimited_fortifications = pos.options.unlimited_fortifications;
    options.passwords = if pos.options.teams {
        dat.team_passwords.clone()
    } else {
        Vec::new()
    };
    let mut accounts = Vec::new();
    let mut missing = Vec::new();
    let all: Vec<(i64, String)> = tx
        .query("SELECT id, name FROM accounts ORDER BY id", &[])?
        .iter()
        .map(|r| (r.int(0), r.text(1)))
        .collect();
    for p in &pos.players {
        let acc = match opts.seat(p.number) {
            Some(given) => all.iter().find(|(_, n)| name_key(n) == name_key(given)),
            None => all.iter().find(|(_, n)| loose(n) == loose(&p.name)),
        };
        match acc {
            Some(&(a, _)) if !accounts.iter().any(|&(_, b)| b == a) => accounts.push((p.number, a)),
            Some((_, n)) => return Err(ApiError::bad_request(format!("two seats are played by `{n}`"))),
            None => missing.push(format!(
                "seat {} `{}`",
                p.number,
                opts.seat(p.number).unwrap_or(&p.name)
            )),
        }
    }
    if !missing.is_empty() {
        return Err(ApiError::bad_request(format!(
            "every player of the file needs an account of the same name (letters and digits compared) or one given as seatN=ACCOUNT: none for {}",
            missing.join(", ")
        )));
    }
    let game = Game::from_position(pos, options.seed).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let id = insert(tx, creator, &name, WarStatus::Active, &options)?;
    let now = now_ms();
    for (seat, acc) in accounts {
        tx.exec(
            "INSERT INTO war_seats (game_id, seat, account_id, vote, joined) VALUES ($1, $2, $3, 1, $4)",
            &[id.into(), (seat as i64).into(), acc.into(), now.into()],
        )?;
    }
    tx.exec(
        "UPDATE war_games SET original = $1 WHERE id = $2",
        &[super::hex(bytes).into(), id.into()],
    )?;
    let mut row = load(tx, id, true)?;
    row.status = if dat.event.status == Status::Completed || game.is_over() {
        WarStatus::Completed
    } else {
        WarStatus::Active
    };
    row.deadline = match row.status {
        WarStatus::Active => options.time_limit.map(|l| now + l),
        _ => None,
    };
    if row.status == WarStatus::Completed {
        row.finished = Some(now);
        row.delete_at = Some(now.saturating_add(options.keep));
        row.archive = Some(bytes.to_vec());
    }
    row.game = Some(game);
    store(tx, &row)?;
    Ok(id)
}

/// `dip war import`: the same import straight into the storage of
/// `dip serve`, on behalf of the account `creator`.
pub fn import_into(db: &crate::db::Db, creator: &str, bytes: &[u8], opts: &ImportOptions) -> ApiResult<i64> {
    db.transaction(|tx| {
        let row = tx
            .query_one(
                "SELECT id, name FROM accounts WHERE name_key = $1",
                &[name_key(creator).into()],
            )?
            .ok_or_else(|| ApiError::not_found(format!("no account `{creator}` (the game's creator)")))?;
        let who = Account {
            id: row.int(0),
            name: row.text(1),
        };
        import(tx, &who, bytes, opts)
    })
}
