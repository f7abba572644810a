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

/// Every event stream woke on any change in any game and then read the
/// game, its members and its events: with many watchers every write cost
/// a database read per stream. Now a game's streams share one feed,
/// given the events by the writes themselves.
#[tokio::test]
async fn watchers_read_the_database_for_every_change_in_any_game() {
    let app = TestApp::new();
    let (watched, tokens) = app.seven(json!({})).await;
    let gm = &tokens[0].1;
    let (s, v) = app
        .post("/api/v1/games", Some(gm), json!({"name": "Another game"}))
        .await;
    assert_eq!(s, 201, "{v}");
    let other = v["id"].as_i64().unwrap();
    const STREAMS: usize = 20;
    let mut streams = Vec::new();
    for i in 0..STREAMS {
        let (_, t) = &tokens[i % tokens.len()];
        streams.push(open(&app, watched, t).await);
    }
    let before = app.state.db.reads();
    // Ten changes in another game, then one in the watched game.
    for i in 0..10 {
        let (s, v) = app
            .call(
                axum::http::Method::PATCH,
                &format!("/api/v1/games/{other}"),
                Some(gm),
                Some(json!({"name": format!("Renamed {i}")})),
            )
            .await;
        assert_eq!(s, 200, "{v}");
    }
    let (s, v) = app
        .put(
            &format!("/api/v1/games/{watched}/orders"),
            Some(token_of(&tokens, "France")),
            json!({"orders": ["A par-bur"]}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    for s in &mut streams {
        let got = read_until(s, "event: orders", Duration::from_secs(5)).await;
        assert!(got.contains("\"power\":\"France\""), "{got}");
    }
    // The requests' own reads (a token and a game each), and at most a
    // few of the feed's: none per stream.
    let reads = app.state.db.reads() - before;
    assert!(reads < 40, "{reads} reads for 11 changes watched by {STREAMS} streams");
}

/// An event stream opened before logging out went on delivering the
/// game's events (private press included) after the session ended.
#[tokio::test]
async fn an_event_stream_kept_delivering_after_logout() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let england = token_of(&tokens, "England");
    let mut stream = open(&app, id, england).await;
    let (s, _) = app
        .call(axum::http::Method::DELETE, "/api/v1/sessions", Some(england), None)
        .await;
    assert_eq!(s, 204);
    let (s, _) = app
        .post(
            &format!("/api/v1/games/{id}/messages"),
            Some(token_of(&tokens, "France")),
            json!({"to": ["England"], "text": "after the log-out"}),
        )
        .await;
    assert_eq!(s, 201);
    let ended = tokio::time::timeout(Duration::from_secs(3), async {
        let mut text = String::new();
        while let Some(f) = stream.frame().await {
            if let Ok(d) = f.unwrap().into_data() {
                text.push_str(&String::from_utf8_lossy(&d));
            }
        }
        text
    })
    .await;
    let text = ended.expect("the stream is still open after the log-out");
    assert!(!text.contains("event: message"), "{text}");
}

/// A stream that continues after the last id it saw (`Last-Event-ID`)
/// gets what it missed from storage, then the live events, each once and
/// in order; an observer without a token never gets private press.
#[tokio::test]
async fn a_reconnecting_stream_gets_what_it_missed_then_live_events() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let fr = token_of(&tokens, "France");
    let mut first = open(&app, id, fr).await;
    app.post(&format!("/api/v1/games/{id}/ready"), Some(fr), json!({"ready": true}))
        .await;
    let got = read_until(&mut first, "event: ready", Duration::from_secs(5)).await;
    let seen: i64 = got
        .lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .next_back()
        .unwrap()
        .parse()
        .unwrap();
    drop(first);
    // Missed while away: a private message to England and one to France.
    for to in ["England", "France"] {
        let (s, _) = app
            .post(
                &format!("/api/v1/games/{id}/messages"),
                Some(token_of(&tokens, "Germany")),
                json!({"to": [to], "text": "psst"}),
            )
            .await;
        assert_eq!(s, 201);
    }
    let req = Request::get(format!("/api/v1/games/{id}/events"))
        .header("authorization", format!("Bearer {fr}"))
        .header("last-event-id", seen.to_string())
        .body(Body::empty())
        .unwrap();
    let mut again = dip_server::app(app.state.clone())
        .oneshot(req)
        .await
        .unwrap()
        .into_body();
    let mut observer = {
        let req = Request::get(format!("/api/v1/games/{id}/events?after={seen}"))
            .body(Body::empty())
            .unwrap();
        dip_server::app(app.state.clone())
            .oneshot(req)
            .await
            .unwrap()
            .into_body()
    };
    app.post(&format!("/api/v1/games/{id}/ready"), Some(fr), json!({"ready": false}))
        .await;
    let got = read_until(&mut again, "\"on\":false", Duration::from_secs(5)).await;
    assert_eq!(got.matches("event: message").count(), 1, "only France's: {got}");
    assert_eq!(got.matches("event: ready").count(), 1, "{got}");
    let ids: Vec<i64> = got
        .lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]) && ids[0] > seen, "{ids:?}");
    let got = read_until(&mut observer, "\"on\":false", Duration::from_secs(5)).await;
    assert!(!got.contains("event: message"), "{got}");
}
