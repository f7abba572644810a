//! One way in: `dip render`, `dip adjudicate` and `dip orders check` take a
//! game as a game directory, its GAME.TXT or NEWGAME.TXT, a game record, a
//! MILA saved game or a position file, and all give the same position.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn dip(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(args)
        .current_dir(repo())
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

#[test]
fn render_takes_a_game_directory_game_txt_record_and_mila_game() {
    // The example game as it stands: its directory (GAME.TXT), the same
    // GAME.TXT named, its record, and the record as a MILA saved game.
    let mut svgs = Vec::new();
    for game in [
        "examples/game1905/current",
        "examples/game1905/current/GAME.TXT",
        "examples/game1905/current/HISTORY.REC",
        "examples/mila/game1905.json",
    ] {
        let (code, svg, err) = dip(&["render", game, "--no-panel", "--title", "same"]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(svg.starts_with("<svg"), "{game}");
        svgs.push(svg);
    }
    for (i, s) in svgs.iter().enumerate().skip(1) {
        assert_eq!(s, &svgs[0], "the same position drawn from source {i}");
    }
}

#[test]
fn adjudicate_and_orders_check_take_a_game_directory() {
    let (code, out, err) = dip(&[
        "adjudicate",
        "examples/game1905/04-S1902R",
        "examples/game1905/04-S1902R/ORDERS.TXT",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Spring 1902 retreat"), "{out}");
    let (code, _, err) = dip(&[
        "orders",
        "check",
        "--state",
        "examples/game1905/04-S1902R/GAME.TXT",
        "examples/game1905/04-S1902R/ORDERS.TXT",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    assert!(err.contains("a DipWork game file"), "{err}");
}

#[test]
fn orderview_takes_a_game_directory() {
    let dir = std::env::temp_dir().join(format!("dip-orderview-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["GAME.TXT", "ORDERS.TXT"] {
        std::fs::copy(repo().join("examples/game1905/04-S1902R").join(f), dir.join(f)).unwrap();
    }
    let d = dir.to_str().unwrap();
    let (code, _, err) = dip(&["orderview", d]);
    assert_eq!(code, 2, "no stage file yet: {err}");
    assert!(err.contains("dip run"), "{err}");
    let (code, _, err) = dip(&["run", d, "--all"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = dip(&["orderview", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# dip stage: wintered"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn adjudicate_lists_the_adjustments_needed_and_announces_a_winner() {
    let dir = std::env::temp_dir().join(format!("dip-adj-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // France takes Munich, its 18th centre; Germany, down to Berlin, must disband.
    std::fs::write(
        dir.join("pos.txt"),
        "variant standard\nphase fall 1901 movement\nunits\n  France: A bur\n  France: A ruh\n  Germany: A ber\n  Germany: F bal\nowners\n  France: par bre mar spa por bel hol den nwy swe lon lvp edi ven rom nap tun\n  Germany: mun ber\n",
    )
    .unwrap();
    std::fs::write(dir.join("o.txt"), "France: A bur - mun\nFrance: A ruh S A bur - mun\n").unwrap();
    let d = dir.to_str().unwrap();
    let (code, out, err) = dip(&["adjudicate", &format!("{d}/pos.txt"), &format!("{d}/o.txt")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Game over: France wins with 18 supply centres (18 needed)"),
        "{out}"
    );
    assert!(out.contains("Germany: disbands 1 (1 centres, 2 units)"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn fixnames_dat_is_usable_from_the_command_line() {
    let dir = std::env::temp_dir().join(format!("dip-fixnames-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("fixnames.dat"), "IOS,ION\nNTH,NTS\n").unwrap();
    std::fs::write(dir.join("o.txt"), "England: F lon - nts\nItaly: F nap - ios\n").unwrap();
    let d = dir.to_str().unwrap();
    let o = format!("{d}/o.txt");
    let f = format!("{d}/fixnames.dat");
    let (code, out, err) = dip(&[
        "orders",
        "check",
        "--state",
        "examples/spring-1901/position.txt",
        &o,
        "--fixnames",
        &f,
        "--style",
        "dip",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    assert!(
        out.contains("ENG F(Lon) - NTS") && out.contains("ITA F(Nap) - ION"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// DipWork's DIP_RUN options as menus and macros write them: `/all /m`
/// runs every stage but the mapper (each option switches its stage over).
#[test]
fn dipwork_run_options_toggle_stages() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game1905/03-S1902M");
    let dst = std::env::temp_dir().join(format!("dip-toggle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    std::fs::create_dir_all(&dst).unwrap();
    for f in ["GAME.TXT", "ORDERS.TXT"] {
        std::fs::copy(src.join(f), dst.join(f)).unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dip"))
        .arg("run")
        .arg(&dst)
        .args(["/all", "/m"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dst.join("PLAIN.TXT").is_file());
    assert!(!dst.join("MAP.svg").exists(), "/m after /all switches the mapper off");
    // The same with dip's own options, and /op=FILE.
    std::fs::remove_file(dst.join("PLAIN.TXT")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dip"))
        .arg("run")
        .arg(&dst)
        .args(["/op=conflicted.ord"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dst.join("PLAIN.TXT").is_file());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dip"))
        .arg("run")
        .arg(&dst)
        .args(["--all", "--map", "--map"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(dst.join("MAP.svg").is_file(), "switched over twice: on again");
    let _ = std::fs::remove_dir_all(dst);
}
