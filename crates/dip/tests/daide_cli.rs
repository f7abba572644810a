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
