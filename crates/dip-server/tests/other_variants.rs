//! A game in a variant other than the standard one, through the API:
//! ancmed (five powers, years counted from 1) into its second year, its
//! phases named as the game names them, and its MILA export read back on
//! its own map.

mod common;

use axum::http::StatusCode;
use common::{example, TestApp};
use dip_core::Ruleset;
use dip_server::game::{self, Lock};
use serde_json::{json, Value};

const POWERS: [&str; 5] = ["Carthage", "Egypt", "Greece", "Persia", "Rome"];

/// A started ancmed game with a player for each power; (id, [(power, token)]).
async fn ancmed(app: &TestApp) -> (i64, Vec<(String, String)>) {
    let mut tokens = Vec::new();
    for p in POWERS {
        tokens.push((p.to_string(), app.user(&format!("player-{}", p.to_lowercase())).await));
    }
    let (s, v) = app
        .post(
            "/api/v1/games",
            Some(&tokens[0].1),
            json!({"name": "Ancient", "variant": "ancmed"}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_i64().unwrap();
    for (p, t) in &tokens {
        let (s, v) = app
            .post(&format!("/api/v1/games/{id}/join"), Some(t), json!({"power": p}))
            .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    (id, tokens)
}

fn state_of(app: &TestApp, id: i64) -> dip_core::State {
    app.state
        .db
        .read(|tx| game::load(tx, id, Lock::None)?.state(&app.state.variants))
        .unwrap()
}

/// The phase names of the game's history.
async fn phase_names(app: &TestApp, id: i64) -> Vec<String> {
    let (_, h) = app.get(&format!("/api/v1/games/{id}/phases"), None).await;
    h["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["phase"].as_str().unwrap().to_string())
        .collect()
}

/// The phase was checked with a reader of six characters at least: a game
/// in year 1 refused its own phase `S1M` (400), and the web page, which
/// sends the phase with every save, could not save orders in ancmed.
#[tokio::test]
async fn ancmed_games_could_not_save_orders_for_their_own_phase() {
    let app = TestApp::new();
    let (id, tokens) = ancmed(&app).await;
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["phase"], "S1M", "{g}");
    let rome = &tokens[4].1;
    for phase in ["S1M", "s1m", "S0001M"] {
        let (s, v) = app
            .put(
                &format!("/api/v1/games/{id}/orders"),
                Some(rome),
                json!({"orders": ["A rom H"], "phase": phase}),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{phase}: {v}");
        assert_eq!(v["lines"][0]["fate"], "accepted", "{v}");
    }
    let (s, v) = app
        .post(
            &format!("/api/v1/games/{id}/ready"),
            Some(rome),
            json!({"ready": true, "phase": "S1M"}),
        )
        .await;
    assert_eq!((s, &v["processed"]), (StatusCode::OK, &json!(false)), "{v}");
    // A phase that has not begun, and one that is no phase.
    for (phase, status) in [("F1M", StatusCode::CONFLICT), ("S1X", StatusCode::BAD_REQUEST)] {
        let (s, v) = app
            .put(
                &format!("/api/v1/games/{id}/orders"),
                Some(rome),
                json!({"orders": ["A rom H"], "phase": phase}),
            )
            .await;
        assert_eq!(s, status, "{phase}: {v}");
    }
}

/// The whole game through the API: random legal orders of every power
/// that must order, sent with the phase and followed by "ready", until
/// the second spring; then the phases by name, their maps, and the MILA
/// export, which names the map and reads back as the same game.
#[tokio::test]
async fn an_ancmed_game_is_played_to_its_second_year_and_exported() {
    let app = TestApp::new();
    let (id, tokens) = ancmed(&app).await;
    let loaded = dip_server::variants::get(&app.state.variants, "ancmed").unwrap();
    let (map, rules) = (&loaded.variant().map, loaded.variant().rules);
    let mut rng = dip_core::random::Rng::with_seed(1);
    let mut guard = 0;
    loop {
        let state = state_of(&app, id);
        if state.phase.year == 2 {
            break;
        }
        guard += 1;
        assert!(guard < 10, "still in {} after {guard} phases", state.phase.short());
        let phase = state.phase.short();
        let mut by_power: std::collections::BTreeMap<String, Vec<String>> = Default::default();
        for o in dip_core::random::random_orders(map, &state, &rules, &mut rng) {
            let text = dip_text::format_order(map, &o, dip_text::Style::Mila);
            by_power.entry(map.power(o.power).name.clone()).or_default().push(text);
        }
        let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
        for p in g["powers"].as_array().unwrap() {
            if p["must_order"] != json!(true) {
                continue;
            }
            let name = p["name"].as_str().unwrap();
            let token = &tokens.iter().find(|(n, _)| n == name).unwrap().1;
            let orders = by_power.get(name).cloned().unwrap_or_default();
            let (s, v) = app
                .put(
                    &format!("/api/v1/games/{id}/orders"),
                    Some(token),
                    json!({"orders": orders, "phase": phase}),
                )
                .await;
            assert_eq!(s, StatusCode::OK, "{name} in {phase}: {v}");
            let (s, v) = app
                .post(
                    &format!("/api/v1/games/{id}/ready"),
                    Some(token),
                    json!({"ready": true, "phase": phase}),
                )
                .await;
            assert_eq!(s, StatusCode::OK, "{name} in {phase}: {v}");
        }
        assert_ne!(state_of(&app, id).phase, state.phase, "{phase} was not processed");
    }
    let names = phase_names(&app, id).await;
    assert_eq!(names.first().map(String::as_str), Some("S1M"), "{names:?}");
    assert_eq!(names.last().map(String::as_str), Some("S2M"), "{names:?}");
    assert!(names.contains(&"F1M".to_string()), "{names:?}");
    // A phase by its name, or by MILA's.
    for phase in ["S1M", "S0001M", "f1m"] {
        let (s, d) = app.get(&format!("/api/v1/games/{id}/phases/{phase}"), None).await;
        assert_eq!(s, StatusCode::OK, "{phase}: {d}");
        assert!(d["report"].as_str().is_some_and(|r| !r.is_empty()), "{phase}: {d}");
        let (s, _) = app
            .get(&format!("/api/v1/games/{id}/map.svg?phase={phase}"), None)
            .await;
        assert_eq!(s, StatusCode::OK, "{phase}");
    }

    let (s, m) = app.get(&format!("/api/v1/games/{id}/export?format=mila"), None).await;
    assert_eq!(s, StatusCode::OK, "{m}");
    assert_eq!(m["map"], "ancmed", "the export named the standard map");
    assert_eq!(m["phases"][0]["name"], "S0001M", "MILA's four-digit year");
    let saved: dip_game::mila::SavedGame = serde_json::from_value(m).unwrap();
    let v = dip_game::record::mila_variant(&saved.map, &dip_play::Variants::new()).unwrap();
    assert_eq!(v.name, "ancmed");
    let rec = dip_game::record::from_mila(&v.map, &saved).unwrap();
    assert_eq!(rec.variant, "ancmed");
    assert_eq!(rec.phases.len(), names.len() - 1, "{names:?}");
    let r = dip_game::replay::replay_game(&v.map, &Ruleset::parse(&rec.rules).unwrap(), &saved).unwrap();
    assert!(r.differ.is_empty(), "{:#?}", r.differ);
    let last = rec.last_state(&v.map).unwrap();
    assert_eq!(
        dip_text::format_position(&v.map, &last),
        dip_text::format_position(map, &state_of(&app, id)),
        "the export's last position is the game's"
    );
}

/// MILA's name of a map is written where it differs from dip's.
#[tokio::test]
async fn the_mila_export_of_fleet_rome_names_milas_map() {
    let app = TestApp::new();
    let gm = app.user("gm").await;
    let (_, v) = app
        .post(
            "/api/v1/games",
            Some(&gm),
            json!({"name": "Fleet", "variant": "fleetrome", "players": {"min": 1, "max": 7}}),
        )
        .await;
    let id = v["id"].as_i64().unwrap();
    app.post(&format!("/api/v1/games/{id}/join"), Some(&gm), json!({}))
        .await;
    let (s, v) = app
        .post(&format!("/api/v1/games/{id}/start"), Some(&gm), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = app
        .post(&format!("/api/v1/games/{id}/process"), Some(&gm), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, m): (_, Value) = app.get(&format!("/api/v1/games/{id}/export?format=mila"), None).await;
    assert_eq!(m["map"], "standard_fleet_rome", "{}", m["map"]);
    let saved: dip_game::mila::SavedGame = serde_json::from_value(m).unwrap();
    assert_eq!(
        dip_game::record::mila_variant(&saved.map, &dip_play::Variants::new())
            .unwrap()
            .name,
        "fleetrome"
    );
}

/// Chaos names each power after its home centre. The position was stored
/// as text in which `St Petersburg: A stp` did not read back (the power's
/// name read as the province), so once St Petersburg had built, every
/// request that read the game answered 500 and the game stood still.
#[tokio::test]
async fn a_chaos_game_stood_still_once_st_petersburg_had_built() {
    let app = TestApp::new();
    let stp = app.user("peter").await;
    let (s, v) = app
        .post(
            "/api/v1/games",
            Some(&stp),
            json!({"name": "Chaos", "variant": "chaos", "players": {"min": 1, "max": 34}}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let g = format!("/api/v1/games/{}", v["id"]);
    let id = v["id"].as_i64().unwrap();
    let (s, v) = app
        .post(&format!("{g}/join"), Some(&stp), json!({"power": "St Petersburg"}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = app.post(&format!("{g}/start"), Some(&stp), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let units_of_stp = |g: &Value| -> Vec<String> {
        let p = g["powers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "St Petersburg")
            .unwrap_or_else(|| panic!("no St Petersburg in {g}"));
        p["units"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.as_str().unwrap().to_string())
            .collect()
    };
    for (phase, order, next, units) in [
        ("W1900A", "Build F stp/nc", "S1901M", ["F stp/nc"]),
        ("S1901M", "F stp/nc-bar", "F1901M", ["F bar"]),
    ] {
        let (s, v) = app
            .put(
                &format!("{g}/orders"),
                Some(&stp),
                json!({"orders": [order], "phase": phase}),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{phase}: {v}");
        assert_eq!(v["lines"][0]["fate"], "accepted", "{phase}: {v}");
        let (s, v) = app
            .post(
                &format!("{g}/ready"),
                Some(&stp),
                json!({"ready": true, "phase": phase}),
            )
            .await;
        assert_eq!(s, StatusCode::OK, "{phase}: {v}");
        // Every way the position is read answers, and reads it back.
        let (s, v) = app.get(&g, None).await;
        assert_eq!(s, StatusCode::OK, "after {phase}: {v}");
        assert_eq!(v["phase"], next, "{v}");
        assert_eq!(units_of_stp(&v), units, "after {phase}");
        for path in [
            format!("{g}/phases"),
            format!("{g}/phases/{phase}"),
            format!("{g}/orders"),
            format!("{g}/map.svg"),
            format!("{g}/export?format=mila"),
        ] {
            let (s, v) = app.get(&path, Some(&stp)).await;
            assert_eq!(s, StatusCode::OK, "{path}: {v}");
        }
    }
    let state = state_of(&app, id);
    let loaded = dip_server::variants::get(&app.state.variants, "chaos").unwrap();
    let map = &loaded.variant().map;
    let text = dip_text::format_position(map, &state);
    assert!(text.contains("St Petersburg: F bar"), "{text}");
    assert_eq!(dip_text::parse_position(map, &text, "stored").unwrap(), state, "{text}");
}

/// The variants a server plays are its own (`AppState::variants`): a
/// variant file one server was given (`dip daide --variant`) is unknown to
/// another server of the same process, which was given another. They were
/// statics of the process before, shared by every server in it.
#[tokio::test]
async fn two_servers_given_different_variant_files_do_not_see_each_others() {
    let (one, other) = (TestApp::new(), TestApp::new());
    let duel = example("examples/variants/duel.map");
    let tiny = example("examples/variants/tiny-realpolitik/Tiny.var");
    let duel_name = dip_server::variants::register(&one.state.variants, &duel, &dip_play::Variants::new())
        .unwrap()
        .variant()
        .name
        .clone();
    let tiny_name = dip_server::variants::register(&other.state.variants, &tiny, &dip_play::Variants::new())
        .unwrap()
        .variant()
        .name
        .clone();
    for (app, mine, theirs) in [(&one, &duel, &tiny), (&other, &tiny, &duel)] {
        let token = app.user("creator").await;
        let (s, v) = app
            .post("/api/v1/games", Some(&token), json!({"name": "Mine", "variant": mine}))
            .await;
        assert_eq!(s, StatusCode::CREATED, "{mine}: {v}");
        let (s, g) = app.get(&format!("/api/v1/games/{}", v["id"]), None).await;
        assert_eq!(s, StatusCode::OK, "{mine}: {g}");
        let (s, v) = app
            .post(
                "/api/v1/games",
                Some(&token),
                json!({"name": "Theirs", "variant": theirs}),
            )
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{theirs}: {v}");
        assert!(v.to_string().contains("unknown variant"), "{theirs}: {v}");
    }
    // Nor by the variants' own names, which their games store.
    for (app, theirs) in [(&one, &tiny_name), (&other, &duel_name)] {
        assert!(
            dip_server::variants::get(&app.state.variants, theirs).is_err(),
            "{theirs}"
        );
    }
    assert!(dip_server::variants::get(&one.state.variants, &duel_name).is_ok());
    assert!(dip_server::variants::get(&other.state.variants, &tiny_name).is_ok());
}
