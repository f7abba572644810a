//! `dip serve` as a separate process, and a plain HTTP client for it.

#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct Server {
    pub child: Child,
    pub base: String,
}

impl Server {
    /// Starts `dip serve` with these arguments on a free port and waits
    /// until it listens.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dip"))
            .arg("serve")
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("dip serve starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let base = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("dip serve printed no URL: {line:?}"))
            .trim_end_matches('/')
            .to_string();
        // Keep reading its output so that it never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sink = String::new();
            while out.read_line(&mut sink).unwrap_or(0) > 0 {
                sink.clear();
            }
        });
        Server { child, base }
    }

    /// SIGKILL: no chance to clean up.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn client(&self) -> Client {
        Client::new(&self.base)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

#[derive(Clone)]
pub struct Client {
    agent: ureq::Agent,
    pub base: String,
}

impl Client {
    pub fn new(base: &str) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into();
        Client {
            agent,
            base: base.to_string(),
        }
    }

    /// A request; `Err` when the connection failed (server gone).
    pub fn try_call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Result<(u16, Value), String> {
        let url = format!("{}{path}", self.base);
        let auth = token.map(|t| format!("Bearer {t}"));
        let resp = match (method, body) {
            ("GET", _) => {
                let mut r = self.agent.get(&url);
                if let Some(a) = &auth {
                    r = r.header("Authorization", a);
                }
                r.call()
            }
            (m, body) => {
                let mut r = match m {
                    "POST" => self.agent.post(&url),
                    "PUT" => self.agent.put(&url),
                    "PATCH" => self.agent.patch(&url),
                    other => panic!("method {other}"),
                };
                if let Some(a) = &auth {
                    r = r.header("Authorization", a);
                }
                r.send_json(body.unwrap_or(json!({})))
            }
        };
        let mut resp = resp.map_err(|e| e.to_string())?;
        let status = resp.status().as_u16();
        let v = resp.body_mut().read_json::<Value>().unwrap_or(Value::Null);
        Ok((status, v))
    }

    pub fn call(&self, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
        self.try_call(method, path, token, body).unwrap()
    }

    pub fn user(&self, name: &str) -> String {
        let (s, v) = self.call(
            "POST",
            "/api/v1/accounts",
            None,
            Some(json!({"name": name, "password": "password1"})),
        );
        assert!(s == 201 || s == 409, "{v}");
        self.login(name)
    }

    pub fn login(&self, name: &str) -> String {
        let (s, v) = self.call(
            "POST",
            "/api/v1/sessions",
            None,
            Some(json!({"name": name, "password": "password1"})),
        );
        assert_eq!(s, 200, "{v}");
        v["token"].as_str().unwrap().to_string()
    }

    /// A started seven-player standard game; (id, [(power, token)]).
    pub fn seven(&self, options: Value) -> (i64, Vec<(String, String)>) {
        let powers = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];
        let tokens: Vec<(String, String)> = powers
            .iter()
            .map(|p| (p.to_string(), self.user(&format!("player-{}", p.to_lowercase()))))
            .collect();
        let mut body = json!({"name": "Served game", "variant": "standard"});
        for (k, v) in options.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (s, v) = self.call("POST", "/api/v1/games", Some(&tokens[0].1), Some(body));
        assert_eq!(s, 201, "{v}");
        let id = v["id"].as_i64().unwrap();
        for (p, t) in &tokens {
            let (s, v) = self.call(
                "POST",
                &format!("/api/v1/games/{id}/join"),
                Some(t),
                Some(json!({"power": p})),
            );
            assert_eq!(s, 200, "{v}");
        }
        (id, tokens)
    }
}

/// A fresh directory under the system's temporary folder.
pub fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dip-{tag}-{}-{}", std::process::id(), fastrand_u64()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fastrand_u64() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    h.write_u64(std::process::id() as u64);
    h.finish()
}

/// A throwaway PostgreSQL server (scripts/pg-test-server.sh), stopped
/// and removed when dropped.
pub struct Postgres {
    pub url: String,
    dir: PathBuf,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pg-test-server.sh")
}

impl Postgres {
    pub fn start() -> Postgres {
        let dir = std::env::temp_dir().join(format!("dip-pg-{}-{}", std::process::id(), fastrand_u64()));
        let out = Command::new("bash")
            .arg(script())
            .arg("start")
            .arg(&dir)
            .output()
            .expect("scripts/pg-test-server.sh runs");
        assert!(
            out.status.success(),
            "scripts/pg-test-server.sh start failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let url = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Postgres { url, dir }
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = Command::new("bash").arg(script()).arg("stop").arg(&self.dir).output();
    }
}
