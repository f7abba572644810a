//! DAIDE over real TCP connections: Rust bots that hold play whole games,
//! a mixed game of DAIDE clients and API players, and clients that break
//! the protocol.

mod common;
mod daide_common;

use common::TestApp;
use daide_common::*;
use dip_server::daide::frame::{self, Frame};
use dip_server::daide::message::Msg;
use dip_server::daide::{self, BotGame, DaideConfig};
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seven_holding_bots_play_until_the_last_year_and_the_record_replays() {
    let app = TestApp::new();
    let config = DaideConfig {
        end_after_year: Some(1902),
        ..DaideConfig::default()
    };
    let (id, addr, task) = bot_game(&app, config).await;
    let start = Instant::now();
    let bots: Vec<_> = (0..7)
        .map(|i| tokio::spawn(holdbot(addr, format!("hold{i}"))))
        .collect();
    let mut logs = Vec::new();
    for b in bots {
        logs.push(b.await.unwrap());
    }
    tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .unwrap()
        .unwrap();
    let took = start.elapsed();
    for log in &logs {
        assert!(log.iter().any(|m| m.starts_with("HLO (")), "{log:?}");
        assert!(log.iter().any(|m| m.starts_with("ORD (SPR 1901) ((")), "{log:?}");
        assert!(log.iter().any(|m| m.starts_with("NOW (SPR 1902)")), "{log:?}");
        assert!(log.iter().any(|m| m == "DRW"), "{log:?}");
        assert!(log.iter().any(|m| m.starts_with("SMR (SPR 1903)")), "{log:?}");
        assert_eq!(log.last().map(String::as_str), Some("OFF"));
        assert!(!log.iter().any(|m| m.starts_with("HUH")), "{log:?}");
        // The game ends before a turn after 1902 is announced, so no bot
        // orders in a game that is over.
        assert!(!log.iter().any(|m| m.starts_with("NOW (SPR 1903)")), "{log:?}");
        assert!(!log.iter().any(|m| m.starts_with("REJ")), "{log:?}");
        let sco = log.iter().rposition(|m| m.starts_with("SCO")).unwrap();
        assert!(log[sco + 1..].starts_with(&["DRW".to_string()]), "{log:?}");
        assert!(
            log.iter()
                .filter(|m| m.starts_with("THX"))
                .all(|m| m.ends_with("(MBV)")),
            "{log:?}"
        );
    }
    // Every bot's orders were stored like an API player's, phase by phase.
    let (_, phases) = app.get(&format!("/api/v1/games/{id}/phases"), None).await;
    let list = phases["phases"].as_array().unwrap();
    assert_eq!(list.len(), 4, "{phases}");
    let (_, detail) = app.get(&format!("/api/v1/games/{id}/phases/S1901M"), None).await;
    assert_eq!(detail["orders"]["England"].as_array().unwrap().len(), 3, "{detail}");
    let (_, mila) = app.get(&format!("/api/v1/games/{id}/export?format=mila"), None).await;
    let games = dip_game::mila::read_games(format!("{mila}\n").as_bytes(), "export").unwrap();
    let rules = dip_core::Ruleset::parse("datc convoy-adjacent=dptg").unwrap();
    let v = dip_variants::standard();
    let replayed = dip_game::replay::replay_game(&v.map, &rules, &games[0]).unwrap();
    assert!(replayed.differ.is_empty(), "{:?}", replayed.differ);
    assert_eq!(replayed.agree, 4);
    eprintln!(
        "seven holding bots: {} phases in {:.2?} ({:.1} phases/s)",
        list.len(),
        took,
        list.len() as f64 / took.as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_daide_clients_and_four_api_players_share_one_spring() {
    let mut app = TestApp::new();
    app.state.daide_ports = Some(16700..=16999);
    let gm = app.user("master").await;
    let (s, g) = app
        .post(
            "/api/v1/games",
            Some(&gm),
            json!({"name": "mixed", "daide": true, "assignment": "choice"}),
        )
        .await;
    assert_eq!(s, 201, "{g}");
    assert!(
        g["daide_port"].as_u64().is_some_and(|p| (16700..=16999).contains(&p)),
        "{g}"
    );
    let id = g["id"].as_i64().unwrap();
    let (_, view) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(view["daide_port"], g["daide_port"]);
    let (addr, _hub, _task) = daide::listen(
        app.state.clone(),
        id,
        "127.0.0.1:0".parse().unwrap(),
        DaideConfig::default(),
    )
    .await
    .unwrap();
    // Four API players take four powers; three bots get the rest.
    let mut api = Vec::new();
    for p in ["France", "Germany", "Italy", "Russia"] {
        let t = app.user(&format!("api{p}")).await;
        let (s, b) = app
            .post(&format!("/api/v1/games/{id}/join"), Some(&t), json!({"power": p}))
            .await;
        assert_eq!(s, 200, "{b}");
        api.push((p, t));
    }
    let mut bots = three_bots_join(addr).await;
    // The API players order; one of them moves.
    for (p, t) in &api {
        let lines = if *p == "France" {
            json!(["A Par-Bur", "A Mar H", "F Bre H"])
        } else {
            json!([])
        };
        if *p == "France" {
            let (s, b) = app
                .put(&format!("/api/v1/games/{id}/orders"), Some(t), json!({"orders": lines}))
                .await;
            assert_eq!(s, 200, "{b}");
        }
        let (s, b) = app
            .post(&format!("/api/v1/games/{id}/ready"), Some(t), json!({"ready": true}))
            .await;
        assert!(s.is_success(), "{b}");
    }
    bots_order_one_after_a_bad_order(&mut bots).await;
    if std::env::var("DAIDE_TRACE").is_ok() {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let (_, v) = app.get(&format!("/api/v1/games/{id}"), None).await;
        eprintln!("{}", v["powers"]);
    }
    for c in &mut bots {
        sees_the_spring_played(c).await;
    }
    // The bots' orders are in the history beside the API players'.
    let (_, detail) = app.get(&format!("/api/v1/games/{id}/phases/S1901M"), None).await;
    assert_eq!(
        detail["orders"]["Austria"],
        json!(["A Bud H", "F Tri H", "A Vie-Gal"]),
        "{detail}"
    );
    assert_eq!(
        detail["orders"]["France"],
        json!(["A Par-Bur", "A Mar H", "F Bre H"]),
        "{detail}"
    );
    a_bot_that_leaves_comes_back_with_its_code(addr, bots).await;
}

/// Three bots connect and are given the three powers the API players left.
async fn three_bots_join(addr: std::net::SocketAddr) -> Vec<Client> {
    let mut bots = Vec::new();
    for i in 0..3 {
        let mut c = Client::connect(addr).await;
        c.send(&format!("NME ('bot{i}') ('1')")).await;
        assert_eq!(c.recv().await.unwrap(), format!("YES (NME ('bot{i}') ('1'))"));
        assert_eq!(c.recv().await.unwrap(), "MAP ('standard')");
        c.send("YES (MAP ('standard'))").await;
        bots.push(c);
    }
    let mut powers = Vec::new();
    for c in &mut bots {
        let (hlo, _) = c.until("HLO (").await;
        assert!(hlo.ends_with("((LVL 30))"), "{hlo}");
        powers.push(hlo[5..8].to_string());
        c.until("NOW (SPR 1901)").await;
    }
    powers.sort();
    assert_eq!(powers, ["AUS", "ENG", "TUR"]);
    bots
}

/// The bots order: one moves, one has a bad order first.
async fn bots_order_one_after_a_bad_order(bots: &mut [Client]) {
    for c in bots.iter_mut() {
        c.send("HLO").await;
        let (hlo, _) = c.until("HLO (").await;
        let me = hlo[5..8].to_string();
        let sub = match me.as_str() {
            "ENG" => "SUB ((ENG FLT LON) MTO NTH) ((ENG FLT EDI) HLD) ((ENG AMY LVP) MTO YOR)".to_string(),
            "AUS" => "SUB ((AUS AMY VIE) MTO WAR) ((AUS AMY BUD) HLD) ((AUS FLT TRI) HLD)".to_string(),
            _ => "SUB ((TUR FLT ANK) HLD) ((TUR AMY CON) HLD) ((TUR AMY SMY) HLD)".to_string(),
        };
        c.send(&sub).await;
        let (first, _) = c.until("THX").await;
        if me == "AUS" {
            assert_eq!(first, "THX ((AUS AMY VIE) MTO WAR) (FAR)");
            let (mis, _) = c.until("MIS").await;
            assert_eq!(mis, "MIS (AUS AMY VIE)");
            c.send("SUB ((AUS AMY VIE) MTO GAL)").await;
            assert_eq!(c.until("THX").await.0, "THX ((AUS AMY VIE) MTO GAL) (MBV)");
        }
    }
}

/// A client is told the spring's orders and results and the autumn's position.
async fn sees_the_spring_played(c: &mut Client) {
    let (ord, before) = c.until("NOW (FAL 1901)").await;
    let all = before.join("\n");
    assert!(
        all.contains("ORD (SPR 1901) ((FRA AMY PAR) MTO BUR) (SUC)"),
        "{all}\n{ord}"
    );
    assert!(all.contains("ORD (SPR 1901) ((ENG FLT LON) MTO NTH) (SUC)"), "{all}");
    assert!(all.contains("ORD (SPR 1901) ((AUS AMY VIE) MTO GAL) (SUC)"), "{all}");
    assert!(
        ord.contains("(FRA AMY BUR)") && ord.contains("(AUS AMY GAL)") && ord.contains("(ENG FLT NTH)"),
        "{ord}"
    );
}

/// A bot that leaves puts its power in civil disorder; IAM with the wrong
/// code is refused, with its code it brings the power back.
async fn a_bot_that_leaves_comes_back_with_its_code(addr: std::net::SocketAddr, mut bots: Vec<Client>) {
    let hlo = {
        let c = &mut bots[2];
        c.send("HLO").await;
        c.until("HLO (").await.0
    };
    let (power, code) = (hlo[5..8].to_string(), hlo.split(") (").nth(1).unwrap().to_string());
    drop(bots.pop());
    let (ccd, _) = bots[0].until("CCD (").await;
    assert_eq!(ccd, format!("CCD ({power})"));
    let mut back = Client::connect(addr).await;
    back.send(&format!("IAM ({power}) (8191)")).await;
    assert_eq!(back.recv().await.unwrap(), format!("REJ (IAM ({power}) (8191))"));
    let mut back = Client::connect(addr).await;
    back.send(&format!("IAM ({power}) ({code})")).await;
    assert_eq!(back.recv().await.unwrap(), format!("YES (IAM ({power}) ({code}))"));
    assert_eq!(bots[0].until("NOT (CCD").await.0, format!("NOT (CCD ({power}))"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_errors_end_only_the_offending_connection() {
    let app = TestApp::new();
    let config = DaideConfig {
        im_timeout: Duration::from_millis(300),
        ..DaideConfig::default()
    };
    let (_, addr, _task) = bot_game(&app, config).await;
    let mut good = Client::connect(addr).await;
    // Wrong magic, wrong endian, wrong version, DM first, RM from a client.
    for (bytes, code) in [
        (vec![0u8, 0, 0, 4, 0, 1, 0xDA, 0x11], 4),
        (vec![0, 0, 0, 4, 0, 1, 0x10, 0xDA], 3),
        (vec![0, 0, 0, 4, 0, 2, 0xDA, 0x10], 5),
        (vec![2, 0, 0, 2, 0x48, 0x0E], 2),
        (vec![1, 0, 0, 0], 13),
        (vec![9, 0, 0, 0], 8),
        // An IM is four octets long: six is a length error.
        (vec![0, 0, 0, 6, 0, 1, 0xDA, 0x10, 0, 0], 9),
    ] {
        let mut c = Client::raw(addr).await;
        c.s.write_all(&bytes).await.unwrap();
        assert_eq!(c.recv().await, Some(format!("EM {code}")), "{bytes:?}");
        assert_eq!(c.recv().await, None);
    }
    // Silence: EM 1 when the IM timer pops.
    let mut silent = Client::raw(addr).await;
    assert_eq!(silent.recv().await, Some("EM 1".into()));
    // After the IM: a second IM, an odd length, a reserved token.
    for (bytes, code) in [
        (Frame::im().encode(), 6),
        (vec![2, 0, 0, 3, 0x48, 0x0E, 0], 9),
        (vec![2, 0, 0, 2, 0x58, 0x00], 14),
        (vec![2, 0, 0xff, 0xff], 8),
    ] {
        let mut c = Client::connect(addr).await;
        c.s.write_all(&bytes).await.unwrap();
        assert_eq!(c.recv().await, Some(format!("EM {code}")), "{bytes:?}");
    }
    // A frame cut off: the connection just ends.
    let mut cut = Client::connect(addr).await;
    cut.s.write_all(&[2, 0, 0, 10, 0x48]).await.unwrap();
    drop(cut);
    // Language errors are answered in the language.
    good.send("NOW").await;
    assert!(good.recv().await.unwrap().starts_with("NOW (SPR 1901)"));
    good.frame(&Frame::new(frame::DM, vec![0x48, 0x18, 0x40, 0x00])).await;
    assert_eq!(good.recv().await.unwrap(), "PRN (SUB ()");
    good.frame(&Frame::new(frame::DM, vec![0x48, 0x0E, 0x4E, 0x01])).await;
    assert_eq!(good.recv().await.unwrap(), "HUH (NOW ERR 0x4E01)");
    good.send("SUB ((ENG AMY LVP) HLD)").await;
    assert_eq!(good.recv().await.unwrap(), "REJ (SUB ((ENG AMY LVP) HLD))");
    good.send("HLO").await;
    assert_eq!(good.recv().await.unwrap(), "REJ (HLO)");
    good.send("YES").await;
    good.send("NME ('x')").await;
    assert_eq!(good.recv().await.unwrap(), "HUH (NME ('x') ERR)");
    good.send("GOF (SPR 1901)").await;
    assert_eq!(good.recv().await.unwrap(), "HUH (ERR GOF (SPR 1901))");
    good.send("SCO").await;
    assert!(good.recv().await.unwrap().starts_with("SCO (AUS BUD TRI VIE)"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn press_is_relayed_at_its_level_and_refused_in_gunboat_games() {
    let app = TestApp::new();
    let id = daide::create_bot_game(
        &app.state,
        BotGame {
            name: "press".into(),
            variant: "standard".into(),
            deadline: Some("1h".into()),
            press: 10,
            port: 0,
            rules: Default::default(),
        },
    )
    .await
    .unwrap();
    let config = DaideConfig {
        press_level: 10,
        ..DaideConfig::default()
    };
    let (addr, _hub, _task) = daide::listen(app.state.clone(), id, "127.0.0.1:0".parse().unwrap(), config)
        .await
        .unwrap();
    let mut cs = Vec::new();
    for i in 0..7 {
        let mut c = Client::connect(addr).await;
        c.send(&format!("NME ('p{i}') ('1')")).await;
        c.until("MAP").await;
        c.send("YES (MAP ('standard'))").await;
        cs.push(c);
    }
    let mut me = Vec::new();
    for c in &mut cs {
        let (hlo, _) = c.until("HLO (").await;
        assert!(hlo.contains("(LVL 10) (MTL 3600) (RTL 3600) (BTL 3600)"), "{hlo}");
        me.push(hlo[5..8].to_string());
        c.until("NOW").await;
        let (tme, _) = c.until("TME (").await;
        assert!(tme.starts_with("TME (359") || tme == "TME (3600)", "{tme}");
    }
    let to = me[1].clone();
    cs[0].send(&format!("SND ({to}) (PRP (PCE ({} {to})))", me[0])).await;
    assert_eq!(
        cs[0].until("YES (SND").await.0,
        format!("YES (SND ({to}) (PRP (PCE ({} {to}))))", me[0])
    );
    assert_eq!(
        cs[1].until("FRM").await.0,
        format!("FRM ({}) ({to}) (PRP (PCE ({} {to})))", me[0], me[0])
    );
    // XDO is level 20.
    cs[0].send(&format!("SND ({to}) (PRP (XDO ((ENG AMY LVP) HLD)))")).await;
    assert_eq!(
        cs[0].until("HUH").await.0,
        format!("HUH (SND ({to}) (PRP (ERR XDO ((ENG AMY LVP) HLD))))")
    );
    // Gunboat: no press at all.
    let gun = daide::create_bot_game(
        &app.state,
        BotGame {
            name: "gunboat".into(),
            variant: "standard".into(),
            deadline: None,
            press: 0,
            port: 0,
            rules: Default::default(),
        },
    )
    .await
    .unwrap();
    let (addr, _hub, _task) = daide::listen(
        app.state.clone(),
        gun,
        "127.0.0.1:0".parse().unwrap(),
        DaideConfig::default(),
    )
    .await
    .unwrap();
    let mut c = Client::connect(addr).await;
    c.send("SND (ENG) (PRP (PCE (ENG FRA)))").await;
    assert_eq!(c.recv().await.unwrap(), "HUH (ERR SND (ENG) (PRP (PCE (ENG FRA))))");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hlo_names_every_variant_option_the_game_has() {
    use dip_server::game::{DaideRules, Deadlines, Options};
    let r = repr();
    let base = Options {
        players: dip_server::game::Players { min: 7, max: 7 },
        deadlines: Deadlines::default(),
        press: dip_server::game::Press::None,
        anonymous: false,
        daide: true,
        assignment: dip_server::game::Assignment::Random,
        civil_disorder_after: 3,
        daide_port: None,
        daide_rules: DaideRules::default(),
    };
    let text = |o: &Options, level: i32| daide::hlo_options(o, level).msg().to_text(&r);
    // No deadline, no press: LVL only (zero-second deadlines are none).
    assert_eq!(text(&base, 0), "(LVL 0)");
    let zero = Options {
        daide_rules: DaideRules {
            zero_deadline: true,
            ..DaideRules::default()
        },
        ..base.clone()
    };
    assert_eq!(text(&zero, 0), "(LVL 0)");
    let timed = Options {
        deadlines: Deadlines {
            movement: Some("10m".into()),
            retreat: Some("2m".into()),
            adjustment: Some("3m".into()),
        },
        ..base.clone()
    };
    assert_eq!(text(&timed, 0), "(LVL 0) (MTL 600) (RTL 120) (BTL 180)");
    let all = Options {
        daide_rules: DaideRules {
            zero_deadline: false,
            any_orders_accepted: true,
            deadline_stops_on_disconnection: true,
            no_press_in_retreats: true,
            no_press_in_builds: true,
            press_time_limit: Some(60),
        },
        ..timed.clone()
    };
    assert_eq!(
        text(&all, 20),
        "(LVL 20) (MTL 600) (RTL 120) (BTL 180) (DSD) (AOA) (NPR) (NPB) (PTL 60)"
    );
    // Press options mean nothing without press; DSD and PTL nothing
    // without deadlines.
    assert_eq!(text(&all, 0), "(LVL 0) (MTL 600) (RTL 120) (BTL 180) (DSD) (AOA)");
    let untimed = Options {
        deadlines: Deadlines::default(),
        ..all.clone()
    };
    assert_eq!(text(&untimed, 10), "(LVL 10) (AOA) (NPR) (NPB)");
    // What a bot receives.
    let app = TestApp::new();
    let (_, _, cs) = seated(&app, Some("1h"), 20, all.daide_rules.clone(), None).await;
    assert!(
        cs[0]
            .2
            .ends_with(") ((LVL 20) (MTL 3600) (RTL 3600) (BTL 3600) (DSD) (AOA) (NPR) (NPB) (PTL 60))"),
        "{}",
        cs[0].2
    );
}

#[test]
fn press_is_closed_in_retreats_builds_and_before_the_deadline_as_the_options_say() {
    use dip_core::PhaseKind::*;
    use dip_server::game::DaideRules;
    let none = DaideRules::default();
    for k in [Movement, Retreat, Adjustment] {
        assert_eq!(daide::press_closed(&none, k, Some(1_000), 999), None);
    }
    let r = DaideRules {
        no_press_in_retreats: true,
        no_press_in_builds: true,
        press_time_limit: Some(60),
        ..DaideRules::default()
    };
    assert_eq!(daide::press_closed(&r, Retreat, None, 0), Some("NPR"));
    assert_eq!(daide::press_closed(&r, Adjustment, None, 0), Some("NPB"));
    // PTL: the last 60 s of a movement phase.
    assert_eq!(daide::press_closed(&r, Movement, Some(100_000), 40_000), None);
    assert_eq!(daide::press_closed(&r, Movement, Some(100_000), 40_001), Some("PTL"));
    assert_eq!(daide::press_closed(&r, Movement, None, 40_001), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn press_time_limit_refuses_press_near_the_deadline() {
    let app = TestApp::new();
    let rules = dip_server::game::DaideRules {
        press_time_limit: Some(3600),
        ..Default::default()
    };
    let (_, _, mut cs) = seated(&app, Some("1h"), 10, rules, None).await;
    cs[0].0.send("SND (ENG) (PRP (PCE (AUS ENG)))").await;
    assert_eq!(cs[0].0.until("REJ").await.0, "REJ (SND (ENG) (PRP (PCE (AUS ENG))))");
    // Far from it, press goes.
    let app = TestApp::new();
    let rules = dip_server::game::DaideRules {
        press_time_limit: Some(60),
        ..Default::default()
    };
    let (_, _, mut cs) = seated(&app, Some("1h"), 10, rules, None).await;
    cs[0].0.send("SND (ENG) (PRP (PCE (AUS ENG)))").await;
    assert_eq!(cs[0].0.until("YES").await.0, "YES (SND (ENG) (PRP (PCE (AUS ENG))))");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_orders_accepted_takes_an_order_that_is_not_legal_and_plays_it_as_a_hold() {
    for aoa in [true, false] {
        let app = TestApp::new();
        let rules = dip_server::game::DaideRules {
            zero_deadline: true,
            any_orders_accepted: aoa,
            ..Default::default()
        };
        let (id, _, mut cs) = seated(&app, None, 0, rules, None).await;
        let r = repr();
        for (c, me, _) in cs.iter_mut().skip(2) {
            c.send("NOW").await;
            let (now, _) = c.until("NOW (").await;
            let sub = holds(&now, me, &r).unwrap();
            c.send(&sub).await;
        }
        cs[0]
            .0
            .send("SUB ((AUS AMY VIE) HLD) ((AUS AMY BUD) HLD) ((AUS FLT TRI) HLD)")
            .await;
        let eng = &mut cs[1].0;
        eng.send("SUB ((ENG FLT LON) MTO MOS) ((ENG FLT EDI) HLD) ((ENG AMY LVP) HLD)")
            .await;
        let (thx, _) = eng.until("THX").await;
        if aoa {
            assert_eq!(thx, "THX ((ENG FLT LON) MTO MOS) (MBV)");
            // Complete: the phase is played, the fleet held.
            let (now, _) = eng.until("NOW (FAL 1901)").await;
            assert!(now.contains("(ENG FLT LON)"), "{now}");
            let (_, d) = app.get(&format!("/api/v1/games/{id}/phases/S1901M"), None).await;
            assert!(d["orders"]["England"].as_array().unwrap().len() == 3, "{d}");
        } else {
            assert_eq!(thx, "THX ((ENG FLT LON) MTO MOS) (FAR)");
            let (mis, _) = eng.until("MIS").await;
            assert_eq!(mis, "MIS (ENG FLT LON)");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deadline_stops_on_disconnection_and_runs_again_when_the_bot_is_back() {
    for dsd in [true, false] {
        let app = TestApp::new();
        let rules = dip_server::game::DaideRules {
            deadline_stops_on_disconnection: dsd,
            ..Default::default()
        };
        let (id, addr, mut cs) = seated(&app, Some("1h"), 0, rules, None).await;
        let (eng, _, hlo) = cs.remove(1);
        let code = hlo.split(") (").nth(1).unwrap().to_string();
        drop(eng);
        let obs = &mut cs[0].0;
        let (ccd, _) = obs.until("CCD (").await;
        assert_eq!(ccd, "CCD (ENG)");
        let (_, view) = app.get(&format!("/api/v1/games/{id}"), None).await;
        assert_eq!(view["paused"], json!(dsd), "{view}");
        if dsd {
            let (not, _) = obs.until("NOT (TME").await;
            assert!(not == "NOT (TME (3600))" || not.starts_with("NOT (TME (359"), "{not}");
            assert_eq!(view["deadline"], json!(null));
            obs.send("TME").await;
            assert_eq!(obs.until("REJ").await.0, "REJ (TME)");
        } else {
            obs.send("TME").await;
            let (tme, seen) = obs.until("TME (").await;
            assert!(!seen.iter().any(|m| m.starts_with("NOT (TME")), "{seen:?}");
            assert!(tme.starts_with("TME (359") || tme == "TME (3600)", "{tme}");
        }
        let mut back = Client::connect(addr).await;
        back.send(&format!("IAM (ENG) ({code})")).await;
        assert_eq!(back.recv().await.unwrap(), format!("YES (IAM (ENG) ({code}))"));
        let obs = &mut cs[0].0;
        assert_eq!(obs.until("NOT (CCD").await.0, "NOT (CCD (ENG))");
        if dsd {
            let (tme, _) = obs.until("TME (").await;
            assert!(tme.starts_with("TME (359") || tme == "TME (3600)", "{tme}");
        }
        let (_, view) = app.get(&format!("/api/v1/games/{id}"), None).await;
        assert_eq!(view["paused"], json!(false), "{view}");
        assert!(view["deadline"].is_string(), "{view}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zero_second_deadlines_go_on_when_a_bot_is_gone() {
    let app = TestApp::new();
    let rules = dip_server::game::DaideRules {
        zero_deadline: true,
        ..Default::default()
    };
    let (id, _, cs) = seated(&app, None, 0, rules, Some(1902)).await;
    let r = repr();
    let mut bots = Vec::new();
    for (i, (mut c, me, hlo)) in cs.into_iter().enumerate() {
        // No TME: zero-second deadlines are no time limit.
        assert!(hlo.ends_with("((LVL 0))"), "{hlo}");
        if i == 3 {
            drop(c); // Germany goes, without orders.
            continue;
        }
        let r = r.clone();
        bots.push(tokio::spawn(async move {
            let mut log = Vec::new();
            c.send("NOW").await;
            while let Some(m) = c.recv().await {
                log.push(m.clone());
                if m.starts_with("NOW (") {
                    match holds(&m, &me, &r) {
                        Some(sub) => c.send(&sub).await,
                        None => c.send("MIS").await,
                    }
                } else if m.starts_with("MIS (-") {
                    c.send(&format!("SUB ({me} WVE)")).await;
                } else if m == "OFF" {
                    break;
                }
            }
            log
        }));
    }
    for b in bots {
        let log = tokio::time::timeout(Duration::from_secs(60), b)
            .await
            .expect("the game goes on without Germany")
            .unwrap();
        assert!(log.iter().any(|m| m == "CCD (GER)"), "{log:?}");
        assert!(!log.iter().any(|m| m.starts_with("TME")), "{log:?}");
        assert!(log.iter().any(|m| m == "DRW"), "{log:?}");
    }
    let (_, phases) = app.get(&format!("/api/v1/games/{id}/phases"), None).await;
    assert_eq!(phases["phases"].as_array().unwrap().len(), 4, "{phases}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hst_gives_an_earlier_turns_results_and_tme_follows_the_syntax_document() {
    let app = TestApp::new();
    let (_, _, mut cs) = seated(&app, Some("10s"), 0, Default::default(), None).await;
    let r = repr();
    // TME: the seconds to the deadline; TME (n) requests.
    let c = &mut cs[0].0;
    c.send("TME").await;
    let (tme, _) = c.until("TME (").await;
    assert!(tme == "TME (10)" || tme == "TME (9)", "{tme}");
    c.send("TME (11)").await;
    assert_eq!(c.until("REJ").await.0, "REJ (TME (11))"); // longer than any deadline
    c.send("TME (-1)").await;
    assert_eq!(c.until("REJ").await.0, "REJ (TME (-1))");
    c.send("TME (3)").await;
    assert_eq!(c.until("YES").await.0, "YES (TME (3))");
    c.send("NOT (TME (3))").await;
    assert_eq!(c.until("YES").await.0, "YES (NOT (TME (3)))");
    c.send("NOT (TME (3))").await;
    assert_eq!(c.until("REJ").await.0, "REJ (NOT (TME (3)))");
    c.send("TME (2)").await;
    assert_eq!(c.until("YES").await.0, "YES (TME (2))");
    c.send("TME (1)").await;
    assert_eq!(c.until("YES").await.0, "YES (TME (1))");
    c.send("NOT (TME)").await;
    assert_eq!(c.until("YES").await.0, "YES (NOT (TME))");
    c.send("NOT (TME (2))").await;
    assert_eq!(c.until("REJ").await.0, "REJ (NOT (TME (2)))");
    c.send("TME (8)").await;
    assert_eq!(c.until("YES").await.0, "YES (TME (8))");
    // England moves, the others hold.
    for (c, me, _) in cs.iter_mut() {
        if me == "ENG" {
            c.send("SUB ((ENG FLT LON) MTO NTH) ((ENG FLT EDI) HLD) ((ENG AMY LVP) HLD)")
                .await;
        } else {
            c.send("NOW").await;
            let (now, _) = c.until("NOW (").await;
            c.send(&holds(&now, me, &r).unwrap()).await;
        }
    }
    // Every one ordered: the phase goes before the deadline; TME follows
    // the NOW, and the alarm comes again every turn, 8 s before the
    // deadline (2 s after the TME (10)).
    let c = &mut cs[0].0;
    c.until("NOW (FAL 1901)").await;
    let (tme, _) = c.until("TME (").await;
    let t0 = Instant::now();
    assert!(tme == "TME (10)" || tme == "TME (9)", "{tme}");
    assert_eq!(c.until("TME (").await.0, "TME (8)");
    let waited = t0.elapsed();
    assert!(
        waited > Duration::from_millis(900) && waited < Duration::from_millis(3500),
        "{waited:?}"
    );
    // HST (turn): that turn's ORD, then SCO and the NOW after it.
    c.send("HST (SPR 1901)").await;
    let mut got = Vec::new();
    loop {
        let m = c.recv().await.unwrap();
        if m.starts_with("NOW (") {
            got.push(m);
            break;
        }
        if m.starts_with("ORD (") || m.starts_with("SCO") {
            got.push(m);
        }
    }
    let ords: Vec<&String> = got.iter().filter(|m| m.starts_with("ORD (SPR 1901)")).collect();
    assert_eq!(ords.len(), 22, "{got:#?}");
    assert!(
        got.contains(&"ORD (SPR 1901) ((ENG FLT LON) MTO NTH) (SUC)".to_string()),
        "{got:#?}"
    );
    assert!(
        got.contains(&"ORD (SPR 1901) ((FRA AMY PAR) HLD) (SUC)".to_string()),
        "{got:#?}"
    );
    let sco = got.iter().position(|m| m.starts_with("SCO (")).expect("an SCO");
    assert_eq!(sco, 22, "{got:#?}");
    assert!(
        got[sco].starts_with("SCO (AUS BUD TRI VIE) (ENG EDI LON LVP)"),
        "{got:#?}"
    );
    let now = got.last().unwrap();
    assert!(
        now.starts_with("NOW (FAL 1901)") && now.contains("(ENG FLT NTH)"),
        "{now}"
    );
    // A turn that has not been played: REJ.
    c.send("HST (FAL 1901)").await;
    assert_eq!(c.until("REJ").await.0, "REJ (HST (FAL 1901))");
    c.send("HST (SPR 1905)").await;
    assert_eq!(c.until("REJ").await.0, "REJ (HST (SPR 1905))");
    // HST: every turn so far (one), ORD, SCO, NOW.
    c.send("HST").await;
    let (now, seen) = c.until("NOW (").await;
    assert_eq!(seen.iter().filter(|m| m.starts_with("ORD (SPR 1901)")).count(), 22);
    assert!(now.starts_with("NOW (FAL 1901)"), "{now}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_frame_before_the_im_got_no_em() {
    let app = TestApp::new();
    let (_, addr, _task) = bot_game(&app, DaideConfig::default()).await;
    // Longer than any client message may be: what it claims to be decides
    // the error, as for a frame of the right size.
    for (kind, code) in [(frame::DM, 2), (frame::RM, 13), (frame::IM, 8), (9, 8)] {
        let mut c = Client::raw(addr).await;
        c.s.write_all(&[kind, 0, 0xff, 0xff]).await.unwrap();
        assert_eq!(c.recv().await, Some(format!("EM {code}")), "frame type {kind}");
        assert_eq!(c.recv().await, None);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_fell_behind_lost_the_results_it_missed() {
    use dip_server::daide::message::{bytes_of, text_of, tokens_of};
    use tokio::io::AsyncReadExt;
    let app = TestApp::new();
    let id = daide::create_bot_game(
        &app.state,
        BotGame {
            name: "behind".into(),
            variant: "standard".into(),
            deadline: None,
            press: 0,
            port: 0,
            rules: Default::default(),
        },
    )
    .await
    .unwrap();
    // The game keeps one message for a slow connection.
    let config = DaideConfig {
        end_after_year: Some(1902),
        backlog: 1,
        ..DaideConfig::default()
    };
    let (addr, hub, _task) = daide::listen(app.state.clone(), id, "127.0.0.1:0".parse().unwrap(), config)
        .await
        .unwrap();
    // An observer over a stream that holds 64 octets: it reads nothing
    // while the game is played, so its connection falls behind.
    let (client, server) = tokio::io::duplex(64);
    let (srd, swr) = tokio::io::split(server);
    tokio::spawn(daide::session::serve_stream(hub.clone(), srd, swr));
    let (mut rd, mut wr) = tokio::io::split(client);
    let r = repr();
    wr.write_all(&Frame::im().encode()).await.unwrap();
    assert_eq!(frame::read(&mut rd, 65535).await.unwrap().kind, frame::RM);
    let obs = Msg::parse("OBS", &r).unwrap();
    wr.write_all(&Frame::new(frame::DM, bytes_of(&obs.tokens())).encode())
        .await
        .unwrap();
    let bots: Vec<_> = (0..7)
        .map(|i| tokio::spawn(holdbot(addr, format!("hold{i}"))))
        .collect();
    for b in bots {
        tokio::time::timeout(Duration::from_secs(60), b).await.unwrap().unwrap();
    }
    // Now it reads: every phase's results, the end, OFF.
    let mut got = Vec::new();
    let read_all = async {
        while let Ok(f) = frame::read(&mut rd, 65535).await {
            got.push(match f.kind {
                frame::DM => text_of(&tokens_of(&f.data).unwrap(), &r),
                k => format!("frame {k}"),
            });
        }
    };
    tokio::time::timeout(Duration::from_secs(30), read_all)
        .await
        .expect("the observer is told the game is over");
    let mut rest = Vec::new();
    let _ = rd.read_to_end(&mut rest).await;
    for turn in ["SPR 1901", "FAL 1901", "SPR 1902", "FAL 1902"] {
        let ords = got.iter().filter(|m| m.starts_with(&format!("ORD ({turn})"))).count();
        assert!(ords >= 22, "{ords} ORD of {turn}: {got:#?}");
    }
    for now in ["NOW (FAL 1901)", "NOW (SPR 1902)", "NOW (FAL 1902)"] {
        assert_eq!(got.iter().filter(|m| m.starts_with(now)).count(), 1, "{now}: {got:#?}");
    }
    assert!(got.iter().any(|m| m == "DRW"), "{got:#?}");
    assert!(got.ends_with(&["OFF".to_string(), "frame 3".to_string()]), "{got:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sub_that_could_not_be_stored_was_kept_by_the_connection() {
    let app = TestApp::new();
    let (id, _, mut cs) = seated(&app, Some("1h"), 0, Default::default(), None).await;
    // England's seat loses its power for a moment: storing fails.
    let set_power = |p: Option<&'static str>| {
        app.state.write(move |tx| {
            tx.exec(
                "UPDATE members SET power = $1 WHERE game_id = $2 AND (power = 'England' OR power IS NULL)",
                &[p.map(String::from).into(), id.into()],
            )?;
            Ok::<_, dip_server::error::ApiError>(())
        })
    };
    set_power(None).await.unwrap();
    let eng = &mut cs[1].0;
    eng.send("SUB ((ENG FLT LON) MTO NTH) ((ENG FLT EDI) HLD) ((ENG AMY LVP) HLD)")
        .await;
    assert_eq!(
        eng.until("REJ").await.0,
        "REJ (SUB ((ENG FLT LON) MTO NTH) ((ENG FLT EDI) HLD) ((ENG AMY LVP) HLD))"
    );
    set_power(Some("England")).await.unwrap();
    // Nothing was stored, and the connection knows it.
    eng.send("MIS").await;
    let (mis, _) = eng.until("MIS").await;
    for u in ["(ENG FLT LON)", "(ENG FLT EDI)", "(ENG AMY LVP)"] {
        assert!(mis.contains(u), "{mis}");
    }
    let (_, detail) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(detail["status"], "active", "{detail}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gof_crossing_the_processing_of_its_phase_made_the_bot_ready_in_the_next() {
    let app = TestApp::new();
    let (id, _) = app.seven(json!({})).await;
    let by = app.state.by.clone();
    let variants = app.state.variants.clone();
    let (stale, now) = app
        .state
        .write(move |tx| {
            let row = tx
                .query_one("SELECT id, name FROM accounts WHERE name = 'player-england'", &[])?
                .unwrap();
            let who = dip_server::auth::Account {
                id: row.int(0)?,
                name: row.text(1)?,
            };
            let index = dip_server::game::load(tx, id, dip_server::game::Lock::None)?.phase_index;
            // Checked in the phase before this one: nothing is set.
            let stale = daide::session::ready_in_phase(tx, &variants, id, &who, true, index - 1, &by)?;
            let after_stale = dip_server::game::members(tx, id)?
                .iter()
                .any(|m| m.power.as_deref() == Some("England") && m.ready);
            assert!(!after_stale);
            let now = daide::session::ready_in_phase(tx, &variants, id, &who, true, index, &by)?;
            Ok::<_, dip_server::error::ApiError>((stale, now))
        })
        .await
        .unwrap();
    assert!(!stale && now);
}

#[tokio::test]
async fn lobby_offered_daide_on_a_server_without_ports() {
    let mut app = TestApp::new();
    app.state.daide_ports = Some(16700..=16999);
    let t = app.user("botmaster").await;
    // With ports (this test binary's), the create form offers bots; the
    // lobby test of tests/web_forms.rs checks that it does not without.
    let (s, html, _) = app.raw(axum::http::Method::GET, "/", Some(&t), None).await;
    assert_eq!(s, 200);
    let html = String::from_utf8_lossy(&html);
    assert!(html.contains(r#"id="new-game""#), "signed in");
    assert!(html.contains(r#"name="daide""#), "DAIDE offered with ports");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_closed_connections_without_fm() {
    let app = TestApp::new();
    let (_, addr, _task) = bot_game(&app, DaideConfig::default()).await;
    // A client that cannot play the map is told OFF, then FM, then the
    // connection closes (protocol document, 3.5).
    let mut c = Client::connect(addr).await;
    c.send("NME ('picky') ('1')").await;
    c.until("MAP").await;
    c.send("REJ (MAP ('standard'))").await;
    assert_eq!(c.recv().await.as_deref(), Some("OFF"));
    assert_eq!(c.recv().await.as_deref(), Some("frame 3"));
    assert_eq!(c.recv().await, None);
    // A client's FM is not answered.
    let mut d = Client::connect(addr).await;
    d.frame(&Frame::new(frame::FM, Vec::new())).await;
    assert_eq!(d.recv().await, None);
}

/// The DAIDE ports were the process's, not the server's: once one server
/// of a process (a test, a program embedding two) had ports, a server
/// started without `--daide-ports` created DAIDE games too.
#[tokio::test]
async fn daide_ports_belonged_to_the_process_not_the_server() {
    let mut with = TestApp::new();
    with.state.daide_ports = Some(16700..=16999);
    let without = TestApp::new();
    for (app, status) in [(&with, 201), (&without, 400)] {
        let gm = app.user("master").await;
        let (s, g) = app
            .post("/api/v1/games", Some(&gm), json!({"name": "bots", "daide": true}))
            .await;
        assert_eq!(s, status, "{g}");
    }
}
