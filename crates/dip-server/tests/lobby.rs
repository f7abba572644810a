//! `GET /api/v1/games`: filtered in the database, in pages, newest first.

mod common;

use axum::http::StatusCode;
use common::TestApp;
use serde_json::{json, Value};

fn ids(v: &Value) -> Vec<i64> {
    v["games"]
        .as_array()
        .unwrap_or_else(|| panic!("{v}"))
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

/// `n` more games like game `like`, with this status, straight into the
/// database (creating them through the API would take minutes).
fn copies(app: &TestApp, like: i64, status: &str, n: usize) {
    app.state
        .db
        .transaction(|tx| {
            for _ in 0..n {
                tx.exec(
                    "INSERT INTO games (name, variant, creator, status, options, position, created) \
                     SELECT name, variant, creator, $1, options, position, created FROM games WHERE id = $2",
                    &[status.into(), like.into()],
                )?;
            }
            Ok::<_, dip_server::db::DbError>(())
        })
        .unwrap();
}

/// The list read the newest 1,000 games and filtered them in memory: a
/// game still forming, or one of mine, behind 1,000 newer games was never
/// listed.
#[tokio::test]
async fn old_forming_games_fell_out_of_the_list_behind_a_thousand_newer_ones() {
    let app = TestApp::new();
    let gm = app.user("gm").await;
    let me = app.user("me").await;
    let (_, v) = app.post("/api/v1/games", Some(&gm), json!({"name": "Old one"})).await;
    let old = v["id"].as_i64().unwrap();
    let (s, v) = app
        .post(&format!("/api/v1/games/{old}/join"), Some(&me), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    copies(&app, old, "finished", 1_005);
    let (s, l) = app.get("/api/v1/games?status=forming", None).await;
    assert_eq!(s, StatusCode::OK, "{l}");
    assert_eq!(ids(&l), [old], "{l}");
    assert_eq!(l["next"], Value::Null);
    let (_, l) = app.get("/api/v1/games?mine=1", Some(&me)).await;
    assert_eq!(ids(&l), [old], "the game I joined: {l}");
    assert_eq!(l["games"][0]["you"], json!({"power": null}), "joined, no power yet");
    let (_, l) = app.get("/api/v1/games?mine=1&status=finished", Some(&gm)).await;
    assert_eq!(ids(&l).len(), 50, "a page of the creator's games");
    assert!(l["next"].is_i64(), "{}", l["next"]);
}

#[tokio::test]
async fn the_list_comes_in_pages() {
    let app = TestApp::new();
    let gm = app.user("gm").await;
    let mut made = Vec::new();
    for i in 0..5 {
        let (_, v) = app
            .post("/api/v1/games", Some(&gm), json!({"name": format!("Game {i}")}))
            .await;
        made.push(v["id"].as_i64().unwrap());
    }
    made.reverse();
    let mut seen = Vec::new();
    let mut path = "/api/v1/games?limit=2".to_string();
    loop {
        let (s, l) = app.get(&path, None).await;
        assert_eq!(s, StatusCode::OK, "{l}");
        assert!(ids(&l).len() <= 2);
        seen.extend(ids(&l));
        match l["next"].as_i64() {
            Some(n) => path = format!("/api/v1/games?limit=2&before={n}"),
            None => break,
        }
    }
    assert_eq!(seen, made, "every game once, newest first");
    // A summary by default; the whole game with full=1.
    let (_, l) = app.get("/api/v1/games?limit=1", Some(&gm)).await;
    let g = &l["games"][0];
    assert_eq!(g["phase"], "S1901M", "{g}");
    assert_eq!(g["joined"], 0, "{g}");
    assert_eq!(g["game_master"], true, "{g}");
    assert!(g.get("powers").is_none(), "{g}");
    let (_, l) = app.get("/api/v1/games?limit=1&full=1", None).await;
    assert_eq!(l["games"][0]["powers"].as_array().unwrap().len(), 7);
    for bad in ["limit=0", "limit=201", "limit=ten", "before=x", "page=2"] {
        let (s, v) = app.get(&format!("/api/v1/games?{bad}"), None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
}
