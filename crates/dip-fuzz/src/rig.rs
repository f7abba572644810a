//! A bots-only game of the server's DAIDE side (crates/dip-server/src/daide)
//! whose connections run in memory: any bytes go in as one client's
//! stream, and what the server sends comes back. The fuzz targets and a
//! property test (tests/rig.rs) feed it. It lives here, not in the
//! server's library: nothing a server runs needs it.
//!
//! The game lives in a SQLite database in a folder of its own under the
//! system's temporary folder, removed when the rig is dropped.

use dip_server::daide::frame::{self, Frame};
use dip_server::daide::message::{self, tokens_of, Msg};
use dip_server::daide::token::{self, Repr};
use dip_server::daide::{self, session, BotGame, DaideConfig, Hub};
use dip_server::db::Db;
use dip_server::AppState;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

/// How long a session may take once its client has closed.
const ENDS_WITHIN: Duration = Duration::from_secs(10);

/// The folders of rigs start so.
const PREFIX: &str = "dip-daide-rig-";

/// A rig kept for a whole process (a fuzz target's) is never dropped:
/// when a new one is made, the folders of rigs whose process has ended
/// (where /proc tells) or that were untouched for an hour are removed.
fn sweep_stale() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    let proc = std::path::Path::new("/proc/self").exists();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(PREFIX) else {
            continue;
        };
        let pid = rest.split('-').next().unwrap_or_default();
        let ended = proc && !pid.is_empty() && !std::path::Path::new("/proc").join(pid).exists();
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > Duration::from_secs(3600));
        if ended || old {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// A number no other rig of this process has (the folder's name): the
/// standard library's randomly keyed hasher, over a counter.
fn unique() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    h.finish()
}

pub struct Rig {
    rt: tokio::runtime::Runtime,
    hub: Arc<Hub>,
    dir: PathBuf,
}

impl Rig {
    /// A standard game for bots, waiting for its players (every client
    /// that says NME joins it, until it starts with the seventh).
    pub fn new() -> Rig {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        sweep_stale();
        let dir = std::env::temp_dir().join(format!("{PREFIX}{}-{:016x}", std::process::id(), unique()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let db = Db::sqlite(&dir.join("dip.sqlite")).expect("a SQLite database");
        let state = AppState::new(db);
        let config = DaideConfig {
            im_timeout: Duration::from_secs(2),
            write_timeout: Duration::from_secs(2),
            ..DaideConfig::default()
        };
        let hub = rt.block_on(async {
            let id = daide::create_bot_game(
                &state,
                BotGame {
                    name: "rig".into(),
                    variant: "standard".into(),
                    deadline: None,
                    press: 30,
                    port: 0,
                    rules: Default::default(),
                },
            )
            .await
            .expect("a bots' game");
            let (hub, _watch) = daide::open_hub(state, id, config).await.expect("the game's DAIDE side");
            hub
        });
        Rig { rt, hub, dir }
    }

    /// One connection: `bytes` are sent, then the client closes its side.
    /// Returns every frame the server sent. Panics (so that the fuzzer
    /// sees it) when the session panicked, did not end, or sent a frame
    /// that is not well formed.
    pub fn session(&self, bytes: &[u8]) -> Vec<Frame> {
        self.rt.block_on(async {
            let (client, server) = tokio::io::duplex(1 << 16);
            let (srd, swr) = tokio::io::split(server);
            let task = tokio::spawn(session::serve_stream(self.hub.clone(), srd, swr));
            let (mut rd, mut wr) = tokio::io::split(client);
            let send = async {
                let _ = wr.write_all(bytes).await;
                let _ = wr.shutdown().await;
            };
            let take = async {
                let mut got = Vec::new();
                while let Ok(f) = frame::read(&mut rd, usize::from(u16::MAX)).await {
                    got.push(f);
                }
                got
            };
            let (_, got) = tokio::join!(send, take);
            match tokio::time::timeout(ENDS_WITHIN, task).await {
                Err(_) => panic!("the session did not end after its client closed"),
                Ok(Err(e)) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
                Ok(_) => {}
            }
            for f in &got {
                well_formed(f);
            }
            got
        })
    }
}

impl Default for Rig {
    fn default() -> Self {
        Rig::new()
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What the server sends: an RM, an EM with a code, or a DM that is a
/// message (whole tokens, brackets that match, but PRN, which sends back
/// what did not match).
fn well_formed(f: &Frame) {
    match f.kind {
        frame::RM => assert!(f.data.len().is_multiple_of(6), "an RM of {} octets", f.data.len()),
        frame::EM => assert_eq!(f.data.len(), 2, "an EM of {} octets", f.data.len()),
        frame::DM => {
            let tokens = tokens_of(&f.data).expect("a DM of whole tokens");
            assert!(!tokens.is_empty(), "an empty DM");
            if tokens[0] != token::PRN {
                assert!(Msg::from_tokens(&tokens).is_ok(), "a DM whose brackets do not match");
            }
        }
        k => panic!("the server sent a frame of type {k}"),
    }
}

/// A client's messages of every kind (seeds for fuzzing and property
/// tests).
pub fn script() -> Vec<Msg> {
    let r = Repr::of(&dip_variants::standard().map);
    [
        "NME ('bot') ('1')",
        "YES (MAP ('standard'))",
        "MDF",
        "HLO",
        "NOW",
        "SCO",
        "SUB ((ENG FLT LON) MTO NTH) ((ENG AMY LVP) HLD)",
        "NOT (SUB)",
        "MIS",
        "GOF",
        "NOT (GOF)",
        "TME (60)",
        "DRW",
        "SND (FRA) (PRP (PCE (ENG FRA)))",
        "HST (SPR 1901)",
        "IAM (ENG) (1234)",
        "OBS",
        "ADM ('bot') ('hello')",
    ]
    .iter()
    .filter_map(|t| Msg::parse(t, &r).ok())
    .collect()
}

/// A client's frames as one stream: IM, then a DM for each message.
pub fn stream(messages: &[Msg]) -> Vec<u8> {
    let mut out = Frame::im().encode();
    for m in messages {
        out.extend(Frame::new(frame::DM, message::bytes_of(&m.tokens())).encode());
    }
    out
}
