//! The syntax document's messages that only whole games bring about: SLO
//! and DRW at the end, ADM, OBS with a name (observers get HLO (UNO)),
//! press answered with OUT, CCD or REJ, a silent bot under a real
//! deadline, and a game whose port `dip serve --daide-ports` opens.

mod common;
mod daide_common;

use common::TestApp;
use daide_common::*;
use dip_server::daide::{self, DaideConfig};
use dip_server::game::{self, Lock};
use serde_json::json;
use std::time::{Duration, Instant};

/// Seven bots that know their powers, in a game seated by `seated`.
type Seated = Vec<(Client, String, String)>;

/// Every bot but `skip` holds (disbands, waives) in the position it asks for.
async fn all_hold(cs: &mut Seated, skip: &[&str]) {
    let r = repr();
    for (c, me, _) in cs.iter_mut() {
        if skip.contains(&me.as_str()) {
            continue;
        }
        c.send("NOW").await;
        let (now, _) = c.until("NOW (").await;
        if let Some(sub) = holds(&now, me, &r) {
            c.send(&sub).await;
        }
    }
}

/// Changes a running game's stored options.
async fn set_options(app: &TestApp, id: i64, change: impl FnOnce(&mut game::Options) + Send + 'static) {
    app.state
        .write(move |tx| {
            let g = game::load(tx, id, Lock::Update)?;
            let mut o = g.options.clone();
            change(&mut o);
            tx.exec(
                "UPDATE games SET options = $1 WHERE id = $2",
                &[serde_json::to_string(&o).unwrap().into(), id.into()],
            )?;
            Ok::<_, dip_server::error::ApiError>(())
        })
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_won_by_concession_ends_with_slo_smr_and_off() {
    let app = TestApp::new();
    let gm = app.user("master").await;
    let (s, g) = app
        .post(
            "/api/v1/games",
            Some(&gm),
            json!({"name": "solo", "assignment": "choice"}),
        )
        .await;
    assert_eq!(s, 201, "{g}");
    let id = g["id"].as_i64().unwrap();
    let config = DaideConfig {
        powers_by_arrival: vec!["Russia".into()],
        ..DaideConfig::default()
    };
    let (addr, _hub, _task) = daide::listen(app.state.clone(), id, "127.0.0.1:0".parse().unwrap(), config)
        .await
        .unwrap();
    let mut bot = Client::connect(addr).await;
    bot.send("NME ('bear') ('2')").await;
    bot.until("MAP").await;
    bot.send("YES (MAP ('standard'))").await;
    let mut api = Vec::new();
    for p in ["Austria", "England", "France", "Germany", "Italy", "Turkey"] {
        let t = app.user(&format!("api-{p}")).await;
        let (s, b) = app
            .post(&format!("/api/v1/games/{id}/join"), Some(&t), json!({"power": p}))
            .await;
        assert_eq!(s, 200, "{b}");
        api.push(t);
    }
    bot.until("HLO (RUS)").await;
    // Russia leads with four centres; the six others concede.
    for t in &api {
        let (s, b) = app
            .post(&format!("/api/v1/games/{id}/concede"), Some(t), json!({"vote": true}))
            .await;
        assert!(s.is_success(), "{b}");
    }
    assert_eq!(bot.until("SLO").await.0, "SLO (RUS)");
    let smr = bot.recv().await.unwrap();
    assert!(smr.starts_with("SMR (SPR 1901) (AUS ('api-Austria') () 3)"), "{smr}");
    assert!(smr.contains("(RUS ('bear') ('2') 4)"), "{smr}");
    assert_eq!(bot.recv().await.as_deref(), Some("OFF"));
    // The server closes: FM first (protocol document, 3.5).
    assert_eq!(bot.recv().await.as_deref(), Some("frame 3"));
    assert_eq!(bot.recv().await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_every_bot_votes_for_ends_the_game() {
    let app = TestApp::new();
    let (id, _, mut cs) = seated(&app, None, 0, Default::default(), None).await;
    // Austria votes, and takes its vote back.
    let aus = &mut cs[0].0;
    aus.send("DRW").await;
    assert_eq!(aus.until("YES").await.0, "YES (DRW)");
    aus.send("NOT (DRW)").await;
    assert_eq!(aus.until("YES").await.0, "YES (NOT (DRW))");
    for (c, _, _) in cs.iter_mut().skip(1) {
        c.send("DRW").await;
        assert_eq!(c.until("YES").await.0, "YES (DRW)");
    }
    // Six of seven: no draw yet, Austria's vote is gone; given again.
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["status"], "active", "{g}");
    let aus = &mut cs[0].0;
    aus.send("DRW").await;
    assert_eq!(aus.until("YES").await.0, "YES (DRW)");
    for (c, _, _) in cs.iter_mut() {
        let (drw, seen) = c.until("DRW").await;
        assert_eq!(drw, "DRW", "{seen:?}");
        let smr = c.recv().await.unwrap();
        assert!(smr.starts_with("SMR (SPR 1901) (AUS ('c0') ('1') 3)"), "{smr}");
        assert_eq!(c.recv().await.as_deref(), Some("OFF"));
    }
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["status"], "finished", "{g}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_observer_with_a_name_gets_hlo_uno_and_adm_reaches_every_client() {
    let app = TestApp::new();
    let (_, addr, _task) = bot_game(&app, DaideConfig::default()).await;
    let mut obs = Client::connect(addr).await;
    obs.send("OBS ('watcher') ('1_0')").await;
    assert_eq!(obs.recv().await.unwrap(), "YES (OBS ('watcher') ('1_0'))");
    assert_eq!(obs.recv().await.unwrap(), "MAP ('standard')");
    obs.send("HLO").await;
    assert_eq!(obs.recv().await.unwrap(), "REJ (HLO)");
    obs.send("OBS").await;
    assert_eq!(obs.recv().await.unwrap(), "REJ (OBS)");
    let mut bots = Vec::new();
    for i in 0..7 {
        let mut c = Client::connect(addr).await;
        c.send(&format!("NME ('b{i}') ('1')")).await;
        c.until("MAP").await;
        c.send("YES (MAP ('standard'))").await;
        bots.push(c);
    }
    // The game starts: the observer is greeted as a power would be, with
    // UNO for its power (syntax document, HLO).
    let (hlo, seen) = obs.until("HLO").await;
    assert_eq!(hlo, "HLO (UNO) (0) ((LVL 0))", "{seen:?}");
    assert!(obs.recv().await.unwrap().starts_with("SCO (AUS BUD TRI VIE)"));
    assert!(obs.recv().await.unwrap().starts_with("NOW (SPR 1901)"));
    obs.send("HLO").await;
    assert_eq!(obs.until("HLO").await.0, "HLO (UNO) (0) ((LVL 0))");
    // An observer orders nothing.
    obs.send("SUB ((ENG AMY LVP) HLD)").await;
    assert_eq!(obs.until("REJ").await.0, "REJ (SUB ((ENG AMY LVP) HLD))");
    // ADM goes to every client, the observer too.
    bots[0].send("ADM ('b0') ('hello all')").await;
    assert_eq!(obs.until("ADM").await.0, "ADM ('b0') ('hello all')");
    for b in bots.iter_mut() {
        assert_eq!(b.until("ADM").await.0, "ADM ('b0') ('hello all')");
    }
    bots[1].send("ADM ('b1')").await;
    assert_eq!(bots[1].until("HUH").await.0, "HUH (ADM ERR ('b1'))");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn press_to_a_power_out_or_gone_or_in_private_in_a_public_press_game_is_refused() {
    let app = TestApp::new();
    let (id, _, mut cs) = seated(&app, Some("1h"), 10, Default::default(), None).await;
    // Public press: to every other survivor, or nothing.
    set_options(&app, id, |o| o.press = game::Press::Public).await;
    let aus = &mut cs[0].0;
    aus.send("SND (ENG) (PRP (PCE (AUS ENG)))").await;
    assert_eq!(aus.until("REJ").await.0, "REJ (SND (ENG) (PRP (PCE (AUS ENG))))");
    aus.send("SND (ENG FRA GER ITA RUS TUR) (PRP (PCE (AUS ENG)))").await;
    assert_eq!(
        aus.until("YES").await.0,
        "YES (SND (ENG FRA GER ITA RUS TUR) (PRP (PCE (AUS ENG))))"
    );
    set_options(&app, id, |o| o.press = game::Press::Full).await;
    // A power whose bot is gone: CCD, and nobody gets the message.
    let (ger, _, _) = cs.remove(3);
    drop(ger);
    let aus = &mut cs[0].0;
    aus.until("CCD (GER)").await;
    aus.send("SND (ENG GER) (PRP (PCE (AUS GER)))").await;
    assert_eq!(
        aus.until("CCD (GER) (").await.0,
        "CCD (GER) (SND (ENG GER) (PRP (PCE (AUS GER))))"
    );
    // A power out of the game: OUT.
    let variants = app.state.variants.clone();
    app.state
        .write(move |tx| {
            let g = game::load(tx, id, Lock::Update)?;
            let l = g.loaded(&variants)?;
            let map = &l.variant().map;
            let mut s = g.state(&variants)?;
            let ita = map.find_power("Italy").unwrap();
            let theirs: Vec<_> = s.units().filter(|(_, u)| u.power == ita).map(|(p, _)| p).collect();
            for p in theirs {
                s.remove(p);
            }
            for &c in map.supply_centers() {
                if s.owner(c) == Some(ita) {
                    s.set_owner(c, None);
                }
            }
            tx.exec(
                "UPDATE games SET position = $1 WHERE id = $2",
                &[dip_text::format_position(map, &s).into(), id.into()],
            )?;
            Ok::<_, dip_server::error::ApiError>(())
        })
        .await
        .unwrap();
    let aus = &mut cs[0].0;
    aus.send("SND (ITA) (PRP (PCE (AUS ITA)))").await;
    assert_eq!(aus.until("OUT").await.0, "OUT (ITA) (SND (ITA) (PRP (PCE (AUS ITA))))");
    // England got only the public message.
    let eng = &mut cs[1].0;
    let (frm, _) = eng.until("FRM").await;
    assert_eq!(frm, "FRM (AUS) (ENG FRA GER ITA RUS TUR) (PRP (PCE (AUS ENG)))");
    eng.send("NOW").await;
    let (_, seen) = eng.until("NOW").await;
    assert!(!seen.iter().any(|m| m.starts_with("FRM")), "{seen:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_bot_holds_when_a_short_deadline_passes() {
    let app = TestApp::new();
    let (id, _, mut cs) = seated(&app, Some("2s"), 0, Default::default(), None).await;
    // `dip serve`'s ticker.
    let ticker = {
        let state = app.state.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(100)).await;
                state.process_due().await;
            }
        })
    };
    let start = Instant::now();
    all_hold(&mut cs, &["GER"]).await;
    let ger = &mut cs[3].0;
    let (now, seen) = ger.until("NOW (FAL 1901)").await;
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(1000), "processed after {took:?}");
    assert!(now.contains("(GER AMY BER)"), "{now}");
    assert!(
        seen.contains(&"ORD (SPR 1901) ((GER AMY BER) HLD) (SUC)".to_string()),
        "{seen:?}"
    );
    // The silent bot is still seated and gets the next deadline.
    assert!(ger.recv().await.unwrap().starts_with("TME ("));
    ticker.abort();
    let (_, phases) = app.get(&format!("/api/v1/games/{id}/phases"), None).await;
    assert_eq!(phases["phases"][0]["processed_by"], json!(app.state.by), "{phases}");
}

/// A free port for this test program's DAIDE games.
fn daide_port() -> u16 {
    static PORT: std::sync::OnceLock<u16> = std::sync::OnceLock::new();
    *PORT.get_or_init(|| {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    })
}

/// `dip serve --daide-ports P-P [--daide-listen ADDR]` on 127.0.0.1 with
/// a game created through the API with `"daide": true`; the game's port
/// is found open at `expect` (within 10 s). The server keeps running;
/// its folder is returned for removal.
async fn serve_a_daide_game(
    daide_listen: Option<std::net::IpAddr>,
    expect: &str,
) -> (std::net::SocketAddr, std::path::PathBuf) {
    let port = daide_port();
    let dir = common::temp_dir("daide-serve");
    let config = dip_server::ServeConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        data: dir.clone(),
        daide_ports: Some(port..=port),
        daide_listen,
        ..Default::default()
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(dip_server::serve(config, move |a| {
        let _ = tx.send(a);
    }));
    let base = format!("http://{}", rx.await.unwrap());
    let game = tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let post = |path: &str, token: Option<&str>, body: serde_json::Value| -> serde_json::Value {
            let mut r = agent.post(format!("{base}{path}"));
            if let Some(t) = token {
                r = r.header("Authorization", format!("Bearer {t}"));
            }
            r.send_json(body).unwrap().body_mut().read_json().unwrap()
        };
        post(
            "/api/v1/accounts",
            None,
            json!({"name": "host", "password": "password1"}),
        );
        let t = post(
            "/api/v1/sessions",
            None,
            json!({"name": "host", "password": "password1"}),
        )["token"]
            .as_str()
            .unwrap()
            .to_string();
        post(
            "/api/v1/games",
            Some(&t),
            json!({"name": "bots welcome", "daide": true}),
        )
    })
    .await
    .unwrap();
    assert_eq!(game["daide_port"], json!(port), "{game}");
    // `manage` opens the port within a second or two.
    let addr: std::net::SocketAddr = format!("{expect}:{port}").parse().unwrap();
    let start = Instant::now();
    while tokio::net::TcpStream::connect(addr).await.is_err() {
        assert!(start.elapsed() < Duration::from_secs(10), "{addr} is not opened");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (addr, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dip_serve_opened_daide_ports_on_every_address_though_it_listened_on_one() {
    // `dip serve --listen 127.0.0.1:… --daide-ports P-P`: the game's port
    // on 127.0.0.1 only, so another address may still take it.
    let (addr, dir1) = serve_a_daide_game(None, "127.0.0.1").await;
    let mut c = Client::connect(addr).await;
    c.send("NME ('late') ('1')").await;
    assert_eq!(c.recv().await.unwrap(), "YES (NME ('late') ('1'))");
    assert_eq!(c.recv().await.unwrap(), "MAP ('standard')");
    let other = std::net::TcpListener::bind(("127.0.0.2", addr.port()));
    assert!(other.is_ok(), "the DAIDE port holds every address: {other:?}");
    drop(other);
    // `--daide-listen 127.0.0.3`: a second server (the first still holds
    // 127.0.0.1, so it could not have taken 0.0.0.0).
    let (addr, dir2) = serve_a_daide_game(Some("127.0.0.3".parse().unwrap()), "127.0.0.3").await;
    let mut c = Client::connect(addr).await;
    c.send("OBS").await;
    assert_eq!(c.recv().await.unwrap(), "YES (OBS)");
    for d in [dir1, dir2] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// The orders stored for a power in the game's latest phase with orders.
async fn stored_orders(app: &TestApp, id: i64, power: &str) -> Vec<String> {
    let power = power.to_string();
    app.state
        .read(move |tx| {
            Ok::<_, dip_server::error::ApiError>(
                tx.query_one(
                    "SELECT lines FROM orders WHERE game_id = $1 AND power = $2 ORDER BY phase_index DESC LIMIT 1",
                    &[id.into(), power.into()],
                )?
                .map(|r| serde_json::from_str(&r.text(0).unwrap()).unwrap())
                .unwrap_or_default(),
            )
        })
        .await
        .unwrap()
}

async fn phase_of(app: &TestApp, id: i64) -> String {
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    g["phase"].as_str().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_gof_holds_the_phase_until_gof_and_gof_with_orders_missing_waits_for_them() {
    let app = TestApp::new();
    let (id, _, mut cs) = seated(&app, None, 0, Default::default(), None).await;
    // Austria: not ready, whatever it orders.
    let aus = &mut cs[0].0;
    aus.send("NOT (GOF)").await;
    assert_eq!(aus.until("YES").await.0, "YES (NOT (GOF))");
    all_hold(&mut cs, &[]).await;
    for (c, _, _) in cs.iter_mut() {
        c.until("THX").await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(phase_of(&app, id).await, "S1901M");
    let aus = &mut cs[0].0;
    aus.send("GOF").await;
    assert_eq!(aus.until("YES").await.0, "YES (GOF)");
    for (c, _, _) in cs.iter_mut() {
        c.until("NOW (FAL 1901)").await;
    }
    // GOF before Austria's orders: YES and MIS; the phase waits for the
    // orders, and goes with them.
    let aus = &mut cs[0].0;
    aus.send("GOF").await;
    assert_eq!(aus.until("YES").await.0, "YES (GOF)");
    assert_eq!(
        aus.recv().await.unwrap(),
        "MIS (AUS AMY BUD) (AUS AMY VIE) (AUS FLT TRI)"
    );
    all_hold(&mut cs, &["AUS"]).await;
    for (c, _, _) in cs.iter_mut().skip(1) {
        c.until("THX").await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(phase_of(&app, id).await, "F1901M");
    let aus = &mut cs[0].0;
    aus.send("SUB ((AUS AMY BUD) HLD) ((AUS FLT TRI) HLD) ((AUS AMY VIE) HLD)")
        .await;
    aus.until("ORD (FAL 1901)").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_sub_takes_back_one_order_or_all_of_them_in_storage_too() {
    let app = TestApp::new();
    let (id, _, mut cs) = seated(&app, Some("1h"), 0, Default::default(), None).await;
    let eng = &mut cs[1].0;
    eng.send("SUB ((ENG FLT LON) MTO NTH) ((ENG FLT EDI) HLD) ((ENG AMY LVP) HLD)")
        .await;
    for _ in 0..3 {
        assert!(eng.until("THX").await.0.ends_with("(MBV)"));
    }
    assert_eq!(stored_orders(&app, id, "England").await.len(), 3);
    eng.send("NOT (SUB ((ENG FLT LON) MTO NTH))").await;
    assert_eq!(eng.until("YES").await.0, "YES (NOT (SUB ((ENG FLT LON) MTO NTH)))");
    eng.send("MIS").await;
    assert_eq!(eng.until("MIS").await.0, "MIS (ENG FLT LON)");
    assert_eq!(stored_orders(&app, id, "England").await, ["F Edi H", "A Lvp H"]);
    // An order not given (any more) cannot be taken back.
    eng.send("NOT (SUB ((ENG FLT LON) MTO NTH))").await;
    assert_eq!(eng.until("REJ").await.0, "REJ (NOT (SUB ((ENG FLT LON) MTO NTH)))");
    eng.send("NOT (SUB)").await;
    assert_eq!(eng.until("YES").await.0, "YES (NOT (SUB))");
    eng.send("MIS").await;
    assert_eq!(
        eng.until("MIS").await.0,
        "MIS (ENG FLT EDI) (ENG FLT LON) (ENG AMY LVP)"
    );
    assert!(stored_orders(&app, id, "England").await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ord_repeats_the_results_of_the_last_turn_and_nme_after_the_start_is_refused() {
    let app = TestApp::new();
    let (_, addr, mut cs) = seated(&app, None, 0, Default::default(), None).await;
    let c = &mut cs[0].0;
    c.send("ORD").await;
    assert_eq!(c.until("REJ").await.0, "REJ (ORD)");
    all_hold(&mut cs, &[]).await;
    let c = &mut cs[0].0;
    c.until("NOW (FAL 1901)").await;
    c.send("ORD").await;
    c.send("SCO").await;
    let (_, got) = c.until("SCO (").await;
    let got: Vec<&String> = got.iter().filter(|m| !m.starts_with("TME")).collect();
    assert_eq!(got.len(), 22, "{got:#?}");
    assert!(
        got.iter()
            .all(|m| m.starts_with("ORD (SPR 1901) (") && m.ends_with("HLD) (SUC)")),
        "{got:#?}"
    );
    // A newcomer after the start: REJ (NME), and it may still observe.
    let mut late = Client::connect(addr).await;
    late.send("NME ('late') ('1')").await;
    assert_eq!(late.recv().await.unwrap(), "REJ (NME ('late') ('1'))");
    late.send("OBS").await;
    assert_eq!(late.recv().await.unwrap(), "YES (OBS)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hlo_is_the_syntax_documents_example() {
    // "HLO (ENG) (1234) ((LVL 20) (MTL 1200))": England, a level 20 game
    // with 20 minutes per movement turn.
    let app = TestApp::new();
    let (_, _, cs) = seated_with(&app, None, 20, Default::default(), None, |o| {
        o.deadlines.movement = Some("20m".into());
    })
    .await;
    let (_, me, hlo) = &cs[1];
    assert_eq!(me, "ENG");
    let code: i32 = hlo.split(") (").nth(1).unwrap().parse().unwrap();
    assert!((1..=8191).contains(&code), "{hlo}");
    assert_eq!(
        hlo.replace(&format!("({code})"), "(1234)"),
        "HLO (ENG) (1234) ((LVL 20) (MTL 1200))"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_now_was_sent_for_a_turn_after_the_last_year() {
    let app = TestApp::new();
    let (id, _, mut cs) = seated(&app, Some("1h"), 0, Default::default(), Some(1901)).await;
    all_hold(&mut cs, &[]).await;
    for (c, _, _) in cs.iter_mut() {
        c.until("NOW (FAL 1901)").await;
    }
    all_hold(&mut cs, &[]).await;
    for (c, _, _) in cs.iter_mut() {
        let (_, seen) = c.until("ORD (FAL 1901)").await;
        assert!(!seen.iter().any(|m| m.starts_with("REJ")), "{seen:?}");
        let (drw, seen) = c.until("DRW").await;
        assert_eq!(drw, "DRW");
        assert!(seen.last().is_some_and(|m| m.starts_with("SCO (")), "{seen:?}");
        assert!(
            !seen.iter().any(|m| m.starts_with("NOW") || m.starts_with("TME")),
            "{seen:?}"
        );
        assert!(c.until("SMR").await.0.starts_with("SMR (SPR 1902)"));
        assert_eq!(c.recv().await.as_deref(), Some("OFF"));
        assert_eq!(c.recv().await.as_deref(), Some("frame 3"), "FM after OFF");
        assert_eq!(c.recv().await, None);
    }
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["status"], "finished", "{g}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn press_that_is_no_press_or_above_the_level_was_relayed() {
    let app = TestApp::new();
    let (_, _, mut cs) = seated(&app, Some("1h"), 10, Default::default(), None).await;
    let aus = &mut cs[0].0;
    for (snd, huh) in [
        ("SND (ENG) (NOW)", "HUH (SND (ENG) (ERR NOW))"),
        (
            "SND (ENG) (SUB ((AUS AMY VIE) HLD))",
            "HUH (SND (ENG) (ERR SUB ((AUS AMY VIE) HLD)))",
        ),
        ("SND (ENG) (PRP (PCE))", "HUH (SND (ENG) (PRP (PCE ERR)))"),
        ("SND (ENG) (YES (NOW))", "HUH (SND (ENG) (YES (ERR NOW)))"),
        // FRM is press of level 120.
        (
            "SND (ENG) (FRM (AUS) (ENG) (PRP (DRW)))",
            "HUH (SND (ENG) (ERR FRM (AUS) (ENG) (PRP (DRW))))",
        ),
        (
            "SND (ENG) (PRP (PCE (AUS ENG))) (DRW)",
            "HUH (SND (ENG) (PRP (PCE (AUS ENG))) ERR (DRW))",
        ),
    ] {
        aus.send(snd).await;
        assert_eq!(aus.until("HUH").await.0, huh);
    }
    // The syntax document's answers of a bot that takes no press, and
    // TRY cut to the game's level by the server.
    for snd in [
        "SND (ENG) (HUH (ERR PRP (PCE (ENG AUS))))",
        "SND (ENG) (TRY ())",
        "SND (ENG) (TRY (PRP PCE XDO AND INS FRM))",
    ] {
        aus.send(snd).await;
        assert_eq!(aus.until("YES").await.0, format!("YES ({snd})"));
    }
    let eng = &mut cs[1].0;
    assert_eq!(
        eng.until("FRM").await.0,
        "FRM (AUS) (ENG) (HUH (ERR PRP (PCE (ENG AUS))))"
    );
    assert_eq!(eng.until("FRM").await.0, "FRM (AUS) (ENG) (TRY ())");
    assert_eq!(eng.until("FRM").await.0, "FRM (AUS) (ENG) (TRY (PRP PCE))");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn press_between_api_players_and_bots_was_dropped_or_unchecked() {
    let mut app = TestApp::new();
    app.state.daide_ports = Some(daide_port()..=daide_port());
    let (id, api, mut bots) = two_api_players_and_five_bots(&app).await;
    let fra = &api[0];
    let send = |to: serde_json::Value, text: &str| {
        let body = json!({"to": to, "text": text});
        let path = format!("/api/v1/games/{id}/messages");
        let app = &app;
        async move { app.post(&path, Some(fra), body).await }
    };
    // Free text to a bot: stored for the people, and the sender is told
    // the bot did not get it.
    let (s, b) = send(json!(["England", "Italy"]), "Hello, shall we talk?").await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["bots"]["powers"], json!(["England"]), "{b}");
    assert_eq!(b["bots"]["delivered"], json!(false), "{b}");
    assert!(b["bots"]["why"].as_str().unwrap().contains("free text"), "{b}");
    // A word that is also a token is a person's text too.
    for text in ["yes", "42"] {
        let (s, b) = send(json!(["England", "Italy"]), text).await;
        assert_eq!(s, 201, "{text}: {b}");
        assert_eq!(b["bots"]["delivered"], json!(false), "{text}: {b}");
    }
    // DAIDE tokens that are no press: refused as a bot's SND would be.
    let (s, b) = send(json!(["England"]), "PRP (PCE)").await;
    assert_eq!(s, 400, "{b}");
    let m = b["error"]["message"].as_str().unwrap();
    assert!(m.contains("PRP (PCE ERR)") && m.contains("England"), "{m}");
    let (s, b) = send(json!(["England"]), "SUB ((FRA AMY PAR) HLD)").await;
    assert_eq!(s, 400, "{b}");
    // Press: relayed to the bots as FRM.
    let (s, b) = send(json!(["England", "Italy"]), "PRP (PCE (FRA ENG ITA))").await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["bots"], json!({"powers": ["England"], "delivered": true}), "{b}");
    // Free text to all: no bot gets it.
    let (s, b) = send(json!("all"), "hello everyone").await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["bots"]["delivered"], json!(false), "{b}");
    assert_eq!(b["bots"]["powers"].as_array().unwrap().len(), 5, "{b}");
    // Between API players only: no word about bots.
    let (s, b) = send(json!(["Italy"]), "Just us").await;
    assert_eq!(s, 201, "{b}");
    assert!(b.get("bots").is_none(), "{b}");
    let eng = &mut bots[1];
    let (frm, seen) = eng.until("FRM").await;
    assert_eq!(frm, "FRM (FRA) (ENG ITA) (PRP (PCE (FRA ENG ITA)))", "{seen:?}");
    // A bot's press reaches an API player as DAIDE's text.
    eng.send("SND (FRA) (YES (PRP (PCE (FRA ENG ITA))))").await;
    assert_eq!(
        eng.until("YES (SND").await.0,
        "YES (SND (FRA) (YES (PRP (PCE (FRA ENG ITA)))))"
    );
    let (_, msgs) = app.get(&format!("/api/v1/games/{id}/messages"), Some(fra)).await;
    let last = msgs["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["from"], "England", "{msgs}");
    assert_eq!(last["text"], "YES (PRP (PCE (FRA ENG ITA)))", "{msgs}");
    // The bot got nothing else: no free text, no refused press.
    eng.send("NOW").await;
    let (_, seen) = eng.until("NOW (").await;
    assert!(!seen.iter().any(|m| m.starts_with("FRM")), "{seen:?}");
}

/// A game with full press and DAIDE: France and Italy played over the
/// API (their tokens), the other five powers by bots, in Spring 1901.
async fn two_api_players_and_five_bots(app: &TestApp) -> (i64, Vec<String>, Vec<Client>) {
    let gm = app.user("master").await;
    let (s, g) = app
        .post(
            "/api/v1/games",
            Some(&gm),
            json!({"name": "mixed press", "daide": true, "assignment": "choice", "press": "full"}),
        )
        .await;
    assert_eq!(s, 201, "{g}");
    let id = g["id"].as_i64().unwrap();
    let config = DaideConfig {
        powers_by_arrival: ["Austria", "England", "Germany", "Russia", "Turkey"]
            .iter()
            .map(|p| p.to_string())
            .collect(),
        ..DaideConfig::default()
    };
    let (addr, _hub, _task) = daide::listen(app.state.clone(), id, "127.0.0.1:0".parse().unwrap(), config)
        .await
        .unwrap();
    let mut api = Vec::new();
    for p in ["France", "Italy"] {
        let t = app.user(&format!("api-{p}")).await;
        let (s, b) = app
            .post(&format!("/api/v1/games/{id}/join"), Some(&t), json!({"power": p}))
            .await;
        assert_eq!(s, 200, "{b}");
        api.push(t);
    }
    let mut bots = Vec::new();
    for i in 0..5 {
        let mut c = Client::connect(addr).await;
        c.send(&format!("NME ('bot{i}') ('1')")).await;
        c.until("MAP").await;
        c.send("YES (MAP ('standard'))").await;
        bots.push(c);
    }
    for c in bots.iter_mut() {
        c.until("NOW (SPR 1901)").await;
    }
    (id, api, bots)
}
