//! WARxx.DAT and WARxx.REC in and out of hosted games. An imported file is
//! kept as it was read and exported byte for byte until the game moves on
//! (an action, or a join, vote or leave in sign-up); after that the export
//! is written from the game by `dip_war::save`: a REC file while a turn is
//! in progress (the recovery file the door wrote), else a DAT file whose
//! last-moved days give the turn to the player to move; a game in sign-up
//! is a DAT file with its seats and votes.

use super::signup::insert;
use super::{load, seats, store, WarOptions, WarRow, WarStatus};
use crate::auth::{name_key, Account};
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::time::now_ms;
use dip_war::file::{self, DatFile, FileError, Status};
use dip_war::game_file::{SignedUp, SignupGame};
use dip_war::{Game, GameFile};

/// Unix milliseconds as a day number.
pub fn daynum(ms: i64) -> f64 {
    dip_war::daynum::from_unix(ms.div_euclid(1000))
}

/// The file of a started game at `now` (Unix ms), with its team passwords.
pub fn game_file(row: &WarRow, game: &Game, now: i64) -> GameFile {
    dip_war::save(game, daynum(now), &row.options.passwords)
}

/// The DAT file of a game in sign-up: its seats, votes and when each
/// player joined.
fn signup_file(tx: &mut dyn Tx, row: &WarRow) -> ApiResult<DatFile> {
    let players = seats(tx, row.id)?
        .into_iter()
        .map(|s| SignedUp {
            seat: s.seat,
            name: s.name,
            vote: s.vote,
            joined: daynum(s.joined),
        })
        .collect();
    Ok(DatFile::from_signup(&SignupGame {
        range: row.options.players,
        options: row.options.engine(),
        created: daynum(row.created),
        players,
        passwords: row.options.passwords.clone(),
    }))
}

/// A day number as Unix milliseconds (to the millisecond, so that the
/// day written back is the day read).
fn unix_ms(day: f64) -> Option<i64> {
    let ms = (day - dip_war::daynum::from_unix(0)) * 86_400_000.0;
    (ms.is_finite() && ms.abs() < 1e15).then(|| ms.round() as i64)
}

/// A game's file name: `WAR01.DAT` for game 1, `WAR101.DAT` for game 101
/// (still a DOS 8.3 name up to game 99999). Games 1 and 101 were both
/// `WAR01.DAT`.
pub fn file_name(id: i64, ext: &str) -> String {
    format!("WAR{id:02}.{ext}")
}

/// The export: (file name, bytes).
pub fn export(tx: &mut dyn Tx, row: &WarRow) -> ApiResult<(String, Vec<u8>)> {
    let name = |ext: &str| file_name(row.id, ext);
    if let Some(a) = &row.archive {
        return Ok((name("DAT"), a.clone()));
    }
    if let (Some(o), 0) = (&row.original, row.actions) {
        let rec = matches!(file::parse_any(o), Ok((_, Some(_))));
        return Ok((name(if rec { "REC" } else { "DAT" }), o.clone()));
    }
    if row.status == WarStatus::Signup {
        return Ok((name("DAT"), signup_file(tx, row)?.to_bytes()));
    }
    let file = game_file(row, row.game()?, now_ms());
    Ok((name(file.extension()), file.to_bytes()))
}

/// What an import needs besides the file.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportOptions {
    pub name: Option<String>,
    /// The file's name (`WAR01.REC`): its `.DAT` or `.REC` says which kind
    /// it is, else the kind is guessed from its lines; the game's name when
    /// `name` is not given.
    pub file: Option<String>,
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
    /// The game's name: `name`, else the file's name.
    fn game_name(&self) -> &str {
        self.name
            .as_deref()
            .or(self.file.as_deref())
            .unwrap_or("Imported Global War game")
    }

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

fn bad_file(e: FileError) -> ApiError {
    ApiError::bad_request(format!("line {}: {}", e.line, e.message))
}

/// The account of each seat: the one given as seatN=ACCOUNT, else the one
/// of the player's name; every seat needs one, each a different account.
fn accounts(tx: &mut dyn Tx, players: &[(u8, String)], opts: &ImportOptions) -> ApiResult<Vec<(u8, i64)>> {
    let all: Vec<(i64, String)> = crate::db::accounts::all(tx)?
        .into_iter()
        .map(|a| (a.id, a.name))
        .collect();
    let mut accounts = Vec::new();
    let mut missing = Vec::new();
    for (seat, name) in players {
        let acc = match opts.seat(*seat) {
            Some(given) => all.iter().find(|(_, n)| name_key(n) == name_key(given)),
            None => all.iter().find(|(_, n)| loose(n) == loose(name)),
        };
        match acc {
            Some(&(a, _)) if !accounts.iter().any(|&(_, b)| b == a) => accounts.push((*seat, a)),
            Some((_, n)) => return Err(ApiError::bad_request(format!("two seats are played by `{n}`"))),
            None => missing.push(format!("seat {seat} `{}`", opts.seat(*seat).unwrap_or(name))),
        }
    }
    if !missing.is_empty() {
        return Err(ApiError::bad_request(format!(
            "every player of the file needs an account of the same name (letters and digits compared) or one given as seatN=ACCOUNT: none for {}",
            missing.join(", ")
        )));
    }
    Ok(accounts)
}

/// The options of an imported game: the request's, the file's flags.
fn imported_options(
    opts: &ImportOptions,
    name: &str,
    game: &dip_war::Options,
    passwords: Vec<String>,
) -> ApiResult<WarOptions> {
    let mut options: WarOptions = super::signup::check_options(&super::signup::NewWar {
        name: name.to_string(),
        time_limit: opts.time_limit.clone(),
        keep: opts.keep.clone(),
        seed: opts.seed,
        ..Default::default()
    })?;
    options.teams = game.teams;
    options.hidden_names = game.hidden_names;
    options.unlimited_fortifications = game.unlimited_fortifications;
    options.passwords = if game.teams { passwords } else { Vec::new() };
    Ok(options)
}

/// Imports a WARxx.DAT or WARxx.REC: a game in progress (or completed),
/// or a game in sign-up with its seats and votes (which starts at once if
/// they say so). Each seat goes to the account of its player's name.
pub fn import(tx: &mut dyn Tx, creator: &Account, bytes: &[u8], opts: &ImportOptions) -> ApiResult<i64> {
    let (dat, rec) = file::parse_named(bytes, opts.file.as_deref()).map_err(bad_file)?;
    if rec.is_none() && dat.event.status == Status::Signup {
        return import_signup(tx, creator, bytes, &dat, opts);
    }
    let pos = match &rec {
        Some(r) => r.to_position(),
        None => dat.to_position(),
    }
    .map_err(bad_file)?;
    let name = crate::lobby::check_name(opts.game_name())?;
    let options = imported_options(opts, &name, &pos.options, dat.team_passwords.clone())?;
    let players: Vec<(u8, String)> = pos.players.iter().map(|p| (p.number, p.name.clone())).collect();
    let accounts = accounts(tx, &players, opts)?;
    let mut game = Game::from_position(pos, options.seed).map_err(|e| ApiError::bad_request(e.to_string()))?;
    // Event_Day and each Player_Moved as the file says, until they change.
    game.days = dip_war::days::Days::of_file(&dat);
    let id = insert(tx, creator, &name, WarStatus::Active, &options)?;
    let now = now_ms();
    for (seat, acc) in accounts {
        crate::db::war::take_seat(tx, id, seat, acc, true, now)?;
    }
    crate::db::war::set_original(tx, id, Some(bytes))?;
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

/// A DAT file in sign-up: the game with its range, options and passwords,
/// each seat taken by its account with the file's vote and sign-up time.
fn import_signup(
    tx: &mut dyn Tx,
    creator: &Account,
    bytes: &[u8],
    dat: &DatFile,
    opts: &ImportOptions,
) -> ApiResult<i64> {
    let signup = dat.to_signup().map_err(bad_file)?;
    let name = crate::lobby::check_name(opts.game_name())?;
    let mut options = imported_options(opts, &name, &signup.options, signup.passwords.clone())?;
    options.players = signup.range;
    let players: Vec<(u8, String)> = signup.players.iter().map(|p| (p.seat, p.name.clone())).collect();
    let accounts = accounts(tx, &players, opts)?;
    let now = now_ms();
    // The game was set up when the file's Event_Day says (its export
    // writes it back).
    let created = unix_ms(signup.created).unwrap_or(now);
    let id = super::signup::insert_at(tx, creator, &name, WarStatus::Signup, &options, created)?;
    for ((seat, acc), p) in accounts.into_iter().zip(&signup.players) {
        let joined = unix_ms(p.joined).unwrap_or(now);
        crate::db::war::take_seat(tx, id, seat, acc, p.vote, joined)?;
    }
    crate::db::war::set_original(tx, id, Some(bytes))?;
    let row = load(tx, id, true)?;
    super::signup::maybe_start(tx, row)?;
    Ok(id)
}

/// `dip war import`: the same import straight into the storage of
/// `dip serve`, on behalf of the account `creator`.
pub fn import_into(db: &crate::db::Db, creator: &str, bytes: &[u8], opts: &ImportOptions) -> ApiResult<i64> {
    db.transaction(|tx| {
        let who = crate::db::accounts::by_key(tx, &name_key(creator))?
            .ok_or_else(|| ApiError::not_found(format!("no account `{creator}` (the game's creator)")))?;
        import(tx, &who, bytes, opts)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn games_1_and_101_were_both_war01() {
        assert_eq!(super::file_name(1, "DAT"), "WAR01.DAT");
        assert_eq!(super::file_name(101, "DAT"), "WAR101.DAT");
        assert_eq!(super::file_name(12345, "REC"), "WAR12345.REC");
    }
}
