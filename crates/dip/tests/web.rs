//! The web page in a real headless Chromium (chromedriver through
//! fantoccini): sign up, create and fill a game, order by clicking, by
//! typing, by double-click and with shift, ready, see the result, press
//! arriving live in a second browser, history, escaped user text, and a
//! phone-size screen ordering by taps. scripts/install-browser.sh installs
//! Chromium and its driver where they are missing.

mod serve_common;

use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client as Browser, ClientBuilder, Locator};
use serde_json::{json, Value};
use serve_common::{temp_dir, Client, Server};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const XSS: &str = "<script>alert(1)</script>";

struct Driver {
    child: Child,
    port: u16,
    profiles: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profiles);
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn driver() -> Driver {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/install-browser.sh");
    let out = Command::new("bash")
        .arg(script)
        .output()
        .expect("scripts/install-browser.sh runs");
    assert!(
        out.status.success(),
        "Chromium is needed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let paths = String::from_utf8_lossy(&out.stdout).to_string();
    let chromedriver = paths.split_whitespace().nth(1).unwrap().to_string();
    let port = free_port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver does not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver {
        child,
        port,
        profiles: temp_dir("chrome"),
    }
}

async fn browser(d: &Driver, width: u32, height: u32) -> Browser {
    let profile = d.profiles.join(format!("p{}", free_port()));
    // A phone: Chromium's mobile emulation (touch, the phone's screen).
    let mobile = if width < 500 {
        json!({"deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0, "touch": true}})
    } else {
        json!(null)
    };
    let mut caps: serde_json::Map<String, Value> = serde_json::from_value(json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", format!("--user-data-dir={}", profile.display()),
                     format!("--window-size={width},{height}")]
        }
    }))
    .unwrap();
    if !mobile.is_null() {
        caps["goog:chromeOptions"]["mobileEmulation"] = mobile;
    }
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", d.port))
        .await
        .expect("a browser session")
}

/// Polls a script until it returns true.
async fn until(b: &Browser, what: &str, script: &str) {
    let started = Instant::now();
    loop {
        if b.execute(script, vec![]).await.ok() == Some(Value::Bool(true)) {
            return;
        }
        if started.elapsed() > Duration::from_secs(15) {
            let orders = b
                .execute("return document.getElementById('orders')?.value", vec![])
                .await;
            let err = b
                .execute("return document.getElementById('error')?.textContent", vec![])
                .await;
            let url = b.current_url().await.map(|u| u.to_string());
            let body = b.execute("return document.body.innerText.slice(0, 400)", vec![]).await;
            panic!("timed out waiting for {what} at {url:?}; orders {orders:?}, error {err:?}, page {body:?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn province(b: &Browser, p: &str) -> fantoccini::elements::Element {
    b.find(Locator::Css(&format!("#hits [data-province=\"{p}\"]")))
        .await
        .unwrap()
}

async fn click(b: &Browser, p: &str) {
    province(b, p).await.click().await.unwrap();
}

async fn double_click(b: &Browser, p: &str) {
    let el = province(b, p).await;
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: el,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.perform_actions(mouse).await.unwrap();
}

async fn shift_click(b: &Browser, p: &str) {
    let el = province(b, p).await;
    let shift = char::from(fantoccini::key::Key::Shift);
    let keys = KeyActions::new("keys".into())
        .then(KeyAction::Down { value: shift })
        .pause(Duration::ZERO)
        .pause(Duration::ZERO)
        .pause(Duration::ZERO)
        .then(KeyAction::Up { value: shift });
    let mouse = MouseActions::new("mouse".into())
        .pause(Duration::ZERO)
        .then(PointerAction::MoveToElement {
            element: el,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        })
        .pause(Duration::ZERO);
    b.perform_actions(fantoccini::actions::Actions::from(keys).and(mouse))
        .await
        .unwrap();
}

async fn orders_contain(b: &Browser, text: &str) {
    until(
        b,
        &format!("`{text}` in the order list"),
        &format!(
            "return document.getElementById('orders').value.includes({})",
            json!(text)
        ),
    )
    .await;
}

async fn page_ready(b: &Browser) {
    until(
        b,
        "the game page",
        "return document.querySelector('main.game')?.dataset.ready === 'true'",
    )
    .await;
}

async fn fill(b: &Browser, css: &str, text: &str) {
    let el = b.find(Locator::Css(css)).await.unwrap();
    el.clear().await.unwrap();
    el.send_keys(text).await.unwrap();
}

async fn screenshot(b: &Browser, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), b.screenshot().await.unwrap()).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_order_by_clicking_and_typing_in_chromium() {
    let d = driver();
    let data = temp_dir("web");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let base = server.base.clone();
    let api = server.client();
    let b = browser(&d, 1400, 900).await;

    // Sign up, then the lobby greets the new player.
    b.goto(&format!("{base}/signup")).await.unwrap();
    fill(&b, "#name", "alice").await;
    fill(&b, "#password", "password1").await;
    b.find(Locator::Css("#submit")).await.unwrap().click().await.unwrap();
    until(
        &b,
        "the lobby, signed in",
        "return document.querySelector('.me')?.textContent === 'alice'",
    )
    .await;

    // Create a game with a hostile name; join it as France.
    fill(&b, "#new-game input[name=name]", XSS).await;
    let power = b.find(Locator::Css("#power")).await.unwrap();
    power.select_by_value("France").await.unwrap();
    b.find(Locator::Css("#create")).await.unwrap().click().await.unwrap();
    page_ready(&b).await;
    let url = b.current_url().await.unwrap();
    let id: i64 = url.path().rsplit('/').next().unwrap().parse().unwrap();
    let name = b.find(Locator::Css("#game-name")).await.unwrap().text().await.unwrap();
    assert_eq!(name, XSS, "the title shows as text");

    // Six more players join through the API; the game starts when full.
    let mut others = Vec::new();
    for p in ["Austria", "England", "Germany", "Italy", "Russia", "Turkey"] {
        let t = api.user(&format!("web-{}", p.to_lowercase()));
        let (s, v) = api.call(
            "POST",
            &format!("/api/v1/games/{id}/join"),
            Some(&t),
            Some(json!({"power": p})),
        );
        assert_eq!(s, 200, "{v}");
        others.push((p, t));
    }
    b.refresh().await.unwrap();
    page_ready(&b).await;
    assert!(
        b.find(Locator::Css("#orders")).await.is_ok(),
        "France gets the order panel"
    );

    // A par-bur by clicking Paris, then Burgundy.
    let t0 = Instant::now();
    click(&b, "par").await;
    click(&b, "bur").await;
    orders_contain(&b, "A PAR - BUR").await;
    let click_to_order = t0.elapsed();
    let shown_ms: f64 = b
        .execute(
            "return Number(document.querySelector('main.game').dataset.orderMs)",
            vec![],
        )
        .await
        .unwrap()
        .as_f64()
        .unwrap();
    assert!(shown_ms <= 50.0, "a click took {shown_ms} ms to show its order");
    let ready_ms: f64 = b
        .execute(
            "return Number(document.querySelector('main.game').dataset.readyMs)",
            vec![],
        )
        .await
        .unwrap()
        .as_f64()
        .unwrap();
    assert!(ready_ms < 3000.0, "the page was interactive after {ready_ms} ms");
    println!("game page interactive after {ready_ms} ms; a click shows its order in {shown_ms} ms");
    // F bre-mao by typing.
    b.find(Locator::Css("#orders"))
        .await
        .unwrap()
        .send_keys("\nF bre-mao")
        .await
        .unwrap();
    until(
        &b,
        "the typed line read",
        "return [...document.querySelectorAll('#checked li')].some(l => l.textContent.includes('F Bre-Mao'))",
    )
    .await;
    // A hold by double-click on Marseilles.
    double_click(&b, "mar").await;
    orders_contain(&b, "A MAR H").await;
    // A support with shift: Marseilles, shift-click Paris, then Burgundy.
    click(&b, "mar").await;
    shift_click(&b, "par").await;
    click(&b, "bur").await;
    orders_contain(&b, "A MAR S A PAR - BUR").await;
    until(
        &b,
        "the orders saved",
        "return document.getElementById('save-state').textContent === 'saved'",
    )
    .await;
    // A typed bad line shows its error number.
    b.find(Locator::Css("#orders"))
        .await
        .unwrap()
        .send_keys("\nA xyz-abc")
        .await
        .unwrap();
    until(
        &b,
        "the bad line's error number",
        "return [...document.querySelectorAll('#checked li.bad')].some(l => /\\[\\d+\\]/.test(l.textContent))",
    )
    .await;
    // Remove the bad line again; the server holds three good orders.
    b.execute(
        "const a = document.getElementById('orders'); a.value = a.value.split('\\n').filter(l => !l.includes('xyz')).join('\\n'); a.dispatchEvent(new Event('input'));",
        vec![],
    )
    .await
    .unwrap();
    until(&b, "the orders saved", "return document.getElementById('save-state').textContent === 'saved' && !document.getElementById('orders').value.includes('xyz')").await;
    let france = api.login("alice");
    let (_, o) = api.call("GET", &format!("/api/v1/games/{id}/orders"), Some(&france), None);
    let read: Vec<&str> = o["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["order"].as_str())
        .collect();
    assert_eq!(read, ["A Par-Bur", "F Bre-Mao", "A Mar S A Par-Bur"], "{o}");
    screenshot(&b, "game.png").await;

    // A second browser: England, watching for press.
    let b2 = browser(&d, 1200, 800).await;
    b2.goto(&format!("{base}/login")).await.unwrap();
    fill(&b2, "#name", "web-england").await;
    fill(&b2, "#password", "password1").await;
    b2.find(Locator::Css("#submit")).await.unwrap().click().await.unwrap();
    until(
        &b2,
        "England signed in",
        "return document.querySelector('.me')?.textContent === 'web-england'",
    )
    .await;
    b2.goto(&format!("{base}/games/{id}")).await.unwrap();
    page_ready(&b2).await;
    // France writes to England only.
    b.execute(
        "for (const c of document.querySelectorAll('#recipients input')) c.checked = c.value === 'England';",
        vec![],
    )
    .await
    .unwrap();
    fill(&b, "#message", &format!("{XSS} shall we?")).await;
    b.find(Locator::Css("#send button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(
        &b2,
        "the message in England's browser",
        "return document.getElementById('messages').textContent.includes('shall we?')",
    )
    .await;
    let shown = b2
        .find(Locator::Css("#messages li"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(shown.contains(XSS), "press shows as text: {shown}");
    assert!(b2.get_alert_text().await.is_err(), "no script ran");

    // Ready: France in the page, the others through the API; the page
    // moves on to Fall 1901 by itself, with the army in Burgundy.
    b.find(Locator::Css("#ready")).await.unwrap().click().await.unwrap();
    until(
        &b,
        "France ready",
        "return document.getElementById('ready').textContent === 'Not ready'",
    )
    .await;
    for (_, t) in &others {
        api.call(
            "POST",
            &format!("/api/v1/games/{id}/ready"),
            Some(t),
            Some(json!({"ready": true})),
        );
    }
    until(
        &b,
        "Fall 1901 shown live",
        "return document.getElementById('phase').textContent.startsWith('Fall 1901')",
    )
    .await;
    let (_, g) = api.call("GET", &format!("/api/v1/games/{id}"), None, None);
    let fra = g["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "France")
        .unwrap();
    assert!(fra["units"].as_array().unwrap().contains(&json!("A bur")), "{fra}");
    until(
        &b,
        "a unit drawn in Burgundy",
        "return document.querySelector('#map svg').innerHTML.length > 1000",
    )
    .await;

    // History: the slider goes back to Spring 1901 and shows its report.
    until(
        &b,
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
        &b,
        "Spring 1901 in the history",
        "return document.getElementById('history-phase').textContent.includes('Spring 1901')",
    )
    .await;
    until(
        &b,
        "its report",
        "return document.getElementById('report').textContent.includes('A Par-Bur')",
    )
    .await;
    b.find(Locator::Css("#current")).await.unwrap().click().await.unwrap();

    // The lobby, for the README.
    b.goto(&format!("{base}/")).await.unwrap();
    until(&b, "my games listed", "return !!document.querySelector('#my-games')").await;
    let lobby = b.find(Locator::Css("#my-games")).await.unwrap().text().await.unwrap();
    assert!(lobby.contains(XSS), "{lobby}");
    screenshot(&b, "lobby.png").await;

    // A phone: 390×844, ordering by tapping (the army in Burgundy to Belgium).
    let phone = browser(&d, 390, 844).await;
    phone.goto(&format!("{base}/login")).await.unwrap();
    fill(&phone, "#name", "alice").await;
    fill(&phone, "#password", "password1").await;
    phone
        .find(Locator::Css("#submit"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(
        &phone,
        "signed in",
        "return document.querySelector('.me')?.textContent === 'alice'",
    )
    .await;
    phone.goto(&format!("{base}/games/{id}")).await.unwrap();
    page_ready(&phone).await;
    phone
        .find(Locator::Css("#modes [data-mode=move]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    click(&phone, "bur").await;
    click(&phone, "bel").await;
    orders_contain(&phone, "A BUR - BEL").await;
    // The Hold button, then a tap: the fleet in the Mid-Atlantic holds.
    phone
        .find(Locator::Css("#modes [data-mode=hold]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    click(&phone, "mao").await;
    orders_contain(&phone, "F MAO H").await;
    screenshot(&phone, "phone.png").await;
    println!("click to order shown through WebDriver: {click_to_order:?}");

    for x in [b, b2, phone] {
        let _ = x.close().await;
    }
    drop(server);
    let _ = std::fs::remove_dir_all(data);
}

#[test]
fn pages_are_small_and_carry_a_strict_csp() {
    let data = temp_dir("web-size");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let api: Client = server.client();
    let t = api.user("sizer");
    let (_, v) = api.call("POST", "/api/v1/games", Some(&t), Some(json!({"name": "size"})));
    let id = v["id"].as_i64().unwrap();
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut total = 0;
    for path in [
        format!("/games/{id}"),
        "/assets/game.js".into(),
        "/assets/map.js".into(),
        "/assets/style.css".into(),
    ] {
        let mut r = agent
            .get(&format!("{}{path}", server.base))
            .header("Accept-Encoding", "gzip")
            .call()
            .unwrap();
        assert_eq!(r.status(), 200, "{path}");
        let csp = r
            .headers()
            .get("content-security-policy")
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-eval"),
            "{csp}"
        );
        let bytes = r.body_mut().with_config().limit(10_000_000).read_to_vec().unwrap();
        total += bytes.len();
    }
    // ureq without its gzip feature leaves the body packed: the bytes sent.
    println!("game page first load: {total} bytes");
    assert!(total < 200_000, "first load {total} bytes");
    let _ = std::fs::remove_dir_all(data);
}

/// Global War in the browser: a new game from /war, join, the start seen
/// by the page; then a whole turn of an imported game with fixed dice by
/// clicking: turn in a set, deploy, attack until a country falls (the dice
/// in the log), move in, stop attacking, fortify (which ends the turn).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn global_war_turn_by_clicking_in_chromium() {
    let d = driver();
    let data = temp_dir("web-war");
    let server = Server::start(&["--data", data.to_str().unwrap()]);
    let base = server.base.clone();
    let api = server.client();
    let b = browser(&d, 1400, 900).await;
    b.goto(&format!("{base}/signup")).await.unwrap();
    fill(&b, "#name", "warann").await;
    fill(&b, "#password", "password1").await;
    b.find(Locator::Css("#submit")).await.unwrap().click().await.unwrap();
    until(
        &b,
        "signed in",
        "return document.querySelector('.me')?.textContent === 'warann'",
    )
    .await;

    b.goto(&format!("{base}/war")).await.unwrap();
    fill(&b, "#new-war input[name=name]", XSS).await;
    let players = b.find(Locator::Css("#new-war select[name=players]")).await.unwrap();
    players.select_by_value("3").await.unwrap();
    b.find(Locator::Css("#new-war button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(&b, "the game page", "return !!document.getElementById('join')").await;
    let url = b.current_url().await.unwrap();
    let id: i64 = url.path().rsplit('/').next().unwrap().parse().unwrap();
    let title = b.find(Locator::Css("main.war h1")).await.unwrap().text().await.unwrap();
    assert_eq!(title, XSS, "the name shows as text");
    b.find(Locator::Css("#join")).await.unwrap().click().await.unwrap();
    until(&b, "joined", "return !!document.getElementById('vote-yes')").await;
    let mut tokens = Vec::new();
    for n in ["warbob", "warcid"] {
        let t = api.user(n);
        let (s, v) = api.call(
            "POST",
            &format!("/api/v1/war/games/{id}/join"),
            Some(&t),
            Some(json!({})),
        );
        assert_eq!(s, 200, "{v}");
        tokens.push(t);
    }
    // The page notices the start by itself.
    until(
        &b,
        "my turn to deploy",
        "return document.querySelector('main.war')?.dataset.phase === 'deploy'",
    )
    .await;

    // A game with fixed dice: warann (seat 1) holds one of each
    // commendation, a strong country beside a weak enemy's.
    use dip_war::game::{Game, Options};
    let seats = ["warann", "warbob", "warcid"]
        .iter()
        .enumerate()
        .map(|(i, n)| (i as u8 + 1, n.to_string()))
        .collect();
    let mut g = Game::new(
        Options {
            teams: false,
            hidden_names: false,
            unlimited_fortifications: false,
        },
        seats,
        11,
    )
    .unwrap();
    let mine = |g: &Game, c: u8| g.pos.owner[c as usize - 1] == 1;
    let (from, to) = (1..=42u8)
        .filter(|&c| mine(&g, c))
        .find_map(|c| dip_war::map::neighbours(c).find(|&n| !mine(&g, n)).map(|n| (c, n)))
        .unwrap();
    g.pos.armies[from as usize - 1] = 10;
    g.pos.armies[to as usize - 1] = 1;
    g.pos.players[0].hand = dip_war::rules::Hand {
        general: 1,
        king: 1,
        queen: 1,
    };
    let file = dip_war::DatFile::from_position(&g.pos, 14_000.0, &[]).to_bytes();
    let mut r = ureq::post(&format!("{base}/api/v1/war/import?name=Fixed&seed=5"))
        .header("Authorization", &format!("Bearer {}", tokens[0]))
        .send(&file[..])
        .unwrap();
    let v: Value = r.body_mut().read_json().unwrap();
    let id = v["id"].as_i64().unwrap();

    let phase = |p: &str| format!("return document.querySelector('main.war')?.dataset.phase === '{p}'");
    let country = |k: u8| format!("#map g#c{k}");
    let click = |css: String| {
        let b = b.clone();
        async move { b.find(Locator::Css(&css)).await.unwrap().click().await.unwrap() }
    };
    b.goto(&format!("{base}/war/{id}")).await.unwrap();
    until(&b, "deploying", &phase("deploy")).await;
    // Turn in the set: more armies to deploy.
    click("button.turn-in[data-set=one_of_each]".into()).await;
    until(
        &b,
        "the set turned in",
        "return [...document.querySelectorAll('#log li')].some(li => /turned in a set for 4 armies/.test(li.textContent))",
    )
    .await;
    // Deploy everything (the armies field starts at what is left).
    until(&b, "still deploying", &phase("deploy")).await;
    click(country(from)).await;
    until(&b, "attacking", &phase("attack")).await;
    // A closed browser comes back to the same turn.
    b.goto(&format!("{base}/war")).await.unwrap();
    b.goto(&format!("{base}/war/{id}")).await.unwrap();
    until(&b, "still attacking", &phase("attack")).await;
    // Attack: from, then to, until the country falls (the same dice each
    // run); the dice appear in the log.
    for battle in 1.. {
        assert!(battle <= 8, "no conquest in 8 battles");
        click(country(from)).await;
        until(
            &b,
            "selected",
            &format!(
                "return document.querySelector('{}').classList.contains('selected')",
                country(from)
            ),
        )
        .await;
        click(country(to)).await;
        until(
            &b,
            "the dice in the log",
            &format!(
                "return [...document.querySelectorAll('#log li.battle')].filter(li => /dice \\d/.test(li.textContent)).length === {battle}"
            ),
        )
        .await;
        let now = b
            .execute("return document.querySelector('main.war').dataset.phase", vec![])
            .await
            .unwrap();
        if now == "move_in" {
            break;
        }
        assert_eq!(now, "attack");
    }
    screenshot(&b, "war-attack.png").await;
    click("#move-in".into()).await;
    until(&b, "moved in", &phase("attack")).await;
    click("#end-attack".into()).await;
    until(&b, "fortifying", &phase("fortify")).await;
    // Fortify: from the conquered country back, one army (the field's).
    click(country(to)).await;
    until(
        &b,
        "selected",
        &format!(
            "return document.querySelector('{}').classList.contains('selected')",
            country(to)
        ),
    )
    .await;
    click(country(from)).await;
    until(&b, "the next player's turn", &phase("")).await;

    let (_, g) = api.call("GET", &format!("/api/v1/war/games/{id}"), None, None);
    assert_eq!(g["turn"]["seat"], 2, "{g}");
    assert_eq!(g["countries"][to as usize - 1]["owner"], 1, "{g}");
    let (_, log) = api.call("GET", &format!("/api/v1/war/games/{id}/log"), None, None);
    let kinds: Vec<&str> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| {
            e["action"]
                .as_object()
                .and_then(|o| o.keys().next())
                .map(String::as_str)
                .or(e["action"].as_str())
        })
        .collect();
    assert_eq!(kinds[..2], ["TurnIn", "Deploy"], "{log}");
    assert_eq!(kinds[kinds.len() - 3..], ["MoveIn", "EndAttack", "Fortify"], "{log}");
    assert!(kinds[2..kinds.len() - 3].iter().all(|k| *k == "Attack"), "{kinds:?}");
    let _ = std::fs::remove_dir_all(data);
}
