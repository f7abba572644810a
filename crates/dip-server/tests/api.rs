//! Every endpoint of the API, in-process, with every refusal.

mod common;

use axum::http::{Method, StatusCode};
use common::{token_of, TestApp};
use serde_json::{json, Value};

/// A power without a player.
fn players_open(g: &Value) -> String {
    g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player"].is_null())
        .unwrap()["name"]
        .as_str()
        .unwrap()
        .to_string()
}

fn sorted(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    out.sort();
    out
}

fn error_code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

#[tokio::test]
async fn health_and_unknown_paths() {
    let app = TestApp::new();
    let (s, v) = app.get("/api/v1/health", None).await;
    assert_eq!((s, v["status"].as_str()), (StatusCode::OK, Some("ok")));
    let (s, v) = app.get("/api/v1/nothing", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(error_code(&v), "not_found");
    let (s, v) = app.call(Method::DELETE, "/api/v1/health", None, None).await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED, "{v}");
    let (s, v) = app.get("/api/v1/variants", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["name"] == "standard"));
}

#[tokio::test]
async fn accounts_sessions_and_their_refusals() {
    let app = TestApp::new();
    let t = app.user("Alice").await;
    // Names are unique regardless of case.
    let (s, v) = app
        .post(
            "/api/v1/accounts",
            None,
            json!({"name": "alice", "password": "password2"}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    for (name, pw) in [
        ("a", "password1"),
        ("bob", "short"),
        ("bad name", "password1"),
        ("<script>", "password1"),
    ] {
        let (s, v) = app
            .post("/api/v1/accounts", None, json!({"name": name, "password": pw}))
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{name}: {v}");
    }
    // Unknown fields and bad JSON are refused with the API's error shape.
    let (s, v) = app
        .post(
            "/api/v1/accounts",
            None,
            json!({"name": "carol", "password": "password1", "admin": true}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v["error"]["message"].as_str().unwrap().contains("admin"), "{v}");
    let (s, _, _) = app
        .raw(Method::POST, "/api/v1/accounts", None, Some(b"{not json".to_vec()))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // Oversized bodies.
    let big = vec![b' '; 70 * 1024];
    let (s, body, _) = app.raw(Method::POST, "/api/v1/accounts", None, Some(big)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{}", String::from_utf8_lossy(&body));
    // A wrong password is refused, and slowly.
    let started = std::time::Instant::now();
    let (s, _) = app
        .post(
            "/api/v1/sessions",
            None,
            json!({"name": "alice", "password": "wrong-password"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert!(started.elapsed() >= std::time::Duration::from_millis(200));
    let (s, _) = app
        .post(
            "/api/v1/sessions",
            None,
            json!({"name": "nobody", "password": "password1"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    // Logged in by any case of the name.
    let (s, v) = app
        .post(
            "/api/v1/sessions",
            None,
            json!({"name": "ALICE", "password": "password1"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Logout ends the session.
    let (s, _) = app.call(Method::DELETE, "/api/v1/sessions", Some(&t), None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = app.get("/api/v1/games?mine=1", Some(&t)).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = app.call(Method::DELETE, "/api/v1/sessions", Some(&t), None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = app.get("/api/v1/games", Some("not-a-token")).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn creating_and_listing_games() {
    let app = TestApp::new();
    let t = app.user("gm").await;
    let (s, _) = app.post("/api/v1/games", None, json!({"name": "x"})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    for bad in [
        json!({"name": "x", "variant": "nowhere"}),
        json!({"name": "", "variant": "standard"}),
        json!({"name": "x", "players": {"min": 5, "max": 3}}),
        json!({"name": "x", "players": {"min": 1, "max": 8}}),
        json!({"name": "x", "deadlines": {"movement": "10 parsecs"}}),
        json!({"name": "x", "press": "loud"}),
        json!({"name": "x", "colour": "red"}),
    ] {
        let (s, v) = app.post("/api/v1/games", Some(&t), bad.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    let (s, v) = app
        .post(
            "/api/v1/games",
            Some(&t),
            json!({"name": "<script>alert(1)</script>", "variant": "standard",
                   "players": {"min": 2, "max": 7}, "deadlines": {"movement": "24h", "retreat": "10m"},
                   "press": "public", "anonymous": true}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_i64().unwrap();
    let (s, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["name"], "<script>alert(1)</script>");
    assert_eq!(g["status"], "forming");
    assert_eq!(g["phase"], "S1901M");
    assert_eq!(g["press"], "public");
    assert_eq!(g["deadlines"]["movement"], "24h");
    let eng = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "England")
        .unwrap();
    assert_eq!(sorted(&eng["units"]), ["A lvp", "F edi", "F lon"]);
    assert_eq!(eng["centres"], json!(["edi", "lon", "lvp"]));
    let rus = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Russia")
        .unwrap();
    assert!(rus["units"].as_array().unwrap().contains(&json!("F stp/sc")), "{rus}");
    let (_, l) = app.get("/api/v1/games?status=forming", None).await;
    assert_eq!(l["games"].as_array().unwrap().len(), 1);
    let (_, l) = app.get("/api/v1/games?status=finished", None).await;
    assert_eq!(l["games"].as_array().unwrap().len(), 0);
    let (s, _) = app.get("/api/v1/games?status=sleeping", None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = app.get("/api/v1/games?mine=1", None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (_, l) = app.get("/api/v1/games?mine=1", Some(&t)).await;
    assert_eq!(l["games"].as_array().unwrap().len(), 1, "the creator's own game");
    for path in ["/api/v1/games/999", "/api/v1/games/abc", "/api/v1/games/-1"] {
        let (s, _) = app.get(path, None).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{path}");
    }
}

#[tokio::test]
async fn joining_starting_and_leaving() {
    let app = TestApp::new();
    let gm = app.user("gm").await;
    let b = app.user("bob").await;
    let c = app.user("carol").await;
    let d = app.user("dave").await;
    let (_, v) = app
        .post(
            "/api/v1/games",
            Some(&gm),
            json!({"name": "g", "players": {"min": 2, "max": 3}}),
        )
        .await;
    let id = v["id"].as_i64().unwrap();
    let join = format!("/api/v1/games/{id}/join");
    let (s, _) = app.post(&join, None, json!({})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, v) = app.post(&join, Some(&b), json!({"power": "Freedonia"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, _) = app.post(&join, Some(&b), json!({"power": "fra"})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = app.post(&join, Some(&b), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT, "twice");
    let (s, _) = app.post(&join, Some(&c), json!({"power": "France"})).await;
    assert_eq!(s, StatusCode::CONFLICT, "taken");
    // Start: only the creator, only with enough players.
    let start = format!("/api/v1/games/{id}/start");
    let (s, _) = app.post(&start, Some(&b), json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.post(&start, Some(&gm), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT, "1 of 2");
    // Orders before the start are refused.
    let (s, _) = app
        .put(
            &format!("/api/v1/games/{id}/orders"),
            Some(&b),
            json!({"orders": ["A par-bur"]}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, _) = app.post(&join, Some(&c), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = app
        .post(&format!("/api/v1/games/{id}/leave"), Some(&c), json!({}))
        .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _) = app
        .post(&format!("/api/v1/games/{id}/leave"), Some(&c), json!({}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, _) = app.post(&join, Some(&c), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, g) = app.post(&start, Some(&gm), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["status"], "active");
    let players: Vec<&Value> = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["player"].is_null())
        .collect();
    assert_eq!(players.len(), 2, "two seats taken, five powers in civil disorder");
    assert!(players.iter().any(|p| p["name"] == "France" && p["player"] == "bob"));
    let (s, _) = app.post(&start, Some(&gm), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT, "started already");
    // A running game takes a replacement for an open seat.
    let (s, v) = app.post(&join, Some(&d), json!({"power": "France"})).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    let open = players_open(&g);
    let (s, v) = app.post(&join, Some(&d), json!({"power": open})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["you"]["power"], open.as_str());
}

#[tokio::test]
async fn a_full_game_starts_itself_and_random_assignment_refuses_wishes() {
    let app = TestApp::new();
    let gm = app.user("gm").await;
    let (_, v) = app
        .post(
            "/api/v1/games",
            Some(&gm),
            json!({"name": "g", "players": {"min": 2, "max": 2}, "assignment": "random"}),
        )
        .await;
    let id = v["id"].as_i64().unwrap();
    let join = format!("/api/v1/games/{id}/join");
    let (s, _) = app.post(&join, Some(&gm), json!({"power": "England"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = app.call(Method::POST, &join, Some(&gm), None).await;
    assert_eq!(s, StatusCode::OK);
    let other = app.user("other").await;
    let (s, g) = app.post(&join, Some(&other), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["status"], "active");
    let me = app.user("late").await;
    let (s, _) = app.post(&join, Some(&me), json!({"power": "England"})).await;
    // England may have been drawn; any other open power may be taken.
    assert!(s == StatusCode::OK || s == StatusCode::CONFLICT);
}

#[tokio::test]
async fn orders_are_read_checked_and_private() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"deadlines": {"movement": "1h"}})).await;
    let fr = token_of(&tokens, "France");
    let en = token_of(&tokens, "England");
    let path = format!("/api/v1/games/{id}/orders");
    let (s, v) = app
        .put(
            &path,
            Some(fr),
            json!({"orders": ["A par-bur", "F bre - mao", "A mar S A par-bur", "", "England: F lon-nth", "A xyz-abc"]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 6, "one answer per line: {v}");
    assert_eq!(lines[0]["order"], "A Par-Bur");
    assert_eq!(lines[0]["error"], Value::Null);
    assert_eq!(lines[1]["order"], "F Bre-Mao");
    assert_eq!(lines[3]["fate"], "comment", "a blank line: {}", lines[3]);
    assert_eq!(lines[4]["error"]["number"], 400, "another nation's order: {}", lines[4]);
    assert!(lines[5]["error"]["number"].as_u64().unwrap() >= 100, "{}", lines[5]);
    // The number stands once, in `number`, not again in the message.
    assert!(
        !lines[5]["error"]["message"].as_str().unwrap().starts_with('['),
        "{}",
        lines[5]
    );
    // Only one's own orders are shown, and never in the game.
    let (s, v) = app.get(&path, Some(fr)).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["orders"].as_array().unwrap().len(), 6);
    let (_, v) = app.get(&path, Some(en)).await;
    assert_eq!(v["orders"], json!([]));
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), Some(en)).await;
    assert!(!g.to_string().contains("par-bur"), "orders leak into the game view");
    let fra = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "France")
        .unwrap();
    assert_eq!(fra["orders_submitted"], true);
    // Outsiders and observers cannot order.
    let outsider = app.user("outsider").await;
    let (s, _) = app.put(&path, Some(&outsider), json!({"orders": ["A par-bur"]})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app.put(&path, None, json!({"orders": ["A par-bur"]})).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = app.get(&path, Some(&outsider)).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    // A phase that is over, too many lines, too long a line.
    let (s, _) = app
        .put(&path, Some(fr), json!({"orders": ["A par-bur"], "phase": "F1901M"}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT);
    let many: Vec<String> = (0..501).map(|_| "A par H".to_string()).collect();
    let (s, _) = app.put(&path, Some(fr), json!({"orders": many})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = app.put(&path, Some(fr), json!({"orders": ["A ".repeat(300)]})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = app.put(&path, Some(fr), json!({"orders": "A par-bur"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // Unknown game.
    let (s, _) = app
        .put("/api/v1/games/77/orders", Some(fr), json!({"orders": []}))
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn ready_processes_and_history_reveals() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"deadlines": {"movement": "1h"}})).await;
    let fr = token_of(&tokens, "France");
    let ge = token_of(&tokens, "Germany");
    app.put(
        &format!("/api/v1/games/{id}/orders"),
        Some(fr),
        json!({"orders": ["A par-bur", "F bre-mao"]}),
    )
    .await;
    app.put(
        &format!("/api/v1/games/{id}/orders"),
        Some(ge),
        json!({"orders": ["A mun-bur"]}),
    )
    .await;
    let ready = format!("/api/v1/games/{id}/ready");
    let outsider = app.user("outsider").await;
    let (s, _) = app.post(&ready, Some(&outsider), json!({"ready": true})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    for (i, (_, t)) in tokens.iter().enumerate() {
        let (s, v) = app.post(&ready, Some(t), json!({"ready": true})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["processed"], i == 6, "{v}");
    }
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["phase"], "F1901M");
    let fra = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "France")
        .unwrap();
    assert_eq!(
        sorted(&fra["units"]),
        ["A mar", "A par", "F mao"],
        "Paris and Munich bounced in Burgundy"
    );
    assert_eq!(fra["ready"], false, "ready flags start anew");
    history_shows_the_phase_played(&app, id).await;
    maps_of_any_phase(&app, id).await;
    exports_of_the_game(&app, id).await;
}

/// History: the phase, its orders and results, its report.
async fn history_shows_the_phase_played(app: &TestApp, id: i64) {
    let (_, p) = app.get(&format!("/api/v1/games/{id}/phases"), None).await;
    assert_eq!(p["phases"][0]["phase"], "S1901M");
    assert_eq!(p["phases"][1]["current"], true);
    let (s, d) = app.get(&format!("/api/v1/games/{id}/phases/S1901M"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(d["orders"]["France"], json!(["A par-bur", "F bre-mao"]));
    let report = d["report"].as_str().unwrap();
    assert!(report.contains("Spring 1901"), "{report}");
    assert!(report.contains("[A Par-Bur]"), "a failed order in brackets: {report}");
    assert!(
        d["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["order"] == "F Lon H" && r["code"] == 12),
        "no orders received shows: {d}"
    );
    let (s, d) = app.get(&format!("/api/v1/games/{id}/phases/F1901M"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(d["current"], true);
    let (s, _) = app.get(&format!("/api/v1/games/{id}/phases/F1950M"), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

/// Maps of any phase, and the animation of them all.
async fn maps_of_any_phase(app: &TestApp, id: i64) {
    let (s, svg, ct) = app
        .raw(
            Method::GET,
            &format!("/api/v1/games/{id}/map.svg?phase=S1901M"),
            None,
            None,
        )
        .await;
    assert_eq!((s, ct.as_str()), (StatusCode::OK, "image/svg+xml"));
    assert!(String::from_utf8_lossy(&svg).starts_with("<svg"));
    let (s, png, ct) = app
        .raw(Method::GET, &format!("/api/v1/games/{id}/map.png"), None, None)
        .await;
    assert_eq!((s, ct.as_str()), (StatusCode::OK, "image/png"));
    assert_eq!(&png[1..4], b"PNG");
    let (s, _, _) = app
        .raw(
            Method::GET,
            &format!("/api/v1/games/{id}/map.svg?phase=S1800M"),
            None,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, apng, ct) = app
        .raw(Method::GET, &format!("/api/v1/games/{id}/animation.png"), None, None)
        .await;
    assert_eq!((s, ct.as_str()), (StatusCode::OK, "image/png"));
    assert!(apng.windows(4).any(|w| w == b"acTL"), "an animated PNG");
}

/// Exports: MILA's JSON and a DipWork game directory; no other format.
async fn exports_of_the_game(app: &TestApp, id: i64) {
    let (s, m) = app.get(&format!("/api/v1/games/{id}/export?format=mila"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(m["phases"][0]["name"], "S1901M");
    assert!(
        m["phases"][0]["orders"]["FRANCE"]
            .as_array()
            .unwrap()
            .contains(&json!("A PAR - BUR")),
        "{m}"
    );
    let (s, tar, ct) = app
        .raw(
            Method::GET,
            &format!("/api/v1/games/{id}/export?format=dipwork"),
            None,
            None,
        )
        .await;
    assert_eq!((s, ct.as_str()), (StatusCode::OK, "application/x-tar"));
    let text = String::from_utf8_lossy(&tar);
    assert!(text.contains("GAME.TXT") && text.contains("HISTORY.REC"));
    let (s, _) = app.get(&format!("/api/v1/games/{id}/export?format=zip"), None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn missed_deadlines_hold_and_open_seats() {
    let app = TestApp::new();
    let (id, tokens) = app
        .seven(json!({"deadlines": {"movement": "1h", "retreat": "1h", "adjustment": "1h"}, "civil_disorder_after": 2}))
        .await;
    let fr = token_of(&tokens, "France");
    app.put(
        &format!("/api/v1/games/{id}/orders"),
        Some(fr),
        json!({"orders": ["A par-bur"]}),
    )
    .await;
    assert_eq!(app.expire(id), 1);
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["phase"], "F1901M");
    let eng = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "England")
        .unwrap();
    assert_eq!(eng["missed"], 1);
    assert_eq!(
        sorted(&eng["units"]),
        ["A lvp", "F edi", "F lon"],
        "no orders: units hold"
    );
    let (_, d) = app.get(&format!("/api/v1/games/{id}/phases/S1901M"), None).await;
    let report = d["report"].as_str().unwrap();
    assert!(
        report.contains("England: A Lvp H: no order received: holds"),
        "the report says so line by line: {report}"
    );
    // A second miss: every power but France goes into civil disorder.
    app.put(
        &format!("/api/v1/games/{id}/orders"),
        Some(fr),
        json!({"orders": ["A bur-bel"]}),
    )
    .await;
    assert_eq!(app.expire(id), 1);
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    let eng = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "England")
        .unwrap();
    assert_eq!(eng["player"], Value::Null, "England's seat is open: {g}");
    let fra = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "France")
        .unwrap();
    assert_eq!(fra["player"], "player-france");
    // France builds in the adjustment phase; nobody else orders.
    assert_eq!(g["phase"], "W1901A", "{g}");
    let (_, d) = app.get(&format!("/api/v1/games/{id}/phases/F1901M"), None).await;
    assert!(d["results"].as_array().unwrap().iter().any(|r| r["code"] == 12));
    assert_eq!(app.expire(id), 1);
    let (_, d) = app.get(&format!("/api/v1/games/{id}/phases/W1901A"), None).await;
    let waived: Vec<&Value> = d["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["order"] == "waive")
        .collect();
    assert!(!waived.is_empty(), "builds not ordered are waived, each on a line: {d}");
    // A newcomer takes England.
    let newcomer = app.user("newcomer").await;
    let (s, v) = app
        .post(
            &format!("/api/v1/games/{id}/join"),
            Some(&newcomer),
            json!({"power": "England"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["you"]["power"], "England");
}

#[tokio::test]
async fn game_master_pauses_extends_renames_and_processes() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"deadlines": {"movement": "1h"}})).await;
    let gm = token_of(&tokens, "Austria");
    let other = token_of(&tokens, "Turkey");
    let path = format!("/api/v1/games/{id}");
    let (s, _) = app
        .call(Method::PATCH, &path, Some(other), Some(json!({"paused": true})))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, v) = app
        .call(Method::PATCH, &path, Some(gm), Some(json!({"sleep": true})))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, g) = app
        .call(Method::PATCH, &path, Some(gm), Some(json!({"paused": true})))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["paused"], true);
    assert_eq!(g["deadline"], Value::Null);
    assert_eq!(app.expire(id), 0, "a paused game is not processed at a deadline");
    let (_, g) = app
        .call(
            Method::PATCH,
            &path,
            Some(gm),
            Some(json!({"paused": false, "extend": "2h", "name": "Renamed"})),
        )
        .await;
    assert_eq!(g["paused"], false);
    assert_eq!(g["name"], "Renamed");
    let left = g["seconds_left"].as_i64().unwrap();
    assert!(left > 3600 * 2, "{left}");
    let (s, _) = app
        .call(Method::PATCH, &path, Some(gm), Some(json!({"extend": "forever"})))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = app.post(&format!("{path}/process"), Some(other), json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, g) = app.post(&format!("{path}/process"), Some(gm), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["phase"], "F1901M");
}

#[tokio::test]
async fn press_follows_the_game_setting() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"press": "full", "anonymous": true})).await;
    let fr = token_of(&tokens, "France");
    let en = token_of(&tokens, "England");
    let ge = token_of(&tokens, "Germany");
    let path = format!("/api/v1/games/{id}/messages");
    let (s, _) = app
        .post(
            &path,
            Some(fr),
            json!({"to": ["England"], "text": "<script>alert(1)</script> DMZ channel?"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, _) = app
        .post(&path, Some(fr), json!({"to": "all", "text": "Peace to all"}))
        .await;
    assert_eq!(s, StatusCode::CREATED);
    for bad in [
        json!({"to": ["Atlantis"], "text": "hi"}),
        json!({"to": "everyone", "text": "hi"}),
        json!({"to": [], "text": "hi"}),
        json!({"to": ["France"], "text": "me"}),
        json!({"to": "all", "text": ""}),
        json!({"to": "all", "text": "x".repeat(10_001)}),
    ] {
        let (s, v) = app.post(&path, Some(fr), bad.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    let outsider = app.user("outsider").await;
    let (s, _) = app
        .post(&path, Some(&outsider), json!({"to": "all", "text": "hi"}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (_, m) = app.get(&path, Some(en)).await;
    assert_eq!(m["messages"].as_array().unwrap().len(), 2);
    assert_eq!(m["messages"][0]["text"], "<script>alert(1)</script> DMZ channel?");
    let (_, m) = app.get(&path, Some(ge)).await;
    assert_eq!(
        m["messages"].as_array().unwrap().len(),
        1,
        "Germany reads only the public one"
    );
    let (_, m) = app.get(&path, None).await;
    assert_eq!(m["messages"].as_array().unwrap().len(), 1);
    // Anonymous: others' names hidden, one's own shown.
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), Some(en)).await;
    let powers = g["powers"].as_array().unwrap();
    assert_eq!(
        powers.iter().find(|p| p["name"] == "France").unwrap()["player"],
        "(hidden)"
    );
    assert_eq!(
        powers.iter().find(|p| p["name"] == "England").unwrap()["player"],
        "player-england"
    );
    assert!(!g.to_string().contains("player-france"));
    // The phase in the history carries its press, as much as the reader may read.
    app.post(
        &format!("/api/v1/games/{id}/process"),
        Some(token_of(&tokens, "Austria")),
        json!({}),
    )
    .await;
    let (_, d) = app.get(&format!("/api/v1/games/{id}/phases/S1901M"), Some(en)).await;
    assert_eq!(d["press"].as_array().unwrap().len(), 2, "{d}");
    let (_, d) = app.get(&format!("/api/v1/games/{id}/phases/S1901M"), Some(ge)).await;
    assert_eq!(d["press"].as_array().unwrap().len(), 1, "{d}");
}

/// Public press: only to all. No press: nothing.
#[tokio::test]
async fn public_press_goes_only_to_all_and_no_press_takes_none() {
    let app2 = TestApp::new();
    let (id2, tokens2) = app2.seven(json!({"press": "public"})).await;
    let p2 = format!("/api/v1/games/{id2}/messages");
    let (s, _) = app2
        .post(
            &p2,
            Some(token_of(&tokens2, "France")),
            json!({"to": ["England"], "text": "psst"}),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = app2
        .post(
            &p2,
            Some(token_of(&tokens2, "France")),
            json!({"to": "all", "text": "hello"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let app3 = TestApp::new();
    let (id3, tokens3) = app3.seven(json!({"press": "none"})).await;
    let (s, _) = app3
        .post(
            &format!("/api/v1/games/{id3}/messages"),
            Some(token_of(&tokens3, "France")),
            json!({"to": "all", "text": "hello"}),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn draws_and_concessions_end_games() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let draw = format!("/api/v1/games/{id}/draw");
    for (i, (_, t)) in tokens.iter().enumerate() {
        let (s, v) = app.post(&draw, Some(t), json!({"vote": true})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["finished"], i == 6);
    }
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["status"], "finished");
    assert!(
        g["result"].as_str().unwrap().starts_with("draw: Austria, England"),
        "{g}"
    );
    let (s, _) = app.post(&draw, Some(&tokens[0].1), json!({"vote": false})).await;
    assert_eq!(s, StatusCode::CONFLICT, "the game is over");
    let (s, _) = app
        .put(
            &format!("/api/v1/games/{id}/orders"),
            Some(&tokens[0].1),
            json!({"orders": []}),
        )
        .await;
    assert_eq!(s, StatusCode::CONFLICT);

    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    // Russia leads (4 centres); the six others concede.
    for (p, t) in &tokens {
        if p == "Russia" {
            continue;
        }
        let (s, v) = app
            .call(Method::POST, &format!("/api/v1/games/{id}/concede"), Some(t), None)
            .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["status"], "finished");
    assert_eq!(g["winner"], "Russia");
}

#[tokio::test]
async fn a_failing_phase_is_retried_then_the_game_pauses() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"deadlines": {"movement": "1h"}})).await;
    // Orders stored in a form no dip writes: processing fails every time.
    app.state
        .db
        .transaction(|tx| {
            tx.exec(
                "INSERT INTO orders (game_id, phase_index, power, lines, updated) VALUES ($1, 0, 'France', 'not json', 0)",
                &[id.into()],
            )
        })
        .unwrap();
    for attempt in 1..=3 {
        assert_eq!(app.expire(id), 0, "attempt {attempt}");
    }
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), Some(&tokens[0].1)).await;
    assert_eq!(g["paused"], true, "{g}");
    assert_eq!(g["phase"], "S1901M", "nothing half-processed");
    assert!(g["error"].as_str().unwrap().contains("3 times"), "{g}");
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), Some(&tokens[1].1)).await;
    assert_eq!(g["error"], Value::Null, "the error is for the game master");
}

#[tokio::test]
async fn reaching_the_victory_condition_ends_the_game() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    // France owns 18 centres in Fall 1901: the neutrals, its own and
    // Germany's (whose units are gone).
    let v = dip_variants::standard();
    let map = &v.map;
    let mut st = v.start.clone();
    st.phase = dip_core::Phase::new(1901, dip_core::Season::Fall, dip_core::PhaseKind::Movement);
    let france = map.find_power("France").unwrap();
    let germany = map.find_power("Germany").unwrap();
    let german: Vec<_> = st.units().filter(|(_, u)| u.power == germany).map(|(p, _)| p).collect();
    for p in german {
        st.remove(p);
    }
    for &c in map.supply_centers() {
        if st.owner(c).is_none() || st.owner(c) == Some(germany) {
            st.set_owner(c, Some(france));
        }
    }
    assert_eq!(st.center_count(map, france), 18);
    let text = dip_text::format_position(map, &st);
    app.state
        .db
        .transaction(|tx| {
            tx.exec(
                "UPDATE games SET position = $1 WHERE id = $2",
                &[text.into(), id.into()],
            )
        })
        .unwrap();
    let (s, g) = app
        .post(&format!("/api/v1/games/{id}/process"), Some(&tokens[0].1), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["status"], "finished");
    assert_eq!(g["winner"], "France");
    assert_eq!(g["result"], "France wins");
    let (_, d) = app.get(&format!("/api/v1/games/{id}/phases/F1901M"), None).await;
    assert!(
        d["report"]
            .as_str()
            .unwrap()
            .contains("Game over: France wins with 18 centres"),
        "{d}"
    );
}

#[tokio::test]
async fn legal_orders_list_what_a_player_may_click() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let (s, v) = app
        .get(&format!("/api/v1/games/{id}/legal"), Some(token_of(&tokens, "France")))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let units = v["units"].as_array().unwrap();
    assert_eq!(units.len(), 3);
    let par = units.iter().find(|u| u["province"] == "par").unwrap();
    let moves: Vec<&str> = par["orders"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["kind"] == "move")
        .map(|o| o["to"].as_str().unwrap())
        .collect();
    for to in ["bur", "pic", "gas", "bre"] {
        assert!(moves.contains(&to), "{moves:?}");
    }
    let bur = par["orders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["to"] == "bur" && o["kind"] == "move")
        .unwrap();
    // The text reads back through the order reader.
    let (_, r) = app
        .put(
            &format!("/api/v1/games/{id}/orders"),
            Some(token_of(&tokens, "France")),
            json!({"orders": [bur["text"]]}),
        )
        .await;
    assert_eq!(r["lines"][0]["order"], "A Par-Bur", "{r}");
    let outsider = app.user("outsider").await;
    let (s, _) = app.get(&format!("/api/v1/games/{id}/legal"), Some(&outsider)).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn game_master_edits_are_checked_applied_and_kept() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let gm = token_of(&tokens, "Austria");
    let path = format!("/api/v1/games/{id}/edit");
    let (s, _) = app
        .post(
            &path,
            Some(token_of(&tokens, "France")),
            json!({"edits": ["remove par"]}),
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    for bad in [
        "remove bur",
        "add France A par",
        "move par xyz",
        "owner bur France",
        "phase X1901",
        "explode par",
    ] {
        let (s, v) = app.post(&path, Some(gm), json!({"edits": ["remove mar", bad]})).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
        assert!(
            v["error"]["message"].as_str().unwrap().starts_with("edit line 2"),
            "{v}"
        );
    }
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    let fra = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "France")
        .unwrap();
    assert_eq!(
        fra["units"].as_array().unwrap().len(),
        3,
        "a refused batch changes nothing"
    );
    let (s, g) = app
        .post(
            &path,
            Some(gm),
            json!({"edits": ["remove mar", "add France F gol", "move par bur", "owner bel France", "phase F1902M", "title Edited", "player France none"]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["phase"], "F1902M");
    assert_eq!(g["name"], "Edited");
    let fra = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "France")
        .unwrap();
    let mut units: Vec<&str> = fra["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap())
        .collect();
    units.sort();
    assert_eq!(units, ["A bur", "F bre", "F lyo"], "gol is a synonym of lyo");
    assert!(fra["centres"].as_array().unwrap().contains(&json!("bel")));
    assert_eq!(fra["player"], Value::Null);
    let (_, e) = app.get(&format!("/api/v1/games/{id}/edits"), None).await;
    assert_eq!(e["edits"][0]["lines"][0], "remove mar");
}

#[tokio::test]
async fn cookie_sessions_need_the_csrf_token_to_change_anything() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let t = token_of(&tokens, "France");
    // The token the game page gives the session (a tossed `dip_csrf`
    // cookie is no token).
    use tower::ServiceExt;
    let page = axum::http::Request::get(format!("/games/{id}"))
        .header("cookie", format!("dip_session={t}"))
        .body(axum::body::Body::empty())
        .unwrap();
    let page = dip_server::app(app.state.clone()).oneshot(page).await.unwrap();
    let html = String::from_utf8_lossy(
        &http_body_util::BodyExt::collect(page.into_body())
            .await
            .unwrap()
            .to_bytes(),
    )
    .to_string();
    let token = html
        .split(r#"<meta name="csrf" content=""#)
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_string();
    let call = |csrf: Option<&str>, origin: Option<&str>| {
        let mut req = axum::http::Request::builder()
            .method("POST")
            .uri(format!("/api/v1/games/{id}/ready"))
            .header("content-type", "application/json")
            .header("host", "dip.example:8080")
            .header(
                "cookie",
                format!("dip_session={t}; dip_csrf=abc123abc123abc123abc123abc123ab"),
            );
        if let Some(c) = csrf {
            req = req.header("x-csrf-token", c);
        }
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        req.body(axum::body::Body::from(r#"{"ready":true}"#)).unwrap()
    };
    let here = Some("http://dip.example:8080");
    for (csrf, origin, want) in [
        (None, here, 403),
        (Some("wrong"), here, 403),
        (Some("abc123abc123abc123abc123abc123ab"), here, 403),
        (Some(token.as_str()), Some("http://dip.example:9090"), 403),
        (Some(token.as_str()), here, 200),
        (Some(token.as_str()), None, 200),
    ] {
        let resp = dip_server::app(app.state.clone())
            .oneshot(call(csrf, origin))
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), want, "{csrf:?} from {origin:?}");
    }
    // Reading with the cookie needs no token.
    let req = axum::http::Request::get(format!("/api/v1/games/{id}/orders"))
        .header("cookie", format!("dip_session={t}"))
        .body(axum::body::Body::empty())
        .unwrap();
    let resp = dip_server::app(app.state.clone()).oneshot(req).await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);
}

#[tokio::test]
async fn legal_builds_and_waives_read_back_as_orders() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let gm = token_of(&tokens, "Austria");
    let fr = token_of(&tokens, "France");
    let (s, v) = app
        .post(
            &format!("/api/v1/games/{id}/edit"),
            Some(gm),
            json!({"edits": ["remove mar", "owner bel France", "owner spa France", "phase W1901A"]}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, l) = app.get(&format!("/api/v1/games/{id}/legal"), Some(fr)).await;
    assert_eq!(l["balance"], 3, "{l}");
    let builds: Vec<&str> = l["builds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["text"].as_str().unwrap())
        .collect();
    assert!(builds.iter().any(|b| b.contains("MAR")), "{builds:?}");
    let waive = builds.iter().find(|b| b.eq_ignore_ascii_case("waive")).unwrap();
    let build = builds.iter().find(|b| b.contains("MAR")).unwrap();
    let (_, r) = app
        .put(
            &format!("/api/v1/games/{id}/orders"),
            Some(fr),
            json!({"orders": [build, waive]}),
        )
        .await;
    for line in r["lines"].as_array().unwrap() {
        assert_eq!(line["error"], Value::Null, "{r}");
    }
    app.post(&format!("/api/v1/games/{id}/process"), Some(gm), json!({}))
        .await;
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    let fra = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "France")
        .unwrap();
    assert!(
        fra["units"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u.as_str().unwrap().ends_with("mar")),
        "{fra}"
    );
}
