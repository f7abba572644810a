//! What happened: every processed phase with its position, orders
//! (revealed once processed), results and report; maps of any phase; the
//! whole game as MILA JSON or a DipWork game directory.

use crate::board::render::Pictures;
use crate::db::store::GameStore;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult};
use crate::game::Lock;
use crate::game::{self, GameRow, Status};
use crate::time::iso8601;
use dip_core::{PhaseOutcome, State};
use dip_game::record::{GameRecord, PhaseRecord};
use dip_play::{Loaded, Played, Variants};
use serde_json::{json, Value as Json};
use std::sync::Arc;

/// A processed phase as stored.
pub use crate::db::store::PlayedPhase as Stored;

/// The game's processed phases. Orders or results that do not read as
/// JSON are an error (they were read as none before).
pub fn stored(tx: &mut dyn Tx, l: &Loaded, id: i64) -> ApiResult<Vec<Stored>> {
    Ok(GameStore::new(id, l.map()).phases(tx)?)
}

impl Stored {
    /// The phase played again from its stored orders (adjudication is
    /// deterministic, so this is what happened).
    pub fn replay(&self, l: &Arc<Loaded>) -> ApiResult<(State, Played)> {
        let map = &l.variant().map;
        let state = self.state(map)?;
        let orders: Vec<_> = self
            .orders
            .iter()
            .filter_map(|(p, lines)| Some((map.find_power(p)?, lines.clone())))
            .collect();
        let played = crate::play::play_stored(l, &state, &orders);
        Ok((state, played))
    }
}

/// Do two phase names name the same phase? Any case, and any number of
/// digits in the year: `S1M`, `s1m` and MILA's `S0001M` are one phase.
fn same_phase(a: &str, b: &str) -> bool {
    let read = |n: &str| dip_game::replay::parse_phase_name(&n.trim().to_ascii_uppercase());
    a.eq_ignore_ascii_case(b) || read(a).is_some_and(|p| Some(p) == read(b))
}

/// `GET …/phases`.
pub fn list(tx: &mut dyn Tx, variants: &Variants, id: i64) -> ApiResult<Json> {
    let g = game::load(tx, id, Lock::None)?;
    let l = g.loaded(variants)?;
    let mut out: Vec<Json> = stored(tx, &l, id)?
        .iter()
        .map(|s| json!({"index": s.index, "phase": s.phase, "processed": iso8601(s.processed), "processed_by": s.processed_by}))
        .collect();
    if g.status != Status::Finished {
        out.push(json!({"index": g.phase_index, "phase": g.state(variants)?.phase.short(), "current": true}));
    }
    Ok(json!({"phases": out}))
}

/// `GET …/phases/{phase}`: a processed phase in full; the current one
/// with its position only.
pub fn detail(
    tx: &mut dyn Tx,
    variants: &Variants,
    id: i64,
    phase: &str,
    viewer: Option<&crate::auth::Account>,
) -> ApiResult<Json> {
    let g = game::load(tx, id, Lock::None)?;
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    // The phase's press, as much as the viewer may read.
    let press: Vec<Json> = crate::press::list(tx, id, viewer)?["messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter(|m| m["phase"].as_str().is_some_and(|p| same_phase(p, phase)))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    if let Some(s) = stored(tx, &l, id)?.into_iter().find(|s| same_phase(&s.phase, phase)) {
        let state = s.state(map)?;
        return Ok(json!({
            "press": press,
            "phase": s.phase,
            "title": dip_game::gamefile::title_phase(&state.phase),
            "position": game::powers_json(map, &state),
            "orders": s.orders,
            "results": s.results,
            "report": s.report,
            "processed": iso8601(s.processed),
        }));
    }
    let state = g.state(variants)?;
    if same_phase(&state.phase.short(), phase) {
        return Ok(json!({
            "press": press,
            "phase": state.phase.short(),
            "title": dip_game::gamefile::title_phase(&state.phase),
            "position": game::powers_json(map, &state),
            "current": true,
        }));
    }
    Err(ApiError::not_found(format!("game {id} has no phase {phase}")))
}

/// A position to draw, and the orders drawn over it: the position they
/// were given in and what became of them.
struct Scene {
    state: State,
    orders: Option<(State, PhaseOutcome)>,
}

/// The last phase played, when it led to the position now without an
/// edit: its orders and results are drawn over the map of now, as the
/// board draws its last stage's.
fn last_played(tx: &mut dyn Tx, variants: &Variants, g: &GameRow) -> ApiResult<Option<(State, PhaseOutcome)>> {
    let l = g.loaded(variants)?;
    let Some(s) = GameStore::new(g.id, l.map()).last_phase(tx)? else {
        return Ok(None);
    };
    let (before, played) = s.replay(&l)?;
    let led_here = s.index + 1 == g.phase_index && played.next == g.state(variants)?;
    Ok(led_here.then_some((before, played.outcome)))
}

/// What to draw of `phase` (none: now, with the last phase's results
/// when `results`).
fn scene_of(tx: &mut dyn Tx, variants: &Variants, g: &GameRow, phase: Option<&str>, results: bool) -> ApiResult<Scene> {
    let l = g.loaded(variants)?;
    let current = g.state(variants)?;
    let wanted = phase.unwrap_or("");
    if wanted.is_empty() || same_phase(wanted, &current.phase.short()) {
        let orders = if results { last_played(tx, variants, g)? } else { None };
        return Ok(Scene { state: current, orders });
    }
    let s = stored(tx, &l, g.id)?
        .into_iter()
        .find(|s| same_phase(&s.phase, wanted))
        .ok_or_else(|| ApiError::not_found(format!("game {} has no phase {wanted}", g.id)))?;
    let (state, played) = s.replay(&l)?;
    Ok(Scene {
        orders: Some((state.clone(), played.outcome)),
        state,
    })
}

/// What a game's maps are drawn from: the server's variants and the
/// pictures drawn of them.
#[derive(Clone, Copy)]
pub struct Maps<'a> {
    pub variants: &'a Variants,
    pub pictures: &'a Pictures,
}

/// Which map of a game: a phase's (none: now); `clickable`: with the web
/// page's click targets and the geometry its order drawing reads;
/// `results`: now with the last phase's orders and results.
#[derive(Clone, Copy, Debug, Default)]
pub struct MapRequest<'a> {
    pub phase: Option<&'a str>,
    pub clickable: bool,
    pub results: bool,
}

/// `GET …/map.svg?phase=&clickable=&results=`.
pub fn map_svg(tx: &mut dyn Tx, maps: Maps, id: i64, request: MapRequest) -> ApiResult<String> {
    let g = game::load(tx, id, Lock::None)?;
    scene_svg(tx, maps, &g, request)
}

fn scene_svg(tx: &mut dyn Tx, maps: Maps, g: &GameRow, request: MapRequest) -> ApiResult<String> {
    let sc = scene_of(tx, maps.variants, g, request.phase, request.results)?;
    let l = g.loaded(maps.variants)?;
    let orders = sc.orders.as_ref().map(|(s, o)| (s, o));
    Ok(maps
        .pictures
        .get(&l)
        .picture()
        .svg_scene(&sc.state, orders, &dip_render::Options::default(), request.clickable))
}

/// The current position with click targets and the last phase's
/// results, for the game page.
pub fn map_svg_clickable(tx: &mut dyn Tx, maps: Maps, g: &GameRow) -> ApiResult<String> {
    let request = MapRequest {
        phase: None,
        clickable: true,
        results: true,
    };
    scene_svg(tx, maps, g, request)
}

/// `GET …/map.png?phase=`.
pub fn map_png(tx: &mut dyn Tx, maps: Maps, id: i64, phase: Option<&str>) -> ApiResult<Vec<u8>> {
    let request = MapRequest {
        phase,
        ..MapRequest::default()
    };
    let svg = map_svg(tx, maps, id, request)?;
    dip_render::raster::png(&svg).map_err(|e| ApiError::internal(format!("map.png: {e}")))
}

/// The game as dip's game record.
pub fn record(tx: &mut dyn Tx, variants: &Variants, g: &GameRow) -> ApiResult<GameRecord> {
    Ok(played_record(tx, variants, g)?.0)
}

/// The game's record, and each of its phases as played again to make it
/// (for exports that need the outcomes too: each phase is played once).
fn played_record(tx: &mut dyn Tx, variants: &Variants, g: &GameRow) -> ApiResult<(GameRecord, Vec<Played>)> {
    let l = g.loaded(variants)?;
    let mut phases = Vec::new();
    let mut played_all = Vec::new();
    for s in stored(tx, &l, g.id)? {
        let (state, played) = s.replay(&l)?;
        phases.push(PhaseRecord {
            state,
            orders: played.outcome.orders().iter().map(|r| r.order).collect(),
        });
        played_all.push(played);
    }
    let rec = GameRecord {
        name: g.name.clone(),
        variant: l.variant().name.clone(),
        rules: l.variant().rules.to_text(),
        phases,
    };
    Ok((rec, played_all))
}

/// `GET …/export?format=mila`: MILA's saved-game JSON.
pub fn export_mila(tx: &mut dyn Tx, variants: &Variants, id: i64) -> ApiResult<Json> {
    let g = game::load(tx, id, Lock::None)?;
    let l = g.loaded(variants)?;
    let (rec, played) = played_record(tx, variants, &g)?;
    let mut saved = dip_game::record::to_mila_played(&l.variant().map, &rec, &played);
    saved.id = format!("dip-{id}");
    serde_json::to_value(&saved).map_err(|e| ApiError::internal(e.to_string()))
}

/// `GET …/export?format=dipwork`: a tar of a DipWork game directory:
/// GAME.TXT (the current position), HISTORY.REC (every phase) and each
/// phase's report under `reports/`.
pub fn export_dipwork(tx: &mut dyn Tx, variants: &Variants, id: i64) -> ApiResult<Vec<u8>> {
    let g = game::load(tx, id, Lock::None)?;
    let l = g.loaded(variants)?;
    let map = &l.variant().map;
    let state = g.state(variants)?;
    let members = game::members(tx, id)?;
    let hide = g.options.anonymous && g.status != Status::Finished;
    let players: Vec<Option<String>> = map
        .powers()
        .iter()
        .map(|p| {
            members
                .iter()
                .find(|m| m.power.as_deref() == Some(p.name.as_str()))
                .filter(|_| !hide)
                .map(|m| m.name.clone())
        })
        .collect();
    let header = vec![
        format!("NAME {}", g.name.replace(['\n', '\r'], " ")),
        format!("VARIANTPATH {}", l.variant().name),
    ];
    let game_txt = dip_game::gamefile::write_game(&header, l.vocabulary(), &state, &players);
    // Each stored phase played once: for the record and its results.
    let (rec, played) = played_record(tx, variants, &g)?;
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("GAME.TXT".into(), game_txt.into_bytes()),
        ("HISTORY.REC".into(), rec.to_text_played(map, &played).into_bytes()),
    ];
    for s in stored(tx, &l, id)? {
        files.push((format!("reports/{:03}-{}.TXT", s.index, s.phase), s.report.into_bytes()));
    }
    let mut out = tar::Builder::new(Vec::new());
    let dir = format!("dip-game-{id}");
    for (name, bytes) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(crate::time::now_ms() as u64 / 1000);
        h.set_cksum();
        out.append_data(&mut h, format!("{dir}/{name}"), bytes.as_slice())
            .map_err(|e| ApiError::internal(format!("export: {e}")))?;
    }
    out.into_inner().map_err(|e| ApiError::internal(format!("export: {e}")))
}

/// `GET …/edits`: the game master's edits, each with the phase it was
/// made in; in an anonymous game the names in `player` lines are hidden
/// from all but the game master until the end.
pub fn edits(tx: &mut dyn Tx, id: i64, viewer: Option<i64>) -> ApiResult<Json> {
    let g = game::load(tx, id, Lock::None)?;
    let hide = crate::edit::names_hidden(&g, viewer);
    let out: Vec<Json> = crate::db::edits::all(tx, id)?
        .into_iter()
        .map(|e| {
            let lines = serde_json::from_str::<Json>(&e.lines).unwrap_or(Json::Null);
            let lines = if hide { crate::edit::hide_players(&lines) } else { lines };
            json!({"index": e.phase_index, "phase": e.phase, "lines": lines, "made": iso8601(e.made)})
        })
        .collect();
    Ok(json!({"edits": out}))
}

/// `GET …/animation.png`: the game so far as an animated PNG (dip-render's
/// animation: each phase's orders, then the units moving).
pub fn animation_png(tx: &mut dyn Tx, variants: &Variants, pictures: &Pictures, id: i64) -> ApiResult<Vec<u8>> {
    let g = game::load(tx, id, Lock::None)?;
    let l = g.loaded(variants)?;
    let mut states = Vec::new();
    let mut outcomes = Vec::new();
    for s in stored(tx, &l, id)? {
        let (state, played) = s.replay(&l)?;
        states.push(state);
        outcomes.push(played.outcome);
    }
    if outcomes.is_empty() {
        return Err(ApiError::not_found(format!("game {id} has no phase played yet")));
    }
    states.push(g.state(variants)?);
    let steps = dip_render::animate::Step::sequence(&states, &outcomes);
    let drawn = pictures.get(&l);
    let picture = drawn.picture();
    let opts = dip_render::Options {
        scale: 0.8,
        ..dip_render::Options::default()
    };
    let timing = dip_render::animate::Timing {
        tween: 3,
        ..dip_render::animate::Timing::default()
    };
    let frames = dip_render::animate::frames(picture, &steps, &timing);
    dip_render::animate::apng(picture, &frames, &opts).map_err(|e| ApiError::internal(format!("animation: {e}")))
}
