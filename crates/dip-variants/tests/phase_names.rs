//! Every variant format's start phase is read by dip's one reader of
//! phase names (`Phase`'s `FromStr`): each form a format's reader took
//! before still reads the same, and errors still name file and line.

use std::path::PathBuf;

use dip_core::Phase;
use dip_variants::formats;
use dip_variants::{dipwork, parse};

const NATIVE: &str = "variant mini\nstart 1901 spring\npower NOR North Northern\n\
province aaa Alpha land center home=NOR\nprovince bbb Beta land\nborder A aaa bbb\nunit-at NOR A aaa\n";

fn native(start: &str) -> Result<String, String> {
    parse(&NATIVE.replace("start 1901 spring", start), "t.variant")
        .map(|v| v.start.phase.to_string())
        .map_err(|e| {
            assert_eq!((e.file.as_str(), e.line), ("t.variant", 2), "{e}");
            e.message
        })
}

#[test]
fn native_start_lines_read_as_before_in_every_form() {
    for (line, short) in [
        ("start 1901 spring", "S1901M"),
        ("start 1901 spring movement", "S1901M"),
        ("start 1901 spring retreat", "S1901R"),
        ("start 1901 fall", "F1901M"),
        ("start 1901 autumn", "F1901M"),
        ("start 1901 fall retreat", "F1901R"),
        ("start 1901 fall adjustment", "W1901A"),
        ("start 1901 winter", "W1901A"),
        ("start 1901 winter adjustment", "W1901A"),
        ("start \"1901\" spring", "S1901M"),
        ("start -50 spring", "S-50M"),
        ("start 0001 spring", "S1M"),
        // Now read too: the short name and capitals.
        ("start S1901M", "S1901M"),
        ("start 1901 Fall Retreat", "F1901R"),
    ] {
        assert_eq!(native(line).as_deref(), Ok(short), "{line}");
    }
    for (line, says) in [
        ("start 1901 summer", "expected a season"),
        ("start MCM spring", "expected a year"),
        ("start 2147483647 spring", "out of range"),
        ("start 1901 spring soon", "found `soon`"),
        ("start 1901 winter movement", "winter has only the adjustment phase"),
        ("start 1901 spring adjustment", "adjustments come in winter"),
        ("start", "expected `start YEAR SEASON [KIND]`"),
        ("start 1901 spring movement now", "expected `start YEAR SEASON [KIND]`"),
    ] {
        let e = native(line).unwrap_err();
        assert!(e.contains(says), "{line}: {e}");
    }
}

/// Only `spring`, `fall`, `autumn`, `winter` in lower case were seasons
/// here, while every other reader of phase names takes any case.
#[test]
fn native_start_read_seasons_in_lower_case_only() {
    assert_eq!(native("start 1901 Spring").as_deref(), Ok("S1901M"));
    assert_eq!(native("start 1901 WINTER").as_deref(), Ok("W1901A"));
}

const NATIONS: &str = "NATIONLIST\nAa Alpha\n\nUNITLIST\nA Army # Costs=1 St=1 AllowedIn=A\n\n";
const FIELDS: &str = "# One 1 1 - LA 1 Aa\n# Two 2 2 - LA 0 -\n- One Two ja\nEND\n";

fn dipwork(start: &str) -> Result<String, String> {
    let params = dipwork::read_params(&format!("{NATIONS}STARTPHASE {start}\nEND\n"), "VARIANT.TXT")
        .map_err(|e| e.to_string())?;
    dipwork::read(&params, "VARIANT.TXT", FIELDS, "FIELDS.TXT", None, "x")
        .map(|m| Phase::new(m.year, m.season, m.kind).to_string())
        .map_err(|e| {
            assert_eq!((e.file.as_str(), e.line), ("VARIANT.TXT", 7), "{e}");
            e.message
        })
}

#[test]
fn dipwork_startphase_reads_as_before_in_every_form() {
    for (v, short) in [
        ("1901 spring", "S1901M"),
        ("1901 Spring", "S1901M"),
        ("1901 spring movement", "S1901M"),
        ("1901 spring retreat", "S1901R"),
        ("1901 FALL RETREAT", "F1901R"),
        ("1901 autumn", "F1901M"),
        ("1901 winter", "W1901A"),
        ("-50 spring", "S-50M"),
    ] {
        assert_eq!(dipwork(v).as_deref(), Ok(short), "{v}");
    }
    for (v, says) in [
        (
            "1901",
            "STARTPHASE takes `YEAR spring|fall|winter [movement|retreat]`, found `1901`",
        ),
        ("1901 summer", "expected a season"),
        ("2147483647 spring", "out of range"),
    ] {
        let e = dipwork(v).unwrap_err();
        assert!(e.contains(says), "{v}: {e}");
    }
}

/// A kind other than `retreat` was dropped without a word (`1901 spring
/// adjustment` started in spring's movement), and `winter retreat` was
/// fall's retreat.
#[test]
fn dipwork_startphase_dropped_unknown_kinds_and_read_winter_retreats() {
    for v in ["1901 spring soon", "1901 spring adjustment", "1901 winter retreat"] {
        assert!(dipwork(v).is_err(), "{v}");
    }
}

fn realpolitik(name: &str, phase: &str, adjust: u8) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("dip-phase-names-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |f: &str, text: &str| std::fs::write(dir.join(f), text).unwrap();
    write(
        "P.var",
        "Version: 1\nName: P\nMapData: P.map\nCountries: P.cnt\nGame: P.gam\n",
    );
    write("P.cnt", "1\n1\nRed Reddish R Hash Red\n");
    write("P.map", "One, R one\nTwo, l two\n-1\none-mv: two\ntwo-mv: one\n-1\n");
    write("P.gam", &format!("1\nP\nP\n{phase}\n{adjust}\n1\nRed\none\na one\n0\n"));
    let path: PathBuf = dir.join("P.var");
    let r = formats::read_model(&path.to_string_lossy());
    let _ = std::fs::remove_dir_all(&dir);
    r.map(|(m, _)| Phase::new(m.year, m.season, m.kind).to_string())
        .map_err(|e| {
            assert!(e.file.ends_with("P.gam") && e.line == 4, "{e}");
            e.message
        })
}

#[test]
fn realpolitik_phase_lines_read_as_before_in_every_form() {
    for (i, (phase, adjust, short)) in [
        ("Spring 1901", 0, "S1901M"),
        ("spring 1901", 0, "S1901M"),
        ("Fall 1905", 0, "F1905M"),
        ("Autumn 1905", 0, "F1905M"),
        ("Winter 1905", 1, "W1905A"),
        ("Fall 1905", 1, "W1905A"),
        ("Spring -50", 0, "S-50M"),
    ]
    .into_iter()
    .enumerate()
    {
        let got = realpolitik(&format!("ok{i}"), phase, adjust);
        assert_eq!(got.as_deref(), Ok(short), "{phase}");
    }
    for (i, (phase, says)) in [
        (
            "Summer 1901",
            "expected a phase like `Spring 1901`, found `Summer 1901`",
        ),
        ("Spring", "expected a phase like `Spring 1901`"),
        ("Spring 99999999999", "out of range"),
    ]
    .into_iter()
    .enumerate()
    {
        let e = realpolitik(&format!("bad{i}"), phase, 0).unwrap_err();
        assert!(e.contains(says), "{phase}: {e}");
    }
}

/// Words after the year were dropped without a word.
#[test]
fn realpolitik_phase_line_dropped_words_after_the_year() {
    assert!(realpolitik("after", "Spring 1901 soon", 0).is_err());
}
