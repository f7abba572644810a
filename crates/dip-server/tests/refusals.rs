//! Every permission refusal answers 4xx with the API's error and leaves
//! the database exactly as it was.

mod common;

use axum::http::{Method, StatusCode};
use common::{fingerprint, token_of, TestApp};
use serde_json::{json, Value};

/// The request is refused with `status`, and nothing stored changed.
async fn refused(app: &TestApp, method: Method, path: &str, token: Option<&str>, body: Option<Value>, status: u16) {
    let before = fingerprint(&app.state);
    let (s, v) = app.call(method.clone(), path, token, body).await;
    assert_eq!(s.as_u16(), status, "{method} {path}: {v}");
    assert!(v["error"]["message"].is_string(), "{method} {path}: {v}");
    assert_eq!(fingerprint(&app.state), before, "{method} {path} changed the database");
}

#[tokio::test]
async fn permission_refusals_change_nothing() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"deadlines": {"movement": "1h"}})).await;
    let gm = tokens[0].1.clone();
    let fr = token_of(&tokens, "France").to_string();
    let outsider = app.user("outsider").await;
    let g = format!("/api/v1/games/{id}");
    an_outsider_plays_no_part(&app, &g, &outsider).await;
    only_the_game_master_runs_the_game(&app, &g, &[&outsider, &fr]).await;
    no_token_or_a_bad_one_is_refused(&app, &g).await;
    a_started_game_is_not_started_or_joined_again(&app, &g, &gm, &outsider, &fr).await;
    a_forming_game_takes_no_play(&app, &outsider, &fr).await;
}

/// Not a player of the game: no ready, no votes, no orders, no press.
async fn an_outsider_plays_no_part(app: &TestApp, g: &str, outsider: &str) {
    let post = Method::POST;
    for (what, body) in [
        ("ready", json!({"ready": true})),
        ("draw", json!({"vote": true})),
        ("concede", json!({"vote": true})),
        ("messages", json!({"to": "all", "text": "hello"})),
    ] {
        refused(
            app,
            post.clone(),
            &format!("{g}/{what}"),
            Some(outsider),
            Some(body.clone()),
            403,
        )
        .await;
        refused(app, post.clone(), &format!("{g}/{what}"), None, Some(body), 401).await;
    }
    refused(
        app,
        Method::PUT,
        &format!("{g}/orders"),
        Some(outsider),
        Some(json!({"orders": ["A par H"]})),
        403,
    )
    .await;
    refused(app, Method::GET, &format!("{g}/orders"), Some(outsider), None, 403).await;
    refused(app, Method::GET, &format!("{g}/legal"), Some(outsider), None, 403).await;
}

/// Only the game master pauses, processes, edits; a player is no game master.
async fn only_the_game_master_runs_the_game(app: &TestApp, g: &str, others: &[&str]) {
    let post = Method::POST;
    for token in others {
        refused(app, Method::PATCH, g, Some(token), Some(json!({"paused": true})), 403).await;
        refused(
            app,
            post.clone(),
            &format!("{g}/process"),
            Some(token),
            Some(json!({})),
            403,
        )
        .await;
        refused(
            app,
            post.clone(),
            &format!("{g}/edit"),
            Some(token),
            Some(json!({"edits": ["remove mar"]})),
            403,
        )
        .await;
    }
}

/// No token, or a bad one.
async fn no_token_or_a_bad_one_is_refused(app: &TestApp, g: &str) {
    let post = Method::POST;
    refused(app, Method::PATCH, g, None, Some(json!({"paused": true})), 401).await;
    refused(
        app,
        Method::PATCH,
        g,
        Some(&"0".repeat(64)),
        Some(json!({"name": "x"})),
        401,
    )
    .await;
    refused(app, post.clone(), &format!("{g}/process"), None, Some(json!({})), 401).await;
    refused(app, Method::GET, &format!("{g}/events"), Some("not-a-token"), None, 401).await;
    refused(
        app,
        Method::GET,
        &format!("{g}/events"),
        Some(&"a".repeat(64)),
        None,
        401,
    )
    .await;
}

/// The game has started: no second start, no joining a full game, no
/// leaving it; and a game that does not exist.
async fn a_started_game_is_not_started_or_joined_again(app: &TestApp, g: &str, gm: &str, outsider: &str, fr: &str) {
    let post = Method::POST;
    refused(app, post.clone(), &format!("{g}/start"), Some(gm), Some(json!({})), 409).await;
    refused(
        app,
        post.clone(),
        &format!("{g}/join"),
        Some(outsider),
        Some(json!({})),
        409,
    )
    .await;
    refused(
        app,
        post.clone(),
        &format!("{g}/leave"),
        Some(outsider),
        Some(json!({})),
        409,
    )
    .await;
    // Unknown games.
    refused(
        app,
        post.clone(),
        "/api/v1/games/999/ready",
        Some(fr),
        Some(json!({"ready": true})),
        404,
    )
    .await;
}

/// A forming game: no press, orders, ready or votes yet.
async fn a_forming_game_takes_no_play(app: &TestApp, outsider: &str, fr: &str) {
    let post = Method::POST;
    let (_, v) = app
        .post("/api/v1/games", Some(outsider), json!({"name": "Forming"}))
        .await;
    let f = format!("/api/v1/games/{}", v["id"]);
    let (s, _) = app
        .post(&format!("{f}/join"), Some(fr), json!({"power": "France"}))
        .await;
    assert_eq!(s, StatusCode::OK);
    refused(
        app,
        post.clone(),
        &format!("{f}/messages"),
        Some(fr),
        Some(json!({"to": "all", "text": "hi"})),
        409,
    )
    .await;
    refused(
        app,
        Method::PUT,
        &format!("{f}/orders"),
        Some(fr),
        Some(json!({"orders": ["A par H"]})),
        409,
    )
    .await;
    refused(
        app,
        post.clone(),
        &format!("{f}/ready"),
        Some(fr),
        Some(json!({"ready": true})),
        409,
    )
    .await;
    refused(
        app,
        post.clone(),
        &format!("{f}/draw"),
        Some(fr),
        Some(json!({"vote": true})),
        409,
    )
    .await;
    refused(app, post.clone(), &format!("{f}/start"), Some(fr), Some(json!({})), 403).await;
    refused(app, Method::PATCH, &f, Some(fr), Some(json!({"name": "Mine"})), 403).await;
}

/// Press was refused only before the start: a finished game took new
/// messages (201).
#[tokio::test]
async fn press_to_a_finished_game_was_accepted() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    for (_, t) in &tokens {
        let (s, v) = app
            .post(&format!("/api/v1/games/{id}/draw"), Some(t), json!({"vote": true}))
            .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["status"], "finished", "{g}");
    let fr = token_of(&tokens, "France");
    for to in [json!("all"), json!(["England"])] {
        refused(
            &app,
            Method::POST,
            &format!("/api/v1/games/{id}/messages"),
            Some(fr),
            Some(json!({"to": to, "text": "too late"})),
            409,
        )
        .await;
    }
    // Votes and orders are refused too.
    refused(
        &app,
        Method::POST,
        &format!("/api/v1/games/{id}/concede"),
        Some(fr),
        Some(json!({"vote": true})),
        409,
    )
    .await;
    refused(
        &app,
        Method::PUT,
        &format!("/api/v1/games/{id}/orders"),
        Some(fr),
        Some(json!({"orders": []})),
        409,
    )
    .await;
}

/// Sessions end after 30 days; no test held a token past its expiry.
#[tokio::test]
async fn an_expired_token_is_refused() {
    let app = TestApp::new();
    let t = app.user("alice").await;
    let (s, _) = app.get("/api/v1/games?mine=1", Some(&t)).await;
    assert_eq!(s, StatusCode::OK);
    app.state
        .db
        .transaction(|tx| {
            tx.exec(
                "UPDATE sessions SET expires = $1",
                &[(dip_server::time::now_ms() - 1).into()],
            )
        })
        .unwrap();
    let (s, v) = app.get("/api/v1/games?mine=1", Some(&t)).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("expired"), "{v}");
    // The next log-in clears expired sessions and gives a working token.
    let (_, v) = app
        .post(
            "/api/v1/sessions",
            None,
            json!({"name": "alice", "password": "password1"}),
        )
        .await;
    let fresh = v["token"].as_str().unwrap();
    let (s, _) = app.get("/api/v1/games?mine=1", Some(fresh)).await;
    assert_eq!(s, StatusCode::OK);
    let n = app
        .state
        .db
        .read(|tx| tx.query_one("SELECT COUNT(*) FROM sessions", &[]))
        .unwrap()
        .unwrap()
        .int(0)
        .unwrap();
    assert_eq!(n, 1, "the expired session is deleted");
}

/// The ready event said only `{"on": true}`: the page could not tell
/// whose ready changed without reloading the game.
#[tokio::test]
async fn ready_events_did_not_name_the_power() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"anonymous": true})).await;
    let (s, _) = app
        .post(
            &format!("/api/v1/games/{id}/ready"),
            Some(token_of(&tokens, "Italy")),
            json!({"ready": true}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = app
        .post(
            &format!("/api/v1/games/{id}/draw"),
            Some(token_of(&tokens, "Italy")),
            json!({"vote": true}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let events: Vec<(String, Value)> = app
        .state
        .db
        .read(|tx| {
            tx.query(
                "SELECT kind, data FROM events WHERE game_id = $1 ORDER BY id",
                &[id.into()],
            )
        })
        .unwrap()
        .iter()
        .map(|r| (r.text(0).unwrap(), serde_json::from_str(&r.text(1).unwrap()).unwrap()))
        .collect();
    let ready = events.iter().find(|(k, _)| k == "ready").unwrap();
    assert_eq!(ready.1, json!({"on": true, "power": "Italy"}));
    // Draw votes stay secret.
    let draw = events.iter().find(|(k, _)| k == "draw").unwrap();
    assert_eq!(draw.1, json!({"on": true}));
}

/// A finished game takes no more changes: readiness, joining, leaving,
/// processing, pausing, extending and edits are refused (409) and change
/// nothing.
#[tokio::test]
async fn a_finished_game_refuses_ready_join_leave_process_patch_and_edit() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"deadlines": {"movement": "1h"}})).await;
    let g = format!("/api/v1/games/{id}");
    for (_, t) in &tokens {
        let (s, v) = app.post(&format!("{g}/draw"), Some(t), json!({"vote": true})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (_, v) = app.get(&g, None).await;
    assert_eq!(v["status"], "finished", "{v}");
    let gm = tokens[0].1.clone();
    let fr = token_of(&tokens, "France").to_string();
    let outsider = app.user("latecomer").await;
    let post = Method::POST;
    let cases: [(Method, String, &str, Value); 10] = [
        (post.clone(), format!("{g}/ready"), &fr, json!({"ready": true})),
        (post.clone(), format!("{g}/draw"), &fr, json!({"vote": false})),
        (post.clone(), format!("{g}/join"), &outsider, json!({})),
        (post.clone(), format!("{g}/leave"), &fr, json!({})),
        (post.clone(), format!("{g}/process"), &gm, json!({})),
        (Method::PATCH, g.clone(), &gm, json!({"paused": true})),
        (Method::PATCH, g.clone(), &gm, json!({"paused": false})),
        (Method::PATCH, g.clone(), &gm, json!({"extend": "1h"})),
        (post.clone(), format!("{g}/edit"), &gm, json!({"edits": ["remove par"]})),
        (
            post.clone(),
            format!("{g}/edit"),
            &gm,
            json!({"edits": ["title Again"]}),
        ),
    ];
    for (method, path, token, body) in cases {
        refused(&app, method, &path, Some(token), Some(body), 409).await;
    }
}

/// `extend` gave a phase without a deadline (the game master processes
/// it by hand) a deadline it never had; paused, it was counted and
/// forgotten at the resume. Refused (409); a phase with a deadline gets
/// its time.
#[tokio::test]
async fn extending_a_phase_without_a_deadline_gave_it_one() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"deadlines": {"retreat": "1h"}})).await;
    let gm = tokens[0].1.clone();
    let g = format!("/api/v1/games/{id}");
    refused(&app, Method::PATCH, &g, Some(&gm), Some(json!({"extend": "1h"})), 409).await;
    let (s, v) = app
        .call(Method::PATCH, &g, Some(&gm), Some(json!({"paused": true})))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    refused(&app, Method::PATCH, &g, Some(&gm), Some(json!({"extend": "1h"})), 409).await;
    let (_, v) = app
        .call(Method::PATCH, &g, Some(&gm), Some(json!({"paused": false})))
        .await;
    assert_eq!(v["deadline"], Value::Null, "{v}");

    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"deadlines": {"movement": "1h"}})).await;
    let g = format!("/api/v1/games/{id}");
    let (_, before) = app.get(&g, None).await;
    let (s, v) = app
        .call(Method::PATCH, &g, Some(&tokens[0].1), Some(json!({"extend": "2h"})))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let left = |v: &Value| v["seconds_left"].as_i64().unwrap();
    assert!(left(&v) > left(&before) + 7000, "{before} then {v}");
}
