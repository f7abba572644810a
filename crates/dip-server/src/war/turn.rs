//! Turns: one action of the player to move, stored with the game in the
//! same transaction (so a killed server resumes exactly there); the time
//! limit, after which the turn is rolled back to its start and passes on;
//! completion, and deletion a set time after it.

use super::{load, seat_of, seats, store, WarRow, WarStatus};
use crate::auth::Account;
use crate::db::{Db, Tx};
use crate::error::{ApiError, ApiResult};
use crate::time::{iso8601, now_ms};
use axum::http::StatusCode;
use dip_war::rules::{Commendation, Set};
use dip_war::{Action, Event, Phase};
use serde::Deserialize;

/// `POST /api/v1/war/games/{id}/actions`: what a player does, by country
/// number (1–42). One flat object, so that a field the action does not
/// take is refused by name.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    pub action: String,
    pub set: Option<SetName>,
    pub country: Option<u8>,
    pub armies: Option<u32>,
    pub from: Option<u8>,
    pub to: Option<u8>,
    pub dice: Option<u8>,
}

/// A checked [`MoveBody`].
#[derive(Clone, Copy, Debug)]
pub enum Move {
    TurnIn {
        set: SetName,
    },
    Deploy {
        country: u8,
        armies: u32,
    },
    /// `dice` defaults to the most allowed.
    Attack {
        from: u8,
        to: u8,
        dice: Option<u8>,
    },
    MoveIn {
        armies: u32,
    },
    EndAttack,
    Fortify {
        from: u8,
        to: u8,
        armies: u32,
    },
    EndTurn,
}

const ACTIONS: &str = "turn_in {set}, deploy {country, armies}, attack {from, to, dice?}, move_in {armies}, \
                       end_attack, fortify {from, to, armies}, end_turn";

impl MoveBody {
    pub fn check(&self) -> ApiResult<Move> {
        let b = self;
        let given: Vec<&str> = [
            ("set", b.set.is_some()),
            ("country", b.country.is_some()),
            ("armies", b.armies.is_some()),
            ("from", b.from.is_some()),
            ("to", b.to.is_some()),
            ("dice", b.dice.is_some()),
        ]
        .into_iter()
        .filter(|f| f.1)
        .map(|f| f.0)
        .collect();
        let (mv, takes): (Option<Move>, &[&str]) = match b.action.as_str() {
            "turn_in" => (b.set.map(|set| Move::TurnIn { set }), &["set"]),
            "deploy" => (
                b.country
                    .zip(b.armies)
                    .map(|(country, armies)| Move::Deploy { country, armies }),
                &["country", "armies"],
            ),
            "attack" => (
                b.from
                    .zip(b.to)
                    .map(|(from, to)| Move::Attack { from, to, dice: b.dice }),
                &["from", "to", "dice"],
            ),
            "move_in" => (b.armies.map(|armies| Move::MoveIn { armies }), &["armies"]),
            "end_attack" => (Some(Move::EndAttack), &[]),
            "fortify" => (
                b.from
                    .zip(b.to)
                    .zip(b.armies)
                    .map(|((from, to), armies)| Move::Fortify { from, to, armies }),
                &["from", "to", "armies"],
            ),
            "end_turn" => (Some(Move::EndTurn), &[]),
            other => {
                return Err(ApiError::bad_request(format!(
                    "action: `{other}` is not one of {ACTIONS}"
                )))
            }
        };
        if let Some(f) = given.iter().find(|f| !takes.contains(f)) {
            return Err(ApiError::bad_request(format!(
                "{}: takes no `{f}` ({ACTIONS})",
                b.action
            )));
        }
        mv.ok_or_else(|| ApiError::bad_request(format!("{}: needs {} ({ACTIONS})", b.action, takes.join(", "))))
    }
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetName {
    Generals,
    Kings,
    Queens,
    OneOfEach,
}

impl Move {
    fn action(self, game: &dip_war::Game) -> Action {
        match self {
            Move::TurnIn { set } => Action::TurnIn {
                set: match set {
                    SetName::Generals => Set::Three(Commendation::General),
                    SetName::Kings => Set::Three(Commendation::King),
                    SetName::Queens => Set::Three(Commendation::Queen),
                    SetName::OneOfEach => Set::OneOfEach,
                },
            },
            Move::Deploy { country, armies } => Action::Deploy { country, armies },
            Move::Attack { from, to, dice } => {
                // Fewer dice than armies, at most 3; the engine refuses the rest.
                let armies = game
                    .pos
                    .armies
                    .get((from as usize).wrapping_sub(1))
                    .copied()
                    .unwrap_or(2);
                let most = armies.saturating_sub(1).clamp(1, 3) as u8;
                Action::Attack {
                    from,
                    to,
                    dice: dice.unwrap_or(most),
                }
            }
            Move::MoveIn { armies } => Action::MoveIn { armies },
            Move::EndAttack => Action::EndAttack,
            Move::Fortify { from, to, armies } => Action::Fortify { from, to, armies },
            Move::EndTurn => Action::EndTurn,
        }
    }
}

/// What became of an action.
pub enum Acted {
    Done(Vec<Event>),
    /// The turn's time had run out before the action came: the turn was
    /// rolled back and passed on (stored), the action not played.
    TimedOut {
        at: i64,
    },
}

/// How long the player to move may leave a begun turn before it counts as
/// dropped (the door's lost carrier: its WARxx.REC waits for whoever calls
/// in first).
pub const DROPPED_AFTER_MS: i64 = 10 * 60 * 1000;

/// The turn of the player to move is dropped: begun (only a WARxx.REC
/// holds it) and its player has done nothing in it for
/// [`DROPPED_AFTER_MS`] (a REC file imported is dropped when its player's
/// last move is that old).
pub fn dropped(game: &dip_war::Game, now: i64) -> bool {
    let last = game
        .days
        .moved
        .get((game.pos.current as usize).wrapping_sub(1))
        .copied()
        .flatten();
    game.turn_in_progress()
        && last.is_some_and(|t| {
            let idle_days = super::files::daynum(now) - dip_war::days::day(t);
            idle_days * 86_400_000.0 >= DROPPED_AFTER_MS as f64
        })
}

/// Plays one move of `who`, who must be the player to move, or the player
/// after a dropped turn: "If another player calls back first and takes
/// his turn, this file is deleted and the original game (WARxx.DAT) is used
/// instead" (the door's documentation): the dropped turn is rolled back
/// to its start and skipped, and `who`'s turn begins with this move.
pub fn act(tx: &mut dyn Tx, id: i64, who: &Account, mv: Move) -> ApiResult<Acted> {
    let mut row = load(tx, id, true)?;
    if row.status != WarStatus::Active {
        return Err(ApiError::conflict(format!(
            "the game is {}: there is no turn to play",
            row.status.as_str()
        )));
    }
    let taken = seats(tx, id)?;
    let Some(seat) = seat_of(&taken, who.id) else {
        return Err(ApiError::forbidden("you do not play in this game"));
    };
    let now = now_ms();
    if let Some(at) = row.deadline.filter(|&d| d <= now) {
        if row.game()?.pos.current == seat {
            time_out(tx, &mut row, now)?;
            return Ok(Acted::TimedOut { at });
        }
    }
    let game = row.game()?;
    if game.pos.current != seat && game.next_player() == seat && dropped(game, now) {
        pass_turn(tx, &mut row, Action::Skip, now)?;
    }
    let game = row.game()?;
    if game.pos.current != seat {
        return Err(ApiError::conflict(format!(
            "it is not your turn: {} (seat {}) is to move",
            game.pos.display_name(game.pos.current, Some(seat)),
            game.pos.current
        )));
    }
    let action = mv.action(game);
    let mut game = game.clone();
    let events = game
        .apply_at(action, super::files::daynum(now))
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "illegal_action", e.to_string()))?;
    let text = serde_json::to_string(&action).map_err(|e| ApiError::internal(e.to_string()))?;
    record(tx, &mut row, game, seat, &text, &events, now)?;
    Ok(Acted::Done(events))
}

/// Stores the game after an action and logs the action with its events.
fn record(
    tx: &mut dyn Tx,
    row: &mut WarRow,
    game: dip_war::Game,
    seat: u8,
    action: &str,
    events: &[Event],
    now: i64,
) -> ApiResult<()> {
    let turn = game.pos.turn;
    let new_turn = row.game.as_ref().is_none_or(|g| g.pos.turn != turn);
    let over = game.is_over();
    row.game = Some(game);
    row.actions += 1;
    if new_turn {
        row.deadline = row.options.time_limit.map(|l| now + l);
    }
    if over {
        complete(row, now);
    }
    store(tx, row)?;
    let events = serde_json::to_string(events).map_err(|e| ApiError::internal(e.to_string()))?;
    crate::db::war::log_action(tx, row.id, turn as i64, seat, action, &events, now)?;
    Ok(())
}

/// The game is over: kept for `keep`, its export archived for after.
fn complete(row: &mut WarRow, now: i64) {
    row.status = WarStatus::Completed;
    row.deadline = None;
    row.finished = Some(now);
    row.delete_at = Some(now.saturating_add(row.options.keep));
    if let Some(g) = &row.game {
        row.archive = Some(super::files::game_file(row, g, now).to_bytes());
    }
}

/// The turn's time ran out: back to its start, the next player's turn.
fn time_out(tx: &mut dyn Tx, row: &mut WarRow, now: i64) -> ApiResult<()> {
    pass_turn(tx, row, Action::TimeOut, now).map(|_| ())
}

/// The turn of the player to move passes (timed out or skipped): back to
/// its start, the next player's turn; logged as the passed player's.
fn pass_turn(tx: &mut dyn Tx, row: &mut WarRow, action: Action, now: i64) -> ApiResult<Vec<Event>> {
    let mut game = row.game()?.clone();
    let seat = game.pos.current;
    let events = game
        .apply_at(action, super::files::daynum(now))
        .map_err(|e| ApiError::internal(format!("{action:?} in war game {}: {e}", row.id)))?;
    let text = serde_json::to_string(&action).map_err(|e| ApiError::internal(e.to_string()))?;
    record(tx, row, game, seat, &text, &events, now)?;
    Ok(events)
}

/// `POST …/skip`: the game master (the game's creator) skips the turn of
/// the player to move (one who dropped, or never came): the turn is rolled
/// back to its start and the next player's begins.
pub fn skip(tx: &mut dyn Tx, id: i64, who: &Account) -> ApiResult<Vec<Event>> {
    let mut row = load(tx, id, true)?;
    if row.creator != who.id {
        return Err(ApiError::forbidden(
            "only the game master (the game's creator) skips a turn",
        ));
    }
    if row.status != WarStatus::Active {
        return Err(ApiError::conflict(format!(
            "the game is {}: there is no turn to skip",
            row.status.as_str()
        )));
    }
    pass_turn(tx, &mut row, Action::Skip, now_ms())
}

/// Processes the turns whose time ran out and deletes the completed games
/// whose time is up, each claimed by one server (SKIP LOCKED).
pub fn process_due(db: &Db) -> usize {
    let mut done = 0;
    // Games that failed this round: the others are not held up behind them.
    let mut skip: Vec<i64> = Vec::new();
    loop {
        let now = now_ms();
        let mut claimed: Option<i64> = None;
        let r = db.transaction(|tx| -> ApiResult<bool> {
            if let Some(id) = crate::db::war::claim_timed_out(tx, now, &skip)? {
                claimed = Some(id);
                let mut row = load(tx, id, true)?;
                time_out(tx, &mut row, now)?;
                return Ok(true);
            }
            if let Some(id) = crate::db::war::claim_deletion(tx, now, &skip)? {
                claimed = Some(id);
                crate::db::war::delete(tx, id)?;
                return Ok(true);
            }
            Ok(false)
        });
        match (r, claimed) {
            (Ok(true), _) => done += 1,
            (Ok(false), _) => break,
            (Err(e), Some(id)) => {
                tracing::error!(game = id, "Global War deadline: {}", e.message);
                skip.push(id);
            }
            (Err(e), None) => {
                tracing::error!("Global War deadlines: {}", e.message);
                break;
            }
        }
    }
    done
}

/// `GET …/log`: the actions of the game, newest last (`since`: after that
/// entry).
pub fn log(tx: &mut dyn Tx, id: i64, since: i64, viewer: Option<&Account>) -> ApiResult<serde_json::Value> {
    let row = load(tx, id, false)?;
    let taken = seats(tx, id)?;
    let me = viewer.and_then(|a| seat_of(&taken, a.id));
    let names = super::view::name_viewer(&row, me, viewer);
    let pos = row.game.as_ref().map(|g| &g.pos);
    let entries: Vec<serde_json::Value> = crate::db::war::log(tx, id, since)?
        .iter()
        .map(|e| {
            let events: serde_json::Value = serde_json::from_str(&e.events).unwrap_or_default();
            let action: serde_json::Value = serde_json::from_str(&e.action).unwrap_or_default();
            serde_json::json!({
                "id": e.id,
                "turn": e.turn,
                "seat": e.seat,
                "player": pos.map(|p| p.display_name(e.seat, names)),
                "action": action,
                "events": events,
                "at": iso8601(e.made),
            })
        })
        .collect();
    Ok(serde_json::json!({ "entries": entries }))
}

/// The phase a turn is in, for the API.
pub fn phase_name(p: &Phase) -> &'static str {
    match p {
        Phase::Deploy { .. } => "deploy",
        Phase::Attack => "attack",
        Phase::Occupy { .. } => "move_in",
        Phase::Fortify => "fortify",
        Phase::Over => "over",
    }
}
