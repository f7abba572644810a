//! DAIDE games on maps other than the standard one: bundled variants,
//! a DipWork folder and a jDip plugin (as `dip daide --variant` takes
//! them), played by holding bots; the record replays on the variant.

mod common;
mod daide_common;

use common::{example, TestApp};
use daide_common::*;
use dip_server::daide::token::Repr;
use dip_server::daide::{self, BotGame, DaideConfig};
use std::time::Duration;

/// Where `dip daide --variants examples/jdip/tiny` looks for a variant.
fn command_line() -> dip_play::Variants {
    dip_play::Variants::with_search_paths([std::path::PathBuf::from(example("examples/jdip/tiny"))])
}

/// A bots-only game on `variant` (a name or path dip loads) played by
/// holding bots through a year of movements; returns the game's id, the
/// bots' messages, and the record replayed on the variant's map.
async fn play(variant: &str) -> (i64, Vec<Vec<String>>, dip_game::replay::GameReplay) {
    let (id, logs, replayed, _) = play_building(variant, None).await;
    (id, logs, replayed)
}

/// `play`, with one power (by name) building a unit (DAIDE's text, `AMY
/// STP`) when it first may; also the game's last position, as stored.
async fn play_building(
    variant: &str,
    build: Option<(&str, &str)>,
) -> (i64, Vec<Vec<String>>, dip_game::replay::GameReplay, dip_core::State) {
    let app = TestApp::new();
    let loaded = dip_server::variants::register(&app.state.variants, variant, &command_line())
        .unwrap_or_else(|e| panic!("{variant}: {e}"));
    let map = &loaded.variant().map;
    // A year of movements: Chaos begins with the builds of 1900.
    let start = loaded.variant().start.phase;
    let last_year = start.year + i32::from(start.kind == dip_core::PhaseKind::Adjustment);
    let id = daide::create_bot_game(
        &app.state,
        BotGame {
            name: format!("bots on {variant}"),
            variant: variant.into(),
            deadline: None,
            press: 0,
            port: 0,
            // Zero-second deadlines: a phase nobody orders in (Chaos after
            // every bot waived its builds) is processed at once.
            rules: dip_server::game::DaideRules {
                zero_deadline: true,
                ..Default::default()
            },
        },
    )
    .await
    .unwrap();
    let config = DaideConfig {
        end_after_year: Some(last_year),
        ..DaideConfig::default()
    };
    let (addr, _hub, task) = daide::listen(app.state.clone(), id, "127.0.0.1:0".parse().unwrap(), config)
        .await
        .unwrap();
    let build = build.map(|(power, unit)| {
        let r = Repr::of(map);
        let p = map
            .find_power(power)
            .unwrap_or_else(|| panic!("{variant}: no power {power}"));
        (r.name(r.power(p)).unwrap(), unit.to_string())
    });
    let bots: Vec<_> = (0..map.powers().len())
        .map(|i| tokio::spawn(buildbot_with(addr, format!("hold{i}"), Repr::of(map), build.clone())))
        .collect();
    let mut logs = Vec::new();
    for b in bots {
        logs.push(
            tokio::time::timeout(Duration::from_secs(120), b)
                .await
                .unwrap_or_else(|_| panic!("{variant}: the bots did not finish"))
                .unwrap(),
        );
    }
    tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .unwrap()
        .unwrap();
    let (_, mila) = app.get(&format!("/api/v1/games/{id}/export?format=mila"), None).await;
    let games = dip_game::mila::read_games(format!("{mila}\n").as_bytes(), "export").unwrap();
    let replayed = dip_game::replay::replay_game(map, &loaded.variant().rules, &games[0])
        .unwrap_or_else(|e| panic!("{variant}: the record does not replay: {e}"));
    let last = app
        .state
        .db
        .read(|tx| dip_server::game::load(tx, id, dip_server::game::Lock::None)?.state(&app.state.variants))
        .unwrap_or_else(|e| panic!("{variant}: the stored position does not read back: {e:?}"));
    (id, logs, replayed, last)
}

/// Every bot was greeted on the variant's map, ordered without a
/// refusal and saw the end.
fn played_through(variant: &str, logs: &[Vec<String>], map_name: &str) {
    for log in logs {
        assert!(
            log.iter().any(|m| m == &format!("MAP ('{map_name}')")),
            "{variant}: {log:?}"
        );
        assert!(log.iter().any(|m| m.starts_with("HLO (")), "{variant}: {log:?}");
        assert!(log.iter().any(|m| m.starts_with("ORD (")), "{variant}: {log:?}");
        assert!(
            !log.iter().any(|m| m.starts_with("REJ") || m.starts_with("HUH")),
            "{variant}: {log:?}"
        );
        assert!(log.iter().any(|m| m == "DRW"), "{variant}: {log:?}");
        assert_eq!(log.last().map(String::as_str), Some("OFF"), "{variant}: {log:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bundled_variants_other_than_standard_play_with_bots_and_their_records_replay() {
    for variant in ["modern", "chaos", "crowded"] {
        let (_, logs, replayed) = play(variant).await;
        played_through(variant, &logs, variant);
        assert!(replayed.differ.is_empty(), "{variant}: {:?}", replayed.differ);
        assert!(replayed.agree >= 2, "{variant}: {} phases agree", replayed.agree);
    }
}

/// Ancient Mediterranean begins in year 1 (phase `S1M`), and records of
/// variants must name their map to replay with `dip replay`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ancmed_plays_with_bots_and_records_name_their_map() {
    let (_, logs, replayed) = play("ancmed").await;
    played_through("ancmed", &logs, "ancmed");
    assert!(replayed.differ.is_empty(), "{:?}", replayed.differ);
    for variant in ["modern", "ancmed"] {
        let app = TestApp::new();
        let id = daide::create_bot_game(
            &app.state,
            BotGame {
                name: "record".into(),
                variant: variant.into(),
                deadline: None,
                press: 0,
                port: 0,
                rules: Default::default(),
            },
        )
        .await
        .unwrap();
        let (_, mila) = app.get(&format!("/api/v1/games/{id}/export?format=mila"), None).await;
        assert_eq!(mila["map"], variant, "{mila}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dipwork_folder_and_a_jdip_plugin_were_refused_as_variants() {
    // `dip daide --variant examples/variants/mini`: a DipWork folder.
    let (_, logs, replayed) = play(&example("examples/variants/mini")).await;
    played_through("mini", &logs, "mini");
    assert_eq!(logs.len(), 2);
    assert!(replayed.differ.is_empty(), "{:?}", replayed.differ);
    // `dip daide --variants examples/jdip/tiny --variant "Tiny Spring"`:
    // a jDip plugin's variant by name.
    let (_, logs, replayed) = play("Tiny Spring").await;
    played_through("Tiny Spring", &logs, "Tiny_Spring");
    assert_eq!(logs.len(), 2);
    assert!(replayed.differ.is_empty(), "{:?}", replayed.differ);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_variant_with_wings_made_a_daide_game_no_bot_could_finish() {
    // Tiny Isle (the plugin's first variant, `tiny`) has a wing, which
    // DAIDE's AMY and FLT cannot name.
    let app = TestApp::new();
    dip_server::variants::register(&app.state.variants, "tiny", &command_line()).unwrap();
    let e = daide::create_bot_game(
        &app.state,
        BotGame {
            name: "wings".into(),
            variant: "tiny".into(),
            deadline: None,
            press: 0,
            port: 0,
            rules: Default::default(),
        },
    )
    .await
    .unwrap_err();
    assert!(
        e.message.contains("armies and fleets only") && e.message.contains("Wing"),
        "{}",
        e.message
    );
}

/// Chaos's St Petersburg is named like its province. Once it had built,
/// its stored position no longer read back: the game paused and the 33
/// other bots waited forever for the next phase.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chaos_game_of_bots_paused_once_st_petersburg_had_built() {
    let (_, logs, replayed, last) = play_building("chaos", Some(("St Petersburg", "FLT (STP NCS)"))).await;
    played_through("chaos", &logs, "chaos");
    assert!(replayed.differ.is_empty(), "{:?}", replayed.differ);
    assert!(
        logs.iter()
            .flatten()
            .any(|m| m.starts_with("ORD (WIN 1900)") && m.contains("FLT (STP NCS)) BLD) (SUC)")),
        "St Petersburg did not build: {:?}",
        logs[0]
    );
    // The fleet stands in the last position, which reads back.
    let chaos = dip_server::variants::get(&dip_server::variants::for_server(), "chaos").unwrap();
    let map = &chaos.variant().map;
    let stp = map.find_power("St Petersburg").unwrap();
    let text = dip_text::format_position(map, &last);
    assert!(last.units().any(|(_, u)| u.power == stp), "{text}");
    assert!(text.contains("St Petersburg: F stp/nc"), "{text}");
}
