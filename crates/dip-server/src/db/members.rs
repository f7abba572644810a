//! The `members` table: who plays a game, with their votes and flags.

use super::{DbError, Tx};
use crate::auth::Account;

/// A player of a game.
#[derive(Clone, Debug)]
pub struct Member {
    pub account_id: i64,
    pub name: String,
    pub power: Option<String>,
    pub wanted: Option<String>,
    pub ready: bool,
    pub draw: bool,
    pub concede: bool,
    pub missed: i64,
}

/// A game's players, in the order they joined.
pub fn all(tx: &mut dyn Tx, game: i64) -> Result<Vec<Member>, DbError> {
    tx.query(
        "SELECT m.account_id, a.name, m.power, m.wanted, m.ready, m.draw, m.concede, m.missed \
         FROM members m JOIN accounts a ON a.id = m.account_id WHERE m.game_id = $1 ORDER BY m.joined, m.account_id",
        &[game.into()],
    )?
    .iter()
    .map(|r| {
        Ok(Member {
            account_id: r.int(0)?,
            name: r.text(1)?,
            power: r.opt_text(2)?,
            wanted: r.opt_text(3)?,
            ready: r.flag(4)?,
            draw: r.flag(5)?,
            concede: r.flag(6)?,
            missed: r.int(7)?,
        })
    })
    .collect()
}

/// Nobody plays `power` any more (its player stays a member).
pub fn unseat_power(tx: &mut dyn Tx, game: i64, power: &str) -> Result<(), DbError> {
    tx.exec(
        "UPDATE members SET power = NULL WHERE game_id = $1 AND power = $2",
        &[game.into(), power.into()],
    )?;
    Ok(())
}

/// `account` plays `power`, joining the game if not yet a member.
pub fn seat(tx: &mut dyn Tx, game: i64, account: i64, power: &str, now: i64) -> Result<(), DbError> {
    let n = tx.exec(
        "UPDATE members SET power = $1, missed = 0 WHERE game_id = $2 AND account_id = $3",
        &[power.into(), game.into(), account.into()],
    )?;
    if n == 0 {
        tx.exec(
            "INSERT INTO members (game_id, account_id, power, joined) VALUES ($1, $2, $3, $4)",
            &[game.into(), account.into(), power.into(), now.into()],
        )?;
    }
    Ok(())
}

/// The powers of a game played by DAIDE bots (their accounts carry a
/// passcode, never a password).
pub fn bot_powers(tx: &mut dyn Tx, game: i64) -> Result<Vec<String>, DbError> {
    tx.query(
        "SELECT m.power FROM members m JOIN accounts a ON a.id = m.account_id \
         WHERE m.game_id = $1 AND m.power IS NOT NULL AND a.password_hash LIKE 'daide:%'",
        &[game.into()],
    )?
    .iter()
    .map(|r| r.text(0))
    .collect()
}

/// The member who plays `power` with this stored password hash (a bot's
/// `daide:CODE`).
pub fn player_of(tx: &mut dyn Tx, game: i64, power: &str, password_hash: &str) -> Result<Option<Account>, DbError> {
    tx.query_one(
        "SELECT a.id, a.name FROM members m JOIN accounts a ON a.id = m.account_id \
         WHERE m.game_id = $1 AND m.power = $2 AND a.password_hash = $3",
        &[game.into(), power.into(), password_hash.into()],
    )?
    .map(|r| {
        Ok(Account {
            id: r.int(0)?,
            name: r.text(1)?,
        })
    })
    .transpose()
}

/// `account` joins a forming game, wishing for `wanted` (or any power).
pub fn join(tx: &mut dyn Tx, game: i64, account: i64, wanted: Option<&str>, now: i64) -> Result<(), DbError> {
    tx.exec(
        "INSERT INTO members (game_id, account_id, wanted, joined) VALUES ($1, $2, $3, $4)",
        &[game.into(), account.into(), wanted.map(String::from).into(), now.into()],
    )?;
    Ok(())
}

/// `account` joins a running game as the player of `power`.
pub fn join_as(tx: &mut dyn Tx, game: i64, account: i64, power: &str, now: i64) -> Result<(), DbError> {
    tx.exec(
        "INSERT INTO members (game_id, account_id, power, joined) VALUES ($1, $2, $3, $4)",
        &[game.into(), account.into(), power.into(), now.into()],
    )?;
    Ok(())
}

/// `account` leaves the game; false if it was no member.
pub fn leave(tx: &mut dyn Tx, game: i64, account: i64) -> Result<bool, DbError> {
    Ok(tx.exec(
        "DELETE FROM members WHERE game_id = $1 AND account_id = $2",
        &[game.into(), account.into()],
    )? > 0)
}

/// `account` plays `power` (the powers handed out at the start).
pub fn set_power(tx: &mut dyn Tx, game: i64, account: i64, power: &str) -> Result<(), DbError> {
    tx.exec(
        "UPDATE members SET power = $1 WHERE game_id = $2 AND account_id = $3",
        &[power.into(), game.into(), account.into()],
    )?;
    Ok(())
}

/// A member's flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    Ready,
    Draw,
    Concede,
}

/// Sets one of `account`'s flags.
pub fn set_flag(tx: &mut dyn Tx, game: i64, account: i64, flag: Flag, on: bool) -> Result<(), DbError> {
    let column = match flag {
        Flag::Ready => "ready",
        Flag::Draw => "draw",
        Flag::Concede => "concede",
    };
    tx.exec(
        &format!("UPDATE members SET {column} = $1 WHERE game_id = $2 AND account_id = $3"),
        &[on.into(), game.into(), account.into()],
    )?;
    Ok(())
}

/// A phase was processed: nobody is ready any more; the players of
/// `missed` (powers that had to order and did not) missed one more phase,
/// those of `gave` none in a row. One statement for all members (round
/// trips count on PostgreSQL).
pub fn phase_done(tx: &mut dyn Tx, game: i64, missed: &[String], gave: &[String]) -> Result<(), DbError> {
    let list = |names: &[String], from: usize| {
        if names.is_empty() {
            "NULL".to_string()
        } else {
            (0..names.len())
                .map(|i| format!("${}", from + i))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let sql = format!(
        "UPDATE members SET ready = 0, missed = CASE WHEN power IN ({}) THEN missed + 1 WHEN power IN ({}) THEN 0 \
         ELSE missed END WHERE game_id = $1",
        list(missed, 2),
        list(gave, 2 + missed.len())
    );
    let mut params: Vec<super::Value> = vec![game.into()];
    params.extend(missed.iter().chain(gave).map(|n| n.into()));
    tx.exec(&sql, &params)?;
    Ok(())
}

/// The players who missed `after` phases in a row leave the game; the
/// powers they played.
pub fn drop_absent(tx: &mut dyn Tx, game: i64, after: i64) -> Result<Vec<String>, DbError> {
    tx.query(
        "DELETE FROM members WHERE game_id = $1 AND power IS NOT NULL AND missed >= $2 RETURNING power",
        &[game.into(), after.into()],
    )?
    .iter()
    .map(|r| r.text(0))
    .collect()
}
