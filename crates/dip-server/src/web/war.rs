//! The Global War pages: `/war` (games, a new game) and `/war/{id}` (sign
//! up, vote, and play the turn by clicking the map; war.js calls the API).
//! Every action reloads the page from the stored game, so what the player
//! sees after a closed browser or a restarted server is what they left.

use super::pages::layout;
use super::{csrf, who, Page, WebResult};
use crate::auth::Account;
use crate::war::{self, WarStatus};
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::Router;
use dip_war::map;
use maud::{html, Markup, PreEscaped};
use serde_json::Value;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/war", get(list_page))
        .route("/war/{id}", get(game_page))
}

async fn list_page(State(st): State<AppState>, headers: HeaderMap) -> WebResult<Page> {
    let (csrf, new_csrf) = csrf(&headers);
    let me = who(&st, &headers).await;
    let me2 = me.clone();
    let games = st.read(move |tx| war::signup::list(tx, me2.as_ref())).await?;
    Ok(Page {
        html: list_html(me.as_ref(), &csrf, &games["games"]),
        new_csrf,
    })
}

fn list_html(me: Option<&Account>, csrf: &str, games: &Value) -> String {
    let list = games.as_array().cloned().unwrap_or_default();
    layout(
        "Global War",
        me,
        csrf,
        Some("/assets/war.js"),
        html! {
            main.lobby.war-list {
                section {
                    h2 { "Global War games" }
                    @if list.is_empty() { p.muted { "None." } } @else {
                        table.games id="war-games" {
                            thead { tr { th { "Game" } th { "Status" } th { "Players" } th { "Teams" } th { "Your seat" } } }
                            tbody { @for g in &list { tr {
                                td { a href={"/war/" (g["id"])} { (g["name"].as_str().unwrap_or("")) } }
                                td { (g["status"].as_str().unwrap_or("")) }
                                td { (g["players"]) " (" (g["range"]["min"]) "–" (g["range"]["max"]) ")" }
                                td { @if g["teams"] == true { "yes" } }
                                td { @if let Some(s) = g["your_seat"].as_u64() { (s) } }
                            } } }
                        }
                    }
                }
                @if me.is_some() {
                    section {
                        h2 { "New Global War game" }
                        form.grid id="new-war" {
                            label { "Name" input name="name" required maxlength="100"; }
                            label { "Players" select name="players" {
                                @for r in ["3", "3-4", "3-5", "3-6", "4", "4-5", "4-6", "5", "5-6", "6"] {
                                    option value=(r) selected[r == "3-6"] { (r) }
                                }
                            } }
                            label { "Turn time limit" input name="time_limit" placeholder="24h (empty: none)"; }
                            label { "Keep after the end" input name="keep" placeholder="7d"; }
                            label { input type="checkbox" name="hidden_names"; " hidden names" }
                            label { input type="checkbox" name="unlimited_fortifications"; " unlimited fortifications" }
                            label { input type="checkbox" name="teams"; " team game (3 teams, 3–6 players)" }
                            // One field per team: a password may hold any
                            // character, a comma too.
                            @for t in 1..=3 {
                                label { "Team " (t) " password" input name={ "password" (t) } maxlength="40"; }
                            }
                            button type="submit" { "Create" }
                        }
                        p.error id="error" role="alert" {}
                    }
                }
            }
        },
    )
}

async fn game_page(State(st): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> WebResult<Page> {
    let (csrf, new_csrf) = csrf(&headers);
    let id = crate::routes::game_id_of(&id)?;
    let me = who(&st, &headers).await;
    let me2 = me.clone();
    let (view, log, svg) = st
        .read(move |tx| {
            let row = war::load(tx, id, false)?;
            let view = war::view::view(tx, &row, me2.as_ref())?;
            let log = war::turn::log(tx, id, 0, me2.as_ref())?;
            let svg = match (&row.status, &row.game) {
                (WarStatus::Active | WarStatus::Completed, Some(_)) => {
                    Some(war::view::map_svg(tx, id, me2.as_ref(), map::View::Globe)?)
                }
                _ => None,
            };
            Ok((view, log, svg))
        })
        .await?;
    Ok(Page {
        html: game_html(me.as_ref(), &csrf, &view, &log["entries"], svg.as_deref()),
        new_csrf,
    })
}

fn seat_name(g: &Value, seat: u64) -> String {
    g["seats"]
        .as_array()
        .and_then(|s| s.iter().find(|p| p["seat"] == seat))
        .and_then(|p| p["name"].as_str())
        .map(String::from)
        .unwrap_or_else(|| format!("Player {seat}"))
}

fn country(c: &Value) -> &'static str {
    c.as_u64().and_then(|c| map::name(c as u8)).unwrap_or("?")
}

fn dice(d: &Value) -> String {
    d.as_array()
        .map(|v| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// One event as a line of the log.
fn describe(g: &Value, e: &Value) -> Option<String> {
    let (kind, d) = e.as_object()?.iter().next()?;
    let seat = |k: &str| seat_name(g, d[k].as_u64().unwrap_or(0));
    Some(match kind.as_str() {
        "TurnBegan" => format!("{}'s turn: {} armies", seat("player"), d["armies"]),
        "TurnedIn" => format!("{} turned in a set for {} armies", seat("player"), d["armies"]),
        "Deployed" => format!("{} armies to {}", d["armies"], country(&d["country"])),
        "Battle" => format!(
            "{} → {}: dice {} against {}; attacker lost {}, defender {}",
            country(&d["from"]),
            country(&d["to"]),
            dice(&d["attack"]),
            dice(&d["defence"]),
            d["attacker_lost"],
            d["defender_lost"]
        ),
        "Conquered" => format!("{} conquered {}", seat("by"), country(&d["country"])),
        "MovedIn" => format!("{} armies moved in to {}", d["armies"], country(&d["to"])),
        "Eliminated" => format!("{} was eliminated by {}", seat("player"), seat("by")),
        "Fortified" => format!(
            "{} armies from {} to {}",
            d["armies"],
            country(&d["from"]),
            country(&d["to"])
        ),
        "Commendation" => format!("{} received a commendation", seat("player")),
        "TimedOut" => format!("{}'s time ran out: the turn was rolled back", seat("player")),
        "Skipped" => format!("{}'s turn was skipped and rolled back", seat("player")),
        "Won" => "The game is won".to_string(),
        _ => return None,
    })
}

fn hint(g: &Value, mine: bool) -> String {
    let t = &g["turn"];
    if !mine {
        return format!("Waiting for {}.", seat_name(g, t["seat"].as_u64().unwrap_or(0)));
    }
    match t["phase"].as_str().unwrap_or("") {
        "deploy" => format!(
            "Your turn: click one of your countries to deploy armies ({} left).",
            t["armies_to_deploy"]
        ),
        "attack" => "Attack: click one of your countries, then an enemy country beside it.".into(),
        "move_in" => format!(
            "Conquered! Choose how many armies move in ({} to {}).",
            t["move_in"]["min"], t["move_in"]["max"]
        ),
        "fortify" => "Fortify: click the country to move from, then the one to move to.".into(),
        _ => String::new(),
    }
}

fn game_html(me: Option<&Account>, csrf: &str, g: &Value, log: &Value, svg: Option<&str>) -> String {
    let id = g["id"].as_i64().unwrap_or(0);
    let you = g["your_seat"].as_u64();
    let status = g["status"].as_str().unwrap_or("");
    let t = &g["turn"];
    let mine = you.is_some() && t["seat"].as_u64() == you;
    let phase = if mine { t["phase"].as_str().unwrap_or("") } else { "" };
    let body: Markup = html! {
        main.war data-game=(id) data-seat=(you.map(|s| s.to_string()).unwrap_or_default())
            data-phase=(phase) data-version=(g["version"].as_str().unwrap_or("")) data-status=(status) {
            (war_head(g, status, mine))
            @if status == "signup" { (signup(g, me, you)) }
            @if let Some(svg) = svg {
                div.war-board {
                    div id="map" class={"war-map" @if mine { " mine" }} { (PreEscaped(svg)) }
                    aside id="side" {
                        @if mine { (controls(g, you, phase)) }
                        (players_table(g))
                        (log_section(g, log))
                    }
                }
            }
            @if status == "completed" || status == "deleted" {
                p { a id="export" href={"/api/v1/war/games/" (id) "/export"} { "Download the WARxx.DAT file" } }
            } @else if status == "active" {
                p { a id="export" href={"/api/v1/war/games/" (id) "/export"} { "Download the game file (DAT, or REC mid-turn)" } }
            } @else if status == "signup" {
                p { a id="export" href={"/api/v1/war/games/" (id) "/export"} { "Download the WARxx.DAT file (sign-up)" } }
            }
        }
    };
    layout(
        &format!("{} · Global War", g["name"].as_str().unwrap_or("")),
        me,
        csrf,
        Some("/assets/war.js"),
        body,
    )
}

/// The game's name, status, whose turn it is, the winners and a hint.
fn war_head(g: &Value, status: &str, mine: bool) -> Markup {
    let t = &g["turn"];
    html! {
        div.game-head {
            h1 { (g["name"].as_str().unwrap_or("")) }
            p id="status" {
                (status)
                @if let Some(n) = t["number"].as_u64() {
                    " · turn " (n) ": " (seat_name(g, t["seat"].as_u64().unwrap_or(0))) " (" (t["phase"].as_str().unwrap_or("")) ")"
                }
                @if let Some(d) = t["deadline"].as_str() { " · time limit " span.countdown data-deadline=(d) { (d) } }
                @if let Some(w) = g["winners"].as_array().filter(|w| !w.is_empty()) {
                    " · won by " (w.iter().map(|s| seat_name(g, s.as_u64().unwrap_or(0))).collect::<Vec<_>>().join(", "))
                }
            }
            p id="hint" { (if status == "active" { hint(g, mine) } else { String::new() }) }
            // The game master passes the turn of a player who dropped
            // or never came (POST …/skip; anyone else is refused).
            @if status == "active" && g["game_master"] == true {
                button id="skip" { "Skip " (seat_name(g, t["seat"].as_u64().unwrap_or(0))) "'s turn" }
            }
            p.error id="error" role="alert" {}
        }
    }
}

/// The sign-up: the options, the seats taken, and join, vote or leave.
fn signup(g: &Value, me: Option<&Account>, you: Option<u64>) -> Markup {
    html! {
        section id="signup" {
            h2 { "Sign-up" }
            p { "Players " (g["options"]["players"]["min"]) "–" (g["options"]["players"]["max"])
                @if g["options"]["teams"] == true { ", three teams" }
                @if let Some(l) = g["options"]["time_limit"].as_str() { ", turns of " (l) } }
            ul { @for s in g["seats"].as_array().cloned().unwrap_or_default() {
                li { "Seat " (s["seat"]) ": " (s["name"].as_str().unwrap_or("")) " — " (if s["vote"] == true { "votes to start" } else { "waits" }) }
            } }
            @if me.is_some() {
                @if you.is_none() {
                    @if g["options"]["teams"] == true { input id="password" placeholder="team password"; }
                    button id="join" { "Join" }
                } @else {
                    button id="vote-yes" { "Vote to start" }
                    button id="vote-no" { "Vote to wait" }
                    button id="leave" { "Leave" }
                }
            }
        }
    }
}

/// The sets of commendations seat `you` can turn in: (key, label).
fn turn_in_sets(g: &Value, you: Option<u64>) -> Vec<(&'static str, &'static str)> {
    let me_seat = g["seats"]
        .as_array()
        .and_then(|s| s.iter().find(|p| p["seat"].as_u64() == you).cloned())
        .unwrap_or_default();
    let hand = &me_seat["commendations"];
    let count = |k: &str| hand[k].as_u64().unwrap_or(0);
    [
        ("generals", "three Generals", count("general") >= 3),
        ("kings", "three Kings", count("king") >= 3),
        ("queens", "three Queens", count("queen") >= 3),
        (
            "one_of_each",
            "one of each",
            count("general") >= 1 && count("king") >= 1 && count("queen") >= 1,
        ),
    ]
    .into_iter()
    .filter(|s| s.2)
    .map(|s| (s.0, s.1))
    .collect()
}

/// The player on turn's armies, dice and the buttons of the phase.
fn controls(g: &Value, you: Option<u64>, phase: &str) -> Markup {
    let t = &g["turn"];
    let sets = turn_in_sets(g, you);
    let default_armies = match phase {
        "deploy" => t["armies_to_deploy"].as_u64().unwrap_or(1),
        "move_in" => t["move_in"]["max"].as_u64().unwrap_or(1),
        _ => 1,
    };
    html! {
        section id="controls" {
            label { "Armies " input id="armies" type="number" min="1" value=(default_armies); }
            @if phase == "attack" {
                label { " Dice " select id="dice" {
                    option value="" { "most" } option value="3" { "3" } option value="2" { "2" } option value="1" { "1" }
                } }
            }
            div.buttons {
                @if phase == "deploy" { @for (k, label) in &sets {
                    button.turn-in data-set=(k) { "Turn in " (label) }
                } }
                @if phase == "move_in" { button id="move-in" { "Move in" } }
                @if phase == "attack" { button id="end-attack" { "Stop attacking (fortify)" } }
                @if phase == "attack" || phase == "fortify" { button id="end-turn" { "End turn" } }
            }
        }
    }
}

/// Each seat's player, countries, armies and commendations.
fn players_table(g: &Value) -> Markup {
    html! {
        section id="players" {
            table { thead { tr { th { "Seat" } th { "Player" } th { "Countries" } th { "Armies" } th { "G K Q" } } }
            tbody { @for s in g["seats"].as_array().cloned().unwrap_or_default() {
                tr class={ @if s["alive"] == false { "out" } } {
                    td { (s["seat"]) @if let Some(team) = s["team"].as_u64() { " (team " (team) ")" } }
                    td { (s["name"].as_str().unwrap_or("")) }
                    td { (s["countries"]) } td { (s["armies"]) }
                    td { (s["commendations"]["general"]) " " (s["commendations"]["king"]) " " (s["commendations"]["queen"]) }
                }
            } } }
            p.muted { "Sets turned in: " (g["sets_turned_in"]) "; the next is worth " (g["next_set_value"]) "." }
        }
    }
}

/// The last 40 log entries, newest first, one line an event.
fn log_section(g: &Value, log: &Value) -> Markup {
    let entries = log.as_array().cloned().unwrap_or_default();
    html! {
        section id="log" {
            h2 { "Log" }
            ul { @for e in entries.iter().rev().take(40) {
                @for line in e["events"].as_array().cloned().unwrap_or_default().iter().filter_map(|ev| describe(g, ev)) {
                    li.battle[line.contains("dice")] { (line) }
                }
            } }
        }
    }
}
