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
    let req = Request::post(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("cookie", cookie)
        .body(Body::from(body.to_string()))
        .unwrap();
    let resp = dip_server::app(app.state.clone()).oneshot(req).await.unwrap();
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

#[tokio::test]
async fn forms_without_the_csrf_token_are_refused() {
    let app = TestApp::new();
    let csrf = "dip_csrf=abcdefghijklmnopqrstuvwx";
    // No token, a wrong token: refused, nothing created.
    for body in [
        "name=mallory&password=password1",
        "name=mallory&password=password1&csrf=wrong",
    ] {
        let (s, text, _) = form(&app, "/signup", csrf, body).await;
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
        csrf,
        "name=alice&password=password1&csrf=abcdefghijklmnopqrstuvwx",
    )
    .await;
    assert_eq!(s, 303);
    let session = cookies.iter().find(|c| c.starts_with("dip_session=")).unwrap();
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Strict"),
        "{session}"
    );
    let token = session.split(';').next().unwrap().to_string();
    // Creating a game with the session but without the token: refused.
    let (s, _, _) = form(
        &app,
        "/games/new",
        &format!("{token}; {csrf}"),
        "name=x&variant=standard",
    )
    .await;
    assert_eq!(s, 403);
    let (s, _, _) = form(
        &app,
        "/games/new",
        &format!("{token}; {csrf}"),
        "name=x&variant=standard&csrf=abcdefghijklmnopqrstuvwx",
    )
    .await;
    assert_eq!(s, 303);
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
