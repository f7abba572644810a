//! The JSON a viewer sees of a game: with hidden names, the others are
//! "Player N"; team passwords only for the creator.

use super::turn::phase_name;
use super::{seat_of, seats, WarRow, WarStatus};
use crate::auth::Account;
use crate::db::Tx;
use crate::error::ApiResult;
use crate::time::{format_duration, iso8601};
use dip_war::{map, rules, Phase};
use serde_json::{json, Value as Json};

pub fn view(tx: &mut dyn Tx, row: &WarRow, viewer: Option<&Account>) -> ApiResult<Json> {
    let taken = seats(tx, row.id)?;
    let me = viewer.and_then(|a| seat_of(&taken, a.id));
    let o = &row.options;
    let names = name_viewer(row, me, viewer);
    let hidden = |seat: u8| o.hidden_names && names.is_some() && me != Some(seat);
    let mut v = json!({
        "id": row.id,
        "name": row.name,
        "status": row.status.as_str(),
        "options": {
            "players": {"min": o.players.min, "max": o.players.max},
            "teams": o.teams,
            "hidden_names": o.hidden_names,
            "unlimited_fortifications": o.unlimited_fortifications,
            "time_limit": o.time_limit.map(format_duration),
            "keep": format_duration(o.keep),
        },
        "your_seat": me,
        // The creator runs the game (skips a dropped turn): the page shows
        // its button to them only.
        "game_master": viewer.is_some_and(|a| a.id == row.creator),
        // Changes with every join, vote and action: the page reloads on it.
        "version": format!(
            "{}:{}:{}:{}",
            row.status.as_str(),
            row.actions,
            taken.len(),
            taken.iter().filter(|s| s.vote).count()
        ),
        "created": iso8601(row.created),
        "finished": row.finished.map(iso8601),
        "delete_at": row.delete_at.map(iso8601),
    });
    if viewer.is_some_and(|a| a.id == row.creator) && o.teams {
        v["options"]["passwords"] = json!(o.passwords);
    }
    let Some(game) = row.game.as_ref().filter(|_| row.status != WarStatus::Deleted) else {
        v["seats"] = taken
            .iter()
            .map(|s| {
                json!({
                    "seat": s.seat,
                    "name": if hidden(s.seat) { format!("Player {}", s.seat) } else { s.name.clone() },
                    "vote": s.vote,
                })
            })
            .collect();
        return Ok(v);
    };
    board_fields(&mut v, row, game, names);
    Ok(v)
}

/// A started game's seats, countries, sets turned in, winners and the
/// turn under way.
fn board_fields(v: &mut Json, row: &WarRow, game: &dip_war::Game, names: Option<u8>) {
    let o = &row.options;
    let pos = &game.pos;
    v["seats"] = pos
        .players
        .iter()
        .map(|p| {
            json!({
                "seat": p.number,
                "name": pos.display_name(p.number, names),
                "team": o.teams.then(|| pos.side(p.number)),
                "alive": p.alive,
                "countries": pos.count(p.number),
                "armies": (0..42).filter(|&c| pos.owner[c] == p.number).map(|c| pos.armies[c]).sum::<u32>(),
                "commendations": {"general": p.hand.general, "king": p.hand.king, "queen": p.hand.queen},
                "reinforcements": pos.reinforcements(p.number),
            })
        })
        .collect();
    v["countries"] = (1..=42u8)
        .map(|c| {
            json!({
                "number": c,
                "name": map::name(c),
                "owner": pos.owner[c as usize - 1],
                "armies": pos.armies[c as usize - 1],
            })
        })
        .collect();
    v["sets_turned_in"] = json!(pos.sets_turned_in);
    v["next_set_value"] = json!(rules::set_value(pos.sets_turned_in));
    v["winners"] = json!(pos.winners);
    if pos.phase != Phase::Over {
        v["turn"] = turn_json(row, game);
    }
}

/// The turn under way: whose, which phase, its deadline, and what the
/// phase asks for.
fn turn_json(row: &WarRow, game: &dip_war::Game) -> Json {
    let pos = &game.pos;
    let mut turn = json!({
        "number": pos.turn,
        "seat": pos.current,
        "phase": phase_name(&pos.phase),
        "conquered": pos.conquered,
        "fortifications": pos.fortifications,
        "deadline": row.deadline.map(iso8601),
        "in_progress": game.turn_in_progress(),
        // The next player may take their turn (docs/global-war.md).
        "dropped": super::turn::dropped(game, crate::time::now_ms()),
        "next_seat": game.next_player(),
    });
    match pos.phase {
        Phase::Deploy { armies, .. } => turn["armies_to_deploy"] = json!(armies),
        Phase::Occupy { from, to, min, max } => {
            turn["move_in"] = json!({"from": from, "to": to, "min": min, "max": max})
        }
        _ => {}
    }
    turn
}

/// The map as the viewer sees it.
pub fn map_svg(tx: &mut dyn Tx, id: i64, viewer: Option<&Account>, view: map::View) -> ApiResult<String> {
    let row = super::load(tx, id, false)?;
    let game = row.game()?;
    let taken = seats(tx, id)?;
    let me = viewer.and_then(|a| seat_of(&taken, a.id));
    let who = name_viewer(&row, me, viewer);
    let board = dip_war::svg::Board::from_position(&game.pos, who);
    Ok(dip_war::svg::render(&board, view, 1.0))
}

/// Whose eyes the names are seen with: `None` sees every name (a game
/// without hidden names, or its creator, the game master, not playing);
/// a seat sees its own; `Some(0)` (a spectator) sees only "Player N".
pub fn name_viewer(row: &WarRow, me: Option<u8>, viewer: Option<&Account>) -> Option<u8> {
    let gm = me.is_none() && viewer.is_some_and(|a| a.id == row.creator);
    if !row.options.hidden_names || gm {
        None
    } else {
        me.or(Some(0))
    }
}
