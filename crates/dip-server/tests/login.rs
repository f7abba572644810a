//! Log-in guessing: no timing difference between names that exist and
//! names that do not, and guesses sent in parallel do not share one wait.

mod common;

use axum::http::StatusCode;
use common::TestApp;
use dip_server::auth;
use serde_json::json;
use std::time::{Duration, Instant};

/// One test, so that no other log-in in this process moves the count of
/// password checks in between.
#[tokio::test]
async fn guesses_for_unknown_names_and_parallel_guesses_were_cheaper() {
    let app = TestApp::new();
    app.user("alice").await;

    // An unknown name was answered without checking any password: its
    // answer came faster than a wrong password's, telling which names exist.
    let before = auth::password_checks();
    let (s, _) = app
        .post(
            "/api/v1/sessions",
            None,
            json!({"name": "nobody", "password": "password1"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert_eq!(
        auth::password_checks(),
        before + 1,
        "a password is checked for an unknown name too"
    );

    // Guesses sent at once each waited only their own share: six took
    // about as long as the slowest. Now they take turns, and attempts
    // beyond the few that may wait are refused at once.
    let guess = || {
        app.post(
            "/api/v1/sessions",
            None,
            json!({"name": "alice", "password": "wrong-guess"}),
        )
    };
    let started = Instant::now();
    let answers = tokio::join!(guess(), guess(), guess(), guess(), guess(), guess());
    let elapsed = started.elapsed();
    let statuses = [
        answers.0 .0,
        answers.1 .0,
        answers.2 .0,
        answers.3 .0,
        answers.4 .0,
        answers.5 .0,
    ];
    let refused = statuses.iter().filter(|s| **s == StatusCode::UNAUTHORIZED).count();
    let busy = statuses.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count();
    assert_eq!(
        (refused, busy),
        (auth::MAX_WAITING, 6 - auth::MAX_WAITING),
        "{statuses:?}"
    );
    // 0.25 + 0.5 + 1 + 2 s one after the other.
    assert!(
        elapsed >= Duration::from_millis(3_750),
        "{elapsed:?}: the waits overlapped"
    );
    // The right password still works, and resets the count.
    let (s, v) = app
        .post(
            "/api/v1/sessions",
            None,
            json!({"name": "Alice", "password": "password1"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let started = Instant::now();
    let (s, _) = guess().await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert!(
        started.elapsed() < Duration::from_millis(2_000),
        "back to the first wait"
    );
}
