//! The web page's forms: sign-up, log-in and creating games need the
//! CSRF token of the browser's cookie; pages carry the security headers.

mod common;

use axum::body::Body;
use axum::http::Request;
use common::TestApp;
use http_body_util::BodyExt;
use tower::ServiceExt;

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
