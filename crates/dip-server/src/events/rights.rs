//! Who may see which event of a game: press only its sender and
//! recipients (everybody once the game is over), the players' names in
//! an anonymous game's edits only the game master (everybody at the end).

use crate::db::events::EventRow;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::game::{self, Lock, Status};
use serde_json::Value as Json;

/// A game's readers as of one of its events.
#[derive(Clone, Debug, Default)]
pub struct Rights {
    creator: i64,
    anonymous: bool,
    finished: bool,
    /// The power of each member that has one, by account.
    powers: Vec<(i64, String)>,
}

/// Does an event of this kind change who may see what? (A power given,
/// taken or passed on; the game over.)
pub fn changes_rights(kind: &str) -> bool {
    matches!(
        kind,
        "started" | "joined" | "left" | "civil_disorder" | "edit" | "finished"
    )
}

impl Rights {
    pub fn of(tx: &mut dyn Tx, id: i64) -> ApiResult<Rights> {
        let g = game::load(tx, id, Lock::None)?;
        let powers = game::members(tx, id)?
            .into_iter()
            .filter_map(|m| Some((m.account_id, m.power?)))
            .collect();
        Ok(Rights {
            creator: g.creator,
            anonymous: g.options.anonymous,
            finished: g.status == Status::Finished,
            powers,
        })
    }

    /// The event's data as `viewer` (an account, or nobody) may see it;
    /// `None` when it is not for them.
    pub fn shown(&self, e: &EventRow, viewer: Option<i64>) -> Option<String> {
        match e.kind.as_str() {
            "message" => {
                let data: Json = serde_json::from_str(&e.data).unwrap_or(Json::Null);
                let power = viewer
                    .and_then(|v| self.powers.iter().find(|(a, _)| *a == v))
                    .map(|(_, p)| p.as_str());
                let from = data["from"].as_str().unwrap_or("");
                crate::press::may_read(power, from, &data["to"], self.finished).then(|| e.data.clone())
            }
            "edit" if self.anonymous && !self.finished && viewer != Some(self.creator) => {
                let mut data: Json = serde_json::from_str(&e.data).unwrap_or(Json::Null);
                data["lines"] = crate::edit::hide_players(&data["lines"]);
                Some(data.to_string())
            }
            _ => Some(e.data.clone()),
        }
    }
}
