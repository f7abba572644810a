//! HTTP request bodies: any bytes sent to the game server's endpoints, in
//! process (the app over a fresh SQLite database, with a started game of
//! seven players). A server error (5xx) or a panic is a crash.

use axum::body::Body;
use axum::http::{Method, Request};
use dip_server::AppState;
use http_body_util::BodyExt;
use std::sync::OnceLock;
use tower::ServiceExt;

/// The endpoints that take a body (the first byte of the input picks one).
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

struct Server {
    rt: tokio::runtime::Runtime,
    state: AppState,
    game: i64,
    token: String,
}

async fn call(state: &AppState, method: &str, path: &str, token: Option<&str>, body: Vec<u8>) -> (u16, Vec<u8>) {
    let mut req = Request::builder()
        .method(method.parse::<Method>().unwrap_or(Method::POST))
        .uri(path)
        .header("content-type", "application/json");
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let Ok(req) = req.body(Body::from(body)) else {
        return (400, Vec::new());
    };
    let Ok(resp) = dip_server::app(state.clone()).oneshot(req).await;
    let status = resp.status().as_u16();
    let bytes = resp
        .into_body()
        .collect()
        .await
        .map(|b| b.to_bytes().to_vec())
        .unwrap_or_default();
    (status, bytes)
}

fn json_field(bytes: &[u8], key: &str) -> Option<serde_json::Value> {
    serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()?
        .get(key)
        .cloned()
}

/// The server, made once: seven accounts in a started standard game.
fn server() -> &'static Server {
    static S: OnceLock<Server> = OnceLock::new();
    S.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("dip-fuzz-http-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::create_dir_all(&dir);
        let db = dip_server::db::Db::sqlite(&dir.join("dip.sqlite")).expect("a SQLite database in the temp folder");
        let state = AppState::new(db);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let (game, token) = rt.block_on(async {
            let mut tokens = Vec::new();
            for p in ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"] {
                let login = format!(r#"{{"name":"fuzz-{p}","password":"password1"}}"#).into_bytes();
                call(&state, "POST", "/api/v1/accounts", None, login.clone()).await;
                let (_, b) = call(&state, "POST", "/api/v1/sessions", None, login).await;
                let t = json_field(&b, "token").and_then(|v| v.as_str().map(str::to_string));
                tokens.push((p, t.unwrap_or_default()));
            }
            let body = br#"{"name":"Fuzz","variant":"standard"}"#.to_vec();
            let (_, b) = call(&state, "POST", "/api/v1/games", Some(&tokens[0].1), body).await;
            let id = json_field(&b, "id").and_then(|v| v.as_i64()).unwrap_or(1);
            for (p, t) in &tokens {
                let body = format!(r#"{{"power":"{p}"}}"#).into_bytes();
                call(&state, "POST", &format!("/api/v1/games/{id}/join"), Some(t), body).await;
            }
            (id, tokens[0].1.clone())
        });
        Server { rt, state, game, token }
    })
}

/// Byte 0 picks the endpoint, byte 1 whether the request is signed in;
/// the rest is the body.
pub fn http_body(data: &[u8]) {
    let s = server();
    let (which, signed) = (data.first().copied().unwrap_or(0), data.get(1).copied().unwrap_or(1));
    let (method, path) = ENDPOINTS[which as usize % ENDPOINTS.len()];
    let path = path.replace("{id}", &s.game.to_string());
    let body = data.get(2..).unwrap_or_default().to_vec();
    let token = (signed % 2 == 1).then_some(s.token.as_str());
    let (status, answer) = s.rt.block_on(call(&s.state, method, &path, token, body));
    assert!(
        status < 500,
        "{method} {path}: {status} {}",
        String::from_utf8_lossy(&answer)
    );
}

/// Real bodies for each endpoint, the mutations' starting points.
pub fn seeds() -> Vec<Vec<u8>> {
    let bodies: [(u8, &str); 8] = [
        (0, r#"{"name":"newcomer","password":"correct horse"}"#),
        (1, r#"{"name":"fuzz-Austria","password":"password1"}"#),
        (
            2,
            r#"{"name":"Friday game","deadlines":{"movement":"24h"},"press":"full"}"#,
        ),
        (4, r#"{"orders":["A vie-gal","A bud-ser","F tri-alb"]}"#),
        (5, r#"{"ready":true}"#),
        (6, r#"{"vote":true}"#),
        (8, r#"{"to":["England"],"text":"Hello"}"#),
        (10, r#"{"edits":[{"unit":"A vie","power":"Austria"}]}"#),
    ];
    bodies
        .iter()
        .map(|(e, b)| {
            let mut v = vec![*e, 1];
            v.extend_from_slice(b.as_bytes());
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// The harness reaches the handlers: the seed orders are accepted by
    /// the started game, so mutations start from requests that get in.
    #[test]
    fn seed_orders_are_accepted_by_the_started_game() {
        let s = super::server();
        let body = br#"{"orders":["A vie-gal"]}"#.to_vec();
        let path = format!("/api/v1/games/{}/orders", s.game);
        let (status, answer) = s.rt.block_on(super::call(&s.state, "PUT", &path, Some(&s.token), body));
        assert!(
            (200..300).contains(&status),
            "{status} {}",
            String::from_utf8_lossy(&answer)
        );
    }
}
