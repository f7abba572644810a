//! A game as seven players play it, on a desktop and on a phone (390×844):
//! Spring 1901's openings (two bounces among them), France ordering by
//! clicking, the phase processed and its report. On the phone no page
//! scrolls sideways, a unit is at least 24 px wide at the default zoom,
//! the zoom buttons lie outside the map, the hint names the buttons, not
//! keys a phone lacks, and a chooser opens at the province tapped.
//! `DIP_SCREENSHOTS=docs/screenshots` writes the README's pictures
//! (lobby, game, game-after, report, phone, phone-after; game-after is the
//! map of Fall 1901 with Spring's orders as they fared).

use super::*;

const PLAYERS: [(&str, &str); 7] = [
    ("Austria", "anna"),
    ("England", "ben"),
    ("France", "chloe"),
    ("Germany", "dieter"),
    ("Italy", "isabella"),
    ("Russia", "dmitri"),
    ("Turkey", "selim"),
];

/// The others' Spring 1901: Galicia and the Black Sea bounce.
const OPENINGS: [(&str, &[&str]); 6] = [
    ("Austria", &["A Vie-Gal", "A Bud-Ser", "F Tri-Alb"]),
    ("England", &["F Lon-Nth", "F Edi-Nwg", "A Lvp-Yor"]),
    ("Germany", &["A Ber-Kie", "A Mun-Ruh", "F Kie-Den"]),
    ("Italy", &["A Ven-Tyr", "A Rom-Apu", "F Nap-Ion"]),
    ("Russia", &["A Mos-Ukr", "A War-Gal", "F Sev-Bla", "F Stp/sc-Bot"]),
    ("Turkey", &["A Con-Bul", "A Smy-Con", "F Ank-Bla"]),
];

/// Writes a picture where [`screenshot`] writes its own.
fn shot_file(png: &[u8], name: &str) {
    let dir = match std::env::var_os("DIP_SCREENSHOTS") {
        Some(d) => Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(d),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

/// Does the page scroll sideways?
async fn scrolls_sideways(b: &Browser) -> Value {
    eval(
        b,
        "return document.documentElement.scrollWidth > window.innerWidth
           ? document.documentElement.scrollWidth : false",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_on_a_desktop_and_on_a_phone() {
    let d = driver();
    let data = temp_dir("web-showcase");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let api = server.client();
    let (id, tokens) = a_game_with_its_openings(&api);
    let game_url = format!("{}/games/{id}", server.base);

    // The desktop: France orders by clicking.
    let b = browser(&d, 1280, 800).await;
    log_in(&b, &server.base, "chloe").await;
    screenshot(&b, "lobby.png").await;
    b.goto(&game_url).await.unwrap();
    page_ready(&b).await;
    ordering(&b, "S1901M").await;
    click(&b, "par").await;
    click(&b, "bur").await;
    click(&b, "bre").await;
    click(&b, "mao").await;
    click(&b, "mar").await;
    click_with(&b, fantoccini::key::Key::Shift, "par").await;
    click(&b, "bur").await;
    orders_contain(&b, "A MAR S A PAR - BUR").await;
    saved(&b).await;
    screenshot(&b, "game.png").await;
    let phone = browser(&d, 390, 844).await;
    a_phone_orders_with_large_units(&phone, &server.base, &game_url).await;
    // Everyone ready: the phase is processed.
    for (p, t) in &tokens {
        if *p != "France" {
            api.call(
                "POST",
                &format!("/api/v1/games/{id}/ready"),
                Some(t),
                Some(json!({"ready": true, "phase": "S1901M"})),
            );
        }
    }
    find(&b, "#ready").await.click().await.unwrap();
    ordering(&b, "F1901M").await;
    // The map of now with Spring's orders as they fared.
    until(
        &b,
        "Spring's results on the map of Fall",
        "return !!document.querySelector('#map svg .results .order.move.failed[data-at=\"vie\"]')",
    )
    .await;
    screenshot(&b, "game-after.png").await;
    // With Spring's 22 orders on its map the page is still light.
    let total = first_load(&server.base, id);
    println!("game page first load with the last phase's results: {total} bytes");
    assert!(total < 200_000, "first load {total} bytes");
    spring_in_the_history(&b).await;
    the_phone_asks_the_coast_at_spain(&phone, &game_url).await;
    let _ = b.close().await;
    let _ = phone.close().await;
    drop(server);
    let _ = std::fs::remove_dir_all(data);
}

/// Seven players in a game with deadlines, a second game still forming
/// for the lobby, and every power's Spring orders but France's. The
/// game, and each power's token.
fn a_game_with_its_openings(api: &Client) -> (i64, Vec<(&'static str, String)>) {
    let tokens: Vec<(&str, String)> = PLAYERS.iter().map(|(p, n)| (*p, api.user(n))).collect();
    let (s, v) = api.call(
        "POST",
        "/api/v1/games",
        Some(&tokens[2].1),
        Some(json!({"name": "Friday night Diplomacy", "variant": "standard",
                    "deadlines": {"movement": "24h", "retreat": "12h", "adjustment": "12h"}})),
    );
    assert_eq!(s, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    // A second game, still forming, for the lobby.
    api.call(
        "POST",
        "/api/v1/games",
        Some(&tokens[1].1),
        Some(json!({"name": "Sunday league", "variant": "standard"})),
    );
    for (p, t) in &tokens {
        let (s, v) = api.call(
            "POST",
            &format!("/api/v1/games/{id}/join"),
            Some(t),
            Some(json!({"power": p})),
        );
        assert_eq!(s, 200, "{v}");
    }
    let token = |p: &str| tokens.iter().find(|(q, _)| *q == p).unwrap().1.clone();
    for (p, orders) in OPENINGS {
        let (s, v) = api.call(
            "PUT",
            &format!("/api/v1/games/{id}/orders"),
            Some(&token(p)),
            Some(json!({ "orders": orders })),
        );
        assert_eq!(s, 200, "{v}");
    }
    (id, tokens)
}

/// The phone, ordering: no page scrolls sideways, France's own corner of
/// the map, units large enough to tap, the zoom buttons off the map, a
/// hint that speaks of taps.
async fn a_phone_orders_with_large_units(phone: &Browser, base: &str, game_url: &str) {
    log_in(phone, base, "chloe").await;
    assert_eq!(
        scrolls_sideways(phone).await,
        json!(false),
        "the lobby scrolls sideways"
    );
    phone.goto(game_url).await.unwrap();
    page_ready(phone).await;
    ordering(phone, "S1901M").await;
    assert_eq!(
        scrolls_sideways(phone).await,
        json!(false),
        "the game page scrolls sideways"
    );
    let unit = eval(
        phone,
        "return document.querySelector('#map svg g.unit[data-province=\"par\"]').getBoundingClientRect().width",
    )
    .await;
    assert!(unit.as_f64().unwrap() >= 24.0, "a unit {unit} px wide");
    let apart = eval(
        phone,
        "const t = document.querySelector('.map-tools').getBoundingClientRect();
         const m = document.getElementById('map').getBoundingClientRect();
         return t.bottom <= m.top || t.top >= m.bottom;",
    )
    .await;
    assert_eq!(apart, json!(true), "the zoom buttons cover the map");
    let hint = eval(phone, "return document.getElementById('hint').textContent").await;
    let hint = hint.as_str().unwrap();
    assert!(
        !hint.contains("Shift") && !hint.contains("Ctrl") && !hint.contains("Double") && hint.contains("Tap"),
        "{hint}"
    );
    screenshot(phone, "phone.png").await;
}

/// Spring 1901 in the history: its map with the results, its report.
async fn spring_in_the_history(b: &Browser) {
    until(
        b,
        "history loaded",
        "return document.getElementById('slider').max === '1'",
    )
    .await;
    b.execute(
        "const s = document.getElementById('slider'); s.value = 0; s.dispatchEvent(new Event('input'));",
        vec![],
    )
    .await
    .unwrap();
    until(
        b,
        "the bounce in Galicia in the report",
        "return [...document.querySelectorAll('#report tbody tr')].some(r => r.cells[1].textContent === 'A Vie-Gal' && r.cells[2].textContent === 'failed')",
    )
    .await;
    // The report on its own.
    let report = find(b, "#history").await;
    let png = report.screenshot().await.unwrap();
    shot_file(&png, "report.png");
}

/// The phone after processing: the fleet in the Mid-Atlantic to Spain
/// asks which coast, at Spain.
async fn the_phone_asks_the_coast_at_spain(phone: &Browser, game_url: &str) {
    phone.goto(game_url).await.unwrap();
    page_ready(phone).await;
    ordering(phone, "F1901M").await;
    tap(phone, province(phone, "mao").await).await;
    tap(phone, province(phone, "spa").await).await;
    until(
        phone,
        "the coast asked",
        "return !document.getElementById('chooser').hidden",
    )
    .await;
    let near = eval(
        phone,
        "const c = document.getElementById('chooser').getBoundingClientRect();
         const s = document.querySelector('#hits [data-province=\"spa\"]').getBoundingClientRect();
         const dx = Math.max(0, c.left - s.right, s.left - c.right), dy = Math.max(0, c.top - s.bottom, s.top - c.bottom);
         return [Math.hypot(dx, dy), c.top >= 0 && c.bottom <= innerHeight];",
    )
    .await;
    assert!(
        near[0].as_f64().unwrap() < 40.0 && near[1] == json!(true),
        "the chooser is not at Spain on the screen: {near}"
    );
    screenshot(phone, "phone-after.png").await;
    tap(phone, chooser_button(phone, "F MAO - SPA/NC").await).await;
    orders_contain(phone, "F MAO - SPA/NC").await;
    assert_eq!(
        scrolls_sideways(phone).await,
        json!(false),
        "the game page scrolls sideways"
    );
}
