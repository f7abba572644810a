//! Headless Chromium for the browser tests (the web page's, tests/web,
//! and the board's, tests/web_board.rs, take it with `#[path]`): a
//! chromedriver of a test's own on a free port, and a browser session of
//! a size (under 500 wide: a phone, with touch). scripts/install-browser.sh
//! finds or installs Chromium and its driver.

#![allow(dead_code)]

use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Driver {
    child: Child,
    pub port: u16,
    /// The browsers' profiles, removed with the driver.
    pub profiles: PathBuf,
    /// The Chromium that scripts/install-browser.sh found or installed.
    pub chromium: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The browsers it started go with it (a test that failed left its
        // session open), then the driver and the profiles.
        for pid in children(self.child.id()) {
            let _ = Command::new("kill").arg(pid.to_string()).status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profiles);
    }
}

/// The processes whose parent is `parent` (Linux's /proc).
fn children(parent: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (name) state ppid …`: the name may hold spaces.
        let ppid: u32 = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
        (ppid == parent).then_some(pid)
    })
    .collect()
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A chromedriver of its own for a test, listening.
pub fn driver() -> Driver {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/install-browser.sh");
    let out = Command::new("bash")
        .arg(script)
        .output()
        .expect("scripts/install-browser.sh runs");
    assert!(
        out.status.success(),
        "Chromium is needed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The script prints two paths: Chromium's, then chromedriver's.
    let paths = String::from_utf8_lossy(&out.stdout).to_string();
    let mut paths = paths.split_whitespace();
    let (Some(chromium), Some(chromedriver)) = (paths.next(), paths.next()) else {
        panic!("scripts/install-browser.sh printed no paths of chromium and chromedriver");
    };
    let port = free_port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver does not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let profiles = std::env::temp_dir().join(format!("dip-chrome-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&profiles).unwrap();
    Driver {
        child,
        port,
        profiles,
        chromium: chromium.to_string(),
    }
}

/// A browser session under driver `d` with a window of this size; under
/// 500 wide Chromium's mobile emulation (touch, the phone's screen).
pub async fn session(d: &Driver, width: u32, height: u32) -> Client {
    let profile = d.profiles.join(format!("p{}", free_port()));
    let mut caps: serde_json::Map<String, Value> = serde_json::from_value(json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": d.chromium,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", format!("--user-data-dir={}", profile.display()),
                     format!("--window-size={width},{height}")]
        }
    }))
    .unwrap();
    if width < 500 {
        caps["goog:chromeOptions"]["mobileEmulation"] =
            json!({"deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0, "touch": true}});
    }
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", d.port))
        .await
        .expect("a browser session")
}
