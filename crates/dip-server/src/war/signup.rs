//! Sign-up: a game is created with its options, players join (a team
//! game's players with their team's password) and vote; the game starts
//! when `dip_war::signup` says so.

use super::{load, seats, store, WarOptions, WarRow, WarStatus};
use crate::auth::Account;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::time::{now_ms, parse_duration};
use dip_war::signup::{self, Range};
use serde::Deserialize;

/// `POST /api/v1/war/games`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewWar {
    pub name: String,
    /// `3`, `3-4`, `3-5`, `3-6`, `4`, `4-5`, `4-6`, `5`, `5-6` or `6`
    /// (a team game is always 3–6).
    pub players: Option<String>,
    #[serde(default)]
    pub teams: bool,
    /// A team game's three passwords.
    #[serde(default)]
    pub passwords: Vec<String>,
    #[serde(default)]
    pub hidden_names: bool,
    #[serde(default)]
    pub unlimited_fortifications: bool,
    /// A turn's time limit: `90s`, `10m`, `24h`, `2d`; none by default.
    pub time_limit: Option<String>,
    /// How long a completed game is kept (default `7d`).
    pub keep: Option<String>,
    /// The dice's seed (random by default).
    pub seed: Option<u64>,
}

/// `3-5` (or `3–5`, `3..5`, `3`) into one of the ten ranges.
pub fn parse_range(text: &str) -> ApiResult<Range> {
    let t = text.trim().replace(['–', ' '], "-").replace("..", "-");
    let (a, b) = t.split_once('-').unwrap_or((&t, &t));
    let r = match (a.parse::<u32>(), b.trim_start_matches('-').parse::<u32>()) {
        (Ok(a), Ok(b)) => Range::from_code(a * 10 + b),
        _ => None,
    };
    r.ok_or_else(|| {
        ApiError::bad_request(format!(
            "players: `{text}` is not one of 3, 3-4, 3-5, 3-6, 4, 4-5, 4-6, 5, 5-6, 6"
        ))
    })
}

pub fn check_options(new: &NewWar) -> ApiResult<WarOptions> {
    let players = if new.teams {
        if new
            .players
            .as_deref()
            .is_some_and(|p| parse_range(p).ok() != Some(signup::ANY))
        {
            return Err(ApiError::bad_request(
                "players: a team game is for 3 to 6 players (leave it out)",
            ));
        }
        signup::ANY
    } else {
        parse_range(new.players.as_deref().unwrap_or("3-6"))?
    };
    let passwords: Vec<String> = new.passwords.iter().map(|p| p.trim().to_string()).collect();
    if new.teams {
        signup::check_passwords(&passwords).map_err(|(_, m)| ApiError::bad_request(format!("passwords: {m}")))?;
    } else if !passwords.is_empty() {
        return Err(ApiError::bad_request(
            "passwords: only a team game (\"teams\": true) has them",
        ));
    }
    let duration = |what: &str, v: &Option<String>| -> ApiResult<Option<i64>> {
        v.as_deref()
            .map(|t| parse_duration(t).map_err(|e| ApiError::bad_request(format!("{what}: {e}"))))
            .transpose()
    };
    Ok(WarOptions {
        players,
        teams: new.teams,
        hidden_names: new.hidden_names,
        unlimited_fortifications: new.unlimited_fortifications,
        passwords,
        time_limit: duration("time_limit", &new.time_limit)?,
        keep: duration("keep", &new.keep)?.unwrap_or(7 * 86_400_000),
        seed: new.seed.unwrap_or_else(super::secret_seed),
    })
}

pub fn create(tx: &mut dyn Tx, creator: &Account, new: &NewWar) -> ApiResult<i64> {
    let name = crate::lobby::check_name(&new.name)?;
    let options = check_options(new)?;
    insert(tx, creator, &name, WarStatus::Signup, &options)
}

pub fn insert(
    tx: &mut dyn Tx,
    creator: &Account,
    name: &str,
    status: WarStatus,
    options: &WarOptions,
) -> ApiResult<i64> {
    insert_at(tx, creator, name, status, options, now_ms())
}

/// [`insert`] of a game set up at `created` (Unix ms): an imported file's
/// Event_Day.
pub fn insert_at(
    tx: &mut dyn Tx,
    creator: &Account,
    name: &str,
    status: WarStatus,
    options: &WarOptions,
    created: i64,
) -> ApiResult<i64> {
    Ok(crate::db::war::insert(tx, creator.id, name, status, options, created)?)
}

fn in_signup(row: &WarRow) -> ApiResult<()> {
    if row.status != WarStatus::Signup {
        return Err(ApiError::conflict(format!(
            "the game is {}: sign-up is over",
            row.status.as_str()
        )));
    }
    Ok(())
}

/// Takes a seat: the first free one, or in a team game the first free
/// seat of the password's team. Returns whether the game started.
pub fn join(tx: &mut dyn Tx, id: i64, who: &Account, password: Option<&str>) -> ApiResult<bool> {
    let row = load(tx, id, true)?;
    in_signup(&row)?;
    let taken = seats(tx, id)?;
    if taken.iter().any(|s| s.account_id == who.id) {
        return Err(ApiError::conflict("you have already joined this game"));
    }
    if !row.options.players.can_join(taken.len()) {
        return Err(ApiError::conflict(format!(
            "the game is full ({} players)",
            row.options.players.max
        )));
    }
    let numbers: Vec<u8> = taken.iter().map(|s| s.seat).collect();
    let seat = if row.options.teams {
        let Some(given) = password else {
            return Err(ApiError::bad_request(
                "password: a team game is joined with a team's password",
            ));
        };
        signup::join_team(&row.options.passwords, given, &numbers)
            .ok_or_else(|| ApiError::forbidden("wrong team password, or that team is full"))?
    } else {
        if password.is_some() {
            return Err(ApiError::bad_request("password: only a team game has passwords"));
        }
        (1..=6u8)
            .find(|s| !numbers.contains(s))
            .ok_or_else(|| ApiError::conflict("the game is full"))?
    };
    crate::db::war::take_seat(tx, id, seat, who.id, false, now_ms())?;
    moved_on(tx, id)?;
    maybe_start(tx, row)
}

/// Gives up a seat; the others may now be enough to start (the one who had
/// not voted yes left, say). Returns whether the game started.
pub fn leave(tx: &mut dyn Tx, id: i64, who: &Account) -> ApiResult<bool> {
    let row = load(tx, id, true)?;
    in_signup(&row)?;
    if !crate::db::war::leave_seat(tx, id, who.id)? {
        return Err(ApiError::conflict("you have not joined this game"));
    }
    moved_on(tx, id)?;
    maybe_start(tx, row)
}

/// The sign-up changed: an imported file is no longer the game's export.
fn moved_on(tx: &mut dyn Tx, id: i64) -> ApiResult<()> {
    Ok(crate::db::war::set_original(tx, id, None)?)
}

/// Votes yes or no to start; returns whether the game started.
pub fn vote(tx: &mut dyn Tx, id: i64, who: &Account, vote: bool) -> ApiResult<bool> {
    let row = load(tx, id, true)?;
    in_signup(&row)?;
    if !crate::db::war::vote(tx, id, who.id, vote)? {
        return Err(ApiError::conflict("join the game before voting"));
    }
    moved_on(tx, id)?;
    maybe_start(tx, row)
}

/// Starts the game when the votes or the count of players say so.
pub(super) fn maybe_start(tx: &mut dyn Tx, mut row: WarRow) -> ApiResult<bool> {
    let taken = seats(tx, row.id)?;
    let starts = if row.options.teams {
        let s: Vec<(u8, bool)> = taken.iter().map(|s| (s.seat, s.vote)).collect();
        signup::team_game_starts(&s)
    } else {
        let votes: Vec<bool> = taken.iter().map(|s| s.vote).collect();
        row.options.players.starts(&votes)
    };
    if !starts {
        return Ok(false);
    }
    // The whole account name: only a file cuts it (dip_war::save).
    let players: Vec<(u8, String)> = taken.iter().map(|s| (s.seat, s.name.clone())).collect();
    let mut game = dip_war::Game::new(row.options.engine(), players, row.options.seed)
        .map_err(|e| ApiError::conflict(format!("the game cannot start: {e}")))?;
    let now = now_ms();
    game.began_at(super::files::daynum(now));
    row.status = WarStatus::Active;
    row.deadline = row.options.time_limit.map(|l| now + l);
    row.game = Some(game);
    store(tx, &row)?;
    moved_on(tx, row.id)?;
    Ok(true)
}

/// `GET /api/v1/war/games`: every game but the deleted, newest first.
pub fn list(tx: &mut dyn Tx, viewer: Option<&Account>) -> ApiResult<serde_json::Value> {
    let mut games = Vec::new();
    for row in crate::db::war::list(tx)? {
        let taken = seats(tx, row.id)?;
        let me = viewer.and_then(|a| super::seat_of(&taken, a.id));
        games.push(serde_json::json!({
            "id": row.id,
            "name": row.name,
            "status": row.status.as_str(),
            "players": taken.len(),
            "range": {"min": row.options.players.min, "max": row.options.players.max},
            "teams": row.options.teams,
            "your_seat": me,
        }));
    }
    Ok(serde_json::json!({ "games": games }))
}
