//! A game's DAIDE port under abuse: a cap on connections, messages that
//! must arrive whole in time, seats taken in time after the IM, no
//! database work before the IM, and HST limited per connection.

mod common;
mod daide_common;

use common::TestApp;
use daide_common::{bot_game, Client};
use dip_server::daide::frame::{self, Frame};
use dip_server::daide::DaideConfig;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn config() -> DaideConfig {
    DaideConfig {
        im_timeout: Duration::from_millis(400),
        read_timeout: Duration::from_millis(400),
        max_connections: 8,
        hst_per_minute: 3,
        ..DaideConfig::default()
    }
}

/// Whether the server closes the connection (after any EM) within `by`.
async fn closed_within(s: &mut TcpStream, by: Duration) -> bool {
    let until = Instant::now() + by;
    let mut buf = [0u8; 256];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

/// How many descriptors this process holds on a file whose path ends so.
/// Callers name their own app's database: the other test of this file
/// runs at the same time with a database of its own (counting every
/// `dip.sqlite` of the process failed now and then: 4 before, 10 during).
fn open_on(suffix: &str) -> usize {
    std::fs::read_dir("/proc/self/fd")
        .map(|d| {
            d.filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
                .filter(|p| p.to_string_lossy().ends_with(suffix))
                .count()
        })
        .unwrap_or(0)
}

/// 1,000 connections were all served (no cap), each read the database
/// twice before its IM (about 512 blocking threads, 240–330 descriptors
/// on the database file), and a connection that sent its IM and then
/// nothing, or half a message, was held for ever.
#[tokio::test]
async fn connections_beyond_the_cap_silent_ones_and_half_messages_are_closed() {
    let app = TestApp::new();
    let (_, addr, _task) = bot_game(&app, config()).await;
    let db_file = app.dir.join("dip.sqlite");
    let db_file = db_file.to_string_lossy();
    let before = open_on(&db_file);
    // 200 connections at once, none sending anything.
    let mut socks = Vec::new();
    for _ in 0..200 {
        socks.push(TcpStream::connect(addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let during = open_on(&db_file);
    assert!(
        during <= before + 2,
        "descriptors on the database: {before} before, {during} with 200 connections that sent no IM"
    );
    // All of them go: beyond the cap at once, the rest at the IM timeout.
    for s in &mut socks {
        assert!(closed_within(s, Duration::from_secs(3)).await);
    }
    // An IM, then silence: closed after the read timeout.
    let mut c = Client::raw(addr).await;
    c.frame(&Frame::im()).await;
    assert_eq!(c.next_frame().await.unwrap().kind, frame::RM);
    assert!(
        closed_within(&mut c.s, Duration::from_secs(3)).await,
        "a seatless connection"
    );
    // Half a message after the IM: closed too.
    let mut c = Client::raw(addr).await;
    c.frame(&Frame::im()).await;
    assert_eq!(c.next_frame().await.unwrap().kind, frame::RM);
    c.s.write_all(&[frame::DM, 0, 0, 40, 0x48]).await.unwrap();
    assert!(closed_within(&mut c.s, Duration::from_secs(3)).await, "a half message");
    // A real client is still served, and may then stay silent.
    let mut c = Client::connect(addr).await;
    c.send("OBS").await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    c.send("HLO").await;
    assert!(c.recv().await.is_some(), "an observer is kept after the read timeout");
    let after = open_on(&db_file);
    assert!(after <= before + 2, "{before} before, {after} after");
}

/// Each HST replayed the whole game (one client cost 23 CPU-seconds in
/// 30 s): now the results are made once per phase, and a connection has
/// an allowance a minute (240 by default), then REJ.
#[tokio::test]
async fn hst_beyond_the_allowance_is_rejected() {
    let app = TestApp::new();
    let (_, _, mut cs) = daide_common::seated(&app, None, 0, Default::default(), None).await;
    let r = daide_common::repr();
    for (c, me, _) in cs.iter_mut() {
        c.send("NOW").await;
        let (now, _) = c.until("NOW (").await;
        c.send(&daide_common::holds(&now, me, &r).unwrap()).await;
    }
    let c = &mut cs[0].0;
    c.until("NOW (FAL 1901)").await;
    let allowed = DaideConfig::default().hst_per_minute as usize;
    let started = Instant::now();
    let mut answered = 0;
    let mut refused = 0;
    for _ in 0..allowed + 40 {
        c.send("HST (SPR 1901)").await;
        loop {
            let m = c.recv().await.unwrap();
            if m.starts_with("NOW (") {
                answered += 1;
                break;
            }
            if m.starts_with("REJ (HST") {
                refused += 1;
                break;
            }
        }
    }
    // The allowance refills as time passes: a slow machine gets a few more.
    let refilled = (started.elapsed().as_secs_f64() * allowed as f64 / 60.0).ceil() as usize;
    assert!(answered >= allowed, "{answered} answered");
    assert!(
        answered <= allowed + refilled,
        "{answered} answered, {refilled} refilled"
    );
    assert!(refused > 0);
}
