//! The `members` table: who plays a game, with their votes and flags.

use super::{DbError, Tx};

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
