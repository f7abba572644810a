//! The web page's forms: sign-up, log-in and creating games need the
//! CSRF token of the browser's cookie; pages carry the security headers;
//! the lobby lists what a player needs to choose a game; what the page
//! shows of edits keeps anonymous games anonymous.

mod common;

use axum::body::Body;
use axum::http::Request;
use common::{token_of, TestApp};
use http_body_util::BodyExt;
use serde_json::json;
use std::time::Duration;
use tower::ServiceExt;

/// A page's HTML, with the session cookie of `token` when given.
async fn page(app: &TestApp, path: &str, token: Option<&str>) -> String {
    let mut req = Request::get(path);
    if let Some(t) = token {
        req = req.header("cookie", format!("dip_session={t}"));
    }
    let resp = dip_server::app(app.state.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(resp.status(), 200, "{path}");
    String::from_utf8_lossy(&resp.into_body().collect().await.unwrap().to_bytes()).to_string()
}

/// Reads an event stream until `want` appears or `until` passes.
async fn read_until(body: &mut Body, want: &str, until: Duration) -> String {
    let mut text = String::new();
    let deadline = tokio::time::Instant::now() + until;
    while !text.contains(want) {
        match tokio::time::timeout_at(deadline, body.frame()).await {
            Ok(Some(Ok(f))) => {
                if let Ok(d) = f.into_data() {
                    text.push_str(&String::from_utf8_lossy(&d));
                }
            }
            _ => break,
        }
    }
    text
}

async fn events(app: &TestApp, id: i64, token: &str) -> Body {
    let req = Request::get(format!("/api/v1/games/{id}/events"))
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    dip_server::app(app.state.clone())
        .oneshot(req)
        .await
        .unwrap()
        .into_body()
}

async fn form(app: &TestApp, path: &str, cookie: &str, body: &str) -> (u16, String, Vec<String>) {
    form_from(app, path, cookie, body, &[]).await
}

/// A form posted with these extra headers (where the browser says it
/// comes from).
async fn form_from(
    app: &TestApp,
    path: &str,
    cookie: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> (u16, String, Vec<String>) {
    let mut req = Request::post(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("host", "dip.example:8080")
        .header("cookie", cookie);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = dip_server::app(app.state.clone())
        .oneshot(req.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let status = resp.status().as_u16();
    let cookies = resp
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    let text = String::from_utf8_lossy(&resp.into_body().collect().await.unwrap().to_bytes()).to_string();
    (status, text, cookies)
}

/// A page's CSRF token and the cookies it sets, as a browser with these
/// cookies is given them.
async fn page_token(app: &TestApp, path: &str, cookie: &str, headers: &[(&str, &str)]) -> (String, Vec<String>) {
    let mut req = Request::get(path).header("cookie", cookie);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = dip_server::app(app.state.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(resp.status(), 200, "{path}");
    let cookies: Vec<String> = resp
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    let html = String::from_utf8_lossy(&resp.into_body().collect().await.unwrap().to_bytes()).to_string();
    let token = html
        .split(r#"name="csrf" value=""#)
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_else(|| panic!("no CSRF field in {html}"))
        .to_string();
    (token, cookies)
}

/// `name=value` of the cookie among the `Set-Cookie` lines.
fn set_cookie(cookies: &[String], name: &str) -> String {
    cookies
        .iter()
        .find(|c| c.starts_with(&format!("{name}=")))
        .unwrap_or_else(|| panic!("no {name} in {cookies:?}"))
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

/// Signs up through the form; the session cookie (`dip_session=…`).
async fn sign_up(app: &TestApp, name: &str) -> String {
    let (token, cookies) = page_token(app, "/signup", "", &[]).await;
    let nonce = set_cookie(&cookies, "dip_csrf");
    let (s, text, cookies) = form(
        app,
        "/signup",
        &nonce,
        &format!("name={name}&password=password1&csrf={token}"),
    )
    .await;
    assert_eq!(s, 303, "{text}");
    set_cookie(&cookies, "dip_session")
}

#[tokio::test]
async fn forms_without_the_csrf_token_are_refused() {
    let app = TestApp::new();
    let (token, cookies) = page_token(&app, "/signup", "", &[]).await;
    let nonce = set_cookie(&cookies, "dip_csrf");
    // No token, a wrong token: refused, nothing created.
    for body in [
        "name=mallory&password=password1".to_string(),
        "name=mallory&password=password1&csrf=wrong".to_string(),
        format!("name=mallory&password=password1&csrf={}", &nonce["dip_csrf=".len()..]),
    ] {
        let (s, text, _) = form(&app, "/signup", &nonce, &body).await;
        assert_eq!(s, 403, "{text}");
        assert!(text.contains("CSRF"), "{text}");
    }
    let (s, _) = app
        .post(
            "/api/v1/sessions",
            None,
            serde_json::json!({"name": "mallory", "password": "password1"}),
        )
        .await;
    assert_eq!(s, 401, "no account was made");
    // With the token: an account and a session cookie, HttpOnly and SameSite=Strict.
    let (s, _, cookies) = form(
        &app,
        "/signup",
        &nonce,
        &format!("name=alice&password=password1&csrf={token}"),
    )
    .await;
    assert_eq!(s, 303);
    let session = cookies.iter().find(|c| c.starts_with("dip_session=")).unwrap();
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Strict") && !session.contains("Secure"),
        "{session}"
    );
    let session = set_cookie(&cookies, "dip_session");
    // Signed in, the token is the session's: the pre-session one no longer counts.
    let (s, _, _) = form(
        &app,
        "/games/new",
        &format!("{session}; {nonce}"),
        &format!("name=x&variant=standard&csrf={token}"),
    )
    .await;
    assert_eq!(s, 403);
    let (token, _) = page_token(&app, "/", &format!("{session}; {nonce}"), &[]).await;
    let (s, _, _) = form(
        &app,
        "/games/new",
        &format!("{session}; {nonce}"),
        "name=x&variant=standard",
    )
    .await;
    assert_eq!(s, 403);
    let (s, _, _) = form(
        &app,
        "/games/new",
        &format!("{session}; {nonce}"),
        &format!("name=x&variant=standard&csrf={token}"),
    )
    .await;
    assert_eq!(s, 303);
}

/// A page on another port of the same host may set cookies for this one
/// (ports do not keep cookies apart): with the double-submit cookie it
/// chose and the same value in its form, it created games and joined
/// them as the signed-in victim.
#[tokio::test]
async fn a_tossed_csrf_cookie_let_another_port_post_the_forms() {
    let app = TestApp::new();
    let victim = sign_up(&app, "victim").await;
    let host = app.user("host").await;
    let (s, v) = app
        .post(
            "/api/v1/games",
            Some(&host),
            json!({"name": "open", "variant": "standard"}),
        )
        .await;
    assert_eq!(s, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    let tossed = "dip_csrf=0123456789abcdef0123456789abcdef";
    let cookie = format!("{victim}; {tossed}");
    for (path, body) in [
        ("/games/new".to_string(), "name=forged&variant=standard"),
        (format!("/games/{id}/join"), "power="),
    ] {
        let body = format!("{body}&csrf=0123456789abcdef0123456789abcdef");
        let (s, text, _) = form(&app, &path, &cookie, &body).await;
        assert_eq!(s, 403, "{path}: {text}");
    }
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert!(!g.to_string().contains("victim"), "{g}");
    let (_, all) = app.get("/api/v1/games", None).await;
    assert!(!all.to_string().contains("forged"), "{all}");
}

#[tokio::test]
async fn forms_from_another_origin_are_refused_even_with_the_token() {
    let app = TestApp::new();
    let session = sign_up(&app, "alice").await;
    let (token, _) = page_token(&app, "/", &session, &[]).await;
    let body = format!("name=x&variant=standard&csrf={token}");
    for from in [
        [("origin", "http://dip.example:9090"), ("sec-fetch-site", "same-site")],
        [("origin", "http://evil.example"), ("sec-fetch-site", "cross-site")],
        [("origin", "null"), ("sec-fetch-site", "cross-site")],
    ] {
        let (s, text, _) = form_from(&app, "/games/new", &session, &body, &from).await;
        assert_eq!(s, 403, "{from:?}: {text}");
        assert!(text.contains("another site"), "{text}");
        // Either header alone is enough.
        for one in from {
            let (s, _, _) = form_from(&app, "/games/new", &session, &body, &[one]).await;
            assert_eq!(s, 403, "{one:?}");
        }
    }
    // Log-in and log-out forms too.
    let (s, _, _) = form_from(
        &app,
        "/logout",
        &session,
        &format!("csrf={token}"),
        &[("origin", "http://dip.example:9090")],
    )
    .await;
    assert_eq!(s, 403);
    // The browser's own page: accepted (proxies may name the host they were asked for).
    for here in [
        vec![("origin", "http://dip.example:8080"), ("sec-fetch-site", "same-origin")],
        vec![("origin", "https://dip.example"), ("x-forwarded-host", "dip.example")],
        vec![],
    ] {
        let (s, text, _) = form_from(&app, "/games/new", &session, &body, &here).await;
        assert_eq!(s, 303, "{here:?}: {text}");
    }
}

#[tokio::test]
async fn cookies_are_secure_behind_https() {
    let app = TestApp::new();
    let https = [("x-forwarded-proto", "https")];
    let (token, cookies) = page_token(&app, "/login", "", &https).await;
    let nonce = set_cookie(&cookies, "dip_csrf");
    assert!(cookies.iter().all(|c| c.ends_with("; Secure")), "{cookies:?}");
    app.user("bob").await;
    let (s, _, cookies) = form_from(
        &app,
        "/login",
        &nonce,
        &format!("name=bob&password=password1&csrf={token}"),
        &https,
    )
    .await;
    assert_eq!(s, 303);
    assert!(
        cookies
            .iter()
            .any(|c| c.starts_with("dip_session=") && c.contains("; Secure")),
        "{cookies:?}"
    );
    // Served over plain HTTP: not Secure, unless the server is told it is behind HTTPS.
    let (_, cookies) = page_token(&app, "/login", "", &[]).await;
    assert!(!cookies.iter().any(|c| c.contains("Secure")), "{cookies:?}");
    let mut state = app.state.clone();
    state.secure_cookies = true;
    let resp = dip_server::app(state)
        .oneshot(Request::get("/login").body(Body::empty()).unwrap())
        .await
        .unwrap();
    let c = resp.headers()["set-cookie"].to_str().unwrap();
    assert!(c.ends_with("; Secure"), "{c}");
}

#[tokio::test]
async fn pages_carry_a_content_security_policy_without_inline_scripts() {
    let app = TestApp::new();
    let req = Request::get("/").body(Body::empty()).unwrap();
    let resp = dip_server::app(app.state.clone()).oneshot(req).await.unwrap();
    let csp = resp.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    let script_src = csp.split(';').find(|d| d.trim().starts_with("script-src")).unwrap();
    assert!(!script_src.contains("unsafe-inline"), "{csp}");
    let html = String::from_utf8_lossy(&resp.into_body().collect().await.unwrap().to_bytes()).to_string();
    // Every script is a file of the server's own.
    assert!(!html.contains("<script>"), "{html}");
    assert!(
        html.contains(r#"<script type="module" src="/assets/lobby.js">"#),
        "{html}"
    );
}

#[tokio::test]
async fn player_names_in_edits_leaked_from_anonymous_games() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"anonymous": true})).await;
    let gm = token_of(&tokens, "Austria");
    let england = token_of(&tokens, "England");
    app.user("stand-in").await;
    let mut gm_events = events(&app, id, gm).await;
    let mut england_events = events(&app, id, england).await;
    let (s, v) = app
        .post(
            &format!("/api/v1/games/{id}/edit"),
            Some(gm),
            json!({"edits": ["remove mar", "player France stand-in"]}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let path = format!("/api/v1/games/{id}/edits");
    // Players and observers see that France changed hands, not to whom.
    for who in [Some(england), None] {
        let (_, e) = app.get(&path, who).await;
        assert_eq!(
            e["edits"][0]["lines"],
            json!(["remove mar", "player France (hidden)"]),
            "{e}"
        );
    }
    let (_, e) = app.get(&path, Some(gm)).await;
    assert_eq!(
        e["edits"][0]["lines"][1], "player France stand-in",
        "the game master sees it"
    );
    let heard = read_until(&mut england_events, "event: edit", Duration::from_secs(5)).await;
    assert!(
        heard.contains("player France (hidden)") && !heard.contains("stand-in"),
        "{heard}"
    );
    let heard = read_until(&mut gm_events, "event: edit", Duration::from_secs(5)).await;
    assert!(heard.contains("stand-in"), "{heard}");
    // At the end the names are public.
    for (p, t) in &tokens {
        if p != "France" {
            app.post(&format!("/api/v1/games/{id}/draw"), Some(t), json!({"vote": true}))
                .await;
        }
    }
    let stand_in = app
        .post(
            "/api/v1/sessions",
            None,
            json!({"name": "stand-in", "password": "password1"}),
        )
        .await
        .1["token"]
        .as_str()
        .unwrap()
        .to_string();
    app.post(
        &format!("/api/v1/games/{id}/draw"),
        Some(&stand_in),
        json!({"vote": true}),
    )
    .await;
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["status"], "finished", "{g}");
    let (_, e) = app.get(&path, None).await;
    assert_eq!(e["edits"][0]["lines"][1], "player France stand-in", "{e}");
}

#[tokio::test]
async fn lobby_hid_deadline_settings_and_running_games_with_open_seats() {
    let app = TestApp::new();
    let host = app.user("host").await;
    let (s, v) = app
        .post(
            "/api/v1/games",
            Some(&host),
            json!({"name": "Slow game", "deadlines": {"movement": "24h", "retreat": "2h"}}),
        )
        .await;
    assert_eq!(s, 201, "{v}");
    let (running, tokens) = app.seven(json!({})).await;
    let (s, _) = app
        .post(
            &format!("/api/v1/games/{running}/leave"),
            Some(token_of(&tokens, "Italy")),
            json!({}),
        )
        .await;
    assert_eq!(s, 204);
    let newcomer = app.user("newcomer").await;
    let html = page(&app, "/", Some(&newcomer)).await;
    let open = &html[html.find(r#"id="open-games""#).expect("open games listed")..];
    let open = &open[..open.find("</table>").unwrap()];
    // The forming game's deadlines as they will be, not "no deadline".
    assert!(
        open.contains("movement 24h · retreat 2h · adjustment by hand"),
        "{open}"
    );
    assert!(!open.contains("no deadline"), "{open}");
    // The running game with Italy's seat open, with a Join for Italy.
    let row = &open[open
        .find(&format!(r#"data-game="{running}""#))
        .expect("the running game listed")..];
    assert!(row.contains("open: Italy"), "{row}");
    assert!(row.contains(r#"<option value="Italy">"#), "{row}");
    assert!(row.contains(r#"class="join""#), "{row}");
}

/// A lobby row of `game` in the table `table` (`my-games`, `open-games`).
fn lobby_row<'a>(html: &'a str, table: &str, game: i64) -> &'a str {
    let t = &html[html
        .find(&format!(r#"id="{table}""#))
        .unwrap_or_else(|| panic!("no {table}: {html}"))..];
    let t = &t[..t.find("</table>").unwrap()];
    let row = &t[t
        .find(&format!(r#"data-game="{game}""#))
        .unwrap_or_else(|| panic!("game {game} not in {table}: {t}"))..];
    &row[..row.find("</tr>").unwrap()]
}

#[tokio::test]
async fn lobby_orders_needed_mark_and_countdown_were_untested() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({"deadlines": {"movement": "24h"}})).await;
    let (s, v) = app
        .put(
            &format!("/api/v1/games/{id}/orders"),
            Some(token_of(&tokens, "France")),
            json!({"orders": ["A par-bur", "A mar H", "F bre-mao"]}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let germany = page(&app, "/", Some(token_of(&tokens, "Germany"))).await;
    let row = lobby_row(&germany, "my-games", id);
    assert!(row.contains("orders needed"), "Germany has not ordered: {row}");
    // The countdown counts to the deadline the row carries.
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    let deadline = g["deadline"].as_str().expect("a deadline");
    assert!(row.contains(&format!(r#"data-deadline="{deadline}""#)), "{row}");
    let france = page(&app, "/", Some(token_of(&tokens, "France"))).await;
    let row = lobby_row(&france, "my-games", id);
    assert!(!row.contains("orders needed"), "France has ordered: {row}");
    assert!(row.contains("data-deadline="), "{row}");
}

#[tokio::test]
async fn observers_got_the_players_controls() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let path = format!("/games/{id}");
    let controls = [r#"id="ordering""#, r#"id="send""#, r#"id="gm""#];
    // A player orders and writes; the creator (Austria) has the game
    // master's tools.
    let france = page(&app, &path, Some(token_of(&tokens, "France"))).await;
    assert!(france.contains(controls[0]) && france.contains(controls[1]));
    assert!(!france.contains(controls[2]));
    let gm = page(&app, &path, Some(token_of(&tokens, "Austria"))).await;
    assert!(gm.contains(controls[2]));
    // Signed out, and signed in without a seat: view only.
    let stranger = app.user("stranger").await;
    for who in [None, Some(stranger.as_str())] {
        let html = page(&app, &path, who).await;
        assert!(html.contains(r#"id="map""#), "the map is shown");
        for c in controls {
            assert!(!html.contains(c), "{who:?} sees {c}");
        }
    }
}

#[tokio::test]
async fn create_form_did_not_reach_every_api_option() {
    let app = TestApp::new();
    let alice = app.user("alice").await;
    let cookie = format!("dip_session={alice}");
    let (token, _) = page_token(&app, "/", &cookie, &[]).await;
    // This server has no DAIDE ports: the form does not offer bots.
    let lobby = page(&app, "/", Some(&alice)).await;
    assert!(lobby.contains(r#"id="new-game""#));
    assert!(!lobby.contains(r#"name="daide""#), "DAIDE offered without ports");
    let (s, _, _) = form(
        &app,
        "/games/new",
        &cookie,
        &format!("csrf={token}&name=x&variant=standard&daide=on"),
    )
    .await;
    assert_eq!(s, 400, "daide without ports");
    // Every other field of the form, none at its default.
    let field = format!("csrf={token}");
    let body = [
        field.as_str(),
        "name=Every+option",
        "variant=ancmed",
        "min=3",
        "max=4",
        "movement=36h",
        "retreat=2h",
        "adjustment=90m",
        "press=public",
        "assignment=random",
        "civil_disorder_after=5",
        "anonymous=on",
    ]
    .join("&");
    let (s, text, _) = form(&app, "/games/new", &cookie, &body).await;
    assert_eq!(s, 303, "{text}");
    let (_, list) = app.get("/api/v1/games?mine=1", Some(&alice)).await;
    let id = list["games"][0]["id"].as_i64().unwrap();
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), Some(&alice)).await;
    let (_, variants) = app.get("/api/v1/variants", None).await;
    assert!(variants.to_string().contains("ancmed"), "{variants}");
    let api = |k: &str| g[k].clone();
    assert_eq!(api("name"), "Every option");
    assert_eq!(api("variant"), "ancmed");
    assert_eq!(api("players"), json!({"min": 3, "max": 4}));
    assert_eq!(
        api("deadlines"),
        json!({"movement": "36h", "retreat": "2h", "adjustment": "90m"}),
        "{g}"
    );
    assert_eq!(api("press"), "public");
    assert_eq!(api("assignment"), "random");
    assert_eq!(api("civil_disorder_after"), 5);
    assert_eq!(api("anonymous"), true);
    assert_eq!(api("daide"), false);
    // The form left unchecked: "join" absent, so the creator has no seat.
    assert_eq!(g["joined"], 0, "{g}");
    // Join it myself as a power of the variant.
    let (s, text, _) = form(
        &app,
        "/games/new",
        &cookie,
        &format!("csrf={token}&name=Mine&variant=ancmed&join=on&power=Rome"),
    )
    .await;
    assert_eq!(s, 303, "{text}");
    let (_, list) = app.get("/api/v1/games?mine=1", Some(&alice)).await;
    let (_, mine) = app
        .get(&format!("/api/v1/games/{}", list["games"][0]["id"]), Some(&alice))
        .await;
    assert_eq!(
        mine["waiting"],
        json!([{"player": "alice", "wanted": "Rome"}]),
        "{mine}"
    );
    // The same options through the API give the same game.
    let (s, v) = app
        .post(
            "/api/v1/games",
            Some(&alice),
            json!({"name": "Every option", "variant": "ancmed", "players": {"min": 3, "max": 4},
                   "deadlines": {"movement": "36h", "retreat": "2h", "adjustment": "90m"},
                   "press": "public", "assignment": "random", "civil_disorder_after": 5, "anonymous": true}),
        )
        .await;
    assert_eq!(s, 201, "{v}");
    let (_, g2) = app.get(&format!("/api/v1/games/{}", v["id"]), Some(&alice)).await;
    for k in [
        "variant",
        "players",
        "deadlines",
        "press",
        "assignment",
        "civil_disorder_after",
        "anonymous",
        "daide",
    ] {
        assert_eq!(g[k], g2[k], "{k}");
    }
}

async fn clickable_map(app: &TestApp, id: i64, token: &str) -> Vec<u8> {
    let path = format!("/api/v1/games/{id}/map.svg?clickable=1");
    let (s, b, _) = app.raw(axum::http::Method::GET, &path, Some(token), None).await;
    assert_eq!(s, 200);
    b
}

#[tokio::test]
async fn another_players_orders_reached_a_players_page() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let england = token_of(&tokens, "England");
    let france = token_of(&tokens, "France");
    let svg_before = clickable_map(&app, id, england).await;
    let (s, v) = app
        .put(
            &format!("/api/v1/games/{id}/orders"),
            Some(france),
            json!({"orders": ["A par-pic", "A mar-gas", "F bre-mao"]}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    // France's orders, as any form of them would appear.
    let leaks = |text: &str| -> Vec<&'static str> {
        let t = text.to_lowercase();
        ["par-pic", "par - pic", "mar-gas", "mar - gas", "bre-mao", "bre - mao"]
            .into_iter()
            .filter(|o| t.contains(o))
            .collect()
    };
    // The control: France's own orders are there for France.
    let (_, own) = app.get(&format!("/api/v1/games/{id}/orders"), Some(france)).await;
    assert_eq!(leaks(&own.to_string()).len(), 3, "{own}");
    // England's page, the current phase, the clickable map, the events.
    let html = page(&app, &format!("/games/{id}"), Some(england)).await;
    assert_eq!(leaks(&html), Vec::<&str>::new(), "the game page");
    let (s, phase) = app
        .get(&format!("/api/v1/games/{id}/phases/S1901M"), Some(england))
        .await;
    assert_eq!(s, 200, "{phase}");
    assert_eq!(leaks(&phase.to_string()), Vec::<&str>::new(), "{phase}");
    assert_eq!(
        clickable_map(&app, id, england).await,
        svg_before,
        "the map is the same after France ordered"
    );
    let req = Request::get(format!("/api/v1/games/{id}/events?after=0"))
        .header("authorization", format!("Bearer {england}"))
        .body(Body::empty())
        .unwrap();
    let mut body = dip_server::app(app.state.clone())
        .oneshot(req)
        .await
        .unwrap()
        .into_body();
    let heard = read_until(&mut body, "event: orders", Duration::from_secs(5)).await;
    assert!(heard.contains("event: orders"), "{heard}");
    assert_eq!(leaks(&heard), Vec::<&str>::new(), "{heard}");
}

/// The error pages were drawn for nobody: a signed-in player refused a
/// form was offered "Log in".
#[tokio::test]
async fn an_error_page_offered_log_in_to_a_signed_in_player() {
    let app = TestApp::new();
    let session = sign_up(&app, "alice").await;
    let (s, text, _) = form(&app, "/games/new", &session, "name=x&variant=standard").await;
    assert_eq!(s, 403, "{text}");
    assert!(
        text.contains("alice") && text.contains("Log out") && !text.contains("Log in"),
        "{text}"
    );
    let req = Request::get("/games/999999")
        .header("cookie", &session)
        .body(Body::empty())
        .unwrap();
    let resp = dip_server::app(app.state.clone()).oneshot(req).await.unwrap();
    assert_eq!(resp.status(), 404);
    let text = String::from_utf8_lossy(&resp.into_body().collect().await.unwrap().to_bytes()).to_string();
    assert!(text.contains("alice") && !text.contains("Log in"), "{text}");
    // Signed out, the same page offers it.
    let (s, text, _) = form(&app, "/games/new", "", "name=x&variant=standard").await;
    assert_eq!(s, 403, "{text}");
    assert!(text.contains("Log in"), "{text}");
}

/// In a game where players choose their power, joiners could not: the
/// lobby's Join sent no power (all but the creator's were drawn at
/// random), and the forming game's page listed nobody.
#[tokio::test]
async fn joiners_choose_their_power_and_the_forming_game_lists_its_players() {
    let app = TestApp::new();
    let alice = sign_up(&app, "alice").await;
    let (token, _) = page_token(&app, "/", &alice, &[]).await;
    let (s, text, _) = form(
        &app,
        "/games/new",
        &alice,
        &format!("csrf={token}&name=Choosers&variant=standard&assignment=choice&join=on&power=Austria"),
    )
    .await;
    assert_eq!(s, 303, "{text}");
    let (_, list) = app.get("/api/v1/games", None).await;
    let id = list["games"][0]["id"].as_i64().unwrap();
    // Bob's lobby offers the powers nobody chose.
    let bob = sign_up(&app, "bob").await;
    let (token, _) = page_token(&app, "/", &bob, &[]).await;
    let lobby = page(&app, "/", Some(&bob["dip_session=".len()..])).await;
    let row = lobby_row(&lobby, "open-games", id);
    assert!(
        row.contains(r#"<option value="England">"#) && !row.contains(r#"<option value="Austria">"#),
        "{row}"
    );
    let (s, text, _) = form(
        &app,
        &format!("/games/{id}/join"),
        &bob,
        &format!("csrf={token}&power=England"),
    )
    .await;
    assert_eq!(s, 303, "{text}");
    // The forming game's page: who joined, with the power each chose; the
    // join form offers only the free powers.
    let carol = sign_up(&app, "carol").await;
    let html = page(&app, &format!("/games/{id}"), Some(&carol["dip_session=".len()..])).await;
    let joined = html.split(r#"id="joined-players""#).nth(1).unwrap();
    let joined = joined.split("</section>").next().unwrap();
    assert!(
        joined.contains("alice · Austria") && joined.contains("bob · England"),
        "{joined}"
    );
    let form_html = html
        .split(r#"id="join-form""#)
        .nth(1)
        .unwrap()
        .split("</form>")
        .next()
        .unwrap();
    assert!(
        form_html.contains(r#"<option value="France">"#)
            && !form_html.contains(r#"<option value="England">"#)
            && !form_html.contains(r#"<option value="Austria">"#),
        "{form_html}"
    );
    // At the start each has the power chosen.
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), None).await;
    assert_eq!(g["waiting"][1]["wanted"], "England", "{g}");
}
