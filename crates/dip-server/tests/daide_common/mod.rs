//! What the DAIDE tests share: a client speaking DAIDE's text over TCP,
//! and games of bots seated power by power.

#![allow(dead_code)]

use crate::common::TestApp;
use dip_server::daide::frame::{self, Frame};
use dip_server::daide::message::{bytes_of, tokens_of, Msg};
use dip_server::daide::token::Repr;
use dip_server::daide::{self, BotGame, DaideConfig};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

pub fn repr() -> Repr {
    Repr::of(&dip_variants::standard().map)
}

/// A DAIDE client speaking text.
pub struct Client {
    pub s: TcpStream,
    pub r: Repr,
}

impl Client {
    pub async fn raw(addr: SocketAddr) -> Client {
        Client {
            s: TcpStream::connect(addr).await.unwrap(),
            r: repr(),
        }
    }
    pub async fn connect(addr: SocketAddr) -> Client {
        Client::connect_with(addr, repr()).await
    }
    /// A client of a game on another map: the RM must announce `r`.
    pub async fn connect_with(addr: SocketAddr, r: Repr) -> Client {
        let mut c = Client::raw(addr).await;
        c.r = r;
        c.frame(&Frame::im()).await;
        let rm = c.next_frame().await.expect("an RM");
        assert_eq!(rm.kind, frame::RM);
        assert_eq!(rm.data, c.r.rm_payload());
        c
    }
    pub async fn frame(&mut self, f: &Frame) {
        self.s.write_all(&f.encode()).await.unwrap();
    }
    pub async fn send(&mut self, text: &str) {
        if std::env::var("DAIDE_TRACE").is_ok() {
            eprintln!(">> {text}");
        }
        let m = Msg::parse(text, &self.r).unwrap();
        self.frame(&Frame::new(frame::DM, bytes_of(&m.tokens()))).await;
    }
    pub async fn next_frame(&mut self) -> Option<Frame> {
        tokio::time::timeout(Duration::from_secs(20), frame::read(&mut self.s, 65535))
            .await
            .expect("an answer within 20 s")
            .ok()
    }
    /// The next message as text (`EM n` for an error, `None`: closed).
    pub async fn recv(&mut self) -> Option<String> {
        let f = self.next_frame().await?;
        let m = self.text_of(&f);
        if std::env::var("DAIDE_TRACE").is_ok() {
            eprintln!("<< {m}");
        }
        Some(m)
    }
    fn text_of(&self, f: &Frame) -> String {
        match f.kind {
            frame::DM => dip_server::daide::message::text_of(&tokens_of(&f.data).unwrap(), &self.r),
            frame::EM => format!("EM {}", u16::from_be_bytes([f.data[0], f.data[1]])),
            k => format!("frame {k}"),
        }
    }
    /// Messages until one starts with `head`.
    pub async fn until(&mut self, head: &str) -> (String, Vec<String>) {
        let mut seen = Vec::new();
        loop {
            let m = self
                .recv()
                .await
                .unwrap_or_else(|| panic!("closed while waiting for {head}: {seen:?}"));
            if m.starts_with(head) {
                return (m, seen);
            }
            seen.push(m);
        }
    }
}

/// Plays holds (disbands, waives) until OFF on any map; returns every
/// message received.
pub async fn holdbot_with(addr: SocketAddr, name: String, r: Repr) -> Vec<String> {
    buildbot_with(addr, name, r, None).await
}

/// `holdbot_with`, but the power `build.0` (a power token) builds
/// `build.1` (`AMY STP`) with the first build it is owed.
pub async fn buildbot_with(addr: SocketAddr, name: String, r: Repr, build: Option<(String, String)>) -> Vec<String> {
    let mut c = Client::connect_with(addr, r).await;
    c.send(&format!("NME ('{name}') ('1')")).await;
    let mut log = Vec::new();
    let mut me = String::new();
    while let Some(m) = c.recv().await {
        log.push(m.clone());
        if m.starts_with("MAP (") {
            let name = m.trim_start_matches("MAP ").to_string();
            c.send(&format!("YES (MAP {name})")).await;
        } else if let Some(rest) = m.strip_prefix("HLO (") {
            me = rest[..3].to_string();
        } else if m.starts_with("NOW (") {
            let season = &m[5..8];
            if season == "WIN" {
                c.send("MIS").await;
            } else if let Some(sub) = holds(&m, &me, &c.r) {
                c.send(&sub).await;
            }
        } else if let Some(n) = m
            .strip_prefix("MIS (")
            .and_then(|r| r.strip_suffix(')'))
            .and_then(|n| n.parse::<i32>().ok())
        {
            if n < 0 {
                let mut w = vec![format!("({me} WVE)"); (-n) as usize];
                if let Some((_, unit)) = build.as_ref().filter(|(p, _)| *p == me) {
                    w[0] = format!("(({me} {unit}) BLD)");
                }
                c.send(&format!("SUB {}", w.join(" "))).await;
            }
        } else if m == "OFF" {
            break;
        }
    }
    log
}

/// `holdbot_with` on the standard map.
pub async fn holdbot(addr: SocketAddr, name: String) -> Vec<String> {
    holdbot_with(addr, name, repr()).await
}

pub async fn bot_game(app: &TestApp, config: DaideConfig) -> (i64, SocketAddr, tokio::task::JoinHandle<()>) {
    let id = daide::create_bot_game(
        &app.state,
        BotGame {
            name: "bots".into(),
            variant: "standard".into(),
            deadline: None,
            press: 0,
            port: 0,
            rules: Default::default(),
        },
    )
    .await
    .unwrap();
    let (addr, _hub, task) = daide::listen(app.state.clone(), id, "127.0.0.1:0".parse().unwrap(), config)
        .await
        .unwrap();
    (id, addr, task)
}

/// Hold (or disband, or waive) everything of `me` in the NOW message.
pub fn holds(now: &str, me: &str, r: &Repr) -> Option<String> {
    let msg = Msg::parse(now, r).unwrap();
    let season = r.name(msg.0[1].list().unwrap()[0].tok().unwrap()).unwrap();
    let mut orders = Vec::new();
    for n in &msg.0[2..] {
        let t = Msg(n.list().unwrap().to_vec()).to_text(r);
        if !t.starts_with(me) {
            continue;
        }
        match t.split_once(" MRT") {
            Some((unit, _)) => orders.push(format!("(({unit}) DSB)")),
            None if season == "SPR" || season == "FAL" => orders.push(format!("(({t}) HLD)")),
            None => {}
        }
    }
    (!orders.is_empty()).then(|| format!("SUB {}", orders.join(" ")))
}

pub const POWERS: [&str; 7] = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];

/// A bots-only game with these rules; every client seated in the order of
/// POWERS, past HLO and the first NOW.
pub async fn seated(
    app: &TestApp,
    deadline: Option<&str>,
    press: u32,
    rules: dip_server::game::DaideRules,
    end_after_year: Option<i32>,
) -> (i64, SocketAddr, Vec<(Client, String, String)>) {
    seated_with(app, deadline, press, rules, end_after_year, |_| {}).await
}

/// `seated`, with the game's stored options changed before it starts.
pub async fn seated_with(
    app: &TestApp,
    deadline: Option<&str>,
    press: u32,
    rules: dip_server::game::DaideRules,
    end_after_year: Option<i32>,
    change: impl FnOnce(&mut dip_server::game::Options) + Send + 'static,
) -> (i64, SocketAddr, Vec<(Client, String, String)>) {
    let id = daide::create_bot_game(
        &app.state,
        BotGame {
            name: "rules".into(),
            variant: "standard".into(),
            deadline: deadline.map(String::from),
            press,
            port: 0,
            rules,
        },
    )
    .await
    .unwrap();
    // Powers by arrival: the game lets players choose.
    app.state
        .write(move |tx| {
            let g = dip_server::game::load(tx, id, dip_server::game::Lock::Update)?;
            let mut o = g.options.clone();
            o.assignment = dip_server::game::Assignment::Choice;
            change(&mut o);
            tx.exec(
                "UPDATE games SET options = $1 WHERE id = $2",
                &[serde_json::to_string(&o).unwrap().into(), id.into()],
            )?;
            Ok::<_, dip_server::error::ApiError>(())
        })
        .await
        .unwrap();
    let config = DaideConfig {
        press_level: press.max(10),
        end_after_year,
        powers_by_arrival: POWERS.iter().map(|p| p.to_string()).collect(),
        ..DaideConfig::default()
    };
    let (addr, _hub, _task) = daide::listen(app.state.clone(), id, "127.0.0.1:0".parse().unwrap(), config)
        .await
        .unwrap();
    let mut cs = Vec::new();
    for i in 0..7 {
        let mut c = Client::connect(addr).await;
        c.send(&format!("NME ('c{i}') ('1')")).await;
        c.until("MAP").await;
        c.send("YES (MAP ('standard'))").await;
        cs.push(c);
    }
    let mut out = Vec::new();
    for mut c in cs {
        let (hlo, _) = c.until("HLO (").await;
        let (now, _) = c.until("NOW (").await;
        let _ = now;
        out.push((c, hlo[5..8].to_string(), hlo));
    }
    (id, addr, out)
}
