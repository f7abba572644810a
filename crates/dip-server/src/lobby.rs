//! Forming games: create, list, join, leave, start.

use crate::auth::Account;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::game::Lock;
use crate::game::{self, Assignment, Deadlines, GameRow, Options, Players, Press, Status};
use crate::time::now_ms;
use crate::variants;
use dip_play::Variants;
use serde::Deserialize;
use serde_json::{json, Value as Json};
use std::ops::RangeInclusive;

/// `POST /api/v1/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub name: String,
    #[serde(default = "standard")]
    pub variant: String,
    pub players: Option<Players>,
    #[serde(default)]
    pub deadlines: Deadlines,
    #[serde(default)]
    pub press: Press,
    #[serde(default)]
    pub anonymous: bool,
    #[serde(default)]
    pub daide: bool,
    #[serde(default)]
    pub assignment: Assignment,
    pub civil_disorder_after: Option<u32>,
    /// Seen only by members and the game master, joined by invitation or
    /// password (docs/api.md, "Private games").
    #[serde(default)]
    pub private: bool,
    /// A private game's password (kept only as its Argon2 hash).
    pub password: Option<String>,
    /// The password's hash, made by the route before the transaction.
    #[serde(skip)]
    pub password_hash: Option<String>,
    /// The ports this server gives games created with `"daide": true`
    /// (the application state's, set by the route; none: no such games).
    #[serde(skip)]
    pub daide_ports: Option<RangeInclusive<u16>>,
}

fn standard() -> String {
    "standard".into()
}

/// Checks a game's title.
pub fn check_name(name: &str) -> ApiResult<String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(ApiError::bad_request("name: between 1 and 100 characters"));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad_request("name: no control characters"));
    }
    Ok(name.to_string())
}

pub fn create(tx: &mut dyn Tx, variants: &Variants, creator: &Account, new: NewGame) -> ApiResult<i64> {
    let name = check_name(&new.name)?;
    let loaded = variants::get(variants, &new.variant).map_err(ApiError::bad_request)?;
    if new.private && new.daide {
        return Err(ApiError::bad_request(
            "private: a DAIDE game's port is open to whoever reaches it, so it cannot be private",
        ));
    }
    if new.password.is_some() && !new.private {
        return Err(ApiError::bad_request("password: only a private game has one"));
    }
    if new.daide {
        variants::daide_playable(loaded.variant()).map_err(|e| ApiError::bad_request(format!("daide: {e}")))?;
    }
    let n = loaded.variant().map.powers().len();
    let players = new.players.unwrap_or(Players { min: n, max: n });
    if players.min < 1 || players.min > players.max || players.max > n {
        return Err(ApiError::bad_request(format!(
            "players: need 1 <= min <= max <= {n} (the powers of {})",
            loaded.variant().name
        )));
    }
    new.deadlines.check()?;
    let civil_disorder_after = new.civil_disorder_after.unwrap_or(2);
    if !(1..=100).contains(&civil_disorder_after) {
        return Err(ApiError::bad_request("civil_disorder_after: between 1 and 100"));
    }
    let options = Options {
        players,
        deadlines: new.deadlines,
        press: new.press,
        anonymous: new.anonymous,
        daide: new.daide,
        assignment: new.assignment,
        civil_disorder_after,
        daide_port: if new.daide {
            Some(draw_port(tx, new.daide_ports.as_ref())?)
        } else {
            None
        },
        daide_rules: Default::default(),
    };
    let options = serde_json::to_string(&options).map_err(|e| ApiError::internal(e.to_string()))?;
    let id = crate::db::store::GameStore::create(
        tx,
        &loaded.variant().map,
        &crate::db::games::NewGame {
            name: &name,
            variant: &loaded.variant().name,
            creator: creator.id,
            options: &options,
            now: now_ms(),
        },
        &loaded.variant().start,
    )?;
    if new.private {
        crate::private::make_private(tx, id, new.password_hash)?;
    }
    game::event(tx, id, "created", json!({}))?;
    Ok(id)
}

/// A port for a new DAIDE game: the lowest of the server's range that no
/// game which is not finished holds.
fn draw_port(tx: &mut dyn Tx, ports: Option<&RangeInclusive<u16>>) -> ApiResult<u16> {
    let Some(range) = ports else {
        return Err(ApiError::bad_request(
            "daide: this server has no DAIDE ports (start it with --daide-ports)",
        ));
    };
    let mut taken = Vec::new();
    for (id, options) in crate::db::games::unfinished_options(tx)? {
        let o: Json = serde_json::from_str(&options)
            .map_err(|e| ApiError::internal(format!("game {id}: stored options: {e}")))?;
        if let Some(p) = o["daide_port"].as_u64() {
            taken.push(p as u16);
        }
    }
    range
        .clone()
        .find(|p| !taken.contains(p))
        .ok_or_else(|| ApiError::conflict("daide: every DAIDE port of this server is in use"))
}

/// Which games `GET /api/v1/games` lists, newest first.
#[derive(Clone, Debug)]
pub struct Filter {
    /// `forming`, `active` (with paused games) or `finished`; all when `None`.
    pub status: Option<String>,
    /// Only games the viewer plays in or created.
    pub mine: bool,
    /// At most this many (1..=[`MAX_LIST`]).
    pub limit: usize,
    /// Only games with a smaller id: the `next` of the page before.
    pub before: Option<i64>,
    /// Each game as `GET /api/v1/games/{id}` shows it instead of a summary.
    pub full: bool,
}

/// The most games one page lists, and how many by default.
pub const MAX_LIST: usize = 200;
pub const DEFAULT_LIST: usize = 50;

impl Default for Filter {
    fn default() -> Self {
        Filter {
            status: None,
            mine: false,
            limit: DEFAULT_LIST,
            before: None,
            full: false,
        }
    }
}

/// The web lobby's lists: full views (it shows who must still order).
pub fn list(
    tx: &mut dyn Tx,
    variants: &Variants,
    viewer: Option<&Account>,
    status: Option<&str>,
    mine: bool,
) -> ApiResult<Json> {
    let filter = Filter {
        status: status.map(String::from),
        mine,
        limit: MAX_LIST,
        full: true,
        ..Filter::default()
    };
    list_page(tx, variants, viewer, &filter)
}

/// `GET /api/v1/games?status=&mine=1&limit=&before=&full=1`: one page of
/// games, newest first, filtered in SQL (so that an old game still forming
/// is found however many came after it); `next` is the `before` of the
/// next page, `null` on the last.
pub fn list_page(tx: &mut dyn Tx, variants: &Variants, viewer: Option<&Account>, f: &Filter) -> ApiResult<Json> {
    let statuses: &[&str] = match f.status.as_deref() {
        None => &["forming", "active", "paused", "finished"],
        Some("forming") => &["forming"],
        Some("active") => &["active", "paused"],
        Some("finished") => &["finished"],
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "status: `{other}` is not one of forming, active, finished"
            )))
        }
    };
    if f.mine && viewer.is_none() {
        return Err(ApiError::unauthorized("mine=1 needs a signed-in player"));
    }
    if !(1..=MAX_LIST).contains(&f.limit) {
        return Err(ApiError::bad_request(format!("limit: between 1 and {MAX_LIST}")));
    }
    let viewer_id = viewer.map(|a| a.id).unwrap_or(0);
    let mut rows = crate::db::games::list(tx, viewer_id, statuses, f.before, f.mine, f.limit as i64 + 1)?;
    let more = rows.len() > f.limit;
    rows.truncate(f.limit);
    let mut out = Vec::with_capacity(rows.len());
    let mut last = None;
    for r in rows {
        let g = r.game;
        last = Some(g.id);
        if f.full {
            out.push(game::view(tx, variants, &g, viewer.map(|a| a.id))?);
        } else {
            let you = r.member.then(|| json!({ "power": r.power }));
            out.push(summary(variants, &g, r.joined, you, viewer_id)?);
        }
    }
    Ok(json!({ "games": out, "next": if more { last } else { None } }))
}

/// A game in a list: what a lobby shows, without its position and
/// players (one query for the whole page instead of three per game).
fn summary(variants: &Variants, g: &GameRow, joined: i64, you: Option<Json>, viewer: i64) -> ApiResult<Json> {
    let l = g.loaded(variants)?;
    // The phase alone: no need to read the rest of the position.
    let phase = g
        .position
        .phase(&l.variant().map)
        .map_err(|e| ApiError::internal(format!("game {}: {e}", g.id)))?;
    let now = now_ms();
    Ok(json!({
        "id": g.id,
        "name": g.name,
        "variant": g.variant,
        "variant_title": l.variant().title,
        "status": if g.status == Status::Paused { "active" } else { g.status.as_str() },
        "paused": g.status == Status::Paused,
        "phase": phase.short(),
        "phase_title": dip_game::gamefile::title_phase(&phase),
        "deadline": g.deadline.map(crate::time::iso8601),
        "seconds_left": g.deadline.map(|d| ((d - now).max(0) + 999) / 1000),
        "players": g.options.players,
        "joined": joined,
        "deadlines": g.options.deadlines,
        "press": g.options.press,
        "anonymous": g.options.anonymous,
        "assignment": g.options.assignment,
        "game_master": viewer != 0 && viewer == g.creator,
        "you": you,
        "winner": g.winner,
        "result": g.result,
    }))
}

/// `POST …/join {"power"?}`: a seat in a forming game, or an open seat
/// (a power in civil disorder) in a running one.
pub fn join(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account, power: Option<&str>) -> ApiResult<Json> {
    let g = game::load(tx, id, Lock::Update)?;
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let members = game::members(tx, id)?;
    if members.iter().any(|m| m.account_id == who.id) {
        return Err(ApiError::conflict("you are already in this game"));
    }
    let wanted = match power {
        Some(p) => Some(map.find_power(p).map(|p| map.power(p).name.clone()).ok_or_else(|| {
            ApiError::bad_request(format!(
                "power: `{p}` is none of {}",
                map.powers()
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?),
        None => None,
    };
    let taken = |name: &str| {
        members
            .iter()
            .any(|m| m.power.as_deref() == Some(name) || m.wanted.as_deref() == Some(name))
    };
    match g.status {
        Status::Forming => {
            if members.len() >= g.options.players.max {
                return Err(ApiError::conflict("the game is full"));
            }
            if wanted.is_some() && g.options.assignment == Assignment::Random {
                return Err(ApiError::bad_request(
                    "power: this game assigns powers at random at the start",
                ));
            }
            if let Some(w) = &wanted {
                if taken(w) {
                    return Err(ApiError::conflict(format!("{w} is taken")));
                }
            }
            crate::db::members::join(tx, id, who.id, wanted.as_deref(), now_ms())?;
            game::event(tx, id, "joined", json!({}))?;
            if members.len() + 1 == g.options.players.max {
                start_now(tx, variants, &g)?;
            }
        }
        Status::Active | Status::Paused => {
            // A replacement player takes a power whose seat is open.
            let state = g.state(variants)?;
            let open: Vec<String> = map
                .power_ids()
                .filter(|&p| game::survives(map, &state, p))
                .map(|p| map.power(p).name.clone())
                .filter(|n| !taken(n))
                .collect();
            let seat = match wanted {
                Some(w) if open.contains(&w) => w,
                Some(w) => return Err(ApiError::conflict(format!("{w} has a player or is out of the game"))),
                None => open
                    .first()
                    .cloned()
                    .ok_or_else(|| ApiError::conflict("no open seat in this game"))?,
            };
            crate::db::members::join_as(tx, id, who.id, &seat, now_ms())?;
            game::event(tx, id, "joined", json!({"power": seat}))?;
        }
        Status::Finished => return Err(ApiError::conflict("the game is over")),
    }
    let g = game::load(tx, id, Lock::None)?;
    game::view(tx, variants, &g, Some(who.id))
}

/// `POST …/leave`: out of a forming game; in a running one, the power's
/// seat opens for a replacement (and a retreat or adjustment phase that
/// waited only for this player is processed: [`crate::play::process_unattended`]).
pub fn leave(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account, by: &str) -> ApiResult<()> {
    let g = game::load(tx, id, Lock::Update)?;
    if g.status == Status::Finished {
        return Err(ApiError::conflict("the game is over"));
    }
    if !crate::db::members::leave(tx, id, who.id)? {
        return Err(ApiError::conflict("you are not in this game"));
    }
    game::event(tx, id, "left", json!({}))?;
    crate::play::process_unattended(tx, variants, &g, by)?;
    Ok(())
}

/// `POST …/start`: the creator starts a forming game once `min` joined.
pub fn start(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account) -> ApiResult<()> {
    let g = game::load(tx, id, Lock::Update)?;
    if g.creator != who.id {
        return Err(ApiError::forbidden("only the game's creator starts it"));
    }
    if g.status != Status::Forming {
        return Err(ApiError::conflict("the game has started already"));
    }
    let n = game::members(tx, id)?.len();
    if n < g.options.players.min {
        return Err(ApiError::conflict(format!(
            "{n} of at least {} players have joined",
            g.options.players.min
        )));
    }
    start_now(tx, variants, &g)
}

/// Powers are handed out (wishes first, the rest at random), the first
/// deadline is set.
fn start_now(tx: &mut dyn Tx, variants: &Variants, g: &GameRow) -> ApiResult<()> {
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let members = game::members(tx, g.id)?;
    let mut free: Vec<String> = map
        .powers()
        .iter()
        .map(|p| p.name.clone())
        .filter(|n| !members.iter().any(|m| m.wanted.as_deref() == Some(n.as_str())))
        .collect();
    let mut rng = fastrand::Rng::with_seed(now_ms() as u64 ^ (g.id as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    rng.shuffle(&mut free);
    for m in &members {
        let power = match &m.wanted {
            Some(w) => w.clone(),
            None => free
                .pop()
                .ok_or_else(|| ApiError::internal("more players than powers"))?,
        };
        crate::db::members::set_power(tx, g.id, m.account_id, &power)?;
    }
    let state = g.state(variants)?;
    let deadline = g.options.deadlines.for_kind(state.phase.kind).map(|d| now_ms() + d);
    crate::db::games::start(tx, g.id, deadline)?;
    game::event(tx, g.id, "started", json!({"phase": state.phase.short()}))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The lobby draws a DAIDE game's port from `AppState::daide_ports`
    /// and stores it; the server's DAIDE side starts listening when it
    /// sees the game. No path of this file leads into the DAIDE adapter.
    #[test]
    fn the_lobby_does_not_call_the_daide_adapter() {
        let adapter = concat!("daide", "::");
        let calls: Vec<&str> = include_str!("lobby.rs")
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .filter(|l| l.contains(adapter))
            .collect();
        assert!(calls.is_empty(), "the lobby calls the DAIDE adapter: {calls:#?}");
    }
}
