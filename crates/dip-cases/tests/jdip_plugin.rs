//! Peer files naming a standard name (`Standard`, `DATC_Standard`) while a
//! jDip plugin under `--variants` defines that name.

use dip_cases::{parse_file, Runner, Settings};
use std::path::PathBuf;

fn tiny_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/jdip/tiny")
}

/// The tiny example plugin with its variants renamed: `DATC_Standard` has
/// wings (as jDip's test variant does), `Standard` has armies and fleets only.
fn plugin_with_standard_names() -> PathBuf {
    let d = std::env::temp_dir().join(format!("dip-cases-plugin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    for f in ["tiny_adjacency.xml", "tiny.svg"] {
        std::fs::copy(tiny_dir().join(f), d.join(f)).unwrap();
    }
    let xml = std::fs::read_to_string(tiny_dir().join("variants.xml"))
        .unwrap()
        .replace("name=\"Tiny Isle\"", "name=\"DATC_Standard\"")
        .replace("aliases=\"tiny,isle\"", "")
        .replace("name=\"Tiny Spring\"", "name=\"Standard\"");
    std::fs::write(d.join("variants.xml"), xml).unwrap();
    d
}

fn failures_with(text: &str, settings: Settings) -> Vec<String> {
    let cases = parse_file(text, "p.txt").unwrap();
    let mut runner = Runner::new(settings);
    cases.iter().flat_map(|c| runner.run(c).failures).collect()
}

#[test]
fn datc_standard_with_wings_comes_from_the_plugin_standard_stays_bundled() {
    let wings = "VARIANT_ALL DATC_Standard\nCASE w\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n  Redland: W nsea\nORDERS\n  Redland: W nsea - cov\nPOSTSTATE\n  Redland: W cov\nEND\n";
    let standard = "VARIANT_ALL Standard\nCASE s\nPRESTATE\n  Germany: A mun\nORDERS\n  Germany: A mun-boh\nPOSTSTATE\n  Germany: A boh\nEND\n";
    // Without the plugin, DATC_Standard is the bundled map: no wings.
    assert!(!failures_with(wings, Settings::default()).is_empty());
    let with_plugin = || Settings {
        variants: dip_play::Variants::with_search_paths([plugin_with_standard_names()]),
        ..Settings::default()
    };
    let f = failures_with(wings, with_plugin());
    assert!(f.is_empty(), "{f:?}");
    // The plugin's Standard adds no unit type: the bundled map is kept.
    let f = failures_with(standard, with_plugin());
    assert!(f.is_empty(), "{f:?}");
}
