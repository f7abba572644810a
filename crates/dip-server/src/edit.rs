//! The game master's edits (as DIP allowed): units added, removed and
//! moved, province owners, the season and year, the title and who plays a
//! power. Each batch is checked whole, applied in one transaction and kept
//! in the history with the position before it.

use crate::auth::Account;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::game::{self, Lock, Status};
use crate::time::now_ms;
use dip_core::{Phase, PhaseKind, State};
use dip_play::Variants;
use serde_json::json;

/// Applies edit lines to a position; `title` and `player` lines are
/// returned for the caller. Errors name the line.
pub fn apply(l: &dip_play::Loaded, state: &mut State, lines: &[String]) -> ApiResult<Vec<(String, Vec<String>)>> {
    let map = &l.variant().map;
    let mut other = Vec::new();
    let bad = |n: usize, m: String| ApiError::bad_request(format!("edit line {}: {m}", n + 1));
    let province = |n: usize, w: &str| {
        l.vocabulary()
            .place(w)
            .map(|p| p.province)
            .ok_or_else(|| bad(n, format!("no province `{w}`")))
    };
    for (n, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&verb, rest)) = words.split_first() else {
            continue;
        };
        match (verb.to_ascii_lowercase().as_str(), rest) {
            ("add", [power, ..]) if rest.len() >= 3 => {
                let text = format!("{power}: {}", rest[1..].join(" "));
                let unit = dip_text::position::parse_unit_with(l.vocabulary(), &text).map_err(|e| bad(n, e))?;
                let p = map.province_of(unit.region);
                if state.unit(p).is_some() {
                    return Err(bad(n, format!("{} has a unit already", map.province(p).abbr)));
                }
                state.place(map, unit);
            }
            ("remove", [p]) => {
                let p = province(n, p)?;
                state
                    .remove(p)
                    .ok_or_else(|| bad(n, format!("no unit in {}", map.province(p).abbr)))?;
            }
            ("move", [from, to]) => {
                let from_p = province(n, from)?;
                let unit = state
                    .unit(from_p)
                    .ok_or_else(|| bad(n, format!("no unit in {}", map.province(from_p).abbr)))?;
                let owner = &map.power(unit.power).name;
                let text = format!("{owner}: {} {to}", map.unit_type(unit.kind).letter);
                let moved = dip_text::position::parse_unit_with(l.vocabulary(), &text).map_err(|e| bad(n, e))?;
                let to_p = map.province_of(moved.region);
                if to_p != from_p && state.unit(to_p).is_some() {
                    return Err(bad(n, format!("{} has a unit already", map.province(to_p).abbr)));
                }
                state.remove(from_p);
                state.place(map, moved);
            }
            ("owner", [p, who]) => {
                let p = province(n, p)?;
                if !map.province(p).supply_center {
                    return Err(bad(n, format!("{} is no supply centre", map.province(p).abbr)));
                }
                let owner = if who.eq_ignore_ascii_case("none") {
                    None
                } else {
                    Some(map.find_power(who).ok_or_else(|| bad(n, format!("no power `{who}`")))?)
                };
                state.set_owner(p, owner);
            }
            ("phase", [ph]) => {
                let phase = Phase::parse_short(ph)
                    .ok_or_else(|| bad(n, format!("`{ph}` is no phase: write S1901M, F1901R or W1901A")))?;
                if phase.kind != PhaseKind::Retreat {
                    state.clear_dislodged();
                }
                state.phase = phase;
            }
            ("title", words) if !words.is_empty() => other.push(("title".into(), vec![words.join(" ")])),
            ("player", [power, who]) => {
                let p = map.find_power(power).ok_or_else(|| bad(n, format!("no power `{power}`")))?;
                other.push(("player".into(), vec![map.power(p).name.clone(), who.to_string()]));
            }
            _ => {
                return Err(bad(
                    n,
                    format!(
                        "`{line}`: expected add POWER TYPE PROVINCE, remove PROVINCE, move FROM TO, owner PROVINCE POWER|none, \
                         phase S1901M, title TEXT or player POWER NAME|none"
                    ),
                ))
            }
        }
    }
    Ok(other)
}

/// Edit lines as shown to someone who may not see who plays a power (an
/// anonymous game before its end): `player France alice` keeps the power
/// and hides the name.
pub fn hide_players(lines: &serde_json::Value) -> serde_json::Value {
    let Some(lines) = lines.as_array() else {
        return lines.clone();
    };
    lines
        .iter()
        .map(|l| {
            let text = l.as_str().unwrap_or("");
            let words: Vec<&str> = text.split_whitespace().collect();
            match words.as_slice() {
                [verb, power, ..] if verb.eq_ignore_ascii_case("player") => json!(format!("player {power} (hidden)")),
                _ => l.clone(),
            }
        })
        .collect()
}

/// Whether `viewer` may see the player names in a game's edits.
pub fn names_hidden(g: &game::GameRow, viewer: Option<i64>) -> bool {
    g.options.anonymous && g.status != Status::Finished && viewer != Some(g.creator)
}

/// `POST …/edit {"edits": [...]}` (the game master).
pub fn edit(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account, lines: &[String]) -> ApiResult<()> {
    if lines.len() > 500 || lines.iter().any(|l| l.len() > 400) {
        return Err(ApiError::bad_request("edits: at most 500 lines of 400 characters"));
    }
    for (i, l) in lines.iter().enumerate() {
        crate::chars::refuse_control(&format!("edits[{i}]"), l, &['\t'])?;
    }
    let g = game::load(tx, id, Lock::Update)?;
    if g.creator != who.id {
        return Err(ApiError::forbidden("only the game master edits the game"));
    }
    if g.status == Status::Finished {
        return Err(ApiError::conflict("the game is over"));
    }
    let l = g.loaded(variants)?;
    let mut state = g.state(variants)?;
    let before = g.position.clone();
    let other = apply(&l, &mut state, lines)?;
    for (what, args) in &other {
        match what.as_str() {
            "title" => {
                let name = crate::lobby::check_name(&args[0])?;
                crate::db::games::set_name(tx, id, &name)?;
            }
            _ => {
                let (power, account) = (&args[0], &args[1]);
                crate::db::members::unseat_power(tx, id, power)?;
                if !account.eq_ignore_ascii_case("none") {
                    let acc = crate::db::accounts::by_key(tx, &crate::auth::name_key(account))?
                        .ok_or_else(|| ApiError::bad_request(format!("edit: no player `{account}`")))?;
                    crate::db::members::seat(tx, id, acc.id, power, now_ms())?;
                }
            }
        }
    }
    crate::db::store::GameStore::new(id, &l.variant().map).edit(tx, g.phase_index, &before, &state, lines, now_ms())?;
    game::event(tx, id, "edit", json!({"lines": lines}))?;
    Ok(())
}
