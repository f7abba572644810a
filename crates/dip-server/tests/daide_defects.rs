//! DAIDE defects found by hosting real clients, each named after what it
//! was: the standard map's RM, SLO after a solo, seats lost to civil
//! disorder.

mod common;
mod daide_common;

use common::TestApp;
use daide_common::{seated_with, Client};
use dip_server::daide::frame::Frame;
use dip_server::daide::{self, frame, DaideConfig};
use serde_json::json;

/// The power and passcode in `HLO (AUS) (1234) (…)`.
fn power_and_code(hlo: &str) -> (String, String) {
    let rest = hlo.strip_prefix("HLO (").unwrap();
    let power = rest[..3].to_string();
    let code: String = rest[6..].chars().take_while(|c| c.is_ascii_digit()).collect();
    (power, code)
}

/// The standard map's RM listed every power and province where the
/// protocol says its length is zero; David Norman's client byte-swaps a
/// full RM's names, so its IAM named a power that does not exist and it
/// could never rejoin. Its sequence: IM, RM (empty), NME, … HLO; gone;
/// IM, RM (empty), IAM with the power and passcode of the HLO.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_standard_map_s_rm_was_not_empty_so_norman_s_client_could_not_rejoin() {
    let app = TestApp::new();
    let (_, addr, mut cs) = seated_with(&app, None, 0, Default::default(), None, |_| {}).await;
    let (c, _, hlo) = cs.remove(0);
    let (power, code) = power_and_code(&hlo);
    drop(c);
    let mut c = Client::raw(addr).await;
    c.frame(&Frame::im()).await;
    let rm = c.next_frame().await.unwrap();
    assert_eq!(rm.kind, frame::RM);
    assert!(
        rm.data.is_empty(),
        "an RM of {} octets for the standard map",
        rm.data.len()
    );
    // The server may take a moment to see the first connection gone.
    let mut answer = String::new();
    for _ in 0..50 {
        c.send(&format!("IAM ({power}) ({code})")).await;
        let (a, _) = c.until("").await;
        answer = a;
        if answer.starts_with("YES") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(answer, format!("YES (IAM ({power}) ({code}))"));
}

/// After a solo the next turn's NOW came before SLO, and bots ordered a
/// turn that would never be played. Now the phase that ends the game
/// brings its ORDs and SCO, then SLO, and no NOW.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_solo_now_came_before_slo() {
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
    for p in ["Austria", "England", "France", "Germany", "Italy", "Turkey"] {
        let t = app.user(&format!("api-{p}")).await;
        let (s, b) = app
            .post(&format!("/api/v1/games/{id}/join"), Some(&t), json!({"power": p}))
            .await;
        assert_eq!(s, 200, "{b}");
    }
    bot.until("NOW (SPR 1901)").await;
    // The game master hands Russia 18 centres in the fall.
    let mut edits = vec!["phase F1901M".to_string(), "remove kie".into(), "remove ber".into()];
    for c in [
        "nwy", "swe", "den", "hol", "bel", "spa", "por", "tun", "gre", "ser", "bul", "rum", "kie", "ber",
    ] {
        edits.push(format!("owner {c} Russia"));
    }
    let (s, b) = app
        .post(&format!("/api/v1/games/{id}/edit"), Some(&gm), json!({"edits": edits}))
        .await;
    assert_eq!(s, 200, "{b}");
    let (s, b) = app
        .post(&format!("/api/v1/games/{id}/process"), Some(&gm), json!({}))
        .await;
    assert!(s.is_success(), "{b}");
    let (slo, before) = bot.until("SLO").await;
    assert_eq!(slo, "SLO (RUS)");
    assert!(before.iter().any(|m| m.starts_with("ORD (FAL 1901)")), "{before:?}");
    assert!(
        !before.iter().any(|m| m.starts_with("NOW")),
        "a NOW before SLO: {before:?}"
    );
    let smr = bot.recv().await.unwrap();
    assert!(smr.starts_with("SMR"), "{smr}");
    assert_eq!(bot.recv().await.as_deref(), Some("OFF"));
}

/// A bot whose seat civil disorder opened could not take it back over
/// DAIDE: IAM with its passcode and NME were both refused. Now IAM
/// retakes the seat, and NME takes an open one, as an API player can.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_lost_to_civil_disorder_could_not_be_retaken_over_daide() {
    let app = TestApp::new();
    let (id, addr, mut cs) = seated_with(&app, None, 0, Default::default(), None, |o| {
        o.civil_disorder_after = 1;
    })
    .await;
    let r = daide_common::repr();
    // Austria and England go away; the others hold; the phase is
    // processed at its deadline, and both seats fall to civil disorder.
    let (aus, _, aus_hlo) = cs.remove(0);
    let (eng, _, _) = cs.remove(0);
    drop(aus);
    drop(eng);
    for (c, me, _) in cs.iter_mut() {
        c.send("NOW").await;
        let (now, _) = c.until("NOW (").await;
        c.send(&daide_common::holds(&now, me, &r).unwrap()).await;
    }
    // Give the server a moment to see both connections gone.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(app.expire(id), 1);
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    let open: Vec<&str> = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["player"].is_null())
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(open, ["Austria", "England"], "{g}");
    // Austria's bot comes back with its passcode.
    let (power, code) = power_and_code(&aus_hlo);
    let mut aus = Client::connect(addr).await;
    aus.send(&format!("IAM ({power}) ({code})")).await;
    assert_eq!(aus.until("").await.0, format!("YES (IAM ({power}) ({code}))"));
    // A new bot takes England's seat.
    let mut eng = Client::connect(addr).await;
    eng.send("NME ('newcomer') ('1')").await;
    assert_eq!(eng.until("").await.0, "YES (NME ('newcomer') ('1'))");
    eng.until("MAP").await;
    eng.send("YES (MAP ('standard'))").await;
    let (hlo, _) = eng.until("HLO (").await;
    assert!(hlo.starts_with("HLO (ENG)"), "{hlo}");
    eng.until("NOW (FAL 1901)").await;
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert!(
        g["powers"].as_array().unwrap().iter().all(|p| !p["player"].is_null()),
        "{g}"
    );
}
