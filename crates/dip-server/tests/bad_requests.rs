//! Any request body a stranger may send: never a server error, never a
//! panic, and a refused request changes nothing (every stored row is
//! compared before and after).

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

#[test]
fn any_body_to_any_endpoint_is_answered_without_a_server_error() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let app = TestApp::new();
    let (id, tokens) = rt.block_on(app.seven(json!({})));
    let token = tokens[0].1.clone();
    let config = ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(which in 0..ENDPOINTS.len(), body in any_json(), raw in prop::option::of(prop::collection::vec(any::<u8>(), 0..200)), signed in any::<bool>())| {
        let (method, path) = ENDPOINTS[which];
        let path = path.replace("{id}", &id.to_string());
        let method: Method = method.parse().unwrap();
        let bytes = raw.unwrap_or_else(|| serde_json::to_vec(&body).unwrap());
        let t = signed.then_some(token.as_str());
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
