//! Inputs that once crashed, hung or allocated without limit, run through
//! their fuzz target: `regressions/TARGET--what-it-was`. A crash found by
//! scripts/fuzz.sh is copied here under the name of what it was, and
//! [`verdict`] says what its reader must answer: an input that only has to
//! not crash could pass by reading nothing.

use std::path::Path;

fn text(data: &[u8]) -> String {
    dip_variants::files::decode_any(data.to_vec()).0
}

fn must_fail<T>(r: Result<T, String>, says: &str) -> Result<(), String> {
    match r {
        Ok(_) => Err(format!("read without an error; expected one saying `{says}`")),
        Err(e) if e.contains(says) => Ok(()),
        Err(e) => Err(format!("the error `{e}` does not say `{says}`")),
    }
}

/// The reader's answer each regression input must get.
fn verdict(name: &str, data: &[u8]) -> Result<(), String> {
    let std = dip_variants::standard();
    let t = text(data);
    match name {
        "analyse--string-doubling" => {
            let mut host = dip_rating::analyse::MemHost::default();
            let mut it = dip_rating::analyse::Interp::new(&mut host, Vec::new(), false);
            must_fail(
                it.run("fuzz.ctl", &t).map_err(|e| e.to_string()),
                "strings are limited to",
            )
        }
        "gamefile--cut-at-a-nation-boundary" => must_fail(
            dip_game::gamefile::GameFile::read(&t, Path::new("GAME.TXT")).map_err(|e| e.to_string()),
            "without `END`",
        ),
        "pictures--png-claiming-100000-pixels" => must_fail(
            dip_render::raster::decode_picture(data).map_err(|e| e.to_string()),
            "100000",
        ),
        "position--year-2147483647" => must_fail(
            dip_text::parse_position(&std.map, &t, "p.txt").map_err(|e| e.to_string()),
            "out of range",
        ),
        "variant_dipwork--convoy-relevant-unitnr-4294967295" => {
            let (vt, ft) = t.split_once('\0').unwrap_or((&t, ""));
            let read = dip_variants::dipwork::read_params(vt, "VARIANT.TXT").and_then(|p| {
                dip_variants::dipwork::read(&p, "VARIANT.TXT", ft, "FIELDS.TXT", None, "fuzz")
                    .and_then(|m| m.build("fuzz"))
            });
            must_fail(read.map_err(|e| e.to_string()), "CONVOY_RELEVANT_UNITNR")
        }
        "variant_dpjudge--map-absolute-path" => {
            let dir = std::env::temp_dir().join(format!("dip-fuzz-regr-{}", std::process::id()));
            let _ = std::fs::create_dir_all(&dir);
            let file = dir.join("m.map");
            std::fs::write(&file, data).unwrap();
            let r = dip_variants::dpjudge::read_file(&file.to_string_lossy()).map_err(|e| e.to_string());
            let _ = std::fs::remove_dir_all(&dir);
            must_fail(r, "no absolute path")
        }
        other => Err(format!(
            "no verdict for `{other}`: say in tests/regressions.rs what its reader must answer"
        )),
    }
}

#[test]
fn every_regression_input_runs_through_its_target() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let targets = dip_fuzz::targets();
    let mut n = 0;
    let mut wrong = Vec::new();
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
        if let Err(e) = verdict(&name, &data) {
            wrong.push(format!("{name}: {e}"));
        }
        n += 1;
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(n >= 6, "{n} regression inputs");
}
