//! DAIDE: the Diplomacy AI Development Environment's client–server
//! protocol (version 1) and its language at press levels 0–30, so that
//! existing Diplomacy bots play dip's hosted games beside API players
//! (docs/daide.md).
//!
//! Each DAIDE game has its own TCP port. A bot's seat is an account of
//! its own (`daide-<game>-<n>`, no password: it cannot log in through the
//! API) whose stored password hash carries the passcode for IAM. Orders
//! go through `play::put_orders` as dip's order text, flags through
//! `play::ready`/`play::draw`, press through `press::send`; what happens
//! to the game reaches the bots from the `events` table, as it reaches the
//! API's event stream, so that a phase processed by a deadline, by API
//! players or by another server process is sent as ORD, SCO and NOW.

pub mod api_press;
pub mod convert;
pub mod frame;
pub mod message;
pub mod press;
pub mod session;
#[cfg(test)]
mod syntax_tests;
pub mod token;

use crate::game::{self, Lock, Status};
use crate::AppState;
use dip_play::Loaded;
use message::{Msg, B};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use token::*;
use tokio::sync::broadcast;

/// Settings of the DAIDE side of a server.
#[derive(Clone, Debug)]
pub struct DaideConfig {
    /// A client must send its IM within this time.
    pub im_timeout: Duration,
    /// A client that does not take a message within this time is cut off.
    pub write_timeout: Duration,
    /// The press level of games with press (10, 20 or 30).
    pub press_level: u32,
    /// End games (as a draw of the survivors) once this year is over.
    pub end_after_year: Option<i32>,
    /// The power of each client by order of arrival (NME); the others
    /// are drawn as the game's assignment says.
    pub powers_by_arrival: Vec<String>,
    /// How many messages for its connections a game holds for one that
    /// is slow to take them; a connection that falls further behind gets
    /// what it missed from storage (`session`'s resync).
    pub backlog: usize,
    /// Connections one game's port serves at once beyond one per power
    /// (observers, bots on their way in); more are closed as soon as they
    /// are accepted.
    pub max_connections: usize,
    /// A message once begun must arrive whole within this time, and a
    /// connection must take a seat or observe (NME, IAM, OBS) within it
    /// after its IM. A seated client may then stay silent as long as it
    /// likes: bots wait for the next turn without a word.
    pub read_timeout: Duration,
    /// HSTs one connection may ask a minute (a burst of as many); more are
    /// answered REJ.
    pub hst_per_minute: u32,
}

impl Default for DaideConfig {
    fn default() -> Self {
        DaideConfig {
            im_timeout: Duration::from_secs(30),
            write_timeout: Duration::from_secs(30),
            press_level: api_press::API_PRESS_LEVEL,
            end_after_year: None,
            powers_by_arrival: Vec::new(),
            backlog: 1024,
            max_connections: 32,
            read_timeout: Duration::from_secs(30),
            // MILA's client asks one HST per phase when it rejoins: a
            // long game's worth at once is fine, a flood is not.
            hst_per_minute: 240,
        }
    }
}

/// Parses `16713-16799` (or one port).
pub fn parse_port_range(s: &str) -> Result<RangeInclusive<u16>, String> {
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let a: u16 = a
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: write FIRST-LAST, e.g. 16713-16799"))?;
    let b: u16 = b
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: write FIRST-LAST, e.g. 16713-16799"))?;
    if a == 0 || a > b {
        return Err(format!("`{s}`: ports from 1 to 65535, the first not above the last"));
    }
    Ok(a..=b)
}

/// What the game tells its connections.
#[derive(Clone, Debug)]
pub enum Out {
    /// The game started: players get HLO, everyone SCO and NOW.
    Started,
    /// To everyone (results, end of game, admin messages).
    All(Vec<Msg>),
    /// The phase of this index was processed: ORD…, SCO, NOW (and TME,
    /// per connection).
    Phase { index: i64, msgs: Vec<Msg> },
    /// Press (the stored message of this id) for some powers.
    Press {
        id: i64,
        to: Vec<dip_core::PowerId>,
        msg: Msg,
    },
    /// The game is over: OFF follows.
    Over,
}

/// A DAIDE seat's client.
#[derive(Clone, Debug, Default)]
pub struct Seat {
    pub connected: bool,
    pub name: String,
    pub version: String,
}

/// One game's DAIDE side: its tokens and its connections' channel.
/// What the kept history was made for: the game's status and position
/// (an edit or a phase changes one).
pub type HistoryKey = (&'static str, crate::db::store::Position);

pub struct Hub {
    pub id: i64,
    pub loaded: Arc<Loaded>,
    pub repr: token::Repr,
    pub tx: broadcast::Sender<Arc<Out>>,
    pub seats: Mutex<HashMap<u8, Seat>>,
    pub config: DaideConfig,
    pub state: AppState,
    /// Connections open now (for the benchmark and tests).
    pub open: std::sync::atomic::AtomicUsize,
    /// NMEs so far.
    pub arrivals: std::sync::atomic::AtomicUsize,
    /// DSD: the powers whose disconnection stopped the deadline.
    pub stopped_by: Mutex<Vec<u8>>,
    /// The results of every processed phase, with the game's phase index
    /// and position they were made at: HST and ORD read them from here
    /// rather than replaying the game for each ask.
    #[allow(clippy::type_complexity)]
    pub history: Mutex<Option<(i64, HistoryKey, Arc<Vec<(dip_core::Phase, Vec<Msg>)>>)>>,
}

impl Hub {
    pub fn seats(&self) -> std::sync::MutexGuard<'_, HashMap<u8, Seat>> {
        self.seats.lock().unwrap_or_else(|p| p.into_inner())
    }
    pub fn send(&self, o: Out) {
        let _ = self.tx.send(Arc::new(o));
    }
    /// The press level of the game (0: no press).
    pub fn level(&self, press: game::Press) -> u32 {
        match press {
            game::Press::None => 0,
            _ => self.config.press_level,
        }
    }
}

/// A game's DAIDE side without a port (connections are handed to
/// `session::serve_stream`), and the task that follows the game's events
/// until it is over.
pub async fn open_hub(
    state: AppState,
    id: i64,
    config: DaideConfig,
) -> std::io::Result<(Arc<Hub>, tokio::task::JoinHandle<()>)> {
    let variants = state.variants.clone();
    let g = state
        .read(move |tx| game::load(tx, id, Lock::None))
        .await
        .map_err(|e| std::io::Error::other(e.message))?;
    let loaded = g.loaded(&variants).map_err(|e| std::io::Error::other(e.message))?;
    let (tx, _) = broadcast::channel(config.backlog.max(1));
    let hub = Arc::new(Hub {
        id,
        repr: token::Repr::of(&loaded.variant().map),
        loaded,
        tx,
        seats: Mutex::new(HashMap::new()),
        config,
        state: state.clone(),
        open: Default::default(),
        arrivals: Default::default(),
        stopped_by: Mutex::new(Vec::new()),
        history: Mutex::new(None),
    });
    let watcher = tokio::spawn(watch(hub.clone()));
    Ok((hub, watcher))
}

/// Opens a game's DAIDE port and serves it until the game is over (and
/// its clients are told) or the returned handle is aborted.
pub async fn listen(
    state: AppState,
    id: i64,
    addr: std::net::SocketAddr,
    config: DaideConfig,
) -> std::io::Result<(std::net::SocketAddr, Arc<Hub>, tokio::task::JoinHandle<()>)> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let (hub, mut watcher) = open_hub(state, id, config).await?;
    let h = hub.clone();
    let places = Arc::new(tokio::sync::Semaphore::new(
        hub.loaded.variant().map.powers().len() + hub.config.max_connections,
    ));
    // SO_KEEPALIVE would need another crate with tokio: dead connections
    // are found by the write timeout instead (docs/daide.md).
    let task = tokio::spawn(async move {
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    let Ok((sock, _)) = accepted else {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    };
                    // Beyond the cap the connection is closed at once:
                    // a game has a few bots, not hundreds.
                    let Ok(place) = places.clone().try_acquire_owned() else {
                        drop(sock);
                        continue;
                    };
                    let _ = sock.set_nodelay(true);
                    let hub = h.clone();
                    tokio::spawn(async move {
                        hub.open.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        session::run(hub.clone(), sock).await;
                        hub.open.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
                        drop(place);
                    });
                }
                _ = &mut watcher => break,
            }
        }
    });
    Ok((bound, hub, task))
}

/// Follows the game's events and turns them into DAIDE messages.
async fn watch(hub: Arc<Hub>) {
    let id = hub.id;
    let mut rx = hub.state.notify.subscribe();
    let mut last = hub
        .state
        .read(move |tx| Ok::<_, crate::error::ApiError>(crate::db::events::last(tx, id)?))
        .await
        .unwrap_or(0);
    // A game that is already running: its connections learn it on HLO.
    loop {
        let since = last;
        let rows = hub
            .state
            .read(move |tx| {
                Ok::<_, crate::error::ApiError>(
                    crate::db::events::after(tx, id, since, 200)?
                        .into_iter()
                        .map(|e| {
                            (
                                e.id,
                                e.kind,
                                serde_json::from_str::<Json>(&e.data).unwrap_or(Json::Null),
                            )
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .await;
        let rows = match rows {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(game = id, "daide: reading events: {}", e.message);
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let more = rows.len() == 200;
        for (eid, kind, data) in rows {
            last = eid;
            match kind.as_str() {
                "started" => {
                    hub.send(Out::Started);
                    settle(&hub).await;
                }
                "phase" => {
                    let processed = data["processed"].as_str().unwrap_or_default().to_string();
                    // A game past its last year ends before its clients
                    // hear of the phase: no NOW (and no TME) of a turn
                    // that will not be played.
                    if let Some(end) = hub.config.end_after_year {
                        end_after(&hub, end).await;
                    }
                    match phase_messages(&hub, &processed).await {
                        Ok((index, msgs)) => hub.send(Out::Phase { index, msgs }),
                        Err(e) => tracing::error!(game = id, "daide: phase {processed}: {}", e.message),
                    }
                    settle(&hub).await;
                }
                // A bot that is gone cannot order: the others' last
                // ready flag may be all that zero-second deadlines wait for.
                "ready" | "orders" if hub.seats().values().any(|s| !s.connected) => {
                    settle(&hub).await;
                }
                "message" => {
                    if let Some(mid) = data["id"].as_i64() {
                        relay_press(&hub, mid).await;
                    }
                }
                "finished" => {
                    match end_messages(&hub).await {
                        Ok(msgs) => hub.send(Out::All(msgs)),
                        Err(e) => tracing::error!(game = id, "daide: end of game: {}", e.message),
                    }
                    hub.send(Out::Over);
                    return;
                }
                _ => {}
            }
        }
        if !more {
            let _ = tokio::time::timeout(Duration::from_secs(1), rx.changed()).await;
        }
    }
}

/// Zero-second deadlines (`DaideRules::zero_deadline`): processes the
/// phase when no power that must order can still send orders: each is
/// ready, has no player, or its bot is disconnected. Players that are
/// ready process the phase themselves (`play::ready`); this covers the
/// rest: a phase nobody must order in, and bots that went away.
pub async fn settle(hub: &Arc<Hub>) -> bool {
    let variants = hub.state.variants.clone();
    let id = hub.id;
    let gone: Vec<u8> = hub
        .seats()
        .iter()
        .filter(|(_, s)| !s.connected)
        .map(|(&p, _)| p)
        .collect();
    let by = hub.state.by.clone();
    let done = hub
        .state
        .write(move |tx| {
            let g = game::load(tx, id, Lock::Update)?;
            if g.status != Status::Active || !g.options.daide_rules.zero_deadline {
                return Ok(false);
            }
            let l = g.loaded(&variants)?;
            let map = &l.variant().map;
            let state = g.state(&variants)?;
            let members = game::members(tx, id)?;
            if !nothing_more_can_come(map, &state, &members, &gone) {
                return Ok(false);
            }
            crate::play::process_locked(tx, &variants, &g, &by)?;
            Ok::<_, crate::error::ApiError>(true)
        })
        .await;
    match done {
        Ok(true) => {
            hub.state.changed();
            true
        }
        Ok(false) => false,
        Err(e) => {
            tracing::error!(game = id, "daide: processing at once: {}", e.message);
            false
        }
    }
}

/// No power that must order has a player who is connected (not in
/// `gone`) and not ready.
pub fn nothing_more_can_come(
    map: &dip_core::Map,
    state: &dip_core::State,
    members: &[game::Member],
    gone: &[u8],
) -> bool {
    !map.power_ids().any(|p| {
        game::must_order(map, state, p)
            && !gone.contains(&p.0)
            && members
                .iter()
                .any(|m| m.power.as_deref() == Some(map.power(p).name.as_str()) && !m.ready)
    })
}

/// DSD: the bot of `p` went away with its orders due: the deadline
/// stops. Returns the seconds that were left (for NOT (TME (n))).
pub async fn stop_deadline(hub: &Arc<Hub>, p: dip_core::PowerId) -> Option<i64> {
    let variants = hub.state.variants.clone();
    let id = hub.id;
    let name = hub.loaded.variant().map.power(p).name.clone();
    let left = hub
        .state
        .write(move |tx| {
            let g = game::load(tx, id, Lock::Update)?;
            let Some(d) = g.deadline.filter(|_| g.status == Status::Active) else {
                return Ok(None);
            };
            if !g.options.daide_rules.deadline_stops_on_disconnection {
                return Ok(None);
            }
            let l = g.loaded(&variants)?;
            let map = &l.variant().map;
            let state = g.state(&variants)?;
            let ready = game::members(tx, id)?
                .iter()
                .any(|m| m.power.as_deref() == Some(name.as_str()) && m.ready);
            let Some(p) = map.find_power(&name) else {
                return Ok(None);
            };
            if ready || !game::must_order(map, &state, p) {
                return Ok(None);
            }
            let left = (d - crate::time::now_ms()).max(1000);
            crate::db::games::pause(tx, id, Some(left))?;
            game::event(tx, id, "paused", serde_json::json!({"daide": "DSD", "power": name}))?;
            Ok::<_, crate::error::ApiError>(Some(left))
        })
        .await
        .ok()
        .flatten()?;
    hub.stopped_by.lock().unwrap_or_else(|e| e.into_inner()).push(p.0);
    hub.state.changed();
    Some((left + 999) / 1000)
}

/// DSD: the bot of `p` is back; when no other disconnection holds the
/// deadline, it runs again. Returns the seconds left (for TME (n)).
pub async fn restart_deadline(hub: &Arc<Hub>, p: dip_core::PowerId) -> Option<i64> {
    {
        let mut by = hub.stopped_by.lock().unwrap_or_else(|e| e.into_inner());
        let before = by.len();
        by.retain(|&x| x != p.0);
        if by.len() == before || !by.is_empty() {
            return None;
        }
    }
    let id = hub.id;
    let left = hub
        .state
        .write(move |tx| {
            let g = game::load(tx, id, Lock::Update)?;
            if g.status != Status::Paused {
                return Ok(None);
            }
            let Some(left) = g.paused_left else { return Ok(None) };
            crate::db::games::resume(tx, id, Some(crate::time::now_ms() + left))?;
            game::event(tx, id, "resumed", serde_json::json!({"daide": "DSD"}))?;
            Ok::<_, crate::error::ApiError>(Some(left))
        })
        .await
        .ok()
        .flatten()?;
    hub.state.changed();
    Some((left + 999) / 1000)
}

/// Why SND is refused by the game's variant options (NPR, NPB, PTL).
pub fn press_closed(
    rules: &game::DaideRules,
    kind: dip_core::PhaseKind,
    deadline: Option<i64>,
    now: i64,
) -> Option<&'static str> {
    use dip_core::PhaseKind::*;
    match kind {
        Retreat if rules.no_press_in_retreats => Some("NPR"),
        Adjustment if rules.no_press_in_builds => Some("NPB"),
        Movement => match (rules.press_time_limit, deadline) {
            (Some(ptl), Some(d)) if d - now < i64::from(ptl) * 1000 => Some("PTL"),
            _ => None,
        },
        _ => None,
    }
}

/// HLO's variant options, in the syntax document's order: LVL, MTL, RTL,
/// BTL, DSD, AOA, then PDA (never), NPR, NPB, PTL.
pub fn hlo_options(o: &game::Options, level: i32) -> B {
    let mut opts = B::default().l(B::default().t(LVL).i(level));
    for (tok, kind) in [
        (MTL, dip_core::PhaseKind::Movement),
        (RTL, dip_core::PhaseKind::Retreat),
        (BTL, dip_core::PhaseKind::Adjustment),
    ] {
        if let Some(ms) = o.deadlines.for_kind(kind) {
            opts = opts.l(B::default().t(tok).i((ms / 1000).min(8191) as i32));
        }
    }
    let r = &o.daide_rules;
    let has_deadline =
        o.deadlines.movement.is_some() || o.deadlines.retreat.is_some() || o.deadlines.adjustment.is_some();
    if r.deadline_stops_on_disconnection && has_deadline {
        opts = opts.l(B::default().t(DSD));
    }
    if r.any_orders_accepted {
        opts = opts.l(B::default().t(AOA));
    }
    if level > 0 {
        if r.no_press_in_retreats {
            opts = opts.l(B::default().t(NPR));
        }
        if r.no_press_in_builds {
            opts = opts.l(B::default().t(NPB));
        }
        if let Some(ptl) = r.press_time_limit.filter(|_| o.deadlines.movement.is_some()) {
            opts = opts.l(B::default().t(PTL).i(ptl.min(8191) as i32));
        }
    }
    opts
}

/// ORD for every order of the processed phase, SCO where centres were
/// counted, NOW; with the phase's index.
pub async fn phase_messages(hub: &Arc<Hub>, processed: &str) -> crate::error::ApiResult<(i64, Vec<Msg>)> {
    let variants = hub.state.variants.clone();
    let id = hub.id;
    let p = processed.to_string();
    let h = hub.clone();
    hub.state
        .read(move |tx| {
            let stored = crate::history::stored(tx, &h.loaded, id)?;
            let Some(i) = stored.iter().position(|s| s.phase.eq_ignore_ascii_case(&p)) else {
                return Err(crate::error::ApiError::not_found(format!("no phase {p}")));
            };
            let (next, over) = match stored.get(i + 1) {
                Some(n) => (n.state(h.loaded.map())?, false),
                None => {
                    let g = game::load(tx, id, Lock::None)?;
                    (g.state(&variants)?, g.status == Status::Finished)
                }
            };
            Ok((stored[i].index, phase_result(&h, &stored[i], &next, over)?))
        })
        .await
}

/// What a connection that fell behind missed: the results of every phase
/// processed after the one of index `after` (each with its index), and
/// whether the game is over.
pub async fn results_after(hub: &Arc<Hub>, after: i64) -> crate::error::ApiResult<(Vec<(i64, Vec<Msg>)>, bool)> {
    let variants = hub.state.variants.clone();
    let id = hub.id;
    let h = hub.clone();
    hub.state
        .read(move |tx| {
            let stored = crate::history::stored(tx, &h.loaded, id)?;
            let g = game::load(tx, id, Lock::None)?;
            let mut out = Vec::new();
            for (i, s) in stored.iter().enumerate().filter(|(_, s)| s.index > after) {
                let (next, over) = match stored.get(i + 1) {
                    Some(n) => (n.state(h.loaded.map())?, false),
                    None => (g.state(&variants)?, g.status == Status::Finished),
                };
                out.push((s.index, phase_result(&h, s, &next, over)?));
            }
            Ok((out, g.status == Status::Finished))
        })
        .await
}

/// `over`: the game ended with this phase (a solo): no NOW of a turn that
/// will not be played, so that SLO is the next thing a bot hears (bots
/// given a NOW first ordered a dead turn).
fn phase_result(
    hub: &Hub,
    s: &crate::history::Stored,
    next: &dip_core::State,
    over: bool,
) -> crate::error::ApiResult<Vec<Msg>> {
    let map = &hub.loaded.variant().map;
    let rules = &hub.loaded.variant().rules;
    let (before, played) = s.replay(&hub.loaded)?;
    let changed = convert::voided(&played.check.lines);
    let mut msgs = convert::ord(map, &hub.repr, &before, &played.outcome, &changed);
    // SCO after every phase, as MILA's server does: clients take an
    // unchanged SCO, and the ownership after the fall is in it either way.
    msgs.push(convert::sco(map, &hub.repr, next));
    // `--end-after`: the turn after the last year is never played.
    if !over && hub.config.end_after_year.is_none_or(|end| next.phase.year <= end) {
        msgs.push(convert::now(map, &hub.repr, rules, next));
    }
    Ok(msgs)
}

/// Every processed phase's results (HST without a turn), made once per
/// phase and kept in the hub.
pub async fn history(hub: &Arc<Hub>, only: Option<dip_core::Phase>) -> crate::error::ApiResult<Vec<Msg>> {
    let variants = hub.state.variants.clone();
    let id = hub.id;
    let h = hub.clone();
    let all = hub
        .state
        .read(move |tx| {
            let g = game::load(tx, id, Lock::None)?;
            if let Some((at, position, kept)) = &*h.history.lock().unwrap_or_else(|p| p.into_inner()) {
                if *at == g.phase_index && *position == (g.status.as_str(), g.position.clone()) {
                    return Ok(kept.clone());
                }
            }
            let stored = crate::history::stored(tx, &h.loaded, id)?;
            let current = g.state(&variants)?;
            let mut out = Vec::new();
            for (i, s) in stored.iter().enumerate() {
                let st = s.state(h.loaded.map())?;
                let (next, over) = match stored.get(i + 1) {
                    Some(n) => (n.state(h.loaded.map())?, false),
                    None => (current.clone(), g.status == Status::Finished),
                };
                out.push((st.phase, phase_result(&h, s, &next, over)?));
            }
            let out = Arc::new(out);
            *h.history.lock().unwrap_or_else(|p| p.into_inner()) =
                Some((g.phase_index, (g.status.as_str(), g.position.clone()), out.clone()));
            Ok(out)
        })
        .await?;
    Ok(all
        .iter()
        .filter(|(p, _)| only.is_none_or(|o| o == *p))
        .flat_map(|(_, m)| m.iter().cloned())
        .collect())
}

/// Ends a game that went past the configured last year: a draw of the
/// survivors.
async fn end_after(hub: &Arc<Hub>, end: i32) {
    let variants = hub.state.variants.clone();
    let id = hub.id;
    let r = hub
        .state
        .write(move |tx| {
            let g = game::load(tx, id, Lock::Update)?;
            if g.status == Status::Finished {
                return Ok(());
            }
            let state = g.state(&variants)?;
            if state.phase.year <= end {
                return Ok(());
            }
            let l = g.loaded(&variants)?;
            let map = &l.variant().map;
            let names: Vec<&str> = map
                .power_ids()
                .filter(|&p| game::survives(map, &state, p))
                .map(|p| map.power(p).name.as_str())
                .collect();
            let result = format!("draw: {} (the game ended after {end})", names.join(", "));
            crate::db::games::finish(tx, id, None, &result, crate::time::now_ms())?;
            game::event(
                tx,
                id,
                "finished",
                serde_json::json!({"winner": null, "result": result}),
            )
        })
        .await;
    match r {
        Ok(()) => hub.state.changed(),
        Err(e) => tracing::error!(game = id, "daide: ending the game: {}", e.message),
    }
}

/// SLO or DRW, then SMR.
pub async fn end_messages(hub: &Arc<Hub>) -> crate::error::ApiResult<Vec<Msg>> {
    let variants = hub.state.variants.clone();
    let id = hub.id;
    let h = hub.clone();
    hub.state
        .read(move |tx| {
            let g = game::load(tx, id, Lock::None)?;
            if g.status != Status::Finished {
                return Err(crate::error::ApiError::conflict("the game is not over"));
            }
            let map = &h.loaded.variant().map;
            let state = g.state(&variants)?;
            let mut out = Vec::new();
            match g.winner.as_deref().and_then(|w| map.find_power(w)) {
                Some(w) => out.push(B::new(SLO).l(B::default().t(h.repr.power(w))).msg()),
                None if g.result.as_deref().is_some_and(|r| r.starts_with("draw")) => out.push(B::new(DRW).msg()),
                None => {}
            }
            // Year each power dropped to no centres.
            let stored = crate::history::stored(tx, &h.loaded, id)?;
            let mut out_year: HashMap<u8, i32> = HashMap::new();
            for s in &stored {
                let st = s.state(h.loaded.map())?;
                for p in map.power_ids() {
                    if st.center_count(map, p) == 0 && !out_year.contains_key(&p.0) {
                        out_year.insert(p.0, st.phase.year);
                    }
                }
            }
            let members = game::members(tx, id)?;
            let seats = h.seats().clone();
            let mut smr = B::new(SMR).n(convert::turn(&state.phase));
            for p in map.power_ids() {
                let name = &map.power(p).name;
                let (who, version) = match seats.get(&p.0) {
                    Some(s) if !s.name.is_empty() => (s.name.clone(), s.version.clone()),
                    _ => (
                        members
                            .iter()
                            .find(|m| m.power.as_deref() == Some(name.as_str()))
                            .map(|m| m.name.clone())
                            .unwrap_or_default(),
                        String::new(),
                    ),
                };
                let n = state.center_count(map, p) as i32;
                let mut l = B::default()
                    .t(h.repr.power(p))
                    .s(&text_safe(&who))
                    .s(&text_safe(&version))
                    .i(n);
                if n == 0 {
                    l = l.i(out_year.get(&p.0).copied().unwrap_or(state.phase.year));
                }
                smr = smr.l(l);
            }
            out.push(smr.msg());
            Ok(out)
        })
        .await
}

fn text_safe(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii() && !c.is_ascii_control())
        .take(64)
        .collect()
}

/// Press stored in the game: FRM to the DAIDE recipients, when its text
/// is a DAIDE press message.
async fn relay_press(hub: &Arc<Hub>, mid: i64) {
    for (id, to, msg) in press_after(hub, mid - 1, Some(mid)).await {
        hub.send(Out::Press { id, to, msg });
    }
}

/// The game's DAIDE press stored after message `after` (up to message
/// `only`, if given), as FRM with its recipients.
pub async fn press_after(hub: &Arc<Hub>, after: i64, only: Option<i64>) -> Vec<(i64, Vec<dip_core::PowerId>, Msg)> {
    let id = hub.id;
    let upto = only.unwrap_or(i64::MAX);
    let rows = hub
        .state
        .read(move |tx| Ok::<_, crate::error::ApiError>(crate::db::messages::between(tx, id, after, upto)?))
        .await
        .unwrap_or_default();
    let map = &hub.loaded.variant().map;
    let mut out = Vec::new();
    for crate::db::messages::MessageRow {
        id: mid,
        sender,
        recipients,
        body,
        ..
    } in rows
    {
        let Some(from) = map.find_power(&sender) else { continue };
        let recipients: Json = serde_json::from_str(&recipients).unwrap_or(Json::Null);
        let to: Vec<dip_core::PowerId> = match &recipients {
            Json::Array(a) => a
                .iter()
                .filter_map(|x| x.as_str())
                .filter_map(|n| map.find_power(n))
                .collect(),
            _ => map.power_ids().filter(|&p| p != from).collect(),
        };
        // Free text, or press the game's level does not have (written
        // by an API player): not for bots (`api_press` told the sender).
        let Ok(press) = Msg::parse(&body, &hub.repr) else {
            continue;
        };
        let reader = convert::Reader { map, repr: &hub.repr };
        let Ok(press) = press::check(&reader, &press.0, hub.config.press_level, 0) else {
            continue;
        };
        let mut list = B::default();
        for &p in &to {
            list = list.t(hub.repr.power(p));
        }
        let msg = B::new(FRM)
            .l(B::default().t(hub.repr.power(from)))
            .l(list)
            .ls(press)
            .msg();
        out.push((mid, to, msg));
    }
    out
}

/// The id of the game's latest message (0: none yet).
pub async fn last_press(hub: &Arc<Hub>) -> i64 {
    let id = hub.id;
    hub.state
        .read(move |tx| Ok::<_, crate::error::ApiError>(crate::db::messages::last(tx, id)?))
        .await
        .unwrap_or(0)
}

/// Keeps a listener open on `ip` for every DAIDE game of the database
/// that is not finished and has a port (`dip serve --daide-ports`).
pub async fn manage(state: AppState, config: DaideConfig, ip: std::net::IpAddr) {
    let mut open: HashMap<i64, tokio::task::JoinHandle<()>> = HashMap::new();
    let mut failed: HashMap<i64, u16> = HashMap::new();
    let mut rx = state.notify.subscribe();
    loop {
        let games = state
            .read(|tx| {
                Ok::<_, crate::error::ApiError>(
                    // A game whose options do not read has no port here
                    // (its requests answer the error).
                    crate::db::games::unfinished_options(tx)?
                        .iter()
                        .filter_map(|(id, options)| {
                            let o: Json = serde_json::from_str(options).ok()?;
                            let port = o["daide_port"].as_u64()? as u16;
                            Some((*id, port))
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .await
            .unwrap_or_default();
        open.retain(|_, h| !h.is_finished());
        for (id, port) in games {
            if open.contains_key(&id) || failed.get(&id) == Some(&port) {
                continue;
            }
            let addr = std::net::SocketAddr::new(ip, port);
            match listen(state.clone(), id, addr, config.clone()).await {
                Ok((_, _, h)) => {
                    tracing::info!(game = id, port, "daide: listening");
                    open.insert(id, h);
                }
                Err(e) => {
                    // Another server process on this machine may hold it.
                    tracing::warn!(game = id, port, "daide: cannot listen: {e}");
                    failed.insert(id, port);
                }
            }
        }
        let _ = tokio::time::timeout(Duration::from_secs(1), rx.changed()).await;
    }
}

/// A game for bots only (`dip daide`).
#[derive(Clone, Debug)]
pub struct BotGame {
    pub name: String,
    pub variant: String,
    /// Deadline of every phase (`10s`); none: phases wait for all bots.
    pub deadline: Option<String>,
    /// 0: no press; 10–30: press at that level.
    pub press: u32,
    /// The port stored with the game.
    pub port: u16,
    /// DAIDE variant options (zero-second deadlines, AOA, DSD, NPR, NPB,
    /// PTL).
    pub rules: game::DaideRules,
}

pub use crate::variants::daide_playable as playable;

/// Creates a forming DAIDE game with a seat for every power; its host is
/// an account that cannot log in.
pub async fn create_bot_game(state: &AppState, b: BotGame) -> crate::error::ApiResult<i64> {
    let variants = state.variants.clone();
    let loaded = crate::variants::get(&variants, &b.variant).map_err(crate::error::ApiError::bad_request)?;
    playable(loaded.variant()).map_err(|e| crate::error::ApiError::bad_request(format!("variant: {e}")))?;
    let id = state
        .write(move |tx| {
            let host = auth::create_account(tx, &format!("daide-host-{:08x}", fastrand::u32(..)), "!")?;
            let new = crate::lobby::NewGame {
                name: b.name,
                variant: b.variant,
                players: None,
                deadlines: game::Deadlines {
                    movement: b.deadline.clone(),
                    retreat: b.deadline.clone(),
                    adjustment: b.deadline,
                },
                press: if b.press == 0 {
                    game::Press::None
                } else {
                    game::Press::Full
                },
                anonymous: false,
                daide: false,
                assignment: game::Assignment::Random,
                civil_disorder_after: Some(100),
                private: false,
                password: None,
                password_hash: None,
                daide_ports: None,
            };
            let id = crate::lobby::create(tx, &variants, &host, new)?;
            // The port is this process's own: no range to draw from.
            let g = game::load(tx, id, Lock::Update)?;
            let mut options = g.options.clone();
            options.daide = true;
            options.daide_port = Some(b.port);
            options.daide_rules = b.rules;
            let options =
                serde_json::to_string(&options).map_err(|e| crate::error::ApiError::internal(e.to_string()))?;
            crate::db::games::set_options(tx, id, &options)?;
            Ok(id)
        })
        .await?;
    state.changed();
    Ok(id)
}

use crate::auth;
