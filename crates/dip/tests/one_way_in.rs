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

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dip-one-way-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn animate_took_no_game_directory_nor_mila_game() {
    let d = tmp("animate");
    for (game, out) in [
        ("examples/game1905/current", "dir.html"),
        ("examples/mila/game1905.json", "mila.html"),
    ] {
        let out = d.join(out);
        let (code, _, err) = dip(&["animate", game, "--tween", "0", "-o", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(err.contains("phases"), "{err}");
    }
    // --record with a MILA game, as with the game's own record.
    let (code, _, err) = dip(&[
        "animate",
        "--record",
        "examples/mila/game1905.json",
        "--tween",
        "0",
        "-o",
        d.join("rec.html").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn render_record_refused_a_mila_game() {
    let mut svgs = Vec::new();
    for rec in ["examples/game1905/current", "examples/mila/game1905.json"] {
        let (code, svg, err) = dip(&[
            "render",
            "--record",
            rec,
            "--phase",
            "F1903M",
            "--no-panel",
            "--title",
            "same",
        ]);
        assert_eq!(code, 0, "{rec}: {err}");
        svgs.push(svg);
    }
    // The units and orders are the same (MILA's files keep no standoffs).
    let units = |svg: &str| -> Vec<String> {
        svg.split('\n')
            .filter(|l| l.contains("class=\"unit\""))
            .map(String::from)
            .collect()
    };
    assert!(!units(&svgs[0]).is_empty());
    assert!(
        units(&svgs[0]) == units(&svgs[1]),
        "the same phase drawn from the record and the MILA game"
    );
    // A game directory given as the position with a phase is its record.
    let (code, svg, err) = dip(&[
        "render",
        "examples/game1905/current",
        "--phase",
        "F1903M",
        "--no-panel",
        "--title",
        "same",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(svg == svgs[0], "the game directory's record at F1903M");
}

#[test]
fn adjudicate_and_orders_check_took_no_phase_of_a_record() {
    for game in ["examples/game1905/current", "examples/mila/game1905.json"] {
        let (code, out, err) = dip(&[
            "adjudicate",
            game,
            "--phase",
            "S1902R",
            "examples/game1905/04-S1902R/ORDERS.TXT",
        ]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(out.contains("Spring 1902 retreat"), "{game}: {out}");
        assert!(err.contains("at S1902R"), "{err}");
    }
    let (code, _, err) = dip(&[
        "orders",
        "check",
        "--state",
        "examples/game1905/current/HISTORY.REC",
        "--phase",
        "S1902M",
        "examples/game1905/03-S1902M/ORDERS.TXT",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    // A single position has no phases: said so.
    let (code, _, err) = dip(&[
        "adjudicate",
        "examples/spring-1901/position.txt",
        "--phase",
        "S1901M",
        "examples/spring-1901/orders.txt",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("single position"), "{err}");
}

#[test]
fn run_and_accept_took_no_path_to_game_txt() {
    let d = tmp("gametxt");
    for f in ["GAME.TXT", "ORDERS.TXT"] {
        std::fs::copy(repo().join("examples/game1905/04-S1902R").join(f), d.join(f)).unwrap();
    }
    let game = d.join("GAME.TXT");
    let (code, _, err) = dip(&["run", game.to_str().unwrap(), "--all"]);
    assert_eq!(code, 0, "{err}");
    assert!(d.join("NEWGAME.TXT").is_file());
    let (code, _, err) = dip(&["accept", d.join("NEWGAME.TXT").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(d.join("GAME.BAK").is_file());
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn render_of_a_realpolitik_game_directory_left_out_its_map_picture() {
    let root = tmp("rp-game");
    let src = repo().join("crates/dip-variants/tests/fixtures/realpolitik/Tiny");
    std::fs::create_dir_all(root.join("Tiny")).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::copy(e.path(), root.join("Tiny").join(e.file_name())).unwrap();
    }
    // `ColorMap: Tiny` names Tiny.bmp: a 2×2 picture, 24 bits a pixel.
    let mut bmp = b"BM".to_vec();
    bmp.extend(70u32.to_le_bytes());
    bmp.extend([0u8; 4]);
    bmp.extend(54u32.to_le_bytes());
    for v in [40u32, 2, 2] {
        bmp.extend(v.to_le_bytes());
    }
    bmp.extend(1u16.to_le_bytes());
    bmp.extend(24u16.to_le_bytes());
    bmp.extend([0u8; 24]);
    bmp.extend([0, 0x80, 0xff, 0, 0x80, 0xff, 0, 0].repeat(2));
    std::fs::write(root.join("Tiny/Tiny.bmp"), &bmp).unwrap();
    let var = root.join("Tiny/Tiny.var");
    let game = root.join("spiel");
    let (code, _, err) = dip(&["new", game.to_str().unwrap(), "--variant", var.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, from_game, err) = dip(&["render", game.to_str().unwrap(), "--no-panel", "--title", "same"]);
    assert_eq!(code, 0, "{err}");
    assert!(from_game.contains("<image"), "the ColorMap is drawn on");
    let (code, start, err) = dip(&[
        "render",
        "start",
        "--variant",
        var.to_str().unwrap(),
        "--no-panel",
        "--title",
        "same",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(from_game == start, "the game directory draws as its variant does");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn adjudicate_of_a_game_directory_ignored_its_rule_switches() {
    // DipWork's manual, SELF_CUT_OK: France attacks its own supporting
    // fleet; with the switch on the support is cut and England stays.
    let d = tmp("selfcut");
    let game = "VARIANTPATH standard\nNAME Selbstschnitt\nPHASE Spring 1901 Movement\nSELF_CUT_OK ja\n\
NATION France\nUNITS\nF Mao\nF Bre\nA Pic\nCENTERS\npar bre mar\n%\n\
NATION England\nUNITS\nF Eng\nCENTERS\nlon edi lvp\n%\nEND\n";
    std::fs::write(d.join("GAME.TXT"), game).unwrap();
    let orders = d.join("o.txt");
    std::fs::write(
        &orders,
        "France: F mao - eng\nFrance: F bre S F mao - eng\nFrance: A pic - bre\nEngland: F eng H\n",
    )
    .unwrap();
    let (code, out, err) = dip(&["adjudicate", d.to_str().unwrap(), orders.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("dislodged"), "SELF_CUT_OK ja: the support is cut\n{out}");
    // --rules still decides when given.
    let (_, out, _) = dip(&[
        "adjudicate",
        d.to_str().unwrap(),
        orders.to_str().unwrap(),
        "--rules",
        "datc",
    ]);
    assert!(out.contains("dislodged"), "{out}");
    let _ = std::fs::remove_dir_all(d);
}

/// One `.dip` season file without `--phase` was read as a position file
/// ("expected `phase SEASON YEAR KIND`") by render, adjudicate and orders
/// check, also a file dip wrote itself. It is the position the file stands
/// at: after the season it records, not the last of its siblings.
#[test]
fn a_single_dip_file_without_phase_was_read_as_a_position_file() {
    let d = tmp("single-dip");
    let rec = repo().join("examples/game1905/current/HISTORY.REC");
    let (code, _, err) = dip(&[
        "record",
        "dip",
        &rec.to_string_lossy(),
        "-o",
        &d.to_string_lossy(),
        "--prefix",
        "xyz",
    ]);
    assert_eq!(code, 0, "{err}");
    let spring = d.join("xyz_s02.dip").to_string_lossy().to_string();
    let orders = d.join("orders.txt");
    std::fs::write(&orders, "Russia: A war H\n").unwrap();
    let orders = orders.to_string_lossy().to_string();
    let (code, out, err) = dip(&["adjudicate", &spring, &orders]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Fall 1902 movement"),
        "after the spring of 1902, not 1905: {out}"
    );
    let (code, out, err) = dip(&["orders", "check", "--state", &spring, &orders]);
    assert!(code == 0 || code == 1, "{err}");
    assert!(out.contains("A war"), "{out}");
    let (code, svg, err) = dip(&["render", &spring]);
    assert_eq!(code, 0, "{err}");
    assert!(svg.starts_with("<svg") && svg.contains("1902"), "{err}");
    // The file of DIP's help, alone in its folder.
    let manual = repo().join("crates/dip/tests/data/manual_a01.dip");
    let (code, svg, err) = dip(&["render", &manual.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    assert!(svg.starts_with("<svg"), "{err}");
    let _ = std::fs::remove_dir_all(d);
}

/// `dip render POSITION --phase S1902M` drew the position file's (or
/// GAME.TXT's) own phase in silence; `dip adjudicate` refused it.
#[test]
fn render_of_a_single_position_with_phase_drew_the_files_own_phase() {
    for pos in [
        "examples/spring-1901/position.txt",
        "examples/game1905/current/GAME.TXT",
        "start",
    ] {
        let (code, svg, err) = dip(&["render", pos, "--phase", "S1902M"]);
        assert_eq!(code, 2, "{pos}: {err}");
        assert!(svg.is_empty(), "{pos}");
        assert!(
            err.contains("--phase S1902M") && err.contains("single position"),
            "{pos}: {err}"
        );
    }
    // A game with phases still draws the phase asked for, also with orders.
    let (code, _, err) = dip(&[
        "render",
        "examples/game1905/current/HISTORY.REC",
        "examples/spring-1901/orders.txt",
        "--phase",
        "S1901M",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("S1901M"), "{err}");
}

/// `dip record dip/export/gam/show` took only a `.rec` ("unknown keyword
/// `VARIANTPATH`" for GAME.TXT, "is a directory" for a game directory),
/// and `dip quake` no GAME.TXT.
#[test]
fn record_commands_took_only_a_rec_file() {
    let d = tmp("record-kinds");
    let (code, _, err) = dip(&[
        "record",
        "dip",
        "examples/game1905/current",
        "-o",
        &d.to_string_lossy(),
        "--prefix",
        "g",
    ]);
    assert_eq!(code, 0, "{err}");
    let dip_file = d.join("g_s03.dip").to_string_lossy().to_string();
    for game in [
        "examples/game1905/current",
        "examples/game1905/current/GAME.TXT",
        "examples/mila/game1905.json",
        dip_file.as_str(),
    ] {
        let (code, out, err) = dip(&["record", "show", game]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(out.contains("S1901M"), "{game}: {out}");
        let (code, out, err) = dip(&["record", "export", game]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(out.starts_with('{'), "{game}: {out}");
        let (code, out, err) = dip(&["record", "gam", game]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(!out.is_empty(), "{game}");
    }
    // A file of another kind says what it seems to be and what is expected.
    for (file, looks) in [
        ("examples/spring-1901/position.txt", "a position file"),
        ("examples/game1905/03-S1902M/ORDERS.TXT", "DipWork game or orders file"),
    ] {
        let (code, _, err) = dip(&["record", "show", file]);
        assert_eq!(code, 2, "{file}");
        assert!(
            err.contains(looks) && err.contains("expected a game record"),
            "{file}: {err}"
        );
        assert!(!err.contains("unknown keyword `VARIANTPATH`"), "{err}");
    }
    // `dip quake GAME.TXT` changes the map of the game in its folder.
    let g = d.join("seismic");
    let (code, _, err) = dip(&["new", &g.to_string_lossy(), "--variant", "seismic"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = dip(&[
        "quake",
        &g.join("GAME.TXT").to_string_lossy(),
        "examples/quake.edits",
        "--name",
        "beben",
    ]);
    assert!(code == 0 || code == 1, "{out}{err}");
    assert!(std::fs::read_dir(g.join("history")).unwrap().count() == 1, "{out}{err}");
    let _ = std::fs::remove_dir_all(d);
}

/// `dip orderview GAME.TXT` printed GAME.TXT as if it were a stage file's
/// table; only stage files are, and the message names the game directory.
#[test]
fn orderview_printed_game_txt_as_a_table() {
    for file in ["examples/game1905/current/GAME.TXT", "examples/game/meine/ORDERS.TXT"] {
        let (code, out, err) = dip(&["orderview", file]);
        assert_eq!(code, 2, "{file}: {out}");
        assert!(out.is_empty(), "{file}: {out}");
        assert!(err.contains("not a stage file"), "{file}: {err}");
    }
    let (_, _, err) = dip(&["orderview", "examples/game1905/current/GAME.TXT"]);
    assert!(err.contains("dip orderview examples/game1905/current"), "{err}");
    let (code, out, err) = dip(&["orderview", "examples/stages/PARSED.TXT"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# dip stage: parsed"), "{out}");
}

/// When `Phase`'s Display became the short form (`S1902R`), adjudicate's
/// heading and "Next phase" line and the animation's title printed it to
/// people; they keep the long form the README shows.
#[test]
fn adjudicate_printed_phases_as_s1902r_when_display_became_short() {
    let (code, out, err) = dip(&[
        "adjudicate",
        "examples/game1905/04-S1902R",
        "examples/game1905/04-S1902R/ORDERS.TXT",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("— Spring 1902 retreat\n"), "{out}");
    assert!(out.contains("Next phase: Fall 1902 movement\n"), "{out}");
    assert!(!out.contains("S1902R") && !out.contains("F1902M"), "{out}");
}
