//! The pages' HTML. maud escapes every value, so names, titles and press
//! show as text; the map's SVG, drawn by dip-render from the variant and
//! the position (no user text but the escaped province names), is the only
//! markup put in as it is.

use crate::auth::Account;
use axum::http::StatusCode;
use maud::{html, Markup, PreEscaped, DOCTYPE};
use serde_json::Value;

pub(super) fn layout(title: &str, me: Option<&Account>, csrf: &str, script: Option<&str>, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="csrf" content=(csrf);
                title { (title) " · dip" }
                link rel="stylesheet" href="/assets/style.css";
                @if let Some(s) = script {
                    script type="module" src=(s) {}
                }
            }
            body {
                header.top {
                    a.brand href="/" { "dip" }
                    nav {
                        a href="/war" { "Global War" }
                        @match me {
                            Some(a) => {
                                span.me { (a.name) }
                                form.inline method="post" action="/logout" {
                                    input type="hidden" name="csrf" value=(csrf);
                                    button type="submit" id="logout" { "Log out" }
                                }
                            }
                            None => {
                                a href="/login" { "Log in" }
                                a href="/signup" { "Sign up" }
                            }
                        }
                    }
                }
                (body)
            }
        }
    }
    .into_string()
}

pub fn error(status: StatusCode, message: &str, me: Option<&Account>, csrf: &str) -> String {
    layout(
        "Error",
        me,
        csrf,
        None,
        html! {
            main.narrow {
                h1 { (status.as_u16()) " " (status.canonical_reason().unwrap_or("")) }
                p.error { (message) }
                p { a href="/" { "Back to the lobby" } }
            }
        },
    )
}

pub fn account_form(csrf: &str, signup: bool, message: Option<&str>) -> String {
    let (title, action, button) = if signup {
        ("Sign up", "/signup", "Create account")
    } else {
        ("Log in", "/login", "Log in")
    };
    layout(
        title,
        None,
        csrf,
        None,
        html! {
            main.narrow {
                h1 { (title) }
                @if let Some(m) = message { p.error role="alert" { (m) } }
                form.stack method="post" action=(action) {
                    input type="hidden" name="csrf" value=(csrf);
                    label { "Name" input name="name" id="name" autocomplete="username" required minlength="2" maxlength="32"; }
                    label { "Password" input name="password" id="password" type="password" required minlength="8"
                        autocomplete=(if signup { "new-password" } else { "current-password" }); }
                    button type="submit" id="submit" { (button) }
                }
                @if signup {
                    p { "Have an account? " a href="/login" { "Log in" } }
                } @else {
                    p { "New here? " a href="/signup" { "Sign up" } }
                }
            }
        },
    )
}

fn deadline(g: &Value) -> Markup {
    html! {
        @if let Some(d) = g["deadline"].as_str() {
            span.countdown data-deadline=(d) { (d) }
        } @else if g["paused"] == true {
            span.countdown { "paused" }
        } @else {
            span.countdown { "no deadline" }
        }
    }
}

/// A game's deadline settings: `movement 24h · retreat 1h · adjustment by hand`.
fn deadline_settings(g: &Value) -> String {
    let d = &g["deadlines"];
    let each: Vec<String> = ["movement", "retreat", "adjustment"]
        .iter()
        .map(|k| format!("{k} {}", d[*k].as_str().unwrap_or("by hand")))
        .collect();
    if each.iter().all(|e| e.ends_with("by hand")) {
        "by hand".into()
    } else {
        each.join(" · ")
    }
}

fn game_row(g: &Value, me: Option<&Account>, csrf: &str, join: bool) -> Markup {
    let id = g["id"].as_i64().unwrap_or(0);
    let you = &g["you"];
    let needs = you["power"].is_string()
        && g["powers"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .any(|p| p["name"] == you["power"] && p["must_order"] == true && p["orders_submitted"] == false)
            })
            .unwrap_or(false);
    let forming = g["status"] == "forming";
    let seats = if forming { Vec::new() } else { super::open_seats(g) };
    let choose = if forming && g["assignment"] == "choice" {
        free_powers(g)
    } else {
        Vec::new()
    };
    html! {
        tr data-game=(id) {
            td { a href={"/games/" (id)} { (g["name"].as_str().unwrap_or("")) } }
            td { (g["variant_title"].as_str().unwrap_or("")) }
            td { (g["status"].as_str().unwrap_or("")) " " (g["phase_title"].as_str().unwrap_or("")) }
            td {
                (g["joined"]) " / " (g["players"]["max"])
                @if !seats.is_empty() { br; span.open-seats { "open: " (seats.join(", ")) } }
            }
            td {
                // Open games: the settings (a forming game has no deadline
                // yet), and the live deadline of a running one.
                @if !join {
                    (deadline(g))
                } @else {
                    @if g["deadline"].is_string() { (deadline(g)) br; }
                    span.deadlines.muted { (deadline_settings(g)) }
                }
            }
            td { (g["press"].as_str().unwrap_or("")) @if g["anonymous"] == true { ", anonymous" } }
            td {
                @if needs { span.needs title="orders needed" { "orders needed" } }
                @if join && me.is_some() && you.is_null() {
                    form.inline method="post" action={"/games/" (id) "/join"} {
                        input type="hidden" name="csrf" value=(csrf);
                        @if !seats.is_empty() {
                            select name="power" aria-label="Power" {
                                @for p in &seats { option value=(p) { (p) } }
                            }
                            " "
                        }
                        @if !choose.is_empty() {
                            select name="power" aria-label="Power" {
                                option value="" { "any power" }
                                @for p in &choose { option value=(p) { (p) } }
                            }
                            " "
                        }
                        button type="submit" class="join" { "Join" }
                    }
                }
            }
        }
    }
}

/// The powers of a forming game that no player has chosen yet.
fn free_powers(g: &Value) -> Vec<String> {
    let chosen: Vec<&str> = g["waiting"]
        .as_array()
        .map(|w| w.iter().filter_map(|m| m["wanted"].as_str()).collect())
        .unwrap_or_default();
    g["powers"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .filter(|p| p["player"].is_null())
                .filter_map(|p| p["name"].as_str())
                .filter(|n| !chosen.contains(n))
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Who has joined a forming game, and the power each chose.
fn joined(g: &Value) -> Markup {
    let waiting = g["waiting"].as_array().cloned().unwrap_or_default();
    let free = free_powers(g);
    html! {
        section #joined-players {
            h2 { "Joined (" (waiting.len()) " of " (g["players"]["max"]) ")" }
            @if waiting.is_empty() { p.muted { "Nobody yet." } }
            ul {
                @for m in &waiting {
                    li data-player=(m["player"].as_str().unwrap_or("")) {
                        (m["player"].as_str().unwrap_or(""))
                        " · "
                        @match m["wanted"].as_str() {
                            Some(p) => { (p) }
                            None => span.muted { @if g["assignment"] == "choice" { "any power" } @else { "a power drawn at the start" } },
                        }
                    }
                }
            }
            @if g["assignment"] == "choice" {
                p.muted #free-powers { "Free: " (free.join(", ")) }
            }
        }
    }
}

fn games_table(games: &Value, me: Option<&Account>, csrf: &str, join: bool, id: &str) -> Markup {
    let list = games.as_array().cloned().unwrap_or_default();
    html! {
        @if list.is_empty() {
            p.muted { "None." }
        } @else {
            table.games id=(id) {
                thead { tr { th { "Game" } th { "Variant" } th { "Phase" } th { "Seats" } th { "Deadline" } th { "Press" } th {} } }
                tbody { @for g in &list { (game_row(g, me, csrf, join)) } }
            }
        }
    }
}

pub fn lobby(
    me: Option<&Account>,
    csrf: &str,
    open: &Value,
    mine: &Value,
    variants: &[(String, String, Vec<String>)],
    daide: bool,
) -> String {
    layout(
        "Lobby",
        me,
        csrf,
        Some("/assets/lobby.js"),
        html! {
            main.lobby {
                @if me.is_some() {
                    section {
                        h2 { "My games" }
                        (games_table(mine, me, csrf, false, "my-games"))
                    }
                }
                section {
                    h2 { "Open games" }
                    (games_table(open, me, csrf, true, "open-games"))
                }
                @if me.is_some() {
                    section {
                        h2 { "New game" }
                        form.grid method="post" action="/games/new" id="new-game" {
                            input type="hidden" name="csrf" value=(csrf);
                            label { "Name" input name="name" required maxlength="100"; }
                            label { "Variant" select name="variant" id="variant" {
                                @for (name, title, _) in variants {
                                    option value=(name) selected[name == "standard"] { (title) }
                                }
                            } }
                            label { "Players (min)" input name="min" type="number" min="1" max="50" placeholder="all powers"; }
                            label { "Players (max)" input name="max" type="number" min="1" max="50" placeholder="all powers"; }
                            label { "Movement deadline" input name="movement" placeholder="24h (empty: by hand)"; }
                            label { "Retreat deadline" input name="retreat" placeholder="1h"; }
                            label { "Adjustment deadline" input name="adjustment" placeholder="1h"; }
                            label { "Press" select name="press" {
                                option value="full" { "full" } option value="public" { "public only" } option value="none" { "none (gunboat)" }
                            } }
                            label { "Powers" select name="assignment" {
                                option value="choice" { "players choose" } option value="random" { "drawn at random" }
                            } }
                            label { "Civil disorder after missed phases" input name="civil_disorder_after" type="number" min="1" max="100" value="2"; }
                            label.check { input type="checkbox" name="anonymous"; "Anonymous (names hidden until the end)" }
                            label.check { input type="checkbox" name="private" id="private"; "Private (seen and joined only by invitation link or password)" }
                            label { "Password (private games, optional)" input name="password" id="game-password" type="password" autocomplete="new-password"; }
                            // Only a server started with DAIDE ports can give a game one.
                            @if daide { label.check { input type="checkbox" name="daide"; "Bots may join (DAIDE)" } }
                            label.check { input type="checkbox" name="join" checked; "Join it myself as" }
                            label { "Power" select name="power" id="power" {
                                option value="" { "any (drawn at the start)" }
                                @for (name, _, powers) in variants {
                                    @for p in powers { option value=(p) data-variant=(name) hidden[name != "standard"] { (p) } }
                                }
                            } }
                            button type="submit" id="create" { "Create game" }
                        }
                    }
                } @else {
                    p { a href="/login" { "Log in" } " or " a href="/signup" { "sign up" } " to create and join games." }
                }
            }
        },
    )
}

pub fn game(me: Option<&Account>, csrf: &str, g: &Value, svg: &str, last_event: i64, invite: Option<&str>) -> String {
    let id = g["id"].as_i64().unwrap_or(0);
    let player = g["you"]["power"].is_string();
    // A finished game is view only, for its game master too.
    let gm = g["game_master"] == true && g["status"] != "finished";
    let running = g["status"] == "active";
    let title = g["name"].as_str().unwrap_or("");
    let powers = g["powers"].as_array().cloned().unwrap_or_default();
    let my_power = g["you"]["power"].as_str().unwrap_or("");
    layout(
        title,
        me,
        csrf,
        Some("/assets/game.js"),
        html! {
            main.game data-game=(id) data-player=(player) data-gm=(gm) data-events=(last_event) {
                (board_section(svg))
                aside #side {
                    (game_head(g, title))
                    // A private game: the game master's invitation link; an
                    // invited visitor's join form.
                    @if let Some(token) = g["invite"].as_str() {
                        p #invitation { "Private game. Invitation link: " a #invite-link href={"/games/" (id) "?invite=" (token)} { "/games/" (id) "?invite=" (token) } }
                    }
                    @if me.is_some() && g["you"].is_null() && g["status"] == "forming" && (invite.is_some() || g["private"] != true) {
                        form #join-form method="post" action={"/games/" (id) "/join"} {
                            input type="hidden" name="csrf" value=(csrf);
                            @if let Some(t) = invite { input type="hidden" name="invite" value=(t); }
                            @if g["assignment"] == "choice" {
                                label { "Power" select name="power" {
                                    option value="" { "any power" }
                                    @for p in &free_powers(g) { option value=(p) { (p) } }
                                } }
                            } @else {
                                p.muted { "Powers are drawn at random when the game starts." }
                            }
                            button type="submit" id="join-game" { "Join this game" }
                        }
                    }
                    @if g["status"] == "forming" { (joined(g)) }
                    (powers_table(&powers))
                    @if player && running { (ordering(my_power)) }
                    (press(g, player, &powers, my_power))
                    (history(id))
                    @if gm { (gm_tools(g)) }
                    p #error.error role="alert" {}
                }
            }
        },
    )
}

/// The map with its zoom, results and history controls.
fn board_section(svg: &str) -> Markup {
    html! {
        section #board {
            div.map-tools {
                button #zoom-in type="button" title="Zoom in" { "+" }
                button #zoom-out type="button" title="Zoom out" { "−" }
                button #zoom-reset type="button" title="Whole map" { "⤢" }
                label #results-toggle title="The last phase's orders and results on the map" hidden {
                    input #show-results type="checkbox" checked; "Results"
                }
                span #history-mark hidden { "history" }
            }
            div #map { (PreEscaped(svg)) }
        }
    }
}

/// The game's name, phase, deadline, status and result.
fn game_head(g: &Value, title: &str) -> Markup {
    html! {
        header.game-head {
            h1 #game-name { (title) }
            p {
                span #phase { (g["phase_title"].as_str().unwrap_or("")) }
                " · " (deadline(g))
                " · " span #status { (g["status"].as_str().unwrap_or("")) }
            }
            @if let Some(r) = g["result"].as_str() { p.result { (r) } }
        }
    }
}

/// Each power's player, centres, and whether it has ordered and is ready.
fn powers_table(powers: &[Value]) -> Markup {
    html! {
        table #powers {
            thead { tr { th { "Power" } th { "Player" } th { "Centres" } th { "Orders" } th { "Ready" } } }
            tbody {
                @for p in powers {
                    tr data-power=(p["name"].as_str().unwrap_or("")) {
                        td { (p["name"].as_str().unwrap_or("")) }
                        td { (p["player"].as_str().unwrap_or("—")) }
                        td { (p["centre_count"]) }
                        td.submitted { @if p["orders_submitted"] == true { "✓" } }
                        td.ready { @if p["ready"] == true { "✓" } }
                    }
                }
            }
        }
    }
}

/// A player's order entry: order types, the orders, and ready, draw and
/// concede.
fn ordering(my_power: &str) -> Markup {
    html! {
        section #ordering {
            h2 { "Orders for " (my_power) }
            div #modes role="group" aria-label="Order type" {
                button type="button" data-mode="move" class="on" { "Move" }
                button type="button" data-mode="hold" { "Hold" }
                button type="button" data-mode="support" { "Support" }
                button type="button" data-mode="convoy" { "Convoy" }
                button type="button" data-mode="build" { "Build" }
                button type="button" data-mode="disband" { "Disband" }
                button type="button" id="waive" { "Waive" }
            }
            p #hint.muted { "Click a unit, then where it goes. Double-click: hold. Shift: support. Ctrl: convoy." }
            div #chooser hidden {}
            textarea #orders rows="8" spellcheck="false" aria-label="Orders, one a line" {}
            ol #checked {}
            p #save-state.muted {}
            div.buttons {
                button #ready type="button" { "Ready" }
                button #draw type="button" { "Vote draw" }
                button #concede type="button" { "Concede" }
            }
        }
    }
}

/// The messages, and a player's form to send press to all or (full
/// press) to chosen powers.
fn press(g: &Value, player: bool, powers: &[Value], my_power: &str) -> Markup {
    html! {
        section #press {
            h2 { "Press" }
            ul #messages {}
            @if player && g["press"] != "none" && g["status"] != "finished" {
                form #send {
                    div #recipients {
                        label.check { input type="checkbox" value="all" checked; "All" }
                        @if g["press"] == "full" {
                            @for p in powers {
                                @if p["name"].as_str() != Some(my_power) {
                                    label.check { input type="checkbox" value=(p["name"].as_str().unwrap_or("")); (p["name"].as_str().unwrap_or("")) }
                                }
                            }
                        }
                    }
                    textarea #message rows="2" maxlength="10000" aria-label="Message" {}
                    button type="submit" { "Send" }
                }
            }
        }
    }
}

/// The phase slider, report and edits of past phases, and the exports.
fn history(id: i64) -> Markup {
    html! {
        section #history {
            h2 { "History" }
            div.buttons {
                input #slider type="range" min="0" max="0" value="0" aria-label="Phase";
                button #play type="button" { "Play" }
                button #current type="button" { "Now" }
            }
            p #history-phase.muted {}
            div #report {}
            ul #edits.muted {}
            p {
                a href={"/api/v1/games/" (id) "/export?format=mila"} download { "MILA JSON" }
                " · "
                a href={"/api/v1/games/" (id) "/export?format=dipwork"} download { "DipWork game (tar)" }
                " · "
                a href={"/api/v1/games/" (id) "/animation.png"} target="_blank" { "Animation" }
            }
        }
    }
}

/// The game master's pause, extend, process, start and edits.
fn gm_tools(g: &Value) -> Markup {
    html! {
        section #gm {
            h2 { "Game master" }
            div.buttons {
                button #gm-pause type="button" { (if g["paused"] == true { "Resume" } else { "Pause" }) }
                input #gm-extend placeholder="1h" size="5";
                button #gm-extend-go type="button" { "Extend" }
                button #gm-process type="button" { "Process now" }
                @if g["status"] == "forming" { button #gm-start type="button" { "Start" } }
            }
            p.muted { "Edits, one a line: add France A bur · remove bur · move bur par · owner bel France · phase F1902M · title New name · player France alice" }
            textarea #gm-edits rows="4" spellcheck="false" aria-label="Edits" {}
            button #gm-apply type="button" { "Apply edits" }
            p #gm-state.muted {}
        }
    }
}
