//! Live updates: the event stream delivers what happens in a game, and
//! private press only to those who may read it.

mod common;

use axum::body::Body;
use axum::http::Request;
use common::{token_of, TestApp};
use http_body_util::BodyExt;
use serde_json::json;
use std::time::Duration;
use tower::ServiceExt;

/// Reads the stream until `want` appears or `until` passes; returns the text.
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

async fn open(app: &TestApp, id: i64, token: &str) -> Body {
    let req = Request::get(format!("/api/v1/games/{id}/events"))
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    let resp = dip_server::app(app.state.clone()).oneshot(req).await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    resp.into_body()
}

#[tokio::test]
async fn messages_ready_flags_and_processed_phases_arrive_live() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let mut england = open(&app, id, token_of(&tokens, "England")).await;
    let mut germany = open(&app, id, token_of(&tokens, "Germany")).await;
    let (s, _) = app
        .post(
            &format!("/api/v1/games/{id}/messages"),
            Some(token_of(&tokens, "France")),
            json!({"to": ["England"], "text": "secret"}),
        )
        .await;
    assert_eq!(s, 201);
    let got = read_until(&mut england, "event: message", Duration::from_secs(5)).await;
    assert!(got.contains("\"from\":\"France\""), "{got}");
    app.post(
        &format!("/api/v1/games/{id}/ready"),
        Some(token_of(&tokens, "Italy")),
        json!({"ready": true}),
    )
    .await;
    let got = read_until(&mut germany, "event: ready", Duration::from_secs(5)).await;
    assert!(got.contains("event: ready"), "{got}");
    assert!(
        !got.contains("event: message"),
        "Germany must not hear of the private message: {got}"
    );
    app.post(&format!("/api/v1/games/{id}/process"), Some(&tokens[0].1), json!({}))
        .await;
    let got = read_until(&mut germany, "event: phase", Duration::from_secs(5)).await;
    assert!(got.contains("\"phase\":\"F1901M\""), "{got}");
    // A missing game has no stream.
    let (s, _) = app.get("/api/v1/games/999/events", None).await;
    assert_eq!(s, 404);
}

/// The server's graceful stop waits for every answer to end; an event
/// stream never ended by itself, so Ctrl-C hung while a page was open.
#[tokio::test]
async fn event_streams_kept_a_stopping_server_waiting() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let mut stream = open(&app, id, token_of(&tokens, "England")).await;
    app.state.shut_down();
    let ended = tokio::time::timeout(Duration::from_secs(3), async {
        while let Some(f) = stream.frame().await {
            f.unwrap();
        }
    })
    .await;
    assert!(ended.is_ok(), "the stream is still open after the stop signal");
    // A stream asked for while stopping ends at once too.
    let mut late = open(&app, id, token_of(&tokens, "England")).await;
    let ended = tokio::time::timeout(Duration::from_secs(3), late.frame()).await;
    assert!(matches!(ended, Ok(None)), "{ended:?}");
}
