//! Runs the adjudication cases of the variant rules (cases/variants/):
//! wings, multi-strength, costs, mx, hx, canals, the convoy pseudo-unit,
//! build rules, Chaos, 1898 and Pure.

use dip_cases::{parse_file, Runner, Settings};
use std::path::Path;

#[test]
fn variant_rule_cases_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cases/variants");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .expect("cases/variants")
        .flatten()
        .map(|e| e.path())
        // dip's own format, and the jDip/godip text format (`.txt`).
        .filter(|p| matches!(p.extension().and_then(|x| x.to_str()), Some("cases" | "txt")))
        .collect();
    files.sort();
    let mut runner = Runner::new(Settings::default());
    let (mut count, mut failures) = (0, Vec::new());
    let mut ids = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        let cases = parse_file(&text, &f.to_string_lossy()).unwrap_or_else(|e| panic!("{e}"));
        for c in &cases {
            count += 1;
            let r = runner.run(c);
            ids.push(r.id.clone());
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
    for rule in [
        "VAR.wing",
        "VAR.strength",
        "VAR.cost",
        "VAR.mx",
        "VAR.hx",
        "VAR.canal",
        "VAR.convoy-unit",
        "VAR.convoy-coast",
        "VAR.border-rule",
        "VAR.build",
        "VAR.chaos",
        "VAR.1898",
        "VAR.pure",
    ] {
        assert!(ids.iter().any(|i| i.starts_with(rule)), "no case for {rule}");
    }
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
