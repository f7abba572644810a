//! Fuzz target for Analyse's control language: any control file (and a
//! result table after the first NUL byte) must give Ok or a located error,
//! never a panic.
//!
//!     cargo +nightly fuzz run analyse_control
#![no_main]
#![forbid(unsafe_code)]

use dip_rating::analyse::{Interp, MemHost};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (ctl, table) = text.split_once('\0').unwrap_or((&text, "= 2024-01-01 g\nA 3\nB 2\nC 1\n"));
    let mut host = MemHost::default();
    host.files.insert("g.res".into(), table.to_string());
    host.files.insert("inc.ctl".into(), ctl.to_string());
    let mut it = Interp::new(&mut host, vec!["g.res".into()], false);
    if let Err(e) = it.run("fuzz.ctl", ctl) {
        // every error names its file
        assert!(!e.file.is_empty() || e.msg.contains("cannot write"), "{e:?}");
    }
    let _ = dip_rating::expr::parse(ctl);
});
