//! Runs every case file under `cases/` (the DATC and dip's own regression
//! cases) through the runner: each case must pass.

use dip_cases::{parse_file, Runner, Settings};
use std::path::{Path, PathBuf};

fn case_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("cases dir").flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            case_files(&p, out);
        } else if matches!(p.extension().and_then(|x| x.to_str()), Some("cases" | "txt")) {
            out.push(p);
        }
    }
}

fn run_dir(sub: &str) -> (usize, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cases").join(sub);
    let mut files = Vec::new();
    case_files(&root, &mut files);
    assert!(!files.is_empty(), "no case files under {}", root.display());
    let mut runner = Runner::new(Settings::default());
    let mut count = 0;
    let mut failures = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        let name = f.to_string_lossy().to_string();
        let cases = parse_file(&text, &name).unwrap_or_else(|e| panic!("{e}"));
        for c in &cases {
            count += 1;
            let r = runner.run(c);
            if !r.passed() {
                failures.push(format!(
                    "{} {} ({}:{})\n    {}",
                    r.id,
                    r.title,
                    r.file,
                    r.line,
                    r.failures.join("\n    ")
                ));
            }
        }
    }
    (count, failures)
}

/// Every case under `cases/SUB` passes; at least `min` cases are there.
fn assert_all_pass(sub: &str, min: usize) {
    let (count, failures) = run_dir(sub);
    assert!(count >= min, "only {count} cases under cases/{sub}");
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn datc_cases_pass() {
    assert_all_pass("datc", 164);
}

#[test]
fn jdip_format_cases_pass() {
    assert_all_pass("jdip", 1);
}

#[test]
fn regression_cases_pass() {
    assert_all_pass("regressions", 1);
}

#[test]
fn dipwork_switch_cases_pass() {
    assert_all_pass("dipwork", 1);
}

#[test]
fn rule_option_cases_pass() {
    assert_all_pass("options", 1);
}

/// A wrong expectation must make a case fail: the runner is not a rubber stamp.
#[test]
fn a_wrong_expectation_fails() {
    let text = "case x wrong\nunits\n  England: F nth\norders\n  England: F nth - pic : succeeds\nend\n";
    let cases = parse_file(text, "x.cases").unwrap();
    let r = dip_cases::run(&cases[0], &Settings::default());
    assert!(!r.passed());
    let text = "case y missing dislodged\nunits\n  England: F nth\n  England: F edi\n  Germany: F hel\norders\n  England: F edi S F nth - hel : succeeds\n  England: F nth - hel : succeeds\nend\n";
    let cases = parse_file(text, "y.cases").unwrap();
    let r = dip_cases::run(&cases[0], &Settings::default());
    assert!(!r.passed(), "an unmarked dislodgement must be reported");
}

#[test]
fn unreadable_case_files_name_the_line() {
    let e = parse_file("case a\nunits\n  England: F nth\nbogus\n", "bad.cases").unwrap_err();
    assert_eq!(e.line, 1);
    let e = parse_file("case a\nwhatever here\nend\n", "bad.cases").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.to_string().starts_with("bad.cases:2:"));
}

#[test]
fn a_wrong_reason_fails() {
    let text = "case r\nunits\n  France: A par\norders\n  France: A par - mos : illegal foreign-unit\nend\n";
    let cases = parse_file(text, "r.cases").unwrap();
    assert!(!dip_cases::run(&cases[0], &Settings::default()).passed());
    assert!(parse_file("case r\norders\n  France: A par H : illegal nonsense\nend\n", "r").is_err());
}

/// Runs the cases of `text` (named `file`) and returns the failures.
fn failures_of(text: &str, file: &str) -> Vec<String> {
    let cases = parse_file(text, file).unwrap_or_else(|e| panic!("{e}"));
    let mut runner = Runner::new(Settings::default());
    cases.iter().flat_map(|c| runner.run(c).failures).collect()
}

#[test]
fn misspelled_power_in_a_peer_case_is_an_error_naming_file_and_line() {
    let text = "VARIANT_ALL Standard\nCASE p1\nPRESTATE\n  Germany: A mun\nORDERS\n  Germnay: A mun-boh\nPOSTSTATE\n  Germany: A boh\nEND\n";
    let f = failures_of(text, "peer.txt");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].starts_with("peer.txt:6: unknown power `Germnay`"), "{}", f[0]);
    assert!(f[0].contains("Germany"), "the message suggests the power: {}", f[0]);
}

#[test]
fn misspelled_power_in_prestate_and_poststate_had_no_suggestion() {
    for (text, line, word) in [
        (
            "VARIANT_ALL Standard\nCASE p2\nPRESTATE\n  Germnay: A mun\nORDERS\n  Germany: A mun-boh\nPOSTSTATE\n  Germany: A boh\nEND\n",
            4,
            "Germnay",
        ),
        (
            "VARIANT_ALL Standard\nCASE p3\nPRESTATE\n  Germany: A mun\nORDERS\n  Germany: A mun-boh\nPOSTSTATE\n  Germny: A boh\nEND\n",
            8,
            "Germny",
        ),
    ] {
        let f = failures_of(text, "peer.txt");
        assert_eq!(f.len(), 1, "{f:?}");
        let want = format!("peer.txt:{line}: unknown power `{word}` (did you mean Germany?)");
        assert!(f[0].starts_with(&want), "{}", f[0]);
    }
}

#[test]
fn unknown_peer_variant_asks_for_variants_naming_file_and_line() {
    let text = "# jDip's test map\nVARIANT_ALL DATC_Loeb9\nCASE v1\nPRESTATE\n  Spain: A cor\nORDERS\n  Spain: A cor H\nPOSTSTATE_SAME\nEND\n";
    let f = failures_of(text, "loeb.txt");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("loeb.txt:2: variant `DATC_Loeb9` not found"),
        "{}",
        f[0]
    );
    assert!(f[0].contains("--variants"), "{}", f[0]);
}

#[test]
fn a_variant_added_to_the_runner_is_found_by_its_peer_name() {
    let text = "VARIANT_ALL My_Test_Map\nCASE v2\nPRESTATE\n  Germany: A mun\nORDERS\n  Germany: A mun-boh\nPOSTSTATE\n  Germany: A boh\nEND\n";
    let cases = parse_file(text, "mine.txt").unwrap();
    let mut runner = Runner::new(Settings::default());
    assert!(!runner.run(&cases[0]).passed(), "unknown before it is added");
    runner.add_variant("my_test_map", dip_variants::standard());
    let r = runner.run(&cases[0]);
    assert!(r.passed(), "{:?}", r.failures);
}

#[test]
fn standard_and_datc_standard_are_the_standard_map() {
    for name in ["Standard", "DATC_Standard", "standard"] {
        let text = format!("VARIANT_ALL {name}\nCASE s\nPRESTATE\n  Germany: A mun\nORDERS\n  Germany: A mun-boh\nPOSTSTATE\n  Germany: A boh\nEND\n");
        assert!(failures_of(&text, "s.txt").is_empty(), "{name}");
    }
}

#[test]
fn case_without_end_ends_at_the_next_case() {
    let text = "VARIANT_ALL Standard\nCASE a\nPRESTATE\n  Germany: A mun\nORDERS\n  Germany: A mun H\nPOSTSTATE_SAME\nCASE b\nPRESTATE\n  France: A par\nORDERS\n  France: A par H\nPOSTSTATE_SAME\n";
    let cases = parse_file(text, "e.txt").unwrap();
    assert_eq!(cases.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(cases[1].units.len(), 1, "b's units are its own");
}

#[test]
fn destroyed_unit_listed_as_dislodged_fails() {
    // F ank cannot retreat: by the peers' convention it is not dislodged.
    let case = "CASE d\nPRESTATE\n  Turkey: F ank\n  Turkey: A con\n  Russia: F bla\n  Russia: A arm\nORDERS\n  Russia: F bla-ank\n  Russia: A arm S F bla-ank\nPOSTSTATE\n  Turkey: A con\n  Russia: F ank\n  Russia: A arm\nPOSTSTATE_DISLODGED\n";
    assert!(failures_of(&format!("VARIANT_ALL Standard\n{case}END\n"), "d.txt").is_empty());
    let text = format!("VARIANT_ALL Standard\n{case}  Turkey: F ank\nEND\n");
    let f = failures_of(&text, "d.txt");
    assert!(
        f.iter()
            .any(|m| m.starts_with("dislodged: expected [Turkey: F ank], got []")),
        "{f:?}"
    );
}

#[test]
fn retreat_into_a_standoff_needs_prestate_results() {
    // Without the two failed moves the retreat to bud succeeds.
    let with =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cases/jdip/reader.txt")).unwrap();
    let start = with.find("CASE reader.3").unwrap();
    let end = start + with[start..].find("END").unwrap() + 3;
    let case = &with[start..end];
    assert!(failures_of(&format!("VARIANT_ALL Standard\n{case}\n"), "r3.txt").is_empty());
    let without: String = case
        .lines()
        .filter(|l| !(l.contains("FAILURE") && l.contains("-bud")))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!failures_of(&format!("VARIANT_ALL Standard\n{without}\n"), "r3.txt").is_empty());
}

#[test]
fn order_reading_case_with_a_wrong_result_fails() {
    let text = "VARIANT: Standard\nSETUP\n  England: A lvp\nEND\nORD: lvp attacks edi\nRES: move(england, lvp/mv, army, yor, false)\nORD: lvp attacks edi\nRES: move(england, lvp/mv, army, edi, false)\nORD: lvp attacks edi\nRES: FAIL\n";
    let cases = parse_file(text, "o.txt").unwrap();
    assert_eq!(cases.len(), 3);
    let mut runner = Runner::new(Settings::default());
    let passed: Vec<bool> = cases.iter().map(|c| runner.run(c).passed()).collect();
    assert_eq!(passed, [false, true, false]);
}

#[test]
fn order_reading_suite_errors_name_the_line() {
    let e = parse_file("VARIANT: Standard\nORD: a lon H\nORD: a lon H\n", "o.txt").unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("o.txt", 3));
    let e = parse_file("VARIANT: Standard\nRES: FAIL\n", "o.txt").unwrap_err();
    assert_eq!(e.line, 2);
    let e = parse_file("SETUP\n  England: A lon\n", "o.txt").unwrap_err();
    assert!(e.message.contains("END"), "{e}");
}

#[test]
fn a_variant_file_named_in_a_case_file_must_stay_beside_it() {
    // A name that leaves the case file's folder, and a file that exists
    // only outside it (this crate's manifest, seen from where the tests
    // run), are refused at the line that names them, unread.
    for (name, why) in [
        ("../../Cargo.toml", "must be inside elsewhere"),
        ("Cargo.toml", "must be beside it, in elsewhere"),
    ] {
        let text = format!("VARIANT_ALL {name}\nCASE v1\nPRESTATE\n  Spain: A cor\nORDERS\n  Spain: A cor H\nEND\n");
        let cases = parse_file(&text, "elsewhere/c.txt").unwrap();
        let r = Runner::new(Settings::default()).run(&cases[0]);
        assert!(r.unusable, "{name}: {:?}", r.failures);
        assert_eq!(r.failures.len(), 1, "{name}: {:?}", r.failures);
        let f = &r.failures[0];
        assert!(f.starts_with("elsewhere/c.txt:1: variant") && f.contains(why), "{f}");
    }
}

/// A case placing two units in one province used to run with only the
/// later one on the board, a position the case never wrote.
#[test]
fn a_case_with_a_unit_the_map_cannot_hold_is_refused_not_trimmed() {
    let text = "case two\nunits\n  England: F lon\n  France: A lon\norders\n  England: F lon H : succeeds\nend\n";
    let f = failures_of(text, "two.cases");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("two.cases:4: a second unit in the same province"),
        "{}",
        f[0]
    );
}
