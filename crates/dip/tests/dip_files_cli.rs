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
