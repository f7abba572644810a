//! DAIDE benchmark (BENCHMARKS.md, DAIDE section): holding bots over TCP
//! against games with zero-second deadlines, in one server process with
//! SQLite. The bots run in a child process (this program again, with
//! `--bots`), so that the server's memory is its own.
//!
//! cargo run --release -p dip-server --example daide_load -- [--games 1] [--observers 0] [--end 1950] [--variant standard]
//! cargo run --release -p dip-server --example daide_load -- --idle 1000
//!
//! Games: `--games` games of the bundled `--variant`, each with a holding
//! bot per power and `--observers` observers, play to the end of year
//! `--end`; prints phases per second, the connections held at the peak
//! and the server's resident memory.
//! Idle: `--idle N` clients connect (IM, RM) and stay; prints the
//! server's resident memory before and after, per connection.

#![forbid(unsafe_code)]

mod common;

use common::arg;
use dip_server::daide::frame::{self, Frame};
use dip_server::daide::message::{bytes_of, text_of, tokens_of, Msg};
use dip_server::daide::token::Repr;
use dip_server::daide::{self, BotGame, DaideConfig, Hub};
use dip_server::{db::Db, game::DaideRules, AppState};
use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

fn num(name: &str, default: usize) -> usize {
    arg(name, &default.to_string()).parse().unwrap_or_else(|_| {
        eprintln!("daide_load: {name} takes a number");
        std::process::exit(2)
    })
}

/// Resident memory of this process in KiB (/proc/self/status, VmRSS).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    if std::env::args().any(|a| a == "--bots") {
        rt.block_on(bots_main());
        return;
    }
    rt.block_on(server_main());
}

// ---- the server side ----

/// The games to play: the command line's options.
struct Load {
    /// Clients that only connect and stay (`--idle`); 0 plays games.
    idle: usize,
    games: usize,
    observers: usize,
    end: i32,
    variant: String,
    powers: usize,
}

impl Load {
    fn from_args() -> Load {
        let variant = arg("--variant", "standard");
        Load {
            idle: num("--idle", 0),
            games: num("--games", 1).max(1),
            observers: num("--observers", 0),
            end: arg("--end", "1950").parse().unwrap_or(1950),
            powers: powers_of(&variant).len(),
            variant,
        }
    }
}

/// The games' DAIDE ports, their hubs and their listeners' tasks.
#[derive(Default)]
struct Listening {
    addrs: Vec<SocketAddr>,
    hubs: Vec<Arc<Hub>>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Listening {
    /// The clients connected to every game now.
    fn open(&self) -> usize {
        self.hubs.iter().map(|h| h.open.load(Ordering::Relaxed)).sum()
    }
}

async fn server_main() {
    let load = Load::from_args();
    let dir = std::env::temp_dir().join(format!("dip-daide-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let db = Db::sqlite(&dir.join("dip.sqlite")).expect("SQLite");
    let state = AppState::new(db);
    let n_games = if load.idle > 0 { 1 } else { load.games };
    let listening = listen_to_games(&state, &load, n_games).await;
    let before = rss_kib();
    let child = spawn_bots(&load, &listening.addrs);
    if load.idle > 0 {
        measure_idle(&load, &listening, child, before).await;
    } else {
        measure_games(&state, &load, listening, child, before).await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `n_games` bot games with zero-second deadlines, each listening on a
/// port of its own and ending after `--end`.
async fn listen_to_games(state: &AppState, load: &Load, n_games: usize) -> Listening {
    let mut listening = Listening::default();
    for g in 0..n_games {
        let id = daide::create_bot_game(
            state,
            BotGame {
                name: format!("load {g}"),
                variant: load.variant.clone(),
                deadline: None,
                press: 0,
                port: 0,
                rules: DaideRules {
                    zero_deadline: true,
                    ..DaideRules::default()
                },
            },
        )
        .await
        .expect("a game");
        let config = DaideConfig {
            end_after_year: Some(load.end),
            ..DaideConfig::default()
        };
        let (addr, hub, task) = daide::listen(state.clone(), id, "127.0.0.1:0".parse().unwrap(), config)
            .await
            .expect("a port");
        listening.addrs.push(addr);
        listening.hubs.push(hub);
        listening.tasks.push(task);
    }
    listening
}

/// This program again with `--bots`: the clients, in a process of their
/// own so that the server's memory is its own.
fn spawn_bots(load: &Load, addrs: &[SocketAddr]) -> Child {
    let exe = std::env::current_exe().expect("this program");
    let mut cmd = Command::new(exe);
    cmd.arg("--bots")
        .arg("--variant")
        .arg(&load.variant)
        .arg("--addrs")
        .arg(addrs.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(","));
    if load.idle > 0 {
        cmd.arg("--idle").arg(load.idle.to_string());
    } else {
        cmd.arg("--observers").arg(load.observers.to_string());
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the bots' process")
}

/// Idle clients: waits until every one is connected, or no more come,
/// and prints the server's memory per connection.
async fn measure_idle(load: &Load, listening: &Listening, mut child: Child, before: u64) {
    let start = Instant::now();
    let idle = load.idle;
    let mut last = (0, Instant::now());
    loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let n = listening.open();
        if n != last.0 {
            last = (n, Instant::now());
        }
        if n >= idle || last.1.elapsed() > Duration::from_secs(10) {
            break;
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let n = listening.open();
    let after = rss_kib();
    println!(
        "daide_load idle: {n} of {idle} clients connected (IM, RM) in {:.1?}; server RSS {} KiB before, {} KiB after: {:.1} KiB per connection; load {}",
        start.elapsed(),
        before,
        after,
        (after.saturating_sub(before)) as f64 / n.max(1) as f64,
        load_average()
    );
    drop(child.stdin.take());
    let _ = child.wait();
}

/// The most connections held and the most memory used while the games play.
struct Peaks {
    open: Arc<AtomicUsize>,
    rss: Arc<AtomicUsize>,
    watcher: tokio::task::JoinHandle<()>,
}

impl Peaks {
    /// Follows the connections and memory every 100 ms until stopped.
    fn follow(hubs: &[Arc<Hub>]) -> Peaks {
        let (open, rss) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let hubs = hubs.to_vec();
        let (po, pr) = (open.clone(), rss.clone());
        let watcher = tokio::spawn(async move {
            loop {
                let n: usize = hubs.iter().map(|h| h.open.load(Ordering::Relaxed)).sum();
                po.fetch_max(n, Ordering::Relaxed);
                pr.fetch_max(rss_kib() as usize, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
        Peaks { open, rss, watcher }
    }

    /// Stops following; the connections held and the memory at the peak.
    fn stop(self) -> (usize, usize) {
        self.watcher.abort();
        (self.open.load(Ordering::Relaxed), self.rss.load(Ordering::Relaxed))
    }
}

/// Games: follows the connections and memory until every game is over
/// (or `--timeout` seconds), then prints the phases per second and the
/// peaks, and the bots' own report.
async fn measure_games(state: &AppState, load: &Load, listening: Listening, mut child: Child, before: u64) {
    let start = Instant::now();
    let peaks = Peaks::follow(&listening.hubs);
    let limit = Duration::from_secs(num("--timeout", 1800) as u64);
    let mut finished = 0;
    for t in listening.tasks {
        let left = limit.saturating_sub(start.elapsed());
        if tokio::time::timeout(left, t).await.is_ok() {
            finished += 1;
        }
    }
    let took = start.elapsed();
    let (held, peak) = peaks.stop();
    let phases = phases_played(state).await;
    let report = bots_report(&mut child);
    let Load {
        games,
        observers,
        end,
        powers,
        ref variant,
        ..
    } = *load;
    println!(
        "daide_load: {games} game(s) of {variant}, {powers} holding bots{} each, zero-second deadlines, to the end of {end}: \
         {finished} finished, {phases} phases in {:.2} s = {:.1} phases/s; connections held at the peak {}; \
         server RSS {} KiB before the clients, {} KiB at the peak ({:.1} KiB per connection held, games included); load {}",
        if observers > 0 {
            format!(" and {observers} observers")
        } else {
            String::new()
        },
        took.as_secs_f64(),
        phases as f64 / took.as_secs_f64(),
        held,
        before,
        peak,
        peak.saturating_sub(before as usize) as f64 / held.max(1) as f64,
        load_average()
    );
    print!("{report}");
}

/// The phases every game played, together.
async fn phases_played(state: &AppState) -> i64 {
    state
        .read(|tx| {
            Ok::<_, dip_server::error::ApiError>(
                tx.query_one("SELECT COUNT(*) FROM phases", &[])?
                    .map(|r| r.int(0))
                    .transpose()?
                    .unwrap_or(0),
            )
        })
        .await
        .unwrap_or(0)
}

/// Closes the bots' standard input and reads what they printed until
/// they exit.
fn bots_report(child: &mut Child) -> String {
    drop(child.stdin.take());
    let mut report = String::new();
    if let Some(out) = child.stdout.take() {
        for l in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            report.push_str(&l);
            report.push('\n');
        }
    }
    let _ = child.wait();
    report
}

/// The powers of a bundled variant (the map's power tokens follow it).
fn powers_of(variant: &str) -> Vec<String> {
    let v = dip_variants::load(variant).unwrap_or_else(|e| {
        eprintln!("daide_load: --variant {variant}: {e}");
        std::process::exit(2)
    });
    v.map.powers().iter().map(|p| p.name.clone()).collect()
}

// ---- the bots' process ----

struct Client {
    s: TcpStream,
    r: Arc<Repr>,
}

impl Client {
    async fn connect(addr: SocketAddr, r: Arc<Repr>) -> std::io::Result<Client> {
        let mut s = TcpStream::connect(addr).await?;
        s.write_all(&Frame::im().encode()).await?;
        let rm = frame::read(&mut s, 65535)
            .await
            .map_err(|e| std::io::Error::other(format!("{e:?}")))?;
        if rm.kind != frame::RM {
            return Err(std::io::Error::other("no RM"));
        }
        Ok(Client { s, r })
    }
    async fn send(&mut self, text: &str) -> std::io::Result<()> {
        let m = Msg::parse(text, &self.r).map_err(std::io::Error::other)?;
        self.s
            .write_all(&Frame::new(frame::DM, bytes_of(&m.tokens())).encode())
            .await
    }
    async fn recv(&mut self) -> Option<String> {
        let f = frame::read(&mut self.s, 65535).await.ok()?;
        if f.kind != frame::DM {
            return None;
        }
        Some(text_of(&tokens_of(&f.data).ok()?, &self.r))
    }
}

/// Holds everything (disbands, waives) until OFF; the number of NOWs.
async fn holdbot(addr: SocketAddr, r: Arc<Repr>, name: String) -> std::io::Result<usize> {
    let mut c = Client::connect(addr, r).await?;
    c.send(&format!("NME ('{name}') ('1')")).await?;
    let mut me = String::new();
    let mut nows = 0;
    while let Some(m) = c.recv().await {
        if m.starts_with("MAP (") {
            let name = m.trim_start_matches("MAP ").to_string();
            c.send(&format!("YES (MAP {name})")).await?;
        } else if let Some(rest) = m.strip_prefix("HLO (") {
            me = rest[..3].to_string();
        } else if m.starts_with("NOW (") {
            nows += 1;
            let msg = Msg::parse(&m, &c.r).map_err(std::io::Error::other)?;
            let season = msg.0[1]
                .list()
                .and_then(|l| l.first())
                .and_then(|t| t.tok())
                .and_then(|t| c.r.name(t))
                .unwrap_or_default();
            let mut orders = Vec::new();
            for n in &msg.0[2..] {
                let Some(l) = n.list() else { continue };
                let t = Msg(l.to_vec()).to_text(&c.r);
                if !t.starts_with(&me) {
                    continue;
                }
                match t.split_once(" MRT") {
                    Some((unit, _)) => orders.push(format!("(({unit}) DSB)")),
                    None if season == "SPR" || season == "FAL" => orders.push(format!("(({t}) HLD)")),
                    None => {}
                }
            }
            if season == "WIN" {
                c.send("MIS").await?;
            } else if !orders.is_empty() {
                c.send(&format!("SUB {}", orders.join(" "))).await?;
            }
        } else if let Some(n) = m
            .strip_prefix("MIS (")
            .and_then(|r| r.strip_suffix(')'))
            .and_then(|n| n.parse::<i32>().ok())
        {
            if n < 0 {
                let w = vec![format!("({me} WVE)"); (-n) as usize];
                c.send(&format!("SUB {}", w.join(" "))).await?;
            }
        } else if m == "OFF" {
            break;
        }
    }
    Ok(nows)
}

async fn observer(addr: SocketAddr, r: Arc<Repr>) -> std::io::Result<usize> {
    let mut c = Client::connect(addr, r).await?;
    c.send("OBS").await?;
    let mut nows = 0;
    while let Some(m) = c.recv().await {
        nows += usize::from(m.starts_with("NOW ("));
        if m == "OFF" {
            break;
        }
    }
    Ok(nows)
}

async fn bots_main() {
    let addrs: Vec<SocketAddr> = arg("--addrs", "").split(',').filter_map(|a| a.parse().ok()).collect();
    let variant = arg("--variant", "standard");
    let map = dip_variants::load(&variant).expect("the variant").map;
    let r = Arc::new(Repr::of(&map));
    let idle = num("--idle", 0);
    if idle > 0 {
        let mut held = Vec::new();
        let mut failed = 0;
        for i in 0..idle {
            match Client::connect(addrs[i % addrs.len()], r.clone()).await {
                Ok(c) => held.push(c),
                Err(_) => failed += 1,
            }
        }
        if failed > 0 {
            eprintln!("daide_load: {failed} clients could not connect");
        }
        // Until the server closes our standard input.
        let _ = tokio::task::spawn_blocking(|| {
            let mut s = String::new();
            let _ = std::io::stdin().read_line(&mut s);
        })
        .await;
        drop(held);
        return;
    }
    let observers = num("--observers", 0);
    let mut tasks = Vec::new();
    for (g, &addr) in addrs.iter().enumerate() {
        for b in 0..map.powers().len() {
            tasks.push(tokio::spawn(holdbot(addr, r.clone(), format!("hold{g}x{b}"))));
        }
        for _ in 0..observers {
            tasks.push(tokio::spawn(observer(addr, r.clone())));
        }
    }
    let (mut ok, mut failed, mut nows) = (0, 0, 0);
    for t in tasks {
        match t.await {
            Ok(Ok(n)) => {
                ok += 1;
                nows += n;
            }
            _ => failed += 1,
        }
    }
    println!("daide_load bots: {ok} clients played to OFF ({nows} NOW messages received), {failed} failed");
    let _ = std::io::stdout().flush();
}
