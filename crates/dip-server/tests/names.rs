//! Account names that look alike are one name: "xavier" and "xаvier" (a
//! Cyrillic а) were two accounts, one able to pass for the other.

mod common;

use axum::http::StatusCode;
use common::TestApp;
use serde_json::json;

#[tokio::test]
async fn confusable_names_were_different_accounts() {
    let app = TestApp::new();
    app.user("xavier").await;
    app.user("m0nk").await;
    for (name, looks_like) in [
        ("x\u{430}vier", "xavier"), // Cyrillic а
        ("XAV\u{399}ER", "xavier"), // Greek capital iota
        ("rnonk", "m0nk"),          // rn for m, o for 0
        ("xav\u{456}er", "xavier"), // Cyrillic і
        ("\u{445}avier", "xavier"), // Cyrillic х
    ] {
        let (s, v) = app
            .post("/api/v1/accounts", None, json!({"name": name, "password": "password1"}))
            .await;
        assert_eq!(s, StatusCode::CONFLICT, "{name} (like {looks_like}): {v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("looks like"), "{v}");
    }
    // Names that only share letters are still free.
    app.user("xaviera").await;
    app.user("\u{43c}\u{438}\u{440}").await; // мир: Cyrillic that looks like nothing taken
}
