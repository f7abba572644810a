//! A whole seven-player standard game through the API, past 1902: every
//! player orders as text (random orders of dip's own generator), all say
//! ready, and after every phase the server's position is the one the
//! engine computes from the same orders.

mod common;

use axum::http::StatusCode;
use common::{token_of, TestApp};
use dip_core::{game, random, PhaseKind, Ruleset};
use dip_text::{format_order, Style};
use serde_json::json;
use std::collections::BTreeSet;

#[tokio::test]
async fn seven_players_play_into_1903_and_the_server_agrees_with_the_engine() {
    let app = TestApp::new();
    let (id, tokens) = app
        .seven(json!({"deadlines": {"movement": "24h", "retreat": "1h", "adjustment": "1h"}}))
        .await;
    let variant = dip_variants::standard();
    let map = &variant.map;
    let rules = Ruleset::default();
    let mut state = variant.start.clone();
    let mut rng = random::Rng::with_seed(1901);
    let mut phases = 0;
    let mut kinds = BTreeSet::new();
    while state.phase.year < 1903 {
        let orders = random::random_orders(map, &state, &rules, &mut rng);
        for p in map.power_ids() {
            let name = &map.power(p).name;
            let lines: Vec<String> = orders
                .iter()
                .filter(|o| o.power == p)
                .map(|o| format_order(map, o, Style::Mila))
                .collect();
            if lines.is_empty() {
                continue;
            }
            let (s, v) = app
                .put(
                    &format!("/api/v1/games/{id}/orders"),
                    Some(token_of(&tokens, name)),
                    json!({"orders": lines, "phase": state.phase.short()}),
                )
                .await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        for (_, t) in &tokens {
            let (s, v) = app
                .post(&format!("/api/v1/games/{id}/ready"), Some(t), json!({"ready": true}))
                .await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        let outcome = game::adjudicate(map, &state, &orders, &rules);
        let next = game::advance(map, &state, &outcome);
        let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
        assert_eq!(g["phase"], next.phase.short(), "after {}: {g}", state.phase.short());
        for p in map.power_ids() {
            let want: BTreeSet<String> = next
                .units()
                .filter(|(_, u)| u.power == p)
                .map(|(_, u)| format!("{} {}", map.unit_type(u.kind).letter, map.region_name(u.region)))
                .collect();
            let pj = g["powers"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["name"] == map.power(p).name.as_str())
                .unwrap();
            let got: BTreeSet<String> = pj["units"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u.as_str().unwrap().to_string())
                .collect();
            assert_eq!(got, want, "{} after {}", map.power(p).name, state.phase.short());
            assert_eq!(pj["centre_count"], next.center_count(map, p), "{}", map.power(p).name);
        }
        kinds.insert(format!("{:?}", state.phase.kind));
        phases += 1;
        state = next;
    }
    assert!(phases >= 5, "{phases} phases");
    assert!(kinds.contains(&format!("{:?}", PhaseKind::Adjustment)), "{kinds:?}");
    let (_, h) = app.get(&format!("/api/v1/games/{id}/phases"), None).await;
    assert_eq!(h["phases"].as_array().unwrap().len(), phases + 1);
    // The MILA export replays in dip as the same game.
    let (_, m) = app.get(&format!("/api/v1/games/{id}/export?format=mila"), None).await;
    let saved: dip_game::mila::SavedGame = serde_json::from_value(m).unwrap();
    let rec = dip_game::record::from_mila(map, &saved).unwrap();
    assert_eq!(rec.phases.len(), phases);
    // The DipWork export's record, made from the phases the server played
    // (each once), is the record its phases give when played again.
    let (s, tar, _) = app
        .raw(
            axum::http::Method::GET,
            &format!("/api/v1/games/{id}/export?format=dipwork"),
            None,
            None,
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let text = history_rec(&tar);
    let again = dip_game::record::GameRecord::from_text(map, &text, "HISTORY.REC").unwrap();
    assert_eq!(again.phases.len(), phases);
    assert_eq!(text, again.to_text(map));
}

/// HISTORY.REC of a DipWork export's tar.
fn history_rec(tar: &[u8]) -> String {
    use std::io::Read;
    let mut archive = tar::Archive::new(tar);
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        if entry.path().unwrap().ends_with("HISTORY.REC") {
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            return text;
        }
    }
    panic!("no HISTORY.REC in the export")
}
