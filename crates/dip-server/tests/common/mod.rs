//! The API called in-process: one fresh SQLite database per test.

#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use dip_server::db::Db;
use dip_server::AppState;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::path::PathBuf;
use tower::ServiceExt;

pub struct TestApp {
    pub state: AppState,
    pub dir: PathBuf,
    /// The throwaway PostgreSQL server of [`TestApp::postgres`].
    pg: Option<PathBuf>,
}

fn pg_script() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pg-test-server.sh")
}

fn stop_pg(dir: &std::path::Path) {
    let _ = std::process::Command::new("bash")
        .arg(pg_script())
        .arg("stop")
        .arg(dir)
        .output();
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(pg) = &self.pg {
            stop_pg(pg);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dip-server-{tag}-{}-{}", std::process::id(), fastrand::u64(..)));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl TestApp {
    pub fn new() -> TestApp {
        let dir = temp_dir("api");
        let db = Db::sqlite(&dir.join("dip.sqlite")).unwrap();
        TestApp {
            state: AppState::new(db),
            dir,
            pg: None,
        }
    }

    /// The app on a throwaway PostgreSQL server (scripts/pg-test-server.sh),
    /// stopped and removed when the app is dropped.
    pub fn postgres() -> TestApp {
        let dir = temp_dir("api-pg");
        let pg = dir.join("pg");
        let out = std::process::Command::new("bash")
            .arg(pg_script())
            .arg("start")
            .arg(&pg)
            .output()
            .expect("scripts/pg-test-server.sh runs");
        assert!(
            out.status.success(),
            "scripts/pg-test-server.sh start failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let url = String::from_utf8_lossy(&out.stdout).trim().to_string();
        match Db::postgres(&url) {
            Ok(db) => TestApp {
                state: AppState::new(db),
                dir,
                pg: Some(pg),
            },
            Err(e) => {
                stop_pg(&pg);
                panic!("{url}: {e}");
            }
        }
    }

    /// Any request; the answer's status and JSON (or text as a JSON string).
    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> (StatusCode, Vec<u8>, String) {
        let mut req = Request::builder().method(method).uri(path);
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let req = match body {
            Some(b) => req
                .header("content-type", "application/json")
                .body(Body::from(b))
                .unwrap(),
            None => req.body(Body::empty()).unwrap(),
        };
        let resp = dip_server::app(self.state.clone()).oneshot(req).await.unwrap();
        let status = resp.status();
        let ctype = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes().to_vec();
        (status, bytes, ctype)
    }

    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let (status, bytes, _) = self
            .raw(method, path, token, body.map(|b| serde_json::to_vec(&b).unwrap()))
            .await;
        let v =
            serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
        (status, v)
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        self.call(Method::GET, path, token, None).await
    }
    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, token, Some(body)).await
    }
    pub async fn put(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        self.call(Method::PUT, path, token, Some(body)).await
    }

    /// Registers and logs in; returns the token.
    pub async fn user(&self, name: &str) -> String {
        let (s, v) = self
            .post("/api/v1/accounts", None, json!({"name": name, "password": "password1"}))
            .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let (s, v) = self
            .post("/api/v1/sessions", None, json!({"name": name, "password": "password1"}))
            .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        v["token"].as_str().unwrap().to_string()
    }

    /// A standard game with seven players in it, started; returns the id
    /// and each power's token (in the variant's power order).
    pub async fn seven(&self, options: Value) -> (i64, Vec<(String, String)>) {
        let powers = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];
        let mut tokens = Vec::new();
        for p in powers {
            tokens.push((p.to_string(), self.user(&format!("player-{}", p.to_lowercase())).await));
        }
        let mut body = json!({"name": "Test game", "variant": "standard"});
        if let (Some(b), Some(o)) = (body.as_object_mut(), options.as_object()) {
            for (k, v) in o {
                b.insert(k.clone(), v.clone());
            }
        }
        let (s, v) = self.post("/api/v1/games", Some(&tokens[0].1), body).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let id = v["id"].as_i64().unwrap();
        for (p, t) in &tokens {
            let (s, v) = self
                .post(&format!("/api/v1/games/{id}/join"), Some(t), json!({"power": p}))
                .await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        let (_, g) = self.get(&format!("/api/v1/games/{id}"), None).await;
        assert_eq!(g["status"], "active", "{g}");
        (id, tokens)
    }

    /// Moves the game's deadline into the past and processes due phases.
    pub fn expire(&self, id: i64) -> usize {
        self.state
            .db
            .transaction(|tx| {
                tx.exec(
                    "UPDATE games SET deadline = $1 WHERE id = $2",
                    &[(dip_server::time::now_ms() - 1).into(), id.into()],
                )
            })
            .unwrap();
        dip_server::play::process_due(dip_server::play::Processing {
            db: &self.state.db,
            variants: &self.state.variants,
            by: "test",
        })
    }
}

pub fn token_of<'a>(tokens: &'a [(String, String)], power: &str) -> &'a str {
    &tokens.iter().find(|(p, _)| p == power).unwrap().1
}

/// Every stored row, in a stable order: equal before and after a request
/// that changed nothing.
pub fn fingerprint(state: &AppState) -> String {
    const TABLES: [&str; 12] = [
        "accounts",
        "sessions",
        "games",
        "members",
        "orders",
        "phases",
        "messages",
        "events",
        "edits",
        "war_games",
        "war_seats",
        "war_log",
    ];
    state
        .db
        .read(|tx| {
            let mut out = String::new();
            for t in TABLES {
                let rows = tx.query(&format!("SELECT * FROM {t} ORDER BY 1, 2"), &[])?;
                out.push_str(&format!("{t}: {rows:?}\n"));
            }
            Ok::<_, dip_server::db::DbError>(out)
        })
        .unwrap()
}

/// A file of the repository's examples, by its path from the root.
pub fn example(path: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
        .display()
        .to_string()
}
