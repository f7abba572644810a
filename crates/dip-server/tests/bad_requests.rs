//! Any request body a stranger may send: never a server error, never a
//! panic, and a refused request changes nothing (every stored row is
//! compared before and after). On SQLite and on PostgreSQL, which stores
//! no U+0000 in text.

mod common;

use axum::http::Method;
use common::{fingerprint, TestApp};
use proptest::prelude::*;
use serde_json::{json, Value};

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "\\PC{0,40}".prop_map(Value::String),
        // Control characters, U+0000 among them, in every kind of field.
        "[\\x00-\\x1f\\x7f a-zA-Z0-9]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "A par-bur",
            "all",
            "France",
            "24h",
            "standard",
            "S1901M",
            "",
            "F stp/sc-bot"
        ])
        .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "name",
                    "password",
                    "orders",
                    "phase",
                    "ready",
                    "vote",
                    "power",
                    "to",
                    "text",
                    "edits",
                    "players",
                    "min",
                    "max",
                    "deadlines",
                    "movement",
                    "press",
                    "paused",
                    "extend",
                    "variant",
                ])
                .prop_map(String::from),
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

const ENDPOINTS: [(&str, &str); 13] = [
    ("POST", "/api/v1/accounts"),
    ("POST", "/api/v1/sessions"),
    ("POST", "/api/v1/games"),
    ("POST", "/api/v1/games/{id}/join"),
    ("PUT", "/api/v1/games/{id}/orders"),
    ("POST", "/api/v1/games/{id}/ready"),
    ("POST", "/api/v1/games/{id}/draw"),
    ("POST", "/api/v1/games/{id}/concede"),
    ("POST", "/api/v1/games/{id}/messages"),
    ("PATCH", "/api/v1/games/{id}"),
    ("POST", "/api/v1/games/{id}/edit"),
    ("POST", "/api/v1/games/{id}/start"),
    ("POST", "/api/v1/games/{id}/leave"),
];

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A started game of seven: (id, [(power, token)]).
fn seven(app: &TestApp) -> (i64, Vec<(String, String)>) {
    runtime().block_on(app.seven(json!({})))
}

/// `cases` random bodies to random endpoints of game `id`, with its game
/// master's `token` or none.
fn any_body(app: &TestApp, id: i64, token: &str, cases: u32) {
    let rt = runtime();
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(which in 0..ENDPOINTS.len(), body in any_json(), raw in prop::option::of(prop::collection::vec(any::<u8>(), 0..200)), signed in any::<bool>())| {
        let (method, path) = ENDPOINTS[which];
        let path = path.replace("{id}", &id.to_string());
        let method: Method = method.parse().unwrap();
        let bytes = raw.unwrap_or_else(|| serde_json::to_vec(&body).unwrap());
        let t = signed.then_some(token);
        let before = fingerprint(&app.state);
        let (status, answer, _) = rt.block_on(app.raw(method, &path, t, Some(bytes)));
        prop_assert!(status.as_u16() < 500, "{path}: {status} {}", String::from_utf8_lossy(&answer));
        if status.is_client_error() {
            let v: Value = serde_json::from_slice(&answer).unwrap_or(Value::Null);
            prop_assert!(v["error"]["message"].is_string(), "{path}: error without a message: {}", String::from_utf8_lossy(&answer));
            prop_assert!(fingerprint(&app.state) == before, "{path}: refused ({status}) but the database changed");
        }
    });
}

#[test]
fn any_body_to_any_endpoint_is_answered_without_a_server_error() {
    let app = TestApp::new();
    let (id, tokens) = seven(&app);
    any_body(&app, id, &tokens[0].1, 300);
}

#[test]
fn any_body_to_any_endpoint_is_answered_without_a_server_error_on_postgres() {
    let app = TestApp::postgres();
    let (id, tokens) = seven(&app);
    control_characters_were_stored_or_gave_a_server_error(&app, id, &tokens);
    any_body(&app, id, &tokens[0].1, 120);
}

#[test]
fn control_characters_on_sqlite() {
    let app = TestApp::new();
    let (id, tokens) = seven(&app);
    control_characters_were_stored_or_gave_a_server_error(&app, id, &tokens);
}

/// U+0000 in a log-in name or in press made PostgreSQL refuse the
/// statement ("invalid byte sequence 0x00"): 500 for a client's mistake
/// (SQLite stored the message). Names, press and edit lines refuse control
/// characters (400), press keeps its line breaks and tabs, and nothing is
/// stored.
fn control_characters_were_stored_or_gave_a_server_error(app: &TestApp, id: i64, tokens: &[(String, String)]) {
    // Synchronous: PostgreSQL's client (in `fingerprint`) runs outside the runtime.
    let rt = runtime();
    let gm = tokens[0].1.as_str();
    let fr = common::token_of(tokens, "France");
    let g = format!("/api/v1/games/{id}");
    let refused = |method: Method, path: &str, token: Option<&str>, body: Value, field: &str| {
        let before = fingerprint(&app.state);
        let (s, v) = rt.block_on(app.call(method, path, token, Some(body.clone())));
        assert_eq!(s.as_u16(), 400, "{path} {body}: {v}");
        let m = v["error"]["message"].as_str().unwrap_or("");
        assert!(m.starts_with(field), "{path} {body}: names `{field}`: {m}");
        assert_eq!(fingerprint(&app.state), before, "{path} {body}: stored");
    };
    for name in ["ali\u{0}ce", "ali\u{7}ce", "ali\nce"] {
        let who = json!({"name": name, "password": "password1"});
        refused(Method::POST, "/api/v1/sessions", None, who.clone(), "name");
        refused(Method::POST, "/api/v1/accounts", None, who, "name");
        refused(Method::POST, "/api/v1/games", Some(gm), json!({"name": name}), "name");
        refused(Method::PATCH, &g, Some(gm), json!({"name": name}), "name");
    }
    for text in ["hello\u{0}", "\u{1b}[2Jhello", "bell\u{7}"] {
        for to in [json!("all"), json!(["England"])] {
            let m = json!({"to": to, "text": text});
            refused(Method::POST, &format!("{g}/messages"), Some(fr), m, "text");
        }
    }
    for line in ["player France ali\u{0}ce", "title Ne\u{0}w", "remove m\u{1}ar"] {
        let e = json!({"edits": ["owner par France", line]});
        refused(Method::POST, &format!("{g}/edit"), Some(gm), e, "edits[1]");
    }
    let o = json!({"orders": ["A par\u{0}-bur"]});
    refused(Method::PUT, &format!("{g}/orders"), Some(fr), o, "orders[0]");
    // What is meant stays allowed: a message of several lines.
    let m = json!({"to": "all", "text": "Dear all,\r\n\tpeace.\nFrance"});
    let (s, v) = rt.block_on(app.post(&format!("{g}/messages"), Some(fr), m));
    assert_eq!(s.as_u16(), 201, "{v}");
}
