//! A `Variants` value is where a program's variants come from: two of them
//! in one process, each with its own jDip search paths, see only their own
//! plugins (a process-wide search list could not keep them apart).

use dip_play::Variants;
use std::path::PathBuf;

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

#[test]
fn two_values_with_their_own_search_paths_see_only_their_own_plugins() {
    let tiny = Variants::with_search_paths([repo("examples/jdip/tiny")]);
    let islands = Variants::with_search_paths([repo("cases/jdip/islands")]);
    let plain = Variants::new();

    // Each finds its own plugin's variants by name, by `get` and by `load`.
    assert_eq!(tiny.get("Tiny Isle").unwrap().variant().name, "Tiny_Isle");
    assert_eq!(tiny.load("Tiny Spring").unwrap().start.phase.year, 1851);
    assert!(!islands.get("Islands").unwrap().map().powers().is_empty());
    assert!(islands.load("Islands").is_ok());

    // And never the other's, nor does a value without search paths, even
    // after the others loaded theirs.
    for name in ["Tiny Isle", "Tiny Spring"] {
        assert!(islands.get(name).is_err(), "{name} seen through the islands' paths");
        assert!(islands.load(name).is_err(), "{name} loaded through the islands' paths");
        assert!(plain.get(name).is_err(), "{name} seen without search paths");
    }
    assert!(tiny.get("Islands").is_err());
    assert!(tiny.load("Islands").is_err());
    assert!(plain.load("Islands").is_err());
    assert!(tiny.plugin_variant("Islands").is_none());
    assert!(islands.plugin_variant("Islands").is_some());

    // Bundled names are everyone's.
    for v in [&tiny, &islands, &plain] {
        assert_eq!(v.load("standard").unwrap().name, "standard");
    }
}

#[test]
fn a_clone_shares_its_search_paths_and_a_fresh_value_does_not() {
    let tiny = Variants::with_search_paths([repo("examples/jdip/tiny")]);
    let clone = tiny.clone();
    assert!(clone.get("Tiny Isle").is_ok());
    assert!(Variants::new().get("Tiny Isle").is_err());
}
