//! `PUT …/orders` and `POST …/ready`: each answer line belongs to the line
//! sent at the same place, and requests for another phase are refused.

mod common;

use axum::http::StatusCode;
use common::{token_of, TestApp};
use serde_json::{json, Value};

fn texts(v: &Value) -> Vec<String> {
    v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

/// The lines were joined into one text for the reader and its answers
/// matched by position: an element holding a line break made every answer
/// after it belong to the wrong line.
#[tokio::test]
async fn an_order_line_with_a_line_break_shifted_the_answers() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let fr = token_of(&tokens, "France");
    let path = format!("/api/v1/games/{id}/orders");
    for bad in ["A par-bur\nA mar-spa", "A par-bur\r", "A par\u{0}-bur"] {
        let (s, v) = app
            .put(&path, Some(fr), json!({"orders": ["F bre-mao", bad, "A mar-spa"]}))
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad:?}: {v}");
        let m = v["error"]["message"].as_str().unwrap();
        assert!(
            m.starts_with("orders[1]:") && m.contains("A par"),
            "names the element: {m}"
        );
    }
    // Nothing was stored by the refusals.
    let (_, v) = app.get(&path, Some(fr)).await;
    assert_eq!(v["orders"], json!([]), "{v}");
    // A tab is no line break.
    let (s, v) = app.put(&path, Some(fr), json!({"orders": ["A par\t-\tbur"]})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["lines"][0]["order"], "A Par-Bur", "{v}");
}

/// Blank and comment lines were left out of the answer, so `lines[i]`
/// did not answer `orders[i]`; and some lines had no `fate`.
#[tokio::test]
async fn blank_and_comment_lines_were_left_out_of_the_answer() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let fr = token_of(&tokens, "France");
    let path = format!("/api/v1/games/{id}/orders");
    let sent = [
        "# my plan",
        "A par-bur",
        "",
        "  ",
        "England: F lon-nth",
        "F bre-mao # to the ocean",
        "A zzz-abc",
        "hello there",
    ];
    let (s, v) = app.put(&path, Some(fr), json!({"orders": sent})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let trimmed: Vec<String> = sent.iter().map(|l| l.trim().to_string()).collect();
    assert_eq!(texts(&v), trimmed, "one answer per line, in order: {v}");
    let fates: Vec<&str> = v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["fate"].as_str().unwrap_or_else(|| panic!("no fate: {l}")))
        .collect();
    assert_eq!(
        fates,
        ["comment", "accepted", "comment", "comment", "deleted", "accepted", "deleted", "deleted"],
        "{v}"
    );
    assert_eq!(v["lines"][5]["order"], "F Bre-Mao", "{v}");
    for i in [0, 2, 3] {
        assert_eq!(v["lines"][i]["error"], Value::Null, "{v}");
        assert_eq!(v["lines"][i]["order"], Value::Null, "{v}");
    }
    for i in [4, 6, 7] {
        assert!(v["lines"][i]["error"]["number"].is_u64(), "{}", v["lines"][i]);
    }
    // GET answers the same way.
    let (_, g) = app.get(&path, Some(fr)).await;
    assert_eq!(g["lines"], v["lines"]);
}

/// A phase that is no phase name at all was answered 409, as if the
/// game had moved on; it is the request that is wrong (400).
#[tokio::test]
async fn an_unknown_phase_name_was_a_conflict_not_a_bad_request() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let fr = token_of(&tokens, "France");
    let path = format!("/api/v1/games/{id}/orders");
    for bad in ["spring", "X1901M", "S19O1M", ""] {
        let (s, v) = app
            .put(&path, Some(fr), json!({"orders": ["A par-bur"], "phase": bad}))
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad:?}: {v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("S1901M"), "{v}");
    }
    for (other, word) in [("F1901M", "not begun"), ("S1900M", "over"), ("W1901A", "not begun")] {
        let (s, v) = app
            .put(&path, Some(fr), json!({"orders": ["A par-bur"], "phase": other}))
            .await;
        assert_eq!(s, StatusCode::CONFLICT, "{other}: {v}");
        assert!(v["error"]["message"].as_str().unwrap().contains(word), "{v}");
    }
    for ok in ["S1901M", "s1901m"] {
        let (s, v) = app
            .put(&path, Some(fr), json!({"orders": ["A par-bur"], "phase": ok}))
            .await;
        assert_eq!(s, StatusCode::OK, "{ok}: {v}");
    }
}

/// `ready` took no phase: a "ready" sent for a phase that was processed
/// in the meantime counted for the next one.
#[tokio::test]
async fn a_late_ready_carried_into_the_next_phase() {
    let app = TestApp::new();
    let (id, tokens) = app.seven(json!({})).await;
    let ready = format!("/api/v1/games/{id}/ready");
    let gm = &tokens[0].1;
    let (s, v) = app
        .post(&format!("/api/v1/games/{id}/process"), Some(gm), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let en = token_of(&tokens, "England");
    let (s, v) = app
        .post(&ready, Some(en), json!({"ready": true, "phase": "S1901M"}))
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    let (_, g) = app.get(&format!("/api/v1/games/{id}"), Some(en)).await;
    assert_eq!(g["you"]["ready"], false, "the late ready was not counted: {g}");
    let (s, v) = app
        .post(&ready, Some(en), json!({"ready": true, "phase": "F1901M"}))
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = app
        .post(&ready, Some(en), json!({"ready": true, "phase": "autumn"}))
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // Without a phase, as before.
    let (s, v) = app.post(&ready, Some(en), json!({"ready": false})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}
