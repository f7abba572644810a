//! A running game: orders, ready flags, votes, and processing a phase
//! (by the game master, when all are ready, or at the deadline).
//!
//! Exactly once: processing holds the game's row (`FOR UPDATE`, or SQLite's
//! single writer) and moves `phase_index` on in the same transaction that
//! stores the results; orders are stored under the game's row held too,
//! for the phase they name. So an order is either in the phase that is
//! processed or refused as late, never lost in between.

use crate::auth::Account;
use crate::db::store::{GameStore, NewPhase};
use crate::db::{Db, Tx};
use crate::error::{ApiError, ApiResult};
use crate::game::Lock;
use crate::game::{self, GameRow, Member, Status};
use crate::time::now_ms;
use dip_core::{Map, PowerId, State};
use dip_game::phase::{automatic_text, read_power_lines, report_of, ReportHeader};
use dip_game::plain::{plain, PlainStyle};
use dip_play::{Game, Loaded, Variants};
use dip_text::{check_turn, CheckOptions, Code, Fate};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Limits of one submission.
pub const MAX_LINES: usize = 500;
pub const MAX_LINE_CHARS: usize = 400;

fn my_power(tx: &mut dyn Tx, variants: &Variants, g: &GameRow, who: &Account) -> ApiResult<(PowerId, Vec<Member>)> {
    let members = game::members(tx, g.id)?;
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let p =
        game::power_of(map, &members, who.id).ok_or_else(|| ApiError::forbidden("you have no power in this game"))?;
    Ok((p, members))
}

fn running(g: &GameRow) -> ApiResult<()> {
    match g.status {
        Status::Active | Status::Paused => Ok(()),
        Status::Forming => Err(ApiError::conflict("the game has not started")),
        Status::Finished => Err(ApiError::conflict("the game is over")),
    }
}

/// Each line as the order reader read it, for the player's power: one
/// entry per line, in order, so that `lines[i]` answers `orders[i]`.
/// Every entry has a `fate`: `accepted`, `changed`, `deleted`, or
/// `comment` for a blank or comment-only line, which gives no order.
/// Lines hold no line breaks ([`check_lines`]), so the reader's line
/// numbers are the positions in the list.
pub fn read_lines(map: &Map, l: &dip_play::Loaded, state: &State, power: PowerId, lines: &[String]) -> Vec<Json> {
    let text = lines.join("\n");
    let (keep, refused) = read_power_lines(l.vocabulary(), power, &text);
    let rules = l.variant().rules;
    let check = check_turn(l.vocabulary(), state, &rules, &CheckOptions::default(), &keep);
    let mut out = Vec::new();
    for (i, raw) in lines.iter().enumerate() {
        let n = i + 1;
        let text = raw.trim();
        if text.split('#').next().unwrap_or("").trim().is_empty() {
            out.push(json!({"text": text, "order": null, "fate": "comment", "error": null}));
            continue;
        }
        if refused.iter().any(|(line, _)| *line == n) {
            out.push(json!({
                "text": text, "order": null, "fate": "deleted",
                "error": {"number": 400, "message": format!("the order is for another nation: you order for {}", map.power(power).name)},
            }));
            continue;
        }
        let Some(r) = check.lines.iter().find(|r| r.line == n && r.fate != Fate::Inserted) else {
            out.push(json!({"text": text, "order": null, "fate": "deleted", "error": {"number": Code::OrderExpected.number(), "message": "no order could be read from this line"}}));
            continue;
        };
        let order = r.order.map(|o| dip_game::gamedir::short(map, &o));
        let draw = r.order.map(|o| crate::drawn::order(map, state, &o));
        let worst = r.notes.iter().max_by_key(|n| n.code.number());
        let error = match (r.fate, worst) {
            (Fate::Accepted, _) | (_, None) => Json::Null,
            (_, Some(note)) => json!({"number": note.code.number(), "message": note.message}),
        };
        out.push(json!({"text": text, "order": order, "draw": draw, "fate": format!("{:?}", r.fate).to_lowercase(), "error": error}));
    }
    out
}

/// A submission's limits, and no line breaks or other control characters
/// inside a line: the lines are read as one text, and a line break would
/// shift every answer after it (and PostgreSQL stores no NUL).
pub fn check_lines(lines: &[String]) -> ApiResult<()> {
    if lines.len() > MAX_LINES {
        return Err(ApiError::bad_request(format!("orders: at most {MAX_LINES} lines")));
    }
    let shown = |l: &str| {
        l.chars()
            .take(40)
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect::<String>()
    };
    for (i, l) in lines.iter().enumerate() {
        if l.chars().count() > MAX_LINE_CHARS {
            return Err(ApiError::bad_request(format!(
                "orders[{i}]: longer than {MAX_LINE_CHARS} characters: `{}…`",
                shown(l)
            )));
        }
        if l.chars().any(|c| c.is_control() && c != '\t') {
            return Err(ApiError::bad_request(format!(
                "orders[{i}]: a line break or control character inside `{}`: send each order as an element of its own",
                shown(l)
            )));
        }
    }
    Ok(())
}

/// A phase a request names (`S1901M`) against the phase the game is in:
/// 400 when it is no phase name, 409 when the game is elsewhere.
pub fn check_phase(named: Option<&str>, state: &State) -> ApiResult<()> {
    let Some(p) = named else { return Ok(()) };
    let current = state.phase.short();
    let Some(phase) = dip_game::replay::parse_phase_name(&p.trim().to_ascii_uppercase()) else {
        return Err(ApiError::bad_request(format!(
            "phase: `{p}` is no phase name (like S1901M, F1901R, W1901A); the game is in {current}"
        )));
    };
    if phase.short() == current {
        Ok(())
    } else if phase < state.phase {
        Err(ApiError::conflict(format!(
            "phase {p} is over: the game is in {current}"
        )))
    } else {
        Err(ApiError::conflict(format!(
            "phase {p} has not begun: the game is in {current}"
        )))
    }
}

/// Orders read and checked, ready to be stored for one phase.
pub struct Checked {
    pub phase_index: i64,
    pub loaded: std::sync::Arc<dip_play::Loaded>,
    pub power: PowerId,
    pub lines: Vec<String>,
    pub answer: Json,
}

/// `PUT …/orders`, first half: reads and checks the lines against the
/// phase the game is in (or refuses the phase named when it is over).
/// Needs only a reading transaction, so the checking runs beside other
/// writers.
pub fn check_orders(
    tx: &mut dyn Tx,
    variants: &Variants,
    id: i64,
    who: &Account,
    lines: &[String],
    phase: Option<&str>,
) -> ApiResult<Checked> {
    check_lines(lines)?;
    let g = game::load(tx, id, Lock::None)?;
    running(&g)?;
    let (power, _) = my_power(tx, variants, &g, who)?;
    let state = g.state(variants)?;
    check_phase(phase, &state)?;
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let read = read_lines(map, &l, &state, power, lines);
    let answer = json!({"phase": state.phase.short(), "power": map.power(power).name, "lines": read});
    Ok(Checked {
        phase_index: g.phase_index,
        loaded: l.clone(),
        power,
        lines: lines.to_vec(),
        answer,
    })
}

/// `PUT …/orders`, second half: stores checked orders, if the game is
/// still in the phase they were checked for (the game's row held so that
/// processing cannot slip in between). Once this commits, the orders are
/// part of the phase. The row is held `FOR UPDATE`, not `FOR SHARE`: the
/// `orders` event takes it for update anyway ([`game::event`]), and two
/// transactions that share a row and then both ask for it deadlock.
pub fn store_orders(tx: &mut dyn Tx, id: i64, c: &Checked) -> ApiResult<()> {
    let g = game::load(tx, id, Lock::Update)?;
    running(&g)?;
    if g.phase_index != c.phase_index {
        return Err(ApiError::conflict(
            "the phase was processed while the orders were read: send them again for the new phase",
        ));
    }
    let map = c.loaded.map();
    GameStore::new(id, map).store_orders(tx, c.phase_index, c.power, &c.lines, now_ms())?;
    game::event(tx, id, "orders", json!({"power": map.power(c.power).name}))?;
    Ok(())
}

/// `PUT …/orders` in one transaction: check, then store.
pub fn put_orders(
    tx: &mut dyn Tx,
    variants: &Variants,
    id: i64,
    who: &Account,
    lines: &[String],
    phase: Option<&str>,
) -> ApiResult<Json> {
    let c = check_orders(tx, variants, id, who, lines, phase)?;
    store_orders(tx, id, &c)?;
    Ok(c.answer)
}

/// `GET …/orders`: the caller's own orders for the current phase.
pub fn get_orders(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account) -> ApiResult<Json> {
    let g = game::load(tx, id, Lock::None)?;
    running(&g)?;
    let (power, _) = my_power(tx, variants, &g, who)?;
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let state = g.state(variants)?;
    let lines = GameStore::new(id, map)
        .orders_of(tx, g.phase_index, power)?
        .unwrap_or_default();
    let read = read_lines(map, &l, &state, power, &lines);
    Ok(json!({"phase": state.phase.short(), "power": map.power(power).name, "orders": lines, "lines": read}))
}

/// Sets one of the player's flags (`ready`, `draw`, `concede`), for the
/// phase named if one is.
fn set_flag(
    tx: &mut dyn Tx,
    variants: &Variants,
    id: i64,
    who: &Account,
    flag: &str,
    on: bool,
    phase: Option<&str>,
) -> ApiResult<GameRow> {
    let g = game::load(tx, id, Lock::Update)?;
    running(&g)?;
    let (power, _) = my_power(tx, variants, &g, who)?;
    check_phase(phase, &g.state(variants)?)?;
    let column = match flag {
        "ready" => crate::db::members::Flag::Ready,
        "draw" => crate::db::members::Flag::Draw,
        "concede" => crate::db::members::Flag::Concede,
        other => return Err(ApiError::internal(format!("no flag `{other}`"))),
    };
    crate::db::members::set_flag(tx, id, who.id, column, on)?;
    // Who is ready is public (the game's view shows it); draw and concede
    // votes are secret until they pass, so their events name nobody.
    let data = if flag == "ready" {
        json!({"on": on, "power": g.loaded(variants)?.variant().map.power(power).name})
    } else {
        json!({"on": on})
    };
    game::event(tx, id, flag, data)?;
    Ok(g)
}

/// `POST …/ready`: when every power that must order is ready, the phase
/// is processed at once.
pub fn ready(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account, on: bool, by: &str) -> ApiResult<bool> {
    ready_in(tx, variants, id, who, on, None, by)
}

/// `POST …/ready {"ready", "phase"}`: as [`ready`], refused (409) when the
/// game has left the phase named, so that a late "ready" does not carry
/// into the next phase.
pub fn ready_in(
    tx: &mut dyn Tx,
    variants: &Variants,
    id: i64,
    who: &Account,
    on: bool,
    phase: Option<&str>,
    by: &str,
) -> ApiResult<bool> {
    let g = set_flag(tx, variants, id, who, "ready", on, phase)?;
    if g.status != Status::Active {
        return Ok(false);
    }
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let state = g.state(variants)?;
    let members = game::members(tx, id)?;
    let must: Vec<PowerId> = map
        .power_ids()
        .filter(|&p| game::must_order(map, &state, p))
        .filter(|&p| {
            members
                .iter()
                .any(|m| m.power.as_deref() == Some(map.power(p).name.as_str()))
        })
        .collect();
    let all = !must.is_empty()
        && must.iter().all(|&p| {
            members
                .iter()
                .any(|m| m.power.as_deref() == Some(map.power(p).name.as_str()) && m.ready)
        });
    if all {
        process_locked(tx, variants, &g, by)?;
    }
    Ok(all)
}

/// `POST …/draw {"vote"}`: a draw of all survivors passes when every
/// surviving power's player voted for it.
pub fn draw(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account, on: bool) -> ApiResult<bool> {
    let g = set_flag(tx, variants, id, who, "draw", on, None)?;
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let state = g.state(variants)?;
    let members = game::members(tx, id)?;
    let survivors: Vec<PowerId> = map.power_ids().filter(|&p| game::survives(map, &state, p)).collect();
    let played = players_of(&members, map, |p| survivors.contains(&p));
    if !played.is_empty() && played.iter().all(|m| m.draw) {
        let names: Vec<&str> = survivors.iter().map(|&p| map.power(p).name.as_str()).collect();
        finish(tx, &g, None, &format!("draw: {}", names.join(", ")))?;
        return Ok(true);
    }
    Ok(false)
}

/// `POST …/concede {"vote"}`: when every surviving player but the leader
/// (most centres) concedes, the leader wins.
pub fn concede(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account, on: bool) -> ApiResult<bool> {
    let g = set_flag(tx, variants, id, who, "concede", on, None)?;
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let state = g.state(variants)?;
    let members = game::members(tx, id)?;
    let Some(leader) = map
        .power_ids()
        .filter(|&p| game::survives(map, &state, p))
        .max_by_key(|&p| (state.center_count(map, p), std::cmp::Reverse(p.index())))
    else {
        return Ok(false);
    };
    let others = players_of(&members, map, |p| p != leader && game::survives(map, &state, p));
    if !others.is_empty() && others.iter().all(|m| m.concede) {
        let name = map.power(leader).name.clone();
        finish(tx, &g, Some(&name), &format!("conceded to {name}"))?;
        return Ok(true);
    }
    Ok(false)
}

/// The members who play a power that `keep` keeps.
fn players_of<'m>(members: &'m [Member], map: &Map, keep: impl Fn(PowerId) -> bool) -> Vec<&'m Member> {
    members
        .iter()
        .filter(|m| m.power.as_deref().and_then(|p| map.find_power(p)).is_some_and(&keep))
        .collect()
}

fn finish(tx: &mut dyn Tx, g: &GameRow, winner: Option<&str>, result: &str) -> ApiResult<()> {
    crate::db::games::finish(tx, g.id, winner, result, now_ms())?;
    game::event(tx, g.id, "finished", json!({"winner": winner, "result": result}))
}

/// `POST …/process`: the game master processes the phase now.
pub fn process_now(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account, by: &str) -> ApiResult<()> {
    let g = game::load(tx, id, Lock::Update)?;
    if g.creator != who.id {
        return Err(ApiError::forbidden("only the game master processes a phase by hand"));
    }
    running(&g)?;
    process_locked(tx, variants, &g, by)
}

/// Processes the phase of a game whose row this transaction holds.
pub fn process_locked(tx: &mut dyn Tx, variants: &Variants, g: &GameRow, by: &str) -> ApiResult<()> {
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let state = g.state(variants)?;
    let members = game::members(tx, g.id)?;
    let store = GameStore::new(g.id, map);
    let orders = store.orders(tx, g.phase_index)?;
    let played = play_stored(&l, &state, &orders);
    let stored: BTreeMap<String, Vec<String>> = orders
        .into_iter()
        .map(|(p, lines)| (map.power(p).name.clone(), lines))
        .collect();
    let hide = g.options.anonymous;
    let header = ReportHeader {
        game: g.name.clone(),
        variant: l.variant().title.clone(),
        players: if hide {
            Vec::new()
        } else {
            members
                .iter()
                .filter_map(|m| m.power.clone().map(|p| (p, m.name.clone())))
                .collect()
        },
    };
    let shown = report_of(map, &played, &header);
    let report = plain(&shown, &PlainStyle::default()) + &automatic_text(&shown);
    let results: Vec<&dip_game::report::Line> = shown.tables().flat_map(|(_, t)| t.iter()).collect();
    let now = now_ms();
    let results = serde_json::to_value(&results).map_err(|e| ApiError::internal(e.to_string()))?;
    store.record_phase(
        tx,
        &NewPhase {
            index: g.phase_index,
            position: &g.position,
            state: &state,
            orders: &stored,
            results: &results,
            report: &report,
            processed: now,
            processed_by: by,
        },
    )?;
    // No orders received: count it; after too many, the seat opens. One
    // statement for all members (round trips count on PostgreSQL).
    let mut gave = Vec::new();
    let mut missed = Vec::new();
    for p in map.power_ids().filter(|&p| game::must_order(map, &state, p)) {
        let name = map.power(p).name.clone();
        let given = stored.get(&name).is_some_and(|a| !a.is_empty());
        if given {
            gave.push(name);
        } else {
            missed.push(name);
        }
    }
    crate::db::members::phase_done(tx, g.id, &missed, &gave)?;
    for power in crate::db::members::drop_absent(tx, g.id, i64::from(g.options.civil_disorder_after))? {
        game::event(tx, g.id, "civil_disorder", json!({"power": power}))?;
    }
    let next = played.next;
    let deadline = g.options.deadlines.for_kind(next.phase.kind).map(|d| now + d);
    let deadline = if g.status == Status::Paused { None } else { deadline };
    store.advance(tx, g.phase_index + 1, &next, deadline)?;
    game::event(
        tx,
        g.id,
        "phase",
        json!({"processed": state.phase.short(), "phase": next.phase.short()}),
    )?;
    if let Some(w) = played.winner {
        let name = map.power(w).name.clone();
        finish(tx, g, Some(&name), &format!("{name} wins"))?;
        return Ok(());
    }
    let g = game::load(tx, g.id, Lock::Update)?;
    process_unattended(tx, variants, &g, by)?;
    Ok(())
}

/// A phase played by dip-play's `Game`, built from what the store holds:
/// the position and each power's order lines, submitted as that power's
/// (lines naming another nation refused), read in power order.
pub fn play_stored(l: &Arc<Loaded>, state: &State, orders: &[(PowerId, Vec<String>)]) -> dip_play::Played {
    let mut game = Game::from_state(Arc::clone(l), state.clone());
    for (power, lines) in orders {
        game.submit(*power, &lines.join("\n"));
    }
    game.process().clone()
}

/// Processes a retreat or adjustment phase in which no power that has a
/// player must order (only powers in civil disorder retreat, build or
/// disband, or nobody does): nothing is to come, so the phase is not left
/// waiting for its deadline or the game master, as when all are ready.
/// A movement phase waits all the same: otherwise a game whose players
/// have no units left would play itself to its end at once. So at most
/// two phases follow each other here (a fall retreat, then the
/// adjustment). Returns whether it processed.
pub fn process_unattended(tx: &mut dyn Tx, variants: &Variants, g: &GameRow, by: &str) -> ApiResult<bool> {
    if g.status != Status::Active {
        return Ok(false);
    }
    let state = g.state(variants)?;
    if state.phase.kind == dip_core::PhaseKind::Movement {
        return Ok(false);
    }
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let members = game::members(tx, g.id)?;
    let awaited = map.power_ids().any(|p| {
        game::must_order(map, &state, p)
            && members
                .iter()
                .any(|m| m.power.as_deref() == Some(map.power(p).name.as_str()))
    });
    if awaited {
        return Ok(false);
    }
    process_locked(tx, variants, g, by)?;
    Ok(true)
}

/// What processing phases needs of the server: its database, its
/// variants and the name its processed phases are signed with.
#[derive(Clone, Copy)]
pub struct Processing<'a> {
    pub db: &'a Db,
    pub variants: &'a Variants,
    pub by: &'a str,
}

/// Processes every game whose deadline has passed, one transaction each.
/// Returns how many phases were processed. A phase whose processing
/// fails is retried later; after three failures the game is paused and
/// the error shown to its game master.
pub fn process_due(p: Processing) -> usize {
    let Processing { db, variants, by } = p;
    let mut done = 0;
    let mut skip: Vec<i64> = Vec::new();
    loop {
        let now = now_ms();
        // An error rolls the whole phase back; it names the game so that
        // the failure can be counted in a transaction of its own.
        let attempt = db.transaction(|tx| -> Result<bool, DueError> {
            let Some(g) = crate::db::games::next_due(tx, now, &skip)? else {
                return Ok(false);
            };
            process_locked(tx, variants, &g, by).map_err(|e| DueError(Some(g.id), e))?;
            Ok(true)
        });
        match attempt {
            Ok(false) => break,
            Ok(true) => done += 1,
            Err(DueError(Some(id), e)) => {
                record_failure(db, id, &e.message);
                skip.push(id);
            }
            Err(DueError(None, e)) => {
                tracing::error!("processing due phases: {}", e.message);
                break;
            }
        }
    }
    done
}

/// A failed deadline: the game it happened in, if known.
struct DueError(Option<i64>, ApiError);

impl From<crate::db::DbError> for DueError {
    fn from(e: crate::db::DbError) -> Self {
        DueError(None, e.into())
    }
}

fn record_failure(db: &Db, id: i64, message: &str) {
    let r = db.transaction(|tx| -> ApiResult<()> {
        let g = game::load(tx, id, Lock::Update)?;
        let failures = g.failures + 1;
        tracing::error!(game = id, failures, "processing failed: {message}");
        if failures >= 3 {
            let message = format!("processing failed {failures} times, game paused: {message}");
            crate::db::games::failed_and_paused(tx, id, failures, &message)?;
            game::event(tx, id, "paused", json!({"error": true}))?;
        } else {
            // Try again in a while, not in a tight loop.
            crate::db::games::failed(tx, id, failures, message, now_ms() + 5_000 * failures)?;
        }
        Ok(())
    });
    if let Err(e) = r {
        tracing::error!(game = id, "recording a processing failure: {}", e.message);
    }
}

/// `PATCH /api/v1/games/{id}`: the game master pauses, resumes, extends
/// the deadline or renames the game.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    pub name: Option<String>,
    pub paused: Option<bool>,
    /// More time for the current phase (`1h`).
    pub extend: Option<String>,
}

pub fn patch(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account, p: &Patch) -> ApiResult<()> {
    let g = game::load(tx, id, Lock::Update)?;
    if g.creator != who.id {
        return Err(ApiError::forbidden("only the game master changes the game"));
    }
    if g.status == Status::Finished && (p.paused.is_some() || p.extend.is_some()) {
        return Err(ApiError::conflict("the game is over"));
    }
    let now = now_ms();
    if let Some(name) = &p.name {
        let name = crate::lobby::check_name(name)?;
        crate::db::games::set_name(tx, id, &name)?;
    }
    match (p.paused, g.status) {
        (Some(true), Status::Active) => {
            let left = g.deadline.map(|d| (d - now).max(1000));
            crate::db::games::pause(tx, id, left)?;
            game::event(tx, id, "paused", json!({}))?;
        }
        (Some(false), Status::Paused) => {
            let state = g.state(variants)?;
            let left = g.paused_left.or_else(|| g.options.deadlines.for_kind(state.phase.kind));
            let deadline = left
                .filter(|_| g.options.deadlines.for_kind(state.phase.kind).is_some())
                .map(|l| now + l);
            crate::db::games::resume(tx, id, deadline)?;
            game::event(tx, id, "resumed", json!({}))?;
        }
        (Some(_), Status::Forming) => return Err(ApiError::conflict("the game has not started")),
        _ => {}
    }
    if let Some(e) = &p.extend {
        let ms = crate::time::parse_duration(e).map_err(|m| ApiError::bad_request(format!("extend: {m}")))?;
        let g = game::load(tx, id, Lock::None)?;
        // Extending gives more time; it does not give a phase the game
        // master processes by hand a deadline it never had.
        let kind = g.state(variants)?.phase.kind;
        let timed = match g.status {
            Status::Active => g.deadline.is_some(),
            Status::Paused => g.options.deadlines.for_kind(kind).is_some(),
            _ => true,
        };
        if !timed {
            return Err(ApiError::conflict(
                "extend: this phase has no deadline (the game master processes it, or it is processed when all are ready)",
            ));
        }
        match g.status {
            Status::Active => {
                let base = g.deadline.unwrap_or(now).max(now);
                crate::db::games::set_deadline(tx, id, base + ms)?;
            }
            Status::Paused => {
                crate::db::games::set_paused_left(tx, id, g.paused_left.unwrap_or(0) + ms)?;
            }
            _ => return Err(ApiError::conflict("the game has not started")),
        }
        game::event(tx, id, "extended", json!({"by": e}))?;
    }
    Ok(())
}

/// `GET …/legal`: every legal order of the caller's units in this phase
/// (what the map lets a player click), as order text dip reads back.
pub fn legal(tx: &mut dyn Tx, variants: &Variants, id: i64, who: &Account) -> ApiResult<Json> {
    let g = game::load(tx, id, Lock::None)?;
    running(&g)?;
    let (power, _) = my_power(tx, variants, &g, who)?;
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let state = g.state(variants)?;
    let rules = l.variant().rules;
    let text = |o: &dip_core::Order| dip_text::format_order(map, o, dip_text::Style::Mila);
    let place = |p: dip_core::ProvinceId| map.province(p).abbr.clone();
    let coast = |d: &dip_core::Dest| match d.coast {
        dip_core::CoastSpec::Coast(r) => map.region(r).coast.clone(),
        _ => None,
    };
    let describe_kind = |o: &dip_core::Order| -> Json {
        use dip_core::OrderKind as K;
        match &o.kind {
            K::Hold(_) => json!({"kind": "hold", "text": text(o)}),
            K::Move(_, d, via) => {
                json!({"kind": "move", "to": place(d.province), "coast": coast(d), "via": via, "text": text(o)})
            }
            K::SupportHold(_, t) => {
                json!({"kind": "support", "target": place(t.province), "to": place(t.province), "text": text(o)})
            }
            K::SupportMove(_, t, d) => {
                json!({"kind": "support", "target": place(t.province), "to": place(d.province), "text": text(o)})
            }
            K::Convoy(_, t, d) => {
                json!({"kind": "convoy", "target": place(t.province), "to": place(d.province), "text": text(o)})
            }
            K::Retreat(_, d) => json!({"kind": "retreat", "to": place(d.province), "coast": coast(d), "text": text(o)}),
            K::Disband(_) => json!({"kind": "disband", "text": text(o)}),
            K::Build(u) => {
                json!({"kind": "build", "province": place(u.province), "unit": u.kind.map(|k| map.unit_type(k).letter.to_string()),
                                  "coast": match u.coast { dip_core::CoastSpec::Coast(r) => map.region(r).coast.clone(), _ => None }, "text": text(o)})
            }
            K::Waive => json!({"kind": "waive", "text": text(o)}),
        }
    };
    // Each legal order with what the page draws for it (`draw`).
    let describe = |o: &dip_core::Order| -> Json {
        let mut j = describe_kind(o);
        j["draw"] = crate::drawn::order(map, &state, o);
        j
    };
    let mut units = Vec::new();
    let mut builds = Vec::new();
    match state.phase.kind {
        dip_core::PhaseKind::Movement => {
            for (p, u) in state.units().filter(|(_, u)| u.power == power) {
                let orders: Vec<Json> = dip_core::legal::legal_orders(map, &state, &rules, p)
                    .iter()
                    .map(describe)
                    .collect();
                units.push(json!({"unit": game::unit_text(map, &u), "province": place(p), "orders": orders}));
            }
        }
        dip_core::PhaseKind::Retreat => {
            for (p, d) in state.all_dislodged().filter(|(_, d)| d.unit.power == power) {
                let orders: Vec<Json> = dip_core::legal::legal_orders(map, &state, &rules, p)
                    .iter()
                    .map(describe)
                    .collect();
                units.push(json!({"unit": game::unit_text(map, &d.unit), "province": place(p), "orders": orders, "dislodged": true}));
            }
        }
        dip_core::PhaseKind::Adjustment => {
            let all = dip_core::legal::adjustment_orders(map, &state, power);
            for (p, u) in state.units().filter(|(_, u)| u.power == power) {
                let orders: Vec<Json> = all
                    .iter()
                    .filter(|o| matches!(o.kind, dip_core::OrderKind::Disband(me) if me.province == p))
                    .map(describe)
                    .collect();
                units.push(json!({"unit": game::unit_text(map, &u), "province": place(p), "orders": orders}));
            }
            builds = all
                .iter()
                .filter(|o| matches!(o.kind, dip_core::OrderKind::Build(_) | dip_core::OrderKind::Waive))
                .map(describe)
                .collect();
        }
    }
    Ok(json!({
        "phase": state.phase.short(),
        "power": map.power(power).name,
        "balance": dip_core::adjustment::balance(map, &state, power),
        "units": units,
        "builds": builds,
    }))
}
