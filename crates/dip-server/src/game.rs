//! A hosted game as stored: its row, options and members, the position it
//! is in, and the JSON views of it that players and observers get.

use crate::db::store::Position;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::time::{iso8601, now_ms, parse_duration};
use crate::variants;
use dip_core::{adjustment, Map, PhaseKind, PowerId, State};
use dip_play::{Loaded, Variants};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};
use std::sync::Arc;

/// Who may post press.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Press {
    /// Private messages to any powers, and public ones.
    #[default]
    Full,
    /// Only messages to all.
    Public,
    /// No messages (gunboat).
    None,
}

/// How powers are given to players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Assignment {
    /// Players name the power they want when they join; the others get
    /// the rest at random at the start.
    #[default]
    Choice,
    /// Every power is drawn at random at the start.
    Random,
}

/// Deadlines per phase kind (`None`: the game master processes by hand).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deadlines {
    pub movement: Option<String>,
    pub retreat: Option<String>,
    pub adjustment: Option<String>,
}

impl Deadlines {
    pub fn check(&self) -> ApiResult<()> {
        for (kind, d) in [
            ("movement", &self.movement),
            ("retreat", &self.retreat),
            ("adjustment", &self.adjustment),
        ] {
            if let Some(d) = d {
                parse_duration(d).map_err(|e| ApiError::bad_request(format!("deadlines.{kind}: {e}")))?;
            }
        }
        Ok(())
    }
    /// The time allowed for a phase of this kind, in milliseconds.
    pub fn for_kind(&self, kind: PhaseKind) -> Option<i64> {
        let d = match kind {
            PhaseKind::Movement => &self.movement,
            PhaseKind::Retreat => &self.retreat,
            PhaseKind::Adjustment => &self.adjustment,
        };
        d.as_deref().and_then(|d| parse_duration(d).ok())
    }
}

/// Seat limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Players {
    pub min: usize,
    pub max: usize,
}

/// A game's options, stored as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    pub players: Players,
    pub deadlines: Deadlines,
    pub press: Press,
    pub anonymous: bool,
    pub daide: bool,
    pub assignment: Assignment,
    /// Missed phases in a row after which a power goes into civil
    /// disorder and its seat opens.
    pub civil_disorder_after: u32,
    /// The TCP port of a DAIDE game (`daide: true`), given at creation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daide_port: Option<u16>,
    /// DAIDE's variant options that change how the game is run (sent in
    /// HLO); bots-only games (`dip daide`) set them.
    #[serde(default, skip_serializing_if = "DaideRules::is_default")]
    pub daide_rules: DaideRules,
}

/// DAIDE variant options a game may have (docs/daide.md). LVL, MTL, RTL
/// and BTL come from the press and the deadlines; PDA is never offered
/// (dip's draws are of all survivors).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DaideRules {
    /// Zero-second deadlines (`dip daide --deadline 0`): no deadline, and
    /// a phase is processed as soon as every power that must order and
    /// can still send orders (a member whose DAIDE bot is connected) is
    /// ready, at once when there is none.
    pub zero_deadline: bool,
    /// AOA: every order that reads as an order is accepted (THX MBV) and
    /// stored; one that is not legal is treated as a hold.
    pub any_orders_accepted: bool,
    /// DSD: when a bot whose orders are due disconnects, the deadline
    /// stops until it comes back (IAM).
    pub deadline_stops_on_disconnection: bool,
    /// NPR: no press in retreat phases.
    pub no_press_in_retreats: bool,
    /// NPB: no press in adjustment (build) phases.
    pub no_press_in_builds: bool,
    /// PTL: no press in the last this many seconds before a movement
    /// deadline.
    pub press_time_limit: Option<u32>,
}

impl DaideRules {
    pub fn is_default(&self) -> bool {
        *self == DaideRules::default()
    }
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Forming,
    Active,
    Paused,
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Forming => "forming",
            Status::Active => "active",
            Status::Paused => "paused",
            Status::Finished => "finished",
        }
    }
    pub fn parse(s: &str) -> Status {
        match s {
            "forming" => Status::Forming,
            "active" => Status::Active,
            "paused" => Status::Paused,
            _ => Status::Finished,
        }
    }
}

/// A game's row.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: i64,
    pub name: String,
    pub variant: String,
    pub creator: i64,
    pub status: Status,
    pub options: Options,
    pub phase_index: i64,
    /// The position it is in, as stored (read with [`GameRow::state`]).
    pub position: Position,
    pub deadline: Option<i64>,
    pub paused_left: Option<i64>,
    pub winner: Option<String>,
    pub result: Option<String>,
    pub failures: i64,
    pub last_error: Option<String>,
}

impl GameRow {
    /// The game's variant, from the server's `variants`.
    pub fn loaded(&self, variants: &Variants) -> ApiResult<Arc<Loaded>> {
        variants::get(variants, &self.variant).map_err(ApiError::internal)
    }

    /// The position the game is in.
    pub fn state(&self, variants: &Variants) -> ApiResult<State> {
        let l = self.loaded(variants)?;
        self.position
            .read(&l.variant().map)
            .map_err(|e| ApiError::internal(format!("game {}: {e}", self.id)))
    }
}

/// How a game's row is held until the transaction ends (PostgreSQL;
/// SQLite's writer holds the whole database anyway). There is no shared
/// hold: a transaction that writes an event holds the row for update
/// ([`event`]), and two that shared it first would deadlock there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lock {
    None,
    /// Only this transaction changes it (processing, orders, joining, votes).
    Update,
}

/// Loads a game.
pub fn load(tx: &mut dyn Tx, id: i64, lock: Lock) -> ApiResult<GameRow> {
    crate::db::games::load(tx, id, lock == Lock::Update)?.ok_or_else(|| ApiError::not_found(format!("no game {id}")))
}

pub use crate::db::members::Member;

pub fn members(tx: &mut dyn Tx, game: i64) -> ApiResult<Vec<Member>> {
    Ok(crate::db::members::all(tx, game)?)
}

/// The powers whose orders were stored for the phase (non-empty).
pub fn submitted(tx: &mut dyn Tx, game: i64, phase_index: i64) -> ApiResult<Vec<String>> {
    Ok(crate::db::orders::submitted(tx, game, phase_index)?)
}

/// Must this power give orders in this phase?
pub fn must_order(map: &Map, state: &State, p: PowerId) -> bool {
    match state.phase.kind {
        PhaseKind::Movement => state.units().any(|(_, u)| u.power == p),
        PhaseKind::Retreat => state.all_dislodged().any(|(_, d)| d.unit.power == p),
        PhaseKind::Adjustment => {
            let b = adjustment::balance(map, state, p);
            b < 0
                || (b > 0
                    && map
                        .supply_centers()
                        .iter()
                        .any(|&c| adjustment::can_build_in(map, state, p, c)))
        }
    }
}

/// Is the power still in the game (units or centres)?
pub fn survives(map: &Map, state: &State, p: PowerId) -> bool {
    state.units().any(|(_, u)| u.power == p) || state.center_count(map, p) > 0
}

/// `F stp/sc`: dip's short unit notation.
pub fn unit_text(map: &Map, u: &dip_core::Unit) -> String {
    format!("{} {}", map.unit_type(u.kind).letter, map.region_name(u.region))
}

/// The position by power, as the API shows it.
pub fn powers_json(map: &Map, state: &State) -> Vec<Json> {
    map.power_ids()
        .map(|p| {
            let units: Vec<String> = state
                .units()
                .filter(|(_, u)| u.power == p)
                .map(|(_, u)| unit_text(map, &u))
                .collect();
            let dislodged: Vec<String> = state
                .all_dislodged()
                .filter(|(_, d)| d.unit.power == p)
                .map(|(_, d)| unit_text(map, &d.unit))
                .collect();
            let centres: Vec<String> = state.centers_of(map, p).map(|c| map.province(c).abbr.clone()).collect();
            json!({"name": map.power(p).name, "units": units, "dislodged": dislodged, "centres": centres})
        })
        .collect()
}

/// A game as `viewer` may see it: player names hidden in anonymous games
/// until the end (but one's own), orders never.
pub fn view(tx: &mut dyn Tx, variants: &Variants, g: &GameRow, viewer: Option<i64>) -> ApiResult<Json> {
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let state = g.state(variants)?;
    let members = members(tx, g.id)?;
    let submitted = submitted(tx, g.id, g.phase_index)?;
    let hide = g.options.anonymous && g.status != Status::Finished;
    let mine = viewer.and_then(|v| members.iter().find(|m| m.account_id == v));
    let mut powers = powers_json(map, &state);
    for (p, pj) in map.power_ids().zip(powers.iter_mut()) {
        let name = &map.power(p).name;
        let m = members.iter().find(|m| m.power.as_deref() == Some(name.as_str()));
        let player = m.map(|m| {
            if hide && Some(m.account_id) != viewer {
                Json::String("(hidden)".into())
            } else {
                Json::String(m.name.clone())
            }
        });
        pj["player"] = player.unwrap_or(Json::Null);
        pj["ready"] = Json::Bool(m.is_some_and(|m| m.ready));
        pj["orders_submitted"] = Json::Bool(submitted.contains(name));
        pj["must_order"] = Json::Bool(g.status == Status::Active && must_order(map, &state, p));
        pj["missed"] = json!(m.map(|m| m.missed).unwrap_or(0));
        pj["centre_count"] = json!(state.center_count(map, p));
    }
    let now = now_ms();
    let waiting: Vec<Json> = members
        .iter()
        .filter(|m| m.power.is_none())
        .map(|m| {
            let name = if hide && Some(m.account_id) != viewer {
                "(hidden)".to_string()
            } else {
                m.name.clone()
            };
            json!({"player": name, "wanted": m.wanted})
        })
        .collect();
    let access = crate::private::access(tx, g.id, viewer)?.unwrap_or_default();
    Ok(json!({
        "id": g.id,
        "name": g.name,
        "private": access.private,
        // The invitation link's token, for the game master to hand out.
        "invite": if viewer == Some(g.creator) { access.invite } else { None },
        "password": access.password_hash.is_some(),
        "variant": g.variant,
        "variant_title": l.variant().title,
        "status": if g.status == Status::Paused { "active" } else { g.status.as_str() },
        "paused": g.status == Status::Paused,
        "phase": state.phase.short(),
        "phase_title": dip_game::gamefile::title_phase(&state.phase),
        "phase_kind": match state.phase.kind { PhaseKind::Movement => "movement", PhaseKind::Retreat => "retreat", PhaseKind::Adjustment => "adjustment" },
        "deadline": g.deadline.map(iso8601),
        "seconds_left": g.deadline.map(|d| ((d - now).max(0) + 999) / 1000),
        "players": g.options.players,
        "joined": members.len(),
        "deadlines": g.options.deadlines,
        "press": g.options.press,
        "anonymous": g.options.anonymous,
        "daide": g.options.daide,
        "daide_port": g.options.daide_port,
        "assignment": g.options.assignment,
        "civil_disorder_after": g.options.civil_disorder_after,
        "game_master": viewer == Some(g.creator),
        "you": mine.map(|m| json!({"player": m.name, "power": m.power, "ready": m.ready, "draw": m.draw, "concede": m.concede})),
        "powers": powers,
        "waiting": waiting,
        "winner": g.winner,
        "result": g.result,
        "error": if viewer == Some(g.creator) { g.last_error.clone() } else { None },
    }))
}

/// The power of `account` in the game, if any.
pub fn power_of(map: &Map, members: &[Member], account: i64) -> Option<PowerId> {
    members
        .iter()
        .find(|m| m.account_id == account)
        .and_then(|m| m.power.as_deref())
        .and_then(|p| map.find_power(p))
}

/// An event for the live streams (stored in the order of its id, which
/// [`crate::db::events::insert`] keeps per game), handed to this
/// process's streams once the transaction commits.
pub fn event(tx: &mut dyn Tx, game: i64, kind: &str, data: Json) -> ApiResult<()> {
    crate::db::events::insert(tx, game, kind, data.to_string(), now_ms())?;
    Ok(())
}
