//! Driving `dip board` in headless Chromium (chromedriver through
//! fantoccini): the board as a process of its own, a browser on it, and
//! the pointer and keys a person uses (clicks, double clicks, shift and
//! ctrl clicks, right clicks, drags, a finger's taps and long presses).
//! Chromium and its driver: tests/chromium.

#![allow(dead_code)]

use crate::chromium::{driver, session, Driver};
use fantoccini::actions::{
    Actions, InputSource, KeyAction, KeyActions, MouseActions, PointerAction, TouchActions, MOUSE_BUTTON_LEFT,
    MOUSE_BUTTON_RIGHT,
};
use fantoccini::elements::Element;
use fantoccini::{Client as Browser, Locator};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dip-{tag}-{}-{:x}", std::process::id(), fastrand_u64()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fastrand_u64() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.finish()
}

/// `dip board ARGS…` on a free port.
pub struct Board {
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The page's address.
    pub url: String,
    /// From the start to the address printed.
    pub listening: Duration,
}

impl Board {
    pub fn start(args: &[&str]) -> Board {
        Board::start_in(&std::env::temp_dir(), args)
    }

    /// `dip board` started in folder `dir`.
    pub fn start_in(dir: &Path, args: &[&str]) -> Board {
        let started = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_dip"))
            .current_dir(dir)
            .arg("board")
            .arg("--no-open")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("dip board starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("dip board printed no URL: {line:?}"))
            .to_string();
        let base = url.split("/board/").next().unwrap().to_string();
        let listening = started.elapsed();
        println!("dip board {args:?} listened after {listening:?}");
        std::thread::spawn(move || {
            let mut sink = String::new();
            while out.read_line(&mut sink).unwrap_or(0) > 0 {
                sink.clear();
            }
        });
        Board {
            child,
            base,
            url,
            listening,
        }
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser session and the chromedriver it runs under, both ended when
/// the test ends (also when it fails: a static driver was never dropped,
/// and every run left a driver, its browsers and their profiles behind).
pub struct Session {
    client: Browser,
    _driver: Driver,
}

impl std::ops::Deref for Session {
    type Target = Browser;
    fn deref(&self) -> &Browser {
        &self.client
    }
}

impl Session {
    pub async fn close(self) -> Result<(), fantoccini::error::CmdError> {
        let Session { client, _driver } = self;
        client.close().await
    }
}

/// A browser of this size (under 500 wide: a phone, with touch), with a
/// chromedriver of its own.
pub async fn browser(width: u32, height: u32) -> Session {
    let d = driver();
    let client = session(&d, width, height).await;
    Session { client, _driver: d }
}

/// Polls a script until it returns true.
pub async fn until(b: &Browser, what: &str, script: &str) {
    let started = Instant::now();
    loop {
        if b.execute(script, vec![]).await.ok() == Some(Value::Bool(true)) {
            return;
        }
        if started.elapsed() > Duration::from_secs(20) {
            let state = b
                .execute(
                    "const m = document.querySelector('main.board'); return JSON.stringify({data: {...m?.dataset}, error: document.getElementById('error')?.textContent, orders: [...document.querySelectorAll('#order-list li')].map(l => l.textContent), stage: document.getElementById('stage')?.textContent, events: (window.__log || []).slice(-40)})",
                    vec![],
                )
                .await;
            panic!("timed out waiting for {what}: {state:?}");
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

pub async fn eval(b: &Browser, script: &str) -> Value {
    b.execute(script, vec![]).await.unwrap()
}

pub async fn find(b: &Browser, css: &str) -> Element {
    b.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no `{css}` on the page: {e}"))
}

/// The element a click on province `p` lands on: its unit's icon when it
/// has one (as a person clicks it), else its outline.
pub async fn target(b: &Browser, p: &str) -> Element {
    if let Ok(u) = b
        .find(Locator::Css(&format!("#map svg g.unit[data-province=\"{p}\"]")))
        .await
    {
        return u;
    }
    find(b, &format!("#hits [data-province=\"{p}\"]")).await
}

/// Scrolls an element into view and finds a point of it on top there,
/// away from its edges (the pointer's offset is in whole pixels, and a
/// point on a border may land next door): its offset from the element's
/// centre; `None` when the element is gone
/// (the page drew the map again).
pub async fn on_top(b: &Browser, el: &Element) -> Option<(f64, f64)> {
    let v = b
        .execute(
            "const el = arguments[0]; el.scrollIntoView({block: 'center'});
             const r = el.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
             const p = el.dataset.province;
             const hits = (x, y) => { const t = document.elementFromPoint(x, y); return !!t && (el.contains(t) || (p !== undefined && t.closest('[data-province]')?.dataset.province === p)); };
             const inside = (x, y) => hits(x, y) && hits(x - 4, y) && hits(x + 4, y) && hits(x, y - 4) && hits(x, y + 4);
             if (inside(cx, cy)) return [0, 0];
             let edge = null;
             for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
               const x = r.left + r.width * i / 10, y = r.top + r.height * j / 10;
               if (inside(x, y)) return [Math.round(x - cx), Math.round(y - cy)];
               if (!edge && hits(x, y)) edge = [Math.round(x - cx), Math.round(y - cy)];
             }
             return edge ?? [0, 0];",
            vec![serde_json::to_value(el).unwrap()],
        )
        .await
        .ok()?;
    Some((v[0].as_f64()?, v[1].as_f64()?))
}

pub async fn pointer_to(b: &Browser, el: Element) -> PointerAction {
    let (x, y) = on_top(b, &el).await.unwrap_or((0.0, 0.0));
    PointerAction::MoveToElement {
        element: el,
        duration: None,
        x,
        y,
    }
}

fn press(button: u64) -> [PointerAction; 2] {
    [PointerAction::Down { button }, PointerAction::Up { button }]
}

/// Performs what `make` builds for the element `find` finds; when the
/// page drew the map again meanwhile, finds it again (a person's click
/// lands on what is there).
async fn on_element<F, Fut, A>(b: &Browser, what: &str, mut find_it: F, make: impl Fn(PointerAction) -> A)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Element>,
    A: Into<Actions>,
{
    for _ in 0..5 {
        let el = find_it().await;
        let Some((x, y)) = on_top(b, &el).await else { continue };
        let at = PointerAction::MoveToElement {
            element: el,
            duration: None,
            x,
            y,
        };
        match b.perform_actions(make(at)).await {
            Ok(()) => return,
            Err(e) if format!("{e:?}").contains("StaleElementReference") => continue,
            Err(e) => panic!("{what}: {e}"),
        }
    }
    panic!("{what}: the element kept going stale");
}

pub async fn click(b: &Browser, p: &str) {
    on_element(
        b,
        p,
        || target(b, p),
        |at| {
            let [d, u] = press(MOUSE_BUTTON_LEFT);
            MouseActions::new("mouse".into()).then(at).then(d).then(u)
        },
    )
    .await;
}

pub async fn double_click(b: &Browser, p: &str) {
    on_element(
        b,
        p,
        || target(b, p),
        |at| {
            let [d, u] = press(MOUSE_BUTTON_LEFT);
            let [d2, u2] = press(MOUSE_BUTTON_LEFT);
            MouseActions::new("mouse".into())
                .then(at)
                .then(d)
                .then(u)
                .then(d2)
                .then(u2)
        },
    )
    .await;
}

pub async fn right_click(b: &Browser, p: &str) {
    on_element(
        b,
        p,
        || target(b, p),
        |at| {
            let [d, u] = press(MOUSE_BUTTON_RIGHT);
            MouseActions::new("mouse".into()).then(at).then(d).then(u)
        },
    )
    .await;
}

/// A click with a key held (shift: support; ctrl: convoy).
pub async fn click_with(b: &Browser, key: fantoccini::key::Key, p: &str) {
    let key = char::from(key);
    on_element(
        b,
        p,
        || target(b, p),
        |at| {
            let keys = KeyActions::new("keys".into())
                .then(KeyAction::Down { value: key })
                .pause(Duration::ZERO)
                .pause(Duration::ZERO)
                .pause(Duration::ZERO)
                .then(KeyAction::Up { value: key });
            let [d, u] = press(MOUSE_BUTTON_LEFT);
            let mouse = MouseActions::new("mouse".into())
                .pause(Duration::ZERO)
                .then(at)
                .then(d)
                .then(u)
                .pause(Duration::ZERO);
            Actions::from(keys).and(mouse)
        },
    )
    .await;
}

/// A key pressed on the page (arrows, Escape, Enter).
pub async fn key(b: &Browser, k: fantoccini::key::Key) {
    let k = char::from(k);
    let keys = KeyActions::new("keys".into())
        .then(KeyAction::Down { value: k })
        .then(KeyAction::Up { value: k });
    b.perform_actions(keys).await.unwrap();
}

/// The mouse drags the unit of `from` onto province `to`, in steps.
pub async fn drag(b: &Browser, from: &str, to: &str) {
    let a = target(b, from).await;
    let dest = find(b, &format!("#hits [data-province=\"{to}\"]")).await;
    let (dx, dy) = on_top(b, &dest).await.unwrap_or((0.0, 0.0));
    let (ax, ay) = on_top(b, &a).await.unwrap_or((0.0, 0.0));
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: a,
            duration: None,
            x: ax,
            y: ay,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveBy {
            duration: Some(Duration::from_millis(60)),
            x: 4.0,
            y: 4.0,
        })
        .then(PointerAction::MoveToElement {
            element: dest,
            duration: Some(Duration::from_millis(150)),
            x: dx,
            y: dy,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.perform_actions(mouse).await.unwrap();
}

/// A finger's tap on the element `css` finds (found again when the page
/// drew it anew meanwhile).
pub async fn tap(b: &Browser, css: &str) {
    on_element(
        b,
        css,
        || find(b, css),
        |at| {
            let [d, u] = press(MOUSE_BUTTON_LEFT);
            TouchActions::new("finger".into()).then(at).then(d).then(u)
        },
    )
    .await;
}

/// A finger's tap on province `p` (its unit's icon when it has one).
pub async fn tap_at(b: &Browser, p: &str) {
    on_element(
        b,
        p,
        || target(b, p),
        |at| {
            let [d, u] = press(MOUSE_BUTTON_LEFT);
            TouchActions::new("finger".into()).then(at).then(d).then(u)
        },
    )
    .await;
}

/// Two quick taps of a finger on the element `css` finds.
pub async fn double_tap(b: &Browser, css: &str) {
    on_element(
        b,
        css,
        || find(b, css),
        |at| {
            let [d, u] = press(MOUSE_BUTTON_LEFT);
            let [d2, u2] = press(MOUSE_BUTTON_LEFT);
            TouchActions::new("finger".into())
                .then(at)
                .then(d)
                .then(u)
                .then(d2)
                .then(u2)
        },
    )
    .await;
}

/// A finger held on an element (a long press).
pub async fn long_press(b: &Browser, el: Element) {
    let finger = TouchActions::new("finger".into())
        .then(pointer_to(b, el).await)
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .pause(Duration::from_millis(800))
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.perform_actions(finger).await.unwrap();
}

/// `DIP_SCREENSHOTS` (relative to the repository) or the target directory.
pub async fn screenshot(b: &Browser, name: &str) {
    let dir = match std::env::var_os("DIP_SCREENSHOTS") {
        Some(d) => Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(d),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    b.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    std::fs::write(dir.join(name), b.screenshot().await.unwrap()).unwrap();
}

/// A finger drags the unit of `from` onto province `to`.
pub async fn finger_drag(b: &Browser, from: &str, to: &str) {
    let a = target(b, from).await;
    let dest = find(b, &format!("#hits [data-province=\"{to}\"]")).await;
    let (dx, dy) = on_top(b, &dest).await.unwrap_or((0.0, 0.0));
    let (ax, ay) = on_top(b, &a).await.unwrap_or((0.0, 0.0));
    let finger = TouchActions::new("finger".into())
        .then(PointerAction::MoveToElement {
            element: a,
            duration: None,
            x: ax,
            y: ay,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveBy {
            duration: Some(Duration::from_millis(60)),
            x: 4.0,
            y: 4.0,
        })
        .then(PointerAction::MoveToElement {
            element: dest,
            duration: Some(Duration::from_millis(150)),
            x: dx,
            y: dy,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.perform_actions(finger).await.unwrap();
}

/// Keeps the page's last pointer events (shown when a wait times out).
pub async fn log_events(b: &Browser) {
    b.execute(
        "window.__log = []; for (const t of ['pointerdown','pointerup','pointercancel','click','dblclick']) document.addEventListener(t, e => window.__log.push(t + ':' + e.pointerType + ':' + (e.target.closest?.('[data-province]')?.dataset.province || e.target.tagName + '#' + e.target.id + '.' + (e.target.dataset?.mode || ''))), true); return true",
        vec![],
    )
    .await
    .unwrap();
}
