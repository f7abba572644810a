//! Private games' SQL: a game's access for one viewer, making a game
//! private, and the list filter (`crate::private` decides with them).

use super::{DbError, Tx};

/// `(private, creator, invite, password hash, whether the viewer is a
/// member)` of a game; `None` when there is no such game.
#[allow(clippy::type_complexity)]
pub fn access(
    tx: &mut dyn Tx,
    id: i64,
    viewer: i64,
) -> Result<Option<(bool, i64, Option<String>, Option<String>, bool)>, DbError> {
    let Some(r) = tx.query_one(
        "SELECT private, creator, invite, join_password, \
         (SELECT COUNT(*) FROM members m WHERE m.game_id = games.id AND m.account_id = $2) \
         FROM games WHERE id = $1",
        &[id.into(), viewer.into()],
    )?
    else {
        return Ok(None);
    };
    Ok(Some((
        r.int(0)? != 0,
        r.int(1)?,
        r.opt_text(2)?,
        r.opt_text(3)?,
        r.int(4)? > 0,
    )))
}

/// Makes a game private with this invitation and password hash.
pub fn make_private(tx: &mut dyn Tx, id: i64, invite: &str, password_hash: Option<String>) -> Result<(), DbError> {
    tx.exec(
        "UPDATE games SET private = 1, invite = $1, join_password = $2 WHERE id = $3",
        &[invite.into(), password_hash.into(), id.into()],
    )?;
    Ok(())
}

/// The condition (on `games`, with the viewer's id as `$1`) that keeps
/// private games out of lists for everyone but their members.
pub const LISTED: &str = "(private = 0 OR creator = $1 OR id IN (SELECT game_id FROM members WHERE account_id = $1))";
