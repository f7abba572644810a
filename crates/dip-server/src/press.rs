//! Press: messages between powers, as the game's press setting allows.

use crate::auth::Account;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::game::Lock;
use crate::game::{self, Press, Status};
use crate::time::{iso8601, now_ms};
use serde::Deserialize;
use serde_json::{json, Value as Json};

pub const MAX_TEXT: usize = 10_000;

/// `to`: `"all"` or a list of powers.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum To {
    All(String),
    Powers(Vec<String>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewMessage {
    pub to: To,
    pub text: String,
}

pub fn send(tx: &mut dyn Tx, variants: &dip_play::Variants, id: i64, who: &Account, m: &NewMessage) -> ApiResult<Json> {
    let g = game::load(tx, id, Lock::None)?;
    match g.status {
        Status::Forming => return Err(ApiError::conflict("the game has not started")),
        Status::Finished => return Err(ApiError::conflict("the game is over: no more press")),
        Status::Active | Status::Paused => {}
    }
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let members = game::members(tx, id)?;
    let from = game::power_of(map, &members, who.id)
        .ok_or_else(|| ApiError::forbidden("only a player with a power sends press"))?;
    let text = m.text.trim();
    if text.is_empty() || text.chars().count() > MAX_TEXT {
        return Err(ApiError::bad_request(format!(
            "text: between 1 and {MAX_TEXT} characters"
        )));
    }
    crate::chars::refuse_control("text", text, &['\n', '\r', '\t'])?;
    let recipients: Json = match &m.to {
        To::All(a) if a.eq_ignore_ascii_case("all") => Json::String("all".into()),
        To::All(other) => {
            return Err(ApiError::bad_request(format!(
                "to: `{other}`: write \"all\" or a list of powers"
            )))
        }
        To::Powers(ps) => {
            if ps.is_empty() {
                return Err(ApiError::bad_request("to: name at least one power"));
            }
            let mut names = Vec::new();
            for p in ps {
                let id = map
                    .find_power(p)
                    .ok_or_else(|| ApiError::bad_request(format!("to: no power `{p}` in this game")))?;
                let n = map.power(id).name.clone();
                if id != from && !names.contains(&n) {
                    names.push(n);
                }
            }
            if names.is_empty() {
                return Err(ApiError::bad_request("to: a message to yourself only"));
            }
            json!(names)
        }
    };
    match (g.options.press, &recipients) {
        (Press::None, _) => return Err(ApiError::forbidden("this game has no press")),
        (Press::Public, Json::Array(_)) => {
            return Err(ApiError::forbidden("this game allows only public press (to all)"))
        }
        _ => {}
    }
    let state = g.state(variants)?;
    let sender = map.power(from).name.clone();
    // Bots read DAIDE press only: checked, or the sender is told.
    let bots = if g.options.daide {
        crate::daide::api_press::check(tx, id, map, &sender, &recipients, text)?
    } else {
        None
    };
    let mid = crate::db::messages::insert(
        tx,
        id,
        &state.phase.short(),
        &sender,
        &recipients.to_string(),
        text,
        now_ms(),
    )?;
    game::event(tx, id, "message", json!({"id": mid, "from": sender, "to": recipients}))?;
    let mut answer = json!({"id": mid});
    if let Some(b) = bots {
        answer["bots"] = b;
    }
    Ok(answer)
}

/// May a viewer with this power (or none) read a message?
pub fn may_read(power: Option<&str>, sender: &str, recipients: &Json, finished: bool) -> bool {
    if finished || recipients.as_str() == Some("all") {
        return true;
    }
    let Some(p) = power else { return false };
    p == sender
        || recipients
            .as_array()
            .is_some_and(|a| a.iter().any(|r| r.as_str() == Some(p)))
}

/// `GET …/messages`: what the caller may read (all press once the game
/// is over).
pub fn list(tx: &mut dyn Tx, id: i64, viewer: Option<&Account>) -> ApiResult<Json> {
    let g = game::load(tx, id, Lock::None)?;
    let members = game::members(tx, id)?;
    let power = viewer
        .and_then(|v| members.iter().find(|m| m.account_id == v.id))
        .and_then(|m| m.power.clone());
    let finished = g.status == Status::Finished;
    let mut out = Vec::new();
    for m in crate::db::messages::all(tx, id)? {
        let recipients: Json = serde_json::from_str(&m.recipients).unwrap_or(Json::Null);
        if !may_read(power.as_deref(), &m.sender, &recipients, finished) {
            continue;
        }
        out.push(json!({
            "id": m.id, "phase": m.phase, "from": m.sender, "to": recipients,
            "text": m.body, "sent": iso8601(m.created),
        }));
    }
    Ok(json!({"messages": out}))
}
