//! DIP's files and names from the command line: `.dip` season files
//! written as DIP's help shows its orders, fixnames.dat on every command
//! that reads or writes DIP's names, EXPORT.TXT in DIP's own form.

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

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dip-dipfiles-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every order form of DIP's help (`RUS A(Mos) hold`, `ENG F(NTH) S GER
/// A(Bel) - Hol`, `ITA F(IOS) C A(Nap) - Tun`, `RUS A(StP) retreat …`,
/// `GER build A(Kie)`, `ENG disband F(NTH)`) in one season file.
#[test]
fn dip_files_with_the_orders_of_dips_help_were_not_read() {
    let (code, out, err) = dip(&["record", "from-dip", "crates/dip/tests/data/manual_a01.dip"]);
    assert_eq!(code, 0, "{err}");
    for want in [
        "phase fall 1901 movement",
        "Russia: A mos H",
        "England: F nth S A bel - hol",
        "Italy: F ion C A nap - tun",
        "phase fall 1901 retreat",
        "Russia: A stp R nwy",
        "phase fall 1901 adjustment",
        "Germany: build A kie",
        "England: F nth D",
    ] {
        assert!(out.contains(want), "{want}:\n{out}");
    }
    // And the whole game animates from the one file.
    let d = tmp("anim");
    let (code, _, err) = dip(&[
        "animate",
        "crates/dip/tests/data/manual_a01.dip",
        "--tween",
        "0",
        "-o",
        d.join("a.html").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn fixnames_was_refused_by_adjudicate_render_and_dip_files() {
    let d = tmp("fixnames");
    let fix = d.join("fixnames.dat");
    std::fs::write(&fix, "NTH,NRS\nIOS,ION\n").unwrap();
    let orders = d.join("o.txt");
    std::fs::write(&orders, "ENG F(Lon) - NRS\nITA F(Nap) - ION\n").unwrap();
    let (f, o) = (fix.to_str().unwrap(), orders.to_str().unwrap());
    let pos = "examples/spring-1901/position.txt";
    let (code, out, err) = dip(&["adjudicate", pos, o, "--fixnames", f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("North Sea"), "{out}");
    let (code, _, _) = dip(&["adjudicate", pos, o]);
    assert_eq!(code, 2, "without the file NRS is no province");
    let (code, svg, err) = dip(&["render", pos, o, "--fixnames", f]);
    assert_eq!(code, 0, "{err}");
    assert!(svg.starts_with("<svg"));
    // Season files written and read with the new names.
    let files = d.join("files");
    let (code, _, err) = dip(&[
        "record",
        "dip",
        "examples/game1905/current/HISTORY.REC",
        "--out",
        files.to_str().unwrap(),
        "--prefix",
        "xyz",
        "--fixnames",
        f,
    ]);
    assert_eq!(code, 0, "{err}");
    let s02 = std::fs::read_to_string(files.join("xyz_s02.dip")).unwrap();
    assert!(
        s02.contains("F(NRS)") && !s02.contains("NTH") && !s02.contains(" nth"),
        "{s02}"
    );
    let all: Vec<String> = std::fs::read_dir(&files)
        .unwrap()
        .flatten()
        .map(|e| e.path().to_string_lossy().into_owned())
        .collect();
    let mut args: Vec<&str> = vec!["record", "from-dip", "--fixnames", f];
    args.extend(all.iter().map(String::as_str));
    let (code, renamed, err) = dip(&args);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = dip(&["record", "from-dip", files.join("xyz_s02.dip").to_str().unwrap()]);
    assert_eq!(code, 2, "without the renaming file NRS is unknown: {err}");
    let history = std::fs::read_to_string(repo().join("examples/game1905/current/HISTORY.REC")).unwrap();
    let phases = |t: &str| t.lines().filter(|l| l.starts_with("phase ")).count();
    assert_eq!(phases(&renamed), phases(&history), "the whole game read back");
    let _ = std::fs::remove_dir_all(d);
}

/// Unit lines in DIP's own form (`ENG A(Lon)`, `RUS F(StP/sc)`, `ITA
/// F(IOS)`) in a season file's position: untested; each unit must stand
/// where the line puts it, with its nation and type.
#[test]
fn dip_form_unit_lines_in_a_season_file_were_untested() {
    let file = "crates/dip/tests/data/dip_form_units_a01.dip";
    let (code, out, err) = dip(&["record", "from-dip", file]);
    assert_eq!(code, 0, "{err}");
    for want in [
        "England: A lon",
        "England: F edi",
        "England: F nth",
        "Germany: A bel",
        "Russia: F stp/sc",
        "Italy: F ion",
        "England: A lon - yor : succeeds",
        "Russia: F stp/sc - bot : succeeds",
    ] {
        assert!(out.contains(want), "{want}:\n{out}");
    }
    // The same file as a position: the units after its season, in which
    // England (three units, two centres) and Italy (no centre) lose one
    // each to civil disorder.
    let (code, svg, err) = dip(&["render", file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(svg.matches(r#"<g class="unit""#).count(), 4, "{err}");
}

/// The manual's season file cut at one of DIP's stages ("before moves",
/// "before retreats", "before adjustments"): what DIP writes when it saves
/// in the middle of a season.
fn saved_at(stage: &str) -> String {
    let full = std::fs::read_to_string(repo().join("crates/dip/tests/data/manual_a01.dip")).unwrap();
    let end = full.find(stage).unwrap_or(full.len());
    full[..end].to_string()
}

#[test]
fn a_dip_file_saved_in_the_middle_of_a_season_was_refused() {
    let d = tmp("midseason");
    // Saved before retreats: the moves are played, the retreat is to come.
    let before_retreats = d.join("manual_a01.dip");
    std::fs::write(&before_retreats, saved_at("retreats")).unwrap();
    let (code, out, err) = dip(&["record", "from-dip", before_retreats.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("phase fall 1901 movement") && !out.contains("fall 1901 retreat"),
        "{out}"
    );
    // As a position it stands before the retreats: the help's retreat order.
    std::fs::write(d.join("retreat.txt"), "RUS A(StP) retreat Nwy\n").unwrap();
    let (code, out, err) = dip(&[
        "adjudicate",
        before_retreats.to_str().unwrap(),
        d.join("retreat.txt").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Fall 1901 retreat") && out.contains("retreats to Norway"),
        "{out}"
    );
    // Saved before moves (the stage's title written, no order yet).
    let before_moves = d.join("x_a01.dip");
    std::fs::write(&before_moves, saved_at("moves") + "moves\n").unwrap();
    let (code, out, err) = dip(&["record", "from-dip", before_moves.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("phase fall 1901 movement"), "nothing was played: {out}");
    // A file cut inside the position is still refused, with its line.
    let cut = d.join("cut_a01.dip");
    std::fs::write(
        &cut,
        "DIP game file\nvariant standard\nphase fall 1901 movement\nunits\n  England: A xyz\n",
    )
    .unwrap();
    let (code, _, err) = dip(&["record", "from-dip", cut.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    // And `dip record dip` writes a season the record ends in the middle
    // of without `season finished`, so that it reads back the same.
    let rec = d.join("mid.rec");
    let (code, out, err) = dip(&["record", "from-dip", before_retreats.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(&rec, out).unwrap();
    let back = d.join("back");
    let (code, _, err) = dip(&[
        "record",
        "dip",
        rec.to_str().unwrap(),
        "-o",
        back.to_str().unwrap(),
        "--prefix",
        "mid",
    ]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(back.join("mid_a01.dip")).unwrap();
    assert!(!written.contains("season finished"), "{written}");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn a_dip_file_as_orders_file_had_its_header_and_units_read_as_orders() {
    // DIP's Import: "only lines which 'look like' valid orders are
    // imported", here from a previous .dip file.
    let d = tmp("import");
    // The season's position as a position file (docs/position-format.md).
    let head = saved_at("moves");
    let before_moves = d.join("position.txt");
    std::fs::write(
        &before_moves,
        format!("variant standard\n{}", &head[head.find("phase ").unwrap()..]),
    )
    .unwrap();
    let orders = "crates/dip/tests/data/manual_a01.dip";
    let (code, out, err) = dip(&["adjudicate", before_moves.to_str().unwrap(), orders]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Tunis") || out.contains("tun"), "{out}");
    let (_, out, err) = dip(&["orders", "check", orders, "--state", before_moves.to_str().unwrap()]);
    let text = out + &err;
    assert!(
        !text.contains("[303]") && !text.contains("[200]") && !text.contains("[203]"),
        "{text}"
    );
    assert!(text.contains("F ion C A nap - tun"), "{text}");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn start_as_a_position_worked_for_render_only() {
    let d = tmp("start");
    std::fs::write(d.join("o.txt"), "ENG F(Lon) - NTH\nENG F(Edi) S F(Lon) - NTH\n").unwrap();
    let o = d.join("o.txt");
    let (code, out, err) = dip(&["adjudicate", "start", o.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Spring 1901 movement") && out.contains("North Sea"),
        "{out}"
    );
    let (code, out, err) = dip(&["orders", "check", o.to_str().unwrap(), "--state", "start"]);
    assert!(code == 0 || code == 1, "{err}");
    assert!(out.contains("England: F lon - nth"), "{out}\n{err}");
    let _ = std::fs::remove_dir_all(d);
}
