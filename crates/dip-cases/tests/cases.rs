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
