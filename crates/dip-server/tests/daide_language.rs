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
    assert_eq!(bot.recv().await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_every_bot_votes_for_ends_the_game() {
    let app = TestApp::new();
    let (id, _, mut cs) = seated(&app, None, 0, Default::default(), None).await;
    for (c, _, _) in cs.iter_mut().skip(1) {
        c.send("DRW").await;
        assert_eq!(c.until("YES").await.0, "YES (DRW)");
    }
    // Six of seven: no draw yet; a vote taken back and given again.
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
    app.state
        .write(move |tx| {
            let g = game::load(tx, id, Lock::Update)?;
            let l = g.loaded()?;
            let map = &l.variant.map;
            let mut s = g.state()?;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dip_serve_with_daide_ports_opens_the_port_of_a_game_created_through_the_api() {
    let dir = common::temp_dir("daide-serve");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = dip_server::ServeConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        data: dir.clone(),
        daide_ports: Some(port..=port),
        ..Default::default()
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    let server = tokio::spawn(dip_server::serve(config, move |a| {
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
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let start = Instant::now();
    while tokio::net::TcpStream::connect(addr).await.is_err() {
        assert!(start.elapsed() < Duration::from_secs(10), "port {port} is not opened");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut c = Client::connect(addr).await;
    c.send("NME ('late') ('1')").await;
    assert_eq!(c.recv().await.unwrap(), "YES (NME ('late') ('1'))");
    assert_eq!(c.recv().await.unwrap(), "MAP ('standard')");
    server.abort();
    let _ = std::fs::remove_dir_all(dir);
}
