//! Private games: every route of a private game is a 404 to whoever is
//! not its member or game master (pages, API, events, exports, maps); it
//! is listed only to them; it is joined with its invitation or password.

mod common;

use axum::http::{Method, StatusCode};
use common::TestApp;
use serde_json::json;

/// Every route that shows something of one game.
fn routes(id: i64) -> Vec<String> {
    [
        "",
        "/orders",
        "/phases",
        "/phases/S1901M",
        "/map.svg",
        "/map.png",
        "/export?format=mila",
        "/export?format=dipwork",
        "/animation.png",
        "/messages",
        "/events",
        "/legal?province=par",
        "/edits",
    ]
    .iter()
    .map(|r| format!("/api/v1/games/{id}{r}"))
    .chain([format!("/games/{id}")])
    .collect()
}

#[tokio::test]
async fn a_private_game_is_invisible_without_membership_in_every_route() {
    let app = TestApp::new();
    let gm = app.user("gamemaster").await;
    let outsider = app.user("outsider").await;
    let (s, v) = app
        .post(
            "/api/v1/games",
            Some(&gm),
            json!({"name": "Secret game", "private": true, "password": "open sesame", "players": {"min": 2, "max": 7}}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_i64().unwrap();
    let (_, view) = app.get(&format!("/api/v1/games/{id}"), Some(&gm)).await;
    assert_eq!(view["private"], true);
    let invite = view["invite"].as_str().unwrap().to_string();
    // A public game beside it, for contrast.
    let (_, v) = app.post("/api/v1/games", Some(&gm), json!({"name": "Open game"})).await;
    let open = v["id"].as_i64().unwrap();

    for who in [None, Some(outsider.as_str())] {
        hidden_from(&app, id, open, who).await;
    }
    // The public game's routes are still open to all.
    let (s, _) = app.get(&format!("/api/v1/games/{open}"), None).await;
    assert_eq!(s, StatusCode::OK);
    the_invitation_shows_the_view_only(&app, id, &invite, &outsider).await;
    invitations_and_passwords_let_members_in(&app, id, &invite, &outsider).await;
}

/// Every route of the private game `id` is a 404 to `who` (no one, or an
/// outsider), reading or writing, and lists leave it out, the public game
/// `open` in.
async fn hidden_from(app: &TestApp, id: i64, open: i64, who: Option<&str>) {
    for path in routes(id) {
        let (s, body, _) = app.raw(Method::GET, &path, who, None).await;
        assert_eq!(
            s,
            StatusCode::NOT_FOUND,
            "{path} as {who:?}: {}",
            String::from_utf8_lossy(&body)
        );
    }
    // The id spelled another way is the same game.
    let (s, _, _) = app
        .raw(Method::GET, &format!("/api/v1/games/%3{}", id), who, None)
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // Opening it as a board (a copy of its whole history) too.
    let (s, _, _) = app.raw(Method::POST, &format!("/games/{id}/board"), who, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "/games/{id}/board as {who:?}");
    // Writing to it is refused the same way.
    let (s, _) = app
        .post(
            &format!("/api/v1/games/{id}/messages"),
            who,
            json!({"to": [], "text": "hi"}),
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // Lists leave it out, the public one in.
    for q in ["", "?status=forming", "?full=1"] {
        let (_, list) = app.get(&format!("/api/v1/games{q}"), who).await;
        let ids: Vec<i64> = list["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_i64().unwrap())
            .collect();
        assert!(!ids.contains(&id) && ids.contains(&open), "{q}: {ids:?}");
    }
    let (_, page, _) = app.raw(Method::GET, "/", who, None).await;
    let page = String::from_utf8_lossy(&page);
    assert!(!page.contains("Secret game") && page.contains("Open game"));
}

/// The invitation shows the game's own view, nothing more; a token one
/// digit off shows nothing.
async fn the_invitation_shows_the_view_only(app: &TestApp, id: i64, invite: &str, outsider: &str) {
    let (s, v) = app
        .get(&format!("/api/v1/games/{id}?invite={invite}"), Some(outsider))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["invite"],
        serde_json::Value::Null,
        "only the game master sees the token"
    );
    let (s, _) = app
        .get(&format!("/api/v1/games/{id}/phases?invite={invite}"), Some(outsider))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // Another first digit (`0…` was the token itself one time in 16).
    let first = if invite.starts_with('0') { '1' } else { '0' };
    let (s, _) = app
        .get(
            &format!("/api/v1/games/{id}?invite={first}{}", &invite[1..]),
            Some(outsider),
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

/// Joining: nothing, a wrong invitation, a wrong password are refused; the
/// invitation lets one in, the password another, and members then see
/// every route and find the game in their lists.
async fn invitations_and_passwords_let_members_in(app: &TestApp, id: i64, invite: &str, outsider: &str) {
    let join_path = format!("/api/v1/games/{id}/join");
    let join = |body| app.post(&join_path, Some(outsider), body);
    assert_eq!(join(json!({})).await.0, StatusCode::NOT_FOUND);
    assert_eq!(join(json!({"invite": "00"})).await.0, StatusCode::NOT_FOUND);
    assert_eq!(join(json!({"password": "guess"})).await.0, StatusCode::FORBIDDEN);
    // The invitation lets one in, the password another.
    let (s, v) = join(json!({"invite": invite, "power": "France"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let third = app.user("third").await;
    let (s, v) = app
        .post(
            &format!("/api/v1/games/{id}/join"),
            Some(&third),
            json!({"password": "open sesame"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Members now see everything, and find it in their lists.
    for path in routes(id).into_iter().filter(|p| !p.ends_with("/events")) {
        let (s, body, _) = app.raw(Method::GET, &path, Some(outsider), None).await;
        // What the route says of a game not started yet, not the guard.
        let text = String::from_utf8_lossy(&body);
        assert!(
            s == StatusCode::OK || !text.contains("no such game"),
            "{path}: {s} {text}"
        );
    }
    let (_, list) = app.get("/api/v1/games", Some(&third)).await;
    assert!(list["games"].as_array().unwrap().iter().any(|g| g["id"] == id));
}

#[tokio::test]
async fn private_games_refuse_what_would_open_them() {
    let app = TestApp::new();
    let gm = app.user("gamemaster").await;
    let (s, v) = app
        .post(
            "/api/v1/games",
            Some(&gm),
            json!({"name": "Bots", "private": true, "daide": true}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, v) = app
        .post(
            "/api/v1/games",
            Some(&gm),
            json!({"name": "Open", "password": "secret1"}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
}
