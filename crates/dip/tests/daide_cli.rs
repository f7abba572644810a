//! `dip daide --variant` on the command line: any variant dip loads (a
//! variant file, a DipWork folder, a jDip plugin's variant by name with
//! the global `--variants`), and a clear refusal of what bots cannot play.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
        .display()
        .to_string()
}

/// Starts `dip daide ARGS --port 0`, and returns the first line it
/// prints (the game waiting for its bots) or, if it exits first, its
/// exit code and what it wrote to stderr.
fn daide(args: &[&str]) -> Result<String, (i32, String)> {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let data = std::env::temp_dir().join(format!("dip-daide-cli-{}-{n}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_dip"))
        .arg("daide")
        .args(args)
        .args(["--port", "0", "--data"])
        .arg(&data)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut line = String::new();
    let read = BufReader::new(child.stdout.take().unwrap()).read_line(&mut line);
    let answer = if read.is_ok_and(|n| n > 0) {
        let _ = child.kill();
        let _ = child.wait();
        Ok(line)
    } else {
        let out = child.wait_with_output().expect("ends");
        Err((
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).to_string(),
        ))
    };
    let _ = std::fs::remove_dir_all(&data);
    answer
}

#[test]
fn dip_daide_took_bundled_variants_only() {
    // A jDip plugin's variant by name with the global `--variants`.
    let tiny = repo("examples/jdip/tiny");
    let got = daide(&["--variants", &tiny, "--variant", "Tiny Spring"]).unwrap();
    assert!(got.starts_with("dip daide: Tiny_Spring game on 127.0.0.1:"), "{got}");
    assert!(got.contains("waiting for 2 bots"), "{got}");
    // A DipWork folder and a variant file, by path.
    let got = daide(&["--variant", &repo("examples/variants/mini")]).unwrap();
    assert!(
        got.contains("mini game on") && got.contains("waiting for 2 bots"),
        "{got}"
    );
    let got = daide(&["--variant", &repo("variants/pure.variant")]).unwrap();
    assert!(
        got.contains("pure game on") && got.contains("waiting for 7 bots"),
        "{got}"
    );
}

#[test]
fn dip_daide_refuses_a_variant_with_wings_or_none_at_all() {
    let tiny = repo("examples/jdip/tiny");
    let (code, err) = daide(&["--variants", &tiny, "--variant", "tiny"]).unwrap_err();
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--variant tiny: DAIDE knows armies and fleets only"),
        "{err}"
    );
    assert!(err.contains("Wing"), "{err}");
    let (code, err) = daide(&["--variant", "no-such-variant"]).unwrap_err();
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no-such-variant") && err.contains("bundled variants"),
        "{err}"
    );
}

#[test]
fn an_end_year_before_the_variants_first_ended_its_game_after_one_phase() {
    let (code, err) = daide(&["--variant", "modern", "--end-after", "1910"]).unwrap_err();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--end-after 1910") && err.contains("1994"), "{err}");
    let got = daide(&["--variant", "modern", "--end-after", "1994"]).unwrap();
    assert!(got.contains("waiting for 10 bots"), "{got}");
    // Chaos begins with the builds of 1900: its first movements are 1901's.
    let (code, err) = daide(&["--variant", "chaos", "--end-after", "1900"]).unwrap_err();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("from 1901 on"), "{err}");
}

/// A bot that takes a seat (IM, NME, YES to the MAP) and then only
/// listens, until the server closes the connection.
async fn seated_bot(addr: std::net::SocketAddr, name: String) {
    use dip_server::daide::frame::{self, Frame};
    use dip_server::daide::message::{bytes_of, text_of, tokens_of, Msg};
    use tokio::io::AsyncWriteExt;
    let r = dip_server::daide::token::Repr::of(&dip_variants::standard().map);
    let Ok(mut s) = tokio::net::TcpStream::connect(addr).await else {
        return;
    };
    let dm = |text: &str| Frame::new(frame::DM, bytes_of(&Msg::parse(text, &r).unwrap().tokens())).encode();
    let _ = s.write_all(&Frame::im().encode()).await;
    let _ = s.write_all(&dm(&format!("NME ('{name}') ('1')"))).await;
    while let Ok(f) = frame::read(&mut s, 65535).await {
        if f.kind != frame::DM {
            continue;
        }
        let Ok(tokens) = tokens_of(&f.data) else { continue };
        let text = text_of(&tokens, &r);
        if let Some(map) = text.strip_prefix("MAP ") {
            let _ = s.write_all(&dm(&format!("YES (MAP {map})"))).await;
        }
    }
}

/// When processing a phase fails (here the storage refuses the processed
/// phase), `dip daide` says so on stderr, naming the game and the cause:
/// it said nothing, and the bots waited for a NOW that never came.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dip_daide_said_nothing_when_processing_a_phase_failed() {
    let data = std::env::temp_dir().join(format!("dip-daide-cli-{}-failing", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut child = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(["daide", "--deadline", "1s", "--port", "0", "--data"])
        .arg(&data)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // Kept open until the end: a closed pipe would fail its next line.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let addr: std::net::SocketAddr = first
        .split(" on ")
        .nth(1)
        .and_then(|s| s.split(": waiting").next())
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .parse()
        .unwrap();
    // Every processed phase is stored in `phases`: this storage refuses it
    // (a full disk, a broken database), so the whole processing fails.
    let db = dip_server::db::Db::sqlite(&data.join("dip.sqlite")).unwrap();
    db.transaction(|tx| {
        tx.exec(
            "CREATE TRIGGER refuse_phases BEFORE INSERT ON phases \
             BEGIN SELECT RAISE(ABORT, 'the storage refused the phase'); END",
            &[],
        )
    })
    .unwrap();
    drop(db);
    // Stderr, line by line, as it comes.
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let bots: Vec<_> = (0..7)
        .map(|i| tokio::spawn(seated_bot(addr, format!("bot{i}"))))
        .collect();
    // The game starts when the seventh bot is seated; its first deadline
    // is a second later.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut seen = Vec::new();
    let logged = loop {
        let left = until.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) if line.contains("processing failed") => break Some(line),
            Ok(line) => seen.push(line),
            Err(_) => break None,
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    drop(stdout);
    for b in bots {
        b.abort();
    }
    let _ = std::fs::remove_dir_all(&data);
    let logged = logged.unwrap_or_else(|| panic!("no processing failure logged in 30 s; stderr: {seen:?}"));
    assert!(logged.contains("ERROR"), "{logged}");
    assert!(logged.contains("game=1"), "names the game: {logged}");
    assert!(logged.contains("the storage refused the phase"), "says why: {logged}");
}
