//! Press from API players to the bots of a DAIDE game. Bots read only
//! DAIDE press (the language has no free text below level 8000): text
//! that reads as DAIDE tokens (brackets included) is checked as a bot's
//! SND would be (level 30, the level of API games) and refused when it
//! is no press; free text still reaches the API players among the
//! recipients, and the answer says which bots did not get it.

use super::convert::Reader;
use super::message::{huh, Msg, Node};
use super::token::{Repr, SND};
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use dip_core::Map;
use serde_json::{json, Value as Json};

/// The press level of games created through the API.
pub const API_PRESS_LEVEL: u32 = 30;

/// The powers of a game played by DAIDE bots (their accounts carry a
/// passcode, never a password).
pub fn bot_powers(tx: &mut dyn Tx, game: i64) -> ApiResult<Vec<String>> {
    Ok(crate::db::members::bot_powers(tx, game)?)
}

/// What an API player's press means for the bots among its recipients
/// (`"all"` or a list of power names): nothing when there are none;
/// `{"powers", "delivered": true}` for DAIDE press; `{"powers",
/// "delivered": false, "why"}` for free text. DAIDE tokens that are no
/// press at the level are refused with the HUH a bot would get.
pub fn check(
    tx: &mut dyn Tx,
    game: i64,
    map: &Map,
    sender: &str,
    recipients: &Json,
    text: &str,
) -> ApiResult<Option<Json>> {
    let bots = bot_powers(tx, game)?;
    let to_bots: Vec<String> = match recipients {
        Json::Array(a) => a
            .iter()
            .filter_map(Json::as_str)
            .filter(|p| bots.iter().any(|b| b == p))
            .map(String::from)
            .collect(),
        _ => bots.into_iter().filter(|b| b != sender).collect(),
    };
    if to_bots.is_empty() {
        return Ok(None);
    }
    let repr = Repr::of(map);
    // Every press message has brackets: a word that happens to be a
    // token ("yes", "42") is a person's text, not a bot's.
    let daide = text.contains('(').then(|| Msg::parse(text, &repr).ok()).flatten();
    let Some(m) = daide else {
        return Ok(Some(json!({
            "powers": to_bots,
            "delivered": false,
            "why": "DAIDE bots read only DAIDE press (e.g. PRP (PCE (ENG FRA))), \
                    not free text: the message went to the other recipients only",
        })));
    };
    let reader = Reader { map, repr: &repr };
    if let Err(at) = super::press::check(&reader, &m.0, API_PRESS_LEVEL, 0) {
        // The HUH a bot's `SND (…) (text)` would get, shown for the text.
        let snd = Msg(vec![Node::Tok(SND), Node::List(m.0.clone())]);
        let shown = huh(&snd, at + 2).to_text(&repr);
        let shown = shown
            .strip_prefix("HUH (SND (")
            .and_then(|s| s.strip_suffix("))"))
            .unwrap_or(&shown);
        return Err(ApiError::bad_request(format!(
            "text: DAIDE tokens that are no press of level {API_PRESS_LEVEL} for the bots of {}: {shown} \
             (ERR is before the first token that is wrong or above the level)",
            to_bots.join(", ")
        )));
    }
    Ok(Some(json!({"powers": to_bots, "delivered": true})))
}
