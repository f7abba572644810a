//! A phase nobody who plays has to order in is not left waiting.

mod common;

use axum::http::StatusCode;
use common::TestApp;
use serde_json::json;

/// France and Germany play; the other powers are in civil disorder. Their
/// first year dislodges the Italian army in Venice: only Italy, which has
/// no player, had to retreat, and the retreat phase waited for its deadline
/// (or, without one, for the game master) though no order could come.
#[tokio::test]
async fn a_retreat_only_powers_in_civil_disorder_make_waited_for_its_deadline() {
    let app = TestApp::new();
    let fr = app.user("francois").await;
    let ge = app.user("gerhard").await;
    let (s, v) = app
        .post(
            "/api/v1/games",
            Some(&fr),
            json!({"name": "Two", "players": {"min": 2, "max": 7}, "deadlines": {"movement": "1h", "retreat": "1h", "adjustment": "1h"}}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let g = format!("/api/v1/games/{}", v["id"]);
    for (t, p) in [(&fr, "France"), (&ge, "Germany")] {
        let (s, v) = app.post(&format!("{g}/join"), Some(t), json!({"power": p})).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (s, v) = app.post(&format!("{g}/start"), Some(&fr), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    for (phase, french, german) in [
        ("S1901M", "A mar-pie", "A mun-tyr"),
        ("F1901M", "A pie-ven", "A tyr S A pie-ven"),
    ] {
        for (t, o) in [(&fr, french), (&ge, german)] {
            let (s, v) = app
                .put(&format!("{g}/orders"), Some(t), json!({"orders": [o], "phase": phase}))
                .await;
            assert_eq!(s, StatusCode::OK, "{v}");
            let (s, v) = app
                .post(&format!("{g}/ready"), Some(t), json!({"ready": true, "phase": phase}))
                .await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
    }
    // Italy's retreat was made at once (no order: the army disbands);
    // France's build is awaited.
    let (_, v) = app.get(&g, None).await;
    assert_eq!(v["phase"], "W1901A", "{v}");
    let (_, h) = app.get(&format!("{g}/phases"), None).await;
    let names: Vec<&str> = h["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["phase"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["S1901M", "F1901M", "F1901R", "W1901A"], "{h}");
    let (_, d) = app.get(&format!("{g}/phases/F1901R"), None).await;
    assert!(
        d["report"].as_str().unwrap().contains("No orders received"),
        "{}",
        d["report"]
    );
    let italy = v["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Italy")
        .unwrap();
    assert!(
        !italy["units"].as_array().unwrap().iter().any(|u| u == "A ven"),
        "{italy}"
    );
    let france = v["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "France")
        .unwrap();
    assert_eq!(france["must_order"], true, "{france}");
}
