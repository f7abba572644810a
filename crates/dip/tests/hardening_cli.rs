//! Bad input never crashes, hangs or loses data: one test per hole found
//! by trying dip as a new user, each named after what it was.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dip(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dip-hard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Three MILA games with their ids replaced.
fn mila_with_ids(ids: &[&str]) -> String {
    let src = std::fs::read_to_string(repo().join("crates/dip-game/tests/data/mila-3games.jsonl")).unwrap();
    src.lines()
        .zip(ids)
        .map(|(l, id)| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let mut v = v;
            v["id"] = serde_json::Value::String(id.to_string());
            v.to_string() + "\n"
        })
        .collect()
}

#[test]
fn record_import_id_with_dotdot_writes_outside_out() {
    let d = tmp("import-dotdot");
    std::fs::write(d.join("g.jsonl"), mila_with_ids(&["../victim", "/tmp/abs", "ok"])).unwrap();
    std::fs::create_dir(d.join("out")).unwrap();
    let o = dip(&["record", "import", "g.jsonl", "--out", "out"], &d);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!d.join("victim.rec").exists(), "nothing outside --out");
    let names: Vec<String> = std::fs::read_dir(d.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.iter().all(|n| !n.contains('/') && n.ends_with(".rec")));
}

#[test]
fn record_import_same_id_games_overwrite_each_other() {
    let d = tmp("import-same");
    std::fs::write(d.join("g.jsonl"), mila_with_ids(&["same", "same", "same"])).unwrap();
    let o = dip(&["record", "import", "g.jsonl", "--out", "."], &d);
    assert!(o.status.success(), "{}", text(&o));
    for f in ["same.rec", "same-2.rec", "same-3.rec"] {
        assert!(d.join(f).is_file(), "{f}: {}", text(&o));
    }
    // A second import refuses to overwrite; --force replaces.
    std::fs::write(d.join("same.rec"), "mine").unwrap();
    let o = dip(&["record", "import", "g.jsonl", "--out", "."], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--force"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(d.join("same.rec")).unwrap(), "mine");
    let o = dip(&["record", "import", "g.jsonl", "--out", ".", "--force"], &d);
    assert!(o.status.success(), "{}", text(&o));
    assert_ne!(std::fs::read_to_string(d.join("same.rec")).unwrap(), "mine");
}

#[test]
fn record_dip_overwrites_existing_files() {
    let d = tmp("record-dip");
    let rec = repo().join("examples/game1905/current/HISTORY.REC");
    let rec = rec.to_str().unwrap();
    let o = dip(&["record", "dip", rec, "--out", "."], &d);
    assert!(o.status.success(), "{}", text(&o));
    let o = dip(&["record", "dip", rec, "--out", "."], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("exists; use --force"), "{}", text(&o));
}

#[test]
fn run_with_missing_orders_plays_a_silent_turn() {
    let d = tmp("run-missing-orders");
    let o = dip(&["new", "g"], &d);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::remove_file(d.join("g/ORDERS.TXT")).unwrap();
    let o = dip(&["run", "g", "--all"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--no-orders"), "{}", text(&o));
    assert!(!d.join("g/NEWGAME.TXT").exists());
    let o = dip(&["run", "g", "--all", "--no-orders"], &d);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("every unit holds"), "{}", text(&o));
}

#[test]
fn new_overwrites_existing_orders_txt() {
    let d = tmp("new-orders");
    std::fs::create_dir(d.join("g")).unwrap();
    std::fs::write(d.join("g/ORDERS.TXT"), "precious").unwrap();
    let o = dip(&["new", "g"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(d.join("g/ORDERS.TXT")).unwrap(), "precious");
}

#[test]
fn variant_convert_overwrites_running_game_and_own_input() {
    let d = tmp("convert");
    let o = dip(&["new", "g"], &d);
    assert!(o.status.success(), "{}", text(&o));
    let game = std::fs::read_to_string(d.join("g/GAME.TXT")).unwrap();
    let o = dip(&["variant", "convert", "standard", "--to", "dipwork", "-o", "g"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("exists; use --force"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(d.join("g/GAME.TXT")).unwrap(), game);
    // -o naming the input is refused even with --force.
    let o = dip(
        &["variant", "convert", "standard", "--to", "native", "-o", "s.variant"],
        &d,
    );
    assert!(o.status.success(), "{}", text(&o));
    let before = std::fs::read_to_string(d.join("s.variant")).unwrap();
    let o = dip(
        &[
            "variant",
            "convert",
            "s.variant",
            "--to",
            "dpjudge",
            "-o",
            "s.variant",
            "--force",
        ],
        &d,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("would replace the input"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(d.join("s.variant")).unwrap(), before);
}

#[test]
fn variant_generate_zero_provinces_divides_by_zero() {
    let d = tmp("generate");
    for n in ["0", "10000000"] {
        let o = dip(&["variant", "generate", "--provinces", n], &d);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains("20000"), "names the limit: {}", text(&o));
    }
    let o = dip(&["variant", "generate", "--provinces", "1", "--powers", "3"], &d);
    assert!(!text(&o).contains("panicked"), "{}", text(&o));
}

#[test]
fn variant_check_missing_file_exits_1() {
    let d = tmp("check-missing");
    let o = dip(&["variant", "check", "no-such.variant"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn rate_control_file_names_itself_as_output() {
    let d = tmp("rate-self");
    let ctl = "OUTPUT self.ctl\nECHO 'x'\n";
    std::fs::write(d.join("self.ctl"), ctl).unwrap();
    let o = dip(&["rate", "self.ctl"], &d);
    assert_eq!(
        std::fs::read_to_string(d.join("self.ctl")).unwrap(),
        ctl,
        "{}",
        text(&o)
    );
}

#[test]
fn rate_include_reads_absolute_path() {
    let d = tmp("rate-include");
    std::fs::write(d.join("a.ctl"), "#INCLUDE /etc/hostname\n").unwrap();
    let o = dip(&["rate", "a.ctl"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("control file's folder"), "{}", text(&o));
}

#[test]
fn adjudicate_reads_a_narrower_grammar_than_orders_check() {
    let d = tmp("adjudicate-nation");
    std::fs::write(
        d.join("o.txt"),
        "ZAT 1.1.1901\nNATION England\nF Lon-Nth\nF Edi - NWG\nNATION France\nA Par-Bur\nEND\n",
    )
    .unwrap();
    let pos = repo().join("examples/spring-1901/position.txt");
    let o = dip(&["adjudicate", pos.to_str().unwrap(), "o.txt"], &d);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("Fleet London -> North Sea"), "{}", text(&o));
    assert!(text(&o).contains("Army Paris -> Burgundy"), "{}", text(&o));
}

/// 40,000 order lines: `adjudicate` built the vocabulary once per line.
#[test]
fn adjudicate_rebuilds_vocabulary_for_every_line() {
    let d = tmp("adjudicate-big");
    let mut t = String::new();
    for _ in 0..10_000 {
        t.push_str("England: F lon - nth\nFrance: A par - bur\nGermany: A ber H\n# comment\n");
    }
    std::fs::write(d.join("o.txt"), t).unwrap();
    let pos = repo().join("examples/spring-1901/position.txt");
    let start = std::time::Instant::now();
    let o = dip(&["adjudicate", pos.to_str().unwrap(), "o.txt"], &d);
    assert!(o.status.success(), "{}", text(&o));
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

#[test]
fn cli_numbers_without_caps() {
    let d = tmp("caps");
    for (args, limit) in [
        (
            &["animate", "--random", "2", "--tween", "1000000000", "-o", "x.png"][..],
            "100",
        ),
        (&["bench", "--games", "100000000000"][..], "1000000"),
        (&["orders", "bench", "--runs", "100000000000"][..], "10000000"),
        (&["war", "bench", "--games", "100000000000"][..], "1000000"),
    ] {
        let o = dip(args, &d);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(limit), "{args:?} names the limit: {}", text(&o));
    }
}

#[test]
fn record_variant_absolute_path_reads_any_file() {
    let d = tmp("record-variant");
    let rec = std::fs::read_to_string(repo().join("examples/game1905/current/HISTORY.REC")).unwrap();
    std::fs::write(
        d.join("r.rec"),
        rec.replacen("variant standard", "variant /etc/passwd", 1),
    )
    .unwrap();
    let o = dip(&["record", "show", "r.rec"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no absolute path"), "{}", text(&o));
    assert!(!text(&o).contains("root:"), "{}", text(&o));
}

#[cfg(unix)]
#[test]
fn endless_variantpath_never_ends() {
    let d = tmp("dev-zero");
    let pos = repo().join("examples/spring-1901/position.txt");
    let o = dip(
        &["adjudicate", "--variant", "/dev/zero", pos.to_str().unwrap(), "x.txt"],
        &d,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("/dev/zero: not a regular file"), "{}", text(&o));
}

#[test]
fn errors_never_say_line_0_and_latin1_bytes_are_read_with_their_line() {
    let d = tmp("utf8");
    std::fs::write(d.join("o.txt"), b"England: F lon - nth\nFrance: A p\xe4r - bur\n").unwrap();
    let pos = repo().join("examples/spring-1901/position.txt");
    let o = dip(&["adjudicate", pos.to_str().unwrap(), "o.txt"], &d);
    // Not UTF-8: read as Latin-1 (DipWork's users' files), so the error is
    // the order's own, on its line, with the letter as written.
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("o.txt:2:") && text(&o).contains("`pär`"),
        "{}",
        text(&o)
    );
    let o = dip(&["adjudicate", pos.to_str().unwrap(), "missing.txt"], &d);
    assert!(text(&o).contains("missing.txt"), "{}", text(&o));
    assert!(!text(&o).contains(":0:"), "{}", text(&o));
    let o = dip(&["render", "start", "--variant", "missing.variant", "-o", "x.svg"], &d);
    assert!(!text(&o).contains(":0:"), "{}", text(&o));
    // A byte-order mark is skipped.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(b"England: F lon - nth\n");
    std::fs::write(d.join("bom.txt"), bom).unwrap();
    let o = dip(&["adjudicate", pos.to_str().unwrap(), "bom.txt"], &d);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn rate_control_file_names_its_data_as_output() {
    let d = tmp("rate-data");
    let data = "= 2024-01-01 g\nA 3\nB 2\nC 1\n";
    std::fs::write(d.join("g.res"), data).unwrap();
    std::fs::write(d.join("a.ctl"), "OUTPUT g.res\nECHO 'x'\nCOMMANDLINE\nSCANFILES\n").unwrap();
    let o = dip(&["rate", "a.ctl", "g.res"], &d);
    assert_eq!(std::fs::read_to_string(d.join("g.res")).unwrap(), data, "{}", text(&o));
    assert_ne!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn negative_numbers_as_values() {
    let d = tmp("negative");
    let o = dip(&["render", "start", "-o", "x.svg", "--scale", "-1"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("the scale must be above 0"), "{}", text(&o));
    // --dpi is named as such, not as the scale it becomes.
    let o = dip(&["render", "start", "-o", "x.svg", "--dpi", "-96"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--dpi must be above 0 and at most 960 (got -96)"),
        "{}",
        text(&o)
    );
    let o = dip(&["score", "carnage", "R=14", "T=20", "--year", "-5"], &d);
    assert!(o.status.success(), "{}", text(&o));
    // Every numeric option: a negative value is a bad value of that option,
    // never "unexpected argument".
    for (args, option) in [
        (
            &["war", "render", "x.war", "-o", "x.svg", "--scale", "-1"][..],
            "the scale must be above 0",
        ),
        (&["daide", "--end-after", "-5000000"][..], "--end-after"),
        (&["score", "carnage", "R=14", "--year", "-5000000"][..], "--year"),
        (&["orders", "check", "x.txt", "--spellcheck", "-1"][..], "--spellcheck"),
        (&["animate", "start", "--tween", "-3"][..], "--tween"),
        (&["variant", "generate", "--seed", "-5"][..], "--seed"),
    ] {
        let o = dip(args, &d);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(!text(&o).contains("unexpected argument"), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(option), "{args:?}: {}", text(&o));
    }
}

#[test]
fn rate_output_before_parameter_truncated_the_data_file() {
    let d = tmp("rate-output-first");
    let data = "= 2024-01-01 g\nA 3\nB 2\nC 1\n";
    std::fs::write(d.join("g.res"), data).unwrap();
    std::fs::write(
        d.join("a.ctl"),
        "COMMANDLINE\nOUTPUT g.res\nECHO 'x'\nPARAMETER g.res\nSCANFILES\n",
    )
    .unwrap();
    let o = dip(&["rate", "a.ctl"], &d);
    assert_eq!(std::fs::read_to_string(d.join("g.res")).unwrap(), data, "{}", text(&o));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("g.res is a file this run reads"), "{}", text(&o));
    // An output that is no input is written as before, appends included.
    std::fs::write(d.join("out.txt"), "old\n").unwrap();
    std::fs::write(
        d.join("b.ctl"),
        "OUTPUT +out.txt\nECHO 'x'\nERRORLOG log.txt\nECHO 'y'\nCOMMANDLINE\nPARAMETER g.res\nSCANFILES\n",
    )
    .unwrap();
    let o = dip(&["rate", "b.ctl"], &d);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(d.join("out.txt")).unwrap(), "old\nx\ny\n");
    assert!(d.join("log.txt").is_file());
}

#[test]
fn empty_or_cut_orders_txt_played_a_silent_all_hold_turn() {
    let d = tmp("run-empty-orders");
    let o = dip(&["new", "g"], &d);
    assert!(o.status.success(), "{}", text(&o));
    // The template as written: no order at all.
    let o = dip(&["run", "g", "--all"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("holds no order"), "{}", text(&o));
    std::fs::write(d.join("g/ORDERS.TXT"), "").unwrap();
    let o = dip(&["run", "g", "--all"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!d.join("g/NEWGAME.TXT").exists());
    // Cut before `NATION Turkey`.
    std::fs::write(d.join("g/ORDERS.TXT"), "NATION Russia\nA Mos-Ukr\n").unwrap();
    let o = dip(&["run", "g", "--all"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("without `END`"),
        "{}",
        text(&o)
    );
    assert!(!d.join("g/NEWGAME.TXT").exists());
    // Whole, but six nations sent nothing: said on standard error.
    std::fs::write(d.join("g/ORDERS.TXT"), "NATION Russia\nA Mos-Ukr\nEND\n").unwrap();
    let o = dip(&["run", "g", "--all"], &d);
    assert!(o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no orders from Austria, England, France, Germany, Italy, Turkey"),
        "{err}"
    );
}

#[test]
fn record_gam_out_replaced_its_own_input() {
    let d = tmp("gam-self");
    let o = dip(
        &[
            "record",
            "import",
            &repo().join("examples/mila/game1905.json").to_string_lossy(),
            "-o",
            ".",
        ],
        &d,
    );
    assert!(o.status.success(), "{}", text(&o));
    let rec = std::fs::read_to_string(d.join("Example_1905.rec")).unwrap();
    let o = dip(&["record", "gam", "Example_1905.rec", "--out", "Example_1905.rec"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("would replace the input"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(d.join("Example_1905.rec")).unwrap(), rec);
    // Any other existing file only with --force.
    std::fs::write(d.join("next.gam"), "mine").unwrap();
    let o = dip(&["record", "gam", "Example_1905.rec", "-o", "next.gam"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(d.join("next.gam")).unwrap(), "mine");
    let o = dip(
        &["record", "gam", "Example_1905.rec", "--output", "next.gam", "--force"],
        &d,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_ne!(std::fs::read_to_string(d.join("next.gam")).unwrap(), "mine");
}

#[test]
fn render_background_output_overwrote_its_own_input() {
    let d = tmp("render-self");
    // A tiny PNG to draw on: the standard map drawn small.
    let o = dip(&["render", "start", "--scale", "0.2", "-o", "bg.png"], &d);
    assert!(o.status.success(), "{}", text(&o));
    let bg = std::fs::read(d.join("bg.png")).unwrap();
    let o = dip(
        &["render", "start", "--background", "bg.png", "-o", "bg.png", "--force"],
        &d,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("would replace the input bg.png"), "{}", text(&o));
    assert_eq!(std::fs::read(d.join("bg.png")).unwrap(), bg);
    // The orders file, the position and a record are inputs too.
    std::fs::write(d.join("orders.txt"), "England: F lon - nth\n").unwrap();
    let o = dip(&["render", "start", "orders.txt", "-o", "orders.txt", "--force"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(d.join("orders.txt")).unwrap(),
        "England: F lon - nth\n"
    );
}

#[test]
fn render_and_animate_overwrote_any_existing_file() {
    let d = tmp("render-existing");
    for args in [
        &["render", "start", "-o", "map.svg"][..],
        &["animate", "--random", "1", "--tween", "0", "-o", "map.html"][..],
    ] {
        let out = d.join(args[args.len() - 1]);
        std::fs::write(&out, "mine").unwrap();
        let o = dip(args, &d);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains("exists; use --force"), "{}", text(&o));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
        let forced: Vec<&str> = args.iter().copied().chain(["--force"]).collect();
        let o = dip(&forced, &d);
        assert!(o.status.success(), "{args:?}: {}", text(&o));
        assert_ne!(std::fs::read_to_string(&out).unwrap(), "mine");
    }
}

#[cfg(unix)]
#[test]
fn variantpath_and_case_variant_echoed_etc_passwd() {
    let d = tmp("echo-passwd");
    let o = dip(&["new", "g"], &d);
    assert!(o.status.success(), "{}", text(&o));
    let game = std::fs::read_to_string(d.join("g/GAME.TXT")).unwrap();
    std::fs::write(
        d.join("g/GAME.TXT"),
        game.replace("VARIANTPATH standard", "VARIANTPATH /etc/passwd"),
    )
    .unwrap();
    std::fs::write(d.join("g/ORDERS.TXT"), "NATION Russia\nA Mos-Ukr\nEND\n").unwrap();
    let o = dip(&["run", "g", "--all"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("GAME.TXT:1: VARIANTPATH: `/etc/passwd`"),
        "{}",
        text(&o)
    );
    assert!(!text(&o).contains("root:"), "{}", text(&o));
    // A case file's variant, jDip's form and dip's.
    let case = "VARIANT_ALL /etc/passwd\nCASE a\nPRESTATE\n  Germany: A mun\nORDERS\n  Germany: A mun-boh\nPOSTSTATE\n  Germany: A boh\nEND\n";
    std::fs::write(d.join("c.txt"), case).unwrap();
    let o = dip(&["cases", "c.txt"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("no absolute path") && !text(&o).contains("root:"),
        "{}",
        text(&o)
    );
    // Given on the command line it is read, but quoted only in part.
    let o = dip(&["render", "start", "--variant", "/etc/passwd", "-o", "x.svg"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("not a dip variant file"), "{}", text(&o));
    assert!(!text(&o).contains("/bin/"), "{}", text(&o));
}

#[cfg(unix)]
#[test]
fn case_whose_variant_is_dev_zero_said_not_found() {
    let d = tmp("case-dev-zero");
    std::os::unix::fs::symlink("/dev/zero", d.join("zero")).unwrap();
    let case = "VARIANT_ALL zero\nCASE a\nPRESTATE\n  Germany: A mun\nORDERS\n  Germany: A mun-boh\nPOSTSTATE\n  Germany: A boh\nEND\n";
    std::fs::write(d.join("c.txt"), case).unwrap();
    let o = dip(&["cases", "c.txt"], &d);
    assert_eq!(o.status.code(), Some(2), "cases that cannot run: {}", text(&o));
    assert!(text(&o).contains("zero: not a regular file"), "{}", text(&o));
    assert!(!text(&o).contains("not found"), "{}", text(&o));
}

#[cfg(unix)]
#[test]
fn fifo_without_writer_hung() {
    let d = tmp("fifo");
    let made = Command::new("mkfifo").arg(d.join("orders.txt")).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo here
    }
    let pos = repo().join("examples/spring-1901/position.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_dip"))
        .args(["adjudicate", pos.to_str().unwrap(), "orders.txt"])
        .current_dir(&d)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("dip waited on a pipe without a writer");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("not a regular file"), "{}", text(&o));
}

#[test]
fn variant_check_of_unreadable_input_exited_1() {
    let d = tmp("check-unreadable");
    std::fs::create_dir(d.join("empty")).unwrap();
    std::fs::write(d.join("bad.variant"), "garbage line\n").unwrap();
    for path in ["empty", "bad.variant"] {
        let o = dip(&["variant", "check", path], &d);
        assert_eq!(o.status.code(), Some(2), "{path}: {}", text(&o));
    }
    // A variant that reads but has findings is still 1.
    let pure = std::fs::read_to_string(repo().join("variants/pure.variant")).unwrap();
    std::fs::write(d.join("dangling.variant"), pure + "border A ber xyz\n").unwrap();
    let o = dip(&["variant", "check", "dangling.variant"], &d);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
}

#[test]
fn new_game_with_a_variant_file_named_it_from_the_working_directory() {
    let d = tmp("new-path");
    std::fs::copy(repo().join("variants/pure.variant"), d.join("pure.variant")).unwrap();
    let o = dip(&["new", "g", "--variant", "pure.variant"], &d);
    assert!(o.status.success(), "{}", text(&o));
    // Named from the project folder (g's parent), so it is found from anywhere.
    let game = std::fs::read_to_string(d.join("g/GAME.TXT")).unwrap();
    assert!(game.starts_with("VARIANTPATH pure.variant\n"), "{game}");
    std::fs::write(d.join("g/ORDERS.TXT"), "NATION Austria\nA Vie H\nEND\n").unwrap();
    let o = dip(&["run", &d.join("g").to_string_lossy(), "--all"], Path::new("/"));
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn output_option_was_spelled_differently_by_each_command() {
    let d = tmp("output-spelling");
    let mila = repo().join("examples/mila/game1905.json");
    let mila = mila.to_string_lossy();
    for (i, flag) in ["-o", "--output", "--out"].into_iter().enumerate() {
        let dir = format!("r{i}");
        let cmds: Vec<Vec<String>> = vec![
            vec!["render".into(), "start".into(), flag.into(), format!("m{i}.svg")],
            vec![
                "animate".into(),
                "--random".into(),
                "1".into(),
                "--tween".into(),
                "0".into(),
                flag.into(),
                format!("a{i}.html"),
            ],
            vec![
                "record".into(),
                "import".into(),
                mila.to_string(),
                flag.into(),
                dir.clone(),
            ],
            vec![
                "record".into(),
                "gam".into(),
                format!("{dir}/Example_1905.rec"),
                flag.into(),
                format!("n{i}.gam"),
            ],
            vec![
                "record".into(),
                "dip".into(),
                format!("{dir}/Example_1905.rec"),
                flag.into(),
                format!("s{i}"),
            ],
            vec![
                "variant".into(),
                "convert".into(),
                "pure".into(),
                "--to".into(),
                "native".into(),
                flag.into(),
                format!("p{i}.variant"),
            ],
            vec![
                "variant".into(),
                "generate".into(),
                "--provinces".into(),
                "10".into(),
                flag.into(),
                format!("g{i}.variant"),
            ],
        ];
        for c in cmds {
            let args: Vec<&str> = c.iter().map(String::as_str).collect();
            let o = dip(&args, &d);
            assert!(o.status.success(), "{args:?}: {}", text(&o));
        }
    }
}

#[test]
fn record_import_wrote_earlier_games_before_refusing_a_later_one() {
    let d = tmp("import-later-exists");
    std::fs::write(d.join("g.jsonl"), mila_with_ids(&["one", "two", "three"])).unwrap();
    std::fs::write(d.join("three.rec"), "mine").unwrap();
    let o = dip(&["record", "import", "g.jsonl", "-o", "."], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("three.rec exists"), "{}", text(&o));
    assert!(
        !d.join("one.rec").exists() && !d.join("two.rec").exists(),
        "nothing written"
    );
    assert_eq!(std::fs::read_to_string(d.join("three.rec")).unwrap(), "mine");
}

#[test]
fn start_year_2147483647_was_read_by_every_variant_reader() {
    let d = tmp("start-year");
    let run = |args: &[&str]| {
        let o = dip(args, &d);
        assert!(o.status.success(), "{args:?}: {}", text(&o));
    };
    run(&["variant", "convert", "pure", "--to", "native", "-o", "n.variant"]);
    run(&["variant", "convert", "pure", "--to", "dipwork", "-o", "dw"]);
    run(&["variant", "convert", "pure", "--to", "realpolitik", "-o", "rp"]);
    run(&["variant", "convert", "pure", "--to", "dpjudge", "-o", "dp.map"]);
    let edit = |file: &str, from: &str, to: &str| {
        let t = std::fs::read_to_string(d.join(file)).unwrap();
        assert!(t.contains(from), "{file}: {t}");
        std::fs::write(d.join(file), t.replacen(from, to, 1)).unwrap();
    };
    edit("n.variant", "start 1901", "start 2147483647");
    edit("dw/VARIANT.TXT", "STARTPHASE 1901", "STARTPHASE 2147483647");
    edit("rp/pure.gam", "Spring 1901", "Spring 99999999999");
    edit("dp.map", "BEGIN SPRING 1901", "BEGIN SPRING 2147483647");
    for path in ["n.variant", "dw", "rp/pure.var", "dp.map"] {
        let o = dip(&["variant", "show", path, "vie"], &d);
        assert_eq!(o.status.code(), Some(2), "{path}: {}", text(&o));
        let t = text(&o);
        assert!(t.contains("out of range") || t.contains("expected"), "{path}: {t}");
        assert!(!t.contains(":0:"), "{path}: {t}");
    }
}

#[test]
fn game_txt_year_99999999999_was_read_as_fall_1901() {
    let d = tmp("year-herbst");
    let o = dip(&["new", "g"], &d);
    assert!(o.status.success(), "{}", text(&o));
    let game = std::fs::read_to_string(d.join("g/GAME.TXT")).unwrap();
    let game = game.replace("PHASE Spring 1901 Movement", "YEAR Herbst 99999999999");
    std::fs::write(d.join("g/GAME.TXT"), game).unwrap();
    std::fs::write(d.join("g/ORDERS.TXT"), "NATION Russia\nA Mos-Ukr\nEND\n").unwrap();
    let o = dip(&["run", "g", "--all"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("YEAR: the year 99999999999 is out of range"),
        "{}",
        text(&o)
    );
    assert!(!d.join("g/NEWGAME.TXT").exists());
}

#[test]
fn score_and_bench_years_overflowed() {
    let d = tmp("score-years");
    let o = dip(&["score", "manorcon", "R=14@-2147483648", "T=20"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!text(&o).contains("panicked"), "{}", text(&o));
    // --year takes the one year range of every reader, as `@YEAR` does.
    let o = dip(&["score", "manorcon", "R=14@1905", "T=20", "--year", "-2147483648"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("out of range"), "{}", text(&o));
    let o = dip(&["score", "manorcon", "R=14@1905", "T=20", "--year", "-1000000"], &d);
    assert!(o.status.success(), "{}", text(&o));
    // The latest start a variant may have, benchmarked for its longest.
    let pure = std::fs::read_to_string(repo().join("variants/pure.variant")).unwrap();
    let late = pure
        .lines()
        .map(|l| {
            if l.starts_with("start ") {
                "start 1000000 spring"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(d.join("late.variant"), late).unwrap();
    let o = dip(
        &["bench", "--games", "1", "--years", "1000", "--variant", "late.variant"],
        &d,
    );
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn record_import_of_shuffled_phases_wrote_an_unreadable_record() {
    let d = tmp("import-shuffled");
    let src = std::fs::read_to_string(repo().join("examples/mila/game1905.json")).unwrap();
    let mut g: serde_json::Value = serde_json::from_str(src.lines().next().unwrap()).unwrap();
    g["phases"].as_array_mut().unwrap().swap(1, 2);
    std::fs::write(d.join("g.json"), g.to_string() + "\n").unwrap();
    let o = dip(&["record", "import", "g.json", "-o", "."], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("must be in time order"), "{}", text(&o));
    let written = std::fs::read_dir(&d)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "rec"))
        .count();
    assert_eq!(written, 0);
}

#[test]
fn shapes_file_with_a_byte_order_mark_was_an_unknown_line() {
    let d = tmp("shapes-bom");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(std::fs::read(repo().join("variants/standard.shapes")).unwrap());
    std::fs::write(d.join("b.shapes"), bytes).unwrap();
    let o = dip(&["render", "start", "--shapes", "b.shapes", "-o", "m.svg"], &d);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn mila_game_map_field_read_any_file_of_the_machine() {
    let d = tmp("mila-map");
    let src = std::fs::read_to_string(repo().join("crates/dip-game/tests/data/mila-3games.jsonl")).unwrap();
    let first = src.lines().next().unwrap();
    let with_map = |map: &str| {
        let mut v: serde_json::Value = serde_json::from_str(first).unwrap();
        v["map"] = serde_json::Value::String(map.to_string());
        v.to_string() + "\n"
    };
    std::fs::create_dir_all(d.join("games")).unwrap();
    for (map, says) in [("/etc/passwd", "no absolute path"), ("../x.variant", "no `..`")] {
        std::fs::write(d.join("games/g.json"), with_map(map)).unwrap();
        let o = dip(
            &["render", "--record", "games/g.json", "--phase", "S1901M", "-o", "x.svg"],
            &d,
        );
        assert_eq!(o.status.code(), Some(2), "{map}: {}", text(&o));
        assert!(text(&o).contains(says), "{map}: {}", text(&o));
        assert!(!text(&o).contains("root:"), "{map}: {}", text(&o));
    }
    // A bundled variant's name is still read, and so is a file beside the game.
    std::fs::write(d.join("games/g.json"), with_map("standard")).unwrap();
    let o = dip(
        &[
            "render",
            "--record",
            "games/g.json",
            "--phase",
            "S1901M",
            "-o",
            "x.svg",
            "--force",
        ],
        &d,
    );
    assert!(o.status.success(), "{}", text(&o));
    std::fs::copy(repo().join("variants/standard.variant"), d.join("games/mine.variant")).unwrap();
    std::fs::write(d.join("games/g.json"), with_map("mine.variant")).unwrap();
    let o = dip(
        &[
            "render",
            "--record",
            "games/g.json",
            "--phase",
            "S1901M",
            "-o",
            "x.svg",
            "--force",
        ],
        &d,
    );
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn new_game_of_a_variant_starting_in_year_minus_50_could_not_be_run() {
    let d = tmp("negative-start");
    let standard = std::fs::read_to_string(repo().join("variants/standard.variant")).unwrap();
    assert!(standard.contains("\nstart 1901 spring"));
    std::fs::write(
        d.join("neg.variant"),
        standard.replacen("\nstart 1901 spring", "\nstart -50 spring", 1),
    )
    .unwrap();
    let o = dip(&["new", "--variant", "neg.variant", "g"], &d);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::write(d.join("g/ORDERS.TXT"), "NATION Austria\nA Vie-Gal\nEND\n").unwrap();
    let o = dip(&["run", "g", "--all"], &d);
    assert!(o.status.success(), "{}", text(&o));
    let newgame = std::fs::read_to_string(d.join("g/NEWGAME.TXT")).unwrap();
    assert!(newgame.contains("PHASE Fall -50 Movement"), "{newgame}");
    let o = dip(&["accept", "g"], &d);
    assert!(o.status.success(), "{}", text(&o));
    // The position format too: the game's GAME.TXT as a position.
    let o = dip(&["render", "g", "-o", "g.svg"], &d);
    assert!(o.status.success(), "{}", text(&o));
    game_history_naming_a_variant_in_the_project_folder_was_not_found(&d);
}

/// HISTORY.REC names the variant as GAME.TXT's VARIANTPATH does
/// (`neg.variant`, in the project folder); `dip record show` looked for it
/// beside the record only.
fn game_history_naming_a_variant_in_the_project_folder_was_not_found(d: &Path) {
    let o = dip(&["record", "show", "g/HISTORY.REC"], d);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("-50"), "{}", text(&o));
}

#[test]
fn record_import_into_a_file_said_written_as_then_file_exists() {
    let d = tmp("import-into-file");
    std::fs::write(d.join("g.jsonl"), mila_with_ids(&["a/b"])).unwrap();
    std::fs::write(d.join("out.rec"), "mine").unwrap();
    let o = dip(&["record", "import", "g.jsonl", "-o", "out.rec"], &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(
        text(&o).trim(),
        "dip: out.rec is a file; --out names the folder the records are written into"
    );
    assert_eq!(std::fs::read_to_string(d.join("out.rec")).unwrap(), "mine");
}

#[test]
fn a_broken_unit_picture_was_drawn_as_the_generated_icon_and_check_said_ok() {
    let d = tmp("broken-unit-picture");
    let standard = std::fs::read_to_string(repo().join("variants/standard.variant")).unwrap();
    // A PNG signature and nothing readable after it; a BMP claiming 100000 pixels a side.
    std::fs::write(d.join("broken.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let mut huge = b"BM".to_vec();
    huge.resize(54, 0);
    huge[18..22].copy_from_slice(&100_000i32.to_le_bytes());
    huge[22..26].copy_from_slice(&100_000i32.to_le_bytes());
    std::fs::write(d.join("huge.bmp"), &huge).unwrap();
    std::fs::write(
        d.join("v.variant"),
        format!("{standard}\nunit-picture ENG F broken.png\nunit-picture FRA A huge.bmp\n"),
    )
    .unwrap();
    let o = dip(&["variant", "check", "v.variant"], &d);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("unit picture broken.png (England Fleet)"), "{t}");
    assert!(t.contains("unit picture huge.bmp (France Army)"), "{t}");
    assert!(t.contains("2 findings"), "{t}");
}

#[test]
fn adjudicate_report_named_the_written_unit_type_not_the_unit_that_moved() {
    // Under the preferred rule (wrong-unit-type=valid) `A bre - pic` moves
    // the fleet in Brest; the report said "Army Brest -> Picardy".
    let d = tmp("wrong-type");
    std::fs::write(
        d.join("o.txt"),
        "France: A bre - pic\nFrance: par - bur\nItaly: F ven H\n",
    )
    .unwrap();
    let pos = repo().join("examples/spring-1901/position.txt");
    let o = dip(&["adjudicate", pos.to_str().unwrap(), "o.txt"], &d);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("Fleet Brest -> Picardy"), "{out}");
    assert!(out.contains("(written as an army)"), "{out}");
    assert!(out.contains("Army Paris -> Burgundy"), "{out}");
    assert!(
        out.contains("Army Venice holds") && out.contains("(written as a fleet)"),
        "{out}"
    );
    assert!(!out.contains("Army Brest"), "{out}");
    // Refused by the rules, the order stays as written.
    let o = dip(
        &[
            "adjudicate",
            pos.to_str().unwrap(),
            "o.txt",
            "--rules",
            "datc wrong-unit-type=invalid",
        ],
        &d,
    );
    let out = text(&o);
    assert!(
        out.contains("Army Brest -> Picardy") && out.contains("illegal"),
        "{out}"
    );
}

#[test]
fn serve_on_a_busy_port_said_dip_twice() {
    // The error read "dip: dip serve: 127.0.0.1:PORT: Address already in use".
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let d = tmp("busy-port");
    let o = dip(&["serve", "--listen", &addr, "--data", "data"], &d);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with(&format!("dip: cannot start the server: {addr}: ")),
        "{err}"
    );
    assert!(!err.contains("dip serve"), "{err}");
}

#[test]
fn record_show_said_1_orders() {
    let game = repo().join("examples/game1905/current/HISTORY.REC");
    let o = dip(&["record", "show", game.to_str().unwrap()], &repo());
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("  W1901A  1 order\n"), "{out}");
    assert!(out.contains("  S1901M  22 orders\n"), "{out}");
    assert!(!out.contains(" 1 orders"), "{out}");
}

#[test]
fn variant_convert_without_output_asked_for_out_not_o() {
    // `--help` shows `-o, --output`; the error asked for `--out FOLDER`.
    let v = repo().join("variants/crowded.variant");
    let o = dip(&["variant", "convert", v.to_str().unwrap(), "--to", "dipwork"], &repo());
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("-o FOLDER is needed for the dipwork format"), "{err}");
    assert!(!err.contains("--out"), "{err}");
}

#[test]
fn adjudicate_disbanded_an_unordered_retreat_without_a_word() {
    // Spring 1902's retreats of examples/game1905 with no orders: the
    // Russian army dislodged from Galicia left the board unreported.
    let d = tmp("silent-disband");
    std::fs::write(d.join("none.txt"), "").unwrap();
    std::fs::write(d.join("bad.txt"), "Russia: A gal R boh\n").unwrap();
    let game = repo().join("examples/game1905/current");
    for orders in ["none.txt", "bad.txt"] {
        let o = dip(&["adjudicate", game.to_str().unwrap(), "--phase", "S1902R", orders], &d);
        let out = text(&o);
        assert!(o.status.success(), "{out}");
        assert!(
            out.contains("Disbanded: Russian Army Galicia (no valid retreat order)"),
            "{orders}: {out}"
        );
    }
    // A dislodgement: the unit by its name, as the orders print it, not `gal`.
    std::fs::write(
        d.join("p.txt"),
        "variant standard\nphase spring 1901 movement\nunits\n  Austria: A gal\n  Russia: A war\n  Russia: A ukr\n",
    )
    .unwrap();
    std::fs::write(d.join("m.txt"), "Russia: A war - gal\nRussia: A ukr S A war - gal\n").unwrap();
    let o = dip(&["adjudicate", "p.txt", "m.txt"], &d);
    let out = text(&o);
    assert!(
        out.contains("Dislodged: Austrian Army Galicia (attacked from Warsaw)"),
        "{out}"
    );
}
