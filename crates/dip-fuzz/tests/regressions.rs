//! Inputs that once crashed, hung or allocated without limit, run through
//! their fuzz target: `regressions/TARGET--what-it-was`. A crash found by
//! scripts/fuzz.sh is copied here under the name of what it was.

#[test]
fn every_regression_input_runs_through_its_target() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let targets = dip_fuzz::targets();
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let (target, what) = name
            .split_once("--")
            .unwrap_or_else(|| panic!("{name}: expected TARGET--what"));
        let t = targets
            .iter()
            .find(|t| t.name == target)
            .unwrap_or_else(|| panic!("{name}: no target `{target}`"));
        let data = std::fs::read(e.path()).unwrap();
        let start = std::time::Instant::now();
        (t.run)(&data);
        assert!(
            start.elapsed().as_secs() < 10,
            "{target}: {what} took {:?}",
            start.elapsed()
        );
        n += 1;
    }
    assert!(n >= 5, "{n} regression inputs");
}
